//! The project's own programs (`baffled`, `baffle`, `baffle-device`), for tests and
//! benchmarks that run them as a stranger would: as processes.
//!
//! They sit beside the running test's directory (`target/<profile>/deps/..`), where
//! `cargo test --workspace` (or `cargo bench`) builds them before anything runs. Run
//! alone, a test builds them if they are missing or older than a source file; a narrower
//! build than the workspace's would rebuild the server, so nothing is built when they are
//! fresh.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// The directory holding `names`, built first if any is missing or stale.
pub fn built(names: &[&str]) -> PathBuf {
    let exe = std::env::current_exe().expect("the running test's path");
    let bin = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps")
        .to_path_buf();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let modified = |name: &str| -> Option<SystemTime> {
        std::fs::metadata(bin.join(name))
            .and_then(|m| m.modified())
            .ok()
    };
    let oldest = names
        .iter()
        .map(|n| modified(n))
        .try_fold(None::<SystemTime>, |oldest, t| {
            t.map(|t| Some(oldest.map_or(t, |o: SystemTime| o.min(t))))
        })
        .flatten();
    let sources =
        ["core", "proto", "i18n", "server", "client", "firmware-sim"].map(|c| root.join(c));
    if oldest.is_none_or(|t| sources.iter().any(|d| newer_than(d, t))) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut command = Command::new(&cargo);
        command.current_dir(&root).args(["build", "-q"]);
        // A benchmark runs in the release profile, and so must the programs it measures.
        if bin.file_name().is_some_and(|p| p == "release") {
            command.arg("--release");
        }
        for name in names {
            command.args(["--bin", name]);
        }
        let status = command.status().expect("cargo runs");
        assert!(status.success(), "{names:?} build");
    }
    bin
}

/// Whether a file under `dir` (sources, protos, manifests) changed after `time`.
fn newer_than(dir: &Path, time: SystemTime) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let path = e.path();
        if path.is_dir() {
            return newer_than(&path, time);
        }
        e.metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|m| m > time)
    })
}
