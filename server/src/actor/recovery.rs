//! Recovery after a restart, match by match and in the background. The server answers as
//! soon as the registry is read: every match gets its handle at once, and its log is
//! replayed — chain, dice and events checked, as before — by workers on every core, or at
//! once by the match's own task if a message comes for it first. A message to a match
//! whose log is still being read simply waits for it. A log that does not check out makes
//! that match, and only that match, answer DATA_LOSS with the reason.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use baffle_core::audit::Record;
use baffle_core::audit::export::{Line, parse_line};
use baffle_core::dice::ServerSeed;
use baffle_core::table::{GameSetup, Replay, Table, setup_of};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::{MatchActor, MatchHandle, Msg, stream};
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::{MatchInfo, Rules};

/// One match's recovery: claimed once, by a worker or by the match's first message.
pub struct Recovery<S> {
    info: MatchInfo,
    seed: [u8; 32],
    store: S,
    claimed: AtomicBool,
    /// Where a worker delivers the log to the match's task.
    deliver: std::sync::Mutex<Option<oneshot::Sender<Result<Table, String>>>>,
}

impl<S: EventStore> Recovery<S> {
    /// Claims the work; false if someone else has.
    fn claim(&self) -> bool {
        !self.claimed.swap(true, Ordering::AcqRel)
    }

    /// Reads and replays the log (CPU and store reads: run it off the async workers).
    fn recover(&self) -> Result<Table, String> {
        replay_log(&self.store, &self.info, self.seed)
    }
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
    let records = lines
        .iter()
        .enumerate()
        .map(|(i, line)| record(i, line))
        .collect::<Result<Vec<_>, _>>()?;
    let table =
        Replay::run(&records, Some(ServerSeed::from_bytes(seed))).map_err(|e| e.to_string())?;
    if table.info() != info {
        return Err(format!(
            "the log's set-up is for {:?}, the registry's for {:?}",
            table.info(),
            info
        ));
    }
    Ok(table)
}

/// One stored line as a record (not yet checked: the replay checks it).
fn record(i: usize, line: &[u8]) -> Result<Record, String> {
    let text = std::str::from_utf8(line).map_err(|_| format!("record {i} is not UTF-8"))?;
    match parse_line(text) {
        Ok(Line::Record(r)) => Ok(r),
        _ => Err(format!("record {i} does not parse")),
    }
}

/// The rules of a match from its set-up record (record 1 of its log), read without
/// replaying the log: what a handle needs before recovery is done.
pub fn rules_from_setup(line: &[u8]) -> Result<Rules, String> {
    let setup = setup_of(&record(1, line)?)?;
    Ok(match setup.game {
        GameSetup::Backgammon(s) => Rules::Backgammon(s.dice),
        GameSetup::Chess(_) => Rules::Chess,
    })
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
            rules: Rules::Chess,
            failed: Default::default(),
        };
        let _ = handle.failed.set(why);
        handle
    }

    /// A handle for a match whose log is recovered later (see the module documentation).
    /// Returns the recovery for the background workers.
    pub fn spawn_recovering(
        info: MatchInfo,
        rules: Rules,
        seed: [u8; 32],
        store: S,
        time: T,
        summaries: broadcast::Sender<crate::feed::FeedItem>,
    ) -> (MatchHandle, Arc<Recovery<S>>) {
        let (tx, mut rx) = mpsc::channel::<Box<Msg>>(256);
        let (deliver, delivered) = oneshot::channel();
        let recovery = Arc::new(Recovery {
            info: info.clone(),
            seed,
            store: store.clone(),
            claimed: AtomicBool::new(false),
            deliver: std::sync::Mutex::new(Some(deliver)),
        });
        let handle = MatchHandle {
            tx,
            info,
            rules,
            failed: Default::default(),
        };
        let failed = handle.failed.clone();
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
                        tokio::task::spawn_blocking(move || job.recover())
                            .await
                            .unwrap_or_else(|e| Err(e.to_string()))
                    } else {
                        // A worker is at it: wait for its delivery.
                        delivered.await.unwrap_or_else(|_| Err("recovery stopped".into()))
                    }
                }
            };
            drop(job);
            match log {
                Ok(table) => {
                    let mut actor = MatchActor::new(table, store, time, summaries);
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

/// Recovers `jobs` on every core, in order, skipping any a match's task claimed first.
pub fn recover_in_background<S: EventStore>(jobs: Vec<Arc<Recovery<S>>>) {
    let jobs = Arc::new(jobs);
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
                let log = job.recover();
                if let Some(deliver) = job.deliver.lock().expect("not poisoned").take() {
                    let _ = deliver.send(log);
                }
            }
        });
    }
}
