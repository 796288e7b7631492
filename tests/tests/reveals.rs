//! What the director and the room are told about the players' seeds and the dice
//! (issue 29): a reveal awaited and past its deadline (`match show`, `match list`, the
//! console's to-do list, judged on the server's clock), the director's extension and what
//! a ruling without a reason gets, a press-back claimed in a match without recorded
//! moves, and "verified" once the server's seed is revealed. Against a real server
//! in-process, its clock turned by hand; the console and the follow view drawn on
//! ratatui's test backend.

use baffle_client::cli::Cli;
use baffle_client::run::Outcome;
use baffle_client::tui::console::{Dashboard, Key};
use baffle_client::tui::follow;
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_server::time::TimeSource;
use baffle_tests::api::{A, B, Director, defaults, opening};
use baffle_tests::cli::baffle;
use baffle_tests::{EPOCH, TestServer};
use clap::Parser;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The screen as text, a line per row, with the head hashes named replaced.
fn screen(terminal: &Terminal<TestBackend>, heads: &[&str]) -> String {
    let buffer = terminal.backend().buffer();
    let mut text = String::new();
    for y in 0..buffer.area.height {
        let line: String = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        text.push_str(line.trim_end());
        text.push('\n');
    }
    for head in heads {
        text = text.replace(&head[..12], "<head-hash>");
    }
    text
}

/// Issue 29: both players committed to a seed and only Anna revealed. No die is drawn;
/// `match show` and `match list` say whose seed is awaited and until when, and past the
/// deadline on the server's clock the alert with both rulings. A ruling without a reason
/// is refused and changes nothing; `extend-reveal` records `dice.reveal_due` with its
/// reason and article, and the alert is gone; a forfeit ends the wait.
#[tokio::test]
async fn a_reveal_past_its_deadline_is_an_alert_and_the_director_extends_it() {
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    ok(&baffle(&server, &["tournament", "create", "club"]).await);
    let create = [
        "match",
        "create",
        "--tournament",
        "club",
        "--table",
        "7",
        "--length",
        "3",
        "--players",
        "Anna,Ben",
    ];
    ok(&baffle(&server, &create).await);
    baffle_tests::seeds::only_a_reveals(&server, "r1-t7").await;
    for side in ["a", "b"] {
        ok(&baffle(&server, &["play", "r1-t7", "check-in", side]).await);
    }
    // The server refuses every die while a reveal is pending, naming whose.
    let o = baffle(&server, &["play", "r1-t7", "opening"]).await;
    assert_eq!(o.code, 4, "{}", o.out);
    assert!(
        o.err.contains("no dice until player B reveals his"),
        "{}",
        o.err
    );
    let show = ["match", "show", "r1-t7"];
    let o = baffle(&server, &show).await;
    ok(&o);
    let waiting =
        "dice   waiting for Ben's seed (due 00:05 UTC): no die is drawn until it is revealed";
    assert!(o.out.contains(waiting), "{}", o.out);
    let list = ["match", "list", "--tournament", "club"];
    let o = baffle(&server, &list).await;
    assert!(o.out.contains(&format!("r1-t7  {waiting}")), "{}", o.out);

    // Past the deadline, on the server's clock.
    server.time.advance(5 * 60_000);
    let o = baffle(&server, &show).await;
    let alert = "dice   Ben has not revealed his seed: due 00:05 UTC — extend: baffle rule r1-t7 \
                 --reason … --article … extend-reveal MINUTES, or rule a forfeit (2.3): \
                 baffle rule r1-t7 --reason … --article 2.3 forfeit-match B";
    assert!(o.out.contains(alert), "{}", o.out);
    let o = baffle(&server, &list).await;
    assert!(o.out.contains(&format!("r1-t7  {alert}")), "{}", o.out);
    let o = baffle(&server, &["--lang", "el", "match", "show", "r1-t7"]).await;
    assert!(
        o.out
            .contains("ζάρια  Ben: δεν αποκάλυψε τον σπόρο του, προθεσμία 00:05 UTC — παράταση"),
        "{}",
        o.out
    );

    // A ruling without a reason: the command line asks for one; a blank one is refused
    // by the server. Neither changes the match.
    let before = baffle(&server, &["--json", "match", "show", "r1-t7"]).await;
    let no_reason = [
        "baffle",
        "rule",
        "r1-t7",
        "--article",
        "2.3",
        "extend-reveal",
        "10",
    ];
    let e = Cli::try_parse_from(no_reason).unwrap_err();
    assert_eq!(e.kind(), clap::error::ErrorKind::MissingRequiredArgument);
    assert!(e.to_string().contains("--reason"), "{e}");
    let blank = [
        "rule",
        "r1-t7",
        "--reason",
        " ",
        "--article",
        "2.3",
        "extend-reveal",
        "10",
    ];
    let o = baffle(&server, &blank).await;
    assert_eq!(o.code, 4, "{}", o.out);
    assert!(
        o.err
            .contains("an extension of the reveal deadline needs a reason and an article"),
        "{}",
        o.err
    );
    let after = baffle(&server, &["--json", "match", "show", "r1-t7"]).await;
    assert_eq!(before.out, after.out, "a refused ruling changes nothing");

    let extend = [
        "rule",
        "r1-t7",
        "--reason",
        "his phone died",
        "--article",
        "2.3",
        "extend-reveal",
        "10",
    ];
    let o = baffle(&server, &extend).await;
    ok(&o);
    assert!(
        o.out.contains("the reveals are now due by 00:15 UTC"),
        "{}",
        o.out
    );
    assert!(!o.out.contains("has not revealed"), "{}", o.out);
    let log = baffle(&server, &["audit", "export", "r1-t7"]).await;
    let due_ms = EPOCH.as_ms() + 15 * 60_000;
    let recorded = format!(
        r#"{{\"kind\":\"dice.reveal_due\",\"by\":{due_ms},\"reason\":\"his phone died\",\"article\":\"2.3\"}}"#
    );
    assert!(log.out.contains(&recorded), "{}", log.out);
    let o = baffle(&server, &show).await;
    assert!(!o.out.contains("has not revealed"), "{}", o.out);
    assert!(o.out.contains("due 00:15 UTC"), "{}", o.out);

    // Past the new deadline, the director rules the forfeit: nothing is awaited any more.
    server.time.advance(10 * 60_000);
    let o = baffle(&server, &show).await;
    assert!(
        o.out.contains("has not revealed his seed: due 00:15 UTC"),
        "{}",
        o.out
    );
    let forfeit = [
        "rule",
        "r1-t7",
        "--reason",
        "did not reveal his seed",
        "--article",
        "2.3",
        "forfeit-match",
        "b",
    ];
    ok(&baffle(&server, &forfeit).await);
    let o = baffle(&server, &show).await;
    assert!(
        !o.out.contains("Ben's seed") && !o.out.contains("has not revealed"),
        "{}",
        o.out
    );
    server.stop().await;
}

