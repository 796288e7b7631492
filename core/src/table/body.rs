//! Every kind of record a match log holds, as one typed enum: [`Body`].
//!
//! A record's body is the exact text that was hashed, so each kind has exactly one
//! spelling, and [`Body::parse`] accepts a text only if writing the parsed value again
//! gives the same bytes ([`Body::text`]). A body with a duplicated key, a reordered key,
//! extra white space or an unknown field is refused as not canonical; hex is checked for
//! lower case where it is read ([`super::dice`]).
//!
//! Two spellings exist, both kept from the first logs written, so those logs verify:
//! the dice entries and the game events are written with `kind` first and the other fields
//! in declaration order; the set-up, device inputs, dice anomalies, chess rulings and
//! renames are written with every object's keys sorted (`kind` among them), as is the
//! takeover of a match by another server node (`table.takeover`, `docs/cluster.md`).

use serde::{Deserialize, Serialize};

use crate::GameType;
use crate::audit::Entry;
use crate::backgammon::{self, MatchSetup};
use crate::chess::{self, ChessSettings};
use crate::device_time::Bound;
pub use crate::dice::SeedPolicy;

/// Where a match sits in its tournament: the `info` of its set-up record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchInfo {
    /// The match id (the one hashed into the dice key).
    pub id: String,
    /// Its tournament.
    pub tournament: String,
    /// Round, 1 = first.
    pub round: u32,
    /// Table label.
    pub table: String,
}

/// Which game a match plays, and its settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameSetup {
    /// Backgammon: `"setup": {…}` in the record.
    #[serde(rename = "setup")]
    Backgammon(MatchSetup),
    /// Chess: `"chess": {…}` in the record.
    #[serde(rename = "chess")]
    Chess(ChessSettings),
}

/// The second record of every log: where the match sits and how it is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRecord {
    /// Where the match sits.
    pub info: MatchInfo,
    /// The game and its settings.
    #[serde(flatten)]
    pub game: GameSetup,
    /// Whether the players' seeds are required (left out when optional, as in the first
    /// logs).
    #[serde(default, skip_serializing_if = "SeedPolicy::is_optional")]
    pub seeds: SeedPolicy,
    /// How long the players have to reveal their seeds once both committed, in ms
    /// (`dice.reveal_due`); left out for [`DEFAULT_REVEAL_WINDOW`], as in the first logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_window_ms: Option<u64>,
}

/// How long the players have to reveal their seeds once both committed, unless the
/// tournament says otherwise: five minutes, time enough for a phone to reconnect and
/// little enough that a staller is seen by the director before the round is over.
pub const DEFAULT_REVEAL_WINDOW: crate::time::Millis = crate::time::Millis::secs(300);

/// The longest reveal window a match takes: a day.
pub const MAX_REVEAL_WINDOW: crate::time::Millis = crate::time::Millis::secs(86_400);

/// A device's input as received: recorded before the events it caused, or alone when
/// it was refused, so a replay applies it exactly once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceInputRecord {
    /// The device.
    pub device: String,
    /// Its sequence number: 1 for its first input, then one more each time.
    pub seq: u64,
    /// The device's own time for the input, ms on its clock.
    pub device_ms: i64,
    /// That time on the server's clock, if the device's clock was known.
    pub claimed_at: Option<i64>,
    /// When the server received it.
    pub receipt: i64,
    /// The instant the player was charged to.
    pub charged_at: i64,
    /// How much earlier than the receipt that is.
    pub credit_ms: i64,
    /// Which bound decided the charged instant.
    pub bound: Bound,
    /// `applied`, or `refused: ` and why.
    pub outcome: String,
}

/// A dice anomaly raised by the statistical watch of physically rolled dice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnomalyRecord {
    /// The anomaly in words.
    pub message: String,
    /// Its p-value.
    pub p_value: f64,
}

/// The arbiter's reason for the chess events that follow it in the same append.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessRuling {
    /// What happened and why.
    pub reason: String,
    /// The article applied.
    pub article: String,
}

