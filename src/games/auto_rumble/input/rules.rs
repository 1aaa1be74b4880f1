//! Rules files (issue 51): [`Rules`] keys at the top level, the seed's values for the rest
//! (`experiments/auto-rumble/rules.toml` lists every key).

use crate::games::auto_rumble::rules::Rules;
use crate::games::file_error::FileError;

/// The rules file that ships with every key at the seed's value.
pub const SHIPPED: &str = include_str!("../../../../experiments/auto-rumble/rules.toml");

/// Parses and checks a rules file; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Rules, FileError> {
    crate::games::changes::parse_rules(file, text, "docs/auto-rumble.md", Rules::check)
}

/// Reads and checks a rules file.
pub fn load(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
) -> Result<Rules, FileError> {
    crate::games::changes::load_rules(src, path, "docs/auto-rumble.md", Rules::check)
}

/// Whether a file's text is a rules file rather than a scenario or a power file.
pub fn is_rules(text: &str) -> bool {
    crate::games::changes::is_rules(text, &["hero", "battle", "power", "include"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_holds_the_seeds_numbers() {
        assert_eq!(parse("rules.toml", SHIPPED).unwrap(), Rules::SEED);
        assert!(is_rules(SHIPPED));
        assert!(!is_rules("[battle]\nmax_rounds = 30\n"));
    }

    // AR-2, AR-13: a changed number is read and told in plain words; the rest keep the seed's.
    #[test]
    fn a_changed_number_reads_back_as_its_change() {
        let r = parse("r.toml", "attack_cost = 20\nstalemate_rounds = 0\n").unwrap();
        assert_eq!(
            (r.attack_cost, r.stalemate_rounds, r.starting_energy),
            (20, 0, 100)
        );
        assert_eq!(
            r.changes(),
            ["attack_cost 10 -> 20", "stalemate_rounds 3 -> 0"]
        );
    }

    // A free attack would be paid by the dead (Energy 0 >= 0); a number past the coin limit
    // could overflow (AR-18); an unknown key is a typo.
    #[test]
    fn out_of_range_numbers_and_unknown_keys_are_refused_on_their_line() {
        for (text, field) in [
            ("income = 5\nattack_cost = 0\n", "attack_cost"),
            ("starting_energy = 2000000\n", "starting_energy"),
            ("coins_per_damage = 0\n", "coins_per_damage"),
            ("income = 1001\n", "income"),
            ("atack_cost = 5\n", "atack_cost"),
        ] {
            let e = parse("r.toml", text).unwrap_err();
            assert_eq!(e.field, field, "{text}: {e}");
            assert!(e.at.is_some(), "{e}");
        }
    }
}
