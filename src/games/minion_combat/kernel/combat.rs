//! One combat in columns (MC-4..MC-22), allocation-free once a [`Combat`] is made.

// A slot indexes several parallel columns at once: index loops say so plainly.
#![allow(clippy::needless_range_loop)]

use crate::games::minion_combat::draws::{Dice, Keyed, MULTI, PAIR, WISE, key, place};
use crate::games::minion_combat::reference::INFINITE;
use crate::games::minion_combat::rules::{Attack, Estimate, MAX_GROUP, Rules, WisePer};
use crate::games::minion_combat::state::{End, Minion, Outcome};

/// Columns: side 0 in slots 0..8, side 1 in 8..16.
const SLOTS: usize = 2 * MAX_GROUP;
/// No victim: one past the last slot, so a per-victim sum can index by victim without a branch.
const NONE: u8 = SLOTS as u8;
/// The slots of each side, as a mask.
const SIDE: [u16; 2] = [0x00FF, 0xFF00];

/// A minion compiled for the kernel: its numbers and its damage per round settled once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unit {
    pub hp: i32,
    pub armor: i32,
    pub level: i32,
    pub attacks: u32,
    pub shooter: bool,
    pub recruit: bool,
    /// Damage of its round-1 (missile) attack, floored at 0; `None`: it has none (MC-6).
    pub first: Option<i32>,
    /// Damage of its attack in rounds 2+ before the nation's bonus (MC-7, MC-18).
    pub later: Option<i32>,
    /// The round (2+) in which its nation's bonus adds to `later`; 0 for none.
    pub bonus_round: u32,
    pub bonus: i32,
    /// Per-attack damage for tiebreaker 5: the larger printed damage.
    pub best: i32,
}

impl Unit {
    pub fn new(m: &Minion, r: &Rules) -> Unit {
        let stat = |a: Attack| match a {
            Attack::Hand => m.hand,
            Attack::Missile => m.missile,
        };
        let bonus = m.nation.and_then(|n| r.nations[n].bonus);
        let mut u = Unit {
            hp: m.hp,
            armor: m.armor,
            level: m.level,
            attacks: m.attacks,
            shooter: m.shooter(),
            recruit: m.recruit,
            first: None,
            later: None,
            bonus_round: 0,
            bonus: 0,
            best: m.best_damage(),
        };
        if let Some(a) = m.attack_in(1, r) {
            let mut d = stat(a).unwrap_or(0) + r.missile_round_modifier;
            if let Some((kind, 1, amount)) = bonus
                && kind == a
            {
                d += amount;
            }
            u.first = Some(d.max(0));
        }
        if let Some(a) = m.attack_in(2, r) {
            u.later = Some(stat(a).unwrap_or(0));
            if let Some((kind, g, amount)) = bonus
                && kind == a
                && g >= 2
            {
                u.bonus_round = g;
                u.bonus = amount;
            }
        }
        u
    }

    /// Damage of one attack in round `g`; `None` when it makes none that round.
    #[inline(always)]
    fn damage(&self, g: u32) -> Option<i32> {
        if g == 1 {
            self.first
        } else {
            self.later
                .map(|d| (d + if g == self.bonus_round { self.bonus } else { 0 }).max(0))
        }
    }
}

/// Told after every round; the silent run monomorphises it away.
pub trait RoundHook {
    fn round_end(&mut self, _g: u32, _c: &Combat) {}
}

/// Hears nothing.
pub struct Silent;
impl RoundHook for Silent {}

/// A combat's columns, reused from one combat to the next.
pub struct Combat {
    n: [usize; 2],
    unit: [Unit; SLOTS],
    hp: [i32; SLOTS],
    armor: [i32; SLOTS],
    remaining: [u32; SLOTS],
    victim: [u8; SLOTS],
    misses: [u32; SLOTS],
    /// This round's damage per attack (0 for a minion without an attack this round).
    dmg: [i32; SLOTS],
    /// Static numbers read by targeting and the hit check, in columns of their own.
    level: [i32; SLOTS],
    max_armor: [i32; SLOTS],
    best: [i32; SLOTS],
    alive: u16,
    shooters: u16,
    /// Minions with attacks per round (the rest are non-combatants, never idle).
    combatants: u16,
    qualified: u16,
    round: u32,
}

impl Default for Combat {
    fn default() -> Combat {
        Combat::new()
    }
}

