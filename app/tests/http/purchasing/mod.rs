//! Buying imported stock (issue 35).
mod currency;
mod landed;
