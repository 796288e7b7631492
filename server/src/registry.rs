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
        /// Where and when it is played (absent in registries written before).
        #[serde(default, skip_serializing_if = "VenueDates::is_empty")]
        venue_dates: VenueDates,
    },
    /// A match, after its log's first records were stored.
    #[serde(rename = "match.created")]
    Match {
        /// Where it sits.
        info: MatchInfo,
        /// Its secret server seed, hex, in the clear: only in registries written before
        /// seeds were sealed (still read).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server_seed: Option<String>,
        /// Its secret server seed, sealed ([`crate::seal`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sealed_seed: Option<String>,
        /// The match it replaces, by a ruling.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<Replacement>,
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
    /// A tournament's draw opened: its log (`t/{id}`, [`crate::draws`]) commits to the
    /// draw seed held here, sealed like a match's server seed until the draw reveals it.
    #[serde(rename = "tournament.draw_opened")]
    DrawOpened {
        /// The tournament.
        id: String,
        /// Its draw seed, sealed ([`crate::seal`], under the id `draw/{id}`).
        sealed_seed: String,
        /// A chess tournament's game settings (players and start filled in per match).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chess: Option<baffle_core::chess::ChessSettings>,
        /// The body of the log's first record, `tournament.opened`: written to the log
        /// after this entry, and again at a start that finds the log empty (a crash
        /// between the two), the same bytes either way.
        opening: String,
    },
    /// A player put on the server's list, which lasts across tournaments: an entrant
    /// registered from it brings his rating and experience, and takes them back.
    #[serde(rename = "player.listed")]
    PlayerListed {
        /// His id on the list (a federation id, or one the director chooses).
        id: String,
        /// His name, federation id, club, rating and experience.
        details: baffle_core::tournament::Details,
    },
    /// A listed player's rating after a rated result of a tournament: his history.
    #[serde(rename = "player.rated")]
    PlayerRated {
        /// The player.
        id: String,
        /// The tournament.
        tournament: String,
        /// The match's place in its draw.
        key: String,
        /// His rating after it, in hundredths.
        rating: i64,
        /// His experience after it.
        experience: u32,
    },
    /// A listed player's name corrected: an entrant registered from the list was renamed
    /// in a tournament (`entrant.renamed`), and the list follows.
    #[serde(rename = "player.renamed")]
    PlayerRenamed {
        /// The player.
        id: String,
        /// His name now.
        name: String,
    },
    /// A tournament archived (left out of the default listings) or brought back.
    #[serde(rename = "tournament.archived")]
    TournamentArchived {
        /// The tournament.
        id: String,
        /// Archived (true) or brought back (false).
        archived: bool,
    },
}

/// A match replaced by a new one, with the director's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replacement {
    /// The match replaced.
    pub match_id: String,
    /// The director's words.
    pub ruling: String,
}

/// A player on the server's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedPlayer {
    /// His details, with his rating and experience now.
    pub details: baffle_core::tournament::Details,
    /// Each rated result: the tournament, the match's key and his rating after it.
    pub history: Vec<(String, String, i64)>,
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

/// A tournament: its name, defaults, and where and when it is played.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Its name.
    pub name: String,
    /// Its defaults.
    pub defaults: TournamentDefaults,
    /// Where and when it is played.
    pub venue_dates: VenueDates,
    /// Left out of the default listings (`tournament.archived`).
    pub archived: bool,
    /// Its draw, once opened.
    pub draw: Option<DrawEntry>,
}

/// What the registry holds of a tournament's draw: the sealed seed and the chess
/// settings; everything else is in the tournament's own log.
#[derive(Clone, Debug)]
pub struct DrawEntry {
    /// The draw seed, sealed under `draw/{id}`.
    pub sealed_seed: String,
    /// A chess tournament's game settings.
    pub chess: Option<baffle_core::chess::ChessSettings>,
    /// The body of the log's first record.
    pub opening: String,
}

/// Where and when a tournament is played, for the people following it (tournament cards,
/// the wall): each part may be left empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VenueDates {
    /// The venue, as people name it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub venue: String,
    /// Its first day, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub first_day: String,
    /// Its last day, `YYYY-MM-DD`, not before the first.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub last_day: String,
}

/// Longest venue accepted, in characters.
pub const MAX_VENUE: usize = 100;

