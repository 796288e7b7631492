//! `baffle follow MATCH`: a live scoreboard for one match, readable from across the room.
//! No token needed; it resumes from the last event seen after a disconnect.

use baffle_i18n::turn::Form;
use baffle_proto::v1;
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::reveal::{self, DiceCheck};
use crate::words;
use baffle_proto::chess_text;
use baffle_proto::faces::{faces, mmss};

/// What the follow view shows besides the match.
#[derive(Clone, Debug, Default)]
pub struct Status {
    /// A connection problem, shown at the bottom.
    pub connection: Option<String>,
    /// The dice of a match whose seed is revealed, as recomputed here.
    pub dice: Option<DiceShown>,
}

/// Where recomputing a revealed match's dice stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiceShown {
    /// The log is being fetched and verified.
    Checking,
    /// What the check found.
    Checked(DiceCheck),
}

/// The dice line of a revealed match (`None` before the reveal): verified once the log
/// was checked here, never on the reveal's word alone.
pub fn dice_verdict(s: &v1::MatchState, shown: Option<&DiceShown>) -> Option<String> {
    if !s.dice_revealed || !reveal::uses_server_dice(s) {
        return None;
    }
    Some(match shown {
        Some(DiceShown::Checked(DiceCheck::Verified { draws })) => {
            words::say_with("follow-dice-verified", &[("count", (*draws as u32).into())])
        }
        Some(DiceShown::Checked(DiceCheck::Failed { why })) => {
            words::say_with("follow-dice-not-verified", &[("why", why.clone().into())])
        }
        Some(DiceShown::Checked(DiceCheck::Unreadable { why })) => {
            words::say_with("follow-dice-unreadable", &[("why", why.clone().into())])
        }
        Some(DiceShown::Checking) | None => words::say("follow-dice-checking"),
    })
}

fn pause_reason(clock: &v1::ClockState) -> Option<String> {
    words::pause_reason(clock.paused)
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
    let lines = info_lines(s, status);
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
        Some(c) => words::chess_game(s, c),
        None => {
            let to = words::say_with("follow-match-to", &[("length", s.length.into())]);
            if s.crawford {
                format!("{to}   {}", words::say("follow-crawford-game"))
            } else if s.post_crawford {
                format!("{to}   {}", words::say("post-crawford"))
            } else {
                to
            }
        }
    };
    heading.push(Line::from(detail));
    frame.render_widget(
        Paragraph::new(heading).alignment(Alignment::Center).block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" {} ", words::say("follow-title"))),
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
                        color_words(color as i32)
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
                    format!("  {}", words::say("console-flag"))
                } else if face.running {
                    "  ◀".to_string()
                } else {
                    String::new()
                };
                let delay = if face.delay_ms > 0 {
                    words::say_with("follow-delay", &[("time", mmss(face.delay_ms).into())])
                } else if chess.is_some() {
                    let args = [
                        ("moves", sides[i].moves.into()),
                        ("period", (sides[i].period + 1).into()),
                    ];
                    words::say_with("follow-moves-period", &args)
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
            Paragraph::new(words::say("follow-no-clock")).alignment(Alignment::Center),
            clocks,
        ),
    }
}

