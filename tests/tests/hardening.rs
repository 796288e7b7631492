//! Issue 18, hardening, tried as an attacker would: what a copy of the data directory
//! reveals, logs cut short, and retries across restarts (see also `api_boundaries.rs`).

use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use baffle_tests::api::{A, Director, defaults};
use baffle_tests::{EPOCH, TestServer};

/// Every byte of every file under `dir`.
fn all_bytes(dir: &std::path::Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            bytes.extend(all_bytes(&path));
        } else {
            bytes.extend(std::fs::read(&path).unwrap());
        }
    }
    bytes
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Issue 18 (3): `strings store/db` predicted a match's dice. The store now holds the
/// server seed sealed under a key derived from the director token, which lives apart:
/// a copy of the store taken before the reveal holds the seed neither in hex nor in raw
/// bytes. And a server started with another token cannot open the seal: that match goes
/// offline with DATA_LOSS saying why, rather than playing other dice.
#[tokio::test]
async fn a_copy_of_the_store_alone_reveals_no_server_seed() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 3, EPOCH.as_ms()).await;
    d.create_match("open", "other", 3, EPOCH.as_ms()).await;
    let (dir, time) = server.stop().await;
    let copy = all_bytes(&dir.path().join("store"));

    let server = TestServer::start_in(dir, time).await;
    let mut d = Director::connect(&server).await;
    d.act("m", Action::ForfeitMatch(A)).await;
    let seed = AuditClient::new(server.channel().await)
        .reveal(server.director(v1::RevealRequest {
            match_id: "m".into(),
        }))
        .await
        .unwrap()
        .into_inner()
        .server_seed;
    let raw = hex::decode(&seed).unwrap();
    assert!(!contains(&copy, seed.as_bytes()), "the seed in hex");
    assert!(!contains(&copy, seed.to_uppercase().as_bytes()));
    assert!(!contains(&copy, &raw), "the seed's bytes");

    let (dir, time) = server.stop().await;
    std::fs::write(dir.path().join("director.token"), "another-token\n").unwrap();
    let server = TestServer::start_in(dir, time).await;
    let e = TournamentsClient::new(server.channel().await)
        .get_match(v1::GetMatchRequest {
            match_id: "other".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::DataLoss, "{e:?}");
    assert!(e.message().contains("director token"), "{}", e.message());
    server.stop().await;
}
