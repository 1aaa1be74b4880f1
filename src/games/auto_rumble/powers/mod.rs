//! The power-file language: `expr` (values and conditions), `file` (TOML to power definitions,
//! load-time checks, `describe`), `catalogue` (a loaded file compiled into ids, a clause table and
//! per-hero loadouts), `limits` (every limit of the format), `reference` (the format's full reference,
//! generated from the loader's tables), and `sample` (the six sample powers as ids, for the hand-written kernel).

pub mod catalogue;
pub mod expr;
pub mod file;
pub mod limits;
pub mod reference;
pub mod sample;
