mod print;
