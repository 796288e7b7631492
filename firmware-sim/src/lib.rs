//! # baffle-firmware-sim: simulated clock devices
//!
//! The library behind `baffle-device`.
//!
//! - [`device`]: one simulated device speaking the device protocol
//!   (docs/device-protocol.md): hello, time sync, sequenced inputs stamped with its own
//!   drifting clock, acks, reconnect and replay.
//! - [`demo`]: tables that play whole matches by themselves.
//! - [`ping`]: a health check of the server.
//! - [`cli`]: the command line.

pub mod cli;
pub mod demo;
pub mod device;
pub mod ping;
