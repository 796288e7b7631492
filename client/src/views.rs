//! What `--json` prints: one serde view type per resource (a tournament, a match, an
//! event, a device), so every command that shows a resource shows it the same way. Enum
//! values are written one way everywhere: lower-case snake names without their proto
//! prefix (`"lose_match"`, `"director_called"`, `"on_roll"`); sides are `"A"`/`"B"` or
//! `"-"`. Nothing here is Rust debug text.

use baffle_proto::v1;
use serde::Serialize;
use serde_json::{Value, json};

use crate::words;
use baffle_proto::backgammon_text::side;
use baffle_proto::chess_text;

pub mod draw;

/// A proto enum's name as JSON writes it: `PAUSE_REASON_DIRECTOR_CALLED` → `director_called`.
pub fn enum_name(full: &str, prefix: &str) -> String {
    full.trim_start_matches(prefix).to_lowercase()
}

/// A tournament and its defaults.
#[derive(Debug, Serialize)]
pub struct TournamentView {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Match time per point, ms.
    pub per_point_ms: i64,
    /// Simple delay per turn, ms.
    pub delay_ms: Option<i64>,
    /// `required`, `allowed` or `off`.
    pub clocks: String,
    /// `server` or `physical`.
    pub dice: String,
    /// `optional` or `required`.
    pub player_seeds: String,
    /// Breaks count in match time.
    pub breaks_in_match_time: bool,
    /// `lose_match`, `overtime` (with `overtime_ms`) or `penalty_points` (with `points`).
    pub timeout: TimeoutView,
    /// Archived: left out of the default listings (`tournament archive`).
    pub archived: bool,
    /// Where it is played ("" when not given).
    pub venue: String,
    /// Its first day, `YYYY-MM-DD` ("" when not given).
    pub first_day: String,
    /// Its last day, `YYYY-MM-DD` ("" when not given).
    pub last_day: String,
}

/// A tournament's time-out policy.
#[derive(Debug, Serialize)]
pub struct TimeoutView {
    /// `lose_match`, `overtime`, `penalty_points` or `unspecified`.
    pub policy: String,
    /// USBGF overtime, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overtime_ms: Option<i64>,
    /// Penalty points per time-out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
}

impl TournamentView {
    /// The view of `t`.
    pub fn of(t: &v1::Tournament) -> TournamentView {
        use v1::timeout_policy::Policy;
        let d = t.defaults.unwrap_or_default();
        let timeout = match d.timeout.and_then(|t| t.policy) {
            Some(Policy::LoseMatch(_)) => ("lose_match", None, None),
            Some(Policy::UsbgfOvertimeMs(ms)) => ("overtime", Some(ms), None),
            Some(Policy::PenaltyPoints(k)) => ("penalty_points", None, Some(k)),
            None => ("unspecified", None, None),
        };
        TournamentView {
            id: t.id.clone(),
            name: t.name.clone(),
            per_point_ms: d.per_point_ms,
            delay_ms: d.delay_ms,
            clocks: v1::ClockPolicy::try_from(d.clocks)
                .map_or("-".into(), |c| enum_name(c.as_str_name(), "CLOCK_POLICY_")),
            dice: v1::DiceSource::try_from(d.dice)
                .map_or("-".into(), |c| enum_name(c.as_str_name(), "DICE_SOURCE_")),
            player_seeds: v1::PlayerSeedPolicy::try_from(d.player_seeds).map_or("-".into(), |c| {
                enum_name(c.as_str_name(), "PLAYER_SEED_POLICY_")
            }),
            breaks_in_match_time: d.breaks_in_match_time,
            archived: t.archived,
            venue: t.venue.clone(),
            first_day: t.first_day.clone(),
            last_day: t.last_day.clone(),
            timeout: TimeoutView {
                policy: timeout.0.into(),
                overtime_ms: timeout.1,
                points: timeout.2,
            },
        }
    }
}

/// Where a match stands (`MatchState.status`, the server's one derivation): waiting
/// (nobody checked in), present (one player), ready (both, nothing started), playing,
/// between games, undecided (both won at one instant), over (result to confirm),
/// confirmed, postponed (put off by the director before its first game).
pub fn status(s: &v1::MatchState) -> v1::MatchStatus {
    v1::MatchStatus::try_from(s.status).unwrap_or_default()
}

