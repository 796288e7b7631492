//! Dice nobody can choose (issue 16), played as the attacks were, against a real server
//! over gRPC: the table's device or the director voiding a server roll to draw again,
//! and a roll asked for early that would have shown the mover his opponent's next dice.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_server::time::TimeSource;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::seeds::{self, Secret};
use baffle_tests::{EPOCH, TestServer, with_token};
use tonic::Code;

async fn opened(server: &TestServer) -> (Director, i32) {
    let mut d = Director::connect(server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let s = d.act("m", baffle_tests::api::server_opening()).await;
    (d, s.turn_side)
}

/// Attack 1: side A's table device voided server rolls until it liked one (31 voids and
/// a 6-6); the director could do the same. Now no one can void a server roll at all.
#[tokio::test]
async fn attack_1_nobody_voids_a_server_roll_to_draw_again() {
    let server = TestServer::start().await;
    let (mut d, mover) = opened(&server).await;
    let other = if mover == A { B } else { A };
    let credential = d.device(server.channel().await, "table-m", "m").await;
    let mut device = MatchesClient::new(server.channel().await);
    let void = |side: i32| v1::ExecuteRequest {
        match_id: "m".into(),
        command: Some(v1::Command {
            action: Some(Action::InvalidRoll(side)),
        }),
        ..Default::default()
    };
    // The opening throw is the mover's roll: neither his device nor the director voids it.
    let e = device
        .execute(with_token(void(mover), &credential))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("never drawn again"), "{}", e.message());
    let message = d
        .refused("m", Action::InvalidRoll(mover), Code::FailedPrecondition)
        .await;
    assert!(message.contains("4.1 (iv)"), "{message}");
    // Nor a roll of the game: the opponent's first roll stands as drawn.
    server.time.advance(5_000);
    d.act("m", Action::Press(mover)).await;
    let rolled = d.act("m", baffle_tests::api::server_roll(other)).await;
    let before = rolled.seq;
    for _ in 0..31 {
        let e = device
            .execute(with_token(void(other), &credential))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::FailedPrecondition);
    }
    let after = d.state("m").await;
    assert_eq!((after.seq, after.dice.clone()), (before, rolled.dice));
    server.stop().await;
}

/// Attack 4: A asked for his roll while B was still moving; the server drew it and
/// published it at once, so B moved knowing A's next dice. Now it is queued, and drawn at
/// B's press.
#[tokio::test]
async fn attack_4_a_roll_asked_for_early_is_not_drawn_before_the_press() {
    let server = TestServer::start().await;
    let (mut d, mover) = opened(&server).await;
    let other = if mover == A { B } else { A };
    let early = d
        .try_act("m", baffle_tests::api::server_roll(other))
        .await
        .unwrap();
    let kinds: Vec<&str> = early.events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["dice.roll_queued"]);
    let state = early.state.unwrap();
    assert_eq!(state.turn_side, mover, "the mover is still moving");
    assert!(
        early.events.iter().all(|e| !e.body.contains("\"dice\"")),
        "no dice of the opponent's are published: {:?}",
        early.events
    );
    // B's press ends his turn; A's roll is drawn then, and stands (4.1 (v)(a)).
    server.time.advance(3_000);
    let pressed = d.try_act("m", Action::Press(mover)).await.unwrap();
    let kinds: Vec<&str> = pressed.events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["bg.pressed", "dice.roll", "bg.rolled"]);
    let state = pressed.state.unwrap();
    assert_eq!(state.turn_side, other);
    assert_eq!(state.dice.len(), 2);
    server.stop().await;
}

fn core_side(side: i32) -> baffle_core::Side {
    if side == A {
        baffle_core::Side::A
    } else {
        baffle_core::Side::B
    }
}

