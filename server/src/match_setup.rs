//! A new match's set-up from its `CreateMatchRequest`: a backgammon match takes what the
//! request leaves unset from its tournament's defaults; a chess match brings its own
//! settings (`CreateMatchRequest.chess`).

use baffle_core::Timestamp;
use baffle_core::backgammon::{ClockSetup, MatchSetup};
use baffle_core::chess::ChessSettings;
use baffle_core::chess::chess_match::MAX_GAMES;
use baffle_core::clock::TimeControl;
use baffle_proto::v1;
use tonic::Status;

use crate::hub::Defaults;
use crate::wire::chess::laws_from_wire;

/// A backgammon match: the request's length and clocking, the tournament's defaults.
pub fn backgammon_setup(
    r: &v1::CreateMatchRequest,
    d: &Defaults,
    players: [String; 2],
    start: Timestamp,
) -> Result<MatchSetup, Status> {
    let clocked = match d.clocks.as_str() {
        "off" => false,
        "allowed" => !r.unclocked,
        _ if r.unclocked => {
            return Err(Status::failed_precondition(
                "this tournament requires clocks: a match cannot be unclocked",
            ));
        }
        _ => true,
    };
    Ok(MatchSetup {
        players,
        length: r.length,
        clock: clocked.then_some(ClockSetup {
            per_point: d.per_point,
            delay: d.delay,
            breaks_in_match_time: d.breaks_in_match_time,
        }),
        timeout: d.timeout,
        scheduled_start: start,
        dice: d.dice,
    })
}

/// A chess match: its settings, checked field by field. With a default time of zero the
/// players must be at the board when the game starts (6.7), so a game starting now would
/// be lost by both at once: that is refused as the mistake it is.
pub fn chess_settings(
    c: v1::ChessMatchSettings,
    players: [String; 2],
    start: Timestamp,
    now: Timestamp,
) -> Result<ChessSettings, Status> {
    let control: TimeControl = c
        .control
        .ok_or_else(|| Status::invalid_argument("chess.control: a time control is required"))?
        .try_into()
        .map_err(|e| Status::invalid_argument(format!("chess.control: {e}")))?;
    let games = match c.games {
        0 => 1,
        n if n > MAX_GAMES => {
            return Err(Status::invalid_argument(format!(
                "chess.games: at most {MAX_GAMES}"
            )));
        }
        n => n,
    };
    if c.default_time_ms < 0 {
        return Err(Status::invalid_argument(
            "chess.default_time_ms: not negative",
        ));
    }
    if c.default_time_ms == 0 && start <= now {
        return Err(Status::invalid_argument(
            "chess.default_time_ms: with a default time of 0 both players must be at the board \
             when White's clock starts (6.7), so a game starting now is lost by both at once: \
             schedule the start later or give a default time",
        ));
    }
    Ok(ChessSettings {
        players,
        control,
        games,
        start,
        default_time: baffle_core::Millis(c.default_time_ms),
        laws: laws_from_wire(c.laws)?,
        supervised: !c.unsupervised,
        chess960: c.chess960,
    })
}
