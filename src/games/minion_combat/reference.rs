//! The plain model of one combat (MC-4..MC-22), written to be read against the page: one
//! function per pipeline step, minions in plain structs, victims as (side, index). It narrates
//! single combats and is the oracle an optimised kernel is held to.

use crate::games::minion_combat::draws::{MULTI, PAIR, WISE, below, key, place};
use crate::games::minion_combat::rules::{Attack, Estimate, MAX_GROUP, Rules, WisePer};
use crate::games::minion_combat::state::{End, Group, Minion, Outcome};

/// Misses of a minion whose next attack must hit (round 1, MC-9).
pub const INFINITE: u32 = u32::MAX;

/// Which wise-targeting tiebreaker settled a choice (MC-14), 1-based as the page numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiebreak {
    /// Only one enemy was left.
    Only = 0,
    NonImmune = 1,
    InstantKill = 2,
    HighestArmor = 3,
    LowestHp = 4,
    HighestDamage = 5,
    Random = 6,
}

impl Tiebreak {
    pub fn word(self) -> &'static str {
        match self {
            Tiebreak::Only => "the only enemy left",
            Tiebreak::NonImmune => "1 non-immune",
            Tiebreak::InstantKill => "2 instant kill",
            Tiebreak::HighestArmor => "3 highest armor",
            Tiebreak::LowestHp => "4 lowest HP",
            Tiebreak::HighestDamage => "5 highest damage",
            Tiebreak::Random => "6 random",
        }
    }
}

/// What the takes-damage pipeline returned (MC-19).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    Bounced,
    Damaged,
    Killed,
}

/// One attack, as A1..A8 saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blow {
    pub attack: Attack,
    pub hit: bool,
    /// The attacker's misses before the check (INFINITE in round 1).
    pub misses: u32,
    pub damage: i32,
    pub soaked: i32,
    pub dealt: i32,
    pub result: Option<Result>,
    /// True for a multi-attacker's random extra attack.
    pub random: bool,
}

/// A minion by side and position in its group.
pub type Who = (usize, usize);

/// What a combat tells an observer; every method defaults to nothing.
pub trait Hook {
    fn start(&mut self, _groups: &[&Group; 2], _first: usize) {}
    fn round(&mut self, _g: u32, _f: &Fight) {}
    fn paired(&mut self, _a: Who, _b: Who) {}
    fn wise(&mut self, _m: Who, _victim: Who, _why: Tiebreak) {}
    fn retaliates(&mut self, _m: Who, _victim: Who) {}
    fn forfeits(&mut self, _m: Who, _attacks: u32) {}
    fn blow(&mut self, _m: Who, _victim: Who, _b: &Blow, _f: &Fight) {}
    fn died(&mut self, _m: Who, _by: Who) {}
    fn end(&mut self, _o: &Outcome) {}
}

/// Observes nothing.
pub struct Quiet;
impl Hook for Quiet {}

/// A minion's state during a combat (the page's "combat attributes").
#[derive(Clone, Debug)]
pub struct Fighter {
    pub stats: Minion,
    pub hp: i32,
    pub armor: i32,
    pub remaining: u32,
    pub victim: Option<Who>,
    pub misses: u32,
    pub alive: bool,
    pub qualified: bool,
}

/// Both groups during a combat, sides in the order given.
pub struct Fight {
    pub side: [Vec<Fighter>; 2],
    /// The side with precedence (MC-3).
    pub first: usize,
    pub round: u32,
}

impl Fight {
    pub fn new(groups: [&Group; 2], first: usize) -> Fight {
        let side = groups.map(|g| {
            g.minions
                .iter()
                .map(|m| Fighter {
                    stats: m.clone(),
                    hp: m.hp,
                    armor: m.armor,
                    remaining: 0,
                    victim: None,
                    misses: 0,
                    alive: m.hp > 0,
                    qualified: false,
                })
                .collect()
        });
        Fight {
            side,
            first,
            round: 0,
        }
    }

    pub fn get(&self, w: Who) -> &Fighter {
        &self.side[w.0][w.1]
    }

    fn get_mut(&mut self, w: Who) -> &mut Fighter {
        &mut self.side[w.0][w.1]
    }

    pub fn standing(&self, s: usize) -> bool {
        self.side[s].iter().any(|f| f.alive)
    }

