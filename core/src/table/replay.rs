//! Rebuilding a table from its log, record by record: the one replay path of the
//! server's recovery (seed known) and of the offline verifier (seed sealed until the
//! reveal).

use super::body::{Body, GameSetup, MAX_REVEAL_WINDOW, SetupRecord};
use super::dice::TableDice;
use super::request::Refusal;
use super::state::{AnyMatch, Table};
use crate::GameType;
use crate::audit::{Entry, Hash, Record, record_hash, strict_hex, strict_hex32};
use crate::backgammon::Match;
use crate::chess::ChessMatch;
use crate::dice::{Commitment, DiceVersion, ServerSeed};
use crate::dice_check::DiceMonitor;

/// Why a log does not replay, and at which record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The record at fault (its sequence number); `None` for the log as a whole.
    pub seq: Option<u64>,
    /// Why.
    pub reason: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.seq {
            Some(seq) => write!(f, "record {seq}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

enum Stage {
    Empty,
    Opened {
        match_id: String,
        commitment: Commitment,
        version: DiceVersion,
        signer: Option<String>,
        head: Hash,
    },
    Table(Box<Table>),
}

/// What `match.opened` fixed, carried to the set-up that follows it.
struct Opened {
    match_id: String,
    commitment: Commitment,
    version: DiceVersion,
    signer: Option<String>,
}

/// A set-up's reveal window: 1 ms to `MAX_REVEAL_WINDOW`.
fn reveal_window(ms: u64) -> Result<crate::time::Millis, String> {
    i64::try_from(ms)
        .ok()
        .filter(|ms| (1..=MAX_REVEAL_WINDOW.as_ms()).contains(ms))
        .map(crate::time::Millis::ms)
        .ok_or_else(|| {
            format!(
                "a reveal window is 1 ms to {} s, not {ms} ms",
                MAX_REVEAL_WINDOW.as_ms() / 1000
            )
        })
}

/// A replay in progress. See the [module documentation](self).
pub struct Replay {
    seed: Option<ServerSeed>,
    stage: Stage,
}

impl Replay {
    /// A replay with the server seed (the server's recovery) or without (a verifier).
    pub fn new(seed: Option<ServerSeed>) -> Replay {
        Replay {
            seed,
            stage: Stage::Empty,
        }
    }

    /// Goes on from `table` (a replayed table, or one its owner kept): the records after
    /// it are read as they are appended — what a replica of the match on another server
    /// node does with each new record of the log (`docs/cluster.md`).
    pub fn resume(table: Table, seed: Option<ServerSeed>) -> Replay {
        Replay {
            seed,
            stage: Stage::Table(Box::new(table)),
        }
    }

    /// Replays a whole log.
    pub fn run(records: &[Record], seed: Option<ServerSeed>) -> Result<Table, ReplayError> {
        let mut replay = Replay::new(seed);
        for r in records {
            replay.push(r)?;
        }
        replay.finish()
    }

    /// Records read so far.
    pub fn len(&self) -> u64 {
        match &self.stage {
            Stage::Empty => 0,
            Stage::Opened { .. } => 1,
            Stage::Table(t) => t.len,
        }
    }

    /// Whether no record was read.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The head of the records read so far.
    pub fn head(&self) -> Hash {
        match &self.stage {
            Stage::Empty => Hash::GENESIS,
            Stage::Opened { head, .. } => *head,
            Stage::Table(t) => t.head,
        }
    }

    /// The match id, once the first record is read.
    pub fn match_id(&self) -> Option<&str> {
        match &self.stage {
            Stage::Empty => None,
            Stage::Opened { match_id, .. } => Some(match_id),
            Stage::Table(t) => Some(&t.info.id),
        }
    }

    /// The table, once the set-up is read.
    pub fn table(&self) -> Option<&Table> {
        match &self.stage {
            Stage::Table(t) => Some(t),
            _ => None,
        }
    }

    /// Reads the next record: its place in the chain, its canonical form, and its body
    /// folded into the table.
    pub fn push(&mut self, record: &Record) -> Result<(), ReplayError> {
        self.push_event(record).map(drop)
    }

    /// Reads the next record as [`Self::push`] does, and gives its body back once folded
    /// into the table (`None` for the opening and the set-up, which make the table): what
    /// a reader of a log's events, such as the server's game export, walks the log with.
    pub fn push_event(&mut self, record: &Record) -> Result<Option<Body>, ReplayError> {
        let at = |reason: String| ReplayError {
            seq: Some(record.seq),
            reason,
        };
        let expected = self.len();
        if record.seq != expected {
            return Err(at(format!(
                "sequence number {} where {expected} was expected: a record was dropped, inserted or moved",
                record.seq
            )));
        }
        if record.prev != self.head() {
            return Err(at("prev is not the hash of the record before it".into()));
        }
        if record_hash(record.seq, &record.prev, record.body.as_bytes()) != record.hash {
            return Err(at(
                "the hash does not match the record: it was altered".into()
            ));
        }
        let stage = std::mem::replace(&mut self.stage, Stage::Empty);
        let (stage, body) = self.next_stage(stage, record).map_err(at)?;
        self.stage = stage;
        Ok(body)
    }

    /// The stage after `record`, and the record's body when it was folded into a table.
    fn next_stage(&self, stage: Stage, record: &Record) -> Result<(Stage, Option<Body>), String> {
        let game = match &stage {
            Stage::Table(t) => Some(t.game.game_type()),
            Stage::Empty => {
                let kind = crate::audit::kind_of(&record.body);
                if kind.as_deref() != Some("match.opened") {
                    return Err(format!(
                        "the first record must be match.opened, not {}",
                        kind.as_deref()
                            .unwrap_or("a body that is not JSON with a kind")
                    ));
                }
                None
            }
            Stage::Opened { .. } => None,
        };
        let body = Body::parse(&record.body, game)?;
        match (stage, body) {
            (
                Stage::Empty,
                Body::Dice(Entry::MatchOpened {
                    match_id,
                    commitment,
                    dice,
                    signer,
                }),
            ) => self
                .opened(match_id, &commitment, dice, signer, record.hash)
                .map(|opened| (opened, None)),
            (Stage::Empty, b) => Err(format!(
                "the first record must be match.opened, not {}",
                b.kind()
            )),
            (
                Stage::Opened {
                    match_id,
                    commitment,
                    version,
                    signer,
                    ..
                },
                Body::Setup(setup),
            ) => {
                let opened = Opened {
                    match_id,
                    commitment,
                    version,
                    signer,
                };
                self.set_up(opened, setup, record.hash)
                    .map(|table| (table, None))
            }
            (Stage::Opened { .. }, b) => Err(format!(
                "the second record must be match.setup, not {}",
                b.kind()
            )),
            (Stage::Table(mut table), body) => {
                table.evolve_body(&body, record.seq)?;
                table.len += 1;
                table.head = record.hash;
                Ok((Stage::Table(table), Some(body)))
            }
        }
    }

    /// The first record, `match.opened`: the dice construction, the commitment (which a
    /// stored seed must match) and the key that signs the heads.
    fn opened(
        &self,
        match_id: String,
        commitment: &str,
        dice: Option<u8>,
        signer: Option<String>,
        head: Hash,
    ) -> Result<Stage, String> {
        let version = DiceVersion::from_number(dice)?;
        let bytes = strict_hex32(commitment, "the commitment")?;
        if let Some(key) = &signer
            && strict_hex(key, "the signer")?.len() != 32
        {
            return Err("the signer is not 32 bytes (an Ed25519 public key)".into());
        }
        let commitment = Commitment(bytes);
        if let Some(seed) = &self.seed
            && seed.commitment() != commitment
        {
            return Err("the stored seed does not match the commitment".into());
        }
        Ok(Stage::Opened {
            match_id,
            commitment,
            version,
            signer,
            head,
        })
    }

    /// The second record, `match.setup`: the match itself and its table's dice, sealed
    /// (a verifier) or with the seed (the server).
    fn set_up(&self, opened: Opened, setup: SetupRecord, head: Hash) -> Result<Stage, String> {
        let Opened {
            match_id,
            commitment,
            version,
            signer,
        } = opened;
        let SetupRecord {
            info,
            game,
            seeds,
            reveal_window_ms,
        } = setup;
        if info.id != match_id {
            return Err(format!(
                "the set-up is for match {:?}, the log for {match_id:?}",
                info.id
            ));
        }
        let game = AnyMatch::new(&game).map_err(|e| e.message)?;
        let mut dice = match &self.seed {
            Some(seed) => TableDice::with_seed(&match_id, version, seed.clone()),
            None => TableDice::sealed(&match_id, version, commitment),
        };
        dice.require_seeds(seeds == super::SeedPolicy::Required);
        if seeds == super::SeedPolicy::Live {
            super::live::check_live_setup(&game, version)?;
            dice.make_live();
        }
        if let Some(ms) = reveal_window_ms {
            dice.set_reveal_window(reveal_window(ms)?);
        }
        Ok(Stage::Table(Box::new(Table {
            info,
            game,
            dice,
            monitor: DiceMonitor::default(),
            anomalies: (0, String::new()),
            device_seqs: Default::default(),
            owed: None,
            queued_roll: None,
            epoch: 0,
            uncredited: None,
            signer,
            len: 2,
            head,
        })))
    }

    /// The table at the end of the log: the log must have its set-up and owe nothing.
    pub fn finish(self) -> Result<Table, ReplayError> {
        let whole = |reason: &str| ReplayError {
            seq: None,
            reason: reason.into(),
        };
        match self.stage {
            Stage::Table(t) => {
                t.settled().map_err(|r| whole(&r))?;
                Ok(*t)
            }
            _ => Err(whole("the log has no set-up")),
        }
    }
}

/// The set-up of a match, read from its second record alone (without replaying the log):
/// what a server needs to know about a match before its recovery is done.
pub fn setup_of(record: &Record) -> Result<SetupRecord, String> {
    match Body::parse(&record.body, None)? {
        Body::Setup(s) => Ok(s),
        b => Err(format!("record 1 is {}, not the set-up", b.kind())),
    }
}

impl AnyMatch {
    /// The match a set-up opens, or the refusal of a set-up its game's rules reject.
    pub(super) fn new(setup: &GameSetup) -> Result<AnyMatch, Refusal> {
        Ok(match setup {
            GameSetup::Backgammon(s) => {
                AnyMatch::Backgammon(Match::new(s.clone()).map_err(Refusal::backgammon)?)
            }
            GameSetup::Chess(s) => {
                AnyMatch::Chess(ChessMatch::new(s.clone()).map_err(Refusal::chess)?)
            }
        })
    }
}

impl GameSetup {
    /// Which game this sets up.
    pub fn game_type(&self) -> GameType {
        match self {
            GameSetup::Backgammon(_) => GameType::Backgammon,
            GameSetup::Chess(_) => GameType::Chess,
        }
    }
}
