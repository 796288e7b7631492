//! A chess match as the server runs it: the settings, the games played so far (a
//! [`Series`]) and the game in progress, as one state machine in the style of
//! [`Game`]: [`ChessMatch::decide`] checks a command and returns its events,
//! [`ChessMatch::evolve`] folds one in, and the match is the fold of its events.
//!
//! Game 1 starts at the scheduled time with the lateness rules of 6.6 and 6.7. A later
//! game starts when someone asks for it ([`MatchCommand::NextGame`]) with both players at
//! the board; colours alternate. A Chess960 match gets its position once, before it is
//! needed ([`MatchCommand::Position`]); the server draws it from the match's audited dice.

use serde::{Deserialize, Serialize};

use super::category::Laws;
use super::error::ChessError;
use super::game::{Command, Event, Game, GameSetup};
use super::series::{Chess960, Series};
use crate::clock::{MAX_BASE, TimeControl};
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// Most games in one match.
pub const MAX_GAMES: u32 = 99;

/// How a chess match is set up; the `match.setup` record of its log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessSettings {
    /// The players, A then B. A has White in game 1.
    pub players: [String; 2],
    /// The time control of every game.
    pub control: TimeControl,
    /// Games in the match, 1 to [`MAX_GAMES`].
    pub games: u32,
    /// When game 1 starts: White's clock runs from then (6.6).
    pub start: Timestamp,
    /// The default time (6.7); zero under the 2009 default.
    pub default_time: Millis,
    /// Which Laws' boundaries and penalties apply.
    pub laws: Laws,
    /// Whether an arbiter watches (A.4 (d)).
    pub supervised: bool,
    /// Chess960: the position is drawn from the audited dice.
    pub chess960: bool,
}

impl ChessSettings {
    /// Whether a match with these settings can start as scheduled when made at `now`:
    /// with a default time of zero both players must be at the board when White's clock
    /// starts (6.7), so a game starting now would be lost by both at once — refused as
    /// the mistake it is.
    pub fn check_start(&self, now: Timestamp) -> Result<(), ChessError> {
        if self.default_time == Millis::ZERO && self.start <= now {
            return Err(ChessError::rule(
                "6.7",
                "with a default time of 0 both players must be at the board when White's \
                 clock starts, so a game starting now is lost by both at once: schedule the \
                 start later or give a default time",
            ));
        }
        Ok(())
    }

    fn game_setup(&self, start: Timestamp) -> GameSetup {
        GameSetup {
            control: self.control.clone(),
            start,
            default_time: self.default_time,
            laws: self.laws,
            supervised: self.supervised,
        }
    }
}

/// What can be asked of a chess match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchCommand {
    /// A command for the game in progress.
    Game(Command),
    /// Nothing but the time passing: record what fell due (start, default, flag).
    Tick,
    /// Start the next game now, both players at the board.
    NextGame,
    /// The Chess960 position, drawn by the server.
    Position(Chess960),
}

/// What happened at the level of the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum SeriesEvent {
    /// The Chess960 starting position of every game of the match.
    #[serde(rename = "chess.position")]
    Position {
        /// Its number, 0 to 959.
        sp: u16,
        /// White's back rank, a to h.
        back_rank: String,
        /// When it was drawn.
        at: Timestamp,
    },
    /// The next game began, both players at the board.
    #[serde(rename = "chess.next_game")]
    NextGame {
        /// Its number, 1 = first.
        game: u32,
        /// When White's clock started.
        at: Timestamp,
    },
}

/// An event of a chess match: of the game in progress, or of the match. Both are
/// tagged with their `kind`, so either reads from an audit body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MatchEvent {
    /// The game in progress.
    Game(Event),
    /// The match.
    Series(SeriesEvent),
}

impl MatchEvent {
    /// The audit body: compact JSON with its `kind` first.
    pub fn body(&self) -> String {
        serde_json::to_string(self).expect("events serialise")
    }

    /// When it happened.
    pub fn at(&self) -> Timestamp {
        match self {
            MatchEvent::Game(e) => e.at(),
            MatchEvent::Series(SeriesEvent::Position { at, .. })
            | MatchEvent::Series(SeriesEvent::NextGame { at, .. }) => *at,
        }
    }
}

/// A chess match. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessMatch {
    settings: ChessSettings,
    series: Series,
    game: Game,
    number: u32,
    now: Timestamp,
}

