//! What a battle tells the world: the observer interface the kernel and the reference model call,
//! and the observers this crate ships (round recorder, JSON Lines trace, narration).
//!
//! The kernel is generic over [`Observer`]; with [`Silent`] every call is an empty inline function
//! and compiles away, so narration costs nothing when nobody listens.

use std::fmt::Write as _;

use crate::games::auto_rumble::input::roster::UseItem;
use crate::games::auto_rumble::state::{HeroId, RoundView};
use crate::platform::sink::Sink;

/// How one hit resolved (AR-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub damage: i32,
    pub by_defence: i32,
    pub by_prevention: i32,
    pub to_energy: i32,
    pub energy_after: i32,
    pub defence_left: i32,
    pub prevention_left: i32,
}

/// Events of a battle, in the order they happen. Every method defaults to doing nothing.
#[allow(unused_variables)]
pub trait Observer {
    /// False only for observers that ignore everything: the kernel then skips building the
    /// events' arguments (slices and bounds checks the optimiser cannot drop on its own).
    const ENABLED: bool = true;

    fn round_start(&mut self, round: u32, alive: u32) {}
    /// Cosmic Shield fired at the start of the round (AR-7).
    fn shield(&mut self, hero: HeroId, defence: i32) {}
    /// The hero's plan for the round (AR-3), fixed at the start of the round from `budget`.
    fn plan(&mut self, hero: HeroId, budget: i32, plan: &[UseItem], claws_out: bool) {}
    /// The hero pays for its attack, which hits for `damage` each.
    fn attack(&mut self, hero: HeroId, damage: i32) {}
    fn hit(&mut self, attacker: HeroId, target: HeroId, hit: &Hit) {}
    /// Crystallize added `gain` defence (AR-8).
    fn crystallize(&mut self, hero: HeroId, gain: i32) {}
    fn death(&mut self, hero: HeroId) {}
    /// Souleater fired (AR-10); `gain` may be 0.
    fn souleater(&mut self, hero: HeroId, eliminated: u32, gain: i32, energy: i32) {}
    /// Amoeba fired (AR-11); `copy` is `None` when capacity stopped the copy (AR-15).
    fn amoeba(&mut self, hero: HeroId, copy: Option<HeroId>, energy_before: i32, energy: i32) {}
    /// The stalemate loss (AR-13) hit this hero.
    fn stalemate(&mut self, hero: HeroId, energy_before: i32, energy: i32) {}
    /// The round is over; `heroes` are the alive heroes in initiative order.
    fn round_end(&mut self, round: u32, heroes: RoundView<'_>) {}
}

/// Hears nothing: the kernel's fast path.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;
impl Observer for Silent {
    const ENABLED: bool = false;
}

/// Records every round's alive heroes and Energies: what the differential and golden tests compare.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundRecorder {
    pub rounds: Vec<Vec<(HeroId, i32)>>,
}

impl Observer for RoundRecorder {
    fn round_end(&mut self, _round: u32, heroes: RoundView<'_>) {
        self.rounds.push(
            heroes
                .id
                .iter()
                .copied()
                .zip(heroes.energy.iter().copied())
                .collect(),
        );
    }
}

/// Hero names as the sample gives them (AR-20): a hero that multiplies becomes `Bob 1` and its
/// copy `Bob 2`; at the next split `Bob 1A`/`Bob 1B`, then digits again.
#[derive(Clone, Debug, Default)]
pub struct Names {
    name: Vec<String>,
    generation: Vec<u32>,
    team: Vec<u16>,
}

impl Names {
    pub fn new(team_names: &[String]) -> Names {
        Names {
            name: team_names.to_vec(),
            generation: vec![0; team_names.len()],
            team: (0..team_names.len() as u16).collect(),
        }
    }

    pub fn get(&self, hero: HeroId) -> &str {
        &self.name[hero as usize]
    }

    pub fn team_of(&self, hero: HeroId) -> u16 {
        self.team[hero as usize]
    }

    /// Names a summoned hero (AR-36) after its summoner: "Bob's Worshippers".
    /// A hero joined after `parent`: a copy (`summon` None) or a summon of that name.
    pub fn born(&mut self, parent: HeroId, id: HeroId, summon: Option<&str>) {
        match summon {
            Some(what) => self.summoned(parent, id, what),
            None => self.split(parent, id),
        }
    }

    pub fn summoned(&mut self, summoner: HeroId, id: HeroId, what: &str) {
        debug_assert_eq!(
            id as usize,
            self.name.len(),
            "heroes are numbered in creation order"
        );
        let name = format!("{}'s {what}", self.name[summoner as usize]);
        self.name.push(name);
        self.generation.push(0);
        self.team.push(self.team[summoner as usize]);
    }

