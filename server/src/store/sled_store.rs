//! The embedded event store on sled 0.34, with group commit.
//!
//! Every append goes to the *committer*, a thread of its own, which takes all the appends
//! waiting at that moment — from any number of matches — checks each one's expected
//! length and writes all their records with one atomic sled batch. The batch then goes to
//! the *flusher*, a second thread, which makes it durable with one flush (together with
//! any other batch written meanwhile); only then is any of its appends acknowledged. So
//! under load many appends share one batch and one flush, the next batch is written while
//! the last one is being flushed, the async runtime never blocks on sled, and no append
//! is acknowledged before it is durable.
//!
//! One tree holds everything: a stream's records under `len(name) ‖ name ‖ position`
//! (big-endian, so a stream is contiguous and in order), and a marker under `0xFF ‖ name`,
//! written with the stream's first records, so that streams can be listed without reading
//! them. A stream's length is its last record's position plus one: the records are the
//! only truth, and an append writes nothing else. (Stores written before kept lengths in a
//! second tree, then as the markers' values; `open` moves the first, the second are
//! simply no longer read.)
//!
//! What "durable" means here, honestly: sled 0.34's `flush` writes its log buffers and
//! on Linux calls `sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER)` on the written range
//! (`fsync` only where that call is missing). That survives a crash of this process, but
//! `sync_file_range` neither flushes the drive's volatile write cache nor the file's
//! metadata, so it is no barrier against power loss or a kernel crash. The committer
//! therefore also calls `fsync` (`File::sync_all`) on sled's data file — the same inode
//! sled writes — after every flush. See `ARCHITECTURE.md`.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::{mpsc, oneshot};

use super::manifest::{self, Known, Manifest};
use super::{EventStore, Receipt, StoreError};

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
    /// Streams found holding less than the manifest says, with why (`manifest`).
    lost: Arc<BTreeMap<String, String>>,
    /// Whether the last write and flush succeeded.
    writable: Arc<tokio::sync::watch::Sender<bool>>,
    commit: mpsc::UnboundedSender<Append>,
    flushes: Arc<AtomicU64>,
}

