//! Decision rules specialised per partner class: the engine's fast path for CM-6 / CM-20.
//!
//! A rule may read `same`, `other.healer` and `other.warrior`, which depend only on the two
//! members' kinds. So for each member kind and each of the four partner classes (own clan or not,
//! healer or warrior) the rule is folded once when the field is built: those names become
//! constants, constant parts are computed, cases that can never fire are dropped, and a rule left
//! with one constant answer (a barbarian facing another clan: 10) is a table lookup. What remains
//! compiles to closures specialised by node shape and operator, so a decision runs native code
//! instead of an interpreter loop: a rule without side effects becomes one closure (its cases
//! nested, a test between two constants fused into a single call), so a decision is one call.
//!
//! The reference model keeps interpreting the unfolded programs ([`crate::games::clan_melee::state::Field::decide`]);
//! the differential test and the tests below hold the two to the same answers. Folding uses the
//! interpreter's own [`binary`] / [`unary`], so a constant means exactly what it would at run time.

use std::fmt;
use std::sync::Arc;

use crate::games::clan_melee::input::clan::Case;
use crate::games::clan_melee::input::expr::{Op, Var, binary, unary};
use crate::games::clan_melee::rules::{self, Mode};

/// The variables left after folding, in [`Var`] order: me.hp, me.max, other.hp, other.max.
type Vars = [i32; 4];
type Fun = Box<dyn Fn(&Vars) -> i32 + Send + Sync>;

/// An expression as a tree, for folding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    K(i32),
    V(Var),
    Un(Op, Box<Tree>),
    Bin(Op, Box<Tree>, Box<Tree>),
}

impl Tree {
    /// Rebuilds the tree of a compiled (hence well-formed) postfix program.
    pub fn from_postfix(ops: &[Op]) -> Tree {
        let mut stack: Vec<Tree> = Vec::new();
        for &op in ops {
            let t = match op {
                Op::Const(c) => Tree::K(c),
                Op::Load(v) => Tree::V(v),
                Op::Neg | Op::Not => Tree::Un(op, Box::new(stack.pop().expect("operand"))),
                _ => {
                    let b = stack.pop().expect("right operand");
                    let a = stack.pop().expect("left operand");
                    Tree::Bin(op, Box::new(a), Box::new(b))
                }
            };
            stack.push(t);
        }
        stack.pop().expect("a program leaves one value")
    }

    /// The value is always 0 or 1.
    fn is_truth(&self) -> bool {
        match self {
            Tree::K(k) => *k == 0 || *k == 1,
            Tree::Un(op, _) => *op == Op::Not,
            Tree::Bin(op, _, _) => matches!(
                op,
                Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq | Op::Ne | Op::And | Op::Or
            ),
            Tree::V(_) => false,
        }
    }

    /// `x != 0` as 0 or 1, which is what `1 and x` and `0 or x` are.
    fn truth(self) -> Tree {
        if self.is_truth() {
            self
        } else {
            Tree::Bin(Op::Ne, Box::new(self), Box::new(Tree::K(0)))
        }
    }

    /// Replaces the partner-class names by their values and folds what became constant.
    pub fn fold(self, same: bool, healer: bool) -> Tree {
        match self {
            Tree::V(Var::Same) => Tree::K(same as i32),
            Tree::V(Var::OtherHealer) => Tree::K(healer as i32),
            Tree::V(Var::OtherWarrior) => Tree::K(!healer as i32),
            Tree::K(_) | Tree::V(_) => self,
            Tree::Un(op, a) => match a.fold(same, healer) {
                Tree::K(x) => Tree::K(unary(op, x)),
                a => Tree::Un(op, Box::new(a)),
            },
            Tree::Bin(op, a, b) => {
                // Expressions have no side effects, so dropping an operand changes nothing.
                match (op, a.fold(same, healer), b.fold(same, healer)) {
                    (op, Tree::K(x), Tree::K(y)) => Tree::K(binary(op, x, y)),
                    (Op::And, Tree::K(0), _) | (Op::And, _, Tree::K(0)) => Tree::K(0),
                    (Op::And, Tree::K(_), x) | (Op::And, x, Tree::K(_)) => x.truth(),
                    (Op::Or, Tree::K(k), _) | (Op::Or, _, Tree::K(k)) if k != 0 => Tree::K(1),
                    (Op::Or, Tree::K(_), x) | (Op::Or, x, Tree::K(_)) => x.truth(),
                    (op, a, b) => Tree::Bin(op, Box::new(a), Box::new(b)),
                }
            }
        }
    }
}

