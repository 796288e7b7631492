//! Dice bound to their place (issue 29): no sequence of commands — a press-back by a
//! player who could move, a roll asked for early or out of turn, a double, a refused
//! void, a game conceded or forfeited — changes the dice of any position. Random command
//! sequences run through a [`Table`]; every server draw in the log is checked against
//! the position's own stream, with the position counted here from the log alone (the
//! n-th opening is game n; a side's n-th roll of the game is roll n), and no position is
//! drawn twice.

use std::collections::HashSet;

use baffle_core::GameType;
use baffle_core::audit::Entry;
use baffle_core::backgammon::{Command, DirectorAction, MatchSetup, Ruling, Turn, WinKind};
use baffle_core::dice::{DiceStream, Position, ServerSeed, dice_key_v2};
use baffle_core::table::{Body, GameSetup, MatchInfo, Request, Table};
use baffle_core::{Side, Timestamp};
use proptest::prelude::*;

/// What a player does; whose turn it is decides who, mostly (the mover, or else his
/// opponent), so that games go on and the odd command comes from the wrong side.
#[derive(Clone, Debug)]
enum Act {
    /// What the game waits for: the opening, the roll of the player on roll, or the
    /// press of the player moving.
    Next,
    Roll,
    Press,
    PressBack,
    Opening,
    Double,
    Take,
    InvalidRoll,
    ReplayIllegalMove,
    Concede,
    Forfeit,
    Tick,
}

fn act() -> impl Strategy<Value = (Act, bool)> {
    let act = prop_oneof![
        12 => Just(Act::Next),
        4 => Just(Act::Roll),
        4 => Just(Act::Press),
        2 => Just(Act::PressBack),
        2 => Just(Act::Opening),
        1 => Just(Act::Double),
        1 => Just(Act::Take),
        1 => Just(Act::InvalidRoll),
        1 => Just(Act::ReplayIllegalMove),
        1 => Just(Act::Concede),
        1 => Just(Act::Forfeit),
        1 => Just(Act::Tick),
    ];
    (act, proptest::bool::weighted(0.8))
}

fn request(act: &Act, side: Side, table: &Table) -> Request {
    let bg = Request::Backgammon;
    match act {
        Act::Next => match table.game().to_move_phase() {
            None | Some(Turn::Opening) => Request::ServerOpening,
            Some(Turn::OnRoll { .. }) => Request::ServerRoll(side),
            Some(_) => bg(Command::Press { side }),
        },
        Act::Roll => Request::ServerRoll(side),
        Act::Press => bg(Command::Press { side }),
        Act::PressBack => bg(Command::PressBack { side }),
        Act::Opening => Request::ServerOpening,
        Act::Double => bg(Command::Double { side }),
        Act::Take => bg(Command::Take { side }),
        Act::InvalidRoll => bg(Command::InvalidRoll { side }),
        Act::ReplayIllegalMove => bg(Command::ReplayIllegalMove { offender: side }),
        Act::Concede => bg(Command::Concede {
            side,
            kind: WinKind::Single,
        }),
        Act::Forfeit => bg(Command::Director {
            action: DirectorAction::ForfeitGame {
                loser: side,
                kind: WinKind::Single,
            },
            ruling: Ruling::new("prop", "2.3"),
        }),
        Act::Tick => bg(Command::Tick),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn no_sequence_of_commands_changes_the_dice_of_any_position(
        seed in any::<u8>(),
        acts in proptest::collection::vec((act(), 0i64..3_000), 1..250),
    ) {
        let info = MatchInfo { id: format!("m{seed}"), tournament: "t".into(), round: 1, table: "1".into() };
        let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 11, Timestamp(0)));
        let server = ServerSeed::from_bytes([seed; 32]);
        let (mut table, mut log) = Table::create(info.clone(), setup, server.clone()).unwrap();
        let mut now = 1_000;
        for side in Side::BOTH {
            let plan = table.plan(&Request::Backgammon(Command::CheckIn { side }), Timestamp(now)).unwrap();
            log.extend(plan.records);
            table = plan.table;
        }
        for ((act, by_mover), wait) in acts {
            now += wait;
            let mover = table.game().to_move().unwrap_or(Side::A);
            let side = if by_mover { mover } else { mover.other() };
            let planned = table.plan(&request(&act, side, &table), Timestamp(now));
            if let Ok(plan) = planned {
                log.extend(plan.records);
                table = plan.table;
            }
        }
        let key = dice_key_v2(&info.id, &server, b"", b"");
        let (mut game, mut rolls) = (0u16, [0u32; 2]);
        let mut seen = HashSet::new();
        for record in &log {
            let Ok(Body::Dice(entry)) = Body::parse(&record.body, Some(GameType::Backgammon)) else {
                continue;
            };
            match entry {
                Entry::Opening { throws, game: named } => {
                    game += 1;
                    rolls = [0; 2];
                    prop_assert_eq!(named, Some(game));
                    let at = Position::Opening { game };
                    prop_assert!(seen.insert(at), "{:?} drawn twice", at);
                    prop_assert_eq!(throws, DiceStream::at(key, at).opening().throws);
                }
                Entry::Roll { side, dice, game: g, roll } => {
                    rolls[side.index()] += 1;
                    prop_assert_eq!((g, roll), (Some(game), Some(rolls[side.index()])));
                    let at = Position::Roll { game, side, roll: rolls[side.index()] };
                    prop_assert!(seen.insert(at), "{:?} drawn twice", at);
                    prop_assert_eq!(dice, DiceStream::at(key, at).roll());
                }
                _ => {}
            }
        }
    }
}
