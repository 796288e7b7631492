//! What `baffle` prints: tables for people, JSON for scripts.

use baffle_core::Millis;
use baffle_proto::chess_text;
use baffle_proto::v1;
use serde_json::{Value, json};

pub use baffle_proto::backgammon_text::side;

fn phase(value: i32) -> &'static str {
    match v1::MatchPhase::try_from(value) {
        Ok(v1::MatchPhase::Waiting) => "waiting",
        Ok(v1::MatchPhase::Playing) => "playing",
        Ok(v1::MatchPhase::BetweenGames) => "between games",
        Ok(v1::MatchPhase::Over) => "over",
        _ => "-",
    }
}

/// "Anna 3 – Ben 4 (to 5)"; chess: "Anna 1½ – ½ Ben (of 2)".
pub fn score(s: &v1::MatchState) -> String {
    if let Some(c) = &s.chess {
        return chess_text::score(s, c);
    }
    format!(
        "{} {} – {} {} (to {})",
        s.player_a, s.score_a, s.score_b, s.player_b, s.length
    )
}

pub use baffle_proto::backgammon_text::cube_short as cube;

/// One side's clock: "13:42.0 +0:12.0", flagged "0:00.0 FLAG".
pub fn clock_side(c: &v1::SideClock) -> String {
    let mut text = Millis(c.main_ms).to_string();
    if c.flagged_at_ms.is_some() {
        text.push_str(" FLAG");
    } else if c.delay_ms > 0 {
        text.push_str(&format!(" +{}", Millis(c.delay_ms)));
    }
    text
}

/// Several lines describing a match.
pub fn match_text(s: &v1::MatchState) -> String {
    let mut out = format!(
        "{}  {}  round {}  table {}  {}\n",
        s.match_id,
        s.tournament_id,
        s.round,
        s.table,
        phase(s.phase)
    );
    out.push_str(&format!(
        "score  {}{}\n",
        score(s),
        if s.crawford { "  CRAWFORD" } else { "" }
    ));
    if let Some(c) = &s.chess {
        out.push_str(&chess_lines(s, c));
    } else if s.game_number > 0 {
        out.push_str(&format!(
            "game {}  {}  {}\n",
            s.game_number,
            baffle_proto::backgammon_text::cube(s),
            baffle_proto::backgammon_text::turn(s)
        ));
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
                format!(
                    "  paused: {}",
                    p.as_str_name()
                        .trim_start_matches("PAUSE_REASON_")
                        .to_lowercase()
                )
            })
            .unwrap_or_default();
        let (a, b) = if s.chess.is_some() {
            ("White", "Black")
        } else {
            ("A", "B")
        };
        let running = match (&s.chess, c.running) {
            (Some(_), 1) => "White",
            (Some(_), 2) => "Black",
            _ => running,
        };
        out.push_str(&format!(
            "clock  {a} {}  {b} {}  running {running}{paused}\n",
            c.a.as_ref().map_or("-".into(), clock_side),
            c.b.as_ref().map_or("-".into(), clock_side),
        ));
    }
    if let Some(r) = s.result.as_ref().filter(|r| r.how == "draw") {
        out.push_str(&format!(
            "result drawn{}\n",
            if r.confirmed { "" } else { "?" }
        ));
    } else if s.result.as_ref().is_some_and(|r| r.how == "double_default") {
        out.push_str("result both lost by default (6.7)\n");
    } else if let Some(r) = &s.result {
        out.push_str(&format!(
            "result {} won ({}){}\n",
            side(r.winner),
            r.how,
            if r.confirmed {
                ", confirmed"
            } else {
                ", awaiting the director's confirmation"
            }
        ));
    }
    out.push_str(&format!("log    {} events, head {}\n", s.seq, s.head_hash));
    out
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

/// A chess match as JSON.
fn chess_json(c: &v1::ChessState) -> Value {
    json!({
        "category": c.category,
        "laws": v1::ChessLaws::try_from(c.laws).map(|l| l.as_str_name()).unwrap_or("-"),
        "supervised": c.supervised, "games": c.games, "white": side(c.white), "started": c.started,
        "to_move": chess_text::color(c.to_move), "present": c.present, "moves": c.moves,
        "illegal_moves": c.illegal_moves,
        "flags": c.flags.iter().map(|f| json!({ "color": chess_text::color(f.color), "at_ms": f.at_ms })).collect::<Vec<_>>(),
        "quickplay_claim": chess_text::color(c.quickplay_claim),
        "results": c.results.iter().map(|g| json!({
            "game": g.game, "white": side(g.white),
            "result": g.result.as_ref().map(chess_text::result),
        })).collect::<Vec<_>>(),
        "half_points": [c.half_points_a, c.half_points_b],
        "chess960": c.chess960,
        "position": c.position.as_ref().map(|p| json!({ "sp": p.sp, "back_rank": p.back_rank })),
    })
}

/// A table of matches, one line each.
pub fn match_table(matches: &[v1::MatchState]) -> String {
    let mut out = format!(
        "{:<14} {:<5} {:<5} {:<32} {:<14} {}\n",
        "MATCH", "ROUND", "TABLE", "SCORE", "PHASE", "CUBE"
    );
    for s in matches {
        out.push_str(&format!(
            "{:<14} {:<5} {:<5} {:<32} {:<14} {}\n",
            s.match_id,
            s.round,
            s.table,
            score(s),
            phase(s.phase),
            cube(s)
        ));
    }
    out
}

