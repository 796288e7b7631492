//! The director's command line, `baffle`, run in the test's process against a
//! [`TestServer`]: what he types, parsed by the real `Cli`, and what it answers.

use baffle_client::cli::Cli;
use baffle_client::run::{Outcome, run};
use clap::Parser;

use crate::TestServer;

/// `baffle --server <server> --token <director token> ARGS…`.
pub async fn baffle(server: &TestServer, args: &[&str]) -> Outcome {
    let mut all = vec![
        "baffle",
        "--server",
        &server.addr_url,
        "--token",
        &server.token,
    ];
    all.extend_from_slice(args);
    run(&Cli::try_parse_from(all).expect("valid arguments")).await
}
