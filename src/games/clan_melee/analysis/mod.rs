//! Questions answered over many melees: the best warrior AP and healer share (`study`, CM-40).

pub mod study;
