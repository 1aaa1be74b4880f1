"""Makes minions.toml (the shipped minion catalogue) and modifiers.toml (the stat-changing
spells) from minions.csv and modifiers.csv.

    python3 experiments/minion-combat/from_csv.py docs/rules/notes experiments/minion-combat

Keeps every row's numbers as printed, marks inferred ones (`inferred`), and keeps the data's
attribution in the file's header. Rows naming the same minion twice (the heroes Oro and Vlad
Hrothgar appear on two cards each, with equal stats) are kept once.
"""
import csv
import sys
from pathlib import Path

HEADER = """# Minion catalogue for the Minion Combat Pipeline (seed 003, Sanctum). One [[minion]] per minion
# type a card creates, made from minions.csv by experiments/minion-combat/from_csv.py.
#
# Source and licence (keep this attribution wherever the data ships): stat blocks, names and
# keywords from open-sanctum/sanctum-cards, data/cards.json at commit
# 081cafffc565c16a3f118322712c167d5a590161 ("sanctum-cards contributors,
# https://github.com/open-sanctum/sanctum-cards", derived data CC-BY 4.0). The original Sanctum
# content (card names, stat blocks) remains the copyright of its authors (Digital Addiction and
# successors such as NIOGA) and is not relicensed. `tags` are the compilers' own short labels.
#
# Fields: name; card and card_id (the card that creates it); kind (monster, recruit, recruit_form:
# a Spirit alteration's form, with no HP of its own); class (swordsman, archer); nation; hand and
# missile (damage per hit; absent: no such attack); attacks (per round; 0 = non-combatant); armor
# (max); hp (max; absent where the card prints *); level; count (how many the card creates, "2-8"
# = 1d7+1); flight (the Flight keyword); tags (combat effects, MC-40 lists which are played);
# inferred (which numbers are a reading, not printed: see experiments/minion-combat/README.md).
"""


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


MOD_HEADER = """# Stat-changing spells for the Minion Combat Pipeline (seed 003, Sanctum): one [[modifier]] per
# card, made from modifiers.csv by experiments/minion-combat/from_csv.py. A group file applies one
# to a minion by name: "Keeper swordsman + Veteran".
#
# Source and licence (keep this attribution wherever the data ships): card names and numbers from
# open-sanctum/sanctum-cards, data/cards.json at commit 081cafffc565c16a3f118322712c167d5a590161
# ("sanctum-cards contributors, https://github.com/open-sanctum/sanctum-cards", derived data
# CC-BY 4.0). The original Sanctum content remains the copyright of its authors (Digital Addiction
# and successors such as NIOGA) and is not relicensed.
#
# Fields: name; card_id; applies_to (who may take it); hand, missile, armor, max_hp, level,
# attacks (changes); stackable; condition (when it holds: empty = always; MC-25 says which
# conditions a combat plays); other (side effects, in words, not played).
"""


# Alterations with no plain numbers, so not in modifiers.csv: named here so a group file can
# cast them; effects.toml plays them (MC-41).
TRIGGERED = '''
# Alterations whose whole effect is triggered (not in modifiers.csv): effects.toml plays them.

[[modifier]]
name = "Karillian Arrows"
card_id = 410
applies_to = "archer"
other = "damaged opponents get Karillian Venom (1 damage each round start, cumulative)"

[[modifier]]
name = "Fae Gift"
card_id = 867
applies_to = "swordsman"
other = "becomes an Elf; its attacks heal instead of damaging"

[[modifier]]
name = "Dragon Slayer"
applies_to = "recruit"
other = "instantly kills a monster it damages"'''


def modifiers(path):
    out = [MOD_HEADER]
    for r in csv.DictReader(open(path, newline="")):
        out.append("\n[[modifier]]")
        out.append(f"name = {q(r['card_name'])}")
        if r["card_id"]:
            out.append(f"card_id = {int(r['card_id'])}")
        out.append(f"applies_to = {q(r['applies_to'])}")
        for col, key in [("hand", "hand"), ("missile", "missile"), ("armor", "armor"),
                         ("max_hp", "max_hp"), ("level", "level"), ("attacks_per_round", "attacks")]:
            if r[col] not in ("", "0"):
                out.append(f"{key} = {int(r[col])}")
        if r["stackable"] == "yes":
            out.append("stackable = true")
        if r["condition"]:
            out.append(f"condition = {q(r['condition'])}")
        if r["other"]:
            out.append(f"other = {q(r['other'])}")
    out.append(TRIGGERED)
    return "\n".join(out) + "\n"


def minions(path):
    out = [HEADER]
    seen = set()
    for r in csv.DictReader(open(path, newline="")):
        name = r["minion_name"]
        if name in seen:
            continue
        seen.add(name)
        out.append("\n[[minion]]")
        out.append(f"name = {q(name)}")
        out.append(f"card = {q(r['card_name'])}")
        if r["card_id"]:
            out.append(f"card_id = {int(r['card_id'])}")
        out.append(f"kind = {q(r['kind'])}")
        if r["recruit_class"]:
            out.append(f"class = {q(r['recruit_class'])}")
        if r["nation"]:
            out.append(f"nation = {q(r['nation'])}")
        for col, key in [("hand_damage", "hand"), ("missile_damage", "missile"),
                         ("attacks_per_round", "attacks"), ("armor", "armor"), ("hp", "hp"),
                         ("level", "level")]:
            if r[col] != "":
                out.append(f"{key} = {int(r[col])}")
        out.append(f"count = {q(r['count'])}")
        if "Flight" in r["movement_keywords"].split(";"):
            out.append("flight = true")
        tags = [t for t in r["combat_tags"].split(";") if t]
        out.append("tags = [" + ", ".join(q(t) for t in tags) + "]")
        if r["inferred"]:
            out.append(f"inferred = {q(r['inferred'])}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    src, dst = Path(sys.argv[1]), Path(sys.argv[2])
    (dst / "minions.toml").write_text(minions(src / "minions.csv"))
    (dst / "modifiers.toml").write_text(modifiers(src / "modifiers.csv"))
