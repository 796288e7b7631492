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
//! (`views`), never these words, except an event's `text`, which is always English. An
//! event's words are the server's (`v1::Event.words`): [`event`] only formats them.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::{LazyLock, OnceLock};
use std::task::{Context, Poll};

use baffle_i18n::describe::describe;
use baffle_i18n::turn::{self, Form};
use baffle_i18n::{Catalogue, Locale, Value};
use baffle_proto::v1;

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

pub use baffle_i18n::choose;

fn catalogue() -> &'static Catalogue {
    match locale() {
        Locale::El => &GREEK,
        Locale::En => &ENGLISH,
    }
}

/// A chess match's game line: "game 2 of 4 · rapid · FIDE 2014 · 960 #518 …"
/// ([`Catalogue::chess_game`]).
pub fn chess_game(s: &v1::MatchState, c: &v1::ChessState) -> String {
    catalogue().chess_game(s, c)
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

/// A match's status (`MatchState.status`, [`crate::views::status`]) in words: playing →
/// "σε εξέλιξη"; "-" from a server that does not send it.
pub fn status(status: v1::MatchStatus) -> String {
    catalogue()
        .enum_value("MatchStatus", status as i32)
        .unwrap_or_else(|| "-".into())
}

/// The pause reason in words (`pause-reason-*`, the page's ids, found from the proto's
/// numbers), or `None` for 0 and values the proto does not have.
pub fn pause_reason(wire: i32) -> Option<String> {
    catalogue().enum_value("PauseReason", wire)
}

/// The words of value `value` of the proto enum `enum_name` ("ChessReason"), or nothing
/// for a value this catalogue does not know.
pub fn enum_words(enum_name: &str, value: i32) -> String {
    catalogue().enum_value(enum_name, value).unwrap_or_default()
}

/// How a match ended (`MatchResult.how_kind`) in words (`match-end-kind-*`); nothing
/// for a value this catalogue does not know.
pub fn how(how_kind: i32) -> String {
    enum_words("MatchEndKind", how_kind)
}

pub use baffle_i18n::time_of_day;

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
pub fn todo_confirm(at: &str, winner: Option<&str>, how_won: i32) -> String {
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

/// One event of a match's log in words, naming players by `names` ([A, B]): the words
/// the server computed for it (`v1::Event.words`), formatted from the catalogue; an
/// event from a server older than those words is put into words here by the same
/// function the server uses (`baffle_i18n::describe`).
pub fn event(e: &v1::Event, names: [&str; 2]) -> String {
    match &e.words {
        Some(said) => words(said, names),
        None => {
            let body = serde_json::from_str(&e.body).unwrap_or_default();
            words(&describe(&e.kind, &body), names)
        }
    }
}

/// Words of the server's (`v1::Words`) in the chosen language.
pub fn words(said: &v1::Words, names: [&str; 2]) -> String {
    catalogue().words(said, names)
}

/// Whose turn it is in backgammon match `s` and what the game waits for, the sides
/// named by `names` ([A, B]): in a line, the server's words (`turn_words`), else —
/// from an older server, or in a cell — those of `baffle_i18n::turn`, the function the
/// server calls. Empty in chess.
pub fn turn(s: &v1::MatchState, form: Form, names: [&str; 2]) -> String {
    let said = match form {
        Form::Line => s.turn_words.clone().or_else(|| turn::turn(s, form)),
        Form::Cell => turn::turn(s, form),
    };
    said.map_or(String::new(), |w| words(&w, names))
}

/// The cube of backgammon match `s` in a line ("cube 2 B", `baffle_i18n::turn::cube`),
/// the owner named by `names`. Empty in chess.
pub fn cube(s: &v1::MatchState, names: [&str; 2]) -> String {
    turn::cube(s).map_or(String::new(), |w| words(&w, names))
}

#[cfg(test)]
mod tests;
