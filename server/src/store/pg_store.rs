//! The event store on PostgreSQL, for several `baffled` nodes on one replicated database
//! (`docs/cluster.md`). Selected with `baffled --store postgres://…`; the embedded
//! [`SledStore`](super::SledStore) stays the default.
//!
//! Three tables (`pg_commit.rs` creates them, idempotently, under an advisory lock so
//! that nodes starting together do not race): `baffle_streams` (each stream's length:
//! the row an append locks, so it is the *expected-sequence check* — the fencing token
//! — of every writer on every node), `baffle_records` (stream, position, body) and
//! `baffle_receipts` (stream, request id, reply). Appends go through the committer
//! (`pg_commit.rs`): the waiting appends of every match in **one transaction**,
//! acknowledged only after COMMIT returned — that is, after the synchronous standbys
//! the server is configured with have the commit too.
//!
//! The database is reached through a pool (deadpool-postgres on tokio-postgres) that
//! runs on a small runtime of its own, on its own threads. The [`EventStore`] trait
//! reads synchronously (the sled store reads its memory-mapped tree in place); here a
//! read is a query, handed to that runtime and waited for — with
//! `block_in_place` on a multi-threaded runtime, so other tasks keep running — and never
//! a deadlock on a single-threaded one, since the query does not need the caller's
//! runtime. A multi-host connection string with `target_session_attrs=read-write`
//! finds the primary again after a standby was promoted: a failed connection is
//! dropped and the next use connects anew. With `sslmode=verify-full&sslrootcert=FILE`
//! every connection is TLS, the server checked against that CA and its host name
//! (`pg_tls.rs`).
//!
//! A store opened for a node of a cluster ([`PgStore::connect_node`]) also holds the
//! node's leases and fences every append to a match by them (`pg_lease.rs`), and gives
//! the change feed ([`PgStore::changes`], `pg_listen.rs`).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_postgres::NoTls;

use super::pg_commit::{self, Freeze};
use super::pg_lease::{self, Fence};
use super::pg_listen::{self, Change};
use super::pg_tls::{self, Tls};
use super::queue::{self, Append, io};
use super::{EventStore, Receipt, StoreError};

/// How long a connection attempt to one host may take when the URL says nothing.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a caller waits for a pooled connection before it gives up.
const POOL_WAIT: Duration = Duration::from_secs(10);
/// Connections kept: the committer's, and readers (recoveries, followers' backlogs).
const POOL_SIZE: usize = 8;

/// PostgreSQL-backed [`EventStore`]. Cheap to clone; clones share the pool and committer.
#[derive(Clone)]
pub struct PgStore {
    inner: Arc<Inner>,
}

struct Inner {
    /// The store's own runtime, where the pool's connections and the committer live.
    runtime: tokio::runtime::Handle,
    pool: Pool,
    commit: mpsc::UnboundedSender<Append>,
    writable: watch::Sender<bool>,
    /// The connection settings (for the change feed's own connection).
    config: tokio_postgres::Config,
    /// Plain TCP or TLS, for the change feed's own connection too.
    tls: Tls,
    /// On a node of a cluster: who it is and which leases it holds.
    fence: Option<Arc<Fence>>,
    /// The committer's hold, for tests of a node frozen mid-commit.
    freeze: Arc<Freeze>,
    /// Dropped with the store: its runtime's thread then ends, and the runtime with it.
    _stop: oneshot::Sender<()>,
}

