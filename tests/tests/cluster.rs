//! Several nodes on one PostgreSQL database (`docs/cluster.md`): the creating node
//! writes a match and the others refuse commands naming it (`baffle-owner`); the
//! registry is shared; followers watch on any node, nothing missed or repeated, across a
//! lost LISTEN connection; a dead node's matches are taken over — the takeover recorded,
//! a flag that fell meanwhile at its instant, the log verified — and a stale node can
//! never append.
//!
//! Leases are short here (400 ms): lease times are the database's, so waiting for a
//! lease to run out is waiting in real time (bounded polls, never a fixed sleep).
//! Skipped where PostgreSQL is missing, unless `BAFFLE_PG_TEST=required` (as in CI).

use std::time::{Duration, Instant};

use baffle_core::audit::verify::verify_jsonl;
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_server::actor::Admission;
use baffle_server::error::Error;
use baffle_server::hub::Hub;
use baffle_server::store::{EventStore, Fence, PgStore, StoreError};
use baffle_server::time::ManualTime;
use baffle_tests::EPOCH;
use baffle_tests::api::{A, B, Director, defaults, opening};
use baffle_tests::cluster::{TestNode, Two, eventually};
use baffle_tests::pg::{self, PgCluster};
use tokio_stream::StreamExt;
use tonic::Code;

const LEASE: Duration = Duration::from_millis(400);

async fn two_nodes(name: &str) -> Two {
    baffle_tests::cluster::two_nodes(name, LEASE).await
}

