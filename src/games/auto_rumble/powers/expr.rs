//! Values and conditions in power files: `"10 * heroes_alive"`, `"5 + energy / 2"`,
//! `"max(strength, 10)"`, `"energy > 5"`.
//!
//! Parsed once, at load time, into [`Expr`] and [`Cond`]: small `Copy` values with the game
//! quantity as an enum, so the kernel evaluates them with a few integer operations and never sees
//! a string. A value is `base + sum of terms`, a term is `mul * quantity / div`, each term's
//! division rounded by the clause's rounding (the rules' default: up, away from zero, AR-23),
//! the whole optionally clamped by `max(..., n)` / `min(..., n)`.

use std::fmt;

/// A game quantity a value may read. "Self" is the hero holding the power; "target" is the hero
/// the clause acts on (only for clauses with a single target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantity {
    /// The holder's Energy now.
    Energy,
    /// The holder's Defence pool now.
    Defence,
    /// The holder's attack damage (AR-2, before bonuses).
    Attack,
    /// This power's strength: the winning bid (AR-24).
    Strength,
    /// The total strength of the holder's other powers.
    OtherStrength,
    /// The holder's counter in slot `n` of this power (declared in `counters`).
    Counter(u8),
    /// The round number, from 1 (0 at battle start).
    Round,
    /// Heroes alive at the start of this round, all teams (AR-7).
    HeroesAlive,
    /// Heroes of other teams alive now.
    OpponentsAlive,
    /// Heroes of the holder's team alive now, itself included.
    AlliesAlive,
    /// Teams with a hero alive now.
    TeamsAlive,
    /// Heroes of other teams eliminated this round, by anyone (AR-10).
    EliminatedThisRound,
    /// Damage the holder took to its Energy this round.
    DamageTaken,
    /// Attack hits the holder took in the previous round (AR-28).
    HitsTakenLastRound,
    /// Costed powers other than the attack in the holder's plan this round: what "use" means
    /// for Big, Gnashy Claws (AR-9).
    PowersUsed,
    /// Damage the holder's `reduce_hit` effects took off the hit being resolved (AR-38).
    Negated,
    /// Heroes summoned by the holder (AR-36) alive now.
    SummonsAlive,
    /// Heroes alive now that entered the battle: the players' own, not copies or summons (AR-64).
    PlayersAlive,
    /// 1 if this power's `use` clause is in the holder's plan this round, else 0 (AR-65).
    Planned,
    /// 1 if the target is a summoned hero, else 0.
    TargetSummoned,
    /// The target's Energy now.
    TargetEnergy,
    /// The target's Defence pool now.
    TargetDefence,
    /// The hit being resolved as it arrived (AR-57).
    HitArriving,
    /// The hit being resolved as it stands (AR-57).
    HitDamage,
    /// Heroes who made attack hits on the holder last round, each once (AR-61).
    AttackersLastRound,
    /// 1 if the target made an attack hit on the holder last round, else 0 (AR-61).
    TargetAttackedMe,
}

/// Every quantity name a file may write, for parsing and for "did you mean" hints.
pub const QUANTITY_NAMES: &[(&str, Quantity)] = &[
    ("energy", Quantity::Energy),
    ("defence", Quantity::Defence),
    ("attack", Quantity::Attack),
    ("strength", Quantity::Strength),
    ("other_strength", Quantity::OtherStrength),
    ("round", Quantity::Round),
    ("heroes_alive", Quantity::HeroesAlive),
    ("opponents_alive", Quantity::OpponentsAlive),
    ("allies_alive", Quantity::AlliesAlive),
    ("teams_alive", Quantity::TeamsAlive),
    ("eliminated_this_round", Quantity::EliminatedThisRound),
    ("damage_taken", Quantity::DamageTaken),
    ("hits_taken_last_round", Quantity::HitsTakenLastRound),
    ("powers_used", Quantity::PowersUsed),
    ("negated", Quantity::Negated),
    ("summons_alive", Quantity::SummonsAlive),
    ("players_alive", Quantity::PlayersAlive),
    ("planned", Quantity::Planned),
    ("target.summoned", Quantity::TargetSummoned),
    ("target.energy", Quantity::TargetEnergy),
    ("target.defence", Quantity::TargetDefence),
    ("hit.arriving", Quantity::HitArriving),
    ("hit.damage", Quantity::HitDamage),
    ("attackers_last_round", Quantity::AttackersLastRound),
    ("target.attacked_me_last_round", Quantity::TargetAttackedMe),
];