/// The screen's text, with nothing to hide.
fn text_of(terminal: &Terminal<TestBackend>) -> String {
    screen(terminal, &[])
}

/// A match whose players both committed to a seed and only Anna revealed: the console
/// says whose seed it waits for and until when; past the deadline on the server's clock
/// (the state's `sent_at_ms`, not this machine's) the to-do becomes the alert, in both
/// languages; the director's extension clears it.
#[tokio::test]
async fn the_console_alerts_on_an_overdue_reveal() {
    use baffle_client::words::{self, Language};
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("srv", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("srv", "r1-t7", 5, EPOCH.as_ms()).await;
    baffle_tests::seeds::only_a_reveals(&server, "r1-t7").await;
    let mut board = Dashboard::new("srv");
    board.update(d.state("r1-t7").await);
    let mut terminal = Terminal::new(TestBackend::new(160, 24)).unwrap();
    terminal
        .draw(|f| board.draw(f, server.time.now().as_ms()))
        .unwrap();
    let waiting = text_of(&terminal);
    assert!(
        waiting.contains(
            "r1-t7 (table 7): waiting for Ben's seed, due 00:05 UTC — no die is drawn until then"
        ),
        "{waiting}"
    );
    assert!(!waiting.contains("has not revealed"), "{waiting}");

    // Five minutes on the server's clock; nothing else happens in the match.
    server.time.advance(5 * 60_000);
    board.update(d.state("r1-t7").await);
    let now = server.time.now().as_ms();
    terminal.draw(|f| board.draw(f, now)).unwrap();
    let overdue = text_of(&terminal);
    assert!(
        overdue.contains(
            "r1-t7 (table 7): Ben has not revealed his seed: due 00:05 UTC — extend: e, or rule a forfeit: f"
        ),
        "{overdue}"
    );
    words::in_locale(Language::El, || {
        terminal.draw(|f| board.draw(f, now)).unwrap();
        let greek = text_of(&terminal);
        assert!(
            greek.contains("Ben: δεν αποκάλυψε τον σπόρο του, προθεσμία 00:05 UTC — παράταση"),
            "{greek}"
        );
    });

    // The director extends from the console: `e`, ten minutes, his reason, Enter for
    // the usual article (2.3), y — sent as the console sends it.
    board.key(Key::Char('e'));
    for c in "10\rhis phone died\r\r".chars() {
        board.key(if c == '\r' { Key::Enter } else { Key::Char(c) });
    }
    let pending = board.key(Key::Char('y')).expect("confirmed");
    let token = Some(server.token.clone());
    baffle_client::tui::app::send(&server.url(), &token, pending)
        .await
        .expect("the extension is taken");
    board.update(d.state("r1-t7").await);
    terminal.draw(|f| board.draw(f, now)).unwrap();
    let extended = text_of(&terminal);
    assert!(!extended.contains("has not revealed"), "{extended}");
    assert!(
        extended.contains("waiting for Ben's seed, due 00:15 UTC"),
        "{extended}"
    );
    server.stop().await;
}

/// In a match that does not record moves, Ben presses back: the console reads the
/// records the state change may hide, and says his claim to be closed out on the ticker
/// and the to-do list, in both languages.
#[tokio::test]
async fn a_press_back_claim_shows_in_the_console() {
    use baffle_client::tui::console::Wanted;
    use baffle_client::words::{self, Language};
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "r1-t7", 5, EPOCH.as_ms()).await;
    d.act("r1-t7", Action::CheckIn(A)).await;
    d.act("r1-t7", Action::CheckIn(B)).await;
    d.act("r1-t7", opening(6, 1)).await;
    let before = d.act("r1-t7", Action::Press(A)).await;
    let mut board = Dashboard::new("open");
    board.update(before);
    let after = d.act("r1-t7", Action::PressBack(B)).await;
    let wanted = board.update(after);
    assert_eq!(wanted.len(), 1, "{wanted:?}");
    for w in wanted {
        let Wanted::Events {
            match_id,
            from_seq,
            to_seq,
        } = w
        else {
            panic!("{w:?}")
        };
        let events =
            baffle_client::tui::app::records(&server.url(), &match_id, from_seq, to_seq).await;
        board.events(&match_id, &events);
    }
    let now = server.time.now().as_ms();
    let mut terminal = Terminal::new(TestBackend::new(160, 24)).unwrap();
    terminal.draw(|f| board.draw(f, now)).unwrap();
    let shown = text_of(&terminal);
    assert!(
        shown.contains(
            "r1-t7 (table 7): Ben pressed back, claiming he is closed out (4.2 (i)) — check the board; d to dismiss"
        ),
        "{shown}"
    );
    assert!(
        shown.contains(
            "r1-t7: Ben pressed back, claiming he is closed out (4.2 (i)): check the board"
        ),
        "{shown}"
    );
    words::in_locale(Language::El, || {
        terminal.draw(|f| board.draw(f, now)).unwrap();
        let greek = text_of(&terminal);
        assert!(
            greek.contains("Ben: πάτησε χωρίς ζαριά, δηλώνει ότι είναι κλειστός (4.2 (i))"),
            "{greek}"
        );
    });
    server.stop().await;
}

