//! The battle kernel for powers as data: the struct-of-arrays table walked phase by phase, each
//! hero's clauses read from its compiled [`Loadout`], no allocation once a [`DataKernel`] exists.
//!
//! Its fast path ([`DataKernel::run`]) plays the *self-contained* class of powers: clauses whose
//! effects act on their holder (Energy, Defence, prevention, counters, copies, attack bonuses)
//! and read no per-hit history. The six sample powers and most round-start and use-order powers
//! are in it, and so are reactions of the holder alone to being attacked or damaged
//! ([`phase::SELF_REACTION`]), an attacker's own `hit` reactions that never lower its Energy
//! ([`phase::SELF_HIT`]: an attacker class splits where its members landed different hits) and
//! a constant tax on the hero damaged ([`phase::TAX_ON_DAMAGE`]), constant Energy gifts to every
//! ally when a hit takes the holder's Energy ([`phase::ALLY_GIFT`]), copies made on a member's
//! first hit of the round ([`phase::COPY_ON_ATTACKED`], Budding), and three effects that single
//! out one hero of another class, splitting its class there: Assassin's Game's rule
//! ([`phase::NEXT_OPPONENT`]), Sniper's aim ([`phase::SHOT`]), Parasitic Strain's theft
//! ([`phase::STEAL`]) and Piercing Blow's damage ([`phase::STRIKE`]). Loadouts outside it (other
//! reactions, effects on other heroes, locks, wards, summons, wins) are played by [`crate::games::auto_rumble::kernel::general`], which plays every clause, also
//! without allocating; [`play`] picks the path. tests/games/auto_rumble_data_differential.rs holds
//! both to the data reference, round by round.
//!
//! **Classes.** A row of the table is a *class*: `count` heroes of one team alike in every piece
//! of state, next to each other in initiative order. Nothing in the fast path singles one of
//! them out (a loadout whose clauses could is played hero by hero, [`phase::SINGLES_OUT`]), so
//! a class is played once: its clauses fire once, its attack lands `count` hits on each target
//! class in one step (the arithmetic of Defence, prevention and Energy over k equal hits, and
//! where the target falls), and Amoeba's copies join their class instead of adding rows. Copies
//! that differ from their original (a clause changed it after the copy was made) and capacity
//! reached part-way through a class (AR-15: members copy one after another, each as room
//! allows) split the class as playing hero by hero would; equal neighbours merge again. What a
//! battle reports is in heroes: hits represented, Energies per hero, copies, capacity.
//! [`DataKernel::per_hero`] plays every hero as its own row (the yardstick of the benches).

use crate::games::auto_rumble::kernel::general::GeneralKernel;
use crate::games::auto_rumble::kernel::hand::{EndReason, Outcome};
pub use crate::games::auto_rumble::kernel::hook::{NoHook, RoundHook, Rounds};
use crate::games::auto_rumble::kernel::powerless;
use crate::games::auto_rumble::powers::catalogue::{
    Catalogue, HeldClause, Loadout, MAX_CLAUSES, MAX_HERO_COUNTERS, NO_CLAUSE, gift_per_hit, phase,
    shot_rule, steal_rule, strike_rule,
};
use crate::games::auto_rumble::powers::expr::Quantity;
use crate::games::auto_rumble::powers::file::{Clause, EffectKind, Limit, Target, When};
use crate::games::auto_rumble::powers::limits::MAX_EFFECTS;
use crate::games::auto_rumble::rules;
use crate::games::auto_rumble::state::{HeroId, RoundView};

/// Phase bits outside the kernel's class.
const OUTSIDE: u32 = phase::REACTION | phase::HIT_MODIFIER | phase::TARGETS_OTHERS | phase::GENERAL;

/// Most copies one hero can try to make in one phase (every effect of every clause).
const MAX_COPY_TRIES: usize = MAX_CLAUSES * MAX_EFFECTS;

/// `origin` of a class that does not hold its team's original hero.
const NO_ORIGIN: u32 = u32::MAX;

/// Whether [`DataKernel`] can play these loadouts. A class that gives allies gifts
/// ([`phase::ALLY_GIFT`]) reacts to nothing else.
///
/// Assassin's Game's rule ([`phase::NEXT_OPPONENT`]), Sniper's aim ([`phase::SHOT`]),
/// Parasitic Strain's theft ([`phase::STEAL`]) and Piercing Blow's damage ([`phase::STRIKE`])
/// single out one member of a class at a time: they play in battles where nothing else tells
/// members apart (no reactions, taxes or gifts, no count of the hits each took).
pub fn in_kernel_class(builds: &[Loadout]) -> bool {
    let phases = builds.iter().fold(0, |p, b| p | b.phases);
    builds.iter().all(|b| {
        b.phases & OUTSIDE == 0
            && (b.phases & phase::ALLY_GIFT == 0 || b.phases & phase::SELF_REACTION == 0)
    }) && (phases & SINGLES_ONE == 0 || phases & NOT_BESIDE_SINGLING == 0)
        && (phases & phase::COPY_ON_ATTACKED == 0 || phases & NOT_BESIDE_COPYING == 0)
}

/// What copies made on being attacked ([`phase::COPY_ON_ATTACKED`]) do not play beside on the
/// fast path: whatever splits a class inside the action phase (the copies wait by row until it
/// ends) or singles a member out, taxes, gifts and hit counts (a copy would inherit them part-way
/// through an attack).
const NOT_BESIDE_COPYING: u32 =
    SINGLES_ONE | phase::SELF_HIT | phase::TAX_ON_DAMAGE | phase::ALLY_GIFT | phase::HITS_TAKEN;

/// Clauses that single out one member of another class ([`in_kernel_class`]).
const SINGLES_ONE: u32 = phase::NEXT_OPPONENT | phase::SHOT | phase::STEAL | phase::STRIKE;

/// What the clauses that single out one member do not play beside on the fast path (see
/// [`in_kernel_class`]).
const NOT_BESIDE_SINGLING: u32 = phase::SELF_REACTION
    | phase::SELF_HIT
    | phase::TAX_ON_DAMAGE
    | phase::ALLY_GIFT
    | phase::HITS_TAKEN;

/// One table of classes: struct-of-arrays, `capacity` slots, the first `len` live.
#[derive(Clone, Debug)]
struct Table {
    energy: Vec<i32>,
    defence: Vec<i32>,
    prevention: Vec<i32>,
    team: Vec<u16>,
    /// Heroes in the class (always 1 when played hero by hero).
    count: Vec<u32>,
    /// Where the team's original hero stands among the class's members, or [`NO_ORIGIN`].
    origin: Vec<u32>,
    /// This round: bit `j` set when use-order item `j` is planned (AR-3); costed powers
    /// among them (AR-9).
    plan: Vec<u16>,
    used: Vec<u8>,
    /// This round: damage per hit of the attack.
    hit: Vec<i32>,
    once_game: Vec<u16>,
    once_round: Vec<u16>,
    counters: Vec<[i32; MAX_HERO_COUNTERS]>,
    /// Attack hits aimed at each member this round and last round (AR-28), kept only when a
    /// clause reads `hits_taken_last_round` ([`phase::HITS_TAKEN`]): every member of a target
    /// class takes the same hits, so it is the class's.
    hits_round: Vec<i32>,
    hits_last: Vec<i32>,
    /// The largest tax taken (AR-31), kept only in battles with a tax
    /// ([`phase::TAX_ON_DAMAGE`]): taken in the action phase, paid by the next round's plan,
    /// then cleared. Nothing between the two reads or sets it, so one column serves as the
    /// general path's `tax_next` and `tax_now` (a copy inherits it as it stands, as there).
    tax: Vec<i32>,
    len: usize,
    /// Changes whenever rows move (a split, a rebuild): what was learnt of where rows stand
    /// holds while it is unchanged ([`DataKernel::own_rows`]).
    shape: u64,
}

impl Table {
    fn with_capacity(c: usize) -> Table {
        Table {
            energy: vec![0; c],
            defence: vec![0; c],
            prevention: vec![0; c],
            team: vec![0; c],
            count: vec![0; c],
            origin: vec![NO_ORIGIN; c],
            plan: vec![0; c],
            used: vec![0; c],
            hit: vec![0; c],
            once_game: vec![0; c],
            once_round: vec![0; c],
            counters: vec![[0; MAX_HERO_COUNTERS]; c],
            hits_round: vec![0; c],
            hits_last: vec![0; c],
            tax: vec![0; c],
            len: 0,
            shape: 0,
        }
    }

    fn capacity(&self) -> usize {
        self.energy.len()
    }

    /// Appends row `i` of `from` whole: a copy inherits everything (AR-11).
    #[inline]
    fn push_row(&mut self, from: &Table, i: usize) {
        let k = self.len;
        self.energy[k] = from.energy[i];
        self.defence[k] = from.defence[i];
        self.prevention[k] = from.prevention[i];
        self.team[k] = from.team[i];
        self.count[k] = from.count[i];
        self.origin[k] = from.origin[i];
        self.plan[k] = from.plan[i];
        self.used[k] = from.used[i];
        self.hit[k] = from.hit[i];
        self.once_game[k] = from.once_game[i];
        self.once_round[k] = from.once_round[i];
        self.counters[k] = from.counters[i];
        self.hits_round[k] = from.hits_round[i];
        self.hits_last[k] = from.hits_last[i];
        self.tax[k] = from.tax[i];
        self.len = k + 1;
    }

    /// Appends a copy of row `i` of `from` (AR-11), with `energy` instead of its own when given
    /// (`copy_self = V`).
    #[inline]
    fn push_copy(&mut self, from: &Table, i: usize, energy: Option<i32>) {
        self.push_row(from, i);
        if let Some(e) = energy {
            self.energy[self.len - 1] = e;
        }
    }

    /// Makes room for `extra` more rows right after row `i`, each a copy of it (the rows after
    /// move down): a class splitting into runs of its members, in member order.
    fn split(&mut self, i: usize, extra: usize) {
        let (n, to) = (self.len, i + 1 + extra);
        macro_rules! shift {
            ($($col:ident),*) => {$(
                self.$col.copy_within(i + 1..n, to);
                let v = self.$col[i];
                self.$col[i + 1..to].fill(v);
            )*};
        }
        shift!(
            energy, defence, prevention, team, count, origin, plan, used, hit, once_game,
            once_round, counters, hits_round, hits_last, tax
        );
        self.len = n + extra;
        self.shape += 1;
    }

    /// One hit of `damage` on each member of row `j` (AR-5): its Defence absorbs first, then
    /// its prevention; returns what reaches Energy (not yet taken).
    #[inline]
    fn absorb(&mut self, j: usize, damage: i32) -> i32 {
        let by_defence = damage.min(self.defence[j]);
        self.defence[j] -= by_defence;
        let rest = damage - by_defence;
        let by_prevention = if rest > 0 {
            rest.min(self.prevention[j])
        } else {
            0
        };
        self.prevention[j] -= by_prevention;
        rest - by_prevention
    }

