//! Integration tests of the dice engine: one binary, one module per concern.

mod bad_input;
mod enumerate;
mod exact;
mod foreign;
mod habits;
mod limits;
mod net;
mod notation;
mod properties;
mod seeded;
mod stress;
mod support;
