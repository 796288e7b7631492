//! An event of a match's log in words, computed once: the server calls [`describe`]
//! when it sends an event (`v1::Event.words`), and every client — the console, `baffle
//! follow`, the CLI, the phone page — only formats the answer from its catalogue.
//!
//! The answer is a [`v1::Words`]: a message id of the catalogue and its arguments, not
//! yet in any language. A player is an argument by side (the client names him as the
//! match names him now, so a corrected name reaches old events too); an instant is an
//! argument by time (each client says a time of day its own way); the words of a proto
//! enum value, a colour, a rule cited or a director's action are nested messages.
//!
//! ```
//! use baffle_i18n::{Catalogue, Locale, describe::describe};
//! let body = serde_json::json!({"kind": "bg.rolled", "side": "B", "dice": [6, 4]});
//! let words = describe("bg.rolled", &body);
//! assert_eq!(words.id, "event-rolled");
//! let said = Catalogue::new(Locale::En).words(&words, ["Anna", "Ben"]);
//! assert_eq!(said, "Ben rolled 6-4");
//! ```
//!
//! Most kinds are rows of a table (one message naming one player, one naming a colour,
//! one with no arguments); the rest each have a function of their own, in [`SAID`]. A
//! kind none of them knows is said from its name (`event-other`, "wait out delay") and
//! marked as detail, as is the log's bookkeeping ([`DETAIL`]).

use baffle_core::Millis;
use baffle_proto::v1::{self, word_arg::Value as Arg};
use serde_json::Value as Json;

use crate::enums;

/// How one kind of event is said, from its body.
type Say = fn(&Json) -> v1::Words;

/// Events said by one message naming one player: (kind, message, the body's side field).
const ONE_PLAYER: [(&str, &str, &str); 13] = [
    ("bg.checked_in", "event-checked-in", "side"),
    ("bg.roll_invalid", "event-roll-invalid", "side"),
    ("bg.taken", "event-taken", "side"),
    ("bg.passed", "event-passed", "side"),
    ("bg.pressed_back", "event-pressed-back", "side"),
    ("bg.pressed", "event-pressed", "side"),
    ("bg.wait_out_delay", "event-wait-out-delay", "side"),
    ("bg.turn_replayed", "event-turn-replayed", "offender"),
    ("bg.time_expired", "event-time-expired", "side"),
    ("dice.player_commit", "event-seed-committed", "side"),
    ("dice.player_reveal", "event-seed-revealed", "side"),
    ("dice.chain", "event-dice-chain", "side"),
    ("dice.link", "event-dice-link", "side"),
];

/// Events said by one message with no arguments: (kind, message).
const PLAIN: [(&str, &str); 14] = [
    ("bg.break_ended", "event-break-ended"),
    ("bg.resumed", "event-resumed"),
    ("bg.delay_restarted", "event-delay-restarted"),
    ("bg.length_kept", "event-length-kept"),
    ("bg.match_undecided", "event-match-undecided"),
    ("bg.match_resumed", "event-match-resumed"),
    ("dice.reveal", "event-dice-revealed"),
    ("dice.opening", "event-dice-opening"),
    ("dice.anomaly", "event-dice-anomaly"),
    ("match.opened", "event-match-opened"),
    ("match.setup", "event-match-setup"),
    ("chess.started", "event-chess-started"),
    ("chess.paused", "event-chess-paused"),
    ("chess.resumed", "event-chess-resumed"),
];

/// Chess events said by one message naming the colour in the body: (kind, message).
const ONE_COLOR: [(&str, &str); 6] = [
    ("chess.arrived", "event-chess-arrived"),
    ("chess.pressed", "event-chess-pressed"),
    ("chess.flag", "event-chess-flag"),
    ("chess.move_made", "event-chess-move"),
    ("chess.illegal_move", "event-chess-illegal-move"),
    ("chess.quickplay_claim", "event-chess-quickplay-claim"),
];

/// The log's bookkeeping rather than play: said on the console, left out on the page.
pub const DETAIL: [&str; 9] = [
    "dice.roll",
    "dice.opening",
    "dice.chain",
    "dice.asked",
    "dice.link",
    "dice.anomaly",
    "match.opened",
    "match.setup",
    "device.input",
];

