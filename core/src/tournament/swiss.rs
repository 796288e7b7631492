//! A Swiss round for backgammon: who plays whom next, from the standings.
//!
//! In a Swiss everyone plays every round, but not everyone: each round pairs players of
//! like score who have not met yet, so a field too large for a round robin still sorts
//! itself out in a few rounds. Backgammon has no colours to balance, so the rules are
//! only about scores, rematches and the bye:
//!
//! 1. **The bye.** With an odd number of players one sits out and scores a win. It goes to
//!    the lowest-ranked player who has not had a bye yet, so no one gets a second bye while
//!    another has none (when everyone has had one, to the lowest-ranked of all). A player
//!    is passed over only when giving him the bye would force more rematches on the others
//!    than giving it to the next eligible player up.
//! 2. **Top down.** The highest-ranked unpaired player meets the next highest he has not
//!    played. Since the caller ranks by score first, he stays within his score group as
//!    long as it has someone he has not met, and otherwise meets the nearest group below.
//! 3. **No rematch while one can be avoided.** A choice that would leave the rest of the
//!    field unpairable without a rematch is skipped for the next in rank order: the result
//!    is the first rematch-free pairing a depth-first search over the choices in rank order
//!    finds.
//! 4. **When rematches cannot be avoided**, as few as possible are made (the same top-down
//!    order among pairings with that few), and [`SwissRound::rematches`] says how many.
//!
//! The search never actually backtracks: before keeping a choice it asks whether the rest
//! can still be paired with as few rematches as the whole could (a maximum matching of the
//! "have not met" graph, Edmonds' blossom algorithm), so a round is found in polynomial
//! time even when no rematch-free pairing exists. Same input, same round.

use std::collections::{BTreeSet, VecDeque};
use std::fmt;

use super::keys::EntrantId;

/// One Swiss round's draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissRound {
    /// The matches in board order, each `(higher-ranked, lower-ranked)`.
    pub pairs: Vec<(EntrantId, EntrantId)>,
    /// Who sits out and scores a win, when the field is odd.
    pub bye: Option<EntrantId>,
    /// How many of `pairs` are rematches: 0 unless no rematch-free pairing exists, and
    /// then the fewest possible.
    pub rematches: usize,
}

/// Why a round cannot be paired from what was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwissError {
    /// Fewer than two players.
    TooFew {
        /// How many there were.
        count: usize,
    },
    /// A player is listed twice in the ranking.
    Duplicate(EntrantId),
    /// A played pair is not stored with the smaller id first.
    PlayedOrder {
        /// The pair's first id.
        first: EntrantId,
        /// The pair's second id.
        second: EntrantId,
    },
    /// A played pair names one player twice.
    PlayedSelf(EntrantId),
}

impl fmt::Display for SwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwissError::TooFew { count } => write!(
                f,
                "a Swiss round needs at least 2 players in the ranking, not {count}"
            ),
            SwissError::Duplicate(id) => write!(
                f,
                "{id} is ranked twice; each player appears once in the ranking"
            ),
            SwissError::PlayedOrder { first, second } => write!(
                f,
                "the played pair ({first}, {second}) must be stored with the smaller id first: ({second}, {first})"
            ),
            SwissError::PlayedSelf(id) => write!(
                f,
                "the played pair ({id}, {id}) names one player twice; a pair names two different players"
            ),
        }
    }
}

impl std::error::Error for SwissError {}

/// Pairs the next round. `ranked` is the field in standing order, best first (the caller
/// sorts by score, then tie-breaks, then draw order); `played` holds every pair that has
/// met, smaller id first (pairs naming players not in `ranked` are ignored); `had_bye`
/// those who have had a bye. The rules are in the [module doc](self).
pub fn pair_round(
    ranked: &[EntrantId],
    played: &BTreeSet<(EntrantId, EntrantId)>,
    had_bye: &BTreeSet<EntrantId>,
) -> Result<SwissRound, SwissError> {
    check_field(ranked, played)?;
    let n = ranked.len();
    // fresh[i][j]: the players ranked i and j have not met.
    let fresh: Vec<Vec<bool>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let (a, b) = (ranked[i].min(ranked[j]), ranked[i].max(ranked[j]));
                    i != j && !played.contains(&(a, b))
                })
                .collect()
        })
        .collect();

    let mut field = Matching::new(&fresh);
    let mut bye = None;
    if n % 2 == 1 {
        let (i, rest) = sit_out(&field, ranked, had_bye);
        bye = Some(ranked[i]);
        field = rest;
    } else {
        field.maximise();
    }
    let (pairs, rematches) = pair_top_down(field, &fresh, ranked);
    Ok(SwissRound {
        pairs,
        bye,
        rematches,
    })
}

