//! Players of the whole royale as strategies (LA-50): where to move, what to equip, which two
//! champions to field, and how to write their sets (a part-1 [`Policy`]). A strategy sees only
//! what a forum player sees ([`View`]: the map with everyone's place, its own champions and bag,
//! and what it saw of the players it shared a tile with), never another player's gear or plans.
//! Named with parameters, `centre(equip=plain, sets=medic)`, like the other games' policies.

use crate::error::Error;
use crate::games::loot_arena::policy::Policy;
use crate::games::loot_arena::rules::{
    Class, Dice, Kind, MAX_ITEM_SLOTS, MAX_PLAYERS, Ring, Rules,
};
use crate::games::loot_arena::state::{Catalogue, Gear, MAX_HELD, NO_ITEM};

/// A cell's index on a map of side s: `y * s + x`; `OUT` for a player who is out.
pub const OUT: u8 = u8::MAX;

/// What a player sees when it decides.
pub struct View<'a> {
    pub me: usize,
    pub round: u32,
    pub side: u32,
    /// Every player's cell (the map is public: "player locations will be shown on the map").
    pub cell: &'a [u8],
    /// Health this player saw on each other's living champions when they last shared a tile
    /// ("their living Champions, as well as the Champions' health"); -1: never met.
    pub seen: &'a [i32],
    pub gear: &'a Gear,
    pub rules: &'a Rules,
}

/// The largest map side a table of coordinates is kept for (`royale.side` allows 1 to 8).
const TABLED: usize = 8;

/// Each cell's `[x, y]` on maps of side 1 to [`TABLED`]: strategies measure distances every
/// round, and a division per coordinate was most of a move's time.
static XY: [[[u8; 2]; TABLED * TABLED]; TABLED + 1] = {
    let mut t = [[[0u8; 2]; TABLED * TABLED]; TABLED + 1];
    let mut s = 1;
    while s <= TABLED {
        let mut c = 0;
        while c < s * s {
            t[s][c] = [(c % s) as u8, (c / s) as u8];
            c += 1;
        }
        s += 1;
    }
    t
};

/// Cell c's column and row on a map of side s.
#[inline(always)]
pub fn xy(c: u8, side: u32) -> (i32, i32) {
    let (s, i) = (side as usize, c as usize);
    if s <= TABLED && i < s * s {
        let [x, y] = XY[s][i];
        (x as i32, y as i32)
    } else {
        (c as i32 % side as i32, c as i32 / side as i32)
    }
}

/// Chebyshev distance between two cells of a map of side s: the moves from one to the other.
#[inline]
pub fn cheb(a: u8, b: u8, side: u32) -> u32 {
    let ((ax, ay), (bx, by)) = (xy(a, side), xy(b, side));
    (ax - bx).unsigned_abs().max((ay - by).unsigned_abs())
}

/// The cells a player on `cell` may end its move on (LA-43): staying first, then the eight
/// neighbours on the map, north-west to south-east.
#[inline]
pub fn reachable(cell: u8, side: u32) -> ([u8; 9], usize) {
    let s = side as i32;
    let (x, y) = xy(cell, side);
    let mut out = [cell; 9];
    let mut n = 1;
    for dy in -1..=1 {
        for dx in -1..=1 {
            let (nx, ny) = (x + dx, y + dy);
            if (dx, dy) != (0, 0) && (0..s).contains(&nx) && (0..s).contains(&ny) {
                out[n] = (ny * s + nx) as u8;
                n += 1;
            }
        }
    }
    (out, n)
}

/// The ring of a cell on a map of side s (LA-42).
#[inline]
pub fn ring(cell: u8, side: u32) -> Ring {
    let (x, y) = xy(cell, side);
    Ring::of(x as u32, y as u32, side)
}

/// How a strategy moves (LA-50).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Never moves: another go at the same pool every round.
    Stay,
    /// Heads for the centre cells (the richest pools), then stays.
    Centre,
    /// Moves to the reachable cell the fewest other players can also reach (staying on a tie,
    /// then the richer ring).
    Avoid,
    /// Heads for the weakest player it knows of (the least health it saw; a player never met
    /// counts as unhurt), the nearest of those on a tie.
    Hunt,
    /// A random reachable cell.
    Random,
    /// Weighs each reachable cell: `greed` per ring step toward the centre, minus `fear` per
    /// player who could reach it and is not known to be weaker, plus `fear / 2` per one known
    /// to be weaker (a fight it expects to win); once `hunt` or fewer players are in, hunts.
    Smart { greed: u8, fear: u8, hunt: u8 },
}

