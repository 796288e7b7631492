//! Reading a tournament's log back: the chain, each record, and everything the log
//! claims that can be recomputed — the draw from its revealed seed, each Swiss round
//! from the standings before it, each match given a log from the draw. The server's
//! recovery and `baffle audit verify` run this one path.

use super::draw::draw_order;
use super::entrant::Status;
use super::event::Event;
use super::state::Tournament;
use crate::audit::{Hash, Record, record_hash};
use crate::dice::ServerSeed;

/// Replays `records` from the first; the error names the record and what is wrong.
pub fn replay(records: &[Record]) -> Result<Tournament, String> {
    let mut tournament: Option<Tournament> = None;
    for (i, r) in records.iter().enumerate() {
        let at = |m: String| format!("record {i}: {m}");
        let seq = u64::try_from(i).unwrap_or(u64::MAX);
        let prev = tournament.as_ref().map_or(Hash::GENESIS, |t| t.head);
        if r.seq != seq || r.prev != prev {
            return Err(at(
                "out of order: its seq or prev does not follow the record before".into(),
            ));
        }
        if record_hash(r.seq, &r.prev, r.body.as_bytes()) != r.hash {
            return Err(at("its hash is not the hash of its contents".into()));
        }
        let event: Event = serde_json::from_str(&r.body)
            .map_err(|e| at(format!("not a tournament record: {e}")))?;
        if event.body() != r.body {
            return Err(at("not in its one canonical spelling".into()));
        }
        match tournament.as_mut() {
            None => {
                let t = Tournament::opened(&event)
                    .ok_or_else(|| at("the first record is not tournament.opened".into()))?;
                tournament = Some(t);
            }
            Some(t) => {
                t.check(&event).map_err(at)?;
                t.evolve(&event);
            }
        }
        let t = tournament.as_mut().expect("set above");
        t.length = seq + 1;
        t.head = r.hash;
    }
    tournament.ok_or_else(|| "the log is empty".to_string())
}

impl Tournament {
    /// What a replay checks of a record before folding it: what can be recomputed is.
    fn check(&self, event: &Event) -> Result<(), String> {
        match event {
            Event::Opened { .. } => Err("a second tournament.opened".into()),
            Event::DrawMade {
                seed,
                field,
                seeds,
                order,
                ..
            } => {
                let bytes: [u8; 32] = crate::audit::Hash::from_hex(seed)
                    .ok_or("draw.made: the seed is not 64 hex digits")?
                    .0;
                let seed = ServerSeed::from_bytes(bytes);
                if seed.commitment().0 != self.commitment {
                    return Err(
                        "draw.made: the seed is not the one the opening committed to".into(),
                    );
                }
                let checked_in: Vec<_> = self
                    .entrants
                    .iter()
                    .filter(|(_, e)| e.status == Status::CheckedIn)
                    .map(|(id, _)| *id)
                    .collect();
                if &checked_in != field {
                    return Err("draw.made: the field is not the entrants checked in".into());
                }
                if &draw_order(&seed, &self.id, field, seeds) != order {
                    return Err("draw.made: the order is not the one the seed draws".into());
                }
                Ok(())
            }
            Event::RoundPaired { round, .. } => {
                let expected = self.pair_swiss(*round).map_err(|e| e.message)?;
                if &expected != event {
                    return Err(format!(
                        "round.paired: round {round} is not the pairing its standings give"
                    ));
                }
                Ok(())
            }
            Event::Assigned { key, players, .. } => {
                let drawn = self
                    .current_draw()
                    .pairings
                    .into_iter()
                    .any(|p| p.key == *key && p.players == *players);
                if !drawn {
                    return Err(format!(
                        "match.assigned: {key} with these players is not in the draw"
                    ));
                }
                if !self.rounds.contains_key(&(key.flight, key.round)) {
                    return Err(format!("match.assigned: {key}'s round has not started"));
                }
                Ok(())
            }
            Event::Result { key, winner, .. } => {
                let pairing = self
                    .current_draw()
                    .pairings
                    .into_iter()
                    .find(|p| p.key == *key);
                match (pairing, winner) {
                    (None, _) => Err(format!("match.result: {key} is not a match of the draw")),
                    (Some(p), Some(w)) if !p.players.contains(w) => {
                        Err(format!("match.result: {w} does not play {key}"))
                    }
                    _ => self.check_played_keep_their_players(event),
                }
            }
            _ => Ok(()),
        }
    }

    /// A result, or its correction (4.6), leaves every match given a log with the
    /// players the draw gave it: the rule `Tournament::plan` keeps, checked again here so
    /// that a log whose correction rewrote a played bracket does not verify.
    fn check_played_keep_their_players(&self, event: &Event) -> Result<(), String> {
        match self.redrawn_by(event) {
            Some(k) => Err(format!(
                "match.result: {k} was drawn from an earlier result, which this one changes"
            )),
            None => Ok(()),
        }
    }
}
