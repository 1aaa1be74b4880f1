//! `skirmish minions combat|check` (Minion Combat Pipeline).

use std::path::{Path, PathBuf};

use clap::Args;

use super::flags::GameFlags;
use crate::games::minion_combat::input::{self, combat::CombatFile};
use crate::games::minion_combat::reference::{Quiet, combat};
use crate::games::minion_combat::rules::Rules;
use crate::games::minion_combat::simulation::combats::Field;
use crate::games::minion_combat::state::Catalogue;
use crate::games::minion_combat::trace::{JsonTrace, Narrator};
use crate::platform::command::{Analysis, Findings, Played, Studied, play_cells};
use crate::platform::runner::Encoder;
use crate::platform::sink::Sink;

/// `--rules`, `--minions`, `--modifiers`, `--effects`: the game's numbers and its catalogues.
#[derive(Args, Debug, Clone, Default)]
pub struct DataFlags {
    /// Rules file (TOML): any number or reading, e.g. `estimate = "own"`
    /// [default: the seed's, as written in experiments/minion-combat/rules.toml].
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Minion catalogue (TOML) [default: experiments/minion-combat/minions.toml].
    #[arg(long)]
    pub minions: Option<PathBuf>,
    /// Modifier list (TOML) [default: experiments/minion-combat/modifiers.toml].
    #[arg(long)]
    pub modifiers: Option<PathBuf>,
    /// Effects file (TOML): the clauses tags and modifiers carry (MC-41)
    /// [default: experiments/minion-combat/effects.toml].
    #[arg(long)]
    pub effects: Option<PathBuf>,
}

impl DataFlags {
    fn files(&self) -> Vec<PathBuf> {
        self.rules
            .iter()
            .chain(&self.minions)
            .chain(&self.modifiers)
            .chain(&self.effects)
            .cloned()
            .collect()
    }
    fn command(&self) -> String {
        let mut s = String::new();
        for (flag, p) in [
            ("--rules", &self.rules),
            ("--minions", &self.minions),
            ("--modifiers", &self.modifiers),
            ("--effects", &self.effects),
        ] {
            if let Some(p) = p {
                s.push_str(&super::flags::shell_flag(flag, p.display()));
            }
        }
        s
    }
    fn load(&self, src: &crate::platform::sources::Sources) -> Result<(Rules, Catalogue), String> {
        let rules = input::rules::from_flag(src, self.rules.as_deref())?;
        let cat = input::catalogue::from_flags(
            src,
            self.minions.as_deref(),
            self.modifiers.as_deref(),
            self.effects.as_deref(),
        )?;
        // A nation the rules file adds that no catalogue minion is of is a typo (`Dwraf`) or a
        // nation nobody fields: its ability would silently never apply (issue 53).
        let known = Rules::default();
        for n in &rules.nations {
            let fielded = cat
                .minions
                .iter()
                .any(|m| m.nation.eq_ignore_ascii_case(&n.name));
            if known.nation(&n.name).is_none() && !fielded {
                let names: Vec<&str> = known.nations.iter().map(|k| k.name.as_str()).collect();
                let hint = crate::names::closest_name(&n.name, names.iter().copied())
                    .map(|c| format!("; did you mean `{c}`?"))
                    .unwrap_or_default();
                return Err(format!(
                    "{}: `nation.{}`: no minion of the catalogue is of this nation, so its ability would never apply; name one of {}{hint}",
                    self.rules
                        .as_deref()
                        .map_or("the rules".into(), |p| p.display().to_string()),
                    n.name,
                    names.join(", ")
                ));
            }
        }
        Ok((rules, cat))
    }
}

