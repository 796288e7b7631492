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

use super::{StateContext, device_presence, kind, player_seeds, side, two_dice};

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
            link: super::link(r.link, "opening_roll.link")?,
        }),
        Action::OpeningRoll(r) if r.dice.is_empty() => Ok(Request::ServerOpening),
        Action::OpeningRoll(r) => engine(Command::OpeningThrow {
            throw: two_dice(&r.dice, "opening_roll")?,
            source: DiceSource::Physical,
        }),
        Action::Roll(r) => {
            let s = side(r.side, "roll.side")?;
            if !r.link.is_empty() {
                let link = super::link(r.link, "roll.link")?;
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
            reason: match v1::VoidReason::try_from(reason) {
                Ok(v1::VoidReason::Crawford) => VoidReason::Crawford,
                Ok(v1::VoidReason::DeadCube) => VoidReason::DeadCube,
                _ => {
                    return Err(Status::invalid_argument(
                        "void_double_reason: VOID_REASON_CRAWFORD or VOID_REASON_DEAD_CUBE",
                    ));
                }
            },
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
            source: match c.source.as_str() {
                "server" => DiceSource::Server,
                "physical" => DiceSource::Physical,
                other => {
                    return Err(Status::invalid_argument(format!(
                        "change_dice.source: \"server\" or \"physical\", not {other:?}"
                    )));
                }
            },
            baffle_box: c.baffle_box,
        },
        Action::DecideAppeal(d) => DirectorAction::DecideAppeal {
            appeal: d.appeal,
            decision: match v1::AppealDecision::try_from(d.decision) {
                Ok(v1::AppealDecision::Confirm) => AppealDecision::Confirm,
                Ok(v1::AppealDecision::Overturn) => AppealDecision::Overturn,
                Ok(v1::AppealDecision::Replace) => AppealDecision::Replace,
                _ => {
                    return Err(Status::invalid_argument(
                        "decide_appeal.decision: confirm, overturn or replace",
                    ));
                }
            },
            committee: d.committee,
            votes_for: d.votes_for,
        },
        Action::DecideMatch(s) => DirectorAction::DecideMatch {
            winner: side(s, "decide_match")?,
        },
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

/// The wire state of a backgammon match.
pub(super) fn match_state(m: &Match, cx: &StateContext<'_>) -> v1::MatchState {
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
    let next_due = m.next_due();
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
        result: m.result().map(|r| {
            let how = match r.how {
                MatchEnd::Points => v1::MatchEndKind::Points,
                MatchEnd::Timeout => v1::MatchEndKind::Timeout,
                MatchEnd::PenaltyPoints => v1::MatchEndKind::PenaltyPoints,
                MatchEnd::Forfeit => v1::MatchEndKind::Forfeit,
                MatchEnd::DirectorDecision => v1::MatchEndKind::DirectorDecision,
            };
            super::match_result(side_to_wire(r.winner), how, r.confirmed)
        }),
        seq: cx.seq,
        head_hash: cx.head.to_string(),
        dice_source: match m.dice() {
            DiceSource::Server => "server",
            DiceSource::Physical => "physical",
        }
        .into(),
        commitment: cx.commitment.to_string(),
        present: Side::BOTH.map(|s| m.is_present(s)).to_vec(),
        penalty_points: Side::BOTH.map(|s| m.penalty_points_received(s)).to_vec(),
        warnings: Side::BOTH.map(|s| m.warnings(s)).to_vec(),
        breaks_left: Side::BOTH.map(|s| m.breaks_left(s)).to_vec(),
        next_due_ms: next_due.map(|(at, _)| at.as_ms()),
        break_until_ms: m.break_until().map(Timestamp::as_ms),
        dice_anomalies: cx.anomalies.0,
        last_anomaly: cx.anomalies.1.to_string(),
        devices: device_presence(cx),
        // Stamped by the streams as each copy leaves.
        sent_at_ms: 0,
        // Signed by the actor (`wire::match_state`).
        signed_head: None,
        // Set by `wire::match_state` from the table.
        uncredited_outage: None,
        scheduled_start_ms: 0,
        postponed: false,
        status: 0,
        chess: None,
        live_dice: super::live_dice(cx.dice, m.result().is_some()),
        player_seeds: player_seeds(cx),
        player_seeds_required: cx.dice.seeds_required(),
        dice_construction: super::dice_construction(cx.dice),
        // A match decided (a staller forfeited) awaits no reveal any more.
        reveal_due_ms: cx
            .dice
            .reveal_due()
            .filter(|_| m.result().is_none())
            .map_or(0, Timestamp::as_ms),
        dice_revealed: cx.dice.revealed(),
        pending_length: m.pending_length(),
        awaiting_decision: m.awaiting_decision(),
        next_due_kind: next_due.map_or(v1::DueKind::Unspecified, |(_, due)| match due {
            Due::Flag(_) => v1::DueKind::Flag,
            Due::BreakEnd => v1::DueKind::BreakEnd,
            Due::Lateness(_) => v1::DueKind::LatenessPoint,
        }) as i32,
        next_due_side: wire_side(next_due.and_then(|(_, due)| match due {
            Due::Flag(s) | Due::Lateness(s) => Some(s),
            Due::BreakEnd => None,
        })),
        timeout_penalty_points: Side::BOTH.map(|s| m.timeout_points_received(s)).to_vec(),
        baffle_box: m.baffle_box(),
        series_match: setup.series_match.unwrap_or(0),
        appeals: m
            .appeals()
            .iter()
            .map(|a| v1::AppealState {
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
            })
            .collect(),
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
