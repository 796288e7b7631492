//! Deciding live dice (`docs/dice.md`, "Live dice"): a draw is asked for, waits for
//! both players' links with the roller's clock stopped, and is drawn in the append that
//! brings the second link. Past the deadline the withholder forfeits.

use super::Draft;
use crate::audit::Entry;
use crate::backgammon::{Command, DirectorAction, Ruling};
use crate::clock::PauseReason;
use crate::dice::{DiceError, Link};
use crate::side::Side;
use crate::table::body::{Body, ChessRuling};
use crate::table::links::{Asked, LINK_WINDOW};
use crate::table::request::Refusal;
use crate::table::state::{AnyMatch, Table};
use crate::time::Timestamp;

/// The article an automatic forfeit for a withheld link applies: the director's forfeit
/// of a match (2.3), as for a seed never revealed.
pub const WITHHELD_LINK_ARTICLE: &str = "2.3";

/// What a deadline moved for a server's outage applies: nobody is charged for time the
/// server was not there (the design's principle 5, as a restart's clock credit).
pub const OUTAGE_ARTICLE: &str = "design principle 5 (docs/server.md, \"A restart\")";

impl Draft {
    /// Whether a live draw was asked for and waits for links.
    pub(super) fn live_draw_waits(&self) -> bool {
        self.table
            .dice
            .live()
            .is_some_and(|l| l.pending().is_some())
    }

    /// While a draw waits for links nothing is played: the roll stands asked for (after
    /// the roller's cube decision), so no double, move or press can come between it and
    /// its dice. Time passing, the director's actions and calls for him go on.
    pub(super) fn while_links_awaited(&self, command: &Command) -> Result<(), Refusal> {
        if let Command::Pause {
            reason: PauseReason::AwaitingLinks,
        } = command
        {
            return Err(Refusal::invalid(
                "pause reason: only the server stops a clock to wait for live dice links",
            ));
        }
        if !self.live_draw_waits() {
            return Ok(());
        }
        match command {
            Command::Tick
            | Command::Director { .. }
            | Command::Request { .. }
            | Command::Appeal { .. }
            | Command::CheckIn { .. } => Ok(()),
            Command::Pause { reason } if *reason != PauseReason::AwaitingLinks => Ok(()),
            Command::Resume if !self.paused_for_links() => Ok(()),
            _ => Err(Refusal::rule(
                "live dice: a draw waits for the players' links; nothing is played until it is drawn",
            )),
        }
    }

    /// Whether the clock stands because a draw waits for links.
    fn paused_for_links(&self) -> bool {
        match &self.table.game {
            AnyMatch::Backgammon(m) => m
                .clock()
                .and_then(|c| c.pause())
                .is_some_and(|p| p.reason == PauseReason::AwaitingLinks),
            AnyMatch::Chess(_) => false,
        }
    }

    /// Whether a running clock charges someone now.
    fn clock_runs(&self) -> bool {
        match &self.table.game {
            AnyMatch::Backgammon(m) => m
                .clock()
                .is_some_and(|c| c.running().is_some() && c.pause().is_none()),
            AnyMatch::Chess(_) => false,
        }
    }

    /// A draw is asked for: recorded with its deadline, and the running clock stopped
    /// until the links are in (nobody is charged for the network).
    pub(super) fn ask_draw(&mut self, asked: Asked, now: Timestamp) -> Result<(), Refusal> {
        self.table.dice.ready().map_err(Refusal::rule)?;
        if self.live_draw_waits() {
            return Err(Refusal::rule(
                "live dice: a draw already waits for the players' links",
            ));
        }
        self.emit(Body::Dice(Entry::Asked {
            side: match asked {
                Asked::Roll(side) => Some(side),
                Asked::Opening => None,
            },
            at: now.as_ms(),
            due: (now + LINK_WINDOW).as_ms(),
        }))?;
        if self.clock_runs() {
            let pause = Command::Pause {
                reason: PauseReason::AwaitingLinks,
            };
            self.backgammon_command(&pause, now)?;
        }
        Ok(())
    }

    /// `side` commits to his chain.
    pub(super) fn commit_chain(
        &mut self,
        side: Side,
        anchor: Link,
        length: u32,
    ) -> Result<(), Refusal> {
        self.table
            .dice
            .live()
            .ok_or_else(|| Refusal::invalid(DiceError::NotLive(false).to_string()))?;
        if !(1..=crate::dice::MAX_CHAIN_LENGTH).contains(&length) {
            return Err(Refusal::invalid(format!(
                "length: a chain has 1 to {} links, not {length}",
                crate::dice::MAX_CHAIN_LENGTH
            )));
        }
        self.emit(Body::Dice(Entry::ChainCommit {
            side,
            anchor: hex::encode(anchor),
            length,
        }))
    }

