//! The dashboard's keys: moving about (↑↓, Enter, `/`, `?`), and the director's actions,
//! each a prompt (text where the action needs a side or a value, then y/n) that ends in a
//! [`Pending`] command for `app.rs` to send.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use ratatui::crossterm::event::KeyCode;

use super::state::{Dashboard, InputKind, Order, Pending, Prompt};
use crate::words;

/// What a key pressed at the terminal does at the console.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pressed {
    /// Leave the console.
    Quit,
    /// A key for the dashboard.
    Key(Key),
    /// Nothing.
    Nothing,
}

impl Dashboard {
    /// What the terminal's key `code` (with Ctrl held if `ctrl`) does now. Ctrl-C never
    /// acts: it cancels the prompt open, or leaves the console (a new director pressed
    /// it to get out and confirmed a result with it, when it was read as `c`). No other
    /// Ctrl combination is read as its letter either. `q` leaves only from the list: in
    /// a prompt it is typed, and it closes the help or a match's window, as any key does.
    pub fn pressed(&self, code: KeyCode, ctrl: bool) -> Pressed {
        let over_list = self.prompt.is_some() || self.help || self.detail.is_some();
        match code {
            KeyCode::Char('c' | 'C') if ctrl && self.prompt.is_some() => Pressed::Key(Key::Esc),
            KeyCode::Char('c' | 'C') if ctrl => Pressed::Quit,
            KeyCode::Char(_) if ctrl => Pressed::Nothing,
            KeyCode::Char('q') if !over_list => Pressed::Quit,
            KeyCode::Up => Pressed::Key(Key::Up),
            KeyCode::Down => Pressed::Key(Key::Down),
            KeyCode::Enter => Pressed::Key(Key::Enter),
            KeyCode::Esc => Pressed::Key(Key::Esc),
            KeyCode::Backspace => Pressed::Key(Key::Backspace),
            KeyCode::Tab => Pressed::Key(Key::Tab),
            KeyCode::Char(c) => Pressed::Key(Key::Char(c)),
            _ => Pressed::Nothing,
        }
    }
}

/// A key the dashboard understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Move the selection up.
    Up,
    /// Move the selection down.
    Down,
    /// A character.
    Char(char),
    /// Enter.
    Enter,
    /// Escape: cancel a prompt, close a view.
    Esc,
    /// Backspace.
    Backspace,
    /// Tab: the draw and the room, in turn.
    Tab,
}

/// The pause reasons the console offers, numbered from 1 as in its prompt: every reason
/// the backgammon rules allow a director to stop the clock for (not the server's own
/// wait for live dice links, which no command may give).
pub(super) fn pause_reasons() -> Vec<baffle_core::clock::PauseReason> {
    use baffle_core::clock::PauseReason;
    PauseReason::ALL
        .into_iter()
        .filter(|r| ![PauseReason::DirectorStopped, PauseReason::AwaitingLinks].contains(r))
        .collect()
}

pub(super) fn ruling(reason: &str, article: &str) -> Option<v1::Ruling> {
    Some(v1::Ruling {
        reason: reason.into(),
        article: article.into(),
    })
}

pub(super) fn chess(a: v1::chess_command::Action) -> Action {
    Action::Chess(v1::ChessCommand { action: Some(a) })
}

impl Dashboard {
    /// Handles a key; returns a command once the director confirmed it.
    pub fn key(&mut self, key: Key) -> Option<Pending> {
        if let Some(prompt) = self.prompt.take() {
            return self.prompt_key(prompt, key);
        }
        if self.help || self.detail.is_some() {
            // Any key closes the help or the match shown in full.
            self.help = false;
            self.detail = None;
            return None;
        }
        if self.draw_key(key) {
            return None;
        }
        let chess = self.selected_match().is_some_and(|m| m.chess.is_some());
        if !(chess && self.chess_key(key)) {
            self.match_key(key);
        }
        None
    }

