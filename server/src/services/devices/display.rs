//! What a device's display shows of its match: two short lines, made from the match's
//! wire state each time it changes (the session sends them with every update).

use baffle_proto::backgammon_text;
use baffle_proto::chess_text::points;
use baffle_proto::v1;

/// Two short lines for a device's display: score and cube; whose turn and both clocks.
/// A chess match shows the game, colours, move counters and periods instead.
pub fn display(s: &v1::MatchState) -> Vec<String> {
    if let Some(chess) = &s.chess {
        return chess_display(s, chess);
    }
    let first = format!(
        "{} {} - {} {}  {}",
        s.player_a,
        s.score_a,
        s.score_b,
        s.player_b,
        backgammon_text::cube(s)
    );
    let turn = backgammon_text::turn(s);
    let clocks = s
        .clock
        .as_ref()
        .map(|c| {
            let t = |c: Option<v1::SideClock>| {
                baffle_core::Millis(c.unwrap_or_default().main_ms).to_string()
            };
            format!("  {} | {}", t(c.a), t(c.b))
        })
        .unwrap_or_default();
    vec![first, format!("{turn}{clocks}")]
}

/// A chess display: "Ann 1½ - ½ Bo  game 3/4 rapid FIDE 2014", then each clock as
/// colour, time, moves made and period — so the display shows when a period changes
/// (6.3 (b)) and which edition's rules the arbiter applies.
fn chess_display(s: &v1::MatchState, c: &v1::ChessState) -> Vec<String> {
    let first = format!(
        "{} {} - {} {}  game {}/{} {} {}",
        s.player_a,
        points(c.half_points_a),
        points(c.half_points_b),
        s.player_b,
        s.game_number,
        c.games,
        c.category,
        c.laws_name
    );
    let clock = s.clock.clone().unwrap_or_default();
    let face = |name: &str, side: Option<v1::SideClock>| {
        let side = side.unwrap_or_default();
        format!(
            "{name} {} {}",
            baffle_core::Millis(side.main_ms),
            baffle_proto::chess_text::moves_and_period(&side)
        )
    };
    let state = match v1::MatchPhase::try_from(s.phase) {
        Ok(v1::MatchPhase::Over) => "match over  ",
        Ok(v1::MatchPhase::BetweenGames) => "game over  ",
        Ok(v1::MatchPhase::Waiting) => "waiting  ",
        _ if clock.paused != 0 => "paused  ",
        _ => "",
    };
    let second = format!("{state}{} | {}", face("W", clock.a), face("B", clock.b));
    vec![first, second]
}
