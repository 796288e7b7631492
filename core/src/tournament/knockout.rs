//! # A knockout draw: byes, seeding and second-chance flights
//!
//! Pure functions of the entrants' order (seed 1 first) and the winners recorded so far:
//! no clock, no randomness, no I/O. The draw is a list of match [`Node`]s, each with two
//! [`Source`]s; [`Knockout::resolve`] reads them, in key order, into what each match is
//! now ([`NodeState`]). Nothing is stored but the order and the flights, so a draw and its
//! winners always give the same picture.
//!
//! ## The main draw
//!
//! - Its size is the next power of two at or above the number of entrants `n` (at least
//!   2). The `size - n` places left over are **byes**, given to the top seeds: the
//!   places of seeds `n + 1 ..= size` are byes.
//! - Seeds are laid out recursively: a draw of 2 is `[1, 2]`; a draw of `2m` replaces
//!   each seed `s` of the draw of `m` by the pair `s, 2m + 1 - s`. So seed `s` meets
//!   seed `size + 1 - s` in round 1, and the top two seeds meet only in the final. For 8:
//!   `1v8 4v5 2v7 3v6`; for 16: `1v16 8v9 4v13 5v12 2v15 7v10 3v14 6v11`
//!   ([`seed_layout`]).
//! - Because seed `s <= size / 2` always meets a seed above `size / 2`, and `n > size / 2`,
//!   no two byes meet: every round-1 match holds at least one entrant, so byes exist
//!   only in round 1, and from round 2 on every main match is a real one.
//!
//! ## Second chances (as DrawBoss's consolation formats)
//!
//! A second-chance flight takes, for each round-1 match of the flight before it, the
//! player who lost his **first real match** in that flight (the first match of the flight
//! he actually played, not a walkover): the consolation is fed by the main, the last
//! chance by the consolation. Its slot `j` (from 0) is fed by round-1 match `j + 1` of the
//! flight before, and its round 1 pairs slots `2i, 2i + 1`; so it is half the size of the
//! flight that feeds it. It needs at least 2 places, so the flight that feeds it at
//! least 4: a consolation needs a main of at least 4 places (3 entrants), a last chance
//! a main of at least 8 (5 entrants).
//!
//! - A round-1 match that is surely played (both places surely filled) feeds its loser:
//!   [`Source::Loser`].
//! - One that may be a walkover feeds [`Source::FirstLoss`]: if it was played, its loser;
//!   if it was a walkover for `p`, `p` if he lost his first real match later in the
//!   flight (the walkover chain is followed), and nobody ([`Occupant::Empty`]) if he won
//!   it or won the flight without ever playing; nobody if it was void. The slot stays
//!   [`Occupant::Unknown`] until that is known. In the main only bye matches are
//!   walkovers, so a bye player's slot waits for his round-2 match.
//!
//! Why the first real loss: a bye is not a match, so a player who had one and lost his
//! first real match has had the same one chance as a round-1 loser, and deserves the
//! second. Thus a player enters a second chance exactly when he has lost his first real
//! match in the flight before, and never plays two undecided matches at once: he enters
//! only after his loss.
//!
//! ## What a node is
//!
//! A place is [`Occupant::Known`], [`Occupant::Empty`] (nobody will come: a bye, a
//! walkover's missing loser, a void match) or [`Occupant::Unknown`] (not decided yet).
//! Two known players make a [`Outcome::Playable`] match, [`Outcome::Decided`] once its
//! winner is given; one known player and one empty place a [`Outcome::Walkover`] (he
//! advances without a match); two empty places [`Outcome::Void`], which sends nobody on.
//! Anything else is [`Outcome::Waiting`]. Byes are resolved here, never recorded: the
//! winners given to [`Knockout::resolve`] are those of played matches only, and a winner
//! given for a match that is not playable, or who is not one of its two players, is
//! ignored (the caller checks a result before recording it).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::keys::{EntrantId, Flight, MatchKey};

