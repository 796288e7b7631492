//! `baffle.v1.TimeControls`: the preset time controls a director can choose from.

use crate::error::Error;
use baffle_core::clock::presets;
use baffle_proto::v1::time_controls_server::TimeControls;
use baffle_proto::v1::{ListPresetsRequest, ListPresetsResponse};
use tonic::{Request, Response, Status};

/// Match length used for the backgammon preset when the request leaves it at 0.
pub const DEFAULT_MATCH_LENGTH: u32 = 7;

/// Longest match the backgammon preset is offered for: the rules' longest match.
pub const MAX_MATCH_LENGTH: u32 = baffle_core::backgammon::setup::MAX_LENGTH;

/// Serves `TimeControls`. Stateless.
#[derive(Clone, Copy, Debug, Default)]
pub struct TimeControlsService;

#[tonic::async_trait]
impl TimeControls for TimeControlsService {
    async fn list_presets(
        &self,
        request: Request<ListPresetsRequest>,
    ) -> Result<Response<ListPresetsResponse>, Status> {
        let length = match request.into_inner().match_length {
            0 => DEFAULT_MATCH_LENGTH,
            n if n > MAX_MATCH_LENGTH => {
                return Err(Error::Invalid(format!(
                    "match_length {n} is above the maximum of {MAX_MATCH_LENGTH} points"
                ))
                .into());
            }
            n => n,
        };
        let presets = presets(length).map_err(|e| Error::Invalid(e.to_string()))?;
        Ok(Response::new(ListPresetsResponse {
            presets: presets.iter().map(Into::into).collect(),
        }))
    }
}
