//! A real `baffled` as a child process: killed with SIGKILL while commands stream in
//! (after a restart on the same data directory every acknowledged event is there and the
//! chain verifies), stopped with SIGTERM, and serving TLS.

mod common;

use std::process::Command;
use std::time::Duration;

use baffle_core::audit::verify::verify_jsonl;
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use common::{director, start, start_with};
use tonic::transport::Endpoint;

fn command(action: Action) -> v1::ExecuteRequest {
    v1::ExecuteRequest {
        match_id: "m".into(),
        command: Some(v1::Command {
            action: Some(action),
        }),
        ruling: None,
        request_id: String::new(),
        expected_seq: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_event_survives_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = start(dir.path()).await;
    let mut t = TournamentsClient::new(server.channel.clone());
    let defaults = v1::TournamentDefaults {
        dice: v1::DiceSource::Physical as i32,
        ..Default::default()
    };
    let tournament = v1::Tournament {
        id: "open".into(),
        name: "Open".into(),
        defaults: Some(defaults),
        ..Default::default()
    };
    t.create_tournament(director(
        dir.path(),
        v1::CreateTournamentRequest {
            tournament: Some(tournament),
        },
    ))
    .await
    .unwrap();
    let m = v1::CreateMatchRequest {
        tournament_id: "open".into(),
        match_id: "m".into(),
        player_a: "a".into(),
        player_b: "b".into(),
        length: 7,
        ..Default::default()
    };
    t.create_match(director(dir.path(), m)).await.unwrap();
    let mut c = MatchesClient::new(server.channel.clone());
    for side in [v1::Side::A, v1::Side::B] {
        c.execute(director(dir.path(), command(Action::CheckIn(side as i32))))
            .await
            .unwrap();
    }
    c.execute(director(
        dir.path(),
        command(Action::OpeningRoll(v1::Roll {
            side: 0,
            dice: vec![6, 1],
            link: Vec::new(),
        })),
    ))
    .await
    .unwrap();

    let mut acknowledged = 0;
    for round in 0..3u64 {
        // Pause and resume as fast as acknowledgements come, and kill at a moment that
        // depends on the round, mid-stream.
        let sender = {
            let mut c = MatchesClient::new(server.channel.clone());
            let dir = dir.path().to_path_buf();
            tokio::spawn(async move {
                let mut last = 0;
                for i in 0.. {
                    let action = if i % 2 == 0 {
                        Action::Pause(v1::PauseReason::DirectorCalled as i32)
                    } else {
                        Action::Resume(v1::Empty {})
                    };
                    match c.execute(director(&dir, command(action))).await {
                        Ok(reply) => last = reply.into_inner().state.unwrap().seq,
                        Err(e) if e.code() == tonic::Code::FailedPrecondition => {} // paused twice after a kill
                        Err(_) => return last,
                    }
                }
                last
            })
        };
        tokio::time::sleep(Duration::from_millis(150 + 70 * round)).await;
        server.child.kill().unwrap(); // SIGKILL
        server.child.wait().unwrap();
        acknowledged = acknowledged.max(sender.await.unwrap());
        server = start(dir.path()).await;
        let state = TournamentsClient::new(server.channel.clone())
            .get_match(v1::GetMatchRequest {
                match_id: "m".into(),
            })
            .await
            .unwrap()
            .into_inner();
        assert!(
            state.seq >= acknowledged,
            "round {round}: {} events after restart, {acknowledged} acknowledged",
            state.seq
        );
        let text = baffle_client::audit::export_log(server.channel.clone(), "m")
            .await
            .unwrap();
        let report = verify_jsonl(&text, None);
        assert!(report.is_ok(), "round {round}: {report}");
        eprintln!(
            "round {round}: {acknowledged} acknowledged, {} stored, chain verifies",
            state.seq
        );
    }
    assert!(
        acknowledged > 10,
        "commands were streaming when the server was killed"
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

#[tokio::test]
async fn sigterm_stops_gracefully_with_exit_status_0() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = start(dir.path()).await;
    let mode = std::fs::metadata(dir.path().join("director.token")).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o600
    );
    let status = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = server.child.wait().unwrap();
    assert_eq!(exit.code(), Some(0), "{exit:?}");
}

fn mode(path: &std::path::Path) -> u32 {
    std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(path).unwrap().permissions()) & 0o777
}

