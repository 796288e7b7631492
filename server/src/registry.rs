//! What the server knows beyond each match's own log: tournaments, which matches exist
//! (with their secret server seeds), and devices — kept as a stream of its own in the
//! event store (`registry`), and rebuilt on start as the fold of that stream.
//!
//! The stream is never exported: it holds the server seeds. Every change is an [`Entry`]
//! written first and then folded in ([`Registry::apply`]), the same fold a restart runs.

use std::collections::BTreeMap;

use baffle_core::backgammon::TournamentDefaults;
use baffle_core::table::MatchInfo;
use serde::{Deserialize, Serialize};

/// The registry's stream in the event store.
pub const STREAM: &str = "registry";

/// One change to the registry.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Entry {
    /// A tournament, with its defaults for backgammon matches.
    #[serde(rename = "tournament.created")]
    Tournament {
        /// Its id.
        id: String,
        /// Its name.
        name: String,
        /// Its defaults.
        defaults: TournamentDefaults,
    },
    /// A match, after its log's first records were stored.
    #[serde(rename = "match.created")]
    Match {
        /// Where it sits.
        info: MatchInfo,
        /// Its secret server seed, hex.
        server_seed: String,
    },
    /// A device and the hash of its secret.
    #[serde(rename = "device.registered")]
    DeviceRegistered {
        /// Its id.
        id: String,
        /// SHA-256 of its secret, hex.
        secret_hash: String,
    },
    /// A device bound to a match.
    #[serde(rename = "device.bound")]
    DeviceBound {
        /// The device.
        id: String,
        /// The match.
        match_id: String,
    },
    /// A device unbound.
    #[serde(rename = "device.unbound")]
    DeviceUnbound {
        /// The device.
        id: String,
    },
    /// The players' codes of a match (the SHA-256 of each secret, hex, A then B): each
    /// player's identity for his seed. Replaces any earlier codes of the match.
    #[serde(rename = "match.player_codes")]
    PlayerCodes {
        /// The match.
        match_id: String,
        /// SHA-256 of each player's secret, hex.
        hashes: [String; 2],
    },
    /// A device revoked: its credential is refused from now on.
    #[serde(rename = "device.revoked")]
    DeviceRevoked {
        /// The device.
        id: String,
    },
}

/// A registered device.
#[derive(Clone, Debug)]
pub struct DeviceRecord {
    /// SHA-256 of its secret, hex.
    pub secret_hash: String,
    /// The match it is bound to.
    pub bound: Option<String>,
}

/// A tournament: its name and defaults.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Its name.
    pub name: String,
    /// Its defaults.
    pub defaults: TournamentDefaults,
}

/// The registry: the fold of its entries.
#[derive(Default)]
pub struct Registry {
    /// Tournaments by id.
    pub tournaments: BTreeMap<String, Tournament>,
    /// Devices by id.
    pub devices: BTreeMap<String, DeviceRecord>,
    /// Each match's players' code hashes, A then B.
    pub player_codes: BTreeMap<String, [String; 2]>,
    /// Entries in the stream.
    pub len: u64,
}

impl Registry {
    /// Folds `entry` in. A match entry is returned with its seed: its state lives in its
    /// own log, which the caller rebuilds.
    pub fn apply(&mut self, entry: Entry) -> Result<Option<(MatchInfo, [u8; 32])>, String> {
        self.len += 1;
        match entry {
            Entry::Tournament { id, name, defaults } => {
                self.tournaments.insert(id, Tournament { name, defaults });
            }
            Entry::Match { info, server_seed } => {
                let seed: [u8; 32] = hex::decode(&server_seed)
                    .ok()
                    .and_then(|b| b.try_into().ok())
                    .ok_or("a bad server seed")?;
                return Ok(Some((info, seed)));
            }
            Entry::DeviceRegistered { id, secret_hash } => {
                self.devices.insert(
                    id,
                    DeviceRecord {
                        secret_hash,
                        bound: None,
                    },
                );
            }
            Entry::DeviceBound { id, match_id } => {
                if let Some(d) = self.devices.get_mut(&id) {
                    d.bound = Some(match_id);
                }
            }
            Entry::DeviceUnbound { id } => {
                if let Some(d) = self.devices.get_mut(&id) {
                    d.bound = None;
                }
            }
            Entry::DeviceRevoked { id } => {
                self.devices.remove(&id);
            }
            Entry::PlayerCodes { match_id, hashes } => {
                self.player_codes.insert(match_id, hashes);
            }
        }
        Ok(None)
    }
}

/// Whether an id chosen by people is short, plain, and safe in a URL and a stream name:
/// 1 to 40 letters, digits, '-' or '_'.
pub fn valid_id(id: &str) -> bool {
    (1..=40).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
