//! A device's connection and the tournament feed.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_server::time::TimeSource;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::{EPOCH, TestServer};
use tokio_stream::StreamExt;
use tonic::Code;

fn hello(device_id: &str, credential: &str) -> v1::DeviceMessage {
    v1::DeviceMessage {
        message: Some(v1::device_message::Message::Hello(v1::Hello {
            device_id: device_id.into(),
            credential: credential.into(),
            firmware: "sim-0.1".into(),
            lang: String::new(),
        })),
    }
}

#[tokio::test]
async fn a_bound_device_connects_and_receives_every_update() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    let mut devices = DevicesClient::new(server.channel().await);
    let credential = devices
        .register_device(server.director(v1::RegisterDeviceRequest {
            device_id: "t7".into(),
        }))
        .await
        .unwrap()
        .into_inner()
        .credential;

    // Unbound: refused. Wrong credential: refused.
    let e = devices
        .connect(tokio_stream::iter([hello("t7", &credential)]))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    devices
        .bind_device(server.director(v1::BindDeviceRequest {
            device_id: "t7".into(),
            match_id: "m".into(),
        }))
        .await
        .unwrap();
    let e = devices
        .connect(tokio_stream::iter([hello("t7", "dev.t7.wrong")]))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);
    let e = devices
        .connect(tokio_stream::iter([hello("other", &credential)]))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);

    let (_keep_open, outbound) = tokio::sync::mpsc::channel::<v1::DeviceMessage>(1);
    let first = tokio_stream::iter([hello("t7", &credential)])
        .chain(tokio_stream::wrappers::ReceiverStream::new(outbound));
    let mut inbound = devices.connect(first).await.unwrap().into_inner();
    let snapshot = inbound.next().await.unwrap().unwrap();
    let Some(v1::server_message::Message::Update(u)) = snapshot.message else {
        panic!("an update first")
    };
    assert_eq!(u.state.unwrap().match_id, "m");
    d.act("m", Action::CheckIn(A)).await;
    // Each update comes with the display text for the device; skip to the next update.
    let u = loop {
        let next = inbound.next().await.unwrap().unwrap();
        if let Some(v1::server_message::Message::Update(u)) = next.message {
            break u;
        }
    };
    assert_eq!(u.events[0].kind, "bg.checked_in");
    let s = u.state.unwrap();
    assert_eq!(s.present, [true, false]);
    assert_eq!(
        s.devices,
        [v1::DevicePresence {
            device_id: "t7".into(),
            connected: true
        }]
    );
    // The device goes away: the match says so (the console raises an alert from it).
    drop(inbound);
    drop(_keep_open);
    let s = d
        .until("m", |s| s.devices.iter().any(|p| !p.connected))
        .await;
    assert_eq!(
        s.seq, 3,
        "opened, set-up, one check-in: presence is not an event of the match"
    );
    server.stop().await;
}

#[tokio::test]
async fn the_tournament_feed_sends_every_match_then_each_change() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "m1", 5, EPOCH.as_ms()).await;
    d.create_match("open", "m2", 5, EPOCH.as_ms()).await;
    let mut c = MatchesClient::new(server.channel().await);
    let mut feed = c
        .watch_tournament(v1::WatchTournamentRequest {
            tournament_id: "open".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let ids: Vec<String> = vec![
        feed.next().await.unwrap().unwrap().match_id,
        feed.next().await.unwrap().unwrap().match_id,
    ];
    assert_eq!(ids, ["m1", "m2"]);
    // A match created while the feed is followed appears at once, before anything
    // happens in it (a late table must be seen).
    d.create_match("open", "m3", 5, EPOCH.as_ms()).await;
    let created = feed.next().await.unwrap().unwrap();
    assert_eq!(created.match_id, "m3");
    d.act("m2", Action::CheckIn(B)).await;
    let change = feed.next().await.unwrap().unwrap();
    assert_eq!(
        (change.match_id.as_str(), change.present.as_slice()),
        ("m2", [false, true].as_slice())
    );
    // Every follower gets the same encoded state, stamped as its own copy leaves.
    assert_eq!(change.sent_at_ms, server.time.now().as_ms());
    let missing = c
        .watch_tournament(v1::WatchTournamentRequest {
            tournament_id: "none".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(missing.code(), Code::NotFound);
    // The feed ends when the server stops, so its connection can close at once.
    let ended = tokio::spawn(async move { while let Some(Ok(_)) = feed.next().await {} });
    server.stop().await;
    tokio::time::timeout(std::time::Duration::from_secs(2), ended)
        .await
        .expect("the feed ends as the server stops")
        .unwrap();
}

#[tokio::test]
async fn loaded_physical_dice_raise_anomalies_that_survive_a_restart() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "m", 25, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    d.act("m", baffle_tests::api::opening(6, 1)).await;
    d.act("m", Action::Press(A)).await;
    for i in 0..30 {
        server.time.advance(1_000); // stay under the per-second command limit
        d.act("m", baffle_tests::api::roll(B, 1 + i % 5, 2 + i % 4))
            .await;
        d.act("m", Action::Press(B)).await;
        d.act("m", baffle_tests::api::roll(A, 6, 6)).await;
        d.act("m", Action::Press(A)).await;
    }
    let s = d.state("m").await;
    assert!(
        s.dice_anomalies >= 2,
        "faces and doubles for player A: {}",
        s.dice_anomalies
    );
    assert!(s.last_anomaly.contains("dice"), "{}", s.last_anomaly);
    let (dir, time) = server.stop().await;
    let server = TestServer::start_in(dir, time).await;
    let mut d = Director::connect(&server).await;
    assert_eq!(
        d.state("m").await.dice_anomalies,
        s.dice_anomalies,
        "rebuilt from the log"
    );
    server.stop().await;
}
