//! A draw in words and tables for the director (`draw show`, `player list`,
//! `standings`) and as CSV for the federation (`standings --csv`, `--csv-table`).

use baffle_proto::v1;

use super::parse::date;
use crate::render::columns;
use crate::views::draw::{halves, quarters, rating};
use crate::words::{say, say_with, time_of_day};

/// A flight in words.
pub fn flight(f: i32) -> String {
    match v1::Flight::try_from(f) {
        Ok(v1::Flight::Consolation) => say("cli-flight-consolation"),
        Ok(v1::Flight::LastChance) => say("cli-flight-last-chance"),
        _ => say("cli-flight-main"),
    }
}

/// The plan in words: "knockout with a consolation, matches to 7".
pub fn plan(p: &v1::DrawPlan) -> String {
    let format = match v1::DrawFormat::try_from(p.format) {
        Ok(v1::DrawFormat::RoundRobin) => say_with(
            "cli-format-round-robin",
            &[("cycles", p.cycles.max(1).into())],
        ),
        Ok(v1::DrawFormat::Swiss) => say_with("cli-format-swiss", &[("rounds", p.rounds.into())]),
        _ => match v1::Flights::try_from(p.flights) {
            Ok(v1::Flights::Consolation) => say("cli-format-knockout-consolation"),
            Ok(v1::Flights::LastChance) => say("cli-format-knockout-last-chance"),
            _ => say("cli-format-knockout"),
        },
    };
    let length = if p.chess.is_some() {
        say("cli-format-chess")
    } else {
        say_with("cli-format-length", &[("length", p.length.into())])
    };
    format!("{format}, {length}")
}

/// An entrant's status in words.
pub fn entrant_status(s: i32) -> String {
    match v1::EntrantStatus::try_from(s) {
        Ok(v1::EntrantStatus::Approved) => say("cli-entrant-approved"),
        Ok(v1::EntrantStatus::CheckedIn) => say("cli-entrant-checked-in"),
        Ok(v1::EntrantStatus::Out) => say("cli-entrant-out"),
        _ => say("cli-entrant-registered"),
    }
}

fn pairing_state(s: i32) -> String {
    match v1::PairingState::try_from(s) {
        Ok(v1::PairingState::WaitingForTable) => say("cli-pairing-waiting-for-table"),
        Ok(v1::PairingState::Postponed) => say("cli-pairing-postponed"),
        Ok(v1::PairingState::Playing) => say("cli-pairing-playing"),
        Ok(v1::PairingState::Decided) => say("cli-pairing-decided"),
        _ => say("cli-pairing-waiting-for-round"),
    }
}

/// A player's name by number ("#5" if the draw does not know him).
pub fn name_of(d: &v1::DrawView, number: u32) -> String {
    d.entrants
        .iter()
        .find(|e| e.number == number)
        .and_then(|e| e.details.as_ref())
        .map_or_else(|| format!("#{number}"), |x| x.name.clone())
}

fn federation_id_of(d: &v1::DrawView, number: u32) -> String {
    d.entrants
        .iter()
        .find(|e| e.number == number)
        .and_then(|e| e.details.as_ref())
        .map(|x| x.federation_id.clone())
        .unwrap_or_default()
}

fn result(d: &v1::DrawView, p: &v1::Pairing) -> String {
    if p.state != v1::PairingState::Decided as i32 {
        return String::new();
    }
    let args = [
        ("name", name_of(d, p.winner).into()),
        ("a", p.score_a.into()),
        ("b", p.score_b.into()),
    ];
    let mut text = if p.winner == 0 {
        say_with("cli-draw-result-drawn", &args)
    } else {
        say_with("cli-draw-result-won", &args)
    };
    if p.unplayed {
        text = format!("{text} ({})", say("cli-draw-result-unplayed"));
    }
    text
}

/// `baffle draw show`: the plan, the commitment and seed, then each round's matches.
pub fn draw_text(d: &v1::DrawView) -> String {
    let mut out = draw_head(d);
    for r in &d.rounds {
        out += &round_text(d, r);
    }
    out.push('\n');
    out += &say_with(
        "cli-log",
        &[
            ("count", d.log_length.into()),
            ("head", d.head.clone().into()),
        ],
    );
    out.push('\n');
    out
}