/// The binary operators, so a closure can be specialised by a const index into this table.
const BIN: [Op; 15] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Div,
    Op::Rem,
    Op::Lt,
    Op::Le,
    Op::Gt,
    Op::Ge,
    Op::Eq,
    Op::Ne,
    Op::And,
    Op::Or,
    Op::Min,
    Op::Max,
];

/// Calls `$f::<I>(args)` with `I` the position of `$op` in [`BIN`]: one monomorphised closure
/// body per operator, so the operator is not matched at run time.
macro_rules! by_op {
    ($op:expr, $f:ident($($a:expr),*)) => {{
        match BIN.iter().position(|o| *o == $op).expect("a binary operator") {
            0 => $f::<0>($($a),*),
            1 => $f::<1>($($a),*),
            2 => $f::<2>($($a),*),
            3 => $f::<3>($($a),*),
            4 => $f::<4>($($a),*),
            5 => $f::<5>($($a),*),
            6 => $f::<6>($($a),*),
            7 => $f::<7>($($a),*),
            8 => $f::<8>($($a),*),
            9 => $f::<9>($($a),*),
            10 => $f::<10>($($a),*),
            11 => $f::<11>($($a),*),
            12 => $f::<12>($($a),*),
            13 => $f::<13>($($a),*),
            _ => $f::<14>($($a),*),
        }
    }};
}

fn vk<const O: usize>(v: usize, k: i32) -> Fun {
    Box::new(move |e| binary(BIN[O], e[v & 3], k))
}
fn kv<const O: usize>(k: i32, v: usize) -> Fun {
    Box::new(move |e| binary(BIN[O], k, e[v & 3]))
}
fn vv<const O: usize>(v: usize, w: usize) -> Fun {
    Box::new(move |e| binary(BIN[O], e[v & 3], e[w & 3]))
}
fn fk<const O: usize>(f: Fun, k: i32) -> Fun {
    Box::new(move |e| binary(BIN[O], f(e), k))
}
fn kf<const O: usize>(k: i32, f: Fun) -> Fun {
    Box::new(move |e| binary(BIN[O], k, f(e)))
}
fn ff<const O: usize>(f: Fun, g: Fun) -> Fun {
    Box::new(move |e| binary(BIN[O], f(e), g(e)))
}

fn slot(v: Var) -> usize {
    let i = v as usize;
    assert!(i < 4, "{v:?} is folded away before compiling");
    i
}

/// Compiles a folded tree (only me/other hp and max left) to a closure.
fn compile(t: &Tree) -> Fun {
    match t {
        Tree::K(c) => {
            let c = *c;
            Box::new(move |_| c)
        }
        Tree::V(v) => {
            let i = slot(*v);
            Box::new(move |e| e[i & 3])
        }
        Tree::Un(op, a) => {
            let f = compile(a);
            match op {
                Op::Neg => Box::new(move |e| f(e).wrapping_neg()),
                _ => Box::new(move |e| (f(e) == 0) as i32),
            }
        }
        Tree::Bin(op, a, b) => match (&**a, &**b) {
            (Tree::V(v), Tree::K(k)) => by_op!(*op, vk(slot(*v), *k)),
            (Tree::K(k), Tree::V(v)) => by_op!(*op, kv(*k, slot(*v))),
            (Tree::V(v), Tree::V(w)) => by_op!(*op, vv(slot(*v), slot(*w))),
            (_, Tree::K(k)) => by_op!(*op, fk(compile(a), *k)),
            (Tree::K(k), _) => by_op!(*op, kf(*k, compile(b))),
            _ => by_op!(*op, ff(compile(a), compile(b))),
        },
    }
}

struct FoldedCase {
    when: Option<Fun>,
    ap: Fun,
    damage_other: Option<Fun>,
}

/// A folded case: its test (none: always), its action points, its side effect.
type Kept = (Option<Tree>, Tree, Option<Tree>);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// The rule's answer whatever the hit points.
    Const(i32),
    /// A comparison of one variable with a constant choosing between two constants (a coward:
    /// `other.hp < 10` -> 10, else 0), the commonest rule left after folding, answered without
    /// a call.
    Guard(Guarded),
    /// A rule without side effects, compiled whole to one closure, `rules[i]`.
    Rule(u32),
    /// A rule with a side effect: its cases, a range of `cases`.
    Cases { start: u32, len: u32 },
}