/// The input is a field: two players at least, each once, and the pairs that met
/// written smaller id first, no one against himself.
fn check_field(
    ranked: &[EntrantId],
    played: &BTreeSet<(EntrantId, EntrantId)>,
) -> Result<(), SwissError> {
    if ranked.len() < 2 {
        return Err(SwissError::TooFew {
            count: ranked.len(),
        });
    }
    let mut seen = BTreeSet::new();
    for &id in ranked {
        if !seen.insert(id) {
            return Err(SwissError::Duplicate(id));
        }
    }
    for &(first, second) in played {
        if first == second {
            return Err(SwissError::PlayedSelf(first));
        }
        if first > second {
            return Err(SwissError::PlayedOrder { first, second });
        }
    }
    Ok(())
}

/// Who sits out an odd field: the lowest-ranked who has not had a bye (anyone, if all
/// have), passed over only for fewer rematches. Returns his rank and the maximum
/// matching of the rest.
fn sit_out<'a>(
    field: &Matching<'a>,
    ranked: &[EntrantId],
    had_bye: &BTreeSet<EntrantId>,
) -> (usize, Matching<'a>) {
    let n = ranked.len();
    let eligible: Vec<usize> = {
        let never: Vec<usize> = (0..n)
            .rev()
            .filter(|&i| !had_bye.contains(&ranked[i]))
            .collect();
        if never.is_empty() {
            (0..n).rev().collect()
        } else {
            never
        }
    };
    let mut best: Option<(usize, Matching)> = None;
    for &i in &eligible {
        let mut rest = field.clone();
        rest.remove(i);
        rest.maximise();
        let better = best.as_ref().is_none_or(|(_, b)| rest.size() > b.size());
        if better {
            let perfect = rest.size() == (n - 1) / 2;
            best = Some((i, rest));
            if perfect {
                break;
            }
        }
    }
    best.expect("an odd field of at least 3 has someone to sit out")
}

/// Pairs the field top down, keeping at each step a choice after which the rest still
/// reaches the most fresh pairs the whole could. Returns the pairs and how many are
/// rematches.
fn pair_top_down(
    mut field: Matching<'_>,
    fresh: &[Vec<bool>],
    ranked: &[EntrantId],
) -> (Vec<(EntrantId, EntrantId)>, usize) {
    let n = ranked.len();
    let mut target = field.size();
    let mut pairs = Vec::with_capacity(n / 2);
    let mut rematches = 0;
    while let Some(p) = (0..n).find(|&i| field.active[i]) {
        let others = || (p + 1..n).filter(|&q| field.active[q]);
        let fresh_choice = others().filter(|&q| fresh[p][q]).find_map(|q| {
            let rest = field.without(p, q);
            (rest.size() + 1 == target).then_some((q, rest))
        });
        let (q, rest) = match fresh_choice {
            Some(choice) => {
                target -= 1;
                choice
            }
            None => {
                rematches += 1;
                others()
                    .find_map(|q| {
                        let rest = field.without(p, q);
                        (rest.size() == target).then_some((q, rest))
                    })
                    .expect(
                        "a player left out of every maximum matching has a partner left out too",
                    )
            }
        };
        pairs.push((ranked[p], ranked[q]));
        field = rest;
    }
    (pairs, rematches)
}

/// A matching of the "have not met" graph over the players still to pair (indices are
/// ranks), grown to maximum by Edmonds' blossom algorithm.
#[derive(Clone)]
struct Matching<'a> {
    fresh: &'a [Vec<bool>],
    active: Vec<bool>,
    mate: Vec<Option<usize>>,
}

