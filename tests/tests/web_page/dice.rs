//! Issues 16 and 29: the dice on the phone page, in a real Chromium. The page recomputes
//! every server roll in the browser (WebCrypto SHA-256 and its own ChaCha20) for logs of
//! both constructions and reproduces `docs/dice.md`'s construction-2 vectors; a player
//! adds his seed from the page; and a confirmed match shows its dice verified with nobody
//! asking for the reveal. `tests/web/verify.mjs` and `tests/web/seeds.mjs` are the
//! browser's side; their headers list the lines.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use baffle_core::Side;
use baffle_core::Timestamp;
use baffle_core::audit::Chain;
use baffle_core::audit::export::{Line, parse_line, to_jsonl};
use baffle_core::backgammon::{Command, MatchSetup, WinKind};
use baffle_core::dice::{DiceVersion, ServerSeed};
use baffle_core::table::{GameSetup, MatchInfo, Request, Table, TableOptions};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_server::time::TimeSource;
use baffle_tests::api::{A, B, Director, defaults, result, server_opening, server_roll};
use baffle_tests::seeds::{Secret, commit_request, reveal_request, server_commitment};
use baffle_tests::{EPOCH, TestServer, with_token};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::browser_tools_or_skip;

/// `log` (an export) with each record's body passed through `change` (seq, body) and the
/// chain rebuilt around it, as a forger who rewrites the whole log would.
pub(super) fn forge(log: &str, mut change: impl FnMut(u64, String) -> String) -> String {
    let mut chain = Chain::new();
    for line in log.lines() {
        if let Ok(Line::Record(r)) = parse_line(line) {
            chain.append(change(r.seq, r.body.clone()));
        }
    }
    to_jsonl(chain.records())
}

/// A construction-1 log, written through the [`Table`] as the server wrote the first logs:
/// seeds in the clear, the opening, `rolls` rolls, the end and the reveal.
fn construction_1_log(rolls: usize) -> String {
    let info = MatchInfo {
        id: "first-log".into(),
        tournament: "club".into(),
        round: 1,
        table: "1".into(),
    };
    let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 1, Timestamp(0)));
    let options = TableOptions {
        dice: DiceVersion::V1,
        ..TableOptions::default()
    };
    let (mut table, records) =
        Table::create_with_options(info, setup, options, ServerSeed::from_bytes([9; 32])).unwrap();
    let mut chain = Chain::new();
    records.into_iter().for_each(|r| {
        chain.append(r.body);
    });
    let mut at = 0;
    let mut run = |table: &mut Table, request: Request| {
        at += 2_000;
        let plan = table.plan(&request, Timestamp(at)).unwrap();
        plan.records.into_iter().for_each(|r| {
            chain.append(r.body);
        });
        *table = plan.table;
    };
    for (side, seed) in [(Side::A, &b"anna"[..]), (Side::B, b"ben")] {
        let seed = seed.to_vec();
        run(&mut table, Request::PlayerSeed { side, seed });
    }
    for side in Side::BOTH {
        run(&mut table, Request::Backgammon(Command::CheckIn { side }));
    }
    run(&mut table, Request::ServerOpening);
    let mut mover = table.game().to_move().unwrap();
    for _ in 0..rolls {
        run(
            &mut table,
            Request::Backgammon(Command::Press { side: mover }),
        );
        mover = mover.other();
        run(&mut table, Request::ServerRoll(mover));
    }
    let (winner, kind) = (mover, WinKind::Single);
    run(
        &mut table,
        Request::Backgammon(Command::EndGame { winner, kind }),
    );
    run(&mut table, Request::Reveal);
    to_jsonl(chain.records())
}

/// Runs `tests/web/verify.mjs` at `match_id` with `logs` written to files; with `live`
/// it answers "GO" after `before_go` (the page has seen the match over).
async fn verify_in_browser(
    script: &Path,
    chromium: &Path,
    server: &TestServer,
    match_id: &str,
    logs: &[String],
    live: Option<std::pin::Pin<Box<dyn Future<Output = ()> + '_>>>,
) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec![server.url(), match_id.to_string()];
    if live.is_some() {
        args.push("--live".into());
    }
    for (i, log) in logs.iter().enumerate() {
        let path: PathBuf = dir.path().join(format!("log-{i}.jsonl"));
        std::fs::write(&path, log).unwrap();
        args.push(path.to_str().unwrap().into());
    }
    let mut child = tokio::process::Command::new("node")
        .arg(script)
        .args(&args)
        .env("CHROMIUM", chromium)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut out = Vec::new();
    let mut live = live;
    loop {
        let line = tokio::time::timeout(Duration::from_secs(60), lines.next_line())
            .await
            .expect("the browser answers within a minute")
            .unwrap();
        let Some(line) = line else { break };
        eprintln!("browser: {line}");
        if line.starts_with("OVER ")
            && let Some(step) = live.take()
        {
            step.await;
            stdin.write_all(b"GO\n").await.unwrap();
        }
        out.push(line);
    }
    assert!(child.wait().await.unwrap().success());
    out
}

