//! What the director types at the console's prompts, read: a side and a value for the
//! action the key started, a pause reason's number, a score, minutes, a chess colour and
//! time. A mistyped value is an error said in words, for the prompt to show.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;

use super::keys::{chess, in_match, pause_reasons, pause_words, ruling};
use super::state::{Dashboard, InputKind, Order, Pending, name};
use crate::words;

impl Dashboard {
    pub(super) fn parse_input(&self, kind: InputKind, text: &str) -> Result<Pending, String> {
        let s = self
            .selected_match()
            .ok_or_else(|| words::say("console-no-match"))?;
        let match_id = s.match_id.clone();
        let pending = |label: String, action, ruling| Pending {
            label: in_match(&label, &match_id),
            match_id: match_id.clone(),
            order: Order::Execute(action),
            ruling,
        };
        match kind {
            InputKind::PauseReason => pause_input(text, pending),
            InputKind::CorrectScore => score_input(s, text, pending),
            InputKind::SetChessClock => self.chess_clock(text, pending),
            InputKind::ExtendReveal => {
                let minutes: u32 = text
                    .trim()
                    .parse()
                    .map_err(|_| bad("console-bad-minutes", text.trim()))?;
                let args = [("minutes", minutes.into())];
                let id = match s.live_dice.as_ref().and_then(|l| l.waiting.as_ref()) {
                    Some(_) => "console-do-extend-links",
                    None => "console-do-extend",
                };
                Ok(Pending {
                    label: in_match(&words::say_with(id, &args), &match_id),
                    match_id: match_id.clone(),
                    order: Order::ExtendReveal { minutes },
                    ruling: ruling("", "2.3"),
                })
            }
            InputKind::CheckIn if s.chess.is_some() => {
                let color = colour(text.trim())?;
                Ok(pending(
                    words::say_with("console-do-arrive", &[colour_words(color)]),
                    chess(v1::chess_command::Action::Arrive(color as i32)),
                    None,
                ))
            }
            _ => side_input(s, kind, text, pending),
        }
    }

    fn chess_clock(
        &self,
        text: &str,
        pending: impl Fn(String, Action, Option<v1::Ruling>) -> Pending,
    ) -> Result<Pending, String> {
        let (color_text, rest) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| bad("console-bad-side", text.trim()))?;
        let color = colour(color_text)?;
        let ms = crate::duration::parse(rest.trim())?.as_ms();
        let action = v1::chess_command::Action::SetTime(v1::ChessTime {
            color: color as i32,
            ms,
        });
        let (_, colour_said) = colour_words(color);
        let args = [("color", colour_said), ("time", rest.trim().into())];
        Ok(pending(
            words::say_with("console-do-set-clock", &args),
            chess(action),
            ruling("", "6.10"),
        ))
    }
}

/// A pause reason, by its number in the list the prompt shows.
fn pause_input(
    text: &str,
    pending: impl Fn(String, Action, Option<v1::Ruling>) -> Pending,
) -> Result<Pending, String> {
    let reasons = pause_reasons();
    let reason = text
        .trim()
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| reasons.get(i).copied())
        .ok_or_else(|| {
            let args = [
                ("text", text.into()),
                ("count", (reasons.len() as u32).into()),
            ];
            words::say_with("console-bad-reason", &args)
        })?;
    let wire = baffle_proto::convert::pause_reason_to_wire(reason) as i32;
    let args = [("reason", pause_words(reason).into())];
    Ok(pending(
        words::say_with("console-do-pause", &args),
        Action::Pause(wire),
        None,
    ))
}

/// A corrected score: two numbers, player A's first (4.7).
fn score_input(
    s: &v1::MatchState,
    text: &str,
    pending: impl Fn(String, Action, Option<v1::Ruling>) -> Pending,
) -> Result<Pending, String> {
    let numbers: Vec<u32> = text
        .split_whitespace()
        .map(|n| n.parse().map_err(|_| bad("console-bad-score", text)))
        .collect::<Result<_, _>>()?;
    let [a, b] = numbers[..] else {
        return Err(bad("console-bad-score", text));
    };
    let args = [
        ("a", s.player_a.clone().into()),
        ("sa", a.into()),
        ("sb", b.into()),
        ("b", s.player_b.clone().into()),
    ];
    Ok(pending(
        words::say_with("console-do-score", &args),
        Action::CorrectScore(v1::Score { a, b }),
        ruling("", "4.7"),
    ))
}

