//! A match's server dice as its log records them: the commitment, the players' seeds,
//! every draw, the reveal.
//!
//! The server knows the seed from the start, so it checks each draw as it is recorded;
//! a verifier learns it only from the reveal, so it keeps the draws and recomputes them
//! all then. Both go through [`TableDice`], the same rules in the same order: seeds only
//! before the first draw, no draw after the reveal, the revealed seed hashing to the
//! commitment, and every draw equal to the stream's next (`docs/dice.md`).

use super::links::{Asked, LiveLinks};
use crate::audit::strict_hex32;
use crate::dice::{
    Commitment, DiceError, DiceStream, DiceVersion, Link, MAX_PLAYER_SEED, MIN_PLAYER_SEED_V2,
    OpeningRoll, Position, Roll, SALT_LEN, ServerSeed, dice_key, dice_key_v2, live_key,
    player_commitment, player_commitment_v2,
};
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// One server draw as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Draw {
    /// Two dice (`dice.roll`).
    Roll(Roll),
    /// An opening roll: every throw, the last deciding (`dice.opening`).
    Opening(Vec<Roll>),
    /// A Chess960 position number (`dice.chess960`).
    Chess960(u16),
}

impl Draw {
    fn describe(&self) -> String {
        match self {
            Draw::Roll([a, b]) => format!("{a}-{b}"),
            Draw::Opening(throws) => format!("{throws:?}"),
            Draw::Chess960(sp) => format!("position {sp}"),
        }
    }
}

/// A player seed is 1 (v1) or [`MIN_PLAYER_SEED_V2`] (v2) to [`MAX_PLAYER_SEED`] bytes.
pub(super) fn check_seed_length(version: DiceVersion, seed: &[u8]) -> Result<(), DiceError> {
    let least = match version {
        DiceVersion::V1 => 1,
        DiceVersion::V2 => MIN_PLAYER_SEED_V2,
    };
    if seed.len() < least || seed.len() > MAX_PLAYER_SEED {
        return Err(DiceError::SeedLength(least, seed.len()));
    }
    Ok(())
}

/// The dice of one match. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct TableDice {
    match_id: String,
    version: DiceVersion,
    commitment: Commitment,
    player_seeds: [Vec<u8>; 2],
    /// Each player's commitment to his seed, and whether he revealed it.
    commitments: [Option<[u8; 32]>; 2],
    revealed_seeds: [bool; 2],
    /// No draw until both players revealed their seeds (the tournament's policy).
    seeds_required: bool,
    /// When the players' reveals are due (`dice.reveal_due`), once both committed.
    reveal_due: Option<Timestamp>,
    /// How long they have from the second commitment.
    reveal_window: Millis,
    /// Known to the server from the start; to a verifier from the reveal.
    server: Option<ServerSeed>,
    /// v1: the match's one stream, once the first draw was made with the seed known.
    stream: Option<DiceStream>,
    /// Draws recorded while the seed was not known, waiting for the reveal, each with
    /// its position (v2) and, with live dice, the players' links.
    sealed: Vec<Sealed>,
    /// Live dice: the players' chains and the draw in waiting (`live.rs`).
    live: Option<LiveLinks>,
    /// v2: the openings drawn so far (the game in progress), and each side's rolls in it.
    games: u16,
    rolls: [u32; 2],
    draws: usize,
    verified: usize,
    revealed: bool,
}

impl TableDice {
    /// The server's view: the seed is known.
    pub fn with_seed(match_id: &str, version: DiceVersion, seed: ServerSeed) -> TableDice {
        let mut dice = TableDice::sealed(match_id, version, seed.commitment());
        dice.server = Some(seed);
        dice
    }

    /// A verifier's view: only the commitment is known until the reveal.
    pub fn sealed(match_id: &str, version: DiceVersion, commitment: Commitment) -> TableDice {
        TableDice {
            match_id: match_id.to_string(),
            version,
            commitment,
            player_seeds: Default::default(),
            commitments: [None; 2],
            revealed_seeds: [false; 2],
            seeds_required: false,
            reveal_due: None,
            reveal_window: super::body::DEFAULT_REVEAL_WINDOW,
            server: None,
            stream: None,
            sealed: Vec::new(),
            live: None,
            games: 0,
            rolls: [0; 2],
            draws: 0,
            verified: 0,
            revealed: false,
        }
    }

