//! A PostgreSQL 15 primary with a synchronous standby, in a temporary directory on
//! loopback ports, for the tests of the PostgreSQL store and of several nodes
//! (`docs/cluster.md`). Started with the distribution's `initdb`, `pg_basebackup` and
//! `pg_ctl` from `/usr/lib/postgresql/15/bin`, as an unprivileged user: PostgreSQL
//! refuses to run as root, so when the tests run as root (CI does) every command goes
//! through `runuser -u postgres` (or `nobody`) and the directory is handed to that user.
//! Everything is stopped (immediately: nothing of it is kept) when the cluster is
//! dropped.
//!
//! Where PostgreSQL is missing the caller is told so and the test passes, unless
//! `BAFFLE_PG_TEST=required` — which `.ci/run` sets after installing `postgresql-15`.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Where Debian puts PostgreSQL 15's programs.
pub const BIN: &str = "/usr/lib/postgresql/15/bin";
/// The superuser the clusters are made with (trust authentication on loopback only).
pub const USER: &str = "baffle";

/// One server of the cluster.
pub struct PgServer {
    /// Its TCP port on 127.0.0.1.
    pub port: u16,
    data: PathBuf,
    running: bool,
}

/// A primary and (optionally) its synchronous standby.
pub struct PgCluster {
    dir: tempfile::TempDir,
    /// The user the servers run as, when the tests run as root.
    run_as: Option<String>,
    /// The primary at start.
    pub primary: PgServer,
    /// The synchronous standby, if one was asked for.
    pub standby: Option<PgServer>,
    /// Standbys made so far (each in a directory of its own).
    made: u32,
    /// The port of the primary last killed, for the next standby.
    spare_port: Option<u16>,
}

/// A new database `name` on a primary of its own (no standby), with its URL; `None` where
/// PostgreSQL is missing (the test passes, [`available`] says why).
pub fn lone_database(name: &str) -> Option<(PgCluster, String)> {
    if !available() {
        return None;
    }
    let db = PgCluster::start(false);
    let url = db.database(name);
    Some((db, url))
}

/// A store opened as node `name` of a cluster (reached at `http://NAME`), with leases of
/// `lease`, on the database at `url`.
pub async fn node_store(url: &str, name: &str, lease: Duration) -> baffle_server::store::PgStore {
    let fence = baffle_server::store::Fence::new(name.into(), format!("http://{name}"), lease);
    baffle_server::store::PgStore::connect_node(url, fence)
        .await
        .expect("the node's store opens")
}

/// A session of the test's own on the database at `url` (no limits of a node's).
pub async fn session(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("the test's session");
    tokio::spawn(connection);
    client
}

