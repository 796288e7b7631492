//! Conversions between `baffle.v1` wire types and `baffle-core` values.
//!
//! Wire → core conversions validate: a malformed message becomes a [`WireError`] that
//! says which field is wrong, never a panic.

use std::fmt;

use baffle_core::clock::{
    Clock, Flag, PauseReason, Period, Preset, SideView, Stage, TimeControl, TimingMethod,
};
use baffle_core::{Millis, Side, Timestamp};

use crate::v1;

/// A wire message that cannot be turned into a core value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError(pub String);

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WireError {}

/// The wire value of a side.
pub fn side_to_wire(side: Side) -> v1::Side {
    match side {
        Side::A => v1::Side::A,
        Side::B => v1::Side::B,
    }
}

/// The side a wire value names; `SIDE_UNSPECIFIED` and unknown values are refused.
pub fn side_from_wire(value: i32) -> Result<Side, WireError> {
    match v1::Side::try_from(value) {
        Ok(v1::Side::A) => Ok(Side::A),
        Ok(v1::Side::B) => Ok(Side::B),
        _ => Err(WireError(format!(
            "side must be SIDE_A or SIDE_B, not {value}"
        ))),
    }
}

/// The wire value of a pause reason.
pub fn pause_reason_to_wire(reason: PauseReason) -> v1::PauseReason {
    use v1::PauseReason as W;
    match reason {
        PauseReason::GameOver => W::GameOver,
        PauseReason::Break => W::Break,
        PauseReason::DirectorCalled => W::DirectorCalled,
        PauseReason::DirectorStopped => W::DirectorStopped,
        PauseReason::DicePickedUpEarly => W::DicePickedUpEarly,
        PauseReason::IllegalMoveReplay => W::IllegalMoveReplay,
        PauseReason::ResultSettled => W::ResultSettled,
        PauseReason::InvalidRoll => W::InvalidRoll,
        PauseReason::RollDisputed => W::RollDisputed,
        PauseReason::AwaitingLinks => W::AwaitingLinks,
    }
}

/// The pause reason a wire value names; unspecified and unknown values are refused.
pub fn pause_reason_from_wire(value: i32) -> Result<PauseReason, WireError> {
    PauseReason::ALL
        .into_iter()
        .find(|r| pause_reason_to_wire(*r) as i32 == value)
        .ok_or_else(|| {
            WireError(format!(
                "pause reason {value} is not one of the reasons the rules allow"
            ))
        })
}

impl From<TimingMethod> for v1::TimingMethod {
    fn from(m: TimingMethod) -> Self {
        use v1::timing_method::Method as W;
        let method = match m {
            TimingMethod::SuddenDeath => W::SuddenDeath(v1::SuddenDeath {}),
            TimingMethod::Fischer { increment } => W::Fischer(v1::Fischer {
                increment_ms: increment.as_ms(),
            }),
            TimingMethod::SimpleDelay { delay } => W::SimpleDelay(v1::SimpleDelay {
                delay_ms: delay.as_ms(),
            }),
            TimingMethod::Bronstein { delay } => W::Bronstein(v1::Bronstein {
                delay_ms: delay.as_ms(),
            }),
            TimingMethod::ByoYomi {
                periods,
                period_time,
            } => W::ByoYomi(v1::ByoYomi {
                periods,
                period_ms: period_time.as_ms(),
            }),
            TimingMethod::Canadian { moves, period_time } => W::Canadian(v1::Canadian {
                moves,
                period_ms: period_time.as_ms(),
            }),
            TimingMethod::CountUp => W::CountUp(v1::CountUp {}),
        };
        v1::TimingMethod {
            method: Some(method),
        }
    }
}

