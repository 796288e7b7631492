//! `.mat` records (the Jellyfish text gnubg writes and reads) and their replay through the
//! board: a match gnubg 1.07 played against itself (`fixtures/gnubg/`) reads, replays
//! with gnubg's results, and writes back to a text that reads the same; bad records are
//! refused naming the rule.

use baffle_core::backgammon::WinKind;
use baffle_core::backgammon::board::{
    Action, Ending, GameRecord, GameResult, parse_mat, replay_game, write_mat,
};

const GNUBG_3PT: &str = include_str!("fixtures/gnubg/self_play_3pt.mat");

#[test]
fn a_gnubg_match_reads_and_replays_with_gnubgs_results() {
    let m = parse_mat(GNUBG_3PT).unwrap();
    assert_eq!(m.length, 3);
    assert_eq!(m.players, ["gnubg".to_string(), "root".to_string()]);
    assert_eq!(m.games.len(), 2);
    assert_eq!(
        m.games[0].actions[0],
        Action::Roll {
            player: 1,
            dice: [2, 1],
            play: "13/11 24/23".into()
        }
    );
    // Game 1: gnubg doubles, root drops; game 2: cube at 4, gnubg one checker from home
    // when root resigns a single game (the board gnubg printed at the end shows it).
    let g1 = replay_game(&m.games[0], 1).unwrap();
    assert_eq!(g1.ending, Some(Ending::Dropped));
    assert_eq!(
        g1.result,
        Some(GameResult {
            winner: 0,
            points: 1
        })
    );
    let g2 = replay_game(&m.games[1], 2).unwrap();
    assert_eq!(g2.ending, Some(Ending::Conceded(WinKind::Single)));
    assert_eq!(g2.final_position.borne_off(0), 14);
    assert_eq!(g2.cube, 4);
    assert_eq!(g2.result, m.games[1].result);
    assert_eq!(m.games[1].score, [1, 0]);
}

#[test]
fn a_written_mat_reads_back_the_same_match() {
    let m = parse_mat(GNUBG_3PT).unwrap();
    let text = write_mat(&m);
    assert_eq!(parse_mat(&text).unwrap(), m, "{text}");
    assert!(text.contains(" Doubles => 4"), "{text}");
}

#[test]
fn rule_4_2_iii_a_record_with_an_illegal_play_does_not_replay() {
    let mut m = parse_mat(GNUBG_3PT).unwrap();
    // Root's opening 2-1 played as 13/11: one die short of the roll.
    m.games[0].actions[0] = Action::Roll {
        player: 1,
        dice: [2, 1],
        play: "13/11".into(),
    };
    let err = replay_game(&m.games[0], 1).unwrap_err();
    assert_eq!((err.game, err.action), (1, 1));
    assert_eq!(err.error.article, "4.2 (iii)");
}

#[test]
fn rule_4_4_cube_actions_out_of_turn_do_not_replay() {
    let game = |actions: Vec<Action>| GameRecord {
        score: [0, 0],
        actions,
        result: None,
    };
    let roll = |player, dice, play: &str| Action::Roll {
        player,
        dice,
        play: play.into(),
    };
    // A double by the player who has just rolled, before the opponent's roll.
    let g = game(vec![
        roll(0, [3, 1], "8/5 6/5"),
        Action::Double { player: 0 },
    ]);
    assert_eq!(replay_game(&g, 1).unwrap_err().error.article, "4.4");
    // A redouble by the player who does not own the cube.
    let g = game(vec![
        roll(0, [3, 1], "8/5 6/5"),
        Action::Double { player: 1 },
        Action::Take { player: 0 },
        roll(1, [3, 1], "8/5 6/5"),
        roll(0, [2, 1], "13/11 6/5"),
        Action::Double { player: 1 },
    ]);
    assert_eq!(replay_game(&g, 1).unwrap_err().error.article, "4.4");
    // A roll while a double waits for its answer.
    let g = game(vec![
        roll(0, [3, 1], "8/5 6/5"),
        Action::Double { player: 1 },
        roll(1, [2, 1], "13/11 6/5"),
    ]);
    assert_eq!(replay_game(&g, 1).unwrap_err().error.article, "4.4");
}

#[test]
fn rule_4_5_a_concession_asking_more_than_the_position_allows_does_not_replay() {
    let mut m = parse_mat(GNUBG_3PT).unwrap();
    // Game 2 without its last play: root has borne off checkers, so gnubg can be
    // conceded a single game (4 at a cube of 4), not a gammon (8).
    let game: &mut GameRecord = &mut m.games[1];
    game.actions.pop();
    game.result = Some(GameResult {
        winner: 0,
        points: 4,
    });
    assert_eq!(
        replay_game(game, 2).unwrap().ending,
        Some(Ending::Conceded(WinKind::Single))
    );
    game.result = Some(GameResult {
        winner: 0,
        points: 8,
    });
    let err = replay_game(game, 2).unwrap_err();
    assert_eq!(err.error.article, "4.5");
    assert!(
        err.to_string()
            .contains("asks more than the position allows"),
        "{err}"
    );
}

#[test]
fn unreadable_mat_text_is_refused_with_its_line() {
    for (text, line) in [
        ("three point match\n", 1),
        (" 3 point match\n Game x\n", 2),
        (" 3 point match\n Game 1\n a : 0   b : 0\n  1) 71: 8/1\n", 4),
        (
            " 3 point match\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5 Hello\n",
            4,
        ),
    ] {
        let err = parse_mat(text).unwrap_err();
        assert!(err.invalid, "{text}");
        assert!(
            err.to_string().contains(&format!("line {line}")),
            "{text}: {err}"
        );
    }
}

#[test]
fn a_written_mat_is_gnubgs_own_layout() {
    // Byte for byte what gnubg wrote, its date line and trailing spaces included (more
    // files in `mat_gnubg.rs`).
    let m = parse_mat(GNUBG_3PT).unwrap();
    assert_eq!(write_mat(&m), GNUBG_3PT);
}
