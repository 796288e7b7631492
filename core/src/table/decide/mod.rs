//! Deciding a request: the records it adds, each emitted through the fold on a working
//! copy, so a request is accepted only if every record it writes would replay.

mod live;

use super::body::{
    AnomalyRecord, Body, ChessRuling, DeviceInputRecord, RestartRecord, TakeoverRecord,
};
use super::links::Asked;
use super::outage::whole_ms;
use super::owed::Owed;
use super::request::{DeviceInput, DeviceOutcome, Refusal, Request};
use super::state::{AnyMatch, MAX_LAG_CREDIT, Plan, Table};
use crate::audit::{Entry, Record, record_hash};
use crate::backgammon::{Command, DiceSource, Turn};
use crate::chess::{Chess960, MatchCommand};
use crate::device_time::charge_instant;
use crate::dice::{DiceError, DiceVersion, Position};
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// A plan being written: the working copy and the records so far.
struct Draft {
    table: Table,
    records: Vec<Record>,
}

impl Draft {
    fn new(table: &Table) -> Draft {
        Draft {
            table: table.clone(),
            records: Vec::new(),
        }
    }

    /// Chains `body` to the log and folds it in.
    fn emit(&mut self, body: Body) -> Result<(), Refusal> {
        let text = body.text();
        let (seq, prev) = (self.table.len, self.table.head);
        let hash = record_hash(seq, &prev, text.as_bytes());
        self.table.evolve_body(&body, seq).map_err(Refusal::rule)?;
        self.table.len += 1;
        self.table.head = hash;
        self.records.push(Record {
            seq,
            prev,
            body: text,
            hash,
        });
        Ok(())
    }

    fn done(self) -> Plan {
        Plan {
            table: self.table,
            records: self.records,
        }
    }

    fn backgammon(&self) -> Result<&crate::backgammon::Match, Refusal> {
        match &self.table.game {
            AnyMatch::Backgammon(m) => Ok(m),
            AnyMatch::Chess(_) => Err(Refusal::invalid(
                "command: this is a chess match: send command.chess",
            )),
        }
    }

    fn chess(&self) -> Result<&crate::chess::ChessMatch, Refusal> {
        match &self.table.game {
            AnyMatch::Chess(m) => Ok(m),
            AnyMatch::Backgammon(_) => Err(Refusal::invalid(
                "command.chess: this is a backgammon match",
            )),
        }
    }

    /// A refusal before the match's scheduled start says when it starts, in the
    /// director's words: one that only says the time line went backwards (the clock and
    /// lateness count from the start) is replaced, one that names a rule (a press before
    /// the start, 6.6) keeps it after the time.
    fn before_start(&self, refusal: Refusal, now: Timestamp) -> Refusal {
        let start = self.table.game.scheduled_start();
        if now >= start {
            return refusal;
        }
        let when = format!("the match starts at {}", start.time_of_day());
        if refusal.message.starts_with("time went backwards") {
            return Refusal::rule(format!(
                "{when}: nothing can be played or ruled in it before then"
            ));
        }
        if refusal.message.contains("has not started") {
            return Refusal {
                message: format!("{when}: {}", refusal.message),
                ..refusal
            };
        }
        refusal
    }

    fn server_dice(&self) -> Result<(), Refusal> {
        if self.backgammon()?.dice() != DiceSource::Server {
            return Err(Refusal::invalid(
                "this match uses physically rolled dice: report them",
            ));
        }
        Ok(())
    }

    /// A backgammon command's events, then what they owe: a physically rolled die's
    /// report and the anomalies the watch raises on it.
    fn backgammon_command(&mut self, command: &Command, now: Timestamp) -> Result<(), Refusal> {
        let events = self
            .backgammon()?
            .decide(command, now)
            .map_err(Refusal::backgammon)?;
        for e in events {
            self.emit(Body::Backgammon(e))?;
        }
        if let Some(Owed::Report { side, dice }) = self.table.owed.clone() {
            self.emit(Body::Dice(Entry::Reported { side, dice }))?;
        }
        while let Some(Owed::Anomalies(raised)) = self.table.owed.clone() {
            let anomaly: AnomalyRecord = raised.front().expect("never empty").clone();
            self.emit(Body::Anomaly(anomaly))?;
        }
        self.draw_queued_roll(now)
    }

