//! Automatic failover by a real manager (issue 33): PostgreSQL 15 under Patroni with etcd,
//! `synchronous_mode` and `synchronous_mode_strict` (`scripts/pg-patroni`), a `baffled`
//! node on the multi-host URL, and matches played while the primary fails — first its
//! postmaster killed with SIGKILL, then (the primary now being the other member) its
//! Patroni agent killed with SIGKILL and left down past the leader key's ttl, as a hung
//! agent or a slow service manager would. Each time Patroni promotes the synchronous
//! standby with no one asking, the node goes on by itself, and at the end the checker
//! reads every match's exported log: every acknowledged command is there once, in order.
//!
//! Measured and printed: from each fault to the first acknowledged command after the
//! silence it caused (docs/reliability.md, docs/benchmarks.md). Patroni's timings are the
//! test's (`baffle_tests::patroni::TIMINGS`), the production ones are in docs/cluster.md.
//!
//! Skipped where Patroni, etcd or PostgreSQL is missing, unless `BAFFLE_PG_TEST=required`
//! (as in CI, whose `.ci/run` installs them).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use baffle_tests::campaign::{Acked, check_export, drive};
use baffle_tests::patroni::{self, PatroniStack};
use baffle_tests::process_cluster::{ProcessCluster, TOKEN};
use baffle_tests::room::Room;

/// How long the killed agent stays down before its supervisor starts it again: past
/// the leader key's ttl (5 s), so that the standby is promoted meanwhile.
const AGENT_DOWN_SEC: u32 = 8;
/// Matches played at once.
const MATCHES: usize = 2;
/// Patroni members: a primary and two standbys, so that one is a synchronous standby
/// again at once after a promotion (with two, commits wait for the old primary to rejoin).
const MEMBERS: usize = 3;

/// Waits until the acknowledged commands pass `count` (at most `within`).
async fn progress(answered: &AtomicU64, count: u64, within: Duration, what: &str) {
    let started = Instant::now();
    while answered.load(Ordering::Relaxed) < count {
        assert!(
            started.elapsed() < within,
            "{what}: no progress in {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// From `fault` to the first acknowledgement after the longest silence that follows it
/// (a command acknowledged a few milliseconds after the fault was committed before it).
fn recovery(fault: Instant, played: &[Vec<Acked>]) -> Duration {
    let mut at: Vec<Instant> = played.iter().flatten().map(|p| p.at).collect();
    at.sort();
    let first = at.partition_point(|t| *t <= fault);
    let mut end = at
        .get(first)
        .copied()
        .expect("an acknowledgement after the fault");
    let mut longest = end - fault;
    for pair in at[first..].windows(2) {
        if pair[1] - pair[0] > longest {
            longest = pair[1] - pair[0];
            end = pair[1];
        }
    }
    end - fault
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn patroni_promotes_the_standby_by_itself_and_the_match_goes_on() {
    if !patroni::available() {
        return;
    }
    let stack = tokio::task::block_in_place(|| PatroniStack::start(MEMBERS, AGENT_DOWN_SEC));
    let url = stack.url.clone();
    let cluster = ProcessCluster::start_on(stack, url, 1, 1000).await;
    let room = Room::new(vec![cluster.url(0)], vec![cluster.channel(0)], TOKEN)
        .with_patience(Duration::from_secs(90));
    let room = Arc::new(room);
    let placed: Vec<(String, usize)> = (0..MATCHES).map(|m| (format!("m{m}"), 0)).collect();
    let opened = room.open_matches("patroni", 60 * 60_000, 25, &placed).await;
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicU64::new(0));
    let drivers: Vec<_> = placed
        .iter()
        .zip(opened)
        .map(|((id, _), state)| {
            let (room, stop, answered) = (room.clone(), stop.clone(), answered.clone());
            tokio::spawn(drive(room, id.clone(), state, stop, usize::MAX, answered))
        })
        .collect();
    let within = Duration::from_secs(90);
    let mut faults = Vec::new();
    for fault in ["the primary's postmaster", "the primary's Patroni agent"] {
        let count = answered.load(Ordering::Relaxed);
        progress(&answered, count + 50, within, "before the fault").await;
        let pg = &cluster.pg;
        let old = pg.primary().expect("a primary");
        let at = Instant::now();
        match fault {
            "the primary's postmaster" => pg.kill_postmaster(old),
            _ => pg.kill_agent(old),
        }
        let count = answered.load(Ordering::Relaxed);
        // Promoted by Patroni: nothing here but watching.
        tokio::task::block_in_place(|| {
            pg.wait_until(within, "the standby promoted", |s| {
                s.primary().is_some_and(|p| p != old)
            })
        });
        let promoted = at.elapsed();
        // Strict mode: commits resume once the new primary has a synchronous standby
        // (`/sync` answers on the member Patroni names so, maybe before it streams).
        tokio::task::block_in_place(|| {
            pg.wait_until(within, "a synchronous standby named", |s| {
                s.sync_standby().is_some_and(|m| m != old)
            })
        });
        let synchronous = at.elapsed();
        progress(&answered, count + 50, within, "after the promotion").await;
        // Every member back, the old primary as a standby, and one synchronous standby,
        // before the next fault: until then a failover could lose commits.
        tokio::task::block_in_place(|| {
            pg.wait_until(within, "the old primary a standby again", |s| {
                s.rest(old, "/replica") == 200 && s.sync_standby().is_some()
            })
        });
        eprintln!(
            "{fault} killed: pg{old} failed over by Patroni, the standby promoted after \
             {promoted:?}, a synchronous standby named after {synchronous:?}, \
             every member back after {:?}",
            at.elapsed()
        );
        faults.push((fault, at));
    }
    stop.store(true, Ordering::Relaxed);
    let mut played = Vec::new();
    for driver in drivers {
        played.push(driver.await.unwrap());
    }
    let checker = cluster.channel(0);
    for ((id, _), acked) in placed.iter().zip(&played) {
        let export = baffle_client::audit::export_log(checker.clone(), id)
            .await
            .unwrap();
        check_export(id, &export, acked);
    }
    let total: usize = played.iter().map(Vec::len).sum();
    let times: Vec<String> = faults
        .iter()
        .map(|(fault, at)| format!("{fault}: {:?}", recovery(*at, &played)))
        .collect();
    println!(
        "Patroni failovers, {MATCHES} matches, {total} commands acknowledged: 0 lost, 0 twice; \
         from the fault to the first acknowledged command after it: {}",
        times.join(", ")
    );
}
