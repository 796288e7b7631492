//! The draw recomputed from its revealed seed by an implementation of
//! `docs/tournament.md` ("The draw") written here: RustCrypto's `sha2` and `chacha20`,
//! nothing of the production code but the order and the first round it must agree with.

use baffle_core::dice::ServerSeed;
use baffle_core::tournament::knockout::Flights;
use baffle_core::tournament::{
    Command, Details, EntrantId, Flight, Format, Plan, Seeding, Tournament,
};
use baffle_core::{GameType, Timestamp};
use chacha20::ChaCha20;
use chacha20::cipher::{KeyIvInit, StreamCipher};
use sha2::{Digest, Sha256};

/// The words of the ChaCha20 stream of `key` (RFC 8439, nonce zero, counter from 0),
/// each four keystream bytes read little-endian.
struct Words {
    cipher: ChaCha20,
}

impl Words {
    fn new(key: [u8; 32]) -> Words {
        Words {
            cipher: ChaCha20::new(&key.into(), &[0u8; 12].into()),
        }
    }

    fn next(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.cipher.apply_keystream(&mut b);
        u32::from_le_bytes(b)
    }

    /// Uniform in 0..n: words at or above the largest multiple of n below 2^32 are
    /// thrown away.
    fn uniform(&mut self, n: u32) -> u32 {
        let limit = (1u64 << 32) - (1u64 << 32) % u64::from(n);
        loop {
            let x = self.next();
            if u64::from(x) < limit {
                return x % n;
            }
        }
    }
}

/// The page's order: key from the seed, the id, the field and the seeds; the seeds
/// first, then the others shuffled from the last place down.
fn order(seed: [u8; 32], id: &str, field: &[u32], seeds: &[u32]) -> Vec<u32> {
    let mut field = field.to_vec();
    field.sort();
    let mut h = Sha256::new();
    h.update(b"baffle-draw-v1");
    h.update(seed);
    h.update((id.len() as u32).to_be_bytes());
    h.update(id.as_bytes());
    h.update((field.len() as u32).to_be_bytes());
    for e in &field {
        h.update(e.to_be_bytes());
    }
    h.update((seeds.len() as u32).to_be_bytes());
    for e in seeds {
        h.update(e.to_be_bytes());
    }
    let key: [u8; 32] = h.finalize().into();
    let mut rest: Vec<u32> = field.into_iter().filter(|e| !seeds.contains(e)).collect();
    let mut words = Words::new(key);
    for i in (1..rest.len()).rev() {
        let j = words.uniform(i as u32 + 1) as usize;
        rest.swap(i, j);
    }
    let mut out = seeds.to_vec();
    out.extend(rest);
    out
}

/// The seed layout of docs/tournament.md: `[1, 2]`, then each s of the layout of m
/// replaced by s, 2m + 1 - s.
fn layout(size: usize) -> Vec<usize> {
    let mut l = vec![1, 2];
    while l.len() < size {
        let m = l.len();
        l = l.iter().flat_map(|&s| [s, 2 * m + 1 - s]).collect();
    }
    l
}

/// Round 1's real matches, (match, [A, B]), and byes, (match, entrant).
type RoundOne = (Vec<(u32, [u32; 2])>, Vec<(u32, u32)>);

/// The main's round 1 from the order.
fn round_one(order: &[u32]) -> RoundOne {
    let size = order.len().next_power_of_two().max(2);
    let (mut pairs, mut byes) = (Vec::new(), Vec::new());
    for (j, two) in layout(size).chunks(2).enumerate() {
        let j = j as u32 + 1;
        match (order.get(two[0] - 1), order.get(two[1] - 1)) {
            (Some(&a), Some(&b)) => pairs.push((j, [a, b])),
            (Some(&a), None) | (None, Some(&a)) => byes.push((j, a)),
            (None, None) => {}
        }
    }
    (pairs, byes)
}

