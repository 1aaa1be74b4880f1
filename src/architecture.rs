//! The layering ARCHITECTURE.md states, kept by a test: every `crate::`, `super::` and `self::`
//! path in `src/` (use trees and inline paths alike, test modules and comments aside) is an
//! edge from its file's module to the module it names. A game never reaches the CLI or the
//! questions; a kernel never reaches the platform, the questions or the CLI; the platform never
//! reaches a game, the questions or the CLI; the questions never reach the CLI (it hands them
//! what they need of the grammar, `questions::Commands`) or a kernel; the CLI never reaches a
//! game's kernel (it asks the game). No import circle anywhere.
//!
//! Issue 78 removed the last forbidden edge and the last circle: none may come back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layer a module belongs to.
fn layer(module: &str) -> &'static str {
    let s: Vec<&str> = module.split("::").collect();
    match s.as_slice() {
        ["games", _, "kernel", ..] => "kernel",
        ["games", ..] => "games",
        ["platform", ..] => "platform",
        ["questions", ..] => "questions",
        ["cli", ..] => "cli",
        _ => "lib",
    }
}

/// Whether an edge between layers breaks the layering.
fn forbidden(from: &str, to: &str) -> bool {
    matches!(
        (layer(from), layer(to)),
        ("games" | "kernel", "cli" | "questions")
            | ("kernel", "platform")
            | ("platform", "games" | "kernel" | "cli" | "questions")
            | ("questions", "cli" | "kernel")
            | ("cli", "kernel")
    )
}

