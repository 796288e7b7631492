//! A director at a table: drives one match through the real gRPC API.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use tonic::transport::Channel;
use tonic::{Code, Status};

use crate::{TestServer, with_token};

/// Side A on the wire.
pub const A: i32 = v1::Side::A as i32;
/// Side B on the wire.
pub const B: i32 = v1::Side::B as i32;

/// A tournament with the given defaults, and clients as the director.
#[derive(Clone)]
pub struct Director {
    /// Matches client.
    pub matches: MatchesClient<Channel>,
    /// Tournaments client.
    pub tournaments: TournamentsClient<Channel>,
    token: String,
}

impl Director {
    /// Connects as the director of `server`.
    pub async fn connect(server: &TestServer) -> Director {
        let channel = server.channel().await;
        Director {
            matches: MatchesClient::new(channel.clone()),
            tournaments: TournamentsClient::new(channel),
            token: server.token.clone(),
        }
    }

    /// Connects as the director over `channel` with `token` (a node of a cluster).
    pub fn on(channel: Channel, token: &str) -> Director {
        Director {
            matches: MatchesClient::new(channel.clone()),
            tournaments: TournamentsClient::new(channel),
            token: token.into(),
        }
    }

    /// Creates tournament `id` with `defaults`.
    pub async fn tournament(&mut self, id: &str, defaults: v1::TournamentDefaults) {
        let t = v1::Tournament {
            id: id.into(),
            name: format!("{id} open"),
            defaults: Some(defaults),
            ..Default::default()
        };
        let r = with_token(
            v1::CreateTournamentRequest {
                tournament: Some(t),
            },
            &self.token,
        );
        self.tournaments
            .create_tournament(r)
            .await
            .expect("tournament created");
    }

    /// Creates a match at table 7 and returns its state.
    pub async fn create_match(
        &mut self,
        tournament: &str,
        id: &str,
        length: u32,
        start_ms: i64,
    ) -> v1::MatchState {
        self.create_match_at(tournament, id, "7", length, start_ms)
            .await
    }

    /// Creates a match of Anna v Ben at `table` and returns its state.
    ///
    /// A round has one match per table and per pair of players, and these are all Anna
    /// v Ben: each goes in a round of its own, the tournament's next — one after the
    /// highest round of the matches the server lists for it (offline ones included). So
    /// in a tournament whose matches are all made here the first is in round 1, the
    /// second in round 2, …, whichever director (or node of a cluster) makes them, and
    /// after a restart too. A test that needs matches in the same round creates them with
    /// [`Director::create`], each with its own table and players.
    pub async fn create_match_at(
        &mut self,
        tournament: &str,
        id: &str,
        table: &str,
        length: u32,
        start_ms: i64,
    ) -> v1::MatchState {
        let round = self.next_round(tournament).await;
        self.create(v1::CreateMatchRequest {
            tournament_id: tournament.into(),
            match_id: id.into(),
            round,
            table: table.into(),
            player_a: "Anna".into(),
            player_b: "Ben".into(),
            length,
            scheduled_start_ms: start_ms,
            ..Default::default()
        })
        .await
    }

    /// One after the highest round of `tournament`'s matches (1 for its first).
    pub async fn next_round(&mut self, tournament: &str) -> u32 {
        let request = v1::ListMatchesRequest {
            tournament_id: tournament.into(),
            ..Default::default()
        };
        let listed = self
            .tournaments
            .list_matches(with_token(request, &self.token))
            .await
            .expect("the tournament's matches listed")
            .into_inner();
        let rounds = listed.matches.iter().map(|m| m.round);
        let offline = listed.offline.iter().map(|m| m.round);
        rounds.chain(offline).max().unwrap_or(0) + 1
    }

    /// `message` with the director's token, for calls the helpers here do not make.
    pub fn with_token<T>(&self, message: T) -> tonic::Request<T> {
        with_token(message, &self.token)
    }

    /// Creates the match `r` asks for; it must be accepted.
    pub async fn create(&mut self, r: v1::CreateMatchRequest) -> v1::MatchState {
        self.tournaments
            .create_match(with_token(r, &self.token))
            .await
            .expect("match created")
            .into_inner()
    }

    /// Creates chess match `id` at `table` between Anna and Boris, game 1 starting at
    /// `start_ms`, set up as `chess`.
    pub async fn create_chess(
        &mut self,
        tournament: &str,
        id: &str,
        table: &str,
        start_ms: i64,
        chess: v1::ChessMatchSettings,
    ) -> v1::MatchState {
        self.create(v1::CreateMatchRequest {
            tournament_id: tournament.into(),
            match_id: id.into(),
            round: 1,
            table: table.into(),
            player_a: "Anna".into(),
            player_b: "Boris".into(),
            scheduled_start_ms: start_ms,
            chess: Some(chess),
            ..Default::default()
        })
        .await
    }

