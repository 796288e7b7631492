//! The live views without a terminal: `baffle follow` and `baffle console` piped into a
//! file or a script print one line per change instead of drawing a screen (which would
//! need a terminal, and panicked without one). `follow` prints each event in words and
//! the match's state after it, or with `--json` one JSON object per update (NDJSON:
//! `{"events": […], "state": {…}}`, the same views as `--json` elsewhere); it ends when
//! the match's result is confirmed — in words, once the server's seed is revealed, after
//! a line saying whether its dice were recomputed here and matched. `console` prints a
//! line per match state until the feed ends.

use std::io::Write;

use baffle_proto::v1;

use super::follow::{DiceShown, dice_verdict};
use crate::feed::{Feed, match_updates, tournament_feed};
use crate::views::{EventView, MatchView, OfflineView, to_line};
use crate::{exit, render, reveal, views, words};

/// A one-line summary of a match: "r1-t7  table 7  ready  Anna 0 – 0 Ben (to 7)".
pub fn summary(s: &v1::MatchState) -> String {
    let mut line = words::say_with(
        "console-line",
        &[
            ("match", s.match_id.clone().into()),
            ("round", s.round.into()),
            ("table", s.table.clone().into()),
            ("status", words::status(views::status(s)).into()),
            ("score", render::score(s).into()),
        ],
    );
    if let Some(reason) = s.clock.as_ref().and_then(|c| words::pause_reason(c.paused)) {
        line.push_str("  ");
        line.push_str(&words::say_with(
            "cli-clock-paused",
            &[("reason", reason.into())],
        ));
    }
    line
}

