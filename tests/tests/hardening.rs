//! Issue 18, hardening, tried as an attacker would: what a copy of the data directory
//! reveals, logs cut short, and retries across restarts (see also `api_boundaries.rs`).

use baffle_core::audit::Chain;
use baffle_core::audit::export::{Line, parse_line, record_line};
use baffle_core::clock::TimeControl;
use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::chess_command::Action as Chess;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use baffle_server::hub::Hub;
use baffle_server::store::{EventStore, MemoryStore, Receipt, SledStore, StoreError};
use baffle_server::time::ManualTime;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::{EPOCH, TestServer, with_token};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

const WHITE: i32 = v1::Color::White as i32;
const BLACK: i32 = v1::Color::Black as i32;

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
/// server seed sealed under the seal key, which lives apart (issue 29: no longer the
/// director token's): a copy of the store taken before the reveal holds the seed neither
/// in hex nor in raw bytes. And a server started with another seal key cannot open the
/// seal: that match goes offline with DATA_LOSS saying why, rather than playing other
/// dice.
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
    std::fs::write(
        dir.path().join("seal.key"),
        format!("{}\n", "5a".repeat(32)),
    )
    .unwrap();
    let server = TestServer::start_in(dir, time).await;
    let e = TournamentsClient::new(server.channel().await)
        .get_match(v1::GetMatchRequest {
            match_id: "other".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::DataLoss, "{e:?}");
    assert!(e.message().contains("seal.key"), "{}", e.message());
    server.stop().await;
}

fn chess(action: Chess) -> Action {
    Action::Chess(v1::ChessCommand {
        action: Some(action),
    })
}

/// Opens the store, waiting for a server of this process to let go of it.
async fn open_store(dir: &std::path::Path) -> SledStore {
    for _ in 0..20_000 {
        if let Ok(store) = SledStore::open(dir) {
            return store;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    panic!("the store stays locked");
}

/// A chess log whose time control adds 2^62 ms a move — the increment that wrapped
/// `main_ms` in the issue — re-chained so that only the rules can object to it.
fn poisoned(lines: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut chain = Chain::new();
    let mut poisoned = false;
    for line in lines {
        let Ok(Line::Record(record)) = parse_line(std::str::from_utf8(line).unwrap()) else {
            panic!("a record");
        };
        let body = record.body;
        let changed = body.replace(
            "\"increment\":10000",
            &format!("\"increment\":{}", 1u64 << 62),
        );
        poisoned |= changed != body;
        chain.append(changed);
    }
    assert!(poisoned, "the set-up names the increment: {lines:?}");
    chain
        .records()
        .iter()
        .map(|r| record_line(r).into_bytes())
        .collect()
}

/// Issue 18 (1), the server's part: a log that poisons its engine (a clock arithmetic
/// that wraps, a panic, or a replay that does not end) takes only its own match offline
/// on start, with DATA_LOSS; the rest start and answer. The log is written straight into
/// a store, as a damaged or hostile one would be; the rules' bounds on time controls
/// (core) may refuse it at its set-up, or its replay may fail later: either way the
/// match is offline and the server is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_that_poisons_its_engine_takes_only_its_match_offline() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("t", defaults(0, None, v1::DiceSource::Physical))
        .await;
    let settings = v1::ChessMatchSettings {
        control: Some((&TimeControl::rapid()).into()),
        games: 1,
        default_time_ms: 30 * 60_000,
        ..Default::default()
    };
    d.create_chess("t", "poison", "1", EPOCH.as_ms(), settings)
        .await;
    d.create_match("t", "good", 3, EPOCH.as_ms()).await;
    d.act("poison", chess(Chess::Arrive(WHITE))).await;
    d.act("poison", chess(Chess::Arrive(BLACK))).await;
    d.act("poison", chess(Chess::Press(WHITE))).await;
    d.act("poison", chess(Chess::Press(BLACK))).await;
    let good = d.act("good", Action::CheckIn(A)).await;
    let (old, time) = server.stop().await;

    let source = open_store(&old.path().join("store")).await;
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    // The server's secrets go with its store: the seal key opens the seeds.
    for secret in ["director.token", "seal.key", "signing.key"] {
        std::fs::copy(old.path().join(secret), dir.path().join(secret)).unwrap();
    }
    let store = SledStore::open(&dir.path().join("store")).unwrap();
    for stream in ["registry", "m/good", "m/poison"] {
        let mut lines = source.read(stream, 0, usize::MAX).unwrap();
        if stream == "m/poison" {
            lines = poisoned(&lines);
        }
        store.append(stream, 0, lines).await.unwrap();
    }
    drop((store, source));

    let server = TestServer::start_in(dir, time).await;
    let mut t = TournamentsClient::new(server.channel().await);
    let get = |id: &str| v1::GetMatchRequest {
        match_id: id.into(),
    };
    let answer = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        t.get_match(get("poison")),
    )
    .await
    .expect("the poisoned match answers");
    let e = answer.unwrap_err();
    assert_eq!(e.code(), tonic::Code::DataLoss, "{e:?}");
    let mut d = Director::connect(&server).await;
    assert_eq!(d.state("good").await.seq, good.seq, "the rest start");
    d.act("good", Action::CheckIn(B)).await;
    server.stop().await;
}

