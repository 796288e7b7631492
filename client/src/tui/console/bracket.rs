//! The draw of a tournament that has one (`Draws.WatchDraw`): its current and next
//! rounds with each match's state, who waits for whom, a knockout's bracket per flight
//! in indented lines, the round ready to start (a to-do, `R`), all pure functions of the
//! last [`v1::DrawView`] and the matches' states. `v` or Tab switches the console to it
//! and back; ↑↓ scroll it.

use std::collections::BTreeMap;

use baffle_proto::v1;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::state::{Dashboard, Order, Pending, Prompt, Todo};
use crate::tui::fit;
use crate::words;

const WAITING_FOR_ROUND: i32 = v1::PairingState::WaitingForRound as i32;
const WAITING_FOR_TABLE: i32 = v1::PairingState::WaitingForTable as i32;
const POSTPONED: i32 = v1::PairingState::Postponed as i32;
const PLAYING: i32 = v1::PairingState::Playing as i32;
const DECIDED: i32 = v1::PairingState::Decided as i32;

/// A flight as the wire numbers it, the main draw's "unspecified" taken as the main.
fn flight_of(f: i32) -> i32 {
    if f == v1::Flight::Unspecified as i32 {
        v1::Flight::Main as i32
    } else {
        f
    }
}

/// A flight in words: "main draw", "consolation", "last chance".
fn flight_words(flight: i32) -> String {
    match v1::Flight::try_from(flight_of(flight)) {
        Ok(v1::Flight::Consolation) => words::say("console-draw-flight-consolation"),
        Ok(v1::Flight::LastChance) => words::say("console-draw-flight-last-chance"),
        _ => words::say("console-draw-flight-main"),
    }
}

/// A round of a flight: (flight, round).
type RoundOf = (i32, u32);

/// What the console reads of a draw: its pairings and byes by key, its rounds.
struct Reading<'a> {
    view: &'a v1::DrawView,
    pairings: BTreeMap<&'a str, &'a v1::Pairing>,
    byes: BTreeMap<&'a str, &'a v1::Bye>,
}

impl<'a> Reading<'a> {
    fn new(view: &'a v1::DrawView) -> Reading<'a> {
        Reading {
            view,
            pairings: view.pairings.iter().map(|p| (p.key.as_str(), p)).collect(),
            byes: view.byes.iter().map(|b| (b.key.as_str(), b)).collect(),
        }
    }

    fn knockout(&self) -> bool {
        self.view
            .plan
            .as_ref()
            .is_some_and(|p| p.format == v1::DrawFormat::Knockout as i32)
    }

    fn name(&self, entrant: u32) -> String {
        self.view
            .entrants
            .iter()
            .find(|e| e.number == entrant)
            .and_then(|e| e.details.as_ref())
            .map(|d| d.name.clone())
            .unwrap_or_else(|| format!("#{entrant}"))
    }

    /// The flights that have rounds, in order.
    fn flights(&self) -> Vec<i32> {
        let mut flights: Vec<i32> = self
            .view
            .rounds
            .iter()
            .map(|r| flight_of(r.flight))
            .collect();
        flights.sort();
        flights.dedup();
        flights
    }

    fn round(&self, flight: i32, round: u32) -> Option<&'a v1::Round> {
        self.view
            .rounds
            .iter()
            .find(|r| flight_of(r.flight) == flight && r.round == round)
    }

    fn last_round(&self, flight: i32) -> u32 {
        self.view
            .rounds
            .iter()
            .filter(|r| flight_of(r.flight) == flight)
            .map(|r| r.round)
            .max()
            .unwrap_or(0)
    }

    /// The last round of a flight that started (0: none).
    fn current(&self, flight: i32) -> u32 {
        self.view
            .rounds
            .iter()
            .filter(|r| flight_of(r.flight) == flight && r.started)
            .map(|r| r.round)
            .max()
            .unwrap_or(0)
    }

