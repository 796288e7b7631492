//! Between the `baffle.v1` wire types and the engine: match state out, commands in.
//! Malformed commands become INVALID_ARGUMENT naming the field; nothing here panics on
//! input.

use baffle_core::GameType;
use baffle_core::audit::{Record, kind_of};
use baffle_core::backgammon::board::{NextTurn, Position};
use baffle_core::backgammon::{Command, Ruling};
use baffle_core::table::{AnyMatch, Refusal, RefusalKind, Request};

use crate::error::Error;
use baffle_core::{Side, Timestamp};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use tonic::Status;

mod backgammon;
pub mod chess;
mod context;
pub mod draw;
mod fields;
pub mod setup;
pub mod tournament;

pub use baffle_core::table::MatchInfo;
pub use context::StateContext;
pub(crate) use fields::{link, side};

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
        Error::Unauthenticated(m) => Status::unauthenticated(m),
        Error::PermissionDenied(m) => Status::permission_denied(m),
        Error::FailedPrecondition(m) => Status::failed_precondition(m),
        Error::OutOfRange(m) => Status::out_of_range(m),
        Error::DeadlineExceeded(m) => Status::deadline_exceeded(m),
        Error::Stale(m) => Status::aborted(m),
        Error::RateLimited(m) => Status::resource_exhausted(m),
        Error::Unavailable(m) => Status::unavailable(m),
        Error::NotOwner { owner, message } => not_owner(owner, message),
        Error::DataLoss(m) => Status::data_loss(m),
        Error::Internal(m) => Status::internal(m),
    }
}

/// The metadata key of an UNAVAILABLE status that names the node writing the match
/// (its advertised URL): a client sends the request again there (`docs/cluster.md`).
pub const OWNER_KEY: &str = "baffle-owner";

fn not_owner(owner: Option<String>, message: String) -> Status {
    let mut status = Status::unavailable(message);
    if let Some(url) = owner.and_then(|u| u.parse().ok()) {
        status.metadata_mut().insert(OWNER_KEY, url);
    }
    status
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

/// Largest request accepted: commands are small; this keeps hostile ones cheap. (Here,
/// below the services that read requests and the listener that bounds them.)
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// A `RenamePlayerRequest` as the table's request; the name is the rules' to check
/// (`table::check_player_name`), so a bad one is refused by the table, naming why.
pub fn rename(r: &v1::RenamePlayerRequest) -> Result<Request, Status> {
    Ok(Request::RenamePlayer {
        side: side(r.side, "side")?,
        name: r.name.clone(),
    })
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
            | Action::VoidDoubleReason(_)
            | Action::EndBreak(_)
            | Action::GrantBreak(_)
            | Action::LeftTable(_)
            | Action::ChangeDice(_)
            | Action::DecideAppeal(_)
            | Action::DecideMatch(_)
            | Action::Reschedule(_)
    ) || matches!(action, Action::Chess(v1::ChessCommand { action: Some(a) }) if chess::arbiter_only(a))
}

/// Decodes a wire command for a match of `game`.
pub fn decode(
    command: Option<v1::Command>,
    ruling: Option<v1::Ruling>,
    game: GameType,
) -> Result<Request, Status> {
    let action = command
        .and_then(|c| c.action)
        .ok_or_else(|| Status::invalid_argument("command: exactly one action must be set"))?;
    match game {
        GameType::Chess => {
            return match action {
                Action::Chess(c) => chess::decode(c, ruling),
                _ => Err(Status::invalid_argument(
                    "command: this is a chess match: send command.chess",
                )),
            };
        }
        GameType::Backgammon if matches!(action, Action::Chess(_)) => {
            return Err(Status::invalid_argument(
                "command.chess: this is a backgammon match",
            ));
        }
        GameType::Backgammon => {}
    };
    if director_only(&action) {
        // A ruling's reason and article are the rules' to require (backgammon/director.rs).
        let ruling = ruling.unwrap_or_default();
        let ruling = Ruling::new(ruling.reason, ruling.article);
        let action = backgammon::director_action(action)?;
        return Ok(Request::Backgammon(Command::Director { action, ruling }));
    }
    backgammon::play_request(action)
}

/// The wire form of one log record, with its words ([`baffle_i18n::describe`]): the one
/// place an event is put into words, which every client formats in its language.
pub fn event(record: &Record) -> v1::Event {
    let kind = kind_of(&record.body).unwrap_or_default();
    let body = serde_json::from_str(&record.body).unwrap_or_default();
    v1::Event {
        seq: record.seq,
        words: Some(baffle_i18n::describe::describe(&kind, &body)),
        kind,
        body: record.body.clone(),
        hash: record.hash.to_string(),
    }
}

