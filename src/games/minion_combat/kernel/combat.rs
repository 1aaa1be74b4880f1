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
    // What the units bring, settled at load.
    level: [i32; SLOTS],
    max_armor: [i32; SLOTS],
    /// Per-attack damage for tiebreaker 5 (only its rank within the side is kept, in `ranks`).
    best: [i32; SLOTS],
    attacks: [u32; SLOTS],
    /// Round 1: damage and attacks (0 and 0 without a round-1 attack, MC-6).
    first: [i32; SLOTS],
    first_attacks: [u32; SLOTS],
    /// Rounds 2+: damage before the nation's bonus (0 without an attack), the bonus's round
    /// (0: none) and amount (MC-7, MC-18).
    later: [i32; SLOTS],
    bonus_round: [u32; SLOTS],
    bonus: [i32; SLOTS],
    /// The ranks part of `key`: max armor's rank within the side, and per-attack damage's.
    ranks: [u64; SLOTS],
    recruits: u16,
    shooters: u16,
    /// Minions with attacks per round (the rest are non-combatants, never idle).
    combatants: u16,
    // The combat as it goes.
    hp: [i32; SLOTS],
    armor: [i32; SLOTS],
    remaining: [u32; SLOTS],
    victim: [u8; SLOTS],
    misses: [u32; SLOTS],
    /// This round's damage per attack (0 for a minion without an attack this round).
    dmg: [i32; SLOTS],
    /// Tiebreakers 3-5 as one number, larger is better (MC-14): the rank of max armor within
    /// the side, current HP reversed, the rank of per-attack damage; 0 for the dead, so a
    /// choice weighs a side's eight slots without asking who stands. Kept while not `narrow`.
    key: [i64; SLOTS],
    /// `key` in 15 bits (armor rank, 512 - HP, damage rank), kept instead of `key` while
    /// `narrow`.
    key16: [i16; SLOTS],
    /// Every number a choice weighs fits 16 bits, so a choice runs as SSE2 lanes.
    narrow: bool,
    /// Per victim, what the minions aiming at it will deal this round (per-attack damage times
    /// attacks left), kept up to date as victims, attacks and lives change (MC-15); index
    /// `NONE` gathers the idle.
    aimed: [i64; SLOTS + 1],
    alive: u16,
    /// Living minions with attacks left this round.
    ready: u16,
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
            level: [0; SLOTS],
            max_armor: [0; SLOTS],
            best: [0; SLOTS],
            attacks: [0; SLOTS],
            first: [0; SLOTS],
            first_attacks: [0; SLOTS],
            later: [0; SLOTS],
            bonus_round: [0; SLOTS],
            bonus: [0; SLOTS],
            ranks: [0; SLOTS],
            recruits: 0,
            shooters: 0,
            combatants: 0,
            hp: [0; SLOTS],
            armor: [0; SLOTS],
            remaining: [0; SLOTS],
            victim: [NONE; SLOTS],
            misses: [0; SLOTS],
            dmg: [0; SLOTS],
            key: [0; SLOTS],
            key16: [0; SLOTS],
            narrow: false,
            aimed: [0; SLOTS + 1],
            alive: 0,
            ready: 0,
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

    /// Whether this combat's choices were weighed in 16-bit lanes (every number small enough).
    pub fn in_lanes(&self) -> bool {
        self.narrow
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
        self.recruits = 0;
        self.qualified = 0;
        self.victim = [NONE; SLOTS];
        self.misses = [0; SLOTS];
        for s in 0..2 {
            assert!(sides[s].len() <= MAX_GROUP, "at most 8 minions a group");
            self.n[s] = sides[s].len();
            for i in 0..MAX_GROUP {
                let x = s * MAX_GROUP + i;
                let u = sides[s].get(i).copied().unwrap_or_default();
                self.hp[x] = u.hp;
                self.level[x] = u.level;
                self.max_armor[x] = u.armor;
                self.best[x] = u.best;
                self.attacks[x] = u.attacks;
                self.first[x] = u.first.unwrap_or(0);
                self.first_attacks[x] = if u.first.is_some() { u.attacks } else { 0 };
                self.later[x] = u.later.unwrap_or(0);
                self.bonus_round[x] = if u.later.is_some() { u.bonus_round } else { 0 };
                self.bonus[x] = u.bonus;
                let bit = 1 << x;
                if i < sides[s].len() && u.hp > 0 {
                    self.alive |= bit;
                }
                if u.shooter && u.attacks > 0 {
                    self.shooters |= bit;
                }
                if u.attacks > 0 {
                    self.combatants |= bit;
                }
                if u.recruit {
                    self.recruits |= bit;
                }
            }
            // Tiebreakers 3 and 5 compare an enemy only with its groupmates, so ranks within
            // the side (the empty slots count too, which keeps the order) are all they need.
            let b = s * MAX_GROUP;
            for i in 0..MAX_GROUP {
                let (a, d) = (self.max_armor[b + i], self.best[b + i]);
                let (mut ra, mut rd) = (0u64, 0u64);
                for j in 0..MAX_GROUP {
                    ra += (self.max_armor[b + j] < a) as u64;
                    rd += (self.best[b + j] < d) as u64;
                }
                self.ranks[b + i] = ra << 36 | rd;
            }
        }
        // Lanes hold HP below 512 in the key, and a victim's HP + armor and any aimed damage
        // (at most its side's whole damage a round) below 2^13, so no 16-bit sum overflows.
        let mut narrow = true;
        for s in 0..2 {
            let mut total = 0i64;
            for x in s * MAX_GROUP..(s + 1) * MAX_GROUP {
                let hit = self.first[x].max(self.later[x] + self.bonus[x].max(0)) as i64;
                total += hit.max(0) * self.attacks[x].max(self.first_attacks[x]) as i64;
                narrow &=
                    self.hp[x] < 512 && (self.hp[x] as i64 + self.max_armor[x] as i64) < 1 << 13;
            }
            narrow &= total < 1 << 13;
        }
        // Lanes are SSE2: elsewhere every combat weighs in 64 bits.
        self.narrow = cfg!(target_arch = "x86_64") && narrow;
        for v in 0..SLOTS {
            self.set_key(v);
        }
    }

    /// `key` of slot `v` from its HP now (alive HP is never negative).
    #[inline(always)]
    fn set_key(&mut self, v: usize) {
        // Only the key this combat's choices read (`narrow` is settled at load).
        let (live, r) = (self.alive >> v & 1 == 1, self.ranks[v]);
        if self.narrow {
            self.key16[v] = if live {
                ((r >> 36) << 12 | ((512 - self.hp[v]) as u64 & 511) << 3 | (r & 7)) as i16
            } else {
                0
            };
        } else {
            self.key[v] = if live {
                (r | ((!(self.hp[v] as u32)) as u64) << 4) as i64
            } else {
                0
            };
        }
    }

    /// What slot `x` will still deal this round if every attack lands: its part of the MC-15
    /// estimate.
    #[inline(always)]
    fn due(&self, x: usize) -> i64 {
        self.dmg[x] as i64 * self.remaining[x] as i64
    }

    /// Slot `x`'s own part of the MC-15 estimate as a choice weighs it: what it will deal, or
    /// nothing that could kill anyone when the estimate is off.
    #[inline(always)]
    fn own(&self, x: usize, r: &Rules) -> i64 {
        if r.estimate == Estimate::Off {
            i64::MIN / 2
        } else {
            self.due(x)
        }
    }

    /// Slot `x` aims at `v` (`NONE`: goes idle), moving its aimed damage along (MC-15).
    #[inline(always)]
    fn aim(&mut self, x: usize, v: u8) {
        let c = self.due(x);
        self.aimed[self.victim[x] as usize] -= c;
        self.aimed[v as usize] += c;
        self.victim[x] = v;
    }

    /// R1 (MC-8): armor and remaining attacks reset; shooters go idle; this round's damage.
    fn start_of_round(&mut self) {
        let g = self.round;
        self.armor = self.max_armor;
        if g == 1 {
            self.dmg = self.first;
            self.remaining = self.first_attacks;
        } else {
            for x in 0..SLOTS {
                let bonus = if g == self.bonus_round[x] {
                    self.bonus[x]
                } else {
                    0
                };
                self.dmg[x] = (self.later[x] + bonus).max(0);
            }
            self.remaining = self.attacks;
        }
        let mut ready = 0u16;
        for x in 0..SLOTS {
            ready |= ((self.remaining[x] > 0) as u16) << x;
            if self.shooters >> x & 1 == 1 {
                self.victim[x] = NONE;
            }
        }
        self.ready = ready & self.alive;
        self.aimed = [0; SLOTS + 1];
        let mut a = self.alive;
        while a != 0 {
            let x = a.trailing_zeros() as usize;
            a &= a - 1;
            self.aimed[self.victim[x] as usize] += self.due(x);
        }
    }

    /// Slots with no victim, as a mask (branch-free).
    fn unaimed(&self) -> u16 {
        let mut m = 0u16;
        for x in 0..SLOTS {
            m |= ((self.victim[x] == NONE) as u16) << x;
        }
        m
    }

    /// R2 (MC-9..MC-12).
    fn choose_victims(&mut self, first: usize, r: &Rules, dice: &mut impl Dice) {
        if self.round == 1 {
            self.misses = [INFINITE; SLOTS];
            return;
        }
        // Idle minions (MC-8): living combatants without a victim. Pairing takes some of them;
        // a choice sets only the chooser's victim, so who is left idle is settled once.
        let idle = self.alive & self.combatants & self.unaimed();
        let paired = self.pair_bashers(first, idle & !self.shooters, dice);
        let idle = idle & !paired & self.ready;
        for s in [first, 1 - first] {
            let mut todo = idle & SIDE[s];
            // A side's choices in R2 change only the aimed damage at each victim, so its
            // enemies' lanes stay in registers from one choice to the next.
            #[cfg(target_arch = "x86_64")]
            if self.narrow && todo != 0 && self.alive & SIDE[1 - s] != 0 {
                let b = (1 - s) * MAX_GROUP;
                let group = group_mask(r);
                let mut lanes = Lanes16::load(self, b, group);
                while todo != 0 {
                    let x = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let lane = self.pick(lanes.pool(self.own(x, r)), x, 0, dice);
                    lanes.aim(lane, self.due(x) & group);
                    self.aim(x, (b + lane) as u8);
                }
                continue;
            }
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
            self.aim(x as usize, y);
            self.aim(y as usize, x);
            paired |= 1 << x | 1 << y;
        }
        paired
    }

    /// MC-14: the six tiebreakers over the living enemies of slot `x`.
    fn choose_wisely(&mut self, x: usize, k: u64, r: &Rules, dice: &mut impl Dice) {
        let s = x / MAX_GROUP;
        if self.alive & SIDE[1 - s] == 0 {
            return;
        }
        debug_assert_eq!(
            self.victim[x], NONE,
            "a chooser is idle, so it adds nothing to aimed"
        );
        // One pass over the enemy side's eight slots settles tiebreakers 2-5 (1 needs effects,
        // which the kernel never fields, MC-54): `key` orders 3-5 and is 0 for the dead, so the
        // largest key among all and among those the group can kill (MC-15) is what filtering by
        // 3, 4 and 5 in turn keeps. Tiebreaker 2 keeps the killable when some are; when all
        // are, both maxima are the same.
        let (own, group) = (self.own(x, r), group_mask(r));
        let b = (1 - s) * MAX_GROUP;
        #[cfg(target_arch = "x86_64")]
        if self.narrow {
            let pool = Lanes16::load(self, b, group).pool(own);
            let lane = self.pick(pool, x, k, dice);
            self.aim(x, (b + lane) as u8);
            return;
        }
        let lanes = Lanes {
            key: self.key[b..b + MAX_GROUP].try_into().unwrap(),
            aimed: self.aimed[b..b + MAX_GROUP].try_into().unwrap(),
            hp: self.hp[b..b + MAX_GROUP].try_into().unwrap(),
            armor: self.armor[b..b + MAX_GROUP].try_into().unwrap(),
        };
        let lane = self.pick(pool_of(&lanes, own, group) as u16, x, k, dice);
        self.aim(x, (b + lane) as u8);
    }

    /// The lane a choice takes from its `pool` of tied lanes: a draw when several tie (MC-14).
    #[inline(always)]
    fn pick(&self, pool: u16, x: usize, k: u64, dice: &mut impl Dice) -> usize {
        if pool & (pool - 1) != 0 {
            let (s, i) = (x / MAX_GROUP, x % MAX_GROUP);
            let j = dice.below(place(self.round, s, i, WISE, k), pool.count_ones() as usize);
            nth_bit(pool, j)
        } else {
            pool.trailing_zeros() as usize
        }
    }

    /// R3 / R4 (MC-13): side `s` attacks, minion by minion.
    fn side_attacks(&mut self, s: usize, r: &Rules, o: &mut Outcome, dice: &mut impl Dice) {
        // Nothing a minion does changes its groupmates' attacks left or lives (the kernel fields
        // no effects, MC-54), so who attacks is settled once; each is still checked at its turn.
        let mut todo = self.ready & SIDE[s];
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
                self.aim(x, NONE);
            }
            if self.victim[x] == NONE {
                if shooter {
                    let made = self.attacks[x] - self.remaining[x];
                    self.choose_wisely(x, 1 + made as u64, r, dice);
                } else {
                    // Retaliate against the first enemy aiming at it (MC-12).
                    let mut e = self.alive & SIDE[1 - s];
                    while e != 0 {
                        let y = e.trailing_zeros() as usize;
                        e &= e - 1;
                        if self.victim[y] as usize == x {
                            self.aim(x, y as u8);
                            break;
                        }
                    }
                }
            }
            if self.victim[x] == NONE {
                // Idle already: nothing of its own is aimed anywhere.
                self.remaining[x] = 0;
                self.ready &= !(1 << x);
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
                self.aim(x, v as u8);
                self.attack(x, v, r, o);
            }
        }
    }

    /// One attack, A1..A8 (MC-17..MC-21).
    #[inline]
    fn attack(&mut self, x: usize, v: usize, r: &Rules, o: &mut Outcome) {
        let s = x / MAX_GROUP;
        debug_assert_eq!(self.victim[x] as usize, v);
        self.remaining[x] -= 1;
        self.ready &= !(((self.remaining[x] == 0) as u16) << x);
        self.aimed[v] -= self.dmg[x] as i64;
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
            self.ready &= !(1 << v);
            o.kills[s] += 1;
            for y in 0..SLOTS {
                if self.victim[y] as usize == v {
                    self.victim[y] = NONE;
                }
            }
            self.aimed[v] = 0;
            self.aim(v, NONE);
            if self.alive >> x & 1 == 1
                && self.recruits >> x & 1 == 1
                && (!r.experience_once || self.qualified >> x & 1 == 0)
            {
                self.qualified |= 1 << x;
            }
        }
        if dealt > 0 {
            // After the burial, so the dead get key 0.
            self.set_key(v);
        }
    }
}