    /// A roll queued before the opponent pressed is drawn now that his turn is over: it
    /// stood from when it was asked for (4.1 (v)(a)), and nobody saw it before.
    fn draw_queued_roll(&mut self, now: Timestamp) -> Result<(), Refusal> {
        let Some(side) = self.table.queued_roll else {
            return Ok(());
        };
        if self.live_draw_waits() {
            return Ok(());
        }
        if !matches!(self.table.game.to_move_phase(), Some(Turn::OnRoll { side: s, .. }) if s == side)
        {
            return Ok(());
        }
        self.server_roll(side, now)
    }

    fn server_opening(&mut self, now: Timestamp) -> Result<(), Refusal> {
        self.server_dice()?;
        if self.table.dice.live().is_some() {
            return self.ask_draw(Asked::Opening, now);
        }
        self.draw_opening(now)
    }

    /// Draws the opening roll and throws it.
    fn draw_opening(&mut self, now: Timestamp) -> Result<(), Refusal> {
        let (opening, at) = self.table.dice.next_opening().map_err(Refusal::rule)?;
        let game = match at {
            Some(Position::Opening { game }) => Some(game),
            _ => None,
        };
        self.emit(Body::Dice(Entry::Opening {
            throws: opening.throws.clone(),
            game,
        }))?;
        for throw in opening.throws {
            let command = Command::OpeningThrow {
                throw,
                source: DiceSource::Server,
            };
            self.backgammon_command(&command, now)?;
        }
        Ok(())
    }

    fn server_roll(&mut self, side: Side, now: Timestamp) -> Result<(), Refusal> {
        self.server_dice()?;
        // Asked first: an early roll is queued without the engine's Roll, so its turn is
        // checked here (anything due by now first).
        self.backgammon()?
            .may_roll(side, now)
            .map_err(Refusal::backgammon)?;
        // Asked for before the opponent pressed: queued, drawn at his press.
        let early = matches!(self.table.game.to_move_phase(),
            Some(Turn::Moving { side: mover, .. }) if mover == side.other());
        if early {
            return self.emit(Body::Dice(Entry::RollQueued { side }));
        }
        if self.table.dice.live().is_some() {
            return self.ask_draw(Asked::Roll(side), now);
        }
        self.draw_roll(side, now)
    }

    /// Draws `side`'s roll and rolls it.
    fn draw_roll(&mut self, side: Side, now: Timestamp) -> Result<(), Refusal> {
        let (dice, at) = self.table.dice.next_roll(side).map_err(Refusal::rule)?;
        let (game, roll) = match at {
            Some(Position::Roll { game, roll, .. }) => (Some(game), Some(roll)),
            _ => (None, None),
        };
        self.emit(Body::Dice(Entry::Roll {
            side,
            dice,
            game,
            roll,
        }))?;
        let command = Command::Roll {
            side,
            dice,
            source: DiceSource::Server,
        };
        self.backgammon_command(&command, now)
    }

    /// A chess command's events; a Chess960 match whose first game has just started
    /// gets its position drawn now if the arbiter has not drawn it before.
    fn chess_command(&mut self, command: &MatchCommand, now: Timestamp) -> Result<(), Refusal> {
        let events = self.chess()?.decide(command, now).map_err(Refusal::chess)?;
        for e in events {
            self.emit(Body::Chess(e))?;
        }
        self.draw_due_position(now)
    }

    /// A Chess960 match whose first game has started gets its position drawn as soon as
    /// nothing holds the dice back (a player's committed seed not yet revealed).
    fn draw_due_position(&mut self, now: Timestamp) -> Result<(), Refusal> {
        let AnyMatch::Chess(m) = &self.table.game else {
            return Ok(());
        };
        let due = m.settings().chess960 && m.series().position().is_none() && m.game().started();
        if due && self.table.dice.ready().is_ok() {
            self.chess_position(now)?;
        }
        Ok(())
    }

