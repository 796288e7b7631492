//! What `--json` prints for a tournament's draw (`baffle draw show`, `player list`,
//! `standings`): the server's `DrawView` with its enums spelled as every view spells them
//! (`"checked_in"`, `"waiting_for_table"`, `"consolation"`), a rating as a decimal
//! number of points, and every time in ms since the Unix epoch.

use baffle_proto::v1;
use serde::Serialize;

use super::enum_name;

/// A rating in hundredths as points: 152347 → 1523.47.
pub fn rating(hundredths: Option<i64>) -> Option<f64> {
    // Ratings are far below 2^53 hundredths: exact as f64.
    #[allow(clippy::cast_precision_loss)]
    hundredths.map(|h| h as f64 / 100.0)
}

/// A flight's name: `main`, `consolation`, `last_chance`.
pub fn flight(f: i32) -> String {
    match v1::Flight::try_from(f) {
        Ok(v1::Flight::Unspecified) | Err(_) => "main".into(),
        Ok(f) => enum_name(f.as_str_name(), "FLIGHT_"),
    }
}

/// An entrant's status: `registered`, `approved`, `checked_in`, `out`.
pub fn entrant_status(s: i32) -> String {
    v1::EntrantStatus::try_from(s).map_or("-".into(), |s| {
        enum_name(s.as_str_name(), "ENTRANT_STATUS_")
    })
}

/// A pairing's state: `waiting_for_round`, `waiting_for_table`, `postponed`, `playing`,
/// `decided`.
pub fn pairing_state(s: i32) -> String {
    v1::PairingState::try_from(s)
        .map_or("-".into(), |s| enum_name(s.as_str_name(), "PAIRING_STATE_"))
}

/// A player of the server's list, which lasts across tournaments.
#[derive(Debug, Serialize)]
pub struct ListedPlayerView {
    /// His id on the list.
    pub id: String,
    /// His name.
    pub name: String,
    /// His federation id ("" if none).
    pub federation_id: String,
    /// His club ("" if none).
    pub club: String,
    /// His rating now, in points.
    pub rating: Option<f64>,
    /// His experience now.
    pub experience: u32,
    /// Each rated result: tournament, match key, his rating after it.
    pub history: Vec<(String, String, f64)>,
}

impl ListedPlayerView {
    /// The view of `p`.
    pub fn of(p: &v1::ListedPlayer) -> ListedPlayerView {
        let d = p.details.clone().unwrap_or_default();
        ListedPlayerView {
            id: p.id.clone(),
            name: d.name,
            federation_id: d.federation_id,
            club: d.club,
            rating: rating(d.rating_hundredths),
            experience: d.experience,
            history: p
                .history
                .iter()
                .map(|h| {
                    let r = rating(Some(h.rating_hundredths)).unwrap_or_default();
                    (h.tournament_id.clone(), h.key.clone(), r)
                })
                .collect(),
        }
    }
}

/// A player of the tournament.
#[derive(Debug, Serialize)]
pub struct EntrantView {
    /// His number.
    pub number: u32,
    /// His name.
    pub name: String,
    /// His federation id ("" if none).
    pub federation_id: String,
    /// His club ("" if none).
    pub club: String,
    /// The rating he entered with, in points.
    pub entry_rating: Option<f64>,
    /// His rating now.
    pub rating: Option<f64>,
    /// His experience now.
    pub experience: u32,
    /// `registered`, `approved`, `checked_in` or `out`.
    pub status: String,
}

impl EntrantView {
    /// The view of `e`.
    pub fn of(e: &v1::Entrant) -> EntrantView {
        let d = e.details.clone().unwrap_or_default();
        EntrantView {
            number: e.number,
            name: d.name,
            federation_id: d.federation_id,
            club: d.club,
            entry_rating: rating(d.rating_hundredths),
            rating: rating(e.rating_hundredths),
            experience: e.experience,
            status: entrant_status(e.status),
        }
    }
}

