//! `baffle console TOURNAMENT`: the live dashboard. Every match of the tournament with its
//! clocks ticking locally, alerts as they happen, and keys for the director's common moves,
//! each behind a confirmation. The state here is pure (updates and keys in, drawing out);
//! `app.rs` connects it to the server and the terminal.

use std::collections::{BTreeMap, VecDeque};

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};

use crate::render;
use baffle_proto::faces::{faces, mmss};

/// Alerts kept on screen.
const ALERTS: usize = 8;

/// A command the director confirmed, to send to the server.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The match.
    pub match_id: String,
    /// The action.
    pub action: Action,
    /// The ruling, for director actions.
    pub ruling: Option<v1::Ruling>,
    /// What it is, for the confirmation and the alert after it.
    pub label: String,
}

/// What the director is being asked.
#[derive(Clone, Debug, PartialEq)]
pub enum Prompt {
    /// "… ? y/n"
    Confirm(Pending),
    /// A line of text for an action that needs it: `"A -30s"` or `"B 1"`.
    Input {
        /// What is asked.
        label: String,
        /// What was typed so far.
        buffer: String,
        /// Which action the text is for.
        kind: InputKind,
    },
}

/// The pause reasons the console offers, numbered from 1 as in its prompt: every reason
/// the backgammon rules allow a director to stop the clock for.
fn pause_reasons() -> Vec<baffle_core::clock::PauseReason> {
    use baffle_core::clock::PauseReason;
    PauseReason::ALL
        .into_iter()
        .filter(|r| *r != PauseReason::DirectorStopped)
        .collect()
}

/// Actions that take text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// "1" to "8": pause with that reason.
    PauseReason,
    /// "A -30s": adjust a clock (4.3 (v)).
    AdjustClock,
    /// "B 1": award penalty points (2.3).
    AwardPoints,
    /// "W 5m": set a chess clock, clocks stopped (6.10).
    SetChessClock,
}

/// A key the dashboard understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Move the selection up.
    Up,
    /// Move the selection down.
    Down,
    /// A character.
    Char(char),
    /// Enter.
    Enter,
    /// Escape: cancel a prompt.
    Esc,
    /// Backspace.
    Backspace,
}

/// The dashboard's state.
#[derive(Clone, Debug, Default)]
pub struct Dashboard {
    /// The tournament shown.
    pub tournament: String,
    /// Its matches, by id.
    pub matches: BTreeMap<String, v1::MatchState>,
    /// The selected row.
    pub selected: usize,
    /// Recent alerts, newest first.
    pub alerts: VecDeque<String>,
    /// The open prompt.
    pub prompt: Option<Prompt>,
    /// A connection problem.
    pub connection: Option<String>,
}

fn name(s: &v1::MatchState, side: i32) -> &str {
    if side == v1::Side::B as i32 {
        &s.player_b
    } else {
        &s.player_a
    }
}

impl Dashboard {
    /// An empty dashboard for `tournament`.
    pub fn new(tournament: &str) -> Dashboard {
        Dashboard {
            tournament: tournament.to_string(),
            ..Dashboard::default()
        }
    }

    fn alert(&mut self, text: String) {
        self.alerts.push_front(text);
        self.alerts.truncate(ALERTS);
    }

    /// The matches in display order: round, then table, then id.
    pub fn rows(&self) -> Vec<&v1::MatchState> {
        let mut rows: Vec<_> = self.matches.values().collect();
        rows.sort_by(|a, b| {
            (a.round, &a.table, &a.match_id).cmp(&(b.round, &b.table, &b.match_id))
        });
        rows
    }

