//! The battle kernel for powers as data: the struct-of-arrays table walked phase by phase, each
//! hero's clauses read from its compiled [`Loadout`], no allocation once a [`DataKernel`] exists.
//!
//! Its fast path ([`DataKernel::run`]) plays the *self-contained* class of powers: clauses whose
//! effects act on their holder (Energy, Defence, prevention, counters, copies, attack bonuses)
//! and read no per-hit history. The six sample powers and most round-start and use-order powers
//! are in it. Loadouts outside it (reactions, effects on other heroes, taxes, locks, wards,
//! summons, wins) are played by [`crate::games::auto_rumble::kernel::general`], which plays every clause, also
//! without allocating; [`play`] picks the path. tests/auto_rumble_data_differential.rs holds
//! both to the data reference, round by round.

use crate::games::auto_rumble::kernel::general::GeneralKernel;
use crate::games::auto_rumble::kernel::hand::{EndReason, Outcome};
pub use crate::games::auto_rumble::kernel::hook::{NoHook, RoundHook, Rounds};
use crate::games::auto_rumble::kernel::powerless;
use crate::games::auto_rumble::powers::catalogue::{
    Catalogue, HeldClause, Loadout, MAX_HERO_COUNTERS, NO_CLAUSE, phase,
};
use crate::games::auto_rumble::powers::expr::Quantity;
use crate::games::auto_rumble::powers::file::{Clause, EffectKind, Limit};
use crate::games::auto_rumble::rules;
use crate::games::auto_rumble::state::{HeroId, RoundView};

/// Phase bits outside the kernel's class.
const OUTSIDE: u32 = phase::REACTION | phase::HIT_MODIFIER | phase::TARGETS_OTHERS | phase::GENERAL;

/// Whether [`DataKernel`] can play these loadouts.
pub fn in_kernel_class(builds: &[Loadout]) -> bool {
    builds.iter().all(|b| b.phases & OUTSIDE == 0)
}

/// One table of heroes: struct-of-arrays, `capacity` slots, the first `len` live.
#[derive(Clone, Debug)]
struct Table {
    energy: Vec<i32>,
    defence: Vec<i32>,
    prevention: Vec<i32>,
    team: Vec<u16>,
    id: Vec<HeroId>,
    /// This round: bit `j` set when use-order item `j` is planned (AR-3); costed powers
    /// among them (AR-9).
    plan: Vec<u16>,
    used: Vec<u8>,
    /// This round: damage per hit of the attack, and the first hit's bonus.
    hit: Vec<i32>,
    first_bonus: Vec<i32>,
    once_game: Vec<u16>,
    once_round: Vec<u16>,
    counters: Vec<[i32; MAX_HERO_COUNTERS]>,
    len: usize,
}

impl Table {
    fn with_capacity(c: usize) -> Table {
        Table {
            energy: vec![0; c],
            defence: vec![0; c],
            prevention: vec![0; c],
            team: vec![0; c],
            id: vec![0; c],
            plan: vec![0; c],
            used: vec![0; c],
            hit: vec![0; c],
            first_bonus: vec![0; c],
            once_game: vec![0; c],
            once_round: vec![0; c],
            counters: vec![[0; MAX_HERO_COUNTERS]; c],
            len: 0,
        }
    }

    fn capacity(&self) -> usize {
        self.energy.len()
    }

    /// Appends row `i` of `from`: a copy inherits its original's state (AR-11).
    #[inline]
    fn push_row(&mut self, from: &Table, i: usize) {
        let k = self.len;
        self.energy[k] = from.energy[i];
        self.defence[k] = from.defence[i];
        self.prevention[k] = from.prevention[i];
        self.team[k] = from.team[i];
        self.id[k] = from.id[i];
        // plan, used, hit and first_bonus are this round's, read only in the action phase, which
        // a copy born this round never takes part in (AR-11): not copied.
        self.once_game[k] = from.once_game[i];
        self.once_round[k] = from.once_round[i];
        self.counters[k] = from.counters[i];
        self.len = k + 1;
    }

