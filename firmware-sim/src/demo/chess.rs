//! The demo's chess tables: two players at a clock device play a short match of games on
//! a fast Fischer control — arriving before the start, pressing after each move, and
//! ending each game by resignation, agreement or checkmate (or a flag, if one thinks too
//! long), then starting the next with colours reversed.

use baffle_proto::v1;
use baffle_proto::v1::chess_command::Action as Chess;
use baffle_proto::v1::command::Action;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::config::DemoConfig;
use super::table::{TableResult, finish, pick, think};
use crate::device::{Device, DeviceError};

fn chess(action: Chess) -> Action {
    Action::Chess(v1::ChessCommand {
        action: Some(action),
    })
}

/// The settings of a demo chess match: `length` games of `per_point_ms` × `length` each,
/// plus a second per move (Fischer), and ten seconds for the players to arrive.
pub fn settings(cfg: &DemoConfig) -> v1::ChessMatchSettings {
    let base = cfg.per_point_ms * i64::from(cfg.length.max(1));
    v1::ChessMatchSettings {
        control: Some(v1::TimeControl {
            periods: vec![v1::Period {
                base_ms: base,
                moves: None,
                method: Some(v1::TimingMethod {
                    method: Some(v1::timing_method::Method::Fischer(v1::Fischer {
                        increment_ms: 1_000,
                    })),
                }),
            }],
            freeze_at_flag: Some(true),
        }),
        games: cfg.length.max(1),
        default_time_ms: 10_000,
        ..Default::default()
    }
}

/// Plays one chess match from its device until it is over.
pub async fn play(
    mut device: Device,
    match_id: String,
    cfg: DemoConfig,
    seed: u64,
) -> Result<TableResult, DeviceError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut inputs = 0u64;
    let mut refusals = 0;
    loop {
        let s = device.state();
        let c = s.chess.clone().ok_or("not a chess match")?;
        if s.result.is_some() {
            return Ok(finish(device, match_id, s, inputs).await);
        }
        let action = if let Some(absent) = c.present.iter().position(|p| !p) {
            let color = if absent == 0 {
                v1::Color::White
            } else {
                v1::Color::Black
            };
            chess(Chess::Arrive(color as i32))
        } else if s.phase == v1::MatchPhase::BetweenGames as i32 {
            think(&mut rng, cfg.think_ms).await;
            chess(Chess::NextGame(v1::Empty {}))
        } else if !c.started {
            // White's clock starts at the scheduled time: wait for it.
            device
                .wait_for(|v| {
                    v.state
                        .chess
                        .as_ref()
                        .is_some_and(|c| c.started || v.state.result.is_some())
                })
                .await?;
            continue;
        } else {
            let to_move = c.to_move;
            think(&mut rng, cfg.think_ms).await;
            let moves: u32 = c.moves.iter().sum();
            // After some 12 to 40 moves the game ends, one way or another.
            if moves >= 12 && pick(&mut rng, 30) == 0 {
                match pick(&mut rng, 3) {
                    0 => chess(Chess::Resign(to_move)),
                    1 => chess(Chess::AgreeDraw(v1::Empty {})),
                    _ => chess(Chess::Checkmate(to_move)),
                }
            } else {
                chess(Chess::Press(to_move))
            }
        };
        inputs += 1;
        let ack = device.act(action).await?.ack;
        if !ack.applied && !ack.duplicate {
            // A press a flag beat, say: look at the state again.
            refusals += 1;
            if refusals > 100 {
                return Err(format!("{match_id}: the server keeps refusing: {}", ack.error).into());
            }
        }
    }
}
