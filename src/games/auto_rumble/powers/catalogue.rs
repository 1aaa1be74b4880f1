//! A loaded power file compiled for the kernels: powers by 16-bit id, and each hero's loadout
//! (`Loadout`) as one `Copy` value of fixed size holding the clauses it fires, phase by phase.
//!
//! Everything string-shaped is settled here, once: names become ids, counter names become slots,
//! use orders become clause indices. The kernels walk these tables and never allocate.

use crate::error::Error;
use std::fmt;

use crate::games::auto_rumble::powers::expr::Quantity;
use crate::games::auto_rumble::powers::file::{Clause, EffectKind, Limit, PowerDef, Target, When};
use crate::games::auto_rumble::powers::sample::closest_name;
use crate::games::auto_rumble::rules;
use crate::names::normalise;

/// A power's id in its catalogue: its position in the file (includes first).
pub type PowerId = u16;

/// A loaded catalogue: the definitions, and every clause in one flat table the kernels index.
/// Most hits a battle in which heroes can multiply may ask for (AR-72).
pub const MAX_BATTLE_HITS: u64 = 1 << 32;

#[derive(Clone, Debug, PartialEq)]
pub struct Catalogue {
    pub defs: Vec<PowerDef>,
    /// All clauses, power after power.
    pub clauses: Vec<Clause>,
    /// `first[p]`: where power `p`'s clauses start in `clauses`.
    pub first: Vec<u32>,
    /// `summons[p][n]`: the loadout of power `p`'s summon `n` (its powers; no attack in its use
    /// order when the summon has none). Energy and damage are set when it is summoned (AR-36).
    pub summons: Vec<Vec<Loadout>>,
    /// The powers a hero may be drawn, offered or valued with: all but helpers (AR-55), in file
    /// order. Equal to every id when the file has no helper, so draws keep their bytes.
    pub drawable: Vec<PowerId>,
    /// Whether some clause reads who attacked its holder last round (AR-61): only then do the
    /// kernels keep that memory.
    pub remembers: bool,
    /// `gives[p][n]`: the power power `p`'s give number `n` hands over (AR-62).
    pub gives: Vec<Vec<PowerId>>,
    /// `removes[p][n]`: the power power `p`'s removal number `n` takes away; `None`: every
    /// power (AR-69).
    pub removes: Vec<Vec<Option<PowerId>>>,
    /// The battle's and the game's numbers (issue 51: a rules file), the seed's by default: the
    /// catalogue is what every kernel and reference is handed for a run.
    pub rules: crate::games::auto_rumble::rules::Rules,
    /// `reactions[p]`: the reaction triggers ([`phase::on`]) that holding power `p` can bring
    /// into a battle: its own clauses', its summons' powers', the powers it gives', and so on.
    /// A battle asks only for the reactions its heroes can bring.
    pub reactions: Vec<u32>,
}

impl Catalogue {
    /// Whether power `p`'s clauses can add heroes again and again (copies; summons after the
    /// battle's start): with one in play, the table can fill to its capacity (AR-72).
    fn multiplies(&self, p: usize) -> bool {
        let end = self
            .first
            .get(p + 1)
            .map_or(self.clauses.len(), |&e| e as usize);
        self.clauses[self.first[p] as usize..end].iter().any(|c| {
            c.effects().iter().any(|e| match e.kind {
                EffectKind::CopySelf | EffectKind::CopyWith => true,
                EffectKind::Summon(_) => c.when != When::BattleStart,
                _ => false,
            })
        })
    }

    /// The first multiplying power among `held` and what they bring into play: the powers
    /// they give (AR-62) and their summons' powers (AR-36), and so on.
    pub fn multiplying_power(&self, held: impl IntoIterator<Item = PowerId>) -> Option<&str> {
        let mut seen = vec![false; self.defs.len()];
        let mut todo: Vec<usize> = held.into_iter().map(usize::from).collect();
        while let Some(p) = todo.pop() {
            if p >= seen.len() || std::mem::replace(&mut seen[p], true) {
                continue;
            }
            if self.multiplies(p) {
                return Some(self.defs[p].name.as_str());
            }
            todo.extend(self.gives[p].iter().map(|&g| usize::from(g)));
            for l in &self.summons[p] {
                todo.extend(
                    l.clauses[..l.n_clauses as usize]
                        .iter()
                        .map(|c| usize::from(c.power)),
                );
            }
        }
        None
    }

    /// AR-72: where heroes can multiply (a power of `held` or brought in by them), every hero
    /// hits every other, so a battle may ask for
    /// up to capacity² hits a round: capacity² x max_rounds is held to [`MAX_BATTLE_HITS`],
    /// checked before any battle is played (issue 53: a breeder battle at capacity 16,384
    /// took minutes and gigabytes). `flag` names the capacity setting in the message.
    pub fn check_work(
        &self,
        held: impl IntoIterator<Item = PowerId>,
        capacity: usize,
        max_rounds: u32,
        flag: &str,
    ) -> Result<(), Error> {
        let Some(power) = self.multiplying_power(held) else {
            return Ok(());
        };
        let hits = (capacity as u128).pow(2) * max_rounds.max(1) as u128;
        if hits <= MAX_BATTLE_HITS as u128 {
            return Ok(());
        }
        let most = ((MAX_BATTLE_HITS / max_rounds.max(1) as u64) as f64).sqrt() as u64;
        Err(Error::Input(format!(
            "{flag} {capacity}: `{power}` multiplies heroes and every hero hits every other, so a battle may ask for {capacity}² hits a round for {max_rounds} rounds, more than {MAX_BATTLE_HITS} (AR-72): give a capacity of at most {most}, or fewer rounds"
        )))
    }

