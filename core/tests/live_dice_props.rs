//! Live dice as a protocol (issue 35): no order of messages — rolls asked for early, out
//! of turn or twice, links given early, late, twice or made up, doubles and presses
//! slipped in, time passing past deadlines — lets a draw be made before it was asked for,
//! with a link given before it was asked for, or lets anything be played between the
//! asking and the dice. Random message sequences run through a [`Table`]; the log is then
//! checked record by record, and replayed to the same table.

use baffle_core::GameType;
use baffle_core::audit::{Entry, Record};
use baffle_core::backgammon::{Command, MatchSetup};
use baffle_core::dice::{LiveChain, SeedPolicy, ServerSeed};
use baffle_core::table::{Body, GameSetup, MatchInfo, Replay, Request, Table};
use baffle_core::{Side, Timestamp};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Msg {
    Opening,
    Roll(Side),
    Link(Side),
    BadLink(Side),
    Press(Side),
    Double(Side),
    Take(Side),
    Wait(i64),
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::A), Just(Side::B)]
}

fn msg() -> impl Strategy<Value = Msg> {
    prop_oneof![
        2 => Just(Msg::Opening),
        4 => side().prop_map(Msg::Roll),
        8 => side().prop_map(Msg::Link),
        1 => side().prop_map(Msg::BadLink),
        4 => side().prop_map(Msg::Press),
        1 => side().prop_map(Msg::Double),
        1 => side().prop_map(Msg::Take),
        1 => (1i64..90_000).prop_map(Msg::Wait),
    ]
}

fn kind(body: &Body) -> String {
    body.kind().to_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn live_dice_no_message_order_draws_before_the_ask_or_plays_between(
        msgs in proptest::collection::vec(msg(), 1..120)
    ) {
        let seed = ServerSeed::from_bytes([0x3c; 32]);
        let info = MatchInfo { id: "p".into(), tournament: "t".into(), round: 1, table: "1".into() };
        let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 5, Timestamp(0)));
        let (mut table, mut log) = Table::create_with(info, setup, SeedPolicy::Live, seed.clone()).unwrap();
        let chains = [Side::A, Side::B].map(|s| LiveChain::new([s.index() as u8 + 1; 32], 128, seed.commitment(), "p", s));
        let mut now = 1_000;
        let apply = |table: &mut Table, log: &mut Vec<Record>, r: Request, now: i64| {
            if let Ok(plan) = table.plan(&r, Timestamp(now)) {
                log.extend(plan.records);
                *table = plan.table;
            }
        };
        for s in Side::BOTH {
            apply(&mut table, &mut log, Request::Backgammon(Command::CheckIn { side: s }), now);
            apply(&mut table, &mut log, Request::CommitChain { side: s, anchor: chains[s.index()].anchor(), length: 128 }, now);
        }
        let given = |table: &Table, s: Side| 128 - table.dice().live().unwrap().chain(s).unwrap().1;
        for m in msgs {
            now += 100;
            let request = match m {
                Msg::Opening => Request::ServerOpening,
                Msg::Roll(s) => Request::ServerRoll(s),
                Msg::Link(s) => Request::DiceLink { side: s, link: chains[s.index()].link(given(&table, s) + 1).unwrap() },
                Msg::BadLink(s) => Request::DiceLink { side: s, link: [0xee; 32] },
                Msg::Press(s) => Request::Backgammon(Command::Press { side: s }),
                Msg::Double(s) => Request::Backgammon(Command::Double { side: s }),
                Msg::Take(s) => Request::Backgammon(Command::Take { side: s }),
                Msg::Wait(ms) => { now += ms; Request::Tick }
            };
            apply(&mut table, &mut log, request, now);
        }
        // Record by record: a link only while a draw is asked for, each the player's
        // next; a draw only with both links of its ask; nothing played in between.
        let mut asked = false;
        let mut links = [0u32; 2];
        let mut in_this_draw = [false; 2];
        for r in &log[2..] {
            let body = Body::parse(&r.body, Some(GameType::Backgammon)).unwrap();
            match &body {
                Body::Dice(Entry::Asked { .. }) => {
                    prop_assert!(!asked, "asked twice");
                    asked = true;
                    in_this_draw = [false; 2];
                }
                Body::Dice(Entry::Link { side, link }) => {
                    prop_assert!(asked, "a link with nothing asked for");
                    prop_assert!(!in_this_draw[side.index()], "two links of one player for a draw");
                    in_this_draw[side.index()] = true;
                    links[side.index()] += 1;
                    let expected = chains[side.index()].link(links[side.index()]).unwrap();
                    prop_assert_eq!(link, &hex::encode(expected));
                }
                Body::Dice(Entry::Roll { .. } | Entry::Opening { .. }) => {
                    prop_assert!(asked && in_this_draw == [true; 2], "a draw without both links of its ask");
                    asked = false;
                }
                Body::Backgammon(_) if asked => {
                    let k = kind(&body);
                    prop_assert!(
                        ["bg.paused", "bg.resumed", "bg.ruling", "bg.match_ended"].contains(&k.as_str()),
                        "{} while a draw was asked for", k
                    );
                }
                _ => {}
            }
        }
        let replayed = Replay::run(&log, Some(seed)).unwrap();
        prop_assert_eq!(replayed.head(), table.head());
        prop_assert!(Replay::run(&log, None).is_ok());
    }
}
