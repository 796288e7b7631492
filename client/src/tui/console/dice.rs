//! What the dashboard says about dice beyond the rows: the seeds a match waits for (a
//! to-do with its deadline; past it, on the server's clock, the alert to extend or rule
//! a forfeit), a press-back in a match without recorded moves (a player's claim that he
//! is closed out, 4.2 (i), which only the board at the table can confirm), and what
//! recomputing a revealed match's dice found.
//!
//! The tournament feed carries states, not records: a state that may hide a press-back
//! asks for the match's records ([`Wanted::Events`]), and a newly revealed seed asks for
//! the log to be checked ([`Wanted::DiceCheck`]); `app.rs` fetches them and hands them
//! back ([`Dashboard::events`], [`Dashboard::dice_checked`]).

use baffle_proto::v1;

use super::state::{Claim, Dashboard, Todo, name};
use crate::reveal::{self, DiceCheck};
use crate::words;

/// What the dashboard needs fetched after a state arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// The match's records `from_seq` up to (not including) `to_seq`: one of them may be a
    /// press-back the states do not show.
    Events {
        /// The match.
        match_id: String,
        /// The first record wanted.
        from_seq: u64,
        /// The match's length in the state that raised the question.
        to_seq: u64,
    },
    /// The match's seed is revealed: recompute its dice, through the head shown.
    DiceCheck {
        /// The match.
        match_id: String,
        /// The head hash of the state that showed the reveal.
        head: String,
    },
    /// The board changed in a match that records moves: what it proves for the director
    /// (`Matches.Adjudicate`, 4.3 (iv), 4.5), shown in the match's window only.
    Adjudication {
        /// The match.
        match_id: String,
    },
}

/// Whether the change from `before` to `s` may hide a press-back: a backgammon match
/// without recorded moves whose player on roll lost the turn without being seen to
/// move with his own dice. (A state also changes so when he rolled and pressed between
/// two states the feed sent; the records tell them apart.)
fn may_hide_press_back(before: &v1::MatchState, s: &v1::MatchState) -> bool {
    let on_roll = v1::TurnPhase::OnRoll as i32;
    let moving = v1::TurnPhase::Moving as i32;
    s.chess.is_none()
        && s.board.is_none()
        && s.seq > before.seq
        && before.turn == on_roll
        && s.game_number == before.game_number
        && !(s.turn == moving && s.turn_side == before.turn_side)
        && !(s.turn == on_roll && s.turn_side == before.turn_side)
}

impl Dashboard {
    /// What to fetch for the change from `before` (if the match was known) to `s`; a
    /// revealed match's dice are asked for once.
    pub(super) fn wanted(
        &mut self,
        before: Option<&v1::MatchState>,
        s: &v1::MatchState,
    ) -> Vec<Wanted> {
        let mut wanted = Vec::new();
        if let Some(before) = before.filter(|b| may_hide_press_back(b, s)) {
            wanted.push(Wanted::Events {
                match_id: s.match_id.clone(),
                from_seq: before.seq,
                to_seq: s.seq,
            });
        }
        if s.board.is_some() && before.is_none_or(|b| b.seq != s.seq) {
            wanted.push(Wanted::Adjudication {
                match_id: s.match_id.clone(),
            });
        }
        if s.dice_revealed
            && reveal::uses_server_dice(s)
            && !self.dice_checks.contains_key(&s.match_id)
        {
            self.dice_checks.insert(s.match_id.clone(), None);
            wanted.push(Wanted::DiceCheck {
                match_id: s.match_id.clone(),
                head: s.head_hash.clone(),
            });
        }
        wanted
    }

    /// Takes records of a match (fetched for [`Wanted::Events`]): a press-back in a match
    /// that does not record moves is a claim, put on the ticker and the to-do list.
    pub fn events(&mut self, match_id: &str, events: &[v1::Event]) {
        let Some(s) = self.matches.get(match_id) else {
            return;
        };
        if s.board.is_some() || s.chess.is_some() {
            return;
        }
        let mut said = Vec::new();
        for e in events.iter().filter(|e| e.kind == "bg.pressed_back") {
            let known = self.claims.get(match_id).into_iter().flatten();
            if known.clone().any(|c| c.seq == e.seq) {
                continue;
            }
            let body: serde_json::Value = serde_json::from_str(&e.body).unwrap_or_default();
            let side = match body.get("side").and_then(|v| v.as_str()) {
                Some("B") => v1::Side::B as i32,
                _ => v1::Side::A as i32,
            };
            let args = [("match", match_id.into()), ("name", name(s, side).into())];
            said.push(words::say_with("console-tick-press-back", &args));
            self.claims
                .entry(match_id.to_string())
                .or_default()
                .push(Claim { side, seq: e.seq });
        }
        for line in said {
            self.tick(line);
        }
    }

    /// Takes what the board proves for the director (for [`Wanted::Adjudication`]).
    pub fn adjudicated(&mut self, match_id: &str, help: v1::Adjudication) {
        self.adjudications.insert(match_id.to_string(), help);
    }

    /// Takes what recomputing a revealed match's dice found (for [`Wanted::DiceCheck`]).
    pub fn dice_checked(&mut self, match_id: &str, check: DiceCheck) {
        self.dice_checks.insert(match_id.to_string(), Some(check));
    }

    /// The dice to-dos of `s` at `now_ms` (the server's clock): seeds awaited (urgent once
    /// overdue), and press-back claims not dismissed.
    pub(super) fn dice_todos(&self, s: &v1::MatchState, now_ms: i64) -> Vec<Todo> {
        let at = words::at_table(&s.match_id, &s.table);
        let todo = |urgency, text| Todo {
            match_id: s.match_id.clone(),
            text,
            urgency,
        };
        let mut todos = Vec::new();
        for p in reveal::pending(s) {
            let args = [
                ("at", at.clone().into()),
                ("name", p.name.clone().into()),
                ("due", words::time_of_day(p.due_ms).into()),
                ("match", s.match_id.clone().into()),
            ];
            todos.push(if p.overdue(now_ms) {
                todo(0, words::say_with("console-todo-reveal-overdue", &args))
            } else {
                todo(1, words::say_with("console-todo-reveal-pending", &args))
            });
        }
        let awaited = reveal::awaited_links(s);
        // With both links missing nobody forfeits by himself: the director rules.
        let alone = awaited.len() == 1;
        for p in awaited {
            let args = [
                ("at", at.clone().into()),
                ("name", p.name.clone().into()),
                ("due", words::time_of_day(p.due_ms).into()),
            ];
            let asked_ms = s
                .live_dice
                .as_ref()
                .and_then(|l| l.waiting.as_ref())
                .map_or(now_ms, |w| w.asked_ms);
            if p.overdue(now_ms) {
                let id = match alone {
                    true => "console-todo-link-overdue",
                    false => "console-todo-links-overdue",
                };
                todos.push(todo(0, words::say_with(id, &args)));
            } else if now_ms - asked_ms >= LINK_TODO_AFTER_MS {
                todos.push(todo(1, words::say_with("console-todo-link-pending", &args)));
            }
        }
        for c in self.claims.get(&s.match_id).into_iter().flatten() {
            let args = [("at", at.clone().into()), ("name", name(s, c.side).into())];
            todos.push(todo(1, words::say_with("console-todo-press-back", &args)));
        }
        todos
    }
}

/// A player's client gives his link within a round trip; only a wait this long is the
/// director's business (a phone gone, a player walked away).
const LINK_TODO_AFTER_MS: i64 = 10_000;