    /// The match has live dice (construction 2 with no player seeds, every draw taking a
    /// link of each player's chain).
    pub fn make_live(&mut self) {
        self.live = Some(LiveLinks::new(&self.match_id, self.commitment));
    }

    /// The players' chains and the draw in waiting, in a match with live dice.
    pub fn live(&self) -> Option<&LiveLinks> {
        self.live.as_ref()
    }

    /// The same, to fold a live record into.
    pub(super) fn live_mut(&mut self) -> Result<&mut LiveLinks, DiceError> {
        self.live.as_mut().ok_or(DiceError::NotLive(false))
    }

    /// Refused in a match with live dice: the players' seeds.
    fn not_live(&self) -> Result<(), DiceError> {
        match self.live {
            Some(_) => Err(DiceError::NotLive(true)),
            None => Ok(()),
        }
    }

    /// Which construction the match's dice follow.
    pub fn version(&self) -> DiceVersion {
        self.version
    }

    /// The commitment published before any draw.
    pub fn commitment(&self) -> Commitment {
        self.commitment
    }

    /// The seed `side` added, empty if none.
    pub fn player_seed(&self, side: Side) -> &[u8] {
        &self.player_seeds[side.index()]
    }

    /// Draws recorded so far.
    pub fn draws(&self) -> usize {
        self.draws
    }

    /// Draws recomputed from the seed and found equal.
    pub fn verified(&self) -> usize {
        self.verified
    }

    /// Whether the seed was revealed.
    pub fn revealed(&self) -> bool {
        self.revealed
    }

    /// The server seed, where it is known (the server's view, or after the reveal).
    pub fn server_seed(&self) -> Option<&ServerSeed> {
        self.server.as_ref()
    }

    fn seeds_open(&self) -> Result<(), DiceError> {
        if self.draws > 0 || self.revealed {
            return Err(DiceError::SeedsClosed);
        }
        Ok(())
    }

    /// Adds `side`'s seed in the clear: 1 to [`MAX_PLAYER_SEED`] bytes, once, before the
    /// first draw — v1 logs only: a v2 log takes commitments alone.
    pub fn add_player_seed(&mut self, side: Side, seed: &[u8]) -> Result<(), DiceError> {
        if self.version != DiceVersion::V1 {
            return Err(DiceError::ClearSeed);
        }
        self.not_live()?;
        self.seeds_open()?;
        if self.commitments.iter().any(Option::is_some) {
            return Err(DiceError::MixedSeeds);
        }
        check_seed_length(self.version, seed)?;
        if !self.player_seeds[side.index()].is_empty() {
            return Err(DiceError::SeedAlreadyAdded(side));
        }
        self.player_seeds[side.index()] = seed.to_vec();
        Ok(())
    }

    /// `side`'s commitment to a seed: once, before the first draw and before any reveal.
    pub fn commit_player_seed(
        &mut self,
        side: Side,
        commitment: [u8; 32],
    ) -> Result<(), DiceError> {
        self.not_live()?;
        self.seeds_open()?;
        if self.revealed_seeds.iter().any(|r| *r) {
            return Err(DiceError::SeedsClosed);
        }
        if self.player_seeds.iter().any(|s| !s.is_empty()) {
            return Err(DiceError::MixedSeeds);
        }
        if self.commitments[side.index()].is_some() {
            return Err(DiceError::SeedAlreadyAdded(side));
        }
        self.commitments[side.index()] = Some(commitment);
        Ok(())
    }

    /// What `side`'s commitment to `seed` is: v1 hashes the match, side and seed; v2 also
    /// the server's commitment and the salt ([`SALT_LEN`] bytes, v2 only).
    pub fn expected_commitment(
        &self,
        side: Side,
        seed: &[u8],
        salt: Option<&[u8]>,
    ) -> Result<[u8; 32], DiceError> {
        check_seed_length(self.version, seed)?;
        match (self.version, salt) {
            (DiceVersion::V1, None) => Ok(player_commitment(&self.match_id, side, seed)),
            (DiceVersion::V1, Some(salt)) => Err(DiceError::SaltLength(salt.len())),
            (DiceVersion::V2, Some(salt)) if salt.len() == SALT_LEN => Ok(player_commitment_v2(
                &self.commitment,
                &self.match_id,
                side,
                salt,
                seed,
            )),
            (DiceVersion::V2, salt) => Err(DiceError::SaltLength(salt.map_or(0, <[u8]>::len))),
        }
    }

