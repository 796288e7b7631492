//! A simulated network link between a device and the server: latency, jitter, loss and
//! faults, applied to each direction of a device's stream.
//!
//! A gRPC stream runs over TCP, so within one connection messages arrive in order and
//! are never silently lost: jitter delays a message, and a later one never overtakes it
//! (each is delivered at the later of its own arrival time and the previous one's). A
//! packet that cannot get through ends the connection; that is what `loss` models — the
//! message is lost *with* its connection, and the device must reconnect and replay.
//!
//! Two faults that a correct link never makes are there to prove the server copes with a
//! misbehaving gateway or firmware: `duplicate` sends a device message twice, `reorder`
//! holds one back until after the next — or, if no next one comes within the jitter
//! window, lets it through late. (Holding it for ever would stall a stream whose next
//! message waits for the answer to this one: a hello, say.)

use std::sync::Arc;
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_stream::{Stream, StreamExt};

/// How a link behaves, per direction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinkModel {
    /// The least one-way delay, ms.
    pub latency_ms: u64,
    /// Extra one-way delay, uniformly 0 to this, ms.
    pub jitter_ms: u64,
    /// The chance that a message is lost, which ends its connection.
    pub loss: f64,
    /// The mean time between dropped connections, ms (0: never).
    pub drop_every_ms: u64,
    /// The chance that a device message is sent twice (a fault).
    pub duplicate: f64,
    /// The chance that a device message is held back behind the next one (a fault).
    pub reorder: f64,
}

impl LinkModel {
    /// A perfect link: no delay, no loss.
    pub fn perfect() -> LinkModel {
        LinkModel::default()
    }

    /// The same link without the faults (for the server-to-device direction).
    pub fn without_faults(self) -> LinkModel {
        LinkModel {
            duplicate: 0.0,
            reorder: 0.0,
            ..self
        }
    }

    /// When the next deliberate drop of a connection opened now happens, if any: uniformly
    /// between half and one and a half times the mean.
    pub fn next_drop(&self, rng: &mut ChaCha8Rng) -> Option<Instant> {
        (self.drop_every_ms > 0).then(|| {
            let ms = self.drop_every_ms / 2 + rng.next_u64() % self.drop_every_ms.max(1);
            Instant::now() + Duration::from_millis(ms)
        })
    }
}

/// A link's cut: set once, by a lost message, a deliberate drop, or the device; both
/// directions and the device watch it.
#[derive(Clone, Debug)]
pub struct Cut(Arc<watch::Sender<bool>>);

impl Default for Cut {
    fn default() -> Self {
        Cut(Arc::new(watch::channel(false).0))
    }
}

impl Cut {
    /// Cuts the link.
    pub fn cut(&self) {
        self.0.send_replace(true);
    }

    /// Whether it is cut.
    pub fn is_cut(&self) -> bool {
        *self.0.borrow()
    }

    /// Completes once the link is cut.
    pub async fn happened(&self) {
        let mut seen = self.0.subscribe();
        let _ = seen.wait_for(|c| *c).await;
    }
}

