//! Between the `baffle.v1` wire types and the engine: match state out, commands in.
//! Malformed commands become INVALID_ARGUMENT naming the field; nothing here panics on
//! input.

use baffle_core::audit::{Hash, Record, kind_of};
use baffle_core::backgammon::{
    Command, DiceSource, DirectorAction, GameKind, Match, MatchEnd, Ruling, Turn, VoidReason,
};
use baffle_core::table::{Game, Refusal, RefusalKind, Request};

use crate::error::Error;
use baffle_core::{Millis, Side, Timestamp};
use baffle_proto::convert::{clock_state, pause_reason_from_wire, side_from_wire, side_to_wire};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use tonic::Status;

pub mod chess;
pub mod setup;
pub mod tournament;

pub use baffle_core::table::MatchInfo;

/// A backgammon rule's refusal as a status: INVALID_ARGUMENT for a value no match could
/// accept, FAILED_PRECONDITION for one the state refuses now.
pub fn rule_error(e: baffle_core::backgammon::RuleError) -> Status {
    if e.invalid {
        Status::invalid_argument(e.to_string())
    } else {
        Status::failed_precondition(e.to_string())
    }
}

/// A failure inside the server as a status (`docs/server.md`, Statuses).
pub fn status(e: Error) -> Status {
    match e {
        Error::Refused(r) => refusal(r),
        Error::Invalid(m) => Status::invalid_argument(m),
        Error::NotFound(m) => Status::not_found(m),
        Error::AlreadyExists(m) => Status::already_exists(m),
        Error::Stale(m) => Status::aborted(m),
        Error::RateLimited(m) => Status::resource_exhausted(m),
        Error::Unavailable(m) => Status::unavailable(m),
        Error::DataLoss(m) => Status::data_loss(m),
        Error::Internal(m) => Status::internal(m),
    }
}

impl From<Error> for Status {
    fn from(e: Error) -> Status {
        status(e)
    }
}

/// A refusal of the match's table as a status: a request that does not fit the match
/// is INVALID_ARGUMENT, a rule that refuses it now FAILED_PRECONDITION.
pub fn refusal(r: Refusal) -> Status {
    match r.kind {
        RefusalKind::Invalid => Status::invalid_argument(r.message),
        RefusalKind::Rule => Status::failed_precondition(r.message),
    }
}

/// Which rules a match is played under, as decoding a command needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Backgammon, with dice from here.
    Backgammon(DiceSource),
    /// Chess.
    Chess,
}

fn side(value: i32, field: &str) -> Result<Side, Status> {
    side_from_wire(value).map_err(|e| Status::invalid_argument(format!("{field}: {e}")))
}

fn kind(value: i32, field: &str) -> Result<GameKind, Status> {
    match v1::GameKind::try_from(value) {
        Ok(v1::GameKind::Single) => Ok(GameKind::Single),
        Ok(v1::GameKind::Gammon) => Ok(GameKind::Gammon),
        Ok(v1::GameKind::Backgammon) => Ok(GameKind::Backgammon),
        _ => Err(Status::invalid_argument(format!(
            "{field}: kind must be single, gammon or backgammon"
        ))),
    }
}

/// Two reported dice as the rules take them; whether they are 1 to 6 is the rules' to
/// say (4.1 (i)).
fn two_dice(dice: &[u32], field: &str) -> Result<[u8; 2], Status> {
    let die = |d: u32| u8::try_from(d).unwrap_or(u8::MAX);
    match dice {
        [a, b] => Ok([die(*a), die(*b)]),
        _ => Err(Status::invalid_argument(format!(
            "{field}: two dice, not {}",
            dice.len()
        ))),
    }
}

/// True for the actions only the director may take.
pub fn director_only(action: &Action) -> bool {
    matches!(
        action,
        Action::Warn(_)
            | Action::AwardPoints(_)
            | Action::DeductPoints(_)
            | Action::AdjustTime(_)
            | Action::SetTime(_)
            | Action::ForfeitGame(_)
            | Action::ForfeitMatch(_)
            | Action::ImposeClock(_)
            | Action::RemoveClock(_)
            | Action::VoidDouble(_)
            | Action::CorrectCube(_)
            | Action::CorrectScore(_)
            | Action::CorrectLength(_)
            | Action::ConfirmResult(_)
            | Action::CorrectResult(_)
    ) || matches!(action, Action::Chess(v1::ChessCommand { action: Some(a) }) if chess::arbiter_only(a))
}