    /// `side` reveals his seed (and, in v2, his salt): only once both players committed,
    /// before the first draw, and only the seed his commitment names. It then goes into
    /// the dice key.
    pub fn reveal_player_seed(
        &mut self,
        side: Side,
        seed: &[u8],
        salt: Option<&[u8]>,
    ) -> Result<(), DiceError> {
        self.not_live()?;
        self.seeds_open()?;
        if self.commitments.iter().any(Option::is_none) {
            return Err(DiceError::NotCommitted(side));
        }
        if self.revealed_seeds[side.index()] {
            return Err(DiceError::SeedAlreadyAdded(side));
        }
        let expected = self.expected_commitment(side, seed, salt)?;
        if self.commitments[side.index()] != Some(expected) {
            return Err(DiceError::RevealMismatch(side));
        }
        self.player_seeds[side.index()] = seed.to_vec();
        self.revealed_seeds[side.index()] = true;
        Ok(())
    }

    /// Whether both players' seeds are needed before the first draw.
    pub fn require_seeds(&mut self, required: bool) {
        self.seeds_required = required;
    }

    /// How long the players have to reveal once both committed (the set-up's
    /// `reveal_window_ms`).
    pub fn set_reveal_window(&mut self, window: Millis) {
        self.reveal_window = window;
    }

    /// How long the players have to reveal once both committed.
    pub fn reveal_window(&self) -> Millis {
        self.reveal_window
    }

    /// The reveals are due by `by` (`dice.reveal_due`): only while a reveal is pending,
    /// and a new deadline only later than the one in force.
    pub fn set_reveal_due(&mut self, by: Timestamp) -> Result<(), String> {
        if self.pending_reveal().is_none() {
            return Err("a reveal deadline with no reveal pending".into());
        }
        if let Some(due) = self.reveal_due
            && by <= due
        {
            return Err(format!(
                "the reveals were due by {} ms: a new deadline is later, not {} ms",
                due.as_ms(),
                by.as_ms()
            ));
        }
        self.reveal_due = Some(by);
        Ok(())
    }

    /// When the pending reveals are due; `None` when none is pending.
    pub fn reveal_due(&self) -> Option<Timestamp> {
        self.reveal_due.filter(|_| self.pending_reveal().is_some())
    }

    /// Whether a draw may be made now as far as the players' seeds go: not while a
    /// committed seed is unrevealed, nor, where seeds are required, before both are in.
    /// With live dice: whether a draw may be asked for (both chains committed).
    pub fn ready(&self) -> Result<(), DiceError> {
        if let Some(live) = &self.live {
            return live.ready();
        }
        if let Some(side) = self.pending_reveal() {
            if self.commitments[side.index()].is_none() {
                return Err(DiceError::CommitPending(side));
            }
            return Err(DiceError::RevealPending(side));
        }
        let missing = Side::BOTH
            .into_iter()
            .find(|s| !self.revealed_seeds[s.index()]);
        if let Some(side) = missing.filter(|_| self.seeds_required && self.draws == 0) {
            return Err(DiceError::SeedsRequired(side));
        }
        Ok(())
    }

    /// The player the dice wait for before the first draw: one who committed and has
    /// not revealed, once both committed — or, in construction 2, as soon as either
    /// committed, the other, who has yet to commit and reveal: a commitment holds the
    /// dice until both seeds are in, so one player's seed is never dropped while the other
    /// (told the server's dice by the operator) keeps the option to add his or not. In
    /// construction 1 a lone commitment was void.
    pub fn pending_reveal(&self) -> Option<Side> {
        let committed = self.commitments.iter().filter(|c| c.is_some()).count();
        let waits = match self.version {
            DiceVersion::V1 => committed == 2,
            DiceVersion::V2 => committed > 0,
        };
        if !waits || self.draws > 0 {
            return None;
        }
        let uncommitted = Side::BOTH
            .into_iter()
            .find(|s| self.commitments[s.index()].is_none());
        uncommitted.or_else(|| {
            Side::BOTH
                .into_iter()
                .find(|s| !self.revealed_seeds[s.index()])
        })
    }

    /// Whether the tournament requires both players' seeds before the first draw.
    pub fn seeds_required(&self) -> bool {
        self.seeds_required
    }

    /// `side`'s commitment, if he made one.
    pub fn player_commitment(&self, side: Side) -> Option<[u8; 32]> {
        self.commitments[side.index()]
    }

