//! The reference model for powers as data: every clause of [`crate::games::auto_rumble::powers::file`] played plainly.
//! A `Vec` of hero structs in initiative order, clauses found by scanning a loadout's whole list
//! for the trigger at hand, targets found by scanning, copies by `Vec::insert`. No fast path, no
//! phase skipping. [`crate::games::auto_rumble::kernel::data`] must agree with it battle for battle
//! (tests/games/auto_rumble_data_differential.rs). The rule entries cited are in
//! `docs/rules/auto-rumble.md`.

use crate::games::auto_rumble::kernel::hand::{EndReason, Outcome};
use crate::games::auto_rumble::powers::catalogue::{Catalogue, HeldClause, Loadout, NO_CLAUSE};
use crate::games::auto_rumble::powers::expr::Quantity;
use crate::games::auto_rumble::powers::file::{Clause, Effect, EffectKind, Limit, Target, When};
use crate::games::auto_rumble::rules;
use crate::games::auto_rumble::state::{HeroId, Resolving, Side};
use crate::games::auto_rumble::trace::data::Event;
use std::collections::BTreeSet;

#[derive(Clone, Debug)]
struct Hero {
    id: HeroId,
    team: usize,
    energy: i32,
    defence: i32,
    prevention: i32,
    counters: [i32; crate::games::auto_rumble::powers::catalogue::MAX_HERO_COUNTERS],
    once_game: u32,
    once_round: u32,
    tax_now: i32,
    tax_next: i32,
    locked_now: bool,
    locked_next: bool,
    vulnerable: i32,
    dodge: i32,
    attack_hits_round: i32,
    hits_last_round: i32,
    damage_round: i32,
    first_hit_done: bool,
    /// This round's plan: use-order entries (`NO_CLAUSE` = the attack).
    plan: Vec<u8>,
    /// Its own loadout: its team's for originals and copies, its own for summons (AR-36).
    build: Loadout,
    /// Damage per hit of its attack before bonuses (AR-2; a summon's is its own).
    damage: i32,
    /// Who summoned it, for summons.
    summoner: Option<HeroId>,
    /// Its side (AR-42, AR-60); for summons, `team` is the summoner's team.
    side: Side,
    /// The round it was eliminated in (-1: not eliminated; 0 is the battle start).
    died_round: i32,
    /// For summons: which power's which summon it is (its name).
    summon: Option<(u16, u8)>,
    powers_used: i32,
    /// This round, Spend on Defence powers is paid as a Burn (AR-37).
    defence_burns: bool,
    /// This round, the rule that picks the only hero its attack hits (AR-39).
    attack_only: Option<Target>,
    /// This round (AR-40): no attack; the after-Defence percentage; executing the undefended.
    no_attack: bool,
    after_defence_pct: i32,
    execute: bool,
    /// This round's ward (AR-41): what is left of it, and who warded.
    ward: i32,
    warder: Option<HeroId>,
    hit: i32,
    first_hit_bonus: i32,
    /// Since its last plan (AR-59): its hits dealt and taken, in percent.
    deal_pct: i32,
    take_pct: i32,
    /// Since its last plan (AR-67): the most Energy it loses to hits in a round (`i32::MAX`:
    /// no cap).
    loss_cap: i32,
    /// This round, (clause bit, other hero) for each reaction limited per other hero that
    /// fired (AR-68).
    fired_for: BTreeSet<(u16, HeroId)>,
    /// Who made attack hits on it this round and last round, each once (AR-61). Sets, so a
    /// hit among thousands of copies costs no scan of its attackers (issue 49).
    attackers_now: BTreeSet<HeroId>,
    attackers_last: BTreeSet<HeroId>,
}

/// Where a hit went, for the narration.
#[derive(Clone, Copy, Default)]
struct Absorbed {
    dodged: bool,
    reduced: i32,
    ward: i32,
    /// Absorbed, and left.
    defence: (i32, i32),
    prevention: (i32, i32),
    /// Held off by the holder's cap on Energy lost to hits this round (AR-67).
    capped: i32,
    lost: i32,
}

impl Absorbed {
    fn dodged() -> Absorbed {
        Absorbed {
            dodged: true,
            ..Absorbed::default()
        }
    }
}

/// A battle as the reference plays it: the outcome and each round's alive heroes and Energy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub outcome: Outcome,
    pub rounds: Vec<Vec<(HeroId, i32)>>,
    /// Copies and summons in creation order.
    pub births: Vec<Birth>,
    /// Heroes of the winning team alive at the end (its hostile and neutral summons are of no
    /// team, AR-42, AR-60); 0 for a draw. What the verdict line says.
    pub winners_alive: u32,
}

/// A hero that joined during the battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Birth {
    /// The round it joined in (0: the battle start).
    pub round: u32,
    /// The hero it copies, or that summoned it.
    pub parent: HeroId,
    pub id: HeroId,
    /// A summon's name (AR-36); `None` for a copy.
    pub summon: Option<String>,
}

struct Battle<'a> {
    cat: &'a Catalogue,
    heroes: Vec<Hero>,
    /// Each hero id's place in `heroes` (`usize::MAX`: gone), renewed whenever the table's
    /// order changes, so finding a hero costs no scan (replicating battles of thousands of
    /// heroes, issue 49).
    at: Vec<usize>,
    capacity: usize,
    capped: bool,
    next_id: HeroId,
    /// Heroes that entered the battle: ids below this are the players' own (AR-64).
    entering: HeroId,
    round: i32,
    heroes_at_start: i32,
    lost_energy: bool,
    hits: u64,
    won: Option<usize>,
    /// Copies made in the phase under way: (parent id, copy), inserted when it ends (AR-11).
    born: Vec<(HeroId, Hero)>,
    births: Vec<Birth>,
    /// The hit being resolved: what `attacked` reactions may reduce (AR-38) and what reactions
    /// read (AR-57).
    resolving: Resolving,
    /// This round's battle-wide attack rule (Assassin's Game, AR-39).
    everyone_only: Option<Target>,
    /// Heroes at Energy <= 0 whose elimination is not settled yet (AR-52).
    dying: usize,
    /// Told what happens, when narrating (`play_narrated`).
    log: Option<&'a mut dyn FnMut(Event)>,
}

/// Plays one battle. `initiative[t]` is team `t`'s initiative.
pub fn play(
    cat: &Catalogue,
    builds: &[Loadout],
    initiative: &[f64],
    max_rounds: u32,
    capacity: usize,
) -> Replay {
    play_logged(cat, builds, initiative, max_rounds, capacity, None)
}

