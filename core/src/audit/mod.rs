//! A tamper-evident audit chain.
//!
//! Each match is an append-only list of [`Record`]s. A record holds its sequence number,
//! the hash of the record before it, and a body: the exact bytes of the event, stored as
//! they were hashed (protobuf encodings are not canonical, so the hash is never computed
//! over a re-encoding). The hash of the newest record — the *head* — goes out with every
//! update, so each follower is a witness: changing, dropping, reordering or inserting a
//! record changes every hash after it.
//!
//! Bodies are compact JSON objects with a `kind` field. This module knows the dice
//! entries ([`Entry`]); every kind a match log holds is typed in
//! [`crate::table::Body`]; a stored or exported log's lines become records only through
//! the [`Reader`], and a table is rebuilt from records only through
//! [`crate::table::Replay`]. [`export`] writes the chain as JSON Lines and [`verify`]
//! checks such a file offline by replaying it: the chain, each body, the game's rules,
//! and every die played against the die drawn. `docs/audit-log.md` is the
//! specification.
//!
//! ```
//! use baffle_core::audit::Chain;
//! use baffle_core::backgammon::{Command, MatchSetup};
//! use baffle_core::dice::ServerSeed;
//! use baffle_core::table::{GameSetup, MatchInfo, Request, Table};
//! use baffle_core::{Side, Timestamp};
//!
//! let info = MatchInfo { id: "m1".into(), tournament: "t".into(), round: 1, table: "1".into() };
//! let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 1, Timestamp(0)));
//! let (mut table, records) = Table::create(info, setup, ServerSeed::from_bytes([3; 32])).unwrap();
//! let mut chain = Chain::new();
//! records.into_iter().for_each(|r| { chain.append(r.body); });
//! for request in [
//!     Request::Backgammon(Command::CheckIn { side: Side::A }),
//!     Request::Backgammon(Command::CheckIn { side: Side::B }),
//!     Request::ServerOpening,
//! ] {
//!     let plan = table.plan(&request, Timestamp(1_000)).unwrap();
//!     plan.records.into_iter().for_each(|r| { chain.append(r.body); });
//!     table = plan.table;
//! }
//! assert_eq!(chain.head(), table.head());
//!
//! let file = baffle_core::audit::export::to_jsonl(chain.records());
//! let report = baffle_core::audit::verify::verify_jsonl(&file, Some(chain.head()));
//! assert!(report.is_ok(), "{report}");
//! assert!(!report.revealed); // the opening roll is recomputed once the seed is revealed
//! ```

pub mod export;
pub mod reader;
pub mod signed_head;
pub mod verify;

pub use reader::{ReadError, Reader};

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::side::Side;

/// Domain label hashed in front of every record.
pub const RECORD_LABEL: &[u8] = b"baffle-audit-v1";

/// A SHA-256 hash, shown as lowercase hex.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hash(pub [u8; 32]);

impl Hash {
    /// The `prev` of the first record: 32 zero bytes.
    pub const GENESIS: Hash = Hash([0; 32]);

    /// Parses 64 lowercase hex digits: one spelling per hash, so a file cannot be
    /// changed without changing what it says.
    pub fn from_hex(s: &str) -> Option<Hash> {
        Some(Hash(lower_hex(s)?.try_into().ok()?))
    }
}

/// Decodes lower-case hex only: one spelling per value, as everything in a log is
/// spelled. `None` for upper case, other characters or an odd length.
pub fn lower_hex(s: &str) -> Option<Vec<u8>> {
    if !s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    hex::decode(s).ok()
}

/// [`lower_hex`], or an error naming `what` is not.
pub fn strict_hex(s: &str, what: &str) -> Result<Vec<u8>, String> {
    lower_hex(s).ok_or_else(|| format!("{what} is not lower-case hex"))
}

/// [`strict_hex`] of exactly 32 bytes (a seed, a commitment, a chain's anchor or link),
/// or an error naming `what`.
pub fn strict_hex32(s: &str, what: &str) -> Result<[u8; 32], String> {
    strict_hex(s, what)?
        .try_into()
        .map_err(|_| format!("{what} is not 32 bytes"))
}

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

impl fmt::Debug for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash({self})")
    }
}

