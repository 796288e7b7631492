//! Every article of `shared/rules/backgammon.md`, tested by name.

#[path = "backgammon/harness.rs"]
mod harness;

use baffle_core::backgammon::setup::DiceSource;
use baffle_core::backgammon::{
    Change, ClockSetup, Command, DirectorAction, Due, Expiry, GameEnd, MatchEnd, MatchSetup,
    TimeoutPolicy, Turn, VoidReason, WinKind,
};
use baffle_core::clock::PauseReason;
use baffle_core::{Millis, Timestamp};
use harness::{A, B, Table};

const MIN: i64 = 60_000;

// ---------- §1 the clock ----------

#[test]
fn rule_3_5_reserve_is_length_times_time_per_point_with_12_s_delay() {
    let t = Table::seated(7);
    let clock = t.m.clock().unwrap();
    assert_eq!(clock.view(A, Timestamp(0)).main, Millis::mins(14));
    assert_eq!(clock.view(B, Timestamp(0)).delay, Millis::secs(12));
    let mut setup = MatchSetup::new(["a", "b"], 5, Timestamp(0));
    setup.clock = None;
    assert!(
        Table::new(setup).m.clock().is_none(),
        "unclocked matches have no clock"
    );
}

#[test]
fn opening_roll_equal_dice_are_thrown_again_and_the_higher_plays_first_with_both() {
    let mut t = Table::seated(5);
    let events = t.at(1_000).opening([4, 4]);
    assert_eq!(Table::kinds(&events), ["game_started", "opening_throw"]);
    assert_eq!(t.m.game().unwrap().turn, Turn::Opening);
    assert_eq!(t.m.clock().unwrap().running(), None);
    t.at(2_000).opening([2, 5]);
    assert_eq!(
        t.m.game().unwrap().turn,
        Turn::Moving {
            side: B,
            dice: [2, 5]
        }
    );
    assert_eq!(t.m.clock().unwrap().running(), Some(B));
    let e = t.err(Command::OpeningThrow {
        throw: [3, 1],
        source: DiceSource::Server,
    });
    assert!(e.message.contains("opening roll is over"));
}

#[test]
fn rule_4_2_i_press_ends_the_turn_and_starts_the_opponent() {
    let mut t = Table::seated(5);
    t.at(0).opening([6, 1]);
    let e = t.err(Command::Press { side: B });
    assert!(e.to_string().contains("4.2 (i)"), "{e}");
    t.at(20_000).press(A);
    assert_eq!(
        t.m.game().unwrap().turn,
        Turn::OnRoll {
            side: B,
            may_double: true
        }
    );
    let clock = t.m.clock().unwrap();
    assert_eq!(clock.running(), Some(B));
    assert_eq!(
        clock.view(A, Timestamp(20_000)).main,
        Millis::mins(10) - Millis::secs(8)
    );
    // A player on roll rolls before he presses.
    assert!(
        t.err(Command::Press { side: B })
            .message
            .contains("not rolled")
    );
}

#[test]
fn rule_4_4_double_press_take_press_back() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.at(10_000).press(A);
    t.at(15_000).ok(Command::Double { side: B });
    assert_eq!(t.m.game().unwrap().turn, Turn::DoubleOffered { by: B });
    assert_eq!(
        t.m.clock().unwrap().running(),
        Some(A),
        "the taker decides on his own time"
    );
    t.at(40_000).ok(Command::Take { side: A });
    let game = t.m.game().unwrap();
    assert_eq!(
        (game.cube.unwrap().value, game.cube.unwrap().owner),
        (2, Some(A))
    );
    assert_eq!(
        game.turn,
        Turn::OnRoll {
            side: B,
            may_double: true
        }
    );
    assert_eq!(
        t.m.clock().unwrap().running(),
        Some(B),
        "the take is completed by pressing back"
    );
    // Only the owner may redouble.
    let e = t.err(Command::Double { side: B });
    assert!(e.message.contains("only the owner"), "{e}");
    t.roll(B, [3, 2]);
    t.at(50_000).press(B);
    t.at(51_000).ok(Command::Double { side: A });
    t.at(52_000).ok(Command::Take { side: B });
    assert_eq!(t.m.game().unwrap().cube.unwrap().value, 4);
}

#[test]
fn rule_4_4_pass_ends_the_game_at_the_value_before_the_double_and_stops_the_clock() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.at(10_000).press(A);
    t.at(12_000).ok(Command::Double { side: B });
    t.at(13_000).ok(Command::Take { side: A });
    t.roll(B, [1, 1]);
    t.at(20_000).press(B);
    t.at(21_000).ok(Command::Double { side: A });
    let events = t.at(30_000).ok(Command::Pass { side: B });
    assert_eq!(Table::kinds(&events), ["passed", "game_ended"]);
    let g = &t.m.games()[0];
    assert_eq!(
        (g.winner, g.points, g.cube, g.how),
        (A, 2, 2, GameEnd::Pass)
    );
    assert_eq!(t.m.score(A), 2);
    assert_eq!(t.m.clock().unwrap().running(), None);
}

#[test]
fn rule_4_4_double_only_on_own_turn_before_rolling() {
    let mut t = Table::seated(7);
    assert!(
        t.err(Command::Double { side: A })
            .message
            .contains("no game")
    );
    t.at(0).opening([6, 1]);
    // A rolled (the opening roll is his): too late to double this turn.
    assert!(
        t.err(Command::Double { side: A })
            .to_string()
            .contains("own turn, before rolling")
    );
    t.at(5_000).press(A);
    t.roll(B, [2, 2]);
    assert!(
        t.err(Command::Double { side: B })
            .message
            .contains("own turn")
    );
    assert!(
        t.err(Command::Take { side: A })
            .message
            .contains("no double is offered")
    );
}

#[test]
fn rule_4_4_ii_no_double_after_an_invalid_roll() {
    let mut setup = MatchSetup::new(["a", "b"], 7, Timestamp(0));
    setup.dice = DiceSource::Physical;
    let mut t = Table::new(setup);
    t.ok(Command::CheckIn { side: A });
    t.ok(Command::CheckIn { side: B });
    t.ok(Command::OpeningThrow {
        throw: [6, 1],
        source: DiceSource::Physical,
    });
    t.at(5_000).press(A);
    t.ok(Command::Roll {
        side: B,
        dice: [3, 4],
        source: DiceSource::Physical,
    });
    t.ok(Command::InvalidRoll { side: B }); // cocked dice (4.1 (iv))
    let e = t.err(Command::Double { side: B });
    assert_eq!(e.article, "4.4 (ii)");
    t.ok(Command::Roll {
        side: B,
        dice: [5, 2],
        source: DiceSource::Physical,
    });
}

