//! The dice of a match as the director and the room see them (`docs/dice.md`): whose
//! committed seed the match is waiting for and until when (`MatchState.reveal_due_ms`),
//! the alert once that instant is past on the server's clock, and — once the server's
//! seed is revealed (`dice_revealed`) — the dice recomputed here from the exported log,
//! so that "verified" is said only of a log this client checked itself.

use baffle_core::audit::Hash;
use baffle_core::audit::verify::{Expect, verify_expecting};
use baffle_proto::v1;
use tonic::transport::Channel;

use crate::words::{self, time_of_day};

/// A player whose committed seed is not revealed while the reveals are due.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingReveal {
    /// His side, as the wire numbers it.
    pub side: i32,
    /// His name.
    pub name: String,
    /// When the reveals are due, ms on the server's clock.
    pub due_ms: i64,
}

impl PendingReveal {
    /// The side's letter, as the command line takes it: "A" or "B".
    pub fn letter(&self) -> &'static str {
        if self.side == v1::Side::B as i32 {
            "B"
        } else {
            "A"
        }
    }

    /// Whether the deadline has passed at `now_ms` (the server's clock).
    pub fn overdue(&self, now_ms: i64) -> bool {
        now_ms >= self.due_ms
    }
}

/// The players of `s` the dice wait for, while a reveal deadline is in force and the
/// match has no result; empty otherwise: once one player has committed, those who have
/// not committed yet — the only ones who can act, since nobody reveals before both have
/// committed (a stranger's run: with only A committed, the alert named A and offered to
/// forfeit him, while B was the one withholding) — and once both have, those who have not
/// revealed. No die is drawn until they do; once the match has a result (a forfeit
/// ruled) no die is needed.
pub fn pending(s: &v1::MatchState) -> Vec<PendingReveal> {
    if s.reveal_due_ms <= 0 || s.result.is_some() {
        return Vec::new();
    }
    let sides = [(v1::Side::A, &s.player_a), (v1::Side::B, &s.player_b)];
    let uncommitted = s.player_seeds.iter().any(|p| p.commitment.is_empty());
    s.player_seeds
        .iter()
        .zip(sides)
        .filter(|(seed, _)| match uncommitted {
            true => seed.commitment.is_empty(),
            false => seed.seed.is_empty(),
        })
        .map(|(_, (side, name))| PendingReveal {
            side: side as i32,
            name: name.clone(),
            due_ms: s.reveal_due_ms,
        })
        .collect()
}

/// Whether the server draws dice for `s`: backgammon with server dice, or a Chess960
/// match's position. (Every match has a server seed and a commitment; only these have
/// draws to recompute.)
pub fn uses_server_dice(s: &v1::MatchState) -> bool {
    match &s.chess {
        Some(c) => c.chess960,
        None => s.dice_source == "server",
    }
}

/// What recomputing a revealed match's dice here found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiceCheck {
    /// The log verifies, reveal included: every server draw recomputed and matched.
    Verified {
        /// How many server draws (rolls, opening rolls, a Chess960 position).
        draws: usize,
    },
    /// The log does not verify.
    Failed {
        /// Why, in the verifier's words.
        why: String,
    },
    /// The log could not be read (the server unreachable, a stream cut): nothing was
    /// checked, so nothing is said of the dice.
    Unreadable {
        /// Why.
        why: String,
    },
}

/// Exports the log of `match_id` and verifies it as `baffle audit verify --require-reveal
/// --head HEAD` would: `head` is a head hash this client saw in the match's state, so
/// the log checked is the one that was shown.
pub async fn check(channel: Channel, match_id: &str, head: &str) -> DiceCheck {
    let text = match crate::audit::export_log(channel, match_id).await {
        Ok(text) => text,
        Err(status) => {
            return DiceCheck::Unreadable {
                why: status.message().to_string(),
            };
        }
    };
    let expect = Expect {
        head: Hash::from_hex(head),
        reveal: true,
        ..Expect::default()
    };
    let report = verify_expecting(&text, &expect);
    match report.problem {
        None => DiceCheck::Verified {
            draws: report.dice_verified,
        },
        Some(problem) => DiceCheck::Failed {
            why: problem.reason,
        },
    }
}