    fn living(&self, s: usize) -> Vec<Who> {
        (0..self.side[s].len())
            .filter(|&i| self.side[s][i].alive)
            .map(|i| (s, i))
            .collect()
    }

    fn idle(&self, w: Who) -> bool {
        let f = self.get(w);
        f.alive && f.stats.attacks > 0 && f.victim.is_none()
    }

    /// Damage of one attack by `m` in this round (MC-18): its stat, its nation's bonus, the
    /// missile round's modifier, floored at 0.
    pub fn damage(&self, m: Who, a: Attack, r: &Rules) -> i32 {
        let s = &self.get(m).stats;
        let mut d = match a {
            Attack::Hand => s.hand.unwrap_or(0),
            Attack::Missile => s.missile.unwrap_or(0),
        };
        if let Some(n) = s.nation
            && let Some((kind, round, amount)) = r.nations[n].bonus
            && kind == a
            && round == self.round
        {
            d += amount;
        }
        if self.round == 1 && a == Attack::Missile {
            d += r.missile_round_modifier;
        }
        d.max(0)
    }
}

/// Plays one combat between two groups (MC-4); `seed` is the combat's seed.
pub fn combat(groups: [&Group; 2], r: &Rules, seed: u64, hook: &mut impl Hook) -> Outcome {
    let first = if crate::games::minion_combat::state::precedes(groups[1], groups[0]) {
        1
    } else {
        0
    };
    let mut f = Fight::new(groups, first);
    let key = key(seed);
    assert!(
        groups.iter().all(|g| g.minions.len() <= MAX_GROUP),
        "a group holds at most {MAX_GROUP} minions (MC-1)"
    );
    let mut o = Outcome::new(groups.map(|g| g.minions.len()));
    hook.start(&groups, first);
    // C1: no start-of-combat effects are played yet (MC-40); the early-end check.
    for g in 1..=r.rounds {
        if !(f.standing(0) && f.standing(1)) {
            break;
        }
        f.round = g;
        o.rounds = g;
        start_of_round(&mut f, r);
        hook.round(g, &f);
        choose_victims(&mut f, r, key, hook);
        for s in [first, 1 - first] {
            side_attacks(&mut f, s, r, key, &mut o, hook);
        }
    }
    for s in 0..2 {
        for (i, m) in f.side[s].iter().enumerate() {
            o.hp[s][i] = if m.alive { m.hp } else { 0 };
            o.qualified[s][i] = m.qualified;
        }
    }
    (o.end, o.winner) = match (f.standing(0), f.standing(1)) {
        (true, true) => (End::Rounds, None),
        (true, false) => (End::Wiped, Some(0)),
        (false, true) => (End::Wiped, Some(1)),
        (false, false) => (End::Both, None),
    };
    hook.end(&o);
    o
}

/// R1 (MC-8): armor and remaining attacks reset (none for a minion without an attack this
/// round: a basher's in round 1, MC-9); shooters go idle.
fn start_of_round(f: &mut Fight, r: &Rules) {
    let g = f.round;
    for s in 0..2 {
        for m in f.side[s].iter_mut().filter(|m| m.alive) {
            m.armor = m.stats.armor;
            m.remaining = if m.stats.attack_in(g, r).is_some() {
                m.stats.attacks
            } else {
                0
            };
            if m.stats.shooter() {
                m.victim = None;
            }
        }
    }
}

/// R2 (MC-9..MC-12).
fn choose_victims(f: &mut Fight, r: &Rules, key: u64, hook: &mut impl Hook) {
    if f.round == 1 {
        // Every first attack hits; hand attacks were forfeited in R1; shooters stay idle until
        // R3/R4.
        for s in 0..2 {
            for m in f.side[s].iter_mut().filter(|m| m.alive) {
                m.misses = INFINITE;
            }
        }
        return;
    }
    pair_bashers(f, key, hook);
    // Compulsions: no must-attack effects are played yet (MC-40).
    for s in [f.first, 1 - f.first] {
        for i in 0..f.side[s].len() {
            if f.idle((s, i)) && f.side[s][i].remaining > 0 {
                choose_wisely(f, (s, i), 0, r, key, hook);
            }
        }
    }
}

