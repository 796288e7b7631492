//! What the server knows beyond each match's own log, kept as a stream of its own in the
//! event store (`registry`) and rebuilt on start as the fold of that stream: the room's
//! [`Directory`] (which tournaments and matches exist, their venues, days and defaults,
//! the list of players; its rules are core's, `baffle_core::tournament::directory`), and
//! what only a server has to know — the devices and their secrets, the players' codes,
//! and each match's sealed server seed.
//!
//! The stream is never exported: it holds the seeds. Every change is an [`Entry`]
//! written first and then folded in ([`Registry::evolve`]), the same fold a restart runs.
//! The hub asks the directory what a command writes ([`Directory::decide`]), writes it,
//! and folds it: the server decides nothing of the directory itself.

use std::collections::BTreeMap;

use baffle_core::table::MatchInfo;
pub use baffle_core::tournament::directory::{
    Directory, DrawEntry, ListedPlayer, Record, Replacement, TournamentEntry as Tournament,
    VenueDates,
};
use serde::{Deserialize, Serialize};

/// The registry's stream in the event store.
pub const STREAM: &str = "registry";

/// One change to the registry: the directory's, or the server's own.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Entry {
    /// A record of the directory (its `kind`s: `tournament.*`, `match.created`,
    /// `player.*`).
    Directory(Record),
    /// A record only a server keeps (its `kind`s: `device.*`, `match.player_codes`).
    Server(ServerEntry),
}

/// A change only a server keeps: devices and players' codes.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum ServerEntry {
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

impl Entry {
    /// An entry from its stored line. The directory's `kind`s are tried first, then the
    /// server's; a line neither knows is an error naming both readings.
    pub fn parse(line: &[u8]) -> Result<Entry, String> {
        serde_json::from_slice::<Record>(line)
            .map(Entry::Directory)
            .or_else(|directory| {
                serde_json::from_slice::<ServerEntry>(line)
                    .map(Entry::Server)
                    .map_err(|server| format!("{directory}; {server}"))
            })
    }
}

impl From<Record> for Entry {
    fn from(record: Record) -> Entry {
        Entry::Directory(record)
    }
}

impl From<ServerEntry> for Entry {
    fn from(entry: ServerEntry) -> Entry {
        Entry::Server(entry)
    }
}

/// A match's server seed as the registry holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredSeed {
    /// In the clear (registries written before seeds were sealed).
    Clear([u8; 32]),
    /// Sealed ([`crate::seal`]): the key is not in the store.
    Sealed(String),
}

impl StoredSeed {
    /// The seed a `match.created` record holds: sealed, or in the clear in records
    /// written before seeds were sealed.
    fn of(
        server_seed: &Option<String>,
        sealed_seed: &Option<String>,
    ) -> Result<StoredSeed, String> {
        Ok(match (server_seed, sealed_seed) {
            (_, Some(sealed)) => StoredSeed::Sealed(sealed.clone()),
            (Some(clear), None) => StoredSeed::Clear(
                hex::decode(clear)
                    .ok()
                    .and_then(|b| b.try_into().ok())
                    .ok_or("a bad server seed")?,
            ),
            (None, None) => return Err("a match without a server seed".into()),
        })
    }

    /// The seed of `match_id`, unsealed with `keys` if it is sealed.
    pub fn open(&self, key: &crate::seal::SealKeys, match_id: &str) -> Result<[u8; 32], String> {
        match self {
            StoredSeed::Clear(seed) => Ok(*seed),
            StoredSeed::Sealed(sealed) => key.open(match_id, sealed),
        }
    }
}

/// A registered device.
#[derive(Clone, Debug)]
pub struct DeviceRecord {
    /// SHA-256 of its secret, hex.
    pub secret_hash: String,
    /// The match it is bound to.
    pub bound: Option<String>,
}

/// The registry: the fold of its entries.
#[derive(Default)]
pub struct Registry {
    /// The room's directory: tournaments, matches, the player list.
    pub directory: Directory,
    /// Devices by id.
    pub devices: BTreeMap<String, DeviceRecord>,
    /// Each match's players' code hashes, A then B.
    pub player_codes: BTreeMap<String, [String; 2]>,
    /// Entries in the stream.
    pub len: u64,
}

