//! Dice nobody can choose (issue 16), played as the attacks were, against a real server
//! over gRPC: the table's device or the director voiding a server roll to draw again,
//! and a roll asked for early that would have shown the mover his opponent's next dice.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::{EPOCH, TestServer, with_token};
use tonic::Code;

fn server_roll(side: i32) -> Action {
    Action::Roll(v1::Roll { side, dice: vec![] })
}

async fn opened(server: &TestServer) -> (Director, i32) {
    let mut d = Director::connect(server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let s = d
        .act(
            "m",
            Action::OpeningRoll(v1::Roll {
                side: 0,
                dice: vec![],
            }),
        )
        .await;
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
    let rolled = d.act("m", server_roll(other)).await;
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
    let early = d.try_act("m", server_roll(other)).await.unwrap();
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