#[test]
fn rule_4_1_i_dice_show_1_to_6_and_the_source_is_the_match_s() {
    let mut t = Table::seated(5);
    let e = t.err(Command::OpeningThrow {
        throw: [0, 7],
        source: DiceSource::Server,
    });
    assert!(e.to_string().contains("4.1 (i)"));
    let e = t.err(Command::OpeningThrow {
        throw: [1, 2],
        source: DiceSource::Physical,
    });
    assert!(e.message.contains("server's dice"));
}

#[test]
fn rule_4_4_iv_crawford_game_no_cube_then_post_crawford() {
    let mut t = Table::seated(3);
    t.quick_game(A, WinKind::Gammon); // 2-0: A needs 1
    let events = t.wait(1_000).opening([6, 1]);
    // The Crawford game is announced before it starts (4.7).
    assert!(matches!(
        events[0].change,
        Change::GameStarted {
            number: 2,
            crawford: true
        }
    ));
    assert_eq!(t.m.game().unwrap().cube, None, "the cube is removed");
    t.wait(5_000).press(A);
    let e = t.err(Command::Double { side: B });
    assert_eq!(
        e.to_string(),
        "Crawford game: the cube may not be used (backgammon rules 4.4 (iv))"
    );
    t.wait(1_000).ok(Command::EndGame {
        winner: B,
        kind: WinKind::Single,
    }); // 2-1
    t.wait(1_000).opening([6, 1]);
    assert!(!t.m.game().unwrap().crawford);
    assert!(t.m.is_post_crawford());
    t.wait(5_000).press(A);
    t.wait(1_000).ok(Command::Double { side: B }); // post-Crawford: allowed
}

#[test]
fn rule_4_4_iv_crawford_whatever_brings_a_player_to_n_minus_1_penalty_points_too() {
    let mut t = Table::seated(5);
    t.quick_game(B, WinKind::Gammon); // 0-2
    t.director(DirectorAction::AwardPoints { to: B, points: 2 }); // 0-4, and 2 is not over N/2
    assert!(t.m.result().is_none());
    t.wait(1_000).opening([6, 1]);
    assert!(t.m.game().unwrap().crawford);
    // Penalty points beyond half the match length award the match (2.2).
    let mut t = Table::seated(5);
    t.director(DirectorAction::AwardPoints { to: B, points: 3 });
    assert_eq!(t.m.result().unwrap().how, MatchEnd::PenaltyPoints);
}

#[test]
fn rule_4_4_iv_a_crawford_double_voided_in_the_game_in_progress() {
    // The score on record was wrong: it was really 2-0 in a 3-point match, so this game
    // is the Crawford game and B's double is void. Play continues without the cube.
    let mut t = Table::seated(3);
    t.quick_game(A, WinKind::Single); // recorded 1-0
    t.wait(1_000).opening([6, 1]);
    t.wait(5_000).press(A);
    t.wait(1_000).ok(Command::Double { side: B });
    t.director(DirectorAction::CorrectScore { a: 2, b: 0 });
    assert!(t.m.game().unwrap().crawford);
    t.director(DirectorAction::VoidDouble {
        reason: VoidReason::Crawford,
    });
    let game = t.m.game().unwrap();
    assert_eq!(
        (game.cube, game.turn),
        (
            None,
            Turn::OnRoll {
                side: B,
                may_double: false
            }
        )
    );
    assert_eq!(t.m.clock().unwrap().running(), Some(B));
    t.roll(B, [4, 1]);
}

#[test]
fn rule_4_4_iv_a_a_pending_double_in_what_turns_out_to_be_the_crawford_game() {
    let mut t = Table::seated(3);
    t.quick_game(A, WinKind::Single); // recorded 1-0
    t.wait(1_000).opening([6, 1]);
    t.wait(5_000).press(A);
    t.wait(1_000).ok(Command::Double { side: B });
    t.director(DirectorAction::CorrectScore { a: 2, b: 0 }); // it was 2-0: Crawford
    // The pending double is void: no take, no pass, until the director voids it.
    assert_eq!(t.err(Command::Take { side: A }).article, "4.4 (iv)");
    assert_eq!(t.err(Command::Pass { side: A }).article, "4.4 (iv)");
    t.director(DirectorAction::VoidDouble {
        reason: VoidReason::Crawford,
    });
    assert_eq!(
        t.m.game().unwrap().turn,
        Turn::OnRoll {
            side: B,
            may_double: false
        }
    );
    t.roll(B, [2, 1]);
}

#[test]
fn rule_4_4_iv_b_a_crawford_double_voided_between_games_corrects_the_score() {
    let mut t = Table::seated(5);
    t.quick_game(A, WinKind::Gammon); // recorded 2-0, really 4-0
    t.wait(1_000).opening([6, 1]);
    t.wait(5_000).press(A);
    t.double_take(B);
    t.wait(1_000).ok(Command::EndGame {
        winner: B,
        kind: WinKind::Single,
    }); // B +2 → 2-2
    t.director(DirectorAction::CorrectScore { a: 4, b: 2 });
    t.director(DirectorAction::VoidDouble {
        reason: VoidReason::Crawford,
    });
    assert_eq!(
        (t.m.score(A), t.m.score(B)),
        (4, 1),
        "B scores 1 without the cube"
    );
    let g = t.m.games().last().unwrap();
    assert!(g.crawford && g.cube == 1 && g.points == 1);
    // The next game is post-Crawford.
    t.wait(1_000).opening([6, 1]);
    assert!(!t.m.game().unwrap().crawford);
}

#[test]
fn rule_4_4_iv_c_a_crawford_double_in_the_last_game_the_match_continues() {
    let mut t = Table::seated(5);
    t.quick_game(B, WinKind::Backgammon); // 0-3 recorded; really A had 4 too
    t.wait(1_000).opening([6, 1]);
    t.wait(5_000).press(A);
    t.double_take(B);
    t.wait(1_000).ok(Command::EndGame {
        winner: B,
        kind: WinKind::Single,
    }); // 0-5: B wins
    assert_eq!(t.m.result().unwrap().winner, B);
    t.director(DirectorAction::CorrectScore { a: 4, b: 5 });
    let events = t.director(DirectorAction::VoidDouble {
        reason: VoidReason::Crawford,
    });
    assert!(Table::kinds(&events).contains(&"match_resumed"));
    assert_eq!((t.m.score(A), t.m.score(B), t.m.result()), (4, 4, None));
    t.wait(1_000).opening([6, 1]); // the match goes on, post-Crawford at 4-4
}

#[test]
fn rule_4_4_iv_a_double_of_a_game_already_followed_by_another_cannot_be_voided() {
    let mut t = Table::seated(7);
    t.quick_game(A, WinKind::Single);
    t.wait(1_000).opening([6, 1]);
    let e = t.director_err(DirectorAction::VoidDouble {
        reason: VoidReason::Crawford,
    });
    assert!(e.message.contains("not the Crawford game"), "{e}");
}

