//! The Jellyfish `.mat` text, as GNU Backgammon writes and reads it:
//!
//! ```text
//!  3 point match
//!
//!  Game 1
//!  gnubg : 0                      root : 0
//!   1)                             21: 13/11 24/23
//!   2) 52: 13/8 24/22              63: 8/5 11/5
//!  19)  Doubles => 2                Drops
//!       Wins 1 point
//! ```
//!
//! Each numbered line holds player 0's action on the left and player 1's on the right;
//! a play is `dice: moves` with the bar as 25 and off as 0.

use super::record::{Action, GameRecord, GameResult, MatchRecord};
use crate::backgammon::error::RuleError;

fn bad(line: usize, why: impl Into<String>) -> RuleError {
    RuleError::invalid("", format!(".mat line {line}: {}", why.into()))
}

/// Where the right column begins: gnubg pads the left action to 28 characters after
/// the move number; a line whose first action starts this far in has none on the left.
const RIGHT_COLUMN: usize = 20;

/// Reads a `.mat` file of one match.
pub fn parse_mat(text: &str) -> Result<MatchRecord, RuleError> {
    let mut length = None;
    let mut players = [String::new(), String::new()];
    let mut games: Vec<GameRecord> = Vec::new();
    let mut expect_score = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            continue;
        }
        if length.is_none() && trimmed.ends_with("point match") {
            let points = trimmed.split_whitespace().next().unwrap_or("");
            length = Some(
                points
                    .parse::<u32>()
                    .map_err(|_| bad(n, "no match length"))?,
            );
        } else if let Some(rest) = trimmed.strip_prefix("Game ") {
            rest.trim()
                .parse::<u32>()
                .map_err(|_| bad(n, "no game number"))?;
            games.push(GameRecord {
                score: [0, 0],
                actions: Vec::new(),
                result: None,
            });
            expect_score = true;
        } else if expect_score {
            let fields = score_line(trimmed);
            let ([p0, p1], [s0, s1]) = fields.ok_or_else(|| bad(n, "no score line"))?;
            players = [p0, p1];
            if let Some(g) = games.last_mut() {
                g.score = [s0, s1];
            }
            expect_score = false;
        } else if let Some(rest) = trimmed.strip_prefix("Wins ") {
            let points = rest.split_whitespace().next().unwrap_or("");
            let points = points.parse().map_err(|_| bad(n, "no points won"))?;
            let indent = line.len() - trimmed.len();
            let winner = u8::from(indent > RIGHT_COLUMN + 5);
            let game = games
                .last_mut()
                .ok_or_else(|| bad(n, "a result outside a game"))?;
            game.result = Some(GameResult { winner, points });
        } else if let Some(close) = trimmed
            .find(')')
            .filter(|&c| trimmed[..c].chars().all(|ch| ch.is_ascii_digit()))
        {
            let game = games
                .last_mut()
                .ok_or_else(|| bad(n, "a move outside a game"))?;
            numbered_line(&trimmed[close + 1..], n, game)?;
        } else {
            return Err(bad(n, format!("cannot read '{trimmed}'")));
        }
    }
    Ok(MatchRecord {
        length: length.ok_or_else(|| bad(0, "no 'N point match' line"))?,
        players,
        games,
    })
}

/// "name : score        name : score": the players and their scores.
fn score_line(line: &str) -> Option<([String; 2], [u32; 2])> {
    let parts: Vec<&str> = line.split(" : ").collect();
    let (name0, middle, last) = (parts.first()?, parts.get(1)?, parts.get(2)?);
    let mut middle = middle.split_whitespace();
    let score0 = middle.next()?.parse().ok()?;
    let name1 = middle.collect::<Vec<_>>().join(" ");
    Some((
        [name0.to_string(), name1],
        [score0, last.trim().parse().ok()?],
    ))
}

/// A numbered line's actions (after "12)"), player 0's on the left, player 1's on the
/// right, added to `game`; a "Wins" is its result.
fn numbered_line(after: &str, n: usize, game: &mut GameRecord) -> Result<(), RuleError> {
    let body = after.trim_start();
    let left_empty = after.len() - body.len() > RIGHT_COLUMN;
    let actions = split_actions(body, n)?;
    let first_player = u8::from(left_empty);
    if actions.len() > 2 || (left_empty && actions.len() > 1) {
        return Err(bad(n, "more than one action per player on a line"));
    }
    for (k, a) in actions.into_iter().enumerate() {
        let player = first_player + k as u8;
        match a {
            Said::Wins(points) => {
                game.result = Some(GameResult {
                    winner: player,
                    points,
                })
            }
            a => game.actions.extend(a.for_player(player)),
        }
    }
    Ok(())
}

/// An action before we know whose column it was in.
enum Said {
    Roll([u8; 2], String),
    Double,
    Take,
    Drop,
    /// "Wins 2 points": the game's result, in the winner's column.
    Wins(u32),
}

