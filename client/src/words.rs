//! Every word the console and the CLI say to a person, from the shared catalogue
//! (`baffle-i18n`: Fluent files in Greek and English, the same ids as the phone page
//! where the meaning is the same — the events, the pause reasons, the ways a match ends).
//!
//! A caller asks for `words::say("console-hint")` or one of the functions here; it never
//! spells a phrase itself. Every id is written as a literal in a `say`/`say_with` call
//! in this crate's sources, so a test (`every_id_the_client_uses_is_in_both_catalogues`)
//! can read them all and check each against both catalogues: a missing word fails the
//! tests, not a director.
//!
//! The language is chosen once per process ([`set_locale`], from `--lang`, `BAFFLE_LANG`
//! or the POSIX locale variables: [`choose`]); a future can run in another one
//! ([`InLocale`]), which is how `run::run` honours `--lang` when it is called in-process
//! (the tests) and how the JSON views stay in English. `--json` prints machine values
//! (`views`), never these words, except an event's `text`, which is always English.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::{LazyLock, OnceLock};
use std::task::{Context, Poll};

use baffle_i18n::{Catalogue, Locale, Value};
use serde_json::Value as Json;

pub use baffle_i18n::Locale as Language;

static GREEK: LazyLock<Catalogue> = LazyLock::new(|| Catalogue::new(Locale::El));
static ENGLISH: LazyLock<Catalogue> = LazyLock::new(|| Catalogue::new(Locale::En));
/// The process's language, set once at start.
static CHOSEN: OnceLock<Locale> = OnceLock::new();

thread_local! {
    /// A language for this thread only, while an [`InLocale`] future is polled.
    static LOCAL: Cell<Option<Locale>> = const { Cell::new(None) };
}

/// Sets the process's language (the first call wins; English until then).
pub fn set_locale(locale: Locale) {
    let _ = CHOSEN.set(locale);
}

/// The language words are said in on this thread now.
pub fn locale() -> Locale {
    LOCAL
        .with(Cell::get)
        .or_else(|| CHOSEN.get().copied())
        .unwrap_or(Locale::En)
}

/// Runs `f` with words in `locale` on this thread.
pub fn in_locale<R>(locale: Locale, f: impl FnOnce() -> R) -> R {
    let before = LOCAL.with(|l| l.replace(Some(locale)));
    let out = f();
    LOCAL.with(|l| l.set(before));
    out
}

/// A future whose words are in one language, whatever thread polls it.
pub struct InLocale<F> {
    locale: Locale,
    inner: Pin<Box<F>>,
}

impl<F: Future> InLocale<F> {
    /// `inner`, said in `locale`.
    pub fn new(locale: Locale, inner: F) -> InLocale<F> {
        InLocale {
            locale,
            inner: Box::pin(inner),
        }
    }
}

impl<F: Future> Future for InLocale<F> {
    type Output = F::Output;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let locale = self.locale;
        in_locale(locale, || self.inner.as_mut().poll(cx))
    }
}

/// The language asked for: `flag` (`--lang` or `BAFFLE_LANG`), else the first set of
/// `LC_ALL`, `LC_MESSAGES`, `LANG` (POSIX order: `el_GR.UTF-8` → Greek), else English.
/// `var` reads the environment (a parameter, so the tests need not change it).
pub fn choose(flag: Option<&str>, var: impl Fn(&str) -> Option<String>) -> Locale {
    if let Some(locale) = flag.and_then(posix) {
        return locale;
    }
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|name| var(name).filter(|v| !v.is_empty()))
        .next()
        .and_then(|v| posix(&v))
        .unwrap_or(Locale::En)
}

/// The language of a POSIX locale name or a tag: "el_GR.UTF-8@euro" → Greek; "C",
/// "POSIX" and languages baffle does not speak → none.
fn posix(name: &str) -> Option<Locale> {
    let tag = name
        .split(['.', '@'])
        .next()
        .unwrap_or("")
        .replace('_', "-");
    Locale::from_tag(&tag)
}

fn catalogue() -> &'static Catalogue {
    match locale() {
        Locale::El => &GREEK,
        Locale::En => &ENGLISH,
    }
}

/// The message `id`.
pub fn say(id: &str) -> String {
    catalogue().format(id, &[])
}

/// The message `id` with named arguments.
pub fn say_with(id: &str, args: &[(&str, Value)]) -> String {
    catalogue().format(id, args)
}

/// A number as a message argument (plural forms choose on it).
fn num(n: impl Into<f64>) -> Value {
    Value::Number(n.into())
}

