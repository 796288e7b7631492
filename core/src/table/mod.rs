//! One match at its table: the game's rules, its dice, the watch on physically rolled
//! dice, the devices' sequence numbers and the audit chain, as one sans-I/O state machine
//! in the style of quinn-proto.
//!
//! A [`Table`] is asked ([`Table::plan`]) and it answers with the audit records the
//! request adds and the table after them, or a [`Refusal`] naming the rule; nothing is
//! stored, sent or timed here. The caller stores the records and keeps the new table only
//! once they are durable. The table is the fold of its records: [`Replay`] rebuilds it
//! from a log record by record, checking the chain, the canonical form of each body, the
//! game's rules and the dice, and it is the one replay path of the server's recovery and
//! of the offline verifier (`audit::verify`), so the verifier checks everything the
//! server checks.
//!
//! The dice rule the fold keeps beside the game's own: **every die played is a die
//! drawn**. A server draw (`dice.roll`, `dice.opening`, `dice.chess960`) is owed to the
//! game and must be the one the next `bg.rolled`, `bg.opening_throw`s or
//! `chess.position` use before any other record; a server die the game plays without a
//! draw is refused. A physically rolled `bg.rolled` is owed a `dice.reported` with the
//! same dice, and that report the anomalies the statistical watch raises on it.
//!
//! ```
//! use baffle_core::backgammon::{Command, MatchSetup};
//! use baffle_core::dice::ServerSeed;
//! use baffle_core::table::{GameSetup, MatchInfo, Replay, Request, Table};
//! use baffle_core::{Side, Timestamp};
//!
//! let info = MatchInfo { id: "m1".into(), tournament: "open".into(), round: 1, table: "7".into() };
//! let seed = ServerSeed::from_bytes([3; 32]);
//! let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 5, Timestamp(0)));
//! let (mut table, mut log) = Table::create(info, setup, seed.clone()).unwrap();
//! for request in [
//!     Request::Backgammon(Command::CheckIn { side: Side::A }),
//!     Request::Backgammon(Command::CheckIn { side: Side::B }),
//!     Request::ServerOpening,
//! ] {
//!     let plan = table.plan(&request, Timestamp(1_000)).unwrap();
//!     log.extend(plan.records);
//!     table = plan.table;
//! }
//! // A roll out of turn is refused, names its rule and draws nothing.
//! let mover = table.game().to_move().unwrap();
//! let refused = table.plan(&Request::ServerRoll(mover), Timestamp(2_000)).unwrap_err();
//! assert!(refused.message.contains("4.2 (i)"), "{refused}");
//! // The log replays to the same table, on the server (seed known) or anywhere else.
//! let replayed = Replay::run(&log, Some(seed)).unwrap();
//! assert_eq!(replayed.head(), table.head());
//! assert!(Replay::run(&log, None).is_ok());
//! ```

mod body;
mod decide;
pub mod dice;
mod evolve;
mod live;
mod outage;
mod replay;
mod request;

pub use body::{
    AnomalyRecord, Body, ChessRuling, DEFAULT_REVEAL_WINDOW, DeviceInputRecord, GameSetup,
    MAX_PLAYER_NAME, MAX_REVEAL_WINDOW, MatchInfo, RenameRecord, RestartRecord, SeedPolicy,
    SetupRecord, TakeoverRecord, check_player_name,
};
pub use dice::TableDice;
pub use live::{Asked, LINK_WINDOW, LiveLinks, PendingDraw};
pub use outage::{MAX_RESTART_CREDIT, Uncredited};
pub use replay::{Replay, ReplayError, setup_of};
pub use request::{DeviceInput, DeviceOutcome, Refusal, RefusalKind, Request};

use std::collections::BTreeMap;

