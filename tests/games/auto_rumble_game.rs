//! The full game (AR-45 .. AR-50): the sample's bidding through the game engine, the bidding rules,
//! and whole games played by the strategies.

use skirmish::games::auto_rumble::game::strategy::{Kind, Strategy};
use skirmish::games::auto_rumble::game::{
    self, GameSettings, MAX_OFFER, Player, ROUNDS, Sizes, Table, settle,
};
use skirmish::games::auto_rumble::kernel::data::{self, DataKernel};
use skirmish::games::auto_rumble::powers::catalogue::{Catalogue, PowerId, Use};
use skirmish::games::auto_rumble::rules;

/// AR-45: the coins each player gains every round (the seed's, as the catalogues here keep).
const INCOME: i32 = skirmish::games::auto_rumble::rules::Rules::SEED.income;

fn cat() -> Catalogue {
    Catalogue::builtin()
}

fn id(cat: &Catalogue, name: &str) -> PowerId {
    cat.id(name).unwrap()
}

/// The six as the sample offers them.
fn offered(cat: &Catalogue) -> Vec<PowerId> {
    [
        "Amoeba",
        "Big, Gnashy Claws",
        "Cosmic Shield",
        "Souleater",
        "Crystallize",
        "Titanium Skin",
    ]
    .iter()
    .map(|n| id(cat, n))
    .collect()
}

fn row(v: &[i32]) -> [i32; MAX_OFFER] {
    let mut r = [0; MAX_OFFER];
    r[..v.len()].copy_from_slice(v);
    r
}

/// Alice, Bob and Charlie after round 1's income, with the sample's base initiatives.
fn sample_players() -> Vec<Player> {
    [0.25, 0.75, 0.5]
        .iter()
        .map(|&b| {
            let mut p = Player::new(b);
            p.balance += INCOME;
            p
        })
        .collect()
}

/// "Alice bids 6 coins on Souleater and Titanium Skin and 4 coins on each of the 4 powers. Bob
/// bids 5 coins on Amoeba and Cosmic Shield, 10 on Crystallize, and 3 coins on the others.
/// Charlie bids 7 coins on Big, Gnashy Claws, 10 coins on Crystallize, and 2 coins on the others."
fn sample_bids() -> Vec<[i32; MAX_OFFER]> {
    vec![
        row(&[4, 4, 4, 6, 4, 6]),
        row(&[5, 3, 5, 3, 10, 3]),
        row(&[2, 7, 2, 2, 10, 2]),
    ]
}

// Golden (AR-21, AR-46): "Bob and Charlie win Crystallize, Bob wins Amoeba and Cosmic Shield,
// Charlie wins Big, Gnashy Claws, Alice wins Souleater and Titanium Skin. Alice now has 18 coins,
// Bob now has 10 coins and Charlie now has 13 coins." ... "Alice enters round 2 of bidding with
// 48 coins, Bob with 40 coins, and Charlie with 43 coins."
#[test]
fn the_samples_bids_through_the_game_engine_give_its_powers_and_balances() {
    let cat = cat();
    let sizes = Sizes::new(&cat);
    let mut players = sample_players();
    let mut unsold = Vec::new();
    let sold = settle(
        &cat,
        &sizes,
        &mut players,
        &offered(&cat),
        &sample_bids(),
        |q| unsold.push(q),
    );
    assert_eq!(sold, 6);
    assert!(unsold.is_empty());
    let held = |p: &Player| {
        p.held()
            .iter()
            .map(|h| (cat.name(h.power).to_string(), h.strength))
            .collect::<Vec<_>>()
    };
    let s = |n: &str, v| (n.to_string(), v);
    assert_eq!(
        held(&players[0]),
        vec![s("Souleater", 6), s("Titanium Skin", 6)]
    );
    assert_eq!(
        held(&players[1]),
        vec![s("Crystallize", 10), s("Amoeba", 5), s("Cosmic Shield", 5)]
    );
    assert_eq!(
        held(&players[2]),
        vec![s("Crystallize", 10), s("Big, Gnashy Claws", 7)]
    );
    let balances: Vec<i32> = players.iter().map(|p| p.balance).collect();
    assert_eq!(balances, vec![18, 10, 13]);
    // "Alice's power use order is Attack(10); Bob's is Attack(10), Crystallize(20); Charlie's is
    // Attack(10), Crystallize(20)".
    let crystallize = Use::Power(id(&cat, "Crystallize"));
    assert_eq!(players[0].order(), &[Use::Attack]);
    assert_eq!(players[1].order(), &[Use::Attack, crystallize]);
    assert_eq!(players[2].order(), &[Use::Attack, crystallize]);
    let next: Vec<i32> = players.iter().map(|p| p.balance + INCOME).collect();
    assert_eq!(next, vec![48, 40, 43]);

    // The battle the game plays from them is the sample's: Bob wins after 4 rounds.
    let builds: Vec<_> = players.iter().map(|p| p.loadout(&cat)).collect();
    assert_eq!(
        builds
            .iter()
            .map(|b| (b.energy, b.damage))
            .collect::<Vec<_>>(),
        vec![(118, 16), (110, 14), (113, 15)]
    );
    let ini: Vec<f64> = players
        .iter()
        .zip(&builds)
        .map(|(p, b)| rules::initiative(b.coins, p.base))
        .collect();
    assert_eq!(ini, vec![18.25, 10.75, 13.5]);
    let mut k = DataKernel::new(4096);
    let o = data::play(&mut k, &cat, &builds, &ini, 30);
    assert_eq!((o.winner, o.rounds), (Some(1), 4));
}