/// The most entrants a knockout takes (a draw of 4096 places).
pub const MAX_ENTRANTS: usize = 4096;

/// Which flights a knockout has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flights {
    /// The main draw alone.
    Main,
    /// The main draw and a consolation.
    Consolation,
    /// The main draw, a consolation and a last chance.
    LastChance,
}

impl Flights {
    /// Whether a knockout with these flights has `flight`.
    pub fn has(self, flight: Flight) -> bool {
        match flight {
            Flight::Main => true,
            Flight::Consolation => self != Flights::Main,
            Flight::LastChance => self == Flights::LastChance,
        }
    }

    /// The smallest main draw (in places) these flights can be played on.
    pub fn min_size(self) -> u32 {
        match self {
            Flights::Main => 2,
            Flights::Consolation => 4,
            Flights::LastChance => 8,
        }
    }
}

/// Why a knockout cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnockoutError {
    /// Fewer than 2 entrants.
    TooFewEntrants {
        /// How many were given.
        entrants: usize,
    },
    /// More than [`MAX_ENTRANTS`].
    TooManyEntrants {
        /// How many were given.
        entrants: usize,
    },
    /// An entrant listed twice.
    DuplicateEntrant(EntrantId),
    /// The field is too small for the second chances asked for.
    FieldTooSmall {
        /// The flights asked for.
        flights: Flights,
        /// How many entrants there are.
        entrants: usize,
        /// The main draw they make.
        size: u32,
    },
}

impl fmt::Display for KnockoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KnockoutError::TooFewEntrants { entrants } => {
                write!(f, "a knockout needs at least 2 entrants; it has {entrants}")
            }
            KnockoutError::TooManyEntrants { entrants } => write!(
                f,
                "a knockout takes at most {MAX_ENTRANTS} entrants; it has {entrants}"
            ),
            KnockoutError::DuplicateEntrant(e) => write!(
                f,
                "entrant {e} is listed twice; each entrant has one place in the draw"
            ),
            KnockoutError::FieldTooSmall {
                flights,
                entrants,
                size,
            } => {
                let (what, needs) = match flights {
                    Flights::LastChance => (
                        "a last chance",
                        "a consolation of at least 4 places, so a main draw of at least 8",
                    ),
                    _ => ("a consolation", "a main draw of at least 4 places"),
                };
                let min = flights.min_size() / 2 + 1;
                write!(
                    f,
                    "{what} needs {needs} ({min} or more entrants); {entrants} entrants make a main draw of {size}"
                )
            }
        }
    }
}

impl std::error::Error for KnockoutError {}

/// Where a place in a match comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// An entrant placed by the seeding (main round 1).
    Entrant(EntrantId),
    /// Nobody: a bye (main round 1).
    Bye,
    /// The winner of a match (or the player it walked over).
    Winner(MatchKey),
    /// The loser of a match that is surely played.
    Loser(MatchKey),
    /// The player who lost his first real match starting from this one (a second-chance
    /// feed from a match that may be a walkover).
    FirstLoss(MatchKey),
}

/// A match of the draw and where its two places come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    /// The match.
    pub key: MatchKey,
    /// Its two places, top of the bracket first.
    pub sources: [Source; 2],
}

/// Who is in a place now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Occupant {
    /// This entrant.
    Known(EntrantId),
    /// Nobody will come.
    Empty,
    /// Not decided yet.
    Unknown,
}

/// What a match is now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A place is still unknown.
    Waiting,
    /// A real match to play, not decided.
    Playable([EntrantId; 2]),
    /// A real match, played.
    Decided {
        /// Who won.
        winner: EntrantId,
        /// Who lost.
        loser: EntrantId,
    },
    /// One place empty: the other player advances without a match.
    Walkover(EntrantId),
    /// Both places empty: nobody advances.
    Void,
}

/// A match of the draw as it is now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeState {
    /// The match.
    pub key: MatchKey,
    /// Who is in its two places.
    pub players: [Occupant; 2],
    /// What it is.
    pub outcome: Outcome,
}

