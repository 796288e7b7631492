//! Against GNU Backgammon itself (issue 23): gnubg (Debian's `gnubg`, a program nobody
//! here wrote) plays matches against itself and exports them as `.mat`; each is replayed
//! through our board. Every play gnubg made must be accepted for its roll, every
//! variation of it must get the verdict of the independent slow checker (most are
//! illegal and refused), and every game's result, computed from the final position and
//! the cube, must be the one gnubg wrote.
//!
//! Each match gnubg writes reads and writes back byte for byte, and gnubg writes our
//! exports back as the same bytes.
//!
//! Where gnubg is missing the test says so and passes, unless
//! `BAFFLE_GNUBG_TEST=required` — which `.ci/run` sets after installing it.

#[path = "../../core/tests/board/recorded.rs"]
mod recorded;
#[path = "../../core/tests/board/slow.rs"]
mod slow;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};

use baffle_core::backgammon::WinKind;
use baffle_core::backgammon::board::{
    Action, Ending, MatchRecord, NextTurn, Notation, Position, Segment, accept, adjudicate,
    parse_mat, record_from_events, replay_game, write_mat, write_sgf,
};

/// gnubg, or `None` with the reason said; required under `BAFFLE_GNUBG_TEST=required`.
fn gnubg_or_skip() -> Option<PathBuf> {
    let found = ["/usr/games/gnubg", "/usr/bin/gnubg"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists());
    match found {
        Some(p) => Some(p),
        None if std::env::var("BAFFLE_GNUBG_TEST").as_deref() == Ok("required") => {
            panic!("the gnubg test is required, and gnubg is not installed (apt-get install gnubg)")
        }
        None => {
            eprintln!(
                "skipped, gnubg is not installed: .ci/run installs it (apt-get install gnubg)"
            );
            None
        }
    }
}

/// Has gnubg play a `length`-point match against itself from `seed` (0-ply, so a match
/// takes about a second) and export it as `.mat`; returns the text.
fn gnubg_match(gnubg: &Path, dir: &Path, seed: u32, length: u32) -> String {
    let mat = dir.join(format!("m{seed}.mat"));
    let mut script = format!("set seed {seed}\n");
    for p in 0..2 {
        script.push_str(&format!(
            "set player {p} gnubg\nset player {p} chequerplay evaluation plies 0\n\
             set player {p} cubedecision evaluation plies 0\n"
        ));
    }
    script.push_str(&format!(
        "new match {length}\nexport match mat {}\n",
        mat.display()
    ));
    // On standard input, not with -c: from a command file gnubg stops after one move.
    let out = run_gnubg(gnubg, dir, &script);
    assert!(mat.exists(), "gnubg wrote no .mat: {}", out);
    std::fs::read_to_string(&mat).unwrap()
}

