//! The device protocol (docs/device-protocol.md): time sync, inputs timed by the device
//! and bounded, exactly-once application in order, across reconnects and restarts.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::server_message::Message;
use baffle_server::time::TimeSource;
use baffle_tests::api::{A, B, Director, defaults, opening};
use baffle_tests::{EPOCH, TestServer};
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Streaming;

/// The simulated device's clock: 1,000 s behind the server's.
const DEVICE_BEHIND: i64 = 1_000_000;

struct Device {
    out: mpsc::Sender<v1::DeviceMessage>,
    inbound: Streaming<v1::ServerMessage>,
}

fn message(m: v1::device_message::Message) -> v1::DeviceMessage {
    v1::DeviceMessage { message: Some(m) }
}

impl Device {
    async fn connect(server: &TestServer, credential: &str) -> Device {
        Device::connect_in(server, credential, "").await
    }

    /// A connection whose hello asks for the display in language `lang` (a BCP 47 tag;
    /// empty: none asked for).
    async fn connect_in(server: &TestServer, credential: &str, lang: &str) -> Device {
        let (out, rx) = mpsc::channel(16);
        out.send(message(v1::device_message::Message::Hello(v1::Hello {
            device_id: "t7".into(),
            credential: credential.into(),
            firmware: "test".into(),
            lang: lang.into(),
        })))
        .await
        .unwrap();
        let inbound = DevicesClient::new(server.channel().await)
            .connect(ReceiverStream::new(rx))
            .await
            .unwrap()
            .into_inner();
        Device { out, inbound }
    }

    /// The next message that is not an update or a display.
    async fn reply(&mut self) -> Message {
        loop {
            match self.inbound.next().await.unwrap().unwrap().message.unwrap() {
                Message::Update(_) | Message::Display(_) => continue,
                other => return other,
            }
        }
    }

    /// The lines of the next display the server sends.
    async fn display(&mut self) -> Vec<String> {
        loop {
            match self.inbound.next().await.unwrap().unwrap().message.unwrap() {
                Message::Display(d) => return d.lines,
                _ => continue,
            }
        }
    }

    /// One NTP-style exchange with the server's clock standing still.
    async fn sync(&mut self, server: &TestServer) {
        let t0 = server.time.now().as_ms() - DEVICE_BEHIND;
        self.out
            .send(message(v1::device_message::Message::Sync(
                v1::SyncRequest {
                    device_ms: t0,
                    previous: None,
                },
            )))
            .await
            .unwrap();
        let Message::Sync(r) = self.reply().await else {
            panic!("a sync reply")
        };
        assert_eq!(r.device_ms, t0);
        let t3 = server.time.now().as_ms() - DEVICE_BEHIND;
        let report = v1::SyncReport {
            t0,
            t1: r.server_receive_ms,
            t2: r.server_send_ms,
            t3,
        };
        self.out
            .send(message(v1::device_message::Message::Report(report)))
            .await
            .unwrap();
    }

    /// Sends an input stamped `ago_ms` before now (device clock) and returns the ack.
    async fn input(
        &mut self,
        server: &TestServer,
        seq: u64,
        ago_ms: i64,
        action: Action,
    ) -> v1::Ack {
        let device_ms = server.time.now().as_ms() - DEVICE_BEHIND - ago_ms;
        let input = v1::Input {
            seq,
            device_ms,
            command: Some(v1::Command {
                action: Some(action),
            }),
        };
        self.out
            .send(message(v1::device_message::Message::Input(input)))
            .await
            .unwrap();
        let Message::Ack(ack) = self.reply().await else {
            panic!("an ack")
        };
        assert_eq!(ack.seq, seq);
        ack
    }
}