/// The seed numbers of a draw of `size` places, by place from the top (see the module's
/// doc). `size` is rounded up to a power of two.
pub fn seed_layout(size: u32) -> Vec<u32> {
    let size = size.max(1).next_power_of_two();
    let mut layout = vec![1];
    while (layout.len() as u32) < size {
        let m = 2 * layout.len() as u32;
        layout = layout.iter().flat_map(|&s| [s, m + 1 - s]).collect();
    }
    layout
}

/// A knockout draw: its entrants by seed, its flights, and the matches they make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knockout {
    seeds: Vec<EntrantId>,
    flights: Flights,
    size: u32,
    nodes: Vec<Node>,
}

impl Knockout {
    /// Draws a knockout of `order` (seed 1 first) with `flights`.
    pub fn new(order: &[EntrantId], flights: Flights) -> Result<Knockout, KnockoutError> {
        let n = order.len();
        if n < 2 {
            return Err(KnockoutError::TooFewEntrants { entrants: n });
        }
        if n > MAX_ENTRANTS {
            return Err(KnockoutError::TooManyEntrants { entrants: n });
        }
        let mut seen = BTreeSet::new();
        if let Some(&e) = order.iter().find(|e| !seen.insert(**e)) {
            return Err(KnockoutError::DuplicateEntrant(e));
        }
        let size = (n as u32).next_power_of_two();
        if size < flights.min_size() {
            return Err(KnockoutError::FieldTooSmall {
                flights,
                entrants: n,
                size,
            });
        }
        let mut knockout = Knockout {
            seeds: order.to_vec(),
            flights,
            size,
            nodes: Vec::new(),
        };
        knockout.nodes = knockout.draw();
        Ok(knockout)
    }

    /// The entrants by seed (seed 1 first).
    pub fn seeds(&self) -> &[EntrantId] {
        &self.seeds
    }

    /// The flights it has.
    pub fn flights(&self) -> Flights {
        self.flights
    }

    /// The main draw's size in places (a power of two).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// How many rounds `flight` has; 0 if it has no such flight.
    pub fn rounds(&self, flight: Flight) -> u32 {
        if !self.flights.has(flight) {
            return 0;
        }
        let main = self.size.trailing_zeros();
        match flight {
            Flight::Main => main,
            Flight::Consolation => main - 1,
            Flight::LastChance => main - 2,
        }
    }

    /// Every match of every flight with its two sources, in key order.
    pub fn nodes(&self) -> Vec<Node> {
        self.nodes.clone()
    }

    /// What each match is now, in key order, given the winners of the matches played so
    /// far (byes and walkovers are resolved here).
    pub fn resolve(&self, winners: &BTreeMap<MatchKey, EntrantId>) -> Vec<NodeState> {
        let mut states: BTreeMap<MatchKey, NodeState> = BTreeMap::new();
        for node in &self.nodes {
            let players = node.sources.map(|s| self.occupant(s, &states));
            let outcome = match players {
                [Occupant::Known(a), Occupant::Known(b)] => match winners.get(&node.key) {
                    Some(&w) if w == a => Outcome::Decided {
                        winner: a,
                        loser: b,
                    },
                    Some(&w) if w == b => Outcome::Decided {
                        winner: b,
                        loser: a,
                    },
                    _ => Outcome::Playable([a, b]),
                },
                [Occupant::Known(a), Occupant::Empty] | [Occupant::Empty, Occupant::Known(a)] => {
                    Outcome::Walkover(a)
                }
                [Occupant::Empty, Occupant::Empty] => Outcome::Void,
                _ => Outcome::Waiting,
            };
            states.insert(
                node.key,
                NodeState {
                    key: node.key,
                    players,
                    outcome,
                },
            );
        }
        states.into_values().collect()
    }

