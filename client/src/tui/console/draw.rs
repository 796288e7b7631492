//! Drawing the dashboard: the room (one row per match, coloured by what needs looking
//! at), the to-do list, the ticker, and the prompt or key hints; `?` and Enter open a
//! window over it. Narrow terminals (under 120 columns) drop the round, device and note
//! columns. The players' column takes the room the other columns do not need (each as
//! wide as its header and what it shows); names that still do not fit are shortened
//! visibly (`tui::fit`: initials, surnames, "…"), and a to-do keeps its key.

use unicode_width::UnicodeWidthStr;

use baffle_i18n::turn::Form;
use baffle_proto::faces::{Face, faces, mmss};
use baffle_proto::v1;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table};

use super::state::{Dashboard, InputKind, Prompt, name};
use crate::reveal::DiceCheck;
use crate::tui::fit;
use crate::{render, views, words};

/// Width from which every column is shown.
const WIDE: u16 = 120;
/// Ticker lines on screen.
const TICKER_LINES: u16 = 3;
/// To-do lines on screen at most.
const TODO_LINES: usize = 6;

/// Columns a text takes on a terminal (Greek letters take one each, as Latin ones).
fn width(text: &str) -> u16 {
    UnicodeWidthStr::width(text) as u16
}

fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

/// The status shown: the match's (`MatchState.status`), or `None` ("paused") while its
/// clock is stopped.
fn shown_status(s: &v1::MatchState) -> Option<v1::MatchStatus> {
    let paused = s.clock.as_ref().is_some_and(|c| c.paused != 0);
    (!paused || s.result.is_some()).then(|| views::status(s))
}

/// A status shown, in words.
fn status_words(status: Option<v1::MatchStatus>) -> String {
    status.map_or_else(|| words::say("console-status-paused"), words::status)
}

/// What a status looks like: what needs the director stands out, what is done fades.
fn status_style(status: Option<v1::MatchStatus>) -> Style {
    use v1::MatchStatus as S;
    match status {
        Some(S::Playing | S::BetweenGames) => Style::default().fg(Color::Green),
        Some(S::Ready) => bold().fg(Color::Cyan),
        Some(S::Present) => Style::default().fg(Color::Cyan),
        None => bold().fg(Color::Yellow),
        Some(S::Over) => bold().fg(Color::Magenta),
        Some(S::Undecided) => bold().fg(Color::Red),
        _ => Style::default().fg(Color::DarkGray),
    }
}

fn clock_cell(face: Face) -> Cell<'static> {
    let mut text = mmss(face.main_ms);
    if face.flagged {
        text.push(' ');
        text.push_str(&words::say("console-flag"));
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
        return words::say("turn-short-over");
    }
    match v1::Color::try_from(c.to_move) {
        Ok(v1::Color::White) => words::say("console-turn-white"),
        Ok(v1::Color::Black) => words::say("console-turn-black"),
        _ if s.phase == v1::MatchPhase::BetweenGames as i32 => words::say("console-turn-game-over"),
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
        Cell::from(words::say("console-device-on")).style(Style::default().fg(Color::Green))
    } else {
        Cell::from(words::say("console-device-off")).style(bold().fg(Color::Red))
    }
}

/// The note of a wide row in at most `columns`: the winner (his name shortened if need
/// be), or why the clock is stopped.
fn note(s: &v1::MatchState, columns: usize) -> String {
    if let Some(r) = &s.result {
        use v1::MatchEndKind as End;
        return match End::try_from(r.how_kind) {
            Ok(End::Draw) => fit::ellipsis(&words::say("console-note-drawn"), columns),
            Ok(End::DoubleDefault) => fit::ellipsis(&words::say("console-note-both-lost"), columns),
            _ => fit::name(name(s, r.winner), columns, |n| {
                let args = [("name", n.into()), ("how", words::how(r.how_kind).into())];
                words::say_with("console-note-winner", &args)
            }),
        };
    }
    let reason = s
        .clock
        .as_ref()
        .and_then(|c| words::pause_reason(c.paused))
        .unwrap_or_default();
    fit::ellipsis(&reason, columns)
}

/// Both players of a row in at most `columns` ("Anna – Ben").
fn players(s: &v1::MatchState, columns: usize) -> String {
    fit::players(&s.player_a, &s.player_b, columns, |a, b| {
        words::say_with("console-versus", &[("a", a.into()), ("b", b.into())])
    })
}

/// How wide the rooms' flexible columns are: the players' and (wide) the note's.
#[derive(Clone, Copy)]
struct Room {
    id: usize,
    players: usize,
    note: usize,
}

/// Columns the players' names keep before the match id gives up its width: a pair of
/// surnames, as "Jones – Smith" or "Παπαδό… – Αθανασό…".
const NAMES_AT_LEAST: usize = 18;

