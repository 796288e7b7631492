//! The standings of a round robin or a Swiss: one row per entrant, from the results.
//!
//! A row counts games and match points, and ranks by these tie-breaks, in order. They are
//! our choice (backgammon has no federation standard); each is there for a reason:
//!
//! 1. **Score**, in half points: 2 a win or a bye, 1 a drawn game (chess). A bye counts as
//!    a win, since the player was ready to play and the draw, not he, left him out; it
//!    gives 0 points for and against. Half points keep every sum an integer.
//! 2. **The direct encounter**, when exactly two players are tied on score and they met:
//!    the one who won more of their games is ahead. It is the fairest split when it
//!    exists; with three or more tied a cycle (A beat B beat C beat A) decides nothing,
//!    so it is used for two only. A double round robin's 1–1 decides nothing either.
//! 3. **Buchholz**: the sum of the opponents' scores (an opponent met twice counts twice),
//!    rewarding the harder schedule, which is what separates equal scores in a Swiss.
//! 4. **Sonneborn–Berger**: the sum of the scores of the opponents beaten, and half the
//!    scores of those drawn with, rewarding results against the strong (in quarter
//!    points: a half of a half point).
//! 5. **Point difference**: match points won minus lost, which rewards winning well.
//! 6. Otherwise the place is **shared** (1, 2, 2, 4), rather than decided by lot here: a
//!    director who needs one winner plays it off or draws lots himself.
//!
//! Rows are ordered by place, then by entrant number. A table is a fold of its games
//! ([`Tally`]): adding the same games and byes in any order gives the same table.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::keys::{EntrantId, MatchKey};

/// A finished match: who played it, who won, and the match points each won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Where it sits in the draw.
    pub key: MatchKey,
    /// The two players.
    pub players: [EntrantId; 2],
    /// The winner, one of `players`; none for a drawn game (chess).
    pub winner: Option<EntrantId>,
    /// The match points each won, in `players`' order.
    pub score: [u32; 2],
}

/// One entrant's line in the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Who.
    pub entrant: EntrantId,
    /// His place from 1, shared on a full tie (1, 2, 2, 4).
    pub place: u32,
    /// Games played (byes not counted).
    pub played: u32,
    /// Games won (byes not counted).
    pub wins: u32,
    /// Games drawn (chess).
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Byes received.
    pub byes: u32,
    /// Score in half points: 2 per win or bye, 1 per draw.
    pub score: u32,
    /// Match points won.
    pub points_for: u64,
    /// Match points lost.
    pub points_against: u64,
    /// The sum of his opponents' scores, in half points.
    pub buchholz: u64,
    /// The scores of the opponents he beat and half those he drew with, in quarter
    /// points.
    pub sonneborn_berger: u64,
    /// Whether his order against the one other player on his score was decided by their
    /// direct encounter (then both rows say so).
    pub head_to_head: bool,
}

/// Why results cannot be tallied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandingsError {
    /// An entrant is listed twice.
    DuplicateEntrant(EntrantId),
    /// A game names a player who is not an entrant.
    UnknownPlayer {
        /// The game.
        key: MatchKey,
        /// The player.
        player: EntrantId,
    },
    /// A bye is given to someone who is not an entrant.
    UnknownBye(EntrantId),
    /// A game names the same player on both sides.
    SelfPlay {
        /// The game.
        key: MatchKey,
        /// The player.
        player: EntrantId,
    },
    /// A game's winner is not one of its players.
    WinnerNotPlaying {
        /// The game.
        key: MatchKey,
        /// The named winner.
        winner: EntrantId,
    },
    /// Two games have the same key.
    DuplicateGame(MatchKey),
}