    fn view(&self) -> RoundView<'_> {
        RoundView {
            id: &self.id[..self.len],
            team: &self.team[..self.len],
            energy: &self.energy[..self.len],
        }
    }
}

/// Per-battle counters the phases share.
struct Tally {
    teams_alive: u32,
    alive: u32,
    round_deaths: u32,
    lost_energy: bool,
    hits: u64,
    round: i32,
    heroes_at_start: i32,
    capped: bool,
    next_id: HeroId,
    copies: usize,
}

/// Scratch for battles, reused from one to the next.
#[derive(Clone, Debug)]
pub struct DataKernel {
    front: Table,
    back: Table,
    pending: Table,
    pending_parent: Vec<u32>,
    team_alive: Vec<u32>,
    round_deaths: Vec<u32>,
    sort: Vec<u16>,
    /// Each entered row's hit damage (AR-2), for powerless battles: their rows never move.
    hit: Vec<i32>,
    /// The general path's scratch, made by the first battle that needs it.
    general: Option<Box<GeneralKernel>>,
}

impl DataKernel {
    /// Scratch for battles of up to `capacity` heroes (AR-15): the only allocation.
    pub fn new(capacity: usize) -> DataKernel {
        let capacity = capacity.max(1);
        DataKernel {
            front: Table::with_capacity(capacity),
            back: Table::with_capacity(capacity),
            pending: Table::with_capacity(capacity),
            pending_parent: vec![0; capacity],
            hit: vec![0; capacity],
            team_alive: Vec::new(),
            round_deaths: Vec::new(),
            sort: Vec::new(),
            general: None,
        }
    }

    pub fn capacity(&self) -> usize {
        self.front.capacity()
    }

    /// The general path's kernel, of the same capacity (made on first use).
    pub fn general(&mut self) -> &mut GeneralKernel {
        let capacity = self.capacity();
        self.general
            .get_or_insert_with(|| Box::new(GeneralKernel::new(capacity)))
    }

    /// Heroes of `team` alive at the end of the last battle.
    pub fn team_alive(&self, team: u16) -> u32 {
        self.team_alive[team as usize]
    }

    /// Hero `id`'s Energy at the end of the last battle; `None` if it died or never entered.
    /// (Originals have the ids of their roster positions.)
    pub fn hero_energy(&self, id: HeroId) -> Option<i32> {
        let f = &self.front;
        (0..f.len)
            .find(|&i| f.id[i] == id && f.energy[i] > 0)
            .map(|i| f.energy[i])
    }

