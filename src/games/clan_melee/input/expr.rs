//! The integer expressions clan files are written in (CM-20): `10 + 2 * me.hp`,
//! `same and other.hp < other.max / 2`. Compiled once into a flat postfix program that the engine
//! runs on a small fixed stack: no allocation, no recursion, no branches to mispredict on the
//! expression's shape.
//!
//! Arithmetic is the reference engine's: wrapping 32-bit integers, `/` and `%` truncate toward zero
//! (a division by zero gives 0, CM-21). Comparisons and `and` / `or` / `not` give 1 or 0; any
//! non-zero value is true. Nothing here knows about members or turns: the caller supplies the
//! variables.

use std::fmt;

/// What an expression may read. Which ones a given field allows is the caller's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Var {
    MeHp = 0,
    MeMax = 1,
    OtherHp = 2,
    OtherMax = 3,
    /// 1 when the partner is of the member's own clan.
    Same = 4,
    /// 1 when the partner is a healer.
    OtherHealer = 5,
    /// 1 when the partner is a warrior.
    OtherWarrior = 6,
    /// The clan's hit-point budget (rosters).
    Budget = 7,
    /// The budget minus the hit points of the members made so far (rosters).
    Rest = 8,
}

/// Names as written in files.
pub const VARS: &[(&str, Var)] = &[
    ("me.hp", Var::MeHp),
    ("me.max", Var::MeMax),
    ("other.hp", Var::OtherHp),
    ("other.max", Var::OtherMax),
    ("same", Var::Same),
    ("other.healer", Var::OtherHealer),
    ("other.warrior", Var::OtherWarrior),
    ("H", Var::Budget),
    ("rest", Var::Rest),
];

/// The variables a decision rule sees.
pub const DECISION_VARS: &[Var] = &[
    Var::MeHp,
    Var::MeMax,
    Var::OtherHp,
    Var::OtherMax,
    Var::Same,
    Var::OtherHealer,
    Var::OtherWarrior,
];
/// The variables a roster step sees.
pub const ROSTER_VARS: &[Var] = &[Var::Budget, Var::Rest];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Const(i32),
    Load(Var),
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Neg,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    Not,
    Min,
    Max,
}

/// Deepest stack any program may need; the parser refuses deeper expressions.
pub const MAX_STACK: usize = 16;

/// A compiled expression: a range of a shared op buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prog {
    pub start: u32,
    pub len: u32,
}

/// Variable values, indexed by `Var as usize`.
pub type Env = [i32; 9];

/// Runs `ops` (one program) on `env`.
#[inline]
pub fn eval(ops: &[Op], env: &Env) -> i32 {
    let mut stack = [0i32; MAX_STACK];
    let mut sp = 0usize;
    for op in ops {
        match *op {
            Op::Const(c) => {
                stack[sp] = c;
                sp += 1;
            }
            Op::Load(v) => {
                stack[sp] = env[v as usize];
                sp += 1;
            }
            Op::Neg | Op::Not => stack[sp - 1] = unary(*op, stack[sp - 1]),
            bin => {
                sp -= 1;
                stack[sp - 1] = binary(bin, stack[sp - 1], stack[sp]);
            }
        }
    }
    stack[0]
}

/// A unary op on a value: the one definition the interpreter and the pair compiler
/// (`pairs.rs`) share.
#[inline(always)]
pub fn unary(op: Op, a: i32) -> i32 {
    match op {
        Op::Neg => a.wrapping_neg(),
        Op::Not => (a == 0) as i32,
        _ => unreachable!("{op:?} is not unary"),
    }
}

