//! Drawing the dashboard: the room (one row per match, coloured by what needs looking
//! at), the to-do list, the ticker, and the prompt or key hints; `?` and Enter open a
//! window over it. Narrow terminals (under 120 columns) drop the round, device and note
//! columns rather than cutting names and keys.

use baffle_proto::faces::{Face, faces, mmss};
use baffle_proto::v1;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, Wrap};

use super::{Dashboard, Prompt, name};
use crate::{render, views, words};

/// Width from which every column is shown.
const WIDE: u16 = 120;
/// Ticker lines on screen.
const TICKER_LINES: u16 = 3;
/// To-do lines on screen at most.
const TODO_LINES: usize = 6;

fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

/// The status shown: the match's, or "paused" while its clock is stopped.
fn shown_status(s: &v1::MatchState) -> &'static str {
    let paused = s.clock.as_ref().is_some_and(|c| c.paused != 0);
    if paused && s.result.is_none() {
        words::STATUS_PAUSED
    } else {
        views::status(s)
    }
}

/// What a status looks like: what needs the director stands out, what is done fades.
fn status_style(status: &str) -> Style {
    match status {
        words::STATUS_PLAYING | words::STATUS_BETWEEN => Style::default().fg(Color::Green),
        words::STATUS_READY => bold().fg(Color::Cyan),
        words::STATUS_PRESENT => Style::default().fg(Color::Cyan),
        words::STATUS_PAUSED => bold().fg(Color::Yellow),
        words::STATUS_OVER => bold().fg(Color::Magenta),
        words::STATUS_UNDECIDED => bold().fg(Color::Red),
        _ => Style::default().fg(Color::DarkGray),
    }
}

fn clock_cell(face: Face) -> Cell<'static> {
    let mut text = mmss(face.main_ms);
    if face.flagged {
        text.push_str(" FLAG");
        return Cell::from(text).style(bold().fg(Color::Red));
    }
    if face.running && face.delay_ms > 0 {
        text.push_str(&format!(" +{}", (face.delay_ms + 999) / 1000));
    } else if face.running {
        text.push_str(" ◀");
    }
    let style = if face.running {
        bold().fg(Color::Green)
    } else {
        Style::default()
    };
    Cell::from(text).style(style)
}

/// A chess row's turn: "W move" (White's clock runs, side A), "over", "-".
pub(super) fn chess_turn(s: &v1::MatchState) -> String {
    let Some(c) = s.chess.as_ref() else {
        return "-".into();
    };
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

fn score(s: &v1::MatchState) -> String {
    match &s.chess {
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
    }
}

/// The devices of a match: "on" when every bound device is connected, "off" when one
/// is not, "-" without one.
fn device_cell(s: &v1::MatchState) -> Cell<'static> {
    if s.devices.is_empty() {
        return Cell::from("-");
    }
    if s.devices.iter().all(|d| d.connected) {
        Cell::from(words::DEVICE_ON).style(Style::default().fg(Color::Green))
    } else {
        Cell::from(words::DEVICE_OFF).style(bold().fg(Color::Red))
    }
}

/// The note of a wide row: the winner, or why the clock is stopped.
fn note(s: &v1::MatchState) -> String {
    if let Some(r) = &s.result {
        return match r.how.as_str() {
            "draw" => words::NOTE_DRAWN.into(),
            "double_default" => words::NOTE_BOTH_LOST.into(),
            how => words::note_winner(name(s, r.winner), how),
        };
    }
    s.clock
        .as_ref()
        .and_then(|c| words::pause_reason(c.paused))
        .unwrap_or_default()
}

/// One match's row at `now_ms`.
fn match_row(s: &v1::MatchState, now_ms: i64, wide: bool) -> Row<'static> {
    let (a, b) = match &s.clock {
        Some(c) => {
            let [a, b] = faces(c, now_ms);
            (clock_cell(a), clock_cell(b))
        }
        None => (Cell::from("-"), Cell::from("-")),
    };
    let turn = match s.chess {
        Some(_) => chess_turn(s),
        None => baffle_proto::backgammon_text::turn_short(s),
    };
    let status = shown_status(s);
    let mut cells = vec![Cell::from(s.table.clone())];
    if wide {
        cells.push(Cell::from(s.round.to_string()));
    }
    cells.extend([
        Cell::from(s.match_id.clone()),
        Cell::from(format!("{} v {}", s.player_a, s.player_b)),
        Cell::from(score(s)),
        Cell::from(status).style(status_style(status)),
        a,
        b,
        Cell::from(turn),
    ]);
    if wide {
        cells.push(device_cell(s));
        cells.push(Cell::from(note(s)));
    }
    Row::new(cells)
}

