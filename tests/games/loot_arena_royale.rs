//! Loot Arena part 2, the royale: a test per LA-40..LA-51 entry (docs/rules/loot-arena.md), the
//! engine with the reference battle against the engine with the kernel's, and the example's
//! narration.

use std::collections::BTreeMap;

use skirmish::games::loot_arena::input;
use skirmish::games::loot_arena::kernel::battle::Battle;
use skirmish::games::loot_arena::kernel::royale::{End, Fight, Hook, Meeting, Quiet, Royale};
use skirmish::games::loot_arena::reference;
use skirmish::games::loot_arena::rules::{Class, Merge, Ring, Rules, Tier, Twice};
use skirmish::games::loot_arena::state::{Catalogue, Fielded, Gear, MAX_HELD, NO_ITEM, Outcome};
use skirmish::games::loot_arena::strategy::{OUT, Strategy, Worth, cheb};
use skirmish::rng::{keyed_bits, match_seed};

fn seats(specs: &[&str]) -> Vec<Strategy> {
    specs.iter().map(|s| Strategy::parse(s).unwrap()).collect()
}

fn mixed(n: usize) -> Vec<Strategy> {
    let all = [
        "looter",
        "centre",
        "avoider",
        "hunter",
        "wanderer",
        "smart",
        "hunter(field=healer, sets=medic)",
        "wanderer(equip=plain, field=counter, sets=random)",
    ];
    (0..n)
        .map(|k| Strategy::parse(all[k % all.len()]).unwrap())
        .collect()
}

fn rules(extra: &str) -> Rules {
    input::rules::parse("test.toml", &format!("[royale]\n{extra}")).unwrap()
}

/// Everything a game tells its listeners, in order.
#[derive(Default)]
struct Log {
    n: usize,
    rounds: Vec<(u32, u32, Vec<u8>)>,
    shrinks: Vec<(u32, u32, u32, Vec<u8>)>,
    moves: Vec<(u32, Vec<u8>, Vec<u8>)>,
    loot: Vec<(usize, Ring, Option<u16>)>,
    equips: Vec<(usize, Gear)>,
    battles: Vec<(Meeting, Fielded, Outcome)>,
    outs: Vec<(usize, u32)>,
}

impl Hook for Log {
    const ON: bool = true;
    fn round(&mut self, round: u32, side: u32, cell: &[u8]) {
        self.n = cell.len();
        self.rounds.push((round, side, cell.to_vec()));
    }
    fn shrink(&mut self, round: u32, from: u32, to: u32, cell: &[u8]) {
        self.shrinks.push((round, from, to, cell.to_vec()));
    }
    fn moved(&mut self, round: u32, from: &[u8], to: &[u8]) {
        self.moves.push((round, from.to_vec(), to.to_vec()));
    }
    fn looted(&mut self, p: usize, ring: Ring, item: Option<u16>) {
        self.loot.push((p, ring, item));
    }
    fn equipped(&mut self, p: usize, g: &Gear) {
        self.equips.push((p, *g));
    }
    fn battle(&mut self, m: &Meeting, f: &Fielded, o: &Outcome) {
        self.battles.push((*m, *f, *o));
    }
    fn out(&mut self, p: usize, round: u32) {
        self.outs.push((p, round));
    }
}

fn play_logged(
    s: &[Strategy],
    cat: &Catalogue,
    r: &Rules,
    seed: u64,
) -> (skirmish::games::loot_arena::kernel::royale::Report, Log) {
    let mut log = Log::default();
    let mut e = Royale::new();
    let rep = e
        .play(s, cat, r, seed, &mut Battle::new(), &mut log)
        .clone();
    (rep, log)
}