/// A backgammon row's turn, short: "B roll", "opening", "over" (the side by its letter:
/// the names are in the row already), in the words `baffle_i18n::turn` chooses.
fn turn_short(s: &v1::MatchState) -> String {
    let letters = [v1::Side::A, v1::Side::B].map(|side| render::side(side as i32));
    words::turn(s, Form::Cell, letters)
}

/// The headers and the widths of the columns that do not share the room left: the
/// first (table, and round when wide) as constraints, the rest after the match id and
/// players as lengths, and the match id's width wanted.
struct Columns {
    headers: Vec<String>,
    widths: Vec<Constraint>,
    fixed: Vec<u16>,
    id_width: u16,
}

/// The columns of the matches' table that have a width of their own (see [`Columns`]).
fn columns(rows: &[&v1::MatchState], wide: bool) -> Columns {
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
    // Headers and statuses are words of the chosen language: the columns fit them.
    let col = |id: &str| words::say(id);
    let fit = |id: &str, at_least: u16| at_least.max(width(&col(id)));
    // As wide as the statuses shown: a rare long one does not take the names' room.
    let status_width = rows
        .iter()
        .map(|s| width(&status_words(shown_status(s))))
        .max()
        .unwrap_or(0)
        .max(fit("console-col-status", 9));
    let mut headers = vec![col("console-col-table")];
    let mut widths = vec![Constraint::Length(fit("console-col-table", table_width))];
    if wide {
        headers.push(col("console-col-round"));
        widths.push(Constraint::Length(fit("console-col-round", 3)));
    }
    headers.extend([
        col("console-col-match"),
        col("console-col-players"),
        col("console-col-score"),
        col("console-col-status"),
        col("console-col-clock-a"),
        col("console-col-clock-b"),
        col("console-col-turn"),
    ]);
    let clock = if wide { 12 } else { 10 };
    // As wide as the turns shown ("B ρίχνει"), within bounds.
    let turn_width = rows
        .iter()
        .map(|s| match s.chess {
            Some(_) => width(&chess_turn(s)),
            None => width(&turn_short(s)),
        })
        .max()
        .unwrap_or(0)
        .clamp(fit("console-col-turn", if wide { 10 } else { 7 }), 12);
    let id_width = fit("console-col-match", id_width);
    let mut fixed = vec![
        fit("console-col-score", 7),
        status_width,
        fit("console-col-clock-a", clock),
        fit("console-col-clock-b", clock),
        turn_width,
    ];
    if wide {
        headers.extend([col("console-col-device"), col("console-col-note")]);
        fixed.push(fit("console-col-device", 3));
    }
    Columns {
        headers,
        widths,
        fixed,
        id_width,
    }
}

/// What is left for the players and the note (a column of space between columns, and
/// the borders): the note as wide as it needs, if the players' names fit beside it; else
/// the players first, the note down to its header.
fn share_room(
    rows: &[&v1::MatchState],
    wide: bool,
    area_width: u16,
    widths: &[Constraint],
    fixed: &[u16],
    columns: usize,
    id_width: u16,
) -> Room {
    let col = |id: &str| words::say(id);
    let fixed_sum: u16 = widths
        .iter()
        .map(|c| match c {
            Constraint::Length(n) => *n,
            _ => 0,
        })
        .sum::<u16>()
        + fixed.iter().sum::<u16>();
    let columns = columns as u16;
    let beside_id = area_width.saturating_sub(2 + fixed_sum + columns.saturating_sub(1)) as usize;
    let players_need = rows
        .iter()
        .map(|s| fit::width(&players(s, usize::MAX)))
        .max()
        .unwrap_or(0)
        .max(fit::width(&col("console-col-players")));
    // The names before the match id: a long id ("spring-open-r1-t7") is shortened
    // from its start ("…-r1-t7") while the names would be cut below their surnames.
    let id_room = {
        let names = players_need.min(NAMES_AT_LEAST);
        let header = fit::width(&col("console-col-match")).max(6);
        let spare = beside_id.saturating_sub(names);
        (id_width as usize).min(spare.max(header))
    };
    let left = beside_id.saturating_sub(id_room);
    if wide {
        let header = fit::width(&col("console-col-note"));
        let need = rows
            .iter()
            .map(|s| fit::width(&note(s, usize::MAX)))
            .max()
            .unwrap_or(0)
            .max(header);
        let note = left.saturating_sub(players_need).clamp(header, need);
        Room {
            id: id_room,
            players: left.saturating_sub(note),
            note,
        }
    } else {
        Room {
            id: id_room,
            players: left,
            note: 0,
        }
    }
}