/// A guard `me/other var <op> constant` choosing between two constants: one call for the
/// commonest rule shape (a coward: `other.hp < 10` -> 10, else 0).
fn pick_vk<const O: usize>(v: usize, k: i32, then: i32, other: i32) -> Fun {
    Box::new(move |e| {
        if binary(BIN[O], e[v & 3], k) != 0 {
            then
        } else {
            other
        }
    })
}
fn pick_vv<const O: usize>(v: usize, w: usize, then: i32, other: i32) -> Fun {
    Box::new(move |e| {
        if binary(BIN[O], e[v & 3], e[w & 3]) != 0 {
            then
        } else {
            other
        }
    })
}

/// The [`Entry::Guard`] of a rule `when v <op> k: then; else: other`, if it is one.
fn guard(cases: &[Kept]) -> Option<Entry> {
    let [
        (Some(Tree::Bin(op, a, b)), Tree::K(then), None),
        (None, Tree::K(other), None),
    ] = cases
    else {
        return None;
    };
    // Constant on the left: the same test seen from the variable.
    let (var, op, k) = match (&**a, &**b) {
        (Tree::V(v), Tree::K(k)) => (*v, *op, *k),
        (Tree::K(k), Tree::V(v)) => {
            let flipped = match op {
                Op::Lt => Op::Gt,
                Op::Le => Op::Ge,
                Op::Gt => Op::Lt,
                Op::Ge => Op::Le,
                _ => *op,
            };
            (*v, flipped, *k)
        }
        _ => return None,
    };
    let (then, other) = (*then, *other);
    // The values for which the test holds, as an interval [lo, hi] (`!=` holds outside one).
    let (lo, hi, then, other) = match op {
        Op::Lt => (i32::MIN, k.checked_sub(1)?, then, other),
        Op::Le => (i32::MIN, k, then, other),
        Op::Gt => (k.checked_add(1)?, i32::MAX, then, other),
        Op::Ge => (k, i32::MAX, then, other),
        Op::Eq => (k, k, then, other),
        Op::Ne => (k, k, other, then),
        _ => return None,
    };
    Some(Entry::Guard(Guarded {
        var: slot(var) as u8,
        lo,
        span: hi.wrapping_sub(lo) as u32,
        then,
        other,
    }))
}

/// Compiles a side-effect-free rule (its folded cases, the last one without a test) to one
/// closure: first case whose test holds gives the action points.
fn compile_rule(cases: &[Kept]) -> Fun {
    match cases {
        [(None, ap, _), ..] => compile(ap),
        [(Some(w), ap, _), rest @ ..] => {
            // Two constants behind a single comparison: no nested calls at all.
            if let ([(None, Tree::K(other), _)], Tree::K(then), Tree::Bin(op, a, b)) = (rest, ap, w)
            {
                let (then, other) = (*then, *other);
                match (&**a, &**b) {
                    (Tree::V(v), Tree::K(k)) => {
                        return by_op!(*op, pick_vk(slot(*v), *k, then, other));
                    }
                    (Tree::V(v), Tree::V(u)) => {
                        return by_op!(*op, pick_vv(slot(*v), slot(*u), then, other));
                    }
                    _ => {}
                }
            }
            let (w, rest) = (compile(w), compile_rule(rest));
            match ap {
                Tree::K(then) => {
                    let then = *then;
                    Box::new(move |e| if w(e) != 0 { then } else { rest(e) })
                }
                _ => {
                    let ap = compile(ap);
                    Box::new(move |e| if w(e) != 0 { ap(e) } else { rest(e) })
                }
            }
        }
        [] => unreachable!("the last case has no `when` (checked when the clan compiled)"),
    }
}

/// A member's folded rule facing one kind of partner, as the engine runs it: monomorphic, so
/// a run of pairs of one kind pair decides without matching the rule's shape each time.
pub trait Rule {
    /// The rule's action points and the damage its case deals the partner first, if any
    /// (the same answer as [`Pairs::decide`]).
    fn decide(&self, mode: Mode, me: (i32, i32), other: (i32, i32)) -> (i32, Option<i32>);
}

/// The shapes of [`Rule`] a slot can have.
pub enum Folded<'a> {
    Fixed(Fixed),
    Guarded(Guarded),
    Compiled(Compiled<'a>),
    AtSlot(AtSlot<'a>),
}

/// A rule that folded to one answer.
pub struct Fixed(i32);

impl Rule for Fixed {
    #[inline(always)]
    fn decide(&self, _: Mode, _: (i32, i32), _: (i32, i32)) -> (i32, Option<i32>) {
        (self.0, None)
    }
}

/// `then` when variable `var` lies in [lo, lo + span], else `other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guarded {
    var: u8,
    lo: i32,
    span: u32,
    then: i32,
    other: i32,
}

