//! A turn's combat phase on a board (MC-5): every orthogonally adjacent pair of hostile groups
//! fights once, in the order the page's "Pipeline to Check for All Combats" gives, and losses
//! carry from one combat to the next.
//!
//! Players are checked in the initiative sequence (initiative, non-initiative, neutral); each
//! player's groups from first to last; for each group its four neighbours in the page's order;
//! a group fights a hostile neighbour it has precedence over (MC-3) unless the pair has fought
//! this turn. The page's order, as the blue player sees the isometric map, is NE, SW, SE, NW; the
//! red player sees the same squares as SW, NE, NW, SE (the map turned upside down), so the order
//! is one order of squares for both.

use crate::games::minion_combat::reference::{Hook, Quiet, combat};
use crate::games::minion_combat::rules::Rules;
use crate::games::minion_combat::state::{Group, Outcome, Owner};
use crate::rng::match_seed;

/// A board player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Blue,
    Red,
    Neutral,
}

impl Player {
    pub fn word(self) -> &'static str {
        match self {
            Player::Blue => "blue",
            Player::Red => "red",
            Player::Neutral => "neutral",
        }
    }
}

/// A grid step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    North,
    South,
    East,
    West,
}

impl Step {
    pub fn word(self) -> &'static str {
        match self {
            Step::North => "north",
            Step::South => "south",
            Step::East => "east",
            Step::West => "west",
        }
    }
    fn offset(self) -> (i64, i64) {
        match self {
            Step::North => (-1, 0),
            Step::South => (1, 0),
            Step::East => (0, 1),
            Step::West => (0, -1),
        }
    }
}

/// A group on the board.
#[derive(Clone, Debug)]
pub struct Placed {
    /// Its label on the map.
    pub label: String,
    pub player: Player,
    pub row: usize,
    pub col: usize,
    /// The group; its `owner` follows from `player` and the initiative, its `age` is its place
    /// in its player's group sequence.
    pub group: Group,
}

/// A board and the readings it is played under.
#[derive(Clone, Debug)]
pub struct Board {
    pub seed: u64,
    /// Blue or red.
    pub initiative: Player,
    pub rows: usize,
    pub cols: usize,
    pub groups: Vec<Placed>,
    /// The grid steps of the page's NE, SW, SE, NW (MC-5).
    pub order: [Step; 4],
    /// Whether neutral groups are hostile to each other (the page's all-neutral example).
    pub neutral_hostile: bool,
}

/// One combat of the turn.
#[derive(Clone, Debug)]
pub struct Fought {
    /// Groups by index in `Board::groups`: the one with precedence first.
    pub a: usize,
    pub b: usize,
    /// Where `b` stood from `a`.
    pub step: Step,
    pub seed: u64,
    pub outcome: Outcome,
}

impl Board {
    /// The owner a board player's groups have for precedence (MC-3).
    pub fn owner(&self, p: Player) -> Owner {
        match p {
            Player::Neutral => Owner::Neutral,
            p if p == self.initiative => Owner::Initiative,
            _ => Owner::Other,
        }
    }

    pub fn hostile(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.groups[a].player, self.groups[b].player);
        x != y || (x == Player::Neutral && self.neutral_hostile)
    }

    fn standing(&self, g: usize) -> bool {
        self.groups[g].group.minions.iter().any(|m| m.hp > 0)
    }

    fn at(&self, row: i64, col: i64) -> Option<usize> {
        self.groups
            .iter()
            .position(|p| p.row as i64 == row && p.col as i64 == col)
            .filter(|&g| self.standing(g))
    }

    /// Plays the turn's combat phase: combat k's seed is `match_seed(seed, k)`; each group
    /// enters a combat with the HP its minions kept from the earlier ones, and a wiped-out group
    /// leaves the board. `hook(k, groups)` gives the listener of combat k; `heard(k, listener)`
    /// gets it back after the combat.
    pub fn play<H: Hook>(
        &mut self,
        r: &Rules,
        mut hook: impl FnMut(usize, [&Group; 2]) -> H,
        mut heard: impl FnMut(usize, H),
    ) -> Vec<Fought> {
        let mut fought: Vec<Fought> = Vec::new();
        let other = if self.initiative == Player::Blue {
            Player::Red
        } else {
            Player::Blue
        };
        for player in [self.initiative, other, Player::Neutral] {
            for g in self.sequence(player) {
                for step in self.order {
                    if !self.standing(g) {
                        break;
                    }
                    let (dr, dc) = step.offset();
                    let Some(h) = self.at(
                        self.groups[g].row as i64 + dr,
                        self.groups[g].col as i64 + dc,
                    ) else {
                        continue;
                    };
                    let done = fought
                        .iter()
                        .any(|f| (f.a, f.b) == (g, h) || (f.a, f.b) == (h, g));
                    let first = crate::games::minion_combat::state::precedes(
                        &self.groups[g].group,
                        &self.groups[h].group,
                    );
                    if done || !self.hostile(g, h) || !first {
                        continue;
                    }
                    let k = fought.len();
                    let seed = match_seed(self.seed, k as u64);
                    let (ga, gb) = (&self.groups[g].group, &self.groups[h].group);
                    let mut listener = hook(k, [ga, gb]);
                    let o = combat([ga, gb], r, seed, &mut listener);
                    heard(k, listener);
                    self.carry(g, h, &o);
                    fought.push(Fought {
                        a: g,
                        b: h,
                        step,
                        seed,
                        outcome: o,
                    });
                }
            }
        }
        fought
    }

    /// A player's groups in its group sequence (oldest first).
    fn sequence(&self, p: Player) -> Vec<usize> {
        let mut gs: Vec<usize> = (0..self.groups.len())
            .filter(|&g| self.groups[g].player == p)
            .collect();
        gs.sort_by_key(|&g| self.groups[g].group.age);
        gs
    }

    /// Losses carry: the dead leave their group, the living keep their HP.
    fn carry(&mut self, a: usize, b: usize, o: &Outcome) {
        for (s, g) in [a, b].into_iter().enumerate() {
            let ms = &mut self.groups[g].group.minions;
            for (i, m) in ms.iter_mut().enumerate() {
                m.hp = o.hp[s][i];
            }
            ms.retain(|m| m.hp > 0);
        }
    }
}

/// Plays a board with no listener.
pub fn play_quiet(b: &mut Board, r: &Rules) -> Vec<Fought> {
    b.play(r, |_, _| Quiet, |_, _| {})
}
