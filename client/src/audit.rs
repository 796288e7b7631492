//! The audit log: `baffle audit export` fetches a match's log from the server as JSON
//! Lines, and `baffle audit verify` checks such a file offline.

use std::path::Path;

use baffle_core::Side;
use baffle_core::audit::Hash;
use baffle_core::audit::verify::{Expect, Report, verify_expecting};
use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use tokio_stream::StreamExt;
use tonic::transport::Channel;

/// Streams a match's log from the server into the JSON Lines export (docs/audit-log.md),
/// each line ending in a newline. No token needed.
pub async fn export_log(channel: Channel, match_id: &str) -> Result<String, tonic::Status> {
    let request = v1::ExportLogRequest {
        match_id: match_id.to_string(),
    };
    let mut lines = AuditClient::new(channel)
        .export_log(request)
        .await?
        .into_inner();
    let mut text = String::new();
    while let Some(line) = lines.next().await {
        text.push_str(&line?.line);
        text.push('\n');
    }
    Ok(text)
}

/// Reads and verifies the export at `path`; `head` is a head hash a follower witnessed.
pub fn verify_file(path: &Path, head: Option<&str>) -> Result<Report, String> {
    verify_file_expecting(path, head, false, &[], &[], &[])
}

/// Reads and verifies the export at `path`, with what the verifier asks of it: a
/// witnessed head, the reveal, players' seeds given as `SIDE=HEX` (`a=0badc0de`), and the
/// signed heads kept in `witness` files (`baffle audit witness`).
pub fn verify_file_expecting(
    path: &Path,
    head: Option<&str>,
    reveal: bool,
    player_seeds: &[String],
    player_commits: &[String],
    witness: &[std::path::PathBuf],
) -> Result<Report, String> {
    let signed_heads = crate::witness::read_witness_files(witness)?;
    let head = head
        .map(|h| {
            Hash::from_hex(h)
                .ok_or_else(|| format!("--head must be 64 lowercase hex digits, not {h:?}"))
        })
        .transpose()?;
    let player_seeds = player_seeds
        .iter()
        .map(|given| side_and_hex("--player-seed", given))
        .collect::<Result<_, _>>()?;
    let player_commits = player_commits
        .iter()
        .map(|given| side_and_hex("--player-commit", given))
        .collect::<Result<_, _>>()?;
    // `-` is standard input, as `audit export -o -` writes standard output: an export
    // can be piped straight into the verifier.
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(path)
    }
    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let expect = Expect {
        head,
        reveal,
        player_seeds,
        player_commits,
        signed_heads,
    };
    Ok(verify_expecting(&text, &expect))
}

/// `a=0badc0de` or `B=…`: a side and bytes in hex (a seed or a commitment), for `flag`.
fn side_and_hex(flag: &str, given: &str) -> Result<(Side, Vec<u8>), String> {
    let usage = || format!("{flag} takes SIDE=HEX (a=0badc0de), not {given:?}");
    let (side, seed) = given.split_once('=').ok_or_else(usage)?;
    let side = match side.trim() {
        "a" | "A" => Side::A,
        "b" | "B" => Side::B,
        _ => return Err(usage()),
    };
    let seed = hex::decode(seed.trim()).map_err(|_| usage())?;
    Ok((side, seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use baffle_core::audit::Chain;
    use baffle_core::audit::export::to_jsonl;
    use baffle_core::backgammon::{Command, MatchSetup};
    use baffle_core::dice::ServerSeed;
    use baffle_core::table::{GameSetup, MatchInfo, Request, Table};
    use baffle_core::{Side, Timestamp};
    use std::io::Write;

    #[test]
    fn good_and_tampered_files() {
        let info = MatchInfo {
            id: "m".into(),
            tournament: "t".into(),
            round: 1,
            table: "1".into(),
        };
        let setup = GameSetup::Backgammon(MatchSetup::new(["Ann", "Bo"], 3, Timestamp(0)));
        let seed = ServerSeed::from_bytes([1; 32]);
        let (table, mut records) = Table::create(info, setup, seed).unwrap();
        let check_in = Request::Backgammon(Command::CheckIn { side: Side::A });
        records.extend(table.plan(&check_in, Timestamp(0)).unwrap().records);
        let mut chain = Chain::new();
        for r in records {
            chain.append(r.body);
        }
        let good = to_jsonl(chain.records());
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(good.as_bytes()).unwrap();
        let head = chain.head().to_string();
        assert!(verify_file(file.path(), Some(&head)).unwrap().is_ok());

        let mut bad = tempfile::NamedTempFile::new().unwrap();
        bad.write_all(good.replace(r#"\"A\""#, r#"\"B\""#).as_bytes())
            .unwrap();
        let report = verify_file(bad.path(), None).unwrap();
        assert_eq!(report.problem.unwrap().line, 3);

        assert!(
            verify_file(Path::new("/nonexistent/log.jsonl"), None)
                .unwrap_err()
                .contains("cannot read")
        );
        assert!(
            verify_file(file.path(), Some("xyz"))
                .unwrap_err()
                .contains("--head")
        );
    }

    fn fixture(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../core/tests/fixtures/logs-before-table")
            .join(name)
    }

    #[test]
    fn the_reveal_and_a_players_own_seed_can_be_required() {
        let seeded = fixture("server-seeded.jsonl");
        let ok = |seeds: &[&str]| {
            let seeds: Vec<String> = seeds.iter().map(|s| s.to_string()).collect();
            verify_file_expecting(&seeded, None, true, &seeds, &[], &[]).unwrap()
        };
        assert!(ok(&["a=010203", "B=09090909090909090909090909090909"]).is_ok());
        let wrong = ok(&["a=010204"]).problem.unwrap();
        assert!(
            wrong.reason.contains("the seed recorded for A is 010203"),
            "{wrong:?}"
        );
        // A log with no reveal is sound, but not complete.
        let unrevealed = fixture("physical-loaded.jsonl");
        assert!(verify_file(&unrevealed, None).unwrap().is_ok());
        let p = verify_file_expecting(&unrevealed, None, true, &[], &[], &[])
            .unwrap()
            .problem
            .unwrap();
        assert!(p.reason.contains("not revealed"), "{p:?}");
        assert!(
            verify_file_expecting(&seeded, None, false, &["c=00".into()], &[], &[])
                .unwrap_err()
                .contains("SIDE=HEX")
        );
    }
}
