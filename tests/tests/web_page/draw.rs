//! A tournament's draw on the phone page, the wall and paper (`server/web/draw.js`), in a
//! real Chromium (`tests/web/draw.mjs`): a 16-player knockout with a consolation made
//! through `Draws`, a few results confirmed by the director (4.6) so the bracket has
//! winners and round 2 matches of its own, then the bracket, a winner, the next round, a
//! result arriving live through `WatchDraw`, a player's path, the proof, the link from the
//! tournament, the wall, and the three print pages printed to PDF by Chromium.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::draws_client::DrawsClient;
use baffle_proto::v1::update_entrant_request::Action as Entrant;
use baffle_tests::TestServer;
use baffle_tests::api::{B, Director, defaults};
use tonic::transport::Channel;

use super::{Script, browser_tools_or_skip};

const NAMES: [&str; 16] = [
    "Anna Alexiou",
    "Ben Brown",
    "Chloe Carter",
    "Dimitris Doukas",
    "Eva Evans",
    "Fotis Fragos",
    "Gina Grant",
    "Hector Hill",
    "Irene Ioannou",
    "Jack Jones",
    "Katerina Kotsou",
    "Leo Lambert",
    "Maria Markou",
    "Nikos Nikolaou",
    "Olga Orlova",
    "Petros Pappas",
];

async fn get(draws: &mut DrawsClient<Channel>) -> v1::DrawView {
    get_of(draws, "cup").await
}

async fn get_of(draws: &mut DrawsClient<Channel>, id: &str) -> v1::DrawView {
    draws
        .get_draw(v1::GetDrawRequest {
            tournament_id: id.into(),
        })
        .await
        .unwrap()
        .into_inner()
}

fn pairing<'a>(d: &'a v1::DrawView, key: &str) -> Option<&'a v1::Pairing> {
    d.pairings.iter().find(|p| p.key == key)
}

/// Side B of `key`'s match forfeits it (a director's decision) and the director
/// confirms the result (4.6); then waits until the draw has recorded it.
async fn decide(d: &mut Director, draws: &mut DrawsClient<Channel>, key: &str) {
    decide_in(d, draws, "cup", key).await;
}