/// The line of `lines` that starts with `tag`.
fn line<'a>(lines: &'a [String], tag: &str) -> &'a str {
    lines
        .iter()
        .find(|l| l.starts_with(tag))
        .unwrap_or_else(|| panic!("no {tag} line in {lines:?}"))
}

/// The page recomputes every server roll of a finished construction-2 match in the
/// browser and says so; on a forged copy it names the first roll that is not the seed's;
/// a construction-1 log still verifies there; and its own pieces reproduce vectors 7-11
/// of `docs/dice.md`.
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
    let s = d.act("m", server_opening()).await;
    assert_eq!(s.dice_construction, 2);
    let (mover, other) = (s.turn_side, if s.turn_side == A { B } else { A });
    for (side, next) in [(mover, other), (other, mover), (mover, other)] {
        server.time.advance(2_000);
        d.act("m", Action::Press(side)).await;
        d.act("m", server_roll(next)).await;
    }
    d.act("m", Action::EndGame(result(other, v1::WinKind::Single)))
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
    let mut forged_at = None;
    let forged = forge(&log, |seq, body| {
        let first_roll = body.contains("\"kind\":\"dice.roll\"") && forged_at.is_none();
        let its_use = body.contains("\"kind\":\"bg.rolled\"") && forged_at == Some(seq - 1);
        if !(first_roll || its_use) {
            return body;
        }
        forged_at.get_or_insert(seq);
        let start = body.find("\"dice\":[").unwrap() + 8;
        let was = body[start..start + 3].to_string();
        let other = if was == "6,6" { "5,5" } else { "6,6" };
        body.replacen(
            &format!("\"dice\":[{was}]"),
            &format!("\"dice\":[{other}]"),
            1,
        )
    });
    // Construction 1: the opening and five rolls, from one stream in log order.
    // A roll that names another place than its own (A's or B's first roll called his
    // second), and a construction the page does not know.
    let mut moved_at = None;
    let moved = forge(&log, |seq, body| {
        if moved_at.is_some() || !body.contains("\"kind\":\"dice.roll\"") {
            return body;
        }
        moved_at = Some(seq);
        body.replace("\"roll\":1}", "\"roll\":2}")
    });
    // (`match.opened` names the construction, then the signer of its heads.)
    let third = forge(&log, |_, body| {
        if body.contains("match.opened") {
            body.replacen("\"dice\":2", "\"dice\":3", 1)
        } else {
            body
        }
    });
    // Construction 1: the opening and five rolls, from one stream in log order.
    let first = construction_1_log(5);
    assert!(baffle_core::audit::verify::verify_jsonl(&first, None).is_ok());

    let logs = [forged, moved, third, first];
    let out = verify_in_browser(&script, &chromium, &server, "m", &logs, None).await;
    // The opening and three rolls.
    let verified = line(&out, "VERIFIED");
    assert!(
        verified.contains("all 4 rolls verified in this browser"),
        "{verified}"
    );
    let logs: Vec<&String> = out.iter().filter(|l| l.starts_with("LOG ")).collect();
    let forged_at = forged_at.unwrap();
    assert!(
        logs[0].contains("\"ok\":false") && logs[0].contains(&format!("record {forged_at}:")),
        "{}",
        logs[0]
    );
    let moved_at = moved_at.unwrap();
    assert!(
        logs[1].contains(&format!("record {moved_at}: the draw is not at its place")),
        "{}",
        logs[1]
    );
    assert!(
        logs[2].contains("names dice construction 3, which this page does not know"),
        "{}",
        logs[2]
    );
    assert_eq!(logs[3], "LOG {\"ok\":true,\"draws\":6}");
    // docs/dice.md, "Test vectors / Construction 2": every value, as the browser made it.
    let vectors = line(&out, "VECTORS");
    for claim in [
        "commitment=630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "key=0625dace0588120de353e9f100a612f1ffdba8786d5fa6a016f865fddc2050ea",
        "opening1=3-3/6-3",
        "words=3915256220,2091545342,3658965491,3155551196",
        "opening2=1-2",
        "rollsA=2-1,1-3,1-2",
        "wordsA=458930623,713029584",
        "rollsB=5-4,5-3,1-6",
        "wordsB=686533192,2879884509",
        "sp=862",
        "commitA=643498c778ae0b1cc97f4c5301add50e2815cb9ec87aac107afbb1b8b54b0781",
        "commitB=7f84c83f679851c87541b8b2027954cd247d7d6d968058fdd2fd2b488e2adc00",
    ] {
        assert!(
            vectors.split(' ').any(|v| v == claim),
            "{claim} in {vectors}"
        );
    }
    server.stop().await;
}

