//! The console's state, as its parts share it: the [`Dashboard`] (the room's matches, the
//! ticker, the to-do list's inputs, the open [`Prompt`]) and the values it holds — a
//! [`Pending`] command and its [`Order`], a [`Todo`], a press-back [`Claim`], the
//! [`InputKind`] a prompt reads. `mod.rs` updates it, `keys.rs` and `input.rs` turn keys
//! and text into prompts and commands, `dice.rs` says what the dice need, `draw.rs` and
//! `bracket.rs` draw it; each takes these types from here.

use std::collections::{BTreeMap, VecDeque};

use baffle_proto::v1;
use baffle_proto::v1::command::Action;

use crate::reveal::DiceCheck;

/// What a confirmed command asks the server for.
#[derive(Clone, Debug, PartialEq)]
pub enum Order {
    /// A match command (`Matches.Execute`).
    Execute(Action),
    /// More time for the players' reveals: due this many minutes from now
    /// (`Audit.ExtendRevealDeadline`, with the ruling).
    ExtendReveal {
        /// Minutes from now.
        minutes: u32,
    },
    /// A round of the tournament's draw started now (`Draws.StartRound`); the
    /// [`Pending`]'s `match_id` is then the tournament's id.
    StartRound {
        /// The flight, as the wire numbers it.
        flight: i32,
        /// The round.
        round: u32,
    },
}

/// A command the director confirmed, to send to the server.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The match.
    pub match_id: String,
    /// What it asks the server for.
    pub order: Order,
    /// The ruling, for director actions.
    pub ruling: Option<v1::Ruling>,
    /// What it is, for the confirmation and the ticker line after it.
    pub label: String,
}

/// What the director is being asked.
#[derive(Clone, Debug, PartialEq)]
pub enum Prompt {
    /// "… ? y/n"
    Confirm(Pending),
    /// A line of text for an action that needs it: `"A -30s"` or `"B 1"`.
    Input {
        /// What is asked.
        label: String,
        /// What was typed so far.
        buffer: String,
        /// Which action the text is for.
        kind: InputKind,
        /// Why the last answer was refused: shown beside the prompt, which stays open
        /// for the director to type it again.
        error: Option<String>,
        /// The command whose ruling is asked for ([`InputKind::Reason`],
        /// [`InputKind::Article`]).
        ruling_of: Option<Box<Pending>>,
    },
}

/// One thing the director has to do, kept until it is done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Todo {
    /// The match it is about.
    pub match_id: String,
    /// What to do, in words.
    pub text: String,
    /// How urgent: flags and undecided matches first (0), then the rest (1).
    pub urgency: u8,
}

/// The dashboard's state.
#[derive(Clone, Debug, Default)]
pub struct Dashboard {
    /// The tournament shown.
    pub tournament: String,
    /// Its matches, by id.
    pub matches: BTreeMap<String, v1::MatchState>,
    /// The selected row (of the filtered rows).
    pub selected: usize,
    /// What happened, newest first: devices leaving and coming back, penalties, warnings,
    /// renames, pauses, changes of status, what the director sent and what was refused.
    pub ticker: VecDeque<String>,
    /// The open prompt.
    pub prompt: Option<Prompt>,
    /// A connection problem.
    pub connection: Option<String>,
    /// Rows whose id, table or players contain this (`/`).
    pub filter: String,
    /// The key list is shown (`?`).
    pub help: bool,
    /// The match shown in full (Enter), until Esc.
    pub detail: Option<String>,
    /// Dice anomalies the director has seen, per match (`d` dismisses them).
    pub anomalies_seen: BTreeMap<String, u32>,
    /// Matches offline (their log is lost), by id.
    pub offline: BTreeMap<String, v1::OfflineMatch>,
    /// Press-backs claimed in matches without recorded moves, per match, until the
    /// director dismisses them (`d`).
    pub claims: BTreeMap<String, Vec<Claim>>,
    /// What recomputing each revealed match's dice found (`None` while it runs).
    pub dice_checks: BTreeMap<String, Option<DiceCheck>>,
    /// What each board proves for the director (4.3 (iv), 4.5), as last fetched; shown
    /// with the match while it is of the state on screen.
    pub adjudications: BTreeMap<String, v1::Adjudication>,
    /// The server's clock less this machine's, from the last state that carried its
    /// `sent_at_ms` ([`Dashboard::heard_from_server`]).
    pub server_offset_ms: i64,
    /// The tournament's draw as last received (`WatchDraw`); `None` for a tournament
    /// without one.
    pub draw: Option<v1::DrawView>,
    /// The draw is shown instead of the room (`v` or Tab).
    pub showing_draw: bool,
    /// Lines of the draw scrolled past (↑↓ in the draw).
    pub draw_scroll: u16,
}

/// The name of the player on `side` (the wire's side) in `s`.
pub(super) fn name(s: &v1::MatchState, side: i32) -> &str {
    if side == v1::Side::B as i32 {
        &s.player_b
    } else {
        &s.player_a
    }
}

/// A press-back a player made in a match without recorded moves: his claim that he is
/// closed out, for the director to check at the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Who pressed back (the wire's side).
    pub side: i32,
    /// The record's sequence number.
    pub seq: u64,
}

/// Actions that take text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A digit: pause with that reason (no Enter needed).
    PauseReason,
    /// "A -30s": adjust a clock (4.3 (v)).
    AdjustClock,
    /// "B 1": award penalty points (2.3).
    AwardPoints,
    /// "W 5m": set a chess clock, clocks stopped (6.10).
    SetChessClock,
    /// "A": a player checked in (2.2); in chess "W": at the board (6.7).
    CheckIn,
    /// "B": a warning to a player.
    Warn,
    /// "B": the player who forfeits the match.
    Forfeit,
    /// "3 2": the score corrected (4.7).
    CorrectScore,
    /// "10": the players' seeds due that many minutes from now.
    ExtendReveal,
    /// Why the director rules (a warning, penalty points): his own words, required.
    Reason,
    /// The article of the regulations the ruling applies; Enter takes the usual one.
    Article,
    /// Text the rows must contain.
    Filter,
}
