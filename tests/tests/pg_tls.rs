//! TLS to PostgreSQL (`sslmode=verify-full&sslrootcert=…`, `docs/cluster.md`) against a
//! PostgreSQL 15 that serves only TLS on TCP, with a CA and a server certificate made by
//! the test: with the right CA and host name a `baffled` node plays a match end to end
//! (every connection of the node encrypted, as the server itself reports); with another
//! CA, or a host name the certificate does not name, the store refuses to connect and
//! says why, and `baffled` does not start.
//!
//! Skipped where PostgreSQL is missing, unless `BAFFLE_PG_TEST=required` (as in CI).

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use baffle_server::store::PgStore;
use baffle_tests::campaign::{check_export, drive};
use baffle_tests::pg::{self, PgCluster};
use baffle_tests::pg_tls::TestCa;
use baffle_tests::process_cluster::{ProcessCluster, TOKEN};
use baffle_tests::room::Room;

/// A primary serving TLS with a certificate for `localhost` signed by `ca`, and a
/// database `tls` on it.
fn tls_primary(ca: &TestCa) -> PgCluster {
    let mut pg = PgCluster::start(false);
    pg.serve_tls(&ca.server(&["localhost"]));
    pg.psql(pg.primary.port, "CREATE DATABASE tls");
    pg
}

/// The store URL for host `host` of `pg`, trusting the CA in `ca_file`.
fn url(host: &str, pg: &PgCluster, ca_file: &Path) -> String {
    format!(
        "postgres://{}@{host}:{}/tls?sslmode=verify-full&sslrootcert={}",
        pg::USER,
        pg.primary.port,
        ca_file.display()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_on_verify_full_plays_a_match_over_tls() {
    if !pg::available() {
        return;
    }
    let ca = TestCa::new("baffle test CA");
    let pg = tokio::task::block_in_place(|| tls_primary(&ca));
    let files = tempfile::tempdir().unwrap();
    let ca_file = files.path().join("ca.pem");
    std::fs::write(&ca_file, ca.pem()).unwrap();
    // The server takes no plain connection: what follows is TLS or nothing.
    let plain = format!("postgres://{}@localhost:{}/tls", pg::USER, pg.primary.port);
    let refused = PgStore::connect(&plain).await.err().expect("plain refused");
    assert!(refused.to_string().contains("no encryption"), "{refused}");

    let store = url("localhost", &pg, &ca_file);
    let direct = PgStore::connect(&store)
        .await
        .expect("verify-full connects");
    drop(direct);
    let cluster = ProcessCluster::start_on(pg, store, 1, 1000).await;
    let room = Arc::new(Room::new(
        vec![cluster.url(0)],
        vec![cluster.channel(0)],
        TOKEN,
    ));
    let opened = room
        .open_matches("tls", 60 * 60_000, 25, &[("m1".to_string(), 0)])
        .await;
    let stop = Arc::new(AtomicBool::new(false));
    let played = drive(
        room,
        "m1".into(),
        opened[0].clone(),
        stop,
        40,
        Arc::default(),
    )
    .await;
    assert_eq!(played.len(), 40);
    let export = baffle_client::audit::export_log(cluster.channel(0), "m1")
        .await
        .unwrap();
    check_export("m1", &export, &played);
    // Every connection the node holds is encrypted, by the server's own account.
    let sessions = tokio::task::block_in_place(|| {
        cluster.pg.psql(
            cluster.pg.primary.port,
            "SELECT s.ssl FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) \
             WHERE a.application_name LIKE 'baffled%'",
        )
    });
    let sessions: Vec<&str> = sessions.lines().collect();
    assert!(!sessions.is_empty(), "the node holds no connection");
    assert!(sessions.iter().all(|s| *s == "t"), "{sessions:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_ca_or_a_wrong_host_name_is_refused_with_the_reason() {
    if !pg::available() {
        return;
    }
    let (ca, other) = (TestCa::new("baffle test CA"), TestCa::new("another CA"));
    let pg = tokio::task::block_in_place(|| tls_primary(&ca));
    let files = tempfile::tempdir().unwrap();
    let (right, wrong) = (files.path().join("ca.pem"), files.path().join("other.pem"));
    std::fs::write(&right, ca.pem()).unwrap();
    std::fs::write(&wrong, other.pem()).unwrap();

    // Another CA: the server's certificate does not chain to it.
    let e = PgStore::connect(&url("localhost", &pg, &wrong))
        .await
        .err()
        .expect("another CA is refused");
    let e = e.to_string();
    assert!(
        e.contains("invalid peer certificate") && e.contains("UnknownIssuer"),
        "{e}"
    );
    // The right CA, a name the certificate does not give (it names only localhost).
    let e = PgStore::connect(&url("127.0.0.1", &pg, &right))
        .await
        .err()
        .expect("another host name is refused");
    let e = e.to_string();
    assert!(
        e.contains("certificate not valid for name \"127.0.0.1\""),
        "{e}"
    );
    // What an operator sees: baffled does not start, and says why.
    let bin = baffle_tests::binaries::built(&["baffled"]);
    let out = Command::new(bin.join("baffled"))
        .args(["--addr", "127.0.0.1:0", "--node-id", "n1"])
        .args(["--store", &url("localhost", &pg, &wrong)])
        .arg("--data-dir")
        .arg(files.path().join("n1"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "baffled started: {stderr}");
    assert!(
        stderr.contains("does not answer") && stderr.contains("certificate"),
        "{stderr}"
    );
    // And the database is untouched: the refused store created nothing.
    let tables = tokio::task::block_in_place(|| {
        pg.psql(
            pg.primary.port,
            "SELECT count(*) FROM pg_database WHERE datname = 'tls'",
        )
    });
    assert_eq!(tables.trim(), "1");
}
