//! A node's sign of life on PostgreSQL (`docs/cluster.md`, "A node that dies"; issue 33):
//! each node records its change feed's session on the server it runs on, and a node
//! whose recorded session is gone from that server is dead — its leases are claimed at
//! once, not at their end. A node that is only silent (frozen, or renewing no more)
//! keeps its session and its leases until they end; a record made on another server
//! (before a failover or a restart of the database) judges nothing.
//!
//! A node's process dying is its store dropped here: the store's runtime ends, every
//! connection closes, and the server ends the sessions — what the operating system does
//! for a process killed (`cluster_failover.rs` kills real ones). Leases are long (30 s)
//! so that none ends during a test: a claim made is a claim of a dead node's lease.
//! Skipped where PostgreSQL is missing, unless `BAFFLE_PG_TEST=required` (as in CI).

use std::time::Duration;

use baffle_server::store::{Change, EventStore, JoinChecks, PgStore};
use baffle_tests::cluster::eventually;
use baffle_tests::pg::{lone_database, node_store, session};

/// Long enough that nothing runs out on its own during a test.
const LONG: Duration = Duration::from_secs(30);

/// Node `a`, its change feed connected (its session recorded), holding `m/x` with one
/// record written; and node `b`, renewed (alive).
async fn two_nodes(url: &str) -> Nodes {
    two_nodes_a_at(url, url).await
}

/// Nodes a and b, and a's change feed.
type Nodes = (
    PgStore,
    tokio::sync::mpsc::UnboundedReceiver<Change>,
    PgStore,
);

/// [`two_nodes`], node a opened with `a_url` (the same database, other settings).
async fn two_nodes_a_at(url: &str, a_url: &str) -> Nodes {
    let a = node_store(a_url, "a", LONG).await;
    let mut feed = a.changes();
    assert_eq!(feed.recv().await, Some(Change::Gap), "a's feed connects");
    a.renew_leases().await.unwrap();
    a.lease_new("m/x").await.unwrap();
    a.append("m/x", 0, vec![b"one".to_vec()]).await.unwrap();
    let b = node_store(url, "b", LONG).await;
    b.renew_leases().await.unwrap();
    (a, feed, b)
}

/// Waits until the database holds no session of node `name` (its process gone).
async fn sessions_gone(db: &tokio_postgres::Client, name: &str) {
    sessions_named_gone(db, &format!("baffled {name}%")).await;
}

/// A node whose process is gone has its leases claimed at once, with a new epoch, and
/// the match is written by the claimer; while it lived — renewing nothing more, as a
/// frozen process — nothing of it was claimed. (Its leases were waited for to their end,
/// 0.75–1 lease after the death: node kills' p99 of 1.70 s with 1 s leases in the
/// campaign.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_process_is_gone_has_its_leases_claimed_before_they_end() {
    let Some((_db, url)) = lone_database("dead") else {
        return;
    };
    let (a, feed, b) = two_nodes(&url).await;
    assert_eq!(
        b.claim_leases().await.unwrap(),
        vec![],
        "a is alive: its session is open, though it renews nothing"
    );
    drop((a, feed));
    sessions_gone(&session(&url).await, "a").await;
    let claimed = b.claim_leases().await.unwrap();
    assert_eq!(claimed.len(), 1, "{claimed:?}");
    assert_eq!((claimed[0].stream.as_str(), claimed[0].epoch), ("m/x", 2));
    b.append("m/x", 1, vec![b"takeover".to_vec()])
        .await
        .unwrap();
    assert_eq!(
        b.lease_loads().await.unwrap(),
        vec![("b".to_string(), 1)],
        "a counts no more among the live nodes"
    );
}

/// A record of a session made on another server says nothing: after a failover (or a
/// restart of the database) every session of every node ended, and a node is judged by
/// its lease until it records its new one — else the first node back would take every
/// match of the others. The same gone session, recorded on this server, is a death.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_recorded_on_another_server_judges_nothing() {
    let Some((_db, url)) = lone_database("elsewhere") else {
        return;
    };
    let (a, feed, b) = two_nodes(&url).await;
    let db = session(&url).await;
    let moved = "UPDATE baffle_nodes SET server_since = server_since - interval '1 hour' \
                 WHERE node = 'a'";
    db.execute(moved, &[]).await.unwrap();
    drop((a, feed));
    sessions_gone(&db, "a").await;
    assert_eq!(
        b.claim_leases().await.unwrap(),
        vec![],
        "recorded on another server: a is judged by its lease, which runs"
    );
    let here = "UPDATE baffle_nodes SET server_since = pg_postmaster_start_time() \
                WHERE node = 'a'";
    db.execute(here, &[]).await.unwrap();
    assert_eq!(
        b.claim_leases().await.unwrap().len(),
        1,
        "on this server: dead"
    );
}