/// One stored event with its place in the chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Position in the match log, from 0.
    pub seq: u64,
    /// Hash of the record before ([`Hash::GENESIS`] for the first).
    pub prev: Hash,
    /// The exact bytes that were hashed: a compact JSON object with a `kind` field.
    pub body: String,
    /// `record_hash(seq, prev, body)`.
    pub hash: Hash,
}

/// SHA-256 over the label, `seq` (8 bytes big-endian), `prev` (32 bytes), the body's length
/// (8 bytes big-endian) and the body's bytes.
pub fn record_hash(seq: u64, prev: &Hash, body: &[u8]) -> Hash {
    let mut h = Sha256::new();
    h.update(RECORD_LABEL);
    h.update(seq.to_be_bytes());
    h.update(prev.0);
    h.update((body.len() as u64).to_be_bytes());
    h.update(body);
    Hash(h.finalize().into())
}

impl Record {
    /// The record that follows `prev_record` (or starts a chain) with `body`.
    pub fn next(prev_record: Option<&Record>, body: String) -> Record {
        let (seq, prev) = prev_record.map_or((0, Hash::GENESIS), |r| (r.seq + 1, r.hash));
        let hash = record_hash(seq, &prev, body.as_bytes());
        Record {
            seq,
            prev,
            body,
            hash,
        }
    }
}

/// An in-memory chain: records in order and the head.
#[derive(Clone, Debug, Default)]
pub struct Chain {
    records: Vec<Record>,
}

impl Chain {
    /// An empty chain.
    pub fn new() -> Chain {
        Chain::default()
    }

    /// Appends `body` and returns the new record.
    pub fn append(&mut self, body: String) -> &Record {
        let record = Record::next(self.records.last(), body);
        self.records.push(record);
        self.records.last().expect("just pushed")
    }

    /// The records, oldest first.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The hash of the newest record, or [`Hash::GENESIS`] when empty.
    pub fn head(&self) -> Hash {
        self.records.last().map_or(Hash::GENESIS, |r| r.hash)
    }
}