    pub fn new(defs: Vec<PowerDef>) -> Catalogue {
        let mut clauses = Vec::new();
        let mut first = Vec::with_capacity(defs.len());
        for d in &defs {
            first.push(clauses.len() as u32);
            clauses.extend_from_slice(&d.clauses);
        }
        let drawable = (0..defs.len() as PowerId)
            .filter(|&p| !defs[p as usize].helper)
            .collect();
        // Summons' Energy and attack may read the memory too (issue 49): the whole power is walked.
        let remembers = defs.iter().any(|d| d.reads(Quantity::reads_memory))
            || clauses.iter().any(|c| {
                // AR-66: this round's attackers are kept in the same memory.
                let remembered = |t: Target| {
                    matches!(t, Target::AttackersLastRound | Target::AttackersThisRound)
                };
                remembered(c.target) || c.effects().iter().any(|e| e.to.is_some_and(remembered))
            });
        let mut cat = Catalogue {
            defs,
            clauses,
            first,
            summons: Vec::new(),
            drawable,
            remembers,
            gives: Vec::new(),
            removes: Vec::new(),
            rules: crate::games::auto_rumble::rules::Rules::SEED,
            reactions: Vec::new(),
        };
        // Names were checked when the file loaded; an unknown one here gives nothing.
        cat.gives = cat
            .defs
            .iter()
            .map(|d| {
                d.gives
                    .iter()
                    .map(|n| cat.id(n).unwrap_or(PowerId::MAX))
                    .collect()
            })
            .collect();
        cat.removes = cat
            .defs
            .iter()
            .map(|d| {
                d.removes
                    .iter()
                    .map(|n| n.as_ref().map(|n| cat.id(n).unwrap_or(PowerId::MAX)))
                    .collect()
            })
            .collect();
        let blank =
            Loadout::compile(&cat, 0, &[], &[Use::Attack]).expect("an empty loadout is valid");
        let mut summons = Vec::with_capacity(cat.defs.len());
        for d in &cat.defs {
            let mut per = Vec::with_capacity(d.summons.len());
            for sd in &d.summons {
                // Names were checked when the file loaded; an unknown one here is left out.
                let held: Vec<Held> = sd
                    .powers
                    .iter()
                    .filter_map(|n| cat.id(n))
                    .map(|power| Held { power, strength: 0 })
                    .collect();
                let order = default_order(&cat, &held);
                let mut l = Loadout::compile(&cat, 0, &held, &order).unwrap_or(blank);
                if sd.attack.is_none() {
                    let uses: Vec<u8> = l
                        .uses()
                        .iter()
                        .copied()
                        .filter(|&u| u != NO_CLAUSE)
                        .collect();
                    l.uses = [NO_CLAUSE; MAX_USE];
                    l.uses[..uses.len()].copy_from_slice(&uses);
                    l.n_uses = uses.len() as u8;
                }
                per.push(l);
            }
            summons.push(per);
        }
        cat.summons = summons;
        cat.reactions = (0..cat.defs.len())
            .map(|p| cat.reactions_reached(p))
            .collect();
        cat
    }

    /// The reaction bits of every power holding `p` brings into play (see [`Self::reactions`]).
    fn reactions_reached(&self, p: usize) -> u32 {
        let mut seen = vec![false; self.defs.len()];
        let mut todo = vec![p];
        let mut bits = 0;
        while let Some(q) = todo.pop() {
            if q >= seen.len() || std::mem::replace(&mut seen[q], true) {
                continue;
            }
            bits |= self.defs[q]
                .clauses
                .iter()
                .fold(0, |b, c| b | phase::on(c.when));
            todo.extend(self.gives[q].iter().map(|&g| usize::from(g)));
            for l in &self.summons[q] {
                todo.extend(l.clauses().iter().map(|c| usize::from(c.power)));
            }
        }
        bits
    }

    /// The clause a loadout's [`HeldClause`] points at.
    #[inline]
    pub fn clause(&self, h: &HeldClause) -> &Clause {
        &self.clauses[h.at as usize]
    }

    /// The six sample powers (experiments/powers/sample.toml, built in).
    /// The catalogue of a power file, or the built-in six without one.
    pub fn load(
        src: &crate::platform::sources::Sources,
        power_file: Option<&str>,
    ) -> Result<Catalogue, Error> {
        match power_file {
            None => Ok(Catalogue::builtin()),
            Some(f) => crate::games::auto_rumble::powers::file::load(src, std::path::Path::new(f))
                .map(Catalogue::new)
                .map_err(Error::from),
        }
    }

    /// The catalogue with a rules file's numbers (issue 51); `None` keeps the seed's. The error
    /// names the file, line and field.
    pub fn with_rules_file(
        mut self,
        src: &crate::platform::sources::Sources,
        rules_file: Option<&str>,
    ) -> Result<Catalogue, Error> {
        if let Some(f) = rules_file {
            self.rules =
                crate::games::auto_rumble::input::rules::load(src, std::path::Path::new(f))?;
        }
        Ok(self)
    }

    pub fn builtin() -> Catalogue {
        Catalogue::new(crate::games::auto_rumble::powers::file::builtin().to_vec())
    }

    pub fn len(&self) -> usize {
        self.defs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    pub fn name(&self, id: PowerId) -> &str {
        &self.defs[id as usize].name
    }

    /// Looks a power up by name, forgiving case, spaces and punctuation.
    pub fn id(&self, name: &str) -> Option<PowerId> {
        let key = normalise(name);
        self.defs
            .iter()
            .position(|d| normalise(&d.name) == key)
            .map(|i| i as PowerId)
    }

    /// The closest name, for "did you mean".
    pub fn closest(&self, name: &str) -> Option<&str> {
        closest_name(name, self.defs.iter().map(|d| d.name.as_str()))
    }

    /// The power by `name` for a command that draws, offers or values powers: unknown names get
    /// a "did you mean", helper powers are refused (AR-55). `flag` labels the message.
    pub fn drawable_id(&self, name: &str, flag: &str) -> Result<PowerId, Error> {
        let Some(p) = self.id(name) else {
            let hint = self
                .closest(name)
                .map(|p| format!("did you mean `{p}`? "))
                .unwrap_or_default();
            return Err(Error::Input(format!(
                "{flag}: unknown power `{name}`; {hint}`skirmish rumble powers` shows them"
            )));
        };
        if self.defs[p as usize].helper {
            return Err(Error::Input(format!(
                "{flag}: `{}` is a helper power, held only by the heroes other powers summon (AR-55); it is never drawn, offered or valued on its own: name another",
                self.name(p)
            )));
        }
        Ok(p)
    }

    /// Whether the power has a `use` clause (it takes a place in use orders, AR-17).
    pub fn is_used(&self, id: PowerId) -> bool {
        self.defs[id as usize].use_clause().is_some()
    }
}

/// One item of a use order: the default attack or a held power's `use` clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    Attack,
    Power(PowerId),
}

