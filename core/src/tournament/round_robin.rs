//! Round robin pairings by FIDE's Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! In a round robin everyone meets everyone. The Berger tables say who meets whom in which
//! round and who has the first move (White in chess; in backgammon, the one named first),
//! for players known by their pairing numbers 1..=n. We use FIDE's tables rather than any
//! other schedule so a director can check a draw against the printed table.
//!
//! The rule that makes the table (for an even n; an odd n plays the table of n + 1, and
//! whoever meets the dummy n + 1 has the round's bye):
//!
//! - Round r has a pivot p: p = ((r - 1) · n/2) mod (n - 1) + 1.
//! - Board 1 is the pivot against n: the pivot has the first move in odd rounds, n in
//!   even rounds, so n alternates.
//! - Boards 2..=n/2 pair p + k against p - k (k = 1, 2, …), counted round the circle of
//!   1..=n-1, and p + k has the first move.
//!
//! So for 4 players: round 1 is 1-4, 2-3; round 2 is 4-3, 1-2; round 3 is 2-4, 3-1.
//! Each player then has at most one more first move than second over a cycle.
//!
//! A double round robin ([`double`]) plays the cycle again with every pair reversed.
//! FIDE also recommends swapping the last two rounds of the first cycle in that case (so
//! no one has the same colour three times running across the turn); that is a choice left
//! to the caller, who can swap them before calling [`double`].

/// The Berger table for `n` pairing numbers: its rounds in order, each a list of boards in
/// order, each board `(first, second)` (White, Black in chess).
///
/// For an odd `n` the table is that of `n + 1`, and the dummy number `n + 1` stands in the
/// pairs: the player paired with it has the bye that round (see [`bye`]). No players give
/// no rounds. The table holds about n²/2 pairs, so it is meant for fields of tens;
/// `n` must be below `u32::MAX`.
pub fn berger(n: u32) -> Vec<Vec<(u32, u32)>> {
    if n == 0 {
        return Vec::new();
    }
    let m = u64::from(n) + u64::from(n % 2); // even, with the dummy for an odd n
    let ring = m - 1; // the numbers that circle round the pivot's board: 1..=m-1
    let half = m / 2;
    // A number on the circle 1..=ring from any offset.
    let wrap = |x: i64| -> u32 { (x.rem_euclid(ring as i64) + 1) as u32 };
    let top = u32::try_from(m).expect("n must be below u32::MAX");
    (1..=ring)
        .map(|r| {
            let pivot = ((r - 1) * half) % ring; // 0-based on the circle
            let mut boards = Vec::with_capacity(half as usize);
            let p = pivot as u32 + 1;
            boards.push(if r % 2 == 1 { (p, top) } else { (top, p) });
            for k in 1..half as i64 {
                boards.push((wrap(pivot as i64 + k), wrap(pivot as i64 - k)));
            }
            boards
        })
        .collect()
}

/// Who has the bye in a round of a table for `n` players: the one paired with the dummy
/// `n + 1` when `n` is odd, else no one.
pub fn bye(n: u32, round: &[(u32, u32)]) -> Option<u32> {
    if n.is_multiple_of(2) {
        return None;
    }
    let dummy = n + 1;
    round.iter().find_map(|&(a, b)| {
        if a == dummy {
            Some(b)
        } else if b == dummy {
            Some(a)
        } else {
            None
        }
    })
}

