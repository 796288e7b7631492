//! Live dice against a real server (issue 35, `docs/dice.md` "Live dice"): the players
//! are clients that read the docs (a chain each, a link per draw), the operator is
//! whoever can read the whole data directory, and the attacks are played as such:
//!
//! - the operator, alone or with one player, looks through every byte the server has
//!   written for the next links before a roll is asked for: they are nowhere, so the
//!   roll cannot be computed, whatever he knows of the server seed;
//! - a player who withholds his link forfeits at the deadline, on the server's clock;
//! - a player's code carries only his own side's play and links.

use baffle_core::Side;
use baffle_core::audit::verify::verify_jsonl;
use baffle_core::dice::{Commitment, LiveChain};
use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::command::Action;
use baffle_server::time::TimeSource;
use baffle_tests::api::{B, Director, defaults, server_opening};
use baffle_tests::seeds::server_commitment;
use baffle_tests::{TestServer, with_token};
use tonic::Code;

const MATCH: &str = "r1-t1";
const LENGTH: u32 = 32;

/// A player's client: his chain and his code.
struct Player {
    side: Side,
    chain: LiveChain,
    code: String,
    next: u32,
}

impl Player {
    fn wire(&self) -> i32 {
        baffle_proto::convert::side_to_wire(self.side) as i32
    }

    fn next_link(&self) -> [u8; 32] {
        self.chain.link(self.next).expect("links left")
    }

    /// Gives his next link (`Audit.GiveLink`).
    async fn give(&mut self, server: &TestServer) -> Result<(), tonic::Status> {
        let request = v1::GiveLinkRequest {
            match_id: MATCH.into(),
            side: self.wire(),
            link: self.next_link().to_vec(),
        };
        AuditClient::new(server.channel().await)
            .give_link(with_token(request, &self.code))
            .await?;
        self.next += 1;
        Ok(())
    }

    /// Rolls with his next link, with his own code (`Execute` with `Roll.link`).
    async fn roll(&mut self, server: &TestServer) -> Result<v1::ExecuteReply, tonic::Status> {
        let action = Action::Roll(v1::Roll {
            side: self.wire(),
            dice: vec![],
            link: self.next_link().to_vec(),
        });
        let reply = execute(server, &self.code, action).await?;
        self.next += 1;
        Ok(reply)
    }
}

async fn execute(
    server: &TestServer,
    token: &str,
    action: Action,
) -> Result<v1::ExecuteReply, tonic::Status> {
    let request = v1::ExecuteRequest {
        match_id: MATCH.into(),
        command: Some(v1::Command {
            action: Some(action),
        }),
        ..Default::default()
    };
    v1::matches_client::MatchesClient::new(server.channel().await)
        .execute(with_token(request, token))
        .await
        .map(tonic::Response::into_inner)
}

/// A live-dice tournament with one 3-point match, both players checked in, their codes
/// issued and their chains committed.
async fn seated(server: &TestServer) -> (Director, [Player; 2]) {
    let mut director = Director::connect(server).await;
    let mut d = defaults(120_000, None, v1::DiceSource::Server);
    d.player_seeds = v1::PlayerSeedPolicy::Live as i32;
    director.tournament("club", d).await;
    director
        .create_match("club", MATCH, 3, baffle_tests::EPOCH.as_ms())
        .await;
    let mut audit = AuditClient::new(server.channel().await);
    let codes = baffle_tests::seeds::player_codes(server, MATCH).await;
    let commitment: Commitment = server_commitment(server.channel().await, MATCH).await;
    let player = |side, tip, code: &str| Player {
        side,
        chain: LiveChain::new([tip; 32], LENGTH, commitment, MATCH, side),
        code: code.into(),
        next: 1,
    };
    let players = [
        player(Side::A, 0xa7, &codes.code_a),
        player(Side::B, 0xb7, &codes.code_b),
    ];
    for p in &players {
        let request = v1::CommitChainRequest {
            match_id: MATCH.into(),
            side: p.wire(),
            anchor: p.chain.anchor().to_vec(),
            length: LENGTH,
        };
        audit
            .commit_chain(with_token(request, &p.code))
            .await
            .expect("chain committed");
        let check_in = Action::CheckIn(p.wire());
        execute(server, &p.code, check_in)
            .await
            .expect_err("a check-in is the table's, not a player code's");
        director.act(MATCH, Action::CheckIn(p.wire())).await;
    }
    (director, players)
}

