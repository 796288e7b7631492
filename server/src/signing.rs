//! The server's signing key: every head sent to followers is signed with it, so a
//! follower who keeps the heads he saw can show anyone what the server showed him
//! (`baffle_core::audit::signed_head`, `docs/audit-log.md` "Signed heads and witnesses").
//!
//! Ed25519 (RFC 8032), whose signatures are deterministic: the same head signed twice
//! gives the same bytes. The secret is 32 random bytes in `<data-dir>/signing.key`
//! ([`crate::keys`]); its public half is published — in `Server.GetServerInfo`, on the
//! page, and in the `match.opened` record of every new match log.

use baffle_core::audit::Hash;
use baffle_core::audit::signed_head::statement;
use baffle_proto::v1;
use ed25519_dalek::{Signer, SigningKey};

/// Signs heads. See the [module documentation](self).
pub struct HeadSigner {
    key: SigningKey,
    public_hex: String,
}

impl HeadSigner {
    /// The signer whose Ed25519 secret key is `secret`.
    pub fn from_secret(secret: [u8; 32]) -> HeadSigner {
        let key = SigningKey::from_bytes(&secret);
        let public_hex = hex::encode(key.verifying_key().as_bytes());
        HeadSigner { key, public_hex }
    }

    /// The public key, 64 lower-case hex digits: what a witness checks signatures with.
    pub fn public_hex(&self) -> &str {
        &self.public_hex
    }

    /// The head `head` of `match_id`'s log of `length` records, signed.
    pub fn sign(&self, match_id: &str, length: u64, head: &Hash) -> v1::SignedHead {
        let signature = self.key.sign(&statement(match_id, length, head));
        v1::SignedHead {
            match_id: match_id.to_string(),
            length,
            head: head.to_string(),
            signature: hex::encode(signature.to_bytes()),
            signer: self.public_hex.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use baffle_core::audit::signed_head::SignedHead;

    #[test]
    fn a_signed_head_checks_with_the_public_key_only() {
        let signer = HeadSigner::from_secret([1; 32]);
        let head = Hash([2; 32]);
        let wire = signer.sign("m1", 3, &head);
        assert_eq!(wire.signer, signer.public_hex());
        let signed = SignedHead::from_hex(
            &wire.match_id,
            wire.length,
            &wire.head,
            &wire.signature,
            &wire.signer,
        )
        .unwrap();
        assert_eq!(signed.check(), Ok(()));
        let moved = SignedHead {
            length: 4,
            ..signed.clone()
        };
        assert!(moved.check().is_err(), "the length is signed");
        let other = SignedHead {
            match_id: "m2".into(),
            ..signed
        };
        assert!(other.check().is_err(), "the match is signed");
        assert_eq!(signer.sign("m1", 3, &head), wire, "deterministic");
    }
}
