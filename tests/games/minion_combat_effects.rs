//! Combat effects as data (MC-41..MC-54): one hand-worked combat per shipped effect, each
//! pinning the pipeline step where it acts, and the page's last question (an attacker killed
//! inside its own attack).

use crate::common;

use skirmish::games::minion_combat::effects::Effects;
use skirmish::games::minion_combat::input::{self, catalogue};
use skirmish::games::minion_combat::reference::{Blow, Fight, Hook, Quiet, Tiebreak, Who, combat};
use skirmish::games::minion_combat::rules::Rules;
use skirmish::games::minion_combat::state::{Catalogue, End, Outcome};

/// Everything a combat told, in order.
#[derive(Default)]
struct Log {
    blows: Vec<(u32, Who, Who, Blow)>,
    effects: Vec<(u32, Who, Who, String)>,
    wise: Vec<(u32, Who, Who, Tiebreak)>,
    compelled: Vec<(u32, Who, Who)>,
    died: Vec<(Who, Option<Who>)>,
    round: u32,
}

impl Hook for Log {
    fn round(&mut self, g: u32, _f: &Fight) {
        self.round = g;
    }
    fn wise(&mut self, m: Who, v: Who, why: Tiebreak) {
        self.wise.push((self.round, m, v, why));
    }
    fn blow(&mut self, m: Who, v: Who, b: &Blow, _f: &Fight) {
        self.blows.push((self.round, m, v, *b));
    }
    fn compelled(&mut self, m: Who, v: Who) {
        self.compelled.push((self.round, m, v));
    }
    fn effect(&mut self, h: Who, t: Who, what: &str, _f: &Fight) {
        self.effects.push((self.round, h, t, what.to_string()));
    }
    fn died(&mut self, m: Who, by: Option<Who>) {
        self.died.push((m, by));
    }
}

impl Log {
    /// The blows `m` landed, in order.
    fn hits_by(&self, m: Who) -> Vec<&Blow> {
        self.blows
            .iter()
            .filter(|x| x.1 == m && x.3.hit)
            .map(|x| &x.3)
            .collect()
    }
}

/// Plays `a` (initiative) against `b` on the shipped catalogue and effects.
fn play(a: &str, b: &str, seed: u64) -> (Outcome, Log) {
    play_on(&catalogue::builtin(), a, b, seed)
}

fn play_on(cat: &Catalogue, a: &str, b: &str, seed: u64) -> (Outcome, Log) {
    let r = Rules::default();
    let text = format!(
        "[[group]]\nname = \"A\"\nminions = [{a}]\n[[group]]\nname = \"B\"\nminions = [{b}]\n"
    );
    let c = input::combat::parse("t.toml", &text, &r, cat).unwrap();
    let mut log = Log::default();
    let o = combat([&c.groups[0], &c.groups[1]], &r, seed, &mut log);
    (o, log)
}

