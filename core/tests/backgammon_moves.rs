//! Moves in a match (issue 23): with `moves: recorded` every play is checked against the
//! roll (4.2 (iii)), the press still ends the turn (4.2 (i)), the game ends by itself with
//! the board's result and a concession may not ask more than the position allows (4.5).
//! Every state is checked to be the fold of its events (the harness).

#[path = "backgammon/harness.rs"]
mod harness;

use baffle_core::backgammon::board::legal_plays;
use baffle_core::backgammon::{Change, Command, GameEnd, MatchSetup, MovesSetting, Turn, WinKind};
use baffle_core::{Side, Timestamp};
use harness::{A, B, Table};

fn recorded(length: u32) -> Table {
    let mut setup = MatchSetup::new(["Anna", "Ben"], length, Timestamp(0));
    setup.moves = MovesSetting::Recorded;
    let mut t = Table::new(setup);
    t.ok(Command::CheckIn { side: A });
    t.ok(Command::CheckIn { side: B });
    t
}

fn mv(side: Side, play: &str) -> Command {
    Command::Move {
        side,
        play: play.into(),
    }
}

/// Dice from a fixed seed (xorshift), for games played to the end.
struct Dice(u64);

impl Dice {
    fn die(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 6) as u8 + 1
    }
}

/// Plays the game in progress with legal plays chosen by `pick` until it ends or `stop`
/// says so (checked before each move); returns the number of turns played and whether
/// `stop` ended it. A turn with no legal play is pressed without a move.
fn play_out(
    t: &mut Table,
    seed: u64,
    stop: &mut dyn FnMut(&mut Table, Side) -> bool,
) -> (usize, bool) {
    let mut dice = Dice(seed);
    let mut turns = 0;
    while let Some(game) = t.m.game() {
        match game.turn {
            Turn::Opening => {
                let (a, b) = (dice.die(), dice.die());
                t.wait(1_000).opening([a, b]);
            }
            Turn::OnRoll { side, .. } => {
                let roll = [dice.die(), dice.die()];
                t.wait(1_000).roll(side, roll);
            }
            Turn::Moving { side, dice: roll } => {
                if stop(t, side) {
                    return (turns, true);
                }
                let seen = t.m.board().unwrap().seen_by(side);
                let plays = legal_plays(&seen, roll).unwrap();
                turns += 1;
                if plays[0].steps.is_empty() {
                    let events = t.wait(1_000).press(side);
                    assert!(
                        matches!(events[0].change, Change::Moved { ref play, .. } if play.is_empty())
                    );
                    continue;
                }
                let play = plays[usize::from(dice.die()) % plays.len()].to_string();
                t.wait(1_000).ok(mv(side, &play));
                if t.m.game().is_some() {
                    t.wait(1_000).press(side);
                }
            }
            Turn::DoubleOffered { .. } => unreachable!("nobody doubles here"),
        }
    }
    (turns, false)
}

#[test]
fn rule_4_2_iii_a_move_is_checked_against_the_roll_and_an_illegal_one_refused() {
    let mut t = recorded(5);
    t.at(1_000).opening([3, 1]);
    let e = t.err(mv(A, "24/18"));
    assert_eq!(e.article, "4.2 (iii)");
    assert!(e.to_string().contains("not a legal play of 3-1"), "{e}");
    let e = t.err(mv(A, "8/5 6/5 6/5"));
    assert_eq!(e.article, "4.2 (iii)");
    assert_eq!(t.err(mv(B, "8/5 6/5")).article, "4.2 (iii)", "not B's roll");
    let events = t.wait(1_000).ok(mv(A, "6/5 8/5"));
    // Recorded in the canonical notation.
    assert!(matches!(&events[0].change, Change::Moved { side: A, play } if play == "8/5 6/5"));
    let board = t.m.board().unwrap();
    assert_eq!(board.pips(), [163, 167]);
    assert_eq!(board.seen_by(B).pips(), [167, 163]);
}

#[test]
fn rule_4_2_i_the_press_still_ends_the_turn_and_needs_the_move_first() {
    let mut t = recorded(5);
    t.at(1_000).opening([3, 1]);
    let e = t.wait(1_000).err(Command::Press { side: A });
    assert!(
        e.to_string().contains("sends his move before pressing"),
        "{e}"
    );
    t.ok(mv(A, "8/5 6/5"));
    let e = t.err(mv(A, "13/10 24/23"));
    assert_eq!(e.article, "4.2 (i)", "one move a turn");
    t.press(A);
    t.wait(1_000).roll(B, [6, 4]);
    t.wait(1_000).ok(mv(B, "24/14"));
    t.press(B);
    assert_eq!(t.m.board().unwrap().pips(), [163, 157]);
}

