//! `skirmish tournament loot` (LA-51): whole royales between strategies on the platform. Seat k
//! of game m plays strategy `(m + k) mod S`, so every strategy sits in every seat (and so every
//! spawn draw) as often as the others. Tables: `games`, `players`, `rounds`, `battles`.

use std::ops::Range;

use crate::games::loot_arena::kernel::battle::Battle;
use crate::games::loot_arena::kernel::royale::{End, Hook, Meeting, Quiet, Royale};
use crate::games::loot_arena::rules::{MAX_PLAYERS, Rules};
use crate::games::loot_arena::state::{Catalogue, Fielded, Outcome};
use crate::games::loot_arena::strategy::{OUT, Strategy, ring};
use crate::platform::runner::Simulation;
use crate::platform::table::{LabelBuilder, Table, Values, col};
use crate::platform::tally::{Tally, thousands};
use crate::rng::match_seed;

/// A tournament's settings.
#[derive(Clone, Debug)]
pub struct RoyaleTournament {
    pub strategies: Vec<Strategy>,
    pub players: usize,
    pub rules: Rules,
    pub catalogue: Catalogue,
}

/// Group names in the tally.
pub const WINS: &str = "wins by strategy";
pub const PLACE: &str = "place by strategy";
pub const SURVIVED: &str = "rounds survived by strategy";
pub const HELD: &str = "items held at the end by strategy";
pub const FOUGHT: &str = "battles by strategy";
pub const BY_RING: &str = "wins by spawn ring";
pub const ENDS: &str = "ends";
pub const LENGTH: &str = "game";
pub const ROLE: &str = "battles won by role";
pub const PLACE_BY_BATTLES: &str = "place by battles fought";

/// One worker: the engine, the battle kernel, and the rows of the tables being recorded.
pub struct Worker {
    engine: Royale,
    battle: Battle,
    rec: Recorder,
}

/// The `rounds` and `battles` rows of the games being recorded.
#[derive(Default)]
struct Recorder {
    game: u64,
    /// Players still in at the start of each round, and battles so far.
    in_now: u16,
    r_game: Vec<u64>,
    r_round: Vec<u32>,
    r_side: Vec<u8>,
    r_in: Vec<u16>,
    r_battles: Vec<u16>,
    b_game: Vec<u64>,
    b_round: Vec<u32>,
    b_cell: Vec<u8>,
    b_a: Vec<u16>,
    b_b: Vec<u16>,
    b_twice: Vec<bool>,
    b_winner: Vec<Option<u16>>,
    b_rounds: Vec<u32>,
    b_health_a: Vec<i32>,
    b_health_b: Vec<i32>,
}

impl Hook for Recorder {
    const ON: bool = true;
    fn round(&mut self, round: u32, side: u32, cell: &[u8]) {
        self.in_now = cell.iter().filter(|&&c| c != OUT).count() as u16;
        self.r_game.push(self.game);
        self.r_round.push(round);
        self.r_side.push(side as u8);
        self.r_in.push(self.in_now);
        self.r_battles.push(0);
    }
    fn battle(&mut self, m: &Meeting, _f: &Fielded, o: &Outcome) {
        if let Some(b) = self.r_battles.last_mut() {
            *b += 1;
        }
        self.b_game.push(self.game);
        self.b_round.push(m.round);
        self.b_cell.push(m.cell);
        self.b_a.push(m.players[0] as u16);
        self.b_b.push(m.players[1] as u16);
        self.b_twice.push(m.twice);
        self.b_winner
            .push(o.winner.map(|w| m.players[w as usize] as u16));
        self.b_rounds.push(o.rounds);
        self.b_health_a
            .push(o.health[0].max(0) + o.health[1].max(0));
        self.b_health_b
            .push(o.health[2].max(0) + o.health[3].max(0));
    }
}

impl RoyaleTournament {
    /// Checks what no game could be played with.
    pub fn check(&self) -> Result<(), String> {
        if self.strategies.is_empty() {
            return Err("--strategies: name at least one strategy".into());
        }
        self.rules
            .royale
            .check_players(self.players)
            .map_err(|m| format!("--players: {m}"))
    }

    /// Game m's seats (LA-51).
    pub fn seats(&self, m: u64, out: &mut [Strategy; MAX_PLAYERS]) {
        let s = self.strategies.len() as u64;
        for (k, seat) in out.iter_mut().enumerate().take(self.players) {
            *seat = self.strategies[((m + k as u64) % s) as usize];
        }
    }

    pub fn label(&self, s: &Strategy) -> String {
        s.spec()
    }
}

impl Simulation for RoyaleTournament {
    type Worker = Worker;

