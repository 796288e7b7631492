//! Every word the console and the CLI say to a person, in one place with a stable id, so
//! that the whole text can move to the shared message catalogue (Greek and English) in
//! one step: a caller asks for `words::event(..)` or `words::STATUS_*`, never spells a
//! phrase itself. Ids are the function or constant names; keep them when the wording
//! changes.

use serde_json::Value;

/// Status of a match in the room view (`status.*`).
pub const STATUS_WAITING: &str = "waiting";
/// One player checked in.
pub const STATUS_PRESENT: &str = "present";
/// Both players checked in, nothing started.
pub const STATUS_READY: &str = "ready";
/// A game in progress.
pub const STATUS_PLAYING: &str = "playing";
/// Between two games.
pub const STATUS_BETWEEN: &str = "between games";
/// The result is in, not confirmed.
pub const STATUS_OVER: &str = "over";
/// The director confirmed the result.
pub const STATUS_CONFIRMED: &str = "confirmed";
/// Both players won at one instant: the director decides.
pub const STATUS_UNDECIDED: &str = "undecided";

/// The clock is stopped (the console's status column).
pub const STATUS_PAUSED: &str = "paused";

/// Console columns (`console.col.*`).
pub const COL_TABLE: &str = "TBL";
/// Round.
pub const COL_ROUND: &str = "RND";
/// Match id.
pub const COL_MATCH: &str = "MATCH";
/// Players.
pub const COL_PLAYERS: &str = "PLAYERS";
/// Score.
pub const COL_SCORE: &str = "SCORE";
/// Status.
pub const COL_STATUS: &str = "STATUS";
/// Player A's (White's) clock.
pub const COL_CLOCK_A: &str = "CLOCK A/W";
/// Player B's (Black's) clock.
pub const COL_CLOCK_B: &str = "CLOCK B/B";
/// Whose turn.
pub const COL_TURN: &str = "TURN";
/// The table's device online.
pub const COL_DEVICE: &str = "DEV";
/// Winner or pause reason.
pub const COL_NOTE: &str = "WINNER / PAUSE";
/// Every device of the match is connected.
pub const DEVICE_ON: &str = "on";
/// A device of the match is not connected.
pub const DEVICE_OFF: &str = "off";
/// A drawn match.
pub const NOTE_DRAWN: &str = "drawn";
/// Both lost by default (chess 6.7).
pub const NOTE_BOTH_LOST: &str = "both lost (6.7)";
/// The to-do box when there is nothing to do.
pub const TODO_NONE: &str = "nothing to do";
/// The ticker's title.
pub const TICKER_TITLE: &str = " what happened ";
/// The help window's title.
pub const HELP_TITLE: &str = " keys ";
/// The console's keys (`?`).
pub const HELP: &str = "↑↓ j k  select a match
Enter   the selected match in full (any key closes it)
/       only matches whose id, table or players contain a text
Esc     all matches again
p       pause the clock: press the reason's number (chess: stop, 6.12)
r       resume the clock (chess: restart the clocks)
i       check a player in (chess: at the board)
w       a warning to a player
x       penalty points to a player
a       adjust a clock, e.g. A -30s (chess: set a clock, W 5m)
s       correct the score, e.g. 3 2
f       the match forfeited by a player
c       confirm the result
d       dismiss the selected match's dice anomalies
q       quit            (every action asks y/n before it is sent)";
/// Key hints on the bottom line.
pub const HINT: &str =
    "↑↓ select  Enter open  / filter  p pause  r resume  c confirm  ? keys  q quit";
/// Key hints with a chess match selected.
pub const HINT_CHESS: &str =
    "↑↓ select  Enter open  / filter  p stop  r restart  a set clock  ? keys  q quit";
/// The filter prompt.
pub const PROMPT_FILTER: &str = "show matches containing";
/// The chess clock prompt.
pub const PROMPT_CHESS_CLOCK: &str = "set a clock, clocks stopped: colour and time, e.g. W 5m";
/// The chess arrival prompt.
pub const PROMPT_CHESS_ARRIVE: &str = "at the board: W or B";
/// A key that has no meaning in chess.
pub const NOT_IN_CHESS: &str = "not in chess: use `baffle chess MATCH …` for the arbiter's rulings";
/// No match is selected.
pub const NO_MATCH: &str = "no match selected";

/// A prompt for a side that names both players: "penalty points to Anna (A) or Ben (B),
/// e.g. B 1".
pub fn prompt_side(what: &str, a: &str, b: &str, example: &str) -> String {
    format!("{what} {a} (A) or {b} (B), e.g. {example}")
}

/// The pause prompt: the numbered reasons.
pub fn prompt_pause(choices: &[String]) -> String {
    format!("pause, press the reason's number: {}", choices.join(", "))
}

