//! Time controls: what a clock is set to before the game.
//!
//! A [`TimeControl`] is a sequence of [`Period`]s. Each period grants a base time, may
//! require a number of moves (every period but the last does; the last covers the rest of
//! the game) and has a [`TimingMethod`] that says how each move is timed. Presets cover
//! backgammon's simple-delay match clock and the usual FIDE controls.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::time::Millis;

/// How each move of a period is timed. The names follow the DGT 3000's modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum TimingMethod {
    /// The base time only ("TIME").
    SuddenDeath,
    /// `increment` is added for every move ("FISCH"). As on a DGT 3000, the increment for
    /// the first move is added before the game starts, and completing a move adds the
    /// increment of the move that follows.
    Fischer {
        /// Time added per move.
        increment: Millis,
    },
    /// Simple or US delay ("US-DLY", chess 6.3 (b) "time-delay mode", backgammon 4.2): on
    /// each turn the main time starts to run only after `delay`; unused delay is lost.
    SimpleDelay {
        /// The fixed time per move before the main time runs.
        delay: Millis,
    },
    /// Bronstein delay ("DELAY"): the main time runs at once, and after the move the time
    /// used is given back up to `delay`, so a move never ends above its starting time.
    Bronstein {
        /// The most that is given back per move.
        delay: Millis,
    },
    /// Byo-yomi ("BYO"): after the base time, `periods` periods of `period_time`. A move
    /// made within a period resets it; a period that runs out is used up; when the last
    /// runs out the flag falls.
    ByoYomi {
        /// Number of byo-yomi periods.
        periods: u32,
        /// Length of each period.
        period_time: Millis,
    },
    /// Canadian byo-yomi ("CAN-BYO"): after the base time, `moves` moves must be made in
    /// `period_time`; when they are, a fresh period of the same kind begins.
    Canadian {
        /// Moves required per overtime period.
        moves: u32,
        /// Length of each overtime period.
        period_time: Millis,
    },
    /// Count-up ("UPCNT"): each side's display counts the time used; no flag falls.
    CountUp,
}

impl TimingMethod {
    /// The per-move delay of a delay method, or zero.
    pub const fn delay(self) -> Millis {
        match self {
            TimingMethod::SimpleDelay { delay } | TimingMethod::Bronstein { delay } => delay,
            _ => Millis::ZERO,
        }
    }

    /// True for methods that give time per move or per stage beyond the base time; a DGT
    /// 3000 freezes at a flag in exactly these modes.
    pub const fn adds_time(self) -> bool {
        !matches!(self, TimingMethod::SuddenDeath | TimingMethod::CountUp)
    }
}

impl fmt::Display for TimingMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimingMethod::SuddenDeath => write!(f, "sudden death"),
            TimingMethod::Fischer { increment } => write!(f, "+{increment} per move (Fischer)"),
            TimingMethod::SimpleDelay { delay } => write!(f, "{delay} simple delay"),
            TimingMethod::Bronstein { delay } => write!(f, "{delay} Bronstein delay"),
            TimingMethod::ByoYomi {
                periods,
                period_time,
            } => write!(f, "byo-yomi {periods} x {period_time}"),
            TimingMethod::Canadian { moves, period_time } => {
                write!(f, "Canadian byo-yomi {moves} moves in {period_time}")
            }
            TimingMethod::CountUp => write!(f, "count-up"),
        }
    }
}

/// One period of a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Period {
    /// Time granted when the period begins (added to any time saved from earlier periods).
    pub base: Millis,
    /// Moves to be completed in this period; `None` means the rest of the game.
    pub moves: Option<u32>,
    /// How each move in this period is timed.
    pub method: TimingMethod,
}

impl Period {
    /// A period with `base` time for `moves` moves (or the rest of the game).
    pub const fn new(base: Millis, moves: Option<u32>, method: TimingMethod) -> Period {
        Period {
            base,
            moves,
            method,
        }
    }
}

