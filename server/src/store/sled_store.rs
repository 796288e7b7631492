//! The embedded event store on sled 0.34, with group commit.
//!
//! Records go into sled at once (in memory and the OS page cache); the caller then waits
//! for the *committer*, a task that takes every append waiting at that moment — from any
//! number of matches — and makes them durable together with one flush. So under load
//! many appends share a flush, and no append is acknowledged before it is durable.
//!
//! What "durable" means here, honestly: sled 0.34's `flush` writes its log buffers and
//! on Linux calls `sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER)` on the written range
//! (`fsync` only where that call is missing). That survives a crash of this process, but
//! `sync_file_range` neither flushes the drive's volatile write cache nor the file's
//! metadata, so it is no barrier against power loss or a kernel crash. The committer
//! therefore also calls `fsync` (`File::sync_all`) on sled's data file — the same inode
//! sled writes — after every flush. See `ARCHITECTURE.md`.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sled::Transactional;
use sled::transaction::{ConflictableTransactionError, TransactionError};
use tokio::sync::{mpsc, oneshot};

use super::{EventStore, StoreError};

/// sled-backed [`EventStore`]. Cheap to clone; clones share the database and committer.
#[derive(Clone)]
pub struct SledStore {
    inner: Arc<Inner>,
}

struct Inner {
    db: sled::Db,
    /// (stream, position) → record.
    records: sled::Tree,
    /// stream → length.
    lengths: sled::Tree,
    commit: mpsc::UnboundedSender<oneshot::Sender<Result<(), String>>>,
    flushes: AtomicU64,
}

fn io(e: impl std::fmt::Display) -> StoreError {
    StoreError::Io(e.to_string())
}

/// Record keys: the stream name length-prefixed, then the position big-endian, so one
/// stream's records are contiguous and in order.
fn key(stream: &str, position: u64) -> Vec<u8> {
    let mut k = stream_prefix(stream);
    k.extend_from_slice(&position.to_be_bytes());
    k
}

fn stream_prefix(stream: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(4 + stream.len() + 8);
    k.extend_from_slice(&(stream.len() as u32).to_be_bytes());
    k.extend_from_slice(stream.as_bytes());
    k
}

fn decode_len(v: Option<sled::IVec>) -> u64 {
    v.map_or(0, |v| {
        u64::from_be_bytes(v.as_ref().try_into().unwrap_or([0; 8]))
    })
}

impl SledStore {
    /// Opens (or creates) the store in `dir` and starts its committer on the current
    /// tokio runtime.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        let db = sled::Config::new().path(dir).open().map_err(io)?;
        let records = db.open_tree("records").map_err(io)?;
        let lengths = db.open_tree("lengths").map_err(io)?;
        let (commit, waiting) = mpsc::unbounded_channel();
        let inner = Arc::new(Inner {
            db,
            records,
            lengths,
            commit,
            flushes: AtomicU64::new(0),
        });
        tokio::spawn(committer(Arc::downgrade(&inner), dir.join("db"), waiting));
        Ok(SledStore { inner })
    }

    /// How many group flushes have been made (for tests and benchmarks).
    pub fn flushes(&self) -> u64 {
        self.inner.flushes.load(Ordering::Relaxed)
    }
}

/// Makes everything written so far durable, for every append waiting, with one flush.
async fn committer(
    inner: std::sync::Weak<Inner>,
    data_file: PathBuf,
    mut waiting: mpsc::UnboundedReceiver<oneshot::Sender<Result<(), String>>>,
) {
    while let Some(first) = waiting.recv().await {
        let mut batch = vec![first];
        while let Ok(more) = waiting.try_recv() {
            batch.push(more);
        }
        let Some(inner) = inner.upgrade() else { return };
        let path = data_file.clone();
        let result = tokio::task::spawn_blocking(move || {
            inner.db.flush().map_err(|e| e.to_string())?;
            File::open(&path)
                .and_then(|f| f.sync_all())
                .map_err(|e| e.to_string())?;
            inner.flushes.fetch_add(1, Ordering::Relaxed);
            Ok(())
        })
        .await
        .unwrap_or_else(|e| Err(format!("flush task failed: {e}")));
        for waiter in batch {
            let _ = waiter.send(result.clone());
        }
    }
}

