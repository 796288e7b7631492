//! A match on a node that does not write it (`docs/cluster.md`): a **replica**. It folds
//! the records the owner appends — read from the store when the change feed says the
//! log grew, through `table::Replay`, the fold recovery runs — and broadcasts the same
//! updates the owner's followers get. The feed is only a hint: the replica reads from
//! its own length, so a notification repeated, merged or missed (then announced as a
//! gap, and every replica told to catch up) loses and repeats nothing.
//!
//! When the node is given the match's lease it **takes it over**: it reads the log to
//! its end, then writes what fell due meanwhile (a flag at its instant) and the takeover
//! record (`table.takeover`, naming the node and the lease's epoch), and only then
//! writes commands.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use baffle_core::Timestamp;
use baffle_core::audit::Reader;
use baffle_core::table::{Replay, Request};
use baffle_proto::v1;

use super::{MatchActor, stream};
use crate::error::Error;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire;

impl<S: EventStore, T: TimeSource> MatchActor<S, T> {
    /// Whether this node writes the match now: it took it over (or created it), and
    /// still holds its lease.
    pub(super) fn writes(&self) -> bool {
        self.epoch.is_some() && self.store.lease_epoch(&stream(&self.table.info().id)) == self.epoch
    }

    /// The epoch under which this table is the log's end (`None`: a replica).
    pub(super) fn set_epoch(&mut self, epoch: Option<u64>) {
        self.epoch = epoch;
        self.owner.store(epoch.is_some(), Ordering::Release);
    }

    /// What a command to a replica is answered: UNAVAILABLE naming the owner, whose
    /// address the status carries for clients to follow (`baffle-owner`).
    pub(super) fn not_owner(&self) -> Error {
        not_owner(&self.store, &self.table.info().id)
    }

