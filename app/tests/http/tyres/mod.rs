mod shown;
