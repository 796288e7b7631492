//! `baffle console TOURNAMENT`: the live dashboard of a room. Every match of the
//! tournament from its creation, sorted by round and table, with its status in words,
//! clocks ticking locally, the winner and whether its table's device is online; a
//! persistent to-do list (results to confirm, flags, dice anomalies, undecided matches,
//! appeals, seeds awaited and overdue, press-back claims) that stays until the thing is
//! done, apart from a ticker of what happened; and keys for the director's common moves,
//! each behind a confirmation (`?` lists them).
//!
//! The state here is pure (updates and keys in, drawing out): `state.rs` holds it,
//! `keys.rs` turns keys into commands, `draw.rs` draws, `dice.rs` says what the seeds and
//! dice need, `app.rs` connects it to the server and the terminal (and fetches what
//! `dice.rs` asks for).

mod bracket;
mod dice;
mod draw;
mod input;
mod keys;
mod state;

use baffle_proto::v1;

pub use dice::Wanted;
pub use keys::{Key, Pressed};
use state::name;
pub use state::{Claim, Dashboard, InputKind, Order, Pending, Prompt, Todo};

use crate::{views, words};

/// Lines of the ticker kept (the screen shows the newest that fit).
const TICKER: usize = 50;

/// Text folded for the filter as the page's search folds it: no case, no accents, final
/// sigma as sigma ("Παπαδόπουλος" finds "παπαδοπουλος", "Müller" finds "muller").
fn folded(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'ς' { 'σ' } else { c })
        .collect()
}

/// A table label's order: numbers as numbers (7 before 10), then the rest as text.
fn table_key(table: &str) -> (u64, String) {
    (table.parse().unwrap_or(u64::MAX), table.to_string())
}

impl Dashboard {
    /// An empty dashboard for `tournament`.
    pub fn new(tournament: &str) -> Dashboard {
        Dashboard {
            tournament: tournament.to_string(),
            ..Dashboard::default()
        }
    }

    /// Notes the server's clock: a state sent at `sent_at_ms` (the server's) arrived when
    /// this machine's clock read `local_ms`. A state without `sent_at_ms` says nothing.
    pub fn heard_from_server(&mut self, sent_at_ms: i64, local_ms: i64) {
        if sent_at_ms > 0 {
            self.server_offset_ms = sent_at_ms - local_ms;
        }
    }

    /// The server's clock when this machine's reads `local_ms`: what the dashboard is
    /// drawn at, so clocks tick and deadlines pass on the server's time.
    pub fn server_now(&self, local_ms: i64) -> i64 {
        local_ms + self.server_offset_ms
    }

    /// Adds a line to the ticker.
    pub fn tick(&mut self, text: String) {
        self.ticker.push_front(text);
        self.ticker.truncate(TICKER);
    }

    /// The matches in display order, round, then table (numerically), then id; only
    /// those the filter lets through.
    pub fn rows(&self) -> Vec<&v1::MatchState> {
        let needle = folded(&self.filter);
        let mut rows: Vec<_> = self
            .matches
            .values()
            .filter(|s| {
                needle.is_empty()
                    || [&s.match_id, &s.table, &s.player_a, &s.player_b]
                        .iter()
                        .any(|f| folded(f).contains(&needle))
            })
            .collect();
        rows.sort_by(|a, b| {
            (a.round, table_key(&a.table), &a.match_id).cmp(&(
                b.round,
                table_key(&b.table),
                &b.match_id,
            ))
        });
        rows
    }

    /// What the director has to do at `now_ms` (the server's clock), most urgent first.
    /// Each item lasts as long as its cause: a result until confirmed, a decision until
    /// made, a seed until revealed (an alert once its deadline passed), anomalies and
    /// press-back claims until dismissed.
    pub fn todos(&self, now_ms: i64) -> Vec<Todo> {
        let mut todos: Vec<Todo> = self
            .offline
            .values()
            .map(|m| Todo {
                match_id: m.match_id.clone(),
                text: words::say_with(
                    "console-todo-offline",
                    &[
                        ("at", words::at_table(&m.match_id, &m.table).into()),
                        ("reason", m.reason.clone().into()),
                    ],
                ),
                urgency: 0,
            })
            .collect();
        for s in self.rows() {
            let mut add = |urgency, text: String| {
                todos.push(Todo {
                    match_id: s.match_id.clone(),
                    text,
                    urgency,
                })
            };
            let at = words::at_table(&s.match_id, &s.table);
            if s.awaiting_decision {
                add(
                    0,
                    words::say_with("console-todo-undecided", &[("at", at.clone().into())]),
                );
            }
            if let Some(f) = s.clock.as_ref().and_then(|c| c.first_flag)
                && s.result.is_none()
            {
                let args = [("at", at.clone().into()), ("name", name(s, f.side).into())];
                add(0, words::say_with("console-todo-flag", &args));
            }
            if let Some(o) = s.uncredited_outage.as_ref() {
                // A restart's outage charged a clock more than the server gave back: the
                // rest is the director's ruling (docs/server.md, "A restart").
                let args = [
                    ("at", at.clone().into()),
                    ("name", name(s, o.side).into()),
                    ("time", baffle_core::Millis::ms(o.ms).to_string().into()),
                ];
                add(0, words::say_with("console-todo-outage", &args));
            }
            if let Some(r) = s.result.as_ref().filter(|r| !r.confirmed) {
                let nobody = [v1::MatchEndKind::Draw, v1::MatchEndKind::DoubleDefault]
                    .map(|k| k as i32)
                    .contains(&r.how_kind);
                let winner = (!nobody).then(|| name(s, r.winner));
                add(1, words::todo_confirm(&at, winner, r.how_kind));
            }
            let pending = s
                .appeals
                .iter()
                .filter(|a| a.decision == v1::AppealDecision::Unspecified as i32)
                .count();
            if pending > 0 {
                let args = [
                    ("at", at.clone().into()),
                    ("count", (pending as u32).into()),
                ];
                add(1, words::say_with("console-todo-appeals", &args));
            }
            let seen = self.anomalies_seen.get(&s.match_id).copied().unwrap_or(0);
            if s.dice_anomalies > seen {
                let names = [s.player_a.as_str(), s.player_b.as_str()];
                add(
                    1,
                    words::todo_anomalies(&at, names, s.dice_anomalies, &s.last_anomaly),
                );
            }
            todos.extend(self.dice_todos(s, now_ms));
        }
        todos.extend(self.draw_todos());
        todos.sort_by_key(|t| t.urgency);
        todos
    }