    /// Takes a new state of a match and raises the alerts its changes call for.
    pub fn update(&mut self, s: v1::MatchState) {
        let before = self.matches.get(&s.match_id).cloned();
        let id = s.match_id.clone();
        if let Some(before) = &before {
            let flag = |m: &v1::MatchState| m.clock.as_ref().and_then(|c| c.first_flag);
            if let (None, Some(f)) = (flag(before), flag(&s)) {
                self.alert(format!("{id}: {}'s flag fell", name(&s, f.side)));
            }
            for (i, side) in [v1::Side::A, v1::Side::B].into_iter().enumerate() {
                let (was, now) = (
                    before.penalty_points.get(i).copied().unwrap_or(0),
                    s.penalty_points.get(i).copied().unwrap_or(0),
                );
                if now > was {
                    self.alert(format!(
                        "{id}: penalty point to {} ({now} in all)",
                        name(&s, side as i32)
                    ));
                }
            }
            if s.dice_anomalies > before.dice_anomalies {
                self.alert(format!("{id}: dice anomaly: {}", s.last_anomaly));
            }
            for d in &s.devices {
                let was = before
                    .devices
                    .iter()
                    .find(|b| b.device_id == d.device_id)
                    .is_some_and(|b| b.connected);
                if was && !d.connected {
                    self.alert(format!("{id}: device {} disconnected", d.device_id));
                }
            }
            let paused = |m: &v1::MatchState| m.clock.as_ref().map_or(0, |c| c.paused);
            if paused(&s) != 0 && paused(before) == 0 {
                let reason = v1::PauseReason::try_from(paused(&s))
                    .map(|p| p.as_str_name())
                    .unwrap_or("?");
                self.alert(format!(
                    "{id}: clock paused ({})",
                    reason.trim_start_matches("PAUSE_REASON_").to_lowercase()
                ));
            }
        }
        if s.awaiting_decision && before.as_ref().is_none_or(|b| !b.awaiting_decision) {
            self.alert(format!(
                "{id}: both players won at the same instant (2.2): decide the match \
                 (baffle rule {id} … decide-match a|b)"
            ));
        }
        let appeals = |m: &v1::MatchState| m.appeals.len();
        if appeals(&s) > before.as_ref().map_or(0, appeals) {
            self.alert(format!("{id}: a ruling is appealed to the committee (5)"));
        }
        if let Some(r) = s.result.as_ref().filter(|r| !r.confirmed) {
            let new = before.as_ref().is_none_or(|b| b.result.is_none());
            if new {
                self.alert(format!(
                    "{id}: {} won ({}): waiting for your confirmation (c)",
                    name(&s, r.winner),
                    r.how
                ));
            }
        }
        self.matches.insert(id, s);
    }

    fn selected_match(&self) -> Option<&v1::MatchState> {
        self.rows().get(self.selected).copied()
    }

    /// Handles a key; returns a command once the director confirmed it.
    pub fn key(&mut self, key: Key) -> Option<Pending> {
        match self.prompt.take() {
            Some(prompt) => self.prompt_key(prompt, key),
            None => {
                let chess = self.selected_match().is_some_and(|m| m.chess.is_some());
                if !(chess && self.chess_key(key)) {
                    self.match_key(key);
                }
                None
            }
        }
    }

    /// A key while a prompt is open: confirm or cancel, or edit the input.
    fn prompt_key(&mut self, prompt: Prompt, key: Key) -> Option<Pending> {
        match prompt {
            Prompt::Confirm(pending) => match key {
                Key::Char('y') | Key::Enter => {
                    self.alert(format!("sent: {}", pending.label));
                    Some(pending)
                }
                _ => None, // anything else cancels
            },
            Prompt::Input {
                label,
                mut buffer,
                kind,
            } => {
                match key {
                    Key::Esc => return None,
                    Key::Enter => {
                        match self.parse_input(kind, &buffer) {
                            Ok(pending) => self.prompt = Some(Prompt::Confirm(pending)),
                            Err(e) => self.alert(e),
                        }
                        return None;
                    }
                    Key::Backspace => {
                        buffer.pop();
                    }
                    Key::Char(c) => buffer.push(c),
                    _ => {}
                }
                self.prompt = Some(Prompt::Input {
                    label,
                    buffer,
                    kind,
                });
                None
            }
        }
    }