/// Issue 29: a construction-2 match with both players' seeds (salted, revealed through
/// the API) is played to its result with the page open; the director confirms it, the
/// server reveals its seed by itself, and the page shows every roll verified — nobody
/// called Reveal. A copy whose salt was changed fails the player's commitment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmed_match_shows_its_dice_verified_without_a_reveal_call() {
    let Some((script, chromium)) = browser_tools_or_skip() else {
        return;
    };
    let script = script.with_file_name("verify.mjs");
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("club", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("club", "m", 1, EPOCH.as_ms()).await;
    let mut audit = v1::audit_client::AuditClient::new(server.channel().await);
    let codes = baffle_tests::seeds::player_codes(&server, "m").await;
    let commitment = server_commitment(server.channel().await, "m").await;
    let players = [
        (Side::A, Secret::named(b"anna's seed", 0xa5), &codes.code_a),
        (Side::B, Secret::named(b"ben's seed", 0xb5), &codes.code_b),
    ];
    for (side, secret, code) in &players {
        let request = commit_request(&commitment, "m", *side, secret);
        audit
            .commit_player_seed(with_token(request, code))
            .await
            .unwrap();
    }
    for (side, secret, code) in &players {
        let request = reveal_request("m", *side, secret);
        audit
            .reveal_player_seed(with_token(request, code))
            .await
            .unwrap();
    }
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let s = d.act("m", server_opening()).await;
    let (mover, other) = (s.turn_side, if s.turn_side == A { B } else { A });
    for (side, next) in [(mover, other), (other, mover)] {
        server.time.advance(2_000);
        d.act("m", Action::Press(side)).await;
        d.act("m", server_roll(next)).await;
    }
    let s = d
        .act("m", Action::EndGame(result(other, v1::WinKind::Single)))
        .await;
    assert!(!s.dice_revealed, "not before the result is confirmed");

    let confirm = Box::pin(async {
        let mut d = Director::connect(&server).await;
        let s = d.act("m", Action::ConfirmResult(v1::Empty {})).await;
        assert!(s.dice_revealed, "the server reveals its seed by itself");
    });
    // The log with A's salt changed (its last hex digit), the chain rebuilt.
    let log = baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap();
    let mut salted_at = 0;
    let forged = forge(&log, |seq, body| {
        if !body.contains("\"kind\":\"dice.player_reveal\",\"side\":\"A\"") {
            return body;
        }
        salted_at = seq;
        body.replace("a5\"}", "a6\"}")
    });
    // A's reveal turned into a seed in the clear, which construction 2 refuses.
    let clear = forge(&log, |_, body| {
        body.replace(
            "\"kind\":\"dice.player_reveal\",\"side\":\"A\"",
            "\"kind\":\"dice.player_seed\",\"side\":\"A\"",
        )
    });
    let logs = [forged, clear];
    let out = verify_in_browser(&script, &chromium, &server, "m", &logs, Some(confirm)).await;
    let over = line(&out, "OVER");
    assert!(over.contains("checked after the match"), "{over}");
    // The opening and two rolls.
    let verified = line(&out, "VERIFIED");
    assert!(
        verified.contains("all 3 rolls verified in this browser"),
        "{verified}"
    );
    let logs: Vec<&String> = out.iter().filter(|l| l.starts_with("LOG ")).collect();
    assert!(
        logs[0].contains("\"ok\":false")
            && logs[0].contains(&format!(
                "record {salted_at}: the revealed seed and salt do not match"
            )),
        "{}",
        logs[0]
    );
    assert!(
        logs[1].contains(&format!(
            "record {salted_at}: a seed in the clear, which construction 2 refuses"
        )),
        "{}",
        logs[1]
    );
    server.stop().await;
}