    /// A key while a prompt is open: confirm or cancel, or edit the input.
    fn prompt_key(&mut self, prompt: Prompt, key: Key) -> Option<Pending> {
        let Prompt::Input {
            label,
            mut buffer,
            kind,
            mut error,
            ruling_of,
        } = prompt
        else {
            let Prompt::Confirm(pending) = prompt else {
                unreachable!("an input prompt is handled below")
            };
            return match key {
                // y, or ν (ναι) on a Greek keyboard, as the prompt says.
                Key::Char('y' | 'Y' | 'ν' | 'Ν') | Key::Enter => {
                    let args = [("action", pending.label.clone().into())];
                    self.tick(words::say_with("console-tick-sent", &args));
                    Some(pending)
                }
                // Anything else cancels, and says so (a director typed `n` and was not
                // sure nothing had gone).
                _ => {
                    let args = [("action", pending.label.clone().into())];
                    self.tick(words::say_with("console-tick-cancelled", &args));
                    None
                }
            };
        };
        match key {
            Key::Esc => return None,
            // The reasons are numbered 1 to 8: the digit is the whole answer.
            Key::Char(c) if kind == InputKind::PauseReason && c.is_ascii_digit() => {
                buffer = c.to_string();
                let done = self.finish_input(kind, &buffer, ruling_of.clone());
                error = done.err();
                buffer.clear();
            }
            Key::Enter => match self.finish_input(kind, &buffer, ruling_of.clone()) {
                Ok(()) => return None,
                Err(e) => error = Some(e),
            },
            Key::Backspace => {
                buffer.pop();
                error = None;
            }
            Key::Char(c) => {
                buffer.push(c);
                error = None;
            }
            _ => {}
        }
        if error.is_some() || self.prompt.is_none() {
            self.prompt = Some(Prompt::Input {
                label,
                buffer,
                kind,
                error,
                ruling_of,
            });
        }
        None
    }

    /// The text of an input is complete: a filter applies, a ruling's reason asks for
    /// its article, anything else asks y/n (after the ruling's grounds, for the rulings
    /// whose grounds the director words). A mistyped value is refused in words, and the
    /// prompt stays open.
    fn finish_input(
        &mut self,
        kind: InputKind,
        text: &str,
        ruling_of: Option<Box<Pending>>,
    ) -> Result<(), String> {
        match (kind, ruling_of) {
            (InputKind::Filter, _) => {
                self.filter = text.trim().to_string();
                self.selected = 0;
            }
            (InputKind::Reason, Some(mut pending)) => {
                let reason = text.trim();
                if reason.is_empty() {
                    return Err(words::say("console-no-reason"));
                }
                let ruling = pending.ruling.get_or_insert_with(Default::default);
                ruling.reason = reason.to_string();
                let args = [("usual", ruling.article.clone().into())];
                self.prompt = Some(Prompt::Input {
                    label: words::say_with("console-ask-article", &args),
                    buffer: String::new(),
                    kind: InputKind::Article,
                    error: None,
                    ruling_of: Some(pending),
                });
            }
            (InputKind::Article, Some(mut pending)) => {
                let ruling = pending.ruling.get_or_insert_with(Default::default);
                if !text.trim().is_empty() {
                    ruling.article = text.trim().to_string();
                }
                let args = [
                    ("action", pending.label.clone().into()),
                    ("article", ruling.article.clone().into()),
                    ("reason", ruling.reason.clone().into()),
                ];
                pending.label = words::say_with("console-with-grounds", &args);
                self.prompt = Some(Prompt::Confirm(*pending));
            }
            (kind, _) => {
                let pending = self.parse_input(kind, text)?;
                self.prompt = Some(grounds_or_confirm(pending));
            }
        }
        Ok(())
    }

    /// A confirmation of `action` (with a ruling) on the selected match, if any.
    fn confirm(&self, action: Action, ruling: Option<v1::Ruling>, label: &str) -> Option<Prompt> {
        let match_id = self.selected_match()?.match_id.clone();
        Some(Prompt::Confirm(Pending {
            label: in_match(label, &match_id),
            match_id,
            order: Order::Execute(action),
            ruling,
        }))
    }

    /// An input prompt.
    fn ask(&mut self, label: String, kind: InputKind) {
        self.prompt = Some(Prompt::Input {
            label,
            buffer: String::new(),
            kind,
            error: None,
            ruling_of: None,
        });
    }

    /// Asks for a side of the selected match, the prompt naming both players.
    fn ask_side(&mut self, id: &str, kind: InputKind) {
        let Some(s) = self.selected_match() else {
            return;
        };
        let label = words::ask_side(id, &s.player_a, &s.player_b);
        self.ask(label, kind);
    }