impl ChessMatch {
    /// A match not yet started.
    pub fn new(settings: ChessSettings) -> Result<ChessMatch, ChessError> {
        if settings.players.iter().any(|p| p.trim().is_empty()) {
            return Err(ChessError::state("both players need a name"));
        }
        if !(1..=MAX_GAMES).contains(&settings.games) {
            return Err(ChessError::state(format!(
                "a match has 1 to {MAX_GAMES} games, not {}",
                settings.games
            )));
        }
        if settings.default_time < Millis::ZERO {
            return Err(ChessError::invalid(
                "6.7",
                "the default time cannot be negative",
            ));
        }
        if settings.default_time > MAX_BASE {
            return Err(ChessError::invalid(
                "6.7",
                format!(
                    "a default time of {} ms is above the bound of {} ms ({MAX_BASE})",
                    settings.default_time.as_ms(),
                    MAX_BASE.as_ms()
                ),
            ));
        }
        Ok(ChessMatch {
            series: Series::new(settings.games, None),
            game: Game::new(settings.game_setup(settings.start)),
            number: 1,
            now: Timestamp(0),
            settings,
        })
    }

    /// The settings.
    pub fn settings(&self) -> &ChessSettings {
        &self.settings
    }

    /// Corrects `side`'s name (the table's `match.renamed`, checked there): the name
    /// only, nothing of the play.
    pub fn rename_player(&mut self, side: Side, name: &str) {
        self.settings.players[side.index()] = name.to_string();
    }

    /// The games played and the position.
    pub fn series(&self) -> &Series {
        &self.series
    }

    /// The game in progress, or the last one played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// That game's number, 1 = first.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The player with White in that game.
    pub fn white(&self) -> Side {
        self.series.white_in(self.number)
    }

    /// Gives `player` (not a colour) `credit` on the clock at `at` for a server outage
    /// (the table's `table.takeover` fold, which checks the credit first): the match's
    /// time moves to `at`, so nothing is later dated before the credit.
    pub fn credit_takeover(
        &mut self,
        player: Side,
        credit: Millis,
        at: Timestamp,
    ) -> Result<(), ChessError> {
        // The clock counts by colour: its side A is White.
        let colour = if player == self.white() {
            Side::A
        } else {
            Side::B
        };
        self.game.credit_clock(colour, credit, at)?;
        self.now = self.now.max(at);
        Ok(())
    }

    /// The instant of the last event.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// Whether the match is decided: a player has more than half the points, or every
    /// game is played.
    pub fn is_over(&self) -> bool {
        self.series.winner().is_some() || self.series.current().is_none()
    }

    /// The winner of a decided match; `None` while it runs or when it is drawn.
    pub fn winner(&self) -> Option<Side> {
        self.series.winner()
    }

    /// The next instant something falls due by itself in the game in progress.
    pub fn next_due(&self) -> Option<Timestamp> {
        if self.is_over() {
            return None;
        }
        self.game.next_due()
    }

    /// Whether a Chess960 position may be set now: the question the server asks before
    /// it draws one, so that a refused draw takes nothing from the dice.
    pub fn may_set_position(&self) -> Result<(), ChessError> {
        if !self.settings.chess960 {
            return Err(ChessError::state("this is not a Chess960 match"));
        }
        if self.series.position().is_some() {
            return Err(ChessError::state("the position is drawn already"));
        }
        Ok(())
    }

    /// Whether drawing the Chess960 position is an arbiter's ruling: once game 1 has
    /// started it is (the arbiter then decides the irregularity, 7.2 (a) 2014). Before
    /// play it is a plain step of the set-up, drawn from dice committed to in advance.
    pub fn position_needs_ruling(&self, now: Timestamp) -> bool {
        self.number > 1 || self.game.started() || self.game.next_due() <= Some(now)
    }

