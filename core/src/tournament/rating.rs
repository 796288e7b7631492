//! Rating changes when a result is confirmed: FIBS for backgammon matches, FIDE's Elo for
//! chess games. Pure and deterministic: the same inputs give the same change on every
//! platform, so a log replays to the same ratings everywhere.
//!
//! # Units: hundredths of a point
//!
//! A [`Rating`] (and a change of one) is kept as a whole number of hundredths of a point
//! in an `i64`: FIBS shows ratings with two decimals (1523.47), and FIDE's whole points
//! are simply multiples of 100. Whole numbers add up exactly however long the log; only
//! the change of one result is ever computed in floating point, and it is rounded to
//! hundredths (half away from zero) before anything keeps it.
//!
//! # Why `libm`
//!
//! The FIBS formula needs a power and a square root. The platform's `powf` may differ in
//! the last bit from one C library or CPU to another, and a last bit can decide a
//! rounding to hundredths; `libm` is a pure Rust implementation, so [`libm::pow`] and
//! [`libm::sqrt`] give the same bits everywhere (and the remaining operations are single
//! IEEE 754 operations, which Rust never fuses). FIDE's Elo needs no floating point at
//! all: its expectancy table is in hundredths, so its change is exact integer arithmetic.
//!
//! # FIBS (backgammon), [`fibs`]
//!
//! As FIBS's own `help formula` gives it (reproduced in the rec.games.backgammon FAQ,
//! <https://stason.org/TULARC/games/backgammon/14-FIBS-RATINGS-First-Internet-Backgammon-Server.html>,
//! and by Patti Beadles quoting the server, <http://www.bkgm.com/rgb/rgb.cgi?view+1093>),
//! for an `n`-point match:
//!
//! - `D = |r1 - r2|`, the rating difference;
//! - `P_upset = 1 / (10^(D·√n / 2000) + 1)`, the underdog's chance of winning;
//! - `P = P_upset` if the favourite won, `1 - P_upset` if the underdog won;
//! - for each player, `K = max(1, 5 - experience / 100)` and the change is `4·K·√n·P`,
//!   gained by the winner, lost by the loser.
//!
//! A player's experience is the sum of the lengths of the matches he has finished (0 for
//! a new player, who starts at 1500); only his own experience scales his own change. The
//! help text does not say whether `experience / 100` is an integer division; MacFIBS's
//! help (<http://fibs.com/macfibs/help/glossary/pages/Ratings.html>) says the factor is
//! "very close to 5.0" for a new player, which only a real division gives, so it is a
//! real division here (50 experience: 4.5). That help also writes the factor as
//! `max(1, 5 - (experience + n) / 100)`, counting the match being rated; the server's own
//! text does not, and neither does this function: a caller who wants MacFIBS's variant
//! passes `experience + length`. Unlimited matches are not rated by FIBS; here a length
//! of 0 is refused, as is one above the longest match baffle accepts,
//! [`crate::backgammon::setup::MAX_LENGTH`].
//!
//! # FIDE Elo (chess), [`elo`]
//!
//! FIDE Rating Regulations (section 8.3 of the edition in force since 1 March 2024,
//! quoted at <https://www.chatillon-echecs.fr/outils/elo>; earlier editions number the
//! section differently): for each game,
//! `D` is the difference between the player's and the opponent's ratings, counted as 400
//! when it is more; the player's expected score `PD` is read from the regulations' table
//! (8.1b, now 8.1.2); the change is `K · (score - PD)` with a score of 1, ½ or 0. FIDE
//! rounds the change of a whole rating period to whole points; a single game's change is
//! returned here exact, in hundredths, for the caller to sum and round (FIDE's rounding
//! is also half away from zero).
//!
//! This module implements FIDE's table, not the logistic `1 / (1 + 10^(-D/400))`: the
//! table, from Elo's normal-curve model, differs from the logistic by up to about a
//! hundredth in the tails (at `D = 400` the logistic gives 0.909, the table 0.92). The
//! table's bands were checked against its reproductions at
//! <https://chess.stackexchange.com/questions/19653> and
//! <https://scribd.com/document/477325658/FIDE-rating>. A difference is rounded to whole
//! points (half away from zero) before the lookup, since the table is in whole points.
//!
//! `K` comes from the caller; [`fide_k`] gives FIDE's rule from a player's rating, games
//! and whether he has ever reached 2400.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::backgammon::setup::MAX_LENGTH;

/// A rating, or a change of one, in hundredths of a point: `Rating(152347)` is 1523.47.
/// Shown with two decimals, `1523.47`, `-18.40`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Rating(pub i64);

impl Rating {
    /// FIBS's starting rating, 1500.00.
    pub const FIBS_START: Rating = Rating(150_000);

    /// The highest rating a registration may carry, 10000.00: far above any list's
    /// best, so every sum of ratings and changes stays far from the integer's ends.
    pub const MAX: Rating = Rating(1_000_000);

    /// A rating of whole points (as FIDE publishes them): `Rating::points(2400)` is
    /// 2400.00. Saturates instead of wrapping for absurd values.
    pub const fn points(points: i64) -> Rating {
        Rating(points.saturating_mul(100))
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

/// What a rating change cannot be computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatingError {
    /// A backgammon match length outside 1 to [`MAX_LENGTH`] points.
    Length(u32),
    /// An Elo development coefficient outside 1 to [`MAX_K`].
    K(u32),
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingError::Length(0) => write!(
                f,
                "an unlimited (0-point) match is not rated: a rated match is 1 to {MAX_LENGTH} points"
            ),
            RatingError::Length(length) => write!(
                f,
                "a {length}-point match cannot be rated: a rated match is 1 to {MAX_LENGTH} points"
            ),
            RatingError::K(k) => write!(
                f,
                "K = {k} cannot be used: the development coefficient is 1 to {MAX_K}"
            ),
        }
    }
}