/// Most periods in one time control.
pub const MAX_PERIODS: usize = 10;
/// Longest base time of a period, and of all periods together: a week (a 999-point
/// backgammon match at 10 minutes a point still fits).
pub const MAX_BASE: Millis = Millis::mins(7 * 24 * 60);
/// Largest increment or delay per move: ten minutes.
pub const MAX_PER_MOVE: Millis = Millis::mins(10);
/// Most moves a period may require, and most moves of a Canadian overtime period.
pub const MAX_MOVES: u32 = 1_000;
/// Most byo-yomi periods.
pub const MAX_BYO_YOMI_PERIODS: u32 = 100;
/// Longest byo-yomi or Canadian overtime period: a day.
pub const MAX_OVERTIME: Millis = Millis::mins(24 * 60);
/// Most time a director may set on a clock or add or take in one step (`Clock::set_time`,
/// `Clock::adjust`, `Clock::impose`): a week, like [`MAX_BASE`].
pub const MAX_SET_TIME: Millis = MAX_BASE;
/// Highest move counter a director may set (`Clock::set_moves`); counters past it only
/// saturate.
pub const MAX_SET_MOVES: u32 = 10_000;

/// Why a time control was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlError(pub String);

impl fmt::Display for ControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid time control: {}", self.0)
    }
}

impl std::error::Error for ControlError {}

/// A validated sequence of periods, plus whether the clock freezes at a flag. Its serde
/// form (in audit logs) is validated when read, like [`TimeControl::new`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawTimeControl")]
pub struct TimeControl {
    periods: Vec<Period>,
    freeze_at_flag: bool,
}

/// A time control as read, before validation.
#[derive(Deserialize)]
struct RawTimeControl {
    periods: Vec<Period>,
    freeze_at_flag: bool,
}

impl TryFrom<RawTimeControl> for TimeControl {
    type Error = ControlError;
    fn try_from(raw: RawTimeControl) -> Result<TimeControl, ControlError> {
        Ok(TimeControl::new(raw.periods)?.with_freeze_at_flag(raw.freeze_at_flag))
    }
}

/// Refuses a period whose numbers are out of the bounds above, naming the bound: the
/// bounds keep every sum and product of clock times far from the ends of `i64`.
fn check_bounds(n: usize, p: &Period) -> Result<(), String> {
    let ms = |t: Millis| t.as_ms();
    if p.base > MAX_BASE {
        return Err(format!(
            "period {n}: base time {} ms is above the bound of {} ms ({MAX_BASE})",
            ms(p.base),
            ms(MAX_BASE)
        ));
    }
    if let Some(moves) = p.moves.filter(|m| *m > MAX_MOVES) {
        return Err(format!(
            "period {n}: {moves} moves is above the bound of {MAX_MOVES} moves"
        ));
    }
    match p.method {
        TimingMethod::Fischer { increment: t }
        | TimingMethod::SimpleDelay { delay: t }
        | TimingMethod::Bronstein { delay: t }
            if t > MAX_PER_MOVE =>
        {
            Err(format!(
                "period {n}: increment or delay {} ms is above the bound of {} ms ({MAX_PER_MOVE})",
                ms(t),
                ms(MAX_PER_MOVE)
            ))
        }
        TimingMethod::ByoYomi { periods, .. } if periods > MAX_BYO_YOMI_PERIODS => Err(format!(
            "period {n}: {periods} byo-yomi periods is above the bound of {MAX_BYO_YOMI_PERIODS}"
        )),
        TimingMethod::Canadian { moves, .. } if moves > MAX_MOVES => Err(format!(
            "period {n}: {moves} Canadian moves is above the bound of {MAX_MOVES} moves"
        )),
        TimingMethod::ByoYomi { period_time: t, .. }
        | TimingMethod::Canadian { period_time: t, .. }
            if t > MAX_OVERTIME =>
        {
            Err(format!(
                "period {n}: overtime period {} ms is above the bound of {} ms ({MAX_OVERTIME})",
                ms(t),
                ms(MAX_OVERTIME)
            ))
        }
        _ => Ok(()),
    }
}