/// A binary op on two values (CM-21: wrapping, truncating, a division by zero is 0).
#[inline(always)]
pub fn binary(op: Op, a: i32, b: i32) -> i32 {
    match op {
        Op::Add => a.wrapping_add(b),
        Op::Sub => a.wrapping_sub(b),
        Op::Mul => a.wrapping_mul(b),
        Op::Div => {
            if b == 0 {
                0
            } else {
                a.wrapping_div(b)
            }
        }
        Op::Rem => {
            if b == 0 {
                0
            } else {
                a.wrapping_rem(b)
            }
        }
        Op::Lt => (a < b) as i32,
        Op::Le => (a <= b) as i32,
        Op::Gt => (a > b) as i32,
        Op::Ge => (a >= b) as i32,
        Op::Eq => (a == b) as i32,
        Op::Ne => (a != b) as i32,
        Op::And => (a != 0 && b != 0) as i32,
        Op::Or => (a != 0 || b != 0) as i32,
        Op::Min => a.min(b),
        Op::Max => a.max(b),
        _ => unreachable!("{op:?} is not binary"),
    }
}

/// Why an expression does not compile: the message says the fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError(pub String);

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i64),
    Ident(String),
    Sym(&'static str),
}

fn lex(src: &str) -> Result<Vec<Tok>, ExprError> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
                i += 1;
            }
            let t: String = src[s..i].chars().filter(|&c| c != '_').collect();
            let n: i64 = t
                .parse()
                .map_err(|_| ExprError(format!("`{}` is not a number", &src[s..i])))?;
            out.push(Tok::Num(n));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            out.push(Tok::Ident(src[s..i].to_string()));
        } else {
            let two = src.get(i..i + 2).unwrap_or("");
            let sym = ["<=", ">=", "==", "!="]
                .into_iter()
                .find(|s| *s == two)
                .or_else(|| {
                    ["+", "-", "*", "/", "%", "<", ">", "(", ")", ","]
                        .into_iter()
                        .find(|s| s.starts_with(c))
                });
            match sym {
                Some(s) => {
                    i += s.len();
                    out.push(Tok::Sym(s));
                }
                None => {
                    return Err(ExprError(format!(
                        "unexpected `{c}`: write integers, names like me.hp, + - * / %, comparisons, and / or / not, min(a, b), max(a, b)"
                    )));
                }
            }
        }
    }
    Ok(out)
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    allowed: &'a [Var],
    out: Vec<Op>,
    depth: usize,
    max_depth: usize,
    /// Parentheses, `min`/`max` and minus signs open around the parser's position: bounded, so
    /// a deeply nested expression is an error, not a stack overflow.
    nest: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Sym(x)) if *x == s) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn eat_word(&mut self, w: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Ident(x)) if x == w) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn push(&mut self, op: Op) {
        match op {
            Op::Const(_) | Op::Load(_) => {
                self.depth += 1;
                self.max_depth = self.max_depth.max(self.depth);
            }
            Op::Neg | Op::Not => {}
            _ => self.depth -= 1,
        }
        self.out.push(op);
    }
    fn or(&mut self) -> Result<(), ExprError> {
        self.and()?;
        while self.eat_word("or") {
            self.and()?;
            self.push(Op::Or);
        }
        Ok(())
    }
    fn and(&mut self) -> Result<(), ExprError> {
        self.not()?;
        while self.eat_word("and") {
            self.not()?;
            self.push(Op::And);
        }
        Ok(())
    }
    fn not(&mut self) -> Result<(), ExprError> {
        if self.eat_word("not") {
            self.not()?;
            self.push(Op::Not);
            return Ok(());
        }
        self.cmp()
    }
    fn cmp(&mut self) -> Result<(), ExprError> {
        self.sum()?;
        let op = match self.peek() {
            Some(Tok::Sym("<")) => Op::Lt,
            Some(Tok::Sym("<=")) => Op::Le,
            Some(Tok::Sym(">")) => Op::Gt,
            Some(Tok::Sym(">=")) => Op::Ge,
            Some(Tok::Sym("==")) => Op::Eq,
            Some(Tok::Sym("!=")) => Op::Ne,
            _ => return Ok(()),
        };
        self.at += 1;
        self.sum()?;
        self.push(op);
        Ok(())
    }
    fn sum(&mut self) -> Result<(), ExprError> {
        self.term()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Sym("+")) => Op::Add,
                Some(Tok::Sym("-")) => Op::Sub,
                _ => return Ok(()),
            };
            self.at += 1;
            self.term()?;
            self.push(op);
        }
    }
    fn term(&mut self) -> Result<(), ExprError> {
        self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Sym("*")) => Op::Mul,
                Some(Tok::Sym("/")) => Op::Div,
                Some(Tok::Sym("%")) => Op::Rem,
                _ => return Ok(()),
            };
            self.at += 1;
            self.unary()?;
            self.push(op);
        }
    }
    fn unary(&mut self) -> Result<(), ExprError> {
        self.nest += 1;
        if self.nest > MAX_NESTING {
            return Err(ExprError(format!(
                "nested more than {MAX_NESTING} deep: write the expression flatter"
            )));
        }
        let r = if self.peek() == Some(&Tok::Sym("-")) {
            self.at += 1;
            self.unary().map(|()| self.push(Op::Neg))
        } else {
            self.atom()
        };
        self.nest -= 1;
        r
    }
    fn atom(&mut self) -> Result<(), ExprError> {
        let Some(t) = self.peek().cloned() else {
            return Err(ExprError(
                "the expression ends too early: finish it, e.g. `10 + me.hp`".into(),
            ));
        };
        self.at += 1;
        match t {
            Tok::Num(n) => {
                let n = i32::try_from(n).map_err(|_| {
                    ExprError(format!(
                        "{n} does not fit a 32-bit integer: use a smaller number"
                    ))
                })?;
                self.push(Op::Const(n));
            }
            Tok::Sym("(") => {
                self.or()?;
                if !self.eat_sym(")") {
                    return Err(ExprError("missing `)`".into()));
                }
            }
            Tok::Ident(f) if f == "min" || f == "max" => {
                if !self.eat_sym("(") {
                    return Err(ExprError(format!("write `{f}(a, b)`")));
                }
                self.or()?;
                if !self.eat_sym(",") {
                    return Err(ExprError(format!("`{f}` takes two values: `{f}(a, b)`")));
                }
                self.or()?;
                if !self.eat_sym(")") {
                    return Err(ExprError(format!("`{f}(a, b)`: missing `)`")));
                }
                self.push(if f == "min" { Op::Min } else { Op::Max });
            }
            Tok::Ident(name) => {
                let known = self.allowed.iter().map(|v| name_of(*v));
                match VARS.iter().find(|(n, _)| *n == name) {
                    Some((_, v)) if self.allowed.contains(v) => self.push(Op::Load(*v)),
                    _ => {
                        let hint = crate::names::closest_name(&name, known)
                            .map(|n| format!("did you mean `{n}`? "))
                            .unwrap_or_default();
                        let names: Vec<&str> = self.allowed.iter().map(|v| name_of(*v)).collect();
                        return Err(ExprError(format!(
                            "unknown name `{name}`: {hint}here you may use {}",
                            names.join(", ")
                        )));
                    }
                }
            }
            Tok::Sym(s) => {
                return Err(ExprError(format!(
                    "unexpected `{s}`: expected a number, a name or `(`"
                )));
            }
        }
        Ok(())
    }
}