/// A double round robin from a single cycle: the rounds as given, then the same rounds in
/// the same order with every pair reversed (who moved first moves second).
pub fn double(rounds: &[Vec<(u32, u32)>]) -> Vec<Vec<(u32, u32)>> {
    let back = rounds
        .iter()
        .map(|round| round.iter().map(|&(a, b)| (b, a)).collect());
    rounds.iter().cloned().chain(back).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// FIDE's published tables (Handbook C.05 Annex 1, as reprinted e.g. by Chris Fox's
    /// "Berger Tables" page and the Vega manual's appendix C), typed in as printed.
    fn published(n: u32) -> Vec<Vec<(u32, u32)>> {
        let text: &[&str] = match n {
            4 => &["1-4 2-3", "4-3 1-2", "2-4 3-1"],
            6 => &[
                "1-6 2-5 3-4",
                "6-4 5-3 1-2",
                "2-6 3-1 4-5",
                "6-5 1-4 2-3",
                "3-6 4-2 5-1",
            ],
            8 => &[
                "1-8 2-7 3-6 4-5",
                "8-5 6-4 7-3 1-2",
                "2-8 3-1 4-7 5-6",
                "8-6 7-5 1-4 2-3",
                "3-8 4-2 5-1 6-7",
                "8-7 1-6 2-5 3-4",
                "4-8 5-3 6-2 7-1",
            ],
            10 => &[
                "1-10 2-9 3-8 4-7 5-6",
                "10-6 7-5 8-4 9-3 1-2",
                "2-10 3-1 4-9 5-8 6-7",
                "10-7 8-6 9-5 1-4 2-3",
                "3-10 4-2 5-1 6-9 7-8",
                "10-8 9-7 1-6 2-5 3-4",
                "4-10 5-3 6-2 7-1 8-9",
                "10-9 1-8 2-7 3-6 4-5",
                "5-10 6-4 7-3 8-2 9-1",
            ],
            _ => unreachable!(),
        };
        text.iter()
            .map(|round| {
                round
                    .split(' ')
                    .map(|pair| {
                        let (a, b) = pair.split_once('-').unwrap();
                        (a.parse().unwrap(), b.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_tables_are_fides() {
        for n in [4, 6, 8, 10] {
            assert_eq!(berger(n), published(n), "{n} players");
            // An odd field plays the next even table, the top number being the bye.
            assert_eq!(berger(n - 1), published(n), "{} players", n - 1);
        }
    }

    #[test]
    fn tiny_fields() {
        assert!(berger(0).is_empty());
        assert_eq!(berger(1), vec![vec![(1, 2)]]);
        assert_eq!(bye(1, &berger(1)[0]), Some(1));
        assert_eq!(berger(2), vec![vec![(1, 2)]]);
        assert_eq!(bye(2, &berger(2)[0]), None);
    }

    /// Every pair once per cycle, everyone once a round, first moves balanced, and for an
    /// odd field everyone has exactly one bye.
    #[test]
    fn every_table_is_a_round_robin() {
        for n in 1..=41u32 {
            let table = berger(n);
            let m = n + n % 2;
            assert_eq!(table.len() as u32, m - 1, "{n}: rounds");
            let mut met = BTreeMap::new();
            let mut firsts = vec![0i64; m as usize + 1];
            let mut byes = vec![0; n as usize + 1];
            for round in &table {
                let mut seen: Vec<u32> = round.iter().flat_map(|&(a, b)| [a, b]).collect();
                seen.sort_unstable();
                assert_eq!(seen, (1..=m).collect::<Vec<_>>(), "{n}: once a round");
                for &(a, b) in round {
                    *met.entry((a.min(b), a.max(b))).or_insert(0) += 1;
                    firsts[a as usize] += 1;
                    firsts[b as usize] -= 1;
                }
                if let Some(p) = bye(n, round) {
                    byes[p as usize] += 1;
                }
            }
            assert_eq!(met.len() as u32, m * (m - 1) / 2, "{n}: every pair");
            assert!(met.values().all(|&c| c == 1), "{n}: once each");
            if n.is_multiple_of(2) {
                assert!(
                    firsts.iter().all(|d| d.abs() <= 1),
                    "{n}: colours {firsts:?}"
                );
            } else {
                assert!(byes[1..].iter().all(|&b| b == 1), "{n}: byes {byes:?}");
            }

            let both = double(&table);
            assert_eq!(both.len(), 2 * table.len());
            let mut directed = BTreeMap::new();
            for &(a, b) in both.iter().flatten() {
                *directed.entry((a, b)).or_insert(0) += 1;
            }
            // Each pair twice, once each way round.
            assert_eq!(directed.len() as u32, m * (m - 1), "{n}: double");
            assert!(directed.values().all(|&c| c == 1));
        }
    }
}
