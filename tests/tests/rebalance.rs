//! Rebalancing (`docs/cluster.md`, "Rebalancing"): a node that joins, or comes back,
//! takes a fair share of the matches by clean hand-overs — the old owner stops writing
//! after the command in flight, lets the lease go marked for the new one, which claims it
//! at its next tick — never by waiting for a lease to run out; a client hammering
//! commands through the hand-overs gets every acknowledged command in the exported log
//! exactly once, and every refusal is UNAVAILABLE, naming the new owner or no one.
//!
//! Leases are 2 s here, so a match moved by a lease running out would be silent at
//! least ¾ of one (its old owner stops writing at ¾ lease, the claim waits for the
//! whole): each hand-over must keep its match silent under half a lease. Lease times are
//! the database's, so the tests wait in real time (bounded polls, never a fixed sleep).
//! Skipped where PostgreSQL is missing, unless `BAFFLE_PG_TEST=required` (as in CI).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use baffle_core::audit::verify::verify_jsonl;
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_server::store::{EventStore, Fence};
use baffle_server::time::ManualTime;
use baffle_tests::api::{A, B, Director, defaults, opening, roll};
use baffle_tests::cluster::{TestNode, eventually, three_stores};
use baffle_tests::pg::{self, PgCluster};
use baffle_tests::{EPOCH, with_token};
use tonic::Code;

const LEASE: Duration = Duration::from_millis(2_000);

/// How many matches each node holds (leases in force, on its side).
fn held(node: &TestNode) -> usize {
    node.hub.store.fence().map_or(0, Fence::count)
}

/// The matches a node writes now (it has taken each over).
async fn writing(node: &TestNode) -> usize {
    let mut n = 0;
    for h in node.hub.match_handles().await {
        n += usize::from(h.is_owner());
    }
    n
}

/// A client of every node, as a director: it sends each command to the node it last
/// heard writes the match, follows `baffle-owner`, and retries the same request id
/// until the command is acknowledged.
#[derive(Clone)]
struct Client {
    nodes: HashMap<String, Director>,
    token: String,
}

#[derive(Default, Debug)]
struct Tally {
    /// Refusals naming the node that writes the match.
    redirected: u32,
    /// Refusals naming no node (a hand-over under way): retried shortly.
    unnamed: u32,
    /// The longest a command took from its first sending to its acknowledgement.
    slowest: Duration,
    /// The longest time between two acknowledgements.
    silent: Duration,
}