impl Combat {
    pub fn new() -> Combat {
        Combat {
            n: [0; 2],
            unit: [Unit::default(); SLOTS],
            hp: [0; SLOTS],
            armor: [0; SLOTS],
            remaining: [0; SLOTS],
            victim: [NONE; SLOTS],
            misses: [0; SLOTS],
            dmg: [0; SLOTS],
            level: [0; SLOTS],
            max_armor: [0; SLOTS],
            best: [0; SLOTS],
            alive: 0,
            shooters: 0,
            combatants: 0,
            qualified: 0,
            round: 0,
        }
    }

    /// Minion `i` of side `s`'s current hit points (0 once dead).
    pub fn hp(&self, s: usize, i: usize) -> i32 {
        let x = s * MAX_GROUP + i;
        if self.alive >> x & 1 == 1 {
            self.hp[x]
        } else {
            0
        }
    }

    /// Minions of side `s` standing.
    pub fn standing(&self, s: usize) -> u32 {
        (self.alive & SIDE[s]).count_ones()
    }

    /// Plays one combat (MC-4) between `sides` (at most 8 units each); `first` is the side with
    /// precedence (MC-3), `seed` the combat's seed.
    pub fn play(
        &mut self,
        sides: [&[Unit]; 2],
        first: usize,
        r: &Rules,
        seed: u64,
        hook: &mut impl RoundHook,
    ) -> Outcome {
        self.play_with(sides, first, r, &mut Keyed(key(seed)), hook)
    }

    /// [`Combat::play`] with the random choices from `dice`.
    pub fn play_with(
        &mut self,
        sides: [&[Unit]; 2],
        first: usize,
        r: &Rules,
        dice: &mut impl Dice,
        hook: &mut impl RoundHook,
    ) -> Outcome {
        self.load(sides);
        let mut o = Outcome::new(self.n);
        for g in 1..=r.rounds {
            if self.alive & SIDE[0] == 0 || self.alive & SIDE[1] == 0 {
                break;
            }
            self.round = g;
            o.rounds = g;
            self.start_of_round();
            self.choose_victims(first, r, dice);
            for s in [first, 1 - first] {
                self.side_attacks(s, r, &mut o, dice);
            }
            hook.round_end(g, self);
        }
        for s in 0..2 {
            for i in 0..self.n[s] {
                let x = s * MAX_GROUP + i;
                o.hp[s][i] = self.hp(s, i);
                o.qualified[s][i] = self.qualified >> x & 1 == 1;
            }
        }
        (o.end, o.winner) = match (self.alive & SIDE[0] != 0, self.alive & SIDE[1] != 0) {
            (true, true) => (End::Rounds, None),
            (true, false) => (End::Wiped, Some(0)),
            (false, true) => (End::Wiped, Some(1)),
            (false, false) => (End::Both, None),
        };
        o
    }

    fn load(&mut self, sides: [&[Unit]; 2]) {
        self.alive = 0;
        self.shooters = 0;
        self.combatants = 0;
        self.qualified = 0;
        for s in 0..2 {
            assert!(sides[s].len() <= MAX_GROUP, "at most 8 minions a group");
            self.n[s] = sides[s].len();
            for i in 0..MAX_GROUP {
                let x = s * MAX_GROUP + i;
                let u = sides[s].get(i).copied().unwrap_or_default();
                self.unit[x] = u;
                self.hp[x] = u.hp;
                self.level[x] = u.level;
                self.max_armor[x] = u.armor;
                self.best[x] = u.best;
                self.victim[x] = NONE;
                self.misses[x] = 0;
                self.remaining[x] = 0;
                if i < sides[s].len() && u.hp > 0 {
                    self.alive |= 1 << x;
                }
                if u.shooter && u.attacks > 0 {
                    self.shooters |= 1 << x;
                }
                if u.attacks > 0 {
                    self.combatants |= 1 << x;
                }
            }
        }
    }

    /// R1 (MC-8): armor and remaining attacks reset; shooters go idle; this round's damage.
    fn start_of_round(&mut self) {
        let mut a = self.alive;
        while a != 0 {
            let x = a.trailing_zeros() as usize;
            a &= a - 1;
            let u = &self.unit[x];
            self.armor[x] = self.max_armor[x];
            match u.damage(self.round) {
                Some(d) => {
                    self.dmg[x] = d;
                    self.remaining[x] = u.attacks;
                }
                None => {
                    self.dmg[x] = 0;
                    // Round 1: a basher's hand attacks are forfeited (MC-9).
                    self.remaining[x] = if self.round == 1 { 0 } else { u.attacks };
                }
            }
            if self.shooters >> x & 1 == 1 {
                self.victim[x] = NONE;
            }
        }
    }

