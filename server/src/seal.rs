//! Server seeds sealed at rest (issue 18): the registry stores each match's server seed
//! encrypted (ChaCha20-Poly1305) under a key derived from the director token, which is
//! kept apart from the store (its own 0600 file, or `--token-file` anywhere else). A copy
//! of the store alone therefore reveals no unrevealed seed and predicts no die; the
//! match id is the associated data, so a sealed seed cannot be moved to another match.
//!
//! The spelling is `v1.` then the hex of a random 12-byte nonce and the ciphertext with
//! its tag (32 + 16 bytes). Losing or replacing the token makes the sealed seeds
//! unreadable: those matches go offline with DATA_LOSS (`docs/reliability.md`, backup).

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use sha2::{Digest, Sha256};

/// The prefix of a sealed seed's spelling (the format's version).
const PREFIX: &str = "v1.";

/// The key that seals server seeds.
#[derive(Clone)]
pub struct SealKey(Key);

impl SealKey {
    /// The key derived from the director token: SHA-256 of a label and the token, so the
    /// key is not the token itself.
    pub fn from_director_token(token: &str) -> SealKey {
        let mut hash = Sha256::new();
        hash.update(b"baffle server-seed seal v1\0");
        hash.update(token.as_bytes());
        SealKey(hash.finalize())
    }

    /// A value that tells whether two servers have the same key without giving the key
    /// away: SHA-256 of a label of its own and the key. The nodes of a cluster compare
    /// theirs before they join (`docs/cluster.md`).
    pub fn check_value(&self) -> String {
        let mut hash = Sha256::new();
        hash.update(b"baffle seal key check v1\0");
        hash.update(self.0);
        hex::encode(hash.finalize())
    }

    /// `seed` of `match_id`, sealed.
    pub fn seal(&self, match_id: &str, seed: &[u8; 32]) -> Result<String, getrandom::Error> {
        let mut nonce = [0u8; 12];
        getrandom::fill(&mut nonce)?;
        let sealed = ChaCha20Poly1305::new(&self.0)
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: seed,
                    aad: match_id.as_bytes(),
                },
            )
            .expect("a 32-byte message is far below the cipher's limit");
        Ok(format!(
            "{PREFIX}{}{}",
            hex::encode(nonce),
            hex::encode(sealed)
        ))
    }

    /// The seed of `match_id` from its sealed spelling; an error if it was not sealed for
    /// this match with this key, or was altered.
    pub fn open(&self, match_id: &str, sealed: &str) -> Result<[u8; 32], String> {
        let bytes = sealed
            .strip_prefix(PREFIX)
            .and_then(|h| hex::decode(h).ok())
            .filter(|b| b.len() == 12 + 32 + 16)
            .ok_or("the sealed server seed is not of the form v1.<hex>")?;
        let (nonce, sealed) = bytes.split_at(12);
        let seed = ChaCha20Poly1305::new(&self.0)
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: sealed,
                    aad: match_id.as_bytes(),
                },
            )
            .map_err(|_| {
                "the server seed does not unseal with this director token (was the token \
                 replaced? restore the token file the match was created with)"
                    .to_string()
            })?;
        Ok(seed.try_into().expect("a 32-byte seed was sealed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_seed_opens_with_its_key_and_match_only() {
        let key = SealKey::from_director_token("token");
        let seed = [7u8; 32];
        let sealed = key.seal("m1", &seed).unwrap();
        assert!(
            !sealed.contains(&hex::encode(seed)),
            "the seed is not in the clear"
        );
        assert_eq!(key.open("m1", &sealed).unwrap(), seed);
        assert!(key.open("m2", &sealed).is_err(), "bound to its match");
        let other = SealKey::from_director_token("another token");
        assert!(
            other
                .open("m1", &sealed)
                .unwrap_err()
                .contains("director token")
        );
        let mut altered = sealed.clone().into_bytes();
        let last = altered.len() - 1;
        altered[last] = if altered[last] == b'0' { b'1' } else { b'0' };
        assert!(
            key.open("m1", &String::from_utf8(altered).unwrap())
                .is_err()
        );
        assert!(key.open("m1", "not sealed").is_err());
        assert_ne!(
            key.seal("m1", &seed).unwrap(),
            sealed,
            "a fresh nonce each time"
        );
    }
}