/// A match of the draw.
#[derive(Debug, Serialize)]
pub struct PairingView {
    /// Its place: `M1-3`.
    pub key: String,
    /// Its flight.
    pub flight: String,
    /// Its round.
    pub round: u32,
    /// Player A's number and name.
    pub player_a: u32,
    /// Player A's name.
    pub name_a: String,
    /// Player B's number.
    pub player_b: u32,
    /// Player B's name.
    pub name_b: String,
    /// Where it stands.
    pub state: String,
    /// Its match ("" before it has one).
    pub match_id: String,
    /// Its table ("" before).
    pub table: String,
    /// Its scheduled start (0 before).
    pub start_ms: i64,
    /// The winner's number (0: none yet, or a drawn chess game).
    pub winner: u32,
    /// Player A's points at the end.
    pub score_a: u32,
    /// Player B's points.
    pub score_b: u32,
    /// Decided without play.
    pub unplayed: bool,
    /// The director's words, for a ruling.
    pub ruling: String,
    /// Earlier logs of this match, replaced by rulings.
    pub replaced: Vec<String>,
}

impl PairingView {
    /// The view of `p`.
    pub fn of(p: &v1::Pairing) -> PairingView {
        PairingView {
            key: p.key.clone(),
            flight: flight(p.flight),
            round: p.round,
            player_a: p.player_a,
            name_a: p.name_a.clone(),
            player_b: p.player_b,
            name_b: p.name_b.clone(),
            state: pairing_state(p.state),
            match_id: p.match_id.clone(),
            table: p.table.clone(),
            start_ms: p.start_ms,
            winner: p.winner,
            score_a: p.score_a,
            score_b: p.score_b,
            unplayed: p.unplayed,
            ruling: p.ruling.clone(),
            replaced: p.replaced.clone(),
        }
    }
}

/// A round of a flight.
#[derive(Debug, Serialize)]
pub struct RoundView {
    /// The flight.
    pub flight: String,
    /// The round.
    pub round: u32,
    /// Started.
    pub started: bool,
    /// Its scheduled start (0 before).
    pub start_ms: i64,
}

/// A row of a round robin's or Swiss's table; scores in points (a half is 0.5).
#[derive(Debug, Serialize)]
pub struct StandingView {
    /// Place (shared on a full tie).
    pub place: u32,
    /// The player's number.
    pub number: u32,
    /// His name.
    pub name: String,
    /// Played, won, lost, byes.
    pub played: u32,
    /// Won.
    pub wins: u32,
    /// Lost.
    pub losses: u32,
    /// Byes.
    pub byes: u32,
    /// Score.
    pub score: f64,
    /// Buchholz.
    pub buchholz: f64,
    /// Sonneborn–Berger.
    pub sonneborn_berger: f64,
    /// Points won.
    pub points_for: u32,
    /// Points conceded.
    pub points_against: u32,
}

/// Where a player finished in a knockout's flight.
#[derive(Debug, Serialize)]
pub struct PlacingView {
    /// The flight.
    pub flight: String,
    /// The player's number.
    pub number: u32,
    /// His name.
    pub name: String,
    /// Shared place; 0 while he is still in.
    pub place: u32,
    /// Won.
    pub wins: u32,
    /// Lost.
    pub losses: u32,
}

/// Half points as points.
pub fn halves(h: u32) -> f64 {
    f64::from(h) / 2.0
}

/// Quarter points as points (Sonneborn–Berger with drawn games).
pub fn quarters(q: u32) -> f64 {
    f64::from(q) / 4.0
}

/// `baffle pairing … --json`: the draw as every command prints it, and beside it the
/// pairing ruled on as the ruling left it — after `replace`, its new `match_id` and the
/// logs it `replaced`.
#[derive(Debug, Serialize)]
pub struct RuledJson {
    /// The draw.
    #[serde(flatten)]
    pub draw: DrawJson,
    /// The pairing ruled on (absent if the draw no longer lists its key).
    pub ruled: Option<PairingView>,
}