/// Plays one battle, telling `on` every event as it happens (for
/// [`crate::games::auto_rumble::trace::data::Renderer`]), so a battle of any length is told in
/// bounded memory: the returned replay keeps only the last round and no births (the events
/// carry every round's Energies and every birth).
pub fn play_narrated(
    cat: &Catalogue,
    builds: &[Loadout],
    initiative: &[f64],
    max_rounds: u32,
    capacity: usize,
    on: &mut dyn FnMut(Event),
) -> Replay {
    play_logged(cat, builds, initiative, max_rounds, capacity, Some(on))
}

fn play_logged<'a>(
    cat: &'a Catalogue,
    builds: &[Loadout],
    initiative: &[f64],
    max_rounds: u32,
    capacity: usize,
    log: Option<&'a mut dyn FnMut(Event)>,
) -> Replay {
    let narrated = log.is_some();
    let mut order: Vec<usize> = (0..builds.len()).collect();
    // AR-6: highest initiative first; the stable sort keeps roster order among equals.
    order.sort_by(|&a, &b| initiative[b].partial_cmp(&initiative[a]).unwrap());
    let mut b = Battle {
        cat,
        heroes: Vec::new(),
        at: Vec::new(),
        capacity: capacity.max(1),
        capped: false,
        next_id: builds.len() as HeroId,
        entering: builds.len() as HeroId,
        round: 0,
        heroes_at_start: 0,
        lost_energy: false,
        hits: 0,
        won: None,
        born: Vec::new(),
        births: Vec::new(),
        resolving: Resolving::default(),
        everyone_only: None,
        dying: 0,
        log,
    };
    for t in order {
        let l = &builds[t];
        if l.energy <= 0 {
            continue; // AR-16
        }
        if b.heroes.len() >= b.capacity {
            b.capped = true; // AR-15
            continue;
        }
        b.heroes
            .push(fresh(t as HeroId, t, l.energy, *l, l.damage, None));
    }
    b.reindex();
    let mut rounds = Vec::new();
    let mut quiet = 0;
    let mut end = EndReason::Elimination;
    // AR-34: battle-start clauses, in initiative order, before round 1; `heroes_alive` is the
    // heroes entering.
    b.heroes_at_start = b.alive_count();
    // AR-70: passive clauses marked `from_start` hold from before the battle-start phase.
    for i in 0..b.heroes.len() {
        if b.heroes[i].energy > 0
            && b.clauses_of(i, When::Passive)
                .iter()
                .any(|hc| b.cat.clause(hc).from_start)
        {
            b.read_passives(i, true);
        }
    }
    b.phase(When::BattleStart);
    while b.won.is_none() && b.teams_alive() > 1 {
        b.round += 1;
        b.lost_energy = false;
        b.heroes_at_start = b.alive_count();
        b.log(|b| Event::RoundStart {
            round: b.round as u32,
            alive: b.heroes_at_start as u32,
        });
        // Per-round state (AR-4, AR-31, AR-32).
        for h in &mut b.heroes {
            h.defence = 0;
            h.ward = 0;
            h.warder = None;
            h.once_round = 0;
            h.tax_now = h.tax_next;
            h.tax_next = 0;
            h.locked_now = h.locked_next;
            h.locked_next = false;
            h.vulnerable = 1;
            h.dodge = 0;
            h.hits_last_round = h.attack_hits_round;
            h.attack_hits_round = 0;
            h.attackers_last = std::mem::take(&mut h.attackers_now);
            h.damage_round = 0;
            h.first_hit_done = false;
            h.fired_for.clear();
        }
        b.phase(When::RoundStart);
        if b.won.is_none() {
            b.everyone_only = None;
            // AR-5: the dead make no plan (nor impose their passive rules on the round).
            for i in 0..b.heroes.len() {
                if b.heroes[i].energy > 0 {
                    b.make_plan(i);
                }
            }
            b.actions();
        }
        if b.won.is_none() {
            b.phase(When::RoundEnd);
        }
        if narrated {
            // The events carry every round: keep only the last (bounded memory).
            rounds.clear();
            b.births.clear();
        }
        if b.won.is_some() {
            rounds.push(b.snapshot());
            b.log_round_end();
            break;
        }
        // AR-13.
        quiet = if b.lost_energy { 0 } else { quiet + 1 };
        if b.cat.rules.stalemate_after(quiet) {
            quiet = 0;
            for i in 0..b.heroes.len() {
                let h = &mut b.heroes[i];
                if h.energy <= 0 {
                    continue;
                }
                let before = h.energy;
                h.energy = rules::stalemate_energy(h.energy);
                if h.energy <= 0 {
                    h.died_round = b.round;
                }
                let (hero, after) = (h.id, h.energy);
                b.log(|_| Event::Stalemate {
                    hero,
                    before,
                    after,
                });
            }
        }
        b.heroes.retain(|h| h.energy > 0);
        b.reindex();
        rounds.push(b.snapshot());
        b.log_round_end();
        if b.teams_alive() <= 1 {
            break;
        }
        if b.round as u32 >= max_rounds {
            end = EndReason::RoundLimit;
            break;
        }
    }
    let winner = if let Some(t) = b.won {
        end = EndReason::PowerWin;
        Some(t as u16)
    } else if end == EndReason::RoundLimit {
        round_limit_winner(&b.heroes, initiative)
    } else {
        // AR-42, AR-60: the last team standing; summons of no team do not win.
        b.heroes
            .iter()
            .find(|h| h.energy > 0 && h.side == Side::Team)
            .map(|h| h.team as u16)
    };
    let winners_alive = winner.map_or(0, |t| {
        b.heroes
            .iter()
            .filter(|h| h.energy > 0 && h.side == Side::Team && h.team as u16 == t)
            .count() as u32
    });
    Replay {
        winners_alive,
        outcome: Outcome {
            winner,
            rounds: b.round as u32,
            capped: b.capped,
            end,
            hits: b.hits,
            survivors: b.alive_count() as u32,
        },
        rounds,
        births: b.births,
    }
}

/// Whether two heroes fight each other (AR-1, AR-42, AR-60): heroes of different teams do; a
/// hostile summon fights only its summoner's team; neutral summons fight every team.
fn opposed(a: &Hero, b: &Hero) -> bool {
    a.side.opposed(a.team as u16, b.side, b.team as u16)
}

