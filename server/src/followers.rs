//! Bounds on the streams anyone may open without a credential: following a match
//! (`Watch`), a tournament (`WatchTournament`) or reading a log (`ExportLog`).
//!
//! Following is open to every spectator's phone, so nothing about the caller limits how
//! many streams it may hold; each open stream costs the server memory for as long as it
//! stays open. Three bounds keep that in hand:
//!
//! - per connection: HTTP/2's concurrent streams (`MAX_STREAMS_PER_CONNECTION`, in
//!   `lib.rs`), enforced by the protocol itself;
//! - per address: [`FollowerLimits::per_address`] streams from one IP address;
//! - in total: [`FollowerLimits::total`] streams.
//!
//! A stream over a bound is refused at once with RESOURCE_EXHAUSTED, saying which bound;
//! the director is always admitted (his console must see the room during a flood). A
//! stream holds a [`FollowerSlot`] for its life, and gives it back when it is dropped.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::error::Error;

/// How many anonymous streams may be open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FollowerLimits {
    /// Streams open at once in all.
    pub total: usize,
    /// Streams open at once from one IP address.
    pub per_address: usize,
}

impl FollowerLimits {
    /// Default total: 50,000 streams at about 5 KiB each (`docs/benchmarks.md`) are
    /// about 250 MiB, within a small server's memory, and 5 times the 10,000 phones of
    /// the fan-out benchmark.
    pub const DEFAULT_TOTAL: usize = 50_000;
    /// Default per address: a phone follows a few matches; a venue's NAT or a reverse
    /// proxy puts many phones behind one address, and should raise this
    /// (`--max-followers-per-address`).
    pub const DEFAULT_PER_ADDRESS: usize = 500;
}

impl Default for FollowerLimits {
    fn default() -> Self {
        FollowerLimits {
            total: Self::DEFAULT_TOTAL,
            per_address: Self::DEFAULT_PER_ADDRESS,
        }
    }
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// The open anonymous streams, counted against [`FollowerLimits`].
#[derive(Debug)]
pub struct Followers {
    limits: Mutex<FollowerLimits>,
    counts: Arc<Mutex<Counts>>,
}

impl Default for Followers {
    fn default() -> Self {
        Followers::new(FollowerLimits::default())
    }
}

/// Who opens a stream, as the bounds see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opener {
    /// The director: always admitted, not counted.
    Director,
    /// Anyone else, from this address (None when the transport has none, as in-memory
    /// pipes in simulations: counted in the total only).
    Anonymous(Option<IpAddr>),
}

impl Followers {
    /// No stream open yet, within `limits`.
    pub fn new(limits: FollowerLimits) -> Followers {
        Followers {
            limits: Mutex::new(limits),
            counts: Default::default(),
        }
    }

    /// Replaces the limits; streams already open stay open.
    pub fn set_limits(&self, limits: FollowerLimits) {
        *lock(&self.limits) = limits;
    }

    /// Streams open now: in all, and from `address`.
    pub fn open(&self, address: Option<IpAddr>) -> (usize, usize) {
        let counts = lock(&self.counts);
        let from = address
            .and_then(|a| counts.by_address.get(&a).copied())
            .unwrap_or(0);
        (counts.total, from)
    }

    /// A slot for one more stream by `opener`, or RESOURCE_EXHAUSTED naming the bound.
    pub fn admit(&self, opener: Opener) -> Result<FollowerSlot, Error> {
        let address = match opener {
            Opener::Director => return Ok(FollowerSlot::uncounted()),
            Opener::Anonymous(address) => address,
        };
        let limits = *lock(&self.limits);
        let mut counts = lock(&self.counts);
        if counts.total >= limits.total {
            return Err(Error::RateLimited(format!(
                "the server follows {} streams, its limit (--max-followers): try again later",
                limits.total
            )));
        }
        if let Some(a) = address {
            let from = counts.by_address.entry(a).or_insert(0);
            if *from >= limits.per_address {
                return Err(Error::RateLimited(format!(
                    "{a} has {} streams open, the limit for one address \
                     (--max-followers-per-address): close some first",
                    limits.per_address
                )));
            }
            *from += 1;
        }
        counts.total += 1;
        Ok(FollowerSlot {
            held: Some((self.counts.clone(), address)),
        })
    }
}

/// One open stream's place in the count, given back when dropped.
#[derive(Debug)]
pub struct FollowerSlot {
    held: Option<(Arc<Mutex<Counts>>, Option<IpAddr>)>,
}

impl FollowerSlot {
    /// A slot outside the count, for a stream whose caller is known and bounded
    /// otherwise (a registered device holds one stream per connection).
    pub fn uncounted() -> FollowerSlot {
        FollowerSlot { held: None }
    }
}

impl Drop for FollowerSlot {
    fn drop(&mut self) {
        let Some((counts, address)) = self.held.take() else {
            return;
        };
        let mut counts = lock(&counts);
        counts.total = counts.total.saturating_sub(1);
        if let Some(a) = address
            && let Some(from) = counts.by_address.get_mut(&a)
        {
            *from = from.saturating_sub(1);
            if *from == 0 {
                counts.by_address.remove(&a);
            }
        }
    }
}

/// The counts stay consistent whatever panicked while holding them: each change is one
/// step under the lock.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1)));
    const AWAY: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2)));

    fn limited(total: usize, per_address: usize) -> Followers {
        Followers::new(FollowerLimits { total, per_address })
    }

    #[test]
    fn one_address_is_held_to_its_bound_and_others_are_not() {
        let f = limited(10, 2);
        let _a = f.admit(Opener::Anonymous(HOME)).unwrap();
        let _b = f.admit(Opener::Anonymous(HOME)).unwrap();
        let refused = f.admit(Opener::Anonymous(HOME)).unwrap_err();
        assert!(refused.to_string().contains("--max-followers-per-address"));
        let _c = f.admit(Opener::Anonymous(AWAY)).unwrap();
        assert_eq!(f.open(HOME), (3, 2));
    }

    #[test]
    fn the_total_bound_holds_and_a_closed_stream_frees_its_place() {
        let f = limited(2, 5);
        let a = f.admit(Opener::Anonymous(HOME)).unwrap();
        let _b = f.admit(Opener::Anonymous(None)).unwrap();
        let refused = f.admit(Opener::Anonymous(AWAY)).unwrap_err();
        assert!(matches!(refused, Error::RateLimited(m) if m.contains("--max-followers")));
        drop(a);
        assert_eq!(f.open(HOME), (1, 0));
        f.admit(Opener::Anonymous(AWAY)).unwrap();
    }

    #[test]
    fn the_director_is_always_admitted_and_not_counted() {
        let f = limited(0, 0);
        let slots: Vec<_> = (0..3).map(|_| f.admit(Opener::Director).unwrap()).collect();
        assert_eq!(f.open(None), (0, 0));
        drop(slots);
        assert_eq!(f.open(None), (0, 0));
    }

    #[test]
    fn new_limits_apply_to_the_next_stream() {
        let f = limited(1, 1);
        let _a = f.admit(Opener::Anonymous(HOME)).unwrap();
        f.set_limits(FollowerLimits {
            total: 5,
            per_address: 5,
        });
        f.admit(Opener::Anonymous(HOME)).unwrap();
    }
}
