//! The embedded event store on sled 0.34, with group commit.
//!
//! Every append goes to the *committer*, a thread of its own, which takes all the appends
//! waiting at that moment — from any number of matches — checks each one's expected
//! length and writes all their records with one atomic sled batch. The batch then goes to
//! the *flusher*, a second thread, which makes it durable with one flush (together with
//! any other batch written meanwhile); only then is any of its appends acknowledged. So
//! under load many appends share one batch and one flush, the next batch is written while
//! the last one is being flushed, the async runtime never blocks on sled, and no append
//! is acknowledged before it is durable. The threads are in `sled_commit.rs`; the open
//! database (with the manifest it was compared with, `manifest.rs`) in `sled_engine.rs`,
//! opened again by the committer after sled failed (its errors are sticky) once the disk
//! has room.
//!
//! One tree holds everything: a stream's records under `len(name) ‖ name ‖ position`
//! (big-endian, so a stream is contiguous and in order), a marker under `0xFF ‖ name`,
//! written with the stream's first records, so that streams can be listed without reading
//! them, each request's receipt under `0xFE ‖ len(name) ‖ name ‖ request id` (written in
//! the same batch as its records), and `0xFD` once the store has a manifest. A stream's length is its last record's position plus one: the records are the
//! only truth, and an append writes nothing else. (Stores written before kept lengths in a
//! second tree, then as the markers' values; `open` moves the first, the second are
//! simply no longer read.)
//!
//! What "durable" means here, honestly: sled 0.34's `flush` writes its log buffers and
//! on Linux calls `sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER)` on the written range
//! (`fsync` only where that call is missing). That survives a crash of this process, but
//! `sync_file_range` neither flushes the drive's volatile write cache nor the file's
//! metadata, so it is no barrier against power loss or a kernel crash. The flusher
//! therefore also calls `fsync` (`File::sync_all`) on sled's data file — the same inode
//! sled writes — after every flush. See `docs/server.md`, "The event store and what
//! 'durable' means".

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use tokio::sync::mpsc;

use super::queue::{self, Append, io};
use super::sled_commit::{Committer, Flusher, Shared};
use super::sled_engine::Engine;
use super::sled_keys::{MARKER_TAG, key, receipt_key, stored_len};
use super::{EventStore, Receipt, StoreError};

/// sled-backed [`EventStore`]. Cheap to clone; clones share the database and committer.
#[derive(Clone)]
pub struct SledStore {
    inner: Arc<Inner>,
}

struct Inner {
    /// The database and what the threads share.
    shared: Arc<Shared>,
    commit: mpsc::UnboundedSender<Append>,
}

/// The heartbeat file in the data directory: the server's time, 8 bytes big-endian ms,
/// rewritten every second and at a clean stop (`EventStore::mark_alive`).
const HEARTBEAT_FILE: &str = "heartbeat";

impl SledStore {
    /// Opens (or creates) the store in `dir`, compares it with its manifest, and starts
    /// its committer and flusher threads. A stream the manifest shows lost is kept lost:
    /// see [`EventStore::check`].
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        let engine = Engine::open(dir)?;
        let shared = Arc::new(Shared {
            dir: dir.to_path_buf(),
            engine: RwLock::new(Some(Arc::new(engine))),
            writable: tokio::sync::watch::channel(true).0,
            flushes: AtomicU64::new(0),
        });
        let (commit, waiting) = mpsc::unbounded_channel();
        let (to_flusher, written) = std::sync::mpsc::channel();
        let flusher = Flusher {
            shared: shared.clone(),
            data_file: dir.join("db"),
        };
        let committer = Committer {
            shared: shared.clone(),
            lengths: HashMap::new(),
            flusher: to_flusher,
            last_try: None,
        };
        std::thread::Builder::new()
            .name("store-flush".into())
            .spawn(move || flusher.run(written))
            .map_err(io)?;
        std::thread::Builder::new()
            .name("store-commit".into())
            .spawn(move || committer.run(waiting))
            .map_err(io)?;
        Ok(SledStore {
            inner: Arc::new(Inner { shared, commit }),
        })
    }

    /// How many group flushes have been made (for tests and benchmarks).
    pub fn flushes(&self) -> u64 {
        self.inner.shared.flushes.load(Ordering::Relaxed)
    }

    fn engine(&self) -> Result<Arc<Engine>, StoreError> {
        self.inner.shared.engine()
    }
}

impl EventStore for SledStore {
    async fn append_with_receipt(
        &self,
        stream: &str,
        expected: u64,
        records: Vec<Vec<u8>>,
        receipt: Option<Receipt>,
    ) -> Result<u64, StoreError> {
        queue::submit(&self.inner.commit, stream, expected, records, receipt).await
    }

    fn receipt(&self, stream: &str, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let value = self
            .engine()?
            .records
            .get(receipt_key(stream, key))
            .map_err(io)?;
        Ok(value.map(|v| v.to_vec()))
    }