fn chmod(path: &std::path::Path, mode: u32) {
    std::fs::set_permissions(
        path,
        <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(mode),
    )
    .unwrap();
}

fn stop(server: &mut common::Baffled) {
    let status = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    server.child.wait().unwrap();
}

/// Issue 18 (3): as another local user, `strings store/db` read the server seeds. The
/// data directory is 0700 and its files 0600 on creation — and on start, for a
/// directory an older version left 0755 with 0644 files.
#[tokio::test]
async fn the_data_directory_is_private_on_creation_and_on_start() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("data");
    let mut server = start(&dir).await;
    stop(&mut server);
    let db = dir.join("store").join("db");
    assert_eq!(
        (mode(&dir), mode(&dir.join("store")), mode(&db)),
        (0o700, 0o700, 0o600)
    );
    chmod(&dir, 0o755);
    chmod(&dir.join("store"), 0o755);
    chmod(&db, 0o644);
    let mut server = start(&dir).await;
    for path in [&dir, &dir.join("store")] {
        assert_eq!(mode(path), 0o700, "{}", path.display());
    }
    for entry in std::fs::read_dir(dir.join("store")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            assert_eq!(mode(&path), 0o600, "{}", path.display());
        }
    }
    stop(&mut server);
}

fn baffled_check(dir: &std::path::Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_baffled"))
        .args(["check", "--log", "off", "--data-dir"])
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Issue 18 (2): a store that lost acknowledged records of one match — here its
/// manifest says it held one record more than the store has, as when a flipped byte
/// makes sled open a prefix — is found out: `baffled check` names it (exit status 1),
/// and the server starts with that match offline (DATA_LOSS, saying records were lost)
/// and every other match and the registry served.
#[tokio::test]
async fn a_stream_cut_short_is_found_by_check_and_taken_offline() {
    use baffle_server::store::manifest::{Known, Manifest};
    let dir = tempfile::tempdir().unwrap();
    let mut server = start(dir.path()).await;
    let mut t = TournamentsClient::new(server.channel.clone());
    let tournament = v1::Tournament {
        id: "open".into(),
        name: "Open".into(),
        defaults: Some(v1::TournamentDefaults {
            dice: v1::DiceSource::Physical as i32,
            ..Default::default()
        }),
        ..Default::default()
    };
    let create = v1::CreateTournamentRequest {
        tournament: Some(tournament),
    };
    t.create_tournament(director(dir.path(), create))
        .await
        .unwrap();
    for id in ["m", "other"] {
        let m = v1::CreateMatchRequest {
            tournament_id: "open".into(),
            match_id: id.into(),
            // One pair per match: a round has one match per pair of players.
            player_a: format!("{id} a"),
            player_b: format!("{id} b"),
            length: 7,
            ..Default::default()
        };
        t.create_match(director(dir.path(), m)).await.unwrap();
    }
    stop(&mut server);
    let (code, out) = baffled_check(dir.path());
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("ok    m/m ") && out.contains("ok    registry "),
        "{out}"
    );

    let store = dir.path().join("store");
    let mut known = Manifest::read(&store).unwrap().unwrap();
    let m = known.get_mut("m/m").unwrap();
    *m = Known {
        len: m.len + 1,
        head: "00".repeat(32),
    };
    Manifest::rewrite(&store, &known).unwrap();
    let (code, out) = baffled_check(dir.path());
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("BAD   m/m") && out.contains("records were lost"),
        "{out}"
    );
    assert!(out.contains("ok    m/other "), "{out}");

    let mut server = start(dir.path()).await;
    let mut t = TournamentsClient::new(server.channel.clone());
    let get = |id: &str| v1::GetMatchRequest {
        match_id: id.into(),
    };
    let e = t.get_match(get("m")).await.unwrap_err();
    assert_eq!(e.code(), tonic::Code::DataLoss, "{e:?}");
    assert!(e.message().contains("records were lost"), "{}", e.message());
    t.get_match(get("other")).await.unwrap();
    stop(&mut server);
    let (code, _) = baffled_check(dir.path());
    assert_eq!(
        code, 1,
        "the loss stays visible on every start until restored"
    );
}