/// The score correction prompt.
pub fn prompt_score(a: &str, b: &str) -> String {
    format!("correct the score: {a}'s points, a space, {b}'s, e.g. 3 2")
}

/// A side that is not A or B.
pub fn bad_side(text: &str) -> String {
    format!("{text:?} is not a side: A or B, a space, then the value")
}

/// A score that is not two numbers.
pub fn bad_score(text: &str) -> String {
    format!("{text:?}: two numbers, A's points then B's, e.g. 3 2")
}

/// The console's title, with the filter in force.
pub fn console_title(tournament: &str, filter: &str) -> String {
    if filter.is_empty() {
        format!(" baffle console — {tournament} ")
    } else {
        format!(" baffle console — {tournament} — only \"{filter}\" (Esc: all) ")
    }
}

/// The to-do box's title.
pub fn todo_title(n: usize) -> String {
    format!(" to do ({n}) ")
}

/// The winner in the note column: "Ben (points)".
pub fn note_winner(winner: &str, how: &str) -> String {
    format!("{winner} ({})", how.replace('_', " "))
}

/// Where a match is: "r1-t7 (table 7)".
pub fn at_table(match_id: &str, table: &str) -> String {
    format!("{match_id} (table {table})")
}

/// To-do: a result to confirm (`todo.confirm`).
pub fn todo_confirm(at: &str, winner: Option<&str>, how: &str) -> String {
    match winner {
        Some(w) => format!(
            "{at}: {w} won ({}) — confirm the result: c",
            how.replace('_', " ")
        ),
        None => format!(
            "{at}: the match is over ({}) — confirm the result: c",
            how.replace('_', " ")
        ),
    }
}

/// To-do: a flag fell and no result follows by itself (`todo.flag`).
pub fn todo_flag(at: &str, who: &str) -> String {
    format!("{at}: {who}'s flag fell — rule on it")
}

/// To-do: both won at one instant (`todo.undecided`).
pub fn todo_undecided(at: &str) -> String {
    format!(
        "{at}: both players won at the same instant (2.2) — decide the match: baffle rule … decide-match A|B"
    )
}

/// To-do: a match offline, its log lost (`todo.offline`).
pub fn todo_offline(at: &str, reason: &str) -> String {
    format!(
        "{at}: OFFLINE, its log did not check out ({reason}) — restore the data directory from a backup (docs/reliability.md)"
    )
}

/// A line of `match list` and the console's line mode for an offline match
/// (`line.offline`).
pub fn line_offline(m: &baffle_proto::v1::OfflineMatch) -> String {
    format!(
        "{} round {} table {}: OFFLINE — {}",
        m.match_id, m.round, m.table, m.reason
    )
}

/// To-do: appeals waiting for the committee (`todo.appeals`).
pub fn todo_appeals(at: &str, n: usize) -> String {
    format!("{at}: {n} appeal(s) waiting for the committee (5)")
}

/// To-do: dice anomalies (`todo.anomalies`).
pub fn todo_anomalies(at: &str, names: [&str; 2], count: u32, last: &str) -> String {
    let said = anomaly(at, names, last);
    if count > 1 {
        format!("{said} ({count} warnings) — d to dismiss")
    } else {
        format!("{said} — d to dismiss")
    }
}

/// Ticker: a flag fell.
pub fn tick_flag(match_id: &str, who: &str) -> String {
    format!("{match_id}: {who}'s flag fell")
}

/// Ticker: a penalty point.
pub fn tick_penalty(match_id: &str, who: &str, total: u32) -> String {
    format!("{match_id}: penalty point to {who} ({total} in all)")
}

/// Ticker: a device left or came back.
pub fn tick_device(match_id: &str, device: &str, connected: bool) -> String {
    if connected {
        format!("{match_id}: device {device} connected")
    } else {
        format!("{match_id}: device {device} disconnected")
    }
}

/// Ticker: the clock stopped.
pub fn tick_paused(match_id: &str, reason: &str) -> String {
    format!("{match_id}: clock paused ({reason})")
}

/// Ticker: a match's status changed.
pub fn tick_status(match_id: &str, status: &str) -> String {
    format!("{match_id}: now {status}")
}

/// Ticker: a command was sent.
pub fn tick_sent(label: &str) -> String {
    format!("sent: {label}")
}

/// Ticker: the server refused a command.
pub fn tick_refused(why: &str) -> String {
    format!("refused: {why}")
}

/// The pause reason as a person says it: `director_called` → "director called".
pub fn pause_reason(wire: i32) -> Option<String> {
    let reason = baffle_proto::v1::PauseReason::try_from(wire).ok()?;
    if reason == baffle_proto::v1::PauseReason::Unspecified {
        return None;
    }
    Some(
        reason
            .as_str_name()
            .trim_start_matches("PAUSE_REASON_")
            .replace('_', " ")
            .to_lowercase(),
    )
}