/// A held power: its id and strength (the winning bid, AR-24).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub power: PowerId,
    pub strength: i32,
}

pub use crate::games::auto_rumble::powers::limits::{MAX_CLAUSES, MAX_HELD, MAX_HERO_COUNTERS};
/// Most use-order items: the attack and every held power.
pub const MAX_USE: usize = MAX_HELD + 1;

/// A clause as one hero holds it: the clause, its power's strength and counter offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeldClause {
    /// Index into [`Catalogue::clauses`].
    pub at: u32,
    pub power: PowerId,
    pub strength: i32,
    /// The total strength of the hero's other powers (Worshippers' quantity).
    pub other_strength: i32,
    /// Where this power's counters start in the hero's counter slots.
    pub counter_base: u8,
    /// This clause's bit in the hero's once-per-round / once-per-game masks.
    pub bit: u16,
}

/// Why a hero's loadout cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadoutError {
    TooManyPowers,
    TooManyClauses,
    TooManyCounters,
    Duplicate(String),
    UnknownId(PowerId),
    OrderNamesUnheld(String),
    OrderNamesUnused(String),
    OrderRepeats(String),
    OrderMissing(String),
    CoinsOutOfRange(i64),
}

impl fmt::Display for LoadoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadoutError::TooManyPowers => {
                write!(f, "holds more than {MAX_HELD} powers: drop some")
            }
            LoadoutError::TooManyClauses => write!(
                f,
                "its powers have more than {MAX_CLAUSES} clauses together: drop a power"
            ),
            LoadoutError::TooManyCounters => write!(
                f,
                "its powers keep more than {MAX_HERO_COUNTERS} counters together: drop a power"
            ),
            LoadoutError::Duplicate(p) => write!(
                f,
                "holds `{p}` twice; a hero holds each power once (AR-17): remove the second entry"
            ),
            LoadoutError::UnknownId(id) => write!(f, "power id {id} is not in the catalogue"),
            LoadoutError::OrderNamesUnheld(p) => write!(
                f,
                "use order names `{p}`, which the hero does not hold: add it to `powers` or remove it from `order`"
            ),
            LoadoutError::OrderNamesUnused(p) => write!(
                f,
                "use order names `{p}`, which has no `use` clause (it fires by itself): remove it from `order` (AR-17)"
            ),
            LoadoutError::OrderRepeats(p) => write!(
                f,
                "use order names `{p}` twice: list each item once (AR-17)"
            ),
            LoadoutError::OrderMissing(p) => write!(
                f,
                "use order leaves out `{p}`: list the attack and every held power with a `use` clause once (AR-17)"
            ),
            LoadoutError::CoinsOutOfRange(c) => write!(
                f,
                "coins = {c} is outside -{m}..={m} (AR-18)",
                m = rules::MAX_ABS_COINS
            ),
        }
    }
}

/// Phase bits: which phases and reactions a loadout takes part in, so whole phases are skipped
/// when no hero needs them.
pub mod phase {
    pub const BATTLE_START: u32 = 1 << 0;
    pub const ROUND_START: u32 = 1 << 1;
    pub const USE: u32 = 1 << 2;
    pub const ROUND_END: u32 = 1 << 3;
    pub const PASSIVE: u32 = 1 << 4;
    /// Any reaction clause (attacked, damaged, hit, dealt_damage, kill, opponent_eliminated,
    /// death).
    pub const REACTION: u32 = 1 << 5;
    /// Effects that change how hits land on their target this round (dodge, vulnerable).
    pub const HIT_MODIFIER: u32 = 1 << 6;
    /// Effects with a target other than the holder.
    pub const TARGETS_OTHERS: u32 = 1 << 7;
    /// Effects the hand-written fast paths cannot take (copies, taxes, locks, wins...).
    pub const GENERAL: u32 = 1 << 8;
    /// A clause that can make two heroes of one class differ within a phase of the data
    /// kernel's fast path (see [`singles_out`]): such loadouts are played hero by hero.
    pub const SINGLES_OUT: u32 = 1 << 9;
    /// A clause reads `hits_taken_last_round`: the data kernel's fast path counts attack hits.
    pub const HITS_TAKEN: u32 = 1 << 10;
    /// An `attacked` or `damaged` reaction of the holder alone ([`self_reaction`]): the data
    /// kernel's fast path plays it, a target class taking its hits one at a time, its members
    /// in lock-step (each takes the same hits and reacts alike).
    pub const SELF_REACTION: u32 = 1 << 18;
    /// A `hit` reaction of the attacker alone that never lowers its Energy ([`self_hit`]):
    /// the data kernel's fast path plays it, an attacker class's members landing the hits they
    /// land and splitting where they differ (a target class fell part-way through the class).
    pub const SELF_HIT: u32 = 1 << 19;
    /// A `dealt_damage` reaction whose only effect is a constant tax on the hero damaged
    /// ([`tax_on_damage`], Entangle): the data kernel's fast path taxes a target class whose
    /// members an attack took Energy from (they took the same hits; taxes do not stack, AR-31).
    pub const TAX_ON_DAMAGE: u32 = 1 << 20;
    /// A `damaged` reaction whose only effects are constant Energy gains for every ally
    /// ([`ally_gift`], Field Medic): the data kernel's fast path plays it, a gifting team's
    /// classes taking one attacker member's hit at a time, each surviving member's gift added
    /// to every alive class of its team.
    pub const ALLY_GIFT: u32 = 1 << 21;
    /// A passive `everyone_attacks_only = next_opponent` (Assassin's Game, AR-39): in a round
    /// whose plan an alive holder makes, every hero's attack hits only the next alive opponent
    /// after it. The data kernel's fast path walks an attacker class's hits down that
    /// opponent's class member by member, splitting it where one member took part of them.
    pub const NEXT_OPPONENT: u32 = 1 << 22;
    /// A passive that aims the holder's attack at the first opponent in initiative order,
    /// with or without a percentage after Defence and an execution of the undefended, or that
    /// skips its attack (Sniper, AR-40; [`shot_rule`]), its conditions reading only the round:
    /// the data kernel's fast path lands such an attack hit by hit, on the first member of the
    /// first opponent class, which it splits off.
    pub const SHOT: u32 = 1 << 23;
    /// A `use` clause on the opponent with the most Defence that takes Defence from it and gives
    /// the holder some ([`steal_rule`], Parasitic Strain): the data kernel's fast path plays a
    /// class's uses once where no opponent has Defence (each member's then does the same), and
    /// member by member otherwise, the target split off its class.
    pub const STEAL: u32 = 1 << 24;
    /// A `use` clause whose only effects are constant damage (not an attack hit) to the
    /// opponent with the most or least Energy ([`strike_rule`], Piercing Blow): the data
    /// kernel's fast path plays its holder's class member by member that round (each member's
    /// pick reads what the members before it did), each target split off its class.
    pub const STRIKE: u32 = 1 << 25;
    /// An `attacked` reaction whose only effects are copies of the holder (`copy_self`, with
    /// or without a constant Energy), unconditional and limited to once a round or a game
    /// ([`copy_on_attacked`], Budding): it fires at a member's first hit of the round, which is
    /// the first attacker member's sweep of an attack. The data kernel's fast path plays that
    /// sweep first, one hit per target class in order, each class's members copying while
    /// there is room (AR-15), then the attack's other hits class by class (at once, unless a
    /// [`SELF_REACTION`] of its holder reacts to them).
    pub const COPY_ON_ATTACKED: u32 = 1 << 26;
    /// Which reactions a loadout holds, one bit per trigger ([`on`]): a battle in which nothing
    /// holds one skips asking for it (an elimination then asks no opponent, a hit nobody).
    pub const REACTIONS: u32 = 0x7f << 11;

