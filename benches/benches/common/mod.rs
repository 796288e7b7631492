//! What every benchmark shares: the allocator `baffled` runs with, settings from the
//! environment, the raw store's batched rate (the baseline of sustained presses), and the
//! process's resident memory.

// Each bench uses what it needs of this module.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use baffle_server::store::{EventStore, SledStore};

/// The allocator `baffled` runs with, so that every bench measures what it ships.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The number in environment variable `name`, or `default`.
pub fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The raw store: `streams` streams appending one 200-byte record each as fast as they
/// can, for `seconds`. Returns durable appends per second.
pub async fn raw_store_rate(streams: u64, seconds: u64) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    raw_rate_of(SledStore::open(dir.path()).unwrap(), streams, seconds).await
}

/// [`raw_store_rate`] on any (fresh) store.
pub async fn raw_rate_of<S: EventStore>(store: S, streams: u64, seconds: u64) -> f64 {
    let raw = Arc::new(store);
    let record = vec![b'x'; 200];
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let writers: Vec<_> = (0..streams)
        .map(|s| {
            let raw = raw.clone();
            let record = record.clone();
            tokio::spawn(async move {
                let mut i = 0u64;
                while Instant::now() < deadline {
                    raw.append(&format!("s{s}"), i, vec![record.clone()])
                        .await
                        .unwrap();
                    i += 1;
                }
                i
            })
        })
        .collect();
    let mut appends = 0;
    for w in writers {
        appends += w.await.unwrap();
    }
    appends as f64 / started.elapsed().as_secs_f64()
}

/// This process's resident memory in bytes (Linux; 0 elsewhere).
pub fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// A classical chess match starting at `start` with an hour's default time, as the
/// benches create them.
pub fn classical_chess(start: baffle_core::Timestamp) -> baffle_core::chess::ChessSettings {
    baffle_core::chess::ChessSettings {
        players: ["a".into(), "b".into()],
        control: baffle_core::clock::TimeControl::fide_classical(),
        games: 1,
        start,
        default_time: baffle_core::Millis::mins(60),
        laws: baffle_core::chess::Laws::Fide2023,
        supervised: true,
        chess960: false,
    }
}

/// A hub on a sled store in `dir` with tournament "t" holding one classical chess match
/// "m" starting now, and room for `followers` anonymous streams: every follower a bench
/// opens comes from 127.0.0.1, so the per-address bound is lifted to the total.
pub async fn hub_with_one_chess_match(
    dir: &std::path::Path,
    token: &str,
    followers: usize,
) -> Arc<baffle_server::hub::Hub<SledStore, baffle_server::time::SystemTime_>> {
    use baffle_server::time::TimeSource;
    let store = SledStore::open(&dir.join("store")).unwrap();
    let time = baffle_server::time::SystemTime_;
    let keys = baffle_server::keys::ServerKeys::in_dir(dir, token.into()).unwrap();
    let hub = baffle_server::hub::Hub::open(store, time, keys)
        .await
        .unwrap();
    hub.followers
        .set_limits(baffle_server::followers::FollowerLimits {
            total: followers + 1,
            per_address: followers + 1,
        });
    hub.create_tournament("t", "bench", Default::default())
        .await
        .unwrap();
    let start = time.now();
    hub.create_match(baffle_server::hub::NewMatch {
        info: baffle_core::table::MatchInfo {
            id: "m".into(),
            tournament: "t".into(),
            round: 1,
            table: "1".into(),
        },
        players: ["a".into(), "b".into()],
        start,
        game: baffle_server::hub::NewGame::Chess(classical_chess(start)),
        replaces: None,
    })
    .await
    .unwrap();
    hub
}