fn drawn(names: usize, seeding: Seeding) -> (Tournament, [u8; 32]) {
    let seed_bytes: [u8; 32] = std::array::from_fn(|i| (i * 7) as u8);
    let seed = ServerSeed::from_bytes(seed_bytes);
    let plan = Plan {
        format: Format::Knockout {
            flights: Flights::Consolation,
        },
        game: GameType::Backgammon,
        length: 7,
    };
    let mut t = Tournament::open(
        "club",
        "Club day",
        plan,
        vec!["1".into()],
        &seed,
        Timestamp(0),
    )
    .unwrap()
    .tournament;
    for i in 0..names {
        let mut d = Details::named(&format!("Player {i}"));
        d.rating = Some(baffle_core::tournament::rating::Rating(
            150_000 + i as i64 * 1000,
        ));
        t = t
            .plan(
                &Command::Register {
                    details: d,
                    approve: true,
                },
                Timestamp(1),
            )
            .unwrap()
            .tournament;
        t = t
            .plan(
                &Command::CheckIn {
                    entrant: EntrantId(i as u32 + 1),
                },
                Timestamp(2),
            )
            .unwrap()
            .tournament;
    }
    let plan = t
        .plan(&Command::MakeDraw { seed, seeding }, Timestamp(3))
        .unwrap();
    (plan.tournament, seed_bytes)
}

#[test]
fn the_draw_is_recomputed_from_its_revealed_seed_by_the_documented_construction() {
    for (n, seeding) in [
        (8, Seeding::None),
        (13, Seeding::TopRated(3)),
        (3, Seeding::None),
        (31, Seeding::Named(vec![EntrantId(5), EntrantId(2)])),
    ] {
        let (t, seed) = drawn(n, seeding);
        let d = t.draw.as_ref().unwrap();
        let field: Vec<u32> = d.field.iter().map(|e| e.0).collect();
        let seeds: Vec<u32> = d.seeds.iter().map(|e| e.0).collect();
        let mine = order(seed, "club", &field, &seeds);
        let theirs: Vec<u32> = d.order.iter().map(|e| e.0).collect();
        assert_eq!(mine, theirs, "{n} entrants");
        // Round 1 of the main from the same page: seed p is place p of the order, match
        // j takes layout positions 2j-1 (A) and 2j (B), a seed above n is a bye.
        let (pairs, byes) = round_one(&mine);
        let draw = t.current_draw();
        let theirs: Vec<(u32, [u32; 2])> = draw
            .pairings
            .iter()
            .filter(|p| p.key.round == 1 && p.key.flight == Flight::Main)
            .map(|p| (p.key.index, p.players.map(|e| e.0)))
            .collect();
        assert_eq!(pairs, theirs, "{n} entrants: round 1");
        let their_byes: Vec<(u32, u32)> = draw
            .byes
            .iter()
            .map(|b| (b.key.index, b.entrant.0))
            .collect();
        assert_eq!(byes, their_byes, "{n} entrants: byes");
        // The commitment published at the opening is SHA-256 of the seed.
        let commitment: [u8; 32] = Sha256::digest(seed).into();
        assert_eq!(commitment, t.commitment);
    }
}

#[test]
fn the_top_rated_seeds_are_the_highest_ratings_highest_first() {
    let (t, _) = drawn(16, Seeding::TopRated(4));
    let seeds: Vec<u32> = t.draw.unwrap().seeds.iter().map(|e| e.0).collect();
    assert_eq!(seeds, vec![16, 15, 14, 13]);
}

/// Vector 1 of docs/tournament.md: pinned so that a change of construction is seen.
#[test]
fn vector_1_eight_entrants_unseeded() {
    let seed: [u8; 32] = std::array::from_fn(|i| i as u8);
    let got = order(seed, "vector", &[1, 2, 3, 4, 5, 6, 7, 8], &[]);
    let core = baffle_core::tournament::draw::draw_order(
        &ServerSeed::from_bytes(seed),
        "vector",
        &(1..=8).map(EntrantId).collect::<Vec<_>>(),
        &[],
    );
    assert_eq!(got, core.iter().map(|e| e.0).collect::<Vec<_>>());
    println!("vector 1 order: {got:?}");
    assert_eq!(got, VECTOR_1);
}

const VECTOR_1: [u32; 8] = [8, 2, 5, 4, 7, 6, 3, 1];
