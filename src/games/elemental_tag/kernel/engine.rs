//! A whole game (TG-1 .. TG-33): bids, placement, turns of simultaneous moves, tags, points,
//! eliminations and scores. Players sit in struct-of-arrays columns; a turn (policies, collisions,
//! tags, points) allocates nothing once a [`Game`] has played a game of that size. Whoever
//! listens (narration, traces, tests) gets each turn through [`TurnHook`].

use rand::RngExt;
use rand::seq::SliceRandom;

use crate::games::elemental_tag::kernel::collide::{Collision, Resolver};
use crate::games::elemental_tag::policy::{Policy, View};
use crate::games::elemental_tag::rules::{self, Settings, TieAverage};
use crate::rng::{MatchRng, Stream, match_stream_rng};

/// A team as entered: an element (2+ players, one points pool) or an underworld player (alone).
#[derive(Clone, Debug, PartialEq)]
pub struct TeamSpec {
    pub name: String,
    pub underworld: bool,
    /// `(player name, policy)`.
    pub players: Vec<(String, Policy)>,
}

/// A late signup that did not join: too few players remained (TG-66).
pub const SIGNUP_TOO_FEW: u16 = u16::MAX;
/// A late signup that did not join: no cell of the grid was free (TG-66).
pub const SIGNUP_NO_CELL: u16 = u16::MAX - 1;

/// A player who signs up late (TG-66): it joins as an underworld player at the end of `turn`.
#[derive(Clone, Debug, PartialEq)]
pub struct Signup {
    pub turn: u32,
    pub name: String,
    pub policy: Policy,
}

/// A team action taken at the end of a turn (TG-61 .. TG-66); teams by index, players by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// `player` left `from` to play alone as team `to`, with `points`.
    Leave {
        player: u32,
        from: u16,
        to: u16,
        points: i32,
    },
    /// `from` voted `player` out; it plays alone as team `to`, with `points`.
    Eject {
        player: u32,
        from: u16,
        to: u16,
        points: i32,
    },
    /// Two-player team `team` split: `a` keeps it as an underworld player with `keep` points, `b`
    /// plays as `b_team` with `give`.
    Disband {
        team: u16,
        a: u32,
        b: u32,
        b_team: u16,
        keep: i32,
        give: i32,
    },
    /// Underworld players `a` and `b` pooled their points into team `team` (an element now).
    Found {
        a: u32,
        b: u32,
        team: u16,
        points: i32,
    },
    /// Underworld player `player` was voted into `team`; its own points are gone.
    Join { player: u32, team: u16 },
    /// A late signup joined as team `team`; `joined` is false when it could not, and `team`
    /// says why: [`SIGNUP_TOO_FEW`] or [`SIGNUP_NO_CELL`].
    Signup {
        player: u32,
        team: u16,
        joined: bool,
    },
}

/// How a game ended (TG-31).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// One team left.
    Won,
    /// The last teams fell in the same turn.
    AllOut,
    /// Still two or more teams after `max_turns`.
    TurnCap,
}

impl End {
    pub fn name(self) -> &'static str {
        match self {
            End::Won => "won",
            End::AllOut => "all out",
            End::TurnCap => "turn cap",
        }
    }
}

/// What a game did.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub end: End,
    pub turns: u32,
    pub side: u32,
    /// The team left standing (`End::Won`).
    pub winner: Option<u16>,
    /// Per team (those made by team actions included): scoring points (TG-32), the turn it fell
    /// (None: still in, or dissolved), points at the end.
    pub score: Vec<u32>,
    pub out_turn: Vec<Option<u32>>,
    pub points: Vec<i32>,
    /// Per player: its bid, whether it started it, turns spent it, tags it made, the turn it fell
    /// with its team, whether it asked for a new place.
    pub bid: Vec<i32>,
    pub turns_it: Vec<u32>,
    pub tags: Vec<u32>,
    /// Per player: times it was tagged by another team (TG-22), names it listed as it (TG-21).
    pub tagged: Vec<u32>,
    pub listed: Vec<u32>,
    pub replaced: Vec<bool>,
    /// Per player: the team it ended in (`u16::MAX`: a late signup that never joined) and that
    /// team's scoring points.
    pub team_of: Vec<u16>,
    pub player_score: Vec<u32>,
    /// Per team: whether it took a place (false: dissolved by a team action).
    pub ranked: Vec<bool>,
    pub first_it: u32,
    /// Moves resolved (alive players x turns): the kernel's unit of work.
    pub moves: u64,
}

