//! A frozen server — a process stopped with SIGSTOP: the kernel still accepts TCP
//! connections, nothing answers — is passed over by the clients (`docs/cluster.md`,
//! "Clients"; `docs/device-protocol.md`, "Reconnects"). Without SIGSTOP: a listener that
//! accepts and never answers stands for the frozen node, and a proxy that stops passing
//! bytes (its sockets held open) for a node that freezes mid-connection.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use baffle_client::cli::Cli;
use baffle_client::connect::{self, REQUEST_DEADLINE};
use baffle_client::run::{Outcome, run};
use baffle_firmware_sim::device::{Device, DeviceConfig};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_tests::api::{Director, defaults};
use baffle_tests::{EPOCH, TestServer};
use clap::Parser;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A "frozen" server's URL: a TCP listener that accepts every connection, holds it open
/// and never sends a byte.
fn frozen() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    url
}

/// A proxy to `upstream` (`host:port`) that, once `freeze` is set, passes nothing more
/// either way and holds its connections open, as a stopped process would. Its URL.
async fn freezable_proxy(upstream: String, freeze: Arc<AtomicBool>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let freeze = freeze.clone();
            let upstream = upstream.clone();
            tokio::spawn(async move {
                let server = tokio::net::TcpStream::connect(&upstream).await.unwrap();
                let (cr, cw) = client.into_split();
                let (sr, sw) = server.into_split();
                tokio::join!(pipe(cr, sw, freeze.clone()), pipe(sr, cw, freeze));
            });
        }
    });
    url
}

