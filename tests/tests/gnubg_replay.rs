//! Against GNU Backgammon itself (issue 23): gnubg (Debian's `gnubg`, a program nobody
//! here wrote) plays matches against itself and exports them as `.mat`; each is replayed
//! through our board. Every play gnubg made must be accepted for its roll, every
//! variation of it must get the verdict of the independent slow checker (most are
//! illegal and refused), and every game's result, computed from the final position and
//! the cube, must be the one gnubg wrote.
//!
//! Where gnubg is missing the test says so and passes, unless
//! `BAFFLE_GNUBG_TEST=required` — which `.ci/run` sets after installing it.

#[path = "../../core/tests/board/slow.rs"]
mod slow;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use baffle_core::backgammon::board::{
    Action, Ending, Notation, Position, Segment, accept, parse_mat, replay_game,
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
    let out = run_gnubg(gnubg, &script);
    assert!(mat.exists(), "gnubg wrote no .mat: {}", out);
    std::fs::read_to_string(&mat).unwrap()
}

/// Runs gnubg in text mode on `script` (its standard input); returns what it printed.
fn run_gnubg(gnubg: &Path, script: &str) -> String {
    let mut child = Command::new(gnubg)
        .args(["-t", "-q"])
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
    String::from_utf8_lossy(&out.stdout).into_owned()
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

#[test]
fn gnubg_self_play_matches_replay_move_by_move_with_gnubgs_results() {
    let Some(gnubg) = gnubg_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut plays, mut refused, mut legal_variations, mut games) = (0, 0, 0, 0);
    let mut endings = [0usize; 3]; // borne off, dropped, conceded
    for seed in 1..=6u32 {
        let text = gnubg_match(&gnubg, dir.path(), seed, 5);
        let record = parse_mat(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_eq!(record.length, 5);
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
         {legal_variations} legal variations accepted; endings {endings:?} (borne off, dropped, conceded)"
    );
    assert!(
        plays > 300 && refused > 300,
        "the test exercised too little"
    );
}
