//! `skirmish tournament loot` (LA-51): whole royales between strategies on the platform. Seat k
//! of game m plays strategy `(m + k) mod S`, so every strategy sits in every seat (and so every
//! spawn draw) as often as the others. Tables: `games`, `players`, `rounds`, `battles`.

use crate::error::Error;
use std::ops::Range;

use crate::games::loot_arena::kernel::battle::Battle;
use crate::games::loot_arena::kernel::royale::{End, Hook, Meeting, Quiet, Royale};
use crate::games::loot_arena::rules::{MAX_PLAYERS, Rules};
use crate::games::loot_arena::state::{Catalogue, Fielded, Outcome};
use crate::games::loot_arena::strategy::{OUT, Strategy, ring};
use crate::platform::answer::Unit;
use crate::platform::grid::{Cell, Grid};
use crate::platform::runner::Simulation;
use crate::platform::table::{Label, Table};
use crate::platform::tally::Tally;
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
pub const ENDS: &str = "share of games by how they end";
pub const LENGTH: &str = "game";
pub const ROLE: &str = "share of battles won, by role";
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
    /// The round being played: written when the next begins (its battles counted by then).
    round: Option<RoundRow<'static>>,
    rounds: RoundRows,
    battles: BattleRows,
}

impl Recorder {
    /// Writes the round being played.
    fn flush(&mut self) {
        if let Some(r) = self.round.take() {
            self.rounds.push(r);
        }
    }
}

impl Hook for Recorder {
    const ON: bool = true;
    fn round(&mut self, round: u32, side: u32, cell: &[u8]) {
        self.flush();
        self.round = Some(RoundRow {
            game_id: self.game,
            round,
            side: side as u8,
            players_in: cell.iter().filter(|&&c| c != OUT).count() as u16,
            battles: 0,
        });
    }
    fn battle(&mut self, m: &Meeting, _f: &Fielded, o: &Outcome) {
        if let Some(r) = &mut self.round {
            r.battles += 1;
        }
        self.battles.push(BattleRow {
            game_id: self.game,
            round: m.round,
            cell: m.cell,
            player_a: m.players[0] as u16,
            player_b: m.players[1] as u16,
            twice: m.twice,
            winner: o.winner.map(|w| m.players[w as usize] as u16),
            battle_rounds: o.rounds,
            health_a: o.health[0].max(0) + o.health[1].max(0),
            health_b: o.health[2].max(0) + o.health[3].max(0),
        });
    }
}

crate::table! {
    /// One row per royale.
    struct GameRow, GameRows = "games" {
        game_id: u64 => "game index under the master seed",
        seed: u64 => "the game's own seed (rng::match_seed)",
        rounds: u32 => "rounds played",
        end: Label => "won, draw, turn cap (LA-48) or stalled (LA-52)",
        winner: Option<u16> => "the winner's seat; null unless won",
        winner_strategy: Label => "the winner's strategy; empty unless won",
        first_out: Option<i32> => "the round of the first elimination; null if none",
        battles: u32 => "battles fought in the game",
        shrink_3x3: Option<i32> => "the round the map became 3x3; null if never (LA-41)",
        shrink_2x2: Option<i32> => "the round the map became 2x2; null if never",
    }
}

crate::table! {
    /// One row per player of each royale.
    struct PlayerRow, PlayerRows = "players" {
        game_id: u64 => "game index",
        seat: u16 => "the player's seat",
        strategy: Label => "the strategy it played (LA-50)",
        spawn_x: u8 => "spawn column, 0 west",
        spawn_y: u8 => "spawn row, 0 north",
        spawn_ring: Label => "corner, edge or centre (LA-42)",
        place: u8 => "1 best; players out in one round share (LA-47)",
        out_round: Option<i32> => "the round it went out; null if never",
        won: bool => "the last player standing",
        battles: u16 => "battles it fought",
        battles_won: u16 => "battles its side won",
        twice: u16 => "battles it fought as the odd player's second opponent (LA-46)",
        found: u16 => "items its looting found",
        held: u16 => "items held at the end (worn by the living and in the bag)",
        health: i32 => "health left on its living champions at the end",
    }
}

crate::table! {
    /// One row per round of each royale.
    struct RoundRow, RoundRows = "rounds" {
        game_id: u64 => "game index",
        round: u32 => "the round",
        side: u8 => "the map's side this round",
        players_in: u16 => "players still in at its start",
        battles: u16 => "battles fought in it",
    }
}

crate::table! {
    /// One row per battle of each royale.
    struct BattleRow, BattleRows = "battles" {
        game_id: u64 => "game index",
        round: u32 => "the round",
        cell: u8 => "the cell, y * side + x",
        player_a: u16 => "side 0's seat",
        player_b: u16 => "side 1's seat (the odd player's opponent when twice)",
        twice: bool => "the odd player's battle (LA-46)",
        winner: Option<u16> => "the winning seat; null for a draw",
        battle_rounds: u32 => "rounds the battle lasted",
        health_a: i32 => "health left on side 0's fielded champions",
        health_b: i32 => "health left on side 1's fielded champions",
    }
}

impl RoyaleTournament {
    /// Checks what no game could be played with.
    pub fn check(&self) -> Result<(), Error> {
        if self.strategies.is_empty() {
            return Err("--strategies: name at least one strategy".into());
        }
        self.rules
            .royale
            .check_players(self.players)
            .map_err(|m| Error::Input(format!("--players: {m}")))
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

impl RoyaleTournament {
    /// One royale of `seats` on `seed`, heard by `hook` (the recorder when its rows are kept, a
    /// silent hook otherwise: each monomorphised).
    fn game<'e, H: Hook>(
        &self,
        engine: &'e mut Royale,
        battle: &mut Battle,
        (seats, seed): (&[Strategy], u64),
        hook: &mut H,
    ) -> &'e crate::games::loot_arena::kernel::royale::Report {
        engine.play(seats, &self.catalogue, &self.rules, seed, battle, hook)
    }
}

