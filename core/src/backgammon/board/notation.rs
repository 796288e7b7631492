//! Move notation as players and GNU Backgammon write it: `24/18 13/11`, `bar/22`,
//! `6/off`, `13/7*`, `8/5(2)`, `13/9*/7`. A reported play is accepted when the position
//! it leaves is the position of a legal play of the roll (as wildbg and bkgm check):
//! which die moved which checker first does not matter, where the checkers end does.

use std::fmt;

use super::moves::legal_plays;
use super::play::{Play, Step};
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

/// A play as GNU Backgammon writes it in a `.mat` file, or `None` if no legal play of
/// the roll leaves `result`. Each die is its own step (`24/18 18/16`), the bar is 25 and
/// off 0, and a step is starred when it lands where the opponent had a checker before
/// the play and no earlier step of the play landed (gnubg's `FormatMovePlain`). Steps
/// are in gnubg's canonical order, the highest start first and, from the same point, the
/// highest end first (its `CanonicalMoveOrder`, applied to every move it reads): gnubg
/// writes back the play of a file it imports in that order. Where one checker moves
/// with both dice, the point it touches on the way is the one gnubg's move generator
/// finds first with the dice in `rolled` order, as gnubg spells its own plays.
pub(crate) fn mat_spelling(pos: &Position, rolled: Roll, result: &Position) -> Option<String> {
    let mut steps = gnubg_route(pos, rolled, result)?;
    steps.sort_by_key(|&s| std::cmp::Reverse(s));
    Some(mat_text(pos, &steps))
}

/// Steps written as gnubg's `FormatMovePlain` writes them (joined by spaces): a star
/// where the opponent had a checker before the play and no earlier step landed.
fn mat_text(pos: &Position, steps: &[GnubgStep]) -> String {
    let opponent = &pos.sides()[1];
    let written: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(i, &(from, to))| {
            let had_checker = to > 0 && opponent[24 - usize::from(to)] > 0;
            let first_there = steps[..i].iter().all(|s| s.1 != to);
            let star = if had_checker && first_there { "*" } else { "" };
            format!("{from}/{to}{star}")
        })
        .collect();
    written.join(" ")
}

/// A single-die step as gnubg's generator makes it: the points from (25 the bar) and to
/// (0 off), in the mover's numbering.
type GnubgStep = (u8, u8);

/// The search gnubg's move generator makes (`GenerateMoves`): for each die in turn, the
/// checkers from the highest point down (the bar alone while a checker is on it); after a
/// double's step only checkers on that point or lower; for two different dice, the rolled
/// order first and then the other. A sequence ends where the next die cannot be played;
/// the plays kept are those using the most dice and pips, the first sequence found for
/// each position. Returns that first sequence for `result`.
fn gnubg_route(pos: &Position, rolled: Roll, result: &Position) -> Option<Vec<GnubgStep>> {
    let [d0, d1] = rolled;
    let orders: Vec<[u8; 4]> = if d0 == d1 {
        vec![[d0; 4]]
    } else {
        vec![[d0, d1, 0, 0], [d1, d0, 0, 0]]
    };
    let mut found: Vec<(u32, u32, Position, Vec<GnubgStep>)> = Vec::new();
    for dice in orders {
        let mut path = Vec::new();
        generate(*pos, &dice, 0, 23, 0, &mut path, &mut found);
    }
    if found.is_empty() {
        return (pos == result).then(Vec::new);
    }
    // gnubg keeps a running best (dice, pips): anything less in either is dropped, more
    // in either starts the list again; the best is the last one it started with.
    let mut best = (0, 0);
    for &(dice, pips, ..) in &found {
        if dice >= best.0 && pips >= best.1 {
            best = (dice, pips);
        }
    }
    found
        .into_iter()
        .find(|(dice, pips, p, _)| (*dice, *pips) == best && p == result)
        .map(|(.., path)| path)
}

/// One level of [`gnubg_route`]'s search: plays `dice[depth]` from every point it can
/// (from `top` down), recording each sequence that can go no further. True if a step
/// was made at this level.
fn generate(
    pos: Position,
    dice: &[u8; 4],
    depth: usize,
    top: usize,
    pips: u32,
    path: &mut Vec<GnubgStep>,
    found: &mut Vec<(u32, u32, Position, Vec<GnubgStep>)>,
) -> bool {
    let Some(&die) = dice.get(depth).filter(|&&d| d > 0) else {
        return false;
    };
    let me = pos.sides()[0];
    let starts: Vec<usize> = if me[BAR] > 0 {
        vec![BAR]
    } else {
        (0..=top).rev().filter(|&i| me[i] > 0).collect()
    };
    let mut used = false;
    for from in starts {
        let Some((next, to)) = gnubg_step(&pos, from, die) else {
            continue;
        };
        used = true;
        path.push((from as u8 + 1, to));
        let below = if dice[0] == dice[1] { from.min(23) } else { 23 };
        if !generate(
            next,
            dice,
            depth + 1,
            below,
            pips + u32::from(die),
            path,
            found,
        ) {
            found.push((depth as u32 + 1, pips + u32::from(die), next, path.clone()));
        }
        path.pop();
    }
    used
}

