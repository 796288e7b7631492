//! The audit log: `baffle audit export` fetches a match's log from the server as JSON
//! Lines, and `baffle audit verify` checks such a file offline.

use std::path::Path;

use baffle_core::audit::Hash;
use baffle_core::audit::verify::{Report, verify_jsonl};
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
    let head = head
        .map(|h| {
            Hash::from_hex(h)
                .ok_or_else(|| format!("--head must be 64 lowercase hex digits, not {h:?}"))
        })
        .transpose()?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(verify_jsonl(&text, head))
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
}
