//! Issue 18 (9): malformed gRPC framing — a compressed-flag byte that is neither 0 nor 1,
//! the flag set without `grpc-encoding`, a frame cut short, a compressed payload that
//! does not decompress, bad base64 in gRPC-Web text — is the caller's fault: it answered
//! INTERNAL, contrary to `docs/reliability.md`; now INVALID_ARGUMENT, and the server goes
//! on answering.

use baffle_tests::TestServer;
use http_body_util::{BodyExt, Full};
use tonic::codegen::http;
use tower::ServiceExt;

/// The gRPC status of one raw request: from the headers (trailers-only) or the trailers.
async fn status_of(
    server: &TestServer,
    content_type: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> (String, String) {
    let mut request = http::Request::builder()
        .method("POST")
        .uri(format!(
            "{}/baffle.v1.Tournaments/ListTournaments",
            server.url()
        ))
        .header("content-type", content_type)
        .header("te", "trailers");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = Full::new(bytes::Bytes::from(body)).map_err(|never| match never {});
    let request = request.body(tonic::body::Body::new(body)).unwrap();
    let response = server.channel().await.oneshot(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let collected = body.collect().await.unwrap();
    let found = |map: &http::HeaderMap| {
        map.get("grpc-status").map(|s| {
            let message = map
                .get("grpc-message")
                .map(|m| m.to_str().unwrap_or("").to_string())
                .unwrap_or_default();
            (s.to_str().unwrap().to_string(), message)
        })
    };
    if let Some(found) = found(&parts.headers) {
        return found;
    }
    if let Some(found) = collected.trailers().and_then(found) {
        return found;
    }
    // gRPC-Web carries its trailers in the body, base64 in text mode.
    let bytes = collected.to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    panic!("no status in {:?} / {text}", parts.headers);
}

/// A hostile request: what it is, its content type, extra headers, its body.
type Case = (
    &'static str,
    &'static str,
    Vec<(&'static str, &'static str)>,
    Vec<u8>,
);

fn frame(flag: u8, declared: u32, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![flag];
    f.extend_from_slice(&declared.to_be_bytes());
    f.extend_from_slice(payload);
    f
}

#[tokio::test]
async fn malformed_framing_is_invalid_argument() {
    let server = TestServer::start().await;
    let grpc = "application/grpc";
    let cases: Vec<Case> = vec![
        ("a compressed-flag of 2", grpc, vec![], frame(2, 0, b"")),
        (
            "the flag without grpc-encoding",
            grpc,
            vec![],
            frame(1, 0, b""),
        ),
        (
            "a frame cut short",
            grpc,
            vec![],
            frame(0, 100, b"0123456789"),
        ),
        (
            "a payload that does not decompress",
            grpc,
            vec![("grpc-encoding", "gzip")],
            frame(1, 4, b"junk"),
        ),
        (
            "bad base64 in gRPC-Web text",
            "application/grpc-web-text",
            vec![],
            b"!!!not base64!!!".to_vec(),
        ),
    ];
    for (what, content_type, headers, body) in cases {
        let (status, message) = status_of(&server, content_type, &headers, body).await;
        eprintln!("{what}: {status}");
        assert_ne!(status, "13", "{what}: INTERNAL ({message})");
        assert!(
            status == "3" || status == "12",
            "{what}: status {status} ({message})"
        );
    }
    // A well-formed empty request still works.
    let (status, _) = status_of(&server, grpc, &[], frame(0, 0, b"")).await;
    assert_eq!(status, "0");
    server.stop().await;
}
