//! `baffled check`: scrubs a data directory while the server is stopped — the store
//! against its manifest (opening the store compares them), the registry, and every
//! match log replayed as recovery replays it (chain, canonical bodies, every server die
//! drawn again from its seed, the rules) — and says, stream by stream, what it found.

use std::collections::BTreeSet;

use crate::actor::{self, replay_log};
use crate::registry::{self, Registry};
use crate::seal::SealKeys;
use crate::store::EventStore;

/// What the scrub found in one stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The stream (`registry`, `m/<match>`).
    pub stream: String,
    /// Its records.
    pub records: u64,
    /// What is wrong with it, if anything.
    pub problem: Option<String>,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.problem {
            None => write!(f, "ok    {}  ({} records)", self.stream, self.records),
            Some(why) => write!(
                f,
                "BAD   {}  ({} records): {why}",
                self.stream, self.records
            ),
        }
    }
}

/// Checks every stream of `store`; the keys unseal the server seeds.
pub fn scrub<S: EventStore>(store: &S, key: &SealKeys) -> Result<Vec<Finding>, String> {
    let finding = |stream: &str, problem: Option<String>| Finding {
        stream: stream.to_string(),
        records: store.len(stream).unwrap_or(0),
        problem,
    };
    let mut findings = Vec::new();
    let mut seen = BTreeSet::from([registry::STREAM.to_string()]);
    match read_registry(store) {
        Err(why) => findings.push(finding(registry::STREAM, Some(why))),
        Ok(matches) => {
            findings.push(finding(registry::STREAM, None));
            for (info, seed) in matches {
                let stream = actor::stream(&info.id);
                let problem = seed
                    .open(key, &info.id)
                    .and_then(|seed| replay_log(store, &info, seed))
                    .err();
                findings.push(finding(&stream, problem));
                seen.insert(stream);
            }
        }
    }
    // Streams the registry does not name (a log whose registry entry a crash cut off):
    // the manifest's word on them.
    for stream in store.streams().map_err(|e| e.to_string())? {
        if !seen.contains(&stream) {
            let problem = store.check(&stream).err().map(|e| e.to_string());
            findings.push(finding(&stream, problem));
        }
    }
    Ok(findings)
}

/// The registry's matches with their stored seeds, every entry folded.
fn read_registry<S: EventStore>(
    store: &S,
) -> Result<Vec<(crate::wire::MatchInfo, registry::StoredSeed)>, String> {
    store.check(registry::STREAM).map_err(|e| e.to_string())?;
    let lines = store
        .read(registry::STREAM, 0, usize::MAX)
        .map_err(|e| e.to_string())?;
    Ok(Registry::fold(&lines)?.1)
}