impl std::error::Error for RatingError {}

/// What a FIBS-rated match does to its players' ratings: the winner adds `winner_gain`,
/// the loser subtracts `loser_loss` (both at least 0). They differ when the players'
/// experience factors do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FibsChange {
    /// What the winner gains.
    pub winner_gain: Rating,
    /// What the loser loses.
    pub loser_loss: Rating,
}

/// The FIBS rating change of a `length`-point match won by a player rated `winner` with
/// `winner_experience` (the sum of the lengths of the matches he finished before this
/// one) against one rated `loser` with `loser_experience`. See the module's doc for the
/// formula and its sources. Refuses a length of 0 (unlimited) or above [`MAX_LENGTH`].
pub fn fibs(
    winner: Rating,
    loser: Rating,
    length: u32,
    winner_experience: u32,
    loser_experience: u32,
) -> Result<FibsChange, RatingError> {
    if length == 0 || length > MAX_LENGTH {
        return Err(RatingError::Length(length));
    }
    let root_n = libm::sqrt(f64::from(length));
    // abs_diff cannot overflow; a u64 becomes the nearest f64, and an absurd difference
    // only makes the power infinite and P_upset 0.
    let difference = winner.0.abs_diff(loser.0) as f64 / 100.0;
    let upset = 1.0 / (libm::pow(10.0, difference * root_n / 2000.0) + 1.0);
    let favourite_won = winner.0 >= loser.0;
    let p = if favourite_won { upset } else { 1.0 - upset };
    let base = 4.0 * root_n * p;
    Ok(FibsChange {
        winner_gain: hundredths(base * experience_factor(winner_experience)),
        loser_loss: hundredths(base * experience_factor(loser_experience)),
    })
}

/// FIBS's `K = max(1, 5 - experience / 100)`, a real division: 5 for a new player, 1
/// from 400 experience on.
fn experience_factor(experience: u32) -> f64 {
    let k = 5.0 - f64::from(experience) / 100.0;
    if k > 1.0 { k } else { 1.0 }
}

/// Points rounded to hundredths, half away from zero. The values rounded here are at
/// most 4·5·√999·1 ≈ 632 points, far inside `i64`.
fn hundredths(points: f64) -> Rating {
    Rating(libm::round(points * 100.0) as i64)
}

/// A chess game's result for the player being rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// 1 point.
    Win,
    /// ½ point.
    Draw,
    /// 0 points.
    Loss,
}

impl Score {
    /// The score in hundredths of a point: 100, 50, 0.
    pub fn hundredths(self) -> i64 {
        match self {
            Score::Win => 100,
            Score::Draw => 50,
            Score::Loss => 0,
        }
    }
}

/// The largest development coefficient accepted: FIDE caps `K × games` of a rating
/// period at 700 (Rating Regulations 8.3.3, 2024), so no single game's K exceeds it.
pub const MAX_K: u32 = 700;

/// The rating difference FIDE counts at most (Rating Regulations 8.3.1, 2024), in points.
pub const FIDE_MAX_DIFFERENCE: i64 = 400;

/// FIDE's table 8.1b (8.1.2 since 2024): the largest rating difference, in whole
/// points, at which the higher-rated player's expected score is .50, .51, … .91. From 392
/// on it is .92, and the difference is counted at most 400, so the table stops there.
const FIDE_BANDS: [i64; 42] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, // .50 – .59
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145, // .60 – .69
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235, // .70 – .79
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357, // .80 – .89
    374, 391, // .90, .91
];

/// The expected score, in hundredths, FIDE's table gives a player rated `player` against
/// one rated `opponent`: from 8 to 92. The difference is rounded to whole points (half
/// away from zero) and counted at most 400.
pub fn fide_expected(player: Rating, opponent: Rating) -> i64 {
    let abs = player.0.abs_diff(opponent.0);
    // Round hundredths to whole points, half away from zero, in integers.
    let points = abs / 100 + u64::from(abs % 100 >= 50);
    let points = points.min(FIDE_MAX_DIFFERENCE as u64) as i64;
    let band = FIDE_BANDS.iter().position(|&upper| points <= upper);
    let higher = 50 + band.unwrap_or(FIDE_BANDS.len()) as i64;
    if player.0 >= opponent.0 {
        higher
    } else {
        100 - higher
    }
}

/// The signed Elo change of one game for the player rated `player`, who scored `score`
/// against one rated `opponent`, with development coefficient `k`: `k · (score - PD)`
/// with FIDE's expectancy table (see the module's doc), exact in hundredths. Refuses a
/// `k` of 0 or above [`MAX_K`].
pub fn elo(player: Rating, opponent: Rating, score: Score, k: u32) -> Result<Rating, RatingError> {
    if k == 0 || k > MAX_K {
        return Err(RatingError::K(k));
    }
    let expected = fide_expected(player, opponent);
    Ok(Rating(i64::from(k) * (score.hundredths() - expected)))
}

/// FIDE's development coefficient (Rating Regulations 8.3.3, 2024): 40 for
/// a player new to the list until he has completed 30 games, 10 once his published
/// rating has reached 2400 (`ever_2400`, or `rating` at 2400 or more) even if it dropped
/// since, otherwise 20. Not covered: FIDE's K = 40 for players under 18 rated under
/// 2300, and the cap of `K × games` at 700 in one rating period; the caller applies those.
pub fn fide_k(rating: Rating, games_played: u32, ever_2400: bool) -> u32 {
    if games_played < 30 {
        40
    } else if ever_2400 || rating >= Rating::points(2400) {
        10
    } else {
        20
    }
}
