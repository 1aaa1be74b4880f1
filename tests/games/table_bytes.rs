//! Issue 50: the tables the conformance suite's datasets do not cover keep their bytes while the
//! code that builds them changes (tables declared once, `platform::table`): the Loot royale's
//! and the Auto Rumble tournament's part files, by SHA-256, against
//! `tests/golden/more.tables.sha256` (`UPDATE_GOLDEN=1` rewrites it, only for a change meant to
//! move the bytes).

use crate::common;

use common::{skirmish, table_files, tmp};

#[test]
fn the_royale_and_rumble_tournament_tables_keep_their_bytes() {
    let runs: [(&str, &[&str], &[&str]); 2] = [
        (
            "loot-royale",
            &[
                "tournament",
                "loot",
                "--games",
                "300",
                "--chunk-size",
                "100",
            ],
            &["games", "players", "rounds", "battles"],
        ),
        (
            "rumble-tournament",
            &[
                "tournament",
                "rumble",
                "--strategies",
                "random,hoarder,sniper",
                "--games",
                "60",
                "--chunk-size",
                "20",
                "--value-precision",
                "8",
            ],
            &["games", "players", "rounds"],
        ),
    ];
    let mut digests = String::new();
    for (name, args, tables) in runs {
        let out = tmp("table-bytes", name);
        let mut all = args.to_vec();
        all.extend(["--quiet", "--threads", "2", "--out", out.to_str().unwrap()]);
        let o = skirmish(&all);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        for (file, bytes) in table_files(&out, tables) {
            digests.push_str(&format!(
                "{name}/{file} {}\n",
                skirmish::platform::digest::sha256_hex(&bytes)
            ));
        }
    }
    common::assert_golden(
        "tests/golden/more.tables.sha256",
        &digests,
        "the tables' bytes",
    );
}
