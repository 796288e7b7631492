//! `match show`'s record of a backgammon match, for the director who rules on it: who is
//! present, each player's penalty points and warnings (from the state), and the games
//! played with their numbers, winners, points and kinds (from the log: the state keeps
//! only the score). `rule MATCH … correct-result GAME …` takes those numbers; a new
//! director was refused "no finished game 5" with nowhere to look them up.

use baffle_proto::v1;
use serde_json::{Value as Json, json};

use crate::words;

/// One finished game, as its log records it (a corrected result as corrected).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Game {
    /// 1 for the first game.
    pub number: u32,
    /// `A` or `B`.
    pub winner: &'static str,
    /// `single`, `gammon` or `backgammon`.
    pub kind: String,
    /// The cube played for.
    pub cube: u32,
    /// Points scored: the kind's multiplier × the cube.
    pub points: u32,
    /// How it ended: `declared`, `pass`, `concession`, `forfeit`.
    pub how: String,
}

fn side_of(value: Option<&Json>) -> &'static str {
    match value.and_then(Json::as_str) {
        Some("B" | "b") => "B",
        _ => "A",
    }
}

fn multiplier(kind: &str) -> u32 {
    match kind {
        "gammon" => 2,
        "backgammon" => 3,
        _ => 1,
    }
}

/// The finished games of a backgammon match, from its records in order: each game's
/// number from its start, its end as recorded, and a director's correction of a result
/// (4.6) applied to the game it names (a passed game stays single, as the rules keep it).
pub(super) fn games(events: &[v1::Event]) -> Vec<Game> {
    let mut games: Vec<Game> = Vec::new();
    let mut number = 0;
    for e in events {
        let Ok(body) = serde_json::from_str::<Json>(&e.body) else {
            continue;
        };
        let field = |name: &str| body.get(name);
        match e.kind.as_str() {
            "bg.game_started" => {
                number = field("number").and_then(Json::as_u64).unwrap_or(0) as u32;
            }
            "bg.game_ended" => games.push(Game {
                number,
                winner: side_of(field("winner")),
                kind: field("result")
                    .and_then(Json::as_str)
                    .unwrap_or("single")
                    .to_string(),
                cube: field("cube").and_then(Json::as_u64).unwrap_or(1) as u32,
                points: field("points").and_then(Json::as_u64).unwrap_or(0) as u32,
                how: field("how")
                    .and_then(Json::as_str)
                    .unwrap_or("declared")
                    .to_string(),
            }),
            "bg.ruling" => {
                let action = field("action").unwrap_or(&Json::Null);
                if action.get("action").and_then(Json::as_str) != Some("correct_result") {
                    continue;
                }
                let game = action.get("game").and_then(Json::as_u64).unwrap_or(0) as u32;
                if let Some(g) = games.iter_mut().find(|g| g.number == game) {
                    g.winner = side_of(action.get("winner"));
                    if g.how != "pass" {
                        g.kind = action
                            .get("kind")
                            .and_then(Json::as_str)
                            .unwrap_or("single")
                            .to_string();
                    }
                    g.points = multiplier(&g.kind) * g.cube;
                }
            }
            _ => {}
        }
    }
    games
}

/// A side's entry in a list of two (`present`, `warnings`), 0 or false when absent.
fn of<T: Copy + Default>(list: &[T], side: usize) -> T {
    list.get(side).copied().unwrap_or_default()
}

