//! The optimised battles. `hand`: the hand-written kernel of the six sample powers (the speed
//! yardstick and the golden sample's player); `data`: the data kernel's fast path for
//! self-contained powers; `general`: the data kernel's path for every clause; `powerless`: rounds
//! without powers, shared by `hand` and `data`; `hook`: what a data battle reports after each
//! round. Each sits above what it uses: `data` -> `general` -> `hook`.

pub mod data;
pub mod general;
pub mod hand;
pub mod hook;
pub mod powerless;
