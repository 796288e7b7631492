//! A node of a cluster frozen in the middle of a commit, on PostgreSQL (`docs/cluster.md`,
//! `docs/reliability.md`; issue 33, "No lock-up, no late commit"): it neither commits
//! once its lease ran out nor locks its match up for the length of its freeze; a commit
//! and a lease renewal never wait for each other; a commit stuck on a lock fails alone,
//! the node keeping its other matches; the session limits never cut short a COMMIT's wait
//! for the synchronous standby; and no node is named the owner of a match before it has
//! taken it over.
//!
//! The freeze is the committer's test hold ([`baffle_server::store::Freeze`]): the
//! transaction stops just before its COMMIT — every statement sent, its rows locked, its
//! session idle in the transaction — exactly where a process paused by SIGSTOP in the
//! middle of a commit leaves it. Lease times are the database's, so waiting for one to
//! run out is waiting in real time (bounded polls, never a fixed sleep).
//! Skipped where PostgreSQL is missing, unless `BAFFLE_PG_TEST=required` (as in CI).

use std::time::{Duration, Instant};

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_server::store::{EventStore, PgStore, StoreError};
use baffle_tests::EPOCH;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::cluster::{TestNode, Two, eventually};
use baffle_tests::pg::{self, lone_database, node_store, session};
use tonic::Code;

/// The campaign's lease (issue 33): 1 s.
const LEASE: Duration = Duration::from_secs(1);
/// Long enough that nothing runs out on its own during a test.
const LONG: Duration = Duration::from_secs(30);
/// How long a step that must not wait for a frozen commit may take, at most.
const PROMPT: Duration = Duration::from_secs(3);

/// Node `a`, with leases of `lease`, having created the leases of `streams` and
/// written one record to each.
async fn holder(url: &str, lease: Duration, streams: &[&str]) -> PgStore {
    let a = node_store(url, "a", lease).await;
    for stream in streams {
        a.lease_new(stream).await.unwrap();
        a.append(stream, 0, vec![b"one".to_vec()]).await.unwrap();
    }
    a
}

/// `store`'s next append to `stream` (at `expected`), stopped before its COMMIT.
async fn frozen_append(
    store: &PgStore,
    stream: &str,
    expected: u64,
) -> tokio::task::JoinHandle<Result<u64, StoreError>> {
    store.commits().freeze();
    let pending = tokio::spawn({
        let (store, stream) = (store.clone(), stream.to_string());
        async move {
            store
                .append(&stream, expected, vec![b"late".to_vec()])
                .await
        }
    });
    tokio::time::timeout(PROMPT, store.commits().stopped())
        .await
        .expect("the append reaches its COMMIT and stops there");
    pending
}

/// The lease is checked at COMMIT on the database's clock: a node that resumes after its
/// lease ran out writes nothing. (The lease was checked against `now()`, the
/// transaction's start: the commit went through, a press written 7 s after the lease's
/// end in the campaign.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_frozen_past_its_lease_is_refused_at_commit() {
    let Some((_db, url)) = lone_database("late") else {
        return;
    };
    let a = holder(&url, LONG, &["m/x"]).await;
    // The lease ends soon on the database's clock (set so: with a long lease, the
    // database does not end a's session before), and a freezes in its next commit.
    let s = session(&url).await;
    s.execute(
        "UPDATE baffle_leases SET expires_at = clock_timestamp() + interval '300 ms' \
         WHERE stream = 'm/x'",
        &[],
    )
    .await
    .unwrap();
    let pending = frozen_append(&a, "m/x", 1).await;
    eventually("a's lease runs out while a is frozen", || {
        let s = &s;
        async move {
            s.query_one(
                "SELECT expires_at < clock_timestamp() FROM baffle_leases WHERE stream = 'm/x'",
                &[],
            )
            .await
            .unwrap()
            .get::<_, bool>(0)
            .then_some(())
        }
    })
    .await;
    a.commits().thaw();
    let late = pending.await.unwrap();
    assert!(matches!(late, Err(StoreError::Fenced(_))), "{late:?}");
    assert_eq!(a.len("m/x").unwrap(), 1, "nothing written after the lease");
    assert!(
        *a.writable().borrow(),
        "a refused commit says nothing of the store"
    );
}