    /// What a reaction of the holder alone can read or change of row `i` (its Energy, Defence,
    /// prevention, limits and counters): the same before and after a hit, the row is at a
    /// fixed point and every further equal hit does the same.
    #[inline]
    fn reacting_state(&self, i: usize) -> (i32, i32, i32, u16, u16, [i32; MAX_HERO_COUNTERS]) {
        (
            self.energy[i],
            self.defence[i],
            self.prevention[i],
            self.once_round[i],
            self.once_game[i],
            self.counters[i],
        )
    }

    /// Whether row `i` and row `j` of `other` hold heroes alike in every piece of state.
    #[inline]
    fn alike(&self, i: usize, other: &Table, j: usize) -> bool {
        self.energy[i] == other.energy[j]
            && self.team[i] == other.team[j]
            && self.defence[i] == other.defence[j]
            && self.prevention[i] == other.prevention[j]
            && self.plan[i] == other.plan[j]
            && self.used[i] == other.used[j]
            && self.hit[i] == other.hit[j]
            && self.once_game[i] == other.once_game[j]
            && self.once_round[i] == other.once_round[j]
            && self.counters[i] == other.counters[j]
            && self.hits_round[i] == other.hits_round[j]
            && self.hits_last[i] == other.hits_last[j]
            && self.tax[i] == other.tax[j]
    }
}

/// How many copies each member of a class made in one phase, members taking their turns one
/// after another (AR-15: a copy is made while alive heroes plus waiting copies are under
/// capacity): the first `skip` members made none, the next `full` all `tries`, the next one
/// `part`, every later one `tail`. (A member that falls in its turn frees its place after its
/// copies: with no room left the first makes none and frees one, and `tail` is 1.)
#[derive(Clone, Copy, Debug, Default)]
struct Made {
    members: u32,
    tries: u32,
    skip: u32,
    full: u32,
    part: u32,
    tail: u32,
}

impl Made {
    /// `members` alike, each trying `tries` copies with `room` places left before the first,
    /// each falling after its copies when `fall`.
    fn settle(members: u32, tries: u32, room: i64, fall: bool) -> Made {
        let mut m = Made {
            members,
            tries,
            ..Made::default()
        };
        let mut room = room;
        if room <= 0 && fall {
            // (Alive heroes and waiting copies never exceed capacity: room is 0 here.)
            m.skip = 1;
            room += 1;
        }
        let (c, e) = ((members - m.skip.min(members)) as i64, tries as i64);
        if room <= 0 || e == 0 || c == 0 {
            return m;
        }
        // Each member that makes all its copies uses `e` places and frees one if it falls.
        let step = e - fall as i64;
        let full = if room >= c * e || (step == 0 && room >= e) {
            c
        } else if room < e {
            0
        } else {
            ((room - e) / step + 1).min(c)
        };
        m.full = full as u32;
        if full < c {
            let left = room - full * step;
            m.part = left.clamp(0, e) as u32;
            // After the partial member the room is what its fall freed: one copy each.
            m.tail = (fall && m.part > 0) as u32;
        }
        m
    }

    /// Copies member `j` made.
    #[inline]
    fn of(&self, j: u32) -> u32 {
        if j < self.skip {
            return 0;
        }
        let j = j - self.skip;
        if j < self.full {
            self.tries
        } else if j == self.full {
            self.part
        } else {
            self.tail
        }
    }

    /// Copies made by the members before member `j`.
    fn before(&self, j: u32) -> u32 {
        let j = j.min(self.members).saturating_sub(self.skip);
        if j <= self.full {
            j * self.tries
        } else {
            self.full * self.tries + self.part + (j - self.full - 1) * self.tail
        }
    }

    /// Members that made their copy number `t` (0-based): a prefix of the class.
    fn made(&self, t: u32) -> u32 {
        let c = self.members - self.skip.min(self.members);
        let mut k = self.full.min(c);
        if self.full < c {
            k += (t < self.part) as u32 + (c - self.full - 1) * (t < self.tail) as u32;
        }
        k
    }

    fn total(&self) -> u32 {
        self.before(self.members)
    }
}

/// One class's copies of a phase, waiting to join after the phase (AR-11): `pending` rows
/// `first..first + kept` are the copies it made, in the order made, each with how many members
/// made it.
#[derive(Clone, Copy, Debug)]
struct Turn {
    parent: u32,
    first: u32,
    kept: u32,
    made: Made,
    /// The first copy's id; the rest follow in the order made (member by member).
    id: HeroId,
}

/// What Sniper's kind of passives of a class say this round ([`DataKernel::shot`]).
#[derive(Clone, Copy, Debug)]
struct Shot {
    /// Its attack hits only the first opponent in initiative order.
    first: bool,
    /// The percentage after Defence (AR-40).
    pct: i32,
    /// An undefended target is eliminated outright (AR-40).
    execute: bool,
    /// It does not attack this round.
    no_attack: bool,
}

/// Per-battle counters the phases share.
struct Tally {
    teams_alive: u32,
    alive: u32,
    /// Heroes in the table's rows, alive or not yet compacted away.
    in_table: u32,
    round_deaths: u32,
    lost_energy: bool,
    hits: u64,
    ops: u64,
    round: i32,
    heroes_at_start: i32,
    capped: bool,
    next_id: HeroId,
    copies: usize,
    /// Classes merge (false: played hero by hero).
    merge: bool,
    /// Attack hits taken are counted ([`Table::hits_round`]).
    count_hits: bool,
    /// The class whose turn it is: its first copy's `pending` row, and the room left when it
    /// made that copy.
    turn_first: usize,
    turn_room: i64,
}

/// Scratch for battles, reused from one to the next.
#[derive(Clone, Debug)]
pub struct DataKernel {
    front: Table,
    back: Table,
    /// Copies made in the phase under way, by class turn ([`Turn`]).
    pending: Table,
    turns: Vec<Turn>,
    team_alive: Vec<u32>,
    round_deaths: Vec<u32>,
    sort: Vec<u16>,
    /// Each entered row's hit damage (AR-2), for powerless battles: their rows never move.
    hit: Vec<i32>,
    /// Play every hero as its own row.
    per_hero: bool,
    /// Class operations (a class hitting a class) over every battle played, for throughput.
    ops: u64,
    /// Hooked battles only: every hero's id in table order, and the table expanded hero by
    /// hero, for the hook's view.
    ids: Vec<HeroId>,
    ids_back: Vec<HeroId>,
    view_team: Vec<u16>,
    view_energy: Vec<i32>,
    /// The general path's scratch, made by the first battle that needs it.
    general: Option<Box<GeneralKernel>>,
    /// This battle holds a reaction of the holder alone ([`phase::SELF_REACTION`]): attacks
    /// then land hit by hit on the classes that react.
    any_self_reaction: bool,
    /// This battle holds copies made on being attacked ([`phase::COPY_ON_ATTACKED`]): attacks
    /// then sweep their first hits over every target class first ([`Self::attack_copying`]).
    any_copy: bool,
    /// An attack of a class with `hit` reactions ([`phase::SELF_HIT`]): for each target class,
    /// how many of the attacker's members landed their hit on it (a prefix of them) and its
    /// heroes.
    landed: Vec<(u32, u32)>,
    /// Classes split by their members' hits ([`Self::land_hits`]), over every battle played.
    splits: u64,
    /// Per team: the Energy each ally gains from one of its heroes' gifting hits
    /// ([`phase::ALLY_GIFT`]), 0 for a team that gives none.
    gift: Vec<i64>,
    /// This battle holds allies' gifts.
    any_gift: bool,
    /// Teams whose classes an attack has taken already (allies' gifts: all at once).
    gift_done: Vec<bool>,
    /// Per row: how many of an attacker class's members landed their hit on a gifting class.
    gift_landing: Vec<u32>,
    /// A gift could saturate part-way through a class (AR-18: members would end apart): the
    /// battle is replayed on the general path, which plays it hero by hero.
    bail: bool,
    /// The last battle was played by the general path (its heroes are read there).
    bailed: bool,
    /// This round an alive holder of Assassin's Game made its plan ([`phase::NEXT_OPPONENT`]):
    /// every attack hits only the next opponent.
    next_only: bool,
    /// Rows inserted before the acting class in its turn (a class it hit split in front of
    /// it): the class, and the rows after it, moved down by this many.
    moved: usize,
    /// The rows around one class that hold its team, and the table's shape then
    /// ([`Self::own_rows`]).
    own: Option<(u64, u16, usize, usize)>,
}

impl DataKernel {
    /// Scratch for battles of up to `capacity` heroes (AR-15): the only allocation.
    pub fn new(capacity: usize) -> DataKernel {
        let capacity = capacity.max(1);
        DataKernel {
            front: Table::with_capacity(capacity),
            back: Table::with_capacity(capacity),
            pending: Table::with_capacity(capacity + MAX_COPY_TRIES),
            turns: Vec::with_capacity(capacity),
            hit: vec![0; capacity],
            team_alive: Vec::new(),
            round_deaths: Vec::new(),
            sort: Vec::new(),
            per_hero: false,
            ops: 0,
            ids: Vec::new(),
            ids_back: Vec::new(),
            view_team: Vec::new(),
            view_energy: Vec::new(),
            general: None,
            any_self_reaction: false,
            any_copy: false,
            landed: Vec::with_capacity(capacity),
            splits: 0,
            gift: Vec::new(),
            any_gift: false,
            gift_done: Vec::new(),
            gift_landing: vec![0; capacity],
            bail: false,
            bailed: false,
            next_only: false,
            moved: 0,
            own: None,
        }
    }

    /// The same kernel playing every hero as its own row: what the classes are measured
    /// against (same results, one row per hero).
    pub fn per_hero(capacity: usize) -> DataKernel {
        DataKernel {
            per_hero: true,
            ..DataKernel::new(capacity)
        }
    }

    pub fn capacity(&self) -> usize {
        self.front.capacity()
    }

    /// Class operations (one class's attack landing on one class) over every battle this
    /// kernel played on its fast path: the work done, where `hits` is the work represented.
    pub fn ops(&self) -> u64 {
        self.ops
    }

    /// Classes split because their members' attacks landed different hits (a target class fell
    /// part-way through them) over every battle played: how often `hit` reactions cost rows.
    pub fn splits(&self) -> u64 {
        self.splits
    }

    /// Whether the last battle was handed to the general path part-way (a gift that could
    /// saturate inside a class, [`phase::ALLY_GIFT`]): it was played there from its start.
    pub fn bailed(&self) -> bool {
        self.bailed
    }

