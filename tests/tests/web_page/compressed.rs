//! Issue 31, point 19: the page's answers are compressed as the browser accepts (brotli,
//! gzip), and read back they are the page itself; the gRPC-Web streams beside them are
//! not compressed and still stream. Run with `--nocapture` to see the bytes saved (the
//! numbers in docs/web.md).

use std::io::Read;
use std::time::Duration;

use baffle_proto::v1;
use baffle_tests::api::{Director, defaults};
use baffle_tests::{EPOCH, TestServer};
use prost::Message;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::{grpc_web, http};

fn get_with(path: &str, encoding: &str) -> Vec<u8> {
    format!(
        "GET {path} HTTP/1.1\r\nHost: baffle\r\nAccept-Language: el\r\nAccept-Encoding: {encoding}\r\n\
         Connection: close\r\n\r\n"
    )
    .into_bytes()
}

fn header<'h>(head: &'h str, name: &str) -> Option<&'h str> {
    head.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
        .map(str::trim)
}

#[tokio::test]
async fn the_page_is_served_compressed_and_read_back_whole() {
    let server = TestServer::start().await;
    let mut paths: Vec<&str> = vec!["/", "/i18n/el.json", "/i18n/en.json", "/i18n/el.ftl"];
    paths.extend(baffle_server::web::MODULES.iter().map(|(p, _)| *p));
    let (mut plain_total, mut br_total, mut gzip_total) = (0, 0, 0);
    for path in paths {
        let (head, plain) = http(&server, &get_with(path, "identity")).await;
        assert!(head.starts_with("http/1.1 200"), "{path}: {head}");
        assert_eq!(header(&head, "content-encoding"), None, "{path}: {head}");

        let (head, br) = http(&server, &get_with(path, "gzip, deflate, br")).await;
        assert_eq!(
            header(&head, "content-encoding"),
            Some("br"),
            "{path}: {head}"
        );
        assert!(
            head.lines()
                .any(|l| l.starts_with("vary:") && l.contains("accept-encoding")),
            "{path}: {head}"
        );
        let mut read = Vec::new();
        brotli_decompressor::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut read)
            .unwrap();
        assert_eq!(read, plain, "{path}: brotli read back");

        let (head, gz) = http(&server, &get_with(path, "gzip")).await;
        assert_eq!(
            header(&head, "content-encoding"),
            Some("gzip"),
            "{path}: {head}"
        );
        let mut read = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut read)
            .unwrap();
        assert_eq!(read, plain, "{path}: gzip read back");

        assert!(
            br.len() < plain.len(),
            "{path}: {} of {}",
            br.len(),
            plain.len()
        );
        eprintln!(
            "{path}: {} bytes, brotli {}, gzip {}",
            plain.len(),
            br.len(),
            gz.len()
        );
        plain_total += plain.len();
        br_total += br.len();
        gzip_total += gz.len();
    }
    eprintln!("in all: {plain_total} bytes, brotli {br_total}, gzip {gzip_total}");
    // Text compresses to about a third; brotli at least as well as gzip.
    assert!(br_total * 3 < plain_total, "{br_total} of {plain_total}");
    assert!(
        br_total <= gzip_total,
        "brotli {br_total}, gzip {gzip_total}"
    );
    // The page still says which language it is in, beside the encoding.
    let (head, _) = http(&server, &get_with("/", "br")).await;
    assert!(head.contains("vary: accept-language"), "{head}");
    server.stop().await;
}

#[tokio::test]
async fn a_grpc_web_stream_is_not_compressed_and_still_streams() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("club", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    d.create_match("club", "m", 5, EPOCH.as_ms()).await;
    let mut request = grpc_web(
        "/baffle.v1.Matches/WatchTournament",
        &v1::WatchTournamentRequest {
            tournament_id: "club".into(),
        },
    );
    // As a browser sends it: it accepts every encoding it knows.
    let at = request.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    request.splice(
        at + 2..at + 2,
        b"Accept-Encoding: gzip, deflate, br\r\n".iter().copied(),
    );
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(&request).await.unwrap();
    let mut seen = Vec::new();
    // The first state arrives while the stream stays open: nothing waits for its end.
    let state = loop {
        let mut chunk = [0u8; 4096];
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
            .await
            .expect("the feed answers before it ends")
            .unwrap();
        assert!(n > 0, "the feed stays open");
        seen.extend_from_slice(&chunk[..n]);
        let Some(split) = seen.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&seen[..split]).to_lowercase();
        assert_eq!(header(&head, "content-encoding"), None, "{head}");
        let body = &seen[split + 4..];
        if let Some(at) = body.windows(5).position(|w| w[0] == 0 && w[1..5] != [0; 4]) {
            let len = u32::from_be_bytes(body[at + 1..at + 5].try_into().unwrap()) as usize;
            if body.len() >= at + 5 + len
                && let Ok(s) = v1::MatchState::decode(&body[at + 5..at + 5 + len])
                && s.match_id == "m"
            {
                break s;
            }
        }
    };
    assert_eq!(state.match_id, "m");
    server.stop().await;
}
