//! Questions answered over many battles: what each power is worth (`power_value`, AR-44).

pub mod metagame;
pub mod power_value;