impl Client {
    async fn send(
        &self,
        at: &mut String,
        match_id: &str,
        action: Action,
        request_id: &str,
        tally: &mut Tally,
    ) -> v1::ExecuteReply {
        let first = Instant::now();
        loop {
            let mut d = self.nodes[at.as_str()].clone();
            let request = v1::ExecuteRequest {
                match_id: match_id.into(),
                command: Some(v1::Command {
                    action: Some(action.clone()),
                }),
                ruling: Some(v1::Ruling {
                    reason: "test".into(),
                    article: "2.3".into(),
                }),
                request_id: request_id.into(),
                expected_seq: None,
            };
            match d.matches.execute(with_token(request, &self.token)).await {
                Ok(reply) => {
                    tally.slowest = tally.slowest.max(first.elapsed());
                    return reply.into_inner();
                }
                Err(e) if e.code() == Code::Unavailable => match e.metadata().get("baffle-owner") {
                    Some(owner) => {
                        let owner = owner.to_str().expect("an address").to_string();
                        assert_ne!(&owner, at, "a node named itself: {e:?}");
                        assert!(self.nodes.contains_key(&owner), "{owner}");
                        tally.redirected += 1;
                        *at = owner;
                    }
                    None => {
                        assert!(
                            e.message().contains("retry in a moment"),
                            "an unnamed refusal says to retry: {e:?}"
                        );
                        tally.unnamed += 1;
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                },
                Err(e) => panic!("{match_id} {request_id}: {e:?}"),
            }
            assert!(
                first.elapsed() < Duration::from_secs(10),
                "{match_id} {request_id} never acknowledged"
            );
        }
    }
}

/// Plays `match_id` (after its opening roll) until `stop` is set: presses and rolls in
/// turn, each with its own request id. Returns each acknowledged command's kind and
/// the log's length after it, and the tally.
async fn hammer(
    client: Client,
    mut at: String,
    match_id: String,
    mover: i32,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> (Vec<(&'static str, u64)>, Tally) {
    let mut tally = Tally::default();
    let mut acked = Vec::new();
    let mut mover = mover;
    let mut last = Instant::now();
    let mut k = 0u32;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let other = if mover == A { B } else { A };
        let (kind, action) = match k % 2 {
            0 => ("bg.pressed", Action::Press(mover)),
            _ => ("dice.reported", roll(other, 3, 2)),
        };
        let rid = format!("{match_id}-{k}");
        let reply = client
            .send(&mut at, &match_id, action, &rid, &mut tally)
            .await;
        tally.silent = tally.silent.max(last.elapsed());
        last = Instant::now();
        acked.push((kind, reply.state.expect("a state").seq));
        if k % 2 == 1 {
            mover = other;
        }
        k += 1;
    }
    (acked, tally)
}

/// How a record of `kind` reads in an exported line (its body is a JSON string).
fn kind_of(kind: &str) -> String {
    format!("\\\"kind\\\":\\\"{kind}\\\"")
}

/// Every acknowledged command is in `log` once, at the place its reply said, and the
/// log holds no press or roll that was not acknowledged; the log verifies.
fn check_log(match_id: &str, log: &str, acked: &[(&'static str, u64)]) {
    let report = verify_jsonl(log, None);
    assert!(report.is_ok(), "{match_id}: {report:?}");
    let lines: Vec<&str> = log.lines().collect();
    for (kind, seq) in acked {
        let at = usize::try_from(*seq).unwrap() - 1;
        assert!(
            lines[at].contains(&kind_of(kind)),
            "{match_id}: record {at} is not the acknowledged {kind}: {}",
            lines[at]
        );
    }
    for kind in ["bg.pressed", "dice.reported"] {
        let logged = lines.iter().filter(|l| l.contains(&kind_of(kind))).count();
        let sent = acked.iter().filter(|(k, _)| *k == kind).count();
        assert_eq!(logged, sent, "{match_id}: each acknowledged {kind} once");
    }
}

/// Starts `n` matches on `node`, each with its opening roll; returns the side to move.
async fn matches_on(node: &TestNode, n: usize) -> Vec<(String, i32)> {
    let mut d = Director::on(node.channel().await, &node.token);
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    let mut made = Vec::new();
    for i in 0..n {
        let id = format!("m{i}");
        d.create_match("open", &id, 7, EPOCH.as_ms()).await;
        d.act(&id, Action::CheckIn(A)).await;
        d.act(&id, Action::CheckIn(B)).await;
        let s = d.act(&id, opening(6, 1)).await;
        made.push((id, s.turn_side));
    }
    made
}

/// The takeover records of `log`, as exported.
fn takeovers(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("table.takeover"))
        .map(str::to_string)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_joining_node_takes_its_share_by_hand_over_and_no_command_is_lost() {
    if !pg::available() {
        return;
    }
    const N: usize = 8;
    let db = PgCluster::start(false);
    let url = db.database("joining");
    let dir = Arc::new(tempfile::tempdir().expect("temp dir"));
    let time = ManualTime::new(EPOCH);
    let n1 = TestNode::start_with(&url, &dir, time.clone(), "n1", LEASE, true).await;
    let made = matches_on(&n1, N).await;
    assert_eq!(held(&n1), N, "alone, node 1 holds every match");
    // Node 2 joins; a client of both nodes, sending to node 1 first, hammers every match
    // from that moment. Node 1 hands its surplus over at its next tick.
    let n2 = TestNode::start_with(&url, &dir, time.clone(), "n2", LEASE, true).await;
    let joined = Instant::now();
    let mut nodes = HashMap::new();
    for n in [&n1, &n2] {
        nodes.insert(n.url.clone(), Director::on(n.channel().await, &n.token));
    }
    let client = Client {
        nodes,
        token: n1.token.clone(),
    };
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let players: Vec<_> = made
        .iter()
        .map(|(id, mover)| {
            let (client, at, id, stop) = (client.clone(), n1.url.clone(), id.clone(), stop.clone());
            tokio::spawn(hammer(client, at, id, *mover, stop))
        })
        .collect();
    let balanced = eventually("each node writes half the matches", || {
        let (n1, n2) = (&n1, &n2);
        async move {
            let (a, b) = (writing(n1).await, writing(n2).await);
            (a == N / 2 && b == N / 2 && held(n1) == N / 2 && held(n2) == N / 2)
                .then(|| joined.elapsed())
        }
    })
    .await;
    // Play on a little on the new owners, then stop and look.
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut worst = Tally::default();
    for ((id, _), player) in made.iter().zip(players) {
        let (acked, tally) = player.await.expect("the client ran");
        assert!(acked.len() > 2, "{id}: played through the hand-over");
        let log = baffle_client::audit::export_log(n1.channel().await, id)
            .await
            .unwrap();
        check_log(id, &log, &acked);
        // A match handed over has one takeover, by node 2, with no outage credited.
        for t in takeovers(&log) {
            assert!(!t.contains("credit_ms"), "no outage to credit: {t}");
            assert!(t.contains("n2") && t.contains(r#"\"epoch\":2"#), "{t}");
        }
        eprintln!("{id}: {} commands, {tally:?}", acked.len());
        worst.redirected += tally.redirected;
        worst.unnamed += tally.unnamed;
        worst.slowest = worst.slowest.max(tally.slowest);
        worst.silent = worst.silent.max(tally.silent);
    }
    eprintln!(
        "joined to balanced: {} ms; slowest command {} ms, longest silence {} ms; \
         {} redirected, {} told to retry",
        balanced.as_millis(),
        worst.slowest.as_millis(),
        worst.silent.as_millis(),
        worst.redirected,
        worst.unnamed
    );
    assert!(worst.redirected > 0, "the clients were sent to node 2");
    // No lease ran out: a match moved by one is silent at least ¾ lease.
    assert!(
        worst.silent < LEASE / 2,
        "a match was silent {} ms",
        worst.silent.as_millis()
    );
    assert!(balanced < LEASE * 2, "balanced {} ms", balanced.as_millis());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_node_gets_its_share_back() {
    if !pg::available() {
        return;
    }
    const N: usize = 6;
    let lease = Duration::from_millis(600);
    let db = PgCluster::start(false);
    let url = db.database("restarting");
    let dir = Arc::new(tempfile::tempdir().expect("temp dir"));
    let time = ManualTime::new(EPOCH);
    let n1 = TestNode::start_with(&url, &dir, time.clone(), "n1", lease, true).await;
    let made = matches_on(&n1, N).await;
    let mut n2 = TestNode::start_with(&url, &dir, time.clone(), "n2", lease, true).await;
    eventually("the matches are shared", || {
        let (n1, n2) = (&n1, &n2);
        async move { (writing(n1).await == N / 2 && writing(n2).await == N / 2).then_some(()) }
    })
    .await;
    // Node 2 dies: node 1 takes everything over once the leases run out.
    n2.kill();
    eventually("node 1 writes every match", || {
        let n1 = &n1;
        async move { (writing(n1).await == N).then_some(()) }
    })
    .await;
    drop(n2);
    // Node 2 comes back, and gets its share back by hand-overs.
    let back = TestNode::start_with(&url, &dir, time.clone(), "n2", lease, true).await;
    let started = Instant::now();
    eventually("node 2 writes its share again", || {
        let (n1, back) = (&n1, &back);
        async move { (writing(n1).await == N / 2 && writing(back).await == N / 2).then_some(()) }
    })
    .await;
    eprintln!(
        "restarted node balanced after {} ms",
        started.elapsed().as_millis()
    );
    // It plays them, and every log verifies.
    let mut d = Director::on(back.channel().await, &back.token);
    for (id, mover) in &made {
        let s = d.state(id).await;
        if back.hub.match_handle(id).await.is_ok_and(|h| h.is_owner()) {
            d.act(id, Action::Press(*mover)).await;
        }
        let log = baffle_client::audit::export_log(back.channel().await, id)
            .await
            .unwrap();
        let report = verify_jsonl(&log, None);
        assert!(report.is_ok(), "{id} at {}: {report:?}", s.seq);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_handed_over_is_claimed_by_its_node_alone_and_credits_nothing() {
    if !pg::available() {
        return;
    }
    let db = PgCluster::start(false);
    let url = db.database("handed");
    let [a, b, c] = three_stores(&url, Duration::from_millis(600), 4).await;
    let loads = a.lease_loads().await.unwrap();
    assert_eq!(
        loads,
        vec![("b".into(), 0), ("c".into(), 0), ("a".into(), 4)],
        "fewest first"
    );
    assert_eq!(
        baffle_server::cluster::rebalance_target("a", &loads).as_deref(),
        Some("b")
    );
    assert!(a.hand_over("m/3", "b").await.unwrap());
    assert!(!a.holds("m/3"), "a writes it no more");
    assert!(
        !a.hand_over("m/3", "b").await.unwrap(),
        "not a's to give twice"
    );
    // Counted for b already; a renewal of a's does not take it back.
    let loads = a.lease_loads().await.unwrap();
    assert!(loads.contains(&("b".into(), 1)), "{loads:?}");
    assert!(a.renew_leases().await.unwrap().is_empty());
    // Neither a (over its share) nor c (the lease is not handed to it) claims it.
    assert!(a.claim_leases().await.unwrap().is_empty());
    assert!(c.claim_leases().await.unwrap().is_empty());
    let got = b.claim_leases().await.unwrap();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (got[0].stream.as_str(), got[0].epoch, got[0].silent_ms),
        ("m/3", 2, None),
        "a new epoch, and no outage to credit: its holder was alive and let it go"
    );
    // A lease handed to a node that dies before it claims is claimed by another once
    // that node no longer counts as live.
    assert!(a.hand_over("m/2", "b").await.unwrap());
    let got = eventually("c claims what the dead b never did", || {
        let (a, c) = (a.clone(), c.clone());
        async move {
            a.renew_leases().await.unwrap();
            c.renew_leases().await.unwrap();
            Some(c.claim_leases().await.unwrap()).filter(|got| !got.is_empty())
        }
    })
    .await;
    let streams: Vec<&str> = got.iter().map(|g| g.stream.as_str()).collect();
    assert!(streams.contains(&"m/2"), "{got:?}");
}