/// A status of [`crate::views::status`] in words: "playing" → "σε εξέλιξη".
pub fn status(code: &str) -> String {
    use crate::statuses as s;
    match code {
        s::WAITING => say("match-status-waiting"),
        s::PRESENT => say("match-status-present"),
        s::READY => say("match-status-ready"),
        s::PLAYING => say("match-status-playing"),
        s::BETWEEN => say("match-status-between-games"),
        s::OVER => say("match-status-over"),
        s::CONFIRMED => say("match-status-confirmed"),
        s::UNDECIDED => say("match-status-undecided"),
        s::PAUSED => say("match-status-paused"),
        s::POSTPONED => say("match-status-postponed"),
        other => other.to_string(),
    }
}

/// The pause reason in words (`pause-reason-*`, the page's ids, found from the proto's
/// numbers), or `None` for 0 and values the proto does not have.
pub fn pause_reason(wire: i32) -> Option<String> {
    catalogue().enum_value("PauseReason", wire)
}

/// How a match was won (`MatchResult.how`: "points", "timeout", …) in words, by the
/// proto's `MatchEndKind` (the page's `match-end-kind-*`); unknown ones as they are.
pub fn how(how: &str) -> String {
    let value = match how {
        "points" => 1,
        "timeout" => 2,
        "penalty_points" => 3,
        "forfeit" => 4,
        "director_decision" => 5,
        _ => 0,
    };
    catalogue()
        .enum_value("MatchEndKind", value)
        .unwrap_or_else(|| how.replace('_', " "))
}

/// An instant (ms since the epoch, as the server's times are) as the time of day in
/// UTC: "14:32 UTC".
pub fn time_of_day(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000).rem_euclid(24 * 60);
    format!("{:02}:{:02} UTC", minutes / 60, minutes % 60)
}

/// Where a match is: "r1-t7 (table 7)".
pub fn at_table(match_id: &str, table: &str) -> String {
    say_with(
        "console-at-table",
        &[("match", match_id.into()), ("table", table.into())],
    )
}

/// A prompt for a side that names both players: `id` is one of the `console-ask-*`.
pub fn ask_side(id: &str, a: &str, b: &str) -> String {
    say_with(id, &[("a", a.into()), ("b", b.into())])
}

/// A line of `match list` and the console's line mode for an offline match.
pub fn line_offline(m: &baffle_proto::v1::OfflineMatch) -> String {
    say_with(
        "console-offline-line",
        &[
            ("match", m.match_id.clone().into()),
            ("round", m.round.into()),
            ("table", m.table.clone().into()),
            ("reason", m.reason.clone().into()),
        ],
    )
}

/// To-do: a result to confirm; `winner` is none for a draw or both lost.
pub fn todo_confirm(at: &str, winner: Option<&str>, how_won: &str) -> String {
    let how_won = how(how_won);
    match winner {
        Some(w) => say_with(
            "console-todo-confirm",
            &[
                ("at", at.into()),
                ("name", w.into()),
                ("how", how_won.into()),
            ],
        ),
        None => say_with(
            "console-todo-confirm-nobody",
            &[("at", at.into()), ("how", how_won.into())],
        ),
    }
}

/// To-do: dice anomalies, with how many warnings were raised.
pub fn todo_anomalies(at: &str, names: [&str; 2], count: u32, last: &str) -> String {
    let said = anomaly(at, names, last);
    if count > 1 {
        say_with(
            "console-todo-anomalies-many",
            &[("said", said.into()), ("count", num(count))],
        )
    } else {
        say_with("console-todo-anomalies", &[("said", said.into())])
    }
}

/// Ticker: a device left or came back.
pub fn tick_device(match_id: &str, device: &str, connected: bool) -> String {
    let args = [("match", match_id.into()), ("device", device.into())];
    if connected {
        say_with("console-tick-device-on", &args)
    } else {
        say_with("console-tick-device-off", &args)
    }
}

/// A dice anomaly in plain words: the watch's own text keeps its statistics for the
/// log; the director reads who and what. (What the watch found is the server's text,
/// in English.)
pub fn anomaly(match_id: &str, names: [&str; 2], last: &str) -> String {
    let who = if last.starts_with("player A") {
        names[0]
    } else if last.starts_with("player B") {
        names[1]
    } else {
        ""
    };
    let what = last
        .split_once(':')
        .map_or(last, |(_, rest)| rest.trim())
        .split(" (p =")
        .next()
        .unwrap_or(last);
    if who.is_empty() {
        say_with(
            "console-anomaly-nobody",
            &[("match", match_id.into()), ("what", what.into())],
        )
    } else {
        say_with(
            "console-anomaly",
            &[
                ("match", match_id.into()),
                ("name", who.into()),
                ("what", what.into()),
            ],
        )
    }
}

