//! The durable state of one match: its engine state, dice, dice watch and the last
//! record of its chain. Created with its first records, rebuilt from its stored log on
//! start (checking the chain and the dice as it goes), and asked to *plan* a command: the
//! records a command would add, computed on a copy.

use baffle_core::audit::export::{Line, parse_line};
use baffle_core::audit::{Entry, Hash, Record};
use baffle_core::backgammon::{Command, DiceSource, Event, Match, MatchSetup};
use baffle_core::chess::{Chess960, ChessMatch, ChessSettings, MatchCommand, MatchEvent};
use baffle_core::dice::{MatchDice, ServerSeed};
use baffle_core::dice_check::DiceMonitor;
use baffle_core::{Side, Timestamp};
use baffle_proto::v1;
use tonic::Status;

use super::engine::Engine;
use crate::wire::{self, MatchInfo, Planned, StateContext, json_kind};

/// How a new match is set up: which game, and its settings.
#[derive(Clone, Debug)]
pub enum Setup {
    /// A backgammon match.
    Backgammon(MatchSetup),
    /// A chess match.
    Chess(ChessSettings),
}

/// The state an actor owns; also what recovery rebuilds.
#[derive(Clone)]
pub struct MatchLog {
    pub(super) info: MatchInfo,
    pub(super) m: Engine,
    pub(super) dice: MatchDice,
    pub(super) monitor: DiceMonitor,
    pub(super) last: Option<Record>,
    /// The dice commitment in hex, computed once: every state shows it.
    pub(super) commitment: String,
    pub(super) revealed: bool,
    /// Dice anomalies raised, and the latest message.
    pub(super) anomalies: (u32, String),
    /// Devices that connected, and whether they are now (not in the log).
    pub(super) devices: std::collections::BTreeMap<String, bool>,
    /// The last input seq applied per device (from the log's `device.input` records).
    pub(super) device_seqs: std::collections::BTreeMap<String, u64>,
}

/// The engine a `match.setup` body sets up: chess if it has chess settings, else
/// backgammon.
fn engine_from_setup(body: &str) -> Result<Engine, String> {
    let v: serde_json::Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
    if v.get("chess").is_some() {
        let settings: ChessSettings =
            serde_json::from_value(v["chess"].clone()).map_err(|e| e.to_string())?;
        return Ok(Engine::Chess(
            ChessMatch::new(settings).map_err(|e| e.to_string())?,
        ));
    }
    let setup: MatchSetup =
        serde_json::from_value(v["setup"].clone()).map_err(|e| e.to_string())?;
    Ok(Engine::Backgammon(
        Match::new(setup).map_err(|e| e.to_string())?,
    ))
}

impl MatchLog {
    /// A new match: its first two records (the commitment, then the set-up) and its state.
    pub fn create(
        info: MatchInfo,
        setup: Setup,
        seed: ServerSeed,
    ) -> Result<(MatchLog, Vec<Record>), Status> {
        let invalid = |e: &dyn std::fmt::Display| Status::invalid_argument(e.to_string());
        let (m, setup_body) = match setup {
            Setup::Backgammon(setup) => (
                Engine::Backgammon(Match::new(setup.clone()).map_err(|e| invalid(&e))?),
                serde_json::json!({ "kind": "match.setup", "info": info, "setup": setup }),
            ),
            Setup::Chess(settings) => (
                Engine::Chess(ChessMatch::new(settings.clone()).map_err(|e| invalid(&e))?),
                serde_json::json!({ "kind": "match.setup", "info": info, "chess": settings }),
            ),
        };
        let setup_body = setup_body.to_string();
        let dice = MatchDice::new(info.id.clone(), seed);
        let opened = Entry::MatchOpened {
            match_id: info.id.clone(),
            commitment: dice.commitment().to_string(),
        }
        .body();
        let first = Record::next(None, opened);
        let second = Record::next(Some(&first), setup_body);
        let log = MatchLog {
            info,
            m,
            commitment: dice.commitment().to_string(),
            dice,
            monitor: DiceMonitor::default(),
            last: Some(second.clone()),
            revealed: false,
            anomalies: (0, String::new()),
            devices: Default::default(),
            device_seqs: Default::default(),
        };
        Ok((log, vec![first, second]))
    }

