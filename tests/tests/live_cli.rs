//! Live dice from the terminal (issue 35, `docs/dice.md` "Live dice from a terminal"):
//! two players each run `baffle live play` (their input piped, as a script would), give
//! their links by themselves, and every draw is made only once both links are in; the
//! director ends the game and confirms it, and the exported log verifies. `live join`
//! run twice with the same file resumes instead of committing again.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baffle_client::run::Outcome;
use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::command::Action;
use baffle_tests::api::{Director, result};
use baffle_tests::cli::baffle;
use baffle_tests::{TestServer, with_token};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};

fn ok(o: &Outcome) {
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
}

/// A live-dice tournament and a 5-point match r1-t1 between Anna (A) and Ben (B); the
/// players' codes.
async fn live_match(server: &TestServer) -> (String, String) {
    ok(&baffle(server, &["tournament", "create", "live", "--live-dice"]).await);
    let shown = baffle(server, &["tournament", "show", "live"]).await;
    assert!(shown.out.contains("player seeds live"), "{}", shown.out);
    let create = [
        "match",
        "create",
        "--tournament",
        "live",
        "--table",
        "1",
        "--length",
        "5",
        "--players",
        "Anna,Ben",
    ];
    ok(&baffle(server, &create).await);
    let codes = baffle(server, &["--json", "audit", "player-codes", "r1-t1"]).await;
    ok(&codes);
    let codes: Value = serde_json::from_str(&codes.out).unwrap();
    let code = |s: &str| codes[s].as_str().unwrap().to_string();
    (code("a"), code("b"))
}

/// A player's `baffle live play`: its input, and every line it printed so far.
struct Terminal {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Terminal {
    fn start(server: &TestServer, code: &str, file: &std::path::Path) -> Terminal {
        let bin = baffle_tests::binaries::built(&["baffle"]);
        let mut child = Command::new(bin.join("baffle"))
            .args([
                "--server",
                &server.addr_url,
                "--lang",
                "en",
                "live",
                "play",
                "r1-t1",
            ])
            .args(["--code", code, "--chain-file"])
            .arg(file)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("baffle runs");
        let lines = Arc::new(Mutex::new(Vec::new()));
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn tokio::io::AsyncRead + Unpin + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let lines = lines.clone();
            tokio::spawn(async move {
                let mut reader = BufReader::new(stream).lines();
                while let Ok(Some(l)) = reader.next_line().await {
                    lines.lock().unwrap().push(l);
                }
            });
        }
        let stdin = child.stdin.take();
        Terminal {
            child,
            stdin,
            lines,
        }
    }

    async fn type_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
        stdin.flush().await.unwrap();
    }

    fn said(&self) -> String {
        self.lines.lock().unwrap().join("\n")
    }
}

