//! Issue 52 as a user meets it: published numbers come from recorded answers; a recorded answer
//! reproduces; a number edited by hand in a generated block fails the check.

mod common;

use common::tmp;

fn skirmish_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

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
