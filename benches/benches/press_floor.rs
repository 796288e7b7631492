//! The press round trip against its physical floor, in one run (issue 10,
//! docs/benchmarks.md): `cargo bench -p baffle-benches --bench press_floor`.
//!
//! - **ping**: a bare `grpc.health.v1` check on the device's own connection;
//! - **flush**: one append of one record to a fresh sled store (group commit with its
//!   flush and `fsync`), the least a durable press can cost;
//! - **floor** = ping + flush;
//! - **press**: a simulated device presses through its stream and waits for the ack
//!   (device stream, match actor, durable append of the `device.input` record and the
//!   press's events, ack);
//! - **store rate**: appends per second to the raw store from many streams at once, the
//!   batched insert-and-flush rate that bounds sustained presses.
//!
//! `BAFFLE_BENCH_N` sets the samples (default 400).
//!
//! Where PostgreSQL 15 is installed, the same follows on the PostgreSQL store (issue 22):
//! a primary with a synchronous standby on loopback (the tests' harness), where "one
//! flush" is one append's COMMIT, acknowledged by the standby.

use std::time::{Duration, Instant};

use baffle_firmware_sim::demo::Tables;
use baffle_firmware_sim::device::{Device, DeviceConfig};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_server::hub::Hub;
use baffle_server::store::{EventStore, PgStore, SledStore};
use baffle_server::time::SystemTime_;
use hdrhistogram::Histogram;

mod common;
use common::{env, raw_store_rate};
use tonic::transport::Endpoint;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).unwrap()
}

fn row(name: &str, h: &Histogram<u64>) {
    let ms = |q: f64| h.value_at_quantile(q) as f64 / 1_000.0;
    println!(
        "{name:<22} p50 {:>8.3} ms   p99 {:>8.3} ms   ({} samples)",
        ms(0.5),
        ms(0.99),
        h.len()
    );
}

#[tokio::main]
async fn main() {
    let n = env("BAFFLE_BENCH_N", 400) as usize;
    let raw_dir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let token = baffle_server::auth::director_token(&dir.path().join("director.token")).unwrap();
    let raw = SledStore::open(raw_dir.path()).unwrap();
    let store = SledStore::open(&dir.path().join("store")).unwrap();
    println!("== sled (the embedded store)");
    floor(raw, store, &token, n).await;
    // The store's batched rate after the presses: its big store's teardown (sled's
    // threads, the files) must not overlap them.
    let store_rate = raw_store_rate(1_000, 3).await;
    println!("raw store, 1,000 streams  {store_rate:.0} appends/s (each durable)");
    if baffle_tests::pg::available() {
        let cluster = baffle_tests::pg::PgCluster::start(true);
        let raw = PgStore::connect(&cluster.database("raw")).await.unwrap();
        let store = PgStore::connect(&cluster.database("floor")).await.unwrap();
        println!("== PostgreSQL, a primary with a synchronous standby");
        floor(raw, store, &token, n).await;
    }
}

/// The ping, one append (`raw`, fresh) and a device's press through a server on `store`
/// (fresh), `n` times each; prints them and the press over its floor.
async fn floor<S: EventStore + Clone>(raw: S, store: S, token: &str, n: usize) {
    // One flush: single appends to a fresh store, one at a time.
    let record = vec![b'x'; 200];
    let mut flush = histogram();
    for i in 0..n as u64 {
        let t = Instant::now();
        raw.append("raw", i, vec![record.clone()]).await.unwrap();
        flush.record(t.elapsed().as_micros().max(1) as u64).unwrap();
    }

    // The server, in this process, on the system clock.
    let keys = baffle_server::keys::ServerKeys::fresh(token.to_string()).unwrap();
    let hub = Hub::open(store, SystemTime_, keys).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(baffle_server::serve(hub, listener, async {
        let _ = stopped.await;
    }));
    let channel = Endpoint::from_shared(url).unwrap().connect().await.unwrap();
    let defaults = v1::TournamentDefaults {
        per_point_ms: 60 * 60_000,
        delay_ms: Some(12_000),
        ..Default::default()
    };
    let mut tables = Tables::create(channel.clone(), token, "bench", defaults)
        .await
        .unwrap();
    let (m, credential) = tables.add(25, ("A", "B")).await.unwrap();
    let mut device = Device::connect(DeviceConfig {
        sync_every: Duration::from_secs(1),
        ..DeviceConfig::new(channel.clone(), &format!("{m}-clock"), &credential)
    })
    .await
    .unwrap();
    let mut side = device.begin_match().await.unwrap();

    let mut health = HealthClient::new(channel);
    let (mut ping, mut press) = (histogram(), histogram());
    for _ in 0..n {
        let t = Instant::now();
        health
            .check(HealthCheckRequest {
                service: String::new(),
            })
            .await
            .unwrap();
        ping.record(t.elapsed().as_micros().max(1) as u64).unwrap();
        let acked = device.send(Action::Press(side)).unwrap().await.unwrap();
        assert!(acked.ack.applied, "{}", acked.ack.error);
        press
            .record(acked.stamped_at.elapsed().as_micros().max(1) as u64)
            .unwrap();
        side = if side == v1::Side::A as i32 {
            v1::Side::B as i32
        } else {
            v1::Side::A as i32
        };
        let roll = Action::Roll(v1::Roll {
            side,
            dice: vec![],
            link: vec![],
        });
        device.act(roll).await.unwrap();
    }

    let q = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1_000.0;
    row("bare ping", &ping);
    row("one store flush", &flush);
    row("press (device stream)", &press);
    let floor50 = q(&ping, 0.5) + q(&flush, 0.5);
    let floor99 = q(&ping, 0.99) + q(&flush, 0.99);
    println!("floor = ping + flush      p50 {floor50:>8.3} ms   p99 {floor99:>8.3} ms");
    println!(
        "press / floor             p50 {:.2}x        p99 {:.2}x   (targets: 1.2x, 2x)",
        q(&press, 0.5) / floor50,
        q(&press, 0.99) / floor99
    );
    drop(device);
    let _ = stop.send(());
    let _ = server.await;
}
