//! The category of a game, which decides the illegal-move penalty and which appendix
//! applies: FIDE measures a time control as the time for 60 moves — the base time of
//! every period that starts within the first 60 moves, plus 60 × the increment (or
//! delay) of the first period.

use crate::clock::TimeControl;
use crate::time::Millis;

/// Standard, rapid or blitz.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Standard (classical) chess.
    Standard,
    /// Rapid (2009 Appendix A).
    Rapid,
    /// Blitz (2009 Appendix B).
    Blitz,
}

/// Which edition's boundaries and penalties apply.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Laws {
    /// The 2009 Laws: blitz under 15 minutes, rapid 15 to under 60; an illegal move
    /// gives the opponent two minutes in every category.
    Fide2009,
    /// The later Laws: blitz 10 minutes or less, rapid over 10 and under 60; an illegal
    /// move gives one minute in blitz and rapid, two in standard.
    #[default]
    Later,
}

/// The time for 60 moves under `control`.
pub fn time_for_60_moves(control: &TimeControl) -> Millis {
    let mut total = Millis::ZERO;
    let mut start = 0u32;
    for period in control.periods() {
        if start < 60 {
            total += period.base;
        }
        match period.moves {
            Some(m) => start += m,
            None => break,
        }
    }
    let per_move = match control.period(0).method {
        crate::clock::TimingMethod::Fischer { increment } => increment,
        method => method.delay(),
    };
    total + Millis(per_move.as_ms() * 60)
}

/// The category of `control` under `laws` (2009 A.1, B.1; later Laws).
pub fn category(control: &TimeControl, laws: Laws) -> Category {
    let t = time_for_60_moves(control);
    let blitz = match laws {
        Laws::Fide2009 => t < Millis::mins(15),
        Laws::Later => t <= Millis::mins(10),
    };
    if blitz {
        Category::Blitz
    } else if t < Millis::mins(60) {
        Category::Rapid
    } else {
        Category::Standard
    }
}

/// The time the opponent gets for a first illegal move (7.5; later Laws).
pub fn illegal_move_bonus(category: Category, laws: Laws) -> Millis {
    match (laws, category) {
        (_, Category::Standard) | (Laws::Fide2009, _) => Millis::mins(2),
        (Laws::Later, _) => Millis::mins(1),
    }
}
