//! The server's secrets, each in a file of its own (mode 0600) made on first start:
//!
//! - the **director token** (`director.token`, [`crate::auth`]): who may run matches;
//! - the **seal key** (`seal.key`, [`crate::seal`]): 32 random bytes that seal the
//!   server seeds in the store. The director does not hold it, so neither a copy of the
//!   store nor the token, nor both, reads an unrevealed seed;
//! - the **signing key** (`signing.key`, [`crate::signing`]): the Ed25519 secret that
//!   signs every head sent to followers; its public half is published.
//!
//! The two keys are written as 64 lower-case hex digits and a newline. A file that
//! exists but does not hold such a key is never replaced: the server refuses to start,
//! naming the file, since a new key would orphan every seed (or signature) made under
//! the old one. The nodes of a cluster share all three files (`docs/cluster.md`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::seal::{SealKey, SealKeys};
use crate::signing::HeadSigner;

/// Where the three secrets are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPaths {
    /// The director token.
    pub token: PathBuf,
    /// The seal key of the server seeds.
    pub seal: PathBuf,
    /// The key that signs heads.
    pub signing: PathBuf,
}

impl KeyPaths {
    /// The default names in the data directory `dir`.
    pub fn in_dir(dir: &Path) -> KeyPaths {
        KeyPaths {
            token: dir.join("director.token"),
            seal: dir.join("seal.key"),
            signing: dir.join("signing.key"),
        }
    }
}

/// The secrets a running server holds.
#[derive(Clone)]
pub struct ServerKeys {
    /// The director token.
    pub director_token: String,
    /// The keys that seal and open server seeds (the seal key's, and the token's for
    /// seeds sealed before there was a seal key).
    pub seal: SealKeys,
    /// The key that signs heads.
    pub signer: Arc<HeadSigner>,
}

impl ServerKeys {
    /// Reads the three files at `paths`, creating any that does not exist. An error says
    /// which file and why, in words.
    pub fn load_or_create(paths: &KeyPaths) -> Result<ServerKeys, String> {
        let director_token = crate::auth::director_token(&paths.token).map_err(|e| {
            format!(
                "the director token {} cannot be read or created: {e}",
                paths.token.display()
            )
        })?;
        ServerKeys::with_key_files(director_token, &paths.seal, &paths.signing)
    }

    /// The keys in `seal.key` and `signing.key` of `dir` (created on first use), with
    /// `director_token`.
    pub fn in_dir(dir: &Path, director_token: String) -> Result<ServerKeys, String> {
        let paths = KeyPaths::in_dir(dir);
        ServerKeys::with_key_files(director_token, &paths.seal, &paths.signing)
    }

    fn with_key_files(
        director_token: String,
        seal: &Path,
        signing: &Path,
    ) -> Result<ServerKeys, String> {
        let seal_key = SealKey::from_key_file(read_or_create_key(seal, "seal key")?, seal);
        let signer = HeadSigner::from_secret(read_or_create_key(signing, "signing key")?);
        Ok(ServerKeys {
            seal: SealKeys::new(&director_token, Some(seal_key)),
            director_token,
            signer: Arc::new(signer),
        })
    }

    /// Fresh keys kept nowhere, for a server whose store is in memory too (simulations,
    /// benchmarks): nothing it sealed outlives the process anyway.
    pub fn fresh(director_token: String) -> Result<ServerKeys, String> {
        let random = || {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes).map_err(|e| format!("the OS RNG failed: {e}"))?;
            Ok::<_, String>(bytes)
        };
        let seal_key = SealKey::from_key_file(random()?, Path::new("(in memory)"));
        Ok(ServerKeys {
            seal: SealKeys::new(&director_token, Some(seal_key)),
            director_token,
            signer: Arc::new(HeadSigner::from_secret(random()?)),
        })
    }
}

/// The 32-byte key in the file at `path` (`what` names it in errors), or `None` if there
/// is no such file. A file that does not hold 64 hex digits is an error.
pub fn read_key(path: &Path, what: &str) -> Result<Option<[u8; 32]>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(format!(
                "the {what} file {} cannot be read: {e}",
                path.display()
            ));
        }
    };
    let key = hex::decode(text.trim())
        .ok()
        .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        .ok_or_else(|| {
            format!(
                "the {what} file {} does not hold a key (64 hex digits): restore it from \
                 a backup; a new key would not open what the old one made (docs/server.md)",
                path.display()
            )
        })?;
    Ok(Some(key))
}

/// The 32-byte key in the file at `path`, made from the OS RNG and written (mode 0600,
/// created only if absent, so two processes starting at once end with one key) if the
/// file does not exist.
pub fn read_or_create_key(path: &Path, what: &str) -> Result<[u8; 32], String> {
    if let Some(key) = read_key(path, what)? {
        return Ok(key);
    }
    let cannot =
        |e: std::io::Error| format!("the {what} file {} cannot be created: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(cannot)?;
    }
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| format!("the OS RNG failed: {e}"))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(mut file) => {
            file.write_all(format!("{}\n", hex::encode(key)).as_bytes())
                .and_then(|()| file.sync_all())
                .map_err(cannot)?;
            Ok(key)
        }
        // Another process made it first: its key is the one.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read_key(path, what)?
            .ok_or_else(|| format!("the {what} file {} vanished as it was made", path.display())),
        Err(e) => Err(cannot(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_file_is_made_once_with_mode_0600_and_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/seal.key");
        let first = read_or_create_key(&path, "seal key").unwrap();
        assert_eq!(read_or_create_key(&path, "seal key").unwrap(), first);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{}\n", hex::encode(first)));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(&path, "not a key\n").unwrap();
        let refused = read_or_create_key(&path, "seal key").unwrap_err();
        assert!(
            refused.contains("seal.key") && refused.contains("restore"),
            "{refused}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "not a key\n");
        assert_eq!(read_key(&dir.path().join("none"), "seal key"), Ok(None));
    }

    #[test]
    fn the_servers_keys_are_read_back_as_they_were_made() {
        let dir = tempfile::tempdir().unwrap();
        let paths = KeyPaths::in_dir(dir.path());
        let first = ServerKeys::load_or_create(&paths).unwrap();
        let again = ServerKeys::load_or_create(&paths).unwrap();
        assert_eq!(again.director_token, first.director_token);
        assert_eq!(again.signer.public_hex(), first.signer.public_hex());
        let sealed = first.seal.seal("m1", &[5; 32]).unwrap();
        assert_eq!(again.seal.open("m1", &sealed).unwrap(), [5; 32]);
        let fresh = ServerKeys::fresh("t".into()).unwrap();
        assert_ne!(fresh.signer.public_hex(), first.signer.public_hex());
    }
}