/// Deepest nesting of parentheses, `min`/`max` and minus signs an expression may have.
pub const MAX_NESTING: usize = 64;

fn name_of(v: Var) -> &'static str {
    VARS.iter().find(|(_, x)| *x == v).map(|(n, _)| *n).unwrap()
}

/// Compiles `src` into `ops` (appended), allowing only `allowed` variables.
pub fn compile(src: &str, allowed: &[Var], ops: &mut Vec<Op>) -> Result<Prog, ExprError> {
    let mut p = Parser {
        toks: lex(src)?,
        at: 0,
        allowed,
        out: Vec::new(),
        depth: 0,
        max_depth: 0,
        nest: 0,
    };
    if p.toks.is_empty() {
        return Err(ExprError(
            "empty expression: write a value, e.g. `10`".into(),
        ));
    }
    p.or()?;
    if let Some(t) = p.peek() {
        return Err(ExprError(format!(
            "unexpected {} after a complete expression: join the parts with an operator",
            match t {
                Tok::Num(n) => n.to_string(),
                Tok::Ident(s) => format!("`{s}`"),
                Tok::Sym(s) => format!("`{s}`"),
            }
        )));
    }
    if p.max_depth > MAX_STACK {
        return Err(ExprError(format!(
            "too deeply nested (needs a stack of {}, at most {MAX_STACK}): split it into cases",
            p.max_depth
        )));
    }
    let start = ops.len() as u32;
    ops.extend_from_slice(&p.out);
    Ok(Prog {
        start,
        len: p.out.len() as u32,
    })
}