/// The game in words: the turn, a pause, the result, or waiting for the players; and
/// the dice: the commitment, the players' seeds, a seed awaited, the check once revealed.
fn info_lines(s: &v1::MatchState, status: &Status) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let chess = s.chess.as_ref();
    let mut lines = Vec::new();
    if let Some(c) = chess {
        lines.extend(chess_lines(s, c).into_iter().map(Line::from));
    } else if s.game_number > 0 {
        let names = [s.player_a.as_str(), s.player_b.as_str()];
        let turn = words::turn(s, Form::Line, names);
        let args = [
            ("number", s.game_number.into()),
            ("cube", words::cube(s, names).into()),
            ("turn", turn.into()),
        ];
        lines.push(Line::from(words::say_with("follow-game", &args)));
    }
    if let Some(reason) = s.clock.as_ref().and_then(pause_reason) {
        let said = words::say_with("event-paused", &[("reason", reason.into())]);
        lines.push(Line::styled(said, bold));
    }
    let end = |kind: v1::MatchEndKind| s.result.as_ref().filter(|r| r.how_kind == kind as i32);
    if let Some(r) = end(v1::MatchEndKind::Draw) {
        let id = if r.confirmed {
            "follow-drawn-confirmed"
        } else {
            "follow-drawn-provisional"
        };
        lines.push(Line::styled(words::say(id), bold));
    } else if end(v1::MatchEndKind::DoubleDefault).is_some() {
        lines.push(Line::styled(words::say("follow-both-lost"), bold));
    } else if let Some(r) = &s.result {
        let args = [
            ("name", player(s, r.winner).into()),
            ("how", words::how(r.how_kind).into()),
        ];
        let said = if r.confirmed {
            words::say_with("follow-won-confirmed", &args)
        } else {
            words::say_with("follow-won-provisional", &args)
        };
        lines.push(Line::styled(said, bold));
    }
    if s.phase == v1::MatchPhase::Waiting as i32 {
        lines.push(Line::from(words::say("state-waiting")));
    }
    // The dice commitment, for every spectator to witness before the first roll
    // (docs/dice.md): the revealed seed must hash to it.
    if chess.is_none() && s.dice_source == "server" && s.commitment.len() >= 16 {
        let args = [("commitment", s.commitment[..16].into())];
        lines.push(Line::from(words::say_with("follow-dice-committed", &args)));
    }
    if let Some(seeds) = seeds_line(s) {
        lines.push(Line::from(seeds));
    }
    for p in reveal::pending(s) {
        let args = [
            ("name", p.name.clone().into()),
            ("due", words::time_of_day(p.due_ms).into()),
        ];
        lines.push(Line::styled(
            words::say_with("follow-dice-waiting", &args),
            bold,
        ));
    }
    for line in reveal::live_lines(s, Some(s.sent_at_ms)) {
        lines.push(Line::styled(line, bold));
    }
    if let Some(verdict) = dice_verdict(s, status.dice.as_ref()) {
        lines.push(Line::styled(verdict, bold));
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
                (_, false) => Some(words::say_with(
                    "follow-seed-revealed",
                    &[("name", name.clone().into())],
                )),
                (Some(c), true) => Some(words::say_with(
                    "follow-seed-committed",
                    &[("name", name.clone().into()), ("short", c.into())],
                )),
                (None, true) if s.player_seeds_required => Some(words::say_with(
                    "follow-seed-to-give",
                    &[("name", name.clone().into())],
                )),
                (None, true) => None,
            },
        )
        .collect();
    (!said.is_empty()).then(|| words::say_with("follow-seeds", &[("list", said.join(", ").into())]))
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
        None => Line::from(words::say_with(
            "follow-footer",
            &[("seq", s.seq.into()), ("head", head.into())],
        )),
    };
    frame.render_widget(Paragraph::new(foot), bottom);
}

/// A chess match's lines: who is to move, flags, illegal moves, the games played.
fn chess_lines(s: &v1::MatchState, c: &v1::ChessState) -> Vec<String> {
    let mut turn = match v1::Color::try_from(c.to_move) {
        Ok(color @ (v1::Color::White | v1::Color::Black)) => {
            let args = [
                ("name", chess_text::player(s, c, color).into()),
                ("color", color_words(c.to_move).into()),
            ];
            words::say_with("follow-chess-to-move", &args)
        }
        _ if !c.started && s.phase == v1::MatchPhase::Waiting as i32 => {
            words::say("follow-chess-not-started")
        }
        _ => String::new(),
    };
    if c.quickplay_claim != 0 {
        let args = [("color", color_words(c.quickplay_claim).into())];
        turn = format!(
            "{turn} · {}",
            words::say_with("follow-chess-quickplay-claim", &args)
        );
    }
    let mut lines = vec![turn];
    for f in &c.flags {
        let args = [("color", color_words(f.color).into())];
        lines.push(words::say_with("event-chess-flag", &args));
    }
    if c.illegal_moves.iter().any(|n| *n > 0) {
        let count = |i: usize| c.illegal_moves.get(i).copied().unwrap_or(0);
        let args = [("white", count(0).into()), ("black", count(1).into())];
        lines.push(words::say_with("follow-chess-illegal-moves", &args));
    }
    for g in &c.results {
        let result = g.result.as_ref().map_or("-".into(), |r| {
            let outcome = words::enum_words("ChessOutcome", r.outcome);
            format!("{outcome} {}", words::enum_words("ChessReason", r.reason))
        });
        let args = [
            ("game", g.game.into()),
            ("name", player(s, g.white).into()),
            ("result", result.into()),
        ];
        lines.push(words::say_with("follow-chess-game-result", &args));
    }
    lines
}

/// A chess colour's words ("White", "Λευκά").
fn color_words(color: i32) -> String {
    if color == v1::Color::Black as i32 {
        words::say("color-black")
    } else {
        words::say("color-white")
    }
}

fn player(s: &v1::MatchState, side: i32) -> &str {
    if side == v1::Side::B as i32 {
        &s.player_b
    } else {
        &s.player_a
    }
}