#[tokio::test]
async fn with_a_certificate_and_key_the_server_speaks_tls_only() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let (cert, key) = (fixtures.join("test-tls.crt"), fixtures.join("test-tls.key"));
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--tls-cert",
        cert.to_str().unwrap(),
        "--tls-key",
        key.to_str().unwrap(),
    ];
    let pem = std::fs::read(fixtures.join("test-ca.crt")).unwrap();
    let mut server = start_with(dir.path(), &args, Some(&pem)).await;
    let reply = tonic_health::pb::health_client::HealthClient::new(server.channel.clone())
        .check(tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap();
    assert_eq!(
        reply.into_inner().status(),
        tonic_health::pb::health_check_response::ServingStatus::Serving
    );
    // Plaintext gets nowhere.
    let port = server.channel_port;
    let plain = Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
        .unwrap()
        .connect()
        .await;
    if let Ok(channel) = plain {
        let r = tonic_health::pb::health_client::HealthClient::new(channel)
            .check(tonic_health::pb::HealthCheckRequest {
                service: String::new(),
            })
            .await;
        assert!(r.is_err(), "a plaintext call was answered");
    }
    // A browser offers http/1.1 too (gRPC-Web, the page): the handshake succeeds with
    // it alone, and the page is served over it (issue 18, item 10).
    let (alpn, head) = https_get(port, &pem, b"http/1.1", "/").await;
    assert_eq!(alpn.as_deref(), Some(&b"http/1.1"[..]));
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    // `baffle` trusts a private CA when told to (--ca-cert), and only then.
    let ca = fixtures.join("test-ca.crt");
    let url = format!("https://localhost:{port}");
    let baffle = |with_ca: bool| {
        let mut args = vec!["baffle", "--server", url.as_str()];
        if with_ca {
            args.extend(["--ca-cert", ca.to_str().unwrap()]);
        }
        args.push("presets");
        <baffle_client::cli::Cli as clap::Parser>::try_parse_from(args).unwrap()
    };
    let untrusted = baffle_client::run::run(&baffle(false)).await;
    assert_eq!(untrusted.code, 3, "{}", untrusted.err);
    assert!(untrusted.err.contains("--ca-cert"), "{}", untrusted.err);
    let trusted = baffle_client::run::run(&baffle(true)).await;
    assert_eq!(trusted.code, 0, "{}", trusted.err);
    assert!(trusted.out.contains("12"), "{}", trusted.out);
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

/// GETs `path` over TLS offering only `protocol` in ALPN; returns the protocol agreed and
/// the response's first line.
async fn https_get(
    port: u16,
    ca_pem: &[u8],
    protocol: &[u8],
    path: &str,
) -> (Option<Vec<u8>>, String) {
    use rustls::pki_types::pem::PemObject;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls::pki_types::CertificateDer::pem_slice_iter(ca_pem) {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![protocol.to_vec()];
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let mut tls = connector
        .connect(name, tcp)
        .await
        .expect("the handshake succeeds");
    let alpn = tls.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
    tls.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap();
    let mut response = Vec::new();
    let _ = tls.read_to_end(&mut response).await;
    let text = String::from_utf8_lossy(&response);
    (alpn, text.lines().next().unwrap_or_default().to_string())
}