fn write(out: &mut (dyn Write + Send), text: &str) -> std::io::Result<()> {
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Follows `match_id`, writing lines to `out` until its result is confirmed. Returns the
/// exit status: 0, or 4 when the match does not exist.
pub async fn follow(
    server: String,
    match_id: String,
    json: bool,
    out: &mut (dyn Write + Send),
    err: &mut (dyn Write + Send),
) -> std::io::Result<i32> {
    let mut feed = match_updates(server.clone(), match_id);
    let mut events: Vec<v1::Event> = Vec::new();
    let mut checked = false;
    let mut problem = Problem::default();
    while let Some(f) = feed.recv().await {
        problem.seen(&f);
        match f {
            Feed::Events(e) => events.extend(e),
            Feed::State(s) => {
                let names = [s.player_a.as_str(), s.player_b.as_str()];
                if json {
                    let events: Vec<_> = events.iter().map(|e| EventView::of(e, names)).collect();
                    let update =
                        serde_json::json!({ "events": events, "state": MatchView::of(&s) });
                    write(out, &to_line(&update))?;
                } else {
                    write(out, &render::events_text(&events, names))?;
                    write(out, &format!("{}\n", summary(&s)))?;
                    for line in reveal::live_lines(&s, Some(s.sent_at_ms)) {
                        write(out, &format!("{line}\n"))?;
                    }
                    if !checked && s.dice_revealed && reveal::uses_server_dice(&s) {
                        checked = true;
                        write(out, &format!("{}\n", dice_line(&server, &s).await))?;
                    }
                }
                events.clear();
                if s.result.as_ref().is_some_and(|r| r.confirmed) {
                    return Ok(exit::OK);
                }
            }
            Feed::Problem(p) if problem.fresh(&p) => write(err, &format!("baffle: {p}\n"))?,
            Feed::Problem(_) => {}
            Feed::Offline(_) => {}
            Feed::Gone(why) => {
                write(err, &format!("baffle: {why}\n"))?;
                return Ok(exit::REFUSED);
            }
        }
    }
    Ok(exit::OK)
}

/// The last problem said on standard error: a feed that retries every second said
/// "server unreachable" ten times in a ten-second outage; now once, until something
/// else comes.
#[derive(Default)]
struct Problem(Option<String>);

impl Problem {
    /// Anything but a problem ends the one said.
    fn seen(&mut self, f: &Feed) {
        if !matches!(f, Feed::Problem(_)) {
            self.0 = None;
        }
    }

    /// Whether `p` is new, to be said.
    fn fresh(&mut self, p: &str) -> bool {
        let fresh = self.0.as_deref() != Some(p);
        self.0 = Some(p.to_string());
        fresh
    }
}

/// The dice of a revealed match, recomputed here from its log: verified, or why not.
async fn dice_line(server: &str, s: &v1::MatchState) -> String {
    let check = match crate::connect::connect(server).await {
        Ok(channel) => reveal::check(channel, &s.match_id, &s.head_hash).await,
        Err(e) => reveal::DiceCheck::Unreadable {
            why: format!("server unreachable ({e})"),
        },
    };
    let shown = DiceShown::Checked(check);
    dice_verdict(s, Some(&shown)).unwrap_or_default()
}

/// Watches `tournament`, a line per match state to `out`, until the feed ends. Returns the
/// exit status: 0, or 4 when the tournament does not exist.
pub async fn console(
    server: String,
    tournament: String,
    json: bool,
    out: &mut (dyn Write + Send),
    err: &mut (dyn Write + Send),
) -> std::io::Result<i32> {
    let mut feed = tournament_feed(server, tournament);
    let mut problem = Problem::default();
    while let Some(f) = feed.recv().await {
        problem.seen(&f);
        match f {
            Feed::State(s) if json => write(out, &to_line(&MatchView::of(&s)))?,
            Feed::State(s) => write(out, &format!("{}\n", summary(&s)))?,
            Feed::Events(_) => {}
            Feed::Problem(p) if problem.fresh(&p) => write(err, &format!("baffle: {p}\n"))?,
            Feed::Problem(_) => {}
            Feed::Offline(m) if json => write(out, &to_line(&OfflineView::of(&m)))?,
            Feed::Offline(m) => write(out, &format!("{}\n", words::line_offline(&m)))?,
            Feed::Gone(why) => {
                write(err, &format!("baffle: {why}\n"))?;
                return Ok(exit::REFUSED);
            }
        }
    }
    Ok(exit::OK)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::events_text;

    #[test]
    fn a_problem_is_said_once_until_something_else_comes() {
        let mut problem = Problem::default();
        assert!(problem.fresh("cannot reach the server"));
        assert!(!problem.fresh("cannot reach the server"));
        assert!(problem.fresh("the connection was lost"));
        problem.seen(&Feed::Events(Vec::new()));
        assert!(problem.fresh("the connection was lost"));
    }
    use crate::words::{Language, in_locale};

    fn event(seq: u64, kind: &str, body: &str) -> v1::Event {
        v1::Event {
            seq,
            kind: kind.into(),
            body: body.into(),
            ..Default::default()
        }
    }

    #[test]
    fn the_tables_own_records_are_said_in_greek_too() {
        let events = [
            event(0, "match.opened", r#"{"kind":"match.opened"}"#),
            event(1, "match.setup", r#"{"kind":"match.setup"}"#),
            event(
                2,
                "device.input",
                r#"{"kind":"device.input","device":"t7","outcome":"applied"}"#,
            ),
            event(
                3,
                "device.input",
                r#"{"kind":"device.input","device":"t7","outcome":"refused: not his turn"}"#,
            ),
        ];
        let el = in_locale(Language::El, || events_text(&events, ["Άννα", "Βασίλης"]));
        assert_eq!(
            el,
            "#0 ο αγώνας άνοιξε\n#1 ορίστηκαν οι ρυθμίσεις του αγώνα\n\
             #2 μια ενέργεια από τη συσκευή t7\n\
             #3 μια ενέργεια από τη συσκευή t7, απορρίφθηκε: not his turn\n"
        );
        let en = in_locale(Language::En, || events_text(&events[..1], ["Ann", "Ben"]));
        assert_eq!(en, "#0 the match was opened\n");
    }
}
