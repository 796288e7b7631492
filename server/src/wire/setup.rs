//! A new chess match's settings from its `CreateMatchRequest.chess` (a backgammon match
//! takes its tournament's defaults: `TournamentDefaults::match_setup`, in the rules).

use baffle_core::Timestamp;
use baffle_core::chess::ChessSettings;
use baffle_core::clock::TimeControl;
use baffle_proto::v1;
use tonic::Status;

use super::chess::laws_from_wire;

/// A chess match: its settings from the wire. The rules check them when the match is
/// made, and whether its start is possible now ([`ChessSettings::check_start`]).
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
    let settings = ChessSettings {
        players,
        control,
        // Unset: a one-game match.
        games: c.games.max(1),
        start,
        default_time: baffle_core::Millis(c.default_time_ms),
        laws: laws_from_wire(c.laws)?,
        supervised: !c.unsupervised,
        chess960: c.chess960,
    };
    settings
        .check_start(now)
        .map_err(|e| Status::invalid_argument(format!("chess: {e}")))?;
    Ok(settings)
}