/// One match's row at `now_ms`.
fn match_row(s: &v1::MatchState, now_ms: i64, wide: bool, room: Room) -> Row<'static> {
    let (a, b) = match &s.clock {
        Some(c) => {
            let [a, b] = faces(c, now_ms);
            (clock_cell(a), clock_cell(b))
        }
        None => (Cell::from("-"), Cell::from("-")),
    };
    let turn = match s.chess {
        Some(_) => chess_turn(s),
        None => turn_short(s),
    };
    let status = shown_status(s);
    let mut cells = vec![Cell::from(s.table.clone())];
    if wide {
        cells.push(Cell::from(s.round.to_string()));
    }
    cells.extend([
        Cell::from(fit::ellipsis_start(&s.match_id, room.id)),
        Cell::from(players(s, room.players)),
        Cell::from(score(s)),
        Cell::from(status_words(status)).style(status_style(status)),
        a,
        b,
        Cell::from(turn),
    ]);
    if wide {
        cells.push(device_cell(s));
        cells.push(Cell::from(note(s, room.note)));
    }
    Row::new(cells)
}

impl Dashboard {
    /// Draws the dashboard at `now_ms`.
    pub fn draw(&self, frame: &mut Frame, now_ms: i64) {
        let todos = self.todos(now_ms);
        let todo_height = todos.len().clamp(1, TODO_LINES) as u16 + 2;
        let [table_area, todo_area, ticker_area, bottom] = Layout::vertical([
            Constraint::Min(4),
            Constraint::Length(todo_height),
            Constraint::Length(TICKER_LINES + 2),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        if self.showing_draw {
            self.draw_draw(frame, table_area);
        } else {
            self.draw_rooms(frame, table_area, now_ms);
        }
        let todo_lines: Vec<Line> = if todos.is_empty() {
            vec![Line::styled(
                words::say("console-todo-none"),
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
                    // Shortened before its last " — ", so that its key stays on screen.
                    let text = fit::keep_tail(&t.text, todo_area.width.saturating_sub(2).into());
                    Line::styled(text, Style::default().fg(colour))
                })
                .collect()
        };
        let count = [("count", (todos.len() as u32).into())];
        let todo_title = format!(" {} ", words::say_with("console-todo-title", &count));
        frame.render_widget(
            Paragraph::new(todo_lines)
                .block(Block::default().borders(Borders::ALL).title(todo_title)),
            todo_area,
        );
        let room = ticker_area.width.saturating_sub(2).into();
        let ticker: Vec<Line> = self
            .ticker
            .iter()
            .map(|t| Line::from(fit::ellipsis(t, room)))
            .collect();
        frame.render_widget(
            Paragraph::new(ticker).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(format!(" {} ", words::say("console-ticker-title"))),
            ),
            ticker_area,
        );
        frame.render_widget(
            Paragraph::new(self.bottom_line(bottom.width.into())),
            bottom,
        );
        if self.help {
            let help = words::say("console-help");
            let draw = words::say("console-help-draw");
            popup(
                frame,
                &format!(" {} ", words::say("console-help-title")),
                help.lines()
                    .chain(draw.lines())
                    .map(str::to_string)
                    .collect(),
            );
        } else if let Some(s) = self.detail.as_ref().and_then(|id| self.matches.get(id)) {
            let check = self.dice_checks.get(&s.match_id).and_then(Option::as_ref);
            let help = self
                .adjudications
                .get(&s.match_id)
                .filter(|a| a.seq == s.seq);
            popup(
                frame,
                &format!(" {} ", s.match_id),
                detail(s, now_ms, check, help),
            );
        } else if let Some(Prompt::Input {
            kind: InputKind::PauseReason,
            ..
        }) = &self.prompt
        {
            // Nine reasons do not fit the prompt's one line: listed above it, one a line.
            let title = format!(" {} ", words::say("console-pause-title"));
            popup(frame, &title, super::keys::pause_choices());
        }
    }

    /// The matches' table: one row a match, the selected one reversed, its columns
    /// sized to the words of the chosen language and to the room the terminal gives.
    fn draw_rooms(&self, frame: &mut Frame, area: Rect, now_ms: i64) {
        let wide = area.width >= WIDE;
        let rows = self.rows();
        let Columns {
            headers,
            mut widths,
            fixed,
            id_width,
        } = columns(&rows, wide);
        let room = share_room(
            &rows,
            wide,
            area.width,
            &widths,
            &fixed,
            headers.len(),
            id_width,
        );
        let fixed = fixed.into_iter().map(Constraint::Length);
        widths.push(Constraint::Length(room.id as u16));
        widths.push(Constraint::Length(room.players as u16));
        widths.extend(fixed);
        if wide {
            widths.push(Constraint::Length(room.note as u16));
        }
        let header = Row::new(headers).style(bold());
        let table_rows = rows.into_iter().enumerate().map(|(i, s)| {
            let row = match_row(s, now_ms, wide, room);
            if i == self.selected {
                row.style(Style::default().add_modifier(Modifier::REVERSED))
            } else {
                row
            }
        });
        let tournament = ("tournament", self.tournament.clone().into());
        let title = if self.filter.is_empty() {
            words::say_with("console-title", &[tournament])
        } else {
            let filter = ("filter", self.filter.clone().into());
            words::say_with("console-title-filtered", &[tournament, filter])
        };
        let title = format!(" {title} ");
        frame.render_widget(
            Table::new(table_rows, widths)
                .header(header)
                .block(Block::default().borders(Borders::ALL).title(title)),
            area,
        );
    }

    /// The bottom line in `columns`: a question keeps its end (y/n, what is typed) and
    /// shortens what it asks about.
    fn bottom_line(&self, columns: usize) -> Line<'static> {
        match (&self.prompt, &self.connection) {
            (Some(Prompt::Confirm(p)), _) => {
                let ask =
                    |label: &str| words::say_with("console-confirm", &[("action", label.into())]);
                let over = fit::width(&ask(&p.label)).saturating_sub(columns);
                let label = fit::ellipsis(&p.label, fit::width(&p.label).saturating_sub(over));
                Line::styled(ask(&label), bold().fg(Color::Yellow))
            }
            (
                Some(Prompt::Input {
                    label,
                    buffer,
                    error,
                    ..
                }),
                _,
            ) => {
                // A refused answer is said first, in red, and the prompt stays open with
                // what was typed, for the director to correct it.
                let error = error
                    .as_ref()
                    .map(|e| fit::ellipsis(&format!("{e} "), columns / 2))
                    .unwrap_or_default();
                let typed = format!(": {buffer}_");
                let room = columns
                    .saturating_sub(fit::width(&typed) + fit::width(&error))
                    .max(8);
                let label = fit::ellipsis(label, room);
                Line::from(vec![
                    Span::styled(error, bold().fg(Color::Red)),
                    Span::styled(format!("{label}{typed}"), bold().fg(Color::Yellow)),
                ])
            }
            (None, Some(problem)) => Line::styled(problem.clone(), bold().fg(Color::Red)),
            (None, None) if self.showing_draw => Line::from(words::say("console-draw-hint")),
            (None, None) if self.selected_match().is_some_and(|m| m.chess.is_some()) => {
                Line::from(words::say("console-hint-chess"))
            }
            (None, None) => Line::from(words::say("console-hint")),
        }
    }
}

