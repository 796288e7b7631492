//! Issue 35: live dice on the phone page, in a real Chromium. Two pages, one per player,
//! each with its own storage as two phones: each player types his code, the page makes
//! and commits his chain, and gives his links by itself whenever a draw waits for one; a
//! player rolls and presses from his page. Once the director confirms the result the
//! server reveals its seed, and every roll verifies in the page and in
//! `baffle_core::audit::verify`. `tests/web/live.mjs` is the browser's side.

use std::time::Duration;

use baffle_core::audit::export::{Line, parse_line};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_tests::api::{A, B, Director, defaults, result, server_opening};
use baffle_tests::{EPOCH, TestServer};

use super::browser_tools_or_skip;
use super::dice::forge;

/// The chain length the page makes (core's `DEFAULT_CHAIN_LENGTH`).
const LENGTH: u32 = 4096;

/// The state once `ready` holds: the pages act on their own, so the test waits (up to
/// 30 s of real time, the server's clock standing still).
async fn until(
    d: &mut Director,
    what: &str,
    ready: impl Fn(&v1::MatchState) -> bool,
) -> v1::MatchState {
    for _ in 0..1_500 {
        let s = d.state("m").await;
        if ready(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never {what}: {:?}", d.state("m").await.live_dice);
}

/// Links left in each chain.
fn left(s: &v1::MatchState) -> [u32; 2] {
    let live = s.live_dice.as_ref().expect("live dice");
    [&live.chain_a, &live.chain_b].map(|c| c.as_ref().map_or(0, |c| c.left))
}

/// Whether the `n`-th draw of the match is made: each took one link of each chain.
fn drawn(s: &v1::MatchState, n: u32) -> bool {
    let live = s.live_dice.as_ref().expect("live dice");
    live.waiting.is_none() && left(s) == [LENGTH - n; 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_live_dice_from_their_phones() {
    let Some((script, chromium)) = browser_tools_or_skip() else {
        return;
    };
    let script = script.with_file_name("live.mjs");
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament(
        "club",
        v1::TournamentDefaults {
            player_seeds: v1::PlayerSeedPolicy::Live as i32,
            ..defaults(120_000, None, v1::DiceSource::Server)
        },
    )
    .await;
    d.create_match("club", "m", 1, EPOCH.as_ms()).await;
    let codes = baffle_tests::seeds::player_codes(&server, "m").await;
    let args = [
        server.url(),
        "m".into(),
        codes.code_a.clone(),
        codes.code_b.clone(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut browser = super::Script::start(&script, &chromium, &args);

    // The page's pieces reproduce docs/dice.md's vectors 12–15.
    let vectors = browser.next().await;
    for value in [
        "4adf6be9dfe4d6a6e73db07d64e86e3d4145fa8e2fa8a878b88afc4cf0aa7b04",
        "e0765bf103a88d52c5d618990dc2624be27a1e39744edf198477ef42ae93c5ea",
        "1df0414cc44b0ef1af29cd09ded623916dfdab3228ffbacaaa570a33d2ab30df",
        "f270a3391048fc136fb14131753d87b854aed87e2724a6a2df7590709b28bb31",
        "\"opening\":\"1-1 2-6\"",
        "\"roll\":\"3-3\"",
    ] {
        assert!(vectors.contains(value), "{value} in {vectors}");
    }

    // Both chains committed from the pages, full length.
    let committed = browser.next().await;
    let chains = "Anna: chain committed, 4,096 links left · Ben: chain committed, 4,096 links left";
    assert!(
        committed.starts_with(&format!("COMMITTED {chains}"))
            && committed.contains(&format!("| {chains}")),
        "{committed}"
    );
    assert_eq!(left(&d.state("m").await), [LENGTH; 2]);

    let letter = |side| if side == A { "A" } else { "B" };
    // A line to the browser, and its answer.
    // Ben's phone is away when the director asks for the opening: Anna's page gives her
    // link by itself and says the draw waits for Ben's.
    assert_eq!(browser.talk("AWAY B").await, "AWAY B");
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let s = d.act("m", server_opening()).await;
    assert!(s.live_dice.unwrap().waiting.is_some(), "the opening waits");
    assert_eq!(
        browser.talk("WAITING A Anna").await,
        "WAITING the dice wait for Ben's link"
    );
    let s = d.state("m").await;
    let waiting = s.live_dice.unwrap().waiting.unwrap();
    assert!(waiting.given_a && !waiting.given_b);
    // Ben's page comes back: from what it kept, it gives his link, and the opening is
    // drawn.
    assert_eq!(browser.talk("BACK B").await, "BACK B");
    let s = until(&mut d, "the opening drawn", |s| drawn(s, 1)).await;
    let mut roller = s.turn_side;
    let mut draws = 1;
    // Four turns: the player on roll presses on his page; the other clicks Roll on his
    // (his link goes with it, the other page gives its own), and so on. In the last, the
    // presser's phone is away when the roll is asked for: the roller's clock stands and
    // his page says whose link the dice wait for, until that phone is back.
    for turn in 0..4 {
        server.time.advance(2_000);
        let press = format!("CLICK {} press", letter(roller));
        assert_eq!(
            browser.talk(&press).await,
            format!("CLICKED {} press", letter(roller))
        );
        let other = if roller == A { B } else { A };
        until(&mut d, "the press", |s| s.turn_side == other).await;
        let away = turn == 3;
        if away {
            let line = format!("AWAY {}", letter(roller));
            assert_eq!(browser.talk(&line).await, line);
        }
        let roll = format!("CLICK {} roll", letter(other));
        assert_eq!(
            browser.talk(&roll).await,
            format!("CLICKED {} roll", letter(other))
        );
        draws += 1;
        if away {
            let s = until(&mut d, "the roll asked for", |s| {
                s.live_dice.as_ref().is_some_and(|l| l.waiting.is_some())
            })
            .await;
            assert_eq!(
                s.clock.unwrap().paused,
                v1::PauseReason::AwaitingLinks as i32
            );
            let names = |side| if side == A { "Anna" } else { "Ben" };
            let asked = format!("WAITING {} {}", letter(other), names(other));
            assert_eq!(
                browser.talk(&asked).await,
                format!("WAITING the dice wait for {}'s link", names(roller))
            );
            let line = format!("BACK {}", letter(roller));
            assert_eq!(browser.talk(&line).await, line);
        }
        let s = until(&mut d, "the roll drawn", |s| drawn(s, draws)).await;
        assert_eq!(s.dice.len(), 2, "{s:?}");
        roller = other;
    }

    // The director ends the game and confirms the result: the server reveals its seed,
    // and the page verifies every draw by itself.
    d.act("m", Action::EndGame(result(roller, v1::WinKind::Single)))
        .await;
    let s = d.act("m", Action::ConfirmResult(v1::Empty {})).await;
    assert!(s.dice_revealed);
    let verified = browser.talk("OVER").await;
    assert!(
        verified.starts_with(&format!(
            "VERIFIED dice committed: {}…",
            &s.commitment[..16]
        )) && verified.ends_with(&format!(" · all {draws} rolls verified in this browser")),
        "{verified}"
    );

    // The log, and a copy with a link changed (the chain rebuilt around it): the page
    // refuses the copy at that link, which no longer hashes to its chain.
    let log = baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap();
    let mut changed_at = 0;
    let forged = forge(&log, |seq, body| {
        if changed_at == 0 && body.contains("\"kind\":\"dice.link\"") {
            changed_at = seq;
            let end = body.len() - 3;
            let digit = if &body[end..end + 1] == "0" { "1" } else { "0" };
            return format!("{}{digit}{}", &body[..end], &body[end + 1..]);
        }
        body
    });
    let forged = serde_json::to_string(&forged).unwrap();
    let answer = browser.talk(&format!("FORGED {forged}")).await;
    assert!(
        answer.contains("\"ok\":false")
            && answer.contains(&format!(
                "record {changed_at}: the link does not hash to the last value of that player's chain"
            )),
        "{answer}"
    );
    // Each page shows its player's anchor, and holds the log to it: a twin whose chain
    // for Anna is another (the operator's own, the hashes redone) fails on Anna's page
    // at that chain, before anything else.
    let anchors: Vec<String> = log
        .lines()
        .filter(|l| l.contains(r#"\"kind\":\"dice.chain\""#))
        .map(|l| {
            let start = l.find(r#"\"anchor\":\""#).unwrap() + 13;
            l[start..start + 64].to_string()
        })
        .collect();
    for anchor in &anchors {
        assert!(
            committed.contains(anchor.as_str()),
            "{anchor} in {committed}"
        );
    }
    let annas = log
        .lines()
        .find(|l| l.contains(r#"\"kind\":\"dice.chain\",\"side\":\"A\""#))
        .and_then(|l| anchors.iter().find(|a| l.contains(a.as_str())))
        .expect("Anna's chain")
        .clone();
    let mut twin_at = 0;
    let twin = forge(&log, |seq, body| {
        if twin_at == 0 && body.contains(&annas) {
            twin_at = seq;
            return body.replace(&annas, &"0".repeat(64));
        }
        body
    });
    let twin = serde_json::to_string(&twin).unwrap();
    let answer = browser.talk(&format!("FORGED {twin}")).await;
    assert!(
        answer.contains("\"ok\":false")
            && answer.contains(&format!(
                "record {twin_at}: that is not the chain this browser committed"
            )),
        "{answer}"
    );
    browser.say("END").await;
    browser.end().await;

    // The log: two links for every draw, both made in the browsers, and it verifies.
    let kinds: Vec<String> = log
        .lines()
        .filter_map(|l| match parse_line(l) {
            Ok(Line::Record(r)) => Some(r.body.clone()),
            _ => None,
        })
        .collect();
    let count = |kind: &str| kinds.iter().filter(|b| b.contains(kind)).count();
    assert_eq!(count("\"kind\":\"dice.chain\""), 2);
    assert_eq!(count("\"kind\":\"dice.link\""), 2 * draws as usize);
    assert_eq!(
        count("\"kind\":\"dice.roll\"") + count("\"kind\":\"dice.opening\""),
        draws as usize
    );
    assert!(baffle_core::audit::verify::verify_jsonl(&log, None).is_ok());
    server.stop().await;
}