async fn decide_in(d: &mut Director, draws: &mut DrawsClient<Channel>, t: &str, key: &str) {
    let id = pairing(&get_of(draws, t).await, key)
        .unwrap()
        .match_id
        .clone();
    d.act(&id, Action::ForfeitMatch(B)).await;
    d.act(&id, Action::ConfirmResult(v1::Empty {})).await;
    for _ in 0..100 {
        if pairing(&get_of(draws, t).await, key).unwrap().state == v1::PairingState::Decided as i32
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("{key}'s confirmed result never reached the draw");
}

/// "cup": 16 players in a knockout with a consolation, 3-point matches at 8 tables,
/// main rounds 1 and 2 started; M1-1 and M1-2 decided (side A wins each), so M2-1 is
/// created by itself.
async fn cup(server: &TestServer) -> (Director, DrawsClient<Channel>) {
    let plan = v1::DrawPlan {
        format: v1::DrawFormat::Knockout as i32,
        flights: v1::Flights::Consolation as i32,
        length: 3,
        ..Default::default()
    };
    let (mut d, mut draws) = drawn(server, "cup", plan, &NAMES, &[1, 2]).await;
    for key in ["M1-1", "M1-2"] {
        decide(&mut d, &mut draws, key).await;
    }
    (d, draws)
}

/// Tournament `id` drawn as `plan` with `names`, each checked in, and the main's
/// `rounds` started.
async fn drawn(
    server: &TestServer,
    id: &str,
    plan: v1::DrawPlan,
    names: &[&str],
    rounds: &[u32],
) -> (Director, DrawsClient<Channel>) {
    let mut d = Director::connect(server).await;
    d.tournament(id, defaults(120_000, None, v1::DiceSource::Physical))
        .await;
    let mut draws = DrawsClient::new(server.channel().await);
    draws
        .open_draw(d.with_token(v1::OpenDrawRequest {
            tournament_id: id.into(),
            plan: Some(plan),
            tables: (1..=8).map(|n| n.to_string()).collect(),
        }))
        .await
        .expect("draw opened");
    let entrants = names
        .iter()
        .map(|n| v1::EntrantDetails {
            name: (*n).into(),
            ..Default::default()
        })
        .collect();
    let view = draws
        .register_entrants(d.with_token(v1::RegisterEntrantsRequest {
            tournament_id: id.into(),
            entrants,
            approve: true,
        }))
        .await
        .expect("entrants registered")
        .into_inner();
    for e in view.entrants {
        draws
            .update_entrant(d.with_token(v1::UpdateEntrantRequest {
                tournament_id: id.into(),
                entrant: e.number,
                action: Some(Entrant::CheckIn(true)),
            }))
            .await
            .expect("checked in");
    }
    draws
        .make_draw(d.with_token(v1::MakeDrawRequest {
            tournament_id: id.into(),
            ..Default::default()
        }))
        .await
        .expect("the draw made");
    for &round in rounds {
        draws
            .start_round(d.with_token(v1::StartRoundRequest {
                tournament_id: id.into(),
                flight: v1::Flight::Main as i32,
                round,
                start_ms: 0,
            }))
            .await
            .expect("round started");
    }
    (d, draws)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_draw_is_on_the_page_the_wall_and_paper() {
    let Some((browser, chromium)) = browser_tools_or_skip() else {
        return;
    };
    let script = browser.with_file_name("draw.mjs");
    let shots = std::env::var("BAFFLE_WEB_SCREENSHOT_DIR").unwrap_or_default();
    let server = TestServer::start().await;
    let (mut d, mut draws) = cup(&server).await;
    let view = get(&mut draws).await;
    let first = pairing(&view, "M1-1").unwrap().clone();
    let second = pairing(&view, "M1-2").unwrap().clone();
    // Round 2's first match was made by the server when both its players were known.
    let next = pairing(&view, "M2-1").expect("M2-1 made by itself").clone();
    assert_eq!(
        (next.name_a.as_str(), next.name_b.as_str()),
        (first.name_a.as_str(), second.name_a.as_str())
    );
    let surname = first.name_a.rsplit(' ').next().unwrap().to_lowercase();
    // Beside it a round robin of four, its first round started and one match decided.
    let plan = v1::DrawPlan {
        format: v1::DrawFormat::RoundRobin as i32,
        length: 3,
        ..Default::default()
    };
    let (mut d2, mut draws2) = drawn(&server, "league", plan, &NAMES[..4], &[1]).await;
    decide_in(&mut d2, &mut draws2, "league", "M1-1").await;
    let league = get_of(&mut draws2, "league").await;
    let mut page = Script::start(
        &script,
        &chromium,
        &[&server.url(), "cup", &surname, "league", &shots],
    );

    // The main draw's first round: 8 boxes, each with its pairing's names, in order.
    let round1: Vec<String> = (1..=8)
        .map(|i| {
            let p = pairing(&view, &format!("M1-{i}")).unwrap();
            format!("{} v {}", p.name_a, p.name_b)
        })
        .collect();
    assert_eq!(
        page.next().await,
        format!("ROUND1 8 | {}", round1.join("; "))
    );
    assert_eq!(page.next().await, "FLIGHTS M C | rounds 4 3");
    assert_eq!(
        page.next().await,
        format!("WINNER M1-1 {} | M1-2 {}", first.name_a, second.name_a)
    );
    assert_eq!(
        page.next().await,
        format!(
            "NEXT M2-1 {} v {} | #/m/{}",
            next.name_a, next.name_b, next.match_id
        )
    );
    assert_eq!(page.next().await, "FITS 390 | bracket scrolls true");
    // A result confirmed while the page is open arrives through WatchDraw.
    decide(&mut d, &mut draws, "M1-3").await;
    let third = pairing(&get(&mut draws).await, "M1-3").unwrap().clone();
    assert_eq!(page.talk("GO").await, format!("LIVE M1-3 {}", third.name_a));
    // His path: his win, then the match he plays now.
    assert_eq!(
        page.next().await,
        format!(
            "PATH {} | M1-1 won {}–{} against {} / M2-1 playing {} at table {}",
            first.name_a, first.score_a, first.score_b, first.name_b, second.name_a, next.table
        )
    );
    assert_eq!(
        page.next().await,
        format!("PROOF {} | {}", view.commitment, view.seed)
    );
    assert!(!view.seed.is_empty(), "the seed is revealed with the draw");
    assert_eq!(page.next().await, "LINK #/d/cup");
    assert_eq!(
        page.next().await,
        "EL Κλήρωση | Κύριο ταμπλό | Παρηγορητικό"
    );
    assert_eq!(page.next().await, "WALL 8 | 20+");
    // On paper: the draw sheet, a scoresheet per match not decided of the rounds started
    // (round 1's five, round 2's M2-1), the results; each printed to PDF by Chromium.
    let sheet = page.next().await;
    assert!(
        sheet.starts_with("PRINT draw | cup open — draw sheet | pages "),
        "{sheet}"
    );
    assert_eq!(
        page.next().await,
        "PRINT scoresheets | cup open — scoresheets | pages 6 | sheets M1-4 M1-5 M1-6 M1-7 M1-8 M2-1"
    );
    assert_eq!(
        page.next().await,
        "PRINT results | cup open — results | pages 1 | decided M1-1 M1-2 M1-3"
    );
    // The round robin: its table as the server ranks it, and each round's pairings (a
    // Berger table pairs every round at the draw: three for four players).
    let rows: Vec<String> = league
        .standings
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {}–{}",
                r.place, r.name, r.played, r.wins, r.losses
            )
        })
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(
        page.next().await,
        format!("STANDINGS {} | rounds 3", rows.join("; "))
    );
    page.end().await;
    server.stop().await;
}