impl VenueDates {
    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.venue.is_empty() && self.first_day.is_empty() && self.last_day.is_empty()
    }

    /// Ok, or what is wrong, naming the field.
    pub fn check(&self) -> Result<(), String> {
        if self.venue.chars().count() > MAX_VENUE || self.venue.chars().any(char::is_control) {
            return Err(format!(
                "tournament.venue: at most {MAX_VENUE} characters, no control characters"
            ));
        }
        for (field, day) in [("first_day", &self.first_day), ("last_day", &self.last_day)] {
            if !day.is_empty() && !is_calendar_day(day) {
                return Err(format!(
                    "tournament.{field}: a day as YYYY-MM-DD (e.g. 2026-11-23), not {day:?}"
                ));
            }
        }
        // ISO days order as strings do.
        if !self.first_day.is_empty() && !self.last_day.is_empty() && self.last_day < self.first_day
        {
            return Err(format!(
                "tournament.last_day: {} is before the first day {}",
                self.last_day, self.first_day
            ));
        }
        Ok(())
    }
}

/// Whether `day` is a real day written `YYYY-MM-DD` (years 1900 to 9999); the calendar
/// is the `time` crate's.
fn is_calendar_day(day: &str) -> bool {
    let shaped = day.len() == 10
        && day.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if !shaped {
        return false;
    }
    let (Ok(y), Ok(m), Ok(d)) = (
        day[..4].parse::<i32>(),
        day[5..7].parse::<u8>(),
        day[8..].parse::<u8>(),
    ) else {
        return false;
    };
    (1900..=9999).contains(&y)
        && time::Month::try_from(m).is_ok_and(|m| time::Date::from_calendar_date(y, m, d).is_ok())
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
    /// Matches replaced by a ruling: the match that replaced each, and the words.
    pub replaced: BTreeMap<String, (String, String)>,
    /// The list of players that lasts across tournaments, by id.
    pub players: BTreeMap<String, ListedPlayer>,
    /// Entries in the stream.
    pub len: u64,
}

