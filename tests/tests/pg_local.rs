//! `scripts/pg-local` fails whole: a node's port taken by another server (a new director
//! had one on 50051; the script said so but kept nodes 2 and 3 running, and the README's
//! next command talked to the wrong server) starts nothing and exits 1, naming the port.

use std::process::Command;

#[test]
fn pg_local_starts_nothing_when_a_nodes_port_is_taken() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    // Another server on node n1's port (nodes n2 and n3 would have theirs free).
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let out = Command::new("bash")
        .arg(root.join("scripts/pg-local"))
        .arg(dir.path())
        .env("PORT", port.to_string())
        .env("NODES", "3")
        // Never built nor run: the script must stop before.
        .env("BAFFLED", "/bin/false")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("127.0.0.1:{port} (node n1) is taken")),
        "{err}"
    );
    assert!(err.contains("nothing was started"), "{err}");
    // No database was made or started.
    assert!(!dir.path().join("primary").exists());
}

/// A node that stops before it serves (here a "server" that exits at once) fails the whole
/// run: the other nodes and the database servers the run started are stopped, exit 1.
/// Needs PostgreSQL 15 (CI installs it) and the script's ports 5433 and 5434 free.
#[test]
fn pg_local_stops_everything_when_a_node_does_not_come_up() {
    let initdb = std::path::Path::new("/usr/lib/postgresql/15/bin/initdb");
    let in_use = |port: u16| std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
    if !initdb.exists() || in_use(5433) || in_use(5434) {
        eprintln!("skipped: PostgreSQL 15 missing, or 5433/5434 in use");
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let out = Command::new("bash")
        .arg(root.join("scripts/pg-local"))
        .arg(dir.path())
        .env("PORT", port.to_string())
        .env("NODES", "2")
        .env("BAFFLED", "/bin/false")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("stopped before serving"), "{err}");
    // The database servers it started are stopped again.
    assert!(!in_use(5433) && !in_use(5434), "{err}");
    // Both servers' settings: a standby retries its primary after 250 ms, not 5 s (a
    // restart of the primary stalled every commit 5 s, past the nodes' leases).
    for server in ["primary", "standby"] {
        let conf = std::fs::read_to_string(dir.path().join(server).join("postgresql.conf"))
            .unwrap_or_else(|e| panic!("{server}'s postgresql.conf: {e}\n{err}"));
        let setting = conf
            .lines()
            .rfind(|l| l.trim_start().starts_with("wal_retrieve_retry_interval"));
        assert_eq!(
            setting.map(str::trim),
            Some("wal_retrieve_retry_interval = 250ms"),
            "{server}"
        );
    }
}
