//! Dice nobody can choose: commit–reveal with player seeds.
//!
//! Per match the server draws a secret 32-byte [`ServerSeed`] (from the OS RNG — the
//! server does that; this crate does no I/O) and publishes its SHA-256 [`Commitment`]
//! before the first roll. Each player may add a seed of his own until the first roll.
//! The [`dice_key`] hashes a version label, the match id, the server seed and both player
//! seeds, each length-prefixed so no two inputs collide. The dice come from
//! `rand_chacha::ChaCha20Rng` seeded with that key ([`DiceStream`]): one die per
//! `next_u32`, values ≥ 4294967292 rejected, die = x % 6 + 1. After the match the server
//! seed is revealed and anyone can recompute every roll. `docs/dice.md` is the byte-level
//! specification with test vectors.
//!
//! A match's dice as its log records them — seeds closing at the first draw, nothing
//! drawn after the reveal — are [`crate::table::TableDice`].
//!
//! ```
//! use baffle_core::dice::{DiceStream, ServerSeed, dice_key};
//!
//! let seed = ServerSeed::from_bytes([7; 32]);
//! let commitment = seed.commitment(); // published before the first roll
//! let key = dice_key("open-r1-t7", &seed, b"anna's lucky words", b"");
//! let mut stream = DiceStream::new(key);
//! let opening = stream.opening();
//! assert!(opening.first_player().is_some());
//! let [a, b] = stream.roll();
//! assert!((1..=6).contains(&a) && (1..=6).contains(&b));
//! // After the match the seed is revealed and anyone can check it and redo the draws.
//! assert_eq!(seed.commitment(), commitment);
//! ```

use std::fmt;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::side::Side;

mod live;
mod position;

pub use live::{
    DEFAULT_CHAIN_LENGTH, LINK_LABEL, LIVE_DRAW_LABEL, Link, LiveChain, MAX_CHAIN_LENGTH,
    link_hash, live_key,
};

pub use position::{
    DICE_KEY_LABEL_V2, DiceVersion, MIN_PLAYER_SEED_V2, PLAYER_COMMITMENT_LABEL_V2, Position,
    SALT_LEN, dice_key_v2, player_commitment_v2,
};

/// The version label hashed into every v1 dice key. A new construction gets a new label.
pub const DICE_KEY_LABEL: &[u8] = b"baffle-dice-v1";

/// The longest player seed accepted, in bytes.
pub const MAX_PLAYER_SEED: usize = 64;

/// The server's secret per-match seed. Its `Debug` output does not show the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerSeed([u8; 32]);

impl ServerSeed {
    /// A seed from 32 bytes (the server takes them from the OS RNG).
    pub const fn from_bytes(bytes: [u8; 32]) -> ServerSeed {
        ServerSeed(bytes)
    }

    /// The seed's bytes: reveal them only after the match.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// SHA-256 of the 32 seed bytes: what is published before the first roll.
    pub fn commitment(&self) -> Commitment {
        Commitment(Sha256::digest(self.0).into())
    }
}

impl fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ServerSeed(<secret>)")
    }
}

/// SHA-256 of a server seed, published before the first roll.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Commitment(pub [u8; 32]);

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({self})")
    }
}

/// Appends `bytes` with a 4-byte big-endian length prefix.
pub(crate) fn length_prefixed(hasher: &mut Sha256, bytes: &[u8]) {
    let len = u32::try_from(bytes.len()).expect("inputs are far below 4 GiB");
    hasher.update(len.to_be_bytes());
    hasher.update(bytes);
}

/// The v1 dice key: SHA-256 over the length-prefixed label, match id, server seed and
/// the two player seeds (empty when a player added none).
pub fn dice_key(match_id: &str, server: &ServerSeed, seed_a: &[u8], seed_b: &[u8]) -> [u8; 32] {
    key_with_label(DICE_KEY_LABEL, match_id, server, seed_a, seed_b)
}

/// The key of either construction: they differ only in the label.
fn key_with_label(
    label: &[u8],
    match_id: &str,
    server: &ServerSeed,
    seed_a: &[u8],
    seed_b: &[u8],
) -> [u8; 32] {
    let mut h = Sha256::new();
    for part in [label, match_id.as_bytes(), &server.0, seed_a, seed_b] {
        length_prefixed(&mut h, part);
    }
    h.finalize().into()
}

