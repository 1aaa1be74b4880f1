//! Clans as data: integer expressions (`expr`), clan files compiled into rosters and rules
//! (`clan`), and the nine reference clans built in (`clans`).

use crate::error::Error;
pub mod clan;
pub mod clans;
pub mod expr;
pub mod rules;

/// `skirmish clan-melee check FILE`: a rules file read back as its changes, or a clan compiled
/// and what it fields at a range of budgets.
pub fn check(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
) -> Result<String, Error> {
    use crate::games::clan_melee::input::clan::Clan;
    use crate::platform::tally::thousands;
    use crate::rng::{Stream, match_stream_rng};
    use std::fmt::Write as _;
    // A rules file (issue 51) reads back as its changes from the seed's values.
    if let Ok(text) = crate::games::file_error::read(src, path, "file")
        && rules::is_rules(&text)
    {
        let r = rules::load(src, path)?;
        return Ok(crate::games::changes::rules_file_told(path, &r.changes()));
    }
    let clan = Clan::load(src, path)?;
    let mut out = format!(
        "{}: clan `{}`, {} kinds{}\n",
        path.display(),
        clan.name,
        clan.kinds.len(),
        clan.clan_id
            .map_or(String::new(), |id| format!(", members carry clan ID {id}"))
    );
    for k in &clan.kinds {
        let _ = writeln!(
            out,
            "  {} ({}): a rule of {} case{}{}",
            k.name,
            if k.healer { "healer" } else { "warrior" },
            k.cases.len(),
            if k.cases.len() == 1 { "" } else { "s" },
            if k.has_effect() {
                ", can hurt its partner at decision time"
            } else {
                ""
            }
        );
    }
    let mut made = Vec::new();
    for h in [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000] {
        let mut rng = match_stream_rng(42, Stream::Roster);
        match clan.enter(clan.clan_id.unwrap_or(0) as usize, h, &mut rng, &mut made) {
            Ok(total) => {
                let mut per_kind = vec![0u64; clan.kinds.len()];
                for m in &made {
                    per_kind[m.kind as usize] += m.count as u64;
                }
                let kinds: Vec<String> = clan
                    .kinds
                    .iter()
                    .zip(&per_kind)
                    .filter(|(_, n)| **n > 0)
                    .map(|(k, n)| format!("{n} {}", k.name))
                    .collect();
                let _ = writeln!(
                    out,
                    "  at {}: {} members ({}), {} hp",
                    thousands(h as u64),
                    thousands(crate::games::clan_melee::input::clan::members(&made)),
                    kinds.join(", "),
                    thousands(total as u64)
                );
            }
            Err(why) => {
                let _ = writeln!(out, "  at {}: disqualified: {why}", thousands(h as u64));
            }
        }
    }
    Ok(out)
}