/// The kinds said by a function of their own.
pub const SAID: [(&str, Say); 24] = [
    ("bg.lateness_point", |b| {
        let late = side(b, "late");
        let other = match late {
            Arg::Side(s) if s == v1::Side::B as i32 => v1::Side::A,
            _ => v1::Side::B,
        };
        words(
            "event-lateness-point",
            [("name", late), ("other", Arg::Side(other as i32))],
        )
    }),
    ("bg.break_started", |b| {
        words(
            "event-break-started",
            [("name", side(b, "side")), ("until", time(b, "until"))],
        )
    }),
    ("bg.game_started", |b| {
        let crawford = b.get("crawford").and_then(Json::as_bool) == Some(true);
        let crawford = Arg::Text(if crawford { "yes" } else { "no" }.into());
        words(
            "event-game-started",
            [("number", number(b, "number")), ("crawford", crawford)],
        )
    }),
    ("bg.opening_throw", |b| {
        let die = |i: usize| number(&b["throw"], &i.to_string());
        let [a, b_] = [v1::Side::A, v1::Side::B].map(|s| Arg::Side(s as i32));
        words(
            "event-opening-throw",
            [("nameA", a), ("a", die(0)), ("nameB", b_), ("b", die(1))],
        )
    }),
    ("bg.rolled", |b| {
        words(
            "event-rolled",
            [("name", side(b, "side")), ("dice", dice(b))],
        )
    }),
    ("dice.roll", |b| {
        words(
            "event-dice-drawn",
            [("name", side(b, "side")), ("dice", dice(b))],
        )
    }),
    ("bg.doubled", |b| {
        words(
            "event-doubled",
            [("name", side(b, "side")), ("value", number(b, "value"))],
        )
    }),
    ("bg.requested", |b| {
        let id = match b.get("what").and_then(Json::as_str) {
            Some("clock") => "event-requested-clock",
            _ => "event-requested-observer",
        };
        words(id, [("name", side(b, "side"))])
    }),
    ("bg.appealed", |b| {
        words(
            "event-appealed",
            [("name", side(b, "side")), ("ruling", text(b, "ruling"))],
        )
    }),
    ("bg.moved", |b| {
        words(
            "event-moved",
            [("name", side(b, "side")), ("play", text(b, "play"))],
        )
    }),
    ("bg.game_ended", |b| {
        let kind = logged_enum("WinKind", b.get("result"));
        let args = [
            ("name", side(b, "winner")),
            ("points", number(b, "points")),
            ("kind", kind),
        ];
        words("event-game-ended", args)
    }),
    ("bg.paused", |b| {
        words(
            "event-paused",
            [("reason", logged_enum("PauseReason", b.get("reason")))],
        )
    }),
    ("bg.length_corrected", |b| {
        words("event-length-corrected", [("length", number(b, "length"))])
    }),
    ("bg.match_ended", |b| {
        let how = logged_enum("MatchEndKind", b.get("how"));
        words(
            "event-match-ended",
            [("name", side(b, "winner")), ("how", how)],
        )
    }),
    ("bg.ruling", |b| {
        let article = b.get("ruling").and_then(|r| r.get("article"));
        let rule = rule("rule-backgammon", article);
        let action = ruling_action(b.get("action").unwrap_or(&Json::Null), b.get("effect"));
        words(
            "event-ruling",
            [("rule", rule), ("action", Arg::Words(action))],
        )
    }),
    ("dice.reveal_due", |b| match b.get("article") {
        Some(article) => {
            let rule = rule("rule-backgammon", Some(article));
            words(
                "event-reveal-extended",
                [("rule", rule), ("time", time(b, "by"))],
            )
        }
        None => words("event-reveal-due", [("time", time(b, "by"))]),
    }),
    ("dice.link_due", |b| {
        words(
            "event-links-due",
            [("time", time(b, "by")), ("reason", text(b, "reason"))],
        )
    }),
    ("dice.asked", |b| match b.get("side") {
        Some(_) => words("event-dice-asked", [("name", side(b, "side"))]),
        None => words("event-dice-asked-opening", []),
    }),
    ("table.restart", |b| {
        let span = |field: &str| span(b.get(field).and_then(Json::as_i64).unwrap_or(0));
        let [down, credit] = [span("down_ms"), span("credit_ms")];
        let name = side(b, "side");
        if b.get("credit_ms") == b.get("charged_ms") {
            words(
                "event-restart",
                [("down", down), ("credit", credit), ("name", name)],
            )
        } else {
            let charged = ("charged", span("charged_ms"));
            words(
                "event-restart-partial",
                [("down", down), charged, ("credit", credit), ("name", name)],
            )
        }
    }),
    ("match.renamed", |b| {
        words(
            "event-renamed",
            [("was", text(b, "was")), ("name", text(b, "name"))],
        )
    }),
    ("device.input", |b| {
        let outcome = b.get("outcome").and_then(Json::as_str).unwrap_or_default();
        match outcome.strip_prefix("refused: ") {
            None => words("event-device-input", [("device", text(b, "device"))]),
            Some(why) => words(
                "event-device-input-refused",
                [
                    ("device", text(b, "device")),
                    ("why", Arg::Text(why.into())),
                ],
            ),
        }
    }),
    ("chess.ended", |b| {
        let outcome = b.get("result").and_then(|r| r.get("outcome"));
        words(
            "event-chess-ended",
            [("result", logged_enum("ChessOutcome", outcome))],
        )
    }),
    ("chess.ruling", |b| {
        let article = b
            .get("article")
            .or_else(|| b.get("ruling").and_then(|r| r.get("article")));
        words(
            "event-chess-ruling",
            [("rule", rule("rule-chess", article))],
        )
    }),
    ("chess.next_game", |b| {
        words("event-chess-next-game", [("game", number(b, "game"))])
    }),
];