/// The label hashed into a player's seed commitment.
pub const PLAYER_COMMITMENT_LABEL: &[u8] = b"baffle-player-seed-v1";

/// A player's commitment to his seed: SHA-256 over the length-prefixed label, match id,
/// side letter and seed. Binding the match and the side means a commitment cannot be
/// copied from the other player or another match.
pub fn player_commitment(match_id: &str, side: Side, seed: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    let letter = side.to_string();
    for part in [
        PLAYER_COMMITMENT_LABEL,
        match_id.as_bytes(),
        letter.as_bytes(),
        seed,
    ] {
        length_prefixed(&mut h, part);
    }
    h.finalize().into()
}

/// Whether the players' seeds are needed before the first draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeedPolicy {
    /// The players may commit to seeds; without them the dice are the server's alone.
    #[default]
    Optional,
    /// No draw until both players have committed to and revealed their seeds.
    Required,
    /// Live dice: no player seeds; each player commits to a hash chain and every draw
    /// takes a link of each, given at the moment of the draw (`live.rs`).
    Live,
}

impl SeedPolicy {
    /// True for the default, [`SeedPolicy::Optional`].
    pub fn is_optional(&self) -> bool {
        *self == SeedPolicy::Optional
    }
}

/// Two dice, as rolled.
pub type Roll = [u8; 2];

/// An opening roll: one die each, thrown again while equal (backgammon §3).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OpeningRoll {
    /// Every throw, `[A's die, B's die]`; all but the last are ties.
    pub throws: Vec<Roll>,
}

impl OpeningRoll {
    /// The deciding throw.
    pub fn last(&self) -> Option<Roll> {
        self.throws.last().copied()
    }

    /// Who plays first (the higher die), if the throws ended in a decision.
    pub fn first_player(&self) -> Option<Side> {
        let [a, b] = self.last()?;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Side::A),
            std::cmp::Ordering::Less => Some(Side::B),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// The stream of draws from a dice key. Every draw is defined on the sequence of
/// `next_u32` outputs, so an independent verifier needs only ChaCha20.
#[derive(Clone, Debug)]
pub struct DiceStream {
    rng: ChaCha20Rng,
    words: u64,
}

impl DiceStream {
    /// The stream of `key`: ChaCha20 (20 rounds), stream 0, starting at block 0.
    pub fn new(key: [u8; 32]) -> DiceStream {
        DiceStream {
            rng: ChaCha20Rng::from_seed(key),
            words: 0,
        }
    }

    /// Moves to the ChaCha20 stream with this 64-bit nonce, at its start (v2 positions).
    /// `rand_chacha` keeps the nonce as one little-endian 64-bit number, so the bytes are
    /// read that way: the keystream is RFC 8439's with the nonce `00 00 00 00 ‖ nonce`.
    fn set_nonce(&mut self, nonce: [u8; 8]) {
        self.rng.set_stream(u64::from_le_bytes(nonce));
        self.rng.set_word_pos(0);
        self.words = 0;
    }

    /// The next raw 32-bit output.
    pub fn next_word(&mut self) -> u32 {
        self.words += 1;
        self.rng.next_u32()
    }

    /// How many raw outputs were used so far (rejected ones included).
    pub fn words_used(&self) -> u64 {
        self.words
    }

    /// A uniform value in `0..n` by rejection: outputs at or above the largest multiple
    /// of `n` that fits in 2^32 are thrown away, the rest are taken modulo `n`.
    /// (`rand`'s range sampling is deliberately not used: its algorithm may change.)
    pub fn uniform(&mut self, n: u32) -> u32 {
        assert!(n > 0, "uniform(0) has no values");
        let limit = (1u64 << 32) - (1u64 << 32) % u64::from(n);
        loop {
            let x = self.next_word();
            if u64::from(x) < limit {
                return x % n;
            }
        }
    }

    /// One die, 1 to 6 (outputs ≥ 4294967292 rejected).
    pub fn die(&mut self) -> u8 {
        self.uniform(6) as u8 + 1
    }

    /// Two dice.
    pub fn roll(&mut self) -> Roll {
        [self.die(), self.die()]
    }