#[test]
fn rule_4_5_a_recorded_game_ends_by_itself_with_the_result_the_board_gives() {
    let mut t = recorded(25);
    t.at(1_000).ok(Command::StartGame);
    let (turns, stopped) = play_out(&mut t, 23, &mut |_, _| false);
    assert!(!stopped && turns > 20);
    let ended = t.log.iter().rev().find_map(|e| match e.change {
        Change::GameEnded {
            winner,
            result,
            cube,
            points,
            how,
        } => Some((winner, result, cube, points, how)),
        _ => None,
    });
    let (winner, result, cube, points, how) = ended.expect("the game ended by itself");
    assert_eq!(how, GameEnd::Declared);
    let last = t.m.board().unwrap().seen_by(winner);
    assert_eq!(last.borne_off(0), 15);
    assert_eq!(last.outcome().unwrap().kind, result);
    assert_eq!((cube, points), (1, result.multiplier()));
    assert_eq!(t.m.score(winner), points);
    assert_eq!(t.m.games().len(), 1);
}

#[test]
fn rule_4_5_with_moves_recorded_the_result_is_not_declared_by_hand() {
    let mut t = recorded(5);
    t.at(1_000).opening([3, 1]);
    let e = t.err(Command::EndGame {
        winner: A,
        kind: WinKind::Single,
    });
    assert_eq!(e.article, "4.5");
    let e = t.err(Command::ReplayIllegalMove { offender: A });
    assert_eq!(e.article, "4.2 (iii)");
}

#[test]
fn rule_4_5_a_concession_asking_more_than_the_position_allows_is_refused() {
    let mut t = recorded(25);
    t.at(1_000).ok(Command::StartGame);
    // Play until a side has borne off a checker and the other has not yet won.
    let (_, stopped) = play_out(&mut t, 7, &mut |t, _| {
        let b = t.m.board().unwrap();
        b.position.borne_off(0) > 0 || b.position.borne_off(1) > 0
    });
    assert!(stopped);
    let b = t.m.board().unwrap().position;
    let loser = if b.borne_off(0) > 0 { A } else { B };
    for kind in [WinKind::Gammon, WinKind::Backgammon] {
        let e = t.err(Command::Concede { side: loser, kind });
        assert_eq!(e.article, "4.5");
        assert!(
            e.to_string().contains("asks more than the position allows"),
            "{e}"
        );
    }
    t.ok(Command::Concede {
        side: loser,
        kind: WinKind::Single,
    });
    assert_eq!(t.m.score(loser.other()), 1);
}

#[test]
fn a_concession_of_a_backgammon_stands_while_contact_remains() {
    let mut t = recorded(5);
    t.at(1_000).opening([3, 1]);
    t.ok(Command::Concede {
        side: B,
        kind: WinKind::Backgammon,
    });
    assert_eq!(t.m.score(A), 3);
}