/// How a strategy equips (LA-44).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Equip {
    /// Items by value, each to the living champion it is worth most to: an item's mean dice,
    /// x1.25 with affinity, counted where the champion's actions use it.
    Greedy,
    /// The same without affinity: every champion values an item at its mean dice.
    Plain,
}

/// Which two champions a strategy fields (LA-46).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The two with the most health left.
    Strongest,
    /// The Healer while it lives (it makes its partner strong against both other types), with
    /// the healthiest other.
    Healer,
    /// The pair with the best strengths against the opponent's living champions, then health.
    Counter,
}

/// A player of the royale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategy {
    pub movement: Move,
    pub equip: Equip,
    pub field: Field,
    /// How its fielded champions write their sets (part 1's policies, LA-20).
    pub sets: Policy,
}

/// The named strategies and what they stand for.
pub const NAMED: &[(&str, &str)] = &[
    ("looter", "never moves: loots its spawn cell every round"),
    ("centre", "heads for the centre's richer pools"),
    ("avoider", "moves where the fewest others can reach"),
    ("hunter", "heads for the weakest player it knows of"),
    ("wanderer", "a random step each round"),
    (
        "smart(greed=0, fear=0, hunt=4)",
        "loots where it spawned (weighing the richer ring by `greed` and who could share its \
         tile by `fear`) until `hunt` or fewer are in, then hunts the weakest it knows; fields \
         the pair best against the opponent's living champions; medic sets",
    ),
    (
        "<any>(equip=greedy|plain, field=strongest|healer|counter, sets=<a part-1 policy>)",
        "any of the above with other equipment, fielding or sets",
    ),
];

impl Strategy {
    pub fn parse(spec: &str) -> Result<Strategy, Error> {
        let (name, args) = crate::names::call(spec)?;
        let attack = Policy::parse("attack").expect("a named policy");
        let mut st = Strategy {
            movement: Move::Stay,
            equip: Equip::Greedy,
            field: Field::Strongest,
            sets: attack,
        };
        match name.to_ascii_lowercase().as_str() {
            "looter" => {}
            "centre" | "center" => st.movement = Move::Centre,
            "avoider" => st.movement = Move::Avoid,
            "hunter" => st.movement = Move::Hunt,
            "wanderer" => st.movement = Move::Random,
            "smart" => {
                // Measured (docs/loot-arena.md): any pull toward the centre or flight from
                // neighbours costs places; staying put and hunting at the end pays.
                st.movement = Move::Smart {
                    greed: 0,
                    fear: 0,
                    hunt: 4,
                };
                st.field = Field::Counter;
                st.sets = Policy::parse("medic").expect("a named policy");
            }
            n => return Err(crate::names::unknown("strategy", n, NAMED).into()),
        }
        for kv in crate::names::params(args) {
            let (k, v) = kv?;
            match k {
                "equip" => {
                    st.equip = match v {
                        "greedy" => Equip::Greedy,
                        "plain" => Equip::Plain,
                        _ => return Err(Error::Input(format!("equip={v}: greedy or plain"))),
                    }
                }
                "field" => {
                    st.field = match v {
                        "strongest" => Field::Strongest,
                        "healer" => Field::Healer,
                        "counter" => Field::Counter,
                        _ => {
                            return Err(Error::Input(format!(
                                "field={v}: strongest, healer or counter"
                            )));
                        }
                    }
                }
                "sets" => st.sets = Policy::parse(v).map_err(|e| format!("sets={v}: {e}"))?,
                "greed" | "fear" | "hunt" => {
                    let Move::Smart { greed, fear, hunt } = &mut st.movement else {
                        return Err(Error::Input(format!(
                            "`{k}`: only `smart` takes greed, fear and hunt"
                        )));
                    };
                    let n: u8 = v
                        .parse()
                        .ok()
                        .filter(|n| *n <= 100)
                        .ok_or_else(|| format!("{k}={v}: give 0 to 100"))?;
                    match k {
                        "greed" => *greed = n,
                        "fear" => *fear = n,
                        _ => *hunt = n,
                    }
                }
                _ => {
                    return Err(Error::Input(format!(
                        "`{k}`: a strategy's parameters are equip, field, sets (and smart's \
                         greed, fear)"
                    )));
                }
            }
        }
        Ok(st)
    }