/// Decodes a wire command for a match played under `rules`.
pub fn decode(
    command: Option<v1::Command>,
    ruling: Option<v1::Ruling>,
    rules: Rules,
) -> Result<Request, Status> {
    let action = command
        .and_then(|c| c.action)
        .ok_or_else(|| Status::invalid_argument("command: exactly one action must be set"))?;
    let dice = match rules {
        Rules::Chess => {
            return match action {
                Action::Chess(c) => chess::decode(c, ruling),
                _ => Err(Status::invalid_argument(
                    "command: this is a chess match: send command.chess",
                )),
            };
        }
        Rules::Backgammon(_) if matches!(action, Action::Chess(_)) => {
            return Err(Status::invalid_argument(
                "command.chess: this is a backgammon match",
            ));
        }
        Rules::Backgammon(dice) => dice,
    };
    if director_only(&action) {
        // A ruling's reason and article are the rules' to require (backgammon/director.rs).
        let ruling = ruling.unwrap_or_default();
        let ruling = Ruling::new(ruling.reason, ruling.article);
        let action = director_action(action)?;
        return Ok(Request::Backgammon(Command::Director { action, ruling }));
    }
    play_request(action, dice)
}

/// A player's (or a device's) backgammon action, with dice from `dice`.
fn play_request(action: Action, dice: DiceSource) -> Result<Request, Status> {
    let engine = |c| Ok(Request::Backgammon(c));
    match action {
        Action::CheckIn(s) => engine(Command::CheckIn {
            side: side(s, "check_in")?,
        }),
        Action::StartGame(_) => engine(Command::StartGame),
        Action::OpeningRoll(r) => match dice {
            DiceSource::Server if r.dice.is_empty() => Ok(Request::ServerOpening),
            DiceSource::Server => Err(Status::invalid_argument(
                "opening_roll: this match uses server dice: leave dice empty",
            )),
            DiceSource::Physical => engine(Command::OpeningThrow {
                throw: two_dice(&r.dice, "opening_roll")?,
                source: dice,
            }),
        },
        Action::Roll(r) => {
            let s = side(r.side, "roll.side")?;
            match dice {
                DiceSource::Server if r.dice.is_empty() => Ok(Request::ServerRoll(s)),
                DiceSource::Server => Err(Status::invalid_argument(
                    "roll: this match uses server dice: leave dice empty",
                )),
                DiceSource::Physical => engine(Command::Roll {
                    side: s,
                    dice: two_dice(&r.dice, "roll")?,
                    source: dice,
                }),
            }
        }
        Action::InvalidRoll(s) => engine(Command::InvalidRoll {
            side: side(s, "invalid_roll")?,
        }),
        Action::Double(s) => engine(Command::Double {
            side: side(s, "double")?,
        }),
        Action::Take(s) => engine(Command::Take {
            side: side(s, "take")?,
        }),
        Action::Pass(s) => engine(Command::Pass {
            side: side(s, "pass")?,
        }),
        Action::Press(s) => engine(Command::Press {
            side: side(s, "press")?,
        }),
        Action::EndGame(r) => engine(Command::EndGame {
            winner: side(r.side, "end_game.side")?,
            kind: kind(r.kind, "end_game")?,
        }),
        Action::Concede(r) => engine(Command::Concede {
            side: side(r.side, "concede.side")?,
            kind: kind(r.kind, "concede")?,
        }),
        Action::Pause(reason) => engine(Command::Pause {
            reason: pause_reason_from_wire(reason)
                .map_err(|e| Status::invalid_argument(format!("pause: {e}")))?,
        }),
        Action::Resume(_) => engine(Command::Resume),
        Action::RestartDelay(_) => engine(Command::RestartDelay),
        Action::DicePickedUpEarly(s) => engine(Command::DicePickedUpEarly {
            offender: side(s, "dice_picked_up_early")?,
        }),
        Action::ReplayIllegalMove(s) => engine(Command::ReplayIllegalMove {
            offender: side(s, "replay_illegal_move")?,
        }),
        Action::TakeBreak(s) => engine(Command::TakeBreak {
            side: side(s, "take_break")?,
        }),
        Action::Move(m) => engine(Command::Move {
            side: side(m.side, "move.side")?,
            play: m.play,
        }),
        _ => unreachable!("director and chess actions are handled above"),
    }
}