/// Live dice: the players whose link the draw in waiting still needs, with its deadline
/// (`MatchState.live_dice.waiting`); empty once the match has a result.
pub fn awaited_links(s: &v1::MatchState) -> Vec<PendingReveal> {
    let Some(w) = s.live_dice.as_ref().and_then(|l| l.waiting.as_ref()) else {
        return Vec::new();
    };
    if s.result.is_some() {
        return Vec::new();
    }
    [
        (v1::Side::A, &s.player_a, w.given_a),
        (v1::Side::B, &s.player_b, w.given_b),
    ]
    .into_iter()
    .filter(|(_, _, given)| !given)
    .map(|(side, name, _)| PendingReveal {
        side: side as i32,
        name: name.clone(),
        due_ms: w.due_ms,
    })
    .collect()
}

/// Live dice (`docs/dice.md`, "Live dice"): the draw asked for and waiting for the
/// players' links — whose roll (or the opening), whose links are missing and until when,
/// and past the deadline (at `now_ms`, the server's clock, when known) that it is
/// overdue and how the director extends it; nothing when no draw waits or the match has
/// a result.
pub fn live_lines(s: &v1::MatchState, now_ms: Option<i64>) -> Vec<String> {
    let Some(w) = s.live_dice.as_ref().and_then(|l| l.waiting.as_ref()) else {
        return Vec::new();
    };
    let missing: Vec<String> = awaited_links(s).into_iter().map(|p| p.name).collect();
    if missing.is_empty() {
        return Vec::new();
    }
    let draw = match w.side {
        x if x == v1::Side::A as i32 => {
            words::say_with("live-draw-roll", &[("name", s.player_a.clone().into())])
        }
        x if x == v1::Side::B as i32 => {
            words::say_with("live-draw-roll", &[("name", s.player_b.clone().into())])
        }
        _ => words::say("live-draw-opening"),
    };
    let args = [
        ("draw", draw.into()),
        ("names", missing.join(", ").into()),
        ("due", time_of_day(w.due_ms).into()),
        ("match", s.match_id.clone().into()),
    ];
    let overdue = now_ms.is_some_and(|now| now >= w.due_ms);
    let id = if overdue {
        "cli-live-overdue"
    } else {
        "cli-live-waiting"
    };
    vec![words::say_with(id, &args)]
}

/// The dice lines of `match show` and the console's match in full: whose seed is
/// awaited and until when — past the deadline (judged at `now_ms`, the server's clock,
/// when known) the alert with both rulings — and, once the seed is revealed, what the
/// check found (or how to run it, when it was not run).
pub fn lines(s: &v1::MatchState, now_ms: Option<i64>, check: Option<&DiceCheck>) -> Vec<String> {
    let mut out: Vec<String> = pending(s)
        .iter()
        .map(|p| match now_ms {
            Some(now) if p.overdue(now) => overdue_alert(&s.match_id, p),
            _ => words::say_with(
                "cli-reveal-pending",
                &[
                    ("name", p.name.clone().into()),
                    ("due", time_of_day(p.due_ms).into()),
                ],
            ),
        })
        .collect();
    out.extend(live_lines(s, now_ms));
    if s.dice_revealed && uses_server_dice(s) {
        out.push(match check {
            Some(DiceCheck::Verified { draws }) => {
                words::say_with("cli-dice-verified", &[("count", (*draws as u32).into())])
            }
            Some(DiceCheck::Failed { why }) => {
                words::say_with("cli-dice-not-verified", &[("why", why.clone().into())])
            }
            Some(DiceCheck::Unreadable { why }) => {
                words::say_with("cli-dice-unreadable", &[("why", why.clone().into())])
            }
            None => words::say_with("cli-dice-revealed", &[("match", s.match_id.clone().into())]),
        });
    }
    out
}