/// A tournament's draw.
#[derive(Debug, Serialize)]
pub struct DrawJson {
    /// The tournament.
    pub tournament: String,
    /// Its name.
    pub name: String,
    /// `knockout`, `round_robin` or `swiss`.
    pub format: String,
    /// A knockout's flights.
    pub flights: String,
    /// A round robin's cycles.
    pub cycles: u32,
    /// A Swiss's rounds.
    pub rounds_planned: u32,
    /// The match length.
    pub length: u32,
    /// The tables.
    pub tables: Vec<String>,
    /// SHA-256 of the draw seed, hex.
    pub commitment: String,
    /// The draw seed, hex ("" until the draw is made).
    pub seed: String,
    /// When the draw was made (0 before).
    pub drawn_at_ms: i64,
    /// The seeded players, seed 1 first.
    pub seeds: Vec<u32>,
    /// The order drawn.
    pub order: Vec<u32>,
    /// Every player.
    pub players: Vec<EntrantView>,
    /// Every match with both players known.
    pub pairings: Vec<PairingView>,
    /// Every bye: `{ "key": "M1-2", "number": 5 }`.
    pub byes: Vec<serde_json::Value>,
    /// Every round.
    pub rounds: Vec<RoundView>,
    /// A round robin's or Swiss's table.
    pub standings: Vec<StandingView>,
    /// A knockout's placings.
    pub placings: Vec<PlacingView>,
    /// Records in the log.
    pub log_length: u64,
    /// The log's head.
    pub head: String,
}

impl DrawJson {
    /// The view of `d`.
    pub fn of(d: &v1::DrawView) -> DrawJson {
        let plan = d.plan.clone().unwrap_or_default();
        let flights = match v1::Flights::try_from(plan.flights) {
            Ok(v1::Flights::Unspecified) | Err(_) => "main".into(),
            Ok(f) => enum_name(f.as_str_name(), "FLIGHTS_"),
        };
        DrawJson {
            tournament: d.tournament_id.clone(),
            name: d.name.clone(),
            format: v1::DrawFormat::try_from(plan.format)
                .map_or("-".into(), |f| enum_name(f.as_str_name(), "DRAW_FORMAT_")),
            flights,
            cycles: plan.cycles,
            rounds_planned: plan.rounds,
            length: plan.length,
            tables: d.tables.clone(),
            commitment: d.commitment.clone(),
            seed: d.seed.clone(),
            drawn_at_ms: d.drawn_at_ms,
            seeds: d.seeds.clone(),
            order: d.order.clone(),
            players: d.entrants.iter().map(EntrantView::of).collect(),
            pairings: d.pairings.iter().map(PairingView::of).collect(),
            byes: d
                .byes
                .iter()
                .map(|b| serde_json::json!({ "key": b.key, "number": b.entrant }))
                .collect(),
            rounds: d
                .rounds
                .iter()
                .map(|r| RoundView {
                    flight: flight(r.flight),
                    round: r.round,
                    started: r.started,
                    start_ms: r.start_ms,
                })
                .collect(),
            standings: d.standings.iter().map(standing).collect(),
            placings: d.placings.iter().map(placing).collect(),
            log_length: d.log_length,
            head: d.head.clone(),
        }
    }
}

/// A table's row as JSON writes it.
pub fn standing(s: &v1::StandingRow) -> StandingView {
    StandingView {
        place: s.place,
        number: s.entrant,
        name: s.name.clone(),
        played: s.played,
        wins: s.wins,
        losses: s.losses,
        byes: s.byes,
        score: halves(s.score_halves),
        buchholz: halves(s.buchholz_halves),
        sonneborn_berger: quarters(s.sonneborn_berger_quarters),
        points_for: s.points_for,
        points_against: s.points_against,
    }
}

/// A placing as JSON writes it.
pub fn placing(p: &v1::Placing) -> PlacingView {
    PlacingView {
        flight: flight(p.flight),
        number: p.entrant,
        name: p.name.clone(),
        place: p.place,
        wins: p.wins,
        losses: p.losses,
    }
}
