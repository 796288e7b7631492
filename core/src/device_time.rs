//! Time authority (design principle 5): the server is the record, the device says when a
//! press happened.
//!
//! A device stamps its inputs with its own monotonic clock. [`TimeSync`] estimates how
//! that clock maps to the server's from NTP-style exchanges: the device sends `t0` (its
//! clock), the server receives it at `t1` and answers at `t2` (server clock), the device
//! receives the answer at `t3` and reports all four. Then
//! `offset = ((t1 − t0) + (t2 − t3)) / 2` and `delay = (t3 − t0) − (t2 − t1)`. An exchange
//! whose two legs took different times is off by half the difference. But every exchange
//! also *bounds* the true offset: `t2 − t3 ≤ offset ≤ t1 − t0` (each leg took some time).
//! The estimator takes the tightest bounds over the recent exchanges and their midpoint,
//! whose error is half the difference of the two *smallest* one-way delays — a tenth of
//! the lowest-delay exchange's error under heavy jitter (`docs/device-protocol.md` has the
//! figures). Recent, because a device's crystal drifts (tens of ppm) and the offset with
//! it. [`charge_instant`] then turns a claimed press time into the instant the player is
//! charged to, bounded so that no player gains time the network did not cost him.

use std::collections::VecDeque;

use crate::time::{Millis, Timestamp};

/// How far back exchanges count: over 20 seconds 100 ppm of drift moves the offset by
/// only 2 ms, while a device syncing every 100 ms gives 200 exchanges to bound it.
pub const WINDOW: Millis = Millis::secs(20);

/// The most exchanges kept, whatever the sync rate (about 8 KB per device).
pub const MAX_SAMPLES: usize = 200;

/// One NTP-style exchange, reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Server time minus device time, in ms, from this exchange alone.
    pub offset: i64,
    /// The most the offset can be: `t1 − t0`.
    pub upper: i64,
    /// The least the offset can be: `t2 − t3`.
    pub lower: i64,
    /// Round-trip time spent on the network, in ms.
    pub delay: i64,
    /// When (server time) the exchange was answered.
    pub at: Timestamp,
}

/// Why an exchange was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncError {
    /// The timestamps imply a negative round trip: a clock went backwards or a report lies.
    NegativeDelay,
}

/// The running estimate of one device's clock.
#[derive(Clone, Debug, Default)]
pub struct TimeSync {
    samples: VecDeque<Sample>,
    first_best: Option<Sample>,
}

impl TimeSync {
    /// No estimate yet.
    pub fn new() -> TimeSync {
        TimeSync::default()
    }

    /// Adds an exchange: `t0`, `t3` on the device's clock, `t1`, `t2` on the server's.
    pub fn add(&mut self, t0: i64, t1: i64, t2: i64, t3: i64) -> Result<Sample, SyncError> {
        let delay = (t3 - t0) - (t2 - t1);
        if delay < 0 || t2 < t1 {
            return Err(SyncError::NegativeDelay);
        }
        // Rounded to the nearest ms, halves away from zero.
        let twice = (t1 - t0) + (t2 - t3);
        let offset = if twice >= 0 {
            (twice + 1) / 2
        } else {
            (twice - 1) / 2
        };
        let sample = Sample {
            offset,
            upper: t1 - t0,
            lower: t2 - t3,
            delay,
            at: Timestamp(t2),
        };
        self.samples.push_back(sample);
        while self.samples.len() > MAX_SAMPLES
            || self
                .samples
                .front()
                .is_some_and(|s| s.at < sample.at - WINDOW)
        {
            self.samples.pop_front();
        }
        if self.first_best.is_none() && self.samples.len() >= 3 {
            self.first_best = self.best();
        }
        Ok(sample)
    }

    /// The lowest-delay recent exchange.
    pub fn best(&self) -> Option<Sample> {
        self.samples
            .iter()
            .copied()
            .min_by_key(|s| (s.delay, std::cmp::Reverse(s.at)))
    }

    /// Server time minus device time: the midpoint of the tightest bounds the recent
    /// exchanges give (rounded down).
    pub fn offset(&self) -> Option<i64> {
        let upper = self.samples.iter().map(|s| s.upper).min()?;
        let lower = self.samples.iter().map(|s| s.lower).max()?;
        Some((upper + lower).div_euclid(2))
    }

    /// The device clock's drift against the server's, in parts per million (positive: the
    /// device runs slow), from the best exchange of the first window to the best now.
    pub fn drift_ppm(&self) -> Option<i64> {
        let (first, now) = (self.first_best?, self.best()?);
        let span = now.at - first.at;
        (span.as_ms() >= 10_000).then(|| (now.offset - first.offset) * 1_000_000 / span.as_ms())
    }

