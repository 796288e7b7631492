//! A ruling on a match of the draw that its table must carry out too: a match with a
//! log that is put off or given a new start is told so by a director's ruling of its
//! own (2.2), before the tournament records it. A match already begun refuses, and then
//! the tournament records nothing either.

use baffle_core::backgammon::{Command as TableCommand, DirectorAction, Ruling as TableRuling};
use baffle_core::table::Request;
use baffle_core::tournament::{Command, Ruling, Tournament};

use super::Draws;
use crate::actor::Admission;
use crate::error::Error;
use crate::store::EventStore;
use crate::time::TimeSource;

impl<S: EventStore + Clone, T: TimeSource> Draws<S, T> {
    /// Carries out at its table a postponement or a new start of a match that has its
    /// log; nothing for any other command. Idempotent: a table already so is left
    /// alone (a retry after the tournament's log moved meanwhile).
    pub(super) async fn move_at_table(
        &self,
        t: &Tournament,
        command: &Command,
    ) -> Result<(), Error> {
        let Command::Rule { key, ruling, words } = command else {
            return Ok(());
        };
        let start = match ruling {
            Ruling::Postpone => None,
            Ruling::Reschedule { start } => Some(*start),
            _ => return Ok(()),
        };
        let Some(assigned) = t.matches.get(key) else {
            return Ok(());
        };
        let handle = self.hub.match_handle(&assigned.match_id).await?;
        let state = handle.state().await?;
        let already = match start {
            None => state.postponed,
            Some(at) => !state.postponed && state.scheduled_start_ms == at.as_ms(),
        };
        if already {
            return Ok(());
        }
        let request = Request::Backgammon(TableCommand::Director {
            action: DirectorAction::Reschedule { start },
            ruling: TableRuling::new(words.trim(), "2.2"),
        });
        handle
            .execute(request, None, None, Admission::Always)
            .await
            .map(|_| ())
    }
}