#[test]
fn rule_4_4_vi_wrong_cube_level_is_corrected_and_the_action_stands() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.director(DirectorAction::CorrectCube {
        value: 4,
        owner: Some(B),
    });
    assert_eq!(t.m.game().unwrap().cube.unwrap().value, 4);
    assert!(
        t.director_err(DirectorAction::CorrectCube {
            value: 3,
            owner: Some(B)
        })
        .to_string()
        .contains("4.4 (vi)")
    );
    assert!(
        t.director_err(DirectorAction::CorrectCube {
            value: 128,
            owner: Some(B)
        })
        .message
        .contains("cube level")
    );
}

#[test]
fn rule_4_4_vi_a_correction_keeps_the_cube_a_cube() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    // Centred means at 1: a higher cube has an owner, and a cube at 1 has none.
    let e = t.director_err(DirectorAction::CorrectCube {
        value: 64,
        owner: None,
    });
    assert_eq!(e.article, "4.4 (vi)");
    t.director_err(DirectorAction::CorrectCube {
        value: 1,
        owner: Some(A),
    });
    // Not while a double is being decided: the take doubles what is there.
    t.wait(5_000).press(A);
    t.wait(1_000).ok(Command::Double { side: B });
    let e = t.director_err(DirectorAction::CorrectCube {
        value: 32,
        owner: Some(B),
    });
    assert!(e.message.contains("being decided"), "{e}");
    t.wait(1_000).ok(Command::Take { side: A });
    t.director(DirectorAction::CorrectCube {
        value: 32,
        owner: Some(A),
    });
    assert_eq!(t.m.game().unwrap().cube.unwrap().value, 32);
}

#[test]
fn rule_4_4_vii_a_dead_cube_may_not_be_turned() {
    let mut t = Table::seated(3);
    t.at(0).opening([6, 1]);
    t.wait(5_000).press(A);
    t.double_take(B); // A owns 2; needs 3
    t.turn(B, [1, 2]);
    t.double_take(A); // B owns 4 and needs 3: dead for B
    t.turn(A, [1, 2]);
    let e = t.err(Command::Double { side: B });
    assert_eq!(e.article, "4.4 (vii)");
}

/// Three turns of the cube in a 7-point match: B 1→2, A 2→4, B 4→8 (A owns 8).
fn three_cube_turns() -> Table {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.wait(5_000).press(A);
    t.double_take(B);
    t.turn(B, [1, 2]);
    t.double_take(A);
    t.turn(A, [1, 2]);
    t.wait(1_000).ok(Command::Double { side: B }); // B redoubles his 4: dead if he needed ≤ 4
    t.wait(1_000).ok(Command::Take { side: A });
    t
}

#[test]
fn rule_4_4_vii_a_live_redouble_is_not_void() {
    // B owns 4 and needs 7: his redouble was live, and no ruling may void it.
    let mut t = three_cube_turns();
    let e = t.director_err(DirectorAction::VoidDouble {
        reason: VoidReason::DeadCube,
    });
    assert_eq!(e.article, "4.4 (vii)");
    assert!(e.message.contains("no double of a dead cube"), "{e}");
}

#[test]
fn rule_4_4_vii_a_dead_cube_double_voided_in_the_game_in_progress() {
    let mut t = three_cube_turns();
    // The score on record was wrong: B had 3, so he needed 4 and his cube of 4 was dead.
    t.director(DirectorAction::CorrectScore { a: 0, b: 3 });
    t.director(DirectorAction::VoidDouble {
        reason: VoidReason::DeadCube,
    });
    let cube = t.m.game().unwrap().cube.unwrap();
    assert_eq!(
        (cube.value, cube.owner),
        (4, Some(B)),
        "back to the dead value, still B's"
    );
    t.roll(B, [6, 6]);
    t.wait(1_000).ok(Command::EndGame {
        winner: B,
        kind: WinKind::Gammon,
    });
    assert_eq!(t.m.score(B), 11);
}

#[test]
fn rule_4_4_vii_a_dead_cube_double_voided_after_the_game_the_dead_value_decides() {
    let mut t = three_cube_turns();
    t.wait(1_000).ok(Command::EndGame {
        winner: A,
        kind: WinKind::Single,
    });
    assert_eq!(t.m.score(A), 8);
    assert_eq!(t.m.result().unwrap().winner, A);
    // B had 3 before this game, not 0: his redouble of a cube of 4 was dead.
    t.director(DirectorAction::CorrectScore { a: 8, b: 3 });
    let events = t.director(DirectorAction::VoidDouble {
        reason: VoidReason::DeadCube,
    });
    assert_eq!(t.m.score(A), 4, "played for the previous (dead) value of 4");
    assert!(Table::kinds(&events).contains(&"match_resumed"));
    // A's own 2→4 was a redouble, but A needed 7: it was live and stands.
    let e = t.director_err(DirectorAction::VoidDouble {
        reason: VoidReason::DeadCube,
    });
    assert!(e.message.contains("no double of a dead cube"), "{e}");
    assert_eq!(t.m.score(A), 4);
}

#[test]
fn rule_4_4_viii_no_beavers_automatic_doubles_or_jacoby() {
    let mut t = Table::seated(7);
    t.at(0).opening([3, 3]); // a tie: no automatic double
    assert_eq!(t.m.game().unwrap().cube.unwrap().value, 1);
    t.opening([6, 1]);
    t.wait(5_000).press(A);
    t.wait(1_000).ok(Command::Double { side: B });
    assert_eq!(t.err(Command::Beaver { side: A }).article, "4.4 (viii)");
    t.wait(1_000).ok(Command::Pass { side: A });
    // Without Jacoby, a gammon counts with the cube in the middle.
    t.quick_game(A, WinKind::Gammon);
    assert_eq!(t.m.games().last().unwrap().points, 2);
}

#[test]
fn rule_4_4_v_a_premature_double_is_valid_when_the_opponent_presses() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.at(3_000).ok(Command::Double { side: B }); // A still moving
    assert_eq!(t.m.game().unwrap().premature_double, Some(B));
    let events = t.at(5_000).press(A);
    assert_eq!(Table::kinds(&events), ["pressed", "doubled"]);
    assert_eq!(t.m.game().unwrap().turn, Turn::DoubleOffered { by: B });
    assert_eq!(t.m.clock().unwrap().running(), Some(A));
}