    fn key(&self, seed: &ServerSeed) -> [u8; 32] {
        let [a, b] = &self.player_seeds;
        match self.version {
            DiceVersion::V1 => dice_key(&self.match_id, seed, a, b),
            DiceVersion::V2 => dice_key_v2(&self.match_id, seed, a, b),
        }
    }

    /// Where the next draw of `like`'s kind belongs (v2); `None` in v1, where draws
    /// follow one another.
    fn next_position(&self, like: &Draw, side: Option<Side>) -> Result<Option<Position>, String> {
        if self.version == DiceVersion::V1 {
            return Ok(None);
        }
        Ok(Some(match (like, side) {
            (Draw::Opening(_), _) => Position::Opening {
                game: self
                    .games
                    .checked_add(1)
                    .ok_or("too many games in one match")?,
            },
            (Draw::Roll(_), Some(side)) if self.games > 0 => Position::Roll {
                game: self.games,
                side,
                roll: self.rolls[side.index()]
                    .checked_add(1)
                    .ok_or("too many rolls in one game")?,
            },
            (Draw::Roll(_), Some(_)) => return Err("a roll before its game's opening".into()),
            (Draw::Roll(_), None) => return Err("a roll for nobody".into()),
            (Draw::Chess960(_), _) => Position::Chess960,
        }))
    }

    /// What the draw of `like`'s kind for `side` will be, without taking it: the server
    /// records it, and the record takes it. Only where the seed is known and not yet
    /// revealed. With it, where it belongs (v2).
    fn peek(&self, like: Draw, side: Option<Side>) -> Result<(Draw, Option<Position>), DiceError> {
        if self.revealed {
            return Err(DiceError::Revealed);
        }
        let links = self.live_links(&like, side)?;
        let seed = self.server.as_ref().ok_or(DiceError::Revealed)?;
        let position = self
            .next_position(&like, side)
            .map_err(DiceError::Unplaced)?;
        let mut stream = match position {
            Some(at) => DiceStream::at(self.draw_key(seed, links), at),
            None => self
                .stream
                .clone()
                .unwrap_or_else(|| DiceStream::new(self.key(seed))),
        };
        Ok((next_draw(&mut stream, &like), position))
    }

    /// The links a draw of `like`'s kind takes, with live dice: those of the draw asked
    /// for, once both are in. Without live dice, none, once the seeds allow a draw.
    fn live_links(&self, like: &Draw, side: Option<Side>) -> Result<Option<[Link; 2]>, DiceError> {
        let Some(live) = &self.live else {
            self.ready()?;
            return Ok(None);
        };
        let pending = live.pending().ok_or(DiceError::NothingAsked)?;
        if pending.asked != asked_of(like, side).ok_or(DiceError::NothingAsked)? {
            return Err(DiceError::NothingAsked);
        }
        pending.both_links().map(Some)
    }

    /// The key of one draw: the match's, or with live dice the draw's own.
    fn draw_key(&self, seed: &ServerSeed, links: Option<[Link; 2]>) -> [u8; 32] {
        with_links(self.key(seed), links)
    }

    /// `side`'s next roll, without taking it, and its position (v2).
    pub fn next_roll(&self, side: Side) -> Result<(Roll, Option<Position>), DiceError> {
        match self.peek(Draw::Roll([0; 2]), Some(side))? {
            (Draw::Roll(dice), at) => Ok((dice, at)),
            _ => unreachable!("a roll is drawn like a roll"),
        }
    }

    /// The next opening roll, without taking it, and its position (v2).
    pub fn next_opening(&self) -> Result<(OpeningRoll, Option<Position>), DiceError> {
        match self.peek(Draw::Opening(Vec::new()), None)? {
            (Draw::Opening(throws), at) => Ok((OpeningRoll { throws }, at)),
            _ => unreachable!("an opening is drawn like an opening"),
        }
    }

    /// The Chess960 position number, without taking it.
    pub fn next_chess960(&self) -> Result<u16, DiceError> {
        match self.peek(Draw::Chess960(0), None)? {
            (Draw::Chess960(sp), _) => Ok(sp),
            _ => unreachable!("a position is drawn like a position"),
        }
    }