/// One event of a match's log in words, naming players by `names` ([A, B]), with the
/// page's message ids (`server/web/words.js`, `eventWords`): "Anna checked in",
/// "opening throw: Anna 6, Ben 1". An event kind without words is said from its kind
/// ("bg.wait_out_delay" → "wait out delay").
pub fn event(kind: &str, body: &Json, names: [&str; 2]) -> String {
    let side = |field: &str| -> Value {
        match body.get(field).and_then(Json::as_str) {
            Some("A") | Some("a") => names[0].into(),
            Some("B") | Some("b") => names[1].into(),
            Some(other) => other.into(),
            None => "?".into(),
        }
    };
    let name = |field: &str| ("name", side(field));
    let dice = |field: &str| -> Value {
        body.get(field)
            .and_then(Json::as_array)
            .map(|d| {
                d.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join("-")
            })
            .unwrap_or_default()
            .into()
    };
    let number = |field: &str| -> Value {
        match body.get(field) {
            Some(Json::Number(n)) => Value::Number(n.as_f64().unwrap_or(0.0)),
            Some(other) => text(other).into(),
            None => "?".into(),
        }
    };
    let field = |field: &str| -> Value { body.get(field).map(text).unwrap_or_default().into() };
    let color = |field: &str| -> (&str, Value) {
        let c = body.get(field).map(text).unwrap_or_default();
        let words = if c.eq_ignore_ascii_case("black") {
            say("color-black")
        } else {
            say("color-white")
        };
        ("color", words.into())
    };
    match kind {
        "bg.checked_in" => say_with("event-checked-in", &[name("side")]),
        "bg.lateness_point" => {
            let other = if body.get("late").and_then(Json::as_str) == Some("B") {
                names[0]
            } else {
                names[1]
            };
            say_with(
                "event-lateness-point",
                &[name("late"), ("other", other.into())],
            )
        }
        "bg.break_started" => {
            let until = body.get("until").and_then(Json::as_i64).unwrap_or(0);
            say_with(
                "event-break-started",
                &[name("side"), ("until", time_of_day(until).into())],
            )
        }
        "bg.break_ended" => say("event-break-ended"),
        "bg.game_ended" => {
            let kind = match body.get("result").and_then(Json::as_str) {
                Some("gammon") => 2,
                Some("backgammon") => 3,
                _ => 1,
            };
            let kind = catalogue().enum_value("WinKind", kind).unwrap_or_default();
            say_with(
                "event-game-ended",
                &[
                    name("winner"),
                    ("points", number("points")),
                    ("kind", kind.into()),
                ],
            )
        }
        "bg.ruling" => {
            let article = body.get("ruling").and_then(|r| r.get("article")).map(text);
            let rule = catalogue().rule("backgammon", &article.unwrap_or_default());
            let action = body.get("action").unwrap_or(&Json::Null);
            let said = ruling_action(action, body.get("effect"), names);
            say_with(
                "event-ruling",
                &[("rule", rule.into()), ("action", said.into())],
            )
        }
        "bg.game_started" => {
            let crawford = body.get("crawford").and_then(Json::as_bool) == Some(true);
            say_with(
                "event-game-started",
                &[
                    ("number", number("number")),
                    ("crawford", if crawford { "yes" } else { "no" }.into()),
                ],
            )
        }
        "bg.opening_throw" => {
            let throw = body.get("throw").and_then(Json::as_array);
            let die = |i: usize| -> Value {
                throw
                    .and_then(|t| t.get(i))
                    .map(|d| d.to_string())
                    .unwrap_or_default()
                    .into()
            };
            say_with(
                "event-opening-throw",
                &[
                    ("nameA", names[0].into()),
                    ("a", die(0)),
                    ("nameB", names[1].into()),
                    ("b", die(1)),
                ],
            )
        }
        "bg.rolled" => say_with("event-rolled", &[name("side"), ("dice", dice("dice"))]),
        "bg.roll_invalid" => say_with("event-roll-invalid", &[name("side")]),
        "bg.doubled" => say_with("event-doubled", &[name("side"), ("value", number("value"))]),
        "bg.taken" => say_with("event-taken", &[name("side")]),
        "bg.passed" => say_with("event-passed", &[name("side")]),
        "bg.pressed_back" => say_with("event-pressed-back", &[name("side")]),
        "bg.requested" if body.get("what").and_then(Json::as_str) == Some("clock") => {
            say_with("event-requested-clock", &[name("side")])
        }
        "bg.requested" => say_with("event-requested-observer", &[name("side")]),
        "bg.appealed" => say_with(
            "event-appealed",
            &[name("side"), ("ruling", field("ruling"))],
        ),
        "bg.pressed" => say_with("event-pressed", &[name("side")]),
        "bg.moved" => say_with("event-moved", &[name("side"), ("play", field("play"))]),
        "bg.paused" => {
            let reason = body.get("reason").map(text).unwrap_or_default();
            let said = pause_reason_named(&reason).unwrap_or_else(|| reason.replace('_', " "));
            say_with("event-paused", &[("reason", said.into())])
        }
        "bg.resumed" => say("event-resumed"),
        "bg.delay_restarted" => say("event-delay-restarted"),
        "bg.wait_out_delay" => say_with("event-wait-out-delay", &[name("side")]),
        "bg.turn_replayed" => say_with("event-turn-replayed", &[name("offender")]),
        "bg.time_expired" => say_with("event-time-expired", &[name("side")]),
        "bg.length_corrected" => {
            say_with("event-length-corrected", &[("length", number("length"))])
        }
        "bg.length_kept" => say("event-length-kept"),
        "bg.match_ended" => {
            let how_won = how(&body.get("how").map(text).unwrap_or_default());
            say_with(
                "event-match-ended",
                &[name("winner"), ("how", how_won.into())],
            )
        }
        "bg.match_undecided" => say("event-match-undecided"),
        "bg.match_resumed" => say("event-match-resumed"),
        "dice.player_commit" => say_with("event-seed-committed", &[name("side")]),
        "dice.player_reveal" => say_with("event-seed-revealed", &[name("side")]),
        "dice.reveal" => say("event-dice-revealed"),
        "dice.reveal_due" => {
            let due = time_of_day(body.get("by").and_then(Json::as_i64).unwrap_or(0));
            match body.get("article").map(text) {
                Some(article) => {
                    let rule = catalogue().rule("backgammon", &article);
                    say_with(
                        "cli-event-reveal-extended",
                        &[("due", due.into()), ("rule", rule.into())],
                    )
                }
                None => say_with("cli-event-reveal-due", &[("due", due.into())]),
            }
        }
        "table.restart" => {
            let span = |field: &str| -> Value {
                let ms = body.get(field).and_then(Json::as_i64).unwrap_or(0);
                baffle_core::Millis::ms(ms).to_string().into()
            };
            let args = [
                ("down", span("down_ms")),
                ("charged", span("charged_ms")),
                ("credit", span("credit_ms")),
                name("side"),
            ];
            if body.get("credit_ms") == body.get("charged_ms") {
                say_with("event-restart", &args)
            } else {
                say_with("event-restart-partial", &args)
            }
        }
        "match.renamed" => say_with(
            "event-renamed",
            &[("was", field("was")), ("name", field("name"))],
        ),
        "dice.roll" => say_with("event-dice-drawn", &[name("side"), ("dice", dice("dice"))]),
        "dice.opening" => say("event-dice-opening"),
        "dice.chain" => say_with("event-dice-chain", &[name("side")]),
        "dice.asked" if body.get("side").is_some() => say_with("event-dice-asked", &[name("side")]),
        "dice.asked" => say("event-dice-asked-opening"),
        "dice.link" => say_with("event-dice-link", &[name("side")]),
        "match.opened" => say("follow-event-opened"),
        "match.setup" => say("follow-event-setup"),
        "dice.link_due" => say_with(
            "event-links-due",
            &[
                (
                    "time",
                    time_of_day(body.get("by").and_then(Json::as_i64).unwrap_or(0)).into(),
                ),
                ("reason", field("reason")),
            ],
        ),
        "dice.anomaly" => say("event-dice-anomaly"),
        "chess.arrived" => say_with("event-chess-arrived", &[color("color")]),
        "chess.started" => say("event-chess-started"),
        "chess.pressed" => say_with("event-chess-pressed", &[color("color")]),
        "chess.flag" => say_with("event-chess-flag", &[color("color")]),
        "chess.paused" => say("event-chess-paused"),
        "chess.resumed" => say("event-chess-resumed"),
        "chess.move_made" => say_with("event-chess-move", &[color("color")]),
        "chess.illegal_move" => say_with("event-chess-illegal-move", &[color("color")]),
        "chess.quickplay_claim" => say_with("event-chess-quickplay-claim", &[color("color")]),
        "chess.ended" => {
            let outcome = body
                .get("result")
                .and_then(|r| r.get("outcome"))
                .map(text)
                .unwrap_or_default();
            let value = ["white_wins", "black_wins", "draw", "both_lose"]
                .iter()
                .position(|o| *o == outcome)
                .map_or(0, |i| i as i32 + 1);
            let result = catalogue()
                .enum_value("ChessOutcome", value)
                .unwrap_or(outcome);
            say_with("event-chess-ended", &[("result", result.into())])
        }
        "chess.ruling" => {
            let article = body
                .get("article")
                .or_else(|| body.get("ruling").and_then(|r| r.get("article")))
                .map(text)
                .unwrap_or_default();
            let rule = catalogue().rule("chess", &article);
            say_with("event-chess-ruling", &[("rule", rule.into())])
        }
        "chess.next_game" => say_with("event-chess-next-game", &[("game", number("game"))]),
        _ => say_with(
            "event-other",
            &[(
                "kind",
                kind.split_once('.')
                    .map_or(kind, |(_, rest)| rest)
                    .replace('_', " ")
                    .into(),
            )],
        ),
    }
}

