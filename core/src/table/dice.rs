//! A match's server dice as its log records them: the commitment, the players' seeds,
//! every draw, the reveal.
//!
//! The server knows the seed from the start, so it checks each draw as it is recorded;
//! a verifier learns it only from the reveal, so it keeps the draws and recomputes them
//! all then. Both go through [`TableDice`], the same rules in the same order: seeds only
//! before the first draw, no draw after the reveal, the revealed seed hashing to the
//! commitment, and every draw equal to the stream's next (`docs/dice.md`).

use crate::audit::lower_hex;
use crate::dice::{
    Commitment, DiceError, DiceStream, MAX_PLAYER_SEED, OpeningRoll, Roll, ServerSeed, dice_key,
};
use crate::side::Side;

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

/// [`lower_hex`], or an error naming `what` is not.
pub fn strict_hex(s: &str, what: &str) -> Result<Vec<u8>, String> {
    lower_hex(s).ok_or_else(|| format!("{what} is not lower-case hex"))
}

/// A player seed is 1 to [`MAX_PLAYER_SEED`] bytes.
pub(super) fn check_seed_length(seed: &[u8]) -> Result<(), DiceError> {
    if seed.is_empty() || seed.len() > MAX_PLAYER_SEED {
        return Err(DiceError::SeedLength(seed.len()));
    }
    Ok(())
}

/// The dice of one match. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct TableDice {
    match_id: String,
    commitment: Commitment,
    player_seeds: [Vec<u8>; 2],
    /// Each player's commitment to his seed, and whether he revealed it.
    commitments: [Option<[u8; 32]>; 2],
    revealed_seeds: [bool; 2],
    /// No draw until both players revealed their seeds (the tournament's policy).
    seeds_required: bool,
    /// Known to the server from the start; to a verifier from the reveal.
    server: Option<ServerSeed>,
    /// The stream, once the first draw was made with the seed known.
    stream: Option<DiceStream>,
    /// Draws recorded while the seed was not known, waiting for the reveal.
    sealed: Vec<(u64, Draw)>,
    draws: usize,
    verified: usize,
    revealed: bool,
}

impl TableDice {
    /// The server's view: the seed is known.
    pub fn with_seed(match_id: &str, seed: ServerSeed) -> TableDice {
        let mut dice = TableDice::sealed(match_id, seed.commitment());
        dice.server = Some(seed);
        dice
    }

