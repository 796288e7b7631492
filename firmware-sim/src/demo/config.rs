//! What a demo is told: its [`DemoConfig`] (tables, time control, think times, the
//! players' seed, the tournament, the devices' link) and the server it reaches when none
//! is named. `demo` (`mod.rs`) and the chess tables (`chess.rs`) read it from here.

use std::time::{SystemTime, UNIX_EPOCH};

use baffle_i18n::Locale;

use crate::link::LinkModel;

/// The server `baffle` and `baffle-device` reach when none is named.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";

/// How the demo plays.
#[derive(Clone, Debug)]
pub struct DemoConfig {
    /// Tables, one match each.
    pub tables: u32,
    /// Match length in points.
    pub length: u32,
    /// Match time per point, ms.
    pub per_point_ms: i64,
    /// Simple delay, ms.
    pub delay_ms: i64,
    /// Think time per move, ms: uniformly between these.
    pub think_ms: (u64, u64),
    /// Seed for the players' choices (not the dice: those are the server's).
    pub seed: u64,
    /// The tournament to create; its matches are `<tournament>-t1`, `-t2`, …
    pub tournament: String,
    /// The tournament exists already (`--tournament ID`): the demo's tables sit in it,
    /// their matches `demo-<digits>-t1`, `-t2`, … at tables `demo-1`, `demo-2`, …, and
    /// it is never archived (it is the director's).
    pub existing: bool,
    /// The devices' link to the server.
    pub link: LinkModel,
    /// The fastest device clock's drift, ppm (table i drifts i/tables of it, alternating
    /// fast and slow).
    pub drift_ppm: i64,
    /// Redraw the devices' faces in the terminal while playing.
    pub display: bool,
    /// The language the faces speak (`--lang`, else the POSIX locale: `baffle_i18n::choose`).
    pub locale: Locale,
    /// Play chess matches instead: `length` games each, on a control of
    /// `per_point_ms` × `length` plus a second per move.
    pub chess: bool,
    /// The nodes of a cluster the devices go round (`crate::servers`); empty: one server.
    pub servers: Vec<String>,
    /// The server as the director gave it (`--server`), for the line that says how to
    /// watch.
    pub url: String,
    /// Leave the tournament in the listings at the end (by default it is archived:
    /// a demo is not a tournament anyone wants listed forever).
    pub keep: bool,
}

/// A fresh tournament id for a demo: `demo-<digits of the time>`.
pub fn fresh_tournament_id() -> String {
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
        % 1_000_000_000;
    format!("demo-{stamp}")
}

impl Default for DemoConfig {
    fn default() -> Self {
        DemoConfig {
            tables: 2,
            length: 3,
            per_point_ms: 20_000,
            delay_ms: 3_000,
            think_ms: (300, 2_500),
            seed: 7,
            tournament: fresh_tournament_id(),
            existing: false,
            link: LinkModel::perfect(),
            drift_ppm: 100,
            display: false,
            locale: Locale::En,
            chess: false,
            servers: Vec::new(),
            url: DEFAULT_SERVER.into(),
            keep: false,
        }
    }
}
