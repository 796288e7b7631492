//! Several `baffled` nodes on one PostgreSQL, as processes (issue 22, `docs/cluster.md`): a primary
//! with its synchronous standby ([`PgCluster`]) and N real `baffled` processes on
//! loopback, all in one temporary directory, stopped when the cluster is dropped.
//!
//! The nodes are the programs a venue runs, started with the flags `docs/cluster.md`
//! gives (`--store`, `--node-id`, `--advertise`, `--lease-ms`, one token file for all),
//! and killed with SIGKILL or frozen with SIGSTOP: what is tested is what an operator
//! gets. Each node's output
//! goes to `<dir>/<node>.log`, kept across restarts, for a failing test to show.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::pg::{self, PgCluster};

/// The director token every node is given (one token file: every node serving one
/// database must have the same, as it must the seal key and the signing key below).
pub const TOKEN: &str = "cluster-test-director-token-2b7e151628aed2a6abf71588";

/// The secrets every node is given, each one file for all (`docs/cluster.md`): the
/// token, the seal key of the server seeds and the key that signs heads. A node with
/// keys of its own would be refused by the cluster at start.
const SECRETS: [(&str, &str); 3] = [
    ("director.token", TOKEN),
    (
        "seal.key",
        "5ea15ea15ea15ea15ea15ea15ea15ea15ea15ea15ea15ea15ea15ea15ea15ea1",
    ),
    (
        "signing.key",
        "5167e05167e05167e05167e05167e05167e05167e05167e05167e05167e05167",
    ),
];

/// One `baffled` process.
struct Node {
    name: String,
    port: u16,
    child: Option<Child>,
}

/// A database with its standby and the nodes on it. `D` is what runs the database: a
/// [`PgCluster`] here, or a Patroni stack (`crate::patroni`), kept as long as the nodes.
pub struct ProcessCluster<D = PgCluster> {
    /// The PostgreSQL primary and standby.
    pub pg: D,
    /// What every node is given as `--store`.
    pub store: String,
    dir: tempfile::TempDir,
    bin: PathBuf,
    nodes: Vec<Node>,
    lease_ms: u64,
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address").port()
}

impl ProcessCluster {
    /// Starts a primary with a synchronous standby and `nodes` nodes named `n1`, `n2`, …
    /// with leases of `lease_ms`; returns when every node answers its health check.
    /// `None` where PostgreSQL is not installed (and not required: [`pg::available`]).
    pub async fn start(nodes: usize, lease_ms: u64) -> Option<ProcessCluster> {
        if !pg::available() {
            return None;
        }
        let pg = tokio::task::block_in_place(|| PgCluster::start(true));
        let store = tokio::task::block_in_place(|| pg.database("room"));
        Some(ProcessCluster::start_on(pg, store, nodes, lease_ms).await)
    }
}

impl<D> ProcessCluster<D> {
    /// Starts `nodes` nodes on the database `pg` runs, each given `store` as its
    /// `--store`; returns when every node answers its health check.
    pub async fn start_on(pg: D, store: String, nodes: usize, lease_ms: u64) -> Self {
        let bin = crate::binaries::built(&["baffled"]);
        let dir = tempfile::Builder::new()
            .prefix("baffle-cluster")
            .tempdir()
            .expect("a temporary directory");
        for (file, secret) in SECRETS {
            std::fs::write(dir.path().join(file), format!("{secret}\n")).expect("a key file");
        }
        let mut cluster = ProcessCluster {
            pg,
            store,
            dir,
            bin,
            nodes: (1..=nodes)
                .map(|i| Node {
                    name: format!("n{i}"),
                    port: free_port(),
                    child: None,
                })
                .collect(),
            lease_ms,
        };
        for i in 0..nodes {
            cluster.spawn(i);
        }
        for i in 0..nodes {
            cluster.wait_serving(i).await;
        }
        cluster
    }

