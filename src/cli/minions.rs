//! `skirmish minions combat|check` (Minion Combat Pipeline).

use std::path::{Path, PathBuf};

use clap::Args;

use crate::games::minion_combat::input::{self, combat::CombatFile};
use crate::games::minion_combat::reference::{Quiet, combat};
use crate::games::minion_combat::rules::Rules;
use crate::games::minion_combat::state::Catalogue;
use crate::games::minion_combat::trace::{JsonTrace, Narrator};

/// `--rules`, `--minions`, `--modifiers`: the game's numbers and its catalogues.
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
}

impl DataFlags {
    fn load(&self) -> Result<(Rules, Catalogue), String> {
        Ok((
            input::rules::from_flag(self.rules.as_deref())?,
            input::catalogue::from_flags(self.minions.as_deref(), self.modifiers.as_deref())?,
        ))
    }
}

#[derive(Args, Debug)]
pub struct CombatArgs {
    /// Combat file (TOML) [default: the built-in experiments/minion-combat/combat.toml].
    pub file: Option<PathBuf>,
    /// Tell every choice (which tiebreaker decided), hit, miss, armor soak and death, in the
    /// page's step names.
    #[arg(long, conflicts_with = "trace")]
    pub narrate: bool,
    /// JSON Lines: one object per choice and attack, then the outcome.
    #[arg(long)]
    pub trace: bool,
    /// The combat's seed [default: the file's `seed`, else 42].
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub data: DataFlags,
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
        "Not played yet (MC-40), these minions fight on their stats alone: {}\n",
        list.join(", ")
    )
}

/// `skirmish minions combat`.
pub fn combat_cmd(a: &CombatArgs) -> Result<String, String> {
    let (r, cat) = a.data.load()?;
    let c = input::combat::from_flag(a.file.as_deref(), &r, &cat)?;
    let seed = a.seed.unwrap_or(c.seed);
    let groups = [&c.groups[0], &c.groups[1]];
    if a.narrate {
        let mut n = Narrator::new(groups);
        combat(groups, &r, seed, &mut n);
        return Ok(format!("{}{}", unplayed(&c), n.out));
    }
    if a.trace {
        let mut t = JsonTrace::default();
        combat(groups, &r, seed, &mut t);
        return Ok(t.out);
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
            o.hp[k].len(),
            o.hp_left(k)
        ));
    }
    Ok(s)
}

/// `skirmish minions check FILE`: a rules file, catalogue, modifier list or combat file.
pub fn check(path: &Path, data: &DataFlags) -> Result<String, String> {
    let text =
        crate::games::file_error::read(path, "Minion Combat file").map_err(|e| e.to_string())?;
    let name = path.display().to_string();
    let table: Option<toml::Table> = toml::from_str(&text).ok();
    let has = |k: &str| table.as_ref().is_some_and(|t| t.contains_key(k));
    if has("minion") {
        let m = input::catalogue::parse_minions(&name, &text).map_err(|e| e.to_string())?;
        return Ok(format!(
            "{name}: a minion catalogue of {} minions\n",
            m.len()
        ));
    }
    if has("modifier") {
        let m = input::catalogue::parse_modifiers(&name, &text).map_err(|e| e.to_string())?;
        return Ok(format!("{name}: {} modifiers\n", m.len()));
    }
    if has("group") {
        let (r, cat) = data.load()?;
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
    Ok(format!("{name}: a rules file\n"))
}
