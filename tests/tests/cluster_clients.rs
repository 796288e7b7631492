//! The clients of a cluster (`docs/cluster.md`): `baffle` with a list of servers, and a
//! command sent to a node that does not write the match followed to the one that does
//! (`baffle-owner`); `baffle-device` sent on to the writing node, and — its node dead —
//! on to the next of its list, replaying the press it made meanwhile, charged at the
//! device's time (principle 5), not at its late arrival.
//!
//! Skipped where PostgreSQL is missing, unless `BAFFLE_PG_TEST=required` (as in CI).

use std::time::Duration;

use baffle_client::cli::Cli;
use baffle_client::run::run;
use baffle_firmware_sim::clock::DeviceClock;
use baffle_firmware_sim::device::{Device, DeviceConfig};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_server::store::EventStore;
use baffle_tests::EPOCH;
use baffle_tests::api::{Director, defaults};
use baffle_tests::cluster::{TestNode, eventually, two_nodes};
use baffle_tests::pg;
use clap::Parser;

const LEASE: Duration = Duration::from_millis(400);

async fn director(node: &TestNode) -> Director {
    Director::on(node.channel().await, &node.token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn baffle_tries_each_server_and_follows_the_owner() {
    if !pg::available() {
        return;
    }
    let c = two_nodes("cli", LEASE).await;
    let mut d1 = director(&c.n1).await;
    d1.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d1.create_match("open", "m", 5, EPOCH.as_ms()).await;
    let d2 = director(&c.n2).await;
    eventually("node 2 knows m", || {
        let mut d2 = d2.clone();
        async move { d2.state_opt("m").await }
    })
    .await;
    // The first server of the list is down; the second is node 2, which does not write
    // m: the command goes on to node 1.
    let servers = format!("http://127.0.0.1:1,{}", c.n2.url);
    let cli = Cli::try_parse_from([
        "baffle",
        "--server",
        &servers,
        "--token",
        &c.n1.token,
        "play",
        "m",
        "check-in",
        "A",
    ])
    .unwrap();
    let o = run(&cli).await;
    assert_eq!(o.code, 0, "{}", o.err);
    let s = d1.state("m").await;
    assert_eq!(s.present.first(), Some(&true), "{s:?}");
    // A listing answers on node 2 itself.
    let cli = Cli::try_parse_from(["baffle", "--server", &c.n2.url, "match", "list"]).unwrap();
    let o = run(&cli).await;
    assert_eq!(o.code, 0, "{}", o.err);
    assert!(o.out.contains('m'), "{}", o.out);

    // Every other command aimed at one match follows the owner too: a rename, the
    // players' seeds (in the clear — refused —, committed, revealed) and the server seed's reveal,
    // each sent to node 2 alone.
    let on_n2 = |args: &[&str]| {
        let mut all = vec!["baffle", "--server", &c.n2.url, "--token", &c.n1.token];
        all.extend_from_slice(args);
        Cli::try_parse_from(all).unwrap()
    };
    let ok = |o: baffle_client::run::Outcome, what: &str| {
        assert_eq!(o.code, 0, "{what}: {}", o.err);
        o.out
    };
    ok(
        run(&on_n2(&["match", "rename", "m", "a", "Anna Maria"])).await,
        "match rename",
    );
    assert_eq!(d1.state("m").await.player_a, "Anna Maria");
    d1.tournament("srv", defaults(0, None, v1::DiceSource::Server))
        .await;
    for m in ["s1", "s2"] {
        d1.create_match("srv", m, 5, EPOCH.as_ms()).await;
        eventually("node 2 knows the match", || {
            let mut d2 = d2.clone();
            async move { d2.state_opt(m).await }
        })
        .await;
    }
    let codes = |m: &'static str| {
        let cli = on_n2(&["--json", "audit", "player-codes", m]);
        async move {
            let out = ok(run(&cli).await, "audit player-codes");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            [
                v["a"].as_str().unwrap().to_string(),
                v["b"].as_str().unwrap().to_string(),
            ]
        }
    };
    let [a1, _] = codes("s1").await;
    let seed = "11".repeat(32);
    // A seed in the clear is refused on the owner, with its reason.
    let args = ["audit", "seed", "s1", "a", &seed, "--hex", "--code", &a1];
    let o = run(&on_n2(&args)).await;
    assert_ne!(o.code, 0);
    assert!(o.err.contains("commit to a seed"), "{}", o.err);
    let [a2, b2] = codes("s2").await;
    let mut reveal_a = Vec::new();
    for code in [&a2, &b2] {
        let args = ["audit", "commit", "s2", "--code", code, "--seed", &seed];
        let out = ok(run(&on_n2(&args)).await, "audit commit");
        if code == &a2 {
            let line = out
                .lines()
                .find(|l| l.trim_start().starts_with("baffle audit reveal-seed"))
                .unwrap();
            reveal_a = line
                .split_whitespace()
                .skip(1)
                .map(str::to_string)
                .collect();
        }
    }
    let args: Vec<&str> = reveal_a.iter().map(String::as_str).collect();
    ok(run(&on_n2(&args)).await, "audit reveal-seed");
    let s2 = d1.state("s2").await;
    assert_eq!(s2.player_seeds[0].seed, seed, "{s2:?}");
    let args = [
        "rule",
        "s1",
        "--reason",
        "left",
        "--article",
        "2.3",
        "forfeit-match",
        "a",
    ];
    ok(run(&on_n2(&args)).await, "rule forfeit-match");
    let out = ok(
        run(&on_n2(&["audit", "reveal", "s1"])).await,
        "audit reveal",
    );
    assert_eq!(out.trim().len(), 64, "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_device_follows_its_match_to_the_owner_and_through_a_takeover() {
    if !pg::available() {
        return;
    }
    let mut c = two_nodes("device", LEASE).await;
    let mut d1 = director(&c.n1).await;
    d1.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d1.create_match("open", "m", 5, EPOCH.as_ms()).await;
    let credential = d1.device(c.n1.channel().await, "t7", "m").await;
    // The device knows both nodes and starts on node 2, which sends it to node 1.
    let servers = vec![c.n2.url.clone(), c.n1.url.clone()];
    let cfg = DeviceConfig {
        clock: DeviceClock::from_system(-777_000, 0),
        servers: servers.clone(),
        ..DeviceConfig::for_url(&servers.join(","), "t7", &credential).unwrap()
    };
    let mut device = eventually("node 2 knows the device", || {
        let cfg = cfg.clone();
        async move { Device::connect(cfg).await.ok() }
    })
    .await;
    device.begin_match().await.unwrap();
    // The opening's state reaches the device just after its ack.
    let mover = device
        .wait_for(|v| v.state.turn_side != 0)
        .await
        .unwrap()
        .state
        .turn_side;
    // Node 1 dies; the player presses while no node writes the match.
    c.n1.kill();
    eventually("node 1 stops writing", || {
        let held = c.n1.hub.store.holds("m/m");
        async move { Some(()).filter(|_| !held) }
    })
    .await;
    let pressed = device.send(Action::Press(mover)).unwrap();
    // The outage on the servers' clock: the press arrives 1.5 s after it was made.
    c.n1.time.advance(1_500);
    let acked = tokio::time::timeout(Duration::from_secs(20), pressed)
        .await
        .expect("acknowledged after the failover")
        .unwrap();
    assert!(acked.ack.applied, "{:?}", acked.ack);
    let log = baffle_client::audit::export_log(c.n2.channel().await, "m")
        .await
        .unwrap();
    assert!(log.contains("table.takeover"));
    let input = log
        .lines()
        .rfind(|l| l.contains("device.input"))
        .unwrap()
        .to_string();
    // Charged at the device's instant (its clock known to node 2 before the replay,
    // bound `claimed`), not at its arrival: credited the time the device measured
    // between the press and its delivery (the servers' clock here is turned by hand,
    // so that is the real time the failover took, not the 1.5 s turned).
    assert!(input.contains(r#"\"bound\":\"claimed\""#), "{input}");
    let credit: i64 = input
        .split(r#"\"credit_ms\":"#)
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(credit > 0, "credited {credit} ms: {input}");
    eprintln!("the press was credited {credit} ms: the time it waited for the failover");
    device.close().await;
}