/// The players' seeds as a state shows them, A then B.
fn player_seeds(cx: &StateContext<'_>) -> Vec<v1::PlayerSeed> {
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

/// The number of the dice construction a match's log follows (`docs/dice.md`).
fn dice_construction(dice: &baffle_core::table::TableDice) -> u32 {
    match dice.version() {
        baffle_core::dice::DiceVersion::V1 => 1,
        baffle_core::dice::DiceVersion::V2 => 2,
    }
}

/// The wire state of a match: the game's own fields (`backgammon::match_state`,
/// `chess::match_state`), then what every match's state says alike, from the table
/// around the game (`StateContext`).
pub fn match_state(game: &AnyMatch, cx: &StateContext<'_>) -> v1::MatchState {
    let state = match game {
        AnyMatch::Backgammon(m) => backgammon::match_state(m, cx),
        AnyMatch::Chess(m) => chess::match_state(m, cx),
    };
    let over = game.is_over();
    let mut state = v1::MatchState {
        match_id: cx.info.id.clone(),
        tournament_id: cx.info.tournament.clone(),
        round: cx.info.round,
        table: cx.info.table.clone(),
        seq: cx.seq,
        head_hash: cx.head.to_string(),
        commitment: cx.commitment.to_string(),
        dice_anomalies: cx.anomalies.0,
        last_anomaly: cx.anomalies.1.to_string(),
        devices: device_presence(cx),
        player_seeds: player_seeds(cx),
        player_seeds_required: cx.dice.seeds_required(),
        dice_construction: dice_construction(cx.dice),
        // A match decided (a staller forfeited) awaits no reveal any more.
        reveal_due_ms: cx
            .dice
            .reveal_due()
            .filter(|_| !over)
            .map_or(0, Timestamp::as_ms),
        dice_revealed: cx.dice.revealed(),
        // Stamped by the streams as each copy leaves.
        sent_at_ms: 0,
        scheduled_start_ms: game.scheduled_start().as_ms(),
        postponed: matches!(game, AnyMatch::Backgammon(m) if m.postponed()),
        signed_head: cx.signed_head.clone(),
        uncredited_outage: cx.uncredited.map(|u| v1::UncreditedOutage {
            side: baffle_proto::convert::side_to_wire(u.side) as i32,
            ms: u.ms.as_ms(),
            at_ms: u.at.as_ms(),
        }),
        replaced: cx.replaced.map(|(by, ruling)| v1::MatchReplaced {
            by: by.clone(),
            ruling: ruling.clone(),
        }),
        ..state
    };
    // A replaced match's timers are stopped (`actor`): nothing falls due in it.
    if state.replaced.is_some() {
        state.next_due_ms = None;
        state.next_due_kind = v1::DueKind::Unspecified as i32;
        state.next_due_side = v1::Side::Unspecified as i32;
    }
    state.status = match_status(&state) as i32;
    state.turn_words = baffle_i18n::turn::turn(&state, baffle_i18n::turn::Form::Line);
    state
}

/// Where a match stands, in one word, from its state: confirmed or over once there is a
/// result; undecided while both won at one instant; postponed; then by its phase, and
/// before the first game by who is present (in chess, by colour). The one derivation:
/// the console, the CLI and the page read `MatchState.status`.
pub fn match_status(s: &v1::MatchState) -> v1::MatchStatus {
    use v1::MatchStatus as S;
    if let Some(r) = &s.result {
        return if r.confirmed { S::Confirmed } else { S::Over };
    }
    if s.awaiting_decision {
        return S::Undecided;
    }
    if s.postponed {
        return S::Postponed;
    }
    match v1::MatchPhase::try_from(s.phase) {
        Ok(v1::MatchPhase::Playing) => S::Playing,
        Ok(v1::MatchPhase::BetweenGames) => S::BetweenGames,
        Ok(v1::MatchPhase::Over) => S::Over,
        _ => {
            let present = match &s.chess {
                Some(c) if s.present.is_empty() => &c.present,
                _ => &s.present,
            };
            match present.iter().filter(|p| **p).count() {
                0 => S::Waiting,
                1 => S::Present,
                _ => S::Ready,
            }
        }
    }
}

/// What the director's adjudication help is computed from (`Match::to_adjudicate`), when
/// the match records moves and a game has started.
pub fn to_adjudicate(game: &AnyMatch) -> Option<(Position, NextTurn)> {
    match game {
        AnyMatch::Backgammon(m) => m.to_adjudicate(),
        AnyMatch::Chess(_) => None,
    }
}

pub use backgammon::adjudication;

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
        let e = decode(None, None, GameType::Backgammon).unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument);
        let e = decode(cmd(Action::Press(0)), None, GameType::Backgammon).unwrap_err();
        assert!(e.message().starts_with("press:"), "{}", e.message());
        let roll = v1::Roll {
            side: 1,
            dice: vec![7],
            link: Vec::new(),
        };
        let e = decode(cmd(Action::Roll(roll)), None, GameType::Backgammon).unwrap_err();
        assert!(e.message().starts_with("roll: two dice"), "{}", e.message());
        let ruling = Some(v1::Ruling {
            reason: "x".into(),
            article: "2.3".into(),
        });
        let e = decode(
            cmd(Action::VoidDouble("maybe".into())),
            ruling,
            GameType::Backgammon,
        )
        .unwrap_err();
        assert!(e.message().contains("dead_cube"));
    }

    #[test]
    fn server_dice_are_drawn_by_the_server() {
        let roll = v1::Roll {
            side: 2,
            dice: vec![],
            link: Vec::new(),
        };
        assert_eq!(
            decode(cmd(Action::Roll(roll)), None, GameType::Backgammon).unwrap(),
            Request::ServerRoll(Side::B)
        );
        let reported = v1::Roll {
            side: 2,
            dice: vec![3, 4],
            link: Vec::new(),
        };
        // Reported dice decode as reported; a match of server dice refuses them.
        assert!(matches!(
            decode(cmd(Action::Roll(reported)), None, GameType::Backgammon).unwrap(),
            Request::Backgammon(Command::Roll { .. })
        ));
        let opening = v1::Roll {
            side: 0,
            dice: vec![],
            link: Vec::new(),
        };
        assert_eq!(
            decode(
                cmd(Action::OpeningRoll(opening)),
                None,
                GameType::Backgammon
            )
            .unwrap(),
            Request::ServerOpening
        );
    }
}