/// A match in full at `now_ms`: `match show`'s lines, with the clocks running as the
/// row's do (`baffle_proto::faces`), a reveal's deadline judged at `now_ms` and what the
/// check of its revealed dice found.
fn detail(
    s: &v1::MatchState,
    now_ms: i64,
    check: Option<&DiceCheck>,
    help: Option<&v1::Adjudication>,
) -> Vec<String> {
    let mut now = s.clone();
    now.sent_at_ms = now_ms;
    if let Some(c) = now.clock.as_mut() {
        let [a, b] = faces(c, now_ms);
        for (side, face) in [(c.a.as_mut(), a), (c.b.as_mut(), b)] {
            if let Some(side) = side {
                side.main_ms = face.main_ms;
                side.delay_ms = face.delay_ms;
            }
        }
    }
    let mut text = render::match_text_checked(&now, check);
    if let Some(help) = help {
        text.push_str(&render::adjudication_lines(help));
    }
    text.lines().map(str::to_string).collect()
}

/// `lines` broken at spaces to `columns` (a word longer than that, such as a hash, is
/// broken where it reaches the edge), so that the window is as tall as what it shows.
fn wrap(lines: &[String], columns: usize) -> Vec<Line<'static>> {
    let columns = columns.max(1);
    let mut out = Vec::new();
    for line in lines {
        let mut current = String::new();
        for (i, word) in line.split(' ').enumerate() {
            if i > 0 {
                let full = fit::width(&current) + 1 + fit::width(word) > columns;
                if full && !current.trim().is_empty() {
                    out.push(Line::from(std::mem::take(&mut current)));
                } else {
                    current.push(' ');
                }
            }
            for c in word.chars() {
                if fit::width(&current) + fit::width(c.encode_utf8(&mut [0; 4])) > columns {
                    out.push(Line::from(std::mem::take(&mut current)));
                }
                current.push(c);
            }
        }
        out.push(Line::from(current));
    }
    out
}

/// A window over the middle of the screen.
fn popup(frame: &mut Frame, title: &str, lines: Vec<String>) {
    let area = frame.area();
    let width = area.width.saturating_sub(4).min(90);
    let lines = wrap(&lines, width.saturating_sub(2).into());
    let height = (lines.len() as u16 + 2).min(area.height.saturating_sub(2));
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height.saturating_sub(height)) / 2,
        width,
        height,
    };
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title.to_string()),
        ),
        rect,
    );
}