/// A store that fails as a full disk does, when told: each append is written and then
/// refused (a flush that failed after the write), and the store says it cannot write.
#[derive(Clone)]
struct FullDisk {
    inner: MemoryStore,
    full: std::sync::Arc<std::sync::atomic::AtomicBool>,
    writable: std::sync::Arc<tokio::sync::watch::Sender<bool>>,
}

impl FullDisk {
    fn new() -> FullDisk {
        FullDisk {
            inner: MemoryStore::new(),
            full: Default::default(),
            writable: std::sync::Arc::new(tokio::sync::watch::channel(true).0),
        }
    }

    fn set_full(&self, full: bool) {
        self.full.store(full, std::sync::atomic::Ordering::SeqCst);
        self.writable.send_replace(!full);
    }
}

impl EventStore for FullDisk {
    async fn append_with_receipt(
        &self,
        stream: &str,
        expected: u64,
        records: Vec<Vec<u8>>,
        receipt: Option<Receipt>,
    ) -> Result<u64, StoreError> {
        let len = self
            .inner
            .append_with_receipt(stream, expected, records, receipt)
            .await?;
        if self.full.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(StoreError::Io(
                "No space left on device (os error 28)".into(),
            ));
        }
        Ok(len)
    }

    fn receipt(&self, stream: &str, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.receipt(stream, key)
    }

    fn read(&self, stream: &str, from: u64, limit: usize) -> Result<Vec<Vec<u8>>, StoreError> {
        self.inner.read(stream, from, limit)
    }

    fn len(&self, stream: &str) -> Result<u64, StoreError> {
        self.inner.len(stream)
    }

    fn writable(&self) -> tokio::sync::watch::Receiver<bool> {
        self.writable.subscribe()
    }

    fn streams(&self) -> Result<Vec<String>, StoreError> {
        self.inner.streams()
    }
}

async fn health(channel: tonic::transport::Channel) -> ServingStatus {
    let status = HealthClient::new(channel)
        .check(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner()
        .status;
    ServingStatus::try_from(status).unwrap()
}

/// A server on a [`FullDisk`] store with tournament `t` and match `m` (physical dice),
/// player A checked in: the store, a channel, the director token, the check-in of A's
/// seq, and what stops the server.
struct OnFullDisk {
    store: FullDisk,
    channel: tonic::transport::Channel,
    token: String,
    seq: u64,
    stop: tokio::sync::oneshot::Sender<()>,
    server: tokio::task::JoinHandle<Result<(), baffle_server::ServeError>>,
}

fn check_in(side: i32, id: &str) -> v1::ExecuteRequest {
    v1::ExecuteRequest {
        match_id: "m".into(),
        command: Some(v1::Command {
            action: Some(Action::CheckIn(side)),
        }),
        ruling: None,
        request_id: id.into(),
        expected_seq: None,
    }
}

/// Player B checks in (request id "b") while the disk is full: written, then refused
/// UNAVAILABLE. The disk stays full.
async fn check_in_b_on_a_full_disk(
    store: &FullDisk,
    c: &mut MatchesClient<tonic::transport::Channel>,
    token: &str,
) {
    store.set_full(true);
    let e = c
        .execute(with_token(check_in(B, "b"), token))
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::Unavailable, "{e:?}");
}

