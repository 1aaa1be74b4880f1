//! Strategy tournaments (`skirmish tournament rumble`, AR-50): full games on the platform, seats
//! rotated, one row per game, per player and per player-round.

use crate::error::Error;
use std::ops::Range;

use crate::games::auto_rumble::analysis::power_value::{PowerValue, ValueSettings};
use crate::games::auto_rumble::game::strategy::{Kind, Strategy};
use crate::games::auto_rumble::game::{
    self, GameSettings, MAX_PLAYERS, ROUNDS, Sizes, Table as GameTable,
};
use crate::games::auto_rumble::powers::catalogue::{Catalogue, MAX_HELD, PowerId};
use crate::platform::runner::Simulation;
use crate::platform::table::{Code, Codes, I32s, Table};
use crate::platform::tally::Tally;
use crate::rng::match_seed;

/// The tally's group of powers each strategy won.
const POWERS_WON: &str = "powers won, by strategy";

/// Where the value-aware strategies' coin values come from.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueSource {
    /// Measured on the fly by the power-value analysis at this precision and seed.
    Measured { precision: f64, seed: u64 },
    /// Given per power id (read from an `analyze powers` table by the caller).
    Given { values: Vec<f64>, from: String },
}

pub struct Tournament {
    pub cat: Catalogue,
    sizes: Sizes,
    pub strategies: Vec<Strategy>,
    /// Each strategy's canonical spelling (labels in the tables).
    pub names: Vec<String>,
    pub game: GameSettings,
    pub values: Vec<f64>,
    pub values_from: String,
}

/// The files a tournament reads (a power file and a rules file; `None`: the built-in six and
/// the seed's rules) and where it reads them from.
pub struct Files<'a> {
    pub src: &'a crate::platform::sources::Sources,
    pub powers: Option<&'a str>,
    pub rules: Option<&'a str>,
}

