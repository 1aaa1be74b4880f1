//! README's two commands share one build (issue 52): `cargo run --release` builds the
//! dependencies without dev-dependencies, `cargo test --release` with them. Any crate whose
//! features differ between the two is compiled twice, and with it everything above it (a
//! dev-dependency turning on `either/use_std` once rebuilt rayon and all of polars). This pins
//! that every crate of the main job's build resolves to the same features in the test build.

use std::collections::BTreeMap;
use std::process::Command;

/// `name version` -> features, for every package cargo resolves with the given edge kinds.
fn resolved(edges: &str) -> BTreeMap<String, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "--prefix",
            "none",
            "--no-dedupe",
            "-e",
            edges,
        ])
        .args(["-f", "{p}|{f}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| {
            let (package, features) = line.trim_end_matches(" (*)").split_once('|')?;
            // `skirmish v0.1.0 (/path)`: the path differs between clones, the name does not.
            let package = package.split(" (").next().unwrap().to_string();
            Some((package, features.to_string()))
        })
        .collect()
}

#[test]
fn the_test_command_reuses_every_crate_the_main_job_built() {
    let main_job = resolved("normal,build");
    let tests = resolved("normal,build,dev");
    let rebuilt: Vec<String> = main_job
        .iter()
        .filter_map(|(package, features)| match tests.get(package) {
            Some(other) if other != features => Some(format!(
                "{package}: [{features}] in the main job, [{other}] in tests"
            )),
            _ => None,
        })
        .collect();
    assert!(
        rebuilt.is_empty(),
        "these crates would be compiled twice (name the features in [dependencies]):\n{}",
        rebuilt.join("\n")
    );
    assert!(
        main_job.keys().any(|p| p.starts_with("polars ")),
        "the main job builds polars"
    );
}