impl TryFrom<v1::TimingMethod> for TimingMethod {
    type Error = WireError;
    fn try_from(m: v1::TimingMethod) -> Result<Self, WireError> {
        use v1::timing_method::Method as W;
        Ok(match m.method {
            None => {
                return Err(WireError(
                    "timing method: exactly one method must be set".into(),
                ));
            }
            Some(W::SuddenDeath(_)) => TimingMethod::SuddenDeath,
            Some(W::Fischer(f)) => TimingMethod::Fischer {
                increment: Millis(f.increment_ms),
            },
            Some(W::SimpleDelay(d)) => TimingMethod::SimpleDelay {
                delay: Millis(d.delay_ms),
            },
            Some(W::Bronstein(d)) => TimingMethod::Bronstein {
                delay: Millis(d.delay_ms),
            },
            Some(W::ByoYomi(b)) => TimingMethod::ByoYomi {
                periods: b.periods,
                period_time: Millis(b.period_ms),
            },
            Some(W::Canadian(c)) => TimingMethod::Canadian {
                moves: c.moves,
                period_time: Millis(c.period_ms),
            },
            Some(W::CountUp(_)) => TimingMethod::CountUp,
        })
    }
}

impl From<&TimeControl> for v1::TimeControl {
    fn from(c: &TimeControl) -> Self {
        v1::TimeControl {
            periods: c
                .periods()
                .iter()
                .map(|p| v1::Period {
                    base_ms: p.base.as_ms(),
                    moves: p.moves,
                    method: Some(p.method.into()),
                })
                .collect(),
            freeze_at_flag: Some(c.freeze_at_flag()),
        }
    }
}

impl TryFrom<v1::TimeControl> for TimeControl {
    type Error = WireError;
    fn try_from(c: v1::TimeControl) -> Result<Self, WireError> {
        let periods = c
            .periods
            .into_iter()
            .enumerate()
            .map(|(i, p)| {
                let method = p
                    .method
                    .ok_or_else(|| WireError(format!("period {}: method is required", i + 1)))?
                    .try_into()
                    .map_err(|e: WireError| WireError(format!("period {}: {e}", i + 1)))?;
                Ok(Period::new(Millis(p.base_ms), p.moves, method))
            })
            .collect::<Result<Vec<_>, WireError>>()?;
        let control = TimeControl::new(periods).map_err(|e| WireError(e.to_string()))?;
        // Unset keeps the control's own default (on when a period adds time per move).
        Ok(match c.freeze_at_flag {
            Some(freeze) => control.with_freeze_at_flag(freeze),
            None => control,
        })
    }
}

impl From<&Preset> for v1::Preset {
    fn from(p: &Preset) -> Self {
        v1::Preset {
            name: p.name.to_string(),
            description: p.description.clone(),
            control: Some((&p.control).into()),
        }
    }
}

fn side_clock(v: SideView) -> v1::SideClock {
    let (stage, count) = match v.stage {
        Stage::Main => (v1::Stage::Main, 0),
        Stage::ByoYomi { left } => (v1::Stage::ByoYomi, left),
        Stage::Canadian { moves_left } => (v1::Stage::Canadian, moves_left),
    };
    v1::SideClock {
        main_ms: v.main.as_ms(),
        delay_ms: v.delay.as_ms(),
        total_ms: v.total.as_ms(),
        moves: v.moves,
        period: u32::try_from(v.period).unwrap_or(u32::MAX),
        moves_in_period: v.moves_in_period,
        stage: stage as i32,
        stage_count: count,
        flagged_at_ms: v.flagged_at.map(Timestamp::as_ms),
        must_wait_delay: v.must_wait_delay,
    }
}

fn flag(f: Flag) -> v1::Flag {
    v1::Flag {
        side: side_to_wire(f.side) as i32,
        at_ms: f.at.as_ms(),
    }
}