    /// Rebuilds a match from its stored log, checking the chain as it goes.
    pub fn recover(
        info: MatchInfo,
        seed: ServerSeed,
        lines: &[Vec<u8>],
    ) -> Result<MatchLog, String> {
        let mut dice = MatchDice::new(info.id.clone(), seed);
        let mut monitor = DiceMonitor::default();
        let mut m: Option<Engine> = None;
        let mut last: Option<Record> = None;
        let mut revealed = false;
        let mut anomalies = (0, String::new());
        let mut device_seqs = std::collections::BTreeMap::new();
        for (i, line) in lines.iter().enumerate() {
            let text = std::str::from_utf8(line).map_err(|_| format!("record {i} is not UTF-8"))?;
            let Ok(Line::Record(r)) = parse_line(text) else {
                return Err(format!("record {i} does not parse"));
            };
            let expected = Record::next(last.as_ref(), r.body.clone());
            if expected != r {
                return Err(format!("record {i} does not continue the chain"));
            }
            let kind = json_kind(&r.body).unwrap_or_default();
            let fail = |e: &dyn std::fmt::Display| format!("record {i} ({kind}): {e}");
            match kind.as_str() {
                "match.opened" if i == 0 => {
                    let entry: Entry = serde_json::from_str(&r.body).map_err(|e| fail(&e))?;
                    if let Entry::MatchOpened { commitment, .. } = entry
                        && commitment != dice.commitment().to_string()
                    {
                        return Err(fail(&"the stored seed does not match the commitment"));
                    }
                }
                "match.setup" => m = Some(engine_from_setup(&r.body).map_err(|e| fail(&e))?),
                "device.input" => {
                    let v: serde_json::Value =
                        serde_json::from_str(&r.body).map_err(|e| fail(&e))?;
                    let device = v["device"].as_str().unwrap_or_default().to_string();
                    device_seqs.insert(device, v["seq"].as_u64().unwrap_or(0));
                }
                "dice.anomaly" => {
                    let v: serde_json::Value =
                        serde_json::from_str(&r.body).map_err(|e| fail(&e))?;
                    anomalies = (
                        anomalies.0 + 1,
                        v["message"].as_str().unwrap_or_default().to_string(),
                    );
                }
                k if k.starts_with("dice.") => {
                    let entry: Option<Entry> = serde_json::from_str(&r.body).ok();
                    match entry {
                        Some(Entry::PlayerSeed { side, seed }) => {
                            let side = if side == "A" { Side::A } else { Side::B };
                            let bytes = hex::decode(seed).map_err(|e| fail(&e))?;
                            dice.add_player_seed(side, &bytes).map_err(|e| fail(&e))?;
                        }
                        Some(Entry::Roll { dice: rolled, .. })
                            if dice.roll().map_err(|e| fail(&e))? != rolled =>
                        {
                            return Err(fail(&"the roll is not the seed's"));
                        }
                        Some(Entry::Roll { .. }) => {}
                        Some(Entry::Opening { throws })
                            if dice.opening().map_err(|e| fail(&e))?.throws != throws =>
                        {
                            return Err(fail(&"the opening roll is not the seed's"));
                        }
                        Some(Entry::Opening { .. }) => {}
                        Some(Entry::Chess960 { .. }) => {
                            dice.chess960().map_err(|e| fail(&e))?;
                        }
                        Some(Entry::Reported { side, dice: d }) => {
                            monitor.observe_roll(if side == "A" { Side::A } else { Side::B }, d);
                        }
                        Some(Entry::Reveal { .. }) => {
                            dice.reveal();
                            revealed = true;
                        }
                        _ => {}
                    }
                }
                k if k.starts_with("bg.") => {
                    let event: Event = serde_json::from_str(&r.body).map_err(|e| fail(&e))?;
                    match m.as_mut() {
                        Some(Engine::Backgammon(m)) => m.apply(&event).map_err(|e| fail(&e))?,
                        _ => return Err(fail(&"a backgammon event outside a backgammon match")),
                    }
                }
                // The arbiter's reason for the events that follow: nothing to fold.
                "chess.ruling" => {}
                k if k.starts_with("chess.") => {
                    let event: MatchEvent = serde_json::from_str(&r.body).map_err(|e| fail(&e))?;
                    match m.as_mut() {
                        Some(Engine::Chess(m)) => m.apply(&event).map_err(|e| fail(&e))?,
                        _ => return Err(fail(&"a chess event outside a chess match")),
                    }
                }
                _ => {}
            }
            last = Some(r);
        }
        let m = m.ok_or("the log has no set-up")?;
        Ok(MatchLog {
            info,
            m,
            commitment: dice.commitment().to_string(),
            dice,
            monitor,
            last,
            revealed,
            anomalies,
            devices: Default::default(),
            device_seqs,
        })
    }