fn director_action(action: Action) -> Result<DirectorAction, Status> {
    // The number of points is the rules' to check (backgammon/director.rs).
    let points = |p: v1::Points, field: &str| -> Result<(Side, u32), Status> {
        Ok((side(p.side, field)?, p.points))
    };
    Ok(match action {
        Action::Warn(s) => DirectorAction::Warning {
            side: side(s, "warn")?,
        },
        Action::AwardPoints(p) => {
            let (to, points) = points(p, "award_points")?;
            DirectorAction::AwardPoints { to, points }
        }
        Action::DeductPoints(p) => {
            let (from, points) = points(p, "deduct_points")?;
            DirectorAction::DeductPoints { from, points }
        }
        Action::AdjustTime(t) => DirectorAction::AdjustTime {
            side: side(t.side, "adjust_time.side")?,
            delta: Millis(t.ms),
        },
        Action::SetTime(t) => DirectorAction::SetTime {
            side: side(t.side, "set_time.side")?,
            time: Millis(t.ms),
        },
        Action::ForfeitGame(r) => DirectorAction::ForfeitGame {
            loser: side(r.side, "forfeit_game.side")?,
            kind: kind(r.kind, "forfeit_game")?,
        },
        Action::ForfeitMatch(s) => DirectorAction::ForfeitMatch {
            loser: side(s, "forfeit_match")?,
        },
        Action::ImposeClock(c) => DirectorAction::ImposeClock {
            per_point: Millis(c.per_point_ms),
            delay: Millis(c.delay_ms),
        },
        Action::RemoveClock(_) => DirectorAction::RemoveClock,
        Action::VoidDouble(reason) => DirectorAction::VoidDouble {
            reason: match reason.as_str() {
                "crawford" => VoidReason::Crawford,
                "dead_cube" => VoidReason::DeadCube,
                other => {
                    return Err(Status::invalid_argument(format!(
                        "void_double: \"crawford\" or \"dead_cube\", not {other:?}"
                    )));
                }
            },
        },
        Action::CorrectCube(c) => DirectorAction::CorrectCube {
            value: c.value,
            owner: match c.owner {
                0 => None,
                o => Some(side(o, "correct_cube.owner")?),
            },
        },
        Action::CorrectScore(s) => DirectorAction::CorrectScore { a: s.a, b: s.b },
        Action::CorrectLength(length) => DirectorAction::CorrectLength { length },
        Action::ConfirmResult(_) => DirectorAction::ConfirmResult,
        Action::CorrectResult(c) => {
            let r = c
                .result
                .ok_or_else(|| Status::invalid_argument("correct_result.result is required"))?;
            DirectorAction::CorrectResult {
                game: c.game,
                winner: side(r.side, "correct_result.side")?,
                kind: kind(r.kind, "correct_result")?,
            }
        }
        _ => unreachable!("only director actions reach here"),
    })
}

/// The wire form of one log record.
pub fn event(record: &Record) -> v1::Event {
    let kind = kind_of(&record.body).unwrap_or_default();
    v1::Event {
        seq: record.seq,
        kind,
        body: record.body.clone(),
        hash: record.hash.to_string(),
    }
}

/// Everything `match_state` needs besides the match itself.
pub struct StateContext<'a> {
    /// Where the match sits.
    pub info: &'a MatchInfo,
    /// The dice commitment, hex.
    pub commitment: &'a str,
    /// Records in the log.
    pub seq: u64,
    /// The newest record's hash.
    pub head: Hash,
    /// Now, for the clock.
    pub now: Timestamp,
    /// Dice anomalies raised so far, and the latest.
    pub anomalies: (u32, &'a str),
    /// Devices that connected, and whether they are connected now.
    pub devices: &'a std::collections::BTreeMap<String, bool>,
    /// The match's dice, for the players' seeds.
    pub dice: &'a baffle_core::table::TableDice,
}