impl TimeControl {
    /// Validates `periods`. Every period but the last needs a move count; the last covers
    /// the rest of the game; times are not negative; count-up stands alone; every number
    /// is within its bound ([`MAX_PERIODS`], [`MAX_BASE`], [`MAX_PER_MOVE`],
    /// [`MAX_MOVES`], [`MAX_BYO_YOMI_PERIODS`], [`MAX_OVERTIME`]).
    ///
    /// Freezing at a flag is on when any period adds time per move, as a DGT 3000 does by
    /// default (FIDE equipment standard: with increment the clock freezes at a flag); it
    /// can be changed with [`TimeControl::with_freeze_at_flag`].
    pub fn new(periods: Vec<Period>) -> Result<TimeControl, ControlError> {
        let err = |s: String| Err(ControlError(s));
        let Some(last) = periods.last() else {
            return err("a time control needs at least one period".into());
        };
        if last.moves.is_some() {
            return err(
                "the last period covers the rest of the game: it takes no move count".into(),
            );
        }
        if periods.len() > MAX_PERIODS {
            return err(format!(
                "{} periods: at most {MAX_PERIODS} are allowed",
                periods.len()
            ));
        }
        for (i, p) in periods.iter().enumerate() {
            let n = i + 1;
            check_bounds(n, p).map_err(ControlError)?;
            if i + 1 < periods.len() && !matches!(p.moves, Some(k) if k > 0) {
                return err(format!(
                    "period {n} is not the last: it needs a move count above zero"
                ));
            }
            if p.base < Millis::ZERO {
                return err(format!("period {n} has a negative base time"));
            }
            match p.method {
                TimingMethod::Fischer { increment: t }
                | TimingMethod::SimpleDelay { delay: t }
                | TimingMethod::Bronstein { delay: t }
                    if t < Millis::ZERO =>
                {
                    return err(format!("period {n} has a negative increment or delay"));
                }
                TimingMethod::ByoYomi {
                    periods,
                    period_time,
                } if periods == 0 || period_time <= Millis::ZERO => {
                    return err(format!(
                        "period {n}: byo-yomi needs at least one period of some time"
                    ));
                }
                TimingMethod::Canadian { moves, period_time }
                    if moves == 0 || period_time <= Millis::ZERO =>
                {
                    return err(format!(
                        "period {n}: Canadian byo-yomi needs a move count and a period time"
                    ));
                }
                TimingMethod::CountUp if periods.len() > 1 => {
                    return err("count-up is a single-period mode".into());
                }
                _ => {}
            }
        }
        let total = periods.iter().fold(Millis::ZERO, |t, p| t + p.base);
        if total > MAX_BASE {
            return err(format!(
                "the base times add up to {} ms, above the bound of {} ms ({MAX_BASE})",
                total.as_ms(),
                MAX_BASE.as_ms()
            ));
        }
        let grants_nothing = periods
            .iter()
            .all(|p| p.base.is_spent() && !p.method.adds_time());
        if grants_nothing && !matches!(last.method, TimingMethod::CountUp) {
            return err("the control grants no time at all".into());
        }
        let freeze_at_flag = periods.iter().any(|p| p.method.adds_time());
        Ok(TimeControl {
            periods,
            freeze_at_flag,
        })
    }

    /// A single period for the whole game.
    pub fn single(base: Millis, method: TimingMethod) -> Result<TimeControl, ControlError> {
        TimeControl::new(vec![Period::new(base, None, method)])
    }

    /// Sets whether the clock freezes when a flag falls. When it does not (a DGT 3000 in
    /// TIME mode), the flagged side stays at zero and play may go on, so a second flag
    /// can fall; the clock always knows which fell first.
    pub fn with_freeze_at_flag(mut self, freeze: bool) -> TimeControl {
        self.freeze_at_flag = freeze;
        self
    }

    /// The periods, in order.
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The period at `index`, or the last one past the end.
    pub fn period(&self, index: usize) -> &Period {
        &self.periods[index.min(self.periods.len() - 1)]
    }

