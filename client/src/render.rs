//! What `baffle` prints: tables for people, JSON for scripts.

use baffle_core::Millis;
use baffle_i18n::turn::Form;
use baffle_proto::chess_text;
use baffle_proto::v1;
use serde_json::{Value, json};
use unicode_width::UnicodeWidthStr;

use crate::words;

pub use baffle_proto::backgammon_text::side;

/// "Anna 3 – Ben 4 (to 5)"; chess: "Anna 1½ – ½ Ben (of 2)".
pub fn score(s: &v1::MatchState) -> String {
    if let Some(c) = &s.chess {
        return chess_text::score(s, c);
    }
    let length = words::say_with("match-length", &[("length", s.length.into())]);
    format!(
        "{} {} – {} {} ({length})",
        s.player_a, s.score_a, s.score_b, s.player_b
    )
}

/// One side's clock: "13:42.0 +0:12.0", flagged "0:00.0 FLAG".
pub fn clock_side(c: &v1::SideClock) -> String {
    let mut text = Millis(c.main_ms).to_string();
    if c.flagged_at_ms.is_some() {
        text.push(' ');
        text.push_str(&words::say("console-flag"));
    } else if c.delay_ms > 0 {
        text.push_str(&format!(" +{}", Millis(c.delay_ms)));
    }
    text
}

/// Several lines describing a match.
pub fn match_text(s: &v1::MatchState) -> String {
    match_text_checked(s, None)
}

/// [`match_text`], with what recomputing its revealed dice here found, if that was
/// done. A reveal past its deadline is judged on the server's clock: the state's
/// `sent_at_ms`, when it carries one.
pub fn match_text_checked(s: &v1::MatchState, check: Option<&crate::reveal::DiceCheck>) -> String {
    let head = [
        ("match", s.match_id.clone().into()),
        ("tournament", s.tournament_id.clone().into()),
        ("round", s.round.into()),
        ("table", s.table.clone().into()),
        ("status", words::status(crate::views::status(s)).into()),
    ];
    let mut out = words::say_with("cli-match-head", &head) + "\n";
    if let Some(r) = &s.replaced {
        let args = [
            ("by", r.by.clone().into()),
            ("ruling", r.ruling.clone().into()),
        ];
        out.push_str(&(words::say_with("cli-match-replaced", &args) + "\n"));
    }
    out.push_str(&words::say_with("cli-score", &[("score", score(s).into())]));
    if s.crawford {
        out.push_str("  ");
        out.push_str(&words::say("cli-crawford"));
    }
    out.push('\n');
    if let Some(c) = &s.chess {
        out.push_str(&chess_lines(s, c));
    } else if s.game_number > 0 {
        // The sides by their letters, as the clock line below names them.
        let letters = [v1::Side::A, v1::Side::B].map(|s| side(s as i32));
        let args = [
            ("number", s.game_number.into()),
            ("cube", words::cube(s, letters).into()),
            ("turn", words::turn(s, Form::Line, letters).into()),
        ];
        out.push_str(&(words::say_with("cli-game", &args) + "\n"));
    }
    if let Some(b) = &s.board {
        out.push_str(&board_line(b));
    }
    if let Some(c) = &s.clock {
        let running = side(c.running);
        let paused = v1::PauseReason::try_from(c.paused)
            .ok()
            .filter(|p| *p != v1::PauseReason::Unspecified)
            .map(|p| {
                let reason = words::pause_reason(p as i32).unwrap_or_default();
                format!(
                    "  {}",
                    words::say_with("cli-clock-paused", &[("reason", reason.into())])
                )
            })
            .unwrap_or_default();
        let (a, b) = if s.chess.is_some() {
            (words::say("color-white"), words::say("color-black"))
        } else {
            ("A".to_string(), "B".to_string())
        };
        let running = match (&s.chess, c.running) {
            (Some(_), 1) => a.clone(),
            (Some(_), 2) => b.clone(),
            _ => running.to_string(),
        };
        let args = [
            (
                "a",
                format!("{a} {}", c.a.as_ref().map_or("-".into(), clock_side)).into(),
            ),
            (
                "b",
                format!("{b} {}", c.b.as_ref().map_or("-".into(), clock_side)).into(),
            ),
            ("running", running.into()),
        ];
        out.push_str(&format!(
            "{}{paused}\n",
            words::say_with("cli-clock", &args)
        ));
    }
    if let Some(r) = &s.result {
        out.push_str(&result_line(s, r));
        out.push('\n');
    }
    if s.dice_anomalies > 0 {
        let args = [
            ("count", s.dice_anomalies.into()),
            ("last", s.last_anomaly.clone().into()),
        ];
        out.push_str(&(words::say_with("cli-dice-anomalies", &args) + "\n"));
    }
    let server_now = Some(s.sent_at_ms).filter(|ms| *ms > 0);
    for line in crate::reveal::lines(s, server_now, check) {
        out.push_str(&line);
        out.push('\n');
    }
    for d in &s.devices {
        let id = if d.connected {
            "cli-device-connected"
        } else {
            "cli-device-not-connected"
        };
        let args = [("device", d.device_id.clone().into())];
        out.push_str(&(words::say_with(id, &args) + "\n"));
    }
    let args = [
        ("count", s.seq.into()),
        ("head", s.head_hash.clone().into()),
    ];
    out.push_str(&(words::say_with("cli-log", &args) + "\n"));
    out
}

