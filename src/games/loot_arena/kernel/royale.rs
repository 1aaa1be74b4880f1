//! The whole battle royale (LA-40..LA-49): the map and its shrinking, a round's four phases
//! (Movement, Looting, Equipment, Battle), eliminations and the end. A worker keeps one
//! [`Royale`] and plays game after game in it: its tables are sized for [`MAX_PLAYERS`] when it
//! is made, so a game allocates nothing. Battles go through [`Fight`] (the kernel's battle in
//! play; the reference model in the differential test), listeners through [`Hook`].

// A player (a seat) indexes several parallel columns at once: index loops say so plainly.
#![allow(clippy::needless_range_loop)]

use crate::games::loot_arena::draws::royale::{
    BATTLE, LOOT, MERGE, SPAWN, SPLIT, STEP, TWICE, below, bits, key,
};
use crate::games::loot_arena::kernel::battle::{Battle, Silent};
use crate::games::loot_arena::rules::{
    Class, Kind, MAX_PLAYERS, Merge, Ring, Royale as Settings, Rules, Twice,
};
use crate::games::loot_arena::state::{Catalogue, Fielded, Gear, Loadout, Outcome};
use crate::games::loot_arena::strategy::{OUT, Strategy, View, Worth, ring};

/// Plays one 2v2 battle.
pub trait Fight {
    fn fight(&mut self, f: &Fielded, cat: &Catalogue, r: &Rules, seed: u64) -> Outcome;
}

impl Fight for Battle {
    #[inline]
    fn fight(&mut self, f: &Fielded, cat: &Catalogue, r: &Rules, seed: u64) -> Outcome {
        self.play(f, cat, r, seed, &mut Silent)
    }
}

/// One battle of the Battle phase, as a listener sees it.
#[derive(Clone, Copy, Debug)]
pub struct Meeting {
    pub round: u32,
    /// The battle's number in the game (0-based).
    pub index: u32,
    pub cell: u8,
    /// The two players (side 0, side 1) and which of their champions each fielded
    /// (`Class` indices; `None` when only one lived).
    pub players: [u8; 2],
    pub champs: [[Option<u8>; 2]; 2],
    /// The odd player's battle: side 1 fights for the second time this round (LA-46).
    pub twice: bool,
    pub seed: u64,
}

/// What listens to a game (narration, traces, table rows). Every method has a default that
/// does nothing; with `ON = false` the engine builds none of their arguments.
pub trait Hook {
    const ON: bool = false;
    /// The round begins (after any shrink): the map.
    fn round(&mut self, _round: u32, _side: u32, _cell: &[u8]) {}
    /// The map shrank (LA-41); `cell` is where everyone landed.
    fn shrink(&mut self, _round: u32, _from: u32, _to: u32, _cell: &[u8]) {}
    /// Everyone moved (LA-43).
    fn moved(&mut self, _round: u32, _from: &[u8], _to: &[u8]) {}
    /// A looting action of player p on its cell; `None`: it found nothing.
    fn looted(&mut self, _p: usize, _ring: Ring, _item: Option<u16>) {}
    /// Player p's gear after its Equipment phase.
    fn equipped(&mut self, _p: usize, _gear: &Gear) {}
    /// A battle was fought.
    fn battle(&mut self, _m: &Meeting, _f: &Fielded, _o: &Outcome) {}
    /// Player p is out: all four champions have fallen (LA-47).
    fn out(&mut self, _p: usize, _round: u32) {}
}

/// Listens to nothing.
pub struct Quiet;
impl Hook for Quiet {}

/// How a game ended (LA-48).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// One player left with a living champion.
    Won,
    /// The last players fell in the same round: they share first place.
    Draw,
    /// The round cap came first; those still in share first place.
    Cap,
    /// Nobody moved, no two players shared a cell and every step is steady: no battle can
    /// come again (LA-52); those still in share first place.
    Stalled,
}