/// Another server node took the match over (its lease in the database passed to it with
/// a new epoch, `docs/cluster.md`): from this record on, that node writes the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeoverRecord {
    /// When the node took over, ms on the server's time line.
    pub at: i64,
    /// The lease's epoch: greater than every earlier takeover's in the log.
    pub epoch: u64,
    /// The node's id (`baffled --node-id`).
    pub node: String,
    /// Time given to `side`'s clock for the outage, in ms (a match played without
    /// devices, `docs/cluster.md`): 1 to [`super::MAX_TAKEOVER_CREDIT`]. Written only
    /// with a credit, so a takeover without one keeps the first logs' spelling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_ms: Option<u64>,
    /// Whose clock was running and got `credit_ms` (in chess, the player, not the
    /// colour). Present exactly when `credit_ms` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<crate::side::Side>,
}

/// `baffled` restarted on a single server (the embedded store): the outage, measured
/// from its last heartbeat, charged `side`'s clock `charged_ms` in a match played
/// without devices, and `credit_ms` of it is given back — all of it up to
/// [`super::MAX_RESTART_CREDIT`] (`docs/server.md`, "A restart"). Written only when the
/// outage charged a running clock; the fold recomputes `charged_ms` from `at` and
/// `down_ms` and checks the credit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestartRecord {
    /// When the restarted server recorded it, ms on the server's time line.
    pub at: i64,
    /// How long the server had been silent: `at` minus its last heartbeat, in ms.
    pub down_ms: u64,
    /// What the outage charged `side`'s clock, in ms.
    pub charged_ms: u64,
    /// What is given back: `charged_ms` up to the bound.
    pub credit_ms: u64,
    /// Whose clock was running (in chess, the player, not the colour).
    pub side: crate::side::Side,
}

/// The director corrected a player's name (a misspelling at registration): the name
/// the match, its followers and its exports use from here on. `was` is the name it
/// replaces, so that the log reads on its own and a replay checks it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenameRecord {
    /// Whose name: A or B (in chess, A has White in game 1).
    pub side: crate::side::Side,
    /// The name before.
    pub was: String,
    /// The name from now on ([`check_player_name`]).
    pub name: String,
}

/// The longest player name accepted by a rename, in characters.
pub const MAX_PLAYER_NAME: usize = 64;

/// Checks a player's new name and returns it trimmed: 1 to [`MAX_PLAYER_NAME`]
/// characters, no control characters (a name is shown on one line everywhere).
pub fn check_player_name(name: &str) -> Result<&str, String> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 {
        return Err("a player's name cannot be empty".into());
    }
    if chars > MAX_PLAYER_NAME {
        return Err(format!(
            "a player's name has at most {MAX_PLAYER_NAME} characters, not {chars}"
        ));
    }
    if name.chars().any(char::is_control) {
        return Err("a player's name is one line of text, without control characters".into());
    }
    Ok(name)
}

/// The kinds written with sorted keys, as one serde enum so each carries its `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
enum Sorted {
    #[serde(rename = "match.setup")]
    Setup(SetupRecord),
    #[serde(rename = "device.input")]
    DeviceInput(DeviceInputRecord),
    #[serde(rename = "dice.anomaly")]
    Anomaly(AnomalyRecord),
    #[serde(rename = "chess.ruling")]
    ChessRuling(ChessRuling),
    #[serde(rename = "table.takeover")]
    Takeover(TakeoverRecord),
    #[serde(rename = "table.restart")]
    Restart(RestartRecord),
    #[serde(rename = "match.renamed")]
    Renamed(RenameRecord),
}

/// One record of a match log. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// `match.opened` and the `dice.*` entries.
    Dice(Entry),
    /// `match.setup`.
    Setup(SetupRecord),
    /// `device.input`.
    DeviceInput(DeviceInputRecord),
    /// `dice.anomaly`.
    Anomaly(AnomalyRecord),
    /// `chess.ruling`.
    ChessRuling(ChessRuling),
    /// `match.renamed`.
    Renamed(RenameRecord),
    /// A backgammon event, `bg.*`.
    Backgammon(backgammon::Event),
    /// A chess event, `chess.*`.
    Chess(chess::MatchEvent),
    /// `table.takeover`: another server node writes the log from here on.
    Takeover(TakeoverRecord),
    /// `table.restart`: a single server came back, and credits its outage.
    Restart(RestartRecord),
}

