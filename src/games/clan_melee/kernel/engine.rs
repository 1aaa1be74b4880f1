//! The optimised melee (CM-6 .. CM-9): participants in struct-of-arrays columns reused from melee
//! to melee; a turn draws the pairs, resolves them grouped by kind pair and compacts the
//! survivors in place, allocating nothing.
//! `reference.rs` is the plain model it is tested against, draw for draw.

use crate::error::Error;
use crate::games::clan_melee::input::clan::{self, HP_CAP, Made};
use crate::games::clan_melee::kernel::classes::Classes;
use crate::games::clan_melee::kernel::meeting::Meeting;
use crate::games::clan_melee::kernel::pairs::{Folded, Rule};
use crate::games::clan_melee::rules::{Coins, Mode};
use crate::games::clan_melee::state::{Field, PairColumns, Participants};
use crate::rng::{MatchRng, Stream, match_stream_rng};
use rand::Rng;

/// A melee's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub mode: Mode,
    /// Turns after which an unfinished melee stops, reported as `TurnCap` (CM-12).
    pub max_turns: u32,
    /// Which engine plays the turns (CM-14): classes while they pay (the default), or member
    /// by member (the reference, draw for draw with `reference.rs`).
    pub engine: By,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            mode: Mode::Sane,
            max_turns: DEFAULT_MAX_TURNS,
            engine: By::Classes,
        }
    }
}

pub const DEFAULT_MAX_TURNS: u32 = 100_000;

/// Most bytes a worker's melee storage holds per member (participants, the roster scratch, the
/// pair grouping, the dead's kinds). Measured 17.5 with the nine classic clans at budget
/// 100,000,000 (1.79 GB peak for 102 million members) before the dead's kinds (2 more) were
/// kept; rounded up for allocation slack.
pub const BYTES_PER_MEMBER: u64 = 24;

/// The most memory one worker needs for a melee of `field` at budget `h`: every clan's roster
/// built once. How many members a roster has does not depend on its draws (only their kinds do).
pub fn melee_bytes(field: &Field, h: i32) -> u64 {
    let mut made = Vec::new();
    let mut rng = match_stream_rng(0, Stream::Roster);
    let members: u64 = field
        .clans
        .iter()
        .map(|c| {
            let _ = c.build(h, &mut rng, &mut made);
            clan::members(&made)
        })
        .sum();
    members.saturating_mul(BYTES_PER_MEMBER)
}

/// The largest budget the classic 5% wiggle (CM-30) makes of `base`.
pub fn widest_budget(base: i64, wiggle: bool) -> i32 {
    let h = if wiggle { base + base / 20 } else { base };
    h.min(i32::MAX as i64) as i32
}

/// How a melee ended (CM-11, CM-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// One clan left standing.
    Won,
    /// No one left ("All were slain").
    AllSlain,
    /// Reference mode: two or more clans left, every survivor a healer with hp and max below 0;
    /// no one can ever die again (the reference engine would loop forever).
    Deadlock,
    /// Still two or more clans after `max_turns`.
    TurnCap,
}

impl End {
    pub fn name(self) -> &'static str {
        match self {
            End::Won => "won",
            End::AllSlain => "all slain",
            End::Deadlock => "deadlock",
            End::TurnCap => "turn cap",
        }
    }
}

/// One clan in one melee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClanResult {
    /// Members fielded and their hit points (after the cap, CM-3); 0 when disqualified.
    pub members: u32,
    pub hp: i64,
    /// Why the clan did not play this melee (CM-5).
    pub disqualified: Option<String>,
    pub survivors: u32,
    /// Total hp of its survivors, a wrapping 32-bit sum as the reference computes it (CM-11).
    pub hp_left: i32,
    /// The last turn after which it still had members (0: none after turn 1, or none fielded);
    /// what ranks clans that did not win (CM-42).
    pub lasted: u32,
}

