//! The server's own keys (issue 29), against real servers as an attacker would try them:
//! seeds at rest sealed with a key the director does not hold, and heads signed so that a
//! follower can show anyone what the server showed him.

use std::path::{Path, PathBuf};

use baffle_client::run::Outcome;
use baffle_core::audit::signed_head::{SignedHead, read_witness};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::server_client::ServerClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use baffle_server::registry::{Record, Registry, StoredSeed};
use baffle_server::seal::{SealKey, SealKeys};
use baffle_server::store::{EventStore, SledStore};
use baffle_server::time::ManualTime;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::cli::baffle;
use baffle_tests::{EPOCH, TestServer};
use sha2::{Digest, Sha256};

/// A tournament with server dice and match `m`, both players in and the opening rolled.
async fn match_played(server: &TestServer) -> Director {
    let mut d = match_created(server).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    d.act("m", baffle_tests::api::server_opening()).await;
    d
}

/// A tournament with server dice and match `m`, created.
async fn match_created(server: &TestServer) -> Director {
    let mut d = Director::connect(server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
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
    let tournament = Record::Tournament {
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
    let matched = Record::Match {
        info,
        server_seed: None,
        sealed_seed: Some(sealed),
        replaces: None,
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

/// Runs `baffle audit witness m --out FILE` against `server` until the returned sender
/// is used (Ctrl-C); the task gives back its exit status and what it printed.
fn start_witness(
    server: &TestServer,
    file: &Path,
) -> (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<(i32, String)>,
) {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (url, file) = (server.url(), file.to_path_buf());
    let task = tokio::spawn(async move {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let stop = async {
            let _ = stopped.await;
        };
        let code =
            baffle_client::witness::witness(url, "m".into(), &file, stop, &mut out, &mut err)
                .await
                .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&err)
        );
        (code, said)
    });
    (stop, task)
}

/// Waits until the witness file holds a head at `length` (the witness writes as the
/// server sends; nothing here moves a clock).
async fn witnessed(file: &Path, length: u64) -> Vec<SignedHead> {
    for _ in 0..1_000 {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Ok(heads) = read_witness(&text)
            && heads.iter().any(|h| h.length == length)
        {
            return heads;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the witness kept no head at length {length}");
}

/// Match `m` created on `server` and both players checked in, witnessed into `file`.
async fn witnessed_match(server: &TestServer, file: &Path) -> (Vec<SignedHead>, String) {
    let mut d = match_created(server).await;
    let (stop, task) = start_witness(server, file);
    // Check-ins only: every server's log is then as long as every other's (an opening
    // throw adds a record per tie), so the twins' heads meet at every length.
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let seq = d.state("m").await.seq;
    let heads = witnessed(file, seq).await;
    stop.send(()).unwrap();
    let (code, said) = task.await.unwrap();
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("stopped"), "{said}");
    (heads, export(server).await)
}

async fn export(server: &TestServer) -> String {
    baffle_client::audit::export_log(server.channel().await, "m")
        .await
        .unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `baffle audit verify LOG --witness W …`, as anyone runs it (it needs no server).
async fn verify(server: &TestServer, log: &Path, witnesses: &[&Path]) -> Outcome {
    let mut args = vec!["audit", "verify", log.to_str().unwrap()];
    for w in witnesses {
        args.extend(["--witness", w.to_str().unwrap()]);
    }
    baffle(server, &args).await
}

/// Attack 5: an operator ran a twin `baffled` with the same ids and another server seed;
/// both logs verified, and a follower who had kept a head could not prove to anyone that
/// the server showed two histories. Now every head is signed: a witness's heads reject
/// the twin's log, and with the signing key copied to the twin, two signed heads are a
/// proof anyone checks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attack_5_a_twin_log_is_caught_by_a_witness() {
    let files = tempfile::tempdir().unwrap();
    let real = TestServer::start().await;
    let witness = files.path().join("real.heads");
    let (heads, real_log) = witnessed_match(&real, &witness).await;
    let key = the_key_is_published(&real, &heads, &real_log).await;
    let real_file = write(files.path(), "real.jsonl", &real_log);
    let o = verify(&real, &real_file, &[&witness]).await;
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    assert!(o.out.contains("heads the server signed"), "{}", o.out);

    let own_key = a_twin_with_its_own_key_is_rejected(&real, files.path(), &witness).await;
    let (copied, proof) = a_twin_with_the_key_copied_is_caught(&real, files.path(), &key).await;
    the_proof_checks_and_a_forgery_does_not(&real, files.path(), &proof, &real_file).await;

    // A log written before heads were signed still verifies, without --witness.
    let old = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../core/tests/fixtures/logs-before-table/server-seeded.jsonl");
    let o = verify(&real, &old, &[]).await;
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    for server in [real, own_key, copied] {
        server.stop().await;
    }
}

/// Every head the witness kept is signed by one key, which the server publishes and the
/// log's first record names. Returns the key.
async fn the_key_is_published(server: &TestServer, heads: &[SignedHead], log: &str) -> String {
    let key = heads[0].signer_hex();
    assert!(
        heads
            .iter()
            .all(|h| h.signer_hex() == key && h.check().is_ok())
    );
    let info = ServerClient::new(server.channel().await)
        .get_server_info(v1::GetServerInfoRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (info.name.as_str(), info.signing_key.as_str()),
        ("baffled", key.as_str())
    );
    assert!(log.contains(&format!(r#"\"signer\":\"{key}\""#)), "{log}");
    key
}

/// A twin with a key of its own: its log names another signer than the witness's heads.
async fn a_twin_with_its_own_key_is_rejected(
    real: &TestServer,
    files: &Path,
    witness: &Path,
) -> TestServer {
    let own_key = TestServer::start().await;
    match_played(&own_key).await;
    let twin = write(files, "own.jsonl", &export(&own_key).await);
    let o = verify(real, &twin, &[witness]).await;
    assert_eq!(o.code, 1, "{}{}", o.out, o.err);
    assert!(
        o.out.contains("not the one that server showed"),
        "{}",
        o.out
    );
    own_key
}

/// A twin with the real server's signing key copied: its log verifies on its own, but
/// not through the heads the real server's witness kept; the witness itself, followed on
/// with the twin, says the server signed two histories; and the two witnesses' heads
/// together are a proof, which the verifier prints. Returns the twin and the proof.
async fn a_twin_with_the_key_copied_is_caught(
    real: &TestServer,
    files: &Path,
    key: &str,
) -> (TestServer, String) {
    let witness = files.join("real.heads");
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let signing_key = real.dir.path().join("signing.key");
    std::fs::copy(signing_key, dir.path().join("signing.key")).unwrap();
    let copied = TestServer::start_in(dir, ManualTime::new(EPOCH)).await;
    let twin_witness = files.join("twin.heads");
    let (twin_heads, twin_log) = witnessed_match(&copied, &twin_witness).await;
    assert_eq!(twin_heads[0].signer_hex(), key, "the same key");
    let length = twin_heads.iter().map(|h| h.length).max().unwrap();
    the_witness_sees_two_histories(&copied, &witness, files, length).await;

    let twin = write(files, "twin.jsonl", &twin_log);
    let alone = verify(real, &twin, &[]).await;
    assert_eq!(alone.code, 0, "{}", alone.out);
    let o = verify(real, &twin, &[&witness]).await;
    assert_eq!(o.code, 1, "{}{}", o.out, o.err);
    assert!(
        o.out.contains("not the history the server signed"),
        "{}",
        o.out
    );
    let o = verify(real, &twin, &[&witness, &twin_witness]).await;
    assert_eq!(o.code, 1, "{}", o.out);
    assert!(
        o.out.contains("the server signed two histories"),
        "{}",
        o.out
    );
    let proof: String = o
        .out
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(proof.lines().count(), 2, "{}", o.out);
    (copied, proof)
}

/// The real witness's file, followed on with the twin `server`: the witness finds a
/// second head signed for a length it kept (`length`), keeps it, and says so (exit 1).
async fn the_witness_sees_two_histories(
    server: &TestServer,
    witness: &Path,
    files: &Path,
    length: u64,
) {
    let resumed = files.join("resumed.heads");
    std::fs::copy(witness, &resumed).unwrap();
    let (stop, task) = start_witness(server, &resumed);
    for _ in 0..1_000 {
        let heads = read_witness(&std::fs::read_to_string(&resumed).unwrap()).unwrap();
        if heads.iter().filter(|h| h.length == length).count() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    stop.send(()).unwrap();
    let (code, said) = task.await.unwrap();
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("the server signed two histories"), "{said}");
}

/// `check-proof` accepts the proof; with a signature tampered, neither it nor the
/// verifier (the tampered head as a witness) accepts anything.
async fn the_proof_checks_and_a_forgery_does_not(
    server: &TestServer,
    files: &Path,
    proof: &str,
    real_log: &Path,
) {
    let proof_file = write(files, "proof.jsonl", proof);
    let check = |file: PathBuf| async move {
        baffle(server, &["audit", "check-proof", file.to_str().unwrap()]).await
    };
    let o = check(proof_file.clone()).await;
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    assert!(o.out.contains("two histories"), "{}", o.out);
    // With the server's key named, the proof holds against that server, and a proof
    // signed by any other key (a stranger's own) does not.
    let mut first = SignedHead::parse_line(proof.lines().next().unwrap()).unwrap();
    let path = proof_file.to_str().unwrap();
    let theirs = first.signer_hex().to_string();
    let o = baffle(server, &["audit", "check-proof", path, "--signer", &theirs]).await;
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    let other = "ab".repeat(32);
    let o = baffle(server, &["audit", "check-proof", path, "--signer", &other]).await;
    assert_eq!(o.code, 1, "{}", o.out);
    assert!(
        o.out.contains("not a proof against this server"),
        "{}",
        o.out
    );
    first.signature[5] ^= 0x40;
    let second = proof.lines().nth(1).unwrap();
    let forged = format!("{}\n{second}\n", first.to_line());
    let o = check(write(files, "forged.jsonl", &forged)).await;
    assert_eq!(o.code, 1, "{}", o.out);
    assert!(o.out.contains("signature"), "{}", o.out);
    let forged_witness = write(files, "forged.heads", &format!("{}\n", first.to_line()));
    let o = verify(server, real_log, &[&forged_witness]).await;
    assert_eq!(o.code, 1, "{}", o.out);
}

/// Every head the server sends a follower is signed, for the length and head it shows:
/// `GetMatch`, `Watch` and `WatchTournament` alike, the first state and every update —
/// and then a command's reply too, since it is the state the followers get. A match
/// nobody follows signs nothing for its commander alone.
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
    let mut d = match_played(&server).await;
    let mover = d.state("m").await.turn_side;
    let unfollowed = d.act("m", Action::Press(mover)).await;
    assert_eq!(unfollowed.signed_head, None, "no follower, no signature");
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
    let mut watch = watch.unwrap().into_inner();
    let first = watch.message().await.unwrap().unwrap();
    check(first.state.as_ref().expect("a state"));
    server.time.advance(1_000);
    let mover = d.state("m").await.turn_side;
    let reply = d.act("m", baffle_tests::api::server_roll(mover)).await;
    check(&reply);
    let update = watch.message().await.unwrap().unwrap();
    assert!(!update.events.is_empty());
    check(update.state.as_ref().expect("a state"));
    assert_eq!(update.state.unwrap().signed_head, reply.signed_head);
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
