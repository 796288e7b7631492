//! Issue 18 (2), the corruption campaign: one flipped byte in sled's data file used to make
//! the server start with every match cut short (valid prefixes, which still verify) and
//! say nothing. Here a small store (225 records in five streams, as in the report) is
//! copied as it stands after its last acknowledged append, one byte of the copy's `db`
//! is flipped at a seeded random offset, and the copy is opened. Each trial must end one
//! of three ways: the store refuses to open (or panics: the server would not start), a
//! stream damaged is reported lost by `check`, or every stream is whole. Never a stream
//! that reads short or different while `check` says nothing.
//!
//! `BAFFLE_CORRUPTION_TRIALS=600 cargo test -p baffle-server --test corruption -- --nocapture`

use std::collections::BTreeMap;
use std::path::Path;

use baffle_server::store::{EventStore, SledStore};

/// A small deterministic generator (xorshift64*): the campaign is repeatable by seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[derive(Debug, Default)]
struct Outcomes {
    refused: usize,
    detected: usize,
    whole: usize,
    /// Trials where some stream read as a valid prefix of itself: what was silent before
    /// the manifest, now caught by it.
    prefixes: usize,
    silent: Vec<String>,
}

/// Opens the damaged copy and sorts the trial into its outcome.
fn trial(dir: &Path, original: &BTreeMap<String, Vec<Vec<u8>>>, outcomes: &mut Outcomes) {
    let opened = std::panic::catch_unwind(|| SledStore::open(dir));
    let store = match opened {
        Ok(Ok(store)) => store,
        Ok(Err(_)) | Err(_) => {
            outcomes.refused += 1;
            return;
        }
    };
    let mut detected = false;
    let mut prefix = false;
    for (stream, records) in original {
        if store.check(stream).is_err() {
            detected = true;
            if let Ok(Ok(read)) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                store.read(stream, 0, usize::MAX)
            })) {
                prefix |= read.len() < records.len() && records.starts_with(&read);
            }
            continue;
        }
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            store.read(stream, 0, usize::MAX)
        }));
        match read {
            Ok(Ok(read)) if read == *records => {}
            Ok(Ok(read)) => outcomes.silent.push(format!(
                "{stream}: {} of {} records, check said nothing",
                read.len(),
                records.len()
            )),
            // A read that fails is loud: the match answers an error, not a short log.
            Ok(Err(_)) | Err(_) => detected = true,
        }
    }
    outcomes.prefixes += usize::from(prefix);
    if detected {
        outcomes.detected += 1;
    } else {
        outcomes.whole += 1;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flipped_byte_never_loses_records_silently() {
    let trials: u64 = std::env::var("BAFFLE_CORRUPTION_TRIALS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(60);
    let root = tempfile::tempdir().unwrap();
    let source = root.path().join("source");
    let store = SledStore::open(&source).unwrap();
    let mut original: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    // 225 records, 45 per stream, each acknowledged on its own as a match's are.
    for i in 0..45u64 {
        for s in ["registry", "m/a", "m/b", "m/c", "m/d"] {
            let record = format!(
                "{{\"stream\":\"{s}\",\"seq\":{i},\"body\":\"{}\"}}",
                "x".repeat(60)
            )
            .into_bytes();
            store.append(s, i, vec![record.clone()]).await.unwrap();
            original.entry(s.to_string()).or_default().push(record);
        }
    }
    // The control: an undamaged copy opens whole (else every "lost" below means nothing).
    let control = root.path().join("control");
    copy_dir(&source, &control);
    let mut outcomes = Outcomes::default();
    trial(&control, &original, &mut outcomes);
    assert_eq!(outcomes.whole, 1, "an undamaged copy: {outcomes:?}");
    let mut rng = Rng(0x00C0_FFEE_u64);
    let mut outcomes = Outcomes::default();
    for t in 0..trials {
        let copy = root.path().join(format!("trial-{t}"));
        copy_dir(&source, &copy);
        let db = copy.join("db");
        let mut bytes = std::fs::read(&db).unwrap();
        // Where sled has written: its files are allocated in large segments, mostly
        // zeros past the data; a flip there is harmless and tells nothing.
        let written = bytes.iter().rposition(|b| *b != 0).unwrap_or(0) as u64 + 1;
        let at = rng.below(written) as usize;
        bytes[at] ^= 1 << rng.below(8);
        std::fs::write(&db, &bytes).unwrap();
        trial(&copy, &original, &mut outcomes);
        let _ = std::fs::remove_dir_all(&copy);
    }
    drop(store);
    eprintln!(
        "{trials} trials: {} refused to open, {} reported a lost stream ({} with a stream cut \
         to a valid prefix), {} whole, {} silent losses",
        outcomes.refused,
        outcomes.detected,
        outcomes.prefixes,
        outcomes.whole,
        outcomes.silent.len()
    );
    assert!(outcomes.silent.is_empty(), "{:#?}", outcomes.silent);
}
