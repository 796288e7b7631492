//! `baffle-device demo`: tables that play whole matches by themselves, so a newcomer can
//! watch a room on the console. The director's token creates a tournament on a short time
//! control, one match per table and a simulated device bound to each; every device then
//! plays its match through the device protocol — opening rolls and rolls with the server's
//! dice, moves with human-like think times, an occasional double taken or passed, and a
//! declared result when a game has gone on long enough (the simulator knows no board).
//! At the end (or on Ctrl-C, in `baffle-device`) the tournament is archived, so demos do
//! not pile up in the listings; `keep` leaves it listed.
//!
//! What it is told is in `config.rs`; what every table does alike (pick, think, report)
//! in `table.rs`; the chess tables in `chess.rs`.

mod chess;
mod config;
mod table;

use std::time::Duration;

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use tonic::Request;
use tonic::transport::Channel;

use crate::clock::DeviceClock;
use crate::device::{Device, DeviceConfig, DeviceError};
use crate::display::show_until;

pub use config::{DEFAULT_SERVER, DemoConfig, fresh_tournament_id};
pub use table::TableResult;
use table::{finish, pick, think};

fn authed<T>(message: T, token: &str) -> Result<Request<T>, DeviceError> {
    let mut r = Request::new(message);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse()?);
    Ok(r)
}

/// A tournament being set up with the director's token: matches with a device each.
pub struct Tables {
    tournaments: TournamentsClient<Channel>,
    devices: DevicesClient<Channel>,
    token: String,
    tournament: String,
    count: u32,
    /// How the matches' ids and tables are named: `<prefix>-t<n>` at table `<table>n`.
    prefix: String,
    table: &'static str,
    /// The round its matches sit in: 1 in a tournament of its own; in an existing one, a
    /// round after every match there, since a round has one match per table and pair.
    round: u32,
}

impl Tables {
    /// Creates the tournament `id` with `defaults`.
    pub async fn create(
        channel: Channel,
        token: &str,
        id: &str,
        defaults: v1::TournamentDefaults,
    ) -> Result<Tables, DeviceError> {
        let mut tournaments = TournamentsClient::new(channel.clone());
        let t = v1::Tournament {
            id: id.into(),
            name: "baffle demo".into(),
            defaults: Some(defaults),
            ..Default::default()
        };
        tournaments
            .create_tournament(authed(
                v1::CreateTournamentRequest {
                    tournament: Some(t),
                },
                token,
            )?)
            .await?;
        Ok(Tables {
            tournaments,
            devices: DevicesClient::new(channel),
            token: token.into(),
            tournament: id.into(),
            count: 0,
            prefix: id.into(),
            table: "",
            round: 1,
        })
    }

    /// Sits new tables in the existing tournament `id` (refused if there is none): their
    /// matches are `<prefix>-t1`, `-t2`, … at tables `demo-1`, `demo-2`, …, apart from
    /// the tournament's own.
    pub async fn join(
        channel: Channel,
        token: &str,
        id: &str,
        prefix: &str,
    ) -> Result<Tables, DeviceError> {
        let mut tournaments = TournamentsClient::new(channel.clone());
        tournaments
            .get_tournament(v1::GetTournamentRequest { id: id.into() })
            .await?;
        let listed = tournaments
            .list_matches(v1::ListMatchesRequest {
                tournament_id: id.into(),
                ..Default::default()
            })
            .await?
            .into_inner();
        let round = listed.matches.iter().map(|m| m.round).max().unwrap_or(0) + 1;
        Ok(Tables {
            tournaments,
            devices: DevicesClient::new(channel),
            token: token.into(),
            tournament: id.into(),
            count: 0,
            prefix: prefix.into(),
            table: "demo-",
            round,
        })
    }

    /// Archives the tournament (`Tournaments.ArchiveTournament`, forced): out of the
    /// listings and the phone page's home list, its matches still verifiable.
    pub async fn archive(&self) -> Result<(), DeviceError> {
        archive_on(self.tournaments.clone(), &self.token, &self.tournament).await
    }

