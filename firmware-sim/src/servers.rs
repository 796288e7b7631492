//! Which server a device talks to, when there are several: the nodes of a cluster
//! (`docs/cluster.md`, `baffle-device --server a,b,c`).
//!
//! A device sends its inputs to the node that writes its match. Another node refuses
//! the connection (or an input) UNAVAILABLE with that node's URL in the metadata key
//! `baffle-owner`: the device connects there at once and replays what was not
//! acknowledged. A connection lost without a word is retried on the next server of the
//! list, in turn (after the usual backoff), since the node it talked to may be dead; so
//! is one on which the server has said nothing for ten sync periods (1 s: a frozen node
//! whose TCP still accepts), or whose hello is not answered within 2 s
//! (`device::SILENCE_LIMIT`, [`CLUSTER_HELLO_WAIT`]).

use std::time::Duration;

use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Status};

use crate::error::DeviceError;

/// How long a device with several servers (`--server a,b,c`) waits for its hello to be
/// answered before it tries the next: a live node answers in milliseconds (or refuses at
/// once, naming the writer), while a frozen one (SIGSTOP: TCP accepts, nothing answers)
/// never does, and the cluster has moved its matches to another node within about a
/// lease (1–2 s).
pub const CLUSTER_HELLO_WAIT: Duration = Duration::from_secs(2);

/// The metadata key naming the node that writes a match.
pub const OWNER_KEY: &str = "baffle-owner";

/// The URL of the node that writes the device's match, if `status` names one.
pub fn owner(status: &Status) -> Option<String> {
    if status.code() != Code::Unavailable {
        return None;
    }
    Some(status.metadata().get(OWNER_KEY)?.to_str().ok()?.to_string())
}

/// The servers of a list as typed (`a,b,c`; `host:port` read as `http://host:port`).
pub fn list(servers: &str) -> Vec<String> {
    servers
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| match s.contains("://") {
            true => s.to_string(),
            false => format!("http://{s}"),
        })
        .collect()
}

/// A channel to the first server of `servers` (as typed, see [`list`]) that answers,
/// with the list going round from it (that server first). With several servers, one
/// answers only if it connects and answers a health check (`grpc.health.v1`) within
/// [`CLUSTER_HELLO_WAIT`]: a frozen node (SIGSTOP:
/// TCP accepts, nothing answers) is passed over. If none answers in time, the first that
/// connected is taken (its devices move on by themselves).
pub async fn first_answering(servers: &str) -> Result<(Channel, Vec<String>), DeviceError> {
    let list = list(servers);
    let several = list.len() > 1;
    let wait = CLUSTER_HELLO_WAIT;
    let mut failed: Option<DeviceError> = None;
    let mut silent = None;
    for (i, server) in list.iter().enumerate() {
        let mut endpoint = Endpoint::from_shared(server.clone())?;
        if several {
            endpoint = endpoint.connect_timeout(wait);
        }
        match endpoint.connect().await {
            Ok(channel) if !several || answers(&channel, wait).await => {
                let mut list = list.clone();
                list.rotate_left(i);
                return Ok((channel, list));
            }
            Ok(channel) => {
                silent.get_or_insert((channel, i));
            }
            Err(e) => failed = Some(e.into()),
        }
    }
    if let Some((channel, i)) = silent {
        let mut list = list.clone();
        list.rotate_left(i);
        return Ok((channel, list));
    }
    Err(failed.unwrap_or_else(|| format!("no server in {servers:?}").into()))
}

/// Whether the server behind `channel` answers a health check within `wait` (any answer
/// from the server counts, NOT_SERVING too).
async fn answers(channel: &Channel, wait: Duration) -> bool {
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
    let check = health.check(tonic_health::pb::HealthCheckRequest {
        service: String::new(),
    });
    match tokio::time::timeout(wait, check).await {
        Ok(Ok(_)) => true,
        Ok(Err(status)) => !matches!(
            status.code(),
            Code::Unavailable | Code::Cancelled | Code::DeadlineExceeded | Code::Unknown
        ),
        Err(_) => false,
    }
}

/// A lazy channel to `url` (it connects when used), or None if `url` is not a URL.
pub fn lazy(url: &str) -> Option<Channel> {
    Some(Endpoint::from_shared(url.to_string()).ok()?.connect_lazy())
}

/// The longest wait between two connection attempts of a device with one server: a
/// server that is down is not asked more than every 2 s.
pub const BACKOFF_CAP: Duration = Duration::from_secs(2);

/// The longest wait for a device that goes round several servers: a cluster's node dies
/// and another serves its match within about a lease (1–2 s), and a device that backed
/// off to 2 s waited up to that long again after the takeover (the campaign's slowest
/// matches were device matches: p99 3.35 s from a kill to every match answering, with
/// 1 s leases). The other nodes are alive, so asking them more often costs little.
pub const CLUSTER_BACKOFF_CAP: Duration = Duration::from_millis(400);

/// The servers a device goes round, and where it is.
#[derive(Clone, Debug, Default)]
pub struct Rotation {
    list: Vec<String>,
    next: usize,
}

impl Rotation {
    /// Going round `list` (empty: the device keeps its one channel), the first of it in
    /// use now.
    pub fn new(list: Vec<String>) -> Rotation {
        Rotation { next: 1, list }
    }

    /// The wait after `backoff` before the next attempt: doubled, up to the cap (lower
    /// when there are several servers to go round).
    pub fn next_backoff(&self, backoff: Duration) -> Duration {
        let cap = match self.list.len() > 1 {
            true => CLUSTER_BACKOFF_CAP,
            false => BACKOFF_CAP,
        };
        (backoff * 2).min(cap)
    }

    /// How many servers it goes round (0: the device keeps its one channel).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there is no list to go round.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The next server's channel, in turn; None if there is no list.
    pub fn advance(&mut self) -> Option<Channel> {
        if self.list.is_empty() {
            return None;
        }
        let url = &self.list[self.next % self.list.len()];
        self.next = (self.next + 1) % self.list.len();
        lazy(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn servers_are_gone_round_in_turn() {
        assert_eq!(list("a:1, http://b:2,"), ["http://a:1", "http://b:2"]);
        let mut r = Rotation::new(list("a:1,b:2"));
        assert_eq!(r.next, 1);
        assert!(r.advance().is_some());
        assert_eq!(r.next, 0);
        assert!(Rotation::default().advance().is_none());
    }

    #[test]
    fn a_device_with_several_servers_backs_off_to_less_than_a_lease() {
        let waits = |r: &Rotation| {
            std::iter::successors(Some(Duration::from_millis(50)), |b| {
                Some(r.next_backoff(*b))
            })
            .take(8)
            .map(|d| d.as_millis())
            .collect::<Vec<_>>()
        };
        let one = Rotation::new(list("a:1"));
        assert_eq!(waits(&one), [50, 100, 200, 400, 800, 1600, 2000, 2000]);
        let three = Rotation::new(list("a:1,b:2,c:3"));
        assert_eq!(waits(&three), [50, 100, 200, 400, 400, 400, 400, 400]);
    }

    #[test]
    fn only_an_unavailable_status_names_the_owner() {
        let mut s = Status::unavailable("elsewhere");
        s.metadata_mut()
            .insert(OWNER_KEY, "http://n2:1".parse().unwrap());
        assert_eq!(owner(&s).as_deref(), Some("http://n2:1"));
        assert_eq!(owner(&Status::unavailable("none")), None);
    }
}
