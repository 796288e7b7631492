//! Checks on physically rolled dice that players report.
//!
//! A reported roll is first validated ([`validate_roll`], [`validate_opening`],
//! [`validate_turn`]). Accepted rolls feed a [`DiceMonitor`], which keeps running
//! goodness-of-fit tests per player and per match:
//!
//! - **faces**: Pearson's chi-square over the six faces (5 degrees of freedom);
//! - **doubles**: an exact two-sided binomial test of the number of doubles against 1/6.
//!
//! The tests are run at checkpoints, each time a scope's sample doubles: at
//! [`DiceMonitor::min_rolls`] rolls (default 30, i.e. 60 dice, 10 expected per face), then
//! 60, 120, 240, … Looking after every roll would test the same data hundreds of times and
//! multiply the false alarms (measured: 4.8% of fair 300-roll matches flagged, against
//! 1.2% with doubling checkpoints). When a p-value at a checkpoint falls below the
//! threshold (default 0.001) the monitor raises an [`Anomaly`] for the director, once per
//! scope and test. Below the first checkpoint it raises nothing: the chi-square
//! approximation is poor with few dice, and a handful of rolls proves nothing either way.
//! The tallies and p-values can be read at any time. `docs/dice.md` has the figures.

use std::fmt;

use crate::dice::Roll;
use crate::side::Side;

/// Why a reported roll was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RollError {
    /// A die outside 1 to 6.
    OutOfRange(Roll),
    /// An opening roll with equal dice: it is rolled again, not played.
    EqualOpening(u8),
    /// The reporting player is not the one on roll.
    NotOnRoll {
        /// Who reported.
        reported_by: Side,
        /// Who is on roll.
        on_roll: Side,
    },
}

impl fmt::Display for RollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollError::OutOfRange(d) => {
                write!(
                    f,
                    "dice show 1 to 6, not {} and {} (backgammon 4.1 (i))",
                    d[0], d[1]
                )
            }
            RollError::EqualOpening(d) => write!(
                f,
                "an opening roll of {d} and {d} is equal: both players roll again (backgammon §3, opening roll)"
            ),
            RollError::NotOnRoll {
                reported_by,
                on_roll,
            } => write!(
                f,
                "player {reported_by} reported a roll but player {on_roll} is on roll"
            ),
        }
    }
}

impl std::error::Error for RollError {}

/// Both dice show 1 to 6.
pub fn validate_roll(dice: Roll) -> Result<(), RollError> {
    if dice.iter().all(|d| (1..=6).contains(d)) {
        Ok(())
    } else {
        Err(RollError::OutOfRange(dice))
    }
}

/// An opening throw `[A's die, B's die]` that decides who starts: valid dice, not equal.
/// (Equal throws may be reported too, as ties; they decide nothing.)
pub fn validate_opening(throw: Roll) -> Result<(), RollError> {
    validate_roll(throw)?;
    if throw[0] == throw[1] {
        return Err(RollError::EqualOpening(throw[0]));
    }
    Ok(())
}

/// The reporting player is the one on roll.
pub fn validate_turn(reported_by: Side, on_roll: Side) -> Result<(), RollError> {
    if reported_by == on_roll {
        Ok(())
    } else {
        Err(RollError::NotOnRoll {
            reported_by,
            on_roll,
        })
    }
}

/// Tallies of one scope (a player, or the whole match).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// How often each face (1 to 6, at index 0 to 5) was seen.
    pub faces: [u64; 6],
    /// Two-dice rolls counted for the doubles test (opening dice are single dice).
    pub rolls: u64,
    /// Of those, doubles.
    pub doubles: u64,
}

impl Tally {
    /// Dice counted.
    pub fn dice(&self) -> u64 {
        self.faces.iter().sum()
    }

    /// Pearson's chi-square of the faces against a fair die.
    pub fn faces_chi_square(&self) -> f64 {
        let n = self.dice() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let e = n / 6.0;
        self.faces.iter().map(|&o| (o as f64 - e).powi(2) / e).sum()
    }

