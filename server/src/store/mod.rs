//! The event store: each match is an append-only stream of records.
//!
//! The trait is deliberately small — append a batch at an expected position, read a
//! range, list the streams — so that another engine can replace the embedded
//! [`SledStore`] when one machine is outgrown (design principle 10): [`PgStore`] keeps
//! the streams in PostgreSQL for several nodes (`docs/cluster.md`). An append returns
//! only once its records are durable. `contract` holds the checks every store passes.

pub mod contract;
pub mod manifest;
mod memory;
mod pg_commit;
mod pg_lease;
mod pg_listen;
mod pg_store;
mod pg_tls;
mod queue;
mod sled_commit;
mod sled_engine;
mod sled_keys;
mod sled_store;

pub use memory::MemoryStore;
pub use pg_commit::Freeze;
pub use pg_lease::{Fence, JoinChecks};
pub use pg_listen::Change;
pub use pg_store::{PgStore, application_name, session_options};
pub use pg_tls::{TlsMode, split_url as split_store_url};
pub use sled_store::SledStore;

use std::fmt;
use std::future::Future;

/// Why the store refused or failed.
#[derive(Debug)]
pub enum StoreError {
    /// The stream is not at the expected length: someone else appended first.
    Conflict {
        /// The length the caller expected.
        expected: u64,
        /// The stream's actual length.
        actual: u64,
    },
    /// The storage engine or the disk failed.
    Io(String),
    /// The stream holds less than was acknowledged (or the store cannot tell what it
    /// should hold): it is served no more until it is restored.
    Lost(String),
    /// This node of a cluster does not hold the stream's lease (`docs/cluster.md`):
    /// another node writes it. Nothing was written.
    Fenced(String),
    /// This node may not join the cluster: another live node has its id, or its director
    /// token is not the cluster's (`docs/cluster.md`).
    Refused(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict { expected, actual } => {
                write!(f, "stream is at {actual}, not at the expected {expected}")
            }
            StoreError::Io(e) => write!(f, "storage failed: {e}"),
            StoreError::Lost(why) => write!(f, "data lost: {why}"),
            StoreError::Fenced(why) => write!(f, "not this node's to write: {why}"),
            StoreError::Refused(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// A receipt stored with an append, in the same atomic write: what to answer a retry of
/// the request that made the records (its request id as `key`, the reply as `value`).
/// Receipts are kept per stream, for the stream's life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    /// The request id.
    pub key: String,
    /// What the request was answered (opaque to the store).
    pub value: Vec<u8>,
}

/// Append-only streams of records, one per match.
pub trait EventStore: Send + Sync + 'static {
    /// Appends `records` to `stream` if it holds exactly `expected` records, and returns
    /// the new length once the records are durable.
    fn append(
        &self,
        stream: &str,
        expected: u64,
        records: Vec<Vec<u8>>,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send {
        self.append_with_receipt(stream, expected, records, None)
    }

    /// [`EventStore::append`], storing `receipt` (if any) in the same atomic write: the
    /// records are durable with their receipt or not at all. A receipt under a key the
    /// stream already has replaces it.
    fn append_with_receipt(
        &self,
        stream: &str,
        expected: u64,
        records: Vec<Vec<u8>>,
        receipt: Option<Receipt>,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// The receipt stored under `key` with an append to `stream`, if any.
    fn receipt(&self, stream: &str, key: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// The records of `stream` from position `from` (0-based) on, at most `limit` of them.
    fn read(&self, stream: &str, from: u64, limit: usize) -> Result<Vec<Vec<u8>>, StoreError>;

    /// The number of records in `stream` (0 if it does not exist).
    fn len(&self, stream: &str) -> Result<u64, StoreError>;

    /// Ok if `stream` holds everything acknowledged as far as the store can tell; a
    /// [`StoreError::Lost`] if it was found short or damaged on open.
    fn check(&self, stream: &str) -> Result<(), StoreError> {
        let _ = stream;
        Ok(())
    }

    /// Whether the store can write now, and every change of it: false after a write or a
    /// flush failed (a full disk), true again after one succeeds. The health service
    /// answers NOT_SERVING meanwhile. A store that cannot tell says true, once.
    fn writable(&self) -> tokio::sync::watch::Receiver<bool> {
        tokio::sync::watch::channel(true).1
    }

    /// Every stream, in name order.
    fn streams(&self) -> Result<Vec<String>, StoreError>;

    /// Whether this process may append to `stream`: always, but on a node of a cluster
    /// (`docs/cluster.md`), where only the holder of a match's lease writes it.
    fn holds(&self, stream: &str) -> bool {
        let _ = stream;
        true
    }

    /// The epoch of the lease under which this process may append to `stream` now: on a
    /// node of a cluster, that of the match's lease while the node holds it; elsewhere
    /// always 0. A writer whose log is current under one epoch stays current while the
    /// epoch does (no other node can append without a new one).
    fn lease_epoch(&self, stream: &str) -> Option<u64> {
        self.holds(stream).then_some(0)
    }

    /// The epoch of the lease this process was last given for `stream`, even if it has
    /// lapsed on its side since (a renewal late): what a match's actor starts with, its
    /// table being the log's end under it. Elsewhere always 0.
    fn held_epoch(&self, stream: &str) -> Option<u64> {
        self.lease_epoch(stream)
    }

    /// On a node of a cluster: takes the lease of a new stream for this node before its
    /// first append (`Conflict` if another node has it). Elsewhere nothing to do.
    fn lease_new(&self, stream: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        let _ = stream;
        std::future::ready(Ok(()))
    }

    /// When this server was last known alive, ms on its time line: its last heartbeat
    /// before this start ([`EventStore::mark_alive`]), read once at start to measure a
    /// restart's outage. `None` where the store keeps none: a cluster's nodes measure
    /// each other's silence by their leases instead (`docs/cluster.md`).
    fn last_alive(&self) -> Option<i64> {
        None
    }

    /// Records that this server is alive at `at_ms` (every second, and at a clean stop).
    fn mark_alive(&self, _at_ms: i64) -> Result<(), StoreError> {
        Ok(())
    }

    /// On a node of a cluster: this node's id (`--node-id`).
    fn node_id(&self) -> Option<&str> {
        None
    }

    /// On a node of a cluster: the node that holds `stream`'s lease now, and the address
    /// clients reach it at (`--advertise`), if any node does.
    fn owner_of(&self, stream: &str) -> Option<(String, String)> {
        let _ = stream;
        None
    }
}
