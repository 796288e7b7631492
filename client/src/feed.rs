//! A match's or a tournament's updates from the server, as one stream of [`Feed`]
//! messages that reconnects by itself: what the console, `follow`, the line mode and the
//! witness read. Lost connections become words for people (`Feed::Problem`), never an
//! end, except where the server says the match does not exist.

use std::time::Duration;

use baffle_proto::v1;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use tokio::sync::mpsc;

use crate::connect;
use crate::words;

/// What the server side sends the screen.
#[derive(Debug)]
pub enum Feed {
    /// A match's new state.
    State(Box<v1::MatchState>),
    /// The events of an update (the match feed only), before its state.
    Events(Vec<v1::Event>),
    /// The connection is in trouble; the feed is reconnecting.
    Problem(String),
    /// The server said the match or tournament does not exist: the feed has ended.
    Gone(String),
    /// A match of the tournament that is offline: its log did not check out on the
    /// server's start (DATA_LOSS). Sent on every (re)connection.
    Offline(v1::OfflineMatch),
}

/// The updates of one match, resumed from the last event seen after every disconnect or
/// server restart (with a `Problem` between). Ends when the receiver is dropped.
pub fn match_feed(server: String, match_id: String) -> mpsc::Receiver<Feed> {
    feed_of_match(server, match_id, false)
}

/// [`match_feed`] with each update's events first (`Feed::Events`), for the line mode.
pub fn match_updates(server: String, match_id: String) -> mpsc::Receiver<Feed> {
    feed_of_match(server, match_id, true)
}

fn feed_of_match(server: String, match_id: String, with_events: bool) -> mpsc::Receiver<Feed> {
    let (tx, feed) = mpsc::channel(64);
    tokio::spawn(async move {
        let mut next = 0u64;
        loop {
            match connect::connect(&server).await {
                Ok(channel) => {
                    let request = v1::WatchRequest {
                        match_id: match_id.clone(),
                        from_seq: next,
                    };
                    match MatchesClient::new(channel).watch(request).await {
                        Ok(stream) => {
                            let mut stream = stream.into_inner();
                            loop {
                                match stream.message().await {
                                    Ok(Some(update)) => {
                                        if let Some(last) = update.events.last() {
                                            next = last.seq + 1;
                                        }
                                        if with_events
                                            && !update.events.is_empty()
                                            && tx.send(Feed::Events(update.events)).await.is_err()
                                        {
                                            return;
                                        }
                                        if let Some(state) = update.state {
                                            next = next.max(state.seq);
                                            if tx.send(Feed::State(Box::new(state))).await.is_err()
                                            {
                                                return;
                                            }
                                        }
                                    }
                                    Ok(None) => break,
                                    Err(e) => {
                                        let why = [("why", e.message().into())];
                                        let said = words::say_with("feed-lost", &why);
                                        let _ = tx.send(Feed::Problem(said)).await;
                                        break;
                                    }
                                }
                            }
                        }
                        // A match that does not exist will not appear by retrying.
                        Err(e) if e.code() == tonic::Code::NotFound => {
                            let _ = tx.send(Feed::Gone(e.message().to_string())).await;
                            return;
                        }
                        Err(e) => {
                            let why = [("why", e.message().into())];
                            let said = words::say_with("feed-retrying", &why);
                            let _ = tx.send(Feed::Problem(said)).await;
                        }
                    }
                }
                Err(e) => {
                    let _ = tx.send(Feed::Problem(unreachable(&server, &e))).await;
                }
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
    feed
}

/// The feed's words for a server it cannot reach: its address and why, said once.
fn unreachable(server: &str, e: &tonic::transport::Error) -> String {
    let args = [
        ("server", crate::connect::url(server).into()),
        ("why", crate::connect::why_unreachable(e).into()),
    ];
    words::say_with("feed-unreachable", &args)
}

/// The states of a tournament's matches: all of them first, then each change; after a
/// disconnect or server restart a `Problem`, then all of them again. Ends when the
/// receiver is dropped.
pub fn tournament_feed(server: String, tournament: String) -> mpsc::Receiver<Feed> {
    let (tx, feed) = mpsc::channel(256);
    tokio::spawn(async move {
        loop {
            let problem = match connect::connect(&server).await {
                Ok(channel) => {
                    // The feed leaves out matches whose log is lost; the listing names
                    // them, so that the director sees them.
                    let listing = TournamentsClient::new(channel.clone())
                        .list_matches(v1::ListMatchesRequest {
                            tournament_id: tournament.clone(),
                            ..Default::default()
                        })
                        .await;
                    for m in listing.map(|l| l.into_inner().offline).unwrap_or_default() {
                        if tx.send(Feed::Offline(m)).await.is_err() {
                            return;
                        }
                    }
                    let request = v1::WatchTournamentRequest {
                        tournament_id: tournament.clone(),
                    };
                    match MatchesClient::new(channel).watch_tournament(request).await {
                        Ok(stream) => {
                            let mut stream = stream.into_inner();
                            loop {
                                match stream.message().await {
                                    Ok(Some(state)) => {
                                        if tx.send(Feed::State(Box::new(state))).await.is_err() {
                                            return;
                                        }
                                    }
                                    Ok(None) => break words::say("feed-closed"),
                                    Err(e) => {
                                        let why = [("why", e.message().into())];
                                        break words::say_with("feed-lost", &why);
                                    }
                                }
                            }
                        }
                        Err(e) if e.code() == tonic::Code::NotFound => {
                            let _ = tx.send(Feed::Gone(e.message().to_string())).await;
                            return;
                        }
                        Err(e) => words::say_with("feed-lost", &[("why", e.message().into())]),
                    }
                }
                Err(e) => unreachable(&server, &e),
            };
            if tx.send(Feed::Problem(problem)).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
    feed
}
