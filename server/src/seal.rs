//! Server seeds sealed at rest: the registry stores each match's server seed encrypted
//! (ChaCha20-Poly1305), the match id as the associated data, so a sealed seed cannot be
//! moved to another match. Two keys, told apart by the spelling's prefix:
//!
//! - `v2.` — the **seal key**, 32 random bytes in a file of the server's own
//!   (`<data-dir>/seal.key`, `--seal-key-file`; [`crate::keys`]). Every new seed is sealed
//!   under it. The director does not hold it: with a copy of the store *and* the director
//!   token, an unrevealed seed still cannot be read.
//! - `v1.` — a key derived from the director token (issue 18, before the seal key). Seeds
//!   sealed so in an older data directory still open with the token, so the directory
//!   keeps working; the director could read those, and only those.
//!
//! After the prefix: the hex of a random 12-byte nonce and the ciphertext with its tag
//! (32 + 16 bytes). Losing or replacing the key makes its sealed seeds unreadable: those
//! matches go offline with DATA_LOSS (`docs/server.md`, Operations: back up `seal.key`).

use std::path::Path;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use sha2::{Digest, Sha256};

/// Which key sealed a seed: the spelling's prefix names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Version {
    /// `v1.`: derived from the director token.
    DirectorToken,
    /// `v2.`: the seal key file's.
    KeyFile,
}

impl Version {
    fn prefix(self) -> &'static str {
        match self {
            Version::DirectorToken => "v1.",
            Version::KeyFile => "v2.",
        }
    }

    fn of(sealed: &str) -> Option<Version> {
        [Version::DirectorToken, Version::KeyFile]
            .into_iter()
            .find(|v| sealed.starts_with(v.prefix()))
    }
}

/// One key that seals server seeds, with the version it writes and where it came from
/// (for messages).
#[derive(Clone)]
pub struct SealKey {
    key: Key,
    version: Version,
    source: String,
}

impl SealKey {
    /// The `v1.` key derived from the director token: SHA-256 of a label and the token,
    /// so the key is not the token itself. It opens seeds sealed before the seal key.
    pub fn from_director_token(token: &str) -> SealKey {
        let mut hash = Sha256::new();
        hash.update(b"baffle server-seed seal v1\0");
        hash.update(token.as_bytes());
        SealKey {
            key: hash.finalize(),
            version: Version::DirectorToken,
            source: "the director token".into(),
        }
    }

    /// The `v2.` key: the 32 bytes of the seal key file at `path`.
    pub fn from_key_file(bytes: [u8; 32], path: &Path) -> SealKey {
        SealKey {
            key: bytes.into(),
            version: Version::KeyFile,
            source: format!("the seal key {}", path.display()),
        }
    }

    /// A value that tells whether two servers have the same key without giving the key
    /// away: SHA-256 of a label of its own and the key. The nodes of a cluster compare
    /// theirs before they join (`docs/cluster.md`).
    pub fn check_value(&self) -> String {
        let mut hash = Sha256::new();
        hash.update(match self.version {
            Version::DirectorToken => b"baffle seal key check v1\0",
            Version::KeyFile => b"baffle seal key check v2\0",
        });
        hash.update(self.key);
        hex::encode(hash.finalize())
    }

    /// `seed` of `match_id`, sealed.
    pub fn seal(&self, match_id: &str, seed: &[u8; 32]) -> Result<String, getrandom::Error> {
        let mut nonce = [0u8; 12];
        getrandom::fill(&mut nonce)?;
        let sealed = ChaCha20Poly1305::new(&self.key)
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: seed,
                    aad: match_id.as_bytes(),
                },
            )
            .expect("a 32-byte message is far below the cipher's limit");
        Ok(format!(
            "{}{}{}",
            self.version.prefix(),
            hex::encode(nonce),
            hex::encode(sealed)
        ))
    }

    /// The seed of `match_id` from its sealed spelling; an error if it was not sealed for
    /// this match with this key, or was altered.
    pub fn open(&self, match_id: &str, sealed: &str) -> Result<[u8; 32], String> {
        match Version::of(sealed) {
            Some(v) if v == self.version => {}
            Some(Version::KeyFile) => {
                return Err(format!(
                    "the server seed is sealed under the server's seal key (v2.), which \
                     {} is not",
                    self.source
                ));
            }
            Some(Version::DirectorToken) => {
                return Err(format!(
                    "the server seed is sealed under the director token's key (v1.), \
                     which {} is not",
                    self.source
                ));
            }
            None => {}
        }
        let bytes = sealed
            .strip_prefix(self.version.prefix())
            .and_then(|h| hex::decode(h).ok())
            .filter(|b| b.len() == 12 + 32 + 16)
            .ok_or("the sealed server seed is not of the form v1.<hex> or v2.<hex>")?;
        let (nonce, sealed) = bytes.split_at(12);
        let seed = ChaCha20Poly1305::new(&self.key)
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: sealed,
                    aad: match_id.as_bytes(),
                },
            )
            .map_err(|_| {
                format!(
                    "the server seed does not unseal with {} (was it replaced? restore the \
                     one the match was created with)",
                    self.source
                )
            })?;
        seed.try_into()
            .map_err(|_| "the sealed server seed is not 32 bytes".to_string())
    }
}