/// Every kind said by its own words (any other is `event-other`).
pub fn kinds() -> impl Iterator<Item = &'static str> {
    let tables = ONE_PLAYER.iter().map(|(k, _, _)| *k);
    let plain = PLAIN.iter().map(|(k, _)| *k);
    let colors = ONE_COLOR.iter().map(|(k, _)| *k);
    tables
        .chain(plain)
        .chain(colors)
        .chain(SAID.iter().map(|(k, _)| *k))
}

/// The words of an event of kind `kind` with the record body `body` (the JSON the log
/// holds: docs/audit-log.md). Never fails: a field missing from the body is said as
/// "?" or 0, and a kind not known here by its name.
pub fn describe(kind: &str, body: &Json) -> v1::Words {
    let mut said = if let Some((_, id, field)) = ONE_PLAYER.iter().find(|(k, _, _)| *k == kind) {
        words(id, [("name", side(body, field))])
    } else if let Some((_, id)) = PLAIN.iter().find(|(k, _)| *k == kind) {
        words(id, [])
    } else if let Some((_, id)) = ONE_COLOR.iter().find(|(k, _)| *k == kind) {
        words(id, [("color", color(body))])
    } else if let Some((_, say)) = SAID.iter().find(|(k, _)| *k == kind) {
        say(body)
    } else {
        let name = kind.split_once('.').map_or(kind, |(_, rest)| rest);
        let mut other = words("event-other", [("kind", Arg::Text(name.replace('_', " ")))]);
        other.detail = true;
        other
    };
    said.detail |= DETAIL.contains(&kind);
    said
}

/// A director's action in words (`ruling-*`), with what it changed when the record
/// says so (`effect`: the score or a clock, before and after).
fn ruling_action(action: &Json, effect: Option<&Json>) -> v1::Words {
    let said = match action.get("action").and_then(Json::as_str) {
        Some("warning") => words("ruling-warning", [("name", side(action, "side"))]),
        Some("award_points") => words(
            "ruling-award-points",
            [
                ("name", side(action, "to")),
                ("points", number(action, "points")),
            ],
        ),
        Some("deduct_points") => words(
            "ruling-deduct-points",
            [
                ("name", side(action, "from")),
                ("points", number(action, "points")),
            ],
        ),
        Some("correct_score") => words("ruling-correct-score", []),
        Some("correct_result") => words(
            "ruling-correct-result",
            [
                ("name", side(action, "winner")),
                ("game", number(action, "game")),
            ],
        ),
        Some("adjust_time") => {
            let delta = action.get("delta").and_then(Json::as_i64).unwrap_or(0);
            let sign = if delta >= 0 { "+" } else { "" };
            let delta = Arg::Text(format!("{sign}{}", Millis::ms(delta)));
            words(
                "ruling-adjust-time",
                [("name", side(action, "side")), ("delta", delta)],
            )
        }
        Some("set_time") => words("ruling-set-time", [("name", side(action, "side"))]),
        Some("confirm_result") => words("ruling-confirm", []),
        Some("forfeit_match") => words("ruling-forfeit-match", [("name", side(action, "loser"))]),
        Some("reschedule") if action.get("start").is_some() => {
            words("ruling-reschedule", [("time", time(action, "start"))])
        }
        Some("reschedule") => words("ruling-postpone", []),
        _ => words("ruling-other", []),
    };
    let Some(effect) = effect else {
        return said;
    };
    let score = |field: &str| -> Arg {
        let at = |i: usize| effect[field].get(i).and_then(Json::as_u64).unwrap_or(0);
        Arg::Text(format!("{}–{}", at(0), at(1)))
    };
    let clock = |field: &str| span(effect.get(field).and_then(Json::as_i64).unwrap_or(0));
    let (before, after) = match effect.get("of").and_then(Json::as_str) {
        Some("score") => (score("before"), score("after")),
        Some("clock") => (clock("before"), clock("after")),
        _ => return said,
    };
    let action = ("action", Arg::Words(said));
    if before == after {
        words("ruling-effect-unchanged", [action, ("value", after)])
    } else {
        words(
            "ruling-effect",
            [action, ("before", before), ("after", after)],
        )
    }
}