#[test]
fn rule_4_4_v_a_premature_double_that_became_invalid_lapses() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.at(3_000).ok(Command::Double { side: B }); // while A is still moving
    // Meanwhile the director finds the cube was really A's at 2: B may not turn it.
    t.director(DirectorAction::CorrectCube {
        value: 2,
        owner: Some(A),
    });
    let events = t.at(5_000).press(A);
    assert_eq!(
        Table::kinds(&events),
        ["pressed"],
        "the premature double lapsed"
    );
    let game = t.m.game().unwrap();
    assert_eq!(
        (game.turn, game.premature_double),
        (
            Turn::OnRoll {
                side: B,
                may_double: true
            },
            None
        )
    );
    assert_eq!(game.cube.unwrap().owner, Some(A));
}

#[test]
fn rule_4_1_v_a_a_premature_roll_stands() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    let events = t.at(3_000).roll(B, [2, 3]);
    assert!(matches!(
        events[0].change,
        Change::Rolled {
            premature: true,
            ..
        }
    ));
    t.at(5_000).press(A);
    assert_eq!(
        t.m.game().unwrap().turn,
        Turn::Moving {
            side: B,
            dice: [2, 3]
        }
    );
    assert!(
        t.err(Command::Double { side: B })
            .message
            .contains("own turn"),
        "he has rolled"
    );
}

#[test]
fn rule_4_5_concession_and_game_values() {
    let mut t = Table::seated(15);
    t.at(0).opening([6, 1]);
    t.wait(5_000).press(A);
    t.double_take(B);
    t.wait(1_000).ok(Command::Concede {
        side: A,
        kind: WinKind::Backgammon,
    });
    assert_eq!(t.m.score(B), 6, "3 × the cube of 2");
    assert_eq!(t.m.games()[0].how, GameEnd::Concession);
    t.quick_game(A, WinKind::Gammon);
    assert_eq!(t.m.score(A), 2);
    assert_eq!(WinKind::Single.multiplier(), 1);
}

#[test]
fn rule_4_5_a_match_ends_at_n_and_nothing_but_corrections_follow() {
    let mut t = Table::seated(3);
    t.quick_game(A, WinKind::Backgammon);
    assert_eq!(t.m.result().unwrap().winner, A);
    assert_eq!(t.m.result().unwrap().how, MatchEnd::Points);
    let e = t.err(Command::OpeningThrow {
        throw: [1, 2],
        source: DiceSource::Server,
    });
    assert_eq!(e.article, "4.6");
}

#[test]
fn rule_4_6_the_director_confirms_and_may_correct_a_result_later() {
    let mut t = Table::seated(3);
    t.quick_game(A, WinKind::Backgammon);
    t.director(DirectorAction::ConfirmResult);
    assert!(t.m.result().unwrap().confirmed);
    assert!(
        t.director_err(DirectorAction::ConfirmResult)
            .message
            .contains("no unconfirmed")
    );
    // The result was recorded wrongly: it was a single game.
    let events = t.director(DirectorAction::CorrectResult {
        game: 1,
        winner: A,
        kind: WinKind::Single,
    });
    assert!(Table::kinds(&events).contains(&"match_resumed"));
    assert_eq!(t.m.score(A), 1);
    assert!(
        t.log
            .iter()
            .any(|e| matches!(e.change, Change::GameEnded { points: 3, .. })),
        "the original stays on record"
    );
}

#[test]
fn rule_4_8_a_match_completed_at_a_wrong_length_stands() {
    let mut t = Table::seated(3);
    t.quick_game(A, WinKind::Backgammon);
    let e = t.director_err(DirectorAction::CorrectLength { length: 5 });
    assert_eq!(e.article, "4.6");
}

#[test]
fn rule_4_8_the_length_is_corrected_before_the_next_game() {
    let mut t = Table::seated(5);
    t.at(0).opening([6, 1]);
    t.director(DirectorAction::CorrectLength { length: 7 });
    assert_eq!(
        (t.m.length(), t.m.pending_length()),
        (5, Some(7)),
        "the current game is unaffected"
    );
    t.wait(1_000).ok(Command::EndGame {
        winner: A,
        kind: WinKind::Single,
    });
    let events = t.wait(1_000).opening([6, 1]);
    assert_eq!(
        Table::kinds(&events)[..2],
        ["length_corrected", "game_started"]
    );
    assert_eq!(t.m.length(), 7);
}

#[test]
fn rule_4_8_exception_the_match_ended_with_the_current_game() {
    let mut t = Table::seated(3);
    t.at(0).opening([6, 1]);
    t.director(DirectorAction::CorrectLength { length: 5 });
    let events = t.wait(1_000).ok(Command::EndGame {
        winner: A,
        kind: WinKind::Backgammon,
    });
    assert_eq!(
        Table::kinds(&events),
        ["game_ended", "match_ended", "length_kept"]
    );
    assert_eq!(t.m.result().unwrap().winner, A);
}

#[test]
fn rule_4_8_exception_a_shorter_length_that_would_end_the_match_is_not_applied() {
    let mut t = Table::seated(7);
    t.quick_game(A, WinKind::Backgammon); // 3-0
    let events = t.director(DirectorAction::CorrectLength { length: 3 });
    assert!(
        matches!(&events[1].change, Change::LengthKept { requested: 3, why } if why.contains("4.8"))
    );
    assert_eq!((t.m.length(), t.m.result()), (7, None));
    t.director(DirectorAction::CorrectLength { length: 5 }); // shorter but does not end it
    assert_eq!(t.m.length(), 5);
}

#[test]
fn rule_4_7_score_corrections_by_the_director() {
    let mut t = Table::seated(7);
    t.director(DirectorAction::CorrectScore { a: 3, b: 5 });
    assert_eq!((t.m.score(A), t.m.score(B)), (3, 5));
    // Never below zero: a deduction of more than the score is refused, not cut short.
    t.director_err(DirectorAction::DeductPoints { from: B, points: 9 });
    t.director(DirectorAction::DeductPoints { from: B, points: 5 });
    assert_eq!(t.m.score(B), 0);
}

// ---------- §1 time expiry ----------

fn clocked(length: u32, timeout: TimeoutPolicy) -> Table {
    let mut setup = MatchSetup::new(["a", "b"], length, Timestamp(0));
    setup.timeout = timeout;
    setup.clock = Some(ClockSetup {
        per_point: Millis::secs(10),
        ..ClockSetup::default()
    });
    let mut t = Table::new(setup);
    t.ok(Command::CheckIn { side: A });
    t.ok(Command::CheckIn { side: B });
    t.opening([6, 1]);
    t
}

