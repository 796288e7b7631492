//! The dashboard and the follow view, drawn on ratatui's test backend from real match
//! states (a server in-process, the clock injected) and compared with the snapshots in
//! `tests/snapshots/`. `INSTA_UPDATE=always cargo test -p baffle-tests --test screens`
//! rewrites them after a deliberate change of layout.

use baffle_client::tui::console::{Dashboard, Key, Order, Prompt};
use baffle_client::tui::follow;
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_server::time::TimeSource;
use baffle_tests::api::{A, B, Director, defaults, opening, result};
use baffle_tests::{EPOCH, TestServer};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The screen as text, with the match's random head hash replaced.
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

/// The running clock is green and bold, the result to confirm magenta: what needs the
/// director stands out in colour, not only in words.
fn assert_colours(terminal: &Terminal<TestBackend>, over: &str) {
    use ratatui::style::Color;
    let buffer = terminal.backend().buffer();
    let find = |text: &str| {
        (0..buffer.area.height).find_map(|y| {
            let line: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect();
            line.find(text)
                .map(|i| (line[..i].chars().count() as u16, y))
        })
    };
    let (x, y) = find("14:00.0 +7").expect("B's running clock");
    assert_eq!(buffer[(x, y)].fg, Color::Green);
    let (x, y) = find(&format!(" {over} ")).expect("the match to confirm");
    assert_eq!(buffer[(x + 1, y)].fg, Color::Magenta);
}

/// Two matches at table 7 and 8: one in a game with B's clock running and a penalty
/// point given, one finished and waiting for confirmation. Both are Anna v Ben, so the
/// second ("r1-t8", its id kept for the snapshots) is in round 2: a round has one match
/// per pair of players.
async fn room() -> (TestServer, Vec<v1::MatchState>) {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "r1-t7", 7, EPOCH.as_ms()).await;
    d.create_match_at("open", "r1-t8", "8", 3, EPOCH.as_ms())
        .await;
    for m in ["r1-t7", "r1-t8"] {
        d.act(m, Action::CheckIn(A)).await;
        d.act(m, Action::CheckIn(B)).await;
    }
    d.act("r1-t7", opening(6, 1)).await;
    server.time.advance(20_000);
    d.act("r1-t7", Action::Press(A)).await;
    d.act(
        "r1-t7",
        Action::AwardPoints(v1::Points { side: B, points: 1 }),
    )
    .await;
    d.act("r1-t8", opening(2, 5)).await;
    d.act("r1-t8", Action::EndGame(result(B, v1::WinKind::Backgammon)))
        .await;
    server.time.advance(5_000);
    let states = vec![d.state("r1-t7").await, d.state("r1-t8").await];
    (server, states)
}

