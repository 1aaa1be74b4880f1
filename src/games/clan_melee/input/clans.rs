//! The nine reference clans of the classic tournament, built in from
//! `experiments/clan-melee/*.toml` (their ids are their positions, CM-5), so the default
//! tournament needs no files.

use crate::games::clan_melee::input::clan::Clan;
use crate::games::clan_melee::state::Field;
use crate::games::file_error::FileError;

/// (file name, text) of each reference clan, in the classic factory order.
pub const REFERENCE: [(&str, &str); 9] = [
    (
        "0-clan1.toml",
        include_str!("../../../../experiments/clan-melee/0-clan1.toml"),
    ),
    (
        "1-clan2.toml",
        include_str!("../../../../experiments/clan-melee/1-clan2.toml"),
    ),
    (
        "2-salt-8-your-heart.toml",
        include_str!("../../../../experiments/clan-melee/2-salt-8-your-heart.toml"),
    ),
    (
        "3-salt-coward.toml",
        include_str!("../../../../experiments/clan-melee/3-salt-coward.toml"),
    ),
    (
        "4-salt-dstaxx.toml",
        include_str!("../../../../experiments/clan-melee/4-salt-dstaxx.toml"),
    ),
    (
        "5-salt-fighting-artichokes.toml",
        include_str!("../../../../experiments/clan-melee/5-salt-fighting-artichokes.toml"),
    ),
    (
        "6-salt-james-zerker.toml",
        include_str!("../../../../experiments/clan-melee/6-salt-james-zerker.toml"),
    ),
    (
        "7-salt-no-forgiveness.toml",
        include_str!("../../../../experiments/clan-melee/7-salt-no-forgiveness.toml"),
    ),
    (
        "8-salt-golems.toml",
        include_str!("../../../../experiments/clan-melee/8-salt-golems.toml"),
    ),
];

/// The nine reference clans, compiled.
pub fn reference() -> Vec<Clan> {
    REFERENCE
        .iter()
        .map(|(f, t)| {
            Clan::parse(&format!("experiments/clan-melee/{f}"), t)
                .expect("the built-in clans compile (tests/games/clan_melee_clans.rs)")
        })
        .collect()
}

/// The reference field.
pub fn reference_field() -> Field {
    Field::new(reference()).expect("nine clans")
}

/// Clans from files or folders (a folder's `*.toml` files in name order), in the order given.
pub fn load(
    src: &crate::platform::sources::Sources,
    paths: &[std::path::PathBuf],
) -> Result<Vec<Clan>, FileError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut files: Vec<_> = std::fs::read_dir(p)
                .map_err(|e| FileError {
                    file: p.display().to_string(),
                    at: None,
                    field: String::new(),
                    message: format!("cannot read the folder ({e}): check the path"),
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "toml"))
                .collect();
            files.sort();
            for f in files {
                out.push(Clan::load(src, &f)?);
            }
        } else {
            out.push(Clan::load(src, p)?);
        }
    }
    Ok(out)
}
