//! The embedded event store on sled 0.34, with group commit.
//!
//! Every append goes to the *committer*, a thread of its own, which takes all the appends
//! waiting at that moment — from any number of matches — checks each one's expected
//! length, writes all their records with one atomic sled batch, and makes them durable
//! with one flush. Only then is any of them acknowledged. So under load many appends
//! share one batch and one flush, the async runtime never blocks on sled, and no append
//! is acknowledged before it is durable.
//!
//! One tree holds everything: a stream's records under `len(name) ‖ name ‖ position`
//! (big-endian, so a stream is contiguous and in order) and its length under
//! `0xFF ‖ name`. Records and length therefore change in the same atomic batch. (Stores
//! written before this layout kept lengths in a second tree; `open` moves them.)
//!
//! What "durable" means here, honestly: sled 0.34's `flush` writes its log buffers and
//! on Linux calls `sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER)` on the written range
//! (`fsync` only where that call is missing). That survives a crash of this process, but
//! `sync_file_range` neither flushes the drive's volatile write cache nor the file's
//! metadata, so it is no barrier against power loss or a kernel crash. The committer
//! therefore also calls `fsync` (`File::sync_all`) on sled's data file — the same inode
//! sled writes — after every flush. See `ARCHITECTURE.md`.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::{mpsc, oneshot};

use super::{EventStore, StoreError};

/// Most appends written and flushed together: bounds how long the first of a batch waits.
const MAX_BATCH: usize = 4_096;

/// sled-backed [`EventStore`]. Cheap to clone; clones share the database and committer.
#[derive(Clone)]
pub struct SledStore {
    inner: Arc<Inner>,
}

struct Inner {
    /// Records and lengths (see the module documentation).
    records: sled::Tree,
    commit: mpsc::UnboundedSender<Append>,
    flushes: Arc<AtomicU64>,
}

/// An append on its way to the committer.
struct Append {
    stream: String,
    expected: u64,
    records: Vec<Vec<u8>>,
    done: oneshot::Sender<Result<u64, StoreError>>,
}

fn io(e: impl std::fmt::Display) -> StoreError {
    StoreError::Io(e.to_string())
}

/// Record keys: the stream name length-prefixed, then the position big-endian, so one
/// stream's records are contiguous and in order. (A name is at most a few dozen bytes, so
/// a record key never starts with the length keys' 0xFF.)
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

/// The first byte of every length key.
const LENGTH_TAG: u8 = 0xFF;

fn length_key(stream: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(1 + stream.len());
    k.push(LENGTH_TAG);
    k.extend_from_slice(stream.as_bytes());
    k
}

fn decode_len(v: Option<sled::IVec>) -> u64 {
    v.map_or(0, |v| {
        u64::from_be_bytes(v.as_ref().try_into().unwrap_or([0; 8]))
    })
}

impl SledStore {
    /// Opens (or creates) the store in `dir` and starts its committer thread.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        let db = sled::Config::new().path(dir).open().map_err(io)?;
        let records = db.open_tree("records").map_err(io)?;
        move_old_lengths(&db, &records)?;
        let (commit, waiting) = mpsc::unbounded_channel();
        let flushes = Arc::new(AtomicU64::new(0));
        let committer = Committer {
            db,
            records: records.clone(),
            data_file: dir.join("db"),
            lengths: HashMap::new(),
            flushes: flushes.clone(),
        };
        std::thread::Builder::new()
            .name("store-commit".into())
            .spawn(move || committer.run(waiting))
            .map_err(io)?;
        Ok(SledStore {
            inner: Arc::new(Inner {
                records,
                commit,
                flushes,
            }),
        })
    }

    /// How many group flushes have been made (for tests and benchmarks).
    pub fn flushes(&self) -> u64 {
        self.inner.flushes.load(Ordering::Relaxed)
    }
}

/// Stores of the earlier layout kept lengths in a tree of their own: move them beside
/// the records, in one batch, and flush before the old tree goes.
fn move_old_lengths(db: &sled::Db, records: &sled::Tree) -> Result<(), StoreError> {
    if !db.tree_names().iter().any(|n| n.as_ref() == b"lengths") {
        return Ok(());
    }
    let old = db.open_tree("lengths").map_err(io)?;
    let mut batch = sled::Batch::default();
    for entry in old.iter() {
        let (name, len) = entry.map_err(io)?;
        let mut k = vec![LENGTH_TAG];
        k.extend_from_slice(&name);
        batch.insert(k, len);
    }
    records.apply_batch(batch).map_err(io)?;
    db.flush().map_err(io)?;
    db.drop_tree("lengths").map_err(io)?;
    db.flush().map_err(io)?;
    Ok(())
}

/// The committer thread's state: the database, and every stream's length as far as the
/// committer has written it (read from the tree the first time a stream is seen).
struct Committer {
    db: sled::Db,
    records: sled::Tree,
    data_file: PathBuf,
    lengths: HashMap<String, u64>,
    flushes: Arc<AtomicU64>,
}