/// The draw's head: its name and plan, the commitment, the seed once drawn, the seeded
/// players, and a hint while it has no matches.
fn draw_head(d: &v1::DrawView) -> String {
    let plan_text = d.plan.as_ref().map(plan).unwrap_or_default();
    let mut out = say_with(
        "cli-draw-head",
        &[
            ("name", d.name.clone().into()),
            ("id", d.tournament_id.clone().into()),
            ("plan", plan_text.into()),
            ("tables", d.tables.join(" ").into()),
        ],
    ) + "\n";
    out += &say_with(
        "cli-draw-commitment",
        &[("hex", d.commitment.clone().into())],
    );
    out.push('\n');
    out += &if d.seed.is_empty() {
        say("cli-draw-seed-sealed")
    } else {
        say_with(
            "cli-draw-seed",
            &[
                ("hex", d.seed.clone().into()),
                ("at", time_of_day(d.drawn_at_ms).into()),
            ],
        )
    };
    out.push('\n');
    if !d.seeds.is_empty() {
        let seeds: Vec<String> = d
            .seeds
            .iter()
            .map(|n| format!("{} (#{n})", name_of(d, *n)))
            .collect();
        out += &say_with("cli-draw-seeds", &[("list", seeds.join(", ").into())]);
        out.push('\n');
    }
    if d.pairings.is_empty() && d.byes.is_empty() {
        out += &say_with(
            "cli-draw-no-matches",
            &[("id", d.tournament_id.clone().into())],
        );
        out.push('\n');
    }
    out
}

/// One round of a flight: its start, its matches as a table and its byes; nothing for
/// a round with neither.
fn round_text(d: &v1::DrawView, r: &v1::Round) -> String {
    let header = [
        say("cli-col-key"),
        say("cli-col-table"),
        say("cli-col-player-a"),
        say("cli-col-player-b"),
        say("cli-col-start"),
        say("cli-col-state"),
        say("cli-col-result"),
    ];
    let in_round = |flight: i32, round: u32| {
        let f = if flight == 0 { 1 } else { flight };
        let rf = if r.flight == 0 { 1 } else { r.flight };
        f == rf && round == r.round
    };
    let rows: Vec<[String; 7]> = d
        .pairings
        .iter()
        .filter(|p| in_round(p.flight, p.round))
        .map(|p| {
            [
                p.key.clone(),
                p.table.clone(),
                format!("{} (#{})", p.name_a, p.player_a),
                format!("{} (#{})", p.name_b, p.player_b),
                if p.start_ms == 0 {
                    String::new()
                } else {
                    time_of_day(p.start_ms)
                },
                pairing_state(p.state),
                result(d, p),
            ]
        })
        .collect();
    let byes: Vec<&v1::Bye> = d
        .byes
        .iter()
        .filter(|b| v1_key_round(&b.key).is_some_and(|(f, round)| in_round(f, round)))
        .collect();
    if rows.is_empty() && byes.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n");
    let args = [
        ("flight", flight(r.flight).into()),
        ("round", r.round.into()),
        ("at", time_of_day(r.start_ms).into()),
    ];
    out += &if r.started {
        say_with("cli-draw-round-started", &args)
    } else {
        say_with("cli-draw-round-waiting", &args)
    };
    out.push('\n');
    if !rows.is_empty() {
        for line in columns(&header, &rows).lines() {
            out += &format!("  {line}\n");
        }
    }
    for b in byes {
        out += &format!(
            "  {}\n",
            say_with(
                "cli-draw-bye",
                &[
                    ("key", b.key.clone().into()),
                    ("name", name_of(d, b.entrant).into()),
                    ("number", b.entrant.into()),
                ],
            )
        );
    }
    out
}

/// A key's flight (as the wire numbers it) and round: "C2-1" → (2, 2).
fn v1_key_round(key: &str) -> Option<(i32, u32)> {
    let k = baffle_core::tournament::MatchKey::parse(key)?;
    let f = match k.flight {
        baffle_core::tournament::Flight::Main => v1::Flight::Main,
        baffle_core::tournament::Flight::Consolation => v1::Flight::Consolation,
        baffle_core::tournament::Flight::LastChance => v1::Flight::LastChance,
    };
    Some((f as i32, k.round))
}