use crate::GameType;
use crate::audit::{Hash, Record};
use crate::backgammon::{DiceSource, Match, Turn};
use crate::chess::ChessMatch;
use crate::dice::{DiceVersion, ServerSeed};
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
    fn new(setup: &GameSetup) -> Result<AnyMatch, Refusal> {
        Ok(match setup {
            GameSetup::Backgammon(s) => {
                AnyMatch::Backgammon(Match::new(s.clone()).map_err(Refusal::backgammon)?)
            }
            GameSetup::Chess(s) => {
                AnyMatch::Chess(ChessMatch::new(s.clone()).map_err(Refusal::chess)?)
            }
        })
    }

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
    fn rename(&mut self, side: Side, name: &str) {
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

/// The state of one match at its table. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Table {
    info: MatchInfo,
    game: AnyMatch,
    dice: TableDice,
    monitor: DiceMonitor,
    anomalies: (u32, String),
    device_seqs: BTreeMap<String, u64>,
    owed: Option<evolve::Owed>,
    /// A server roll asked for early, drawn when the opponent's turn ends.
    queued_roll: Option<Side>,
    /// The epoch of the latest takeover by a server node (0: none yet).
    epoch: u64,
    /// What the last server restart's outage charged a clock beyond its credit, until
    /// the director rules on that clock or the match ends (`outage.rs`).
    uncredited: Option<Uncredited>,
    /// The key that signs the match's heads, from `match.opened` (none in older logs).
    signer: Option<String>,
    len: u64,
    head: Hash,
}

/// How a new match's table is opened: what its tournament sets.
#[derive(Clone, Debug, Default)]
pub struct TableOptions {
    /// Whether the players' seeds are required before the first draw.
    pub seeds: SeedPolicy,
    /// How long the players have to reveal their seeds once both committed
    /// ([`DEFAULT_REVEAL_WINDOW`] when `None`; at most [`MAX_REVEAL_WINDOW`]).
    pub reveal_window: Option<Millis>,
    /// The dice construction: v2 for every new match; v1 only to write the first logs'
    /// kind again in tests.
    pub dice: DiceVersion,
    /// The Ed25519 public key (64 lower-case hex digits) that signs the match's heads
    /// (`crate::audit::signed_head`), named in `match.opened`; `None` writes the record
    /// as logs did before heads were signed.
    pub signer: Option<String>,
}

/// What a request adds: the records, chained to the log, and the table after them.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The table once the records are stored.
    pub table: Table,
    /// The records to append, in order.
    pub records: Vec<Record>,
}

impl Table {
    /// A new match: its table and its first two records, the dice commitment
    /// (`match.opened`) and the set-up (`match.setup`).
    pub fn create(
        info: MatchInfo,
        setup: GameSetup,
        seed: ServerSeed,
    ) -> Result<(Table, Vec<Record>), Refusal> {
        Table::create_with(info, setup, SeedPolicy::Optional, seed)
    }

    /// [`Table::create`] with a policy for the players' seeds.
    pub fn create_with(
        info: MatchInfo,
        setup: GameSetup,
        seeds: SeedPolicy,
        seed: ServerSeed,
    ) -> Result<(Table, Vec<Record>), Refusal> {
        let options = TableOptions {
            seeds,
            ..TableOptions::default()
        };
        Table::create_with_options(info, setup, options, seed)
    }

    /// [`Table::create`] with every option a tournament sets.
    pub fn create_with_options(
        info: MatchInfo,
        setup: GameSetup,
        options: TableOptions,
        seed: ServerSeed,
    ) -> Result<(Table, Vec<Record>), Refusal> {
        AnyMatch::new(&setup)?;
        let mut replay = Replay::new(Some(seed.clone()));
        let opened = crate::audit::Entry::MatchOpened {
            match_id: info.id.clone(),
            commitment: seed.commitment().to_string(),
            dice: options.dice.number(),
            signer: options.signer,
        }
        .body();
        let first = Record::next(None, opened);
        let second = Record::next(
            Some(&first),
            Body::Setup(SetupRecord {
                info,
                game: setup,
                seeds: options.seeds,
                reveal_window_ms: options
                    .reveal_window
                    .filter(|w| *w != DEFAULT_REVEAL_WINDOW)
                    .map(|w| u64::try_from(w.as_ms()).unwrap_or(0)),
            })
            .text(),
        );
        for r in [&first, &second] {
            replay.push(r).map_err(|e| Refusal::rule(e.reason))?;
        }
        Ok((
            replay.finish().map_err(|e| Refusal::rule(e.reason))?,
            vec![first, second],
        ))
    }

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