// AR-21: "ties for 0 coins, in which case the power goes to no one and stays in the pool".
#[test]
fn a_tie_at_zero_goes_to_no_one_and_back_to_the_pool() {
    let cat = cat();
    let mut players = sample_players();
    let mut unsold = Vec::new();
    let amoeba = id(&cat, "Amoeba");
    let sold = settle(
        &cat,
        &Sizes::new(&cat),
        &mut players,
        &[amoeba],
        &[row(&[0]); 3],
        |q| unsold.push(q),
    );
    assert_eq!((sold, unsold), (0, vec![amoeba]));
    assert!(players.iter().all(|p| p.balance == 30 && p.n_held == 0));
}

// AR-21: tied highest bidders each get a copy and each pay; losing bids cost nothing.
#[test]
fn tied_highest_bidders_each_get_a_copy_and_each_pay() {
    let cat = cat();
    let mut players = sample_players();
    let shield = id(&cat, "Cosmic Shield");
    settle(
        &cat,
        &Sizes::new(&cat),
        &mut players,
        &[shield],
        &[row(&[9]), row(&[9]), row(&[8])],
        |_| {},
    );
    let b: Vec<i32> = players.iter().map(|p| p.balance).collect();
    assert_eq!(b, vec![21, 21, 30]);
    assert!(players[0].holds(shield) && players[1].holds(shield) && !players[2].holds(shield));
    assert_eq!(
        players[0].held()[0].strength,
        9,
        "strength = the winning bid"
    );
}

// "no individual bid can be more than your balance ... however negative balance will accumulate":
// bids may add up to more than the balance, and the balance goes negative and carries over.
#[test]
fn winning_bids_may_add_up_past_the_balance_and_it_carries_over_negative() {
    let cat = cat();
    let mut players = sample_players();
    let offered = offered(&cat);
    settle(
        &cat,
        &Sizes::new(&cat),
        &mut players,
        &offered,
        &[row(&[30, 30, 30, 0, 0, 0]), row(&[0; 6]), row(&[0; 6])],
        |_| {},
    );
    assert_eq!(players[0].balance, -60);
    assert_eq!(
        players[0].balance + INCOME,
        -30,
        "the debt carries into the next round"
    );
}

fn strategies(cat: &Catalogue, specs: &[&str]) -> Vec<Strategy> {
    // Values: the sample's numbers would do; any fixed table makes the test deterministic.
    let values: Vec<f64> = (0..cat.len()).map(|i| 10.0 + 5.0 * i as f64).collect();
    specs
        .iter()
        .map(|s| Strategy::new(Kind::parse(s).unwrap(), values.clone()))
        .collect()
}

fn play(specs: &[&str], seed: u64) -> game::GameRecord {
    let cat = cat();
    let st = strategies(&cat, specs);
    let refs: Vec<&Strategy> = st.iter().collect();
    let settings = GameSettings {
        players: specs.len(),
        max_rounds: 30,
        capacity: 256,
    };
    let mut table = Table::new(&cat, 256);
    game::play(&cat, &Sizes::new(&cat), &settings, &refs, seed, &mut table)
}

// AR-45: every round each player gains 30 coins; only winning bids cost; 10 rounds.
#[test]
fn over_a_game_every_coin_is_income_or_a_winning_bid() {
    for seed in 0..50 {
        let g = play(&["random", "hoarder", "spreader", "sniper", "value"], seed);
        for p in &g.players[..5] {
            assert_eq!(
                p.balance,
                INCOME * ROUNDS as i32 - p.coins_spent,
                "seed {seed}"
            );
            assert_eq!(p.powers_won, p.n_held, "seed {seed}");
            assert!(p.n_held as usize <= 8, "AR-49");
            // A hero never holds a power twice (AR-17, AR-49).
            let h = p.held();
            for i in 0..h.len() {
                assert!(h[i + 1..].iter().all(|o| o.power != h[i].power));
            }
        }
        assert_eq!(
            g.winner,
            g.rounds[ROUNDS - 1].winner,
            "the last battle decides"
        );
        for r in &g.rounds {
            assert_eq!(r.offered, 10, "2 x players offered each round");
        }
    }
}

