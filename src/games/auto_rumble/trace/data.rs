//! What a battle of powers as data tells a host: the events [`crate::games::auto_rumble::reference::data`] reports
//! when asked ([`crate::games::auto_rumble::reference::data::play_narrated`]) and their rendering as the round-by-round
//! text of `skirmish rumble play --powers FILE --narrate`, in the spirit of the rules' sample.
//!
//! Events carry hero ids and numbers only; names come from [`Names`] as the events are read, so a
//! hero is called what it was called at that moment ("Bob" before it splits, "Bob 1" after).

use std::fmt::Write;

use crate::games::auto_rumble::powers::catalogue::Catalogue;
use crate::games::auto_rumble::powers::file::{EffectKind, When};
use crate::games::auto_rumble::state::HeroId;
use crate::games::auto_rumble::trace::hand::{Names, roll_call};

/// One thing that happened, in the order it happened.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    RoundStart {
        round: u32,
        alive: u32,
    },
    /// The hero's use order this round (AR-3): the attack and the powers that fit `budget`, with
    /// their Spend + Burn.
    Plan {
        hero: HeroId,
        budget: i32,
        items: Vec<(Option<u16>, i32)>,
    },
    /// A clause of `power` fired (its limit and conditions allowed it); `other` is a reaction's
    /// other hero.
    Fires {
        hero: HeroId,
        power: u16,
        when: When,
        other: Option<HeroId>,
    },
    /// The default attack starts, hitting for `damage` each (AR-1).
    Attack {
        hero: HeroId,
        damage: i32,
    },
    /// A hit (an attack's or a `damage` effect's) and where it went (AR-5, AR-29).
    Hit {
        by: HeroId,
        target: HeroId,
        attack: bool,
        amount: i32,
        dodged: bool,
        reduced: i32,
        ward: i32,
        defence: i32,
        defence_left: i32,
        prevention: i32,
        prevention_left: i32,
        /// Held off by the target's cap on Energy lost to hits this round (AR-67).
        capped: i32,
        lost: i32,
        energy: i32,
    },
    /// Energy lost outside a hit (a Burn, `lose_energy`, `eliminate`, a drop to a set value).
    Loss {
        hero: HeroId,
        amount: i32,
        energy: i32,
    },
    /// An effect other than a hit or a loss landed on `target`; `after` is the number it changed
    /// (Energy, Defence, prevention, the counter, the tax...).
    Effect {
        by: HeroId,
        target: HeroId,
        power: u16,
        kind: EffectKind,
        value: i32,
        after: i32,
    },
    /// The hero left the battle (AR-5, AR-52).
    Eliminated {
        hero: HeroId,
    },
    /// A copy (`summon` None) or a summon joined after `parent` (AR-11, AR-36).
    Born {
        parent: HeroId,
        parent_energy: i32,
        id: HeroId,
        energy: i32,
        summon: Option<String>,
    },
    /// A copy or summon did not fit (AR-15).
    Capped {
        hero: HeroId,
    },
    Stalemate {
        hero: HeroId,
        before: i32,
        after: i32,
    },
    /// The alive heroes and their Energy after the round.
    RoundEnd {
        round: u32,
        heroes: Vec<(HeroId, i32)>,
    },
}

fn phrase(when: When) -> &'static str {
    match when {
        When::BattleStart => "as the battle starts",
        When::RoundStart => "at the start of the round",
        When::Use => "from the use order",
        When::RoundEnd => "at the end of the round",
        When::Passive => "always",
        When::Attacked => "as it is attacked by",
        When::Damaged => "as it is damaged by",
        When::Hit => "as its attack hits",
        When::DealtDamage => "as it damages",
        When::Kill => "as it eliminates",
        When::OpponentEliminated => "as an opponent leaves:",
        When::Death => "as it falls",
    }
}

/// Tells a battle's events one at a time as they happen, keeping the heroes' names as they
/// change; `team_names` are the heroes that entered.
pub struct Renderer<'a> {
    cat: &'a Catalogue,
    names: Names,
}