/// The alert for a reveal past its deadline, with the two rulings a director has.
pub fn overdue_alert(match_id: &str, p: &PendingReveal) -> String {
    words::say_with(
        "cli-reveal-overdue",
        &[
            ("name", p.name.clone().into()),
            ("due", time_of_day(p.due_ms).into()),
            ("match", match_id.into()),
            ("side", p.letter().into()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting_for_ben() -> v1::MatchState {
        let seed = |commitment: &str, seed: &str| v1::PlayerSeed {
            commitment: commitment.into(),
            seed: seed.into(),
        };
        v1::MatchState {
            match_id: "m".into(),
            player_a: "Anna".into(),
            player_b: "Ben".into(),
            player_seeds: vec![seed("aa", "01"), seed("bb", "")],
            reveal_due_ms: 14 * 3_600_000 + 32 * 60_000,
            ..Default::default()
        }
    }

    #[test]
    fn only_a_committed_unrevealed_seed_under_a_deadline_is_pending() {
        let s = waiting_for_ben();
        let pending = pending(&s);
        assert_eq!(pending.len(), 1);
        assert_eq!(
            (pending[0].name.as_str(), pending[0].letter()),
            ("Ben", "B")
        );
        assert!(!pending[0].overdue(s.reveal_due_ms - 1));
        assert!(pending[0].overdue(s.reveal_due_ms));
        let mut no_deadline = s.clone();
        no_deadline.reveal_due_ms = 0;
        assert!(super::pending(&no_deadline).is_empty());
        // The staller forfeited: the match has its result, nothing is awaited.
        let mut forfeited = s.clone();
        forfeited.result = Some(v1::MatchResult::default());
        assert!(super::pending(&forfeited).is_empty());
    }

    #[test]
    fn with_one_commitment_the_player_who_has_not_committed_is_awaited() {
        let mut s = waiting_for_ben();
        s.player_seeds[0].seed.clear();
        s.player_seeds[1].commitment.clear();
        let pending = pending(&s);
        assert_eq!(pending.len(), 1);
        assert_eq!(
            pending[0].letter(),
            "B",
            "Anna cannot reveal before Ben commits"
        );
    }

    #[test]
    fn the_lines_say_who_and_when_and_past_the_deadline_both_rulings() {
        let s = waiting_for_ben();
        let before = lines(&s, Some(s.reveal_due_ms - 1), None);
        assert_eq!(
            before,
            ["dice   waiting for Ben's seed (due 14:32 UTC): no die is drawn until it is revealed"]
        );
        let after = lines(&s, Some(s.reveal_due_ms), None).join("\n");
        assert!(
            after.contains("Ben has not revealed his seed: due 14:32 UTC")
                && after.contains("extend-reveal MINUTES")
                && after.contains("forfeit-match B"),
            "{after}"
        );
        // Without the server's time (a command's reply) nothing is judged overdue.
        assert_eq!(lines(&s, None, None), before);
    }

    #[test]
    fn a_revealed_seed_is_verified_only_when_checked() {
        let mut s = waiting_for_ben();
        s.reveal_due_ms = 0;
        s.dice_revealed = true;
        s.dice_source = "server".into();
        let unchecked = lines(&s, None, None).join("\n");
        assert!(unchecked.contains("baffle audit verify"), "{unchecked}");
        let verified = lines(&s, None, Some(&DiceCheck::Verified { draws: 12 }));
        assert_eq!(
            verified,
            ["dice   verified: all 12 server draws recomputed from the revealed seed"]
        );
        // A log that could not be read is not a failed verification.
        let unread = DiceCheck::Unreadable {
            why: "server unreachable".into(),
        };
        assert_eq!(
            lines(&s, None, Some(&unread)),
            ["dice   not checked: the log could not be read (server unreachable)"]
        );
    }
}
