//! The contract every [`EventStore`] keeps, as functions any store can be run through:
//! the sled and memory stores in their unit tests, the PostgreSQL store against a real
//! server in `tests/tests/pg_store.rs`. Each takes a fresh, empty store and panics,
//! naming what broke, if the store does not keep its word.

use super::{EventStore, Receipt, StoreError};

fn recs(xs: &[&str]) -> Vec<Vec<u8>> {
    xs.iter().map(|x| x.as_bytes().to_vec()).collect()
}

/// Runs every check of the contract, one after the other, on `store` (fresh and empty).
pub async fn all<S: EventStore + Clone>(store: &S) {
    appends_at_the_expected_position_only(store).await;
    a_receipt_is_stored_with_its_records_or_not_at_all(store).await;
    lengths_and_names_that_extend_others(store).await;
    concurrent_appends_each_land_once(store).await;
}

/// An append lands only at the stream's length; reads see exactly what was appended.
pub async fn appends_at_the_expected_position_only<S: EventStore>(store: &S) {
    assert_eq!(
        store.append("c1/m1", 0, recs(&["a", "b"])).await.unwrap(),
        2
    );
    assert_eq!(store.append("c1/m1", 2, recs(&["c"])).await.unwrap(), 3);
    let stale = store.append("c1/m1", 2, recs(&["x"])).await.unwrap_err();
    assert!(
        matches!(
            stale,
            StoreError::Conflict {
                expected: 2,
                actual: 3
            }
        ),
        "a stale append: {stale}"
    );
    let ahead = store.append("c1/m1", 5, recs(&["x"])).await.unwrap_err();
    assert!(matches!(
        ahead,
        StoreError::Conflict {
            expected: 5,
            actual: 3
        }
    ));
    assert_eq!(store.read("c1/m1", 0, 10).unwrap(), recs(&["a", "b", "c"]));
    assert_eq!(store.read("c1/m1", 1, 1).unwrap(), recs(&["b"]));
    assert_eq!(store.read("c1/m1", 3, 10).unwrap(), Vec::<Vec<u8>>::new());
    assert_eq!(store.read("c1/none", 0, 10).unwrap(), Vec::<Vec<u8>>::new());
    assert_eq!(store.len("c1/m1").unwrap(), 3);
    assert_eq!(store.len("c1/none").unwrap(), 0);
    // A refused append to a new stream does not make the stream exist.
    assert!(store.append("c1/ghost", 1, recs(&["x"])).await.is_err());
    assert!(!store.streams().unwrap().contains(&"c1/ghost".to_string()));
}

/// Issue 18 (4): a receipt is stored with its records, per stream, or not at all.
pub async fn a_receipt_is_stored_with_its_records_or_not_at_all<S: EventStore>(store: &S) {
    let receipt = |key: &str, value: &str| {
        Some(Receipt {
            key: key.into(),
            value: value.as_bytes().to_vec(),
        })
    };
    store
        .append_with_receipt("c2/m1", 0, recs(&["a"]), receipt("fix-42", "reply"))
        .await
        .unwrap();
    let refused = store
        .append_with_receipt("c2/m1", 0, recs(&["b"]), receipt("fix-43", "other"))
        .await;
    assert!(matches!(refused, Err(StoreError::Conflict { .. })));
    assert_eq!(store.receipt("c2/m1", "fix-43").unwrap(), None);
    assert_eq!(
        store.receipt("c2/m2", "fix-42").unwrap(),
        None,
        "per stream"
    );
    assert_eq!(
        store.receipt("c2/m1", "fix-42").unwrap(),
        Some(b"reply".to_vec())
    );
    assert_eq!(store.len("c2/m1").unwrap(), 1, "a receipt is not a record");
    // A receipt under a key the stream has replaces it.
    store
        .append_with_receipt("c2/m1", 1, recs(&["b"]), receipt("fix-42", "again"))
        .await
        .unwrap();
    assert_eq!(
        store.receipt("c2/m1", "fix-42").unwrap(),
        Some(b"again".to_vec())
    );
}

/// Lengths come from the records; a name that extends another's sees only its own.
pub async fn lengths_and_names_that_extend_others<S: EventStore>(store: &S) {
    store.append("c3/m", 0, recs(&["a", "b"])).await.unwrap();
    store
        .append("c3/m1", 0, recs(&["x", "y", "z", "w"]))
        .await
        .unwrap();
    store.append("c3/l", 0, recs(&["q"])).await.unwrap();
    assert_eq!(store.len("c3/m").unwrap(), 2);
    assert_eq!(store.len("c3/m1").unwrap(), 4);
    assert_eq!(store.read("c3/m", 0, 10).unwrap(), recs(&["a", "b"]));
    let names: Vec<String> = store
        .streams()
        .unwrap()
        .into_iter()
        .filter(|s| s.starts_with("c3/"))
        .collect();
    assert_eq!(names, ["c3/l", "c3/m", "c3/m1"], "in name order");
}

/// 200 writers on 50 streams, each retrying on conflict: every append lands exactly once.
pub async fn concurrent_appends_each_land_once<S: EventStore + Clone>(store: &S) {
    let tasks: Vec<_> = (0..200u32)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let stream = format!("c4/m{}", i % 50);
                loop {
                    let at = store.len(&stream).unwrap();
                    match store
                        .append(&stream, at, vec![i.to_be_bytes().to_vec()])
                        .await
                    {
                        Ok(_) => break,
                        Err(StoreError::Conflict { .. }) => tokio::task::yield_now().await,
                        Err(e) => panic!("{e}"),
                    }
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    let mut seen: Vec<u32> = (0..50)
        .flat_map(|i| store.read(&format!("c4/m{i}"), 0, 100).unwrap())
        .map(|r| u32::from_be_bytes(r.try_into().unwrap()))
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..200).collect::<Vec<_>>(), "each append once");
}
