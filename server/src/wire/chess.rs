//! The chess half of the wire: `ChessCommand` in, `ChessState` out. Arbiter actions need
//! the director and a ruling, as director actions do in backgammon; the ruling is kept in
//! the log beside the events it caused.

use baffle_core::chess::game::QuickplayRuling;
use baffle_core::chess::{
    Category, ChessMatch, Color, Command, GameResult, Laws, MatchCommand, Outcome, Reason,
};
use baffle_core::{Millis, Side};
use baffle_proto::convert::{clock_state, pause_reason_from_wire, side_to_wire};
use baffle_proto::v1;
use baffle_proto::v1::chess_command::Action;
use tonic::Status;

use baffle_core::table::{ChessRuling, Request};

use super::context::{StateContext, match_result};

/// True for the actions only the arbiter (the director's token) may take.
pub fn arbiter_only(action: &Action) -> bool {
    matches!(
        action,
        Action::ExcuseLateness(_)
            | Action::Resume(_)
            | Action::IllegalMove(_)
            | Action::CannotCheckmate(_)
            | Action::FlagOrderUnknown(_)
            | Action::SetTime(_)
            | Action::SetMoves(_)
            | Action::QuickplayRuling(_)
            | Action::ArbiterResult(_)
            | Action::DrawPosition(_)
    ) || matches!(action, Action::Pause(r) if *r == v1::PauseReason::DirectorStopped as i32)
}

fn color(value: i32, field: &str) -> Result<Color, Status> {
    match v1::Color::try_from(value) {
        Ok(v1::Color::White) => Ok(Color::White),
        Ok(v1::Color::Black) => Ok(Color::Black),
        _ => Err(Status::invalid_argument(format!(
            "{field}: the colour must be white or black"
        ))),
    }
}

/// The wire colour.
pub fn color_to_wire(c: Color) -> v1::Color {
    match c {
        Color::White => v1::Color::White,
        Color::Black => v1::Color::Black,
    }
}

/// The Laws a wire value names (unset, or the old name `LATER`: the 2023 Laws).
pub fn laws_from_wire(value: i32) -> Result<Laws, Status> {
    match v1::ChessLaws::try_from(value) {
        Ok(v1::ChessLaws::Unspecified | v1::ChessLaws::Later | v1::ChessLaws::Fide2023) => {
            Ok(Laws::Fide2023)
        }
        Ok(v1::ChessLaws::Fide2009) => Ok(Laws::Fide2009),
        Ok(v1::ChessLaws::Fide2014) => Ok(Laws::Fide2014),
        Ok(v1::ChessLaws::Fide2018) => Ok(Laws::Fide2018),
        Err(_) => Err(Status::invalid_argument(format!(
            "chess.laws: unknown value {value}: FIDE 2009, 2014, 2018 or 2023"
        ))),
    }
}

fn laws_to_wire(laws: Laws) -> v1::ChessLaws {
    match laws {
        Laws::Fide2009 => v1::ChessLaws::Fide2009,
        Laws::Fide2014 => v1::ChessLaws::Fide2014,
        Laws::Fide2018 => v1::ChessLaws::Fide2018,
        Laws::Fide2023 => v1::ChessLaws::Fide2023,
    }
}

const OUTCOMES: [(Outcome, v1::ChessOutcome); 4] = [
    (Outcome::WhiteWins, v1::ChessOutcome::WhiteWins),
    (Outcome::BlackWins, v1::ChessOutcome::BlackWins),
    (Outcome::Draw, v1::ChessOutcome::Draw),
    (Outcome::BothLose, v1::ChessOutcome::BothLose),
];

const REASONS: [(Reason, v1::ChessReason); 10] = [
    (Reason::Checkmate, v1::ChessReason::Checkmate),
    (Reason::Resignation, v1::ChessReason::Resignation),
    (Reason::Flag, v1::ChessReason::Flag),
    (
        Reason::FlagInsufficientMaterial,
        v1::ChessReason::FlagInsufficientMaterial,
    ),
    (Reason::Agreement, v1::ChessReason::Agreement),
    (Reason::ArbiterDecision, v1::ChessReason::ArbiterDecision),
    (Reason::Default, v1::ChessReason::Default),
    (Reason::IllegalMoves, v1::ChessReason::IllegalMoves),
    (Reason::BothFlags, v1::ChessReason::BothFlags),
    (Reason::QuickplayFinish, v1::ChessReason::QuickplayFinish),
];

