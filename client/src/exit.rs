//! Exit codes of `baffle`, so scripts can tell failures apart.

/// Success.
pub const OK: i32 = 0;
/// The command line was wrong (clap's own code).
pub const USAGE: i32 = 2;
/// The server could not be reached.
pub const CONNECTION: i32 = 3;
/// The server refused the request.
pub const REFUSED: i32 = 4;
/// A verification found a problem (`baffle audit verify`).
pub const INVALID: i32 = 1;
