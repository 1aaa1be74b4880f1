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

use std::ops::Range;

use rand::RngExt;

use crate::games::minion_combat::effects::Effects;
use crate::games::minion_combat::input::combat::catalogue_minion;
use crate::games::minion_combat::kernel::combat::{Combat, RoundHook, Silent, Unit};
use crate::games::minion_combat::reference::{self, Fight};
use crate::games::minion_combat::rules::{MAX_GROUP, MAX_ROUNDS, Rules};
use crate::games::minion_combat::state::{Catalogue, Group, Kind, Minion, Outcome, Owner, Stats};
use crate::platform::runner::Simulation;
use crate::platform::table::{ListBuilder, Table, Values, col};
use crate::platform::tally::{Tally, thousands};
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
    ) -> Result<Field, String> {
        if sizes.0 < 1 || sizes.1 > MAX_GROUP || sizes.0 > sizes.1 {
            return Err(format!(
                "--sizes {}-{}: a group holds 1 to {MAX_GROUP} minions (MC-1), smallest first",
                sizes.0, sizes.1
            ));
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
                return Err(format!(
                    "--kinds {}: the catalogue has no fieldable {} to draw{}",
                    KINDS[k],
                    KINDS[k],
                    if all_minions {
                        ""
                    } else {
                        " (add --all-minions to field those with effects only the plain model plays)"
                    }
                ));
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
        let n = (matches.end - matches.start) as usize;
        let mut c = CombatRows::with_capacity(if record { n } else { 0 });
        let mut mr = MinionRows::with_capacity(if record { 8 * n } else { 0 });
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
                c.push(m, seed, &d, &o, &w.rounds);
                for s in 0..2 {
                    for i in 0..d.n[s] {
                        mr.push(m, s, i, &d, &o, &w.rounds);
                    }
                }
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
        (vec![c.finish(), mr.finish(names)], tally)
    }
}

struct CombatRows {
    id: Vec<u64>,
    seed: Vec<u64>,
    first: Vec<u8>,
    kind: [Vec<u16>; 2],
    size: [Vec<u8>; 2],
    winner: Vec<Option<u16>>,
    end: Vec<u16>,
    rounds: Vec<u32>,
    survivors: [Vec<u8>; 2],
    hp: [Vec<i32>; 2],
    attacks: [Vec<u32>; 2],
    hits: [Vec<u32>; 2],
    kills: [Vec<u32>; 2],
    survivors_by_round: [ListBuilder<i32>; 2],
    hp_by_round: [ListBuilder<i32>; 2],
}

impl CombatRows {
    fn with_capacity(n: usize) -> CombatRows {
        fn v<T>(n: usize) -> [Vec<T>; 2] {
            [Vec::with_capacity(n), Vec::with_capacity(n)]
        }
        let l = || {
            [
                ListBuilder::with_capacity(n, 10 * n),
                ListBuilder::with_capacity(n, 10 * n),
            ]
        };
        CombatRows {
            id: Vec::with_capacity(n),
            seed: Vec::with_capacity(n),
            first: Vec::with_capacity(n),
            kind: v(n),
            size: v(n),
            winner: Vec::with_capacity(n),
            end: Vec::with_capacity(n),
            rounds: Vec::with_capacity(n),
            survivors: v(n),
            hp: v(n),
            attacks: v(n),
            hits: v(n),
            kills: v(n),
            survivors_by_round: l(),
            hp_by_round: l(),
        }
    }
    fn push(&mut self, m: u64, seed: u64, d: &Draw, o: &Outcome, rounds: &Rounds) {
        self.id.push(m);
        self.seed.push(seed);
        self.first.push(d.first as u8);
        self.winner.push(o.winner.map(|w| w as u16));
        self.end.push(o.end as u16);
        self.rounds.push(o.rounds);
        for s in 0..2 {
            self.kind[s].push(d.kind[s] as u16);
            self.size[s].push(d.n[s] as u8);
            self.survivors[s].push(o.survivors(s) as u8);
            self.hp[s].push(o.hp_left(s) as i32);
            self.attacks[s].push(o.attacks[s]);
            self.hits[s].push(o.hits[s]);
            self.kills[s].push(o.kills[s]);
            for row in &rounds.hp {
                let alive = row[s][..d.n[s]].iter().filter(|h| **h > 0).count();
                self.survivors_by_round[s].values.push(alive as i32);
                self.hp_by_round[s].values.push(row[s].iter().sum());
            }
            for l in [&mut self.survivors_by_round[s], &mut self.hp_by_round[s]] {
                l.offsets.push(l.values.len() as u32);
            }
        }
    }
    fn finish(self) -> Table {
        let kinds = || KINDS.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let [ka, kb] = self.kind;
        let [sa, sb] = self.size;
        let [va, vb] = self.survivors;
        let [ha, hb] = self.hp;
        let [aa, ab] = self.attacks;
        let [ta, tb] = self.hits;
        let [ia, ib] = self.kills;
        let [ra, rb] = self.survivors_by_round;
        let [pa, pb] = self.hp_by_round;
        let list = |l: ListBuilder<i32>| Values::I32List {
            offsets: l.offsets,
            values: l.values,
        };
        Table {
            name: "combats",
            columns: vec![
                col(
                    "combat_id",
                    "combat index under the master seed",
                    Values::U64(self.id),
                ),
                col(
                    "seed",
                    "the combat's own seed (rng::match_seed)",
                    Values::U64(self.seed),
                ),
                col(
                    "first",
                    "the side with precedence (MC-3)",
                    Values::U8(self.first),
                ),
                col(
                    "kind_a",
                    "side 0: recruits or monsters",
                    Values::Label {
                        labels: kinds(),
                        codes: ka,
                    },
                ),
                col(
                    "kind_b",
                    "side 1",
                    Values::Label {
                        labels: kinds(),
                        codes: kb,
                    },
                ),
                col("size_a", "side 0's minions", Values::U8(sa)),
                col("size_b", "side 1's minions", Values::U8(sb)),
                col(
                    "winner",
                    "0 or 1; null when both stand or both fall (MC-22)",
                    Values::OptU16(self.winner),
                ),
                col(
                    "end",
                    "wiped (one side), both (both sides wiped) or rounds (both stand)",
                    Values::Label {
                        labels: vec!["wiped".into(), "both".into(), "rounds".into()],
                        codes: self.end,
                    },
                ),
                col("rounds", "rounds played", Values::U32(self.rounds)),
                col("survivors_a", "side 0's minions standing", Values::U8(va)),
                col("survivors_b", "side 1's minions standing", Values::U8(vb)),
                col("hp_a", "side 0's HP left", Values::I32(ha)),
                col("hp_b", "side 1's HP left", Values::I32(hb)),
                col("attacks_a", "attacks side 0 made", Values::U32(aa)),
                col("attacks_b", "attacks side 1 made", Values::U32(ab)),
                col("hits_a", "side 0's hits", Values::U32(ta)),
                col("hits_b", "side 1's hits", Values::U32(tb)),
                col("kills_a", "side 0's kills", Values::U32(ia)),
                col("kills_b", "side 1's kills", Values::U32(ib)),
                col(
                    "survivors_a_by_round",
                    "side 0's minions standing after each round",
                    list(ra),
                ),
                col(
                    "survivors_b_by_round",
                    "side 1's, after each round",
                    list(rb),
                ),
                col(
                    "hp_a_by_round",
                    "side 0's HP left after each round",
                    list(pa),
                ),
                col("hp_b_by_round", "side 1's, after each round", list(pb)),
            ],
        }
    }
}

