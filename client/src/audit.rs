//! `baffle audit verify`: offline verification of an exported match log.

use std::path::Path;

use baffle_core::audit::Hash;
use baffle_core::audit::verify::{Report, verify_jsonl};

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
    use baffle_core::audit::export::to_jsonl;
    use baffle_core::audit::{Chain, Entry};
    use std::io::Write;

    #[test]
    fn good_and_tampered_files() {
        let mut chain = Chain::new();
        chain.append(
            Entry::MatchOpened {
                match_id: "m".into(),
                commitment: "00".repeat(32),
            }
            .body(),
        );
        chain.append(r#"{"kind":"bg.press","side":"A"}"#.into());
        let good = to_jsonl(chain.records());
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(good.as_bytes()).unwrap();
        let head = chain.head().to_string();
        assert!(verify_file(file.path(), Some(&head)).unwrap().is_ok());

        let mut bad = tempfile::NamedTempFile::new().unwrap();
        bad.write_all(good.replace(r#"\"A\""#, r#"\"B\""#).as_bytes())
            .unwrap();
        let report = verify_file(bad.path(), None).unwrap();
        assert_eq!(report.problem.unwrap().line, 2);

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
