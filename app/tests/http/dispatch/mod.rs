mod print;
mod driver;
