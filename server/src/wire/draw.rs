//! A tournament's draw between the wire and the core: requests decoded into
//! [`Command`]s (INVALID_ARGUMENT naming the field), and the draw as it stands encoded
//! as a `DrawView`.

use baffle_core::tournament::knockout::Flights;
use baffle_core::tournament::pairings::Pairing;
use baffle_core::tournament::rating::Rating;
use baffle_core::tournament::standings::Row;
use baffle_core::tournament::{
    Details, EntrantId, Flight, Format, MatchKey, Plan, Ruling, Status as EntrantStatus, Tournament,
};
use baffle_core::{GameType, Timestamp};
use baffle_proto::v1;
use tonic::Status;

/// A plan from the wire; the core checks its numbers ([`Plan::validate`]).
pub fn plan_from_wire(p: &v1::DrawPlan) -> Result<Plan, Status> {
    let format = match v1::DrawFormat::try_from(p.format) {
        Ok(v1::DrawFormat::Knockout) => Format::Knockout {
            flights: match v1::Flights::try_from(p.flights) {
                Ok(v1::Flights::Unspecified | v1::Flights::Main) => Flights::Main,
                Ok(v1::Flights::Consolation) => Flights::Consolation,
                Ok(v1::Flights::LastChance) => Flights::LastChance,
                Err(_) => {
                    return Err(Status::invalid_argument(format!(
                        "plan.flights: unknown value {}",
                        p.flights
                    )));
                }
            },
        },
        Ok(v1::DrawFormat::RoundRobin) => Format::RoundRobin {
            cycles: p.cycles.max(1),
        },
        Ok(v1::DrawFormat::Swiss) => Format::Swiss { rounds: p.rounds },
        Ok(v1::DrawFormat::Unspecified) | Err(_) => {
            return Err(Status::invalid_argument(
                "plan.format: knockout, round robin or Swiss",
            ));
        }
    };
    let game = if p.chess.is_some() {
        GameType::Chess
    } else {
        GameType::Backgammon
    };
    let length = if game == GameType::Chess { 1 } else { p.length };
    Ok(Plan {
        format,
        game,
        length,
    })
}

/// A registration from the wire.
pub fn details_from_wire(d: v1::EntrantDetails) -> Details {
    Details {
        name: d.name,
        federation_id: d.federation_id,
        club: d.club,
        rating: d.rating_hundredths.map(Rating),
        experience: d.experience,
        player: d.player_id,
    }
}

/// A registration's details on the wire.
pub fn details_to_wire(d: &Details) -> v1::EntrantDetails {
    v1::EntrantDetails {
        name: d.name.clone(),
        federation_id: d.federation_id.clone(),
        club: d.club.clone(),
        rating_hundredths: d.rating.map(|r| r.0),
        experience: d.experience,
        player_id: d.player.clone(),
    }
}

/// A flight from the wire (unset: the main).
pub fn flight_from_wire(f: i32) -> Result<Flight, Status> {
    match v1::Flight::try_from(f) {
        Ok(v1::Flight::Unspecified | v1::Flight::Main) => Ok(Flight::Main),
        Ok(v1::Flight::Consolation) => Ok(Flight::Consolation),
        Ok(v1::Flight::LastChance) => Ok(Flight::LastChance),
        Err(_) => Err(Status::invalid_argument(format!(
            "flight: unknown value {f}"
        ))),
    }
}

fn flight_to_wire(f: Flight) -> i32 {
    match f {
        Flight::Main => v1::Flight::Main,
        Flight::Consolation => v1::Flight::Consolation,
        Flight::LastChance => v1::Flight::LastChance,
    }
    .into()
}

/// A ruling from the wire: the key, the ruling and the words.
pub fn ruling_from_wire(r: &v1::RuleOnPairingRequest) -> Result<(MatchKey, Ruling), Status> {
    use v1::rule_on_pairing_request::Ruling as W;
    let key = MatchKey::parse(&r.key).ok_or_else(|| {
        Status::invalid_argument(format!(
            "key: a match's place as flight letter, round and index (M1-3, C2-1), not {:?}",
            r.key
        ))
    })?;
    let ruling = match &r.ruling {
        Some(W::ForfeitTo(e)) => Ruling::Forfeit {
            winner: EntrantId(*e),
        },
        Some(W::Correct(c)) => Ruling::Correct {
            winner: (c.winner != 0).then_some(EntrantId(c.winner)),
            score: [c.score_a, c.score_b],
        },
        Some(W::Postpone(_)) => Ruling::Postpone,
        Some(W::RescheduleMs(ms)) => Ruling::Reschedule {
            start: Timestamp(*ms),
        },
        Some(W::Replace(_)) => Ruling::Replace,
        None => {
            return Err(Status::invalid_argument(
                "ruling: forfeit_to, correct, postpone, reschedule_ms or replace",
            ));
        }
    };
    Ok((key, ruling))
}

fn plan_to_wire(p: &Plan) -> v1::DrawPlan {
    let mut w = v1::DrawPlan {
        length: p.length,
        ..Default::default()
    };
    match p.format {
        Format::Knockout { flights } => {
            w.format = v1::DrawFormat::Knockout.into();
            w.flights = match flights {
                Flights::Main => v1::Flights::Main,
                Flights::Consolation => v1::Flights::Consolation,
                Flights::LastChance => v1::Flights::LastChance,
            }
            .into();
        }
        Format::RoundRobin { cycles } => {
            w.format = v1::DrawFormat::RoundRobin.into();
            w.cycles = cycles;
        }
        Format::Swiss { rounds } => {
            w.format = v1::DrawFormat::Swiss.into();
            w.rounds = rounds;
        }
    }
    w
}

