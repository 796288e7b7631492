//! The test vectors of construction 2 in `docs/dice.md` (dice bound to their position,
//! commitments bound to the server's), pinned — and reproduced by an implementation of
//! the spec written here from the doc alone, on RustCrypto's `chacha20` (RFC 8439) and
//! `sha2`, sharing nothing with the production code but the values compared.

use baffle_core::Side;
use baffle_core::dice::{
    DiceStream, Position, ServerSeed, chess960_back_rank, dice_key_v2, player_commitment_v2,
};
use baffle_core::table::TableDice;
use baffle_core::table::dice::Draw;
use chacha20::ChaCha20;
use chacha20::cipher::{KeyIvInit, StreamCipher};
use sha2::{Digest, Sha256};

/// The spec, as a stranger would write it from `docs/dice.md`.
mod spec {
    use super::*;

    pub fn lp(h: &mut Sha256, bytes: &[u8]) {
        h.update((bytes.len() as u32).to_be_bytes());
        h.update(bytes);
    }

    pub fn key(match_id: &str, server_seed: &[u8; 32], a: &[u8], b: &[u8]) -> [u8; 32] {
        let mut h = Sha256::new();
        for part in [
            b"baffle-dice-v2".as_slice(),
            match_id.as_bytes(),
            server_seed,
            a,
            b,
        ] {
            lp(&mut h, part);
        }
        h.finalize().into()
    }

    pub fn commitment(
        server_commitment: &[u8; 32],
        match_id: &str,
        side: &str,
        salt: &[u8],
        seed: &[u8],
    ) -> [u8; 32] {
        let mut h = Sha256::new();
        for part in [
            b"baffle-player-seed-v2".as_slice(),
            server_commitment,
            match_id.as_bytes(),
            side.as_bytes(),
            salt,
            seed,
        ] {
            lp(&mut h, part);
        }
        h.finalize().into()
    }

    /// kind (1 opening, 2 roll, 3 Chess960), side (0 none, 1 A, 2 B), game u16 BE, roll u32 BE.
    pub fn position(kind: u8, side: u8, game: u16, roll: u32) -> [u8; 8] {
        let mut p = [kind, side, 0, 0, 0, 0, 0, 0];
        p[2..4].copy_from_slice(&game.to_be_bytes());
        p[4..8].copy_from_slice(&roll.to_be_bytes());
        p
    }

    /// The words of a position's stream: RFC 8439 ChaCha20, nonce 00000000 ‖ position.
    pub struct Words {
        bytes: Vec<u8>,
        at: usize,
    }

    impl Words {
        pub fn new(key: &[u8; 32], position: [u8; 8]) -> Words {
            let mut nonce = [0u8; 12];
            nonce[4..].copy_from_slice(&position);
            let mut bytes = vec![0u8; 64 * 4];
            ChaCha20::new(key.into(), &nonce.into()).apply_keystream(&mut bytes);
            Words { bytes, at: 0 }
        }

        pub fn word(&mut self) -> u32 {
            let w = u32::from_le_bytes(self.bytes[self.at..self.at + 4].try_into().unwrap());
            self.at += 4;
            w
        }

        pub fn uniform(&mut self, n: u32) -> u32 {
            let limit = (1u64 << 32) - (1u64 << 32) % u64::from(n);
            loop {
                let x = self.word();
                if u64::from(x) < limit {
                    return x % n;
                }
            }
        }

        pub fn die(&mut self) -> u8 {
            self.uniform(6) as u8 + 1
        }
    }
}

fn server_seed() -> ServerSeed {
    ServerSeed::from_bytes(core::array::from_fn(|i| i as u8)) // 00 01 02 … 1f
}

const MATCH: &str = "baffle-test-vector-7";
const SEED_A: [u8; 32] = [0x0a; 32];
const SEED_B: [u8; 32] = [0x0b; 32];
const SALT_A: [u8; 32] = [0x5a; 32];

fn key() -> [u8; 32] {
    dice_key_v2(MATCH, &server_seed(), &SEED_A, &SEED_B)
}

const KEY_7: &str = "0625dace0588120de353e9f100a612f1ffdba8786d5fa6a016f865fddc2050ea";

/// Vector 7: the key of construction 2.
#[test]
fn vector_7_key() {
    assert_eq!(hex::encode(key()), KEY_7);
    assert_eq!(
        spec::key(MATCH, server_seed().as_bytes(), &SEED_A, &SEED_B),
        key()
    );
}

/// Vector 8: game 1's opening — a tie (3-3) thrown again, then A 6 – B 3.
#[test]
fn vector_8_opening_of_game_1() {
    let mut w = spec::Words::new(&key(), spec::position(1, 0, 1, 0));
    let words: Vec<u32> = (0..4).map(|_| w.word()).collect();
    assert_eq!(words, [3915256220, 2091545342, 3658965491, 3155551196]);
    let opening = DiceStream::at(key(), Position::Opening { game: 1 }).opening();
    assert_eq!(opening.throws, [[3, 3], [6, 3]]);
    assert_eq!(
        DiceStream::at(key(), Position::Opening { game: 2 })
            .opening()
            .throws,
        [[1, 2]]
    );
}

