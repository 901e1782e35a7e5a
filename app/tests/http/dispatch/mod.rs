mod print;
mod driver;
mod board;