    /// A confirmation of `action` (with a ruling) on the selected match, if any.
    fn confirm(&self, action: Action, ruling: Option<(&str, &str)>, label: &str) -> Option<Prompt> {
        let match_id = self.selected_match()?.match_id.clone();
        let ruling = ruling.map(|(reason, article)| v1::Ruling {
            reason: reason.into(),
            article: article.into(),
        });
        Some(Prompt::Confirm(Pending {
            label: format!("{label} in {match_id}"),
            match_id,
            action,
            ruling,
        }))
    }

    /// An input prompt.
    fn ask(&mut self, label: &str, kind: InputKind) {
        self.prompt = Some(Prompt::Input {
            label: label.into(),
            buffer: String::new(),
            kind,
        });
    }

    /// The keys that differ in chess: the arbiter stops the clocks (6.12) and restarts
    /// them; sets a clock (6.10) rather than adjusting it; there are no points to award
    /// or confirm. False for a key that is the same in both games.
    fn chess_key(&mut self, key: Key) -> bool {
        let chess_action =
            |a: v1::chess_command::Action| Action::Chess(v1::ChessCommand { action: Some(a) });
        match key {
            Key::Char('p') => {
                let stop = chess_action(v1::chess_command::Action::Pause(
                    v1::PauseReason::DirectorStopped as i32,
                ));
                let ruling = Some(("stopped at the console", "6.12 (a)"));
                self.prompt = self.confirm(stop, ruling, "stop the clocks (6.12)");
            }
            Key::Char('r') => {
                let restart = chess_action(v1::chess_command::Action::Resume(v1::Empty {}));
                let ruling = Some(("restarted at the console", "6.12 (c)"));
                self.prompt = self.confirm(restart, ruling, "restart the clocks (6.12)");
            }
            Key::Char('a') => self.ask(
                "set clock, clocks stopped: colour and time, e.g. W 5m",
                InputKind::SetChessClock,
            ),
            Key::Char('x' | 'c') => self
                .alert("not in chess: use `baffle chess MATCH …` for the arbiter's rulings".into()),
            _ => return false,
        }
        true
    }

    /// A key on the match list: move the selection, or start a director's action.
    fn match_key(&mut self, key: Key) {
        let count = self.matches.len();
        let selected = self.selected_match().is_some();
        match key {
            Key::Up | Key::Char('k') => self.selected = self.selected.saturating_sub(1),
            Key::Down | Key::Char('j') => {
                self.selected = (self.selected + 1).min(count.saturating_sub(1))
            }
            Key::Char('p') if selected => {
                let choices: Vec<String> = pause_reasons()
                    .iter()
                    .enumerate()
                    .map(|(i, r)| format!("{} {}", i + 1, r.describe()))
                    .collect();
                self.ask(
                    &format!("pause: {}", choices.join(", ")),
                    InputKind::PauseReason,
                )
            }
            Key::Char('r') => {
                self.prompt = self.confirm(Action::Resume(v1::Empty {}), None, "resume the clock")
            }
            Key::Char('c') => {
                self.prompt = self.confirm(
                    Action::ConfirmResult(v1::Empty {}),
                    Some(("confirmed at the console", "4.6")),
                    "confirm the result",
                )
            }
            Key::Char('a') if selected => self.ask(
                "adjust clock: side and time, e.g. A -30s",
                InputKind::AdjustClock,
            ),
            Key::Char('x') if selected => self.ask(
                "penalty points: side and points, e.g. B 1",
                InputKind::AwardPoints,
            ),
            _ => {}
        }
    }

