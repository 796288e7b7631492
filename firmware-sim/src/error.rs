//! Why a simulated device (or a tool built on devices) stopped: one error type for the
//! crate, at the bottom of it, so every module can name it without importing another's.

/// Why the device stopped.
pub type DeviceError = Box<dyn std::error::Error + Send + Sync>;
