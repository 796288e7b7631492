//! `baffle live play`: a player's terminal in a match of live dice. One loop does
//! everything in turn, so no two requests of this client cross: a state from the match's
//! feed (`Matches/Watch`) — its events printed, and the player's link given when a draw
//! waits for it — or a line of standard input, the player's own command.
//!
//! A link is given at most once: the feed may still show the draw waiting without it
//! while the link is on its way, and the next link's number (`length − left + 1`) is the
//! same then, so a number once given is not sent again. The roller's link goes with his
//! roll (`Roll.link`); a roll asked for during the opponent's move is sent without one:
//! it is queued, asked for at the opponent's press, and then the feed brings it here.

use std::io::Write;
use std::path::Path;

use baffle_core::Side;
use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use tokio::sync::mpsc;
use tonic::transport::Channel;

use super::chain::{Kept, held, load, player_chain};
use crate::cli::Cli;
use crate::feed::{Feed, match_updates};
use crate::run::connection::{authed, channel, to_owner};
use crate::run::outcome::{Outcome, usage};
use crate::{render, words};

/// `baffle live play`.
pub(super) async fn play(
    cli: &Cli,
    match_id: &str,
    code: &str,
    chain_file: Option<&Path>,
) -> Result<Outcome, Outcome> {
    let (side, path) = player_chain(code, match_id, chain_file)?;
    let kept = load(&path, match_id, side)?.ok_or_else(|| {
        let args = [
            ("file", path.display().to_string().into()),
            ("match", match_id.into()),
        ];
        usage(words::say_with("live-no-chain-file", &args))
    })?;
    let channel = channel(cli).await?;
    let mut player = Player {
        channel: channel.clone(),
        match_id: match_id.to_string(),
        code: Some(code.to_string()),
        kept,
        state: v1::MatchState::default(),
        last_given: None,
    };
    let mut lines = stdin_lines();
    let mut input_open = true;
    // The match's feed, reconnecting by itself as `follow`'s does; an update's events
    // come before its state, and are said with the names it carries.
    let mut feed = match_updates(cli.server.clone(), match_id.to_string());
    let mut events = Vec::new();
    loop {
        tokio::select! {
            update = feed.recv() => match update {
                Some(Feed::Events(e)) => events.extend(e),
                Some(Feed::State(s)) => player.update(std::mem::take(&mut events), *s).await,
                Some(Feed::Problem(why)) => print_now(&format!("{why}\n")),
                Some(Feed::Offline(_)) => {}
                // The server says the match does not exist: no retry brings it back.
                Some(Feed::Gone(why)) => {
                    return Err(Outcome::failed(crate::exit::REFUSED, format!("baffle: {why}\n")));
                }
                None => return Err(Outcome::failed(crate::exit::REFUSED, String::new())),
            },
            line = lines.recv(), if input_open => match line {
                Some(l) => {
                    if !player.command(l.trim()).await {
                        break;
                    }
                }
                None => input_open = false,
            },
        }
        if !input_open && player.state.result.is_some() {
            break;
        }
    }
    Ok(Outcome::ok(String::new()))
}

/// Standard input's lines, read on a thread of their own (a blocking read), as they come;
/// the channel closes at the end of the input.
fn stdin_lines() -> mpsc::UnboundedReceiver<String> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(l) = line else { break };
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    rx
}

/// Prints a line of the catalogue (and flushes: the input may be a pipe, the output too).
fn say(id: &str, args: &[(&str, baffle_i18n::Value)]) {
    print_now(&(words::say_with(id, args) + "\n"));
}

