//! Where the server gets the time: the system clock in production, a hand-turned clock in
//! tests, so that a 12-second delay or a 5-minute lateness step is tested without sleeping.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use baffle_core::Timestamp;
use tokio::sync::watch;

/// A source of the current time, and of waiting until a given time.
pub trait TimeSource: Clone + Send + Sync + 'static {
    /// The current time, in ms since the Unix epoch.
    fn now(&self) -> Timestamp;
    /// Completes once `now() >= at`.
    fn sleep_until(&self, at: Timestamp) -> impl std::future::Future<Output = ()> + Send;
}

/// The system clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemTime_;

impl TimeSource for SystemTime_ {
    fn now(&self) -> Timestamp {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        Timestamp(ms)
    }

    async fn sleep_until(&self, at: Timestamp) {
        loop {
            let left = at.as_ms() - self.now().as_ms();
            if left <= 0 {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(left as u64)).await;
        }
    }
}

/// Tokio's clock, counted from `epoch`: on a paused tokio runtime it is virtual time, so a
/// whole simulation (devices, links, think times, the server's timers) runs in
/// microseconds yet every part of it sees the same consistent time.
#[derive(Clone, Copy, Debug)]
pub struct TokioTime {
    epoch: Timestamp,
    origin: tokio::time::Instant,
}

impl TokioTime {
    /// A clock that reads `epoch` now.
    pub fn starting_at(epoch: Timestamp) -> TokioTime {
        TokioTime {
            epoch,
            origin: tokio::time::Instant::now(),
        }
    }

    /// What the clock read at `instant`.
    pub fn at(&self, instant: tokio::time::Instant) -> Timestamp {
        let since = instant.saturating_duration_since(self.origin);
        Timestamp(self.epoch.as_ms() + since.as_millis() as i64)
    }

    fn instant(&self, at: Timestamp) -> tokio::time::Instant {
        let ms = (at.as_ms() - self.epoch.as_ms()).max(0) as u64;
        self.origin + std::time::Duration::from_millis(ms)
    }
}

impl TimeSource for TokioTime {
    fn now(&self) -> Timestamp {
        self.at(tokio::time::Instant::now())
    }

    async fn sleep_until(&self, at: Timestamp) {
        tokio::time::sleep_until(self.instant(at)).await;
    }
}

/// A clock that moves only when told to: for tests.
#[derive(Clone, Debug)]
pub struct ManualTime {
    now: Arc<AtomicI64>,
    moved: watch::Sender<i64>,
}

impl ManualTime {
    /// A clock standing at `start`.
    pub fn new(start: Timestamp) -> ManualTime {
        ManualTime {
            now: Arc::new(AtomicI64::new(start.as_ms())),
            moved: watch::channel(start.as_ms()).0,
        }
    }

    /// Moves the clock forward by `ms` and wakes whoever waits for a time now reached.
    pub fn advance(&self, ms: i64) {
        let now = self.now.fetch_add(ms, Ordering::SeqCst) + ms;
        self.moved.send_replace(now);
    }

    /// Sets the clock to `at` (never backwards).
    pub fn set(&self, at: Timestamp) {
        let now = self
            .now
            .fetch_max(at.as_ms(), Ordering::SeqCst)
            .max(at.as_ms());
        self.moved.send_replace(now);
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> Timestamp {
        Timestamp(self.now.load(Ordering::SeqCst))
    }

    async fn sleep_until(&self, at: Timestamp) {
        let mut moved = self.moved.subscribe();
        while self.now() < at {
            if moved.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn manual_time_wakes_sleepers_when_advanced() {
        let t = ManualTime::new(Timestamp(0));
        let waiter = tokio::spawn({
            let t = t.clone();
            async move { t.sleep_until(Timestamp(12_000)).await }
        });
        t.advance(11_999);
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        t.advance(1);
        waiter.await.unwrap();
        assert_eq!(t.now(), Timestamp(12_000));
    }
}
