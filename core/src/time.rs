//! Integer time for the rules.
//!
//! The core never reads a clock. Callers pass the current time as a [`Timestamp`]:
//! milliseconds on a time line of their choosing (the server uses milliseconds since the
//! Unix epoch; tests start at zero). Durations are [`Millis`]. Both are plain integers so
//! that arithmetic is exact and replaying the same inputs always gives the same state.
//!
//! Every operator saturates at the ends of `i64` instead of wrapping or panicking: the
//! rules bound every time they accept (`clock::control`'s limits), so saturation is only
//! a last guard, and a value that would have wrapped stays at the end it ran into.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A signed span of time in milliseconds.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct Millis(pub i64);

impl Millis {
    /// No time at all.
    pub const ZERO: Millis = Millis(0);

    /// `n` milliseconds.
    pub const fn ms(n: i64) -> Millis {
        Millis(n)
    }

    /// `n` seconds.
    pub const fn secs(n: i64) -> Millis {
        Millis(n * 1_000)
    }

    /// `n` minutes.
    pub const fn mins(n: i64) -> Millis {
        Millis(n * 60_000)
    }

    /// The number of milliseconds.
    pub const fn as_ms(self) -> i64 {
        self.0
    }

    /// The smaller of two spans.
    pub fn min(self, other: Millis) -> Millis {
        Millis(self.0.min(other.0))
    }

    /// The larger of two spans.
    pub fn max(self, other: Millis) -> Millis {
        Millis(self.0.max(other.0))
    }

    /// True when the span is zero or negative.
    pub const fn is_spent(self) -> bool {
        self.0 <= 0
    }
}

/// A span's `+` and `-` (and `+=`, `-=`) saturate: a clock never wraps.
macro_rules! saturating {
    ($op:ident, $f:ident, $assign:ident, $f_assign:ident, $saturating:ident) => {
        impl $op for Millis {
            type Output = Millis;
            fn $f(self, rhs: Millis) -> Millis {
                Millis(self.0.$saturating(rhs.0))
            }
        }

        impl $assign for Millis {
            fn $f_assign(&mut self, rhs: Millis) {
                *self = (*self).$f(rhs);
            }
        }
    };
}

saturating!(Add, add, AddAssign, add_assign, saturating_add);
saturating!(Sub, sub, SubAssign, sub_assign, saturating_sub);

impl Neg for Millis {
    type Output = Millis;
    fn neg(self) -> Millis {
        Millis(self.0.saturating_neg())
    }
}

impl Mul<i64> for Millis {
    type Output = Millis;
    fn mul(self, rhs: i64) -> Millis {
        Millis(self.0.saturating_mul(rhs))
    }
}

/// Shows the span the way a clock face does: `h:mm:ss.t` or `m:ss.t`.
impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let ms = self.0.unsigned_abs();
        let (h, m, s, tenths) = (
            ms / 3_600_000,
            ms / 60_000 % 60,
            ms / 1_000 % 60,
            ms / 100 % 10,
        );
        if h > 0 {
            write!(f, "{sign}{h}:{m:02}:{s:02}.{tenths}")
        } else {
            write!(f, "{sign}{m}:{s:02}.{tenths}")
        }
    }
}

/// An instant, in milliseconds on the caller's time line.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// The instant `n` milliseconds after the origin of the time line.
    pub const fn ms(n: i64) -> Timestamp {
        Timestamp(n)
    }

    /// Milliseconds since the origin of the time line.
    pub const fn as_ms(self) -> i64 {
        self.0
    }

    /// The later of two instants.
    pub fn max(self, other: Timestamp) -> Timestamp {
        Timestamp(self.0.max(other.0))
    }
}

impl Add<Millis> for Timestamp {
    type Output = Timestamp;
    fn add(self, rhs: Millis) -> Timestamp {
        Timestamp(self.0.saturating_add(rhs.0))
    }
}

impl Sub<Millis> for Timestamp {
    type Output = Timestamp;
    fn sub(self, rhs: Millis) -> Timestamp {
        Timestamp(self.0.saturating_sub(rhs.0))
    }
}

impl Sub for Timestamp {
    type Output = Millis;
    fn sub(self, rhs: Timestamp) -> Millis {
        Millis(self.0.saturating_sub(rhs.0))
    }
}

impl Timestamp {
    /// The time of day as "HH:MM UTC", reading the time line as Unix time (the server's:
    /// milliseconds since 1970-01-01 UTC), for messages a director reads.
    pub fn time_of_day(self) -> String {
        let minutes = self.0.div_euclid(60_000).rem_euclid(24 * 60);
        format!("{:02}:{:02} UTC", minutes / 60, minutes % 60)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={}ms", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_of_day_reads_unix_time() {
        // 2026-11-23 14:30:59 UTC.
        assert_eq!(Timestamp(1_795_444_259_000).time_of_day(), "14:30 UTC");
        assert_eq!(Timestamp(0).time_of_day(), "00:00 UTC");
    }

    #[test]
    fn clock_face_formatting() {
        assert_eq!(Millis::mins(90).to_string(), "1:30:00.0");
        assert_eq!(Millis::secs(12).to_string(), "0:12.0");
        assert_eq!(Millis::ms(61_250).to_string(), "1:01.2");
        assert_eq!(Millis::ms(-1_500).to_string(), "-0:01.5");
    }

    #[test]
    fn arithmetic_is_exact() {
        let t = Timestamp::ms(1_000) + Millis::secs(12);
        assert_eq!(t - Timestamp::ms(1_000), Millis::secs(12));
        assert_eq!(Millis::mins(2) * 7, Millis::mins(14));
    }
}