/// `baffle player list`: number, name, club, rating, status.
pub fn players_table(d: &v1::DrawView) -> String {
    if d.entrants.is_empty() {
        return say_with(
            "cli-players-none",
            &[("id", d.tournament_id.clone().into())],
        ) + "\n";
    }
    let header = [
        say("cli-col-number"),
        say("cli-col-name"),
        say("cli-col-club"),
        say("cli-col-rating"),
        say("cli-col-status"),
    ];
    let rows: Vec<[String; 5]> = d
        .entrants
        .iter()
        .map(|e| {
            let details = e.details.clone().unwrap_or_default();
            [
                e.number.to_string(),
                details.name,
                details.club,
                rating(e.rating_hundredths).map_or(String::new(), |r| format!("{r:.2}")),
                entrant_status(e.status),
            ]
        })
        .collect();
    columns(&header, &rows)
}

/// `baffle player list`: the server's list of players, with each one's rating now and
/// how many rated results it holds.
pub fn listed_players_table(list: &v1::ListPlayersResponse) -> String {
    if list.players.is_empty() {
        return say("cli-players-list-empty") + "\n";
    }
    let header = [
        say("cli-col-id"),
        say("cli-col-name"),
        say("cli-col-club"),
        say("cli-col-rating"),
        say("cli-col-rated-results"),
    ];
    let rows: Vec<[String; 5]> = list
        .players
        .iter()
        .map(|p| {
            let details = p.details.clone().unwrap_or_default();
            [
                p.id.clone(),
                details.name,
                details.club,
                rating(details.rating_hundredths).map_or(String::new(), |r| format!("{r:.2}")),
                p.history.len().to_string(),
            ]
        })
        .collect();
    columns(&header, &rows)
}

fn is_knockout(d: &v1::DrawView) -> bool {
    d.plan
        .as_ref()
        .is_none_or(|p| p.format == v1::DrawFormat::Knockout as i32)
}

/// Sonneborn–Berger comes in quarter points (half a drawn opponent's half points).
fn quarter_text(q: u32) -> String {
    let p = quarters(q);
    match q % 4 {
        0 => format!("{p:.0}"),
        2 => format!("{p:.1}"),
        _ => format!("{p:.2}"),
    }
}

