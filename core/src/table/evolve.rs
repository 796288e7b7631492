//! The fold: one record's body into the table. Used by every path that changes a table —
//! planning a request emits each record through it, and a replay reads each record
//! through it — so what the server decides and what a verifier accepts cannot drift.

use std::collections::VecDeque;

use super::body::{AnomalyRecord, Body};
use super::dice::Draw;
use super::outage::whole_ms;
use super::owed::Owed;
use super::state::{AnyMatch, Table};
use crate::audit::Entry;
use crate::audit::{strict_hex, strict_hex32};
use crate::backgammon::{Change, DiceSource, DirectorAction, Event, Turn};
use crate::chess::{MatchEvent, SeriesEvent};
use crate::dice::{Position, Roll};
use crate::dice_check::validate_roll;
use crate::side::Side;
use crate::time::{Millis, Timestamp};

fn server_rolled(event: &Event) -> Option<(Side, Roll)> {
    match event.change {
        Change::Rolled {
            side,
            dice,
            source: DiceSource::Server,
            ..
        } => Some((side, dice)),
        _ => None,
    }
}

fn server_throw(event: &Event) -> Option<Roll> {
    match event.change {
        Change::OpeningThrow {
            throw,
            source: DiceSource::Server,
        } => Some(throw),
        _ => None,
    }
}

fn set_position(event: &MatchEvent) -> Option<u16> {
    match event {
        MatchEvent::Series(SeriesEvent::Position { sp, .. }) => Some(*sp),
        _ => None,
    }
}

