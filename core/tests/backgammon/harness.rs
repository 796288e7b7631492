//! A small driver for backgammon tests: time in milliseconds from 0, every refusal
//! checked to change nothing, and every state checked to equal the fold of its events.

#![allow(dead_code)]

use baffle_core::backgammon::setup::DiceSource;
use baffle_core::backgammon::{
    Change, Command, DirectorAction, Event, Match, MatchSetup, RuleError, Ruling,
};
use baffle_core::{Side, Timestamp};

pub const A: Side = Side::A;
pub const B: Side = Side::B;

pub struct Table {
    pub m: Match,
    pub now: i64,
    pub log: Vec<Event>,
    pub setup: MatchSetup,
}

impl Table {
    pub fn new(setup: MatchSetup) -> Table {
        Table {
            m: Match::new(setup.clone()).unwrap(),
            now: 0,
            log: Vec::new(),
            setup,
        }
    }

    /// A clocked match of `length` points, default settings, both players present.
    pub fn seated(length: u32) -> Table {
        let mut t = Table::new(MatchSetup::new(["Anna", "Ben"], length, Timestamp(0)));
        t.ok(Command::CheckIn { side: A });
        t.ok(Command::CheckIn { side: B });
        t
    }

    pub fn at(&mut self, ms: i64) -> &mut Table {
        self.now = ms;
        self
    }

    pub fn wait(&mut self, ms: i64) -> &mut Table {
        self.now += ms;
        self
    }

    pub fn ok(&mut self, command: Command) -> Vec<Event> {
        let events = self
            .m
            .execute(&command, Timestamp(self.now))
            .unwrap_or_else(|e| panic!("{command:?} at {} refused: {e}", self.now));
        self.log.extend(events.iter().cloned());
        self.check_fold();
        events
    }

    pub fn err(&mut self, command: Command) -> RuleError {
        let before = self.m.clone();
        let e = self
            .m
            .execute(&command, Timestamp(self.now))
            .expect_err(&format!("{command:?} should be refused"));
        assert_eq!(self.m, before, "a refused command changed the match");
        e
    }

    pub fn director(&mut self, action: DirectorAction) -> Vec<Event> {
        self.ok(Command::Director {
            action,
            ruling: Ruling::new("test", "2.3"),
        })
    }

    pub fn director_err(&mut self, action: DirectorAction) -> RuleError {
        self.err(Command::Director {
            action,
            ruling: Ruling::new("test", "2.3"),
        })
    }

    /// The state equals the fold of every event so far.
    pub fn check_fold(&self) {
        let mut folded = Match::new(self.setup.clone()).unwrap();
        for e in &self.log {
            folded.evolve(e).unwrap();
        }
        // The fold knows the time of the last event; the live state also the last command's.
        assert_eq!(folded.score(A), self.m.score(A));
        assert_eq!(folded.score(B), self.m.score(B));
        assert_eq!(folded.game(), self.m.game());
        assert_eq!(folded.games(), self.m.games());
        assert_eq!(folded.result(), self.m.result());
        assert_eq!(folded.clock(), self.m.clock());
        assert_eq!(folded.board(), self.m.board());
        assert_eq!(folded.scheduled_start(), self.m.scheduled_start());
        assert_eq!(folded.postponed(), self.m.postponed());
    }

    pub fn opening(&mut self, throw: [u8; 2]) -> Vec<Event> {
        self.ok(Command::OpeningThrow {
            throw,
            source: DiceSource::Server,
        })
    }

    pub fn roll(&mut self, side: Side, dice: [u8; 2]) -> Vec<Event> {
        self.ok(Command::Roll {
            side,
            dice,
            source: DiceSource::Server,
        })
    }

    pub fn press(&mut self, side: Side) -> Vec<Event> {
        self.ok(Command::Press { side })
    }

    /// `doubler` doubles a second later and the opponent takes a second after that.
    pub fn double_take(&mut self, doubler: Side) {
        self.wait(1_000).ok(Command::Double { side: doubler });
        self.wait(1_000).ok(Command::Take {
            side: doubler.other(),
        });
    }

    /// `side` rolls `dice`, moves and presses a second later.
    pub fn turn(&mut self, side: Side, dice: [u8; 2]) {
        self.roll(side, dice);
        self.wait(1_000).press(side);
    }

    /// Plays a game from the opening roll to `winner`'s declared `kind`, A moving first.
    pub fn quick_game(&mut self, winner: Side, kind: baffle_core::backgammon::WinKind) {
        self.wait(1_000).opening([6, 1]);
        self.wait(5_000).press(A);
        self.wait(1_000).ok(Command::EndGame { winner, kind });
    }

    pub fn kinds(events: &[Event]) -> Vec<&'static str> {
        events
            .iter()
            .map(|e| match e.change {
                Change::CheckedIn { .. } => "checked_in",
                Change::LatenessPoint { .. } => "lateness_point",
                Change::BreakStarted { .. } => "break_started",
                Change::BreakEnded => "break_ended",
                Change::GameStarted { .. } => "game_started",
                Change::OpeningThrow { .. } => "opening_throw",
                Change::Rolled { .. } => "rolled",
                Change::RollInvalid { .. } => "roll_invalid",
                Change::Doubled { .. } => "doubled",
                Change::Taken { .. } => "taken",
                Change::Passed { .. } => "passed",
                Change::Pressed { .. } => "pressed",
                Change::PressedBack { .. } => "pressed_back",
                Change::Requested { .. } => "requested",
                Change::Appealed { .. } => "appealed",
                Change::GameEnded { .. } => "game_ended",
                Change::Paused { .. } => "paused",
                Change::Resumed => "resumed",
                Change::DelayRestarted => "delay_restarted",
                Change::WaitOutDelay { .. } => "wait_out_delay",
                Change::TurnReplayed { .. } => "turn_replayed",
                Change::TimeExpired { .. } => "time_expired",
                Change::Ruled { .. } => "ruled",
                Change::LengthCorrected { .. } => "length_corrected",
                Change::LengthKept { .. } => "length_kept",
                Change::MatchEnded { .. } => "match_ended",
                Change::MatchUndecided => "match_undecided",
                Change::MatchResumed => "match_resumed",
                Change::Moved { .. } => "moved",
            })
            .collect()
    }
}
