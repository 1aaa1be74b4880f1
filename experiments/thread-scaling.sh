#!/bin/bash
# Thread scaling of the main dataset commands (docs/history/thread-scaling.md): each workload at
# 1, 2, 4, 8, 16 threads, the rate the run's own summary prints; two passes.
# SKIRMISH: the binary (default target/release/skirmish).
B=${SKIRMISH:-target/release/skirmish}; set -o pipefail
nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core|Socket" 
for pass in 1 2; do
for w in "simulate rumble --matches 4000000" "simulate loot --matches 4000000" "tournament tag --games 400000" "simulate minions --matches 2000000"; do
  for t in 1 2 4 8 16; do
    rm -rf /tmp/sc
    s=$(date +%s.%N)
    line=$($B $w --threads $t --out /tmp/sc --quiet 2>&1 | grep -m1 -E "/s|per second")
    e=$(date +%s.%N)
    echo "pass=$pass | $w | threads=$t | wall=$(awk "BEGIN{print $e - $s}") | $line"
  done
done
done