#[tokio::test]
async fn inputs_are_timed_by_the_device_bounded_and_applied_exactly_once() {
    let server = TestServer::start().await;
    let (mut d, credential) = physical_match(&server).await;

    let mut device = Device::connect(&server, &credential).await;
    device.sync(&server).await;
    assert!(
        device
            .input(&server, 1, 0, Action::CheckIn(A))
            .await
            .applied
    );
    assert!(
        device
            .input(&server, 2, 0, Action::CheckIn(B))
            .await
            .applied
    );
    assert!(device.input(&server, 3, 0, opening(6, 1)).await.applied);

    // A thinks 20 s; his press reaches the server 700 ms after he made it: he is charged
    // 19.3 s, of which 12 s is delay.
    server.time.advance(20_000);
    let receipt = server.time.now().as_ms();
    let ack = device.input(&server, 4, 700, Action::Press(A)).await;
    assert!(ack.applied, "{}", ack.error);
    assert_eq!(ack.charged_at_ms, receipt - 700);
    let s = d.state("m").await;
    assert_eq!(s.clock.unwrap().a.unwrap().main_ms, 10 * 60_000 - 7_300);
    let seq = s.seq;

    // The same input again: acknowledged, without effect.
    let again = device.input(&server, 4, 700, Action::Press(A)).await;
    assert!(again.duplicate && !again.applied);
    // A gap: refused until the missing input arrives.
    let gap = device.input(&server, 6, 0, Action::Press(B)).await;
    assert!(!gap.applied && gap.error.contains("seq 5"), "{}", gap.error);
    assert_eq!(gap.resend_from, 5);
    // A director action from a device: refused, and recorded, so a replay stays refused.
    let ruling = device
        .input(
            &server,
            5,
            0,
            Action::AwardPoints(v1::Points { side: A, points: 1 }),
        )
        .await;
    assert!(!ruling.applied && ruling.error.contains("director"));
    assert!(
        device
            .input(&server, 5, 0, Action::Press(B))
            .await
            .duplicate
    );
    assert_eq!(d.state("m").await.score_a, 0);

    // B's press claims 5 s of network delay: no more than 2 s is credited.
    d.act("m", baffle_tests::api::roll(B, 3, 1)).await;
    server.time.advance(15_000);
    let receipt = server.time.now().as_ms();
    let ack = device.input(&server, 6, 5_000, Action::Press(B)).await;
    assert_eq!(ack.charged_at_ms, receipt - 2_000);
    let after = d.state("m").await.seq;
    assert!(after > seq);

    // Reconnect and replay everything: nothing is applied twice.
    drop(device);
    let mut device = Device::connect(&server, &credential).await;
    for seq in 1..=6 {
        assert!(
            device
                .input(&server, seq, 0, Action::Press(B))
                .await
                .duplicate,
            "seq {seq}"
        );
    }
    assert_eq!(d.state("m").await.seq, after);
    drop(device);

    // And across a restart of the server: the applied seqs come back from the match log.
    let (dir, time) = server.stop().await;
    let server = TestServer::start_in(dir, time).await;
    let mut d = Director::connect(&server).await;
    let mut device = Device::connect(&server, &credential).await;
    assert!(
        device
            .input(&server, 6, 0, Action::Press(B))
            .await
            .duplicate
    );
    assert!(
        device
            .input(&server, 7, 0, Action::Press(A))
            .await
            .error
            .contains("not rolled")
    );
    let log = baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap();
    assert!(baffle_core::audit::verify::verify_jsonl(&log, None).is_ok());
    assert!(
        log.contains(r#"\"kind\":\"device.input\""#) && log.contains(r#"\"bound\":\"lagcredit\""#)
    );
    assert_eq!(
        d.state("m").await.seq,
        after + 1,
        "the refused seq 7 is recorded"
    );
    server.stop().await;
}

/// A director, and the credential of device t7, bound to match "m" (to 5, physical dice).
async fn physical_match(server: &TestServer) -> (Director, String) {
    let mut d = Director::connect(server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    let credential = d.device(server.channel().await, "t7", "m").await;
    (d, credential)
}

async fn bound_device(server: &TestServer) -> String {
    let mut d = Director::connect(server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    d.create_match("open", "other", 5, EPOCH.as_ms()).await;
    d.device(server.channel().await, "t7", "m").await
}

/// A clock device says in its hello which language its display speaks: the server's
/// two lines come in it, and in the server's default, Greek, when it says none or one
/// baffle does not speak.
#[tokio::test]
async fn a_devices_display_lines_speak_the_language_of_its_hello() {
    let server = TestServer::start().await;
    let (mut d, credential) = physical_match(&server).await;
    for action in [Action::CheckIn(A), Action::CheckIn(B), opening(6, 1)] {
        d.act("m", action).await;
    }
    let lines = |lang: &'static str| {
        let (server, credential) = (&server, &credential);
        async move {
            let mut device = Device::connect_in(server, credential, lang).await;
            device.display().await
        }
    };
    let greek = lines("el").await;
    assert!(greek[0].ends_with("  βίδος 1"), "{greek:?}");
    assert!(greek[1].starts_with("A παίζει 6-1  "), "{greek:?}");
    let english = lines("en-GB").await;
    assert!(english[0].ends_with("  cube 1"), "{english:?}");
    assert!(english[1].starts_with("A to move 6-1  "), "{english:?}");
    // The clocks are the same in either language.
    let clocks = |l: &[String]| l[1].split_once("  ").map(|(_, c)| c.to_string());
    assert_eq!(clocks(&greek), clocks(&english));
    // None asked for, or a language baffle does not speak: the server's default.
    assert_eq!(lines("").await, greek);
    assert_eq!(lines("fr").await, greek);
}

#[tokio::test]
async fn a_revoked_credential_is_refused_and_its_connection_ends() {
    let server = TestServer::start().await;
    let credential = bound_device(&server).await;
    let mut device = Device::connect(&server, &credential).await;
    assert!(
        device
            .input(&server, 1, 0, Action::CheckIn(A))
            .await
            .applied
    );
    // The device's credential acts only on its own match.
    let mut matches = baffle_proto::v1::matches_client::MatchesClient::new(server.channel().await);
    let other = v1::ExecuteRequest {
        match_id: "other".into(),
        command: Some(v1::Command {
            action: Some(Action::CheckIn(A)),
        }),
        ..Default::default()
    };
    let e = matches
        .execute(baffle_tests::with_token(other.clone(), &credential))
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::PermissionDenied);

    let mut devices = DevicesClient::new(server.channel().await);
    devices
        .revoke_device(server.director(v1::RevokeDeviceRequest {
            device_id: "t7".into(),
        }))
        .await
        .unwrap();
    let input = v1::Input {
        seq: 2,
        device_ms: 0,
        command: Some(v1::Command {
            action: Some(Action::CheckIn(B)),
        }),
    };
    device
        .out
        .send(message(v1::device_message::Message::Input(input)))
        .await
        .unwrap();
    let end = loop {
        match device.inbound.next().await {
            Some(Ok(_)) => continue,
            Some(Err(e)) => break e,
            None => panic!("the stream should end with an error"),
        }
    };
    assert_eq!(end.code(), tonic::Code::PermissionDenied);
    let again = DevicesClient::new(server.channel().await)
        .connect(tokio_stream::iter([message(
            v1::device_message::Message::Hello(v1::Hello {
                device_id: "t7".into(),
                credential: credential.clone(),
                firmware: "test".into(),
                lang: String::new(),
            }),
        )]))
        .await
        .unwrap_err();
    assert_eq!(again.code(), tonic::Code::Unauthenticated);
    let mine = v1::ExecuteRequest {
        match_id: "m".into(),
        ..other
    };
    assert_eq!(
        matches
            .execute(baffle_tests::with_token(mine, &credential))
            .await
            .unwrap_err()
            .code(),
        tonic::Code::Unauthenticated
    );
    server.stop().await;
}

#[tokio::test]
async fn a_press_lost_with_the_connection_is_replayed_and_applied_once() {
    use baffle_firmware_sim::clock::DeviceClock;
    use baffle_firmware_sim::device::{Device as SimDevice, DeviceConfig};
    let server = TestServer::start().await;
    let credential = bound_device(&server).await;
    let mut device = SimDevice::connect(DeviceConfig {
        clock: DeviceClock::from_system(-777_000, 100),
        ..DeviceConfig::new(server.channel().await, "t7", &credential)
    })
    .await
    .unwrap();
    device.act(Action::CheckIn(A)).await.unwrap();
    device.act(Action::CheckIn(B)).await.unwrap();
    device
        .act(Action::OpeningRoll(v1::Roll {
            side: 0,
            dice: vec![],
            link: Vec::new(),
        }))
        .await
        .unwrap();
    let mover = device.state().turn_side;
    // The press is made, and the connection drops at once, before its ack can come back
    // (perhaps before the press itself got out).
    let acked = device.send(Action::Press(mover)).unwrap();
    device.cut();
    let acked = acked.await.expect("acknowledged after the reconnect");
    assert!(acked.ack.applied || acked.ack.duplicate, "{:?}", acked.ack);
    assert!(device.view().connections >= 2, "it reconnected");
    // And once more for good measure: a further reconnect replays nothing.
    device.cut();
    device
        .wait_for(|v| v.connections >= 3 && v.connected)
        .await
        .unwrap();
    assert_eq!(device.view().unacked, 0);
    let log = baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap();
    assert_eq!(
        log.matches(r#"\"kind\":\"bg.pressed\""#).count(),
        1,
        "exactly one press"
    );
    let mut d = Director::connect(&server).await;
    let s = d.state("m").await;
    assert_eq!(s.turn, v1::TurnPhase::OnRoll as i32);
    assert_ne!(s.turn_side, mover);
    device.close().await;
    server.stop().await;
}

/// Live dice (issue 35): a table's device may relay a link from a player's phone
/// (`Roll.link` in its input), never make one. A link it made up is refused — in its ack
/// over the device protocol, INVALID_ARGUMENT over `Matches.Execute` — and asks for no
/// draw; the player's own link, relayed, is taken, and the roll is drawn once the other
/// player's link is in.
#[tokio::test]
async fn a_device_relays_a_players_live_link_and_one_it_made_up_is_refused() {
    use baffle_core::Side;
    use baffle_core::dice::LiveChain;
    use baffle_proto::v1::audit_client::AuditClient;
    use baffle_proto::v1::matches_client::MatchesClient;

    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    let mut live = defaults(0, None, v1::DiceSource::Server);
    live.player_seeds = v1::PlayerSeedPolicy::Live as i32;
    d.tournament("open", live).await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    let credential = d.device(server.channel().await, "t7", "m").await;
    let mut audit = AuditClient::new(server.channel().await);
    let codes = audit
        .issue_player_codes(d.with_token(v1::IssuePlayerCodesRequest {
            match_id: "m".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    let commitment = baffle_tests::seeds::server_commitment(server.channel().await, "m").await;
    let chains = [
        LiveChain::new([1; 32], 16, commitment, "m", Side::A),
        LiveChain::new([2; 32], 16, commitment, "m", Side::B),
    ];
    let codes = [codes.code_a, codes.code_b];
    let wire = [A, B];
    for i in 0..2 {
        let commit = v1::CommitChainRequest {
            match_id: "m".into(),
            side: wire[i],
            anchor: chains[i].anchor().to_vec(),
            length: 16,
        };
        audit
            .commit_chain(baffle_tests::with_token(commit, &codes[i]))
            .await
            .unwrap();
    }
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    d.act("m", Action::OpeningRoll(v1::Roll::default())).await;
    for i in 0..2 {
        let give = v1::GiveLinkRequest {
            match_id: "m".into(),
            side: wire[i],
            link: chains[i].link(1).unwrap().to_vec(),
        };
        audit
            .give_link(baffle_tests::with_token(give, &codes[i]))
            .await
            .unwrap();
    }
    let s = d.state("m").await;
    assert_eq!(s.turn, v1::TurnPhase::Moving as i32, "the opening drawn");
    let winner = s.turn_side;
    let (w, l) = if winner == A { (0, 1) } else { (1, 0) };
    d.act("m", Action::Press(winner)).await;

    let relayed = |link: Vec<u8>| {
        Action::Roll(v1::Roll {
            side: wire[l],
            dice: Vec::new(),
            link,
        })
    };
    let mut device = Device::connect(&server, &credential).await;
    device.sync(&server).await;
    let before = d.state("m").await;
    // Made up by the device: refused, and nothing is asked for.
    let ack = device.input(&server, 1, 0, relayed(vec![9; 32])).await;
    assert!(!ack.applied, "{ack:?}");
    assert!(!ack.error.is_empty(), "{ack:?}");
    let mut execute = v1::ExecuteRequest {
        match_id: "m".into(),
        command: Some(v1::Command {
            action: Some(relayed(vec![9; 32])),
        }),
        ..Default::default()
    };
    let refused = MatchesClient::new(server.channel().await)
        .execute(baffle_tests::with_token(execute.clone(), &credential))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{refused:?}");
    let after = d.state("m").await;
    assert_eq!(
        after.live_dice, before.live_dice,
        "no draw asked, no link taken"
    );
    assert_eq!(
        (after.turn, after.turn_side, after.dice.clone()),
        (before.turn, before.turn_side, before.dice.clone())
    );
    // The player's own link, relayed: taken; the roll waits for the other's link.
    let ack = device
        .input(&server, 2, 0, relayed(chains[l].link(2).unwrap().to_vec()))
        .await;
    assert!(ack.applied, "{ack:?}");
    let waiting = d.state("m").await.live_dice.unwrap().waiting.unwrap();
    assert_eq!(waiting.side, wire[l]);
    assert!(
        [waiting.given_a, waiting.given_b][l],
        "the relayed link is in"
    );
    // Relaying it again is not a second link.
    execute.command = Some(v1::Command {
        action: Some(relayed(chains[l].link(2).unwrap().to_vec())),
    });
    assert!(
        MatchesClient::new(server.channel().await)
            .execute(baffle_tests::with_token(execute, &credential))
            .await
            .is_err()
    );
    let give = v1::GiveLinkRequest {
        match_id: "m".into(),
        side: wire[w],
        link: chains[w].link(2).unwrap().to_vec(),
    };
    audit
        .give_link(baffle_tests::with_token(give, &codes[w]))
        .await
        .unwrap();
    let s = d.state("m").await;
    assert_eq!(
        (s.turn, s.turn_side),
        (v1::TurnPhase::Moving as i32, wire[l])
    );
    assert!(s.live_dice.unwrap().waiting.is_none());
    server.stop().await;
}