    fn spawn(&mut self, i: usize) {
        let node = &self.nodes[i];
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.path().join(format!("{}.log", node.name)))
            .expect("the node's log");
        let addr = format!("127.0.0.1:{}", node.port);
        let child = Command::new(self.bin.join("baffled"))
            .args(["--addr", &addr, "--store", &self.store])
            .args(["--node-id", &node.name])
            .args(["--advertise", &format!("http://{addr}")])
            .args(["--lease-ms", &self.lease_ms.to_string()])
            .arg("--token-file")
            .arg(self.dir.path().join("director.token"))
            .arg("--seal-key-file")
            .arg(self.dir.path().join("seal.key"))
            .arg("--signing-key-file")
            .arg(self.dir.path().join("signing.key"))
            .arg("--data-dir")
            .arg(self.dir.path().join(&node.name))
            .args(["--log", "info", "--log-format", "text"])
            .env("NO_COLOR", "1")
            .stdout(Stdio::from(log.try_clone().expect("the log again")))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("baffled starts");
        self.nodes[i].child = Some(child);
    }

    /// Waits until node `i` answers SERVING (panics after 30 s, showing its log).
    pub async fn wait_serving(&self, i: usize) {
        let started = Instant::now();
        loop {
            if let Ok(channel) = self.endpoint(i).connect().await {
                let answer = HealthClient::new(channel)
                    .check(HealthCheckRequest::default())
                    .await;
                if answer.is_ok_and(|a| a.into_inner().status == ServingStatus::Serving as i32) {
                    return;
                }
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "node {} did not come up:\n{}",
                self.name(i),
                self.log(i)
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn endpoint(&self, i: usize) -> Endpoint {
        Endpoint::from_shared(self.url(i))
            .expect("a URL")
            .connect_timeout(Duration::from_secs(2))
    }

    /// A channel to node `i` that connects when first used (and again after a restart).
    pub fn channel(&self, i: usize) -> Channel {
        self.endpoint(i).connect_lazy()
    }

    /// How many nodes there are (running or not).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the cluster has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Node `i`'s name (`--node-id`).
    pub fn name(&self, i: usize) -> &str {
        &self.nodes[i].name
    }

    /// Node `i`'s address, as it advertises it.
    pub fn url(&self, i: usize) -> String {
        format!("http://127.0.0.1:{}", self.nodes[i].port)
    }

    /// The node advertising `url`, if one does.
    pub fn index_of(&self, url: &str) -> Option<usize> {
        let url = url.trim_end_matches('/');
        (0..self.len()).find(|i| self.url(*i) == url)
    }

    /// The lease every node was given.
    pub fn lease(&self) -> Duration {
        Duration::from_millis(self.lease_ms)
    }

    /// Kills node `i` with SIGKILL, as a power cut would, and reaps it.
    pub fn kill(&mut self, i: usize) {
        if let Some(mut child) = self.nodes[i].child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Sends node `i` `signal` at once (a system call, no `kill` process); false if it is
    /// not running.
    fn signal(&self, i: usize, signal: rustix::process::Signal) -> bool {
        let Some(child) = &self.nodes[i].child else {
            return false;
        };
        let pid = rustix::process::Pid::from_child(child);
        rustix::process::kill_process(pid, signal).is_ok()
    }

    /// Freezes node `i` with SIGSTOP, as a hung host or a debugger would: its sockets
    /// stay open and its database sessions stay as they are, but it answers nothing,
    /// renews nothing and commits nothing until [`ProcessCluster::resume`].
    pub fn pause(&self, i: usize) -> bool {
        self.signal(i, rustix::process::Signal::STOP)
    }

    /// Lets node `i` go on after [`ProcessCluster::pause`] (SIGCONT).
    pub fn resume(&self, i: usize) -> bool {
        self.signal(i, rustix::process::Signal::CONT)
    }

    /// Stops node `i` with SIGTERM, as an operator or systemd would, and waits for it to
    /// exit; returns whether it exited cleanly.
    pub fn terminate(&mut self, i: usize) -> bool {
        let Some(mut child) = self.nodes[i].child.take() else {
            return false;
        };
        let sent = std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        sent && child.wait().is_ok_and(|exit| exit.success())
    }

    /// Whether node `i` is running (not killed, not exited).
    pub fn running(&mut self, i: usize) -> bool {
        self.nodes[i]
            .child
            .as_mut()
            .is_some_and(|c| c.try_wait().is_ok_and(|exit| exit.is_none()))
    }

    /// Starts node `i` again, with the same name, address and flags; returns when it
    /// answers SERVING.
    pub async fn restart(&mut self, i: usize) {
        self.kill(i);
        self.spawn(i);
        self.wait_serving(i).await;
    }

    /// Node `i`'s output so far (for a failing test).
    pub fn log(&self, i: usize) -> String {
        let path = self.dir.path().join(format!("{}.log", self.nodes[i].name));
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(60).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    }

    /// Where the nodes' logs and data directories are.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl<D> Drop for ProcessCluster<D> {
    fn drop(&mut self) {
        for i in 0..self.nodes.len() {
            self.kill(i);
        }
    }
}
