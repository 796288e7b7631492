//! Why a clock was stopped.
//!
//! The rules allow a running clock to be stopped only for listed reasons; every pause
//! carries one of them so that the match log says why time stood still.

use std::fmt;

/// The reason a running clock was paused, with the article that allows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PauseReason {
    /// A game is over and the next has not started (backgammon 4.3 (ii)(a)).
    GameOver,
    /// A permitted break, unless the tournament counts breaks in match time
    /// (backgammon 4.3 (ii)(b), 2.2).
    Break,
    /// A player called the director or arbiter, or the director asked for the stop
    /// (backgammon 4.3 (ii)(c), 5; chess 6.12 (b): a player seeks the arbiter's help).
    DirectorCalled,
    /// The director or arbiter interrupts the game (chess 6.12 (a)).
    DirectorStopped,
    /// The opponent picked up the dice before the player finished his move
    /// (backgammon 4.3 (ii)(d), 4.1 (v)(b)).
    DicePickedUpEarly,
    /// A player asks for an illegal move to be replayed (backgammon 4.3 (ii)(f), 4.2 (iii)(c)).
    IllegalMoveReplay,
    /// A player believes the game's result is settled (backgammon 4.3 (ii)(g)).
    ResultSettled,
    /// A roll was invalid (backgammon 4.3 (vi), 4.1 (iv)).
    InvalidRoll,
    /// A roll is disputed until the dispute is resolved (backgammon 4.3 (vi)).
    RollDisputed,
    /// Live dice: a roll was asked for and waits for the players' links. The roller's
    /// clock waits, as it does for the network's lag (principle 5: nobody is charged
    /// for the network); only the server stops a clock for this (`docs/dice.md`).
    AwaitingLinks,
}

impl PauseReason {
    /// Every reason, in declaration order.
    pub const ALL: [PauseReason; 10] = [
        PauseReason::GameOver,
        PauseReason::Break,
        PauseReason::DirectorCalled,
        PauseReason::DirectorStopped,
        PauseReason::DicePickedUpEarly,
        PauseReason::IllegalMoveReplay,
        PauseReason::ResultSettled,
        PauseReason::InvalidRoll,
        PauseReason::RollDisputed,
        PauseReason::AwaitingLinks,
    ];

    /// The article of the rules that permits this pause.
    pub const fn article(self) -> &'static str {
        match self {
            PauseReason::GameOver => "backgammon 4.3 (ii)(a)",
            PauseReason::Break => "backgammon 4.3 (ii)(b)",
            PauseReason::DirectorCalled => "backgammon 4.3 (ii)(c); chess 6.12",
            PauseReason::DirectorStopped => "chess 6.12",
            PauseReason::DicePickedUpEarly => "backgammon 4.3 (ii)(d), 4.1 (v)(b)",
            PauseReason::IllegalMoveReplay => "backgammon 4.3 (ii)(f), 4.2 (iii)(c)",
            PauseReason::ResultSettled => "backgammon 4.3 (ii)(g)",
            PauseReason::InvalidRoll => "backgammon 4.3 (vi)",
            PauseReason::RollDisputed => "backgammon 4.3 (vi)",
            PauseReason::AwaitingLinks => "live dice (docs/dice.md); principle 5",
        }
    }

    /// A stable kebab-case name, for command lines and configuration: `director-called`.
    pub const fn name(self) -> &'static str {
        match self {
            PauseReason::GameOver => "game-over",
            PauseReason::Break => "break",
            PauseReason::DirectorCalled => "director-called",
            PauseReason::DirectorStopped => "director-stopped",
            PauseReason::DicePickedUpEarly => "dice-picked-up-early",
            PauseReason::IllegalMoveReplay => "illegal-move-replay",
            PauseReason::ResultSettled => "result-settled",
            PauseReason::InvalidRoll => "invalid-roll",
            PauseReason::RollDisputed => "roll-disputed",
            PauseReason::AwaitingLinks => "awaiting-links",
        }
    }

    /// The reason with this [`name`](PauseReason::name).
    pub fn from_name(name: &str) -> Option<PauseReason> {
        PauseReason::ALL.into_iter().find(|r| r.name() == name)
    }

    /// A short description for displays and logs.
    pub const fn describe(self) -> &'static str {
        match self {
            PauseReason::GameOver => "game over",
            PauseReason::Break => "break",
            PauseReason::DirectorCalled => "director called",
            PauseReason::DirectorStopped => "stopped by the director",
            PauseReason::DicePickedUpEarly => "dice picked up early",
            PauseReason::IllegalMoveReplay => "illegal move to be replayed",
            PauseReason::ResultSettled => "result believed settled",
            PauseReason::InvalidRoll => "invalid roll",
            PauseReason::RollDisputed => "roll disputed",
            PauseReason::AwaitingLinks => "waiting for the players' links (live dice)",
        }
    }
}

impl fmt::Display for PauseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.describe(), self.article())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in PauseReason::ALL {
            assert_eq!(PauseReason::from_name(r.name()), Some(r));
        }
        assert_eq!(PauseReason::from_name("nap"), None);
    }
}
