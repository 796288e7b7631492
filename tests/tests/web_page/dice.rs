//! Issue 16: the dice on the phone page, in a real Chromium: the page recomputes every
//! server roll in the browser, and a player adds his seed from the page.
//! `tests/web/verify.mjs` and `tests/web/seeds.mjs` are the browser's side.

use std::process::Stdio;
use std::time::Duration;

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_tests::api::{A, B, Director, defaults, result};
use baffle_tests::{EPOCH, TestServer};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::browser_tools_or_skip;

/// Issue 16: the phone page recomputes every server roll of a finished match in the
/// browser (WebCrypto SHA-256 and its own ChaCha20) and says so; on a forged log it names
/// the first roll that is not the seed's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_verifies_every_roll_in_the_browser() {
    let Some((script, chromium)) = browser_tools_or_skip() else {
        return;
    };
    let script = script.with_file_name("verify.mjs");
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("club", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("club", "m", 1, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let s = d.act("m", baffle_tests::api::server_opening()).await;
    let (mover, other) = (s.turn_side, if s.turn_side == A { B } else { A });
    for (side, next) in [(mover, other), (other, mover), (mover, other)] {
        server.time.advance(2_000);
        d.act("m", Action::Press(side)).await;
        d.act("m", baffle_tests::api::server_roll(next)).await;
    }
    d.act("m", Action::EndGame(result(other, v1::GameKind::Single)))
        .await;
    v1::audit_client::AuditClient::new(server.channel().await)
        .reveal(server.director(v1::RevealRequest {
            match_id: "m".into(),
        }))
        .await
        .unwrap();
    // A forged copy: the first roll and its use changed, the chain rebuilt.
    let log = baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap();
    let mut chain = baffle_core::audit::Chain::new();
    let mut forged_at = None;
    for line in log.lines() {
        let Ok(baffle_core::audit::export::Line::Record(r)) =
            baffle_core::audit::export::parse_line(line)
        else {
            continue;
        };
        let mut body = r.body.clone();
        if (body.contains("\"kind\":\"dice.roll\"") && forged_at.is_none())
            || (body.contains("\"kind\":\"bg.rolled\"") && forged_at == Some(r.seq - 1))
        {
            let start = body.find("\"dice\":[").unwrap() + 8;
            let was = body[start..start + 3].to_string();
            let other = if was == "6,6" { "5,5" } else { "6,6" };
            body = body.replacen(
                &format!("\"dice\":[{was}]"),
                &format!("\"dice\":[{other}]"),
                1,
            );
            forged_at.get_or_insert(r.seq);
        }
        chain.append(body);
    }
    let dir = tempfile::tempdir().unwrap();
    let tampered = dir.path().join("tampered.jsonl");
    std::fs::write(
        &tampered,
        baffle_core::audit::export::to_jsonl(chain.records()),
    )
    .unwrap();

    let output = tokio::time::timeout(
        Duration::from_secs(90),
        tokio::process::Command::new("node")
            .arg(&script)
            .args([&server.url(), "m", tampered.to_str().unwrap()])
            .env("CHROMIUM", &chromium)
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the browser answers within 90 s")
    .expect("node runs");
    let out = String::from_utf8_lossy(&output.stdout);
    eprintln!("{out}{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success());
    let mut lines = out.lines();
    let verified = lines.next().unwrap();
    // The opening and three rolls.
    assert!(
        verified.contains("all 4 rolls verified in this browser"),
        "{verified}"
    );
    let tampered = lines.next().unwrap();
    let forged = forged_at.unwrap();
    assert!(
        tampered.contains("\"ok\":false") && tampered.contains(&format!("record {forged}")),
        "{tampered}"
    );
    server.stop().await;
}

/// Issue 16: a player adds his own seed from the phone page with his code — the browser
/// makes it, commits, and reveals it by itself once the other player has committed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_adds_his_seed_from_the_page() {
    let Some((script, chromium)) = browser_tools_or_skip() else {
        return;
    };
    let script = script.with_file_name("seeds.mjs");
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("club", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("club", "m", 3, EPOCH.as_ms()).await;
    // A plain chess match of the same tournament: the server draws nothing for it.
    d.create_chess(
        "club",
        "c",
        "2",
        EPOCH.as_ms(),
        v1::ChessMatchSettings {
            control: Some((&baffle_core::clock::TimeControl::rapid()).into()),
            games: 1,
            default_time_ms: 600_000,
            ..Default::default()
        },
    )
    .await;
    let mut audit = v1::audit_client::AuditClient::new(server.channel().await);
    let codes = audit
        .issue_player_codes(server.director(v1::IssuePlayerCodesRequest {
            match_id: "m".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    let mut child = tokio::process::Command::new("node")
        .arg(&script)
        .args([server.url().as_str(), "m", codes.code_a.as_str(), "c"])
        .env("CHROMIUM", &chromium)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = async || {
        let line = tokio::time::timeout(Duration::from_secs(60), lines.next_line())
            .await
            .expect("the browser answers within a minute")
            .unwrap()
            .expect("the browser script ended early: see its output above");
        eprintln!("browser: {line}");
        line
    };
    let committed = next().await;
    assert!(committed.contains("Anna: seed committed"), "{committed}");
    // Ben commits through the API; the page then reveals Anna's seed by itself.
    let server_commitment =
        baffle_tests::seeds::server_commitment(server.channel().await, "m").await;
    let ben = baffle_tests::seeds::Secret::named(b"ben's seed", 0xbe);
    audit
        .commit_player_seed(baffle_tests::with_token(
            baffle_tests::seeds::commit_request(
                &server_commitment,
                "m",
                baffle_core::Side::B,
                &ben,
            ),
            &codes.code_b,
        ))
        .await
        .unwrap();
    stdin.write_all(b"GO\n").await.unwrap();
    let revealed = next().await;
    assert!(revealed.contains("Anna: seed revealed"), "{revealed}");
    // No dice commitment nor players' seeds on a match that draws nothing (a stranger
    // saw "dice committed" and "Ann: no seed" on a plain rapid match).
    assert_eq!(next().await, "CHESS verify 0 seeds 0");
    drop(stdin);
    assert!(child.wait().await.unwrap().success());
    // Ben reveals too, and the dice are drawn with both seeds in the key.
    audit
        .reveal_player_seed(baffle_tests::with_token(
            baffle_tests::seeds::reveal_request("m", baffle_core::Side::B, &ben),
            &codes.code_b,
        ))
        .await
        .unwrap();
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    d.act("m", baffle_tests::api::server_opening()).await;
    let log = baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap();
    assert_eq!(log.matches("dice.player_reveal").count(), 2);
    assert!(baffle_core::audit::verify::verify_jsonl(&log, None).is_ok());
    server.stop().await;
}
