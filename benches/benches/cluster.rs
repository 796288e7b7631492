//! Several nodes on one PostgreSQL (issue 22, docs/benchmarks.md):
//! `cargo bench -p baffle-benches --bench cluster`. Three release `baffled` nodes on a
//! primary with its synchronous standby, on loopback (the tests' harness), driven by the
//! tests' independent room client.
//!
//! - **failover**: matches on every node are played as fast as answers come while a
//!   node is SIGKILLed; for each match the dead node owned, the time from the kill to
//!   its next answered command. Its floor, printed beside it: the claim tick, a quarter
//!   lease (a dead node's sessions end at once, but the live nodes see it only at their
//!   next claim), and a command's round trip, both from the same run.
//! - **followers across nodes**: a command's update reaching a follower on another node
//!   than the match's owner (LISTEN/NOTIFY, then a read of the store), beside a follower
//!   on the owner itself and the command's own round trip, the same commands.
//!
//! `BAFFLE_BENCH_KILLS` (default 10), `BAFFLE_BENCH_N` (commands followed, default 300),
//! `BAFFLE_BENCH_LEASE_MS` (default 1000).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baffle_proto::v1;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_tests::process_cluster::{ProcessCluster as Cluster, TOKEN};
use baffle_tests::room::{Room, command, next_move};
use hdrhistogram::Histogram;
use tokio::sync::watch;

mod common;
use common::env;

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 600_000_000, 3).unwrap()
}

fn ms(h: &Histogram<u64>, q: f64) -> f64 {
    h.value_at_quantile(q) as f64 / 1000.0
}

fn room_of(cluster: &Cluster) -> Arc<Room> {
    let urls = (0..cluster.len()).map(|i| cluster.url(i)).collect();
    let channels = (0..cluster.len()).map(|i| cluster.channel(i)).collect();
    Arc::new(Room::new(urls, channels, TOKEN))
}

/// A match's answers: when each came, from which node, after how long.
type Answers = Arc<Mutex<Vec<(Instant, usize, Duration)>>>;

/// Plays `id` from `state` until `stop`, pushing each answer's instant and node.
async fn drive(
    room: Arc<Room>,
    id: String,
    mut state: v1::MatchState,
    stop: watch::Receiver<bool>,
    answers: Answers,
) {
    let (mut n, mut rolls) = (0, 0);
    while !*stop.borrow() {
        let (action, rolled) = next_move(&state, rolls);
        let sent = Instant::now();
        let answer = room
            .execute(command(&id, format!("{id}-{n}"), action))
            .await
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        answers
            .lock()
            .unwrap()
            .push((Instant::now(), answer.node, sent.elapsed()));
        state = answer.reply.state.unwrap();
        n += 1;
        rolls += usize::from(rolled.is_some());
    }
}

async fn failover(cluster: &mut Cluster, kills: u64) {
    let room = room_of(cluster);
    let placed: Vec<(String, usize)> = (0..12).map(|m| (format!("f{m}"), m % 3)).collect();
    let opened = room.open_matches("failover", 3_600_000, 25, &placed).await;
    let (stop_tx, stop) = watch::channel(false);
    let answers: Vec<Answers> = placed.iter().map(|_| Arc::default()).collect();
    let drivers: Vec<_> = placed
        .iter()
        .zip(opened)
        .zip(&answers)
        .map(|(((id, _), state), a)| {
            tokio::spawn(drive(
                room.clone(),
                id.clone(),
                state,
                stop.clone(),
                a.clone(),
            ))
        })
        .collect();
    let mut outage = histogram();
    let mut seed = 0x5eed_u64;
    for _ in 0..kills {
        tokio::time::sleep(Duration::from_millis(500)).await;
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let victim = (seed >> 33) as usize % cluster.len();
        // The victim's matches: those it answered last.
        let owned: Vec<usize> = (0..answers.len())
            .filter(|m| {
                answers[*m]
                    .lock()
                    .unwrap()
                    .last()
                    .is_some_and(|a| a.1 == victim)
            })
            .collect();
        let killed = Instant::now();
        cluster.kill(victim);
        for m in owned {
            let next = loop {
                let after = answers[m]
                    .lock()
                    .unwrap()
                    .iter()
                    .find(|a| a.0 > killed)
                    .map(|a| a.0);
                if let Some(at) = after {
                    break at;
                }
                tokio::time::sleep(Duration::from_millis(1)).await;
            };
            outage.record((next - killed).as_micros() as u64).unwrap();
        }
        cluster.restart(victim).await;
    }
    stop_tx.send(true).unwrap();
    let mut rtt = histogram();
    for d in drivers {
        d.await.unwrap();
    }
    for a in &answers {
        for (_, _, took) in a.lock().unwrap().iter() {
            rtt.record(took.as_micros().max(1) as u64).unwrap();
        }
    }
    println!(
        "failover, {kills} node kills, {} matches taken over: p50 {:.0} ms, p99 {:.0} ms, \
         max {:.0} ms | floor: the claim tick (a quarter lease) {} ms; command round trip \
         p50 {:.2} ms, p99 {:.2} ms",
        outage.len(),
        ms(&outage, 0.5),
        ms(&outage, 0.99),
        outage.max() as f64 / 1000.0,
        (cluster.lease() / 4).as_millis(),
        ms(&rtt, 0.5),
        ms(&rtt, 0.99),
    );
}

