mod landed;
