//! A tournament day through the API with results only (issue 30): a 16-player knockout
//! with a consolation, drawn by the server from its committed seed, every round started
//! with one request, each result decided and confirmed at its match (4.6) — and the next
//! match appearing by itself — to a champion in each flight; the exported tournament log
//! replayed and its draw recomputed; a restart that keeps it all.

use baffle_core::tournament::{self, Flight};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::draws_client::DrawsClient;
use baffle_tests::TestServer;
use baffle_tests::api::Director;
use tonic::Code;
use tonic::transport::Channel;

const DAY: &str = "day";

struct Room {
    server: TestServer,
    d: Director,
    draws: DrawsClient<Channel>,
}

impl Room {
    async fn open() -> Room {
        let server = TestServer::start().await;
        let mut d = Director::connect(&server).await;
        d.tournament(DAY, v1::TournamentDefaults::default()).await;
        let draws = DrawsClient::new(server.channel().await);
        Room { server, d, draws }
    }

    async fn view(&mut self) -> v1::DrawView {
        self.draws
            .get_draw(v1::GetDrawRequest {
                tournament_id: DAY.into(),
            })
            .await
            .expect("draw")
            .into_inner()
    }

    async fn start_round(&mut self, flight: v1::Flight, round: u32) -> v1::DrawView {
        let r = self.server.director(v1::StartRoundRequest {
            tournament_id: DAY.into(),
            flight: flight.into(),
            round,
            start_ms: 0,
        });
        self.draws
            .start_round(r)
            .await
            .expect("round started")
            .into_inner()
    }

