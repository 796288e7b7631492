//! Dice bound to their place (construction v2, `docs/dice.md`): the dice of a roll are a
//! function of the key and the roll's [`Position`] — the game, the side and which of his
//! rolls in that game it is — not "the next words of one stream". Nothing anyone sends
//! changes which dice a position gets: a turn passed, a roll asked for early, a command
//! refused or a press-back take no dice from anybody else.
//!
//! Each position has a ChaCha20 stream of its own: the match's key, and the position's
//! eight bytes as the 64-bit nonce (RFC 8439's block function with the 12-byte nonce
//! `00 00 00 00 ‖ position`, counter from 0). A draw reads that stream exactly as v1
//! reads the match's one stream: little-endian words, rejection sampling.
//!
//! ```
//! use baffle_core::dice::{DiceStream, Position, ServerSeed, dice_key_v2};
//! use baffle_core::Side;
//!
//! let key = dice_key_v2("open-r1-t7", &ServerSeed::from_bytes([7; 32]), &[1; 32], &[2; 32]);
//! let third = Position::Roll { game: 1, side: Side::B, roll: 3 };
//! // B's third roll of game 1 is the same whatever happened before it.
//! assert_eq!(DiceStream::at(key, third).roll(), DiceStream::at(key, third).roll());
//! ```

use sha2::{Digest, Sha256};

use super::{Commitment, DiceStream, ServerSeed, length_prefixed};
use crate::side::Side;

/// The version label hashed into every v2 dice key.
pub const DICE_KEY_LABEL_V2: &[u8] = b"baffle-dice-v2";

/// The label hashed into a v2 player commitment.
pub const PLAYER_COMMITMENT_LABEL_V2: &[u8] = b"baffle-player-seed-v2";

/// The shortest player seed a v2 log takes, in bytes: a typed word is refused, the
/// clients make 32 random bytes.
pub const MIN_PLAYER_SEED_V2: usize = 16;

/// A v2 commitment's salt, in bytes: random, fresh for each commitment, so that the
/// commitment hides the seed even from someone who can guess it.
pub const SALT_LEN: usize = 32;

/// Which construction a match log's dice follow: named by its first record
/// (`match.opened`'s `dice`, absent for v1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DiceVersion {
    /// One stream per match, draws in the order the log records them; player seeds
    /// committed with an unsalted hash of the match, side and seed.
    V1,
    /// Dice bound to their [`Position`]; player commitments bind the server's
    /// commitment and a salt; seeds of at least [`MIN_PLAYER_SEED_V2`] bytes.
    #[default]
    V2,
}

impl DiceVersion {
    /// The number `match.opened` names: `None` for v1 (the first logs name none).
    pub fn number(self) -> Option<u8> {
        match self {
            DiceVersion::V1 => None,
            DiceVersion::V2 => Some(2),
        }
    }

    /// The version `match.opened` names, or why it is not one.
    pub fn from_number(n: Option<u8>) -> Result<DiceVersion, String> {
        match n {
            None => Ok(DiceVersion::V1),
            Some(2) => Ok(DiceVersion::V2),
            Some(n) => Err(format!(
                "dice construction {n} is not known (1, written with no number, or 2)"
            )),
        }
    }
}

/// Where a server draw belongs in a match (v2). Games count every opening drawn in the
/// match, from 1; a side's rolls count his `dice.roll` draws in that game, from 1 (the
/// opening is nobody's roll).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Position {
    /// The opening roll of game `game`.
    Opening {
        /// From 1.
        game: u16,
    },
    /// `side`'s `roll`-th roll of game `game`.
    Roll {
        /// From 1.
        game: u16,
        /// Whose.
        side: Side,
        /// From 1.
        roll: u32,
    },
    /// The match's Chess960 position (there is one per match).
    Chess960,
}

impl Position {
    /// The eight bytes that are the position's ChaCha20 nonce: the kind (1 opening, 2 roll,
    /// 3 Chess960), the side (1 A, 2 B, 0 for none), the game (u16 big-endian, 0 for
    /// Chess960) and the roll (u32 big-endian, 0 for none).
    pub fn bytes(self) -> [u8; 8] {
        let (kind, side, game, roll) = match self {
            Position::Opening { game } => (1, 0, game, 0),
            Position::Roll { game, side, roll } => (2, side.index() as u8 + 1, game, roll),
            Position::Chess960 => (3, 0, 0, 0),
        };
        let mut out = [0u8; 8];
        out[0] = kind;
        out[1] = side;
        out[2..4].copy_from_slice(&game.to_be_bytes());
        out[4..8].copy_from_slice(&roll.to_be_bytes());
        out
    }
}

/// The v2 dice key: as v1's ([`super::dice_key`]) under the label `baffle-dice-v2`.
pub fn dice_key_v2(match_id: &str, server: &ServerSeed, seed_a: &[u8], seed_b: &[u8]) -> [u8; 32] {
    super::key_with_label(DICE_KEY_LABEL_V2, match_id, server, seed_a, seed_b)
}

/// A player's v2 commitment: SHA-256 over the length-prefixed label, the server's
/// commitment (32 bytes), the match id, the side letter, the salt and the seed. It binds
/// the server's commitment, so a commitment made to one server's seed cannot stand in a
/// log opened with another; the salt hides even a guessable seed.
pub fn player_commitment_v2(
    server: &Commitment,
    match_id: &str,
    side: Side,
    salt: &[u8],
    seed: &[u8],
) -> [u8; 32] {
    let mut h = Sha256::new();
    let letter = side.to_string();
    for part in [
        PLAYER_COMMITMENT_LABEL_V2,
        &server.0,
        match_id.as_bytes(),
        letter.as_bytes(),
        salt,
        seed,
    ] {
        length_prefixed(&mut h, part);
    }
    h.finalize().into()
}

impl DiceStream {
    /// The stream of `position` under `key` (v2): ChaCha20 with the position's bytes as
    /// its 64-bit nonce, from block 0.
    pub fn at(key: [u8; 32], position: Position) -> DiceStream {
        let mut stream = DiceStream::new(key);
        stream.set_nonce(position.bytes());
        stream
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_have_distinct_bytes() {
        let a = Position::Roll {
            game: 1,
            side: Side::A,
            roll: 1,
        };
        let b = Position::Roll {
            game: 1,
            side: Side::B,
            roll: 1,
        };
        assert_eq!(hex::encode(a.bytes()), "0201000100000001");
        assert_eq!(hex::encode(b.bytes()), "0202000100000001");
        assert_eq!(
            hex::encode(Position::Opening { game: 2 }.bytes()),
            "0100000200000000"
        );
        assert_eq!(hex::encode(Position::Chess960.bytes()), "0300000000000000");
    }

    #[test]
    fn versions_are_named_by_number() {
        assert_eq!(DiceVersion::from_number(None), Ok(DiceVersion::V1));
        assert_eq!(DiceVersion::from_number(Some(2)), Ok(DiceVersion::V2));
        assert!(DiceVersion::from_number(Some(1)).is_err());
        assert_eq!(DiceVersion::V2.number(), Some(2));
    }
}