    /// Plays one battle of loadouts in the kernel's class ([`in_kernel_class`]).
    pub fn run<H: RoundHook>(
        &mut self,
        cat: &Catalogue,
        builds: &[Loadout],
        initiative: &[f64],
        max_rounds: u32,
        hook: &mut H,
    ) -> Outcome {
        assert_eq!(builds.len(), initiative.len(), "one initiative per team");
        assert!(
            in_kernel_class(builds),
            "loadouts outside the kernel's class: use `play`"
        );
        let teams = builds.len();
        if self.team_alive.len() < teams {
            self.team_alive.resize(teams, 0);
            self.round_deaths.resize(teams, 0);
            self.sort.reserve(teams);
        }
        rules::initiative_order(&initiative[..teams], &mut self.sort);
        let mut tally = Tally {
            teams_alive: 0,
            alive: 0,
            round_deaths: 0,
            lost_energy: false,
            hits: 0,
            round: 0,
            heroes_at_start: 0,
            capped: false,
            next_id: teams as HeroId,
            copies: 0,
        };
        let mut phases = 0u32;
        let f = &mut self.front;
        f.len = 0;
        for &t in &self.sort {
            let b = &builds[t as usize];
            phases |= b.phases;
            self.team_alive[t as usize] = 0;
            if b.energy <= 0 {
                continue; // AR-16
            }
            if f.len == f.capacity() {
                tally.capped = true; // AR-15
                continue;
            }
            let k = f.len;
            f.energy[k] = b.energy;
            f.defence[k] = 0;
            f.prevention[k] = 0;
            f.team[k] = t;
            f.id[k] = t as HeroId;
            self.hit[k] = b.damage.max(0);
            f.once_game[k] = 0;
            f.once_round[k] = 0;
            if b.phases != 0 {
                f.counters[k] = b.counters;
            }
            f.len = k + 1;
            self.team_alive[t as usize] = 1;
            tally.teams_alive += 1;
            tally.alive += 1;
        }
        // AR-34: at battle start `heroes_alive` is the heroes entering.
        tally.heroes_at_start = tally.alive as i32;
        if phases & phase::BATTLE_START != 0 {
            self.phase(cat, builds, &mut tally, |b| {
                (&b.battle_start, b.n_battle_start)
            });
        }
        let mut rounds = 0;
        let mut quiet = 0;
        let mut end = EndReason::Elimination;
        let mut winner = None;
        while tally.teams_alive > 1 {
            rounds += 1;
            tally.round = rounds as i32;
            tally.heroes_at_start = tally.alive as i32;
            tally.round_deaths = 0;
            tally.lost_energy = false;
            if phases != 0 {
                // Without powers nothing reads these (no Defence, limits or Souleater).
                self.round_deaths[..teams].fill(0);
                let n = self.front.len;
                self.front.defence[..n].fill(0); // AR-4
                self.front.once_round[..n].fill(0);
            }
            if phases & phase::ROUND_START != 0 {
                self.phase(cat, builds, &mut tally, |b| {
                    (&b.round_start, b.n_round_start)
                });
            }
            if phases == 0 {
                // Rounds in which every hero keeps its plan and nobody can fall end alike, so
                // they are played together (same Energies, hits and rounds as one by one) unless
                // a hook watches each round.
                let f = &mut self.front;
                let (energy, hit) = (&mut f.energy[..f.len], &self.hit[..f.len]);
                let damage = |i: usize| hit[i];
                let ahead = if H::ENABLED {
                    0
                } else {
                    powerless::rounds_ahead(energy, damage, max_rounds - (rounds - 1))
                };
                if ahead >= 2 {
                    tally.hits += powerless::play_rounds(energy, damage, ahead);
                    tally.lost_energy = true;
                    rounds += ahead - 1;
                } else {
                    self.powerless_round(&mut tally);
                }
            } else {
                self.plan(cat, builds, &tally, phases);
                self.actions(cat, builds, &mut tally);
            }
            if phases & phase::ROUND_END != 0 {
                self.phase(cat, builds, &mut tally, |b| (&b.round_end, b.n_round_end));
            }
            // AR-13, after the end-of-round powers (their copies, joined already, take part).
            quiet = if tally.lost_energy { 0 } else { quiet + 1 };
            if quiet == rules::STALEMATE_QUIET_ROUNDS {
                quiet = 0;
                self.stalemate(&mut tally);
            }
            // Dead rows may stay (every phase skips Energy <= 0) until they are half the table;
            // a hook always sees a compacted table.
            let dead = self.front.len - tally.alive as usize;
            if dead > 0 && (H::ENABLED || (phases != 0 && dead * 2 > self.front.len)) {
                self.rebuild();
            }
            if H::ENABLED {
                hook.round_end(rounds, self.front.view());
            }
            if tally.teams_alive <= 1 {
                break;
            }
            if rounds >= max_rounds {
                end = EndReason::RoundLimit;
                winner = self.round_limit_winner(initiative);
                break;
            }
        }
        if end == EndReason::Elimination {
            winner = (0..teams as u16).find(|&t| self.team_alive[t as usize] > 0);
        }
        Outcome {
            winner,
            rounds,
            capped: tally.capped,
            end,
            hits: tally.hits,
            survivors: tally.alive,
        }
    }

