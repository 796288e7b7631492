//! Dice at the edges of a match's log (issue 29), played as the attacks were, against a
//! real server over gRPC and the `baffle` command line: a player who pressed back to
//! give his opponent's roll away, a last revealer holding a veto, a seed in the clear
//! that deadlocked a commit–reveal match, a weak seed ground from its commitment, a twin
//! log, and a reveal that only the director could ask for.

use baffle_core::Side;
use baffle_core::audit::export::{Line, parse_line};
use baffle_core::audit::verify::{Expect, verify_expecting};
use baffle_core::dice::{DiceStream, Position, ServerSeed, dice_key_v2};
use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::command::Action;
use baffle_server::time::TimeSource;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::seeds::{self, Secret};
use baffle_tests::{EPOCH, TestServer, with_token};
use tonic::Code;

fn core_side(side: i32) -> Side {
    if side == A { Side::A } else { Side::B }
}

/// The log of `match_id` as the server exports it.
async fn log(server: &TestServer, match_id: &str) -> String {
    baffle_client::audit::export_log(server.channel().await, match_id)
        .await
        .unwrap()
}

/// The bodies of an export's records, parsed.
fn bodies(log: &str) -> Vec<serde_json::Value> {
    log.lines()
        .filter_map(|l| match parse_line(l) {
            Ok(Line::Record(r)) => Some(serde_json::from_str(&r.body).unwrap()),
            _ => None,
        })
        .collect()
}

/// The revealed server seed in an export.
fn revealed_seed(log: &str) -> ServerSeed {
    let reveal = bodies(log)
        .into_iter()
        .find(|b| b["kind"] == "dice.reveal")
        .expect("the log holds the reveal");
    let bytes = hex::decode(reveal["server_seed"].as_str().unwrap()).unwrap();
    ServerSeed::from_bytes(bytes.try_into().unwrap())
}

/// Attack 1 of issue 29: a player who was not closed out pressed back, drawing no dice,
/// so that the next draw went to his opponent — with the dice known (the operator's
/// help), 11 press-backs gave the opponent's roll away until his own was a double. Now a
/// roll's dice are those of its position: the press-back is recorded as the player's
/// claim, and every roll after it — his and his opponent's — is what it would have been
/// without it. With moves recorded it is refused unless he is closed out.
#[tokio::test]
async fn attack_1_a_press_back_takes_no_dice_from_anyone() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let s = d.act("m", baffle_tests::api::server_opening()).await;
    let mover = s.turn_side;
    let other = if mover == A { B } else { A };
    server.time.advance(3_000);
    d.act("m", Action::Press(mover)).await;
    // The other player, on roll and not closed out, presses back three times in a row.
    for _ in 0..3 {
        server.time.advance(1_000);
        d.act("m", Action::PressBack(other)).await;
        server.time.advance(1_000);
        d.act("m", baffle_tests::api::server_roll(mover)).await;
        server.time.advance(1_000);
        d.act("m", Action::Press(mover)).await;
    }
    server.time.advance(1_000);
    d.act("m", baffle_tests::api::server_roll(other)).await;
    d.act("m", Action::ForfeitMatch(other)).await;
    let s = d.act("m", Action::ConfirmResult(v1::Empty {})).await;
    assert!(s.dice_revealed);
    let text = log(&server, "m").await;
    assert_eq!(text.matches("bg.pressed_back").count(), 3);
    // Every roll is its position's: the mover's rolls 1 to 3, the other's roll 1 — the
    // roll he would have had at his first turn had he not pressed back.
    let key = dice_key_v2("m", &revealed_seed(&text), b"", b"");
    let rolls: Vec<(Side, [u8; 2])> = bodies(&text)
        .into_iter()
        .filter(|b| b["kind"] == "dice.roll")
        .map(|b| {
            let side = if b["side"] == "A" { Side::A } else { Side::B };
            let die = |i: usize| b["dice"][i].as_u64().unwrap() as u8;
            (side, [die(0), die(1)])
        })
        .collect();
    let mut counts = [0u32; 2];
    let mut expected = Vec::new();
    for (side, _) in &rolls {
        counts[side.index()] += 1;
        let at = Position::Roll {
            game: 1,
            side: *side,
            roll: counts[side.index()],
        };
        expected.push((*side, DiceStream::at(key, at).roll()));
    }
    assert_eq!(rolls, expected);
    assert_eq!(counts[core_side(mover).index()], 3);
    assert_eq!(counts[core_side(other).index()], 1);
    let report = verify_expecting(&text, &Expect::default());
    assert!(report.is_ok(), "{report}");
    server.stop().await;
}