#[derive(Args, Debug)]
pub struct CombatArgs {
    /// Combat file (TOML) [default: the built-in experiments/minion-combat/combat.toml].
    pub file: Option<PathBuf>,
    /// The exact odds of every outcome, every random choice enumerated (MC-37); Monte Carlo
    /// over `--samples` seeds when the combat has more than `--limit` paths.
    #[arg(long, conflicts_with_all = ["narrate", "trace"])]
    pub exact: bool,
    /// Most paths `--exact` enumerates before it falls back to sampling.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub limit: u64,
    /// Combats sampled when the paths exceed `--limit`.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub samples: u64,
    #[command(flatten)]
    pub data: DataFlags,
    #[command(flatten)]
    pub tell: super::flags::Telling,
}

/// `minions combat --exact`: exact odds, or sampled ones beyond the limit.
fn exact_odds(c: &CombatFile, r: &Rules, a: &CombatArgs, seed: u64) -> String {
    use crate::games::minion_combat::analysis::exact::{Odds, odds_of};
    let (found, effects) = odds_of([&c.groups[0], &c.groups[1]], r, a.limit, a.samples, seed);
    let names = [
        format!("{} wins", c.groups[0].name),
        format!("{} wins", c.groups[1].name),
        "both stand (last round or withdrawal)".to_string(),
        "both wiped out".to_string(),
    ];
    let mut s = unplayed(c);
    match found {
        Odds::Exact { p, paths } => {
            s.push_str(&format!(
                "exact odds over {paths} path(s), every random choice enumerated (MC-37){}:\n",
                if effects {
                    ", effects played (the plain model)"
                } else {
                    ""
                }
            ));
            for (n, p) in names.iter().zip(p) {
                s.push_str(&format!("  {n:<40} {:8.4}%\n", 100.0 * p));
            }
        }
        Odds::Sampled { counts, limit } => {
            s.push_str(&format!(
                "more than {limit} paths: sampled over {} combats (seeds from {seed}), 95% intervals:\n",
                counts[0].trials
            ));
            for (n, c) in names.iter().zip(counts) {
                let (lo, hi) = c.wilson95();
                s.push_str(&format!(
                    "  {n:<40} {:8.4}% [{:.4}, {:.4}]\n",
                    100.0 * c.rate(),
                    100.0 * lo,
                    100.0 * hi
                ));
            }
        }
    }
    s
}

fn unplayed(c: &CombatFile) -> String {
    if c.unplayed.is_empty() {
        return String::new();
    }
    let list: Vec<String> = c
        .unplayed
        .iter()
        .map(|(n, t)| format!("{n} ({t})"))
        .collect();
    format!(
        "Not played yet (MC-40), these tags do nothing (the rest of each minion is played): {}\n",
        list.join(", ")
    )
}