    /// The strategy written back in the grammar `parse` reads.
    pub fn spec(&self) -> String {
        let (name, base) = match self.movement {
            Move::Stay => ("looter", "looter"),
            Move::Centre => ("centre", "centre"),
            Move::Avoid => ("avoider", "avoider"),
            Move::Hunt => ("hunter", "hunter"),
            Move::Random => ("wanderer", "wanderer"),
            Move::Smart { .. } => ("smart", "smart"),
        };
        let plain = Strategy::parse(base).expect("a named strategy");
        let mut args = Vec::new();
        if let (
            Move::Smart { greed, fear, hunt },
            Move::Smart {
                greed: g0,
                fear: f0,
                hunt: h0,
            },
        ) = (self.movement, plain.movement)
        {
            for (k, v, v0) in [("greed", greed, g0), ("fear", fear, f0), ("hunt", hunt, h0)] {
                if v != v0 {
                    args.push(format!("{k}={v}"));
                }
            }
        }
        if self.equip != plain.equip {
            args.push("equip=plain".into());
        }
        if self.field != plain.field {
            args.push(format!(
                "field={}",
                match self.field {
                    Field::Strongest => "strongest",
                    Field::Healer => "healer",
                    Field::Counter => "counter",
                }
            ));
        }
        if self.sets != plain.sets {
            args.push(format!("sets={}", self.sets.spec()));
        }
        if args.is_empty() {
            name.into()
        } else {
            format!("{name}({})", args.join(", "))
        }
    }

    /// Whether its step is a function of the map, what it saw and its champions' health alone
    /// (not the round, its items or random bits), so a round with no battle leaves its next
    /// step as it was (LA-52). Every movement but a random one; [`Strategy::step`] keeps it so.
    pub fn steady(&self) -> bool {
        self.movement != Move::Random
    }

    /// The cell this player moves to (LA-43); `bits` are its own random bits for the round.
    /// Reads no more of `v` than [`Strategy::steady`] says (never `round`, never the items).
    pub fn step(&self, v: &View, bits: u64) -> u8 {
        let here = v.cell[v.me];
        let (cells, n) = reachable(here, v.side);
        let cells = &cells[..n];
        let others = || (0..v.cell.len()).filter(move |&j| j != v.me && v.cell[j] != OUT);
        // The others' columns and rows, read once: a move weighs each reachable cell against
        // each of them.
        let around = || {
            let mut at = [(i32::MIN / 2, 0i32); MAX_PLAYERS];
            for (k, j) in others().enumerate().take(MAX_PLAYERS) {
                at[k] = xy(v.cell[j], v.side);
            }
            at
        };
        // Players who could end their move on cell c.
        let threat = |at: &[(i32, i32); MAX_PLAYERS], c: u8| {
            let (x, y) = xy(c, v.side);
            at.iter()
                .filter(|&&(ox, oy)| (ox - x).unsigned_abs() <= 1 && (oy - y).unsigned_abs() <= 1)
                .count() as i32
        };
        let best = |score: &dyn Fn(u8) -> i64| {
            let mut pick = cells[0];
            let mut top = score(pick);
            for &c in &cells[1..] {
                let s = score(c);
                if s > top {
                    (pick, top) = (c, s);
                }
            }
            pick
        };
        let middle = |c: u8| {
            let s = v.side as i64;
            let (x, y) = xy(c, v.side);
            (2 * x as i64 - (s - 1)).pow(2) + (2 * y as i64 - (s - 1)).pow(2)
        };
        let hunt = || {
            let full: i32 = v.rules.classes.iter().map(|c| c.health).sum();
            let target = others().min_by_key(|&j| {
                let h = if v.seen[j] < 0 { full } else { v.seen[j] };
                (h, cheb(here, v.cell[j], v.side), j)
            });
            match target {
                None => here,
                Some(t) => best(&|c| -(cheb(c, v.cell[t], v.side) as i64)),
            }
        };
        match self.movement {
            Move::Stay => here,
            Move::Centre => best(&|c| 1000 * ring(c, v.side) as i64 - middle(c)),
            Move::Avoid => {
                let at = around();
                best(&|c| -100 * threat(&at, c) as i64 + ring(c, v.side) as i64)
            }
            Move::Hunt => hunt(),
            Move::Random => cells[((bits as u128 * n as u128) >> 64) as usize],
            Move::Smart { hunt: h, .. } if others().count() < h as usize => hunt(),
            // Nothing to weigh: every cell scores 0, and a tie stays.
            Move::Smart {
                greed: 0, fear: 0, ..
            } => here,
            Move::Smart { greed, fear, .. } => {
                let mine = v.gear.health();
                best(&|c| {
                    let mut s = greed as i64 * ring(c, v.side) as i64;
                    for j in others().filter(|&j| cheb(v.cell[j], c, v.side) <= 1) {
                        let weaker = v.seen[j] >= 0 && v.seen[j] < mine;
                        s += if weaker {
                            fear as i64 / 2
                        } else {
                            -(fear as i64)
                        };
                    }
                    s
                })
            }
        }
    }

