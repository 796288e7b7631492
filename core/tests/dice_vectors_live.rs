//! Live dice's test vectors (`docs/dice.md`, "Live dice", vectors 12 to 15), pinned
//! and reproduced with an implementation of that page written here: RustCrypto's
//! `sha2` and `chacha20`, nothing of the production code but the values it must agree
//! with.

use baffle_core::Side;
use baffle_core::dice::{DiceStream, LiveChain, Position, ServerSeed, dice_key_v2, live_key};
use chacha20::ChaCha20;
use chacha20::cipher::{KeyIvInit, StreamCipher};
use sha2::{Digest, Sha256};

const MATCH: &str = "baffle-live-vector";

fn lp(h: &mut Sha256, part: &[u8]) {
    h.update((part.len() as u32).to_be_bytes());
    h.update(part);
}

fn sha(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        lp(&mut h, p);
    }
    h.finalize().into()
}

fn server_seed() -> [u8; 32] {
    std::array::from_fn(|i| i as u8)
}

/// Step 2 of "Live dice": one step of a chain.
fn step(commitment: &[u8; 32], side: &str, value: &[u8; 32]) -> [u8; 32] {
    sha(&[
        b"baffle-live-link-v1",
        commitment,
        MATCH.as_bytes(),
        side.as_bytes(),
        value,
    ])
}

/// Link `i` of a chain of `length` from `tip` (0 = the anchor).
fn link(commitment: &[u8; 32], side: &str, tip: [u8; 32], length: u32, i: u32) -> [u8; 32] {
    (0..length - i).fold(tip, |v, _| step(commitment, side, &v))
}

/// Steps 4 and 5: the draw's key, and the dice of its position's stream.
fn dice(links: [[u8; 32]; 2], position: [u8; 8], n: usize) -> Vec<u8> {
    let key = sha(&[
        b"baffle-dice-v2",
        MATCH.as_bytes(),
        &server_seed(),
        b"",
        b"",
    ]);
    let draw_key = sha(&[b"baffle-live-draw-v1", &key, &links[0], &links[1]]);
    let mut nonce = [0u8; 12];
    nonce[4..].copy_from_slice(&position);
    let mut cipher = ChaCha20::new(&draw_key.into(), &nonce.into());
    let mut out = Vec::new();
    while out.len() < n {
        let mut word = [0u8; 4];
        cipher.apply_keystream(&mut word);
        let x = u32::from_le_bytes(word);
        if x < 4294967292 {
            out.push((x % 6 + 1) as u8);
        }
    }
    out
}

#[test]
fn vectors_12_to_15_live_dice() {
    let commitment: [u8; 32] = Sha256::digest(server_seed()).into();
    let (tip_a, tip_b) = ([0xa1; 32], [0xb2; 32]);
    // Vector 12: the anchors of two chains of 8 links.
    let anchor_a = link(&commitment, "A", tip_a, 8, 0);
    let anchor_b = link(&commitment, "B", tip_b, 8, 0);
    assert_eq!(
        hex::encode(anchor_a),
        "4adf6be9dfe4d6a6e73db07d64e86e3d4145fa8e2fa8a878b88afc4cf0aa7b04"
    );
    assert_eq!(
        hex::encode(anchor_b),
        "e0765bf103a88d52c5d618990dc2624be27a1e39744edf198477ef42ae93c5ea"
    );
    // Vector 13: the first links; each hashes to its anchor.
    let (a1, b1) = (
        link(&commitment, "A", tip_a, 8, 1),
        link(&commitment, "B", tip_b, 8, 1),
    );
    assert_eq!(step(&commitment, "A", &a1), anchor_a);
    assert_eq!(
        hex::encode(a1),
        "1df0414cc44b0ef1af29cd09ded623916dfdab3228ffbacaaa570a33d2ab30df"
    );
    assert_eq!(
        hex::encode(b1),
        "f270a3391048fc136fb14131753d87b854aed87e2724a6a2df7590709b28bb31"
    );
    // Vector 14: the opening of game 1 takes links 1; its first dice.
    let opening = dice([a1, b1], [1, 0, 0, 1, 0, 0, 0, 0], 6);
    // A 1 – B 1, a tie thrown again; then A 2 – B 6: B plays first with 2-6.
    assert_eq!(opening, [1, 1, 2, 6, 4, 3]);
    // Vector 15: A's roll 1 of game 1 takes links 2.
    let (a2, b2) = (
        link(&commitment, "A", tip_a, 8, 2),
        link(&commitment, "B", tip_b, 8, 2),
    );
    let roll = dice([a2, b2], [2, 1, 0, 1, 0, 0, 0, 1], 2);
    assert_eq!(roll, [3, 3]);

    // The production code agrees.
    let seed = ServerSeed::from_bytes(server_seed());
    let chain_a = LiveChain::new(tip_a, 8, seed.commitment(), MATCH, Side::A);
    let chain_b = LiveChain::new(tip_b, 8, seed.commitment(), MATCH, Side::B);
    assert_eq!((chain_a.anchor(), chain_b.anchor()), (anchor_a, anchor_b));
    assert_eq!((chain_a.link(2), chain_b.link(2)), (Some(a2), Some(b2)));
    let key = dice_key_v2(MATCH, &seed, b"", b"");
    let production = DiceStream::at(
        live_key(key, [a2, b2]),
        Position::Roll {
            game: 1,
            side: Side::A,
            roll: 1,
        },
    )
    .roll();
    assert_eq!(production.to_vec(), roll);
    let production =
        DiceStream::at(live_key(key, [a1, b1]), Position::Opening { game: 1 }).opening();
    assert_eq!(production.throws, [[1, 1], [2, 6]]);
}
