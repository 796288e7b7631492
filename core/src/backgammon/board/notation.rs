//! Move notation as players and GNU Backgammon write it: `24/18 13/11`, `bar/22`,
//! `6/off`, `13/7*`, `8/5(2)`, `13/9*/7`. A reported play is accepted when the position
//! it leaves is the position of a legal play of the roll (as wildbg and bkgm check):
//! which die moved which checker first does not matter, where the checkers end does.

use std::fmt;

use super::moves::{Play, Step, legal_plays};
use super::{BAR, Position};
use crate::backgammon::error::RuleError;
use crate::dice::Roll;

/// One checker's move as written: from a point to a point, by one or more dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// 1–24, or 25 for the bar.
    pub from: u8,
    /// 1–24, or 0 for off.
    pub to: u8,
}

/// A play as written: its segments, in order, each repeat spelled out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notation {
    /// The segments; a checker moving `13/9*/7` is two, `13/9` and `9/7`.
    pub segments: Vec<Segment>,
}

/// The most segments a play can have (four dice, each its own checker); more is not a play.
const MAX_SEGMENTS: usize = 4;

impl Notation {
    /// Reads a play. Points are 1–24, `bar` or 25, and `off` or 0; `*` marks a hit and is
    /// informative (the position decides); `(n)` repeats a move n times. An empty text
    /// (or `-`) is no move.
    pub fn parse(text: &str) -> Result<Notation, RuleError> {
        let mut segments = Vec::new();
        for token in text.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() || token == "-" {
                continue;
            }
            let (path, repeat) = split_repeat(token)?;
            if !path.contains('/') {
                return Err(bad(token, "a move is written from/to, e.g. 24/18"));
            }
            let points = path
                .split('/')
                .map(|p| parse_point(p.trim_end_matches('*'), token))
                .collect::<Result<Vec<u8>, RuleError>>()?;
            if points.len() < 2 {
                return Err(bad(token, "a move is written from/to, e.g. 24/18"));
            }
            for _ in 0..repeat {
                for pair in points.windows(2) {
                    if pair[1] >= pair[0] || pair[0] == 0 || pair[1] == 25 {
                        return Err(bad(
                            token,
                            "a checker moves towards its home: from a higher point to a lower one",
                        ));
                    }
                    segments.push(Segment {
                        from: pair[0],
                        to: pair[1],
                    });
                    if segments.len() > MAX_SEGMENTS {
                        return Err(bad(text, "a play moves checkers by at most four dice"));
                    }
                }
            }
        }
        Ok(Notation { segments })
    }

    /// The position the written moves leave, seen from the mover, or why they cannot be
    /// made at all (no checker there, a point the opponent holds). A blot on a segment's
    /// end is hit; a compound move hits on the way only where written (`13/9*/7`).
    pub fn result(&self, pos: &Position) -> Result<Position, RuleError> {
        let mut next = *pos;
        for s in &self.segments {
            let from = usize::from(s.from) - 1;
            if next.sides()[0][from] == 0 {
                return Err(RuleError::rule(
                    "4.2 (iii)",
                    format!(
                        "there is no checker of the player on roll on {}",
                        point_name(s.from)
                    ),
                ));
            }
            if s.to > 0 {
                let opp = 24 - usize::from(s.to);
                match next.sides()[1][opp] {
                    0 => {}
                    1 => {
                        let o = next.side_mut(1);
                        o[opp] = 0;
                        o[BAR] += 1;
                    }
                    _ => {
                        return Err(RuleError::rule(
                            "4.2 (iii)",
                            format!("the point {} is held by the opponent", s.to),
                        ));
                    }
                }
                next.side_mut(0)[usize::from(s.to) - 1] += 1;
            }
            next.side_mut(0)[from] -= 1;
        }
        Ok(next)
    }
}

