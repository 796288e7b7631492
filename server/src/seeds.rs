//! Secret per-match server seeds for the dice (design principle 6).
//!
//! The core does no I/O, so the 32 secret bytes come from here: the operating system's
//! RNG via `getrandom`. A failing OS RNG is an error, never a weaker fallback.

use baffle_core::dice::ServerSeed;

/// A fresh secret seed from the OS RNG.
pub fn fresh_server_seed() -> Result<ServerSeed, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(ServerSeed::from_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_fresh_each_time() {
        let a = fresh_server_seed().unwrap();
        let b = fresh_server_seed().unwrap();
        assert_ne!(a, b);
        assert_ne!(a.as_bytes(), &[0; 32]);
        assert_ne!(a.commitment(), b.commitment());
    }
}