impl Quantity {
    /// The name as a file writes it; counters need their power's names, see [`Expr::show`].
    pub fn name(self) -> &'static str {
        QUANTITY_NAMES
            .iter()
            .find(|(_, q)| *q == self)
            .map_or("counter", |(n, _)| n)
    }

    /// Exactly what the quantity counts and when it is read, as `skirmish powers reference`
    /// prints it and `powers check` shows it beside each name a power reads.
    pub fn meaning(self) -> &'static str {
        match self {
            Quantity::Energy => "the holder's Energy now",
            Quantity::Defence => {
                "the holder's Defence pool now (it is emptied at each round's start, AR-4)"
            }
            Quantity::Attack => {
                "the holder's attack damage per hit from its coins (AR-2), before attack bonuses"
            }
            Quantity::Strength => {
                "this power's strength: its winning bid (AR-24); 0 in scenarios unless given"
            }
            Quantity::OtherStrength => "the total strength of the holder's other powers",
            Quantity::Counter(_) => "the holder's counter of that name now (AR-53)",
            Quantity::Round => "the round number, from 1; 0 at battle start",
            Quantity::HeroesAlive => {
                "heroes alive at the start of this round, every team, copies and summons included (AR-7); at battle start, the heroes entering"
            }
            Quantity::OpponentsAlive => {
                "heroes opposed to the holder alive now: other teams, hostile summons of its own (AR-42) and neutral summons (AR-60); for a neutral summon, every team's heroes"
            }
            Quantity::AlliesAlive => {
                "heroes of the holder's side alive now, itself included: its team (not hostile or neutral summons); for a neutral summon, every neutral summon"
            }
            Quantity::TeamsAlive => {
                "teams with a hero alive now; hostile and neutral summons keep no team in (AR-42, AR-60)"
            }
            Quantity::EliminatedThisRound => {
                "heroes opposed to the holder eliminated so far this round, by anyone (AR-10)"
            }
            Quantity::DamageTaken => {
                "Energy the holder has lost to hits so far this round: the round's total, not the hit being resolved; Burns and `lose_energy` do not count"
            }
            Quantity::HitsTakenLastRound => {
                "attack hits aimed at the holder in the previous round, absorbed and dodged ones included (AR-28)"
            }
            Quantity::PowersUsed => {
                "costed powers other than the attack in the holder's plan this round (AR-9); while the plan is being made (a `use` clause's conditions and cost, `no_attack`, `attack_cost`), last round's count, 0 in round 1"
            }
            Quantity::Negated => {
                "in an `attacked` clause: what the holder's `reduce_hit` effects have taken off the hit being resolved so far (AR-38); 0 elsewhere"
            }
            Quantity::SummonsAlive => "heroes the holder summoned that are alive now (AR-36)",
            Quantity::Planned => {
                "1 if this power's `use` clause is in the holder's plan this round, else 0; before this round's plan is made (battle start, round start), last round's (AR-65)"
            }
            Quantity::PlayersAlive => {
                "heroes alive now that entered the battle, every team: the players' own heroes, not their copies (AR-11) or summons (AR-36) (AR-64)"
            }
            Quantity::TargetSummoned => "1 if the target is a summoned hero, else 0",
            Quantity::TargetEnergy => "the target's Energy now",
            Quantity::TargetDefence => "the target's Defence pool now",
            Quantity::HitArriving => {
                "in a reaction fired inside a hit: that hit as it arrived at its target, after `vulnerable` and the damage percentages (AR-59), before `reduce_hit`, `cap_hit`, ward, Defence and prevention (AR-57); 0 outside a hit"
            }
            Quantity::HitDamage => {
                "in a reaction fired inside a hit: that hit as it stands. In `attacked`, before Defence, after this hero's `reduce_hit` / `cap_hit` so far; in `hit`, `damaged`, `dealt_damage` and the eliminations it causes, what is left after ward, Defence and prevention: the Energy it takes (AR-57); 0 outside a hit or when dodged"
            }
            Quantity::AttackersLastRound => {
                "heroes who made an attack hit on the holder in the previous round (its attack or an `as_attack` effect, absorbed and dodged hits included), each counted once, alive now or not (AR-61)"
            }
            Quantity::TargetAttackedMe => {
                "1 if the target made an attack hit on the holder in the previous round, else 0 (AR-61)"
            }
        }
    }

    /// Whether the quantity reads what the holder remembers of last round's attackers (AR-61).
    pub fn reads_memory(self) -> bool {
        matches!(
            self,
            Quantity::AttackersLastRound | Quantity::TargetAttackedMe
        )
    }

    /// Whether the data kernel's fast path keeps this quantity. A clause reading any other, in
    /// any of its expressions, is played by the general path (`phase::GENERAL`), so the fast
    /// path never answers a quantity it does not track. No wildcard: a new quantity must be
    /// placed here.
    pub const fn fast_path_tracks(self) -> bool {
        match self {
            Quantity::Energy
            | Quantity::Defence
            | Quantity::Attack
            | Quantity::Strength
            | Quantity::OtherStrength
            | Quantity::Counter(_)
            | Quantity::Round
            | Quantity::HeroesAlive
            | Quantity::OpponentsAlive
            | Quantity::AlliesAlive
            | Quantity::TeamsAlive
            | Quantity::EliminatedThisRound
            | Quantity::PowersUsed
            | Quantity::HitsTakenLastRound => true,
            Quantity::DamageTaken
            | Quantity::Negated
            | Quantity::SummonsAlive
            | Quantity::PlayersAlive
            | Quantity::Planned
            | Quantity::TargetSummoned
            | Quantity::TargetEnergy
            | Quantity::TargetDefence
            | Quantity::HitArriving
            | Quantity::HitDamage
            | Quantity::AttackersLastRound
            | Quantity::TargetAttackedMe => false,
        }
    }

    /// Whether the quantity reads the hit being resolved (reactions only, AR-57).
    pub fn reads_hit(self) -> bool {
        matches!(self, Quantity::HitArriving | Quantity::HitDamage)
    }

    /// Whether the quantity reads the clause's target.
    pub fn reads_target(self) -> bool {
        matches!(
            self,
            Quantity::TargetEnergy
                | Quantity::TargetDefence
                | Quantity::TargetSummoned
                | Quantity::TargetAttackedMe
        )
    }
}

