//! Backgammon between the wire and the engine: play and director commands in, the match's
//! state out.

use baffle_core::backgammon::{
    AppealDecision, Command, DiceSource, DirectorAction, Due, Match, MatchEnd, PlayerRequest, Turn,
    VoidReason,
};
use baffle_core::table::Request;
use baffle_core::{Millis, Side, Timestamp};
use baffle_proto::convert::{clock_state, pause_reason_from_wire, side_to_wire};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use tonic::Status;

use super::context::{StateContext, live_dice, match_result};
use super::fields::{kind, link, side, two_dice};

/// A player's (or a device's) backgammon action. Dice left empty ask the server to
/// throw them; dice given are reported from the table. Which the match takes is the
/// match's to say (its source may change between games, 3.4).
pub(super) fn play_request(action: Action) -> Result<Request, Status> {
    let engine = |c| Ok(Request::Backgammon(c));
    match action {
        Action::CheckIn(s) => engine(Command::CheckIn {
            side: side(s, "check_in")?,
        }),
        Action::StartGame(_) => engine(Command::StartGame),
        // Live dice: a player's link given with the opening asks for it with his link.
        Action::OpeningRoll(r) if !r.link.is_empty() => Ok(Request::DiceLink {
            side: side(r.side, "opening_roll.side (whose link)")?,
            link: link(r.link, "opening_roll.link")?,
        }),
        Action::OpeningRoll(r) if r.dice.is_empty() => Ok(Request::ServerOpening),
        Action::OpeningRoll(r) => engine(Command::OpeningThrow {
            throw: two_dice(&r.dice, "opening_roll")?,
            source: DiceSource::Physical,
        }),
        Action::Roll(r) => {
            let s = side(r.side, "roll.side")?;
            if !r.link.is_empty() {
                let link = link(r.link, "roll.link")?;
                return Ok(Request::DiceLink { side: s, link });
            }
            if r.dice.is_empty() {
                return Ok(Request::ServerRoll(s));
            }
            engine(Command::Roll {
                side: s,
                dice: two_dice(&r.dice, "roll")?,
                source: DiceSource::Physical,
            })
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
        Action::PressBack(s) => engine(Command::PressBack {
            side: side(s, "press_back")?,
        }),
        Action::Request(r) => engine(Command::Request {
            side: side(r.side, "request.side")?,
            what: match v1::PlayerRequestKind::try_from(r.what) {
                Ok(v1::PlayerRequestKind::Clock) => PlayerRequest::Clock,
                Ok(v1::PlayerRequestKind::Observer) => PlayerRequest::Observer,
                _ => {
                    return Err(Status::invalid_argument(
                        "request.what: PLAYER_REQUEST_KIND_CLOCK or _OBSERVER",
                    ));
                }
            },
        }),
        // The grounds and the ruling's number are the rules' to check (backgammon/appeal.rs).
        Action::Appeal(a) => engine(Command::Appeal {
            side: side(a.side, "appeal.side")?,
            ruling: a.ruling,
            grounds: a.grounds,
        }),
        _ => unreachable!("director and chess actions are handled above"),
    }
}

pub(super) fn director_action(action: Action) -> Result<DirectorAction, Status> {
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
        Action::VoidDoubleReason(reason) => DirectorAction::VoidDouble {
            reason: void_reason(reason)?,
        },
        Action::EndBreak(_) => DirectorAction::EndBreak,
        Action::Reschedule(r) => DirectorAction::Reschedule {
            start: (r.start_ms != 0).then_some(baffle_core::Timestamp(r.start_ms)),
        },
        Action::GrantBreak(s) => DirectorAction::GrantBreak {
            side: side(s, "grant_break")?,
        },
        Action::LeftTable(s) => DirectorAction::LeftTable {
            side: side(s, "left_table")?,
        },
        Action::ChangeDice(c) => DirectorAction::ChangeDice {
            source: dice_source_named(&c.source)?,
            baffle_box: c.baffle_box,
        },
        Action::DecideAppeal(d) => DirectorAction::DecideAppeal {
            appeal: d.appeal,
            decision: appeal_decision(d.decision)?,
            committee: d.committee,
            votes_for: d.votes_for,
        },
        Action::DecideMatch(s) => DirectorAction::DecideMatch {
            winner: side(s, "decide_match")?,
        },
        Action::VoidDouble(reason) => DirectorAction::VoidDouble {
            reason: void_reason_named(&reason)?,
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

/// A void double's reason as the proto enum gives it.
fn void_reason(reason: i32) -> Result<VoidReason, Status> {
    match v1::VoidReason::try_from(reason) {
        Ok(v1::VoidReason::Crawford) => Ok(VoidReason::Crawford),
        Ok(v1::VoidReason::DeadCube) => Ok(VoidReason::DeadCube),
        _ => Err(Status::invalid_argument(
            "void_double_reason: VOID_REASON_CRAWFORD or VOID_REASON_DEAD_CUBE",
        )),
    }
}

/// A void double's reason by its older name (`void_double`).
fn void_reason_named(reason: &str) -> Result<VoidReason, Status> {
    match reason {
        "crawford" => Ok(VoidReason::Crawford),
        "dead_cube" => Ok(VoidReason::DeadCube),
        other => Err(Status::invalid_argument(format!(
            "void_double: \"crawford\" or \"dead_cube\", not {other:?}"
        ))),
    }
}

/// Where the dice come from, by name (`change_dice.source`).
fn dice_source_named(source: &str) -> Result<DiceSource, Status> {
    match source {
        "server" => Ok(DiceSource::Server),
        "physical" => Ok(DiceSource::Physical),
        other => Err(Status::invalid_argument(format!(
            "change_dice.source: \"server\" or \"physical\", not {other:?}"
        ))),
    }
}

/// The appeals committee's decision as the proto enum gives it.
fn appeal_decision(decision: i32) -> Result<AppealDecision, Status> {
    match v1::AppealDecision::try_from(decision) {
        Ok(v1::AppealDecision::Confirm) => Ok(AppealDecision::Confirm),
        Ok(v1::AppealDecision::Overturn) => Ok(AppealDecision::Overturn),
        Ok(v1::AppealDecision::Replace) => Ok(AppealDecision::Replace),
        _ => Err(Status::invalid_argument(
            "decide_appeal.decision: confirm, overturn or replace",
        )),
    }
}

/// The wire state of a backgammon match.
pub(super) fn match_state(m: &Match, cx: &StateContext<'_>) -> v1::MatchState {
    let setup = m.setup();
    let game = m.game();
    let (turn, turn_side, dice) = turn_to_wire(game.map(|g| g.turn));
    let cube = game.and_then(|g| g.cube);
    let next_due = m.next_due();
    let wire_side = |s: Option<Side>| s.map_or(v1::Side::Unspecified, side_to_wire) as i32;
    // The fields every match's state has alike are `wire::match_state`'s.
    v1::MatchState {
        player_a: setup.players[0].clone(),
        player_b: setup.players[1].clone(),
        length: m.length(),
        score_a: m.score(Side::A),
        score_b: m.score(Side::B),
        phase: phase(m) as i32,
        game_number: game.map_or(0, |g| g.number),
        crawford: game.is_some_and(|g| g.crawford),
        post_crawford: m.is_post_crawford(),
        cube_value: cube.map_or(1, |c| c.value),
        cube_owner: wire_side(cube.and_then(|c| c.owner)),
        turn: turn as i32,
        turn_side: wire_side(turn_side),
        dice,
        clock: m.clock().map(|c| clock_state(c, cx.now)),
        result: m.result().map(result_to_wire),
        dice_source: match m.dice() {
            DiceSource::Server => "server",
            DiceSource::Physical => "physical",
        }
        .into(),
        present: Side::BOTH.map(|s| m.is_present(s)).to_vec(),
        penalty_points: Side::BOTH.map(|s| m.penalty_points_received(s)).to_vec(),
        warnings: Side::BOTH.map(|s| m.warnings(s)).to_vec(),
        breaks_left: Side::BOTH.map(|s| m.breaks_left(s)).to_vec(),
        next_due_ms: next_due.map(|(at, _)| at.as_ms()),
        break_until_ms: m.break_until().map(Timestamp::as_ms),
        live_dice: live_dice(cx.dice, m.result().is_some()),
        pending_length: m.pending_length(),
        awaiting_decision: m.awaiting_decision(),
        next_due_kind: next_due.map_or(v1::DueKind::Unspecified, |(_, due)| due_kind(due)) as i32,
        next_due_side: wire_side(next_due.and_then(|(_, due)| due_side(due))),
        timeout_penalty_points: Side::BOTH.map(|s| m.timeout_points_received(s)).to_vec(),
        baffle_box: m.baffle_box(),
        series_match: setup.series_match.unwrap_or(0),
        appeals: m.appeals().iter().map(appeal_to_wire).collect(),
        requests: m
            .requests()
            .iter()
            .map(|(s, what)| v1::PlayerRequestCommand {
                side: side_to_wire(*s) as i32,
                what: match what {
                    PlayerRequest::Clock => v1::PlayerRequestKind::Clock,
                    PlayerRequest::Observer => v1::PlayerRequestKind::Observer,
                } as i32,
            })
            .collect(),
        board: m.board().map(board_to_wire),
        ..Default::default()
    }
}

/// The turn's phase, whose turn it is and the dice to move, from the game's turn.
fn turn_to_wire(turn: Option<Turn>) -> (v1::TurnPhase, Option<Side>, Vec<u32>) {
    match turn {
        None => (v1::TurnPhase::Unspecified, None, vec![]),
        Some(Turn::Opening) => (v1::TurnPhase::Opening, None, vec![]),
        Some(Turn::OnRoll { side, .. }) => (v1::TurnPhase::OnRoll, Some(side), vec![]),
        Some(Turn::Moving { side, dice }) => (
            v1::TurnPhase::Moving,
            Some(side),
            dice.map(u32::from).to_vec(),
        ),
        Some(Turn::DoubleOffered { by }) => (v1::TurnPhase::DoubleOffered, Some(by), vec![]),
    }
}

/// Where the match stands: waiting for its first game, playing, between games, or over.
fn phase(m: &Match) -> v1::MatchPhase {
    if m.result().is_some() {
        v1::MatchPhase::Over
    } else if m.game().is_some() {
        v1::MatchPhase::Playing
    } else if m.games().is_empty() {
        v1::MatchPhase::Waiting
    } else {
        v1::MatchPhase::BetweenGames
    }
}

/// How a match ended: its name (`how`, the older field) and its kind.
fn result_to_wire(r: baffle_core::backgammon::MatchResult) -> v1::MatchResult {
    let how = match r.how {
        MatchEnd::Points => v1::MatchEndKind::Points,
        MatchEnd::Timeout => v1::MatchEndKind::Timeout,
        MatchEnd::PenaltyPoints => v1::MatchEndKind::PenaltyPoints,
        MatchEnd::Forfeit => v1::MatchEndKind::Forfeit,
        MatchEnd::DirectorDecision => v1::MatchEndKind::DirectorDecision,
    };
    match_result(side_to_wire(r.winner), how, r.confirmed)
}

/// What falls due next, as the proto names it.
fn due_kind(due: Due) -> v1::DueKind {
    match due {
        Due::Flag(_) => v1::DueKind::Flag,
        Due::BreakEnd => v1::DueKind::BreakEnd,
        Due::Lateness(_) => v1::DueKind::LatenessPoint,
    }
}

/// Whom what falls due next falls on (a break's end falls on no one).
fn due_side(due: Due) -> Option<Side> {
    match due {
        Due::Flag(s) | Due::Lateness(s) => Some(s),
        Due::BreakEnd => None,
    }
}

/// An appeal and its decision, if made.
fn appeal_to_wire(a: &baffle_core::backgammon::Appeal) -> v1::AppealState {
    v1::AppealState {
        side: side_to_wire(a.side) as i32,
        ruling: a.ruling,
        grounds: a.grounds.clone(),
        decision: a
            .decision
            .map_or(v1::AppealDecision::Unspecified, |d| match d {
                AppealDecision::Confirm => v1::AppealDecision::Confirm,
                AppealDecision::Overturn => v1::AppealDecision::Overturn,
                AppealDecision::Replace => v1::AppealDecision::Replace,
            }) as i32,
    }
}

/// The board of a match that records moves, A's checkers and B's on their own points.
fn board_to_wire(b: &baffle_core::backgammon::BoardState) -> v1::Board {
    let [a, bb] = b.position.sides();
    v1::Board {
        checkers_a: a.iter().map(|&n| u32::from(n)).collect(),
        checkers_b: bb.iter().map(|&n| u32::from(n)).collect(),
        pips: b.pips().to_vec(),
        borne_off: [0, 1].map(|s| u32::from(b.position.borne_off(s))).to_vec(),
        gnubg_position_id: b.position.gnubg_id(),
        moved: b.moved,
    }
}

/// The director's adjudication help on the wire, computed at the log's length `seq`.
pub fn adjudication(
    help: &baffle_core::backgammon::board::Adjudication,
    seq: u64,
) -> v1::Adjudication {
    let wire = |s: usize| side_to_wire(Side::BOTH[s]) as i32;
    v1::Adjudication {
        certain_winner: help
            .certain_winner
            .map_or(v1::Side::Unspecified as i32, wire),
        gammon_possible: help.gammon_possible.to_vec(),
        backgammon_possible: help.backgammon_possible.to_vec(),
        next: wire(help.next.side),
        dice: wire_dice(help.next.dice),
        then_dice: wire_dice(help.next.then),
        seq,
    }
}

/// Dice thrown, or none.
fn wire_dice(dice: Option<[u8; 2]>) -> Vec<u32> {
    dice.map_or_else(Vec::new, |d| d.iter().map(|&x| u32::from(x)).collect())
}