    /// Draws the Chess960 position and sets it.
    fn chess_position(&mut self, now: Timestamp) -> Result<(), Refusal> {
        // Asked first, so that a refusal names the rule (a match that is not Chess960,
        // a position already set) rather than the fold's objection to the draw.
        self.chess()?.may_set_position().map_err(Refusal::chess)?;
        let sp = self.table.dice.next_chess960().map_err(Refusal::rule)?;
        self.emit(Body::Dice(Entry::Chess960 { sp }))?;
        let position = Chess960::numbered(sp).expect("the stream draws 0..960");
        let events = self
            .chess()?
            .decide(&MatchCommand::Position(position), now)
            .map_err(Refusal::chess)?;
        for e in events {
            self.emit(Body::Chess(e))?;
        }
        Ok(())
    }

    /// The arbiter's ruling, recorded before the events of an arbiter's command
    /// (`required`), which needs one with a reason and an article; with anyone else's
    /// command nothing is recorded.
    fn ruling(&mut self, ruling: &Option<ChessRuling>, required: bool) -> Result<(), Refusal> {
        self.chess()?;
        if !required {
            return Ok(());
        }
        match ruling
            .as_ref()
            .filter(|r| !r.reason.trim().is_empty() && !r.article.trim().is_empty())
        {
            Some(r) => self.emit(Body::ChessRuling(r.clone())),
            None => Err(Refusal::invalid(
                "ruling: an arbiter action needs a reason and an article",
            )),
        }
    }

    /// Records what fell due by `now` while no server wrote (a flag at its instant, a
    /// break's end), as a tick would; true if anything did — then the clock did not
    /// simply run through the outage, and nothing is credited. A tick the rules refuse
    /// (a match not started) records nothing.
    fn catch_up(&mut self, now: Timestamp) -> bool {
        let before = self.records.len();
        let mut ticked = Draft {
            table: self.table.clone(),
            records: self.records.clone(),
        };
        if ticked.request_at(&Request::Tick, now).is_ok() {
            *self = ticked;
        }
        self.records.len() > before
    }

    fn request(&mut self, request: &Request, now: Timestamp) -> Result<(), Refusal> {
        self.request_at(request, now)
            .map_err(|refusal| self.before_start(refusal, now))
    }

    /// Routes one request to the step that decides it; each arm is one line so that the
    /// whole vocabulary of requests reads as a table.
    fn request_at(&mut self, request: &Request, now: Timestamp) -> Result<(), Refusal> {
        match request {
            Request::Tick => self.tick(now),
            Request::Backgammon(command) => {
                self.while_links_awaited(command)?;
                self.backgammon_command(command, now)
            }
            Request::CommitChain {
                side,
                anchor,
                length,
            } => self.commit_chain(*side, *anchor, *length),
            Request::DiceLink { side, link } => self.give_link(*side, *link, now),
            Request::ServerOpening => self.server_opening(now),
            Request::ServerRoll(side) => self.server_roll(*side, now),
            Request::Chess { command, ruling } => {
                let arbiters = matches!(command, MatchCommand::Game(c) if c.is_arbiters());
                self.ruling(ruling, arbiters)?;
                self.chess_command(command, now)
            }
            Request::ChessPosition { ruling } => {
                let required = match &self.table.game {
                    AnyMatch::Chess(m) => m.position_needs_ruling(now),
                    AnyMatch::Backgammon(_) => true,
                };
                self.ruling(ruling, required)?;
                self.chess_position(now)
            }
            Request::PlayerSeed { side, seed } => self.player_seed(*side, seed),
            Request::CommitSeed { side, commitment } => {
                self.emit(Body::Dice(Entry::PlayerCommit {
                    side: *side,
                    commitment: hex::encode(commitment),
                }))?;
                self.reveal_deadline(now)
            }
            Request::RevealSeed { side, seed, salt } => {
                self.reveal_seed(*side, seed, salt.as_deref(), now)
            }
            Request::ExtendReveal { window, ruling } => self.extend_reveal(*window, ruling, now),
            Request::Takeover {
                node,
                epoch,
                silent_ms,
            } => self.takeover(node, *epoch, *silent_ms, now),
            Request::Restart { down_ms } => self.restart(*down_ms, now),
            Request::Reveal => self.reveal_server_seed(),
            Request::RenamePlayer { side, name } => self.rename_player(*side, name),
        }
    }
}