    /// Which living champions to field (LA-46), given the opponent's living champions as
    /// (class, health); the second is `None` when only one lives.
    pub fn pick(&self, g: &Gear, r: &Rules, opponent: &[(Class, i32)]) -> [Option<usize>; 2] {
        let living = |c: &usize| g.champs[*c].alive();
        let mut by_health = [0usize, 1, 2, 3];
        // Most health first; class order on a tie (a stable sort).
        by_health.sort_by_key(|&c| -g.champs[c].health);
        let mut alive = by_health.into_iter().filter(living);
        let (a, b) = (alive.next(), alive.next());
        match self.field {
            Field::Strongest => [a, b],
            Field::Healer => {
                let h = Class::Healer as usize;
                if !g.champs[h].alive() {
                    return [a, b];
                }
                let other = by_health.into_iter().filter(living).find(|&c| c != h);
                [Some(h), other]
            }
            Field::Counter => {
                let edge = |x: usize, y: Class| {
                    r.beats[x][y as usize] as i64 - r.beats[y as usize][x] as i64
                };
                let score = |x: usize| {
                    100 * opponent.iter().map(|&(o, _)| edge(x, o)).sum::<i64>()
                        + g.champs[x].health as i64
                };
                let mut ranked = [0usize, 1, 2, 3];
                ranked.sort_by_key(|&c| (-score(c), c));
                let mut alive = ranked.into_iter().filter(living);
                [alive.next(), alive.next()]
            }
        }
    }

    /// Equips the living champions from everything the player holds and trims the bag to the
    /// rules' size, least valuable out first (LA-44). Every item in order of value (its worth
    /// to the living champion it is worth most to), on a tie the one collected first (the
    /// champions' gear in class and slot order, then the bag); each goes to the living
    /// champion with room that it is worth most to (the first on a tie), else to the bag while
    /// there is room, else it is dropped. `tests/games/loot_arena_royale.rs` holds it to a plain
    /// model of these words on random gear.
    pub fn equip(&self, g: &mut Gear, r: &Rules, w: &Worth) {
        let set = !(self.equip == Equip::Greedy) as usize;
        let living = [0, 1, 2, 3].map(|c| g.champs[c].alive());
        // One key per item, smallest first: the complement of (value, collected first, item),
        // sorted in place (no allocation).
        let mut keys = [0u64; MAX_HELD];
        let mut n = 0;
        let mut keep = |i: u16| {
            if i != NO_ITEM && n < MAX_HELD {
                let mut value = 0;
                if let Some(row) = w.row(i) {
                    for (&up, &v) in living.iter().zip(&row.worth[set]) {
                        if up && v != Worth::NONE {
                            value = value.max(v);
                        }
                    }
                }
                let value = value.clamp(0, 1 << 38) as u64;
                keys[n] = !((value << 24) | ((MAX_HELD - 1 - n) as u64) << 16 | i as u64);
                n += 1;
            }
        };
        for c in g.champs.iter_mut().filter(|c| c.alive()) {
            for s in c.items.iter_mut() {
                keep(*s);
                *s = NO_ITEM;
            }
            keep(c.armor);
            c.armor = NO_ITEM;
        }
        for &i in g.bag() {
            keep(i);
        }
        g.bag_len = 0;
        keys[..n].sort_unstable();
        let slots = (r.item_slots as usize).min(MAX_ITEM_SLOTS as usize);
        // Every living champion was emptied above: its items fill its slots in order.
        let mut carried = [0usize; 4];
        let mut armored = [false; 4];
        for &k in &keys[..n] {
            let i = !k as u16;
            let Some(row) = w.row(i) else { continue };
            let v = &row.worth[set];
            let (mut to, mut best) = (4, 0);
            for c in 0..4 {
                let free = if row.armor {
                    !armored[c]
                } else {
                    carried[c] < slots
                };
                if living[c] && free && v[c] > best {
                    (to, best) = (c, v[c]);
                }
            }
            if to < 4 {
                let ch = &mut g.champs[to];
                if row.armor {
                    ch.armor = i;
                    armored[to] = true;
                } else {
                    ch.items[carried[to]] = i;
                    carried[to] += 1;
                }
            } else if (g.bag_len as u32) < r.royale.bag {
                g.stow(i);
            }
        }
    }
}