/// Accepts a reported play of `dice` in `pos` if it leaves the position of a legal play
/// and returns that play; otherwise refuses it naming 4.2 (iii), and says why when the
/// reason is simple (dice left unplayed, the lower die played for the higher).
pub fn accept(pos: &Position, dice: Roll, text: &str) -> Result<Play, RuleError> {
    let notation = Notation::parse(text)?;
    let plays = legal_plays(pos, dice)?;
    let result = notation.result(pos)?;
    if let Some(play) = plays.iter().find(|p| p.result == result) {
        return Ok(play.clone());
    }
    let needed = plays.first().map_or(0, |p| p.steps.len());
    let why = if needed == 0 {
        "no die can be played".to_string()
    } else {
        format!(
            "a legal play uses {needed} {} (as many as can be played, the higher when only one can)",
            if needed == 1 { "die" } else { "dice" }
        )
    };
    Err(RuleError::rule(
        "4.2 (iii)",
        format!(
            "'{}' is not a legal play of {}-{}: {why}; {} legal plays, e.g. {}",
            text.trim(),
            dice[0],
            dice[1],
            plays.len(),
            plays.first().map_or(String::new(), Play::to_string)
        ),
    ))
}

fn split_repeat(token: &str) -> Result<(&str, u8), RuleError> {
    let Some(open) = token.find('(') else {
        return Ok((token, 1));
    };
    let count = token[open..]
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| (1..=4).contains(n))
        .ok_or_else(|| bad(token, "a repeat is written (2), (3) or (4)"))?;
    Ok((&token[..open], count))
}

fn parse_point(p: &str, token: &str) -> Result<u8, RuleError> {
    match p.to_ascii_lowercase().as_str() {
        "bar" => Ok(25),
        "off" => Ok(0),
        // 25 and 0 are the bar and off as `.mat` files write them.
        n => n
            .parse::<u8>()
            .ok()
            .filter(|n| *n <= 25)
            .ok_or_else(|| bad(token, "points are 1 to 24, bar (25) or off (0)")),
    }
}

fn bad(token: &str, why: &str) -> RuleError {
    RuleError::invalid(
        "4.2 (iii)",
        format!("cannot read the move '{token}': {why}"),
    )
}

fn point_name(p: u8) -> String {
    match p {
        25 => "the bar".into(),
        0 => "off".into(),
        n => format!("the point {n}"),
    }
}

struct Written(u8);

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            25 => f.write_str("bar"),
            0 => f.write_str("off"),
            n => write!(f, "{n}"),
        }
    }
}

/// Steps written as GNU Backgammon does: a checker's consecutive steps are one move
/// (`24/18`, `13/9*/7` when it hits on the way), highest start first, repeats `(n)`.
pub(crate) fn format_steps(steps: &[Step]) -> String {
    // Chains of one checker: a step continues the chain that ended where it starts.
    let mut chains: Vec<Vec<Step>> = Vec::new();
    for s in steps {
        match chains
            .iter_mut()
            .find(|c| c.last().is_some_and(|l| l.to == s.from && l.to != 0))
        {
            Some(chain) => chain.push(*s),
            None => chains.push(vec![*s]),
        }
    }
    chains.sort_by(|a, b| (b[0].from, b[b.len() - 1].to).cmp(&(a[0].from, a[a.len() - 1].to)));
    let written: Vec<String> = chains
        .iter()
        .map(|chain| {
            let mut text = Written(chain[0].from).to_string();
            for (i, s) in chain.iter().enumerate() {
                if s.hit || i + 1 == chain.len() {
                    text.push_str(&format!("/{}", Written(s.to)));
                    if s.hit {
                        text.push('*');
                    }
                }
            }
            text
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < written.len() {
        let run = written[i..]
            .iter()
            .take_while(|w| **w == written[i])
            .count();
        out.push(if run > 1 {
            format!("{}({run})", written[i])
        } else {
            written[i].clone()
        });
        i += run;
    }
    out.join(" ")
}