#[test]
fn mc_44_the_skeleton_takes_two_less_from_missiles_before_armor_not_from_hands() {
    let (_, log) = play(r#""Skeleton""#, r#""Elf archer", "Keeper swordsman""#, 1);
    // Round 1: the Elf archer shoots 2 - 1 + 1 = 2; the Skeleton's -2 leaves 0: bounced.
    let (_, _, _, b) = log
        .blows
        .iter()
        .find(|x| x.0 == 1 && x.1 == (1, 0))
        .unwrap();
    assert_eq!((b.damage, b.soaked, b.dealt), (2, 0, 0));
    assert!(
        log.effects
            .iter()
            .any(|e| e.3.contains("damage taken 2 -> 0"))
    );
    // A swordsman's hand attack is not reduced.
    let hand = log.blows.iter().find(|x| x.1 == (1, 1) && x.3.hit).unwrap();
    assert_eq!(hand.3.dealt, hand.3.damage);
}

#[test]
fn mc_46_the_mechanical_man_withdraws_at_round_3_and_both_groups_stand() {
    let (o, log) = play(r#""Mechanical Man""#, r#""2 x Keeper swordsman""#, 5);
    assert_eq!(o.rounds, 3);
    assert_eq!((o.end, o.winner), (End::Rounds, None));
    assert!(
        o.hp(0)[0] > 0,
        "it leaves alive, its HP kept: {:?}",
        o.hp(0)
    );
    assert!(
        log.effects
            .iter()
            .any(|e| e.0 == 3 && e.3.contains("withdraws"))
    );
    assert!(
        log.blows.iter().all(|x| x.0 < 3),
        "nobody attacks after it left"
    );
}

#[test]
fn mc_47_gorgons_gaze_lowers_damage_raises_armor_next_round_and_three_kill() {
    let (o, log) = play(r#""Gorgon""#, r#""Keeper swordsman + Veteran""#, 3);
    // Round 2: the Gorgon hits first (Gaze 1), so the swordsman hits for 3 + 1 (Keeper) - 1.
    let sw = log.hits_by((1, 0));
    assert_eq!(sw[0].damage, 3);
    // Round 3: Gaze's +1 armor counts from the reset: 2 + 1 soaks the Gorgon's 2.
    let g3 = log
        .blows
        .iter()
        .find(|x| x.0 == 3 && x.1 == (0, 0))
        .unwrap();
    assert_eq!((g3.3.soaked, g3.3.dealt), (2, 0));
    // Round 4: the third Gaze kills, the Gorgon to blame.
    assert_eq!(log.died, vec![((1, 0), Some((0, 0)))]);
    assert_eq!((o.winner, o.rounds, o.hp(0)[0]), (Some(0), 4, 4));
}

#[test]
fn mc_45_dragon_slayer_kills_a_monster_it_damages_but_not_a_recruit() {
    let (o, log) = play(r#""Keeper swordsman + Dragon Slayer""#, r#""Werewolf""#, 1);
    assert_eq!((o.winner, o.rounds), (Some(0), 2));
    assert_eq!(log.died, vec![((1, 0), Some((0, 0)))]);
    // A6: the victim was buried by the effect, so A8 never runs: no experience.
    assert!(!o.qualified(0)[0]);
    let (o, _) = play(
        r#""Keeper swordsman + Dragon Slayer""#,
        r#""Keeper swordsman""#,
        1,
    );
    assert_ne!(o.rounds, 2, "a recruit is only damaged");
}

#[test]
fn mc_49_whipping_boy_takes_a_groupmates_hit_as_magical_damage() {
    let (_, log) = play(
        r#""Keeper swordsman", "Keeper swordsman + Whipping Boy""#,
        r#""Elf archer""#,
        1,
    );
    // Round 1: the archer aims at the weaker swordsman (tiebreaker 4); the Whipping Boy (11
    // HP, armor 1) takes the 2 as magical damage, past its armor.
    let (_, _, v, b) = log.blows.iter().find(|x| x.0 == 1).unwrap();
    assert_eq!(*v, (0, 0));
    assert_eq!(b.taker, (0, 1));
    assert!(b.magical);
    assert_eq!((b.soaked, b.dealt), (0, 2));
}

#[test]
fn mc_44_faerie_knight_takes_nothing_after_armor_from_unenchanted_recruits_only() {
    let (o, log) = play(
        r#""Keeper swordsman + Faerie Knight""#,
        r#""Keeper swordsman""#,
        2,
    );
    assert!(
        log.blows
            .iter()
            .filter(|x| x.1.0 == 1 && x.3.hit)
            .all(|x| x.3.dealt == 0)
    );
    assert_eq!(o.hp(0)[0], 11);
    let (o, _) = play(
        r#""Keeper swordsman + Faerie Knight""#,
        r#""Keeper swordsman + Veteran""#,
        2,
    );
    assert!(o.hp(0)[0] < 11, "an enchanted recruit's damage passes");
}

#[test]
fn mc_43_berserker_blade_gains_one_hand_each_time_hit_not_the_cards_plain_one() {
    // The Blade's side has no precedence: the Keeper hits it first in round 2.
    let (_, log) = play(
        r#""Keeper swordsman""#,
        r#""Keeper swordsman + Berserker Blade""#,
        1,
    );
    let first = log.blows.iter().find(|x| x.1 == (1, 0) && x.3.hit).unwrap();
    // 2 + 1 (Keeper, round 2) + 1 (hit once).
    assert_eq!(first.3.damage, 4);
    assert!(log.effects.iter().any(|e| e.3.contains("Berserker Blade")));
}

#[test]
fn mc_51_unerring_focus_never_misses_a_higher_level_victim() {
    let (o, _) = play(r#""Keeper archer + Unerring Focus""#, r#""Hellion""#, 1);
    assert!(o.attacks[0] > 2);
    assert_eq!(o.misses[0], 0);
    let (o, _) = play(r#""Keeper archer""#, r#""Hellion""#, 1);
    assert!(
        o.misses[0] > 0,
        "without it, a level-1 archer misses a level-3"
    );
}

#[test]
fn mc_51_devas_quiver_ignores_armor() {
    let (_, log) = play(
        r#""Keeper archer + Deva's Quiver""#,
        r#""Keeper swordsman + Veteran""#,
        1,
    );
    let b = &log.blows[0].3;
    // Round 1: 2 + 2 - 1 = 3, none of it soaked by armor 2.
    assert_eq!((b.damage, b.soaked, b.dealt), (3, 0, 3));
}

#[test]
fn mc_50_pixie_dust_weakens_groupmates_and_archers_avoid_it() {
    let (_, log) = play(
        r#""Keeper swordsman + Pixie Dust", "Keeper swordsman""#,
        r#""Elf archer""#,
        1,
    );
    // Tiebreaker 1: the archer prefers the minion without Pixie Dust.
    assert_eq!(log.wise[0].2, (0, 1));
    assert_eq!(log.wise[0].3, Tiebreak::NonImmune);
    // The groupmate hits for 2 - 2 + 1 (Keeper, round 2); the holder keeps its 2 + 1.
    let hits = |i: usize| {
        log.blows
            .iter()
            .find(|x| x.0 == 2 && x.1 == (0, i) && x.3.hit)
            .map(|x| x.3.damage)
    };
    assert_eq!(hits(1), Some(1));
    assert_eq!(hits(0), Some(3));
}

#[test]
fn mc_47_karillian_venom_hurts_each_round_stacks_and_archers_avoid_it() {
    let (_, log) = play(
        r#""Elf archer + Karillian Arrows", "Elf archer""#,
        r#""Keeper swordsman", "Keeper swordsman""#,
        4,
    );
    // Round 1: the first archer damages its victim (2 - 1 armor), which gets Venom; the
    // second archer then prefers the other swordsman (tiebreaker 1).
    let venomed = log.blows[0].2;
    assert!(log.effects[0].3.contains("Karillian Venom, 1 stack"));
    assert_eq!(log.wise[1].3, Tiebreak::NonImmune);
    assert_ne!(log.wise[1].2, venomed);
    // Round 2 starts with 1 magical damage to it.
    assert!(
        log.effects
            .iter()
            .any(|e| e.0 == 2 && e.1 == venomed && e.3.contains("1 magical damage"))
    );
}

#[test]
fn mc_51_fae_gift_heals_instead_of_damaging_and_makes_an_elf() {
    let cat = catalogue::builtin();
    let r = Rules::default();
    let (m, _) = input::combat::minion_spec("Keeper swordsman + Fae Gift", &cat, &r).unwrap();
    assert_eq!(m[0].nation, r.nation("Elf"));
    let (_, log) = play(
        r#""Keeper swordsman + Fae Gift", "Keeper archer""#,
        r#""Werewolf""#,
        1,
    );
    // Round 1: the archer takes 1 off the Werewolf; round 2: the Elf swordsman's 2 (no Keeper
    // bonus now) heals it back by 1, up to its max.
    let b = log.blows.iter().find(|x| x.1 == (0, 0) && x.3.hit).unwrap();
    assert_eq!((b.3.damage, b.3.dealt, b.3.healed), (2, 0, 1));
}

#[test]
fn mc_48_decoy_compels_enemy_shooters_and_unpaired_bashers() {
    let (_, log) = play(
        r#""Decoy", "Keeper swordsman""#,
        r#""Elf archer", "2 x Keeper swordsman""#,
        6,
    );
    // Round 1: the archer (idle at its turn) must attack the Decoy.
    assert!(log.compelled.contains(&(1, (1, 0), (0, 0))));
    // Round 2: the archer and the basher left unpaired must attack it; the paired one not.
    let r2: Vec<Who> = log
        .compelled
        .iter()
        .filter(|c| c.0 == 2)
        .map(|c| c.1)
        .collect();
    assert_eq!(r2.len(), 2, "{r2:?}");
    assert!(r2.contains(&(1, 0)));
}

#[test]
fn mc_45_giants_boulder_hits_a_random_enemy_at_the_start_of_combat() {
    let (_, log) = play(r#""Giant""#, r#""2 x Keeper swordsman""#, 2);
    let e = &log.effects[0];
    assert_eq!(e.0, 0, "C1, before round 1");
    assert!(e.3.contains("5 magical damage, 2 HP left"), "{e:?}");
}

#[test]
fn mc_45_a_combustioneer_burns_its_killer_when_it_dies() {
    let (_, log) = play(r#""Keeper swordsman + Veteran""#, r#""Combustioneer""#, 1);
    assert_eq!(log.died[0], ((1, 0), Some((0, 0))));
    let e = log
        .effects
        .iter()
        .find(|e| e.1 == (1, 0) && e.3.contains("magical damage"))
        .unwrap();
    assert_eq!(e.2, (0, 0));
}

/// The shipped catalogue plus a host's "Thorns": 50 magical damage back at whoever hits it.
fn with_thorns() -> Catalogue {
    let mut cat = catalogue::builtin();
    let extra = "[[modifier]]\nname = \"Thorns\"\napplies_to = \"minion\"\n";
    let text = format!("{}{extra}", input::MODIFIERS);
    cat.modifiers = catalogue::parse_modifiers("m.toml", &text).unwrap();
    let fx = format!(
        "{}\n[[effect]]\nsource = \"Thorns\"\nwhen = \"is_hit\"\nto = \"other\"\ndo = \"damage\"\namount = 50\n",
        input::EFFECTS
    );
    cat.effects = input::effects::parse("e.toml", &fx, &cat.minions, &cat.modifiers).unwrap();
    cat
}

#[test]
fn mc_53_an_attacker_killed_inside_its_own_attack_gives_no_hits_effect() {
    // The page's last question: the Gorgon dies in A3 (inside its victim's takes-damage
    // pipeline), so it skips A4 and its Gaze is never given; A8 halts.
    let (o, log) = play_on(
        &with_thorns(),
        r#""Gorgon""#,
        r#""Keeper swordsman + Thorns""#,
        1,
    );
    assert_eq!(log.died, vec![((0, 0), Some((1, 0)))]);
    assert!(!log.effects.iter().any(|e| e.3.contains("Gaze")));
    // Its blow still went through the pipeline: the swordsman took the damage.
    let b = &log.blows[0].3;
    assert!(b.hit && b.dealt == 1);
    assert_eq!((o.winner, o.kills), (Some(1), [0, 1]));
}

#[test]
fn mc_41_a_conditional_modifier_without_clauses_is_refused_and_numbers_false_keeps_the_holders_stats()
 {
    let cat = catalogue::builtin();
    let r = Rules::default();
    let e = input::combat::minion_spec("Keeper swordsman + Berserkers", &cat, &r)
        .unwrap_err()
        .to_string();
    assert!(e.contains("played only by its clauses"), "{e}");
    let (m, _) = input::combat::minion_spec("Keeper swordsman + Pixie Dust", &cat, &r).unwrap();
    assert_eq!(m[0].hand, Some(2), "Pixie Dust's -2 is its groupmates'");
    assert!(m[0].enchanted);
    assert!(!m[0].kernel_plays());
    let (m, unplayed) = input::combat::minion_spec("Gorgon", &cat, &r).unwrap();
    assert_eq!(m[0].clauses.len(), 1);
    assert_eq!(
        unplayed,
        vec!["on_death_by_swordsman_passes_gaze".to_string()]
    );
}

#[test]
fn mc_42_printed_effects_leave_a_minion_to_the_kernel() {
    let cat = catalogue::builtin();
    let r = Rules::default();
    let (m, unplayed) = input::combat::minion_spec("Bellwether", &cat, &r).unwrap();
    assert!(m[0].kernel_plays() && unplayed.is_empty());
    let (m, _) = input::combat::minion_spec("Decoy", &cat, &r).unwrap();
    assert!(!m[0].kernel_plays(), "its compulsion needs the reference");
}

/// The shipped combat with effects, told: a golden playthrough (UPDATE_GOLDEN=1 rewrites it),
/// the same bytes for the same seed, other seeds other choices.
#[test]
fn the_effects_example_narrates_as_its_golden_file_and_only_its_seed_decides() {
    let f = "experiments/minion-combat/effects-combat.toml";
    let told = |seed: &str| {
        let o = common::skirmish(&["minions", "combat", f, "--narrate", "--seed", seed]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let got = told("3");
    common::assert_golden(
        "tests/golden/minions-effects.narrate.txt",
        &got,
        "narration",
    );
    assert_eq!(got, told("3"));
    assert!(["4", "5", "6"].iter().any(|s| told(s) != got));
}

#[test]
fn mc_54_a_random_field_with_every_minion_plays_their_effects_on_the_plain_model() {
    use skirmish::games::minion_combat::kernel::combat::{Combat, Silent};
    use skirmish::games::minion_combat::simulation::combats::{Field, Rounds};
    use skirmish::rng::match_seed;

    let r = Rules::default();
    let cat = catalogue::builtin();
    let f = Field::new(r.clone(), cat.clone(), [true, true], (1, 8), 2, true).unwrap();
    let exact = Field::new(r.clone(), cat.clone(), [true, true], (1, 8), 2, false).unwrap();
    assert!(f.pool[0].len() + f.pool[1].len() > exact.pool[0].len() + exact.pool[1].len());
    let mut k = Combat::new();
    let (mut plain, mut changed) = (0, 0);
    for m in 0..3_000 {
        let seed = match_seed(54, m);
        let d = f.draw(m, seed);
        let mut rounds = Rounds::default();
        let got = f.play(&d, seed, &mut k, Some(&mut rounds));
        assert_eq!(rounds.hp.len(), got.rounds as usize, "a row per round");
        assert_eq!(
            f.play(&d, seed, &mut k, None),
            got,
            "recording changes nothing"
        );
        // The same combat written as a combat file plays: each minion by its catalogue name.
        let [a, b] = d.groups(|id| {
            let name = &cat.minions[id as usize].name;
            input::combat::minion_spec(name, &cat, &r)
                .unwrap()
                .0
                .remove(0)
        });
        assert_eq!(combat([&a, &b], &r, seed, &mut Quiet), got, "combat {m}");
        if a.minions.iter().chain(&b.minions).all(|x| x.kernel_plays()) {
            assert_eq!(k.play(d.sides(), d.first, &r, seed, &mut Silent), got);
        } else {
            plain += 1;
            changed += (k.play(d.sides(), d.first, &r, seed, &mut Silent) != got) as u32;
        }
    }
    assert!(plain > 500, "{plain} combats drew a minion with effects");
    assert!(changed > plain / 4, "effects changed {changed} of {plain}");
}

#[test]
fn mc_47_nihils_curse_costs_each_attacker_that_hits_it_three_damage_a_hit() {
    let (o, log) = play(r#""Nihil""#, r#""Human archer""#, 1);
    let curses: Vec<(u32, Who, Who)> = log
        .effects
        .iter()
        .filter(|e| e.3.contains("Nihil's curse"))
        .map(|e| (e.0, e.1, e.2))
        .collect();
    // Round 1's shot hits (its 1 is bounced by armor, but a hit is a hit): one curse. Round 2's
    // misses by level; round 3's hits again: a second curse.
    assert_eq!(curses, vec![(1, (0, 0), (1, 0)), (3, (0, 0), (1, 0))]);
    assert!(log.effects.iter().any(|e| e.3.contains("2 stack(s)")));
    // Round 3: 2 missile damage, -3 for the first curse, floored at 0 (A2).
    let b = log
        .blows
        .iter()
        .find(|x| x.0 == 3 && x.1 == (1, 0))
        .unwrap()
        .3;
    assert_eq!(b.damage, 0);
    assert_eq!(o.winner, Some(0));
}

#[test]
fn mc_46_when_dracha_dies_its_group_withdraws_at_the_start_of_the_next_round() {
    let (o, log) = play(r#""Dracha", "Dwarf archer""#, r#""6 x Elf archer""#, 1);
    // Round 1: five Elf arrows kill Dracha (1 + 2 + 2 + 2 + 2 = 9); its Dwarf archer is told
    // to leave, is still shot at this round, and withdraws in round 2's R1 before anyone
    // attacks.
    assert_eq!(log.died, vec![((0, 0), Some((1, 4)))]);
    assert!(
        log.effects
            .iter()
            .any(|e| e.0 == 1 && e.1 == (0, 0) && e.2 == (0, 1) && e.3.contains("Leaving"))
    );
    assert!(
        log.effects
            .iter()
            .any(|e| e.0 == 2 && e.2 == (0, 1) && e.3.contains("withdraws"))
    );
    assert!(
        log.blows.iter().all(|b| b.0 == 1),
        "nobody attacks in round 2"
    );
    // A group whose last minion withdrew still stands (MC-46).
    assert_eq!((o.end, o.winner, o.rounds), (End::Rounds, None, 2));
    assert_eq!(o.hp[0][1], 5);
}

#[test]
fn mc_43_the_brother_wolfs_groupmates_make_no_attacks_while_it_stands() {
    let (o, log) = play(
        r#""Wolf (Brother Wolf)", "Keeper swordsman""#,
        r#""2 x Human swordsman""#,
        1,
    );
    // The Keeper swordsman never attacks (nor pairs up: it has no attack to make); it is
    // attacked, and the Wolf takes those hits as magical damage (MC-49).
    assert!(log.blows.iter().all(|b| b.1 != (0, 1)));
    assert!(log.blows.iter().any(|b| b.1 == (0, 0)));
    assert!(log.blows.iter().any(|b| b.2 == (0, 1)));
    // The Wolf dies in round 3; the swordsman withdraws in round 4's R1, unhurt.
    assert_eq!(log.died, vec![((0, 0), Some((1, 1)))]);
    assert_eq!((o.end, o.winner, o.rounds), (End::Rounds, None, 4));
    assert_eq!(o.hp[0][1], 7);
}

/// MC-55: Pegasus receives -1 damage before armor from minions without Flight, none less from
/// a flyer (the Griffin, which holds the same clause, takes its full damage from Pegasus too).
#[test]
fn mc_55_pegasus_takes_one_less_from_minions_without_flight_and_none_less_from_flyers() {
    let (_, log) = play(r#""Pegasus""#, r#""Human swordsman""#, 3);
    let cut: Vec<&String> = log
        .effects
        .iter()
        .filter(|e| e.1 == (0, 0) && e.2 == (1, 0))
        .map(|e| &e.3)
        .collect();
    let hits = log.hits_by((1, 0));
    assert!(!hits.is_empty());
    assert_eq!(cut.len(), hits.len(), "every hit on Pegasus is cut");
    for (b, e) in hits.iter().zip(&cut) {
        let want = format!(
            "taken_-1_from_non_flyers_before_armor: damage taken {} -> {}",
            b.damage,
            (b.damage - 1).max(0)
        );
        assert_eq!(**e, want);
        // Pegasus has 1 armor: what is left after the cut meets it.
        assert_eq!(b.soaked + b.dealt, (b.damage - 1).max(0));
    }
    let (_, log) = play(r#""Pegasus""#, r#""Griffin""#, 3);
    assert!(log.effects.iter().all(|e| !e.3.contains("non_flyers")));
    let griffin = log.blows.iter().find(|x| x.1 == (1, 0) && x.3.hit).unwrap();
    assert_eq!(griffin.3.soaked + griffin.3.dealt, griffin.3.damage);
}

/// MC-55: Humans get -1 damage per standing Tindelhund (their enemies); a Dwarf does not.
#[test]
fn mc_55_humans_deal_one_less_per_tindelhund_and_other_nations_do_not() {
    for (foe, bonus, per) in [("Human swordsman", 1, 1), ("Dwarf swordsman", 0, 0)] {
        let mut hits = 0;
        for seed in 0..10 {
            let (o, log) = play(r#""2 x Tindelhund""#, &format!("\"3 x {foe}\""), seed);
            if per == 1 {
                // Both Tindelhunds stand to the end: Humans deal at most 1.
                assert_eq!(o.hp[0].iter().filter(|&&h| h > 0).count(), 2, "{foe}");
            }
            for (g, _, _, b) in log.blows.iter().filter(|x| x.1.0 == 1 && x.3.hit) {
                let printed = 2 + if *g == 2 { bonus } else { 0 };
                assert_eq!(b.damage, (printed - 2 * per).max(0), "{foe}, round {g}");
                hits += 1;
            }
        }
        assert!(hits > 0, "{foe}");
    }
}

/// MC-55: at the start of combat against Imps, the Jade Dragon kills one random Imp; against
/// others, nobody.
#[test]
fn mc_55_the_jade_dragon_kills_one_random_imp_at_the_start_of_combat() {
    let mut killed = Vec::new();
    for seed in 0..12 {
        let (o, log) = play(r#""Jade Dragon""#, r#""3 x Imp swordsman""#, seed);
        let c1: Vec<_> = log.effects.iter().filter(|e| e.0 == 0).collect();
        assert_eq!(c1.len(), 1, "seed {seed}");
        assert_eq!(c1[0].3, "soc_vs_imps_kill_random_imp: killed");
        assert_eq!(log.died[0], (c1[0].2, Some((0, 0))));
        assert_eq!(
            o.kills[0] as usize,
            log.died
                .iter()
                .filter(|d| d.1.is_some_and(|k| k.0 == 0))
                .count()
        );
        killed.push(c1[0].2.1);
    }
    killed.sort();
    killed.dedup();
    assert_eq!(killed, vec![0, 1, 2], "any of the three may be drawn");
    let (_, log) = play(r#""Jade Dragon""#, r#""3 x Human swordsman""#, 1);
    assert!(log.effects.iter().all(|e| e.0 != 0));
}

/// MC-55: the Phantom's +3 missile damage counts against Visions only.
#[test]
fn mc_55_the_phantom_deals_three_more_missile_damage_to_visions_only() {
    for (foe, want) in [("Vision archer", 2 - 1 + 3), ("Human archer", 2 - 1)] {
        let (_, log) = play(r#""Phantom""#, &format!("\"{foe}\""), 2);
        let first = log
            .blows
            .iter()
            .find(|x| x.0 == 1 && x.1 == (0, 0))
            .unwrap();
        assert!(first.3.hit && first.3.magical, "{foe}");
        assert_eq!(first.3.damage, want, "{foe}");
    }
}

/// Asserts `r` is an error that says each of `says`.
fn refused<T: std::fmt::Debug, E: std::fmt::Display>(r: Result<T, E>, says: &[&str]) {
    let e = r.unwrap_err().to_string();
    for w in says {
        assert!(e.contains(w), "should say {w}: {e}");
    }
}

/// The shipped effects file, read as `e.toml` against `cat`, with one more clause on the
/// Huntsman's tag.
fn with_clause(cat: &Catalogue, clause: &str) -> Result<Effects, String> {
    let fx = format!(
        "{}\n[[effect]]\nsource = \"hand_+2_vs_monsters\"\n{clause}\n",
        input::EFFECTS
    );
    input::effects::parse("e.toml", &fx, &cat.minions, &cat.modifiers).map_err(|e| e.to_string())
}

/// MC-55: a nation no catalogue minion is of is refused where the effects file names it; one
/// the rules file does not list is refused where a minion carrying it is fielded.
#[test]
fn mc_55_an_unknown_nation_is_refused_at_load_and_one_the_rules_lack_where_fielded() {
    let cat = catalogue::builtin();
    let clause = "against = \"Atlantean\"\ndo = \"stats\"\nhand = 1";
    // Naming the choices.
    refused(
        with_clause(&cat, clause),
        &["e.toml", ".against", "`Atlantean`", "Imp", "not flying"],
    );
    // A host's catalogue with a nation the rules file does not list.
    let mut cat = catalogue::builtin();
    let extra = "[[minion]]\nname = \"Atlantean swordsman\"\nkind = \"recruit\"\nclass = \"swordsman\"\nnation = \"Atlantean\"\nhand = 2\nattacks = 1\nhp = 7\nlevel = 1\n";
    cat.minions =
        catalogue::parse_minions("m.toml", &format!("{}{extra}", input::MINIONS)).unwrap();
    cat.effects = with_clause(&cat, clause).unwrap();
    let text = "[[group]]\nname = \"A\"\nminions = [\"Huntsman\"]\n[[group]]\nname = \"B\"\nminions = [\"Atlantean swordsman\"]\n";
    refused(
        input::combat::parse("c.toml", text, &Rules::default(), &cat),
        &["c.toml", "`Atlantean`", "[nation]"],
    );
}

/// MC-51, MC-55: the Griffin deals magical damage against Shadows only: armor soaks none of it.
#[test]
fn mc_55_the_griffin_deals_magical_damage_to_shadows_only() {
    for (foe, magical) in [("Shadow swordsman", true), ("Human swordsman", false)] {
        let (_, log) = play(r#""Griffin""#, &format!("\"{foe}\""), 4);
        let hits = log.hits_by((0, 0));
        assert!(!hits.is_empty(), "{foe}");
        for b in hits {
            assert_eq!(b.magical, magical, "{foe}");
            if magical {
                assert_eq!(b.soaked, 0, "{foe}");
            }
        }
        // The swordsman's 1 armor soaks the first point of a plain hit.
        let first = log.hits_by((0, 0))[0];
        assert_eq!(first.soaked, if magical { 0 } else { 1 }, "{foe}");
    }
}

/// MC-57: while Diomesia stands, the swordsmen of both groups deal no hand damage (A2's "does
/// not deal"); an archer's missiles still do.
#[test]
fn mc_57_diomesia_stops_every_swordsmans_hand_damage_in_both_groups() {
    let (o, log) = play(
        r#""Diomesia", "Keeper swordsman", "Elf archer""#,
        r#""3 x Human swordsman""#,
        6,
    );
    let mut sword = 0;
    for (_, m, _, b) in log.blows.iter().filter(|x| x.3.hit) {
        if *m == (0, 2) {
            assert!(b.damage > 0);
        } else {
            assert_eq!(b.damage, 0, "{m:?}");
            sword += 1;
        }
    }
    assert!(sword > 0);
    // Only the archer hurt anyone: Diomesia's group stands whole.
    assert_eq!(&o.hp[0][..3], &[7, 7, 7]);
    assert!(o.damage[0] > 0 && o.damage[1] == 0);
}

/// MC-55, MC-57: a condition that could not limit its clause, and `no_damage` as anything but
/// a standing change of others, are refused at load, naming the field.
#[test]
fn mc_57_against_on_a_whole_trait_and_no_damage_on_oneself_are_refused() {
    let cat = catalogue::builtin();
    for (clause, field, says) in [
        (
            "do = \"quasi_immune\"\nattack = \"missile\"\nagainst = \"monster\"",
            ".against",
            "cannot limit it",
        ),
        ("do = \"no_damage\"", ".when", "standing change of others"),
        (
            "when = \"hits\"\nto = \"enemies\"\ndo = \"no_damage\"",
            ".when",
            "standing change of others",
        ),
    ] {
        refused(with_clause(&cat, clause), &["e.toml", field, says]);
    }
}

/// MC-40: the coverage docs/minion-combat.md states is the shipped data's: how many catalogue
/// minions play with all their effects, and exactly which tags of which minions do not.
#[test]
fn mc_40_the_documented_coverage_is_the_shipped_catalogues() {
    let cat = catalogue::builtin();
    let mut missing: Vec<(String, Vec<String>)> = Vec::new();
    for m in &cat.minions {
        let tags: Vec<String> = m
            .tags
            .iter()
            .filter(|t| *t != "hero" && !cat.effects.plays(t))
            .map(|t| format!("`{t}`"))
            .collect();
        if !tags.is_empty() {
            missing.push((m.name.clone(), tags));
        }
    }
    let doc = std::fs::read_to_string("docs/minion-combat.md").unwrap();
    // Minions that cannot be fielded alone (forms, no printed HP or damage), and of the others
    // those that play whole: the counts `minions check` prints of the catalogue.
    let alone = cat
        .minions
        .iter()
        .filter(|m| input::combat::minion_spec(&m.name, &cat, &Rules::default()).is_err())
        .count();
    let fieldable = cat.minions.len() - alone;
    let whole = fieldable
        - missing
            .iter()
            .filter(|(n, _)| input::combat::minion_spec(n, &cat, &Rules::default()).is_ok())
            .count();
    for said in [
        format!(
            "of\nthe {} catalogue minions (the 154 rows of `minions.csv`",
            cat.minions.len()
        ),
        format!("{alone}\ncannot be fielded alone"),
        format!("of the {fieldable} others, {whole} play with all their combat effects"),
    ] {
        assert!(
            doc.contains(&said),
            "docs/minion-combat.md should say: {said}"
        );
    }
    let section = doc
        .split("| minion | combat tags not played |")
        .nth(1)
        .unwrap();
    let mut rows: Vec<(String, Vec<String>)> = section
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            (
                cells[0].to_string(),
                cells[1].split(", ").map(str::to_string).collect(),
            )
        })
        .collect();
    rows.sort();
    missing.sort();
    assert_eq!(rows, missing);
    let readme = std::fs::read_to_string("docs/minion-combat.md").unwrap();
    assert!(
        readme.contains(&format!(
            "{whole} of the {fieldable} minions that can be fielded alone"
        )) && readme.contains(&format!("({alone} of the {} cannot", cat.minions.len())),
        "the Minion Combat guide states the counts"
    );
}

/// MC-56: each time a minion dies, Khobai heals 1 HP; undamaged, it gets +1 max HP instead
/// (and the HP with it). Khobai + Veteran + Rite of Growth has 9 HP: the first death (round 2)
/// finds it whole (10 / 10); by the next two it has been hit, so it heals 1 each time.
#[test]
fn mc_56_khobai_heals_one_per_death_and_grows_when_undamaged() {
    let (o, log) = play(
        r#""Khobai + Veteran + Rite of Growth", "3 x Elf archer""#,
        r#""3 x Human swordsman""#,
        0,
    );
    assert_eq!(log.died.len(), 3);
    assert!(log.died.iter().all(|d| d.0.0 == 1));
    let heard: Vec<(u32, &str)> = log
        .effects
        .iter()
        .filter(|e| e.1 == (0, 0))
        .map(|e| (e.0, e.3.as_str()))
        .collect();
    assert_eq!(
        heard,
        [
            (2, "heals_1_per_any_death: +1 max HP, 10 HP"),
            (3, "heals_1_per_any_death: heals 1, 7 HP"),
            (4, "heals_1_per_any_death: heals 1, 8 HP"),
        ]
    );
    assert_eq!(o.hp[0][0], 8);
}

/// MC-58: a recruit that kills a Unicorn gets Unicorn's Blood: level 0 from then on (its
/// attacks and dodges count 0), and no experience for the kills it made.
#[test]
fn mc_58_a_recruit_that_kills_a_unicorn_is_set_to_level_0_and_gains_no_experience() {
    let (o, log) = play(r#""2 x Keeper swordsman + Veteran""#, r#""3 x Unicorn""#, 1);
    let blood: Vec<(u32, Who)> = log
        .effects
        .iter()
        .filter(|e| {
            e.3.starts_with("on_death_by_recruit_killer_set_level_0: Unicorn's Blood")
        })
        .map(|e| (e.0, e.2))
        .collect();
    assert_eq!(blood[..2], [(3, (0, 0)), (3, (0, 1))]);
    // The Keepers' round-3 blows are the killing ones; the Unicorns attack after them.
    for (g, m, v, b) in &log.blows {
        let (keeper, before) = if m.0 == 0 {
            (b.levels.0, *g <= 3)
        } else {
            (b.levels.1, *g <= 2)
        };
        assert_eq!(keeper, before as i32, "round {g}, {m:?} -> {v:?}");
    }
    // Round 4: a level 0 attacker misses a level 1 Unicorn at first.
    assert!(log.blows.iter().any(|x| x.0 == 4 && x.1.0 == 0 && !x.3.hit));
    assert!(o.kills[0] == 3 && o.qualified[0].iter().all(|q| !q));
}

/// MC-59: at the start of combat the Bog Horror's Plague takes 2 max HP (HP capped), then deals
/// 2; the Frost Dragon's Frostbite takes 3 max HP, and a minion left at 0 max HP dies, the
/// dragon to blame.
#[test]
fn mc_59_plague_and_frostbite_lower_max_hp_at_the_start_of_combat() {
    let (_, log) = play(r#""Bog Horror""#, r#""3 x Human swordsman""#, 1);
    let c1: Vec<(Who, &str)> = log
        .effects
        .iter()
        .filter(|e| e.0 == 0)
        .map(|e| (e.2, e.3.as_str()))
        .collect();
    let plague = "soc_group_plague(-2_maxhp_then_2_dmg)";
    let mut want = Vec::new();
    for what in ["-2 max HP, 5 / 5 HP", "2 magical damage, 3 HP left"] {
        for i in 0..3 {
            want.push(((1, i), format!("{plague}: {what}")));
        }
    }
    let want: Vec<(Who, &str)> = want.iter().map(|(w, t)| (*w, t.as_str())).collect();
    assert_eq!(c1, want);
    let (o, log) = play(r#""Frost Dragon""#, r#""Khobai", "Human swordsman""#, 1);
    assert_eq!(
        log.effects[..2]
            .iter()
            .map(|e| e.3.as_str())
            .collect::<Vec<_>>(),
        [
            "soc_enemy_group_-3_maxhp: -3 max HP, 0 / 0 HP",
            "soc_enemy_group_-3_maxhp: -3 max HP, 4 / 4 HP"
        ]
    );
    assert_eq!(log.died[0], ((1, 0), Some((0, 0))));
    assert_eq!(o.kills[0], 2);
}

/// MC-60: an opponent the Frost Dragon damages does not attack in the next round (Frozen lasts
/// one round after the one it is given in), and attacks again after it.
#[test]
fn mc_60_an_opponent_the_frost_dragon_damages_skips_the_next_round_only() {
    let (_, log) = play(r#""Frost Dragon""#, r#""3 x Human swordsman""#, 2);
    let frozen: Vec<(u32, Who)> = log
        .effects
        .iter()
        .filter(|e| e.3.starts_with("damaged_victim_skips_next_round: Frozen"))
        .map(|e| (e.0, e.2))
        .collect();
    assert!(frozen.len() >= 3);
    let attacked = |g: u32, w: Who| log.blows.iter().any(|x| x.0 == g && x.1 == w);
    for &(g, w) in &frozen {
        assert!(
            !attacked(g + 1, w),
            "{w:?} frozen in round {g} attacks in {}",
            g + 1
        );
    }
    // The third swordsman, first damaged in round 6, attacked in every round before it.
    assert_eq!(frozen.iter().find(|f| f.1 == (1, 2)).unwrap().0, 6);
    assert!((2..=6).all(|g| attacked(g, (1, 2))));
    // Against the level 3 Undine the dragon misses every other round (A1), so Frozen ends
    // before the next hit: a fresh single stack each time, and the Undine attacks in between.
    let (_, log) = play(r#""Frost Dragon""#, r#""Undine""#, 2);
    let gives: Vec<(u32, &str)> = log
        .effects
        .iter()
        .filter(|e| e.0 > 0)
        .map(|e| (e.0, e.3.as_str()))
        .collect();
    let one = "damaged_victim_skips_next_round: Frozen, 1 stack(s)";
    assert_eq!(gives, [(2, one), (4, one), (6, one), (8, one)]);
    let undine: Vec<u32> = log
        .blows
        .iter()
        .filter(|x| x.1 == (1, 0))
        .map(|x| x.0)
        .collect();
    assert_eq!(undine, [2, 4, 6]);
    // A status lasting 0 rounds is refused where it is written.
    let cat = catalogue::builtin();
    let fx = format!(
        "{}\n[[status]]\nname = \"Stiff\"\nrounds = 0\n",
        input::EFFECTS
    );
    refused(
        input::effects::parse("e.toml", &fx, &cat.minions, &cat.modifiers),
        &["e.toml", ".rounds", "from 1 to 10"],
    );
}

/// MC-55: when the Wyrmling dies fighting recruits, every member of their group gets Wyrmling
/// Hide (+2 armor, from the next R1 reset); against monsters, nothing.
#[test]
fn mc_55_a_recruit_group_that_kills_a_wyrmling_gets_its_hide() {
    let (_, log) = play(
        r#""Wyrmling", "Obsidian Dragon""#,
        r#""4 x Dwarf swordsman""#,
        1,
    );
    let hide: Vec<(u32, Who)> = log
        .effects
        .iter()
        .filter(|e| e.3 == "on_death_vs_recruits_enemy_group_+2_armor: Wyrmling Hide, 1 stack(s)")
        .map(|e| (e.0, e.2))
        .collect();
    assert_eq!(hide, (0..4).map(|i| (3, (1, i))).collect::<Vec<_>>());
    // The dragon's one hit a round meets each Dwarf's whole armor: 1, then 1 + 2.
    let dragon: Vec<(u32, i32)> = log
        .blows
        .iter()
        .filter(|x| x.1 == (0, 1) && x.3.hit)
        .map(|x| (x.0, x.3.soaked))
        .collect();
    assert!(dragon.len() > 3);
    for (g, soaked) in dragon {
        assert_eq!(soaked, if g <= 3 { 1 } else { 3 }, "round {g}");
    }
    let (_, log) = play(r#""Wyrmling""#, r#""Hellion""#, 1);
    assert!(log.died.contains(&((0, 0), Some((1, 0)))));
    assert!(log.effects.is_empty());
}

/// MC-61: a minion makes at most 100 attacks a round. A change beyond it is refused where it is
/// written; stacked changes make no more than 100 (issue 53: +10,000 attacks a round, stacked
/// round after round against a wall, asked for minutes of work in one combat).
#[test]
fn mc_61_a_minion_makes_at_most_100_attacks_a_round() {
    let mut cat = catalogue::builtin();
    refused(
        with_clause(&cat, "do = \"stats\"\nattacks = 101"),
        &["e.toml", ".attacks", "from -100 to 100"],
    );
    let wall = "[[minion]]\nname = \"Wall\"\nkind = \"monster\"\nhand = 1\nattacks = 0\narmor = 10000\nhp = 10000\nlevel = 1\n";
    cat.minions = catalogue::parse_minions("m.toml", &format!("{}{wall}", input::MINIONS)).unwrap();
    // The Huntsman gives itself Frenzy (+60 attacks) at the start of every round.
    let fx = format!(
        "{}\n[[status]]\nname = \"Frenzy\"\n\n[[effect]]\nsource = \"Frenzy\"\ndo = \"stats\"\nattacks = 60\n\n[[effect]]\nsource = \"hand_+2_vs_monsters\"\nwhen = \"start_of_round\"\nto = \"me\"\ndo = \"give\"\nstatus = \"Frenzy\"\n",
        input::EFFECTS
    );
    cat.effects = input::effects::parse("e.toml", &fx, &cat.minions, &cat.modifiers).unwrap();
    let (_, log) = play_on(&cat, "\"Huntsman\"", "\"Wall\"", 1);
    let per_round: Vec<usize> = (1..=10)
        .map(|g| {
            log.blows
                .iter()
                .filter(|b| b.0 == g && b.1 == (0, 0))
                .count()
        })
        .collect();
    assert!(per_round.iter().all(|&n| n <= 100), "{per_round:?}");
    assert_eq!(per_round[9], 100, "{per_round:?}");
    assert!(per_round[0] < 100, "{per_round:?}");
    // A spec may stack at most 100 modifiers (issue 53: 80,000 took 12.6 s to read).
    let spec = vec!["Rite of Growth"; 101].join(" + ");
    refused(
        input::combat::minion_spec(&format!("Huntsman + {spec}"), &cat, &Rules::default()),
        &["101 modifiers on one minion; at most 100"],
    );
}