/// `minions combat BOARD`: the turn's combats in the page's order (MC-5).
fn board_cmd(
    a: &CombatArgs,
    file: &str,
    text: &str,
    r: &Rules,
    cat: &Catalogue,
) -> Result<String, String> {
    let mut b = input::board::parse(file, text, r, cat).map_err(|e| e.to_string())?;
    if a.exact {
        return Err("--exact: odds are for one combat; give a combat file, not a board".into());
    }
    if let Some(seed) = a.tell.seed {
        b.seed = seed;
    }
    let labels: Vec<(String, String)> = b
        .groups
        .iter()
        .map(|p| (p.label.clone(), p.player.word().to_string()))
        .collect();
    // Narrations and traces stream as each combat is told (bounded memory, issue 53); the
    // board's summary, which comes first, is played quietly on a copy.
    let narrated = a.tell.narrate.then(|| b.clone());
    if a.tell.trace {
        let f = b.play(
            r,
            |k, _| {
                let mut out = Sink::stdout();
                out.push_str(&format!("{{\"step\":\"combat\",\"combat\":{}}}\n", k + 1));
                JsonTrace::new(out)
            },
            |_, j| {
                j.out.finish();
            },
        );
        return Ok(format!("{{\"step\":\"board\",\"combats\":{}}}\n", f.len()));
    }
    let fought = crate::games::minion_combat::board::play_quiet(&mut b, r);
    let mut s = format!(
        "Board {}x{}, {} has initiative; {} combat(s) in the page's order (MC-5), combat k seeded match_seed({}, k - 1)\n",
        b.rows,
        b.cols,
        b.initiative.word(),
        fought.len(),
        b.seed
    );
    for (k, f) in fought.iter().enumerate() {
        let (x, y) = (&labels[f.a], &labels[f.b]);
        let o = &f.outcome;
        s.push_str(&format!(
            "  combat {}: {} ({} {}) against {} ({} {}) to its {}: {} after {} round(s)\n",
            k + 1,
            b.groups[f.a].group.name,
            x.1,
            x.0,
            b.groups[f.b].group.name,
            y.1,
            y.0,
            f.step.word(),
            match o.winner {
                Some(0) => format!("{} wins", b.groups[f.a].group.name),
                Some(_) => format!("{} wins", b.groups[f.b].group.name),
                None if o.survivors(0) + o.survivors(1) == 0 => "both wiped out".into(),
                None => "both stand".into(),
            },
            o.rounds
        ));
    }
    s.push_str("After the combat phase:\n");
    for p in &b.groups {
        let ms = &p.group.minions;
        s.push_str(&format!(
            "  {} ({} {}): {}\n",
            p.group.name,
            p.player.word(),
            p.label,
            if ms.is_empty() {
                "wiped out, leaves the board".to_string()
            } else {
                format!(
                    "{} minions, {} HP",
                    ms.len(),
                    ms.iter().map(|m| m.hp as i64).sum::<i64>()
                )
            }
        ));
    }
    let style = a.tell.style()?;
    let Some(mut again) = narrated else {
        return Ok(crate::platform::narration::restyle(style, &s));
    };
    let mut out = Sink::stdout().styled(style);
    out.push_str(&s);
    out.finish();
    again.play(
        r,
        |k, g| {
            let mut out = Sink::stdout().styled(style);
            out.push_str(&format!("\n=== Combat {} ===\n", k + 1));
            Narrator::new(g, out)
        },
        |_, n| {
            n.out.finish();
        },
    );
    Ok(String::new())
}

/// `skirmish minions combat`.
pub fn combat_cmd(a: &CombatArgs) -> Result<String, String> {
    let style = a.tell.style()?;
    let (r, cat) = a.data.load(&crate::platform::sources::Sources::disk())?;
    if let Some(p) = &a.file {
        let text = crate::games::file_error::read(
            &crate::platform::sources::Sources::disk(),
            p,
            "Minion Combat file",
        )
        .map_err(|e| e.to_string())?;
        if input::board::is_board(&text) {
            return board_cmd(a, &p.display().to_string(), &text, &r, &cat);
        }
    }
    let c = input::combat::from_flag(
        &crate::platform::sources::Sources::disk(),
        a.file.as_deref(),
        &r,
        &cat,
    )?;
    let seed = a.tell.seed.unwrap_or(c.seed);
    let groups = [&c.groups[0], &c.groups[1]];
    if a.exact {
        return Ok(exact_odds(&c, &r, a, seed));
    }
    if a.tell.narrate {
        let mut out = Sink::stdout().styled(style);
        out.push_str(&unplayed(&c));
        let mut n = Narrator::new(groups, out);
        combat(groups, &r, seed, &mut n);
        return Ok(n.out.finish());
    }
    if a.tell.trace {
        let mut t = JsonTrace::new(Sink::stdout());
        combat(groups, &r, seed, &mut t);
        return Ok(t.out.finish());
    }
    let o = combat(groups, &r, seed, &mut Quiet);
    let mut s = unplayed(&c);
    s.push_str(&format!(
        "seed {seed}: {} after {} round(s)\n",
        match o.winner {
            Some(w) => format!("{} wins", c.groups[w].name),
            None if o.survivors(0) + o.survivors(1) == 0 => "both groups wiped out".into(),
            None => "both groups stand".into(),
        },
        o.rounds
    ));
    for k in 0..2 {
        s.push_str(&format!(
            "  {}: {} of {} standing, {} HP left\n",
            c.groups[k].name,
            o.survivors(k),
            o.size[k],
            o.hp_left(k)
        ));
    }
    Ok(crate::platform::narration::restyle(style, &s))
}