#[tokio::test]
async fn the_dashboard_shows_every_match_with_ticking_clocks_and_alerts() {
    let (server, states) = room().await;
    let mut board = Dashboard::new("open");
    // The first states as the feed sends them, then the changes that raise alerts.
    for s in &states {
        let mut before = s.clone();
        before.penalty_points = vec![0, 0];
        before.result = None;
        board.update(before);
    }
    for s in &states {
        board.update(s.clone());
    }
    // Wide: every column, with round, devices and the winner; narrow (80 columns): names,
    // ids and keys whole, the optional columns left out.
    let mut terminal = Terminal::new(TestBackend::new(160, 24)).unwrap();
    let now = server.time.now().as_ms();
    terminal.draw(|f| board.draw(f, now)).unwrap();
    insta::assert_snapshot!("console", screen(&terminal, &[]));
    assert_colours(&terminal, "over");
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| board.draw(f, now)).unwrap();
    insta::assert_snapshot!("console_80", screen(&terminal, &[]));
    assert_colours(&terminal, "over");
    // `?` lists the keys over the room; any key closes it.
    board.key(Key::Char('?'));
    terminal.draw(|f| board.draw(f, now)).unwrap();
    insta::assert_snapshot!("console_help", screen(&terminal, &[]));
    board.key(Key::Char('x'));

    // Keys: select the finished match and confirm its result, behind a prompt.
    board.key(Key::Down);
    assert_eq!(board.key(Key::Char('c')), None);
    // Its grounds are asked (the reason; Enter takes the usual article, 4.6), then y/n.
    for key in "both signed the scoresheet\r\r".chars() {
        let key = if key == '\r' {
            Key::Enter
        } else {
            Key::Char(key)
        };
        assert_eq!(board.key(key), None);
    }
    assert!(matches!(board.prompt, Some(Prompt::Confirm(_))));
    terminal.draw(|f| board.draw(f, now)).unwrap();
    insta::assert_snapshot!("console_confirm", screen(&terminal, &[]));
    let pending = board.key(Key::Char('y')).expect("confirmed");
    assert_eq!(
        (pending.match_id.as_str(), pending.order.clone()),
        ("r1-t8", Order::Execute(Action::ConfirmResult(v1::Empty {})))
    );
    // Adjusting a clock takes text, then a confirmation; a bad value is refused beside
    // the prompt, which stays open with what was typed, not a command.
    board.key(Key::Up);
    board.key(Key::Char('a'));
    for c in "B zz".chars() {
        board.key(Key::Char(c));
    }
    assert_eq!(board.key(Key::Enter), None);
    terminal.draw(|f| board.draw(f, now)).unwrap();
    let shown = screen(&terminal, &[]);
    let bottom = shown.lines().last().unwrap();
    assert!(bottom.contains("not a duration"), "{bottom}");
    assert!(bottom.ends_with(": B zz_"), "{bottom}");
    board.key(Key::Backspace);
    board.key(Key::Backspace);
    for c in "-30s\rthe clock ran on\r\r".chars() {
        board.key(if c == '\r' { Key::Enter } else { Key::Char(c) });
    }
    let pending = board.key(Key::Char('y')).expect("confirmed");
    assert_eq!(
        pending.order,
        Order::Execute(Action::AdjustTime(v1::TimeChange {
            side: B,
            ms: -30_000
        }))
    );
    assert_eq!(pending.ruling.clone().unwrap().article, "4.3 (v)");
    // Sent, the console's ticker says what the ruling changed, before and after.
    let said = baffle_client::tui::app::send(&server.url(), &Some(server.token.clone()), pending)
        .await
        .expect("taken");
    assert!(
        said.len() == 1 && said[0].contains("clock -0:30.0: ") && said[0].contains(" → "),
        "{said:?}"
    );
    server.stop().await;
}

/// Where `text` starts on line `y`, in terminal columns counted with unicode-width over
/// the line's own symbols (so a letter drawn two columns wide would show here).
fn column_of(terminal: &Terminal<TestBackend>, y: u16, text: &str) -> Option<usize> {
    use unicode_width::UnicodeWidthStr;
    let buffer = terminal.backend().buffer();
    let line: String = (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol().to_string())
        .collect();
    line.find(text).map(|i| line[..i].width())
}

/// Every line of the screen is exactly as wide as the terminal, and the rows' cells start
/// under their headers.
fn assert_aligned(terminal: &Terminal<TestBackend>, columns: &[(&str, &[&str])]) {
    use unicode_width::UnicodeWidthStr;
    let buffer = terminal.backend().buffer();
    for y in 0..buffer.area.height {
        let line: String = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        assert_eq!(line.width(), buffer.area.width as usize, "line {y}: {line}");
    }
    for (header, cells) in columns {
        let (hy, hx) = (0..buffer.area.height)
            .find_map(|y| column_of(terminal, y, header).map(|x| (y, x)))
            .unwrap_or_else(|| panic!("no header {header}"));
        for (row, cell) in cells.iter().enumerate() {
            let x = column_of(terminal, hy + 1 + row as u16, cell);
            assert_eq!(x, Some(hx), "{cell} under {header}");
        }
    }
}

