//! The dashboard's keys and alerts, without a terminal.

use baffle_proto::v1::command::Action;

use super::*;

fn state(id: &str) -> v1::MatchState {
    v1::MatchState {
        match_id: id.into(),
        player_a: "Anna".into(),
        player_b: "Ben".into(),
        penalty_points: vec![0, 0],
        ..Default::default()
    }
}

/// The open prompt's error, if it is an input prompt that refused what was typed.
fn prompt_error(board: &Dashboard) -> Option<String> {
    match &board.prompt {
        Some(Prompt::Input { error, .. }) => error.clone(),
        _ => None,
    }
}

/// Types `text` at the open prompt, then Enter.
fn answer(board: &mut Dashboard, text: &str) -> Option<Pending> {
    for c in text.chars() {
        board.key(Key::Char(c));
    }
    board.key(Key::Enter)
}

#[test]
fn alerts_for_dice_anomalies_and_devices_that_drop() {
    let mut board = Dashboard::new("open");
    let mut s = state("m");
    s.devices = vec![v1::DevicePresence {
        device_id: "t7".into(),
        connected: true,
    }];
    board.update(s.clone());
    s.dice_anomalies = 1;
    s.last_anomaly = "player A's dice: faces are unevenly spread".into();
    s.devices[0].connected = false;
    board.update(s);
    assert_eq!(board.ticker[0], "m: device t7 disconnected");
    assert_eq!(
        board.ticker[1],
        "m: Anna's dice look wrong: faces are unevenly spread"
    );
    // The anomaly stays on the to-do list until dismissed; the device comes back.
    assert!(board.todos(0)[0].text.contains("Anna's dice look wrong"));
    let mut s = board.matches["m"].clone();
    s.devices[0].connected = true;
    board.update(s);
    assert_eq!(board.ticker[0], "m: device t7 connected");
    board.key(Key::Char('d'));
    assert!(board.todos(0).is_empty(), "{:?}", board.todos(0));
}

#[test]
fn a_chess_row_gets_the_arbiters_keys() {
    let mut board = Dashboard::new("open");
    let mut s = state("c");
    s.chess = Some(v1::ChessState {
        games: 2,
        half_points_a: 3,
        to_move: v1::Color::Black as i32,
        ..Default::default()
    });
    board.update(s);
    board.key(Key::Char('p'));
    let pending = board.key(Key::Char('y')).unwrap();
    assert_eq!(
        pending.order,
        Order::Execute(Action::Chess(v1::ChessCommand {
            action: Some(v1::chess_command::Action::Pause(
                v1::PauseReason::DirectorStopped as i32
            )),
        }))
    );
    board.key(Key::Char('a'));
    for c in "B 4m30s".chars() {
        board.key(Key::Char(c));
    }
    board.key(Key::Enter);
    answer(&mut board, "the clock was set wrongly");
    answer(&mut board, "");
    let pending = board.key(Key::Char('y')).unwrap();
    assert_eq!(
        pending.order,
        Order::Execute(Action::Chess(v1::ChessCommand {
            action: Some(v1::chess_command::Action::SetTime(v1::ChessTime {
                color: v1::Color::Black as i32,
                ms: 270_000,
            })),
        }))
    );
    assert_eq!(pending.ruling.unwrap().article, "6.10");
    assert_eq!(board.key(Key::Char('x')), None);
    assert!(
        board.ticker[0].contains("not in chess"),
        "{:?}",
        board.ticker
    );
    assert_eq!(draw::chess_turn(board.rows()[0]), "B move");
}

