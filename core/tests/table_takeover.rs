//! A takeover credits the outage to a match played without devices (`docs/cluster.md`,
//! "What a node's death costs"), and so does a single server's restart (`table.restart`,
//! at the end of this file; `docs/server.md`, "A restart"): the running side gets how long the dead node had been
//! silent, at most `MAX_TAKEOVER_CREDIT` and never more than its clock charged in that
//! time (a delay charges nothing); nothing for a match with device inputs, a clock paused or stopped, a
//! match over, or a flag that fell meanwhile (it stays at its instant). The record
//! replays to the same clocks and verifies; an old takeover record still does.

use baffle_core::audit::Record;
use baffle_core::audit::export::to_jsonl;
use baffle_core::audit::verify::verify_jsonl;
use baffle_core::backgammon::{Command, DirectorAction, MatchSetup, Ruling};
use baffle_core::chess::{ChessSettings, Color, Command as ChessCommand, Laws, MatchCommand};
use baffle_core::clock::{PauseReason, TimeControl};
use baffle_core::dice::ServerSeed;
use baffle_core::table::{
    Body, DeviceInput, DeviceOutcome, GameSetup, MAX_RESTART_CREDIT, MAX_TAKEOVER_CREDIT,
    MatchInfo, Replay, Request, RestartRecord, Table, TakeoverRecord,
};
use baffle_core::{Millis, Side, Timestamp};

struct Log {
    table: Table,
    records: Vec<Record>,
}

impl Log {
    fn new(id: &str, setup: GameSetup) -> Log {
        let info = MatchInfo {
            id: id.into(),
            tournament: "t".into(),
            round: 1,
            table: "1".into(),
        };
        let (table, records) = Table::create(info, setup, ServerSeed::from_bytes([7; 32])).unwrap();
        Log { table, records }
    }

