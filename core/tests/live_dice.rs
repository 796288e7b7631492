//! Live dice (issue 35, `docs/dice.md` "Live dice"): every draw takes a link of each
//! player's hash chain, given only once the draw was asked for. The dice are recomputed
//! here from the log alone with the construction's own functions; the attacks — a player
//! who withholds, a link given early, a wrong link, a double slipped in after the roll
//! was asked for — are each refused or cost the withholder the match.

use baffle_core::audit::{Entry, Record, kind_of};
use baffle_core::backgammon::{Command, DirectorAction, MatchSetup, Ruling, Turn};
use baffle_core::chess::{ChessSettings, Laws};
use baffle_core::clock::PauseReason;
use baffle_core::clock::TimeControl;
use baffle_core::dice::{
    DiceStream, LiveChain, Position, SeedPolicy, ServerSeed, dice_key_v2, live_key,
};
use baffle_core::table::{Body, GameSetup, LINK_WINDOW, MatchInfo, Replay, Request, Table};
use baffle_core::{Side, Timestamp};

const LENGTH: u32 = 64;

struct Live {
    table: Table,
    records: Vec<Record>,
    seed: ServerSeed,
    chains: [LiveChain; 2],
    /// The next link each player gives (1 = the first).
    next: [u32; 2],
    now: i64,
}

impl Live {
    /// A 3-point clocked match with live dice, both players checked in and committed.
    fn new() -> Live {
        Live::with(ServerSeed::from_bytes([0x1e; 32]), [0xa1, 0xb2])
    }

    /// The same match under server `seed`, the players' chains from tips of `tips`.
    fn with(seed: ServerSeed, tips: [u8; 2]) -> Live {
        let info = MatchInfo {
            id: "live-1".into(),
            tournament: "t".into(),
            round: 1,
            table: "1".into(),
        };
        let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 3, Timestamp(0)));
        let (table, records) =
            Table::create_with(info, setup, SeedPolicy::Live, seed.clone()).unwrap();
        let chain = |side: Side, tip: u8| {
            LiveChain::new([tip; 32], LENGTH, seed.commitment(), "live-1", side)
        };
        let chains = [chain(Side::A, tips[0]), chain(Side::B, tips[1])];
        let mut live = Live {
            table,
            records,
            seed,
            chains,
            next: [1, 1],
            now: 1_000,
        };
        for side in Side::BOTH {
            live.ok(Request::Backgammon(Command::CheckIn { side }));
            let anchor = live.chains[side.index()].anchor();
            live.ok(Request::CommitChain {
                side,
                anchor,
                length: LENGTH,
            });
        }
        live
    }

    fn plan(&self, request: &Request) -> Result<baffle_core::table::Plan, String> {
        self.table
            .plan(request, Timestamp(self.now))
            .map_err(|r| r.message)
    }

    fn ok(&mut self, request: Request) -> Vec<String> {
        let plan = self
            .plan(&request)
            .unwrap_or_else(|e| panic!("{request:?}: {e}"));
        self.records.extend(plan.records.iter().cloned());
        self.table = plan.table;
        plan.records
            .iter()
            .map(|r| kind_of(&r.body).unwrap())
            .collect()
    }

    fn link(&mut self, side: Side) -> Request {
        let i = self.next[side.index()];
        self.next[side.index()] += 1;
        Request::DiceLink {
            side,
            link: self.chains[side.index()].link(i).unwrap(),
        }
    }

    fn to_move(&self) -> Side {
        self.table.game().to_move().unwrap()
    }

    /// The opening, both links given: drawn.
    fn opened(mut self) -> Live {
        self.ok(Request::ServerOpening);
        let a = self.link(Side::A);
        self.ok(a);
        let b = self.link(Side::B);
        let kinds = self.ok(b);
        assert!(kinds.contains(&"dice.opening".to_string()), "{kinds:?}");
        self
    }

    fn bodies(&self) -> Vec<Body> {
        self.records[2..]
            .iter()
            .map(|r| Body::parse(&r.body, Some(baffle_core::GameType::Backgammon)).unwrap())
            .collect()
    }
}

