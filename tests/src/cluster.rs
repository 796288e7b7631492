//! Nodes of a cluster in this process (`docs/cluster.md`): each a real server on a free
//! loopback port, on one PostgreSQL database, with its own leases and change feed — and
//! a clock of its own or shared. A node can be killed (its leases and feed stop, its
//! connections close; its match actors live on, as a partitioned process would, and are
//! fenced).

use std::sync::Arc;
use std::time::Duration;

use baffle_server::cluster::Node;
use baffle_server::hub::Hub;
use baffle_server::store::{EventStore, Fence, PgStore};
use baffle_server::time::ManualTime;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::Request;
use tonic::transport::{Channel, Endpoint};

use crate::pg::PgCluster;
use crate::{EPOCH, with_token};

/// A database and two nodes on it, `n1` and `n2`, sharing one clock and token.
pub struct Two {
    /// Node 1.
    pub n1: TestNode,
    /// Node 2.
    pub n2: TestNode,
    /// The database (dropped last).
    pub db: PgCluster,
}

/// Two nodes with leases of `lease` on a new database `name` (no standby).
pub async fn two_nodes(name: &str, lease: Duration) -> Two {
    let db = PgCluster::start(false);
    let url = db.database(name);
    let dir = Arc::new(tempfile::tempdir().expect("temp dir"));
    let time = ManualTime::new(EPOCH);
    let n1 = TestNode::start(&url, &dir, time.clone(), "n1", lease).await;
    let n2 = TestNode::start(&url, &dir, time, "n2", lease).await;
    Two { n1, n2, db }
}

/// Three stores of nodes `a`, `b` and `c` on the database at `url` (no server, no lease
/// task: the test renews and claims by hand), `a` holding new matches `m/0` … `m/{n-1}`,
/// and each having said once that it is alive.
pub async fn three_stores(url: &str, lease: Duration, n: usize) -> [PgStore; 3] {
    let node = |name: &str| {
        let fence = Fence::new(name.into(), format!("http://{name}"), lease);
        PgStore::connect_node(url, fence)
    };
    let (a, b, c) = (
        node("a").await.expect("a"),
        node("b").await.expect("b"),
        node("c").await.expect("c"),
    );
    for i in 0..n {
        a.lease_new(&format!("m/{i}")).await.expect("a lease");
    }
    for s in [&a, &b, &c] {
        s.renew_leases().await.expect("a renewal");
    }
    [a, b, c]
}

/// Polls `check` (every 10 ms, for at most 10 s) until it gives a value: for what
/// crosses nodes (a notification, a lease running out on the database's clock).
pub async fn eventually<R, F: std::future::Future<Output = Option<R>>>(
    what: &str,
    mut check: impl FnMut() -> F,
) -> R {
    let start = std::time::Instant::now();
    loop {
        if let Some(r) = check().await {
            return r;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "never: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// One node.
pub struct TestNode {
    /// Its id.
    pub name: String,
    /// Its URL, as it advertises it.
    pub url: String,
    /// The director token (shared by every node: one token file).
    pub token: String,
    /// Its clock.
    pub time: ManualTime,
    /// Its hub.
    pub hub: Arc<Hub<PgStore, ManualTime>>,
    node: Option<Node>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), baffle_server::ServeError>>>,
}

impl TestNode {
    /// Starts node `name` on the database at `url`, its token in `dir`, with `lease`,
    /// never handing a match over (`--rebalance false`): a match stays with the node that
    /// created or claimed it, as the tests of takeovers need.
    pub async fn start(
        db: &str,
        dir: &Arc<tempfile::TempDir>,
        time: ManualTime,
        name: &str,
        lease: Duration,
    ) -> TestNode {
        TestNode::start_with(db, dir, time, name, lease, false).await
    }

    /// [`TestNode::start`], rebalancing as `baffled` does by default (`rebalance`).
    pub async fn start_with(
        db: &str,
        dir: &Arc<tempfile::TempDir>,
        time: ManualTime,
        name: &str,
        lease: Duration,
        rebalance: bool,
    ) -> TestNode {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let fence = Fence::new(name.into(), url.clone(), lease).rebalancing(rebalance);
        let store = PgStore::connect_node(db, fence).await.expect("the store");
        let keys = baffle_server::keys::ServerKeys::load_or_create(
            &baffle_server::keys::KeyPaths::in_dir(dir.path()),
        )
        .expect("keys");
        let token = keys.director_token.clone();
        let hub = Hub::open(store, time.clone(), keys)
            .await
            .expect("hub opens");
        let node = Node::start(hub.clone()).await.expect("the node starts");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(baffle_server::serve(hub.clone(), listener, async {
            let _ = stopped.await;
        }));
        TestNode {
            name: name.into(),
            url,
            token,
            time,
            hub,
            node: Some(node),
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// A channel to the node.
    pub async fn channel(&self) -> Channel {
        Endpoint::from_shared(self.url.clone())
            .expect("url")
            .connect()
            .await
            .expect("connect")
    }

    /// `message` as a request carrying the director token.
    pub fn director<T>(&self, message: T) -> Request<T> {
        with_token(message, &self.token)
    }

    /// Kills the node as far as the others can tell: it renews and claims no lease, hears
    /// no change, and serves no connection. Its match actors stay (a stale process).
    pub fn kill(&mut self) {
        drop(self.node.take());
        drop(self.stop.take());
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

impl Drop for TestNode {
    fn drop(&mut self) {
        self.kill();
        self.hub.close();
    }
}