impl fmt::Display for StandingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandingsError::DuplicateEntrant(id) => {
                write!(f, "{id} is listed twice; each entrant appears once")
            }
            StandingsError::UnknownPlayer { key, player } => write!(
                f,
                "game {key} names {player}, who is not an entrant; a game is between two entrants"
            ),
            StandingsError::UnknownBye(id) => write!(
                f,
                "a bye is given to {id}, who is not an entrant; only an entrant can have a bye"
            ),
            StandingsError::SelfPlay { key, player } => write!(
                f,
                "game {key} names {player} on both sides; a game is between two different entrants"
            ),
            StandingsError::WinnerNotPlaying { key, winner } => write!(
                f,
                "game {key} is won by {winner}, who did not play it; the winner is one of its two players"
            ),
            StandingsError::DuplicateGame(key) => write!(
                f,
                "game {key} is given twice; each match key has one result"
            ),
        }
    }
}

impl std::error::Error for StandingsError {}

/// What one entrant has so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Account {
    byes: u32,
    points_for: u64,
    points_against: u64,
    /// Each game's opponent and what it scored him in half points (2, 1 or 0).
    games: Vec<(EntrantId, u32)>,
}

impl Account {
    fn count(&self, halves: u32) -> u32 {
        self.games.iter().filter(|g| g.1 == halves).count() as u32
    }

    fn wins(&self) -> u32 {
        self.count(2)
    }

    fn score(&self) -> u32 {
        let games: u32 = self.games.iter().map(|g| g.1).sum();
        games + 2 * self.byes
    }
}

/// The results so far, one game or bye at a time; [`Tally::rows`] ranks them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    accounts: BTreeMap<EntrantId, Account>,
    keys: BTreeSet<MatchKey>,
}

impl Tally {
    /// An empty tally for these entrants.
    pub fn new(entrants: &[EntrantId]) -> Result<Tally, StandingsError> {
        let mut accounts = BTreeMap::new();
        for &id in entrants {
            if accounts.insert(id, Account::default()).is_some() {
                return Err(StandingsError::DuplicateEntrant(id));
            }
        }
        Ok(Tally {
            accounts,
            keys: BTreeSet::new(),
        })
    }

    /// Adds a game; a refused game changes nothing.
    pub fn add_game(&mut self, game: &Game) -> Result<(), StandingsError> {
        let [a, b] = game.players;
        let key = game.key;
        for player in [a, b] {
            if !self.accounts.contains_key(&player) {
                return Err(StandingsError::UnknownPlayer { key, player });
            }
        }
        if a == b {
            return Err(StandingsError::SelfPlay { key, player: a });
        }
        if let Some(winner) = game.winner
            && winner != a
            && winner != b
        {
            return Err(StandingsError::WinnerNotPlaying { key, winner });
        }
        if !self.keys.insert(key) {
            return Err(StandingsError::DuplicateGame(key));
        }
        for (me, them, mine, theirs) in [
            (a, b, game.score[0], game.score[1]),
            (b, a, game.score[1], game.score[0]),
        ] {
            let account = self.accounts.get_mut(&me).expect("checked above");
            account.points_for += u64::from(mine);
            account.points_against += u64::from(theirs);
            let halves = match game.winner {
                None => 1,
                Some(w) if w == me => 2,
                Some(_) => 0,
            };
            account.games.push((them, halves));
        }
        Ok(())
    }

    /// Adds one bye received.
    pub fn add_bye(&mut self, entrant: EntrantId) -> Result<(), StandingsError> {
        let account = self
            .accounts
            .get_mut(&entrant)
            .ok_or(StandingsError::UnknownBye(entrant))?;
        account.byes += 1;
        Ok(())
    }

