//! Starting `baffled` as its IT person does (issue 19): what it prints when it starts
//! (the page's address, how phones reach it, no colour codes into a file), and start-up
//! failures in words naming the address or the directory, exit status 1.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs baffled to its end (it must fail to start); exit code and standard error.
fn failed_start(args: &[&str], dir: &std::path::Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_baffled"))
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("baffled runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn an_address_in_use_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let (code, err) = failed_start(&["--addr", &addr, "--log", "warn"], dir.path());
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("the address {addr} is in use")) && err.contains("--addr"),
        "{err}"
    );
    assert!(!err.contains("Os {"), "no debug text: {err}");
}

/// A key file that is there but holds no key stops the start, naming the file, and is
/// left as it was: a new key would orphan every seed sealed (or head signed) by the old.
#[test]
fn a_damaged_key_file_is_named_and_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    for (file, flag) in [
        ("seal.key", "--seal-key-file"),
        ("signing.key", "--signing-key-file"),
    ] {
        let path = dir.path().join(format!("kept-elsewhere-{file}"));
        std::fs::write(&path, "damaged\n").unwrap();
        let given = path.to_str().unwrap();
        let (code, err) = failed_start(&[flag, given, "--log", "warn"], dir.path());
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains(given) && err.contains("restore"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "damaged\n");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_held_by_another_server_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = common::start(dir.path()).await;
    let port = common::free_port().to_string();
    let addr = format!("127.0.0.1:{port}");
    let (code, err) = failed_start(&["--addr", &addr, "--log", "warn"], dir.path());
    let _ = first.child.kill();
    let _ = first.child.wait();
    assert_eq!(code, Some(1), "{err}");
    let store = dir.path().join("store").display().to_string();
    assert!(
        err.contains(&store) && err.contains("another baffled"),
        "{err}"
    );
}

#[test]
fn the_start_says_where_the_page_is_and_how_phones_reach_it() {
    let dir = tempfile::tempdir().unwrap();
    let port = common::free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_baffled"))
        .args(["--addr", &format!("127.0.0.1:{port}"), "--log", "info"])
        .arg("--data-dir")
        .arg(dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .expect("baffled starts");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut seen = String::new();
    while !seen.contains("director token:") {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                seen.push_str(&line);
                seen.push('\n');
            }
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        seen.contains(&format!("the room's page: http://127.0.0.1:{port}/")),
        "{seen}"
    );
    assert!(seen.contains(&format!("--addr 0.0.0.0:{port}")), "{seen}");
    assert!(seen.contains("/metrics"), "{seen}");
    assert!(seen.contains("recovered the registry"), "{seen}");
    assert!(
        !seen.contains('\u{1b}'),
        "no colour codes into a pipe: {seen:?}"
    );
}
