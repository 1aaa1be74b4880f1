"""Battles per second of each power beside Amoeba and Titanium Skin (issue 81), one thread.

    python3 experiments/auto-rumble/power_speed.py [SKIRMISH] [POWER-FILE]

For every drawable power of the file (Amoeba and Titanium Skin aside), runs
`skirmish simulate rumble --power-file FILE --catalogue P --catalogue Amoeba --catalogue 'Titanium Skin'
--powers 2 --threads 1`, from 1,000 matches up until the run takes a second or more, and prints the
rate the run's own summary gives (its count over its clock). A run past two minutes is reported as
such. Battle costs are heavy-tailed (a few battles fill the table), so rates are comparable only
at the same match count.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/skirmish"
power_file = sys.argv[2] if len(sys.argv) > 2 else "experiments/powers/archive.toml"
listed = subprocess.run([binary, "powers", "list", power_file], capture_output=True, text=True, check=True)
names = [l[:32].strip() for l in listed.stdout.splitlines()[2:]]
out = tempfile.mkdtemp()


def rate(power, n):
    shutil.rmtree(out, ignore_errors=True)
    start = time.time()
    r = subprocess.run(
        [binary, "simulate", "rumble", "--power-file", power_file, "--catalogue", power,
         "--catalogue", "Amoeba", "--catalogue", "Titanium Skin", "--powers", "2",
         "--matches", str(n), "--threads", "1", "--out", out],
        capture_output=True, text=True, timeout=120)
    m = re.search(r"played in [\d.]+ s: ([\d,]+) matches/s", r.stdout)
    return (float(m.group(1).replace(",", "")) if m else None), time.time() - start


for p in names:
    if p in ("Amoeba", "Titanium Skin"):
        continue
    n = 1000
    try:
        while True:
            r, took = rate(p, n)
            if r is None or took >= 1.0 or n >= 2_000_000:
                break
            n = int(n * min(100, max(2, 1.5 / max(took, 0.01))))
        print(f"{p:32s} {'(not drawable)' if r is None else f'{r:>10,.0f} /s'}  ({n} matches)", flush=True)
    except subprocess.TimeoutExpired:
        print(f"{p:32s} past 120 s at {n} matches", flush=True)
shutil.rmtree(out, ignore_errors=True)
