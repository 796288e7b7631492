//! GNU Backgammon's position ID and match ID (gnubg manual, "A technical description of
//! the Position ID" and "… of the Match ID"): bit strings packed little-endian into
//! bytes and written in Base64 without padding (14 and 12 characters).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;

use super::{CHECKERS, Checkers, Position};
use crate::backgammon::error::RuleError;

/// Bits written little-endian, as both IDs are.
struct BitWriter {
    bytes: Vec<u8>,
    len: usize,
}

impl BitWriter {
    fn new(bytes: usize) -> BitWriter {
        BitWriter {
            bytes: vec![0; bytes],
            len: 0,
        }
    }

    fn push(&mut self, bit: bool) {
        if bit {
            self.bytes[self.len / 8] |= 1 << (self.len % 8);
        }
        self.len += 1;
    }

    /// `width` bits of `value`, least significant first.
    fn field(&mut self, value: u32, width: u32) {
        for i in 0..width {
            self.push(value >> i & 1 == 1);
        }
    }
}

struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl BitReader<'_> {
    fn next(&mut self) -> Option<bool> {
        let byte = self.bytes.get(self.at / 8)?;
        let bit = byte >> (self.at % 8) & 1 == 1;
        self.at += 1;
        Some(bit)
    }

    fn field(&mut self, width: u32) -> Option<u32> {
        let mut value = 0;
        for i in 0..width {
            value |= u32::from(self.next()?) << i;
        }
        Some(value)
    }
}

/// The 14-character position ID: for the opponent, then the player on roll, for each of
/// his points 1–24 and the bar, as many 1 bits as checkers and a 0.
pub(super) fn position_id(pos: &Position) -> String {
    let mut bits = BitWriter::new(10);
    for side in [&pos.sides()[1], &pos.sides()[0]] {
        for &n in side.iter() {
            for _ in 0..n {
                bits.push(true);
            }
            bits.push(false);
        }
    }
    STANDARD_NO_PAD.encode(&bits.bytes)
}

fn bad_id(what: &str, id: &str) -> RuleError {
    RuleError::invalid("", format!("'{id}' is not a GNU Backgammon {what} ID"))
}

impl Position {
    /// The GNU Backgammon position ID.
    pub fn gnubg_id(&self) -> String {
        position_id(self)
    }

    /// A position from its GNU Backgammon ID; refused if it does not decode to a position
    /// (more than 15 checkers a side, both sides on one point).
    pub fn from_gnubg_id(id: &str) -> Result<Position, RuleError> {
        let bytes = STANDARD_NO_PAD
            .decode(id.trim())
            .ok()
            .filter(|b| b.len() == 10)
            .ok_or_else(|| bad_id("position", id))?;
        let mut reader = BitReader {
            bytes: &bytes,
            at: 0,
        };
        let mut sides = [[0u8; 25]; 2];
        for side in sides.iter_mut() {
            for point in side.iter_mut() {
                while reader.next().ok_or_else(|| bad_id("position", id))? {
                    *point += 1;
                    if *point > CHECKERS {
                        return Err(bad_id("position", id));
                    }
                }
            }
        }
        let [opponent, on_roll]: [Checkers; 2] = sides;
        Position::new(on_roll, opponent).map_err(|_| bad_id("position", id))
    }
}

/// Whether a game is under way or how it ended, as the match ID records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    /// No game started.
    None = 0,
    /// A game in play.
    Playing = 1,
    /// Over, by bearing off.
    Over = 2,
    /// Ended by a resignation (a concession).
    Resigned = 3,
    /// Ended by a pass of the cube.
    Dropped = 4,
}

/// The state of a match as GNU Backgammon's match ID holds it. Players are 0 and 1 as
/// gnubg numbers them (in `.mat` files, the left column is player 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchId {
    /// The cube's value, a power of two from 1 to 32768.
    pub cube_value: u32,
    /// Who owns the cube; `None` when it is in the middle.
    pub cube_owner: Option<u8>,
    /// The player on roll, or who rolled.
    pub on_roll: u8,
    /// Whether this is the Crawford game.
    pub crawford: bool,
    /// The game's state.
    pub state: GameState,
    /// Who must decide now (differs from `on_roll` while a double is answered).
    pub turn: u8,
    /// Whether a double is being offered.
    pub doubled: bool,
    /// A resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon.
    pub resigned: u8,
    /// The dice rolled, or `None` before the roll.
    pub dice: Option<[u8; 2]>,
    /// The match length; 0 for money play.
    pub length: u32,
    /// The score of players 0 and 1.
    pub score: [u32; 2],
}

