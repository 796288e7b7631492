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
mod links;
mod live;
mod outage;
mod owed;
mod replay;
mod request;
mod state;

pub use body::{
    AnomalyRecord, Body, ChessRuling, DEFAULT_REVEAL_WINDOW, DeviceInputRecord, GameSetup,
    MAX_PLAYER_NAME, MAX_REVEAL_WINDOW, MatchInfo, RenameRecord, RestartRecord, SeedPolicy,
    SetupRecord, TakeoverRecord, check_player_name,
};
pub use dice::TableDice;
pub use links::{Asked, LINK_WINDOW, LiveLinks, PendingDraw};
pub use outage::MAX_RESTART_CREDIT;
pub use replay::{Replay, ReplayError, setup_of};
pub use request::{DeviceInput, DeviceOutcome, Refusal, RefusalKind, Request};
pub use state::{AnyMatch, MAX_LAG_CREDIT, MAX_TAKEOVER_CREDIT, Plan, Table, Uncredited};

use crate::audit::Record;
use crate::dice::{DiceVersion, ServerSeed};
use crate::time::Millis;

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
}