    /// Whether the clock freezes when a flag falls.
    pub fn freeze_at_flag(&self) -> bool {
        self.freeze_at_flag
    }

    /// The index of the period in force after `moves` completed moves, and the moves
    /// already made in it.
    pub fn period_after(&self, moves: u32) -> (usize, u32) {
        let mut left = moves;
        for (i, p) in self.periods.iter().enumerate() {
            match p.moves {
                Some(k) if left >= k && i + 1 < self.periods.len() => left -= k,
                _ => return (i, left),
            }
        }
        unreachable!("the last period has no move count")
    }

    // ---- presets ----

    /// Backgammon's match clock (rules 3.5, 4.2): a reserve of `match_length × per_point`
    /// with a simple delay of `delay` per turn.
    pub fn backgammon(
        match_length: u32,
        per_point: Millis,
        delay: Millis,
    ) -> Result<TimeControl, ControlError> {
        if match_length == 0 {
            return Err(ControlError(
                "the match length must be at least 1 point".into(),
            ));
        }
        TimeControl::single(
            per_point * i64::from(match_length),
            TimingMethod::SimpleDelay { delay },
        )
    }

    /// Backgammon defaults: 2 minutes per point and a 12-second simple delay.
    pub fn backgammon_default(match_length: u32) -> Result<TimeControl, ControlError> {
        TimeControl::backgammon(match_length, BACKGAMMON_PER_POINT, BACKGAMMON_DELAY)
    }

    /// FIDE classical: 90 minutes for 40 moves, then 30 minutes for the rest of the game,
    /// with 30 seconds added per move from move 1.
    pub fn fide_classical() -> TimeControl {
        let fischer = TimingMethod::Fischer {
            increment: Millis::secs(30),
        };
        TimeControl::new(vec![
            Period::new(Millis::mins(90), Some(40), fischer),
            Period::new(Millis::mins(30), None, fischer),
        ])
        .expect("preset is valid")
    }

    /// Rapid: 15 minutes plus 10 seconds per move.
    pub fn rapid() -> TimeControl {
        TimeControl::single(
            Millis::mins(15),
            TimingMethod::Fischer {
                increment: Millis::secs(10),
            },
        )
        .expect("preset is valid")
    }

    /// Blitz: 3 minutes plus 2 seconds per move.
    pub fn blitz() -> TimeControl {
        TimeControl::single(
            Millis::mins(3),
            TimingMethod::Fischer {
                increment: Millis::secs(2),
            },
        )
        .expect("preset is valid")
    }
}

/// Default backgammon match time per point (rules 3.5).
pub const BACKGAMMON_PER_POINT: Millis = Millis::mins(2);
/// Default backgammon simple delay (rules 3.5, 4.2).
pub const BACKGAMMON_DELAY: Millis = Millis::secs(12);

/// A named preset, as offered to directors and clients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Short machine-friendly name, e.g. `fide-classical`.
    pub name: &'static str,
    /// One line a director understands.
    pub description: String,
    /// The control itself.
    pub control: TimeControl,
}

/// Every preset; the backgammon one for a match of `match_length` points with the
/// default time per point and delay.
pub fn presets(match_length: u32) -> Result<Vec<Preset>, ControlError> {
    Ok(vec![
        Preset {
            name: "backgammon",
            description: format!(
                "backgammon {match_length}-point match: {BACKGAMMON_PER_POINT} per point, \
                 {BACKGAMMON_DELAY} simple delay"
            ),
            control: TimeControl::backgammon_default(match_length)?,
        },
        Preset {
            name: "fide-classical",
            description:
                "FIDE classical: 90 min for 40 moves, then 30 min, 30 s per move from move 1".into(),
            control: TimeControl::fide_classical(),
        },
        Preset {
            name: "rapid",
            description: "rapid: 15 min + 10 s per move".into(),
            control: TimeControl::rapid(),
        },
        Preset {
            name: "blitz",
            description: "blitz: 3 min + 2 s per move".into(),
            control: TimeControl::blitz(),
        },
    ])
}
