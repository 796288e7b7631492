//! Recovery after a restart, match by match and in the background. The server answers as
//! soon as the registry is read: every match gets its handle at once, and its log is
//! replayed — chain, dice and events checked, as before — by workers on every core, or at
//! once by the match's own task if a message comes for it first. A message to a match
//! whose log is still being read simply waits for it. A log that does not check out makes
//! that match, and only that match, answer DATA_LOSS with the reason. A live match whose
//! log holds more than its table (a write that may have been stored after all, a record a
//! replica cannot fold) is read back the same way (`MatchActor::reload`).

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use baffle_core::Timestamp;
use baffle_core::audit::Reader;
use baffle_core::dice::ServerSeed;
use baffle_core::table::{Replay, Request, Table, setup_of};
use baffle_proto::v1;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::msg::Msg;
use super::{MatchActor, MatchHandle, stream};
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::{self, MatchInfo};
use baffle_core::GameType;

/// How long one match's replay may take once claimed before the match is taken offline
/// as poisoned: a log of a whole match replays in milliseconds.
pub const RECOVERY_DEADLINE: Duration = Duration::from_secs(10);

/// One match's recovery: claimed once, by a worker or by the match's first message.
pub struct Recovery<S> {
    info: MatchInfo,
    seed: [u8; 32],
    store: S,
    /// The server's start: what is due by then is caught up on the replaying thread.
    started: Timestamp,
    claimed: AtomicBool,
    /// When it was claimed (for the watchdog).
    claimed_at: OnceLock<Instant>,
    /// Where the log is delivered to the match's task: by the replay, or by the watchdog
    /// when the replay is overdue.
    deliver: std::sync::Mutex<Option<oneshot::Sender<Result<Table, String>>>>,
}

impl<S: EventStore> Recovery<S> {
    /// Claims the work; false if someone else has.
    fn claim(&self) -> bool {
        let first = !self.claimed.swap(true, Ordering::AcqRel);
        if first {
            let _ = self.claimed_at.set(Instant::now());
        }
        first
    }

    /// Reads and replays the log, then catches up on what fell due by the server's start
    /// — on this thread, so that an engine its log poisons (a panic, or arithmetic that
    /// never ends) is found here, off the async workers, rather than in the match's task.
    /// CPU and store reads: run it off the async workers.
    fn recover_and_deliver(&self) {
        let log = replay_log(&self.store, &self.info, self.seed).and_then(|table| {
            let tick = std::panic::catch_unwind(AssertUnwindSafe(|| {
                table.plan(&Request::Tick, self.started.max(table.game().now()))
            }));
            match tick {
                Err(panic) => Err(poisoned("catching up", &panic)),
                Ok(_) => Ok(table),
            }
        });
        self.deliver(log);
    }

    /// Delivers `log` to the match's task, unless something was delivered already.
    fn deliver(&self, log: Result<Table, String>) {
        let deliver = self
            .deliver
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(deliver) = deliver {
            let _ = deliver.send(log);
        }
    }

    /// Whether the log was delivered (or the match's task is gone).
    fn delivered(&self) -> bool {
        self.deliver
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_none_or(|d| d.is_closed())
    }

    /// Whether the replay has run past [`RECOVERY_DEADLINE`].
    fn overdue(&self) -> bool {
        self.claimed_at
            .get()
            .is_some_and(|at| at.elapsed() > RECOVERY_DEADLINE)
    }
}

/// Why a match is offline when the rules' engine panicked on its log.
fn poisoned(what: &str, panic: &(dyn std::any::Any + Send)) -> String {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    format!(
        "{what} its log failed inside the rules' engine (a panic: {message}): the log poisons it"
    )
}

/// A match's table rebuilt from its stored log, every record checked (chain, canonical
/// bodies, dice against `seed`, the rules): the server's recovery, and `baffled check`.
pub fn replay_log<S: EventStore>(
    store: &S,
    info: &MatchInfo,
    seed: [u8; 32],
) -> Result<Table, String> {
    store.check(&stream(&info.id)).map_err(|e| e.to_string())?;
    let lines = store
        .read(&stream(&info.id), 0, usize::MAX)
        .map_err(|e| e.to_string())?;
    let records = Reader::new().records(&lines).map_err(|e| e.to_string())?;
    let replay =
        std::panic::catch_unwind(|| Replay::run(&records, Some(ServerSeed::from_bytes(seed))));
    let table = replay
        .map_err(|panic| poisoned("replaying", &panic))?
        .map_err(|e| e.to_string())?;
    if table.info() != info {
        return Err(format!(
            "the log's set-up is for {:?}, the registry's for {:?}",
            table.info(),
            info
        ));
    }
    Ok(table)
}

