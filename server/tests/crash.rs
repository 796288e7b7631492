//! The crash test (issue 10, docs/reliability.md): a real `baffled` under load from many
//! matches is killed with SIGKILL at seeded random moments, 20 times, and restarted on
//! the same data directory. After every restart: every acknowledged event is there,
//! every match's chain verifies, and every clock agrees with the last acknowledged state.
//!
//! `BAFFLE_CRASH_KILLS` and `BAFFLE_CRASH_MATCHES` raise the counts for a longer run.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baffle_core::audit::verify::verify_jsonl;
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use common::{director, start};
use tonic::transport::Channel;

fn execute(match_id: &str, action: Action) -> v1::ExecuteRequest {
    v1::ExecuteRequest {
        match_id: match_id.into(),
        command: Some(v1::Command {
            action: Some(action),
        }),
        ..Default::default()
    }
}

fn env_count(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic generator for the kill moments.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// Plays one match as fast as acks come: roll (physical dice), press, and so on.
/// Records every acknowledged state. Returns when the server goes away.
async fn drive(
    channel: Channel,
    dir: std::path::PathBuf,
    id: String,
    acked: Arc<Mutex<HashMap<String, v1::MatchState>>>,
) -> u64 {
    let mut commands = 0;
    let mut c = MatchesClient::new(channel.clone());
    let state = match TournamentsClient::new(channel)
        .get_match(v1::GetMatchRequest {
            match_id: id.clone(),
        })
        .await
    {
        Ok(s) => s.into_inner(),
        Err(_) => return 0,
    };
    let mut state = state;
    loop {
        let side = state.turn_side;
        let action = match v1::TurnPhase::try_from(state.turn) {
            Ok(v1::TurnPhase::OnRoll) => Action::Roll(v1::Roll {
                side,
                dice: vec![(commands % 6 + 1) as u32, ((commands / 6) % 6 + 1) as u32],
                link: Vec::new(),
            }),
            Ok(v1::TurnPhase::Moving) => Action::Press(side),
            other => panic!("{id}: unexpected turn {other:?}"),
        };
        match c.execute(director(&dir, execute(&id, action))).await {
            Ok(reply) => {
                state = reply.into_inner().state.unwrap();
                commands += 1;
                acked.lock().unwrap().insert(id.clone(), state.clone());
            }
            Err(_) => return commands,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_sigkills_under_load_lose_nothing_acknowledged() {
    let kills = env_count("BAFFLE_CRASH_KILLS", 20);
    let matches = env_count("BAFFLE_CRASH_MATCHES", 8);
    let dir = tempfile::tempdir().unwrap();
    let mut server = start(dir.path()).await;

    let mut t = TournamentsClient::new(server.channel.clone());
    let defaults = v1::TournamentDefaults {
        dice: v1::DiceSource::Physical as i32,
        per_point_ms: 60 * 60_000,
        ..Default::default()
    };
    t.create_tournament(director(
        dir.path(),
        v1::CreateTournamentRequest {
            tournament: Some(v1::Tournament {
                id: "crash".into(),
                name: "Crash".into(),
                defaults: Some(defaults),
                ..Default::default()
            }),
        },
    ))
    .await
    .unwrap();
    let ids: Vec<String> = (1..=matches).map(|i| format!("c{i}")).collect();
    for id in &ids {
        let m = v1::CreateMatchRequest {
            tournament_id: "crash".into(),
            match_id: id.clone(),
            // One pair per match: a round has one match per pair of players.
            player_a: format!("{id} a"),
            player_b: format!("{id} b"),
            length: 25,
            ..Default::default()
        };
        t.create_match(director(dir.path(), m)).await.unwrap();
        let mut c = MatchesClient::new(server.channel.clone());
        for side in [v1::Side::A, v1::Side::B] {
            c.execute(director(
                dir.path(),
                execute(id, Action::CheckIn(side as i32)),
            ))
            .await
            .unwrap();
        }
        let opening = Action::OpeningRoll(v1::Roll {
            side: 0,
            dice: vec![6, 1],
            link: Vec::new(),
        });
        c.execute(director(dir.path(), execute(id, opening)))
            .await
            .unwrap();
    }

    let acked: Arc<Mutex<HashMap<String, v1::MatchState>>> = Arc::default();
    let mut seed = 0x5eed_u64;
    let mut total_commands = 0;
    for kill in 1..=kills {
        let drivers: Vec<_> = ids
            .iter()
            .map(|id| {
                tokio::spawn(drive(
                    server.channel.clone(),
                    dir.path().to_path_buf(),
                    id.clone(),
                    acked.clone(),
                ))
            })
            .collect();
        // Kill at a seeded random moment while the drivers are mid-stream.
        tokio::time::sleep(Duration::from_millis(30 + next(&mut seed) % 300)).await;
        server.child.kill().unwrap(); // SIGKILL
        server.child.wait().unwrap();
        for d in drivers {
            total_commands += d.await.unwrap();
        }
        server = start(dir.path()).await;
        let before: HashMap<String, v1::MatchState> = acked.lock().unwrap().clone();
        for id in &ids {
            let state = TournamentsClient::new(server.channel.clone())
                .get_match(v1::GetMatchRequest {
                    match_id: id.clone(),
                })
                .await
                .unwrap()
                .into_inner();
            let log = baffle_client::audit::export_log(server.channel.clone(), id)
                .await
                .unwrap();
            let report = verify_jsonl(&log, None);
            assert!(report.is_ok(), "kill {kill}, {id}: {report}");
            let Some(last) = before.get(id) else { continue };
            assert!(
                state.seq >= last.seq,
                "kill {kill}, {id}: {} events stored, {} acknowledged",
                state.seq,
                last.seq
            );
            // The clock: the side not on turn keeps exactly what it had when the last
            // acknowledged event left it, if nothing was stored after it.
            if state.seq == last.seq {
                let (now, then) = (state.clock.clone().unwrap(), last.clock.clone().unwrap());
                assert_eq!(now.running, then.running, "kill {kill}, {id}");
                let idle = if then.running == v1::Side::A as i32 {
                    (now.b, then.b)
                } else {
                    (now.a, then.a)
                };
                assert_eq!(
                    idle.0.unwrap().main_ms,
                    idle.1.unwrap().main_ms,
                    "kill {kill}, {id}"
                );
            }
        }
        eprintln!("kill {kill}: {total_commands} commands acknowledged so far; every log verifies");
    }
    assert!(
        total_commands > kills * matches,
        "load was running when the server was killed ({total_commands} commands)"
    );
    println!(
        "{kills} SIGKILLs, {matches} matches, {total_commands} acknowledged commands: \
         none lost, every chain verified after every restart"
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}
