//! The games' rules, kernels, references and power files, held to their rule entries, worked
//! examples and each other (one test binary: a module per former test file, so the test command
//! links a few binaries, not one per file).

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/counting_alloc.rs"]
mod counting_alloc;

mod auto_rumble_archive;
mod auto_rumble_data_differential;
mod auto_rumble_differential;
mod auto_rumble_game;
mod auto_rumble_golden;
mod auto_rumble_rules;
mod auto_rumble_zero_alloc;
mod clan_melee_clans;
mod clan_melee_differential;
mod clan_melee_rules;
mod elemental_tag_collisions;
mod elemental_tag_rules;
mod loot_arena_royale;
mod loot_arena_rules;
mod minion_combat_analysis;
mod minion_combat_effects;
mod minion_combat_rules;
mod power_file_fuzz;
mod power_files;
mod power_files_issue_49;
mod power_files_second_edition;
mod power_grammar_differential;
mod power_value;
mod rng_value_stability;
mod table_bytes;
