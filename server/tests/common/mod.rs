//! Running a real `baffled` as a child process, for the process and crash tests.

#![allow(dead_code)] // each test file uses a part

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tonic::Request;
use tonic::transport::{Channel, Endpoint};

/// A running `baffled` and a channel to it.
pub struct Baffled {
    pub child: Child,
    pub channel: Channel,
    pub channel_port: u16,
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub async fn start(dir: &std::path::Path) -> Baffled {
    start_with(dir, &[], None).await
}

/// Starts baffled with extra arguments; with `tls`, the client trusts that CA certificate.
pub async fn start_with(dir: &std::path::Path, args: &[&str], tls: Option<&[u8]>) -> Baffled {
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_baffled"))
        .args(["--addr", &format!("127.0.0.1:{port}"), "--log", "warn"])
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .stdout(Stdio::null())
        .spawn()
        .expect("baffled starts");
    let endpoint = match tls {
        None => Endpoint::from_shared(format!("http://127.0.0.1:{port}")).unwrap(),
        Some(cert) => Endpoint::from_shared(format!("https://127.0.0.1:{port}"))
            .unwrap()
            .tls_config(
                tonic::transport::ClientTlsConfig::new()
                    .ca_certificate(tonic::transport::Certificate::from_pem(cert))
                    .domain_name("localhost"),
            )
            .unwrap(),
    };
    for _ in 0..500 {
        if let Ok(channel) = endpoint.connect().await {
            return Baffled {
                child,
                channel,
                channel_port: port,
            };
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("baffled did not come up");
}

pub fn director<T>(dir: &std::path::Path, message: T) -> Request<T> {
    let token = std::fs::read_to_string(dir.join("director.token")).unwrap();
    let mut r = Request::new(message);
    r.metadata_mut().insert(
        "authorization",
        format!("Bearer {}", token.trim()).parse().unwrap(),
    );
    r
}
