//! What an open follower stream costs the server (issue 18, item 7; docs/benchmarks.md):
//!
//! ```text
//! cargo bench -p baffle-benches --bench followers
//! BAFFLE_BENCH_STREAMS=20000 cargo bench -p baffle-benches --bench followers
//! ```
//!
//! Opens `BAFFLE_BENCH_STREAMS` streams (default 5,000) of one kind against a `baffled`
//! in this process, 200 to an HTTP/2 connection, waits until every one has its first
//! message, and reads the resident memory before and after. Each kind runs in a process
//! of its own (the bench starts itself again), so memory one kind freed cannot be counted
//! for the other: `Watch` (one match's updates) beside the baseline of the same run,
//! `WatchTournament` (whose frames are encoded once for all). The client ends are as
//! light as HTTP/2 allows (h2 directly, one task per connection), but are in the same
//! process: each figure is the server's cost plus the same small client cost.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use baffle_proto::v1;
use prost::Message;

mod common;
use common::{env, rss_bytes};

const PER_CONNECTION: usize = 200;

/// `count` streams on one connection, each of which reads its first chunk and then holds
/// the stream open without reading further (as an idle phone does).
async fn open_streams(
    addr: SocketAddr,
    path: &'static str,
    request: Vec<u8>,
    count: usize,
    ready: Arc<AtomicUsize>,
) {
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(connection);
    let mut body = vec![0u8];
    body.extend_from_slice(&(request.len() as u32).to_be_bytes());
    body.extend_from_slice(&request);
    let body = bytes::Bytes::from(body);
    let mut held = Vec::with_capacity(count);
    for _ in 0..count {
        client = client.ready().await.unwrap();
        let head = tonic::codegen::http::Request::post(format!("http://{addr}{path}"))
            .header("content-type", "application/grpc")
            .header("te", "trailers")
            .body(())
            .unwrap();
        let (response, mut send) = client.send_request(head, false).unwrap();
        send.send_data(body.clone(), true).unwrap();
        let mut recv = response.await.unwrap().into_body();
        let first = recv.data().await.expect("a first message").unwrap();
        let _ = recv.flow_control().release_capacity(first.len());
        ready.fetch_add(1, Ordering::Relaxed);
        held.push(recv);
    }
    std::future::pending::<()>().await;
}

/// Runs one kind in this process and prints its figure.
async fn measure(kind: &str, streams: usize) {
    let dir = tempfile::tempdir().unwrap();
    let hub = common::hub_with_one_chess_match(dir.path(), "bench", streams).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(baffle_server::serve(hub, listener, std::future::pending()));
    let (path, request) = match kind {
        "watch" => (
            "/baffle.v1.Matches/Watch",
            v1::WatchRequest {
                match_id: "m".into(),
                from_seq: 0,
            }
            .encode_to_vec(),
        ),
        _ => (
            "/baffle.v1.Matches/WatchTournament",
            v1::WatchTournamentRequest {
                tournament_id: "t".into(),
            }
            .encode_to_vec(),
        ),
    };
    // One connection's worth first, so that what the first streams bring (buffers,
    // tasks, the runtime's growth) is counted apart from what each further one costs.
    let ready = Arc::new(AtomicUsize::new(0));
    tokio::spawn(open_streams(
        addr,
        path,
        request.clone(),
        PER_CONNECTION,
        ready.clone(),
    ));
    while ready.load(Ordering::Relaxed) < PER_CONNECTION {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let before = rss_bytes();
    let started = Instant::now();
    let mut opened = PER_CONNECTION;
    while opened < streams {
        let on_this = (streams - opened).min(PER_CONNECTION);
        tokio::spawn(open_streams(
            addr,
            path,
            request.clone(),
            on_this,
            ready.clone(),
        ));
        opened += on_this;
    }
    while ready.load(Ordering::Relaxed) < streams {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let after = rss_bytes();
    let counted = (streams - PER_CONNECTION).max(1);
    println!(
        "{kind:>10}: {streams} open streams, ready in {:.1} s; resident {:.1} → {:.1} MiB: {:.1} KiB per stream",
        started.elapsed().as_secs_f64(),
        before as f64 / 1048576.0,
        after as f64 / 1048576.0,
        after.saturating_sub(before) as f64 / 1024.0 / counted as f64
    );
}

fn main() {
    let streams = env("BAFFLE_BENCH_STREAMS", 5_000) as usize;
    if let Ok(kind) = std::env::var("BAFFLE_BENCH_FOLLOWERS_KIND") {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(measure(&kind, streams));
        return;
    }
    println!("memory per open follower stream, server and light client ends together:");
    // Cargo's bench runner passes `--bench`: the children take only the environment.
    let me = std::env::current_exe().unwrap();
    for kind in ["tournament", "watch"] {
        let status = std::process::Command::new(&me)
            .env("BAFFLE_BENCH_FOLLOWERS_KIND", kind)
            .status()
            .unwrap();
        assert!(status.success(), "the {kind} run failed");
    }
}
