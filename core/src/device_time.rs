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
//! The estimator takes the tightest bounds over the recent exchanges, whose error is half
//! the difference of the two *smallest* one-way delays — a tenth of the lowest-delay
//! exchange's error under heavy jitter (`docs/device-protocol.md` has the figures). But a
//! device's crystal drifts (tens of ppm), so the offset is a line, not a constant: the
//! estimator fits `offset(t) = o + r·t` by taking, among the drift rates `r` the bounds
//! allow, the one that leaves the widest band of offsets, and the middle of that band.
//! That lets two minutes of exchanges count, where without the drift term 20 seconds was
//! the most before 100 ppm blurred the bounds. [`charge_instant`] then turns a claimed press
//! time into the instant the player is charged to, bounded so that no player gains time
//! the network did not cost him.

use std::collections::VecDeque;

use crate::time::{Millis, Timestamp};

/// How far back exchanges count: two minutes, with the drift fitted. Longer windows give
/// more exchanges that met no queue on the network (docs/device-protocol.md has the
/// figures for 20 s, 60 s and 120 s).
pub const WINDOW: Millis = Millis::secs(120);

/// Exchanges within one bucket of time are merged to their tightest bounds: 100 ppm of
/// drift moves the offset by 0.2 ms in two seconds, and the window is then 61 buckets
/// (about 4 KB per device, and some 20,000 operations per estimate) whatever the sync
/// rate.
pub const BUCKET: Millis = Millis::secs(2);

/// The drift rates considered, ± parts per million. Real crystals are within ±100.
pub const MAX_DRIFT_PPM: f64 = 500.0;

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

/// The tightest bounds of the exchanges in one [`BUCKET`].
#[derive(Clone, Copy, Debug)]
struct Bucket {
    start: Timestamp,
    upper: (i64, Timestamp),
    lower: (i64, Timestamp),
    best: Sample,
}

/// The running estimate of one device's clock.
#[derive(Clone, Debug, Default)]
pub struct TimeSync {
    buckets: VecDeque<Bucket>,
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
        let at = Timestamp(t2);
        let sample = Sample {
            offset,
            upper: t1 - t0,
            lower: t2 - t3,
            delay,
            at,
        };
        match self.buckets.back_mut() {
            Some(b) if at >= b.start && at < b.start + BUCKET => {
                if sample.upper < b.upper.0 {
                    b.upper = (sample.upper, at);
                }
                if sample.lower > b.lower.0 {
                    b.lower = (sample.lower, at);
                }
                if sample.delay <= b.best.delay {
                    b.best = sample;
                }
            }
            _ => self.buckets.push_back(Bucket {
                start: at,
                upper: (sample.upper, at),
                lower: (sample.lower, at),
                best: sample,
            }),
        }
        while self.buckets.front().is_some_and(|b| b.start < at - WINDOW) {
            self.buckets.pop_front();
        }
        Ok(sample)
    }

    /// The lowest-delay recent exchange.
    pub fn best(&self) -> Option<Sample> {
        self.buckets
            .iter()
            .map(|b| b.best)
            .min_by_key(|s| (s.delay, std::cmp::Reverse(s.at)))
    }

    /// The fitted drift (ms per ms) and the offset at `t`: the middle of all the offsets
    /// at `t` that some drift rate and offset consistent with every bound allow — the
    /// estimate whose worst case is least. The band's width is concave in the rate (a
    /// minimum of lines minus a maximum of lines), so the rates that fit form an interval,
    /// found by bisection, and the band's extremes over it by ternary search.
    fn fit(&self, t: Timestamp) -> Option<(f64, f64)> {
        if self.buckets.is_empty() {
            return None;
        }
        let bounds = Bounds::at(&self.buckets, t);
        let width = |rate: f64| {
            let (lo, hi) = bounds.band(rate);
            hi - lo
        };
        let limit = MAX_DRIFT_PPM * 1e-6;
        let widest = ternary(-limit, limit, width);
        if width(widest) < 0.0 {
            // No rate fits every bound (a clock stepped?): the least bad one.
            let (lo, hi) = bounds.band(widest);
            return Some((widest, (lo + hi) / 2.0));
        }
        let edge = |mut inside: f64, mut outside: f64| {
            if width(outside) >= 0.0 {
                return outside;
            }
            while (outside - inside).abs() > RATE_PRECISION {
                let mid = (inside + outside) / 2.0;
                if width(mid) >= 0.0 {
                    inside = mid;
                } else {
                    outside = mid;
                }
            }
            inside
        };
        let (slow, fast) = (edge(widest, -limit), edge(widest, limit));
        let most = bounds.band(ternary(slow, fast, |r| bounds.band(r).1)).1;
        let least = bounds.band(ternary(slow, fast, |r| -bounds.band(r).0)).0;
        Some(((slow + fast) / 2.0, (least + most) / 2.0))
    }

    /// Server time minus device time at server time `t`.
    pub fn offset_at(&self, t: Timestamp) -> Option<i64> {
        self.fit(t).map(|(_, o)| o.round() as i64)
    }

    /// Server time minus device time now (as of the latest exchange).
    pub fn offset(&self) -> Option<i64> {
        self.offset_at(self.buckets.back()?.best.at)
    }

    /// The device clock's drift against the server's, in parts per million (positive: the
    /// device runs slow), once the exchanges span 10 seconds.
    pub fn drift_ppm(&self) -> Option<i64> {
        let span = self.buckets.back()?.best.at - self.buckets.front()?.start;
        if span < Millis::secs(10) {
            return None;
        }
        self.fit(self.buckets.back()?.best.at)
            .map(|(rate, _)| (rate * 1e6).round() as i64)
    }

    /// A device time on the server's clock.
    pub fn to_server(&self, device_ms: i64) -> Option<Timestamp> {
        // Where on the server's time line to evaluate the fit needs no precision: an error
        // of a second moves the result by 100 ppm × 1 s = 0.1 ms. The best exchange's own
        // offset places it without a second fit.
        let rough = Timestamp(device_ms + self.best()?.offset);
        self.offset_at(rough).map(|o| Timestamp(device_ms + o))
    }
}

