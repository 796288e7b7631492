//! `baffle play`, `baffle rule` and `baffle chess`: each turns its arguments into one
//! command and sends it to the node that writes the match, with `Execute`.
//!
//! A director's ruling carries its reason and article; the reply is printed as the events
//! the command wrote and the match after it.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;

use super::connection::{authed, channel, match_state, to_owner};
use super::matches::reply_outcome;
use super::outcome::{Outcome, usage};
use super::wire::{dice_arg, kind, ms, pause, side};
use crate::cli::{
    AskArg, Cli, DecisionArg, DiceArg, PlayAction, PlayArgs, RuleAction, RuleArgs, SideArg,
};
use crate::words;

/// `baffle play MATCH …`: what a player (or a device) does at the table.
pub(super) async fn run_play(
    cli: &Cli,
    token: &Option<String>,
    p: &PlayArgs,
) -> Result<Outcome, Outcome> {
    let mut action = play_action(&p.action)?;
    if unnamed_side(&mut action).is_some() {
        // A side found from the match's state changes once the command is done: its
        // retry under the same request id would be another command, refused (a
        // stranger's retry of a `press` that had been done).
        if p.options.request_id.is_some() {
            return Err(usage(words::say("cli-side-with-request-id")));
        }
        let found = to_act(cli, &p.match_id, &action).await?;
        if let Some(side) = unnamed_side(&mut action) {
            *side = found;
        }
    }
    execute(cli, token, &p.match_id, action, None, &p.options).await
}

/// The side of a roll, a press, a move, a take or a pass typed without one (0), to be
/// found.
fn unnamed_side(action: &mut Action) -> Option<&mut i32> {
    match action {
        Action::Roll(v1::Roll { side, .. }) | Action::Move(v1::Move { side, .. }) => {
            Some(side).filter(|s| **s == 0)
        }
        Action::Press(side) | Action::Take(side) | Action::Pass(side) => {
            Some(side).filter(|s| **s == 0)
        }
        _ => None,
    }
}

/// Who is to roll, move or press in `match_id` now, as its state says (the player on
/// roll, or moving); a usage error naming the match when nobody is.
async fn to_act(cli: &Cli, match_id: &str, action: &Action) -> Result<i32, Outcome> {
    let s = match_state(channel(cli).await?, match_id).await?;
    side_to_act(&s, action).ok_or_else(|| {
        let moving = s.turn == v1::TurnPhase::Moving as i32 && s.result.is_none();
        if moving && matches!(action, Action::Roll(_)) {
            // A roll while the other player moves is his opponent's early roll (4.1
            // (v)(a)): whose, the director says (a second new director was told
            // "nobody is to do that").
            let name = if s.turn_side == v1::Side::B as i32 {
                &s.player_b
            } else {
                &s.player_a
            };
            let args = [("name", name.clone().into()), ("match", match_id.into())];
            return usage(words::say_with("cli-roll-while-moving", &args));
        }
        usage(words::say_with(
            "cli-no-side-to-act",
            &[("match", match_id.into())],
        ))
    })
}

/// The side the state of a match says is to do `action`: a roll by the player on roll,
/// a move or a press by the player moving (or on roll: a press ends a turn either way),
/// a take or a pass by the player a double was offered to.
fn side_to_act(s: &v1::MatchState, action: &Action) -> Option<i32> {
    let phase = v1::TurnPhase::try_from(s.turn).ok()?;
    let fits = match action {
        Action::Roll(_) => phase == v1::TurnPhase::OnRoll,
        Action::Move(_) => phase == v1::TurnPhase::Moving,
        Action::Press(_) => matches!(phase, v1::TurnPhase::Moving | v1::TurnPhase::OnRoll),
        // The double's `turn_side` is the doubler: the other player decides.
        Action::Take(_) | Action::Pass(_) if phase == v1::TurnPhase::DoubleOffered => {
            let other = if s.turn_side == v1::Side::A as i32 {
                v1::Side::B
            } else {
                v1::Side::A
            };
            return (s.result.is_none() && s.turn_side != 0).then_some(other as i32);
        }
        _ => false,
    };
    (fits && s.result.is_none() && s.turn_side != 0).then_some(s.turn_side)
}