/// What a melee did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub budget: i32,
    pub end: End,
    /// The clan left standing (`End::Won`).
    pub survivor: Option<u8>,
    /// The clan the win is credited to: the survivor, or in reference mode clan 0 when the
    /// survivor's total hp is <= 0 (CM-11).
    pub credited: Option<u8>,
    pub turns: u32,
    pub interactions: u64,
    /// Participants in turn 1.
    pub participants: u32,
    pub clans: Vec<ClanResult>,
}

/// Told each clan's survivors and their total hp (wrapping, CM-11) after every turn; narration
/// and traces listen here, the engine does not know who.
pub trait TurnHook {
    const ENABLED: bool;
    /// The clans as fielded (members, hp, disqualifications), before the first turn.
    fn fielded(&mut self, _clans: &[ClanResult]) {}
    fn turn_end(&mut self, turn: u32, survivors: &[u32], hp: &[i32]);
}

/// No hook: compiles away.
pub struct NoTurnHook;

impl TurnHook for NoTurnHook {
    const ENABLED: bool = false;
    #[inline(always)]
    fn turn_end(&mut self, _: u32, _: &[u32], _: &[i32]) {}
}

/// A worker's reusable melee storage.
#[derive(Debug, Default)]
pub struct Melee {
    pub p: Participants,
    made: Vec<Made>,
    /// Every clan's roster as runs of alike members, field kinds (what `setup` lays out).
    runs: Vec<Made>,
    survivors: Vec<u32>,
    totals: Vec<i32>,
    lasted: Vec<u32>,
    /// Members of each clan who died in the turns since `settle` last read them, unless
    /// `recount` says that more died than lived and only a census will tell.
    deaths: Vec<u32>,
    recount: bool,
    /// A turn's dead members' kinds (scratch, one slot per participant).
    fallen: Vec<u16>,
    /// Grouping a turn's pairs by kind pair: each pair's group, the groups met this turn, each
    /// group's count then end (all zero between turns), the order.
    keys: Vec<u32>,
    met: Vec<u32>,
    ends: Vec<u32>,
    order: Vec<u32>,
    /// The same members as classes, while they are few ([`By::Classes`]).
    classes: Classes,
    /// Turns played by classes, and member by member, over every melee (for reports).
    pub class_turns: u64,
    pub member_turns: u64,
}

impl Melee {
    pub fn new() -> Melee {
        Melee::default()
    }

    /// Builds every clan's roster at budget `h` (CM-5, CM-22) into the participant list, in clan
    /// order, each clan's members in its builder's order.
    pub fn setup(&mut self, field: &Field, h: i32, rng: &mut MatchRng) -> Vec<ClanResult> {
        let out = self.rosters(field, h, rng);
        self.lay_out(field);
        out
    }

    /// The rosters' runs as participant rows, in order, and the grouping scratch sized so that
    /// turns allocate nothing.
    fn lay_out(&mut self, field: &Field) {
        self.p.clear();
        for m in &self.runs {
            let (k, hp) = (m.count as usize, m.hp.min(HP_CAP));
            self.p.hp.extend(std::iter::repeat_n(hp, k));
            self.p.max.extend(std::iter::repeat_n(hp, k));
            self.p.kind.extend(std::iter::repeat_n(m.kind, k));
        }
        self.reserve(field);
    }

    /// The grouping and dead-counting scratch sized for the participants, so that turns
    /// allocate nothing.
    fn reserve(&mut self, field: &Field) {
        self.size_dead_scratch(field, self.p.len());
        if field.kinds.len() <= BUCKET_KINDS_MAX {
            let pairs = self.p.len().min(BUCKET_PARTICIPANTS_MAX) / 2;
            self.keys.reserve(pairs);
            self.size_groups(field.kinds.len(), pairs);
        }
    }

