//! Property tests of the Swiss pairing over random fields and random earlier rounds,
//! checked on small fields against a brute force that knows nothing of matchings.

use std::collections::BTreeSet;

use baffle_core::tournament::EntrantId;
use baffle_core::tournament::swiss::{SwissRound, pair_round};
use proptest::prelude::*;

type Played = BTreeSet<(EntrantId, EntrantId)>;

/// A field and its history: `ranked` in standing order, the pairs that met, the byes.
#[derive(Debug)]
struct History {
    ranked: Vec<EntrantId>,
    played: Played,
    had_bye: BTreeSet<EntrantId>,
}

/// A small deterministic shuffle (xorshift), so a failing case is reproducible from its seed.
fn shuffle<T>(v: &mut [T], seed: &mut u64) {
    for i in (1..v.len()).rev() {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        v.swap(i, (*seed % (i as u64 + 1)) as usize);
    }
}

fn key(a: EntrantId, b: EntrantId) -> (EntrantId, EntrantId) {
    (a.min(b), a.max(b))
}

/// `n` players with sparse ids, `rounds` earlier rounds each a random pairing (its odd one
/// out having a bye), then a random standing order.
fn history(n: usize, rounds: usize, seed: u64) -> History {
    let mut seed = seed | 1;
    let mut ranked: Vec<EntrantId> = (0..n as u32).map(|i| EntrantId(3 * i + 2)).collect();
    let mut played = BTreeSet::new();
    let mut had_bye = BTreeSet::new();
    for _ in 0..rounds {
        let mut order = ranked.clone();
        shuffle(&mut order, &mut seed);
        for pair in order.chunks(2) {
            match pair {
                [a, b] => {
                    played.insert(key(*a, *b));
                }
                [a] => {
                    had_bye.insert(*a);
                }
                _ => unreachable!(),
            }
        }
    }
    shuffle(&mut ranked, &mut seed);
    History {
        ranked,
        played,
        had_bye,
    }
}

/// Who may have the bye: those without one, or everyone if all have had one.
fn eligible(h: &History) -> Vec<EntrantId> {
    let never: Vec<EntrantId> = h
        .ranked
        .iter()
        .copied()
        .filter(|p| !h.had_bye.contains(p))
        .collect();
    if never.is_empty() {
        h.ranked.clone()
    } else {
        never
    }
}

/// Brute force: the first rematch-free pairing of `rest` (in rank order) that a
/// depth-first search over partners in rank order finds.
fn first_fresh(rest: &[EntrantId], played: &Played) -> Option<Vec<(EntrantId, EntrantId)>> {
    let Some((&p, others)) = rest.split_first() else {
        return Some(Vec::new());
    };
    for (i, &q) in others.iter().enumerate() {
        if played.contains(&key(p, q)) {
            continue;
        }
        let mut left = others.to_vec();
        left.remove(i);
        if let Some(mut tail) = first_fresh(&left, played) {
            tail.insert(0, (p, q));
            return Some(tail);
        }
    }
    None
}

/// Brute force: the fewest rematches over every pairing of `rest`.
fn fewest_rematches(rest: &[EntrantId], played: &Played) -> usize {
    let Some((&p, others)) = rest.split_first() else {
        return 0;
    };
    (0..others.len())
        .map(|i| {
            let mut left = others.to_vec();
            let q = left.remove(i);
            usize::from(played.contains(&key(p, q))) + fewest_rematches(&left, played)
        })
        .min()
        .unwrap_or(0)
}

fn without(ranked: &[EntrantId], bye: Option<EntrantId>) -> Vec<EntrantId> {
    ranked.iter().copied().filter(|&p| Some(p) != bye).collect()
}

fn check_shape(h: &History, r: &SwissRound) -> Result<(), TestCaseError> {
    let mut seen: Vec<EntrantId> = r.pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    seen.extend(r.bye);
    seen.sort();
    let mut all = h.ranked.clone();
    all.sort();
    prop_assert_eq!(seen, all, "everyone paired once or has the bye");
    prop_assert_eq!(r.bye.is_some(), h.ranked.len() % 2 == 1);
    if let Some(b) = r.bye {
        prop_assert!(eligible(h).contains(&b), "bye to {} who may not have it", b);
    }
    let rank = |p: EntrantId| h.ranked.iter().position(|&x| x == p).unwrap();
    for &(a, b) in &r.pairs {
        prop_assert!(rank(a) < rank(b), "pairs are (higher, lower)");
    }
    let made = r
        .pairs
        .iter()
        .filter(|&&(a, b)| h.played.contains(&key(a, b)))
        .count();
    prop_assert_eq!(made, r.rematches, "rematches counted");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_field_is_paired(n in 2usize..=40, rounds in 0usize..=8, seed in any::<u64>()) {
        let h = history(n, rounds, seed);
        let r = pair_round(&h.ranked, &h.played, &h.had_bye).unwrap();
        check_shape(&h, &r)?;
        // Same input, same round.
        prop_assert_eq!(pair_round(&h.ranked, &h.played, &h.had_bye).unwrap(), r);
    }

    #[test]
    fn small_fields_agree_with_brute_force(n in 2usize..=11, rounds in 0usize..=9, seed in any::<u64>()) {
        let h = history(n, rounds, seed);
        let r = pair_round(&h.ranked, &h.played, &h.had_bye).unwrap();
        check_shape(&h, &r)?;
        // The bye candidates lowest-ranked first; the first whose absence leaves a
        // rematch-free pairing, and that pairing, are what the rules ask for.
        let candidates: Vec<Option<EntrantId>> = if n % 2 == 1 {
            eligible(&h).into_iter().rev().map(Some).collect()
        } else {
            vec![None]
        };
        let fresh = candidates.iter().find_map(|&bye| {
            first_fresh(&without(&h.ranked, bye), &h.played).map(|pairs| (bye, pairs))
        });
        match fresh {
            Some((bye, pairs)) => {
                prop_assert_eq!(r.rematches, 0);
                prop_assert_eq!(r.bye, bye);
                prop_assert_eq!(r.pairs, pairs);
            }
            None => {
                let fewest = candidates
                    .iter()
                    .map(|&bye| fewest_rematches(&without(&h.ranked, bye), &h.played))
                    .min()
                    .unwrap();
                prop_assert!(r.rematches > 0);
                prop_assert_eq!(r.rematches, fewest, "as few rematches as possible");
            }
        }
    }
}
