//! `baffle-device load`: many matches, a device each, pressing as fast as the rules allow
//! (roll, press, roll, press, … with the server's dice), for a fixed time. It reports
//! presses per second and the press round trip — from the button to its ack, through
//! the device stream and the durable append — as an HDR histogram, beside a bare gRPC
//! health ping measured on the same connection during the same run: the ping is the
//! floor a press cannot beat, and the ratio says what the server adds to it.

use std::time::Duration;

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use hdrhistogram::Histogram;
use tokio::time::Instant;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

use crate::clock::DeviceClock;
use crate::demo::{Tables, fresh_tournament_id};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::device::{Device, DeviceConfig, DeviceError};

/// How hard and how long to push.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// Live matches, one device each.
    pub matches: u32,
    /// HTTP/2 connections the devices share (the ping uses the first).
    pub connections: u32,
    /// How long to press, after every device is connected.
    pub duration: Duration,
    /// How often each device syncs its clock.
    pub sync_every: Duration,
    /// The tournament to create.
    pub tournament: String,
    /// Where to say how the run is going (set-up, then once a second presses so far),
    /// for a person watching: `baffle-device load` prints each line.
    pub progress: Option<tokio::sync::mpsc::UnboundedSender<String>>,
    /// Leave the tournament in the listings at the end (by default it is archived).
    pub keep: bool,
}

impl Default for LoadConfig {
    fn default() -> Self {
        LoadConfig {
            matches: 50,
            connections: 1,
            duration: Duration::from_secs(10),
            sync_every: Duration::from_secs(1),
            tournament: fresh_tournament_id(),
            progress: None,
            keep: false,
        }
    }
}

/// What a load run measured. Histograms are in microseconds.
#[derive(Debug)]
pub struct LoadReport {
    /// The run's settings.
    pub matches: u32,
    /// Connections used.
    pub connections: u32,
    /// How long the presses ran.
    pub elapsed: Duration,
    /// Presses acknowledged as applied.
    pub presses: u64,
    /// All inputs acknowledged as applied (presses and rolls).
    pub inputs: u64,
    /// Press round trips, µs.
    pub press: Histogram<u64>,
    /// Bare health pings on the first connection, µs.
    pub ping: Histogram<u64>,
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 600_000_000, 3).expect("valid histogram bounds")
}

impl LoadReport {
    /// Presses per second.
    pub fn presses_per_sec(&self) -> f64 {
        self.presses as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The report as a table.
    pub fn render(&self) -> String {
        let ms = |us: u64| format!("{:>9.3}", us as f64 / 1_000.0);
        let row = |name: &str, h: &Histogram<u64>| {
            format!(
                "{name:<12}{}{}{}{}  ({} samples)\n",
                ms(h.value_at_quantile(0.5)),
                ms(h.value_at_quantile(0.9)),
                ms(h.value_at_quantile(0.99)),
                ms(h.max()),
                h.len()
            )
        };
        let ratio = |q: f64| {
            self.press.value_at_quantile(q) as f64 / self.ping.value_at_quantile(q).max(1) as f64
        };
        format!(
            "{} matches, {} device(s), {} connection(s), {:.1} s\n\
             presses: {} applied, {:.0}/s; inputs: {} applied, {:.0}/s\n\
             round trip (ms)   p50      p90      p99      max\n{}{}\
             press / ping: p50 {:.2}x, p99 {:.2}x\n",
            self.matches,
            self.matches,
            self.connections,
            self.elapsed.as_secs_f64(),
            self.presses,
            self.presses_per_sec(),
            self.inputs,
            self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9),
            row("press", &self.press),
            row("bare ping", &self.ping),
            ratio(0.5),
            ratio(0.99),
        )
    }
}

/// What one device did.
struct Tally {
    presses: u64,
    inputs: u64,
    press: Histogram<u64>,
}

