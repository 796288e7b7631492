//! # baffle-client: the director's console
//!
//! The library behind the `baffle` command: connecting to a server and presenting what it
//! says to people.
//!
//! - [`connect`]: finding and dialling the server.
//! - [`presets`]: the time-control presets as a table.
//! - [`dice`]: offline dice tools (keys, streams for statistical suites).
//! - [`audit`]: offline verification of exported match logs.
//! - [`witness`]: keeping the heads a server signs, and checking proofs of two histories.
//! - [`chess`]: chess match settings and actions on the command line.
//! - [`cli`]: the command line; [`run`] executes it; [`render`] prints tables or JSON.
//! - [`reveal`]: the players' seeds a match waits for, and its dice checked once revealed.
//! - [`duration`]: durations as directors write them (12s, 2m, -30s).
//! - [`views`]: what `--json` prints, one serde type per resource.
//! - [`words`]: every word said to a person, with stable ids (for the shared catalogue).
//! - [`feed`]: a match's or a tournament's updates as one stream that reconnects by itself.
//! - [`tui`]: the live views, `baffle follow` and `baffle console` (ratatui).

pub mod audit;
pub mod chess;
pub mod cli;
pub mod connect;
pub mod dice;
pub mod duration;
pub mod examples;
pub mod feed;
pub mod presets;
pub mod render;
pub mod reveal;
pub mod run;
pub mod tui;
pub mod views;
pub mod witness;
pub mod words;

pub mod exit;