/// Every module of the tree under `src`, by path (`platform::answer`), with its source.
fn modules(src: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).expect("src is readable") {
            let p = e.expect("an entry").path();
            if p.is_dir() {
                walk(&p, src, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(src).expect("under src").with_extension("");
                let mut parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(
                    parts.last().map(String::as_str),
                    Some("mod" | "lib" | "main")
                ) {
                    parts.pop();
                }
                let text = std::fs::read_to_string(&p).expect("a source file");
                out.insert(parts.join("::"), text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// The code of a file as the build sees it outside tests: comments and test modules dropped.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A use tree's paths, braces expanded (`a::{b, c::{d}}` is `a::b`, `a::c::d`).
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let mut depth = 0;
    let mut close = tree.len();
    for (i, ch) in tree.char_indices().skip(open) {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let (prefix, inner) = (&tree[..open], &tree[open + 1..close]);
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .filter(|i| !i.is_empty())
        .flat_map(|i| expand(&format!("{prefix}{i}")))
        .collect()
}

/// Every path a file names from the crate: its use trees and its inline `crate::`, `super::`
/// and `self::` paths.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for (at, _) in code.match_indices("use ") {
        // `use`, `pub use`, `pub(crate) use`: the keyword, not the end of a word.
        if at > 0 && !(bytes[at - 1].is_ascii_whitespace() || bytes[at - 1] == b')') {
            continue;
        }
        let end = code[at..].find(';').map_or(code.len(), |e| at + e);
        out.extend(expand(&code[at + 4..end]));
    }
    for root in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(root) {
            let start = from + at;
            from = start + root.len();
            if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
                continue;
            }
            let end = code[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| start + e);
            out.push(code[start..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The module `path` names from module `here` (the longest prefix that is a module).
fn resolve(here: &str, path: &str, known: &BTreeMap<String, String>) -> Option<String> {
    let mut segs: Vec<&str> = Vec::new();
    let mut rest = path.split("::").peekable();
    match rest.peek() {
        Some(&"crate") => {
            rest.next();
        }
        Some(&"super" | &"self") => {
            segs = if here.is_empty() {
                vec![]
            } else {
                here.split("::").collect()
            };
            while let Some(&w) = rest.peek() {
                match w {
                    "super" => {
                        segs.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest.next();
            }
        }
        _ => return None,
    }
    segs.extend(rest);
    (0..=segs.len())
        .rev()
        .map(|k| segs[..k].join("::"))
        .find(|m| known.contains_key(m))
}

/// The edges between modules.
fn edges(src: &Path) -> BTreeSet<(String, String)> {
    let mods = modules(src);
    let mut out = BTreeSet::new();
    for (here, text) in &mods {
        for p in paths(&code(text)) {
            if let Some(to) = resolve(here, &p, &mods)
                && to != *here
                && !to.is_empty()
            {
                out.insert((here.clone(), to));
            }
        }
    }
    out
}

/// The import circles: strongly connected sets of two or more modules, each sorted.
fn circles(edges: &BTreeSet<(String, String)>) -> BTreeSet<Vec<String>> {
    let mut graph: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges {
        graph.entry(a).or_default().push(b);
        graph.entry(b).or_default();
    }
    // Reachability by search from each module: the tree has a few hundred.
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(m) = todo.pop() {
            for &n in &graph[m] {
                if seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&str, BTreeSet<&str>> = graph.keys().map(|&m| (m, reach(m))).collect();
    let mut out = BTreeSet::new();
    for (&m, r) in &reached {
        let mut circle: Vec<String> = r
            .iter()
            .filter(|&&n| reached[n].contains(m))
            .map(|n| n.to_string())
            .collect();
        if circle.len() > 1 {
            circle.sort();
            out.insert(circle);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
    }

    #[test]
    fn no_layer_reaches_one_it_must_not_know() {
        let bad: Vec<_> = edges(&src())
            .into_iter()
            .filter(|(a, b)| forbidden(a, b))
            .collect();
        assert!(
            bad.is_empty(),
            "forbidden paths (a game or kernel reaching the CLI or the questions, a kernel the platform, the platform a game, the questions or the CLI, the questions the CLI or a kernel, the CLI a game's kernel): {bad:?}"
        );
    }

    #[test]
    fn the_cli_touches_no_file() {
        // Issue 78: the CLI parses and converts; what reads or writes folders is the platform's
        // or a question's.
        let bad: Vec<String> = modules(&src())
            .into_iter()
            .filter(|(m, text)| layer(m) == "cli" && code(text).contains("std::fs"))
            .map(|(m, _)| m)
            .collect();
        assert!(
            bad.is_empty(),
            "the CLI's modules reaching std::fs: {bad:?}"
        );
    }

    #[test]
    fn no_import_circle_anywhere() {
        let found = circles(&edges(&src()));
        assert!(found.is_empty(), "import circles: {found:?}");
    }

    #[test]
    fn paths_are_read_from_use_trees_and_inline_paths() {
        let p = paths(&code(
            "use crate::platform::{answer::{Answer, Section}, tally};\nfn f() { crate::stats::Z95; super::x::y(); }\n// crate::cli::nothing\n",
        ));
        for want in [
            "crate::platform::answer::Answer",
            "crate::platform::tally",
            "crate::stats::Z95",
            "super::x::y",
        ] {
            assert!(p.iter().any(|x| x == want), "{want} not in {p:?}");
        }
        assert!(
            !p.iter().any(|x| x.contains("cli")),
            "a comment is no path: {p:?}"
        );
    }

    #[test]
    fn a_kernel_reaching_the_cli_is_forbidden_and_a_circle_is_found() {
        assert!(forbidden("games::auto_rumble::kernel::data", "cli::flags"));
        assert!(forbidden(
            "games::auto_rumble::kernel::data",
            "platform::answer"
        ));
        assert!(forbidden("platform::answer", "games::names"));
        assert!(forbidden("questions::reproduce", "cli::flags"));
        assert!(forbidden("platform::dataset", "questions::reproduce"));
        assert!(!forbidden("cli::reproduce", "questions::reproduce"));
        assert!(!forbidden("questions::reproduce", "platform::answer"));
        assert!(forbidden("cli::powers", "games::auto_rumble::kernel::data"));
        assert!(!forbidden(
            "cli::powers",
            "games::auto_rumble::analysis::power_value"
        ));
        assert!(!forbidden(
            "games::auto_rumble::analysis::power_value",
            "platform::answer"
        ));
        let e: BTreeSet<(String, String)> = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
            .iter()
            .map(|(x, y)| (x.to_string(), y.to_string()))
            .collect();
        let c = circles(&e);
        assert_eq!(c.len(), 1);
        assert_eq!(c.iter().next().unwrap(), &["a", "b", "c"]);
    }
}