fn clock_left(table: &Table, side: Side) -> i64 {
    let baffle_core::table::AnyMatch::Backgammon(m) = table.game() else {
        unreachable!()
    };
    let clock = m.clock().unwrap();
    clock.view(side, table.game().now()).main.as_ms()
}

#[test]
fn live_dice_a_draw_takes_both_links_given_after_it_was_asked_for() {
    let mut live = Live::new();
    // Nothing is drawn when the opening is asked for: it waits for both links.
    let kinds = live.ok(Request::ServerOpening);
    assert_eq!(kinds, ["dice.asked"]);
    let a = live.link(Side::A);
    assert_eq!(live.ok(a), ["dice.link"]);
    let b = live.link(Side::B);
    let kinds = live.ok(b);
    assert_eq!(kinds[..2], ["dice.link", "dice.opening"]);
    // The dice are the construction's, from the key and both links.
    let key = dice_key_v2("live-1", &live.seed, b"", b"");
    let links = [
        live.chains[0].link(1).unwrap(),
        live.chains[1].link(1).unwrap(),
    ];
    let expected = DiceStream::at(live_key(key, links), Position::Opening { game: 1 }).opening();
    let Some(Body::Dice(Entry::Opening { throws, .. })) = live
        .bodies()
        .into_iter()
        .find(|b| matches!(b, Body::Dice(Entry::Opening { .. })))
    else {
        panic!("no opening");
    };
    assert_eq!(throws, expected.throws);
}

#[test]
fn live_dice_the_rollers_link_goes_with_his_roll_and_his_clock_waits_for_the_other() {
    let mut live = Live::new().opened();
    let mover = live.to_move();
    live.now += 3_000;
    let press = Request::Backgammon(Command::Press { side: mover });
    live.ok(press);
    let roller = mover.other();
    live.now += 2_000;
    let before = clock_left(&live.table, roller);
    // His link asks for his roll: recorded, his clock stopped, nothing drawn.
    let link = live.link(roller);
    let kinds = live.ok(link);
    assert_eq!(kinds, ["dice.asked", "bg.paused", "dice.link"], "{kinds:?}");
    // Nothing is played while the draw waits: no double, no press, no roll again.
    for side in Side::BOTH {
        for command in [Command::Double { side }, Command::Press { side }] {
            let refused = live.plan(&Request::Backgammon(command)).unwrap_err();
            assert!(
                refused.contains("waits for the players' links"),
                "{refused}"
            );
        }
    }
    assert!(live.plan(&Request::ServerRoll(roller)).is_err());
    // The opponent takes 40 s to give his: the roller is not charged for it.
    live.now += 40_000;
    let link = live.link(mover);
    let kinds = live.ok(link);
    assert_eq!(
        kinds[..4],
        ["dice.link", "bg.resumed", "dice.roll", "bg.rolled"]
    );
    assert_eq!(clock_left(&live.table, roller), before);
    assert!(matches!(
        live.table.game().to_move_phase(),
        Some(Turn::Moving { side, .. }) if side == roller
    ));
}

#[test]
fn live_dice_a_link_is_taken_only_for_a_draw_asked_for() {
    let mut live = Live::new().opened();
    let mover = live.to_move();
    // The mover's opponent is not on roll: his link would show his next roll early.
    let early = live.link(mover.other());
    let refused = live.plan(&early).unwrap_err();
    assert!(refused.contains("queued without a link"), "{refused}");
    // The mover himself has no roll to ask for either.
    let own = Request::DiceLink {
        side: mover,
        link: live.chains[mover.index()].link(2).unwrap(),
    };
    let refused = live.plan(&own).unwrap_err();
    assert!(refused.contains("no draw is waiting"), "{refused}");
    // A wrong link is refused as a value, and changes nothing.
    live.ok(Request::Backgammon(Command::Press { side: mover }));
    let wrong = Request::DiceLink {
        side: mover.other(),
        link: [7; 32],
    };
    let refused = live.table.plan(&wrong, Timestamp(live.now)).unwrap_err();
    assert_eq!(refused.kind, baffle_core::table::RefusalKind::Invalid);
    assert!(refused.message.contains("not player"), "{refused:?}");
    // The same link twice: the second is refused by the rules.
    live.next[mover.other().index()] -= 1;
    let link = live.link(mover.other());
    live.ok(link.clone());
    assert!(live.plan(&link).unwrap_err().contains("already gave"));
}

