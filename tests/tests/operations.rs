//! What the room's IT person sees of a running server (issue 19): `GET /metrics` in
//! Prometheus' text format, scraped and parsed while matches are played and followed,
//! and a 404 for a path nothing serves (a gRPC call to an unknown method still gets
//! gRPC's UNIMPLEMENTED). One server in this process: the metrics are the process's.

use std::collections::BTreeMap;

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_tests::api::{A, B, Director, defaults, opening};
use baffle_tests::{EPOCH, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One HTTP/1.1 GET on a fresh connection: the status line and head, and the body.
async fn get(server: &TestServer, path: &str, headers: &str) -> (String, String) {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: baffle\r\n{headers}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response");
    let body = if head.to_lowercase().contains("transfer-encoding: chunked") {
        dechunk(body)
    } else {
        body.to_string()
    };
    (head.to_string(), body)
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    out
}

/// The samples of a Prometheus text exposition: `name{labels}` → value. Every line
/// that is not a comment must be one sample.
fn parse(text: &str) -> BTreeMap<String, f64> {
    let mut samples = BTreeMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (key, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("{line}"));
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("{line}"));
        samples.insert(key.to_string(), value);
    }
    samples
}

#[tokio::test]
async fn metrics_are_scraped_and_unknown_paths_are_404() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "r1-t7", 7, EPOCH.as_ms()).await;
    d.act("r1-t7", Action::CheckIn(A)).await;
    d.act("r1-t7", Action::CheckIn(B)).await;
    d.act("r1-t7", opening(6, 1)).await;
    // One refused command (the same press twice).
    d.act("r1-t7", Action::Press(A)).await;
    let mut matches = v1::matches_client::MatchesClient::new(server.channel().await);
    let refused = matches
        .execute(server.director(v1::ExecuteRequest {
            match_id: "r1-t7".into(),
            command: Some(v1::Command {
                action: Some(Action::Press(A)),
            }),
            ..Default::default()
        }))
        .await;
    assert!(refused.is_err());
    // A follower, open while scraped.
    let mut watch = matches
        .watch(v1::WatchRequest {
            match_id: "r1-t7".into(),
            from_seq: 0,
        })
        .await
        .unwrap()
        .into_inner();
    watch.message().await.unwrap();

    let (head, body) = get(&server, "/metrics", "").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.to_lowercase().contains("openmetrics-text"), "{head}");
    let samples = parse(&body);
    let value = |key: &str| {
        *samples
            .get(key)
            .unwrap_or_else(|| panic!("no {key} in\n{body}"))
    };
    assert!(value(r#"baffle_commands_total{result="accepted"}"#) >= 4.0);
    assert!(value(r#"baffle_commands_total{result="refused"}"#) >= 1.0);
    assert!(value("baffle_store_appends_total") >= 5.0, "{body}");
    assert!(value("baffle_store_flush_seconds_count") >= 1.0);
    assert!(value("baffle_store_flush_seconds_sum") > 0.0);
    assert!(value("baffle_live_matches") >= 1.0);
    assert!(value("baffle_followers") >= 1.0);
    assert!(samples.contains_key("baffle_device_connections"));
    drop(watch);

    // Not served: 404 in words; a gRPC call to no method: gRPC's UNIMPLEMENTED.
    let (head, body) = get(&server, "/nope", "").await;
    assert!(head.starts_with("HTTP/1.1 404"), "{head}");
    assert!(body.contains("not found"), "{body}");
    let (head, _) = get(
        &server,
        "/baffle.v1.Nope/Nothing",
        "content-type: application/grpc\r\n",
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.to_lowercase().contains("grpc-status: 12"), "{head}");
    // And the services still answer.
    let mut health = tonic_health::pb::health_client::HealthClient::new(server.channel().await);
    health
        .check(tonic_health::pb::HealthCheckRequest::default())
        .await
        .unwrap();
    server.stop().await;
}
