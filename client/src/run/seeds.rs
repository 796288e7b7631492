//! The players' part in the fair dice: the codes a director hands them, and each player's
//! seed — committed to before play and revealed after, or submitted outright.
//!
//! A player code names its match and side (`player.MATCH.a|b.SECRET`) and is the request's
//! credential; a code for another match is a usage error before anything is sent. The
//! director's one ruling on seeds is here too: more time to reveal them.

use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use tonic::transport::Channel;

use super::connection::{authed, channel, match_state, to_owner};
use super::outcome::{Outcome, refused, usage};
use super::wire::side;
use crate::cli::{Cli, RuleArgs, SideArg};
use crate::views::{MatchView, to_json};
use crate::{render, words};

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
        salt: None,
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

/// The server's commitment for `match_id`, 32 bytes, and the dice construction it
/// follows (a player's commitment, or chain, is bound to it).
pub(super) async fn published_commitment(
    channel: Channel,
    match_id: &str,
) -> Result<(baffle_core::dice::Commitment, u32), Outcome> {
    let published = AuditClient::new(channel)
        .get_commitment(v1::GetCommitmentRequest {
            match_id: match_id.to_string(),
        })
        .await
        .map_err(refused)?
        .into_inner();
    let server: [u8; 32] = ::hex::decode(&published.commitment)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| usage("the server's commitment is not 32 bytes of hex"))?;
    Ok((
        baffle_core::dice::Commitment(server),
        published.dice_construction,
    ))
}

/// `baffle audit commit`: commits to a player's seed (drawn from the OS, or given) and
/// prints what the player keeps: the command that reveals it, and the check of his
/// commitment after the match.
pub(super) async fn commit(
    channel: Channel,
    match_id: &str,
    code: &str,
    seed: &Option<String>,
) -> Result<Outcome, Outcome> {
    let player = code_side(code, match_id)?;
    let seed = match seed {
        Some(hex_seed) => ::hex::decode(hex_seed).map_err(|_| {
            usage("--seed must be hex (16 to 64 bytes): leave it out for a random seed")
        })?,
        None => random_bytes(32)?,
    };
    let (server, construction) = published_commitment(channel.clone(), match_id).await?;
    let (commitment, salt) = match construction {
        1 => (
            baffle_core::dice::player_commitment(match_id, player, &seed),
            None,
        ),
        _ => {
            let least = baffle_core::dice::MIN_PLAYER_SEED_V2;
            if seed.len() < least || seed.len() > baffle_core::dice::MAX_PLAYER_SEED {
                return Err(usage(format!(
                    "--seed has {} bytes: a seed has {least} to {} (leave it out for a random one)",
                    seed.len(),
                    baffle_core::dice::MAX_PLAYER_SEED
                )));
            }
            let salt = random_bytes(baffle_core::dice::SALT_LEN)?;
            let commitment =
                baffle_core::dice::player_commitment_v2(&server, match_id, player, &salt, &seed);
            (commitment, Some(salt))
        }
    };
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
    let (seed, commitment) = (::hex::encode(&seed), ::hex::encode(commitment));
    let salt_flag = salt.map_or(String::new(), |s| format!(" --salt {}", ::hex::encode(s)));
    let letter = player.to_string().to_lowercase();
    Ok(Outcome::ok(format!(
        "committed for {player}: {commitment}\n\
         keep these lines. Once both players have committed, reveal your seed with:\n  \
         baffle audit reveal-seed {match_id} --code {code} --seed {seed}{salt_flag}\n\
         After the match, check that your seed went into the dice, in this log and no other:\n  \
         baffle audit verify {match_id}.jsonl --require-reveal --player-seed {letter}={seed} \
         --player-commit {letter}={commitment}\n"
    )))
}

/// `n` bytes from the operating system's RNG.
pub(super) fn random_bytes(n: usize) -> Result<Vec<u8>, Outcome> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| usage(format!("no random bytes from the OS: {e}")))?;
    Ok(bytes)
}

/// `baffle audit reveal-seed`: reveals the seed a player committed to, with its salt.
pub(super) async fn reveal(
    channel: Channel,
    match_id: &str,
    code: &str,
    seed: &str,
    salt: &Option<String>,
) -> Result<Outcome, Outcome> {
    let player = code_side(code, match_id)?;
    let salt = salt
        .as_deref()
        .map(::hex::decode)
        .transpose()
        .map_err(|_| usage("--salt must be hex"))?;
    let request = v1::SubmitPlayerSeedRequest {
        match_id: match_id.to_string(),
        side: baffle_proto::convert::side_to_wire(player) as i32,
        seed: ::hex::decode(seed).map_err(|_| usage("--seed must be hex"))?,
        salt,
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
pub(super) fn code_side(code: &str, match_id: &str) -> Result<baffle_core::Side, Outcome> {
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

/// `baffle rule MATCH --reason … --article … extend-reveal MINUTES`: the players' reveals
/// are due MINUTES from now (`Audit.ExtendRevealDeadline`, recorded as `dice.reveal_due`
/// with the ruling). The server checks the ruling and the bounds, and refuses an
/// extension when no reveal is pending; the match is printed as it stands after it.
pub(super) async fn extend_reveal(
    cli: &Cli,
    token: &Option<String>,
    rule: &RuleArgs,
    minutes: u32,
) -> Result<Outcome, Outcome> {
    let request = v1::ExtendRevealDeadlineRequest {
        match_id: rule.match_id.clone(),
        seconds: minutes.saturating_mul(60),
        reason: rule.reason.clone(),
        article: rule.article.clone(),
    };
    let channel = channel(cli).await?;
    let r = to_owner(
        channel.clone(),
        authed(request, token)?,
        |c, r| async move { AuditClient::new(c).extend_reveal_deadline(r).await },
    )
    .await?;
    let state = match_state(channel, &rule.match_id).await?;
    if cli.json {
        return Ok(Outcome::ok(to_json(&MatchView::of(&state))));
    }
    // With live dice the extension is of the links a draw waits for.
    let links_due = state
        .live_dice
        .as_ref()
        .and_then(|l| l.waiting.as_ref())
        .map(|w| w.due_ms);
    let (id, due) = match links_due {
        Some(due) => ("cli-links-extended", due),
        None => ("cli-reveal-extended", state.reveal_due_ms),
    };
    let args = [
        ("due", words::time_of_day(due).into()),
        ("count", r.seq.into()),
    ];
    Ok(Outcome::ok(format!(
        "{}\n{}",
        words::say_with(id, &args),
        render::match_text(&state)
    )))
}
