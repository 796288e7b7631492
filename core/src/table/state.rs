//! The table's state: [`Table`], the match it plays ([`AnyMatch`]) and what a request
//! plans ([`Plan`]), with the bounds on the time a record may credit. The files that
//! create, fold and ask the table (`mod.rs`, `evolve.rs`, `decide/`, `live.rs`,
//! `outage.rs`, `replay.rs`) all build on this one, which depends on none of them.

use std::collections::BTreeMap;

use super::body::MatchInfo;
use super::dice::TableDice;
use super::owed::Owed;
use crate::GameType;
use crate::audit::Hash;
use crate::audit::Record;
use crate::backgammon::{DiceSource, Match, Turn};
use crate::chess::ChessMatch;
use crate::dice_check::DiceMonitor;
use crate::engine::Engine;
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// Most credit a device's timestamp can give a player against the server's receipt: a
/// press claimed earlier than this before it arrived is charged as this much earlier.
pub const MAX_LAG_CREDIT: Millis = Millis::secs(2);

/// Most time a takeover gives the running side of a match played without devices for
/// the outage (`table.takeover`'s `credit_ms`, `docs/cluster.md`). The credit is how
/// long the dead node had been silent when its lease was claimed — the database's
/// `now()` minus its last renewal, one clock — and a lease is claimed a lease after that
/// renewal plus at most one claim tick (a quarter lease): 2.5 s with the default 2 s
/// lease, 5 s with a lease of 4 s. Five seconds covers leases up to 4 s and their claim
/// tick; a cluster with longer leases gets 5 s at most, the rest is the director's to
/// rule. The credit may exceed the time the match really stood still by at most the
/// time between the dead node's last renewal and its death (under a quarter lease: it
/// would have renewed again), is never more than the time since the match's last
/// recorded event, and never more than this.
pub const MAX_TAKEOVER_CREDIT: Millis = Millis::secs(5);

/// The match a table plays, of either game (which game: [`GameType`]).
#[derive(Clone, Debug)]
pub enum AnyMatch {
    /// A backgammon match.
    Backgammon(Match),
    /// A chess match.
    Chess(ChessMatch),
}

impl AnyMatch {
    /// Which game.
    pub fn game_type(&self) -> GameType {
        match self {
            AnyMatch::Backgammon(_) => GameType::Backgammon,
            AnyMatch::Chess(_) => GameType::Chess,
        }
    }

    /// The next instant something falls due by itself.
    pub fn next_due(&self) -> Option<Timestamp> {
        match self {
            AnyMatch::Backgammon(m) => Engine::next_due(m),
            AnyMatch::Chess(m) => Engine::next_due(m),
        }
    }

    /// The instant of the latest event: nothing is ever timed before it.
    pub fn now(&self) -> Timestamp {
        match self {
            AnyMatch::Backgammon(m) => Engine::now(m),
            AnyMatch::Chess(m) => Engine::now(m),
        }
    }

    /// The players' names, A then B (as corrected by any rename).
    pub fn players(&self) -> &[String; 2] {
        match self {
            AnyMatch::Backgammon(m) => &m.setup().players,
            AnyMatch::Chess(m) => &m.settings().players,
        }
    }

    /// Sets `side`'s name (a `match.renamed` record, folded).
    pub(super) fn rename(&mut self, side: Side, name: &str) {
        match self {
            AnyMatch::Backgammon(m) => m.rename_player(side, name),
            AnyMatch::Chess(m) => m.rename_player(side, name),
        }
    }

    /// When the match is scheduled to start: its clock and lateness count from then.
    pub fn scheduled_start(&self) -> Timestamp {
        match self {
            AnyMatch::Backgammon(m) => m.scheduled_start(),
            AnyMatch::Chess(m) => m.settings().start,
        }
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        match self {
            AnyMatch::Backgammon(m) => Engine::is_over(m),
            AnyMatch::Chess(m) => Engine::is_over(m),
        }
    }