/// How finely drift rates are searched, in ms per ms: over the two-minute window an error
/// this size moves an offset by about 0.0001 ms.
const RATE_PRECISION: f64 = 1e-9;

/// Every bucket's bounds as lines in the drift rate, evaluated at one instant `t`: bound
/// value widened by a millisecond for the timestamps' rounding, and its time before `t`.
/// Built once per fit, so the searches below do no conversions.
struct Bounds {
    lower: Vec<(f64, f64)>,
    upper: Vec<(f64, f64)>,
}

impl Bounds {
    fn at(buckets: &VecDeque<Bucket>, t: Timestamp) -> Bounds {
        let line = |(value, at): (i64, Timestamp), widen: i64| {
            ((value + widen) as f64, (at.as_ms() - t.as_ms()) as f64)
        };
        Bounds {
            lower: buckets.iter().map(|b| line(b.lower, -1)).collect(),
            upper: buckets.iter().map(|b| line(b.upper, 1)).collect(),
        }
    }

    /// The band of offsets the bounds allow at `t` if the offset moves at `rate` (ms per
    /// ms): (least, most); empty (least > most) if the rate does not fit.
    fn band(&self, rate: f64) -> (f64, f64) {
        let least = self
            .lower
            .iter()
            .map(|(v, dt)| v - rate * dt)
            .fold(f64::MIN, f64::max);
        let most = self
            .upper
            .iter()
            .map(|(v, dt)| v - rate * dt)
            .fold(f64::MAX, f64::min);
        (least, most)
    }
}

/// Where the concave `f` is greatest on `[a, b]`.
fn ternary(mut a: f64, mut b: f64, f: impl Fn(f64) -> f64) -> f64 {
    while b - a > RATE_PRECISION {
        let (m1, m2) = (a + (b - a) / 3.0, b - (b - a) / 3.0);
        if f(m1) < f(m2) {
            a = m1;
        } else {
            b = m2;
        }
    }
    (a + b) / 2.0
}

/// How a claimed instant was bounded. Recorded in a `device.input` record as the
/// variant's name in lower case (`turnstart`, `lagcredit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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
        // 920..=1001, widened by a millisecond each way for rounding: the middle is 960.5.
        assert_eq!(s.offset(), Some(961));
        s.add(1_000, 2_080, 2_080, 1_081).unwrap();
        assert_eq!(s.offset(), Some(1_000));
        assert_eq!(s.to_server(5_000), Some(Timestamp(6_000)));
        assert_eq!(s.best().unwrap().delay, 81, "both round trips took 81 ms");
    }

    #[test]
    fn a_drifting_clock_is_followed_and_its_drift_measured() {
        // The device runs 100 ppm fast: server minus device shrinks 1 ms every 10 s.
        // Every exchange has legs of 30 and 50 ms, so no single one is within 10 ms; but
        // now and then a leg is fast, and the fitted line goes through the truth.
        let offset_at = |server_ms: i64| 500_000 - server_ms / 10_000;
        let mut s = TimeSync::new();
        let mut server = 0;
        for i in 0..1_200i64 {
            let (up, down) = match i % 37 {
                0 => (1, 40),
                18 => (40, 1),
                _ => (30, 50),
            };
            let t0 = server - offset_at(server);
            let t1 = server + up;
            let t3 = t1 + down - offset_at(t1 + down);
            s.add(t0, t1, t1, t3).unwrap();
            server += 100;
        }
        let now = Timestamp(server);
        let error = s.offset_at(now).unwrap() - offset_at(server);
        assert!(error.abs() <= 1, "error {error} ms");
        let drift = s.drift_ppm().unwrap();
        assert!((-110..=-90).contains(&drift), "drift {drift} ppm");
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
