//! `baffle play`, `baffle rule` and `baffle chess`: each turns its arguments into one
//! command and sends it to the node that writes the match, with `Execute`.
//!
//! A director's ruling carries its reason and article; the reply is printed as the events
//! the command wrote and the match after it.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;

use super::connection::{authed, channel, to_owner};
use super::matches::reply_outcome;
use super::outcome::{Outcome, usage};
use super::wire::{dice_arg, kind, ms, pause, side};
use crate::cli::{AskArg, Cli, DecisionArg, DiceArg, PlayAction, PlayArgs, RuleAction, RuleArgs};

/// `baffle play MATCH …`: what a player (or a device) does at the table.
pub(super) async fn run_play(
    cli: &Cli,
    token: &Option<String>,
    p: &PlayArgs,
) -> Result<Outcome, Outcome> {
    let action = play_action(&p.action)?;
    execute(cli, token, &p.match_id, action, None, &p.options).await
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
        }),
        PlayAction::Roll { side: s, dice } => Action::Roll(v1::Roll {
            side: side(*s),
            dice: dice_arg(dice)?,
        }),
        PlayAction::InvalidRoll { side: s } => Action::InvalidRoll(side(*s)),
        PlayAction::Double { side: s } => Action::Double(side(*s)),
        PlayAction::Take { side: s } => Action::Take(side(*s)),
        PlayAction::Pass { side: s } => Action::Pass(side(*s)),
        PlayAction::Press { side: s } => Action::Press(side(*s)),
        PlayAction::Move { side: s, play } => Action::Move(v1::Move {
            side: side(*s),
            play: play.clone(),
        }),
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
    c: &crate::chess::ChessArgs,
) -> Result<Outcome, Outcome> {
    let pause = match &c.action {
        crate::chess::ChessAction::Pause { reason } => pause(reason)?,
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