/// The same room in Greek (`--lang el`): headers, statuses, to-do, ticker and keys from
/// the catalogue, the columns as wide as their Greek words.
#[tokio::test]
async fn the_dashboard_speaks_greek() {
    use baffle_client::words::{self, Language};
    let (server, states) = room().await;
    let now = server.time.now().as_ms();
    words::in_locale(Language::El, || {
        let mut board = Dashboard::new("open");
        for s in &states {
            let mut before = s.clone();
            before.penalty_points = vec![0, 0];
            before.result = None;
            board.update(before);
        }
        for s in &states {
            board.update(s.clone());
        }
        let mut terminal = Terminal::new(TestBackend::new(160, 24)).unwrap();
        terminal.draw(|f| board.draw(f, now)).unwrap();
        insta::assert_snapshot!("console_el", screen(&terminal, &[]));
        let columns: &[(&str, &[&str])] = &[
            ("ΚΑΤΑΣΤΑΣΗ", &["σε εξέλιξη", "τέλος"]),
            ("ΡΟΛΟΪ A/Λ", &["13:52.0", "6:00.0"]),
            ("ΝΙΚΗΤΗΣ / ΠΑΥΣΗ", &["", "Ben (στους πόντους)"]),
        ];
        assert_aligned(&terminal, &columns[..2]);
        assert!(column_of(&terminal, 3, "Ben (στους πόντους)").is_some());
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal.draw(|f| board.draw(f, now)).unwrap();
        insta::assert_snapshot!("console_el_80", screen(&terminal, &[]));
        assert_aligned(&terminal, &columns[..2]);
        assert_colours(&terminal, "τέλος");
        board.key(Key::Char('?'));
        terminal.draw(|f| board.draw(f, now)).unwrap();
        insta::assert_snapshot!("console_el_help", screen(&terminal, &[]));
    });
    server.stop().await;
}

#[tokio::test]
async fn the_follow_view_is_a_scoreboard_for_the_room() {
    let (server, states) = room().await;
    let now = server.time.now().as_ms();
    let mut terminal = Terminal::new(TestBackend::new(60, 16)).unwrap();
    terminal
        .draw(|f| follow::draw(f, &states[0], now, &follow::Status::default()))
        .unwrap();
    insta::assert_snapshot!("follow_playing", screen(&terminal, &[&states[0].head_hash]));
    // Nine seconds later, locally: B's 7 s of delay are gone and 2 s of his reserve.
    terminal
        .draw(|f| follow::draw(f, &states[0], now + 9_000, &follow::Status::default()))
        .unwrap();
    let later = screen(&terminal, &[&states[0].head_hash]);
    assert!(
        later.contains("13:58.0") && !later.contains("delay 0:07.0"),
        "{later}"
    );
    let lost = follow::Status {
        connection: Some("connection lost — reconnecting".into()),
        ..Default::default()
    };
    terminal
        .draw(|f| follow::draw(f, &states[1], now, &lost))
        .unwrap();
    insta::assert_snapshot!("follow_over", screen(&terminal, &[&states[1].head_hash]));
    // The same scoreboard in Greek, for the players' screen (`--lang el`).
    use baffle_client::words::{self, Language};
    words::in_locale(Language::El, || {
        for (name, s) in [
            ("follow_el_playing", &states[0]),
            ("follow_el_over", &states[1]),
        ] {
            terminal
                .draw(|f| follow::draw(f, s, now, &follow::Status::default()))
                .unwrap();
            insta::assert_snapshot!(name, screen(&terminal, &[&s.head_hash]));
        }
    });
    server.stop().await;
}