/// A checker moved from index `from` by `die` as gnubg allows it (`LegalMove`,
/// `ApplySubMove`): not onto two or more of the opponent's checkers; off only with no
/// checker above the 6 point, exactly or from the highest point. The position after, and
/// the point reached (0 off).
fn gnubg_step(pos: &Position, from: usize, die: u8) -> Option<(Position, u8)> {
    let me = pos.sides()[0];
    let mut next = *pos;
    let dest = from as i32 - i32::from(die);
    if dest >= 0 {
        let opp = 23 - dest as usize;
        match pos.sides()[1][opp] {
            0 => {}
            1 => {
                let o = next.side_mut(1);
                o[opp] = 0;
                o[BAR] += 1;
            }
            _ => return None,
        }
        next.side_mut(0)[dest as usize] += 1;
    } else {
        let back = (1..=BAR).rev().find(|&i| me[i] > 0).unwrap_or(0);
        if back > 5 || (from != back && dest != -1) {
            return None;
        }
    }
    next.side_mut(0)[from] -= 1;
    Some((next, u8::try_from(dest + 1).unwrap_or(0)))
}

impl fmt::Display for Play {
    /// GNU Backgammon's notation: one checker's steps joined (`24/18`, or `13/9*/7` when
    /// it hits on the way), the highest start first, repeats as `(2)`, `bar`, `off`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_steps(&self.steps.to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::board::{Action, parse_mat};

    /// gnubg's own plays, from matches it played against itself.
    const SELF_PLAY: [&str; 5] = [
        include_str!("../../../tests/fixtures/gnubg/self_play_3pt.mat"),
        include_str!("../../../tests/fixtures/gnubg/self_play_5pt_seed1.mat"),
        include_str!("../../../tests/fixtures/gnubg/self_play_5pt_seed2.mat"),
        include_str!("../../../tests/fixtures/gnubg/self_play_7pt_seed12.mat"),
        include_str!("../../../tests/fixtures/gnubg/self_play_7pt_seed21.mat"),
    ];

    /// gnubg writes its own play as its move generator first finds it, in the order the
    /// dice were rolled, which its file does not keep (it writes the higher die first):
    /// every play it wrote is our emulation's spelling for one order of the two dice.
    /// (`31: 6/5 8/5` is the 1 first, `52: 13/8 24/22` the 5 first.)
    #[test]
    fn gnubgs_own_plays_are_its_generators_first_spelling_for_one_order_of_the_dice() {
        let (mut plays, mut lower_first) = (0, 0);
        for text in SELF_PLAY {
            for game in parse_mat(text).unwrap().games {
                let mut pos = Position::starting();
                let mut mover = 0;
                for action in &game.actions {
                    let Action::Roll { player, dice, play } = action else {
                        continue;
                    };
                    if *player != mover {
                        (pos, mover) = (pos.swap(), *player);
                    }
                    let result = accept(&pos, *dice, play).unwrap().result;
                    let spell = |d: Roll| mat_text(&pos, &gnubg_route(&pos, d, &result).unwrap());
                    let (higher, lower) = (spell(*dice), spell([dice[1], dice[0]]));
                    assert!(
                        *play == higher || *play == lower,
                        "{dice:?} gnubg '{play}', ours '{higher}' or '{lower}'"
                    );
                    lower_first += usize::from(*play != higher);
                    plays += 1;
                    pos = result;
                }
            }
        }
        assert!(
            plays > 500 && lower_first > 50,
            "{plays} plays, {lower_first}"
        );
    }

    #[test]
    fn a_play_is_spelled_in_gnubgs_canonical_order_with_its_hits() {
        let start = Position::starting();
        let spell = |pos: &Position, dice: Roll, play: &str| {
            let result = accept(pos, dice, play).unwrap().result;
            mat_spelling(pos, dice, &result).unwrap()
        };
        // Highest start first; one checker's route by the die rolled first.
        assert_eq!(spell(&start, [1, 3], "6/5 8/5"), "8/5 6/5");
        assert_eq!(spell(&start, [6, 2], "24/16"), "24/18 18/16");
        assert_eq!(spell(&start, [2, 6], "24/16"), "24/22 22/16");
        // From the same point, the highest end first; repeats spelled out.
        assert_eq!(spell(&start, [1, 4], "24/20 24/23"), "24/23 24/20");
        assert_eq!(spell(&start, [3, 3], "24/18(2)"), "24/21 24/21 21/18 21/18");
        // A hit on the way is starred where it is made; the bar is 25, off 0.
        let hit = accept(&start, [6, 4], "24/14").unwrap().result.swap();
        assert_eq!(spell(&hit, [5, 5], "8/3(2) 6/1(2)"), "8/3 8/3 6/1* 6/1");
        let on_bar = accept(&hit, [5, 5], "8/3(2) 6/1(2)").unwrap().result.swap();
        assert_eq!(spell(&on_bar, [2, 1], "bar/23 6/5"), "25/23 6/5");
        let mut home = [0u8; 25];
        home[0] = 2;
        let mut theirs = [0u8; 25];
        theirs[5] = 15;
        let race = Position::new(home, theirs).unwrap();
        assert_eq!(spell(&race, [6, 5], "1/off(2)"), "1/0 1/0");
        // No legal play leaves the position: no spelling.
        assert_eq!(mat_spelling(&start, [6, 5], &on_bar), None);
    }
}