    /// The bit of reaction trigger `w` (0 for the other triggers).
    #[inline]
    pub const fn on(w: super::When) -> u32 {
        use super::When::*;
        match w {
            Attacked => 1 << 11,
            Damaged => 1 << 12,
            Hit => 1 << 13,
            DealtDamage => 1 << 14,
            Kill => 1 << 15,
            OpponentEliminated => 1 << 16,
            Death => 1 << 17,
            BattleStart | RoundStart | Use | RoundEnd | Passive => 0,
        }
    }
}

/// A hero's compiled loadout, shared by the hero and all its copies. `repr(C)` keeps what every
/// battle reads (stats, phase bits, the use order, counters) in the first cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Loadout {
    pub energy: i32,
    pub damage: i32,
    pub coins: i32,
    pub phases: u32,
    pub n_clauses: u8,
    pub n_battle_start: u8,
    pub n_round_start: u8,
    pub n_round_end: u8,
    pub n_passive: u8,
    pub n_reactions: u8,
    pub n_uses: u8,
    /// The use order: `NO_CLAUSE` is the attack, else the clause index of a `use` clause.
    pub uses: [u8; MAX_USE],
    pub counters: [i32; MAX_HERO_COUNTERS],
    /// Clause indices per phase, in the order held (AR-6).
    pub battle_start: [u8; MAX_CLAUSES],
    pub round_start: [u8; MAX_CLAUSES],
    pub round_end: [u8; MAX_CLAUSES],
    pub passive: [u8; MAX_CLAUSES],
    pub reactions: [u8; MAX_CLAUSES],
    pub clauses: [HeldClause; MAX_CLAUSES],
    /// Bit `i` set: clause `i` belongs to a power removed mid-battle (AR-69). It stays in
    /// `clauses` (indices and the use order keep their meaning, and the power counts as held
    /// once, AR-17) but is out of every phase list, and the plan skips it.
    pub removed: u16,
}

/// The attack's entry in a use order.
pub const NO_CLAUSE: u8 = u8::MAX;