    /// Slots with no victim, and slots with attacks left, as masks (branch-free).
    fn masks(&self) -> (u16, u16) {
        let (mut unaimed, mut ready) = (0u16, 0u16);
        for x in 0..SLOTS {
            unaimed |= ((self.victim[x] == NONE) as u16) << x;
            ready |= ((self.remaining[x] > 0) as u16) << x;
        }
        (unaimed, ready)
    }

    /// R2 (MC-9..MC-12).
    fn choose_victims(&mut self, first: usize, r: &Rules, dice: &mut impl Dice) {
        if self.round == 1 {
            let mut a = self.alive;
            while a != 0 {
                let x = a.trailing_zeros() as usize;
                a &= a - 1;
                self.misses[x] = INFINITE;
            }
            return;
        }
        // Idle minions (MC-8): living combatants without a victim. Pairing takes some of them;
        // a choice sets only the chooser's victim, so who is left idle is settled once.
        let (unaimed, ready) = self.masks();
        let idle = self.alive & self.combatants & unaimed;
        let paired = self.pair_bashers(first, idle & !self.shooters, dice);
        let idle = idle & !paired & ready;
        for s in [first, 1 - first] {
            let mut todo = idle & SIDE[s];
            while todo != 0 {
                let x = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                self.choose_wisely(x, 0, r, dice);
            }
        }
    }

    /// MC-10: each side's idle `bashers` in a random order, paired off one to one; returns the
    /// paired minions as a mask.
    fn pair_bashers(&mut self, first: usize, bashers: u16, dice: &mut impl Dice) -> u16 {
        let mut lists = [[0u8; MAX_GROUP]; 2];
        let mut len = [0usize; 2];
        for s in 0..2 {
            let mut b = bashers & SIDE[s];
            while b != 0 {
                lists[s][len[s]] = b.trailing_zeros() as u8;
                len[s] += 1;
                b &= b - 1;
            }
            for i in (1..len[s]).rev() {
                let j = dice.below(place(self.round, s, i, PAIR, 0), i + 1);
                lists[s].swap(i, j);
            }
        }
        let (a, b) = (first, 1 - first);
        let mut paired = 0u16;
        for k in 0..len[a].min(len[b]) {
            let (x, y) = (lists[a][k], lists[b][k]);
            self.victim[x as usize] = y;
            self.victim[y as usize] = x;
            paired |= 1 << x | 1 << y;
        }
        paired
    }

    /// MC-14: the six tiebreakers over the living enemies of slot `x`.
    fn choose_wisely(&mut self, x: usize, k: u64, r: &Rules, dice: &mut impl Dice) {
        let s = x / MAX_GROUP;
        let enemies = self.alive & SIDE[1 - s];
        if enemies == 0 {
            return;
        }
        // One pass over the enemies settles tiebreakers 2-5 (1 needs effects, which the kernel
        // never fields, MC-54):
        // which the group estimates it can kill (MC-15), and the lexicographic maxima of
        // (max armor, -current HP, per-attack damage) among all and among the killable ones,
        // which is what filtering by 3, 4 and 5 in turn keeps.
        let mut aimed = [0i64; SLOTS + 1];
        if r.estimate == Estimate::Group {
            let mut mates = self.alive & SIDE[s] & !(1 << x);
            while mates != 0 {
                let w = mates.trailing_zeros() as usize;
                mates &= mates - 1;
                aimed[self.victim[w] as usize] += self.dmg[w] as i64 * self.remaining[w] as i64;
            }
        }
        let own = if r.estimate == Estimate::Off {
            i64::MIN / 2
        } else {
            self.dmg[x] as i64 * self.remaining[x] as i64
        };
        let (mut kill, mut keep_all, mut keep_kill) = (0u16, 0u16, 0u16);
        let (mut best_all, mut best_kill) = (0u128, 0u128);
        let mut p = enemies;
        while p != 0 {
            let v = p.trailing_zeros() as usize;
            p &= p - 1;
            let bit = 1u16 << v;
            let key = order(self.max_armor[v]) << 64
                | (!order(self.hp[v]) & 0xFFFF_FFFF) << 32
                | order(self.best[v]);
            (best_all, keep_all) = raise(best_all, keep_all, key, bit);
            if own + aimed[v] >= (self.hp[v] + self.armor[v]) as i64 {
                kill |= bit;
                (best_kill, keep_kill) = raise(best_kill, keep_kill, key, bit);
            }
        }
        let pool = if kill != 0 && kill != enemies {
            keep_kill
        } else {
            keep_all
        };
        let v = if pool.count_ones() > 1 {
            let i = x % MAX_GROUP;
            let j = dice.below(place(self.round, s, i, WISE, k), pool.count_ones() as usize);
            nth_bit(pool, j)
        } else {
            pool.trailing_zeros() as usize
        };
        self.victim[x] = v as u8;
    }