#[test]
fn rule_4_3_iv_time_expiry_loses_the_match_at_the_exact_instant() {
    let mut t = clocked(3, TimeoutPolicy::LoseMatch);
    let (at, due) = t.m.next_due().unwrap();
    assert_eq!((at, due), (Timestamp(12_000 + 30_000), Due::Flag(A)));
    t.at(at.as_ms() - 1).ok(Command::Tick);
    assert!(t.m.result().is_none());
    let events = t.at(at.as_ms() + 250).ok(Command::Tick);
    assert_eq!(Table::kinds(&events), ["time_expired", "match_ended"]);
    assert!(
        matches!(events[0].change, Change::TimeExpired { side: A, flagged_at, expiry: Expiry::LoseMatch } if flagged_at == at)
    );
    assert_eq!(t.m.result().unwrap().how, MatchEnd::Timeout);
    assert_eq!(t.m.result().unwrap().winner, B);
}

#[test]
fn rule_4_3_iv_a_late_press_cannot_beat_the_flag() {
    let mut t = clocked(3, TimeoutPolicy::LoseMatch);
    let (at, _) = t.m.next_due().unwrap();
    // The press arrives after the flag: the expiry is dealt with first, the press refused.
    let e = t.at(at.as_ms() + 5).err(Command::Press { side: A });
    assert_eq!(e.article, "4.6");
}

#[test]
fn usbgf_overtime_then_a_second_expiry_loses() {
    let mut t = clocked(
        3,
        TimeoutPolicy::UsbgfOvertime {
            overtime: Millis::mins(1),
        },
    );
    let (at, _) = t.m.next_due().unwrap();
    let events = t.at(at.as_ms()).ok(Command::Tick);
    assert!(matches!(
        events[0].change,
        Change::TimeExpired {
            expiry: Expiry::Overtime { .. },
            ..
        }
    ));
    assert!(t.m.result().is_none());
    assert_eq!(
        t.m.clock().unwrap().running(),
        Some(A),
        "A plays on in overtime"
    );
    let (again, _) = t.m.next_due().unwrap();
    assert_eq!(again, at + Millis::secs(12) + Millis::mins(1));
    t.at(again.as_ms()).ok(Command::Tick);
    assert_eq!(t.m.result().unwrap().how, MatchEnd::Timeout);
}

#[test]
fn penalty_point_timeout_awards_points_and_resets_the_reserve_to_half() {
    let mut t = clocked(5, TimeoutPolicy::PenaltyPoints { points: 1 });
    let (at, _) = t.m.next_due().unwrap();
    t.at(at.as_ms()).ok(Command::Tick);
    assert_eq!(t.m.score(B), 1);
    assert_eq!(
        t.m.clock().unwrap().view(A, at).main,
        Millis::secs(25),
        "half of 50 s"
    );
    assert!(t.m.result().is_none());
}

#[test]
fn penalty_point_timeout_can_make_the_next_game_crawford_or_end_the_match() {
    let mut t = clocked(2, TimeoutPolicy::PenaltyPoints { points: 1 });
    let (at, _) = t.m.next_due().unwrap();
    t.at(at.as_ms()).ok(Command::Tick); // B: 1 of 2
    t.wait(1_000).press(A);
    t.wait(1_000).ok(Command::EndGame {
        winner: A,
        kind: WinKind::Single,
    }); // 1-1
    t.wait(1_000).opening([6, 1]);
    assert!(t.m.game().unwrap().crawford);
    let (at, _) = t.m.next_due().unwrap();
    t.at(at.as_ms()).ok(Command::Tick);
    assert_eq!(t.m.result().unwrap().winner, B);
}

#[test]
fn rule_4_3_iv_both_expired_order_unknown_the_clock_is_removed() {
    let mut t = Table::seated(5);
    t.director(DirectorAction::RemoveClock);
    assert!(t.m.clock().is_none());
    t.at(0).opening([6, 1]);
    assert_eq!(t.m.next_due(), None, "no clock, nothing due");
    assert!(
        t.err(Command::Pause {
            reason: PauseReason::DirectorCalled
        })
        .message
        .contains("without a clock")
    );
}

#[test]
fn rule_3_5_vi_a_clock_imposed_mid_match_gets_half_the_points_needed_times_t() {
    let mut setup = MatchSetup::new(["a", "b"], 11, Timestamp(0));
    setup.clock = None;
    let mut t = Table::new(setup);
    t.ok(Command::CheckIn { side: A });
    t.ok(Command::CheckIn { side: B });
    t.director(DirectorAction::CorrectScore { a: 3, b: 5 });
    t.director(DirectorAction::ImposeClock {
        per_point: Millis::mins(2),
        delay: Millis::secs(12),
    });
    let clock = t.m.clock().unwrap();
    // PA = 8, PB = 6: 7 × 2 min.
    assert_eq!(clock.view(A, Timestamp(0)).main, Millis::mins(14));
    assert_eq!(clock.view(B, Timestamp(0)).main, Millis::mins(14));
    t.at(0).opening([6, 1]);
    let e = t.director_err(DirectorAction::ImposeClock {
        per_point: Millis::mins(2),
        delay: Millis::secs(12),
    });
    assert_eq!(e.article, "3.5");
}

#[test]
fn rule_3_5_vi_an_odd_sum_of_points_needed_is_exact() {
    let mut t = Table::seated(11);
    t.director(DirectorAction::CorrectScore { a: 3, b: 4 }); // PA 8, PB 7: 7.5 × 2 min
    t.director(DirectorAction::ImposeClock {
        per_point: Millis::mins(2),
        delay: Millis::secs(12),
    });
    assert_eq!(
        t.m.clock().unwrap().view(A, Timestamp(0)).main,
        Millis::mins(15)
    );
}

// ---------- pauses, early pick-up, illegal moves ----------

#[test]
fn rule_4_3_ii_every_pause_carries_a_reason_and_time_stands_still() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.at(5_000).ok(Command::Pause {
        reason: PauseReason::ResultSettled,
    });
    let clock = t.m.clock().unwrap();
    assert_eq!(clock.pause().unwrap().reason, PauseReason::ResultSettled);
    assert_eq!(clock.view(A, Timestamp(10 * MIN)).main, Millis::mins(14));
    assert_eq!(t.m.next_due(), None);
    t.at(10 * MIN).ok(Command::Resume);
    t.wait(1_000).press(A);
}

#[test]
fn rule_4_1_v_b_dice_picked_up_early_the_offender_waits_out_the_delay() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.at(3_000).ok(Command::Pause {
        reason: PauseReason::DicePickedUpEarly,
    });
    t.ok(Command::DicePickedUpEarly { offender: B });
    t.at(30_000).ok(Command::Resume);
    t.at(31_000).press(A);
    t.roll(B, [3, 1]);
    let e = t.at(35_000).err(Command::Press { side: B });
    assert!(e.message.contains("wait out the delay"), "{e}");
    t.at(43_000).press(B);
    assert!(
        t.err(Command::DicePickedUpEarly { offender: A })
            .to_string()
            .contains("4.1 (v)(b)")
    );
}