    fn in_round(&self, (flight, round): RoundOf) -> Vec<&'a v1::Pairing> {
        let mut pairings: Vec<_> = self
            .view
            .pairings
            .iter()
            .filter(|p| flight_of(p.flight) == flight && p.round == round)
            .collect();
        pairings.sort_by_key(|p| p.index);
        pairings
    }

    /// The key of a match of a flight: "M2-1".
    fn key(flight: i32, round: u32, index: u32) -> String {
        let letter = match v1::Flight::try_from(flight_of(flight)) {
            Ok(v1::Flight::Consolation) => 'C',
            Ok(v1::Flight::LastChance) => 'L',
            _ => 'M',
        };
        format!("{letter}{round}-{index}")
    }

    /// How many matches a round of a knockout's flight has: the first round's size
    /// halved each round after.
    fn matches_in(&self, flight: i32, round: u32) -> u32 {
        let rounds = self.last_round(flight);
        if round == 0 || round > rounds {
            return 0;
        }
        1u32.checked_shl(rounds - round).unwrap_or(0)
    }

    /// Who comes out of the slot `key` of a knockout, if known: a decided match's
    /// winner, or a bye's entrant.
    fn winner_of(&self, key: &str) -> Option<String> {
        if let Some(b) = self.byes.get(key) {
            return Some(self.name(b.entrant));
        }
        let p = self.pairings.get(key)?;
        (p.state == DECIDED && p.winner != 0).then(|| self.name(p.winner))
    }

    /// The two feeders of a knockout's match after its flight's first round: M1-1 and
    /// M1-2 feed M2-1 (in every flight: a consolation's first round is fed by another
    /// flight's losers, its later rounds by its own winners).
    fn feeders(flight: i32, round: u32, index: u32) -> Option<[String; 2]> {
        (round > 1).then(|| {
            [
                Self::key(flight, round - 1, 2 * index - 1),
                Self::key(flight, round - 1, 2 * index),
            ]
        })
    }

    /// Where `entrant` is playing now, other than in `key`: that pairing.
    fn playing_elsewhere(&self, entrant: u32, key: &str) -> Option<&'a v1::Pairing> {
        self.view.pairings.iter().find(|p| {
            p.key != key && p.state == PLAYING && (p.player_a == entrant || p.player_b == entrant)
        })
    }

    /// Whom a match waiting for a table waits for: a player still playing elsewhere
    /// ("waits for Anna (playing M1-3 at table 2)"), or a free table.
    fn waits_for(&self, p: &v1::Pairing) -> String {
        for (entrant, name) in [(p.player_a, &p.name_a), (p.player_b, &p.name_b)] {
            if let Some(other) = self.playing_elsewhere(entrant, &p.key) {
                let args = [
                    ("name", name.clone().into()),
                    ("key", other.key.clone().into()),
                    ("table", other.table.clone().into()),
                ];
                return words::say_with("console-draw-waits-for-player", &args);
            }
        }
        words::say("console-draw-waits-for-table")
    }

    /// The first round ready to start: not started, its matches known, and every match
    /// of the flight's earlier rounds decided. A knockout's next round has all its
    /// matches once the round before is decided; a round robin's are known from the draw.
    fn ready(&self) -> Option<RoundOf> {
        if self.view.drawn_at_ms == 0 {
            return None;
        }
        for flight in self.flights() {
            for round in 1..=self.last_round(flight) {
                let Some(r) = self.round(flight, round) else {
                    continue;
                };
                if r.started {
                    continue;
                }
                let earlier_done = self
                    .view
                    .pairings
                    .iter()
                    .filter(|p| flight_of(p.flight) == flight && p.round < round)
                    .all(|p| p.state == DECIDED);
                let before_started =
                    round == 1 || self.round(flight, round - 1).is_some_and(|r| r.started);
                let known = !self.in_round((flight, round)).is_empty();
                if earlier_done && before_started && known {
                    return Some((flight, round));
                }
                // A later round of this flight waits for this one.
                break;
            }
        }
        None
    }
}

/// Spaces that take `text` to `columns` (by terminal width).
fn pad(text: &str, columns: usize) -> String {
    let text = fit::ellipsis(text, columns);
    let fill = columns.saturating_sub(fit::width(&text));
    format!("{text}{}", " ".repeat(fill))
}

fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

/// One line of the draw: its text and colour.
struct Shown {
    text: String,
    style: Style,
}

impl Dashboard {
    /// The state of a pairing in words, with its match's result to confirm if the feed
    /// says so.
    fn pairing_state(&self, r: &Reading, p: &v1::Pairing) -> (String, Style) {
        match p.state {
            WAITING_FOR_ROUND => {
                let args = [("round", p.round.into())];
                (
                    words::say_with("console-draw-waiting-round", &args),
                    Style::default().fg(Color::DarkGray),
                )
            }
            WAITING_FOR_TABLE => (r.waits_for(p), Style::default().fg(Color::Cyan)),
            POSTPONED => (
                words::say("console-draw-postponed"),
                bold().fg(Color::Yellow),
            ),
            PLAYING => {
                let over = self
                    .matches
                    .get(&p.match_id)
                    .and_then(|m| m.result.as_ref())
                    .is_some_and(|r| !r.confirmed);
                let args = [("table", p.table.clone().into())];
                if over {
                    (
                        words::say_with("console-draw-to-confirm", &args),
                        bold().fg(Color::Magenta),
                    )
                } else {
                    (
                        words::say_with("console-draw-playing", &args),
                        Style::default().fg(Color::Green),
                    )
                }
            }
            DECIDED => {
                let score = format!("{}–{}", p.score_a, p.score_b);
                let said = if p.winner != 0 && p.score_a == 0 && p.score_b == 0 {
                    // No points recorded (a forfeit at the table): the winner alone.
                    let args = [("name", r.name(p.winner).into())];
                    words::say_with("console-draw-won-no-score", &args)
                } else if p.winner == 0 {
                    words::say_with("console-draw-drawn", &[("score", score.into())])
                } else if p.unplayed {
                    let args = [("name", r.name(p.winner).into())];
                    words::say_with("console-draw-won-unplayed", &args)
                } else {
                    let args = [("name", r.name(p.winner).into()), ("score", score.into())];
                    words::say_with("console-draw-won", &args)
                };
                (said, Style::default().fg(Color::DarkGray))
            }
            _ => ("-".into(), Style::default()),
        }
    }