/// The events of a reply, one line each: "#12 bg.pressed".
pub fn events_text(events: &[v1::Event]) -> String {
    events
        .iter()
        .map(|e| format!("#{} {}\n", e.seq, e.kind))
        .collect()
}

fn clock_json(c: &v1::SideClock) -> Value {
    json!({
        "main_ms": c.main_ms, "delay_ms": c.delay_ms, "total_ms": c.total_ms, "moves": c.moves,
        "period": c.period, "flagged_at_ms": c.flagged_at_ms, "must_wait_delay": c.must_wait_delay,
    })
}

/// The board of a match that records moves: pip counts, checkers off, gnubg's ID.
fn board_line(b: &v1::Board) -> String {
    let at = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
    let mut line = format!(
        "board  pips A {}  B {}  off A {}  B {}  gnubg {}\n",
        at(&b.pips, 0),
        at(&b.pips, 1),
        at(&b.borne_off, 0),
        at(&b.borne_off, 1),
        b.gnubg_position_id
    );
    // Adjudication help (4.3 (iv), 4.5): said only when the board proves it.
    if b.certain_winner != 0 {
        line.push_str(&format!(
            "board  {} wins whatever the dice (4.3 (iv))\n",
            side(b.certain_winner)
        ));
    }
    for (i, who) in ["A", "B"].iter().enumerate() {
        if b.gammon_possible.get(i) == Some(&false) && b.certain_winner == i as i32 + 1 {
            line.push_str(&format!("board  {who} can no longer win a gammon (4.5)\n"));
        }
    }
    line
}

/// A match as JSON.
pub fn match_json(s: &v1::MatchState) -> Value {
    let mut v = match_json_fields(s);
    // Only a match that records moves has a board: other matches print as before.
    if let Some(b) = &s.board {
        v["board"] = json!({
            "checkers": [b.checkers_a, b.checkers_b], "pips": b.pips, "borne_off": b.borne_off,
            "gnubg_position_id": b.gnubg_position_id, "moved": b.moved,
            "certain_winner": side(b.certain_winner), "gammon_possible": b.gammon_possible,
        });
    }
    v
}

fn match_json_fields(s: &v1::MatchState) -> Value {
    json!({
        "match_id": s.match_id, "tournament_id": s.tournament_id, "round": s.round, "table": s.table,
        "players": [s.player_a, s.player_b], "length": s.length, "score": [s.score_a, s.score_b],
        "phase": phase(s.phase), "game": s.game_number, "crawford": s.crawford, "post_crawford": s.post_crawford,
        "cube": { "value": s.cube_value, "owner": side(s.cube_owner) },
        "turn": v1::TurnPhase::try_from(s.turn).map(|t| t.as_str_name()).unwrap_or("-"),
        "turn_side": side(s.turn_side), "dice": s.dice,
        "clock": s.clock.as_ref().map(|c| json!({
            "as_of_ms": c.as_of_ms, "running": side(c.running),
            "paused": v1::PauseReason::try_from(c.paused).map(|p| p.as_str_name()).unwrap_or("-"),
            "a": c.a.as_ref().map(clock_json), "b": c.b.as_ref().map(clock_json),
            "next_flag_at_ms": c.next_flag_at_ms, "frozen": c.frozen,
        })),
        "result": s.result.as_ref().map(|r| json!({ "winner": side(r.winner), "how": r.how, "confirmed": r.confirmed })),
        "seq": s.seq, "head_hash": s.head_hash, "commitment": s.commitment, "dice_source": s.dice_source,
        "present": s.present, "penalty_points": s.penalty_points, "breaks_left": s.breaks_left,
        "next_due_ms": s.next_due_ms,
        "chess": s.chess.as_ref().map(chess_json),
    })
}

/// Events as JSON: each body parsed back into an object, with its seq and hash.
pub fn events_json(events: &[v1::Event]) -> Value {
    Value::Array(
        events
            .iter()
            .map(|e| {
                let body: Value =
                    serde_json::from_str(&e.body).unwrap_or(Value::String(e.body.clone()));
                json!({ "seq": e.seq, "hash": e.hash, "event": body })
            })
            .collect(),
    )
}

/// A tournament as JSON.
pub fn tournament_json(t: &v1::Tournament) -> Value {
    let d = t.defaults.unwrap_or_default();
    json!({
        "id": t.id, "name": t.name, "per_point_ms": d.per_point_ms, "delay_ms": d.delay_ms,
        "clocks": v1::ClockPolicy::try_from(d.clocks).map(|c| c.as_str_name()).unwrap_or("-"),
        "dice": v1::DiceSource::try_from(d.dice).map(|c| c.as_str_name()).unwrap_or("-"),
        "player_seeds": v1::PlayerSeedPolicy::try_from(d.player_seeds).map(|c| c.as_str_name()).unwrap_or("-"),
        "timeout": format!("{:?}", d.timeout.and_then(|t| t.policy)),
    })
}