impl Loadout {
    /// Compiles a hero: its coins, its powers in the order held, its use order.
    pub fn compile(
        cat: &Catalogue,
        coins: i32,
        held: &[Held],
        order: &[Use],
    ) -> Result<Loadout, LoadoutError> {
        if coins.unsigned_abs() > rules::MAX_ABS_COINS as u32 {
            return Err(LoadoutError::CoinsOutOfRange(coins.into()));
        }
        if held.len() > MAX_HELD {
            return Err(LoadoutError::TooManyPowers);
        }
        let empty = HeldClause {
            at: 0,
            power: 0,
            strength: 0,
            other_strength: 0,
            counter_base: 0,
            bit: 0,
        };
        let mut l = Loadout {
            energy: cat.rules.energy(coins),
            damage: cat.rules.damage(coins),
            coins,
            clauses: [empty; MAX_CLAUSES],
            n_clauses: 0,
            battle_start: [0; MAX_CLAUSES],
            n_battle_start: 0,
            round_start: [0; MAX_CLAUSES],
            n_round_start: 0,
            round_end: [0; MAX_CLAUSES],
            n_round_end: 0,
            passive: [0; MAX_CLAUSES],
            n_passive: 0,
            reactions: [0; MAX_CLAUSES],
            n_reactions: 0,
            uses: [NO_CLAUSE; MAX_USE],
            n_uses: 0,
            counters: [0; MAX_HERO_COUNTERS],
            phases: 0,
            removed: 0,
        };
        let total_strength: i64 = held.iter().map(|h| h.strength as i64).sum();
        // AR-43: `coins` effects are settled here, before the battle.
        let mut bonus_coins = 0i64;
        let mut n_counters = 0usize;
        let mut use_clause = [NO_CLAUSE; MAX_HELD];
        for (k, h) in held.iter().enumerate() {
            let Some(def) = cat.defs.get(h.power as usize) else {
                return Err(LoadoutError::UnknownId(h.power));
            };
            if held[..k].iter().any(|o| o.power == h.power) {
                return Err(LoadoutError::Duplicate(def.name.clone()));
            }
            if n_counters + def.counters.len() > MAX_HERO_COUNTERS {
                return Err(LoadoutError::TooManyCounters);
            }
            for (j, (_, v)) in def.counters.iter().enumerate() {
                l.counters[n_counters + j] = *v;
            }
            for (ci, c) in def.clauses.iter().enumerate() {
                let i = l.n_clauses as usize;
                if i == MAX_CLAUSES {
                    return Err(LoadoutError::TooManyClauses);
                }
                l.clauses[i] = HeldClause {
                    at: cat.first[h.power as usize] + ci as u32,
                    power: h.power,
                    strength: h.strength,
                    other_strength: (total_strength - h.strength as i64)
                        .clamp(i32::MIN as i64, i32::MAX as i64)
                        as i32,
                    counter_base: n_counters as u8,
                    bit: 1 << i,
                };
                l.n_clauses += 1;
                match c.when {
                    When::Passive => {
                        let other = total_strength - h.strength as i64;
                        for e in c.effects() {
                            if e.kind == EffectKind::Coins {
                                bonus_coins += e.value.eval(|q| match q {
                                    Quantity::Strength => h.strength,
                                    Quantity::OtherStrength => {
                                        other.clamp(i32::MIN as i64, i32::MAX as i64) as i32
                                    }
                                    _ => 0,
                                }) as i64;
                            }
                        }
                        // A clause of `coins` alone has nothing left to do in the battle.
                        if c.effects().iter().all(|e| e.kind == EffectKind::Coins) {
                            continue;
                        }
                    }
                    When::Use => use_clause[k] = i as u8,
                    _ => {}
                }
                l.file(i, c);
            }
            n_counters += def.counters.len();
        }
        if bonus_coins != 0 {
            // AR-43: what `coins` effects add is held within the coin limit (AR-18), so no
            // strength a draw gives can make a hero that cannot be built.
            let m = rules::MAX_ABS_COINS as i64;
            l.coins = (coins as i64 + bonus_coins).clamp(-m, m) as i32;
            l.energy = cat.rules.energy(l.coins);
            l.damage = cat.rules.damage(l.coins);
        }
        // AR-17: the attack and each held power with a `use` clause, each exactly once.
        let mut seen_attack = false;
        let mut seen = [false; MAX_HELD];
        for u in order {
            match *u {
                Use::Attack if seen_attack => {
                    return Err(LoadoutError::OrderRepeats("Attack".into()));
                }
                Use::Attack => {
                    seen_attack = true;
                    l.uses[l.n_uses as usize] = NO_CLAUSE;
                }
                Use::Power(p) => {
                    let name = || {
                        cat.defs
                            .get(p as usize)
                            .map_or(format!("#{p}"), |d| d.name.clone())
                    };
                    let Some(k) = held.iter().position(|h| h.power == p) else {
                        return Err(LoadoutError::OrderNamesUnheld(name()));
                    };
                    if use_clause[k] == NO_CLAUSE {
                        return Err(LoadoutError::OrderNamesUnused(name()));
                    }
                    if seen[k] {
                        return Err(LoadoutError::OrderRepeats(name()));
                    }
                    seen[k] = true;
                    l.uses[l.n_uses as usize] = use_clause[k];
                }
            }
            l.n_uses += 1;
        }
        if !seen_attack {
            return Err(LoadoutError::OrderMissing("Attack".into()));
        }
        for (k, h) in held.iter().enumerate() {
            if use_clause[k] != NO_CLAUSE && !seen[k] {
                return Err(LoadoutError::OrderMissing(cat.name(h.power).to_string()));
            }
        }
        Ok(l)
    }

    /// The loadout with `power` given to it mid-battle (AR-62): its clauses after the held ones,
    /// at `strength` (`other_strength` 0), its counters after theirs, its `use` clause last in
    /// the use order. With it, where its counters start (the caller sets them to their starting
    /// values on the hero). `None` when the hero already holds it or it would not fit a hero
    /// (AR-17, `limits`).
    pub fn with_given(
        &self,
        cat: &Catalogue,
        power: PowerId,
        strength: i32,
    ) -> Option<(Loadout, usize)> {
        let def = cat.defs.get(power as usize)?;
        let held = self.clauses();
        if held.iter().any(|h| h.power == power) {
            return None;
        }
        let mut powers = 0;
        let mut n_counters = 0;
        for (k, h) in held.iter().enumerate() {
            if held[..k].iter().all(|o| o.power != h.power) {
                powers += 1;
            }
            let len = cat.defs[h.power as usize].counters.len();
            n_counters = n_counters.max(h.counter_base as usize + len);
        }
        if powers + 1 > MAX_HELD
            || held.len() + def.clauses.len() > MAX_CLAUSES
            || n_counters + def.counters.len() > MAX_HERO_COUNTERS
        {
            return None;
        }
        let mut l = *self;
        for (ci, c) in def.clauses.iter().enumerate() {
            let i = l.n_clauses as usize;
            l.clauses[i] = HeldClause {
                at: cat.first[power as usize] + ci as u32,
                power,
                strength,
                other_strength: 0,
                counter_base: n_counters as u8,
                bit: 1 << i,
            };
            l.n_clauses += 1;
            if c.when == When::Use && (l.n_uses as usize) < MAX_USE {
                l.uses[l.n_uses as usize] = i as u8;
                l.n_uses += 1;
            }
            l.file(i, c);
        }
        for (j, (_, v)) in def.counters.iter().enumerate() {
            l.counters[n_counters + j] = *v;
        }
        Some((l, n_counters))
    }

    /// The loadout without `power` (`None`: without every power it holds), removed mid-battle
    /// (AR-69): its clauses leave every phase list, and the plan skips its `use` clause.
    /// `None` when nothing it holds is left to remove.
    pub fn without(&self, power: Option<PowerId>) -> Option<Loadout> {
        let mut gone = 0u16;
        for (i, h) in self.clauses().iter().enumerate() {
            if self.removed & (1 << i) == 0 && power.is_none_or(|p| h.power == p) {
                gone |= 1 << i;
            }
        }
        if gone == 0 {
            return None;
        }
        let mut l = *self;
        l.removed |= gone;
        let keep = |list: &mut [u8; MAX_CLAUSES], n: &mut u8| {
            let mut k = 0;
            for j in 0..*n as usize {
                if gone & (1 << list[j]) == 0 {
                    list[k] = list[j];
                    k += 1;
                }
            }
            *n = k as u8;
        };
        keep(&mut l.battle_start, &mut l.n_battle_start);
        keep(&mut l.round_start, &mut l.n_round_start);
        keep(&mut l.round_end, &mut l.n_round_end);
        keep(&mut l.passive, &mut l.n_passive);
        keep(&mut l.reactions, &mut l.n_reactions);
        Some(l)
    }

