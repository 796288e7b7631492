//! Fan-out: 10,000 followers of one tournament, and the time from a press to the last
//! follower's copy of the new state (issue 10, docs/benchmarks.md):
//!
//! ```text
//! cargo bench -p baffle-benches --bench fanout
//! BAFFLE_BENCH_FOLLOWERS=1000 cargo bench -p baffle-benches --bench fanout
//! ```
//!
//! A `baffled` in this process on loopback TCP; the followers are `WatchTournament`
//! streams, 250 to a connection (the server allows 256), read by this same process on a
//! runtime of its own (`BAFFLE_BENCH_FOLLOWER_THREADS`, default 1). A director presses in a
//! chess match of the tournament every 100 ms; for each press the time runs from sending
//! it to the moment the last of the followers has the state it caused. The baseline in the
//! same run is the press's own round trip (its ack). The followers are as light as HTTP/2
//! allows (h2 directly, one task per connection, only `seq` decoded), standing in for
//! followers on devices of their own; `BAFFLE_BENCH_DECODE=full` makes them tonic clients
//! decoding every state whole. The CPU each side used per press is printed, so the
//! server's own cost can be told from the generator's.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use baffle_proto::v1;
use baffle_proto::v1::chess_command::Action as Chess;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use hdrhistogram::Histogram;
use tokio_stream::StreamExt;
use tonic::transport::{Channel, Endpoint};

mod common;
use common::{env, rss_bytes};

fn authed<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut r = tonic::Request::new(message);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

fn chess(action: Chess) -> Option<v1::Command> {
    Some(v1::Command {
        action: Some(Action::Chess(v1::ChessCommand {
            action: Some(action),
        })),
    })
}

/// What a light follower reads of each `MatchState`: its log position.
#[derive(Clone, PartialEq, prost::Message)]
struct SeqOnly {
    #[prost(uint64, tag = "21")]
    seq: u64,
}

/// When each follower saw each log position of the match.
struct Sightings {
    origin: Instant,
    /// The latest sighting of each position (µs since `origin`).
    last: Vec<AtomicU64>,
    /// How many followers saw each position.
    count: Vec<AtomicUsize>,
    /// Followers whose stream is open.
    ready: AtomicUsize,
}