    /// The table: every entrant's row, ranked by the tie-breaks of the
    /// [module doc](self), by place then entrant number.
    pub fn rows(&self) -> Vec<Row> {
        let score = |id: &EntrantId| u64::from(self.accounts[id].score());
        let mut rows: Vec<Row> = self
            .accounts
            .iter()
            .map(|(&entrant, acc)| Row {
                entrant,
                place: 0,
                played: acc.games.len() as u32,
                wins: acc.wins(),
                draws: acc.count(1),
                losses: acc.count(0),
                byes: acc.byes,
                score: acc.score(),
                points_for: acc.points_for,
                points_against: acc.points_against,
                buchholz: acc.games.iter().map(|(them, _)| score(them)).sum(),
                sonneborn_berger: acc
                    .games
                    .iter()
                    .map(|&(them, halves)| u64::from(halves) * score(&them))
                    .sum(),
                head_to_head: false,
            })
            .collect();

        // The direct encounter, for a score shared by exactly two who met.
        let mut by_score: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (i, row) in rows.iter().enumerate() {
            by_score.entry(row.score).or_default().push(i);
        }
        let mut behind = vec![false; rows.len()]; // lost the direct encounter
        for group in by_score.values() {
            let &[i, j] = group.as_slice() else { continue };
            let beat = |x: usize, y: usize| {
                let them = rows[y].entrant;
                self.accounts[&rows[x].entrant]
                    .games
                    .iter()
                    .filter(|&&(o, halves)| o == them && halves == 2)
                    .count()
            };
            let (ij, ji) = (beat(i, j), beat(j, i));
            if ij != ji {
                behind[if ij > ji { j } else { i }] = true;
                rows[i].head_to_head = true;
                rows[j].head_to_head = true;
            }
        }

        let rank = |i: usize| {
            let r = &rows[i];
            let difference = r.points_for as i128 - r.points_against as i128;
            (
                Reverse(r.score),
                behind[i],
                Reverse(r.buchholz),
                Reverse(r.sonneborn_berger),
                Reverse(difference),
            )
        };
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by_key(|&i| (rank(i), rows[i].entrant));
        let mut places = vec![0; rows.len()];
        for (n, &i) in order.iter().enumerate() {
            places[i] = match n {
                0 => 1,
                _ if rank(order[n - 1]) == rank(i) => places[order[n - 1]],
                _ => n as u32 + 1,
            };
        }
        let mut ranked: Vec<Row> = order
            .into_iter()
            .map(|i| Row {
                place: places[i],
                ..rows[i].clone()
            })
            .collect();
        ranked.sort_by_key(|r| (r.place, r.entrant));
        ranked
    }
}