/// A match: everything `MatchState` says, in one spelling.
#[derive(Debug, Serialize)]
pub struct MatchView {
    /// The match id, unique across tournaments.
    pub match_id: String,
    /// The tournament the match belongs to.
    pub tournament_id: String,
    /// The round, from 1.
    pub round: u32,
    /// The table it is played at.
    pub table: String,
    /// `backgammon` or `chess`.
    pub game_type: &'static str,
    /// The players' names, A then B.
    pub players: [String; 2],
    /// The match length in force (it may have been corrected, 4.8).
    pub length: u32,
    /// The score, A then B.
    pub score: [u32; 2],
    /// `waiting`, `playing`, `between_games`, `over`.
    pub phase: String,
    /// See [`status`].
    pub status: String,
    /// The game in progress, from 1; 0 between games.
    pub game: u32,
    /// Whether the game in play is the Crawford game.
    pub crawford: bool,
    /// Whether the Crawford game has been played.
    pub post_crawford: bool,
    /// The cube.
    pub cube: CubeView,
    /// `opening`, `on_roll`, `moving`, `double_offered`, `unspecified`.
    pub turn: String,
    /// Whose turn it is (or who doubled): `A`, `B` or `-`.
    pub turn_side: &'static str,
    /// The dice being played, when moving.
    pub dice: Vec<u32>,
    /// Both clocks; none in a match played without one.
    pub clock: Option<ClockView>,
    /// The result, once the match is over.
    pub result: Option<ResultView>,
    /// Records in the match's log: the next one gets this number.
    pub seq: u64,
    /// The hash of the log's newest record (hex).
    pub head_hash: String,
    /// SHA-256 of the server seed (hex), published before the first roll.
    pub commitment: String,
    /// Where the dice come from.
    pub dice_source: String,
    /// Whether each player is at the table, A then B.
    pub present: Vec<bool>,
    /// Lateness and penalty points each player received, A then B.
    pub penalty_points: Vec<u32>,
    /// Breaks each player may still take, A then B.
    pub breaks_left: Vec<u32>,
    /// When something is next due (a flag, a lateness point, a break's end), ms since the epoch.
    pub next_due_ms: Option<i64>,
    /// When the match is scheduled to start (ms since the epoch): lateness counts from
    /// here (2.2).
    pub scheduled_start_ms: i64,
    /// Both players won at the same instant (2.2): the director decides the match.
    pub awaiting_decision: bool,
    /// Statistical anomalies raised on physically rolled dice so far.
    pub dice_anomalies: u32,
    /// The latest anomaly, in words.
    pub last_anomaly: String,
    /// While a player's committed seed is awaited: when the reveals are due (ms on the
    /// server's clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reveal_due_ms: Option<i64>,
    /// Whether the server's seed is revealed (every draw can be recomputed).
    pub dice_revealed: bool,
    /// The devices bound to the match.
    pub devices: Vec<DeviceView>,
    /// How many appeals to the committee the match has (5).
    pub appeals: usize,
    /// A chess match's own state, as the server sends it; none in backgammon.
    pub chess: Option<Value>,
    /// The backgammon board, when moves are recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<Value>,
    /// The match that replaced this one by a ruling, and the director's words; null
    /// for a match not replaced (`MatchState.replaced`).
    pub replaced: Option<ReplacedView>,
}

/// A match replaced by a ruling: its log is kept, it takes no command and records
/// nothing more.
#[derive(Debug, Serialize)]
pub struct ReplacedView {
    /// The match that took its place.
    pub by: String,
    /// The director's words.
    pub ruling: String,
}

/// The cube.
#[derive(Debug, Serialize)]
pub struct CubeView {
    /// Its value: 1, 2, 4, …
    pub value: u32,
    /// Who owns it: `A`, `B`, or `-` while centred.
    pub owner: &'static str,
}

/// Both clocks.
#[derive(Debug, Serialize)]
pub struct ClockView {
    /// The instant the clocks are read at, ms since the epoch.
    pub as_of_ms: i64,
    /// Whose clock runs: `A`, `B`, or `-` while stopped.
    pub running: &'static str,
    /// A pause reason (`director_called`, …) or `none`.
    pub paused: String,
    /// Side A's clock.
    pub a: Option<SideClockView>,
    /// Side B's clock.
    pub b: Option<SideClockView>,
    /// When the running side's flag falls if nothing happens first.
    pub next_flag_at_ms: Option<i64>,
    /// A flag fell and the clocks froze.
    pub frozen: bool,
}