/// The result of a match in words: drawn, both lost (6.7), or who won, how, and
/// whether the director confirmed it.
fn result_line(s: &v1::MatchState, r: &v1::MatchResult) -> String {
    use v1::MatchEndKind as End;
    match End::try_from(r.how_kind) {
        Ok(End::Draw) if r.confirmed => words::say("cli-result-drawn"),
        Ok(End::Draw) => words::say("cli-result-drawn-provisional"),
        Ok(End::DoubleDefault) => words::say("cli-result-both-lost"),
        _ => {
            let winner = if r.winner == v1::Side::B as i32 {
                &s.player_b
            } else {
                &s.player_a
            };
            let args = [
                ("name", format!("{winner} ({})", side(r.winner)).into()),
                ("how", words::how(r.how_kind).into()),
            ];
            if r.confirmed {
                words::say_with("cli-result-won", &args)
            } else {
                words::say_with("cli-result-won-provisional", &args)
            }
        }
    }
}

/// A chess match's game line, flags, illegal moves and finished games.
fn chess_lines(s: &v1::MatchState, c: &v1::ChessState) -> String {
    let mut out = format!("{}\n", chess_text::game_line(s, c));
    out.push_str(&format!(
        "White  {}  Black {}  moves {:?}  illegal moves {:?}\n",
        chess_text::player(s, c, v1::Color::White),
        chess_text::player(s, c, v1::Color::Black),
        c.moves,
        c.illegal_moves
    ));
    for f in &c.flags {
        out.push_str(&format!(
            "flag   {} at {}\n",
            chess_text::color(f.color),
            f.at_ms
        ));
    }
    for g in &c.results {
        out.push_str(&format!(
            "game {} (White {})  {}\n",
            g.game,
            side(g.white),
            g.result.as_ref().map_or("-".into(), chess_text::result)
        ));
    }
    out
}

/// A table of matches, one line each: where, who, the score, the status in words
/// (`views::status`), and the winner with how the match was won.
pub fn match_table(matches: &[v1::MatchState]) -> String {
    let header = [
        words::say("cli-col-match"),
        words::say("cli-col-round"),
        words::say("cli-col-table"),
        words::say("cli-col-score"),
        words::say("cli-col-status"),
        words::say("cli-col-winner"),
    ];
    let rows: Vec<[String; 6]> = matches
        .iter()
        .map(|s| {
            use v1::MatchEndKind as End;
            let end = |r: &v1::MatchResult| End::try_from(r.how_kind).ok();
            let winner = match &s.result {
                Some(r) if end(r) == Some(End::Draw) => words::say("console-note-drawn"),
                Some(r) if end(r) == Some(End::DoubleDefault) => words::say("cli-winner-nobody"),
                Some(r) => {
                    let name = if r.winner == v1::Side::B as i32 {
                        &s.player_b
                    } else {
                        &s.player_a
                    };
                    format!("{name} ({})", words::how(r.how_kind))
                }
                None => "-".to_string(),
            };
            [
                s.match_id.clone(),
                s.round.to_string(),
                s.table.clone(),
                score(s),
                list_status(s),
                winner,
            ]
        })
        .collect();
    columns(&header, &rows)
}

/// A match's status in a list: a replaced match is marked so, with the match that
/// replaced it, whatever its log last said.
fn list_status(s: &v1::MatchState) -> String {
    match &s.replaced {
        Some(r) => words::say_with("cli-status-replaced", &[("by", r.by.clone().into())]),
        None => words::status(crate::views::status(s)),
    }
}

