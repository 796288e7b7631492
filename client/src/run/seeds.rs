//! The players' part in the fair dice: the codes a director hands them, and each player's
//! seed — committed to before play and revealed after, or submitted outright.
//!
//! A player code names its match and side (`player.MATCH.a|b.SECRET`) and is the request's
//! credential; a code for another match is a usage error before anything is sent.

use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use tonic::transport::Channel;

use super::connection::{authed, to_owner};
use super::outcome::{Outcome, usage};
use super::wire::side;
use crate::cli::{Cli, SideArg};
use crate::views::to_json;

/// `baffle audit seed`: a player's seed, given outright (as text, or hex with `--hex`).
pub(super) async fn submit(
    channel: Channel,
    match_id: &str,
    s: SideArg,
    seed: &str,
    hex: bool,
    code: &str,
) -> Result<Outcome, Outcome> {
    let bytes = if hex {
        ::hex::decode(seed).map_err(|_| usage("the seed is not hex"))?
    } else {
        seed.as_bytes().to_vec()
    };
    let request = v1::SubmitPlayerSeedRequest {
        match_id: match_id.to_string(),
        side: side(s),
        seed: bytes,
    };
    let r = to_owner(
        channel,
        authed(request, &Some(code.to_string()))?,
        |c, r| async move { AuditClient::new(c).submit_player_seed(r).await },
    )
    .await?;
    Ok(Outcome::ok(format!(
        "seed recorded; the log has {} events\n",
        r.seq
    )))
}

/// `baffle audit player-codes`: issues the match's two player codes (shown once).
pub(super) async fn player_codes(
    cli: &Cli,
    channel: Channel,
    token: &Option<String>,
    match_id: &str,
) -> Result<Outcome, Outcome> {
    let request = v1::IssuePlayerCodesRequest {
        match_id: match_id.to_string(),
    };
    let r = to_owner(channel, authed(request, token)?, |c, r| async move {
        AuditClient::new(c).issue_player_codes(r).await
    })
    .await?;
    Ok(if cli.json {
        Outcome::ok(to_json(
            &serde_json::json!({ "match_id": match_id, "a": r.code_a, "b": r.code_b }),
        ))
    } else {
        Outcome::ok(format!(
            "player codes for {match_id} (shown once; hand each player his own):\nA  {}\nB  {}\n",
            r.code_a, r.code_b
        ))
    })
}

/// `baffle audit commit`: commits to a player's seed (given, or drawn from the OS) and
/// prints the seed for the player to keep and reveal later.
pub(super) async fn commit(
    channel: Channel,
    match_id: &str,
    code: &str,
    seed: &Option<String>,
) -> Result<Outcome, Outcome> {
    let player = code_side(code, match_id)?;
    let seed = match seed {
        Some(hex_seed) => ::hex::decode(hex_seed).map_err(|_| usage("--seed must be hex"))?,
        None => {
            let mut bytes = vec![0u8; 32];
            getrandom::fill(&mut bytes)
                .map_err(|e| usage(format!("no random seed from the OS: {e}")))?;
            bytes
        }
    };
    let commitment = baffle_core::dice::player_commitment(match_id, player, &seed);
    let request = v1::CommitPlayerSeedRequest {
        match_id: match_id.to_string(),
        side: baffle_proto::convert::side_to_wire(player) as i32,
        commitment: commitment.to_vec(),
    };
    to_owner(
        channel,
        authed(request, &Some(code.to_string()))?,
        |c, r| async move { AuditClient::new(c).commit_player_seed(r).await },
    )
    .await?;
    Ok(Outcome::ok(format!(
        "committed for {player}: {}\nyour seed, to reveal once both players have committed (keep it):\n{}\n",
        ::hex::encode(commitment),
        ::hex::encode(&seed)
    )))
}

/// `baffle audit reveal-seed`: reveals the seed a player committed to.
pub(super) async fn reveal(
    channel: Channel,
    match_id: &str,
    code: &str,
    seed: &str,
) -> Result<Outcome, Outcome> {
    let player = code_side(code, match_id)?;
    let request = v1::SubmitPlayerSeedRequest {
        match_id: match_id.to_string(),
        side: baffle_proto::convert::side_to_wire(player) as i32,
        seed: ::hex::decode(seed).map_err(|_| usage("--seed must be hex"))?,
    };
    let r = to_owner(
        channel,
        authed(request, &Some(code.to_string()))?,
        |c, r| async move { AuditClient::new(c).reveal_player_seed(r).await },
    )
    .await?;
    Ok(Outcome::ok(format!(
        "seed revealed for {player}; the log has {} events\n",
        r.seq
    )))
}

/// The side a player code is for, checked against the match it is used with.
fn code_side(code: &str, match_id: &str) -> Result<baffle_core::Side, Outcome> {
    let rest = code
        .strip_prefix(&format!("player.{match_id}."))
        .ok_or_else(|| usage(format!("--code is not a player code of match {match_id}")))?;
    match rest.split_once('.').map(|(side, _)| side) {
        Some("a") => Ok(baffle_core::Side::A),
        Some("b") => Ok(baffle_core::Side::B),
        _ => Err(usage(
            "--code is not a player code (player.MATCH.a|b.SECRET)",
        )),
    }
}
