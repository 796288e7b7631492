//! The command line's words as the wire's values: sides, game kinds, pause reasons,
//! durations and dice. Shared by every command that builds a request; a word with no
//! value on the wire is a usage error (exit 2).

use baffle_proto::v1;

use super::outcome::{Outcome, usage};
use crate::cli::{KindArg, SideArg};
use crate::duration;

pub(super) fn side(s: SideArg) -> i32 {
    match s {
        SideArg::A => v1::Side::A as i32,
        SideArg::B => v1::Side::B as i32,
    }
}

pub(super) fn kind(k: KindArg) -> i32 {
    match k {
        KindArg::Single => v1::WinKind::Single as i32,
        KindArg::Gammon => v1::WinKind::Gammon as i32,
        KindArg::Backgammon => v1::WinKind::Backgammon as i32,
    }
}

pub(super) fn pause(name: &str) -> Result<i32, Outcome> {
    // `director_stopped` and `director-stopped` alike: the wire's spelling and the rules'.
    let reason = baffle_core::clock::PauseReason::from_name(&name.replace('_', "-"))
        .ok_or_else(|| usage(format!("{name:?} is not a pause reason")))?;
    Ok(baffle_proto::convert::pause_reason_to_wire(reason) as i32)
}

pub(super) fn dice_arg(text: &Option<String>) -> Result<Vec<u32>, Outcome> {
    let Some(text) = text else { return Ok(vec![]) };
    text.split(',')
        .map(|d| {
            d.trim()
                .parse::<u32>()
                .map_err(|_| usage(format!("--dice takes two numbers like 3,4, not {text:?}")))
        })
        .collect()
}

pub(super) fn ms(text: &str) -> Result<i64, Outcome> {
    duration::parse(text).map(|m| m.as_ms()).map_err(usage)
}
