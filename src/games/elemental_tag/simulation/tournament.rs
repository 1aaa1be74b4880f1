//! `skirmish tournament tag` (TG-50, TG-51): many games between policies on the platform. Game
//! m's roster is drawn from its seed (teams, sizes, underworld players), and player k of game m
//! plays policy `(m + k) mod P`, so every policy sits in every kind of seat as often as the
//! others. Tables: `games` (one row a game) and `players` (one row a player).

use crate::error::Error;
use std::ops::Range;

use rand::RngExt;

use crate::games::elemental_tag::kernel::engine::{End, Game, Silent, TeamSpec};
use crate::games::elemental_tag::policy::Policy;
use crate::games::elemental_tag::rules::Settings;
use crate::platform::grid::{Cell, Grid};
use crate::platform::runner::Simulation;
use crate::platform::table::{Label, Table};
use crate::platform::tally::Tally;
use crate::rng::{Stream, match_seed, match_stream_rng};

/// A tournament's settings.
#[derive(Clone, Debug)]
pub struct TagTournament {
    pub policies: Vec<Policy>,
    /// Teams per game, inclusive (at least 3, TG-1).
    pub teams: [u32; 2],
    /// Players per element, inclusive (at least 2).
    pub team_size: [u32; 2],
    /// Chance that a drawn team is an underworld player, in percent.
    pub underworld: u32,
    pub settings: Settings,
    /// A candidate run (TG-50): the policies' order around the table is drawn afresh every P
    /// games, so the candidate's teammates are every member's in expectation.
    pub shuffle_seats: bool,
}

/// Group names in the tally.
pub const WINS: &str = "wins by policy";
pub const SCORE: &str = "score by policy";
pub const SURVIVED: &str = "turns survived by policy";
pub const IT: &str = "turns it by policy";
pub const BY_SIZE: &str = "wins by team size";
pub const BIDS: &str = "score by bid";
pub const LOST_BID: &str = "points lost to the bid by policy";
pub const LOST_IT: &str = "points lost to it-ness by policy";
pub const LOST_TAGS: &str = "points lost to tags by policy";
pub const LENGTH: &str = "game length";
pub const ENDS: &str = "share of games by how they end";

impl TagTournament {
    /// Checks what no game could be played with.
    pub fn check(&self) -> Result<(), Error> {
        if self.policies.is_empty() {
            return Err("--policies: name at least one policy".into());
        }
        if self.teams[0] < 3 || self.teams[0] > self.teams[1] || self.teams[1] > 64 {
            return Err(
                "--teams: MIN..MAX with 3 <= MIN <= MAX <= 64 (a game needs 3 teams, TG-1)".into(),
            );
        }
        if self.team_size[0] < 2 || self.team_size[0] > self.team_size[1] || self.team_size[1] > 16
        {
            return Err("--team-size: MIN..MAX with 2 <= MIN <= MAX <= 16 (an element has 2 or more players)".into());
        }
        if self.underworld > 100 {
            return Err("--underworld: a percentage, 0 to 100".into());
        }
        crate::games::elemental_tag::input::check_settings(&self.settings)
            .map_err(|(f, m)| Error::Input(format!("--{}: {m}", f.replace('_', "-"))))
    }

    /// The policies' order around the table for game m of master seed `master` (TG-50): as
    /// listed, or in a candidate run an order drawn for each cycle of P games (every policy still
    /// sits in every seat once a cycle; its neighbours, who become its teammates, vary).
    pub fn order(&self, master: u64, m: u64) -> Vec<usize> {
        let p = self.policies.len();
        let mut order: Vec<usize> = (0..p).collect();
        if self.shuffle_seats && p > 1 {
            let mut rng = crate::rng::stream_rng(master, m / p as u64, Stream::Seats);
            for i in (1..p).rev() {
                order.swap(i, rng.random_range(0..=i));
            }
        }
        order
    }

    /// The policy (its index) of player `k` of game m under `order` ([`TagTournament::order`]).
    pub fn seat(&self, order: &[usize], m: u64, k: u64) -> usize {
        order[((m + k) % order.len() as u64) as usize]
    }

