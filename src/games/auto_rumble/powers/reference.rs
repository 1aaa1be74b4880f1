//! The power-file format's full reference, generated from the tables the loader itself uses
//! (triggers, targets, effects, quantities, limits), so it cannot drift from what a file may say.
//! `skirmish rumble reference` prints it; `docs/power-files.md` is the same text (a test holds
//! them equal).

use std::fmt::Write;

use crate::games::auto_rumble::powers::expr::QUANTITY_NAMES;
use crate::games::auto_rumble::powers::file::{EFFECT_NAMES, TARGET_NAMES, WHEN_NAMES};
use crate::games::auto_rumble::powers::limits;

/// One effect as a file writes it: its syntax, what it does, and where it may stand.
pub struct EffectDoc {
    pub syntax: &'static str,
    pub meaning: &'static str,
    pub allowed: &'static str,
}

const ANY: &str = "any clause but `passive`";

/// What values mean at their edges and when they are read (issue 49): each line is what both
/// paths and the reference do, pinned by the tests the rules entries cite.
const READINGS: &str = "## What a value means at its edges

- **When a passive value is read.** `attack_bonus`, `first_hit_bonus`, `deal_percent`,
  `take_percent` and the conditions of a `passive` clause are read once a round, when the round's
  plan is made (AR-25, AR-33, AR-59), with that plan's `powers_used` and `planned`; `no_attack`
  and `attack_cost` just before it. Before a hero's first plan (its battle-start clauses and
  their hits) its percentages are 100 and it has no cap on Energy lost, unless the clause is
  marked `from_start = true` (AR-70).
- **Several `vulnerable`.** Each multiplies the round's factor (2 and 3 make 6); the product
  saturates at 2,147,483,647, and so does every hit it makes. The factor is 1 again at the next
  round's start.
- **A killing hit.** A hit that takes a hero's last Energy fires no `damaged` clause of that hero
  (it has left); its `death` clauses fire, and in them `hit.damage` is the Energy the killing hit
  took and `damage_taken` is the round's total, that hit included. The attacker's `dealt_damage`
  and `kill` clauses fire.
- **Gains.** Energy gained never lowers `damage_taken`: it counts Energy lost to hits this round.
- **Values below 0** (from an expression; a negative number written where it cannot mean anything
  is refused when the file loads):
  `add_energy` below 0 is an Energy loss nothing absorbs (AR-29); `lose_energy`, `lose_defence`,
  `reduce_hit` and a Burn or Spend below 0 do nothing (AR-24); `add_defence` and `add_prevention`
  below 0 lower the pool, never below 0; `damage` at 0 or below makes no hit (AR-29);
  `set_energy` at 0 or below eliminates; `revive` brings the hero back with at least 1; `tax` below
  0 does nothing (the largest tax counts, AR-31); `ward` below 0 is no ward; `dodge` below 1
  dodges nothing; `vulnerable`, `deal_percent` and `take_percent` below 0 count as 0: the hits
  they scale are prevented whole; `copy_self = V` and a summon's Energy at 0 or below make no
  hero, a summon's attack below 0 hits for 0; `attack_bonus` below 0 lowers each hit, never
  below 0 (AR-2); `attack_cost` may lower the attack's Spend, never below 0 (AR-59).

";
/// Where a passive-only effect may stand: also how tools tell those effects apart.
pub const PASSIVE: &str = "`passive` clauses only";