    /// Where the dice come from (chess has none but the Chess960 draw).
    pub fn dice_source(&self) -> Option<DiceSource> {
        match self {
            AnyMatch::Backgammon(m) => Some(m.dice()),
            AnyMatch::Chess(_) => None,
        }
    }

    /// In backgammon, where the game in progress stands.
    pub fn to_move_phase(&self) -> Option<Turn> {
        match self {
            AnyMatch::Backgammon(m) => m.game().map(|g| g.turn),
            AnyMatch::Chess(_) => None,
        }
    }

    /// In backgammon, who is to roll or move now.
    pub fn to_move(&self) -> Option<Side> {
        let AnyMatch::Backgammon(m) = self else {
            return None;
        };
        match m.game()?.turn {
            Turn::OnRoll { side, .. } | Turn::Moving { side, .. } => Some(side),
            Turn::DoubleOffered { by } => Some(by.other()),
            Turn::Opening => None,
        }
    }
}

/// The state of one match at its table. See the [module documentation](super).
#[derive(Clone, Debug)]
pub struct Table {
    pub(super) info: MatchInfo,
    pub(super) game: AnyMatch,
    pub(super) dice: TableDice,
    pub(super) monitor: DiceMonitor,
    pub(super) anomalies: (u32, String),
    pub(super) device_seqs: BTreeMap<String, u64>,
    pub(super) owed: Option<Owed>,
    /// A server roll asked for early, drawn when the opponent's turn ends.
    pub(super) queued_roll: Option<Side>,
    /// The epoch of the latest takeover by a server node (0: none yet).
    pub(super) epoch: u64,
    /// What the last server restart's outage charged a clock beyond its credit, until
    /// the director rules on that clock or the match ends (`outage.rs`).
    pub(super) uncredited: Option<Uncredited>,
    /// The key that signs the match's heads, from `match.opened` (none in older logs).
    pub(super) signer: Option<String>,
    pub(super) len: u64,
    pub(super) head: Hash,
}

/// What a request adds: the records, chained to the log, and the table after them.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The table once the records are stored.
    pub table: Table,
    /// The records to append, in order.
    pub records: Vec<Record>,
}

/// The part of a restart's outage its credit did not cover: what `side`'s clock
/// charged beyond [`MAX_RESTART_CREDIT`](super::MAX_RESTART_CREDIT), for the director to rule on. It lasts until
/// the director adjusts or sets that side's clock, or the match ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uncredited {
    /// Whose clock.
    pub side: Side,
    /// What the outage charged it and was not credited.
    pub ms: Millis,
    /// When the restart was recorded.
    pub at: Timestamp,
}

impl Table {
    /// Where the match sits.
    pub fn info(&self) -> &MatchInfo {
        &self.info
    }

    /// The game.
    pub fn game(&self) -> &AnyMatch {
        &self.game
    }

    /// The Ed25519 public key that signs the match's heads, as `match.opened` names it
    /// (64 lower-case hex digits); `None` for a log written before heads were signed.
    pub fn signer(&self) -> Option<&str> {
        self.signer.as_deref()
    }

    /// The dice.
    pub fn dice(&self) -> &TableDice {
        &self.dice
    }

    /// The dice watch of physically rolled dice.
    pub fn monitor(&self) -> &DiceMonitor {
        &self.monitor
    }

    /// Dice anomalies raised so far, and the latest in words.
    pub fn anomalies(&self) -> (u32, &str) {
        (self.anomalies.0, &self.anomalies.1)
    }

    /// The last input sequence number recorded per device.
    pub fn device_seqs(&self) -> &BTreeMap<String, u64> {
        &self.device_seqs
    }

    /// The lease epoch of the latest `table.takeover` in the log (0 if none).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Records in the log: the sequence number of the next.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the log is empty (never, for a table: it starts with two records).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The hash of the newest record: the head every follower witnesses.
    pub fn head(&self) -> Hash {
        self.head
    }
}
