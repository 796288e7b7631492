//! Operations per second of the core's hot paths, with criterion: what one press, one
//! roll, one audit record and one time-sync exchange cost before any I/O. The server's
//! throughput (docs/benchmarks.md) is these plus gRPC, the actor and the store.
//!
//! `cargo bench -p baffle-core --bench core_ops` (criterion prints time per operation and
//! operations per second; figures recorded in docs/benchmarks.md).

use std::hint::black_box;

use baffle_core::audit::Record;
use baffle_core::audit::signed_head::{SignedHead, statement};
use baffle_core::backgammon::setup::DiceSource;
use baffle_core::backgammon::{Command, Match, MatchSetup};
use baffle_core::chess::{ChessMatch, ChessSettings, Color, Laws, MatchCommand};
use baffle_core::clock::{Clock, TimeControl};
use baffle_core::device_time::TimeSync;
use baffle_core::dice::{
    DEFAULT_CHAIN_LENGTH, DiceStream, LiveChain, Position, ServerSeed, dice_key, link_hash,
    live_key,
};
use baffle_core::{Millis, Side, Timestamp};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

/// A clocked 25-point backgammon match with both players seated and A moving after the
/// opening roll, at t = 1 s.
fn moving_match() -> Match {
    let mut m = Match::new(MatchSetup::new(["Anna", "Ben"], 25, Timestamp(0))).unwrap();
    for side in Side::BOTH {
        m.execute(&Command::CheckIn { side }, Timestamp(0)).unwrap();
    }
    m.execute(
        &Command::OpeningThrow {
            throw: [6, 1],
            source: DiceSource::Server,
        },
        Timestamp(1_000),
    )
    .unwrap();
    m
}

fn clock(c: &mut Criterion) {
    let mut g = c.benchmark_group("clock");
    g.throughput(Throughput::Elements(1));
    let mut clock = Clock::new(TimeControl::fide_classical(), Timestamp(0));
    clock.start(Side::A, Timestamp(0)).unwrap();
    let mut now = 0;
    let mut side = Side::A;
    g.bench_function("press (Fischer, two periods)", |b| {
        b.iter(|| {
            now += 1_000;
            clock.press(side, Timestamp(now)).unwrap();
            side = side.other();
        })
    });
    g.bench_function("view of a running side", |b| {
        b.iter(|| black_box(clock.view(side, Timestamp(now + 500))))
    });
    g.bench_function("next flag instant", |b| {
        b.iter(|| black_box(clock.next_flag_at()))
    });
    g.finish();
}

