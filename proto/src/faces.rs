//! Clock faces that tick locally between updates, for every display (console, follow view,
//! device, web page): a `ClockState` says where both clocks stood at `as_of_ms`; the
//! running side's delay runs down first, then its main time, until the flag instant the
//! server gave. Only a display: the server stays the record.

use crate::v1;

/// One side as a display shows it at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face {
    /// Main time left (ms), never below zero.
    pub main_ms: i64,
    /// Delay left (ms).
    pub delay_ms: i64,
    /// Whether this side's clock runs now.
    pub running: bool,
    /// Whether its flag has fallen.
    pub flagged: bool,
}

/// Both faces of `clock` at `now_ms`.
pub fn faces(clock: &v1::ClockState, now_ms: i64) -> [Face; 2] {
    let running = v1::Side::try_from(clock.running).ok();
    let moving = clock.paused == 0 && !clock.frozen;
    let sides = [(v1::Side::A, clock.a), (v1::Side::B, clock.b)];
    sides.map(|(side, c)| {
        let c = c.unwrap_or_default();
        let on = moving && running == Some(side) && c.flagged_at_ms.is_none();
        let mut face = Face {
            main_ms: c.main_ms,
            delay_ms: c.delay_ms,
            running: on,
            flagged: c.flagged_at_ms.is_some(),
        };
        if on {
            let elapsed = (now_ms - clock.as_of_ms).max(0);
            let from_delay = elapsed.min(face.delay_ms);
            face.delay_ms -= from_delay;
            face.main_ms = (face.main_ms - (elapsed - from_delay)).max(0);
            if clock.next_flag_at_ms.is_some_and(|f| now_ms >= f) {
                face.flagged = true;
                face.main_ms = 0;
            }
        }
        face
    })
}

/// "13:42.0", "0:09.5", "1:30:00.0".
pub fn mmss(ms: i64) -> String {
    baffle_core::Millis(ms).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_running_side_uses_its_delay_first() {
        let clock = v1::ClockState {
            as_of_ms: 1_000,
            running: v1::Side::B as i32,
            a: Some(v1::SideClock {
                main_ms: 60_000,
                delay_ms: 12_000,
                ..Default::default()
            }),
            b: Some(v1::SideClock {
                main_ms: 60_000,
                delay_ms: 12_000,
                ..Default::default()
            }),
            next_flag_at_ms: Some(1_000 + 72_000),
            ..Default::default()
        };
        let [a, b] = faces(&clock, 21_000);
        assert_eq!((a.main_ms, a.delay_ms, a.running), (60_000, 12_000, false));
        assert_eq!((b.main_ms, b.delay_ms, b.running), (52_000, 0, true));
        let [_, b] = faces(&clock, 80_000);
        assert!(b.flagged && b.main_ms == 0);
        let paused = v1::ClockState {
            paused: v1::PauseReason::Break as i32,
            ..clock
        };
        assert_eq!(faces(&paused, 80_000)[1].main_ms, 60_000);
    }
}
