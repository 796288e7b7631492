//! # baffle-firmware-sim: simulated clock devices
//!
//! The library behind `baffle-device`. Today it checks that a server answers; the device
//! protocol (hello, time sync, presses, replay after disconnects), the demo and the load
//! generator arrive with the device-protocol issue.
//!
//! - [`cli`]: the command line.
//! - [`ping`]: a health check of the server, as a device does before it says hello.

pub mod cli;
pub mod ping;