/// Attack 2: the operator read the server seed, ground a "player seed" for B and had the
/// director (or either table device) submit it. Now only a player gives his own seed,
/// with his own code; seeds are committed by both before either is revealed; and each
/// player checks with the verifier that his own went in.
#[tokio::test]
async fn attack_2_only_a_player_gives_his_seed_committed_before_any_is_revealed() {
    use baffle_proto::v1::audit_client::AuditClient;
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "seeds", 3, EPOCH.as_ms()).await;
    let device = d
        .device(server.channel().await, "table-seeds", "seeds")
        .await;
    let mut audit = AuditClient::new(server.channel().await);
    let codes = baffle_tests::seeds::player_codes(&server, "seeds").await;
    let (seed_a, seed_b) = (
        Secret::named(b"anna's own", 0xa1),
        Secret::named(b"ben's own", 0xb1),
    );
    let server_commitment = seeds::server_commitment(server.channel().await, "seeds").await;
    let commit_request = |side: i32, secret: &Secret| {
        seeds::commit_request(&server_commitment, "seeds", core_side(side), secret)
    };
    // Not the director, not the table's device, not the other player.
    for (token, code) in [
        (&server.token, Code::PermissionDenied),
        (&device, Code::PermissionDenied),
        (&codes.code_a, Code::PermissionDenied),
    ] {
        let e = audit
            .commit_player_seed(with_token(commit_request(B, &seed_b), token))
            .await
            .unwrap_err();
        assert_eq!(e.code(), code, "{}", e.message());
        let e = audit
            .submit_player_seed(with_token(
                v1::SubmitPlayerSeedRequest {
                    match_id: "seeds".into(),
                    side: B,
                    seed: b"ground by the operator".to_vec(),
                    salt: None,
                },
                token,
            ))
            .await
            .unwrap_err();
        assert_eq!(e.code(), code);
    }
    let e = audit
        .commit_player_seed(commit_request(B, &seed_b))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);
    // Both commit; a reveal before the other's commitment was refused in core.
    audit
        .commit_player_seed(with_token(commit_request(A, &seed_a), &codes.code_a))
        .await
        .unwrap();
    let reveal =
        |side: i32, secret: &Secret| seeds::reveal_request("seeds", core_side(side), secret);
    let early = audit
        .reveal_player_seed(with_token(reveal(A, &seed_a), &codes.code_a))
        .await
        .unwrap_err();
    assert_eq!(early.code(), Code::FailedPrecondition);
    audit
        .commit_player_seed(with_token(commit_request(B, &seed_b), &codes.code_b))
        .await
        .unwrap();
    d.act("seeds", Action::CheckIn(A)).await;
    d.act("seeds", Action::CheckIn(B)).await;
    let opening = baffle_tests::api::server_opening();
    let waiting = d
        .refused("seeds", opening.clone(), Code::FailedPrecondition)
        .await;
    assert!(waiting.contains("reveals his"), "{waiting}");
    for (side, seed, code) in [(A, &seed_a, &codes.code_a), (B, &seed_b, &codes.code_b)] {
        audit
            .reveal_player_seed(with_token(reveal(side, seed), code))
            .await
            .unwrap();
    }
    d.act("seeds", opening).await;
    // Each player checks his own seed went in.
    let log = baffle_client::audit::export_log(server.channel().await, "seeds")
        .await
        .unwrap();
    let expect = baffle_core::audit::verify::Expect {
        player_seeds: vec![
            (baffle_core::Side::A, seed_a.seed.clone()),
            (baffle_core::Side::B, seed_b.seed.clone()),
        ],
        ..Default::default()
    };
    let report = baffle_core::audit::verify::verify_expecting(&log, &expect);
    assert!(report.is_ok(), "{report}");
    server.stop().await;
}

/// Attack 3: with no player seed the server alone chose the dice. A tournament may now
/// require the players' seeds: no roll until both are committed and revealed.
#[tokio::test]
async fn attack_3_a_tournament_can_require_the_players_seeds() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    let required = v1::TournamentDefaults {
        player_seeds: v1::PlayerSeedPolicy::Required as i32,
        ..defaults(0, None, v1::DiceSource::Server)
    };
    d.tournament("open", required).await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let message = d
        .refused(
            "m",
            baffle_tests::api::server_opening(),
            Code::FailedPrecondition,
        )
        .await;
    assert!(
        message.contains("requires both players' seeds"),
        "{message}"
    );
    let t = d
        .tournaments
        .get_tournament(v1::GetTournamentRequest { id: "open".into() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        t.defaults.unwrap().player_seeds,
        v1::PlayerSeedPolicy::Required as i32
    );
    server.stop().await;
}

/// Attack 5: a Chess960 match starting at once had its position drawn at the start,
/// with no window for the players' seeds. Where seeds are required, the position waits
/// for both, and is drawn with the last reveal.
#[tokio::test]
async fn attack_5_a_chess960_position_waits_for_the_players_seeds() {
    use baffle_proto::v1::audit_client::AuditClient;
    use baffle_proto::v1::chess_command::Action as Chess;
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    let required = v1::TournamentDefaults {
        player_seeds: v1::PlayerSeedPolicy::Required as i32,
        ..defaults(0, None, v1::DiceSource::Server)
    };
    d.tournament("open", required).await;
    let now = server.time.now().as_ms();
    let settings = v1::ChessMatchSettings {
        control: Some((&baffle_core::clock::TimeControl::rapid()).into()),
        games: 1,
        default_time_ms: 600_000,
        chess960: true,
        ..Default::default()
    };
    d.create_chess("open", "c960", "1", now, settings).await;
    let chess = |a| Action::Chess(v1::ChessCommand { action: Some(a) });
    server.time.advance(1_000);
    let s = d
        .act("c960", chess(Chess::Arrive(v1::Color::White as i32)))
        .await;
    let c = s.chess.expect("chess");
    assert!(c.started, "the game started at its time");
    assert!(
        c.position.is_none(),
        "no position before the players' seeds"
    );
    let mut audit = AuditClient::new(server.channel().await);
    let codes = baffle_tests::seeds::player_codes(&server, "c960").await;
    let players = [
        (A, baffle_core::Side::A, &codes.code_a),
        (B, baffle_core::Side::B, &codes.code_b),
    ];
    let secret = |side: baffle_core::Side| Secret::named(format!("{side}'s seed").as_bytes(), 7);
    let server_commitment = seeds::server_commitment(server.channel().await, "c960").await;
    for (_, side, code) in players {
        let request = seeds::commit_request(&server_commitment, "c960", side, &secret(side));
        audit
            .commit_player_seed(with_token(request, code))
            .await
            .unwrap();
    }
    for (_, side, code) in players {
        let request = seeds::reveal_request("c960", side, &secret(side));
        audit
            .reveal_player_seed(with_token(request, code))
            .await
            .unwrap();
    }
    let c = d.state("c960").await.chess.expect("chess");
    let position = c.position.expect("drawn with the last reveal");
    assert!(position.sp < 960 && position.back_rank.len() == 8);
    server.stop().await;
}