    /// R3 / R4 (MC-13): side `s` attacks, minion by minion.
    fn side_attacks(&mut self, s: usize, r: &Rules, o: &mut Outcome, dice: &mut impl Dice) {
        // Nothing a minion does changes its groupmates' attacks left or lives (the kernel fields
        // no effects, MC-54), so who attacks is settled once; each is still checked at its turn.
        let mut todo = self.alive & self.masks().1 & SIDE[s];
        while todo != 0 {
            let x = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let i = x % MAX_GROUP;
            if self.alive >> x & 1 == 0 || self.remaining[x] == 0 {
                continue;
            }
            if self.alive & SIDE[1 - s] == 0 {
                return;
            }
            let shooter = self.shooters >> x & 1 == 1;
            if shooter && r.wise_per == WisePer::Attack {
                self.victim[x] = NONE;
            }
            if self.victim[x] == NONE {
                if shooter {
                    let made = self.unit[x].attacks - self.remaining[x];
                    self.choose_wisely(x, 1 + made as u64, r, dice);
                } else {
                    // Retaliate against the first enemy aiming at it (MC-12).
                    let mut e = self.alive & SIDE[1 - s];
                    while e != 0 {
                        let y = e.trailing_zeros() as usize;
                        e &= e - 1;
                        if self.victim[y] as usize == x {
                            self.victim[x] = y as u8;
                            break;
                        }
                    }
                }
            }
            if self.victim[x] == NONE {
                self.remaining[x] = 0;
                continue;
            }
            self.attack(x, self.victim[x] as usize, r, o);
            let mut k = 0u64;
            while self.alive >> x & 1 == 1 && self.remaining[x] > 0 {
                let enemies = self.alive & SIDE[1 - s];
                if enemies == 0 {
                    break;
                }
                let j = dice.below(
                    place(self.round, s, i, MULTI, k),
                    enemies.count_ones() as usize,
                );
                k += 1;
                let v = nth_bit(enemies, j);
                self.victim[x] = v as u8;
                self.attack(x, v, r, o);
            }
        }
    }

    /// One attack, A1..A8 (MC-17..MC-21).
    #[inline]
    fn attack(&mut self, x: usize, v: usize, r: &Rules, o: &mut Outcome) {
        let s = x / MAX_GROUP;
        self.remaining[x] -= 1;
        o.attacks[s] += 1;
        // A1: the hit check.
        let reach = (self.level[x] as i64).saturating_add(self.misses[x] as i64);
        if self.level[v] as i64 > reach {
            self.misses[x] = self.misses[x].saturating_add(1);
            o.misses[s] += 1;
            return;
        }
        self.misses[x] = 0;
        o.hits[s] += 1;
        // A2, A3: damage; armor soaks first, then HP, capped at current HP (D2, D3).
        let d = self.dmg[x];
        let soaked = d.min(self.armor[v]);
        self.armor[v] -= soaked;
        o.soaked[1 - s] += soaked as i64;
        let dealt = (d - soaked).min(self.hp[v]);
        self.hp[v] -= dealt;
        o.damage[s] += dealt as i64;
        if dealt > 0 && self.hp[v] == 0 {
            // A7: buried; whoever aimed at it goes idle. A8: experience.
            self.alive &= !(1 << v);
            o.kills[s] += 1;
            for y in 0..SLOTS {
                if self.victim[y] as usize == v {
                    self.victim[y] = NONE;
                }
            }
            self.victim[v] = NONE;
            if self.alive >> x & 1 == 1
                && self.unit[x].recruit
                && (!r.experience_once || self.qualified >> x & 1 == 0)
            {
                self.qualified |= 1 << x;
            }
        }
    }
}

/// A running maximum and the set holding it, after seeing `key` for `bit` (branch-free).
#[inline(always)]
fn raise(best: u128, keep: u16, key: u128, bit: u16) -> (u128, u16) {
    let gt = key > best;
    let ge = key >= best;
    let keep = (keep & (gt as u16).wrapping_sub(1)) | (bit & (ge as u16).wrapping_neg());
    (if gt { key } else { best }, keep)
}

/// `x` mapped to an unsigned number in the same order.
#[inline(always)]
fn order(x: i32) -> u128 {
    ((x as u32) ^ 0x8000_0000) as u128
}

/// The index of the `j`-th set bit of `m` (0-based).
#[inline(always)]
fn nth_bit(mut m: u16, j: usize) -> usize {
    for _ in 0..j {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}