/// One side's clock.
#[derive(Debug, Serialize)]
pub struct SideClockView {
    /// Time left in the current stage (main time, or the overtime period); in count-up, the time used.
    pub main_ms: i64,
    /// Delay left on this turn if on turn, else the delay the next turn starts with.
    pub delay_ms: i64,
    /// All time left before the flag falls, delay aside.
    pub total_ms: i64,
    /// Moves completed in the game.
    pub moves: u32,
    /// The period in force, 0 for the first.
    pub period: u32,
    /// When this flag fell, if it did.
    pub flagged_at_ms: Option<i64>,
    /// The side must wait out the delay before ending its turn (4.1 (v)(b), 4.2 (iii)(c)).
    pub must_wait_delay: bool,
}

/// The match's result.
#[derive(Debug, Serialize)]
pub struct ResultView {
    /// Who won: `A`, `B`, or `-` for none.
    pub winner: &'static str,
    /// How the match ended (`points`, `timeout`, `forfeit`, …).
    pub how: String,
    /// Whether the director confirmed it (4.6).
    pub confirmed: bool,
}

/// A device bound to a match, and whether it is connected now.
#[derive(Debug, Serialize)]
pub struct DeviceView {
    /// The device's id.
    pub device_id: String,
    /// The match it is bound to: in a list of devices; none within a match's own view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_id: Option<String>,
    /// Whether it is connected now.
    pub connected: bool,
}

/// A match that is offline: its log did not check out on the server's start.
#[derive(Debug, Serialize)]
pub struct OfflineView {
    /// The match id.
    pub match_id: String,
    /// Its tournament.
    pub tournament_id: String,
    /// Its round.
    pub round: u32,
    /// Its table.
    pub table: String,
    /// Always "offline", as `MatchView.status` names a match's status.
    pub status: &'static str,
    /// Why its log did not check out.
    pub reason: String,
}

impl OfflineView {
    /// The view of `m`.
    pub fn of(m: &v1::OfflineMatch) -> OfflineView {
        OfflineView {
            match_id: m.match_id.clone(),
            tournament_id: m.tournament_id.clone(),
            round: m.round,
            table: m.table.clone(),
            status: "offline",
            reason: m.reason.clone(),
        }
    }
}

fn side_clock(c: &v1::SideClock) -> SideClockView {
    SideClockView {
        main_ms: c.main_ms,
        delay_ms: c.delay_ms,
        total_ms: c.total_ms,
        moves: c.moves,
        period: c.period,
        flagged_at_ms: c.flagged_at_ms,
        must_wait_delay: c.must_wait_delay,
    }
}

impl MatchView {
    /// The view of `s`.
    pub fn of(s: &v1::MatchState) -> MatchView {
        MatchView {
            match_id: s.match_id.clone(),
            tournament_id: s.tournament_id.clone(),
            round: s.round,
            table: s.table.clone(),
            game_type: if s.chess.is_some() {
                "chess"
            } else {
                "backgammon"
            },
            players: [s.player_a.clone(), s.player_b.clone()],
            length: s.length,
            score: [s.score_a, s.score_b],
            phase: v1::MatchPhase::try_from(s.phase)
                .map_or("-".into(), |p| enum_name(p.as_str_name(), "MATCH_PHASE_")),
            status: enum_name(status(s).as_str_name(), "MATCH_STATUS_"),
            game: s.game_number,
            crawford: s.crawford,
            post_crawford: s.post_crawford,
            cube: CubeView {
                value: s.cube_value,
                owner: side(s.cube_owner),
            },
            turn: v1::TurnPhase::try_from(s.turn)
                .map_or("-".into(), |t| enum_name(t.as_str_name(), "TURN_PHASE_")),
            turn_side: side(s.turn_side),
            dice: s.dice.clone(),
            clock: s.clock.as_ref().map(|c| ClockView {
                as_of_ms: c.as_of_ms,
                running: side(c.running),
                paused: v1::PauseReason::try_from(c.paused)
                    .ok()
                    .filter(|p| *p != v1::PauseReason::Unspecified)
                    .map_or("none".into(), |p| {
                        enum_name(p.as_str_name(), "PAUSE_REASON_")
                    }),
                a: c.a.as_ref().map(side_clock),
                b: c.b.as_ref().map(side_clock),
                next_flag_at_ms: c.next_flag_at_ms,
                frozen: c.frozen,
            }),
            result: s.result.as_ref().map(|r| ResultView {
                winner: side(r.winner),
                how: v1::MatchEndKind::try_from(r.how_kind).map_or("-".into(), |k| {
                    enum_name(k.as_str_name(), "MATCH_END_KIND_")
                }),
                confirmed: r.confirmed,
            }),
            seq: s.seq,
            head_hash: s.head_hash.clone(),
            commitment: s.commitment.clone(),
            dice_source: s.dice_source.clone(),
            present: s.present.clone(),
            penalty_points: s.penalty_points.clone(),
            breaks_left: s.breaks_left.clone(),
            next_due_ms: s.next_due_ms,
            scheduled_start_ms: s.scheduled_start_ms,
            awaiting_decision: s.awaiting_decision,
            dice_anomalies: s.dice_anomalies,
            last_anomaly: s.last_anomaly.clone(),
            reveal_due_ms: Some(s.reveal_due_ms).filter(|ms| *ms > 0),
            dice_revealed: s.dice_revealed,
            devices: s
                .devices
                .iter()
                .map(|d| DeviceView {
                    device_id: d.device_id.clone(),
                    match_id: None,
                    connected: d.connected,
                })
                .collect(),
            appeals: s.appeals.len(),
            chess: s.chess.as_ref().map(chess_json),
            board: s.board.as_ref().map(board_json),
            replaced: s.replaced.as_ref().map(|r| ReplacedView {
                by: r.by.clone(),
                ruling: r.ruling.clone(),
            }),
        }
    }
}