/// The table of `entrants` from `games` and `byes` (one entry per bye received): the fold
/// of [`Tally`] over them.
pub fn table(
    entrants: &[EntrantId],
    games: &[Game],
    byes: &[EntrantId],
) -> Result<Vec<Row>, StandingsError> {
    let mut tally = Tally::new(entrants)?;
    for game in games {
        tally.add_game(game)?;
    }
    for &entrant in byes {
        tally.add_bye(entrant)?;
    }
    Ok(tally.rows())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn ids(v: &[u32]) -> Vec<EntrantId> {
        v.iter().map(|&i| EntrantId(i)).collect()
    }

    fn game(key: &str, a: u32, b: u32, winner: u32, score: [u32; 2]) -> Game {
        Game {
            key: MatchKey::parse(key).unwrap(),
            players: [EntrantId(a), EntrantId(b)],
            winner: Some(EntrantId(winner)),
            score,
        }
    }

    /// (entrant, place, score, buchholz, sonneborn_berger, points_for, points_against, h2h),
    /// the scores in whole points as worked by hand (a row keeps halves and quarters).
    type Line = (u32, u32, u32, u64, u64, u64, u64, bool);

    fn lines(rows: &[Row]) -> Vec<Line> {
        rows.iter()
            .map(|r| {
                (
                    r.entrant.0,
                    r.place,
                    r.score / 2,
                    r.buchholz / 2,
                    r.sonneborn_berger / 4,
                    r.points_for,
                    r.points_against,
                    r.head_to_head,
                )
            })
            .collect()
    }

    /// Five players, two Swiss rounds, matches to 5:
    ///
    /// ```text
    /// round 1: #1 beats #2 5-3, #3 beats #4 5-4, #5 has the bye
    /// round 2: #3 beats #1 5-2, #5 beats #2 5-0, #4 has the bye
    ///
    ///      score  opponents (their score)  Buchholz  SB  for-against
    /// #1   1      #2 (0), #3 (2)           2         0   7-8
    /// #2   0      #1 (1), #5 (2)           3         0   3-10
    /// #3   2      #4 (1), #1 (1)           2         2   10-6
    /// #4   1      #3 (2)       + bye       2         0   4-5
    /// #5   2      #2 (0)       + bye       0         0   5-0
    /// ```
    ///
    /// #3 and #5 share 2 and did not meet: Buchholz 2 to 0 puts #3 first. #1 and #4 share
    /// 1 and did not meet, and tie on Buchholz (2), Sonneborn–Berger (0) and difference
    /// (-1): they share third. #2 is fifth.
    #[test]
    fn a_swiss_worked_by_hand() {
        let games = [
            game("M1-1", 1, 2, 1, [5, 3]),
            game("M1-2", 3, 4, 3, [5, 4]),
            game("M2-1", 1, 3, 3, [2, 5]),
            game("M2-2", 5, 2, 5, [5, 0]),
        ];
        let rows = table(&ids(&[1, 2, 3, 4, 5]), &games, &ids(&[5, 4])).unwrap();
        assert_eq!(
            lines(&rows),
            vec![
                (3, 1, 2, 2, 2, 10, 6, false),
                (5, 2, 2, 0, 0, 5, 0, false),
                (1, 3, 1, 2, 0, 7, 8, false),
                (4, 3, 1, 2, 0, 4, 5, false),
                (2, 5, 0, 3, 0, 3, 10, false),
            ]
        );
        let four = &rows[3];
        assert_eq!(
            (four.played, four.wins, four.losses, four.byes),
            (1, 0, 1, 1)
        );
    }

    /// Four players, a round robin (the Berger table for 4), matches to 5:
    ///
    /// ```text
    /// #1 beats #4 5-2   #2 beats #3 5-3
    /// #3 beats #4 5-1   #2 beats #1 5-4
    /// #4 beats #2 5-3   #1 beats #3 5-2
    ///
    ///      score  Buchholz          SB              for-against
    /// #1   2      1+2+1 = 4         #4 1 + #3 1 = 2  14-9
    /// #2   2      1+2+1 = 4         #3 1 + #1 2 = 3  13-12
    /// #3   1      2+1+2 = 5         #4 1 = 1         10-11
    /// #4   1      2+1+2 = 5         #2 2 = 2         8-13
    /// ```
    ///
    /// #1 and #2 share 2 and met: #2 won, so #2 is first. #3 and #4 share 1 and met: #3
    /// won, so #3 is third although #4's Sonneborn–Berger is higher.
    #[test]
    fn a_round_robin_decided_by_direct_encounters() {
        let games = [
            game("M1-1", 1, 4, 1, [5, 2]),
            game("M1-2", 2, 3, 2, [5, 3]),
            game("M2-1", 4, 3, 3, [1, 5]),
            game("M2-2", 1, 2, 2, [4, 5]),
            game("M3-1", 2, 4, 4, [3, 5]),
            game("M3-2", 3, 1, 1, [2, 5]),
        ];
        let rows = table(&ids(&[1, 2, 3, 4]), &games, &[]).unwrap();
        assert_eq!(
            lines(&rows),
            vec![
                (2, 1, 2, 4, 3, 13, 12, true),
                (1, 2, 2, 4, 2, 14, 9, true),
                (3, 3, 1, 5, 1, 10, 11, true),
                (4, 4, 1, 5, 2, 8, 13, true),
            ]
        );
    }

    /// #1 and #2 beat each other once; #3 beat #1 and #4; #4 beat #2. #1, #2 and #4 are
    /// all on 1, so no direct encounter counts: Buchholz puts #1 (met #2, #2, #3: 1+1+2 = 4)
    /// ahead of #2 (#1, #1, #4: 3) and #4 (#2, #3: 3); their Sonneborn–Berger is 1 each
    /// (#2 beat #1, #4 beat #2), and the difference, #4's 5-5 to #2's 5-10, ends it.
    #[test]
    fn three_tied_on_score_skip_the_direct_encounter() {
        let games = [
            game("M1-1", 1, 2, 1, [5, 0]),
            game("M2-1", 2, 1, 2, [5, 0]),
            game("M3-1", 1, 3, 3, [0, 5]),
            game("M3-2", 2, 4, 4, [0, 5]),
            game("M4-1", 3, 4, 3, [5, 0]),
        ];
        let rows = table(&ids(&[1, 2, 3, 4]), &games, &[]).unwrap();
        let one = rows.iter().find(|r| r.entrant == EntrantId(1)).unwrap();
        let two = rows.iter().find(|r| r.entrant == EntrantId(2)).unwrap();
        assert_eq!(
            (one.score, two.score),
            (2, 2),
            "one win each, in half points"
        );
        assert!(rows.iter().all(|r| !r.head_to_head));
        let order: Vec<(u32, u32)> = rows.iter().map(|r| (r.entrant.0, r.place)).collect();
        assert_eq!(order, vec![(3, 1), (1, 2), (4, 3), (2, 4)]);
    }

    /// A drawn chess game scores each player a half point (1 in halves); Sonneborn–Berger
    /// counts half the drawn opponent's score.
    #[test]
    fn a_drawn_game_scores_half_a_point_each() {
        let mut drawn = game("M1-1", 1, 2, 1, [1, 1]);
        drawn.winner = None;
        let games = [drawn, game("M2-1", 1, 3, 1, [2, 0])];
        let rows = table(&ids(&[1, 2, 3]), &games, &[]).unwrap();
        let row = |e: u32| rows.iter().find(|r| r.entrant == EntrantId(e)).unwrap();
        assert_eq!((row(1).score, row(1).wins, row(1).draws), (3, 1, 1));
        assert_eq!((row(2).score, row(2).draws, row(2).losses), (1, 1, 0));
        // #1: #2 (1 half point) drawn counts 1 × 1, #3 (0) beaten counts 2 × 0.
        assert_eq!(row(1).sonneborn_berger, 1);
        assert_eq!(row(1).place, 1);
    }

    #[test]
    fn a_double_encounter_split_between_two_decides_nothing() {
        let games = [game("M1-1", 1, 2, 1, [5, 3]), game("M2-1", 2, 1, 2, [5, 1])];
        let rows = table(&ids(&[1, 2]), &games, &[]).unwrap();
        assert!(rows.iter().all(|r| !r.head_to_head && r.score == 2));
        // Equal Buchholz (2) and SB (1): #2's difference 8-6 beats #1's 6-8.
        assert_eq!(rows[0].entrant, EntrantId(2));
        assert_eq!((rows[0].place, rows[1].place), (1, 2));
    }

    #[test]
    fn bad_results_say_what_is_wanted() {
        let g = game("M1-1", 1, 2, 3, [5, 0]);
        let err = table(&ids(&[1, 2, 3]), &[g], &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "game M1-1 is won by #3, who did not play it; the winner is one of its two players"
        );
        let g = game("M1-1", 1, 9, 1, [5, 0]);
        let err = table(&ids(&[1, 2]), &[g], &[]).unwrap_err();
        assert_eq!(
            err,
            StandingsError::UnknownPlayer {
                key: MatchKey::main(1, 1),
                player: EntrantId(9)
            }
        );
        let g = game("M1-1", 1, 1, 1, [5, 0]);
        let err = table(&ids(&[1, 2]), &[g], &[]).unwrap_err();
        assert!(matches!(err, StandingsError::SelfPlay { .. }));
        let g = game("M1-1", 1, 2, 1, [5, 0]);
        let err = table(&ids(&[1, 2]), &[g.clone(), g], &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "game M1-1 is given twice; each match key has one result"
        );
        let err = table(&ids(&[1, 2, 1]), &[], &[]).unwrap_err();
        assert_eq!(err, StandingsError::DuplicateEntrant(EntrantId(1)));
        let err = table(&ids(&[1, 2]), &[], &ids(&[7])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a bye is given to #7, who is not an entrant; only an entrant can have a bye"
        );
        // A refused game leaves the tally as it was.
        let mut tally = Tally::new(&ids(&[1, 2])).unwrap();
        let before = tally.clone();
        assert!(tally.add_game(&game("M1-1", 1, 2, 5, [5, 0])).is_err());
        assert_eq!(tally, before);
    }

    /// A random game: first player, offset to the second, whether the first won, scores.
    type RawGame = (u32, u32, bool, u32, u32);

    /// Random results among up to 8 entrants: games between two distinct entrants with
    /// any winner and scores, byes to anyone, and a seed to shuffle the order of adding.
    fn results() -> impl Strategy<Value = (u32, Vec<RawGame>, Vec<u32>, u64)> {
        (2u32..=8).prop_flat_map(|n| {
            (
                Just(n),
                prop::collection::vec((1..=n, 1..n, any::<bool>(), 0u32..=11, 0u32..=11), 0..30),
                prop::collection::vec(1..=n, 0..6),
                any::<u64>(),
            )
        })
    }

    fn build(games: &[RawGame], n: u32) -> Vec<Game> {
        games
            .iter()
            .enumerate()
            .map(|(i, &(a, off, first_wins, sa, sb))| {
                let b = (a - 1 + off) % n + 1; // distinct from a
                Game {
                    key: MatchKey::main(i as u32 + 1, 1),
                    players: [EntrantId(a), EntrantId(b)],
                    winner: Some(EntrantId(if first_wins { a } else { b })),
                    score: [sa, sb],
                }
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn the_table_is_the_fold_of_its_results((n, raw, byes, seed) in results()) {
            let entrants: Vec<EntrantId> = (1..=n).rev().map(EntrantId).collect();
            let games = build(&raw, n);
            let byes = ids(&byes);
            let whole = table(&entrants, &games, &byes).unwrap();

            // Games and byes one at a time, interleaved in a shuffled order.
            let mut steps: Vec<Result<&Game, EntrantId>> =
                games.iter().map(Ok).chain(byes.iter().copied().map(Err)).collect();
            let mut s = seed | 1;
            for i in (1..steps.len()).rev() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                steps.swap(i, (s % (i as u64 + 1)) as usize);
            }
            let mut tally = Tally::new(&entrants).unwrap();
            for step in steps {
                match step {
                    Ok(g) => tally.add_game(g).unwrap(),
                    Err(b) => tally.add_bye(b).unwrap(),
                }
            }
            prop_assert_eq!(&tally.rows(), &whole);

            let sum = |f: fn(&Row) -> u64| whole.iter().map(f).sum::<u64>();
            prop_assert_eq!(sum(|r| r.wins.into()), games.len() as u64);
            prop_assert_eq!(sum(|r| r.losses.into()), games.len() as u64);
            prop_assert_eq!(sum(|r| r.score.into()), 2 * (games.len() + byes.len()) as u64);
            prop_assert_eq!(sum(|r| r.played.into()), 2 * games.len() as u64);
            prop_assert_eq!(sum(|r| r.points_for), sum(|r| r.points_against));
            prop_assert_eq!(whole.len(), n as usize);

            // Places: from 1, never down the table, a shared place skips the next ones.
            for (i, r) in whole.iter().enumerate() {
                let ahead = whole.iter().filter(|o| o.place < r.place).count();
                prop_assert_eq!(r.place as usize, ahead + 1);
                if i > 0 {
                    let prev = &whole[i - 1];
                    prop_assert!((prev.place, prev.entrant) < (r.place, r.entrant));
                    prop_assert!(prev.score >= r.score);
                }
            }
        }
    }
}
