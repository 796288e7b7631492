//! Dice from a fixed seed (xorshift64), for tests that play whole games and must play
//! the same game every run.

/// A fixed sequence of dice.
pub struct SeededDice(pub u64);

impl SeededDice {
    /// The next die, 1 to 6.
    pub fn die(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 6) as u8 + 1
    }
}