    fn name(&self) -> &'static str {
        "loot-royale"
    }

    fn tables(&self) -> Vec<&'static str> {
        vec!["games", "players", "rounds", "battles"]
    }

    fn work_unit(&self) -> &'static str {
        "battles"
    }

    fn worker(&self) -> Worker {
        Worker {
            engine: Royale::new(),
            battle: Battle::new(),
            rec: Recorder::default(),
        }
    }

    fn play(
        &self,
        w: &mut Worker,
        master: u64,
        matches: Range<u64>,
        record: bool,
    ) -> (Vec<Table>, Tally) {
        let mut tally = Tally::default();
        let labels: Vec<String> = self.strategies.iter().map(|s| self.label(s)).collect();
        let n = self.players;
        let mut seats = [self.strategies[0]; MAX_PLAYERS];
        let (mut g_id, mut g_seed, mut g_rounds, mut g_end) =
            (vec![], vec![], vec![], LabelBuilder::default());
        let (mut g_winner, mut g_wstrat, mut g_first, mut g_battles) =
            (vec![], LabelBuilder::default(), vec![], vec![]);
        let (mut g_s3, mut g_s2) = (vec![], vec![]);
        let (mut p_game, mut p_seat, mut p_strat, mut p_x, mut p_y) =
            (vec![], vec![], LabelBuilder::default(), vec![], vec![]);
        let (mut p_ring, mut p_place, mut p_out, mut p_won) =
            (LabelBuilder::default(), vec![], vec![], vec![]);
        let (mut p_battles, mut p_bwon, mut p_twice, mut p_found, mut p_held, mut p_health) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        w.rec = Recorder::default();
        for m in matches {
            let seed = match_seed(master, m);
            self.seats(m, &mut seats);
            let seats = &seats[..n];
            let rep = if record {
                w.rec.game = m;
                w.engine.play(
                    seats,
                    &self.catalogue,
                    &self.rules,
                    seed,
                    &mut w.battle,
                    &mut w.rec,
                )
            } else {
                w.engine.play(
                    seats,
                    &self.catalogue,
                    &self.rules,
                    seed,
                    &mut w.battle,
                    &mut Quiet,
                )
            };
            tally.matches += 1;
            tally.draws += (rep.end != End::Won) as u64;
            tally.work += rep.battle_count as u64;
            // Each end's share of the games: a game counts for every kind of end, won by the
            // one it came to (reports said "100%" for each when only the ends seen were counted).
            for end in [End::Won, End::Draw, End::Cap, End::Stalled] {
                tally.count(ENDS, end.name()).add(end == rep.end);
            }
            tally.mean(LENGTH, "rounds").add(rep.rounds as i64);
            if rep.first_out > 0 {
                tally
                    .mean(LENGTH, "round of the first elimination")
                    .add(rep.first_out as i64);
            }
            let side = rep.start_side;
            for k in 0..n {
                let label = &labels[((m + k as u64) % labels.len() as u64) as usize];
                let won = rep.winner == Some(k as u8);
                let spawn_ring = ring(rep.spawn[k], side);
                tally.count(WINS, label).add(won);
                tally.count(BY_RING, spawn_ring.key()).add(won);
                tally.mean(PLACE, label).add(rep.place[k] as i64);
                let survived = if rep.out_round[k] == 0 {
                    rep.rounds
                } else {
                    rep.out_round[k]
                };
                tally.mean(SURVIVED, label).add(survived as i64);
                tally.mean(HELD, label).add(rep.held[k] as i64);
                tally.mean(FOUGHT, label).add(rep.battles[k] as i64);
                let fought = match rep.battles[k] {
                    0 => "0 battles",
                    1 => "1 battle",
                    2 => "2 battles",
                    3 => "3 battles",
                    _ => "4 or more",
                };
                tally
                    .mean(PLACE_BY_BATTLES, fought)
                    .add(rep.place[k] as i64);
                // LA-46: battles won by role, to see whether the odd-player rule favours one.
                let role = |t: &mut Tally, label: &str, won: u16, of: u16| {
                    let c = t.count(ROLE, label);
                    c.trials += of as u64;
                    c.wins += won as u64;
                };
                role(&mut tally, "odd player", rep.odd_won[k], rep.odd[k]);
                role(
                    &mut tally,
                    "its second opponent",
                    rep.twice_won[k],
                    rep.twice[k],
                );
                let paired = rep.battles[k] - rep.odd[k] - rep.twice[k];
                let paired_won = rep.battles_won[k] - rep.odd_won[k] - rep.twice_won[k];
                role(&mut tally, "paired", paired_won, paired);
                if record {
                    p_game.push(m);
                    p_seat.push(k as u16);
                    p_strat.push(label);
                    p_x.push((rep.spawn[k] as u32 % side) as u8);
                    p_y.push((rep.spawn[k] as u32 / side) as u8);
                    p_ring.push(spawn_ring.key());
                    p_place.push(rep.place[k]);
                    p_out.push((rep.out_round[k] > 0).then_some(rep.out_round[k] as i32));
                    p_won.push(won);
                    p_battles.push(rep.battles[k]);
                    p_bwon.push(rep.battles_won[k]);
                    p_twice.push(rep.twice[k]);
                    p_found.push(rep.found[k]);
                    p_held.push(rep.held[k]);
                    p_health.push(rep.health[k]);
                }
            }
            if record {
                g_id.push(m);
                g_seed.push(seed);
                g_rounds.push(rep.rounds);
                g_end.push(rep.end.name());
                g_winner.push(rep.winner.map(|w| w as u16));
                g_wstrat.push(match rep.winner {
                    Some(w) => &labels[((m + w as u64) % labels.len() as u64) as usize],
                    None => "",
                });
                g_first.push((rep.first_out > 0).then_some(rep.first_out as i32));
                g_battles.push(rep.battle_count);
                let shrunk = |to: u32| {
                    rep.shrinks[..rep.shrink_count]
                        .iter()
                        .find(|s| s.1 == to)
                        .map(|s| s.0 as i32)
                };
                g_s3.push(shrunk(3));
                g_s2.push(shrunk(2));
            }
        }
        if !record {
            return (Vec::new(), tally);
        }
        let rec = std::mem::take(&mut w.rec);
        let games = Table {
            name: "games",
            columns: vec![
                col(
                    "game_id",
                    "game index under the master seed",
                    Values::U64(g_id),
                ),
                col(
                    "seed",
                    "the game's own seed (rng::match_seed)",
                    Values::U64(g_seed),
                ),
                col("rounds", "rounds played", Values::U32(g_rounds)),
                col(
                    "end",
                    "won, draw, turn cap (LA-48) or stalled (LA-52)",
                    g_end.finish(),
                ),
                col(
                    "winner",
                    "the winner's seat; null unless won",
                    Values::OptU16(g_winner),
                ),
                col(
                    "winner_strategy",
                    "the winner's strategy; empty unless won",
                    g_wstrat.finish(),
                ),
                col(
                    "first_out",
                    "the round of the first elimination; null if none",
                    Values::OptI32(g_first),
                ),
                col(
                    "battles",
                    "battles fought in the game",
                    Values::U32(g_battles),
                ),
                col(
                    "shrink_3x3",
                    "the round the map became 3x3; null if never (LA-41)",
                    Values::OptI32(g_s3),
                ),
                col(
                    "shrink_2x2",
                    "the round the map became 2x2; null if never",
                    Values::OptI32(g_s2),
                ),
            ],
        };
        let players = Table {
            name: "players",
            columns: vec![
                col("game_id", "game index", Values::U64(p_game)),
                col("seat", "the player's seat", Values::U16(p_seat)),
                col(
                    "strategy",
                    "the strategy it played (LA-50)",
                    p_strat.finish(),
                ),
                col("spawn_x", "spawn column, 0 west", Values::U8(p_x)),
                col("spawn_y", "spawn row, 0 north", Values::U8(p_y)),
                col(
                    "spawn_ring",
                    "corner, edge or centre (LA-42)",
                    p_ring.finish(),
                ),
                col(
                    "place",
                    "1 best; players out in one round share (LA-47)",
                    Values::U8(p_place),
                ),
                col(
                    "out_round",
                    "the round it went out; null if never",
                    Values::OptI32(p_out),
                ),
                col("won", "the last player standing", Values::Bool(p_won)),
                col("battles", "battles it fought", Values::U16(p_battles)),
                col("battles_won", "battles its side won", Values::U16(p_bwon)),
                col(
                    "twice",
                    "battles it fought as the odd player's second opponent (LA-46)",
                    Values::U16(p_twice),
                ),
                col("found", "items its looting found", Values::U16(p_found)),
                col(
                    "held",
                    "items held at the end (worn by the living and in the bag)",
                    Values::U16(p_held),
                ),
                col(
                    "health",
                    "health left on its living champions at the end",
                    Values::I32(p_health),
                ),
            ],
        };
        let rounds = Table {
            name: "rounds",
            columns: vec![
                col("game_id", "game index", Values::U64(rec.r_game)),
                col("round", "the round", Values::U32(rec.r_round)),
                col("side", "the map's side this round", Values::U8(rec.r_side)),
                col(
                    "players_in",
                    "players still in at its start",
                    Values::U16(rec.r_in),
                ),
                col(
                    "battles",
                    "battles fought in it",
                    Values::U16(rec.r_battles),
                ),
            ],
        };
        let battles = Table {
            name: "battles",
            columns: vec![
                col("game_id", "game index", Values::U64(rec.b_game)),
                col("round", "the round", Values::U32(rec.b_round)),
                col("cell", "the cell, y * side + x", Values::U8(rec.b_cell)),
                col("player_a", "side 0's seat", Values::U16(rec.b_a)),
                col(
                    "player_b",
                    "side 1's seat (the odd player's opponent when twice)",
                    Values::U16(rec.b_b),
                ),
                col(
                    "twice",
                    "the odd player's battle (LA-46)",
                    Values::Bool(rec.b_twice),
                ),
                col(
                    "winner",
                    "the winning seat; null for a draw",
                    Values::OptU16(rec.b_winner),
                ),
                col(
                    "battle_rounds",
                    "rounds the battle lasted",
                    Values::U32(rec.b_rounds),
                ),
                col(
                    "health_a",
                    "health left on side 0's fielded champions",
                    Values::I32(rec.b_health_a),
                ),
                col(
                    "health_b",
                    "health left on side 1's fielded champions",
                    Values::I32(rec.b_health_b),
                ),
            ],
        };
        (vec![games, players, rounds, battles], tally)
    }
}