/// A chess match in the follow view and the console: colours, half points, move counters
/// and periods, the games played — not a backgammon board.
#[tokio::test]
async fn chess_is_shown_as_chess() {
    use v1::chess_command::Action as Chess;
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_chess(
        "open",
        "r1-t9",
        "9",
        EPOCH.as_ms(),
        v1::ChessMatchSettings {
            control: Some((&baffle_core::clock::TimeControl::fide_classical()).into()),
            games: 2,
            default_time_ms: 3_600_000,
            ..Default::default()
        },
    )
    .await;
    let chess = |a| Action::Chess(v1::ChessCommand { action: Some(a) });
    let (white, black) = (v1::Color::White as i32, v1::Color::Black as i32);
    d.act("r1-t9", chess(Chess::Arrive(white))).await;
    d.act("r1-t9", chess(Chess::Arrive(black))).await;
    d.act("r1-t9", chess(Chess::Resign(black))).await;
    d.act("r1-t9", chess(Chess::NextGame(v1::Empty {}))).await;
    // Game 2: Boris has White and thinks for 90 s, then Anna for 30 s.
    server.time.advance(90_000);
    d.act("r1-t9", chess(Chess::Press(white))).await;
    server.time.advance(30_000);
    let s = d.state("r1-t9").await;
    let now = server.time.now().as_ms();
    let mut terminal = Terminal::new(TestBackend::new(60, 16)).unwrap();
    terminal
        .draw(|f| follow::draw(f, &s, now, &follow::Status::default()))
        .unwrap();
    insta::assert_snapshot!("follow_chess", screen(&terminal, &[&s.head_hash]));
    let mut board = Dashboard::new("open");
    board.update(s.clone());
    let mut terminal = Terminal::new(TestBackend::new(160, 14)).unwrap();
    terminal.draw(|f| board.draw(f, now)).unwrap();
    insta::assert_snapshot!("console_chess", screen(&terminal, &[]));
    server.stop().await;
}

/// The follow view shows the dice commitment of a server-dice match, so everyone in the
/// room witnesses it before the first roll (issue 16).
#[tokio::test]
async fn the_follow_view_shows_the_dice_commitment() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("srv", defaults(0, None, v1::DiceSource::Server))
        .await;
    let s = d.create_match("srv", "r1-t1", 5, EPOCH.as_ms()).await;
    let mut terminal = Terminal::new(TestBackend::new(60, 16)).unwrap();
    let now = server.time.now().as_ms();
    terminal
        .draw(|f| follow::draw(f, &s, now, &follow::Status::default()))
        .unwrap();
    let text = screen(&terminal, &[]);
    assert!(
        text.contains(&format!("dice committed: {}", &s.commitment[..16])),
        "{text}"
    );
    // A player's commitment shows as soon as it is made.
    let mut audit = baffle_proto::v1::audit_client::AuditClient::new(server.channel().await);
    let codes = baffle_tests::seeds::player_codes(&server, "r1-t1").await;
    let commitment = baffle_core::dice::player_commitment("r1-t1", baffle_core::Side::A, b"x");
    audit
        .commit_player_seed(baffle_tests::with_token(
            v1::CommitPlayerSeedRequest {
                match_id: "r1-t1".into(),
                side: v1::Side::A as i32,
                commitment: commitment.to_vec(),
            },
            &codes.code_a,
        ))
        .await
        .unwrap();
    let s = d.state("r1-t1").await;
    terminal
        .draw(|f| follow::draw(f, &s, now, &follow::Status::default()))
        .unwrap();
    let text = screen(&terminal, &[]);
    let shown = format!(
        "seeds: {} committed {}",
        s.player_a,
        &s.player_seeds[0].commitment[..8]
    );
    assert!(text.contains(&shown), "{text}");
    server.stop().await;
}