impl Committer {
    /// Until every handle of the store is dropped: take the waiting appends, write the
    /// acceptable ones in one batch, flush, answer.
    fn run(mut self, mut waiting: mpsc::UnboundedReceiver<Append>) {
        while let Some(first) = waiting.blocking_recv() {
            let mut appends = vec![first];
            while appends.len() < MAX_BATCH {
                match waiting.try_recv() {
                    Ok(more) => appends.push(more),
                    Err(_) => break,
                }
            }
            self.commit(appends);
        }
    }

    fn commit(&mut self, appends: Vec<Append>) {
        let mut batch = sled::Batch::default();
        let mut accepted = Vec::with_capacity(appends.len());
        for a in appends {
            let actual = match self.length(&a.stream) {
                Ok(n) => n,
                Err(e) => {
                    let _ = a.done.send(Err(e));
                    continue;
                }
            };
            if actual != a.expected {
                let _ = a.done.send(Err(StoreError::Conflict {
                    expected: a.expected,
                    actual,
                }));
                continue;
            }
            for (i, r) in a.records.iter().enumerate() {
                batch.insert(key(&a.stream, a.expected + i as u64), r.as_slice());
            }
            let new_len = a.expected + a.records.len() as u64;
            batch.insert(length_key(&a.stream), &new_len.to_be_bytes());
            self.lengths.insert(a.stream.clone(), new_len);
            accepted.push((a.done, new_len, a.stream));
        }
        if accepted.is_empty() {
            return;
        }
        let result = self
            .records
            .apply_batch(batch)
            .map_err(|e| e.to_string())
            .and_then(|()| self.flush());
        match result {
            Ok(()) => {
                for (done, new_len, _) in accepted {
                    let _ = done.send(Ok(new_len));
                }
            }
            Err(e) => {
                // What was written (if anything) is read back from the tree next time.
                for (done, _, stream) in accepted {
                    self.lengths.remove(&stream);
                    let _ = done.send(Err(StoreError::Io(e.clone())));
                }
            }
        }
    }

    /// A stream's length: the cache, or the tree the first time.
    fn length(&mut self, stream: &str) -> Result<u64, StoreError> {
        if let Some(n) = self.lengths.get(stream) {
            return Ok(*n);
        }
        let n = decode_len(self.records.get(length_key(stream)).map_err(io)?);
        self.lengths.insert(stream.to_string(), n);
        Ok(n)
    }

    /// sled's flush, then `fsync` on its data file.
    fn flush(&self) -> Result<(), String> {
        self.db.flush().map_err(|e| e.to_string())?;
        File::open(&self.data_file)
            .and_then(|f| f.sync_all())
            .map_err(|e| e.to_string())?;
        self.flushes.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

impl EventStore for SledStore {
    async fn append(
        &self,
        stream: &str,
        expected: u64,
        records: Vec<Vec<u8>>,
    ) -> Result<u64, StoreError> {
        let (done, durable) = oneshot::channel();
        self.inner
            .commit
            .send(Append {
                stream: stream.to_string(),
                expected,
                records,
                done,
            })
            .map_err(|_| io("the committer has stopped"))?;
        durable.await.map_err(|_| io("the committer has stopped"))?
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
            self.inner.records.get(length_key(stream)).map_err(io)?,
        ))
    }

    fn streams(&self) -> Result<Vec<String>, StoreError> {
        self.inner
            .records
            .scan_prefix([LENGTH_TAG])
            .keys()
            .map(|k| {
                k.map_err(io)
                    .map(|k| String::from_utf8_lossy(&k[1..]).into_owned())
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

    /// A store written with lengths in a tree of their own (the first layout) opens with
    /// every stream, record and length, and takes appends where they left off.
    #[tokio::test]
    async fn a_store_of_the_first_layout_is_moved_on_open() {
        let dir = tempfile::tempdir().unwrap();
        {
            let db = sled::Config::new().path(dir.path()).open().unwrap();
            let records = db.open_tree("records").unwrap();
            let lengths = db.open_tree("lengths").unwrap();
            for (stream, n) in [("m/a", 2u64), ("registry", 1)] {
                for i in 0..n {
                    records
                        .insert(key(stream, i), format!("{stream}{i}").as_bytes())
                        .unwrap();
                }
                lengths.insert(stream.as_bytes(), &n.to_be_bytes()).unwrap();
            }
            db.flush().unwrap();
        }
        let store = SledStore::open(dir.path()).unwrap();
        assert_eq!(store.streams().unwrap(), ["m/a", "registry"]);
        assert_eq!(store.len("m/a").unwrap(), 2);
        assert_eq!(store.append("m/a", 2, recs(&["m/a2"])).await.unwrap(), 3);
        assert_eq!(
            store.read("m/a", 0, 10).unwrap(),
            recs(&["m/a0", "m/a1", "m/a2"])
        );
        assert!(matches!(
            store.append("registry", 0, recs(&["x"])).await,
            Err(StoreError::Conflict { actual: 1, .. })
        ));
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
