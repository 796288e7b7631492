//! `baffle-device demo` plays whole matches through the device protocol.

use baffle_firmware_sim::demo::{DemoConfig, run};
use baffle_proto::v1;
use baffle_tests::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_plays_matches_to_the_end() {
    let server = TestServer::start().await;
    // No think time: the test clock stands still, so nobody's flag falls.
    let cfg = DemoConfig {
        tables: 2,
        length: 3,
        think_ms: (0, 0),
        ..DemoConfig::default()
    };
    let results = run(&server.url(), &server.token, cfg)
        .await
        .expect("the demo runs");
    assert_eq!(results.len(), 2);
    for r in &results {
        let s = &r.state;
        assert_eq!(s.phase, v1::MatchPhase::Over as i32, "{}", r.match_id);
        assert_eq!(s.result.as_ref().unwrap().how, "points");
        assert!(
            s.score_a >= 3 || s.score_b >= 3,
            "{} {}-{}",
            r.match_id,
            s.score_a,
            s.score_b
        );
        assert!(r.inputs > 10);
        // Every input went through the device protocol and is in the audited log.
        let log = baffle_client::audit::export_log(server.channel().await, &r.match_id)
            .await
            .unwrap();
        assert!(baffle_core::audit::verify::verify_jsonl(&log, None).is_ok());
        assert!(log.matches(r#"\"kind\":\"device.input\""#).count() as u64 >= r.inputs);
    }
    server.stop().await;
}