/// The requests' steps that are more than a line, one method a request, in the order
/// `request_at` lists them.
impl Draft {
    /// The clock's tick: in backgammon a missed live-dice link falls due first.
    fn tick(&mut self, now: Timestamp) -> Result<(), Refusal> {
        match self.table.game {
            AnyMatch::Backgammon(_) => {
                self.link_deadline(now)?;
                self.backgammon_command(&Command::Tick, now)
            }
            AnyMatch::Chess(_) => self.chess_command(&MatchCommand::Tick, now),
        }
    }

    /// A player's clear seed (dice v1 only). The dice check each seed as its record is
    /// folded in (`evolve`); a length no match takes is refused first, as a value
    /// (INVALID_ARGUMENT).
    fn player_seed(&mut self, side: Side, seed: &[u8]) -> Result<(), Refusal> {
        if self.table.dice.version() != DiceVersion::V1 {
            return Err(Refusal::rule(DiceError::ClearSeed.to_string()));
        }
        super::dice::check_seed_length(DiceVersion::V1, seed)
            .map_err(|e| Refusal::invalid(e.to_string()))?;
        self.emit(Body::Dice(Entry::PlayerSeed {
            side,
            seed: hex::encode(seed),
        }))
    }

    /// A player's reveal of the seed they committed to; the position the reveal was
    /// awaited for is then drawn.
    fn reveal_seed(
        &mut self,
        side: Side,
        seed: &[u8],
        salt: Option<&[u8]>,
        now: Timestamp,
    ) -> Result<(), Refusal> {
        // A value no match takes is refused as a value (INVALID_ARGUMENT).
        self.table
            .dice
            .expected_commitment(side, seed, salt)
            .map_err(|e| Refusal::invalid(e.to_string()))?;
        self.emit(Body::Dice(Entry::PlayerReveal {
            side,
            seed: hex::encode(seed),
            salt: salt.map(hex::encode),
        }))?;
        self.draw_due_position(now)
    }

    /// The director extends whichever deadline is pending: the live links' if any, else
    /// the seeds' reveal.
    fn extend_reveal(
        &mut self,
        window: Millis,
        ruling: &ChessRuling,
        now: Timestamp,
    ) -> Result<(), Refusal> {
        if window <= Millis::ZERO || window > super::MAX_REVEAL_WINDOW {
            return Err(Refusal::invalid(format!(
                "an extension of a deadline (the seeds' reveal, or live dice links) is 1 s to {} s",
                super::MAX_REVEAL_WINDOW.as_ms() / 1000
            )));
        }
        let by = now + window;
        if self.table.dice.live().and_then(|l| l.pending()).is_some() {
            return self.extend_links(by, ruling);
        }
        if self.table.dice.reveal_due().is_none() {
            return Err(Refusal::rule(
                "no player's reveal is pending: there is no deadline to extend",
            ));
        }
        self.extension_ruling(ruling, "the reveal deadline")?;
        self.emit(Body::Dice(Entry::RevealDue {
            by: by.as_ms(),
            reason: Some(ruling.reason.clone()),
            article: Some(ruling.article.clone()),
        }))
    }

