//! A director's client of a whole room of nodes, written from `docs/cluster.md`'s
//! contract alone (not from the server's or `baffle`'s code), for the cluster tests: it
//! is the independent client their checker trusts.
//!
//! It sends a match's command to the node it last found owning the match. A node that
//! does not own the match answers UNAVAILABLE with the owner's address in the
//! `baffle-owner` metadata key: the client goes there. A node that does not answer, or
//! answers UNAVAILABLE without an owner (the owner died and no node has taken the match
//! over yet, or a node is starting), gets the next node after a short wait. A node that
//! let an attempt's deadline pass (a frozen node answers nothing) is left aside for two
//! more deadlines: the client asks the others, and follows a redirect to it only once
//! they have passed — the others name the new owner as soon as there is one. Every
//! command carries a request id and is retried with it until it is answered, so a retry
//! of a command that was applied gets its first reply instead of being applied again.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

/// The metadata key naming a match's owner (docs/cluster.md).
pub const OWNER_KEY: &str = "baffle-owner";

/// Who answered a command, and what.
#[derive(Clone, Debug)]
pub struct Answered<T> {
    /// The index of the node that applied it (its owner at that moment).
    pub node: usize,
    /// The reply.
    pub reply: T,
    /// Whether an earlier attempt may have been applied (it failed other than by a
    /// redirect): then this reply may be that attempt's, kept with its request id and
    /// sent again by whichever node answered.
    pub retried: bool,
}

/// The room's nodes as the client sees them.
pub struct Room {
    urls: Vec<String>,
    channels: Vec<Channel>,
    token: String,
    /// Each match's owner as last found.
    owners: Mutex<HashMap<String, usize>>,
    /// How long a command is retried before it is given up.
    patience: Duration,
    /// How long one attempt waits for its answer before the next node is tried.
    attempt: Duration,
}

/// What to do after a failed attempt.
enum Next {
    /// Go to this node at once.
    Node(usize),
    /// Wait a little, then try the next node.
    Another,
    /// The answer is final.
    Fail(Status),
}

impl Room {
    /// A client of the nodes at `urls` (index = node), through `channels`, as the
    /// director with `token`.
    pub fn new(urls: Vec<String>, channels: Vec<Channel>, token: &str) -> Room {
        Room {
            urls,
            channels,
            token: token.to_string(),
            owners: Mutex::default(),
            patience: Duration::from_secs(30),
            attempt: Duration::from_secs(5),
        }
    }

    /// The same client, retrying each command for `patience` before it gives up (30 s
    /// by default).
    pub fn with_patience(mut self, patience: Duration) -> Room {
        self.patience = patience;
        self
    }

    /// The same client, waiting `attempt` for each attempt's answer (5 s by default)
    /// before it tries the next node with the same request id: what passes over a
    /// frozen node (SIGSTOP), whose connections stay open and answer nothing.
    pub fn with_attempt_timeout(mut self, attempt: Duration) -> Room {
        self.attempt = attempt;
        self
    }

    fn director<T>(&self, message: T) -> Request<T> {
        let mut r = Request::new(message);
        r.set_timeout(self.attempt);
        r.metadata_mut().insert(
            "authorization",
            format!("Bearer {}", self.token).parse().expect("ASCII"),
        );
        r
    }

    fn owner_of(&self, match_id: &str) -> usize {
        let owners = self.owners.lock().expect("not poisoned");
        owners.get(match_id).copied().unwrap_or(0)
    }

    fn next_step(&self, status: Status) -> Next {
        let owner = status
            .metadata()
            .get(OWNER_KEY)
            .and_then(|v| v.to_str().ok())
            .and_then(|url| {
                let url = url.trim_end_matches('/');
                self.urls.iter().position(|u| u == url)
            });
        match (status.code(), owner) {
            (Code::Unavailable, Some(node)) => Next::Node(node),
            // A node that is not there (refused, reset, timed out) or not serving yet.
            (
                Code::Unavailable | Code::Unknown | Code::DeadlineExceeded | Code::Cancelled,
                None,
            ) => Next::Another,
            _ => Next::Fail(status),
        }
    }