/// The players' seeds as a state shows them, A then B.
pub(crate) fn player_seeds(cx: &StateContext<'_>) -> Vec<v1::PlayerSeed> {
    Side::BOTH
        .map(|side| v1::PlayerSeed {
            commitment: cx
                .dice
                .player_commitment(side)
                .map(hex::encode)
                .unwrap_or_default(),
            seed: hex::encode(cx.dice.player_seed(side)),
        })
        .to_vec()
}

/// Which rules a game is played under, as decoding a command needs them.
pub fn rules(game: &Game) -> Rules {
    match game {
        Game::Backgammon(m) => Rules::Backgammon(m.setup().dice),
        Game::Chess(_) => Rules::Chess,
    }
}

/// The wire state of a match.
pub fn match_state(game: &Game, cx: &StateContext<'_>) -> v1::MatchState {
    match game {
        Game::Backgammon(m) => backgammon_state(m, cx),
        Game::Chess(m) => chess::match_state(m, cx),
    }
}

/// The wire state of a backgammon match.
fn backgammon_state(m: &Match, cx: &StateContext<'_>) -> v1::MatchState {
    let setup = m.setup();
    let game = m.game();
    let (turn, turn_side, dice) = match game.map(|g| g.turn) {
        None => (v1::TurnPhase::Unspecified, None, vec![]),
        Some(Turn::Opening) => (v1::TurnPhase::Opening, None, vec![]),
        Some(Turn::OnRoll { side, .. }) => (v1::TurnPhase::OnRoll, Some(side), vec![]),
        Some(Turn::Moving { side, dice }) => (
            v1::TurnPhase::Moving,
            Some(side),
            dice.map(u32::from).to_vec(),
        ),
        Some(Turn::DoubleOffered { by }) => (v1::TurnPhase::DoubleOffered, Some(by), vec![]),
    };
    let phase = if m.result().is_some() {
        v1::MatchPhase::Over
    } else if game.is_some() {
        v1::MatchPhase::Playing
    } else if m.games().is_empty() {
        v1::MatchPhase::Waiting
    } else {
        v1::MatchPhase::BetweenGames
    };
    let cube = game.and_then(|g| g.cube);
    let wire_side = |s: Option<Side>| s.map_or(v1::Side::Unspecified, side_to_wire) as i32;
    v1::MatchState {
        match_id: cx.info.id.clone(),
        tournament_id: cx.info.tournament.clone(),
        round: cx.info.round,
        table: cx.info.table.clone(),
        player_a: setup.players[0].clone(),
        player_b: setup.players[1].clone(),
        length: m.length(),
        score_a: m.score(Side::A),
        score_b: m.score(Side::B),
        phase: phase as i32,
        game_number: game.map_or(0, |g| g.number),
        crawford: game.is_some_and(|g| g.crawford),
        post_crawford: m.is_post_crawford(),
        cube_value: cube.map_or(1, |c| c.value),
        cube_owner: wire_side(cube.and_then(|c| c.owner)),
        turn: turn as i32,
        turn_side: wire_side(turn_side),
        dice,
        clock: m.clock().map(|c| clock_state(c, cx.now)),
        result: m.result().map(|r| v1::MatchResult {
            winner: side_to_wire(r.winner) as i32,
            how: match r.how {
                MatchEnd::Points => "points",
                MatchEnd::Timeout => "timeout",
                MatchEnd::PenaltyPoints => "penalty_points",
                MatchEnd::Forfeit => "forfeit",
            }
            .into(),
            confirmed: r.confirmed,
        }),
        seq: cx.seq,
        head_hash: cx.head.to_string(),
        dice_source: match setup.dice {
            DiceSource::Server => "server",
            DiceSource::Physical => "physical",
        }
        .into(),
        commitment: cx.commitment.to_string(),
        present: Side::BOTH.map(|s| m.is_present(s)).to_vec(),
        penalty_points: Side::BOTH.map(|s| m.penalty_points_received(s)).to_vec(),
        breaks_left: Side::BOTH.map(|s| m.breaks_left(s)).to_vec(),
        next_due_ms: m.next_due().map(|(at, _)| at.as_ms()),
        break_until_ms: m.break_until().map(Timestamp::as_ms),
        dice_anomalies: cx.anomalies.0,
        last_anomaly: cx.anomalies.1.to_string(),
        devices: device_presence(cx),
        // Stamped by the streams as each copy leaves.
        sent_at_ms: 0,
        chess: None,
        player_seeds: player_seeds(cx),
        player_seeds_required: cx.dice.seeds_required(),
        board: m.board().map(board_to_wire),
    }
}