    /// Reads the records appended since this table and folds them in; broadcasts them.
    /// The owner has them already. A log that does not fold is reloaded whole.
    pub(super) fn catch_up(&mut self) {
        if self.writes() {
            return;
        }
        let id = self.table.info().id.clone();
        let lines = match self.store.read(&stream(&id), self.table.len(), usize::MAX) {
            Ok(lines) if lines.is_empty() => return,
            Ok(lines) => lines,
            Err(e) => {
                tracing::warn!(match_id = %id, error = %e, "a replica could not read its log");
                return;
            }
        };
        let seed = self.table.dice().server_seed().cloned();
        let mut replay = Replay::resume(self.table.clone(), seed);
        let mut events = Vec::with_capacity(lines.len());
        let mut reader = Reader::at(self.table.len());
        for line in &lines {
            let record = match reader.record(line) {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!(match_id = %id, error = %e, "a new record does not read: reloading the match");
                    self.reload();
                    return;
                }
            };
            if let Err(e) = replay.push(&record) {
                tracing::error!(match_id = %id, error = %e, "a new record does not fold: reloading the match");
                self.reload();
                return;
            }
            events.push(wire::event(&record));
        }
        match replay.finish() {
            Ok(table) => {
                self.table = table;
                let state = self.update_state(&self.table, self.now());
                self.summarise(&state);
                let _ = self.updates.send(Arc::new(v1::MatchUpdate {
                    events,
                    state: Some(state),
                }));
            }
            Err(e) => {
                tracing::error!(match_id = %id, error = %e, "the log read does not end settled: reloading");
                self.reload();
            }
        }
    }

    /// Makes sure this table is the log's end after an append whose outcome was unknown
    /// (`unsure`): the log is read past the table, and anything found there — the records
    /// of that append, committed though the answer was lost — is taken up, as after a
    /// conflict. Without it a command refused by the rules on the stale table (a press
    /// "before the roll" that the log holds) would never meet the longer log.
    pub(super) fn settle(&mut self) -> Result<(), Error> {
        if !self.unsure {
            return Ok(());
        }
        let id = self.table.info().id.clone();
        let past = self
            .store
            .read(&stream(&id), self.table.len(), 1)
            .map_err(|e| {
                Error::Unavailable(format!(
                    "the match's last write cannot be checked yet (the store: {e}): retry"
                ))
            })?;
        if !past.is_empty() && !self.reload() {
            return Err(Error::Unavailable(format!(
                "match {id} could not be reloaded from its log after a failed write: retry"
            )));
        }
        self.unsure = false;
        Ok(())
    }

    /// Takes the match over with the lease's `epoch`: reads the log to its end, records
    /// what fell due and the takeover, and becomes the owner. If the record cannot be
    /// written (the store failed) it is tried again a second later, while the lease
    /// lasts; a lost lease ends the attempt. `silent_ms`, how long the previous holder
    /// had been silent at the claim (the database's measure), goes to the table, which
    /// credits a match played without devices that much of the outage, within its bound;
    /// a retry keeps the claim's measure (the time since is not credited).
    pub(super) async fn take_over(&mut self, node: String, epoch: u64, silent_ms: Option<u64>) {
        let id = self.table.info().id.clone();
        if !self.store.holds(&stream(&id)) {
            // Lapsed on this side only (the claim's answer, or a renewal, came late):
            // while the epoch is still the one last given, the database lease is this
            // node's and its renewals keep it so — dropped here, the match would have no
            // writer at all (issue 33's Patroni campaign, once in 160 faults). Tried again
            // every second until renewed or lost.
            self.retry_take_over(node, epoch, silent_ms);
            return;
        }
        self.set_epoch(None);
        self.catch_up();
        let now = self.now();
        let plan = match self.table.plan(
            &Request::Takeover {
                node: node.clone(),
                epoch,
                silent_ms,
            },
            now,
        ) {
            Ok(plan) => plan,
            Err(refusal) => {
                tracing::error!(match_id = %id, %refusal, "the takeover cannot be recorded");
                return;
            }
        };
        // The table's own check: the replica is now at the log's end.
        self.set_epoch(Some(epoch));
        match self.append(plan, None).await {
            Ok(_) => {
                tracing::info!(match_id = %id, %node, epoch, "took the match over");
            }
            Err(e) => {
                self.set_epoch(None);
                tracing::warn!(match_id = %id, error = %e, "the takeover could not be written; trying again");
                self.retry_take_over(node, epoch, silent_ms);
            }
        }
    }

    /// Keeps a takeover to be tried again in a second, while this node was last given the
    /// match's lease with `epoch` (lapsed on its side or not): a lease lost to another
    /// node, or let go, ends it.
    fn retry_take_over(&mut self, node: String, epoch: u64, silent_ms: Option<u64>) {
        let id = self.table.info().id.clone();
        if self.store.held_epoch(&stream(&id)) == Some(epoch) {
            self.takeover = Some((node, epoch, silent_ms));
        } else {
            tracing::info!(match_id = %id, epoch, "the lease went elsewhere before the takeover was written");
        }
    }

    /// Stops writing, to hand the match over to another node: from now on a command is
    /// answered as on a replica. Returns the epoch it wrote under (`None`: it did not
    /// write, or a takeover is still to be recorded). Nothing is recorded: the next
    /// owner's `table.takeover`, under a newer epoch, marks the change of writer, and
    /// what falls due meanwhile is recorded by it at its instant.
    pub(super) fn stop_writing(&mut self) -> Option<u64> {
        if self.takeover.is_some() || !self.writes() {
            return None;
        }
        let epoch = self.epoch;
        self.set_epoch(None);
        epoch
    }

    /// Writes again under `epoch` after a hand-over that did not happen, if the node still
    /// holds the lease with it: nobody else wrote meanwhile (no node writes without the
    /// lease), so the table is still the log's end.
    pub(super) fn resume(&mut self, epoch: u64) {
        let id = self.table.info().id.clone();
        if self.epoch.is_none() && self.store.lease_epoch(&stream(&id)) == Some(epoch) {
            self.set_epoch(Some(epoch));
            tracing::info!(match_id = %id, epoch, "the hand-over did not happen: writing again");
        }
    }

    /// After a restart of a single server, credits the outage since `since` (its last
    /// heartbeat) to the running side of a match played without devices
    /// (`table.restart`, `docs/server.md`, "A restart"); records nothing where the
    /// outage cost no clock anything. A failed write is logged and not retried: the
    /// director sees the clock and can rule.
    pub(super) async fn credit_restart(&mut self, since: Timestamp) {
        if self.store.node_id().is_some() {
            return; // a cluster's takeovers credit its outages
        }
        if self.is_replaced() {
            return; // a replaced match records nothing more
        }
        let now = self.now();
        let Ok(down_ms) = u64::try_from((now - since).as_ms()) else {
            return;
        };
        let id = self.table.info().id.clone();
        match self.table.plan(&Request::Restart { down_ms }, now) {
            Ok(plan) if plan.records.is_empty() => {}
            Ok(plan) => match self.append(plan, None).await {
                Ok(_) => tracing::info!(match_id = %id, down_ms, "credited the restart's outage"),
                Err(e) => {
                    tracing::warn!(match_id = %id, error = %e, "the restart's credit could not be written")
                }
            },
            Err(refusal) => {
                tracing::warn!(match_id = %id, %refusal, "the restart's credit cannot be recorded")
            }
        }
    }
}