    /// A 3-point backgammon match on server dice, clocked, after the opening roll at 1 s:
    /// the mover's clock runs.
    fn backgammon() -> Log {
        let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 3, Timestamp(0)));
        let mut log = Log::new("bg", setup);
        for side in Side::BOTH {
            log.ok(Request::Backgammon(Command::CheckIn { side }), 1_000);
        }
        log.ok(Request::ServerOpening, 1_000);
        log
    }

    /// A one-game rapid chess match, both players at the board at 1 s: White's clock
    /// runs from the start (0).
    fn chess() -> Log {
        Log::chess_with("ch", TimeControl::rapid(), Millis::mins(15))
    }

    /// A one-game chess match `id` under `control`, both players at the board at 1 s.
    fn chess_with(id: &str, control: TimeControl, default_time: Millis) -> Log {
        let settings = ChessSettings {
            players: ["Ann".into(), "Bo".into()],
            control,
            games: 1,
            start: Timestamp(0),
            default_time,
            laws: Laws::Fide2023,
            supervised: true,
            chess960: false,
        };
        let mut log = Log::new(id, GameSetup::Chess(settings));
        for color in [Color::White, Color::Black] {
            log.ok(
                Request::Chess {
                    command: MatchCommand::Game(ChessCommand::Arrive(color)),
                    ruling: None,
                },
                1_000,
            );
        }
        log
    }

    fn ok(&mut self, request: Request, at: i64) -> Vec<Record> {
        let plan = self
            .table
            .plan(&request, Timestamp(at))
            .unwrap_or_else(|e| panic!("{request:?}: {e}"));
        self.records.extend(plan.records.iter().cloned());
        self.table = plan.table;
        plan.records
    }

    /// A device's input recorded (a garbled frame, refused): the match now has a device
    /// in its log, whose own times make any outage whole.
    fn device_input(&mut self) {
        let input = DeviceInput {
            device: "clock-1".into(),
            seq: 1,
            device_ms: 0,
            claimed: None,
            receipt: Timestamp(1_500),
            request: Err("a garbled frame".into()),
        };
        let DeviceOutcome::Recorded { plan, .. } = self.table.plan_device_input(&input) else {
            panic!("recorded");
        };
        self.records.extend(plan.records);
        self.table = plan.table;
    }

    /// The takeover by n2 (epoch 2) at `at`, its previous holder silent `silent_ms`;
    /// returns its record, parsed.
    fn take_over(&mut self, at: i64, silent_ms: Option<u64>) -> TakeoverRecord {
        let records = self.ok(
            Request::Takeover {
                node: "n2".into(),
                epoch: self.table.epoch().max(1) + 1,
                silent_ms,
            },
            at,
        );
        // The takeover is the last record but for the seed's reveal, which follows in
        // the same append when the match ended meanwhile (a flag that fell).
        let game = Some(self.table.game().game_type());
        records
            .iter()
            .rev()
            .find_map(|r| match Body::parse(&r.body, game).unwrap() {
                Body::Takeover(t) => Some(t),
                _ => None,
            })
            .expect("a takeover is recorded")
    }

    /// Time left on the clock of `player` at `at` (chess: by colour, A = White).
    fn left(table: &Table, player: Side, at: i64) -> Millis {
        match table.game() {
            baffle_core::table::AnyMatch::Backgammon(m) => {
                m.clock().unwrap().view(player, Timestamp(at)).main
            }
            baffle_core::table::AnyMatch::Chess(m) => {
                let colour = if player == m.white() {
                    Side::A
                } else {
                    Side::B
                };
                m.game().clock().view(colour, Timestamp(at)).main
            }
        }
    }

    fn running(&self) -> Side {
        match self.table.game() {
            baffle_core::table::AnyMatch::Backgammon(m) => m.clock().unwrap().running().unwrap(),
            baffle_core::table::AnyMatch::Chess(m) => match m.game().clock().running().unwrap() {
                Side::A => m.white(),
                Side::B => m.white().other(),
            },
        }
    }

    /// The log replays to the same head and the same clocks, and verifies.
    fn replays_and_verifies(&self, at: i64) {
        let replayed = Replay::run(&self.records, None).unwrap();
        assert_eq!(replayed.head(), self.table.head());
        for side in Side::BOTH {
            assert_eq!(
                Log::left(&replayed, side, at),
                Log::left(&self.table, side, at),
                "{side}'s clock after the replay"
            );
        }
        let report = verify_jsonl(&to_jsonl(&self.records), None);
        assert!(report.is_ok(), "{report}");
    }
}

#[test]
fn a_backgammon_match_without_devices_gets_the_outage_credited_to_its_running_side() {
    // The mover's 12 s delay ran out at 13 s: from then on the outage cost main time.
    let mut log = Log::backgammon();
    let side = log.running();
    let before = Log::left(&log.table, side, 18_000);
    let other = Log::left(&log.table, side.other(), 18_000);
    let t = log.take_over(18_000, Some(2_600));
    assert_eq!((t.credit_ms, t.side), (Some(2_600), Some(side)), "{t:?}");
    assert_eq!(
        Log::left(&log.table, side, 18_000),
        before + Millis::ms(2_600)
    );
    assert_eq!(Log::left(&log.table, side.other(), 18_000), other);
    // The game's time moved to the takeover: nothing is dated before the credit.
    assert_eq!(log.table.game().now(), Timestamp(18_000));
    log.replays_and_verifies(20_000);
}

/// An outage inside the running side's delay cost it nothing: nothing is credited (a
/// stranger's run: a kill 1 s into the delay gave 1 s of main time never lost, 14:01.0
/// of 14:00.0); one that straddles the delay's end gives what main time it took.
#[test]
fn an_outage_the_delay_absorbed_is_not_credited() {
    let mut log = Log::backgammon();
    let t = log.take_over(5_000, Some(2_600));
    assert_eq!((t.credit_ms, t.side), (None, None), "{t:?}");
    log.replays_and_verifies(6_000);
    let mut log = Log::backgammon();
    let side = log.running();
    let before = Log::left(&log.table, side, 14_500);
    let t = log.take_over(14_500, Some(3_000));
    assert_eq!(t.credit_ms, Some(1_500), "13 s to 14.5 s: {t:?}");
    assert_eq!(
        Log::left(&log.table, side, 14_500),
        before + Millis::ms(1_500)
    );
    log.replays_and_verifies(15_000);
}