impl Table {
    /// Folds the body of record `seq`. On error the table must be dropped (callers fold
    /// on a copy).
    pub(super) fn evolve_body(&mut self, body: &Body, seq: u64) -> Result<(), String> {
        let paid = self.pay(body)?;
        match body {
            Body::Dice(entry) => self.evolve_dice(entry, seq, paid)?,
            Body::Setup(_) => return Err("match.setup may only be the second record".into()),
            Body::DeviceInput(d) => {
                let last = self.device_seqs.get(&d.device).copied().unwrap_or(0);
                if d.seq != last + 1 {
                    return Err(format!(
                        "input {} of device {} after its input {last}",
                        d.seq, d.device
                    ));
                }
                self.device_seqs.insert(d.device.clone(), d.seq);
            }
            Body::Anomaly(a) => {
                if !paid {
                    return Err(format!(
                        "an anomaly the dice watch did not raise: {}",
                        a.message
                    ));
                }
                self.anomalies = (self.anomalies.0 + 1, a.message.clone());
            }
            Body::ChessRuling(_) => {
                if !matches!(self.game, AnyMatch::Chess(_)) {
                    return Err("a chess ruling in a backgammon match".into());
                }
            }
            Body::Takeover(t) => {
                // Each takeover's lease is newer than the last: two nodes never wrote the
                // log under one epoch.
                if t.epoch <= self.epoch {
                    return Err(format!(
                        "a takeover by {} with epoch {} after epoch {}",
                        t.node, t.epoch, self.epoch
                    ));
                }
                match (t.credit_ms, t.side) {
                    (None, None) => {}
                    (Some(credit), Some(side)) => {
                        self.credit_takeover(side, credit, Timestamp(t.at))?;
                    }
                    _ => {
                        return Err(format!(
                            "a takeover by {} with a credit and no side, or a side and no credit",
                            t.node
                        ));
                    }
                }
                self.epoch = t.epoch;
            }
            Body::Restart(r) => self.credit_restart(r)?,
            Body::Renamed(r) => {
                let now = &self.game.players()[r.side.index()];
                if *now != r.was {
                    return Err(format!(
                        "a rename of {} from \"{}\", whose name is \"{now}\"",
                        r.side, r.was
                    ));
                }
                if super::check_player_name(&r.name) != Ok(r.name.as_str()) || r.name == r.was {
                    return Err(format!("a rename to a name not allowed: \"{}\"", r.name));
                }
                self.game.rename(r.side, &r.name);
            }
            Body::Backgammon(event) => self.evolve_backgammon(event, paid)?,
            Body::Chess(event) => {
                let AnyMatch::Chess(m) = &mut self.game else {
                    return Err("a chess event in a backgammon match".into());
                };
                if set_position(event).is_some() && !paid {
                    return Err("a Chess960 position that was not drawn".into());
                }
                m.evolve(event).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    /// A takeover's credit for the outage (`docs/cluster.md`): only where one may be
    /// given ([`Table::takeover_credit_room`]), to the side whose clock runs, 1 ms to the
    /// room's bound; the game's time moves to the takeover.
    fn credit_takeover(&mut self, side: Side, credit: u64, at: Timestamp) -> Result<(), String> {
        let Some((running, charged)) = self.outage_charge(at, None) else {
            return Err(format!(
                "a takeover credit of {credit} ms where none may be given (a match with \
                 device inputs or over, no clock running unpaused, or no time since its \
                 last event)"
            ));
        };
        if side != running {
            return Err(format!(
                "a takeover credit to {side}, whose clock was not running ({running}'s was)"
            ));
        }
        let most = charged.min(super::MAX_TAKEOVER_CREDIT);
        let amount = i64::try_from(credit)
            .ok()
            .map(Millis::ms)
            .filter(|c| *c > Millis::ZERO && *c <= most)
            .ok_or_else(|| {
                format!(
                    "a takeover credit of {credit} ms: 1 to {} ms may be given here (at most \
                     {} ms, and no more than the time since the last event)",
                    most.as_ms(),
                    super::MAX_TAKEOVER_CREDIT.as_ms()
                )
            })?;
        self.credit_clock(side, amount, at)
    }

    /// Folds a restart's credit: `charged_ms` must be what the clock charged `side` over
    /// the outage (from `at - down_ms` to `at`, no earlier than the last event), and the
    /// credit all of it up to [`super::MAX_RESTART_CREDIT`]; the rest is left to the
    /// director.
    fn credit_restart(&mut self, r: &super::RestartRecord) -> Result<(), String> {
        let at = Timestamp(r.at);
        let down = i64::try_from(r.down_ms)
            .map(Millis::ms)
            .map_err(|_| format!("a restart after {} ms of silence", r.down_ms))?;
        let charged = self
            .outage_charge(at, Some(at - down))
            .filter(|(side, _)| *side == r.side)
            .map(|(_, charged)| charged);
        let stated = charged.filter(|c| {
            whole_ms(*c) == r.charged_ms
                && whole_ms((*c).min(super::MAX_RESTART_CREDIT)) == r.credit_ms
        });
        let Some(charged) = stated else {
            return Err(format!(
                "a restart crediting {} ms of {} ms charged to {}: the clock says {} charged, \
                 credited up to {} ms",
                r.credit_ms,
                r.charged_ms,
                r.side,
                charged.map_or("nothing".into(), |c| format!("{} ms", c.as_ms())),
                super::MAX_RESTART_CREDIT.as_ms()
            ));
        };
        let credit = charged.min(super::MAX_RESTART_CREDIT);
        self.credit_clock(r.side, credit, at)?;
        self.uncredited = (charged > credit).then_some(super::Uncredited {
            side: r.side,
            ms: charged - credit,
            at,
        });
        Ok(())
    }

    /// Settles what the log owes with `body`, if it pays; true if it did. Any record
    /// that neither pays nor may come between is an error.
    fn pay(&mut self, body: &Body) -> Result<bool, String> {
        let Some(owed) = self.owed.as_mut() else {
            return Ok(false);
        };
        // An arm that pays in full falls through; one that pays in part returns.
        match (owed, body) {
            (Owed::Roll { side, dice }, Body::Backgammon(e)) => match server_rolled(e) {
                Some(played) if played == (*side, *dice) => {}
                Some((s, [a, b])) => {
                    return Err(format!(
                        "{s} played the server roll {a}-{b}, but {} was drawn for {side}",
                        fmt_roll(*dice)
                    ));
                }
                // Events that fell due before the roll come first.
                None => return Ok(false),
            },
            (Owed::Opening(throws), Body::Backgammon(e)) => match server_throw(e) {
                Some(t) if throws.front() == Some(&t) => {
                    throws.pop_front();
                    if !throws.is_empty() {
                        return Ok(true);
                    }
                }
                Some(t) => {
                    let drawn = throws.front().map_or("none".into(), |d| fmt_roll(*d));
                    return Err(format!(
                        "the opening throw {} is not the one drawn ({drawn})",
                        fmt_roll(t)
                    ));
                }
                None => return Ok(false),
            },
            (Owed::Position(sp), Body::Chess(e)) => match set_position(e) {
                Some(p) if p == *sp => {}
                Some(p) => {
                    return Err(format!("position {p} was set, but {sp} was drawn"));
                }
                None => return Ok(false),
            },
            (
                Owed::Report { side, dice },
                Body::Dice(Entry::Reported {
                    side: s,
                    dice: reported,
                }),
            ) => {
                if (*side, *dice) != (*s, *reported) {
                    return Err(format!(
                        "{s}'s reported dice {} are not the roll {} of {side}",
                        fmt_roll(*reported),
                        fmt_roll(*dice)
                    ));
                }
                let raised: VecDeque<AnomalyRecord> = self
                    .monitor
                    .observe_roll(*side, *dice)
                    .into_iter()
                    .map(|a| AnomalyRecord {
                        message: a.to_string(),
                        p_value: a.p_value,
                    })
                    .collect();
                self.owed = (!raised.is_empty()).then_some(Owed::Anomalies(raised));
                return Ok(true);
            }
            (Owed::Anomalies(raised), Body::Anomaly(a)) => {
                if raised.front() != Some(a) {
                    let expected = raised.front().map_or("none", |r| r.message.as_str());
                    return Err(format!(
                        "the anomaly \"{}\" is not the one the dice watch raised (\"{expected}\")",
                        a.message
                    ));
                }
                raised.pop_front();
                if !raised.is_empty() {
                    return Ok(true);
                }
            }
            (owed, _) => return Err(owed.unpaid()),
        }
        self.owed = None;
        Ok(true)
    }

    /// Whatever the log still owes, as an error: a complete log owes nothing.
    pub(super) fn settled(&self) -> Result<(), String> {
        self.owed.as_ref().map_or(Ok(()), |o| Err(o.unpaid()))
    }

    fn evolve_dice(&mut self, entry: &Entry, seq: u64, paid: bool) -> Result<(), String> {
        let server_dice = self.game.dice_source() == Some(DiceSource::Server);
        let not_here = |what: &str| Err(format!("{what} in a match without server dice"));
        match entry {
            Entry::MatchOpened { .. } => {
                return Err("match.opened may only be the first record".into());
            }
            Entry::PlayerSeed { side, seed } => {
                let bytes = strict_hex(seed, "the seed")?;
                self.dice
                    .add_player_seed(*side, &bytes)
                    .map_err(|e| e.to_string())?;
            }
            Entry::PlayerCommit { side, commitment } => {
                let bytes = strict_hex32(commitment, "the player's commitment")?;
                self.dice
                    .commit_player_seed(*side, bytes)
                    .map_err(|e| e.to_string())?;
            }
            Entry::PlayerReveal { side, seed, salt } => {
                let bytes = strict_hex(seed, "the seed")?;
                let salt = salt
                    .as_deref()
                    .map(|s| strict_hex(s, "the salt"))
                    .transpose()?;
                self.dice
                    .reveal_player_seed(*side, &bytes, salt.as_deref())
                    .map_err(|e| e.to_string())?;
            }
            Entry::RevealDue {
                by,
                reason,
                article,
            } => self.evolve_reveal_due(*by, reason.as_deref(), article.as_deref())?,
            Entry::RollQueued { .. } if !server_dice => return not_here("a queued server roll"),
            Entry::RollQueued { side } => self.evolve_roll_queued(*side)?,
            Entry::Roll { .. } if !server_dice => return not_here("a server roll"),
            Entry::Roll {
                side,
                dice,
                game,
                roll,
            } => self.evolve_roll(seq, *side, *dice, *game, *roll)?,
            Entry::Opening { throws, game } => {
                if !server_dice {
                    return not_here("a server opening roll");
                }
                opening_throws(throws)?;
                let named = game.map(|game| Position::Opening { game });
                self.dice
                    .record(seq, Draw::Opening(throws.clone()), None, named)?;
                self.owed = Some(Owed::Opening(throws.iter().copied().collect()));
            }
            Entry::Chess960 { sp } => self.evolve_chess960(seq, *sp)?,
            // Checked against the roll it reports, and watched, as it paid for it.
            Entry::Reported { .. } if paid => {}
            Entry::Reported { .. } => {
                return Err("reported dice with no physically rolled dice before them".into());
            }
            Entry::ChainCommit { .. }
            | Entry::Asked { .. }
            | Entry::Link { .. }
            | Entry::LinkDue { .. } => self.evolve_live(entry)?,
            Entry::Reveal { server_seed } => {
                if !self.game.is_over() {
                    return Err("the server seed was revealed before the match was over".into());
                }
                self.dice
                    .reveal(server_seed)
                    .map_err(|e| match e.draw_seq {
                        Some(seq) => format!("the draw of record {seq}: {}", e.reason),
                        None => e.reason,
                    })?;
            }
        }
        Ok(())
    }

    /// A reveal deadline: the first comes bare with the first commitment; a later one
    /// is the director's extension and carries his reason and article.
    fn evolve_reveal_due(
        &mut self,
        by: i64,
        reason: Option<&str>,
        article: Option<&str>,
    ) -> Result<(), String> {
        let extension = self.dice.reveal_due().is_some();
        let ruled = [reason, article]
            .iter()
            .all(|f| f.is_some_and(|t| !t.trim().is_empty()));
        let unruled = reason.is_none() && article.is_none();
        if (extension && !ruled) || (!extension && !unruled) {
            return Err(
                "the first reveal deadline comes with the first commitment, and only \
                 the director extends it, with a reason and an article"
                    .into(),
            );
        }
        self.dice.set_reveal_due(Timestamp(by))
    }

    /// A server roll queued for `side` while the opponent moves, drawn at the opponent's
    /// press (4.1 (v)(a)); one at a time.
    fn evolve_roll_queued(&mut self, side: Side) -> Result<(), String> {
        let opponent_moving = matches!(self.game.to_move_phase(),
            Some(Turn::Moving { side: mover, .. }) if mover == side.other());
        if let Some(queued) = self.queued_roll {
            return Err(format!(
                "a roll is already queued for {queued}: it is drawn at the opponent's press (4.1 (v)(a))"
            ));
        }
        if !opponent_moving {
            return Err(format!(
                "a roll queued for {side} when it is not the opponent's move (4.1 (v)(a))"
            ));
        }
        self.queued_roll = Some(side);
        Ok(())
    }

    /// A server roll for `side`: recorded with the dice and owed to the match as the
    /// event that follows it.
    fn evolve_roll(
        &mut self,
        seq: u64,
        side: Side,
        dice: [u8; 2],
        game: Option<u16>,
        roll: Option<u32>,
    ) -> Result<(), String> {
        if self.queued_roll.is_some_and(|q| q != side) {
            return Err(format!(
                "{side} rolled while the opponent's roll was queued"
            ));
        }
        self.queued_roll = None;
        validate_roll(dice).map_err(|e| format!("a server roll: {e}"))?;
        let named = game
            .zip(roll)
            .map(|(game, roll)| Position::Roll { game, side, roll });
        if named.is_none() && (game.is_some() || roll.is_some()) {
            return Err("a roll names its game and roll number together".into());
        }
        self.dice.record(seq, Draw::Roll(dice), Some(side), named)?;
        self.owed = Some(Owed::Roll { side, dice });
        Ok(())
    }

    /// A Chess960 start position drawn by the dice; owed to the match as its setup.
    fn evolve_chess960(&mut self, seq: u64, sp: u16) -> Result<(), String> {
        let chess960 = matches!(&self.game, AnyMatch::Chess(m) if m.settings().chess960);
        if !chess960 {
            return Err("a Chess960 draw in a match that is not Chess960".into());
        }
        if sp >= 960 {
            return Err(format!("Chess960 positions are 0 to 959, not {sp}"));
        }
        self.dice.record(seq, Draw::Chess960(sp), None, None)?;
        self.owed = Some(Owed::Position(sp));
        Ok(())
    }

    fn evolve_backgammon(&mut self, event: &Event, paid: bool) -> Result<(), String> {
        if let Change::Ruled {
            action: DirectorAction::AdjustTime { side, .. } | DirectorAction::SetTime { side, .. },
            ..
        } = event.change
        {
            // The director has ruled on that clock: the outage left to him is settled.
            self.clock_ruled(side);
        }
        let AnyMatch::Backgammon(m) = &mut self.game else {
            return Err("a backgammon event in a chess match".into());
        };
        let dice = m.dice();
        let source = match event.change {
            Change::Rolled { source, .. } | Change::OpeningThrow { source, .. } => Some(source),
            _ => None,
        };
        if matches!(event.change, Change::RollInvalid { .. }) && dice == DiceSource::Server {
            return Err(
                "a server roll was voided: server dice are never drawn again (4.1 (iv))".into(),
            );
        }
        if matches!(
            event.change,
            Change::GameEnded { .. } | Change::MatchEnded { .. }
        ) {
            // A roll queued in a game that ended is not drawn.
            self.queued_roll = None;
        }
        if let Some(source) = source {
            if source != dice {
                return Err(format!(
                    "{source:?} dice in a match of {dice:?} dice (backgammon 4.1)"
                ));
            }
            if source == DiceSource::Server && !paid {
                return Err("server dice that were not drawn".into());
            }
        }
        m.evolve(event).map_err(|e| e.to_string())?;
        if let Change::Rolled {
            side,
            dice,
            source: DiceSource::Physical,
            ..
        } = event.change
        {
            self.owed = Some(Owed::Report { side, dice });
        }
        Ok(())
    }
}

/// A server opening roll as drawn: dice 1 to 6, ties thrown again until the last throw,
/// which differs (backgammon §3).
fn opening_throws(throws: &[Roll]) -> Result<(), String> {
    let Some((last, ties)) = throws.split_last() else {
        return Err("an opening roll with no throw".into());
    };
    for t in throws {
        validate_roll(*t).map_err(|e| format!("an opening throw: {e}"))?;
    }
    if let Some(t) = ties.iter().find(|t| t[0] != t[1]) {
        return Err(format!(
            "the opening throw {} decided, but more throws follow it",
            fmt_roll(*t)
        ));
    }
    if last[0] == last[1] {
        return Err(format!(
            "the opening roll ends on a tie ({}): it is thrown again (backgammon §3)",
            fmt_roll(*last)
        ));
    }
    Ok(())
}

fn fmt_roll([a, b]: Roll) -> String {
    format!("{a}-{b}")
}