#[test]
fn la_40_players_spawn_on_distinct_cells_of_the_map_their_count_calls_for() {
    let r = Rules::default();
    let cat = input::items::builtin();
    for n in 2..=16 {
        for g in 0..20 {
            let (rep, log) = play_logged(&mixed(n), &cat, &r, match_seed(40, g));
            let want = if n <= 4 {
                2
            } else if n <= 9 {
                3
            } else {
                4
            };
            assert_eq!(rep.start_side, want, "{n} players");
            let mut spawn = rep.spawn[..n].to_vec();
            spawn.sort();
            spawn.dedup();
            assert_eq!(spawn.len(), n, "distinct spawns");
            assert!(spawn.iter().all(|&c| (c as u32) < want * want));
            assert_eq!(log.rounds[0].1, want);
        }
    }
    assert!(
        r.royale
            .check_players(17)
            .unwrap_err()
            .to_string()
            .contains("16 cells")
    );
    assert!(r.royale.check_players(1).is_err());
    // A shrink schedule that leaves too few cells at the start is refused at load.
    let tight = rules("shrink = [[12, 2]]");
    let mut file = String::new();
    for p in 0..10 {
        file.push_str(&format!(
            "[[player]]\nname = \"p{p}\"\nstrategy = \"looter\"\n"
        ));
    }
    let e = input::royale::parse("ten.toml", &file, &tight)
        .unwrap_err()
        .to_string();
    assert!(e.to_string().contains("4 cells"), "{e}");
}

#[test]
fn la_41_the_map_shrinks_at_the_start_of_the_round_after_the_count_drops() {
    let cat = input::items::builtin();
    for (merge, extra) in [(Merge::Random, ""), (Merge::Low, "merge = \"low\"")] {
        let r = rules(extra);
        assert_eq!(r.royale.merge, merge);
        let mut shrinks = 0;
        for g in 0..60 {
            let (_, log) = play_logged(&mixed(16), &cat, &r, match_seed(41, g));
            for (round, side, cell) in &log.rounds {
                let alive = cell.iter().filter(|&&c| c != OUT).count() as u32;
                assert_eq!(*side, r.royale.side_for(alive), "round {round}");
                assert!(cell.iter().all(|&c| c == OUT || (c as u32) < side * side));
            }
            for (round, from, to, cell) in &log.shrinks {
                shrinks += 1;
                // The round's start map: the previous round's cells, each moved to the part of
                // the smaller map holding its old centre.
                let before = &log.moves.iter().rfind(|m| m.0 < *round).unwrap().2;
                for (p, &c) in cell.iter().enumerate() {
                    if c == OUT {
                        continue;
                    }
                    let (ox, oy) = (before[p] as u32 % from, before[p] as u32 / from);
                    let (nx, ny) = (c as u32 % to, c as u32 / to);
                    for (o, n) in [(ox, nx), (oy, ny)] {
                        let centre = (2 * o + 1) * to;
                        // n * 2 * from <= centre <= (n + 1) * 2 * from
                        assert!(n * 2 * from <= centre && centre <= (n + 1) * 2 * from);
                        if merge == Merge::Low && n > 0 && centre == n * 2 * from {
                            panic!("merge = low sends the middle line north/west");
                        }
                    }
                }
            }
        }
        assert!(shrinks > 50, "games shrink ({shrinks})");
    }
}

#[test]
fn la_42_loot_follows_the_ring_odds_and_a_finite_pool_runs_out() {
    let cat = input::items::builtin();
    let r =
        rules("[royale.odds]\ncorner = [1, 0, 0, 0]\nedge = [0, 1, 0, 0]\ncentre = [0, 0, 0, 1]");
    let mut seen = BTreeMap::new();
    for g in 0..30 {
        let (_, log) = play_logged(&mixed(16), &cat, &r, match_seed(42, g));
        for (_, ring, item) in log.loot {
            let tier = cat.items[item.expect("the stand-in has every kind and tier") as usize].tier;
            let want = [Tier::Common, Tier::Uncommon, Tier::Legendary][ring as usize];
            assert_eq!(tier, want, "{ring:?}");
            *seen.entry(ring).or_insert(0) += 1;
        }
    }
    assert_eq!(seen.len(), 3, "every ring looted: {seen:?}");
    // A pool of 2 items: two looters who never meet find 2 items each, ever.
    let r = rules("pool = 2\nmax_rounds = 20\nend_stalled = false");
    let (rep, _) = play_logged(&seats(&["looter", "looter"]), &cat, &r, 7);
    assert_eq!(rep.end, End::Cap);
    assert_eq!(&rep.found[..2], &[2, 2]);
    // Endless pools: three finds a round.
    let r = rules("max_rounds = 20\nend_stalled = false");
    let (rep, _) = play_logged(&seats(&["looter", "looter"]), &cat, &r, 7);
    assert_eq!(&rep.found[..2], &[60, 60]);
}