impl End {
    pub fn name(self) -> &'static str {
        ["won", "draw", "turn cap", "stalled"][self as usize]
    }
}

/// What a game reports, per player in seat order.
#[derive(Clone, Debug)]
pub struct Report {
    pub end: End,
    pub rounds: u32,
    pub winner: Option<u8>,
    pub players: usize,
    /// The starting map's side and each player's spawn cell.
    pub start_side: u32,
    pub spawn: [u8; MAX_PLAYERS],
    /// 1 is best; players out in the same round share a place (LA-47).
    pub place: [u8; MAX_PLAYERS],
    /// The round a player went out; 0 if it never did.
    pub out_round: [u32; MAX_PLAYERS],
    pub battles: [u16; MAX_PLAYERS],
    pub battles_won: [u16; MAX_PLAYERS],
    /// Battles fought as the odd player's second opponent, and won (LA-46).
    pub twice: [u16; MAX_PLAYERS],
    pub twice_won: [u16; MAX_PLAYERS],
    /// Battles fought as the odd player (the one left over on the tile), and won.
    pub odd: [u16; MAX_PLAYERS],
    pub odd_won: [u16; MAX_PLAYERS],
    pub found: [u16; MAX_PLAYERS],
    /// Items held at the end (worn by the living and in the bag) and health left.
    pub held: [u16; MAX_PLAYERS],
    pub health: [i32; MAX_PLAYERS],
    /// The round the first player went out; 0 if none did.
    pub first_out: u32,
    /// The rounds the map shrank, with the new side.
    pub shrinks: [(u32, u32); 4],
    pub shrink_count: usize,
    pub battle_count: u32,
    /// Dice rolled in all battles (the battle kernel's unit of work).
    pub dice: u64,
}

impl Report {
    fn new() -> Report {
        Report {
            end: End::Cap,
            rounds: 0,
            winner: None,
            players: 0,
            start_side: 0,
            spawn: [0; MAX_PLAYERS],
            place: [0; MAX_PLAYERS],
            out_round: [0; MAX_PLAYERS],
            battles: [0; MAX_PLAYERS],
            battles_won: [0; MAX_PLAYERS],
            twice: [0; MAX_PLAYERS],
            twice_won: [0; MAX_PLAYERS],
            odd: [0; MAX_PLAYERS],
            odd_won: [0; MAX_PLAYERS],
            found: [0; MAX_PLAYERS],
            held: [0; MAX_PLAYERS],
            health: [0; MAX_PLAYERS],
            first_out: 0,
            shrinks: [(0, 0); 4],
            shrink_count: 0,
            battle_count: 0,
            dice: 0,
        }
    }
}

/// The engine: every player's place, gear and memory; a game's scratch.
pub struct Royale {
    cell: Vec<u8>,
    next: Vec<u8>,
    gear: Vec<Gear>,
    /// `seen[a * n + b]`: health a saw on b's living champions when they last met; -1 never.
    seen: Vec<i32>,
    /// Items left in each cell's pool (finite pools only).
    pool: Vec<u32>,
    order: Vec<u8>,
    worth: Worth,
    pub report: Report,
}

impl Default for Royale {
    fn default() -> Royale {
        Royale::new()
    }
}

impl Royale {
    pub fn new() -> Royale {
        Royale {
            cell: Vec::with_capacity(MAX_PLAYERS),
            next: Vec::with_capacity(MAX_PLAYERS),
            gear: Vec::with_capacity(MAX_PLAYERS),
            seen: Vec::with_capacity(MAX_PLAYERS * MAX_PLAYERS),
            pool: Vec::with_capacity(256),
            order: Vec::with_capacity(256),
            worth: Worth::default(),
            report: Report::new(),
        }
    }

    /// Every player's gear (in seat order), as it stands.
    pub fn gear(&self) -> &[Gear] {
        &self.gear
    }

