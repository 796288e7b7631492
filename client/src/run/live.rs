//! `baffle live …`: a player's own client in a match of live dice (`docs/dice.md`,
//! "Live dice"). `join` makes his chain from a secret tip drawn from the OS, keeps it in a
//! file only he can read and commits its anchor with his player code; run again, it finds
//! the chain the server already holds and resumes. `play` ([`play`]) follows the match,
//! gives his links as the draws are asked for and sends the play he types.
//!
//! The file ([`chain`]) holds the tip, the length, the side, the match and the server's
//! commitment: everything the links are computed from, so a restarted client gives the
//! same links.

mod chain;
mod play;

use std::path::Path;

use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use tonic::transport::Channel;

use self::chain::{Kept, held, load, new_chain, player_chain};
use super::connection::{authed, channel, match_state, to_owner};
use super::outcome::{Outcome, usage};
use super::seeds::published_commitment;
use crate::cli::{Cli, LiveCommand};
use crate::words;

/// `baffle live …`.
pub(super) async fn run_live(cli: &Cli, l: &LiveCommand) -> Result<Outcome, Outcome> {
    match l {
        LiveCommand::Join {
            match_id,
            code,
            chain_file,
        } => join(cli, match_id, code, chain_file.as_deref()).await,
        LiveCommand::Play {
            match_id,
            code,
            chain_file,
        } => play::play(cli, match_id, code, chain_file.as_deref()).await,
    }
}

/// `baffle live join`: the chain made (or read back) and its anchor committed, unless
/// the server already holds it with links left.
async fn join(
    cli: &Cli,
    match_id: &str,
    code: &str,
    chain_file: Option<&Path>,
) -> Result<Outcome, Outcome> {
    let (side, path) = player_chain(code, match_id, chain_file)?;
    let channel = channel(cli).await?;
    let s = match_state(channel.clone(), match_id).await?;
    let Some(live) = s.live_dice.as_ref() else {
        let args = [("match", match_id.into())];
        return Err(usage(words::say_with("live-not-live", &args)));
    };
    let (server, _) = published_commitment(channel.clone(), match_id).await?;
    let kept = match load(&path, match_id, side)? {
        Some(k) if k.server == server => k,
        Some(_) => {
            let args = [("file", path.display().to_string().into())];
            return Err(usage(words::say_with("live-file-other-server", &args)));
        }
        None => new_chain(&path, match_id, side, server)?,
    };
    let file = ("file", path.display().to_string().into());
    // The first chain's anchor is what tells his log from a twin's afterwards.
    let first = held(live, side).is_none();
    match held(live, side) {
        Some(h) if h.left > 0 && h.head == hex::encode(kept.head(h.left)) => {
            let args = [("match", match_id.into()), ("left", h.left.into()), file];
            return Ok(Outcome::ok(words::say_with("live-resumed", &args) + "\n"));
        }
        Some(h) if h.left > 0 => {
            let args = [("side", side.to_string().into()), file];
            return Err(usage(words::say_with("live-chain-mismatch", &args)));
        }
        // Spent (or never committed): a new chain, then committed.
        Some(_) => {
            let kept = new_chain(&path, match_id, side, server)?;
            commit(channel, match_id, code, &kept).await?;
        }
        None => commit(channel, match_id, code, &kept).await?,
    }
    let args = [
        ("match", match_id.into()),
        ("side", side.to_string().into()),
        ("length", kept.chain.length().into()),
        file,
    ];
    let mut out = words::say_with("live-joined", &args) + "\n";
    if first {
        let args = [
            ("match", match_id.into()),
            ("side", side.to_string().to_lowercase().into()),
            ("anchor", hex::encode(kept.chain.anchor()).into()),
        ];
        out += &(words::say_with("live-verify-hint", &args) + "\n");
    }
    Ok(Outcome::ok(out))
}

/// `Audit.CommitChain` with the player's code.
async fn commit(channel: Channel, match_id: &str, code: &str, kept: &Kept) -> Result<(), Outcome> {
    let request = v1::CommitChainRequest {
        match_id: match_id.to_string(),
        side: baffle_proto::convert::side_to_wire(kept.side) as i32,
        anchor: kept.chain.anchor().to_vec(),
        length: kept.chain.length(),
    };
    to_owner(
        channel,
        authed(request, &Some(code.to_string()))?,
        |c, r| async move { AuditClient::new(c).commit_chain(r).await },
    )
    .await
    .map(|_| ())
}
