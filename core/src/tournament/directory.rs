//! # The room's directory: which tournaments and matches exist
//!
//! Before a draw or a by-hand log begins, somebody must say that a tournament exists,
//! what it is called, where and when it is played, with which defaults for its matches;
//! which matches exist in it and which one replaced which; and who is on the list of
//! players that lasts across tournaments. That is the directory: a state machine like
//! the [`Table`](crate::table::Table) and the [`Tournament`](super::Tournament), with the
//! checks in [`Directory::decide`] (which changes nothing) and the fold in
//! [`Directory::evolve`]. The server stores its [`Record`]s in its registry stream, in
//! order, and folds them back on a start; it decides nothing itself.
//!
//! ```
//! use baffle_core::tournament::directory::{Command, Directory, VenueDates};
//! let mut d = Directory::default();
//! let create = Command::CreateTournament {
//!     id: "club".into(),
//!     name: "Club night".into(),
//!     defaults: Default::default(),
//!     venue_dates: VenueDates { venue: "Athens".into(), ..Default::default() },
//! };
//! for record in d.decide(&create).unwrap() {
//!     d.evolve(record).unwrap();
//! }
//! assert_eq!(d.tournaments["club"].venue_dates.venue, "Athens");
//! // A second tournament of the same id is refused, and nothing changes.
//! assert!(d.decide(&create).is_err());
//! ```
//!
//! Limits that people's input is held to live here, as the rules' own: [`check_id`]
//! (1 to [`MAX_ID`] plain characters) and [`MAX_VENUE`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Details, ErrorKind, TournamentError};
use crate::backgammon::TournamentDefaults;
use crate::chess::ChessSettings;
use crate::table::MatchInfo;

/// Longest id chosen by people (a tournament, match, device or player), in bytes.
pub const MAX_ID: usize = 40;

/// Longest venue accepted, in characters.
pub const MAX_VENUE: usize = 100;

/// Ok if `id`, chosen by people, is short, plain, and safe in a URL and a stream name:
/// 1 to [`MAX_ID`] letters, digits, '-' or '_'; else INVALID naming `what`.
pub fn check_id(id: &str, what: &str) -> Result<(), TournamentError> {
    let plain = id
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if (1..=MAX_ID).contains(&id.len()) && plain {
        Ok(())
    } else {
        Err(TournamentError::invalid(format!(
            "{what}: 1 to {MAX_ID} letters, digits, '-' or '_', not {id:?}"
        )))
    }
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
    /// Its last day, `YYYY-MM-DD`, not before the first; only with a first day (a
    /// tournament that ends on a day but begins on none is a typo, not a date).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub last_day: String,
}