    /// Adds table n+1: match `<tournament>-t<n+1>` of `length` points between `players`,
    /// and a device `<match>-clock` bound to it. Returns the match id and the device's
    /// credential.
    pub async fn add(
        &mut self,
        length: u32,
        players: (&str, &str),
    ) -> Result<(String, String), DeviceError> {
        let request = v1::CreateMatchRequest {
            length,
            // The devices roll with the server's dice, whatever the tournament's own.
            dice: v1::DiceSource::Server as i32,
            ..self.next_table(players)
        };
        self.add_match(request).await
    }

    /// Adds a table playing a chess match set up as `chess`, with its device; the first
    /// game starts at `start_ms` (0: now).
    pub async fn add_chess(
        &mut self,
        chess: v1::ChessMatchSettings,
        start_ms: i64,
        players: (&str, &str),
    ) -> Result<(String, String), DeviceError> {
        let request = v1::CreateMatchRequest {
            chess: Some(chess),
            scheduled_start_ms: start_ms,
            ..self.next_table(players)
        };
        self.add_match(request).await
    }

    /// The request for the next table's match, before its game's settings.
    fn next_table(&mut self, (a, b): (&str, &str)) -> v1::CreateMatchRequest {
        self.count += 1;
        v1::CreateMatchRequest {
            tournament_id: self.tournament.clone(),
            match_id: format!("{}-t{}", self.prefix, self.count),
            round: self.round,
            table: format!("{}{}", self.table, self.count),
            player_a: a.into(),
            player_b: b.into(),
            ..Default::default()
        }
    }

    async fn add_match(
        &mut self,
        request: v1::CreateMatchRequest,
    ) -> Result<(String, String), DeviceError> {
        let match_id = request.match_id.clone();
        self.tournaments
            .create_match(authed(request, &self.token)?)
            .await?;
        let device_id = format!("{match_id}-clock");
        let credential = self
            .devices
            .register_device(authed(
                v1::RegisterDeviceRequest {
                    device_id: device_id.clone(),
                },
                &self.token,
            )?)
            .await?
            .into_inner()
            .credential;
        self.devices
            .bind_device(authed(
                v1::BindDeviceRequest {
                    device_id,
                    match_id: match_id.clone(),
                },
                &self.token,
            )?)
            .await?;
        Ok((match_id, credential))
    }
}

/// Sets up the tables on the server at `url` and plays every match to its end.
/// `url` may list the nodes of a cluster (`a,b,c`): the first that answers creates the
/// matches (and so writes them), and the devices go round all of them.
pub async fn run(url: &str, token: &str, cfg: DemoConfig) -> Result<Vec<TableResult>, DeviceError> {
    let (channel, servers) = crate::servers::first_answering(url).await?;
    let cfg = DemoConfig {
        servers: if servers.len() > 1 {
            servers
        } else {
            Vec::new()
        },
        url: url.to_string(),
        ..cfg
    };
    run_on(channel, token, cfg).await
}