/// Long names (the tester's): a match between "Γιώργος Παπαδόπουλος" and "Κωνσταντίνος
/// Αθανασόπουλος" that B won, waiting for confirmation, beside one between "Anna Jones"
/// and "Ben Smith" in a game. At 160 columns the players' column takes the room the other
/// columns do not need, and the names are whole; at 80 they are shortened visibly (initials,
/// surnames, "…"), player B never dropped, and the to-do keeps its key (": c").
#[tokio::test]
async fn long_names_are_shortened_visibly_not_cut() {
    use baffle_client::words::{self, Language};
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    for (id, table, a, b, length) in [
        (
            "r1-t9",
            "9",
            "Γιώργος Παπαδόπουλος",
            "Κωνσταντίνος Αθανασόπουλος",
            1,
        ),
        ("r1-t10", "10", "Anna Jones", "Ben Smith", 7),
    ] {
        d.create(v1::CreateMatchRequest {
            tournament_id: "open".into(),
            match_id: id.into(),
            round: 1,
            table: table.into(),
            player_a: a.into(),
            player_b: b.into(),
            length,
            scheduled_start_ms: EPOCH.as_ms(),
            ..Default::default()
        })
        .await;
        d.act(id, Action::CheckIn(A)).await;
        d.act(id, Action::CheckIn(B)).await;
        d.act(id, opening(6, 1)).await;
    }
    d.act("r1-t9", Action::EndGame(result(B, v1::WinKind::Single)))
        .await;
    server.time.advance(5_000);
    let states = vec![d.state("r1-t9").await, d.state("r1-t10").await];
    let now = server.time.now().as_ms();
    words::in_locale(Language::El, || {
        let mut board = Dashboard::new("open");
        for s in &states {
            board.update(s.clone());
        }
        let mut terminal = Terminal::new(TestBackend::new(160, 24)).unwrap();
        terminal.draw(|f| board.draw(f, now)).unwrap();
        let wide = screen(&terminal, &[]);
        insta::assert_snapshot!("console_el_long_names", wide);
        assert!(
            wide.contains("Γιώργος Παπαδόπουλος – Κωνσταντίνος Αθανασόπουλος"),
            "{wide}"
        );
        assert!(wide.contains("Anna Jones – Ben Smith"), "{wide}");
        assert_aligned(
            &terminal,
            &[
                ("ΚΑΤΑΣΤΑΣΗ", &["τέλος", "σε εξέλιξη"]),
                ("ΣΚΟΡ", &["0-1/1", "0-0/7"]),
            ],
        );
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal.draw(|f| board.draw(f, now)).unwrap();
        let narrow = screen(&terminal, &[]);
        insta::assert_snapshot!("console_el_long_names_80", narrow);
        assert_aligned(&terminal, &[("ΚΑΤΑΣΤΑΣΗ", &["τέλος", "σε εξέλιξη"])]);
        // Both players of each row, shortened visibly.
        let row = narrow.lines().find(|l| l.contains("r1-t9")).unwrap();
        assert!(
            row.contains("Παπαδ") && row.contains("Αθανασ") && row.contains('…'),
            "{row}"
        );
        let row = narrow.lines().find(|l| l.contains("r1-t10")).unwrap();
        assert!(row.contains("Jones") && row.contains("Smith"), "{row}");
        // The to-do keeps its key.
        let todo = narrow.lines().find(|l| l.contains("νίκη")).unwrap();
        assert!(todo.contains("επικυρώστε το αποτέλεσμα: c"), "{todo}");
    });
    server.stop().await;
}

/// Enter shows the selected match in full over the room: its log's head hash whole (not
/// lost below the window's edge) and its clocks running as the row's do, not the state's
/// snapshot.
#[tokio::test]
async fn the_match_in_full_shows_the_head_and_a_running_clock() {
    let (server, states) = room().await;
    let mut board = Dashboard::new("open");
    for s in &states {
        board.update(s.clone());
    }
    board.key(Key::Enter);
    // Ten seconds on: B's 7 s of delay and 3 s of his reserve are gone, in the row and in
    // the window alike.
    let now = server.time.now().as_ms() + 10_000;
    for columns in [80, 160] {
        let mut terminal = Terminal::new(TestBackend::new(columns, 24)).unwrap();
        terminal.draw(|f| board.draw(f, now)).unwrap();
        let text = screen(&terminal, &[]);
        assert!(text.contains(&states[0].head_hash), "{text}");
        assert!(text.contains("B 13:57.0"), "{text}");
        assert!(!text.contains("B 14:00.0"), "{text}");
    }
    server.stop().await;
}

