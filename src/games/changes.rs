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