/// `skirmish minions check FILE`: a rules file, catalogue, modifier list or combat file.
pub fn check(path: &Path, data: &DataFlags) -> Result<String, String> {
    let text = crate::games::file_error::read(
        &crate::platform::sources::Sources::disk(),
        path,
        "Minion Combat file",
    )
    .map_err(|e| e.to_string())?;
    let name = path.display().to_string();
    let table: Option<toml::Table> = toml::from_str(&text).ok();
    let has = |k: &str| table.as_ref().is_some_and(|t| t.contains_key(k));
    if has("minion") {
        let m = input::catalogue::parse_minions(&name, &text).map_err(|e| e.to_string())?;
        let mut s = format!("{name}: a minion catalogue of {} minions\n", m.len());
        // What plays whole (issue 52: README's counts were typed, and disagreed): read with the
        // shipped modifiers and effects, or those the flags name.
        if let Ok(cat) = input::catalogue::from_flags(
            &crate::platform::sources::Sources::disk(),
            Some(path),
            data.modifiers.as_deref(),
            data.effects.as_deref(),
        ) {
            let r = Rules::default();
            let (mut whole, mut kernel) = (0, 0);
            let (mut partly, mut alone) = (Vec::new(), Vec::new());
            for st in &cat.minions {
                let (fielded, unplayed) = match input::combat::minion_spec(&st.name, &cat, &r) {
                    Ok(x) => x,
                    Err(_) => {
                        alone.push(st.name.as_str());
                        continue;
                    }
                };
                let k = unplayed.is_empty() && fielded.first().is_some_and(|f| f.kernel_plays());
                whole += unplayed.is_empty() as usize;
                kernel += k as usize;
                if !unplayed.is_empty() {
                    partly.push(st.name.as_str());
                }
            }
            s.push_str(&format!(
                "  {} cannot be fielded alone (forms, or no printed HP or damage): {}\n  of the {} others, {whole} play with all their combat effects (MC-40), {kernel} of them on the optimised kernel (what random fields and analyze minions draw, MC-54); {} have tags no clause plays: {}\n",
                alone.len(),
                alone.join(", "),
                cat.minions.len() - alone.len(),
                partly.len(),
                partly.join(", ")
            ));
        }
        return Ok(s);
    }
    if has("modifier") {
        let m = input::catalogue::parse_modifiers(&name, &text).map_err(|e| e.to_string())?;
        return Ok(format!("{name}: {} modifiers\n", m.len()));
    }
    if has("effect") || has("status") {
        let (_, cat) = data.load(&crate::platform::sources::Sources::disk())?;
        let e = input::effects::parse(&name, &text, &cat.minions, &cat.modifiers)
            .map_err(|e| e.to_string())?;
        let mut s = format!(
            "{name}: {} effect clause(s), {} status(es)\n",
            e.clauses.len() + e.statuses.iter().map(|s| s.clauses.len()).sum::<usize>(),
            e.statuses.len()
        );
        let mut idle: Vec<&str> = Vec::new();
        for c in &e.clauses {
            let carried = cat.minions.iter().any(|m| m.tags.contains(&c.source))
                || cat.modifier(&c.source).is_some();
            if !carried && !idle.contains(&c.source.as_str()) {
                idle.push(&c.source);
            }
        }
        if !idle.is_empty() {
            s.push_str(&format!(
                "  sources no catalogue minion or modifier carries (their clauses play on no one; check the spelling): {}\n",
                idle.join(", ")
            ));
        }
        return Ok(s);
    }
    if has("map") {
        let (r, cat) = data.load(&crate::platform::sources::Sources::disk())?;
        let b = input::board::parse(&name, &text, &r, &cat).map_err(|e| e.to_string())?;
        let mut s = format!(
            "{name}: a board {}x{}, seed {}, {} has initiative; neighbours in the order {}\n",
            b.rows,
            b.cols,
            b.seed,
            b.initiative.word(),
            b.order.map(|x| x.word()).join(", ")
        );
        for p in &b.groups {
            s.push_str(&format!(
                "  {} at row {}, column {}: {} ({}, {} minions)\n",
                p.label,
                p.row + 1,
                p.col + 1,
                p.group.name,
                p.player.word(),
                p.group.minions.len()
            ));
        }
        return Ok(s);
    }
    if has("group") {
        let (r, cat) = data.load(&crate::platform::sources::Sources::disk())?;
        let c = input::combat::parse(&name, &text, &r, &cat).map_err(|e| e.to_string())?;
        let mut s = format!("{name}: a combat, seed {}\n", c.seed);
        for g in &c.groups {
            s.push_str(&format!(
                "  {} ({}): {} minions\n",
                g.name,
                g.owner.word(),
                g.minions.len()
            ));
            for m in &g.minions {
                s.push_str(&format!(
                    "    {:<40} hand {:>2} missile {:>2} x{} armor {} HP {} level {}\n",
                    m.name,
                    m.hand.map_or("-".into(), |v| v.to_string()),
                    m.missile.map_or("-".into(), |v| v.to_string()),
                    m.attacks,
                    m.armor,
                    m.max_hp,
                    m.level
                ));
            }
        }
        s.push_str(&unplayed(&c));
        return Ok(s);
    }
    input::rules::parse(&name, &text).map_err(|e| e.to_string())?;
    Ok(format!(
        "{name}: a rules file\n{}",
        crate::games::changes::told(input::RULES, &text)
    ))
}

