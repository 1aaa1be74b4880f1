#!/usr/bin/env bash
# README's two commands as a newcomer runs them, timed (issue 52): a fresh clone of this
# repository into a scratch folder with an empty target folder, then
#   1. the first build (what `cargo run --release` compiles before the main job starts),
#   2. the main job (`cargo run --release -- simulate rumble`, nothing left to compile), five
#      times, the median reported,
#   3. the test command's compile (`cargo test --release --no-run`), counting the crates it
#      compiles that the first build had compiled already (0: it reuses them all),
#   4. the test command itself.
# Writes result.json (the result model) into --out DIR; `skirmish reproduce first-run` runs it
# and compares only what does not depend on the machine. Crates come from cargo's local cache
# (a machine that has never fetched them also spends the download). Takes 20 minutes or more.
set -euo pipefail

out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --quiet) shift ;;
    *) echo "first-run.sh: unknown argument $1 (takes --out DIR)" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { echo "first-run.sh: --out DIR is required" >&2; exit 2; }

repo=$(git rev-parse --show-toplevel)
commit=$(git -C "$repo" rev-parse --short HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/skirmish"
cd "$work/skirmish"
export CARGO_TARGET_DIR="$work/target"

now() { date +%s.%N; }
t0=$(now)
cargo build --release 2> "$work/build.log"
t1=$(now)
# The main job five times (its folder removed each time: a second run would only resume the
# finished one); the median is reported, as single runs on a shared machine
# move more than the differences measured.
: > "$work/main.times"
for _ in 1 2 3 4 5; do
  rm -rf runs/rumble-ffa
  m0=$(now)
  cargo run --release -- simulate rumble --quiet > "$work/main.log" 2>&1
  m1=$(now)
  python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$m0" "$m1" >> "$work/main.times"
done
main_median=$(python3 -c "import statistics, sys; print(statistics.median(float(l) for l in open(sys.argv[1])))" "$work/main.times")
t2=$(now)
cargo test --release --no-run 2> "$work/test-build.log"
t3=$(now)
cargo test --release > "$work/test.log" 2>&1
t4=$(now)

# Crates (name and version) compiled by each step.
compiled() { sed -n 's/^ *Compiling \([^ ]*\) \(v[^ ]*\).*/\1 \2/p' "$1" | sort -u; }
compiled "$work/build.log" > "$work/first.txt"
compiled "$work/test-build.log" > "$work/second.txt"
twice=$(comm -12 "$work/first.txt" "$work/second.txt" | grep -vc '^skirmish ' || true)
first_n=$(wc -l < "$work/first.txt")
second_n=$(wc -l < "$work/second.txt")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
cores=$(nproc)

mkdir -p "$out"
python3 - "$out/result.json" "$t0" "$t1" "$main_median" "$t3" "$t4" "$twice" "$first_n" "$second_n" \
  "${cpu:-unknown}" "$cores" "$commit" "$t2" <<'EOF'
import json, sys
path, t0, t1, main, t3, t4, twice, first_n, second_n, cpu, cores, commit, t2 = sys.argv[1:]
t0, t1, main, t2, t3, t4 = map(float, (t0, t1, main, t2, t3, t4))
twice, first_n, second_n, cores = int(twice), int(first_n), int(second_n), int(cores)
build, test_build, test_run = t1 - t0, t3 - t2, t4 - t3
def est(label, v, lo=None, hi=None, count=1):
    return {"label": label, "value": v, "lo": v if lo is None else lo,
            "hi": v if hi is None else hi, "count": count}
share = test_build / build
answer = {
  "title": f"first run: README's two commands on a fresh clone, {cpu}",
  "provenance": {
    "command": "bash experiments/first-run.sh", "source": "first-run", "version": "0.1.0",
    "seed": 0, "matches": 0, "played": 0,
    "settings": {"machine": cpu, "cores": cores, "commit": commit}, "inputs": {}},
  "totals": [["machine", f"{cpu}, {cores} cores"], ["commit", commit]],
  "sections": [
    {"title": "crates the test command compiles again",
     "meaning": "crates of the first build compiled again by `cargo test --release` (the project's own aside): 0 means the second command reuses the first's build; compared exactly",
     "unit": "number", "estimates": [est("crates compiled twice", twice, count=first_n)]},
    {"title": "the test command's compile against the first build",
     "meaning": "seconds of `cargo test --release --no-run` after the first build, over the first build's seconds, on the same machine; the band is what reproduce accepts (1.5x either way)",
     "unit": "number", "estimates": [est("test compile / first build", share, share / 1.5, share * 1.5, second_n)]},
    {"title": "seconds on this machine",
     "meaning": "wall-clock seconds of each step on the machine named above; never compared",
     "unit": "number", "estimates": [est("first build", build), est("main job", main),
                                     est("test command: compile", test_build),
                                     est("test command: run", test_run)]},
  ],
  "tables": [],
  "notes": [
    f"measured on {cpu}, {cores} cores, commit {commit}, crates already in cargo's cache",
    f"first build (`cargo build --release`, {first_n} crates): {build / 60:.1f} minutes",
    f"main job (`cargo run --release -- simulate rumble`, 1,000,000 battles): {main:.1f} s (median of 5 runs)",
    f"test command (`cargo test --release`): {test_build / 60:.1f} minutes to compile ({second_n} crates: the project and its dev-dependencies; {twice} of the first build's crates compiled again), {test_run / 60:.1f} minutes to run",
  ],
}
json.dump(answer, open(path, "w"), indent=2)
EOF
echo "first-run: build ${t0}..${t1}, wrote $out/result.json"
