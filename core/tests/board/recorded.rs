//! A 5-point match recorded through the core's `Match` with seeded dice, for the tests
//! that export it and hand it to GNU Backgammon (`core/tests/mat_gnubg.rs`,
//! `tests/tests/gnubg_replay.rs`).

#![allow(dead_code)]

use baffle_core::backgammon::board::legal_plays;
use baffle_core::backgammon::setup::DiceSource;
use baffle_core::backgammon::{Command, Event, Match, MatchSetup, MovesSetting, Turn, WinKind};
use baffle_core::{Side, Timestamp};

/// Dice from a fixed seed (xorshift64): the same game every run.
pub struct Dice(pub u64);

impl Dice {
    /// The next die, 1 to 6.
    pub fn die(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 6) as u8 + 1
    }
}

/// A 5-point match recorded through the core's `Match` with seeded dice: game 1 with a
/// double, a take, a redouble and a drop by A (the left column, B's Wins beside it);
/// game 2 played to the last checker; game 3 (if `games` is 3) conceded by B after A's play. Starts at
/// `start_ms`. Returns the match and its events.
pub fn recorded_match(seed: u64, games: u32, start_ms: i64) -> (Match, Vec<Event>) {
    let mut setup = MatchSetup::new(["Anna", "Ben"], 5, Timestamp(start_ms));
    setup.moves = MovesSetting::Recorded;
    let mut m = Match::new(setup).unwrap();
    let mut now = start_ms;
    let mut events = Vec::new();
    let mut exec = |m: &mut Match, c: Command| {
        now += 1_000;
        let e = m
            .execute(&c, Timestamp(now))
            .unwrap_or_else(|e| panic!("{c:?}: {e}"));
        events.extend(e);
    };
    exec(&mut m, Command::CheckIn { side: Side::A });
    exec(&mut m, Command::CheckIn { side: Side::B });
    let mut dice = Dice(seed);
    for game in 1..=games {
        exec(&mut m, Command::StartGame);
        let (mut turns, mut doubled) = (0, false);
        while let Some(g) = m.game() {
            match g.turn {
                Turn::Opening => {
                    let throw = [dice.die(), dice.die()];
                    let source = DiceSource::Server;
                    exec(&mut m, Command::OpeningThrow { throw, source });
                }
                Turn::OnRoll { side, .. } => {
                    if game == 1 && turns >= 4 && side == Side::A && !doubled {
                        exec(&mut m, Command::Double { side });
                        exec(&mut m, Command::Take { side: side.other() });
                        doubled = true;
                        continue;
                    }
                    if game == 1 && doubled && turns >= 7 && side == Side::B {
                        exec(&mut m, Command::Double { side });
                        exec(&mut m, Command::Pass { side: side.other() });
                        continue;
                    }
                    if game == 3 && turns >= 6 && side == Side::B {
                        let kind = WinKind::Single;
                        exec(&mut m, Command::Concede { side, kind });
                        continue;
                    }
                    let d = [dice.die(), dice.die()];
                    let source = DiceSource::Server;
                    exec(
                        &mut m,
                        Command::Roll {
                            side,
                            dice: d,
                            source,
                        },
                    );
                }
                Turn::Moving { side, dice: d } => {
                    turns += 1;
                    let seen = m.board().unwrap().seen_by(side);
                    let mut plays = legal_plays(&seen, d).unwrap();
                    // In the order of their positions (`legal_plays` gives no order of
                    // meaning): the match gnubg wrote back in ours_by_gnubg.mat.
                    plays.sort_by_key(|p| p.result);
                    let play = plays[usize::from(dice.die()) % plays.len()].to_string();
                    if !play.is_empty() {
                        exec(&mut m, Command::Move { side, play });
                    }
                    if m.game().is_some() {
                        exec(&mut m, Command::Press { side });
                    }
                }
                Turn::DoubleOffered { .. } => unreachable!(),
            }
        }
    }
    (m, events)
}