/// [`run`] on an open channel.
pub async fn run_on(
    channel: Channel,
    token: &str,
    cfg: DemoConfig,
) -> Result<Vec<TableResult>, DeviceError> {
    let defaults = v1::TournamentDefaults {
        per_point_ms: cfg.per_point_ms,
        delay_ms: Some(cfg.delay_ms),
        ..Default::default()
    };
    let mut tables = if cfg.existing {
        Tables::join(
            channel.clone(),
            token,
            &cfg.tournament,
            &fresh_tournament_id(),
        )
        .await?
    } else {
        Tables::create(channel.clone(), token, &cfg.tournament, defaults).await?
    };
    let names = [
        ("Anna", "Ben"),
        ("Cleo", "Dan"),
        ("Eva", "Finn"),
        ("Gil", "Hana"),
        ("Ivo", "Jun"),
        ("Kai", "Lena"),
    ];
    let mut playing = Vec::new();
    let mut faces = Vec::new();
    for i in 1..=cfg.tables {
        // Past the sixth table the names come round again, numbered: a round has one
        // match per pair of players.
        let (a, b) = names[(i as usize - 1) % names.len()];
        let lap = (i as usize - 1) / names.len();
        let (a, b) = if lap == 0 {
            (a.to_string(), b.to_string())
        } else {
            (format!("{a} {}", lap + 1), format!("{b} {}", lap + 1))
        };
        let players = (a.as_str(), b.as_str());
        let (match_id, credential) = if cfg.chess {
            // Game 1 starts now; the players have the default time to arrive (6.7).
            tables.add_chess(chess::settings(&cfg), 0, players).await?
        } else {
            tables.add(cfg.length, players).await?
        };
        let sign = if i % 2 == 0 { -1 } else { 1 };
        let device = Device::connect(DeviceConfig {
            clock: DeviceClock::from_system(
                -(i as i64) * 1_000_003,
                sign * cfg.drift_ppm * i64::from(i) / i64::from(cfg.tables.max(1)),
            ),
            link: cfg.link,
            seed: cfg.seed.wrapping_add(u64::from(i)),
            servers: cfg.servers.clone(),
            // The server's lines for the display in the language of the faces.
            lang: Some(cfg.locale),
            ..DeviceConfig::new(channel.clone(), &format!("{match_id}-clock"), &credential)
        })
        .await?;
        faces.push((format!("t{i}"), device.face()));
        let seed = cfg.seed.wrapping_add(u64::from(i));
        playing.push(if cfg.chess {
            tokio::spawn(chess::play(device, match_id, cfg.clone(), seed))
        } else {
            tokio::spawn(play(device, match_id, cfg.clone(), seed))
        });
    }
    let all = async {
        let mut results = Vec::new();
        for t in playing {
            results.push(t.await??);
        }
        Ok(results)
    };
    let outcome = if cfg.display {
        let header = [watch_line(&cfg)];
        show_until(&header, faces, Duration::from_millis(100), cfg.locale, all).await
    } else {
        all.await
    };
    if !cfg.keep && !cfg.existing {
        // Archived even when a table failed; that failure is the one reported.
        let archived = tables.archive().await;
        if outcome.is_ok() {
            archived?;
        }
    }
    outcome
}

/// What the demo says first, and keeps above the devices' faces while it draws them:
/// "playing 4 table(s); watch with: baffle console demo-123456", naming the server the
/// demo was given unless it is the default (a director copied the line and reached the
/// default port).
pub fn watch_line(cfg: &DemoConfig) -> String {
    let server = if cfg.url == DEFAULT_SERVER {
        String::new()
    } else {
        format!("--server {} ", cfg.url)
    };
    format!(
        "playing {} table(s); watch with: baffle {server}console {}",
        cfg.tables, cfg.tournament
    )
}

/// Archives tournament `id` whatever its matches' state, on the first server of `url`
/// (as typed: `host:port`, a URL, or a cluster's list `a,b,c`) that answers: what a demo
/// or a load run interrupted (Ctrl-C) does before it exits. Any node of a cluster can
/// archive (the registry is shared).
pub async fn archive(url: &str, token: &str, id: &str) -> Result<(), DeviceError> {
    let (channel, _) = crate::servers::first_answering(url).await?;
    archive_on(TournamentsClient::new(channel), token, id).await
}

async fn archive_on(
    mut tournaments: TournamentsClient<Channel>,
    token: &str,
    id: &str,
) -> Result<(), DeviceError> {
    let request = v1::ArchiveTournamentRequest {
        id: id.into(),
        archived: true,
        // A load run's matches never end, and an interrupted demo's did not.
        force: true,
    };
    tournaments
        .archive_tournament(authed(request, token)?)
        .await?;
    Ok(())
}

/// A side as the wire numbers it: B, else A.
fn wire_side(s: i32) -> i32 {
    if s == v1::Side::B as i32 {
        v1::Side::B as i32
    } else {
        v1::Side::A as i32
    }
}

/// The other side, as the wire numbers it.
fn wire_other(s: i32) -> i32 {
    if s == v1::Side::B as i32 {
        v1::Side::A as i32
    } else {
        v1::Side::B as i32
    }
}

/// The simulated players at one table: their dice of chance (seeded, so a demo can be
/// played again), how long they think, and how far into a game they are.
struct Players {
    rng: ChaCha8Rng,
    think_ms: (u64, u64),
    moves_in_game: u32,
    game_length: u32,
}

