//! The binary runs and answers `--help` and `--version`.

use std::process::Command;

#[test]
fn answers_help_and_version() {
    let bin = env!("CARGO_BIN_EXE_baffle");
    let help = Command::new(bin).arg("--help").output().unwrap();
    assert!(help.status.success());
    let text = String::from_utf8(help.stdout).unwrap();
    assert!(text.contains("Usage: baffle"), "{text}");
    let version = Command::new(bin).arg("--version").output().unwrap();
    assert!(
        String::from_utf8(version.stdout)
            .unwrap()
            .starts_with("baffle ")
    );
}