impl Dashboard {
    /// Draws the dashboard at `now_ms`.
    pub fn draw(&self, frame: &mut Frame, now_ms: i64) {
        let todos = self.todos();
        let todo_height = todos.len().clamp(1, TODO_LINES) as u16 + 2;
        let [table_area, todo_area, ticker_area, bottom] = Layout::vertical([
            Constraint::Min(4),
            Constraint::Length(todo_height),
            Constraint::Length(TICKER_LINES + 2),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        self.draw_rooms(frame, table_area, now_ms);
        let todo_lines: Vec<Line> = if todos.is_empty() {
            vec![Line::styled(
                words::TODO_NONE,
                Style::default().fg(Color::DarkGray),
            )]
        } else {
            todos
                .iter()
                .take(TODO_LINES)
                .map(|t| {
                    let colour = if t.urgency == 0 {
                        Color::Red
                    } else {
                        Color::Yellow
                    };
                    Line::styled(t.text.clone(), Style::default().fg(colour))
                })
                .collect()
        };
        let todo_title = words::todo_title(todos.len());
        frame.render_widget(
            Paragraph::new(todo_lines)
                .block(Block::default().borders(Borders::ALL).title(todo_title)),
            todo_area,
        );
        let ticker: Vec<Line> = self.ticker.iter().map(|t| Line::from(t.as_str())).collect();
        frame.render_widget(
            Paragraph::new(ticker).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(words::TICKER_TITLE),
            ),
            ticker_area,
        );
        frame.render_widget(Paragraph::new(self.bottom_line()), bottom);
        if self.help {
            popup(
                frame,
                words::HELP_TITLE,
                words::HELP.lines().map(Line::from).collect(),
            );
        } else if let Some(s) = self.detail.as_ref().and_then(|id| self.matches.get(id)) {
            let lines = render::match_text(s)
                .lines()
                .map(|l| Line::from(l.to_string()))
                .collect();
            popup(frame, &format!(" {} ", s.match_id), lines);
        }
    }

    fn draw_rooms(&self, frame: &mut Frame, area: Rect, now_ms: i64) {
        let wide = area.width >= WIDE;
        let rows = self.rows();
        let id_width = rows
            .iter()
            .map(|s| s.match_id.chars().count())
            .max()
            .unwrap_or(5)
            .clamp(5, 24) as u16;
        let table_width = rows
            .iter()
            .map(|s| s.table.chars().count())
            .max()
            .unwrap_or(3)
            .clamp(3, 8) as u16;
        let mut headers = vec![words::COL_TABLE];
        let mut widths = vec![Constraint::Length(table_width)];
        if wide {
            headers.push(words::COL_ROUND);
            widths.push(Constraint::Length(3));
        }
        headers.extend([
            words::COL_MATCH,
            words::COL_PLAYERS,
            words::COL_SCORE,
            words::COL_STATUS,
            words::COL_CLOCK_A,
            words::COL_CLOCK_B,
            words::COL_TURN,
        ]);
        widths.extend([
            Constraint::Length(id_width),
            Constraint::Min(12),
            Constraint::Length(7),
            Constraint::Length(9),
            Constraint::Length(if wide { 12 } else { 10 }),
            Constraint::Length(if wide { 12 } else { 10 }),
            Constraint::Length(if wide { 10 } else { 7 }),
        ]);
        if wide {
            headers.extend([words::COL_DEVICE, words::COL_NOTE]);
            widths.extend([Constraint::Length(3), Constraint::Min(16)]);
        }
        let header = Row::new(headers).style(bold());
        let table_rows = rows.into_iter().enumerate().map(|(i, s)| {
            let row = match_row(s, now_ms, wide);
            if i == self.selected {
                row.style(Style::default().add_modifier(Modifier::REVERSED))
            } else {
                row
            }
        });
        let title = words::console_title(&self.tournament, &self.filter);
        frame.render_widget(
            Table::new(table_rows, widths)
                .header(header)
                .block(Block::default().borders(Borders::ALL).title(title)),
            area,
        );
    }

    fn bottom_line(&self) -> Line<'static> {
        match (&self.prompt, &self.connection) {
            (Some(Prompt::Confirm(p)), _) => {
                Line::styled(format!("{}? y/n", p.label), bold().fg(Color::Yellow))
            }
            (Some(Prompt::Input { label, buffer, .. }), _) => {
                Line::styled(format!("{label}: {buffer}_"), bold().fg(Color::Yellow))
            }
            (None, Some(problem)) => Line::styled(problem.clone(), bold().fg(Color::Red)),
            (None, None) if self.selected_match().is_some_and(|m| m.chess.is_some()) => {
                Line::from(words::HINT_CHESS)
            }
            (None, None) => Line::from(words::HINT),
        }
    }
}

/// A window over the middle of the screen.
fn popup(frame: &mut Frame, title: &str, lines: Vec<Line<'static>>) {
    let area = frame.area();
    let width = area.width.saturating_sub(4).min(90);
    let height = (lines.len() as u16 + 2).min(area.height.saturating_sub(2));
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height.saturating_sub(height)) / 2,
        width,
        height,
    };
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title.to_string()),
        ),
        rect,
    );
}