    /// Takes a new state of a match and puts what changed on the ticker; returns what
    /// the dashboard needs fetched to say the rest (records that may hold a press-back,
    /// a revealed seed's dice to check).
    pub fn update(&mut self, s: v1::MatchState) -> Vec<Wanted> {
        let before = self.matches.get(&s.match_id).cloned();
        let id = s.match_id.clone();
        if let Some(before) = &before {
            self.changes(before, &s);
        }
        let wanted = self.wanted(before.as_ref(), &s);
        self.matches.insert(id, s);
        wanted
    }

    /// The ticker lines for what changed between `before` and `s`.
    fn changes(&mut self, before: &v1::MatchState, s: &v1::MatchState) {
        let id = &s.match_id;
        let flag = |m: &v1::MatchState| m.clock.as_ref().and_then(|c| c.first_flag);
        if let (None, Some(f)) = (flag(before), flag(s)) {
            let args = [
                ("match", id.clone().into()),
                ("name", name(s, f.side).into()),
            ];
            self.tick(words::say_with("console-tick-flag", &args));
        }
        for (i, side) in [v1::Side::A, v1::Side::B].into_iter().enumerate() {
            let (was, now) = (
                before.penalty_points.get(i).copied().unwrap_or(0),
                s.penalty_points.get(i).copied().unwrap_or(0),
            );
            if now > was {
                let args = [
                    ("match", id.clone().into()),
                    ("name", name(s, side as i32).into()),
                    ("total", now.into()),
                ];
                self.tick(words::say_with("console-tick-penalty", &args));
            }
        }
        // A player's name corrected (`match.renamed`), and the director's warnings: the
        // rulings a state shows only by a name and a count.
        for (side, was, now) in [
            ("A", &before.player_a, &s.player_a),
            ("B", &before.player_b, &s.player_b),
        ] {
            if was != now {
                let args = [
                    ("match", id.clone().into()),
                    ("side", side.into()),
                    ("old", was.clone().into()),
                    ("new", now.clone().into()),
                ];
                self.tick(words::say_with("console-tick-renamed", &args));
            }
        }
        for (i, side) in [v1::Side::A, v1::Side::B].into_iter().enumerate() {
            let (was, now) = (
                before.warnings.get(i).copied().unwrap_or(0),
                s.warnings.get(i).copied().unwrap_or(0),
            );
            if now > was {
                let args = [
                    ("match", id.clone().into()),
                    ("name", name(s, side as i32).into()),
                    ("total", now.into()),
                ];
                self.tick(words::say_with("console-tick-warning", &args));
            }
        }
        if s.dice_anomalies > before.dice_anomalies {
            let names = [s.player_a.as_str(), s.player_b.as_str()];
            self.tick(words::anomaly(id, names, &s.last_anomaly));
        }
        for d in &s.devices {
            let was = before
                .devices
                .iter()
                .find(|b| b.device_id == d.device_id)
                .map(|b| b.connected);
            match (was, d.connected) {
                (Some(true), false) => self.tick(words::tick_device(id, &d.device_id, false)),
                (Some(false) | None, true) => self.tick(words::tick_device(id, &d.device_id, true)),
                _ => {}
            }
        }
        let paused = |m: &v1::MatchState| m.clock.as_ref().map_or(0, |c| c.paused);
        if paused(s) != 0 && paused(before) == 0 {
            let reason = words::pause_reason(paused(s)).unwrap_or_default();
            let args = [("match", id.clone().into()), ("reason", reason.into())];
            self.tick(words::say_with("console-tick-paused", &args));
        }
        if views::status(s) != views::status(before) {
            let args = [
                ("match", id.clone().into()),
                ("status", words::status(views::status(s)).into()),
            ];
            self.tick(words::say_with("console-tick-status", &args));
        }
    }

    fn selected_match(&self) -> Option<&v1::MatchState> {
        self.rows().get(self.selected).copied()
    }
}

#[cfg(test)]
mod tests;