impl Body {
    /// The record text: the one canonical spelling of this body.
    pub fn text(&self) -> String {
        let sorted = |s: Sorted| {
            // serde_json's maps are ordered by key, so going through a `Value` sorts
            // every object, nested ones too.
            serde_json::to_value(&s)
                .expect("bodies always serialize")
                .to_string()
        };
        match self {
            Body::Dice(e) => e.body(),
            Body::Setup(s) => sorted(Sorted::Setup(s.clone())),
            Body::DeviceInput(d) => sorted(Sorted::DeviceInput(d.clone())),
            Body::Anomaly(a) => sorted(Sorted::Anomaly(a.clone())),
            Body::ChessRuling(r) => sorted(Sorted::ChessRuling(r.clone())),
            Body::Takeover(t) => sorted(Sorted::Takeover(t.clone())),
            Body::Restart(r) => sorted(Sorted::Restart(r.clone())),
            Body::Renamed(r) => sorted(Sorted::Renamed(r.clone())),
            Body::Backgammon(e) => e.body(),
            Body::Chess(e) => e.body(),
        }
    }

    /// The body's `kind`.
    pub fn kind(&self) -> String {
        crate::audit::kind_of(&self.text()).unwrap_or_default()
    }

    /// Parses a record text in a log of `game` (`None` before the set-up is known: only
    /// the opening and set-up records can be read then). The text must be canonical.
    pub fn parse(text: &str, game: Option<GameType>) -> Result<Body, String> {
        let kind =
            crate::audit::kind_of(text).ok_or("the body is not JSON with a string \"kind\"")?;
        let malformed = |e: serde_json::Error| format!("malformed {kind} record: {e}");
        let body = match kind.as_str() {
            "match.setup" | "device.input" | "dice.anomaly" | "chess.ruling" | "table.takeover"
            | "table.restart" | "match.renamed" => {
                match serde_json::from_str::<Sorted>(text).map_err(malformed)? {
                    Sorted::Setup(s) => Body::Setup(s),
                    Sorted::DeviceInput(d) => Body::DeviceInput(d),
                    Sorted::Anomaly(a) => Body::Anomaly(a),
                    Sorted::ChessRuling(r) => Body::ChessRuling(r),
                    Sorted::Takeover(t) => Body::Takeover(t),
                    Sorted::Restart(r) => Body::Restart(r),
                    Sorted::Renamed(r) => Body::Renamed(r),
                }
            }
            k if Entry::KINDS.contains(&k) => {
                Body::Dice(serde_json::from_str(text).map_err(malformed)?)
            }
            _ => match game {
                None => return Err(format!("a {kind} record before the match's set-up")),
                Some(GameType::Backgammon) => {
                    Body::Backgammon(serde_json::from_str(text).map_err(malformed)?)
                }
                Some(GameType::Chess) => Body::Chess(serde_json::from_str(text).map_err(|_| {
                    format!("malformed {kind} record: not a chess event this log can hold")
                })?),
            },
        };
        if body.text() != text {
            return Err(format!(
                "the {kind} record is not in its canonical form (one spelling per record: \
                 no repeated or reordered keys, no spaces, no unknown fields)"
            ));
        }
        Ok(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_kinds_keep_the_spelling_of_the_first_logs() {
        let text = r#"{"article":"6.10","kind":"chess.ruling","reason":"set wrongly"}"#;
        let body = Body::parse(text, Some(GameType::Chess)).unwrap();
        assert_eq!(
            body,
            Body::ChessRuling(ChessRuling {
                reason: "set wrongly".into(),
                article: "6.10".into()
            })
        );
        assert_eq!(body.text(), text);
    }

    #[test]
    fn anything_but_the_one_spelling_is_refused() {
        let cases = [
            // a repeated key
            r#"{"article":"6.10","article":"6.11","kind":"chess.ruling","reason":"x"}"#,
            // reordered keys
            r#"{"kind":"chess.ruling","article":"6.10","reason":"x"}"#,
            // a space
            r#"{"article": "6.10","kind":"chess.ruling","reason":"x"}"#,
            // an unknown field
            r#"{"article":"6.10","extra":1,"kind":"chess.ruling","reason":"x"}"#,
            // a repeated key in a declared-order kind
            r#"{"kind":"dice.roll","side":"A","side":"B","dice":[1,2]}"#,
        ];
        for text in cases {
            let e = Body::parse(text, Some(GameType::Chess)).unwrap_err();
            assert!(
                e.contains("canonical") || e.contains("malformed") || e.contains("duplicate"),
                "{text}: {e}"
            );
        }
    }

    #[test]
    fn a_takeover_has_one_spelling_in_either_game() {
        let text = r#"{"at":5,"epoch":2,"kind":"table.takeover","node":"n2"}"#;
        for game in [GameType::Backgammon, GameType::Chess] {
            let body = Body::parse(text, Some(game)).unwrap();
            assert_eq!(
                body,
                Body::Takeover(TakeoverRecord {
                    at: 5,
                    epoch: 2,
                    node: "n2".into(),
                    credit_ms: None,
                    side: None,
                })
            );
            assert_eq!(body.text(), text);
        }
        let extra = r#"{"at":5,"epoch":2,"kind":"table.takeover","node":"n2","x":1}"#;
        assert!(Body::parse(extra, Some(GameType::Chess)).is_err());
    }

    #[test]
    fn a_restart_has_one_spelling() {
        let text = r#"{"at":5,"charged_ms":90000,"credit_ms":60000,"down_ms":91000,"kind":"table.restart","side":"B"}"#;
        let body = Body::parse(text, Some(GameType::Backgammon)).unwrap();
        assert_eq!(
            body,
            Body::Restart(RestartRecord {
                at: 5,
                down_ms: 91_000,
                charged_ms: 90_000,
                credit_ms: 60_000,
                side: crate::side::Side::B,
            })
        );
        assert_eq!(body.text(), text);
        let missing =
            r#"{"at":5,"charged_ms":90000,"down_ms":91000,"kind":"table.restart","side":"B"}"#;
        assert!(Body::parse(missing, Some(GameType::Chess)).is_err());
    }

    #[test]
    fn a_takeover_credit_has_one_spelling() {
        let text =
            r#"{"at":5,"credit_ms":900,"epoch":2,"kind":"table.takeover","node":"n2","side":"B"}"#;
        let body = Body::parse(text, Some(GameType::Backgammon)).unwrap();
        assert_eq!(
            body,
            Body::Takeover(TakeoverRecord {
                at: 5,
                epoch: 2,
                node: "n2".into(),
                credit_ms: Some(900),
                side: Some(crate::side::Side::B),
            })
        );
        assert_eq!(body.text(), text);
        for bad in [
            r#"{"at":5,"credit_ms":null,"epoch":2,"kind":"table.takeover","node":"n2"}"#,
            r#"{"at":5,"epoch":2,"kind":"table.takeover","node":"n2","side":null}"#,
            r#"{"at":5,"epoch":2,"credit_ms":900,"kind":"table.takeover","node":"n2","side":"B"}"#,
            r#"{"at":5,"credit_ms":-1,"epoch":2,"kind":"table.takeover","node":"n2","side":"B"}"#,
            r#"{"at":5,"credit_ms":1.5,"epoch":2,"kind":"table.takeover","node":"n2","side":"B"}"#,
            r#"{"at":5,"credit_ms":900,"epoch":2,"kind":"table.takeover","node":"n2","side":"C"}"#,
        ] {
            assert!(
                Body::parse(bad, Some(GameType::Backgammon)).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_rename_has_one_spelling_and_a_checked_name() {
        let text = r#"{"kind":"match.renamed","name":"Γιώργος Παπαδάκης","side":"B","was":"Giorgos Papadakis"}"#;
        let body = Body::parse(text, Some(GameType::Backgammon)).unwrap();
        assert_eq!(body.text(), text);
        assert_eq!(body.kind(), "match.renamed");
        assert!(Body::parse(text, None).is_ok(), "readable in either game");
        assert_eq!(check_player_name("  Anna  "), Ok("Anna"));
        for bad in ["", "   ", "a\nb", &"x".repeat(MAX_PLAYER_NAME + 1)] {
            assert!(check_player_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_player_name(&"Ω".repeat(MAX_PLAYER_NAME)).is_ok());
    }

    #[test]
    fn a_game_event_is_read_as_the_logs_game_only() {
        let pressed = r#"{"at":5,"kind":"bg.pressed","side":"A"}"#;
        assert!(Body::parse(pressed, Some(GameType::Backgammon)).is_ok());
        assert!(Body::parse(pressed, Some(GameType::Chess)).is_err());
        assert!(Body::parse(pressed, None).is_err());
        let bad_side = r#"{"at":5,"kind":"bg.pressed","side":"C"}"#;
        assert!(Body::parse(bad_side, Some(GameType::Backgammon)).is_err());
    }
}
