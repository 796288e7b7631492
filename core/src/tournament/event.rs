//! The records of a tournament's log. Each is a JSON object with a `kind`, hashed into
//! the tournament's chain as a match's records are; `docs/tournament.md` lists them.

use serde::{Deserialize, Serialize};

use super::entrant::Details;
use super::format::Plan;
use super::keys::{EntrantId, Flight, MatchKey};
use crate::time::Timestamp;

/// One record of a tournament's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Event {
    /// The first record: the tournament, its plan, and the commitment to its draw seed.
    #[serde(rename = "tournament.opened")]
    Opened {
        /// The tournament's id.
        tournament: String,
        /// Its name.
        name: String,
        /// Its format, game and match length.
        plan: Plan,
        /// SHA-256 of the draw seed, hex: the seed is revealed by `draw.made`.
        commitment: String,
        /// The venue's tables, in the order they are given out.
        tables: Vec<String>,
        /// When.
        at: Timestamp,
    },
    /// A player registered: he is this entrant from now on.
    #[serde(rename = "entrant.registered")]
    Registered {
        /// His number.
        entrant: EntrantId,
        /// What the registration says.
        details: Details,
    },
    /// The director approved an entrant (1.4).
    #[serde(rename = "entrant.approved")]
    Approved {
        /// Who.
        entrant: EntrantId,
    },
    /// An approved entrant is at the venue: he is in the draw.
    #[serde(rename = "entrant.checked_in")]
    CheckedIn {
        /// Who.
        entrant: EntrantId,
        /// When.
        at: Timestamp,
    },
    /// The director refused an entrant (1.4, with the explanation the article asks for)
    /// or the entrant withdrew: before the draw he is left out of it; after it, each of
    /// his pairings without a log is won without play by his opponent.
    #[serde(rename = "entrant.out")]
    Out {
        /// Who.
        entrant: EntrantId,
        /// Why, for the federation's report (1.4).
        reason: String,
    },
    /// An entrant's name corrected: every match and table shows the new one.
    #[serde(rename = "entrant.renamed")]
    Renamed {
        /// Who.
        entrant: EntrantId,
        /// The name now.
        name: String,
    },
    /// The venue's tables, replaced.
    #[serde(rename = "tables.set")]
    TablesSet {
        /// The tables, in the order they are given out.
        tables: Vec<String>,
    },
    /// The field closed and drawn: the seed revealed, and the order every pairing comes
    /// from (checked against the seed by every replay).
    #[serde(rename = "draw.made")]
    DrawMade {
        /// The draw seed, hex: its SHA-256 is the opening's commitment.
        seed: String,
        /// The field: every checked-in entrant, ascending.
        field: Vec<EntrantId>,
        /// The seeded entrants, seed 1 first.
        seeds: Vec<EntrantId>,
        /// The order drawn (`draw::draw_order`).
        order: Vec<EntrantId>,
        /// When.
        at: Timestamp,
    },
    /// A Swiss round paired from the standings (recomputed by every replay).
    #[serde(rename = "round.paired")]
    RoundPaired {
        /// The round.
        round: u32,
        /// The pairs, board 1 first.
        pairs: Vec<[EntrantId; 2]>,
        /// Who has the bye, if the field is odd.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bye: Option<EntrantId>,
    },
    /// A round started: its matches are scheduled at `start` (lateness counts from
    /// there, 2.2), and each match of it is created when its players and a table are.
    #[serde(rename = "round.started")]
    RoundStarted {
        /// The flight.
        flight: Flight,
        /// The round.
        round: u32,
        /// The scheduled start of its matches.
        start: Timestamp,
    },
    /// A match of the draw given its match log, its table and its start: the server
    /// creates the match with these.
    #[serde(rename = "match.assigned")]
    Assigned {
        /// Its place in the draw.
        key: MatchKey,
        /// The match's id.
        match_id: String,
        /// The table.
        table: String,
        /// The players, A then B.
        players: [EntrantId; 2],
        /// Its scheduled start (2.2).
        start: Timestamp,
    },
    /// A confirmed result (4.6): the winner goes on.
    #[serde(rename = "match.result")]
    Result {
        /// The match's place.
        key: MatchKey,
        /// The winner; none for a drawn chess game.
        winner: Option<EntrantId>,
        /// The points each player had at the end, the players' order (chess: 2 for a
        /// win, 1 each for a draw).
        score: [u32; 2],
        /// Whether the score was played (false: decided by a ruling without play, as a
        /// forfeit or a no-show).
        played: bool,
        /// The director's words when the result is a ruling, or corrects one (4.6).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        ruling: String,
    },
    /// A match put off: it is not created when its round starts, until rescheduled.
    #[serde(rename = "match.postponed")]
    Postponed {
        /// The match's place.
        key: MatchKey,
        /// The director's words.
        ruling: String,
    },
    /// A match given its own start (2.2: the time the director sets), or brought back
    /// from a postponement.
    #[serde(rename = "match.rescheduled")]
    Rescheduled {
        /// The match's place.
        key: MatchKey,
        /// Its scheduled start.
        start: Timestamp,
        /// The director's words.
        ruling: String,
    },
    /// A match's log given up and replaced by a new one (fresh dice), by a ruling: the
    /// old log stays, linked to the new.
    #[serde(rename = "match.replaced")]
    Replaced {
        /// The match's place.
        key: MatchKey,
        /// The match given up.
        old: String,
        /// The director's words.
        ruling: String,
    },
}

/// The ruling of a `match.result` that takes a result corrected at its table and
/// confirmed again: like a first confirmation, it is what the table says.
pub const CORRECTED_AT_TABLE: &str = "corrected at its table and confirmed again (4.6)";

impl Event {
    /// The record's body: compact JSON with its `kind`.
    pub fn body(&self) -> String {
        serde_json::to_string(self).expect("tournament events serialize")
    }
}