/// The reference row of effect `name` (one of [`EFFECT_NAMES`]).
pub fn effect(name: &str) -> Option<EffectDoc> {
    let d = |syntax, meaning, allowed| {
        Some(EffectDoc {
            syntax,
            meaning,
            allowed,
        })
    };
    match name {
        "add_energy" => d(
            "{ add_energy = V }",
            "the target gains V Energy; a negative V is an Energy loss nothing absorbs (AR-29)",
            ANY,
        ),
        "lose_energy" => d(
            "{ lose_energy = V }",
            "the target loses V Energy: an inflicted Burn, through no Defence, ward or prevention (AR-29)",
            ANY,
        ),
        "set_energy" => d(
            "{ set_energy = V }",
            "the target's Energy becomes V; a drop is an Energy loss nothing absorbs",
            ANY,
        ),
        "add_defence" => d(
            "{ add_defence = V }",
            "the target gains V Defence (this round's pool, emptied at the next round's start, AR-4)",
            ANY,
        ),
        "lose_defence" => d(
            "{ lose_defence = V }",
            "the target loses V Defence (not below 0)",
            ANY,
        ),
        "add_prevention" => d(
            "{ add_prevention = V }",
            "the target gains a battle-long budget that absorbs damage after Defence (AR-12)",
            ANY,
        ),
        "damage" => d(
            "{ damage = V, ignore_defence = true, unpreventable = true, as_attack = true }",
            "a hit of V on the target: the round's `vulnerable`, then Defence, prevention, Energy; not an attack (no `attacked` / `hit`, no dodge or ward). `ignore_defence` skips Defence; `unpreventable` skips Defence and prevention (AR-29). `as_attack`: the hit is an attack hit of the holder, so the target's dodge, ward and `attacked` clauses, the holder's `hit` clauses and its `after_defence_percent` / `execute_undefended` apply, and it counts in `hits_taken_last_round`; attack bonuses do not (AR-58)",
            ANY,
        ),
        "attack_bonus" => d(
            "{ attack_bonus = V }",
            "each hit of the holder's attack deals V more (AR-9)",
            PASSIVE,
        ),
        "first_hit_bonus" => d(
            "{ first_hit_bonus = V }",
            "the first hit of the holder's attack each round deals V more",
            PASSIVE,
        ),
        "counter" => d(
            "{ counter = \"X\", add = V } (or multiply, set)",
            "changes the holder's counter X, declared in `counters` (AR-53)",
            "any clause but `passive`; acts on the holder only",
        ),
        "copy_self" => d(
            "\"copy_self\", or { copy_self = V }",
            "a full copy of the target joins its team right after it when the phase ends (AR-11), within capacity (AR-15); with V, the copy's Energy is V",
            ANY,
        ),
        "summon" => d(
            "{ summon = \"Name\", energy = V, attack = V, powers = [\"...\"], hostile = false, neutral = false }",
            "a new hero on the holder's team, after it when the phase ends, with that Energy (none at 0 or below), that damage per hit (no `attack`: it never attacks) and those powers from the same file; `hostile = true`: it attacks only its summoner's team (AR-36, AR-42); `neutral = true`: it joins the neutral side, which fights every team (AR-60)",
            "any clause but `passive`; acts on the holder only",
        ),
        "eliminate" => d(
            "\"eliminate\"",
            "the target leaves the battle at once, unpreventably",
            ANY,
        ),
        "win" => d(
            "\"win\"",
            "the holder's team wins the battle at once (AR-30)",
            "any clause but `passive`; acts on the holder only",
        ),
        "tax" => d(
            "{ tax = V }",
            "the target's budget next round is V smaller; taxes do not stack, the largest counts (AR-31)",
            ANY,
        ),
        "revive" => d(
            "{ revive = V }",
            "the holder comes back at once with V Energy (at least 1): it never left (AR-27)",
            "`death` clauses only",
        ),
        "dodge" => d(
            "{ dodge = n }",
            "this round, attack hits 1, 1 + n, 1 + 2n, ... against the target are prevented whole (AR-35)",
            ANY,
        ),
        "vulnerable" => d(
            "{ vulnerable = V }",
            "this round, every hit on the target is multiplied by V before Defence",
            ANY,
        ),
        "lock" => d(
            "{ lock = 1 }",
            "next round, the target's `use`, triggered and reaction clauses do not act; passive ones do (AR-32). The value is not read",
            ANY,
        ),
        "defence_spend_burns" => d(
            "{ defence_spend_burns = 1 }",
            "this round the holder's `use` clauses that add Defence pay their Spend as a Burn (AR-37). The value is not read",
            PASSIVE,
        ),
        "reduce_hit" => d(
            "{ reduce_hit = V }",
            "the attack hit being resolved is reduced by V before Defence (AR-38)",
            "`attacked` clauses only",
        ),
        "cap_hit" => d(
            "{ cap_hit = V }",
            "the attack hit being resolved is at most V before ward and Defence; what it takes off counts in `negated` (AR-57)",
            "`attacked` clauses only",
        ),
        "attack_only" => d(
            "{ attack_only = \"<rule>\" }",
            "the holder's attack hits only the one opponent the rule picks as the attack starts (AR-39)",
            PASSIVE,
        ),
        "everyone_attacks_only" => d(
            "{ everyone_attacks_only = \"<rule>\" }",
            "while it holds, every hero's attack hits only the one hero the rule picks for that hero (AR-39)",
            PASSIVE,
        ),
        "no_attack" => d(
            "{ no_attack = 1 }",
            "the holder's attack is left out of this round's plan: no cost, no hits (AR-40). The value is not read",
            PASSIVE,
        ),
        "ward" => d(
            "{ ward = V }",
            "the target is warded for V this round: the ward absorbs attack hits before Defence and what it absorbs becomes the holder's Energy; a new ward replaces the last (AR-41)",
            ANY,
        ),
        "after_defence_percent" => d(
            "{ after_defence_percent = V }",
            "what Defence lets through of each of the holder's attack hits is multiplied by V / 100, rounded up, before prevention (AR-40)",
            PASSIVE,
        ),
        "deal_percent" => d(
            "{ deal_percent = V }",
            "every hit the holder deals (its attack's hits with their bonuses, its `damage` effects) is multiplied by V / 100 as it arrives, with `vulnerable` and the target's `take_percent`, the product rounded up once; several multiply. Read when the round's plan is made; before the hero's first plan, 100 (AR-59)",
            PASSIVE,
        ),
        "take_percent" => d(
            "{ take_percent = V }",
            "every hit the holder takes (attacks' and effects', not Burns) is multiplied by V / 100 as it arrives, as `deal_percent` (AR-59)",
            PASSIVE,
        ),
        "attack_cost" => d(
            "{ attack_cost = V }",
            "the holder's attack Spends V more this round (a negative V less; never below 0); several add up. Read before the plan is made, like `no_attack` (AR-59)",
            PASSIVE,
        ),
        "give" => d(
            "{ give = \"Power\" }",
            "the target holds that power of the file (usually a `helper`) from now on, until it leaves, even after the giver is gone: its clauses fire as the target's own, at the giving power's strength (`other_strength` 0), its counters start on the target, its `use` clause goes last in the target's use order, its `passive` effects count from the target's next plan; nothing when the target holds it already or it would not fit a hero; copies keep it. The power given may not hold `coins` (AR-62)",
            ANY,
        ),
        "remove_power" => d(
            "{ remove_power = \"Power\" } or { remove_power = \"all\" }",
            "the target stops holding that power of the file (its own or one given to it), or every power it holds, for good: its clauses fire no more from now on, its `use` clause is skipped even if already planned this round, its `passive` effects last until the target's next plan; nothing when the target does not hold it. A removed power is not held again: giving it later does nothing, and it still counts toward what a hero holds. Copies made later do not hold it (AR-69)",
            ANY,
        ),
        "round_loss_cap" => d(
            "{ round_loss_cap = V }",
            "each round the holder loses at most V Energy to hits (attacks', effects' and reactions', unpreventable ones too), counted after Defence and prevention; what goes beyond is held off. Burns and other Energy losses are not hits: neither capped nor counted. Several: the smallest counts; not switched off by a lock. Read when the round's plan is made (AR-67)",
            PASSIVE,
        ),
        "execute_undefended" => d(
            "{ execute_undefended = 1 }",
            "an attack hit of the holder on a hero with no Defence when it arrives eliminates it (AR-40). The value is not read",
            PASSIVE,
        ),
        "coins" => d(
            "{ coins = V }",
            "the holder counts as having V more unspent coins (Energy, initiative, attack), settled before the battle; V reads only `strength` and `other_strength`, no `if` (AR-43)",
            PASSIVE,
        ),
        _ => None,
    }
}