/// The name of the player a body's `field` ("A" or "B") names, as the `name` argument.
/// A director's action in words, with what it changed when the record says so
/// (`effect`: the score or a clock, before and after).
fn ruling_action(action: &Json, effect: Option<&Json>, names: [&str; 2]) -> String {
    let points = || num(action.get("points").and_then(Json::as_u64).unwrap_or(0) as f64);
    let span = |ms: Option<i64>| baffle_core::Millis::ms(ms.unwrap_or(0)).to_string();
    let said = match action.get("action").and_then(Json::as_str) {
        Some("warning") => say_with("ruling-warning", &[who(action, "side", names)]),
        Some("award_points") => say_with(
            "ruling-award-points",
            &[who(action, "to", names), ("points", points())],
        ),
        Some("deduct_points") => say_with(
            "ruling-deduct-points",
            &[who(action, "from", names), ("points", points())],
        ),
        Some("correct_score") => say("ruling-correct-score"),
        Some("correct_result") => say_with(
            "ruling-correct-result",
            &[
                who(action, "winner", names),
                (
                    "game",
                    num(action.get("game").and_then(Json::as_u64).unwrap_or(0) as f64),
                ),
            ],
        ),
        Some("adjust_time") => {
            let delta = action.get("delta").and_then(Json::as_i64).unwrap_or(0);
            let sign = if delta >= 0 { "+" } else { "" };
            say_with(
                "ruling-adjust-time",
                &[
                    who(action, "side", names),
                    ("delta", format!("{sign}{}", span(Some(delta))).into()),
                ],
            )
        }
        Some("set_time") => say_with("ruling-set-time", &[who(action, "side", names)]),
        Some("confirm_result") => say("ruling-confirm"),
        Some("forfeit_match") => say_with("ruling-forfeit-match", &[who(action, "loser", names)]),
        Some("reschedule") => match action.get("start").and_then(Json::as_i64) {
            Some(ms) => say_with("ruling-reschedule", &[("time", time_of_day(ms).into())]),
            None => say("ruling-postpone"),
        },
        _ => say("ruling-other"),
    };
    let Some(effect) = effect else {
        return said;
    };
    let score = |field: &str| -> String {
        let s = effect.get(field).and_then(Json::as_array);
        let at = |i: usize| s.and_then(|s| s.get(i)).and_then(Json::as_u64).unwrap_or(0);
        format!("{}–{}", at(0), at(1))
    };
    let (before, after) = match effect.get("of").and_then(Json::as_str) {
        Some("score") => (score("before"), score("after")),
        Some("clock") => (
            span(effect.get("before").and_then(Json::as_i64)),
            span(effect.get("after").and_then(Json::as_i64)),
        ),
        _ => return said,
    };
    if before == after {
        say_with(
            "ruling-effect-unchanged",
            &[("action", said.into()), ("value", after.into())],
        )
    } else {
        say_with(
            "ruling-effect",
            &[
                ("action", said.into()),
                ("before", before.into()),
                ("after", after.into()),
            ],
        )
    }
}

fn who(body: &Json, field: &str, names: [&str; 2]) -> (&'static str, Value) {
    let name = match body.get(field).and_then(Json::as_str) {
        Some("B") | Some("b") => names[1],
        _ => names[0],
    };
    ("name", name.into())
}

/// A pause reason named as the log spells it ("director_called") in words.
fn pause_reason_named(name: &str) -> Option<String> {
    let wire = baffle_proto::v1::PauseReason::from_str_name(&format!(
        "PAUSE_REASON_{}",
        name.to_uppercase()
    ))?;
    pause_reason(wire as i32)
}

fn text(v: &Json) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

#[cfg(test)]
mod tests;
