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
//! dropped and the next use connects anew.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_postgres::NoTls;

use super::pg_commit;
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
    /// Dropped with the store: its runtime's thread then ends, and the runtime with it.
    _stop: oneshot::Sender<()>,
}

/// A connection string's settings, with the defaults this store needs.
fn pg_config(url: &str) -> Result<tokio_postgres::Config, StoreError> {
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| io(format!("the store URL does not parse: {e}")))?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    // A primary that vanished without a FIN is noticed by keepalives, not a hung read.
    config.keepalives_idle(Duration::from_secs(5));
    config.keepalives_interval(Duration::from_secs(1));
    config.keepalives_retries(3);
    if config.get_application_name().is_none() {
        config.application_name("baffled");
    }
    Ok(config)
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
        let config = pg_config(url)?;
        let (runtime, stop) = start_runtime()?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                // A connection that broke is found out by its next use and dropped.
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(POOL_WAIT))
            .create_timeout(Some(POOL_WAIT))
            .build()
            .map_err(io)?;
        let setup = pool.clone();
        runtime
            .spawn(async move { pg_commit::create_schema(&setup).await })
            .await
            .map_err(io)??;
        let (commit, waiting) = mpsc::unbounded_channel();
        let writable = watch::channel(true).0;
        runtime.spawn(pg_commit::run(pool.clone(), waiting, writable.clone()));
        Ok(PgStore {
            inner: Arc::new(Inner {
                runtime,
                pool,
                commit,
                writable,
                _stop: stop,
            }),
        })
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
                Ok(client) => query(client).await.map_err(io),
                Err(e) => Err(io(e)),
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