impl VenueDates {
    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.venue.is_empty() && self.first_day.is_empty() && self.last_day.is_empty()
    }

    /// Ok, or what is wrong, naming the field.
    pub fn check(&self) -> Result<(), TournamentError> {
        if self.venue.chars().count() > MAX_VENUE {
            return Err(TournamentError::invalid(format!(
                "tournament.venue: at most {MAX_VENUE} characters, not {}",
                self.venue.chars().count()
            )));
        }
        if self.venue.chars().any(char::is_control) {
            return Err(TournamentError::invalid(
                "tournament.venue: no control characters (a line break, a tab)",
            ));
        }
        for (field, day) in [("first_day", &self.first_day), ("last_day", &self.last_day)] {
            if !day.is_empty() && !is_calendar_day(day) {
                return Err(TournamentError::invalid(format!(
                    "tournament.{field}: a day as YYYY-MM-DD (e.g. 2026-11-23), not {day:?}"
                )));
            }
        }
        if self.first_day.is_empty() && !self.last_day.is_empty() {
            return Err(TournamentError::invalid(format!(
                "tournament.last_day {} needs tournament.first_day: give the first day too \
                 (the same day for a one-day tournament), or neither",
                self.last_day
            )));
        }
        // ISO days order as strings do.
        if !self.first_day.is_empty() && !self.last_day.is_empty() && self.last_day < self.first_day
        {
            return Err(TournamentError::invalid(format!(
                "tournament.last_day: {} is before the first day {}",
                self.last_day, self.first_day
            )));
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

/// A match replaced by a new one, with the director's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replacement {
    /// The match replaced.
    pub match_id: String,
    /// The director's words.
    pub ruling: String,
}

/// One record of the directory, as stored (a JSON object whose `kind` names it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Record {
    /// A tournament, with its defaults for backgammon matches.
    #[serde(rename = "tournament.created")]
    Tournament {
        /// Its id.
        id: String,
        /// Its name.
        name: String,
        /// Its defaults.
        defaults: TournamentDefaults,
        /// Where and when it is played (absent in records written before).
        #[serde(default, skip_serializing_if = "VenueDates::is_empty")]
        venue_dates: VenueDates,
    },
    /// A match, after its log's first records were stored.
    #[serde(rename = "match.created")]
    Match {
        /// Where it sits.
        info: MatchInfo,
        /// Its secret server seed, hex, in the clear: only in records written before
        /// seeds were sealed (still read). The directory keeps it opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server_seed: Option<String>,
        /// Its secret server seed, sealed by the server (opaque here).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sealed_seed: Option<String>,
        /// The match it replaces, by a ruling.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<Replacement>,
    },
    /// A tournament's draw opened: its log (`t/{id}`) commits to the draw seed held
    /// here, sealed like a match's server seed until the draw reveals it.
    #[serde(rename = "tournament.draw_opened")]
    DrawOpened {
        /// The tournament.
        id: String,
        /// Its draw seed, sealed by the server under the id `draw/{id}` (opaque here).
        sealed_seed: String,
        /// A chess tournament's game settings (players and start filled in per match).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chess: Option<ChessSettings>,
        /// The body of the log's first record, `tournament.opened`: written to the log
        /// after this record, and again at a start that finds the log empty (a crash
        /// between the two), the same bytes either way.
        opening: String,
    },
    /// A player put on the list, which lasts across tournaments: an entrant registered
    /// from it brings his rating and experience, and takes them back.
    #[serde(rename = "player.listed")]
    PlayerListed {
        /// His id on the list (a federation id, or one the director chooses).
        id: String,
        /// His name, federation id, club, rating and experience.
        details: Details,
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

/// What a director (or the server on his behalf) asks of the directory.
#[derive(Clone, Debug)]
pub enum Command {
    /// Create a tournament.
    CreateTournament {
        /// Its id ([`check_id`]).
        id: String,
        /// Its name.
        name: String,
        /// Its defaults for backgammon matches.
        defaults: TournamentDefaults,
        /// Where and when it is played.
        venue_dates: VenueDates,
    },
    /// Archive a tournament, or bring it back: the same state again records nothing.
    Archive {
        /// The tournament.
        id: String,
        /// Archived (true) or brought back (false).
        archived: bool,
    },
    /// Record a match whose log's first records are stored.
    CreateMatch {
        /// Where it sits.
        info: MatchInfo,
        /// Its server seed, sealed.
        sealed_seed: String,
        /// The match it replaces, by a ruling.
        replaces: Option<Replacement>,
    },
    /// Record that a tournament's draw is open.
    OpenDraw {
        /// The tournament.
        id: String,
        /// Its draw seed, sealed.
        sealed_seed: String,
        /// A chess tournament's game settings.
        chess: Option<ChessSettings>,
        /// The body of the draw log's first record.
        opening: String,
    },
    /// Put players on the list, all or none.
    ListPlayers(Vec<(String, Details)>),
    /// Write a listed player's rating after a rated result back to the list.
    RatePlayer {
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
    /// Correct a listed player's name: the same name again records nothing.
    RenamePlayer {
        /// The player.
        id: String,
        /// His name now.
        name: String,
    },
}

/// A tournament as the directory holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentEntry {
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

/// What the directory holds of a tournament's draw: the sealed seed and the chess
/// settings; everything else is in the tournament's own log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawEntry {
    /// The draw seed, sealed under `draw/{id}`.
    pub sealed_seed: String,
    /// A chess tournament's game settings.
    pub chess: Option<ChessSettings>,
    /// The body of the log's first record.
    pub opening: String,
}

/// A player on the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedPlayer {
    /// His details, with his rating and experience now.
    pub details: Details,
    /// Each rated result: the tournament, the match's key and his rating after it.
    pub history: Vec<(String, String, i64)>,
}

/// The directory: the fold of its records.
#[derive(Clone, Debug, Default)]
pub struct Directory {
    /// Tournaments by id.
    pub tournaments: BTreeMap<String, TournamentEntry>,
    /// Matches by id: where each sits.
    pub matches: BTreeMap<String, MatchInfo>,
    /// Matches replaced by a ruling: the match that replaced each, and the words.
    pub replaced: BTreeMap<String, (String, String)>,
    /// The list of players that lasts across tournaments, by id.
    pub players: BTreeMap<String, ListedPlayer>,
}

/// An id taken already.
fn exists(message: String) -> TournamentError {
    TournamentError {
        kind: ErrorKind::Exists,
        message,
    }
}

impl Directory {
    /// The records `command` writes, or why it is refused. Changes nothing.
    pub fn decide(&self, command: &Command) -> Result<Vec<Record>, TournamentError> {
        Ok(match command {
            Command::CreateTournament {
                id,
                name,
                defaults,
                venue_dates,
            } => {
                check_id(id, "tournament.id")?;
                venue_dates.check()?;
                if self.tournaments.contains_key(id) {
                    return Err(exists(format!("tournament {id} exists")));
                }
                vec![Record::Tournament {
                    id: id.clone(),
                    name: name.clone(),
                    defaults: defaults.clone(),
                    venue_dates: venue_dates.clone(),
                }]
            }
            Command::Archive { id, archived } => {
                if self.tournament(id)?.archived == *archived {
                    return Ok(Vec::new());
                }
                vec![Record::TournamentArchived {
                    id: id.clone(),
                    archived: *archived,
                }]
            }
            Command::CreateMatch {
                info,
                sealed_seed,
                replaces,
            } => self.decide_match(info, sealed_seed, replaces)?,
            Command::OpenDraw {
                id,
                sealed_seed,
                chess,
                opening,
            } => {
                if self.tournament(id)?.draw.is_some() {
                    return Err(exists(format!("tournament {id} has a draw already")));
                }
                vec![Record::DrawOpened {
                    id: id.clone(),
                    sealed_seed: sealed_seed.clone(),
                    chess: chess.clone(),
                    opening: opening.clone(),
                }]
            }
            Command::ListPlayers(players) => self.decide_list(players)?,
            Command::RatePlayer {
                id,
                tournament,
                key,
                rating,
                experience,
            } => {
                self.player(id)?;
                vec![Record::PlayerRated {
                    id: id.clone(),
                    tournament: tournament.clone(),
                    key: key.clone(),
                    rating: *rating,
                    experience: *experience,
                }]
            }
            Command::RenamePlayer { id, name } => {
                if self.player(id)?.details.name == *name {
                    return Ok(Vec::new());
                }
                vec![Record::PlayerRenamed {
                    id: id.clone(),
                    name: name.clone(),
                }]
            }
        })
    }

    /// A match's record: its ids plain, its tournament known, its id free, and the match
    /// it replaces (if any) known and not replaced already.
    fn decide_match(
        &self,
        info: &MatchInfo,
        sealed_seed: &str,
        replaces: &Option<Replacement>,
    ) -> Result<Vec<Record>, TournamentError> {
        check_id(&info.id, "match_id")?;
        self.tournament(&info.tournament)?;
        if self.matches.contains_key(&info.id) {
            return Err(exists(format!("match {} exists", info.id)));
        }
        if let Some(r) = replaces {
            if !self.matches.contains_key(&r.match_id) {
                return Err(TournamentError::not_found(format!(
                    "replaces: no match {}",
                    r.match_id
                )));
            }
            if let Some((by, _)) = self.replaced.get(&r.match_id) {
                return Err(TournamentError::rule(format!(
                    "match {} was replaced already, by {by}",
                    r.match_id
                )));
            }
        }
        Ok(vec![Record::Match {
            info: info.clone(),
            server_seed: None,
            sealed_seed: Some(sealed_seed.to_string()),
            replaces: replaces.clone(),
        }])
    }

    /// Players listed all or none: each id plain and free, each player's details valid.
    fn decide_list(&self, players: &[(String, Details)]) -> Result<Vec<Record>, TournamentError> {
        let mut records = Vec::with_capacity(players.len());
        for (id, details) in players {
            check_id(id, "player id")?;
            details.validate()?;
            let twice = records
                .iter()
                .any(|r| matches!(r, Record::PlayerListed { id: listed, .. } if listed == id));
            if self.players.contains_key(id) {
                return Err(exists(format!("player {id} is listed already")));
            }
            if twice {
                return Err(exists(format!("player {id} is named twice in the list")));
            }
            records.push(Record::PlayerListed {
                id: id.clone(),
                details: details.clone(),
            });
        }
        Ok(records)
    }

    /// Tournament `id`, or NOT_FOUND.
    pub fn tournament(&self, id: &str) -> Result<&TournamentEntry, TournamentError> {
        self.tournaments
            .get(id)
            .ok_or_else(|| TournamentError::not_found(format!("no tournament {id}")))
    }

    /// Listed player `id`, or NOT_FOUND.
    pub fn player(&self, id: &str) -> Result<&ListedPlayer, TournamentError> {
        self.players
            .get(id)
            .ok_or_else(|| TournamentError::not_found(format!("no player {id} on the list")))
    }

    /// Folds `record` in. A record that names a tournament not created is an error (a
    /// stored stream out of order); one that names an unknown player or device changes
    /// nothing, as the records before this module did.
    pub fn evolve(&mut self, record: Record) -> Result<(), String> {
        match record {
            Record::Tournament {
                id,
                name,
                defaults,
                venue_dates,
            } => {
                let entry = TournamentEntry {
                    name,
                    defaults,
                    venue_dates,
                    archived: false,
                    draw: None,
                };
                self.tournaments.insert(id, entry);
            }
            Record::DrawOpened {
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
            Record::Match { info, replaces, .. } => {
                if let Some(r) = replaces {
                    self.replaced
                        .insert(r.match_id, (info.id.clone(), r.ruling));
                }
                self.matches.insert(info.id.clone(), info);
            }
            Record::PlayerListed { id, details } => {
                let history = Vec::new();
                self.players.insert(id, ListedPlayer { details, history });
            }
            Record::PlayerRated {
                id,
                tournament,
                key,
                rating,
                experience,
            } => {
                if let Some(p) = self.players.get_mut(&id) {
                    p.details.rating = Some(super::rating::Rating(rating));
                    p.details.experience = experience;
                    p.history.push((tournament, key, rating));
                }
            }
            Record::PlayerRenamed { id, name } => {
                if let Some(p) = self.players.get_mut(&id) {
                    p.details.name = name;
                }
            }
            Record::TournamentArchived { id, archived } => {
                let t = self
                    .tournaments
                    .get_mut(&id)
                    .ok_or_else(|| format!("tournament {id} archived before it was created"))?;
                t.archived = archived;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
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
        assert!(
            long.check()
                .unwrap_err()
                .message
                .contains("tournament.venue")
        );
        let backwards = VenueDates {
            last_day: "2026-11-20".into(),
            ..ok
        };
        assert!(backwards.check().unwrap_err().message.contains("before"));
    }

    fn created(d: &mut Directory, command: Command) {
        for record in d.decide(&command).unwrap() {
            d.evolve(record).unwrap();
        }
    }

    fn info(id: &str) -> MatchInfo {
        MatchInfo {
            id: id.into(),
            tournament: "club".into(),
            round: 1,
            table: "1".into(),
        }
    }

    fn new_match(id: &str, replaces: Option<&str>) -> Command {
        Command::CreateMatch {
            info: info(id),
            sealed_seed: "v1.sealed".into(),
            replaces: replaces.map(|m| Replacement {
                match_id: m.into(),
                ruling: "a wrong opening".into(),
            }),
        }
    }

    fn club() -> Directory {
        let mut d = Directory::default();
        let create = Command::CreateTournament {
            id: "club".into(),
            name: "Club".into(),
            defaults: TournamentDefaults::default(),
            venue_dates: VenueDates::default(),
        };
        created(&mut d, create);
        d
    }

    #[test]
    fn ids_are_plain_and_a_taken_one_is_refused_naming_it() {
        assert!(check_id("r1-t2_b", "match_id").is_ok());
        for bad in ["", "a b", "t/1", "ά", &"x".repeat(MAX_ID + 1)] {
            let e = check_id(bad, "match_id").unwrap_err();
            assert_eq!(e.kind, ErrorKind::Invalid, "{bad:?}");
            assert!(e.message.starts_with("match_id: "), "{}", e.message);
        }
        let mut d = club();
        created(&mut d, new_match("m1", None));
        let e = d.decide(&new_match("m1", None)).unwrap_err();
        assert_eq!(
            (e.kind, e.message.as_str()),
            (ErrorKind::Exists, "match m1 exists")
        );
        let mut elsewhere = info("m2");
        elsewhere.tournament = "nowhere".into();
        let command = Command::CreateMatch {
            info: elsewhere,
            sealed_seed: "v1.x".into(),
            replaces: None,
        };
        assert_eq!(d.decide(&command).unwrap_err().kind, ErrorKind::NotFound);
    }

    /// A match replaces one that exists, once: the directory links the two, and a second
    /// replacement of the same match is refused naming the first.
    #[test]
    fn a_match_is_replaced_once_and_the_two_are_linked() {
        let mut d = club();
        assert_eq!(
            d.decide(&new_match("m2", Some("m1"))).unwrap_err().kind,
            ErrorKind::NotFound
        );
        created(&mut d, new_match("m1", None));
        created(&mut d, new_match("m2", Some("m1")));
        assert_eq!(d.replaced["m1"], ("m2".into(), "a wrong opening".into()));
        let e = d.decide(&new_match("m3", Some("m1"))).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Rule);
        assert!(
            e.message.contains("replaced already, by m2"),
            "{}",
            e.message
        );
    }

    /// Players are listed all or none: one taken id, or the same id twice in one list,
    /// refuses the whole list; the same state again (a rename to the name he has, an
    /// archive of an archived tournament) records nothing.
    #[test]
    fn players_are_listed_all_or_none_and_a_no_change_records_nothing() {
        let mut d = club();
        let details = |name: &str| Details {
            name: name.into(),
            ..Details::default()
        };
        let twice = Command::ListPlayers(vec![
            ("p1".into(), details("Anna")),
            ("p1".into(), details("Ben")),
        ]);
        assert_eq!(d.decide(&twice).unwrap_err().kind, ErrorKind::Exists);
        created(
            &mut d,
            Command::ListPlayers(vec![("p1".into(), details("Anna"))]),
        );
        let again = Command::ListPlayers(vec![
            ("p2".into(), details("Ben")),
            ("p1".into(), details("Anna")),
        ]);
        assert_eq!(d.decide(&again).unwrap_err().kind, ErrorKind::Exists);
        assert!(!d.players.contains_key("p2"));
        let same_name = Command::RenamePlayer {
            id: "p1".into(),
            name: "Anna".into(),
        };
        assert_eq!(d.decide(&same_name).unwrap(), Vec::new());
        let unarchive = Command::Archive {
            id: "club".into(),
            archived: false,
        };
        assert_eq!(d.decide(&unarchive).unwrap(), Vec::new());
    }
}
