//! A player's part in the dice as a client that read `docs/dice.md` plays it: a secret
//! (seed and salt), the commitment of construction 2 bound to the server's commitment,
//! and the requests that commit and reveal it.

use baffle_core::Side;
use baffle_core::dice::{Commitment, player_commitment_v2};
use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use tonic::transport::Channel;

/// What a player's client keeps between his commitment and his reveal.
#[derive(Clone, Debug)]
pub struct Secret {
    /// 16 to 64 bytes.
    pub seed: Vec<u8>,
    /// 32 bytes.
    pub salt: [u8; 32],
}

impl Secret {
    /// A secret whose seed is `seed` padded (or cut) to 32 bytes, with a salt of `salt`
    /// repeated: fixed values, for tests that name them.
    pub fn named(seed: &[u8], salt: u8) -> Secret {
        let mut bytes = [b'.'; 32];
        let n = seed.len().min(32);
        bytes[..n].copy_from_slice(&seed[..n]);
        Secret {
            seed: bytes.to_vec(),
            salt: [salt; 32],
        }
    }
}

/// The server's commitment of `match_id` (no token needed).
pub async fn server_commitment(channel: Channel, match_id: &str) -> Commitment {
    let hex = AuditClient::new(channel)
        .get_commitment(v1::GetCommitmentRequest {
            match_id: match_id.into(),
        })
        .await
        .expect("the commitment is public")
        .into_inner()
        .commitment;
    Commitment(hex::decode(hex).unwrap().try_into().unwrap())
}

/// The wire side of `side`.
fn wire(side: Side) -> i32 {
    baffle_proto::convert::side_to_wire(side) as i32
}

/// The commitment request of `side`'s `secret` in `match_id`.
pub fn commit_request(
    server: &Commitment,
    match_id: &str,
    side: Side,
    secret: &Secret,
) -> v1::CommitPlayerSeedRequest {
    v1::CommitPlayerSeedRequest {
        match_id: match_id.into(),
        side: wire(side),
        commitment: player_commitment_v2(server, match_id, side, &secret.salt, &secret.seed)
            .to_vec(),
    }
}

/// The reveal request of `side`'s `secret` in `match_id`.
pub fn reveal_request(match_id: &str, side: Side, secret: &Secret) -> v1::SubmitPlayerSeedRequest {
    v1::SubmitPlayerSeedRequest {
        match_id: match_id.into(),
        side: wire(side),
        seed: secret.seed.clone(),
        salt: Some(secret.salt.to_vec()),
    }
}

/// Both players of `match_id` commit to a seed (codes issued by the director) and only A
/// reveals his: the match waits for B's, due a reveal window after the second
/// commitment. Returns B's secret, for a test in which he reveals late.
pub async fn only_a_reveals(server: &crate::TestServer, match_id: &str) -> Secret {
    let mut audit = AuditClient::new(server.channel().await);
    let codes = player_codes(server, match_id).await;
    let published = server_commitment(server.channel().await, match_id).await;
    let (anna, ben) = (Secret::named(b"anna", 0x5a), Secret::named(b"ben", 0x5b));
    for (side, secret, code) in [
        (Side::A, &anna, &codes.code_a),
        (Side::B, &ben, &codes.code_b),
    ] {
        let request = commit_request(&published, match_id, side, secret);
        audit
            .commit_player_seed(crate::with_token(request, code))
            .await
            .expect("commitment taken");
    }
    let request = reveal_request(match_id, Side::A, &anna);
    audit
        .reveal_player_seed(crate::with_token(request, &codes.code_a))
        .await
        .expect("A's reveal taken");
    ben
}

/// The two players' codes of `match_id`, issued by the director (`Audit.IssuePlayerCodes`).
pub async fn player_codes(
    server: &crate::TestServer,
    match_id: &str,
) -> v1::IssuePlayerCodesResponse {
    AuditClient::new(server.channel().await)
        .issue_player_codes(server.director(v1::IssuePlayerCodesRequest {
            match_id: match_id.into(),
        }))
        .await
        .expect("codes issued")
        .into_inner()
}