fn result_to_wire(r: GameResult) -> v1::ChessResult {
    let outcome = OUTCOMES.iter().find(|(o, _)| *o == r.outcome).map(|p| p.1);
    let reason = REASONS.iter().find(|(x, _)| *x == r.reason).map(|p| p.1);
    v1::ChessResult {
        outcome: outcome.unwrap_or_default() as i32,
        reason: reason.unwrap_or_default() as i32,
    }
}

fn result_from_wire(r: v1::ChessResult) -> Result<GameResult, Status> {
    let outcome = OUTCOMES
        .iter()
        .find(|(_, w)| *w as i32 == r.outcome)
        .map(|p| p.0)
        .ok_or_else(|| Status::invalid_argument("arbiter_result.outcome: not set or unknown"))?;
    let reason = REASONS
        .iter()
        .find(|(_, w)| *w as i32 == r.reason)
        .map(|p| p.0)
        .ok_or_else(|| Status::invalid_argument("arbiter_result.reason: not set or unknown"))?;
    Ok(GameResult { outcome, reason })
}

/// Decodes a chess command; `ruling` is the director's reason and article, required with
/// arbiter actions.
pub fn decode(command: v1::ChessCommand, ruling: Option<v1::Ruling>) -> Result<Request, Status> {
    let action = command
        .action
        .ok_or_else(|| Status::invalid_argument("command.chess: exactly one action must be set"))?;
    // Whether the action needs a ruling is the rules' to say (the table checks it).
    let ruling = ruling.map(|r| ChessRuling {
        reason: r.reason,
        article: r.article,
    });
    let game = |c: Command| -> Result<Request, Status> {
        Ok(Request::Chess {
            command: MatchCommand::Game(c),
            ruling: ruling.clone(),
        })
    };
    match action {
        Action::Arrive(c) => game(Command::Arrive(color(c, "arrive")?)),
        Action::Press(c) => game(Command::Press(color(c, "press")?)),
        Action::MoveMade(c) => game(Command::MoveMade(color(c, "move_made")?)),
        Action::Resign(c) => game(Command::Resign(color(c, "resign")?)),
        Action::Checkmate(c) => game(Command::Checkmate(color(c, "checkmate")?)),
        Action::AgreeDraw(_) => game(Command::AgreeDraw),
        Action::ClaimFlag(c) => game(Command::ClaimFlag(color(c, "claim_flag")?)),
        Action::Pause(reason) => game(Command::Pause(
            pause_reason_from_wire(reason)
                .map_err(|e| Status::invalid_argument(format!("pause: {e}")))?,
        )),
        Action::Resume(_) => game(Command::Resume),
        Action::QuickplayClaim(c) => game(Command::QuickplayClaim(color(c, "quickplay_claim")?)),
        Action::NextGame(_) => Ok(Request::Chess {
            command: MatchCommand::NextGame,
            ruling,
        }),
        Action::ExcuseLateness(c) => game(Command::ExcuseLateness(color(c, "excuse_lateness")?)),
        Action::IllegalMove(m) => game(Command::IllegalMove {
            by: color(m.color, "illegal_move.color")?,
            opponent_can_mate: !m.opponent_cannot_mate,
        }),
        Action::CannotCheckmate(_) => game(Command::CannotCheckmate),
        Action::FlagOrderUnknown(_) => game(Command::FlagOrderUnknown),
        Action::SetTime(t) => game(Command::SetTime(
            color(t.color, "set_time.color")?,
            Millis(t.ms),
        )),
        Action::SetMoves(m) => game(Command::SetMoves(
            color(m.color, "set_moves.color")?,
            m.moves,
        )),
        Action::QuickplayRuling(r) => game(Command::QuickplayRuling(
            match v1::QuickplayRuling::try_from(r) {
                Ok(v1::QuickplayRuling::Draw) => QuickplayRuling::Draw,
                Ok(v1::QuickplayRuling::Increment) => QuickplayRuling::Increment,
                Ok(v1::QuickplayRuling::Reject) => QuickplayRuling::Reject,
                Ok(v1::QuickplayRuling::Postpone) => QuickplayRuling::Postpone { extra_time: true },
                Ok(v1::QuickplayRuling::PostponeNoTime) => {
                    QuickplayRuling::Postpone { extra_time: false }
                }
                _ => {
                    return Err(Status::invalid_argument(
                        "quickplay_ruling: draw, increment, postpone, postpone_no_time or reject",
                    ));
                }
            },
        )),
        Action::ArbiterResult(r) => game(Command::ArbiterResult(result_from_wire(r)?)),
        Action::DrawPosition(_) => Ok(Request::ChessPosition { ruling }),
    }
}