#[test]
fn with_moves_off_nothing_changes_and_a_move_is_refused() {
    let mut t = Table::seated(5);
    t.at(1_000).opening([3, 1]);
    let e = t.err(mv(A, "8/5 6/5"));
    assert!(e.to_string().contains("does not record moves"), "{e}");
    assert!(t.m.board().is_none());
    t.wait(1_000).press(A);
    // The set-up of a match without moves is written as before (canonical bodies).
    let plain = serde_json::to_string(t.m.setup()).unwrap();
    assert!(!plain.contains("moves"), "{plain}");
    let mut setup = t.m.setup().clone();
    setup.moves = MovesSetting::Recorded;
    let with = serde_json::to_string(&setup).unwrap();
    assert!(with.contains(r#""moves":"recorded""#), "{with}");
    assert_eq!(
        serde_json::from_str::<MatchSetup>(&plain).unwrap().moves,
        MovesSetting::Off
    );
}

/// Whether `side`, on roll, has no legal move for any of the 21 rolls.
fn closed_out(t: &Table, side: Side) -> bool {
    let seen = t.m.board().unwrap().seen_by(side);
    (1..=6u8).all(|a| {
        (a..=6u8).all(|b| {
            let plays = legal_plays(&seen, [a, b]).unwrap();
            plays.len() == 1 && plays[0].steps.is_empty()
        })
    })
}

/// A press-back without a roll is only for a player who cannot move whatever he rolls
/// (4.2 (i)); with moves recorded the board says whether he can. Random games are
/// played; at every turn the player on roll tries to press back: refused while any roll
/// moves him, accepted once he is closed out (issue 29, attack 1: a player pressed back
/// to give his opponent the next draw). Seeds 1 to 56 see no closed-out player (4,500
/// press-backs refused on the way); the game of seed 57 closes one out, so the test
/// starts from seed 50 to stay quick in a debug build.
#[test]
fn rule_4_2_i_a_press_back_is_refused_unless_the_player_is_closed_out() {
    let mut refused = 0;
    for seed in 50..400u64 {
        let mut t = recorded(1);
        let mut dice = Dice(seed);
        t.at(1_000).opening([1, 2]);
        while let Some(game) = t.m.game() {
            match game.turn {
                Turn::Opening => t.wait(1_000).opening([dice.die(), dice.die()]).len(),
                Turn::OnRoll { side, .. } if closed_out(&t, side) => {
                    let events = t.wait(1_000).ok(Command::PressBack { side });
                    assert!(matches!(events[0].change, Change::PressedBack { .. }));
                    assert!(refused > 0);
                    return;
                }
                Turn::OnRoll { side, .. } => {
                    let e = t.err(Command::PressBack { side });
                    assert_eq!(e.article, "4.2 (i)", "{e}");
                    assert!(e.to_string().contains("can move with"), "{e}");
                    refused += 1;
                    t.wait(1_000).roll(side, [dice.die(), dice.die()]).len()
                }
                Turn::Moving { side, dice: roll } => {
                    let seen = t.m.board().unwrap().seen_by(side);
                    let plays = legal_plays(&seen, roll).unwrap();
                    if plays[0].steps.is_empty() {
                        t.wait(1_000).press(side);
                        continue;
                    }
                    let play = plays[usize::from(dice.die()) % plays.len()].to_string();
                    t.wait(1_000).ok(mv(side, &play));
                    if t.m.game().is_some() {
                        t.wait(1_000).press(side);
                    }
                    0
                }
                Turn::DoubleOffered { .. } => unreachable!("nobody doubles here"),
            };
        }
    }
    panic!("no closed-out player in 400 random games ({refused} press-backs refused)");
}

#[test]
fn rule_4_1_v_a_a_premature_roll_between_a_move_and_its_press_leaves_the_move_made() {
    use baffle_core::backgammon::board::{Action, NextTurn, record_from_events, write_mat};
    let mut t = recorded(5);
    t.at(1_000).opening([3, 1]);
    // B throws before A has moved: it stands, and both rolls are known to the help.
    t.wait(500).roll(B, [6, 5]);
    let help = t.m.adjudication().unwrap();
    assert_eq!(
        help.next,
        NextTurn {
            side: 0,
            dice: Some([3, 1]),
            then: Some([6, 5])
        }
    );
    t.wait(500).ok(mv(A, "8/5 6/5"));
    // A outside tester's case: a premature roll between the move and its press gave the
    // mover his move back, and his 3-1 was played twice. The move stays made.
    let e = t.err(mv(A, "8/5 6/5"));
    assert_eq!(e.article, "4.2 (i)", "{e}");
    assert_eq!(t.m.adjudication().unwrap().next.dice, Some([6, 5]));
    t.press(A);
    // B's roll is his at the press; a premature double of A's (4.4 (v)) is written once.
    t.wait(500).ok(mv(B, "24/18 18/13"));
    t.wait(500).ok(Command::Double { side: A });
    t.press(B);
    t.wait(500).ok(Command::Take { side: B });
    assert_eq!(t.m.board().unwrap().pips(), [163, 156]);
    let record = record_from_events(["Anna".into(), "Ben".into()], 5, &t.log).unwrap();
    let actions = &record.games[0].actions;
    let doubles = actions
        .iter()
        .filter(|a| matches!(a, Action::Double { .. }))
        .count();
    assert_eq!(doubles, 1, "{actions:?}");
    let mat = write_mat(&record);
    assert!(
        mat.contains("31: 8/5 6/5") && mat.contains("65: 24/18 18/13"),
        "{mat}"
    );
    assert!(
        mat.contains("Doubles => 2") && !mat.contains("Doubles => 4"),
        "{mat}"
    );
}