/// A node frozen mid-commit lets its match go as a dead node does: the database ends
/// its session a quarter lease into the freeze, the lease runs out, and another node
/// claims and writes the match; the frozen commit never lands. (The frozen session held
/// its rows for the whole freeze: claims skipped them, the match unanswerable 7–8.7 s
/// in the campaign.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_frozen_mid_commit_lets_its_match_go_after_a_lease() {
    let Some((_db, url)) = lone_database("frozen") else {
        return;
    };
    let a = holder(&url, LEASE, &["m/x"]).await;
    let b = node_store(&url, "b", LEASE).await;
    a.renew_leases().await.unwrap();
    let pending = frozen_append(&a, "m/x", 1).await;
    let frozen = Instant::now();
    // a renews nothing more; b renews and claims as its ticks would.
    let claimed = eventually("b claims the frozen node's match", || {
        let b = b.clone();
        async move {
            b.renew_leases().await.unwrap();
            Some(b.claim_leases().await.unwrap()).filter(|c| !c.is_empty())
        }
    })
    .await;
    assert_eq!(claimed[0].stream, "m/x");
    b.append("m/x", 1, vec![b"takeover".to_vec()])
        .await
        .expect("b writes the match: no frozen session holds its rows");
    let served = frozen.elapsed();
    eprintln!(
        "frozen mid-commit with a {} ms lease: the match claimed and written by another \
         node {} ms into the freeze",
        LEASE.as_millis(),
        served.as_millis()
    );
    assert!(served < LEASE * 2, "{served:?}");
    a.commits().thaw();
    let late = pending.await.unwrap();
    assert!(late.is_err(), "the frozen commit never lands: {late:?}");
    assert_eq!(
        a.read("m/x", 0, 10).unwrap(),
        vec![b"one".to_vec(), b"takeover".to_vec()]
    );
}

/// The same on running nodes, as the campaign froze them (issue 33): node 1 stops in the
/// middle of the commit of a command (and stops renewing and serving, as a paused
/// process does); node 2 answers the match again within a lease and a quarter, the
/// command that was in the freeze never applied. (Node 2 could not claim the match
/// until the freeze ended.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_frozen_mid_commit_is_answered_by_another_node_within_a_lease() {
    let Some((mut c, d1, d2)) = match_on_two_nodes("paused", LEASE).await else {
        return;
    };
    refusal(&d2, |_| true).await;
    let store = c.n1.hub.store.clone();
    store.commits().freeze();
    let in_freeze = tokio::spawn({
        let mut d1 = d1.clone();
        async move { d1.try_act("m", Action::CheckIn(B)).await }
    });
    tokio::time::timeout(PROMPT, store.commits().stopped())
        .await
        .expect("node 1's commit stops before COMMIT");
    c.n1.kill();
    let frozen = Instant::now();
    eventually("node 2 answers the match", || {
        let mut d2 = d2.clone();
        async move { d2.try_act("m", Action::CheckIn(B)).await.ok() }
    })
    .await;
    let answered = frozen.elapsed();
    eprintln!(
        "node frozen mid-commit, {} ms lease: the match answered by another node {} ms \
         into the freeze",
        LEASE.as_millis(),
        answered.as_millis()
    );
    assert!(answered < LEASE * 2, "{answered:?}");
    let written = c.n2.hub.store.len("m/m").unwrap();
    store.commits().thaw();
    // The frozen command is answered with a failure, or its connection is gone.
    if let Ok(reply) = tokio::time::timeout(PROMPT, in_freeze).await {
        assert!(reply.unwrap().is_err(), "the frozen command never applied");
    }
    // Its session was ended by the database: the COMMIT fails on a closed connection.
    eventually("node 1's frozen commit fails", || {
        let store = store.clone();
        async move { (!*store.writable().borrow()).then_some(()) }
    })
    .await;
    assert_eq!(
        c.n2.hub.store.len("m/m").unwrap(),
        written,
        "nothing of node 1's written after node 2's takeover"
    );
}

