//! The README's commands run in order on a fresh server (issue 19): `tests/readme.sh`
//! with the `baffled` and `baffle` that `cargo test --workspace` built. What the script
//! skips, and why, it prints.

use std::process::Command;

#[test]
fn the_readme_runs_as_written() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let bin = baffle_tests::binaries::built(&["baffled", "baffle"]);
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