/// The limits a node of a cluster sets on each of its own sessions, so that no session
/// of a node — least of all one frozen with its process — holds a match's rows for
/// long, and no wait outlasts a renewal:
///
/// - `idle_in_transaction_session_timeout`, a quarter lease: a node paused in the middle
///   of a commit (its session idle in the transaction, the lease and length rows locked)
///   has its session ended by the database a quarter lease after its last statement,
///   and the rows go. Its lease ran at least three quarters of a lease past that freeze
///   (a renewal comes every quarter lease), so the rows are free before the lease can be
///   claimed: the match is taken over as a dead node's is, a lease and a tick after its
///   last renewal. The committer never idles inside a transaction otherwise.
/// - `lock_timeout`, a quarter lease: a statement waiting for a lock gives up; a commit's
///   transaction fails alone (`pg_commit.rs`), a renewal is tried again at the next tick,
///   before the node's deadline (three quarters of the lease).
/// - `statement_timeout`, the lease: a statement still running after a whole lease
///   cannot serve it any more. Not shorter: a statement that runs long without waiting
///   on a lock is slow because the database is (a new primary just promoted, a loaded
///   machine), and cutting it short only makes it run again. (It never cuts short a
///   COMMIT's wait for the synchronous standby: PostgreSQL does not time that wait out,
///   so nothing is acknowledged that the standby lacks.)
///
/// Each at least 1 ms (0 would mean no limit).
pub fn session_options(lease: Duration) -> String {
    let quarter = (lease / 4).as_millis().max(1);
    let whole = lease.as_millis().max(1);
    format!(
        "-c idle_in_transaction_session_timeout={quarter} -c lock_timeout={quarter} \
         -c statement_timeout={whole}"
    )
}

/// The `application_name` of a store's sessions when the URL names none: `baffled`, and
/// on a node of a cluster `baffled NODE`, so that an operator (or a test) reading
/// `pg_stat_activity` on the primary sees which node holds which session — a node frozen
/// in the middle of a commit shows as its name with the state `idle in transaction`.
/// (PostgreSQL keeps the first 63 bytes.)
pub fn application_name(node: Option<&str>) -> String {
    match node {
        Some(node) => format!("baffled {node}"),
        None => "baffled".to_string(),
    }
}

/// A connection string's settings, with the defaults this store needs, and whether it
/// speaks TLS; on a node (`fence`: its name and lease), its [`application_name`] and its
/// sessions' limits ([`session_options`]), placed after any `options` the URL sets so
/// that they win over the same settings there.
fn pg_config(
    url: &str,
    fence: Option<&Fence>,
) -> Result<(tokio_postgres::Config, Tls), StoreError> {
    let (mut config, tls) = pg_tls::settings(url).map_err(io)?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    // A primary that vanished without a FIN is noticed by keepalives, not a hung read.
    config.keepalives_idle(Duration::from_secs(5));
    config.keepalives_interval(Duration::from_secs(1));
    config.keepalives_retries(3);
    if config.get_application_name().is_none() {
        config.application_name(application_name(fence.map(|f| f.node.as_str())));
    }
    if let Some(lease) = fence.map(|f| f.lease) {
        let options = match config.get_options() {
            Some(theirs) if !theirs.trim().is_empty() => {
                format!("{theirs} {}", session_options(lease))
            }
            _ => session_options(lease),
        };
        config.options(options);
    }
    Ok((config, tls))
}

/// A database error in words with every cause under it (tokio-postgres says only "db
/// error" or "error performing TLS handshake" at the top; the server's message or the
/// certificate's fault is below).
fn with_causes(e: &dyn std::error::Error) -> StoreError {
    let (mut words, mut last) = (e.to_string(), e.to_string());
    let mut cause = e.source();
    while let Some(c) = cause {
        let said = c.to_string();
        if said != last {
            words.push_str(&format!(": {said}"));
        }
        last = said;
        cause = c.source();
    }
    io(words)
}

/// Starts the store's runtime on a thread of its own and returns its handle.
fn start_runtime() -> Result<(tokio::runtime::Handle, oneshot::Sender<()>), StoreError> {
    let (handle_tx, handle_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = oneshot::channel::<()>();
    std::thread::Builder::new()
        .name("pg-store".into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("pg-store")
                .enable_all()
                .build();
            match runtime {
                Ok(runtime) => {
                    let _ = handle_tx.send(Ok(runtime.handle().clone()));
                    runtime.block_on(async {
                        let _ = stopped.await;
                    });
                }
                Err(e) => {
                    let _ = handle_tx.send(Err(io(e)));
                }
            }
        })
        .map_err(io)?;
    let handle = handle_rx
        .recv()
        .map_err(|_| io("the store's runtime did not start"))??;
    Ok((handle, stop))
}

