//! Issue 18 (6) and (10) against a real `baffled`: idle connections by the hundred, the
//! process out of file descriptors, and a certificate that cannot be used.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::free_port;

use tonic::transport::Endpoint;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

/// CPU time the process has used (user + system), from /proc, in clock ticks (1/100 s).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

async fn healthy(port: u16) -> bool {
    let Ok(channel) = Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
        .unwrap()
        .connect_timeout(Duration::from_secs(1))
        .connect()
        .await
    else {
        return false;
    };
    HealthClient::new(channel)
        .check(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .is_ok()
}

/// With a hard limit of 100 open files, 150 idle connections run the process out of
/// descriptors. It used to spin a core at EMFILE with nothing logged; now it pauses
/// between accepts (measured: its CPU use while out of descriptors), says so, and
/// serves again once the idle connections are gone — closed by the clients, or by the
/// server after 10 s of silence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_file_descriptors_the_server_pauses_and_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -n 100 && exec '{}' --addr 127.0.0.1:{port} --max-connections 1000 --log error --data-dir '{}'",
            env!("CARGO_BIN_EXE_baffled"),
            dir.path().display()
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut up = false;
    for _ in 0..500 {
        if healthy(port).await {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(up, "baffled did not come up");
    let mut idle = Vec::new();
    for _ in 0..150 {
        idle.push(
            tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .unwrap(),
        );
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (before, started) = (cpu_ticks(child.id()), Instant::now());
    tokio::time::sleep(Duration::from_secs(2)).await;
    let used = (cpu_ticks(child.id()) - before) as f64 / 100.0;
    let share = used / started.elapsed().as_secs_f64();
    eprintln!("out of descriptors: {:.0} % of a core", share * 100.0);
    assert!(
        share < 0.3,
        "the accept loop spins: {:.0} % of a core",
        share * 100.0
    );
    drop(idle);
    let mut back = false;
    for _ in 0..100 {
        if healthy(port).await {
            back = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(back, "serving again after the idle connections went");
    assert!(log.contains("out of resources"), "logged: {log}");
}

/// Issue 18 (10): a certificate that cannot be used stops the start with a message
/// naming it — and the server never says it listens.
#[test]
fn a_bad_certificate_stops_the_start_before_listening() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("bad.crt");
    std::fs::write(
        &cert,
        "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let out = Command::new(env!("CARGO_BIN_EXE_baffled"))
        .args([
            "--addr",
            &format!("127.0.0.1:{}", free_port()),
            "--tls-cert",
        ])
        .arg(&cert)
        .arg("--tls-key")
        .arg(fixtures.join("test-tls.key"))
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "{all}");
    assert!(!all.contains("listening"), "{all}");
    assert!(all.contains("bad.crt"), "{all}");
}
