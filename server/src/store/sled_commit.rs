//! The two threads behind a [`SledStore`](super::SledStore): the *committer* writes every
//! waiting append in one sled batch, the *flusher* makes each batch durable (flush, then
//! `fsync`), appends what it made durable to the manifest, and only then answers.
//!
//! After a failure (a full disk) sled's error is sticky: every later write fails even
//! once space returns. The store then says it cannot write, and the committer, once a
//! second, checks for room with a probe file and, if there is some, opens the database
//! anew ([`Shared::reopen`]) — what a restart would do, without one. A batch is flushed
//! on the very database it was written to, so a batch written before a reopen can only
//! fail, never be acknowledged by a flush of the new one.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot, watch};

use super::StoreError;
use super::manifest::{self, Known};
use super::queue::{Append, io};
use super::sled_engine::Engine;
use super::sled_keys::{key, marker_key, receipt_key, stored_len};

/// Most appends written and flushed together: bounds how long the first of a batch waits.
const MAX_BATCH: usize = 4_096;

/// How often a store that cannot write looks for room again.
const RETRY: Duration = Duration::from_secs(1);

/// Bytes written (and removed) to see whether the disk has room again: two of sled's
/// 512 KiB segments.
const PROBE_BYTES: usize = 1 << 20;

/// What the store's handles and threads share.
pub(super) struct Shared {
    /// The store's directory.
    pub dir: PathBuf,
    /// The open database; None between a failed reopen and the next.
    pub engine: RwLock<Option<Arc<Engine>>>,
    /// Whether the store can write (see [`super::EventStore::writable`]).
    pub writable: watch::Sender<bool>,
    /// Group flushes made.
    pub flushes: AtomicU64,
}

impl Shared {
    /// The open database, or UNAVAILABLE while it is being opened again.
    pub fn engine(&self) -> Result<Arc<Engine>, StoreError> {
        self.engine
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or_else(|| io("the store is being opened again after a failure"))
    }

    fn set_writable(&self, ok: bool) {
        self.writable
            .send_if_modified(|w| std::mem::replace(w, ok) != ok);
    }

