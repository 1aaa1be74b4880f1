//! Bidding strategies for the full game (`game.rs`): each a small parameterised rule that bids,
//! submits 2 powers a round and keeps or changes its use order. Strategies see only the public
//! state (`game::View`, AR-48) and their own randomness. Bidding writes into the caller's row:
//! nothing is allocated per bid.

use crate::error::Error;
use rand::RngExt;

use crate::games::auto_rumble::game::view::{DecideRng, Sizes, View};
use crate::games::auto_rumble::powers::catalogue::{Catalogue, PowerId, Use};

/// A strategy and its parameters. `values` are coin values by power id (from
/// `skirmish analyze rumble powers`): what value-aware strategies bid from.
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    pub kind: Kind,
    pub values: Vec<f64>,
    /// Power ids from the most to the least valuable, helpers left out (AR-55).
    ranked: Vec<PowerId>,
    /// The powers it may submit to the pool: every power but the helpers (AR-55).
    offerable: Vec<PowerId>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Bids on each offered power with probability `p`, a uniform amount in 1 ..= balance.
    Random { p: f64 },
    /// Bids `bid` coins on every offered power it values above 0; keeps its coins for the stat
    /// bonus (AR-2).
    Hoarder { bid: i32 },
    /// A little on everything: balance / offers on each offered power.
    Spreader,
    /// Everything on its `n` favourite powers (the most valuable): its whole balance on a
    /// favourite when one is offered (split evenly when several are); submits its favourites.
    Sniper { n: u8 },
    /// Bids `shade` x the power's coin value on each offered power worth more than 0.
    Value { shade: f64 },
    /// The winner (by measurement, README): a value bidder that never pays more than it must. No
    /// single bid can exceed a balance, so the richest rival's balance + 1 wins outright; where
    /// that is below the power's value it bids exactly that, else `shade` x the value. Powers
    /// worth more than `min` coins only.
    Outbid { shade: f64, min: f64 },
    /// Plans its eight slots: bids `shade` x value only on the `top` most valuable powers of the
    /// catalogue, and in the last `fill` rounds 1 coin on any other power worth more than 0 that
    /// still fits (the hoarder's cheap filler). Spends few coins, which the final battle turns
    /// into Energy, damage and initiative (AR-2), and keeps its slots for the powers that matter.
    Planner { shade: f64, top: u8, fill: u8 },
    /// The best-response family (issue 54, AR-71): on each offered power worth more than `min`
    /// coins that fits, bids its value times a share that moves with the round (0 in round 1, 1
    /// in round 10), the balance (per 100 coins) and the powers held (per 8):
    /// `base + round x r + coins x balance / 100 + held x n / 8`, at least 1 coin while the share
    /// is above 0 (a tiny share bids like the hoarder; 0.8 flat like `value`).
    Share {
        base: f64,
        round: f64,
        coins: f64,
        held: f64,
        min: f64,
    },
}

pub const NAMES: &[&str] = &[
    "random", "hoarder", "spreader", "sniper", "value", "outbid", "planner", "share",
];

