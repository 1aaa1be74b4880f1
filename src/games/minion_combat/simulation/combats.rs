//! `skirmish simulate minions` (MC-31): random group-vs-group combats drawn from the catalogue.
//!
//! Combat m's groups are drawn from its seed (stream `MinionField`): each side is a recruit or a
//! monster group (as `kinds` allows, uniformly), of a size uniform in `sizes`, made of up to
//! `types` minion types drawn uniformly from the pool of that kind, each minion one of its
//! group's types at random. Side `m mod 2` has precedence (MC-3), so neither side is favoured.
//! The pool holds every fieldable minion the kernel plays with all its effects (MC-54), or every
//! fieldable minion with `all_minions`: a combat that draws one carrying other clauses is played
//! by the plain model, which plays them (same seed, same combat; slower).

// A slot indexes several parallel columns at once: index loops say so plainly.
#![allow(clippy::needless_range_loop)]

use crate::error::Error;

use std::ops::Range;

use rand::RngExt;

use crate::games::minion_combat::effects::Effects;
use crate::games::minion_combat::input::combat::catalogue_minion;
use crate::games::minion_combat::kernel::combat::{Combat, RoundHook, Silent, Unit};
use crate::games::minion_combat::reference::{self, Fight};
use crate::games::minion_combat::rules::{MAX_GROUP, MAX_ROUNDS, Rules};
use crate::games::minion_combat::state::{Catalogue, Group, Kind, Minion, Outcome, Owner, Stats};
use crate::platform::grid::Grid;
use crate::platform::runner::Simulation;
use crate::platform::table::{Code, I32s, Table};
use crate::platform::tally::Tally;
use crate::rng::{Stream, match_seed, match_stream_rng};

/// Group kinds, as table labels.
pub const KINDS: [&str; 2] = ["recruits", "monsters"];

/// Whether a catalogue entry can be fielded as printed (MC-24), and why not.
pub fn fieldable(s: &Stats) -> Result<(), &'static str> {
    if s.kind == Kind::Form {
        return Err("a Spirit alteration's form");
    }
    if s.hp.is_none() {
        return Err("no printed HP");
    }
    if s.attacks > 0 && s.hand.is_none() && s.missile.is_none() {
        return Err("no printed damage");
    }
    Ok(())
}

/// Whether the kernel plays a catalogue entry with all its combat effects (MC-40, MC-41): no
/// tag but `hero` and those its stat block plays (`printed`).
pub fn plays_exactly(s: &Stats, effects: &Effects) -> bool {
    s.tags
        .iter()
        .all(|t| t == "hero" || (effects.plays(t) && effects.printed_only(t)))
}

/// A catalogue minion as fielded, unmodified.
pub fn fielded(s: &Stats, r: &Rules) -> Minion {
    Minion::from_stats(s, r)
}

/// The random field: which minions, how many, how mixed.
#[derive(Clone, Debug)]
pub struct Field {
    pub rules: Rules,
    pub catalogue: Catalogue,
    /// Catalogue indices of the minions that may be drawn, recruits and monsters.
    pub pool: [Vec<u16>; 2],
    /// Every catalogue minion compiled (unfieldable ones as a placeholder never drawn).
    pub units: Vec<Unit>,
    /// With `all_minions`: the minions of the pool whose clauses the kernel does not play, with
    /// them (by catalogue index); a combat that draws one goes to the plain model (MC-54).
    pub plain: Vec<Option<Minion>>,
    /// Which group kinds may be drawn (recruits, monsters).
    pub kinds: [bool; 2],
    /// Smallest and largest group.
    pub sizes: (usize, usize),
    /// Most minion types in one group.
    pub types: usize,
    pub all_minions: bool,
}

/// One combat's groups as drawn, fixed-size.
#[derive(Clone, Copy, Debug)]
pub struct Draw {
    pub n: [usize; 2],
    pub kind: [usize; 2],
    /// Catalogue index of each minion.
    pub id: [[u16; MAX_GROUP]; 2],
    pub unit: [[Unit; MAX_GROUP]; 2],
    pub first: usize,
}

impl Draw {
    pub fn sides(&self) -> [&[Unit]; 2] {
        [&self.unit[0][..self.n[0]], &self.unit[1][..self.n[1]]]
    }

    /// The two groups as the plain model takes them, each minion made by `minion` from its
    /// catalogue index; the side with precedence is the initiative player's (MC-3).
    pub fn groups(&self, mut minion: impl FnMut(u16) -> Minion) -> [Group; 2] {
        [0, 1].map(|s| Group {
            name: format!("side {s}"),
            owner: if s == self.first {
                Owner::Initiative
            } else {
                Owner::Other
            },
            age: 0,
            minions: self.id[s][..self.n[s]]
                .iter()
                .map(|&id| minion(id))
                .collect(),
        })
    }
}