/// Attack 1, with moves recorded: the board says whether the player can move, and a
/// press-back by one who can is refused, naming the roll that moves him.
#[tokio::test]
async fn attack_1_with_moves_recorded_a_press_back_needs_a_closed_out_player() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create(v1::CreateMatchRequest {
        tournament_id: "open".into(),
        match_id: "mv".into(),
        round: 1,
        table: "1".into(),
        player_a: "Anna".into(),
        player_b: "Ben".into(),
        length: 3,
        scheduled_start_ms: EPOCH.as_ms(),
        moves: v1::MovesSetting::Recorded as i32,
        ..Default::default()
    })
    .await;
    d.act("mv", Action::CheckIn(A)).await;
    d.act("mv", Action::CheckIn(B)).await;
    let s = d.act("mv", baffle_tests::api::server_opening()).await;
    let other = if s.turn_side == A { B } else { A };
    let message = d
        .refused("mv", Action::PressBack(other), Code::FailedPrecondition)
        .await;
    // Not his turn yet: the mover plays first.
    assert!(message.contains("4.2 (i)"), "{message}");
    server.stop().await;
}

/// Issue 29's commit–reveal tests share a match whose players' codes are issued.
struct Seeded {
    server: TestServer,
    d: Director,
    audit: AuditClient<tonic::transport::Channel>,
    codes: v1::IssuePlayerCodesResponse,
    commitment: baffle_core::dice::Commitment,
}

impl Seeded {
    async fn start(required: bool) -> Seeded {
        let server = TestServer::start().await;
        let mut d = Director::connect(&server).await;
        let policy = if required {
            v1::PlayerSeedPolicy::Required
        } else {
            v1::PlayerSeedPolicy::Optional
        };
        let defaults = v1::TournamentDefaults {
            player_seeds: policy as i32,
            ..defaults(0, None, v1::DiceSource::Server)
        };
        d.tournament("open", defaults).await;
        d.create_match("open", "m", 3, EPOCH.as_ms()).await;
        let audit = AuditClient::new(server.channel().await);
        let codes = baffle_tests::seeds::player_codes(&server, "m").await;
        let commitment = seeds::server_commitment(server.channel().await, "m").await;
        Seeded {
            server,
            d,
            audit,
            codes,
            commitment,
        }
    }

    fn code(&self, side: Side) -> &str {
        match side {
            Side::A => &self.codes.code_a,
            Side::B => &self.codes.code_b,
        }
    }

    async fn commit(&mut self, side: Side, secret: &Secret) -> Result<(), tonic::Status> {
        let request = seeds::commit_request(&self.commitment, "m", side, secret);
        let code = self.code(side).to_string();
        self.audit
            .commit_player_seed(with_token(request, &code))
            .await
            .map(|_| ())
    }

    async fn reveal(&mut self, side: Side, secret: &Secret) -> Result<(), tonic::Status> {
        let request = seeds::reveal_request("m", side, secret);
        let code = self.code(side).to_string();
        self.audit
            .reveal_player_seed(with_token(request, &code))
            .await
            .map(|_| ())
    }
}

/// Attack 2 of issue 29: both players committed, A revealed, B never did — the match
/// waited for ever, and B, knowing every die (the operator's server seed), could choose
/// whether to reveal. Now the reveals are due by a deadline; past it the director is
/// alerted (the state carries it) and rules: he extends it, with a reason and article,
/// or B forfeits. No die is drawn meanwhile, so B's silence chooses nothing.
#[tokio::test]
async fn attack_2_the_last_revealer_has_a_deadline_and_no_veto() {
    let mut t = Seeded::start(false).await;
    let (anna, ben) = (Secret::named(b"anna", 1), Secret::named(b"ben", 2));
    t.d.act("m", Action::CheckIn(A)).await;
    t.d.act("m", Action::CheckIn(B)).await;
    t.commit(Side::A, &anna).await.unwrap();
    let committed_at = t.server.time.now().as_ms();
    t.commit(Side::B, &ben).await.unwrap();
    t.reveal(Side::A, &anna).await.unwrap();
    let s = t.d.state("m").await;
    assert_eq!(
        s.reveal_due_ms,
        committed_at + 300_000,
        "five minutes by default"
    );
    // No die while B's reveal is pending, before the deadline or after it.
    let opening = baffle_tests::api::server_opening();
    let waiting =
        t.d.refused("m", opening.clone(), Code::FailedPrecondition)
            .await;
    assert!(waiting.contains("player B reveals"), "{waiting}");
    t.server.time.advance(301_000);
    t.d.refused("m", opening.clone(), Code::FailedPrecondition)
        .await;
    let s = t.d.state("m").await;
    assert!(
        s.reveal_due_ms < t.server.time.now().as_ms(),
        "overdue, for the director to see"
    );
    // The director extends it with his reason and article, or not at all without them.
    let extend = |reason: &str| v1::ExtendRevealDeadlineRequest {
        match_id: "m".into(),
        seconds: 120,
        reason: reason.into(),
        article: "2.3".into(),
    };
    let e = t
        .audit
        .extend_reveal_deadline(t.server.director(extend("")))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{}", e.message());
    t.audit
        .extend_reveal_deadline(t.server.director(extend("B's phone died")))
        .await
        .unwrap();
    let s = t.d.state("m").await;
    assert_eq!(s.reveal_due_ms, t.server.time.now().as_ms() + 120_000);
    // B stays silent: the director rules the match forfeited; confirmed, the seed is
    // revealed by itself and the log verifies, B's commitment unrevealed in it.
    t.server.time.advance(121_000);
    let s = t.d.act("m", Action::ForfeitMatch(B)).await;
    assert_eq!(s.reveal_due_ms, 0, "a decided match awaits no reveal");
    let s = t.d.act("m", Action::ConfirmResult(v1::Empty {})).await;
    assert!(s.dice_revealed);
    let text = log(&t.server, "m").await;
    assert!(text.contains("B's phone died"));
    let report = verify_expecting(
        &text,
        &Expect {
            reveal: true,
            ..Expect::default()
        },
    );
    assert!(report.is_ok(), "{report}");
    t.server.stop().await;
}

