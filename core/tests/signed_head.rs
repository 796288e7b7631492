//! The signed statement of a head (`docs/audit-log.md`, "Signed heads and witnesses"),
//! pinned by a test vector: the statement is built here by hand, byte by byte, apart from
//! `signed_head::statement`, and the signature was reproduced outside Rust (OpenSSL's
//! Ed25519, through Python's `cryptography`).

use baffle_core::audit::Hash;
use baffle_core::audit::signed_head::{
    Equivocation, SignedHead, check_proof, find_equivocation, read_witness, statement,
};
use ed25519_dalek::{Signer, SigningKey};

/// The vector's secret key: the 32 bytes 00 01 … 1f.
fn vector_key() -> SigningKey {
    SigningKey::from_bytes(&std::array::from_fn(|i| i as u8))
}

const PUBLIC: &str = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8";
const STATEMENT: &str = "0000000e626166666c652d686561642d763100000014626166666c652d746573742d766563746f722d310000000000000003202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f";
const SIGNATURE: &str = "2bc6a1fdadc2507b494efd46cc505594ea296246d75561a66145ca678efbaa907602d9afd8deea61a9037f56efda012f8ac4cf9f2f2dab85f133a4356fe7d205";

/// The vector's head: the 32 bytes 20 21 … 3f.
fn vector_head() -> Hash {
    Hash(std::array::from_fn(|i| 0x20 + i as u8))
}

fn sign(key: &SigningKey, match_id: &str, length: u64, head: Hash) -> SignedHead {
    SignedHead {
        match_id: match_id.into(),
        length,
        head,
        signature: key.sign(&statement(match_id, length, &head)).to_bytes(),
        signer: key.verifying_key().to_bytes(),
    }
}

#[test]
fn the_signed_statement_matches_the_vector_built_by_hand() {
    // LP("baffle-head-v1") || LP("baffle-test-vector-1") || u64_be(3) || head.
    let mut by_hand = Vec::new();
    by_hand.extend_from_slice(&[0, 0, 0, 14]);
    by_hand.extend_from_slice(b"baffle-head-v1");
    by_hand.extend_from_slice(&[0, 0, 0, 20]);
    by_hand.extend_from_slice(b"baffle-test-vector-1");
    by_hand.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 3]);
    by_hand.extend((0x20u8..0x40).collect::<Vec<_>>());
    assert_eq!(hex::encode(&by_hand), STATEMENT);
    assert_eq!(
        statement("baffle-test-vector-1", 3, &vector_head()),
        by_hand
    );

    let key = vector_key();
    assert_eq!(hex::encode(key.verifying_key().as_bytes()), PUBLIC);
    assert_eq!(hex::encode(key.sign(&by_hand).to_bytes()), SIGNATURE);

    let line = format!(
        r#"{{"match_id":"baffle-test-vector-1","length":3,"head":"{}","signature":"{SIGNATURE}","signer":"{PUBLIC}"}}"#,
        vector_head()
    );
    let signed = SignedHead::parse_line(&line).unwrap();
    assert_eq!(signed.check(), Ok(()));
    assert_eq!(signed.to_line(), line, "one spelling");
}

