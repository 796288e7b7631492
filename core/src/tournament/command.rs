//! What a director (or the server, for a confirmed result) asks of a tournament.

use super::entrant::Details;
use super::keys::{EntrantId, Flight, MatchKey};
use crate::dice::ServerSeed;
use crate::side::Side;
use crate::time::Timestamp;

/// Who is seeded in a knockout's draw.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Seeding {
    /// No one: the whole field is drawn by lot.
    #[default]
    None,
    /// The `n` highest-rated entrants, highest first (equal ratings: lower number first);
    /// the unrated are never seeded.
    TopRated(u32),
    /// These entrants, seed 1 first.
    Named(Vec<EntrantId>),
}

/// A director's ruling on a match of the draw, with his words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ruling {
    /// The match decided without play (a no-show, a withdrawal): `winner` goes on.
    Forfeit {
        /// Who goes on.
        winner: EntrantId,
    },
    /// A confirmed result corrected (4.6), while nothing decided after it depends on it.
    Correct {
        /// The winner; none for a drawn chess game.
        winner: Option<EntrantId>,
        /// The points each player had, the pairing's order.
        score: [u32; 2],
    },
    /// Not created when its round starts, until rescheduled.
    Postpone,
    /// Scheduled at `start` (2.2), and brought back if postponed.
    Reschedule {
        /// The scheduled start.
        start: Timestamp,
    },
    /// Its log given up (a match that cannot go on as it is): a new log, with fresh
    /// dice, takes its place. Only before a result.
    Replace,
}

/// A command to a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Registers a player; the director's own registration may approve him at once.
    Register {
        /// What the registration says.
        details: Details,
        /// Approve him too (1.4).
        approve: bool,
    },
    /// Approves a registered entrant (1.4).
    Approve {
        /// Who.
        entrant: EntrantId,
    },
    /// An approved entrant is at the venue.
    CheckIn {
        /// Who.
        entrant: EntrantId,
    },
    /// Refuses an entrant, or records his withdrawal, before the draw (1.4: with the
    /// explanation given to him).
    Out {
        /// Who.
        entrant: EntrantId,
        /// Why.
        reason: String,
    },
    /// Corrects an entrant's name.
    Rename {
        /// Who.
        entrant: EntrantId,
        /// The name now.
        name: String,
    },
    /// Replaces the venue's tables.
    SetTables {
        /// The tables, in the order they are given out.
        tables: Vec<String>,
    },
    /// Closes the field and makes the draw with the revealed seed (the server's; it must
    /// be the one the opening committed to).
    MakeDraw {
        /// The draw seed.
        seed: ServerSeed,
        /// Who is seeded.
        seeding: Seeding,
    },
    /// Starts a round: its matches are scheduled at `start` (now when `None`).
    StartRound {
        /// The flight.
        flight: Flight,
        /// The round.
        round: u32,
        /// The scheduled start.
        start: Option<Timestamp>,
    },
    /// A match's result confirmed by the director (4.6), read from its log by the server.
    Confirmed {
        /// The match.
        match_id: String,
        /// The winner's side; none for a drawn chess game.
        winner: Option<Side>,
        /// Each side's points, A then B.
        score: [u32; 2],
        /// Whether it was played to its end (false: a forfeit or the director's
        /// decision): only a played result moves the ratings.
        played: bool,
    },
    /// Several commands, all or none (a list of registrations imported at once).
    All(Vec<Command>),
    /// A ruling on a match of the draw.
    Rule {
        /// The match's place.
        key: MatchKey,
        /// The ruling.
        ruling: Ruling,
        /// The director's words: required.
        words: String,
    },
}
