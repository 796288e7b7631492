//! Which matches the draw holds now: every pairing whose players are known, decided or
//! not, and the byes — read off the draw and the results by each format's rules. The
//! tournament gives a pairing a match log when its round has started
//! ([`super::decide`]).

use std::collections::BTreeMap;

use super::event::Event;
use super::format::Format;
use super::keys::{EntrantId, Flight, MatchKey};
use super::knockout::{Occupant, Outcome as Node};
use super::round_robin;
use super::state::Tournament;

/// A match of the draw with both players known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Its place.
    pub key: MatchKey,
    /// The players, A then B.
    pub players: [EntrantId; 2],
}

/// A pair of players in one order, whichever side each plays.
pub fn ordered([a, b]: [EntrantId; 2]) -> (EntrantId, EntrantId) {
    if a < b { (a, b) } else { (b, a) }
}

/// A bye: an entrant who goes on without a match at `key`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bye {
    /// Where.
    pub key: MatchKey,
    /// Who.
    pub entrant: EntrantId,
}

/// The draw now: pairings in key order and byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draw {
    /// Every pairing with both players known.
    pub pairings: Vec<Pairing>,
    /// Every bye.
    pub byes: Vec<Bye>,
}

impl Tournament {
    /// The winners decided so far, by key (draws have none).
    pub fn winners(&self) -> BTreeMap<MatchKey, EntrantId> {
        self.results
            .iter()
            .filter_map(|(k, o)| o.winner.map(|w| (*k, w)))
            .collect()
    }

    /// The draw as it stands: empty before the draw is made.
    pub fn current_draw(&self) -> Draw {
        let Some(drawn) = &self.draw else {
            return Draw::default();
        };
        match self.plan.format {
            Format::Knockout { .. } => {
                let Some(ko) = &self.knockout else {
                    return Draw::default();
                };
                let mut d = Draw::default();
                for node in ko.resolve(&self.winners()) {
                    match node.outcome {
                        Node::Playable(players) => d.pairings.push(Pairing {
                            key: node.key,
                            players,
                        }),
                        Node::Decided { winner, loser } => {
                            // The pairing's order is the assignment's, when it has one,
                            // else the bracket's (never the result's: a forfeit of a
                            // match without a log keeps its sides).
                            let players =
                                self.pairing_players(node.key)
                                    .unwrap_or(match node.players {
                                        [Occupant::Known(a), Occupant::Known(b)] => [a, b],
                                        _ => [winner, loser],
                                    });
                            d.pairings.push(Pairing {
                                key: node.key,
                                players,
                            });
                        }
                        Node::Walkover(entrant) => d.byes.push(Bye {
                            key: node.key,
                            entrant,
                        }),
                        Node::Waiting | Node::Void => {}
                    }
                }
                d
            }
            Format::RoundRobin { cycles } => round_robin_draw(&drawn.order, cycles),
            Format::Swiss { .. } => {
                let mut d = Draw::default();
                for (r, round) in self.swiss.iter().enumerate() {
                    let round_no = u32::try_from(r + 1).unwrap_or(u32::MAX);
                    for (i, pair) in round.pairs.iter().enumerate() {
                        d.pairings.push(Pairing {
                            key: MatchKey::main(round_no, index(i)),
                            players: *pair,
                        });
                    }
                    if let Some(entrant) = round.bye {
                        d.byes.push(Bye {
                            key: MatchKey::main(round_no, index(round.pairs.len())),
                            entrant,
                        });
                    }
                }
                d
            }
        }
    }

    /// The first match given a log whose players `event` (a result, or its correction:
    /// 4.6) would change: a match already given a log keeps the players the bracket gave
    /// it. `Tournament::plan` refuses such a result and the replay does not verify one.
    /// Unlike [`Self::current_draw`], a decided knockout match is read here from the
    /// bracket, not from its assignment — else a match would be compared with itself.
    pub fn redrawn_by(&self, event: &Event) -> Option<MatchKey> {
        let mut after = self.clone();
        after.evolve(event);
        let drawn = after.drawn_players();
        self.matches
            .iter()
            .find(|(k, a)| {
                drawn
                    .get(*k)
                    .is_none_or(|p| ordered(*p) != ordered(a.players))
            })
            .map(|(k, _)| *k)
    }

    /// Who the draw puts at each key with both players known, read from the results
    /// alone (knockout: the bracket's occupants, decided matches too).
    fn drawn_players(&self) -> BTreeMap<MatchKey, [EntrantId; 2]> {
        match (&self.plan.format, &self.knockout) {
            (Format::Knockout { .. }, Some(ko)) => ko
                .resolve(&self.winners())
                .into_iter()
                .filter_map(|n| match n.players {
                    [Occupant::Known(a), Occupant::Known(b)] => Some((n.key, [a, b])),
                    _ => None,
                })
                .collect(),
            _ => self
                .current_draw()
                .pairings
                .into_iter()
                .map(|p| (p.key, p.players))
                .collect(),
        }
    }

    /// The rounds of a flight: how many the draw has (a Swiss: as many as its plan).
    pub fn round_count(&self, flight: Flight) -> u32 {
        match self.plan.format {
            Format::Knockout { .. } => self.knockout.as_ref().map_or(0, |k| k.rounds(flight)),
            Format::RoundRobin { cycles } if flight == Flight::Main => {
                let n = self.draw.as_ref().map_or(0, |d| d.order.len());
                let n = u32::try_from(n).unwrap_or(u32::MAX);
                (n + n % 2).saturating_sub(1).saturating_mul(cycles)
            }
            Format::Swiss { rounds } if flight == Flight::Main => rounds,
            _ => 0,
        }
    }

    /// The flights the draw has.
    pub fn flights(&self) -> Vec<Flight> {
        [Flight::Main, Flight::Consolation, Flight::LastChance]
            .into_iter()
            .filter(|f| self.round_count(*f) > 0)
            .collect()
    }
}

fn index(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// A round robin from the drawn order: pairing number `k` is `order[k - 1]`; an odd
/// field's dummy number gives its opponent the round's bye. The second cycle plays the
/// first's pairings with the players' order (colours) reversed.
fn round_robin_draw(order: &[EntrantId], cycles: u32) -> Draw {
    let n = u32::try_from(order.len()).unwrap_or(u32::MAX);
    let table = round_robin::berger(n);
    let by_number = |k: u32| order.get(k as usize - 1).copied();
    let mut d = Draw::default();
    let per_cycle = u32::try_from(table.len()).unwrap_or(u32::MAX);
    for cycle in 0..cycles {
        for (r, pairs) in table.iter().enumerate() {
            let round = cycle * per_cycle + index(r);
            let mut board = 0;
            for &(x, y) in pairs {
                match (by_number(x), by_number(y)) {
                    (Some(a), Some(b)) => {
                        board += 1;
                        let players = if cycle % 2 == 0 { [a, b] } else { [b, a] };
                        d.pairings.push(Pairing {
                            key: MatchKey::main(round, board),
                            players,
                        });
                    }
                    (Some(e), None) | (None, Some(e)) => d.byes.push(Bye {
                        key: MatchKey::main(round, 0),
                        entrant: e,
                    }),
                    (None, None) => {}
                }
            }
        }
    }
    d
}
