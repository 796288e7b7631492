//! The device's own clock: monotonic, never set, and never exact. A real device's crystal
//! runs some parts per million fast or slow, and its count started at power-on, not at
//! the Unix epoch; the server learns the difference by time sync (docs/device-protocol.md).
//!
//! The clock reads tokio's [`Instant`], so in a test on a paused runtime it moves with
//! the runtime's virtual time and a simulated minute passes in microseconds.

use std::time::{SystemTime, UNIX_EPOCH};

use tokio::time::Instant;

/// A device clock: it read `origin_ms` at `origin` and runs `drift_ppm` fast from there.
#[derive(Clone, Copy, Debug)]
pub struct DeviceClock {
    origin: Instant,
    origin_ms: i64,
    drift_ppm: i64,
}

impl DeviceClock {
    /// A clock that reads `origin_ms` now and runs `drift_ppm` parts per million fast
    /// (negative: slow).
    pub fn starting_at(origin_ms: i64, drift_ppm: i64) -> DeviceClock {
        DeviceClock {
            origin: Instant::now(),
            origin_ms,
            drift_ppm,
        }
    }

    /// A clock `offset_ms` away from the system clock now, drifting `drift_ppm`.
    pub fn from_system(offset_ms: i64, drift_ppm: i64) -> DeviceClock {
        let system = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        DeviceClock::starting_at(system + offset_ms, drift_ppm)
    }

    /// What the clock read at `instant`, ms.
    pub fn at(&self, instant: Instant) -> i64 {
        let us = instant.saturating_duration_since(self.origin).as_micros() as i64;
        self.origin_ms + (us + us * self.drift_ppm / 1_000_000) / 1_000
    }

    /// What the clock reads now, ms.
    pub fn now_ms(&self) -> i64 {
        self.at(Instant::now())
    }

    /// How fast it runs, ppm.
    pub fn drift_ppm(&self) -> i64 {
        self.drift_ppm
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn a_fast_clock_gains_its_ppm() {
        let fast = DeviceClock::starting_at(5_000, 100);
        let slow = DeviceClock::starting_at(5_000, -100);
        tokio::time::sleep(Duration::from_secs(1_000)).await;
        // 100 ppm of 1,000 s is 100 ms.
        assert_eq!(fast.now_ms(), 5_000 + 1_000_000 + 100);
        assert_eq!(slow.now_ms(), 5_000 + 1_000_000 - 100);
    }
}
