//! Offline dice tools: derive a dice key, and write long dice streams for external
//! statistical test suites (`ent`, `dieharder`; see `docs/dice.md`).

use std::io::{self, Write};

use baffle_core::dice::{DiceStream, ServerSeed, dice_key};

/// What `baffle dice stream` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StreamFormat {
    /// The generator's raw 32-bit outputs, little-endian, before any rejection
    /// (for `dieharder -g 200`).
    Raw,
    /// One byte per die, values 1 to 6 (for `ent`).
    Dice,
    /// One die per line as a digit, for people and scripts.
    Text,
}

/// Parses `hex` as exactly `N` bytes, naming `what` in the error.
pub fn parse_hex<const N: usize>(hex_text: &str, what: &str) -> Result<[u8; N], String> {
    let mut out = [0u8; N];
    hex::decode_to_slice(hex_text, &mut out)
        .map_err(|_| format!("{what} must be {} hex digits", 2 * N))?;
    Ok(out)
}

/// The dice key of a match, hex (see `docs/dice.md`).
pub fn key_hex(match_id: &str, server_seed: [u8; 32], seed_a: &[u8], seed_b: &[u8]) -> String {
    hex::encode(dice_key(
        match_id,
        &ServerSeed::from_bytes(server_seed),
        seed_a,
        seed_b,
    ))
}

/// Writes `count` items (dice, or raw words) of the stream of `key` to `out`.
pub fn write_stream(
    out: &mut impl Write,
    key: [u8; 32],
    count: u64,
    format: StreamFormat,
) -> io::Result<()> {
    let mut stream = DiceStream::new(key);
    let mut buf = Vec::with_capacity(64 * 1024);
    for _ in 0..count {
        match format {
            StreamFormat::Raw => buf.extend_from_slice(&stream.next_word().to_le_bytes()),
            StreamFormat::Dice => buf.push(stream.die()),
            StreamFormat::Text => buf.extend_from_slice(&[b'0' + stream.die(), b'\n']),
        }
        if buf.len() >= 60 * 1024 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY_1: &str = "01b604a9d476e3f9bc50dd55f0123dea7b7b8584332262fa1ed3ded014e96dff";

    #[test]
    fn key_matches_the_published_vector() {
        let seed: [u8; 32] = core::array::from_fn(|i| i as u8);
        assert_eq!(
            key_hex("baffle-test-vector-1", seed, b"anna", b"ben"),
            KEY_1
        );
        assert!(
            parse_hex::<32>("zz", "the key")
                .unwrap_err()
                .contains("64 hex digits")
        );
    }

    #[test]
    fn streams_in_every_format() {
        let key = parse_hex::<32>(KEY_1, "key").unwrap();
        let mut text = Vec::new();
        write_stream(&mut text, key, 5, StreamFormat::Text).unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), "3\n5\n6\n2\n5\n");
        let mut dice = Vec::new();
        write_stream(&mut dice, key, 100_000, StreamFormat::Dice).unwrap();
        assert_eq!(dice.len(), 100_000);
        assert_eq!(&dice[..3], &[3, 5, 6]);
        let mut raw = Vec::new();
        write_stream(&mut raw, key, 2, StreamFormat::Raw).unwrap();
        assert_eq!(
            raw,
            [3195272210u32.to_le_bytes(), 1942310044u32.to_le_bytes()].concat()
        );
    }
}
