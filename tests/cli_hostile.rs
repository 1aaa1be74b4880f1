//! Issue 53 (the second hostile sweep) as a user meets it: flags that double-counted rows,
//! named the wrong flag, measured nothing with exit 0 or refused only after working. Each is
//! refused at once with exit 2, a message naming the flag and the fix, and nothing written.

mod common;

use common::{skirmish, tmp};

/// Runs `args` with `--out` in a fresh folder; the command must fail with exit 2, say `says`
/// on stderr and leave no folder.
fn refused(name: &str, args: &[&str], says: &str) {
    let dir = tmp("hostile", name);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--out", dir.to_str().unwrap(), "--quiet"]);
    let o = skirmish(&all);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
    assert!(!dir.exists(), "{args:?} wrote {}", dir.display());
}

#[test]
fn a_list_naming_an_entry_twice_is_refused() {
    refused(
        "budgets",
        &["tournament", "clan-melee", "--budgets", "100,100"],
        "--budgets: `100` is listed twice",
    );
    refused(
        "strategies",
        &["tournament", "loot", "--strategies", "looter,looter"],
        "--strategies: `looter` is listed twice",
    );
    // Two spellings of one policy are one policy.
    refused(
        "policies",
        &["tournament", "tag", "--policies", "stay,stay(bid=2)"],
        "is listed twice",
    );
    refused(
        "sets",
        &["analyze", "loot", "items", "--sets", "medic,medic"],
        "--sets: `medic` is listed twice",
    );
}

#[test]
fn a_parameter_given_twice_is_refused() {
    refused(
        "param-tag",
        &[
            "tournament",
            "tag",
            "--policies",
            "flee(margin=1, margin=2),stay",
        ],
        "`margin` is given twice",
    );
}

#[test]
fn counts_and_threads_are_checked_before_any_work_naming_their_own_flag() {
    refused(
        "games",
        &["tournament", "loot", "--games", "0"],
        "--games 0: give between 1",
    );
    refused(
        "max-battles",
        &["analyze", "rumble", "powers", "--max-battles", "0"],
        "--max-battles 0",
    );
    refused(
        "threads",
        &["analyze", "loot", "items", "--threads", "1025"],
        "--threads 1025: give between 1 and 1024",
    );
    let o = skirmish(&["bench", "--threads", "1025"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "bench measured before refusing");
}