/// Which game a match is from its set-up record (record 1 of its log), read without
/// replaying the log: what a handle needs before recovery is done.
pub fn game_of_setup(line: &[u8]) -> Result<GameType, String> {
    let record = Reader::at(1).record(line).map_err(|e| e.to_string())?;
    Ok(setup_of(&record)?.game.game_type())
}

impl<S: EventStore, T: TimeSource> MatchActor<S, T> {
    /// Takes up the records the store holds beyond this table (see [`Self::append`]): the
    /// log replayed, as a restart would, and the new events announced to followers.
    /// Whether it did.
    pub(super) fn reload(&mut self) -> bool {
        let info = self.table.info().clone();
        let Some(seed) = self.table.dice().server_seed().map(|s| *s.as_bytes()) else {
            return false;
        };
        let from = self.table.len();
        let reloaded = replay_log(&self.store, &info, seed).and_then(|table| {
            let lines = self
                .store
                .read(&stream(&info.id), from, usize::MAX)
                .map_err(|e| e.to_string())?;
            let records = Reader::at(from)
                .records(&lines)
                .map_err(|e| e.to_string())?;
            Ok((table, records))
        });
        match reloaded {
            Ok((table, records)) => {
                self.table = table;
                let events = records.iter().map(wire::event).collect();
                let state = self.update_state(&self.table, self.now());
                self.summarise(&state);
                let _ = self.updates.send(Arc::new(v1::MatchUpdate {
                    events,
                    state: Some(state),
                }));
                true
            }
            Err(why) => {
                tracing::error!(match_id = %info.id, error = %why, "the match could not be reloaded from its log");
                false
            }
        }
    }
}

impl<S: EventStore + Clone, T: TimeSource> MatchActor<S, T> {
    /// A handle for a match whose log did not check out before recovery could start (its
    /// set-up record unreadable): it answers DATA_LOSS with `why`.
    pub fn failed(info: MatchInfo, why: String) -> MatchHandle {
        tracing::error!(match_id = %info.id, error = %why, "a match log did not check out: the match is unavailable");
        let (tx, _) = mpsc::channel::<Box<Msg>>(1);
        let handle = MatchHandle {
            tx,
            info,
            // Never used: every request stops at the failure first.
            game: GameType::Chess,
            failed: Default::default(),
            owner: Default::default(),
            replaced: Default::default(),
        };
        let _ = handle.failed.set(why);
        handle
    }

    /// A handle for a match whose log is recovered later (see the module documentation).
    /// Returns the recovery for the background workers.
    pub fn spawn_recovering(
        info: MatchInfo,
        game: GameType,
        seed: [u8; 32],
        down_since: Option<Timestamp>,
        store: S,
        time: T,
        outlets: (
            broadcast::Sender<crate::feed::FeedItem>,
            Arc<crate::signing::HeadSigner>,
        ),
    ) -> (MatchHandle, Arc<Recovery<S>>) {
        let (tx, mut rx) = mpsc::channel::<Box<Msg>>(256);
        let (deliver, delivered) = oneshot::channel();
        let recovery = Arc::new(Recovery {
            info: info.clone(),
            seed,
            store: store.clone(),
            started: time.now(),
            claimed: AtomicBool::new(false),
            claimed_at: OnceLock::new(),
            deliver: std::sync::Mutex::new(Some(deliver)),
        });
        let epoch = store.held_epoch(&stream(&info.id));
        let owner = Arc::new(AtomicBool::new(epoch.is_some()));
        let handle = MatchHandle {
            tx,
            info,
            game,
            failed: Default::default(),
            owner: owner.clone(),
            replaced: Default::default(),
        };
        let failed = handle.failed.clone();
        let replaced = handle.replaced.clone();
        let id = handle.info.id.clone();
        let job = recovery.clone();
        tokio::spawn(async move {
            let mut delivered = delivered;
            let mut first = None;
            let log = tokio::select! {
                log = &mut delivered => log.unwrap_or_else(|_| Err("recovery stopped".into())),
                msg = rx.recv() => {
                    first = msg;
                    if job.claim() {
                        let job = job.clone();
                        tokio::task::spawn_blocking(move || job.recover_and_deliver());
                    }
                    // Delivered by the replay, or by the watchdog if it is overdue.
                    delivered.await.unwrap_or_else(|_| Err("recovery stopped".into()))
                }
            };
            drop(job);
            match log {
                Ok(table) => {
                    let mut actor =
                        MatchActor::new(table, store, time, outlets, (owner, epoch), replaced);
                    // Before any command: the outage is credited from the match as it
                    // stood when the server stopped.
                    if let Some(since) = down_since {
                        actor.credit_restart(since).await;
                    }
                    if let Some(msg) = first {
                        actor.handle(*msg).await;
                    }
                    actor.run(rx).await;
                }
                Err(why) => {
                    tracing::error!(match_id = %id, error = %why, "a match log did not check out: the match is unavailable");
                    let _ = failed.set(why);
                    // Dropping the receiver answers every waiting and later message.
                }
            }
        });
        (handle, recovery)
    }
}