impl Field {
    pub fn new(
        rules: Rules,
        catalogue: Catalogue,
        kinds: [bool; 2],
        sizes: (usize, usize),
        types: usize,
        all_minions: bool,
    ) -> Result<Field, Error> {
        if sizes.0 < 1 || sizes.1 > MAX_GROUP || sizes.0 > sizes.1 {
            return Err(Error::Input(format!(
                "--sizes {}-{}: a group holds 1 to {MAX_GROUP} minions (MC-1), smallest first",
                sizes.0, sizes.1
            )));
        }
        if types < 1 {
            return Err("--types: at least 1".into());
        }
        if !kinds[0] && !kinds[1] {
            return Err("--kinds: name recruits, monsters or both".into());
        }
        let mut pool: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
        let mut units = Vec::with_capacity(catalogue.minions.len());
        let mut plain = Vec::with_capacity(catalogue.minions.len());
        for (i, s) in catalogue.minions.iter().enumerate() {
            let ok = fieldable(s).is_ok();
            let exact = plays_exactly(s, &catalogue.effects);
            units.push(Unit::new(&fielded(s, &rules), &rules));
            let drawn = ok && (all_minions || exact) && i <= u16::MAX as usize;
            plain.push(if drawn && !exact {
                Some(
                    catalogue_minion(s, &catalogue, &rules).map_err(|e| {
                        format!("--all-minions: `{}` cannot be fielded: {e}", s.name)
                    })?,
                )
            } else {
                None
            });
            if drawn {
                let k = if s.kind == Kind::Recruit { 0 } else { 1 };
                pool[k].push(i as u16);
            }
        }
        for k in 0..2 {
            if kinds[k] && pool[k].is_empty() {
                return Err(Error::Input(format!(
                    "--kinds {}: the catalogue has no fieldable {} to draw{}",
                    KINDS[k],
                    KINDS[k],
                    if all_minions {
                        ""
                    } else {
                        " (add --all-minions to field those with effects only the plain model plays)"
                    }
                )));
            }
        }
        Ok(Field {
            rules,
            catalogue,
            pool,
            units,
            plain,
            kinds,
            sizes,
            types,
            all_minions,
        })
    }

    /// Plays combat m's groups as drawn: on the kernel, or on the plain model when a minion
    /// carries clauses the kernel does not play (MC-54). `rounds` gets each round's HP.
    pub fn play(
        &self,
        d: &Draw,
        seed: u64,
        combat: &mut Combat,
        rounds: Option<&mut Rounds>,
    ) -> Outcome {
        let plain = |s: usize| {
            d.id[s][..d.n[s]]
                .iter()
                .any(|&id| self.plain[id as usize].is_some())
        };
        // Only `all_minions` draws minions for the plain model: the kernel's field skips the look.
        if self.all_minions && (plain(0) || plain(1)) {
            let groups = d.groups(|id| match &self.plain[id as usize] {
                Some(m) => m.clone(),
                None => fielded(&self.catalogue.minions[id as usize], &self.rules),
            });
            let groups = [&groups[0], &groups[1]];
            return match rounds {
                Some(r) => reference::combat(groups, &self.rules, seed, r),
                None => reference::combat(groups, &self.rules, seed, &mut reference::Quiet),
            };
        }
        match rounds {
            Some(r) => combat.play(d.sides(), d.first, &self.rules, seed, r),
            None => combat.play(d.sides(), d.first, &self.rules, seed, &mut Silent),
        }
    }

    /// Combat m's groups (MC-31).
    pub fn draw(&self, m: u64, seed: u64) -> Draw {
        let mut rng = match_stream_rng(seed, Stream::MinionField);
        let mut d = Draw {
            n: [0; 2],
            kind: [0; 2],
            id: [[0; MAX_GROUP]; 2],
            unit: [[Unit::default(); MAX_GROUP]; 2],
            first: (m & 1) as usize,
        };
        for s in 0..2 {
            let k = match self.kinds {
                [true, true] => rng.random_range(0..2usize),
                [true, false] => 0,
                _ => 1,
            };
            let pool = &self.pool[k];
            let n = rng.random_range(self.sizes.0..=self.sizes.1);
            let t = rng.random_range(1..=self.types.min(n));
            let mut types = [0u16; MAX_GROUP];
            for x in types.iter_mut().take(t) {
                *x = pool[rng.random_range(0..pool.len())];
            }
            for i in 0..n {
                let id = types[rng.random_range(0..t)];
                d.id[s][i] = id;
                d.unit[s][i] = self.units[id as usize];
            }
            d.n[s] = n;
            d.kind[s] = k;
        }
        d
    }
}