async fn director(node: &TestNode) -> Director {
    Director::on(node.channel().await, &node.token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_is_written_by_its_creator_and_refused_elsewhere_naming_it() {
    if !pg::available() {
        return;
    }
    let c = two_nodes("owners").await;
    let (mut d1, mut d2) = (director(&c.n1).await, director(&c.n2).await);
    d1.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    // Node 2 hears of the tournament through the change feed.
    let t2 = d2.tournaments.clone();
    eventually("node 2 sees the tournament", || {
        let mut t2 = t2.clone();
        let r =
            c.n2.director(v1::GetTournamentRequest { id: "open".into() });
        async move { t2.get_tournament(r).await.ok() }
    })
    .await;
    d1.create_match("open", "m", 7, EPOCH.as_ms()).await;
    d1.act("m", Action::CheckIn(A)).await;
    // Node 2 knows the match, and sends its commands to node 1.
    let refused = eventually("node 2 knows the match", || {
        let mut d2 = d2.clone();
        async move {
            match d2.try_act("m", Action::CheckIn(B)).await {
                Err(e) if e.code() == Code::NotFound => None,
                other => Some(other),
            }
        }
    })
    .await
    .expect_err("a replica refuses commands");
    assert_eq!(refused.code(), Code::Unavailable, "{refused:?}");
    assert_eq!(
        refused
            .metadata()
            .get("baffle-owner")
            .unwrap()
            .to_str()
            .unwrap(),
        c.n1.url
    );
    assert!(
        refused.message().contains("node n1"),
        "{}",
        refused.message()
    );
    // ... and nothing was written: node 1 goes on from where it was.
    let s = d1.act("m", Action::CheckIn(B)).await;
    // A match id taken on node 1 is taken on node 2.
    let again = v1::CreateMatchRequest {
        tournament_id: "open".into(),
        match_id: "m".into(),
        player_a: "X".into(),
        player_b: "Y".into(),
        length: 5,
        ..Default::default()
    };
    let e = d2
        .tournaments
        .create_match(c.n2.director(again))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::AlreadyExists, "{e:?}");
    // A match created on node 2 is node 2's.
    d2.create_match("open", "m2", 5, EPOCH.as_ms()).await;
    d2.act("m2", Action::CheckIn(A)).await;
    let e = eventually("node 1 knows m2", || {
        let mut d1 = d1.clone();
        async move {
            match d1.try_act("m2", Action::CheckIn(B)).await {
                Err(e) if e.code() == Code::NotFound => None,
                other => Some(other),
            }
        }
    })
    .await
    .unwrap_err();
    assert_eq!(
        e.metadata().get("baffle-owner").unwrap().to_str().unwrap(),
        c.n2.url
    );
    // Both nodes show the same state of m.
    let s2 = eventually("node 2 has every record of m", || {
        let mut d2 = d2.clone();
        let seq = s.seq;
        async move { Some(d2.state("m").await).filter(|x| x.seq == seq) }
    })
    .await;
    assert_eq!(s2.head_hash, s.head_hash);
    // Node 2 shuts down: it lets its leases go, and node 1 takes m2 over.
    c.n2.hub.close();
    let stopped = Instant::now();
    eventually("node 1 takes m2 over", || {
        let mut d1 = d1.clone();
        async move { d1.try_act("m2", Action::CheckIn(B)).await.ok() }
    })
    .await;
    eprintln!(
        "m2 served by node 1 {} ms after node 2 began to shut down",
        stopped.elapsed().as_millis()
    );
}

/// The registry is one stream for every node: a node that writes it with a stale view
/// folds in what it missed and checks its change again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_view_of_the_registry_is_caught_up_and_checked_again() {
    if !pg::available() {
        return;
    }
    let db = PgCluster::start(false);
    let url = db.database("registry");
    let time = ManualTime::new(EPOCH);
    // Hubs without change feeds: each sees the other's entries only by a conflict.
    let keys = tempfile::tempdir().unwrap();
    let keys = baffle_server::keys::ServerKeys::in_dir(keys.path(), "t".into()).unwrap();
    let h1 = Hub::open(
        PgStore::connect(&url).await.unwrap(),
        time.clone(),
        keys.clone(),
    )
    .await
    .unwrap();
    let h2 = Hub::open(PgStore::connect(&url).await.unwrap(), time, keys)
        .await
        .unwrap();
    let d = baffle_core::backgammon::TournamentDefaults::default();
    h1.create_tournament("t1", "one", d.clone()).await.unwrap();
    h1.register_device("dev").await.unwrap();
    // h2 has not seen t1: its append conflicts, it catches up and writes t2.
    h2.create_tournament("t2", "two", d.clone()).await.unwrap();
    assert!(h2.tournament("t1").await.is_ok());
    // Checked again on the caught-up view: taken.
    assert!(matches!(
        h2.register_device("dev").await,
        Err(Error::AlreadyExists(_))
    ));
    h1.catch_up_registry().await.unwrap();
    assert_eq!(h1.tournaments().await.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_on_another_node_sees_every_update_once_across_a_lost_feed() {
    if !pg::available() {
        return;
    }
    let c = two_nodes("watch").await;
    let mut d1 = director(&c.n1).await;
    d1.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d1.create_match("open", "m", 7, EPOCH.as_ms()).await;
    let watcher = MatchesClient::new(c.n2.channel().await);
    let mut stream = eventually("node 2 serves the match", || {
        let mut w = watcher.clone();
        async move {
            w.watch(v1::WatchRequest {
                match_id: "m".into(),
                from_seq: 0,
            })
            .await
            .ok()
        }
    })
    .await
    .into_inner();
    d1.act("m", Action::CheckIn(A)).await;
    d1.act("m", Action::CheckIn(B)).await;
    let s = d1.act("m", opening(6, 1)).await;
    let mut mover = s.turn_side;
    for i in 0..6 {
        if i == 3 {
            // The change feed's connections are cut: the nodes reconnect and read again.
            c.db.psql(
                c.db.primary.port,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE application_name LIKE 'baffled % listen'",
            );
        }
        c.n1.time.advance(2_000);
        d1.act("m", Action::Press(mover)).await;
        mover = if mover == A { B } else { A };
        d1.act("m", baffle_tests::api::roll(mover, 3, 2)).await;
    }
    let last = d1.state("m").await;
    let mut seen = Vec::new();
    let mut state = None;
    while seen.last().copied() != Some(last.seq - 1) {
        let u = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("an update within 10 s")
            .unwrap()
            .unwrap();
        seen.extend(u.events.iter().map(|e| e.seq));
        state = u.state.or(state);
    }
    assert_eq!(
        seen,
        (0..last.seq).collect::<Vec<_>>(),
        "each event once, in order"
    );
    assert_eq!(state.unwrap().head_hash, last.head_hash);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_match_is_taken_over_with_its_flag_at_the_instant() {
    if !pg::available() {
        return;
    }
    let mut c = two_nodes("takeover").await;
    let mut d1 = director(&c.n1).await;
    d1.tournament("blitz", defaults(1_000, None, v1::DiceSource::Physical))
        .await;
    d1.create_match("blitz", "m", 3, EPOCH.as_ms()).await;
    d1.act("m", Action::CheckIn(A)).await;
    d1.act("m", Action::CheckIn(B)).await;
    let s = d1.act("m", opening(6, 1)).await;
    let flag = s.clock.unwrap().next_flag_at_ms.unwrap();
    let mut d2 = director(&c.n2).await;
    eventually("node 2 has the match", || {
        let mut d2 = d2.clone();
        async move { d2.state_opt("m").await.filter(|x| x.seq == s.seq) }
    })
    .await;

    // Node 1 dies; the flag falls while no node writes.
    let killed = Instant::now();
    c.n1.kill();
    // Its actors live on here (a process cut off, not a dead one): they write nothing
    // once the node's own deadline for its lease has passed.
    eventually("node 1 stops writing at its deadline", || {
        let held = c.n1.hub.store.holds("m/m");
        async move { Some(()).filter(|_| !held) }
    })
    .await;
    c.n1.time.advance(flag - EPOCH.as_ms() + 5_000);
    let after = eventually("node 2 takes the match over", || {
        let mut d2 = d2.clone();
        async move { d2.state_opt("m").await.filter(|x| x.result.is_some()) }
    })
    .await;
    eprintln!(
        "taken over {} ms after the kill (lease {} ms)",
        killed.elapsed().as_millis(),
        LEASE.as_millis()
    );
    assert_eq!(
        after.clock.unwrap().first_flag.unwrap().at_ms,
        flag,
        "the exact instant"
    );
    // Node 2 writes it now: a command is answered there.
    let r = d2.try_act("m", Action::ConfirmResult(v1::Empty {})).await;
    assert!(r.is_ok(), "{r:?}");

    // The log records the takeover, and verifies.
    let log = baffle_client::audit::export_log(c.n2.channel().await, "m")
        .await
        .unwrap();
    let takeover = log
        .lines()
        .find(|l| l.contains("table.takeover"))
        .expect("a takeover record");
    assert!(takeover.contains(r#"\"epoch\":2"#), "{takeover}");
    assert!(takeover.contains("n2"), "{takeover}");
    let flag_line = log
        .lines()
        .position(|l| l.contains("bg.time_expired"))
        .unwrap();
    let takeover_line = log
        .lines()
        .position(|l| l.contains("table.takeover"))
        .unwrap();
    assert!(
        flag_line < takeover_line,
        "what fell due first, then the takeover"
    );
    let report = verify_jsonl(&log, None);
    assert!(report.is_ok(), "{report:?}");

    // Node 1 lives on, stale: its match refuses to write, and the log is unchanged.
    let stale = c.n1.hub.match_handle("m").await.unwrap();
    let len = c.n2.hub.store.len("m/m").unwrap();
    let e = stale
        .execute(
            baffle_core::table::Request::Tick,
            None,
            None,
            Admission::Always,
        )
        .await
        .unwrap_err();
    assert!(matches!(e, Error::NotOwner { .. }), "{e:?}");
    assert_eq!(c.n2.hub.store.len("m/m").unwrap(), len);
}

/// A match played without devices (director presses) whose writing node dies mid-turn
/// gets the outage credited on takeover (`docs/cluster.md`, "What a node's death
/// costs"): the running side is given how long the dead node had been silent, as the
/// database measured it. The match's clock here is the shared manual clock, made to run
/// with real time from the kill on, so the outage it sees is the one the database sees:
/// the credit is at least the lease (nothing is claimed sooner), covers the outage up to
/// the moment the takeover is written, exceeds it by at most a quarter lease (the dead
/// node's last renewal came at most that long before its death), never exceeds
/// `MAX_TAKEOVER_CREDIT`, moves the running side's flag by exactly that much, and the
/// exported log verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_match_without_devices_gets_the_outage_credited() {
    use baffle_core::GameType;
    use baffle_core::table::{Body, MAX_TAKEOVER_CREDIT};
    use baffle_server::time::TimeSource;
    if !pg::available() {
        return;
    }
    let mut c = two_nodes("credit").await;
    let mut d1 = director(&c.n1).await;
    d1.tournament("open", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    d1.create_match("open", "m", 3, EPOCH.as_ms()).await;
    d1.act("m", Action::CheckIn(A)).await;
    d1.act("m", Action::CheckIn(B)).await;
    let s = d1.act("m", opening(6, 1)).await;
    let flag_before = s.clock.unwrap().next_flag_at_ms.unwrap();
    let d2 = director(&c.n2).await;
    eventually("node 2 has the match", || {
        let mut d2 = d2.clone();
        async move { d2.state_opt("m").await.filter(|x| x.seq == s.seq) }
    })
    .await;

    // From here the match's clock runs with real time, as a wall clock would, the
    // mover's 12 s delay over: an outage inside the delay costs nothing, and is not
    // credited (core/tests/table_takeover.rs).
    let time = c.n1.time.clone();
    let (base, started) = (
        baffle_core::Timestamp(time.now().as_ms() + 13_000),
        Instant::now(),
    );
    let ticker = tokio::spawn({
        let time = time.clone();
        async move {
            loop {
                let ran = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
                time.set(baffle_core::Timestamp(base.as_ms().saturating_add(ran)));
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }
    });
    tokio::time::sleep(Duration::from_millis(150)).await;
    // Node 1 dies mid-turn: no flag can fall in the outage.
    let killed_at = time.now().as_ms();
    c.n1.kill();
    let after = eventually("node 2 takes the match over", || {
        let mut d2 = d2.clone();
        async move { d2.state_opt("m").await.filter(|x| x.seq > s.seq) }
    })
    .await;
    ticker.abort();
    let log = baffle_client::audit::export_log(c.n2.channel().await, "m")
        .await
        .unwrap();
    let report = verify_jsonl(&log, None);
    assert!(report.is_ok(), "{report:?}");
    let takeover = log
        .lines()
        .filter_map(
            |l| match baffle_core::audit::export::parse_line(l).unwrap() {
                baffle_core::audit::export::Line::Record(r) => {
                    match Body::parse(&r.body, Some(GameType::Backgammon)).unwrap() {
                        Body::Takeover(t) => Some(t),
                        _ => None,
                    }
                }
                baffle_core::audit::export::Line::End { .. } => None,
            },
        )
        .next()
        .expect("a takeover record");
    let credit = i64::try_from(takeover.credit_ms.expect("a credit")).unwrap();
    let outage = takeover.at - killed_at;
    eprintln!(
        "outage {outage} ms on the match's clock, credit {credit} ms (lease {} ms)",
        LEASE.as_millis()
    );
    let lease = i64::try_from(LEASE.as_millis()).unwrap();
    assert_eq!(takeover.epoch, 2);
    assert_eq!(takeover.node, "n2");
    assert!(
        credit >= lease,
        "nothing is claimed before the lease ran out: {credit}"
    );
    assert!(credit <= MAX_TAKEOVER_CREDIT.as_ms());
    // The player pays for no more of the outage than the moment between the claim and
    // the takeover's record (and the ticker's step); he gains at most a quarter lease
    // (the dead node's last renewal before it died), and the statements' time.
    let slack = 100;
    assert!(
        credit >= outage - slack,
        "charged {} ms of the outage",
        outage - credit
    );
    assert!(
        credit <= outage + lease / 4 + slack,
        "credited {} ms more than the outage",
        credit - outage
    );
    // The running side's flag moved by exactly the credit.
    assert!(takeover.side.is_some(), "{takeover:?}");
    assert_eq!(
        after.clock.unwrap().next_flag_at_ms.unwrap(),
        flag_before + credit,
        "the flag moved by the credit"
    );
}

/// The fence in the commit transaction: a node whose lease was taken behind its back
/// (it still believes it holds it) writes nothing; and an expired lease is claimed with
/// a new epoch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_node_can_never_append() {
    if !pg::available() {
        return;
    }
    let db = PgCluster::start(false);
    let url = db.database("fence");
    let long = Duration::from_secs(30);
    let a = PgStore::connect_node(&url, Fence::new("a".into(), "http://a".into(), long))
        .await
        .unwrap();
    a.lease_new("m/x").await.unwrap();
    a.append("m/x", 0, vec![b"one".to_vec()]).await.unwrap();
    // A stream a holds no lease of is not a's to write.
    assert!(matches!(
        a.append("m/y", 0, vec![b"no".to_vec()]).await,
        Err(StoreError::Fenced(_))
    ));
    // The lease passes to b behind a's back.
    let sql = baffle_tests::pg::session(&url).await;
    sql.execute(
        "UPDATE baffle_leases SET node = 'b', epoch = epoch + 1 WHERE stream = 'm/x'",
        &[],
    )
    .await
    .unwrap();
    assert!(a.holds("m/x"), "a still believes it holds the lease");
    let refused = a.append("m/x", 1, vec![b"two".to_vec()]).await;
    assert!(matches!(refused, Err(StoreError::Fenced(_))), "{refused:?}");
    assert_eq!(a.len("m/x").unwrap(), 1);
    // A lease that ran out is claimed by a live node, with the next epoch.
    let short = Duration::from_millis(300);
    let b = PgStore::connect_node(&url, Fence::new("b".into(), "http://b".into(), short))
        .await
        .unwrap();
    let c = PgStore::connect_node(&url, Fence::new("c".into(), "http://c".into(), short))
        .await
        .unwrap();
    c.lease_new("m/z").await.unwrap();
    c.renew_leases().await.unwrap();
    let claimed = eventually("b claims c's lease once it ran out", || {
        let b = b.clone();
        async move { Some(b.claim_leases().await.unwrap()).filter(|c| !c.is_empty()) }
    })
    .await;
    assert!(
        claimed.iter().any(|l| l.stream == "m/z" && l.epoch == 2),
        "{claimed:?}"
    );
    // c's silence since its renewal is measured by the database: at least the lease
    // that ran out.
    let silent = claimed[0].silent_ms.expect("c's silence, measured");
    assert!(silent >= 300, "{claimed:?}");
    assert!(b.holds("m/z") && !c.holds("m/z"));
    let lost = c.renew_leases().await.unwrap();
    assert_eq!(lost, vec!["m/z".to_string()]);
    assert!(matches!(
        c.append("m/z", 0, vec![b"late".to_vec()]).await,
        Err(StoreError::Fenced(_))
    ));
    b.append("m/z", 0, vec![b"mine".to_vec()]).await.unwrap();
}

/// A dead node's matches are shared out in one claim of each live node: a node is live
/// while its last sign of life is younger than a lease, so the dead one — whose leases
/// ran out exactly a lease after its last renewal — no longer counts when they can be
/// claimed. (It counted for two leases: the live nodes took a third each, then one a
/// tick, and the last of 24 matches waited 3.9 s with 2 s leases.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_matches_are_shared_out_in_one_claim_of_each_live_node() {
    if !pg::available() {
        return;
    }
    let db = PgCluster::start(false);
    let url = db.database("share");
    // Every node says it is alive; then a dies.
    let [_a, b, c] =
        baffle_tests::cluster::three_stores(&url, Duration::from_millis(300), 12).await;
    let first = eventually("b claims once a's leases ran out", || {
        let (b, c) = (b.clone(), c.clone());
        async move {
            c.renew_leases().await.unwrap();
            b.renew_leases().await.unwrap();
            Some(b.claim_leases().await.unwrap()).filter(|got| !got.is_empty())
        }
    })
    .await;
    assert_eq!(
        first.len(),
        6,
        "half of 12 between two live nodes: {first:?}"
    );
    c.renew_leases().await.unwrap();
    let second = c.claim_leases().await.unwrap();
    assert_eq!(second.len(), 6, "the other half: {second:?}");
    assert!(
        first.iter().chain(&second).all(|l| l.epoch == 2),
        "each taken over once"
    );
}

/// What a node with `token` and the seal and signing keys made of `seal` and `signing`
/// shows the cluster when it joins.
fn checks_of(token: &str, seal: u8, signing: u8) -> baffle_server::store::JoinChecks {
    let seal = baffle_server::seal::SealKey::from_key_file([seal; 32], "seal.key".as_ref());
    let keys = baffle_server::seal::SealKeys::new(token, Some(seal));
    let signer = baffle_server::signing::HeadSigner::from_secret([signing; 32]);
    baffle_server::cluster::join_checks(&keys, &signer).unwrap()
}

/// The checks of a node with `token` and the cluster's seal and signing keys.
fn token_check(token: &str) -> baffle_server::store::JoinChecks {
    checks_of(token, 1, 1)
}

/// A node with another director token, seal key or signing key, or with the id of a
/// node that is alive, may not join (from a stranger's run: the first claimed matches
/// whose seeds it could not unseal, and kept them offline; the second took a live node's
/// matches, which then stayed unwritten). A node that stopped lets its id go at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_with_another_token_or_a_live_nodes_id_may_not_join() {
    if !pg::available() {
        return;
    }
    let db = PgCluster::start(false);
    let url = db.database("joining");
    let lease = Duration::from_millis(300);
    let node = |name: &str| {
        let fence = Fence::new(name.into(), format!("http://{name}"), lease);
        PgStore::connect_node(&url, fence)
    };
    let a = node("a").await.unwrap();
    a.start_leases(vec![], token_check("t1")).await.unwrap();
    a.renew_leases().await.unwrap();

    let b = node("b").await.unwrap();
    let refused = b.start_leases(vec![], token_check("t2")).await;
    assert!(
        matches!(&refused, Err(StoreError::Refused(why)) if why.contains("director token")),
        "{refused:?}"
    );
    // The cluster's token with a seal key of its own: its seeds would not unseal here.
    let refused = b.start_leases(vec![], checks_of("t1", 2, 1)).await;
    assert!(
        matches!(&refused, Err(StoreError::Refused(why)) if why.contains("seal key")),
        "{refused:?}"
    );
    let refused = b.start_leases(vec![], checks_of("t1", 1, 2)).await;
    assert!(
        matches!(&refused, Err(StoreError::Refused(why)) if why.contains("signing key")),
        "{refused:?}"
    );

    // `a` alive, renewing every quarter lease: a second `a` is refused.
    let alive = {
        let a = a.clone();
        tokio::spawn(async move {
            loop {
                a.renew_leases().await.unwrap();
                tokio::time::sleep(lease / 4).await;
            }
        })
    };
    let twin = node("a").await.unwrap();
    let refused = twin.start_leases(vec![], token_check("t1")).await;
    assert!(
        matches!(&refused, Err(StoreError::Refused(why)) if why.contains("another node with the id a")),
        "{refused:?}"
    );
    // Nor with a shorter lease: `a` is alive by its own lease, not the newcomer's (a
    // stranger's namesake with 200 ms leases against 1 s ones got in and took a's matches).
    let short = Fence::new("a".into(), "http://a-short".into(), lease / 10);
    let short = PgStore::connect_node(&url, short).await.unwrap();
    let refused = short.start_leases(vec![], token_check("t1")).await;
    assert!(
        matches!(&refused, Err(StoreError::Refused(why)) if why.contains("another node with the id a")),
        "{refused:?}"
    );
    // Stopped, it lets its id go: a restart joins at once.
    alive.abort();
    a.release_leases().await.unwrap();
    let started = Instant::now();
    twin.start_leases(vec![], token_check("t1")).await.unwrap();
    assert!(started.elapsed() < lease, "{:?}", started.elapsed());
}

/// A lease is held by the epoch one process was given, not by a node's name: a process
/// whose lease passed to a namesake (one started with its `--node-id` while it was
/// paused) loses it at its next renewal and can never append. (It renewed by name, took
/// the namesake's epoch for its own, and its appends would have passed the fence.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_namesake_never_renews_or_writes_anothers_lease() {
    if !pg::available() {
        return;
    }
    let db = PgCluster::start(false);
    let url = db.database("namesake");
    let fence = Fence::new("a".into(), "http://a".into(), Duration::from_secs(30));
    let a = PgStore::connect_node(&url, fence).await.unwrap();
    a.lease_new("m/x").await.unwrap();
    a.append("m/x", 0, vec![b"one".to_vec()]).await.unwrap();
    // The namesake claims it: same node, next epoch.
    let sql = baffle_tests::pg::session(&url).await;
    sql.execute(
        "UPDATE baffle_leases SET epoch = epoch + 1 WHERE stream = 'm/x'",
        &[],
    )
    .await
    .unwrap();
    assert_eq!(a.renew_leases().await.unwrap(), vec!["m/x".to_string()]);
    assert!(!a.holds("m/x"));
    assert!(matches!(
        a.append("m/x", 1, vec![b"two".to_vec()]).await,
        Err(StoreError::Fenced(_))
    ));
    assert_eq!(a.len("m/x").unwrap(), 1);
}

/// A device bound or unbound on one node is listed so on the others (a stranger's run:
/// bound on n1, it was missing from n2's and n3's listings, and after a rebind on n3
/// two nodes listed it at two matches).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_binding_made_on_one_node_is_listed_on_the_other() {
    use baffle_proto::v1::devices_client::DevicesClient;
    if !pg::available() {
        return;
    }
    let c = two_nodes("bindings").await;
    let mut d1 = director(&c.n1).await;
    d1.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d1.create_match("open", "m", 7, EPOCH.as_ms()).await;
    d1.create_match("open", "k", 7, EPOCH.as_ms()).await;
    let mut devices = DevicesClient::new(c.n1.channel().await);
    devices
        .register_device(c.n1.director(v1::RegisterDeviceRequest {
            device_id: "d1".into(),
        }))
        .await
        .unwrap();
    let bind = |m: &str| {
        c.n1.director(v1::BindDeviceRequest {
            device_id: "d1".into(),
            match_id: m.into(),
        })
    };
    let d2 = director(&c.n2).await;
    let listed_at = |want: Option<&'static str>| {
        let d2 = d2.clone();
        eventually("node 2 lists the device where it is bound", move || {
            let mut d2 = d2.clone();
            async move {
                let (m, k) = (d2.state_opt("m").await?, d2.state_opt("k").await?);
                let at = |s: &v1::MatchState| s.devices.iter().any(|d| d.device_id == "d1");
                let now = match (at(&m), at(&k)) {
                    (true, false) => Some("m"),
                    (false, true) => Some("k"),
                    (false, false) => None,
                    (true, true) => return None,
                };
                (now == want).then_some(())
            }
        })
    };
    devices.bind_device(bind("m")).await.unwrap();
    listed_at(Some("m")).await;
    devices.bind_device(bind("k")).await.unwrap();
    listed_at(Some("k")).await;
    devices
        .unbind_device(c.n1.director(v1::UnbindDeviceRequest {
            device_id: "d1".into(),
        }))
        .await
        .unwrap();
    listed_at(None).await;
}