/// The message `id` with `args`.
pub(crate) fn words<const N: usize>(id: &str, args: [(&str, Arg); N]) -> v1::Words {
    v1::Words {
        id: id.to_string(),
        args: args
            .into_iter()
            .map(|(name, value)| v1::WordArg {
                name: name.to_string(),
                value: Some(value),
            })
            .collect(),
        detail: false,
    }
}

/// The player a body's `field` names ("A" or "B"); another value as it is, none as "?".
fn side(body: &Json, field: &str) -> Arg {
    match body.get(field).and_then(Json::as_str) {
        Some("A" | "a") => Arg::Side(v1::Side::A as i32),
        Some("B" | "b") => Arg::Side(v1::Side::B as i32),
        Some(other) => Arg::Text(other.to_string()),
        None => Arg::Text("?".into()),
    }
}

/// A body's `field` as words: a string as it is, anything else as JSON writes it.
fn text(body: &Json, field: &str) -> Arg {
    Arg::Text(said(body.get(field)))
}

/// A value as words: a string as it is, nothing as nothing, anything else as JSON.
fn said(value: Option<&Json>) -> String {
    match value {
        Some(Json::String(s)) => s.clone(),
        Some(Json::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// A body's `field` as a number (plural forms choose on it); not a whole number, as words.
fn number(body: &Json, field: &str) -> Arg {
    let value = match body {
        Json::Array(items) => field.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => body.get(field),
    };
    match value.and_then(Json::as_i64) {
        Some(n) => Arg::Number(n),
        None => Arg::Text(value.map_or("?".into(), Json::to_string)),
    }
}

/// An instant of the body (ms since the epoch).
fn time(body: &Json, field: &str) -> Arg {
    Arg::TimeMs(body.get(field).and_then(Json::as_i64).unwrap_or(0))
}

/// A span as the clocks show it: "1:30.0".
fn span(ms: i64) -> Arg {
    Arg::Text(Millis::ms(ms).to_string())
}

/// The body's dice ("dice": [6, 4]) as "6-4".
fn dice(body: &Json) -> Arg {
    let dice = body.get("dice").and_then(Json::as_array);
    let said: Vec<String> = dice.into_iter().flatten().map(Json::to_string).collect();
    Arg::Text(said.join("-"))
}

/// The colour a chess body names, in words.
fn color(body: &Json) -> Arg {
    let black = body
        .get("color")
        .and_then(Json::as_str)
        .is_some_and(|c| c.eq_ignore_ascii_case("black"));
    Arg::Words(words(if black { "color-black" } else { "color-white" }, []))
}

/// A rule cited (`rule-backgammon` or `rule-chess`) with the article the body gives.
fn rule(id: &str, article: Option<&Json>) -> Arg {
    Arg::Words(words(id, [("article", Arg::Text(said(article)))]))
}

/// A value of a proto enum as the log spells it ("director_called", "gammon") in the
/// words of that value (`pause-reason-director-called`), found by the proto's own names
/// ([`enums`]); a value the proto does not have, as the log spells it.
fn logged_enum(enum_name: &str, logged: Option<&Json>) -> Arg {
    let logged = logged.and_then(Json::as_str).unwrap_or_default();
    let id = format!("{}-{}", enums::kebab(enum_name), logged.replace('_', "-"));
    if enums::values(enum_name)
        .iter()
        .any(|(_, known)| *known == id)
    {
        Arg::Words(words(&id, []))
    } else {
        Arg::Text(logged.replace('_', " "))
    }
}