struct MinionRows {
    combat: Vec<u64>,
    side: Vec<u8>,
    slot: Vec<u8>,
    minion: Vec<u16>,
    start: Vec<i32>,
    end: Vec<i32>,
    qualified: Vec<bool>,
    hp_by_round: ListBuilder<i32>,
}

impl MinionRows {
    fn with_capacity(n: usize) -> MinionRows {
        MinionRows {
            combat: Vec::with_capacity(n),
            side: Vec::with_capacity(n),
            slot: Vec::with_capacity(n),
            minion: Vec::with_capacity(n),
            start: Vec::with_capacity(n),
            end: Vec::with_capacity(n),
            qualified: Vec::with_capacity(n),
            hp_by_round: ListBuilder::with_capacity(n, 10 * n),
        }
    }
    fn push(&mut self, m: u64, s: usize, i: usize, d: &Draw, o: &Outcome, rounds: &Rounds) {
        self.combat.push(m);
        self.side.push(s as u8);
        self.slot.push(i as u8);
        self.minion.push(d.id[s][i]);
        self.start.push(d.unit[s][i].hp);
        self.end.push(o.hp[s][i]);
        self.qualified.push(o.qualified[s][i]);
        for row in &rounds.hp {
            self.hp_by_round.values.push(row[s][i]);
        }
        self.hp_by_round
            .offsets
            .push(self.hp_by_round.values.len() as u32);
    }
    fn finish(self, names: Vec<String>) -> Table {
        Table {
            name: "minions",
            columns: vec![
                col("combat_id", "combat index", Values::U64(self.combat)),
                col("side", "0 or 1", Values::U8(self.side)),
                col(
                    "slot",
                    "position in its group (attack order)",
                    Values::U8(self.slot),
                ),
                col(
                    "minion",
                    "catalogue name",
                    Values::Label {
                        labels: names,
                        codes: self.minion,
                    },
                ),
                col("start_hp", "HP at the start", Values::I32(self.start)),
                col("end_hp", "HP at the end (0: dead)", Values::I32(self.end)),
                col(
                    "qualified",
                    "a recruit that killed: an experience level next turn (MC-21)",
                    Values::Bool(self.qualified),
                ),
                col(
                    "hp_by_round",
                    "HP after each round (0 once dead)",
                    Values::I32List {
                        offsets: self.hp_by_round.offsets,
                        values: self.hp_by_round.values,
                    },
                ),
            ],
        }
    }
}

/// The summary: win share by matchup, of the side with precedence, and of each minion's group,
/// with 95% intervals.
pub fn summary(f: &Field, tally: &Tally) -> String {
    let mut s = format!(
        "\npool: {} recruits, {} monsters ({}); groups of {}-{}, up to {} types\n",
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
    for (group, title, top) in [
        (FIRST_WINS, "the side with precedence", usize::MAX),
        (KIND_WINS, "side 0, by matchup", usize::MAX),
        (MINION_WINS, "a minion's group (top 15)", 15),
    ] {
        s.push_str(&format!(
            "\nwin share of {title} (draws count half; combats, share, 95% interval)\n"
        ));
        if let Some(g) = tally.means.get(group) {
            let mut rows: Vec<_> = g.iter().collect();
            rows.sort_by(|a, b| b.1.mean().total_cmp(&a.1.mean()));
            for (label, m) in rows.into_iter().take(top) {
                s.push_str(&format!(
                    "  {label:<34} {:>10}  {}\n",
                    thousands(m.n),
                    m.points_share95()
                ));
            }
        }
    }
    s
}
