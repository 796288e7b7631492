//! A tournament between the wire and the rules: its defaults decoded (and checked by the
//! rules) and its wire form.

use baffle_core::Millis;
use baffle_core::backgammon::{ClockPolicy, DiceSource, TimeoutPolicy, TournamentDefaults};
use baffle_core::clock::{BACKGAMMON_DELAY, BACKGAMMON_PER_POINT};
use baffle_core::dice::SeedPolicy;
use baffle_proto::v1;
use tonic::Status;

/// A tournament's defaults from the wire: unset fields take the federation's defaults;
/// the values are the rules' to check ([`TournamentDefaults::validate`]).
pub fn defaults_from_wire(d: v1::TournamentDefaults) -> Result<TournamentDefaults, Status> {
    let per_point = if d.per_point_ms == 0 {
        BACKGAMMON_PER_POINT
    } else {
        Millis(d.per_point_ms)
    };
    let delay = d.delay_ms.map_or(BACKGAMMON_DELAY, Millis);
    use v1::timeout_policy::Policy;
    let timeout = match d.timeout.and_then(|t| t.policy) {
        None | Some(Policy::LoseMatch(_)) => TimeoutPolicy::LoseMatch,
        Some(Policy::UsbgfOvertimeMs(ms)) => TimeoutPolicy::UsbgfOvertime {
            overtime: Millis(ms),
        },
        Some(Policy::PenaltyPoints(points)) => TimeoutPolicy::PenaltyPoints { points },
    };
    let clocks = match v1::ClockPolicy::try_from(d.clocks) {
        Ok(v1::ClockPolicy::Unspecified | v1::ClockPolicy::Required) => ClockPolicy::Required,
        Ok(v1::ClockPolicy::Allowed) => ClockPolicy::Allowed,
        Ok(v1::ClockPolicy::Off) => ClockPolicy::Off,
        Err(_) => {
            return Err(Status::invalid_argument(format!(
                "defaults.clocks: unknown value {}",
                d.clocks
            )));
        }
    };
    let dice = match v1::DiceSource::try_from(d.dice) {
        Ok(v1::DiceSource::Unspecified | v1::DiceSource::Server) => DiceSource::Server,
        Ok(v1::DiceSource::Physical) => DiceSource::Physical,
        Err(_) => {
            return Err(Status::invalid_argument(format!(
                "defaults.dice: unknown value {}",
                d.dice
            )));
        }
    };
    let player_seeds = match v1::PlayerSeedPolicy::try_from(d.player_seeds) {
        Ok(v1::PlayerSeedPolicy::Unspecified | v1::PlayerSeedPolicy::Optional) => {
            SeedPolicy::Optional
        }
        Ok(v1::PlayerSeedPolicy::Required) => SeedPolicy::Required,
        Ok(v1::PlayerSeedPolicy::Live) => SeedPolicy::Live,
        Err(_) => {
            return Err(Status::invalid_argument(format!(
                "defaults.player_seeds: unknown value {}",
                d.player_seeds
            )));
        }
    };
    let defaults = TournamentDefaults {
        player_seeds,
        per_point,
        delay,
        timeout,
        clocks,
        dice,
        breaks_in_match_time: d.breaks_in_match_time,
        reveal_window: d
            .reveal_window_seconds
            .map(|s| baffle_core::Millis::secs(i64::from(s))),
    };
    defaults.validate().map_err(|e| {
        let mut status = super::rule_error(e);
        if status.code() == tonic::Code::InvalidArgument {
            status = Status::invalid_argument(format!("defaults: {}", status.message()));
        }
        status
    })?;
    Ok(defaults)
}

/// A tournament as the wire shows it.
pub fn tournament_to_wire(id: &str, t: &crate::registry::Tournament) -> v1::Tournament {
    let d = &t.defaults;
    use v1::timeout_policy::Policy;
    let policy = match d.timeout {
        TimeoutPolicy::LoseMatch => Policy::LoseMatch(v1::LoseMatch {}),
        TimeoutPolicy::UsbgfOvertime { overtime } => Policy::UsbgfOvertimeMs(overtime.as_ms()),
        TimeoutPolicy::PenaltyPoints { points } => Policy::PenaltyPoints(points),
    };
    let clocks = match d.clocks {
        ClockPolicy::Required => v1::ClockPolicy::Required,
        ClockPolicy::Allowed => v1::ClockPolicy::Allowed,
        ClockPolicy::Off => v1::ClockPolicy::Off,
    };
    v1::Tournament {
        id: id.to_string(),
        name: t.name.clone(),
        venue: t.venue_dates.venue.clone(),
        first_day: t.venue_dates.first_day.clone(),
        last_day: t.venue_dates.last_day.clone(),
        archived: t.archived,
        defaults: Some(v1::TournamentDefaults {
            per_point_ms: d.per_point.as_ms(),
            delay_ms: Some(d.delay.as_ms()),
            timeout: Some(v1::TimeoutPolicy {
                policy: Some(policy),
            }),
            clocks: clocks as i32,
            dice: match d.dice {
                DiceSource::Server => v1::DiceSource::Server,
                DiceSource::Physical => v1::DiceSource::Physical,
            } as i32,
            breaks_in_match_time: d.breaks_in_match_time,
            player_seeds: match d.player_seeds {
                SeedPolicy::Optional => v1::PlayerSeedPolicy::Optional,
                SeedPolicy::Required => v1::PlayerSeedPolicy::Required,
                SeedPolicy::Live => v1::PlayerSeedPolicy::Live,
            } as i32,
            reveal_window_seconds: d
                .reveal_window
                .map(|w| u32::try_from(w.as_ms() / 1000).unwrap_or(u32::MAX)),
        }),
    }
}