/// The audit entries about dice. Each is a record body with its `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Entry {
    /// The first record of every match: its id and the dice commitment.
    #[serde(rename = "match.opened")]
    MatchOpened {
        /// The match id, hashed into the dice key.
        match_id: String,
        /// SHA-256 of the server seed, hex.
        commitment: String,
        /// The dice construction (`docs/dice.md`): 2, or absent for the first logs' (v1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dice: Option<u8>,
        /// The Ed25519 public key (64 lower-case hex digits) that signs this match's
        /// heads ([`signed_head`]); absent in logs written before heads were signed, so
        /// that they keep their one spelling.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signer: Option<String>,
    },
    /// A player's seed, hex; only before the first server draw.
    #[serde(rename = "dice.player_seed")]
    PlayerSeed {
        /// Whose.
        side: Side,
        /// The seed's bytes, hex.
        seed: String,
    },
    /// A player's commitment to his seed (`dice::player_commitment`), before any draw.
    #[serde(rename = "dice.player_commit")]
    PlayerCommit {
        /// Whose.
        side: Side,
        /// The commitment, hex.
        commitment: String,
    },
    /// A player's seed, revealed once both players committed; it goes into the key.
    #[serde(rename = "dice.player_reveal")]
    PlayerReveal {
        /// Whose.
        side: Side,
        /// The seed's bytes, hex.
        seed: String,
        /// The commitment's salt, hex (v2 logs; absent in v1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt: Option<String>,
    },
    /// Both players committed: their reveals are due by `by` (ms on the server's time
    /// line). Recorded with the second commitment (the tournament's reveal window), and
    /// again when the director extends it, with his reason and article.
    #[serde(rename = "dice.reveal_due")]
    RevealDue {
        /// The deadline, ms.
        by: i64,
        /// The director's reason for an extension (absent for the first deadline).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// The article he applied (with `reason`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        article: Option<String>,
    },
    /// Two server dice for `side`.
    #[serde(rename = "dice.roll")]
    Roll {
        /// Whose.
        side: Side,
        /// The dice.
        dice: [u8; 2],
        /// The game, from 1 (v2: the roll's position; absent in v1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<u16>,
        /// Which of `side`'s rolls in the game, from 1 (v2; absent in v1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
    },
    /// A roll asked for by `side` before the opponent pressed (4.1 (v)(a): it stands):
    /// nothing is drawn until the opponent's turn ends, so nobody sees the dice early.
    #[serde(rename = "dice.roll_queued")]
    RollQueued {
        /// Who asked.
        side: Side,
    },
    /// A server opening roll: `[A, B]` throws until they differ.
    #[serde(rename = "dice.opening")]
    Opening {
        /// Every throw, the last one deciding.
        throws: Vec<[u8; 2]>,
        /// The game it opens, from 1 (v2: its position; absent in v1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<u16>,
    },
    /// A server-drawn Chess960 position number.
    #[serde(rename = "dice.chess960")]
    Chess960 {
        /// 0 to 959.
        sp: u16,
    },
    /// Physically rolled dice reported to the server (not recomputable; checked for
    /// range and turn, and watched statistically).
    #[serde(rename = "dice.reported")]
    Reported {
        /// Whose.
        side: Side,
        /// The dice as reported.
        dice: [u8; 2],
    },
    /// The server seed, revealed after the match.
    #[serde(rename = "dice.reveal")]
    Reveal {
        /// The 32 seed bytes, hex.
        server_seed: String,
    },
    /// Live dice: `side` commits to a hash chain (`dice::LiveChain`): its anchor and how
    /// many links it has. At set-up, and again once a chain is spent.
    #[serde(rename = "dice.chain")]
    ChainCommit {
        /// Whose.
        side: Side,
        /// The chain's anchor, hex (32 bytes).
        anchor: String,
        /// How many links it has.
        length: u32,
    },
    /// Live dice: a draw is asked for — `side`'s roll, or with no side the opening — and
    /// waits for both players' links, due by `due` (ms; `at` plus the link window).
    #[serde(rename = "dice.asked")]
    Asked {
        /// Whose roll; absent for an opening.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
        /// When it was asked for, ms on the server's time line.
        at: i64,
        /// When the links are due, ms.
        due: i64,
    },
    /// Live dice: `side`'s link for the draw in waiting, hex (32 bytes).
    #[serde(rename = "dice.link")]
    Link {
        /// Whose.
        side: Side,
        /// The link: it hashes to the last value of his chain made public.
        link: String,
    },
    /// Live dice: the director gives the players until `by` to give their links.
    #[serde(rename = "dice.link_due")]
    LinkDue {
        /// The new deadline, ms: later than the one in force.
        by: i64,
        /// His reason.
        reason: String,
        /// The article he applies.
        article: String,
    },
}

impl Entry {
    /// The `kind` of each entry.
    pub const KINDS: [&'static str; 15] = [
        "match.opened",
        "dice.player_seed",
        "dice.player_commit",
        "dice.player_reveal",
        "dice.reveal_due",
        "dice.roll",
        "dice.roll_queued",
        "dice.opening",
        "dice.chess960",
        "dice.reported",
        "dice.reveal",
        "dice.chain",
        "dice.asked",
        "dice.link",
        "dice.link_due",
    ];

    /// The entry as a record body: compact JSON, fields in declaration order.
    pub fn body(&self) -> String {
        serde_json::to_string(self).expect("entries always serialize")
    }
}

/// The `kind` of a record body. Most bodies are written with `kind` first, so it is read
/// from the first bytes without parsing the whole body (every update and every replayed
/// record asks); any other shape is parsed.
pub fn kind_of(body: &str) -> Option<String> {
    if let Some(rest) = body.strip_prefix(r#"{"kind":""#)
        && let Some(end) = rest.find('"')
        && !rest[..end].contains('\\')
    {
        return Some(rest[..end].to_string());
    }
    serde_json::from_str::<serde_json::Value>(body)
        .ok()?
        .get("kind")?
        .as_str()
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::kind_of;

    #[test]
    fn the_kind_is_read_from_the_first_bytes_or_by_parsing() {
        assert_eq!(
            kind_of(r#"{"kind":"bg.pressed","side":"A"}"#).as_deref(),
            Some("bg.pressed")
        );
        // Not first, or escaped: parsed properly.
        assert_eq!(
            kind_of(r#"{"side":"A","kind":"bg.pressed"}"#).as_deref(),
            Some("bg.pressed")
        );
        assert_eq!(kind_of(r#"{"kind":"a\"b"}"#).as_deref(), Some("a\"b"));
        assert_eq!(kind_of("not json"), None);
    }
}
