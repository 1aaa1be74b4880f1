//! `skirmish rumble check FILE` (a power file) and `skirmish rumble powers [FILE]`: a host's view of a power file.

use crate::error::Error;
use std::path::Path;

use crate::games::auto_rumble::powers::file::{self, PowerDef};

fn load(file: Option<&Path>) -> Result<(String, Vec<PowerDef>), Error> {
    match file {
        None => Ok((
            "the built-in catalogue (experiments/powers/sample.toml)".to_string(),
            file::builtin().to_vec(),
        )),
        Some(p) => file::load(&crate::platform::sources::Sources::disk(), p)
            .map(|d| (p.display().to_string(), d))
            .map_err(Error::from),
    }
}

/// What the file's powers take of a hero's room, beside the limits (AR-22): a host sees up front
/// why a random hero may hold fewer powers than drawn.
fn needs(defs: &[PowerDef]) -> String {
    use crate::games::auto_rumble::powers::limits::{MAX_CLAUSES, MAX_HELD, MAX_HERO_COUNTERS};
    let most = |f: &dyn Fn(&PowerDef) -> usize| {
        defs.iter()
            .max_by_key(|d| (f(d), std::cmp::Reverse(d.name.clone())))
            .map_or((0, String::new()), |d| (f(d), d.name.clone()))
    };
    let (cl, cl_name) = most(&|d| d.clauses.len());
    let (co, co_name) = most(&|d| d.counters.len());
    let mut s = format!(
        "limits: a hero holds at most {MAX_HELD} powers, {MAX_CLAUSES} clauses and {MAX_HERO_COUNTERS} counters together; the most one power here takes: {cl} clause{} ({cl_name}), {co} counter{}",
        if cl == 1 { "" } else { "s" },
        if co == 1 { "" } else { "s" },
    );
    if co > 0 {
        s.push_str(&format!(" ({co_name})"));
    }
    s.push_str(
        ".
  Random rosters (simulate, analyze) set aside a drawn power that would not fit (AR-22); `skirmish powers reference` lists every limit.

",
    );
    s
}

/// Validates a file and prints every power back, normalised: when, if, for how much, to whom,
/// what. A host reads it to confirm the file says what the player meant.
pub fn check(file: &Path) -> Result<String, Error> {
    let (label, defs) = load(Some(file))?;
    let mut out = String::new();
    for (d, engine) in defs
        .iter()
        .zip(crate::games::auto_rumble::simulation::ffa::power_paths(
            &defs,
        ))
    {
        out.push_str(&d.describe());
        out.push_str(match engine {
            "fast" => "  runs on the kernel's fast path\n",
            _ => "  runs on the kernel's general path (reactions or effects on other heroes)\n",
        });
        out.push('\n');
    }
    out.push_str(&needs(&defs));
    let adapted = defs.iter().filter(|d| !d.is_faithful()).count();
    out.push_str(&format!(
        "{label}: {} power{}, all valid ({} faithful to their text, {adapted} adapted)\n",
        defs.len(),
        if defs.len() == 1 { "" } else { "s" },
        defs.len() - adapted
    ));
    Ok(out)
}

/// One line per power: name, source, faithful or adapted, when it acts.
pub fn list(file: Option<&Path>) -> Result<String, Error> {
    let (label, defs) = load(file)?;
    let width = defs.iter().map(|d| d.name.len()).max().unwrap_or(4).max(4);
    let mut out = format!("{label}: {} powers\n", defs.len());
    out.push_str(&format!(
        "{:<width$}  source  reading   path     acts\n",
        "name"
    ));
    for (d, engine) in defs
        .iter()
        .zip(crate::games::auto_rumble::simulation::ffa::power_paths(
            &defs,
        ))
    {
        let mut whens: Vec<&str> = d.clauses.iter().map(|c| c.when.name()).collect();
        whens.dedup();
        out.push_str(&format!(
            "{:<width$}  {:<6}  {:<8}  {:<7}  {}\n",
            d.name,
            d.source,
            match (d.is_faithful(), d.helper) {
                (_, true) => "helper",
                (true, _) => "faithful",
                (false, _) => "adapted",
            },
            engine,
            whens.join(", ")
        ));
    }
    Ok(out)
}