    /// Plays one game (LA-40..LA-48, LA-52) between `seats` from its seed. The caller checks the
    /// settings (`input::rules`) and the seat count (2 to the map's cells, at most
    /// [`MAX_PLAYERS`]).
    pub fn play<F: Fight, H: Hook>(
        &mut self,
        seats: &[Strategy],
        cat: &Catalogue,
        r: &Rules,
        seed: u64,
        fight: &mut F,
        hook: &mut H,
    ) -> &Report {
        let n = seats.len();
        let s = &r.royale;
        let key = key(seed);
        let mut side = s.side_for(n as u32);
        assert!(
            (2..=MAX_PLAYERS).contains(&n) && n <= (side * side) as usize,
            "seat count checked by the caller"
        );
        // LA-40: distinct spawn cells, a keyed shuffle of the map's cells.
        let cells = (side * side) as usize;
        self.order.clear();
        self.order.extend(0..cells as u8);
        for i in (1..cells).rev() {
            let j = below(bits(key, 0, SPAWN, 0, i as u64), i as u64 + 1) as usize;
            self.order.swap(i, j);
        }
        self.cell.clear();
        self.cell.extend_from_slice(&self.order[..n]);
        let health = [0, 1, 2, 3].map(|c| r.classes[c].health);
        self.gear.clear();
        self.gear.resize(n, Gear::fresh(health));
        self.seen.clear();
        self.seen.resize(n * n, -1);
        self.reset_pools(side, s);
        self.worth.build(cat, r);
        let rep = &mut self.report;
        *rep = Report::new();
        rep.players = n;
        rep.start_side = side;
        rep.spawn[..n].copy_from_slice(&self.cell);
        let mut alive = n;
        let mut end = End::Cap;
        let mut battle_index = 0u32;
        let mut round = 0;
        while round < s.max_rounds {
            round += 1;
            // LA-41: the map shrinks at the start of the round once few enough are in.
            let to = s.side_for(alive as u32);
            if to < side {
                for p in 0..n {
                    if self.cell[p] != OUT {
                        self.cell[p] = shrink(self.cell[p], side, to, s.merge, key, round, p);
                    }
                }
                if H::ON {
                    hook.shrink(round, side, to, &self.cell);
                }
                let rep = &mut self.report;
                if rep.shrink_count < rep.shrinks.len() {
                    rep.shrinks[rep.shrink_count] = (round, to);
                    rep.shrink_count += 1;
                }
                side = to;
                self.reset_pools(side, s);
            }
            if H::ON {
                hook.round(round, side, &self.cell);
            }
            // LA-43: everyone decides from the same map, then all move at once.
            self.next.clear();
            for p in 0..n {
                let to = if self.cell[p] == OUT {
                    OUT
                } else {
                    let v = View {
                        me: p,
                        round,
                        side,
                        cell: &self.cell,
                        seen: &self.seen[p * n..(p + 1) * n],
                        gear: &self.gear[p],
                        rules: r,
                    };
                    seats[p].step(&v, bits(key, round, STEP, p as u64, 0))
                };
                self.next.push(to);
            }
            if H::ON {
                hook.moved(round, &self.cell, &self.next);
            }
            if s.end_stalled && self.stalled(seats) {
                end = End::Stalled;
                break;
            }
            std::mem::swap(&mut self.cell, &mut self.next);
            // LA-42: looting, action by action in seat order (a finite pool runs out in that
            // order).
            for k in 0..s.loot_actions as u64 {
                for p in 0..n {
                    let c = self.cell[p];
                    if c == OUT {
                        continue;
                    }
                    let item = if s.pool > 0 && self.pool[c as usize] == 0 {
                        None
                    } else {
                        if s.pool > 0 {
                            self.pool[c as usize] -= 1;
                        }
                        let b = |j: u64| bits(key, round, LOOT, p as u64, 3 * k + j);
                        find(cat, s, ring(c, side), [b(0), b(1), b(2)])
                    };
                    if let Some(i) = item {
                        self.gear[p].stow(i);
                        self.report.found[p] += 1;
                    }
                    if H::ON {
                        hook.looted(p, ring(c, side), item);
                    }
                }
            }
            // LA-44: equipment.
            for p in 0..n {
                if self.cell[p] != OUT {
                    seats[p].equip(&mut self.gear[p], r, &self.worth);
                    if H::ON {
                        hook.equipped(p, &self.gear[p]);
                    }
                }
            }
            // LA-46: battles, cell by cell in the map's order; only cells two or more share
            // (found in one pass) hold any.
            let (mut taken, mut shared) = (0u64, 0u64);
            for &c in &self.cell {
                if c != OUT {
                    shared |= taken & (1 << c);
                    taken |= 1 << c;
                }
            }
            while shared != 0 {
                let c = shared.trailing_zeros() as u8;
                shared &= shared - 1;
                self.order.clear();
                for p in 0..n {
                    if self.cell[p] == c {
                        self.order.push(p as u8);
                    }
                }
                let k = self.order.len();
                if k < 2 {
                    continue;
                }
                for i in (1..k).rev() {
                    let j = below(bits(key, round, SPLIT, c as u64, i as u64), i as u64 + 1);
                    self.order.swap(i, j as usize);
                }
                for pair in 0..k / 2 {
                    let (a, b) = (self.order[2 * pair], self.order[2 * pair + 1]);
                    self.meet(
                        seats,
                        cat,
                        r,
                        fight,
                        hook,
                        round,
                        c,
                        [a, b],
                        false,
                        key,
                        battle_index,
                    );
                    battle_index += 1;
                }
                if k % 2 == 1 {
                    let odd = self.order[k - 1];
                    let b = self.second(r.royale.twice, key, round, c, k - 1);
                    if let Some(b) = b {
                        self.meet(
                            seats,
                            cat,
                            r,
                            fight,
                            hook,
                            round,
                            c,
                            [odd, b],
                            true,
                            key,
                            battle_index,
                        );
                        battle_index += 1;
                    }
                }
            }
            // LA-47: a player whose four champions have fallen is out.
            let before = alive;
            for p in 0..n {
                if self.cell[p] != OUT && self.gear[p].living() == 0 {
                    self.cell[p] = OUT;
                    self.report.out_round[p] = round;
                    alive -= 1;
                    if H::ON {
                        hook.out(p, round);
                    }
                }
            }
            if alive < before && self.report.first_out == 0 {
                self.report.first_out = round;
            }
            if alive <= 1 {
                end = if alive == 1 { End::Won } else { End::Draw };
                break;
            }
        }
        let rep = &mut self.report;
        rep.end = end;
        rep.rounds = round;
        rep.battle_count = battle_index;
        // LA-47: places by the round a player went out; still in beats any round.
        let last = |p: usize| {
            if rep.out_round[p] == 0 {
                u32::MAX
            } else {
                rep.out_round[p]
            }
        };
        for p in 0..n {
            let better = (0..n).filter(|&q| last(q) > last(p)).count();
            rep.place[p] = (better + 1) as u8;
            rep.held[p] = self.gear[p].held() as u16;
            rep.health[p] = self.gear[p].health();
        }
        rep.winner = match end {
            End::Won => (0..n).find(|&p| rep.out_round[p] == 0).map(|p| p as u8),
            _ => None,
        };
        &self.report
    }

