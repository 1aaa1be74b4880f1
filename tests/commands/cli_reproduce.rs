//! Issue 52 as a user meets it: published numbers come from recorded answers; a recorded answer
//! reproduces; a number edited by hand in a generated block fails the check.

use crate::common;

use common::{skirmish_in, tmp};

#[test]
fn every_generated_block_equals_its_answer_and_a_hand_edit_fails() {
    let here = std::env::current_dir().unwrap();
    let o = skirmish_in(&here, &["reproduce", "--check-docs"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A copy of README and the answers with one number changed by hand.
    let d = tmp("reproduce", "docs");
    std::fs::create_dir_all(d.join("docs/answers")).unwrap();
    for e in std::fs::read_dir("docs/answers").unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), d.join("docs/answers").join(e.file_name())).unwrap();
    }
    let readme = std::fs::read_to_string("README.md").unwrap();
    let at = readme.find("<!-- answer candidate-power").unwrap();
    let coins = readme[at..].find(" coins [").unwrap() + at;
    let mut edited = readme.clone();
    edited.replace_range(coins - 3..coins, "9.9");
    assert_ne!(edited, readme);
    std::fs::write(d.join("README.md"), &edited).unwrap();
    let o = skirmish_in(&d, &["reproduce", "--check-docs"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("README.md"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // --write-docs restores it from the answer file.
    let o = skirmish_in(&d, &["reproduce", "--write-docs"]);
    assert!(o.status.success());
    assert_eq!(
        std::fs::read_to_string(d.join("README.md")).unwrap(),
        readme
    );
}

#[test]
fn a_recorded_answer_reproduces_identically() {
    let here = std::env::current_dir().unwrap();
    let o = skirmish_in(&here, &["reproduce", "candidate-minion", "candidate-power"]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        said.contains("candidate-minion: ") && said.contains(" 0 moved"),
        "{said}"
    );
    assert!(!said.contains("within their interval, 1"), "{said}");
}

/// A recorded answer whose estimate moved beyond its interval is a finding: exit 1 (as a balance's
/// FAIL, not 2, an input error), the report on stdout naming what moved; the process is not ended
/// from inside the command (issue 78: it called `process::exit`).
#[test]
fn a_recorded_answer_that_moved_exits_1_and_says_what_moved() {
    let d = tmp("reproduce", "moved");
    std::fs::create_dir_all(d.join("docs/answers")).unwrap();
    let mut a: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("docs/answers/candidate-minion.json").unwrap(),
    )
    .unwrap();
    let e = &mut a["answer"]["sections"][0]["estimates"][0];
    for k in ["value", "lo", "hi"] {
        e[k] = (e[k].as_f64().unwrap() + 100.0).into();
    }
    std::fs::write(
        d.join("docs/answers/candidate-minion.json"),
        serde_json::to_string_pretty(&a).unwrap(),
    )
    .unwrap();
    let o = skirmish_in(&d, &["reproduce", "candidate-minion"]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        said.contains("moved: candidate-minion") && said.contains(" 1 moved"),
        "{said}"
    );
}

/// The measured-looking spans of a line of prose: a share with decimals (`24.1%`), a rate
/// (`2.15 M battles/s`) or a duration (`3.5 s`, `31 ns`). Code spans are commands, not results.
fn measured_spans(line: &str) -> Vec<String> {
    let mut prose = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 0 {
            prose.push_str(part);
            prose.push(' ');
        }
    }
    let words: Vec<&str> = prose.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_end_matches(|c: char| ",;:).]*".contains(c))
            .to_string()
    };
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let w = w.trim_start_matches(|c: char| "([*".contains(c));
        if !w.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let b = bare(w);
        let decimal_share = b.ends_with('%') && b.contains('.');
        let rate = words[i + 1..]
            .iter()
            .take(3)
            .any(|n| bare(n).ends_with("/s"))
            || b.ends_with("/s");
        let duration = words
            .get(i + 1)
            .is_some_and(|n| ["s", "ms", "µs", "ns", "minutes"].contains(&bare(n).as_str()));
        if decimal_share || rate || duration {
            out.push(words[i..(i + 3).min(words.len())].join(" "));
        }
    }
    out
}

#[test]
fn no_measured_number_is_typed_outside_a_generated_block() {
    assert_eq!(measured_spans("smart 24.1% [23.8, 24.4]").len(), 1);
    assert_eq!(
        measured_spans("about 2.15 M battles/s on one core").len(),
        1
    );
    assert_eq!(measured_spans("the main job takes 3.5 s").len(), 1);
    assert!(measured_spans("a fair share is 10%; `skirmish bench --matches 1000000`").is_empty());
    let mut docs = vec![std::path::PathBuf::from("README.md")];
    let mut guides: Vec<_> = std::fs::read_dir("docs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    guides.sort();
    docs.extend(guides);
    let mut typed = Vec::new();
    for d in &docs {
        let text = std::fs::read_to_string(d).unwrap();
        let (mut block, mut code) = (false, false);
        for (n, line) in text.lines().enumerate() {
            if line.starts_with("<!-- answer ") {
                block = true;
            }
            if line.starts_with("<!-- /answer") {
                block = false;
                continue;
            }
            if line.starts_with("```") {
                code = !code;
                continue;
            }
            // A target or what an issue asks is a goal, not a measurement.
            let goal = ["issue", "target", "asks"].iter().any(|g| line.contains(g));
            if block || code || goal {
                continue;
            }
            for span in measured_spans(line) {
                typed.push(format!("{}:{}: {span}", d.display(), n + 1));
            }
        }
    }
    assert!(
        typed.is_empty(),
        "measured numbers typed by hand (record the run with `skirmish reproduce --record NAME -- ARGS` and put them in a generated block, or move a dated measurement to docs/history/):\n{}",
        typed.join("\n")
    );
}
