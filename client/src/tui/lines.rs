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

use super::app::{Feed, match_updates, tournament_feed};
use super::follow::{DiceShown, dice_verdict};
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
    while let Some(f) = feed.recv().await {
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
            Feed::Problem(p) => write(err, &format!("baffle: {p}\n"))?,
            Feed::Offline(_) => {}
            Feed::Gone(why) => {
                write(err, &format!("baffle: {why}\n"))?;
                return Ok(exit::REFUSED);
            }
        }
    }
    Ok(exit::OK)
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
    while let Some(f) = feed.recv().await {
        match f {
            Feed::State(s) if json => write(out, &to_line(&MatchView::of(&s)))?,
            Feed::State(s) => write(out, &format!("{}\n", summary(&s)))?,
            Feed::Events(_) => {}
            Feed::Problem(p) => write(err, &format!("baffle: {p}\n"))?,
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