    /// p-value of the faces test (chi-square, 5 degrees of freedom).
    pub fn faces_p(&self) -> f64 {
        chi_square_5_sf(self.faces_chi_square())
    }

    /// p-value of the doubles test (exact two-sided binomial, p = 1/6).
    pub fn doubles_p(&self) -> f64 {
        binomial_two_sided(self.rolls, self.doubles, 1.0 / 6.0)
    }
}

/// Upper tail of the chi-square distribution with 5 degrees of freedom, in closed form:
/// Q(x) = erfc(√(x/2)) + √(2x/π)·e^(−x/2)·(1 + x/3).
pub fn chi_square_5_sf(x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let tail = libm::erfc((x / 2.0).sqrt())
        + (2.0 * x / std::f64::consts::PI).sqrt() * (-x / 2.0).exp() * (1.0 + x / 3.0);
    tail.clamp(0.0, 1.0)
}

/// Exact two-sided binomial test: the probability, under Binomial(n, p), of an outcome no
/// more likely than `k` (the "minimum likelihood" method).
pub fn binomial_two_sided(n: u64, k: u64, p: f64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let ln_pmf = |i: u64| {
        let (n_f, i_f) = (n as f64, i as f64);
        libm::lgamma(n_f + 1.0) - libm::lgamma(i_f + 1.0) - libm::lgamma(n_f - i_f + 1.0)
            + i_f * p.ln()
            + (n_f - i_f) * (1.0 - p).ln()
    };
    let observed = ln_pmf(k);
    // A relative tolerance so outcomes exactly as likely as k count despite rounding.
    let cutoff = observed + 1e-7;
    let total: f64 = (0..=n)
        .map(ln_pmf)
        .filter(|&l| l <= cutoff)
        .map(f64::exp)
        .sum();
    total.clamp(0.0, 1.0)
}

/// Whose dice a tally or an anomaly is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// One player's rolls.
    Player(Side),
    /// All rolls of the match.
    Match,
}

/// Which test fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    /// Chi-square of the faces.
    Faces,
    /// Binomial test of doubles.
    Doubles,
}

/// A statistically unlikely run of dice, for the director to look into.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anomaly {
    /// Whose dice.
    pub scope: Scope,
    /// Which test.
    pub test: Test,
    /// The p-value that crossed the threshold.
    pub p_value: f64,
    /// Dice (faces test) or rolls (doubles test) behind it.
    pub sample: u64,
}

impl fmt::Display for Anomaly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match self.scope {
            Scope::Player(s) => format!("player {s}'s dice"),
            Scope::Match => "the match's dice".to_string(),
        };
        let (what, unit) = match self.test {
            Test::Faces => ("faces are unevenly spread", "dice"),
            Test::Doubles => ("doubles are too frequent or too rare", "rolls"),
        };
        write!(
            f,
            "{who}: {what} (p = {:.2e} over {} {unit})",
            self.p_value, self.sample
        )
    }
}

/// Running dice statistics of one match.
#[derive(Clone, Debug)]
pub struct DiceMonitor {
    threshold: f64,
    min_rolls: u64,
    players: [Tally; 2],
    all: Tally,
    /// Per scope (A, B, match) and test (faces in dice, doubles in rolls): the sample
    /// size at which the test runs next; `u64::MAX` once it has raised its anomaly.
    next_check: [[u64; 2]; 3],
}

impl Default for DiceMonitor {
    fn default() -> Self {
        DiceMonitor::new(0.001, 30)
    }
}

impl DiceMonitor {
    /// A monitor raising anomalies at p < `threshold`, testing a scope first when it has
    /// `min_rolls` rolls and again each time its sample doubles.
    pub fn new(threshold: f64, min_rolls: u64) -> DiceMonitor {
        DiceMonitor {
            threshold,
            min_rolls,
            players: [Tally::default(); 2],
            all: Tally::default(),
            next_check: [[2 * min_rolls.max(1), min_rolls.max(1)]; 3],
        }
    }

    /// The minimum number of rolls before a scope can raise an anomaly.
    pub fn min_rolls(&self) -> u64 {
        self.min_rolls
    }