#[test]
fn an_altered_statement_or_signature_does_not_check() {
    let key = vector_key();
    let good = sign(&key, "m1", 5, Hash([9; 32]));
    assert_eq!(good.check(), Ok(()));
    let mut bad_signature = good.clone();
    bad_signature.signature[10] ^= 1;
    assert!(bad_signature.check().is_err());
    for altered in [
        SignedHead {
            length: 6,
            ..good.clone()
        },
        SignedHead {
            head: Hash([8; 32]),
            ..good.clone()
        },
        SignedHead {
            match_id: "m2".into(),
            ..good.clone()
        },
        SignedHead {
            signer: SigningKey::from_bytes(&[7; 32]).verifying_key().to_bytes(),
            ..good.clone()
        },
    ] {
        assert!(altered.check().is_err(), "{altered:?}");
    }
    // Upper-case hex, a short signature, an unknown field: not a witness line.
    let line = good.to_line();
    for bad in [
        line.replace(&good.signer_hex(), &good.signer_hex().to_uppercase()),
        line.replace(
            &hex::encode(good.signature),
            &hex::encode(&good.signature[..63]),
        ),
        line.replace("}", r#","extra":1}"#),
    ] {
        assert!(SignedHead::parse_line(&bad).is_err(), "{bad}");
    }
}

#[test]
fn two_signed_heads_at_one_length_prove_two_histories() {
    let key = vector_key();
    let first = sign(&key, "m1", 4, Hash([1; 32]));
    let second = sign(&key, "m1", 4, Hash([2; 32]));
    let proof = Equivocation {
        first: first.clone(),
        second: second.clone(),
    };
    assert_eq!(proof.check(), Ok(()));
    assert!(proof.to_string().contains("two histories"));
    let checked = check_proof(&proof.to_text()).unwrap();
    assert_eq!(checked, proof);
    assert_eq!(read_witness(&proof.to_text()).unwrap().len(), 2);

    // Not a proof: the same head twice, other lengths, other keys, other matches, or a
    // tampered signature.
    let same = format!("{}\n{}\n", first.to_line(), first.to_line());
    assert!(check_proof(&same).unwrap_err().contains("same"));
    let later = sign(&key, "m1", 5, Hash([2; 32]));
    let lengths = format!("{}\n{}\n", first.to_line(), later.to_line());
    assert!(check_proof(&lengths).unwrap_err().contains("lengths"));
    let other_key = sign(&SigningKey::from_bytes(&[7; 32]), "m1", 4, Hash([2; 32]));
    let keys = format!("{}\n{}\n", first.to_line(), other_key.to_line());
    assert!(check_proof(&keys).unwrap_err().contains("keys"));
    let mut tampered = second.clone();
    tampered.signature[0] ^= 1;
    let forged = format!("{}\n{}\n", first.to_line(), tampered.to_line());
    assert!(check_proof(&forged).unwrap_err().contains("signature"));
    assert!(
        check_proof(&first.to_line()).is_err(),
        "one head proves nothing"
    );
    assert_eq!(find_equivocation(&[first, later, other_key]), None);
}

mod logs {
    use super::*;
    use baffle_core::Timestamp;
    use baffle_core::audit::export::to_jsonl;
    use baffle_core::audit::verify::{Expect, verify_expecting};
    use baffle_core::audit::{Chain, Record};
    use baffle_core::backgammon::MatchSetup;
    use baffle_core::dice::ServerSeed;
    use baffle_core::table::{GameSetup, MatchInfo, Replay, Table, TableOptions};

    fn created(match_id: &str, signer: Option<String>) -> Vec<Record> {
        let info = MatchInfo {
            id: match_id.into(),
            tournament: "t".into(),
            round: 1,
            table: "1".into(),
        };
        let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 3, Timestamp(0)));
        let seed = ServerSeed::from_bytes([3; 32]);
        let options = TableOptions {
            signer,
            ..TableOptions::default()
        };
        Table::create_with_options(info, setup, options, seed)
            .unwrap()
            .1
    }

    fn export(records: &[Record]) -> String {
        let mut chain = Chain::new();
        records.iter().for_each(|r| {
            chain.append(r.body.clone());
        });
        to_jsonl(chain.records())
    }

    #[test]
    fn match_opened_names_the_signer_and_old_logs_keep_their_spelling() {
        let records = created("m1", Some(PUBLIC.into()));
        assert!(
            records[0]
                .body
                .ends_with(&format!(r#","signer":"{PUBLIC}"}}"#)),
            "{}",
            records[0].body
        );
        let table = Replay::run(&records, None).unwrap();
        assert_eq!(table.signer(), Some(PUBLIC));
        let unsigned = created("m1", None);
        assert!(!unsigned[0].body.contains("signer"), "{}", unsigned[0].body);
        assert_eq!(Replay::run(&unsigned, None).unwrap().signer(), None);
        // A signer that is not 32 bytes of lower-case hex is refused.
        for bad in [PUBLIC.to_uppercase(), PUBLIC[..62].to_string()] {
            let body = records[0].body.replace(PUBLIC, &bad);
            let forged = Record::next(None, body);
            let refused = Replay::new(None).push(&forged).unwrap_err();
            assert!(refused.reason.contains("signer"), "{refused}");
        }
    }

    #[test]
    fn the_verifier_checks_a_witness_against_the_log() {
        let key = vector_key();
        let records = created("m1", Some(PUBLIC.into()));
        let text = export(&records);
        let expect = |heads: Vec<SignedHead>| Expect {
            signed_heads: heads,
            ..Expect::default()
        };
        let on_chain = sign(&key, "m1", 1, records[0].hash);
        let head = sign(&key, "m1", 2, records[1].hash);
        let report = verify_expecting(&text, &expect(vec![on_chain.clone(), head.clone()]));
        assert!(report.is_ok(), "{report}");
        assert!(
            report
                .to_string()
                .contains("through all 2 heads the server signed")
        );

        // A head of another history, signed by the same key.
        let elsewhere = sign(&key, "m1", 2, Hash([5; 32]));
        let report = verify_expecting(&text, &expect(vec![elsewhere.clone()]));
        let why = report.problem.unwrap().reason;
        assert!(why.contains("not the history the server signed"), "{why}");
        assert!(why.contains(&elsewhere.to_line()), "{why}");
        // Both heads at one length: the proof, printed for anyone to check.
        let report = verify_expecting(&text, &expect(vec![head.clone(), elsewhere.clone()]));
        let why = report.problem.unwrap().reason;
        assert!(why.contains("two histories"), "{why}");
        assert!(why.contains(&head.to_line()) && why.contains(&elsewhere.to_line()));
        // Longer than the log.
        let ahead = sign(&key, "m1", 3, Hash([6; 32]));
        let why = verify_expecting(&text, &expect(vec![ahead]))
            .problem
            .unwrap()
            .reason;
        assert!(
            why.contains("shorter than a head the server signed"),
            "{why}"
        );
        // Another key's head, a tampered signature, another match.
        let stranger = sign(&SigningKey::from_bytes(&[7; 32]), "m1", 2, records[1].hash);
        let why = verify_expecting(&text, &expect(vec![stranger]))
            .problem
            .unwrap()
            .reason;
        assert!(why.contains("not the one that server showed"), "{why}");
        let mut tampered = head.clone();
        tampered.signature[3] ^= 1;
        let why = verify_expecting(&text, &expect(vec![tampered]))
            .problem
            .unwrap()
            .reason;
        assert!(why.contains("signature"), "{why}");
        let other_match = sign(&key, "m2", 2, records[1].hash);
        let why = verify_expecting(&text, &expect(vec![other_match]))
            .problem
            .unwrap()
            .reason;
        assert!(why.contains("of match m2"), "{why}");
        // An old log names no signer: a witness cannot be checked against it, but the
        // log itself verifies as before.
        let old = export(&created("m1", None));
        assert!(verify_expecting(&old, &Expect::default()).is_ok());
        let why = verify_expecting(&old, &expect(vec![head]))
            .problem
            .unwrap()
            .reason;
        assert!(why.contains("names no key"), "{why}");
    }
}
