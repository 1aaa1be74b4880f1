#!/usr/bin/env bash
# Each notebook's key plot as a PNG under notebooks/figures/ (not committed): fresh datasets made by
# the real binary, then every notebook executed with SKIRMISH_FIGURES=notebooks/figures. README's
# and the guides' figures are not these: they are the report's SVGs, drawn from the recorded
# answers by `skirmish reproduce --write-docs` (docs/figures/*.svg). Usage: bash notebooks/figures.sh [VENV]
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${1:-${SKIRMISH_VENV:-$HOME/.cache/skirmish-venv}}"
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/pip" install --quiet --disable-pip-version-check -r notebooks/requirements.txt
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/skirmish"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
export SKIRMISH_FIGURES="$PWD/notebooks/figures"
mkdir -p "$SKIRMISH_FIGURES"
"$bin" simulate rumble --matches 200000 --seed 42 --out "$data/rumble-ffa" --quiet > /dev/null
SKIRMISH_DATASET="$data/rumble-ffa" "$VENV/bin/python" notebooks/execute.py notebooks/rumble-ffa.ipynb
"$bin" analyze rumble powers --powers experiments/powers/archive.toml --max-battles 2000000 --seed 42 --out "$data/powers" --quiet > /dev/null
SKIRMISH_POWERS="$data/powers" "$VENV/bin/python" notebooks/execute.py notebooks/power-strength.ipynb
"$bin" tournament rumble --powers experiments/powers/archive.toml --values "$data/powers/powers.parquet" --games 4000 --seed 42 --out "$data/tournament" --quiet > /dev/null
SKIRMISH_TOURNAMENT="$data/tournament" "$VENV/bin/python" notebooks/execute.py notebooks/bidding-strategies.ipynb
"$bin" analyze clan-melee challengers --budgets 1000,10000 --melees 100 --seed 42 --out "$data/clan-melee-study" --quiet > /dev/null
SKIRMISH_CLAN_STUDY="$data/clan-melee-study" "$VENV/bin/python" notebooks/execute.py notebooks/clan-melee.ipynb
"$bin" tournament tag --games 40000 --seed 42 --out "$data/tag" --quiet > /dev/null
SKIRMISH_TAG="$data/tag" "$VENV/bin/python" notebooks/execute.py notebooks/elemental-tag.ipynb
"$bin" analyze loot items --seed 42 --out "$data/loot" --quiet > /dev/null
SKIRMISH_LOOT="$data/loot" "$VENV/bin/python" notebooks/execute.py notebooks/loot-arena.ipynb
"$bin" tournament loot --games 20000 --seed 42 --out "$data/loot-royale" --quiet > /dev/null
"$bin" tournament loot --games 20000 --seed 42 --rules experiments/loot-arena/no-shrink.toml --out "$data/loot-royale-no-shrink" --quiet > /dev/null
SKIRMISH_ROYALE="$data/loot-royale" SKIRMISH_ROYALE_NO_SHRINK="$data/loot-royale-no-shrink" "$VENV/bin/python" notebooks/execute.py notebooks/loot-royale.ipynb
"$bin" analyze minions --seed 42 --out "$data/minions" --quiet > /dev/null
SKIRMISH_MINIONS="$data/minions" "$VENV/bin/python" notebooks/execute.py notebooks/minion-combat.ipynb
ls -l docs/figures