/// One event of a match's log, its body parsed back into an object and said in words.
#[derive(Debug, Serialize)]
pub struct EventView {
    /// The record's number in the log.
    pub seq: u64,
    /// The record's hash (hex).
    pub hash: String,
    /// The event's kind (`game.rolled`, …).
    pub kind: String,
    /// The event in words, always in English (the terminal says it in the chosen language).
    pub text: String,
    /// The record's body, as the log holds it.
    pub event: Value,
}

impl EventView {
    /// The view of `e`, players named from `names`.
    pub fn of(e: &v1::Event, names: [&str; 2]) -> EventView {
        let body: Value = serde_json::from_str(&e.body).unwrap_or(Value::String(e.body.clone()));
        EventView {
            seq: e.seq,
            hash: e.hash.clone(),
            kind: e.kind.clone(),
            // Always English: `--json` is for scripts, whatever the director reads.
            text: words::in_locale(words::Language::En, || words::event(e, names)),
            event: body,
        }
    }
}

/// Pretty JSON of any view, with a newline.
pub fn to_json<T: Serialize>(view: &T) -> String {
    let mut text = serde_json::to_string_pretty(view).expect("views always serialize");
    text.push('\n');
    text
}

/// One line of JSON (NDJSON, for `follow --json`).
pub fn to_line<T: Serialize>(view: &T) -> String {
    let mut text = serde_json::to_string(view).expect("views always serialize");
    text.push('\n');
    text
}

/// A chess match as JSON.
pub fn chess_json(c: &v1::ChessState) -> Value {
    json!({
        "category": c.category,
        "laws": v1::ChessLaws::try_from(c.laws).map_or("-".into(), |l| enum_name(l.as_str_name(), "CHESS_LAWS_")),
        "supervised": c.supervised, "games": c.games, "white": side(c.white), "started": c.started,
        "to_move": chess_text::color(c.to_move), "present": c.present, "moves": c.moves,
        "illegal_moves": c.illegal_moves,
        "flags": c.flags.iter().map(|f| json!({ "color": chess_text::color(f.color), "at_ms": f.at_ms })).collect::<Vec<_>>(),
        "quickplay_claim": chess_text::color(c.quickplay_claim),
        "results": c.results.iter().map(|g| json!({
            "game": g.game, "white": side(g.white),
            "result": g.result.as_ref().map(chess_text::result),
        })).collect::<Vec<_>>(),
        "half_points": [c.half_points_a, c.half_points_b],
        "chess960": c.chess960,
        "position": c.position.as_ref().map(|p| json!({ "sp": p.sp, "back_rank": p.back_rank })),
    })
}

/// The board of a match that records moves, as JSON.
pub fn board_json(b: &v1::Board) -> Value {
    json!({
        "checkers": [b.checkers_a, b.checkers_b], "pips": b.pips, "borne_off": b.borne_off,
        "gnubg_position_id": b.gnubg_position_id, "moved": b.moved,
    })
}