    /// `side` gives his link; with nothing in waiting, it asks for the draw it is for.
    /// The draw is made as soon as both links are in.
    pub(super) fn give_link(
        &mut self,
        side: Side,
        link: Link,
        now: Timestamp,
    ) -> Result<(), Refusal> {
        let live = self
            .table
            .dice
            .live()
            .ok_or_else(|| Refusal::invalid(DiceError::NotLive(false).to_string()))?;
        if live.pending().is_none() {
            let early = matches!(self.table.game.to_move_phase(),
                Some(crate::backgammon::Turn::Moving { side: mover, .. }) if mover == side.other());
            let asked = [Asked::Roll(side), Asked::Opening]
                .into_iter()
                .find(|a| self.table.stands_for(*a, now).is_ok())
                .ok_or_else(|| match early {
                    true => Refusal::rule(format!(
                        "live dice: player {side}'s roll asked for during the opponent's move is \
                         queued without a link (send the roll without one): his link is taken \
                         once the roll is asked for, at the opponent's press"
                    )),
                    false => Refusal::rule(DiceError::NothingAsked.to_string()),
                })?;
            self.ask_draw(asked, now)?;
        }
        // Checked first, so that a wrong link is a wrong value (INVALID_ARGUMENT) and a
        // link given twice the rules' refusal.
        match self.table.dice.live().expect("live").check_link(side, link) {
            Err(e @ DiceError::LinkMismatch(_)) => return Err(Refusal::invalid(e.to_string())),
            Err(e) => return Err(Refusal::rule(e.to_string())),
            Ok(()) => {}
        }
        self.emit(Body::Dice(Entry::Link {
            side,
            link: hex::encode(link),
        }))?;
        self.draw_if_linked(now)
    }

    /// Draws the draw in waiting once both links are in: the clock runs again, then the
    /// dice are drawn and played.
    fn draw_if_linked(&mut self, now: Timestamp) -> Result<(), Refusal> {
        let Some(pending) = self.table.dice.live().and_then(|l| l.pending()) else {
            return Ok(());
        };
        if pending.both().is_none() {
            return Ok(());
        }
        let asked = pending.asked;
        if self.paused_for_links() {
            self.backgammon_command(&Command::Resume, now)?;
        }
        match asked {
            Asked::Opening => self.draw_opening(now),
            Asked::Roll(side) => self.draw_roll(side, now),
        }
    }

    /// The director gives the players until `by` for their links (`dice.link_due`).
    pub(super) fn extend_links(
        &mut self,
        by: Timestamp,
        ruling: &ChessRuling,
    ) -> Result<(), Refusal> {
        self.extension_ruling(ruling, "the links' deadline")?;
        self.emit(Body::Dice(Entry::LinkDue {
            by: by.as_ms(),
            reason: ruling.reason.clone(),
            article: ruling.article.clone(),
        }))
    }

    /// A server outage of `down_ms` while a draw waited for links, its deadline not yet
    /// passed when the server went down: the deadline moves by as much
    /// (`dice.link_due`), so nobody forfeits for time the server was not there to take
    /// his link. A deadline already past when it went down is caught up at its instant.
    pub(super) fn outage_moves_link_deadline(
        &mut self,
        now: Timestamp,
        down_ms: u64,
    ) -> Result<(), Refusal> {
        let Some(pending) = self.table.dice.live().and_then(|l| l.pending()) else {
            return Ok(());
        };
        let down = crate::time::Millis::ms(i64::try_from(down_ms).unwrap_or(i64::MAX));
        if self.table.game.is_over()
            || pending.due <= now - down
            || down <= crate::time::Millis::ZERO
        {
            return Ok(());
        }
        self.emit(Body::Dice(Entry::LinkDue {
            by: (pending.due + down).as_ms(),
            reason: format!(
                "the server was down {} s while the draw waited for links: its deadline moves by as much",
                down_ms.div_ceil(1000)
            ),
            article: OUTAGE_ARTICLE.into(),
        }))
    }

    /// Past the deadline, a player who withheld his link — the other gave his — forfeits
    /// the match, at the deadline's instant, unless the director extended it before. With
    /// both links missing nobody is singled out: the director is alerted and rules.
    pub(super) fn link_deadline(&mut self, now: Timestamp) -> Result<(), Refusal> {
        let Some(pending) = self.table.dice.live().and_then(|l| l.pending()) else {
            return Ok(());
        };
        let due = pending.due;
        let Some(loser) = pending.withholder().filter(|_| now >= due) else {
            return Ok(());
        };
        if self.table.game.is_over() {
            return Ok(());
        }
        let forfeit = Command::Director {
            action: DirectorAction::ForfeitMatch { loser },
            ruling: Ruling::new(
                format!(
                    "live dice: player {loser} did not give his link for the draw by its deadline"
                ),
                WITHHELD_LINK_ARTICLE,
            ),
        };
        // At its instant, unless the director acted after it (never before his record).
        self.backgammon_command(&forfeit, due.max(self.table.game.now()))
    }
}

impl Table {
    /// The next instant something falls due by itself: the game's, or the deadline of a
    /// draw that waits for one player's link.
    pub fn next_due(&self) -> Option<Timestamp> {
        let links = self
            .dice
            .live()
            .and_then(|l| l.pending())
            .filter(|p| p.withholder().is_some())
            .filter(|_| !self.game.is_over())
            .map(|p| p.due);
        match (self.game.next_due(), links) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