/// The match's log as the server exports it.
async fn log(server: &TestServer) -> String {
    baffle_client::audit::export_log(server.channel().await, MATCH)
        .await
        .unwrap()
}

/// Every file the server wrote, as one byte string: what the operator can read.
fn everything_on_disk(server: &TestServer) -> Vec<u8> {
    let mut all = Vec::new();
    let mut dirs = vec![server.data_dir()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                all.extend(bytes);
            }
        }
    }
    all
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Whether the operator could find `link` on the machine, raw or in hex.
fn on_disk(server: &TestServer, link: &[u8; 32]) -> bool {
    let all = everything_on_disk(server);
    contains(&all, link) || contains(&all, hex::encode(link).as_bytes())
}

/// The opening, asked for by the director, with both players' links.
async fn opened(server: &TestServer, director: &mut Director, players: &mut [Player; 2]) {
    let asked = director.act(MATCH, server_opening()).await;
    assert!(asked.live_dice.unwrap().waiting.is_some());
    for p in players.iter_mut() {
        p.give(server).await.expect("link taken");
    }
    let s = director.state(MATCH).await;
    assert_eq!(s.turn, v1::TurnPhase::Moving as i32, "{s:?}");
}

/// The player moving presses, with his own code: his opponent is on roll. Returns the
/// mover's and the roller's places in `players`.
async fn mover_presses(
    server: &TestServer,
    director: &mut Director,
    players: &[Player; 2],
) -> (usize, usize) {
    let s = director.state(MATCH).await;
    let mover = usize::from(s.turn_side == v1::Side::B as i32);
    let press = Action::Press(players[mover].wire());
    execute(server, &players[mover].code, press)
        .await
        .expect("his own press");
    (mover, 1 - mover)
}

/// Issue 35, done when: a stranger acting as the operator with full access to the
/// machine cannot say the next roll before it is asked for. Before each roll, neither
/// player's next link is anywhere in the data directory (raw or hex) — so the dice, which
/// hash both, cannot be computed from it, the server seed and the sealing key included.
/// Once given, each link is there (the log keeps it), and the dice follow from it.
#[tokio::test]
async fn live_dice_the_operator_with_the_whole_disk_cannot_say_the_next_roll() {
    let server = TestServer::start().await;
    let (mut director, mut players) = seated(&server).await;
    opened(&server, &mut director, &mut players).await;
    for _ in 0..4 {
        let (mover, roller) = mover_presses(&server, &mut director, &players).await;
        // The operator (and the mover, who knows his own next link) look for the
        // roller's next link: not on the machine, so the roll cannot be computed.
        let (next_roller, next_mover) = (players[roller].next_link(), players[mover].next_link());
        assert!(!on_disk(&server, &next_roller));
        assert!(!on_disk(&server, &next_mover));
        // The roller's link goes with his roll: asked for, not drawn, his clock stopped.
        let reply = players[roller].roll(&server).await.expect("his roll");
        let state = reply.state.unwrap();
        let waiting = state.live_dice.unwrap().waiting.expect("the draw waits");
        assert!(state.dice.is_empty(), "nothing drawn with one link");
        assert_eq!(
            state.clock.unwrap().paused,
            v1::PauseReason::AwaitingLinks as i32
        );
        assert!(waiting.given_a != waiting.given_b);
        // Nothing is played meanwhile, by either player: not even a double.
        let double = Action::Double(players[roller].wire());
        let refused = execute(&server, &players[roller].code.clone(), double)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
        assert!(
            on_disk(&server, &next_roller),
            "the link given is in the log"
        );
        // The other player's client gives his: drawn.
        players[mover].give(&server).await.expect("link taken");
        let s = director.state(MATCH).await;
        assert_eq!(s.dice.len(), 2, "{s:?}");
        assert!(s.live_dice.unwrap().waiting.is_none());
    }
    // The match ends, the seed is revealed, and the log verifies draw by draw.
    director.act(MATCH, Action::ForfeitMatch(B)).await;
    let s = director
        .act(MATCH, Action::ConfirmResult(v1::Empty {}))
        .await;
    assert!(s.dice_revealed);
    let report = verify_jsonl(&log(&server).await, None);
    assert!(report.is_ok(), "{report}");
    assert_eq!(report.dice_verified, 5, "{report}");
}