    /// LA-52: after the Movement phase, whether the game can no longer change: every player
    /// in stayed, each on a cell of its own, and every one's step is steady. A round without a
    /// battle changes no cell, nobody's health and nothing anyone was told, so each steady
    /// step stays what it was, and every later round would be this one again (loot and gear
    /// aside, which only matter in a battle).
    fn stalled(&self, seats: &[Strategy]) -> bool {
        let mut taken = 0u64;
        for p in 0..self.cell.len() {
            let c = self.cell[p];
            if c == OUT {
                continue;
            }
            if self.next[p] != c || !seats[p].steady() || taken & (1 << c) != 0 {
                return false;
            }
            taken |= 1 << c;
        }
        true
    }

    fn reset_pools(&mut self, side: u32, s: &Settings) {
        self.pool.clear();
        self.pool.resize((side * side) as usize, s.pool);
    }

    /// The odd player's opponent (LA-46): among the players paired on the tile (`order[..m]`)
    /// still in after the first battles.
    fn second(&self, how: Twice, key: u64, round: u32, c: u8, m: usize) -> Option<u8> {
        let standing = |i: &usize| self.gear[self.order[*i] as usize].living() > 0;
        let count = (0..m).filter(standing).count();
        if count == 0 {
            return None;
        }
        let pick = match how {
            Twice::Random => {
                let k = below(bits(key, round, TWICE, c as u64, 0), count as u64) as usize;
                (0..m).filter(standing).nth(k)
            }
            // The first of the healthiest in the tile's drawn order.
            Twice::Healthiest => (0..m)
                .filter(standing)
                .max_by_key(|&i| (self.gear[self.order[i] as usize].health(), usize::MAX - i)),
        };
        pick.map(|i| self.order[i])
    }