fn backgammon(c: &mut Criterion) {
    let mut g = c.benchmark_group("backgammon");
    g.throughput(Throughput::Elements(1));
    let m = moving_match();
    g.bench_function("handle a press (checked, not applied)", |b| {
        b.iter(|| {
            black_box(
                m.decide(&Command::Press { side: Side::A }, Timestamp(5_000))
                    .unwrap(),
            )
        })
    });
    // A whole turn: a press, then the opponent's roll; the match grows as it is played,
    // so it is rebuilt (outside the timing) every 200 turns.
    g.throughput(Throughput::Elements(200));
    g.bench_function("a turn: press, then roll (executed)", |b| {
        b.iter_batched_ref(
            || (moving_match(), Side::A, 1_000i64),
            |(m, side, now)| {
                for _ in 0..200 {
                    *now += 2_000;
                    m.execute(&Command::Press { side: *side }, Timestamp(*now))
                        .unwrap();
                    *side = side.other();
                    let roll = Command::Roll {
                        side: *side,
                        dice: [3, 4],
                        source: DiceSource::Server,
                    };
                    m.execute(&roll, Timestamp(*now)).unwrap();
                }
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

fn chess(c: &mut Criterion) {
    let mut g = c.benchmark_group("chess");
    g.throughput(Throughput::Elements(1));
    let settings = ChessSettings {
        players: ["Anna".into(), "Ben".into()],
        control: TimeControl::fide_classical(),
        games: 2,
        start: Timestamp(0),
        default_time: Millis::mins(60),
        laws: Laws::Fide2023,
        supervised: true,
        chess960: false,
    };
    let mut m = ChessMatch::new(settings).unwrap();
    for color in [Color::White, Color::Black] {
        m.execute(
            &MatchCommand::Game(baffle_core::chess::Command::Arrive(color)),
            Timestamp(0),
        )
        .unwrap();
    }
    let mut now = 0;
    let mut color = Color::White;
    g.bench_function("press (executed)", |b| {
        b.iter(|| {
            now += 1_000;
            let press = MatchCommand::Game(baffle_core::chess::Command::Press(color));
            black_box(m.execute(&press, Timestamp(now)).unwrap());
            color = color.other();
        })
    });
    g.finish();
}

fn dice_and_audit(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice and audit");
    g.throughput(Throughput::Elements(1));
    let key = dice_key("m", &ServerSeed::from_bytes([7; 32]), b"", b"");
    let mut dice = DiceStream::new(key);
    g.bench_function("server roll (ChaCha20, rejection sampling)", |b| {
        b.iter(|| black_box(dice.roll()))
    });
    // Live dice (issue 35): per roll the server checks two links (one step each) and
    // hashes the draw's key before the same ChaCha20 roll; a player's client computes
    // each link from its tip, at worst a whole chain's steps.
    let seed = ServerSeed::from_bytes([7; 32]);
    let chain = LiveChain::new(
        [1; 32],
        DEFAULT_CHAIN_LENGTH,
        seed.commitment(),
        "m",
        Side::A,
    );
    let (anchor, link) = (chain.anchor(), chain.link(1).expect("link 1"));
    let at = Position::Roll {
        game: 1,
        side: Side::A,
        roll: 1,
    };
    g.bench_function("construction 2 roll at its position (stream set up)", |b| {
        b.iter(|| black_box(DiceStream::at(key, at).roll()))
    });
    g.bench_function("live roll (two links checked, draw key, roll)", |b| {
        b.iter(|| {
            for _ in 0..2 {
                assert_eq!(link_hash(&seed.commitment(), "m", Side::A, &link), anchor);
            }
            black_box(DiceStream::at(live_key(key, [link, link]), at).roll())
        })
    });
    g.bench_function("live dice client: a chain of 4,096 links made", |b| {
        b.iter(|| black_box(chain.anchor()))
    });
    let body =
        r#"{"kind":"bg.pressed","side":"A","at":1700000123456,"main_ms":583210,"delay_ms":0}"#;
    let mut last = Record::next(None, body.to_string());
    g.bench_function("chain a record (SHA-256 of a press body)", |b| {
        b.iter(|| {
            last = Record::next(Some(&last), body.to_string());
        })
    });
    // What the server adds to each update of a match (its head signed once, whatever
    // the number of followers), and what a witness or the verifier pays per head.
    let key = ed25519_dalek::SigningKey::from_bytes(&[9; 32]);
    let head = last.hash;
    g.bench_function("sign a head (Ed25519)", |b| {
        b.iter(|| {
            use ed25519_dalek::Signer;
            black_box(key.sign(&statement("r1-t7", 120, &head)))
        })
    });
    let signed = SignedHead {
        match_id: "r1-t7".into(),
        length: 120,
        head,
        signature: ed25519_dalek::Signer::sign(&key, &statement("r1-t7", 120, &head)).to_bytes(),
        signer: key.verifying_key().to_bytes(),
    };
    g.bench_function("check a signed head (Ed25519)", |b| {
        b.iter(|| black_box(signed.check()))
    });
    g.finish();
}

fn time_sync(c: &mut Criterion) {
    let mut g = c.benchmark_group("device time");
    g.throughput(Throughput::Elements(1));
    let mut sync = TimeSync::new();
    let mut t = 0i64;
    // Two minutes of exchanges every 100 ms, as a device sends them.
    for i in 0..1_200 {
        t += 100;
        let jitter = (i * 37) % 50;
        sync.add(t, t + 1_000 + jitter, t + 1_000 + jitter, t + 2 * jitter)
            .unwrap();
    }
    g.bench_function("add an exchange (two-minute window)", |b| {
        b.iter(|| {
            t += 100;
            sync.add(t, t + 1_010, t + 1_010, t + 20).unwrap();
        })
    });
    g.bench_function("map a device time (drift fit)", |b| {
        b.iter(|| black_box(sync.to_server(t - 50)))
    });
    g.finish();
}

criterion_group!(benches, clock, backgammon, chess, dice_and_audit, time_sync);
criterion_main!(benches);