fn allied(a: &Hero, b: &Hero) -> bool {
    a.side.allied(a.team as u16, b.side, b.team as u16)
}

/// A hero entering the battle (or summoned into it) with nothing used yet.
fn fresh(
    id: HeroId,
    team: usize,
    energy: i32,
    build: Loadout,
    damage: i32,
    summoner: Option<HeroId>,
) -> Hero {
    Hero {
        id,
        team,
        energy,
        defence: 0,
        prevention: 0,
        counters: build.counters,
        once_game: 0,
        once_round: 0,
        tax_now: 0,
        tax_next: 0,
        locked_now: false,
        locked_next: false,
        vulnerable: 1,
        dodge: 0,
        attack_hits_round: 0,
        hits_last_round: 0,
        damage_round: 0,
        first_hit_done: false,
        plan: Vec::new(),
        powers_used: 0,
        defence_burns: false,
        attack_only: None,
        no_attack: false,
        after_defence_pct: 100,
        execute: false,
        ward: 0,
        warder: None,
        hit: 0,
        first_hit_bonus: 0,
        deal_pct: 100,
        take_pct: 100,
        loss_cap: i32::MAX,
        fired_for: BTreeSet::new(),
        attackers_now: BTreeSet::new(),
        attackers_last: BTreeSet::new(),
        build,
        damage,
        summoner,
        summon: None,
        side: Side::Team,
        // Not eliminated: round 0 is the battle start, when a hero at 0 Energy whose
        // elimination is still being resolved must not count yet (found by the grammar
        // differential, issue 49).
        died_round: -1,
    }
}

fn round_limit_winner(heroes: &[Hero], initiative: &[f64]) -> Option<u16> {
    // AR-14: most Energy, then higher initiative; two teams tied on both is a draw.
    let alive: Vec<&Hero> = heroes
        .iter()
        .filter(|h| h.energy > 0 && h.side == Side::Team)
        .collect();
    let key = |h: &Hero| (h.energy, initiative[h.team]);
    let best = alive
        .iter()
        .map(|h| key(h))
        .max_by(|a, b| a.partial_cmp(b).unwrap())?;
    let mut teams: Vec<usize> = alive
        .iter()
        .filter(|h| key(h) == best)
        .map(|h| h.team)
        .collect();
    teams.dedup();
    if teams.len() > 1 {
        None
    } else {
        Some(teams[0] as u16)
    }
}

