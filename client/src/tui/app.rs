//! Running the views in a real terminal: the server's updates arrive on one task, keys on
//! another, and the screen is redrawn ten times a second so clocks tick. Both views
//! reconnect by themselves: `follow` resumes from the last event it saw, `console`
//! re-subscribes to the tournament feed (which starts with every match's state).

use std::time::Duration;

use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::draws_client::DrawsClient;
use baffle_proto::v1::matches_client::MatchesClient;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use tokio::sync::mpsc;
use tonic::Request;

use super::console::{Dashboard, Order, Pressed, Wanted};
use super::follow;
use crate::connect;
use crate::feed::{Feed, match_feed, tournament_feed};
use crate::reveal::{self, DiceCheck};
use crate::words;

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The server's clock less this machine's, from a state's `sent_at_ms` (the streams set
/// it); `None` for a state without one. Clocks tick and deadlines pass on the server's
/// time, whatever this machine's clock says.
fn server_offset(s: &v1::MatchState) -> Option<i64> {
    (s.sent_at_ms > 0).then(|| s.sent_at_ms - now_ms())
}

/// What a fetch for the dashboard brought back.
#[derive(Debug)]
enum Fetched {
    /// A match's records.
    Events(String, Vec<v1::Event>),
    /// What recomputing a match's dice found.
    Check(String, DiceCheck),
    /// What a match's board proves for the director.
    Adjudication(String, v1::Adjudication),
}

/// The records of `match_id` from `from_seq` up to `to_seq` (a short Watch, ended once
/// they arrived, or after 10 s with what came): what the dashboard reads for
/// [`Wanted::Events`].
pub async fn records(server: &str, match_id: &str, from_seq: u64, to_seq: u64) -> Vec<v1::Event> {
    let mut events = Vec::new();
    let read = async {
        let channel = connect::connect(server).await.ok()?;
        let request = v1::WatchRequest {
            match_id: match_id.to_string(),
            from_seq,
        };
        let mut stream = MatchesClient::new(channel)
            .watch(request)
            .await
            .ok()?
            .into_inner();
        while let Ok(Some(update)) = stream.message().await {
            events.extend(update.events.into_iter().filter(|e| e.seq < to_seq));
            if events.last().is_some_and(|e| e.seq + 1 >= to_seq) {
                break;
            }
        }
        Some(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), read).await;
    events
}

/// A revealed match's dice recomputed, the log read again (five tries, 2 s apart) while
/// it cannot be read: a server out of reach for a moment says nothing about the dice.
async fn checked_with_retries(server: &str, match_id: &str, head: &str) -> DiceCheck {
    let mut tries = 0;
    loop {
        let check = match connect::connect(server).await {
            Ok(channel) => reveal::check(channel, match_id, head).await,
            Err(e) => DiceCheck::Unreadable {
                why: format!("server unreachable ({e})"),
            },
        };
        tries += 1;
        if !matches!(check, DiceCheck::Unreadable { .. }) || tries == 5 {
            return check;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

/// Fetches what the dashboard asked for, on a task of its own; the answer comes back on
/// `tx`.
fn fetch(server: &str, token: &Option<String>, wanted: Wanted, tx: &mpsc::Sender<Fetched>) {
    let (server, token, tx) = (server.to_string(), token.clone(), tx.clone());
    tokio::spawn(async move {
        let fetched = match wanted {
            Wanted::Adjudication { match_id } => {
                // Without the token, or from a server that refuses, nothing is shown.
                match adjudication(&server, &token, &match_id).await {
                    Some(help) => Fetched::Adjudication(match_id, help),
                    None => return,
                }
            }
            Wanted::Events {
                match_id,
                from_seq,
                to_seq,
            } => {
                let events = records(&server, &match_id, from_seq, to_seq).await;
                Fetched::Events(match_id, events)
            }
            Wanted::DiceCheck { match_id, head } => {
                let check = checked_with_retries(&server, &match_id, &head).await;
                Fetched::Check(match_id, check)
            }
        };
        let _ = tx.send(fetched).await;
    });
}

/// What `match_id`'s board proves, asked with the director's token: `None` without a
/// token, or if the server will not say (the console and `baffle match show` both ask).
pub async fn adjudication(
    server: &str,
    token: &Option<String>,
    match_id: &str,
) -> Option<v1::Adjudication> {
    token.as_ref()?;
    let channel = connect::connect(server).await.ok()?;
    let request = v1::AdjudicateRequest {
        match_id: match_id.to_string(),
    };
    let request = authorised(request, token).ok()?;
    let reply = MatchesClient::new(channel).adjudicate(request).await.ok()?;
    Some(reply.into_inner())
}

/// Keys from the terminal, read on a blocking thread: each key and whether Ctrl was held.
fn keys() -> mpsc::UnboundedReceiver<(KeyCode, bool)> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        loop {
            if let Ok(true) = event::poll(Duration::from_millis(200)) {
                if let Ok(Event::Key(k)) = event::read()
                    && k.kind == KeyEventKind::Press
                    && tx
                        .send((k.code, k.modifiers.contains(KeyModifiers::CONTROL)))
                        .is_err()
                {
                    return;
                }
            } else if tx.is_closed() {
                return;
            }
        }
    });
    rx
}