/// UNAVAILABLE for a command to match `id` on a node that does not write it: naming the
/// node that does (`baffle-owner`, for clients to follow), or no node while none has
/// finished taking it over. The database's lease may name *this* node before it writes
/// the match — it claimed the lease and is still reading the log and recording the
/// takeover, or its own lease lapsed on its side and is being renewed — and then no
/// owner is named either: a client sent to this node would be refused again
/// (`docs/cluster.md`, "Who writes a match").
pub fn not_owner<S: EventStore>(store: &S, id: &str) -> Error {
    match store.owner_of(&stream(id)) {
        Some((node, _)) if store.node_id() == Some(node.as_str()) => Error::NotOwner {
            owner: None,
            message: format!(
                "match {id}: this node is taking it over, handing it over or renewing its \
                 lease on it: retry in a moment"
            ),
        },
        Some((node, url)) => Error::NotOwner {
            owner: Some(url.clone()),
            message: format!("match {id} is written by node {node} at {url}: send it there"),
        },
        None => Error::NotOwner {
            owner: None,
            message: format!(
                "match {id} has no live node right now (a takeover is under way): retry in a moment"
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU64};

    use baffle_core::backgammon::MatchSetup;
    use baffle_core::dice::ServerSeed;
    use baffle_core::table::{GameSetup, MatchInfo, Table};
    use tokio::sync::broadcast;

    use super::*;
    use crate::store::MemoryStore;
    use crate::store::{Receipt, StoreError};
    use crate::time::ManualTime;

    /// A node's store whose lease on every stream is `given` (the epoch last given) and
    /// held on this side only while `held`: a lease lapsed locally, its renewal late.
    #[derive(Clone, Default)]
    struct Leased {
        log: MemoryStore,
        held: Arc<AtomicBool>,
        given: Arc<AtomicU64>,
    }

    impl EventStore for Leased {
        async fn append_with_receipt(
            &self,
            stream: &str,
            expected: u64,
            records: Vec<Vec<u8>>,
            receipt: Option<Receipt>,
        ) -> Result<u64, StoreError> {
            if !self.holds(stream) {
                return Err(StoreError::Fenced("the lease lapsed".into()));
            }
            self.log
                .append_with_receipt(stream, expected, records, receipt)
                .await
        }

        fn receipt(&self, stream: &str, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
            self.log.receipt(stream, key)
        }

        fn read(&self, stream: &str, from: u64, limit: usize) -> Result<Vec<Vec<u8>>, StoreError> {
            self.log.read(stream, from, limit)
        }

        fn len(&self, stream: &str) -> Result<u64, StoreError> {
            self.log.len(stream)
        }

        fn streams(&self) -> Result<Vec<String>, StoreError> {
            self.log.streams()
        }

        fn holds(&self, _: &str) -> bool {
            self.held.load(Ordering::SeqCst)
        }

        fn lease_epoch(&self, stream: &str) -> Option<u64> {
            self.holds(stream)
                .then(|| self.given.load(Ordering::SeqCst))
        }

        fn held_epoch(&self, _: &str) -> Option<u64> {
            Some(self.given.load(Ordering::SeqCst)).filter(|e| *e > 0)
        }
    }

    /// Issue 33: a node told it took a match over while its own view of the lease had
    /// just lapsed (the claim's answer came late; the renewal then keeps the database
    /// lease) dropped the takeover, and the match had no writer for good. It is tried
    /// again once the lease is renewed, and written.
    #[tokio::test]
    async fn a_takeover_told_while_the_lease_lapsed_on_this_side_is_written_once_renewed() {
        let info = MatchInfo {
            id: "m".into(),
            tournament: "t".into(),
            round: 1,
            table: "1".into(),
        };
        let setup = GameSetup::Backgammon(MatchSetup::new(["Ann", "Bo"], 3, Timestamp(0)));
        let (table, records) = Table::create(info, setup, ServerSeed::from_bytes([4; 32])).unwrap();
        let store = Leased::default();
        let lines: Vec<Vec<u8>> = records
            .iter()
            .map(|r| baffle_core::audit::export::record_line(r).into_bytes())
            .collect();
        store.log.append(&stream("m"), 0, lines).await.unwrap();
        let time = ManualTime::new(Timestamp(0));
        // A replica: no lease yet.
        let handle = MatchActor::spawn(
            table,
            store.clone(),
            time.clone(),
            broadcast::channel(1).0,
            Arc::new(crate::signing::HeadSigner::from_secret([1; 32])),
        );
        // Claimed with epoch 2, the answer in after its deadline on this side.
        store.given.store(2, Ordering::SeqCst);
        handle.take_over("n2", 2, None).await;
        let _ = handle.state().await;
        assert_eq!(store.len(&stream("m")).unwrap(), 2, "nothing written yet");
        // The renewal comes back: a second later the takeover is written.
        store.held.store(true, Ordering::SeqCst);
        time.advance(1_000);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while store.len(&stream("m")).unwrap() == 2 {
            assert!(
                std::time::Instant::now() < deadline,
                "the takeover was never written: the match has no writer"
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let last = store.read(&stream("m"), 2, 10).unwrap();
        let last = String::from_utf8(last[0].clone()).unwrap();
        assert!(last.contains("table.takeover"), "{last}");
        assert!(handle.is_owner());
    }
}
