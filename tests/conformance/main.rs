//! The conformance suite: one set of checks every game passes, like OpenSpiel's API tests. A game
//! joins by implementing [`suite::Game`] in a module of its own here and listing it in
//! `conformance!` below; its specific tests stay in their own files.
//!
//! For every game: the same dataset bytes on 1, 2 and 4 threads, the same data for any chunk
//! size, a run killed halfway resumes to the same bytes, every malformed input of the corpus
//! (`tests/corpus/<game>/`) and every fuzzed one exits 2 naming the file (line and field where
//! the corpus says) and writes nothing, the kernel allocates nothing after warm-up, kernel and
//! reference agree on random inputs, and the narration of the shipped example matches its golden
//! file (`tests/golden/<game>.narrate.txt`; `UPDATE_GOLDEN=1` rewrites it).

#[path = "../common/mod.rs"]
mod common;

#[path = "../common/counting_alloc.rs"]
mod alloc;
mod auto_rumble;
mod clan_melee;
mod elemental_tag;
mod loot_arena;
mod minion_combat;
mod suite;

/// One module of tests per game, each test a check of the suite.
macro_rules! conformance {
    ($($module:ident: $game:expr;)*) => {
        /// The games listed here, by their command word.
        fn joined() -> Vec<&'static str> {
            vec![$(suite::Game::name(&$game)),*]
        }
        conformance!(@each $($module: $game;)*);
    };
    (@each $($module:ident: $game:expr;)*) => {$(
        mod $module {
            use super::suite;
            #[test]
            fn same_bytes_on_1_2_and_4_threads() {
                suite::same_bytes_on_1_2_and_4_threads(&$game);
            }
            #[test]
            fn same_data_for_any_chunk_size() {
                suite::same_data_for_any_chunk_size(&$game);
            }
            #[test]
            fn resume_after_a_kill_gives_the_same_bytes() {
                suite::resume_after_a_kill_gives_the_same_bytes(&$game);
            }
            #[test]
            fn malformed_inputs_exit_2_naming_file_line_and_field_and_write_nothing() {
                suite::malformed_inputs_exit_2_and_write_nothing(&$game);
            }
            #[test]
            fn fuzzed_inputs_never_crash() {
                suite::fuzzed_inputs_never_crash(&$game);
            }
            #[test]
            fn verify_replays_the_parts_and_catches_an_edited_tally() {
                suite::verify_replays_the_parts_and_catches_an_edited_tally(&$game);
            }
            #[test]
            fn kernel_allocates_nothing_after_warm_up() {
                suite::kernel_allocates_nothing_after_warm_up(&$game);
            }
            #[test]
            fn kernel_and_reference_agree_on_random_inputs() {
                suite::kernel_and_reference_agree(&$game);
            }
            #[test]
            fn answer_renders_in_every_format_and_diffs_to_zero_with_itself() {
                suite::answer_renders_everywhere_and_diffs_to_zero(&$game);
            }
            #[test]
            fn narration_of_the_shipped_example_matches_its_golden_file() {
                suite::narration_matches_golden(&$game);
            }
        }
    )*};
}

/// Every game of the registry (`skirmish::games::GAMES`) joins the suite: a game added there
/// and not here fails (issue 78: the registry is the one list of games).
#[test]
fn every_game_of_the_registry_joins_the_suite() {
    let joined = joined();
    for g in skirmish::games::GAMES {
        assert!(
            joined.contains(&g.command),
            "{} ({}) is in the registry but not in the conformance suite: implement suite::Game for it and list it in conformance!",
            g.title,
            g.command
        );
    }
    assert_eq!(joined.len(), skirmish::games::GAMES.len());
}

conformance! {
    rumble: crate::auto_rumble::AutoRumble;
    clan_melee_game: crate::clan_melee::ClanMelee;
    tag: crate::elemental_tag::ElementalTag;
    loot: crate::loot_arena::LootArena;
    minions: crate::minion_combat::MinionCombat;
}
