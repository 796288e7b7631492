//! # baffle-tests: end-to-end tests
//!
//! Helpers to run a real `baffled` in-process on a free loopback port, with its own data
//! directory and a hand-turned clock; the tests themselves are in `tests/tests/`.

pub mod api;
pub mod binaries;
pub mod campaign;
pub mod cli;
pub mod cluster;
pub mod draws;
pub mod patroni;
pub mod pg;
pub mod pg_tls;
pub mod process_cluster;
pub mod room;
pub mod seeded;
pub mod seeds;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use baffle_core::Timestamp;
use baffle_server::hub::Hub;
use baffle_server::keys::{KeyPaths, ServerKeys};
use baffle_server::store::{MemoryStore, SledStore};
use baffle_server::time::{ManualTime, TokioTime};
use tokio::io::DuplexStream;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tonic::Request;
use tonic::transport::{Channel, Endpoint};

/// Where test clocks start: 2026-01-15 00:00 UTC.
pub const EPOCH: Timestamp = Timestamp(1_768_435_200_000);

/// A server running in this process.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The director token.
    pub token: String,
    /// The server's URL (`http://127.0.0.1:PORT`).
    pub addr_url: String,
    /// The clock it runs on.
    pub time: ManualTime,
    /// Its data directory.
    pub dir: Arc<tempfile::TempDir>,
    /// Its bounds on anonymous streams (tests change them).
    pub followers: Arc<baffle_server::followers::Followers>,
    stop: oneshot::Sender<()>,
    task: JoinHandle<Result<(), baffle_server::ServeError>>,
}

/// Opens the store, waiting for a previous server in this process to let go of it.
async fn open_store(dir: &Path) -> SledStore {
    for _ in 0..20_000 {
        if let Ok(store) = SledStore::open(dir) {
            return store;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    panic!("the store at {} stays locked", dir.display());
}

impl TestServer {
    /// Starts a server with a fresh data directory, its clock at [`EPOCH`].
    pub async fn start() -> TestServer {
        let dir = Arc::new(tempfile::tempdir().expect("temp dir"));
        TestServer::start_in(dir, ManualTime::new(EPOCH)).await
    }

    /// Starts a server on an existing data directory and clock (a restart).
    pub async fn start_in(dir: Arc<tempfile::TempDir>, time: ManualTime) -> TestServer {
        TestServer::start_at(dir, time, "127.0.0.1:0".parse().expect("address")).await
    }

    /// Starts a server on an existing data directory and clock, listening at `addr` (a
    /// restart at the same address, as clients that reconnect expect).
    pub async fn start_at(
        dir: Arc<tempfile::TempDir>,
        time: ManualTime,
        addr: SocketAddr,
    ) -> TestServer {
        let store = open_store(&dir.path().join("store")).await;
        TestServer::start_on(store, dir, time, addr).await
    }

    /// Starts a server on the PostgreSQL store at `url` (`pg::PgCluster::database`), with
    /// its token in `dir` — so a second server given the same `dir` and `url` is another
    /// node of one cluster, or a restart.
    pub async fn start_on_postgres(
        url: &str,
        dir: Arc<tempfile::TempDir>,
        time: ManualTime,
    ) -> TestServer {
        let store = baffle_server::store::PgStore::connect(url)
            .await
            .expect("the PostgreSQL store");
        let addr = "127.0.0.1:0".parse().expect("address");
        TestServer::start_on(store, dir, time, addr).await
    }

    /// Starts a server on `store`, with its token in `dir`, listening at `addr`.
    pub async fn start_on<S: baffle_server::store::EventStore + Clone>(
        store: S,
        dir: Arc<tempfile::TempDir>,
        time: ManualTime,
        addr: SocketAddr,
    ) -> TestServer {
        let keys = ServerKeys::load_or_create(&KeyPaths::in_dir(dir.path())).expect("keys");
        let token = keys.director_token.clone();
        let hub = Hub::open(store, time.clone(), keys)
            .await
            .expect("hub opens");
        let listener = TcpListener::bind(addr).await.expect("bind loopback");
        let addr = listener.local_addr().expect("local address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(baffle_server::serve(hub.clone(), listener, async {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            addr_url: format!("http://{addr}"),
            token,
            time,
            dir,
            followers: hub.followers.clone(),
            stop,
            task,
        }
    }

    /// The server's URL, as `baffle --server` takes it.
    pub fn url(&self) -> String {
        self.addr_url.clone()
    }

    /// A channel to the server.
    pub async fn channel(&self) -> Channel {
        Endpoint::from_shared(self.url())
            .expect("url")
            .connect()
            .await
            .expect("connect")
    }

    /// `message` as a request carrying the director token.
    pub fn director<T>(&self, message: T) -> Request<T> {
        with_token(message, &self.token)
    }

    /// The data directory's path.
    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    /// Stops the server and waits until it has; returns its data directory and clock for a restart.
    pub async fn stop(self) -> (Arc<tempfile::TempDir>, ManualTime) {
        let _ = self.stop.send(());
        self.task
            .await
            .expect("server task")
            .expect("server ran cleanly");
        (self.dir, self.time)
    }
}

/// A server on virtual time: an in-memory store, tokio's clock reading [`EPOCH`] at the
/// start, and in-memory pipes for connections. On a paused runtime
/// (`#[tokio::test(start_paused = true)]`) the server's timers, simulated devices, links
/// and think times all share that virtual clock, so a simulated hour runs in a moment.
/// Nothing may happen outside the runtime's sight — a disk flush on another thread, a
/// TCP handshake in the kernel — or the paused clock would jump to the next timer while
/// the runtime waits for it; hence the memory store and the pipes.
pub struct SimServer {
    /// The director token.
    pub token: String,
    /// The clock it runs on.
    pub time: TokioTime,
    connect: mpsc::UnboundedSender<Result<DuplexStream, std::io::Error>>,
    _dir: tempfile::TempDir,
    stop: oneshot::Sender<()>,
    task: JoinHandle<Result<(), baffle_server::ServeError>>,
}

impl SimServer {
    /// Starts a server on virtual time.
    pub async fn start() -> SimServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let keys = ServerKeys::load_or_create(&KeyPaths::in_dir(dir.path())).expect("keys");
        let token = keys.director_token.clone();
        let time = TokioTime::starting_at(EPOCH);
        let hub = Hub::open(MemoryStore::new(), time, keys)
            .await
            .expect("hub opens");
        let (connect, incoming) = mpsc::unbounded_channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(baffle_server::serve_incoming(
            hub,
            UnboundedReceiverStream::new(incoming),
            async {
                let _ = stopped.await;
            },
        ));
        SimServer {
            token,
            time,
            connect,
            _dir: dir,
            stop,
            task,
        }
    }

    /// A channel to the server over a new in-memory connection (made when first used, and
    /// made again if it breaks).
    pub fn channel(&self) -> Channel {
        let connect = self.connect.clone();
        Endpoint::from_static("http://sim.invalid").connect_with_connector_lazy(tower::service_fn(
            move |_| {
                let (client, server) = tokio::io::duplex(64 * 1024);
                let sent = connect.send(Ok(server));
                async move {
                    sent.map_err(|_| std::io::Error::other("the server has stopped"))?;
                    Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(client))
                }
            },
        ))
    }

    /// Stops the server.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.task
            .await
            .expect("server task")
            .expect("server ran cleanly");
    }
}

/// `message` as a request with `authorization: Bearer <token>`.
pub fn with_token<T>(message: T, token: &str) -> Request<T> {
    let mut r = Request::new(message);
    r.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("ascii token"),
    );
    r
}