/// Every catalogue item's [`worth`] to each class, with and without affinity, and whether it
/// is armor, settled once per game so equipping reads a table (LA-44).
#[derive(Clone, Debug, Default)]
pub struct Worth {
    table: Vec<WorthRow>,
}

/// One item's row of [`Worth`].
#[derive(Clone, Copy, Debug)]
pub struct WorthRow {
    /// `worth[0][class]` with affinity, `worth[1][class]` without; [`Worth::NONE`] where the
    /// class cannot use the item.
    pub worth: [[i64; 4]; 2],
    /// A Defensive item: it goes in the armor slot.
    pub armor: bool,
}

impl Worth {
    pub const NONE: i64 = i64::MIN;
    /// Builds the table in place (its buffer grows once, to the largest catalogue seen).
    pub fn build(&mut self, cat: &Catalogue, r: &Rules) {
        self.table.clear();
        for (i, item) in cat.items.iter().enumerate() {
            let mut row = WorthRow {
                worth: [[Worth::NONE; 4]; 2],
                armor: item.kind == Kind::Defensive,
            };
            for c in 0..4 {
                let class = Class::from_index(c as u8);
                for (set, affinity) in [(0, true), (1, false)] {
                    row.worth[set][c] =
                        worth(cat, r, i as u16, class, affinity).unwrap_or(Worth::NONE);
                }
            }
            self.table.push(row);
        }
    }
    pub fn new(cat: &Catalogue, r: &Rules) -> Worth {
        let mut w = Worth::default();
        w.build(cat, r);
        w
    }
    /// Item i's row; `None` for an index the catalogue does not have.
    #[inline]
    pub fn row(&self, i: u16) -> Option<&WorthRow> {
        self.table.get(i as usize)
    }
    /// Item i's worth to each class.
    #[inline]
    pub fn of(&self, i: u16, affinity: bool) -> [i64; 4] {
        self.row(i)
            .map_or([Worth::NONE; 4], |row| row.worth[!affinity as usize])
    }
}

/// What an item is worth to a champion of `class`, in eighths of a point of mean dice (LA-44):
/// a carried item where the class's actions use it (attacks; heals for a class that heals;
/// half for supports), x1.25 with affinity when `affinity`; armor its mean defence if the
/// class may wear it. `None`: the class cannot use it at all.
pub fn worth(cat: &Catalogue, r: &Rules, i: u16, class: Class, affinity: bool) -> Option<i64> {
    let item = cat.get(i)?;
    let cr = r.class(class);
    let mean2 = |d: Dice| d.n as i64 * (d.sides as i64 + 1) + 2 * d.plus as i64;
    if let Some(w) = item.weight {
        return (cr.armor & w.bit() != 0).then(|| 4 * mean2(item.dice));
    }
    let k = item.kind.bit();
    let used = if r.attack_items & k != 0 || (cr.can_heal && r.heal_items & k != 0) {
        4
    } else if cr.can_support && r.support_items & k != 0 {
        2
    } else {
        0
    };
    let aff = if affinity && cr.affinity & k != 0 {
        5
    } else {
        4
    };
    Some(mean2(item.dice) * used * aff / 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategies_read_back_from_their_spec() {
        for s in [
            "looter",
            "centre",
            "avoider",
            "hunter",
            "wanderer",
            "smart",
            "smart(greed=5, fear=1, hunt=2)",
            "centre(equip=plain, field=counter, sets=medic)",
        ] {
            let p = Strategy::parse(s).unwrap();
            assert_eq!(Strategy::parse(&p.spec()).unwrap(), p, "{s}");
        }
        assert!(
            Strategy::parse("hunterr")
                .unwrap_err()
                .to_string()
                .contains("did you mean `hunter`")
        );
        assert!(Strategy::parse("looter(greed=2)").is_err());
        assert!(Strategy::parse("looter(sets=dance)").is_err());
    }

    #[test]
    fn reachable_cells_stay_on_the_map() {
        let (c, n) = reachable(0, 4);
        assert_eq!(&c[..n], &[0, 1, 4, 5]);
        let (c, n) = reachable(5, 4);
        assert_eq!(n, 9);
        assert_eq!(c[0], 5);
        assert_eq!(cheb(0, 15, 4), 3);
    }
}
