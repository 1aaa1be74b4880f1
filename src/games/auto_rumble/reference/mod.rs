//! The plain models the kernels are tested against: `hand` (the six sample powers, oracle of
//! `kernel::hand`) and `data` (every clause of the power-file format, oracle of `kernel::data` and
//! `kernel::general`, and the player of single narrated battles).

pub mod data;
pub mod hand;
