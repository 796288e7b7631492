//! The terminal views: `baffle follow` and `baffle console` (ratatui).
//!
//! Each view is a pure function of the states it has received and the time — testable on
//! ratatui's `TestBackend` — and [`app`] runs it against the server and a real terminal,
//! reconnecting by itself.

pub mod app;
pub mod console;
pub mod fit;
pub mod follow;
pub mod lines;