/// What each trigger's `other` is, where it has one.
fn other_of(name: &str) -> &'static str {
    match name {
        "attacked" => "the attacker",
        "damaged" => "the hero whose hit took the Energy",
        "hit" => "the hero hit",
        "dealt_damage" => "the hero whose Energy it took",
        "kill" => "the hero eliminated",
        "opponent_eliminated" => "the opponent eliminated",
        "death" => "the hero whose hit or effect eliminated it (none after a Burn)",
        _ => "none",
    }
}

/// The whole reference, Markdown.
pub fn text() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Power files: the reference\n\n\
Generated from the loader's own tables by `skirmish rumble reference` (this file is its output; a\n\
test holds them equal). The guide with a worked example is `docs/auto-rumble.md`, \"Powers as\n\
data\"; the rule questions are settled in `docs/rules/auto-rumble.md` (AR-23 onwards, cited below).\n\
`skirmish rumble check FILE` prints a file back in words, with each quantity's meaning beside it.\n"
    );
    s.push_str(
        "## A file\n\n\
| field | meaning |\n| --- | --- |\n\
| `include = [\"other.toml\"]` | files whose powers come first (paths relative to this file; each once) |\n\
| `[[power]]` | one power; a file holds at least one (or includes some) |\n\n\
## A power\n\n\
| field | meaning |\n| --- | --- |\n\
| `name` | unique in the file and its includes, ignoring case and punctuation; not `Attack` |\n\
| `source` | where it comes from (a game, a thread, a player) |\n\
| `text` | the power's own words |\n\
| `interpretation` | only where the file departs from `text`: the reading used (reports show it as *adapted*) |\n\
| `helper = true` | held only by heroes other powers summon: never drawn, offered or valued (AR-55) |\n\
| `counters = { X = 1 }` | numbers the holder keeps, with their starting values; copies inherit them (AR-34, AR-53) |\n\
| `[[power.clause]]` | its clauses, at most one of them `use` (AR-17); a power with none, or a clause with no effect, is accepted and does nothing in a battle |\n\n\
## A clause\n\n\
| field | meaning |\n| --- | --- |\n\
| `when` | the trigger (below) |\n\
| `if` | a condition or a list, all must hold: `\"energy > 5\"`; read when the clause would fire (a `use` or `passive` clause: when the round's plan is made, AR-33). `target.*` here only with `target = \"other\"` (AR-25) |\n\
| `cost` | `{ spend = V, burn = V }`: only `use` clauses Spend (from the round's budget, AR-3, AR-24); others may Burn, paid when they fire if the holder can pay and live (AR-38); none on `passive` or `death` |\n\
| `target` | who the effects act on (below; default `self`) |\n\
| `limit` | `once_per_round` or `once_per_game`, per hero (AR-34); in a reaction, `once_per_hero_per_round`: at most once a round for each other hero it reacts to (AR-68) |\n\
| `from_start = true` | a `passive` clause also read as the battle starts, before the battle-start clauses, so its effects (`take_percent`, `round_loss_cap`...) hold before the holder's first plan; from then on read at each plan as usual (AR-70) |\n\
| `rounding` | `up` (default: divisions round away from zero) or `down` (towards zero) (AR-23) |\n\
| `effects` | a list (below); an effect may add `to = \"<target>\"` (it acts there instead; `target.*` still reads the clause's target, AR-26) and its own `if`: one condition (a list is refused), read when its turn comes, after the effects before it, for each hero it acts on in turn. Without `to`, `target.*` in an effect's `if` and value reads the hero it acts on, so a many-hero target may read it: `{ damage = 5, if = \"target.energy > 50\" }` under `all_opponents` hits each opponent above 50 Energy |\n\n",
    );
    s.push_str("## Triggers (`when`)\n\n| when | fires | `other` |\n| --- | --- | --- |\n");
    for (name, w) in WHEN_NAMES {
        let _ = writeln!(s, "| `{name}` | {} | {} |", w.describe(), other_of(name));
    }
    s.push_str(
        "\nReactions (`attacked` to `death`) fire at once, inside the hit (AR-27); what a reaction does\n\
triggers no further reaction, and a hero its effect eliminates leaves quietly (AR-52).\n\n",
    );
    s.push_str("## Targets (`target`, `to`)\n\n| target | who |\n| --- | --- |\n");
    for (name, t) in TARGET_NAMES {
        let _ = writeln!(s, "| `{name}` | {} |", t.describe());
    }
    s.push_str(
        "\nChosen when each effect applies, among heroes alive then, in initiative order; ties go to\n\
the earlier hero; no hero to target: the effect does nothing (AR-26).\n\n",
    );
    s.push_str("## Effects\n\n| effect | does | where |\n| --- | --- | --- |\n");
    for name in EFFECT_NAMES {
        let e = effect(name).expect("every effect has a reference row (tested)");
        let _ = writeln!(s, "| `{}` | {} | {} |", e.syntax, e.meaning, e.allowed);
    }
    s.push_str(
        "\nEffects on the holder in a `death` clause: only `revive`, `summon`, `win` and counters (AR-54).\n\n",
    );
    s.push_str(
        "## Values and quantities\n\n\
A value `V` is a whole number or a string: `\"10 * heroes_alive\"`, `\"energy / 2 + 5\"`,\n\
`\"7 * round - 21\"`, `\"round % 3\"`, `\"max(strength, 10)\"`, `\"min(energy, 50)\"`. It is\n\
`base + terms`, each term `n * quantity / d`, optionally `% m` (never negative), the whole\n\
optionally clamped by `max(..., n)` / `min(..., n)`; arithmetic is 64-bit, the result saturates\n\
into 32 bits (AR-23). A group in parentheses may be multiplied, `\"2 * (energy + 5)\"`, and is\n\
multiplied out exactly; dividing a group, or a group holding a division or `%`, is refused (each\n\
term's division rounds on its own: write `\"energy / 2 + defence / 2\"`). A condition compares two values with `>`, `>=`, `<`, `<=`, `==`, `!=`.\n\
Values are read when the effect applies (costs when paid). \"Holder\" is the hero holding the\n\
power; \"target\" is the hero the effect acts on.\n\n\
| quantity | counts |\n| --- | --- |\n",
    );
    for (name, q) in QUANTITY_NAMES {
        let _ = writeln!(s, "| `{name}` | {} |", q.meaning());
    }
    s.push_str("| a counter's name | the holder's counter now (AR-53) |\n\n");
    s.push_str(READINGS);
    s.push_str("## Limits\n\n| limit | at most | checked |\n| --- | --- | --- |\n");
    for (name, v, when) in limits::table() {
        let _ = writeln!(s, "| {name} | {v} | {when} |");
    }
    s.push_str(
        "\nEvery limit is a load-time error with the file, line, field and fix, or a roster-time\n\
error naming the hero; no command panics on a file `skirmish rumble check` accepts.\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_effect_trigger_target_and_quantity_has_a_reference_row() {
        for name in EFFECT_NAMES {
            assert!(
                effect(name).is_some(),
                "no reference row for effect `{name}`"
            );
        }
        let t = text();
        for (name, _) in WHEN_NAMES {
            assert!(t.contains(&format!("| `{name}` |")), "{name}");
        }
        for (name, _) in TARGET_NAMES {
            assert!(t.contains(&format!("| `{name}` |")), "{name}");
        }
        for (name, _) in QUANTITY_NAMES {
            assert!(t.contains(&format!("| `{name}` |")), "{name}");
        }
    }
}
