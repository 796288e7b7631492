//! A chess match in words, the same on every display — the console, the follow view,
//! the CLI and a device's two lines: half points as "1½", results as "1-0 resignation".
//! (A device's lines take their other words from the catalogue.)

use crate::v1;

/// Half points as a score: 3 → "1½", 1 → "½", 4 → "2".
pub fn points(half: u32) -> String {
    match (half / 2, half % 2) {
        (0, 1) => "½".into(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// "Anna 1½ – ½ Boris (of 4)".
pub fn score(s: &v1::MatchState, c: &v1::ChessState) -> String {
    format!(
        "{} {} – {} {} (of {})",
        s.player_a,
        points(c.half_points_a),
        points(c.half_points_b),
        s.player_b,
        c.games
    )
}

/// "1-0", "0-1", "½-½" or "0-0".
pub fn outcome(value: i32) -> &'static str {
    match v1::ChessOutcome::try_from(value) {
        Ok(v1::ChessOutcome::WhiteWins) => "1-0",
        Ok(v1::ChessOutcome::BlackWins) => "0-1",
        Ok(v1::ChessOutcome::Draw) => "½-½",
        Ok(v1::ChessOutcome::BothLose) => "0-0",
        _ => "-",
    }
}

/// "resignation", "flag, insufficient material", …
pub fn reason(value: i32) -> String {
    v1::ChessReason::try_from(value)
        .map(|r| {
            r.as_str_name()
                .trim_start_matches("CHESS_REASON_")
                .replace('_', " ")
                .to_lowercase()
        })
        .unwrap_or_default()
}

/// "1-0 resignation".
pub fn result(r: &v1::ChessResult) -> String {
    format!("{} {}", outcome(r.outcome), reason(r.reason))
}

/// "White" or "Black" (or "-").
pub fn color(value: i32) -> &'static str {
    match v1::Color::try_from(value) {
        Ok(v1::Color::White) => "White",
        Ok(v1::Color::Black) => "Black",
        _ => "-",
    }
}

/// The player's name with `color` in the game in progress.
pub fn player<'a>(s: &'a v1::MatchState, c: &v1::ChessState, color: v1::Color) -> &'a str {
    let a_is_white = c.white != v1::Side::B as i32;
    if (color == v1::Color::White) == a_is_white {
        &s.player_a
    } else {
        &s.player_b
    }
}

/// Which game of how many, its category, the edition of the Laws and the Chess960
/// position (White's back rank, then Black's): "game 2 of 4 · rapid · FIDE 2014 · 960
/// #518 RNBQKBNR/rnbqkbnr".
pub fn game(s: &v1::MatchState, c: &v1::ChessState) -> String {
    let mut line = format!("game {} of {} · {}", s.game_number, c.games, c.category);
    if !c.laws_name.is_empty() {
        line.push_str(&format!(" · {}", c.laws_name));
    }
    if let Some(p) = &c.position {
        line.push_str(&format!(" · 960 #{} {}", p.sp, p.back_rank));
        if !p.black_back_rank.is_empty() {
            line.push_str(&format!("/{}", p.black_back_rank));
        }
    }
    line
}

/// Who is to move and any quickplay claim: "Boris (White) to move", "not started", or
/// nothing between games.
pub fn turn(s: &v1::MatchState, c: &v1::ChessState) -> String {
    let mut line = match v1::Color::try_from(c.to_move) {
        Ok(color @ (v1::Color::White | v1::Color::Black)) => format!(
            "{} ({}) to move",
            player(s, c, color),
            self::color(c.to_move)
        ),
        _ if !c.started && s.phase == v1::MatchPhase::Waiting as i32 => "not started".into(),
        _ => String::new(),
    };
    if c.quickplay_claim != 0 {
        line.push_str(&format!(
            " · quickplay claim by {}",
            self::color(c.quickplay_claim)
        ));
    }
    line
}

/// [`game`] and [`turn`]: "game 2 of 4 · rapid · Boris (White) to move".
pub fn game_line(s: &v1::MatchState, c: &v1::ChessState) -> String {
    match turn(s, c) {
        t if t.is_empty() => game(s, c),
        t => format!("{} · {t}", game(s, c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_points_read_as_people_write_them() {
        assert_eq!(points(0), "0");
        assert_eq!(points(1), "½");
        assert_eq!(points(3), "1½");
        assert_eq!(points(4), "2");
    }

    #[test]
    fn results_name_outcome_and_reason() {
        let r = v1::ChessResult {
            outcome: v1::ChessOutcome::Draw as i32,
            reason: v1::ChessReason::FlagInsufficientMaterial as i32,
        };
        assert_eq!(result(&r), "½-½ flag insufficient material");
    }
}