/// A stranger's run of issue 29's fix: where the players' seeds are optional (the
/// default), A committed, B never did, and the opening was drawn with neither seed — A's
/// commitment silently dropped, so B, told the server's dice by the operator, chose them
/// by not committing. Now one player's commitment holds the dice until the other has
/// committed and both have revealed, with a deadline the director sees.
#[tokio::test]
async fn a_lone_commitment_is_never_dropped() {
    let mut t = Seeded::start(false).await;
    let (anna, ben) = (Secret::named(b"anna", 1), Secret::named(b"ben", 2));
    t.d.act("m", Action::CheckIn(A)).await;
    t.d.act("m", Action::CheckIn(B)).await;
    t.commit(Side::A, &anna).await.unwrap();
    let opening = baffle_tests::api::server_opening();
    let waiting =
        t.d.refused("m", opening.clone(), Code::FailedPrecondition)
            .await;
    assert!(waiting.contains("until player B commits"), "{waiting}");
    assert!(
        t.d.state("m").await.reveal_due_ms > 0,
        "the director sees the wait"
    );
    t.commit(Side::B, &ben).await.unwrap();
    t.reveal(Side::A, &anna).await.unwrap();
    t.reveal(Side::B, &ben).await.unwrap();
    t.d.act("m", opening).await;
    let s = t.d.state("m").await;
    assert_eq!(
        s.player_seeds[0].seed,
        hex::encode(&anna.seed),
        "A's seed is in the key"
    );
    t.server.stop().await;
}

/// Attack 3 of issue 29: in a tournament requiring the players' seeds, A's seed given in
/// the clear was accepted, and from then on every commitment was refused and the opening
/// with it, for good. Now a seed in the clear is refused with the reason, and the match
/// goes on by commit and reveal.
#[tokio::test]
async fn attack_3_a_clear_seed_cannot_deadlock_a_commit_reveal_match() {
    let mut t = Seeded::start(true).await;
    let clear = v1::SubmitPlayerSeedRequest {
        match_id: "m".into(),
        side: A,
        seed: vec![7; 32],
        salt: None,
    };
    let code_a = t.codes.code_a.clone();
    let e = t
        .audit
        .submit_player_seed(with_token(clear, &code_a))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("commit to a seed"), "{}", e.message());
    let (anna, ben) = (Secret::named(b"anna", 1), Secret::named(b"ben", 2));
    t.commit(Side::A, &anna).await.unwrap();
    t.commit(Side::B, &ben).await.unwrap();
    t.reveal(Side::A, &anna).await.unwrap();
    t.reveal(Side::B, &ben).await.unwrap();
    t.d.act("m", Action::CheckIn(A)).await;
    t.d.act("m", Action::CheckIn(B)).await;
    t.d.act("m", baffle_tests::api::server_opening()).await;
    t.server.stop().await;
}

