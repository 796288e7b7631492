//! The server's own keys (issue 29), against real servers as an attacker would try them:
//! seeds at rest sealed with a key the director does not hold, and heads signed so that a
//! follower can show anyone what the server showed him.

use std::path::Path;

use baffle_core::audit::signed_head::SignedHead;
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use baffle_server::registry::{Entry, Registry, StoredSeed};
use baffle_server::seal::{SealKey, SealKeys};
use baffle_server::store::{EventStore, SledStore};
use baffle_server::time::ManualTime;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::{EPOCH, TestServer};
use sha2::{Digest, Sha256};

/// A tournament with server dice and match `m`, both players in and the opening rolled.
async fn match_played(server: &TestServer) -> Director {
    let d = match_created(server).await;
    match_played_on(d).await
}

/// A tournament with server dice and match `m`, created.
async fn match_created(server: &TestServer) -> Director {
    let mut d = Director::connect(server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    d
}

/// Match `m` played on: both players in and the opening rolled.
async fn match_played_on(mut d: Director) -> Director {
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    d.act("m", baffle_tests::api::server_opening()).await;
    d
}

/// Copies every file under `from` to `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every byte of every file under `dir`.
fn all_bytes(dir: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            bytes.extend(all_bytes(&path));
        } else {
            bytes.extend(std::fs::read(path).unwrap());
        }
    }
    bytes
}

/// Opens the store, waiting for the server of this process to let go of it.
async fn open_store(dir: &Path) -> SledStore {
    for _ in 0..20_000 {
        if let Ok(store) = SledStore::open(dir) {
            return store;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    panic!("the store stays locked");
}

/// The sealed seeds of a store's registry, by match id.
fn sealed_seeds(store: &SledStore) -> Vec<(String, StoredSeed)> {
    let lines = store
        .read(baffle_server::registry::STREAM, 0, usize::MAX)
        .unwrap();
    let (_, matches) = Registry::fold(&lines).unwrap();
    matches
        .into_iter()
        .map(|(info, seed)| (info.id, seed))
        .collect()
}

/// Attack 6: a copy of `store/` and the director token used to unseal every live seed
/// (the seal key was the token's), so the director — who must never see an unrevealed
/// seed — could predict every die. Now the seeds are sealed with `seal.key`, which he
/// does not hold: the store and the token together read nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attack_6_store_and_director_token_do_not_unseal_a_live_seed() {
    let server = TestServer::start().await;
    let mut d = match_played(&server).await;
    let commitment = d.state("m").await.commitment;
    let token = server.token.clone();
    let (dir, _) = server.stop().await;
    // What the attacker has: a copy of the store, and the token. Not seal.key.
    let copy = tempfile::tempdir().unwrap();
    copy_tree(&dir.path().join("store"), &copy.path().join("store"));
    let store = SledStore::open(&copy.path().join("store")).unwrap();
    let seeds = sealed_seeds(&store);
    assert_eq!(seeds.len(), 1);
    let StoredSeed::Sealed(sealed) = &seeds[0].1 else {
        panic!("the seed is kept in the clear: {:?}", seeds[0].1);
    };
    assert!(sealed.starts_with("v2."), "{sealed}");
    // The token's key, as the old server derived it: refused.
    let by_token = SealKey::from_director_token(&token).open("m", sealed);
    assert!(by_token.unwrap_err().contains("seal key"));
    // Every key a token-holder can make: none opens it.
    let no_key_file = SealKeys::new(&token, None).open("m", sealed);
    assert!(no_key_file.unwrap_err().contains("seal.key"));
    // The real key (the operator's, on the server's machine) opens it: the seed is there,
    // and it is the committed one.
    let bytes = baffle_server::keys::read_key(&dir.path().join("seal.key"), "seal key")
        .unwrap()
        .unwrap();
    let operator = SealKey::from_key_file(bytes, &dir.path().join("seal.key"));
    let seed = operator.open("m", sealed).unwrap();
    assert_eq!(hex::encode(Sha256::digest(seed)), commitment);
    // Nor is the seed anywhere in the store's files, in bytes or hex.
    let everything = all_bytes(&copy.path().join("store"));
    let hex_seed = hex::encode(seed);
    assert!(
        !everything.windows(32).any(|w| w == seed)
            && !everything
                .windows(hex_seed.len())
                .any(|w| w == hex_seed.as_bytes()),
        "the seed is in the store's files"
    );
    // The key file is the server's own: 0600, as the token.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for file in ["seal.key", "signing.key"] {
            let mode = std::fs::metadata(dir.path().join(file))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{file}");
        }
    }
}