    /// A recorded draw (record `seq`) for `side` (a roll's), where its record says it
    /// belongs (`named`: v2's `game` and `roll`; `None` in v1): the place must be the
    /// draw's own, and the draw is checked against its stream now if the seed is known,
    /// else kept for the reveal.
    pub fn record(
        &mut self,
        seq: u64,
        draw: Draw,
        side: Option<Side>,
        named: Option<Position>,
    ) -> Result<(), String> {
        if self.revealed {
            return Err("a server draw after the seed was revealed".into());
        }
        let links = match (&mut self.live, asked_of(&draw, side)) {
            (Some(live), Some(asked)) => Some(live.take(asked)?),
            (Some(_), None) => return Err("a Chess960 position with live dice".into()),
            (None, _) => {
                self.ready().map_err(|e| e.to_string())?;
                None
            }
        };
        let position = self.next_position(&draw, side)?;
        let expected_name = position.filter(|p| *p != Position::Chess960);
        if named != expected_name {
            return Err(match expected_name {
                None => "a position named in a draw of construction v1".into(),
                Some(p) => format!(
                    "the draw names {}, but it is {}: a draw's place is the game and the side's \
                     count of rolls in it",
                    describe_position(named),
                    describe_position(Some(p))
                ),
            });
        }
        match &draw {
            Draw::Opening(_) => {
                self.games += 1;
                self.rolls = [0; 2];
            }
            Draw::Roll(_) => {
                if let Some(side) = side {
                    self.rolls[side.index()] += 1;
                }
            }
            Draw::Chess960(_) => {}
        }
        self.draws += 1;
        let Some(seed) = self.server.clone() else {
            self.sealed.push(Sealed {
                seq,
                position,
                links,
                draw,
            });
            return Ok(());
        };
        let expected = match position {
            Some(at) => next_draw(&mut DiceStream::at(self.draw_key(&seed, links), at), &draw),
            None => {
                let key = self.key(&seed);
                let stream = self.stream.get_or_insert_with(|| DiceStream::new(key));
                next_draw(stream, &draw)
            }
        };
        if expected != draw {
            return Err(format!(
                "the draw {} is not what the seed gives ({})",
                draw.describe(),
                expected.describe()
            ));
        }
        self.verified += 1;
        Ok(())
    }

    /// The reveal: the seed must hash to the commitment (and be the one the server held);
    /// every draw kept sealed is recomputed now. On a mismatch, the record of the first
    /// draw that differs is named.
    pub fn reveal(&mut self, seed_hex: &str) -> Result<(), RevealError> {
        if self.revealed {
            return Err(RevealError::new("the server seed was revealed twice"));
        }
        let bytes = strict_hex32(seed_hex, "the server seed").map_err(RevealError::new)?;
        let seed = ServerSeed::from_bytes(bytes);
        if seed.commitment() != self.commitment {
            return Err(RevealError::new(
                "the revealed server seed does not hash to the commitment",
            ));
        }
        if let Some(known) = &self.server
            && known.as_bytes() != seed.as_bytes()
        {
            return Err(RevealError::new(
                "the revealed seed is not the match's seed",
            ));
        }
        let key = self.key(&seed);
        let mut stream = DiceStream::new(key);
        for sealed in std::mem::take(&mut self.sealed) {
            let Sealed {
                seq,
                position,
                links,
                draw,
            } = sealed;
            let expected = match position {
                Some(at) => next_draw(&mut DiceStream::at(with_links(key, links), at), &draw),
                None => next_draw(&mut stream, &draw),
            };
            if expected != draw {
                return Err(RevealError {
                    draw_seq: Some(seq),
                    reason: format!(
                        "the draw {} is not what the revealed seed gives ({})",
                        draw.describe(),
                        expected.describe()
                    ),
                });
            }
            self.verified += 1;
        }
        self.server = Some(seed);
        self.revealed = true;
        Ok(())
    }
}

/// A draw recorded before the seed was known, kept for the reveal.
#[derive(Clone, Debug)]
struct Sealed {
    seq: u64,
    position: Option<Position>,
    links: Option<[Link; 2]>,
    draw: Draw,
}

/// A draw's key from the match's `key`: the same, or with live dice, the key of the two
/// links the draw took.
fn with_links(key: [u8; 32], links: Option<[Link; 2]>) -> [u8; 32] {
    links.map_or(key, |links| live_key(key, links))
}

/// What a live draw of `like`'s kind answers: an opening, or `side`'s roll.
fn asked_of(like: &Draw, side: Option<Side>) -> Option<Asked> {
    match (like, side) {
        (Draw::Opening(_), _) => Some(Asked::Opening),
        (Draw::Roll(_), Some(side)) => Some(Asked::Roll(side)),
        _ => None,
    }
}