/// A renewal never waits for a commit under way (nor a commit for a renewal): they lock
/// the lease rows in modes that do not conflict, so they cannot deadlock, and a slow or
/// frozen commit does not hold up the renewal of the node's leases. (The commit's `FOR
/// SHARE` made the renewal wait, and each wait for the other in its own order: "deadlock
/// detected", the renewal lost after the 1 s deadlock timeout, and every lease with it.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renewal_never_waits_for_a_commit() {
    let Some((_db, url)) = lone_database("renewal") else {
        return;
    };
    let a = holder(&url, LONG, &["m/x", "m/y"]).await;
    let pending = frozen_append(&a, "m/x", 1).await;
    let lost = tokio::time::timeout(PROMPT, a.renew_leases())
        .await
        .expect("the renewal does not wait for the commit")
        .unwrap();
    assert!(lost.is_empty(), "{lost:?}");
    a.commits().thaw();
    assert_eq!(pending.await.unwrap().unwrap(), 2);
    assert!(a.holds("m/x") && a.holds("m/y"));
}

/// A node starting (its schema made sure of) never waits for a commit under way, frozen
/// or not, nor holds up the others' commits. (Its `ALTER TABLE … ADD COLUMN IF NOT
/// EXISTS` locked the lease tables outright at every start, even when it changed
/// nothing: a restart waited behind a frozen commit, and every commit and renewal of
/// every node queued behind the restart.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_starting_never_waits_for_a_commit_under_way() {
    let Some((_db, url)) = lone_database("starting") else {
        return;
    };
    let a = holder(&url, LONG, &["m/x"]).await;
    let pending = frozen_append(&a, "m/x", 1).await;
    let b = tokio::time::timeout(PROMPT, node_store(&url, "b", LONG))
        .await
        .expect("a node starts while a commit is under way");
    b.renew_leases().await.unwrap();
    a.commits().thaw();
    assert_eq!(pending.await.unwrap().unwrap(), 2);
}

/// A commit that waits on a lock gives up after the lock timeout (a quarter lease) and
/// fails alone: the node's other matches are written meanwhile, its store is still
/// writable and its leases still its own. (It waited as long as the lock was held, and
/// every append of the node queued behind it.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_stuck_on_a_lock_fails_alone_and_the_node_keeps_its_leases() {
    let Some((_db, url)) = lone_database("stuck") else {
        return;
    };
    let a = holder(&url, LEASE, &["m/a", "m/b"]).await;
    // Another session holds m/a's length row.
    let s = session(&url).await;
    s.batch_execute("BEGIN; SELECT 1 FROM baffle_streams WHERE stream = 'm/a' FOR UPDATE")
        .await
        .unwrap();
    let stuck = tokio::spawn({
        let a = a.clone();
        async move { a.append("m/a", 1, vec![b"two".to_vec()]).await }
    });
    eventually("a's commit waits on the lock (or gave up already)", || {
        let (s, done) = (&s, stuck.is_finished());
        async move {
            let waiting: i64 = s
                .query_one(
                    "SELECT count(*) FROM pg_stat_activity \
                     WHERE application_name LIKE 'baffled%' AND wait_event_type = 'Lock'",
                    &[],
                )
                .await
                .unwrap()
                .get(0);
            (done || waiting > 0).then_some(())
        }
    })
    .await;
    let started = Instant::now();
    let other = tokio::time::timeout(PROMPT, a.append("m/b", 1, vec![b"two".to_vec()]))
        .await
        .expect("the node's other match is written while m/a's commit is stuck");
    assert_eq!(other.unwrap(), 2);
    eprintln!(
        "m/b written {} ms after m/a's commit began waiting on a lock (lease {} ms)",
        started.elapsed().as_millis(),
        LEASE.as_millis()
    );
    let refused = stuck.await.unwrap();
    assert!(matches!(refused, Err(StoreError::Io(_))), "{refused:?}");
    assert!(
        *a.writable().borrow(),
        "one refused commit is not a failed store"
    );
    assert!(a.renew_leases().await.unwrap().is_empty());
    assert!(a.holds("m/a") && a.holds("m/b"));
    s.batch_execute("ROLLBACK").await.unwrap();
    assert_eq!(a.append("m/a", 1, vec![b"two".to_vec()]).await.unwrap(), 2);
}