    /// A whole round when no hero holds a power ([`powerless::play_round`]).
    #[inline(always)]
    fn powerless_round(&mut self, tally: &mut Tally) {
        let f = &mut self.front;
        let n = f.len;
        let hit = &self.hit[..n];
        let (team_alive, round_deaths) = (&mut self.team_alive, &mut self.round_deaths);
        let (hits, lost) = powerless::play_round(
            &mut f.energy[..n],
            &mut f.plan[..n],
            &f.team[..n],
            |i| hit[i],
            |t| die(t, team_alive, round_deaths, tally),
        );
        tally.hits += hits;
        tally.lost_energy |= lost;
    }

    /// A triggered phase: each alive hero in initiative order fires its clauses from `list`, in
    /// the order held (AR-6). Copies wait in `pending` and join after the phase (AR-11).
    #[inline]
    fn phase(
        &mut self,
        cat: &Catalogue,
        builds: &[Loadout],
        tally: &mut Tally,
        list: impl Fn(
            &Loadout,
        ) -> (
            &[u8; crate::games::auto_rumble::powers::catalogue::MAX_CLAUSES],
            u8,
        ),
    ) {
        tally.copies = 0;
        self.pending.len = 0;
        let n = self.front.len;
        for i in 0..n {
            let b = &builds[self.front.team[i] as usize];
            let (l, k) = list(b);
            for &c in &l[..k as usize] {
                if self.front.energy[i] <= 0 {
                    break; // AR-5
                }
                let hc = &b.clauses[c as usize];
                self.fire(cat, b, hc, i, tally);
            }
        }
        if tally.copies > 0 {
            self.join(tally);
        }
    }

    fn read(&self, b: &Loadout, hc: &HeldClause, i: usize, tally: &Tally, q: Quantity) -> i32 {
        let f = &self.front;
        let team = f.team[i] as usize;
        match q {
            Quantity::Energy => f.energy[i],
            Quantity::Defence => f.defence[i],
            Quantity::Attack => b.damage,
            Quantity::Strength => hc.strength,
            Quantity::OtherStrength => hc.other_strength,
            Quantity::Counter(k) => f.counters[i][hc.counter_base as usize + k as usize],
            Quantity::Round => tally.round,
            Quantity::HeroesAlive => tally.heroes_at_start,
            Quantity::OpponentsAlive => (tally.alive - self.team_alive[team]) as i32,
            Quantity::AlliesAlive => self.team_alive[team] as i32,
            Quantity::TeamsAlive => tally.teams_alive as i32,
            Quantity::EliminatedThisRound => (tally.round_deaths - self.round_deaths[team]) as i32,
            Quantity::PowersUsed => f.used[i] as i32,
            // Outside the kernel's class (phase::GENERAL): never reached.
            Quantity::DamageTaken
            | Quantity::HitsTakenLastRound
            | Quantity::SummonsAlive
            | Quantity::Negated
            | Quantity::HitArriving
            | Quantity::HitDamage
            | Quantity::TargetSummoned
            | Quantity::TargetEnergy
            | Quantity::TargetDefence
            | Quantity::AttackersLastRound
            | Quantity::TargetAttackedMe => 0,
        }
    }

    #[inline]
    fn may_fire(&self, c: &Clause, hc: &HeldClause, i: usize) -> bool {
        match c.limit {
            Limit::Unlimited => true,
            Limit::OncePerRound => self.front.once_round[i] & hc.bit == 0,
            Limit::OncePerGame => self.front.once_game[i] & hc.bit == 0,
        }
    }

