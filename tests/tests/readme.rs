//! The README's commands run in order on a fresh server (issue 19): `tests/readme.sh`
//! with the `baffled` and `baffle` that `cargo test --workspace` built. What the script
//! skips, and why, it prints.

use std::process::Command;

#[test]
fn the_readme_runs_as_written() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // The binaries sit beside this test's own directory (target/<profile>/deps/..), built
    // by `cargo test --workspace` before any test runs. Run alone, this test builds them
    // if they are missing or older than a source file (a narrower build than the
    // workspace's rebuilds the server, so it is not done when they are fresh).
    let bin = std::env::current_exe()
        .unwrap()
        .parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .to_path_buf();
    let built = |name: &str| {
        std::fs::metadata(bin.join(name))
            .and_then(|m| m.modified())
            .ok()
    };
    let oldest = built("baffled").zip(built("baffle")).map(|(a, b)| a.min(b));
    let sources = ["core", "proto", "server", "client"].map(|c| root.join(c));
    if oldest.is_none_or(|t| sources.iter().any(|d| newer_than(d, t))) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(&cargo)
            .current_dir(&root)
            .args(["build", "-q", "--bin", "baffled", "--bin", "baffle"])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "the binaries build");
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = Command::new("bash")
        .arg(root.join("tests/readme.sh"))
        .arg(&bin)
        .arg(port.to_string())
        .output()
        .expect("bash runs");
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{err}");
    assert!(err.contains("readme: every command ran"), "{err}");
    // What a director reads back from the commands run.
    assert!(stdout.contains("created tournament open"), "{stdout}");
    assert!(stdout.contains("Anna checked in"), "{stdout}");
    assert!(!stdout.contains("the match starts at"), "{stdout}");
}

/// Whether a file under `dir` (sources, protos, manifests) changed after `time`.
fn newer_than(dir: &std::path::Path, time: std::time::SystemTime) -> bool {
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