async fn on_full_disk() -> OnFullDisk {
    let store = FullDisk::new();
    let dir = tempfile::tempdir().unwrap();
    let keys = baffle_server::keys::ServerKeys::in_dir(
        dir.path(),
        baffle_server::auth::director_token(&dir.path().join("token")).unwrap(),
    )
    .unwrap();
    let token = keys.director_token.clone();
    let hub = Hub::open(store.clone(), ManualTime::new(EPOCH), keys)
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(baffle_server::serve(hub, listener, async {
        let _ = stopped.await;
    }));
    let channel = tonic::transport::Endpoint::from_shared(url)
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut t = TournamentsClient::new(channel.clone());
    let tournament = v1::Tournament {
        id: "t".into(),
        name: "T".into(),
        defaults: Some(defaults(0, None, v1::DiceSource::Physical)),
        ..Default::default()
    };
    let create = v1::CreateTournamentRequest {
        tournament: Some(tournament),
    };
    t.create_tournament(with_token(create, &token))
        .await
        .unwrap();
    let create = v1::CreateMatchRequest {
        tournament_id: "t".into(),
        match_id: "m".into(),
        player_a: "a".into(),
        player_b: "b".into(),
        length: 3,
        scheduled_start_ms: EPOCH.as_ms(),
        ..Default::default()
    };
    t.create_match(with_token(create, &token)).await.unwrap();
    let mut c = MatchesClient::new(channel.clone());
    let seq = c
        .execute(with_token(check_in(A, "a"), &token))
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap()
        .seq;
    assert_eq!(health(channel.clone()).await, ServingStatus::Serving);
    OnFullDisk {
        store,
        channel,
        token,
        seq,
        stop,
        server,
    }
}

/// Issue 18 (5), with a fault-injecting store: after a full disk the server used to
/// answer INTERNAL ("the match log moved under us") and health said SERVING. Now the
/// failed command is UNAVAILABLE, health says NOT_SERVING while the store cannot write,
/// and when it can again the server goes on by itself: SERVING, commands applied, and
/// the command that failed — written before the disk refused — answered to its retry
/// with its first reply (its request_id) and never applied twice.
#[tokio::test]
async fn a_full_disk_answers_unavailable_and_recovers_by_itself() {
    let OnFullDisk {
        store,
        channel,
        token,
        seq,
        stop,
        server,
    } = on_full_disk().await;
    let mut c = MatchesClient::new(channel.clone());
    check_in_b_on_a_full_disk(&store, &mut c, &token).await;
    let mut status = health(channel.clone()).await;
    for _ in 0..1_000 {
        if status == ServingStatus::NotServing {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        status = health(channel.clone()).await;
    }
    assert_eq!(status, ServingStatus::NotServing);

    store.set_full(false);
    for _ in 0..1_000 {
        if health(channel.clone()).await == ServingStatus::Serving {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    assert_eq!(health(channel.clone()).await, ServingStatus::Serving);
    let retried = c
        .execute(with_token(check_in(B, "b"), &token))
        .await
        .expect("the retry of the command written before the failure")
        .into_inner();
    assert_eq!(retried.state.unwrap().seq, seq + 1, "applied once");
    let take_break = v1::ExecuteRequest {
        command: Some(v1::Command {
            action: Some(Action::TakeBreak(A)),
        }),
        ..check_in(A, "")
    };
    let next = c.execute(with_token(take_break, &token)).await;
    assert!(
        !next
            .as_ref()
            .is_err_and(|e| matches!(e.code(), tonic::Code::Internal | tonic::Code::Unavailable)),
        "{next:?}"
    );
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}

/// Issue 22, found by the cluster campaign: a write whose answer was lost (the database
/// died while committing; here, a full disk refusing after the write) is in the log but
/// not in the match's table. The next command — a new one, not a retry — used to be
/// decided on the stale table: the opening roll refused because player B "has not
/// checked in", though the log says he has, and nothing ever corrected it. Now the actor
/// reads the log past its table before deciding anything after such a failure.
#[tokio::test]
async fn a_write_whose_answer_was_lost_is_taken_up_before_the_next_command() {
    let OnFullDisk {
        store,
        channel,
        token,
        seq,
        stop,
        server,
    } = on_full_disk().await;
    let mut c = MatchesClient::new(channel.clone());
    check_in_b_on_a_full_disk(&store, &mut c, &token).await;
    store.set_full(false);
    let opening = v1::ExecuteRequest {
        command: Some(v1::Command {
            action: Some(Action::OpeningRoll(v1::Roll {
                side: 0,
                dice: vec![6, 1],
                link: Vec::new(),
            })),
        }),
        ..check_in(A, "opening")
    };
    let reply = c
        .execute(with_token(opening, &token))
        .await
        .expect("the opening roll, both players being checked in by the log")
        .into_inner();
    assert!(reply.state.unwrap().seq > seq + 1, "after B's check-in");
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}
