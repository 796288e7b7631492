//! The log of a tournament without a draw (stream `t/{id}`,
//! [`baffle_core::tournament::by_hand`]): every match its director makes by hand is
//! checked there against the round's others — one match at a table and one between two
//! players, unless the new one names the match it replaces, with a ruling — and recorded
//! before its own log is written. A crash between the two leaves the record without its
//! match; the director's retry finds it and makes the match.
//!
//! The log is begun with the tournament's first match made by hand. A tournament whose
//! matches were made before there were such logs has them recorded then, in the order
//! of their ids. A tournament with a draw takes no match by hand: its matches come from
//! the draw, whose log is the same stream.

use baffle_core::audit::{Reader, Record, export};
use baffle_core::tournament::by_hand::{self, ByHand, Replacing};

use super::{Hub, NewGame, NewMatch, tournament_stream as stream};
use crate::error::Error;
use crate::store::{EventStore, StoreError};
use crate::time::TimeSource;

fn refused(message: String) -> Error {
    Error::Refused(baffle_core::table::Refusal {
        kind: baffle_core::table::RefusalKind::Rule,
        message,
    })
}

/// What the core's rule is asked about a match made by hand.
fn asked(new: &NewMatch) -> by_hand::NewMatch {
    by_hand::NewMatch {
        match_id: new.info.id.clone(),
        round: new.info.round,
        table: new.info.table.clone(),
        players: new.players.clone(),
        series_match: match &new.game {
            NewGame::Backgammon { series_match, .. } => series_match.unwrap_or(0),
            NewGame::Chess(_) => 0,
        },
        replaces: new.replaces.as_ref().map(|r| Replacing {
            match_id: r.match_id.clone(),
            ruling: r.ruling.clone(),
        }),
    }
}

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Checks a match made by hand against its tournament's others and records it in
    /// the tournament's log (see the module); the caller then creates it.
    pub async fn record_by_hand(&self, new: &NewMatch) -> Result<(), Error> {
        self.refuse_draw_ids(&new.info.id).await?;
        // A retried create of a match that exists is answered ALREADY_EXISTS by the
        // creation itself, not as a clash with itself.
        if self.match_handle(&new.info.id).await.is_ok() {
            return Ok(());
        }
        self.check_new_match(new).await?;
        let id = &new.info.tournament;
        let tournament = self.tournament(id).await?;
        if tournament.draw.is_some() {
            return Err(refused(format!(
                "tournament {id} has a draw: its matches come from the draw (baffle round \
                 start), and one is replaced by a ruling on it (baffle pairing … replace)"
            )));
        }
        let asked = asked(new);
        let mut logs = self.by_hand.lock().await;
        loop {
            let log = self
                .by_hand_log(logs.get(id).cloned(), id, &tournament.name)
                .await?;
            if let Some(made) = log.made(&asked.match_id) {
                logs.insert(id.clone(), log.clone());
                // Recorded before a crash, or by a retry: the match is made now.
                return if made.new == asked {
                    Ok(())
                } else {
                    Err(Error::AlreadyExists(format!(
                        "tournament {id}'s log holds match {} with other players, table or \
                         round: choose another id",
                        asked.match_id
                    )))
                };
            }
            let plan = log.plan(&asked, self.time.now())?;
            match self.append_records(id, log.length, &plan.records).await {
                Ok(()) => {
                    logs.insert(id.clone(), plan.log);
                    return Ok(());
                }
                // Another node (or a request before this one) wrote first: read on.
                Err(StoreError::Conflict { .. }) => {
                    logs.insert(id.clone(), log);
                }
                Err(e) => {
                    return Err(Error::Unavailable(format!(
                        "tournament {id}'s log could not be stored: {e}"
                    )));
                }
            }
        }
    }

    /// The log of tournament `id` without a draw, with its export's end line.
    pub async fn export_by_hand(&self, id: &str) -> Result<Vec<String>, Error> {
        let lines = self
            .store
            .read(&stream(id), 0, usize::MAX)
            .map_err(|e| Error::Unavailable(e.to_string()))?;
        if lines.is_empty() {
            return Err(Error::NotFound(format!(
                "tournament {id} has no log yet: it has neither a draw nor a match made by hand"
            )));
        }
        let lost = |e: String| Error::DataLoss(format!("tournament {id}'s log: {e}"));
        let records = Reader::new()
            .records(&lines)
            .map_err(|e| lost(e.to_string()))?;
        let log = by_hand::replay(&records).map_err(lost)?;
        Ok(super::export_lines(&lines, log.length, log.head))
    }

    /// The log as stored, read on from `known`; begun (with the matches made before
    /// there were such logs) if it is empty.
    async fn by_hand_log(
        &self,
        known: Option<ByHand>,
        id: &str,
        name: &str,
    ) -> Result<ByHand, Error> {
        loop {
            if let Some(log) = self.by_hand_log_read(known.clone(), id)? {
                return Ok(log);
            }
            let begun = self.begin_by_hand(id, name).await?;
            match self.append_records(id, 0, &begun).await {
                Ok(()) | Err(StoreError::Conflict { .. }) => {}
                Err(e) => {
                    return Err(Error::Unavailable(format!(
                        "tournament {id}'s log could not be stored: {e}"
                    )));
                }
            }
        }
    }

    /// Reads `id`'s stored log on from `known`; `None` if it is empty.
    fn by_hand_log_read(&self, known: Option<ByHand>, id: &str) -> Result<Option<ByHand>, Error> {
        let from = known.as_ref().map_or(0, |l| l.length);
        let lines = self
            .store
            .read(&stream(id), from, usize::MAX)
            .map_err(|e| Error::Unavailable(e.to_string()))?;
        if lines.is_empty() {
            return Ok(known);
        }
        let lost = |e: String| Error::DataLoss(format!("tournament {id}'s log: {e}"));
        let records = Reader::at(from)
            .records(&lines)
            .map_err(|e| lost(e.to_string()))?;
        by_hand::follow(known, &records).map(Some).map_err(lost)
    }

    /// The first records of `id`'s log: `tournament.created`, then a `match.created`
    /// for each match it has already (made before there were such logs), in the order
    /// of their ids. One the rule would refuse (two matches at a table in a round, from
    /// before the rule) is left out of the log, and said so in the server's log.
    async fn begin_by_hand(&self, id: &str, name: &str) -> Result<Vec<Record>, Error> {
        let now = self.time.now();
        let mut plan = ByHand::create(id, name, now)?;
        let mut earlier: Vec<_> = self
            .match_handles()
            .await
            .into_iter()
            .filter(|h| h.info.tournament == id)
            .collect();
        earlier.sort_by(|a, b| a.info.id.cmp(&b.info.id));
        for h in earlier {
            let Ok(s) = h.state().await else { continue };
            let asked = by_hand::NewMatch {
                match_id: h.info.id.clone(),
                round: h.info.round,
                table: h.info.table.clone(),
                players: [s.player_a, s.player_b],
                series_match: s.series_match,
                replaces: None,
            };
            match plan.log.plan(&asked, now) {
                Ok(next) => {
                    plan.records.extend(next.records);
                    plan.log = next.log;
                }
                Err(error) => {
                    tracing::warn!(tournament = %id, match_id = %h.info.id, %error, "a match made before tournament logs is left out of its tournament's log");
                }
            }
        }
        Ok(plan.records)
    }

    async fn append_records(
        &self,
        id: &str,
        expected: u64,
        records: &[Record],
    ) -> Result<(), StoreError> {
        let lines = records
            .iter()
            .map(|r| export::record_line(r).into_bytes())
            .collect();
        self.store
            .append(&stream(id), expected, lines)
            .await
            .map(|_| ())
    }

    /// A drawn tournament's match ids are its draw's: one made by hand (in any
    /// tournament) would be taken for the draw's match, and the draw's left without its
    /// log.
    async fn refuse_draw_ids(&self, match_id: &str) -> Result<(), Error> {
        for (t, _) in self.draw_entries().await {
            if baffle_core::tournament::MatchKey::of_draw_id(&t, match_id).is_some() {
                return Err(Error::Invalid(format!(
                    "match_id: ids {t}-<key> are kept for tournament {t}'s draw: choose \
                     another id"
                )));
            }
        }
        Ok(())
    }
}
