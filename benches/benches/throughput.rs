//! Sustained durable presses per second with many live matches, beside the raw store's
//! batched insert-and-flush rate measured in the same run (issue 10, docs/benchmarks.md):
//!
//! ```text
//! cargo bench -p baffle-benches --bench throughput                  # 1,000 matches
//! BAFFLE_BENCH_MATCHES=10000 cargo bench -p baffle-benches --bench throughput
//! ```
//!
//! The server's core in this process, without the network: a `Hub` on a fresh sled store
//! and the system clock; one driver per match sends commands to its actor as fast as the
//! acknowledgements come back (each one decoded, planned, chained, durably appended with
//! group commit and `fsync`, applied and broadcast). Two workloads: chess, where every
//! command is a press, and backgammon, where each press follows a roll (physical dice),
//! so presses are half the commands. The network's cost is measured apart
//! (`press_floor`, `baffle-device load`). `BAFFLE_BENCH_SECONDS` sets each run (default 5);
//! `BAFFLE_BENCH_GAME=chess` or `backgammon` runs one workload only.
//!
//! Where PostgreSQL 15 is installed the same runs follow on the PostgreSQL store
//! (issue 22, docs/cluster.md): a primary with a synchronous standby on loopback, started
//! by the tests' harness, a fresh database per run; each press acknowledged after COMMIT
//! reached the standby. `BAFFLE_BENCH_STORE=sled` or `postgres` runs one store only.

use baffle_core::GameType;
use baffle_core::Millis;
use baffle_core::backgammon::{DiceSource, TournamentDefaults};
use baffle_core::table::MatchInfo;
use baffle_server::hub::{NewGame, NewMatch};
use baffle_server::time::TimeSource;
use std::time::{Duration, Instant};

use baffle_proto::v1;
use baffle_proto::v1::chess_command::Action as Chess;
use baffle_proto::v1::command::Action;
use baffle_server::hub::Hub;
use baffle_server::store::{EventStore, PgStore, SledStore};
use baffle_server::time::SystemTime_;
use baffle_server::wire::decode;
use hdrhistogram::Histogram;

mod common;
use common::{env, raw_rate_of, raw_store_rate};

/// The drivers press as a table's device would: under the per-caller limit.
fn device() -> baffle_server::actor::Admission {
    baffle_server::actor::Admission::PerCaller("device".into())
}

fn command(action: Action) -> Option<v1::Command> {
    Some(v1::Command {
        action: Some(action),
    })
}

fn chess(action: Chess) -> Action {
    Action::Chess(v1::ChessCommand {
        action: Some(action),
    })
}