/// The wire state of `clock` as it stands at `now`.
pub fn clock_state(clock: &Clock, now: Timestamp) -> v1::ClockState {
    let settled = clock.at(now);
    let now = settled.last_operation();
    v1::ClockState {
        as_of_ms: now.as_ms(),
        control: Some(settled.control().into()),
        a: Some(side_clock(settled.view(Side::A, now))),
        b: Some(side_clock(settled.view(Side::B, now))),
        // A paused clock is stopped: nobody's time runs (`paused_side` says whose will).
        running: settled
            .running()
            .filter(|_| settled.pause().is_none())
            .map_or(v1::Side::Unspecified, side_to_wire) as i32,
        paused_side: settled
            .running()
            .filter(|_| settled.pause().is_some())
            .map_or(v1::Side::Unspecified, side_to_wire) as i32,
        paused: settled.pause().map_or(v1::PauseReason::Unspecified, |p| {
            pause_reason_to_wire(p.reason)
        }) as i32,
        next_flag_at_ms: settled.next_flag_at().map(Timestamp::as_ms),
        first_flag: settled.first_flag().map(flag),
        frozen: settled.is_frozen(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use baffle_core::clock::presets;

    #[test]
    fn every_preset_survives_the_round_trip() {
        for p in presets(11).unwrap() {
            let wire = v1::TimeControl::from(&p.control);
            assert_eq!(
                TimeControl::try_from(wire).unwrap(),
                p.control,
                "{}",
                p.name
            );
        }
        for m in [
            TimingMethod::Bronstein { delay: Millis(3) },
            TimingMethod::ByoYomi {
                periods: 5,
                period_time: Millis(30_000),
            },
            TimingMethod::Canadian {
                moves: 20,
                period_time: Millis(300_000),
            },
            TimingMethod::CountUp,
        ] {
            let c = TimeControl::single(Millis(60_000), m).unwrap();
            assert_eq!(TimeControl::try_from(v1::TimeControl::from(&c)).unwrap(), c);
        }
    }

    #[test]
    fn an_unset_freeze_at_flag_keeps_the_controls_default_and_a_set_one_is_kept() {
        let fischer = |freeze_at_flag| v1::TimeControl {
            freeze_at_flag,
            ..v1::TimeControl::from(&TimeControl::blitz())
        };
        // Issue 21: a custom Fischer control that leaves the field out freezes, as the
        // field's documentation says; one that says "off" does not.
        assert!(
            TimeControl::try_from(fischer(None))
                .unwrap()
                .freeze_at_flag()
        );
        assert!(
            !TimeControl::try_from(fischer(Some(false)))
                .unwrap()
                .freeze_at_flag()
        );
        let sudden = TimeControl::single(Millis(60_000), TimingMethod::SuddenDeath).unwrap();
        let wire = v1::TimeControl {
            freeze_at_flag: None,
            ..v1::TimeControl::from(&sudden)
        };
        assert!(!TimeControl::try_from(wire).unwrap().freeze_at_flag());
        assert_eq!(v1::TimeControl::from(&sudden).freeze_at_flag, Some(false));
    }

    #[test]
    fn malformed_controls_are_refused_with_the_field_named() {
        let no_method = v1::TimeControl {
            periods: vec![v1::Period {
                base_ms: 1,
                moves: None,
                method: None,
            }],
            freeze_at_flag: None,
        };
        assert!(
            TimeControl::try_from(no_method)
                .unwrap_err()
                .0
                .contains("period 1: method")
        );
        let empty_oneof = v1::TimeControl {
            periods: vec![v1::Period {
                base_ms: 1,
                moves: None,
                method: Some(v1::TimingMethod { method: None }),
            }],
            freeze_at_flag: None,
        };
        assert!(TimeControl::try_from(empty_oneof).is_err());
        assert!(TimeControl::try_from(v1::TimeControl::default()).is_err());
        assert!(side_from_wire(0).is_err());
        assert!(side_from_wire(99).is_err());
        assert!(pause_reason_from_wire(0).is_err());
        for r in PauseReason::ALL {
            assert_eq!(
                pause_reason_from_wire(pause_reason_to_wire(r) as i32),
                Ok(r)
            );
        }
    }

    #[test]
    fn clock_state_reports_the_running_clock() {
        let mut clock = Clock::new(TimeControl::backgammon_default(5).unwrap(), Timestamp(0));
        clock.start(Side::B, Timestamp(0)).unwrap();
        let s = clock_state(&clock, Timestamp(20_000));
        assert_eq!(s.as_of_ms, 20_000);
        assert_eq!(s.running, v1::Side::B as i32);
        let b = s.b.unwrap();
        assert_eq!((b.main_ms, b.delay_ms), (600_000 - 8_000, 0));
        assert_eq!(s.next_flag_at_ms, Some(612_000));
        assert_eq!(s.a.unwrap().delay_ms, 12_000);
    }
}
