//! Names in files hosts write: the normal form they are compared in, and the "did you mean" of
//! every error message. Shared by every game's file formats.

use crate::error::Error;
/// Lower-case letters and digits only: "Big, Gnashy Claws" and "big gnashy claws" compare equal.
pub fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The candidate closest to `name` (by edit distance on lower-case letters and digits), if any is
/// close enough to be a likely typo: the "did you mean" of every error message.
pub fn closest_name<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let key = normalise(name);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&key, &normalise(c)), c))
        .filter(|(d, _)| *d <= 3.max(key.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance, for suggestions in error messages.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A policy or strategy spec split into its name and the text inside its parentheses:
/// `smart(hunt=2)` -> (`smart`, `hunt=2`); `looter` -> (`looter`, ``).
pub fn call(spec: &str) -> Result<(&str, &str), Error> {
    let s = spec.trim();
    match s.split_once('(') {
        Some((n, rest)) => match rest.trim_end().strip_suffix(')') {
            Some(inner) => Ok((n.trim(), inner)),
            None => Err(Error::Input(format!("`{s}`: close the parentheses"))),
        },
        None => Ok((s, "")),
    }
}

/// The `key=value` parameters of a spec's parentheses, trimmed.
pub fn params(args: &str) -> impl Iterator<Item = Result<(&str, &str), Error>> {
    // A key given twice is a typo, not a silent last-wins (issue 53).
    let mut seen: Vec<&str> = Vec::new();
    args.split(',')
        .filter(|a| !a.trim().is_empty())
        .map(move |kv| {
            let (k, v) = kv
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| format!("`{}`: write parameters as key=value", kv.trim()))?;
            if seen.contains(&k) {
                return Err(Error::Input(format!(
                    "`{k}` is given twice: give each parameter once"
                )));
            }
            seen.push(k);
            Ok((k, v))
        })
}

/// "unknown strategy `x`: one of a, b; did you mean `a`?" over a list of `(spec, meaning)`
/// (a spec's name is what comes before its parentheses; entries starting `<` are templates).
pub fn unknown(what: &str, n: &str, named: &[(&str, &str)]) -> String {
    let names: Vec<&str> = named
        .iter()
        .map(|(n, _)| n.split('(').next().unwrap_or(n))
        .filter(|n| !n.starts_with('<'))
        .collect();
    let hint = closest_name(n, names.iter().copied())
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default();
    format!("unknown {what} `{n}`: one of {}{hint}", names.join(", "))
}