/// The lines `match show` adds: presence, penalty points and warnings per player, and
/// the games (or that none has finished).
pub(super) fn lines(s: &v1::MatchState, games: &[Game]) -> String {
    let names = [s.player_a.as_str(), s.player_b.as_str()];
    let mut out = String::new();
    for (i, (letter, name)) in ["A", "B"].iter().zip(names).enumerate() {
        let presence = if of(&s.present, i) {
            "cli-player-present"
        } else {
            "cli-player-absent"
        };
        let args = [
            ("side", (*letter).into()),
            ("name", name.into()),
            ("presence", words::say(presence).into()),
            ("penalty", of(&s.penalty_points, i).into()),
            ("warnings", of(&s.warnings, i).into()),
        ];
        out.push_str(&words::say_with("cli-player-record", &args));
        out.push('\n');
    }
    if let Some(o) = s.uncredited_outage.as_ref() {
        let side = if o.side == v1::Side::B as i32 { 1 } else { 0 };
        let args = [
            ("name", names[side].into()),
            ("letter", ["a", "b"][side].into()),
            ("match", s.match_id.clone().into()),
            ("time", baffle_core::Millis::ms(o.ms).to_string().into()),
        ];
        out.push_str(&words::say_with("cli-outage", &args));
        out.push('\n');
    }
    if games.is_empty() {
        out.push_str(&words::say("cli-games-none"));
        out.push('\n');
        return out;
    }
    out.push_str(&words::say("cli-games"));
    out.push('\n');
    for g in games {
        let winner = if g.winner == "B" { names[1] } else { names[0] };
        let args = [
            ("number", g.number.into()),
            ("name", winner.into()),
            ("points", g.points.into()),
            ("kind", kind_words(&g.kind).into()),
            ("cube", g.cube.into()),
        ];
        out.push_str("  ");
        out.push_str(&words::say_with("cli-game-line", &args));
        out.push('\n');
    }
    out
}

/// A game's kind in words.
fn kind_words(kind: &str) -> String {
    words::say(match kind {
        "gammon" => "cli-win-kind-gammon",
        "backgammon" => "cli-win-kind-backgammon",
        _ => "cli-win-kind-single",
    })
}

/// The same for `--json`: language-free values.
pub(super) fn json(s: &v1::MatchState, games: &[Game]) -> Json {
    let games: Vec<Json> = games
        .iter()
        .map(|g| {
            json!({
                "number": g.number,
                "winner": g.winner,
                "points": g.points,
                "kind": g.kind,
                "cube": g.cube,
                "how": g.how,
            })
        })
        .collect();
    json!({
        "warnings": [of(&s.warnings, 0), of(&s.warnings, 1)],
        "games": games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: &str, body: Json) -> v1::Event {
        v1::Event {
            kind: kind.into(),
            body: body.to_string(),
            ..Default::default()
        }
    }

    #[test]
    fn the_games_are_numbered_and_a_correction_applies_to_its_game() {
        let events = [
            event("bg.game_started", json!({"number": 1, "crawford": false})),
            event(
                "bg.game_ended",
                json!({"winner": "B", "result": "gammon", "cube": 2, "points": 4, "how": "declared"}),
            ),
            event("bg.game_started", json!({"number": 2, "crawford": false})),
            event(
                "bg.game_ended",
                json!({"winner": "A", "result": "single", "cube": 2, "points": 2, "how": "pass"}),
            ),
            event(
                "bg.ruling",
                json!({"action": {"action": "correct_result", "game": 1, "winner": "A", "kind": "backgammon"},
                       "ruling": {"reason": "miscounted", "article": "4.6"}}),
            ),
            // A pass stays single whatever the correction says.
            event(
                "bg.ruling",
                json!({"action": {"action": "correct_result", "game": 2, "winner": "B", "kind": "gammon"},
                       "ruling": {"reason": "wrong side", "article": "4.6"}}),
            ),
        ];
        let games = games(&events);
        assert_eq!(games.len(), 2);
        assert_eq!(
            (
                games[0].number,
                games[0].winner,
                games[0].kind.as_str(),
                games[0].points
            ),
            (1, "A", "backgammon", 6)
        );
        assert_eq!(
            (
                games[1].number,
                games[1].winner,
                games[1].kind.as_str(),
                games[1].points
            ),
            (2, "B", "single", 2)
        );
    }

    #[test]
    fn an_outage_left_to_the_director_is_shown_with_the_command_that_rules_on_it() {
        let s = v1::MatchState {
            match_id: "r1-t4".into(),
            player_a: "Anna".into(),
            player_b: "Ben".into(),
            uncredited_outage: Some(v1::UncreditedOutage {
                side: v1::Side::B as i32,
                ms: 30_000,
                at_ms: 0,
            }),
            ..Default::default()
        };
        let shown = crate::words::in_locale(crate::words::Language::En, || lines(&s, &[]));
        assert!(
            shown.contains(
                "Ben lost 0:30.0 to the server's outage, not given back: rule on it (baffle rule r1-t4 \
                 --reason \"…\" --article \"4.3 (v)\" adjust-time b +0:30.0)"
            ),
            "{shown}"
        );
    }
}