    /// Every clan's roster at budget `h` as runs (`runs`, field kinds), and the clans as fielded.
    fn rosters(&mut self, field: &Field, h: i32, rng: &mut MatchRng) -> Vec<ClanResult> {
        self.runs.clear();
        let mut out = Vec::with_capacity(field.clans.len());
        for (c, clan) in field.clans.iter().enumerate() {
            let mut r = ClanResult {
                members: 0,
                hp: 0,
                disqualified: None,
                survivors: 0,
                hp_left: 0,
                lasted: 0,
            };
            match clan.enter(c, h, rng, &mut self.made) {
                Err(e) => r.disqualified = Some(e.to_string()),
                Ok(total) => {
                    let base = field.kind_base[c];
                    self.runs.extend(self.made.iter().map(|m| Made {
                        kind: base + m.kind,
                        ..*m
                    }));
                    r.members = clan::members(&self.made) as u32;
                    r.hp = total;
                }
            }
            out.push(r);
        }
        out
    }

    /// One turn (CM-6 .. CM-9): draw the pairs, resolve them, the odd one out decays, then the
    /// dead are removed. Returns the interactions played.
    pub fn turn(&mut self, field: &Field, mode: Mode, rng: &mut MatchRng) -> u64 {
        self.turn_in(field, mode, rng, Resolve::Auto, Cpu::Detected)
    }

    /// [`Melee::turn`] with the order in which pairs are resolved and the instructions that
    /// resolve them chosen by the caller. Every order gives the same result (pairs are
    /// independent and their coins are keyed by pair, CM-13), and so does every build (integer
    /// arithmetic only); the tests hold the orders and builds to that.
    pub fn turn_in(
        &mut self,
        field: &Field,
        mode: Mode,
        rng: &mut MatchRng,
        order: Resolve,
        cpu: Cpu,
    ) -> u64 {
        // One copy of the turn per mode: the mode's tests are constants inside it.
        match mode {
            Mode::Sane => self.turn_on::<false>(field, rng, order, cpu),
            Mode::Reference => self.turn_on::<true>(field, rng, order, cpu),
        }
    }