impl Simulation for RoyaleTournament {
    type Worker = Worker;

    fn name(&self) -> &'static str {
        "loot-royale"
    }

    fn ranked(&self) -> &'static [(&'static str, crate::stats::Better)] {
        use crate::stats::Better::{Higher, Lower};
        // Place 1 is the winner's (LA-49); rounds survived and items held count up.
        &[
            (PLACE, Lower),
            (PLACE_BY_BATTLES, Lower),
            (SURVIVED, Higher),
            (HELD, Higher),
        ]
    }
    fn grids(&self, tally: &Tally) -> Vec<Grid> {
        grids(self, tally)
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
        let (mut games, mut players) = (GameRows::default(), PlayerRows::default());
        w.rec = Recorder::default();
        for m in matches {
            let seed = match_seed(master, m);
            self.seats(m, &mut seats);
            let seats = &seats[..n];
            let rep = if record {
                w.rec.flush();
                w.rec.game = m;
                self.game(&mut w.engine, &mut w.battle, (seats, seed), &mut w.rec)
            } else {
                self.game(&mut w.engine, &mut w.battle, (seats, seed), &mut Quiet)
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
                    t.count(ROLE, label).add_rows(won as u64, of as u64);
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
                    players.push(PlayerRow {
                        game_id: m,
                        seat: k as u16,
                        strategy: label,
                        spawn_x: (rep.spawn[k] as u32 % side) as u8,
                        spawn_y: (rep.spawn[k] as u32 / side) as u8,
                        spawn_ring: spawn_ring.key(),
                        place: rep.place[k],
                        out_round: (rep.out_round[k] > 0).then_some(rep.out_round[k] as i32),
                        won,
                        battles: rep.battles[k],
                        battles_won: rep.battles_won[k],
                        twice: rep.twice[k],
                        found: rep.found[k],
                        held: rep.held[k],
                        health: rep.health[k],
                    });
                }
            }
            if record {
                let shrunk = |to: u32| {
                    rep.shrinks[..rep.shrink_count]
                        .iter()
                        .find(|s| s.1 == to)
                        .map(|s| s.0 as i32)
                };
                games.push(GameRow {
                    game_id: m,
                    seed,
                    rounds: rep.rounds,
                    end: rep.end.name(),
                    winner: rep.winner.map(|w| w as u16),
                    winner_strategy: match rep.winner {
                        Some(w) => &labels[((m + w as u64) % labels.len() as u64) as usize],
                        None => "",
                    },
                    first_out: (rep.first_out > 0).then_some(rep.first_out as i32),
                    battles: rep.battle_count,
                    shrink_3x3: shrunk(3),
                    shrink_2x2: shrunk(2),
                });
            }
        }
        if !record {
            return (Vec::new(), tally);
        }
        w.rec.flush();
        let rec = std::mem::take(&mut w.rec);
        (
            vec![
                games.finish(),
                players.finish(),
                rec.rounds.finish(),
                rec.battles.finish(),
            ],
            tally,
        )
    }
}

/// The summary's grids (issue 50): per strategy, win share and mean place with 95% intervals,
/// rounds survived, battles and items held; then wins by spawn ring, battles won by role, place
/// by battles fought, how games end.
pub fn grids(t: &RoyaleTournament, tally: &Tally) -> Vec<Grid> {
    let mut by_strategy = Grid::new(
        "by strategy",
        "players, win share and mean place with 95% intervals; mean rounds survived, battles fought and items held",
        "strategy",
        &[
            ("players", Unit::Number),
            ("win share [95%]", Unit::Share),
            ("place [95%]", Unit::Number),
            ("survived", Unit::Number),
            ("battles", Unit::Number),
            ("held", Unit::Number),
        ],
    );
    for st in &t.strategies {
        let l = t.label(st);
        let Some(w) = tally.groups.get(WINS).and_then(|g| g.get(&l)) else {
            continue;
        };
        let mean = |group: &str| Cell::Value(tally.means[group][&l].mean());
        by_strategy.row(
            l.clone(),
            vec![
                Cell::Count(w.trials),
                Cell::estimate(w.estimate()),
                Cell::estimate(tally.means[PLACE][&l].estimate()),
                mean(SURVIVED),
                mean(FOUGHT),
                mean(HELD),
            ],
        );
    }
    let games = tally.matches.max(1) as f64;
    let mut ends = Grid::new(
        "how games end",
        "games, and their share of all games",
        "end",
        &[("games", Unit::Number), ("share", Unit::Share)],
    );
    for (label, c) in tally.groups.get(ENDS).into_iter().flatten() {
        ends.row(
            label.clone(),
            vec![Cell::Count(c.wins), Cell::Value(c.wins as f64 / games)],
        );
    }
    vec![
        by_strategy,
        Grid::shares(
            "win share by spawn ring",
            "players, and win share with its 95% Wilson interval",
            "ring",
            "players",
            tally.groups.get(BY_RING),
        ),
        Grid::shares(
            "battles won by role",
            "battles, and win share with its 95% Wilson interval (LA-46)",
            "role",
            "battles",
            tally.groups.get(ROLE),
        ),
        Grid::means(
            "mean place by battles fought",
            "players, and mean place with its 95% interval",
            "battles",
            ("players", "place [95%]"),
            tally.means.get(PLACE_BY_BATTLES),
        ),
        ends,
        Grid::means(
            "game length",
            "games, and the mean with its 95% interval",
            "",
            ("games", "mean [95%]"),
            tally.means.get(LENGTH),
        ),
    ]
}
