//! What a match's log owes after a record ([`Owed`]): the use of a server draw, or the
//! report of a physically rolled die. The table keeps one while it is unpaid; the fold in
//! `evolve.rs` checks each record against it.

use std::collections::VecDeque;

use super::body::AnomalyRecord;
use crate::dice::Roll;
use crate::side::Side;

/// What the log owes after a record: the use of a draw, or the report of a roll.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Owed {
    /// A server roll for `side`, to be played by the next `bg.rolled`.
    Roll { side: Side, dice: Roll },
    /// Server opening throws, each to be thrown by a `bg.opening_throw`, in order.
    Opening(VecDeque<Roll>),
    /// A drawn Chess960 position, to be set by the next `chess.position`.
    Position(u16),
    /// A physically rolled `bg.rolled`, to be reported by a `dice.reported`.
    Report { side: Side, dice: Roll },
    /// The anomalies the watch raised on a report, each to be recorded.
    Anomalies(VecDeque<AnomalyRecord>),
}

impl Owed {
    pub(super) fn unpaid(&self) -> String {
        match self {
            Owed::Roll { side, dice: [a, b] } => {
                format!("the server roll {a}-{b} drawn for {side} was not played")
            }
            Owed::Opening(throws) => format!("the drawn opening throws {throws:?} were not thrown"),
            Owed::Position(sp) => format!("the drawn Chess960 position {sp} was not set"),
            Owed::Report { side, dice: [a, b] } => {
                format!("{side}'s roll {a}-{b} was not reported as dice.reported")
            }
            Owed::Anomalies(a) => format!(
                "the dice watch raised \"{}\" here, and it was not recorded",
                a.front().map_or("an anomaly", |a| a.message.as_str())
            ),
        }
    }
}