/// A side's eight slots as a choice weighs them (MC-14, MC-15).
struct Lanes<'a> {
    key: &'a [i64; MAX_GROUP],
    aimed: &'a [i64; MAX_GROUP],
    hp: &'a [i32; MAX_GROUP],
    armor: &'a [i32; MAX_GROUP],
}

/// The slots tiebreakers 2-5 keep, as a lane mask: the largest key among the killable when
/// some are, else among all (`own`: the chooser's aimed damage; `group`: -1 to add the
/// groupmates', 0 not to). Taking the slices as fixed arrays checks their bounds once.
#[inline(always)]
fn pool_of(l: &Lanes, own: i64, group: i64) -> u8 {
    let mut kill = [0i64; MAX_GROUP];
    let (mut top, mut top_kill) = (0i64, 0i64);
    for i in 0..MAX_GROUP {
        let reach = own + (l.aimed[i] & group);
        let killable = reach >= l.hp[i] as i64 + l.armor[i] as i64;
        kill[i] = if killable { l.key[i] } else { 0 };
        top = top.max(l.key[i]);
        top_kill = top_kill.max(kill[i]);
    }
    let (best, keys) = if top_kill != 0 {
        (top_kill, &kill)
    } else {
        (top, l.key)
    };
    let mut pool = 0u8;
    for i in 0..MAX_GROUP {
        pool |= ((keys[i] == best) as u8) << i;
    }
    pool
}