fn category_name(c: Category) -> &'static str {
    match c {
        Category::Standard => "standard",
        Category::Rapid => "rapid",
        Category::Blitz => "blitz",
    }
}

/// How a finished match ended: on points (a winner), by double default (no game was
/// played: every game lost by both, 6.7), or drawn.
fn match_how(m: &ChessMatch) -> v1::MatchEndKind {
    let results = m.series().results();
    if m.winner().is_some() {
        v1::MatchEndKind::Points
    } else if !results.is_empty() && results.iter().all(|r| r.outcome == Outcome::BothLose) {
        v1::MatchEndKind::DoubleDefault
    } else {
        v1::MatchEndKind::Draw
    }
}

/// The wire state of a chess match.
pub fn match_state(m: &ChessMatch, cx: &StateContext<'_>) -> v1::MatchState {
    let settings = m.settings();
    let game = m.game();
    let white = m.white();
    let player = |c: Color| match c {
        Color::White => white,
        Color::Black => white.other(),
    };
    let phase = if m.is_over() {
        v1::MatchPhase::Over
    } else if game.result().is_some() {
        v1::MatchPhase::BetweenGames
    } else if m.number() == 1 && !game.started() {
        v1::MatchPhase::Waiting
    } else {
        v1::MatchPhase::Playing
    };
    let present = game.present();
    let by_player = |s: Side| present[if s == white { 0 } else { 1 }];
    // The fields every match's state has alike are `wire::match_state`'s.
    v1::MatchState {
        player_a: settings.players[0].clone(),
        player_b: settings.players[1].clone(),
        length: settings.games,
        phase: phase as i32,
        game_number: m.number(),
        cube_value: 1,
        turn_side: game
            .to_move()
            .map_or(v1::Side::Unspecified, |c| side_to_wire(player(c))) as i32,
        clock: Some(clock_state(game.clock(), cx.now)),
        result: m.is_over().then(|| {
            let winner = m.winner().map_or(v1::Side::Unspecified, side_to_wire);
            match_result(winner, match_how(m), true)
        }),
        dice_source: "server".into(),
        present: Side::BOTH.map(by_player).to_vec(),
        next_due_ms: m.next_due().map(|at| at.as_ms()),
        chess: Some(chess_state(m, cx.now)),
        ..Default::default()
    }
}

/// The chess part of a match's state: the game under way, the series' results, the
/// Chess960 position.
fn chess_state(m: &ChessMatch, now: baffle_core::Timestamp) -> v1::ChessState {
    let settings = m.settings();
    let game = m.game();
    let white = m.white();
    let (half_a, half_b) = m.series().half_points();
    let clock = game.clock();
    let results = m
        .series()
        .results()
        .iter()
        .enumerate()
        .map(|(i, r)| v1::ChessGame {
            game: i as u32 + 1,
            white: side_to_wire(m.series().white_in(i as u32 + 1)) as i32,
            result: Some(result_to_wire(*r)),
        })
        .collect();
    v1::ChessState {
        category: category_name(game.category()).into(),
        laws: laws_to_wire(settings.laws) as i32,
        supervised: settings.supervised,
        games: settings.games,
        white: side_to_wire(white) as i32,
        started: game.started(),
        to_move: game.to_move().map_or(v1::Color::Unspecified, color_to_wire) as i32,
        present: game.present().to_vec(),
        illegal_moves: game.illegal_moves().to_vec(),
        flags: game
            .flags()
            .iter()
            .zip(game.flag_notices())
            .map(|((c, at), noticed)| v1::ChessFlag {
                color: color_to_wire(*c) as i32,
                at_ms: at.as_ms(),
                noticed_at_ms: noticed.map(|t| t.as_ms()),
            })
            .collect(),
        quickplay_claim: game.claim().map_or(v1::Color::Unspecified, color_to_wire) as i32,
        results,
        half_points_a: half_a,
        half_points_b: half_b,
        position: m.series().position().map(|p| v1::Chess960Position {
            sp: u32::from(p.sp),
            back_rank: p.back_rank.clone(),
            black_back_rank: p.black_back_rank(),
        }),
        chess960: settings.chess960,
        moves: [Side::A, Side::B]
            .map(|s| clock.view(s, now).moves)
            .to_vec(),
        laws_name: settings.laws.label(),
        quickplay_postponed: game.claim_postponed(),
    }
}