impl Registry {
    /// The registry from its stream's stored lines, with every match and its stored seed.
    pub fn fold(lines: &[Vec<u8>]) -> Result<(Registry, Vec<(MatchInfo, StoredSeed)>), String> {
        let mut registry = Registry::default();
        let mut matches = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let entry: Entry =
                serde_json::from_slice(line).map_err(|e| format!("registry record {i}: {e}"))?;
            if let Some(m) = registry
                .apply(entry)
                .map_err(|e| format!("registry record {i}: {e}"))?
            {
                matches.push(m);
            }
        }
        Ok((registry, matches))
    }

    /// Folds `entry` in. A match entry is returned with its seed: its state lives in its
    /// own log, which the caller rebuilds.
    pub fn apply(&mut self, entry: Entry) -> Result<Option<(MatchInfo, StoredSeed)>, String> {
        self.len += 1;
        match entry {
            Entry::Tournament {
                id,
                name,
                defaults,
                venue_dates,
            } => {
                self.tournaments.insert(
                    id,
                    Tournament {
                        name,
                        defaults,
                        venue_dates,
                        archived: false,
                        draw: None,
                    },
                );
            }
            Entry::DrawOpened {
                id,
                sealed_seed,
                chess,
                opening,
            } => {
                let t = self.tournaments.get_mut(&id).ok_or_else(|| {
                    format!("tournament {id}'s draw opened before it was created")
                })?;
                t.draw = Some(DrawEntry {
                    sealed_seed,
                    chess,
                    opening,
                });
            }
            Entry::Match {
                info,
                server_seed,
                sealed_seed,
                replaces,
            } => {
                if let Some(r) = replaces {
                    self.replaced
                        .insert(r.match_id, (info.id.clone(), r.ruling));
                }
                let seed = match (server_seed, sealed_seed) {
                    (_, Some(sealed)) => StoredSeed::Sealed(sealed),
                    (Some(clear), None) => StoredSeed::Clear(
                        hex::decode(&clear)
                            .ok()
                            .and_then(|b| b.try_into().ok())
                            .ok_or("a bad server seed")?,
                    ),
                    (None, None) => return Err("a match without a server seed".into()),
                };
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
            Entry::PlayerListed { id, details } => {
                self.players.insert(
                    id,
                    ListedPlayer {
                        details,
                        history: Vec::new(),
                    },
                );
            }
            Entry::PlayerRated {
                id,
                tournament,
                key,
                rating,
                experience,
            } => {
                if let Some(p) = self.players.get_mut(&id) {
                    p.details.rating = Some(baffle_core::tournament::rating::Rating(rating));
                    p.details.experience = experience;
                    p.history.push((tournament, key, rating));
                }
            }
            Entry::PlayerRenamed { id, name } => {
                if let Some(p) = self.players.get_mut(&id) {
                    p.details.name = name;
                }
            }
            Entry::PlayerCodes { match_id, hashes } => {
                self.player_codes.insert(match_id, hashes);
            }
            Entry::TournamentArchived { id, archived } => {
                let t = self
                    .tournaments
                    .get_mut(&id)
                    .ok_or_else(|| format!("tournament {id} archived before it was created"))?;
                t.archived = archived;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Registries written before seeds were sealed hold them in the clear: still read.
    #[test]
    fn a_match_entry_of_either_spelling_is_read() {
        let info = r#"{"id":"m","tournament":"t","round":0,"table":""}"#;
        let mut registry = Registry::default();
        let clear = format!(
            r#"{{"kind":"match.created","info":{info},"server_seed":"{}"}}"#,
            "07".repeat(32)
        );
        let entry: Entry = serde_json::from_str(&clear).unwrap();
        let (_, seed) = registry.apply(entry).unwrap().unwrap();
        assert_eq!(seed, StoredSeed::Clear([7; 32]));
        let sealed = format!(r#"{{"kind":"match.created","info":{info},"sealed_seed":"v1.ab"}}"#);
        let entry: Entry = serde_json::from_str(&sealed).unwrap();
        let (_, seed) = registry.apply(entry).unwrap().unwrap();
        assert_eq!(seed, StoredSeed::Sealed("v1.ab".into()));
        let neither = format!(r#"{{"kind":"match.created","info":{info}}}"#);
        let entry: Entry = serde_json::from_str(&neither).unwrap();
        assert!(registry.apply(entry).is_err());
    }

    /// Archiving is an entry of the registry, so a restart folds it back; an archive of
    /// a tournament the registry never created does not fold.
    #[test]
    fn an_archived_tournament_stays_archived_after_a_restart() {
        let line = |e: &Entry| serde_json::to_vec(e).unwrap();
        let created = Entry::Tournament {
            id: "demo".into(),
            name: "Demo".into(),
            defaults: TournamentDefaults::default(),
            venue_dates: VenueDates::default(),
        };
        let archived = |archived| Entry::TournamentArchived {
            id: "demo".into(),
            archived,
        };
        assert_eq!(
            String::from_utf8(line(&archived(true))).unwrap(),
            r#"{"kind":"tournament.archived","id":"demo","archived":true}"#
        );
        let (registry, _) = Registry::fold(&[line(&created), line(&archived(true))]).unwrap();
        assert!(registry.tournaments["demo"].archived);
        let lines = [
            line(&created),
            line(&archived(true)),
            line(&archived(false)),
        ];
        let (registry, _) = Registry::fold(&lines).unwrap();
        assert!(!registry.tournaments["demo"].archived);
        assert!(Registry::fold(&[line(&archived(true))]).is_err());
    }
}

#[cfg(test)]
mod venue_tests {
    use super::*;

    #[test]
    fn days_are_real_calendar_days() {
        for good in ["2026-11-23", "2024-02-29", "2000-02-29", "1900-01-01"] {
            assert!(is_calendar_day(good), "{good}");
        }
        for bad in [
            "2026-02-29",
            "1900-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-1-01",
            "26-11-23",
            "2026-11-23T",
            "2026/11/23",
            "",
            "२०२६-११-२३",
        ] {
            assert!(!is_calendar_day(bad), "{bad}");
        }
    }

    #[test]
    fn a_venue_is_bounded_and_the_last_day_not_before_the_first() {
        let ok = VenueDates {
            venue: "Θεσσαλονίκη".into(),
            first_day: "2026-11-21".into(),
            last_day: "2026-11-21".into(),
        };
        assert!(ok.check().is_ok());
        let long = VenueDates {
            venue: "α".repeat(MAX_VENUE + 1),
            ..Default::default()
        };
        assert!(long.check().unwrap_err().contains("tournament.venue"));
        let backwards = VenueDates {
            last_day: "2026-11-20".into(),
            ..ok
        };
        assert!(backwards.check().unwrap_err().contains("before"));
    }
}