    /// Decides the match of `p` for player A (B forfeits, the director confirms, 4.6)
    /// and waits until the draw has taken the result.
    async fn win_a(&mut self, p: &v1::Pairing) {
        self.d
            .act(&p.match_id, Action::ForfeitMatch(v1::Side::B as i32))
            .await;
        self.d
            .act(&p.match_id, Action::ConfirmResult(v1::Empty {}))
            .await;
        for _ in 0..5_000 {
            let v = self.view().await;
            if v.pairings.iter().any(|q| q.key == p.key && q.winner != 0) {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        panic!("{} never took its confirmed result", p.key);
    }
}

/// Tournament `id`'s log as `ExportDrawLog` serves it, one line each.
async fn exported(draws: &mut DrawsClient<Channel>, id: &str) -> String {
    let mut lines = draws
        .export_draw_log(v1::GetDrawRequest {
            tournament_id: id.into(),
        })
        .await
        .unwrap()
        .into_inner();
    let mut text = String::new();
    while let Some(line) = lines.message().await.unwrap() {
        text.push_str(&line.line);
        text.push('\n');
    }
    text
}

fn playing(v: &v1::DrawView) -> Vec<v1::Pairing> {
    v.pairings
        .iter()
        .filter(|p| p.state == v1::PairingState::Playing as i32)
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_sixteen_player_knockout_with_consolation_is_played_to_the_end_with_results_only() {
    let mut room = Room::open().await;
    let open = room.server.director(v1::OpenDrawRequest {
        tournament_id: DAY.into(),
        plan: Some(v1::DrawPlan {
            format: v1::DrawFormat::Knockout.into(),
            flights: v1::Flights::Consolation.into(),
            length: 3,
            ..Default::default()
        }),
        tables: (1..=8).map(|t| t.to_string()).collect(),
    });
    let v = room
        .draws
        .open_draw(open)
        .await
        .expect("draw opened")
        .into_inner();
    assert_eq!(v.commitment.len(), 64);
    assert!(v.seed.is_empty(), "the seed stays secret until the draw");
    let entrants = (1..=16)
        .map(|i| v1::EntrantDetails {
            name: format!("Player {i:02}"),
            rating_hundredths: Some(150_000 + i64::from(i) * 1_000),
            ..Default::default()
        })
        .collect();
    let r = room.server.director(v1::RegisterEntrantsRequest {
        tournament_id: DAY.into(),
        entrants,
        approve: true,
    });
    room.draws.register_entrants(r).await.expect("registered");
    // A second "player 03" is the same player: refused, naming him.
    let dup = room.server.director(v1::RegisterEntrantsRequest {
        tournament_id: DAY.into(),
        entrants: vec![v1::EntrantDetails {
            name: "player  03".into(),
            ..Default::default()
        }],
        approve: true,
    });
    let e = room.draws.register_entrants(dup).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("#3"), "{}", e.message());
    for entrant in 1..=16 {
        let r = room.server.director(v1::UpdateEntrantRequest {
            tournament_id: DAY.into(),
            entrant,
            action: Some(v1::update_entrant_request::Action::CheckIn(true)),
        });
        room.draws.update_entrant(r).await.expect("checked in");
    }
    // No one but the director changes the draw.
    let e = room
        .draws
        .make_draw(v1::MakeDrawRequest {
            tournament_id: DAY.into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(
        matches!(e.code(), Code::Unauthenticated | Code::PermissionDenied),
        "{e:?}"
    );
    let r = room.server.director(v1::MakeDrawRequest {
        tournament_id: DAY.into(),
        seed_top_rated: 4,
        ..Default::default()
    });
    let v = room.draws.make_draw(r).await.expect("drawn").into_inner();
    assert_eq!(
        v.seeds,
        vec![16, 15, 14, 13],
        "the four highest ratings, highest first"
    );
    assert_eq!(v.seed.len(), 64);
    let main_r1: Vec<_> = v
        .pairings
        .iter()
        .filter(|p| p.key.starts_with("M1-"))
        .collect();
    assert_eq!(main_r1.len(), 8);
    let mut seen: Vec<u32> = main_r1
        .iter()
        .flat_map(|p| [p.player_a, p.player_b])
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        (1..=16).collect::<Vec<_>>(),
        "each entrant once in the first round"
    );
    assert!(
        playing(&v).is_empty(),
        "nothing is played before its round starts"
    );

    // Every round started up front: each match is created as soon as its players are.
    for round in 1..=4 {
        room.start_round(v1::Flight::Main, round).await;
    }
    for round in 1..=3 {
        room.start_round(v1::Flight::Consolation, round).await;
    }
    let v = room.view().await;
    assert_eq!(playing(&v).len(), 8, "round 1 on the eight tables");
    for p in playing(&v) {
        let s = room.d.state(&p.match_id).await;
        assert_eq!(
            (s.player_a.as_str(), s.player_b.as_str()),
            (p.name_a.as_str(), p.name_b.as_str())
        );
        assert_eq!(s.table, p.table);
        assert_eq!(s.length, 3);
    }
    // A rename is one record of the draw, and reaches the player's match at its table.
    let first = playing(&v).remove(0);
    let r = room.server.director(v1::UpdateEntrantRequest {
        tournament_id: DAY.into(),
        entrant: first.player_a,
        action: Some(v1::update_entrant_request::Action::Rename(
            "Player Renamed".into(),
        )),
    });
    room.draws.update_entrant(r).await.expect("renamed");
    let s = room
        .d
        .until(&first.match_id, |s| s.player_a == "Player Renamed")
        .await;
    assert_eq!(s.player_a, "Player Renamed");
    // Results until nothing is left to play.
    let mut decided = 0;
    loop {
        let v = room.view().await;
        let next = playing(&v);
        if next.is_empty() {
            break;
        }
        for p in next {
            room.win_a(&p).await;
            decided += 1;
        }
    }
    assert_eq!(decided, 15 + 7, "15 main matches and 7 consolation matches");
    let v = room.view().await;
    for flight in [v1::Flight::Main, v1::Flight::Consolation] {
        let champions: Vec<_> = v
            .placings
            .iter()
            .filter(|p| p.flight == flight as i32 && p.place == 1)
            .collect();
        assert_eq!(champions.len(), 1, "one winner of the {flight:?} flight");
    }
    // Every result here is a forfeit: recorded as decided without play, and not rated.
    assert!(v.pairings.iter().all(|p| p.unplayed && p.winner != 0));
    assert!(
        v.entrants
            .iter()
            .all(|e| e.rating_hundredths == e.details.as_ref().unwrap().rating_hundredths)
    );

    // The exported log replays to the same draw, recomputed from its revealed seed.
    let text = exported(&mut room.draws, DAY).await;
    let records = records(&text);
    let t = tournament::replay(&records).expect("the log replays");
    assert_eq!(t.head.to_string(), v.head);
    assert_eq!(t.winners().len(), 22);
    assert_eq!(t.round_count(Flight::Main), 4);

    // A restart keeps it all.
    let before = room.view().await;
    let Room { server, .. } = room;
    let (dir, time) = server.stop().await;
    let server = TestServer::start_in(dir, time).await;
    let mut draws = DrawsClient::new(server.channel().await);
    let after = draws
        .get_draw(v1::GetDrawRequest {
            tournament_id: DAY.into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(after, before);
}

/// The records of an export (the end line dropped).
fn records(text: &str) -> Vec<baffle_core::audit::Record> {
    use baffle_core::audit::export::{Line, parse_line};
    text.lines()
        .filter_map(|l| match parse_line(l).expect("a line") {
            Line::Record(r) => Some(r),
            Line::End { .. } => None,
        })
        .collect()
}

/// A round has one match per table and per pair: a second, by hand, names the one it
/// replaces with a ruling (today's loophole: recreating a match silently, fresh dice).
#[tokio::test]
async fn a_second_match_for_a_table_or_a_pair_is_refused_unless_it_names_the_one_it_replaces() {
    let mut room = Room::open().await;
    let create = |id: &str, table: &str, a: &str, b: &str| v1::CreateMatchRequest {
        tournament_id: DAY.into(),
        match_id: id.into(),
        round: 1,
        table: table.into(),
        player_a: a.into(),
        player_b: b.into(),
        length: 5,
        ..Default::default()
    };
    room.d.create(create("first", "7", "Anna", "Ben")).await;
    for (id, table, a, b, why) in [
        ("again", "7", "Cleo", "Dan", "table 7"),
        ("rematch", "8", "ben", "Anna", "the same two players"),
    ] {
        let e = room
            .d
            .tournaments
            .create_match(room.d.with_token(create(id, table, a, b)))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::FailedPrecondition);
        assert!(
            e.message().contains("first") && e.message().contains(why),
            "{}",
            e.message()
        );
    }
    // Without the director's words a replacement is refused too.
    let mut r = create("again", "7", "Anna", "Ben");
    r.replaces = "first".into();
    let e = room
        .d
        .tournaments
        .create_match(room.d.with_token(r.clone()))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    r.ruling = "the board was set up wrongly".into();
    room.d.create(r).await;
    // The replaced match's log stays to be read, but it takes no more commands: they
    // are refused naming the match that replaced it, which takes them.
    let check_in = || Action::CheckIn(v1::Side::A as i32);
    let e = room.d.try_act("first", check_in()).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(
        e.message().contains("replaced by match again") && e.message().contains("set up wrongly"),
        "{}",
        e.message()
    );
    assert_eq!(room.d.state("first").await.match_id, "first");
    room.d.act("again", check_in()).await;
    // Another round, another table: no clash.
    let mut next = create("r2", "7", "Anna", "Ben");
    next.round = 2;
    room.d.create(next).await;

    // The tournament's log holds the three, the replacement linked, and verifies.
    let text = exported(&mut room.draws, DAY).await;
    let log = tournament::by_hand::replay(&records(&text)).expect("the log replays");
    let made: Vec<&str> = log
        .matches
        .iter()
        .map(|m| m.new.match_id.as_str())
        .collect();
    assert_eq!(made, ["first", "again", "r2"]);
    assert_eq!(log.replaced_by("first"), Some("again"));

    // Nor is a draw opened in it: its log is the matches made by hand.
    let open = |t: &str| {
        room.server.director(v1::OpenDrawRequest {
            tournament_id: t.into(),
            plan: Some(v1::DrawPlan {
                format: v1::DrawFormat::Swiss.into(),
                rounds: 3,
                length: 5,
                ..Default::default()
            }),
            tables: vec!["1".into()],
        })
    };
    let e = room.draws.open_draw(open(DAY)).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("made by hand"), "{}", e.message());

    // A tournament with a draw takes no match by hand.
    room.d
        .tournament("drawn", v1::TournamentDefaults::default())
        .await;
    room.draws.open_draw(open("drawn")).await.unwrap();
    let mut late = create("late", "9", "Eva", "Fay");
    late.tournament_id = "drawn".into();
    let e = room
        .d
        .tournaments
        .create_match(room.d.with_token(late))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("draw"), "{}", e.message());
    // Nor may another tournament take an id the draw will give one of its matches.
    room.d
        .tournament("other", v1::TournamentDefaults::default())
        .await;
    let mut taken = create("drawn-m1-1", "1", "Gus", "Hal");
    taken.tournament_id = "other".into();
    let e = room
        .d
        .tournaments
        .create_match(room.d.with_token(taken))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(
        e.message().contains("kept for tournament drawn"),
        "{}",
        e.message()
    );
    // A match made earlier under an id a later draw would give is found when that draw
    // opens: the draw is refused, naming it.
    let mut early = create("sq-m1-1", "2", "Ivo", "Jun");
    early.tournament_id = "other".into();
    room.d.create(early).await;
    room.d
        .tournament("sq", v1::TournamentDefaults::default())
        .await;
    let open = room.server.director(v1::OpenDrawRequest {
        tournament_id: "sq".into(),
        plan: Some(v1::DrawPlan {
            format: v1::DrawFormat::Knockout.into(),
            length: 3,
            ..Default::default()
        }),
        tables: vec!["1".into()],
    });
    let e = room.draws.open_draw(open).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("sq-m1-1"), "{}", e.message());
}

/// The list of players lasts across tournaments: an entrant registered from it brings
/// his rating and experience, and his rated result goes back to it, with its history.
#[tokio::test]
async fn a_listed_players_rating_follows_him_from_tournament_to_tournament() {
    let mut room = Room::open().await;
    let listed = |id: &str, name: &str, rating: i64| v1::ListedPlayer {
        id: id.into(),
        details: Some(v1::EntrantDetails {
            name: name.into(),
            federation_id: format!("GR-{id}"),
            rating_hundredths: Some(rating),
            experience: 500,
            ..Default::default()
        }),
        history: Vec::new(),
    };
    let add = room.server.director(v1::AddPlayersRequest {
        players: vec![listed("p1", "Anna", 160_000), listed("p2", "Ben", 150_000)],
    });
    room.draws.add_players(add).await.expect("listed");
    let again = room.server.director(v1::AddPlayersRequest {
        players: vec![listed("p1", "Anna", 160_000)],
    });
    let e = room.draws.add_players(again).await.unwrap_err();
    assert_eq!(e.code(), Code::AlreadyExists);
    let open = room.server.director(v1::OpenDrawRequest {
        tournament_id: DAY.into(),
        plan: Some(v1::DrawPlan {
            format: v1::DrawFormat::Knockout.into(),
            length: 1,
            ..Default::default()
        }),
        tables: vec!["1".into()],
    });
    room.draws.open_draw(open).await.unwrap();
    let by_id = |id: &str| v1::EntrantDetails {
        player_id: id.into(),
        ..Default::default()
    };
    let r = room.server.director(v1::RegisterEntrantsRequest {
        tournament_id: DAY.into(),
        entrants: vec![by_id("p1"), by_id("p2")],
        approve: true,
    });
    let v = room.draws.register_entrants(r).await.unwrap().into_inner();
    let anna = v.entrants[0].details.clone().unwrap();
    assert_eq!(
        (anna.name.as_str(), anna.rating_hundredths),
        ("Anna", Some(160_000))
    );
    // A rename in the tournament corrects the list too: one player everywhere.
    let r = room.server.director(v1::UpdateEntrantRequest {
        tournament_id: DAY.into(),
        entrant: 1,
        action: Some(v1::update_entrant_request::Action::Rename(
            "Anna Pappa".into(),
        )),
    });
    room.draws.update_entrant(r).await.unwrap();
    let list = room
        .draws
        .list_players(v1::ListPlayersRequest {})
        .await
        .unwrap()
        .into_inner();
    let p1 = list.players.iter().find(|l| l.id == "p1").unwrap();
    assert_eq!(p1.details.as_ref().unwrap().name, "Anna Pappa");
    for entrant in [1, 2] {
        let r = room.server.director(v1::UpdateEntrantRequest {
            tournament_id: DAY.into(),
            entrant,
            action: Some(v1::update_entrant_request::Action::CheckIn(true)),
        });
        room.draws.update_entrant(r).await.unwrap();
    }
    let r = room.server.director(v1::MakeDrawRequest {
        tournament_id: DAY.into(),
        ..Default::default()
    });
    room.draws.make_draw(r).await.unwrap();
    let v = room.start_round(v1::Flight::Main, 1).await;
    let p = playing(&v).remove(0);
    // Decided by points (a penalty point to the match's length): a rated result.
    room.d
        .act(
            &p.match_id,
            Action::AwardPoints(v1::Points {
                side: v1::Side::A as i32,
                points: 1,
            }),
        )
        .await;
    room.d
        .act(&p.match_id, Action::ConfirmResult(v1::Empty {}))
        .await;
    let winner_id = if p.player_a == 1 { "p1" } else { "p2" };
    for _ in 0..5_000 {
        let list = room
            .draws
            .list_players(v1::ListPlayersRequest {})
            .await
            .unwrap()
            .into_inner();
        let w = list.players.iter().find(|l| l.id == winner_id).unwrap();
        if let Some(h) = w.history.first() {
            assert_eq!((h.tournament_id.as_str(), h.key.as_str()), (DAY, "M1-1"));
            let now = w.details.as_ref().unwrap();
            assert_eq!(now.rating_hundredths, Some(h.rating_hundredths));
            assert_eq!(now.experience, 501);
            let before = if winner_id == "p1" { 160_000 } else { 150_000 };
            assert!(h.rating_hundredths > before, "the winner gained");
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    panic!("the winner's rating never reached the list");
}

/// 2.2: a match of the draw that has its log is put off and moved at its table too;
/// one begun refuses, and then the draw records nothing.
#[tokio::test]
async fn art_2_2_a_match_with_a_log_is_moved_at_its_table_by_a_ruling_on_the_draw() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    let mut dd = baffle_tests::draws::DrawDirector::on(server.channel().await, &server.token);
    let v = dd
        .knockout(&mut d, DAY, &["Anna", "Ben", "Cleo", "Dan"], &["1", "2"])
        .await;
    let [first, second] = [0, 1].map(|i| v.pairings[i].clone());
    let rule = |key: &str, ruling| {
        server.director(v1::RuleOnPairingRequest {
            tournament_id: DAY.into(),
            key: key.into(),
            words: "the hall is needed for an hour".into(),
            ruling: Some(ruling),
        })
    };
    use v1::rule_on_pairing_request::Ruling;
    server.time.advance(60_000);
    let later = baffle_tests::EPOCH.as_ms() + 90 * 60_000;
    dd.draws
        .rule_on_pairing(rule(&first.key, Ruling::RescheduleMs(later)))
        .await
        .expect("rescheduled");
    let s = d.state(&first.match_id).await;
    assert_eq!(s.scheduled_start_ms, later);
    assert_eq!(s.next_due_ms, Some(later + 5 * 60_000));
    dd.draws
        .rule_on_pairing(rule(&first.key, Ruling::Postpone(true)))
        .await
        .expect("put off");
    assert!(d.state(&first.match_id).await.postponed);
    // The second match has begun: its table refuses, and the draw records nothing.
    d.act(&second.match_id, Action::CheckIn(v1::Side::A as i32))
        .await;
    d.act(&second.match_id, Action::CheckIn(v1::Side::B as i32))
        .await;
    d.act(&second.match_id, Action::StartGame(v1::Empty {}))
        .await;
    let before = dd.get(DAY).await.head;
    let e = dd
        .draws
        .rule_on_pairing(rule(&second.key, Ruling::Postpone(true)))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("begun"), "{}", e.message());
    assert_eq!(dd.get(DAY).await.head, before);
}

/// A pairing's log replaced by a ruling: the draw gives its place a new log (fresh
/// dice), the directory links the two, and the old log, kept to be read and verified,
/// refuses every command, naming the new one.
#[tokio::test]
async fn a_replaced_pairing_gets_a_new_log_and_the_old_one_takes_no_more_commands() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    let mut dd = baffle_tests::draws::DrawDirector::on(server.channel().await, &server.token);
    let v = dd
        .knockout(&mut d, DAY, &["Anna", "Ben", "Cleo", "Dan"], &["1", "2"])
        .await;
    let old = v.pairings[0].clone();
    let replace = |words: &str| {
        server.director(v1::RuleOnPairingRequest {
            tournament_id: DAY.into(),
            key: old.key.clone(),
            words: words.into(),
            ruling: Some(v1::rule_on_pairing_request::Ruling::Replace(true)),
        })
    };
    dd.draws
        .rule_on_pairing(replace("the board was set up wrongly"))
        .await
        .expect("replaced");
    let now = dd.get(DAY).await;
    let new = now.pairings.iter().find(|p| p.key == old.key).unwrap();
    assert_ne!(new.match_id, old.match_id);
    assert_eq!(new.replaced, std::slice::from_ref(&old.match_id));
    let e = d
        .try_act(&old.match_id, Action::CheckIn(v1::Side::A as i32))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    let by = format!("replaced by match {}", new.match_id);
    assert!(e.message().contains(&by), "{}", e.message());
    // Nor is a player renamed in it.
    let rename = v1::RenamePlayerRequest {
        match_id: old.match_id.clone(),
        side: v1::Side::B as i32,
        name: "Ben Smith".into(),
    };
    let e = d
        .matches
        .rename_player(d.with_token(rename))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{}", e.message());
    d.act(&new.match_id, Action::CheckIn(v1::Side::A as i32))
        .await;
    // Replaced again: the first log's refusal sends the director to the live one.
    dd.draws
        .rule_on_pairing(replace("the clock failed"))
        .await
        .expect("replaced again");
    let live = dd
        .get(DAY)
        .await
        .pairings
        .into_iter()
        .find(|p| p.key == old.key)
        .unwrap();
    let e = d
        .try_act(&old.match_id, Action::CheckIn(v1::Side::B as i32))
        .await
        .unwrap_err();
    let goes_on = format!("play goes on in {}", live.match_id);
    assert!(e.message().contains(&goes_on), "{}", e.message());
}