    /// Whether use-order entry `u` (a clause index, or the attack) belongs to a removed power.
    #[inline]
    pub fn is_removed(&self, u: u8) -> bool {
        u != NO_CLAUSE && self.removed & (1 << u) != 0
    }

    /// Files clause `i` (just added) in its phase's list, or for a `use` clause only its phase
    /// bits (the use order is the caller's), and marks the phases it takes part in.
    fn file(&mut self, i: usize, c: &Clause) {
        let (list, n, bit) = match c.when {
            When::BattleStart => (
                &mut self.battle_start,
                &mut self.n_battle_start,
                phase::BATTLE_START,
            ),
            When::RoundStart => (
                &mut self.round_start,
                &mut self.n_round_start,
                phase::ROUND_START,
            ),
            When::RoundEnd => (&mut self.round_end, &mut self.n_round_end, phase::ROUND_END),
            When::Passive => (&mut self.passive, &mut self.n_passive, phase::PASSIVE),
            When::Use => {
                self.phases |= phase::USE | effect_bits(c) | singles_out(c);
                return;
            }
            _ if self_reaction(c) => (
                &mut self.reactions,
                &mut self.n_reactions,
                phase::SELF_REACTION,
            ),
            _ if copy_on_attacked(c) => {
                // Its copies are the fast path's own (no effect bits).
                self.reactions[self.n_reactions as usize] = i as u8;
                self.n_reactions += 1;
                self.phases |= phase::COPY_ON_ATTACKED | phase::on(c.when);
                return;
            }
            _ if self_hit(c) => (&mut self.reactions, &mut self.n_reactions, phase::SELF_HIT),
            _ if ally_gift(c) => {
                // Its effect on the allies is the fast path's own (no effect bits).
                self.reactions[self.n_reactions as usize] = i as u8;
                self.n_reactions += 1;
                self.phases |= phase::ALLY_GIFT | phase::on(c.when);
                return;
            }
            _ if tax_on_damage(c) => {
                // Its effect on another hero is the fast path's own (no effect bits).
                self.reactions[self.n_reactions as usize] = i as u8;
                self.n_reactions += 1;
                self.phases |= phase::TAX_ON_DAMAGE | phase::on(c.when);
                return;
            }
            _ => (&mut self.reactions, &mut self.n_reactions, phase::REACTION),
        };
        list[*n as usize] = i as u8;
        *n += 1;
        self.phases |= bit | effect_bits(c) | singles_out(c) | phase::on(c.when);
    }

    /// The clauses the hero holds, in the order held.
    pub fn clauses(&self) -> &[HeldClause] {
        &self.clauses[..self.n_clauses as usize]
    }

    pub fn clause_list(&self, list: &[u8], n: u8) -> impl Iterator<Item = &HeldClause> {
        list[..n as usize]
            .iter()
            .map(|&i| &self.clauses[i as usize])
    }

    pub fn uses(&self) -> &[u8] {
        &self.uses[..self.n_uses as usize]
    }
}

/// A hand-written-kernel hero ([`crate::games::auto_rumble::input::roster::HeroSpec`], the six sample powers) as a loadout
/// of `cat`, matched by power name: how benches and tests hold the two kernels side by side.
pub fn loadout_of_spec(
    cat: &Catalogue,
    h: &crate::games::auto_rumble::input::roster::HeroSpec,
) -> Result<Loadout, LoadoutError> {
    use crate::games::auto_rumble::input::roster::UseItem;
    let id = |name: &str| {
        cat.id(name)
            .ok_or_else(|| LoadoutError::OrderNamesUnheld(name.to_string()))
    };
    let held = h
        .powers
        .iter()
        .map(|p| {
            Ok(Held {
                power: id(p.power.name())?,
                strength: p.strength,
            })
        })
        .collect::<Result<Vec<_>, LoadoutError>>()?;
    let order = h
        .order
        .iter()
        .map(|u| match u {
            UseItem::Attack => Ok(Use::Attack),
            UseItem::Power(p) => Ok(Use::Power(id(p.name())?)),
        })
        .collect::<Result<Vec<_>, LoadoutError>>()?;
    Loadout::compile(cat, h.coins, &held, &order)
}

/// The default use order: the attack, then held powers with a `use` clause, as held (AR-17).
pub fn default_order(cat: &Catalogue, held: &[Held]) -> Vec<Use> {
    let mut out = [Use::Attack; MAX_USE];
    let n = default_order_into(cat, held, &mut out);
    out[..n].to_vec()
}

/// [`default_order`] into a fixed array, for hot paths; returns its length.
pub fn default_order_into(cat: &Catalogue, held: &[Held], out: &mut [Use; MAX_USE]) -> usize {
    out[0] = Use::Attack;
    let mut n = 1;
    for h in held.iter().take(MAX_USE - 1) {
        if cat.is_used(h.power) {
            out[n] = Use::Power(h.power);
            n += 1;
        }
    }
    n
}

/// [`phase::SINGLES_OUT`] when clause `c` can make two members of a class (heroes alike in every
/// way, next to each other in initiative order) differ in the data kernel's fast path, which
/// plays a class once with its count. Members act one after another: in the action phase one
/// member's attack may eliminate a hero before the next member's `use` clause reads a count of
/// the living (or copies itself, where those eliminations change the room left, AR-15); in the
/// triggered phases a member can eliminate only itself, which changes only its allies' count.
fn singles_out(c: &Clause) -> u32 {
    let out = match c.when {
        When::Use => {
            c.reads(|q| {
                matches!(
                    q,
                    Quantity::OpponentsAlive
                        | Quantity::TeamsAlive
                        | Quantity::EliminatedThisRound
                        | Quantity::AlliesAlive
                )
            }) || c.effects().iter().any(|e| e.kind == EffectKind::CopySelf)
        }
        When::BattleStart | When::RoundStart | When::RoundEnd => {
            c.reads(|q| q == Quantity::AlliesAlive)
        }
        _ => false,
    };
    if out { phase::SINGLES_OUT } else { 0 }
}

