//! Live dice (`docs/dice.md`, "Live dice"): each player adds to every draw at the moment
//! it is made, so nobody — the operator who reads the server seed included — can compute
//! a roll before it is asked for.
//!
//! Each player makes a **hash chain**: a secret 32-byte tip, hashed `length` times with
//! [`link_hash`] (bound to the server's commitment, the match and his side). The last
//! value, the **anchor**, is committed at set-up (`dice.chain`); the links are then
//! revealed one per draw, backwards: link 1 hashes to the anchor, link 2 to link 1, and so
//! on. A revealed link cannot be changed (its hash is already public) and the next one
//! cannot be computed from it (a preimage of SHA-256), so a player can only give the link
//! the chain fixed, or withhold it.
//!
//! A draw's dice come from the match's key and the position, as in construction 2, but
//! through a key of the draw's own: [`live_key`] hashes the match's key with both players'
//! links for that draw. The key holds the server seed, which only the operator knows;
//! each link is known only to its player until he gives it.
//!
//! ```
//! use baffle_core::dice::{Commitment, DiceStream, LiveChain, Position, ServerSeed, dice_key_v2, link_hash, live_key};
//! use baffle_core::Side;
//!
//! let server = ServerSeed::from_bytes([7; 32]);
//! let anna = LiveChain::new([1; 32], 100, server.commitment(), "m1", Side::A);
//! let ben = LiveChain::new([2; 32], 100, server.commitment(), "m1", Side::B);
//! // Committed at set-up: the anchors. Revealed one per draw: the links.
//! let (a1, b1) = (anna.link(1).unwrap(), ben.link(1).unwrap());
//! assert_eq!(link_hash(&server.commitment(), "m1", Side::A, &a1), anna.anchor());
//! // The first draw's dice need both links and the server seed.
//! let key = live_key(dice_key_v2("m1", &server, b"", b""), [a1, b1]);
//! let [d1, d2] = DiceStream::at(key, Position::Opening { game: 1 }).roll();
//! assert!((1..=6).contains(&d1) && (1..=6).contains(&d2));
//! ```

use sha2::{Digest, Sha256};

use super::{Commitment, length_prefixed};
use crate::side::Side;

/// The label hashed into every step of a player's chain.
pub const LINK_LABEL: &[u8] = b"baffle-live-link-v1";

/// The label of a live draw's key.
pub const LIVE_DRAW_LABEL: &[u8] = b"baffle-live-draw-v1";

/// The longest chain a player may commit to: 2^20 links, far past any match (a 25-point
/// match draws about a thousand times). A spent chain is followed by a new one.
pub const MAX_CHAIN_LENGTH: u32 = 1 << 20;

/// The chain length the clients make: 4,096 links, more than a 25-point match draws;
/// computing a link from the tip takes at most 4,096 hashes (a few ms in a browser).
pub const DEFAULT_CHAIN_LENGTH: u32 = 4096;

/// One link of a chain: 32 bytes.
pub type Link = [u8; 32];

/// One step of a chain: SHA-256 over the length-prefixed label, the server's commitment,
/// the match id, the side letter and the link. Binding all three means a chain made for
/// one match, side or server seed is worth nothing in another.
pub fn link_hash(server: &Commitment, match_id: &str, side: Side, link: &Link) -> Link {
    let mut h = Sha256::new();
    let letter = side.to_string();
    for part in [
        LINK_LABEL,
        &server.0,
        match_id.as_bytes(),
        letter.as_bytes(),
        link,
    ] {
        length_prefixed(&mut h, part);
    }
    h.finalize().into()
}

/// The key of one live draw: SHA-256 over the length-prefixed label, the match's key
/// (construction 2's, with no player seeds) and the two players' links for the draw, A
/// then B. The draw's stream is this key's at the draw's position.
pub fn live_key(match_key: [u8; 32], links: [Link; 2]) -> [u8; 32] {
    let mut h = Sha256::new();
    for part in [LIVE_DRAW_LABEL, &match_key, &links[0], &links[1]] {
        length_prefixed(&mut h, part);
    }
    h.finalize().into()
}

/// A player's own chain, as his client keeps it: the secret tip and where it is bound.
/// Only his client holds one; the server and the log know the anchor and the links given.
#[derive(Clone)]
pub struct LiveChain {
    tip: Link,
    length: u32,
    server: Commitment,
    match_id: String,
    side: Side,
}

impl std::fmt::Debug for LiveChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LiveChain({} {} of {} links, <secret tip>)",
            self.match_id, self.side, self.length
        )
    }
}

impl LiveChain {
    /// A chain of `length` links (1 to [`MAX_CHAIN_LENGTH`]; clamped) from a secret `tip`
    /// (32 random bytes), bound to the server's commitment, the match and the side.
    pub fn new(
        tip: Link,
        length: u32,
        server: Commitment,
        match_id: &str,
        side: Side,
    ) -> LiveChain {
        LiveChain {
            tip,
            length: length.clamp(1, MAX_CHAIN_LENGTH),
            server,
            match_id: match_id.to_string(),
            side,
        }
    }

    /// How many links the chain has.
    pub fn length(&self) -> u32 {
        self.length
    }

    /// The value `n` steps back from the tip.
    fn back(&self, n: u32) -> Link {
        let mut value = self.tip;
        for _ in 0..n {
            value = link_hash(&self.server, &self.match_id, self.side, &value);
        }
        value
    }

    /// What is committed: the tip hashed `length` times.
    pub fn anchor(&self) -> Link {
        self.back(self.length)
    }

    /// Link `i` (1 to `length`): the one the chain's `i`-th draw takes. It hashes to
    /// link `i − 1` (link 0 is the anchor). `None` past the chain's end.
    pub fn link(&self, i: u32) -> Option<Link> {
        (1..=self.length)
            .contains(&i)
            .then(|| self.back(self.length - i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_link_hashes_to_the_one_before_and_the_first_to_the_anchor() {
        let c = Commitment([9; 32]);
        let chain = LiveChain::new([3; 32], 5, c, "m", Side::B);
        let mut before = chain.anchor();
        for i in 1..=5 {
            let link = chain.link(i).unwrap();
            assert_eq!(link_hash(&c, "m", Side::B, &link), before);
            before = link;
        }
        assert_eq!(chain.link(5), Some([3; 32]), "the last link is the tip");
        assert_eq!((chain.link(0), chain.link(6)), (None, None));
    }

    #[test]
    fn a_chain_is_bound_to_its_match_side_and_server_commitment() {
        let link = [4; 32];
        let c = Commitment([1; 32]);
        let base = link_hash(&c, "m", Side::A, &link);
        assert_ne!(base, link_hash(&c, "m", Side::B, &link));
        assert_ne!(base, link_hash(&c, "n", Side::A, &link));
        assert_ne!(base, link_hash(&Commitment([2; 32]), "m", Side::A, &link));
    }
}