    /// One battle between players `p[0]` and `p[1]` on cell c (LA-46): each fields two living
    /// champions seeing the other's living champions and their health; damage and deaths stay
    /// (LA-45).
    #[allow(clippy::too_many_arguments)]
    fn meet<F: Fight, H: Hook>(
        &mut self,
        seats: &[Strategy],
        cat: &Catalogue,
        r: &Rules,
        fight: &mut F,
        hook: &mut H,
        round: u32,
        c: u8,
        p: [u8; 2],
        twice: bool,
        key: u64,
        index: u32,
    ) {
        let n = self.gear.len();
        let (a, b) = (p[0] as usize, p[1] as usize);
        if self.gear[a].living() == 0 || self.gear[b].living() == 0 {
            return;
        }
        let mut champs = [[None; 2]; 2];
        let mut f: Fielded = [Loadout::bare(Class::Gladiator, 0, seats[a].sets); 4];
        for (side, (me, them)) in [(a, b), (b, a)].into_iter().enumerate() {
            let mut opp = [(Class::Gladiator, 0); 4];
            let mut k = 0;
            for (cl, ch) in self.gear[them].champs.iter().enumerate() {
                if ch.alive() {
                    opp[k] = (Class::from_index(cl as u8), ch.health);
                    k += 1;
                }
            }
            self.seen[me * n + them] = self.gear[them].health();
            let pick = seats[me].pick(&self.gear[me], r, &opp[..k]);
            for (j, ch) in pick.into_iter().enumerate() {
                let seat = 2 * side + j;
                f[seat].policy = seats[me].sets;
                if let Some(ch) = ch {
                    let g = &self.gear[me].champs[ch];
                    let class = Class::from_index(ch as u8);
                    f[seat] = Loadout {
                        class,
                        health: g.health,
                        max: r.class(class).health,
                        items: g.items,
                        armor: g.armor,
                        policy: seats[me].sets,
                    };
                    champs[side][j] = Some(ch as u8);
                }
            }
        }
        let seed = bits(key, round, BATTLE, index as u64, 0);
        let o = fight.fight(&f, cat, r, seed);
        for (side, who) in [a, b].into_iter().enumerate() {
            for j in 0..2 {
                let Some(ch) = champs[side][j] else { continue };
                let seat = 2 * side + j;
                let g = &mut self.gear[who];
                let after = o.health[seat];
                // LA-45: the fallen stay fallen; damage stays unless the rules say otherwise.
                g.champs[ch as usize].health = if after <= 0 {
                    0
                } else if r.carry_damage {
                    after
                } else {
                    f[seat].health
                };
                if after <= 0 {
                    g.strip(ch as usize);
                }
            }
            let rep = &mut self.report;
            rep.battles[who] += 1;
            rep.battles_won[who] += (o.winner == Some(side as u8)) as u16;
        }
        if twice {
            let rep = &mut self.report;
            rep.odd[a] += 1;
            rep.odd_won[a] += (o.winner == Some(0)) as u16;
            rep.twice[b] += 1;
            rep.twice_won[b] += (o.winner == Some(1)) as u16;
        }
        self.report.dice += o.dice as u64;
        if H::ON {
            let m = Meeting {
                round,
                index,
                cell: c,
                players: p,
                champs,
                twice,
                seed,
            };
            hook.battle(&m, &f, &o);
        }
    }
}