/// The keys a server seals and opens seeds with: the seal key (new seeds, `v2.`) and the
/// director token's (`v1.`, seeds of older data directories).
#[derive(Clone)]
pub struct SealKeys {
    key_file: Option<SealKey>,
    token: SealKey,
}

impl SealKeys {
    /// The keys of a server with `director_token` and the seal key `key_file` (`None`:
    /// none is known, as for `baffled check` on a data directory that has no seal key
    /// yet — then only `v1.` seeds open, and nothing can be sealed).
    pub fn new(director_token: &str, key_file: Option<SealKey>) -> SealKeys {
        SealKeys {
            key_file,
            token: SealKey::from_director_token(director_token),
        }
    }

    /// The seal key, if known: the one new seeds are sealed under.
    pub fn key_file(&self) -> Option<&SealKey> {
        self.key_file.as_ref()
    }

    /// The key derived from the director token.
    pub fn token(&self) -> &SealKey {
        &self.token
    }

    /// `seed` of `match_id`, sealed under the seal key (`v2.`).
    pub fn seal(&self, match_id: &str, seed: &[u8; 32]) -> Result<String, String> {
        let key = self
            .key_file
            .as_ref()
            .ok_or("there is no seal key to seal the server seed with")?;
        key.seal(match_id, seed)
            .map_err(|e| format!("the OS RNG failed: {e}"))
    }

    /// The seed of `match_id`, opened with the key its prefix names.
    pub fn open(&self, match_id: &str, sealed: &str) -> Result<[u8; 32], String> {
        match (Version::of(sealed), &self.key_file) {
            (Some(Version::KeyFile), Some(key)) => key.open(match_id, sealed),
            (Some(Version::KeyFile), None) => Err(
                "the server seed is sealed under a seal key (v2.), and this server has no \
                 seal key file: restore seal.key from a backup (docs/server.md)"
                    .into(),
            ),
            _ => self.token.open(match_id, sealed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_file(byte: u8) -> SealKey {
        SealKey::from_key_file([byte; 32], Path::new("/d/seal.key"))
    }

    #[test]
    fn a_sealed_seed_opens_with_its_key_and_match_only() {
        for key in [SealKey::from_director_token("token"), key_file(9)] {
            let seed = [7u8; 32];
            let sealed = key.seal("m1", &seed).unwrap();
            assert!(
                !sealed.contains(&hex::encode(seed)),
                "the seed is not in the clear"
            );
            assert_eq!(key.open("m1", &sealed).unwrap(), seed);
            assert!(key.open("m2", &sealed).is_err(), "bound to its match");
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
        let sealed = SealKey::from_director_token("token")
            .seal("m1", &[7; 32])
            .unwrap();
        let other = SealKey::from_director_token("another token");
        assert!(
            other
                .open("m1", &sealed)
                .unwrap_err()
                .contains("director token")
        );
        let sealed = key_file(9).seal("m1", &[7; 32]).unwrap();
        assert!(
            key_file(8)
                .open("m1", &sealed)
                .unwrap_err()
                .contains("seal.key")
        );
    }

    #[test]
    fn new_seeds_are_v2_under_the_key_file_and_v1_seeds_still_open() {
        let keys = SealKeys::new("token", Some(key_file(9)));
        let sealed = keys.seal("m1", &[4; 32]).unwrap();
        assert!(sealed.starts_with("v2."), "{sealed}");
        assert_eq!(keys.open("m1", &sealed).unwrap(), [4; 32]);
        // The director's token does not open it, whatever he tries.
        let by_token = SealKey::from_director_token("token").open("m1", &sealed);
        assert!(by_token.unwrap_err().contains("seal key"));
        // A seed sealed before the seal key existed opens with the token.
        let old = SealKey::from_director_token("token")
            .seal("m0", &[3; 32])
            .unwrap();
        assert!(old.starts_with("v1."));
        assert_eq!(keys.open("m0", &old).unwrap(), [3; 32]);
        // Without the key file, v2 seeds say what is missing; v1 seeds still open.
        let no_file = SealKeys::new("token", None);
        assert!(
            no_file
                .open("m1", &sealed)
                .unwrap_err()
                .contains("seal.key")
        );
        assert_eq!(no_file.open("m0", &old).unwrap(), [3; 32]);
        assert!(no_file.seal("m2", &[1; 32]).is_err());
        assert_ne!(
            key_file(9).check_value(),
            SealKey::from_director_token("token").check_value()
        );
    }
}
