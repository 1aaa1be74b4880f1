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
    /// Per team: scoring points (TG-32), the turn it fell (None: still in), points at the end.
    pub score: Vec<u32>,
    pub out_turn: Vec<Option<u32>>,
    pub points: Vec<i32>,
    /// Per player: its bid, whether it started it, turns spent it, tags it made, the turn it fell
    /// with its team, whether it asked for a new place.
    pub bid: Vec<i32>,
    pub turns_it: Vec<u32>,
    pub tags: Vec<u32>,
    pub replaced: Vec<bool>,
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
    /// into `ids`; the tag made (tagger, tagged) if any; teams out this turn.
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
    pub it: u32,
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
        let mut o = self.begin(teams, s, seed, hook);
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
        let mut rules_rng = match_stream_rng(seed, Stream::Tag);
        self.moves_rng = Some(match_stream_rng(seed, Stream::Moves));
        self.turn_no = 0;
        self.policies.clear();
        self.policies
            .extend(teams.iter().flat_map(|t| t.players.iter().map(|p| p.1)));
        let n = self.policies.len();
        let k = teams.len();
        self.team.clear();
        for (t, spec) in teams.iter().enumerate() {
            self.team
                .extend(std::iter::repeat_n(t as u16, spec.players.len()));
        }
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
        self.alive.clear();
        self.alive.resize(n, true);
        self.history.clear();
        self.history.reserve(n);
        let mut o = Outcome {
            end: End::Won,
            turns: 0,
            side: 0,
            winner: None,
            score: vec![0; k],
            out_turn: vec![None; k],
            points: Vec::new(),
            bid: self.policies.iter().map(|p| p.bid).collect(),
            turns_it: vec![0; n],
            tags: vec![0; n],
            replaced: vec![false; n],
            first_it: 0,
            moves: 0,
        };
        // TG-2, TG-3: the lowest bid is it and pays nothing; the rest pay their bid; tied lowest
        // bidders other than it pay the average.
        let low = *o.bid.iter().min().unwrap();
        let tied = o.bid.iter().filter(|&&b| b == low).count();
        let pick = rules_rng.random_range(0..tied);
        let it = (0..n).filter(|&i| o.bid[i] == low).nth(pick).unwrap();
        let average = match s.tie_average {
            TieAverage::All => {
                rules::div_round_half_up(o.bid.iter().map(|&b| b as i64).sum(), n as i64) as i32
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
        self.eliminate(0, &mut o, &mut rules_rng);
        // TG-4, TG-5: the grid, random distinct places, and one paid new place on request.
        let players_in = self.alive.iter().filter(|&&a| a).count() as u32;
        self.side = rules::grid_side(s, players_in);
        o.side = self.side;
        let area = self.side * self.side;
        self.free.clear();
        self.free.extend(0..area);
        self.free.shuffle(&mut rules_rng);
        self.cell.clear();
        self.cell.resize(n, u32::MAX);
        for i in 0..n {
            if self.alive[i] {
                self.cell[i] = self.free.pop().unwrap();
            }
        }
        self.x.clear();
        self.y.clear();
        for &c in &self.cell {
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
        self.eliminate(0, &mut o, &mut rules_rng);
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
        o.score = scores(&o.out_turn);
        o.points = self.points.clone();
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
        self.points[it_team] -= s.tag_cost * listed as i32;
        self.last_listed = listed;
        o.turns_it[it as usize] += 1;
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
            }
            o.tags[it as usize] += 1;
            self.it = t;
            self.remember_it(t);
        }
        self.out_now.clear();
        self.eliminate(turn, o, rules_rng);
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
            );
        }
    }

    /// Who was it, most recent last; each player once (only its latest turn as it matters to
    /// TG-30), so the list never outgrows the roster and turns allocate nothing.
    fn remember_it(&mut self, p: u32) {
        if let Some(k) = self.history.iter().position(|&q| q == p) {
            self.history.remove(k);
        }
        self.history.push(p);
    }

    /// TG-30: teams at 0 points or below are out with every player; it-ness goes to the most
    /// recent earlier it still in, else to a random player.
    fn eliminate(&mut self, turn: u32, o: &mut Outcome, rng: &mut MatchRng) {
        for t in 0..self.points.len() {
            if self.team_in[t] && self.points[t] <= 0 {
                self.team_in[t] = false;
                o.out_turn[t] = Some(turn);
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
/// covers; with no team left, the last to fall take place 1.
pub fn scores(out_turn: &[Option<u32>]) -> Vec<u32> {
    let k = out_turn.len();
    let key = |t: usize| out_turn[t].unwrap_or(u32::MAX);
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&t| std::cmp::Reverse(key(t)));
    let mut score = vec![0; k];
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