/// Waits (up to 30 s) for the match to reach a state.
async fn until(
    d: &mut Director,
    ready: impl Fn(&v1::MatchState) -> bool,
    what: &str,
) -> v1::MatchState {
    for _ in 0..1500 {
        let s = d.state("r1-t1").await;
        if ready(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never {what}: {:?}", d.state("r1-t1").await);
}

fn phase(s: &v1::MatchState, turn: v1::TurnPhase, side: i32) -> bool {
    s.turn == turn as i32
        && s.turn_side == side
        && s.live_dice.as_ref().is_some_and(|l| l.waiting.is_none())
}

#[tokio::test]
async fn two_players_play_live_dice_from_their_terminals_and_the_log_verifies() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (code_a, code_b) = live_match(&server).await;
    let files = [dir.path().join("a.json"), dir.path().join("b.json")];
    // What each join says to keep: the check of his chain in the log afterwards.
    let mut anchors = Vec::new();
    for (code, file) in [(&code_a, &files[0]), (&code_b, &files[1])] {
        let file = file.to_str().unwrap();
        let o = baffle(
            &server,
            &[
                "--lang",
                "en",
                "live",
                "join",
                "r1-t1",
                "--code",
                code,
                "--chain-file",
                file,
            ],
        )
        .await;
        ok(&o);
        assert!(o.out.contains("chain committed for r1-t1"), "{}", o.out);
        let hint = o
            .out
            .split("--player-commit ")
            .nth(1)
            .expect("the check to keep");
        anchors.push(hint.trim().to_string());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&files[0]).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the chain file is its owner's only");
    }
    let mut d = Director::connect(&server).await;
    for side in [v1::Side::A, v1::Side::B] {
        d.act("r1-t1", Action::CheckIn(side as i32)).await;
    }
    // A spectator follows it without a terminal: a line per change.
    let bin = baffle_tests::binaries::built(&["baffle"]);
    let follower = Command::new(bin.join("baffle"))
        .args([
            "--server",
            &server.addr_url,
            "--lang",
            "en",
            "follow",
            "r1-t1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("baffle follow runs");
    let mut t = [
        Terminal::start(&server, &code_a, &files[0]),
        Terminal::start(&server, &code_b, &files[1]),
    ];
    t[0].type_line("opening").await;
    let s = until(
        &mut d,
        |s| s.turn == v1::TurnPhase::Moving as i32,
        "the opening drawn",
    )
    .await;
    let first = s.turn_side;
    let (w, l) = if first == v1::Side::A as i32 {
        (0, 1)
    } else {
        (1, 0)
    };
    let side = |i: usize| {
        if i == 0 {
            v1::Side::A as i32
        } else {
            v1::Side::B as i32
        }
    };
    t[w].type_line("press").await;
    until(
        &mut d,
        |s| phase(s, v1::TurnPhase::OnRoll, side(l)),
        "the loser of the opening on roll",
    )
    .await;
    t[l].type_line("double").await;
    until(
        &mut d,
        |s| s.turn == v1::TurnPhase::DoubleOffered as i32,
        "the double offered",
    )
    .await;
    t[w].type_line("take").await;
    until(
        &mut d,
        |s| phase(s, v1::TurnPhase::OnRoll, side(l)),
        "the doubler on roll",
    )
    .await;
    for roller in [l, w, l] {
        t[roller].type_line("roll").await;
        until(
            &mut d,
            |s| phase(s, v1::TurnPhase::Moving, side(roller)),
            "the roll drawn",
        )
        .await;
        t[roller].type_line("press").await;
        until(
            &mut d,
            |s| phase(s, v1::TurnPhase::OnRoll, side(1 - roller)),
            "the press",
        )
        .await;
    }
    // The director ends the game (a backgammon at 2: the match) and confirms it.
    let winner = side(w);
    d.act(
        "r1-t1",
        Action::EndGame(result(winner, v1::WinKind::Backgammon)),
    )
    .await;
    let s = d.act("r1-t1", Action::ConfirmResult(v1::Empty {})).await;
    assert!(s.result.as_ref().is_some_and(|r| r.confirmed), "{s:?}");
    // Their input ends; with the match over, both clients stop.
    for term in &mut t {
        term.stdin.take();
        let status = tokio::time::timeout(Duration::from_secs(20), term.child.wait())
            .await
            .expect("baffle live play stops once the input ends and the match is over")
            .unwrap();
        assert!(status.success(), "{}", term.said());
    }
    for term in &t {
        let said = term.said();
        assert!(said.contains("link 1 given"), "{said}");
        let given = said.matches(" given").count();
        assert_eq!(
            given,
            1 + 3,
            "a link for the opening and each roll, once: {said}"
        );
        assert!(!said.contains("refused"), "{said}");
    }
    // The follower said which draw waited for whose link, and stopped at the confirmation.
    let followed = tokio::time::timeout(Duration::from_secs(20), follower.wait_with_output())
        .await
        .expect("baffle follow ends once the result is confirmed")
        .unwrap();
    let followed = String::from_utf8_lossy(&followed.stdout);
    assert!(
        followed.contains("dice   the opening roll waits for the link of"),
        "{followed}"
    );
    assert!(
        followed.contains("live dice: Anna gave a link"),
        "{followed}"
    );
    // Every draw in the log was made only after both players' links for it.
    ok(&baffle(&server, &["audit", "reveal", "r1-t1"]).await);
    let log = dir.path().join("r1-t1.jsonl");
    ok(&baffle(
        &server,
        &["audit", "export", "r1-t1", "-o", log.to_str().unwrap()],
    )
    .await);
    let mut links = Vec::new();
    let mut draws = 0;
    for line in std::fs::read_to_string(&log).unwrap().lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let body = match record.get("body") {
            Some(Value::String(b)) => serde_json::from_str(b).unwrap(),
            Some(b) => b.clone(),
            None => record.clone(),
        };
        let kind = |k: &str| body["kind"] == k;
        let text = body.to_string();
        if kind("dice.asked") {
            links.clear();
        } else if kind("dice.link") {
            links.push(if text.contains("\"side\":\"A\"") {
                'A'
            } else {
                'B'
            });
        } else if kind("dice.roll") || kind("dice.opening") {
            links.sort();
            assert_eq!(links, ['A', 'B'], "a draw with both links: {line}");
            links.clear();
            draws += 1;
        }
    }
    assert_eq!(draws, 4, "the opening and three rolls");
    let log = log.to_str().unwrap();
    let mut verify = vec!["audit", "verify", log, "--require-reveal"];
    for anchor in &anchors {
        verify.extend(["--player-commit", anchor.as_str()]);
    }
    ok(&baffle(&server, &verify).await);
    // Another anchor — a twin's chain — fails, as the player's own check should.
    let other = format!("a={}", "0".repeat(64));
    let twin = baffle(
        &server,
        &["audit", "verify", log, "--player-commit", other.as_str()],
    )
    .await;
    assert_eq!(twin.code, 1, "{}{}", twin.out, twin.err);
}

#[tokio::test]
async fn live_join_twice_with_the_same_file_resumes_and_a_second_commit_is_refused() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (code_a, code_b) = live_match(&server).await;
    let file = dir.path().join("a.json");
    let join = [
        "--lang",
        "en",
        "live",
        "join",
        "r1-t1",
        "--code",
        &code_a,
        "--chain-file",
        file.to_str().unwrap(),
    ];
    ok(&baffle(&server, &join).await);
    let kept = std::fs::read_to_string(&file).unwrap();
    let again = baffle(&server, &join).await;
    ok(&again);
    assert!(
        again
            .out
            .contains("already committed (4096 links left): resuming"),
        "{}",
        again.out
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        kept,
        "the chain is kept as it was"
    );
    // The server itself refuses a second chain while the first has links left.
    let request = v1::CommitChainRequest {
        match_id: "r1-t1".into(),
        side: v1::Side::A as i32,
        anchor: vec![7; 32],
        length: 10,
    };
    let refused = AuditClient::new(server.channel().await)
        .commit_chain(with_token(request, &code_a))
        .await
        .unwrap_err();
    assert_eq!(
        refused.code(),
        tonic::Code::FailedPrecondition,
        "{refused:?}"
    );
    let log = baffle(&server, &["audit", "export", "r1-t1"]).await;
    assert_eq!(log.out.matches("dice.chain").count(), 1, "{}", log.out);
    // `match show` names the draw that waits for a link.
    let file_b = dir.path().join("b.json");
    let join_b = [
        "live",
        "join",
        "r1-t1",
        "--code",
        &code_b,
        "--chain-file",
        file_b.to_str().unwrap(),
    ];
    ok(&baffle(&server, &join_b).await);
    let mut d = Director::connect(&server).await;
    for side in [v1::Side::A, v1::Side::B] {
        d.act("r1-t1", Action::CheckIn(side as i32)).await;
    }
    d.act("r1-t1", Action::OpeningRoll(v1::Roll::default()))
        .await;
    let shown = baffle(&server, &["--lang", "en", "match", "show", "r1-t1"]).await;
    assert!(
        shown
            .out
            .contains("dice   the opening roll waits for the link of Anna, Ben (due "),
        "{}",
        shown.out
    );
}
