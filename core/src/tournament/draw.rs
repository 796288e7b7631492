//! The draw: who meets whom, decided by randomness the server committed to before the
//! field was closed, so that anyone can recompute it from the tournament's log.
//!
//! When a tournament opens, the server draws a secret 32-byte *draw seed* and writes its
//! commitment, `SHA-256(seed)` (as a match's dice commitment is made,
//! [`crate::dice::ServerSeed::commitment`]), into the first record. When the director
//! makes the draw, the field is closed and the seed revealed in the same record; the
//! order of the field is then
//!
//! ```text
//! key   = SHA-256("baffle-draw-v1" || seed || len(id) as u32 BE || id
//!                 || count as u32 BE || each entrant of the field as u32 BE, ascending
//!                 || seeds as u32 BE || each seeded entrant as u32 BE, in seed order)
//! order = the seeded entrants in seed order, then the others (ascending) shuffled by
//!         Fisher–Yates from the last place down: for i = m-1 … 1, j = uniform(i+1)
//!         from the dice stream of `key` (ChaCha20, docs/dice.md), swap places i and j
//! ```
//!
//! The order is what each format draws from: a knockout's seed numbers, a round
//! robin's pairing numbers, a Swiss's first ranking. The server cannot choose the seed
//! after seeing the field (it committed first); the director cannot choose the field
//! after seeing the seed (it is revealed only with the field closed). `docs/tournament.md`
//! gives the threat model and a worked example.

use sha2::{Digest, Sha256};

use super::keys::EntrantId;
use crate::dice::{DiceStream, ServerSeed};

/// Domain label of the draw key.
pub const DRAW_LABEL: &[u8] = b"baffle-draw-v1";

/// The key the order is drawn from: the seed, the tournament, the field and its seeds.
pub fn draw_key(
    seed: &ServerSeed,
    tournament: &str,
    field: &[EntrantId],
    seeds: &[EntrantId],
) -> [u8; 32] {
    let mut field: Vec<EntrantId> = field.to_vec();
    field.sort();
    let mut h = Sha256::new();
    h.update(DRAW_LABEL);
    h.update(seed.as_bytes());
    h.update(len_u32(tournament.len()).to_be_bytes());
    h.update(tournament.as_bytes());
    h.update(len_u32(field.len()).to_be_bytes());
    for e in &field {
        h.update(e.0.to_be_bytes());
    }
    h.update(len_u32(seeds.len()).to_be_bytes());
    for e in seeds {
        h.update(e.0.to_be_bytes());
    }
    h.finalize().into()
}

fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The order of the field: the seeds first, in seed order, then everyone else shuffled
/// by the key. `seeds` must be entrants of `field` (the caller checks).
pub fn draw_order(
    seed: &ServerSeed,
    tournament: &str,
    field: &[EntrantId],
    seeds: &[EntrantId],
) -> Vec<EntrantId> {
    let key = draw_key(seed, tournament, field, seeds);
    let mut rest: Vec<EntrantId> = field
        .iter()
        .copied()
        .filter(|e| !seeds.contains(e))
        .collect();
    rest.sort();
    let mut stream = DiceStream::new(key);
    for i in (1..rest.len()).rev() {
        let bound = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let j = stream.uniform(bound) as usize;
        rest.swap(i, j);
    }
    let mut order = seeds.to_vec();
    order.extend(rest);
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[u32]) -> Vec<EntrantId> {
        v.iter().copied().map(EntrantId).collect()
    }

    #[test]
    fn the_order_holds_each_entrant_once_with_the_seeds_first() {
        let seed = ServerSeed::from_bytes([7; 32]);
        let field = ids(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let order = draw_order(&seed, "club", &field, &ids(&[5, 2]));
        assert_eq!(&order[..2], &ids(&[5, 2])[..]);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, field);
    }

    #[test]
    fn the_order_depends_on_the_seed_the_tournament_and_the_field() {
        let field = ids(&[1, 2, 3, 4, 5, 6, 7, 8]);
        let a = draw_order(&ServerSeed::from_bytes([1; 32]), "t", &field, &[]);
        let b = draw_order(&ServerSeed::from_bytes([2; 32]), "t", &field, &[]);
        let c = draw_order(&ServerSeed::from_bytes([1; 32]), "u", &field, &[]);
        assert_ne!(a, b);
        assert_ne!(a, c);
        // The field's order as given does not matter: it is sorted first.
        let mut reversed = field.clone();
        reversed.reverse();
        assert_eq!(
            a,
            draw_order(&ServerSeed::from_bytes([1; 32]), "t", &reversed, &[])
        );
    }
}
