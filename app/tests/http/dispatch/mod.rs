mod board;