#[test]
fn live_dice_seeds_are_not_taken_and_chess_has_no_live_dice() {
    let live = Live::new();
    let commit = Request::CommitSeed {
        side: Side::A,
        commitment: [1; 32],
    };
    assert!(live.plan(&commit).unwrap_err().contains("live dice"));
    let info = MatchInfo {
        id: "c".into(),
        tournament: "t".into(),
        round: 1,
        table: "2".into(),
    };
    let chess = GameSetup::Chess(ChessSettings {
        players: ["Ann".into(), "Bo".into()],
        control: TimeControl::rapid(),
        games: 1,
        start: Timestamp(0),
        default_time: baffle_core::Millis::mins(15),
        laws: Laws::Fide2023,
        supervised: true,
        chess960: true,
    });
    let refused = Table::create_with(
        info,
        chess,
        SeedPolicy::Live,
        ServerSeed::from_bytes([1; 32]),
    )
    .unwrap_err();
    assert!(
        refused.message.contains("live dice are for backgammon"),
        "{refused:?}"
    );
}

#[test]
fn live_dice_a_player_who_withholds_his_link_forfeits_at_the_deadline() {
    let mut live = Live::new().opened();
    let mover = live.to_move();
    live.ok(Request::Backgammon(Command::Press { side: mover }));
    let roller = mover.other();
    let link = live.link(roller);
    live.ok(link);
    let asked_at = live.now;
    let due = asked_at + LINK_WINDOW.as_ms();
    assert_eq!(live.table.next_due(), Some(Timestamp(due)));
    // Before the deadline a tick changes nothing.
    live.now = due - 1;
    assert!(live.ok(Request::Tick).is_empty());
    // The director may extend it, with a reason and an article.
    let ruling = baffle_core::table::ChessRuling {
        reason: "his phone restarted".into(),
        article: "2.3".into(),
    };
    live.ok(Request::ExtendReveal {
        window: baffle_core::Millis::secs(30),
        ruling,
    });
    let extended = live.now + 30_000;
    live.now = extended - 1;
    assert!(live.ok(Request::Tick).is_empty());
    // At the new deadline the withholder forfeits, at its instant.
    live.now = extended + 5_000;
    let kinds = live.ok(Request::Tick);
    assert_eq!(kinds, ["bg.ruling", "bg.match_ended"]);
    let baffle_core::table::AnyMatch::Backgammon(m) = live.table.game() else {
        unreachable!()
    };
    let result = m.result().unwrap();
    assert_eq!(result.winner, roller);
    assert!(
        !result.confirmed,
        "the director confirms a forfeit as any result (4.6)"
    );
}

#[test]
fn live_dice_with_both_links_missing_nobody_forfeits_at_the_deadline() {
    let mut live = Live::new();
    live.ok(Request::ServerOpening);
    // No deadline falls due by itself: nobody is singled out.
    assert_eq!(live.table.next_due(), None);
    live.now += LINK_WINDOW.as_ms() + 10_000;
    assert!(live.ok(Request::Tick).is_empty());
    assert!(!live.table.game().is_over());
}

