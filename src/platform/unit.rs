//! What a number is (a share, a mean, a difference in points, a signed value) and how it is
//! shown: shared by answers and grids, which must not know each other for it.

use serde::{Deserialize, Serialize};

/// What a section's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// A fraction shown in percent (win rates).
    Share,
    /// A plain number (a mean).
    Number,
    /// A difference of two shares, in percentage points (a what-if's B - A).
    Points,
    /// A number shown with its sign (a coin value, a difference of means).
    Signed,
}

impl Unit {
    /// A value to one decimal as its unit shows it (tables, standings, heat maps).
    pub fn short(self, v: f64) -> String {
        match self {
            Unit::Share => format!("{:.1}%", 100.0 * v),
            Unit::Points => format!("{:+.1} pt", 100.0 * v),
            Unit::Number => format!("{v:.2}"),
            Unit::Signed => format!("{v:+.1}"),
        }
    }

    /// [`short`](Unit::short) without the unit's sign (`%`, ` pt`): an interval's ends.
    pub fn bare(self, v: f64) -> String {
        match self {
            Unit::Share => format!("{:.1}", 100.0 * v),
            Unit::Points => format!("{:+.1}", 100.0 * v),
            other => other.short(v),
        }
    }
}
