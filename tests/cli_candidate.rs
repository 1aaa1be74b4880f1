//! Issue 51 as a host meets it: "my new power / policy / clan against the field" is one command
//! per game, answered with an interval and a rank; refusals name the fix.

mod common;

use common::{skirmish, tmp, tmp_file};

const THORNS: &str = r#"
[[power]]
name = "Thorns"
source = "a host"
text = "Whoever hits you with an attack takes 5 damage back."

[[power.clause]]
when = "attacked"
target = "other"
effects = [{ damage = 5 }]
"#;

fn said(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_candidate_power_is_valued_and_ranked_against_the_catalogue() {
    let file = tmp_file("candidate", "thorns.toml", THORNS);
    let out = tmp("candidate", "powers");
    let o = skirmish(&[
        "analyze",
        "rumble",
        "powers",
        "--candidate",
        &file,
        "--precision",
        "3",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let s = said(&o);
    assert!(o.status.success(), "{s}");
    let line = s
        .lines()
        .find(|l| l.starts_with("candidate Thorns: "))
        .unwrap_or_else(|| panic!("no candidate line: {s}"));
    // The six sample powers and the candidate: a rank of 7 and an interval.
    assert!(line.contains(" of 7;"), "{line}");
    assert!(line.contains("coins ["), "{line}");
    // The answer carries the candidate's section and the file's digest.
    let json = std::fs::read_to_string(out.join("result.json")).unwrap();
    assert!(json.contains("the candidates against the field"), "{json}");
    assert!(json.contains("thorns.toml"), "{json}");
}

#[test]
fn a_candidate_that_reuses_a_catalogue_name_is_refused_with_the_fix() {
    let file = tmp_file(
        "candidate",
        "amoeba.toml",
        &THORNS.replace("name = \"Thorns\"", "name = \"amoeba\""),
    );
    let out = tmp("candidate", "refused");
    let o = skirmish(&[
        "analyze",
        "rumble",
        "powers",
        "--candidate",
        &file,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let s = said(&o);
    assert_eq!(o.status.code(), Some(2), "{s}");
    assert!(s.contains("rename it"), "{s}");
    assert!(!out.exists(), "no partial output");
}