    /// An opening roll: a die for A, then for B, again while they are equal.
    pub fn opening(&mut self) -> OpeningRoll {
        let mut throws = Vec::new();
        loop {
            let throw = [self.die(), self.die()];
            throws.push(throw);
            if throw[0] != throw[1] {
                return OpeningRoll { throws };
            }
        }
    }

    /// A Chess960 starting position number, 0 to 959 (SP 518 is the classical position).
    pub fn chess960(&mut self) -> u16 {
        self.uniform(960) as u16
    }
}

/// White's back rank, files a to h, of Chess960 position `sp` in the standard numbering
/// (Scharnagl): SP 518 is `RNBQKBNR`. Black mirrors it.
pub fn chess960_back_rank(sp: u16) -> Option<[char; 8]> {
    if sp >= 960 {
        return None;
    }
    let mut rank = [' '; 8];
    let mut n = usize::from(sp);
    rank[2 * (n % 4) + 1] = 'B'; // light-squared bishop: b, d, f or h
    n /= 4;
    rank[2 * (n % 4)] = 'B'; // dark-squared bishop: a, c, e or g
    n /= 4;
    let place = |rank: &mut [char; 8], nth_empty: usize, piece: char| {
        let file = (0..8)
            .filter(|&f| rank[f] == ' ')
            .nth(nth_empty)
            .expect("enough empty squares");
        rank[file] = piece;
    };
    place(&mut rank, n % 6, 'Q');
    n /= 6;
    // The ten ways to put two knights on the five empty squares, in the standard order.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (k1, k2) = KNIGHTS[n];
    place(&mut rank, k2, 'N');
    place(&mut rank, k1, 'N');
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, 0, piece);
    }
    Some(rank)
}

/// Why a dice operation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiceError {
    /// The first roll was made: seeds are closed.
    SeedsClosed,
    /// The player already added a seed.
    SeedAlreadyAdded(Side),
    /// The seed is shorter than the construction's least (1 byte in v1,
    /// [`MIN_PLAYER_SEED_V2`] in v2) or longer than [`MAX_PLAYER_SEED`]: the least, and
    /// the length given.
    SeedLength(usize, usize),
    /// A v2 draw has no place (a roll before its game's opening, or a count past its
    /// bound).
    Unplaced(String),
    /// A v2 salt is not [`SALT_LEN`] bytes.
    SaltLength(usize),
    /// A seed given in the clear, where only commitments are taken (v2 logs).
    ClearSeed,
    /// The server seed was revealed: its dice are public now.
    Revealed,
    /// Both players committed to a seed, and this one has not revealed his yet: no draw
    /// until he does.
    RevealPending(Side),
    /// The other player committed to a seed and this one has not (construction 2): no
    /// draw until he has committed and both have revealed.
    CommitPending(Side),
    /// A reveal before both players committed, or from a player who did not commit.
    NotCommitted(Side),
    /// The revealed seed does not hash to the player's commitment.
    RevealMismatch(Side),
    /// A seed given in the clear where the players commit (or the reverse).
    MixedSeeds,
    /// The tournament requires both players' seeds before the first draw.
    SeedsRequired(Side),
    /// Live dice: this player has not committed to his chain, so nothing is drawn.
    ChainPending(Side),
    /// Live dice: the draw waits for this player's link.
    LinkPending(Side),
    /// Live dice: nothing was asked for, so no draw is waiting for links.
    NothingAsked,
    /// Live dice: this player already gave his link for the draw in waiting.
    LinkGiven(Side),
    /// Live dice: the link does not hash to the last public value of the player's chain.
    LinkMismatch(Side),
    /// A player seed in a match with live dice, or a chain in one without.
    NotLive(bool),
}