/// How `simulate minions` and `analyze minions` draw their groups (MC-31).
#[derive(Args, Debug, Clone)]
pub struct FieldFlags {
    /// Group kinds to draw: recruits, monsters, or both (each side picks one at random).
    #[arg(long, default_value = "recruits,monsters")]
    pub kinds: String,
    /// Group sizes, smallest-largest (1 to 8).
    #[arg(long, default_value = "1-8")]
    pub sizes: String,
    /// Most minion types in one group.
    #[arg(long, default_value_t = 2)]
    pub types: usize,
    /// Also draw minions with effects the kernel does not play: a combat that draws one is
    /// played by the plain model, effects and all (slower; MC-54). `simulate minions` only.
    #[arg(long)]
    pub all_minions: bool,
    #[command(flatten)]
    pub data: DataFlags,
}

/// `skirmish simulate minions`.
impl GameFlags for FieldFlags {
    type Sim = Field;
    const GAME: &'static str = "minions";
    const UNIT: &'static str = "combats";
    fn build(&self, src: &crate::platform::sources::Sources) -> Result<Field, String> {
        let (rules, cat) = self.data.load(src)?;
        let mut kinds = [false; 2];
        for k in self.kinds.split(',').map(str::trim) {
            match k {
                "recruits" | "recruit" => kinds[0] = true,
                "monsters" | "monster" => kinds[1] = true,
                other => {
                    return Err(format!(
                        "--kinds `{other}`: recruits, monsters, or both (recruits,monsters)"
                    ));
                }
            }
        }
        let bad = || {
            format!(
                "--sizes `{}`: smallest-largest, e.g. 1-8 or 4-4",
                self.sizes
            )
        };
        let (a, b) = self.sizes.split_once('-').ok_or_else(bad)?;
        let a: usize = a.trim().parse().map_err(|_| bad())?;
        let b: usize = b.trim().parse().map_err(|_| bad())?;
        Field::new(rules, cat, kinds, (a, b), self.types, self.all_minions)
    }
    fn command(&self, _: &Field) -> String {
        format!(
            "--kinds {} --sizes {} --types {}{}{}",
            super::flags::shell_quote(&self.kinds.to_string()),
            super::flags::shell_quote(&self.sizes.to_string()),
            super::flags::shell_quote(&self.types.to_string()),
            if self.all_minions {
                " --all-minions"
            } else {
                ""
            },
            self.data.command()
        )
    }
    fn settings(&self, src: &crate::platform::sources::Sources, f: &Field) -> serde_json::Value {
        serde_json::json!({
            "kinds": f.kinds,
            "sizes": [f.sizes.0, f.sizes.1],
            "types": f.types,
            "all_minions": f.all_minions,
            "rules": crate::games::changes::of_file(src, input::RULES, self.data.rules.as_deref()),
            "pool": f.pool.iter().map(|p| p.iter().map(|&i| f.catalogue.minions[i as usize].name.clone()).collect::<Vec<_>>()).collect::<Vec<_>>(),
        })
    }
    fn inputs(&self) -> Vec<PathBuf> {
        self.data.files()
    }
}

