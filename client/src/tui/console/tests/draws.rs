//! The draw in the console: the round ready to start, `R` behind y/n, who waits for
//! whom, and the keys of the draw view.

use super::*;

fn pairing(key: &str, round: u32, index: u32, a: (u32, &str), b: (u32, &str)) -> v1::Pairing {
    v1::Pairing {
        key: key.into(),
        flight: v1::Flight::Main as i32,
        round,
        index,
        player_a: a.0,
        player_b: b.0,
        name_a: a.1.into(),
        name_b: b.1.into(),
        state: v1::PairingState::WaitingForRound as i32,
        ..Default::default()
    }
}

fn entrant(number: u32, name: &str) -> v1::Entrant {
    v1::Entrant {
        number,
        details: Some(v1::EntrantDetails {
            name: name.into(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn round(round: u32, started: bool) -> v1::Round {
    v1::Round {
        flight: v1::Flight::Main as i32,
        round,
        started,
        start_ms: 0,
    }
}

/// A 4-player knockout: round 1 started, M1-1 decided (Anna), M1-2 played at table 2.
fn knockout() -> v1::DrawView {
    let names = ["Anna", "Ben", "Carl", "Dora"];
    let mut m11 = pairing("M1-1", 1, 1, (1, "Anna"), (4, "Dora"));
    m11.state = v1::PairingState::Decided as i32;
    m11.winner = 1;
    (m11.score_a, m11.score_b, m11.table) = (3, 1, "1".into());
    let mut m12 = pairing("M1-2", 1, 2, (2, "Ben"), (3, "Carl"));
    m12.state = v1::PairingState::Playing as i32;
    (m12.table, m12.match_id) = ("2".into(), "club-m1-2".into());
    v1::DrawView {
        tournament_id: "club".into(),
        plan: Some(v1::DrawPlan {
            format: v1::DrawFormat::Knockout as i32,
            length: 3,
            ..Default::default()
        }),
        entrants: (1..=4).map(|n| entrant(n, names[n as usize - 1])).collect(),
        pairings: vec![m11, m12],
        rounds: vec![round(1, true), round(2, false)],
        drawn_at_ms: 1,
        ..Default::default()
    }
}

fn texts(board: &Dashboard) -> Vec<String> {
    board.todos(0).into_iter().map(|t| t.text).collect()
}

#[test]
fn a_round_is_ready_once_every_match_before_it_is_decided_and_r_starts_it_after_y() {
    let mut board = Dashboard::new("club");
    let mut view = knockout();
    board.draw = Some(view.clone());
    assert!(texts(&board).iter().all(|t| !t.contains("ready")));
    // R with nothing ready says so and asks nothing.
    assert_eq!(board.key(Key::Char('R')), None);
    assert!(board.prompt.is_none());
    assert!(
        board.ticker[0].contains("no round is ready"),
        "{:?}",
        board.ticker
    );
    // M1-2 decided: the final is known, and round 2 is ready.
    let m12 = &mut view.pairings[1];
    m12.state = v1::PairingState::Decided as i32;
    (m12.winner, m12.score_a, m12.score_b) = (2, 3, 0);
    view.pairings
        .push(pairing("M2-1", 2, 1, (1, "Anna"), (2, "Ben")));
    board.draw = Some(view);
    assert_eq!(texts(&board), ["main draw, round 2 is ready — start it: R"]);
    assert_eq!(board.key(Key::Char('R')), None);
    // Greek keyboards: Ρ does the same; here the y/n is open already.
    let Some(Prompt::Confirm(p)) = &board.prompt else {
        panic!("a y/n: {:?}", board.prompt)
    };
    assert_eq!(p.label, "start round 2 of the main draw now");
    let sent = board.key(Key::Char('y')).expect("sent");
    assert_eq!(sent.match_id, "club");
    assert_eq!(
        sent.order,
        Order::StartRound {
            flight: v1::Flight::Main as i32,
            round: 2
        }
    );
}

#[test]
fn who_waits_for_whom_is_said_of_a_match_and_of_a_known_player() {
    let mut board = Dashboard::new("club");
    let mut view = knockout();
    // Round 2 started while M1-2 is still played: Anna waits for its winner.
    view.rounds[1].started = true;
    board.draw = Some(view);
    let waits = board.who_waits();
    assert_eq!(
        waits,
        ["M2-1: Anna waits for the winner of M1-2 (playing at table 2)"]
    );
}

#[test]
fn v_and_tab_switch_between_the_room_and_the_draw() {
    let mut board = Dashboard::new("club");
    // Before the draw arrives the view is shown all the same (it says there is none
    // yet), and shows the draw when it comes.
    board.key(Key::Char('v'));
    assert!(board.showing_draw);
    board.key(Key::Tab);
    assert!(!board.showing_draw);
    board.draw = Some(knockout());
    board.key(Key::Tab);
    assert!(board.showing_draw);
    // In the draw no match is selected: the match keys do nothing.
    for c in ['c', 'f', 'p', 'w', 'r'] {
        assert_eq!(board.key(Key::Char(c)), None);
        assert!(board.prompt.is_none(), "{c}");
    }
    board.key(Key::Down);
    assert_eq!(board.draw_scroll, 1);
    board.key(Key::Char('v'));
    assert!(!board.showing_draw);
}