#[test]
fn rule_4_2_iii_c_an_illegal_move_is_replayed_after_the_delay() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.at(5_000).press(A);
    t.at(6_000).ok(Command::Pause {
        reason: PauseReason::IllegalMoveReplay,
    });
    t.ok(Command::ReplayIllegalMove { offender: A });
    assert_eq!(
        t.m.game().unwrap().turn,
        Turn::Moving {
            side: A,
            dice: [6, 1]
        }
    );
    assert_eq!(t.m.clock().unwrap().running(), Some(A));
    assert!(
        t.at(10_000)
            .err(Command::Press { side: A })
            .message
            .contains("wait out the delay")
    );
    t.at(18_000).press(A);
}

#[test]
fn rule_4_3_vi_after_an_invalid_roll_the_delay_restarts() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.at(5_000).press(A);
    t.at(10_000).ok(Command::RestartDelay);
    assert_eq!(
        t.m.clock().unwrap().view(B, Timestamp(10_000)).delay,
        Millis::secs(12)
    );
}

// ---------- §2 start times, breaks, lateness ----------

#[test]
fn rule_2_2_lateness_one_point_per_5_minutes_and_the_match_at_more_than_half() {
    let mut t = Table::new(MatchSetup::new(["a", "b"], 7, Timestamp(0)));
    t.ok(Command::CheckIn { side: A });
    assert_eq!(t.m.next_due(), Some((Timestamp(5 * MIN), Due::Lateness(B))));
    for (minute, points) in [(5, 1), (10, 2), (15, 3)] {
        t.at(minute * MIN).ok(Command::Tick);
        assert_eq!(t.m.score(A), points);
        assert_eq!(t.m.penalty_points_received(A), points);
    }
    assert!(t.m.result().is_none());
    let events = t.at(20 * MIN).ok(Command::Tick);
    assert_eq!(Table::kinds(&events), ["lateness_point", "match_ended"]);
    assert_eq!(
        t.m.result().unwrap().how,
        MatchEnd::PenaltyPoints,
        "4 > 3.5"
    );
}

#[test]
fn rule_2_2_lateness_points_missed_by_a_slow_timer_are_dated_when_due() {
    let mut t = Table::new(MatchSetup::new(["a", "b"], 11, Timestamp(0)));
    t.ok(Command::CheckIn { side: B });
    let events = t.at(12 * MIN).ok(Command::CheckIn { side: A });
    assert_eq!(
        Table::kinds(&events),
        ["lateness_point", "lateness_point", "checked_in"]
    );
    assert_eq!(events[1].at, Timestamp(10 * MIN));
    assert_eq!(t.m.score(B), 2);
    assert_eq!(t.m.next_due(), None);
}

#[test]
fn rule_2_2_breaks_between_games_one_up_to_15_points_two_above() {
    let mut t = Table::seated(15);
    assert!(
        t.err(Command::TakeBreak { side: A })
            .message
            .contains("between games")
    );
    t.quick_game(A, WinKind::Single);
    t.ok(Command::TakeBreak { side: A });
    assert_eq!(t.m.break_until(), Some(Timestamp(t.now) + Millis::mins(5)));
    assert!(
        t.err(Command::TakeBreak { side: A })
            .to_string()
            .contains("2.2")
    );
    // Both may break, consecutively.
    t.ok(Command::TakeBreak { side: B });
    assert_eq!(t.m.break_until(), Some(Timestamp(t.now) + Millis::mins(10)));
    assert_eq!(
        t.m.clock().unwrap().running(),
        None,
        "the clock stands still in a break"
    );
    assert!(t.err(Command::StartGame).message.contains("break runs"));
    assert_eq!(Table::seated(16).m.breaks_left(A), 2);
}

#[test]
fn rule_2_2_lateness_after_a_break_counts_from_its_end() {
    let mut t = Table::seated(7);
    t.quick_game(A, WinKind::Single);
    let start = t.now;
    t.ok(Command::TakeBreak { side: B });
    let end = start + 5 * MIN;
    assert_eq!(t.m.next_due(), Some((Timestamp(end), Due::BreakEnd)));
    t.at(end).ok(Command::Tick);
    assert_eq!(
        t.m.next_due(),
        Some((Timestamp(end + 5 * MIN), Due::Lateness(B)))
    );
    t.at(end + 5 * MIN).ok(Command::Tick);
    assert_eq!(t.m.score(A), 2);
    t.ok(Command::CheckIn { side: B });
    t.wait(1_000).opening([6, 1]);
}

#[test]
fn rule_2_2_breaks_in_match_time_run_the_breaker_s_clock() {
    let mut setup = MatchSetup::new(["a", "b"], 7, Timestamp(0));
    setup.clock = Some(ClockSetup {
        breaks_in_match_time: true,
        ..ClockSetup::default()
    });
    let mut t = Table::new(setup);
    t.ok(Command::CheckIn { side: A });
    t.ok(Command::CheckIn { side: B });
    t.quick_game(A, WinKind::Single);
    t.ok(Command::TakeBreak { side: B });
    assert_eq!(t.m.clock().unwrap().running(), Some(B));
}

/// A match rescheduled before its first game counts lateness from the start the
/// director set (2.2: "the time the director sets"); points charged before stay.
#[test]
fn rule_2_2_a_rescheduled_match_counts_lateness_from_its_new_start() {
    let mut t = Table::new(MatchSetup::new(["a", "b"], 7, Timestamp(0)));
    t.ok(Command::CheckIn { side: A });
    t.at(7 * MIN).ok(Command::Tick);
    assert_eq!(t.m.score(A), 1, "B's first lateness point, at 5 minutes");
    let events = t.director(DirectorAction::Reschedule {
        start: Some(Timestamp(30 * MIN)),
    });
    assert_eq!(Table::kinds(&events), ["ruled"]);
    assert_eq!(t.m.scheduled_start(), Timestamp(30 * MIN));
    assert_eq!(
        t.m.next_due(),
        Some((Timestamp(35 * MIN), Due::Lateness(B))),
        "lateness counts afresh from the new start"
    );
    assert_eq!(t.m.score(A), 1, "the point charged before stays");
    let refused = t.at(20 * MIN).err(Command::Tick);
    assert!(refused.message.contains("before"), "{refused}");
    t.at(35 * MIN).ok(Command::Tick);
    assert_eq!(t.m.score(A), 2);
}