#[test]
fn la_43_a_move_is_one_step_or_none_and_everyone_moves_at_once() {
    let r = Rules::default();
    let cat = input::items::builtin();
    let mut moved = 0;
    for g in 0..40 {
        let (_, log) = play_logged(&mixed(12), &cat, &r, match_seed(43, g));
        for ((round, from, to), (r2, side, start)) in log.moves.iter().zip(&log.rounds) {
            assert_eq!(round, r2);
            assert_eq!(from, start, "moves start from the round's map");
            for p in 0..from.len() {
                if from[p] == OUT {
                    assert_eq!(to[p], OUT);
                    continue;
                }
                assert!(cheb(from[p], to[p], *side) <= 1);
                moved += (from[p] != to[p]) as usize;
            }
        }
    }
    assert!(moved > 100);
    // `centre` from a corner of the 4x4 steps onto the centre diagonal at once.
    let s = Strategy::parse("centre").unwrap();
    let gear = Gear::fresh([100, 85, 85, 80]);
    let r = Rules::default();
    let cells = [0u8, 15, 3, 12];
    let v = skirmish::games::loot_arena::strategy::View {
        me: 0,
        round: 1,
        side: 4,
        cell: &cells,
        seen: &[-1; 4],
        gear: &gear,
        rules: &r,
    };
    assert_eq!(s.step(&v, 0), 5);
}

#[test]
fn la_44_equipment_fills_the_slots_the_rules_allow_and_keeps_a_small_bag() {
    let r = Rules::default();
    let cat = input::items::builtin();
    let mut worn = 0;
    for g in 0..30 {
        let (_, log) = play_logged(&mixed(16), &cat, &r, match_seed(44, g));
        for (_, gear) in &log.equips {
            assert!(gear.bag_len as u32 <= r.royale.bag);
            for (c, ch) in gear.champs.iter().enumerate() {
                let class = Class::from_index(c as u8);
                if !ch.alive() {
                    assert_eq!(ch.worn(), 0, "the fallen's gear is in the bag");
                    continue;
                }
                let carried = ch.items.iter().filter(|&&i| i != NO_ITEM).count();
                assert!(carried <= r.item_slots as usize);
                assert!(
                    ch.items[r.item_slots as usize..]
                        .iter()
                        .all(|&i| i == NO_ITEM)
                );
                for &i in ch.items.iter().filter(|&&i| i != NO_ITEM) {
                    assert!(cat.items[i as usize].weight.is_none());
                }
                if ch.armor != NO_ITEM {
                    let w = cat.items[ch.armor as usize].weight.expect("armor");
                    assert!(r.class(class).armor & w.bit() != 0, "{class:?} wears {w:?}");
                }
                worn += ch.worn();
            }
        }
    }
    assert!(worn > 1000);
    // Greedy equipment gives a weapon to a class with its affinity, armor to who may wear it.
    let axe = cat.find("Dragonbone Greatsword").unwrap();
    let orb = cat.find("Archmage's Codex").unwrap();
    let plate = cat
        .items
        .iter()
        .position(|i| i.weight.is_some_and(|w| w.bit() == 4))
        .unwrap() as u16;
    let mut g = Gear::fresh([100, 85, 85, 80]);
    for i in [orb, plate, axe] {
        g.stow(i);
    }
    let w = Worth::new(&cat, &r);
    Strategy::parse("looter").unwrap().equip(&mut g, &r, &w);
    assert!(
        g.champs[0].items.contains(&axe),
        "Physical to the Gladiator"
    );
    assert_eq!(
        g.champs[0].armor, plate,
        "Heavy armor only on the Gladiator"
    );
    assert!(g.champs[2].items.contains(&orb), "Magical to the Mage");
    assert_eq!(g.bag_len, 0);
}