pub const KIND_WINS: &str = "win share by matchup";
pub const MINION_WINS: &str = "win share of a minion's group";
pub const FIRST_WINS: &str = "win share of the side with precedence";

/// Hit points of every slot after each round (record mode only).
#[derive(Default)]
pub struct Rounds {
    pub hp: Vec<[[i32; MAX_GROUP]; 2]>,
}

impl RoundHook for Rounds {
    fn round_end(&mut self, _g: u32, c: &Combat) {
        let mut row = [[0; MAX_GROUP]; 2];
        for s in 0..2 {
            for i in 0..MAX_GROUP {
                row[s][i] = c.hp(s, i);
            }
        }
        self.hp.push(row);
    }
}

/// The same rows from the plain model: a minion out of the combat counts 0, as the kernel's.
impl reference::Hook for Rounds {
    fn round_end(&mut self, _g: u32, f: &Fight) {
        let mut row = [[0; MAX_GROUP]; 2];
        for s in 0..2 {
            for (i, m) in f.side[s].iter().enumerate() {
                row[s][i] = if m.alive { m.hp } else { 0 };
            }
        }
        self.hp.push(row);
    }
}

/// A worker: the kernel and the per-round buffer.
pub struct Worker {
    pub combat: Combat,
    rounds: Rounds,
}

impl Simulation for Field {
    type Worker = Worker;

    fn name(&self) -> &'static str {
        "minion-combats"
    }
    fn grids(&self, tally: &Tally) -> Vec<Grid> {
        grids(self, tally)
    }

    fn tables(&self) -> Vec<&'static str> {
        vec!["combats", "minions"]
    }
    fn work_unit(&self) -> &'static str {
        "attacks resolved"
    }
    fn worker(&self) -> Worker {
        Worker {
            combat: Combat::new(),
            rounds: Rounds {
                hp: Vec::with_capacity(MAX_ROUNDS as usize),
            },
        }
    }

    fn play(
        &self,
        w: &mut Worker,
        master: u64,
        matches: Range<u64>,
        record: bool,
    ) -> (Vec<Table>, Tally) {
        let mut tally = Tally::default();
        let (mut c, mut mr) = (CombatRows::default(), MinionRows::default());
        for m in matches {
            let seed = match_seed(master, m);
            let d = self.draw(m, seed);
            let o = if record {
                w.rounds.hp.clear();
                self.play(&d, seed, &mut w.combat, Some(&mut w.rounds))
            } else {
                self.play(&d, seed, &mut w.combat, None)
            };
            tally.matches += 1;
            tally.draws += o.winner.is_none() as u64;
            tally.work += (o.attacks[0] + o.attacks[1]) as u64;
            let label = format!("{} vs {}", KINDS[d.kind[0]], KINDS[d.kind[1]]);
            tally.mean(KIND_WINS, &label).add(o.points(0) as i64);
            tally
                .mean(FIRST_WINS, "precedence")
                .add(o.points(d.first) as i64);
            for s in 0..2 {
                let mut seen = [u16::MAX; MAX_GROUP];
                for i in 0..d.n[s] {
                    let id = d.id[s][i];
                    if seen.contains(&id) {
                        continue;
                    }
                    seen[i] = id;
                    let name = &self.catalogue.minions[id as usize].name;
                    tally.mean(MINION_WINS, name).add(o.points(s) as i64);
                }
            }
            if record {
                push_rows(&mut c, &mut mr, m, seed, &d, &o, &w.rounds);
            }
        }
        if !record {
            return (Vec::new(), tally);
        }
        let names: Vec<String> = self
            .catalogue
            .minions
            .iter()
            .map(|x| x.name.clone())
            .collect();
        let kinds = || KINDS.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let combats = c
            .finish()
            .with_labels("kind_a", kinds())
            .with_labels("kind_b", kinds())
            .with_labels(
                "end",
                ["wiped", "both", "rounds"].map(String::from).to_vec(),
            );
        (
            vec![combats, mr.finish().with_labels("minion", names)],
            tally,
        )
    }
}

crate::table! {
    /// One row per combat.
    struct CombatRow, CombatRows = "combats" {
        combat_id: u64 => "combat index under the master seed",
        seed: u64 => "the combat's own seed (rng::match_seed)",
        first: u8 => "the side with precedence (MC-3)",
        kind_a: Code => "side 0: recruits or monsters",
        kind_b: Code => "side 1",
        size_a: u8 => "side 0's minions",
        size_b: u8 => "side 1's minions",
        winner: Option<u16> => "0 or 1; null when both stand or both fall (MC-22)",
        end: Code => "wiped (one side), both (both sides wiped) or rounds (both stand)",
        rounds: u32 => "rounds played",
        survivors_a: u8 => "side 0's minions standing",
        survivors_b: u8 => "side 1's minions standing",
        hp_a: i32 => "side 0's HP left",
        hp_b: i32 => "side 1's HP left",
        attacks_a: u32 => "attacks side 0 made",
        attacks_b: u32 => "attacks side 1 made",
        hits_a: u32 => "side 0's hits",
        hits_b: u32 => "side 1's hits",
        kills_a: u32 => "side 0's kills",
        kills_b: u32 => "side 1's kills",
        survivors_a_by_round: I32s => "side 0's minions standing after each round",
        survivors_b_by_round: I32s => "side 1's, after each round",
        hp_a_by_round: I32s => "side 0's HP left after each round",
        hp_b_by_round: I32s => "side 1's, after each round",
    }
}