    /// The general path's kernel, of the same capacity (made on first use).
    pub fn general(&mut self) -> &mut GeneralKernel {
        let capacity = self.capacity();
        self.general
            .get_or_insert_with(|| Box::new(GeneralKernel::new(capacity)))
    }

    /// Heroes of `team` alive at the end of the last battle.
    pub fn team_alive(&self, team: u16) -> u32 {
        match &self.general {
            Some(g) if self.bailed => g.team_alive(team),
            _ => self.team_alive[team as usize],
        }
    }

    /// Hero `id`'s Energy at the end of the last battle; `None` if it died or never entered.
    /// Only originals are followed (they have the ids of their roster positions).
    pub fn hero_energy(&self, id: HeroId) -> Option<i32> {
        if let Some(g) = self.general.as_ref().filter(|_| self.bailed) {
            return g.hero_energy(id);
        }
        let f = &self.front;
        (0..f.len)
            .find(|&i| f.team[i] as HeroId == id && f.origin[i] != NO_ORIGIN && f.energy[i] > 0)
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
            self.gift.resize(teams, 0);
            self.gift_done.resize(teams, false);
            self.sort.reserve(teams);
        }
        self.bail = false;
        self.bailed = false;
        // (A battle that left for the general path part-way may have left its copies' turns.)
        self.turns.clear();
        self.own = None;
        rules::initiative_order(&initiative[..teams], &mut self.sort);
        let mut tally = Tally {
            teams_alive: 0,
            alive: 0,
            in_table: 0,
            round_deaths: 0,
            lost_energy: false,
            hits: 0,
            ops: 0,
            round: 0,
            heroes_at_start: 0,
            capped: false,
            next_id: teams as HeroId,
            copies: 0,
            merge: false,
            count_hits: false,
            turn_first: 0,
            turn_room: 0,
        };
        let phases = builds.iter().fold(0u32, |p, b| p | b.phases);
        self.any_self_reaction = phases & phase::SELF_REACTION != 0;
        self.any_copy = phases & phase::COPY_ON_ATTACKED != 0;
        self.any_gift = phases & phase::ALLY_GIFT != 0;
        if self.any_gift {
            for (t, b) in builds.iter().enumerate() {
                self.gift[t] = if b.phases & phase::ALLY_GIFT != 0 {
                    gift_per_hit(cat, b)
                } else {
                    0
                };
            }
        }
        // Without powers nothing reads a row's Defence, limits or counters, and every class is
        // one hero: the battle's setup writes only what the powerless rounds read.
        if phases != 0 {
            // Battle-start clauses read `eliminated_this_round` before any round resets these:
            // the last battle's deaths must not show (they wrapped it to -1).
            self.round_deaths[..teams].fill(0);
            tally.merge =
                !self.per_hero && builds.iter().all(|b| b.phases & phase::SINGLES_OUT == 0);
            tally.count_hits = phases & phase::HITS_TAKEN != 0;
        }
        let f = &mut self.front;
        f.len = 0;
        self.ids.clear();
        for &t in &self.sort {
            let b = &builds[t as usize];
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
            f.team[k] = t;
            f.count[k] = 1;
            f.origin[k] = 0;
            self.hit[k] = b.damage.max(0);
            if phases != 0 {
                f.defence[k] = 0;
                f.prevention[k] = 0;
                f.used[k] = 0;
                f.once_game[k] = 0;
                f.once_round[k] = 0;
                f.counters[k] = b.counters;
                f.hits_round[k] = 0;
                f.hits_last[k] = 0;
                f.tax[k] = 0;
            }
            f.len = k + 1;
            if H::ENABLED {
                self.ids.push(t as HeroId);
            }
            self.team_alive[t as usize] = 1;
            tally.teams_alive += 1;
            tally.alive += 1;
        }
        tally.in_table = tally.alive;
        // AR-34: at battle start `heroes_alive` is the heroes entering.
        tally.heroes_at_start = tally.alive as i32;
        if phases & phase::BATTLE_START != 0 {
            self.phase::<H>(cat, builds, &mut tally, |b| {
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
                if tally.count_hits {
                    let f = &mut self.front;
                    f.hits_last[..n].copy_from_slice(&f.hits_round[..n]);
                    f.hits_round[..n].fill(0);
                }
            }
            if phases & phase::ROUND_START != 0 {
                self.phase::<H>(cat, builds, &mut tally, |b| {
                    (&b.round_start, b.n_round_start)
                });
            }
            if phases == 0 {
                // Rounds in which every hero keeps its plan and nobody can fall end alike, so
                // they are played together (same Energies, hits and rounds as one by one) unless
                // a hook watches each round. (Without powers every class is one hero.)
                let cost = cat.rules.attack_cost;
                let f = &mut self.front;
                let (energy, hit) = (&mut f.energy[..f.len], &self.hit[..f.len]);
                let damage = |i: usize| hit[i];
                let ahead = if H::ENABLED {
                    0
                } else {
                    powerless::rounds_ahead(cost, energy, damage, max_rounds - (rounds - 1))
                };
                if ahead >= 2 {
                    tally.hits += powerless::play_rounds(cost, energy, damage, ahead);
                    tally.ops += energy.len() as u64;
                    tally.lost_energy = true;
                    rounds += ahead - 1;
                } else {
                    self.powerless_round(cat.rules.attack_cost, &mut tally);
                }
            } else {
                self.plan(cat, builds, &tally, phases);
                if phases & phase::TAX_ON_DAMAGE != 0 {
                    // Paid (AR-31): this round's actions take the next round's.
                    let n = self.front.len;
                    self.front.tax[..n].fill(0);
                }
                self.actions::<H>(cat, builds, &mut tally);
                if self.bail {
                    break;
                }
            }
            if phases & phase::ROUND_END != 0 {
                self.phase::<H>(cat, builds, &mut tally, |b| (&b.round_end, b.n_round_end));
            }
            // AR-13, after the end-of-round powers (their copies, joined already, take part).
            quiet = if tally.lost_energy { 0 } else { quiet + 1 };
            if cat.rules.stalemate_after(quiet) {
                quiet = 0;
                self.stalemate(&mut tally);
            }
            // Dead rows may stay (every phase skips Energy <= 0) until they hold half the
            // table's heroes; a hook always sees a compacted table.
            let dead = tally.in_table - tally.alive;
            if dead > 0 && (H::ENABLED || (phases != 0 && dead * 2 > tally.in_table)) {
                self.rebuild::<H>(&mut tally);
                if phases == 0 {
                    // Powerless rows read their hits from `self.hit` by row: after a (hooked)
                    // compaction the rows moved, so their hits move with them.
                    for k in 0..self.front.len {
                        self.hit[k] = builds[self.front.team[k] as usize].damage.max(0);
                    }
                }
            }
            if H::ENABLED {
                self.view_round(rounds, hook);
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
        if self.bail {
            // Nothing of this battle's table is kept: the general path plays it from the start.
            hook.restart();
            let outcome = self
                .general()
                .run(cat, builds, initiative, max_rounds, hook);
            self.bailed = true;
            return outcome;
        }
        if end == EndReason::Elimination {
            winner = (0..teams as u16).find(|&t| self.team_alive[t as usize] > 0);
        }
        self.ops += tally.ops;
        Outcome {
            winner,
            rounds,
            capped: tally.capped,
            end,
            hits: tally.hits,
            survivors: tally.alive,
        }
    }

    /// The hook's view: the table expanded hero by hero.
    fn view_round<H: RoundHook>(&mut self, round: u32, hook: &mut H) {
        let f = &self.front;
        self.view_team.clear();
        self.view_energy.clear();
        for i in 0..f.len {
            for _ in 0..f.count[i] {
                self.view_team.push(f.team[i]);
                self.view_energy.push(f.energy[i]);
            }
        }
        debug_assert_eq!(self.ids.len(), self.view_team.len());
        hook.round_end(
            round,
            RoundView {
                id: &self.ids,
                team: &self.view_team,
                energy: &self.view_energy,
            },
        );
    }

    /// A whole round when no hero holds a power ([`powerless::play_round`]).
    #[inline(always)]
    fn powerless_round(&mut self, cost: i32, tally: &mut Tally) {
        let f = &mut self.front;
        let n = f.len;
        let hit = &self.hit[..n];
        let (team_alive, round_deaths) = (&mut self.team_alive, &mut self.round_deaths);
        let (hits, lost) = powerless::play_round(
            cost,
            &mut f.energy[..n],
            &mut f.plan[..n],
            &f.team[..n],
            |i| hit[i],
            |t| die(t, 1, team_alive, round_deaths, tally),
        );
        tally.hits += hits;
        tally.ops += hits;
        tally.lost_energy |= lost;
    }

    /// A triggered phase: each alive class in initiative order fires its clauses from `list`, in
    /// the order held (AR-6). Copies wait in `pending` and join after the phase (AR-11).
    #[inline]
    fn phase<H: RoundHook>(
        &mut self,
        cat: &Catalogue,
        builds: &[Loadout],
        tally: &mut Tally,
        list: impl Fn(&Loadout) -> (&[u8; MAX_CLAUSES], u8),
    ) {
        tally.copies = 0;
        self.pending.len = 0;
        let n = self.front.len;
        for i in 0..n {
            let b = &builds[self.front.team[i] as usize];
            let (l, k) = list(b);
            if k == 0 || self.front.energy[i] <= 0 {
                continue;
            }
            tally.turn_first = self.pending.len;
            for &c in &l[..k as usize] {
                if self.front.energy[i] <= 0 {
                    break; // AR-5
                }
                let hc = &b.clauses[c as usize];
                self.fire(cat, b, hc, i, tally);
            }
            self.settle_copies(i, tally);
        }
        if tally.copies > 0 {
            self.join::<H>(tally);
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
            Quantity::HitsTakenLastRound => f.hits_last[i],
            // `Quantity::fast_path_tracks` is false for each of these, so every clause reading
            // one, anywhere, is filed `phase::GENERAL` and its loadout never plays here.
            Quantity::DamageTaken
            | Quantity::SummonsAlive
            | Quantity::PlayersAlive
            | Quantity::Planned
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
            // A limit per other hero belongs to reactions, filed `phase::GENERAL` (AR-68).
            Limit::OncePerHeroPerRound => unreachable!("reactions never play on the fast path"),
        }
    }

    /// Fires one clause of class `i` on itself (the kernel's class): once for all its members,
    /// who are alike and would each do the same.
    fn fire(&mut self, cat: &Catalogue, b: &Loadout, hc: &HeldClause, i: usize, tally: &mut Tally) {
        let c = cat.clause(hc);
        if !self.may_fire(c, hc, i) {
            return;
        }
        if c.when != When::Use
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
        let burn = c.cost.burn.eval(|q| self.read(b, hc, i, tally, q));
        if c.when == When::Use {
            if burn > 0 && !self.lose(i, burn, tally) {
                return; // AR-24: burnt out
            }
        } else if burn > 0 {
            // AR-38: a triggered clause's Burn is paid when it fires if the holder lives
            // through it; otherwise the clause does not fire (its limit is spent all the same).
            if self.front.energy[i] <= burn {
                return;
            }
            self.lose(i, burn, tally);
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
                        self.lose(i, v.saturating_neg(), tally);
                    } else {
                        f.energy[i] = f.energy[i].saturating_add(v);
                    }
                }
                EffectKind::SetEnergy => {
                    let now = f.energy[i];
                    if v < now {
                        self.lose(i, now.saturating_sub(v), tally);
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
                EffectKind::CopySelf | EffectKind::CopyWith => {
                    if e.kind == EffectKind::CopyWith && v <= 0 {
                        continue; // no copy is made at Energy <= 0
                    }
                    let energy = (e.kind == EffectKind::CopyWith).then_some(v);
                    // AR-15: alive heroes plus copies waiting to join stay within capacity.
                    let tried = self.pending.len - tally.turn_first;
                    let room = f.capacity() as i64 - tally.alive as i64 - tally.copies as i64;
                    if f.count[i] == 1 {
                        // One hero: the room as it is now (its attack may have freed some
                        // since its last copy).
                        if room - (tried as i64) > 0 {
                            self.pending.push_copy(f, i, energy);
                        } else {
                            tally.capped = true;
                        }
                    } else if tried < MAX_COPY_TRIES {
                        // The copy as it is now; how many members made it is settled when the
                        // class's turn ends (`settle_copies`). Only a triggered phase copies a
                        // class (phase::SINGLES_OUT), where the room changes within its turn
                        // only by its own copies and falls.
                        if tried == 0 {
                            tally.turn_room = room;
                        }
                        self.pending.push_copy(f, i, energy);
                    }
                }
                _ => unreachable!("outside the kernel's class (in_kernel_class)"),
            }
        }
    }

    /// Ends class `i`'s turn in a phase: each of its members, in turn, made the copies the class
    /// tried while there was room (AR-15), a member that fell in its turn freeing its place
    /// after them. Copies nobody made are dropped.
    fn settle_copies(&mut self, i: usize, tally: &mut Tally) {
        let first = tally.turn_first;
        let tries = self.pending.len - first;
        if tries == 0 {
            return;
        }
        let fell = self.front.energy[i] <= 0;
        let c = self.front.count[i];
        // One hero kept only the copies it made (`fire`).
        let room = if c == 1 { i64::MAX } else { tally.turn_room };
        let made = Made::settle(c, tries as u32, room, fell);
        let total = made.total();
        tally.capped |= (total as u64) < made.members as u64 * tries as u64;
        let mut kept = 0;
        for t in 0..tries {
            let k = made.made(t as u32);
            self.pending.count[first + t] = k;
            self.pending.origin[first + t] = NO_ORIGIN;
            kept += (k > 0) as usize;
        }
        self.pending.len = first + kept;
        if total > 0 {
            self.turns.push(Turn {
                parent: i as u32,
                first: first as u32,
                kept: kept as u32,
                made,
                id: tally.next_id,
            });
            tally.copies += total as usize;
            tally.next_id += total as HeroId;
        }
    }

    /// An Energy loss that is not a hit (AR-29); returns whether the class is still alive.
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
                f.count[i],
                &mut self.team_alive,
                &mut self.round_deaths,
                tally,
            );
            return false;
        }
        true
    }

    /// AR-3, AR-33: each class's plan from its budget after the start-of-round phase; then the
    /// attack's damage per hit with the passive bonuses whose conditions hold (AR-9, AR-25).
    fn plan(&mut self, cat: &Catalogue, builds: &[Loadout], tally: &Tally, phases: u32) {
        let n = self.front.len;
        self.next_only = false;
        for i in 0..n {
            let b = &builds[self.front.team[i] as usize];
            if b.phases & (phase::USE | phase::PASSIVE) == 0 {
                // Nothing but the attack in the use order and no bonus: the common case. (A
                // tax, AR-31, is 0 in battles without one.)
                let attack_fits = self.front.energy[i] - self.front.tax[i] >= cat.rules.attack_cost;
                self.front.plan[i] = attack_fits as u16 * first_attack_bit(b);
                self.front.used[i] = 0;
                self.front.hit[i] = b.damage.max(0);
                continue;
            }
            let mut budget = self.front.energy[i] as i64 - self.front.tax[i] as i64;
            let mut mask = 0u16;
            let mut used = 0u8;
            // AR-40: `no_attack` is read before the plan is made.
            let no_attack = b.phases & phase::SHOT != 0
                && self.shot(cat, b, i, tally).is_some_and(|s| s.no_attack);
            // While planning, `powers_used` is still last round's count, as in the reference
            // (AR-9: the plan's conditions and costs cannot see the plan being made).
            for (j, &u) in b.uses().iter().enumerate() {
                if u == NO_CLAUSE && no_attack {
                    continue; // not planned, and it costs nothing
                }
                let cost = if u == NO_CLAUSE {
                    cat.rules.attack_cost as i64
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
                    // AR-24: a Spend or Burn below 0 costs 0 (it never enlarges the budget).
                    c.cost.spend.eval(|q| self.read(b, hc, i, tally, q)).max(0) as i64
                        + c.cost.burn.eval(|q| self.read(b, hc, i, tally, q)).max(0) as i64
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
                        // A first-hit bonus is outside the kernel's class (phase::GENERAL).
                        if e.kind == EffectKind::AttackBonus {
                            bonus += e.value.eval(|q| self.read(b, hc, i, tally, q)) as i64;
                        } else if e.kind == EffectKind::EveryoneAttacksOnly
                            && self.front.energy[i] > 0
                        {
                            // AR-39: the rule holds for the round its holder plans in.
                            self.next_only = true;
                        }
                    }
                }
            }
            self.front.hit[i] = (b.damage as i64 + bonus).clamp(0, i32::MAX as i64) as i32;
        }
    }

    /// The action phase: each alive class walks its plan in initiative order (AR-6), its
    /// members one after another; as none of its clauses reads what another member's attack
    /// changes (phase::SINGLES_OUT), the class walks it once and attacks `count` times. A `use`
    /// clause skipped at planning time (its conditions or limit) is skipped here too.
    fn actions<H: RoundHook>(&mut self, cat: &Catalogue, builds: &[Loadout], tally: &mut Tally) {
        tally.copies = 0;
        self.pending.len = 0;
        let mut i = 0;
        // (A class that splits in its attack adds rows after it: the length is read each time.)
        while i < self.front.len {
            if self.front.energy[i] <= 0 {
                i += 1;
                continue; // AR-5
            }
            tally.turn_first = self.pending.len;
            self.moved = 0;
            let b = &builds[self.front.team[i] as usize];
            let plan = self.front.plan[i];
            if b.phases & phase::STEAL != 0 && plans(cat, b, plan, steal_rule) {
                self.steal_turn(i);
            }
            if b.phases & phase::STRIKE != 0 && plans(cat, b, plan, strike_rule) {
                self.split_members(i);
            }
            let rows = self.walk(cat, builds, i, self.front.plan[i], tally);
            i += self.moved;
            if rows == 1 {
                self.settle_copies(i, tally);
            }
            i += rows;
        }
        if tally.copies > 0 {
            self.join::<H>(tally);
        }
    }

    /// Class `i` walks the plan items in `mask`, in order. When its attack splits it (its
    /// members landed different hits, [`Self::land_hits`]), each run of members walks the rest
    /// on its own row. Returns the rows the class now holds. (A class that copies itself in its
    /// turn is one hero, phase::SINGLES_OUT, and never splits.)
    fn walk(
        &mut self,
        cat: &Catalogue,
        builds: &[Loadout],
        mut i: usize,
        mut mask: u16,
        tally: &mut Tally,
    ) -> usize {
        let b = &builds[self.front.team[i] as usize];
        while mask != 0 {
            let j = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if self.front.energy[i] <= 0 {
                break; // AR-5: a hero that burnt out stops
            }
            let u = b.uses[j];
            if u != NO_CLAUSE {
                let hc = &b.clauses[u as usize];
                if b.phases & phase::STEAL != 0 && steal_rule(cat.clause(hc)) {
                    let moved = self.moved;
                    self.steal(cat, hc, i, tally);
                    i += self.moved - moved;
                } else if b.phases & phase::STRIKE != 0 && strike_rule(cat.clause(hc)) {
                    let moved = self.moved;
                    self.strike(cat, b, hc, i, tally);
                    i += self.moved - moved;
                } else {
                    self.fire(cat, b, hc, i, tally);
                }
                continue;
            }
            let moved = self.moved;
            let runs = self.attack(cat, builds, i, tally);
            // (Only an attack that singles out a hero splits a class in front of this one, and
            // it never splits this one: `runs` is then 1.)
            i += self.moved - moved;
            if runs > 1 {
                let (mut r, mut end) = (i, i + runs);
                while r < end {
                    let k = self.walk(cat, builds, r, mask, tally);
                    r += k;
                    end += k - 1;
                }
                return end - i;
            }
        }
        1
    }

    /// The attacks of class `i`'s members, one after another: each hits every alive hero of the
    /// other teams, in order (AR-1, AR-5). A target class takes its `times` hits in one step:
    /// what k equal hits take from Defence, then prevention, then Energy is what their sum takes
    /// (each layer absorbs first), and a hero that falls takes no more hits.
    /// Returns the rows the class holds after it (see [`Self::land_hits`]).
    #[inline(always)]
    fn attack(
        &mut self,
        cat: &Catalogue,
        builds: &[Loadout],
        i: usize,
        tally: &mut Tally,
    ) -> usize {
        let b = &builds[self.front.team[i] as usize];
        let hit_reacts = b.phases & phase::SELF_HIT != 0;
        let tax = if b.phases & phase::TAX_ON_DAMAGE != 0 {
            tax_on_damage(cat, b)
        } else {
            0
        };
        self.landed.clear();
        if b.phases & phase::SHOT != 0
            && let Some(shot) = self.shot(cat, b, i, tally).filter(|s| s.first)
        {
            self.attack_first(i, tally, shot);
            return 1;
        }
        if self.next_only {
            self.attack_next(i, tally);
            return 1;
        }
        if self.any_gift {
            self.attack_gifting(cat, builds, i, tally, hit_reacts, tax);
        } else if self.any_copy {
            self.attack_copying(cat, builds, i, tally);
        } else if self.any_self_reaction {
            self.attack_reacting(cat, builds, i, tally, hit_reacts, tax);
        } else {
            let n = self.front.len;
            let team = self.front.team[i];
            // A team's classes stand together (copies join after their originals), and a
            // class attacks all but them: skipped in one step, not row by row.
            let (lo, hi) = self.own_rows(i);
            for j in (0..lo).chain(hi..n) {
                if self.front.team[j] == team || self.front.energy[j] <= 0 {
                    continue;
                }
                let landing = self.attack_class(i, j, self.front.count[i], tally, tax);
                if hit_reacts {
                    self.landed.push((landing, self.front.count[j]));
                }
            }
        }
        if hit_reacts {
            self.land_hits(cat, b, i, tally)
        } else {
            1
        }
    }

    /// Class `i`'s `hit` reactions ([`phase::SELF_HIT`]) for the hits of the attack just made
    /// (`landed`). Each member fires them once per hero it hit (AR-27), and reading nothing a
    /// target or another member changes, a member's reactions depend only on how many heroes it
    /// hit: member `x` hit every class whose landing count is above `x`. Members that hit
    /// alike stay one class; where a target class fell part-way through the class, it splits
    /// into runs of members in order (rows `i..i + runs`, the rows after moving down).
    fn land_hits(&mut self, cat: &Catalogue, b: &Loadout, i: usize, tally: &mut Tally) -> usize {
        let c = self.front.count[i];
        let (mut all, mut split) = (0u64, false);
        for &(l, m) in &self.landed {
            if l > 0 {
                all += m as u64;
                split |= l < c;
            }
        }
        if !split {
            self.fire_hits(cat, b, i, all, tally);
            return 1;
        }
        self.landed.sort_unstable_by_key(|x| x.0);
        let mut runs = 1;
        let mut last = 0;
        for &(l, _) in &self.landed {
            if l > last && l < c {
                runs += 1;
                last = l;
            }
        }
        self.front.split(i, runs - 1);
        self.splits += 1;
        let origin = self.front.origin[i];
        let (mut from, mut k, mut hits) = (0u32, 0usize, all);
        for r in i..i + runs {
            // The classes the members from `from` on no longer hit.
            while k < self.landed.len() && self.landed[k].0 <= from {
                if self.landed[k].0 > 0 {
                    hits -= self.landed[k].1 as u64;
                }
                k += 1;
            }
            let to = self.landed.get(k).map_or(c, |x| x.0.min(c));
            self.front.count[r] = to - from;
            self.front.origin[r] = if origin != NO_ORIGIN && (from..to).contains(&origin) {
                origin - from
            } else {
                NO_ORIGIN
            };
            self.fire_hits(cat, b, r, hits, tally);
            from = to;
        }
        debug_assert_eq!(from, c);
        runs
    }

    /// Class `i`'s `hit` reactions for `hits` hits, in the order held for each hit. Clauses
    /// that read nothing and add a constant (Vampire Fang) take all the hits in one step: `h`
    /// equal additions clamp where one by one they would saturate; a limited clause fires
    /// once.
    fn fire_hits(&mut self, cat: &Catalogue, b: &Loadout, i: usize, hits: u64, tally: &mut Tally) {
        if hits == 0 {
            return;
        }
        let hit_clauses = || {
            b.clause_list(&b.reactions, b.n_reactions)
                .filter(|hc| cat.clause(hc).when == When::Hit)
        };
        let at_once = hit_clauses().all(|hc| {
            let c = cat.clause(hc);
            c.conds().is_empty()
                && c.cost.burn.as_constant() == Some(0)
                && c.effects().iter().all(|e| {
                    e.cond.is_none()
                        && e.value.as_constant().is_some()
                        && matches!(
                            e.kind,
                            EffectKind::AddEnergy
                                | EffectKind::AddDefence
                                | EffectKind::AddPrevention
                                | EffectKind::CounterAdd(_)
                        )
                })
        });
        if !at_once {
            for _ in 0..hits {
                let before = self.front.reacting_state(i);
                for hc in hit_clauses() {
                    self.fire(cat, b, hc, i, tally);
                }
                if self.front.reacting_state(i) == before {
                    break; // a fixed point: the other hits change nothing either
                }
            }
            return;
        }
        for hc in hit_clauses() {
            let c = cat.clause(hc);
            if c.limit != Limit::Unlimited {
                // Fires on the first hit, if at all; its limit stops the rest.
                self.fire(cat, b, hc, i, tally);
                continue;
            }
            for e in c.effects() {
                let v = e.value.as_constant().unwrap_or(0) as i64;
                let sum = |x: i32, lo: i64| {
                    (x as i64)
                        .saturating_add(v.saturating_mul(hits as i64))
                        .clamp(lo, i32::MAX as i64) as i32
                };
                let f = &mut self.front;
                match e.kind {
                    EffectKind::AddEnergy => f.energy[i] = sum(f.energy[i], 0),
                    EffectKind::AddDefence => f.defence[i] = sum(f.defence[i], 0),
                    EffectKind::AddPrevention => f.prevention[i] = sum(f.prevention[i], 0),
                    EffectKind::CounterAdd(k) => {
                        let x = &mut f.counters[i][hc.counter_base as usize + k as usize];
                        *x = sum(*x, i32::MIN as i64);
                    }
                    _ => unreachable!("checked above"),
                }
            }
        }
    }

    /// Class `i`'s members' attacks on the alive class `j` of another team: `times` hits on
    /// each of its members in one step (see [`Self::attack`]).
    /// Returns how many of the attacker's members landed their hit (the first ones). A hit that
    /// takes Energy taxes the class `tax` (its `dealt_damage` taxes, [`phase::TAX_ON_DAMAGE`]).
    #[inline(always)]
    fn attack_class(&mut self, i: usize, j: usize, times: u32, tally: &mut Tally, tax: i32) -> u32 {
        let f = &mut self.front;
        let damage = f.hit[i];
        let e = f.energy[j];
        let m = f.count[j];
        tally.ops += 1;
        if times == 1 {
            tally.hits += m as u64;
            if tally.count_hits {
                f.hits_round[j] += 1;
            }
            let d = f.defence[j];
            let by_defence = damage.min(d);
            f.defence[j] = d - by_defence;
            let rest = damage - by_defence;
            if rest > 0 {
                let p = f.prevention[j];
                let by_prevention = rest.min(p);
                f.prevention[j] = p - by_prevention;
                let to_energy = rest - by_prevention;
                if to_energy > 0 {
                    f.energy[j] = e - to_energy;
                    tally.lost_energy = true;
                    if tax > 0 {
                        f.tax[j] = f.tax[j].max(tax);
                    }
                    if e - to_energy <= 0 {
                        let t = f.team[j];
                        die(t, m, &mut self.team_alive, &mut self.round_deaths, tally);
                    }
                }
            }
            return 1;
        }
        if damage == 0 {
            tally.hits += m as u64 * times as u64;
            if tally.count_hits {
                f.hits_round[j] += times as i32;
            }
            return times;
        }
        let (e, d, p, dmg) = (
            e as i64,
            f.defence[j] as i64,
            f.prevention[j] as i64,
            damage as i64,
        );
        // The hit that makes the sum taken from Energy reach it is the last one landing.
        let landing = ((e + d + p + dmg - 1) / dmg).min(times as i64);
        let sum = landing * dmg;
        let by_defence = sum.min(d);
        let by_prevention = (sum - by_defence).min(p);
        let to_energy = sum - by_defence - by_prevention;
        f.defence[j] = (d - by_defence) as i32;
        f.prevention[j] = (p - by_prevention) as i32;
        f.energy[j] = (e - to_energy) as i32;
        tally.hits += m as u64 * landing as u64;
        if tally.count_hits {
            f.hits_round[j] += landing as i32;
        }
        if to_energy > 0 {
            tally.lost_energy = true;
            if tax > 0 {
                f.tax[j] = f.tax[j].max(tax);
            }
            if e - to_energy <= 0 {
                let t = f.team[j];
                die(t, m, &mut self.team_alive, &mut self.round_deaths, tally);
            }
        }
        landing as u32
    }

    /// [`Self::attack`] in a battle where some class reacts to the hits it takes by itself
    /// ([`phase::SELF_REACTION`]): a reacting target class takes the attacker class's hits one
    /// member's hit at a time (AR-27: its `attacked` clauses as the hit arrives, then Defence,
    /// prevention, Energy, then its `damaged` clauses if it lost Energy and lives), each of its
    /// members alike; the others as [`Self::attack`] takes them.
    fn attack_reacting(
        &mut self,
        cat: &Catalogue,
        builds: &[Loadout],
        i: usize,
        tally: &mut Tally,
        hit_reacts: bool,
        tax: i32,
    ) {
        let n = self.front.len;
        let team = self.front.team[i];
        let damage = self.front.hit[i];
        let times = self.front.count[i];
        for j in 0..n {
            let f = &mut self.front;
            if f.team[j] == team || f.energy[j] <= 0 {
                continue;
            }
            let b = &builds[f.team[j] as usize];
            let m = f.count[j];
            if b.phases & phase::SELF_REACTION == 0 {
                let landing = self.attack_class(i, j, self.front.count[i], tally, tax);
                if hit_reacts {
                    self.landed.push((landing, m));
                }
                continue;
            }
            let landing = self.reacting_row(cat, b, j, damage, times, tally, tax);
            if hit_reacts {
                self.landed.push((landing, m));
            }
        }
    }

    /// [`Self::attack`] in a battle where classes copy themselves on being attacked
    /// ([`phase::COPY_ON_ATTACKED`]). Copies take room that others' falls free (AR-15), so the
    /// order of copies and falls across target classes counts: the attacker's first member hits
    /// every target class in order (AR-6), each class's members copying while there is room and
    /// falling after their copies ([`Made`]); a copying clause fires only at a member's first
    /// hit of the round, so the other members' hits copy nothing and each class takes them at
    /// once. (Nothing in such a battle splits a class: each class's copies wait by its row.)
    fn attack_copying(&mut self, cat: &Catalogue, builds: &[Loadout], i: usize, tally: &mut Tally) {
        // The class's own copies of this turn so far are made before its attack's.
        self.settle_copies(i, tally);
        let team = self.front.team[i];
        let times = self.front.count[i];
        for (from, hits) in [(0, 1), (1, times - 1)] {
            if hits == 0 || from >= times {
                break;
            }
            for j in 0..self.front.len {
                let f = &self.front;
                if f.team[j] == team || f.energy[j] <= 0 {
                    continue;
                }
                let b = &builds[f.team[j] as usize];
                // (Only the first hit can copy.)
                let reacts = if from == 0 {
                    phase::SELF_REACTION | phase::COPY_ON_ATTACKED
                } else {
                    phase::SELF_REACTION
                };
                if b.phases & reacts == 0 {
                    self.attack_class(i, j, hits, tally, 0);
                    continue;
                }
                tally.turn_first = self.pending.len;
                if b.phases & phase::SELF_REACTION == 0 {
                    // Copies alone: they fire as the hit arrives, then it lands as any hit.
                    self.react(cat, b, j, When::Attacked, tally);
                    self.attack_class(i, j, 1, tally, 0);
                } else {
                    self.reacting_row(cat, b, j, self.front.hit[i], hits, tally, 0);
                }
                self.settle_copies(j, tally);
            }
        }
        tally.turn_first = self.pending.len;
    }

    /// A reacting class `j` (holding `b`) takes `times` hits of `damage`, one at a time
    /// ([`Self::attack_reacting`]); returns how many landed.
    #[allow(clippy::too_many_arguments)]
    fn reacting_row(
        &mut self,
        cat: &Catalogue,
        b: &Loadout,
        j: usize,
        damage: i32,
        times: u32,
        tally: &mut Tally,
        tax: i32,
    ) -> u32 {
        let m = self.front.count[j];
        tally.ops += 1;
        let mut landing = 0;
        for t in 0..times {
            if self.front.energy[j] <= 0 {
                break;
            }
            let before = self.front.reacting_state(j);
            // A hit its target's reaction burns out still hit it (the attacker's `hit`).
            landing += 1;
            tally.hits += m as u64;
            if tally.count_hits {
                self.front.hits_round[j] += 1;
            }
            self.react(cat, b, j, When::Attacked, tally);
            let f = &mut self.front;
            if f.energy[j] <= 0 {
                continue; // its reaction burnt it out: the hit lands on nobody
            }
            let to_energy = f.absorb(j, damage);
            if to_energy > 0 {
                let e = f.energy[j].saturating_sub(to_energy);
                f.energy[j] = e;
                tally.lost_energy = true;
                if tax > 0 {
                    f.tax[j] = f.tax[j].max(tax);
                }
                if e <= 0 {
                    let t = f.team[j];
                    die(
                        t,
                        f.count[j],
                        &mut self.team_alive,
                        &mut self.round_deaths,
                        tally,
                    );
                } else {
                    self.react(cat, b, j, When::Damaged, tally);
                }
            }
            if self.front.energy[j] > 0 && self.front.reacting_state(j) == before {
                // A fixed point (Second Wind at 15, a hit it always survives): the class's
                // reactions read nothing else that moves within an attack, so each later
                // hit leaves it as it is. They land all at once.
                let rest = times - t - 1;
                landing += rest;
                tally.hits += m as u64 * rest as u64;
                if tally.count_hits {
                    self.front.hits_round[j] += rest as i32;
                }
                break;
            }
        }
        landing
    }

    /// [`Self::attack`] in a battle with allies' gifts ([`phase::ALLY_GIFT`]): a gifting team's
    /// classes take the attacker class's hits one member's hit at a time, in order (a gift
    /// reaches every alive class of the team, so which of them has fallen by the next hit
    /// depends on the order); the other classes as [`Self::attack_reacting`] takes them (no
    /// gift crosses teams, so each team's hits may be taken apart from the others').
    fn attack_gifting(
        &mut self,
        cat: &Catalogue,
        builds: &[Loadout],
        i: usize,
        tally: &mut Tally,
        hit_reacts: bool,
        tax: i32,
    ) {
        let team = self.front.team[i];
        let damage = self.front.hit[i];
        let times = self.front.count[i];
        self.gift_done.fill(false);
        for j in 0..self.front.len {
            let f = &self.front;
            let t = f.team[j];
            if t == team || f.energy[j] <= 0 {
                continue;
            }
            let (b, m) = (&builds[t as usize], f.count[j]);
            let landing = if self.gift[t as usize] > 0 {
                if !self.gift_done[t as usize] {
                    self.gift_done[t as usize] = true;
                    self.gifting_team(j, damage, times, tally, hit_reacts, tax);
                }
                continue;
            } else if b.phases & phase::SELF_REACTION != 0 {
                self.reacting_row(cat, b, j, damage, times, tally, tax)
            } else {
                self.attack_class(i, j, self.front.count[i], tally, tax)
            };
            if hit_reacts {
                self.landed.push((landing, m));
            }
        }
    }

    /// [`Self::attack`] in a round under Assassin's Game's rule (AR-39): each of class `i`'s
    /// members hits only the next alive opponent after it, wrapping round, so a killer inherits
    /// its victim's target. The members stand together, so each aims at the first alive
    /// member of the first opponent class after the class: the hits walk down that class, each
    /// member taking them until it falls (`h` equal hits fell one from the class's state), and
    /// the class splits into those that fell, the one that took the rest, and those untouched.
    fn attack_next(&mut self, mut i: usize, tally: &mut Tally) {
        let team = self.front.team[i];
        let damage = self.front.hit[i] as i64;
        let mut left = self.front.count[i] as i64;
        while left > 0 {
            let f = &self.front;
            let alive_opponent = |k: &usize| f.team[*k] != team && f.energy[*k] > 0;
            let Some(j) = (i + 1..f.len)
                .find(alive_opponent)
                .or_else(|| (0..i).find(alive_opponent))
            else {
                return;
            };
            tally.ops += 1;
            let (c, e, d, p) = (
                f.count[j] as i64,
                f.energy[j] as i64,
                f.defence[j] as i64,
                f.prevention[j] as i64,
            );
            if damage == 0 {
                // Each hit lands on the first member and takes nothing.
                tally.hits += left as u64;
                return;
            }
            let h = (e + d + p + damage - 1) / damage;
            let fell = (left / h).min(c);
            let after = |hits: i64| {
                let sum = hits * damage;
                let by_defence = sum.min(d);
                let by_prevention = (sum - by_defence).min(p);
                (
                    (e - (sum - by_defence - by_prevention)) as i32,
                    (d - by_defence) as i32,
                    (p - by_prevention) as i32,
                )
            };
            tally.lost_energy |= fell > 0 || after(left.min(h)).0 < e as i32;
            let t = f.team[j];
            if fell == c {
                left -= c * h;
                tally.hits += (c * h) as u64;
                let (ee, dd, pp) = after(h);
                let f = &mut self.front;
                (f.energy[j], f.defence[j], f.prevention[j]) = (ee, dd, pp);
                die(
                    t,
                    c as u32,
                    &mut self.team_alive,
                    &mut self.round_deaths,
                    tally,
                );
                continue;
            }
            let rest = left - fell * h;
            tally.hits += left as u64;
            left = 0;
            // Pieces in member order: fallen, the one that took the rest, untouched.
            let part = (rest > 0) as i64;
            let pieces = [
                (fell, after(h)),
                (part, after(rest)),
                (c - fell - part, after(0)),
            ];
            let n = pieces.iter().filter(|x| x.0 > 0).count();
            if n > 1 {
                self.split_class(j, n - 1);
                if j < i {
                    i += n - 1;
                    self.moved += n - 1;
                }
            }
            let origin = self.front.origin[j];
            let (mut row, mut from) = (j, 0u32);
            for &(members, (ee, dd, pp)) in pieces.iter().filter(|x| x.0 > 0) {
                let f = &mut self.front;
                let to = from + members as u32;
                f.count[row] = members as u32;
                (f.energy[row], f.defence[row], f.prevention[row]) = (ee, dd, pp);
                f.origin[row] = if origin != NO_ORIGIN && (from..to).contains(&origin) {
                    origin - from
                } else {
                    NO_ORIGIN
                };
                (row, from) = (row + 1, to);
            }
            if fell > 0 {
                die(
                    t,
                    fell as u32,
                    &mut self.team_alive,
                    &mut self.round_deaths,
                    tally,
                );
            }
        }
    }

    /// Sniper's kind of passives of class `i` this round ([`phase::SHOT`]): their conditions read
    /// only the round and strengths, so they read at the attack what they read at the plan.
    /// As the general path reads them: the last aim and percentage count.
    fn shot(&self, cat: &Catalogue, b: &Loadout, i: usize, tally: &Tally) -> Option<Shot> {
        let mut shot = Shot {
            first: false,
            pct: 100,
            execute: false,
            no_attack: false,
        };
        let mut any = false;
        for hc in b.clause_list(&b.passive, b.n_passive) {
            let c = cat.clause(hc);
            if !shot_rule(c)
                || !c
                    .conds()
                    .iter()
                    .all(|x| x.holds(|q| self.read(b, hc, i, tally, q)))
            {
                continue;
            }
            any = true;
            for e in c.effects() {
                match e.kind {
                    EffectKind::AttackOnly => shot.first = true,
                    EffectKind::AfterDefencePercent => {
                        shot.pct = e.value.as_constant().unwrap_or(100).clamp(0, 1_000_000)
                    }
                    EffectKind::ExecuteUndefended => shot.execute = true,
                    EffectKind::NoAttack => shot.no_attack = true,
                    _ => {}
                }
            }
        }
        any.then_some(shot)
    }

    /// [`Self::attack`] of a class whose members aim at the first opponent in initiative order
    /// (AR-39, AR-40, Sniper): hit by hit, each on the first member of the first alive opponent
    /// class, split off from the rest (the attack is one hit a member, so this costs what the
    /// hits are).
    fn attack_first(&mut self, mut i: usize, tally: &mut Tally, shot: Shot) {
        let team = self.front.team[i];
        let damage = self.front.hit[i];
        let mut from = 0;
        for _ in 0..self.front.count[i] {
            let f = &self.front;
            // Rows before the last target hold no alive opponent (a split adds rows after it).
            let Some(j) = (from..f.len).find(|&k| f.team[k] != team && f.energy[k] > 0) else {
                return;
            };
            from = j;
            if f.count[j] > 1 {
                i = self.split_first(j, i);
            }
            self.shot_hit(j, damage, shot, tally);
        }
    }

    /// One attack hit on the one hero of class `j` (AR-5, AR-40): Defence, then the percentage
    /// after Defence (rounded up), prevention, Energy; then, if it had no Defence as the hit
    /// arrived and lives, it is eliminated outright.
    fn shot_hit(&mut self, j: usize, damage: i32, shot: Shot, tally: &mut Tally) {
        tally.ops += 1;
        tally.hits += 1;
        let f = &mut self.front;
        let had_defence = f.defence[j] > 0;
        let by_defence = damage.min(f.defence[j]);
        f.defence[j] -= by_defence;
        let mut rest = damage - by_defence;
        if shot.pct != 100 && rest > 0 {
            rest = ((rest as i64 * shot.pct as i64 + 99) / 100).min(i32::MAX as i64) as i32;
        }
        let by_prevention = rest.min(f.prevention[j]);
        f.prevention[j] -= by_prevention;
        rest -= by_prevention;
        if !self.takes(j, rest, tally) {
            return;
        }
        if shot.execute && !had_defence {
            let e = self.front.energy[j];
            self.lose(j, e, tally);
        }
    }

    /// At the start of class `i`'s turn, a class holding Parasitic Strain's kind of clause
    /// ([`phase::STEAL`]): where no opponent has Defence, every member's theft finds none and
    /// does alike (nothing in its turn gives an opponent Defence: it and its members act alone,
    /// reacting to nothing), so the class plays whole; otherwise each member's theft finds a
    /// different hero, and the class splits into its members, each taking its turn in order.
    fn steal_turn(&mut self, i: usize) {
        let f = &self.front;
        let team = f.team[i];
        if (0..f.len).any(|k| f.team[k] != team && f.energy[k] > 0 && f.defence[k] > 0) {
            self.split_members(i);
        }
    }

    /// Splits class `i` into its members, one row each, to take their turns one after another
    /// (they merge again at the next rebuild where they are still alike).
    fn split_members(&mut self, i: usize) {
        let f = &self.front;
        let (c, origin) = (f.count[i] as usize, f.origin[i]);
        if c == 1 {
            return;
        }
        self.split_class(i, c - 1);
        let f = &mut self.front;
        for k in 0..c {
            f.count[i + k] = 1;
            f.origin[i + k] = if origin == k as u32 { 0 } else { NO_ORIGIN };
        }
    }

    /// Hero `i`'s use of Piercing Blow's kind of clause ([`phase::STRIKE`], AR-24, AR-26): its
    /// Burn, then each effect's damage (no attack hit: Defence absorbs it unless ignored, then
    /// prevention unless unpreventable) on the first alive opponent with the most (or least)
    /// Energy as the effect fires, split off its class.
    fn strike(
        &mut self,
        cat: &Catalogue,
        b: &Loadout,
        hc: &HeldClause,
        mut i: usize,
        tally: &mut Tally,
    ) {
        let c = cat.clause(hc);
        debug_assert_eq!(
            self.front.count[i], 1,
            "a striking class plays member by member"
        );
        if !self.may_fire(c, hc, i) {
            return;
        }
        if c.limit != Limit::Unlimited {
            self.front.once_round[i] |= hc.bit;
            self.front.once_game[i] |= hc.bit;
        }
        let burn = c.cost.burn.eval(|q| self.read(b, hc, i, tally, q));
        if burn > 0 && !self.lose(i, burn, tally) {
            return; // AR-24: burnt out
        }
        let most = c.target == Target::OpponentMostEnergy;
        for e in c.effects() {
            let f = &self.front;
            if f.energy[i] <= 0 {
                return;
            }
            let team = f.team[i];
            let mut target: Option<usize> = None;
            for k in 0..f.len {
                if f.team[k] != team
                    && f.energy[k] > 0
                    && target.is_none_or(|t| {
                        if most {
                            f.energy[k] > f.energy[t]
                        } else {
                            f.energy[k] < f.energy[t]
                        }
                    })
                {
                    target = Some(k);
                }
            }
            let Some(j) = target else {
                continue;
            };
            let v = e.value.as_constant().unwrap_or(0);
            if v <= 0 {
                continue;
            }
            if f.count[j] > 1 {
                // The target keeps row `j`; its class-mates follow it.
                i = self.split_first(j, i);
            }
            tally.ops += 1;
            let f = &mut self.front;
            let mut rest = v;
            if !e.ignore_defence && !e.unpreventable {
                let d = rest.min(f.defence[j]);
                f.defence[j] -= d;
                rest -= d;
            }
            if !e.unpreventable {
                let p = rest.min(f.prevention[j]);
                f.prevention[j] -= p;
                rest -= p;
            }
            self.takes(j, rest, tally);
        }
    }

    /// The one hero of row `j` takes `rest` from its Energy (what a hit left after Defence and
    /// prevention, AR-5); returns whether it lives.
    fn takes(&mut self, j: usize, rest: i32, tally: &mut Tally) -> bool {
        let f = &mut self.front;
        if rest > 0 {
            let e = f.energy[j].saturating_sub(rest);
            f.energy[j] = e;
            tally.lost_energy = true;
            if e <= 0 {
                let t = f.team[j];
                die(t, 1, &mut self.team_alive, &mut self.round_deaths, tally);
                return false;
            }
        }
        true
    }

    /// Class `i`'s use of Parasitic Strain's kind of clause ([`phase::STEAL`], AR-26): its
    /// target is the first alive opponent with the most Defence; the holder gains what the
    /// effect reads of the target's Defence as it stands, the target loses a constant (not
    /// below 0). A class of several members is here only where that Defence is 0 for each
    /// ([`Self::steal_turn`]); a target with Defence is split off its class first.
    fn steal(&mut self, cat: &Catalogue, hc: &HeldClause, i: usize, tally: &mut Tally) {
        let c = cat.clause(hc);
        if !self.may_fire(c, hc, i) {
            return;
        }
        if c.limit != Limit::Unlimited {
            self.front.once_round[i] |= hc.bit;
            self.front.once_game[i] |= hc.bit;
        }
        let f = &self.front;
        let team = f.team[i];
        let mut target: Option<usize> = None;
        for k in 0..f.len {
            if f.team[k] != team
                && f.energy[k] > 0
                && target.is_none_or(|t| f.defence[k] > f.defence[t])
            {
                target = Some(k);
            }
        }
        let mut i = i;
        if let Some(j) = target
            && f.defence[j] > 0
            && f.count[j] > 1
        {
            debug_assert_eq!(
                f.count[i], 1,
                "a class steals whole only from the undefended"
            );
            i = self.split_first(j, i);
        }
        tally.ops += 1;
        for e in c.effects() {
            if self.front.energy[i] <= 0 {
                return;
            }
            let f = &mut self.front;
            let read = target.map_or(0, |t| f.defence[t]);
            match e.kind {
                EffectKind::AddDefence => {
                    let v = e.value.eval(|_| read);
                    f.defence[i] = f.defence[i].saturating_add(v).max(0);
                }
                EffectKind::LoseDefence => {
                    if let Some(t) = target {
                        let v = e.value.as_constant().unwrap_or(0);
                        f.defence[t] = f.defence[t].saturating_sub(v.max(0)).max(0);
                    }
                }
                _ => unreachable!("steal_rule"),
            }
        }
    }

    /// Splits the first member of class `j` off the rest (one hero singled out); returns where
    /// the acting class `i` stands after it (moved down when `j` is in front of it).
    fn split_first(&mut self, j: usize, i: usize) -> usize {
        self.split_class(j, 1);
        let f = &mut self.front;
        let (n, origin) = (f.count[j], f.origin[j]);
        (f.count[j], f.count[j + 1]) = (1, n - 1);
        f.origin[j] = if origin == 0 { 0 } else { NO_ORIGIN };
        f.origin[j + 1] = if origin != NO_ORIGIN && origin > 0 {
            origin - 1
        } else {
            NO_ORIGIN
        };
        if j < i {
            self.moved += 1;
            return i + 1;
        }
        i
    }

    /// Splits class `j` into `extra + 1` rows of its members (see [`Table::split`]); the copies
    /// waiting to join after classes below it move down with them.
    fn split_class(&mut self, j: usize, extra: usize) {
        self.front.split(j, extra);
        self.splits += 1;
        for t in &mut self.turns {
            if t.parent as usize > j {
                t.parent += extra as u32;
            }
        }
    }

    /// The gifting team of class `first` (its first alive class) takes `times` hits of
    /// `damage` on each of its alive heroes, attacker member by attacker member and class by
    /// class in order. A class's members each take the hit: if it takes Energy from the first
    /// and leaves it at 0 or below, every member falls and none gives (each faces the same hit
    /// with the same Energy); otherwise every member lives and gives, and the class's gifts,
    /// `gift x members`, reach every alive class of the team, the class itself included (a
    /// member takes the gifts of the members before it, its hit, then the rest: they end
    /// alike). Where the gifts could saturate part-way through a class (AR-18) the members
    /// would end apart: the battle is handed to the general path ([`DataKernel::bail`]).
    // (A row indexes every column of the table, not only the landing counts.)
    #[allow(clippy::needless_range_loop)]
    fn gifting_team(
        &mut self,
        first: usize,
        damage: i32,
        times: u32,
        tally: &mut Tally,
        hit_reacts: bool,
        tax: i32,
    ) {
        let f = &mut self.front;
        let team = f.team[first];
        let gift = self.gift[team as usize];
        let landing = &mut self.gift_landing;
        landing[first..f.len].fill(0);
        for _ in 0..times {
            let mut any = false;
            for j in first..f.len {
                if f.team[j] != team || f.energy[j] <= 0 {
                    continue;
                }
                any = true;
                landing[j] += 1;
                let m = f.count[j];
                tally.ops += 1;
                tally.hits += m as u64;
                if tally.count_hits {
                    f.hits_round[j] += 1;
                }
                let to_energy = f.absorb(j, damage);
                if to_energy <= 0 {
                    continue;
                }
                tally.lost_energy = true;
                if tax > 0 {
                    f.tax[j] = f.tax[j].max(tax);
                }
                let e = f.energy[j].saturating_sub(to_energy);
                f.energy[j] = e;
                if e <= 0 {
                    die(team, m, &mut self.team_alive, &mut self.round_deaths, tally);
                    continue;
                }
                if m > 1 && e as i64 + to_energy as i64 + (m as i64 - 1) * gift > i32::MAX as i64 {
                    self.bail = true;
                    return;
                }
                let given = gift * m as i64;
                for k in first..f.len {
                    if f.team[k] == team && f.energy[k] > 0 {
                        f.energy[k] = (f.energy[k] as i64 + given).min(i32::MAX as i64) as i32;
                    }
                }
            }
            if !any {
                break;
            }
        }
        if hit_reacts {
            for j in first..f.len {
                if f.team[j] == team && landing[j] > 0 {
                    self.landed.push((landing[j], f.count[j]));
                }
            }
        }
    }

    /// Class `j`'s reaction clauses for `when`, in the order held, fired once for all its
    /// members (they are alike and took the same hit).
    fn react(&mut self, cat: &Catalogue, b: &Loadout, j: usize, when: When, tally: &mut Tally) {
        for hc in b.clause_list(&b.reactions, b.n_reactions) {
            if self.front.energy[j] <= 0 {
                return;
            }
            if cat.clause(hc).when == when {
                self.fire(cat, b, hc, j, tally);
            }
        }
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
                    self.front.count[i],
                    &mut self.team_alive,
                    &mut self.round_deaths,
                    tally,
                );
            }
        }
    }

    /// The phase's copies join: counted alive from now on (a clause later in their phase did not
    /// see them, AR-11), and placed after their originals.
    fn join<H: RoundHook>(&mut self, tally: &mut Tally) {
        for turn in &self.turns {
            let t = self.front.team[turn.parent as usize] as usize;
            if self.team_alive[t] == 0 {
                tally.teams_alive += 1; // the original fell after copying itself
            }
            let total = turn.made.total();
            self.team_alive[t] += total;
            tally.alive += total;
        }
        self.rebuild::<H>(tally);
    }

    /// The rows `lo..hi` around class `i` that all hold its team (its own and its neighbours
    /// of the same team), found once while the table keeps its shape: consecutive classes of
    /// one team attack one after another.
    fn own_rows(&mut self, i: usize) -> (usize, usize) {
        let f = &self.front;
        let team = f.team[i];
        if let Some((shape, t, lo, hi)) = self.own
            && (shape, t) == (f.shape, team)
            && (lo..hi).contains(&i)
        {
            return (lo, hi);
        }
        let mut lo = i;
        while lo > 0 && f.team[lo - 1] == team {
            lo -= 1;
        }
        let mut hi = i + 1;
        while hi < f.len && f.team[hi] == team {
            hi += 1;
        }
        self.own = Some((f.shape, team, lo, hi));
        (lo, hi)
    }

    /// Drops the dead and inserts the waiting copies after their originals (AR-11), member by
    /// member: member j of a class is followed by the copies it made. Neighbours alike merge
    /// into one class (unless played hero by hero).
    fn rebuild<H: RoundHook>(&mut self, tally: &mut Tally) {
        // A class copies in its own turn and again whenever it is first hit (copies made on
        // being attacked): its turns, in the order made, follow one another.
        if !self.turns.is_sorted_by_key(|t| t.parent) {
            self.turns.sort_unstable_by_key(|t| (t.parent, t.first));
        }
        let (front, pending) = (&self.front, &self.pending);
        let mut out = Out {
            rows: &mut self.back,
            merge: tally.merge,
        };
        out.rows.len = 0;
        let mut next = 0;
        for i in 0..front.len {
            let from = next;
            while next < self.turns.len() && self.turns[next].parent as usize == i {
                next += 1;
            }
            let turns = &self.turns[from..next];
            let alive = front.energy[i] > 0;
            let c = front.count[i];
            let origin = front.origin[i];
            if turns.is_empty() {
                if alive {
                    out.push(front, i, c, origin);
                }
                continue;
            }
            if out.merge
                && alive
                && turns.iter().all(|t| {
                    (t.first..t.first + t.kept).all(|j| front.alike(i, pending, j as usize))
                })
            {
                // Copies alike their originals (Amoeba's): the class grows in place.
                let origin = if origin == NO_ORIGIN {
                    NO_ORIGIN
                } else {
                    origin + turns.iter().map(|t| t.made.before(origin)).sum::<u32>()
                };
                let total: u32 = turns.iter().map(|t| t.made.total()).sum();
                out.push(front, i, c + total, origin);
                continue;
            }
            // Member by member while members differ in what they made; then the rest at once.
            let distinct = turns
                .iter()
                .map(|t| t.made.skip + t.made.full + 1)
                .max()
                .unwrap_or(0)
                .min(c);
            let member = |out: &mut Out, j: u32| {
                if alive {
                    out.push(front, i, 1, if origin == j { 0 } else { NO_ORIGIN });
                }
                for t in turns {
                    for k in 0..t.made.of(j) as usize {
                        out.push(pending, t.first as usize + k, 1, NO_ORIGIN);
                    }
                }
            };
            let mut j = 0;
            while j < distinct {
                // Members `j..end` made the same copies in every turn, none is the original.
                let mut end = distinct;
                let bounds = turns
                    .iter()
                    .flat_map(|t| {
                        let m = t.made;
                        [m.skip, m.skip + m.full, m.skip + m.full + 1]
                    })
                    .chain([origin, origin.saturating_add(1)]);
                for b in bounds {
                    if b > j && b < end {
                        end = b;
                    }
                }
                member(&mut out, j);
                j += 1;
                if j < end {
                    let rows = out.rows.len;
                    member(&mut out, j);
                    j += 1;
                    if out.rows.len == rows {
                        // A member and its copies merged whole into the last row: so does
                        // every later one alike (a class that fell after copying, copies
                        // alike one another).
                        let heroes =
                            alive as u32 + turns.iter().map(|t| t.made.of(j - 1)).sum::<u32>();
                        if heroes > 0 {
                            out.rows.count[rows - 1] += heroes * (end - j);
                        }
                        j = end;
                    }
                }
                while j < end {
                    member(&mut out, j);
                    j += 1;
                }
            }
            let rest = c - distinct;
            if rest > 0 {
                if alive {
                    // The rest made no copies (a member that falls is not alive here).
                    let o = if origin != NO_ORIGIN && origin >= distinct {
                        origin - distinct
                    } else {
                        NO_ORIGIN
                    };
                    out.push(front, i, rest, o);
                } else if let Some(t) = turns.iter().find(|t| t.made.tail > 0) {
                    // Each made one copy in the turn it fell in (no other turn has a tail).
                    out.push(pending, t.first as usize, rest, NO_ORIGIN);
                }
            }
        }
        if H::ENABLED {
            self.rebuild_ids();
        }
        std::mem::swap(&mut self.front, &mut self.back);
        self.front.shape = self.back.shape + 1;
        tally.in_table = tally.alive;
        self.pending.len = 0;
        self.turns.clear();
    }

    /// The heroes' ids in the order [`DataKernel::rebuild`] leaves them (hooked battles only):
    /// copies take ids in the order made, member by member.
    fn rebuild_ids(&mut self) {
        let (front, ids, out) = (&self.front, &self.ids, &mut self.ids_back);
        out.clear();
        let mut next = 0;
        let mut at = 0;
        for i in 0..front.len {
            let c = front.count[i];
            let alive = front.energy[i] > 0;
            let from = next;
            while next < self.turns.len() && self.turns[next].parent as usize == i {
                next += 1;
            }
            let turns = &self.turns[from..next];
            for j in 0..c {
                if alive {
                    out.push(ids[at + j as usize]);
                }
                for t in turns {
                    let from = t.id + t.made.before(j) as HeroId;
                    out.extend((0..t.made.of(j)).map(|k| from + k as HeroId));
                }
            }
            at += c as usize;
        }
        std::mem::swap(&mut self.ids, &mut self.ids_back);
    }

    /// AR-14, on the table as it stands (classes hold the same Energies as their heroes).
    fn round_limit_winner(&self, initiative: &[f64]) -> Option<u16> {
        let f = &self.front;
        rules::round_limit_winner(&f.energy[..f.len], &f.team[..f.len], initiative)
    }
}

