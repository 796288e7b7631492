//! PostgreSQL 15 under Patroni with etcd, started by `scripts/pg-patroni` in a temporary
//! directory on free loopback ports, for the failover tests (`docs/cluster.md`,
//! "Automatic failover: Patroni"). Patroni's timings are the test's (ttl 5 s, loop_wait
//! 1 s, retry_timeout 2 s: the smallest that Patroni's etcd3 client takes, a deadline
//! left after a lease refresh must be a second), not production's (30, 10, 10).
//!
//! The faults are real signals to real processes: the primary's postmaster or its Patroni
//! agent is sent SIGKILL by its pid (`<dir>/pgN/postmaster.pid`, `<dir>/pgN.agent.pid`).
//! Who is primary is asked of Patroni's REST API (`GET /primary` answers 200 only on the
//! member holding the leader key, `GET /sync` only on the synchronous standby).
//! Everything is stopped (`scripts/pg-patroni stop`) when the stack is dropped.
//!
//! Where Patroni, etcd or PostgreSQL is missing the caller is told so and the test passes,
//! unless `BAFFLE_PG_TEST=required` — which `.ci/run` sets after installing them.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The programs the stack needs (Debian's postgresql-15, patroni, etcd-server).
const PROGRAMS: [&str; 3] = [
    "/usr/lib/postgresql/15/bin/initdb",
    "/usr/bin/patroni",
    "/usr/bin/etcd",
];

/// Patroni's timings for a test: seconds of ttl, loop_wait, retry_timeout.
pub const TIMINGS: (u32, u32, u32) = (5, 1, 2);

/// A running Patroni stack: etcd and its members `pg1`, `pg2`, …
pub struct PatroniStack {
    dir: tempfile::TempDir,
    script: PathBuf,
    members: usize,
    env: Vec<(String, String)>,
    /// What `baffled --store` is given: every member, the read-write one chosen.
    pub url: String,
}

/// Whether the stack can run here (if not, says so); required under
/// `BAFFLE_PG_TEST=required`.
pub fn available() -> bool {
    let missing: Vec<&str> = PROGRAMS
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    match missing.is_empty() {
        true => true,
        false if std::env::var("BAFFLE_PG_TEST").as_deref() == Ok("required") => panic!(
            "the Patroni tests are required, and {missing:?} are not installed \
             (apt-get install postgresql-15 patroni etcd-server)"
        ),
        false => {
            eprintln!("skipped, {missing:?} not installed: .ci/run installs them");
            false
        }
    }
}

/// The first of `n` free loopback ports, one after the other (the script numbers
/// members from a base).
fn free_run(n: u16) -> u16 {
    'search: for _ in 0..100 {
        let base = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
            l.local_addr().expect("its address").port()
        };
        if base > u16::MAX - n {
            continue;
        }
        for p in base..base + n {
            if std::net::TcpListener::bind(("127.0.0.1", p)).is_err() {
                continue 'search;
            }
        }
        return base;
    }
    panic!("no run of {n} free ports")
}

