//! # baffle-firmware-sim: simulated clock devices
//!
//! The library behind `baffle-device`.
//!
//! - [`clock`]: a device's own drifting monotonic clock.
//! - [`link`]: a simulated network link — latency, jitter, loss, drops, and faults.
//! - [`device`]: one simulated device speaking the device protocol
//!   (docs/device-protocol.md): hello, time sync all the time, sequenced inputs stamped
//!   with its own clock, acks, reconnect and replay.
//! - [`error`]: `DeviceError`, why a device stopped.
//! - [`display`]: the device's face: its two clocks, ticking between updates.
//! - [`demo`]: tables that play whole matches by themselves.
//! - [`load`]: many devices pressing as fast as allowed, timed against a bare ping.
//! - [`ping`]: a health check of the server.
//! - [`cli`]: the command line.

pub mod cli;
pub mod clock;
pub mod demo;
pub mod device;
pub mod display;
pub mod error;
pub mod link;
pub mod load;
pub mod ping;
pub mod servers;