/// Where [`DataKernel::rebuild`] writes: the next table, merging a row into the last one when
/// their heroes are alike.
struct Out<'t> {
    rows: &'t mut Table,
    merge: bool,
}

impl Out<'_> {
    /// Appends `count` heroes like row `i` of `from`, the original among them at `origin`.
    #[inline]
    fn push(&mut self, from: &Table, i: usize, count: u32, origin: u32) {
        let r = &mut *self.rows;
        if self.merge && r.len > 0 && r.alike(r.len - 1, from, i) {
            let last = r.len - 1;
            if origin != NO_ORIGIN {
                r.origin[last] = r.count[last] + origin;
            }
            r.count[last] += count;
            return;
        }
        r.push_row(from, i);
        r.count[r.len - 1] = count;
        r.origin[r.len - 1] = origin;
    }
}

/// The plan bit of the attack for a loadout whose use order holds only the attack.
#[inline]
fn first_attack_bit(b: &Loadout) -> u16 {
    (b.n_uses > 0 && b.uses[0] == NO_CLAUSE) as u16
}

/// Whether plan `plan` of a hero holding `b` uses a clause of the kind `rule` says.
fn plans(cat: &Catalogue, b: &Loadout, plan: u16, rule: fn(&Clause) -> bool) -> bool {
    b.uses().iter().enumerate().any(|(j, &u)| {
        plan & (1 << j) != 0 && u != NO_CLAUSE && rule(cat.clause(&b.clauses[u as usize]))
    })
}