fn describe_position(p: Option<Position>) -> String {
    match p {
        None => "no place".into(),
        Some(Position::Opening { game }) => format!("the opening of game {game}"),
        Some(Position::Roll { game, side, roll }) => {
            format!("{side}'s roll {roll} of game {game}")
        }
        Some(Position::Chess960) => "the Chess960 position".into(),
    }
}

/// The stream's next draw of the same kind as `like`.
fn next_draw(stream: &mut DiceStream, like: &Draw) -> Draw {
    match like {
        Draw::Roll(_) => Draw::Roll(stream.roll()),
        Draw::Opening(_) => Draw::Opening(stream.opening().throws),
        Draw::Chess960(_) => Draw::Chess960(stream.chess960()),
    }
}

/// Why a reveal does not check out, and which draw's record is at fault, if one is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RevealError {
    /// The record of the first draw that the seed does not give.
    pub draw_seq: Option<u64>,
    /// Why.
    pub reason: String,
}

impl RevealError {
    fn new(reason: impl Into<String>) -> RevealError {
        RevealError {
            draw_seq: None,
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_1_to_64_bytes_once_each_and_close_at_the_first_draw() {
        let mut d = TableDice::with_seed("m", DiceVersion::V1, ServerSeed::from_bytes([2; 32]));
        assert_eq!(
            d.add_player_seed(Side::A, b""),
            Err(DiceError::SeedLength(1, 0))
        );
        assert_eq!(
            d.add_player_seed(Side::A, &[0; 65]),
            Err(DiceError::SeedLength(1, 65))
        );
        d.add_player_seed(Side::A, b"x").unwrap();
        assert_eq!(
            d.add_player_seed(Side::A, b"y"),
            Err(DiceError::SeedAlreadyAdded(Side::A))
        );
        let roll = d.next_roll(Side::A).unwrap().0;
        d.record(2, Draw::Roll(roll), Some(Side::A), None).unwrap();
        assert_eq!(
            d.add_player_seed(Side::B, b"z"),
            Err(DiceError::SeedsClosed)
        );
        assert_eq!(d.player_seed(Side::B), b"");
        d.reveal(&hex::encode([2; 32])).unwrap();
        assert_eq!(d.next_roll(Side::A).map(|r| r.0), Err(DiceError::Revealed));
    }

    #[test]
    fn a_sealed_view_recomputes_at_the_reveal_what_the_server_checked_at_once() {
        let seed = ServerSeed::from_bytes([0xab; 32]);
        let mut server = TableDice::with_seed("m", DiceVersion::V1, seed.clone());
        let mut verifier = TableDice::sealed("m", DiceVersion::V1, seed.commitment());
        for dice in [&mut server, &mut verifier] {
            dice.add_player_seed(Side::A, b"abc").unwrap();
        }
        let roll = server.next_roll(Side::A).unwrap().0;
        server
            .record(2, Draw::Roll(roll), Some(Side::A), None)
            .unwrap();
        verifier
            .record(2, Draw::Roll(roll), Some(Side::A), None)
            .unwrap();
        assert_eq!((server.verified(), verifier.verified()), (1, 0));
        let other = if roll == [1, 1] { [2, 2] } else { [1, 1] };
        assert!(
            server
                .clone()
                .record(3, Draw::Roll(other), Some(Side::A), None)
                .is_err()
        );
        let mut forged = verifier.clone();
        forged
            .record(3, Draw::Roll(other), Some(Side::A), None)
            .unwrap();
        let hex = hex::encode(seed.as_bytes());
        verifier.reveal(&hex).unwrap();
        assert_eq!(verifier.verified(), 1);
        // The next honest roll could be `other` by chance; the forged one is checked
        // against whatever it really is.
        let honest_next = server.next_roll(Side::A).unwrap().0;
        if honest_next != other {
            assert_eq!(forged.reveal(&hex).unwrap_err().draw_seq, Some(3));
        }
        assert!(
            TableDice::sealed("m", DiceVersion::V1, seed.commitment())
                .reveal(&hex.to_uppercase())
                .is_err()
        );
        assert_eq!(
            verifier.add_player_seed(Side::B, b"x"),
            Err(DiceError::SeedsClosed)
        );
        assert!(
            verifier
                .record(9, Draw::Roll([1, 2]), Some(Side::A), None)
                .is_err()
        );
    }
}