crate::table! {
    /// One row per minion of each combat.
    struct MinionRow, MinionRows = "minions" {
        combat_id: u64 => "combat index",
        side: u8 => "0 or 1",
        slot: u8 => "position in its group (attack order)",
        minion: Code => "catalogue name",
        start_hp: i32 => "HP at the start",
        end_hp: i32 => "HP at the end (0: dead)",
        qualified: bool => "a recruit that killed: an experience level next turn (MC-21)",
        hp_by_round: I32s => "HP after each round (0 once dead)",
    }
}

/// A combat's row and its minions' rows; the per-round lists are gathered on the stack.
fn push_rows(
    c: &mut CombatRows,
    mr: &mut MinionRows,
    m: u64,
    seed: u64,
    d: &Draw,
    o: &Outcome,
    rounds: &Rounds,
) {
    const R: usize = MAX_ROUNDS as usize;
    let n = rounds.hp.len();
    let (mut alive, mut hp) = ([[0i32; R]; 2], [[0i32; R]; 2]);
    for s in 0..2 {
        for (r, row) in rounds.hp.iter().enumerate() {
            alive[s][r] = row[s][..d.n[s]].iter().filter(|h| **h > 0).count() as i32;
            hp[s][r] = row[s].iter().sum();
        }
    }
    c.push(CombatRow {
        combat_id: m,
        seed,
        first: d.first as u8,
        kind_a: d.kind[0] as u16,
        kind_b: d.kind[1] as u16,
        size_a: d.n[0] as u8,
        size_b: d.n[1] as u8,
        winner: o.winner.map(|w| w as u16),
        end: o.end as u16,
        rounds: o.rounds,
        survivors_a: o.survivors(0) as u8,
        survivors_b: o.survivors(1) as u8,
        hp_a: o.hp_left(0) as i32,
        hp_b: o.hp_left(1) as i32,
        attacks_a: o.attacks[0],
        attacks_b: o.attacks[1],
        hits_a: o.hits[0],
        hits_b: o.hits[1],
        kills_a: o.kills[0],
        kills_b: o.kills[1],
        survivors_a_by_round: &alive[0][..n],
        survivors_b_by_round: &alive[1][..n],
        hp_a_by_round: &hp[0][..n],
        hp_b_by_round: &hp[1][..n],
    });
    for s in 0..2 {
        for i in 0..d.n[s] {
            let mut by_round = [0i32; R];
            for (r, row) in rounds.hp.iter().enumerate() {
                by_round[r] = row[s][i];
            }
            mr.push(MinionRow {
                combat_id: m,
                side: s as u8,
                slot: i as u8,
                minion: d.id[s][i],
                start_hp: d.unit[s][i].hp,
                end_hp: o.hp[s][i],
                qualified: o.qualified[s][i],
                hp_by_round: &by_round[..n],
            });
        }
    }
}

/// The summary's grids (issue 50): win share by matchup, of the side with precedence, and of
/// each minion's group, with 95% intervals; the pool they were drawn from says the first.
pub fn grids(f: &Field, tally: &Tally) -> Vec<Grid> {
    let pool = format!(
        "pool: {} recruits, {} monsters ({}); groups of {}-{}, up to {} types",
        f.pool[0].len(),
        f.pool[1].len(),
        if f.all_minions {
            "every fieldable minion; unplayed effects ignored"
        } else {
            "minions the kernel plays with all their effects"
        },
        f.sizes.0,
        f.sizes.1,
        f.types
    );
    [
        (FIRST_WINS, "the side with precedence", "side", usize::MAX),
        (KIND_WINS, "side 0, by matchup", "matchup", usize::MAX),
        (MINION_WINS, "a minion's group (top 15)", "minion", 15),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (group, title, corner, top))| {
        let meaning = "draws count half; combats, and share with its 95% interval";
        Grid::points(
            &format!("win share of {title}"),
            &if i == 0 {
                format!("{pool}; {meaning}")
            } else {
                meaning.to_string()
            },
            corner,
            "combats",
            tally.means.get(group),
            top,
        )
    })
    .collect()
}
