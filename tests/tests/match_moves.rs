//! Moves in a match through the gRPC API (issue 23, docs/board.md): a match created with
//! moves recorded is played move by move — the director, the table's device or the
//! player whose roll it is sends each play — an illegal play is refused naming 4.2 (iii)
//! and changes nothing, and the game ends by itself with the board's result.

use baffle_core::backgammon::board::{
    Action as Recorded, Checkers, Position, legal_plays, parse_mat, replay_game, write_mat,
};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_tests::api::{A, B, Director, defaults, opening, roll};
use baffle_tests::seeded::SeededDice;
use baffle_tests::{EPOCH, TestServer, with_token};
use tonic::Code;

fn recorded_match(id: &str) -> v1::CreateMatchRequest {
    v1::CreateMatchRequest {
        tournament_id: "open".into(),
        match_id: id.into(),
        round: 1,
        table: "7".into(),
        player_a: "Anna".into(),
        player_b: "Ben".into(),
        length: 3,
        scheduled_start_ms: EPOCH.as_ms(),
        moves: v1::MovesSetting::Recorded as i32,
        ..Default::default()
    }
}

fn mv(side: i32, play: &str) -> Action {
    Action::Move(v1::Move {
        side,
        play: play.into(),
    })
}

/// The position in a state's board, seen from `side`.
fn seen_by(board: &v1::Board, side: i32) -> Position {
    let checkers = |v: &[u32]| -> Checkers {
        let mut c = [0u8; 25];
        for (i, n) in v.iter().enumerate() {
            c[i] = u8::try_from(*n).unwrap();
        }
        c
    };
    let a = Position::new(checkers(&board.checkers_a), checkers(&board.checkers_b)).unwrap();
    if side == A { a } else { a.swap() }
}

async fn seated(server: &TestServer, id: &str) -> Director {
    let mut d = Director::connect(server).await;
    d.tournament("open", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    let s = d.create(recorded_match(id)).await;
    assert!(s.board.is_none(), "no board before the first game");
    d.act(id, Action::CheckIn(A)).await;
    let s = d.act(id, Action::CheckIn(B)).await;
    assert!(s.board.is_none());
    d
}

#[tokio::test]
async fn rule_4_2_iii_an_illegal_move_is_refused_and_changes_nothing() {
    let server = TestServer::start().await;
    let mut d = seated(&server, "m").await;
    let s = d.act("m", opening(3, 1)).await;
    assert_eq!((s.turn_side, s.dice.as_slice()), (A, [3, 1].as_slice()));
    let board = s.board.expect("a match that records moves shows its board");
    assert_eq!(board.pips, [167, 167]);
    assert_eq!(board.gnubg_position_id, "4HPwATDgc/ABMA");
    let msg = d
        .refused("m", mv(A, "24/18"), Code::FailedPrecondition)
        .await;
    assert!(
        msg.contains("4.2 (iii)") && msg.contains("not a legal play of 3-1"),
        "{msg}"
    );
    let msg = d.refused("m", mv(A, "24-18"), Code::InvalidArgument).await;
    assert!(msg.contains("from/to"), "{msg}");
    let msg = d
        .refused("m", Action::Press(A), Code::FailedPrecondition)
        .await;
    assert!(msg.contains("sends his move before pressing"), "{msg}");
    let before = d.state("m").await;
    assert_eq!(before.board.as_ref().unwrap().pips, [167, 167]);
    let s = d.act("m", mv(A, "6/5 8/5")).await;
    let board = s.board.unwrap();
    assert_eq!(board.pips, [163, 167]);
    assert!(board.moved);
    assert_eq!(s.seq, before.seq + 1, "one record: the move");
    // A concession of a gammon while contact remains is allowed; with moves recorded the
    // result is not declared by hand.
    let msg = d
        .refused(
            "m",
            Action::EndGame(baffle_tests::api::result(A, v1::WinKind::Single)),
            Code::FailedPrecondition,
        )
        .await;
    assert!(msg.contains("4.5"), "{msg}");
}

#[tokio::test]
async fn a_player_sends_his_own_moves_and_nothing_else() {
    let server = TestServer::start().await;
    let mut d = seated(&server, "p").await;
    let codes = baffle_tests::seeds::player_codes(&server, "p").await;
    d.act("p", opening(3, 1)).await;
    let mut matches = v1::matches_client::MatchesClient::new(server.channel().await);
    let send = |action: Action| v1::ExecuteRequest {
        match_id: "p".into(),
        command: Some(v1::Command {
            action: Some(action),
        }),
        ..Default::default()
    };
    // Ben's code cannot move for Anna, nor press for her; Anna's can move for her.
    for (code, action) in [
        (&codes.code_b, mv(A, "8/5 6/5")),
        (&codes.code_a, Action::Press(A)),
        (&codes.code_a, mv(B, "8/5 6/5")),
    ] {
        let e = matches
            .execute(with_token(send(action), code))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::PermissionDenied, "{}", e.message());
    }
    let reply = matches
        .execute(with_token(send(mv(A, "8/5 6/5")), &codes.code_a))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(reply.state.unwrap().board.unwrap().pips, [163, 167]);
}