    /// Checks `command` at `now` and returns the events it causes (what fell due first),
    /// without changing the match.
    pub fn decide(
        &self,
        command: &MatchCommand,
        now: Timestamp,
    ) -> Result<Vec<MatchEvent>, ChessError> {
        let mut work = self.clone();
        let mut out = Vec::new();
        if !work.is_over() && work.game.result().is_none() {
            for e in work.game.clone().catch_up(now) {
                work.emit(MatchEvent::Game(e), &mut out)?;
            }
        }
        match command {
            MatchCommand::Tick => {}
            MatchCommand::Game(c) => {
                // A ruling on a finished game (6.9; a postponed quickplay claim) is
                // still allowed; the game says.
                let late_ruling = matches!(
                    c,
                    Command::CannotCheckmate
                        | Command::QuickplayRuling(_)
                        | Command::Checkmate(_)
                        | Command::ArbiterResult(_)
                );
                if work.is_over() && !late_ruling {
                    return Err(ChessError::state("the match is over"));
                }
                for e in work.game.decide(*c, now)? {
                    work.emit(MatchEvent::Game(e), &mut out)?;
                }
            }
            MatchCommand::NextGame => {
                if work.is_over() {
                    return Err(ChessError::state("the match is over"));
                }
                if work.game.result().is_none() {
                    return Err(ChessError::state(format!(
                        "game {} is not over",
                        work.number
                    )));
                }
                let game = work.number + 1;
                work.emit(
                    MatchEvent::Series(SeriesEvent::NextGame { game, at: now }),
                    &mut out,
                )?;
            }
            MatchCommand::Position(p) => {
                work.may_set_position()?;
                work.emit(
                    MatchEvent::Series(SeriesEvent::Position {
                        sp: p.sp,
                        back_rank: p.back_rank.clone(),
                        at: now,
                    }),
                    &mut out,
                )?;
            }
        }
        Ok(out)
    }

    /// [`ChessMatch::decide`] and evolve.
    pub fn execute(
        &mut self,
        command: &MatchCommand,
        now: Timestamp,
    ) -> Result<Vec<MatchEvent>, ChessError> {
        let events = self.decide(command, now)?;
        for e in &events {
            self.evolve(e)?;
        }
        Ok(events)
    }

    fn emit(&mut self, event: MatchEvent, out: &mut Vec<MatchEvent>) -> Result<(), ChessError> {
        self.evolve(&event)?;
        out.push(event);
        Ok(())
    }

    /// Folds `event` into the match.
    pub fn evolve(&mut self, event: &MatchEvent) -> Result<(), ChessError> {
        match event {
            MatchEvent::Game(e) => {
                let was_over = self.game.result();
                self.game.evolve(e)?;
                if let Event::Ended { result, .. } = e {
                    match was_over {
                        // A ruling on a finished game (6.9) replaces its result.
                        Some(_) => self.series.correct_last(*result),
                        None => self.series.record(*result).map_err(ChessError::state)?,
                    }
                }
            }
            MatchEvent::Series(SeriesEvent::NextGame { game, at }) => {
                if *game != self.number + 1 || self.game.result().is_none() {
                    return Err(ChessError::state(format!(
                        "game {game} cannot follow game {}",
                        self.number
                    )));
                }
                self.number = *game;
                self.game = Game::new(self.settings.game_setup(*at));
                self.game.seat_both();
            }
            MatchEvent::Series(SeriesEvent::Position { sp, back_rank, .. }) => {
                let position = Chess960::numbered(*sp)
                    .filter(|p| p.back_rank == *back_rank)
                    .ok_or_else(|| {
                        ChessError::state(format!("{sp} {back_rank} is not a Chess960 position"))
                    })?;
                self.series.set_position(position);
            }
        }
        self.now = self.now.max(event.at());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::game::Color;

    fn settings() -> ChessSettings {
        ChessSettings {
            players: ["Ann".into(), "Bo".into()],
            control: TimeControl::blitz(),
            games: 2,
            start: Timestamp(1_000),
            default_time: Millis::ZERO,
            laws: Laws::Fide2023,
            supervised: true,
            chess960: false,
        }
    }

    #[test]
    fn events_read_back_from_their_bodies() {
        let mut m = ChessMatch::new(settings()).unwrap();
        let mut events = Vec::new();
        for c in [Color::White, Color::Black] {
            events.extend(
                m.execute(&MatchCommand::Game(Command::Arrive(c)), Timestamp(500))
                    .unwrap(),
            );
        }
        events.extend(
            m.execute(
                &MatchCommand::Game(Command::Resign(Color::Black)),
                Timestamp(9_000),
            )
            .unwrap(),
        );
        events.extend(
            m.execute(&MatchCommand::NextGame, Timestamp(20_000))
                .unwrap(),
        );
        let mut fold = ChessMatch::new(settings()).unwrap();
        for e in &events {
            let read: MatchEvent = serde_json::from_str(&e.body()).unwrap();
            assert_eq!(&read, e);
            assert!(e.body().starts_with(r#"{"kind":"chess."#), "{}", e.body());
            fold.evolve(&read).unwrap();
        }
        assert_eq!(fold, m);
        assert_eq!(m.number(), 2);
        assert_eq!(m.white(), Side::B);
    }
}
