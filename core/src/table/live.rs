//! Live dice as a match log records them: each player's chain (`dice.chain`), the draw
//! asked for (`dice.asked`), the links given for it (`dice.link`), its deadline
//! (`dice.link_due`). The dice themselves are drawn by [`super::TableDice`] once both
//! links are in (`docs/dice.md`, "Live dice").
//!
//! The order that leaves nobody a choice: a link is taken only for a draw already asked
//! for — a roll asked after the roller's cube decision, an opening due — so nobody can
//! compute a roll before it is asked for; once asked, a draw is never dropped, and the
//! only thing a player can still do is withhold his link, which costs him the match at
//! the deadline unless the director rules otherwise.

use super::links::{Asked, LINK_WINDOW};
use super::state::{AnyMatch, Table};
use crate::audit::Entry;
use crate::audit::strict_hex32;
use crate::backgammon::{Command, DiceSource, Turn};
use crate::dice::DiceVersion;
use crate::time::Timestamp;

/// Live dice are for backgammon with server dice, construction 2 or later: a chess
/// match's one Chess960 draw and dice rolled at the table have no roll to add a link to.
pub(super) fn check_live_setup(game: &AnyMatch, version: DiceVersion) -> Result<(), String> {
    match game {
        AnyMatch::Backgammon(m) if m.dice() == DiceSource::Server && version != DiceVersion::V1 => {
            Ok(())
        }
        AnyMatch::Backgammon(_) => {
            Err("live dice are server dice: not with dice rolled at the table".into())
        }
        AnyMatch::Chess(_) => {
            Err("live dice are for backgammon: a chess match has no rolls".into())
        }
    }
}

impl Table {
    /// Folds a live dice record: the dice keep the chains and the draw in waiting; the
    /// game is asked whether it stands for the draw asked for.
    pub(super) fn evolve_live(&mut self, entry: &Entry) -> Result<(), String> {
        match entry {
            Entry::ChainCommit {
                side,
                anchor,
                length,
            } => {
                let anchor = strict_hex32(anchor, "the chain's anchor")?;
                self.dice
                    .live_mut()
                    .map_err(|e| e.to_string())?
                    .commit(*side, anchor, *length)
            }
            Entry::Asked { side, at, due } => {
                let (at, due) = (Timestamp(*at), Timestamp(*due));
                if due != at + LINK_WINDOW {
                    return Err(format!(
                        "a draw's links are due {} s after it is asked for",
                        LINK_WINDOW.as_ms() / 1000
                    ));
                }
                let asked = side.map_or(Asked::Opening, Asked::Roll);
                self.stands_for(asked, at)?;
                self.dice
                    .live_mut()
                    .map_err(|e| e.to_string())?
                    .ask(asked, at, due)
            }
            Entry::Link { side, link } => {
                let link = strict_hex32(link, "the link")?;
                self.dice
                    .live_mut()
                    .and_then(|live| live.give(*side, link))
                    .map_err(|e| e.to_string())
            }
            Entry::LinkDue {
                by,
                reason,
                article,
            } => {
                if reason.trim().is_empty() || article.trim().is_empty() {
                    return Err(
                        "an extension of the links' deadline needs a reason and an article".into(),
                    );
                }
                self.dice
                    .live_mut()
                    .map_err(|e| e.to_string())?
                    .extend(Timestamp(*by))
            }
            _ => unreachable!("only live records are folded here"),
        }
    }

    /// Whether the game stands for `asked` at `at`: the side's roll in his turn (4.1),
    /// or the opening of a game waiting for it (§3).
    pub(super) fn stands_for(&self, asked: Asked, at: Timestamp) -> Result<(), String> {
        let AnyMatch::Backgammon(m) = &self.game else {
            return Err("live dice in a chess match".into());
        };
        match asked {
            Asked::Roll(side) => {
                let on_roll = matches!(self.game.to_move_phase(),
                    Some(Turn::OnRoll { side: s, .. }) if s == side);
                if !on_roll {
                    return Err(format!("{side}'s roll asked for when he is not on roll"));
                }
                m.may_roll(side, at).map_err(|e| e.to_string())
            }
            Asked::Opening => {
                let throw = Command::OpeningThrow {
                    throw: [1, 2],
                    source: DiceSource::Server,
                };
                m.decide(&throw, at).map(|_| ()).map_err(|e| e.to_string())
            }
        }
    }
}