/// Follows one match until `q`.
pub async fn follow(server: String, match_id: String) -> std::io::Result<()> {
    let mut feed = match_feed(server.clone(), match_id);
    let mut terminal = ratatui::init();
    let mut keys = keys();
    let mut state: Option<v1::MatchState> = None;
    let mut status = follow::Status::default();
    let (checked_tx, mut checked) = mpsc::channel(4);
    let mut offset = 0;
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let result = loop {
        tokio::select! {
            Some(f) = feed.recv() => match f {
                Feed::State(s) => {
                    offset = server_offset(&s).unwrap_or(offset);
                    // A revealed seed: the dice are recomputed here, once.
                    if s.dice_revealed && reveal::uses_server_dice(&s) && status.dice.is_none() {
                        status.dice = Some(follow::DiceShown::Checking);
                        let head = s.head_hash.clone();
                        fetch(&server, &None, Wanted::DiceCheck { match_id: s.match_id.clone(), head }, &checked_tx);
                    }
                    state = Some(*s);
                    status.connection = None;
                }
                Feed::Events(_) => {}
                Feed::Problem(p) => status.connection = Some(p),
                Feed::Offline(_) => {}
                Feed::Gone(why) => break Err(std::io::Error::new(std::io::ErrorKind::NotFound, why)),
            },
            // q, Esc or Ctrl-C leave; nothing else is read.
            Some((k, ctrl)) = keys.recv() => if matches!(k, KeyCode::Char('q') | KeyCode::Esc)
                || (ctrl && matches!(k, KeyCode::Char('c' | 'C'))) { break Ok(()) },
            Some(Fetched::Check(_, check)) = checked.recv() => status.dice = Some(follow::DiceShown::Checked(check)),
            _ = tick.tick() => {}
        }
        let drawn = terminal.draw(|frame| match &state {
            Some(s) => follow::draw(frame, s, now_ms() + offset, &status),
            None => frame.render_widget(
                ratatui::widgets::Paragraph::new(
                    status
                        .connection
                        .clone()
                        .unwrap_or_else(|| "connecting…".into()),
                ),
                frame.area(),
            ),
        });
        if let Err(e) = drawn {
            break Err(e);
        }
    };
    ratatui::restore();
    result
}

/// The draw of a tournament (`WatchDraw`): the draw now, then after every change. A
/// tournament without a draw (NOT_FOUND) sends nothing and is asked again every 10 s,
/// in case the director opens one; a lost stream is resumed after a second (its first
/// message is the whole draw again). The tournament feed says the connection's
/// problems: this one is silent. Ends when the receiver is dropped.
pub fn draw_feed(server: String, tournament: String) -> mpsc::Receiver<v1::DrawView> {
    let (tx, feed) = mpsc::channel(16);
    tokio::spawn(async move {
        loop {
            let mut pause = Duration::from_secs(1);
            if let Ok(channel) = connect::connect(&server).await {
                let request = v1::GetDrawRequest {
                    tournament_id: tournament.clone(),
                };
                match DrawsClient::new(channel).watch_draw(request).await {
                    Ok(stream) => {
                        let mut stream = stream.into_inner();
                        while let Ok(Some(view)) = stream.message().await {
                            if tx.send(view).await.is_err() {
                                return;
                            }
                        }
                    }
                    Err(e) if e.code() == tonic::Code::NotFound => pause = Duration::from_secs(10),
                    Err(_) => {}
                }
            }
            if tx.is_closed() {
                return;
            }
            tokio::time::sleep(pause).await;
        }
    });
    feed
}