/// Vector 9: each side's first three rolls of game 1, and their position bytes.
#[test]
fn vector_9_rolls_by_position() {
    let expected = [
        (Side::A, 1, [2, 1], "0201000100000001"),
        (Side::A, 2, [1, 3], "0201000100000002"),
        (Side::A, 3, [1, 2], "0201000100000003"),
        (Side::B, 1, [5, 4], "0202000100000001"),
        (Side::B, 2, [5, 3], "0202000100000002"),
        (Side::B, 3, [1, 6], "0202000100000003"),
    ];
    for (side, roll, dice, bytes) in expected {
        let p = Position::Roll {
            game: 1,
            side,
            roll,
        };
        assert_eq!(hex::encode(p.bytes()), bytes);
        assert_eq!(DiceStream::at(key(), p).roll(), dice, "{side} roll {roll}");
        let mut w = spec::Words::new(&key(), spec::position(2, side.index() as u8 + 1, 1, roll));
        assert_eq!([w.die(), w.die()], dice);
    }
}

/// Vector 10: the Chess960 position of construction 2.
#[test]
fn vector_10_chess960() {
    let sp = DiceStream::at(key(), Position::Chess960).chess960();
    assert_eq!(sp, 862);
    let mut w = spec::Words::new(&key(), spec::position(3, 0, 0, 0));
    assert_eq!(w.uniform(960), 862);
    assert_eq!(
        chess960_back_rank(sp).unwrap().iter().collect::<String>(),
        "RKNRNBBQ"
    );
}

/// Vector 11: the players' commitments of construction 2 (A's salt 32 × 5a, B's 32 × 5b).
#[test]
fn vector_11_player_commitments() {
    let c = server_seed().commitment();
    let a = player_commitment_v2(&c, MATCH, Side::A, &SALT_A, &SEED_A);
    let b = player_commitment_v2(&c, MATCH, Side::B, &[0x5b; 32], &SEED_B);
    assert_eq!(
        hex::encode(a),
        "643498c778ae0b1cc97f4c5301add50e2815cb9ec87aac107afbb1b8b54b0781"
    );
    assert_eq!(
        hex::encode(b),
        "7f84c83f679851c87541b8b2027954cd247d7d6d968058fdd2fd2b488e2adc00"
    );
    assert_eq!(spec::commitment(&c.0, MATCH, "A", &SALT_A, &SEED_A), a);
    // Another server's commitment gives another player commitment: a twin log opened
    // with another seed cannot hold this one.
    let other = ServerSeed::from_bytes([9; 32]).commitment();
    assert_ne!(
        player_commitment_v2(&other, MATCH, Side::A, &SALT_A, &SEED_A),
        a
    );
}

/// The production streams equal the spec's over many keys and positions, rejections
/// included (words near 2^32 are rare, so every word is compared too).
#[test]
fn every_position_is_the_spec_stream() {
    for k in 0u8..8 {
        let key = spec::key(&format!("m{k}"), &[k; 32], &[k; 16], b"");
        for game in [1u16, 2, 7, 65535] {
            for roll in [1u32, 2, 40, u32::MAX] {
                for (side, byte) in [(Side::A, 1), (Side::B, 2)] {
                    let p = Position::Roll { game, side, roll };
                    let mut ours = DiceStream::at(key, p);
                    let mut theirs = spec::Words::new(&key, spec::position(2, byte, game, roll));
                    for _ in 0..60 {
                        assert_eq!(ours.next_word(), theirs.word());
                    }
                }
            }
        }
    }
}

/// A server's table and a verifier's sealed view place and check draws alike, and a draw
/// that names another place is refused.
#[test]
fn a_table_places_each_draw_and_refuses_a_misplaced_one() {
    use baffle_core::dice::DiceVersion;
    let mut server = TableDice::with_seed(MATCH, DiceVersion::V2, server_seed());
    let (opening, at) = server.next_opening().unwrap();
    assert_eq!(at, Some(Position::Opening { game: 1 }));
    server
        .record(2, Draw::Opening(opening.throws.clone()), None, at)
        .unwrap();
    let (dice, at) = server.next_roll(Side::B).unwrap();
    let b1 = Position::Roll {
        game: 1,
        side: Side::B,
        roll: 1,
    };
    assert_eq!(at, Some(b1));
    let key = dice_key_v2(MATCH, &server_seed(), b"", b"");
    assert_eq!(dice, DiceStream::at(key, b1).roll());
    // Naming B's second roll while it is his first is refused.
    let wrong = Position::Roll {
        game: 1,
        side: Side::B,
        roll: 2,
    };
    let e = server
        .clone()
        .record(3, Draw::Roll(dice), Some(Side::B), Some(wrong))
        .unwrap_err();
    assert!(e.contains("roll 2 of game 1"), "{e}");
    server
        .record(3, Draw::Roll(dice), Some(Side::B), at)
        .unwrap();
}