/// LA-44's greedy equipment as its words say it, one step at a time: the plain model
/// `Strategy::equip` is held to.
fn equip_by_the_book(greedy: bool, g: &mut Gear, cat: &Catalogue, r: &Rules, w: &Worth) {
    // Everything held: the living champions' gear in class and slot order, then the bag.
    let mut held = Vec::new();
    for c in g.champs.iter_mut().filter(|c| c.alive()) {
        for s in c.items.iter_mut() {
            held.push(*s);
            *s = NO_ITEM;
        }
        held.push(c.armor);
        c.armor = NO_ITEM;
    }
    held.extend_from_slice(g.bag());
    held.retain(|&i| i != NO_ITEM);
    held.truncate(MAX_HELD);
    g.bag_len = 0;
    let living = [0, 1, 2, 3].map(|c| g.champs[c].alive());
    let value = |i: u16| {
        let v = w.of(i, greedy);
        (0..4)
            .filter(|&c| living[c] && v[c] != Worth::NONE)
            .map(|c| v[c])
            .max()
            .unwrap_or(0)
            .clamp(0, 1 << 38)
    };
    // Most valuable first; on a tie the one collected first (a stable sort).
    held.sort_by_key(|&i| std::cmp::Reverse(value(i)));
    let slots = r.item_slots as usize;
    for i in held {
        let Some(item) = cat.get(i) else { continue };
        let armor = item.weight.is_some();
        let v = w.of(i, greedy);
        let mut to: Option<(usize, i64)> = None;
        for c in 0..4 {
            let ch = &g.champs[c];
            let room = if armor {
                ch.armor == NO_ITEM
            } else {
                ch.items[..slots].contains(&NO_ITEM)
            };
            if living[c] && room && v[c] > 0 && to.is_none_or(|(_, t)| v[c] > t) {
                to = Some((c, v[c]));
            }
        }
        match to {
            Some((c, _)) if armor => g.champs[c].armor = i,
            Some((c, _)) => {
                let s = g.champs[c].items[..slots]
                    .iter_mut()
                    .find(|s| **s == NO_ITEM)
                    .unwrap();
                *s = i;
            }
            None if (g.bag_len as u32) < r.royale.bag => g.stow(i),
            None => {}
        }
    }
}

#[test]
fn la_44_equipping_plays_as_its_plain_model_on_random_gear() {
    let cat = input::items::builtin();
    let variants = [
        Rules::default(),
        input::rules::parse("t.toml", "item_slots = 1\n[royale]\nbag = 2").unwrap(),
        input::rules::parse("t.toml", "item_slots = 4\n[royale]\nbag = 0").unwrap(),
    ];
    let equips = [
        Strategy::parse("looter").unwrap(),
        Strategy::parse("looter(equip=plain)").unwrap(),
    ];
    let items = cat.items.len() as u64;
    let mut moved = 0;
    for case in 0..6_000u64 {
        let r = &variants[(case % 3) as usize];
        let w = Worth::new(&cat, r);
        let mut b = 0u64;
        let mut bits = || {
            b += 1;
            keyed_bits(case, b)
        };
        // Half the items from the first eight, so equal items and equal values tie often.
        let item = |bits: u64| {
            if bits.is_multiple_of(3) {
                NO_ITEM
            } else if bits & 4 != 0 {
                ((bits >> 8) % 8) as u16
            } else {
                ((bits >> 8) % items) as u16
            }
        };
        let mut g = Gear::fresh([100, 85, 85, 80]);
        for c in 0..4 {
            if bits() % 4 == 0 {
                g.champs[c].health = 0;
                continue;
            }
            for s in 0..r.item_slots as usize {
                g.champs[c].items[s] = item(bits());
            }
            g.champs[c].armor = item(bits());
        }
        for _ in 0..bits() % 13 {
            let i = item(bits() | 1);
            g.stow(i);
        }
        for (k, s) in equips.iter().enumerate() {
            let (mut fast, mut book) = (g, g);
            s.equip(&mut fast, r, &w);
            equip_by_the_book(k == 0, &mut book, &cat, r, &w);
            assert_eq!(fast, book, "case {case}, {}", s.spec());
            moved += (fast != g) as u32;
        }
    }
    assert!(moved > 6_000, "equipping changed {moved} gears");
}

