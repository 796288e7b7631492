//! How a command reaches the server: the channel, the director's token on a request, and
//! the node that writes a match on a cluster.
//!
//! A connection that fails says why (the chain of sources tonic hides) and what to try.

use tonic::transport::Channel;
use tonic::{Request, Status};

use super::outcome::{Outcome, refused};
use crate::cli::Cli;
use crate::{connect, exit, words};

/// The director token: given, or read from the data directory.
pub fn token(cli: &Cli) -> Option<String> {
    cli.token.clone().or_else(|| {
        std::fs::read_to_string(cli.data_dir.join("director.token"))
            .ok()
            .map(|t| t.trim().to_string())
    })
}

/// `message` as a request, bearing `token` (the director's, or a player's code) if any.
pub(super) fn authed<T>(message: T, token: &Option<String>) -> Result<Request<T>, Outcome> {
    let mut request = Request::new(message);
    if let Some(t) = token {
        let value = format!("Bearer {t}")
            .parse()
            .map_err(|_| Outcome::failed(exit::USAGE, "baffle: the token is not text\n".into()))?;
        request.metadata_mut().insert("authorization", value);
    }
    Ok(request)
}

/// Sends a request aimed at one match over `channel` and, on a cluster, on to the node
/// that writes the match when the first answers UNAVAILABLE with `baffle-owner` (the
/// same request, the same request id: `docs/cluster.md`). A refusal is an outcome; no
/// answer within the request deadline (a frozen server or owner) is exit 3, saying which
/// node and that the command may or may not have been done.
pub(super) async fn to_owner<M, R, F, Fut>(
    channel: Channel,
    request: Request<M>,
    call: F,
) -> Result<R, Outcome>
where
    M: Clone,
    F: FnMut(Channel, Request<M>) -> Fut,
    Fut: std::future::Future<Output = Result<tonic::Response<R>, Status>>,
{
    connect::following_owner(channel, request, call)
        .await
        .map(tonic::Response::into_inner)
        .map_err(|status| match connect::no_answer(&status) {
            Some(why) => Outcome::failed(
                exit::CONNECTION,
                format!(
                    "baffle: {why}\n        the command may or may not have been done: \
                     look (`baffle match show`) before sending it again\n"
                ),
            ),
            None => refused(status),
        })
}

/// A channel to `--server`; when none can be opened, why and what to try (exit 3).
pub(super) async fn channel(cli: &Cli) -> Result<Channel, Outcome> {
    connect::connect(&cli.server).await.map_err(|e| {
        let why = connect::why_unreachable(&e);
        let hint = if connect::url(&cli.server).starts_with("https://") {
            words::say("cli-unreachable-hint-tls")
        } else {
            words::say("cli-unreachable-hint")
        };
        let args = [("server", cli.server.clone().into()), ("why", why.into())];
        Outcome::failed(
            exit::CONNECTION,
            format!(
                "baffle: {}\n        {hint}\n",
                words::say_with("cli-cannot-reach", &args)
            ),
        )
    })
}

/// `match_id` as it stands (`Tournaments.GetMatch`, no token needed).
pub(super) async fn match_state(
    channel: Channel,
    match_id: &str,
) -> Result<baffle_proto::v1::MatchState, Outcome> {
    Ok(
        baffle_proto::v1::tournaments_client::TournamentsClient::new(channel)
            .get_match(baffle_proto::v1::GetMatchRequest {
                match_id: match_id.to_string(),
            })
            .await
            .map_err(super::outcome::refused)?
            .into_inner(),
    )
}