    /// Runs `attempt` on the match's owner, following redirects and trying other nodes,
    /// until it is answered or the patience runs out.
    async fn on_owner<T, F, Fut>(
        &self,
        match_id: &str,
        mut attempt: F,
    ) -> Result<Answered<T>, Status>
    where
        F: FnMut(Channel) -> Fut,
        Fut: std::future::Future<Output = Result<T, Status>>,
    {
        let started = Instant::now();
        let mut node = self.owner_of(match_id);
        let mut retried = false;
        // The node whose last attempt ran out its deadline, and when.
        let mut silent: Option<(usize, Instant)> = None;
        let left_aside = |n: usize, silent: Option<(usize, Instant)>| {
            silent.is_some_and(|(s, at)| s == n && at.elapsed() < self.attempt * 2)
        };
        loop {
            // The deadline is the client's own: a frozen node enforces none.
            let answer = tokio::time::timeout(self.attempt, attempt(self.channels[node].clone()));
            let answer = answer.await.unwrap_or_else(|_| {
                silent = Some((node, Instant::now()));
                Err(Status::deadline_exceeded(format!(
                    "no answer within {:?}",
                    self.attempt
                )))
            });
            let last = match answer {
                Ok(reply) => {
                    let mut owners = self.owners.lock().expect("not poisoned");
                    owners.insert(match_id.to_string(), node);
                    return Ok(Answered {
                        node,
                        reply,
                        retried,
                    });
                }
                Err(status) => {
                    let said =
                        format!("node {node} said {:?}: {}", status.code(), status.message());
                    match self.next_step(status) {
                        Next::Fail(status) => return Err(status),
                        Next::Node(owner) if owner != node && !left_aside(owner, silent) => {
                            node = owner;
                            continue;
                        }
                        // Named, but silent a moment ago: its lease may be running out;
                        // ask this one again shortly rather than wait on it.
                        Next::Node(owner) if owner != node => {
                            if started.elapsed() > self.patience {
                                return Err(Status::unavailable(said));
                            }
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            continue;
                        }
                        // Named itself, or no owner named: it is on its way; try another.
                        Next::Node(_) => Status::unavailable(said),
                        Next::Another => {
                            retried = true;
                            Status::unavailable(said)
                        }
                    }
                }
            };
            if started.elapsed() > self.patience {
                return Err(last);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            node = (node + 1) % self.channels.len();
            if left_aside(node, silent) && self.channels.len() > 1 {
                node = (node + 1) % self.channels.len();
            }
        }
    }

    /// Executes `request` on the match's owner (give it a request id: it is retried).
    pub async fn execute(
        &self,
        request: v1::ExecuteRequest,
    ) -> Result<Answered<v1::ExecuteReply>, Status> {
        let id = request.match_id.clone();
        self.on_owner(&id, |channel| {
            let request = self.director(request.clone());
            async move {
                MatchesClient::new(channel)
                    .execute(request)
                    .await
                    .map(|r| r.into_inner())
            }
        })
        .await
    }

    /// Creates a match on node `node`, which then owns it.
    pub async fn create_match(
        &self,
        node: usize,
        request: v1::CreateMatchRequest,
    ) -> Result<Answered<v1::MatchState>, Status> {
        let state = TournamentsClient::new(self.channels[node].clone())
            .create_match(self.director(request.clone()))
            .await?
            .into_inner();
        self.owners
            .lock()
            .expect("not poisoned")
            .insert(request.match_id.clone(), node);
        Ok(Answered {
            node,
            reply: state,
            retried: false,
        })
    }

    /// Creates a tournament through node `node`.
    pub async fn create_tournament(
        &self,
        node: usize,
        tournament: v1::Tournament,
    ) -> Result<(), Status> {
        TournamentsClient::new(self.channels[node].clone())
            .create_tournament(self.director(v1::CreateTournamentRequest {
                tournament: Some(tournament),
            }))
            .await?;
        Ok(())
    }

    /// The address of node `node`.
    pub fn url(&self, node: usize) -> &str {
        &self.urls[node]
    }
}

/// A request for `action` on `match_id` with `request_id`.
pub fn command(match_id: &str, request_id: String, action: Action) -> v1::ExecuteRequest {
    v1::ExecuteRequest {
        match_id: match_id.into(),
        command: Some(v1::Command {
            action: Some(action),
        }),
        request_id,
        ..Default::default()
    }
}

/// The physical dice reported for a match's `n`th roll: a rule a checker can recompute.
pub fn dice(n: usize) -> [u32; 2] {
    [(n % 6 + 1) as u32, ((n / 6) % 6 + 1) as u32]
}

/// The next command of a backgammon match played as fast as answers come, from its
/// state: roll `dice(rolls)` when on roll, press when moving. With the dice, for a roll.
pub fn next_move(state: &v1::MatchState, rolls: usize) -> (Action, Option<[u32; 2]>) {
    let side = state.turn_side;
    match v1::TurnPhase::try_from(state.turn) {
        Ok(v1::TurnPhase::OnRoll) => {
            let d = dice(rolls);
            let roll = v1::Roll {
                side,
                dice: d.to_vec(),
                link: Vec::new(),
            };
            (Action::Roll(roll), Some(d))
        }
        Ok(v1::TurnPhase::Moving) => (Action::Press(side), None),
        other => panic!("{}: no move in turn {other:?}", state.match_id),
    }
}

impl Room {
    /// Creates tournament `id` with physical dice and `per_point_ms` a point on node 0,
    /// then each of `matches` (id, creating node) of `length` points, checked in and
    /// opened (A wins the opening roll with 6-1); the matches' states after it.
    pub async fn open_matches(
        &self,
        id: &str,
        per_point_ms: i64,
        length: u32,
        matches: &[(String, usize)],
    ) -> Vec<v1::MatchState> {
        let defaults = v1::TournamentDefaults {
            dice: v1::DiceSource::Physical as i32,
            per_point_ms,
            delay_ms: Some(0),
            ..Default::default()
        };
        let tournament = v1::Tournament {
            id: id.into(),
            name: id.into(),
            defaults: Some(defaults),
            ..Default::default()
        };
        self.create_tournament(0, tournament)
            .await
            .expect("the tournament");
        let mut opened = Vec::new();
        for (m, node) in matches {
            self.create_when_known(*node, m, id, length).await;
            for side in [v1::Side::A, v1::Side::B] {
                let request = command(m, format!("{m}-in-{side:?}"), Action::CheckIn(side as i32));
                self.execute(request).await.expect("a check-in");
            }
            let roll = v1::Roll {
                side: 0,
                dice: vec![6, 1],
                link: Vec::new(),
            };
            let request = command(m, format!("{m}-opening"), Action::OpeningRoll(roll));
            let answer = self.execute(request).await.expect("the opening roll");
            opened.push(answer.reply.state.expect("a state"));
        }
        opened
    }

