//! Writes `core/src/backgammon/board/bearoff.bin`, the embedded bear-off tables, from
//! scratch: `cargo run --release -p baffle-core --example bearoff_table`.

use std::time::Instant;

use baffle_core::backgammon::board::bearoff;

fn main() -> std::io::Result<()> {
    let started = Instant::now();
    let table = bearoff::build();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/backgammon/board/bearoff.bin"
    );
    std::fs::write(path, &table)?;
    println!(
        "{} boards, {} bytes, built in {:.2} s: {path}",
        bearoff::BOARDS,
        table.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