#[derive(Args, Debug, Clone)]
pub struct StudyFlags {
    /// Paired combats per stat change and per nation, and combats of each split against the
    /// field.
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(2..=100_000_000))]
    pub combats: u64,
    /// Combats per cell of the matrices and per count of the monster ladder.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(2..=10_000_000))]
    pub cell: u64,
    /// Minions per group in the minion matrix (each group one pool minion).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=8))]
    pub size: u64,
    /// The baseline swordsman (a catalogue name, `+ Modifier` allowed).
    #[arg(long, default_value = "Dwarf swordsman")]
    pub swordsman: String,
    /// The baseline archer.
    #[arg(long, default_value = "Dwarf archer")]
    pub archer: String,
    #[command(flatten)]
    pub field: FieldFlags,
    /// Output folder: stat_worth, monster_worth, minion_matrix, splits and nation_worth
    /// .parquet, and summary.txt. An earlier run of the same study there is continued: more
    /// --combats or --cell play only the new combats, and end as one run asked for them all.
    #[arg(long, default_value = "runs/minion-study")]
    pub out: PathBuf,
    /// Your own minion, as stats (`"H:3 A:1 HP:9 L:1"`: hand, attacks, HP, level; also M
    /// missile, AR armor, and `monster`) or a catalogue name with modifiers
    /// (`"Dwarf swordsman + Veteran"`): its worth in baseline recruits and its win share against
    /// the field, paired against the baseline swordsman, with intervals, and its rank among the
    /// monsters. Runs only these questions.
    #[arg(long, value_name = "STATS|NAME")]
    pub candidate: Option<String>,
    #[command(flatten)]
    pub run: super::flags::Running,
}