/// How a term's division rounds (AR-23: the rules' default is up, away from zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Round {
    /// Away from zero (the rules' "always rounded up").
    #[default]
    Up,
    /// Towards zero ("rounded down", as Meltdown's text says).
    Down,
}

impl Round {
    #[inline]
    pub const fn div(self, a: i64, b: i64) -> i64 {
        match self {
            Round::Up => {
                if a >= 0 {
                    (a + b - 1) / b
                } else {
                    -((-a + b - 1) / b)
                }
            }
            Round::Down => a / b,
        }
    }
}

/// `mul * quantity / div`, then `% modulo` when `modulo` is not 0 (`round % 3`: every third
/// round; the remainder is never negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub mul: i32,
    pub div: i32,
    pub q: Quantity,
    pub modulo: i32,
}

pub use crate::games::auto_rumble::powers::limits::{MAX_CONSTANT, MAX_GROUP_DEPTH, MAX_TERMS};

/// A value: `base + terms`, clamped to `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expr {
    pub base: i32,
    pub terms: [Term; MAX_TERMS],
    pub n_terms: u8,
    pub round: Round,
    pub lo: i32,
    pub hi: i32,
}

impl Expr {
    pub const fn constant(v: i32) -> Expr {
        Expr {
            base: v,
            terms: [Term {
                mul: 0,
                div: 1,
                q: Quantity::Round,
                modulo: 0,
            }; MAX_TERMS],
            n_terms: 0,
            round: Round::Up,
            lo: i32::MIN,
            hi: i32::MAX,
        }
    }

