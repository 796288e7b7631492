//! `baffle audit …`: the fair-dice audit of a match — its commitment, the exported log,
//! the server's seed once revealed, and offline verification of a log (exit 1 if bad).
//!
//! Player seeds and codes are in `seeds`; the log's checks themselves in `crate::audit`.

use std::path::Path;

use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;

use super::connection::{authed, channel, to_owner};
use super::outcome::{Outcome, refused, usage};
use super::seeds;
use crate::cli::{AuditCommand, Cli, VerifyArgs};
use crate::views::to_json;
use crate::{audit, exit};

/// `baffle audit …`.
pub(super) async fn run_audit(
    cli: &Cli,
    token: &Option<String>,
    command: &AuditCommand,
) -> Result<Outcome, Outcome> {
    match command {
        AuditCommand::Verify(args) => return verify(args),
        AuditCommand::CheckProof { file, signer } => {
            return Ok(Outcome::report(crate::witness::check_proof_file(
                file,
                signer.as_deref(),
            )));
        }
        AuditCommand::Witness { match_id, out } => {
            return Ok(witness(cli, match_id, out).await);
        }
        _ => {}
    }
    let channel = channel(cli).await?;
    match command {
        AuditCommand::Commitment { match_id } => commitment(cli, channel, match_id).await,
        AuditCommand::Seed {
            match_id,
            side,
            seed,
            hex,
            code,
        } => seeds::submit(channel, match_id, *side, seed, *hex, code).await,
        AuditCommand::PlayerCodes { match_id } => {
            seeds::player_codes(cli, channel, token, match_id).await
        }
        AuditCommand::Commit {
            match_id,
            code,
            seed,
        } => seeds::commit(channel, match_id, code, seed).await,
        AuditCommand::RevealSeed {
            match_id,
            code,
            seed,
            salt,
        } => seeds::reveal(channel, match_id, code, seed, salt).await,
        AuditCommand::Export { match_id, output } => {
            let text = audit::export_log(channel, match_id)
                .await
                .map_err(refused)?;
            match output {
                // `-o -`: standard output, as `-` means to most tools.
                Some(path) if path.as_os_str() != "-" => {
                    write_file(path, &text)?;
                    Ok(Outcome::ok(String::new()))
                }
                _ => Ok(Outcome::ok(text)),
            }
        }
        AuditCommand::Reveal { match_id } => reveal(cli, channel, token, match_id).await,
        AuditCommand::Verify(_)
        | AuditCommand::CheckProof { .. }
        | AuditCommand::Witness { .. } => unreachable!("handled above"),
    }
}

/// `audit commitment`: the hash of the server seed the match's dice are drawn from.
async fn commitment(
    cli: &Cli,
    channel: tonic::transport::Channel,
    match_id: &str,
) -> Result<Outcome, Outcome> {
    let c = AuditClient::new(channel)
        .get_commitment(v1::GetCommitmentRequest {
            match_id: match_id.to_string(),
        })
        .await
        .map_err(refused)?;
    let commitment = c.into_inner().commitment;
    Ok(Outcome::ok(if cli.json {
        to_json(&serde_json::json!({ "match_id": match_id, "commitment": commitment }))
    } else {
        format!("{commitment}\n")
    }))
}

/// `audit reveal`: the owner publishes the server seed once the match is over.
async fn reveal(
    cli: &Cli,
    channel: tonic::transport::Channel,
    token: &Option<String>,
    match_id: &str,
) -> Result<Outcome, Outcome> {
    let request = v1::RevealRequest {
        match_id: match_id.to_string(),
    };
    let r = to_owner(channel, authed(request, token)?, |c, r| async move {
        AuditClient::new(c).reveal(r).await
    })
    .await?;
    let seed = r.server_seed;
    Ok(Outcome::ok(if cli.json {
        to_json(&serde_json::json!({ "match_id": match_id, "server_seed": seed }))
    } else {
        format!("{seed}\n")
    }))
}

/// Whether the export at `file` is a tournament's log: its first record's body is a
/// `tournament.opened` (a draw's) or `tournament.created` (matches made by hand).
/// (Standard input is read once, so `-` is taken for a match's.)
fn is_tournament_log(file: &Path) -> bool {
    if file.as_os_str() == "-" {
        return false;
    }
    let Ok(text) = std::fs::read_to_string(file) else {
        return false;
    };
    let first = text.lines().next().unwrap_or_default();
    match baffle_core::audit::Reader::export_line(first) {
        Ok(baffle_core::audit::reader::Line::Record(r)) => {
            matches!(
                baffle_core::audit::kind_of(&r.body).as_deref(),
                Some("tournament.opened" | "tournament.created")
            )
        }
        _ => false,
    }
}

/// `baffle audit verify`: checks an exported log offline, with no server; the report is
/// printed either way, and a log that fails a check is exit 1.
fn verify(args: &VerifyArgs) -> Result<Outcome, Outcome> {
    let (file, head) = (&args.file, args.head.as_deref());
    // A tournament's log (its first record opens a tournament, not a match) is checked
    // as `baffle draw verify` checks it: one command verifies every log baffle exports.
    if is_tournament_log(file) {
        return Ok(Outcome::report(
            super::draw::verify::verify(file, head).map_err(usage)?,
        ));
    }
    let report = audit::verify_file_expecting(
        file,
        head,
        args.require_reveal,
        &args.player_seed,
        &args.player_commit,
        &args.witness,
    )
    .map_err(usage)?;
    let code = if report.is_ok() {
        exit::OK
    } else {
        exit::INVALID
    };
    // A seed alone does not tell a twin log apart: after the reveals the operator can
    // recommit it under another server seed (a stranger's run). Said, not refused.
    let err =
        if !args.player_seed.is_empty() && args.player_commit.is_empty() && args.witness.is_empty()
        {
            "note: --player-seed without --player-commit (or --witness) does not rule out a twin \
         log opened with another server seed: give the commitment `baffle audit commit` \
         printed (docs/dice.md)\n"
                .to_string()
        } else {
            String::new()
        };
    Ok(Outcome {
        code,
        out: format!("{report}\n"),
        err,
    })
}

/// `baffle audit witness` run here (in-process, its lines collected): until the match
/// ends or Ctrl-C. The binary runs it with its lines streamed instead.
async fn witness(cli: &Cli, match_id: &str, file: &Path) -> Outcome {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let server = cli.server.clone();
    let done = crate::witness::witness(server, match_id.into(), file, stop, &mut out, &mut err);
    let code = done.await.unwrap_or(1);
    Outcome {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err).into_owned(),
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), Outcome> {
    std::fs::write(path, text)
        .map_err(|e| Outcome::failed(1, format!("baffle: cannot write {}: {e}\n", path.display())))
}