impl Battle<'_> {
    /// Records an event when narrating; builds nothing otherwise.
    fn log(&mut self, e: impl FnOnce(&Self) -> Event) {
        if self.log.is_some() {
            let event = e(self);
            if let Some(on) = self.log.as_mut() {
                on(event);
            }
        }
    }

    fn log_round_end(&mut self) {
        self.log(|b| Event::RoundEnd {
            round: b.round as u32,
            heroes: b.snapshot(),
        });
    }

    fn snapshot(&self) -> Vec<(HeroId, i32)> {
        self.heroes
            .iter()
            .filter(|h| h.energy > 0)
            .map(|h| (h.id, h.energy))
            .collect()
    }

    fn alive_count(&self) -> i32 {
        self.heroes.iter().filter(|h| h.energy > 0).count() as i32
    }

    /// AR-42, AR-60: hostile and neutral summons keep no team in the battle.
    fn teams_alive(&self) -> usize {
        let mut t: Vec<usize> = self
            .heroes
            .iter()
            .filter(|h| h.energy > 0 && h.side == Side::Team)
            .map(|h| h.team)
            .collect();
        t.sort();
        t.dedup();
        t.len()
    }

    /// Hero `i`'s clauses for `when`, in the order held; a removed power's are gone (AR-69).
    fn clauses_of(&self, i: usize, when: When) -> Vec<HeldClause> {
        let l = &self.heroes[i].build;
        l.clauses[..l.n_clauses as usize]
            .iter()
            .enumerate()
            .filter(|&(k, hc)| self.cat.clause(hc).when == when && !l.is_removed(k as u8))
            .map(|(_, hc)| *hc)
            .collect()
    }

    /// A phase: each alive hero in initiative order fires its clauses for `when`, in the order
    /// held (AR-6); copies made in it join after it (AR-11).
    fn phase(&mut self, when: When) {
        let ids: Vec<HeroId> = self.heroes.iter().map(|h| h.id).collect();
        for id in ids {
            let Some(i) = self.index(id) else { continue };
            if self.heroes[i].energy <= 0 || self.heroes[i].locked_now {
                continue; // AR-5; AR-32: a locked hero's triggered powers do not act
            }
            for hc in self.clauses_of(i, when) {
                let Some(i) = self.index(id) else { break };
                if self.heroes[i].energy <= 0 || self.won.is_some() {
                    break;
                }
                self.fire(i, &hc, None, false);
            }
        }
        self.join_born();
    }

    fn opposed(&self, a: usize, b: usize) -> bool {
        opposed(&self.heroes[a], &self.heroes[b])
    }

    /// AR-15, AR-52: alive heroes, heroes on their way out and newcomers waiting to join stay
    /// within capacity.
    fn room(&self) -> bool {
        self.alive_count() as usize + self.dying + self.born.len() < self.capacity
    }

    fn index(&self, id: HeroId) -> Option<usize> {
        self.at
            .get(id as usize)
            .copied()
            .filter(|&k| k != usize::MAX)
    }

    /// Renews [`Self::index`]'s map after the table's order changed.
    fn reindex(&mut self) {
        self.at.clear();
        self.at.resize(self.next_id as usize, usize::MAX);
        for (k, h) in self.heroes.iter().enumerate() {
            self.at[h.id as usize] = k;
        }
    }

    /// Copies join right after their parent, after the parent's earlier copies (AR-11).
    fn join_born(&mut self) {
        let mut joined: Vec<(HeroId, HeroId)> = Vec::new();
        for (parent, copy) in std::mem::take(&mut self.born) {
            let p = self
                .index(parent)
                .expect("a parent stays in the table until the round ends");
            let mut k = p + 1;
            while k < self.heroes.len() && joined.contains(&(parent, self.heroes[k].id)) {
                k += 1;
            }
            joined.push((parent, copy.id));
            let summon = copy
                .summon
                .map(|(p, k)| self.cat.defs[p as usize].summons[k as usize].name.clone());
            let (id, energy, parent_energy) = (copy.id, copy.energy, self.heroes[p].energy);
            let named = summon.clone();
            self.log(|_| Event::Born {
                parent,
                parent_energy,
                id,
                energy,
                summon: named,
            });
            self.births.push(Birth {
                round: self.round as u32,
                parent,
                id: copy.id,
                summon,
            });
            self.heroes.insert(k, copy);
            self.reindex();
        }
    }

    /// AR-3, AR-33: the budget is the Energy after the start-of-round phase, less this round's
    /// tax; the walk stops at the first item whose Spend + Burn no longer fits. Locked powers
    /// and spent once-per-game clauses are skipped; a `use` clause whose conditions fail is not
    /// planned.
    fn make_plan(&mut self, i: usize) {
        // AR-40, AR-59: `no_attack` and `attack_cost` are read before the plan is made (their
        // conditions see last round's `powers_used`).
        let mut no_attack = false;
        let mut attack_cost = self.cat.rules.attack_cost as i64;
        for (hc, c) in self.live_passives(i) {
            for e in c.effects() {
                match e.kind {
                    EffectKind::NoAttack => no_attack = true,
                    EffectKind::AttackCost => {
                        attack_cost += e.value.eval(|q| self.read(i, &hc, None, q)) as i64;
                    }
                    _ => {}
                }
            }
        }
        let attack_cost = attack_cost.clamp(0, i32::MAX as i64) as i32;
        self.heroes[i].no_attack = no_attack;
        let h = &self.heroes[i];
        let l = h.build;
        let mut budget = h.energy - h.tax_now;
        let budget_at_start = budget;
        let mut plan = Vec::new();
        let mut items = Vec::new();
        let mut used = 0;
        for &u in l.uses() {
            if u == NO_CLAUSE {
                if no_attack {
                    continue;
                }
                if attack_cost > budget {
                    break;
                }
                budget -= attack_cost;
                plan.push(u);
                items.push((None, attack_cost));
                continue;
            }
            if l.is_removed(u) {
                continue; // AR-69
            }
            let hc = l.clauses[u as usize];
            let c = *self.cat.clause(&hc);
            if self.heroes[i].locked_now || !self.may_fire(i, &hc, &c, None) {
                continue;
            }
            if !c
                .conds()
                .iter()
                .all(|k| k.holds(|q| self.read(i, &hc, None, q)))
            {
                continue;
            }
            // AR-24: a Spend or Burn below 0 costs 0 (it never enlarges the budget).
            let cost = c.cost.spend.eval(|q| self.read(i, &hc, None, q)).max(0) as i64
                + c.cost.burn.eval(|q| self.read(i, &hc, None, q)).max(0) as i64;
            if cost > budget as i64 {
                break;
            }
            budget -= cost as i32;
            plan.push(u);
            items.push((Some(hc.power), cost as i32));
            used += 1;
        }
        let hero = self.heroes[i].id;
        self.log(|_| Event::Plan {
            hero,
            budget: budget_at_start,
            items,
        });
        let h = &mut self.heroes[i];
        h.plan = plan;
        h.powers_used = used;
        self.read_passives(i, false);
    }

    /// Passive clauses: the attack's bonuses this round and what holds until the next plan
    /// (AR-9, AR-25, AR-59, AR-67); at the battle's start, only those marked `from_start`
    /// (AR-70).
    fn read_passives(&mut self, i: usize, from_start: bool) {
        let mut bonus: i64 = 0;
        let mut first: i64 = 0;
        let mut burns = false;
        let mut only = None;
        let mut pct = 100;
        let mut execute = false;
        let (mut deal, mut take) = (100, 100);
        let mut cap = i32::MAX;
        for (hc, c) in self.live_passives(i) {
            if from_start && !c.from_start {
                continue;
            }
            for e in c.effects() {
                let v = e.value.eval(|q| self.read(i, &hc, None, q)) as i64;
                match e.kind {
                    EffectKind::AttackBonus => bonus += v,
                    EffectKind::FirstHitBonus => first += v,
                    EffectKind::DefenceSpendBurns => burns = true,
                    EffectKind::AttackOnly => only = e.to,
                    EffectKind::AfterDefencePercent => pct = v.clamp(0, 1_000_000) as i32,
                    EffectKind::ExecuteUndefended => execute = true,
                    EffectKind::EveryoneAttacksOnly => self.everyone_only = e.to,
                    EffectKind::DealPercent => deal = rules::compose_percent(deal, v as i32),
                    EffectKind::TakePercent => take = rules::compose_percent(take, v as i32),
                    // AR-67: the smallest cap counts; below 0 it is 0.
                    EffectKind::RoundLossCap => cap = cap.min(v.max(0) as i32),
                    _ => {}
                }
            }
        }
        let h = &mut self.heroes[i];
        h.deal_pct = deal;
        h.take_pct = take;
        h.loss_cap = cap;
        h.hit = (h.damage as i64 + bonus).clamp(0, i32::MAX as i64) as i32;
        h.first_hit_bonus = first.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        h.defence_burns = burns;
        h.attack_only = only;
        h.after_defence_pct = pct;
        h.execute = execute;
    }

    /// Hero `i`'s passive clauses whose conditions hold now (AR-25).
    fn live_passives(&self, i: usize) -> Vec<(HeldClause, Clause)> {
        self.clauses_of(i, When::Passive)
            .into_iter()
            .map(|hc| (hc, *self.cat.clause(&hc)))
            .filter(|(hc, c)| {
                c.conds()
                    .iter()
                    .all(|k| k.holds(|q| self.read(i, hc, None, q)))
            })
            .collect()
    }

    fn may_fire(&self, i: usize, hc: &HeldClause, c: &Clause, other: Option<usize>) -> bool {
        let h = &self.heroes[i];
        let bit = hc.bit as u32;
        match c.limit {
            Limit::Unlimited => true,
            Limit::OncePerRound => h.once_round & bit == 0,
            Limit::OncePerGame => h.once_game & bit == 0,
            // AR-68: a reaction with no other hero (a death by a Burn) is not limited.
            Limit::OncePerHeroPerRound => {
                other.is_none_or(|o| !h.fired_for.contains(&(hc.bit, self.heroes[o].id)))
            }
        }
    }

    fn read(&self, i: usize, hc: &HeldClause, target: Option<usize>, q: Quantity) -> i32 {
        let h = &self.heroes[i];
        let alive = |f: &dyn Fn(&Hero) -> bool| {
            self.heroes.iter().filter(|o| o.energy > 0 && f(o)).count() as i32
        };
        match q {
            Quantity::Energy => h.energy,
            Quantity::Defence => h.defence,
            Quantity::Attack => h.damage,
            Quantity::Strength => hc.strength,
            Quantity::OtherStrength => hc.other_strength,
            Quantity::Counter(k) => h.counters[hc.counter_base as usize + k as usize],
            Quantity::Round => self.round,
            Quantity::HeroesAlive => self.heroes_at_start,
            Quantity::OpponentsAlive => alive(&|o| opposed(h, o)),
            Quantity::AlliesAlive => alive(&|o| allied(h, o)),
            Quantity::TeamsAlive => self.teams_alive() as i32,
            Quantity::EliminatedThisRound => self
                .heroes
                .iter()
                .filter(|o| o.energy <= 0 && o.died_round == self.round && opposed(h, o))
                .count() as i32,
            Quantity::DamageTaken => h.damage_round,
            Quantity::HitsTakenLastRound => h.hits_last_round,
            Quantity::PowersUsed => h.powers_used,
            Quantity::Negated => self.resolving.negated,
            Quantity::HitArriving => self.resolving.arriving,
            Quantity::HitDamage => self.resolving.damage,
            Quantity::SummonsAlive => alive(&|o| o.summoner == Some(h.id)),
            // AR-64: the heroes that entered have the first ids, one per team.
            Quantity::PlayersAlive => alive(&|o| o.id < self.entering),
            // AR-65: the power's `use` clause among the plan's entries.
            Quantity::Planned => h
                .plan
                .iter()
                .any(|&u| u != NO_CLAUSE && h.build.clauses[u as usize].power == hc.power)
                as i32,
            Quantity::TargetSummoned => {
                target.map_or(0, |t| self.heroes[t].summoner.is_some() as i32)
            }
            Quantity::TargetEnergy => target.map_or(0, |t| self.heroes[t].energy),
            Quantity::TargetDefence => target.map_or(0, |t| self.heroes[t].defence),
            Quantity::AttackersLastRound => h.attackers_last.len() as i32,
            Quantity::TargetAttackedMe => {
                target.map_or(0, |t| h.attackers_last.contains(&self.heroes[t].id) as i32)
            }
        }
    }

    /// Heroes an effect acts on, in initiative order (AR-26).
    fn targets(&self, i: usize, t: Target, other: Option<usize>) -> Vec<usize> {
        // Lists are built only for the rules that need them: a reaction's `other` is found
        // without a pass over the table (replicating battles of thousands of heroes, issue 49).
        let alive = || (0..self.heroes.len()).filter(|&k| self.heroes[k].energy > 0);
        let opponents = || alive().filter(move |&k| self.opposed(i, k));
        let best = |key: &dyn Fn(&Hero) -> i32, most: bool, anyone: bool| -> Vec<usize> {
            let mut pick: Option<usize> = None;
            // AR-56: `anyone_*` rules pick among every other hero alive, of any team.
            let pool: Vec<usize> = if anyone {
                alive().filter(|&k| k != i).collect()
            } else {
                opponents().collect()
            };
            for k in pool {
                let better = match pick {
                    None => true,
                    Some(p) => {
                        let (a, b) = (key(&self.heroes[k]), key(&self.heroes[p]));
                        if most { a > b } else { a < b }
                    }
                };
                if better {
                    pick = Some(k);
                }
            }
            pick.into_iter().collect()
        };
        match t {
            Target::Holder => vec![i],
            Target::AllOpponents => opponents().collect(),
            Target::AllAllies => alive()
                .filter(|&k| allied(&self.heroes[i], &self.heroes[k]))
                .collect(),
            Target::Everyone => alive().filter(|&k| k != i).collect(),
            Target::FirstOpponent => opponents().take(1).collect(),
            Target::OpponentMostEnergy => best(&|h| h.energy, true, false),
            Target::OpponentLeastEnergy => best(&|h| h.energy, false, false),
            Target::OpponentMostDefence => best(&|h| h.defence, true, false),
            Target::AnyoneMostEnergy => best(&|h| h.energy, true, true),
            Target::AnyoneLeastEnergy => best(&|h| h.energy, false, true),
            Target::NextOpponent => {
                let n = self.heroes.len();
                (1..n)
                    .map(|k| (i + k) % n)
                    .find(|&k| self.heroes[k].energy > 0 && self.opposed(i, k))
                    .into_iter()
                    .collect()
            }
            Target::Other => other
                .filter(|&k| self.heroes[k].energy > 0)
                .into_iter()
                .collect(),
            // AR-61: in initiative order, like every many-hero target.
            Target::AttackersLastRound => alive()
                .filter(|&k| self.heroes[i].attackers_last.contains(&self.heroes[k].id))
                .collect(),
            // AR-66: so far this round, in initiative order.
            Target::AttackersThisRound => alive()
                .filter(|&k| self.heroes[i].attackers_now.contains(&self.heroes[k].id))
                .collect(),
        }
    }

    /// Fires one clause of hero `i`. `other` is a reaction's other hero; `quiet`: effects of a
    /// reaction trigger no reactions (AR-27).
    fn fire(&mut self, i: usize, hc: &HeldClause, other: Option<usize>, quiet: bool) {
        let c = *self.cat.clause(hc);
        let other = other.filter(|&o| o < self.heroes.len());
        // AR-69: a removed power's clauses fire no more, even those already on their way.
        if self.heroes[i].build.removed & hc.bit != 0 || !self.may_fire(i, hc, &c, other) {
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
        self.heroes[i].once_round |= hc.bit as u32;
        self.heroes[i].once_game |= hc.bit as u32;
        if c.limit == Limit::OncePerHeroPerRound
            && let Some(o) = other
        {
            let o = self.heroes[o].id;
            self.heroes[i].fired_for.insert((hc.bit, o));
        }
        self.log(|b| Event::Fires {
            hero: b.heroes[i].id,
            power: hc.power,
            when: c.when,
            other: other.map(|o| b.heroes[o].id),
        });
        if c.when != When::Use && c.when != When::Death {
            // AR-38: a triggered clause's Burn is paid when it fires, if the holder can pay it
            // and live; otherwise the clause does not fire.
            let burn = c.cost.burn.eval(|q| self.read(i, hc, other, q));
            if burn > 0 {
                if self.heroes[i].energy <= burn {
                    return;
                }
                self.lose(i, burn, None, true);
            }
        }
        if c.when == When::Use {
            // AR-24: the Burn is an Energy loss, paid as the power is used.
            let mut burn = c.cost.burn.eval(|q| self.read(i, hc, None, q));
            let adds_defence = c.effects().iter().any(|e| e.kind == EffectKind::AddDefence);
            if self.heroes[i].defence_burns && adds_defence {
                // AR-37: the Spend is paid as a Burn.
                burn = burn.saturating_add(c.cost.spend.eval(|q| self.read(i, hc, None, q)).max(0));
            }
            if burn > 0 && !self.lose(i, burn, None, quiet) {
                return;
            }
        }
        let id = self.heroes[i].id;
        for e in c.effects() {
            let Some(i) = self.index(id) else { return };
            if self.heroes[i].energy <= 0 && c.when != When::Death {
                return;
            }
            if self.won.is_some() {
                return;
            }
            let to = e.to.unwrap_or(c.target);
            let other = other.filter(|&o| o < self.heroes.len());
            // `target.*` reads the clause's target, even in an effect sent elsewhere with `to`
            // (Parasitic Strain's gain reads the opponent's Defence, AR-26).
            let clause_target = if e.to.is_some() && c.target.is_single() {
                self.targets(i, c.target, other).first().copied()
            } else {
                None
            };
            for t in self.targets(i, to, other) {
                // A hero that left mid-effect (a reaction to an earlier target eliminated it)
                // is acted on no more, and a holder that left acts no more (issue 49).
                if self.heroes[t].died_round >= 0 && t != i {
                    continue;
                }
                if self.heroes[i].energy <= 0 && c.when != When::Death {
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
        // Narration: what the effect changed (hits, losses and newcomers report themselves).
        let reported = match e.kind {
            EffectKind::AddEnergy => v >= 0,
            EffectKind::SetEnergy => v >= self.heroes[t].energy,
            EffectKind::Damage
            | EffectKind::LoseEnergy
            | EffectKind::Eliminate
            | EffectKind::CopySelf
            | EffectKind::CopyWith
            | EffectKind::Summon(_) => false,
            // Told only when it takes (AR-69).
            EffectKind::RemovePower(k) => self.heroes[t]
                .build
                .without(self.cat.removes[hc.power as usize][k as usize])
                .is_some(),
            // Told only when it takes (AR-62).
            EffectKind::Give(k) => self.heroes[t]
                .build
                .with_given(
                    self.cat,
                    self.cat.gives[hc.power as usize][k as usize],
                    hc.strength,
                )
                .is_some(),
            k => !k.is_passive(),
        };
        self.apply_value(i, hc, e, t, read_at, quiet, v);
        let after = |b: &Self| {
            let h = &b.heroes[t];
            match e.kind {
                EffectKind::AddEnergy | EffectKind::SetEnergy | EffectKind::Revive => h.energy,
                EffectKind::AddDefence | EffectKind::LoseDefence => h.defence,
                EffectKind::AddPrevention => h.prevention,
                EffectKind::CounterAdd(k)
                | EffectKind::CounterMultiply(k)
                | EffectKind::CounterSet(k) => h.counters[hc.counter_base as usize + k as usize],
                EffectKind::Tax => h.tax_next,
                EffectKind::Vulnerable => h.vulnerable,
                _ => v,
            }
        };
        if reported && t < self.heroes.len() {
            self.log(|b| Event::Effect {
                by: b.heroes[i].id,
                target: b.heroes[t].id,
                power: hc.power,
                kind: e.kind,
                value: v,
                after: after(b),
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn apply_value(
        &mut self,
        i: usize,
        hc: &HeldClause,
        e: &Effect,
        t: usize,
        read_at: Option<usize>,
        quiet: bool,
        v: i32,
    ) {
        match e.kind {
            EffectKind::AddEnergy => {
                if v < 0 {
                    self.lose(t, v.saturating_neg(), None, quiet);
                } else {
                    self.heroes[t].energy = self.heroes[t].energy.saturating_add(v);
                }
            }
            EffectKind::LoseEnergy => {
                if v > 0 {
                    self.lose(t, v, Some(i), quiet);
                }
            }
            EffectKind::SetEnergy => {
                let now = self.heroes[t].energy;
                if v < now {
                    self.lose(t, now.saturating_sub(v), None, quiet);
                } else {
                    self.heroes[t].energy = v;
                }
            }
            EffectKind::AddDefence => {
                let h = &mut self.heroes[t];
                h.defence = h.defence.saturating_add(v).max(0);
            }
            EffectKind::LoseDefence => {
                let h = &mut self.heroes[t];
                h.defence = h.defence.saturating_sub(v.max(0)).max(0);
            }
            EffectKind::AddPrevention => {
                let h = &mut self.heroes[t];
                h.prevention = h.prevention.saturating_add(v).max(0);
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
                let c = &mut self.heroes[t].counters[hc.counter_base as usize + k as usize];
                *c = c.saturating_add(v);
            }
            EffectKind::CounterMultiply(k) => {
                let c = &mut self.heroes[t].counters[hc.counter_base as usize + k as usize];
                *c = c.saturating_mul(v);
            }
            EffectKind::CounterSet(k) => {
                self.heroes[t].counters[hc.counter_base as usize + k as usize] = v;
            }
            EffectKind::CopySelf => {
                // AR-15: alive heroes plus copies waiting to join stay within capacity.
                if self.room() {
                    let mut copy = self.heroes[t].clone();
                    copy.id = self.next_id;
                    self.next_id += 1;
                    self.born.push((self.heroes[t].id, copy));
                } else {
                    self.capped = true;
                    self.log(|b| Event::Capped {
                        hero: b.heroes[t].id,
                    });
                }
            }
            EffectKind::Eliminate => {
                let e = self.heroes[t].energy;
                self.lose(t, e, Some(i), quiet);
            }
            // AR-42, AR-60: a hostile or neutral summon never wins.
            EffectKind::Win if self.heroes[i].side == Side::Team => {
                self.won = Some(self.heroes[i].team)
            }
            EffectKind::Win => {}
            EffectKind::Tax => {
                let h = &mut self.heroes[t];
                h.tax_next = h.tax_next.max(v);
            }
            EffectKind::Revive => self.heroes[t].energy = v.max(1),
            EffectKind::Dodge => self.heroes[t].dodge = v.max(0),
            EffectKind::Vulnerable => {
                let h = &mut self.heroes[t];
                h.vulnerable = h.vulnerable.saturating_mul(v.max(0));
            }
            EffectKind::Lock => self.heroes[t].locked_next = true,
            EffectKind::Ward => {
                // AR-41: a new ward replaces the last one.
                let id = self.heroes[i].id;
                let h = &mut self.heroes[t];
                h.ward = v.max(0);
                h.warder = Some(id);
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
                if v > 0 && self.room() {
                    let mut copy = self.heroes[t].clone();
                    copy.id = self.next_id;
                    copy.energy = v;
                    self.next_id += 1;
                    self.born.push((self.heroes[t].id, copy));
                } else if v > 0 {
                    self.capped = true;
                    self.log(|b| Event::Capped {
                        hero: b.heroes[t].id,
                    });
                }
            }
            EffectKind::Summon(k) => {
                // AR-36: joins the holder's team right after the holder, within capacity.
                let sd = &self.cat.defs[hc.power as usize].summons[k as usize];
                let build = self.cat.summons[hc.power as usize][k as usize];
                let damage = sd
                    .attack
                    .map_or(0, |a| a.eval(|q| self.read(i, hc, read_at, q)).max(0));
                let energy = sd.energy.eval(|q| self.read(i, hc, read_at, q));
                if energy <= 0 {
                    return;
                }
                if self.room() {
                    let h = &self.heroes[i];
                    let mut s = fresh(self.next_id, h.team, energy, build, damage, Some(h.id));
                    s.summon = Some((hc.power, k));
                    // AR-36: a plain summon joins its maker's side, so a hostile or neutral
                    // summon's recruits are hostile or neutral too (issue 49).
                    s.side = if sd.side == Side::Team {
                        h.side
                    } else {
                        sd.side
                    };
                    self.next_id += 1;
                    self.born.push((self.heroes[i].id, s));
                } else {
                    self.capped = true;
                    self.log(|b| Event::Capped {
                        hero: b.heroes[i].id,
                    });
                }
            }
            EffectKind::Give(k) => {
                // AR-62: held from now on; nothing when it is held already or would not fit.
                let p = self.cat.gives[hc.power as usize][k as usize];
                let h = &mut self.heroes[t];
                if let Some((l, base)) = h.build.with_given(self.cat, p, hc.strength) {
                    h.build = l;
                    let n = self.cat.defs[p as usize].counters.len();
                    h.counters[base..base + n].copy_from_slice(&l.counters[base..base + n]);
                }
            }
            EffectKind::RemovePower(k) => {
                // AR-69: for good; nothing when the target holds nothing to remove.
                let p = self.cat.removes[hc.power as usize][k as usize];
                let h = &mut self.heroes[t];
                if let Some(l) = h.build.without(p) {
                    h.build = l;
                }
            }
            // Passive effects act through the plan (`make_plan`), never when applied.
            k => debug_assert!(k.is_passive(), "{k:?} is played above"),
        }
    }

    /// An Energy loss that is not a hit (a Burn, `lose_energy`, a drop by `set_energy`):
    /// nothing absorbs it (AR-29). Returns whether `t` is still alive.
    fn lose(&mut self, t: usize, amount: i32, by: Option<usize>, quiet: bool) -> bool {
        if amount <= 0 || self.heroes[t].energy <= 0 {
            return self.heroes[t].energy > 0;
        }
        self.lost_energy = true;
        let before = self.heroes[t].energy;
        self.heroes[t].energy = before.saturating_sub(amount);
        self.log(|b| Event::Loss {
            hero: b.heroes[t].id,
            amount,
            energy: b.heroes[t].energy,
        });
        if self.heroes[t].energy <= 0 {
            self.dying += 1;
            self.dies(t, by, quiet);
        }
        self.heroes[t].energy > 0
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
            let by_id = self.heroes[by].id;
            let h = &mut self.heroes[t];
            h.attack_hits_round += 1;
            h.attackers_now.insert(by_id);
            // AR-35: Bullet Time's dodge counts attack hits: 1, 1 + n, 1 + 2n, ... are prevented.
            if h.dodge > 0 && (h.attack_hits_round - 1) % h.dodge == 0 {
                self.resolving.arriving = self.arriving(by, t, amount);
                self.resolving.damage = 0;
                self.log_hit(by, t, true, amount, Absorbed::dodged());
                self.react(t, When::Attacked, by, quiet);
                self.react(by, When::Hit, t, quiet);
                return;
            }
        }
        let mut rest = self.arriving(by, t, amount);
        let arrived = rest;
        self.resolving.arriving = rest;
        self.resolving.damage = rest;
        let mut seen = Absorbed::default();
        let alive_on_arrival = attack && self.heroes[t].energy > 0;
        if attack {
            // AR-38: `attacked` reactions see the hit as it arrives and may reduce it.
            self.resolving.in_flight = rest;
            self.resolving.negated = 0;
            self.react(t, When::Attacked, by, quiet);
            rest = self.resolving.in_flight;
            seen.reduced = arrived - rest;
        }
        let had_defence = self.heroes[t].defence > 0;
        let (pct, execute) = if attack {
            (self.heroes[by].after_defence_pct, self.heroes[by].execute)
        } else {
            (100, false)
        };
        if attack && !ignore_defence && !unpreventable && self.heroes[t].ward > 0 {
            // AR-41: the ward absorbs first; what it takes feeds the warder.
            let w = rest.min(self.heroes[t].ward);
            self.heroes[t].ward -= w;
            rest -= w;
            seen.ward = w;
            if let Some(k) = self.heroes[t].warder.and_then(|id| self.index(id))
                && self.heroes[k].energy > 0
            {
                self.heroes[k].energy = self.heroes[k].energy.saturating_add(w);
            }
        }
        let h = &mut self.heroes[t];
        if !ignore_defence && !unpreventable {
            let d = rest.min(h.defence);
            h.defence -= d;
            rest -= d;
            seen.defence = (d, h.defence);
        }
        if pct != 100 && rest > 0 {
            // AR-40: rounded up.
            rest = ((rest as i64 * pct as i64 + 99) / 100).min(i32::MAX as i64) as i32;
        }
        if !unpreventable {
            let p = rest.min(h.prevention);
            h.prevention -= p;
            rest -= p;
            seen.prevention = (p, h.prevention);
        }
        if h.loss_cap != i32::MAX {
            // AR-67: what this round's hits have taken so far counts against the cap, even an
            // unpreventable hit's.
            let room = (h.loss_cap - h.damage_round).max(0);
            seen.capped = (rest - room).max(0);
            rest = rest.min(room);
        }
        self.resolving.damage = rest;
        if attack {
            self.react(by, When::Hit, t, quiet);
        }
        if rest > 0 && self.heroes[t].energy > 0 {
            let h = &mut self.heroes[t];
            h.energy = h.energy.saturating_sub(rest);
            h.damage_round = h.damage_round.saturating_add(rest);
            self.lost_energy = true;
            seen.lost = rest;
            self.log_hit(by, t, attack, arrived, seen);
            // AR-52: eliminated by this hit, not by a reaction to it (which eliminates quietly).
            let killed = self.heroes[t].energy <= 0;
            self.dying += killed as usize;
            self.react(t, When::Damaged, by, quiet);
            self.react(by, When::DealtDamage, t, quiet);
            if killed {
                self.dies(t, Some(by), quiet);
            }
        } else if !(alive_on_arrival && self.heroes[t].energy <= 0) {
            self.log_hit(by, t, attack, arrived, seen);
        }
        // Else the target left inside its own `attacked` reaction (an `eliminate` on itself):
        // the hit arrives at no one, and is not told as a hit on the fallen hero (issue 49).
        if execute && !had_defence && self.heroes[t].energy > 0 {
            // AR-40: the undefended target is eliminated outright.
            let e = self.heroes[t].energy;
            self.lose(t, e, Some(by), quiet);
        }
    }

    /// A hit of `amount` from `by` as it arrives at `t`: `vulnerable` (Curses) and the damage
    /// percentages of both (AR-59).
    fn arriving(&self, by: usize, t: usize, amount: i32) -> i32 {
        let h = &self.heroes[t];
        rules::arriving_hit(amount, h.vulnerable, self.heroes[by].deal_pct, h.take_pct)
    }

    /// Narration of a hit on `t` of `amount` (after `vulnerable`) and where it went.
    fn log_hit(&mut self, by: usize, t: usize, attack: bool, amount: i32, a: Absorbed) {
        self.log(|b| Event::Hit {
            by: b.heroes[by].id,
            target: b.heroes[t].id,
            attack,
            amount,
            dodged: a.dodged,
            reduced: a.reduced,
            ward: a.ward,
            defence: a.defence.0,
            defence_left: a.defence.1,
            prevention: a.prevention.0,
            prevention_left: a.prevention.1,
            capped: a.capped,
            lost: a.lost,
            energy: b.heroes[t].energy,
        });
    }

    /// `t` reached Energy <= 0: its death reactions (a revive keeps it in), else it leaves:
    /// the round's eliminations, the killer's `kill`, every opponent's `opponent_eliminated`.
    fn dies(&mut self, t: usize, by: Option<usize>, quiet: bool) {
        if !quiet {
            for hc in self.clauses_of(t, When::Death) {
                if self.heroes[t].locked_now {
                    break;
                }
                // AR-54: `other` is the hero whose hit or effect eliminated it.
                self.fire(t, &hc, by.filter(|&k| k != t), true);
                if self.heroes[t].energy > 0 {
                    self.dying -= 1;
                    return; // AR-27: revived, it never left
                }
            }
        }
        self.dying -= 1;
        self.heroes[t].died_round = self.round;
        self.log(|b| Event::Eliminated {
            hero: b.heroes[t].id,
        });
        if quiet {
            return;
        }
        if let Some(k) = by
            && k != t
        {
            self.react(k, When::Kill, t, quiet);
        }
        for k in 0..self.heroes.len() {
            if self.heroes[k].energy > 0 && self.opposed(k, t) {
                self.react(k, When::OpponentEliminated, t, quiet);
            }
        }
    }

    /// Hero `k`'s reaction clauses for `when`, about hero `other` (AR-27).
    fn react(&mut self, k: usize, when: When, other: usize, quiet: bool) {
        if quiet || self.heroes[k].energy <= 0 || self.heroes[k].locked_now || self.won.is_some() {
            return;
        }
        for hc in self.clauses_of(k, when) {
            if self.heroes[k].energy <= 0 || self.won.is_some() {
                break;
            }
            self.fire(k, &hc, Some(other), true);
        }
    }

    /// The action phase: each alive hero walks its plan in initiative order (AR-6).
    fn actions(&mut self) {
        let ids: Vec<HeroId> = self.heroes.iter().map(|h| h.id).collect();
        for id in ids {
            let Some(i) = self.index(id) else { continue };
            let plan = self.heroes[i].plan.clone();
            for u in plan {
                let Some(i) = self.index(id) else { break };
                if self.heroes[i].energy <= 0 || self.won.is_some() {
                    break; // AR-5
                }
                if u == NO_CLAUSE {
                    self.attack(i);
                } else if self.heroes[i].build.is_removed(u) {
                    continue; // AR-69: removed after the plan was made
                } else {
                    let hc = self.heroes[i].build.clauses[u as usize];
                    self.fire(i, &hc, None, false);
                }
            }
        }
        self.join_born();
    }

    /// The default attack: every alive hero of the other teams, in order (AR-1); the first hit
    /// carries the first-hit bonus.
    fn attack(&mut self, i: usize) {
        let n = self.heroes.len();
        self.log(|b| Event::Attack {
            hero: b.heroes[i].id,
            damage: b.heroes[i].hit,
        });
        // AR-39: a rule may narrow the attack to one hero, picked as the attack starts.
        let only = match self.heroes[i].attack_only.or(self.everyone_only) {
            None => None,
            Some(rule) => match self.targets(i, rule, None).first() {
                None => return,
                Some(&t) => Some(t),
            },
        };
        for t in 0..n {
            if only.is_some_and(|o| o != t) {
                continue;
            }
            if self.heroes[i].energy <= 0 || self.won.is_some() {
                return;
            }
            if !self.opposed(i, t) || self.heroes[t].energy <= 0 {
                continue;
            }
            let mut amount = self.heroes[i].hit;
            if !self.heroes[i].first_hit_done {
                self.heroes[i].first_hit_done = true;
                amount = amount.saturating_add(self.heroes[i].first_hit_bonus).max(0);
            }
            self.hit(i, t, amount, true, false, false, false);
        }
    }
}