impl PgStore {
    /// Connects to the database at `url` (a `postgres://` URL or key=value string, with
    /// several hosts if need be), creates the schema if it is missing, and starts the
    /// committer. Fails if the database cannot be reached now.
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        PgStore::open(url, None).await
    }

    /// [`PgStore::connect`] for a node of a cluster: appends to a match are fenced by the
    /// leases `fence` holds (`docs/cluster.md`).
    pub async fn connect_node(url: &str, fence: Fence) -> Result<PgStore, StoreError> {
        PgStore::open(url, Some(Arc::new(fence))).await
    }

    async fn open(url: &str, fence: Option<Arc<Fence>>) -> Result<PgStore, StoreError> {
        let (config, tls) = pg_config(url, fence.as_deref())?;
        let (runtime, stop) = start_runtime()?;
        // A connection that broke is found out by its next use and dropped.
        let recycling = ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        };
        let manager = match &tls {
            Tls::Plain => Manager::from_config(config.clone(), NoTls, recycling),
            Tls::VerifyFull(connect) => {
                Manager::from_config(config.clone(), connect.clone(), recycling)
            }
        };
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(POOL_WAIT))
            .create_timeout(Some(POOL_WAIT))
            .build()
            .map_err(io)?;
        let setup = pool.clone();
        runtime
            .spawn(async move {
                // The first connection, its failure told with its causes: a refused
                // certificate or a server's refusal is in them, not in the outer words.
                drop(setup.get().await.map_err(|e| with_causes(&e))?);
                pg_commit::create_schema(&setup).await
            })
            .await
            .map_err(io)??;
        let (commit, waiting) = mpsc::unbounded_channel();
        let writable = watch::channel(true).0;
        let freeze = Arc::new(Freeze::default());
        runtime.spawn(pg_commit::run(
            pool.clone(),
            waiting,
            writable.clone(),
            fence.clone(),
            freeze.clone(),
        ));
        Ok(PgStore {
            inner: Arc::new(Inner {
                runtime,
                pool,
                commit,
                writable,
                config,
                tls,
                fence,
                freeze,
                _stop: stop,
            }),
        })
    }

    /// For tests: the committer's hold ([`Freeze`]), to stop a transaction just before
    /// its COMMIT as a node paused in the middle of a commit would.
    pub fn commits(&self) -> &Freeze {
        &self.inner.freeze
    }

    /// The node's leases, on a node of a cluster.
    pub fn fence(&self) -> Option<&Fence> {
        self.inner.fence.as_deref()
    }

    /// Runs `job` (with the pool and the node's fence) on the store's runtime.
    async fn on_runtime<R, Fut>(
        &self,
        job: impl FnOnce(Pool, Arc<Fence>) -> Fut,
    ) -> Result<R, StoreError>
    where
        R: Send + 'static,
        Fut: Future<Output = Result<R, StoreError>> + Send + 'static,
    {
        let fence = self
            .inner
            .fence
            .clone()
            .ok_or_else(|| io("this store is not a node's (no --node-id)"))?;
        self.inner
            .runtime
            .spawn(job(self.inner.pool.clone(), fence))
            .await
            .map_err(io)?
    }

    /// A node starting: it joins the cluster — refused ([`StoreError::Refused`]) if its
    /// director token, seal key or signing key is not the cluster's (`checks`), or
    /// another live node has its id — then `streams` (every registered match) get leases
    /// if they had none, and the leases this node held before a restart are let go, to
    /// be claimed anew.
    pub async fn start_leases(
        &self,
        streams: Vec<String>,
        checks: pg_lease::JoinChecks,
    ) -> Result<(), StoreError> {
        self.on_runtime(|pool, fence| async move {
            pg_lease::join(&pool, &fence, &checks).await?;
            pg_lease::start(&pool, &fence, &streams).await
        })
        .await
    }

    /// Renews every lease the node holds (and says it is alive); returns the streams lost.
    pub async fn renew_leases(&self) -> Result<Vec<String>, StoreError> {
        self.on_runtime(|pool, fence| async move { pg_lease::renew(&pool, &fence).await })
            .await
    }

    /// Claims expired leases, a fair share at most; returns each stream with its epoch
    /// and how long its previous holder had been silent (`pg_lease::Claimed`).
    pub async fn claim_leases(&self) -> Result<Vec<pg_lease::Claimed>, StoreError> {
        self.on_runtime(|pool, fence| async move { pg_lease::claim(&pool, &fence).await })
            .await
    }

    /// How long until the first lease another node holds runs out, by the database's
    /// clock (`pg_lease::next_end`).
    pub async fn next_lease_end(&self) -> Result<Option<Duration>, StoreError> {
        self.on_runtime(|pool, fence| async move { pg_lease::next_end(&pool, &fence).await })
            .await
    }

    /// How many matches each live node holds, fewest first (`pg_lease::loads`).
    pub async fn lease_loads(&self) -> Result<Vec<(String, u64)>, StoreError> {
        self.on_runtime(|pool, fence| async move { pg_lease::loads(&pool, &fence).await })
            .await
    }

    /// Hands the lease of `stream` over to node `to` (its actor stopped writing first):
    /// `Ok(true)` once it is `to`'s to claim, `Ok(false)` if it was no longer this
    /// node's; on an error the node holds it again (`pg_lease::hand_over`).
    pub async fn hand_over(&self, stream: &str, to: &str) -> Result<bool, StoreError> {
        let (stream, to) = (stream.to_string(), to.to_string());
        self.on_runtime(|pool, fence| async move {
            pg_lease::hand_over(&pool, &fence, &stream, &to).await
        })
        .await
    }

    /// Lets every lease of this node go (it is shutting down): nothing more is appended
    /// under them, and the other nodes claim them at once.
    pub async fn release_leases(&self) -> Result<(), StoreError> {
        self.on_runtime(|pool, fence| async move { pg_lease::release(&pool, &fence).await })
            .await
    }

    /// The change feed: a [`Change::Gap`] on every (re)connection of the listening
    /// connection, then each stream's growth as its commit is notified.
    pub fn changes(&self) -> mpsc::UnboundedReceiver<Change> {
        let (tx, rx) = mpsc::unbounded_channel();
        let config = self.inner.config.clone();
        let node = self.inner.fence.as_ref().map(|f| pg_listen::Node {
            node: f.node.clone(),
            advertise: f.advertise.clone(),
            lease_ms: pg_lease::ms(f.lease),
        });
        match &self.inner.tls {
            Tls::Plain => {
                let run = pg_listen::run(config, NoTls, node, tx);
                self.inner.runtime.spawn(run)
            }
            Tls::VerifyFull(connect) => {
                let run = pg_listen::run(config, connect.clone(), node, tx);
                self.inner.runtime.spawn(run)
            }
        };
        rx
    }

    /// Runs `query` with a pooled connection on the store's runtime and waits for it.
    fn block<T, F, Fut>(&self, query: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(deadpool_postgres::Object) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, tokio_postgres::Error>> + Send,
    {
        let pool = self.inner.pool.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        self.inner.runtime.spawn(async move {
            let result = match pool.get().await {
                Ok(client) => query(client).await.map_err(|e| with_causes(&e)),
                Err(e) => Err(with_causes(&e)),
            };
            let _ = tx.send(result);
        });
        let wait = move || {
            rx.recv()
                .unwrap_or_else(|_| Err(io("the store has stopped")))
        };
        match tokio::runtime::Handle::try_current() {
            Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(wait)
            }
            _ => wait(),
        }
    }
}

