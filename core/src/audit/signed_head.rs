//! Signed heads: what a follower can show to someone else.
//!
//! A head hash alone proves something only to the follower who saw it: he knows the log
//! must pass through it, but nobody else has to believe he saw it. So the server signs
//! every head it sends out, with an Ed25519 key of its own whose public half the log
//! names in its first record (`match.opened`'s `signer`). A follower who keeps the signed
//! heads he saw — a *witness* — can then show anyone:
//!
//! - that a log given out later is not the history the server showed him (the log does
//!   not pass through a head the server signed, or is shorter than one), and
//! - when he holds two heads the server signed for the same match and the same length
//!   that differ, that the server signed two histories: an [`Equivocation`], which anyone
//!   checks with the public key alone.
//!
//! The signed statement, byte for byte (`docs/audit-log.md`, "Signed heads and
//! witnesses"), with `LP(x) = u32_be(len(x)) || x`:
//!
//! ```text
//! LP("baffle-head-v1") || LP(match_id as UTF-8) || u64_be(length) || head (32 raw bytes)
//! ```
//!
//! where `length` is the number of records in the log and `head` the hash of record
//! `length − 1`. A witness file is JSON Lines, one [`SignedHead`] a line
//! (`{"match_id":…,"length":…,"head":…,"signature":…,"signer":…}`, hex in lower case).
//! This module only checks; the server signs with the same [`statement`].

use ed25519_dalek::{Signature, VerifyingKey};
use serde::{Deserialize, Serialize};

use super::{Hash, lower_hex};

/// The label that starts every signed statement, so that a signature over a head can
/// never be read as a signature over anything else.
pub const HEAD_LABEL: &str = "baffle-head-v1";

/// The bytes the server signs for the head `head` of a log of `length` records of
/// `match_id`.
pub fn statement(match_id: &str, length: u64, head: &Hash) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + HEAD_LABEL.len() + 4 + match_id.len() + 8 + 32);
    for part in [HEAD_LABEL.as_bytes(), match_id.as_bytes()] {
        // An id or label over 4 GiB cannot exist (ids are at most 40 characters).
        let len = u32::try_from(part.len()).unwrap_or(u32::MAX);
        bytes.extend_from_slice(&len.to_be_bytes());
        bytes.extend_from_slice(part);
    }
    bytes.extend_from_slice(&length.to_be_bytes());
    bytes.extend_from_slice(&head.0);
    bytes
}

/// A head as the server signed it: one line of a witness file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedHead {
    /// The match.
    pub match_id: String,
    /// Records in the log at this head.
    pub length: u64,
    /// The hash of record `length − 1`.
    pub head: Hash,
    /// The Ed25519 signature over [`statement`].
    pub signature: [u8; 64],
    /// The public key that signed.
    pub signer: [u8; 32],
}

/// A witness file's line as written: every value a string but the length.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    match_id: String,
    length: u64,
    head: String,
    signature: String,
    signer: String,
}

impl SignedHead {
    /// Reads the signed head from its parts as the wire or a witness file spell them
    /// (lower-case hex); an error names the part that is wrong. The signature is not
    /// checked here: see [`SignedHead::check`].
    pub fn from_hex(
        match_id: &str,
        length: u64,
        head: &str,
        signature: &str,
        signer: &str,
    ) -> Result<SignedHead, String> {
        let fixed = |text: &str, what: &str, bytes: usize| {
            lower_hex(text)
                .filter(|b| b.len() == bytes)
                .ok_or_else(|| format!("{what} is not {} lower-case hex digits", bytes * 2))
        };
        let head = Hash(to_array(fixed(head, "the head", 32)?));
        Ok(SignedHead {
            match_id: match_id.to_string(),
            length,
            head,
            signature: to_array(fixed(signature, "the signature", 64)?),
            signer: to_array(fixed(signer, "the signer", 32)?),
        })
    }

    /// The signer as the log's `match.opened` spells it.
    pub fn signer_hex(&self) -> String {
        hex::encode(self.signer)
    }