/// Told every turn after it is resolved; narration, traces and tests listen here.
pub trait TurnHook {
    const ENABLED: bool;
    /// Before the first turn: bids paid, places drawn.
    fn start(&mut self, _g: &Game, _o: &Outcome) {}
    /// `from`/`dirs` of every player (dead ones: ignored); collisions with players as indices
    /// into `ids`; the tag made (tagger, tagged) if any; teams out this turn; team actions.
    #[allow(clippy::too_many_arguments)]
    fn turn(
        &mut self,
        _g: &Game,
        _turn: u32,
        _ids: &[u32],
        _from: &[u32],
        _dirs: &[u8],
        _collisions: &[Collision],
        _tag: Option<(u32, u32)>,
        _out: &[u16],
        _actions: &[Action],
    ) {
    }
}

/// No hook: compiles away.
pub struct Silent;
impl TurnHook for Silent {
    const ENABLED: bool = false;
}

/// A worker's game: the players' columns and every scratch buffer, reused from game to game.
#[derive(Debug, Default)]
pub struct Game {
    pub side: u32,
    pub cell: Vec<u32>,
    /// Each player's column and row, kept beside `cell` for the policies.
    x: Vec<i32>,
    y: Vec<i32>,
    pub team: Vec<u16>,
    pub alive: Vec<bool>,
    pub points: Vec<i32>,
    pub team_in: Vec<bool>,
    /// Per team: an underworld player (alone), whether it counts for places (false: dissolved by
    /// a team action, its slot free for a new team), the turn it fell.
    pub underworld: Vec<bool>,
    ranked: Vec<bool>,
    out_turn: Vec<Option<u32>>,
    pub it: u32,
    /// Turns the it player has been it in a row (TG-62's eject votes read it).
    it_streak: u32,
    /// Whether any policy takes team actions or anyone signs up late: else the step is skipped.
    acts: bool,
    /// `(turn, player)` of each late signup.
    signups: Vec<(u32, u32)>,
    /// The team actions of the last turn.
    pub actions: Vec<Action>,
    /// Who was it, oldest first (TG-30's transfer walks it backwards).
    history: Vec<u32>,
    resolver: Resolver,
    ids: Vec<u32>,
    from: Vec<u32>,
    dirs: Vec<u8>,
    free: Vec<u32>,
    list: [u32; 16],
    out_now: Vec<u16>,
    /// Names on the it player's tag list in the last turn (TG-21).
    pub last_listed: usize,
    policies: Vec<Policy>,
    rules_rng: Option<MatchRng>,
    moves_rng: Option<MatchRng>,
    turn_no: u32,
}

impl Game {
    pub fn new() -> Game {
        Game::default()
    }

    /// The players on the it player's tag list this turn (TG-21).
    pub fn tag_list(&self) -> &[u32] {
        &self.list[..self.last_listed.min(self.list.len())]
    }