impl Kind {
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Random { .. } => "random",
            Kind::Hoarder { .. } => "hoarder",
            Kind::Spreader => "spreader",
            Kind::Sniper { .. } => "sniper",
            Kind::Value { .. } => "value",
            Kind::Outbid { .. } => "outbid",
            Kind::Planner { .. } => "planner",
            Kind::Share { .. } => "share",
        }
    }

    /// `name` or `name(key=value, ...)`, e.g. `value(shade=0.8)`.
    pub fn parse(spec: &str) -> Result<Kind, Error> {
        let spec = spec.trim();
        let (name, params) = match spec.split_once('(') {
            Some((n, rest)) => {
                let Some(p) = rest.strip_suffix(')') else {
                    return Err(Error::Input(format!(
                        "strategy `{spec}`: close the parameters, e.g. value(shade=0.8)"
                    )));
                };
                (n.trim(), p)
            }
            None => (spec, ""),
        };
        let mut kv = Vec::new();
        for part in params.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((k, v)) = part.split_once('=') else {
                return Err(Error::Input(format!(
                    "strategy `{spec}`: parameter `{part}` needs a value, e.g. {}",
                    example(name)
                )));
            };
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("strategy `{spec}`: `{k}` = `{v}` is not a number"))?;
            kv.push((k.trim().to_string(), v));
        }
        let mut kind = match name {
            "random" => Kind::Random { p: 0.5 },
            "hoarder" => Kind::Hoarder { bid: 1 },
            "spreader" => Kind::Spreader,
            "sniper" => Kind::Sniper { n: 2 },
            "value" => Kind::Value { shade: 0.8 },
            "outbid" => Kind::Outbid {
                shade: 0.8,
                min: 2.0,
            },
            "planner" => Kind::Planner {
                shade: 0.3,
                top: 8,
                fill: 5,
            },
            "share" => Kind::Share {
                base: 0.5,
                round: 0.0,
                coins: 0.0,
                held: 0.0,
                min: 0.0,
            },
            other => {
                return Err(Error::Input(format!(
                    "unknown strategy `{other}`: {}; known: {}",
                    crate::games::auto_rumble::powers::sample::closest_name(
                        other,
                        NAMES.iter().copied()
                    )
                    .map(|n| format!("did you mean `{n}`?"))
                    .unwrap_or_default(),
                    NAMES.join(", ")
                )));
            }
        };
        for (k, v) in kv {
            let bad = || {
                Error::Input(format!(
                    "strategy `{spec}`: `{name}` has no parameter `{k}` (or {v} is out of range); e.g. {}",
                    example(name)
                ))
            };
            match (&mut kind, k.as_str()) {
                (Kind::Random { p }, "p") if (0.0..=1.0).contains(&v) => *p = v,
                (Kind::Hoarder { bid }, "bid") if v >= 0.0 && v.fract() == 0.0 => *bid = v as i32,
                (Kind::Sniper { n }, "n") if (1.0..=8.0).contains(&v) && v.fract() == 0.0 => {
                    *n = v as u8
                }
                (Kind::Value { shade }, "shade") | (Kind::Outbid { shade, .. }, "shade")
                    if (0.0..=10.0).contains(&v) =>
                {
                    *shade = v
                }
                (Kind::Outbid { min, .. }, "min") => *min = v,
                (Kind::Planner { shade, .. }, "shade") if (0.0..=10.0).contains(&v) => *shade = v,
                (Kind::Planner { top, .. }, "top")
                    if (0.0..=255.0).contains(&v) && v.fract() == 0.0 =>
                {
                    *top = v as u8
                }
                (Kind::Planner { fill, .. }, "fill")
                    if (0.0..=10.0).contains(&v) && v.fract() == 0.0 =>
                {
                    *fill = v as u8
                }
                (
                    Kind::Share {
                        base,
                        round,
                        coins,
                        held,
                        min,
                    },
                    key,
                ) if (-10.0..=10.0).contains(&v)
                    || (key == "min" && (0.0..=1000.0).contains(&v)) =>
                {
                    match key {
                        "base" => *base = v,
                        "round" => *round = v,
                        "coins" => *coins = v,
                        "held" => *held = v,
                        "min" if v >= 0.0 => *min = v,
                        _ => return Err(bad()),
                    }
                }
                _ => return Err(bad()),
            }
        }
        Ok(kind)
    }

    /// The canonical spelling, with every parameter.
    pub fn spec(&self) -> String {
        match self {
            Kind::Random { p } => format!("random(p={p})"),
            Kind::Hoarder { bid } => format!("hoarder(bid={bid})"),
            Kind::Spreader => "spreader".into(),
            Kind::Sniper { n } => format!("sniper(n={n})"),
            Kind::Value { shade } => format!("value(shade={shade})"),
            Kind::Outbid { shade, min } => format!("outbid(shade={shade}, min={min})"),
            Kind::Planner { shade, top, fill } => {
                format!("planner(shade={shade}, top={top}, fill={fill})")
            }
            Kind::Share {
                base,
                round,
                coins,
                held,
                min,
            } => format!(
                "share(base={}, round={}, coins={}, held={}, min={})",
                r3(*base),
                r3(*round),
                r3(*coins),
                r3(*held),
                r3(*min)
            ),
        }
    }
}

/// Three decimals, as a spec prints a searched parameter.
fn r3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn example(name: &str) -> &'static str {
    match name {
        "random" => "random(p=0.5)",
        "hoarder" => "hoarder(bid=1)",
        "sniper" => "sniper(n=2)",
        "outbid" => "outbid(shade=0.8, min=2)",
        "planner" => "planner(shade=0.3, top=8, fill=5)",
        "share" => "share(base=0.5, round=0, coins=0, held=0, min=0)",
        _ => "value(shade=0.8)",
    }
}

impl Strategy {
    /// A strategy for `cat`'s game: it never submits a helper power (AR-55). With no helpers in
    /// the file it is [`Strategy::new`].
    pub fn for_catalogue(kind: Kind, values: Vec<f64>, cat: &Catalogue) -> Strategy {
        let mut s = Strategy::new(kind, values);
        s.ranked.retain(|p| cat.drawable.contains(p));
        s.offerable = cat.drawable.clone();
        s
    }

    pub fn new(kind: Kind, values: Vec<f64>) -> Strategy {
        let mut ranked: Vec<PowerId> = (0..values.len() as PowerId).collect();
        ranked.sort_by(|&a, &b| {
            values[b as usize]
                .total_cmp(&values[a as usize])
                .then(a.cmp(&b))
        });
        let offerable = (0..values.len() as PowerId).collect();
        Strategy {
            kind,
            values,
            ranked,
            offerable,
        }
    }

