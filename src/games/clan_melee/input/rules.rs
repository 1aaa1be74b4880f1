//! Rules files (issue 51): [`Rules`] keys at the top level, the seed's values for the rest
//! (`experiments/clan-melee-rules/rules.toml` lists every key).

use crate::error::Error;
use crate::games::clan_melee::rules::Rules;
use crate::games::file_error::FileError;

/// The rules file that ships with every key at the seed's value.
pub const SHIPPED: &str = include_str!("../../../../experiments/clan-melee-rules/rules.toml");

/// Parses and checks a rules file; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Rules, FileError> {
    crate::games::changes::parse_rules(file, text, "docs/clan-melee.md", Rules::check)
}

/// Reads and checks a rules file.
pub fn load(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
) -> Result<Rules, FileError> {
    crate::games::changes::load_rules(src, path, "docs/clan-melee.md", Rules::check)
}

/// The rules of a `--rules` flag: the file's, or the seed's without one.
pub fn from_flag(
    src: &crate::platform::sources::Sources,
    path: Option<&str>,
) -> Result<Rules, Error> {
    path.map_or(Ok(Rules::SEED), |p| {
        load(src, std::path::Path::new(p)).map_err(Error::from)
    })
}

/// Whether a file's text is a rules file rather than a clan file.
pub fn is_rules(text: &str) -> bool {
    crate::games::changes::is_rules(text, &["name", "roster", "kinds", "clan_id", "source"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_holds_the_seeds_numbers() {
        assert_eq!(parse("rules.toml", SHIPPED).unwrap(), Rules::SEED);
        assert!(is_rules(SHIPPED));
        assert!(!is_rules(include_str!(
            "../../../../experiments/clan-melee/0-clan1.toml"
        )));
    }

    // CM-2: a changed number is read and told in plain words; the rest keep the seed's.
    #[test]
    fn a_changed_number_reads_back_as_its_change() {
        let r = parse("r.toml", "decay = 3\n").unwrap();
        assert_eq!((r.decay, r.free_ap), (3, 10));
        assert_eq!(r.changes(), ["decay 1 -> 3"]);
        let e = parse("r.toml", "free_ap = 10\nap_per_damage = 0\n").unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.at.map(|a| a.0)),
            ("ap_per_damage", Some(2))
        );
    }
}