impl Tournament {
    /// `specs` name the strategies (`value`, `sniper(n=1)`...). `players` defaults to their
    /// number (at least 3).
    pub fn new(
        files: Files<'_>,
        specs: &[String],
        players: Option<usize>,
        source: ValueSource,
        max_rounds: u32,
        capacity: u32,
    ) -> Result<Tournament, Error> {
        let Files {
            src,
            powers: power_file,
            rules: rules_file,
        } = files;
        let cat = Catalogue::load(src, power_file)?.with_rules_file(src, rules_file)?;
        if specs.is_empty() {
            return Err(
                "--strategies: name at least one, e.g. value,hoarder,sniper,spreader,random".into(),
            );
        }
        let kinds = specs
            .iter()
            .map(|s| Kind::parse(s).map_err(|e| format!("--strategies: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let names: Vec<String> = kinds.iter().map(|k| k.spec()).collect();
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return Err(Error::Input(format!(
                    "--strategies: `{n}` is listed twice; to seat it more often, raise --players"
                )));
            }
        }
        let players = players.unwrap_or(kinds.len().max(3));
        if !(3..=MAX_PLAYERS).contains(&players) {
            return Err(Error::Input(format!(
                "--players {players}: the game takes 3 to {MAX_PLAYERS} players"
            )));
        }
        if max_rounds == 0 || max_rounds > crate::games::auto_rumble::input::scenario::MAX_ROUNDS {
            return Err(Error::Input(format!(
                "--max-rounds {max_rounds}: give 1..{}",
                crate::games::auto_rumble::input::scenario::MAX_ROUNDS
            )));
        }
        if (capacity as usize) < players
            || capacity as usize > crate::games::auto_rumble::input::scenario::MAX_CAPACITY
        {
            return Err(Error::Input(format!(
                "--capacity {capacity}: must hold every player's hero and be at most {} (AR-15)",
                crate::games::auto_rumble::input::scenario::MAX_CAPACITY
            )));
        }
        cat.check_work(
            cat.drawable.iter().copied(),
            capacity as usize,
            max_rounds,
            "--capacity",
        )?;
        let (values, values_from) = match source {
            ValueSource::Given { values, from } => {
                if values.len() != cat.len() {
                    return Err(Error::Input(format!(
                        "{from}: {} values for {} powers",
                        values.len(),
                        cat.len()
                    )));
                }
                (values, from)
            }
            ValueSource::Measured { precision, seed } => {
                let v = PowerValue::new(
                    src,
                    ValueSettings {
                        power_file: power_file.map(String::from),
                        rules_file: rules_file.map(String::from),
                        precision,
                        synergy_per_roster: 0,
                        counter_per_roster: 0,
                        capacity,
                        max_rounds,
                        ..ValueSettings::default()
                    },
                )?;
                let est = v.run(seed, |_| {});
                let mut values = vec![0.0; cat.len()];
                for r in est.overall() {
                    let arm = &v.arms[r.arm];
                    if v.default_arm[arm.power] == r.arm {
                        values[v.powers[arm.power] as usize] = r.value.x;
                    }
                }
                (
                    values,
                    format!(
                        "measured now: analyze powers --precision {precision} --seed {seed} ({} rosters)",
                        est.rosters
                    ),
                )
            }
        };
        let strategies = kinds
            .into_iter()
            .map(|k| Strategy::for_catalogue(k, values.clone(), &cat))
            .collect();
        Ok(Tournament {
            sizes: Sizes::new(&cat),
            cat,
            strategies,
            names,
            game: GameSettings {
                players,
                max_rounds,
                capacity,
            },
            values,
            values_from,
        })
    }

    /// Game `g`'s seating: seat s plays strategy (s + g) mod k (AR-50).
    pub fn seat(&self, g: u64, s: usize) -> usize {
        ((g + s as u64) % self.strategies.len() as u64) as usize
    }

    /// The pool's and hands' sizes the games are played with.
    pub fn sizes(&self) -> &Sizes {
        &self.sizes
    }

    /// Values per power name, for the summary.
    pub fn value_of(&self, p: PowerId) -> f64 {
        self.values[p as usize]
    }
}

pub struct Worker {
    table: GameTable,
}

crate::table! {
    /// One row per game.
    struct GameRow, GameRows = "games" {
        game_id: u64 => "game index under the master seed",
        seed: u64 => "the game's own seed (rng::match_seed)",
        winner_seat: Option<u16> => "seat of the final battle's winner; null for a draw",
        winner_strategy: Code => "strategy of the winner, or (draw)",
        capped_battles: u8 => "battles of the 10 that hit the hero capacity (AR-15)",
    }
}

crate::table! {
    /// One row per player of each game.
    struct PlayerRow, PlayerRows = "players" {
        game_id: u64 => "game index",
        seat: u8 => "seat at the table",
        strategy: Code => "the seat's strategy (canonical spelling with parameters)",
        won: bool => "won the final battle (the game)",
        coins_left: i32 => "balance after round 10 (unspent coins in the final battle)",
        coins_spent: i32 => "sum of winning bids",
        powers_won: u8 => "powers won over the game",
        provisional_wins: u8 => "battles of rounds 1-9 won (provisional)",
        powers: Codes => "powers held at the end, in the order held",
        strengths: I32s => "each held power's strength (winning bid)",
    }
}

crate::table! {
    /// One row per player and bidding round of each game.
    struct RoundRow, RoundRows = "rounds" {
        game_id: u64 => "game index",
        round: u8 => "bidding round, 1-10",
        seat: u8 => "seat at the table",
        strategy: Code => "the seat's strategy",
        balance: i32 => "balance after the round's bids (the battle's unspent coins)",
        held: u8 => "powers held after the round's bids",
        won_battle: bool => "won the round's battle (provisional before round 10)",
    }
}

impl Simulation for Tournament {
    type Worker = Worker;

    fn name(&self) -> &'static str {
        "rumble-tournament"
    }