    /// The entrant who won `flight`, once decided (by a played final or a walkover).
    pub fn champion(
        &self,
        flight: Flight,
        winners: &BTreeMap<MatchKey, EntrantId>,
    ) -> Option<EntrantId> {
        let rounds = self.rounds(flight);
        if rounds == 0 {
            return None;
        }
        let last = MatchKey {
            flight,
            round: rounds,
            index: 1,
        };
        let state = self.resolve(winners).into_iter().find(|s| s.key == last)?;
        match state.outcome {
            Outcome::Decided { winner, .. } | Outcome::Walkover(winner) => Some(winner),
            _ => None,
        }
    }

    /// The draw: every flight's matches, round by round.
    fn draw(&self) -> Vec<Node> {
        let mut nodes = Vec::new();
        for flight in [Flight::Main, Flight::Consolation, Flight::LastChance] {
            let rounds = self.rounds(flight);
            for round in 1..=rounds {
                for index in 1..=(1u32 << (rounds - round)) {
                    let key = MatchKey {
                        flight,
                        round,
                        index,
                    };
                    let sources = if round == 1 {
                        [
                            self.first_round_source(flight, 2 * index - 2),
                            self.first_round_source(flight, 2 * index - 1),
                        ]
                    } else {
                        let below = |index| MatchKey {
                            flight,
                            round: round - 1,
                            index,
                        };
                        [
                            Source::Winner(below(2 * index - 1)),
                            Source::Winner(below(2 * index)),
                        ]
                    };
                    nodes.push(Node { key, sources });
                }
            }
        }
        nodes
    }

    /// Where place `slot` (from 0) of `flight`'s round 1 comes from.
    fn first_round_source(&self, flight: Flight, slot: u32) -> Source {
        let feeder = |flight| MatchKey {
            flight,
            round: 1,
            index: slot + 1,
        };
        match flight {
            Flight::Main => match self.seed_at(slot) {
                Some(e) => Source::Entrant(e),
                None => Source::Bye,
            },
            Flight::Consolation | Flight::LastChance => {
                let before = if flight == Flight::Consolation {
                    Flight::Main
                } else {
                    Flight::Consolation
                };
                if self.surely_played(before, slot + 1) {
                    Source::Loser(feeder(before))
                } else {
                    Source::FirstLoss(feeder(before))
                }
            }
        }
    }

    /// The entrant at place `slot` (from 0) of the main's round 1; `None` for a bye.
    fn seed_at(&self, slot: u32) -> Option<EntrantId> {
        let seed = *seed_layout(self.size).get(slot as usize)?;
        self.seeds.get(seed as usize - 1).copied()
    }

    /// Whether round-1 match `index` of `flight` is played whatever happens: both its
    /// places are surely filled.
    fn surely_played(&self, flight: Flight, index: u32) -> bool {
        match flight {
            Flight::Main => {
                self.seed_at(2 * index - 2).is_some() && self.seed_at(2 * index - 1).is_some()
            }
            Flight::Consolation => {
                self.surely_played(Flight::Main, 2 * index - 1)
                    && self.surely_played(Flight::Main, 2 * index)
            }
            Flight::LastChance => false,
        }
    }

