//! Move generation: every legal play of a roll, per position, against a baseline (the
//! tests' slow checker, which walks every order of the dice without pruning).
//!
//! `cargo bench -p baffle-core --bench board_moves` (figures in docs/benchmarks.md).

#[path = "../tests/board/slow.rs"]
#[allow(dead_code)]
mod slow;

use std::hint::black_box;

use baffle_core::backgammon::board::{Position, legal_plays};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Positions real games pass through, with the roll to play in each: random legal plays
/// from the start, game after game, from a fixed seed.
fn sample(n: usize) -> Vec<(Position, [u8; 2])> {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut die = move || (rng.next_u32() % 6) as u8 + 1;
    let mut out = Vec::with_capacity(n);
    let mut pos = Position::starting();
    while out.len() < n {
        let dice = [die(), die()];
        out.push((pos, dice));
        let plays = legal_plays(&pos, dice).unwrap();
        let pick = (usize::from(die()) * 7 + usize::from(die())) % plays.len();
        pos = plays[pick].result.swap();
        if pos.outcome().is_some() {
            pos = Position::starting();
        }
    }
    out
}

fn moves(c: &mut Criterion) {
    let positions = sample(1_000);
    let plays: usize = positions
        .iter()
        .map(|(p, d)| legal_plays(p, *d).unwrap().len())
        .sum();
    println!("sample: 1000 positions from self-play, {plays} legal plays in all");
    let mut g = c.benchmark_group("board");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("legal plays, 1000 game positions", |b| {
        b.iter(|| {
            for (p, d) in &positions {
                black_box(legal_plays(black_box(p), *d).unwrap());
            }
        })
    });
    g.bench_function("baseline: slow checker, 1000 game positions", |b| {
        b.iter(|| {
            for (p, d) in &positions {
                black_box(slow::legal_results(black_box(p), *d));
            }
        })
    });
    g.throughput(Throughput::Elements(1));
    let start = Position::starting();
    for dice in [[3, 1], [6, 6], [2, 2]] {
        g.bench_function(
            format!("legal plays, opening {}-{}", dice[0], dice[1]),
            |b| b.iter(|| black_box(legal_plays(black_box(&start), dice).unwrap())),
        );
    }
    g.finish();
}

criterion_group!(benches, moves);
criterion_main!(benches);