    /// Fires one clause of row `i` on itself (the kernel's class).
    fn fire(&mut self, cat: &Catalogue, b: &Loadout, hc: &HeldClause, i: usize, tally: &mut Tally) {
        let c = cat.clause(hc);
        if !self.may_fire(c, hc, i) {
            return;
        }
        if c.when != crate::games::auto_rumble::powers::file::When::Use
            && !c
                .conds()
                .iter()
                .all(|k| k.holds(|q| self.read(b, hc, i, tally, q)))
        {
            return;
        }
        if c.limit != Limit::Unlimited {
            self.front.once_round[i] |= hc.bit;
            self.front.once_game[i] |= hc.bit;
        }
        if c.when == crate::games::auto_rumble::powers::file::When::Use {
            let burn = c.cost.burn.eval(|q| self.read(b, hc, i, tally, q));
            if burn > 0 && !self.lose(i, burn, tally) {
                return; // AR-24: burnt out
            }
        }
        for e in c.effects() {
            if self.front.energy[i] <= 0 {
                return;
            }
            if let Some(k) = &e.cond
                && !k.holds(|q| self.read(b, hc, i, tally, q))
            {
                continue;
            }
            let v = e.value.eval(|q| self.read(b, hc, i, tally, q));
            let f = &mut self.front;
            match e.kind {
                EffectKind::AddEnergy => {
                    if v < 0 {
                        self.lose(i, -v, tally);
                    } else {
                        f.energy[i] = f.energy[i].saturating_add(v);
                    }
                }
                EffectKind::SetEnergy => {
                    let now = f.energy[i];
                    if v < now {
                        self.lose(i, now - v, tally);
                    } else {
                        f.energy[i] = v;
                    }
                }
                EffectKind::AddDefence => f.defence[i] = f.defence[i].saturating_add(v).max(0),
                EffectKind::AddPrevention => {
                    f.prevention[i] = f.prevention[i].saturating_add(v).max(0)
                }
                EffectKind::CounterAdd(k) => {
                    let x = &mut f.counters[i][hc.counter_base as usize + k as usize];
                    *x = x.saturating_add(v);
                }
                EffectKind::CounterMultiply(k) => {
                    let x = &mut f.counters[i][hc.counter_base as usize + k as usize];
                    *x = x.saturating_mul(v);
                }
                EffectKind::CounterSet(k) => {
                    f.counters[i][hc.counter_base as usize + k as usize] = v;
                }
                EffectKind::CopySelf => {
                    // AR-15: alive heroes plus copies waiting to join stay within capacity. The
                    // copy is counted alive when it joins (`join`), not before (AR-11).
                    if (tally.alive as usize + tally.copies) < f.capacity() {
                        let k = tally.copies;
                        self.pending.push_row(f, i);
                        self.pending.id[k] = tally.next_id;
                        self.pending_parent[k] = i as u32;
                        tally.copies += 1;
                        tally.next_id += 1;
                    } else {
                        tally.capped = true;
                    }
                }
                _ => unreachable!("outside the kernel's class (in_kernel_class)"),
            }
        }
    }

    /// An Energy loss that is not a hit (AR-29); returns whether the hero is still alive.
    #[inline]
    fn lose(&mut self, i: usize, amount: i32, tally: &mut Tally) -> bool {
        let f = &mut self.front;
        let before = f.energy[i];
        if amount <= 0 || before <= 0 {
            return before > 0;
        }
        tally.lost_energy = true;
        f.energy[i] = before.saturating_sub(amount);
        if f.energy[i] <= 0 {
            die(
                f.team[i],
                &mut self.team_alive,
                &mut self.round_deaths,
                tally,
            );
            return false;
        }
        true
    }