impl Said {
    /// The action of `player`; a result is not one.
    fn for_player(self, player: u8) -> Option<Action> {
        Some(match self {
            Said::Roll(dice, play) => Action::Roll { player, dice, play },
            Said::Double => Action::Double { player },
            Said::Take => Action::Take { player },
            Said::Drop => Action::Drop { player },
            Said::Wins(_) => return None,
        })
    }
}

fn dice_token(t: &str) -> Option<[u8; 2]> {
    let d = t.strip_suffix(':')?.as_bytes();
    match d {
        [a @ b'1'..=b'6', b @ b'1'..=b'6'] => Some([a - b'0', b - b'0']),
        _ => None,
    }
}

/// The actions of one numbered line, left to right.
fn split_actions(body: &str, n: usize) -> Result<Vec<Said>, RuleError> {
    let tokens: Vec<&str> = body.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        if let Some(dice) = dice_token(t) {
            let mut moves = Vec::new();
            i += 1;
            while i < tokens.len() && tokens[i].contains('/') {
                moves.push(tokens[i]);
                i += 1;
            }
            out.push(Said::Roll(dice, moves.join(" ")));
            continue;
        }
        match t {
            "Doubles" => {
                // "Doubles => 2"
                i += 1;
                if tokens.get(i) == Some(&"=>") {
                    i += 2;
                }
                out.push(Said::Double);
            }
            "Takes" => {
                out.push(Said::Take);
                i += 1;
            }
            "Drops" => {
                out.push(Said::Drop);
                i += 1;
            }
            "Wins" => {
                // "Wins 2 points" (and perhaps "and the match"): the rest of the line.
                let points = tokens.get(i + 1).and_then(|p| p.parse().ok());
                out.push(Said::Wins(points.ok_or_else(|| bad(n, "no points won"))?));
                i = tokens.len();
            }
            _ => return Err(bad(n, format!("cannot read '{t}'"))),
        }
    }
    Ok(out)
}

/// Writes a match as `.mat`, in gnubg's own layout (which its importer expects): the
/// move number in 3 columns and `) `, player 0's action padded to 28 columns, player 1's
/// after it; "Wins" in the winner's column, beside a `Drops` when there is room.
pub fn write_mat(record: &MatchRecord) -> String {
    let mut out = format!(" {} point match\n", record.length);
    for (g, game) in record.games.iter().enumerate() {
        out.push_str(&format!("\n Game {}\n", g + 1));
        let left = format!("{} : {}", record.players[0], game.score[0]);
        out.push_str(&format!(
            " {left:<31}{} : {}\n",
            record.players[1], game.score[1]
        ));
        let mut lines = action_lines(&game.actions);
        let mut last_line = None;
        if let Some(r) = game.result {
            let word = if r.points == 1 { "point" } else { "points" };
            let wins = format!("Wins {} {word}", r.points);
            match lines.last_mut() {
                Some([_, right @ None]) if r.winner == 1 => *right = Some(wins),
                _ if r.winner == 1 => last_line = Some(format!("{:34}{wins}", "")),
                _ => last_line = Some(format!("{:6}{wins}", "")),
            }
        }
        for (k, [left, right]) in lines.iter().enumerate() {
            let (l, r) = (
                left.as_deref().unwrap_or(""),
                right.as_deref().unwrap_or(""),
            );
            out.push_str(format!("{:>3}) {l:<28}{r}", k + 1).trim_end());
            out.push('\n');
        }
        if let Some(line) = last_line {
            out.push_str(&line);
            out.push('\n');
        }
    }
    // gnubg ends its files with a blank line.
    out.push('\n');
    out
}

/// The numbered lines of a game: player 0's action on the left, player 1's on the right.
fn action_lines(actions: &[Action]) -> Vec<[Option<String>; 2]> {
    let mut lines: Vec<[Option<String>; 2]> = Vec::new();
    let mut cube = 1;
    for action in actions {
        let (player, text) = match action {
            Action::Roll { player, dice, play } => {
                let moves: String = mat_play(play)
                    .split_whitespace()
                    .map(|m| format!("{m} "))
                    .collect();
                (*player, format!("{}{}: {moves}", dice[0], dice[1]))
            }
            Action::Double { player } => {
                cube *= 2;
                (*player, format!(" Doubles => {cube}"))
            }
            Action::Take { player } => (*player, " Takes".to_string()),
            Action::Drop { player } => (*player, " Drops".to_string()),
        };
        let p = usize::from(player.min(1));
        match lines.last_mut() {
            Some(l) if p == 1 && l[1].is_none() => l[1] = Some(text),
            _ => {
                let mut l = [None, None];
                l[p] = Some(text);
                lines.push(l);
            }
        }
    }
    lines
}

/// A play in `.mat` style: single steps, the bar as 25, off as 0 (`bar/22` → `25/22`).
fn mat_play(play: &str) -> String {
    play.replace("bar", "25").replace("off", "0")
}