/// A match put off charges no lateness until the director sets its start (2.2).
#[test]
fn rule_2_2_a_match_put_off_charges_no_lateness_until_a_start_is_set() {
    let mut t = Table::new(MatchSetup::new(["a", "b"], 7, Timestamp(0)));
    t.at(2 * MIN)
        .director(DirectorAction::Reschedule { start: None });
    assert!(t.m.postponed());
    assert_eq!(t.m.next_due(), None);
    assert!(
        t.director_err(DirectorAction::Reschedule { start: None })
            .message
            .contains("already put off")
    );
    assert!(t.at(60 * MIN).ok(Command::Tick).is_empty());
    assert_eq!(t.m.score(A) + t.m.score(B), 0);
    t.director(DirectorAction::Reschedule {
        start: Some(Timestamp(70 * MIN)),
    });
    assert!(!t.m.postponed());
    assert_eq!(
        t.m.next_due(),
        Some((Timestamp(75 * MIN), Due::Lateness(A)))
    );
}

/// A match made ahead of its round is moved before its start, earlier or later, and
/// then starts at the new time with its clock (2.2).
#[test]
fn rule_2_2_a_match_made_ahead_of_time_is_moved_before_its_start() {
    let mut setup = MatchSetup::new(["a", "b"], 7, Timestamp(60 * MIN));
    setup.clock = Some(ClockSetup::default());
    let mut t = Table::new(setup);
    t.at(10 * MIN).director(DirectorAction::Reschedule {
        start: Some(Timestamp(40 * MIN)),
    });
    t.at(20 * MIN).director(DirectorAction::Reschedule {
        start: Some(Timestamp(30 * MIN)),
    });
    assert_eq!(t.m.scheduled_start(), Timestamp(30 * MIN));
    t.at(30 * MIN).ok(Command::CheckIn { side: A });
    t.ok(Command::CheckIn { side: B });
    t.wait(1_000).opening([6, 1]);
    assert_eq!(t.m.clock().unwrap().running(), Some(A));
}

/// Rescheduling is for a match that has not begun, to a time from now on (2.2).
#[test]
fn rule_2_2_reschedule_is_refused_once_play_began_or_into_the_past() {
    let mut t = Table::seated(7);
    t.at(10 * MIN);
    let past = t.director_err(DirectorAction::Reschedule {
        start: Some(Timestamp(5 * MIN)),
    });
    assert!(past.message.contains("time already passed"), "{past}");
    let same = t.director_err(DirectorAction::Reschedule {
        start: Some(Timestamp(0)),
    });
    assert!(same.message.contains("or later"), "{same}");
    t.quick_game(A, WinKind::Single);
    let begun = t.director_err(DirectorAction::Reschedule {
        start: Some(Timestamp(t.now + MIN)),
    });
    assert!(begun.to_string().contains("2.2"), "{begun}");
    assert!(begun.message.contains("begun"), "{begun}");
}

// ---------- director actions ----------

#[test]
fn rulings_cite_an_article_the_regulations_number() {
    // A new director's `--article 99.9` was recorded for ever; nobody could say what rule
    // it meant. An article is one of 1.1–1.7, 2.1–2.4, 3.1–3.8, 4.1–4.8, 5.1–5.5.
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    for article in ["99.9", "2.5", "test", "2.3 foo"] {
        let e = t.err(Command::Director {
            action: DirectorAction::Warning { side: B },
            ruling: baffle_core::backgammon::Ruling::new("slow play", article),
        });
        assert!(
            e.invalid && e.message.contains("not an article"),
            "{article}: {e}"
        );
    }
    for article in ["2.3", "4.3 (v)", "4.3 (ii)(c)"] {
        t.ok(Command::Director {
            action: DirectorAction::Warning { side: B },
            ruling: baffle_core::backgammon::Ruling::new("slow play", article),
        });
    }
}

#[test]
fn art_4_7_a_deduction_takes_only_points_the_player_has() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    // At 0–0 there is nothing to take: said, not recorded as a deduction that did nothing.
    let e = t.director_err(DirectorAction::DeductPoints { from: B, points: 1 });
    assert!(e.message.contains("nothing to deduct"), "{e}");
    t.director(DirectorAction::AwardPoints { to: B, points: 1 });
    let e = t.director_err(DirectorAction::DeductPoints { from: B, points: 2 });
    assert!(e.message.contains("B has 1: 2 cannot be deducted"), "{e}");
    t.director(DirectorAction::DeductPoints { from: B, points: 1 });
    assert_eq!(t.m.score(B), 0);
}

#[test]
fn art_3_7_a_clock_is_set_to_at_most_the_match_time_given() {
    // 7 points × 2 minutes: 14 minutes each. `set-time b 25:00:00` was taken.
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    let e = t.director_err(DirectorAction::SetTime {
        side: B,
        time: Millis::mins(25 * 60),
    });
    assert!(
        e.invalid && e.article == "3.7" && e.message.contains("14:00.0"),
        "{e}"
    );
    t.director(DirectorAction::SetTime {
        side: B,
        time: Millis::mins(14),
    });
    t.director(DirectorAction::SetTime {
        side: B,
        time: Millis::mins(9),
    });
    assert_eq!(
        t.m.clock().unwrap().view(B, Timestamp(0)).main,
        Millis::mins(9)
    );
}

#[test]
fn director_actions_are_recorded_with_reason_and_article() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    let events = t.ok(Command::Director {
        action: DirectorAction::Warning { side: B },
        ruling: baffle_core::backgammon::Ruling::new("slow play", "2.3"),
    });
    assert!(matches!(&events[0].change, Change::Ruled { ruling, .. } if ruling.article == "2.3"));
    // The warning is counted for the warned player, for spectators to see (2.3).
    assert_eq!((t.m.warnings(A), t.m.warnings(B)), (0, 1));
    // No ruling without its reason and article.
    for (reason, article) in [("", "2.3"), ("slow play", " ")] {
        let e = t.err(Command::Director {
            action: DirectorAction::Warning { side: B },
            ruling: baffle_core::backgammon::Ruling::new(reason, article),
        });
        assert!(
            e.invalid && e.message.contains("reason and an article"),
            "{e}"
        );
    }
    t.director(DirectorAction::AwardPoints { to: A, points: 1 });
    t.director(DirectorAction::AdjustTime {
        side: A,
        delta: Millis::secs(-30),
    });
    assert_eq!(
        t.m.clock().unwrap().view(A, Timestamp(0)).main,
        Millis::mins(14) - Millis::secs(30)
    );
    t.director(DirectorAction::ForfeitGame {
        loser: B,
        kind: WinKind::Gammon,
    });
    assert_eq!(t.m.score(A), 3);
    t.director(DirectorAction::ForfeitMatch { loser: B });
    assert_eq!(t.m.result().unwrap().how, MatchEnd::Forfeit);
    assert!(
        t.director_err(DirectorAction::AwardPoints { to: A, points: 1 })
            .to_string()
            .contains("4.6")
    );
}