/// Whether reaction `c` can play on the fast path's classes (issue 81: Thick Hide, "whenever you
/// are attacked, gain 3 Energy"): an `attacked` or `damaged` clause whose effects all act on
/// the holder with the fast path's kinds (no copy), no Burn, no limit per other hero, reading
/// nothing that changes between two members of a class taking one attacker's hits one after
/// the other (no count of the living, nothing of the other hero or the hit). Each member of a
/// target class then takes the same hits and reacts alike: the class stays one.
fn self_reaction(c: &Clause) -> bool {
    matches!(c.when, When::Attacked | When::Damaged) && of_holder_alone(c)
}

/// Whether reaction `c` is Budding's kind ("the first time each round you are hit, a copy of you
/// splits off with 10 Energy"): an `attacked` clause of copies of the holder and nothing else
/// (`copy_self`, its Energy a constant when given), once a round or a game, no condition or
/// Burn. It then fires only at a member's first hit of the round (or game), never at a later
/// one, so within an attack it fires only in the first attacker member's hits.
fn copy_on_attacked(c: &Clause) -> bool {
    c.when == When::Attacked
        && c.target == Target::Holder
        && matches!(c.limit, Limit::OncePerRound | Limit::OncePerGame)
        && c.conds().is_empty()
        && c.cost.burn.as_constant() == Some(0)
        && !c.from_start
        && !c.effects().is_empty()
        && c.effects().iter().all(|e| {
            e.cond.is_none()
                && e.to.is_none_or(|t| t == Target::Holder)
                && (e.kind == EffectKind::CopySelf
                    || (e.kind == EffectKind::CopyWith && e.value.as_constant().is_some()))
        })
}

/// Whether `hit` reaction `c` can play on the fast path's classes (issue 81: Vampire Fang,
/// "whenever your attack hits someone, gain 20 Energy"): a reaction of the holder alone (as
/// [`self_reaction`]) that never lowers the holder's Energy (no Energy set, a gain never below
/// 0), so an attacker never falls inside its own attack and its hits land on the targets they
/// would land on without it. Members of an attacker class then differ only in how many hits
/// they landed: members after a target class fell landed fewer, and the class splits there.
fn self_hit(c: &Clause) -> bool {
    c.when == When::Hit
        && of_holder_alone(c)
        && c.effects().iter().all(|e| match e.kind {
            EffectKind::AddEnergy => {
                e.value.lo >= 0 || e.value.as_constant().is_some_and(|v| v >= 0)
            }
            EffectKind::SetEnergy => false,
            _ => true,
        })
}

/// Whether `dealt_damage` reaction `c` is Entangle's kind ("when you damage an opponent, it must
/// Spend 10 during the next round"): taxes of a constant on the hero damaged and nothing else,
/// no condition, limit or Burn, reading nothing. Every member of a target class takes the same
/// hits, so every one is taxed alike, and the largest tax counts (AR-31): the class stays one.
fn tax_on_damage(c: &Clause) -> bool {
    c.when == When::DealtDamage
        && c.conds().is_empty()
        && c.limit == Limit::Unlimited
        && c.cost.burn.as_constant() == Some(0)
        && !c.from_start
        && !c.effects().is_empty()
        && c.effects().iter().all(|e| {
            e.kind == EffectKind::Tax
                && e.cond.is_none()
                && e.to.unwrap_or(c.target) == Target::Other
                && e.value.as_constant().is_some()
        })
}

/// Whether `damaged` reaction `c` is Field Medic's kind ("whenever a hit takes your Energy,
/// every ally gains 2 Energy", issue 81): constant, non-negative Energy gains for every ally
/// (the holder included) and nothing else, no condition, limit or Burn, reading nothing. The
/// members of a class an attacker's member hits one after another each survive or each fall
/// alike (a fallen member gives nothing, so the next one faces the same hit with the same
/// Energy), and the survivors end alike: the gifts of a class's hit add up, the class stays
/// one.
pub fn ally_gift(c: &Clause) -> bool {
    c.when == When::Damaged
        && c.target == Target::AllAllies
        && c.conds().is_empty()
        && c.limit == Limit::Unlimited
        && c.cost.burn.as_constant() == Some(0)
        && c.cost.spend.as_constant() == Some(0)
        && !c.from_start
        && !c.effects().is_empty()
        && c.effects().iter().all(|e| {
            e.kind == EffectKind::AddEnergy
                && e.cond.is_none()
                && e.to.is_none_or(|t| t == Target::AllAllies)
                && e.value.as_constant().is_some_and(|v| v >= 0)
        })
}

/// The Energy each ally gains from one gifting hit of loadout `b` ([`ally_gift`] clauses).
pub fn gift_per_hit(cat: &Catalogue, b: &Loadout) -> i64 {
    b.clause_list(&b.reactions, b.n_reactions)
        .map(|hc| cat.clause(hc))
        .filter(|c| ally_gift(c))
        .flat_map(|c| c.effects().iter())
        .map(|e| e.value.as_constant().unwrap_or(0) as i64)
        .sum()
}

