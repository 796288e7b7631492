//! Live dice as data: the players' committed chains, the draw asked for and the links
//! given for it ([`LiveLinks`]), kept by [`TableDice`](super::TableDice). The rules that
//! take them from a match's log, and the order that leaves nobody a choice, are in
//! `live.rs`; these types sit below both the dice and the table so neither depends on
//! the file that folds the table's records.

use crate::dice::{Commitment, DiceError, Link, MAX_CHAIN_LENGTH, link_hash};
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// How long the players' clients have to give their links once a draw is asked for:
/// they give them by themselves within a round trip, so a minute means a client that is
/// gone, not a slow one. Past it the withholder forfeits unless the director rules.
pub const LINK_WINDOW: Millis = Millis::secs(60);

/// What a live draw was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// The opening roll of the next game.
    Opening,
    /// `side`'s roll.
    Roll(Side),
}

/// A draw asked for and waiting for links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingDraw {
    /// What is to be drawn.
    pub asked: Asked,
    /// When it was asked for.
    pub at: Timestamp,
    /// When the links are due.
    pub due: Timestamp,
    /// The links given so far, A then B.
    pub links: [Option<Link>; 2],
}

impl PendingDraw {
    /// The first player whose link is missing, A first.
    pub fn missing(&self) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| self.links[s.index()].is_none())
    }

    /// Both links, once both are in.
    pub fn both(&self) -> Option<[Link; 2]> {
        Some([self.links[0]?, self.links[1]?])
    }

    /// Both links, or the player whose link the draw still waits for.
    pub fn both_links(&self) -> Result<[Link; 2], DiceError> {
        self.both()
            .ok_or_else(|| DiceError::LinkPending(self.missing().expect("a link is missing")))
    }

    /// The player who withholds his link: the one missing when the other gave his. With
    /// both missing, nobody (the director rules); with both in, nobody.
    pub fn withholder(&self) -> Option<Side> {
        let given = self.links.iter().filter(|l| l.is_some()).count();
        self.missing().filter(|_| given == 1)
    }
}

/// A committed chain: the last value made public (the anchor, then each link given) and
/// how many links are left.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ChainHead {
    head: Link,
    left: u32,
}

/// The players' chains and the draw in waiting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveLinks {
    match_id: String,
    server: Commitment,
    chains: [Option<ChainHead>; 2],
    /// Each player's first anchor: what his client kept, to find his chain in a log.
    anchors: [Option<Link>; 2],
    pending: Option<PendingDraw>,
}

impl LiveLinks {
    /// A match with live dice, bound to its id and the server's commitment.
    pub fn new(match_id: &str, server: Commitment) -> LiveLinks {
        LiveLinks {
            match_id: match_id.to_string(),
            server,
            chains: [None, None],
            anchors: [None, None],
            pending: None,
        }
    }

    /// `side` commits to a chain of `length` links ending at `anchor`: once at set-up, and
    /// again only when his chain is spent.
    pub fn commit(&mut self, side: Side, anchor: Link, length: u32) -> Result<(), String> {
        if !(1..=MAX_CHAIN_LENGTH).contains(&length) {
            return Err(format!(
                "a chain has 1 to {MAX_CHAIN_LENGTH} links, not {length}"
            ));
        }
        if self.chains[side.index()]
            .as_ref()
            .is_some_and(|c| c.left > 0)
        {
            return Err(format!(
                "player {side} is committed to a chain with links left: a new one only once it is spent"
            ));
        }
        self.chains[side.index()] = Some(ChainHead {
            head: anchor,
            left: length,
        });
        self.anchors[side.index()].get_or_insert(anchor);
        Ok(())
    }

    /// Whether a draw could be asked for: both chains committed, with links left.
    pub fn ready(&self) -> Result<(), DiceError> {
        for side in Side::BOTH {
            if self.chains[side.index()]
                .as_ref()
                .is_none_or(|c| c.left == 0)
            {
                return Err(DiceError::ChainPending(side));
            }
        }
        Ok(())
    }

    /// A draw is asked for at `at`, its links due by `due`.
    pub fn ask(&mut self, asked: Asked, at: Timestamp, due: Timestamp) -> Result<(), String> {
        if let Some(p) = &self.pending {
            return Err(format!(
                "a draw ({:?}) is already waiting for links: one draw at a time",
                p.asked
            ));
        }
        self.ready().map_err(|e| e.to_string())?;
        if due <= at {
            return Err("a draw's links are due after it is asked for".into());
        }
        self.pending = Some(PendingDraw {
            asked,
            at,
            due,
            links: [None, None],
        });
        Ok(())
    }

    /// `side` gives his link for the draw in waiting: it must hash to the last value of
    /// his chain made public.
    pub fn give(&mut self, side: Side, link: Link) -> Result<(), DiceError> {
        self.check_link(side, link)?;
        let chain = self.chains[side.index()].as_mut().expect("checked");
        chain.head = link;
        chain.left -= 1;
        let pending = self.pending.as_mut().expect("checked");
        pending.links[side.index()] = Some(link);
        Ok(())
    }

    /// Whether [`give`](Self::give) would take `side`'s `link`, changing nothing.
    pub fn check_link(&self, side: Side, link: Link) -> Result<(), DiceError> {
        let pending = self.pending.as_ref().ok_or(DiceError::NothingAsked)?;
        if pending.links[side.index()].is_some() {
            return Err(DiceError::LinkGiven(side));
        }
        let chain = self.chains[side.index()]
            .as_ref()
            .filter(|c| c.left > 0)
            .ok_or(DiceError::ChainPending(side))?;
        if link_hash(&self.server, &self.match_id, side, &link) != chain.head {
            return Err(DiceError::LinkMismatch(side));
        }
        Ok(())
    }

    /// The links are due by `by` instead (the director's extension): only later.
    pub fn extend(&mut self, by: Timestamp) -> Result<(), String> {
        let pending = self
            .pending
            .as_mut()
            .ok_or("no draw is waiting for links: there is no deadline to extend")?;
        if by <= pending.due {
            return Err(format!(
                "the links were due by {} ms: a new deadline is later, not {} ms",
                pending.due.as_ms(),
                by.as_ms()
            ));
        }
        pending.due = by;
        Ok(())
    }

    /// The draw in waiting, if any.
    pub fn pending(&self) -> Option<&PendingDraw> {
        self.pending.as_ref()
    }

    /// The draw of `asked`'s kind, taken now that both links are in: its links.
    pub fn take(&mut self, asked: Asked) -> Result<[Link; 2], String> {
        let pending = self
            .pending
            .as_ref()
            .ok_or("a live draw that nobody asked for")?;
        if pending.asked != asked {
            return Err(format!(
                "the draw made ({asked:?}) is not the one asked for ({:?})",
                pending.asked
            ));
        }
        let links = pending.both_links().map_err(|e| e.to_string())?;
        self.pending = None;
        Ok(links)
    }

    /// The anchor `side` first committed to: the value his client kept, so that he can
    /// tell his log from a twin's (`baffle audit verify --player-commit`).
    pub fn anchor(&self, side: Side) -> Option<Link> {
        self.anchors[side.index()]
    }

    /// The last public value of `side`'s chain (the anchor, or the last link given) and
    /// how many links are left: what his client needs to know which link comes next.
    pub fn chain(&self, side: Side) -> Option<(Link, u32)> {
        self.chains[side.index()].as_ref().map(|c| (c.head, c.left))
    }
}
