//! The director's adjudication help (4.3 (iv), 4.5) on the races real games pass through,
//! against the floor of anything that looks at the dice: generating one roll's legal
//! plays in the same positions.
//!
//! `cargo bench -p baffle-core --bench adjudication` (figures in docs/benchmarks.md). It
//! prints first the slowest single position of the sample, timed alone.

use std::hint::black_box;
use std::time::Instant;

use baffle_core::backgammon::board::{NextTurn, Position, adjudicate, legal_plays};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Race positions (no contact) from random self-play games, from a fixed seed, with the
/// side to roll: every race position of each game until `n` are collected.
pub fn races(n: usize) -> Vec<(Position, usize)> {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut die = move || (rng.next_u32() % 6) as u8 + 1;
    let mut out = Vec::with_capacity(n);
    let mut pos = Position::starting();
    let mut mover = 0;
    while out.len() < n {
        if !pos.has_contact() {
            // The position as A (side 0) and B see it, with whoever rolls next.
            let ab = if mover == 0 { pos } else { pos.swap() };
            out.push((ab, mover));
        }
        let dice = [die(), die()];
        let mut plays = legal_plays(&pos, dice).unwrap();
        // In the order of their positions, whatever order `legal_plays` gives: the
        // sample stays the one docs/benchmarks.md measured.
        plays.sort_by_key(|p| p.result);
        let pick = (usize::from(die()) * 7 + usize::from(die())) % plays.len();
        let after = plays[pick].result;
        if after.outcome().is_some() {
            pos = Position::starting();
            mover = 0;
        } else {
            pos = after.swap();
            mover = 1 - mover;
        }
    }
    out
}

fn adjudication(c: &mut Criterion) {
    let sample = races(1_000);
    let slowest = sample
        .iter()
        .map(|(p, next)| {
            let t = Instant::now();
            black_box(adjudicate(p, NextTurn::to_roll(*next)));
            (t.elapsed(), p)
        })
        .max_by_key(|(t, _)| *t)
        .unwrap();
    println!(
        "sample: 1000 race positions from self-play; slowest alone {:?} ({:?})",
        slowest.0,
        slowest.1.pips()
    );
    let mut g = c.benchmark_group("adjudication");
    g.throughput(Throughput::Elements(sample.len() as u64));
    g.bench_function("adjudicate, 1000 race positions", |b| {
        b.iter(|| {
            for (p, next) in &sample {
                black_box(adjudicate(black_box(p), NextTurn::to_roll(*next)));
            }
        })
    });
    g.bench_function("floor: legal plays of 2-1, same positions", |b| {
        b.iter(|| {
            for (p, next) in &sample {
                let seen = if *next == 0 { *p } else { p.swap() };
                black_box(legal_plays(black_box(&seen), [2, 1]).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, adjudication);
criterion_main!(benches);