impl<'a> Renderer<'a> {
    pub fn new(cat: &'a Catalogue, team_names: &[String]) -> Renderer<'a> {
        Renderer {
            cat,
            names: Names::new(team_names),
        }
    }

    /// The heroes' names after the events told so far.
    pub fn names(&self) -> &Names {
        &self.names
    }

    /// The names, to follow births known otherwise (a replay's).
    pub fn names_mut(&mut self) -> &mut Names {
        &mut self.names
    }

    /// Keeps the names up to date with `e` without telling it (for a trace).
    pub fn follow(&mut self, e: &Event) {
        if let Event::Born {
            parent, id, summon, ..
        } = e
        {
            self.names.born(*parent, *id, summon.as_deref());
        }
    }

    /// Tells `e` into `out`.
    pub fn event(&mut self, e: &Event, out: &mut impl Write) {
        let (cat, names) = (self.cat, &mut self.names);
        let n = |h: &HeroId| names.get(*h).to_string();
        match e {
            Event::RoundStart { round, alive } => {
                let _ = writeln!(out, "\nRound {round} ({alive} heroes alive)");
            }
            Event::Plan {
                hero,
                budget,
                items,
            } => {
                let list: Vec<String> = items
                    .iter()
                    .map(|(p, cost)| match p {
                        None => format!("Attack ({cost})"),
                        Some(p) => format!("{} ({cost})", cat.name(*p)),
                    })
                    .collect();
                let list = if list.is_empty() {
                    "nothing".to_string()
                } else {
                    list.join(", ")
                };
                let _ = writeln!(out, "  {} plans {list} from {budget} Energy.", n(hero));
            }
            Event::Fires {
                hero,
                power,
                when,
                other,
            } => {
                let whom = match (when, other) {
                    (When::Death, Some(o)) => format!(" to {}", n(o)),
                    (_, Some(o)) => format!(" {}", n(o)),
                    (_, None) => String::new(),
                };
                let _ = writeln!(
                    out,
                    "  {}'s {} fires {}{whom}.",
                    n(hero),
                    cat.name(*power),
                    phrase(*when)
                );
            }
            Event::Attack { hero, damage } => {
                let _ = writeln!(out, "  {} attacks, {damage} damage per hit.", n(hero));
            }
            Event::Hit {
                by,
                target,
                attack,
                amount,
                dodged,
                reduced,
                ward,
                defence,
                defence_left,
                prevention,
                prevention_left,
                capped,
                lost,
                energy,
            } => {
                let what = if *attack { "hit" } else { "struck" };
                let mut s = format!("    {} is {what} for {amount} by {}", n(target), n(by));
                if *dodged {
                    s.push_str(": dodged.");
                    let _ = writeln!(out, "{s}");
                    return;
                }
                let mut parts = Vec::new();
                if *reduced > 0 {
                    parts.push(format!("reduced by {reduced}"));
                }
                if *ward > 0 {
                    parts.push(format!("the ward absorbs {ward}"));
                }
                if *defence > 0 {
                    parts.push(format!("defence absorbs {defence} ({defence_left} left)"));
                }
                if *prevention > 0 {
                    parts.push(format!(
                        "prevention absorbs {prevention} ({prevention_left} left)"
                    ));
                }
                if *capped > 0 {
                    parts.push(format!(
                        "{capped} held off by its cap on Energy lost this round"
                    ));
                }
                if !parts.is_empty() {
                    s.push_str(": ");
                    s.push_str(&parts.join(", "));
                }
                let _ = writeln!(out, "{s}; loses {lost} Energy ({energy}).");
            }
            Event::Loss {
                hero,
                amount,
                energy,
            } => {
                let _ = writeln!(out, "    {} loses {amount} Energy ({energy}).", n(hero));
            }
            Event::Effect {
                by,
                target,
                power,
                kind,
                value,
                after,
            } => {
                let t = n(target);
                let line = match kind {
                    EffectKind::AddEnergy => format!("{t} gains {value} Energy ({after})"),
                    EffectKind::SetEnergy => format!("{t}'s Energy becomes {after}"),
                    EffectKind::AddDefence => format!("{t} gains {value} defence ({after})"),
                    EffectKind::LoseDefence => format!("{t} loses {value} defence ({after})"),
                    EffectKind::AddPrevention => {
                        format!("{t} gains {value} prevention ({after})")
                    }
                    EffectKind::CounterAdd(k)
                    | EffectKind::CounterMultiply(k)
                    | EffectKind::CounterSet(k) => {
                        let c = cat.defs[*power as usize]
                            .counters
                            .get(*k as usize)
                            .map_or("counter", |c| c.0.as_str());
                        format!("{t}'s {c} becomes {after}")
                    }
                    EffectKind::Win => format!("{t}'s team wins"),
                    EffectKind::Tax => format!("{t} is taxed {after} of next round's budget"),
                    EffectKind::Revive => format!("{t} comes back with {after} Energy"),
                    EffectKind::Dodge => {
                        format!("{t} dodges attack hits 1, 1 + {value}, ... this round")
                    }
                    EffectKind::Vulnerable => format!("{t} takes x{after} from hits this round"),
                    EffectKind::Lock => format!("{t}'s powers are locked next round"),
                    EffectKind::Ward => format!("{t} is warded for {value} by {}", n(by)),
                    EffectKind::ReduceHit => format!("the hit is reduced by {value}"),
                    EffectKind::CapHit => format!("the hit is capped at {value}"),
                    EffectKind::Give(k) => {
                        let p = cat.gives[*power as usize][*k as usize];
                        format!("{t} now holds {}", cat.name(p))
                    }
                    EffectKind::RemovePower(k) => match cat.removes[*power as usize][*k as usize] {
                        Some(p) => format!("{t} no longer holds {}", cat.name(p)),
                        None => format!("{t} no longer holds any power"),
                    },
                    k => format!("{t}: {k:?} {value}"),
                };
                let _ = writeln!(out, "    {line}.");
            }
            Event::Eliminated { hero } => {
                let _ = writeln!(out, "    {} is eliminated.", n(hero));
            }
            Event::Born {
                parent,
                parent_energy,
                id,
                energy,
                summon,
            } => match summon {
                Some(what) => {
                    names.summoned(*parent, *id, what);
                    let _ = writeln!(out, "  {} joins with {energy} Energy.", names.get(*id));
                }
                None => {
                    let before = n(parent);
                    names.split(*parent, *id);
                    let _ = writeln!(
                        out,
                        "  {before} splits: {} ({parent_energy}), {} ({energy}).",
                        names.get(*parent),
                        names.get(*id)
                    );
                }
            },
            Event::Capped { hero } => {
                let _ = writeln!(
                    out,
                    "    {}'s newcomer does not fit: the table is full (AR-15).",
                    n(hero)
                );
            }
            Event::Stalemate {
                hero,
                before,
                after,
            } => {
                let _ = writeln!(
                    out,
                    "  Stalemate: {} loses half its Energy ({before} -> {after}).",
                    n(hero)
                );
            }
            Event::RoundEnd { round, heroes } => {
                let list: Vec<String> = heroes
                    .iter()
                    .map(|(h, e)| format!("{} {e}", n(h)))
                    .collect();
                let _ = writeln!(out, "  After round {round}: {}.", roll_call(&list));
            }
        }
    }
}