    /// Creates match `id` on `node`, waiting (at most 10 s) for the node to learn of
    /// the tournament another node created — the registry is shared, and reaches each
    /// node on a notification — and retrying what was not stored. Its players are named
    /// after it ("Anna `id`" v "Ben `id`"): the room's matches are all in one round, which
    /// has one match per pair of players.
    pub async fn create_when_known(
        &self,
        node: usize,
        id: &str,
        tournament: &str,
        length: u32,
    ) -> v1::MatchState {
        let request = v1::CreateMatchRequest {
            tournament_id: tournament.into(),
            match_id: id.into(),
            player_a: format!("Anna {id}"),
            player_b: format!("Ben {id}"),
            length,
            ..Default::default()
        };
        let started = Instant::now();
        loop {
            match self.create_match(node, request.clone()).await {
                Ok(answer) => return answer.reply,
                // Not known there yet, or not stored (UNAVAILABLE: retry).
                Err(e)
                    if matches!(e.code(), Code::NotFound | Code::Unavailable)
                        && started.elapsed() < Duration::from_secs(10) =>
                {
                    tokio::time::sleep(Duration::from_millis(20)).await
                }
                Err(e) => panic!("{id} on node {node}: {e}"),
            }
        }
    }
}

impl Room {
    /// Registers device `id` through node `node` and binds it to `match_id`; its
    /// credential.
    pub async fn register_device(&self, node: usize, id: &str, match_id: &str) -> String {
        let mut devices = DevicesClient::new(self.channels[node].clone());
        let request = v1::RegisterDeviceRequest {
            device_id: id.into(),
        };
        let credential = devices
            .register_device(self.director(request))
            .await
            .expect("the device registered")
            .into_inner()
            .credential;
        let bind = v1::BindDeviceRequest {
            device_id: id.into(),
            match_id: match_id.into(),
        };
        devices
            .bind_device(self.director(bind))
            .await
            .expect("the device bound");
        credential
    }
}
