//! Memory per live match and recovery time (issue 10, docs/benchmarks.md):
//! `cargo bench -p baffle-benches --bench capacity`.
//!
//! Creates `BAFFLE_BENCH_MATCHES` live matches (default 1,000) in an in-process server
//! and reads the resident memory before and after; plays each to `BAFFLE_BENCH_EVENTS`
//! events (default 200) through the API; stops the server and times the reopening: until
//! the server answers, until a match no one had asked for answers, and until every match's
//! log is read, its chain and dice checked, its state rebuilt.

use std::time::Instant;

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use baffle_server::hub::Hub;
use baffle_server::store::SledStore;
use baffle_server::time::SystemTime_;
use tonic::Request;
use tonic::transport::{Channel, Endpoint};

mod common;
use common::{env, rss_bytes};

fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut r = Request::new(message);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

fn execute(id: &str, action: Action) -> v1::ExecuteRequest {
    v1::ExecuteRequest {
        match_id: id.into(),
        command: Some(v1::Command {
            action: Some(action),
        }),
        ..Default::default()
    }
}

/// Plays match `id` until its log has `events` events.
async fn play(channel: Channel, token: String, id: String, events: u64) {
    let mut c = MatchesClient::new(channel);
    let mut step = async |action: Action| {
        c.execute(authed(execute(&id, action), &token))
            .await
            .unwrap()
            .into_inner()
            .state
            .unwrap()
    };
    step(Action::CheckIn(v1::Side::A as i32)).await;
    step(Action::CheckIn(v1::Side::B as i32)).await;
    let mut state = step(Action::OpeningRoll(v1::Roll {
        side: 0,
        dice: vec![6, 1],
        link: Vec::new(),
    }))
    .await;
    while state.seq < events {
        let side = state.turn_side;
        state = step(if state.turn == v1::TurnPhase::Moving as i32 {
            Action::Press(side)
        } else {
            Action::Roll(v1::Roll {
                side,
                dice: vec![4, 2],
                link: Vec::new(),
            })
        })
        .await;
    }
}

#[tokio::main]
async fn main() {
    let matches = env("BAFFLE_BENCH_MATCHES", 1_000);
    let events = env("BAFFLE_BENCH_EVENTS", 200);
    let dir = tempfile::tempdir().unwrap();
    let token = baffle_server::auth::director_token(&dir.path().join("director.token")).unwrap();
    let store_dir = dir.path().join("store");

    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let store = SledStore::open(&store_dir).unwrap();
    let keys = baffle_server::keys::ServerKeys::in_dir(dir.path(), token.clone()).unwrap();
    let hub = Hub::open(store, SystemTime_, keys).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(baffle_server::serve(hub, listener, async {
        let _ = stopped.await;
    }));
    let channel = Endpoint::from_shared(url).unwrap().connect().await.unwrap();
    let mut t = TournamentsClient::new(channel.clone());
    let defaults = v1::TournamentDefaults {
        dice: v1::DiceSource::Physical as i32,
        per_point_ms: 60 * 60_000,
        ..Default::default()
    };
    t.create_tournament(authed(
        v1::CreateTournamentRequest {
            tournament: Some(v1::Tournament {
                id: "cap".into(),
                name: "Capacity".into(),
                defaults: Some(defaults),
                ..Default::default()
            }),
        },
        &token,
    ))
    .await
    .unwrap();
    // One match first, so that what the first match brings (tasks, buffers) is counted
    // apart from what each further match costs.
    let create = |i: u64| v1::CreateMatchRequest {
        tournament_id: "cap".into(),
        match_id: format!("m{i}"),
        // One pair per match: a round has one match per pair of players.
        player_a: format!("a{i}"),
        player_b: format!("b{i}"),
        length: 25,
        ..Default::default()
    };
    t.create_match(authed(create(0), &token)).await.unwrap();
    let before = rss_bytes();
    for i in 1..matches {
        t.create_match(authed(create(i), &token)).await.unwrap();
    }
    let after = rss_bytes();
    let per_match = (after.saturating_sub(before)) as f64 / (matches - 1).max(1) as f64;
    println!(
        "memory: {matches} live matches; resident {:.1} MiB → {:.1} MiB: {:.1} KiB per match",
        before as f64 / 1048576.0,
        after as f64 / 1048576.0,
        per_match / 1024.0
    );

    let started = Instant::now();
    let mut players = Vec::new();
    for i in 0..matches {
        players.push(tokio::spawn(play(
            channel.clone(),
            token.clone(),
            format!("m{i}"),
            events,
        )));
    }
    for p in players {
        p.await.unwrap();
    }
    println!(
        "played {matches} matches to {events} events in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let _ = stop.send(());
    server.await.unwrap().unwrap();

    // Recovery: open the store again. The server answers once the registry is read and
    // every match has its handle; the logs are replayed in the background (or on a
    // match's first message). Three times: until it answers, until a match no one asked
    // for yet answers, and until every match is rebuilt.
    // The old server's actors let go of the store (and its lock) as they wind down.
    let mut waited = 0;
    while SledStore::open(&store_dir).is_err() && waited < 30_000 {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        waited += 10;
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let started = Instant::now();
    let store = SledStore::open(&store_dir).unwrap();
    let opened = started.elapsed();
    let keys = baffle_server::keys::ServerKeys::in_dir(dir.path(), token.clone()).unwrap();
    let hub = Hub::open(store, SystemTime_, keys).await.unwrap();
    let serving = started.elapsed();
    let cold = hub
        .match_handle(&format!("m{}", matches - 1))
        .await
        .unwrap();
    let asked = Instant::now();
    cold.state().await.unwrap();
    let first_answer = asked.elapsed();
    let handles = hub.match_handles().await;
    let all: Vec<_> = handles
        .into_iter()
        .map(|h| tokio::spawn(async move { h.state().await.unwrap().seq }))
        .collect();
    let mut records = 0;
    for a in all {
        records += a.await.unwrap();
    }
    let rebuilt = started.elapsed();
    println!(
        "recovery: {matches} matches × {events} events ({records} records): answering after \
         {:.2} s (store open {:.2} s); a match no one had asked for answered in {:.1} ms; \
         every match rebuilt after {:.2} s ({:.0} records/s; 10,000 × 200 would take about \
         {:.1} s)",
        serving.as_secs_f64(),
        opened.as_secs_f64(),
        first_answer.as_secs_f64() * 1_000.0,
        rebuilt.as_secs_f64(),
        records as f64 / rebuilt.as_secs_f64(),
        2_000_000.0 * rebuilt.as_secs_f64() / records as f64
    );
    drop(hub);
}