    /// A device time on the server's clock.
    pub fn to_server(&self, device_ms: i64) -> Option<Timestamp> {
        self.offset().map(|o| Timestamp(device_ms + o))
    }
}

/// How a claimed instant was bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The device's time was used as it was.
    Claimed,
    /// It was earlier than the turn's start (or the match's last event): raised to it.
    TurnStart,
    /// It was more than the maximum lag credit before receipt: raised to the limit.
    LagCredit,
    /// It was after the server received the input: lowered to the receipt.
    Receipt,
    /// The device's clock is not known yet: the receipt is used.
    Unsynced,
}

/// The instant a player is charged to for an input, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    /// The instant the input takes effect.
    pub at: Timestamp,
    /// The device's claim, on the server's clock.
    pub claimed: Option<Timestamp>,
    /// What bounded it.
    pub bound: Bound,
    /// Time credited to the player against the receipt: `receipt − at`.
    pub credit: Millis,
}

/// The instant an input received at `receipt` takes effect: the device's `claimed` time,
/// bounded to `[turn_start, receipt]` and to at most `max_lag` before receipt, so network
/// delay is not charged to the player and no one gains more than the network cost.
pub fn charge_instant(
    claimed: Option<Timestamp>,
    turn_start: Timestamp,
    receipt: Timestamp,
    max_lag: Millis,
) -> Charge {
    let floor_lag = receipt - max_lag;
    let (at, bound) = match claimed {
        None => (receipt, Bound::Unsynced),
        Some(t) if t > receipt => (receipt, Bound::Receipt),
        Some(t) if t < turn_start && turn_start >= floor_lag => {
            (turn_start.min(receipt), Bound::TurnStart)
        }
        Some(t) if t < floor_lag => (floor_lag.max(turn_start).min(receipt), Bound::LagCredit),
        Some(t) => (t, Bound::Claimed),
    };
    Charge {
        at,
        claimed,
        bound,
        credit: receipt - at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_and_delay_from_four_timestamps() {
        let mut s = TimeSync::new();
        // Device 1000 ms behind; 20 ms out, 30 ms back; 5 ms at the server.
        let sample = s.add(0, 1_020, 1_025, 55).unwrap();
        assert_eq!((sample.offset, sample.delay), (995, 50));
        assert_eq!((sample.lower, sample.upper), (970, 1_020));
        assert_eq!(s.add(100, 50, 40, 100), Err(SyncError::NegativeDelay));
    }

    #[test]
    fn the_tightest_bounds_of_all_exchanges_decide() {
        // True offset 1000. Exchange 1: a fast first leg (upper 1001) and a slow second;
        // exchange 2: a slow first leg and a fast second (lower 999). Neither alone is
        // within 40 ms; together they pin the offset to 999..1001.
        let mut s = TimeSync::new();
        s.add(0, 1_001, 1_001, 81).unwrap();
        assert_eq!(s.offset(), Some(960));
        s.add(1_000, 2_080, 2_080, 1_081).unwrap();
        assert_eq!(s.offset(), Some(1_000));
        assert_eq!(s.to_server(5_000), Some(Timestamp(6_000)));
        assert_eq!(s.best().unwrap().delay, 81, "both round trips took 81 ms");
    }

    #[test]
    fn charged_instants_are_bounded() {
        let (start, receipt, lag) = (Timestamp(10_000), Timestamp(20_000), Millis(2_000));
        let c = |t: Option<i64>| charge_instant(t.map(Timestamp), start, receipt, lag);
        assert_eq!(
            c(Some(19_200)),
            Charge {
                at: Timestamp(19_200),
                claimed: Some(Timestamp(19_200)),
                bound: Bound::Claimed,
                credit: Millis(800)
            }
        );
        assert_eq!(c(Some(20_500)).bound, Bound::Receipt);
        assert_eq!(c(Some(20_500)).at, receipt);
        assert_eq!(
            c(Some(15_000)).at,
            Timestamp(18_000),
            "at most 2 s of credit"
        );
        assert_eq!(c(Some(15_000)).bound, Bound::LagCredit);
        assert_eq!(
            c(None),
            Charge {
                at: receipt,
                claimed: None,
                bound: Bound::Unsynced,
                credit: Millis(0)
            }
        );
        // A turn that began after the lag limit: not before the turn's start.
        let late_start = charge_instant(Some(Timestamp(18_500)), Timestamp(19_000), receipt, lag);
        assert_eq!(
            (late_start.at, late_start.bound),
            (Timestamp(19_000), Bound::TurnStart)
        );
    }
}