    fn value(&self, p: PowerId) -> f64 {
        self.values[p as usize]
    }

    fn favourite(&self, p: PowerId, n: u8) -> bool {
        self.ranked[..(n as usize).min(self.ranked.len())].contains(&p)
    }

    /// The 2 powers it submits to the pool (rounds 1-9).
    pub fn submit(&self, _view: &View<'_>, rng: &mut DecideRng) -> [PowerId; 2] {
        let m = self.offerable.len() as u32;
        let top = |i: usize| self.ranked[i.min(self.ranked.len() - 1)];
        match self.kind {
            Kind::Random { .. } | Kind::Spreader => [
                self.offerable[rng.random_range(0..m) as usize],
                self.offerable[rng.random_range(0..m) as usize],
            ],
            // The hoarder feeds the pool the weakest powers: less for others to gain.
            Kind::Hoarder { .. } => {
                let l = self.ranked.len();
                [self.ranked[l - 1], self.ranked[l.saturating_sub(2)]]
            }
            Kind::Sniper { .. }
            | Kind::Value { .. }
            | Kind::Outbid { .. }
            | Kind::Planner { .. }
            | Kind::Share { .. } => [top(0), top(1)],
        }
    }

    /// Fills `bids[o]` for each offered power `view.offered[o]` (the row is zeroed). The engine
    /// zeroes bids on powers the player may not take and caps each at the balance.
    pub fn bid(&self, view: &View<'_>, sizes: &Sizes, rng: &mut DecideRng, bids: &mut [i32]) {
        let me = view.me();
        let balance = me.balance;
        if balance <= 0 {
            return;
        }
        let offered = view.offered;
        match self.kind {
            Kind::Random { p } => {
                for b in bids.iter_mut() {
                    if crate::rng::unit_f64(rng) < p {
                        *b = rng.random_range(1..=balance);
                    }
                }
            }
            Kind::Hoarder { bid } => {
                for (b, &q) in bids.iter_mut().zip(offered) {
                    if self.value(q) > 0.0 {
                        *b = bid;
                    }
                }
            }
            Kind::Spreader => {
                let each = balance / offered.len().max(1) as i32;
                bids.fill(each.max(1));
            }
            Kind::Sniper { n } => {
                let wanted = offered
                    .iter()
                    .filter(|&&q| self.favourite(q, n) && sizes.fits(me, q))
                    .count() as i32;
                if wanted > 0 {
                    for (b, &q) in bids.iter_mut().zip(offered) {
                        if self.favourite(q, n) && sizes.fits(me, q) {
                            *b = balance / wanted;
                        }
                    }
                }
            }
            Kind::Value { shade } => {
                for (b, &q) in bids.iter_mut().zip(offered) {
                    let v = self.value(q);
                    if v > 0.0 {
                        *b = (shade * v).floor() as i32;
                    }
                }
            }
            Kind::Outbid { shade, min } => {
                let sure = view.richest_rival().max(0) + 1;
                for (b, &q) in bids.iter_mut().zip(offered) {
                    let v = self.value(q);
                    if v > min {
                        *b = if (sure as f64) < v {
                            sure
                        } else {
                            (shade * v).floor() as i32
                        };
                    }
                }
            }
            Kind::Planner { shade, top, fill } => {
                let filling =
                    view.round + fill as usize >= crate::games::auto_rumble::game::view::ROUNDS;
                for (b, &q) in bids.iter_mut().zip(offered) {
                    let v = self.value(q);
                    if v <= 0.0 || !sizes.fits(me, q) {
                        continue;
                    }
                    if self.favourite(q, top) {
                        *b = ((shade * v).floor() as i32).max(1);
                    } else if filling {
                        *b = 1;
                    }
                }
            }
            Kind::Share {
                base,
                round,
                coins,
                held,
                min,
            } => {
                let r =
                    view.round as f64 / (crate::games::auto_rumble::game::view::ROUNDS - 1) as f64;
                let share = base
                    + round * r
                    + coins * balance as f64 / 100.0
                    + held * me.n_held as f64 / 8.0;
                if share > 0.0 {
                    for (b, &q) in bids.iter_mut().zip(offered) {
                        let v = self.value(q);
                        if v > min && sizes.fits(me, q) {
                            *b = ((share * v).min(1e9).floor() as i32).max(1);
                        }
                    }
                }
            }
        }
    }

    /// May reorder the use order before new powers join its bottom. The strategies here keep it
    /// ("newly won powers enter the bottom", then nobody moves them).
    pub fn reorder(&self, _view: &View<'_>, _order: &mut [Use]) {}
}