impl Rule for Guarded {
    #[inline(always)]
    fn decide(&self, _: Mode, me: (i32, i32), other: (i32, i32)) -> (i32, Option<i32>) {
        let x = [me.0, me.1, other.0, other.1][self.var as usize & 3];
        let holds = x.wrapping_sub(self.lo) as u32 <= self.span;
        (if holds { self.then } else { self.other }, None)
    }
}

/// A rule without side effects compiled whole to one closure.
pub struct Compiled<'a>(&'a Fun);

impl Rule for Compiled<'_> {
    #[inline(always)]
    fn decide(&self, _: Mode, me: (i32, i32), other: (i32, i32)) -> (i32, Option<i32>) {
        ((self.0)(&[me.0, me.1, other.0, other.1]), None)
    }
}

/// Any slot's rule, matched at each decision (the pair-order path, and rules with side effects).
pub struct AtSlot<'a>(pub &'a Pairs, pub usize);

impl Rule for AtSlot<'_> {
    #[inline(always)]
    fn decide(&self, mode: Mode, me: (i32, i32), other: (i32, i32)) -> (i32, Option<i32>) {
        self.0.decide(mode, self.1, me, other)
    }
}

/// Every kind's rule folded for each partner class, indexed by [`Pairs::slot`].
#[derive(Clone)]
pub struct Pairs {
    entries: Vec<Entry>,
    rules: Arc<[Fun]>,
    cases: Arc<[FoldedCase]>,
}

impl fmt::Debug for Pairs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Pairs {{ {} entries, {} constant, {} rules, {} cases }}",
            self.entries.len(),
            self.constant(),
            self.rules.len(),
            self.cases.len()
        )
    }
}

