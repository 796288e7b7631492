//! What a match's wire state is built from besides the game: the table around it
//! ([`StateContext`]), and the parts every game's state shows alike — the live dice
//! and the result. Below the games (`backgammon.rs`, `chess.rs`), which fill in their
//! own fields, and `wire::match_state`, which adds the rest.

use baffle_core::audit::Hash;
use baffle_core::table::MatchInfo;
use baffle_core::{Side, Timestamp};
use baffle_proto::v1;

/// Everything `match_state` needs besides the match itself.
pub struct StateContext<'a> {
    /// Where the match sits.
    pub info: &'a MatchInfo,
    /// The dice commitment, hex.
    pub commitment: &'a str,
    /// Records in the log.
    pub seq: u64,
    /// The newest record's hash.
    pub head: Hash,
    /// Now, for the clock.
    pub now: Timestamp,
    /// Dice anomalies raised so far, and the latest.
    pub anomalies: (u32, &'a str),
    /// Devices that connected, and whether they are connected now.
    pub devices: &'a std::collections::BTreeMap<String, bool>,
    /// The match's dice, for the players' seeds.
    pub dice: &'a baffle_core::table::TableDice,
    /// The head (`head` at `seq`) as the server signed it.
    pub signed_head: Option<v1::SignedHead>,
    /// What the last restart took from a clock and left to the director.
    pub uncredited: Option<baffle_core::table::Uncredited>,
    /// The match that replaced this one by a ruling, and the director's words (the
    /// directory's `replaced`): nothing is due in it any more.
    pub replaced: Option<&'a (String, String)>,
}

/// A match's live dice: the chains and the draw waiting for links (`docs/dice.md`).
pub(crate) fn live_dice(dice: &baffle_core::table::TableDice, over: bool) -> Option<v1::LiveDice> {
    use baffle_core::table::Asked;
    let live = dice.live()?;
    let chain = |side| {
        live.chain(side).map(|(head, left)| v1::LiveChain {
            head: hex::encode(head),
            left,
        })
    };
    Some(v1::LiveDice {
        chain_a: chain(Side::A),
        chain_b: chain(Side::B),
        // A match over waits for nothing (a withholder forfeited).
        waiting: live.pending().filter(|_| !over).map(|p| v1::LiveDraw {
            side: match p.asked {
                Asked::Roll(side) => baffle_proto::convert::side_to_wire(side),
                Asked::Opening => v1::Side::Unspecified,
            } as i32,
            asked_ms: p.at.as_ms(),
            due_ms: p.due.as_ms(),
            given_a: p.links[0].is_some(),
            given_b: p.links[1].is_some(),
        }),
    })
}

/// A finished match's result: `how` as an enum, and in words (its name without the
/// prefix: "penalty_points") for clients older than `how_kind`.
pub(crate) fn match_result(
    winner: v1::Side,
    how: v1::MatchEndKind,
    confirmed: bool,
) -> v1::MatchResult {
    let words = how.as_str_name().trim_start_matches("MATCH_END_KIND_");
    v1::MatchResult {
        winner: winner as i32,
        how: words.to_lowercase(),
        confirmed,
        how_kind: how as i32,
    }
}