    fn view(&self, me: u32) -> View<'_> {
        View {
            side: self.side,
            x: &self.x,
            y: &self.y,
            team: &self.team,
            alive: &self.alive,
            points: &self.points,
            it: self.it,
            me,
        }
    }

    /// Plays one game from its `seed` (TG-40 lists every draw).
    pub fn play<H: TurnHook>(
        &mut self,
        teams: &[TeamSpec],
        s: &Settings,
        seed: u64,
        hook: &mut H,
    ) -> Outcome {
        self.play_with(teams, &[], s, seed, hook)
    }

    /// [`Game::play`] with late signups (TG-66).
    pub fn play_with<H: TurnHook>(
        &mut self,
        teams: &[TeamSpec],
        signups: &[Signup],
        s: &Settings,
        seed: u64,
        hook: &mut H,
    ) -> Outcome {
        let mut o = self.begin_with(teams, signups, s, seed, hook);
        while self.next_turn(s, &mut o, hook) {}
        self.finish(&mut o);
        o
    }

    /// Bids, eliminations by bids, the grid and places (TG-2 .. TG-6): everything before the
    /// first turn. The game's only allocations after warm-up are the [`Outcome`]'s.
    pub fn begin<H: TurnHook>(
        &mut self,
        teams: &[TeamSpec],
        s: &Settings,
        seed: u64,
        hook: &mut H,
    ) -> Outcome {
        self.begin_with(teams, &[], s, seed, hook)
    }

    /// [`Game::begin`] with late signups (TG-66).
    pub fn begin_with<H: TurnHook>(
        &mut self,
        teams: &[TeamSpec],
        signups: &[Signup],
        s: &Settings,
        seed: u64,
        hook: &mut H,
    ) -> Outcome {
        let mut rules_rng = match_stream_rng(seed, Stream::Tag);
        self.moves_rng = Some(match_stream_rng(seed, Stream::Moves));
        self.turn_no = 0;
        self.policies.clear();
        self.policies
            .extend(teams.iter().flat_map(|t| t.players.iter().map(|p| p.1)));
        // Bidders: the players of the start; late signups come after them.
        let n = self.policies.len();
        self.policies.extend(signups.iter().map(|g| g.policy));
        let total = self.policies.len();
        let k = teams.len();
        self.team.clear();
        for (t, spec) in teams.iter().enumerate() {
            self.team
                .extend(std::iter::repeat_n(t as u16, spec.players.len()));
        }
        self.team.resize(total, u16::MAX);
        self.signups.clear();
        self.signups.extend(
            signups
                .iter()
                .enumerate()
                .map(|(j, g)| (g.turn, (n + j) as u32)),
        );
        self.acts = !signups.is_empty() || self.policies.iter().any(|p| p.acts());
        self.it_streak = 0;
        self.actions.clear();
        self.actions.reserve(2 * total);
        self.underworld.clear();
        self.underworld.extend(teams.iter().map(|t| t.underworld));
        self.ranked.clear();
        self.ranked.resize(k, true);
        self.out_turn.clear();
        self.out_turn.resize(k, None);
        // Team actions make at most one team per player and turn, reusing dissolved slots: a
        // table this size is never outgrown by live teams.
        self.underworld.reserve(2 * total);
        self.ranked.reserve(2 * total);
        self.out_turn.reserve(2 * total);
        self.points.clear();
        self.points.extend(teams.iter().map(|t| {
            if t.underworld {
                s.underworld_points
            } else {
                s.element_points
            }
        }));
        self.team_in.clear();
        self.team_in.resize(k, true);
        self.team_in.reserve(2 * total);
        self.points.reserve(2 * total);
        self.alive.clear();
        self.alive.resize(n, true);
        self.alive.resize(total, false);
        self.history.clear();
        self.history.reserve(n);
        let mut o = Outcome {
            end: End::Won,
            turns: 0,
            side: 0,
            winner: None,
            score: vec![0; k],
            out_turn: Vec::new(),
            points: Vec::new(),
            bid: (0..total)
                .map(|i| if i < n { self.policies[i].bid } else { 0 })
                .collect(),
            turns_it: vec![0; total],
            tags: vec![0; total],
            tagged: vec![0; total],
            listed: vec![0; total],
            replaced: vec![false; total],
            team_of: Vec::new(),
            player_score: Vec::new(),
            ranked: Vec::new(),
            first_it: 0,
            moves: 0,
        };
        // TG-2, TG-3: the lowest bid is it and pays nothing; the rest pay their bid; tied lowest
        // bidders other than it pay the average.
        let low = *o.bid[..n].iter().min().unwrap();
        let tied = o.bid[..n].iter().filter(|&&b| b == low).count();
        let pick = rules_rng.random_range(0..tied);
        let it = (0..n).filter(|&i| o.bid[i] == low).nth(pick).unwrap();
        let average = match s.tie_average {
            TieAverage::All => {
                rules::div_round_half_up(o.bid[..n].iter().map(|&b| b as i64).sum(), n as i64)
                    as i32
            }
            TieAverage::Tied => low,
        };
        for i in 0..n {
            if i == it {
                continue;
            }
            let pay = if o.bid[i] == low { average } else { o.bid[i] };
            self.points[self.team[i] as usize] -= pay;
        }
        self.it = it as u32;
        o.first_it = it as u32;
        self.history.push(it as u32);
        // TG-6: teams at 0 or below after bidding are out before the game starts.
        self.out_now.clear();
        self.eliminate(0, &mut rules_rng);
        // TG-4, TG-5: the grid, random distinct places, and one paid new place on request.
        let players_in = self.alive.iter().filter(|&&a| a).count() as u32;
        self.side = rules::grid_side(s, players_in);
        o.side = self.side;
        let area = self.side * self.side;
        self.free.clear();
        self.free.extend(0..area);
        self.free.shuffle(&mut rules_rng);
        self.cell.clear();
        self.cell.resize(total, u32::MAX);
        for i in 0..n {
            if self.alive[i] {
                self.cell[i] = self.free.pop().unwrap();
            }
        }
        self.x.clear();
        self.y.clear();
        for &c in &self.cell {
            // Late signups have no cell yet: any coordinates do, nobody looks at the absent.
            let c = if c == u32::MAX { 0 } else { c };
            self.x.push((c % self.side) as i32);
            self.y.push((c / self.side) as i32);
        }
        for i in 0..n {
            if self.alive[i]
                && self.policies[i].wants_new_place(&self.view(i as u32))
                && !self.free.is_empty()
            {
                let j = rules_rng.random_range(0..self.free.len());
                let new = self.free.swap_remove(j);
                self.free.push(self.cell[i]);
                self.cell[i] = new;
                self.x[i] = (new % self.side) as i32;
                self.y[i] = (new / self.side) as i32;
                self.points[self.team[i] as usize] -= s.replace_cost;
                o.replaced[i] = true;
            }
        }
        if H::ENABLED {
            hook.start(self, &o);
        }
        // TG-6: a new place can knock a team out too.
        self.out_now.clear();
        self.eliminate(0, &mut rules_rng);
        self.rules_rng = Some(rules_rng);
        o
    }

    /// Plays the next turn, if the game goes on; `false` once it is over (one team or none
    /// left, or the turn cap, TG-31). Allocates nothing once warm.
    pub fn next_turn<H: TurnHook>(&mut self, s: &Settings, o: &mut Outcome, hook: &mut H) -> bool {
        if self.team_in.iter().filter(|&&t| t).count() <= 1 {
            return false;
        }
        if self.turn_no >= s.max_turns {
            o.end = End::TurnCap;
            return false;
        }
        self.turn_no += 1;
        let mut rules_rng = self.rules_rng.take().unwrap();
        let mut moves_rng = self.moves_rng.take().unwrap();
        self.turn(self.turn_no, s, o, &mut rules_rng, &mut moves_rng, hook);
        self.rules_rng = Some(rules_rng);
        self.moves_rng = Some(moves_rng);
        true
    }

    /// How the game ended, the winner and the scores (TG-31 .. TG-33).
    pub fn finish(&mut self, o: &mut Outcome) {
        o.turns = self.turn_no;
        let left: Vec<u16> = (0..self.team_in.len() as u16)
            .filter(|&t| self.team_in[t as usize])
            .collect();
        if o.end != End::TurnCap {
            o.end = if left.len() == 1 {
                End::Won
            } else {
                End::AllOut
            };
        }
        o.winner = (o.end == End::Won).then(|| left[0]);
        o.out_turn = self.out_turn.clone();
        o.ranked = self.ranked.clone();
        o.score = scores(&self.out_turn, &self.ranked);
        o.points = self.points.clone();
        o.team_of = self.team.clone();
        o.player_score = self
            .team
            .iter()
            .map(|&t| o.score.get(t as usize).copied().unwrap_or(0))
            .collect();
    }

    #[allow(clippy::too_many_arguments)]
    fn turn<H: TurnHook>(
        &mut self,
        turn: u32,
        s: &Settings,
        o: &mut Outcome,
        rules_rng: &mut MatchRng,
        moves_rng: &mut MatchRng,
        hook: &mut H,
    ) {
        let it = self.it;
        let it_team = self.team[it as usize] as usize;
        // TG-20, TG-21: being it, and each name on the tag list, cost the it player's team.
        self.points[it_team] -= s.it_cost;
        let mut list = self.list;
        let listed = self.policies[it as usize].tag_list(&self.view(it), &mut list);
        // Kept for the hooks (a trace shows the list).
        self.list = list;
        self.points[it_team] -= s.tag_cost * listed as i32;
        self.last_listed = listed;
        o.listed[it as usize] += listed as u32;
        o.turns_it[it as usize] += 1;
        self.it_streak += 1;
        // TG-10: everyone alive moves at once.
        self.ids.clear();
        self.from.clear();
        self.dirs.clear();
        for i in 0..self.cell.len() {
            if self.alive[i] {
                let d = self.policies[i].choose(&self.view(i as u32), moves_rng);
                self.ids.push(i as u32);
                self.from.push(self.cell[i]);
                self.dirs.push(d);
            }
        }
        o.moves += self.ids.len() as u64;
        let ends = self.resolver.resolve(self.side, &self.from, &self.dirs, s);
        for (k, &i) in self.ids.iter().enumerate() {
            let c = ends[k];
            self.cell[i as usize] = c;
            self.x[i as usize] = (c % self.side) as i32;
            self.y[i as usize] = (c / self.side) as i32;
        }
        // TG-23: the it player tags the highest name on its list among the players its own move
        // collided into.
        let me = self.ids.iter().position(|&i| i == it).unwrap() as u32;
        let mut tag = None;
        'list: for &target in &list[..listed] {
            for c in &self.resolver.events {
                let partner = if c.a == me {
                    Some(c.b)
                } else if c.b == me && c.mutual {
                    Some(c.a)
                } else {
                    None
                };
                if partner.map(|p| self.ids[p as usize]) == Some(target) {
                    tag = Some((it, target));
                    break 'list;
                }
            }
        }
        if let Some((_, t)) = tag {
            // TG-22: a tag by another team costs the tagged player's team.
            if self.team[t as usize] as usize != it_team {
                self.points[self.team[t as usize] as usize] -= s.tagged_cost;
                o.tagged[t as usize] += 1;
            }
            o.tags[it as usize] += 1;
            self.it = t;
            self.remember_it(t);
        }
        self.out_now.clear();
        self.eliminate(turn, rules_rng);
        self.actions.clear();
        if self.acts {
            self.team_actions(turn, s, rules_rng);
            // An ejection's cost (TG-62) or a split (TG-63) can leave a team with nothing.
            self.eliminate(turn, rules_rng);
        }
        if H::ENABLED {
            hook.turn(
                self,
                turn,
                &self.ids,
                &self.from,
                &self.dirs,
                &self.resolver.events,
                tag,
                &self.out_now,
                &self.actions,
            );
        }
    }

    /// Players of team `t` still in the game.
    fn size(&self, t: u16) -> usize {
        (0..self.team.len())
            .filter(|&i| self.alive[i] && self.team[i] == t)
            .count()
    }

    /// A new team in play: a dissolved team's slot if there is one (no player refers to it),
    /// else a new slot (capacity reserved at `begin`).
    fn new_team(&mut self, underworld: bool, points: i32) -> u16 {
        let t = match (0..self.ranked.len()).find(|&t| !self.ranked[t] && !self.team_in[t]) {
            Some(t) => t,
            None => {
                self.ranked.push(false);
                self.team_in.push(false);
                self.underworld.push(false);
                self.out_turn.push(None);
                self.points.push(0);
                self.ranked.len() - 1
            }
        };
        self.ranked[t] = true;
        self.team_in[t] = true;
        self.underworld[t] = underworld;
        self.out_turn[t] = None;
        self.points[t] = points;
        t as u16
    }

    /// A team whose players all went elsewhere stops existing: no place, no points.
    fn dissolve(&mut self, t: u16) {
        let t = t as usize;
        self.ranked[t] = false;
        self.team_in[t] = false;
        self.points[t] = 0;
    }

    /// TG-61 .. TG-66, at the end of a turn, in this order: leaving, ejecting, disbanding,
    /// founding, joining, late signups; players and teams in index order within each.
    fn team_actions(&mut self, turn: u32, s: &Settings, rng: &mut MatchRng) {
        let total = self.team.len();
        // TG-61: a player of a team of three or more leaves when its team is low.
        for i in 0..total {
            let t = self.team[i];
            let p = self.policies[i];
            if self.alive[i]
                && p.leave > 0
                && !self.underworld[t as usize]
                && self.points[t as usize] <= p.leave
                && self.size(t) >= 3
            {
                let to = self.new_team(true, s.newcomer_points);
                self.team[i] = to;
                self.actions.push(Action::Leave {
                    player: i as u32,
                    from: t,
                    to,
                    points: s.newcomer_points,
                });
            }
        }
        // TG-62: a team of three or more votes its it player out once enough of it have sat
        // through its turns as it; the team pays for it.
        let c = self.it as usize;
        let t = self.team[c];
        if self.alive[c] && !self.underworld[t as usize] && self.size(t) >= 3 {
            let votes = (0..total)
                .filter(|&j| {
                    j != c
                        && self.alive[j]
                        && self.team[j] == t
                        && self.policies[j].eject > 0
                        && self.it_streak >= self.policies[j].eject
                })
                .count();
            if 2 * votes > self.size(t) {
                let to = self.new_team(true, s.newcomer_points);
                self.team[c] = to;
                self.points[t as usize] -= s.eject_cost;
                self.actions.push(Action::Eject {
                    player: c as u32,
                    from: t,
                    to,
                    points: s.newcomer_points,
                });
            }
        }
        // TG-63: a two-player team both of whose players agree splits its points (the odd point
        // to the first) and they play on alone.
        for t in 0..self.team_in.len() as u16 {
            if !self.team_in[t as usize] || self.underworld[t as usize] || self.size(t) != 2 {
                continue;
            }
            let mut members = (0..total).filter(|&i| self.alive[i] && self.team[i] == t);
            let (a, b) = (members.next().unwrap(), members.next().unwrap());
            let pts = self.points[t as usize];
            if (a..=b).step_by(b - a).all(|i| {
                let d = self.policies[i].disband;
                d > 0 && pts <= d
            }) {
                let keep = (pts + 1) / 2;
                self.points[t as usize] = keep;
                self.underworld[t as usize] = true;
                let b_team = self.new_team(true, pts - keep);
                self.team[b] = b_team;
                self.actions.push(Action::Disband {
                    team: t,
                    a: a as u32,
                    b: b as u32,
                    b_team,
                    keep,
                    give: pts - keep,
                });
            }
        }
        // TG-64: two underworld players who both want to found a team on an open element pool
        // their points; each pairs with the nearest other willing one.
        for a in 0..total {
            let ta = self.team[a];
            if !self.alive[a] || !self.policies[a].found || !self.underworld[ta as usize] {
                continue;
            }
            let elements = (0..self.team_in.len())
                .filter(|&t| self.team_in[t] && !self.underworld[t])
                .count();
            if elements >= s.elements as usize {
                break;
            }
            let partner = (0..total)
                .filter(|&b| {
                    b != a
                        && self.alive[b]
                        && self.policies[b].found
                        && self.underworld[self.team[b] as usize]
                })
                .min_by_key(|&b| (self.view(a as u32).dist(a as u32, b as u32), b));
            if let Some(b) = partner {
                let tb = self.team[b];
                self.points[ta as usize] += self.points[tb as usize];
                self.underworld[ta as usize] = false;
                self.team[b] = ta;
                self.dissolve(tb);
                self.actions.push(Action::Found {
                    a: a as u32,
                    b: b as u32,
                    team: ta,
                    points: self.points[ta as usize],
                });
            }
        }
        // TG-65: an underworld player low on points asks to join an element; the richest element
        // whose majority accepts takes it, without its points.
        for i in 0..total {
            let ti = self.team[i];
            let p = self.policies[i];
            if !self.alive[i]
                || p.join == 0
                || !self.underworld[ti as usize]
                || self.points[ti as usize] > p.join
            {
                continue;
            }
            let mut best: Option<u16> = None;
            for t in 0..self.team_in.len() as u16 {
                if !self.team_in[t as usize] || self.underworld[t as usize] {
                    continue;
                }
                let votes = (0..total)
                    .filter(|&j| self.alive[j] && self.team[j] == t && self.policies[j].accept)
                    .count();
                if 2 * votes > self.size(t)
                    && best.is_none_or(|b| self.points[t as usize] > self.points[b as usize])
                {
                    best = Some(t);
                }
            }
            if let Some(t) = best {
                self.team[i] = t;
                self.dissolve(ti);
                self.actions.push(Action::Join {
                    player: i as u32,
                    team: t,
                });
            }
        }
        // TG-66: late signups join as underworld players on a random free cell, unless fewer
        // than `late_min_players` players remain.
        for k in 0..self.signups.len() {
            let (when, i) = self.signups[k];
            if when != turn {
                continue;
            }
            let i = i as usize;
            let remaining = self.alive.iter().filter(|&&a| a).count();
            if remaining < s.late_min_players as usize {
                self.actions.push(Action::Signup {
                    player: i as u32,
                    team: SIGNUP_TOO_FEW,
                    joined: false,
                });
                continue;
            }
            self.free.clear();
            let area = self.side * self.side;
            for c in 0..area {
                if !(0..total).any(|j| self.alive[j] && self.cell[j] == c) {
                    self.free.push(c);
                }
            }
            // Issue 53: a signup on a full grid never joined, and nothing said so.
            if self.free.is_empty() {
                self.actions.push(Action::Signup {
                    player: i as u32,
                    team: SIGNUP_NO_CELL,
                    joined: false,
                });
                continue;
            }
            let c = self.free[rng.random_range(0..self.free.len())];
            let t = self.new_team(true, s.newcomer_points);
            self.team[i] = t;
            self.alive[i] = true;
            self.cell[i] = c;
            self.x[i] = (c % self.side) as i32;
            self.y[i] = (c / self.side) as i32;
            self.actions.push(Action::Signup {
                player: i as u32,
                team: t,
                joined: true,
            });
        }
    }

    /// Who was it, most recent last; each player once (only its latest turn as it matters to
    /// TG-30), so the list never outgrows the roster and turns allocate nothing.
    fn remember_it(&mut self, p: u32) {
        self.it_streak = 0;
        if let Some(k) = self.history.iter().position(|&q| q == p) {
            self.history.remove(k);
        }
        self.history.push(p);
    }

    /// TG-30: teams at 0 points or below are out with every player; it-ness goes to the most
    /// recent earlier it still in, else to a random player.
    fn eliminate(&mut self, turn: u32, rng: &mut MatchRng) {
        for t in 0..self.points.len() {
            if self.team_in[t] && self.points[t] <= 0 {
                self.team_in[t] = false;
                self.out_turn[t] = Some(turn);
                self.out_now.push(t as u16);
                for i in 0..self.team.len() {
                    if self.team[i] as usize == t {
                        self.alive[i] = false;
                    }
                }
            }
        }
        if !self.alive[self.it as usize] {
            let back = self
                .history
                .iter()
                .rev()
                .find(|&&p| self.alive[p as usize])
                .copied();
            let next = back.or_else(|| {
                let alive = self.alive.iter().filter(|&&a| a).count();
                (alive > 0).then(|| {
                    let k = rng.random_range(0..alive);
                    (0..self.alive.len())
                        .filter(|&i| self.alive[i])
                        .nth(k)
                        .unwrap() as u32
                })
            });
            if let Some(p) = next {
                self.it = p;
                self.remember_it(p);
            }
        }
    }
}

/// TG-32, TG-33: each team's scoring points from the turn it fell (`None`: still in). Teams
/// still in share place 0; teams that fell in the same turn share the best place their group
/// covers; with no team left, the last to fall take place 1. Teams not `ranked` (dissolved by a
/// team action, TG-64, TG-65) take no place and score 0.
pub fn scores(out_turn: &[Option<u32>], ranked: &[bool]) -> Vec<u32> {
    let key = |t: usize| out_turn[t].unwrap_or(u32::MAX);
    let mut order: Vec<usize> = (0..out_turn.len()).filter(|&t| ranked[t]).collect();
    let k = order.len();
    order.sort_by_key(|&t| std::cmp::Reverse(key(t)));
    let mut score = vec![0; out_turn.len()];
    let mut place = 0;
    let mut i = 0;
    while i < k {
        let mut j = i;
        while j < k && key(order[j]) == key(order[i]) {
            j += 1;
        }
        let p = if place == 0 && out_turn[order[i]].is_some() {
            1
        } else {
            place
        };
        for &t in &order[i..j] {
            score[t] = rules::score(p);
        }
        place = p.max(place) + (j - i);
        i = j;
    }
    score
}