    /// The keys of the draw: `v` or Tab switches between the room and the draw, `R`
    /// (`Ρ` on a Greek keyboard) starts the round ready to start, after y/n. In the draw
    /// ↑↓ scroll it, Esc goes back to the room, and the match keys do nothing: no match
    /// is selected there. True for a key handled here.
    fn draw_key(&mut self, key: Key) -> bool {
        match key {
            // Switched to even before the draw arrived (or where there is none): the
            // view says so, and shows the draw as soon as it comes. (A `v` typed just
            // after the console started once said "no draw" and stayed in the room.)
            Key::Tab | Key::Char('v') => self.showing_draw = !self.showing_draw,
            Key::Char('R' | 'Ρ') => self.ask_start_round(),
            _ if !self.showing_draw => return false,
            Key::Up | Key::Char('k') => self.draw_scroll = self.draw_scroll.saturating_sub(1),
            Key::Down | Key::Char('j') => self.draw_scroll = self.draw_scroll.saturating_add(1),
            Key::Esc => self.showing_draw = false,
            Key::Char('?') => self.help = true,
            _ => {}
        }
        true
    }

    /// The keys that differ in chess: the arbiter stops the clocks (6.12) and restarts
    /// them; sets a clock (6.10) rather than adjusting it; there are no points to award
    /// or confirm. False for a key that is the same in both games.
    fn chess_key(&mut self, key: Key) -> bool {
        match key {
            Key::Char('p') => {
                let stop = chess(v1::chess_command::Action::Pause(
                    v1::PauseReason::DirectorStopped as i32,
                ));
                let ruling = ruling("stopped at the console", "6.12 (a)");
                self.prompt = self.confirm(stop, ruling, &words::say("console-do-stop"));
            }
            Key::Char('r') => {
                let restart = chess(v1::chess_command::Action::Resume(v1::Empty {}));
                let ruling = ruling("restarted at the console", "6.12 (c)");
                self.prompt = self.confirm(restart, ruling, &words::say("console-do-restart"));
            }
            Key::Char('a') => self.ask(
                words::say("console-prompt-chess-clock"),
                InputKind::SetChessClock,
            ),
            Key::Char('i') => self.ask(
                words::say("console-prompt-chess-arrive"),
                InputKind::CheckIn,
            ),
            Key::Char('x' | 'c' | 'w' | 'f' | 's') => self.tick(words::say("console-not-in-chess")),
            _ => return false,
        }
        true
    }

    /// A key on the match list: move, look, or start a director's action.
    fn match_key(&mut self, key: Key) {
        let count = self.rows().len();
        let selected = self.selected_match().is_some();
        match key {
            Key::Up | Key::Char('k') => self.selected = self.selected.saturating_sub(1),
            Key::Down | Key::Char('j') => {
                self.selected = (self.selected + 1).min(count.saturating_sub(1))
            }
            Key::Char('?') => self.help = true,
            Key::Enter if selected => {
                self.detail = self.selected_match().map(|m| m.match_id.clone())
            }
            Key::Char('/') => {
                let label = words::say("console-prompt-filter");
                self.prompt = Some(Prompt::Input {
                    label,
                    buffer: self.filter.clone(),
                    kind: InputKind::Filter,
                    error: None,
                    ruling_of: None,
                });
            }
            Key::Esc => self.filter.clear(),
            Key::Char('d') => {
                // Dismisses the selected match's dice anomalies and press-back claims.
                if let Some(s) = self.selected_match() {
                    let (id, n) = (s.match_id.clone(), s.dice_anomalies);
                    self.claims.remove(&id);
                    self.anomalies_seen.insert(id, n);
                }
            }
            Key::Char('p') if selected => {
                let args = [("choices", pause_choices().join(", ").into())];
                self.ask(
                    words::say_with("console-prompt-pause", &args),
                    InputKind::PauseReason,
                )
            }
            Key::Char('r') => {
                let label = words::say("console-do-resume");
                self.prompt = self.confirm(Action::Resume(v1::Empty {}), None, &label)
            }
            Key::Char('c') => {
                // Only a result awaiting confirmation is asked about (a new director was
                // asked y/n for an unfinished match, and only then refused).
                let awaiting = self
                    .selected_match()
                    .map(|s| s.result.as_ref().map(|r| r.confirmed));
                match awaiting {
                    Some(Some(false)) => {
                        self.prompt = self
                            .confirm(
                                Action::ConfirmResult(v1::Empty {}),
                                ruling("", "4.6"),
                                &words::say("console-do-confirm"),
                            )
                            .map(|prompt| match prompt {
                                Prompt::Confirm(pending) => grounds_or_confirm(pending),
                                other => other,
                            })
                    }
                    Some(done) => {
                        let id = if done.is_some() {
                            "console-no-confirm-done"
                        } else {
                            "console-no-confirm-open"
                        };
                        let at = self.selected_match().map(|s| s.match_id.clone());
                        let args = [("match", at.unwrap_or_default().into())];
                        let said = words::say_with(id, &args);
                        self.tick(said);
                    }
                    None => {}
                }
            }
            Key::Char('a') => self.ask_side("console-ask-adjust", InputKind::AdjustClock),
            Key::Char('x') => self.ask_side("console-ask-points", InputKind::AwardPoints),
            Key::Char('i') => self.ask_side("console-ask-check-in", InputKind::CheckIn),
            Key::Char('w') => self.ask_side("console-ask-warn", InputKind::Warn),
            Key::Char('f') => self.ask_side("console-ask-forfeit", InputKind::Forfeit),
            Key::Char('e') if selected => self.ask_extension(),
            Key::Char('s') if selected => {
                let s = self.selected_match().expect("selected");
                let args = [
                    ("a", s.player_a.clone().into()),
                    ("b", s.player_b.clone().into()),
                ];
                let label = words::say_with("console-prompt-score", &args);
                self.ask(label, InputKind::CorrectScore)
            }
            _ => {}
        }
    }

