//! Integration tests of the dice engine: one binary, one module per concern.

mod bad_input;
mod exact;
mod notation;
mod properties;
mod stress;
mod support;