    /// The rules of a match from its set-up record (record 1 of its log), read without
    /// replaying the log: what a handle needs before recovery is done.
    pub fn rules_from_setup(line: &[u8]) -> Result<wire::Rules, String> {
        let text = std::str::from_utf8(line).map_err(|_| "record 1 is not UTF-8")?;
        let Ok(Line::Record(r)) = parse_line(text) else {
            return Err("record 1 does not parse".into());
        };
        if json_kind(&r.body).as_deref() != Some("match.setup") {
            return Err("record 1 is not the set-up".into());
        }
        Ok(engine_from_setup(&r.body)?.rules())
    }

    /// Which match this is.
    pub fn info(&self) -> &MatchInfo {
        &self.info
    }

    pub(super) fn seq(&self) -> u64 {
        self.last.as_ref().map_or(0, |r| r.seq + 1)
    }

    pub(super) fn head(&self) -> Hash {
        self.last.as_ref().map_or(Hash::GENESIS, |r| r.hash)
    }

    pub(super) fn state(&self, now: Timestamp) -> v1::MatchState {
        let cx = StateContext {
            info: &self.info,
            commitment: &self.commitment,
            seq: self.seq(),
            head: self.head(),
            now,
            anomalies: (self.anomalies.0, &self.anomalies.1),
            devices: &self.devices,
        };
        self.m.state(&cx)
    }

    /// The backgammon match, for a backgammon command.
    fn backgammon(&mut self) -> Result<&mut Match, Status> {
        match &mut self.m {
            Engine::Backgammon(m) => Ok(m),
            Engine::Chess(_) => Err(Status::invalid_argument(
                "command: this is a chess match: send command.chess",
            )),
        }
    }

    /// The chess match, for a chess command.
    fn chess(&mut self) -> Result<&mut ChessMatch, Status> {
        match &mut self.m {
            Engine::Chess(m) => Ok(m),
            Engine::Backgammon(_) => Err(Status::invalid_argument(
                "command.chess: this is a backgammon match",
            )),
        }
    }

    /// Runs a chess command on this (working) copy, adding the bodies of its events;
    /// a Chess960 match whose first game has just started gets its position drawn now
    /// if the arbiter has not drawn it before.
    fn run_chess(
        &mut self,
        command: &MatchCommand,
        now: Timestamp,
        bodies: &mut Vec<String>,
    ) -> Result<(), Status> {
        let rule = |e: baffle_core::chess::ChessError| Status::failed_precondition(e.to_string());
        let events = self.chess()?.execute(command, now).map_err(rule)?;
        bodies.extend(events.iter().map(MatchEvent::body));
        let m = self.chess()?;
        if m.settings().chess960 && m.series().position().is_none() && m.game().started() {
            self.draw_position(now, bodies)?;
        }
        Ok(())
    }