#[test]
fn results_to_confirm_stay_until_confirmed_and_prompts_name_the_players() {
    let mut board = Dashboard::new("open");
    let mut s = state("m");
    s.table = "7".into();
    board.update(s.clone());
    s.result = Some(v1::MatchResult {
        winner: v1::Side::B as i32,
        how_kind: v1::MatchEndKind::Points as i32,
        confirmed: false,
        ..Default::default()
    });
    board.update(s.clone());
    let todos = board.todos(0);
    assert_eq!(todos.len(), 1);
    assert!(
        todos[0].text.contains("Ben won (on points) — confirm"),
        "{todos:?}"
    );
    // Many later changes do not push it away; confirming removes it.
    for i in 0..20 {
        board.tick(format!("noise {i}"));
    }
    assert_eq!(board.todos(0).len(), 1);
    s.result.as_mut().unwrap().confirmed = true;
    board.update(s);
    assert!(board.todos(0).is_empty());
    board.key(Key::Char('x'));
    let Some(Prompt::Input { label, .. }) = &board.prompt else {
        panic!("a prompt")
    };
    assert!(label.contains("Anna (A) or Ben (B)"), "{label}");
}

#[test]
fn check_in_warning_forfeit_and_score_from_the_console() {
    let mut board = Dashboard::new("open");
    board.update(state("m"));
    let mut send = |keys: &str, first: char| {
        board.key(Key::Char(first));
        for c in keys.chars() {
            board.key(Key::Char(c));
        }
        board.key(Key::Enter);
        if matches!(board.prompt, Some(Prompt::Input { .. })) {
            // A ruling whose grounds the director words: a reason, the usual article.
            answer(&mut board, "slow play");
            answer(&mut board, "");
        }
        board.key(Key::Char('y')).expect("confirmed")
    };
    assert_eq!(
        send("a", 'i').order,
        Order::Execute(Action::CheckIn(v1::Side::A as i32))
    );
    assert_eq!(
        send("B", 'w').order,
        Order::Execute(Action::Warn(v1::Side::B as i32))
    );
    assert_eq!(
        send("b", 'f').order,
        Order::Execute(Action::ForfeitMatch(v1::Side::B as i32))
    );
    let score = send("3 2", 's');
    assert_eq!(
        score.order,
        Order::Execute(Action::CorrectScore(v1::Score { a: 3, b: 2 }))
    );
    assert_eq!(score.ruling.unwrap().article, "4.7");
}

#[test]
fn filter_help_and_the_match_in_full() {
    let mut board = Dashboard::new("open");
    for (id, table) in [("a", "10"), ("b", "7"), ("c", "8")] {
        let mut s = state(id);
        s.table = table.into();
        s.round = 1;
        board.update(s);
    }
    // Tables in numeric order.
    let ids: Vec<_> = board.rows().iter().map(|s| s.match_id.clone()).collect();
    assert_eq!(ids, ["b", "c", "a"]);
    board.key(Key::Char('/'));
    board.key(Key::Char('8'));
    board.key(Key::Enter);
    assert_eq!(board.rows().len(), 1);
    board.key(Key::Enter);
    assert_eq!(board.detail.as_deref(), Some("c"));
    board.key(Key::Esc);
    assert_eq!(board.detail, None);
    board.key(Key::Esc);
    assert_eq!(board.rows().len(), 3, "Esc clears the filter");
    board.key(Key::Char('?'));
    assert!(board.help);
}

#[test]
fn the_ticker_says_renames_and_warnings_in_both_languages() {
    let mut board = Dashboard::new("open");
    let mut s = state("m");
    s.warnings = vec![0, 0];
    board.update(s.clone());
    s.player_b = "Ben Smith".into();
    board.update(s.clone());
    assert_eq!(board.ticker[0], "m: player B renamed: Ben → Ben Smith");
    s.warnings = vec![0, 1];
    board.update(s.clone());
    assert_eq!(board.ticker[0], "m: warning to Ben Smith (1 in all)");
    crate::words::in_locale(crate::words::Language::El, || {
        let mut board = Dashboard::new("open");
        board.update(s.clone());
        let mut t = s.clone();
        t.player_a = "Άννα".into();
        t.warnings = vec![1, 1];
        board.update(t);
        assert_eq!(
            board.ticker.iter().rev().cloned().collect::<Vec<_>>(),
            [
                "m: διόρθωση ονόματος, παίκτης A: Anna → Άννα",
                "m: παρατήρηση σε: Άννα (1 συνολικά)",
            ]
        );
    });
}