/// Runs the dashboard of a tournament until `q`.
pub async fn console(
    server: String,
    token: Option<String>,
    tournament: String,
) -> std::io::Result<()> {
    let mut feed = tournament_feed(server.clone(), tournament.clone());
    let mut draws = draw_feed(server.clone(), tournament.clone());
    let mut terminal = ratatui::init();
    let mut keys = keys();
    let mut board = Dashboard::new(&tournament);
    let (fetched_tx, mut fetched) = mpsc::channel(64);
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let result = loop {
        tokio::select! {
            Some(f) = feed.recv() => match f {
                Feed::State(s) => {
                    board.connection = None;
                    board.heard_from_server(s.sent_at_ms, now_ms());
                    for wanted in board.update(*s) {
                        fetch(&server, &token, wanted, &fetched_tx);
                    }
                }
                Feed::Events(_) => {}
                Feed::Problem(p) => board.connection = Some(p),
                Feed::Offline(m) => { board.offline.insert(m.match_id.clone(), m); }
                Feed::Gone(why) => break Err(std::io::Error::new(std::io::ErrorKind::NotFound, why)),
            },
            Some((code, ctrl)) = keys.recv() => {
                let key = match board.pressed(code, ctrl) {
                    Pressed::Quit => break Ok(()),
                    Pressed::Nothing => continue,
                    Pressed::Key(key) => key,
                };
                if let Some(pending) = board.key(key) {
                    match send(&server, &token, pending).await {
                        // What a ruling changed, as its record says: "score corrected:
                        // 2–3 → 1–0" (a second new director saw only "sent: …").
                        Ok(said) => said.into_iter().for_each(|line| board.tick(line)),
                        Err(e) => {
                            let why = [("why", e.into())];
                            board.tick(crate::words::say_with("console-tick-refused", &why));
                        }
                    }
                }
            }
            Some(view) = draws.recv() => board.draw = Some(view),
            Some(f) = fetched.recv() => match f {
                Fetched::Events(id, events) => board.events(&id, &events),
                Fetched::Check(id, check) => board.dice_checked(&id, check),
                Fetched::Adjudication(id, help) => board.adjudicated(&id, help),
            },
            _ = tick.tick() => {}
        }
        let server_now = board.server_now(now_ms());
        if let Err(e) = terminal.draw(|frame| board.draw(frame, server_now)) {
            break Err(e);
        }
    };
    ratatui::restore();
    result
}

/// `message` bearing the director's token, if any.
fn authorised<T>(message: T, token: &Option<String>) -> Result<Request<T>, String> {
    let mut request = Request::new(message);
    if let Some(t) = token {
        request.metadata_mut().insert(
            "authorization",
            format!("Bearer {t}")
                .parse()
                .map_err(|_| "the token is not text")?,
        );
    }
    Ok(request)
}

/// Sends a command the director confirmed at the console: a match command with
/// `Execute`, more time for the seeds with `ExtendRevealDeadline`; on a cluster to the
/// node that writes the match. A refusal is its message.
/// Sends a confirmed command; returns the words of the rulings it recorded (with what
/// they changed), one line each, for the ticker.
pub async fn send(
    server: &str,
    token: &Option<String>,
    pending: super::console::Pending,
) -> Result<Vec<String>, String> {
    let channel = connect::connect(server).await.map_err(|e| e.to_string())?;
    let action = match pending.order {
        Order::Execute(action) => action,
        Order::StartRound { flight, round } => {
            let request = authorised(
                v1::StartRoundRequest {
                    tournament_id: pending.match_id,
                    flight,
                    round,
                    start_ms: 0,
                },
                token,
            )?;
            return DrawsClient::new(channel)
                .start_round(request)
                .await
                .map(|_| Vec::new())
                .map_err(|s| s.message().to_string());
        }
        Order::ExtendReveal { minutes } => {
            let ruling = pending.ruling.unwrap_or_default();
            let request = authorised(
                v1::ExtendRevealDeadlineRequest {
                    match_id: pending.match_id,
                    seconds: minutes.saturating_mul(60),
                    reason: ruling.reason,
                    article: ruling.article,
                },
                token,
            )?;
            return connect::following_owner(channel, request, |c, r| async move {
                AuditClient::new(c).extend_reveal_deadline(r).await
            })
            .await
            .map(|_| Vec::new())
            .map_err(|s| s.message().to_string());
        }
    };
    let request = authorised(
        v1::ExecuteRequest {
            match_id: pending.match_id,
            command: Some(v1::Command {
                action: Some(action),
            }),
            ruling: pending.ruling,
            request_id: String::new(),
            expected_seq: None,
        },
        token,
    )?;
    // On a cluster, the node that writes the match takes it (docs/cluster.md).
    let reply = connect::following_owner(channel, request, |c, r| async move {
        MatchesClient::new(c).execute(r).await
    })
    .await
    .map_err(|s| s.message().to_string())?
    .into_inner();
    let state = reply.state.unwrap_or_default();
    let names = [state.player_a.as_str(), state.player_b.as_str()];
    Ok(reply
        .events
        .iter()
        .filter(|e| e.kind == "bg.ruling")
        .map(|e| format!("{}: {}", state.match_id, words::event(e, names)))
        .collect())
}