#[test]
fn live_dice_the_log_replays_and_verifies_with_every_link() {
    let mut live = Live::new().opened();
    for _ in 0..6 {
        let mover = live.to_move();
        live.ok(Request::Backgammon(Command::Press { side: mover }));
        let roller = mover.other();
        let link = live.link(roller);
        live.ok(link);
        let link = live.link(mover);
        live.ok(link);
    }
    let replayed = Replay::run(&live.records, Some(live.seed.clone())).unwrap();
    assert_eq!(replayed.head(), live.table.head());
    // A verifier without the seed folds the same log, and recomputes the draws at the
    // reveal.
    let sealed = Replay::run(&live.records, None).unwrap();
    assert_eq!(sealed.head(), live.table.head());
    // A pause reason only the server gives is refused from anyone else.
    let pause = Request::Backgammon(Command::Pause {
        reason: PauseReason::AwaitingLinks,
    });
    assert!(live.plan(&pause).unwrap_err().contains("only the server"));
    // The match ends and is confirmed: the seed is revealed in the same append, and a
    // verifier recomputes every draw from the key and its links.
    let director = |action| {
        Request::Backgammon(Command::Director {
            action,
            ruling: Ruling::new("test", "2.3"),
        })
    };
    live.ok(director(DirectorAction::ForfeitMatch { loser: Side::B }));
    let kinds = live.ok(director(DirectorAction::ConfirmResult));
    assert!(kinds.contains(&"dice.reveal".to_string()), "{kinds:?}");
    let verified = Replay::run(&live.records, None).unwrap();
    assert_eq!(verified.dice().verified(), verified.dice().draws());
    assert_eq!(verified.dice().draws(), 7);
    // The same log with one roll's dice changed, chained again by a forger: the reveal
    // names the draw its links and the seed do not give.
    let roll = live
        .records
        .iter()
        .position(|r| r.body.starts_with(r#"{"kind":"dice.roll""#))
        .unwrap();
    let [d1, d2] = match Body::parse(&live.records[roll].body, None).unwrap() {
        Body::Dice(Entry::Roll { dice, .. }) => dice,
        _ => unreachable!(),
    };
    let other = if [d1, d2] == [1, 2] { [2, 1] } else { [1, 2] };
    let mut forged: Vec<Record> = Vec::new();
    for (i, r) in live.records.iter().enumerate() {
        // The draw and the roll played with it (`bg.rolled`, the record after).
        let body = if i == roll || i == roll + 1 {
            r.body.replace(
                &format!("[{d1},{d2}]"),
                &format!("[{},{}]", other[0], other[1]),
            )
        } else {
            r.body.clone()
        };
        forged.push(Record::next(forged.last(), body));
    }
    let error = Replay::run(&forged, None).unwrap_err();
    assert!(error.reason.contains("revealed seed gives"), "{error:?}");
}

/// A twin server — another server seed, the players' chains and links copied into its
/// log — is caught by the chains themselves: each step hashes the server's commitment, so
/// no link the players gave steps to their anchors under the twin's.
#[test]
fn live_dice_a_twin_log_cannot_reuse_the_players_chains() {
    let mut live = Live::new().opened();
    let mover = live.to_move();
    live.ok(Request::Backgammon(Command::Press { side: mover }));
    let link = live.link(mover.other());
    live.ok(link);
    let twin = ServerSeed::from_bytes([0x77; 32]);
    let mut forged: Vec<Record> = Vec::new();
    for r in &live.records {
        let body = r.body.replace(
            &live.seed.commitment().to_string(),
            &twin.commitment().to_string(),
        );
        forged.push(Record::next(forged.last(), body));
    }
    let error = Replay::run(&forged, Some(twin)).unwrap_err();
    assert!(
        error.reason.contains("not player A's next link"),
        "{error:?}"
    );
}

/// A red team's find: a twin log made by the operator with chains of his own (a new
/// server seed, new anchors, the hashes redone) verifies on its own — nothing in it is
/// the players'. What tells the logs apart is the anchor each player's client kept:
/// `--player-commit` (`Expect::player_commits`) takes it, and the twin fails.
#[test]
fn live_dice_a_twin_with_the_operators_own_chains_fails_the_players_anchor() {
    use baffle_core::audit::verify::{Expect, verify_expecting};
    let mut real = Live::new().opened();
    let mover = real.to_move();
    real.ok(Request::Backgammon(Command::Press { side: mover }));
    let anchor_a = real.chains[0].anchor();
    // The twin: the same match id, another seed, the operator's own chains.
    let twin = Live::with(ServerSeed::from_bytes([0x99; 32]), [0x0a, 0x0b]).opened();
    let text = |log: &Live| baffle_core::audit::export::to_jsonl(&log.records);
    let alone = verify_expecting(&text(&twin), &Expect::default());
    assert!(alone.is_ok(), "{alone}");
    let expect = Expect {
        player_commits: vec![(Side::A, anchor_a.to_vec())],
        ..Expect::default()
    };
    assert!(verify_expecting(&text(&real), &expect).is_ok());
    let caught = verify_expecting(&text(&twin), &expect);
    let problem = caught.problem.expect("the twin fails the anchor Anna kept");
    assert!(problem.reason.contains("not the one given"), "{problem:?}");
}
