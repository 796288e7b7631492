//! Roles (design principle 8): the director (a token generated on first start and kept
//! with mode 0600 in the data dir), devices (credentials issued when the director
//! registers them; a device acts only on the match it is bound to) and spectators (no
//! token, read only).
//!
//! Credentials travel as `authorization: Bearer <token>`. A device credential is
//! `dev.<device id>.<secret>`; the server keeps only the secret's SHA-256.

use std::io::Write;
use std::path::Path;

use crate::error::Error;
use sha2::{Digest, Sha256};
use tonic::metadata::MetadataMap;

use crate::registry::Registry;

/// Who is calling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caller {
    /// The director: may do everything.
    Director,
    /// A registered device, by id (its credential checked).
    Device(String),
    /// A player of a match, by his player code (checked): he may give his own seed.
    Player {
        /// The match.
        match_id: String,
        /// His side.
        side: baffle_core::Side,
    },
    /// Anyone without a token: may read.
    Spectator,
}

/// A credential as presented, before it is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Presented {
    /// No authorization header.
    None,
    /// A token that is not a device credential: the director's, or wrong.
    Token(String),
    /// A device credential.
    Device {
        /// The device id.
        id: String,
        /// The secret.
        secret: String,
    },
    /// A player code: `player.<match>.<a|b>.<secret>`.
    Player {
        /// The match.
        match_id: String,
        /// The side.
        side: baffle_core::Side,
        /// The secret.
        secret: String,
    },
}

/// Reads the credential from request metadata.
pub fn presented(metadata: &MetadataMap) -> Result<Presented, Error> {
    let Some(value) = metadata.get("authorization") else {
        return Ok(Presented::None);
    };
    let value = value
        .to_str()
        .map_err(|_| Error::Unauthenticated("the authorization header is not text".into()))?;
    let token = value
        .strip_prefix("Bearer ")
        .ok_or_else(|| Error::Unauthenticated("authorization must be `Bearer <token>`".into()))?
        .trim();
    Ok(parse_token(token))
}

/// Splits a token into a device credential, a player code or a plain token.
pub fn parse_token(token: &str) -> Presented {
    let player = token.strip_prefix("player.").and_then(|rest| {
        let (match_id, rest) = rest.split_once('.')?;
        let (side, secret) = rest.split_once('.')?;
        let side = match side {
            "a" => baffle_core::Side::A,
            "b" => baffle_core::Side::B,
            _ => return None,
        };
        Some(Presented::Player {
            match_id: match_id.to_string(),
            side,
            secret: secret.to_string(),
        })
    });
    if let Some(player) = player {
        return player;
    }
    match token
        .strip_prefix("dev.")
        .and_then(|rest| rest.rsplit_once('.'))
    {
        Some((id, secret)) => Presented::Device {
            id: id.to_string(),
            secret: secret.to_string(),
        },
        None => Presented::Token(token.to_string()),
    }
}

/// Who is calling: the director's token, a registered device's credential (checked
/// against `devices`), or no token at all. A credential that is wrong is UNAUTHENTICATED.
pub fn identify(
    metadata: &MetadataMap,
    director_token: &str,
    registry: &Registry,
) -> Result<Caller, Error> {
    let devices = &registry.devices;
    match presented(metadata)? {
        Presented::None => Ok(Caller::Spectator),
        Presented::Token(t) if same_secret(&t, director_token) => Ok(Caller::Director),
        Presented::Token(_) => Err(Error::Unauthenticated("the token is not valid".into())),
        Presented::Device { id, secret } => match devices.get(&id) {
            Some(d) if same_secret(&secret_hash(&secret), &d.secret_hash) => Ok(Caller::Device(id)),
            _ => Err(Error::Unauthenticated(
                "the device credential is not valid".into(),
            )),
        },
        Presented::Player {
            match_id,
            side,
            secret,
        } => {
            let hashes = registry.player_codes.get(&match_id);
            match hashes {
                Some(h) if same_secret(&secret_hash(&secret), &h[side.index()]) => {
                    Ok(Caller::Player { match_id, side })
                }
                _ => Err(Error::Unauthenticated(
                    "the player code is not valid".into(),
                )),
            }
        }
    }
}

/// A player's code: `player.<match>.<a|b>.<secret>`.
pub fn player_code(match_id: &str, side: baffle_core::Side, secret: &str) -> String {
    let letter = match side {
        baffle_core::Side::A => "a",
        baffle_core::Side::B => "b",
    };
    format!("player.{match_id}.{letter}.{secret}")
}

/// Refuses anyone but the director.
pub fn require_director(caller: Caller) -> Result<(), Error> {
    match caller {
        Caller::Director => Ok(()),
        Caller::Spectator => Err(Error::Unauthenticated(
            "this needs the director token".into(),
        )),
        Caller::Device(_) | Caller::Player { .. } => Err(Error::PermissionDenied(
            "only the director may do this".into(),
        )),
    }
}

/// The device credential for `id` with `secret`.
pub fn device_credential(id: &str, secret: &str) -> String {
    format!("dev.{id}.{secret}")
}

/// SHA-256 of a device secret, hex: what the server stores.
pub fn secret_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Compares two strings in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// 32 random bytes from the OS, hex.
pub fn random_secret() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(hex::encode(bytes))
}

/// Reads the director token at `path`, creating it (mode 0600) on first start.
pub fn director_token(path: &Path) -> std::io::Result<String> {
    if let Ok(token) = std::fs::read_to_string(path) {
        let token = token.trim().to_string();
        if !token.is_empty() {
            return Ok(token);
        }
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let token = random_secret().map_err(|e| std::io::Error::other(e.to_string()))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(token.as_bytes())?;
    file.write_all(b"\n")?;
    file.sync_all()?;
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_credentials() {
        assert_eq!(parse_token("abc"), Presented::Token("abc".into()));
        assert_eq!(
            parse_token(&device_credential("table-7", "s3cr3t")),
            Presented::Device {
                id: "table-7".into(),
                secret: "s3cr3t".into()
            }
        );
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
        assert_eq!(secret_hash("x").len(), 64);
    }

    #[test]
    fn the_director_token_is_created_once_with_mode_0600() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/director.token");
        let first = director_token(&path).unwrap();
        assert_eq!(first.len(), 64);
        assert_eq!(director_token(&path).unwrap(), first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