    /// A verifier's view: only the commitment is known until the reveal.
    pub fn sealed(match_id: &str, commitment: Commitment) -> TableDice {
        TableDice {
            match_id: match_id.to_string(),
            commitment,
            player_seeds: Default::default(),
            commitments: [None; 2],
            revealed_seeds: [false; 2],
            seeds_required: false,
            server: None,
            stream: None,
            sealed: Vec::new(),
            draws: 0,
            verified: 0,
            revealed: false,
        }
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

    /// Adds `side`'s seed in the clear: 1 to [`MAX_PLAYER_SEED`] bytes, once, before the
    /// first draw (the first logs' way; players now commit and reveal).
    pub fn add_player_seed(&mut self, side: Side, seed: &[u8]) -> Result<(), DiceError> {
        if self.draws > 0 || self.revealed {
            return Err(DiceError::SeedsClosed);
        }
        if self.commitments.iter().any(Option::is_some) {
            return Err(DiceError::MixedSeeds);
        }
        check_seed_length(seed)?;
        if !self.player_seeds[side.index()].is_empty() {
            return Err(DiceError::SeedAlreadyAdded(side));
        }
        self.player_seeds[side.index()] = seed.to_vec();
        Ok(())
    }

    /// `side`'s commitment to a seed (`dice::player_commitment`): once, before the first
    /// draw and before any reveal.
    pub fn commit_player_seed(
        &mut self,
        side: Side,
        commitment: [u8; 32],
    ) -> Result<(), DiceError> {
        if self.draws > 0 || self.revealed || self.revealed_seeds.iter().any(|r| *r) {
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

    /// `side` reveals his seed: only once both players committed, before the first draw,
    /// and only the seed his commitment names. It then goes into the dice key.
    pub fn reveal_player_seed(&mut self, side: Side, seed: &[u8]) -> Result<(), DiceError> {
        if self.draws > 0 || self.revealed {
            return Err(DiceError::SeedsClosed);
        }
        if self.commitments.iter().any(Option::is_none) {
            return Err(DiceError::NotCommitted(side));
        }
        if self.revealed_seeds[side.index()] {
            return Err(DiceError::SeedAlreadyAdded(side));
        }
        check_seed_length(seed)?;
        let expected = crate::dice::player_commitment(&self.match_id, side, seed);
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

    /// Whether a draw may be made now as far as the players' seeds go: not while a
    /// committed seed is unrevealed, nor, where seeds are required, before both are in.
    pub fn ready(&self) -> Result<(), DiceError> {
        if let Some(side) = self.pending_reveal() {
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

    /// A player who committed and has not revealed, once both committed: the dice wait
    /// for him. (A lone commitment is void: nothing can be revealed against it.)
    pub fn pending_reveal(&self) -> Option<Side> {
        if self.commitments.iter().any(Option::is_none) {
            return None;
        }
        Side::BOTH
            .into_iter()
            .find(|s| !self.revealed_seeds[s.index()])
    }

    /// Whether the tournament requires both players' seeds before the first draw.
    pub fn seeds_required(&self) -> bool {
        self.seeds_required
    }

    /// `side`'s commitment, if he made one.
    pub fn player_commitment(&self, side: Side) -> Option<[u8; 32]> {
        self.commitments[side.index()]
    }

    fn new_stream(&self, seed: &ServerSeed) -> DiceStream {
        DiceStream::new(dice_key(
            &self.match_id,
            seed,
            &self.player_seeds[0],
            &self.player_seeds[1],
        ))
    }

    /// The stream as it stands, on a copy: what the next draw will be. Only where the
    /// seed is known and not yet revealed.
    fn peek(&self) -> Result<DiceStream, DiceError> {
        if self.revealed {
            return Err(DiceError::Revealed);
        }
        self.ready()?;
        let seed = self.server.as_ref().ok_or(DiceError::Revealed)?;
        Ok(self.stream.clone().unwrap_or_else(|| self.new_stream(seed)))
    }

    /// The next roll, without taking it: the server records it, and the record takes it.
    pub fn next_roll(&self) -> Result<Roll, DiceError> {
        Ok(self.peek()?.roll())
    }

    /// The next opening roll, without taking it.
    pub fn next_opening(&self) -> Result<OpeningRoll, DiceError> {
        Ok(self.peek()?.opening())
    }

    /// The next Chess960 position number, without taking it.
    pub fn next_chess960(&self) -> Result<u16, DiceError> {
        Ok(self.peek()?.chess960())
    }

    /// A recorded draw (record `seq`): checked against the stream now if the seed is
    /// known, else kept for the reveal.
    pub fn record(&mut self, seq: u64, draw: Draw) -> Result<(), String> {
        if self.revealed {
            return Err("a server draw after the seed was revealed".into());
        }
        self.ready().map_err(|e| e.to_string())?;
        self.draws += 1;
        let Some(seed) = self.server.clone() else {
            self.sealed.push((seq, draw));
            return Ok(());
        };
        if self.stream.is_none() {
            self.stream = Some(self.new_stream(&seed));
        }
        let stream = self.stream.as_mut().expect("just made");
        let expected = next_draw(stream, &draw);
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
        let bytes: [u8; 32] = strict_hex(seed_hex, "the server seed")
            .map_err(RevealError::new)?
            .try_into()
            .map_err(|_| RevealError::new("the server seed is not 32 bytes"))?;
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
        let mut stream = self.new_stream(&seed);
        for (seq, draw) in std::mem::take(&mut self.sealed) {
            let expected = next_draw(&mut stream, &draw);
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
        let mut d = TableDice::with_seed("m", ServerSeed::from_bytes([2; 32]));
        assert_eq!(
            d.add_player_seed(Side::A, b""),
            Err(DiceError::SeedLength(0))
        );
        assert_eq!(
            d.add_player_seed(Side::A, &[0; 65]),
            Err(DiceError::SeedLength(65))
        );
        d.add_player_seed(Side::A, b"x").unwrap();
        assert_eq!(
            d.add_player_seed(Side::A, b"y"),
            Err(DiceError::SeedAlreadyAdded(Side::A))
        );
        let roll = d.next_roll().unwrap();
        d.record(2, Draw::Roll(roll)).unwrap();
        assert_eq!(
            d.add_player_seed(Side::B, b"z"),
            Err(DiceError::SeedsClosed)
        );
        assert_eq!(d.player_seed(Side::B), b"");
        d.reveal(&hex::encode([2; 32])).unwrap();
        assert_eq!(d.next_roll(), Err(DiceError::Revealed));
    }

    #[test]
    fn a_sealed_view_recomputes_at_the_reveal_what_the_server_checked_at_once() {
        let seed = ServerSeed::from_bytes([0xab; 32]);
        let mut server = TableDice::with_seed("m", seed.clone());
        let mut verifier = TableDice::sealed("m", seed.commitment());
        for dice in [&mut server, &mut verifier] {
            dice.add_player_seed(Side::A, b"abc").unwrap();
        }
        let roll = server.next_roll().unwrap();
        server.record(2, Draw::Roll(roll)).unwrap();
        verifier.record(2, Draw::Roll(roll)).unwrap();
        assert_eq!((server.verified(), verifier.verified()), (1, 0));
        let other = if roll == [1, 1] { [2, 2] } else { [1, 1] };
        assert!(server.clone().record(3, Draw::Roll(other)).is_err());
        let mut forged = verifier.clone();
        forged.record(3, Draw::Roll(other)).unwrap();
        let hex = hex::encode(seed.as_bytes());
        verifier.reveal(&hex).unwrap();
        assert_eq!(verifier.verified(), 1);
        // The next honest roll could be `other` by chance; the forged one is checked
        // against whatever it really is.
        let honest_next = server.next_roll().unwrap();
        if honest_next != other {
            assert_eq!(forged.reveal(&hex).unwrap_err().draw_seq, Some(3));
        }
        assert!(
            TableDice::sealed("m", seed.commitment())
                .reveal(&hex.to_uppercase())
                .is_err()
        );
        assert_eq!(
            verifier.add_player_seed(Side::B, b"x"),
            Err(DiceError::SeedsClosed)
        );
        assert!(verifier.record(9, Draw::Roll([1, 2])).is_err());
    }
}
