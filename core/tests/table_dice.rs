//! Dice nobody can choose, at the table (issue 16): a server roll is never drawn again,
//! and a roll asked for before the opponent pressed is drawn only at his press. Each
//! attack is also played against a real server in `tests/tests/fair_dice.rs`.

use baffle_core::audit::export::to_jsonl;
use baffle_core::audit::verify::verify_jsonl;
use baffle_core::audit::{Chain, Record};
use baffle_core::backgammon::{Command, MatchSetup, Turn, WinKind};
use baffle_core::dice::ServerSeed;
use baffle_core::table::{GameSetup, MatchInfo, Replay, Request, Table};
use baffle_core::{Side, Timestamp};

struct Log {
    table: Table,
    records: Vec<Record>,
    seed: ServerSeed,
}

impl Log {
    /// Match `id` of 3 points with both players checked in, on server dice.
    fn seated(id: &str, seed: ServerSeed) -> Log {
        let info = MatchInfo {
            id: id.into(),
            tournament: "t".into(),
            round: 1,
            table: "1".into(),
        };
        let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 3, Timestamp(0)));
        let (table, records) = Table::create(info, setup, seed.clone()).unwrap();
        let mut log = Log {
            table,
            records,
            seed,
        };
        for side in Side::BOTH {
            log.ok(Request::Backgammon(Command::CheckIn { side }));
        }
        log
    }

    /// Match `fair`, seated, after the server's opening roll.
    fn new() -> Log {
        let mut log = Log::seated("fair", ServerSeed::from_bytes([0x5e; 32]));
        log.ok(Request::ServerOpening);
        log
    }

    fn ok(&mut self, request: Request) -> Vec<Record> {
        let plan = self.table.plan(&request, Timestamp(1_000)).unwrap();
        self.records.extend(plan.records.iter().cloned());
        self.table = plan.table;
        plan.records
    }

    fn mover(&self) -> Side {
        self.table.game().to_move().unwrap()
    }

    fn kinds(records: &[Record]) -> Vec<String> {
        records
            .iter()
            .map(|r| baffle_core::audit::kind_of(&r.body).unwrap())
            .collect()
    }
}

#[test]
fn rule_4_1_iv_a_server_roll_is_never_drawn_again() {
    let mut log = Log::new();
    let mover = log.mover();
    // The opening throw is the mover's roll: calling it invalid would void it.
    let refused = log
        .table
        .plan(
            &Request::Backgammon(Command::InvalidRoll { side: mover }),
            Timestamp(2_000),
        )
        .unwrap_err();
    assert!(
        refused.message.contains("never drawn again") && refused.message.contains("4.1 (iv)"),
        "{refused}"
    );
    log.ok(Request::Backgammon(Command::Press { side: mover }));
    log.ok(Request::ServerRoll(mover.other()));
    assert!(
        log.table
            .plan(
                &Request::Backgammon(Command::InvalidRoll {
                    side: mover.other()
                }),
                Timestamp(2_000)
            )
            .is_err()
    );
}

#[test]
fn a_log_with_a_voided_server_roll_does_not_verify() {
    let log = Log::new();
    // Forge what the old server wrote when a player voided a server roll: the voiding
    // event right after the opening, and the chain rebuilt around it.
    let mut chain = Chain::new();
    for r in &log.records {
        chain.append(r.body.clone());
    }
    let mover = log.mover();
    chain.append(format!(
        r#"{{"at":1000,"kind":"bg.roll_invalid","side":"{mover}"}}"#
    ));
    let p = verify_jsonl(&to_jsonl(chain.records()), None)
        .problem
        .expect("rejected");
    assert!(p.reason.contains("never drawn again"), "{}", p.reason);
}

#[test]
fn rule_4_1_v_a_a_roll_asked_for_early_is_drawn_only_at_the_opponents_press() {
    let mut log = Log::new();
    let mover = log.mover();
    let early = log.ok(Request::ServerRoll(mover.other()));
    // Recorded, nothing drawn: the mover sees no dice of his opponent's.
    assert_eq!(Log::kinds(&early), ["dice.roll_queued"]);
    assert!(matches!(
        log.table.game().to_move_phase(),
        Some(Turn::Moving { side, .. }) if side == mover
    ));
    // A second request changes nothing more.
    assert!(
        log.table
            .plan(&Request::ServerRoll(mover.other()), Timestamp(1_000))
            .is_err()
    );
    let pressed = log.ok(Request::Backgammon(Command::Press { side: mover }));
    assert_eq!(
        Log::kinds(&pressed),
        ["bg.pressed", "dice.roll", "bg.rolled"]
    );
    assert!(matches!(
        log.table.game().to_move_phase(),
        Some(Turn::Moving { side, .. }) if side == mover.other()
    ));
    // The log replays, on the server and for a verifier, to the same table.
    let replayed = Replay::run(&log.records, Some(log.seed.clone())).unwrap();
    assert_eq!(replayed.head(), log.table.head());
    let report = verify_jsonl(&to_jsonl(&log.records), None);
    assert!(report.is_ok(), "{report}");
}