/// An append on its way to the committer.
struct Append {
    stream: String,
    expected: u64,
    records: Vec<Vec<u8>>,
    receipt: Option<Receipt>,
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

/// The first byte of every stream marker.
const MARKER_TAG: u8 = 0xFF;

fn marker_key(stream: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(1 + stream.len());
    k.push(MARKER_TAG);
    k.extend_from_slice(stream.as_bytes());
    k
}

/// The first byte of every receipt key: `0xFE ‖ len(name) ‖ name ‖ request id`.
const RECEIPT_TAG: u8 = 0xFE;

fn receipt_key(stream: &str, request: &str) -> Vec<u8> {
    let mut k = vec![RECEIPT_TAG];
    k.extend_from_slice(&stream_prefix(stream));
    k.extend_from_slice(request.as_bytes());
    k
}

/// A stream's length: its last record's position plus one, 0 if it has none.
fn stored_len(records: &sled::Tree, stream: &str) -> Result<u64, StoreError> {
    let end = key(stream, u64::MAX);
    match records.range(key(stream, 0)..end).next_back() {
        None => Ok(0),
        Some(entry) => {
            let (k, _) = entry.map_err(io)?;
            let position = k[k.len() - 8..].try_into().map_err(io)?;
            Ok(u64::from_be_bytes(position) + 1)
        }
    }
}

/// The key that says this store has a manifest (so a missing one is a loss, not an
/// older store): `0xFD`, apart from records, markers and receipts.
const MANIFEST_KEY: &[u8] = &[0xFD];

/// Compares the store with its manifest (`manifest`): returns the manifest rewritten,
/// open for appending, and every lost stream with why (each logged as an ERROR).
fn check_manifest(
    dir: &Path,
    records: &sled::Tree,
) -> Result<(Manifest, BTreeMap<String, String>), StoreError> {
    let had_one = records.contains_key(MANIFEST_KEY).map_err(io)?;
    let known = match Manifest::read(dir) {
        Err(e) => return Err(StoreError::Lost(format!("{e}: run `baffled check`"))),
        Ok(None) if had_one => {
            return Err(StoreError::Lost(format!(
                "the manifest ({}) is missing: restore it with the store from a backup",
                dir.join(manifest::FILE).display()
            )));
        }
        Ok(known) => known.unwrap_or_default(),
    };
    let head = |stream: &str, len: u64| -> Result<(u64, Option<String>), StoreError> {
        let now = stored_len(records, stream)?;
        let head = match len.checked_sub(1) {
            Some(last) if last < now => records
                .get(key(stream, last))
                .map_err(io)?
                .map(|r| manifest::head_of(&r)),
            _ => None,
        };
        Ok((now, head))
    };
    let lost = manifest::lost_streams(&known, head)?;
    for (stream, why) in &lost {
        tracing::error!(stream = %stream, error = %why, "the store lost acknowledged records");
    }
    // The new manifest: every stream as it is, and every lost one as it should be.
    let mut now = BTreeMap::new();
    for entry in records.scan_prefix([MARKER_TAG]).keys() {
        let k = entry.map_err(io)?;
        let stream = String::from_utf8_lossy(&k[1..]).into_owned();
        let len = stored_len(records, &stream)?;
        if let Some(last) = len.checked_sub(1)
            && let Some(record) = records.get(key(&stream, last)).map_err(io)?
        {
            let head = manifest::head_of(&record);
            now.insert(stream, Known { len, head });
        }
    }
    for stream in lost.keys() {
        now.insert(stream.clone(), known[stream].clone());
    }
    let manifest = Manifest::rewrite(dir, &now).map_err(io)?;
    if !had_one {
        records.insert(MANIFEST_KEY, &[]).map_err(io)?;
        records.flush().map_err(io)?;
    }
    Ok((manifest, lost))
}

impl SledStore {
    /// Opens (or creates) the store in `dir`, compares it with its manifest, and starts
    /// its committer thread. A stream the manifest shows lost is kept lost: see
    /// [`EventStore::check`].
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        let db = sled::Config::new().path(dir).open().map_err(io)?;
        let records = db.open_tree("records").map_err(io)?;
        move_old_lengths(&db, &records)?;
        let (manifest, lost) = check_manifest(dir, &records)?;
        let lost = Arc::new(lost);
        let writable = Arc::new(tokio::sync::watch::channel(true).0);
        let (commit, waiting) = mpsc::unbounded_channel();
        let (to_flusher, written) = std::sync::mpsc::channel();
        let flushes = Arc::new(AtomicU64::new(0));
        let flusher = Flusher {
            db,
            data_file: dir.join("db"),
            manifest,
            writable: writable.clone(),
            flushes: flushes.clone(),
        };
        let committer = Committer {
            records: records.clone(),
            lengths: HashMap::new(),
            lost: lost.clone(),
            writable: writable.clone(),
            flusher: to_flusher,
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
            inner: Arc::new(Inner {
                records,
                lost,
                writable,
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
        let mut k = vec![MARKER_TAG];
        k.extend_from_slice(&name);
        batch.insert(k, len);
    }
    records.apply_batch(batch).map_err(io)?;
    db.flush().map_err(io)?;
    db.drop_tree("lengths").map_err(io)?;
    db.flush().map_err(io)?;
    Ok(())
}

/// The committer thread's state: the tree, every stream's length as far as the committer
/// has written it (read from the tree the first time a stream is seen), and the way to
/// the flusher.
struct Committer {
    records: sled::Tree,
    lengths: HashMap<String, u64>,
    lost: Arc<BTreeMap<String, String>>,
    writable: Arc<tokio::sync::watch::Sender<bool>>,
    flusher: std::sync::mpsc::Sender<Vec<Written>>,
}

/// An append written to the tree, waiting for a flush: whom to answer, the stream's
/// new length, and the stream with what it now holds, for the manifest.
type Written = (
    oneshot::Sender<Result<u64, StoreError>>,
    u64,
    (String, Known),
);

/// The flusher thread's state: the database to flush, the file to `fsync`, and the
/// manifest to append to once they are durable.
struct Flusher {
    db: sled::Db,
    data_file: PathBuf,
    manifest: Manifest,
    writable: Arc<tokio::sync::watch::Sender<bool>>,
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
            if let Some(why) = self.lost.get(&a.stream) {
                let _ = a.done.send(Err(StoreError::Lost(why.clone())));
                continue;
            }
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
            if a.expected == 0 && !a.records.is_empty() {
                batch.insert(marker_key(&a.stream), &[]);
            }
            for (i, r) in a.records.iter().enumerate() {
                batch.insert(key(&a.stream, a.expected + i as u64), r.as_slice());
            }
            if let Some(receipt) = a.receipt {
                batch.insert(receipt_key(&a.stream, &receipt.key), receipt.value);
            }
            let new_len = a.expected + a.records.len() as u64;
            self.lengths.insert(a.stream.clone(), new_len);
            let head = match a.records.last() {
                Some(last) => manifest::head_of(last),
                None => String::new(),
            };
            let known = Known { len: new_len, head };
            accepted.push((a.done, new_len, (a.stream, known)));
        }
        if accepted.is_empty() {
            return;
        }
        match self.records.apply_batch(batch) {
            Ok(()) => {
                // Written: the tree now holds these lengths, durable or not, so the cache
                // stays right even if the flush fails.
                if let Err(std::sync::mpsc::SendError(written)) = self.flusher.send(accepted) {
                    for (done, _, _) in written {
                        let _ = done.send(Err(io("the store's flusher has stopped")));
                    }
                }
            }
            Err(e) => {
                self.writable
                    .send_if_modified(|w| std::mem::replace(w, false));
                // What was written (if anything) is read back from the tree next time.
                for (done, _, (stream, _)) in accepted {
                    self.lengths.remove(&stream);
                    let _ = done.send(Err(io(&e)));
                }
            }
        }
    }