    /// Game m's teams (TG-50): drawn from its seed, policies rotated over the seats in `order`.
    pub fn roster(&self, m: u64, seed: u64, order: &[usize]) -> Vec<TeamSpec> {
        let mut rng = match_stream_rng(seed, Stream::Roster);
        let k = rng.random_range(self.teams[0]..=self.teams[1]);
        let mut seat = 0u64;
        (0..k)
            .map(|t| {
                let underworld = rng.random_range(0..100) < self.underworld;
                let size = if underworld {
                    1
                } else {
                    rng.random_range(self.team_size[0]..=self.team_size[1])
                };
                let players = (0..size)
                    .map(|_| {
                        let policy = self.policies[self.seat(order, m, seat)];
                        seat += 1;
                        (format!("p{seat}"), policy)
                    })
                    .collect();
                TeamSpec {
                    name: format!("t{t}"),
                    underworld,
                    players,
                }
            })
            .collect()
    }

    /// A policy's label in the tables: its spec.
    pub fn label(&self, p: &Policy) -> String {
        p.spec()
    }
}

crate::table! {
    /// One row per game.
    pub struct GameRow, GameRows = "games" {
        game_id: u64 => "game index under the master seed",
        seed: u64 => "the game's own seed (rng::match_seed)",
        teams: u16 => "teams drawn (TG-50)",
        players: u16 => "players in the game",
        side: u16 => "the grid's side (TG-4)",
        turns: u32 => "turns played",
        end: Label => "won, all out or turn cap (TG-31)",
        winner: Option<u16> => "the team left standing; null unless won",
    }
}

crate::table! {
    /// One row per player of each game.
    pub struct PlayerRow, PlayerRows = "players" {
        game_id: u64 => "game index",
        player: u16 => "the player's seat in the game",
        team: u16 => "its team's index",
        underworld: bool => "an underworld player (alone, 25 points)",
        team_size: u8 => "players in its team",
        policy: Label => "the policy it played (TG-51)",
        bid: i32 => "its bid for not being it (TG-2)",
        score: u32 => "its final team's scoring points (TG-32)",
        won: bool => "its final team was the last standing",
        out_turn: Option<i32> => "the turn its team fell (0: by bids); null if still in",
        turns_it: u32 => "turns it was it",
        tags: u32 => "tags it made",
        replaced: bool => "it paid for a new place (TG-5)",
    }
}

impl Simulation for TagTournament {
    type Worker = Game;

