//! The six sample powers ("Sample round 1"), identified by small ids inside the kernel.

use std::fmt;

/// When a power acts. Only `Spend` powers appear in a use order (AR-17).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// Fires in the start-of-round phase.
    StartOfRound,
    /// Used from the use order during the action phase, for a Spend cost.
    Spend(i32),
    /// Fires in the end-of-round phase, in the order held.
    EndOfRound,
    /// Always on; never "used" (AR-9).
    Passive,
}

/// A sample power. The discriminant is the id the kernel stores.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Power {
    Amoeba = 0,
    BigGnashyClaws = 1,
    CosmicShield = 2,
    Souleater = 3,
    Crystallize = 4,
    TitaniumSkin = 5,
}

impl Power {
    /// Every power, in the order the sample lists them.
    pub const ALL: [Power; 6] = [
        Power::Amoeba,
        Power::BigGnashyClaws,
        Power::CosmicShield,
        Power::Souleater,
        Power::Crystallize,
        Power::TitaniumSkin,
    ];

    /// The name as the rules spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Power::Amoeba => "Amoeba",
            Power::BigGnashyClaws => "Big, Gnashy Claws",
            Power::CosmicShield => "Cosmic Shield",
            Power::Souleater => "Souleater",
            Power::Crystallize => "Crystallize",
            Power::TitaniumSkin => "Titanium Skin",
        }
    }

    #[inline]
    pub const fn trigger(self) -> Trigger {
        match self {
            Power::Amoeba | Power::Souleater => Trigger::EndOfRound,
            Power::CosmicShield => Trigger::StartOfRound,
            Power::Crystallize => {
                Trigger::Spend(crate::games::auto_rumble::rules::CRYSTALLIZE_COST)
            }
            Power::BigGnashyClaws | Power::TitaniumSkin => Trigger::Passive,
        }
    }

    /// The bit of this power in a [`PowerSet`].
    #[inline]
    pub const fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// Looks a power up by name, forgiving case, spaces and punctuation ("titanium skin",
    /// "Big Gnashy Claws").
    pub fn from_name(name: &str) -> Option<Power> {
        let key = normalise(name);
        Power::ALL.into_iter().find(|p| normalise(p.name()) == key)
    }

    /// The closest power name, for "did you mean" hints.
    pub fn closest(name: &str) -> Option<Power> {
        let key = normalise(name);
        Power::ALL
            .into_iter()
            .map(|p| (edit_distance(&key, &normalise(p.name())), p))
            .filter(|(d, _)| *d <= 3.max(key.len() / 3))
            .min_by_key(|(d, _)| *d)
            .map(|(_, p)| p)
    }
}

impl fmt::Display for Power {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of powers as one byte: what the kernel checks per hero per phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PowerSet(pub u8);

impl PowerSet {
    #[inline]
    pub const fn has(self, p: Power) -> bool {
        self.0 & p.bit() != 0
    }
    #[inline]
    pub fn insert(&mut self, p: Power) {
        self.0 |= p.bit();
    }
}

use crate::names::normalise;
pub use crate::names::{closest_name, edit_distance};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_forgive_case_and_punctuation() {
        for p in Power::ALL {
            assert_eq!(Power::from_name(p.name()), Some(p));
        }
        assert_eq!(Power::from_name("titanium skin"), Some(Power::TitaniumSkin));
        assert_eq!(
            Power::from_name("Big Gnashy Claws"),
            Some(Power::BigGnashyClaws)
        );
        assert_eq!(Power::from_name("Crystalize"), None);
    }

    #[test]
    fn misspelt_power_suggests_the_nearest_name() {
        assert_eq!(Power::closest("Crystalize"), Some(Power::Crystallize));
        assert_eq!(Power::closest("Soul eater"), Some(Power::Souleater));
        assert_eq!(Power::closest("Fireball of doom"), None);
    }

    // Only Crystallize is a Spend power among the six; it is the only one a use order may name.
    #[test]
    fn only_crystallize_is_spent_from_the_use_order() {
        let spend: Vec<Power> = Power::ALL
            .into_iter()
            .filter(|p| matches!(p.trigger(), Trigger::Spend(_)))
            .collect();
        assert_eq!(spend, vec![Power::Crystallize]);
    }
}