#[test]
fn the_greek_console_asks_in_greek_and_takes_greek_keys() {
    crate::words::in_locale(crate::words::Language::El, || {
        let mut board = Dashboard::new("open");
        board.update(state("m"));
        board.key(Key::Char('r'));
        let Some(Prompt::Confirm(p)) = &board.prompt else {
            panic!("{:?}", board.prompt)
        };
        let asked =
            crate::words::say_with("console-confirm", &[("action", p.label.clone().into())]);
        assert!(asked.ends_with("ν/ο (ή y/n)"), "{asked}");
        // ν (ναι) sends, as y does; ο (όχι) cancels, as n does.
        assert!(board.key(Key::Char('ν')).is_some());
        board.key(Key::Char('r'));
        assert!(board.key(Key::Char('ο')).is_none());
        assert!(board.prompt.is_none());
        board.key(Key::Char('r'));
        assert!(board.key(Key::Char('y')).is_some());
        // The chess clock's example and the help are in Greek letters: Λ/Μ, ν/ο.
        for id in [
            "console-prompt-chess-clock",
            "console-help",
            "console-prompt-chess-arrive",
        ] {
            let said = crate::words::say(id);
            assert!(!said.contains("W 5m") && !said.contains("y/n"), "{said}");
        }
        assert!(crate::words::say("console-prompt-chess-clock").contains("Λ 5m"));
    });
}

#[test]
fn a_press_back_in_a_match_without_moves_is_a_claim_until_dismissed() {
    let mut board = Dashboard::new("open");
    let mut s = state("m");
    s.table = "7".into();
    s.game_number = 1;
    s.seq = 10;
    s.turn = v1::TurnPhase::OnRoll as i32;
    s.turn_side = v1::Side::B as i32;
    board.update(s.clone());
    // B lost the turn without being seen to move: the records are asked for.
    let mut after = s.clone();
    after.seq = 11;
    after.turn_side = v1::Side::A as i32;
    let wanted = board.update(after.clone());
    assert_eq!(
        wanted,
        [Wanted::Events {
            match_id: "m".into(),
            from_seq: 10,
            to_seq: 11
        }]
    );
    let pressed_back = v1::Event {
        seq: 10,
        kind: "bg.pressed_back".into(),
        body: r#"{"kind":"bg.pressed_back","at":1,"side":"B"}"#.into(),
        hash: String::new(),
        words: None,
    };
    board.events("m", std::slice::from_ref(&pressed_back));
    let said = "m: Ben pressed back, claiming he is closed out (4.2 (i)): check the board";
    assert_eq!(board.ticker[0], said);
    let todos = board.todos(0);
    assert!(
        todos[0]
            .text
            .contains("Ben pressed back, claiming he is closed out (4.2 (i))")
            && todos[0].text.ends_with("d to dismiss"),
        "{todos:?}"
    );
    // The same record again (a second fetch) is one claim; `d` dismisses it.
    board.events("m", &[pressed_back]);
    assert_eq!(board.todos(0).len(), 1);
    board.key(Key::Char('d'));
    assert!(board.todos(0).is_empty());
    // A roll is not a claim: nothing asked; a match that records moves has none to check.
    let mut rolled = after.clone();
    rolled.seq = 12;
    rolled.turn = v1::TurnPhase::Moving as i32;
    assert!(board.update(rolled).is_empty());
    let mut recorded = state("r");
    recorded.board = Some(v1::Board::default());
    recorded.turn = v1::TurnPhase::OnRoll as i32;
    board.update(recorded.clone());
    recorded.seq = 1;
    recorded.turn_side = v1::Side::B as i32;
    // Its board's adjudication is asked for instead (the director's alone, 1.7).
    assert_eq!(
        board.update(recorded),
        [Wanted::Adjudication {
            match_id: "r".into()
        }]
    );
}