    /// AR-3, AR-33: each hero's plan from its budget after the start-of-round phase; then the
    /// attack's damage per hit with the passive bonuses whose conditions hold (AR-9, AR-25).
    fn plan(&mut self, cat: &Catalogue, builds: &[Loadout], tally: &Tally, phases: u32) {
        let n = self.front.len;
        for i in 0..n {
            let b = &builds[self.front.team[i] as usize];
            if b.phases & (phase::USE | phase::PASSIVE) == 0 {
                // Nothing but the attack in the use order and no bonus: the common case.
                let attack_fits = self.front.energy[i] >= rules::ATTACK_COST;
                self.front.plan[i] = attack_fits as u16 * first_attack_bit(b);
                self.front.used[i] = 0;
                self.front.hit[i] = b.damage.max(0);
                self.front.first_bonus[i] = 0;
                continue;
            }
            let mut budget = self.front.energy[i] as i64;
            let mut mask = 0u16;
            let mut used = 0u8;
            self.front.used[i] = 0;
            for (j, &u) in b.uses().iter().enumerate() {
                let cost = if u == NO_CLAUSE {
                    rules::ATTACK_COST as i64
                } else {
                    let hc = &b.clauses[u as usize];
                    let c = cat.clause(hc);
                    if !self.may_fire(c, hc, i)
                        || !c
                            .conds()
                            .iter()
                            .all(|x| x.holds(|q| self.read(b, hc, i, tally, q)))
                    {
                        continue; // not planned, not used: costs nothing this round
                    }
                    c.cost.spend.eval(|q| self.read(b, hc, i, tally, q)) as i64
                        + c.cost.burn.eval(|q| self.read(b, hc, i, tally, q)) as i64
                };
                if cost > budget {
                    break;
                }
                budget -= cost;
                mask |= 1 << j;
                used += (u != NO_CLAUSE) as u8;
            }
            self.front.plan[i] = mask;
            self.front.used[i] = used;
            let mut bonus = 0i64;
            let mut first = 0i64;
            if phases & phase::PASSIVE != 0 {
                for hc in b.clause_list(&b.passive, b.n_passive) {
                    let c = cat.clause(hc);
                    if !c
                        .conds()
                        .iter()
                        .all(|x| x.holds(|q| self.read(b, hc, i, tally, q)))
                    {
                        continue;
                    }
                    for e in c.effects() {
                        let v = e.value.eval(|q| self.read(b, hc, i, tally, q)) as i64;
                        match e.kind {
                            EffectKind::AttackBonus => bonus += v,
                            EffectKind::FirstHitBonus => first += v,
                            _ => {}
                        }
                    }
                }
            }
            self.front.hit[i] = (b.damage as i64 + bonus).clamp(0, i32::MAX as i64) as i32;
            self.front.first_bonus[i] = first.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        }
    }

    /// The action phase: each alive hero walks its plan in initiative order (AR-6). A `use`
    /// clause skipped at planning time (its conditions or limit) is skipped here too.
    fn actions(&mut self, cat: &Catalogue, builds: &[Loadout], tally: &mut Tally) {
        tally.copies = 0;
        self.pending.len = 0;
        let n = self.front.len;
        for i in 0..n {
            if self.front.energy[i] <= 0 {
                continue; // AR-5
            }
            let b = &builds[self.front.team[i] as usize];
            let mut mask = self.front.plan[i];
            while mask != 0 {
                let j = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if self.front.energy[i] <= 0 {
                    break; // AR-5: a hero that burnt out stops
                }
                let u = b.uses[j];
                if u == NO_CLAUSE {
                    self.attack(i, tally);
                } else {
                    self.fire(cat, b, &b.clauses[u as usize], i, tally);
                }
            }
        }
        if tally.copies > 0 {
            self.join(tally);
        }
    }

    /// The attack of row `i`: every alive hero of the other teams, in order (AR-1, AR-5). The
    /// first hit carries the first-hit bonus; it is split off so the main loop's damage is a
    /// constant.
    #[inline(always)]
    fn attack(&mut self, i: usize, tally: &mut Tally) {
        let n = self.front.len;
        let team = self.front.team[i];
        let damage = self.front.hit[i];
        let first = self.front.first_bonus[i];
        let mut from = 0;
        if first != 0 {
            let f = &self.front;
            match (0..n).find(|&j| f.team[j] != team && f.energy[j] > 0) {
                None => return,
                Some(j) => {
                    self.hit_rows(j, j + 1, team, damage.saturating_add(first).max(0), tally);
                    from = j + 1;
                }
            }
        }
        self.hit_rows(from, n, team, damage, tally);
    }

