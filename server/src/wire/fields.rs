//! The small fields every game's commands carry, checked as they come off the wire: a
//! side, a live dice link, a win kind, two reported dice. Each malformed one is
//! INVALID_ARGUMENT naming the field; whether a value is allowed *now* is the rules' to
//! say.

use baffle_core::Side;
use baffle_core::backgammon::WinKind;
use baffle_proto::convert::side_from_wire;
use baffle_proto::v1;
use tonic::Status;

/// A side from the wire, or INVALID_ARGUMENT naming `field`.
pub(crate) fn side(value: i32, field: &str) -> Result<Side, Status> {
    side_from_wire(value).map_err(|e| Status::invalid_argument(format!("{field}: {e}")))
}

/// A live dice link from the wire (`docs/dice.md`, "Live dice"): 32 bytes, or
/// INVALID_ARGUMENT naming `field`.
pub(crate) fn link(bytes: Vec<u8>, field: &str) -> Result<baffle_core::dice::Link, Status> {
    bytes
        .try_into()
        .map_err(|_| Status::invalid_argument(format!("{field}: a live dice link is 32 bytes")))
}

pub(super) fn kind(value: i32, field: &str) -> Result<WinKind, Status> {
    match v1::WinKind::try_from(value) {
        Ok(v1::WinKind::Single) => Ok(WinKind::Single),
        Ok(v1::WinKind::Gammon) => Ok(WinKind::Gammon),
        Ok(v1::WinKind::Backgammon) => Ok(WinKind::Backgammon),
        _ => Err(Status::invalid_argument(format!(
            "{field}: kind must be single, gammon or backgammon"
        ))),
    }
}

/// Two reported dice as the rules take them; whether they are 1 to 6 is the rules' to
/// say (4.1 (i)).
pub(super) fn two_dice(dice: &[u32], field: &str) -> Result<[u8; 2], Status> {
    let die = |d: u32| u8::try_from(d).unwrap_or(u8::MAX);
    match dice {
        [a, b] => Ok([die(*a), die(*b)]),
        _ => Err(Status::invalid_argument(format!(
            "{field}: two dice, not {}",
            dice.len()
        ))),
    }
}