#[test]
fn la_45_damage_and_deaths_carry_from_battle_to_battle() {
    let cat = input::items::builtin();
    for (carry, extra) in [(true, ""), (false, "")] {
        let mut r = rules(extra);
        r.carry_damage = carry;
        let mut checked = 0;
        for g in 0..40 {
            let (_, log) = play_logged(&mixed(16), &cat, &r, match_seed(45, g));
            let mut health: BTreeMap<(u8, u8), i32> = BTreeMap::new();
            for (m, f, o) in &log.battles {
                for side in 0..2 {
                    for j in 0..2 {
                        let Some(c) = m.champs[side][j] else { continue };
                        let key = (m.players[side], c);
                        let before = f[2 * side + j].health;
                        assert!(before > 0, "the fallen are never fielded");
                        if let Some(&h) = health.get(&key) {
                            assert_eq!(before, h, "health carries");
                            checked += 1;
                        }
                        let after = o.health[2 * side + j];
                        let kept = if after <= 0 {
                            0
                        } else if carry {
                            after
                        } else {
                            before
                        };
                        health.insert(key, kept);
                    }
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}

#[test]
fn la_46_players_on_a_tile_pair_off_and_the_odd_one_fights_again() {
    let cat = input::items::builtin();
    let mut odd = 0;
    for twice in [Twice::Random, Twice::Healthiest] {
        let r = rules(if twice == Twice::Random {
            ""
        } else {
            "twice = \"healthiest\""
        });
        for g in 0..150 {
            let (_, log) = play_logged(&seats(&["hunter"; 7]), &cat, &r, match_seed(46, g));
            for (round, _, to) in &log.moves {
                let here: Vec<_> = log.battles.iter().filter(|b| b.0.round == *round).collect();
                let mut cells: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
                for (p, &c) in to.iter().enumerate() {
                    if c != OUT {
                        cells.entry(c).or_default().push(p as u8);
                    }
                }
                for (c, players) in cells {
                    let on: Vec<_> = here.iter().filter(|b| b.0.cell == c).collect();
                    let k = players.len();
                    let paired: Vec<_> = on.iter().filter(|b| !b.0.twice).collect();
                    assert_eq!(paired.len(), k / 2, "pairs on a tile of {k}");
                    let mut in_pairs: Vec<u8> = paired.iter().flat_map(|b| b.0.players).collect();
                    in_pairs.sort();
                    in_pairs.dedup();
                    assert_eq!(in_pairs.len(), 2 * (k / 2), "each player once in the pairs");
                    let second: Vec<_> = on.iter().filter(|b| b.0.twice).collect();
                    assert!(second.len() <= k % 2);
                    if let Some(b) = second.first() {
                        odd += 1;
                        assert!(
                            !in_pairs.contains(&b.0.players[0]),
                            "the odd one is left over"
                        );
                        assert!(in_pairs.contains(&b.0.players[1]), "against a paired one");
                        assert!(b.0.index > paired.iter().map(|p| p.0.index).max().unwrap());
                    }
                }
            }
        }
    }
    assert!(odd > 50, "{odd} odd battles");
}

#[test]
fn la_47_and_la_48_places_follow_the_rounds_out_and_games_end_as_the_rules_say() {
    let r = Rules::default();
    let cat = input::items::builtin();
    let mut ends = BTreeMap::new();
    for g in 0..300 {
        let n = 2 + (g % 15) as usize;
        let (rep, log) = play_logged(&mixed(n), &cat, &r, match_seed(47, g));
        *ends.entry(rep.end.name()).or_insert(0) += 1;
        for p in 0..n {
            for q in 0..n {
                let last = |x: usize| match rep.out_round[x] {
                    0 => u32::MAX,
                    o => o,
                };
                assert_eq!(last(p) > last(q), rep.place[p] < rep.place[q]);
            }
            let outs: Vec<_> = log.outs.iter().filter(|o| o.0 == p).collect();
            assert_eq!(outs.len(), (rep.out_round[p] > 0) as usize);
        }
        let still = (0..n).filter(|&p| rep.out_round[p] == 0).count();
        match rep.end {
            End::Won => {
                assert_eq!(still, 1);
                let w = rep.winner.unwrap() as usize;
                assert_eq!(rep.out_round[w], 0);
                assert_eq!(rep.place[w], 1);
            }
            End::Draw => {
                assert_eq!(still, 0);
                assert!(rep.winner.is_none());
                for p in 0..n {
                    assert_eq!(rep.place[p] == 1, rep.out_round[p] == rep.rounds);
                }
            }
            End::Cap => {
                assert_eq!(rep.rounds, r.royale.max_rounds);
                assert!(still >= 2 && rep.winner.is_none());
            }
            End::Stalled => {
                assert!(rep.rounds < r.royale.max_rounds);
                assert!(still >= 2 && rep.winner.is_none());
                for p in 0..n {
                    assert_eq!(rep.place[p] == 1, rep.out_round[p] == 0);
                }
            }
        }
    }
    assert!(
        ends.len() == 4,
        "won, draws, caps and stalls all happen: {ends:?}"
    );
    // Two looters on a 2x2 map never meet: a turn cap at the setting, both first.
    let r = rules("max_rounds = 7\nend_stalled = false");
    let (rep, _) = play_logged(&seats(&["looter", "looter"]), &cat, &r, 1);
    assert_eq!(
        (rep.end, rep.rounds, &rep.place[..2]),
        (End::Cap, 7, &[1, 1][..])
    );
}

#[test]
fn la_52_a_game_ends_when_nobody_can_change_it_and_playing_on_changes_nothing_but_loot() {
    let cat = input::items::builtin();
    let on = Rules::default();
    let off = rules("end_stalled = false");
    let mut stalls = 0;
    for g in 0..240 {
        let n = 2 + (g % 15) as usize;
        let s = mixed(n);
        let seed = match_seed(52, g);
        let (a, _) = play_logged(&s, &cat, &on, seed);
        let (b, log) = play_logged(&s, &cat, &off, seed);
        if a.end != End::Stalled {
            assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "game {g}: no stall, no change"
            );
            continue;
        }
        stalls += 1;
        // Played on to the cap: no battle after the stall, and the same places, battles,
        // eliminations and health; only the loot counts grow.
        assert_eq!(b.end, End::Cap, "game {g}");
        assert!(log.battles.iter().all(|x| x.0.round < a.rounds), "game {g}");
        assert!(
            log.moves
                .iter()
                .filter(|m| m.0 >= a.rounds)
                .all(|m| m.1 == m.2)
        );
        assert_eq!(
            (
                a.place,
                a.out_round,
                a.battles,
                a.battles_won,
                a.health,
                a.first_out
            ),
            (
                b.place,
                b.out_round,
                b.battles,
                b.battles_won,
                b.health,
                b.first_out
            ),
            "game {g}"
        );
        assert_eq!(
            (a.battle_count, a.dice, a.shrinks, a.odd_won, a.twice_won),
            (b.battle_count, b.dice, b.shrinks, b.odd_won, b.twice_won)
        );
        assert!((0..n).all(|p| a.found[p] <= b.found[p]));
    }
    assert!(stalls > 60, "{stalls} of 240 games stalled");
    // Two looters on their own cells: stalled in the first round's Movement.
    let (rep, log) = play_logged(&seats(&["looter", "looter"]), &cat, &on, 1);
    assert_eq!(
        (rep.end, rep.rounds, &rep.place[..2]),
        (End::Stalled, 1, &[1, 1][..])
    );
    assert!(log.loot.is_empty(), "a stalled round loots nothing");
    // A wanderer may still move, so a game with one never stalls.
    for seed in 0..20 {
        let (rep, _) = play_logged(&seats(&["looter", "wanderer"]), &cat, &on, seed);
        assert_ne!(rep.end, End::Stalled);
    }
}

#[test]
fn la_49_the_same_seed_plays_the_same_game_and_one_players_loot_moves_no_other() {
    let r = Rules::default();
    let cat = input::items::builtin();
    let s = mixed(16);
    let (a, la) = play_logged(&s, &cat, &r, 9);
    let mut e = Royale::new();
    let b = e
        .play(&s, &cat, &r, 9, &mut Battle::new(), &mut Quiet)
        .clone();
    assert_eq!(format!("{a:?}"), format!("{b:?}"), "a hook changes nothing");
    // Player 1 loots nothing vs a lot: player 0's first-round finds do not move.
    let finds = |log: &Log| -> Vec<Option<u16>> {
        log.loot
            .iter()
            .filter(|l| l.0 == 0)
            .take(3)
            .map(|l| l.2)
            .collect()
    };
    let mut s2 = s.clone();
    s2[1] = Strategy::parse("wanderer(sets=random)").unwrap();
    let (_, lb) = play_logged(&s2, &cat, &r, 9);
    assert_eq!(finds(&la), finds(&lb));
}

#[test]
fn la_50_smart_loots_where_it_spawned_until_four_are_in_then_hunts() {
    let s = Strategy::parse("smart").unwrap();
    let gear = Gear::fresh([100, 85, 85, 80]);
    let r = Rules::default();
    let step = |cells: &[u8], st: &Strategy| {
        let view = skirmish::games::loot_arena::strategy::View {
            me: 0,
            round: 3,
            side: 4,
            cell: cells,
            seen: &[-1; 6],
            gear: &gear,
            rules: &r,
        };
        st.step(&view, 0)
    };
    assert_eq!(step(&[0, 15, 3, 12, 10, 6], &s), 0, "five in: it stays");
    // Four in: it hunts the nearest of the unmet (player 5 on cell 6), first step east.
    assert_eq!(step(&[0, 15, 3, OUT, OUT, 6], &s), 1, "four in: it hunts");
    // A hunter: players 4 (cell 10) and 5 (cell 6) are nearest; the lower seat, diagonally.
    let hunter = Strategy::parse("hunter").unwrap();
    assert_eq!(step(&[0, 15, 3, 12, 10, 6], &hunter), 5);
}

/// The reference battle behind the same engine.
struct Plain;
impl Fight for Plain {
    fn fight(&mut self, f: &Fielded, cat: &Catalogue, r: &Rules, seed: u64) -> Outcome {
        reference::play(f, cat, r, seed)
    }
}

#[test]
fn the_royale_plays_the_same_games_on_the_reference_battle() {
    let cat = input::items::builtin();
    let variants = [
        Rules::default(),
        rules("merge = \"low\"\ntwice = \"healthiest\"\npool = 3\nbag = 2"),
        {
            let mut r = rules("loot_actions = 6");
            r.carry_damage = false;
            r.royale.max_rounds = 25;
            r
        },
    ];
    let mut battles = 0;
    for (v, r) in variants.iter().enumerate() {
        for g in 0..40u64 {
            let n = 2 + ((g * 7 + v as u64) % 15) as usize;
            let s = mixed(n);
            let seed = match_seed(50 + v as u64, g);
            let mut e1 = Royale::new();
            let a = e1
                .play(&s, &cat, r, seed, &mut Battle::new(), &mut Quiet)
                .clone();
            let mut e2 = Royale::new();
            let b = e2.play(&s, &cat, r, seed, &mut Plain, &mut Quiet).clone();
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "variant {v} game {g}");
            battles += a.battle_count;
        }
    }
    assert!(battles > 1000, "{battles}");
}