impl fmt::Display for DiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiceError::SeedsClosed => {
                write!(
                    f,
                    "player seeds are accepted only until the first roll of the match"
                )
            }
            DiceError::SeedAlreadyAdded(side) => write!(f, "player {side} already added a seed"),
            DiceError::SeedLength(least, n) => write!(
                f,
                "a player seed has {least} to {MAX_PLAYER_SEED} bytes, not {n} \
                 (a typed word is too easy to guess: let the client make 32 random bytes)"
            ),
            DiceError::Unplaced(why) => write!(f, "no draw: {why}"),
            DiceError::SaltLength(n) => {
                write!(f, "a player's salt has {SALT_LEN} bytes, not {n}")
            }
            DiceError::ClearSeed => write!(
                f,
                "a seed given in the clear could be chosen knowing the other player's: \
                 players commit to a seed and reveal it once both have committed \
                 (baffle audit commit, then baffle audit reveal-seed)"
            ),
            DiceError::Revealed => write!(
                f,
                "the server seed was revealed, so its dice are public: no more server dice for this match"
            ),
            DiceError::RevealPending(side) => write!(
                f,
                "both players committed to a seed: no dice until player {side} reveals his"
            ),
            DiceError::CommitPending(side) => write!(
                f,
                "a player committed to a seed: no dice until player {side} commits to his \
                 and both reveal (both seeds go into the dice), or the director rules"
            ),
            DiceError::NotCommitted(side) => write!(
                f,
                "player {side}'s seed is revealed only after both players committed to theirs"
            ),
            DiceError::RevealMismatch(side) => write!(
                f,
                "player {side}'s revealed seed does not match his commitment"
            ),
            DiceError::SeedsRequired(side) => write!(
                f,
                "this tournament requires both players' seeds before the first roll: \
                 player {side} has not committed to and revealed his"
            ),
            DiceError::ChainPending(side) => write!(
                f,
                "live dice: no dice until player {side} commits to his chain (his phone page \
                 or `baffle live join` does it)"
            ),
            DiceError::LinkPending(side) => write!(
                f,
                "live dice: the draw waits for player {side}'s link (his client gives it by \
                 itself; past the deadline he forfeits unless the director rules otherwise)"
            ),
            DiceError::NothingAsked => write!(
                f,
                "live dice: no draw is waiting for a link (a link is given only once its roll \
                 is asked for)"
            ),
            DiceError::LinkGiven(side) => write!(
                f,
                "live dice: player {side} already gave his link for this draw"
            ),
            DiceError::LinkMismatch(side) => write!(
                f,
                "live dice: that is not player {side}'s next link (it does not hash to the \
                 last one he gave, or to his anchor)"
            ),
            DiceError::NotLive(true) => write!(
                f,
                "this match has live dice: players commit to a chain, not a seed"
            ),
            DiceError::NotLive(false) => write!(
                f,
                "this match does not have live dice: there is no chain to commit to"
            ),
            DiceError::MixedSeeds => write!(
                f,
                "in one match seeds are either committed and revealed, or given in the clear"
            ),
        }
    }
}

impl std::error::Error for DiceError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_numbering_matches_the_standard() {
        let rank = |sp| chess960_back_rank(sp).unwrap().iter().collect::<String>();
        assert_eq!(rank(518), "RNBQKBNR");
        assert_eq!(rank(0), "BBQNNRKR");
        assert_eq!(rank(959), "RKRNNQBB");
        assert_eq!(chess960_back_rank(960), None);
        // Every position is legal: bishops on opposite colours, king between the rooks.
        for sp in 0..960 {
            let r = chess960_back_rank(sp).unwrap();
            let files = |p: char| (0..8).filter(|&f| r[f] == p).collect::<Vec<_>>();
            let (b, rooks, k) = (files('B'), files('R'), files('K'));
            assert_eq!(b.len(), 2);
            assert_ne!(b[0] % 2, b[1] % 2, "SP {sp}");
            assert!(rooks[0] < k[0] && k[0] < rooks[1], "SP {sp}");
            assert_eq!((files('Q').len(), files('N').len()), (1, 2));
        }
    }

    #[test]
    fn rejection_thresholds() {
        // 2^32 mod 6 = 4, so the dice reject x >= 4294967292; 2^32 mod 960 = 256.
        assert_eq!((1u64 << 32) - (1u64 << 32) % 6, 4_294_967_292);
        assert_eq!((1u64 << 32) - (1u64 << 32) % 960, 4_294_967_040);
    }

    #[test]
    fn the_key_separates_its_inputs() {
        let s = ServerSeed::from_bytes([1; 32]);
        // Moving a byte from one seed to the other changes the key (length prefixes).
        assert_ne!(
            dice_key("m", &s, b"ab", b"c"),
            dice_key("m", &s, b"a", b"bc")
        );
        assert_ne!(dice_key("m", &s, b"", b"x"), dice_key("m", &s, b"x", b""));
        assert_ne!(dice_key("m1", &s, b"", b""), dice_key("m2", &s, b"", b""));
    }
}