#[test]
fn event_bodies_are_audit_entries_with_a_kind() {
    let mut t = Table::seated(7);
    let events = t.at(0).opening([6, 1]);
    let body = events[1].body();
    assert_eq!(
        body,
        r#"{"at":0,"kind":"bg.opening_throw","throw":[6,1],"source":"server"}"#
    );
    let back: baffle_core::backgammon::Event = serde_json::from_str(&body).unwrap();
    assert_eq!(back, events[1]);
}

#[test]
fn rule_3_7_a_defective_clock_is_replaced_and_the_director_sets_its_times() {
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    t.at(60_000).ok(Command::Pause {
        reason: PauseReason::DirectorCalled,
    });
    t.director(DirectorAction::SetTime {
        side: A,
        time: Millis::mins(12),
    });
    t.director(DirectorAction::SetTime {
        side: B,
        time: Millis::mins(13),
    });
    let clock = t.m.clock().unwrap();
    assert_eq!(clock.view(A, Timestamp(60_000)).main, Millis::mins(12));
    assert_eq!(clock.view(B, Timestamp(60_000)).main, Millis::mins(13));
    assert_eq!(
        t.director_err(DirectorAction::SetTime {
            side: A,
            time: Millis(-1)
        })
        .article,
        "3.7"
    );
}

#[test]
fn match_setup_is_validated_with_a_clear_error() {
    use baffle_core::backgammon::Match;
    let base = MatchSetup::new(["Anna", "Ben"], 7, Timestamp(0));
    let with = |f: &dyn Fn(&mut MatchSetup)| {
        let mut s = base.clone();
        f(&mut s);
        Match::new(s).map(|_| ()).map_err(|e| e.to_string())
    };
    assert!(with(&|_| ()).is_ok());
    assert!(with(&|s| s.length = 0).unwrap_err().contains("1 to 999"));
    assert!(
        with(&|s| s.players[1] = " ".into())
            .unwrap_err()
            .contains("name")
    );
    assert!(
        with(&|s| s.timeout = TimeoutPolicy::UsbgfOvertime {
            overtime: Millis::mins(5)
        })
        .unwrap_err()
        .contains("1 or 2 minutes")
    );
    assert!(
        with(&|s| s.timeout = TimeoutPolicy::UsbgfOvertime {
            overtime: Millis::mins(2)
        })
        .is_ok()
    );
    assert!(with(&|s| s.timeout = TimeoutPolicy::PenaltyPoints { points: 0 }).is_err());
    assert!(
        with(&|s| s.clock = Some(ClockSetup {
            per_point: Millis::ZERO,
            ..ClockSetup::default()
        }))
        .unwrap_err()
        .contains("3.5")
    );
}

#[test]
fn rule_4_7_a_corrected_score_carries_the_penalty_points_it_can_hold() {
    // A new director's `correct-score 1 0` left "a penalty point to B" beside B's 0.
    let mut t = Table::seated(7);
    t.director(DirectorAction::AwardPoints { to: B, points: 1 });
    t.director(DirectorAction::AwardPoints { to: A, points: 2 });
    assert_eq!(
        (
            t.m.penalty_points_received(A),
            t.m.penalty_points_received(B)
        ),
        (2, 1)
    );
    t.director(DirectorAction::CorrectScore { a: 1, b: 0 });
    assert_eq!(
        (
            t.m.penalty_points_received(A),
            t.m.penalty_points_received(B)
        ),
        (1, 0)
    );
    // A deduction likewise; a correction upwards leaves the count as it was.
    t.director(DirectorAction::DeductPoints { from: A, points: 1 });
    t.director(DirectorAction::CorrectScore { a: 3, b: 2 });
    assert_eq!(
        (
            t.m.penalty_points_received(A),
            t.m.penalty_points_received(B)
        ),
        (0, 0)
    );
    t.check_fold();
}

#[test]
fn rule_4_7_a_correction_records_what_it_changed_before_and_after() {
    use baffle_core::backgammon::Effect;
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    let effect = |events: Vec<baffle_core::backgammon::Event>| match &events[0].change {
        Change::Ruled { effect, .. } => *effect,
        other => panic!("{other:?}"),
    };
    let e = effect(t.director(DirectorAction::CorrectScore { a: 3, b: 2 }));
    assert_eq!(
        e,
        Some(Effect::Score {
            before: [0, 0],
            after: [3, 2]
        })
    );
    let e = effect(t.director(DirectorAction::DeductPoints { from: A, points: 1 }));
    assert_eq!(
        e,
        Some(Effect::Score {
            before: [3, 2],
            after: [2, 2]
        })
    );
    let e = effect(t.director(DirectorAction::AdjustTime {
        side: B,
        delta: Millis::secs(-30),
    }));
    assert_eq!(
        e,
        Some(Effect::Clock {
            side: B,
            before: Millis::mins(14),
            after: Millis::mins(14) - Millis::secs(30)
        })
    );
    let e = effect(t.director(DirectorAction::SetTime {
        side: A,
        time: Millis::mins(9),
    }));
    assert!(matches!(e, Some(Effect::Clock { side: A, after, .. }) if after == Millis::mins(9)));
    // A warning changes neither: no effect.
    assert_eq!(
        effect(t.director(DirectorAction::Warning { side: A })),
        None
    );
    t.check_fold();
    // An effect the ruling did not have is refused by the fold (and so by the verifier).
    let mut forged = t.log.clone();
    for e in &mut forged {
        if let Change::Ruled {
            effect: Some(Effect::Score { after, .. }),
            ..
        } = &mut e.change
        {
            *after = [9, 9];
        }
    }
    let mut folded = baffle_core::backgammon::Match::new(t.setup.clone()).unwrap();
    let refused = forged.iter().try_for_each(|e| folded.evolve(e));
    assert!(refused.unwrap_err().to_string().contains("says it changed"));
}

#[test]
fn rule_4_3_v_an_adjustment_corrects_a_clock_and_never_ends_the_match() {
    // A second new director typed -20m for -20s on a match not started: it flagged and
    // ended it, and nothing could undo it. Nor may +10m make 24 minutes of 14.
    let mut t = Table::seated(7);
    t.at(0).opening([6, 1]);
    let e = t.director_err(DirectorAction::AdjustTime {
        side: B,
        delta: Millis::mins(-20),
    });
    assert!(
        e.invalid && e.article == "4.3 (v)" && e.message.contains("end the match on time"),
        "{e}"
    );
    let e = t.director_err(DirectorAction::AdjustTime {
        side: B,
        delta: Millis::mins(10),
    });
    assert!(e.message.contains("more than the 14:00.0"), "{e}");
    t.director(DirectorAction::AdjustTime {
        side: B,
        delta: Millis::secs(-20),
    });
    t.director(DirectorAction::AdjustTime {
        side: B,
        delta: Millis::secs(20),
    });
    assert!(t.m.result().is_none());
}