/// -1 when the MC-15 estimate adds the groupmates' aimed damage, 0 when not: a mask on `aimed`.
#[inline(always)]
fn group_mask(r: &Rules) -> i64 {
    if r.estimate == Estimate::Group { -1 } else { 0 }
}

/// The index of the `j`-th set bit of `m` (0-based).
#[inline(always)]
fn nth_bit(mut m: u16, j: usize) -> usize {
    for _ in 0..j {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// A side's eight slots as a choice weighs them, in SSE2 lanes of 16 bits (while `narrow`):
/// what each victim still needs to die (HP + armor, less the groupmates' aimed damage when
/// `group`) and its key.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Lanes16 {
    need: std::arch::x86_64::__m128i,
    key: std::arch::x86_64::__m128i,
}

#[cfg(target_arch = "x86_64")]
impl Lanes16 {
    /// The side from slot `b` (0 or 8); `group` is -1 to count the aimed damage, 0 not to.
    #[inline(always)]
    fn load(c: &Combat, b: usize, group: i64) -> Lanes16 {
        use std::arch::x86_64::*;
        assert!(b + MAX_GROUP <= SLOTS);
        // SAFETY: each load reads 16 bytes of slots b..b+8 of a 16-slot column, in bounds by
        // the assert; SSE2 is part of every x86-64 CPU.
        unsafe {
            let ld = |p: *const i32| _mm_loadu_si128(p as *const __m128i);
            let hp = c.hp.as_ptr().add(b);
            let ar = c.armor.as_ptr().add(b);
            let am = c.aimed.as_ptr().add(b) as *const i32;
            // The low halves of the 64-bit aimed sums (exact while narrow).
            let lo = |p: *const i32| {
                let a = _mm_shuffle_epi32(ld(p), 0b00_00_10_00);
                let d = _mm_shuffle_epi32(ld(p.add(4)), 0b00_00_10_00);
                _mm_unpacklo_epi64(a, d)
            };
            let g = _mm_set1_epi32(group as i32);
            let need0 = _mm_sub_epi32(_mm_add_epi32(ld(hp), ld(ar)), _mm_and_si128(lo(am), g));
            let need1 = _mm_sub_epi32(
                _mm_add_epi32(ld(hp.add(4)), ld(ar.add(4))),
                _mm_and_si128(lo(am.add(8)), g),
            );
            Lanes16 {
                need: _mm_packs_epi32(need0, need1),
                key: _mm_loadu_si128(c.key16.as_ptr().add(b) as *const __m128i),
            }
        }
    }

    /// `pool_of` in lanes: the tied lanes tiebreakers 2-5 keep (`own`: the chooser's aimed
    /// damage).
    #[inline(always)]
    fn pool(&self, own: i64) -> u16 {
        use std::arch::x86_64::*;
        // SAFETY: register arithmetic only; SSE2 is part of every x86-64 CPU.
        unsafe {
            let own = _mm_set1_epi16(own.clamp(-(1 << 14), 1 << 14) as i16);
            let kill = _mm_andnot_si128(_mm_cmpgt_epi16(self.need, own), self.key);
            // The largest lane, in every lane.
            let hmax = |v: __m128i| {
                let v = _mm_max_epi16(v, _mm_shuffle_epi32(v, 0b01_00_11_10));
                let v = _mm_max_epi16(v, _mm_shuffle_epi32(v, 0b10_11_00_01));
                let w = _mm_shufflelo_epi16(_mm_shufflehi_epi16(v, 0b10_11_00_01), 0b10_11_00_01);
                _mm_max_epi16(v, w)
            };
            let (top_kill, top) = (hmax(kill), hmax(self.key));
            let eq = _mm_packs_epi16(
                _mm_cmpeq_epi16(kill, top_kill),
                _mm_cmpeq_epi16(self.key, top),
            );
            let m = _mm_movemask_epi8(eq) as u32;
            if _mm_cvtsi128_si32(top_kill) & 0xFFFF != 0 {
                (m & 0xFF) as u16
            } else {
                (m >> 8) as u16
            }
        }
    }

    /// A groupmate aims `c` (its aimed damage, or 0) at `lane`.
    #[inline(always)]
    fn aim(&mut self, lane: usize, c: i64) {
        use std::arch::x86_64::*;
        const ONE: [[i16; 8]; 8] = {
            let mut t = [[0i16; 8]; 8];
            let mut i = 0;
            while i < 8 {
                t[i][i] = -1;
                i += 1;
            }
            t
        };
        // SAFETY: ONE[lane] is 16 bytes (lane < 8 is checked by the index); SSE2 is part of
        // every x86-64 CPU.
        unsafe {
            let one = _mm_loadu_si128(ONE[lane].as_ptr() as *const __m128i);
            self.need = _mm_sub_epi16(self.need, _mm_and_si128(one, _mm_set1_epi16(c as i16)));
        }
    }
}