#[test]
fn rule_4_3_iv_the_match_window_shows_what_the_board_proves_for_the_state_on_screen() {
    let mut board = Dashboard::new("open");
    let mut s = state("r");
    s.board = Some(v1::Board::default());
    s.seq = 7;
    board.update(s);
    board.detail = Some("r".into());
    let help = v1::Adjudication {
        certain_winner: v1::Side::B as i32,
        gammon_possible: vec![false, false],
        backgammon_possible: vec![false, false],
        next: v1::Side::A as i32,
        dice: vec![],
        then_dice: vec![],
        seq: 7,
    };
    board.adjudicated("r", help.clone());
    let screen = draw(&board, 120, 40);
    assert!(
        screen.contains("B wins whatever the dice (4.3 (iv))"),
        "{screen}"
    );
    assert!(
        screen.contains("B can win a single game at most (4.5)"),
        "{screen}"
    );
    // Of an older state: not shown.
    board.adjudicated("r", v1::Adjudication { seq: 6, ..help });
    let screen = draw(&board, 120, 40);
    assert!(!screen.contains("wins whatever"), "{screen}");
}

#[test]
fn more_time_for_a_seed_only_where_one_is_awaited() {
    let mut board = Dashboard::new("open");
    board.update(state("m"));
    board.key(Key::Char('e'));
    assert_eq!(board.prompt, None);
    assert_eq!(
        board.ticker[0],
        "m: no seed is awaited, there is no deadline to extend"
    );
}

#[test]
fn an_overdue_reveal_is_urgent_on_the_servers_clock() {
    let mut board = Dashboard::new("open");
    let mut s = state("m");
    s.table = "7".into();
    s.reveal_due_ms = 14 * 3_600_000 + 32 * 60_000;
    s.player_seeds = vec![
        v1::PlayerSeed {
            commitment: "aa".into(),
            seed: "01".into(),
        },
        v1::PlayerSeed {
            commitment: "bb".into(),
            seed: String::new(),
        },
    ];
    board.update(s.clone());
    let before = board.todos(s.reveal_due_ms - 1);
    assert_eq!(before[0].urgency, 1);
    assert_eq!(
        before[0].text,
        "m (table 7): waiting for Ben's seed, due 14:32 UTC — no die is drawn until then"
    );
    // This machine's clock is a day behind the server's: the deadline is the server's.
    let day = 24 * 3_600_000;
    board.heard_from_server(s.reveal_due_ms - 60_000, s.reveal_due_ms - 60_000 - day);
    assert_eq!(
        board.todos(board.server_now(s.reveal_due_ms - day - 1))[0].urgency,
        1
    );
    let after = board.todos(board.server_now(s.reveal_due_ms - day));
    assert_eq!(after[0].urgency, 0);
    assert!(
        after[0]
            .text
            .starts_with("m (table 7): Ben has not revealed his seed: due 14:32 UTC — extend"),
        "{after:?}"
    );
    assert!(after[0].text.ends_with("or rule a forfeit: f"), "{after:?}");
    // `e`: how many minutes, naming whose seed, then y/n.
    board.key(Key::Char('e'));
    let Some(Prompt::Input { label, .. }) = &board.prompt else {
        panic!("{:?}", board.prompt)
    };
    assert!(label.contains("more time for the seed of Ben"), "{label}");
    for c in "1O".chars() {
        board.key(Key::Char(c));
    }
    assert_eq!(board.key(Key::Enter), None);
    // Refused, and still asked: the director corrects what he typed.
    assert_eq!(
        prompt_error(&board).as_deref(),
        Some("“1O” is not a number of minutes")
    );
    board.key(Key::Backspace);
    board.key(Key::Backspace);
    assert_eq!(prompt_error(&board), None, "the error goes once he types");
    for c in "10".chars() {
        board.key(Key::Char(c));
    }
    board.key(Key::Enter);
    answer(&mut board, "his phone died");
    answer(&mut board, "");
    let extend = board.key(Key::Char('y')).expect("confirmed");
    assert_eq!(extend.order, Order::ExtendReveal { minutes: 10 });
    assert_eq!(extend.ruling.clone().unwrap().article, "2.3");
    assert!(
        extend.label.contains("the seeds due in 10 minutes"),
        "{}",
        extend.label
    );
    // `f` on Ben: the forfeit for not revealing, with its article.
    board.key(Key::Char('f'));
    board.key(Key::Char('B'));
    board.key(Key::Enter);
    answer(&mut board, "did not reveal his seed");
    answer(&mut board, "");
    let forfeit = board.key(Key::Char('y')).expect("confirmed");
    assert_eq!(
        forfeit.order,
        Order::Execute(Action::ForfeitMatch(v1::Side::B as i32))
    );
    assert_eq!(forfeit.ruling.unwrap().article, "2.3");
}

