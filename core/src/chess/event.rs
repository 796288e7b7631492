//! What can be asked of a game ([`Command`]) and what happened ([`Event`], the audit
//! log's `chess.*` bodies).

use serde::{Deserialize, Serialize};

use super::result::{Color, GameResult};
use crate::clock::PauseReason;
use crate::time::{Millis, Timestamp};

/// What the players, the clock and the arbiter can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// A player is at the board.
    Arrive(Color),
    /// The player on move completes a move and presses (6.2).
    Press(Color),
    /// The player on move has made his move on the board but not yet pressed (6.2 (a)):
    /// it is not completed until the press, unless it ends the game (a checkmate).
    MoveMade(Color),
    /// A player resigns.
    Resign(Color),
    /// Checkmate, by the winner.
    Checkmate(Color),
    /// The players agree a draw.
    AgreeDraw,
    /// `Color` claims the opponent's flag (6.8; A.4 (d)).
    ClaimFlag(Color),
    /// Arbiter: the late player may play after all (6.7 "unless the arbiter decides
    /// otherwise").
    ExcuseLateness(Color),
    /// Arbiter: `by` completed an illegal move — or pressed without moving, which counts
    /// as one (7.5). `opponent_can_mate` decides a second one: loss, or a draw.
    IllegalMove {
        /// Who.
        by: Color,
        /// Whether the opponent can checkmate by any series of legal moves.
        opponent_can_mate: bool,
    },
    /// Arbiter: the player whose flag fell faces an opponent who cannot checkmate
    /// (6.9): the loss on time becomes a draw.
    CannotCheckmate,
    /// Arbiter: both flags have fallen and which fell first cannot be established (6.11).
    FlagOrderUnknown,
    /// Stop the clocks: a player (or his device) only to seek the arbiter's help,
    /// [`PauseReason::DirectorCalled`] (6.12 (b)); the arbiter to interrupt the game,
    /// [`PauseReason::DirectorStopped`] (6.12 (a)), which only he may give.
    Pause(PauseReason),
    /// Arbiter: play resumes — only the arbiter decides when (6.12 (c)).
    Resume,
    /// Arbiter: correct a player's time (6.10); the clock must be stopped.
    SetTime(Color, Millis),
    /// Arbiter: correct a player's move counter (6.10); the clock must be stopped.
    SetMoves(Color, u32),
    /// The player having the move, with under two minutes left, claims a draw
    /// (quickplay finish: 2009 10.2, 2014 G, Guidelines III; games without increment):
    /// the clocks stop for the arbiter.
    QuickplayClaim(Color),
    /// Arbiter's ruling on the pending quickplay claim.
    QuickplayRuling(QuickplayRuling),
    /// Arbiter: a result with its reason.
    ArbiterResult(GameResult),
}

impl Command {
    /// True for what only the arbiter may do; he records his reason and article with it.
    pub fn is_arbiters(&self) -> bool {
        matches!(
            self,
            Command::ExcuseLateness(_)
                | Command::Pause(PauseReason::DirectorStopped)
                | Command::Resume
                | Command::IllegalMove { .. }
                | Command::CannotCheckmate
                | Command::FlagOrderUnknown
                | Command::SetTime(..)
                | Command::SetMoves(..)
                | Command::QuickplayRuling(_)
                | Command::ArbiterResult(_)
        )
    }
}

/// How the arbiter rules on a quickplay-finish claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuickplayRuling {
    /// The claim is upheld: a draw.
    Draw,
    /// Play on with a 5-second increment for both from now, and two extra minutes to
    /// the opponent (2014 G.4, Guidelines III.4; not under 2009).
    Increment,
    /// The decision is postponed: play goes on, with two extra minutes to the opponent
    /// if `extra_time` (2009 10.2 (b), G.5, III.5); the arbiter rules later — a draw,
    /// even after a flag, or the claim rejected.
    Postpone {
        /// Whether the opponent gets two extra minutes.
        extra_time: bool,
    },
    /// Rejected: the opponent gets two extra minutes (10.2 (c)); after a postponement,
    /// the claim is dismissed and play goes on.
    Reject,
}

