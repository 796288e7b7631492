//! `.mat` byte for byte as GNU Backgammon 1.07 writes it. The files in
//! `fixtures/gnubg/` were written by gnubg itself (`fixtures/gnubg/README.md` says how to
//! write them again): matches it played against itself, a hand-written file with
//! resignations and an unfinished game that gnubg imported and exported, and a match
//! recorded through the core that gnubg imported and exported. Each is read and written
//! back to the same bytes; our export of that recorded match is gnubg's file exactly.
//! (The `.mat` format is gnubg's, not a rule: these tests cite its behaviour.)

#[path = "board/recorded.rs"]
mod recorded;

use baffle_core::backgammon::board::{
    Action, Ending, MatchRecord, parse_mat, record_from_events, replay_game, write_mat, write_sgf,
};
use baffle_core::backgammon::{Event, WinKind};

/// Files gnubg wrote, by name.
const GNUBG_FILES: [(&str, &str); 7] = [
    (
        "self_play_3pt.mat",
        include_str!("fixtures/gnubg/self_play_3pt.mat"),
    ),
    (
        "self_play_5pt_seed1.mat",
        include_str!("fixtures/gnubg/self_play_5pt_seed1.mat"),
    ),
    (
        "self_play_5pt_seed2.mat",
        include_str!("fixtures/gnubg/self_play_5pt_seed2.mat"),
    ),
    (
        "self_play_7pt_seed12.mat",
        include_str!("fixtures/gnubg/self_play_7pt_seed12.mat"),
    ),
    (
        "self_play_7pt_seed21.mat",
        include_str!("fixtures/gnubg/self_play_7pt_seed21.mat"),
    ),
    (
        "resigned_by_gnubg.mat",
        include_str!("fixtures/gnubg/resigned_by_gnubg.mat"),
    ),
    (
        "ours_by_gnubg.mat",
        include_str!("fixtures/gnubg/ours_by_gnubg.mat"),
    ),
];

/// Fails with the first line that differs, its line end and trailing spaces shown.
fn assert_same_text(name: &str, ours: &str, gnubg: &str) {
    if ours == gnubg {
        return;
    }
    let show = |l: Option<&str>| match l {
        Some(l) => format!("{:?}", l),
        None => "(nothing)".to_string(),
    };
    let (mut a, mut b) = (ours.split_inclusive('\n'), gnubg.split_inclusive('\n'));
    for n in 1.. {
        let (x, y) = (a.next(), b.next());
        if x != y {
            panic!(
                "{name}: line {n} differs\n  ours:  {}\n  gnubg: {}\n--- ours ---\n{ours}",
                show(x),
                show(y)
            );
        }
    }
}