impl PatroniStack {
    /// Starts etcd and `members` members, and returns once one is primary and another
    /// its synchronous standby. `restart_sec`: how long an agent that died stays down
    /// before its supervisor starts it again (`RESTART_SEC`). Panics (the test fails) if
    /// the stack does not come up.
    pub fn start(members: usize, restart_sec: u32) -> PatroniStack {
        let dir = tempfile::Builder::new()
            .prefix("baffle-patroni")
            .tempdir()
            .expect("a temporary directory");
        let n = u16::try_from(members).expect("a few members");
        let (ttl, loop_wait, retry) = TIMINGS;
        // One run of free ports for all: PostgreSQL's, the REST APIs', etcd's two.
        let base = free_run(2 * n + 2);
        let env: Vec<(String, String)> = [
            ("MEMBERS", members.to_string()),
            ("PG_PORT", base.to_string()),
            ("REST_PORT", (base + n).to_string()),
            ("ETCD_PORT", (base + 2 * n).to_string()),
            ("TTL", ttl.to_string()),
            ("LOOP_WAIT", loop_wait.to_string()),
            ("RETRY_TIMEOUT", retry.to_string()),
            ("RESTART_SEC", restart_sec.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/pg-patroni");
        let mut stack = PatroniStack {
            dir,
            script,
            members,
            env,
            url: String::new(),
        };
        let out = stack.run("start");
        assert!(
            out.status.success(),
            "scripts/pg-patroni start failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            stack.logs()
        );
        stack.url = String::from_utf8_lossy(&out.stdout).trim().to_string();
        stack
    }

    fn run(&self, command: &str) -> std::process::Output {
        Command::new("bash")
            .arg(&self.script)
            .args([command, self.dir.path().to_str().expect("UTF-8")])
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .output()
            .expect("scripts/pg-patroni runs")
    }

    fn port(&self, key: &str, member: usize) -> u16 {
        let base: u16 = self
            .env
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.parse().ok())
            .expect("a port");
        base + u16::try_from(member - 1).expect("a member")
    }

    /// Member `member`'s PostgreSQL port (1, 2, …).
    pub fn pg_port(&self, member: usize) -> u16 {
        self.port("PG_PORT", member)
    }

    /// The HTTP status member `member` (1, 2, …) answers `GET path` on its REST API with;
    /// 0 if it does not answer within a second.
    pub fn rest(&self, member: usize, path: &str) -> u16 {
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], self.port("REST_PORT", member)));
        let timeout = Duration::from_secs(1);
        let Ok(mut s) = TcpStream::connect_timeout(&addr, timeout) else {
            return 0;
        };
        let _ = s.set_read_timeout(Some(timeout));
        let request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
        if s.write_all(request.as_bytes()).is_err() {
            return 0;
        }
        let mut head = [0u8; 12];
        match s.read_exact(&mut head) {
            Ok(()) => std::str::from_utf8(&head[9..12])
                .ok()
                .and_then(|c| c.parse().ok())
                .unwrap_or(0),
            Err(_) => 0,
        }
    }

    /// The member that holds the leader key now, if one does.
    pub fn primary(&self) -> Option<usize> {
        (1..=self.members).find(|m| self.rest(*m, "/primary") == 200)
    }

    /// The synchronous standby now, if there is one.
    pub fn sync_standby(&self) -> Option<usize> {
        (1..=self.members).find(|m| self.rest(*m, "/sync") == 200)
    }

    /// Polls (every 50 ms, at most `within`) until `what` holds; panics with the logs if
    /// it never does.
    pub fn wait_until(&self, within: Duration, what: &str, holds: impl Fn(&Self) -> bool) {
        let started = Instant::now();
        while !holds(self) {
            assert!(
                started.elapsed() < within,
                "{what}: not within {within:?}\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn pid(&self, file: &str) -> u32 {
        let text = std::fs::read_to_string(self.dir.path().join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        text.lines()
            .next()
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or_else(|| panic!("{file} names no pid"))
    }

    fn sigkill(pid: u32) {
        let killed = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status()
            .is_ok_and(|s| s.success());
        assert!(killed, "kill -KILL {pid} failed");
    }

    /// SIGKILL to member `member`'s postmaster (its backends then end, as after a crash).
    pub fn kill_postmaster(&self, member: usize) {
        Self::sigkill(self.pid(&format!("pg{member}/postmaster.pid")));
    }

    /// SIGKILL to member `member`'s Patroni agent; its PostgreSQL goes on running, and
    /// its supervisor starts the agent again after `restart_sec`.
    pub fn kill_agent(&self, member: usize) {
        Self::sigkill(self.pid(&format!("pg{member}.agent.pid")));
    }

    /// The end of every member's log and etcd's, for a failing test.
    pub fn logs(&self) -> String {
        let mut all = String::new();
        let names = (1..=self.members).map(|m| format!("pg{m}.log"));
        for name in names.chain(["etcd.log".to_string()]) {
            let text = std::fs::read_to_string(self.dir.path().join(&name)).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(30).collect();
            all.push_str(&format!("== {name}\n"));
            for line in tail.into_iter().rev() {
                all.push_str(line);
                all.push('\n');
            }
        }
        all
    }
}

impl Drop for PatroniStack {
    fn drop(&mut self) {
        let _ = self.run("stop");
    }
}
