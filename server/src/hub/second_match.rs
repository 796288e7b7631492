//! One match per round at a table, and between two players: a director who creates a
//! second by hand names the one it replaces, with a ruling, so that a match recreated
//! with fresh dice (to escape an opening he disliked, say) is always linked to the one
//! it replaced. A tournament with a draw takes no match by hand at all: its matches
//! come from the draw, which replaces one by its own ruling (`match.replaced`).

use baffle_core::tournament::entrant::same_name;

use super::{Hub, NewGame, NewMatch};
use crate::error::Error;
use crate::store::EventStore;
use crate::time::TimeSource;

fn refused(message: String) -> Error {
    Error::Refused(baffle_core::table::Refusal {
        kind: baffle_core::table::RefusalKind::Rule,
        message,
    })
}

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Checks a match created by hand against its tournament's others (see the module).
    pub async fn second_match(&self, new: &NewMatch) -> Result<(), Error> {
        // A drawn tournament's match ids are its draw's: one made by hand (in any
        // tournament) would be taken for the draw's match, and the draw's left without
        // its log.
        for (t, _) in self.draw_entries().await {
            if let Some(rest) = new.info.id.strip_prefix(&format!("{t}-")) {
                let key = rest.split_once("-r").map_or(rest, |(k, _)| k);
                if baffle_core::tournament::MatchKey::parse(key).is_some() {
                    return Err(Error::Invalid(format!(
                        "match_id: ids {t}-<key> are kept for tournament {t}'s draw: choose \
                         another id"
                    )));
                }
            }
        }
        // A retried create of a match that exists is answered ALREADY_EXISTS by the
        // creation itself, not as a clash with itself.
        if self.match_handle(&new.info.id).await.is_ok() {
            return Ok(());
        }
        let tournament = self.tournament(&new.info.tournament).await?;
        if tournament.draw.is_some() {
            return Err(refused(format!(
                "tournament {} has a draw: its matches come from the draw (baffle round \
                 start), and one is replaced by a ruling on it (baffle pairing … replace)",
                new.info.tournament
            )));
        }
        let series = |g: &NewGame| match g {
            NewGame::Backgammon { series_match, .. } => *series_match,
            NewGame::Chess(_) => None,
        };
        // The same round of the same tournament: the players from the hub's index, or
        // (a match recovered at a start) from its actor.
        let same_round: Vec<(crate::actor::MatchHandle, Option<[String; 2]>)> = {
            let state = self.state.lock().await;
            state
                .matches
                .values()
                .filter(|h| {
                    h.info.tournament == new.info.tournament && h.info.round == new.info.round
                })
                .filter(|h| {
                    new.replaces
                        .as_ref()
                        .is_none_or(|r| r.match_id != h.info.id)
                })
                .map(|h| (h.clone(), state.players.get(&h.info.id).cloned()))
                .collect()
        };
        let mut clashes = Vec::new();
        for (h, known) in same_round {
            let info = &h.info;
            let (names, series_match) = match known {
                Some(names) if series(&new.game).is_none() => (names, 0),
                _ => {
                    let Ok(s) = h.state().await else { continue };
                    ([s.player_a, s.player_b], s.series_match)
                }
            };
            let same_table = !info.table.is_empty() && info.table == new.info.table;
            let same_pair = {
                let [a, b] = &new.players;
                (same_name(a, &names[0]) && same_name(b, &names[1]))
                    || (same_name(a, &names[1]) && same_name(b, &names[0]))
            };
            // The matches of a best-of-three series are one pair's by design (2.2).
            let another_of_a_series =
                series(&new.game).is_some() && series_match != 0 && !same_table;
            if same_table || (same_pair && !another_of_a_series) {
                let why = if same_table {
                    format!("table {}", info.table)
                } else {
                    "the same two players".to_string()
                };
                clashes.push(format!("{} ({} v {}, {why})", info.id, names[0], names[1]));
            }
        }
        if let Some(r) = &new.replaces {
            if r.ruling.trim().is_empty() {
                return Err(Error::Invalid(
                    "ruling: replacing a match needs the director's words".into(),
                ));
            }
            let replaced = self.match_handle(&r.match_id).await?;
            if replaced.info.tournament != new.info.tournament {
                return Err(Error::Invalid(format!(
                    "replaces: match {} is not in tournament {}",
                    r.match_id, new.info.tournament
                )));
            }
        }
        if clashes.is_empty() {
            return Ok(());
        }
        Err(refused(format!(
            "round {} of {} has this match already: {} — a second is created only to \
             replace it, naming it with a ruling (--replaces ID --ruling \"…\")",
            new.info.round,
            new.info.tournament,
            clashes.join("; ")
        )))
    }
}
