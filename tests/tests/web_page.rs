//! The phone page (issue 9, docs/web.md): served by baffled at `/`, talking gRPC-Web.
//!
//! The first tests speak HTTP/1.1 by hand, as a browser would. The last drives a real
//! headless Chromium (Debian's, through playwright-core in `tests/web/`): it sees a match,
//! and sees its score and clock change after a press made through the API, and after a
//! restart of the server it reconnects by itself and resumes. Where Chromium,
//! Node or `tests/web/node_modules` are missing it says so and passes, unless
//! `BAFFLE_BROWSER_TEST=required` — which `.ci/run` sets after installing them.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::server_client::ServerClient;
use baffle_server::time::TimeSource;
use baffle_tests::api::{A, B, Director, defaults, opening, result};
use baffle_tests::{EPOCH, TestServer};
use prost::Message;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpStream;
use tokio::process::{Child, ChildStdin, ChildStdout};

/// One HTTP/1.1 exchange on a fresh connection: the response's head and body (de-chunked).
async fn http(server: &TestServer, request: &[u8]) -> (String, Vec<u8>) {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
    let mut body = raw[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let line_end = rest.windows(2).position(|w| w == b"\r\n").unwrap();
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[..line_end]).unwrap(), 16).unwrap();
            if size == 0 {
                break;
            }
            out.extend_from_slice(&rest[line_end + 2..line_end + 2 + size]);
            rest = &rest[line_end + 2 + size + 2..];
        }
        body = out;
    }
    (head, body)
}

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: baffle\r\nConnection: close\r\n\r\n").into_bytes()
}

/// A gRPC-Web call as the page makes it: one framed message in, frames out.
fn grpc_web(path: &str, message: &impl Message) -> Vec<u8> {
    let body = message.encode_to_vec();
    let mut framed = vec![0u8];
    framed.extend_from_slice(&(body.len() as u32).to_be_bytes());
    framed.extend_from_slice(&body);
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: baffle\r\nContent-Type: application/grpc-web+proto\r\n\
         X-Grpc-Web: 1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        framed.len()
    )
    .into_bytes();
    request.extend_from_slice(&framed);
    request
}

/// The frames of a gRPC-Web response body: (is trailers, bytes).
fn frames(mut body: &[u8]) -> Vec<(bool, Vec<u8>)> {
    let mut out = Vec::new();
    while body.len() >= 5 {
        let len = u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize;
        out.push((body[0] & 0x80 != 0, body[5..5 + len].to_vec()));
        body = &body[5 + len..];
    }
    out
}