/// `--candidate`: stats (`H:3 A:1 HP:9 L:1`, any order) or a catalogue spec; the kernel must
/// play it (no effects only the plain model plays, MC-54).
fn candidate_minion(
    spec: &str,
    field: &crate::games::minion_combat::simulation::combats::Field,
) -> Result<crate::games::minion_combat::state::Minion, String> {
    use crate::games::minion_combat::state::Minion;
    let m = if spec.contains(':') {
        let mut m = Minion {
            name: spec.trim().to_string(),
            recruit: true,
            hand: None,
            missile: None,
            attacks: 1,
            armor: 0,
            hp: 1,
            max_hp: 1,
            level: 0,
            nation: None,
            flight: false,
            enchanted: false,
            clauses: Vec::new(),
        };
        let mut hp = None;
        for w in spec.split_whitespace() {
            if w.eq_ignore_ascii_case("monster") {
                m.recruit = false;
                continue;
            }
            let Some((k, v)) = w.split_once(':') else {
                return Err(format!(
                    "--candidate `{spec}`: `{w}` is not KEY:VALUE; write stats as \"H:3 A:1 HP:9 L:1\" (H hand, M missile, A attacks, AR armor, HP, L level)"
                ));
            };
            let n: i32 = v.parse().map_err(|_| {
                format!("--candidate `{spec}`: `{v}` in `{w}` is not a whole number")
            })?;
            let bad = |lo: i32, hi: i32| {
                (n < lo || n > hi)
                    .then(|| format!("--candidate `{spec}`: `{w}` is outside {lo}..{hi}"))
            };
            let err = match k.to_ascii_uppercase().as_str() {
                "H" => bad(0, 1000).or_else(|| {
                    m.hand = Some(n);
                    None
                }),
                "M" => bad(0, 1000).or_else(|| {
                    m.missile = Some(n);
                    None
                }),
                "A" => bad(1, 8).or_else(|| {
                    m.attacks = n as u32;
                    None
                }),
                "AR" => bad(0, 1000).or_else(|| {
                    m.armor = n;
                    None
                }),
                "HP" => bad(1, 10_000).or_else(|| {
                    hp = Some(n);
                    None
                }),
                // A level the rules cannot play is refused, never played as another (issue 62:
                // `L:7` was labelled L:7 and played as level 5).
                "L" => bad(field.rules.level_min, field.rules.level_max).or_else(|| {
                    m.level = n;
                    None
                }),
                other => Some(format!(
                    "--candidate `{spec}`: unknown stat `{other}`: H hand, M missile, A attacks, AR armor, HP, L level"
                )),
            };
            if let Some(e) = err {
                return Err(e);
            }
        }
        let Some(hp) = hp else {
            return Err(format!("--candidate `{spec}`: give its HP, e.g. HP:9"));
        };
        if m.hand.is_none() && m.missile.is_none() {
            return Err(format!(
                "--candidate `{spec}`: give it a hand (H:3) or missile (M:2) damage"
            ));
        }
        m.hp = hp;
        m.max_hp = hp;
        m
    } else {
        let (ms, _) = input::combat::minion_spec(spec, &field.catalogue, &field.rules)
            .map_err(|e| format!("--candidate: {e}"))?;
        ms.into_iter().next().expect("a spec names a minion")
    };
    if !m.kernel_plays() {
        return Err(format!(
            "--candidate `{spec}`: it carries effects (MC-41) that only `minions combat` plays; name one without them"
        ));
    }
    Ok(m)
}

const STUDY: &str = "analyze minions";

