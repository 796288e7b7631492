//! How a tournament's field is drawn and played: a knockout (with its second-chance
//! flights), a round robin, or a Swiss; and the game and match length of its matches.

use serde::{Deserialize, Serialize};

use super::TournamentError;
use super::knockout::Flights;
use crate::GameType;

/// The most entrants a drawn tournament takes: a knockout of 256 has 255 main matches,
/// a round robin of 256 has 32 640 — beyond any room, and every draw stays a small
/// computation.
pub const MAX_ENTRANTS: u32 = 256;

/// The most rounds a Swiss may have.
pub const MAX_SWISS_ROUNDS: u32 = 30;

/// The format of a drawn tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum Format {
    /// A knockout: the winner of each match goes on; byes only in the main's first
    /// round, to the top seeds; the flights fed by the main's losers.
    Knockout {
        /// Main only, or with a consolation, or with a consolation and a last chance.
        flights: Flights,
    },
    /// Everyone plays everyone, in FIDE's Berger order, once or twice.
    RoundRobin {
        /// 1 (single) or 2 (double, colours reversed).
        cycles: u32,
    },
    /// A Swiss: each round pairs players of equal score, no rematch while another
    /// pairing exists.
    Swiss {
        /// How many rounds.
        rounds: u32,
    },
}

/// What a drawn tournament is: its format, game and match length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// The format.
    #[serde(flatten)]
    pub format: Format,
    /// The game.
    #[serde(default)]
    pub game: GameType,
    /// The length of its backgammon matches, in points (1 for chess).
    pub length: u32,
}

impl Plan {
    /// Checks the numbers: a length a match may have, a round robin of one or two
    /// cycles, a Swiss of 1 to [`MAX_SWISS_ROUNDS`] rounds; a chess tournament plays a
    /// round robin or a Swiss (a knockout of chess games needs tie-break games baffle
    /// does not schedule).
    pub fn validate(&self) -> Result<(), TournamentError> {
        let max = crate::backgammon::setup::MAX_LENGTH;
        if !(1..=max).contains(&self.length) {
            return Err(TournamentError::invalid(format!(
                "a match length is 1 to {max} points, not {}",
                self.length
            )));
        }
        match self.format {
            Format::RoundRobin { cycles } if !(1..=2).contains(&cycles) => Err(
                TournamentError::invalid(format!("a round robin has 1 or 2 cycles, not {cycles}")),
            ),
            Format::Swiss { rounds } if !(1..=MAX_SWISS_ROUNDS).contains(&rounds) => {
                Err(TournamentError::invalid(format!(
                    "a Swiss has 1 to {MAX_SWISS_ROUNDS} rounds, not {rounds}"
                )))
            }
            Format::Knockout { .. } if self.game == GameType::Chess => {
                Err(TournamentError::invalid(
                    "a chess tournament is a round robin or a Swiss: a knockout game needs a \
                 winner, and baffle does not schedule tie-break games",
                ))
            }
            _ => Ok(()),
        }
    }
}