    pub fn terms(&self) -> &[Term] {
        &self.terms[..self.n_terms as usize]
    }

    /// The constant value, if the expression reads no quantity.
    pub fn as_constant(&self) -> Option<i32> {
        (self.n_terms == 0).then(|| self.base.clamp(self.lo, self.hi))
    }

    /// Evaluates with `read` giving each quantity; saturates into `i32`.
    #[inline]
    pub fn eval(&self, mut read: impl FnMut(Quantity) -> i32) -> i32 {
        let mut v = self.base as i64;
        for t in self.terms() {
            let x = self
                .round
                .div(t.mul as i64 * read(t.q) as i64, t.div as i64);
            v += if t.modulo != 0 {
                x.rem_euclid(t.modulo as i64)
            } else {
                x
            };
        }
        v.clamp(self.lo as i64, self.hi as i64) as i32
    }

    /// Whether any term reads `q`.
    pub fn reads(&self, q: impl Fn(Quantity) -> bool) -> bool {
        self.terms().iter().any(|t| q(t.q))
    }

    /// The expression as a file would write it; `counter` names counter slots.
    pub fn show(&self, counter: &dyn Fn(u8) -> String) -> String {
        let mut s = String::new();
        for t in self.terms() {
            let name = match t.q {
                Quantity::Counter(k) => counter(k),
                q => q.name().to_string(),
            };
            let neg = t.mul < 0;
            if s.is_empty() {
                if neg {
                    s.push('-');
                }
            } else {
                s.push_str(if neg { " - " } else { " + " });
            }
            let m = t.mul.unsigned_abs();
            if m != 1 {
                s.push_str(&format!("{m} * "));
            }
            s.push_str(&name);
            if t.div != 1 {
                s.push_str(&format!(" / {}", t.div));
            }
            if t.modulo != 0 {
                s.push_str(&format!(" % {}", t.modulo));
            }
        }
        if s.is_empty() {
            s = self.base.to_string();
        } else if self.base > 0 {
            s.push_str(&format!(" + {}", self.base));
        } else if self.base < 0 {
            s.push_str(&format!(" - {}", self.base.unsigned_abs()));
        }
        if self.lo != i32::MIN {
            s = format!("max({s}, {})", self.lo);
        }
        if self.hi != i32::MAX {
            s = format!("min({s}, {})", self.hi);
        }
        if self.round == Round::Down && self.terms().iter().any(|t| t.div != 1) {
            s.push_str(" (rounded down)");
        }
        s
    }
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Gt,
    Ge,
    Lt,
    Le,
    Eq,
    Ne,
}

impl Cmp {
    #[inline]
    pub fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }
    fn symbol(self) -> &'static str {
        match self {
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
        }
    }
}

/// `left cmp right`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cond {
    pub left: Expr,
    pub cmp: Cmp,
    pub right: Expr,
}

impl Cond {
    #[inline]
    pub fn holds(&self, mut read: impl FnMut(Quantity) -> i32) -> bool {
        let a = self.left.eval(&mut read);
        self.cmp.holds(a, self.right.eval(read))
    }

    pub fn show(&self, counter: &dyn Fn(u8) -> String) -> String {
        format!(
            "{} {} {}",
            self.left.show(counter),
            self.cmp.symbol(),
            self.right.show(counter)
        )
    }

    pub fn reads(&self, q: impl Fn(Quantity) -> bool + Copy) -> bool {
        self.left.reads(q) || self.right.reads(q)
    }
}

/// Why an expression did not parse; `hint` is a suggestion for the fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    pub message: String,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i64),
    Name(String),
    Op(char),
    Cmp(Cmp),
}