    /// A stream's length: the cache, or the tree the first time.
    fn length(&mut self, stream: &str) -> Result<u64, StoreError> {
        if let Some(n) = self.lengths.get(stream) {
            return Ok(*n);
        }
        let n = stored_len(&self.records, stream)?;
        self.lengths.insert(stream.to_string(), n);
        Ok(n)
    }
}

impl Flusher {
    /// Until the committer stops: take every written batch waiting, flush once, answer.
    fn run(mut self, written: std::sync::mpsc::Receiver<Vec<Written>>) {
        while let Ok(mut waiting) = written.recv() {
            while let Ok(more) = written.try_recv() {
                waiting.extend(more);
            }
            let result = self.flush();
            if result.is_ok() {
                self.note(&waiting);
            }
            let ok = result.is_ok();
            self.writable
                .send_if_modified(|w| std::mem::replace(w, ok) != ok);
            for (done, new_len, _) in waiting {
                let _ = done.send(result.clone().map(|()| new_len).map_err(StoreError::Io));
            }
        }
    }

    /// Appends what the streams now durably hold to the manifest. If that fails the
    /// records are durable all the same (the manifest lags, which only narrows what the
    /// next start can check), so the appends are still acknowledged — loudly.
    fn note(&mut self, written: &[Written]) {
        let streams = written
            .iter()
            .filter(|(_, _, (_, k))| !k.head.is_empty())
            .map(|(_, _, (s, k))| (s.as_str(), k));
        if let Err(e) = self.manifest.record(streams) {
            tracing::error!(manifest = %self.manifest.path().display(), error = %e, "the manifest could not be written");
        }
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
    async fn append_with_receipt(
        &self,
        stream: &str,
        expected: u64,
        records: Vec<Vec<u8>>,
        receipt: Option<Receipt>,
    ) -> Result<u64, StoreError> {
        let (done, durable) = oneshot::channel();
        self.inner
            .commit
            .send(Append {
                stream: stream.to_string(),
                expected,
                records,
                receipt,
                done,
            })
            .map_err(|_| io("the committer has stopped"))?;
        durable.await.map_err(|_| io("the committer has stopped"))?
    }

    fn receipt(&self, stream: &str, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let value = self
            .inner
            .records
            .get(receipt_key(stream, key))
            .map_err(io)?;
        Ok(value.map(|v| v.to_vec()))
    }

    fn read(&self, stream: &str, from: u64, limit: usize) -> Result<Vec<Vec<u8>>, StoreError> {
        self.inner
            .records
            .range(key(stream, from)..key(stream, u64::MAX))
            .take(limit)
            .map(|r| r.map(|(_, v)| v.to_vec()).map_err(io))
            .collect()
    }

    fn len(&self, stream: &str) -> Result<u64, StoreError> {
        stored_len(&self.inner.records, stream)
    }

    fn writable(&self) -> tokio::sync::watch::Receiver<bool> {
        self.inner.writable.subscribe()
    }

    fn check(&self, stream: &str) -> Result<(), StoreError> {
        match self.inner.lost.get(stream) {
            Some(why) => Err(StoreError::Lost(why.clone())),
            None => Ok(()),
        }
    }

    fn streams(&self) -> Result<Vec<String>, StoreError> {
        self.inner
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
}
