//! How time is taken from and given to a side beyond its main time: the overtime stages
//! of byo-yomi and Canadian byo-yomi, and the Fischer increment.

use super::control::TimingMethod;
use super::side::{SideClock, Stage};
use crate::time::Millis;

/// Overtime still to come after the current stage: byo-yomi periods not yet entered, or
/// the Canadian period that follows the main time.
pub(super) fn overtime_reserve(method: TimingMethod, stage: Stage) -> Millis {
    match (method, stage) {
        (
            TimingMethod::ByoYomi {
                periods,
                period_time,
            },
            Stage::Main,
        ) => period_time * i64::from(periods),
        (TimingMethod::ByoYomi { period_time, .. }, Stage::ByoYomi { left }) => {
            period_time * i64::from(left)
        }
        (TimingMethod::Canadian { period_time, .. }, Stage::Main) => period_time,
        _ => Millis::ZERO,
    }
}

pub(super) fn fischer_increment(method: TimingMethod) -> Millis {
    match method {
        TimingMethod::Fischer { increment } => increment,
        _ => Millis::ZERO,
    }
}

/// Takes `amount` from a side's main time, entering overtime stages the way tournament
/// clocks do. Never leaves the time below zero.
pub(super) fn take(s: &mut SideClock, method: TimingMethod, amount: Millis) {
    s.main -= amount;
    loop {
        match (method, s.stage) {
            (
                TimingMethod::ByoYomi {
                    periods,
                    period_time,
                },
                Stage::Main,
            ) if s.main <= Millis::ZERO => {
                s.main += period_time;
                s.stage = Stage::ByoYomi { left: periods - 1 };
            }
            (TimingMethod::ByoYomi { period_time, .. }, Stage::ByoYomi { left })
                if s.main <= Millis::ZERO && left > 0 =>
            {
                s.main += period_time;
                s.stage = Stage::ByoYomi { left: left - 1 };
            }
            (TimingMethod::Canadian { moves, period_time }, Stage::Main)
                if s.main <= Millis::ZERO =>
            {
                s.main += period_time;
                s.stage = Stage::Canadian { moves_left: moves };
            }
            _ => break,
        }
    }
    s.main = s.main.max(Millis::ZERO);
}
