//! Standings: the fold of the confirmed results. A round robin or a Swiss is a table
//! ([`super::standings`]); a knockout places each entrant by the round he reached in
//! his flight.

use super::TournamentError;
use super::format::Format;
use super::keys::{EntrantId, Flight};
use super::standings::{self, Game, Row};
use super::state::Tournament;

/// Where an entrant finished in a knockout's flight (or stands, while it is played).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    /// The flight.
    pub flight: Flight,
    /// The entrant.
    pub entrant: EntrantId,
    /// Shared place: 1 the winner, 2 the finalist, 3 both semi-finalists, 5 the
    /// quarter-finalists, … (`None` while he is still in).
    pub place: Option<u32>,
    /// Matches won and lost in the flight (walkovers not counted).
    pub wins: u32,
    /// Matches lost.
    pub losses: u32,
}

impl Tournament {
    /// The results as games, for a table.
    pub fn games(&self) -> Vec<Game> {
        self.current_draw()
            .pairings
            .iter()
            .filter_map(|p| {
                let o = self.results.get(&p.key)?;
                Some(Game {
                    key: p.key,
                    players: p.players,
                    winner: o.winner,
                    score: o.score,
                })
            })
            .collect()
    }

    /// The table of a round robin or a Swiss (a knockout's results tabled the same way).
    /// An error only if the log holds a result the draw does not (a replay refuses such
    /// a log first).
    pub fn table(&self) -> Result<Vec<Row>, TournamentError> {
        let Some(drawn) = &self.draw else {
            return Ok(Vec::new());
        };
        let byes: Vec<EntrantId> = self.current_draw().byes.iter().map(|b| b.entrant).collect();
        standings::table(&drawn.field, &self.games(), &byes)
            .map_err(|e| TournamentError::rule(format!("the standings do not add up: {e}")))
    }

    /// A knockout's placings, flight by flight (empty for other formats).
    pub fn placings(&self) -> Vec<Placing> {
        if !matches!(self.plan.format, Format::Knockout { .. }) {
            return Vec::new();
        }
        let winners = self.winners();
        let draw = self.current_draw();
        let mut out = Vec::new();
        for flight in self.flights() {
            let rounds = self.round_count(flight);
            let mut entrants: Vec<EntrantId> = draw
                .pairings
                .iter()
                .filter(|p| p.key.flight == flight)
                .flat_map(|p| p.players)
                .chain(
                    draw.byes
                        .iter()
                        .filter(|b| b.key.flight == flight)
                        .map(|b| b.entrant),
                )
                .collect();
            entrants.sort();
            entrants.dedup();
            let champion = self
                .knockout
                .as_ref()
                .and_then(|k| k.champion(flight, &winners));
            for e in entrants {
                let mine = draw
                    .pairings
                    .iter()
                    .filter(|p| p.key.flight == flight && p.players.contains(&e));
                let (mut wins, mut losses, mut lost_in) = (0, 0, None);
                for p in mine {
                    match winners.get(&p.key) {
                        Some(w) if *w == e => wins += 1,
                        Some(_) => {
                            losses += 1;
                            lost_in = Some(p.key.round);
                        }
                        None => {}
                    }
                }
                let place = if champion == Some(e) {
                    Some(1)
                } else {
                    // Losing in round r of R: beaten by one of the 2^(R-r) who went on;
                    // places are shared from 2^(R-r) + 1.
                    lost_in.map(|r| (1u32 << (rounds - r).min(31)) + 1)
                };
                out.push(Placing {
                    flight,
                    entrant: e,
                    place,
                    wins,
                    losses,
                });
            }
        }
        out
    }
}