    /// A node takes the table over after `silent_ms` without a writer: what fell due
    /// meanwhile is caught up, and the player whose clock ran is credited the outage (up
    /// to `MAX_TAKEOVER_CREDIT`) when nothing fell due.
    fn takeover(
        &mut self,
        node: &str,
        epoch: u64,
        silent_ms: Option<u64>,
        now: Timestamp,
    ) -> Result<(), Refusal> {
        if let Some(silent) = silent_ms {
            self.outage_moves_link_deadline(now, silent)?;
        }
        let fell_due = self.catch_up(now);
        let record = TakeoverRecord {
            at: now.as_ms(),
            epoch,
            node: node.to_owned(),
            credit_ms: None,
            side: None,
        };
        let credit = silent_ms
            .filter(|_| !fell_due)
            .and_then(|silent| self.takeover_credit(silent, now));
        if let Some((side, credit)) = credit {
            let mut credited = Draft {
                table: self.table.clone(),
                records: self.records.clone(),
            };
            let with = TakeoverRecord {
                credit_ms: Some(credit),
                side: Some(side),
                ..record.clone()
            };
            // A credit the fold refuses refuses nothing else: the takeover is
            // recorded without it.
            if credited.emit(Body::Takeover(with)).is_ok() {
                *self = credited;
                return Ok(());
            }
        }
        self.emit(Body::Takeover(record))
    }

    /// What the clock charged while no node wrote, from the outage's start, capped at
    /// `MAX_TAKEOVER_CREDIT`: the side and the whole milliseconds, or none.
    fn takeover_credit(&self, silent_ms: u64, now: Timestamp) -> Option<(Side, u64)> {
        let silent = Millis::ms(i64::try_from(silent_ms).unwrap_or(i64::MAX));
        let (side, charged) = self.table.outage_charge(now, Some(now - silent))?;
        let most = charged.min(super::MAX_TAKEOVER_CREDIT);
        let credit = u64::try_from(silent.min(most).as_ms()).ok()?;
        (credit > 0).then_some((side, credit))
    }

    /// The one server restarted after `down_ms`: what fell due is caught up, else the
    /// clock that ran through the outage is recorded with its credit.
    fn restart(&mut self, down_ms: u64, now: Timestamp) -> Result<(), Refusal> {
        self.outage_moves_link_deadline(now, down_ms)?;
        if self.catch_up(now) {
            return Ok(());
        }
        let down = Millis::ms(i64::try_from(down_ms).unwrap_or(i64::MAX));
        let Some((side, charged)) = self.table.outage_charge(now, Some(now - down)) else {
            return Ok(());
        };
        self.emit(Body::Restart(RestartRecord {
            at: now.as_ms(),
            down_ms,
            charged_ms: whole_ms(charged),
            credit_ms: whole_ms(charged.min(super::MAX_RESTART_CREDIT)),
            side,
        }))
    }

    /// The server seed, published once the match is over so anyone can check the dice.
    fn reveal_server_seed(&mut self) -> Result<(), Refusal> {
        if !self.table.game.is_over() {
            return Err(Refusal::rule(
                "the server seed is revealed only after the match",
            ));
        }
        if self.table.dice.revealed() {
            return Ok(()); // once is enough: nothing more to record
        }
        let seed = self
            .table
            .dice
            .server_seed()
            .map(|s| hex::encode(s.as_bytes()))
            .ok_or_else(|| Refusal::rule("this table does not hold the seed"))?;
        self.emit(Body::Dice(Entry::Reveal { server_seed: seed }))
    }

    /// A player's name corrected; the same name again is refused as a no-op.
    fn rename_player(&mut self, side: Side, name: &str) -> Result<(), Refusal> {
        let name = super::check_player_name(name).map_err(Refusal::invalid)?;
        let was = self.table.game.players()[side.index()].clone();
        if name == was {
            return Err(Refusal::invalid(format!(
                "player {side} is already named \"{was}\""
            )));
        }
        self.emit(Body::Renamed(super::RenameRecord {
            side,
            was,
            name: name.to_string(),
        }))
    }
}

impl Draft {
    /// The director's ruling that extends `deadline` (the seeds' reveal, the links'): a
    /// reason and an article, in backgammon one of the regulations' articles.
    fn extension_ruling(&self, ruling: &ChessRuling, deadline: &str) -> Result<(), Refusal> {
        if ruling.reason.trim().is_empty() || ruling.article.trim().is_empty() {
            return Err(Refusal::invalid(format!(
                "ruling: an extension of {deadline} needs a reason and an article"
            )));
        }
        if let AnyMatch::Backgammon(_) = self.table.game {
            crate::backgammon::articles::check_article(&ruling.article)
                .map_err(|e| Refusal::invalid(format!("ruling: {}", e.message)))?;
        }
        Ok(())
    }

