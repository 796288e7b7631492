//! The hub on a node of a cluster (`docs/cluster.md`): every node holds every match,
//! and learns of the others' changes through the change feed.
//!
//! - The registry is one stream shared by all nodes: a node that appends with a stale
//!   view gets `Conflict`, folds the entries it had not seen ([`Hub::catch_up_registry_in`])
//!   and checks its change again (`Hub::record`). New tournaments, devices and matches
//!   written by other nodes are folded in when the feed says the registry grew, a new
//!   match getting a replica actor.
//! - A match stream that grew is read by its replica ([`Hub::stream_grew`]); after a gap
//!   in the feed everything is read again ([`Hub::catch_up_all`]).
//! - A lease claimed is handed to the match's actor, which takes the match over
//!   ([`Hub::take_over`]).

use super::{Hub, State};
use crate::actor;
use crate::error::Error;
use crate::registry::{self, Entry, ServerEntry};
use crate::store::EventStore;
use crate::time::TimeSource;

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Folds the registry entries other nodes appended since this node's view; a new
    /// match gets its (replica) actor, its log replayed in the background.
    pub(super) fn catch_up_registry_in(&self, state: &mut State) -> Result<(), Error> {
        let lines = self
            .store
            .read(registry::STREAM, state.registry.len, usize::MAX)
            .map_err(|e| Error::Unavailable(format!("the registry could not be read: {e}")))?;
        let mut jobs = Vec::new();
        for line in lines {
            let entry = Entry::parse(&line)
                .map_err(|e| Error::Internal(format!("a registry entry does not parse: {e}")))?;
            // A device bound, unbound or revoked by another node: its matches are told.
            let binding = match &entry {
                Entry::Server(ServerEntry::DeviceBound { id, match_id }) => {
                    Some((id.clone(), Some(match_id.clone())))
                }
                Entry::Server(
                    ServerEntry::DeviceUnbound { id } | ServerEntry::DeviceRevoked { id },
                ) => Some((id.clone(), None)),
                _ => None,
            };
            let was = binding
                .as_ref()
                .and_then(|(id, _)| state.registry.devices.get(id).and_then(|d| d.bound.clone()));
            let replaced = super::replaced_by(&entry);
            let new_match = state
                .registry
                .evolve(entry)
                .map_err(|e| Error::Internal(format!("a registry entry does not fold: {e}")))?;
            if let Some((device, now)) = &binding {
                super::note_binding(state, device, was.as_deref(), now.as_deref());
            }
            // A match another node replaced: its actor here stops its timers too.
            if let Some(old) = &replaced {
                super::note_replaced(state, old);
            }
            if let Some((info, seed)) = new_match
                && !state.matches.contains_key(&info.id)
            {
                jobs.extend(
                    self.spawn_registered(state, info, seed)
                        .map_err(Error::Internal)?,
                );
            }
        }
        if !jobs.is_empty() {
            actor::recover_in_background(jobs);
        }
        Ok(())
    }

    /// Folds what other nodes added to the registry.
    pub async fn catch_up_registry(&self) -> Result<(), Error> {
        let mut state = self.state.lock().await;
        self.catch_up_registry_in(&mut state)
    }

    /// The change feed said `stream` grew: the registry is folded, a match's replica
    /// reads its new records. A stream this node does not know yet is skipped: the
    /// registry entry that makes it known follows it, and its replay reads it whole.
    pub async fn stream_grew(&self, stream: &str) {
        if stream == registry::STREAM {
            if let Err(e) = self.catch_up_registry().await {
                tracing::warn!(error = %e, "the registry could not be caught up");
            }
            return;
        }
        let Some(id) = stream.strip_prefix("m/") else {
            return;
        };
        let handle = self.state.lock().await.matches.get(id).cloned();
        if let Some(handle) = handle {
            handle.catch_up().await;
        }
    }

    /// After a gap in the change feed: the registry and every match read again from
    /// where this node is.
    pub async fn catch_up_all(&self) {
        if let Err(e) = self.catch_up_registry().await {
            tracing::warn!(error = %e, "the registry could not be caught up");
        }
        for handle in self.match_handles().await {
            handle.catch_up().await;
        }
    }

    /// This node, `node`, claimed the lease of `stream` with `epoch`: its actor takes
    /// the match over. `silent_ms` is how long the previous holder had been silent, as
    /// the database measured it (`None`: not known), for the outage's credit.
    pub async fn take_over(&self, stream: &str, node: &str, epoch: u64, silent_ms: Option<u64>) {
        let Some(id) = stream.strip_prefix("m/") else {
            return;
        };
        let mut handle = self.state.lock().await.matches.get(id).cloned();
        if handle.is_none() {
            let _ = self.catch_up_registry().await;
            handle = self.state.lock().await.matches.get(id).cloned();
        }
        match handle {
            Some(handle) => handle.take_over(node, epoch, silent_ms).await,
            // A log whose registry entry was never written (a crash between the two):
            // nothing to serve; the lease is kept and renewed, harmlessly.
            None => {
                tracing::warn!(%stream, "claimed the lease of a stream no match is registered for")
            }
        }
    }

    /// Ok if this node writes `handle`'s match; else UNAVAILABLE naming the node that
    /// does (`baffle-owner`), for a device to connect there.
    pub fn require_owner(&self, handle: &actor::MatchHandle) -> Result<(), Error> {
        if handle.is_owner() {
            return Ok(());
        }
        Err(actor::not_owner(&self.store, &handle.info.id))
    }
}
