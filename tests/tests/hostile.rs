//! Hostile input (issue 10, docs/reliability.md): every RPC of every service, found in
//! the server's own descriptor set, gets seeded random and deliberately malformed
//! payloads — random bytes, truncated messages, varints that never end, lengths that lie,
//! nesting thousands deep, messages over the size limit — with and without the director's
//! token. Every call must end with a gRPC status (never a dropped connection or a hang),
//! the server must stay up, and a match's log must still verify. Then thousands of idle
//! streams are opened and the server must still answer at once.

use std::time::Duration;

use baffle_proto::v1;
use baffle_server::followers::FollowerLimits;
use baffle_tests::api::{A, B, Director, defaults, opening};
use baffle_tests::{EPOCH, TestServer, with_token};
use bytes::{Buf, BufMut};
use prost::Message;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

/// Sends and receives raw message bytes, so any payload can be put on the wire.
#[derive(Clone, Copy, Default)]
struct Raw;

impl Codec for Raw {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = Raw;
    type Decoder = Raw;
    fn encoder(&mut self) -> Raw {
        Raw
    }
    fn decoder(&mut self) -> Raw {
        Raw
    }
}

impl Encoder for Raw {
    type Item = Vec<u8>;
    type Error = Status;
    fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for Raw {
    type Item = Vec<u8>;
    type Error = Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, Status> {
        let mut out = vec![0; src.remaining()];
        src.copy_to_slice(&mut out);
        Ok(Some(out))
    }
}

/// Every method of the baffle services: (path, client streams, server streams).
fn methods() -> Vec<(String, bool, bool)> {
    let set = prost_types::FileDescriptorSet::decode(baffle_proto::FILE_DESCRIPTOR_SET).unwrap();
    let mut out = Vec::new();
    for file in set.file {
        for service in &file.service {
            for m in &service.method {
                out.push((
                    format!("/{}.{}/{}", file.package(), service.name(), m.name()),
                    m.client_streaming(),
                    m.server_streaming(),
                ));
            }
        }
    }
    // And the standard services beside them.
    out.push(("/grpc.health.v1.Health/Check".into(), false, false));
    out.push(("/grpc.health.v1.Health/Watch".into(), false, true));
    out.push((
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo".into(),
        true,
        true,
    ));
    out
}

/// Payload number `i`: a mix of the hostile shapes.
fn payload(rng: &mut ChaCha8Rng, i: usize) -> Vec<u8> {
    let mut random = |n: usize| {
        let mut v = vec![0u8; n];
        rng.fill_bytes(&mut v);
        v
    };
    match i % 8 {
        // Random bytes, short and long.
        0 => {
            let n = (i * 7) % 64;
            random(n)
        }
        1 => random(4_096),
        // A varint that never ends.
        2 => vec![
            0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ],
        // A length that claims more than is there.
        3 => vec![0x0a, 0xff, 0xff, 0xff, 0x0f, b'x'],
        // Nesting 5,000 deep: field 1 of field 1 of …
        4 => {
            let mut v = Vec::new();
            for _ in 0..5_000 {
                let mut outer = vec![0x0a];
                let mut len = v.len();
                loop {
                    let byte = (len & 0x7f) as u8;
                    len >>= 7;
                    if len == 0 {
                        outer.push(byte);
                        break;
                    }
                    outer.push(byte | 0x80);
                }
                outer.extend_from_slice(&v);
                v = outer;
            }
            v
        }
        // Over the server's message limit.
        5 => vec![b'a'; 5 * 1024 * 1024],
        // A truncated valid command.
        6 => {
            let request = v1::ExecuteRequest {
                match_id: "m".into(),
                command: Some(v1::Command {
                    action: Some(v1::command::Action::Press(A)),
                }),
                ..Default::default()
            };
            let bytes = request.encode_to_vec();
            bytes[..bytes.len() / 2].to_vec()
        }
        // Wrong wire types for every field number.
        _ => (1..40u8).flat_map(|f| [(f << 3) | 5, 1, 2, 3, 4]).collect(),
    }
}

async fn call(
    channel: Channel,
    path: &str,
    (client_streams, server_streams): (bool, bool),
    body: Vec<u8>,
    token: Option<&str>,
) -> Result<(), Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready()
        .await
        .map_err(|e| Status::unavailable(e.to_string()))?;
    let path = path.parse().unwrap();
    fn wrap<T>(r: T, token: Option<&str>) -> Request<T> {
        match token {
            Some(t) => with_token(r, t),
            None => Request::new(r),
        }
    }
    match (client_streams, server_streams) {
        (false, false) => grpc.unary(wrap(body, token), path, Raw).await.map(|_| ()),
        (false, true) => {
            let mut s = grpc
                .server_streaming(wrap(body, token), path, Raw)
                .await?
                .into_inner();
            // The first message or the refusal; then let go.
            s.message().await.map(|_| ())
        }
        (true, _) => {
            let messages = tokio_stream::iter(vec![body.clone(), body]);
            let mut s = grpc
                .streaming(wrap(messages, token), path, Raw)
                .await?
                .into_inner();
            s.message().await.map(|_| ())
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_rpc_answers_hostile_payloads_with_a_status_and_nothing_breaks() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    d.act("m", v1::command::Action::CheckIn(A)).await;
    d.act("m", v1::command::Action::CheckIn(B)).await;
    d.act("m", opening(3, 1)).await;

    let methods = methods();
    assert!(methods.len() >= 22, "{methods:?}");
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut cases = 0;
    let mut codes = std::collections::BTreeMap::new();
    for (path, client_streams, server_streams) in &methods {
        for i in 0..24 {
            let body = payload(&mut rng, i);
            let token = (i % 3 != 0).then_some(server.token.as_str());
            let outcome = tokio::time::timeout(
                Duration::from_secs(10),
                call(
                    server.channel().await,
                    path,
                    (*client_streams, *server_streams),
                    body,
                    token,
                ),
            )
            .await
            .unwrap_or_else(|_| panic!("{path} case {i}: no answer in 10 s"));
            let code = match outcome {
                Ok(()) => Code::Ok,
                Err(status) => {
                    // A transport failure or a panic shows as Unknown/Internal with no
                    // message the server wrote; every refusal here must be deliberate.
                    assert!(
                        !matches!(status.code(), Code::Unknown | Code::Internal),
                        "{path} case {i}: {status:?}"
                    );
                    status.code()
                }
            };
            *codes.entry(format!("{code:?}")).or_insert(0) += 1;
            cases += 1;
        }
    }
    println!(
        "{cases} hostile calls over {} methods: {codes:?}",
        methods.len()
    );
    // Bytes that are not the message: the caller's fault, said as such.
    let endless_varint = vec![
        0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ];
    let e = call(
        server.channel().await,
        "/baffle.v1.Matches/Execute",
        (false, false),
        endless_varint,
        Some(&server.token),
    )
    .await
    .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains("decode"), "{e:?}");

    // Still up, still consistent.
    assert!(
        baffle_firmware_sim::ping::ping(&server.url())
            .await
            .unwrap()
    );
    let log = baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap();
    let report = baffle_core::audit::verify::verify_jsonl(&log, None);
    assert!(report.is_ok(), "{report}");
    let s = d.state("m").await;
    assert_eq!(s.turn, v1::TurnPhase::Moving as i32);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_idle_streams_leave_the_server_responsive() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    // Every stream here comes from 127.0.0.1.
    server.followers.set_limits(FollowerLimits {
        total: 2_000,
        per_address: 2_000,
    });
    let mut streams = Vec::new();
    for _ in 0..10 {
        let channel = server.channel().await;
        for _ in 0..200 {
            let mut m = v1::matches_client::MatchesClient::new(channel.clone());
            let s = m
                .watch(v1::WatchRequest {
                    match_id: "m".into(),
                    from_seq: 0,
                })
                .await
                .unwrap()
                .into_inner();
            streams.push(s);
        }
    }
    assert_eq!(streams.len(), 2_000);
    // A command goes through at once, and every idle stream sees it.
    let started = std::time::Instant::now();
    d.act("m", v1::command::Action::CheckIn(A)).await;
    println!(
        "a command with 2,000 idle watchers: {:?}",
        started.elapsed()
    );
    assert!(
        baffle_firmware_sim::ping::ping(&server.url())
            .await
            .unwrap()
    );
    let mut seen = 0;
    for s in streams.iter_mut().step_by(97) {
        // Skip the snapshot; the check-in follows.
        loop {
            let u = tokio::time::timeout(Duration::from_secs(10), s.message())
                .await
                .unwrap()
                .unwrap()
                .unwrap();
            if u.events.iter().any(|e| e.kind == "bg.checked_in") {
                seen += 1;
                break;
            }
        }
    }
    assert_eq!(seen, streams.iter().step_by(97).count());
    drop(streams);
    server.stop().await;
}

/// Opens a `Watch` of match `m` from `local` (an address of the loopback network).
async fn watch_from(
    server: &TestServer,
    local: std::net::IpAddr,
    token: Option<&str>,
) -> Result<tonic::Streaming<v1::MatchUpdate>, tonic::Status> {
    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .unwrap()
        .local_address(Some(local))
        .connect()
        .await
        .unwrap();
    let request = v1::WatchRequest {
        match_id: "m".into(),
        from_seq: 0,
    };
    let request = match token {
        Some(t) => with_token(request, t),
        None => tonic::Request::new(request),
    };
    let mut m = v1::matches_client::MatchesClient::new(channel);
    Ok(m.watch(request).await?.into_inner())
}

/// Issue 18 (7): anonymous streams are bounded per address and in total, with a clear
/// RESOURCE_EXHAUSTED naming the bound; the director is always admitted; a stream that
/// closes gives its place back. (Per connection, HTTP/2's concurrent-streams limit holds.)
#[tokio::test]
async fn anonymous_streams_are_bounded_per_address_and_in_total() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    server.followers.set_limits(FollowerLimits {
        total: 5,
        per_address: 3,
    });
    let one: std::net::IpAddr = "127.0.0.1".parse().unwrap();
    let two: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(watch_from(&server, one, None).await.unwrap());
    }
    let refused = watch_from(&server, one, None).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert!(
        refused.message().contains("--max-followers-per-address"),
        "{refused:?}"
    );
    // Another address is admitted, up to the total.
    open.push(watch_from(&server, two, None).await.unwrap());
    // A tournament feed counts as well.
    let three = tonic::transport::Endpoint::from_shared(server.url())
        .unwrap()
        .local_address(Some("127.0.0.3".parse().unwrap()))
        .connect()
        .await
        .unwrap();
    let feed = v1::matches_client::MatchesClient::new(three)
        .watch_tournament(v1::WatchTournamentRequest {
            tournament_id: "open".into(),
        })
        .await
        .unwrap();
    let full = watch_from(&server, two, None).await.unwrap_err();
    assert_eq!(full.code(), Code::ResourceExhausted);
    assert!(full.message().contains("--max-followers)"), "{full:?}");
    // The director follows whatever the count.
    let mut director = watch_from(&server, one, Some(&server.token)).await.unwrap();
    assert!(director.message().await.unwrap().is_some());
    // A stream that closes frees its place (once the server has seen it go).
    drop(feed);
    drop(open.pop());
    let mut admitted = None;
    for _ in 0..500 {
        if let Ok(s) = watch_from(&server, two, None).await {
            admitted = Some(s);
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        admitted.is_some(),
        "a closed stream's place was not given back"
    );
    server.stop().await;
}