/// `p` lists every pause reason, numbered, above the prompt: nine reasons did not fit the
/// prompt's one line, and the console never showed the last ones (a stranger's run: "…
/// 5 επανάληψη αντικανονικής κίνησης, 6…" at 160 columns).
#[tokio::test]
async fn the_pause_prompt_lists_every_reason() {
    use baffle_client::words::{self, Language};
    let (server, states) = room().await;
    let now = server.time.now().as_ms();
    words::in_locale(Language::El, || {
        let mut board = Dashboard::new("open");
        for s in &states {
            board.update(s.clone());
        }
        board.key(Key::Down);
        board.key(Key::Char('p'));
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal.draw(|f| board.draw(f, now)).unwrap();
        let shown = screen(&terminal, &[]);
        // Every reason but the director's own stop (the console's `s` key) and the
        // server's own wait for live dice links.
        let reasons = baffle_core::clock::PauseReason::ALL.len() - 2;
        for n in 1..=reasons {
            assert!(
                shown.lines().any(|l| l.contains(&format!("│{n} "))),
                "reason {n} is not listed:\n{shown}"
            );
        }
        insta::assert_snapshot!("console_el_pause", shown);
    });
    server.stop().await;
}

/// An 8-player knockout half way through round 1, as the console's draw view (`v`)
/// shows it: round 1 with tables, names and states (decided, playing, over and to
/// confirm), round 2 with the players known and whom each waits for, the bracket.
async fn knockout_half_way() -> (TestServer, v1::DrawView, Vec<v1::MatchState>) {
    use baffle_tests::draws::{DrawDirector, decide};
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    let mut draws = DrawDirector::on(server.channel().await, &server.token);
    let names = [
        "Anna",
        "Ben",
        "Carl",
        "Dora",
        "Eleni",
        "Fotis",
        "Γιώργος",
        "Χαρά",
    ];
    let view = draws
        .knockout(&mut d, "club", &names, &["1", "2", "3", "4"])
        .await;
    decide(&mut d, &view, "M1-1").await;
    decide(&mut d, &view, "M1-4").await;
    // M1-2 over, its result not yet confirmed; M1-3 still played.
    let m12 = &view
        .pairings
        .iter()
        .find(|p| p.key == "M1-2")
        .unwrap()
        .match_id;
    d.act(m12, Action::ForfeitMatch(B)).await;
    // The draw's driver records the confirmed results from the feed: wait for them.
    let mut view = draws.get("club").await;
    for _ in 0..200 {
        let decided = view
            .pairings
            .iter()
            .filter(|p| p.state == v1::PairingState::Decided as i32)
            .count();
        if decided == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        view = draws.get("club").await;
    }
    let mut states = Vec::new();
    for p in view.pairings.iter().filter(|p| !p.match_id.is_empty()) {
        states.push(d.state(&p.match_id).await);
    }
    (server, view, states)
}

#[tokio::test]
async fn the_draw_view_shows_the_rounds_who_waits_and_the_bracket() {
    use baffle_client::words::{self, Language};
    let (server, view, states) = knockout_half_way().await;
    let now = server.time.now().as_ms();
    for (lang, name) in [
        (Language::En, "console_draw_80"),
        (Language::El, "console_el_draw_80"),
    ] {
        words::in_locale(lang, || {
            let mut board = Dashboard::new("club");
            for s in &states {
                board.update(s.clone());
            }
            board.draw = Some(view.clone());
            board.key(Key::Char('v'));
            assert!(board.showing_draw);
            let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
            terminal.draw(|f| board.draw(f, now)).unwrap();
            let shown = screen(&terminal, &[]);
            insta::assert_snapshot!(name, shown);
            // Every line within 80 columns; match keys do nothing here; Esc goes back.
            assert!(
                shown
                    .lines()
                    .all(|l| baffle_client::tui::fit::width(l) <= 80)
            );
            assert_eq!(board.key(Key::Char('c')), None);
            assert!(board.prompt.is_none());
            board.key(Key::Esc);
            assert!(!board.showing_draw);
        });
    }
    server.stop().await;
}
