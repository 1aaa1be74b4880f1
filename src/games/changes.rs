//! A rules file read back as its changes from the seed's values, in plain words
//! (`champion.mage.health 85 -> 90`), for every game whose shipped rules file lists every key
//! with the seed's value (issue 53: `check` printed a debug dump of the rules).

use std::collections::BTreeMap;

/// Every leaf of a TOML table as `dotted.path -> value`, values as a host writes them.
fn leaves(prefix: &str, v: &toml::Value, out: &mut BTreeMap<String, String>) {
    match v {
        toml::Value::Table(t) => {
            for (k, x) in t {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                leaves(&p, x, out);
            }
        }
        toml::Value::String(s) => {
            out.insert(prefix.to_string(), s.clone());
        }
        other => {
            out.insert(prefix.to_string(), other.to_string());
        }
    }
}

/// The keys `text` sets to something other than `shipped` does (the shipped file holds every
/// key at the seed's value), as `key seed -> file` lines; a key the shipped file lacks is shown
/// as `key -> file`. Both texts are valid TOML (the file was checked before).
pub fn changes(shipped: &str, text: &str) -> Vec<String> {
    let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
    if let (Ok(x), Ok(y)) = (shipped.parse::<toml::Table>(), text.parse::<toml::Table>()) {
        leaves("", &toml::Value::Table(x), &mut a);
        leaves("", &toml::Value::Table(y), &mut b);
    }
    b.iter()
        .filter(|(k, v)| a.get(*k) != Some(*v))
        .map(|(k, v)| match a.get(k) {
            Some(old) => format!("{k} {old} -> {v}"),
            None => format!("{k} -> {v}"),
        })
        .collect()
}

/// [`changes`] of the rules file at `path` (none: the seed's rules), for a run's settings: what
/// a what-if or `diff` says changed, in plain words (issue 64: a debug dump of the rules was
/// shown). The file was read and checked before; one that cannot be read now changes nothing.
pub fn of_file(
    src: &crate::platform::sources::Sources,
    shipped: &str,
    path: Option<&std::path::Path>,
) -> Vec<String> {
    path.and_then(|p| src.read(p).ok())
        .map_or_else(Vec::new, |t| changes(shipped, &t))
}

/// Parses and checks a rules file's text (issue 51): its keys at the top level, defaults for the
/// rest; a syntax error, an unknown key (`format` names where the keys are documented) or a
/// number out of range (`check` names the field and the fix) is one error on its line.
pub fn parse_rules<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
    format: &str,
    check: impl Fn(&T) -> Result<(), (&'static str, String)>,
) -> Result<T, crate::games::file_error::FileError> {
    let cx = crate::games::file_error::FileCtx { file, text };
    let r: T = cx.toml(format)?;
    check(&r).map_err(|(field, m)| cx.err(None, field, m))?;
    Ok(r)
}

/// Reads a rules file and [`parse_rules`] it.
pub fn load_rules<T: serde::de::DeserializeOwned>(
    src: &crate::platform::sources::Sources,
    path: &std::path::Path,
    format: &str,
    check: impl Fn(&T) -> Result<(), (&'static str, String)>,
) -> Result<T, crate::games::file_error::FileError> {
    let text = crate::games::file_error::read(src, path, "rules file")?;
    parse_rules(&path.display().to_string(), &text, format, check)
}

/// Whether a file's text is a rules file rather than another of the game's inputs: valid TOML
/// with keys, none of them one of `others` (the tables those inputs have). A misspelt key
/// still reads as a rules file, so its error names the key.
pub fn is_rules(text: &str, others: &[&str]) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| !t.is_empty() && !others.iter().any(|k| t.contains_key(*k)))
}

/// The fields in which `x` departs from `seed` (two values of one settings type), as
/// `field seed -> x` lines.
pub fn of<T: serde::Serialize>(seed: &T, x: &T) -> Vec<String> {
    let (a, b) = (
        serde_json::to_value(seed).expect("settings serialise"),
        serde_json::to_value(x).expect("settings serialise"),
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return Vec::new();
    };
    let plain = |v: &serde_json::Value| v.as_str().map_or_else(|| v.to_string(), String::from);
    a.iter()
        .filter(|(k, v)| b.get(*k) != Some(*v))
        .map(|(k, v)| format!("{k} {} -> {}", plain(v), plain(&b[k])))
        .collect()
}

/// `check`'s answer for a rules file given as its changes ([`of`]): the file, then each change
/// from the seed's values, or that it holds the seed's values throughout.
pub fn rules_file_told(path: &std::path::Path, changes: &[String]) -> String {
    if changes.is_empty() {
        return format!(
            "{}: a rules file with the seed's values throughout\n",
            path.display()
        );
    }
    let mut out = format!(
        "{}: a rules file; from the seed's values:\n",
        path.display()
    );
    for c in changes {
        out.push_str(&format!("  {c}\n"));
    }
    out
}

/// `check`'s lines for a rules file: its changes, or that it holds the seed's values.
pub fn told(shipped: &str, text: &str) -> String {
    let c = changes(shipped, text);
    if c.is_empty() {
        "  (the seed's values throughout)\n".to_string()
    } else {
        let mut s = String::from("  changes from the seed's values:\n");
        for l in c {
            s.push_str(&format!("    {l}\n"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_value_is_told_as_seed_then_file_and_an_unchanged_one_not_at_all() {
        let shipped = "rounds = 10\n[champion.mage]\nhealth = 85\ndice = \"4d5\"\n";
        let file = "rounds = 10\n[champion.mage]\nhealth = 90\n";
        assert_eq!(changes(shipped, file), ["champion.mage.health 85 -> 90"]);
        assert!(told(shipped, "rounds = 10\n").contains("seed's values throughout"));
        assert_eq!(
            changes(shipped, "[nation]\nAtlantis = \"+1\"\n"),
            ["nation.Atlantis -> +1"]
        );
    }
}