fn lex(s: &str) -> Result<Vec<Tok>, ExprError> {
    let mut out = Vec::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let mut v: i64 = 0;
            while i < b.len() && b[i].is_ascii_digit() {
                v = v
                    .saturating_mul(10)
                    .saturating_add(b[i] as i64 - '0' as i64);
                i += 1;
            }
            out.push(Tok::Num(v));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_' || b[i] == '.') {
                i += 1;
            }
            out.push(Tok::Name(b[start..i].iter().collect()));
        } else if "+-*/(),%".contains(c) {
            out.push(Tok::Op(c));
            i += 1;
        } else if "<>=!".contains(c) {
            let two = b.get(i + 1) == Some(&'=');
            let cmp = match (c, two) {
                ('>', true) => Cmp::Ge,
                ('>', false) => Cmp::Gt,
                ('<', true) => Cmp::Le,
                ('<', false) => Cmp::Lt,
                ('=', true) => Cmp::Eq,
                ('!', true) => Cmp::Ne,
                _ => {
                    return Err(ExprError {
                        message: format!("`{c}` is not a comparison: use >, >=, <, <=, == or !="),
                    });
                }
            };
            out.push(Tok::Cmp(cmp));
            i += if two { 2 } else { 1 };
        } else {
            return Err(ExprError {
                message: format!(
                    "unexpected character `{c}`: a value is numbers and quantities joined by + - * /"
                ),
            });
        }
    }
    Ok(out)
}

/// Names a file may use: the built-in quantities and this power's counters.
pub struct Names<'a> {
    pub counters: &'a [String],
}