    /// Draws the Chess960 position from the match's dice and records both the draw and
    /// the position.
    fn draw_position(&mut self, now: Timestamp, bodies: &mut Vec<String>) -> Result<(), Status> {
        let rule = |e: baffle_core::chess::ChessError| Status::failed_precondition(e.to_string());
        // Checked first, so that a refused draw takes nothing from the dice stream.
        let probe = MatchCommand::Position(Chess960::numbered(518).expect("518 is a position"));
        self.chess()?.handle(&probe, now).map_err(rule)?;
        let sp = self
            .dice
            .chess960()
            .map_err(|e| Status::failed_precondition(e.to_string()))?;
        bodies.push(Entry::Chess960 { sp }.body());
        let position = Chess960::numbered(sp).expect("the stream draws 0..960");
        let events = self
            .chess()?
            .execute(&MatchCommand::Position(position), now)
            .map_err(rule)?;
        bodies.extend(events.iter().map(MatchEvent::body));
        Ok(())
    }

    /// The bodies a command adds, computed on a copy of the state (returned with them).
    pub(super) fn plan(
        &self,
        planned: &Planned,
        now: Timestamp,
    ) -> Result<(MatchLog, Vec<String>), Status> {
        let mut next = self.clone();
        let mut bodies = Vec::new();
        let rule =
            |e: baffle_core::backgammon::RuleError| Status::failed_precondition(e.to_string());
        let dice_err = |e: baffle_core::dice::DiceError| Status::failed_precondition(e.to_string());
        let run = |next: &mut MatchLog,
                   bodies: &mut Vec<String>,
                   command: &Command|
         -> Result<(), Status> {
            let events = next.backgammon()?.execute(command, now).map_err(rule)?;
            bodies.extend(events.iter().map(Event::body));
            Ok(())
        };
        match planned {
            Planned::Tick => match &next.m {
                Engine::Backgammon(_) => run(&mut next, &mut bodies, &Command::Tick)?,
                Engine::Chess(_) => next.run_chess(&MatchCommand::Tick, now, &mut bodies)?,
            },
            Planned::Chess { command, ruling } => {
                if let Some(ruling) = ruling {
                    bodies.push(wire::chess::ruling_body(ruling));
                }
                next.run_chess(command, now, &mut bodies)?;
            }
            Planned::ChessPosition { ruling } => {
                if let Some(ruling) = ruling {
                    bodies.push(wire::chess::ruling_body(ruling));
                }
                next.draw_position(now, &mut bodies)?;
            }
            Planned::Engine(command) => {
                run(&mut next, &mut bodies, command)?;
                if let Command::Roll {
                    side,
                    dice,
                    source: DiceSource::Physical,
                } = command
                {
                    bodies.push(
                        Entry::Reported {
                            side: side.to_string(),
                            dice: *dice,
                        }
                        .body(),
                    );
                    for a in next.monitor.observe_roll(*side, *dice) {
                        next.anomalies = (next.anomalies.0 + 1, a.to_string());
                        bodies.push(serde_json::json!({ "kind": "dice.anomaly", "message": a.to_string(), "p_value": a.p_value }).to_string());
                    }
                }
            }
            Planned::ServerOpening => {
                let opening = next.dice.opening().map_err(dice_err)?;
                bodies.push(
                    Entry::Opening {
                        throws: opening.throws.clone(),
                    }
                    .body(),
                );
                for throw in opening.throws {
                    run(
                        &mut next,
                        &mut bodies,
                        &Command::OpeningThrow {
                            throw,
                            source: DiceSource::Server,
                        },
                    )?;
                }
            }
            Planned::ServerRoll(side) => {
                // Checked first, so that a roll out of turn draws no dice.
                next.backgammon()?
                    .handle(
                        &Command::Roll {
                            side: *side,
                            dice: [1, 1],
                            source: DiceSource::Server,
                        },
                        now,
                    )
                    .map_err(rule)?;
                let roll = next.dice.roll().map_err(dice_err)?;
                bodies.push(
                    Entry::Roll {
                        side: side.to_string(),
                        dice: roll,
                    }
                    .body(),
                );
                run(
                    &mut next,
                    &mut bodies,
                    &Command::Roll {
                        side: *side,
                        dice: roll,
                        source: DiceSource::Server,
                    },
                )?;
            }
        }
        Ok((next, bodies))
    }
}