    /// With the first commitment the seeds fall due: `dice.reveal_due`, the tournament's
    /// window from now or from the match's scheduled start, whichever is later — a
    /// player may commit long before his match (v2 logs; a v1 log waits without one).
    fn reveal_deadline(&mut self, now: Timestamp) -> Result<(), Refusal> {
        let dice = &self.table.dice;
        if dice.version() == DiceVersion::V1
            || dice.pending_reveal().is_none()
            || dice.reveal_due().is_some()
        {
            return Ok(());
        }
        let by = now.max(self.table.game.scheduled_start()) + dice.reveal_window();
        self.emit(Body::Dice(Entry::RevealDue {
            by: by.as_ms(),
            reason: None,
            article: None,
        }))
    }

    /// Once a match's result is final the server reveals its seed by itself, in the same
    /// append: nobody has to ask (backgammon: the director's confirmation, 4.6; chess: the
    /// match decided). Only where the table holds the seed (the server's view).
    fn reveal_when_final(&mut self) -> Result<(), Refusal> {
        let fin = match &self.table.game {
            AnyMatch::Backgammon(m) => m.result().is_some_and(|r| r.confirmed),
            AnyMatch::Chess(m) => m.is_over(),
        };
        let dice = &self.table.dice;
        if !fin || dice.revealed() {
            return Ok(());
        }
        let Some(seed) = dice.server_seed().map(|s| hex::encode(s.as_bytes())) else {
            return Ok(());
        };
        self.emit(Body::Dice(Entry::Reveal { server_seed: seed }))
    }
}

impl Table {
    /// The records `request` adds at `now` and the table after them, or the rule that
    /// refuses it. Nothing changes here: the caller keeps the plan's table once its
    /// records are stored.
    pub fn plan(&self, request: &Request, now: Timestamp) -> Result<Plan, Refusal> {
        let mut draft = Draft::new(self);
        draft.request(request, now)?;
        draft.reveal_when_final()?;
        Ok(draft.done())
    }

    /// A device's input: applied exactly once and in order per device, charged at the
    /// instant its timestamp allows (principle 5), and recorded (`device.input`) in the
    /// same records as its events; a refused input is recorded alone.
    pub fn plan_device_input(&self, input: &DeviceInput) -> DeviceOutcome {
        let last = self.device_seqs.get(&input.device).copied().unwrap_or(0);
        if input.seq <= last {
            return DeviceOutcome::Duplicate;
        }
        if input.seq != last + 1 {
            return DeviceOutcome::OutOfOrder { next: last + 1 };
        }
        let charge = charge_instant(
            input.claimed,
            self.game.now(),
            input.receipt,
            MAX_LAG_CREDIT,
        );
        let record = |outcome: String| {
            Body::DeviceInput(DeviceInputRecord {
                device: input.device.clone(),
                seq: input.seq,
                device_ms: input.device_ms,
                claimed_at: input.claimed.map(Timestamp::as_ms),
                receipt: input.receipt.as_ms(),
                charged_at: charge.at.as_ms(),
                credit_ms: charge.credit.as_ms(),
                bound: charge.bound,
                outcome,
            })
        };
        let applied = input.request.clone().and_then(|request| {
            let mut draft = Draft::new(self);
            draft
                .emit(record("applied".into()))
                .and_then(|()| draft.request(&request, charge.at))
                .and_then(|()| draft.reveal_when_final())
                .map(|()| draft.done())
                .map_err(|e| e.message)
        });
        let (plan, refused) = match applied {
            Ok(plan) => (plan, None),
            Err(why) => {
                let mut draft = Draft::new(self);
                let recorded = draft.emit(record(format!("refused: {why}")));
                debug_assert!(recorded.is_ok(), "an input in order is always recorded");
                (draft.done(), Some(why))
            }
        };
        DeviceOutcome::Recorded {
            plan: Box::new(plan),
            charged_at: charge.at,
            refused,
        }
    }
}