/// A player who withholds his link forfeits at the deadline, on the server's clock; the
/// roller waits meanwhile without being charged.
#[tokio::test]
async fn live_dice_a_player_who_withholds_his_link_forfeits_at_the_deadline() {
    let server = TestServer::start().await;
    let (mut director, mut players) = seated(&server).await;
    opened(&server, &mut director, &mut players).await;
    let (_, roller) = mover_presses(&server, &mut director, &players).await;
    players[roller].roll(&server).await.unwrap();
    let before = director.state(MATCH).await;
    let due = before.live_dice.unwrap().waiting.unwrap().due_ms;
    // 59 s later: still waiting, nobody charged.
    server.time.advance(59_000);
    let s = director.state(MATCH).await;
    assert!(s.result.is_none());
    let (now, then) = (s.clock.unwrap(), before.clock.unwrap());
    assert_eq!(
        (now.a, now.b),
        (then.a, then.b),
        "nobody charged while waiting"
    );
    // Past the deadline the withholder has forfeited, at its instant.
    server.time.advance(2_000);
    let s = director.until(MATCH, |s| s.result.is_some()).await;
    let result = s.result.unwrap();
    assert_eq!(result.winner, players[roller].wire());
    assert_eq!(result.how_kind, v1::MatchEndKind::Forfeit as i32);
    assert!(!result.confirmed);
    let text = log(&server).await;
    let ruling = text
        .lines()
        .find(|l| l.contains("did not give his link"))
        .expect("the forfeit's ruling");
    assert!(
        ruling.contains(r#"\"article\":\"2.3\""#) || ruling.contains("2.3"),
        "{ruling}"
    );
    // At the deadline's instant: the match ended then, not at the tick that found it.
    let ended = text
        .lines()
        .find(|l| l.contains("bg.match_ended"))
        .expect("the end");
    assert!(ended.contains(&format!("{due}")), "{ended}");
}

/// A player's code carries his own side's links and play only.
#[tokio::test]
async fn live_dice_a_player_code_is_for_his_own_side() {
    let server = TestServer::start().await;
    let (mut director, mut players) = seated(&server).await;
    let asked = director.act(MATCH, server_opening()).await;
    assert!(asked.live_dice.is_some());
    // B's code giving A's link.
    let request = v1::GiveLinkRequest {
        match_id: MATCH.into(),
        side: players[0].wire(),
        link: players[0].next_link().to_vec(),
    };
    let refused = AuditClient::new(server.channel().await)
        .give_link(with_token(request.clone(), &players[1].code))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    // No token at all.
    let refused = AuditClient::new(server.channel().await)
        .give_link(request)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    // A made-up link from the right code: a wrong value, and nothing recorded.
    let before = director.state(MATCH).await.seq;
    let made_up = v1::GiveLinkRequest {
        match_id: MATCH.into(),
        side: players[0].wire(),
        link: vec![9; 32],
    };
    let refused = AuditClient::new(server.channel().await)
        .give_link(with_token(made_up, &players[0].code))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert_eq!(director.state(MATCH).await.seq, before);
    players[0].give(&server).await.unwrap();
    players[1].give(&server).await.unwrap();
}

/// Live dice are server dice for backgammon: a tournament of dice rolled at the table
/// with live dice is refused (INVALID_ARGUMENT: its settings contradict each other), and
/// so is a chess match in a live-dice tournament (FAILED_PRECONDITION: the tournament's
/// rules refuse it) — nothing created either way.
#[tokio::test]
async fn live_dice_are_for_backgammon_with_server_dice() {
    let server = TestServer::start().await;
    let mut director = Director::connect(&server).await;
    let mut physical = defaults(120_000, None, v1::DiceSource::Physical);
    physical.player_seeds = v1::PlayerSeedPolicy::Live as i32;
    let t = v1::Tournament {
        id: "table-dice".into(),
        name: "table dice".into(),
        defaults: Some(physical),
        ..Default::default()
    };
    let refused = director
        .tournaments
        .create_tournament(director.with_token(v1::CreateTournamentRequest {
            tournament: Some(t),
        }))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert!(
        refused.message().contains("live dice are server dice"),
        "{refused:?}"
    );
    let mut live = defaults(120_000, None, v1::DiceSource::Server);
    live.player_seeds = v1::PlayerSeedPolicy::Live as i32;
    director.tournament("club", live).await;
    let chess = v1::CreateMatchRequest {
        tournament_id: "club".into(),
        match_id: "c1".into(),
        round: 1,
        table: "2".into(),
        player_a: "Anna".into(),
        player_b: "Boris".into(),
        scheduled_start_ms: baffle_tests::EPOCH.as_ms() + 600_000,
        chess: Some(v1::ChessMatchSettings {
            control: Some((&baffle_core::clock::TimeControl::rapid()).into()),
            games: 1,
            chess960: true,
            ..Default::default()
        }),
        ..Default::default()
    };
    let refused = director
        .tournaments
        .create_match(director.with_token(chess))
        .await
        .unwrap_err();
    // Refused by the rules for this tournament, not as a malformed request.
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert!(
        refused.message().contains("live dice are for backgammon"),
        "{refused:?}"
    );
    assert!(director.state_opt("c1").await.is_none());
}

/// A red team's find: the server went down 0.7 s after a roll was asked for and came
/// back 75 s later — and forfeited the player whose link it had not been there to take.
/// Now an outage moves the deadline by as much (`dice.link_due`, the reason and the
/// principle), so the draw still waits, and the roller's clock is not charged.
#[tokio::test]
async fn live_dice_a_restart_moves_the_links_deadline_by_the_outage() {
    let server = TestServer::start().await;
    let (mut director, mut players) = seated(&server).await;
    opened(&server, &mut director, &mut players).await;
    let (mover, roller) = mover_presses(&server, &mut director, &players).await;
    players[roller].roll(&server).await.unwrap();
    let before = director.state(MATCH).await;
    let due = before
        .live_dice
        .as_ref()
        .unwrap()
        .waiting
        .as_ref()
        .unwrap()
        .due_ms;
    server.time.advance(700);
    let (dir, time) = server.stop().await;
    time.advance(75_000);
    let server = TestServer::start_in(dir, time).await;
    let mut director = Director::connect(&server).await;
    let s = director.state(MATCH).await;
    assert!(
        s.result.is_none(),
        "nobody forfeits for the server's outage: {s:?}"
    );
    let waiting = s.live_dice.unwrap().waiting.expect("the draw still waits");
    assert!(
        waiting.due_ms >= due + 75_000,
        "{} vs {}",
        waiting.due_ms,
        due
    );
    let (now, then) = (s.clock.unwrap(), before.clock.unwrap());
    assert_eq!(
        (now.a, now.b),
        (then.a, then.b),
        "nobody charged while waiting"
    );
    assert!(log(&server).await.contains("the server was down"));
    // The other player's client gives his link: drawn.
    players[mover].give(&server).await.unwrap();
    assert_eq!(director.state(MATCH).await.dice.len(), 2);
}

/// A red team's find: a link given with the opening roll (`opening_roll.link`) was
/// dropped without a word. Now it is the player's link for the opening, which it asks
/// for; a side missing with a link is refused as a value.
#[tokio::test]
async fn live_dice_a_link_with_the_opening_roll_is_taken() {
    let server = TestServer::start().await;
    let (mut director, mut players) = seated(&server).await;
    let before = director.state(MATCH).await.seq;
    let nobodys = Action::OpeningRoll(v1::Roll {
        side: 0,
        dice: vec![],
        link: players[0].next_link().to_vec(),
    });
    let refused = execute(&server, &players[0].code.clone(), nobodys)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert_eq!(director.state(MATCH).await.seq, before);
    let with_link = Action::OpeningRoll(v1::Roll {
        side: players[0].wire(),
        dice: vec![],
        link: players[0].next_link().to_vec(),
    });
    execute(&server, &players[0].code.clone(), with_link)
        .await
        .unwrap();
    players[0].next += 1;
    let waiting = director
        .state(MATCH)
        .await
        .live_dice
        .unwrap()
        .waiting
        .unwrap();
    assert!(waiting.given_a && !waiting.given_b);
    players[1].give(&server).await.unwrap();
    assert_eq!(
        director.state(MATCH).await.turn,
        v1::TurnPhase::Moving as i32
    );
}

/// A stranger's find: `baffle rule … extend-reveal` while a draw waited for a link said
/// "the reveals are now due by 00:00 UTC". It extends the links' deadline, and says so.
#[tokio::test]
async fn live_dice_the_director_extends_a_links_deadline_from_the_command_line() {
    let server = TestServer::start().await;
    let (mut director, mut players) = seated(&server).await;
    director.act(MATCH, server_opening()).await;
    players[0].give(&server).await.unwrap();
    let due = director
        .state(MATCH)
        .await
        .live_dice
        .unwrap()
        .waiting
        .unwrap()
        .due_ms;
    let rule = [
        "rule",
        MATCH,
        "--reason",
        "Ben's phone restarted",
        "--article",
        "2.3",
        "extend-reveal",
        "10",
    ];
    let o = baffle_tests::cli::baffle(&server, &rule).await;
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    let by = director
        .state(MATCH)
        .await
        .live_dice
        .unwrap()
        .waiting
        .unwrap()
        .due_ms;
    assert_eq!(by, server.time.now().as_ms() + 600_000);
    assert!(by > due);
    let said = baffle_client::words::time_of_day(by);
    assert!(
        o.out.contains(&format!("the links are now due by {said}")),
        "{}",
        o.out
    );
    // The extension in words, as `follow`, `live play` and the console tell it.
    let text = log(&server).await;
    let line = text
        .lines()
        .find(|l| l.contains("dice.link_due"))
        .expect("the extension");
    let record = baffle_core::audit::export::parse_line(line).unwrap();
    let baffle_core::audit::export::Line::Record(record) = record else {
        panic!("{line}")
    };
    let body: serde_json::Value = serde_json::from_str(&record.body).unwrap();
    let said = baffle_i18n::describe::describe("dice.link_due", &body);
    let words = baffle_client::words::words(&said, ["Anna", "Ben"]);
    assert!(
        words.contains("the links are now due by") && words.contains("Ben's phone restarted"),
        "{words}"
    );
}

/// An opening nobody answered: with both links missing nobody is singled out — past the
/// deadline nobody forfeits, and `match show` says the director rules, and how.
#[tokio::test]
async fn live_dice_with_both_links_missing_nobody_forfeits_and_the_director_rules() {
    let server = TestServer::start().await;
    let (mut director, _players) = seated(&server).await;
    director.act(MATCH, server_opening()).await;
    server.time.advance(61_000);
    let s = director.state(MATCH).await;
    assert!(s.result.is_none(), "{s:?}");
    assert!(s.live_dice.unwrap().waiting.is_some());
    let o = baffle_tests::cli::baffle(&server, &["match", "show", MATCH]).await;
    assert!(
        o.out
            .contains("waits for the link of Anna, Ben: OVERDUE since")
            && o.out.contains("extend-reveal MINUTES"),
        "{}",
        o.out
    );
    // `match list` says it too, under the table.
    let list = ["match", "list", "--tournament", "club"];
    let o = baffle_tests::cli::baffle(&server, &list).await;
    let line = format!("{MATCH}  dice   the opening roll waits for the link of Anna, Ben");
    assert!(o.out.contains(&line), "{}", o.out);
}