    fn read(&self, stream: &str, from: u64, limit: usize) -> Result<Vec<Vec<u8>>, StoreError> {
        self.engine()?
            .records
            .range(key(stream, from)..key(stream, u64::MAX))
            .take(limit)
            .map(|r| r.map(|(_, v)| v.to_vec()).map_err(io))
            .collect()
    }

    fn len(&self, stream: &str) -> Result<u64, StoreError> {
        stored_len(&self.engine()?.records, stream)
    }

    fn writable(&self) -> tokio::sync::watch::Receiver<bool> {
        self.inner.shared.writable.subscribe()
    }

    fn check(&self, stream: &str) -> Result<(), StoreError> {
        match self.engine()?.lost.get(stream) {
            Some(why) => Err(StoreError::Lost(why.clone())),
            None => Ok(()),
        }
    }

    fn last_alive(&self) -> Option<i64> {
        let bytes = std::fs::read(self.inner.shared.dir.join(HEARTBEAT_FILE)).ok()?;
        Some(i64::from_be_bytes(bytes.try_into().ok()?))
    }

    fn mark_alive(&self, at_ms: i64) -> Result<(), StoreError> {
        use std::io::Write;
        // Eight bytes in place, synced: a power cut must not leave an older heartbeat
        // behind, which would overstate the next restart's outage.
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(self.inner.shared.dir.join(HEARTBEAT_FILE))
            .map_err(io)?;
        file.write_all(&at_ms.to_be_bytes()).map_err(io)?;
        file.sync_data().map_err(io)
    }

    fn streams(&self) -> Result<Vec<String>, StoreError> {
        self.engine()?
            .records
            .scan_prefix([MARKER_TAG])
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

    /// Issue 18 (4): a request's receipt is stored with its records, survives reopening,
    /// and is not stored when the append is refused.
    #[tokio::test]
    async fn a_receipt_is_stored_with_its_records_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let store = SledStore::open(dir.path()).unwrap();
        let receipt = |key: &str, value: &str| {
            Some(Receipt {
                key: key.into(),
                value: value.as_bytes().to_vec(),
            })
        };
        store
            .append_with_receipt("m1", 0, recs(&["a"]), receipt("fix-42", "reply"))
            .await
            .unwrap();
        let refused = store
            .append_with_receipt("m1", 0, recs(&["b"]), receipt("fix-43", "other"))
            .await;
        assert!(matches!(refused, Err(StoreError::Conflict { .. })));
        assert_eq!(store.receipt("m1", "fix-43").unwrap(), None);
        assert_eq!(store.receipt("m2", "fix-42").unwrap(), None, "per stream");
        drop(store);
        let store = reopen(dir.path()).await;
        assert_eq!(
            store.receipt("m1", "fix-42").unwrap(),
            Some(b"reply".to_vec())
        );
        assert_eq!(store.len("m1").unwrap(), 1, "a receipt is not a record");
        assert_eq!(store.streams().unwrap(), vec!["m1".to_string()]);
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

    /// Opens the store in `dir` again. sled locks its directory until the old handle is
    /// gone, and the old committer and flusher threads may still hold it for a moment.
    async fn reopen(dir: &Path) -> SledStore {
        for _ in 0..20_000 {
            if let Ok(store) = SledStore::open(dir) {
                return store;
            }
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        panic!("the store stays locked");
    }

    #[tokio::test]
    async fn records_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = SledStore::open(dir.path()).unwrap();
            store.append("m1", 0, recs(&["a"])).await.unwrap();
        }
        let store = reopen(dir.path()).await;
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

    #[tokio::test]
    async fn a_streams_length_is_read_from_its_last_record() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = SledStore::open(dir.path()).unwrap();
            store.append("m", 0, recs(&["a", "b"])).await.unwrap();
            store.append("m", 2, recs(&["c"])).await.unwrap();
            // A name that extends another's, and one whose records sort right after.
            store
                .append("m1", 0, recs(&["x", "y", "z", "w"]))
                .await
                .unwrap();
            store.append("l", 0, recs(&["q"])).await.unwrap();
        }
        let store = reopen(dir.path()).await;
        assert_eq!(store.len("m").unwrap(), 3);
        assert_eq!(store.len("m1").unwrap(), 4);
        assert_eq!(store.len("l").unwrap(), 1);
        assert_eq!(store.len("none").unwrap(), 0);
        assert_eq!(store.streams().unwrap(), ["l", "m", "m1"]);
        assert!(matches!(
            store.append("m", 2, recs(&["late"])).await,
            Err(StoreError::Conflict { actual: 3, .. })
        ));
        assert_eq!(store.append("m", 3, recs(&["d"])).await.unwrap(), 4);
        assert_eq!(store.read("m", 2, 10).unwrap(), recs(&["c", "d"]));
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

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn keeps_the_store_contract() {
        let dir = tempfile::tempdir().unwrap();
        crate::store::contract::all(&SledStore::open(dir.path()).unwrap()).await;
    }
}