/// `move`'s words: a side first if the first word is one, then the play (its words
/// joined, so `move 8/3 6/3` is `move "8/3 6/3"`).
fn move_words(words: &[String]) -> (i32, String) {
    use clap::ValueEnum;
    match words.split_first() {
        Some((first, rest)) if !rest.is_empty() => match SideArg::from_str(first, true) {
            Ok(s) => (side(s), rest.join(" ")),
            Err(_) => (0, words.join(" ")),
        },
        _ => (0, words.join(" ")),
    }
}

/// `baffle rule MATCH --reason --article …`: a director's ruling, with its grounds.
pub(super) async fn run_rule(
    cli: &Cli,
    token: &Option<String>,
    r: &RuleArgs,
) -> Result<Outcome, Outcome> {
    // The reveal deadline is the dice's, not the game's: Audit, not Execute.
    if let RuleAction::ExtendReveal { minutes } = r.action {
        return super::seeds::extend_reveal(cli, token, r, minutes).await;
    }
    let action = rule_action(&r.action)?;
    let ruling = v1::Ruling {
        reason: r.reason.clone(),
        article: r.article.clone(),
    };
    execute(cli, token, &r.match_id, action, Some(ruling), &r.options).await
}

fn play_action(action: &PlayAction) -> Result<Action, Outcome> {
    Ok(match action {
        PlayAction::CheckIn { side: s } => Action::CheckIn(side(*s)),
        PlayAction::Start => Action::StartGame(v1::Empty {}),
        PlayAction::Opening { dice } => Action::OpeningRoll(v1::Roll {
            side: 0,
            dice: dice_arg(dice)?,
            link: Vec::new(),
        }),
        PlayAction::Roll { side: s, dice } => Action::Roll(v1::Roll {
            side: s.map_or(0, side),
            dice: dice_arg(dice)?,
            link: Vec::new(),
        }),
        PlayAction::InvalidRoll { side: s } => Action::InvalidRoll(side(*s)),
        PlayAction::Double { side: s } => Action::Double(side(*s)),
        PlayAction::Take { side: s } => Action::Take(s.map_or(0, side)),
        PlayAction::Pass { side: s } => Action::Pass(s.map_or(0, side)),
        PlayAction::Press { side: s } => Action::Press(s.map_or(0, side)),
        PlayAction::Move { words } => {
            let (side, play) = move_words(words);
            Action::Move(v1::Move { side, play })
        }
        PlayAction::EndGame { winner, kind: k } => Action::EndGame(v1::GameResult {
            side: side(*winner),
            kind: kind(*k),
        }),
        PlayAction::Concede { side: s, kind: k } => Action::Concede(v1::GameResult {
            side: side(*s),
            kind: kind(*k),
        }),
        PlayAction::Pause { reason } => Action::Pause(pause(reason)?),
        PlayAction::Resume => Action::Resume(v1::Empty {}),
        PlayAction::RestartDelay => Action::RestartDelay(v1::Empty {}),
        PlayAction::DiceEarly { offender } => Action::DicePickedUpEarly(side(*offender)),
        PlayAction::Replay { offender } => Action::ReplayIllegalMove(side(*offender)),
        PlayAction::Break { side: s } => Action::TakeBreak(side(*s)),
        PlayAction::PressBack { side: s } => Action::PressBack(side(*s)),
        PlayAction::Ask { side: s, what } => Action::Request(v1::PlayerRequestCommand {
            side: side(*s),
            what: match what {
                AskArg::Clock => v1::PlayerRequestKind::Clock,
                AskArg::Observer => v1::PlayerRequestKind::Observer,
            } as i32,
        }),
        PlayAction::Appeal {
            side: s,
            ruling,
            grounds,
        } => Action::Appeal(v1::AppealCommand {
            side: side(*s),
            ruling: *ruling,
            grounds: grounds.clone(),
        }),
    })
}