    #[inline(always)]
    fn turn_on<const REFERENCE: bool>(
        &mut self,
        field: &Field,
        rng: &mut MatchRng,
        order: Resolve,
        cpu: Cpu,
    ) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if cpu == Cpu::Detected
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the features it is compiled for were detected on this CPU.
            return unsafe { self.turn_v3::<REFERENCE>(field, rng, order) };
        }
        let _ = cpu;
        self.turn_as::<REFERENCE>(field, rng, order)
    }

    /// The turn compiled for x86-64-v3 (AVX2, BMI2: three-operand and flag-free shifts, fewer
    /// moves): 8 - 12% more interactions a second on this machine's member turns. Only the turn:
    /// the whole crate built so is 12% slower at Minion Combat (docs/clan-melee.md).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,movbe,popcnt")]
    fn turn_v3<const REFERENCE: bool>(
        &mut self,
        field: &Field,
        rng: &mut MatchRng,
        order: Resolve,
    ) -> u64 {
        self.turn_as::<REFERENCE>(field, rng, order)
    }

    #[inline(always)]
    fn turn_as<const REFERENCE: bool>(
        &mut self,
        field: &Field,
        rng: &mut MatchRng,
        order: Resolve,
    ) -> u64 {
        let mode = Mode::of(REFERENCE);
        let n = self.p.len();
        self.p.draw_pairs(rng);
        // CM-13: one draw per turn keys every coin of the turn (roles, run-away hits).
        let key = rng.next_u64();
        let pairs = n / 2;
        let buckets = match order {
            Resolve::Pairs => false,
            Resolve::Buckets => true,
            // Grouping costs about 20 instructions a pair and some per group met: worth it
            // only when there are enough pairs to share them.
            Resolve::Auto => n <= BUCKET_PARTICIPANTS_MAX && pairs >= BUCKET_PAIRS_MIN,
        };
        if buckets && field.kinds.len() <= BUCKET_KINDS_MAX {
            self.resolve_by_kind_pair::<REFERENCE>(field, key);
        } else {
            let c = self.p.pair_columns();
            for (q, ((h, m), k)) in c.hp.iter_mut().zip(c.max).zip(c.kind).enumerate() {
                let coins = Coins::of(key, q);
                let f = coins.p1_offset();
                Meeting::new(field, k[f], k[f ^ 1]).resolve(field, mode, h, m, coins);
            }
        }
        // Sized at setup already; a no-op unless rows were added since.
        self.size_dead_scratch(field, n);
        let p = &mut self.p;
        if n % 2 == 1 {
            // CM-9: the odd participant sits out: decay only.
            let (h, m) = field.rules.decay(p.hp[n - 1], p.max[n - 1]);
            p.hp[n - 1] = h;
            p.max[n - 1] = m;
        }
        // The dead leave at the end of the turn; survivors keep their order (CM-8). Every row
        // is copied and only the living advance the cursor: no branch on who died. The dead's
        // kinds are kept the same way, so that when they are fewer than the living, they are
        // what is counted by clan (no pass over the survivors).
        let (hp, max, kind) = (&mut p.hp[..n], &mut p.max[..n], &mut p.kind[..n]);
        let fallen = &mut self.fallen[..n];
        let (mut w, mut d) = (0, 0);
        for r in 0..n {
            let h = hp[r];
            // w, d <= r always; the mins say so to the compiler, which then checks no bounds.
            let (at, to) = (w.min(r), d.min(r));
            hp[at] = h;
            max[at] = max[r];
            kind[at] = kind[r];
            fallen[to] = kind[r];
            let alive = mode.alive(h);
            w = at + alive as usize;
            d = to + !alive as usize;
        }
        if d > w {
            self.recount = true;
        } else if !self.recount {
            for &k in &fallen[..d] {
                self.deaths[field.kinds[k as usize].clan as usize] += 1;
            }
        }
        p.hp.truncate(w);
        p.max.truncate(w);
        p.kind.truncate(w);
        pairs as u64
    }

    /// Resolves the turn's pairs grouped by (p1's kind, p2's kind), a counting sort of the pair
    /// indices: within a group every pair runs the same rule code and the same act, so the
    /// branches that a random pairing makes unpredictable become predictable.
    #[inline(always)]
    fn resolve_by_kind_pair<const REFERENCE: bool>(&mut self, field: &Field, key: u64) {
        let mode = Mode::of(REFERENCE);
        let kinds = field.kinds.len();
        let pairs = self.p.len() / 2;
        // Sized at setup already; a no-op unless the field or the participants grew since.
        self.size_groups(kinds, pairs);
        let PairColumns { hp, max, kind } = self.p.pair_columns();
        // keys[q]: pair q's group times 8, plus its three coins.
        self.keys.clear();
        self.keys.extend(kind.iter().enumerate().map(|(q, k)| {
            let coins = Coins::of(key, q);
            let f = coins.p1_offset();
            (k[f] as u32 * kinds as u32 + k[f ^ 1] as u32) << 3 | coins.0
        }));
        // Only the groups met this turn are visited (a turn of a few pairs does not pay for
        // the field's kinds x kinds counters): each one's count, then its start, then its end.
        // `ends` is all zero between turns; `met` lists each group once, in order of meeting.
        let ends = &mut self.ends[..kinds * kinds];
        let met = &mut self.met[..kinds * kinds + 1];
        let mut groups = 0;
        for &k in &self.keys {
            let g = (k >> 3) as usize;
            met[groups] = g as u32;
            groups += (ends[g] == 0) as usize;
            ends[g] += 1;
        }
        let mut start = 0;
        for &g in &met[..groups] {
            let count = ends[g as usize];
            ends[g as usize] = start;
            start += count;
        }
        // Every slot below `pairs` is written before it is read: no clearing.
        let order = &mut self.order[..pairs];
        for (q, &k) in self.keys.iter().enumerate() {
            let at = &mut ends[(k >> 3) as usize];
            order[*at as usize] = q as u32;
            *at += 1;
        }
        let mut i = 0;
        for &g in &met[..groups] {
            let g = g as usize;
            let end = std::mem::take(&mut ends[g]) as usize;
            let meet = Meeting::new(field, (g / kinds) as u16, (g % kinds) as u16);
            let group = Group {
                order: &order[i..end],
                keys: &self.keys,
                hp: &mut *hp,
                max: &mut *max,
            };
            // Both rules are read once for the group, not once a pair: one loop per pair of
            // rule shapes.
            let pairs = &field.pairs;
            macro_rules! with_b {
                ($ra:expr) => {
                    match pairs.rule(meet.slot_b) {
                        Folded::Fixed(rb) => resolve_group(mode, meet, $ra, rb, group),
                        Folded::Guarded(rb) => resolve_group(mode, meet, $ra, rb, group),
                        Folded::Compiled(rb) => resolve_group(mode, meet, $ra, rb, group),
                        Folded::AtSlot(rb) => resolve_group(mode, meet, $ra, rb, group),
                    }
                };
            }
            match pairs.rule(meet.slot_a) {
                Folded::Fixed(ra) => with_b!(ra),
                Folded::Guarded(ra) => with_b!(ra),
                Folded::Compiled(ra) => with_b!(ra),
                Folded::AtSlot(ra) => with_b!(ra),
            }
            i = end;
        }
        debug_assert_eq!(i, pairs);
    }

    /// Room to group `pairs` pairs among `kinds` kinds: a counter per kind pair (left at zero
    /// between turns) and a place in the order per pair.
    fn size_groups(&mut self, kinds: usize, pairs: usize) {
        if self.ends.len() < kinds * kinds {
            self.ends.resize(kinds * kinds, 0);
            self.met.resize(kinds * kinds + 1, 0);
        }
        if self.order.len() < pairs {
            self.order.resize(pairs, 0);
        }
    }

    /// Room to count the dead of `n` participants by clan.
    fn size_dead_scratch(&mut self, field: &Field, n: usize) {
        if self.fallen.len() < n {
            self.fallen.resize(n, 0);
        }
        self.deaths.resize(field.clans.len(), 0);
    }

    /// The deaths since the last call taken from each clan's survivors (a full [`Melee::census`]
    /// before), or a census when a turn's dead outnumbered its living; returns the clans still
    /// in play.
    fn settle(&mut self, field: &Field) -> usize {
        if std::mem::take(&mut self.recount) {
            self.deaths.fill(0);
            return self.census(field);
        }
        for (s, d) in self.survivors.iter_mut().zip(&mut self.deaths) {
            *s -= std::mem::take(d);
        }
        self.survivors.iter().filter(|&&s| s > 0).count()
    }

    /// Survivors and their wrapping hp total per clan; returns the clans still in play.
    fn census(&mut self, field: &Field) -> usize {
        let k = field.clans.len();
        self.survivors.clear();
        self.survivors.resize(k, 0);
        self.totals.clear();
        self.totals.resize(k, 0);
        for (&hp, &kind) in self.p.hp.iter().zip(&self.p.kind) {
            let c = field.kinds[kind as usize].clan as usize;
            self.survivors[c] += 1;
            self.totals[c] = self.totals[c].wrapping_add(hp);
        }
        self.survivors.iter().filter(|&&s| s > 0).count()
    }

    /// CM-12: every survivor a healer that cannot hurt by side effect, with hp < 0 and max < 0
    /// (and rules under which that is final).
    fn deadlocked(&self, field: &Field) -> bool {
        let p = &self.p;
        field.rules.deadlock_is_final()
            && (0..p.len()).all(|i| {
                let k = field.kinds[p.kind[i] as usize];
                k.healer && !k.effect && p.hp[i] < 0 && p.max[i] < 0
            })
    }

    /// Plays one melee at budget `h` from the melee's `seed` (CM-13 lists the draws) by the
    /// settings' engine.
    pub fn play(&mut self, field: &Field, h: i32, settings: &Settings, seed: u64) -> Outcome {
        self.play_observed(field, h, settings, seed, &mut NoTurnHook)
    }

    /// [`Melee::play`], telling `hook` each clan's survivors and hp after every turn.
    pub fn play_observed<H: TurnHook>(
        &mut self,
        field: &Field,
        h: i32,
        settings: &Settings,
        seed: u64,
        hook: &mut H,
    ) -> Outcome {
        self.play_by(field, h, settings, seed, hook, settings.engine)
    }

    /// Whether a turn over `classes` classes of `members` members is cheaper than member by
    /// member: a class turn draws up to one count per pair of classes.
    fn classes_pay(classes: usize, members: u64) -> bool {
        (classes as u64).saturating_mul(classes as u64) <= members / 8
    }

    /// [`Melee::play_observed`] by the engine `by`: member by member (the default), or by
    /// classes of alike members ([`crate::games::clan_melee::kernel::classes`]), the same
    /// distribution of melees from other draws of the same seed's streams.
    pub fn play_by<H: TurnHook>(
        &mut self,
        field: &Field,
        h: i32,
        settings: &Settings,
        seed: u64,
        hook: &mut H,
        by: By,
    ) -> Outcome {
        let mut roster_rng = match_stream_rng(seed, Stream::Roster);
        let mut rng = match_stream_rng(seed, Stream::Battle);
        let mut clans = self.rosters(field, h, &mut roster_rng);
        if H::ENABLED {
            hook.fielded(&clans);
        }
        let participants = clan::members(&self.runs) as u32;
        let pays = |classes: usize, members: u64| {
            by == By::OnlyClasses || Self::classes_pay(classes, members)
        };
        let mut by_class = by != By::Members && {
            self.classes.load(&self.runs);
            pays(self.classes.len(), participants as u64)
        };
        if !by_class {
            // Laid out in roster order, as `setup` does: where classes never pay, a melee plays
            // exactly as by members.
            self.lay_out(field);
            self.census(field);
        }
        self.deaths.clear();
        self.recount = false;
        // CM-8: "clans in play" starts at the field's size, so at least one turn runs.
        let mut in_play = field.clans.len();
        let (mut turns, mut interactions) = (0u32, 0u64);
        self.lasted.clear();
        self.lasted.resize(field.clans.len(), 0);
        let mut end = End::Won;
        while in_play > 1 {
            if turns >= settings.max_turns {
                end = End::TurnCap;
                break;
            }
            turns += 1;
            if by_class {
                self.class_turns += 1;
                interactions += self.classes.turn(field, settings.mode, &mut rng);
                in_play = self
                    .classes
                    .census(field, &mut self.survivors, &mut self.totals);
                if !pays(self.classes.len(), self.classes.members()) {
                    self.classes.expand(&mut self.p);
                    self.reserve(field);
                    by_class = false;
                }
            } else {
                self.member_turns += 1;
                interactions += self.turn(field, settings.mode, &mut rng);
                in_play = self.settle(field);
                if H::ENABLED {
                    // The hook is told the clans' hp too.
                    self.census(field);
                }
            }
            if H::ENABLED {
                hook.turn_end(turns, &self.survivors, &self.totals);
            }
            for (l, &s) in self.lasted.iter_mut().zip(&self.survivors) {
                if s > 0 {
                    *l = turns;
                }
            }
            let deadlocked = || {
                if by_class {
                    self.classes.deadlocked(field)
                } else {
                    self.deadlocked(field)
                }
            };
            if in_play > 1 && settings.mode == Mode::Reference && deadlocked() {
                end = End::Deadlock;
                break;
            }
        }
        if in_play == 0 {
            end = End::AllSlain;
        }
        if !by_class {
            // Survivors were kept by counting deaths; the hp totals are summed once, here.
            self.census(field);
        }
        for (c, r) in clans.iter_mut().enumerate() {
            r.survivors = self.survivors.get(c).copied().unwrap_or(0);
            r.hp_left = self.totals.get(c).copied().unwrap_or(0);
            r.lasted = self.lasted[c];
        }
        let survivor = (end == End::Won)
            .then(|| self.survivors.iter().position(|&s| s > 0).map(|c| c as u8))
            .flatten();
        // CM-11: reference mode credits the strictly largest total above 0, else clan 0.
        let credited = survivor.map(|c| match settings.mode {
            Mode::Reference if self.totals[c as usize] <= 0 => 0,
            _ => c,
        });
        Outcome {
            budget: h,
            end,
            survivor,
            credited,
            turns,
            interactions,
            participants,
            clans,
        }
    }
}

