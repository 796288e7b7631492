//! The statuses of `views::status`: stable machine values (`--json` prints them; the
//! console and the CLI say them in words with `words::status`).

/// Nobody checked in.
pub const WAITING: &str = "waiting";
/// One player checked in.
pub const PRESENT: &str = "present";
/// Both players checked in, nothing started.
pub const READY: &str = "ready";
/// A game in progress.
pub const PLAYING: &str = "playing";
/// Between two games.
pub const BETWEEN: &str = "between games";
/// The result is in, not confirmed.
pub const OVER: &str = "over";
/// The director confirmed the result.
pub const CONFIRMED: &str = "confirmed";
/// Both players won at one instant: the director decides.
pub const UNDECIDED: &str = "undecided";
/// The clock is stopped (the console's status column only).
pub const PAUSED: &str = "paused";
/// The director put the match off before its first game (2.2).
pub const POSTPONED: &str = "postponed";