impl Sightings {
    fn saw(&self, seq: u64) {
        let at = since(self.origin);
        if let Some(slot) = self.last.get(seq as usize) {
            slot.fetch_max(at, Ordering::Relaxed);
            self.count[seq as usize].fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// `count` followers on one HTTP/2 connection of their own, read by a single task straight
/// from h2 (no tonic, no hyper): each gRPC message is framed and its `seq` decoded. The
/// cheapest faithful follower, so that the followers sharing the server's two cores here
/// cost as little as they can (on phones, they cost the server nothing).
async fn light_followers(addr: std::net::SocketAddr, count: usize, seen: Arc<Sightings>) {
    use futures_util::stream::FuturesUnordered;
    use prost::Message;
    type Chunk = (h2::RecvStream, bytes::BytesMut, Option<bytes::Bytes>);

    async fn next_chunk(mut recv: h2::RecvStream, buf: bytes::BytesMut) -> Chunk {
        let data = recv.data().await.map(|d| d.unwrap());
        (recv, buf, data)
    }

    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    tcp.set_nodelay(true).unwrap();
    let (mut client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(connection);
    let request = v1::WatchTournamentRequest {
        tournament_id: "t".into(),
    }
    .encode_to_vec();
    let mut body = vec![0u8];
    body.extend_from_slice(&(request.len() as u32).to_be_bytes());
    body.extend_from_slice(&request);
    let body = bytes::Bytes::from(body);
    let mut reading = FuturesUnordered::new();
    for _ in 0..count {
        client = client.ready().await.unwrap();
        let head = tonic::codegen::http::Request::post(format!(
            "http://{addr}/baffle.v1.Matches/WatchTournament"
        ))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap();
        let (response, mut send) = client.send_request(head, false).unwrap();
        send.send_data(body.clone(), true).unwrap();
        let recv = response.await.unwrap().into_body();
        seen.ready.fetch_add(1, Ordering::Relaxed);
        reading.push(next_chunk(recv, bytes::BytesMut::new()));
    }
    while let Some((mut recv, mut buf, data)) = reading.next().await {
        let Some(data) = data else { continue };
        let _ = recv.flow_control().release_capacity(data.len());
        buf.extend_from_slice(&data);
        // gRPC framing: a flag byte, a 4-byte length, the message.
        while buf.len() >= 5 {
            let len = u32::from_be_bytes(buf[1..5].try_into().unwrap()) as usize;
            if buf.len() < 5 + len {
                break;
            }
            let message = buf.split_to(5 + len);
            seen.saw(SeqOnly::decode(&message[5..]).unwrap().seq);
        }
        reading.push(next_chunk(recv, buf));
    }
}

/// One follower through tonic's generated client, decoding every `MatchState` whole, as
/// the console and `baffle follow` do.
async fn full_follower(channel: Channel, seen: Arc<Sightings>) {
    let mut states = MatchesClient::new(channel)
        .watch_tournament(v1::WatchTournamentRequest {
            tournament_id: "t".into(),
        })
        .await
        .unwrap()
        .into_inner();
    seen.ready.fetch_add(1, Ordering::Relaxed);
    while let Some(Ok(state)) = states.next().await {
        seen.saw(state.seq);
    }
}

/// CPU time (ms, user + system) this process's threads have used, by group: the
/// followers' runtime (`follower`), the server's (`tokio-rt-worker`, the main
/// thread), and the rest (the store's committer, …). Linux only; empty elsewhere.
fn cpu_by_thread_group() -> std::collections::HashMap<&'static str, u64> {
    let mut groups = std::collections::HashMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return groups;
    };
    for task in tasks.flatten() {
        let path = task.path();
        let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        let stat = std::fs::read_to_string(path.join("stat")).unwrap_or_default();
        // Fields after the parenthesised name: state is the 3rd field, utime the 14th.
        let Some(rest) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i - 3).and_then(|f| f.parse::<u64>().ok());
        let (Some(user), Some(system)) = (ticks(14), ticks(15)) else {
            continue;
        };
        let group = match comm.trim() {
            "follower" => "follower",
            name if name.starts_with("tokio-r") || name.starts_with("fanout") => "server",
            _ => "other",
        };
        // Clock ticks are 10 ms on Linux (USER_HZ = 100).
        *groups.entry(group).or_insert(0) += (user + system) * 10;
    }
    groups
}

/// Microseconds since `origin`.
fn since(origin: Instant) -> u64 {
    origin.elapsed().as_micros() as u64
}

#[tokio::main]
async fn main() {
    let followers = env("BAFFLE_BENCH_FOLLOWERS", 10_000) as usize;
    let presses = env("BAFFLE_BENCH_PRESSES", 100) as usize;
    let full_decode = std::env::var("BAFFLE_BENCH_DECODE").as_deref() == Ok("full");
    // The load generator takes one thread unless told otherwise, so that it competes with
    // the server for the two cores as little as it can.
    let follower_threads = env("BAFFLE_BENCH_FOLLOWER_THREADS", 1) as usize;
    let dir = tempfile::tempdir().unwrap();
    let token = "bench".to_string();
    let hub = common::hub_with_one_chess_match(dir.path(), &token, followers).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let url = format!("http://{addr}");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(baffle_server::serve(hub, listener, async {
        let _ = stopped.await;
    }));
    let connect = || async {
        Endpoint::from_shared(url.clone())
            .unwrap()
            .tcp_nodelay(true)
            .connect()
            .await
            .unwrap()
    };

    // The followers: each records when it sees each log position of the match. They and
    // their connections run on a runtime of their own, so that the CPU each side spends
    // can be told apart (threads named `follower`).
    let seen = Arc::new(Sightings {
        origin: Instant::now(),
        last: (0..presses + 64).map(|_| AtomicU64::new(0)).collect(),
        count: (0..presses + 64).map(|_| AtomicUsize::new(0)).collect(),
        ready: AtomicUsize::new(0),
    });
    let origin = seen.origin;
    let follower_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(follower_threads)
        .thread_name("follower")
        .enable_all()
        .build()
        .unwrap();
    let resident_before = rss_bytes();
    let connections = followers.div_ceil(250);
    for c in 0..connections {
        let on_this = (followers - c * 250).min(250);
        if full_decode {
            let endpoint = Endpoint::from_shared(url.clone())
                .unwrap()
                .tcp_nodelay(true);
            let channel = follower_runtime
                .spawn(async move { endpoint.connect().await })
                .await
                .unwrap()
                .unwrap();
            for _ in 0..on_this {
                follower_runtime.spawn(full_follower(channel.clone(), seen.clone()));
            }
        } else {
            follower_runtime.spawn(light_followers(addr, on_this, seen.clone()));
        }
    }
    while seen.ready.load(Ordering::Relaxed) < followers {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Both ends of every stream are in this process: an upper bound on the server's share.
    println!(
        "resident memory per follower, server and follower ends together: {:.1} KiB",
        (rss_bytes().saturating_sub(resident_before)) as f64 / 1024.0 / followers as f64
    );
    println!(
        "{followers} followers on {connections} connections and {follower_threads} thread(s), ready in {:.1} s; {}",
        origin.elapsed().as_secs_f64(),
        if full_decode {
            "tonic clients decoding every MatchState whole"
        } else {
            "light h2 followers reading MatchState.seq (BAFFLE_BENCH_DECODE=full: tonic clients)"
        }
    );

    // The director: both players arrive, then a press every 100 ms.
    let mut director = MatchesClient::new(connect().await);
    let execute = |command| v1::ExecuteRequest {
        match_id: "m".into(),
        command,
        ..Default::default()
    };
    for color in [v1::Color::White, v1::Color::Black] {
        director
            .execute(authed(execute(chess(Chess::Arrive(color as i32))), &token))
            .await
            .unwrap();
    }
    let mut fan_out = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).unwrap();
    let mut from_ack = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).unwrap();
    let mut ack = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).unwrap();
    let mut sent = Vec::new();
    let colors = [v1::Color::White as i32, v1::Color::Black as i32];
    let cpu_before = cpu_by_thread_group();
    for p in 0..presses {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let start = since(origin);
        let reply = director
            .execute(authed(execute(chess(Chess::Press(colors[p % 2]))), &token))
            .await
            .unwrap()
            .into_inner();
        let acked = since(origin);
        ack.record((acked - start).max(1)).unwrap();
        let state = reply.state.unwrap();
        if p == 0 {
            use prost::Message;
            println!("a follower's update: {} bytes", state.encoded_len());
        }
        let seq = state.seq as usize - 1;
        sent.push((seq, start, acked));
    }
    // Let the last copies arrive.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let cpu_after = cpu_by_thread_group();
    let mut incomplete = 0;
    for (seq, start, acked) in sent {
        // The state after the press's event has `seq` = the event's position + 1.
        let slot = seq + 1;
        if seen.count[slot].load(Ordering::Relaxed) < followers {
            incomplete += 1;
            continue;
        }
        let last = seen.last[slot].load(Ordering::Relaxed);
        fan_out.record((last - start).max(1)).unwrap();
        // Some followers may have it before the director has its ack.
        from_ack.record(last.saturating_sub(acked).max(1)).unwrap();
    }
    let ms = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1_000.0;
    println!(
        "press ack (baseline)          p50 {:>7.1} ms  p99 {:>7.1} ms",
        ms(&ack, 0.5),
        ms(&ack, 0.99)
    );
    println!(
        "press → last of {followers} followers p50 {:>7.1} ms  p99 {:>7.1} ms  max {:>7.1} ms  ({} presses, {incomplete} not seen by all)",
        ms(&fan_out, 0.5),
        ms(&fan_out, 0.99),
        ms(&fan_out, 1.0),
        fan_out.len()
    );
    println!(
        "ack → last of {followers} followers   p50 {:>7.1} ms  p99 {:>7.1} ms  max {:>7.1} ms  (from the press's acceptance, as the director sees it)",
        ms(&from_ack, 0.5),
        ms(&from_ack, 0.99),
        ms(&from_ack, 1.0),
    );
    let cpu_ms = |group: &str| {
        (cpu_after.get(group).copied().unwrap_or(0) - cpu_before.get(group).copied().unwrap_or(0))
            as f64
            / presses as f64
    };
    println!(
        "CPU per press and its fan-out: server {:.1} ms, followers {:.1} ms, other {:.1} ms",
        cpu_ms("server"),
        cpu_ms("follower"),
        cpu_ms("other")
    );
    let _ = stop.send(());
    follower_runtime.shutdown_background();
    let _ = tokio::time::timeout(Duration::from_secs(10), server).await;
}
