//! The PostgreSQL store against a real PostgreSQL 15 primary with a synchronous standby
//! (`baffle_tests::pg`): the contract every store keeps, and what a failover must not
//! lose — every acknowledged append is on the promoted standby, and the store finds the
//! new primary by itself through its multi-host URL.
//!
//! Skipped where PostgreSQL is missing, unless `BAFFLE_PG_TEST=required` (as in CI).

use baffle_server::store::{EventStore, PgStore, StoreError, contract};
use baffle_tests::pg::{self, PgCluster};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_store_keeps_the_store_contract() {
    if !pg::available() {
        return;
    }
    let cluster = PgCluster::start(true);
    let url = cluster.database("contract");
    let store = PgStore::connect(&url).await.unwrap();
    contract::all(&store).await;
    // Several nodes share one database: a second store sees the first one's appends,
    // and its stale append is refused by the same check.
    let other = PgStore::connect(&url).await.unwrap();
    assert_eq!(other.len("c1/m1").unwrap(), 3);
    assert!(matches!(
        other.append("c1/m1", 2, vec![b"late".to_vec()]).await,
        Err(StoreError::Conflict {
            expected: 2,
            actual: 3
        })
    ));
    // Connecting again creates nothing twice.
    drop(PgStore::connect(&url).await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promoted_standby_holds_every_acknowledged_append() {
    if !pg::available() {
        return;
    }
    let mut cluster = PgCluster::start(true);
    let url = cluster.database("failover");
    let store = PgStore::connect(&url).await.unwrap();
    let mut writable = store.writable();
    for i in 0..50u64 {
        store
            .append("m/a", i, vec![i.to_be_bytes().to_vec()])
            .await
            .unwrap();
    }
    cluster.kill_primary();
    // While there is no primary, an append fails (it is not acknowledged) and the store
    // says it cannot write.
    let failed = store.append("m/a", 50, vec![b"lost".to_vec()]).await;
    assert!(matches!(failed, Err(StoreError::Io(_))), "{failed:?}");
    assert!(!*writable.borrow_and_update());
    cluster.promote_standby();
    // The store finds the promoted standby by itself (the URL lists both servers).
    let mut appended = None;
    for _ in 0..200 {
        match store.append("m/a", 50, vec![b"after".to_vec()]).await {
            Ok(n) => {
                appended = Some(n);
                break;
            }
            Err(StoreError::Io(_)) => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(
        appended,
        Some(51),
        "the store never reached the new primary"
    );
    let records = store.read("m/a", 0, 100).unwrap();
    assert_eq!(records.len(), 51);
    for (i, r) in records[..50].iter().enumerate() {
        assert_eq!(r, &(i as u64).to_be_bytes().to_vec(), "record {i}");
    }
    assert_eq!(records[50], b"after".to_vec());
    writable.wait_for(|w| *w).await.unwrap();
}

/// A match played on a server whose store is PostgreSQL: it goes on through a restart
/// and through the primary's death and the standby's promotion, its chain whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_on_postgres_survives_a_restart_and_a_failover() {
    use baffle_core::audit::verify::verify_jsonl;
    use baffle_proto::v1;
    use baffle_proto::v1::command::Action;
    use baffle_tests::api::{A, B, Director, defaults, server_opening};
    use baffle_tests::{EPOCH, TestServer};
    use std::sync::Arc;

    if !pg::available() {
        return;
    }
    let mut cluster = PgCluster::start(true);
    let url = cluster.database("room");
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let time = baffle_server::time::ManualTime::new(EPOCH);
    let server = TestServer::start_on_postgres(&url, dir.clone(), time.clone()).await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 7, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let s = d.act("m", server_opening()).await;
    let mover = s.turn_side;
    time.advance(30_000);
    let before = d.act("m", Action::Press(mover)).await;

    // A restart on the same database: the same match, at the same head.
    server.stop().await;
    let server = TestServer::start_on_postgres(&url, dir.clone(), time.clone()).await;
    let mut d = Director::connect(&server).await;
    let after = d.state("m").await;
    assert_eq!(
        (after.seq, &after.head_hash),
        (before.seq, &before.head_hash)
    );

    // The primary dies and the standby is promoted: the server finds it and goes on.
    cluster.kill_primary();
    cluster.promote_standby();
    let other = if mover == A { B } else { A };
    let mut doubled = None;
    for _ in 0..200 {
        match d.try_act("m", Action::Double(other)).await {
            Ok(reply) => {
                doubled = reply.state;
                break;
            }
            Err(status) if status.code() == tonic::Code::Unavailable => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await
            }
            Err(status) => panic!("{status:?}"),
        }
    }
    let doubled = doubled.expect("the server never reached the promoted standby");
    assert_eq!(doubled.cube_value, 1, "offered, not yet taken");
    let taken = d.act("m", Action::Take(mover)).await;
    assert_eq!(taken.cube_value, 2);
    let log = baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap();
    let report = verify_jsonl(&log, None);
    assert!(
        report.is_ok(),
        "the chain verifies after the failover: {report:?}"
    );
    server.stop().await;
}
