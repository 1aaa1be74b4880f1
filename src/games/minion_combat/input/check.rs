//! `skirmish minions check FILE`: any of the game's input files, read by its own parser.

use crate::error::Error;
use std::path::Path;

use super::DataFiles;
use crate::games::minion_combat::rules::Rules;
use crate::platform::sources::Sources;

/// `skirmish minions check FILE`: what a rules file, catalogue, modifier list, effects file,
/// board or combat file holds, read by its own parser (its first error, with file and line,
/// else a summary), the catalogues beside it `data`'s.
pub fn check(src: &Sources, path: &Path, data: &DataFiles) -> Result<String, Error> {
    let text = crate::games::file_error::read(src, path, "Minion Combat file")?;
    let name = path.display().to_string();
    let table: Option<toml::Table> = toml::from_str(&text).ok();
    let has = |k: &str| table.as_ref().is_some_and(|t| t.contains_key(k));
    if has("minion") {
        let m = super::catalogue::parse_minions(&name, &text)?;
        let mut s = format!("{name}: a minion catalogue of {} minions\n", m.len());
        // What plays whole (issue 52: README's counts were typed, and disagreed): read with the
        // shipped modifiers and effects, or those the flags name.
        if let Ok(cat) = super::catalogue::from_flags(
            src,
            Some(path),
            data.modifiers.as_deref(),
            data.effects.as_deref(),
        ) {
            let r = Rules::default();
            let (mut whole, mut kernel) = (0, 0);
            let (mut partly, mut alone) = (Vec::new(), Vec::new());
            for st in &cat.minions {
                let (fielded, unplayed) = match super::combat::minion_spec(&st.name, &cat, &r) {
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
        let m = super::catalogue::parse_modifiers(&name, &text)?;
        return Ok(format!("{name}: {} modifiers\n", m.len()));
    }
    if has("effect") || has("status") {
        let (_, cat) = data.load(src)?;
        let e = super::effects::parse(&name, &text, &cat.minions, &cat.modifiers)?;
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
        let (r, cat) = data.load(src)?;
        let b = super::board::parse(&name, &text, &r, &cat)?;
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
        let (r, cat) = data.load(src)?;
        let c = super::combat::parse(&name, &text, &r, &cat)?;
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
        s.push_str(&crate::games::minion_combat::trace::unplayed(&c));
        return Ok(s);
    }
    super::rules::parse(&name, &text)?;
    Ok(format!(
        "{name}: a rules file\n{}",
        crate::games::changes::told(super::RULES, &text)
    ))
}