impl Pairs {
    /// `rules[k]` is kind k's cases, programs in `ops`.
    pub fn new<'a>(rules: impl Iterator<Item = &'a [Case]>, ops: &[Op]) -> Pairs {
        let tree = |p: crate::games::clan_melee::input::expr::Prog| {
            Tree::from_postfix(&ops[p.start as usize..(p.start + p.len) as usize])
        };
        let mut entries = Vec::new();
        let mut funs = Vec::new();
        let mut cases = Vec::new();
        for rule in rules {
            for class in 0..4 {
                let (same, healer) = (class & 2 != 0, class & 1 != 0);
                let mut kept: Vec<Kept> = Vec::new();
                for c in rule {
                    let when = c.when.map(|w| tree(w).fold(same, healer));
                    if when == Some(Tree::K(0)) {
                        continue;
                    }
                    let last = matches!(when, None | Some(Tree::K(_)));
                    kept.push((
                        when.filter(|w| !matches!(w, Tree::K(_))),
                        tree(c.ap).fold(same, healer),
                        c.damage_other.map(|d| tree(d).fold(same, healer)),
                    ));
                    if last {
                        break;
                    }
                }
                let guarded = guard(&kept);
                entries.push(match kept.as_slice() {
                    [(None, Tree::K(ap), None)] => Entry::Const(*ap),
                    _ if guarded.is_some() => guarded.expect("a guard"),
                    _ if kept.iter().all(|(_, _, d)| d.is_none()) => {
                        funs.push(compile_rule(&kept));
                        Entry::Rule(funs.len() as u32 - 1)
                    }
                    _ => {
                        let start = cases.len() as u32;
                        for (w, ap, d) in &kept {
                            cases.push(FoldedCase {
                                when: w.as_ref().map(compile),
                                ap: compile(ap),
                                damage_other: d.as_ref().map(compile),
                            });
                        }
                        Entry::Cases {
                            start,
                            len: kept.len() as u32,
                        }
                    }
                });
            }
        }
        Pairs {
            entries,
            rules: funs.into(),
            cases: cases.into(),
        }
    }

    /// Where kind `me`'s rule facing a partner of this class lives.
    #[inline(always)]
    pub fn slot(me: u16, same: bool, healer: bool) -> usize {
        me as usize * 4 + (same as usize) * 2 + healer as usize
    }

    /// The same answer as [`crate::games::clan_melee::state::Field::decide`] for a partner of `slot`'s class.
    #[inline(always)]
    pub fn decide(
        &self,
        mode: Mode,
        slot: usize,
        me: (i32, i32),
        other: (i32, i32),
    ) -> (i32, Option<i32>) {
        match self.entries[slot] {
            Entry::Const(ap) => (ap, None),
            Entry::Guard(g) => g.decide(mode, me, other),
            Entry::Rule(i) => Compiled(&self.rules[i as usize]).decide(mode, me, other),
            Entry::Cases { start, len } => self.decide_cases(mode, start, len, me, other),
        }
    }

    /// `slot`'s rule, read once for a run of decisions against one kind of partner.
    #[inline(always)]
    pub fn rule(&self, slot: usize) -> Folded<'_> {
        match self.entries[slot] {
            Entry::Const(ap) => Folded::Fixed(Fixed(ap)),
            Entry::Guard(g) => Folded::Guarded(g),
            Entry::Rule(i) => Folded::Compiled(Compiled(&self.rules[i as usize])),
            Entry::Cases { .. } => Folded::AtSlot(AtSlot(self, slot)),
        }
    }

    /// A rule with a side effect, case by case (rare: kept out of the engine's loop).
    #[inline(never)]
    fn decide_cases(
        &self,
        mode: Mode,
        start: u32,
        len: u32,
        me: (i32, i32),
        other: (i32, i32),
    ) -> (i32, Option<i32>) {
        let mut v: Vars = [me.0, me.1, other.0, other.1];
        for c in &self.cases[start as usize..(start + len) as usize] {
            if let Some(w) = &c.when
                && w(&v) == 0
            {
                continue;
            }
            // As in Field::decide: sane mode deals no negative damage (CM-10), and the side
            // effect lands before the action points are read (CM-24).
            let hit = c.damage_other.as_ref().map(|d| mode.floor(d(&v)));
            if let Some(d) = hit {
                v[2] = rules::damage(other.0, d);
            }
            return ((c.ap)(&v), hit);
        }
        unreachable!("the last case has no `when` (checked when the clan compiled)")
    }

    fn constant(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e, Entry::Const(_)))
            .count()
    }

    /// Share of (kind, class) rules that fold to a constant.
    pub fn constant_share(&self) -> f64 {
        self.constant() as f64 / self.entries.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::clan_melee::input::expr::{DECISION_VARS, Env, compile as parse, eval};

    fn env(v: Vars, same: bool, healer: bool) -> Env {
        let mut e = [0; 9];
        e[..4].copy_from_slice(&v);
        e[Var::Same as usize] = same as i32;
        e[Var::OtherHealer as usize] = healer as i32;
        e[Var::OtherWarrior as usize] = !healer as i32;
        e
    }

    const SAMPLES: [i32; 12] = [0, 1, -1, 2, 9, 10, 11, 500, 1000, -7, i32::MAX, i32::MIN];

    // Folding and closure compilation change no value, edge cases (wrapping, division by zero,
    // `and` / `or` with constants on either side) included.
    #[test]
    fn folded_closures_agree_with_the_interpreter() {
        let exprs = [
            "same and other.hp < other.max / 2",
            "not same or me.hp == me.max",
            "other.healer and other.hp > me.hp and other.hp <= other.max / 3",
            "me.hp or same",
            "same or me.hp",
            "other.warrior and 7",
            "3 and me.max",
            "not (same and other.healer) - -other.max % me.hp",
            "10 * min(11, other.max / other.hp)",
            "min(2 * me.hp + 9, other.hp) * (other.hp == other.max)",
            "max(me.hp, other.hp) - 2 * (me.max / 2) + 8",
            "other.max - other.hp - 1 + same * 100 - other.healer",
            "me.hp / 0 + 4 % me.hp",
            "same",
        ];
        for src in exprs {
            let mut ops = Vec::new();
            let p = parse(src, DECISION_VARS, &mut ops).unwrap();
            let body = &ops[p.start as usize..(p.start + p.len) as usize];
            for same in [false, true] {
                for healer in [false, true] {
                    let f = compile(&Tree::from_postfix(body).fold(same, healer));
                    for a in SAMPLES {
                        for b in SAMPLES {
                            let v = [a, b, b.wrapping_sub(a), a.wrapping_mul(3)];
                            assert_eq!(
                                f(&v),
                                eval(body, &env(v, same, healer)),
                                "{src} at {v:?}, same {same}, healer {healer}"
                            );
                        }
                    }
                }
            }
        }
    }

    // Every way a rule is answered (a constant, a guard between two constants, one closure for
    // the whole rule) gives the interpreter's answer, case by case, for each partner class.
    #[test]
    fn rules_compiled_whole_agree_with_the_interpreter() {
        let rules: [&[(Option<&str>, &str)]; 11] = [
            &[(Some("other.hp < 10"), "10"), (None, "0")],
            &[(Some("10 > other.hp"), "10"), (None, "0")],
            &[(Some("me.hp != 9"), "7"), (None, "-3")],
            &[(Some("2147483647 <= me.max"), "1"), (None, "2")],
            &[(Some("me.hp < -2147483647 - 1"), "1"), (None, "2")],
            &[(Some("me.hp >= other.hp"), "12"), (None, "3")],
            &[
                (Some("same and other.hp < other.max / 2"), "20"),
                (None, "0"),
            ],
            &[
                (Some("same"), "0"),
                (Some("other.healer"), "min(other.hp, 2 * (me.hp / 2) + 9)"),
                (Some("other.hp <= other.max / 3"), "48"),
                (None, "10 * min(11, other.max / other.hp)"),
            ],
            &[
                (Some("not same"), "me.max - 1"),
                (None, "other.hp == other.max"),
            ],
            &[(None, "other.max - other.hp - 1")],
            &[(Some("not same"), "10"), (None, "0")],
        ];
        let mut ops = Vec::new();
        let kinds: Vec<Vec<Case>> = rules
            .iter()
            .map(|rule| {
                rule.iter()
                    .map(|(w, ap)| Case {
                        when: w.map(|w| parse(w, DECISION_VARS, &mut ops).unwrap()),
                        ap: parse(ap, DECISION_VARS, &mut ops).unwrap(),
                        damage_other: None,
                    })
                    .collect()
            })
            .collect();
        let pairs = Pairs::new(kinds.iter().map(|k| k.as_slice()), &ops);
        assert!(
            pairs
                .entries
                .iter()
                .filter(|e| matches!(e, Entry::Guard(_)))
                .count()
                == 16,
            "the guard shapes above become guards: {:?}",
            pairs.entries
        );
        let body = |p: crate::games::clan_melee::input::expr::Prog| {
            &ops[p.start as usize..(p.start + p.len) as usize]
        };
        for (k, cases) in kinds.iter().enumerate() {
            for same in [false, true] {
                for healer in [false, true] {
                    let slot = Pairs::slot(k as u16, same, healer);
                    for a in SAMPLES {
                        for b in SAMPLES {
                            let v = [a, b, b.wrapping_sub(a), a.wrapping_mul(3)];
                            let e = env(v, same, healer);
                            let want = cases
                                .iter()
                                .find(|c| c.when.is_none_or(|w| eval(body(w), &e) != 0))
                                .map(|c| eval(body(c.ap), &e))
                                .unwrap();
                            let got =
                                pairs.decide(Mode::Reference, slot, (v[0], v[1]), (v[2], v[3]));
                            assert_eq!(
                                got,
                                (want, None),
                                "rule {k} at {v:?}, same {same}, healer {healer}"
                            );
                            // The engine's grouped path reads the rule once as its shape.
                            let (me, other) = ((v[0], v[1]), (v[2], v[3]));
                            let m = Mode::Reference;
                            let shaped = match pairs.rule(slot) {
                                Folded::Fixed(r) => r.decide(m, me, other),
                                Folded::Guarded(r) => r.decide(m, me, other),
                                Folded::Compiled(r) => r.decide(m, me, other),
                                Folded::AtSlot(r) => r.decide(m, me, other),
                            };
                            assert_eq!(shaped, got, "rule {k} read as its shape at {v:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn partner_class_tests_fold_to_constants() {
        let fold = |src: &str, same, healer| {
            let mut ops = Vec::new();
            let p = parse(src, DECISION_VARS, &mut ops).unwrap();
            Tree::from_postfix(&ops[p.start as usize..(p.start + p.len) as usize])
                .fold(same, healer)
        };
        assert_eq!(fold("not same", false, true), Tree::K(1));
        assert_eq!(
            fold("same and other.hp < 10", false, false),
            Tree::K(0),
            "a clan test that fails drops the case"
        );
        assert_eq!(
            fold("same and other.hp < 10", true, false),
            fold("other.hp < 10", true, false),
            "a clan test that holds leaves the rest"
        );
        assert_eq!(fold("10 + 2 * 5", true, true), Tree::K(20));
    }
}
