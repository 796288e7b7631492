//! The real `baffle console` driven as a director drives it: the program runs in a
//! pseudo-terminal (`portable-pty`), keys are typed into it (Ctrl-C as the byte a
//! terminal sends for it), and what it draws is parsed into a screen (`vt100`) that the
//! tests read. The server is a real `baffled` on loopback (in this process, its clock
//! turned by hand). Nothing here sleeps for a clock to run: every step waits for what
//! the screen must show, with a deadline, and the running clocks are masked in snapshots.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_tests::api::{A, B, Director, defaults, opening, result};
use baffle_tests::cli::baffle;
use baffle_tests::{EPOCH, TestServer};
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

/// How long a screen may take to show what a step waits for.
const DEADLINE: Duration = Duration::from_secs(20);

/// Ctrl-C as a terminal sends it.
const CTRL_C: &str = "\x03";

/// `baffle console` running in a pseudo-terminal.
struct Console {
    screen: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    _master: Box<dyn MasterPty + Send>,
}

impl Console {
    /// `baffle --server SERVER --token TOKEN --lang LANG console TOURNAMENT` on a
    /// terminal `columns` wide and 24 lines high.
    fn start(server: &str, token: &str, lang: &str, columns: u16, tournament: &str) -> Console {
        let bin = baffle_tests::binaries::built(&["baffle"]);
        let size = PtySize {
            rows: 24,
            cols: columns,
            pixel_width: 0,
            pixel_height: 0,
        };
        let pair = native_pty_system()
            .openpty(size)
            .expect("a pseudo-terminal");
        let mut command = CommandBuilder::new(bin.join("baffle"));
        command.args([
            "--server", server, "--token", token, "--lang", lang, "console", tournament,
        ]);
        command.env("TERM", "xterm-256color");
        command.env_remove("BAFFLE_LANG");
        let child = pair.slave.spawn_command(command).expect("baffle starts");
        drop(pair.slave);
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            NonZeroU16::new(24).expect("lines"),
            NonZeroU16::new(columns).expect("columns"),
            0,
        )));
        let mut reader = pair
            .master
            .try_clone_reader()
            .expect("the terminal's output");
        let parsed = screen.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                parsed.lock().unwrap().process(&buffer[..n]);
            }
        });
        let writer = pair.master.take_writer().expect("the terminal's input");
        Console {
            screen,
            writer,
            child,
            _master: pair.master,
        }
    }

    /// The screen now, each line without its trailing blanks.
    fn screen(&self) -> String {
        let parser = self.screen.lock().unwrap();
        let screen = parser.screen();
        let (_, columns) = screen.size();
        screen
            .rows(0, columns.get())
            .map(|row| row.trim_end().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Waits until the screen satisfies `test`, and returns it; fails with the screen
    /// past the deadline.
    async fn wait(&self, what: &str, test: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if test(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "the screen never showed {what}:\n{screen}"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// Waits until the screen shows `text`.
    async fn shows(&self, text: &str) -> String {
        self.wait(&format!("{text:?}"), |s| s.contains(text)).await
    }

    /// Waits until the screen no longer shows `text`.
    async fn hides(&self, text: &str) -> String {
        self.wait(&format!("no {text:?}"), |s| !s.contains(text))
            .await
    }

    /// Types `keys`.
    fn type_keys(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("typed");
        self.writer.flush().expect("typed");
    }

    /// Whether the program has ended, and with what success.
    fn ended(&mut self) -> Option<bool> {
        self.child
            .try_wait()
            .expect("the program's status")
            .map(|s| s.success())
    }

    /// Waits for the program to end; returns whether it succeeded.
    async fn end(&mut self) -> bool {
        let start = Instant::now();
        loop {
            if let Some(success) = self.ended() {
                return success;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "the console is still running:\n{}",
                self.screen()
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        if self.ended().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The screen with its running clocks masked: each face ("13:55.2", "0:12"), with the
/// delay left or the running mark after it (" +7", " ◀"), becomes "<clock>", and the
/// blanks after it one blank. The console's clocks run on this machine's time between
/// two states, so a face differs from one run to the next.
fn masked(screen: &str) -> String {
    screen
        .lines()
        .map(masked_line)
        .collect::<Vec<_>>()
        .join("\n")
}

fn masked_line(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let digit = |i: usize| chars.get(i).is_some_and(char::is_ascii_digit);
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while digit(i) {
            i += 1;
        }
        let face = i > start && chars.get(i) == Some(&':') && digit(i + 1) && digit(i + 2);
        // A face starts a word: "r1-t7" or "14:32 UTC" in a sentence are not faces.
        let at_word = start == 0 || !chars[start - 1].is_alphanumeric();
        if !(face && at_word) {
            out.extend(&chars[start..i.max(start + 1)]);
            i = i.max(start + 1);
            continue;
        }
        i += 3;
        if chars.get(i) == Some(&'.') && digit(i + 1) {
            i += 2;
        }
        if chars.get(i) == Some(&' ') && chars.get(i + 1) == Some(&'+') {
            i += 2;
            while digit(i) {
                i += 1;
            }
        } else if chars.get(i) == Some(&' ') && chars.get(i + 1) == Some(&'◀') {
            i += 2;
        }
        out.push_str("<clock>");
        while chars.get(i) == Some(&' ') && chars.get(i + 1) == Some(&' ') {
            i += 1;
        }
    }
    out
}

#[test]
fn a_running_clock_is_masked_whatever_it_shows() {
    let a = masked_line("│7   r1-t7 Jones 0-1/7   13:52.0    13:52.1 +11 B roll │");
    let b = masked_line("│7   r1-t7 Jones 0-1/7   13:52.0    13:41.9 ◀   B roll │");
    assert_eq!(a, b);
    assert_eq!(a, "│7   r1-t7 Jones 0-1/7   <clock> <clock> B roll │");
}

/// The room: in tournament "open", `spring-open-r1-t7` (Anna Jones – Ben Smith) in a
/// game with B's clock running and a penalty point given, `spring-open-r1-t8` (two long
/// Greek names) finished and waiting for its result to be confirmed.
async fn room() -> (TestServer, Director) {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    let rules = defaults(120_000, None, v1::DiceSource::Physical);
    d.tournament("open", rules).await;
    for (id, table, a, b, length) in [
        ("spring-open-r1-t7", "7", "Anna Jones", "Ben Smith", 7),
        (
            "spring-open-r1-t8",
            "8",
            "Γεώργιος Παπαδόπουλος",
            "Κωνσταντίνος Αθανασόπουλος",
            3,
        ),
    ] {
        d.create(v1::CreateMatchRequest {
            tournament_id: "open".into(),
            match_id: id.into(),
            round: 1,
            table: table.into(),
            player_a: a.into(),
            player_b: b.into(),
            length,
            scheduled_start_ms: EPOCH.as_ms(),
            ..Default::default()
        })
        .await;
        d.act(id, Action::CheckIn(A)).await;
        d.act(id, Action::CheckIn(B)).await;
    }
    d.act("spring-open-r1-t7", opening(6, 1)).await;
    server.time.advance(20_000);
    d.act("spring-open-r1-t7", Action::Press(A)).await;
    d.act(
        "spring-open-r1-t7",
        Action::AwardPoints(v1::Points { side: B, points: 1 }),
    )
    .await;
    d.act("spring-open-r1-t8", opening(2, 5)).await;
    d.act(
        "spring-open-r1-t8",
        Action::EndGame(result(B, v1::WinKind::Backgammon)),
    )
    .await;
    (server, d)
}

/// The console of the room's tournament.
fn console(server: &TestServer, lang: &str, columns: u16) -> Console {
    Console::start(&server.addr_url, &server.token, lang, columns, "open")
}

/// Whether the finished match's result is still unconfirmed, as the API says.
async fn unconfirmed(d: &mut Director) -> bool {
    let s = d.state("spring-open-r1-t8").await;
    s.result.as_ref().is_some_and(|r| !r.confirmed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_outside_a_prompt_leaves_without_confirming_anything() {
    let (server, mut d) = room().await;
    let mut console = console(&server, "en", 80);
    console.shows("confirm the result: c").await;
    // The finished match selected, Ctrl-C then Enter: once read as `c` and confirmed.
    console.type_keys("\x1b[B");
    console.type_keys(CTRL_C);
    assert!(console.end().await, "Ctrl-C leaves with success");
    console.type_keys("\r");
    assert!(unconfirmed(&mut d).await, "Ctrl-C confirmed the result");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_in_a_prompt_cancels_it_and_q_closes_only_the_match_window() {
    let (server, mut d) = room().await;
    let mut console = console(&server, "en", 80);
    console.shows("confirm the result: c").await;
    // A prompt open (a warning for whom?), Ctrl-C cancels it: the console stays.
    console.type_keys("w");
    console.shows("warn").await;
    console.type_keys(CTRL_C);
    console.shows("? keys").await;
    // The result's y/n, Ctrl-C: cancelled, nothing sent.
    console.type_keys("\x1b[B");
    console.type_keys("c");
    console.shows("the reason").await;
    console.type_keys("signed\r\r");
    console.shows("y/n").await;
    console.type_keys(CTRL_C);
    console.shows("? keys").await;
    assert_eq!(console.ended(), None, "Ctrl-C in a prompt left the console");
    assert!(unconfirmed(&mut d).await, "Ctrl-C in a prompt confirmed");
    // The match in full (Enter): q closes the window, not the console.
    console.type_keys("\r");
    console.shows("round 1  table").await;
    console.type_keys("q");
    console.hides("round 1  table").await;
    console.shows("? keys").await;
    assert_eq!(
        console.ended(),
        None,
        "q in the match's window left the console"
    );
    // From the list, q leaves.
    console.type_keys("q");
    assert!(console.end().await);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_console_that_cannot_reach_its_server_says_so() {
    // A port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let server = format!("127.0.0.1:{port}");
    let mut console = Console::start(&server, "token", "en", 80, "open");
    // Naming the address it tried (a second new director's console drew an empty room).
    console.shows("cannot reach the server at").await;
    console.shows(&format!("127.0.0.1:{port}")).await;
    console.type_keys("q");
    assert!(console.end().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_in_greek_and_english_at_80_and_160_columns() {
    let (server, _d) = room().await;
    for (lang, columns, wait_for) in [
        ("en", 80, "confirm the result: c"),
        ("en", 160, "confirm the result: c"),
        ("el", 80, "επικυρώστε"),
        ("el", 160, "επικυρώστε"),
    ] {
        let mut console = console(&server, lang, columns);
        console.shows(wait_for).await;
        // Both rows drawn (the second's score is 0-3).
        let screen = console.shows("0-3/3").await;
        insta::assert_snapshot!(format!("pty_console_{lang}_{columns}"), masked(&screen));
        // The names before the match id: at 80 columns a long id gives up its start,
        // and each row keeps both surnames (once "… v B…" beside the whole id).
        let row = screen.lines().find(|l| l.contains("r1-t7")).unwrap();
        assert!(row.contains("Jones") && row.contains("Smith"), "{row}");
        let row = screen.lines().find(|l| l.contains("r1-t8")).unwrap();
        assert!(row.contains("Παπαδ") && row.contains("Αθανασ"), "{row}");
        if columns == 80 {
            assert!(!row.contains("spring-open-r1-t8"), "{row}");
        }
        console.type_keys("q");
        assert!(console.end().await);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn greek_keys_and_a_filter_without_accents_work_at_the_real_console() {
    let (server, mut d) = room().await;
    let mut console = console(&server, "el", 160);
    console.shows("επικυρώστε").await;
    // The filter typed without accents, as a Greek director types: one row left.
    console.type_keys("/παπαδοπουλος\r");
    let screen = console.hides("Anna Jones").await;
    assert!(screen.contains("Παπαδόπουλος"), "{screen}");
    // Esc clears the filter; a warning to Β (the Greek capital), confirmed with ν.
    console.type_keys("\x1b");
    console.shows("Anna Jones").await;
    console.type_keys("w");
    console.shows("Anna Jones").await;
    console.type_keys("Β\r");
    // The ruling's grounds are the director's: the reason asked, the usual article
    // (2.3, slow play) offered and taken with Enter.
    console.shows("αιτιολογία").await;
    console.type_keys("\r");
    console.shows("χρειάζεται αιτιολογία").await;
    console.type_keys("αργό παιχνίδι\r");
    console.shows("Enter: 2.3").await;
    console.type_keys("\r");
    console.shows("ν/ο").await;
    console.type_keys("ν");
    let warned = async {
        loop {
            let s = d.state("spring-open-r1-t7").await;
            if s.warnings.get(1).copied().unwrap_or(0) == 1 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    };
    tokio::time::timeout(DEADLINE, warned)
        .await
        .expect("Ben was warned");
    let log = baffle(
        &server,
        &["audit", "export", "spring-open-r1-t7", "-o", "-"],
    )
    .await;
    let grounds = r#"\"ruling\":{\"reason\":\"αργό παιχνίδι\",\"article\":\"2.3\"}"#;
    assert!(log.out.contains(grounds), "{}", log.out);
    assert!(!log.out.contains("warned at the console"), "{}", log.out);
    console.type_keys("q");
    assert!(console.end().await);
    server.stop().await;
}

/// A day with a draw: an 8-player knockout set up through the API (tournament, draw
/// opened, entrants registered, approved and checked in, the draw made, round 1
/// started). The console's draw view (`v`) shows round 1's matches at their tables with
/// their names; once every round-1 match is decided and confirmed through the API, the
/// to-do says round 2 is ready, and `R`, `y` start it: its matches appear, with names
/// and tables.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_draw_view_follows_a_knockout_and_starts_the_next_round() {
    use baffle_tests::draws::{DrawDirector, decide_round};
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    let mut draws = DrawDirector::on(server.channel().await, &server.token);
    let names = [
        "Anna", "Ben", "Carl", "Dora", "Eleni", "Fotis", "Giorgos", "Hara",
    ];
    let view = draws
        .knockout(&mut d, "club", &names, &["1", "2", "3", "4"])
        .await;
    let round1: Vec<_> = view.pairings.iter().filter(|p| p.round == 1).collect();
    assert_eq!(round1.len(), 4);
    let mut console = Console::start(&server.addr_url, &server.token, "en", 80, "club");
    console.shows("baffle console").await;
    console.type_keys("v");
    console.shows("main draw, round 1: now").await;
    for p in &round1 {
        // "M1-1  1   Anna – Hara   playing at table 1"
        let screen = console
            .wait(&format!("{} at table {}", p.key, p.table), |s| {
                s.lines().any(|l| {
                    l.contains(&p.key)
                        && l.contains(&p.name_a)
                        && l.contains(&p.name_b)
                        && l.contains(&format!("playing at table {}", p.table))
                })
            })
            .await;
        assert!(!p.table.is_empty(), "{screen}");
    }
    console.shows("main draw, round 2: next").await;

    decide_round(&mut d, &view, 1).await;
    console
        .shows("main draw, round 2 is ready — start it: R")
        .await;
    console.type_keys("R");
    console
        .shows("start round 2 of the main draw now? y/n")
        .await;
    console.type_keys("y");
    console.shows("main draw, round 2: now").await;
    let view = draws.get("club").await;
    let round2: Vec<_> = view.pairings.iter().filter(|p| p.round == 2).collect();
    assert_eq!(round2.len(), 2, "{view:?}");
    for p in &round2 {
        assert!(
            view.rounds.iter().any(|r| r.round == 2 && r.started),
            "round 2 started"
        );
        console
            .wait(&format!("{} with its players", p.key), |s| {
                s.lines().any(|l| {
                    l.contains(&p.key)
                        && l.contains(&p.name_a)
                        && l.contains(&p.name_b)
                        && l.contains("playing at table")
                })
            })
            .await;
    }
    console.hides("round 2 is ready").await;
    console.type_keys("q");
    assert!(console.end().await);
    server.stop().await;
}