/// MC-10: the idle bashers of each side, in a random order each, pair off one to one.
fn pair_bashers(f: &mut Fight, key: u64, hook: &mut impl Hook) {
    let mut lists: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    for (s, list) in lists.iter_mut().enumerate() {
        *list = (0..f.side[s].len())
            .filter(|&i| f.idle((s, i)) && !f.side[s][i].stats.shooter())
            .collect();
        for i in (1..list.len()).rev() {
            let j = below(key, place(f.round, s, i, PAIR, 0), i + 1);
            list.swap(i, j);
        }
    }
    let (a, b) = (f.first, 1 - f.first);
    for (&i, &j) in lists[a].iter().zip(&lists[b]) {
        let (x, y) = ((a, i), (b, j));
        f.get_mut(x).victim = Some(y);
        f.get_mut(y).victim = Some(x);
        hook.paired(x, y);
    }
}

/// MC-14: the six tiebreakers, in order, over the living enemies; `k` numbers the minion's
/// choices within the round (0 in R2, 1 + attacks made in R3/R4) so each reads its own place.
pub fn choose_wisely(f: &mut Fight, m: Who, k: u64, r: &Rules, key: u64, hook: &mut impl Hook) {
    let enemies = f.living(1 - m.0);
    if enemies.is_empty() {
        return;
    }
    let (v, why) = wise_choice(f, m, &enemies, r, key, k);
    f.get_mut(m).victim = Some(v);
    hook.wise(m, v, why);
}

/// The victim `m` chooses wisely among `enemies`, and the tiebreaker that settled it.
pub fn wise_choice(
    f: &Fight,
    m: Who,
    enemies: &[Who],
    r: &Rules,
    key: u64,
    k: u64,
) -> (Who, Tiebreak) {
    if enemies.len() == 1 {
        return (enemies[0], Tiebreak::Only);
    }
    let mut pool: Vec<Who> = enemies.to_vec();
    // 1: no quasi-immunities are played yet (MC-40): every enemy is non-immune.
    // 2: instant kill.
    if r.estimate != Estimate::Off {
        let kill: Vec<Who> = pool
            .iter()
            .copied()
            .filter(|&v| can_kill(f, m, v, r))
            .collect();
        if !kill.is_empty() && kill.len() < pool.len() {
            pool = kill;
            if pool.len() == 1 {
                return (pool[0], Tiebreak::InstantKill);
            }
        }
    }
    type Score = fn(&Fighter) -> i64;
    let steps: [(Tiebreak, Score); 3] = [
        (Tiebreak::HighestArmor, |x| x.stats.armor as i64),
        (Tiebreak::LowestHp, |x| -(x.hp as i64)),
        (Tiebreak::HighestDamage, |x| x.stats.best_damage() as i64),
    ];
    for (why, score) in steps {
        let best = pool.iter().map(|&v| score(f.get(v))).max().unwrap();
        pool.retain(|&v| score(f.get(v)) == best);
        if pool.len() == 1 {
            return (pool[0], why);
        }
    }
    let j = below(key, place(f.round, m.0, m.1, WISE, k), pool.len());
    (pool[j], Tiebreak::Random)
}

/// MC-15: whether `m` estimates its group can kill `v` this round.
fn can_kill(f: &Fight, m: Who, v: Who, r: &Rules) -> bool {
    let per = |w: Who| -> i64 {
        let x = f.get(w);
        match x.stats.attack_in(f.round, r) {
            Some(a) => f.damage(w, a, r) as i64 * x.remaining as i64,
            None => 0,
        }
    };
    let mut total = per(m);
    if r.estimate == Estimate::Group {
        for i in 0..f.side[m.0].len() {
            let w = (m.0, i);
            if w != m && f.get(w).alive && f.get(w).victim == Some(v) {
                total += per(w);
            }
        }
    }
    let t = f.get(v);
    total >= (t.hp + t.armor) as i64
}