/// A player's cell on the smaller map (LA-41): each coordinate goes to the new cell holding its
/// old cell's centre; a centre on the line between two new cells (the 3x3's middle row and
/// column going to 2x2) goes to either side as `merge` says.
fn shrink(cell: u8, from: u32, to: u32, merge: Merge, key: u64, round: u32, p: usize) -> u8 {
    let axis = |v: u32, k: u64| {
        let (num, den) = ((2 * v + 1) * to, 2 * from);
        let q = num / den;
        if num % den == 0 && q > 0 {
            match merge {
                Merge::Low => q - 1,
                Merge::Random => q - (bits(key, round, MERGE, p as u64, k) & 1) as u32,
            }
        } else {
            q.min(to - 1)
        }
    };
    let (x, y) = (cell as u32 % from, cell as u32 / from);
    (axis(y, 1) * to + axis(x, 0)) as u8
}

/// The item a looting action finds on a cell of `ring` (LA-42): a tier by the ring's odds, a
/// kind by the kind weights, then one of the catalogue's items of that kind and tier (armor of
/// any weight), each equally likely; `None` if the catalogue has none.
fn find(cat: &Catalogue, s: &Settings, ring: Ring, b: [u64; 3]) -> Option<u16> {
    let weighted = |w: &[u32; 4], bits: u64| {
        let total: u32 = w.iter().sum();
        let mut x = below(bits, total as u64) as u32;
        for (i, &wi) in w.iter().enumerate() {
            if x < wi {
                return i;
            }
            x -= wi;
        }
        3
    };
    let tier = weighted(&s.odds[ring as usize], b[0]);
    let kind = weighted(&s.kinds, b[1]);
    if kind == Kind::Defensive as usize {
        let total: usize = cat.armor.iter().map(|w| w[tier].len()).sum();
        if total == 0 {
            return None;
        }
        let mut k = below(b[2], total as u64) as usize;
        for w in &cat.armor {
            if k < w[tier].len() {
                return Some(w[tier][k]);
            }
            k -= w[tier].len();
        }
        None
    } else {
        let list = &cat.carried[kind][tier];
        (!list.is_empty()).then(|| list[below(b[2], list.len() as u64) as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinking_keeps_each_cell_in_its_part_of_the_map() {
        // 4x4 to 3x3: the two middle rows and columns merge.
        let m: Vec<u8> = (0..4)
            .map(|x| shrink(x, 4, 3, Merge::Low, 1, 1, 0))
            .collect();
        assert_eq!(m, vec![0, 1, 1, 2]);
        // 3x3 to 2x2: the middle goes low, or either way at random.
        assert_eq!(shrink(4, 3, 2, Merge::Low, 1, 1, 0), 0);
        assert_eq!(shrink(8, 3, 2, Merge::Low, 1, 1, 0), 3);
        let sides: std::collections::BTreeSet<u8> = (0..64)
            .map(|p| shrink(4, 3, 2, Merge::Random, 9, 2, p))
            .collect();
        assert_eq!(sides.len(), 4, "{sides:?}");
    }
}
