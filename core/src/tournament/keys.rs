//! The names a tournament gives what it holds: an entrant's number, and a match's place
//! in the draw. Both are small values with one spelling, so a log names them exactly.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An entrant of a tournament: numbered from 1 in the order of registration, never
/// reused (a withdrawn entrant keeps his number). Shown as `#3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntrantId(pub u32);

impl fmt::Display for EntrantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A flight of a knockout: the main draw, and the second chances fed by its losers
/// (as DrawBoss's formats have them). Round robins and Swisses have one flight, the main.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flight {
    /// The main draw.
    Main,
    /// The consolation: the main's first-round losers.
    Consolation,
    /// The last chance: the consolation's first-round losers.
    LastChance,
}

impl Flight {
    /// Its one-letter tag in a match key: `M`, `C`, `L`.
    pub fn letter(self) -> char {
        match self {
            Flight::Main => 'M',
            Flight::Consolation => 'C',
            Flight::LastChance => 'L',
        }
    }

    /// The flight a tag names.
    pub fn from_letter(c: char) -> Option<Flight> {
        match c.to_ascii_uppercase() {
            'M' => Some(Flight::Main),
            'C' => Some(Flight::Consolation),
            'L' => Some(Flight::LastChance),
            _ => None,
        }
    }
}

/// Where a match sits in the draw: its flight, its round (from 1) and its index in the
/// round (from 1, top of the bracket first; the board number in a round robin or
/// Swiss). Spelled `M1-3`: main flight, round 1, third match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MatchKey {
    /// The flight.
    pub flight: Flight,
    /// The round, from 1.
    pub round: u32,
    /// The match's place in its round, from 1.
    pub index: u32,
}

impl MatchKey {
    /// A key in the main flight.
    pub fn main(round: u32, index: u32) -> MatchKey {
        MatchKey {
            flight: Flight::Main,
            round,
            index,
        }
    }

    /// The key a match id of `tournament`'s draw names (`club-m1-3`, a replacement
    /// `club-m1-3-r2`); `None` for an id the draw would not give.
    pub fn of_draw_id(tournament: &str, match_id: &str) -> Option<MatchKey> {
        let rest = match_id.strip_prefix(tournament)?.strip_prefix('-')?;
        let key = rest.split_once("-r").map_or(rest, |(k, _)| k);
        MatchKey::parse(key)
    }

    /// Reads `M1-3` (case-insensitive flight letter); `None` for anything else.
    pub fn parse(s: &str) -> Option<MatchKey> {
        let mut chars = s.chars();
        let flight = Flight::from_letter(chars.next()?)?;
        let (round, index) = chars.as_str().split_once('-')?;
        let number = |t: &str| -> Option<u32> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || t.starts_with('0') {
                return None;
            }
            t.parse().ok()
        };
        Some(MatchKey {
            flight,
            round: number(round)?,
            index: number(index)?,
        })
    }
}

impl fmt::Display for MatchKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}-{}", self.flight.letter(), self.round, self.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_reads_back_what_it_writes() {
        let k = MatchKey {
            flight: Flight::Consolation,
            round: 2,
            index: 7,
        };
        assert_eq!(k.to_string(), "C2-7");
        assert_eq!(MatchKey::parse("C2-7"), Some(k));
        assert_eq!(MatchKey::parse("c2-7"), Some(k));
        for bad in [
            "", "M", "M1", "M1-", "M-1", "X1-1", "M01-1", "M1-0x", "M1-+1",
        ] {
            assert_eq!(MatchKey::parse(bad), None, "{bad}");
        }
    }
}