impl<'a> Matching<'a> {
    fn new(fresh: &'a [Vec<bool>]) -> Matching<'a> {
        Matching {
            fresh,
            active: vec![true; fresh.len()],
            mate: vec![None; fresh.len()],
        }
    }

    /// How many pairs it holds.
    fn size(&self) -> usize {
        self.mate.iter().filter(|m| m.is_some()).count() / 2
    }

    /// Takes a player out (his partner, if any, becomes free).
    fn remove(&mut self, v: usize) {
        if let Some(u) = self.mate[v].take() {
            self.mate[u] = None;
        }
        self.active[v] = false;
    }

    /// The maximum matching of the rest once `p` and `q` are taken out.
    fn without(&self, p: usize, q: usize) -> Matching<'a> {
        let mut rest = self.clone();
        rest.remove(p);
        rest.remove(q);
        rest.maximise();
        rest
    }

    /// Grows the matching to a maximum one: one search from each free player suffices,
    /// since a player with no augmenting path has none after later augmentations either.
    fn maximise(&mut self) {
        for v in 0..self.mate.len() {
            if self.active[v] && self.mate[v].is_none() {
                self.augment_from(v);
            }
        }
    }

    /// Searches an alternating tree from `root` (contracting odd cycles into their base)
    /// and, on reaching a free player, flips the path. Whether it found one.
    fn augment_from(&mut self, root: usize) -> bool {
        let n = self.mate.len();
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut base: Vec<usize> = (0..n).collect();
        let mut queued = vec![false; n];
        let mut queue = VecDeque::from([root]);
        queued[root] = true;
        while let Some(v) = queue.pop_front() {
            for to in 0..n {
                if !self.active[to]
                    || !self.fresh[v][to]
                    || base[v] == base[to]
                    || self.mate[v] == Some(to)
                {
                    continue;
                }
                let closes_cycle = to == root || self.mate[to].is_some_and(|m| parent[m].is_some());
                if closes_cycle {
                    let top = self.common_base(v, to, &parent, &base);
                    let mut in_blossom = vec![false; n];
                    self.mark(v, top, to, &mut parent, &base, &mut in_blossom);
                    self.mark(to, top, v, &mut parent, &base, &mut in_blossom);
                    for i in 0..n {
                        if in_blossom[base[i]] {
                            base[i] = top;
                            if !queued[i] {
                                queued[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to].is_none() {
                    parent[to] = Some(v);
                    match self.mate[to] {
                        None => {
                            self.flip(to, &parent);
                            return true;
                        }
                        Some(m) => {
                            queued[m] = true;
                            queue.push_back(m);
                        }
                    }
                }
            }
        }
        false
    }

    /// The base where the tree paths from `a` and `b` to the root first meet.
    fn common_base(&self, a: usize, b: usize, parent: &[Option<usize>], base: &[usize]) -> usize {
        let mut on_path = vec![false; self.mate.len()];
        let mut a = a;
        loop {
            a = base[a];
            on_path[a] = true;
            match self.mate[a] {
                None => break,
                Some(m) => a = parent[m].expect("a matched tree vertex's mate has a parent"),
            }
        }
        let mut b = b;
        loop {
            b = base[b];
            if on_path[b] {
                return b;
            }
            let m = self.mate[b].expect("below the root every even vertex is matched");
            b = parent[m].expect("a matched tree vertex's mate has a parent");
        }
    }

    /// Marks the blossom's vertices from `v` down to base `top`, pointing parents round
    /// the cycle so a later path can pass through it.
    fn mark(
        &self,
        mut v: usize,
        top: usize,
        mut child: usize,
        parent: &mut [Option<usize>],
        base: &[usize],
        in_blossom: &mut [bool],
    ) {
        while base[v] != top {
            let m = self.mate[v].expect("a blossom vertex above its base is matched");
            in_blossom[base[v]] = true;
            in_blossom[base[m]] = true;
            parent[v] = Some(child);
            child = m;
            v = parent[m].expect("a matched tree vertex's mate has a parent");
        }
    }

    /// Flips the augmenting path ending at the free player `end`.
    fn flip(&mut self, end: usize, parent: &[Option<usize>]) {
        let mut v = Some(end);
        while let Some(x) = v {
            let px = parent[x].expect("the path's odd vertices have parents");
            let next = self.mate[px];
            self.mate[x] = Some(px);
            self.mate[px] = Some(x);
            v = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[u32]) -> Vec<EntrantId> {
        v.iter().map(|&i| EntrantId(i)).collect()
    }

    fn met(pairs: &[(u32, u32)]) -> BTreeSet<(EntrantId, EntrantId)> {
        pairs
            .iter()
            .map(|&(a, b)| (EntrantId(a.min(b)), EntrantId(a.max(b))))
            .collect()
    }

    fn e(a: u32, b: u32) -> (EntrantId, EntrantId) {
        (EntrantId(a), EntrantId(b))
    }

    #[test]
    fn first_round_pairs_top_down() {
        let r = pair_round(&ids(&[1, 2, 3, 4]), &met(&[]), &BTreeSet::new()).unwrap();
        assert_eq!(r.pairs, vec![e(1, 2), e(3, 4)]);
        assert_eq!((r.bye, r.rematches), (None, 0));
    }

    #[test]
    fn the_top_skips_a_choice_that_would_force_a_rematch() {
        // 1 has met 2, and 2 has met 4, 5 and 6: 1-3 would leave 2 no one new to meet.
        let played = met(&[(1, 2), (2, 4), (2, 5), (2, 6)]);
        let r = pair_round(&ids(&[1, 2, 3, 4, 5, 6]), &played, &BTreeSet::new()).unwrap();
        // 2 can only meet 3 (1 already met him), so 1 passes over 3 for 4.
        assert_eq!(r.pairs, vec![e(1, 4), e(2, 3), e(5, 6)]);
        assert_eq!(r.rematches, 0);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_without_one() {
        let byes = [EntrantId(5)].into();
        let r = pair_round(&ids(&[1, 2, 3, 4, 5]), &met(&[]), &byes).unwrap();
        assert_eq!(r.bye, Some(EntrantId(4)));
        assert_eq!(r.pairs, vec![e(1, 2), e(3, 5)]);
        let all: BTreeSet<_> = ids(&[1, 2, 3]).into_iter().collect();
        let r = pair_round(&ids(&[1, 2, 3]), &met(&[]), &all).unwrap();
        assert_eq!(r.bye, Some(EntrantId(3)), "all had one: the lowest again");
    }

    #[test]
    fn rematches_only_when_forced_and_counted() {
        // Two players who have met: they must meet again.
        let r = pair_round(&ids(&[2, 1]), &met(&[(1, 2)]), &BTreeSet::new()).unwrap();
        assert_eq!((r.pairs, r.rematches), (vec![e(2, 1)], 1));
        // Four players after a full round robin: two rematches, top down.
        let all = met(&[(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]);
        let r = pair_round(&ids(&[1, 2, 3, 4]), &all, &BTreeSet::new()).unwrap();
        assert_eq!((r.pairs, r.rematches), (vec![e(1, 2), e(3, 4)], 2));
        // Only 1-2 and 3-4 have met: one rematch can be avoided entirely.
        let r = pair_round(
            &ids(&[1, 2, 3, 4]),
            &met(&[(1, 2), (3, 4)]),
            &BTreeSet::new(),
        );
        assert_eq!(r.unwrap().pairs, vec![e(1, 3), e(2, 4)]);
    }

    #[test]
    fn bad_input_says_what_is_wanted() {
        let none = BTreeSet::new();
        let err = pair_round(&ids(&[1]), &none, &BTreeSet::new());
        assert_eq!(err, Err(SwissError::TooFew { count: 1 }));
        let err = pair_round(&ids(&[1, 2, 1]), &none, &BTreeSet::new()).unwrap_err();
        assert_eq!(err, SwissError::Duplicate(EntrantId(1)));
        assert_eq!(
            err.to_string(),
            "#1 is ranked twice; each player appears once in the ranking"
        );
        let back = [e(3, 1)].into();
        let err = pair_round(&ids(&[1, 3]), &back, &BTreeSet::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the played pair (#3, #1) must be stored with the smaller id first: (#1, #3)"
        );
        let me = [e(2, 2)].into();
        let err = pair_round(&ids(&[1, 2]), &me, &BTreeSet::new()).unwrap_err();
        assert_eq!(err, SwissError::PlayedSelf(EntrantId(2)));
    }
}
