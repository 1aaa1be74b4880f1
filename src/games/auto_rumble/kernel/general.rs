//! The data kernel's general path: every clause of the power-file format (reactions, effects on
//! other heroes, hit modifiers, taxes, locks, wards, summons, wins), played on a
//! struct-of-arrays table in scratch storage reused across battles, with no allocation once a
//! [`GeneralKernel`] exists.
//!
//! It follows [`crate::games::auto_rumble::reference::data`] step for step (same phases, same order of reactions,
//! same targets); what differs is storage. Rows stay put within a phase (copies and summons
//! wait in `pending` and join when the phase ends, AR-11), so a hero is its row index; targets
//! of an effect go on a stack in scratch (effects nest through reactions, AR-27); the alive
//! counts a clause reads (opponents, allies, teams, eliminated this round) are kept up to date
//! on every change of Energy across 0 instead of being counted. [`crate::games::auto_rumble::kernel::data`] keeps its
//! faster path for self-contained loadouts and hands the rest here
//! ([`crate::games::auto_rumble::kernel::data::play`]). tests/games/auto_rumble_data_differential.rs holds this kernel to
//! the reference battle for battle, births included.

use crate::games::auto_rumble::kernel::hand::{EndReason, Outcome};
use crate::games::auto_rumble::kernel::hook::RoundHook;
use crate::games::auto_rumble::powers::catalogue::{
    Catalogue, HeldClause, Loadout, MAX_HERO_COUNTERS, NO_CLAUSE, phase,
};
use crate::games::auto_rumble::powers::expr::Quantity;
use crate::games::auto_rumble::powers::file::{Clause, Effect, EffectKind, Limit, Target, When};
use crate::games::auto_rumble::rules;
use crate::games::auto_rumble::state::{HeroId, Resolving, RoundView, Side};

/// No hero (a summoner or warder that is not there).
const NOBODY: HeroId = HeroId::MAX;

/// `build` codes from here on are summons: `SUMMON + power * 256 + n` plays
/// `Catalogue::summons[power][n]`; below it, the team's own loadout.
const SUMMON: u32 = 1 << 24;

/// In a join's list of rows, a newcomer's (`pending`) row `x` is `FROM_B + x`.
const FROM_B: u32 = 1 << 31;

/// Most nested target lists at once (a clause, a reaction to it, a death clause in that, ...),
/// each at most the table's size: the target stack's reserve.
const TARGET_DEPTH: usize = 6;

