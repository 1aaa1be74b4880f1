//! Questions answered beyond tournaments: the two-player core solved exactly (`duel`, by
//! `matrix_game`) and the policies measured against it (`oracle`).

pub mod duel;
pub mod duel_study;
pub mod matrix_game;
pub mod oracle;