/// The statement timeout of a node's sessions never cuts short a COMMIT's wait for the
/// synchronous standby: a cancelled wait would leave the transaction committed on the
/// primary alone, and acknowledged. With no standby answering, the append waits (three
/// statement timeouts here — the lease) and is acknowledged only once the standby is no longer
/// required.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_waits_for_the_synchronous_standby_past_the_statement_timeout() {
    let Some((db, url)) = lone_database("sync") else {
        return;
    };
    let lease = Duration::from_millis(400);
    let a = holder(&url, lease, &["m/x"]).await;
    let standby = |names: &str| {
        db.psql(
            db.primary.port,
            &format!("ALTER SYSTEM SET synchronous_standby_names = '{names}'"),
        );
        db.psql(db.primary.port, "SELECT pg_reload_conf()");
    };
    standby("nobody");
    eventually("the primary waits for a standby", || {
        let url = url.clone();
        async move {
            let s = session(&url).await;
            let row = s.query_one("SHOW synchronous_standby_names", &[]).await;
            (row.unwrap().get::<_, String>(0) == "nobody").then_some(())
        }
    })
    .await;
    let mut pending = tokio::spawn({
        let a = a.clone();
        async move { a.append("m/x", 1, vec![b"two".to_vec()]).await }
    });
    let early = tokio::time::timeout(lease * 3, &mut pending).await;
    assert!(
        early.is_err(),
        "acknowledged without the standby: {early:?}"
    );
    standby("");
    let done = tokio::time::timeout(Duration::from_secs(10), pending)
        .await
        .expect("acknowledged once no standby is required");
    assert_eq!(done.unwrap().unwrap(), 2);
}

/// While a node claims a match and has not yet taken it over, no node is named its owner
/// (`baffle-owner`), neither by the claimer nor by the node that lost it: a client sent
/// there would only be refused again. (The claimer named itself, 4 ms after its claim,
/// in the campaign.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_node_is_named_owner_before_it_has_taken_the_match_over() {
    let Some((c, d1, d2)) = match_on_two_nodes("owner", Duration::from_millis(400)).await else {
        return;
    };
    let owner = |e: &tonic::Status| {
        e.metadata()
            .get("baffle-owner")
            .map(|v| v.to_str().unwrap().to_string())
    };
    let refused = refusal(&d2, |_| true).await;
    assert_eq!(owner(&refused), Some(c.n1.url.clone()), "{refused:?}");
    // n2 claims the match (the database gives it the lease) and has not taken it over.
    session(&c.db.url("owner"))
        .await
        .execute(
            "UPDATE baffle_leases SET node = 'n2', epoch = epoch + 1, \
             expires_at = now() + interval '1 minute' WHERE stream = 'm/m'",
            &[],
        )
        .await
        .unwrap();
    let on_n2 = refusal(&d2, |_| true).await;
    assert_eq!(owner(&on_n2), None, "{on_n2:?}");
    // n1 hears at its next renewal that it lost the match: it names no one either.
    let on_n1 = refusal(&d1, |e| e.code() == Code::Unavailable).await;
    assert_eq!(owner(&on_n1), None, "{on_n1:?}");
}

/// Two nodes with leases of `lease` on a new database `name`, and a director on each;
/// match `m` created on node 1, player A checked in. `None` where PostgreSQL is missing.
async fn match_on_two_nodes(name: &str, lease: Duration) -> Option<(Two, Director, Director)> {
    if !pg::available() {
        return None;
    }
    let c = baffle_tests::cluster::two_nodes(name, lease).await;
    let mut d1 = director(&c.n1).await;
    let d2 = director(&c.n2).await;
    d1.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d1.create_match("open", "m", 7, EPOCH.as_ms()).await;
    d1.act("m", Action::CheckIn(A)).await;
    Some((c, d1, d2))
}

async fn director(node: &TestNode) -> Director {
    Director::on(node.channel().await, &node.token)
}

/// The refusal of a check-in on match `m` sent by `d`, once `wanted` says it is the one
/// (retried while the node does not know the match yet, or `wanted` says no).
async fn refusal(d: &Director, wanted: impl Fn(&tonic::Status) -> bool) -> tonic::Status {
    eventually("the node refuses the command", || {
        let mut d = d.clone();
        let wanted = &wanted;
        async move {
            match d.try_act("m", Action::CheckIn(B)).await {
                Err(e) if e.code() == Code::NotFound => None,
                Err(e) => Some(e).filter(|e| wanted(e)),
                Ok(s) => panic!("the command was applied: {s:?}"),
            }
        }
    })
    .await
}
