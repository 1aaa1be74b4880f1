//! The power-file language: `expr` (values and conditions), `file` (TOML to power definitions,
//! load-time checks, `describe`), `catalogue` (a loaded file compiled into ids, a clause table and
//! per-hero loadouts), `limits` (every limit of the format), `reference` (the format's full reference,
//! generated from the loader's tables), and `sample` (the six sample powers as ids, for the hand-written kernel).
//!
//! # Adding a power
//!
//! Write it in a power file (README, "Powers as data") and check it with `skirmish powers
//! check`; add it to `experiments/powers/archive.toml` with a battle in
//! `tests/games/auto_rumble_archive.rs`. Only a new *kind* of effect, trigger or quantity touches code:
//! add it to `file.rs` (parse, load-time checks, `describe`), play it in `reference/data.rs`
//! (with its narration event) and in `kernel/general.rs`, and either play it in `kernel/data.rs`
//! or mark it outside the fast path's class (`catalogue::effect_bits`). A new quantity is placed
//! in `Quantity::fast_path_tracks` (an exhaustive match: a quantity the fast path does not keep
//! sends every clause reading it to the general path); a new place for an expression goes in
//! `Clause::for_each_expr` (or `SummonDef::for_each_expr`), the one walk every "what does it
//! read" question uses; a quantity one member of a class can change for the next within a phase
//! (a count of the living) is marked in `catalogue::singles_out`. Write its rule entry (AR-23
//! onwards), give it a row in `reference.rs` (a test fails for an effect without one) and
//! regenerate `docs/power-files.md` with `skirmish rumble reference`; put a power using it in
//! `experiments/powers/second-edition.toml` with a hand-worked battle. A new limit goes in
//! `limits.rs` and is checked where the file loads (never a panic later).
//!
//! # Invariants of powers as data
//!
//! No string reaches a battle (names, counters and expressions are resolved at load time into
//! ids, slots and `Expr`). The fast path plays only its class and asserts it (`in_kernel_class`);
//! everything else goes through the general path. No battle of a simulation, analysis or
//! tournament runs on the reference (it allocates: it is the oracle and the narrator of single
//! battles). The general path keeps no id-to-row map: rows do not move within a phase
//! (newcomers wait in `pending`), so a hero is its row index. The data reference does not use a
//! `Loadout`'s per-phase lists or phase bits (it scans all clauses), so a compile bug in those
//! shows in the differential tests. A power given mid-battle (AR-62) only appends to the
//! loadout, in a per-battle slab shared by the hero and its later copies. Memory is kept only
//! when read (the attackers-last-round pairs, AR-61, only when `Catalogue::remembers`).

pub mod catalogue;
pub mod expr;
pub mod file;
pub mod limits;
pub mod reference;
pub mod sample;