    /// More time for the seeds the selected match waits for: asks how many minutes,
    /// naming whose seed; with none awaited, says so.
    fn ask_extension(&mut self) {
        let s = self.selected_match().expect("selected");
        let awaited: Vec<String> = crate::reveal::pending(s)
            .into_iter()
            .chain(crate::reveal::awaited_links(s))
            .map(|p| p.name)
            .collect();
        if awaited.is_empty() {
            let args = [("match", s.match_id.clone().into())];
            let said = words::say_with("console-no-reveal", &args);
            self.tick(said);
            return;
        }
        let args = [("name", awaited.join(", ").into())];
        let id = match s.live_dice.as_ref().and_then(|l| l.waiting.as_ref()) {
            Some(_) => "console-ask-extend-links",
            None => "console-ask-extend",
        };
        let label = words::say_with(id, &args);
        self.ask(label, InputKind::ExtendReveal);
    }
}

/// The article a ruling the director words usually applies, offered at its prompt (Enter
/// takes it): a warning, 2.3 (slow play: the regulations' one article that names a
/// warning); penalty points, 2.2 (lateness: a point for every 5 minutes late). None for
/// the rulings whose grounds the console knows.
/// The prompt that follows an action: for a ruling, its grounds — the reason (asked, never
/// made up: a new director's log said "warned at the console") and then the article,
/// the usual one offered — before the y/n; otherwise the y/n at once.
fn grounds_or_confirm(pending: Pending) -> Prompt {
    if pending.ruling.is_none() {
        return Prompt::Confirm(pending);
    }
    let args = [("action", pending.label.clone().into())];
    Prompt::Input {
        label: words::say_with("console-ask-reason", &args),
        buffer: String::new(),
        kind: InputKind::Reason,
        error: None,
        ruling_of: Some(Box::new(pending)),
    }
}

/// The pause reasons as the director picks them: "1 dispute", "2 …", in words.
pub(super) fn pause_choices() -> Vec<String> {
    pause_reasons()
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{} {}", i + 1, pause_words(*r)))
        .collect()
}

/// A pause reason in words (the catalogue's, by its proto number).
pub(super) fn pause_words(reason: baffle_core::clock::PauseReason) -> String {
    let wire = baffle_proto::convert::pause_reason_to_wire(reason) as i32;
    words::pause_reason(wire).unwrap_or_else(|| reason.describe().to_string())
}

/// An action on a match, for the confirmation and the ticker: "warn Anna in r1-t7".
pub(super) fn in_match(action: &str, match_id: &str) -> String {
    let args = [("action", action.into()), ("match", match_id.into())];
    words::say_with("console-in-match", &args)
}
