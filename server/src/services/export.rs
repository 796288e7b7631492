//! A match as a file GNU Backgammon reads (issue 23, docs/board.md "Exports"): its log's
//! backgammon events, read back from the store up to the state's sequence number, become a
//! record (`board::record_from_events`), written as `.mat` or `.sgf`.

use baffle_core::GameType;
use baffle_core::audit::export::{Line, parse_line};
use baffle_core::backgammon::Event;
use baffle_core::backgammon::board::{record_from_events, write_mat, write_sgf};
use baffle_core::table::Body;
use baffle_proto::v1;
use tonic::Status;

use crate::actor;
use crate::error::Error;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;

/// Records read from the store at a time.
const CHUNK: usize = 512;

/// The export of `match_id` in `format`.
pub async fn export_match<S: EventStore + Clone, T: TimeSource>(
    hub: &Hub<S, T>,
    match_id: &str,
    format: i32,
) -> Result<v1::ExportMatchResponse, Status> {
    let format = v1::ExportFormat::try_from(format)
        .map_err(|_| Error::Invalid(format!("format: {format} is not a format (1 mat, 2 sgf)")))?;
    let state = hub.match_handle(match_id).await?.state().await?;
    if state.chess.is_some() {
        return Err(Error::FailedPrecondition(
            "a chess match has no backgammon moves to export".into(),
        )
        .into());
    }
    // A match that records moves has its board from its first game on.
    if state.board.is_none() {
        let why = if state.game_number == 0 {
            "no game has started yet: there is nothing to export"
        } else {
            "this match records no moves: there is nothing to export as .mat or .sgf"
        };
        return Err(Error::FailedPrecondition(why.into()).into());
    }
    // Up to the state's sequence number: a consistent prefix, even while play goes on.
    let mut events: Vec<Event> = Vec::new();
    let mut from = 0;
    while from < state.seq {
        let want = CHUNK.min((state.seq - from) as usize);
        let lines = hub
            .store
            .read(&actor::stream(match_id), from, want)
            .map_err(|e| Error::Unavailable(e.to_string()))?;
        if lines.is_empty() {
            return Err(Error::Internal("the log is shorter than its state says".into()).into());
        }
        for l in lines {
            from += 1;
            let line = String::from_utf8_lossy(&l);
            let Ok(Line::Record(r)) = parse_line(&line) else {
                return Err(Error::Internal(format!("log record {from} does not read")).into());
            };
            if let Ok(Body::Backgammon(e)) = Body::parse(&r.body, Some(GameType::Backgammon)) {
                events.push(e);
            }
        }
    }
    let players = [state.player_a.clone(), state.player_b.clone()];
    let record = record_from_events(players, state.length, &events)
        .map_err(|e| Error::FailedPrecondition(e.to_string()))?;
    let (text, ext) = match format {
        v1::ExportFormat::Unspecified | v1::ExportFormat::Mat => (write_mat(&record), "mat"),
        v1::ExportFormat::Sgf => (
            write_sgf(&record, &events).map_err(|e| Error::Internal(e.to_string()))?,
            "sgf",
        ),
    };
    Ok(v1::ExportMatchResponse {
        text,
        file_name: format!("{match_id}.{ext}"),
    })
}