impl Names<'_> {
    fn quantity(&self, name: &str) -> Result<Quantity, ExprError> {
        if let Some(k) = self.counters.iter().position(|c| c == name) {
            return Ok(Quantity::Counter(k as u8));
        }
        if let Some((_, q)) = QUANTITY_NAMES.iter().find(|(n, _)| *n == name) {
            return Ok(*q);
        }
        let all = QUANTITY_NAMES
            .iter()
            .map(|(n, _)| *n)
            .chain(self.counters.iter().map(String::as_str));
        let hint = match crate::games::auto_rumble::powers::sample::closest_name(name, all) {
            Some(n) => format!("did you mean `{n}`?"),
            None => format!(
                "a value may read {} or a counter declared in `counters`",
                QUANTITY_NAMES
                    .iter()
                    .map(|(n, _)| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        Err(ExprError {
            message: format!("unknown quantity `{name}`: {hint}"),
        })
    }
}

struct Parser<'n, 'a> {
    toks: Vec<Tok>,
    at: usize,
    names: &'n Names<'a>,
    /// Groups open at the cursor.
    depth: u8,
}

fn bad(message: impl Into<String>) -> ExprError {
    ExprError {
        message: message.into(),
    }
}

fn constant(v: i64) -> Result<i32, ExprError> {
    if !(-MAX_CONSTANT..=MAX_CONSTANT).contains(&v) {
        return Err(bad(format!(
            "{v} is too large: numbers in a power are at most {MAX_CONSTANT} in size"
        )));
    }
    Ok(v as i32)
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.at).cloned();
        self.at += 1;
        t
    }
    fn expect(&mut self, c: char) -> Result<(), ExprError> {
        match self.next() {
            Some(Tok::Op(o)) if o == c => Ok(()),
            _ => Err(bad(format!("expected `{c}`"))),
        }
    }

    /// `max(sum, n)` | `min(sum, n)` | sum
    fn expr(&mut self) -> Result<Expr, ExprError> {
        if let Some(Tok::Name(n)) = self.peek()
            && (n == "max" || n == "min")
            && self.toks.get(self.at + 1) == Some(&Tok::Op('('))
        {
            let is_max = n == "max";
            self.at += 2;
            let mut e = self.expr()?;
            self.expect(',')?;
            let neg = matches!(self.peek(), Some(Tok::Op('-')));
            if neg {
                self.at += 1;
            }
            let v = match self.next() {
                Some(Tok::Num(v)) => constant(if neg { -v } else { v })?,
                _ => {
                    return Err(bad(format!(
                        "{} takes a number second",
                        if is_max { "max" } else { "min" }
                    )));
                }
            };
            self.expect(')')?;
            // max(clamp(x, lo, hi), v) is clamp(x, max(lo, v), max(hi, v)), and min likewise:
            // the bounds stay ordered, whatever the nesting, so `show` prints the same value.
            if is_max {
                e.lo = e.lo.max(v);
                e.hi = e.hi.max(v);
            } else {
                e.lo = e.lo.min(v);
                e.hi = e.hi.min(v);
            }
            return Ok(e);
        }
        self.sum()
    }

    fn sum(&mut self) -> Result<Expr, ExprError> {
        let mut e = Expr::constant(0);
        let mut base: i64 = 0;
        let mut sign = 1i64;
        if matches!(self.peek(), Some(Tok::Op('-'))) {
            self.at += 1;
            sign = -1;
        }
        loop {
            // A group: `(sum)`, `n * (sum)`, `(sum) * n` (AR-23: multiplication distributes
            // exactly; a division would round differently, so it is refused).
            let k0 = match (
                self.peek(),
                self.toks.get(self.at + 1),
                self.toks.get(self.at + 2),
            ) {
                (Some(Tok::Op('(')), _, _) => Some(1),
                (Some(Tok::Num(v)), Some(Tok::Op('*')), Some(Tok::Op('('))) => {
                    let v = *v;
                    self.at += 2;
                    Some(v)
                }
                _ => None,
            };
            if let Some(k0) = k0 {
                self.group(k0.saturating_mul(sign), &mut e, &mut base)?;
            } else {
                // term := num | num * name [/ num] | name [* num] [/ num]
                let (mul, q, div) = match self.next() {
                    Some(Tok::Num(v)) => {
                        if matches!(self.peek(), Some(Tok::Op('*'))) {
                            self.at += 1;
                            match self.next() {
                                Some(Tok::Name(n)) => (v, Some(self.names.quantity(&n)?), 1),
                                _ => return Err(bad(format!("expected a quantity after `{v} *`"))),
                            }
                        } else {
                            (v, None, 1)
                        }
                    }
                    Some(Tok::Name(n)) => {
                        let q = self.names.quantity(&n)?;
                        let mut mul = 1;
                        if matches!(self.peek(), Some(Tok::Op('*'))) {
                            self.at += 1;
                            match self.next() {
                                Some(Tok::Num(v)) => mul = v,
                                _ => return Err(bad(format!("expected a number after `{n} *`"))),
                            }
                        }
                        (mul, Some(q), 1)
                    }
                    Some(t) => return Err(bad(format!("unexpected {}", show_tok(&t)))),
                    None => return Err(bad("the value ends too early")),
                };
                let div = if matches!(self.peek(), Some(Tok::Op('/'))) {
                    self.at += 1;
                    match self.next() {
                        Some(Tok::Num(0)) => return Err(bad("division by 0")),
                        Some(Tok::Num(d)) => d,
                        _ => return Err(bad("expected a number after `/`")),
                    }
                } else {
                    div
                };
                let modulo = if matches!(self.peek(), Some(Tok::Op('%'))) {
                    self.at += 1;
                    match self.next() {
                        Some(Tok::Num(m)) if m > 0 => m,
                        _ => return Err(bad("expected a number above 0 after `%`")),
                    }
                } else {
                    0
                };
                let mul = constant(mul)?;
                let div = constant(div)?;
                let modulo = constant(modulo)?;
                match q {
                    Some(q) => {
                        if e.n_terms as usize == MAX_TERMS {
                            return Err(bad(format!(
                                "a value may read at most {MAX_TERMS} quantities"
                            )));
                        }
                        e.terms[e.n_terms as usize] = Term {
                            mul: (sign as i32) * mul,
                            div,
                            q,
                            modulo,
                        };
                        e.n_terms += 1;
                    }
                    None => {
                        if div != 1 || modulo != 0 {
                            return Err(bad(
                                "divide quantities, not numbers: write the number itself",
                            ));
                        }
                        base += sign * mul as i64;
                    }
                }
            }
            match self.peek() {
                Some(Tok::Op('+')) => sign = 1,
                Some(Tok::Op('-')) => sign = -1,
                _ => break,
            }
            self.at += 1;
        }
        e.base = constant(base)?;
        Ok(e)
    }
}

