//! `baffle draw verify FILE`: a tournament's exported log checked offline, with no
//! server, through the core's one replay path (`baffle_core::tournament::replay`: the
//! chain, the revealed seed against the opening's commitment, the order it draws, each
//! Swiss round's pairing, each match against the draw), then the export's end line. The
//! report says what was checked; a log that fails is exit 1.

use std::path::Path;

use baffle_core::audit::Record;
use baffle_core::audit::reader::{Line, Reader};
use baffle_core::tournament::{Event, by_hand, replay};

use crate::exit;
use crate::words::{say, say_with};

/// What the log held, counted once it verified.
#[derive(Default)]
struct Counts {
    entrants: u64,
    drawn: Option<(usize, usize)>,
    swiss_rounds: u64,
    rounds: u64,
    assigned: u64,
    results: u64,
    rulings: u64,
}

fn count(records: &[Record]) -> Counts {
    let mut c = Counts::default();
    for r in records {
        match serde_json::from_str::<Event>(&r.body) {
            Ok(Event::Registered { .. }) => c.entrants += 1,
            Ok(Event::DrawMade { field, seeds, .. }) => c.drawn = Some((field.len(), seeds.len())),
            Ok(Event::RoundPaired { .. }) => c.swiss_rounds += 1,
            Ok(Event::RoundStarted { .. }) => c.rounds += 1,
            Ok(Event::Assigned { .. }) => c.assigned += 1,
            Ok(Event::Result { ruling, .. }) => {
                c.results += 1;
                if !ruling.is_empty() {
                    c.rulings += 1;
                }
            }
            Ok(Event::Postponed { .. } | Event::Rescheduled { .. } | Event::Replaced { .. }) => {
                c.rulings += 1;
            }
            _ => {}
        }
    }
    c
}

/// Reads the export at `file` (`-`: standard input) and checks it: the exit status and
/// the report. An unreadable file is a usage error, `Err`.
pub fn verify(file: &Path, head: Option<&str>) -> Result<(i32, String), String> {
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(file)
    }
    .map_err(|e| {
        say_with(
            "cli-file-unreadable",
            &[
                ("file", file.display().to_string().into()),
                ("why", e.to_string().into()),
            ],
        )
    })?;
    Ok(check(&text, head))
}

fn failed(why: String) -> (i32, String) {
    (
        exit::INVALID,
        say_with("cli-verify-failed", &[("why", why.into())]) + "\n",
    )
}

/// Checks an export's text: the exit status and the report.
pub fn check(text: &str, head: Option<&str>) -> (i32, String) {
    let head = match head.map(baffle_core::audit::Hash::from_hex) {
        None => None,
        Some(Some(h)) => Some(h),
        Some(None) => return failed(say("cli-verify-head-bad")),
    };
    let mut records = Vec::new();
    let mut end = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if end.is_some() {
            return failed(say_with(
                "cli-verify-after-end",
                &[("line", (i + 1).to_string().into())],
            ));
        }
        match Reader::export_line(line) {
            Ok(Line::Record(r)) => records.push(r),
            Ok(Line::End { records, head }) => end = Some((records, head)),
            Err(e) => {
                return failed(say_with(
                    "cli-verify-bad-line",
                    &[("line", (i + 1).to_string().into()), ("why", e.into())],
                ));
            }
        }
    }
    let by_hand = records
        .first()
        .and_then(|r| baffle_core::audit::kind_of(&r.body))
        .is_some_and(|kind| kind == "tournament.created");
    let (length, log_head, id, what) = if by_hand {
        match by_hand::replay(&records) {
            Ok(log) => {
                let what = made_by_hand(&log);
                (log.length, log.head, log.id, what)
            }
            Err(e) => return failed(e),
        }
    } else {
        match replay(&records) {
            Ok(t) => {
                let what = drawn(&t, &records);
                (t.length, t.head, t.id, what)
            }
            Err(e) => return failed(e),
        }
    };
    let mut out = say_with(
        "cli-verify-chain",
        &[
            ("count", length.into()),
            ("head", log_head.to_string().into()),
        ],
    ) + "\n";
    // Held to a head published before (the page's, `draw show`'s, a witness's): the
    // log must pass through it, so a log cut short or changed before it fails.
    if let Some(h) = head {
        if !records.iter().any(|r| r.hash == h) {
            return (
                exit::INVALID,
                out + &say_with(
                    "cli-verify-failed",
                    &[(
                        "why",
                        say_with("cli-verify-head-missing", &[("head", h.to_string().into())])
                            .into(),
                    )],
                ) + "\n",
            );
        }
        out += &say_with("cli-verify-head-ok", &[("head", h.to_string().into())]);
        out.push('\n');
    }
    match end {
        Some((n, head)) if n == length && head == log_head => {
            out += &say("cli-verify-end");
            out.push('\n');
        }
        Some(_) => {
            return (
                exit::INVALID,
                out + &say_with(
                    "cli-verify-failed",
                    &[("why", say("cli-verify-end-differs").into())],
                ) + "\n",
            );
        }
        None => {
            out += &say("cli-verify-no-end");
            out.push('\n');
        }
    }
    out += &what;
    out += &say_with("cli-verify-ok", &[("id", id.into())]);
    out.push('\n');
    (exit::OK, out)
}

/// What a drawn tournament's log held: its draw and its matches.
fn drawn(t: &baffle_core::tournament::Tournament, records: &[Record]) -> String {
    let mut out = String::new();
    let c = count(records);
    let commitment = hex::encode(t.commitment);
    match c.drawn {
        Some((field, seeds)) => {
            out += &say_with("cli-verify-seed", &[("commitment", commitment.into())]);
            out.push('\n');
            out += &say_with(
                "cli-verify-order",
                &[
                    ("field", field.to_string().into()),
                    ("seeds", seeds.to_string().into()),
                ],
            );
            out.push('\n');
        }
        None => {
            out += &say_with("cli-verify-not-drawn", &[("commitment", commitment.into())]);
            out.push('\n');
        }
    }
    if c.swiss_rounds > 0 {
        out += &say_with("cli-verify-swiss", &[("count", c.swiss_rounds.into())]);
        out.push('\n');
    }
    out += &say_with(
        "cli-verify-matches",
        &[
            ("entrants", c.entrants.into()),
            ("rounds", c.rounds.into()),
            ("assigned", c.assigned.into()),
            ("results", c.results.into()),
            ("rulings", c.rulings.into()),
        ],
    );
    out.push('\n');
    out
}

/// What a by-hand tournament's log held: its matches, and those replaced by a ruling.
fn made_by_hand(log: &by_hand::ByHand) -> String {
    let count = |n: usize| u64::try_from(n).unwrap_or(u64::MAX).into();
    let replaced = log
        .matches
        .iter()
        .filter(|m| m.replaced_by.is_some())
        .count();
    say_with(
        "cli-verify-by-hand",
        &[
            ("matches", count(log.matches.len())),
            ("replaced", count(replaced)),
        ],
    ) + "\n"
}