fn half_text(h: u32) -> String {
    let p = halves(h);
    if h.is_multiple_of(2) {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// `baffle standings`: a round robin's or Swiss's table, or a knockout's placings.
pub fn standings_text(d: &v1::DrawView) -> String {
    if is_knockout(d) {
        if d.placings.is_empty() {
            return say_with(
                "cli-standings-none",
                &[("id", d.tournament_id.clone().into())],
            ) + "\n";
        }
        let header = [
            say("cli-col-flight"),
            say("cli-col-place"),
            say("cli-col-name"),
            say("cli-col-won"),
            say("cli-col-lost"),
        ];
        let rows: Vec<[String; 5]> = d
            .placings
            .iter()
            .map(|p| {
                [
                    flight(p.flight),
                    if p.place == 0 {
                        say("cli-standings-still-in")
                    } else {
                        p.place.to_string()
                    },
                    format!("{} (#{})", p.name, p.entrant),
                    p.wins.to_string(),
                    p.losses.to_string(),
                ]
            })
            .collect();
        return columns(&header, &rows);
    }
    if d.standings.is_empty() {
        return say_with(
            "cli-standings-none",
            &[("id", d.tournament_id.clone().into())],
        ) + "\n";
    }
    let header = [
        say("cli-col-place"),
        say("cli-col-name"),
        say("cli-col-played"),
        say("cli-col-won"),
        say("cli-col-lost"),
        say("cli-col-points"),
        say("cli-col-buchholz"),
        say("cli-col-sb"),
        say("cli-col-for"),
        say("cli-col-against"),
    ];
    let rows: Vec<[String; 10]> = d
        .standings
        .iter()
        .map(|s| {
            [
                s.place.to_string(),
                format!("{} (#{})", s.name, s.entrant),
                s.played.to_string(),
                s.wins.to_string(),
                s.losses.to_string(),
                half_text(s.score_halves),
                half_text(s.buchholz_halves),
                quarter_text(s.sonneborn_berger_quarters),
                s.points_for.to_string(),
                s.points_against.to_string(),
            ]
        })
        .collect();
    columns(&header, &rows)
}

fn csv_text(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(header);
    for r in rows {
        let _ = w.write_record(r.iter().map(|cell| inert(cell)));
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// A cell a spreadsheet will not run: text starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return (a player named `=HYPERLINK(…)`) is given a leading `'`, as OWASP's
/// advice on CSV injection has it. Numbers are left alone.
fn inert(cell: &str) -> String {
    let risky = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && cell.parse::<f64>().is_err() {
        format!("'{cell}")
    } else {
        cell.to_string()
    }
}

/// `baffle standings --csv`: every decided match for the federation (5.5), one row each,
/// in the draw's order. The header is the same in every language.
pub fn results_csv(d: &v1::DrawView) -> String {
    let length = d.plan.as_ref().map_or(0, |p| p.length);
    let rows: Vec<Vec<String>> = d
        .pairings
        .iter()
        .filter(|p| p.state == v1::PairingState::Decided as i32)
        .map(|p| {
            vec![
                d.tournament_id.clone(),
                p.key.clone(),
                if p.start_ms == 0 {
                    String::new()
                } else {
                    date(p.start_ms)
                },
                p.name_a.clone(),
                federation_id_of(d, p.player_a),
                p.name_b.clone(),
                federation_id_of(d, p.player_b),
                if p.winner == 0 {
                    String::new()
                } else {
                    name_of(d, p.winner)
                },
                p.score_a.to_string(),
                p.score_b.to_string(),
                length.to_string(),
                if p.unplayed { "no" } else { "yes" }.to_string(),
            ]
        })
        .collect();
    csv_text(
        &[
            "tournament",
            "key",
            "date",
            "player_a",
            "federation_id_a",
            "player_b",
            "federation_id_b",
            "winner",
            "score_a",
            "score_b",
            "length",
            "played",
        ],
        &rows,
    )
}

/// `baffle standings --csv-table`: the standings as CSV (header in English).
pub fn standings_csv(d: &v1::DrawView) -> String {
    if is_knockout(d) {
        let rows: Vec<Vec<String>> = d
            .placings
            .iter()
            .map(|p| {
                vec![
                    crate::views::draw::flight(p.flight),
                    p.place.to_string(),
                    p.entrant.to_string(),
                    p.name.clone(),
                    federation_id_of(d, p.entrant),
                    p.wins.to_string(),
                    p.losses.to_string(),
                ]
            })
            .collect();
        return csv_text(
            &[
                "flight",
                "place",
                "number",
                "name",
                "federation_id",
                "wins",
                "losses",
            ],
            &rows,
        );
    }
    let rows: Vec<Vec<String>> = d
        .standings
        .iter()
        .map(|s| {
            vec![
                s.place.to_string(),
                s.entrant.to_string(),
                s.name.clone(),
                federation_id_of(d, s.entrant),
                s.played.to_string(),
                s.wins.to_string(),
                s.losses.to_string(),
                s.byes.to_string(),
                halves(s.score_halves).to_string(),
                halves(s.buchholz_halves).to_string(),
                quarters(s.sonneborn_berger_quarters).to_string(),
                s.points_for.to_string(),
                s.points_against.to_string(),
            ]
        })
        .collect();
    csv_text(
        &[
            "place",
            "number",
            "name",
            "federation_id",
            "played",
            "wins",
            "losses",
            "byes",
            "score",
            "buchholz",
            "sonneborn_berger",
            "points_for",
            "points_against",
        ],
        &rows,
    )
}

/// A list of players by number, in words: "Anna (#1), Ben (#2)".
pub fn named(d: &v1::DrawView, numbers: &[u32]) -> String {
    numbers
        .iter()
        .map(|n| format!("{} (#{n})", name_of(d, *n)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod csv_tests {
    #[test]
    fn a_cell_a_spreadsheet_would_run_is_made_inert() {
        assert_eq!(super::inert("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(super::inert("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(super::inert("-12.5"), "-12.5");
        assert_eq!(super::inert("Anna"), "Anna");
    }
}