impl EventStore for PgStore {
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
        let (stream, key) = (stream.to_string(), key.to_string());
        self.block(move |c| async move {
            let q = c
                .prepare_cached(
                    "SELECT reply FROM baffle_receipts WHERE stream = $1 AND request = $2",
                )
                .await?;
            let row = c.query_opt(&q, &[&stream, &key]).await?;
            Ok(row.map(|r| r.get::<_, Vec<u8>>(0)))
        })
    }

    fn read(&self, stream: &str, from: u64, limit: usize) -> Result<Vec<Vec<u8>>, StoreError> {
        let stream = stream.to_string();
        let from = i64::try_from(from).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.block(move |c| async move {
            let q = c
                .prepare_cached(
                    "SELECT body FROM baffle_records WHERE stream = $1 AND position >= $2 \
                     ORDER BY position LIMIT $3",
                )
                .await?;
            let rows = c.query(&q, &[&stream, &from, &limit]).await?;
            Ok(rows.iter().map(|r| r.get::<_, Vec<u8>>(0)).collect())
        })
    }

    fn len(&self, stream: &str) -> Result<u64, StoreError> {
        let stream = stream.to_string();
        self.block(move |c| async move {
            let q = c
                .prepare_cached("SELECT len FROM baffle_streams WHERE stream = $1")
                .await?;
            let row = c.query_opt(&q, &[&stream]).await?;
            Ok(row.map_or(0, |r| r.get::<_, i64>(0) as u64))
        })
    }

    fn writable(&self) -> watch::Receiver<bool> {
        self.inner.writable.subscribe()
    }

    fn holds(&self, stream: &str) -> bool {
        match &self.inner.fence {
            Some(fence) => !pg_lease::leased(stream) || fence.holds(stream),
            None => true,
        }
    }

    fn lease_epoch(&self, stream: &str) -> Option<u64> {
        match &self.inner.fence {
            Some(fence) if pg_lease::leased(stream) => {
                fence.epoch(stream).and_then(|e| u64::try_from(e).ok())
            }
            _ => Some(0),
        }
    }

    fn held_epoch(&self, stream: &str) -> Option<u64> {
        match &self.inner.fence {
            Some(fence) if pg_lease::leased(stream) => {
                fence.held_epoch(stream).and_then(|e| u64::try_from(e).ok())
            }
            _ => Some(0),
        }
    }

    async fn lease_new(&self, stream: &str) -> Result<(), StoreError> {
        let stream = stream.to_string();
        if self.inner.fence.is_none() {
            return Ok(());
        }
        self.on_runtime(|pool, fence| async move { pg_lease::create(&pool, &fence, &stream).await })
            .await
    }

    fn node_id(&self) -> Option<&str> {
        self.inner.fence.as_ref().map(|f| f.node.as_str())
    }

    fn owner_of(&self, stream: &str) -> Option<(String, String)> {
        self.inner.fence.as_ref()?;
        let stream = stream.to_string();
        self.block(move |c| async move {
            let q = c.prepare_cached(pg_lease::OWNER).await?;
            let row = c.query_opt(&q, &[&stream]).await?;
            Ok(row.map(|r| (r.get::<_, String>(0), r.get::<_, String>(1))))
        })
        .ok()
        .flatten()
    }

    fn streams(&self) -> Result<Vec<String>, StoreError> {
        self.block(move |c| async move {
            // Byte order, as the other stores list them, whatever the database's locale.
            let q = c
                .prepare_cached(
                    "SELECT stream FROM baffle_streams WHERE len > 0 ORDER BY stream COLLATE \"C\"",
                )
                .await?;
            let rows = c.query(&q, &[]).await?;
            Ok(rows.iter().map(|r| r.get::<_, String>(0)).collect())
        })
    }
}