    /// Renames `original` and names its new `copy` (copies are numbered in creation order).
    pub fn split(&mut self, original: HeroId, copy: HeroId) {
        let o = original as usize;
        let g = self.generation[o];
        let (first, second) = if g.is_multiple_of(2) {
            ("1", "2")
        } else {
            ("A", "B")
        };
        let sep = if g == 0 { " " } else { "" };
        let base = self.name[o].clone();
        self.name[o] = format!("{base}{sep}{first}");
        self.generation[o] = g + 1;
        debug_assert_eq!(
            copy as usize,
            self.name.len(),
            "copies are numbered in creation order"
        );
        self.name.push(format!("{base}{sep}{second}"));
        self.generation.push(g + 1);
        self.team.push(self.team[o]);
    }
}

/// `--trace`: one JSON object per alive hero after each round, then the result line.
#[derive(Debug)]
pub struct JsonTrace {
    names: Names,
    team_names: Vec<String>,
    pub out: Sink,
}

impl JsonTrace {
    /// Kept in memory ([`Sink::finish`] gives the text).
    pub fn new(team_names: &[String]) -> JsonTrace {
        JsonTrace::writing_to(team_names, Sink::memory())
    }

    /// Written into `out` (e.g. streamed to stdout) as the battle goes.
    pub fn writing_to(team_names: &[String], out: Sink) -> JsonTrace {
        JsonTrace {
            names: Names::new(team_names),
            team_names: team_names.to_vec(),
            out,
        }
    }

    /// The closing line: `{"winner":"Bob","rounds":4}`, plus `"capped":true` under AR-15.
    pub fn finish(&mut self, winner: Option<u16>, rounds: u32, capped: bool) {
        let winner = winner.map_or("null".to_string(), |t| {
            json_str(&self.team_names[t as usize])
        });
        let capped = if capped { ",\"capped\":true" } else { "" };
        let _ = writeln!(
            self.out,
            "{{\"winner\":{winner},\"rounds\":{rounds}{capped}}}"
        );
    }
}

impl Observer for JsonTrace {
    fn amoeba(&mut self, hero: HeroId, copy: Option<HeroId>, _: i32, _: i32) {
        if let Some(c) = copy {
            self.names.split(hero, c);
        }
    }

    fn round_end(&mut self, round: u32, heroes: RoundView<'_>) {
        for (&id, &energy) in heroes.id.iter().zip(heroes.energy) {
            let team = &self.team_names[self.names.team_of(id) as usize];
            let (team, hero) = (json_str(team), json_str(self.names.get(id)));
            let _ = writeln!(
                self.out,
                "{{\"round\":{round},\"team\":{team},\"hero\":{hero},\"energy\":{energy}}}"
            );
        }
    }
}

/// A JSON string literal (keys are written by hand to keep the documented key order).
pub fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string always serialises")
}

/// `--narrate`: the battle told round by round, in the spirit of the rules' sample.
#[derive(Debug)]
pub struct Narrator {
    names: Names,
    /// This round's budget per hero id, from the plan event, for "spends 10 (out of 118)".
    budget: std::collections::HashMap<HeroId, i32>,
    pub out: Sink,
}

impl Narrator {
    /// Kept in memory ([`Sink::finish`] gives the text).
    pub fn new(team_names: &[String]) -> Narrator {
        Narrator::writing_to(team_names, Sink::memory())
    }

    /// Written into `out` (e.g. streamed to stdout) as the battle goes.
    pub fn writing_to(team_names: &[String], out: Sink) -> Narrator {
        Narrator {
            names: Names::new(team_names),
            budget: Default::default(),
            out,
        }
    }

    fn n(&self, hero: HeroId) -> &str {
        self.names.get(hero)
    }

    fn line(&mut self, text: std::fmt::Arguments<'_>) {
        let _ = self.out.write_fmt(text);
        self.out.push('\n');
    }
}

impl Observer for Narrator {
    fn round_start(&mut self, round: u32, alive: u32) {
        self.line(format_args!("\nRound {round} ({alive} heroes alive)"));
    }

    fn shield(&mut self, hero: HeroId, defence: i32) {
        let n = self.n(hero).to_string();
        self.line(format_args!(
            "  At the start of the round {n}'s Cosmic Shield gives {defence} defence."
        ));
    }