/// The largest match length or score a 15-bit field holds.
const MAX_FIELD: u32 = (1 << 15) - 1;

impl MatchId {
    /// The 12-character match ID. Refused when a value does not fit its field.
    pub fn encode(&self) -> Result<String, RuleError> {
        let cube_log = self
            .cube_value
            .checked_ilog2()
            .filter(|&l| l <= 15 && self.cube_value.is_power_of_two());
        let fits = cube_log.is_some()
            && self.on_roll < 2
            && self.turn < 2
            && self.cube_owner.is_none_or(|o| o < 2)
            && self.resigned < 4
            && self
                .dice
                .is_none_or(|d| d.iter().all(|x| (1..=6).contains(x)))
            && self.length <= MAX_FIELD
            && self.score.iter().all(|&s| s <= MAX_FIELD);
        if !fits {
            return Err(RuleError::invalid("", format!("{self:?} has no match ID")));
        }
        let mut bits = BitWriter::new(9);
        bits.field(cube_log.unwrap_or(0), 4);
        bits.field(self.cube_owner.map_or(3, u32::from), 2);
        bits.field(u32::from(self.on_roll), 1);
        bits.field(u32::from(self.crawford), 1);
        bits.field(self.state as u32, 3);
        bits.field(u32::from(self.turn), 1);
        bits.field(u32::from(self.doubled), 1);
        bits.field(u32::from(self.resigned), 2);
        let [d1, d2] = self.dice.unwrap_or([0, 0]);
        bits.field(u32::from(d1), 3);
        bits.field(u32::from(d2), 3);
        bits.field(self.length, 15);
        bits.field(self.score[0], 15);
        bits.field(self.score[1], 15);
        // GNU Backgammon 1.07 sets the bit after the scores in every ID it prints (the
        // manual's 66 bits say nothing of it); written as gnubg writes it, ignored on reading.
        bits.push(true);
        Ok(STANDARD_NO_PAD.encode(&bits.bytes))
    }

    /// Reads a match ID; refused when it is not one (bad Base64, impossible values).
    pub fn decode(id: &str) -> Result<MatchId, RuleError> {
        let bytes = STANDARD_NO_PAD
            .decode(id.trim())
            .ok()
            .filter(|b| b.len() == 9)
            .ok_or_else(|| bad_id("match", id))?;
        let mut r = BitReader {
            bytes: &bytes,
            at: 0,
        };
        let mut read = |w| r.field(w).ok_or_else(|| bad_id("match", id));
        let cube_log = read(4)?;
        let owner = read(2)?;
        let on_roll = read(1)? as u8;
        let crawford = read(1)? == 1;
        let state = match read(3)? {
            0 => GameState::None,
            1 => GameState::Playing,
            2 => GameState::Over,
            3 => GameState::Resigned,
            4 => GameState::Dropped,
            _ => return Err(bad_id("match", id)),
        };
        let turn = read(1)? as u8;
        let doubled = read(1)? == 1;
        let resigned = read(2)? as u8;
        let d1 = read(3)? as u8;
        let d2 = read(3)? as u8;
        let length = read(15)?;
        let score = [read(15)?, read(15)?];
        let dice = match (d1, d2) {
            (0, 0) => None,
            (1..=6, 1..=6) => Some([d1, d2]),
            _ => return Err(bad_id("match", id)),
        };
        let cube_owner = match owner {
            3 => None,
            2 => return Err(bad_id("match", id)),
            o => Some(o as u8),
        };
        Ok(MatchId {
            cube_value: 1 << cube_log,
            cube_owner,
            on_roll,
            crawford,
            state,
            turn,
            doubled,
            resigned,
            dice,
            length,
            score,
        })
    }
}