impl Parser<'_, '_> {
    /// `( sum ) [* n]` at the cursor, times `k`, added into `e` and `base`.
    fn group(&mut self, k: i64, e: &mut Expr, base: &mut i64) -> Result<(), ExprError> {
        self.expect('(')?;
        if self.depth == MAX_GROUP_DEPTH {
            return Err(bad(format!(
                "groups in parentheses nest at most {MAX_GROUP_DEPTH} deep"
            )));
        }
        self.depth += 1;
        let inner = self.sum()?;
        self.depth -= 1;
        if !matches!(self.next(), Some(Tok::Op(')'))) {
            return Err(bad("expected `)` to close the group"));
        }
        let mut k = k;
        if matches!(self.peek(), Some(Tok::Op('*'))) {
            self.at += 1;
            match self.next() {
                Some(Tok::Num(v)) => k = k.saturating_mul(v),
                _ => return Err(bad("expected a number after `) *`")),
            }
        }
        if matches!(self.peek(), Some(Tok::Op('/' | '%'))) {
            return Err(bad(
                "a group in parentheses cannot be divided: divisions round term by term (AR-23), so write each term's, e.g. `energy / 2 + defence / 2`",
            ));
        }
        if inner.terms().iter().any(|t| t.div != 1 || t.modulo != 0) {
            return Err(bad(
                "a group in parentheses may only be multiplied, and a division or remainder inside it would then round differently: write the terms without parentheses",
            ));
        }
        *base = base.saturating_add(k.saturating_mul(inner.base as i64));
        constant(*base)?;
        for t in inner.terms() {
            if e.n_terms as usize == MAX_TERMS {
                return Err(bad(format!(
                    "a value may read at most {MAX_TERMS} quantities"
                )));
            }
            e.terms[e.n_terms as usize] = Term {
                mul: constant(k.saturating_mul(t.mul as i64))?,
                ..*t
            };
            e.n_terms += 1;
        }
        Ok(())
    }
}

fn show_tok(t: &Tok) -> String {
    match t {
        Tok::Num(v) => format!("number {v}"),
        Tok::Name(n) => format!("`{n}`"),
        Tok::Op(c) => format!("`{c}`"),
        Tok::Cmp(c) => format!("`{}`", c.symbol()),
    }
}

/// Parses a value such as `"5 + energy / 2"`.
pub fn parse_expr(s: &str, names: &Names<'_>) -> Result<Expr, ExprError> {
    let mut p = Parser {
        toks: lex(s)?,
        at: 0,
        names,
        depth: 0,
    };
    let e = p.expr()?;
    match p.next() {
        None => Ok(e),
        Some(t) => Err(bad(format!(
            "unexpected {} after the value: join terms with + or -",
            show_tok(&t)
        ))),
    }
}