    /// Whether the signature is the signer's over this head: an error in words if not.
    pub fn check(&self) -> Result<(), String> {
        let key = VerifyingKey::from_bytes(&self.signer)
            .map_err(|_| format!("the signer {} is not an Ed25519 key", self.signer_hex()))?;
        let signature = Signature::from_bytes(&self.signature);
        key.verify_strict(
            &statement(&self.match_id, self.length, &self.head),
            &signature,
        )
        .map_err(|_| {
            format!(
                "the signature on the head at length {} of match {} is not {}'s: the \
                 statement was altered, or never signed",
                self.length,
                self.match_id,
                self.signer_hex()
            )
        })
    }

    /// The witness file's line (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(&Line {
            match_id: self.match_id.clone(),
            length: self.length,
            head: self.head.to_string(),
            signature: hex::encode(self.signature),
            signer: self.signer_hex(),
        })
        .expect("strings and a number always serialize")
    }

    /// Reads one witness line.
    pub fn parse_line(text: &str) -> Result<SignedHead, String> {
        let line: Line = serde_json::from_str(text).map_err(|e| {
            format!(
                "not a signed head ({{\"match_id\":…,\"length\":…,\"head\":…,\"signature\":…,\"signer\":…}}): {e}"
            )
        })?;
        SignedHead::from_hex(
            &line.match_id,
            line.length,
            &line.head,
            &line.signature,
            &line.signer,
        )
    }
}

fn to_array<const N: usize>(bytes: Vec<u8>) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[..N]);
    out
}

/// Reads a witness file: one signed head a line, empty lines ignored. An error names the
/// line. Signatures are not checked here.
pub fn read_witness(text: &str) -> Result<Vec<SignedHead>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| SignedHead::parse_line(line).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// Two heads one key signed for the same match and the same length that differ: the
/// server signed two histories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equivocation {
    /// One signed head.
    pub first: SignedHead,
    /// The other: same match, signer and length, another head.
    pub second: SignedHead,
}

impl Equivocation {
    /// Whether `first` and `second` prove it: both signatures valid, same match, signer
    /// and length, different heads. An error says which condition fails.
    pub fn check(&self) -> Result<(), String> {
        let (a, b) = (&self.first, &self.second);
        if a.match_id != b.match_id {
            return Err(format!(
                "the two heads are of different matches ({} and {})",
                a.match_id, b.match_id
            ));
        }
        if a.signer != b.signer {
            return Err("the two heads were signed by different keys".into());
        }
        if a.length != b.length {
            return Err(format!(
                "the two heads are at different lengths ({} and {})",
                a.length, b.length
            ));
        }
        if a.head == b.head {
            return Err("the two heads are the same: one history".into());
        }
        a.check()?;
        b.check()
    }

    /// The proof as a file anyone can check (`baffle audit check-proof`): the two signed
    /// statements, one a line.
    pub fn to_text(&self) -> String {
        format!("{}\n{}\n", self.first.to_line(), self.second.to_line())
    }
}

impl std::fmt::Display for Equivocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server signed two histories: key {} signed, for match {} at length {}, \
             both head {} and head {}",
            self.first.signer_hex(),
            self.first.match_id,
            self.first.length,
            self.first.head,
            self.second.head
        )
    }
}

/// The first pair of validly signed heads among `heads` that proves two histories.
pub fn find_equivocation(heads: &[SignedHead]) -> Option<Equivocation> {
    heads.iter().enumerate().find_map(|(i, a)| {
        heads[i + 1..].iter().find_map(|b| {
            let pair = Equivocation {
                first: a.clone(),
                second: b.clone(),
            };
            pair.check().is_ok().then_some(pair)
        })
    })
}

/// Checks a proof file (two or more signed heads, one a line): `Ok` with the pair that
/// proves the server signed two histories, or why the file proves nothing.
pub fn check_proof(text: &str) -> Result<Equivocation, String> {
    let heads = read_witness(text)?;
    if heads.len() < 2 {
        return Err(format!(
            "a proof is two signed heads, one a line; this file has {}",
            heads.len()
        ));
    }
    if let Some(proof) = find_equivocation(&heads) {
        return Ok(proof);
    }
    // Say why the first two do not prove it: the likeliest reading of a two-line proof.
    let first_two = Equivocation {
        first: heads[0].clone(),
        second: heads[1].clone(),
    };
    Err(match first_two.check() {
        Err(why) => why,
        Ok(()) => "no two of these heads prove two histories".into(),
    })
}