#[tokio::test]
async fn rule_1_7_the_adjudication_help_is_the_directors_alone() {
    let server = TestServer::start().await;
    let mut d = seated(&server, "h").await;
    let mut matches = v1::matches_client::MatchesClient::new(server.channel().await);
    let ask = || v1::AdjudicateRequest {
        match_id: "h".into(),
    };
    // Before the opening roll there is nothing to adjudicate.
    let e = matches
        .adjudicate(server.director(ask()))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{}", e.message());
    d.act("h", opening(3, 1)).await;
    // A player (his code) and anyone without a token are refused; the director is told.
    let codes = baffle_tests::seeds::player_codes(&server, "h").await;
    let e = matches
        .adjudicate(with_token(ask(), &codes.code_a))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{}", e.message());
    let e = matches.adjudicate(ask()).await.unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated, "{}", e.message());
    let help = matches
        .adjudicate(server.director(ask()))
        .await
        .unwrap()
        .into_inner();
    // A moves with 3-1 in the starting position: contact, nothing certain, all possible.
    assert_eq!(help.next, A);
    assert_eq!(help.dice, [3, 1]);
    assert_eq!(help.certain_winner, 0);
    assert_eq!(help.gammon_possible, [true, true]);
    assert_eq!(help.backgammon_possible, [true, true]);
    // Once A has moved, B is the next to roll (A's press only ends the turn).
    d.act("h", mv(A, "8/5 6/5")).await;
    let help = matches
        .adjudicate(server.director(ask()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((help.next, help.dice.len()), (B, 0));
}

#[tokio::test]
async fn rule_4_5_a_recorded_game_played_through_the_api_ends_by_itself() {
    let server = TestServer::start().await;
    let mut d = seated(&server, "g").await;
    let mut dice = SeededDice(2026);
    let mut s = d.act("g", opening(4, 2)).await;
    let mut turns = 0;
    // The board's adjudication help, the director's (1.7), as first claimed: the game
    // must bear it out.
    let mut matches = v1::matches_client::MatchesClient::new(server.channel().await);
    let (mut claimed_winner, mut no_gammon_for) = (None, [false; 2]);
    while s.phase == v1::MatchPhase::Playing as i32 {
        let help = matches
            .adjudicate(server.director(v1::AdjudicateRequest {
                match_id: "g".into(),
            }))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(help.seq, s.seq, "the help is of the state just read");
        if help.certain_winner != 0 && claimed_winner.is_none() {
            claimed_winner = Some(help.certain_winner);
        }
        for (i, possible) in help.gammon_possible.iter().enumerate() {
            no_gammon_for[i] |= !possible;
        }
        // A second between commands, on the server's injected clock: within the delay,
        // and under the per-match command rate.
        server.time.advance(1_000);
        let side = s.turn_side;
        if s.turn == v1::TurnPhase::OnRoll as i32 {
            s = d
                .act(
                    "g",
                    roll(side, u32::from(dice.die()), u32::from(dice.die())),
                )
                .await;
            continue;
        }
        assert_eq!(s.turn, v1::TurnPhase::Moving as i32);
        let board = s.board.clone().unwrap();
        let rolled = [s.dice[0] as u8, s.dice[1] as u8];
        let plays = legal_plays(&seen_by(&board, side), rolled).unwrap();
        let play = plays[usize::from(dice.die()) % plays.len()].to_string();
        turns += 1;
        if play.is_empty() {
            // No legal play: the press records the empty move.
            s = d.act("g", Action::Press(side)).await;
            continue;
        }
        s = d.act("g", mv(side, &play)).await;
        if s.phase == v1::MatchPhase::Playing as i32 {
            server.time.advance(1_000);
            s = d.act("g", Action::Press(side)).await;
        }
        assert!(turns < 1_000, "the game never ended");
    }
    let board = s.board.unwrap();
    let winner = if board.borne_off[0] == 15 { A } else { B };
    let loser_off = board.borne_off[if winner == A { 1 } else { 0 }];
    let (score_w, score_l) = if winner == A {
        (s.score_a, s.score_b)
    } else {
        (s.score_b, s.score_a)
    };
    // The board's result: a single game if the loser bore off a checker, else 2 or 3.
    assert!(score_w >= 1 && score_l == 0);
    if loser_off > 0 {
        assert_eq!(score_w, 1);
    } else {
        assert!(score_w >= 2);
    }
    assert_ne!(s.phase, v1::MatchPhase::Playing as i32);
    if let Some(w) = claimed_winner {
        assert_eq!(w, winner, "a certain win claimed for the loser");
    }
    if no_gammon_for[if winner == A { 0 } else { 1 }] {
        assert_eq!(score_w, 1, "a gammon said impossible was won");
    }

    // Exported as gnubg reads it: the .mat replays through the board to the same result.
    let export = |format: v1::ExportFormat| v1::ExportMatchRequest {
        match_id: "g".into(),
        format: format as i32,
    };
    let mat = matches
        .export_match(export(v1::ExportFormat::Mat))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(mat.file_name, "g.mat");
    let record = parse_mat(&mat.text).unwrap();
    assert_eq!(record.players, ["Anna".to_string(), "Ben".to_string()]);
    // In gnubg's layout (docs/board.md): it reads and writes back the same bytes, the
    // match's day as gnubg's EventDate line, every roll the higher die first.
    assert_eq!(write_mat(&record), mat.text);
    assert!(mat.text.starts_with("; [EventDate \""), "{}", mat.text);
    assert!(
        record
            .games
            .iter()
            .flat_map(|g| &g.actions)
            .all(|a| !matches!(a, Recorded::Roll { dice, .. } if dice[0] < dice[1]))
    );
    let replayed = replay_game(&record.games[0], 1).unwrap();
    let winner_player = if winner == A { 0 } else { 1 };
    assert_eq!(
        replayed.result.map(|r| (r.winner, r.points)),
        Some((winner_player, score_w))
    );
    assert_eq!(replayed.plays, turns);
    let sgf = matches
        .export_match(export(v1::ExportFormat::Sgf))
        .await
        .unwrap()
        .into_inner();
    assert!(sgf.text.starts_with("(;FF[4]GM[6]") && sgf.text.contains("MI[length:3][game:0]"));
    let who = if winner == A { 'W' } else { 'B' };
    assert!(
        sgf.text.contains(&format!("RE[{who}+{score_w}]")),
        "{}",
        sgf.text
    );
    eprintln!(
        "a recorded game through the API: {turns} turns, winner {winner}, {score_w} points; \
         certain winner claimed: {claimed_winner:?}, no gammon for: {no_gammon_for:?}"
    );
}

#[tokio::test]
async fn a_match_without_moves_has_nothing_to_export() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "plain", 3, EPOCH.as_ms()).await;
    d.act("plain", Action::CheckIn(A)).await;
    d.act("plain", Action::CheckIn(B)).await;
    d.act("plain", opening(3, 1)).await;
    let mut matches = v1::matches_client::MatchesClient::new(server.channel().await);
    let e = matches
        .export_match(v1::ExportMatchRequest {
            match_id: "plain".into(),
            format: v1::ExportFormat::Mat as i32,
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{}", e.message());
    assert!(e.message().contains("records no moves"), "{}", e.message());
    let e = matches
        .export_match(v1::ExportMatchRequest {
            match_id: "plain".into(),
            format: 9,
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
}

/// The offline verifier replays a log through the same fold: every recorded move is
/// re-checked against its roll, so a log whose move was forged to an illegal one (the
/// chain rebuilt around it) does not verify, and names 4.2 (iii).
#[tokio::test]
async fn the_verifier_rechecks_every_move_against_its_roll() {
    use baffle_core::audit::Chain;
    use baffle_core::audit::export::{Line, parse_line, to_jsonl};
    use baffle_core::audit::verify::verify_jsonl;

    let server = TestServer::start().await;
    let mut d = seated(&server, "v").await;
    d.act("v", opening(3, 1)).await;
    d.act("v", mv(A, "8/5 6/5")).await;
    server.time.advance(2_000);
    d.act("v", Action::Press(A)).await;
    d.act("v", roll(B, 6, 4)).await;
    d.act("v", mv(B, "24/14")).await;
    let log = baffle_client::audit::export_log(server.channel().await, "v")
        .await
        .unwrap();
    assert!(
        verify_jsonl(&log, None).problem.is_none(),
        "the log as written verifies"
    );
    // B's 6-4 played as 24/18 13/11 in the log: a 6 and a 2, not his roll.
    let mut chain = Chain::new();
    let mut forged_at = None;
    for line in log.lines() {
        let Ok(Line::Record(r)) = parse_line(line) else {
            continue;
        };
        let mut body = r.body.clone();
        if body.contains(r#""play":"24/14""#) {
            body = body.replace(r#""play":"24/14""#, r#""play":"24/18 13/11""#);
            forged_at = Some(r.seq);
        }
        chain.append(body);
    }
    let report = verify_jsonl(&to_jsonl(chain.records()), None);
    let problem = report.problem.expect("a forged move is caught");
    assert_eq!(problem.seq, forged_at, "{problem:?}");
    assert!(problem.reason.contains("4.2 (iii)"), "{}", problem.reason);
}

#[tokio::test]
async fn a_match_can_have_physical_dice_in_a_tournament_of_server_dice() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(120_000, None, v1::DiceSource::Server))
        .await;
    // The tournament's own: server dice, a reported throw refused.
    d.create(v1::CreateMatchRequest {
        match_id: "s".into(),
        ..recorded_match("s")
    })
    .await;
    // This match's: physical dice, the reported throw taken, no server roll. (Another
    // table of the round, another pair: a round has one match per pair.)
    d.create(v1::CreateMatchRequest {
        match_id: "p".into(),
        table: "8".into(),
        player_a: "Carla".into(),
        player_b: "Dan".into(),
        dice: v1::DiceSource::Physical as i32,
        ..recorded_match("p")
    })
    .await;
    for id in ["s", "p"] {
        d.act(id, Action::CheckIn(A)).await;
        d.act(id, Action::CheckIn(B)).await;
    }
    d.refused("s", opening(3, 1), Code::InvalidArgument).await;
    let s = d.act("p", opening(3, 1)).await;
    assert_eq!(s.dice, [3, 1]);
    d.refused(
        "p",
        baffle_tests::api::server_opening(),
        Code::InvalidArgument,
    )
    .await;
    // A value that is no dice source is refused, and nothing is created.
    let mut t = v1::tournaments_client::TournamentsClient::new(server.channel().await);
    let e = t
        .create_match(server.director(v1::CreateMatchRequest {
            match_id: "x".into(),
            table: "9".into(),
            player_a: "Eva".into(),
            player_b: "Finn".into(),
            dice: 7,
            ..recorded_match("x")
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{}", e.message());
    assert!(d.state_opt("x").await.is_none());
}

#[tokio::test]
async fn exports_and_adjudication_refuse_only_what_is_not_there_and_say_why() {
    let server = TestServer::start().await;
    let mut d = seated(&server, "e").await;
    let mut matches = v1::matches_client::MatchesClient::new(server.channel().await);
    let export = || v1::ExportMatchRequest {
        match_id: "e".into(),
        format: v1::ExportFormat::Mat as i32,
    };
    // Before the first game: nothing to export, said as such.
    let e = matches.export_match(export()).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{}", e.message());
    assert!(
        e.message().contains("no game has started"),
        "{}",
        e.message()
    );
    // A move before the first game: not "records no moves", which it does.
    let e = d
        .refused("e", mv(A, "8/5 6/5"), Code::FailedPrecondition)
        .await;
    assert!(e.contains("no game has started"), "{e}");
    // Right after the opening roll, no move yet: exported (the outside tester was told
    // "records no moves").
    d.act("e", opening(3, 1)).await;
    let mat = matches.export_match(export()).await.unwrap().into_inner();
    assert!(mat.text.contains(" Game 1"), "{}", mat.text);
    // Conceded at once: between games there is no game to adjudicate, and it says so.
    d.act(
        "e",
        Action::Concede(v1::GameResult {
            side: A,
            kind: v1::WinKind::Single as i32,
        }),
    )
    .await;
    let e = matches
        .adjudicate(server.director(v1::AdjudicateRequest {
            match_id: "e".into(),
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{}", e.message());
    assert!(e.message().contains("between games"), "{}", e.message());
    // A chess match takes no moves setting and no dice source: refused, nothing made.
    let mut t = v1::tournaments_client::TournamentsClient::new(server.channel().await);
    for (moves, dice) in [(v1::MovesSetting::Recorded as i32, 0), (0, 2)] {
        let e = t
            .create_match(server.director(v1::CreateMatchRequest {
                tournament_id: "open".into(),
                match_id: "c".into(),
                round: 1,
                table: "9".into(),
                player_a: "Anna".into(),
                player_b: "Boris".into(),
                scheduled_start_ms: EPOCH.as_ms(),
                chess: Some(v1::ChessMatchSettings {
                    control: Some((&baffle_core::clock::TimeControl::rapid()).into()),
                    games: 2,
                    ..Default::default()
                }),
                moves,
                dice,
                ..Default::default()
            }))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{}", e.message());
        assert!(d.state_opt("c").await.is_none());
    }
}