impl Registry {
    /// The registry from its stream's stored lines, with every match and its stored seed.
    pub fn fold(lines: &[Vec<u8>]) -> Result<(Registry, Vec<(MatchInfo, StoredSeed)>), String> {
        let mut registry = Registry::default();
        let mut matches = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let entry = Entry::parse(line).map_err(|e| format!("registry record {i}: {e}"))?;
            if let Some(m) = registry
                .evolve(entry)
                .map_err(|e| format!("registry record {i}: {e}"))?
            {
                matches.push(m);
            }
        }
        Ok((registry, matches))
    }

    /// Folds `entry` in. A match entry is returned with its seed: its state lives in its
    /// own log, which the caller rebuilds.
    pub fn evolve(&mut self, entry: Entry) -> Result<Option<(MatchInfo, StoredSeed)>, String> {
        self.len += 1;
        let server = match entry {
            Entry::Directory(record) => {
                let created = match &record {
                    Record::Match {
                        info,
                        server_seed,
                        sealed_seed,
                        ..
                    } => Some((info.clone(), StoredSeed::of(server_seed, sealed_seed)?)),
                    _ => None,
                };
                self.directory.evolve(record)?;
                return Ok(created);
            }
            Entry::Server(server) => server,
        };
        match server {
            ServerEntry::DeviceRegistered { id, secret_hash } => {
                let bound = None;
                self.devices.insert(id, DeviceRecord { secret_hash, bound });
            }
            ServerEntry::DeviceBound { id, match_id } => {
                if let Some(d) = self.devices.get_mut(&id) {
                    d.bound = Some(match_id);
                }
            }
            ServerEntry::DeviceUnbound { id } => {
                if let Some(d) = self.devices.get_mut(&id) {
                    d.bound = None;
                }
            }
            ServerEntry::DeviceRevoked { id } => {
                self.devices.remove(&id);
            }
            ServerEntry::PlayerCodes { match_id, hashes } => {
                self.player_codes.insert(match_id, hashes);
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use baffle_core::backgammon::TournamentDefaults;

    /// Registries written before seeds were sealed hold them in the clear: still read.
    #[test]
    fn a_match_entry_of_either_spelling_is_read() {
        let info = r#"{"id":"m","tournament":"t","round":0,"table":""}"#;
        let mut registry = Registry::default();
        let clear = format!(
            r#"{{"kind":"match.created","info":{info},"server_seed":"{}"}}"#,
            "07".repeat(32)
        );
        let entry = Entry::parse(clear.as_bytes()).unwrap();
        let (_, seed) = registry.evolve(entry).unwrap().unwrap();
        assert_eq!(seed, StoredSeed::Clear([7; 32]));
        let sealed = format!(r#"{{"kind":"match.created","info":{info},"sealed_seed":"v1.ab"}}"#);
        let entry = Entry::parse(sealed.as_bytes()).unwrap();
        let (_, seed) = registry.evolve(entry).unwrap().unwrap();
        assert_eq!(seed, StoredSeed::Sealed("v1.ab".into()));
        let neither = format!(r#"{{"kind":"match.created","info":{info}}}"#);
        let entry = Entry::parse(neither.as_bytes()).unwrap();
        assert!(registry.evolve(entry).is_err());
    }

    /// Archiving is an entry of the registry, so a restart folds it back; an archive of
    /// a tournament the registry never created does not fold.
    #[test]
    fn an_archived_tournament_stays_archived_after_a_restart() {
        let line = |e: &Entry| serde_json::to_vec(e).unwrap();
        let created = Entry::from(Record::Tournament {
            id: "demo".into(),
            name: "Demo".into(),
            defaults: TournamentDefaults::default(),
            venue_dates: VenueDates::default(),
        });
        let archived = |archived| {
            Entry::from(Record::TournamentArchived {
                id: "demo".into(),
                archived,
            })
        };
        assert_eq!(
            String::from_utf8(line(&archived(true))).unwrap(),
            r#"{"kind":"tournament.archived","id":"demo","archived":true}"#
        );
        let (registry, _) = Registry::fold(&[line(&created), line(&archived(true))]).unwrap();
        assert!(registry.directory.tournaments["demo"].archived);
        let lines = [
            line(&created),
            line(&archived(true)),
            line(&archived(false)),
        ];
        let (registry, _) = Registry::fold(&lines).unwrap();
        assert!(!registry.directory.tournaments["demo"].archived);
        assert!(Registry::fold(&[line(&archived(true))]).is_err());
    }
}