#[test]
fn the_credit_is_capped_at_the_constant_and_at_the_time_since_the_last_event() {
    // A long silence: the constant.
    let mut log = Log::backgammon();
    let side = log.running();
    let before = Log::left(&log.table, side, 60_000);
    let t = log.take_over(60_000, Some(3_600_000));
    assert_eq!(t.credit_ms, Some(MAX_TAKEOVER_CREDIT.as_ms() as u64));
    assert_eq!(
        Log::left(&log.table, side, 60_000),
        before + MAX_TAKEOVER_CREDIT
    );
    log.replays_and_verifies(61_000);
    // A silence longer than the clock can have run unwatched: what it charged.
    let mut log = Log::backgammon();
    let t = log.take_over(16_000, Some(20_000));
    assert_eq!(
        t.credit_ms,
        Some(3_000),
        "13 s (the delay's end) to 16 s: {t:?}"
    );
    log.replays_and_verifies(17_000);
    // No time since the last event, or a silence of nothing: no credit.
    let mut log = Log::backgammon();
    assert_eq!(log.take_over(1_000, Some(4_500)).credit_ms, None);
    let mut log = Log::backgammon();
    assert_eq!(log.take_over(3_000, Some(0)).credit_ms, None);
    let mut log = Log::backgammon();
    assert_eq!(log.take_over(3_000, None).credit_ms, None);
    log.replays_and_verifies(4_000);
    // The most a u64 holds is bounded, not wrapped.
    let mut log = Log::backgammon();
    let t = log.take_over(30_000, Some(u64::MAX));
    assert_eq!(t.credit_ms, Some(MAX_TAKEOVER_CREDIT.as_ms() as u64));
}

#[test]
fn a_chess_match_without_devices_credits_the_player_whose_clock_runs() {
    let mut log = Log::chess();
    let white = match log.table.game() {
        baffle_core::table::AnyMatch::Chess(m) => m.white(),
        _ => unreachable!(),
    };
    assert_eq!(log.running(), white);
    let before = Log::left(&log.table, white, 8_000);
    let t = log.take_over(8_000, Some(2_200));
    assert_eq!((t.credit_ms, t.side), (Some(2_200), Some(white)), "{t:?}");
    assert_eq!(
        Log::left(&log.table, white, 8_000),
        before + Millis::ms(2_200)
    );
    // White presses later: Black runs, and a second takeover credits Black, capped.
    log.ok(
        Request::Chess {
            command: MatchCommand::Game(ChessCommand::Press(Color::White)),
            ruling: None,
        },
        9_000,
    );
    let t = log.take_over(30_000, Some(9_000));
    assert_eq!(t.side, Some(white.other()));
    assert_eq!(t.credit_ms, Some(MAX_TAKEOVER_CREDIT.as_ms() as u64));
    log.replays_and_verifies(31_000);
}

#[test]
fn a_match_with_device_inputs_gets_no_credit() {
    let mut log = Log::backgammon();
    log.device_input();
    let t = log.take_over(5_000, Some(2_600));
    assert_eq!((t.credit_ms, t.side), (None, None));
    log.replays_and_verifies(6_000);
}

