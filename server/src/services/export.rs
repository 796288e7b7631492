//! A match as a file GNU Backgammon reads (issue 23, docs/board.md "Exports"): its log,
//! read back from the store up to the state's sequence number through the one reader
//! (`audit::Reader`) and the one replay path (`table::Replay`, which checks every record
//! as recovery does), gives its backgammon events; they become a record
//! (`board::record_from_events`), written as `.mat` or `.sgf`.

use baffle_core::audit::Reader;
use baffle_core::backgammon::Event;
use baffle_core::backgammon::board::{record_from_events, write_mat, write_sgf};
use baffle_core::table::{Body, Replay};
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
    let events = backgammon_events(hub, match_id, state.seq)?;
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

/// The backgammon events of `match_id`'s first `length` records, the log replayed (the
/// seed sealed, as the offline verifier replays it) as it is read.
fn backgammon_events<S: EventStore + Clone, T: TimeSource>(
    hub: &Hub<S, T>,
    match_id: &str,
    length: u64,
) -> Result<Vec<Event>, Error> {
    let lost = |e: String| Error::DataLoss(format!("match {match_id}'s log: {e}"));
    let mut reader = Reader::new();
    let mut replay = Replay::new(None);
    let mut events = Vec::new();
    while reader.next_seq() < length {
        let want = usize::try_from(length - reader.next_seq()).map_or(CHUNK, |n| n.min(CHUNK));
        let lines = hub
            .store
            .read(&actor::stream(match_id), reader.next_seq(), want)
            .map_err(|e| Error::Unavailable(e.to_string()))?;
        if lines.is_empty() {
            return Err(Error::Internal(
                "the log is shorter than its state says".into(),
            ));
        }
        for line in lines {
            let record = reader.record(&line).map_err(|e| lost(e.to_string()))?;
            match replay.push_event(&record) {
                Ok(Some(Body::Backgammon(e))) => events.push(e),
                Ok(_) => {}
                Err(e) => return Err(lost(e.to_string())),
            }
        }
    }
    Ok(events)
}