/// A match decided and confirmed with nobody calling Reveal: the server revealed its
/// seed by itself, and the follow view recomputes the dice from the log and says
/// "verified" — only then, not on the reveal's word.
#[tokio::test]
async fn follow_says_verified_once_the_result_is_confirmed() {
    use baffle_client::reveal::{DiceCheck, check};
    use baffle_client::words::{self, Language};
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("srv", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("srv", "r1-t7", 5, EPOCH.as_ms()).await;
    d.act("r1-t7", Action::CheckIn(A)).await;
    d.act("r1-t7", Action::CheckIn(B)).await;
    d.act("r1-t7", baffle_tests::api::server_opening()).await;
    d.act("r1-t7", Action::ForfeitMatch(B)).await;
    d.act("r1-t7", Action::ConfirmResult(v1::Empty {})).await;
    let s = d.state("r1-t7").await;
    assert!(s.dice_revealed, "the server revealed its seed by itself");
    let now = server.time.now().as_ms();
    let mut terminal = Terminal::new(TestBackend::new(80, 16)).unwrap();
    let checking = follow::Status {
        dice: Some(follow::DiceShown::Checking),
        ..Default::default()
    };
    terminal
        .draw(|f| follow::draw(f, &s, now, &checking))
        .unwrap();
    let before = screen(&terminal, &[&s.head_hash]);
    assert!(
        before.contains("seed revealed: checking the dice…") && !before.contains("verified"),
        "{before}"
    );
    // A server out of reach says nothing about the dice: not checked, not "NOT VERIFIED".
    let nowhere = tonic::transport::Endpoint::from_static("http://127.0.0.1:1").connect_lazy();
    let unread = check(nowhere, "r1-t7", &s.head_hash).await;
    assert!(matches!(unread, DiceCheck::Unreadable { .. }), "{unread:?}");
    let checked = check(server.channel().await, "r1-t7", &s.head_hash).await;
    let DiceCheck::Verified { draws } = checked else {
        panic!("{checked:?}")
    };
    assert!(draws >= 1, "the opening roll at least");
    let status = follow::Status {
        dice: Some(follow::DiceShown::Checked(checked)),
        ..Default::default()
    };
    terminal
        .draw(|f| follow::draw(f, &s, now, &status))
        .unwrap();
    let verified = screen(&terminal, &[&s.head_hash]);
    assert!(verified.contains("dice verified:"), "{verified}");
    assert!(verified.contains("recomputed here"), "{verified}");
    words::in_locale(Language::El, || {
        terminal
            .draw(|f| follow::draw(f, &s, now, &status))
            .unwrap();
        let greek = screen(&terminal, &[&s.head_hash]);
        assert!(greek.contains("τα ζάρια επαληθεύτηκαν"), "{greek}");
    });
    // `match show` says the same, after checking the log itself, and so does `follow`
    // without a terminal before it ends.
    let o = baffle(&server, &["match", "show", "r1-t7"]).await;
    assert!(o.out.contains("dice   verified: "), "{}", o.out);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code =
        baffle_client::tui::lines::follow(server.url(), "r1-t7".into(), false, &mut out, &mut err)
            .await
            .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, 0, "{out}");
    assert!(
        out.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("dice verified:"),
        "{out}"
    );
    server.stop().await;
}