/// A node's feed that loses its connection records its new session before it says it
/// is back: the record never names a session that ended while the node lives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_feed_that_reconnects_records_its_new_session() {
    let Some((_db, url)) = lone_database("reconnect") else {
        return;
    };
    let (_a, mut feed, b) = two_nodes(&url).await;
    let db = session(&url).await;
    let recorded = "SELECT n.listen_pid = a.pid AND n.listen_since = a.backend_start \
                    FROM baffle_nodes n, pg_stat_activity a \
                    WHERE n.node = 'a' AND a.application_name = 'baffled a listen'";
    assert!(db.query_one(recorded, &[]).await.unwrap().get::<_, bool>(0));
    db.execute(TERMINATE_FEED, &[]).await.unwrap();
    let gap = async {
        // After the notification of a's append.
        while feed.recv().await.is_some_and(|c| c != Change::Gap) {}
    };
    tokio::time::timeout(Duration::from_secs(10), gap)
        .await
        .expect("the feed connects again");
    assert!(
        db.query_one(recorded, &[]).await.unwrap().get::<_, bool>(0),
        "the new session is the one recorded"
    );
    assert_eq!(b.claim_leases().await.unwrap(), vec![]);
}

/// A node that lost its feed's connection but keeps its others is alive (a session cut
/// by an operator, say): nothing of it is claimed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_lost_its_feed_but_keeps_a_session_is_alive() {
    let Some((_db, url)) = lone_database("cut") else {
        return;
    };
    let nodes = two_nodes(&url).await;
    alive_until_its_last_session_ends(&url, nodes, "baffled a").await;
}

/// Cuts node a's feed for good (no one listens, so it does not connect again): b claims
/// nothing while a's other sessions, named `name`, are open; then a's process ends, and
/// b claims its match.
async fn alive_until_its_last_session_ends(url: &str, (a, feed, b): Nodes, name: &str) {
    drop(feed);
    let db = session(url).await;
    db.execute(TERMINATE_FEED, &[]).await.unwrap();
    sessions_named_gone(&db, &format!("{name} listen")).await;
    assert_eq!(
        b.claim_leases().await.unwrap(),
        vec![],
        "a's sessions named {name} are open: a is alive"
    );
    drop(a);
    sessions_named_gone(&db, name).await;
    assert_eq!(b.claim_leases().await.unwrap().len(), 1, "now it is dead");
}

/// Ends node a's feed session (as recorded).
const TERMINATE_FEED: &str =
    "SELECT pg_terminate_backend(listen_pid) FROM baffle_nodes WHERE node = 'a'";

/// A node whose URL names its sessions (`application_name`) is known by that name: the
/// name is recorded with its feed's session, and a node that lost its feed but keeps its
/// other sessions is alive. (Sessions were looked for as `baffled NODE` alone: a
/// stranger's feed cut, thrice, had the node's live matches taken over each time.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_named_by_its_url_that_lost_its_feed_is_alive() {
    let Some((_db, url)) = lone_database("named") else {
        return;
    };
    let nodes = two_nodes_a_at(&url, &format!("{url}&application_name=foo")).await;
    alive_until_its_last_session_ends(&url, nodes, "foo").await;
}

/// A node restarted at once under its id (a supervisor's restart after a crash) does
/// not wait a lease and a quarter to see whether its dead self is alive: that self's
/// recorded session is gone, so the new process joins at once and lets its old leases
/// go, to be claimed now. (It waited, and the dead process's matches with it, until
/// their leases ended: a stranger's kill and immediate restart, 0.84–0.96 s with 1 s
/// leases.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_restarted_at_once_does_not_wait_for_its_dead_self() {
    let Some((_db, url)) = lone_database("restarted") else {
        return;
    };
    let (a, feed, b) = two_nodes(&url).await;
    drop((a, feed));
    sessions_gone(&session(&url).await, "a").await;
    let again = node_store(&url, "a", LONG).await;
    let checks = JoinChecks {
        token: "token".into(),
        seal: "seal".into(),
        signer: "signer".into(),
    };
    tokio::time::timeout(
        Duration::from_secs(10),
        again.start_leases(vec!["m/x".into()], checks),
    )
    .await
    .expect("joined without waiting 37.5 s for a dead namesake")
    .unwrap();
    let claimed = b.claim_leases().await.unwrap();
    assert_eq!(
        claimed.len(),
        1,
        "the dead process's lease let go: {claimed:?}"
    );
}

/// Waits until `db`'s database holds no session whose name is `like` (a `LIKE`
/// pattern).
async fn sessions_named_gone(db: &tokio_postgres::Client, like: &str) {
    eventually("the sessions end", || async {
        let n: i64 = db
            .query_one(
                "SELECT count(*) FROM pg_stat_activity \
                 WHERE application_name LIKE $1 AND datname = current_database()",
                &[&like],
            )
            .await
            .unwrap()
            .get(0);
        (n == 0).then_some(())
    })
    .await;
}

/// Only sessions on the cluster's own database speak for its nodes: a node of another
/// cluster with the same name, on another database of the same server, does not keep a
/// dead node of this one alive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_namesake_on_another_database_says_nothing() {
    let Some((db, url)) = lone_database("ours") else {
        return;
    };
    let theirs = db.database("theirs");
    let (a, feed, b) = two_nodes(&url).await;
    // Another cluster's node "a": a session named as ours, on its own database.
    let _theirs_a = session(&format!("{theirs}&application_name=baffled%20a")).await;
    drop((a, feed));
    sessions_gone(&session(&url).await, "a").await;
    assert_eq!(b.claim_leases().await.unwrap().len(), 1, "a is dead here");
}