/// Which engine plays a melee's turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Members,
    /// Classes while they pay, then members.
    Classes,
    /// Classes to the end, however many (what the tests hold to the per-member distribution
    /// at small budgets).
    OnlyClasses,
}

impl By {
    pub fn name(self) -> &'static str {
        match self {
            By::Members => "members",
            By::Classes => "classes",
            By::OnlyClasses => "only-classes",
        }
    }

    /// `--engine`: classes or members.
    pub fn parse(s: &str) -> Result<By, Error> {
        match s {
            "classes" => Ok(By::Classes),
            "members" => Ok(By::Members),
            _ => Err(Error::Input(format!(
                "--engine `{s}`: write classes (the default) or members (the reference engine)"
            ))),
        }
    }
}

/// Which instructions play a member turn (every build gives the same turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cpu {
    /// The x86-64-v3 build (AVX2, BMI2) where the CPU has those, else the baseline.
    Detected,
    /// The baseline x86-64 build, whatever the CPU.
    Baseline,
}

/// How pairs are ordered for resolving (any order gives the same turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolve {
    /// Grouped by kind pair when the field and the turn are small enough, else in pair order.
    Auto,
    /// In pair order.
    Pairs,
    /// Grouped by kind pair whenever the field allows it.
    Buckets,
}