    /// Who a source gives, from the states of the matches before it.
    fn occupant(&self, source: Source, states: &BTreeMap<MatchKey, NodeState>) -> Occupant {
        let outcome = |k: MatchKey| states.get(&k).map_or(Outcome::Waiting, |s| s.outcome);
        match source {
            Source::Entrant(e) => Occupant::Known(e),
            Source::Bye => Occupant::Empty,
            Source::Winner(k) => match outcome(k) {
                Outcome::Decided { winner, .. } | Outcome::Walkover(winner) => {
                    Occupant::Known(winner)
                }
                Outcome::Void => Occupant::Empty,
                Outcome::Waiting | Outcome::Playable(_) => Occupant::Unknown,
            },
            Source::Loser(k) => match outcome(k) {
                Outcome::Decided { loser, .. } => Occupant::Known(loser),
                Outcome::Walkover(_) | Outcome::Void => Occupant::Empty,
                Outcome::Waiting | Outcome::Playable(_) => Occupant::Unknown,
            },
            Source::FirstLoss(k) => match outcome(k) {
                Outcome::Decided { loser, .. } => Occupant::Known(loser),
                Outcome::Void => Occupant::Empty,
                Outcome::Waiting | Outcome::Playable(_) => Occupant::Unknown,
                Outcome::Walkover(p) => {
                    // Follow `p` through his walkovers to his first real match.
                    let mut at = k;
                    loop {
                        if at.round >= self.rounds(at.flight) {
                            // He won the flight without playing.
                            return Occupant::Empty;
                        }
                        at = MatchKey {
                            flight: at.flight,
                            round: at.round + 1,
                            index: at.index.div_ceil(2),
                        };
                        match outcome(at) {
                            Outcome::Decided { loser, .. } if loser == p => {
                                return Occupant::Known(p);
                            }
                            Outcome::Decided { .. } => return Occupant::Empty,
                            Outcome::Walkover(_) => continue,
                            Outcome::Void => return Occupant::Empty,
                            Outcome::Waiting | Outcome::Playable(_) => return Occupant::Unknown,
                        }
                    }
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: u32) -> Vec<EntrantId> {
        (1..=n).map(EntrantId).collect()
    }

    fn key(flight: Flight, round: u32, index: u32) -> MatchKey {
        MatchKey {
            flight,
            round,
            index,
        }
    }

    fn state(k: &Knockout, w: &BTreeMap<MatchKey, EntrantId>, at: MatchKey) -> NodeState {
        k.resolve(w).into_iter().find(|s| s.key == at).unwrap()
    }

    #[test]
    fn the_layout_is_the_recursive_one() {
        assert_eq!(seed_layout(2), [1, 2]);
        assert_eq!(seed_layout(4), [1, 4, 2, 3]);
        assert_eq!(seed_layout(8), [1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(
            seed_layout(16),
            [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
        );
    }

    #[test]
    fn refusals_say_what_is_wrong_and_what_would_do() {
        let e = Knockout::new(&ids(1), Flights::Main).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a knockout needs at least 2 entrants; it has 1"
        );
        let e =
            Knockout::new(&[EntrantId(3), EntrantId(4), EntrantId(3)], Flights::Main).unwrap_err();
        assert_eq!(e, KnockoutError::DuplicateEntrant(EntrantId(3)));
        assert_eq!(
            e.to_string(),
            "entrant #3 is listed twice; each entrant has one place in the draw"
        );
        let e = Knockout::new(&ids(2), Flights::Consolation).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a consolation needs a main draw of at least 4 places (3 or more entrants); 2 entrants make a main draw of 2"
        );
        let e = Knockout::new(&ids(4), Flights::LastChance).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a last chance needs a consolation of at least 4 places, so a main draw of at least 8 (5 or more entrants); 4 entrants make a main draw of 4"
        );
        assert!(Knockout::new(&ids(3), Flights::Consolation).is_ok());
        assert!(Knockout::new(&ids(5), Flights::LastChance).is_ok());
        let e = Knockout::new(&ids(MAX_ENTRANTS as u32 + 1), Flights::Main).unwrap_err();
        assert!(matches!(e, KnockoutError::TooManyEntrants { .. }));
    }

    #[test]
    fn two_entrants_play_one_final() {
        let k = Knockout::new(&[EntrantId(7), EntrantId(2)], Flights::Main).unwrap();
        assert_eq!(k.size(), 2);
        assert_eq!(k.rounds(Flight::Main), 1);
        assert_eq!(k.rounds(Flight::Consolation), 0);
        let final_ = key(Flight::Main, 1, 1);
        assert_eq!(
            k.nodes(),
            [Node {
                key: final_,
                sources: [Source::Entrant(EntrantId(7)), Source::Entrant(EntrantId(2))],
            }]
        );
        let mut w = BTreeMap::new();
        assert_eq!(
            state(&k, &w, final_).outcome,
            Outcome::Playable([EntrantId(7), EntrantId(2)])
        );
        assert_eq!(k.champion(Flight::Main, &w), None);
        // A winner who is not in the match is ignored.
        w.insert(final_, EntrantId(9));
        assert_eq!(k.champion(Flight::Main, &w), None);
        w.insert(final_, EntrantId(2));
        assert_eq!(k.champion(Flight::Main, &w), Some(EntrantId(2)));
        assert_eq!(k.champion(Flight::Consolation, &w), None);
    }

    #[test]
    fn three_entrants_give_seed_one_the_bye_and_a_consolation_slot_that_waits() {
        let k = Knockout::new(&ids(3), Flights::Consolation).unwrap();
        assert_eq!(k.size(), 4);
        let (m11, m12, m21) = (
            key(Flight::Main, 1, 1),
            key(Flight::Main, 1, 2),
            key(Flight::Main, 2, 1),
        );
        let c11 = key(Flight::Consolation, 1, 1);
        assert_eq!(
            k.nodes(),
            [
                Node {
                    key: m11,
                    sources: [Source::Entrant(EntrantId(1)), Source::Bye]
                },
                Node {
                    key: m12,
                    sources: [Source::Entrant(EntrantId(2)), Source::Entrant(EntrantId(3))]
                },
                Node {
                    key: m21,
                    sources: [Source::Winner(m11), Source::Winner(m12)]
                },
                Node {
                    key: c11,
                    sources: [Source::FirstLoss(m11), Source::Loser(m12)]
                },
            ]
        );
        let mut w = BTreeMap::new();
        let s = k.resolve(&w);
        assert_eq!(s[0].outcome, Outcome::Walkover(EntrantId(1)));
        assert_eq!(
            s[1].outcome,
            Outcome::Playable([EntrantId(2), EntrantId(3)])
        );
        assert_eq!(s[2].outcome, Outcome::Waiting);
        assert_eq!(s[3].players, [Occupant::Unknown, Occupant::Unknown]);

        w.insert(m12, EntrantId(3));
        let s = k.resolve(&w);
        assert_eq!(
            s[2].outcome,
            Outcome::Playable([EntrantId(1), EntrantId(3)])
        );
        // Seed 1's slot waits for his first real match.
        assert_eq!(
            s[3].players,
            [Occupant::Unknown, Occupant::Known(EntrantId(2))]
        );
        assert_eq!(s[3].outcome, Outcome::Waiting);

        // Seed 1 loses it: he meets 2 in the consolation.
        let mut lost = w.clone();
        lost.insert(m21, EntrantId(3));
        assert_eq!(
            state(&k, &lost, c11).outcome,
            Outcome::Playable([EntrantId(1), EntrantId(2)])
        );
        // Seed 1 wins it: 2 wins the consolation by walkover.
        w.insert(m21, EntrantId(1));
        assert_eq!(state(&k, &w, c11).outcome, Outcome::Walkover(EntrantId(2)));
        assert_eq!(k.champion(Flight::Main, &w), Some(EntrantId(1)));
        assert_eq!(k.champion(Flight::Consolation, &w), Some(EntrantId(2)));
    }

    #[test]
    fn eight_entrants_are_laid_out_1v8_4v5_2v7_3v6() {
        let k = Knockout::new(&ids(8), Flights::LastChance).unwrap();
        let firsts: Vec<_> = k
            .nodes()
            .into_iter()
            .filter(|n| n.key.flight == Flight::Main && n.key.round == 1)
            .map(|n| n.sources)
            .collect();
        let e = |i| Source::Entrant(EntrantId(i));
        assert_eq!(
            firsts,
            [[e(1), e(8)], [e(4), e(5)], [e(2), e(7)], [e(3), e(6)]]
        );
        assert_eq!(
            (
                k.rounds(Flight::Main),
                k.rounds(Flight::Consolation),
                k.rounds(Flight::LastChance)
            ),
            (3, 2, 1)
        );
        // No byes: every feed is a plain loser.
        for n in k.nodes() {
            if n.key.flight != Flight::Main && n.key.round == 1 {
                assert!(n.sources.iter().all(|s| matches!(s, Source::Loser(_))));
            }
        }
        // The favourites win everything: 8, 5, 7, 6 go to the consolation, where 5 and 6
        // win round 1 (seeded there as 8v5, 7v6): 8 and 7 go to the last chance.
        let mut w = BTreeMap::new();
        for (i, win) in [1, 4, 2, 3].into_iter().enumerate() {
            w.insert(key(Flight::Main, 1, i as u32 + 1), EntrantId(win));
        }
        w.insert(key(Flight::Main, 2, 1), EntrantId(1));
        w.insert(key(Flight::Main, 2, 2), EntrantId(2));
        w.insert(key(Flight::Main, 3, 1), EntrantId(1));
        w.insert(key(Flight::Consolation, 1, 1), EntrantId(5));
        w.insert(key(Flight::Consolation, 1, 2), EntrantId(6));
        assert_eq!(
            state(&k, &w, key(Flight::LastChance, 1, 1)).outcome,
            Outcome::Playable([EntrantId(8), EntrantId(7)])
        );
        w.insert(key(Flight::Consolation, 2, 1), EntrantId(6));
        w.insert(key(Flight::LastChance, 1, 1), EntrantId(7));
        assert_eq!(k.champion(Flight::Main, &w), Some(EntrantId(1)));
        assert_eq!(k.champion(Flight::Consolation, &w), Some(EntrantId(6)));
        assert_eq!(k.champion(Flight::LastChance, &w), Some(EntrantId(7)));
    }

    #[test]
    fn five_entrants_walk_over_in_the_second_chances() {
        // Draw of 8: 1vBye 4v5 2vBye 3vBye.
        let k = Knockout::new(&ids(5), Flights::LastChance).unwrap();
        let m = |r, i| key(Flight::Main, r, i);
        let c = |r, i| key(Flight::Consolation, r, i);
        let l11 = key(Flight::LastChance, 1, 1);
        let cons: Vec<_> = k
            .nodes()
            .into_iter()
            .filter(|n| n.key.flight != Flight::Main && n.key.round == 1)
            .map(|n| n.sources)
            .collect();
        assert_eq!(
            cons,
            [
                [Source::FirstLoss(m(1, 1)), Source::Loser(m(1, 2))],
                [Source::FirstLoss(m(1, 3)), Source::FirstLoss(m(1, 4))],
                [Source::FirstLoss(c(1, 1)), Source::FirstLoss(c(1, 2))],
            ]
        );
        let mut w = BTreeMap::new();
        w.insert(m(1, 2), EntrantId(4));
        w.insert(m(2, 1), EntrantId(1));
        w.insert(m(2, 2), EntrantId(3));
        // 5 walks over 1's empty slot; 2 walks over 3's.
        assert_eq!(
            state(&k, &w, c(1, 1)).outcome,
            Outcome::Walkover(EntrantId(5))
        );
        assert_eq!(
            state(&k, &w, c(1, 2)).outcome,
            Outcome::Walkover(EntrantId(2))
        );
        assert_eq!(
            state(&k, &w, c(2, 1)).outcome,
            Outcome::Playable([EntrantId(5), EntrantId(2)])
        );
        // The last chance waits for their first real match.
        assert_eq!(state(&k, &w, l11).outcome, Outcome::Waiting);
        w.insert(c(2, 1), EntrantId(2));
        assert_eq!(
            state(&k, &w, l11).players,
            [Occupant::Known(EntrantId(5)), Occupant::Empty]
        );
        assert_eq!(k.champion(Flight::LastChance, &w), Some(EntrantId(5)));
        assert_eq!(k.champion(Flight::Consolation, &w), Some(EntrantId(2)));
        w.insert(m(3, 1), EntrantId(3));
        assert_eq!(k.champion(Flight::Main, &w), Some(EntrantId(3)));
    }
}