/// Issues 16 and 29: a player adds his own seed from the phone page with his code — the
/// browser makes seed and salt, commits to them bound to the server's commitment, keeps
/// them across a reload, and reveals them by itself once the other player has committed;
/// meanwhile the page says who has not revealed and by when, then that it is overdue.
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
    // Due in an hour, so that waiting out the reveal's deadline makes nobody late.
    d.create_match("club", "m", 3, EPOCH.as_ms() + 3_600_000)
        .await;
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
    let codes = baffle_tests::seeds::player_codes(&server, "m").await;
    let mut browser = super::Script::start(
        &script,
        &chromium,
        &[server.url().as_str(), "m", codes.code_a.as_str(), "c"],
    );
    let committed = browser.next().await;
    assert!(committed.contains("Anna: seed committed"), "{committed}");
    // Ben commits through the API; the page (reloaded since it committed) then reveals
    // Anna's seed by itself, with its salt.
    let server_commitment = server_commitment(server.channel().await, "m").await;
    let ben = Secret::named(b"ben's seed", 0xbe);
    let request = commit_request(&server_commitment, "m", Side::B, &ben);
    audit
        .commit_player_seed(with_token(request, &codes.code_b))
        .await
        .unwrap();
    browser.say("GO").await;
    let revealed = browser.next().await;
    assert!(revealed.contains("Anna: seed revealed"), "{revealed}");
    let due = d.state("m").await.reveal_due_ms;
    assert!(due > 0);
    let said = browser.next().await;
    // The time as the page's language writes it ("14:32", or "02:32 PM").
    let when = said.strip_prefix("DUE not revealed yet: Ben · due ");
    assert!(when.is_some_and(|w| w.contains(':')), "{said}");
    // Past the deadline (the page learns the server's time from its next update).
    server.time.advance(due - server.time.now().as_ms() + 1_000);
    d.act("m", Action::CheckIn(A)).await;
    browser.say("LATE").await;
    assert_eq!(
        browser.next().await,
        "OVERDUE not revealed yet: Ben · overdue: the director rules"
    );
    // The director rules: ten more minutes. The page says so, and the reveal is due again.
    audit
        .extend_reveal_deadline(server.director(v1::ExtendRevealDeadlineRequest {
            match_id: "m".into(),
            seconds: 600,
            reason: "Ben's phone went flat".into(),
            article: "2.3".into(),
        }))
        .await
        .unwrap();
    browser.say("EXTENDED").await;
    let extended = browser.next().await;
    let [due, event, first]: [&str; 3] = extended
        .split(" | ")
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    assert!(
        first.contains("the seeds are to be revealed by "),
        "{extended}"
    );
    assert!(
        due.starts_with("EXTENDED not revealed yet: Ben · due "),
        "{extended}"
    );
    let when = &due["EXTENDED not revealed yet: Ben · due ".len()..];
    assert!(
        event.ends_with(&format!(
            "ruling, art. 2.3 of the regulations: the seeds' reveal extended to {when}"
        )),
        "{extended}"
    );
    // No dice commitment nor players' seeds on a match that draws nothing (a stranger
    // saw "dice committed" and "Ann: no seed" on a plain rapid match).
    assert_eq!(browser.next().await, "CHESS verify 0 seeds 0");
    browser.end().await;
    // Ben reveals too, late but before the director ruled, and the dice are drawn with
    // both seeds in the key.
    let request = reveal_request("m", Side::B, &ben);
    audit
        .reveal_player_seed(with_token(request, &codes.code_b))
        .await
        .unwrap();
    d.act("m", Action::CheckIn(B)).await;
    d.act("m", server_opening()).await;
    let log = baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap();
    // Both reveals carry their salt: Anna's made in the browser, Ben's through the API.
    let reveals: Vec<String> = log
        .lines()
        .filter_map(|l| match parse_line(l) {
            Ok(Line::Record(r)) if r.body.contains("\"kind\":\"dice.player_reveal\"") => {
                Some(r.body.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(reveals.len(), 2, "{reveals:?}");
    assert!(reveals[0].contains("\"side\":\"A\"") && reveals[0].contains("\"salt\":\""));
    assert!(reveals[1].ends_with(&format!("\"salt\":\"{}\"}}", hex::encode([0xbe; 32]))));
    assert!(baffle_core::audit::verify::verify_jsonl(&log, None).is_ok());
    server.stop().await;
}