/// Grouping needs a counter per kind pair: at most 64 x 64 of them.
const BUCKET_KINDS_MAX: usize = 64;
/// Grouped pairs are gathered out of order; above this many participants (a huge first turn)
/// the columns (10 bytes a member, 1.3 MB here) no longer sit in the 2 MB L2 cache and pair
/// order is faster. Measured: the 10M melee's tail (93,000 members after turn 1) +8% over
/// 1 << 16; 1 << 20 slows a 1M-member turn.
const BUCKET_PARTICIPANTS_MAX: usize = 1 << 17;
/// Fewer pairs resolve faster in pair order. Measured against 105 (the classic field's
/// kinds x kinds / 16, the old threshold): 48 speeds 100k melees by 12% and slows 10k ones by 2%;
/// 64: +9% and -1.5%; 32: 10k -3%.
const BUCKET_PAIRS_MIN: usize = 48;

/// CM-6, CM-13: the positions of pair q's (p1, p2): its members sit at 2q and 2q + 1, and the
/// pair's first coin says which is p1 (heads: the one at 2q).
#[inline(always)]
pub fn roles(key: u64, q: usize) -> (usize, usize) {
    let f = Coins::of(key, q).p1_offset();
    (2 * q + f, 2 * q + (f ^ 1))
}

/// One kind-pair group's pairs: their places in the pair columns, and the turn's keys (each
/// pair's coins in the low bits).
struct Group<'a> {
    order: &'a [u32],
    keys: &'a [u32],
    hp: &'a mut [[i32; 2]],
    max: &'a mut [[i32; 2]],
}

/// Resolves a [`Group`], p1's and p2's rules as given.
#[inline(always)]
fn resolve_group(mode: Mode, meet: Meeting, ra: impl Rule, rb: impl Rule, g: Group) {
    let Group {
        order,
        keys,
        hp,
        max,
    } = g;
    for &q in order {
        let q = q as usize;
        let coins = Coins(keys[q] & 7);
        meet.resolve_by(mode, &ra, &rb, &mut hp[q], &mut max[q], coins);
    }
}