    /// A row of a round: key, table, players, state, in `columns`.
    fn pairing_row(&self, r: &Reading, p: &v1::Pairing, columns: usize) -> Shown {
        let (state, style) = self.pairing_state(r, p);
        self.row(
            &p.key, &p.table, &p.name_a, &p.name_b, state, style, columns,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn row(
        &self,
        key: &str,
        table: &str,
        a: &str,
        b: &str,
        state: String,
        style: Style,
        columns: usize,
    ) -> Shown {
        let (key_w, table_w) = columns_of_rows();
        let players_w = players_width(columns);
        let players = fit::players(a, b, players_w, |a, b| {
            words::say_with("console-versus", &[("a", a.into()), ("b", b.into())])
        });
        let state_w = columns.saturating_sub(key_w + table_w + players_w + 3);
        let text = format!(
            "{} {} {} {}",
            pad(key, key_w),
            pad(table, table_w),
            pad(&players, players_w),
            fit::ellipsis(&state, state_w)
        );
        Shown { text, style }
    }

    /// The rows of a round: its pairings, its byes, and in a knockout the matches
    /// whose players are not both known yet ("Anna – winner of M1-2").
    fn round_rows(&self, r: &Reading, of: RoundOf, columns: usize) -> Vec<Shown> {
        let (flight, round) = of;
        let mut rows = Vec::new();
        if r.knockout() {
            for index in 1..=r.matches_in(flight, round) {
                let key = Reading::key(flight, round, index);
                rows.extend(self.slot_row(r, (flight, round), &key, index, columns));
            }
            return rows;
        }
        for p in r.in_round(of) {
            rows.push(self.pairing_row(r, p, columns));
        }
        let key = Reading::key(flight, round, 0);
        let prefix = key.trim_end_matches('0');
        for b in r.view.byes.iter().filter(|b| b.key.starts_with(prefix)) {
            rows.push(self.bye_row(r, b, columns));
        }
        rows
    }

    fn bye_row(&self, r: &Reading, b: &v1::Bye, columns: usize) -> Shown {
        let (key_w, table_w) = columns_of_rows();
        let args = [("name", r.name(b.entrant).into())];
        let text = format!(
            "{} {} {}",
            pad(&b.key, key_w),
            pad("", table_w),
            fit::ellipsis(
                &words::say_with("console-draw-bye", &args),
                columns.saturating_sub(key_w + table_w + 2)
            )
        );
        Shown {
            text,
            style: Style::default().fg(Color::DarkGray),
        }
    }

    /// A slot of a knockout: its pairing, its bye, or who is known of it.
    fn slot_row(
        &self,
        r: &Reading,
        (flight, round): RoundOf,
        key: &str,
        index: u32,
        columns: usize,
    ) -> Option<Shown> {
        if let Some(p) = r.pairings.get(key) {
            return Some(self.pairing_row(r, p, columns));
        }
        if let Some(b) = r.byes.get(key) {
            return Some(self.bye_row(r, b, columns));
        }
        let [one, two] = Reading::feeders(flight, round, index)?;
        let side = |feeder: &str| {
            r.winner_of(feeder).unwrap_or_else(|| {
                words::say_with("console-draw-winner-of", &[("key", feeder.into())])
            })
        };
        let (a, b) = (side(&one), side(&two));
        // It waits for the feeder still undecided (playing, or not yet).
        let open = [&one, &two]
            .into_iter()
            .find(|f| r.winner_of(f).is_none())
            .cloned()
            .unwrap_or_default();
        let state = match r.pairings.get(open.as_str()).filter(|p| p.state == PLAYING) {
            Some(p) => {
                let args = [
                    ("key", open.clone().into()),
                    ("table", p.table.clone().into()),
                ];
                words::say_with("console-draw-waits-for-match-playing", &args)
            }
            None => words::say_with("console-draw-waits-for-match", &[("key", open.into())]),
        };
        Some(self.row(
            key,
            "",
            &a,
            &b,
            state,
            Style::default().fg(Color::DarkGray),
            columns,
        ))
    }

    /// Who waits for whom in the draw shown ([`Dashboard::waits`]).
    #[cfg(test)]
    pub(super) fn who_waits(&self) -> Vec<String> {
        self.draw
            .as_ref()
            .map(|v| self.waits(&Reading::new(v)))
            .unwrap_or_default()
    }

    /// Who waits for whom: each match of a started round waiting for a table (for a
    /// player still playing, or a table), and in a knockout's main draw each known
    /// player of a started round waiting for the winner of a match still played.
    fn waits(&self, r: &Reading) -> Vec<String> {
        let mut said = Vec::new();
        for p in &r.view.pairings {
            if p.state == WAITING_FOR_TABLE {
                let args = [
                    ("key", p.key.clone().into()),
                    ("what", r.waits_for(p).into()),
                ];
                said.push(words::say_with("console-draw-wait-line", &args));
            }
        }
        let flights = if r.knockout() {
            r.flights()
        } else {
            Vec::new()
        };
        for flight in flights {
            for round in 2..=r.current(flight) {
                for index in 1..=r.matches_in(flight, round) {
                    let key = Reading::key(flight, round, index);
                    if r.pairings.contains_key(key.as_str()) || r.byes.contains_key(key.as_str()) {
                        continue;
                    }
                    let Some([one, two]) = Reading::feeders(flight, round, index) else {
                        continue;
                    };
                    let (known, open) = match (r.winner_of(&one), r.winner_of(&two)) {
                        (Some(w), None) => (w, two),
                        (None, Some(w)) => (w, one),
                        _ => continue,
                    };
                    let Some(p) = r.pairings.get(open.as_str()).filter(|p| p.state == PLAYING)
                    else {
                        continue;
                    };
                    let args = [
                        ("key", key.into()),
                        ("name", known.into()),
                        ("other", open.clone().into()),
                        ("table", p.table.clone().into()),
                    ];
                    said.push(words::say_with("console-draw-wait-winner", &args));
                }
            }
        }
        said
    }

    /// A knockout's bracket in indented lines, a flight at a time: each match after the
    /// two that feed it, indented by its round, the final last.
    fn bracket(&self, r: &Reading, columns: usize) -> Vec<Shown> {
        let mut lines = Vec::new();
        for flight in r.flights() {
            let args = [("flight", flight_words(flight).into())];
            lines.push(Shown {
                text: words::say_with("console-draw-bracket-title", &args),
                style: bold(),
            });
            let last = r.last_round(flight);
            if last > 0 {
                self.subtree(r, (flight, last), 1, columns, &mut lines);
            }
        }
        lines
    }

    fn subtree(
        &self,
        r: &Reading,
        (flight, round): RoundOf,
        index: u32,
        columns: usize,
        out: &mut Vec<Shown>,
    ) {
        if round > 1 {
            self.subtree(r, (flight, round - 1), 2 * index - 1, columns, out);
            self.subtree(r, (flight, round - 1), 2 * index, columns, out);
        }
        let key = Reading::key(flight, round, index);
        let indent = "  ".repeat(round as usize - 1);
        let text = if let Some(p) = r.pairings.get(key.as_str()) {
            self.bracket_line(r, p, round, columns).text
        } else if let Some(b) = r.byes.get(key.as_str()) {
            let args = [("name", r.name(b.entrant).into())];
            format!(
                "{indent}{key} {}",
                words::say_with("console-draw-bye", &args)
            )
        } else if let Some([one, two]) = Reading::feeders(flight, round, index) {
            let side = |f: &str| {
                r.winner_of(f).unwrap_or_else(|| {
                    words::say_with("console-draw-winner-of", &[("key", f.into())])
                })
            };
            let pair = words::say_with(
                "console-versus",
                &[("a", side(&one).into()), ("b", side(&two).into())],
            );
            format!("{indent}{key} {pair}")
        } else {
            format!("{indent}{key}")
        };
        out.push(Shown {
            text: fit::ellipsis(&text, columns),
            style: Style::default(),
        });
    }

    fn bracket_line(&self, r: &Reading, p: &v1::Pairing, round: u32, columns: usize) -> Shown {
        let indent = "  ".repeat(round.saturating_sub(1) as usize);
        let (state, style) = self.pairing_state(r, p);
        let head = format!("{indent}{} ", p.key);
        let room = columns.saturating_sub(fit::width(&head) + fit::width(&state) + 3);
        let players = fit::players(&p.name_a, &p.name_b, room.max(9), |a, b| {
            words::say_with("console-versus", &[("a", a.into()), ("b", b.into())])
        });
        Shown {
            text: fit::ellipsis(&format!("{head}{players}: {state}"), columns),
            style,
        }
    }

    /// The draw's lines in `columns`: rounds now and next per flight, who waits for
    /// whom, and a knockout's bracket.
    fn draw_lines(&self, view: &v1::DrawView, columns: usize) -> Vec<Shown> {
        let r = Reading::new(view);
        let mut lines = Vec::new();
        if view.drawn_at_ms == 0 {
            lines.push(Shown {
                text: words::say("console-draw-not-made"),
                style: Style::default().fg(Color::DarkGray),
            });
            return lines;
        }
        let (key_w, table_w) = columns_of_rows();
        lines.push(Shown {
            text: format!(
                "{} {} {} {}",
                pad(&words::say("console-col-match"), key_w),
                pad(&words::say("console-col-table"), table_w),
                pad(&words::say("console-col-players"), players_width(columns)),
                words::say("console-col-status")
            ),
            style: bold(),
        });
        for flight in r.flights() {
            let current = r.current(flight);
            let mut shown = Vec::new();
            if current > 0 {
                shown.push((current, "console-draw-round-now"));
            }
            if current < r.last_round(flight) {
                shown.push((current + 1, "console-draw-round-next"));
            }
            for (round, id) in shown {
                let args = [
                    ("flight", flight_words(flight).into()),
                    ("round", round.into()),
                ];
                lines.push(Shown {
                    text: words::say_with(id, &args),
                    style: bold().fg(Color::Cyan),
                });
                lines.extend(self.round_rows(&r, (flight, round), columns));
            }
        }
        let waits = self.waits(&r);
        if !waits.is_empty() {
            lines.push(Shown {
                text: words::say("console-draw-waits-title"),
                style: bold().fg(Color::Cyan),
            });
            lines.extend(waits.into_iter().map(|w| Shown {
                text: fit::ellipsis(&w, columns),
                style: Style::default().fg(Color::Yellow),
            }));
        }
        if r.knockout() {
            lines.extend(self.bracket(&r, columns));
        }
        lines
    }

    /// Draws the draw in `area`, scrolled.
    pub(super) fn draw_draw(&self, frame: &mut Frame, area: Rect) {
        let columns = area.width.saturating_sub(2) as usize;
        let lines: Vec<Line> = match &self.draw {
            Some(view) => self
                .draw_lines(view, columns)
                .into_iter()
                .map(|s| Line::styled(s.text, s.style))
                .collect(),
            None => vec![Line::from(words::say("console-draw-none"))],
        };
        let visible = area.height.saturating_sub(2) as usize;
        let scroll = self
            .draw_scroll
            .min(lines.len().saturating_sub(visible) as u16);
        let format = match self
            .draw
            .as_ref()
            .and_then(|v| v.plan.as_ref())
            .map(|p| p.format)
        {
            Some(f) if f == v1::DrawFormat::RoundRobin as i32 => {
                words::say("console-draw-format-round-robin")
            }
            Some(f) if f == v1::DrawFormat::Swiss as i32 => words::say("console-draw-format-swiss"),
            _ => words::say("console-draw-format-knockout"),
        };
        let args = [
            ("tournament", self.tournament.clone().into()),
            ("format", format.into()),
        ];
        let title = format!(" {} ", words::say_with("console-draw-title", &args));
        frame.render_widget(
            Paragraph::new(lines)
                .scroll((scroll, 0))
                .block(Block::default().borders(Borders::ALL).title(title)),
            area,
        );
    }

    /// The draw's to-dos: the round ready to start.
    pub(super) fn draw_todos(&self) -> Vec<Todo> {
        let Some(view) = &self.draw else {
            return Vec::new();
        };
        let r = Reading::new(view);
        r.ready()
            .map(|(flight, round)| {
                let args = [
                    ("flight", flight_words(flight).into()),
                    ("round", round.into()),
                ];
                Todo {
                    match_id: Reading::key(flight, round, 1),
                    text: words::say_with("console-todo-round-ready", &args),
                    urgency: 1,
                }
            })
            .into_iter()
            .collect()
    }

    /// `R`: asks y/n to start the round ready to start; says so on the ticker if none is.
    pub(super) fn ask_start_round(&mut self) {
        let ready = self.draw.as_ref().and_then(|v| Reading::new(v).ready());
        let Some((flight, round)) = ready else {
            self.tick(words::say("console-no-round-ready"));
            return;
        };
        let args = [
            ("flight", flight_words(flight).into()),
            ("round", round.into()),
        ];
        self.prompt = Some(Prompt::Confirm(Pending {
            match_id: self.tournament.clone(),
            order: Order::StartRound { flight, round },
            ruling: None,
            label: words::say_with("console-do-start-round", &args),
        }));
    }
}

/// The width of a round's players' column in `columns`: a little less than half of
/// what the key and table leave, the rest for the state.
fn players_width(columns: usize) -> usize {
    let (key, table) = columns_of_rows();
    columns.saturating_sub(key + table + 3) * 9 / 20
}

/// The widths of a round's key and table columns.
fn columns_of_rows() -> (usize, usize) {
    let key = fit::width(&words::say("console-col-match")).max(5);
    let table = fit::width(&words::say("console-col-table")).max(3);
    (key, table)
}