#[test]
fn a_paused_stopped_or_finished_clock_gets_no_credit() {
    // Paused.
    let mut log = Log::backgammon();
    log.ok(
        Request::Backgammon(Command::Pause {
            reason: PauseReason::DirectorCalled,
        }),
        2_000,
    );
    assert_eq!(log.take_over(5_000, Some(2_600)).credit_ms, None);
    log.replays_and_verifies(6_000);
    // Stopped: checked in, no opening roll yet.
    let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 3, Timestamp(0)));
    let mut log = Log::new("stopped", setup);
    for side in Side::BOTH {
        log.ok(Request::Backgammon(Command::CheckIn { side }), 1_000);
    }
    assert_eq!(log.take_over(5_000, Some(2_600)).credit_ms, None);
    log.replays_and_verifies(6_000);
    // Over.
    let mut log = Log::backgammon();
    log.ok(
        Request::Backgammon(Command::Director {
            action: DirectorAction::ForfeitMatch { loser: Side::A },
            ruling: Ruling::new("disqualified", "2.3"),
        }),
        2_000,
    );
    assert!(log.table.game().is_over());
    assert_eq!(log.take_over(5_000, Some(2_600)).credit_ms, None);
    log.replays_and_verifies(6_000);
}

#[test]
fn a_flag_that_fell_during_the_outage_stays_at_its_instant_and_gets_no_credit() {
    // Blitz-like: a chess game with White's clock at 3 min from 0; the node dies, and the
    // takeover comes 10 minutes later.
    let mut log = Log::chess_with("flag", TimeControl::blitz(), Millis::mins(3));
    let flag_at = match log.table.game() {
        baffle_core::table::AnyMatch::Chess(m) => m.game().clock().next_flag_at().unwrap(),
        _ => unreachable!(),
    };
    let before = log.records.len();
    let t = log.take_over(600_000, Some(4_000));
    assert_eq!((t.credit_ms, t.side), (None, None));
    let added: Vec<&str> = log.records[before..]
        .iter()
        .map(|r| r.body.as_str())
        .collect();
    assert!(added.len() > 1, "the flag first: {added:?}");
    assert!(
        added[..added.len() - 1]
            .iter()
            .any(|b| b.contains(&format!("\"at\":{}", flag_at.as_ms()))),
        "the flag at its instant {flag_at:?}: {added:?}"
    );
    log.replays_and_verifies(600_000);

    // Backgammon: the running side's time ran out in the outage (lose the match).
    let mut log = Log::backgammon();
    let side = log.running();
    let flag_at = match log.table.game() {
        baffle_core::table::AnyMatch::Backgammon(m) => m.clock().unwrap().next_flag_at().unwrap(),
        _ => unreachable!(),
    };
    let left = Log::left(&log.table, side, flag_at.as_ms());
    assert_eq!(left, Millis::ZERO);
    let before = log.records.len();
    let t = log.take_over(flag_at.as_ms() + 3_000, Some(4_000));
    assert_eq!((t.credit_ms, t.side), (None, None));
    let added: Vec<&str> = log.records[before..]
        .iter()
        .map(|r| r.body.as_str())
        .collect();
    assert!(
        added[..added.len() - 1]
            .iter()
            .any(|b| b.contains("bg.time_expired")
                && b.contains(&format!("\"flagged_at\":{}", flag_at.as_ms()))),
        "the time ran out at its instant {flag_at:?}: {added:?}"
    );
    log.replays_and_verifies(flag_at.as_ms() + 4_000);
}