/// Recovers `jobs` on every core, in order, skipping any a match's task claimed first;
/// a watchdog thread takes offline every match whose replay runs past
/// [`RECOVERY_DEADLINE`] (the thread replaying it cannot be stopped: it is left to
/// finish or spin, and the other workers go on).
pub fn recover_in_background<S: EventStore>(jobs: Vec<Arc<Recovery<S>>>) {
    let jobs = Arc::new(jobs);
    watch_over(jobs.clone());
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for _ in 0..cores {
        let (jobs, next) = (jobs.clone(), next.clone());
        tokio::task::spawn_blocking(move || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { return };
                if !job.claim() {
                    continue;
                }
                job.recover_and_deliver();
            }
        });
    }
}

/// The watchdog: until every match is delivered, twice a second, delivers DATA_LOSS to
/// each whose replay is overdue. A thread of its own, on the wall clock: a paused
/// runtime's clock must not move for it, nor a busy runtime delay it.
fn watch_over<S: EventStore>(jobs: Arc<Vec<Arc<Recovery<S>>>>) {
    let spawned = std::thread::Builder::new()
        .name("recovery-watchdog".into())
        .spawn(move || {
            loop {
                let mut waiting = false;
                for job in jobs.iter().filter(|job| !job.delivered()) {
                    waiting = true;
                    if job.overdue() {
                        job.deliver(Err(format!(
                            "replaying its log did not finish within {} s: the log poisons \
                             the rules' engine (its thread is left to finish)",
                            RECOVERY_DEADLINE.as_secs()
                        )));
                    }
                }
                if !waiting {
                    return;
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "the recovery watchdog did not start: a replay that never ends will hold its match");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Receipt, StoreError};
    use crate::time::ManualTime;

    /// A store whose reads do not come back until released: a replay that does not end.
    #[derive(Clone, Default)]
    struct Stuck(Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>);

    impl Stuck {
        fn release(&self) {
            *self.0.0.lock().unwrap() = true;
            self.0.1.notify_all();
        }
    }

    impl EventStore for Stuck {
        async fn append_with_receipt(
            &self,
            _: &str,
            _: u64,
            _: Vec<Vec<u8>>,
            _: Option<Receipt>,
        ) -> Result<u64, StoreError> {
            Err(StoreError::Io("stuck".into()))
        }

        fn receipt(&self, _: &str, _: &str) -> Result<Option<Vec<u8>>, StoreError> {
            Ok(None)
        }

        fn read(&self, _: &str, _: u64, _: usize) -> Result<Vec<Vec<u8>>, StoreError> {
            let (released, wake) = &*self.0;
            let _unused = wake
                .wait_while(released.lock().unwrap(), |released| !*released)
                .unwrap();
            Ok(Vec::new())
        }

        fn len(&self, _: &str) -> Result<u64, StoreError> {
            Ok(0)
        }

        fn streams(&self) -> Result<Vec<String>, StoreError> {
            Ok(Vec::new())
        }
    }

    /// Issue 18 (1): a replay that never ends takes its match offline with DATA_LOSS
    /// after the deadline, instead of holding it (and its callers) for ever.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_replay_that_never_ends_takes_its_match_offline() {
        let info = MatchInfo {
            id: "stuck".into(),
            tournament: "t".into(),
            round: 1,
            table: "1".into(),
        };
        let stuck = Stuck::default();
        let (handle, job) = MatchActor::spawn_recovering(
            info,
            GameType::Chess,
            [0; 32],
            None,
            stuck.clone(),
            ManualTime::new(Timestamp(0)),
            (
                broadcast::channel(1).0,
                Arc::new(crate::signing::HeadSigner::from_secret([1; 32])),
            ),
        );
        let started = Instant::now();
        recover_in_background(vec![job]);
        let answer = tokio::time::timeout(RECOVERY_DEADLINE * 3, handle.state())
            .await
            .expect("answered before the store's read returns");
        match answer {
            Err(crate::error::Error::DataLoss(why)) => {
                assert!(why.contains("did not finish"), "{why}")
            }
            other => panic!("{other:?}"),
        }
        assert!(started.elapsed() >= RECOVERY_DEADLINE);
        stuck.release();
    }
}