    fn ranked(&self) -> &'static [(&'static str, crate::stats::Better)] {
        // As the title read before the direction was typed (issue 78): more powers won ranks
        // higher; coins left at the end rank neither way.
        &[(POWERS_WON, crate::stats::Better::Higher)]
    }
    fn tables(&self) -> Vec<&'static str> {
        vec!["games", "players", "rounds"]
    }

    fn worker(&self) -> Worker {
        Worker {
            table: GameTable::new(&self.cat, self.game.capacity),
        }
    }

    fn work_unit(&self) -> &'static str {
        "battles played"
    }

    fn play(
        &self,
        w: &mut Worker,
        master: u64,
        games: Range<u64>,
        record: bool,
    ) -> (Vec<Table>, Tally) {
        let n = self.game.players;
        let k = self.strategies.len();
        let mut tally = Tally::default();
        let (mut games_rows, mut players_rows) = (GameRows::default(), PlayerRows::default());
        let mut rounds_rows = RoundRows::default();
        let mut seated: [&Strategy; MAX_PLAYERS] = [&self.strategies[0]; MAX_PLAYERS];
        let mut who = [0usize; MAX_PLAYERS];
        for g in games {
            let seed = match_seed(master, g);
            for (s, (w, st)) in who.iter_mut().zip(seated.iter_mut()).enumerate().take(n) {
                *w = self.seat(g, s);
                *st = &self.strategies[*w];
            }
            let rec = game::play(
                &self.cat,
                &self.sizes,
                &self.game,
                &seated[..n],
                seed,
                &mut w.table,
            );
            tally.matches += 1;
            tally.draws += rec.winner.is_none() as u64;
            tally.work += ROUNDS as u64;
            let winner = rec.winner.map(|s| who[s as usize]);
            let mut present = [false; 64];
            for s in 0..n {
                let name = &self.names[who[s]];
                tally
                    .count("strategy (per seat)", name)
                    .add(rec.winner == Some(s as u8));
                let p = &rec.players[s];
                tally
                    .mean("coins left at the end, by strategy", name)
                    .add(p.balance as i64);
                tally.mean(POWERS_WON, name).add(p.powers_won as i64);
                present[who[s]] = true;
            }
            // Head to head: of the games one of the two won, the row's share (AR-50).
            if let Some(wi) = winner {
                for (o, &here) in present.iter().enumerate().take(k) {
                    if here && o != wi {
                        let (a, b) = (&self.names[wi], &self.names[o]);
                        tally
                            .count(
                                "head to head (row vs column, games either won)",
                                &format!("{a} vs {b}"),
                            )
                            .add(true);
                        tally
                            .count(
                                "head to head (row vs column, games either won)",
                                &format!("{b} vs {a}"),
                            )
                            .add(false);
                    }
                }
            }
            if !record {
                continue;
            }
            games_rows.push(GameRow {
                game_id: g,
                seed,
                winner_seat: rec.winner.map(u16::from),
                winner_strategy: winner.map_or(k as u16, |x| x as u16),
                capped_battles: rec.rounds.iter().filter(|r| r.capped).count() as u8,
            });
            for (s, (p, &ws)) in rec.players.iter().zip(&who).enumerate().take(n) {
                let held = p.held();
                let (mut powers, mut strengths) = ([0u16; MAX_HELD], [0i32; MAX_HELD]);
                for (i, h) in held.iter().enumerate() {
                    (powers[i], strengths[i]) = (h.power, h.strength);
                }
                players_rows.push(PlayerRow {
                    game_id: g,
                    seat: s as u8,
                    strategy: ws as u16,
                    won: rec.winner == Some(s as u8),
                    coins_left: p.balance,
                    coins_spent: p.coins_spent,
                    powers_won: p.powers_won,
                    provisional_wins: rec.rounds[..ROUNDS - 1]
                        .iter()
                        .filter(|r| r.winner == Some(s as u8))
                        .count() as u8,
                    powers: &powers[..held.len()],
                    strengths: &strengths[..held.len()],
                });
                for (r, rr) in rec.rounds.iter().enumerate() {
                    rounds_rows.push(RoundRow {
                        game_id: g,
                        round: r as u8 + 1,
                        seat: s as u8,
                        strategy: ws as u16,
                        balance: rr.balances[s],
                        held: rr.held[s],
                        won_battle: rr.winner == Some(s as u8),
                    });
                }
            }
        }
        if !record {
            return (Vec::new(), tally);
        }
        let strat_labels = self.names.clone();
        let mut with_draw = strat_labels.clone();
        with_draw.push("(draw)".into());
        let powers: Vec<String> = self.cat.defs.iter().map(|d| d.name.clone()).collect();
        let games_t = games_rows
            .finish()
            .with_labels("winner_strategy", with_draw);
        let players_t = players_rows
            .finish()
            .with_labels("strategy", strat_labels.clone())
            .with_labels("powers", powers);
        let rounds_t = rounds_rows.finish().with_labels("strategy", strat_labels);
        (vec![games_t, players_t, rounds_t], tally)
    }
}

/// The head-to-head matrix as text from a tally: row's share of the games either of the two won.
pub fn head_to_head(names: &[String], t: &Tally) -> String {
    let Some(g) = t
        .groups
        .get("head to head (row vs column, games either won)")
    else {
        return String::new();
    };
    let w = names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
    let short: Vec<String> = names
        .iter()
        .map(|n| n.split('(').next().unwrap_or(n).to_string())
        .collect();
    let cw = short.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
    let mut out = format!(
        "\nhead to head: the row's share of the games that it or the column won\n{:w$}",
        ""
    );
    for s in &short {
        out.push_str(&format!("  {s:>cw$}"));
    }
    out.push('\n');
    for a in names {
        out.push_str(&format!("{a:w$}"));
        for b in names {
            let cell = g
                .get(&format!("{a} vs {b}"))
                .filter(|c| c.trials > 0)
                .map_or("-".to_string(), |c| format!("{:.1}%", 100.0 * c.rate()));
            out.push_str(&format!("  {cell:>cw$}"));
        }
        out.push('\n');
    }
    out
}
