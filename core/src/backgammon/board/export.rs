//! A match's record from its events, and the SGF text (GM[6]) GNU Backgammon loads. With
//! `mat::write_mat` these are the exports of a match that records moves.

use super::Position;
use super::notation::{accept, mat_spelling};
use super::record::{Action, GameRecord, GameResult, MatchRecord};
use crate::backgammon::error::RuleError;
use crate::backgammon::event::{Change, Event, GameEnd};
use crate::side::Side;
use crate::time::Timestamp;

fn player(side: Side) -> u8 {
    match side {
        Side::A => 0,
        Side::B => 1,
    }
}

/// gnubg's match information line for the day of `at` (UTC): `; [EventDate
/// "2026.11.23"]`, which gnubg writes from the day a match began and keeps on import.
fn event_date(at: Timestamp) -> String {
    let (year, month, day) = civil_date(at);
    format!("; [EventDate \"{year:04}.{month:02}.{day:02}\"]")
}

/// The UTC calendar day of `at`: year, month, day.
fn civil_date(at: Timestamp) -> (i64, i64, i64) {
    // Days since 1970-01-01 to the civil date (the proleptic Gregorian calendar).
    let days = at.as_ms().div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// How a game ended, for SGF's `RE` (a concession is marked `R`, as gnubg marks a
/// resignation).
fn conceded(events: &[Event], number: usize) -> bool {
    let mut game = 0;
    for e in events {
        match &e.change {
            Change::GameStarted { .. } => game += 1,
            Change::GameEnded { how, .. } if game == number => {
                return *how == GameEnd::Concession;
            }
            _ => {}
        }
    }
    false
}

/// The record of a match from its events (players A and B are gnubg's 0 and 1): each
/// game's score, rolls with their plays, cube actions and result, as gnubg writes them:
/// the dice the higher first, each play in gnubg's `.mat` spelling (single steps in its
/// canonical order, see `notation::mat_spelling`), and gnubg's `; [EventDate …]` line
/// from the day of the first event. A premature roll (4.1 (v)(a)) is played at its
/// turn, and a premature double written once, where it took effect (4.4 (v)). Whether
/// the match records moves is the caller's to check: without them every game is written
/// with no plays.
pub fn record_from_events(
    players: [String; 2],
    length: u32,
    events: &[Event],
) -> Result<MatchRecord, RuleError> {
    let mut games: Vec<GameRecord> = Vec::new();
    let mut score = [0u32; 2];
    let mut pos = Position::starting(); // seen from A
    // Each side's roll not yet moved: a premature roll (4.1 (v)(a)) comes before the
    // opponent's move and is played after it.
    let mut dice: [Option<[u8; 2]>; 2] = [None, None];
    for e in events {
        let game = games.last_mut();
        match (&e.change, game) {
            (Change::GameStarted { .. }, _) => {
                games.push(GameRecord {
                    score,
                    actions: Vec::new(),
                    result: None,
                });
                pos = Position::starting();
                dice = [None, None];
            }
            (Change::OpeningThrow { throw, .. }, Some(_)) if throw[0] != throw[1] => {
                // A's die, B's die: the higher moves first with both.
                let mover = if throw[0] > throw[1] {
                    Side::A
                } else {
                    Side::B
                };
                dice[mover.index()] = Some(*throw);
            }
            (Change::Rolled { side, dice: d, .. }, Some(_)) => dice[side.index()] = Some(*d),
            (Change::Moved { side, play }, Some(g)) => {
                let Some(d) = dice[side.index()].take() else {
                    return Err(RuleError::state("a move without its roll in the events"));
                };
                let seen = if *side == Side::A { pos } else { pos.swap() };
                let accepted = accept(&seen, d, play)?;
                pos = if *side == Side::A {
                    accepted.result
                } else {
                    accepted.result.swap()
                };
                let play = mat_spelling(&seen, d, &accepted.result).ok_or_else(|| {
                    RuleError::state("a move gnubg's move generator does not find")
                })?;
                g.actions.push(Action::Roll {
                    player: player(*side),
                    dice: [d[0].max(d[1]), d[0].min(d[1])],
                    play,
                });
            }
            // A premature double is recorded again when it takes effect at the press
            // (4.4 (v)), or lapses: the cube action is that second record.
            (
                Change::Doubled {
                    premature: false,
                    side,
                    ..
                },
                Some(g),
            ) => g.actions.push(Action::Double {
                player: player(*side),
            }),
            (Change::Taken { side }, Some(g)) => g.actions.push(Action::Take {
                player: player(*side),
            }),
            (Change::Passed { side }, Some(g)) => g.actions.push(Action::Drop {
                player: player(*side),
            }),
            (Change::GameEnded { winner, points, .. }, Some(g)) => {
                g.result = Some(GameResult {
                    winner: player(*winner),
                    points: *points,
                });
                score[usize::from(player(*winner))] += points;
            }
            _ => {}
        }
    }
    let mut preamble: Vec<String> = events
        .first()
        .map(|e| event_date(e.at))
        .into_iter()
        .collect();
    preamble.push(String::new());
    Ok(MatchRecord {
        preamble,
        length,
        players,
        games,
    })
}

/// SGF's point letters: `a`–`x` are white's (player 0's) points 1–24, `y` the bar, `z`
/// off; a black move's point p is white's 25 − p.
fn sgf_point(player: u8, point: u8) -> char {
    match point {
        25 => 'y',
        0 => 'z',
        p if player == 0 => char::from(b'a' + p - 1),
        p => char::from(b'a' + 24 - p),
    }
}

/// A match as SGF (FF[4] GM[6], as gnubg saves it): one game tree per game, with the
/// match information (`MI`), the players, the day of the first event (`DT`, gnubg's
/// `EventDate`), the result (`RE`, `R` marking a concession) and every roll, play and
/// cube action.
pub fn write_sgf(record: &MatchRecord, events: &[Event]) -> Result<String, RuleError> {
    let mut out = String::new();
    let date = events.first().map_or(String::new(), |e| {
        let (year, month, day) = civil_date(e.at);
        format!("DT[{year:04}-{month:02}-{day:02}]")
    });
    for (g, game) in record.games.iter().enumerate() {
        out.push_str(&format!(
            "(;FF[4]GM[6]CA[UTF-8]AP[baffle]MI[length:{}][game:{g}][ws:{}][bs:{}]PW[{}]PB[{}]RU[Crawford]{date}",
            record.length,
            game.score[0],
            game.score[1],
            escape(&record.players[0]),
            escape(&record.players[1]),
        ));
        if let Some(r) = game.result {
            let who = if r.winner == 0 { 'W' } else { 'B' };
            let resigned = if conceded(events, g + 1) { "R" } else { "" };
            out.push_str(&format!("RE[{who}+{}{resigned}]", r.points));
        }
        out.push('\n');
        for action in &game.actions {
            let (p, text) = match action {
                Action::Roll { player, dice, play } => {
                    let mut t = format!("{}{}", dice[0], dice[1]);
                    for seg in super::Notation::parse(play)?.segments {
                        t.push(sgf_point(*player, seg.from));
                        t.push(sgf_point(*player, seg.to));
                    }
                    (*player, t)
                }
                Action::Double { player } => (*player, "double".into()),
                Action::Take { player } => (*player, "take".into()),
                Action::Drop { player } => (*player, "drop".into()),
            };
            out.push_str(&format!(";{}[{text}]\n", if p == 0 { 'W' } else { 'B' }));
        }
        out.push_str(")\n");
    }
    Ok(out)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}