/// The summary: per strategy, win share with 95% intervals, mean place, rounds survived,
/// battles and items held; then wins by spawn ring, place by battles fought, how games end.
pub fn summary(t: &RoyaleTournament, tally: &Tally) -> String {
    let width = t
        .strategies
        .iter()
        .map(|s| t.label(s).len())
        .max()
        .unwrap_or(8)
        .max(8);
    let mut s = format!(
        "\n{:<width$} {:>9}  {:<22} {:<20} {:>8} {:>8} {:>6}\n",
        "strategy", "players", "win share [95%]", "place [95%]", "survived", "battles", "held"
    );
    for st in &t.strategies {
        let l = t.label(st);
        let Some(w) = tally.groups.get(WINS).and_then(|g| g.get(&l)) else {
            continue;
        };
        s.push_str(&format!(
            "{l:<width$} {:>9}  {}  {} {:8.1} {:8.2} {:6.1}\n",
            thousands(w.trials),
            w.share95(),
            tally.means[PLACE][&l].mean95(),
            tally.means[SURVIVED][&l].mean(),
            tally.means[FOUGHT][&l].mean(),
            tally.means[HELD][&l].mean(),
        ));
    }
    shares(
        &mut s,
        tally,
        BY_RING,
        "win share by spawn ring (players, win share, 95% Wilson interval)",
        2,
    );
    shares(
        &mut s,
        tally,
        ROLE,
        "battles won by role (battles, win share, 95% Wilson interval; LA-46)",
        1,
    );
    s.push_str("\nmean place by battles fought (players, mean [95%])\n");
    if let Some(g) = tally.means.get(PLACE_BY_BATTLES) {
        for (label, m) in g {
            s.push_str(&format!(
                "  {label:<10} {:>10}  {}\n",
                thousands(m.n),
                m.mean95()
            ));
        }
    }
    s.push_str("\nhow games end\n");
    let games = tally.matches.max(1) as f64;
    if let Some(g) = tally.groups.get(ENDS) {
        for (label, c) in g {
            s.push_str(&format!(
                "  {label:<10} {:>10}  {:5.1}%\n",
                thousands(c.wins),
                100.0 * c.wins as f64 / games
            ));
        }
    }
    if let Some(g) = tally.means.get(LENGTH) {
        for (label, m) in g {
            let (lo, hi) = m.ci95();
            s.push_str(&format!(
                "  mean {label}: {:.2} [{:.2}, {:.2}]\n",
                m.mean(),
                lo,
                hi
            ));
        }
    }
    s
}

/// One block of the summary: a count group's rows with their Wilson intervals, to `digits`
/// decimals.
fn shares(s: &mut String, tally: &Tally, group: &str, title: &str, digits: usize) {
    s.push_str(&format!("\n{title}\n"));
    let Some(g) = tally.groups.get(group) else {
        return;
    };
    let width = g.keys().map(|l| l.len()).max().unwrap_or(0);
    for (label, c) in g {
        let (lo, hi) = c.wilson95();
        s.push_str(&format!(
            "  {label:<width$} {:>10}  {:5.digits$}% [{:4.digits$}, {:4.digits$}]\n",
            thousands(c.trials),
            100.0 * c.rate(),
            100.0 * lo,
            100.0 * hi
        ));
    }
}
