//! `baffle follow MATCH`: a live scoreboard for one match, readable from across the room.
//! No token needed; it resumes from the last event seen after a disconnect.

use baffle_proto::v1;
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::render;
use baffle_proto::chess_text;
use baffle_proto::faces::{faces, mmss};

/// What the follow view shows besides the match.
#[derive(Clone, Debug, Default)]
pub struct Status {
    /// A connection problem, shown at the bottom.
    pub connection: Option<String>,
}

fn pause_reason(clock: &v1::ClockState) -> Option<String> {
    v1::PauseReason::try_from(clock.paused)
        .ok()
        .filter(|p| *p != v1::PauseReason::Unspecified)
        .map(|p| {
            p.as_str_name()
                .trim_start_matches("PAUSE_REASON_")
                .replace('_', " ")
                .to_lowercase()
        })
}

/// Draws the scoreboard of `s` as it stands at `now_ms`.
pub fn draw(frame: &mut Frame, s: &v1::MatchState, now_ms: i64, status: &Status) {
    let [top, clocks, info, bottom] = Layout::vertical([
        Constraint::Length(4),
        Constraint::Length(5),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    draw_heading(frame, s, top);
    draw_clocks(frame, s, now_ms, clocks);
    let lines = info_lines(s);
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        info,
    );

    draw_footer(frame, s, status, bottom);
}

/// The match, the players and the score, and what kind of game this is.
fn draw_heading(frame: &mut Frame, s: &v1::MatchState, top: ratatui::layout::Rect) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let chess = s.chess.as_ref();
    let mut heading = vec![Line::styled(
        match chess {
            Some(c) => format!(
                "{}   {} {}   {} {}",
                s.match_id,
                s.player_a,
                chess_text::points(c.half_points_a),
                chess_text::points(c.half_points_b),
                s.player_b
            ),
            None => format!(
                "{}   {} {}   {} {}",
                s.match_id, s.player_a, s.score_a, s.score_b, s.player_b
            ),
        },
        bold,
    )];
    let detail = match chess {
        Some(c) => chess_text::game(s, c),
        None if s.crawford => format!("match to {}   CRAWFORD GAME", s.length),
        None if s.post_crawford => format!("match to {}   post-Crawford", s.length),
        None => format!("match to {}", s.length),
    };
    heading.push(Line::from(detail));
    frame.render_widget(
        Paragraph::new(heading).alignment(Alignment::Center).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" baffle follow "),
        ),
        top,
    );
}

/// Both clocks, each with its delay (or, in chess, its moves and period).
fn draw_clocks(frame: &mut Frame, s: &v1::MatchState, now_ms: i64, clocks: ratatui::layout::Rect) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let chess = s.chess.as_ref();
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(clocks);
    match &s.clock {
        Some(clock) => {
            let [a, b] = faces(clock, now_ms);
            // Chess: White's clock (side A) on the left, with moves and period.
            let names = match chess {
                Some(c) => [v1::Color::White, v1::Color::Black].map(|color| {
                    format!(
                        "{} {}",
                        chess_text::player(s, c, color),
                        chess_text::color(color as i32)
                    )
                }),
                None => [s.player_a.clone(), s.player_b.clone()],
            };
            let sides = [clock.a.unwrap_or_default(), clock.b.unwrap_or_default()];
            for (i, (area, name, face)) in [(left, &names[0], a), (right, &names[1], b)]
                .into_iter()
                .enumerate()
            {
                let marker = if face.flagged {
                    "  FLAG"
                } else if face.running {
                    "  ◀"
                } else {
                    ""
                };
                let delay = if face.delay_ms > 0 {
                    format!("delay {}", mmss(face.delay_ms))
                } else if chess.is_some() {
                    format!("moves {}   period {}", sides[i].moves, sides[i].period + 1)
                } else {
                    String::new()
                };
                let lines = vec![Line::styled(mmss(face.main_ms), bold), Line::from(delay)];
                let title = format!(" {name}{marker} ");
                frame.render_widget(
                    Paragraph::new(lines)
                        .alignment(Alignment::Center)
                        .block(Block::default().borders(Borders::ALL).title(title)),
                    area,
                );
            }
        }
        None => frame.render_widget(
            Paragraph::new("no clock").alignment(Alignment::Center),
            clocks,
        ),
    }
}