#[test]
fn gnubgs_mat_files_are_written_back_byte_for_byte() {
    for (name, text) in GNUBG_FILES {
        let record = parse_mat(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_same_text(name, &write_mat(&record), text);
    }
}

#[test]
fn gnubgs_files_cover_the_layouts_that_matter() {
    // What the golden files hold, so that a fixture swapped for a simpler one is noticed.
    let all: String = GNUBG_FILES.iter().map(|(_, t)| *t).collect();
    for (what, needle) in [
        (
            "a drop in the left column, the winner's Wins beside it",
            " Drops                       Wins 1 point \n",
        ),
        (
            "a drop in the right column, Wins below",
            "Drops\n      Wins 1 point\n",
        ),
        (
            "player 1 bearing off: Wins at column 34",
            "\n                                  Wins 2 points\n",
        ),
        (
            "a resignation beside player 0's roll",
            "  1) 31: 8/5 6/5                  Wins 1 point\n",
        ),
        (
            "a play of four steps: no space after the fourth",
            "33: 24/21 24/21 13/10 13/10 52:",
        ),
        ("entering from the bar and hitting", "25/"),
        ("a backgammon at a cube of 4", "Wins 12 points"),
        ("match information", "; [Site \"Club room\"]\n"),
    ] {
        assert!(all.contains(needle), "no fixture has {what}");
    }
    // An unfinished game ends on its open line, without a newline.
    let resigned = GNUBG_FILES[5].1;
    assert!(resigned.ends_with("  2) 42: 8/4 6/4                 "));
    // Every game of gnubg's own matches replays with gnubg's results.
    for (name, text) in &GNUBG_FILES[..5] {
        let record = parse_mat(text).unwrap();
        for (g, game) in record.games.iter().enumerate() {
            let replayed = replay_game(game, g + 1).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(replayed.result, game.result, "{name} game {}", g + 1);
        }
    }
}

#[test]
fn a_hand_written_mat_reads_and_gnubg_writes_it_in_its_own_spelling() {
    // gnubg read `resigned_input.mat` (steps in any order, `24/14`, `8/3(2)`) and wrote
    // `resigned_by_gnubg.mat`: the same games, each play's steps one per die in its
    // canonical order. Both read to the same match, play by play the same positions.
    let input = parse_mat(include_str!("fixtures/gnubg/resigned_input.mat")).unwrap();
    let gnubg = parse_mat(GNUBG_FILES[5].1).unwrap();
    assert_eq!(input.games.len(), gnubg.games.len());
    for (g, (a, b)) in input.games.iter().zip(&gnubg.games).enumerate() {
        assert_eq!((a.score, a.result), (b.score, b.result), "game {}", g + 1);
        let (ra, rb) = (
            replay_game(a, g + 1).unwrap(),
            replay_game(b, g + 1).unwrap(),
        );
        assert_eq!(ra.final_position, rb.final_position, "game {}", g + 1);
    }
    // Game 2: a gammon resigned at the opening, allowed while contact remains (4.5).
    let g2 = replay_game(&gnubg.games[1], 2).unwrap();
    assert_eq!(g2.ending, Some(Ending::Conceded(WinKind::Gammon)));
}

/// When the recorded match begins: 2026-11-27 09:00 UTC.
const START_MS: i64 = 1_795_770_000_000;

/// The match of `board/recorded.rs` with its three games, from `START_MS`: its events.
fn recorded_match(seed: u64) -> Vec<Event> {
    recorded::recorded_match(seed, 3, START_MS).1
}

fn our_record() -> MatchRecord {
    let events = recorded_match(7);
    record_from_events(["Anna".into(), "Ben".into()], 5, &events).unwrap()
}

#[test]
fn a_match_log_exports_as_gnubg_writes_it_back() {
    // `ours_by_gnubg.mat` is what gnubg 1.07 wrote after importing our export of this
    // match (`import mat`, `export match mat`): the same bytes, date line included.
    let ours = write_mat(&our_record());
    // To write the fixture again: BAFFLE_WRITE_OUR_MAT=ours.mat, then gnubg (README.md).
    if let Ok(path) = std::env::var("BAFFLE_WRITE_OUR_MAT") {
        std::fs::write(&path, &ours).unwrap();
        let events = recorded_match(7);
        let sgf = write_sgf(&our_record(), &events).unwrap();
        std::fs::write(format!("{path}.sgf"), sgf).unwrap();
    }
    assert_same_text("ours_by_gnubg.mat", &ours, GNUBG_FILES[6].1);
}

#[test]
fn a_match_log_exports_the_dice_higher_first_and_gnubgs_step_order() {
    let record = our_record();
    assert_eq!(record.preamble, ["; [EventDate \"2026.11.27\"]", ""]);
    let endings: Vec<_> = record
        .games
        .iter()
        .enumerate()
        .map(|(g, game)| replay_game(game, g + 1).unwrap().ending.unwrap())
        .collect();
    assert!(matches!(
        endings[..],
        [Ending::Dropped, Ending::BorneOff(_), Ending::Conceded(_)]
    ));
    for game in &record.games {
        for action in &game.actions {
            let Action::Roll { dice, play, .. } = action else {
                continue;
            };
            assert!(
                dice[0] >= dice[1],
                "{dice:?}: gnubg writes the higher die first"
            );
            // One step per die, the highest start first, then the highest end.
            let steps: Vec<(u8, u8)> = play
                .split_whitespace()
                .map(|s| {
                    let (a, b) = s.trim_end_matches('*').split_once('/').unwrap();
                    (a.parse().unwrap(), b.parse().unwrap())
                })
                .collect();
            let mut sorted = steps.clone();
            sorted.sort_by(|a, b| b.cmp(a));
            assert_eq!(steps, sorted, "'{play}'");
        }
    }
}

#[test]
fn a_name_past_31_characters_runs_into_the_next_and_still_reads() {
    // gnubg pads "name : score" to 31 characters and no further: a longer first half
    // runs into the second name (gnubg wrote this line, its names cut at 31).
    let text = " 7 point match\n\n Game 1\n Averyveryverylongplayername_abc : 0Ben : 1\n  1) 31: 8/5 6/5                 ";
    let m = parse_mat(text).unwrap();
    assert_eq!(m.players, ["Averyveryverylongplayername_abc", "Ben"]);
    assert_eq!(m.games[0].score, [0, 1]);
    assert_eq!(write_mat(&m), text);
}

#[test]
fn a_record_with_absurd_doubles_writes_without_overflow() {
    // Bad input gets written, not a panic: 40 doubles in a row (the replay refuses them).
    let mut text =
        String::from(" 7 point match\n\n Game 1\n a : 0                          b : 0\n");
    for n in 1..=40 {
        text.push_str(&format!("{n:>3})  Doubles => 2                Takes\n"));
    }
    let m = parse_mat(&text).unwrap();
    let written = write_mat(&m);
    assert!(
        written.contains(&format!(" Doubles => {}", u32::MAX)),
        "{written}"
    );
    assert!(replay_game(&m.games[0], 1).is_err());
}