/// The fold checks what the server decides: a credit too large, to the wrong side, in a
/// match with no clock running, or half written, is rejected by the verifier; a takeover
/// record without the new fields (the first logs') still verifies byte for byte.
#[test]
fn the_verifier_checks_a_credit_and_old_records_still_verify() {
    let mut log = Log::backgammon();
    let side = log.running();
    // At 17 s: the delay ended at 13 s, so the clock ran 4 s unwatched.
    log.take_over(17_000, Some(2_600));
    let jsonl = to_jsonl(&log.records);
    assert!(verify_jsonl(&jsonl, None).is_ok());
    let last = log.records.last().unwrap().body.clone();
    assert!(last.contains(r#""credit_ms":2600"#), "{last}");
    let forge = |body: &str| {
        let mut chain = baffle_core::audit::Chain::new();
        for r in &log.records[..log.records.len() - 1] {
            chain.append(r.body.clone());
        }
        chain.append(body.to_string());
        to_jsonl(chain.records())
    };
    let too_much = last.replace(r#""credit_ms":2600"#, r#""credit_ms":5001"#);
    let more_than_ran = last.replace(r#""credit_ms":2600"#, r#""credit_ms":4001"#);
    let wrong_side = last.replace(
        &format!(r#""side":"{side}""#),
        &format!(r#""side":"{}""#, side.other()),
    );
    let no_side = last.replace(&format!(r#","side":"{side}""#), "");
    let zero = last.replace(r#""credit_ms":2600"#, r#""credit_ms":0"#);
    for bad in [too_much, more_than_ran, wrong_side, no_side, zero] {
        assert_ne!(bad, last);
        let report = verify_jsonl(&forge(&bad), None);
        assert!(!report.is_ok(), "{bad} verified");
    }

    // The first logs' spelling: parsed, written back the same, and verified.
    let old = r#"{"at":5000,"epoch":2,"kind":"table.takeover","node":"n2"}"#;
    let body = Body::parse(old, Some(baffle_core::GameType::Backgammon)).unwrap();
    assert_eq!(body.text(), old);
    let report = verify_jsonl(&forge(old), None);
    assert!(report.is_ok(), "{report}");
}

/// Where no credit can be given (a match over, a takeover dated before its last event:
/// another node's time line) the takeover is recorded all the same, whatever the
/// silence, with no credit: a refused credit refuses nothing else.
#[test]
fn a_takeover_is_recorded_whatever_the_credit() {
    for silent in [None, Some(0), Some(1), Some(u64::MAX)] {
        let mut log = Log::backgammon();
        log.ok(
            Request::Backgammon(Command::Director {
                action: DirectorAction::ForfeitMatch { loser: Side::B },
                ruling: Ruling::new("disqualified", "2.3"),
            }),
            2_000,
        );
        let t = log.take_over(1_500, silent);
        assert_eq!(t.credit_ms, None);
        assert_eq!(log.table.epoch(), 2);
    }
}

// ---------- a single server's restart (`table.restart`, docs/server.md "A restart") ----------

impl Log {
    /// `baffled` restarted at `at` after `down_ms` of silence: the restart record, if any.
    fn restart(&mut self, at: i64, down_ms: u64) -> Option<RestartRecord> {
        let game = Some(self.table.game().game_type());
        self.ok(Request::Restart { down_ms }, at)
            .iter()
            .find_map(|r| match Body::parse(&r.body, game).unwrap() {
                Body::Restart(r) => Some(r),
                _ => None,
            })
    }
}

/// A new director's server restart cost B 21 s of his clock, silently. A restart now
/// gives back what the outage charged, up to a minute; the rest is the director's, with
/// its figure, until he rules on that clock.
#[test]
fn a_restart_credits_what_the_outage_charged_up_to_a_minute_and_leaves_the_rest_to_the_director() {
    // 21 s down, the delay long over: all 21 s back.
    let mut log = Log::backgammon();
    let side = log.running();
    let before = Log::left(&log.table, side, 40_000);
    let r = log.restart(40_000, 21_000).expect("a restart record");
    assert_eq!(
        (r.down_ms, r.charged_ms, r.credit_ms, r.side),
        (21_000, 21_000, 21_000, side)
    );
    assert_eq!(
        Log::left(&log.table, side, 40_000),
        before + Millis::secs(21)
    );
    assert_eq!(log.table.uncredited_outage(), None);
    log.replays_and_verifies(41_000);

    // 91 s down from 12 s: the delay took the first second, the clock 90 s; 60 s back.
    let mut log = Log::backgammon();
    let side = log.running();
    let before = Log::left(&log.table, side, 103_000);
    let r = log.restart(103_000, 91_000).expect("a restart record");
    assert_eq!(
        (r.charged_ms, r.credit_ms),
        (90_000, MAX_RESTART_CREDIT.as_ms() as u64)
    );
    assert_eq!(
        Log::left(&log.table, side, 103_000),
        before + Millis::secs(60)
    );
    let left = log
        .table
        .uncredited_outage()
        .expect("30 s left to the director");
    assert_eq!((left.side, left.ms), (side, Millis::secs(30)));
    log.replays_and_verifies(104_000);
    // The other side's clock ruled on: still his to settle. This side's: settled.
    let rule = |side, secs| {
        Request::Backgammon(Command::Director {
            action: DirectorAction::AdjustTime {
                side,
                delta: Millis::secs(secs),
            },
            ruling: Ruling::new("the server was down", "4.3 (v)"),
        })
    };
    log.ok(rule(side.other(), -1), 104_000);
    assert!(log.table.uncredited_outage().is_some());
    log.ok(rule(side, 30), 104_000);
    assert_eq!(log.table.uncredited_outage(), None);
    log.replays_and_verifies(105_000);
}

#[test]
fn a_restart_that_cost_no_clock_anything_records_nothing() {
    // Inside the delay: nothing charged, nothing written.
    let mut log = Log::backgammon();
    let len = log.table.len();
    assert_eq!(log.restart(5_000, 3_000), None);
    assert_eq!(log.table.len(), len);
    // A match with device inputs: the devices' own times make it whole.
    let mut log = Log::backgammon();
    log.device_input();
    let len = log.table.len();
    assert_eq!(log.restart(60_000, 30_000), None);
    assert_eq!(log.table.len(), len);
}

#[test]
fn a_restart_credit_the_clock_does_not_show_does_not_verify() {
    let mut log = Log::backgammon();
    log.restart(40_000, 21_000).expect("a restart record");
    let last = log.records.last().unwrap().body.clone();
    let forge = |body: &str| {
        let mut chain = baffle_core::audit::Chain::new();
        for r in &log.records[..log.records.len() - 1] {
            chain.append(r.body.clone());
        }
        chain.append(body.to_string());
        to_jsonl(chain.records())
    };
    assert!(verify_jsonl(&forge(&last), None).is_ok());
    for bad in [
        last.replace(r#""credit_ms":21000"#, r#""credit_ms":25000"#),
        last.replace(r#""charged_ms":21000"#, r#""charged_ms":25000"#),
        last.replace(r#""down_ms":21000"#, r#""down_ms":5000"#),
    ] {
        assert_ne!(bad, last);
        assert!(!verify_jsonl(&forge(&bad), None).is_ok(), "{bad} verified");
    }
}

#[test]
fn a_chess_restart_credits_the_player_whose_clock_runs() {
    let mut log = Log::chess();
    let side = log.running();
    let before = Log::left(&log.table, side, 30_000);
    let r = log.restart(30_000, 21_000).expect("a restart record");
    assert_eq!((r.side, r.credit_ms), (side, 21_000));
    assert_eq!(
        Log::left(&log.table, side, 30_000),
        before + Millis::secs(21)
    );
    log.replays_and_verifies(31_000);
}

#[test]
fn a_flag_that_fell_during_the_restart_stays_at_its_instant_and_gets_no_credit() {
    // 3 points × 2 minutes: the mover's 6 minutes run out 12 s (the delay) after the
    // opening at 1 s, at 373 s; the server is down from 300 s to 400 s.
    let mut log = Log::backgammon();
    let before = log.table.len();
    assert_eq!(log.restart(400_000, 100_000), None);
    let kinds: Vec<String> = log.records[before as usize..]
        .iter()
        .map(|r| baffle_core::audit::kind_of(&r.body).unwrap_or_default())
        .collect();
    assert!(kinds.contains(&"bg.time_expired".to_string()), "{kinds:?}");
    assert!(!kinds.contains(&"table.restart".to_string()), "{kinds:?}");
    log.replays_and_verifies(401_000);
}