/// The largest tax of `b`'s `dealt_damage` taxes ([`phase::TAX_ON_DAMAGE`]): all fire on each
/// hit that takes Energy, and taxes do not stack (AR-31).
fn tax_on_damage(cat: &Catalogue, b: &Loadout) -> i32 {
    b.clause_list(&b.reactions, b.n_reactions)
        .map(|hc| cat.clause(hc))
        .filter(|c| c.when == When::DealtDamage)
        .flat_map(|c| c.effects().iter())
        .filter_map(|e| e.value.as_constant())
        .fold(0, i32::max)
}

/// `n` heroes of `team` fall.
#[inline(always)]
fn die(team: u16, n: u32, team_alive: &mut [u32], round_deaths: &mut [u32], tally: &mut Tally) {
    let t = team as usize;
    team_alive[t] -= n;
    if team_alive[t] == 0 {
        tally.teams_alive -= 1;
    }
    round_deaths[t] += n;
    tally.round_deaths += n;
    tally.alive -= n;
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

#[cfg(test)]
mod tests {
    use super::Made;

    /// AR-15 member by member: each member tries its copies while alive heroes plus waiting
    /// copies are under capacity, then frees its place if it falls.
    fn one_by_one(members: u32, tries: u32, room: i64, fall: bool) -> Vec<u32> {
        let mut room = room;
        (0..members)
            .map(|_| {
                let mut made = 0;
                for _ in 0..tries {
                    if room > 0 {
                        room -= 1;
                        made += 1;
                    }
                }
                room += fall as i64;
                made
            })
            .collect()
    }

    #[test]
    fn a_class_makes_the_copies_its_members_would_make_one_after_another_ar_15() {
        for members in 1..=9 {
            for tries in 1..=4 {
                for room in 0..=40 {
                    for fall in [false, true] {
                        let want = one_by_one(members, tries, room, fall);
                        let m = Made::settle(members, tries, room, fall);
                        let got: Vec<u32> = (0..members).map(|j| m.of(j)).collect();
                        let case = (members, tries, room, fall);
                        assert_eq!(got, want, "{case:?}");
                        for j in 0..=members {
                            assert_eq!(
                                m.before(j),
                                want[..j as usize].iter().sum::<u32>(),
                                "{case:?}"
                            );
                        }
                        for t in 0..tries {
                            let k = want.iter().filter(|&&s| s > t).count() as u32;
                            assert_eq!(m.made(t), k, "{case:?} copy {t}");
                        }
                    }
                }
            }
        }
    }
}