/// An old data directory — seeds sealed `v1.` under the token, and no seal key yet —
/// keeps working: its match is served, draws its dice from its seed, and a match created
/// after the upgrade is sealed under the new seal key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_data_dir_sealed_under_the_token_still_opens() {
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let token = "an-old-director-token";
    std::fs::write(dir.path().join("director.token"), format!("{token}\n")).unwrap();
    write_old_match(&dir.path().join("store"), token).await;
    assert!(!dir.path().join("seal.key").exists());

    let server = TestServer::start_in(dir.clone(), ManualTime::new(EPOCH)).await;
    assert_eq!(server.token, token);
    let mut d = Director::connect(&server).await;
    d.act("old", Action::CheckIn(A)).await;
    d.act("old", Action::CheckIn(B)).await;
    // The opening needs the seed: it was unsealed with the token's key.
    let s = d.act("old", baffle_tests::api::server_opening()).await;
    assert_eq!(s.dice.len(), 2, "{s:?}");
    d.create_match("open", "new", 5, EPOCH.as_ms()).await;
    let (dir, _) = server.stop().await;
    assert!(
        dir.path().join("seal.key").exists(),
        "made on the first start"
    );
    let store = open_store(&dir.path().join("store")).await;
    for (id, seed) in sealed_seeds(&store) {
        let StoredSeed::Sealed(sealed) = seed else {
            panic!("{id} in the clear")
        };
        let version = if id == "old" { "v1." } else { "v2." };
        assert!(sealed.starts_with(version), "{id}: {sealed}");
    }
}

/// Writes a data directory's store as a server before the seal key wrote it: a tournament,
/// and match `old` whose seed is sealed `v1.` under `token`'s key.
async fn write_old_match(store_dir: &Path, token: &str) {
    use baffle_core::backgammon::{DiceSource, MatchSetup, TournamentDefaults};
    use baffle_core::dice::ServerSeed;
    use baffle_core::table::{GameSetup, MatchInfo, Table};
    let store = SledStore::open(store_dir).unwrap();
    let tournament = Entry::Tournament {
        id: "open".into(),
        name: "open".into(),
        defaults: TournamentDefaults {
            dice: DiceSource::Server,
            ..TournamentDefaults::default()
        },
        venue_dates: Default::default(),
    };
    let info = MatchInfo {
        id: "old".into(),
        tournament: "open".into(),
        round: 1,
        table: "1".into(),
    };
    let mut setup = MatchSetup::new(["Anna", "Ben"], 5, EPOCH);
    setup.dice = DiceSource::Server;
    let seed = ServerSeed::from_bytes([3; 32]);
    let (_, records) = Table::create(info.clone(), GameSetup::Backgammon(setup), seed).unwrap();
    assert!(
        !records[0].body.contains("signer"),
        "an old log names no signer"
    );
    let lines = records
        .iter()
        .map(|r| baffle_core::audit::export::record_line(r).into_bytes())
        .collect();
    store.append("m/old", 0, lines).await.unwrap();
    let sealed = SealKey::from_director_token(token)
        .seal("old", &[3; 32])
        .unwrap();
    let matched = Entry::Match {
        info,
        server_seed: None,
        sealed_seed: Some(sealed),
    };
    let entries = [tournament, matched]
        .iter()
        .map(|e| serde_json::to_vec(e).unwrap())
        .collect();
    store
        .append(baffle_server::registry::STREAM, 0, entries)
        .await
        .unwrap();
}

/// Every head the server sends a follower is signed, for the length and head it shows:
/// `GetMatch`, `Watch` and `WatchTournament` alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_head_sent_out_is_signed() {
    let server = TestServer::start().await;
    let mut watch = MatchesClient::new(server.channel().await)
        .watch(v1::WatchRequest {
            match_id: "m".into(),
            from_seq: 0,
        })
        .await;
    assert!(watch.is_err(), "no match yet");
    let _d = match_played(&server).await;
    let check = |s: &v1::MatchState| {
        let wire = s.signed_head.as_ref().expect("a signed head");
        let signed = SignedHead::from_hex(
            &wire.match_id,
            wire.length,
            &wire.head,
            &wire.signature,
            &wire.signer,
        )
        .unwrap();
        assert_eq!(signed.check(), Ok(()));
        assert_eq!(
            (wire.length, wire.head.as_str()),
            (s.seq, s.head_hash.as_str())
        );
    };
    let got = TournamentsClient::new(server.channel().await)
        .get_match(v1::GetMatchRequest {
            match_id: "m".into(),
        })
        .await
        .unwrap()
        .into_inner();
    check(&got);
    watch = MatchesClient::new(server.channel().await)
        .watch(v1::WatchRequest {
            match_id: "m".into(),
            from_seq: 0,
        })
        .await;
    let first = watch
        .unwrap()
        .into_inner()
        .message()
        .await
        .unwrap()
        .unwrap();
    check(first.state.as_ref().expect("a state"));
    let mut feed = MatchesClient::new(server.channel().await)
        .watch_tournament(v1::WatchTournamentRequest {
            tournament_id: "open".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let state = feed.message().await.unwrap().unwrap();
    check(&state);
    server.stop().await;
}