fn rule_action(action: &RuleAction) -> Result<Action, Outcome> {
    Ok(match action {
        RuleAction::Warn { side: s } => Action::Warn(side(*s)),
        RuleAction::Award { side: s, points } => Action::AwardPoints(v1::Points {
            side: side(*s),
            points: *points,
        }),
        RuleAction::Deduct { side: s, points } => Action::DeductPoints(v1::Points {
            side: side(*s),
            points: *points,
        }),
        RuleAction::AdjustTime { side: s, delta } => Action::AdjustTime(v1::TimeChange {
            side: side(*s),
            ms: ms(delta)?,
        }),
        RuleAction::SetTime { side: s, time } => Action::SetTime(v1::TimeChange {
            side: side(*s),
            ms: ms(time)?,
        }),
        RuleAction::ForfeitGame { loser, kind: k } => Action::ForfeitGame(v1::GameResult {
            side: side(*loser),
            kind: kind(*k),
        }),
        RuleAction::ForfeitMatch { loser } => Action::ForfeitMatch(side(*loser)),
        RuleAction::ImposeClock { per_point, delay } => Action::ImposeClock(v1::ImposeClock {
            per_point_ms: ms(per_point)?,
            delay_ms: ms(delay)?,
        }),
        RuleAction::RemoveClock => Action::RemoveClock(v1::Empty {}),
        RuleAction::VoidDouble { reason } => Action::VoidDoubleReason(match reason.as_str() {
            "crawford" => v1::VoidReason::Crawford,
            "dead-cube" | "dead_cube" => v1::VoidReason::DeadCube,
            other => {
                return Err(usage(format!(
                    "void-double takes crawford or dead-cube, not {other:?}"
                )));
            }
        } as i32),
        RuleAction::EndBreak => Action::EndBreak(v1::Empty {}),
        RuleAction::Reschedule { at } => Action::Reschedule(v1::Reschedule {
            start_ms: super::draw::time_arg(at)?,
        }),
        RuleAction::Postpone => Action::Reschedule(v1::Reschedule { start_ms: 0 }),
        RuleAction::GrantBreak { side: s } => Action::GrantBreak(side(*s)),
        RuleAction::LeftTable { side: s } => Action::LeftTable(side(*s)),
        RuleAction::ChangeDice { source, baffle_box } => Action::ChangeDice(v1::DiceChange {
            source: match source {
                DiceArg::Server => "server",
                DiceArg::Physical => "physical",
            }
            .into(),
            baffle_box: *baffle_box,
        }),
        RuleAction::DecideAppeal {
            appeal,
            decision,
            committee,
            votes_for,
        } => Action::DecideAppeal(v1::AppealDecisionCommand {
            appeal: *appeal,
            decision: match decision {
                DecisionArg::Confirm => v1::AppealDecision::Confirm,
                DecisionArg::Overturn => v1::AppealDecision::Overturn,
                DecisionArg::Replace => v1::AppealDecision::Replace,
            } as i32,
            committee: *committee,
            votes_for: *votes_for,
        }),
        RuleAction::DecideMatch { winner } => Action::DecideMatch(side(*winner)),
        RuleAction::ExtendReveal { .. } => unreachable!("sent with Audit.ExtendRevealDeadline"),
        RuleAction::CorrectCube { value, owner } => Action::CorrectCube(v1::CubeLevel {
            value: *value,
            owner: owner.map_or(0, side),
        }),
        RuleAction::CorrectScore { a, b } => Action::CorrectScore(v1::Score { a: *a, b: *b }),
        RuleAction::CorrectLength { length } => Action::CorrectLength(*length),
        RuleAction::Confirm => Action::ConfirmResult(v1::Empty {}),
        RuleAction::CorrectResult {
            game,
            winner,
            kind: k,
        } => Action::CorrectResult(v1::ResultCorrection {
            game: *game,
            result: Some(v1::GameResult {
                side: side(*winner),
                kind: kind(*k),
            }),
        }),
    })
}

