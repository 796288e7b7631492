//! The README's commands run in order on a fresh server (issue 19): `tests/readme.sh`,
//! with `baffled` and `baffle` built by cargo first (a no-op after `cargo test
//! --workspace`, which builds them). What the script skips, and why, it prints.

use std::process::Command;

#[test]
fn the_readme_runs_as_written() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let built = Command::new(&cargo)
        .current_dir(&root)
        // The same targets and features as `cargo test --workspace`, which has built them
        // already in CI: then this is a no-op (a narrower build would rebuild the server).
        .args(["build", "-q", "--workspace", "--tests"])
        .status()
        .expect("cargo runs");
    assert!(built.success(), "the binaries build");
    // The binaries sit beside this test's own directory (target/<profile>/deps/..).
    let bin = std::env::current_exe()
        .unwrap()
        .parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .to_path_buf();
    assert!(bin.join("baffled").exists(), "{}", bin.display());
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