/// The dashboard drawn on a `columns` × `rows` screen, as text.
fn draw(board: &Dashboard, columns: u16, rows: u16) -> String {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let mut terminal = Terminal::new(TestBackend::new(columns, rows)).unwrap();
    terminal.draw(|frame| board.draw(frame, 0)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..rows)
        .map(|y| {
            (0..columns)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn ctrl_c_never_acts_it_cancels_the_prompt_or_leaves() {
    use ratatui::crossterm::event::KeyCode;
    let mut board = Dashboard::new("open");
    let mut s = state("m");
    s.phase = v1::MatchPhase::Over as i32;
    s.result = Some(v1::MatchResult::default());
    board.update(s);
    // Outside a prompt Ctrl-C leaves the console; the key `c` asks to confirm.
    assert_eq!(board.pressed(KeyCode::Char('c'), true), Pressed::Quit);
    assert_eq!(
        board.pressed(KeyCode::Char('c'), false),
        Pressed::Key(Key::Char('c'))
    );
    board.key(Key::Char('c'));
    assert!(board.prompt.is_some(), "c asks to confirm the result");
    // In the prompt Ctrl-C cancels it: it neither confirms nor types a letter.
    let cancel = board.pressed(KeyCode::Char('c'), true);
    assert_eq!(cancel, Pressed::Key(Key::Esc));
    let Pressed::Key(key) = cancel else {
        unreachable!()
    };
    assert_eq!(board.key(key), None, "nothing is sent");
    assert!(board.prompt.is_none());
    // No other Ctrl combination is read as its letter; q leaves only outside prompts.
    assert_eq!(board.pressed(KeyCode::Char('y'), true), Pressed::Nothing);
    assert_eq!(board.pressed(KeyCode::Char('q'), false), Pressed::Quit);
    board.key(Key::Char('/'));
    assert_eq!(
        board.pressed(KeyCode::Char('q'), false),
        Pressed::Key(Key::Char('q'))
    );
    assert_eq!(
        board.pressed(KeyCode::Char('C'), true),
        Pressed::Key(Key::Esc)
    );
    // In a match's window, q closes the window (as any key does) instead of the console.
    board.key(Key::Esc);
    board.key(Key::Enter);
    assert!(board.detail.is_some());
    let Pressed::Key(q) = board.pressed(KeyCode::Char('q'), false) else {
        panic!("q in a match's window leaves the console")
    };
    board.key(q);
    assert!(board.detail.is_none());
    assert_eq!(board.pressed(KeyCode::Char('q'), false), Pressed::Quit);
}

#[test]
fn the_filter_ignores_case_and_accents_as_the_pages_search_does() {
    let mut board = Dashboard::new("open");
    let mut s = state("m");
    s.player_a = "Παπαδόπουλος".into();
    s.player_b = "Müller".into();
    board.update(s);
    board.update(state("other"));
    for typed in ["παπαδοπουλος", "ΠΑΠΑΔΟΠΟΥΛΟΣ", "muller", "MÜLL"] {
        board.filter = typed.into();
        let rows: Vec<_> = board.rows().iter().map(|s| s.match_id.clone()).collect();
        assert_eq!(rows, ["m"], "{typed}");
    }
}

#[test]
fn rule_4_6_only_a_result_awaiting_confirmation_is_asked_about() {
    let mut board = Dashboard::new("open");
    board.update(state("m"));
    // Not over: said at once, nothing asked.
    board.key(Key::Char('c'));
    assert_eq!(board.prompt, None);
    assert!(board.ticker[0].contains("not over"), "{:?}", board.ticker);
    // Confirmed already: said so.
    let mut s = state("m");
    s.seq = 1;
    s.result = Some(v1::MatchResult {
        confirmed: true,
        ..Default::default()
    });
    board.update(s.clone());
    board.key(Key::Char('c'));
    assert_eq!(board.prompt, None);
    assert!(
        board.ticker[0].contains("confirmed already"),
        "{:?}",
        board.ticker
    );
    // Awaiting: asked.
    s.seq = 2;
    s.result = Some(v1::MatchResult::default());
    board.update(s);
    board.key(Key::Char('c'));
    // Its grounds first (asked, the usual article 4.6 offered), then y/n.
    assert!(
        matches!(&board.prompt, Some(Prompt::Input { label, .. }) if label.contains("the reason")),
        "{:?}",
        board.prompt
    );
    answer(&mut board, "both players signed the scoresheet");
    answer(&mut board, "");
    let Some(Prompt::Confirm(p)) = &board.prompt else {
        panic!("{:?}", board.prompt)
    };
    assert!(
        p.label.contains("art. 4.6: both players signed"),
        "{}",
        p.label
    );
    let confirmed = board.key(Key::Char('y')).expect("confirmed");
    assert_eq!(
        confirmed.ruling.unwrap().reason,
        "both players signed the scoresheet"
    );
}

/// Issue 31 (2): what a restart's outage took from a clock beyond its credit is the
/// director's to rule on, with its figure, until he has.
#[test]
fn an_outage_the_restart_did_not_give_back_is_on_the_to_do_list() {
    let mut board = Dashboard::new("open");
    let mut s = state("m");
    s.uncredited_outage = Some(v1::UncreditedOutage {
        side: v1::Side::B as i32,
        ms: 30_000,
        at_ms: 0,
    });
    board.update(s.clone());
    let todos = board.todos(0);
    assert!(
        todos.iter().any(|t| t.text
            == "m (table ): Ben lost 0:30.0 to the server's outage — rule on it: a (adjust the clock)"),
        "{todos:?}"
    );
    s.uncredited_outage = None;
    s.seq += 1;
    board.update(s);
    assert!(board.todos(0).iter().all(|t| !t.text.contains("outage")));
}

mod draws;
mod prompts;

/// Issue 35: a draw waiting for a player's link is the director's only once it waits
/// past a round trip (10 s), and urgent at its deadline, naming who withholds.
#[test]
fn live_dice_a_link_awaited_is_a_todo_after_ten_seconds_and_urgent_at_its_deadline() {
    let mut board = Dashboard::new("open");
    let mut s = state("m");
    s.live_dice = Some(v1::LiveDice {
        chain_a: None,
        chain_b: None,
        waiting: Some(v1::LiveDraw {
            side: v1::Side::A as i32,
            asked_ms: 1_000,
            due_ms: 61_000,
            given_a: true,
            given_b: false,
        }),
    });
    board.update(s);
    assert!(
        board.todos(5_000).is_empty(),
        "a round trip is nobody's business"
    );
    let todos = board.todos(11_000);
    assert_eq!(todos.len(), 1, "{todos:?}");
    assert!(
        todos[0].text.contains("waiting for Ben's link"),
        "{}",
        todos[0].text
    );
    let todos = board.todos(61_000);
    assert!(
        todos[0].text.contains("Ben's link has not come")
            && todos[0].text.contains("forfeits the match"),
        "{}",
        todos[0].text
    );
    assert_eq!(todos[0].urgency, 0);
    // With both links missing nobody forfeits by himself: the director rules.
    let mut s = board.matches["m"].clone();
    if let Some(w) = s.live_dice.as_mut().and_then(|l| l.waiting.as_mut()) {
        w.given_a = false;
    }
    board.update(s);
    let todos = board.todos(61_000);
    assert_eq!(todos.len(), 2, "{todos:?}");
    assert!(
        todos.iter().all(|t| t.text.contains("nobody forfeits")),
        "{todos:?}"
    );
}
