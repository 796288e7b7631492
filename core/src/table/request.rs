//! What can be asked of a table, and how it says no.

use std::fmt;

use super::body::ChessRuling;
use super::state::Plan;
use crate::backgammon;
use crate::chess;
use crate::side::Side;
use crate::time::Timestamp;

/// A request to a table, decoded from whatever carried it (the API, a device, a timer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Nothing but time passing: record what fell due (a flag, a start, a late point).
    Tick,
    /// A backgammon command as it is (dice, if any, rolled at the table).
    Backgammon(backgammon::Command),
    /// The server throws the opening roll until the dice differ.
    ServerOpening,
    /// The server rolls for `side`.
    ServerRoll(Side),
    /// A chess command, with the arbiter's ruling if it is an arbiter's.
    Chess {
        /// The command.
        command: chess::MatchCommand,
        /// The arbiter's reason and article.
        ruling: Option<ChessRuling>,
    },
    /// The server draws the Chess960 position from the match's dice.
    ChessPosition {
        /// The arbiter's reason and article.
        ruling: Option<ChessRuling>,
    },
    /// A player's seed for the dice key (before the first draw).
    PlayerSeed {
        /// Whose.
        side: Side,
        /// 1 to 64 bytes.
        seed: Vec<u8>,
    },
    /// A player's commitment to his seed (`dice::player_commitment`), before any draw.
    CommitSeed {
        /// Whose.
        side: Side,
        /// The commitment.
        commitment: [u8; 32],
    },
    /// A player reveals his committed seed, once both players committed.
    RevealSeed {
        /// Whose.
        side: Side,
        /// 16 to 64 bytes (1 to 64 in a v1 log).
        seed: Vec<u8>,
        /// The commitment's salt, 32 bytes (v2; `None` in a v1 log).
        salt: Option<Vec<u8>>,
    },
    /// The director gives the players `window` from now to reveal their seeds (a ruling:
    /// the reveal deadline had passed, or is about to).
    ExtendReveal {
        /// From now: the new deadline must be later than the one in force.
        window: crate::time::Millis,
        /// His reason and the article he applies.
        ruling: ChessRuling,
    },
    /// Live dice: `side` commits to his hash chain (`dice::LiveChain`): its anchor and
    /// length. At set-up, and again once his chain is spent.
    CommitChain {
        /// Whose.
        side: Side,
        /// The chain's anchor.
        anchor: crate::dice::Link,
        /// How many links.
        length: u32,
    },
    /// Live dice: `side`'s next link, for the draw in waiting. With nothing in waiting, a
    /// link asks for the draw it is for — the player's own roll, if he is on roll, or the
    /// opening due — so a roller's link goes with his roll, in one request.
    DiceLink {
        /// Whose.
        side: Side,
        /// The link.
        link: crate::dice::Link,
    },
    /// Reveal the server seed (after the match).
    Reveal,
    /// A server node takes the match over with its lease's `epoch` (`docs/cluster.md`):
    /// what fell due meanwhile is recorded first, at its instants, then the takeover —
    /// with the outage credited to the running side of a match played without devices,
    /// if nothing fell due meanwhile (at most [`super::MAX_TAKEOVER_CREDIT`]).
    Takeover {
        /// The node's id.
        node: String,
        /// The lease's epoch.
        epoch: u64,
        /// How long the node that held the lease had been silent when it was claimed
        /// (since its last renewal), in ms as the database measured it: one clock, never
        /// a node's. `None` when it is not known (a lease let go, a lease created
        /// expired, a node taking back its own): nothing is credited.
        silent_ms: Option<u64>,
    },
    /// `baffled` came back on a single server after `down_ms` of silence (since its last
    /// heartbeat): what fell due meanwhile is recorded first, at its instants; then, if
    /// nothing did and the outage charged a running clock in a match played without
    /// devices, `table.restart` credits it, up to [`super::MAX_RESTART_CREDIT`].
    /// Nothing is recorded otherwise.
    Restart {
        /// The silence, in ms on the server's time line.
        down_ms: u64,
    },
    /// The director corrects `side`'s name (a misspelling): any time, even after the
    /// match; refused for an empty, too long or unchanged name.
    RenamePlayer {
        /// Whose.
        side: Side,
        /// The name as it should be.
        name: String,
    },
}

/// Why a request was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// The request does not fit this match at all (a chess command to a backgammon
    /// match, server dice in a match of physical dice, a value out of every range): the
    /// caller's mistake.
    Invalid,
    /// The rules refuse it now: the message names the article.
    Rule,
}

/// A refusal: nothing changed. The message is for people and names the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Which kind of refusal.
    pub kind: RefusalKind,
    /// Why.
    pub message: String,
}

impl Refusal {
    pub(super) fn rule(e: impl fmt::Display) -> Refusal {
        Refusal {
            kind: RefusalKind::Rule,
            message: e.to_string(),
        }
    }

    /// A chess refusal, of the kind the engine says.
    pub(super) fn chess(e: crate::chess::ChessError) -> Refusal {
        Refusal::of_kind(e.invalid, e.to_string())
    }

    /// A backgammon refusal, of the kind the engine says.
    pub(super) fn backgammon(e: crate::backgammon::RuleError) -> Refusal {
        Refusal::of_kind(e.invalid, e.to_string())
    }

    fn of_kind(invalid: bool, message: String) -> Refusal {
        let kind = if invalid {
            RefusalKind::Invalid
        } else {
            RefusalKind::Rule
        };
        Refusal { kind, message }
    }

    pub(super) fn invalid(message: impl Into<String>) -> Refusal {
        Refusal {
            kind: RefusalKind::Invalid,
            message: message.into(),
        }
    }
}

impl From<crate::backgammon::RuleError> for Refusal {
    fn from(e: crate::backgammon::RuleError) -> Refusal {
        Refusal::backgammon(e)
    }
}

impl From<crate::chess::ChessError> for Refusal {
    fn from(e: crate::chess::ChessError) -> Refusal {
        Refusal::chess(e)
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refusal {}

/// An input from a clock device, timed by the connection that received it.
#[derive(Clone, Debug)]
pub struct DeviceInput {
    /// The device.
    pub device: String,
    /// Its sequence number: 1, then one more each time.
    pub seq: u64,
    /// Its own time for the input, in ms on its clock.
    pub device_ms: i64,
    /// That time on the server's clock, if the device's clock is known.
    pub claimed: Option<Timestamp>,
    /// When the server received it.
    pub receipt: Timestamp,
    /// The request, or why it is malformed.
    pub request: Result<Request, String>,
}

/// What a device input comes to.
#[derive(Debug)]
pub enum DeviceOutcome {
    /// Its sequence number was applied before: nothing to do (a resend).
    Duplicate,
    /// A gap: inputs from `next` on must come first.
    OutOfOrder {
        /// The sequence number expected.
        next: u64,
    },
    /// Recorded: applied, or refused with the reason (recorded too, so that a replay
    /// of it stays without effect).
    Recorded {
        /// The records and the table after them (boxed: a table is large, and the other
        /// outcomes carry nothing).
        plan: Box<Plan>,
        /// The instant the player was charged to.
        charged_at: Timestamp,
        /// Why it was refused, if it was.
        refused: Option<String>,
    },
}
