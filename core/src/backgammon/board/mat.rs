//! The Jellyfish `.mat` text, as GNU Backgammon writes and reads it:
//!
//! ```text
//! ; [EventDate "2026.11.23"]
//!
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
//! a play is `dice: moves`, one step per die, with the bar as 25 and off as 0. gnubg pads
//! and spaces its lines in a way of its own (trailing spaces included); [`write_mat`]
//! writes them as its `ExportGameJF` does, byte for byte (`core/tests/mat_gnubg.rs`).

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
    let mut preamble = Vec::new();
    let mut players = [String::new(), String::new()];
    let mut games: Vec<GameRecord> = Vec::new();
    let mut expect_score = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            if length.is_none() {
                preamble.push(raw.to_string());
            }
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
        preamble,
        length: length.ok_or_else(|| bad(0, "no 'N point match' line"))?,
        players,
        games,
    })
}

/// "name : score        name : score": the players and their scores. gnubg pads the
/// first half to 31 characters; a longer one runs into the second name, so player 0's
/// score is the digits after his " : ".
fn score_line(line: &str) -> Option<([String; 2], [u32; 2])> {
    let (name0, rest) = line.split_once(" : ")?;
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let score0 = rest[..digits].parse().ok()?;
    let (name1, score1) = rest[digits..].trim_start().rsplit_once(" : ")?;
    Some((
        [name0.to_string(), name1.to_string()],
        [score0, score1.trim().parse().ok()?],
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

/// Writes a match as `.mat`, byte for byte as gnubg 1.07 exports it (its importer
/// depends on the columns): the preamble, " N point match", then per game its number,
/// the score line (player 0's half padded to 31 characters) and the numbered lines, the
/// move number in 3 columns and `) `, player 0's action padded to 27 and a space, player
/// 1's after it; a play's steps each followed by a space but the fourth; "Wins" in the
/// winner's column, beside a `Drops` or the loser's last action where gnubg puts it.
pub fn write_mat(record: &MatchRecord) -> String {
    let mut out = String::new();
    for line in &record.preamble {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!(" {} point match\n\n", record.length));
    for (g, game) in record.games.iter().enumerate() {
        let open = write_game(&mut out, &record.players, g + 1, game);
        // gnubg never has a game after an unfinished one; end its line all the same.
        if open && g + 1 < record.games.len() {
            out.push_str("\n\n");
        }
    }
    out
}

/// Player 0's action is padded to 27 characters and a space (gnubg's `%3d) %-27s `):
/// player 1's starts at column 33.
const LEFT_WIDTH: usize = 27;

/// Writes one game; true if it ends with a line open (player 0's action written, the
/// game unfinished), which gnubg leaves without its newline.
fn write_game(out: &mut String, players: &[String; 2], number: usize, game: &GameRecord) -> bool {
    out.push_str(&format!(" Game {number}\n"));
    let left = format!("{} : {}", players[0], game.score[0]);
    out.push_str(&format!(" {left:<31}{} : {}\n", players[1], game.score[1]));
    let mut line = 0;
    let mut open = false;
    let mut cube: u32 = 1;
    for (k, action) in game.actions.iter().enumerate() {
        let mut text = match action {
            Action::Roll { dice, play, .. } => roll_text(*dice, play),
            Action::Double { .. } => {
                cube = cube.saturating_mul(2);
                format!(" Doubles => {cube}")
            }
            Action::Take { .. } => " Takes".to_string(),
            Action::Drop { .. } => " Drops".to_string(),
        };
        // A drop ends the game: gnubg writes the winner's "Wins" with it.
        let drop_result = game
            .result
            .filter(|_| matches!(action, Action::Drop { .. }) && k + 1 == game.actions.len());
        if action.player() == 0 {
            if open {
                out.push('\n');
            }
            line += 1;
            if let Some(r) = drop_result {
                text.push_str(&format!("{:23}{}", "", wins(r.points, r.points != 1)));
            }
            out.push_str(&format!("{line:>3}) {text:<LEFT_WIDTH$} "));
            open = true;
        } else {
            if !open {
                line += 1;
                out.push_str(&format!("{line:>3}) {:<LEFT_WIDTH$} ", ""));
            }
            if let Some(r) = drop_result {
                text.push_str(&format!("\n      {}", wins(r.points, r.points != 1)));
            }
            out.push_str(&text);
            out.push('\n');
            open = false;
        }
        if drop_result.is_some() {
            out.push_str(if open { "\n\n" } else { "\n" });
            return false;
        }
    }
    let Some(r) = game.result else {
        return open;
    };
    let wins = wins(r.points, r.points > 1);
    match (r.winner, open) {
        (0, true) => out.push_str(&format!("\n      {wins}\n\n")),
        (0, false) => out.push_str(&format!("      {wins}\n\n")),
        (_, true) => out.push_str(&format!(" {wins}\n\n")),
        (_, false) => out.push_str(&format!("{:34}{wins}\n\n", "")),
    }
    false
}

/// "Wins 2 points".
fn wins(points: u32, plural: bool) -> String {
    format!("Wins {points} point{}", if plural { "s" } else { "" })
}

/// A roll and its play as gnubg writes it: `52: 13/8 24/22 `, each step followed by a
/// space but the fourth (its `FormatMovePlain`), `54: ` for no move.
fn roll_text(dice: [u8; 2], play: &str) -> String {
    let steps = mat_steps(play);
    let mut text = format!("{}{}: ", dice[0], dice[1]);
    for (i, step) in steps.iter().enumerate() {
        text.push_str(step);
        if i < 3 {
            text.push(' ');
        }
    }
    text
}

/// A play's single steps as `.mat` writes them: the bar 25, off 0, a checker's
/// compound move one step per part (`13/9*/7` → `13/9* 9/7`), a repeat spelled out
/// (`8/5(2)` → `8/5 8/5`). A play read from a `.mat` file comes back as it was.
fn mat_steps(play: &str) -> Vec<String> {
    let mut steps = Vec::new();
    for token in play.split(|c: char| c.is_whitespace() || c == ',') {
        if token.is_empty() || token == "-" {
            continue;
        }
        let (path, repeat) = match token.split_once('(') {
            Some((path, n)) => (path, n.trim_end_matches(')').parse().unwrap_or(1)),
            None => (token, 1),
        };
        let points: Vec<String> = path
            .split('/')
            .map(|p| p.replace("bar", "25").replace("off", "0"))
            .collect();
        for _ in 0..repeat {
            for pair in points.windows(2) {
                steps.push(format!("{}/{}", pair[0].trim_end_matches('*'), pair[1]));
            }
        }
    }
    steps
}