/// Tournaments, one line each: id, name, and whether archived.
pub fn tournament_table(tournaments: &[v1::Tournament]) -> String {
    let header = [words::say("cli-col-id"), words::say("cli-col-name")];
    // "(archived)" right after the name, not after the padded column.
    let rows: Vec<[String; 2]> = tournaments
        .iter()
        .map(|t| {
            let name = match (t.archived, t.name.is_empty()) {
                (false, _) => t.name.clone(),
                (true, true) => words::say("cli-archived"),
                (true, false) => format!("{} {}", t.name, words::say("cli-archived")),
            };
            [t.id.clone(), name]
        })
        .collect();
    columns(&header, &rows)
}

/// Rows in columns as wide as their widest cell (in terminal columns: a Greek letter
/// takes one, like a Latin one), the last column unpadded.
pub(crate) fn columns<const N: usize>(header: &[String; N], rows: &[[String; N]]) -> String {
    let mut widths = [0; N];
    for row in std::iter::once(header).chain(rows) {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(UnicodeWidthStr::width(cell.as_str()));
        }
    }
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < N {
                let pad = widths[i] - UnicodeWidthStr::width(cell.as_str()) + 1;
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The events of a reply, one line each, in words: "#12 Anna pressed the clock".
pub fn events_text(events: &[v1::Event], names: [&str; 2]) -> String {
    events
        .iter()
        .map(|e| format!("#{} {}\n", e.seq, words::event(e, names)))
        .collect()
}

/// A tournament for people: its id, name and defaults.
pub fn tournament_text(t: &v1::Tournament) -> String {
    let v = crate::views::TournamentView::of(t);
    let timeout = match (v.timeout.overtime_ms, v.timeout.points) {
        (Some(ms), _) => format!("overtime of {}", Millis(ms)),
        (_, Some(k)) => format!("{k} penalty point(s)"),
        _ => v.timeout.policy.replace('_', " "),
    };
    let mut out = format!(
        "{}  {}\nper point {}  delay {}  time-out: {}\nclocks {}  dice {}  player seeds {}{}\n",
        v.id,
        v.name,
        Millis(v.per_point_ms),
        v.delay_ms.map_or("-".into(), |d| Millis(d).to_string()),
        timeout,
        v.clocks,
        v.dice,
        v.player_seeds,
        if v.breaks_in_match_time {
            "  breaks in match time"
        } else {
            ""
        }
    );
    // Where and when, when the director gave them (`tournament create --venue …`).
    let days = match (v.first_day.as_str(), v.last_day.as_str()) {
        ("", _) => String::new(),
        (first, last) if last.is_empty() || last == first => first.to_string(),
        (first, last) => format!("{first} – {last}"),
    };
    let dash = |s: &str| {
        if s.is_empty() {
            "-".to_string()
        } else {
            s.to_string()
        }
    };
    if !v.venue.is_empty() || !days.is_empty() {
        let args = [
            ("venue", dash(&v.venue).into()),
            ("days", dash(&days).into()),
        ];
        out.push_str(&words::say_with("cli-tournament-where", &args));
        out.push('\n');
    }
    out
}

/// The board of a match that records moves: pip counts, checkers off, gnubg's ID.
fn board_line(b: &v1::Board) -> String {
    let at = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
    format!(
        "board  pips A {}  B {}  off A {}  B {}  gnubg {}\n",
        at(&b.pips, 0),
        at(&b.pips, 1),
        at(&b.borne_off, 0),
        at(&b.borne_off, 1),
        b.gnubg_position_id
    )
}

/// The director's adjudication help (4.3 (iv), 4.5): the certain winner if the board
/// proves one, and for each side that can still win, the most it can still win — what
/// the other may concede (4.5).
pub fn adjudication_lines(a: &v1::Adjudication) -> String {
    let mut out = String::new();
    let mut say = |id: &str, who: &str| {
        out.push_str(&words::say_with(id, &[("side", who.to_string().into())]));
        out.push('\n');
    };
    if a.certain_winner != 0 {
        say("cli-adjudication-certain", side(a.certain_winner));
    }
    for (i, who) in ["A", "B"].iter().enumerate() {
        let wire = i as i32 + 1;
        if a.certain_winner != 0 && a.certain_winner != wire {
            continue;
        }
        let id = if a.backgammon_possible.get(i) == Some(&true) {
            "cli-adjudication-most-backgammon"
        } else if a.gammon_possible.get(i) == Some(&true) {
            "cli-adjudication-most-gammon"
        } else {
            "cli-adjudication-most-single"
        };
        say(id, who);
    }
    out
}

/// The adjudication help as JSON.
pub fn adjudication_json(a: &v1::Adjudication) -> Value {
    json!({
        "certain_winner": side(a.certain_winner), "gammon_possible": a.gammon_possible,
        "backgammon_possible": a.backgammon_possible, "next": side(a.next), "dice": a.dice,
        "then_dice": a.then_dice, "seq": a.seq,
    })
}