    fn plan(&mut self, hero: HeroId, budget: i32, plan: &[UseItem], claws_out: bool) {
        self.budget.insert(hero, budget);
        if plan.is_empty() {
            let n = self.n(hero).to_string();
            self.line(format_args!("  {n} has only {budget} Energy to allocate: too little for its first item, so it will do nothing this round."));
        } else if claws_out {
            let n = self.n(hero).to_string();
            self.line(format_args!("  {n} will use no power but its attack this round: Big, Gnashy Claws add 20 to each hit."));
        }
    }

    fn attack(&mut self, hero: HeroId, damage: i32) {
        let n = self.n(hero).to_string();
        let budget = self.budget.get(&hero).copied().unwrap_or_default();
        self.line(format_args!("  {n} spends 10 Energy (out of {budget}) to attack everyone else for {damage} damage each."));
    }

    fn hit(&mut self, _attacker: HeroId, target: HeroId, h: &Hit) {
        let t = self.n(target).to_string();
        let mut parts = Vec::new();
        if h.by_defence > 0 {
            parts.push(format!(
                "defence absorbs {} ({} left)",
                h.by_defence, h.defence_left
            ));
        }
        if h.by_prevention > 0 {
            parts.push(format!(
                "Titanium Skin prevents {} ({} of 50 left)",
                h.by_prevention, h.prevention_left
            ));
        }
        let how = if parts.is_empty() {
            String::new()
        } else {
            format!(": {}", parts.join(", "))
        };
        self.line(format_args!(
            "    {t} is hit for {}{how}; loses {} Energy ({}).",
            h.damage, h.to_energy, h.energy_after
        ));
    }

    fn crystallize(&mut self, hero: HeroId, gain: i32) {
        let n = self.n(hero).to_string();
        self.line(format_args!(
            "  {n} spends 20 Energy on Crystallize, gaining {gain} defence."
        ));
    }

    fn death(&mut self, hero: HeroId) {
        let n = self.n(hero).to_string();
        self.line(format_args!("    {n} is dead!"));
    }

    fn souleater(&mut self, hero: HeroId, eliminated: u32, gain: i32, energy: i32) {
        let n = self.n(hero).to_string();
        if eliminated > 0 {
            self.line(format_args!("  At the end of the round {n} uses Souleater: {eliminated} opponent(s) eliminated, +{gain} Energy ({energy})."));
        }
    }

    fn amoeba(&mut self, hero: HeroId, copy: Option<HeroId>, before: i32, energy: i32) {
        match copy {
            Some(c) => {
                let was = self.n(hero).to_string();
                self.names.split(hero, c);
                let (a, b) = (self.n(hero).to_string(), self.n(c).to_string());
                self.line(format_args!("  At the end of the round {was} uses Amoeba ({before} Energy): {a} ({energy}), {b} ({energy})."));
            }
            None => {
                let a = self.n(hero).to_string();
                self.line(format_args!("  At the end of the round {a} uses Amoeba ({before} -> {energy} Energy) but the battle is at capacity: no copy (capped)."));
            }
        }
    }

    fn stalemate(&mut self, hero: HeroId, before: i32, energy: i32) {
        let n = self.n(hero).to_string();
        self.line(format_args!(
            "  Stalemate: {n} loses half its Energy ({before} -> {energy})."
        ));
    }

    fn round_end(&mut self, round: u32, heroes: RoundView<'_>) {
        let list: Vec<String> = heroes
            .id
            .iter()
            .zip(heroes.energy)
            .map(|(&id, e)| format!("{} {e}", self.n(id)))
            .collect();
        self.line(format_args!("  After round {round}: {}.", roll_call(&list)));
    }
}

/// The alive heroes after a round, as the narration lists them: the first 12, then a count.
pub fn roll_call(list: &[String]) -> String {
    if list.len() > 12 {
        format!("{} ... and {} more", list[..12].join(", "), list.len() - 12)
    } else {
        list.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // AR-20: Bob -> Bob 1 / Bob 2 -> Bob 1A / Bob 1B ... as in the sample.
    #[test]
    fn copies_are_named_as_the_sample_names_them() {
        let mut n = Names::new(&["Alice".to_string(), "Bob".to_string()]);
        n.split(1, 2);
        assert_eq!((n.get(1), n.get(2)), ("Bob 1", "Bob 2"));
        n.split(1, 3);
        n.split(2, 4);
        assert_eq!(
            [n.get(1), n.get(3), n.get(2), n.get(4)],
            ["Bob 1A", "Bob 1B", "Bob 2A", "Bob 2B"]
        );
        n.split(1, 5);
        assert_eq!((n.get(1), n.get(5)), ("Bob 1A1", "Bob 1A2"));
        assert_eq!(n.team_of(5), 1);
        assert_eq!(n.get(0), "Alice");
    }
}