    fn parse_input(&self, kind: InputKind, text: &str) -> Result<Pending, String> {
        let match_id = self
            .selected_match()
            .map(|m| m.match_id.clone())
            .ok_or("no match selected")?;
        if kind == InputKind::PauseReason {
            let reasons = pause_reasons();
            let reason = text
                .trim()
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| reasons.get(i).copied())
                .ok_or(format!("{text:?}: a number from 1 to {}", reasons.len()))?;
            return Ok(Pending {
                label: format!("pause the clock ({}) in {match_id}", reason.describe()),
                match_id,
                action: Action::Pause(baffle_proto::convert::pause_reason_to_wire(reason) as i32),
                ruling: None,
            });
        }
        let (side, rest) = text.trim().split_once(' ').ok_or(format!(
            "{text:?}: a side (A or B), a space, then the value"
        ))?;
        if kind == InputKind::SetChessClock {
            let color = match side.to_ascii_uppercase().as_str() {
                "W" | "WHITE" => v1::Color::White,
                "B" | "BLACK" => v1::Color::Black,
                other => return Err(format!("{other:?} is not a colour: W or B")),
            };
            let ms = crate::duration::parse(rest.trim())?.as_ms();
            let action = v1::chess_command::Action::SetTime(v1::ChessTime {
                color: color as i32,
                ms,
            });
            return Ok(Pending {
                label: format!(
                    "set {}'s clock to {} in {match_id}",
                    baffle_proto::chess_text::color(color as i32),
                    rest.trim()
                ),
                match_id,
                action: Action::Chess(v1::ChessCommand {
                    action: Some(action),
                }),
                ruling: Some(v1::Ruling {
                    reason: "set at the console".into(),
                    article: "6.10".into(),
                }),
            });
        }
        let side = match side.to_ascii_uppercase().as_str() {
            "A" => v1::Side::A as i32,
            "B" => v1::Side::B as i32,
            other => return Err(format!("{other:?} is not a side: A or B")),
        };
        let who = self
            .matches
            .get(&match_id)
            .map(|m| name(m, side).to_string())
            .unwrap_or_default();
        match kind {
            InputKind::PauseReason | InputKind::SetChessClock => unreachable!("handled above"),
            InputKind::AdjustClock => {
                let ms = crate::duration::parse(rest.trim())?.as_ms();
                Ok(Pending {
                    label: format!("adjust {who}'s clock by {} in {match_id}", rest.trim()),
                    match_id,
                    action: Action::AdjustTime(v1::TimeChange { side, ms }),
                    ruling: Some(v1::Ruling {
                        reason: "adjusted at the console".into(),
                        article: "4.3 (v)".into(),
                    }),
                })
            }
            InputKind::AwardPoints => {
                let points: u32 = rest
                    .trim()
                    .parse()
                    .map_err(|_| format!("{rest:?} is not a number of points"))?;
                Ok(Pending {
                    label: format!("award {points} penalty point(s) to {who} in {match_id}"),
                    match_id,
                    action: Action::AwardPoints(v1::Points { side, points }),
                    ruling: Some(v1::Ruling {
                        reason: "awarded at the console".into(),
                        article: "2.3".into(),
                    }),
                })
            }
        }
    }

    /// Draws the dashboard at `now_ms`.
    pub fn draw(&self, frame: &mut Frame, now_ms: i64) {
        let [table_area, alerts_area, prompt_area] = Layout::vertical([
            Constraint::Min(5),
            Constraint::Length(ALERTS as u16 + 2),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        let header = Row::new([
            "TABLE",
            "MATCH",
            "PLAYERS",
            "SCORE",
            "CUBE/LAWS",
            "CLOCK A",
            "CLOCK B",
            "TURN",
            "PAUSE",
        ])
        .style(Style::default().add_modifier(Modifier::BOLD));
        let rows = self.rows().into_iter().enumerate().map(|(i, s)| {
            let row = match_row(s, now_ms);
            if i == self.selected {
                row.style(Style::default().add_modifier(Modifier::REVERSED))
            } else {
                row
            }
        });
        let widths = [
            Constraint::Length(6),
            Constraint::Length(10),
            Constraint::Length(16),
            Constraint::Length(9),
            Constraint::Length(9),
            Constraint::Length(16),
            Constraint::Length(16),
            Constraint::Length(10),
            Constraint::Min(6),
        ];
        let title = format!(" baffle console — {} ", self.tournament);
        frame.render_widget(
            Table::new(rows, widths)
                .header(header)
                .block(Block::default().borders(Borders::ALL).title(title)),
            table_area,
        );
        let alerts: Vec<Line> = self.alerts.iter().map(|a| Line::from(a.as_str())).collect();
        frame.render_widget(
            Paragraph::new(alerts).block(Block::default().borders(Borders::ALL).title(" alerts ")),
            alerts_area,
        );
        let bottom = match (&self.prompt, &self.connection) {
            (Some(Prompt::Confirm(p)), _) => format!("{}? y/n", p.label),
            (Some(Prompt::Input { label, buffer, .. }), _) => format!("{label}: {buffer}_"),
            (None, Some(problem)) => problem.clone(),
            (None, None) if self.selected_match().is_some_and(|m| m.chess.is_some()) => {
                "↑↓ select  p stop the clocks  r restart them  a set a clock  q quit".into()
            }
            (None, None) => {
                "↑↓ select  p pause  r resume  a adjust clock  x penalty  c confirm result  q quit"
                    .into()
            }
        };
        frame.render_widget(Paragraph::new(bottom), prompt_area);
    }
}

/// A chess row's turn: "W move" (White's clock runs, side A), "over", "-".
fn chess_turn(s: &v1::MatchState) -> String {
    let c = s.chess.as_ref().expect("a chess row");
    if s.result.is_some() {
        return "over".into();
    }
    match v1::Color::try_from(c.to_move) {
        Ok(v1::Color::White) => "W move".into(),
        Ok(v1::Color::Black) => "B move".into(),
        _ if s.phase == v1::MatchPhase::BetweenGames as i32 => "game over".into(),
        _ => "-".into(),
    }
}

fn clock_cell(face: baffle_proto::faces::Face) -> String {
    let mut text = mmss(face.main_ms);
    if face.flagged {
        text.push_str(" FLAG");
    } else if face.running && face.delay_ms > 0 {
        text.push_str(&format!(" +{}", (face.delay_ms + 999) / 1000));
    } else if face.running {
        text.push_str(" ◀");
    }
    text
}

/// One match's row: table, id, players, score, cube, both clocks at `now_ms`, turn, pause.
fn match_row(s: &v1::MatchState, now_ms: i64) -> Row<'static> {
    let (a, b) = match &s.clock {
        // Chess: side A of the clock is White's.
        Some(c) if s.chess.is_some() => {
            let [a, b] = faces(c, now_ms);
            (
                format!("W {}", clock_cell(a)),
                format!("B {}", clock_cell(b)),
            )
        }
        Some(c) => {
            let [a, b] = faces(c, now_ms);
            (clock_cell(a), clock_cell(b))
        }
        None => ("-".into(), "-".into()),
    };
    let turn = match s.chess {
        Some(_) => chess_turn(s),
        None => baffle_proto::backgammon_text::turn_short(s),
    };
    let pause = s
        .clock
        .as_ref()
        .and_then(|c| v1::PauseReason::try_from(c.paused).ok())
        .filter(|p| *p != v1::PauseReason::Unspecified)
        .map(|p| {
            p.as_str_name()
                .trim_start_matches("PAUSE_REASON_")
                .to_lowercase()
        })
        .unwrap_or_default();
    let score = match &s.chess {
        Some(c) => format!(
            "{}-{}/{}",
            baffle_proto::chess_text::points(c.half_points_a),
            baffle_proto::chess_text::points(c.half_points_b),
            c.games
        ),
        None => format!(
            "{}-{}/{}{}",
            s.score_a,
            s.score_b,
            s.length,
            if s.crawford { " C" } else { "" }
        ),
    };
    Row::new(vec![
        Cell::from(s.table.clone()),
        Cell::from(s.match_id.clone()),
        Cell::from(format!("{} v {}", s.player_a, s.player_b)),
        Cell::from(score),
        // Backgammon's cube; in chess the edition of the Laws in force ("FIDE 2014").
        Cell::from(match &s.chess {
            Some(c) => c.laws_name.clone(),
            None => render::cube(s),
        }),
        Cell::from(a),
        Cell::from(b),
        Cell::from(turn),
        Cell::from(pause),
    ])
}

#[cfg(test)]
mod tests;