/// Runs gnubg in text mode on `script` (its standard input), with `home` as its home
/// directory; returns what it printed on both outputs.
///
/// Each run has a home of its own: gnubg makes `~/.gnubg` on its first start, and two
/// first starts at once (the tests run in parallel, on a fresh machine) made one of them
/// quit before reading its script.
fn run_gnubg(gnubg: &Path, home: &Path, script: &str) -> String {
    let mut child = Process::new(gnubg)
        .args(["-t", "-q"])
        .env("HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gnubg starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("gnubg runs");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Fails with the first line where `ours` and gnubg's text differ, line ends and
/// trailing spaces shown.
fn assert_same_text(what: &str, ours: &str, gnubg: &str) {
    if ours == gnubg {
        return;
    }
    let (mut a, mut b) = (ours.split_inclusive('\n'), gnubg.split_inclusive('\n'));
    for n in 1.. {
        let (x, y) = (a.next(), b.next());
        if x != y {
            panic!(
                "{what}: line {n} differs\n  ours:  {x:?}\n  gnubg: {y:?}\n--- gnubg ---\n{gnubg}"
            );
        }
    }
}

/// Variations of a play: each move's end one point either side, each move dropped, and
/// the whole play replaced by its first move alone.
fn variations(play: &str) -> Vec<String> {
    let Ok(n) = Notation::parse(play) else {
        return Vec::new();
    };
    let write = |segments: &[Segment]| {
        segments
            .iter()
            .map(|s| format!("{}/{}", s.from, s.to))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = Vec::new();
    for i in 0..n.segments.len() {
        for delta in [-1i16, 1] {
            let to = i16::from(n.segments[i].to) + delta;
            if (0..i16::from(n.segments[i].from)).contains(&to) {
                let mut s = n.segments.clone();
                s[i].to = to as u8;
                out.push(write(&s));
            }
        }
        let mut s = n.segments.clone();
        s.remove(i);
        out.push(write(&s));
    }
    out
}

/// The adjudication's claims (4.3 (iv), 4.5) made in gnubg's games, each checked against
/// how the game ended: how many of each kind were made.
#[derive(Debug, Default)]
struct Claims {
    certain: usize,
    no_gammon: usize,
    no_backgammon: usize,
    positions: usize,
}

impl Claims {
    /// `pos` before a roll of side 0 (with his dice if `next` has them); the game was won
    /// by side `winner` with `kind`.
    fn check(&mut self, pos: &Position, next: NextTurn, winner: usize, kind: WinKind) {
        let told = adjudicate(pos, next);
        self.positions += 1;
        if let Some(w) = told.certain_winner {
            assert_eq!(
                w,
                winner,
                "{next:?} {:?}: a certain win for the loser",
                pos.sides()
            );
            self.certain += 1;
        }
        if !told.gammon_possible[winner] {
            assert_eq!(kind, WinKind::Single, "{next:?} {:?}", pos.sides());
            self.no_gammon += 1;
        }
        if !told.backgammon_possible[winner] {
            assert_ne!(kind, WinKind::Backgammon, "{next:?} {:?}", pos.sides());
            self.no_backgammon += 1;
        }
    }
}

#[test]
fn gnubg_self_play_matches_replay_move_by_move_with_gnubgs_results() {
    let Some(gnubg) = gnubg_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut plays, mut refused, mut legal_variations, mut games) = (0, 0, 0, 0);
    let mut endings = [0usize; 3]; // borne off, dropped, conceded
    let mut claims = Claims::default();
    for seed in 1..=6u32 {
        let text = gnubg_match(&gnubg, dir.path(), seed, 5);
        let record = parse_mat(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_eq!(record.length, 5);
        // Written back, gnubg's file is the same bytes (docs/board.md, the .mat layout).
        assert_same_text(&format!("seed {seed}"), &write_mat(&record), &text);
        let mut score = [0u32; 2];
        for (g, game) in record.games.iter().enumerate() {
            assert_eq!(
                game.score,
                score,
                "seed {seed} game {}: the score carried",
                g + 1
            );
            let replayed = replay_game(game, g + 1)
                .unwrap_or_else(|e| panic!("seed {seed}: gnubg's play refused: {e}\n{text}"));
            let recorded = game
                .result
                .expect("every game of a finished match has a result");
            assert_eq!(
                replayed.result,
                Some(recorded),
                "seed {seed} game {}",
                g + 1
            );
            endings[match replayed.ending.unwrap() {
                Ending::BorneOff(_) => 0,
                Ending::Dropped => 1,
                Ending::Conceded(_) => 2,
            }] += 1;
            score[usize::from(recorded.winner)] += recorded.points;
            games += 1;
            plays += replayed.plays;
            // A game played to the last checker says who won and how, and so does gnubg's
            // resignation (it resigns what it cannot save): every claim the adjudication
            // made on the way, before and after each roll, must hold. A drop says nothing
            // of the board.
            let truth = match replayed.ending {
                Some(Ending::BorneOff(kind) | Ending::Conceded(kind)) => {
                    Some((recorded.winner, kind))
                }
                _ => None,
            };
            // Every play's variations: refused exactly when the slow checker says illegal.
            let mut pos = Position::starting();
            let mut mover = 0;
            for action in &game.actions {
                let Action::Roll { player, dice, play } = action else {
                    continue;
                };
                if *player != mover {
                    pos = pos.swap();
                    mover = *player;
                }
                let legal = slow::legal_results(&pos, *dice);
                for v in variations(play) {
                    let verdict = accept(&pos, *dice, &v);
                    let slow_says = Notation::parse(&v)
                        .and_then(|n| n.result(&pos))
                        .is_ok_and(|r| legal.contains(&slow::Board::from_position(&r)));
                    assert_eq!(
                        verdict.is_ok(),
                        slow_says,
                        "{dice:?} '{v}' (gnubg: '{play}')"
                    );
                    if let Err(e) = verdict {
                        assert!(e.article == "4.2 (iii)", "{e}");
                        refused += 1;
                    } else {
                        legal_variations += 1;
                    }
                }
                if let Some((winner, kind)) = truth {
                    // `pos` is seen by the roller, `mover`: side 0 is player `mover`.
                    let winner = usize::from(winner != *player);
                    claims.check(&pos, NextTurn::to_roll(0), winner, kind);
                    let thrown = NextTurn {
                        side: 0,
                        dice: Some(*dice),
                        then: None,
                    };
                    claims.check(&pos, thrown, winner, kind);
                }
                pos = accept(&pos, *dice, play).unwrap().result;
            }
        }
        assert!(
            score.iter().any(|&s| s >= 5),
            "seed {seed}: someone won the match: {score:?}"
        );
    }
    eprintln!(
        "gnubg: {games} games, {plays} plays accepted, {refused} illegal variations refused, \
         {legal_variations} legal variations accepted; endings {endings:?} (borne off, dropped, conceded); \
         adjudication claims borne out: {claims:?}"
    );
    assert!(
        claims.certain > 20 && claims.no_gammon > 20,
        "too few claims were put to the test: {claims:?}"
    );
    assert!(
        plays > 300 && refused > 300,
        "the test exercised too little"
    );
}

/// The two records hold the same games: scores, results, and action by action the same
/// players, dice, cube actions and positions after each play.
fn assert_same_games(ours: &MatchRecord, theirs: &MatchRecord) {
    assert_eq!(ours.length, theirs.length);
    assert_eq!(ours.games.len(), theirs.games.len());
    for (g, (a, b)) in ours.games.iter().zip(&theirs.games).enumerate() {
        assert_eq!(a.score, b.score, "game {}", g + 1);
        assert_eq!(a.result, b.result, "game {}", g + 1);
        assert_eq!(a.actions.len(), b.actions.len(), "game {}", g + 1);
        let (mut pa, mut pb) = (Position::starting(), Position::starting());
        let mut mover = 0;
        for (x, y) in a.actions.iter().zip(&b.actions) {
            match (x, y) {
                (
                    Action::Roll { player, dice, play },
                    Action::Roll {
                        player: p2,
                        dice: d2,
                        play: play2,
                    },
                ) => {
                    assert_eq!((player, dice), (p2, d2), "game {}", g + 1);
                    if *player != mover {
                        (pa, pb, mover) = (pa.swap(), pb.swap(), *player);
                    }
                    pa = accept(&pa, *dice, play).unwrap().result;
                    pb = accept(&pb, *dice, play2).unwrap().result;
                    assert_eq!(pa, pb, "game {}: '{play}' against gnubg's '{play2}'", g + 1);
                }
                _ => assert_eq!(x, y, "game {}", g + 1),
            }
        }
    }
}

#[test]
fn our_mat_and_sgf_exports_import_into_gnubg_with_the_same_moves_cube_and_score() {
    let Some(gnubg) = gnubg_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (m, events) = recorded::recorded_match(5, 2, 0);
    let ours = record_from_events(["Anna".into(), "Ben".into()], 5, &events).unwrap();
    assert_eq!(ours.games.len(), 2);
    assert!(matches!(
        ours.games[0].actions.last(),
        Some(Action::Drop { .. })
    ));
    assert!(
        ours.games[0]
            .actions
            .iter()
            .any(|a| matches!(a, Action::Take { .. }))
    );
    assert_eq!(m.games().len(), 2);
    let mat = dir.path().join("ours.mat");
    let our_text = write_mat(&ours);
    std::fs::write(&mat, &our_text).unwrap();
    let sgf = dir.path().join("ours.sgf");
    std::fs::write(&sgf, write_sgf(&ours, &events).unwrap()).unwrap();
    for (load, name) in [
        (format!("import mat {}", mat.display()), "mat"),
        (format!("load match {}", sgf.display()), "sgf"),
    ] {
        let back = dir.path().join(format!("back-{name}.mat"));
        let out = run_gnubg(
            &gnubg,
            dir.path(),
            &format!("{load}\nexport match mat {}\n", back.display()),
        );
        let text = std::fs::read_to_string(&back)
            .unwrap_or_else(|_| panic!("gnubg did not read our {name}: {out}"));
        let theirs = parse_mat(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_same_games(&ours, &theirs);
        assert_eq!(theirs.players, ours.players, "{name}");
        // And gnubg writes our match back as the very bytes of our .mat: each play in its
        // canonical step order, the date line from our EventDate (or the SGF's DT).
        assert_same_text(&format!("gnubg's export of our {name}"), &our_text, &text);
    }
}