#[tokio::test]
async fn the_page_and_its_script_are_served_at_the_root() {
    let server = TestServer::start().await;
    let (head, body) = http(&server, &get("/")).await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: text/html"), "{head}");
    let page = String::from_utf8(body).unwrap();
    assert!(page.contains(r#"<script type="module" src="/app.js">"#));
    assert!(page.contains("width=device-width"), "a page for phones");
    // Its icon is inline; a browser that asks for /favicon.ico anyway gets no 404 to log,
    // and every other unknown path still is one.
    assert!(page.contains(r#"<link rel="icon" href="data:image/svg+xml,"#));
    let (head, body) = http(&server, &get("/favicon.ico")).await;
    assert!(head.starts_with("http/1.1 204"), "{head}");
    assert!(body.is_empty());
    for path in ["/favicon.png", "/no-such-page", "/web/favicon.ico"] {
        let (head, _) = http(&server, &get(path)).await;
        assert!(head.starts_with("http/1.1 404"), "{path}: {head}");
    }
    let (head, body) = http(&server, &get("/wire.js")).await;
    assert!(head.contains("content-type: text/javascript"), "{head}");
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("application/grpc-web+proto")
    );
    server.stop().await;
}

#[tokio::test]
async fn grpc_web_serves_unary_and_streaming_calls_to_spectators() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("club", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    d.create_match("club", "m", 5, EPOCH.as_ms()).await;

    // Unary, no token: the tournaments.
    let request = grpc_web(
        "/baffle.v1.Tournaments/ListTournaments",
        &v1::ListTournamentsRequest::default(),
    );
    let (head, body) = http(&server, &request).await;
    assert!(
        head.contains("content-type: application/grpc-web"),
        "{head}"
    );
    let frames = frames(&body);
    let (false, message) = &frames[0] else {
        panic!("a message first")
    };
    let list = v1::ListTournamentsResponse::decode(&message[..]).unwrap();
    assert_eq!(list.tournaments[0].id, "club");
    let (true, trailers) = frames.last().unwrap() else {
        panic!("trailers last")
    };
    assert!(String::from_utf8_lossy(trailers).contains("grpc-status:0"));

    // Server streaming: the tournament feed's first message is the match, stamped with
    // the server's time for the page's ticking clocks.
    let request = grpc_web(
        "/baffle.v1.Matches/WatchTournament",
        &v1::WatchTournamentRequest {
            tournament_id: "club".into(),
        },
    );
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(&request).await.unwrap();
    let mut seen = Vec::new();
    let state = loop {
        let mut chunk = [0u8; 4096];
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
            .await
            .expect("the feed answers")
            .unwrap();
        assert!(n > 0, "the feed stays open");
        seen.extend_from_slice(&chunk[..n]);
        // Find a framed MatchState inside the chunked body.
        if let Some(at) = seen.windows(5).position(|w| w[0] == 0 && w[1..5] != [0; 4]) {
            let len = u32::from_be_bytes(seen[at + 1..at + 5].try_into().unwrap()) as usize;
            if seen.len() >= at + 5 + len
                && let Ok(s) = v1::MatchState::decode(&seen[at + 5..at + 5 + len])
                && s.match_id == "m"
            {
                break s;
            }
        }
    };
    assert_eq!(state.sent_at_ms, server.time.now().as_ms());
    // A wrong tournament: a clear gRPC status, in the headers of a trailers-only answer.
    let request = grpc_web(
        "/baffle.v1.Matches/WatchTournament",
        &v1::WatchTournamentRequest {
            tournament_id: "nope".into(),
        },
    );
    let (head, _) = http(&server, &request).await;
    assert!(head.contains("grpc-status: 5"), "NOT_FOUND: {head}");
    server.stop().await;
}

/// What the browser test needs, or why it cannot run here.
fn browser_tools() -> Result<(PathBuf, PathBuf), String> {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.exists() {
        return Err(format!("no Chromium at {}", chromium.display()));
    }
    if !web.join("node_modules/playwright-core").exists() {
        return Err("tests/web/node_modules is missing (npm ci --prefix tests/web)".into());
    }
    match std::process::Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => Ok((web.join("browser.mjs"), chromium)),
        _ => Err("no node on the PATH".into()),
    }
}

/// The browser tools, or `None` with the reason said (a test then passes, skipped); with
/// `BAFFLE_BROWSER_TEST=required` (`.ci/run`) a missing tool fails the test.
fn browser_tools_or_skip() -> Option<(PathBuf, PathBuf)> {
    match browser_tools() {
        Ok(tools) => Some(tools),
        Err(why) if std::env::var("BAFFLE_BROWSER_TEST").as_deref() == Ok("required") => {
            panic!("the browser test is required: {why}")
        }
        Err(why) => {
            eprintln!("skipped, {why}: .ci/run installs what it needs");
            None
        }
    }
}

/// A node script of `tests/web/` driving Chromium, spoken to a line at a time: it answers
/// on its standard output and is told what happened on its standard input.
struct Script {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Script {
    /// Runs `script` with `args`, the browser at `chromium`.
    fn start(script: &PathBuf, chromium: &PathBuf, args: &[&str]) -> Script {
        let mut child = tokio::process::Command::new("node")
            .arg(script)
            .args(args)
            .env("CHROMIUM", chromium)
            .env("CHROME_PATH", chromium)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("node runs");
        let stdin = child.stdin.take();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Script {
            child,
            stdin,
            lines,
        }
    }

    /// The script's next line (within 90 s), echoed to the test's output.
    async fn next(&mut self) -> String {
        let line = tokio::time::timeout(Duration::from_secs(90), self.lines.next_line())
            .await
            .expect("the browser answers within 90 s")
            .unwrap()
            .expect("the browser script ended early: see its output above");
        eprintln!("browser: {line}");
        line
    }

    /// Tells the script `line`.
    async fn say(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }

    /// Tells the script `line` and returns its answer.
    async fn talk(&mut self, line: &str) -> String {
        self.say(line).await;
        self.next().await
    }

    /// Closes its input and waits for it to end well.
    async fn end(mut self) {
        drop(self.stdin.take());
        assert!(self.child.wait().await.unwrap().success());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_browser_sees_a_press_and_resumes_after_a_server_restart() {
    let Some((script, chromium)) = browser_tools_or_skip() else {
        return;
    };
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("club", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    d.create_match("club", "m", 5, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    d.act("m", opening(6, 1)).await;
    // A chess match beside it, its first game drawn.
    d.create_chess(
        "club",
        "c",
        "2",
        EPOCH.as_ms(),
        v1::ChessMatchSettings {
            control: Some((&baffle_core::clock::TimeControl::rapid()).into()),
            games: 2,
            default_time_ms: 600_000,
            ..Default::default()
        },
    )
    .await;
    let chess = |a| Action::Chess(v1::ChessCommand { action: Some(a) });
    use v1::chess_command::Action as Chess;
    d.act("c", chess(Chess::Arrive(v1::Color::White as i32)))
        .await;
    d.act("c", chess(Chess::Arrive(v1::Color::Black as i32)))
        .await;
    d.act("c", chess(Chess::AgreeDraw(v1::Empty {}))).await;

    let screenshot = std::env::var("BAFFLE_WEB_SCREENSHOT").unwrap_or_default();
    let mut browser = Script::start(
        &script,
        &chromium,
        &[&server.url(), "club", "m", "c", &screenshot],
    );

    let seen = browser.next().await;
    assert!(seen.starts_with("SEEN 0 – 0 | "), "{seen}");
    assert_eq!(
        browser.next().await,
        "CHESS ½ – ½ | game 1 of 2 · rapid · FIDE 2023 / White: Anna / game 1: ½-½"
    );
    // The category in the reader's words too (ChessState.category is a string).
    assert_eq!(
        browser.next().await,
        "ELCHESS παρτίδα 1 από 2 · γρήγορο · FIDE 2023 / Λευκά: Anna / παρτίδα 1: ½-½"
    );
    // A moves for 20 s (12 s of delay, then 8 s of his 10 minutes), presses, and wins
    // the game.
    server.time.advance(20_000);
    d.act("m", Action::Press(A)).await;
    d.act("m", Action::EndGame(result(A, v1::WinKind::Single)))
        .await;
    browser.say("GO").await;
    assert_eq!(browser.next().await, "SCORE 1 – 0");
    assert_eq!(browser.next().await, "CLOCK 9:52");
    assert_eq!(browser.next().await, "LIVE 9:52");
    // The head shown is signed by the server's published key, checked in the browser.
    let key = ServerClient::new(server.channel().await)
        .get_server_info(v1::GetServerInfoRequest {})
        .await
        .unwrap()
        .into_inner()
        .signing_key;
    assert_eq!(
        browser.next().await,
        format!(
            "SIGNED head signed by {}, checked in this browser and kept | {key} | kept true",
            &key[..8]
        )
    );
    // The operator signs another head at the length the page kept, with the server's own
    // key: the page says the server signed two histories; altered, the signature fails.
    let seq = d.state("m").await.seq;
    let secret = baffle_server::keys::read_key(&server.dir.path().join("signing.key"), "key")
        .unwrap()
        .unwrap();
    let twin = baffle_server::signing::HeadSigner::from_secret(secret).sign(
        "m",
        seq,
        &baffle_core::audit::Hash([0x77; 32]),
    );
    let twin = serde_json::json!({
        "match_id": twin.match_id, "length": twin.length, "head": twin.head,
        "signature": twin.signature, "signer": twin.signer,
    });
    browser.say(&format!("TWIN {twin}")).await;
    assert_eq!(browser.next().await, "FORGED head-signature-bad");
    assert_eq!(browser.next().await, "TWINSEEN head-two-histories");

    // Restart the server at the same address; the page reconnects and resumes.
    drop(d);
    let addr = server.addr;
    let (dir, time) = server.stop().await;
    let server = TestServer::start_at(dir, time, addr).await;
    let mut d = Director::connect(&server).await;
    d.act("m", Action::AwardPoints(v1::Points { side: B, points: 1 }))
        .await;
    browser.say("AGAIN").await;
    assert_eq!(browser.next().await, "RESUMED 1 – 1");
    assert_eq!(browser.next().await, "DONE");
    browser.end().await;
    server.stop().await;
}

/// Issue 23: a match that records moves shows its board on the phone page (SVG, turned
/// by a tap to the other player's side), follows a move made through the API with its
/// pip counts, and exports the match as gnubg reads it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_draws_the_board_and_follows_a_move() {
    let Some((script, chromium)) = browser_tools_or_skip() else {
        return;
    };
    let script = script.with_file_name("board.mjs");
    let screenshot = std::env::var("BAFFLE_WEB_BOARD_SCREENSHOT").unwrap_or_default();
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("club", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    d.create(v1::CreateMatchRequest {
        tournament_id: "club".into(),
        match_id: "m".into(),
        round: 1,
        table: "1".into(),
        player_a: "Anna".into(),
        player_b: "Ben".into(),
        length: 3,
        scheduled_start_ms: EPOCH.as_ms(),
        moves: v1::MovesSetting::Recorded as i32,
        ..Default::default()
    })
    .await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    d.act("m", opening(3, 1)).await;
    let mut browser = Script::start(&script, &chromium, &[&server.url(), "m", &screenshot]);
    assert_eq!(
        browser.next().await,
        "BOARD pips Anna 167 · Ben 167 | 15 15"
    );
    d.act(
        "m",
        Action::Move(v1::Move {
            side: A,
            play: "8/5 6/5".into(),
        }),
    )
    .await;
    browser.say("GO").await;
    assert_eq!(browser.next().await, "MOVED pips Anna 163 · Ben 167 | 2");
    // Seen by Ben: his 6 point holds his five checkers, bottom right his 1 point.
    assert_eq!(browser.next().await, "TURNED b | 1 5");
    assert_eq!(browser.next().await, "MAT 1) 31: 8/5 6/5");
    browser.end().await;
}

#[path = "web_page/compressed.rs"]
mod compressed;
#[path = "web_page/dice.rs"]
mod dice;
#[path = "web_page/draw.rs"]
mod draw;
#[path = "web_page/issue31.rs"]
mod issue31;
#[path = "web_page/live.rs"]
mod live;
#[path = "web_page/spectator.rs"]
mod spectator;
