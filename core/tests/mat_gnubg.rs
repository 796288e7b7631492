//! `.mat` byte for byte as GNU Backgammon 1.07 writes it. The files in
//! `fixtures/gnubg/` were written by gnubg itself (`fixtures/gnubg/README.md` says how to
//! write them again): matches it played against itself, a hand-written file with
//! resignations and an unfinished game that gnubg imported and exported, and a match
//! recorded through the core that gnubg imported and exported. Each is read and written
//! back to the same bytes; our export of that recorded match is gnubg's file exactly.
//! (The `.mat` format is gnubg's, not a rule: these tests cite its behaviour.)

use baffle_core::backgammon::board::{
    Action, Ending, MatchRecord, legal_plays, parse_mat, record_from_events, replay_game,
    write_mat, write_sgf,
};
use baffle_core::backgammon::setup::DiceSource;
use baffle_core::backgammon::{Command, Event, GameKind, Match, MatchSetup, MovesSetting, Turn};
use baffle_core::{Side, Timestamp};

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
    assert_eq!(g2.ending, Some(Ending::Conceded(GameKind::Gammon)));
}

/// Dice from a fixed seed (xorshift).
struct Dice(u64);

impl Dice {
    fn die(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 6) as u8 + 1
    }
}

/// When the recorded match begins: 2026-11-27 09:00 UTC.
const START_MS: i64 = 1_795_770_000_000;

/// A 5-point match recorded through the core's `Match` with seeded dice: game 1 with a
/// double, a take, a redouble and a drop by A (the left column, B's Wins beside it);
/// game 2 played to the
/// last checker; game 3 conceded by B after A's play. Returns its events.
fn recorded_match(seed: u64) -> Vec<Event> {
    let mut setup = MatchSetup::new(["Anna", "Ben"], 5, Timestamp(START_MS));
    setup.moves = MovesSetting::Recorded;
    let mut m = Match::new(setup).unwrap();
    let mut now = START_MS;
    let mut events = Vec::new();
    let mut exec = |m: &mut Match, c: Command| {
        now += 1_000;
        let e = m
            .execute(&c, Timestamp(now))
            .unwrap_or_else(|e| panic!("{c:?}: {e}"));
        events.extend(e);
    };
    exec(&mut m, Command::CheckIn { side: Side::A });
    exec(&mut m, Command::CheckIn { side: Side::B });
    let mut dice = Dice(seed);
    for game in 1..=3 {
        exec(&mut m, Command::StartGame);
        let (mut turns, mut doubled) = (0, false);
        while let Some(g) = m.game() {
            match g.turn {
                Turn::Opening => {
                    let throw = [dice.die(), dice.die()];
                    let source = DiceSource::Server;
                    exec(&mut m, Command::OpeningThrow { throw, source });
                }
                Turn::OnRoll { side, .. } => {
                    if game == 1 && turns >= 4 && side == Side::A && !doubled {
                        exec(&mut m, Command::Double { side });
                        exec(&mut m, Command::Take { side: side.other() });
                        doubled = true;
                        continue;
                    }
                    if game == 1 && doubled && turns >= 7 && side == Side::B {
                        exec(&mut m, Command::Double { side });
                        exec(&mut m, Command::Pass { side: side.other() });
                        continue;
                    }
                    if game == 3 && turns >= 6 && side == Side::B {
                        let kind = GameKind::Single;
                        exec(&mut m, Command::Concede { side, kind });
                        continue;
                    }
                    let d = [dice.die(), dice.die()];
                    let source = DiceSource::Server;
                    exec(
                        &mut m,
                        Command::Roll {
                            side,
                            dice: d,
                            source,
                        },
                    );
                }
                Turn::Moving { side, dice: d } => {
                    turns += 1;
                    let seen = m.board().unwrap().seen_by(side);
                    let mut plays = legal_plays(&seen, d).unwrap();
                    // In the order of their positions (`legal_plays` gives no order of
                    // meaning): the match gnubg wrote back in ours_by_gnubg.mat.
                    plays.sort_by_key(|p| p.result);
                    let play = plays[usize::from(dice.die()) % plays.len()].to_string();
                    if !play.is_empty() {
                        exec(&mut m, Command::Move { side, play });
                    }
                    if m.game().is_some() {
                        exec(&mut m, Command::Press { side });
                    }
                }
                Turn::DoubleOffered { .. } => unreachable!(),
            }
        }
    }
    events
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