    /// Rows `from..to` not of `team` and alive each take a hit of `damage`: Defence absorbs
    /// first, then prevention, then Energy (AR-5).
    #[inline(always)]
    fn hit_rows(&mut self, from: usize, to: usize, team: u16, damage: i32, tally: &mut Tally) {
        let f = &mut self.front;
        // Zipped iterators: one pass over four arrays with no bounds checks.
        let rows = f.energy[from..to]
            .iter_mut()
            .zip(&mut f.defence[from..to])
            .zip(&mut f.prevention[from..to])
            .zip(&f.team[from..to]);
        let mut hits = 0u64;
        let mut lost = false;
        for (((energy, defence), prevention), &target_team) in rows {
            let e = *energy;
            if target_team == team || e <= 0 {
                continue;
            }
            hits += 1;
            let d = *defence;
            let by_defence = damage.min(d);
            *defence = d - by_defence;
            let rest = damage - by_defence;
            if rest > 0 {
                let p = *prevention;
                let by_prevention = rest.min(p);
                *prevention = p - by_prevention;
                let to_energy = rest - by_prevention;
                if to_energy > 0 {
                    *energy = e - to_energy;
                    lost = true;
                    if e - to_energy <= 0 {
                        die(
                            target_team,
                            &mut self.team_alive,
                            &mut self.round_deaths,
                            tally,
                        );
                    }
                }
            }
        }
        tally.hits += hits;
        tally.lost_energy |= lost;
    }

    /// AR-13: every alive hero, this round's copies included, loses ceil(E/2).
    fn stalemate(&mut self, tally: &mut Tally) {
        let n = self.front.len;
        for i in 0..n {
            let before = self.front.energy[i];
            if before <= 0 {
                continue;
            }
            self.front.energy[i] = rules::stalemate_energy(before);
            if self.front.energy[i] <= 0 {
                die(
                    self.front.team[i],
                    &mut self.team_alive,
                    &mut self.round_deaths,
                    tally,
                );
            }
        }
    }

    /// The phase's copies join: counted alive from now on (a clause later in their phase did not
    /// see them, AR-11), and placed after their originals.
    fn join(&mut self, tally: &mut Tally) {
        for j in 0..self.pending.len {
            let t = self.pending.team[j] as usize;
            if self.team_alive[t] == 0 {
                tally.teams_alive += 1; // the original fell after copying itself
            }
            self.team_alive[t] += 1;
            tally.alive += 1;
        }
        self.rebuild();
    }

    /// Drops the dead and inserts the waiting copies after their originals (AR-11).
    fn rebuild(&mut self) {
        let (front, back, pending) = (&self.front, &mut self.back, &self.pending);
        let copies = pending.len;
        back.len = 0;
        let mut j = 0;
        for i in 0..front.len {
            if front.energy[i] > 0 {
                back.push_row(front, i);
            }
            while j < copies && self.pending_parent[j] as usize == i {
                if pending.energy[j] > 0 {
                    back.push_row(pending, j);
                }
                j += 1;
            }
        }
        std::mem::swap(&mut self.front, &mut self.back);
        self.pending.len = 0;
    }

    /// AR-14, on the table as it stands.
    fn round_limit_winner(&self, initiative: &[f64]) -> Option<u16> {
        let f = &self.front;
        rules::round_limit_winner(&f.energy[..f.len], &f.team[..f.len], initiative)
    }
}

/// The plan bit of the attack for a loadout whose use order holds only the attack.
#[inline]
fn first_attack_bit(b: &Loadout) -> u16 {
    (b.n_uses > 0 && b.uses[0] == NO_CLAUSE) as u16
}

#[inline(always)]
fn die(team: u16, team_alive: &mut [u32], round_deaths: &mut [u32], tally: &mut Tally) {
    let t = team as usize;
    team_alive[t] -= 1;
    if team_alive[t] == 0 {
        tally.teams_alive -= 1;
    }
    round_deaths[t] += 1;
    tally.round_deaths += 1;
    tally.alive -= 1;
}

/// Plays one battle of any loadouts: the fast path when they are in its class, else the general
/// kernel (see the module note).
pub fn play(
    kernel: &mut DataKernel,
    cat: &Catalogue,
    builds: &[Loadout],
    initiative: &[f64],
    max_rounds: u32,
) -> Outcome {
    if in_kernel_class(builds) {
        kernel.run(cat, builds, initiative, max_rounds, &mut NoHook)
    } else {
        kernel
            .general()
            .run(cat, builds, initiative, max_rounds, &mut NoHook)
    }
}
