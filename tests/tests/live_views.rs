//! The console's and the follow view's feeds stay live across a server restart.

use std::time::Duration;

use baffle_client::feed::{Feed, match_feed, tournament_feed};
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::{EPOCH, TestServer};
use tokio::sync::mpsc::Receiver;

/// The next feed item, within a bounded (real) time: the feeds retry once a second.
async fn next(feed: &mut Receiver<Feed>) -> Feed {
    tokio::time::timeout(Duration::from_secs(10), feed.recv())
        .await
        .expect("the feed answers")
        .expect("the feed is open")
}

/// Skips items until `want` holds.
async fn until(feed: &mut Receiver<Feed>, want: impl Fn(&Feed) -> bool) -> Feed {
    for _ in 0..100 {
        let f = next(feed).await;
        if want(&f) {
            return f;
        }
    }
    panic!("the feed never delivered what was expected");
}

#[tokio::test]
async fn feeds_reconnect_and_resume_after_a_server_restart() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    let mut tournament = tournament_feed(server.url(), "open".into());
    let mut follow = match_feed(server.url(), "m".into());
    assert!(matches!(next(&mut tournament).await, Feed::State(s) if s.match_id == "m"));
    assert!(matches!(next(&mut follow).await, Feed::State(s) if s.seq == 2));
    d.act("m", Action::CheckIn(A)).await;
    until(&mut follow, |f| matches!(f, Feed::State(s) if s.seq == 3)).await;

    let addr = server.addr;
    let (dir, time) = server.stop().await;
    let problem = until(&mut tournament, |f| matches!(f, Feed::Problem(_))).await;
    assert!(
        matches!(&problem, Feed::Problem(p) if p.contains("reconnecting")),
        "{problem:?}"
    );
    until(&mut follow, |f| matches!(f, Feed::Problem(_))).await;

    let server = TestServer::start_at(dir, time, addr).await;
    let mut d = Director::connect(&server).await;
    d.act("m", Action::CheckIn(B)).await;
    let Feed::State(s) = until(
        &mut tournament,
        |f| matches!(f, Feed::State(s) if s.present == [true, true]),
    )
    .await
    else {
        unreachable!()
    };
    assert_eq!(s.seq, 4);
    let Feed::State(s) = until(&mut follow, |f| matches!(f, Feed::State(s) if s.seq == 4)).await
    else {
        unreachable!()
    };
    assert_eq!(s.present, [true, true]);
    server.stop().await;
}