/// `baffle chess MATCH …`.
pub(super) async fn run_chess(
    cli: &Cli,
    token: &Option<String>,
    c: &crate::cli::ChessArgs,
) -> Result<Outcome, Outcome> {
    let pause = match &c.action {
        crate::cli::ChessAction::Pause { reason } => pause(reason)?,
        _ => 0,
    };
    let command = crate::chess::command(&c.action, pause).map_err(usage)?;
    let ruling = match (&c.reason, &c.article) {
        (Some(reason), Some(article)) => Some(v1::Ruling {
            reason: reason.clone(),
            article: article.clone(),
        }),
        (None, None) => None,
        _ => return Err(usage("--reason and --article go together")),
    };
    let action = Action::Chess(command);
    execute(cli, token, &c.match_id, action, ruling, &c.options).await
}

async fn execute(
    cli: &Cli,
    token: &Option<String>,
    match_id: &str,
    action: Action,
    ruling: Option<v1::Ruling>,
    options: &crate::cli::CommandOptions,
) -> Result<Outcome, Outcome> {
    let request = v1::ExecuteRequest {
        match_id: match_id.to_string(),
        command: Some(v1::Command {
            action: Some(action),
        }),
        ruling,
        request_id: options.request_id.clone().unwrap_or_default(),
        expected_seq: options.expect_seq,
    };
    // On a cluster, the node that writes the match takes the command (docs/cluster.md).
    let reply = to_owner(
        channel(cli).await?,
        authed(request, token)?,
        |c, r| async move { MatchesClient::new(c).execute(r).await },
    )
    .await?;
    Ok(reply_outcome(cli, reply))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_may_leave_its_side_out() {
        let words = |w: &[&str]| move_words(&w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(words(&["8/3 6/3"]), (0, "8/3 6/3".into()));
        assert_eq!(words(&["8/3", "6/3"]), (0, "8/3 6/3".into()));
        assert_eq!(words(&["a", "24/18"]), (v1::Side::A as i32, "24/18".into()));
        assert_eq!(
            words(&["Β", "24/18 13/11"]),
            (v1::Side::B as i32, "24/18 13/11".into())
        );
        // A lone word is the play, never a side.
        assert_eq!(words(&["b"]), (0, "b".into()));
    }

    #[test]
    fn the_side_left_out_is_the_one_the_state_says_is_to_act() {
        let state = |phase: v1::TurnPhase, side: v1::Side| v1::MatchState {
            turn: phase as i32,
            turn_side: side as i32,
            ..Default::default()
        };
        let (b, a) = (v1::Side::B as i32, v1::Side::A as i32);
        let moving = state(v1::TurnPhase::Moving, v1::Side::B);
        let play = Action::Move(v1::Move::default());
        assert_eq!(side_to_act(&moving, &play), Some(b));
        assert_eq!(side_to_act(&moving, &Action::Press(0)), Some(b));
        assert_eq!(
            side_to_act(&moving, &Action::Roll(v1::Roll::default())),
            None
        );
        let on_roll = state(v1::TurnPhase::OnRoll, v1::Side::A);
        assert_eq!(
            side_to_act(&on_roll, &Action::Roll(v1::Roll::default())),
            Some(a)
        );
        assert_eq!(side_to_act(&on_roll, &play), None);
        let opening = state(v1::TurnPhase::Opening, v1::Side::Unspecified);
        assert_eq!(side_to_act(&opening, &Action::Press(0)), None);
    }
}