/// Attack 4 of issue 29: a 1-byte seed was accepted and a commitment was an unsalted
/// hash, so the opponent recovered `anna` from it in 0.1 s and, with the server seed,
/// chose his own. Now a seed under 16 bytes is refused, `baffle audit commit` makes 32
/// random bytes and a salt, and the commitment published hides them: the opponent's
/// dictionary finds nothing, under either construction's hash.
#[tokio::test]
async fn attack_4_a_weak_seed_is_refused_and_a_commitment_hides_its_seed() {
    let mut t = Seeded::start(false).await;
    let weak = Secret {
        seed: b"anna".to_vec(),
        salt: [1; 32],
    };
    t.commit(Side::A, &weak).await.unwrap();
    t.commit(Side::B, &Secret::named(b"ben", 2)).await.unwrap();
    let e = t.reveal(Side::A, &weak).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("16 to 64 bytes"), "{}", e.message());

    // A second match: A commits through the command line, as a player would.
    t.d.create_match("open", "m2", 3, EPOCH.as_ms()).await;
    let codes = t
        .audit
        .issue_player_codes(t.server.director(v1::IssuePlayerCodesRequest {
            match_id: "m2".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    let out = baffle_tests::cli::baffle(
        &t.server,
        &["audit", "commit", "m2", "--code", &codes.code_a],
    )
    .await;
    assert_eq!(out.code, 0, "{}{}", out.out, out.err);
    assert!(out.out.contains("--salt"), "{}", out.out);
    let typed = baffle_tests::cli::baffle(
        &t.server,
        &[
            "audit",
            "commit",
            "m2",
            "--code",
            &codes.code_b,
            "--seed",
            "616e6e61",
        ],
    )
    .await;
    assert_ne!(
        typed.code, 0,
        "a 4-byte seed is refused before anything is sent"
    );
    assert!(typed.err.contains("16 to 64"), "{}", typed.err);
    let published = t.d.state("m2").await.player_seeds[0].commitment.clone();
    let server = seeds::server_commitment(t.server.channel().await, "m2").await;
    let words = [
        "anna",
        "ben",
        "password",
        "backgammon",
        "tavli",
        "6-6",
        "lucky",
    ];
    for word in words {
        let seed = word.as_bytes();
        let v1 = baffle_core::dice::player_commitment("m2", Side::A, seed);
        let unsalted =
            baffle_core::dice::player_commitment_v2(&server, "m2", Side::A, &[0; 32], seed);
        assert_ne!(hex::encode(v1), published);
        assert_ne!(hex::encode(unsalted), published);
    }
    t.server.stop().await;
}

/// Attack 5 of issue 29, the players' part: after both reveals the operator started a
/// second server with the same ids, a server seed under which the other player won, and
/// replayed the players' real seeds — and `verify --player-seed` passed both logs. Now a
/// player's commitment binds the server's commitment: the twin must commit anew in his
/// name, and the player's own commitment (`--player-commit`, as `baffle audit commit`
/// printed it) fails on the twin log.
#[tokio::test]
async fn attack_5_a_twin_log_does_not_hold_the_players_commitment() {
    let mut real = Seeded::start(false).await;
    let (anna, ben) = (Secret::named(b"anna", 1), Secret::named(b"ben", 2));
    let mut twin = Seeded::start(false).await;
    assert_ne!(real.commitment, twin.commitment, "another server seed");
    for t in [&mut real, &mut twin] {
        t.commit(Side::A, &anna).await.unwrap();
        t.commit(Side::B, &ben).await.unwrap();
        t.reveal(Side::A, &anna).await.unwrap();
        t.reveal(Side::B, &ben).await.unwrap();
    }
    let anna_commit = hex::encode(baffle_core::dice::player_commitment_v2(
        &real.commitment,
        "m",
        Side::A,
        &anna.salt,
        &anna.seed,
    ));
    let dir = tempfile::tempdir().unwrap();
    for (t, verifies) in [(&real, true), (&twin, false)] {
        let path = dir.path().join("m.jsonl");
        std::fs::write(&path, log(&t.server, "m").await).unwrap();
        let out = baffle_tests::cli::baffle(
            &t.server,
            &[
                "audit",
                "verify",
                path.to_str().unwrap(),
                "--player-seed",
                &format!("a={}", hex::encode(&anna.seed)),
                "--player-commit",
                &format!("a={anna_commit}"),
            ],
        )
        .await;
        assert_eq!(out.code == 0, verifies, "{}{}", out.out, out.err);
        if !verifies {
            assert!(
                out.out.contains("not the log the player committed in"),
                "{}",
                out.out
            );
        }
    }
    real.server.stop().await;
    twin.server.stop().await;
}

/// Attack 7 of issue 29: a match over, confirmed and archived had no reveal until
/// someone with the director's token asked, so players and spectators could not check
/// it. Now the server reveals by itself when the result is confirmed.
#[tokio::test]
async fn attack_7_the_seed_is_revealed_when_the_result_is_confirmed() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 1, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    d.act("m", baffle_tests::api::server_opening()).await;
    let s = d.act("m", Action::ForfeitMatch(A)).await;
    assert!(!s.dice_revealed, "over, not yet confirmed");
    let s = d.act("m", Action::ConfirmResult(v1::Empty {})).await;
    assert!(s.dice_revealed);
    let text = log(&server, "m").await;
    let report = verify_expecting(
        &text,
        &Expect {
            reveal: true,
            ..Expect::default()
        },
    );
    assert!(report.is_ok(), "{report}");
    assert!(report.revealed);
    server.stop().await;
}