/// Follows `id` on `channel`, sending each update's seq and arrival.
async fn follow(
    channel: tonic::transport::Channel,
    id: String,
    from_seq: u64,
    seen: watch::Sender<(u64, Instant)>,
) {
    let mut updates = MatchesClient::new(channel)
        .watch(v1::WatchRequest {
            match_id: id,
            from_seq,
        })
        .await
        .unwrap()
        .into_inner();
    while let Ok(Some(update)) = updates.message().await {
        let seq = update.state.map_or(0, |s| s.seq);
        let _ = seen.send((seq, Instant::now()));
    }
}

async fn followers(cluster: &Cluster, n: u64) {
    let room = room_of(cluster);
    let owner = 0;
    let opened = room
        .open_matches("follow", 3_600_000, 25, &[("w1".into(), owner)])
        .await;
    let mut state = opened.into_iter().next().unwrap();
    let (near_tx, mut near) = watch::channel((0, Instant::now()));
    let (far_tx, mut far) = watch::channel((0, Instant::now()));
    let next = state.seq;
    tokio::spawn(follow(cluster.channel(owner), "w1".into(), next, near_tx));
    tokio::spawn(follow(cluster.channel(1), "w1".into(), next, far_tx));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (mut rtt, mut on_owner, mut across) = (histogram(), histogram(), histogram());
    let mut rolls = 0;
    for i in 0..n {
        let (action, rolled) = next_move(&state, rolls);
        let sent = Instant::now();
        let answer = room
            .execute(command("w1", format!("w1-{i}"), action))
            .await
            .unwrap();
        rtt.record(sent.elapsed().as_micros().max(1) as u64)
            .unwrap();
        state = answer.reply.state.unwrap();
        rolls += usize::from(rolled.is_some());
        for (follower, h) in [(&mut near, &mut on_owner), (&mut far, &mut across)] {
            let seen = follower.wait_for(|(seq, _)| *seq >= state.seq);
            let (_, at) = *tokio::time::timeout(Duration::from_secs(5), seen)
                .await
                .expect("the follower sees the update within 5 s")
                .unwrap();
            h.record((at - sent).as_micros().max(1) as u64).unwrap();
        }
    }
    let line = |h: &Histogram<u64>| format!("p50 {:.2} ms, p99 {:.2} ms", ms(h, 0.5), ms(h, 0.99));
    println!(
        "followers, {n} commands, from the command sent to its update: on another node \
         {} | on the owner {} | the command's own round trip {}",
        line(&across),
        line(&on_owner),
        line(&rtt)
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let lease = env("BAFFLE_BENCH_LEASE_MS", 1000);
    let Some(mut cluster) = Cluster::start(3, lease).await else {
        return;
    };
    followers(&cluster, env("BAFFLE_BENCH_N", 300)).await;
    failover(&mut cluster, env("BAFFLE_BENCH_KILLS", 10)).await;
}