impl Prog {
    #[inline]
    pub fn run(&self, ops: &[Op], env: &Env) -> i32 {
        eval(
            &ops[self.start as usize..(self.start + self.len) as usize],
            env,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str, env: &Env) -> i32 {
        let mut ops = Vec::new();
        let p = compile(src, DECISION_VARS, &mut ops).unwrap();
        p.run(&ops, env)
    }

    fn env(me: (i32, i32), other: (i32, i32), same: bool, healer: bool) -> Env {
        let mut e = [0; 9];
        e[Var::MeHp as usize] = me.0;
        e[Var::MeMax as usize] = me.1;
        e[Var::OtherHp as usize] = other.0;
        e[Var::OtherMax as usize] = other.1;
        e[Var::Same as usize] = same as i32;
        e[Var::OtherHealer as usize] = healer as i32;
        e[Var::OtherWarrior as usize] = !healer as i32;
        e
    }

    #[test]
    fn precedence_and_integer_division_truncate_toward_zero() {
        let e = env((7, 20), (-7, 9), true, false);
        assert_eq!(run("10 + 2 * me.hp", &e), 24);
        assert_eq!(
            run("other.hp / 2", &e),
            -3,
            "truncates toward zero, like Java"
        );
        assert_eq!(run("other.hp % 2", &e), -1);
        assert_eq!(run("-(me.hp - 10)", &e), 3);
        assert_eq!(run("same and other.hp < other.max / 2", &e), 1);
        assert_eq!(run("not same or me.hp == 7", &e), 1);
        assert_eq!(run("min(50, other.max) + max(1, 2)", &e), 11);
        assert_eq!(run("5 * other.hp <= 4 * other.max", &e), 1);
    }

    // CM-21: a division by zero is 0, so a guarded `other.max / other.hp` needs no short circuit.
    #[test]
    fn division_by_zero_is_zero_and_arithmetic_wraps() {
        let e = env((i32::MAX, 0), (0, 5), false, true);
        assert_eq!(run("other.max / other.hp", &e), 0);
        assert_eq!(run("other.max % other.hp", &e), 0);
        assert_eq!(run("2 * me.hp + 10", &e), 8, "wraps like a Java int");
        assert_eq!(run("other.hp == 0 or other.max / other.hp == 1", &e), 1);
    }

    #[test]
    fn unknown_names_and_bad_syntax_are_refused_with_the_fix() {
        let mut ops = Vec::new();
        let e = compile("other.hq + 1", DECISION_VARS, &mut ops).unwrap_err();
        assert!(e.0.contains("did you mean `other.hp`"), "{e}");
        let e = compile("H / 5", DECISION_VARS, &mut ops).unwrap_err();
        assert!(e.0.contains("unknown name `H`"), "{e}");
        assert!(compile("H / 5", ROSTER_VARS, &mut ops).is_ok());
        assert!(compile("10 +", DECISION_VARS, &mut ops).is_err());
        assert!(compile("(10", DECISION_VARS, &mut ops).is_err());
        assert!(compile("10 10", DECISION_VARS, &mut ops).is_err());
        assert!(compile("3000000000", DECISION_VARS, &mut ops).is_err());
        assert!(compile("10 $ 2", DECISION_VARS, &mut ops).is_err());
        assert!(compile("", DECISION_VARS, &mut ops).is_err());
    }
}
