//! A server's outage, made good to the clock that ran through it.
//!
//! While no server writes a match's log nobody can press, so the running side's clock
//! charges time its player could not use. A match played with devices is made whole by
//! them (each input keeps its own timestamp, principle 5); one played without devices
//! (presses from the console or the API) is credited by the record that ends the
//! outage: a cluster node's `table.takeover` (`docs/cluster.md`) or, on a single server,
//! `table.restart` (`docs/server.md`, "A restart"). Both credit at most what the clock
//! actually charged over the outage, each within its own bound; what a restart's clock
//! charged beyond its bound stays [`Uncredited`] — shown to the director, whose ruling on
//! that clock settles it.

use super::state::{AnyMatch, Table, Uncredited};
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// Most time a restart of a single server gives the running side of a match played
/// without devices (`table.restart`'s `credit_ms`). The outage is measured from the
/// server's last heartbeat (written every second, and at a clean stop) to the restart,
/// so it exceeds the true outage by under a second; a restart takes seconds (the new
/// director's lost 21 s), a minute covers it. A longer outage — a machine that took
/// minutes to come back — is credited a minute and the rest is put before the director,
/// with the figure, to rule (adjust-time).
pub const MAX_RESTART_CREDIT: Millis = Millis::secs(60);

impl Table {
    /// Whose clock an outage ending at `at` may credit, and what that clock charged: the
    /// running side of a match played without devices, over neither paused nor frozen
    /// nor flagged, and the time its clock actually charged between `from` (at the earliest the match's last event; that event when
    /// `None`) and `at` — a delay that absorbed the outage charged nothing, so gives
    /// nothing (a stranger's run: a kill inside the 12 s delay credited 1 s of main
    /// time the player never lost, 14:01.0 of 14:00.0). `None`: no credit.
    ///
    /// "Without devices" is the table's `device_seqs` being empty: it holds every device
    /// that ever had an input recorded in this log (applied or refused), it is folded
    /// from the log, so the verifier sees exactly what the server saw, and a device's
    /// input keeps its own timestamp across an outage, so a match played with devices
    /// is made whole by them (principle 5). A device bound to the table that never
    /// pressed leaves no trace in the log: its first press after a credited takeover is
    /// charged no earlier than the takeover (the credit moves the game's time to `at`),
    /// so the outage is never given twice. Each kind of outage caps the credit
    /// with its own bound ([`super::MAX_TAKEOVER_CREDIT`], [`MAX_RESTART_CREDIT`]).
    pub(super) fn outage_charge(
        &self,
        at: Timestamp,
        from: Option<Timestamp>,
    ) -> Option<(Side, Millis)> {
        if !self.device_seqs.is_empty() || self.game.is_over() {
            return None;
        }
        let (clock, player) = match &self.game {
            AnyMatch::Backgammon(m) => {
                let clock = m.clock()?;
                (clock, clock.running()?)
            }
            AnyMatch::Chess(m) => {
                let game = m.game();
                if !game.started() || game.result().is_some() {
                    return None;
                }
                let clock = game.clock();
                // The chess clock counts by colour: its side A is White.
                let player = match clock.running()? {
                    Side::A => m.white(),
                    Side::B => m.white().other(),
                };
                (clock, player)
            }
        };
        let running = clock.running()?;
        let since = self.game.now().max(clock.last_operation());
        if clock.pause().is_some()
            || clock.is_frozen()
            || clock.next_flag_at().is_none()
            || clock.view(running, at).flagged_at.is_some()
            || at <= since
        {
            return None;
        }
        let from = from.map_or(since, |f| f.max(since)).min(at);
        // What the clock took from the running side over the window: all its time left
        // (main and overtime to come), delay aside.
        let charged = clock.view(running, from).total - clock.view(running, at).total;
        (charged > Millis::ZERO).then_some((player, charged))
    }

    /// What the last restart's outage charged beyond its credit, while the director has
    /// not ruled on that clock and the match goes on.
    pub fn uncredited_outage(&self) -> Option<Uncredited> {
        self.uncredited.filter(|_| !self.game.is_over())
    }

    /// Gives `side`'s clock `credit` at `at`, in either game (the fold of a takeover's or
    /// a restart's credit, checked before); the game's time moves to `at`.
    pub(super) fn credit_clock(
        &mut self,
        side: Side,
        credit: Millis,
        at: Timestamp,
    ) -> Result<(), String> {
        match &mut self.game {
            AnyMatch::Backgammon(m) => m
                .credit_takeover(side, credit, at)
                .map_err(|e| e.to_string()),
            AnyMatch::Chess(m) => m
                .credit_takeover(side, credit, at)
                .map_err(|e| e.to_string()),
        }
    }

    /// Folds a director's ruling on `side`'s clock: it settles the outage left to him.
    pub(super) fn clock_ruled(&mut self, side: Side) {
        if self.uncredited.is_some_and(|u| u.side == side) {
            self.uncredited = None;
        }
    }
}

/// A span as the records write it: whole ms, never negative.
pub(super) fn whole_ms(m: Millis) -> u64 {
    u64::try_from(m.as_ms()).unwrap_or(0)
}