    /// Opens the database anew: the old one dropped first (sled holds a lock on its
    /// files), then opened and compared with the manifest, as on start.
    fn reopen(&self) -> Result<(), StoreError> {
        let old = self
            .engine
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        drop(old);
        // A flush of the old database may still hold it for a moment: try a few times.
        // (Reads meanwhile answer UNAVAILABLE rather than wait.)
        let mut last = None;
        for _ in 0..50 {
            match Engine::open(&self.dir) {
                Ok(engine) => {
                    *self.engine.write().unwrap_or_else(|e| e.into_inner()) =
                        Some(Arc::new(engine));
                    return Ok(());
                }
                Err(e) => last = Some(e),
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(last.unwrap_or_else(|| io("the store did not open")))
    }

    /// Whether the disk has room: a probe file written, synced and removed.
    fn has_room(&self) -> bool {
        let probe = self.dir.join("space-probe");
        let written = File::create(&probe)
            .and_then(|mut f| {
                f.write_all(&vec![0u8; PROBE_BYTES])?;
                f.sync_all()
            })
            .is_ok();
        let _ = std::fs::remove_file(&probe);
        written
    }
}

/// The committer thread's state: every stream's length as far as the committer has
/// written it (read from the tree the first time a stream is seen), and the way to the
/// flusher.
pub(super) struct Committer {
    pub shared: Arc<Shared>,
    pub lengths: HashMap<String, u64>,
    pub flusher: std::sync::mpsc::Sender<Batch>,
    pub last_try: Option<Instant>,
}

/// Appends written to one database, waiting for its flush.
pub(super) type Batch = (Arc<Engine>, Vec<Written>);

/// An append written to the tree, waiting for a flush: whom to answer, the stream's
/// new length, and the stream with what it now holds, for the manifest.
type Written = (
    oneshot::Sender<Result<u64, StoreError>>,
    u64,
    (String, Known),
);

/// The flusher thread's state.
pub(super) struct Flusher {
    pub shared: Arc<Shared>,
    pub data_file: PathBuf,
}

impl Committer {
    /// Until every handle of the store is dropped: take the waiting appends, write the
    /// acceptable ones in one batch, hand them to the flusher. While the store cannot
    /// write, look for room once a second and open the database again when there is.
    pub fn run(mut self, mut waiting: mpsc::UnboundedReceiver<Append>) {
        loop {
            let first = if *self.shared.writable.borrow() {
                match waiting.blocking_recv() {
                    Some(first) => first,
                    None => return,
                }
            } else {
                self.recover();
                match waiting.try_recv() {
                    Ok(first) => first,
                    Err(mpsc::error::TryRecvError::Empty) => {
                        std::thread::sleep(Duration::from_millis(50));
                        continue;
                    }
                    Err(mpsc::error::TryRecvError::Disconnected) => return,
                }
            };
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

    /// At most once per [`RETRY`]: if the disk has room, open the database anew.
    fn recover(&mut self) {
        if self.last_try.is_some_and(|at| at.elapsed() < RETRY) {
            return;
        }
        self.last_try = Some(Instant::now());
        if !self.shared.has_room() {
            return;
        }
        match self.shared.reopen() {
            Ok(()) => {
                // Lengths are read again: what the failed batches wrote may be gone.
                self.lengths.clear();
                tracing::info!(store = %self.shared.dir.display(), "the store opened again after a failure: writing");
                self.shared.set_writable(true);
            }
            Err(e) => {
                tracing::error!(store = %self.shared.dir.display(), error = %e, "the store could not be opened again; retrying");
            }
        }
    }

    fn commit(&mut self, appends: Vec<Append>) {
        if !*self.shared.writable.borrow() {
            // Nothing is written, nor compared with lengths a failed batch left in the
            // tree, until the database is opened again.
            for a in appends {
                let _ = a.done.send(Err(io(
                    "the store cannot write (the disk is full, or failed): retry later",
                )));
            }
            return;
        }
        let engine = match self.shared.engine() {
            Ok(engine) => engine,
            Err(e) => {
                for a in appends {
                    let _ = a.done.send(Err(StoreError::Io(e.to_string())));
                }
                return;
            }
        };
        let mut batch = sled::Batch::default();
        let mut accepted = Vec::with_capacity(appends.len());
        for a in appends {
            if let Some(why) = engine.lost.get(&a.stream) {
                let _ = a.done.send(Err(StoreError::Lost(why.clone())));
                continue;
            }
            let actual = match self.length(&engine, &a.stream) {
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
        match engine.records.apply_batch(batch) {
            Ok(()) => {
                // Written: the tree now holds these lengths, durable or not, so the cache
                // stays right even if the flush fails.
                if let Err(std::sync::mpsc::SendError((_, written))) =
                    self.flusher.send((engine, accepted))
                {
                    for (done, _, _) in written {
                        let _ = done.send(Err(io("the store's flusher has stopped")));
                    }
                }
            }
            Err(e) => {
                self.shared.set_writable(false);
                // What was written (if anything) is read back from the tree next time.
                for (done, _, (stream, _)) in accepted {
                    self.lengths.remove(&stream);
                    let _ = done.send(Err(io(&e)));
                }
            }
        }
    }

    /// A stream's length: the cache, or the tree the first time.
    fn length(&mut self, engine: &Engine, stream: &str) -> Result<u64, StoreError> {
        if let Some(n) = self.lengths.get(stream) {
            return Ok(*n);
        }
        let n = stored_len(&engine.records, stream)?;
        self.lengths.insert(stream.to_string(), n);
        Ok(n)
    }
}

impl Flusher {
    /// Until the committer stops: take every written batch waiting, flush each database
    /// once (nearly always one), answer.
    pub fn run(self, written: std::sync::mpsc::Receiver<Batch>) {
        while let Ok(first) = written.recv() {
            let mut batches = vec![first];
            while let Ok(more) = written.try_recv() {
                match batches.last_mut() {
                    Some((engine, waiting)) if Arc::ptr_eq(engine, &more.0) => {
                        waiting.extend(more.1)
                    }
                    _ => batches.push(more),
                }
            }
            for (engine, waiting) in batches {
                self.flush_and_answer(&engine, waiting);
            }
        }
    }

    fn flush_and_answer(&self, engine: &Engine, waiting: Vec<Written>) {
        let started = std::time::Instant::now();
        let result = self.flush(engine);
        if result.is_ok() {
            crate::metrics::flushed(waiting.len(), started.elapsed().as_secs_f64());
        }
        if result.is_ok() {
            note(engine, &waiting);
        }
        self.shared.set_writable(result.is_ok());
        for (done, new_len, _) in waiting {
            let _ = done.send(result.clone().map(|()| new_len).map_err(StoreError::Io));
        }
    }

    /// sled's flush, then `fsync` on its data file.
    fn flush(&self, engine: &Engine) -> Result<(), String> {
        engine.db.flush().map_err(|e| e.to_string())?;
        File::open(&self.data_file)
            .and_then(|f| f.sync_all())
            .map_err(|e| e.to_string())?;
        self.shared.flushes.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// Appends what the streams now durably hold to the manifest. If that fails the records
/// are durable all the same (the manifest lags, which only narrows what the next start
/// can check), so the appends are still acknowledged — loudly.
fn note(engine: &Engine, written: &[Written]) {
    let streams = written
        .iter()
        .filter(|(_, _, (_, k))| !k.head.is_empty())
        .map(|(_, _, (s, k))| (s.as_str(), k));
    let mut manifest = engine.manifest.lock().unwrap_or_else(|e| e.into_inner());
    if let Err(e) = manifest.record(streams) {
        tracing::error!(manifest = %manifest.path().display(), error = %e, "the manifest could not be written");
    }
}
