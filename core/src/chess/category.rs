//! The category of a game and what each edition of the Laws makes of it: FIDE measures a
//! time control as the time for 60 moves — the base time of every period that starts
//! within the first 60 moves, plus 60 × the first period's increment (2009 A.1, B.1;
//! 2014 and later A.1, B.1: "the allotted time plus 60 times any increment"). A delay is
//! not an increment (6.3 (b) names time-delay mode apart from increments), so a delay
//! does not count.
//!
//! [`Laws`] names the edition; every rule that differs between editions is a function of
//! it here, so the difference table of `docs/chess.md` is this file.

use crate::clock::{TimeControl, TimingMethod};
use crate::time::Millis;

/// Standard, rapid or blitz.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Standard (classical) chess.
    Standard,
    /// Rapid (Appendix A).
    Rapid,
    /// Blitz (Appendix B).
    Blitz,
}

/// The edition of the FIDE Laws in force.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Laws {
    /// The 2009 Laws (the Greek seed): blitz under 15 minutes; two minutes to the
    /// opponent for each of the first two illegal moves, the third loses (7.4 (b));
    /// quickplay finish in Article 10.2.
    #[serde(rename = "fide2009")]
    Fide2009,
    /// The 2014 Laws (the Greek and English seed): blitz 10 minutes or less; two minutes
    /// for the first illegal move, the second loses (7.5 (b)); quickplay finish in
    /// Appendix G.
    #[serde(rename = "fide2014")]
    Fide2014,
    /// The 2018 Laws (the Hungarian seed's numbering): as 2014, but one minute for an
    /// illegal move in blitz; quickplay finish in Guidelines III.
    #[serde(rename = "fide2018")]
    Fide2018,
    /// The 2023 Laws: as 2018, but one minute also in rapid. Spelled `later` in logs,
    /// the name it had before editions were named, so older logs read the same.
    #[default]
    #[serde(rename = "later")]
    Fide2023,
}

impl Laws {
    /// Every edition, oldest first.
    pub const ALL: [Laws; 4] = [
        Laws::Fide2009,
        Laws::Fide2014,
        Laws::Fide2018,
        Laws::Fide2023,
    ];

    /// The year of the edition.
    pub const fn year(self) -> u16 {
        match self {
            Laws::Fide2009 => 2009,
            Laws::Fide2014 => 2014,
            Laws::Fide2018 => 2018,
            Laws::Fide2023 => 2023,
        }
    }

    /// "FIDE 2014", for displays.
    pub fn label(self) -> String {
        format!("FIDE {}", self.year())
    }

    /// Where the edition puts the quickplay-finish rules.
    pub const fn quickplay_article(self) -> &'static str {
        match self {
            Laws::Fide2009 => "10.2",
            Laws::Fide2014 => "G",
            Laws::Fide2018 | Laws::Fide2023 => "Guidelines III",
        }
    }

    /// Where the edition puts the illegal-move penalty.
    pub const fn illegal_move_article(self) -> &'static str {
        match self {
            Laws::Fide2009 => "7.4 (b)",
            Laws::Fide2014 => "7.5 (b)",
            Laws::Fide2018 | Laws::Fide2023 => "7.5.5",
        }
    }
}

/// What illegal moves cost under an edition, in a category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMovePenalty {
    /// Time given to the opponent for each illegal move that does not lose.
    pub bonus: Millis,
    /// The illegal move that loses the game (1 = the first).
    pub losing: u32,
    /// The article that says so.
    pub article: &'static str,
}

/// The penalty for illegal moves under `laws` in `category`, with or without adequate
/// supervision.
///
/// - 2009: 7.4 (b), two minutes for each of the first two, the third loses; in blitz
///   without adequate supervision B.3 (c): the first loses, on the opponent's claim.
/// - 2014: 7.5 (b), two minutes for the first, the second loses; in rapid and blitz
///   without adequate supervision A.4 (b) (and B.4, which applies it to blitz): the first
///   completed illegal move loses.
/// - 2018: 7.5.5, as 2014 but one minute in blitz (B.3, "1 minute instead of 2").
/// - 2023: as 2018, and one minute in rapid too.
pub fn illegal_move_penalty(
    laws: Laws,
    category: Category,
    supervised: bool,
) -> IllegalMovePenalty {
    let article = laws.illegal_move_article();
    let (bonus, losing) = match (laws, category) {
        (Laws::Fide2009, Category::Blitz) if !supervised => {
            return IllegalMovePenalty {
                bonus: Millis::ZERO,
                losing: 1,
                article: "B.3 (c)",
            };
        }
        (Laws::Fide2009, _) => (Millis::mins(2), 3),
        (Laws::Fide2014, Category::Rapid | Category::Blitz) if !supervised => {
            return IllegalMovePenalty {
                bonus: Millis::ZERO,
                losing: 1,
                article: if category == Category::Rapid {
                    "A.4 (b)"
                } else {
                    "B.4, A.4 (b)"
                },
            };
        }
        (Laws::Fide2014, _) | (_, Category::Standard) => (Millis::mins(2), 2),
        (Laws::Fide2018, Category::Rapid) => (Millis::mins(2), 2),
        (Laws::Fide2018 | Laws::Fide2023, _) => (Millis::mins(1), 2),
    };
    IllegalMovePenalty {
        bonus,
        losing,
        article,
    }
}

/// Whether a quickplay-finish claim may be made under `laws` in `category`: 2009 10.2
/// applies except in blitz without adequate supervision (B.3 (b)); from 2014 the rules
/// are for standard and rapid games only, never blitz (G.3; Guidelines III.2.2).
pub fn quickplay_applies(laws: Laws, category: Category, supervised: bool) -> bool {
    match (laws, category) {
        (_, Category::Standard | Category::Rapid) => true,
        (Laws::Fide2009, Category::Blitz) => supervised,
        (_, Category::Blitz) => false,
    }
}

/// Whether the arbiter may answer a quickplay claim by introducing an increment (or
/// delay) for both: not in 2009 10.2, which knows only a draw, a postponement or a
/// rejection; from 2014 on G.4 / III.4, with two extra minutes to the opponent.
pub const fn quickplay_increment_allowed(laws: Laws) -> bool {
    !matches!(laws, Laws::Fide2009)
}

/// The time for 60 moves under `control`: base times of the periods that start within
/// the first 60 moves, plus 60 × the first period's Fischer increment. Delays do not
/// count (see the module documentation).
pub fn time_for_60_moves(control: &TimeControl) -> Millis {
    let mut total = Millis::ZERO;
    let mut start = 0u32;
    for period in control.periods() {
        if start < 60 {
            total += period.base;
        }
        match period.moves {
            Some(m) => start = start.saturating_add(m),
            None => break,
        }
    }
    let per_move = match control.period(0).method {
        TimingMethod::Fischer { increment } => increment,
        _ => Millis::ZERO,
    };
    total + per_move * 60
}

/// The category of `control` under `laws`: 2009 A.1, B.1 (blitz under 15 minutes, rapid
/// 15 to under 60); 2014 and later A.1, B.1 (blitz 10 minutes or less, rapid over 10 and
/// under 60).
pub fn category(control: &TimeControl, laws: Laws) -> Category {
    let t = time_for_60_moves(control);
    let blitz = match laws {
        Laws::Fide2009 => t < Millis::mins(15),
        Laws::Fide2014 | Laws::Fide2018 | Laws::Fide2023 => t <= Millis::mins(10),
    };
    if blitz {
        Category::Blitz
    } else if t < Millis::mins(60) {
        Category::Rapid
    } else {
        Category::Standard
    }
}