/// Whether PostgreSQL's programs are here (if not, says so); required under
/// `BAFFLE_PG_TEST=required`.
pub fn available() -> bool {
    let found = Path::new(BIN).join("initdb").exists();
    match found {
        true => true,
        false if std::env::var("BAFFLE_PG_TEST").as_deref() == Ok("required") => {
            panic!(
                "the PostgreSQL tests are required, and PostgreSQL 15 is not installed \
                 (apt-get install postgresql-15)"
            )
        }
        false => {
            eprintln!("skipped, PostgreSQL 15 is not installed: .ci/run installs it");
            false
        }
    }
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address").port()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// The first of `postgres`, `nobody` that exists, with its uid and gid.
fn unprivileged_user() -> (String, u32, u32) {
    for user in ["postgres", "nobody"] {
        let id = |flag: &str| -> Option<u32> {
            let o = Command::new("id").args([flag, user]).output().ok()?;
            String::from_utf8_lossy(&o.stdout).trim().parse().ok()
        };
        if let (Some(uid), Some(gid)) = (id("-u"), id("-g")) {
            return (user.to_string(), uid, gid);
        }
    }
    panic!("no unprivileged user (postgres or nobody) to run PostgreSQL as");
}

impl PgCluster {
    /// Starts a primary and, if `standby`, a synchronous standby streaming from it.
    /// Panics (the test fails) if anything does not start.
    pub fn start(standby: bool) -> PgCluster {
        let dir = tempfile::Builder::new()
            .prefix("baffle-pg")
            .tempdir()
            .expect("a temporary directory");
        let run_as = if is_root() {
            let (user, uid, gid) = unprivileged_user();
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).expect("chown");
            Some(user)
        } else {
            None
        };
        let mut cluster = PgCluster {
            primary: PgServer {
                port: free_port(),
                data: dir.path().join("primary"),
                running: false,
            },
            standby: None,
            made: 0,
            spare_port: None,
            dir,
            run_as,
        };
        cluster.init_primary(standby);
        if standby {
            cluster.start_standby();
        }
        cluster
    }

    /// Runs one of PostgreSQL's programs as the cluster's user; its output.
    pub fn run(&self, program: &str, args: &[&str]) -> Output {
        let path = Path::new(BIN).join(program);
        let mut command = match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&path);
                c
            }
            None => Command::new(&path),
        };
        command
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .unwrap_or_else(|e| panic!("{program} does not run: {e}"))
    }

    fn must(&self, program: &str, args: &[&str]) -> String {
        let out = self.run(program, args);
        assert!(
            out.status.success(),
            "{program} {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn write_conf(&self, data: &Path, lines: &str) {
        let conf = data.join("postgresql.conf");
        let mut text = std::fs::read_to_string(&conf).expect("postgresql.conf");
        text.push_str(lines);
        std::fs::write(&conf, text).expect("postgresql.conf written");
    }

    fn init_primary(&mut self, synchronous: bool) {
        let data = self
            .primary
            .data
            .to_str()
            .expect("a UTF-8 path")
            .to_string();
        self.must(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                USER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        let sync = if synchronous { "*" } else { "" };
        self.write_conf(
            &self.primary.data,
            &format!(
                "\nport = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{}'\n\
                 shared_buffers = 32MB\nwal_level = replica\nmax_wal_senders = 4\n\
                 synchronous_standby_names = '{sync}'\nsynchronous_commit = on\n",
                self.primary.port,
                self.dir.path().display()
            ),
        );
        self.pg_start(&self.primary.data.clone());
        self.primary.running = true;
    }

    fn start_standby(&mut self) {
        self.start_standby_on(free_port());
        self.wait_for_sync_standby();
    }

    fn start_standby_on(&mut self, port: u16) {
        self.made += 1;
        let data = self.dir.path().join(format!("standby{}", self.made));
        let (d, p) = (data.to_str().expect("UTF-8").to_string(), self.primary.port);
        self.must(
            "pg_basebackup",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &p.to_string(),
                "-U",
                USER,
                "-D",
                &d,
                "-R",
                "-X",
                "stream",
                "--no-sync",
                // A fast checkpoint: the default spreads it over minutes.
                "-c",
                "fast",
            ],
        );
        // Once promoted, it stands alone: waiting for a standby of its own would stop
        // every commit (in production, Patroni rewrites this on promotion).
        self.write_conf(
            &data,
            &format!("\nport = {port}\nsynchronous_standby_names = ''\n"),
        );
        self.pg_start(&data);
        self.standby = Some(PgServer {
            port,
            data,
            running: true,
        });
    }

    fn pg_start(&self, data: &Path) {
        let d = data.to_str().expect("UTF-8");
        let log = data.with_extension("log");
        self.must(
            "pg_ctl",
            &[
                "-D",
                d,
                "-l",
                log.to_str().expect("UTF-8"),
                "-w",
                "-t",
                "60",
                "start",
            ],
        );
    }

    /// Runs `sql` on the server at `port`, database `postgres`; its output, unaligned.
    pub fn psql(&self, port: u16, sql: &str) -> String {
        self.must(
            "psql",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                "-U",
                USER,
                "-d",
                "postgres",
                "-At",
                "-c",
                sql,
            ],
        )
    }

    fn wait_for_sync_standby(&self) {
        let start = Instant::now();
        loop {
            let n = self.psql(
                self.primary.port,
                "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'",
            );
            if n.trim() == "1" {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the standby never became synchronous"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Creates database `name` (on the primary) and returns a URL for it that lists
    /// every server, the read-write one to be chosen: what `baffled --store` is given.
    pub fn database(&self, name: &str) -> String {
        self.psql(self.primary.port, &format!("CREATE DATABASE {name}"));
        self.url(name)
    }

    /// The multi-host URL of database `name`.
    pub fn url(&self, name: &str) -> String {
        let mut hosts = format!("127.0.0.1:{}", self.primary.port);
        if let Some(s) = &self.standby {
            hosts.push_str(&format!(",127.0.0.1:{}", s.port));
        }
        format!("postgres://{USER}@{hosts}/{name}?target_session_attrs=read-write")
    }

    /// Stops the primary at once, as a crash would (`pg_ctl stop -m immediate`: no
    /// checkpoint, the postmaster and every backend end).
    pub fn kill_primary(&mut self) {
        let d = self.primary.data.to_str().expect("UTF-8").to_string();
        self.must("pg_ctl", &["-D", &d, "-m", "immediate", "stop"]);
        self.primary.running = false;
    }

    /// Promotes the standby to primary and waits until it takes writes.
    pub fn promote_standby(&mut self) {
        let s = self.standby.as_ref().expect("a standby");
        let d = s.data.to_str().expect("UTF-8").to_string();
        self.must("pg_ctl", &["-D", &d, "-w", "promote"]);
    }

    /// One failover, as Patroni would make it: [`Self::kill_and_promote`], then
    /// [`Self::rebuild_standby`].
    pub fn failover(&mut self) {
        self.kill_and_promote();
        self.rebuild_standby();
    }

    /// The primary killed and the synchronous standby promoted — told not to wait for a
    /// standby while it has none — and made the primary.
    pub fn kill_and_promote(&mut self) {
        self.kill_primary();
        self.promote_standby();
        let promoted = self.standby.take().expect("a standby");
        self.psql(
            promoted.port,
            "ALTER SYSTEM SET synchronous_standby_names = ''",
        );
        self.psql(promoted.port, "SELECT pg_reload_conf()");
        let dead = std::mem::replace(&mut self.primary, promoted);
        self.spare_port = Some(dead.port);
        let _ = std::fs::remove_dir_all(&dead.data);
    }

    /// A new standby made from the primary by base backup *on the dead primary's port* —
    /// so a store's URL, which lists both ports, keeps finding every primary — and made
    /// synchronous again. Returns when it is: a kill before then could lose commits that
    /// no standby had, which is not the failure under test.
    pub fn rebuild_standby(&mut self) {
        let port = self.spare_port.take().unwrap_or_else(free_port);
        self.start_standby_on(port);
        self.psql(
            self.primary.port,
            "ALTER SYSTEM SET synchronous_standby_names = '*'",
        );
        self.psql(self.primary.port, "SELECT pg_reload_conf()");
        self.wait_for_sync_standby();
    }

    /// Makes the primary serve TLS with `cert` and **only** TLS on TCP (`hostssl` in
    /// `pg_hba.conf`: a client that does not encrypt is refused), and restarts it.
    pub fn serve_tls(&mut self, cert: &crate::pg_tls::ServerCert) {
        use std::os::unix::fs::PermissionsExt;
        let data = self.primary.data.clone();
        for (file, pem) in [
            ("server.crt", &cert.cert_pem),
            ("server.key", &cert.key_pem),
        ] {
            let path = data.join(file);
            std::fs::write(&path, pem).expect("a TLS file");
            // PostgreSQL refuses a key others may read, or one it does not own.
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
            if let Some(user) = &self.run_as {
                let (_, uid, gid) = unprivileged_user();
                debug_assert_eq!(&unprivileged_user().0, user);
                std::os::unix::fs::chown(&path, Some(uid), Some(gid)).expect("chown");
            }
        }
        self.write_conf(
            &data,
            "
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
",
        );
        std::fs::write(
            data.join("pg_hba.conf"),
            "local all all trust
hostssl all all 127.0.0.1/32 trust
             hostssl all all ::1/128 trust
hostssl replication all 127.0.0.1/32 trust
",
        )
        .expect("pg_hba.conf");
        let d = data.to_str().expect("UTF-8").to_string();
        self.must("pg_ctl", &["-D", &d, "-m", "fast", "-w", "stop"]);
        self.pg_start(&data);
    }

    /// Where the servers' logs are (`primary.log`, `standby.log`), for a failing test.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let servers = std::iter::once(&self.primary).chain(self.standby.as_ref());
        let running: Vec<String> = servers
            .filter(|s| s.running)
            .filter_map(|s| s.data.to_str().map(str::to_string))
            .collect();
        for d in running {
            let _ = self.run("pg_ctl", &["-D", &d, "-m", "immediate", "stop"]);
        }
    }
}
