//! Property tests of the knockout draw: any field of 2 to 64 entrants, every flights value
//! its size allows, played to the end with random winners at random playable matches.

use std::collections::{BTreeMap, BTreeSet};

use baffle_core::tournament::knockout::{Flights, Knockout, NodeState, Occupant, Outcome, Source};
use baffle_core::tournament::{EntrantId, Flight, MatchKey};
use proptest::prelude::*;

/// A field (distinct ids in a random seed order) and the flights it can have.
fn field() -> impl Strategy<Value = (Vec<EntrantId>, Flights)> {
    (2usize..=64, 0usize..3)
        .prop_flat_map(|(n, f)| {
            (
                prop::collection::btree_set(1u32..10_000, n)
                    .prop_map(|s| s.into_iter().collect::<Vec<_>>())
                    .prop_shuffle(),
                Just(f),
            )
        })
        .prop_map(|(ids, f)| {
            let size = (ids.len() as u32).next_power_of_two();
            let allowed: Vec<Flights> = [Flights::Main, Flights::Consolation, Flights::LastChance]
                .into_iter()
                .filter(|fl| fl.min_size() <= size)
                .collect();
            (
                ids.into_iter().map(EntrantId).collect(),
                allowed[f % allowed.len()],
            )
        })
}

/// A small deterministic generator for the choices of a run.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

const ALL: [Flight; 3] = [Flight::Main, Flight::Consolation, Flight::LastChance];

/// The players who lost their first real match of `flight` (the first one they played).
fn first_real_losers(states: &[NodeState], flight: Flight) -> BTreeSet<EntrantId> {
    let mut first: BTreeMap<EntrantId, bool> = BTreeMap::new();
    let mut played: Vec<_> = states
        .iter()
        .filter(|s| s.key.flight == flight)
        .filter_map(|s| match s.outcome {
            Outcome::Decided { winner, loser } => Some((s.key.round, winner, loser)),
            _ => None,
        })
        .collect();
    played.sort();
    for (_, winner, loser) in played {
        first.entry(winner).or_insert(false);
        first.entry(loser).or_insert(true);
    }
    first
        .into_iter()
        .filter_map(|(e, lost)| lost.then_some(e))
        .collect()
}

/// Everyone who appears in `flight`.
fn players_of(states: &[NodeState], flight: Flight) -> Vec<EntrantId> {
    states
        .iter()
        .filter(|s| s.key.flight == flight && s.key.round == 1)
        .flat_map(|s| s.players)
        .filter_map(|o| match o {
            Occupant::Known(e) => Some(e),
            _ => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_knockout_plays_out_to_a_champion_in_every_flight(
        (order, flights) in field(),
        seed in any::<u64>(),
    ) {
        let n = order.len();
        let k = Knockout::new(&order, flights).unwrap();
        let size = k.size();
        prop_assert!(size.is_power_of_two() && size as usize >= n && (size as usize) < 2 * n);
        let nodes = k.nodes();
        let keys: Vec<MatchKey> = nodes.iter().map(|n| n.key).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        sorted.dedup();
        prop_assert_eq!(&keys, &sorted, "nodes in key order, once each");

        // Each entrant in the main's first round once; byes only there, never bye v bye.
        let mut placed = Vec::new();
        let mut byes = 0;
        for node in &nodes {
            let first_main = node.key.flight == Flight::Main && node.key.round == 1;
            for s in node.sources {
                match s {
                    Source::Entrant(e) => {
                        prop_assert!(first_main);
                        placed.push(e);
                    }
                    Source::Bye => {
                        prop_assert!(first_main);
                        byes += 1;
                    }
                    _ => prop_assert!(!first_main),
                }
            }
            prop_assert!(node.sources != [Source::Bye, Source::Bye]);
        }
        placed.sort();
        let mut want = order.clone();
        want.sort();
        prop_assert_eq!(placed, want);
        prop_assert_eq!(byes, size as usize - n);

        // Play: a random playable match gets a random winner, until none is left.
        let mut rng = SplitMix(seed);
        let mut winners = BTreeMap::new();
        let mut before: Option<Vec<NodeState>> = None;
        let states = loop {
            let states = k.resolve(&winners);
            prop_assert_eq!(states.len(), nodes.len());
            // What was decided stays decided.
            if let Some(before) = &before {
                for (b, s) in before.iter().zip(&states) {
                    if !matches!(b.outcome, Outcome::Waiting | Outcome::Playable(_)) {
                        prop_assert_eq!(b, s);
                    }
                    if b.outcome != Outcome::Waiting {
                        prop_assert!(s.outcome != Outcome::Waiting);
                    }
                }
            }
            let playable: Vec<(MatchKey, [EntrantId; 2])> = states
                .iter()
                .filter_map(|s| match s.outcome {
                    Outcome::Playable(p) => Some((s.key, p)),
                    _ => None,
                })
                .collect();
            let mut busy = BTreeSet::new();
            for (key, p) in &playable {
                for e in p {
                    prop_assert!(busy.insert(*e), "{} in two playable matches ({})", e, key);
                }
            }
            if playable.is_empty() {
                break states;
            }
            let (key, p) = playable[rng.below(playable.len())];
            winners.insert(key, p[rng.below(2)]);
            prop_assert!(winners.len() <= nodes.len(), "the play does not end");
            before = Some(states);
        };

        // Everything is resolved, with a champion in every flight it has.
        for s in &states {
            prop_assert!(
                !matches!(s.outcome, Outcome::Waiting | Outcome::Playable(_)),
                "{} unresolved: {:?}", s.key, s
            );
        }
        for flight in ALL {
            let champion = k.champion(flight, &winners);
            prop_assert_eq!(champion.is_some(), flights.has(flight), "{:?}", flight);
            prop_assert_eq!(k.rounds(flight) > 0, flights.has(flight));
        }

        // The main has n - 1 real matches and no walkover after round 1.
        let main_played = states
            .iter()
            .filter(|s| s.key.flight == Flight::Main)
            .filter(|s| matches!(s.outcome, Outcome::Decided { .. }))
            .count();
        prop_assert_eq!(main_played, n - 1);
        for s in &states {
            if s.key.flight == Flight::Main && s.key.round > 1 {
                let played = matches!(s.outcome, Outcome::Decided { .. });
                prop_assert!(played, "{} not played: {:?}", s.key, s.outcome);
            }
        }

        // A second chance holds, once each, exactly the first real losers of the flight before.
        for (flight, before) in [
            (Flight::Consolation, Flight::Main),
            (Flight::LastChance, Flight::Consolation),
        ] {
            if !flights.has(flight) {
                continue;
            }
            let players = players_of(&states, flight);
            let set: BTreeSet<_> = players.iter().copied().collect();
            prop_assert_eq!(set.len(), players.len(), "{:?} has someone twice", flight);
            prop_assert_eq!(set, first_real_losers(&states, before), "{:?}", flight);
        }
    }
}
