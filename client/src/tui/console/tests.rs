//! The dashboard's keys and alerts, without a terminal.

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
    assert_eq!(board.alerts[0], "m: device t7 disconnected");
    assert_eq!(
        board.alerts[1],
        "m: dice anomaly: player A's dice: faces are unevenly spread"
    );
}

#[test]
fn pausing_asks_for_a_permitted_reason_then_a_confirmation() {
    let mut board = Dashboard::new("open");
    board.update(state("m"));
    board.key(Key::Char('p'));
    board.key(Key::Char('9'));
    assert_eq!(board.key(Key::Enter), None);
    assert!(board.alerts[0].contains("1 to 8"));
    board.key(Key::Char('p'));
    board.key(Key::Char('4')); // game over, break, director called, dice picked up early, …
    board.key(Key::Enter);
    let pending = board.key(Key::Char('y')).unwrap();
    assert_eq!(
        pending.action,
        Action::Pause(v1::PauseReason::DicePickedUpEarly as i32)
    );
    assert!(pending.label.contains("dice picked up early"));
    board.key(Key::Char('p'));
    assert_eq!(board.key(Key::Esc), None);
    assert_eq!(board.prompt, None, "escape cancels");
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
        pending.action,
        Action::Chess(v1::ChessCommand {
            action: Some(v1::chess_command::Action::Pause(
                v1::PauseReason::DirectorStopped as i32
            )),
        })
    );
    board.key(Key::Char('a'));
    for c in "B 4m30s".chars() {
        board.key(Key::Char(c));
    }
    board.key(Key::Enter);
    let pending = board.key(Key::Char('y')).unwrap();
    assert_eq!(
        pending.action,
        Action::Chess(v1::ChessCommand {
            action: Some(v1::chess_command::Action::SetTime(v1::ChessTime {
                color: v1::Color::Black as i32,
                ms: 270_000,
            })),
        })
    );
    assert_eq!(pending.ruling.unwrap().article, "6.10");
    assert_eq!(board.key(Key::Char('x')), None);
    assert!(
        board.alerts[0].contains("not in chess"),
        "{:?}",
        board.alerts
    );
    assert_eq!(chess_turn(board.rows()[0]), "B move");
}
