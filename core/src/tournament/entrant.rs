//! An entrant: a player registered in a tournament, once. Matches name entrants by
//! number, never by a retyped name, so a rename is one record and a typo never makes a
//! second player.

use serde::{Deserialize, Serialize};

use super::TournamentError;
use super::rating::Rating;

/// The longest name, federation id or club, in characters.
pub const MAX_TEXT: usize = 60;

/// Where an entrant stands before the draw (1.4: every entrant is approved by the
/// director, who may refuse one with a reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Registered, not yet approved.
    Registered,
    /// Approved by the director (1.4).
    Approved,
    /// Approved and present at the venue: in the draw.
    CheckedIn,
    /// Refused by the director (1.4) or withdrawn: never drawn.
    Out,
}

/// What a registration says of a player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Details {
    /// The name people know him by.
    pub name: String,
    /// His federation's id for him, if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub federation_id: String,
    /// His club, if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub club: String,
    /// His rating when he entered, if he has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
    /// The sum of the lengths of the rated matches he has played (FIBS's experience).
    #[serde(default)]
    pub experience: u32,
    /// His id in the server's player list, when he came from it: ratings and history
    /// follow him from tournament to tournament.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub player: String,
}

impl Details {
    /// A name and nothing else.
    pub fn named(name: &str) -> Details {
        Details {
            name: name.to_string(),
            ..Details::default()
        }
    }

    /// Checks every text: a name of 1 to [`MAX_TEXT`] characters with no control
    /// characters, the rest at most as long; the name trimmed of spaces.
    pub fn validate(&self) -> Result<(), TournamentError> {
        check_text("name", &self.name, true)?;
        check_text("federation id", &self.federation_id, false)?;
        check_text("club", &self.club, false)?;
        check_text("player", &self.player, false)?;
        if let Some(r) = self.rating
            && !(0..=super::rating::Rating::MAX.0).contains(&r.0)
        {
            return Err(TournamentError::invalid(format!(
                "a rating is 0 to {}, not {r}",
                super::rating::Rating::MAX
            )));
        }
        Ok(())
    }
}

/// Checks one text field of a registration.
pub fn check_text(what: &str, text: &str, required: bool) -> Result<(), TournamentError> {
    if required && text.trim().is_empty() {
        return Err(TournamentError::invalid(format!("the {what} is empty")));
    }
    if text.trim() != text {
        return Err(TournamentError::invalid(format!(
            "the {what} {text:?} starts or ends with a space"
        )));
    }
    if text.chars().count() > MAX_TEXT {
        return Err(TournamentError::invalid(format!(
            "the {what} is longer than {MAX_TEXT} characters"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(TournamentError::invalid(format!(
            "the {what} {text:?} holds a control character"
        )));
    }
    Ok(())
}

/// An entrant as the tournament holds him.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// What his registration said (the name as last renamed).
    pub details: Details,
    /// Where he stands.
    pub status: Status,
    /// His rating now: his entry rating moved by each confirmed result.
    pub rating: Option<Rating>,
    /// His experience now.
    pub experience: u32,
}

/// Two names are the same player's when they differ only in case and spaces: a second
/// registration of one of them is refused, so a typo'd duplicate is caught at the door.
pub fn same_name(a: &str, b: &str) -> bool {
    let fold = |s: &str| -> String {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    fold(a) == fold(b)
}
