//! Chess on the command line: `baffle match create --chess …` and
//! `baffle chess MATCH ACTION` — the players' actions, and the arbiter's with
//! `--reason` and `--article`.

use baffle_core::Millis;
use baffle_core::clock::{TimeControl, TimingMethod};
use baffle_proto::v1;
use baffle_proto::v1::chess_command::Action;

use crate::cli::{ChessAction, ChessMatchArgs, ColorArg, LawsArg, QuickplayArg};
use crate::duration;

fn color(c: ColorArg) -> i32 {
    match c {
        ColorArg::White => v1::Color::White as i32,
        ColorArg::Black => v1::Color::Black as i32,
    }
}

/// The time control a `--chess` value names.
pub fn control(text: &str) -> Result<TimeControl, String> {
    match text {
        "fide-classical" | "classical" => return Ok(TimeControl::fide_classical()),
        "rapid" => return Ok(TimeControl::rapid()),
        "blitz" => return Ok(TimeControl::blitz()),
        _ => {}
    }
    let (base, method) = match text.split_once('+') {
        None => (text, TimingMethod::SuddenDeath),
        Some((base, delay)) if delay.starts_with('d') => (
            base,
            TimingMethod::SimpleDelay {
                delay: duration::parse(&delay[1..])?,
            },
        ),
        Some((base, delay)) if delay.starts_with('b') => (
            base,
            TimingMethod::Bronstein {
                delay: duration::parse(&delay[1..])?,
            },
        ),
        Some((base, increment)) => (
            base,
            TimingMethod::Fischer {
                increment: duration::parse(increment)?,
            },
        ),
    };
    TimeControl::single(duration::parse(base)?, method).map_err(|e| e.to_string())
}

/// The chess settings of `baffle match create`, if `--chess` was given.
pub fn settings(args: &ChessMatchArgs) -> Result<Option<v1::ChessMatchSettings>, String> {
    let Some(text) = &args.chess else {
        return Ok(None);
    };
    let control = control(text)?;
    let default_time = match &args.default_time {
        Some(t) => duration::parse(t)?,
        None => Millis::ZERO,
    };
    Ok(Some(v1::ChessMatchSettings {
        control: Some((&control).into()),
        games: args.games,
        default_time_ms: default_time.as_ms(),
        laws: match args.laws {
            LawsArg::Fide2009 => v1::ChessLaws::Fide2009,
            LawsArg::Fide2014 => v1::ChessLaws::Fide2014,
            LawsArg::Fide2018 => v1::ChessLaws::Fide2018,
            LawsArg::Fide2023 => v1::ChessLaws::Fide2023,
        } as i32,
        unsupervised: args.unsupervised,
        chess960: args.chess960,
    }))
}

/// The wire command for `action`; pause reasons are checked by the caller's parser.
pub fn command(action: &ChessAction, pause: i32) -> Result<v1::ChessCommand, String> {
    let empty = v1::Empty {};
    let action = match action {
        ChessAction::Arrive { color: c } => Action::Arrive(color(*c)),
        ChessAction::Press { color: c } => Action::Press(color(*c)),
        ChessAction::Resign { color: c } => Action::Resign(color(*c)),
        ChessAction::Checkmate { color: c } => Action::Checkmate(color(*c)),
        ChessAction::Draw => Action::AgreeDraw(empty),
        ChessAction::ClaimFlag { color: c } => Action::ClaimFlag(color(*c)),
        ChessAction::Pause { .. } => Action::Pause(pause),
        ChessAction::Resume => Action::Resume(empty),
        ChessAction::QuickplayClaim { color: c } => Action::QuickplayClaim(color(*c)),
        ChessAction::NextGame => Action::NextGame(empty),
        ChessAction::Excuse { color: c } => Action::ExcuseLateness(color(*c)),
        ChessAction::Illegal {
            color: c,
            opponent_cannot_mate,
        } => Action::IllegalMove(v1::IllegalMove {
            color: color(*c),
            opponent_cannot_mate: *opponent_cannot_mate,
        }),
        ChessAction::CannotCheckmate => Action::CannotCheckmate(empty),
        ChessAction::FlagOrderUnknown => Action::FlagOrderUnknown(empty),
        ChessAction::SetTime { color: c, time } => Action::SetTime(v1::ChessTime {
            color: color(*c),
            ms: duration::parse(time)?.as_ms(),
        }),
        ChessAction::SetMoves { color: c, moves } => Action::SetMoves(v1::ChessMoves {
            color: color(*c),
            moves: *moves,
        }),
        ChessAction::Quickplay { ruling } => Action::QuickplayRuling(match ruling {
            QuickplayArg::Draw => v1::QuickplayRuling::Draw,
            QuickplayArg::Increment => v1::QuickplayRuling::Increment,
            QuickplayArg::Postpone => v1::QuickplayRuling::Postpone,
            QuickplayArg::PostponeNoTime => v1::QuickplayRuling::PostponeNoTime,
            QuickplayArg::Reject => v1::QuickplayRuling::Reject,
        } as i32),
        ChessAction::Result { outcome, reason } => Action::ArbiterResult(v1::ChessResult {
            outcome: match outcome.as_str() {
                "1-0" => v1::ChessOutcome::WhiteWins,
                "0-1" => v1::ChessOutcome::BlackWins,
                "draw" | "1/2" | "½-½" => v1::ChessOutcome::Draw,
                "0-0" => v1::ChessOutcome::BothLose,
                other => return Err(format!("{other:?}: the outcome is 1-0, 0-1, draw or 0-0")),
            } as i32,
            reason: {
                let name = format!("CHESS_REASON_{}", reason.replace('-', "_").to_uppercase());
                v1::ChessReason::from_str_name(&name)
                    .filter(|r| *r != v1::ChessReason::Unspecified)
                    .ok_or_else(|| format!("{reason:?} is not a reason a game ends for"))?
                    as i32
            },
        }),
        ChessAction::DrawPosition => Action::DrawPosition(empty),
    };
    Ok(v1::ChessCommand {
        action: Some(action),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_controls_are_written_as_base_plus_increment_or_delay() {
        let c = control("25m+10s").unwrap();
        assert_eq!(c.periods()[0].base, Millis::mins(25));
        assert_eq!(
            c.periods()[0].method,
            TimingMethod::Fischer {
                increment: Millis::secs(10)
            }
        );
        let d = control("5m+d5s").unwrap();
        assert_eq!(
            d.periods()[0].method,
            TimingMethod::SimpleDelay {
                delay: Millis::secs(5)
            }
        );
        assert_eq!(
            control("5m+b3s").unwrap().periods()[0].method,
            TimingMethod::Bronstein {
                delay: Millis::secs(3)
            }
        );
        assert_eq!(control("fide-classical").unwrap().periods().len(), 2);
        assert!(control("soon").is_err());
    }
}