/// `skirmish analyze minions` (MC-32..MC-36): the worth of every stat, monster and nation.
impl Analysis for StudyFlags {
    const NAME: &'static str = STUDY;
    fn out(&self) -> Option<&Path> {
        Some(&self.out)
    }
    fn study(
        &self,
        ctx: &crate::platform::context::Context,
        _: Encoder,
    ) -> Result<Studied, String> {
        let f = self;
        use crate::games::minion_combat::analysis::study;
        use crate::platform::tally::thousands;
        use std::time::Instant;

        if f.field.all_minions {
            return Err(
                "--all-minions: `analyze minions` pairs combats on the optimised kernel, which \
                    plays only minions whose effects are all printed (MC-54); drop the flag, or \
                    use `simulate minions --all-minions`, which plays the rest on the plain model"
                    .into(),
            );
        }
        let field = f.field.build(ctx.sources())?;
        let threads = super::flags::threads(f.run.threads)?;
        for (flag, spec) in [("--swordsman", &f.swordsman), ("--archer", &f.archer)] {
            let (minions, _) = input::combat::minion_spec(spec, &field.catalogue, &field.rules)
                .map_err(|e| format!("{flag}: {e}"))?;
            // The split study fields swordsmen and archers in one group: recruits only (MC-1); a
            // monster here measured groups the rules forbid, with exit 0 (issue 53).
            if minions.iter().any(|m| !m.recruit) {
                return Err(format!(
                    "{flag} `{spec}`: a monster; the split fields swordsmen and archers together, and a group is all recruits or all monsters (MC-1): name a recruit, e.g. `Dwarf swordsman`"
                ));
            }
        }
        let candidate = match &f.candidate {
            None => None,
            Some(c) => Some(candidate_minion(c, &field)?),
        };
        if f.candidate.is_some() && f.run.sharding.shard.is_some() {
            return Err(
            "--shard: a --candidate run plays only the candidate's questions, on one machine; drop --shard"
                .into(),
        );
        }
        let st = study::Study {
            field,
            combats: f.combats,
            cell: f.cell,
            size: f.size as usize,
            swordsman: f.swordsman.clone(),
            archer: f.archer.clone(),
        };
        if let Some(m) = candidate {
            // Issue 51: the candidate's questions only, not the whole study.
            // A question's point (issue 78) wants the answer only: no folder is claimed.
            let claim = (!ctx.is_in_memory())
                .then(|| crate::platform::dataset::claim_output_folder(&f.out, STUDY))
                .transpose()?;
            let pool = crate::platform::runner::pool(threads)?;
            let start = Instant::now();
            let c = pool.install(|| st.candidate(&m, f.run.seed))?;
            let secs = start.elapsed().as_secs_f64();
            let answer =
                study::candidate_answer(&c, &st, f.run.seed, &super::flags::command_line(ctx));
            return Ok(Studied::Whole(Box::new(Findings {
                answer,
                replicates: None,
                tables: Vec::new(),
                files: Vec::new(),
                hold: vec![Box::new(claim)],
                summary: format!(
                    "skirmish analyze minions --candidate, seed {}: {} combats\n\n",
                    f.run.seed,
                    thousands(c.combats)
                ),
                head: format!(
                    "analyze minions --candidate: {} combats in {secs:.1} s on {threads} threads\n\n",
                    thousands(c.combats)
                ),
                tail: String::new(),
            })));
        }
        // Issue 51: the study's identity (all but the counts); its cells kept in the folder by an
        // earlier run or by shards are summed, not played again.
        let identity = serde_json::json!({
            "version": env!("CARGO_PKG_VERSION"),
            "seed": f.run.seed,
            "field": f.field.command(&st.field),
            "rules": format!("{:?}", st.field.rules),
            "catalogue": format!("{:?}", st.field.catalogue),
            "size": st.size,
            "swordsman": st.swordsman,
            "archer": st.archer,
        });
        let w = match play_cells(
            ctx,
            f.run
                .cells(&f.out, STUDY, identity, st.planned(), "combats", false)?,
            |ledger, tick| st.run(f.run.seed, ledger, tick),
        )? {
            Played::Shard(said) => return Ok(Studied::Said(said)),
            Played::Whole(w) => w,
        };
        let (found, secs) = (&w.found, w.secs);
        let setup = format!(
            "field: {}; {} recruits and {} monsters in the pool\n\n",
            f.field.command(&st.field),
            st.field.pool[0].len(),
            st.field.pool[1].len()
        );
        let head = format!(
            "analyze minions: {} combats{} in {:.1} s ({} combats/s on {threads} threads); {setup}",
            thousands(found.combats),
            if found.played < found.combats {
                format!(
                    ", {} of them played now (the rest kept in the folder)",
                    thousands(found.played)
                )
            } else {
                String::new()
            },
            secs,
            thousands((found.played as f64 / secs.max(1e-9)) as u64),
        );
        // The answer and its report (issue 50), written with the tables in one step.
        let mut answer = study::answer(found, &st, f.run.seed, &super::flags::command_line(ctx));
        // What a what-if of the analysis tells as changed (issue 63): the rules file's changes.
        answer.provenance.settings = serde_json::json!({
            "rules": crate::games::changes::of_file(ctx.sources(), input::RULES, f.field.data.rules.as_deref()),
        });
        let tables = study::tables(found);
        let summary = format!(
            "skirmish analyze minions, seed {}: {} combats; {setup}",
            f.run.seed,
            thousands(found.combats)
        );
        Ok(w.findings(
            answer,
            |x| study::answer(x, &st, f.run.seed, &super::flags::command_line(ctx)),
            tables,
            (summary, head),
        ))
    }
}
