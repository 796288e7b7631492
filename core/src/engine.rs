//! What every game's rules have in common: the shape of an event-sourced state machine.
//!
//! A game is decided and folded the same way whatever it is: [`Engine::decide`] checks a
//! command at an instant and returns the events it causes without changing anything;
//! [`Engine::evolve`] folds one event in, and the state is the fold of its events. The
//! engine also says when something falls due by itself ([`Engine::next_due`]: a flag, a
//! start, a lateness point), so whoever runs it can set one timer and send a tick without
//! knowing a rule. Backgammon's [`Match`](crate::backgammon::Match) and chess's
//! [`ChessMatch`](crate::chess::ChessMatch) implement it; the [`Table`](crate::table::Table)
//! runs either through it.
//!
//! Every event of every engine is serialised as an audit record body: a JSON object whose
//! `kind` names it (`bg.rolled`, `chess.pressed`) and whose `at` is its instant. That body
//! is the one envelope events travel in, to the store, the wire and the verifier.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::time::Timestamp;

/// The rules of one game as a pure state machine. See the [module documentation](self).
pub trait Engine: Clone {
    /// What can be asked of the game.
    type Command;
    /// What happened; serialised, the body of an audit record.
    type Event: Clone + Serialize + DeserializeOwned;
    /// A refusal, naming the rule.
    type Error: std::fmt::Display;

    /// The events `command` causes at `now` (anything due by then first), or the rule
    /// that refuses it. Changes nothing.
    fn decide(
        &self,
        command: &Self::Command,
        now: Timestamp,
    ) -> Result<Vec<Self::Event>, Self::Error>;

    /// Folds one event in. An event the state cannot follow is an error and changes
    /// nothing a caller keeps (callers fold on a copy).
    fn evolve(&mut self, event: &Self::Event) -> Result<(), Self::Error>;

    /// The next instant something falls due by itself, if any.
    fn next_due(&self) -> Option<Timestamp>;

    /// Whether the match is over (its dice may then be revealed).
    fn is_over(&self) -> bool;

    /// The instant of the latest event: nothing is ever dated before it.
    fn now(&self) -> Timestamp;
}

impl Engine for crate::backgammon::Match {
    type Command = crate::backgammon::Command;
    type Event = crate::backgammon::Event;
    type Error = crate::backgammon::RuleError;

    fn decide(
        &self,
        command: &Self::Command,
        now: Timestamp,
    ) -> Result<Vec<Self::Event>, Self::Error> {
        crate::backgammon::Match::decide(self, command, now)
    }

    fn evolve(&mut self, event: &Self::Event) -> Result<(), Self::Error> {
        crate::backgammon::Match::evolve(self, event)
    }

    fn next_due(&self) -> Option<Timestamp> {
        crate::backgammon::Match::next_due(self).map(|(at, _)| at)
    }

    fn is_over(&self) -> bool {
        self.result().is_some()
    }

    fn now(&self) -> Timestamp {
        crate::backgammon::Match::now(self)
    }
}

impl Engine for crate::chess::ChessMatch {
    type Command = crate::chess::MatchCommand;
    type Event = crate::chess::MatchEvent;
    type Error = crate::chess::ChessError;

    fn decide(
        &self,
        command: &Self::Command,
        now: Timestamp,
    ) -> Result<Vec<Self::Event>, Self::Error> {
        crate::chess::ChessMatch::decide(self, command, now)
    }

    fn evolve(&mut self, event: &Self::Event) -> Result<(), Self::Error> {
        crate::chess::ChessMatch::evolve(self, event)
    }

    fn next_due(&self) -> Option<Timestamp> {
        crate::chess::ChessMatch::next_due(self)
    }

    fn is_over(&self) -> bool {
        crate::chess::ChessMatch::is_over(self)
    }

    fn now(&self) -> Timestamp {
        crate::chess::ChessMatch::now(self)
    }
}