/// One event of a reply in words (`event.*`), naming players by `names` ([A, B]):
/// "Anna checked in", "opening roll 6-1", "Ben rolled 3-4". An event this table does
/// not know is said from its kind ("bg.wait_out_delay" → "wait out delay").
pub fn event(kind: &str, body: &Value, names: [&str; 2]) -> String {
    let who = |field: &str| -> String {
        match body.get(field).and_then(Value::as_str) {
            Some("A") | Some("a") => names[0].to_string(),
            Some("B") | Some("b") => names[1].to_string(),
            Some(other) => other.to_string(),
            None => "?".to_string(),
        }
    };
    let dice = |field: &str| -> String {
        body.get(field)
            .and_then(Value::as_array)
            .map(|d| {
                d.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join("-")
            })
            .unwrap_or_default()
    };
    let num = |field: &str| body.get(field).map(|v| v.to_string()).unwrap_or_default();
    match kind {
        "bg.checked_in" => format!("{} checked in", who("side")),
        "bg.lateness_point" => format!("lateness point: {} is late", who("side")),
        "bg.break_started" => format!("{} takes a break", who("side")),
        "bg.break_ended" => "the break ended".into(),
        "bg.game_started" => format!("game {} started", num("number")),
        "bg.opening_throw" => format!("opening throw {}", dice("throw")),
        "bg.rolled" => format!("{} rolled {}", who("side"), dice("dice")),
        "bg.roll_invalid" => format!("{}'s roll is invalid: roll again", who("side")),
        "bg.doubled" => format!("{} doubled to {}", who("side"), num("value")),
        "bg.taken" => format!("{} took the double", who("side")),
        "bg.passed" => format!("{} passed the double", who("side")),
        "bg.pressed_back" => format!("{} pressed back", who("side")),
        "bg.requested" => format!("{} asked for the director", who("side")),
        "bg.appealed" => format!("{} appealed a ruling", who("side")),
        "bg.pressed" => format!("{} pressed the clock", who("side")),
        "bg.moved" => format!("{} played {}", who("side"), text(body, "play")),
        "bg.game_ended" => format!("{} won the game", who("winner")),
        "bg.paused" => "the clock is paused".into(),
        "bg.resumed" => "the clock runs again".into(),
        "bg.time_expired" => format!("{}'s time ran out", who("side")),
        "bg.ruling" => format!(
            "ruling under {}",
            body.get("ruling")
                .map_or(String::new(), |r| text(r, "article"))
        ),
        "bg.match_ended" => format!("{} won the match", who("winner")),
        "bg.match_undecided" => "both players won at the same instant: decide the match".into(),
        "chess.started" => "the game started".into(),
        "chess.arrived" => format!("{} is at the board", text(body, "color")),
        "chess.pressed" => format!("{} pressed the clock", text(body, "color")),
        "chess.flag" => format!("{}'s flag fell", text(body, "color")),
        "chess.paused" => "the clocks are stopped".into(),
        "chess.resumed" => "the clocks run again".into(),
        "chess.ended" => "the game ended".into(),
        "dice.roll" => format!("server dice for {}: {}", who("side"), dice("dice")),
        "dice.opening" => "server dice for the opening roll".into(),
        "dice.anomaly" => "the dice watch raised an anomaly".into(),
        _ => kind
            .split_once('.')
            .map_or(kind, |(_, rest)| rest)
            .replace('_', " "),
    }
}

fn text(body: &Value, field: &str) -> String {
    body.get(field)
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_lowercase))
        .unwrap_or_default()
}

/// A dice anomaly in plain words (`alert.anomaly`): the watch's own text keeps its
/// statistics for the log; the director reads who and what.
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
        format!("{match_id}: the dice look wrong: {what}")
    } else {
        format!("{match_id}: {who}'s dice look wrong: {what}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_are_said_in_words_with_names() {
        let names = ["Anna", "Ben"];
        assert_eq!(
            event(
                "bg.opening_throw",
                &json!({"kind": "bg.opening_throw", "throw": [6, 1]}),
                names
            ),
            "opening throw 6-1"
        );
        assert_eq!(
            event("bg.rolled", &json!({"side": "B", "dice": [3, 4]}), names),
            "Ben rolled 3-4"
        );
        assert_eq!(
            event("bg.wait_out_delay", &json!({}), names),
            "wait out delay"
        );
    }

    #[test]
    fn anomalies_name_the_player_without_statistics() {
        let said = anomaly(
            "r1-t7",
            ["Anna", "Ben"],
            "player A's dice: faces are unevenly spread (p = 4.52e-24 over 60 dice)",
        );
        assert_eq!(
            said,
            "r1-t7: Anna's dice look wrong: faces are unevenly spread"
        );
    }
}