fn status_to_wire(s: EntrantStatus) -> i32 {
    match s {
        EntrantStatus::Registered => v1::EntrantStatus::Registered,
        EntrantStatus::Approved => v1::EntrantStatus::Approved,
        EntrantStatus::CheckedIn => v1::EntrantStatus::CheckedIn,
        EntrantStatus::Out => v1::EntrantStatus::Out,
    }
    .into()
}

/// The draw as it stands.
pub fn draw_view(t: &Tournament, chess: Option<v1::ChessMatchSettings>) -> v1::DrawView {
    let draw = t.current_draw();
    let entrants = t
        .entrants
        .iter()
        .map(|(id, e)| v1::Entrant {
            number: id.0,
            details: Some(details_to_wire(&e.details)),
            status: status_to_wire(e.status),
            rating_hundredths: e.rating.map(|r| r.0),
            experience: e.experience,
        })
        .collect();
    let pairings = draw
        .pairings
        .iter()
        .map(|p| pairing_to_wire(t, p))
        .collect();
    let standings = if matches!(t.plan.format, Format::Knockout { .. }) {
        Vec::new()
    } else {
        let rows = t.table().unwrap_or_default();
        rows.iter().map(|r| standing_to_wire(t, r)).collect()
    };
    let placings = t
        .placings()
        .into_iter()
        .map(|p| v1::Placing {
            flight: flight_to_wire(p.flight),
            entrant: p.entrant.0,
            name: t.name_of(p.entrant),
            place: p.place.unwrap_or(0),
            wins: p.wins,
            losses: p.losses,
        })
        .collect();
    let mut plan = plan_to_wire(&t.plan);
    plan.chess = chess;
    v1::DrawView {
        tournament_id: t.id.clone(),
        name: t.name.clone(),
        plan: Some(plan),
        tables: t.tables.clone(),
        commitment: hex::encode(t.commitment),
        seed: t
            .draw
            .as_ref()
            .map_or_else(String::new, |d| hex::encode(d.seed)),
        entrants,
        seeds: t
            .draw
            .as_ref()
            .map_or_else(Vec::new, |d| d.seeds.iter().map(|e| e.0).collect()),
        order: t
            .draw
            .as_ref()
            .map_or_else(Vec::new, |d| d.order.iter().map(|e| e.0).collect()),
        pairings,
        byes: draw
            .byes
            .iter()
            .map(|b| v1::Bye {
                key: b.key.to_string(),
                entrant: b.entrant.0,
            })
            .collect(),
        rounds: rounds_to_wire(t),
        standings,
        placings,
        log_length: t.length,
        head: t.head.to_string(),
        drawn_at_ms: t.draw.as_ref().map_or(0, |d| d.at.0),
    }
}

/// A pairing with where it stands: decided (its outcome), playing, postponed, or
/// waiting for its table or its round; and its match, once made.
fn pairing_to_wire(t: &Tournament, p: &Pairing) -> v1::Pairing {
    let mut w = v1::Pairing {
        key: p.key.to_string(),
        flight: flight_to_wire(p.key.flight),
        round: p.key.round,
        index: p.key.index,
        player_a: p.players[0].0,
        player_b: p.players[1].0,
        name_a: t.name_of(p.players[0]),
        name_b: t.name_of(p.players[1]),
        ..Default::default()
    };
    let state = if let Some(o) = t.results.get(&p.key) {
        w.winner = o.winner.map_or(0, |e| e.0);
        w.score_a = o.score[0];
        w.score_b = o.score[1];
        w.unplayed = !o.played;
        w.ruling = o.ruling.clone();
        v1::PairingState::Decided
    } else if t.matches.contains_key(&p.key) {
        v1::PairingState::Playing
    } else if let Some(words) = t.postponed.get(&p.key) {
        w.ruling = words.clone();
        v1::PairingState::Postponed
    } else if t.rounds.contains_key(&(p.key.flight, p.key.round)) {
        v1::PairingState::WaitingForTable
    } else {
        v1::PairingState::WaitingForRound
    };
    if let Some(a) = t.matches.get(&p.key) {
        w.match_id = a.match_id.clone();
        w.table = a.table.clone();
        w.start_ms = a.start.0;
        w.replaced = a.replaced.clone();
    }
    w.state = state.into();
    w
}

/// Each round of each flight, and whether (and when) it started.
fn rounds_to_wire(t: &Tournament) -> Vec<v1::Round> {
    let mut rounds = Vec::new();
    for flight in t.flights() {
        for round in 1..=t.round_count(flight) {
            let start = t.rounds.get(&(flight, round));
            rounds.push(v1::Round {
                flight: flight_to_wire(flight),
                round,
                started: start.is_some(),
                start_ms: start.map_or(0, |s| s.0),
            });
        }
    }
    rounds
}

/// A row of the standings (a knockout has none); tie-breaks past `u32` are capped.
fn standing_to_wire(t: &Tournament, r: &Row) -> v1::StandingRow {
    let capped = |n| u32::try_from(n).unwrap_or(u32::MAX);
    v1::StandingRow {
        place: r.place,
        entrant: r.entrant.0,
        name: t.name_of(r.entrant),
        played: r.played,
        wins: r.wins,
        losses: r.losses,
        byes: r.byes,
        score_halves: r.score,
        draws: r.draws,
        points_for: capped(r.points_for),
        points_against: capped(r.points_against),
        buchholz_halves: capped(r.buchholz),
        sonneborn_berger_quarters: capped(r.sonneborn_berger),
    }
}