/// Creates `matches` matches of `game`, ready for presses, and drives them all for
/// `seconds`: returns (presses/s, commands/s, latency histogram in µs).
async fn run<S: EventStore + Clone>(
    store: S,
    game: GameType,
    matches: u64,
    seconds: u64,
) -> (f64, f64, Histogram<u64>) {
    let keys = baffle_server::keys::ServerKeys::fresh("bench".into()).unwrap();
    let hub = Hub::open(store, SystemTime_, keys).await.unwrap();
    let defaults = TournamentDefaults {
        dice: DiceSource::Physical,
        per_point: Millis::mins(60),
        ..TournamentDefaults::default()
    };
    hub.create_tournament("t", "throughput", defaults)
        .await
        .unwrap();
    let created = Instant::now();
    let mut handles = Vec::new();
    for i in 0..matches {
        let start = SystemTime_.now();
        let request = NewMatch {
            info: MatchInfo {
                id: format!("m{i}"),
                tournament: "t".into(),
                round: 1,
                table: i.to_string(),
            },
            players: ["a".into(), "b".into()],
            start,
            game: match game {
                GameType::Chess => NewGame::Chess(common::classical_chess(start)),
                GameType::Backgammon => NewGame::Backgammon {
                    length: 25,
                    unclocked: false,
                    series_match: None,
                    moves: Default::default(),
                    dice: None,
                },
            },
            replaces: None,
        };
        handles.push(hub.create_match(request).await.unwrap());
    }
    let opening: Vec<Action> = match game {
        GameType::Chess => vec![
            chess(Chess::Arrive(v1::Color::White as i32)),
            chess(Chess::Arrive(v1::Color::Black as i32)),
        ],
        GameType::Backgammon => vec![
            Action::CheckIn(v1::Side::A as i32),
            Action::CheckIn(v1::Side::B as i32),
            Action::OpeningRoll(v1::Roll {
                side: 0,
                dice: vec![6, 1],
                link: Vec::new(),
            }),
        ],
    };
    // Seat every match at once.
    let seated: Vec<_> = handles
        .iter()
        .cloned()
        .map(|h| {
            let opening = opening.clone();
            tokio::spawn(async move {
                for a in opening {
                    let planned = decode(command(a), None, h.game).unwrap();
                    h.execute(planned, None, None, device()).await.unwrap();
                }
            })
        })
        .collect();
    for s in seated {
        s.await.unwrap();
    }
    eprintln!(
        "  {matches} matches created and seated in {:.1} s",
        created.elapsed().as_secs_f64()
    );

    let warm_up = Instant::now() + Duration::from_secs(1);
    let deadline = warm_up + Duration::from_secs(seconds);
    let drivers: Vec<_> = handles
        .into_iter()
        .map(|h| {
            tokio::spawn(async move {
                let mut latency = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).unwrap();
                let (mut presses, mut commands, mut limited) = (0u64, 0u64, 0u64);
                // Chess: White moved first; backgammon: A won the opening roll with 6-1.
                let mut side = 0usize;
                let colors = [v1::Color::White as i32, v1::Color::Black as i32];
                let sides = [v1::Side::A as i32, v1::Side::B as i32];
                loop {
                    let now = Instant::now();
                    if now >= deadline {
                        break;
                    }
                    let turn: Vec<Action> = match game {
                        GameType::Chess => vec![chess(Chess::Press(colors[side]))],
                        GameType::Backgammon => vec![
                            Action::Press(sides[side]),
                            Action::Roll(v1::Roll {
                                side: sides[1 - side],
                                dice: vec![3, 4],
                                link: Vec::new(),
                            }),
                        ],
                    };
                    for (i, a) in turn.into_iter().enumerate() {
                        let t = Instant::now();
                        loop {
                            let planned = decode(command(a.clone()), None, h.game).unwrap();
                            match h.execute(planned, None, None, device()).await {
                                Ok(_) => break,
                                // The per-match rate limit: the same command again soon.
                                Err(baffle_server::error::Error::RateLimited(_)) => {
                                    limited += 1;
                                    tokio::time::sleep(Duration::from_millis(20)).await;
                                }
                                Err(s) => panic!("{s:?}"),
                            }
                        }
                        if t >= warm_up && Instant::now() <= deadline {
                            latency
                                .record(t.elapsed().as_micros().max(1) as u64)
                                .unwrap();
                            commands += 1;
                            presses += u64::from(i == 0);
                        }
                    }
                    side = 1 - side;
                }
                (presses, commands, limited, latency)
            })
        })
        .collect();
    let mut latency = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).unwrap();
    let (mut presses, mut commands, mut limited) = (0u64, 0u64, 0u64);
    for d in drivers {
        let (p, c, l, h) = d.await.unwrap();
        presses += p;
        commands += c;
        limited += l;
        latency.add(h).unwrap();
    }
    if limited > 0 {
        eprintln!(
            "  {limited} commands waited for the per-match limit \
             ({} per second per match)",
            baffle_server::actor::COMMANDS_PER_SECOND
        );
    }
    hub.close();
    let secs = seconds as f64;
    (presses as f64 / secs, commands as f64 / secs, latency)
}

#[tokio::main]
async fn main() {
    let matches = env("BAFFLE_BENCH_MATCHES", 1_000);
    let seconds = env("BAFFLE_BENCH_SECONDS", 5);
    println!(
        "{matches} live matches, {seconds} s per run, {} cores",
        num_cpus()
    );
    let stores = std::env::var("BAFFLE_BENCH_STORE").unwrap_or_default();
    let only = std::env::var("BAFFLE_BENCH_GAME").unwrap_or_default();
    let games = [
        ("chess", GameType::Chess),
        ("backgammon", GameType::Backgammon),
    ]
    .into_iter()
    .filter(|(name, _)| only.is_empty() || only == *name);
    if stores.is_empty() || stores == "sled" {
        let raw = raw_store_rate(matches, 3).await;
        println!("sled: raw store, {matches} streams     {raw:>9.0} durable appends/s (baseline)");
        for (name, game) in games.clone() {
            let dir = tempfile::tempdir().unwrap();
            let store = SledStore::open(&dir.path().join("store")).unwrap();
            report("sled", name, run(store, game, matches, seconds).await, raw);
        }
    }
    if (stores.is_empty() || stores == "postgres") && baffle_tests::pg::available() {
        let cluster = baffle_tests::pg::PgCluster::start(true);
        let raw_store = PgStore::connect(&cluster.database("raw")).await.unwrap();
        let raw = raw_rate_of(raw_store, matches, 3).await;
        println!(
            "postgres (sync standby): raw store, {matches} streams {raw:>9.0} durable appends/s (baseline)"
        );
        for (name, game) in games {
            let store = PgStore::connect(&cluster.database(name)).await.unwrap();
            report(
                "postgres",
                name,
                run(store, game, matches, seconds).await,
                raw,
            );
        }
    }
}

/// Prints one run's figures beside its store's raw rate.
fn report(
    store: &str,
    name: &str,
    (presses, commands, latency): (f64, f64, Histogram<u64>),
    raw: f64,
) {
    let ms = |q: f64| latency.value_at_quantile(q) as f64 / 1_000.0;
    println!(
        "{store:<9} {name:<11} {presses:>9.0} presses/s  {commands:>9.0} commands/s  \
         ({:.2}× the raw store)  command p50 {:.1} ms  p99 {:.1} ms",
        commands / raw,
        ms(0.5),
        ms(0.99)
    );
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