/// Parses a condition such as `"energy > 5"`.
pub fn parse_cond(s: &str, names: &Names<'_>) -> Result<Cond, ExprError> {
    let toks = lex(s)?;
    let Some(k) = toks.iter().position(|t| matches!(t, Tok::Cmp(_))) else {
        return Err(bad(
            "a condition compares two values: write e.g. `energy > 5` or `round == 1`",
        ));
    };
    let Tok::Cmp(cmp) = toks[k] else {
        unreachable!()
    };
    let side = |ts: &[Tok]| -> Result<Expr, ExprError> {
        let mut p = Parser {
            toks: ts.to_vec(),
            at: 0,
            names,
            depth: 0,
        };
        let e = p.expr()?;
        match p.next() {
            None => Ok(e),
            Some(t) => Err(bad(format!("unexpected {} in the condition", show_tok(&t)))),
        }
    };
    Ok(Cond {
        left: side(&toks[..k])?,
        cmp,
        right: side(&toks[k + 1..])?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names<'static> {
        Names { counters: &[] }
    }

    fn eval(s: &str, read: impl Fn(Quantity) -> i32) -> i32 {
        parse_expr(s, &names()).unwrap().eval(read)
    }

    // AR-23: divisions round up (away from zero) unless the power says otherwise.
    #[test]
    fn division_in_a_value_rounds_away_from_zero() {
        assert_eq!(eval("5 + energy / 2", |_| 17), 14, "Amoeba: ceil(17/2)+5");
        assert_eq!(eval("energy / 2", |_| -3), -2);
        let mut e = parse_expr("energy / 2", &names()).unwrap();
        e.round = Round::Down;
        assert_eq!(e.eval(|_| 7), 3);
    }

    #[test]
    fn values_read_quantities_with_coefficients_and_clamps() {
        assert_eq!(eval("10 * heroes_alive", |_| 6), 60);
        assert_eq!(eval("7 * round - 21", |_| 1), -14);
        assert_eq!(eval("max(strength, 10)", |_| 4), 10);
        assert_eq!(eval("max(strength, 10)", |_| 14), 14);
        assert_eq!(eval("min(energy * 2, 50)", |_| 40), 50);
        assert_eq!(eval("-energy + 3", |_| 5), -2);
        assert_eq!(eval("42", |_| 0), 42);
        assert_eq!(eval("round % 3", |_| 7), 1);
        assert_eq!(eval("round % 3", |_| 6), 0);
    }

    #[test]
    fn values_print_back_as_written() {
        let c = |_: u8| "X".to_string();
        for s in [
            "10 * heroes_alive",
            "energy / 2 + 5",
            "7 * round - 21",
            "max(strength, 10)",
            "round % 3",
            "X",
            "20",
        ] {
            let counters = ["X".to_string()];
            let e = parse_expr(
                s,
                &Names {
                    counters: &counters,
                },
            )
            .unwrap();
            assert_eq!(e.show(&c), s);
        }
    }

    #[test]
    fn unknown_quantity_suggests_the_nearest_name() {
        let e = parse_expr("10 * heroes_alve", &names()).unwrap_err();
        assert!(e.message.contains("did you mean `heroes_alive`"), "{e}");
        let e = parse_expr("energy +", &names()).unwrap_err();
        assert!(e.message.contains("ends too early"), "{e}");
        assert!(parse_expr("energy / 0", &names()).is_err());
        assert!(parse_expr("99999999999 * energy", &names()).is_err());
    }

    // A group multiplies out exactly; dividing a group is refused with the fix.
    #[test]
    fn parentheses_group_terms_that_are_multiplied() {
        assert_eq!(eval("2 * (energy + 5)", |_| 7), 24);
        assert_eq!(eval("(energy + 5) * 3 - 1", |_| 7), 35);
        assert_eq!(eval("10 - (energy + 1)", |_| 4), 5);
        assert_eq!(eval("(energy)", |_| 9), 9);
        let e = parse_expr("(energy + 5) / 2", &names()).unwrap_err();
        assert!(e.message.contains("cannot be divided"), "{e}");
        let e = parse_expr("2 * (energy / 2)", &names()).unwrap_err();
        assert!(e.message.contains("without parentheses"), "{e}");
        let e = parse_expr("(energy + defence + round)", &names()).unwrap_err();
        assert!(e.message.contains("at most 2 quantities"), "{e}");
        assert!(parse_expr("(energy + 5", &names()).is_err());
        let deep = format!("{}energy{}", "(".repeat(10_000), ")".repeat(10_000));
        let e = parse_expr(&deep, &names()).unwrap_err();
        assert!(e.message.contains("nest at most"), "{e}");
    }

    #[test]
    fn conditions_compare_two_values() {
        let c = parse_cond("energy > 5", &names()).unwrap();
        assert!(c.holds(|_| 6));
        assert!(!c.holds(|_| 5));
        let c = parse_cond("round == 1", &names()).unwrap();
        assert!(c.holds(|_| 1));
        assert!(parse_cond("energy", &names()).is_err());
        assert!(parse_cond("energy => 5", &names()).is_err());
    }
}