/// The board of a match that records moves, A's checkers and B's on their own points.
fn board_to_wire(b: &baffle_core::backgammon::BoardState) -> v1::Board {
    let [a, bb] = b.position.sides();
    let help = baffle_core::backgammon::board::adjudicate(&b.position);
    v1::Board {
        checkers_a: a.iter().map(|&n| u32::from(n)).collect(),
        checkers_b: bb.iter().map(|&n| u32::from(n)).collect(),
        pips: b.pips().to_vec(),
        borne_off: [0, 1].map(|s| u32::from(b.position.borne_off(s))).to_vec(),
        gnubg_position_id: b.position.gnubg_id(),
        moved: b.moved,
        certain_winner: help
            .certain_winner
            .map_or(v1::Side::Unspecified, |s| side_to_wire(Side::BOTH[s]))
            as i32,
        gammon_possible: help.gammon_possible.to_vec(),
    }
}

/// The devices of a match and whether each is connected.
fn device_presence(cx: &StateContext<'_>) -> Vec<v1::DevicePresence> {
    cx.devices
        .iter()
        .map(|(id, connected)| v1::DevicePresence {
            device_id: id.clone(),
            connected: *connected,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(action: Action) -> Option<v1::Command> {
        Some(v1::Command {
            action: Some(action),
        })
    }

    #[test]
    fn malformed_commands_name_the_field() {
        let e = decode(None, None, Rules::Backgammon(DiceSource::Server)).unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument);
        let e = decode(
            cmd(Action::Press(0)),
            None,
            Rules::Backgammon(DiceSource::Server),
        )
        .unwrap_err();
        assert!(e.message().starts_with("press:"), "{}", e.message());
        let roll = v1::Roll {
            side: 1,
            dice: vec![7],
        };
        let e = decode(
            cmd(Action::Roll(roll)),
            None,
            Rules::Backgammon(DiceSource::Physical),
        )
        .unwrap_err();
        assert!(e.message().starts_with("roll: two dice"), "{}", e.message());
        let ruling = Some(v1::Ruling {
            reason: "x".into(),
            article: "2.3".into(),
        });
        let e = decode(
            cmd(Action::VoidDouble("maybe".into())),
            ruling,
            Rules::Backgammon(DiceSource::Server),
        )
        .unwrap_err();
        assert!(e.message().contains("dead_cube"));
    }

    #[test]
    fn server_dice_are_drawn_by_the_server() {
        let roll = v1::Roll {
            side: 2,
            dice: vec![],
        };
        assert_eq!(
            decode(
                cmd(Action::Roll(roll)),
                None,
                Rules::Backgammon(DiceSource::Server)
            )
            .unwrap(),
            Request::ServerRoll(Side::B)
        );
        let reported = v1::Roll {
            side: 2,
            dice: vec![3, 4],
        };
        assert!(
            decode(
                cmd(Action::Roll(reported)),
                None,
                Rules::Backgammon(DiceSource::Server)
            )
            .is_err()
        );
        let opening = v1::Roll {
            side: 0,
            dice: vec![],
        };
        assert_eq!(
            decode(
                cmd(Action::OpeningRoll(opening)),
                None,
                Rules::Backgammon(DiceSource::Server)
            )
            .unwrap(),
            Request::ServerOpening
        );
    }
}