#[test]
fn a_queued_roll_dies_with_its_game() {
    let mut log = Log::new();
    let mover = log.mover();
    log.ok(Request::ServerRoll(mover.other()));
    log.ok(Request::Backgammon(Command::Concede {
        side: mover.other(),
        kind: WinKind::Single,
    }));
    assert!(Replay::run(&log.records, None).is_ok());
    // The next game's opening is drawn as usual: nothing was left queued.
    let opening = log.ok(Request::ServerOpening);
    assert_eq!(Log::kinds(&opening)[0], "dice.opening");
}

#[test]
fn a_roll_queued_out_of_turn_does_not_verify() {
    let log = Log::new();
    let mover = log.mover();
    let mut chain = Chain::new();
    for r in &log.records {
        chain.append(r.body.clone());
    }
    // The mover himself cannot queue a roll: it is his move.
    chain.append(format!(r#"{{"kind":"dice.roll_queued","side":"{mover}"}}"#));
    let p = verify_jsonl(&to_jsonl(chain.records()), None)
        .problem
        .expect("rejected");
    assert!(p.reason.contains("4.1 (v)(a)"), "{}", p.reason);
}

mod commit_reveal {
    use super::*;
    use baffle_core::dice::{DiceStream, Position, dice_key_v2, player_commitment_v2};

    fn fresh() -> Log {
        Log::seated("cr", ServerSeed::from_bytes([0x42; 32]))
    }

    fn refused(log: &Log, request: Request) -> String {
        log.table
            .plan(&request, Timestamp(1_000))
            .unwrap_err()
            .message
    }

    const SEED_A: &[u8] = b"anna's entropy, thirty-two bytes";
    const SEED_B: &[u8] = b"ben's entropy: thirty-two bytes!";
    const SALT: [u8; 32] = [0x5a; 32];

    fn commit(side: Side, seed: &[u8]) -> Request {
        let server = ServerSeed::from_bytes([0x42; 32]).commitment();
        Request::CommitSeed {
            side,
            commitment: player_commitment_v2(&server, "cr", side, &SALT, seed),
        }
    }

    fn reveal(side: Side, seed: &[u8]) -> Request {
        Request::RevealSeed {
            side,
            seed: seed.to_vec(),
            salt: Some(SALT.to_vec()),
        }
    }

    /// Each player commits before any seed is revealed, reveals after both commitments,
    /// and the key fixes only then: neither can choose his seed knowing the other's.
    #[test]
    fn seeds_are_committed_by_both_then_revealed_and_only_then_dice_are_drawn() {
        let mut log = fresh();
        log.ok(commit(Side::A, SEED_A));
        // A cannot reveal before B has committed: B would then choose knowing A's seed.
        assert!(refused(&log, reveal(Side::A, SEED_A)).contains("after both players committed"));
        log.ok(commit(Side::B, SEED_B));
        // No dice until both have revealed.
        assert!(refused(&log, Request::ServerOpening).contains("reveals his"));
        // A seed that is not the committed one is refused.
        assert!(
            refused(
                &log,
                reveal(Side::A, b"another seed of sixteen bytes or more")
            )
            .contains("does not match")
        );
        log.ok(reveal(Side::A, SEED_A));
        assert!(refused(&log, Request::ServerOpening).contains("player B reveals"));
        assert!(refused(&log, commit(Side::A, SEED_A)).contains("only until the first roll"));
        log.ok(reveal(Side::B, SEED_B));
        let opening = log.ok(Request::ServerOpening);
        // The opening is the stream of the key with both seeds in it.
        let key = dice_key_v2("cr", &log.seed, SEED_A, SEED_B);
        let expected = DiceStream::at(key, Position::Opening { game: 1 }).opening();
        assert!(
            opening[0]
                .body
                .contains(&format!("{:?}", expected.throws).replace(' ', "")),
            "{}",
            opening[0].body
        );
        // Seeds close with the first draw.
        assert!(
            refused(&log, commit(Side::A, b"late, but long enough to count"))
                .contains("only until the first roll")
        );
        // Both the server's replay and a verifier accept the log.
        Replay::run(&log.records, Some(log.seed.clone())).unwrap();
        let report = verify_jsonl(&to_jsonl(&log.records), None);
        assert!(report.is_ok(), "{report}");
    }

    /// A commitment names its match and its side: B cannot copy A's and reveal A's seed.
    #[test]
    fn a_commitment_cannot_be_copied_from_the_other_player() {
        let mut log = fresh();
        log.ok(commit(Side::A, SEED_A));
        let server = ServerSeed::from_bytes([0x42; 32]).commitment();
        log.ok(Request::CommitSeed {
            side: Side::B,
            commitment: player_commitment_v2(&server, "cr", Side::A, &SALT, SEED_A),
        });
        log.ok(reveal(Side::A, SEED_A));
        assert!(refused(&log, reveal(Side::B, SEED_A)).contains("does not match"));
    }

    /// A lone commitment holds the dice until the other player has committed and both
    /// have revealed (a stranger's run: in construction 2 as first built, A's commitment
    /// was dropped when B never committed, so B — told the server's dice by the operator
    /// — chose between those dice and unknown ones by committing or not). A's seed is in
    /// the key of every die.
    #[test]
    fn a_lone_commitment_holds_the_dice_until_both_seeds_are_in() {
        let mut log = fresh();
        log.ok(commit(Side::A, SEED_A));
        assert!(refused(&log, Request::ServerOpening).contains("until player B commits"));
        log.ok(commit(Side::B, SEED_B));
        log.ok(reveal(Side::A, SEED_A));
        log.ok(reveal(Side::B, SEED_B));
        log.ok(Request::ServerOpening);
        assert_eq!(log.table.dice().player_seed(Side::A), SEED_A);
    }

    /// A log that reveals a seed its commitment does not name, or draws while a reveal is
    /// pending, does not verify.
    #[test]
    fn a_forged_reveal_or_an_early_draw_does_not_verify() {
        let mut log = fresh();
        log.ok(commit(Side::A, SEED_A));
        log.ok(commit(Side::B, SEED_B));
        let mut chain = Chain::new();
        for r in &log.records {
            chain.append(r.body.clone());
        }
        let mut forged = chain.clone();
        forged.append(format!(
            r#"{{"kind":"dice.player_reveal","side":"A","seed":"{}","salt":"{}"}}"#,
            hex::encode(b"chosen later, after B's commit"),
            hex::encode(SALT)
        ));
        let p = verify_jsonl(&to_jsonl(forged.records()), None)
            .problem
            .expect("rejected");
        assert!(p.reason.contains("does not match"), "{}", p.reason);
        chain.append(r#"{"kind":"dice.opening","throws":[[3,1]],"game":1}"#.into());
        let p = verify_jsonl(&to_jsonl(chain.records()), None)
            .problem
            .expect("rejected");
        assert!(p.reason.contains("reveals his"), "{}", p.reason);
    }
}

mod required_seeds {
    use super::*;
    use baffle_core::chess::{ChessSettings, Color, Command as ChessCommand, Laws, MatchCommand};
    use baffle_core::clock::TimeControl;
    use baffle_core::dice::{SeedPolicy, player_commitment_v2};

    fn table(id: &str, setup: GameSetup) -> (Table, Vec<Record>) {
        let info = MatchInfo {
            id: id.into(),
            tournament: "t".into(),
            round: 1,
            table: "1".into(),
        };
        let seed = ServerSeed::from_bytes([0x17; 32]);
        Table::create_with(info, setup, SeedPolicy::Required, seed).unwrap()
    }

    fn run(table: &mut Table, log: &mut Vec<Record>, request: Request) -> Vec<Record> {
        let plan = table.plan(&request, Timestamp(1_000)).unwrap();
        log.extend(plan.records.iter().cloned());
        *table = plan.table;
        plan.records
    }

    fn seeds(id: &str, table: &mut Table, log: &mut Vec<Record>) -> Vec<Record> {
        let seed = |side: Side| format!("{side}'s seed, sixteen bytes at least").into_bytes();
        let server = ServerSeed::from_bytes([0x17; 32]).commitment();
        for side in Side::BOTH {
            let commitment = player_commitment_v2(&server, id, side, &[1; 32], &seed(side));
            run(table, log, Request::CommitSeed { side, commitment });
        }
        let mut last = Vec::new();
        for side in Side::BOTH {
            last = run(
                table,
                log,
                Request::RevealSeed {
                    side,
                    seed: seed(side),
                    salt: Some(vec![1; 32]),
                },
            );
        }
        last
    }

    /// Where the tournament requires the players' seeds, no die is drawn before both are
    /// in: the server alone never chooses (issue 16, attack 3).
    #[test]
    fn no_roll_before_both_seeds_where_they_are_required() {
        let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 3, Timestamp(0)));
        let (mut t, mut log) = table("req", setup);
        for side in Side::BOTH {
            run(
                &mut t,
                &mut log,
                Request::Backgammon(Command::CheckIn { side }),
            );
        }
        let e = t
            .plan(&Request::ServerOpening, Timestamp(1_000))
            .unwrap_err();
        assert!(e.message.contains("requires both players' seeds"), "{e}");
        // A log that draws anyway does not verify.
        let mut chain = Chain::new();
        for r in &log {
            chain.append(r.body.clone());
        }
        chain.append(r#"{"kind":"dice.opening","throws":[[3,1]],"game":1}"#.into());
        let p = verify_jsonl(&to_jsonl(chain.records()), None)
            .problem
            .expect("rejected");
        assert!(
            p.reason.contains("requires both players' seeds"),
            "{}",
            p.reason
        );
        seeds("req", &mut t, &mut log);
        run(&mut t, &mut log, Request::ServerOpening);
        assert!(verify_jsonl(&to_jsonl(&log), None).is_ok());
    }

    /// A Chess960 match starting at once: its position waits for both players' seeds
    /// (issue 16, attack 5), and is drawn in the append of the last reveal.
    #[test]
    fn a_chess960_position_waits_for_the_players_seeds() {
        let settings = ChessSettings {
            players: ["Ann".into(), "Bo".into()],
            control: TimeControl::rapid(),
            games: 1,
            start: Timestamp(0),
            default_time: baffle_core::Millis::mins(15),
            laws: Laws::Fide2023,
            supervised: true,
            chess960: true,
        };
        let (mut t, mut log) = table("c960", GameSetup::Chess(settings));
        let arrive = |color| Request::Chess {
            command: MatchCommand::Game(ChessCommand::Arrive(color)),
            ruling: None,
        };
        let started = run(&mut t, &mut log, arrive(Color::White));
        assert!(Log::kinds(&started).iter().all(|k| k != "dice.chess960"));
        let last = seeds("c960", &mut t, &mut log);
        let kinds = Log::kinds(&last);
        assert_eq!(kinds[0], "dice.player_reveal");
        assert!(kinds.contains(&"dice.chess960".to_string()), "{kinds:?}");
        assert!(kinds.contains(&"chess.position".to_string()), "{kinds:?}");
        assert!(verify_jsonl(&to_jsonl(&log), None).is_ok());
    }
}

/// Before its scheduled start a match refuses what is timed, saying when it starts (the
/// director's words, not the time line's), and takes what is not timed (a seed).
#[test]
fn nothing_is_timed_before_the_scheduled_start() {
    let info = MatchInfo {
        id: "later".into(),
        tournament: "t".into(),
        round: 1,
        table: "1".into(),
    };
    // 14:30 UTC on 2026-11-23.
    let start = Timestamp(1_795_444_200_000);
    let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 3, start));
    let (table, _) = Table::create(info, setup, ServerSeed::from_bytes([1; 32])).unwrap();
    let before = Timestamp(start.as_ms() - 60_000);
    // Players checked in (the server charges an early arrival at the start).
    let check_in = Request::Backgammon(Command::CheckIn { side: Side::A });
    let table = table.plan(&check_in, start).unwrap().table;
    let check_in = Request::Backgammon(Command::CheckIn { side: Side::B });
    let table = table.plan(&check_in, start).unwrap().table;
    let early = table.plan(&Request::ServerOpening, before);
    let Err(refusal) = early else {
        panic!("accepted before the start");
    };
    let message = refusal.message;
    assert!(
        message.contains("the match starts at 14:30 UTC"),
        "{message}"
    );
    assert!(!message.contains("backwards"), "{message}");
    let seed = Request::CommitSeed {
        side: Side::A,
        commitment: [7; 32],
    };
    assert!(table.plan(&seed, before).is_ok());
    assert!(table.plan(&Request::ServerOpening, start).is_ok());
}