impl EventStore for SledStore {
    async fn append(
        &self,
        stream: &str,
        expected: u64,
        records: Vec<Vec<u8>>,
    ) -> Result<u64, StoreError> {
        let inner = &self.inner;
        let outcome = (&inner.records, &inner.lengths).transaction(|(recs, lens)| {
            let actual = decode_len(lens.get(stream.as_bytes())?);
            if actual != expected {
                return Err(ConflictableTransactionError::Abort(actual));
            }
            for (i, r) in records.iter().enumerate() {
                recs.insert(key(stream, expected + i as u64), r.as_slice())?;
            }
            let new_len = expected + records.len() as u64;
            lens.insert(stream.as_bytes(), &new_len.to_be_bytes())?;
            Ok(new_len)
        });
        let new_len = match outcome {
            Ok(n) => n,
            Err(TransactionError::Abort(actual)) => {
                return Err(StoreError::Conflict { expected, actual });
            }
            Err(TransactionError::Storage(e)) => return Err(io(e)),
        };
        let (done, durable) = oneshot::channel();
        inner
            .commit
            .send(done)
            .map_err(|_| io("the committer has stopped"))?;
        durable
            .await
            .map_err(|_| io("the committer has stopped"))?
            .map_err(StoreError::Io)?;
        Ok(new_len)
    }

    fn read(&self, stream: &str, from: u64, limit: usize) -> Result<Vec<Vec<u8>>, StoreError> {
        let end = stream_prefix(stream)
            .into_iter()
            .chain(u64::MAX.to_be_bytes())
            .collect::<Vec<_>>();
        self.inner
            .records
            .range(key(stream, from)..end)
            .take(limit)
            .map(|r| r.map(|(_, v)| v.to_vec()).map_err(io))
            .collect()
    }

    fn len(&self, stream: &str) -> Result<u64, StoreError> {
        Ok(decode_len(
            self.inner.lengths.get(stream.as_bytes()).map_err(io)?,
        ))
    }

    fn streams(&self) -> Result<Vec<String>, StoreError> {
        self.inner
            .lengths
            .iter()
            .keys()
            .map(|k| {
                k.map_err(io)
                    .map(|k| String::from_utf8_lossy(&k).into_owned())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recs(xs: &[&str]) -> Vec<Vec<u8>> {
        xs.iter().map(|x| x.as_bytes().to_vec()).collect()
    }

    #[tokio::test]
    async fn append_read_and_expected_position() {
        let dir = tempfile::tempdir().unwrap();
        let store = SledStore::open(dir.path()).unwrap();
        assert_eq!(store.append("m1", 0, recs(&["a", "b"])).await.unwrap(), 2);
        assert_eq!(store.append("m1", 2, recs(&["c"])).await.unwrap(), 3);
        let stale = store.append("m1", 2, recs(&["x"])).await.unwrap_err();
        assert!(matches!(
            stale,
            StoreError::Conflict {
                expected: 2,
                actual: 3
            }
        ));
        assert_eq!(store.read("m1", 0, 10).unwrap(), recs(&["a", "b", "c"]));
        assert_eq!(store.read("m1", 1, 1).unwrap(), recs(&["b"]));
        assert_eq!(store.read("m2", 0, 10).unwrap(), Vec::<Vec<u8>>::new());
        // A stream whose name is a prefix of another's does not see its records.
        store.append("m", 0, recs(&["z"])).await.unwrap();
        assert_eq!(store.read("m", 0, 10).unwrap(), recs(&["z"]));
        assert_eq!(store.streams().unwrap(), ["m", "m1"]);
        assert_eq!(store.len("m1").unwrap(), 3);
    }

    #[tokio::test]
    async fn records_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = SledStore::open(dir.path()).unwrap();
            store.append("m1", 0, recs(&["a"])).await.unwrap();
        }
        // sled locks its directory until the old handle is gone; the old committer task
        // may still hold it for a moment.
        let mut store = None;
        for _ in 0..10_000 {
            match SledStore::open(dir.path()) {
                Ok(s) => {
                    store = Some(s);
                    break;
                }
                Err(_) => tokio::task::yield_now().await,
            }
        }
        let store = store.expect("the store reopens");
        assert_eq!(store.read("m1", 0, 10).unwrap(), recs(&["a"]));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_appends_share_flushes() {
        let dir = tempfile::tempdir().unwrap();
        let store = SledStore::open(dir.path()).unwrap();
        let tasks: Vec<_> = (0..200)
            .map(|i| {
                let store = store.clone();
                tokio::spawn(async move {
                    let stream = format!("m{}", i % 50);
                    loop {
                        let at = store.len(&stream).unwrap();
                        match store.append(&stream, at, vec![vec![i as u8]]).await {
                            Ok(_) => break,
                            Err(StoreError::Conflict { .. }) => continue,
                            Err(e) => panic!("{e}"),
                        }
                    }
                })
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
        let total: u64 = (0..50).map(|i| store.len(&format!("m{i}")).unwrap()).sum();
        assert_eq!(total, 200);
        assert!(
            store.flushes() < 200,
            "{} flushes for 200 appends",
            store.flushes()
        );
    }
}