impl Players {
    fn new(seed: u64, think_ms: (u64, u64)) -> Players {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game_length = 6 + pick(&mut rng, 14);
        Players {
            rng,
            think_ms,
            moves_in_game: 0,
            game_length,
        }
    }

    /// What the players press next in state `s`: check in, roll, sometimes double,
    /// move (a game ends after a random number of moves), take or pass.
    async fn next_action(&mut self, s: &v1::MatchState) -> Result<Action, DeviceError> {
        if let Some(absent) = s.present.iter().position(|p| !p) {
            return Ok(Action::CheckIn(if absent == 0 {
                v1::Side::A as i32
            } else {
                v1::Side::B as i32
            }));
        }
        let rng = &mut self.rng;
        Ok(match v1::TurnPhase::try_from(s.turn) {
            Ok(v1::TurnPhase::Unspecified) | Ok(v1::TurnPhase::Opening) => {
                self.moves_in_game = 0;
                self.game_length = 6 + pick(rng, 14);
                Action::OpeningRoll(v1::Roll {
                    side: 0,
                    dice: vec![],
                    link: Vec::new(),
                })
            }
            Ok(v1::TurnPhase::OnRoll) if pick(rng, 10) == 0 && !s.crawford => {
                Action::Double(wire_side(s.turn_side))
            }
            Ok(v1::TurnPhase::OnRoll) => Action::Roll(v1::Roll {
                side: wire_side(s.turn_side),
                dice: vec![],
                link: Vec::new(),
            }),
            Ok(v1::TurnPhase::Moving) => {
                think(rng, self.think_ms).await;
                self.moves_in_game += 1;
                if self.moves_in_game >= self.game_length {
                    let kind = match pick(rng, 10) {
                        0 => v1::WinKind::Backgammon,
                        1 | 2 => v1::WinKind::Gammon,
                        _ => v1::WinKind::Single,
                    };
                    Action::EndGame(v1::GameResult {
                        side: wire_side(s.turn_side),
                        kind: kind as i32,
                    })
                } else {
                    Action::Press(wire_side(s.turn_side))
                }
            }
            Ok(v1::TurnPhase::DoubleOffered) => {
                think(rng, self.think_ms).await;
                let taker = wire_other(s.turn_side);
                if pick(rng, 4) == 0 {
                    Action::Pass(taker)
                } else {
                    Action::Take(taker)
                }
            }
            Err(_) => return Err("the server sent a turn this simulator does not know".into()),
        })
    }
}

/// Plays one match from its device until it is over.
async fn play(
    mut device: Device,
    match_id: String,
    cfg: DemoConfig,
    seed: u64,
) -> Result<TableResult, DeviceError> {
    let mut players = Players::new(seed, cfg.think_ms);
    let mut inputs = 0u64;
    let mut refusals = 0;
    loop {
        let s = device.state();
        if s.result.is_some() {
            return Ok(finish(device, match_id, s, inputs).await);
        }
        let action = players.next_action(&s).await?;
        inputs += 1;
        // A lost connection is the device's business: it reconnects and replays.
        let ack = device.act(action.clone()).await?.ack;
        if !ack.applied && !ack.duplicate {
            // A double the cube does not allow, say: play on without it.
            refusals += 1;
            if refusals > 100 {
                return Err(format!("{match_id}: the server keeps refusing: {}", ack.error).into());
            }
            if let Action::Double(s) = action {
                inputs += 1;
                device
                    .act(Action::Roll(v1::Roll {
                        side: s,
                        dice: vec![],
                        link: Vec::new(),
                    }))
                    .await?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watch_line_names_the_server_the_demo_was_given() {
        let cfg = DemoConfig {
            tables: 2,
            tournament: "club".into(),
            ..DemoConfig::default()
        };
        assert_eq!(
            watch_line(&cfg),
            "playing 2 table(s); watch with: baffle console club"
        );
        let cfg = DemoConfig {
            url: "http://127.0.0.1:50151".into(),
            ..cfg
        };
        assert_eq!(
            watch_line(&cfg),
            "playing 2 table(s); watch with: baffle --server http://127.0.0.1:50151 console club"
        );
    }
}