fn print_now(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// A player's client: his chain, his code and the match as last seen.
struct Player {
    channel: Channel,
    match_id: String,
    code: Option<String>,
    kept: Kept,
    state: v1::MatchState,
    /// The number of the last link given, not to be given twice.
    last_given: Option<u32>,
}

impl Player {
    fn own(&self) -> i32 {
        baffle_proto::convert::side_to_wire(self.kept.side) as i32
    }

    /// An update of the feed: its events said, the state kept if it is newer, and the
    /// player's link given if a draw waits for it.
    async fn update(&mut self, events: Vec<v1::Event>, s: v1::MatchState) {
        let names = [s.player_a.as_str(), s.player_b.as_str()];
        print_now(&render::events_text(&events, names));
        self.keep(s);
        self.give_if_asked().await;
    }

    /// Keeps `s` unless an older state than the one held (a reply runs ahead of the feed).
    fn keep(&mut self, s: v1::MatchState) {
        if s.seq >= self.state.seq {
            let before = waiting(&self.state).cloned();
            self.state = s;
            let now = waiting(&self.state);
            if now.is_some() && now != before.as_ref() {
                for line in crate::reveal::live_lines(&self.state, Some(self.state.sent_at_ms)) {
                    print_now(&(line + "\n"));
                }
            }
        }
    }

    /// The next link of his chain as the server counts them, with its number.
    fn next_link(&self) -> Option<(u32, baffle_core::dice::Link)> {
        let live = self.state.live_dice.as_ref()?;
        let chain = held(live, self.kept.side)?;
        self.kept.next(chain.left)
    }

    /// Gives his link when a draw waits without it.
    async fn give_if_asked(&mut self) {
        let Some(w) = waiting(&self.state) else {
            return;
        };
        let given = match self.kept.side {
            Side::A => w.given_a,
            Side::B => w.given_b,
        };
        if given || self.state.result.is_some() {
            return;
        }
        let Some((i, link)) = self.next_link() else {
            say(
                "live-no-link",
                &[("file", self.kept.path.display().to_string().into())],
            );
            return;
        };
        if self.last_given == Some(i) {
            return;
        }
        let request = v1::GiveLinkRequest {
            match_id: self.match_id.clone(),
            side: self.own(),
            link: link.to_vec(),
        };
        let Ok(request) = authed(request, &self.code) else {
            return;
        };
        match to_owner(self.channel.clone(), request, |c, r| async move {
            AuditClient::new(c).give_link(r).await
        })
        .await
        {
            Ok(_) => {
                self.last_given = Some(i);
                say("live-link-given", &[("index", i.into())]);
            }
            Err(o) => print_now(&o.err),
        }
    }

    /// A line the player typed; `false` to stop.
    async fn command(&mut self, line: &str) -> bool {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let own = self.own();
        let mut link = None;
        let action = match word.to_lowercase().as_str() {
            "" => return true,
            "quit" | "exit" => return false,
            "show" => {
                print_now(&render::match_text(&self.state));
                return true;
            }
            "roll" => {
                link = self.roll_link();
                Action::Roll(v1::Roll {
                    side: own,
                    dice: Vec::new(),
                    link: link.map(|(_, l)| l.to_vec()).unwrap_or_default(),
                })
            }
            "opening" => Action::OpeningRoll(v1::Roll::default()),
            "double" => Action::Double(own),
            "take" => Action::Take(own),
            "pass" => Action::Pass(own),
            "press" => Action::Press(own),
            "move" => Action::Move(v1::Move {
                side: own,
                play: rest.trim().to_string(),
            }),
            _ => {
                say("live-commands", &[]);
                return true;
            }
        };
        self.execute(action, link.map(|(i, _)| i)).await;
        true
    }

    /// The link a roll takes: his next one, unless the opponent is still moving (then the
    /// roll is queued and its link given when it is asked for).
    fn roll_link(&self) -> Option<(u32, baffle_core::dice::Link)> {
        let s = &self.state;
        let opponent_moves = s.turn == v1::TurnPhase::Moving as i32 && s.turn_side != self.own();
        if opponent_moves {
            return None;
        }
        self.next_link()
    }

    /// Sends his command; says it was done (the feed says what it did) or why not.
    async fn execute(&mut self, action: Action, link: Option<u32>) {
        let request = v1::ExecuteRequest {
            match_id: self.match_id.clone(),
            command: Some(v1::Command {
                action: Some(action),
            }),
            ..Default::default()
        };
        let Ok(request) = authed(request, &self.code) else {
            return;
        };
        let reply = to_owner(self.channel.clone(), request, |c, r| async move {
            MatchesClient::new(c).execute(r).await
        })
        .await;
        match reply {
            Ok(r) => {
                if let Some(i) = link {
                    self.last_given = Some(i);
                    say("live-link-given", &[("index", i.into())]);
                }
                say("live-done", &[]);
                if let Some(s) = r.state {
                    self.keep(s);
                }
                self.give_if_asked().await;
            }
            Err(o) => print_now(&o.err),
        }
    }
}

/// The draw waiting for links, if any.
fn waiting(s: &v1::MatchState) -> Option<&v1::LiveDraw> {
    s.live_dice.as_ref()?.waiting.as_ref()
}