/// Sleeps until `at`, or for ever if there is no `at`.
async fn sleep_until_some(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

fn chance(rng: &mut ChaCha8Rng, p: f64) -> bool {
    p > 0.0 && (rng.next_u64() as f64 / u64::MAX as f64) < p
}

/// Carries `input` through a link behaving like `model`: items come out of the returned
/// receiver delayed, in order, possibly duplicated or reordered (if the model says so).
/// A lost item cuts the link: `cut` is set, which the other direction and the device see,
/// and nothing more is delivered. The link also ends when `cut` is set from outside.
pub fn carry<T, S>(input: S, model: LinkModel, seed: u64, cut: Cut) -> mpsc::Receiver<T>
where
    T: Clone + Send + 'static,
    S: Stream<Item = T> + Send + Unpin + 'static,
{
    let (queued, mut to_deliver) = mpsc::unbounded_channel::<(Instant, T)>();
    let (out, delivered) = mpsc::channel(64);
    let cut_seen_by_delivery = cut.clone();
    // Stamps each item as it arrives and decides its fate.
    tokio::spawn(async move {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut input = input;
        let mut last = Instant::now();
        let mut held: Option<(Instant, T)> = None;
        let window = Duration::from_millis(model.latency_ms + model.jitter_ms.max(1));
        loop {
            let release = held.as_ref().map(|(at, _)| *at + window);
            let item = tokio::select! {
                item = input.next() => item,
                () = cut.happened() => None,
                () = sleep_until_some(release) => {
                    // Nothing overtook the held item in time: it goes on, late.
                    let (at, h) = held.take().expect("a release time means an item is held");
                    last = last.max(at + window);
                    if queued.send((last, h)).is_err() {
                        return;
                    }
                    continue;
                }
            };
            let Some(item) = item else {
                if let Some((_, h)) = held.take() {
                    let _ = queued.send((last, h));
                }
                break;
            };
            if chance(&mut rng, model.loss) {
                cut.cut();
                break;
            }
            let jitter = if model.jitter_ms > 0 {
                rng.next_u64() % (model.jitter_ms + 1)
            } else {
                0
            };
            let at = Instant::now() + Duration::from_millis(model.latency_ms + jitter);
            last = last.max(at);
            if held.is_none() && chance(&mut rng, model.reorder) {
                held = Some((at, item));
                continue;
            }
            let copies = if chance(&mut rng, model.duplicate) {
                2
            } else {
                1
            };
            for _ in 0..copies {
                if queued.send((last, item.clone())).is_err() {
                    return;
                }
            }
            if let Some((_, h)) = held.take() {
                let _ = queued.send((last, h));
            }
        }
    });
    // Delivers each item at its time, unless the link was cut meanwhile.
    let is_cut = cut_seen_by_delivery;
    tokio::spawn(async move {
        while let Some((at, item)) = to_deliver.recv().await {
            // A timer fires on a millisecond tick at best: never wait for one needlessly.
            if at > Instant::now() {
                tokio::time::sleep_until(at).await;
            }
            if is_cut.is_cut() || out.send(item).await.is_err() {
                break;
            }
        }
    });
    delivered
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn run(model: LinkModel, n: u32) -> (Vec<(u32, Duration)>, bool) {
        let (tx, rx) = mpsc::channel(1024);
        let cut = Cut::default();
        let start = Instant::now();
        let mut out = carry(
            tokio_stream::wrappers::ReceiverStream::new(rx),
            model,
            1,
            cut.clone(),
        );
        for i in 0..n {
            // After a cut nobody reads any more.
            if tx.send(i).await.is_err() {
                break;
            }
        }
        drop(tx);
        let mut got = Vec::new();
        while let Some(i) = out.recv().await {
            got.push((i, start.elapsed()));
        }
        (got, cut.is_cut())
    }

    #[tokio::test(start_paused = true)]
    async fn jitter_delays_within_bounds_and_keeps_order() {
        let model = LinkModel {
            latency_ms: 20,
            jitter_ms: 200,
            ..LinkModel::default()
        };
        let (got, cut) = run(model, 200).await;
        assert!(!cut);
        assert_eq!(got.len(), 200);
        assert!(got.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
        assert!(got.iter().all(|(_, t)| *t >= Duration::from_millis(20)));
        assert!(got.iter().all(|(_, t)| *t <= Duration::from_millis(221)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_lost_message_cuts_the_link() {
        let model = LinkModel {
            loss: 0.05,
            ..LinkModel::default()
        };
        let (got, cut) = run(model, 1_000).await;
        assert!(cut);
        assert!(got.len() < 1_000);
        assert!(got.iter().enumerate().all(|(i, (v, _))| *v == i as u32));
    }

    #[tokio::test(start_paused = true)]
    async fn faults_duplicate_and_reorder_but_lose_nothing() {
        let model = LinkModel {
            duplicate: 0.2,
            reorder: 0.2,
            ..LinkModel::default()
        };
        let (got, _) = run(model, 500).await;
        let values: Vec<u32> = got.iter().map(|(v, _)| *v).collect();
        let mut distinct = values.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct, (0..500).collect::<Vec<_>>());
        assert!(values.len() > 500, "some duplicated");
        assert!(values.windows(2).any(|w| w[0] > w[1]), "some reordered");
    }

    /// A message held back for reordering with nothing behind it still arrives: a device's
    /// hello, which nothing follows until the server answers it, must not wait for ever.
    #[tokio::test(start_paused = true)]
    async fn a_held_message_with_nothing_behind_it_arrives_late() {
        let model = LinkModel {
            latency_ms: 5,
            jitter_ms: 100,
            reorder: 1.0,
            ..LinkModel::default()
        };
        let (tx, rx) = mpsc::channel(1);
        let start = Instant::now();
        let mut out = carry(
            tokio_stream::wrappers::ReceiverStream::new(rx),
            model,
            1,
            Cut::default(),
        );
        tx.send("hello").await.unwrap();
        // The sender stays open: the link is not ending, just quiet.
        assert_eq!(out.recv().await, Some("hello"));
        let late = start.elapsed();
        assert!(late > Duration::from_millis(105), "{late:?}");
        assert!(late <= Duration::from_millis(215), "{late:?}");
        drop(tx);
    }
}