/// R3 / R4 (MC-13): side `s` attacks, minion by minion.
fn side_attacks(
    f: &mut Fight,
    s: usize,
    r: &Rules,
    key: u64,
    o: &mut Outcome,
    hook: &mut impl Hook,
) {
    for i in 0..f.side[s].len() {
        let m = (s, i);
        if !f.get(m).alive || f.get(m).remaining == 0 {
            continue;
        }
        if !f.standing(1 - s) {
            return;
        }
        if let Some(v) = f.get(m).victim
            && !f.get(v).alive
        {
            f.get_mut(m).victim = None;
        }
        let shooter = f.get(m).stats.shooter();
        if shooter && r.wise_per == WisePer::Attack && f.get(m).victim.is_some() {
            f.get_mut(m).victim = None;
        }
        if f.get(m).victim.is_none() {
            // Compulsion II: no must-attack effects are played yet (MC-40).
            if shooter {
                let made = f.get(m).stats.attacks - f.get(m).remaining;
                choose_wisely(f, m, 1 + made as u64, r, key, hook);
            } else if let Some(j) = (0..f.side[1 - s].len())
                .find(|&j| f.side[1 - s][j].alive && f.side[1 - s][j].victim == Some(m))
            {
                f.get_mut(m).victim = Some((1 - s, j));
                hook.retaliates(m, (1 - s, j));
            }
        }
        let Some(v) = f.get(m).victim else {
            hook.forfeits(m, f.get(m).remaining);
            f.get_mut(m).remaining = 0;
            continue;
        };
        attack(f, m, v, false, r, o, hook);
        let mut k = 0u64;
        while f.get(m).alive && f.get(m).remaining > 0 {
            let enemies = f.living(1 - s);
            if enemies.is_empty() {
                break;
            }
            let v = enemies[below(key, place(f.round, s, i, MULTI, k), enemies.len())];
            k += 1;
            f.get_mut(m).victim = Some(v);
            attack(f, m, v, true, r, o, hook);
        }
    }
}

/// One attack, A1..A8 (MC-17..MC-21).
fn attack(
    f: &mut Fight,
    m: Who,
    v: Who,
    random: bool,
    r: &Rules,
    o: &mut Outcome,
    hook: &mut impl Hook,
) {
    let a = f
        .get(m)
        .stats
        .attack_in(f.round, r)
        .expect("only minions with an attack this round attack");
    // A1: the hit check.
    let me = f.get_mut(m);
    me.remaining -= 1;
    let misses = me.misses;
    let reach = (me.stats.level as i64).saturating_add(misses as i64);
    o.attacks[m.0] += 1;
    let mut b = Blow {
        attack: a,
        hit: false,
        misses,
        damage: 0,
        soaked: 0,
        dealt: 0,
        result: None,
        random,
    };
    if f.get(v).stats.level as i64 > reach {
        let me = f.get_mut(m);
        me.misses = me.misses.saturating_add(1);
        o.misses[m.0] += 1;
        hook.blow(m, v, &b, f);
        return;
    }
    b.hit = true;
    f.get_mut(m).misses = 0;
    o.hits[m.0] += 1;
    // A2: damage, floored at 0.
    b.damage = f.damage(m, a, r);
    // A3: the takes-damage pipeline. D2: current armor soaks point for point.
    let t = f.get_mut(v);
    b.soaked = b.damage.min(t.armor);
    t.armor -= b.soaked;
    let rest = b.damage - b.soaked;
    b.result = Some(if rest == 0 {
        Result::Bounced
    } else {
        // D3: capped at current HP.
        b.dealt = rest.min(t.hp);
        t.hp -= b.dealt;
        if t.hp == 0 {
            Result::Killed
        } else {
            Result::Damaged
        }
    });
    o.damage[m.0] += b.dealt as i64;
    o.soaked[v.0] += b.soaked as i64;
    hook.blow(m, v, &b, f);
    // A4, A5: no hits-give or damages effects are played yet (MC-40).
    // A7: killed: the victim is buried; whoever aimed at it goes idle.
    if b.result == Some(Result::Killed) {
        let t = f.get_mut(v);
        t.alive = false;
        t.victim = None;
        o.kills[m.0] += 1;
        for s in 0..2 {
            for x in f.side[s].iter_mut() {
                if x.victim == Some(v) {
                    x.victim = None;
                }
            }
        }
        hook.died(v, m);
        // A8: a recruit that kills qualifies for an experience level.
        let me = f.get_mut(m);
        if me.alive && me.stats.recruit && (!r.experience_once || !me.qualified) {
            me.qualified = true;
        }
    }
}