/// A reaction whose effects all act on the holder with the fast path's kinds (no copy), with no
/// Burn and no limit per other hero, reading nothing that changes between two hits of one class
/// (no count of the living, nothing of the other hero or the hit).
fn of_holder_alone(c: &Clause) -> bool {
    c.target == Target::Holder
        && c.cost.burn.as_constant() == Some(0)
        && c.limit != Limit::OncePerHeroPerRound
        && !c.from_start
        && c.effects().iter().all(|e| {
            e.to.is_none_or(|t| t == Target::Holder)
                && matches!(
                    e.kind,
                    EffectKind::AddEnergy
                        | EffectKind::SetEnergy
                        | EffectKind::AddDefence
                        | EffectKind::AddPrevention
                        | EffectKind::CounterAdd(_)
                        | EffectKind::CounterMultiply(_)
                        | EffectKind::CounterSet(_)
                )
        })
        // What the fast path keeps, less the counts of the living (they move between two
        // members' hits when one falls).
        && !c.reads(|q| {
            !q.fast_path_tracks()
                || matches!(
                    q,
                    Quantity::OpponentsAlive
                        | Quantity::AlliesAlive
                        | Quantity::TeamsAlive
                        | Quantity::EliminatedThisRound
                )
        })
}

/// Whether effect `e` of clause `c` is Assassin's Game's rule ([`phase::NEXT_OPPONENT`]): a
/// passive, read with the plan, that every attack this round hits only the next opponent.
pub fn next_opponent_rule(c: &Clause, e: &crate::games::auto_rumble::powers::file::Effect) -> bool {
    c.when == When::Passive
        && !c.from_start
        && e.kind == EffectKind::EveryoneAttacksOnly
        && e.to == Some(Target::NextOpponent)
        && e.cond.is_none()
}

/// Whether passive `c` is Sniper's kind ([`phase::SHOT`]): read at the plan with conditions that
/// read only the round and the holder's strength (so they read the same when its attack lands),
/// and effects each of `attack_only = "first_opponent"`, a constant `after_defence_percent`,
/// `execute_undefended` or `no_attack`; a percentage or an execution only beside the aim (the
/// fast path lands them only on the hits it lands one by one).
pub fn shot_rule(c: &Clause) -> bool {
    let aims = c
        .effects()
        .iter()
        .any(|e| e.kind == EffectKind::AttackOnly && e.to == Some(Target::FirstOpponent));
    c.when == When::Passive
        && !c.from_start
        && c.limit == Limit::Unlimited
        && !c.reads(|q| !matches!(q, Quantity::Round | Quantity::Strength))
        && !c.effects().is_empty()
        && c.effects().iter().all(|e| {
            e.cond.is_none()
                && match e.kind {
                    EffectKind::AttackOnly => e.to == Some(Target::FirstOpponent),
                    EffectKind::AfterDefencePercent => aims && e.value.as_constant().is_some(),
                    EffectKind::ExecuteUndefended => aims,
                    EffectKind::NoAttack => true,
                    _ => false,
                }
        })
}

/// Whether `use` clause `c` is Parasitic Strain's kind ([`phase::STEAL`]): aimed at the opponent
/// with the most Defence, no Burn, its effects each a gain of Defence for the holder whose value
/// reads only the target's Defence, or a constant loss of Defence for the target.
pub fn steal_rule(c: &Clause) -> bool {
    c.when == When::Use
        && c.target == Target::OpponentMostDefence
        && !c.from_start
        && c.limit != Limit::OncePerHeroPerRound
        && c.cost.burn.as_constant() == Some(0)
        && !c.reads(|q| !q.fast_path_tracks() && q != Quantity::TargetDefence)
        && !c.effects().is_empty()
        && c.effects().iter().all(|e| {
            e.cond.is_none()
                && match e.kind {
                    EffectKind::AddDefence => {
                        e.to == Some(Target::Holder)
                            && !e.value.reads(|q| q != Quantity::TargetDefence)
                    }
                    EffectKind::LoseDefence => {
                        e.to.is_none_or(|t| t == Target::OpponentMostDefence)
                            && e.value.as_constant().is_some()
                    }
                    _ => false,
                }
        })
}

/// Whether `use` clause `c` is Piercing Blow's kind ([`phase::STRIKE`]): aimed at the opponent
/// with the most or least Energy, each effect a constant damage that is no attack hit.
pub fn strike_rule(c: &Clause) -> bool {
    c.when == When::Use
        && matches!(
            c.target,
            Target::OpponentMostEnergy | Target::OpponentLeastEnergy
        )
        && !c.from_start
        && c.limit != Limit::OncePerHeroPerRound
        && !c.reads(|q| !q.fast_path_tracks())
        && !c.effects().is_empty()
        && c.effects().iter().all(|e| {
            e.kind == EffectKind::Damage
                && e.cond.is_none()
                && e.to.is_none()
                && !e.as_attack
                && e.value.as_constant().is_some()
        })
}

fn effect_bits(c: &Clause) -> u32 {
    if steal_rule(c) {
        return phase::STEAL;
    }
    if strike_rule(c) {
        return phase::STRIKE;
    }
    if shot_rule(c) {
        // Its `attack_only` names the rule its attack follows, not a hero it acts on.
        return phase::SHOT;
    }
    let mut bits = 0;
    for e in c.effects() {
        if next_opponent_rule(c, e) {
            // Its `to` is the rule the attacks follow, not a hero it acts on.
            bits |= phase::NEXT_OPPONENT;
            continue;
        }
        let to = e.to.unwrap_or(c.target);
        if to != Target::Holder {
            bits |= phase::TARGETS_OTHERS;
        }
        match e.kind {
            EffectKind::Dodge | EffectKind::Vulnerable => bits |= phase::HIT_MODIFIER,
            EffectKind::AddDefence
            | EffectKind::AddEnergy
            | EffectKind::SetEnergy
            | EffectKind::AddPrevention
            | EffectKind::AttackBonus
            | EffectKind::CounterAdd(_)
            | EffectKind::CounterMultiply(_)
            | EffectKind::CounterSet(_)
            | EffectKind::CopySelf
            | EffectKind::Coins => {}
            _ => bits |= phase::GENERAL,
        }
    }
    // What the fast path does not keep, read anywhere in the clause (conditions, costs, effect
    // conditions and values), sends the loadout to the general path; so do a passive read
    // before the first plan (AR-70) and a limit per other hero (AR-68).
    if c.reads(|q| !q.fast_path_tracks()) || c.from_start || c.limit == Limit::OncePerHeroPerRound {
        bits |= phase::GENERAL;
    }
    if c.reads(|q| q == Quantity::HitsTakenLastRound) {
        bits |= phase::HITS_TAKEN;
    }
    bits
}
