//! The power-file language: `expr` (values and conditions), `file` (TOML to power definitions,
//! load-time checks, `describe`), `catalogue` (a loaded file compiled into ids, a clause table and
//! per-hero loadouts), `limits` (every limit of the format), and `sample` (the six sample powers as ids, for the hand-written kernel).

pub mod catalogue;
pub mod expr;
pub mod file;
pub mod limits;
pub mod sample;