macro_rules! rows {
    ($( $(#[$m:meta])* $name:ident : $ty:ty = $init:expr ),* $(,)?) => {
        /// The hero table, one column per piece of hero state (the reference's `Hero` fields).
        #[derive(Clone, Debug)]
        struct Rows {
            $( $(#[$m])* $name: Vec<$ty>, )*
            len: usize,
        }

        impl Rows {
            fn with_capacity(c: usize) -> Rows {
                Rows { $( $name: vec![$init; c], )* len: 0 }
            }

            /// Appends row `i` of `from` whole: a copy inherits everything (AR-11).
            #[inline]
            fn push_row(&mut self, from: &Rows, i: usize) {
                let k = self.len;
                $( self.$name[k] = from.$name[i]; )*
                self.len = k + 1;
            }

            /// Keeps rows `keep` (ascending, each at or after `at`) in that order from row `at`
            /// on, column by column, and drops the rest after `at`.
            #[inline]
            fn keep_from(&mut self, at: usize, keep: &[u32]) {
                $(
                    for (w, &i) in keep.iter().enumerate() {
                        self.$name[at + w] = self.$name[i as usize];
                    }
                )*
                self.len = at + keep.len();
            }

            /// Becomes the rows `src` names in that order, column by column: `a`'s row `x`, or
            /// `b`'s row `x - FROM_B` where `x >= FROM_B`.
            #[inline]
            fn gather(&mut self, a: &Rows, b: &Rows, src: &[u32]) {
                $(
                    for (w, &x) in src.iter().enumerate() {
                        self.$name[w] = if x < FROM_B {
                            a.$name[x as usize]
                        } else {
                            b.$name[(x - FROM_B) as usize]
                        };
                    }
                )*
                self.len = src.len();
            }

            /// Appends a row of a hero entering with nothing used yet.
            #[inline]
            fn push_fresh(&mut self) -> usize {
                let k = self.len;
                $( self.$name[k] = $init; )*
                self.len = k + 1;
                k
            }
        }
    };
}

rows! {
    id: HeroId = 0,
    team: u16 = 0,
    /// Which loadout it plays: its team's, or a summon's (see [`SUMMON`]).
    build: u32 = 0,
    energy: i32 = 0,
    defence: i32 = 0,
    prevention: i32 = 0,
    counters: [i32; MAX_HERO_COUNTERS] = [0; MAX_HERO_COUNTERS],
    once_game: u32 = 0,
    once_round: u32 = 0,
    tax_now: i32 = 0,
    tax_next: i32 = 0,
    locked_now: bool = false,
    locked_next: bool = false,
    vulnerable: i32 = 1,
    dodge: i32 = 0,
    attack_hits_round: i32 = 0,
    hits_last_round: i32 = 0,
    damage_round: i32 = 0,
    first_hit_done: bool = false,
    /// This round's plan: bit `j` set when use-order entry `j` is planned (AR-3).
    plan: u16 = 0,
    /// Damage per hit of its attack before bonuses (AR-2; a summon's is its own).
    damage: i32 = 0,
    summoner: HeroId = NOBODY,
    /// Its side: a team's, or a hostile (AR-42) or neutral (AR-60) summon's.
    side: Side = Side::Team,
    powers_used: i32 = 0,
    defence_burns: bool = false,
    attack_only: Option<Target> = None,
    no_attack: bool = false,
    after_defence_pct: i32 = 100,
    execute: bool = false,
    ward: i32 = 0,
    warder: HeroId = NOBODY,
    hit: i32 = 0,
    first_hit_bonus: i32 = 0,
    /// Since its last plan (AR-59): its hits dealt and taken, in percent.
    deal_pct: i32 = 100,
    take_pct: i32 = 100,
    /// Since its last plan (AR-67): the most Energy it loses to hits in a round.
    loss_cap: i32 = i32::MAX,
    /// 0, or 1 + the index in `given` of the loadout powers given to it made (AR-62).
    given: u32 = 0,
    /// Its elimination has been resolved (it left, AR-27): no effect acts on it any more.
    left: bool = false,
}

/// Scratch for battles of any loadouts, reused from one to the next.
#[derive(Clone, Debug)]
pub struct GeneralKernel {
    front: Rows,
    back: Rows,
    /// Copies and summons made in the phase under way, and the row each joins after.
    pending: Rows,
    pending_parent: Vec<u32>,
    /// Join scratch: where each row's newcomers start, and newcomers grouped by row.
    slot: Vec<u32>,
    /// Where the run of rows of one team and side that row `k` is in ends. Rows stay put
    /// within a phase, and team and side never change, so a scan for opponents (an attack, a
    /// target rule) skips an ally's whole run at once: a team of thousands of copies costs an
    /// opponent's attack one step, not thousands. Rebuilt whenever the table changes.
    run_end: Vec<u32>,
    /// Rows that left this phase are skipped by every scan for a hero alive: `present[k]` is `k`
    /// while row `k` has not left, else a later row, every row between them having left (a
    /// union-find with path halving, so a run of the dead is crossed once, not once per
    /// attacker). Rebuilt whenever the table changes; a row that left never comes back.
    present: Vec<std::cell::Cell<u32>>,
    /// (summoner id, its summons alive), sorted by id, no zero counts: `summons_alive` read
    /// in one lookup instead of a scan of the table.
    summoners: Vec<(HeroId, u32)>,
    grouped: Vec<u32>,
    /// Compaction scratch: the rows kept.
    kept: Vec<u32>,
    /// The stack of target lists (rows) of the effects under way.
    targets: Vec<u32>,
    /// Per team, alive heroes (Energy > 0) of the team's side, and its hostile summons; the
    /// same for heroes eliminated this round (AR-42 sides; neutral ones are counted in the
    /// battle).
    plain: Vec<u32>,
    hostile: Vec<u32>,
    out_plain: Vec<u32>,
    out_hostile: Vec<u32>,
    sort: Vec<u16>,
    /// AR-61, kept only when the catalogue reads it: (hero, attacker) for each attack hit this
    /// round; last round's, sorted without repeats; copies' inherited last-round pairs, waiting
    /// to join.
    seen_now: Vec<(HeroId, HeroId)>,
    seen_last: Vec<(HeroId, HeroId)>,
    seen_born: Vec<(HeroId, HeroId)>,
    /// Loadouts grown by powers given mid-battle (AR-62) or shrunk by powers removed (AR-69),
    /// shared by a hero and its copies.
    given: Vec<Loadout>,
    /// This round, (hero, clause bit, other hero) for each reaction limited per other hero
    /// that fired (AR-68), sorted.
    fired: Vec<(HeroId, u16, HeroId)>,
}

/// One battle under way: the scratch, what it plays, and the battle-wide state.
struct Battle<'k, 'a, H> {
    s: &'k mut GeneralKernel,
    cat: &'a Catalogue,
    builds: &'a [Loadout],
    hook: &'k mut H,
    capacity: usize,
    round: i32,
    heroes_at_start: i32,
    lost_energy: bool,
    hits: u64,
    won: Option<u16>,
    capped: bool,
    next_id: HeroId,
    /// Heroes that entered the battle: ids below this are the players' own (AR-64).
    entering: HeroId,
    /// The hit being resolved: what `attacked` reactions may reduce (AR-38) and what reactions
    /// read (AR-57).
    resolving: Resolving,
    /// This round's battle-wide attack rule (Assassin's Game, AR-39).
    everyone_only: Option<Target>,
    alive: u32,
    /// Heroes at Energy <= 0 whose elimination is not settled yet (AR-52): they keep their
    /// place toward capacity, so a revive cannot overfill the table.
    dying: u32,
    plain_total: u32,
    out_plain_total: u32,
    /// Neutral summons alive, and eliminated this round (AR-60).
    neutral: u32,
    out_neutral: u32,
    teams_alive: u32,
    /// The players' own heroes alive (`players_alive`, AR-64).
    players: u32,
    /// The reactions held in play ([`phase::on`]), a summon's and a given power's included.
    reacts: u32,
}

impl GeneralKernel {
    /// Scratch for battles of up to `capacity` heroes (AR-15): the only allocation.
    pub fn new(capacity: usize) -> GeneralKernel {
        let c = capacity.max(1);
        GeneralKernel {
            front: Rows::with_capacity(c),
            back: Rows::with_capacity(c),
            pending: Rows::with_capacity(c),
            pending_parent: vec![0; c],
            slot: vec![0; c + 1],
            run_end: vec![0; c],
            present: (0..=c as u32).map(std::cell::Cell::new).collect(),
            summoners: Vec::with_capacity(c),
            grouped: vec![0; c],
            kept: Vec::with_capacity(c),
            targets: Vec::with_capacity(TARGET_DEPTH * c),
            plain: Vec::new(),
            hostile: Vec::new(),
            out_plain: Vec::new(),
            out_hostile: Vec::new(),
            sort: Vec::new(),
            seen_now: Vec::new(),
            seen_last: Vec::new(),
            seen_born: Vec::new(),
            given: Vec::new(),
            fired: Vec::new(),
        }
    }

    pub fn capacity(&self) -> usize {
        self.front.energy.len()
    }

    /// A summon of `summoner` (or a copy of one) enters or leaves the alive heroes.
    fn count_summon(&mut self, summoner: HeroId, enters: bool) {
        match self
            .summoners
            .binary_search_by_key(&summoner, |&(id, _)| id)
        {
            Ok(k) if enters => self.summoners[k].1 += 1,
            Ok(k) => {
                self.summoners[k].1 -= 1;
                if self.summoners[k].1 == 0 {
                    self.summoners.remove(k);
                }
            }
            // Alive summons are at most the table's capacity: no allocation.
            Err(k) => {
                debug_assert!(enters, "a summon left that never entered");
                self.summoners.insert(k, (summoner, 1));
            }
        }
    }

    /// Recomputes [`Self::run_end`] for the table as it stands.
    fn mark_runs(&mut self) {
        let f = &self.front;
        let n = f.len;
        let mut end = n;
        for k in (0..n).rev() {
            if k + 1 < n && (f.team[k], f.side[k]) != (f.team[k + 1], f.side[k + 1]) {
                end = k + 1;
            }
            self.run_end[k] = end as u32;
        }
        for (k, p) in self.present[..=n].iter().enumerate() {
            p.set(k as u32);
        }
    }

    /// Hero `id`'s Energy at the end of the last battle; `None` if it died or never entered.
    pub fn hero_energy(&self, id: HeroId) -> Option<i32> {
        let f = &self.front;
        (0..f.len)
            .find(|&i| f.id[i] == id && f.energy[i] > 0)
            .map(|i| f.energy[i])
    }

    /// Heroes of `team` alive at the end of the last battle that are not summons (nor copies of
    /// summons): the original and its copies.
    pub fn team_alive(&self, team: u16) -> u32 {
        let f = &self.front;
        (0..f.len)
            .filter(|&i| f.team[i] == team && f.energy[i] > 0 && f.build[i] < SUMMON)
            .count() as u32
    }

    /// Plays one battle of any loadouts. `initiative[t]` is team `t`'s.
    pub fn run<H: RoundHook>(
        &mut self,
        cat: &Catalogue,
        builds: &[Loadout],
        initiative: &[f64],
        max_rounds: u32,
        hook: &mut H,
    ) -> Outcome {
        assert_eq!(builds.len(), initiative.len(), "one initiative per team");
        let teams = builds.len();
        for v in [
            &mut self.plain,
            &mut self.hostile,
            &mut self.out_plain,
            &mut self.out_hostile,
        ] {
            v.clear();
            v.resize(teams, 0);
        }
        rules::initiative_order(initiative, &mut self.sort);
        self.front.len = 0;
        self.pending.len = 0;
        self.targets.clear();
        self.seen_now.clear();
        self.seen_last.clear();
        self.seen_born.clear();
        self.given.clear();
        self.fired.clear();
        self.summoners.clear();
        let capacity = self.capacity();
        // The reactions anything in play may hold (a summon's or a given power's loadout may
        // bring more): one nobody holds is never asked for.
        let reacts = builds.iter().fold(0, |r, l| {
            l.clauses()
                .iter()
                .fold(r | l.phases & phase::REACTIONS, |r, c| {
                    r | cat.reactions[c.power as usize]
                })
        });
        let mut b = Battle {
            s: self,
            cat,
            builds,
            hook,
            capacity,
            round: 0,
            heroes_at_start: 0,
            lost_energy: false,
            hits: 0,
            won: None,
            capped: false,
            next_id: teams as HeroId,
            entering: teams as HeroId,
            resolving: Resolving::default(),
            everyone_only: None,
            alive: 0,
            dying: 0,
            plain_total: 0,
            out_plain_total: 0,
            neutral: 0,
            out_neutral: 0,
            teams_alive: 0,
            players: 0,
            reacts,
        };
        for k in 0..teams {
            let t = b.s.sort[k];
            let l = &builds[t as usize];
            if l.energy <= 0 {
                continue; // AR-16
            }
            if b.s.front.len >= capacity {
                b.capped = true; // AR-15
                continue;
            }
            let f = &mut b.s.front;
            let i = f.push_fresh();
            f.id[i] = t as HeroId;
            f.team[i] = t;
            f.build[i] = t as u32;
            f.counters[i] = l.counters;
            f.damage[i] = l.damage;
            b.set_energy(i, l.energy);
        }
        b.s.mark_runs();
        b.play(initiative, max_rounds)
    }
}

impl<'a, H: RoundHook> Battle<'_, 'a, H> {
    fn play(mut self, initiative: &[f64], max_rounds: u32) -> Outcome {
        let mut quiet = 0;
        let mut end = EndReason::Elimination;
        // AR-34: battle-start clauses, in initiative order, before round 1; `heroes_alive` is
        // the heroes entering.
        self.heroes_at_start = self.alive as i32;
        // AR-70: passive clauses marked `from_start` hold from before the battle-start phase.
        for i in 0..self.s.front.len {
            let l = self.loadout(i);
            if self.is_alive(i)
                && l.passive[..l.n_passive as usize]
                    .iter()
                    .any(|&c| self.cat.clause(&l.clauses[c as usize]).from_start)
            {
                self.read_passives(i, true);
            }
        }
        self.phase(When::BattleStart);
        while self.won.is_none() && self.teams_alive > 1 {
            self.round += 1;
            self.lost_energy = false;
            self.heroes_at_start = self.alive as i32;
            self.s.out_plain.fill(0);
            self.s.out_hostile.fill(0);
            self.out_plain_total = 0;
            self.out_neutral = 0;
            self.new_round();
            self.phase(When::RoundStart);
            if self.won.is_none() {
                self.everyone_only = None;
                for i in 0..self.s.front.len {
                    if self.s.front.energy[i] > 0 {
                        self.make_plan(i);
                    }
                }
                self.actions();
            }
            if self.won.is_none() {
                self.phase(When::RoundEnd);
            }
            if self.won.is_some() {
                self.compact();
                self.round_end();
                break;
            }
            // AR-13.
            quiet = if self.lost_energy { 0 } else { quiet + 1 };
            if self.cat.rules.stalemate_after(quiet) {
                quiet = 0;
                for i in 0..self.s.front.len {
                    let e = self.s.front.energy[i];
                    if e > 0 {
                        self.set_energy(i, rules::stalemate_energy(e));
                    }
                }
            }
            self.compact();
            self.round_end();
            if self.teams_alive <= 1 {
                break;
            }
            if self.round as u32 >= max_rounds {
                end = EndReason::RoundLimit;
                break;
            }
        }
        let f = &self.s.front;
        let winner = if let Some(t) = self.won {
            end = EndReason::PowerWin;
            Some(t)
        } else if end == EndReason::RoundLimit {
            round_limit_winner(f, initiative)
        } else {
            // AR-42, AR-60: the last team standing; summons of no team do not win.
            (0..f.len)
                .find(|&i| f.energy[i] > 0 && f.side[i] == Side::Team)
                .map(|i| f.team[i])
        };
        Outcome {
            winner,
            rounds: self.round as u32,
            capped: self.capped,
            end,
            hits: self.hits,
            survivors: self.alive,
        }
    }

    fn round_end(&mut self) {
        let f = &self.s.front;
        self.hook.round_end(
            self.round as u32,
            RoundView {
                id: &f.id[..f.len],
                team: &f.team[..f.len],
                energy: &f.energy[..f.len],
            },
        );
    }

    /// Per-round state (AR-4, AR-31, AR-32, AR-35, AR-41).
    fn new_round(&mut self) {
        if self.cat.remembers {
            // AR-61: this round's attackers become last round's.
            let s = &mut *self.s;
            std::mem::swap(&mut s.seen_last, &mut s.seen_now);
            s.seen_now.clear();
            s.seen_last.sort_unstable();
            s.seen_last.dedup();
        }
        let f = &mut self.s.front;
        let n = f.len;
        f.defence[..n].fill(0);
        f.ward[..n].fill(0);
        f.warder[..n].fill(NOBODY);
        f.once_round[..n].fill(0);
        f.tax_now[..n].copy_from_slice(&f.tax_next[..n]);
        f.tax_next[..n].fill(0);
        f.locked_now[..n].copy_from_slice(&f.locked_next[..n]);
        f.locked_next[..n].fill(false);
        f.vulnerable[..n].fill(1);
        f.dodge[..n].fill(0);
        f.hits_last_round[..n].copy_from_slice(&f.attack_hits_round[..n]);
        f.attack_hits_round[..n].fill(0);
        f.damage_round[..n].fill(0);
        f.first_hit_done[..n].fill(false);
        self.s.fired.clear();
    }

    /// The loadout row `i` plays: its team's or its summon's, or one grown by powers given to it
    /// (AR-62). Callers read a clause at a time: a clause may give this very hero a power, which
    /// only appends to its loadout, so indices already read stay valid.
    #[inline]
    fn loadout(&self, i: usize) -> &Loadout {
        let g = self.s.front.given[i];
        if g != 0 {
            return &self.s.given[g as usize - 1];
        }
        let code = self.s.front.build[i];
        if code < SUMMON {
            &self.builds[code as usize]
        } else {
            let c = code - SUMMON;
            &self.cat.summons[(c >> 8) as usize][(c & 0xff) as usize]
        }
    }

    /// Every change of Energy goes through here, so the alive counts follow it across 0.
    #[inline]
    fn set_energy(&mut self, t: usize, e: i32) {
        let f = &mut self.s.front;
        let before = f.energy[t];
        f.energy[t] = e;
        if (before > 0) != (e > 0) {
            self.count(t, e > 0);
        }
    }

    /// Row `t` enters (`true`) or leaves the alive counts.
    fn count(&mut self, t: usize, enters: bool) {
        let f = &self.s.front;
        let (summoner, player) = (f.summoner[t], f.id[t] < self.entering);
        self.count_as(f.team[t], f.side[t], enters);
        if player {
            self.players = if enters {
                self.players + 1
            } else {
                self.players - 1
            };
        }
        if summoner != NOBODY {
            self.s.count_summon(summoner, enters);
        }
    }

    fn count_as(&mut self, team: u16, side: Side, enters: bool) {
        let team = team as usize;
        let d: i32 = if enters { 1 } else { -1 };
        let add = |x: &mut u32| *x = x.wrapping_add_signed(d);
        add(&mut self.alive);
        match side {
            Side::Team => {
                // AR-42, AR-60: only a team's own side keeps it in the battle.
                let was = self.s.plain[team];
                add(&mut self.s.plain[team]);
                add(&mut self.plain_total);
                if (was == 0) != (self.s.plain[team] == 0) {
                    add(&mut self.teams_alive);
                }
            }
            Side::Hostile => add(&mut self.s.hostile[team]),
            Side::Neutral => add(&mut self.neutral),
        }
    }

    #[inline]
    fn is_alive(&self, k: usize) -> bool {
        self.s.front.energy[k] > 0
    }

    /// Whether two heroes fight each other (AR-1, AR-42, AR-60).
    #[inline]
    fn opposed(&self, a: usize, b: usize) -> bool {
        let f = &self.s.front;
        f.side[a].opposed(f.team[a], f.side[b], f.team[b])
    }

    /// The first row from `k` on, before `to`, that row `i` fights (alive or not): runs it does
    /// not fight are skipped whole ([`GeneralKernel::run_end`]).
    #[inline]
    fn next_opposed(&self, i: usize, mut k: usize, to: usize) -> usize {
        loop {
            k = self.present_from(k);
            if k >= to {
                return to;
            }
            if self.opposed(i, k) {
                return k;
            }
            k = self.s.run_end[k] as usize;
        }
    }

    /// The first row from `k` on that has not left (see [`GeneralKernel::present`]).
    #[inline]
    fn present_from(&self, mut k: usize) -> usize {
        let p = &self.s.present;
        let n = self.s.front.len;
        while k < n {
            let next = p[k].get() as usize;
            if next == k {
                break;
            }
            if next < n {
                p[k].set(p[next].get());
            }
            k = next;
        }
        k
    }

    /// The first opponent of row `i` alive in rows `from..to`, in initiative order.
    #[inline]
    fn first_opponent(&self, i: usize, from: usize, to: usize) -> Option<usize> {
        let mut k = self.next_opposed(i, from, to);
        while k < to {
            if self.is_alive(k) {
                return Some(k);
            }
            k = self.next_opposed(i, k + 1, to);
        }
        None
    }

    /// Whether row `k` made an attack hit on row `i` last round (AR-61).
    #[inline]
    fn attacked(&self, i: usize, k: usize) -> bool {
        let f = &self.s.front;
        self.s.seen_last.binary_search(&(f.id[i], f.id[k])).is_ok()
    }

    /// Whether `k` has made an attack hit on `i` so far this round (AR-66): this round's pairs
    /// are unsorted until the round turns over.
    fn attacked_now(&self, i: usize, k: usize) -> bool {
        let f = &self.s.front;
        self.s.seen_now.contains(&(f.id[i], f.id[k]))
    }

    #[inline]
    fn allied(&self, a: usize, b: usize) -> bool {
        let f = &self.s.front;
        f.side[a].allied(f.team[a], f.side[b], f.team[b])
    }

    /// A phase: each alive hero in initiative order fires its clauses for `when`, in the order
    /// held (AR-6); newcomers join after it (AR-11).
    fn phase(&mut self, when: When) {
        let n = self.s.front.len;
        for i in 0..n {
            if !self.is_alive(i) || self.s.front.locked_now[i] {
                continue; // AR-5; AR-32: a locked hero's triggered powers do not act
            }
            let list = |l: &Loadout| match when {
                When::BattleStart => (l.battle_start, l.n_battle_start),
                When::RoundStart => (l.round_start, l.n_round_start),
                _ => (l.round_end, l.n_round_end),
            };
            // The list as it stands now (see `dies`).
            let (ids, k) = list(self.loadout(i));
            for &c in &ids[..k as usize] {
                if !self.is_alive(i) || self.won.is_some() {
                    break;
                }
                let hc = self.loadout(i).clauses[c as usize];
                self.fire(i, &hc, None, false);
            }
        }
        self.join();
    }

    /// Newcomers join right after the row they came from, in the order made (AR-11, AR-36);
    /// the dead leave the table on the way.
    fn join(&mut self) {
        let m = self.s.pending.len;
        if m == 0 {
            return;
        }
        let s = &mut *self.s;
        let n = s.front.len;
        // Newcomers grouped by the row they follow, keeping the order made (a counting sort).
        s.slot[..=n].fill(0);
        for &p in &s.pending_parent[..m] {
            s.slot[p as usize + 1] += 1;
        }
        for i in 0..n {
            s.slot[i + 1] += s.slot[i];
        }
        for j in 0..m {
            let p = s.pending_parent[j] as usize;
            s.grouped[s.slot[p] as usize] = j as u32;
            s.slot[p] += 1;
        }
        for j in 0..m {
            let parent = s.front.id[s.pending_parent[j] as usize];
            let code = s.pending.build[j];
            let summon = (code >= SUMMON).then(|| {
                let c = code - SUMMON;
                ((c >> 8) as u16, (c & 0xff) as u8)
            });
            self.hook
                .born(self.round as u32, parent, s.pending.id[j], summon);
        }
        // The rows of the joined table, in order, then copied column by column.
        s.kept.clear();
        let mut g = 0;
        for i in 0..n {
            if s.front.energy[i] > 0 {
                s.kept.push(i as u32);
            }
            // `slot[i]` now ends row i's group.
            while g < s.slot[i] as usize {
                let j = s.grouped[g] as usize;
                if s.pending.energy[j] > 0 {
                    s.kept.push(FROM_B + j as u32);
                }
                g += 1;
            }
        }
        s.back.gather(&s.front, &s.pending, &s.kept);
        // Count the newcomers in: they were not in the table while pending.
        for j in 0..m {
            let p = &self.s.pending;
            if p.energy[j] > 0 {
                let (team, side, summoner) = (p.team[j], p.side[j], p.summoner[j]);
                self.count_as(team, side, true);
                if summoner != NOBODY {
                    self.s.count_summon(summoner, true);
                }
            }
        }
        std::mem::swap(&mut self.s.front, &mut self.s.back);
        self.s.mark_runs();
        self.s.pending.len = 0;
        if !self.s.seen_born.is_empty() {
            // AR-61: copies' inherited memory joins with them.
            let s = &mut *self.s;
            s.seen_last.append(&mut s.seen_born);
            s.seen_last.sort_unstable();
        }
    }

    /// Drops the dead (the reference keeps them until the round ends; nothing reads them).
    fn compact(&mut self) {
        let s = &mut *self.s;
        let n = s.front.len;
        let Some(first) = (0..n).find(|&i| s.front.energy[i] <= 0) else {
            return;
        };
        // In place from the first dead row on, column by column.
        s.kept.clear();
        s.kept.extend(
            (first + 1..n)
                .filter(|&i| s.front.energy[i] > 0)
                .map(|i| i as u32),
        );
        s.front.keep_from(first, &s.kept);
        s.mark_runs();
    }

    /// AR-3, AR-33: the budget is the Energy after the start-of-round phase, less this round's
    /// tax; the walk stops at the first item whose Spend + Burn no longer fits. Locked powers
    /// and spent once-per-game clauses are skipped; a `use` clause whose conditions fail is not
    /// planned.
    fn make_plan(&mut self, i: usize) {
        let l = self.loadout(i);
        let passive = &l.passive[..l.n_passive as usize];
        // AR-40, AR-59: `no_attack` and `attack_cost` are read before the plan is made (their
        // conditions see last round's `powers_used`).
        let mut no_attack = false;
        let mut attack_cost = self.cat.rules.attack_cost as i64;
        for &c in passive {
            let hc = &l.clauses[c as usize];
            let c = self.cat.clause(hc);
            if !self.conds(i, hc, c) {
                continue;
            }
            for e in c.effects() {
                match e.kind {
                    EffectKind::NoAttack => no_attack = true,
                    EffectKind::AttackCost => {
                        attack_cost += e.value.eval(|q| self.read(i, hc, None, q)) as i64;
                    }
                    _ => {}
                }
            }
        }
        let attack_cost = attack_cost.clamp(0, i32::MAX as i64) as i32;
        let mut budget = self.s.front.energy[i] - self.s.front.tax_now[i];
        let mut plan = 0u16;
        let mut used = 0;
        for (j, &u) in l.uses().iter().enumerate() {
            if u == NO_CLAUSE {
                if no_attack {
                    continue;
                }
                if attack_cost > budget {
                    break;
                }
                budget -= attack_cost;
                plan |= 1 << j;
                continue;
            }
            if l.is_removed(u) {
                continue; // AR-69
            }
            let hc = &l.clauses[u as usize];
            let c = self.cat.clause(hc);
            if self.s.front.locked_now[i] || !self.may_fire(i, hc, c, None) || !self.conds(i, hc, c)
            {
                continue;
            }
            // AR-24: a Spend or Burn below 0 costs 0 (it never enlarges the budget).
            let cost = c.cost.spend.eval(|q| self.read(i, hc, None, q)).max(0) as i64
                + c.cost.burn.eval(|q| self.read(i, hc, None, q)).max(0) as i64;
            if cost > budget as i64 {
                break;
            }
            budget -= cost as i32;
            plan |= 1 << j;
            used += 1;
        }
        self.s.front.no_attack[i] = no_attack;
        self.s.front.plan[i] = plan;
        self.s.front.powers_used[i] = used;
        // Read with this round's `powers_used`.
        self.read_passives(i, false);
    }

    /// Passive clauses: the attack's bonuses this round and what holds until the next plan
    /// (AR-9, AR-25, AR-59, AR-67); at the battle's start, only those marked `from_start`
    /// (AR-70).
    fn read_passives(&mut self, i: usize, from_start: bool) {
        let l = self.loadout(i);
        let passive = &l.passive[..l.n_passive as usize];
        let mut everyone = None;
        let mut bonus: i64 = 0;
        let mut first: i64 = 0;
        let mut burns = false;
        let mut only = None;
        let mut pct = 100;
        let mut execute = false;
        let (mut deal, mut take) = (100, 100);
        let mut cap = i32::MAX;
        for &c in passive {
            let hc = &l.clauses[c as usize];
            let c = self.cat.clause(hc);
            if (from_start && !c.from_start) || !self.conds(i, hc, c) {
                continue;
            }
            for e in c.effects() {
                let v = e.value.eval(|q| self.read(i, hc, None, q)) as i64;
                match e.kind {
                    EffectKind::AttackBonus => bonus += v,
                    EffectKind::FirstHitBonus => first += v,
                    EffectKind::DefenceSpendBurns => burns = true,
                    EffectKind::AttackOnly => only = e.to,
                    EffectKind::AfterDefencePercent => pct = v.clamp(0, 1_000_000) as i32,
                    EffectKind::ExecuteUndefended => execute = true,
                    EffectKind::EveryoneAttacksOnly => everyone = Some(e.to),
                    EffectKind::DealPercent => deal = rules::compose_percent(deal, v as i32),
                    EffectKind::TakePercent => take = rules::compose_percent(take, v as i32),
                    // AR-67: the smallest cap counts; below 0 it is 0.
                    EffectKind::RoundLossCap => cap = cap.min(v.max(0) as i32),
                    _ => {}
                }
            }
        }
        if let Some(rule) = everyone {
            self.everyone_only = rule;
        }
        let f = &mut self.s.front;
        f.deal_pct[i] = deal;
        f.take_pct[i] = take;
        f.loss_cap[i] = cap;
        f.hit[i] = (f.damage[i] as i64 + bonus).clamp(0, i32::MAX as i64) as i32;
        f.first_hit_bonus[i] = first.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        f.defence_burns[i] = burns;
        f.attack_only[i] = only;
        f.after_defence_pct[i] = pct;
        f.execute[i] = execute;
    }

    #[inline]
    fn arriving(&self, by: usize, t: usize, amount: i32) -> i32 {
        // AR-57, AR-59: `vulnerable` and both damage percentages.
        let f = &self.s.front;
        rules::arriving_hit(amount, f.vulnerable[t], f.deal_pct[by], f.take_pct[t])
    }

    #[inline]
    fn conds(&self, i: usize, hc: &HeldClause, c: &Clause) -> bool {
        c.conds()
            .iter()
            .all(|k| k.holds(|q| self.read(i, hc, None, q)))
    }

    #[inline]
    fn may_fire(&self, i: usize, hc: &HeldClause, c: &Clause, other: Option<usize>) -> bool {
        let bit = hc.bit as u32;
        match c.limit {
            Limit::Unlimited => true,
            Limit::OncePerRound => self.s.front.once_round[i] & bit == 0,
            Limit::OncePerGame => self.s.front.once_game[i] & bit == 0,
            // AR-68: a reaction with no other hero (a death by a Burn) is not limited.
            Limit::OncePerHeroPerRound => other.is_none_or(|o| {
                let f = &self.s.front;
                self.s
                    .fired
                    .binary_search(&(f.id[i], hc.bit, f.id[o]))
                    .is_err()
            }),
        }
    }

    fn read(&self, i: usize, hc: &HeldClause, target: Option<usize>, q: Quantity) -> i32 {
        let s = &*self.s;
        let f = &s.front;
        let team = f.team[i] as usize;
        let side = f.side[i];
        match q {
            Quantity::Energy => f.energy[i],
            Quantity::Defence => f.defence[i],
            Quantity::Attack => f.damage[i],
            Quantity::Strength => hc.strength,
            Quantity::OtherStrength => hc.other_strength,
            Quantity::Counter(k) => f.counters[i][hc.counter_base as usize + k as usize],
            Quantity::Round => self.round,
            Quantity::HeroesAlive => self.heroes_at_start,
            // AR-42: a hostile summon fights only its summoner's team; AR-60: neutral summons
            // fight every team.
            Quantity::OpponentsAlive => match side {
                Side::Team => {
                    (self.plain_total - s.plain[team] + s.hostile[team] + self.neutral) as i32
                }
                Side::Hostile => s.plain[team] as i32,
                Side::Neutral => self.plain_total as i32,
            },
            Quantity::AlliesAlive => match side {
                Side::Team => s.plain[team] as i32,
                Side::Hostile => s.hostile[team] as i32,
                Side::Neutral => self.neutral as i32,
            },
            Quantity::TeamsAlive => self.teams_alive as i32,
            Quantity::EliminatedThisRound => match side {
                Side::Team => {
                    (self.out_plain_total - s.out_plain[team]
                        + s.out_hostile[team]
                        + self.out_neutral) as i32
                }
                Side::Hostile => s.out_plain[team] as i32,
                Side::Neutral => self.out_plain_total as i32,
            },
            Quantity::DamageTaken => f.damage_round[i],
            Quantity::HitsTakenLastRound => f.hits_last_round[i],
            Quantity::PowersUsed => f.powers_used[i],
            Quantity::Negated => self.resolving.negated,
            Quantity::HitArriving => self.resolving.arriving,
            Quantity::HitDamage => self.resolving.damage,
            // AR-64: the heroes that entered have the first ids, one per team.
            // AR-65: the power's `use` clause among the planned entries of the use order.
            Quantity::Planned => {
                let l = self.loadout(i);
                l.uses().iter().enumerate().any(|(j, &u)| {
                    f.plan[i] & (1 << j) != 0
                        && u != NO_CLAUSE
                        && l.clauses[u as usize].power == hc.power
                }) as i32
            }
            Quantity::PlayersAlive => self.players as i32,
            Quantity::SummonsAlive => {
                let id = f.id[i];
                s.summoners
                    .binary_search_by_key(&id, |&(k, _)| k)
                    .map_or(0, |k| s.summoners[k].1 as i32)
            }
            Quantity::TargetSummoned => target.map_or(0, |t| (f.summoner[t] != NOBODY) as i32),
            Quantity::TargetEnergy => target.map_or(0, |t| f.energy[t]),
            Quantity::TargetDefence => target.map_or(0, |t| f.defence[t]),
            Quantity::AttackersLastRound => {
                let (lo, hi) = last_range(&s.seen_last, f.id[i]);
                (hi - lo) as i32
            }
            Quantity::TargetAttackedMe => target.map_or(0, |t| self.attacked(i, t) as i32),
        }
    }

    /// The first hero rule `t` picks for row `i` (ties go to the earlier row, AR-26).
    fn pick(&self, i: usize, t: Target, other: Option<usize>) -> Option<usize> {
        let f = &self.s.front;
        let n = f.len;
        // AR-56: `anyone_*` rules pick among every other hero alive, of any team.
        let best = |key: fn(&Rows, usize) -> i32, most: bool, anyone: bool| {
            self.best(i, |k| key(f, k), most, anyone)
        };
        match t {
            Target::Holder => Some(i),
            Target::AllOpponents | Target::FirstOpponent => self.first_opponent(i, 0, n),
            Target::AllAllies => (0..n).find(|&k| f.energy[k] > 0 && self.allied(i, k)),
            Target::AttackersLastRound => (0..n).find(|&k| f.energy[k] > 0 && self.attacked(i, k)),
            Target::AttackersThisRound => {
                (0..n).find(|&k| f.energy[k] > 0 && self.attacked_now(i, k))
            }
            Target::Everyone => (0..n).find(|&k| f.energy[k] > 0 && k != i),
            Target::OpponentMostEnergy => best(|f, k| f.energy[k], true, false),
            Target::OpponentLeastEnergy => best(|f, k| f.energy[k], false, false),
            Target::OpponentMostDefence => best(|f, k| f.defence[k], true, false),
            Target::AnyoneMostEnergy => best(|f, k| f.energy[k], true, true),
            Target::AnyoneLeastEnergy => best(|f, k| f.energy[k], false, true),
            // Wrapping round: after `i`, then from the top (`i` never fights itself).
            Target::NextOpponent => self
                .first_opponent(i, i + 1, n)
                .or_else(|| self.first_opponent(i, 0, i)),
            Target::Other => other.filter(|&k| f.energy[k] > 0),
        }
    }

    /// The hero alive with the most (or least) `key`, the first in initiative order on a tie:
    /// among every other hero (`anyone`), else among the opponents of row `i`, a run of one
    /// team's rows at a time (see [`Self::plain_run`]).
    #[inline]
    fn best(
        &self,
        i: usize,
        key: impl Fn(usize) -> i32,
        most: bool,
        anyone: bool,
    ) -> Option<usize> {
        let f = &self.s.front;
        let n = f.len;
        let mut pick: Option<(usize, i32)> = None;
        let mut consider = |k: usize| {
            let a = key(k);
            if pick.is_none_or(|(_, b)| if most { a > b } else { a < b }) {
                pick = Some((k, a));
            }
        };
        if anyone {
            for k in (0..n).filter(|&k| f.energy[k] > 0 && k != i) {
                consider(k);
            }
        } else {
            let mut k = self.next_opposed(i, 0, n);
            while k < n {
                let end = self.s.run_end[k] as usize;
                for o in k..end {
                    if f.energy[o] > 0 {
                        consider(o);
                    }
                }
                k = self.next_opposed(i, end, n);
            }
        }
        pick.map(|(k, _)| k)
    }

    /// Pushes the heroes an effect acts on, in initiative order (AR-26), onto the target stack;
    /// returns where they lie on it.
    fn push_targets(&mut self, i: usize, t: Target, other: Option<usize>) -> (usize, usize) {
        let start = self.s.targets.len();
        let n = self.s.front.len;
        match t {
            Target::AllOpponents => {
                let mut k = self.first_opponent(i, 0, n);
                while let Some(o) = k {
                    self.s.targets.push(o as u32);
                    k = self.first_opponent(i, o + 1, n);
                }
            }
            Target::AllAllies
            | Target::Everyone
            | Target::AttackersLastRound
            | Target::AttackersThisRound => {
                for k in 0..n {
                    let f = &self.s.front;
                    let take = f.energy[k] > 0
                        && match t {
                            Target::AllAllies => self.allied(i, k),
                            Target::AttackersLastRound => self.attacked(i, k),
                            Target::AttackersThisRound => self.attacked_now(i, k),
                            _ => k != i,
                        };
                    if take {
                        self.s.targets.push(k as u32);
                    }
                }
            }
            _ => {
                if let Some(k) = self.pick(i, t, other) {
                    self.s.targets.push(k as u32);
                }
            }
        }
        (start, self.s.targets.len())
    }

    /// Fires one clause of row `i`. `other` is a reaction's other hero; `quiet`: effects of a
    /// reaction trigger no reactions (AR-27).
    fn fire(&mut self, i: usize, hc: &HeldClause, other: Option<usize>, quiet: bool) {
        let c: &'a Clause = self.cat.clause(hc);
        // AR-69: a removed power's clauses fire no more, even those already on their way.
        if self.loadout(i).removed & hc.bit != 0 || !self.may_fire(i, hc, c, other) {
            return;
        }
        if c.when != When::Use
            && !c
                .conds()
                .iter()
                .all(|k| k.holds(|q| self.read(i, hc, other, q)))
        {
            return;
        }
        self.s.front.once_round[i] |= hc.bit as u32;
        self.s.front.once_game[i] |= hc.bit as u32;
        if c.limit == Limit::OncePerHeroPerRound
            && let Some(o) = other
        {
            let f = &self.s.front;
            let key = (f.id[i], hc.bit, f.id[o]);
            if let Err(at) = self.s.fired.binary_search(&key) {
                self.s.fired.insert(at, key);
            }
        }
        if c.when != When::Use && c.when != When::Death {
            // AR-38: a triggered clause's Burn is paid when it fires, if the holder can pay it
            // and live; otherwise the clause does not fire.
            let burn = c.cost.burn.eval(|q| self.read(i, hc, other, q));
            if burn > 0 {
                if self.s.front.energy[i] <= burn {
                    return;
                }
                self.lose(i, burn, None, true);
            }
        }
        if c.when == When::Use {
            // AR-24: the Burn is an Energy loss, paid as the power is used.
            let mut burn = c.cost.burn.eval(|q| self.read(i, hc, None, q));
            let adds_defence = c.effects().iter().any(|e| e.kind == EffectKind::AddDefence);
            if self.s.front.defence_burns[i] && adds_defence {
                // AR-37: the Spend is paid as a Burn.
                burn = burn.saturating_add(c.cost.spend.eval(|q| self.read(i, hc, None, q)).max(0));
            }
            if burn > 0 && !self.lose(i, burn, None, quiet) {
                return;
            }
        }
        for e in c.effects() {
            if !self.is_alive(i) && c.when != When::Death {
                return;
            }
            if self.won.is_some() {
                return;
            }
            let to = e.to.unwrap_or(c.target);
            // `target.*` reads the clause's target, even in an effect sent elsewhere with `to`
            // (Parasitic Strain's gain reads the opponent's Defence, AR-26).
            let clause_target = if e.to.is_some() && c.target.is_single() {
                self.pick(i, c.target, other)
            } else {
                None
            };
            let (start, end) = self.push_targets(i, to, other);
            for k in start..end {
                let t = self.s.targets[k] as usize;
                // A hero that left mid-effect (a reaction to an earlier target eliminated it)
                // is acted on no more, and a holder that left acts no more (issue 49).
                if self.s.front.left[t] && t != i {
                    continue;
                }
                if !self.is_alive(i) && c.when != When::Death {
                    break;
                }
                let read_at = if e.to.is_some() {
                    clause_target
                } else {
                    Some(t)
                };
                if let Some(k) = &e.cond
                    && !k.holds(|q| self.read(i, hc, read_at, q))
                {
                    continue;
                }
                self.apply(i, hc, e, t, read_at, quiet);
            }
            self.s.targets.truncate(start);
        }
    }

    fn apply(
        &mut self,
        i: usize,
        hc: &HeldClause,
        e: &Effect,
        t: usize,
        read_at: Option<usize>,
        quiet: bool,
    ) {
        let v = e.value.eval(|q| self.read(i, hc, read_at, q));
        match e.kind {
            EffectKind::AddEnergy => {
                if v < 0 {
                    self.lose(t, v.saturating_neg(), None, quiet);
                } else {
                    let e = self.s.front.energy[t].saturating_add(v);
                    self.set_energy(t, e);
                }
            }
            EffectKind::LoseEnergy => {
                if v > 0 {
                    self.lose(t, v, Some(i), quiet);
                }
            }
            EffectKind::SetEnergy => {
                let now = self.s.front.energy[t];
                if v < now {
                    self.lose(t, now.saturating_sub(v), None, quiet);
                } else {
                    self.set_energy(t, v);
                }
            }
            EffectKind::AddDefence => {
                let d = &mut self.s.front.defence[t];
                *d = d.saturating_add(v).max(0);
            }
            EffectKind::LoseDefence => {
                let d = &mut self.s.front.defence[t];
                *d = d.saturating_sub(v.max(0)).max(0);
            }
            EffectKind::AddPrevention => {
                let p = &mut self.s.front.prevention[t];
                *p = p.saturating_add(v).max(0);
            }
            EffectKind::Damage => {
                if v > 0 {
                    // AR-58: `as_attack` makes the hit an attack hit.
                    self.hit(
                        i,
                        t,
                        v,
                        e.as_attack,
                        e.ignore_defence,
                        e.unpreventable,
                        quiet,
                    );
                }
            }
            EffectKind::CounterAdd(k) => {
                let c = &mut self.s.front.counters[t][hc.counter_base as usize + k as usize];
                *c = c.saturating_add(v);
            }
            EffectKind::CounterMultiply(k) => {
                let c = &mut self.s.front.counters[t][hc.counter_base as usize + k as usize];
                *c = c.saturating_mul(v);
            }
            EffectKind::CounterSet(k) => {
                self.s.front.counters[t][hc.counter_base as usize + k as usize] = v;
            }
            EffectKind::CopySelf => {
                self.copy(t, None);
            }
            EffectKind::Eliminate => {
                let e = self.s.front.energy[t];
                self.lose(t, e, Some(i), quiet);
            }
            // AR-42, AR-60: a hostile or neutral summon never wins.
            EffectKind::Win if self.s.front.side[i] == Side::Team => {
                self.won = Some(self.s.front.team[i])
            }
            EffectKind::Win => {}
            EffectKind::Tax => {
                let x = &mut self.s.front.tax_next[t];
                *x = (*x).max(v);
            }
            EffectKind::Revive => self.set_energy(t, v.max(1)),
            EffectKind::Dodge => self.s.front.dodge[t] = v.max(0),
            EffectKind::Vulnerable => {
                let x = &mut self.s.front.vulnerable[t];
                *x = x.saturating_mul(v.max(0));
            }
            EffectKind::Lock => self.s.front.locked_next[t] = true,
            EffectKind::Ward => {
                // AR-41: a new ward replaces the last one.
                let f = &mut self.s.front;
                f.ward[t] = v.max(0);
                f.warder[t] = f.id[i];
            }
            EffectKind::ReduceHit => {
                let r = v.max(0).min(self.resolving.in_flight);
                self.resolving.in_flight -= r;
                self.resolving.negated += r;
                self.resolving.damage = self.resolving.in_flight;
            }
            EffectKind::CapHit => {
                // AR-57: what the cap takes off counts as negated, like a reduction.
                let r = (self.resolving.in_flight - v.max(0)).max(0);
                self.resolving.in_flight -= r;
                self.resolving.negated += r;
                self.resolving.damage = self.resolving.in_flight;
            }
            EffectKind::CopyWith => {
                if v > 0 {
                    self.copy(t, Some(v));
                }
            }
            EffectKind::Summon(k) => self.summon(i, hc, k, read_at),
            EffectKind::Give(k) => {
                // AR-62: held from now on; nothing when it is held already or would not fit.
                let p = self.cat.gives[hc.power as usize][k as usize];
                if let Some((l, base)) = self.loadout(t).with_given(self.cat, p, hc.strength) {
                    let n = self.cat.defs[p as usize].counters.len();
                    let s = &mut *self.s;
                    s.given.push(l);
                    s.front.given[t] = s.given.len() as u32;
                    self.reacts |= l.phases & phase::REACTIONS;
                    let s = &mut *self.s;
                    s.front.counters[t][base..base + n]
                        .copy_from_slice(&l.counters[base..base + n]);
                }
            }
            EffectKind::RemovePower(k) => {
                // AR-69: for good; nothing when the target holds nothing to remove.
                let p = self.cat.removes[hc.power as usize][k as usize];
                if let Some(l) = self.loadout(t).without(p) {
                    let s = &mut *self.s;
                    s.given.push(l);
                    s.front.given[t] = s.given.len() as u32;
                }
            }
            // Passive effects act through the plan (`make_plan`), never when applied.
            k => debug_assert!(k.is_passive(), "{k:?} is played above"),
        }
    }

    /// Whether one more newcomer fits: alive heroes plus those waiting to join stay within
    /// capacity (AR-15); marks the battle capped when not.
    #[inline]
    fn room(&mut self) -> bool {
        let fits = ((self.alive + self.dying) as usize + self.s.pending.len) < self.capacity;
        self.capped |= !fits;
        fits
    }

    /// A copy of row `t` (AR-11), with `energy` instead of its own when given (`copy_with`).
    fn copy(&mut self, t: usize, energy: Option<i32>) {
        if !self.room() {
            return;
        }
        let s = &mut *self.s;
        let k = s.pending.len;
        s.pending.push_row(&s.front, t);
        s.pending.id[k] = self.next_id;
        if let Some(e) = energy {
            s.pending.energy[k] = e;
        }
        s.pending_parent[k] = t as u32;
        // AR-11, AR-68: a copy has fired what its original has this round.
        let parent = s.front.id[t];
        let n = s.fired.len();
        for j in 0..n {
            if s.fired[j].0 == parent {
                let (_, bit, o) = s.fired[j];
                s.fired.push((self.next_id, bit, o));
            }
        }
        if s.fired.len() > n {
            s.fired.sort_unstable();
        }
        if self.cat.remembers {
            // AR-11, AR-61: a copy remembers what its original does.
            let (parent, id) = (s.front.id[t], self.next_id);
            for j in 0..s.seen_now.len() {
                if s.seen_now[j].0 == parent {
                    s.seen_now.push((id, s.seen_now[j].1));
                }
            }
            let (lo, hi) = last_range(&s.seen_last, parent);
            for j in lo..hi {
                s.seen_born.push((id, s.seen_last[j].1));
            }
        }
        self.next_id += 1;
    }

    /// AR-36: a summon joins the holder's team right after the holder, within capacity.
    fn summon(&mut self, i: usize, hc: &HeldClause, n: u8, read_at: Option<usize>) {
        let sd = &self.cat.defs[hc.power as usize].summons[n as usize];
        let build = &self.cat.summons[hc.power as usize][n as usize];
        let damage = sd
            .attack
            .map_or(0, |a| a.eval(|q| self.read(i, hc, read_at, q)).max(0));
        let energy = sd.energy.eval(|q| self.read(i, hc, read_at, q));
        if energy <= 0 || !self.room() {
            return;
        }
        let s = &mut *self.s;
        let k = s.pending.push_fresh();
        let p = &mut s.pending;
        p.id[k] = self.next_id;
        p.team[k] = s.front.team[i];
        p.build[k] = SUMMON + ((hc.power as u32) << 8) + n as u32;
        p.energy[k] = energy;
        p.counters[k] = build.counters;
        p.damage[k] = damage;
        p.summoner[k] = s.front.id[i];
        // AR-36: a plain summon joins its maker's side (a hostile summon's recruit is hostile).
        p.side[k] = if sd.side == Side::Team {
            s.front.side[i]
        } else {
            sd.side
        };
        s.pending_parent[k] = i as u32;
        self.next_id += 1;
    }

    /// An Energy loss that is not a hit (a Burn, `lose_energy`, a drop by `set_energy`):
    /// nothing absorbs it (AR-29). Returns whether `t` is still alive.
    fn lose(&mut self, t: usize, amount: i32, by: Option<usize>, quiet: bool) -> bool {
        let before = self.s.front.energy[t];
        if amount <= 0 || before <= 0 {
            return before > 0;
        }
        self.lost_energy = true;
        self.set_energy(t, before.saturating_sub(amount));
        if !self.is_alive(t) {
            self.dying += 1;
            self.dies(t, by, quiet);
        }
        self.is_alive(t)
    }

    /// One hit (see [`Self::hit_inner`]). A hit inside a reaction to another hit (a reflected
    /// hit, an attack-hit effect) leaves the outer hit's state as it found it (AR-57, AR-58).
    #[allow(clippy::too_many_arguments)]
    fn hit(
        &mut self,
        by: usize,
        t: usize,
        amount: i32,
        attack: bool,
        ignore_defence: bool,
        unpreventable: bool,
        quiet: bool,
    ) {
        let saved = self.resolving;
        self.hit_inner(by, t, amount, attack, ignore_defence, unpreventable, quiet);
        self.resolving = saved;
    }

    /// One hit of `amount` from `by` on `t` (AR-5, AR-29): the hit modifiers of the round, then
    /// Defence, prevention, Energy, then reactions (AR-27).
    #[allow(clippy::too_many_arguments)]
    fn hit_inner(
        &mut self,
        by: usize,
        t: usize,
        amount: i32,
        attack: bool,
        ignore_defence: bool,
        unpreventable: bool,
        quiet: bool,
    ) {
        if attack {
            self.hits += 1;
            let f = &mut self.s.front;
            f.attack_hits_round[t] += 1;
            if self.cat.remembers {
                let pair = (f.id[t], f.id[by]);
                self.s.seen_now.push(pair);
            }
            // AR-35: Bullet Time's dodge counts attack hits: 1, 1 + n, 1 + 2n, ... are prevented.
            let dodge = f.dodge[t];
            if dodge > 0 && (f.attack_hits_round[t] - 1) % dodge == 0 {
                self.resolving.arriving = self.arriving(by, t, amount);
                self.resolving.damage = 0;
                self.react(t, When::Attacked, by, quiet);
                self.react(by, When::Hit, t, quiet);
                return;
            }
        }
        let mut rest = self.arriving(by, t, amount);
        self.resolving.arriving = rest;
        self.resolving.damage = rest;
        if attack {
            // AR-38: `attacked` reactions see the hit as it arrives and may reduce it.
            self.resolving.in_flight = rest;
            self.resolving.negated = 0;
            self.react(t, When::Attacked, by, quiet);
            rest = self.resolving.in_flight;
        }
        let had_defence = self.s.front.defence[t] > 0;
        let (pct, execute) = if attack {
            (self.s.front.after_defence_pct[by], self.s.front.execute[by])
        } else {
            (100, false)
        };
        if attack && !ignore_defence && !unpreventable && self.s.front.ward[t] > 0 {
            // AR-41: the ward absorbs first; what it takes feeds the warder.
            let w = rest.min(self.s.front.ward[t]);
            self.s.front.ward[t] -= w;
            rest -= w;
            let warder = self.s.front.warder[t];
            let f = &self.s.front;
            if warder != NOBODY
                && let Some(k) = (0..f.len).find(|&k| f.id[k] == warder)
                && f.energy[k] > 0
            {
                let e = f.energy[k].saturating_add(w);
                self.set_energy(k, e);
            }
        }
        let f = &mut self.s.front;
        if !ignore_defence && !unpreventable {
            let d = rest.min(f.defence[t]);
            f.defence[t] -= d;
            rest -= d;
        }
        if pct != 100 && rest > 0 {
            // AR-40: rounded up.
            rest = ((rest as i64 * pct as i64 + 99) / 100).min(i32::MAX as i64) as i32;
        }
        if !unpreventable {
            let p = rest.min(f.prevention[t]);
            f.prevention[t] -= p;
            rest -= p;
        }
        if f.loss_cap[t] != i32::MAX {
            // AR-67: what this round's hits have taken so far counts against the cap.
            rest = rest.min((f.loss_cap[t] - f.damage_round[t]).max(0));
        }
        self.resolving.damage = rest;
        if attack {
            self.react(by, When::Hit, t, quiet);
        }
        if rest > 0 && self.is_alive(t) {
            let f = &mut self.s.front;
            let e = f.energy[t].saturating_sub(rest);
            f.damage_round[t] = f.damage_round[t].saturating_add(rest);
            self.set_energy(t, e);
            self.lost_energy = true;
            // AR-52: eliminated by this hit, not by a reaction to it (which eliminates quietly).
            let killed = e <= 0;
            self.dying += killed as u32;
            self.react(t, When::Damaged, by, quiet);
            self.react(by, When::DealtDamage, t, quiet);
            if killed {
                self.dies(t, Some(by), quiet);
            }
        }
        if execute && !had_defence && self.is_alive(t) {
            // AR-40: the undefended target is eliminated outright.
            let e = self.s.front.energy[t];
            self.lose(t, e, Some(by), quiet);
        }
    }

    /// `t` reached Energy <= 0 (and was counted `dying`): its death reactions (a revive keeps
    /// it in), else it leaves: the round's eliminations, the killer's `kill`, every opponent's
    /// `opponent_eliminated`.
    fn dies(&mut self, t: usize, by: Option<usize>, quiet: bool) {
        if !quiet {
            // The list as it stands now: clauses keep their places in a loadout, so a power
            // given or removed meanwhile (AR-62, AR-69) shifts nothing read here.
            let l = self.loadout(t);
            let (list, n) = (l.reactions, l.n_reactions as usize);
            for &c in &list[..n] {
                let hc = self.loadout(t).clauses[c as usize];
                if self.cat.clause(&hc).when != When::Death {
                    continue;
                }
                if self.s.front.locked_now[t] {
                    break;
                }
                // AR-54: `other` is the hero whose hit or effect eliminated it.
                self.fire(t, &hc, by.filter(|&k| k != t), true);
                if self.is_alive(t) {
                    self.dying -= 1;
                    return; // AR-27: revived, it never left
                }
            }
        }
        self.dying -= 1;
        self.s.front.left[t] = true;
        self.s.present[t].set(t as u32 + 1);
        let team = self.s.front.team[t] as usize;
        match self.s.front.side[t] {
            Side::Team => {
                self.s.out_plain[team] += 1;
                self.out_plain_total += 1;
            }
            Side::Hostile => self.s.out_hostile[team] += 1,
            Side::Neutral => self.out_neutral += 1,
        }
        if quiet {
            return;
        }
        if let Some(k) = by
            && k != t
        {
            self.react(k, When::Kill, t, quiet);
        }
        if self.reacts & phase::on(When::OpponentEliminated) == 0 {
            return;
        }
        for k in 0..self.s.front.len {
            if self.is_alive(k) && self.opposed(k, t) {
                self.react(k, When::OpponentEliminated, t, quiet);
            }
        }
    }

    /// Row `k`'s reaction clauses for `when`, about row `other` (AR-27).
    #[inline]
    fn react(&mut self, k: usize, when: When, other: usize, quiet: bool) {
        if self.reacts & phase::on(when) == 0 {
            return;
        }
        if quiet || !self.is_alive(k) || self.s.front.locked_now[k] || self.won.is_some() {
            return;
        }
        // The list as it stands now (see `dies`).
        let l = self.loadout(k);
        let (list, n) = (l.reactions, l.n_reactions as usize);
        for &c in &list[..n] {
            let hc = self.loadout(k).clauses[c as usize];
            if self.cat.clause(&hc).when != when {
                continue;
            }
            if !self.is_alive(k) || self.won.is_some() {
                break;
            }
            self.fire(k, &hc, Some(other), true);
        }
    }

    /// The action phase: each alive hero walks its plan in initiative order (AR-6).
    fn actions(&mut self) {
        let n = self.s.front.len;
        for i in 0..n {
            let mut plan = self.s.front.plan[i];
            while plan != 0 {
                let j = plan.trailing_zeros() as usize;
                plan &= plan - 1;
                if !self.is_alive(i) || self.won.is_some() {
                    break; // AR-5
                }
                let l = self.loadout(i);
                let u = l.uses[j];
                if u == NO_CLAUSE {
                    self.attack(i);
                } else if !l.is_removed(u) {
                    // AR-69: a power removed after the plan was made is not used.
                    let hc = l.clauses[u as usize];
                    self.fire(i, &hc, None, false);
                }
            }
        }
        self.join();
    }

    /// The default attack: every alive hero it fights, in order (AR-1); the first hit carries
    /// the first-hit bonus.
    fn attack(&mut self, i: usize) {
        let n = self.s.front.len;
        // AR-39: a rule may narrow the attack to one hero, picked as the attack starts.
        if let Some(rule) = self.s.front.attack_only[i].or(self.everyone_only) {
            if let Some(t) = self.pick(i, rule, None)
                && self.won.is_none()
                && self.opposed(i, t)
            {
                self.attack_hit(i, t);
            }
            return;
        }
        // Nothing in play reacts and the attacker's hits carry no percentage or execution:
        // no hit can set anything off, so each is plain arithmetic.
        let f = &self.s.front;
        let plain = self.reacts == 0 && f.after_defence_pct[i] == 100 && !f.execute[i];
        let mut t = self.next_opposed(i, 0, n);
        while t < n {
            if !self.is_alive(i) || self.won.is_some() {
                return;
            }
            if plain && self.s.front.first_hit_done[i] {
                // The rest of this run of one team's rows, all fought (see `plain_run`).
                let end = self.s.run_end[t] as usize;
                if !self.plain_run(i, t, end) {
                    return;
                }
                t = self.next_opposed(i, end, n);
                continue;
            }
            if self.is_alive(t) {
                let f = &self.s.front;
                if plain
                    && f.first_hit_done[i]
                    && f.ward[t] <= 0
                    && f.dodge[t] <= 0
                    && f.loss_cap[t] == i32::MAX
                {
                    self.plain_hit(i, t);
                } else {
                    self.attack_hit(i, t);
                }
            }
            t = self.next_opposed(i, t + 1, n);
        }
    }

    /// The plain attack's hits (see [`Self::attack`]) on rows `from..to`, one run of a team the
    /// attacker fights, in order: the loop of [`Self::attack`] without asking row by row
    /// whether it is fought or has left (a row that left is not alive). False when the attacker
    /// is out or the battle won (after a ward, dodge or loss cap took a hit the long way).
    #[inline]
    fn plain_run(&mut self, i: usize, from: usize, to: usize) -> bool {
        // A hit of 0 arrives as 0 whatever multiplies it (AR-2, AR-59) and, on a target whose
        // Defence and prevention are not below 0, takes nothing: it only counts (AR-28). Battles
        // of heroes who deal 0 (coins of -30 and below) can fill the table and last every round.
        if self.s.front.hit[i] == 0 && !self.cat.remembers {
            let f = &mut self.s.front;
            let mut t = from;
            while t < to {
                if f.energy[t] > 0 {
                    if f.ward[t] > 0
                        || f.dodge[t] > 0
                        || f.loss_cap[t] != i32::MAX
                        || f.defence[t] < 0
                        || f.prevention[t] < 0
                    {
                        break;
                    }
                    f.attack_hits_round[t] += 1;
                    self.hits += 1;
                }
                t += 1;
            }
            // The first target a 0 could still change (a ward, dodge, loss cap, or Defence or
            // prevention below 0) and the rest go row by row.
            return self.plain_rest(i, t, to);
        }
        self.plain_rest(i, from, to)
    }

    /// [`Self::plain_run`] row by row from `from`: each hit through [`Self::plain_hit`], a target
    /// with a ward, dodge or loss cap through [`Self::attack_hit`].
    fn plain_rest(&mut self, i: usize, from: usize, to: usize) -> bool {
        for t in from..to {
            let f = &self.s.front;
            if f.energy[t] <= 0 {
                continue;
            }
            if f.ward[t] <= 0 && f.dodge[t] <= 0 && f.loss_cap[t] == i32::MAX {
                self.plain_hit(i, t);
            } else {
                self.attack_hit(i, t);
                if !self.is_alive(i) || self.won.is_some() {
                    return false;
                }
            }
        }
        true
    }

    /// [`Self::hit_inner`] for an attack hit that sets nothing off (see [`Self::attack`]): no
    /// reaction anywhere, no ward, dodge or loss cap on the target, no first-hit bonus, no
    /// percentage after Defence or execution by the attacker. The same steps, in the same
    /// order, without asking for what cannot happen.
    #[inline]
    fn plain_hit(&mut self, i: usize, t: usize) {
        self.hits += 1;
        let s = &mut *self.s;
        let f = &mut s.front;
        f.attack_hits_round[t] += 1;
        if self.cat.remembers {
            s.seen_now.push((f.id[t], f.id[i]));
        }
        let mut rest = rules::arriving_hit(f.hit[i], f.vulnerable[t], f.deal_pct[i], f.take_pct[t]);
        let d = rest.min(f.defence[t]);
        f.defence[t] -= d;
        rest -= d;
        let p = rest.min(f.prevention[t]);
        f.prevention[t] -= p;
        rest -= p;
        if rest > 0 {
            let e = f.energy[t].saturating_sub(rest);
            f.damage_round[t] = f.damage_round[t].saturating_add(rest);
            self.set_energy(t, e);
            self.lost_energy = true;
            if e <= 0 {
                self.dying += 1;
                self.dies(t, Some(i), false);
            }
        }
    }

    /// One hit of row `i`'s attack on row `t`; the first carries the first-hit bonus.
    #[inline]
    fn attack_hit(&mut self, i: usize, t: usize) {
        let f = &mut self.s.front;
        let mut amount = f.hit[i];
        if !f.first_hit_done[i] {
            f.first_hit_done[i] = true;
            amount = amount.saturating_add(f.first_hit_bonus[i]).max(0);
        }
        self.hit(i, t, amount, true, false, false, false);
    }
}

/// Where hero `id`'s pairs lie in last round's sorted (hero, attacker) list (AR-61).
fn last_range(seen: &[(HeroId, HeroId)], id: HeroId) -> (usize, usize) {
    (
        seen.partition_point(|p| p.0 < id),
        seen.partition_point(|p| p.0 <= id),
    )
}

/// AR-14 at the round limit, among heroes of the teams' sides (AR-42, AR-60).
fn round_limit_winner(f: &Rows, initiative: &[f64]) -> Option<u16> {
    let rows = (0..f.len)
        .filter(|&i| f.side[i] == Side::Team)
        .map(|i| (f.energy[i], f.team[i]));
    rules::round_limit_winner_of(rows, initiative)
}