/// What happened; the audit log's bodies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Event {
    /// White's clock started at the scheduled time (6.6).
    #[serde(rename = "chess.started")]
    Started {
        /// When.
        at: Timestamp,
    },
    /// A player arrived.
    #[serde(rename = "chess.arrived")]
    Arrived {
        /// Who.
        color: Color,
        /// When.
        at: Timestamp,
    },
    /// A move was completed and the clock pressed.
    #[serde(rename = "chess.pressed")]
    Pressed {
        /// Who.
        color: Color,
        /// When.
        at: Timestamp,
    },
    /// A flag fell (6.8), at its exact instant, with whether the moves of the period had
    /// been made (6.4).
    #[serde(rename = "chess.flag")]
    FlagFell {
        /// Whose.
        color: Color,
        /// When it reached zero.
        at: Timestamp,
        /// Moves the period required and the player had made.
        moves_due: Option<u32>,
        /// Moves made in the period.
        moves_made: u32,
        /// When the flag was noticed and recorded, if later than it fell (6.8: the
        /// arbiter observes it; the result stands at `at`). Absent when recorded at the
        /// instant, as in logs written before it existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        noticed_at: Option<Timestamp>,
    },
    /// The clocks were stopped (6.12, or for a claim).
    #[serde(rename = "chess.paused")]
    Paused {
        /// Why.
        reason: String,
        /// When.
        at: Timestamp,
    },
    /// Play resumed.
    #[serde(rename = "chess.resumed")]
    Resumed {
        /// When.
        at: Timestamp,
    },
    /// A time was corrected or given (6.10, 7.5, quickplay).
    #[serde(rename = "chess.time_set")]
    TimeSet {
        /// Whose clock.
        color: Color,
        /// Its main time from now on.
        time: Millis,
        /// Why.
        why: String,
        /// When.
        at: Timestamp,
    },
    /// A move counter was corrected (6.10).
    #[serde(rename = "chess.moves_set")]
    MovesSet {
        /// Whose.
        color: Color,
        /// The count.
        moves: u32,
        /// When.
        at: Timestamp,
    },
    /// An illegal move was recorded (7.5).
    #[serde(rename = "chess.illegal_move")]
    IllegalMove {
        /// Who.
        color: Color,
        /// Their count so far, this one included.
        count: u32,
        /// When.
        at: Timestamp,
    },
    /// The arbiter let a late player play (6.7).
    #[serde(rename = "chess.excused")]
    Excused {
        /// Who.
        color: Color,
        /// When.
        at: Timestamp,
    },
    /// Both flags fell, in an order that cannot be established, before the last period:
    /// the game goes on (6.11 (a)) and the flags are forgotten.
    #[serde(rename = "chess.flag_order_unknown")]
    FlagOrderUnknown {
        /// When.
        at: Timestamp,
    },
    /// A quickplay-finish claim is pending.
    #[serde(rename = "chess.quickplay_claim")]
    QuickplayClaimed {
        /// Who.
        color: Color,
        /// When.
        at: Timestamp,
    },
    /// A move made on the board, not yet completed by the press (6.2 (a)).
    #[serde(rename = "chess.move_made")]
    MoveMade {
        /// Who moved.
        color: Color,
        /// When.
        at: Timestamp,
    },
    /// The position before an illegal move was reinstated (2009 7.4 (a), 2014 7.5 (a)):
    /// `color`, who made it, is on move again and his clock runs; the illegal move is
    /// not counted.
    #[serde(rename = "chess.reinstated")]
    Reinstated {
        /// Who moves again.
        color: Color,
        /// When.
        at: Timestamp,
    },
    /// The arbiter postponed his decision on the quickplay claim; play goes on.
    #[serde(rename = "chess.quickplay_postponed")]
    QuickplayPostponed {
        /// When.
        at: Timestamp,
    },
    /// The arbiter decided a postponed quickplay claim: it is no longer pending.
    #[serde(rename = "chess.quickplay_decided")]
    QuickplayDismissed {
        /// When.
        at: Timestamp,
    },
    /// From now on both have a 5-second increment (quickplay ruling).
    #[serde(rename = "chess.increment_introduced")]
    IncrementIntroduced {
        /// When.
        at: Timestamp,
    },
    /// The game is over.
    #[serde(rename = "chess.ended")]
    Ended {
        /// The result.
        result: GameResult,
        /// When.
        at: Timestamp,
    },
}

impl Event {
    /// When it happened.
    pub fn at(&self) -> Timestamp {
        match *self {
            Event::Started { at }
            | Event::Arrived { at, .. }
            | Event::Pressed { at, .. }
            | Event::FlagFell { at, .. }
            | Event::Paused { at, .. }
            | Event::Resumed { at }
            | Event::TimeSet { at, .. }
            | Event::MovesSet { at, .. }
            | Event::IllegalMove { at, .. }
            | Event::Excused { at, .. }
            | Event::FlagOrderUnknown { at }
            | Event::QuickplayClaimed { at, .. }
            | Event::IncrementIntroduced { at }
            | Event::Reinstated { at, .. }
            | Event::MoveMade { at, .. }
            | Event::QuickplayPostponed { at }
            | Event::QuickplayDismissed { at }
            | Event::Ended { at, .. } => at,
        }
    }
}
