//! Move generation: every legal play of a roll, per position, against two baselines: the
//! tests' slow checker, which walks every order of the dice without pruning, and the
//! `bkgm` crate's generator of legal positions (its own position type, converted outside
//! the timed loop). The setup checks that `bkgm` and ours find the same number of distinct
//! resulting positions on every position timed, so that both do the same work.
//!
//! `cargo bench -p baffle-core --bench board_moves` (figures in docs/benchmarks.md).

#[path = "../tests/board/slow.rs"]
#[allow(dead_code)]
mod slow;

use std::collections::HashSet;
use std::hint::black_box;
use std::time::Instant;

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
        let mut plays = legal_plays(&pos, dice).unwrap();
        // In the order of their positions, whatever order `legal_plays` gives: the
        // sample stays the one docs/benchmarks.md measured.
        plays.sort_by_key(|p| p.result);
        let pick = (usize::from(die()) * 7 + usize::from(die())) % plays.len();
        pos = plays[pick].result.swap();
        if pos.outcome().is_some() {
            pos = Position::starting();
        }
    }
    out
}

/// A position as `bkgm` keeps it: `pips[1..=24]` the mover's points, his checkers
/// positive and the opponent's negative; `pips[25]` the mover's bar, `pips[0]` the
/// opponent's (negative).
fn to_bkgm(p: &Position) -> bkgm::Position<15> {
    let [me, them] = p.sides();
    let mut pips = [0i8; 26];
    for point in 1..=24 {
        // The opponent's own point q is the mover's 25 − q.
        pips[point] = me[point - 1] as i8 - them[24 - point] as i8;
    }
    pips[25] = me[24] as i8;
    pips[0] = -(them[24] as i8);
    bkgm::Position::try_from(pips).unwrap()
}

fn bkgm_positions(p: &bkgm::Position<15>, d: &bkgm::Dice) -> Vec<bkgm::Position<15>> {
    bkgm::legal_positions_with::<bkgm::ClassicRules, 15>(*p, d)
}

/// The positions in `bkgm`'s form, and a check that it finds as many distinct resulting
/// positions as `legal_plays` on each; says how many of its results repeat one.
fn to_bkgm_all(positions: &[(Position, [u8; 2])]) -> Vec<(bkgm::Position<15>, bkgm::Dice)> {
    let mut repeats = 0;
    let theirs: Vec<_> = positions
        .iter()
        .map(|(p, d)| {
            let (b, dice) = (to_bkgm(p), bkgm::Dice::new(d[0].into(), d[1].into()));
            let found = bkgm_positions(&b, &dice);
            let distinct: HashSet<_> = found.iter().copied().collect();
            let ours = legal_plays(p, *d).unwrap().len();
            assert_eq!(distinct.len(), ours, "bkgm and ours differ on {p} {d:?}");
            repeats += found.len() - distinct.len();
            (b, dice)
        })
        .collect();
    println!(
        "bkgm: the same number of distinct positions on all {}; {repeats} of its results repeat one",
        positions.len()
    );
    theirs
}

/// Ours and bkgm's on the same positions in alternation, 600 short rounds each, the
/// fastest round of each kept: on a shared machine whose load comes and goes,
/// criterion's means of one after the other can differ by the load alone (2-2 read 2.3x
/// and 2.6x in two runs, 1.4x paired); a round short enough to miss the other builds
/// shows the code's cost.
fn paired(name: &str, ours: &[(Position, [u8; 2])], theirs: &[(bkgm::Position<15>, bkgm::Dice)]) {
    let reps = 1000 / ours.len().min(1000);
    let (mut a, mut b) = (f64::MAX, f64::MAX);
    for _ in 0..600 {
        let t = Instant::now();
        for _ in 0..reps {
            for (p, d) in ours {
                black_box(legal_plays(black_box(p), *d).unwrap());
            }
        }
        a = a.min(t.elapsed().as_secs_f64() / reps as f64);
        let t = Instant::now();
        for _ in 0..reps {
            for (p, d) in theirs {
                black_box(bkgm_positions(black_box(p), d));
            }
        }
        b = b.min(t.elapsed().as_secs_f64() / reps as f64);
    }
    println!(
        "paired, fastest of 600 rounds, {name}: ours {:.3} µs, bkgm {:.3} µs, ratio {:.2}",
        a * 1e6,
        b * 1e6,
        a / b
    );
}

fn moves(c: &mut Criterion) {
    let positions = sample(1_000);
    let plays: usize = positions
        .iter()
        .map(|(p, d)| legal_plays(p, *d).unwrap().len())
        .sum();
    println!("sample: 1000 positions from self-play, {plays} legal plays in all");
    let start = Position::starting();
    let openings = [[3, 1], [6, 6], [2, 2]];
    let theirs = to_bkgm_all(&positions);
    let theirs_open = to_bkgm_all(&openings.map(|d| (start, d)));
    paired("1000 game positions", &positions, &theirs);
    for (dice, theirs) in openings.iter().zip(&theirs_open) {
        let name = format!("opening {}-{}", dice[0], dice[1]);
        paired(&name, &[(start, *dice)], std::slice::from_ref(theirs));
    }
    let mut g = c.benchmark_group("board");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("legal plays, 1000 game positions", |b| {
        b.iter(|| {
            for (p, d) in &positions {
                black_box(legal_plays(black_box(p), *d).unwrap());
            }
        })
    });
    g.bench_function("baseline: bkgm, 1000 game positions", |b| {
        b.iter(|| {
            for (p, d) in &theirs {
                black_box(bkgm_positions(black_box(p), d));
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
    for (dice, (p, d)) in openings.iter().zip(&theirs_open) {
        let name = format!("opening {}-{}", dice[0], dice[1]);
        g.bench_function(format!("legal plays, {name}"), |b| {
            b.iter(|| black_box(legal_plays(black_box(&start), *dice).unwrap()))
        });
        g.bench_function(format!("baseline: bkgm, {name}"), |b| {
            b.iter(|| black_box(bkgm_positions(black_box(p), d)))
        });
    }
    g.finish();
}

criterion_group!(benches, moves);
criterion_main!(benches);