/// Sets up the matches, connects the devices, and presses until `cfg.duration` is over.
pub async fn run(server: &str, token: &str, cfg: LoadConfig) -> Result<LoadReport, DeviceError> {
    // `host:port` or a list as typed: the first server that answers takes the run.
    let (first, servers) = crate::servers::first_answering(server).await?;
    let endpoint = Endpoint::from_shared(servers[0].clone())?;
    let mut channels = vec![first];
    for _ in 1..cfg.connections.max(1) {
        channels.push(endpoint.connect().await?);
    }
    let mut tables = Tables::create(
        channels[0].clone(),
        token,
        &cfg.tournament,
        // Long enough that nobody's flag falls during a run.
        v1::TournamentDefaults {
            per_point_ms: 60 * 60_000,
            delay_ms: Some(12_000),
            ..Default::default()
        },
    )
    .await?;
    let say = |line: String| {
        if let Some(tx) = &cfg.progress {
            let _ = tx.send(line);
        }
    };
    say(format!(
        "load: setting up {} matches in tournament {}, one device each",
        cfg.matches, cfg.tournament
    ));
    let mut devices = Vec::new();
    for i in 0..cfg.matches {
        // One pair per match: a round has one match per pair of players.
        let players = (format!("A{i}"), format!("B{i}"));
        let (id, credential) = tables.add(25, (&players.0, &players.1)).await?;
        let device = Device::connect(DeviceConfig {
            clock: DeviceClock::from_system(-1_000_000 * i64::from(i + 1), 50),
            sync_every: cfg.sync_every,
            seed: u64::from(i),
            ..DeviceConfig::new(
                channels[i as usize % channels.len()].clone(),
                &format!("{id}-clock"),
                &credential,
            )
        })
        .await?;
        devices.push(device);
    }
    let start = Instant::now();
    let deadline = start + cfg.duration;
    let ping = tokio::spawn(ping_until(channels[0].clone(), deadline));
    let pressed = Arc::new(AtomicU64::new(0));
    say(format!(
        "load: {} devices connected; pressing for {:?}",
        cfg.matches, cfg.duration
    ));
    let mut pressing = Vec::new();
    for device in devices {
        pressing.push(tokio::spawn(press_until(device, deadline, pressed.clone())));
    }
    if let Some(tx) = cfg.progress.clone() {
        tokio::spawn(report_progress(tx, pressed, start, deadline));
    }
    let mut report = LoadReport {
        matches: cfg.matches,
        connections: channels.len() as u32,
        elapsed: Duration::ZERO,
        presses: 0,
        inputs: 0,
        press: histogram(),
        ping: histogram(),
    };
    let pressed = async {
        for p in pressing {
            let t = p.await??;
            report.presses += t.presses;
            report.inputs += t.inputs;
            report.press.add(&t.press)?;
        }
        report.elapsed = start.elapsed();
        report.ping = ping.await??;
        Ok::<(), DeviceError>(())
    }
    .await;
    if !cfg.keep {
        // Its matches never end: archived by force, even after a failed run.
        let archived = tables.archive().await;
        say(format!(
            "load: tournament {} archived (baffle tournament list --all shows it)",
            cfg.tournament
        ));
        if pressed.is_ok() {
            archived?;
        }
    }
    pressed.map(|()| report)
}

/// Health checks, one after another, until `deadline`.
async fn ping_until(channel: Channel, deadline: Instant) -> Result<Histogram<u64>, DeviceError> {
    let mut health = HealthClient::new(channel);
    let mut h = histogram();
    while Instant::now() < deadline {
        let t = Instant::now();
        health
            .check(HealthCheckRequest {
                service: String::new(),
            })
            .await?;
        h.record(t.elapsed().as_micros().max(1) as u64)?;
    }
    Ok(h)
}

/// Once a second until `deadline`: the presses so far and their rate.
async fn report_progress(
    tx: tokio::sync::mpsc::UnboundedSender<String>,
    pressed: Arc<AtomicU64>,
    start: Instant,
    deadline: Instant,
) {
    let total = deadline - start;
    let mut tick = tokio::time::interval_at(start + Duration::from_secs(1), Duration::from_secs(1));
    while Instant::now() < deadline {
        tick.tick().await;
        let elapsed = start.elapsed().min(total);
        let n = pressed.load(Ordering::Relaxed);
        let line = format!(
            "load: {:.0} s of {:.0} s, {n} presses ({:.0}/s)",
            elapsed.as_secs_f64(),
            total.as_secs_f64(),
            n as f64 / elapsed.as_secs_f64().max(1e-9)
        );
        if tx.send(line).is_err() {
            return;
        }
    }
}

/// One device: check both players in, roll the opening, then roll and press in turn.
async fn press_until(
    mut device: Device,
    deadline: Instant,
    pressed: Arc<AtomicU64>,
) -> Result<Tally, DeviceError> {
    let mut t = Tally {
        presses: 0,
        inputs: 0,
        press: histogram(),
    };
    let (a, b) = (v1::Side::A as i32, v1::Side::B as i32);
    // The opening roll's winner moves first; from then on the sides alternate.
    let mut side = device.begin_match().await?;
    let mut moving = true;
    while Instant::now() < deadline {
        let action = if moving {
            Action::Press(side)
        } else {
            Action::Roll(v1::Roll {
                side,
                dice: vec![],
                link: vec![],
            })
        };
        let acked = device
            .send(action)?
            .await
            .map_err(|_| "the device stopped")?;
        if !acked.ack.applied {
            // The server and this driver disagree on whose turn it is: stop the run.
            return Err(format!("refused: {}", acked.ack.error).into());
        }
        t.inputs += 1;
        if moving {
            t.press
                .record(acked.stamped_at.elapsed().as_micros().max(1) as u64)?;
            t.presses += 1;
            pressed.fetch_add(1, Ordering::Relaxed);
            side = if side == a { b } else { a };
        }
        moving = !moving;
    }
    device.close().await;
    Ok(t)
}