// AR-46: no single bid above the balance, whatever a strategy asks for: `value(shade=10)` asks
// for ten times a power's value; every power it wins cost at most its balance that round.
#[test]
fn the_engine_caps_each_bid_at_the_balance() {
    let mut capped = 0;
    for seed in 0..20 {
        let g = play(&["value(shade=10)", "value(shade=10)", "spreader"], seed);
        for (seat, p) in g.players[..3].iter().enumerate() {
            let mut before = 0;
            let mut had = 0;
            for r in &g.rounds {
                let balance = before + INCOME;
                let now = r.held[seat] as usize;
                for h in &p.held()[had..now] {
                    assert!(
                        h.strength <= balance,
                        "seed {seed}: paid {} with {balance}",
                        h.strength
                    );
                    capped += (h.strength == balance) as u32;
                }
                had = now;
                before = r.balances[seat];
            }
        }
    }
    assert!(capped > 0, "some bids were capped at the balance");
}

// AR-49: a player cannot hold a power twice: offered two copies in one round and top bidder on
// both, it takes the first; the second goes to the next highest bid.
#[test]
fn a_second_copy_offered_the_same_round_goes_to_the_next_bidder() {
    let cat = cat();
    let mut players = sample_players();
    let shield = id(&cat, "Cosmic Shield");
    let sold = settle(
        &cat,
        &Sizes::new(&cat),
        &mut players,
        &[shield, shield],
        &[row(&[9, 9]), row(&[5, 4]), row(&[0, 0])],
        |_| {},
    );
    assert_eq!(sold, 2);
    assert_eq!(players[0].balance, 21, "Alice pays once");
    assert_eq!(
        players[1].balance, 26,
        "Bob takes the second copy at his bid of 4"
    );
    assert_eq!(players[1].held()[0].strength, 4);
}

#[test]
fn a_game_is_the_same_for_the_same_seed_and_differs_for_another() {
    let specs = ["random", "value", "outbid", "hoarder"];
    assert_eq!(play(&specs, 5), play(&specs, 5));
    assert_ne!(play(&specs, 5), play(&specs, 6));
}

#[test]
fn strategies_parse_with_parameters_and_refuse_unknown_ones() {
    assert_eq!(
        Kind::parse("value(shade=0.5)").unwrap(),
        Kind::Value { shade: 0.5 }
    );
    assert_eq!(Kind::parse(" sniper ").unwrap(), Kind::Sniper { n: 2 });
    assert!(
        Kind::parse("valeu")
            .unwrap_err()
            .to_string()
            .contains("did you mean `value`")
    );
    assert!(
        Kind::parse("value(greed=2)")
            .unwrap_err()
            .to_string()
            .contains("no parameter `greed`")
    );
    assert!(Kind::parse("random(p=2)").is_err());
    for name in skirmish::games::auto_rumble::game::strategy::NAMES {
        let k = Kind::parse(name).unwrap();
        assert_eq!(Kind::parse(&k.spec()).unwrap(), k, "spec round-trips");
    }
}

// AR-51: the planner bids shade x value only on the catalogue's `top` most valuable powers, and in
// the last `fill` rounds 1 coin on anything else worth more than 0 that it can still take.
#[test]
fn the_planner_keeps_its_slots_for_its_top_powers_and_fills_late_for_one_coin() {
    use skirmish::games::auto_rumble::game::View;
    use skirmish::rng::{Stream, match_stream_rng};
    let cat = cat();
    let sizes = Sizes::new(&cat);
    // Values by power id: 10, 20, ..., 60, and one power worth nothing.
    let mut values: Vec<f64> = (1..=cat.len()).map(|i| 10.0 * i as f64).collect();
    values[0] = -3.0;
    let planner = Strategy::new(
        Kind::parse("planner(shade=0.5, top=2, fill=2)").unwrap(),
        values,
    );
    let mut players = vec![Player::new(0.5), Player::new(0.5), Player::new(0.5)];
    players[0].balance = 100;
    let offered: Vec<PowerId> = (0..cat.len() as PowerId).collect();
    let (best, second) = (cat.len() - 1, cat.len() - 2);
    let mut rng = match_stream_rng(1, Stream::Bidding);
    let mut bids_in = |round: usize, players: &[Player]| {
        let view = View {
            round,
            seat: 0,
            players,
            offered: &offered,
            cat: &cat,
        };
        let mut bids = vec![0; offered.len()];
        planner.bid(&view, &sizes, &mut rng, &mut bids);
        bids
    };
    let early = bids_in(0, &players);
    assert_eq!(early[best], 30, "0.5 x 60");
    assert_eq!(early[second], 25, "0.5 x 50");
    assert!(
        early[..second].iter().all(|&b| b == 0),
        "nothing else before the fill rounds: {early:?}"
    );
    let late = bids_in(8, &players);
    assert_eq!(late[best], 30);
    assert_eq!(late[0], 0, "worth nothing: no bid, even when filling");
    assert!(late[1..second].iter().all(|&b| b == 1), "{late:?}");
    assert_eq!(
        planner.kind.spec(),
        "planner(shade=0.5, top=2, fill=2)",
        "the spelling round-trips"
    );
}
