//! Buying imported stock (issue 35).
mod container;
mod currency;
mod landed;
mod suggestions;