async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    freeze: Arc<AtomicBool>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if freeze.load(Ordering::SeqCst) {
            // Frozen: hold both sockets, pass nothing, forever.
            std::future::pending::<()>().await;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

/// A server with tournament "open" and match "m" (server dice), and the director.
async fn server_with_a_match() -> (TestServer, Director) {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    (server, d)
}

async fn baffle(servers: &str, token: &str, args: &[&str]) -> (Outcome, Duration) {
    let mut all = vec!["baffle", "--server", servers, "--token", token];
    all.extend_from_slice(args);
    let cli = Cli::try_parse_from(all).expect("valid arguments");
    let started = Instant::now();
    // Bounded here too: before the fix this hung for good.
    let o = tokio::time::timeout(REQUEST_DEADLINE + Duration::from_secs(10), run(&cli))
        .await
        .unwrap_or_else(|_| panic!("`baffle {args:?}` hung"));
    (o, started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn baffle_passes_over_a_frozen_server_for_the_next_of_its_list() {
    let (server, _d) = server_with_a_match().await;
    let servers = format!("{},{}", frozen(), server.url());
    for args in [
        &["match", "show", "m"][..],
        &["tournament", "list"],
        &["play", "m", "check-in", "A"],
    ] {
        let (o, took) = baffle(&servers, &server.token, args).await;
        assert_eq!(o.code, 0, "{args:?}: {}{}", o.out, o.err);
        assert!(
            took < connect::ANSWER_WAIT + Duration::from_secs(2),
            "{args:?} took {took:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_baffle_program_answers_past_a_frozen_first_server() {
    let (server, _d) = server_with_a_match().await;
    let bin = baffle_tests::binaries::built(&["baffle"]);
    let servers = format!("{},{}", frozen(), server.url());
    let started = Instant::now();
    let child = tokio::process::Command::new(bin.join("baffle"))
        .args(["--server", &servers, "--token", &server.token])
        .args(["match", "show", "m"])
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(20), child)
        .await
        .expect("`baffle --server frozen,live match show m` hung")
        .unwrap();
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        took < connect::ANSWER_WAIT + Duration::from_secs(3),
        "took {took:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_frozen_server_ends_a_command_after_the_request_deadline() {
    let alone = frozen();
    let ((read, read_took), (play, play_took)) = tokio::join!(
        baffle(&alone, "t", &["tournament", "list"]),
        baffle(&alone, "t", &["play", "m", "check-in", "A"]),
    );
    for (o, took) in [(&read, read_took), (&play, play_took)] {
        assert_ne!(o.code, 0, "{}", o.out);
        assert!(took >= REQUEST_DEADLINE, "{took:?}");
        assert!(took < REQUEST_DEADLINE + Duration::from_secs(3), "{took:?}");
    }
    // Every command, a read too, says the server did not answer: a connection failure.
    for o in [&read, &play] {
        assert_eq!(o.code, baffle_client::exit::CONNECTION, "{}", o.err);
        assert!(o.err.contains("did not answer within"), "{}", o.err);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follow_stream_outlives_the_request_deadline() {
    let (server, mut d) = server_with_a_match().await;
    let channel = connect::connect(&server.url()).await.unwrap();
    let mut stream = MatchesClient::new(channel)
        .watch(v1::WatchRequest {
            match_id: "m".into(),
            from_seq: 0,
        })
        .await
        .unwrap()
        .into_inner();
    stream.message().await.unwrap().expect("the match as it is");
    // Real time, not the server's clock: the request deadline is the client's.
    tokio::time::sleep(REQUEST_DEADLINE + Duration::from_millis(500)).await;
    d.act("m", Action::CheckIn(v1::Side::A as i32)).await;
    let update = tokio::time::timeout(Duration::from_secs(5), stream.message())
        .await
        .expect("an update after the deadline")
        .expect("the stream is still open")
        .expect("not ended");
    assert!(
        update
            .state
            .is_some_and(|s| s.present.first() == Some(&true))
    );
}

async fn bound_device(server: &TestServer, d: &mut Director) -> String {
    d.device(server.channel().await, "t7", "m").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_device_passes_over_a_frozen_server_for_the_next_of_its_list() {
    let (server, mut d) = server_with_a_match().await;
    let credential = bound_device(&server, &mut d).await;
    let servers = format!("{},{}", frozen(), server.url());
    let cfg = DeviceConfig::for_url(&servers, "t7", &credential).unwrap();
    let started = Instant::now();
    let mut device = tokio::time::timeout(Duration::from_secs(8), Device::connect(cfg))
        .await
        .expect("the device reached the live server")
        .unwrap();
    let took = started.elapsed();
    assert!(
        took < baffle_firmware_sim::servers::CLUSTER_HELLO_WAIT + Duration::from_secs(2),
        "took {took:?}"
    );
    let acked = device
        .act(Action::CheckIn(v1::Side::A as i32))
        .await
        .unwrap();
    assert!(acked.ack.applied, "{:?}", acked.ack);
    device.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_device_leaves_a_server_that_freezes_under_it() {
    let (server, mut d) = server_with_a_match().await;
    let credential = bound_device(&server, &mut d).await;
    let freeze = Arc::new(AtomicBool::new(false));
    let upstream = server.url().trim_start_matches("http://").to_string();
    let proxy = freezable_proxy(upstream, freeze.clone()).await;
    // The device talks to the server through the proxy first; the server itself is the
    // next of its list.
    let servers = format!("{proxy},{}", server.url());
    let cfg = DeviceConfig::for_url(&servers, "t7", &credential).unwrap();
    let mut device = Device::connect(cfg).await.unwrap();
    assert_eq!(device.view().connections, 1);
    // Syncs are answered through the proxy.
    tokio::time::timeout(
        Duration::from_secs(5),
        device.wait_for(|v| v.offset_ms.is_some()),
    )
    .await
    .unwrap()
    .unwrap();
    freeze.store(true, Ordering::SeqCst);
    let frozen_at = Instant::now();
    // A press made on the frozen connection is replayed on the next one.
    let pressed = device.send(Action::CheckIn(v1::Side::A as i32)).unwrap();
    let acked = tokio::time::timeout(Duration::from_secs(6), pressed)
        .await
        .expect("acknowledged by the next server of the list")
        .unwrap();
    let took = frozen_at.elapsed();
    assert!(acked.ack.applied, "{:?}", acked.ack);
    assert!(device.view().connections >= 2, "{:?}", device.view());
    assert!(
        took < baffle_firmware_sim::device::SILENCE_LIMIT + Duration::from_secs(2),
        "took {took:?}"
    );
    device.close().await;
}