    fn name(&self) -> &'static str {
        "tag-tournament"
    }

    fn tables(&self) -> Vec<&'static str> {
        vec!["games", "players"]
    }

    fn ranked(&self) -> &'static [(&'static str, crate::stats::Better)] {
        use crate::stats::Better::{Higher, Lower};
        // A policy scores, survives and keeps its points; it is it and loses points (TG-30..33).
        &[
            (SCORE, Higher),
            (SURVIVED, Higher),
            (BIDS, Higher),
            (IT, Lower),
            (LOST_BID, Lower),
            (LOST_IT, Lower),
            (LOST_TAGS, Lower),
        ]
    }
    fn grids(&self, tally: &Tally) -> Vec<Grid> {
        grids(self, tally)
    }

    fn work_unit(&self) -> &'static str {
        "player-moves"
    }

    fn worker(&self) -> Game {
        Game::new()
    }

    fn play(
        &self,
        w: &mut Game,
        master: u64,
        matches: Range<u64>,
        record: bool,
    ) -> (Vec<Table>, Tally) {
        let mut tally = Tally::default();
        let labels: Vec<String> = self.policies.iter().map(|p| self.label(p)).collect();
        let (mut games, mut players) = (GameRows::default(), PlayerRows::default());
        for m in matches {
            let seed = match_seed(master, m);
            let order = self.order(master, m);
            let teams = self.roster(m, seed, &order);
            let o = w.play(&teams, &self.settings, seed, &mut Silent);
            tally.matches += 1;
            tally.draws += (o.end != End::Won) as u64;
            tally.work += o.moves;
            // How long games last and how they end (issue 52: the guide typed these).
            tally.mean(LENGTH, "turns").add(o.turns as i64);
            for end in [End::Won, End::AllOut, End::TurnCap] {
                tally.count(ENDS, end.name()).add(end == o.end);
            }
            let mut k = 0usize;
            for (t, spec) in teams.iter().enumerate() {
                for _ in &spec.players {
                    let pi = self.seat(&order, m, k as u64);
                    let label = &labels[pi];
                    // A player scores with the team it ended in (team actions can move it).
                    let last = o.team_of[k] as usize;
                    let won = o.winner == Some(last as u16);
                    let out = o.out_turn.get(last).copied().flatten();
                    tally.count(WINS, label).add(won);
                    tally.mean(SCORE, label).add(o.player_score[k] as i64);
                    tally
                        .mean(SURVIVED, label)
                        .add(out.unwrap_or(o.turns) as i64);
                    tally.mean(IT, label).add(o.turns_it[k] as i64);
                    // What a player cost its team: its bid unless it was it first (TG-2; tied
                    // lowest bidders are counted at their bid), its turns as it and the names it
                    // listed (TG-20, TG-21), and being tagged (TG-22).
                    let s = &self.settings;
                    let bid_paid = if o.first_it as usize == k {
                        0
                    } else {
                        o.bid[k]
                    };
                    tally.mean(LOST_BID, label).add(bid_paid as i64);
                    tally.mean(LOST_IT, label).add(
                        (s.it_cost as i64) * o.turns_it[k] as i64
                            + (s.tag_cost as i64) * o.listed[k] as i64,
                    );
                    tally
                        .mean(LOST_TAGS, label)
                        .add((s.tagged_cost as i64) * o.tagged[k] as i64);
                    let size = if spec.underworld {
                        // Its points as the rules set them (the seed's 25 by default).
                        format!("underworld ({} points)", s.underworld_points)
                    } else {
                        format!("element of {}", spec.players.len())
                    };
                    tally.count(BY_SIZE, &size).add(won);
                    tally
                        .mean(BIDS, &format!("bid {:>2}", o.bid[k].min(20)))
                        .add(o.player_score[k] as i64);
                    if record {
                        players.push(PlayerRow {
                            game_id: m,
                            player: k as u16,
                            team: t as u16,
                            underworld: spec.underworld,
                            team_size: spec.players.len() as u8,
                            policy: label,
                            bid: o.bid[k],
                            score: o.player_score[k],
                            won,
                            out_turn: out.map(|x| x as i32),
                            turns_it: o.turns_it[k],
                            tags: o.tags[k],
                            replaced: o.replaced[k],
                        });
                    }
                    k += 1;
                }
            }
            if record {
                games.push(GameRow {
                    game_id: m,
                    seed,
                    teams: teams.len() as u16,
                    players: k as u16,
                    side: o.side as u16,
                    turns: o.turns,
                    end: o.end.name(),
                    winner: o.winner,
                });
            }
        }
        if !record {
            return (Vec::new(), tally);
        }
        (vec![games.finish(), players.finish()], tally)
    }
}

/// The summary's grids (issue 50): each policy's players, win share, score, survival, turns it
/// and points lost on one line; win rate by team size (the section a balance target names); score
/// by bid.
pub fn grids(t: &TagTournament, tally: &Tally) -> Vec<Grid> {
    use crate::platform::answer::Unit::{Number, Share};
    let mut by_policy = Grid::new(
        "by policy",
        "players, win share and score with 95% intervals; mean turns survived and it, and mean points lost to the bid, it-ness and tags",
        "policy",
        &[
            ("players", Number),
            ("win share [95%]", Share),
            ("score [95%]", Number),
            ("survived", Number),
            ("it", Number),
            ("lost to bid", Number),
            ("to it", Number),
            ("to tags", Number),
        ],
    );
    let mean = |group: &str, l: &str| Cell::Value(tally.means[group][l].mean());
    for p in &t.policies {
        let l = t.label(p);
        let Some(w) = tally.groups.get(WINS).and_then(|g| g.get(&l)) else {
            continue;
        };
        by_policy.row(
            l.clone(),
            vec![
                Cell::Count(w.trials),
                Cell::estimate(w.estimate()),
                Cell::estimate(tally.means[SCORE][&l].estimate()),
                mean(SURVIVED, &l),
                mean(IT, &l),
                mean(LOST_BID, &l),
                mean(LOST_IT, &l),
                mean(LOST_TAGS, &l),
            ],
        );
    }
    let by_team = Grid::shares(
        "win rate by team size",
        "players, and win share with its 95% Wilson interval",
        "team",
        "players",
        tally.groups.get(BY_SIZE),
    );
    let by_bid = Grid::means(
        "mean score by bid",
        "players, and mean score with its 95% interval",
        "bid",
        ("players", "score [95%]"),
        tally.means.get(BIDS),
    );
    vec![by_policy, by_team, by_bid]
}