/// The game in words: the turn, a pause, the result, or waiting for the players.
fn info_lines(s: &v1::MatchState) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let chess = s.chess.as_ref();
    let mut lines = Vec::new();
    if let Some(c) = chess {
        lines.extend(chess_lines(s, c).into_iter().map(Line::from));
    } else if s.game_number > 0 {
        let turn = match v1::TurnPhase::try_from(s.turn) {
            Ok(v1::TurnPhase::Opening) => "opening roll".to_string(),
            Ok(v1::TurnPhase::OnRoll) => format!("{} to roll", player(s, s.turn_side)),
            Ok(v1::TurnPhase::Moving) => format!(
                "{} moves {}-{}",
                player(s, s.turn_side),
                die(s, 0),
                die(s, 1)
            ),
            Ok(v1::TurnPhase::DoubleOffered) => format!(
                "{} doubled: {} to take or pass",
                player(s, s.turn_side),
                other(s, s.turn_side)
            ),
            _ => String::new(),
        };
        lines.push(Line::from(format!(
            "game {}   cube {}   {}",
            s.game_number,
            render::cube(s),
            turn
        )));
    }
    if let Some(reason) = s.clock.as_ref().and_then(pause_reason) {
        lines.push(Line::styled(format!("clock paused: {reason}"), bold));
    }
    if let Some(r) = s.result.as_ref().filter(|r| r.how == "draw") {
        lines.push(Line::styled(
            format!(
                "the match is drawn ({})",
                if r.confirmed {
                    "confirmed"
                } else {
                    "to confirm"
                }
            ),
            bold,
        ));
    } else if s.result.as_ref().is_some_and(|r| r.how == "double_default") {
        lines.push(Line::styled("both lost by default (6.7)", bold));
    } else if let Some(r) = &s.result {
        let winner = player(s, r.winner);
        let confirmed = if r.confirmed {
            "confirmed"
        } else {
            "awaiting the director's confirmation"
        };
        lines.push(Line::styled(
            format!("{winner} wins the match ({}, {confirmed})", r.how),
            bold,
        ));
    }
    if s.phase == v1::MatchPhase::Waiting as i32 {
        lines.push(Line::from("waiting for the players"));
    }
    // The dice commitment, for every spectator to witness before the first roll
    // (docs/dice.md): the revealed seed must hash to it.
    if chess.is_none() && s.dice_source == "server" && s.commitment.len() >= 16 {
        lines.push(Line::from(format!(
            "dice committed: {}…",
            &s.commitment[..16]
        )));
    }
    if let Some(seeds) = seeds_line(s) {
        lines.push(Line::from(seeds));
    }
    lines
}

/// The players' seeds as the log records them: "seeds: Anna committed 1f0c…, Ben
/// revealed"; nothing while neither has one (unless the tournament requires them).
fn seeds_line(s: &v1::MatchState) -> Option<String> {
    let said: Vec<String> = s
        .player_seeds
        .iter()
        .zip([&s.player_a, &s.player_b])
        .filter_map(
            |(p, name)| match (p.commitment.get(..8), p.seed.is_empty()) {
                (_, false) => Some(format!("{name} revealed")),
                (Some(c), true) => Some(format!("{name} committed {c}…")),
                (None, true) if s.player_seeds_required => Some(format!("{name} to give one")),
                (None, true) => None,
            },
        )
        .collect();
    (!said.is_empty()).then(|| format!("seeds: {}", said.join(", ")))
}

/// The last event and head hash seen, or what is wrong with the connection.
fn draw_footer(
    frame: &mut Frame,
    s: &v1::MatchState,
    status: &Status,
    bottom: ratatui::layout::Rect,
) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let head = s.head_hash.get(..12).unwrap_or_default();
    let foot = match &status.connection {
        Some(problem) => Line::styled(problem.clone(), bold),
        None => Line::from(vec![
            Span::raw(format!("event {}  head {head}", s.seq)),
            Span::raw("   q: quit"),
        ]),
    };
    frame.render_widget(Paragraph::new(foot), bottom);
}

/// A chess match's lines: who is to move, flags, illegal moves, the games played.
fn chess_lines(s: &v1::MatchState, c: &v1::ChessState) -> Vec<String> {
    let mut lines = vec![chess_text::turn(s, c)];
    for f in &c.flags {
        lines.push(format!("{}'s flag fell", chess_text::color(f.color)));
    }
    if c.illegal_moves.iter().any(|n| *n > 0) {
        lines.push(format!(
            "illegal moves: White {}, Black {}",
            c.illegal_moves.first().copied().unwrap_or(0),
            c.illegal_moves.get(1).copied().unwrap_or(0)
        ));
    }
    for g in &c.results {
        let white = player(s, g.white);
        let result = g.result.as_ref().map_or("-".into(), chess_text::result);
        lines.push(format!("game {} ({white} White): {result}", g.game));
    }
    lines
}

fn player(s: &v1::MatchState, side: i32) -> &str {
    if side == v1::Side::B as i32 {
        &s.player_b
    } else {
        &s.player_a
    }
}

fn other(s: &v1::MatchState, side: i32) -> &str {
    if side == v1::Side::B as i32 {
        &s.player_a
    } else {
        &s.player_b
    }
}

fn die(s: &v1::MatchState, i: usize) -> u32 {
    s.dice.get(i).copied().unwrap_or(0)
}