    /// The tally of a scope.
    pub fn tally(&self, scope: Scope) -> &Tally {
        match scope {
            Scope::Player(s) => &self.players[s.index()],
            Scope::Match => &self.all,
        }
    }

    /// Counts a two-dice roll by `side` and returns any anomalies it newly raises.
    pub fn observe_roll(&mut self, side: Side, dice: Roll) -> Vec<Anomaly> {
        for t in [&mut self.players[side.index()], &mut self.all] {
            for d in dice {
                t.faces[usize::from(d - 1)] += 1;
            }
            t.rolls += 1;
            t.doubles += u64::from(dice[0] == dice[1]);
        }
        self.check([Scope::Player(side), Scope::Match])
    }

    /// Counts one opening die thrown by `side` (faces only: a single die has no doubles).
    pub fn observe_single(&mut self, side: Side, die: u8) -> Vec<Anomaly> {
        for t in [&mut self.players[side.index()], &mut self.all] {
            t.faces[usize::from(die - 1)] += 1;
        }
        self.check([Scope::Player(side), Scope::Match])
    }

    fn check(&mut self, scopes: [Scope; 2]) -> Vec<Anomaly> {
        let mut out = Vec::new();
        for scope in scopes {
            let t = *self.tally(scope);
            let slot = match scope {
                Scope::Player(s) => s.index(),
                Scope::Match => 2,
            };
            for (i, test) in [Test::Faces, Test::Doubles].into_iter().enumerate() {
                let sample = match test {
                    Test::Faces => t.dice(),
                    Test::Doubles => t.rolls,
                };
                let next = &mut self.next_check[slot][i];
                if sample < *next {
                    continue;
                }
                let p_value = match test {
                    Test::Faces => t.faces_p(),
                    Test::Doubles => t.doubles_p(),
                };
                if p_value < self.threshold {
                    *next = u64::MAX; // raised once; the director has been told
                    out.push(Anomaly {
                        scope,
                        test,
                        p_value,
                        sample,
                    });
                } else {
                    *next = next.saturating_mul(2);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_square_tail_matches_tables() {
        // Critical values of chi-square with 5 degrees of freedom.
        for (x, p) in [
            (11.0705, 0.05),
            (15.0863, 0.01),
            (20.515, 0.001),
            (4.35146, 0.5),
        ] {
            assert!(
                (chi_square_5_sf(x) - p).abs() < 1e-4,
                "Q({x}) = {}",
                chi_square_5_sf(x)
            );
        }
        assert_eq!(chi_square_5_sf(0.0), 1.0);
    }

    #[test]
    fn binomial_test_matches_direct_computation() {
        // n = 6, p = 1/6, k = 1 is the mode: every outcome counts, p-value 1.
        assert!((binomial_two_sided(6, 1, 1.0 / 6.0) - 1.0).abs() < 1e-9);
        // n = 10, k = 6: P(X >= 6) for p = 1/6, and nothing on the low side is as unlikely.
        let upper: f64 = (6..=10u32)
            .map(|i| {
                let c = (0..i).fold(1.0, |acc, j| acc * f64::from(10 - j) / f64::from(j + 1));
                c * (1.0f64 / 6.0).powi(i as i32) * (5.0f64 / 6.0).powi(10 - i as i32)
            })
            .sum();
        assert!((binomial_two_sided(10, 6, 1.0 / 6.0) - upper).abs() < 1e-9);
    }

    #[test]
    fn validation_names_the_rule() {
        assert!(validate_roll([1, 6]).is_ok());
        let e = validate_roll([0, 7]).unwrap_err();
        assert!(e.to_string().contains("4.1 (i)"));
        assert_eq!(validate_opening([4, 4]), Err(RollError::EqualOpening(4)));
        assert!(validate_opening([4, 5]).is_ok());
        assert_eq!(
            validate_turn(Side::B, Side::A),
            Err(RollError::NotOnRoll {
                reported_by: Side::B,
                on_roll: Side::A
            })
        );
    }
}