    /// Registers device `id`, binds it to `match_id`, and returns its credential.
    pub async fn device(
        &mut self,
        channel: tonic::transport::Channel,
        id: &str,
        match_id: &str,
    ) -> String {
        let mut devices = baffle_proto::v1::devices_client::DevicesClient::new(channel);
        let request = v1::RegisterDeviceRequest {
            device_id: id.into(),
        };
        let credential = devices
            .register_device(with_token(request, &self.token))
            .await
            .expect("registered")
            .into_inner()
            .credential;
        let bind = v1::BindDeviceRequest {
            device_id: id.into(),
            match_id: match_id.into(),
        };
        devices
            .bind_device(with_token(bind, &self.token))
            .await
            .expect("bound");
        credential
    }

    /// Sends `action` (with a ruling, for director actions) and returns the reply.
    pub async fn try_act(
        &mut self,
        match_id: &str,
        action: Action,
    ) -> Result<v1::ExecuteReply, Status> {
        let request = v1::ExecuteRequest {
            match_id: match_id.into(),
            command: Some(v1::Command {
                action: Some(action),
            }),
            ruling: Some(v1::Ruling {
                reason: "test".into(),
                article: "2.3".into(),
            }),
            request_id: String::new(),
            expected_seq: None,
        };
        self.matches
            .execute(with_token(request, &self.token))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Sends `action`; it must be accepted. Returns the state after it.
    pub async fn act(&mut self, match_id: &str, action: Action) -> v1::MatchState {
        let reply = self.try_act(match_id, action.clone()).await;
        reply
            .unwrap_or_else(|e| panic!("{action:?} refused: {e:?}"))
            .state
            .expect("state")
    }

    /// Sends `action`; it must be refused with `code`. Returns the message.
    pub async fn refused(&mut self, match_id: &str, action: Action, code: Code) -> String {
        let e = self
            .try_act(match_id, action.clone())
            .await
            .expect_err("should be refused");
        assert_eq!(e.code(), code, "{action:?}: {}", e.message());
        e.message().to_string()
    }

    /// The match's current state.
    pub async fn state(&mut self, match_id: &str) -> v1::MatchState {
        self.tournaments
            .get_match(v1::GetMatchRequest {
                match_id: match_id.into(),
            })
            .await
            .expect("get")
            .into_inner()
    }

    /// The match's current state, or None if the server refuses to give it (a node
    /// that does not know the match yet).
    pub async fn state_opt(&mut self, match_id: &str) -> Option<v1::MatchState> {
        let r = v1::GetMatchRequest {
            match_id: match_id.into(),
        };
        self.tournaments
            .get_match(r)
            .await
            .ok()
            .map(|r| r.into_inner())
    }

    /// Waits (bounded, without moving time) until the match's timers have caught up with
    /// the test clock and `ready` holds.
    pub async fn until(
        &mut self,
        match_id: &str,
        ready: impl Fn(&v1::MatchState) -> bool,
    ) -> v1::MatchState {
        for _ in 0..5_000 {
            let s = self.state(match_id).await;
            if ready(&s) {
                return s;
            }
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        panic!(
            "match {match_id} never reached the expected state: {:?}",
            self.state(match_id).await
        );
    }
}

/// `Action::Roll` for reported physical dice.
pub fn roll(side: i32, a: u32, b: u32) -> Action {
    Action::Roll(v1::Roll {
        side,
        dice: vec![a, b],
        link: Vec::new(),
    })
}

/// `Action::Roll` with server dice: the server draws them.
pub fn server_roll(side: i32) -> Action {
    Action::Roll(v1::Roll {
        side,
        dice: vec![],
        link: vec![],
    })
}

/// `Action::OpeningRoll` with server dice: the server throws until they differ.
pub fn server_opening() -> Action {
    Action::OpeningRoll(v1::Roll {
        side: 0,
        dice: vec![],
        link: Vec::new(),
    })
}

/// `Action::OpeningRoll` for a reported throw.
pub fn opening(a: u32, b: u32) -> Action {
    Action::OpeningRoll(v1::Roll {
        side: 0,
        dice: vec![a, b],
        link: Vec::new(),
    })
}

/// A game result.
pub fn result(side: i32, kind: v1::WinKind) -> v1::GameResult {
    v1::GameResult {
        side,
        kind: kind as i32,
    }
}

/// Defaults for a physical-dice tournament with the given clock and policy.
pub fn defaults(
    per_point_ms: i64,
    timeout: Option<v1::timeout_policy::Policy>,
    dice: v1::DiceSource,
) -> v1::TournamentDefaults {
    v1::TournamentDefaults {
        per_point_ms,
        delay_ms: Some(12_000),
        timeout: timeout.map(|p| v1::TimeoutPolicy { policy: Some(p) }),
        clocks: v1::ClockPolicy::Required as i32,
        dice: dice as i32,
        breaks_in_match_time: false,
        player_seeds: v1::PlayerSeedPolicy::Optional as i32,
        reveal_window_seconds: None,
    }
}
