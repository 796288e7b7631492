//! A tournament's draw set up through the real `Draws` API, as a director's day begins:
//! the tournament, the draw opened, the entrants registered and approved, each checked
//! in, the draw made, round 1 started.

use baffle_proto::v1;
use baffle_proto::v1::draws_client::DrawsClient;
use tonic::transport::Channel;

use crate::api::{B, Director, defaults};
use crate::with_token;

/// The director's client of `Draws`, with his token.
pub struct DrawDirector {
    /// The client.
    pub draws: DrawsClient<Channel>,
    token: String,
}

impl DrawDirector {
    /// Connects with `token` over `channel`.
    pub fn on(channel: Channel, token: &str) -> DrawDirector {
        DrawDirector {
            draws: DrawsClient::new(channel),
            token: token.into(),
        }
    }

    /// A knockout (main draw only) of `names` in tournament `id`, at `tables`, matches
    /// of 3 points; the draw made and round 1 started. Returns the draw then.
    pub async fn knockout(
        &mut self,
        d: &mut Director,
        id: &str,
        names: &[&str],
        tables: &[&str],
    ) -> v1::DrawView {
        d.tournament(id, defaults(0, None, v1::DiceSource::Server))
            .await;
        let t = &self.token;
        let plan = v1::DrawPlan {
            format: v1::DrawFormat::Knockout as i32,
            flights: v1::Flights::Main as i32,
            length: 3,
            ..Default::default()
        };
        let open = v1::OpenDrawRequest {
            tournament_id: id.into(),
            plan: Some(plan),
            tables: tables.iter().map(|s| s.to_string()).collect(),
        };
        self.draws
            .open_draw(with_token(open, t))
            .await
            .expect("draw opened");
        let entrants = names
            .iter()
            .map(|n| v1::EntrantDetails {
                name: n.to_string(),
                ..Default::default()
            })
            .collect();
        let register = v1::RegisterEntrantsRequest {
            tournament_id: id.into(),
            entrants,
            approve: true,
        };
        let view = self
            .draws
            .register_entrants(with_token(register, t))
            .await
            .expect("entrants registered")
            .into_inner();
        for e in &view.entrants {
            let check_in = v1::UpdateEntrantRequest {
                tournament_id: id.into(),
                entrant: e.number,
                action: Some(v1::update_entrant_request::Action::CheckIn(true)),
            };
            self.draws
                .update_entrant(with_token(check_in, t))
                .await
                .expect("checked in");
        }
        // Every entrant seeded in the order registered: the bracket is the seeds', the
        // same on every run (an unseeded draw follows the secret seed).
        let make = v1::MakeDrawRequest {
            tournament_id: id.into(),
            seeds: view.entrants.iter().map(|e| e.number).collect(),
            ..Default::default()
        };
        self.draws
            .make_draw(with_token(make, t))
            .await
            .expect("draw made");
        self.start_round(id, 1).await
    }

    /// Starts round `round` of the main draw now.
    pub async fn start_round(&mut self, id: &str, round: u32) -> v1::DrawView {
        let start = v1::StartRoundRequest {
            tournament_id: id.into(),
            flight: v1::Flight::Main as i32,
            round,
            start_ms: 0,
        };
        self.draws
            .start_round(with_token(start, &self.token))
            .await
            .expect("round started")
            .into_inner()
    }

    /// The draw as it stands.
    pub async fn get(&mut self, id: &str) -> v1::DrawView {
        let get = v1::GetDrawRequest {
            tournament_id: id.into(),
        };
        self.draws.get_draw(get).await.expect("draw").into_inner()
    }
}

/// Decides the match of pairing `key`: player A wins by forfeit of B, confirmed.
pub async fn decide(d: &mut Director, view: &v1::DrawView, key: &str) {
    let p = view
        .pairings
        .iter()
        .find(|p| p.key == key)
        .expect("the pairing");
    d.act(&p.match_id, v1::command::Action::ForfeitMatch(B))
        .await;
    d.act(
        &p.match_id,
        v1::command::Action::ConfirmResult(v1::Empty {}),
    )
    .await;
}

/// Decides every match of `round` that is being played: player A wins by forfeit of
/// B, and the director confirms the result (4.6). The draw's driver then records each
/// result from the tournament's feed.
pub async fn decide_round(d: &mut Director, view: &v1::DrawView, round: u32) {
    for p in view.pairings.iter().filter(|p| p.round == round) {
        assert_eq!(p.state, v1::PairingState::Playing as i32, "{p:?}");
        d.act(&p.match_id, v1::command::Action::ForfeitMatch(B))
            .await;
        d.act(
            &p.match_id,
            v1::command::Action::ConfirmResult(v1::Empty {}),
        )
        .await;
    }
}