/// What an action on one player reads: the side (A or B; a Greek keyboard's Α and Β
/// too) and, for some actions, a value after it.
fn side_input(
    s: &v1::MatchState,
    kind: InputKind,
    text: &str,
    pending: impl Fn(String, Action, Option<v1::Ruling>) -> Pending,
) -> Result<Pending, String> {
    let (side_text, rest) = text.trim().split_once(' ').unwrap_or((text.trim(), ""));
    // A Greek keyboard types Α and Β (Greek capitals that look like A and B).
    let side = match side_text.to_uppercase().as_str() {
        "A" | "Α" => v1::Side::A as i32,
        "B" | "Β" => v1::Side::B as i32,
        other => return Err(bad("console-bad-side", other)),
    };
    let who = name(s, side).to_string();
    let rest = rest.trim();
    match kind {
        InputKind::AdjustClock => {
            let ms = crate::duration::parse(rest)?.as_ms();
            let args = [("name", who.into()), ("by", rest.into())];
            Ok(pending(
                words::say_with("console-do-adjust", &args),
                Action::AdjustTime(v1::TimeChange { side, ms }),
                ruling("", "4.3 (v)"),
            ))
        }
        InputKind::AwardPoints => {
            let points: u32 = rest.parse().map_err(|_| bad("console-bad-points", rest))?;
            let args = [("name", who.into()), ("points", points.into())];
            // The usual article: lateness, a point for each 5 minutes (2.2).
            Ok(pending(
                words::say_with("console-do-points", &args),
                Action::AwardPoints(v1::Points { side, points }),
                ruling("", "2.2"),
            ))
        }
        InputKind::CheckIn => Ok(pending(
            words::say_with("console-do-check-in", &[("name", who.into())]),
            Action::CheckIn(side),
            None,
        )),
        // The usual article: slow play, the one article that names a warning (2.3).
        InputKind::Warn => Ok(pending(
            words::say_with("console-do-warn", &[("name", who.into())]),
            Action::Warn(side),
            ruling("", "2.3"),
        )),
        InputKind::Forfeit => {
            // The usual article: a player whose seed the match waits for forfeits for
            // not revealing it (2.3: docs/dice.md, "A deadline for every reveal");
            // otherwise 2.2. The director gives the reason, and may change it.
            let stalled = crate::reveal::pending(s).iter().any(|p| p.side == side);
            let grounds = if stalled {
                ruling("", "2.3")
            } else {
                ruling("", "2.2")
            };
            Ok(pending(
                words::say_with("console-do-forfeit", &[("name", who.into())]),
                Action::ForfeitMatch(side),
                grounds,
            ))
        }
        _ => unreachable!("handled above"),
    }
}

/// A colour as typed: W, B, White, Black, or in Greek Λ (Λευκά), Μ (Μαύρα).
fn colour(text: &str) -> Result<v1::Color, String> {
    match text.to_uppercase().as_str() {
        "W" | "WHITE" | "Λ" | "ΛΕΥΚΑ" => Ok(v1::Color::White),
        "B" | "BLACK" | "Μ" | "ΜΑΥΡΑ" => Ok(v1::Color::Black),
        other => Err(bad("console-bad-colour", other)),
    }
}

/// A colour in words, as a message's `color` argument.
fn colour_words(color: v1::Color) -> (&'static str, baffle_i18n::Value) {
    let said = if color == v1::Color::Black {
        words::say("color-black")
    } else {
        words::say("color-white")
    };
    ("color", said.into())
}

/// A refusal of what was typed, quoting it: `id` is one of the `console-bad-*`.
fn bad(id: &str, text: &str) -> String {
    words::say_with(id, &[("text", text.into())])
}
