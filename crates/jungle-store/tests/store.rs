//! The store's contract on `memory://` and `file://`, and (when CI has
//! started an S3-compatible server and named it in `JUNGLE_TEST_S3_URL`)
//! on S3.

use jungle_store::{Lease, Store, StoreError};
use std::path::PathBuf;
use std::time::Duration;

fn temp_folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// What every kind of store must do.
fn contract(store: &Store) {
    // Absent, then written, then read back with the same bytes.
    assert!(store.get("runs/a/state.json").unwrap().is_none());
    store.put("runs/a/state.json", b"one".to_vec()).unwrap();
    assert_eq!(
        store.get("runs/a/state.json").unwrap().unwrap().bytes,
        b"one"
    );
    store.put("runs/a/state.json", b"two".to_vec()).unwrap();
    assert_eq!(
        store.get("runs/a/state.json").unwrap().unwrap().bytes,
        b"two"
    );

    // Create only once: the second create leaves the first's bytes.
    assert!(store
        .create("runs/a/shard-1.bin", b"first".to_vec())
        .unwrap()
        .is_some());
    assert!(store
        .create("runs/a/shard-1.bin", b"second".to_vec())
        .unwrap()
        .is_none());
    assert_eq!(
        store.get("runs/a/shard-1.bin").unwrap().unwrap().bytes,
        b"first"
    );

    // Listing: key order, only under the prefix, and after an offset.
    for k in [
        "runs/a/shard-3.bin",
        "runs/a/shard-2.bin",
        "runs/b/shard-1.bin",
    ] {
        store.create(k, k.as_bytes().to_vec()).unwrap().unwrap();
    }
    let keys: Vec<String> = store
        .list("runs/a")
        .unwrap()
        .into_iter()
        .map(|l| l.key)
        .collect();
    assert_eq!(
        keys,
        [
            "runs/a/shard-1.bin",
            "runs/a/shard-2.bin",
            "runs/a/shard-3.bin",
            "runs/a/state.json"
        ]
    );
    let after: Vec<String> = store
        .list_after("runs/a", "runs/a/shard-2.bin")
        .unwrap()
        .into_iter()
        .map(|l| l.key)
        .collect();
    assert_eq!(after, ["runs/a/shard-3.bin", "runs/a/state.json"]);
    let sizes: Vec<u64> = store
        .list("runs/b")
        .unwrap()
        .iter()
        .map(|l| l.size)
        .collect();
    assert_eq!(sizes, ["runs/b/shard-1.bin".len() as u64]);

    store.delete("runs/a/shard-3.bin").unwrap();
    store.delete("runs/a/never-written").unwrap();
    assert!(store.get("runs/a/shard-3.bin").unwrap().is_none());

    // Many at once: in the keys' order, a missing one as None; a batch
    // delete that names a missing key too.
    let keys: Vec<String> = (0..40).map(|k| format!("runs/c/{k:03}.bin")).collect();
    for (k, key) in keys.iter().enumerate() {
        store.put(key, vec![k as u8; k]).unwrap();
    }
    let mut asked = keys.clone();
    asked.insert(7, "runs/c/missing.bin".to_string());
    let got = store.get_many(&asked).unwrap();
    assert_eq!(got.len(), 41);
    assert!(got[7].is_none());
    for (k, fetched) in got.iter().filter_map(|g| g.as_ref()).enumerate() {
        assert_eq!(fetched.bytes, vec![k as u8; k]);
    }
    store.delete_many(&asked).unwrap();
    assert!(store.list("runs/c").unwrap().is_empty());

    // A key that cannot be one is refused, naming the store.
    let err = store.put("runs//a", Vec::new()).unwrap_err().to_string();
    assert!(err.contains(&store.url().text), "{err}");
    assert!(err.contains("runs//a"), "{err}");
}

/// Conditional updates and the lease built on them.
fn updates_and_lease(store: &Store) {
    let v1 = store.put("runs/a/pointer", b"1".to_vec()).unwrap();
    let v2 = store
        .update("runs/a/pointer", b"2".to_vec(), &v1)
        .unwrap()
        .expect("at the version read");
    assert!(
        store
            .update("runs/a/pointer", b"3".to_vec(), &v1)
            .unwrap()
            .is_none(),
        "a stale version is refused"
    );
    assert_eq!(store.get("runs/a/pointer").unwrap().unwrap().bytes, b"2");
    assert!(store
        .update("runs/a/pointer", b"4".to_vec(), &v2)
        .unwrap()
        .is_some());

    let key = "runs/a/lease.json";
    let lasts = Duration::from_millis(1500);
    let mut first = Lease::acquire(store, key, "trainer-1", lasts).unwrap();
    match Lease::acquire(store, key, "trainer-2", lasts) {
        Err(StoreError::Held { owner, .. }) => assert_eq!(owner, "trainer-1"),
        other => panic!("expected Held, got {:?}", other.err()),
    }
    first.renew(store).unwrap();
    // Once it runs out, another owner takes it over, and the first one
    // learns that it lost it when it next renews.
    std::thread::sleep(lasts + Duration::from_millis(200));
    let second = Lease::acquire(store, key, "trainer-2", lasts).unwrap();
    match first.renew(store) {
        Err(StoreError::Lost { owner, .. }) => assert_eq!(owner, "trainer-2"),
        other => panic!("expected Lost, got {other:?}"),
    }
    // Released, it is free at once.
    second.release(store).unwrap();
    let third = Lease::acquire(store, key, "trainer-3", lasts).unwrap();
    assert_eq!(third.owner(), "trainer-3");

    // A foreign object where the lease should be is an error, not taken.
    store.put("runs/a/not-a-lease", b"{}".to_vec()).unwrap();
    let err = Lease::acquire(store, "runs/a/not-a-lease", "t", lasts)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("not a lease record"), "{err}");
}

#[test]
fn memory_stores_keep_the_contract() {
    let store = Store::open_url("memory://contract").unwrap();
    contract(&store);
    updates_and_lease(&store);
}

#[test]
fn memory_stores_of_one_name_are_shared_and_others_are_not() {
    let a = Store::open_url("memory://shared").unwrap();
    let b = Store::open_url("memory://shared").unwrap();
    let other = Store::open_url("memory://other").unwrap();
    a.put("k", b"v".to_vec()).unwrap();
    assert_eq!(b.get("k").unwrap().unwrap().bytes, b"v");
    assert!(other.get("k").unwrap().is_none());
}

#[test]
fn file_stores_keep_the_contract_in_the_folder_layout() {
    let dir = temp_folder("contract");
    let store = Store::open_url(&format!("file://{}", dir.display())).unwrap();
    contract(&store);
    // Keys are paths under the folder: the run's usual layout.
    assert_eq!(
        std::fs::read(dir.join("runs/a/shard-1.bin")).unwrap(),
        b"first"
    );
    assert!(!store.supports_update());
    assert_eq!(store.local_folder(), Some(dir.as_path()));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_file_store_that_cannot_be_made_names_its_url() {
    let file = temp_folder("blocked");
    std::fs::write(&file, b"a file, not a folder").unwrap();
    let url = format!("file://{}/runs", file.display());
    let err = Store::open_url(&url).err().expect("refused").to_string();
    assert!(err.contains(&url), "{err}");
    std::fs::remove_file(file).unwrap();
}

/// The same contract against a real S3-compatible server, when CI has
/// started one (`JUNGLE_TEST_S3_URL`, e.g. `s3://jungle-test/contract`,
/// with `AWS_ENDPOINT_URL` and credentials in the environment).
#[test]
fn s3_stores_keep_the_contract_when_a_server_is_given() {
    let Ok(url) = std::env::var("JUNGLE_TEST_S3_URL") else {
        eprintln!("JUNGLE_TEST_S3_URL not set: the S3 contract runs in CI (.ci/run)");
        return;
    };
    let store = Store::open_url(&url).unwrap();
    for listed in store.list("").unwrap() {
        store.delete(&listed.key).unwrap();
    }
    contract(&store);
    updates_and_lease(&store);
}

#[test]
fn an_unreachable_s3_endpoint_is_an_error_naming_the_url() {
    let url = jungle_store::StoreUrl::parse("s3://jungle-test/run").unwrap();
    let started = std::time::Instant::now();
    let err = Store::open_with(
        &url,
        &[
            ("aws_endpoint", "http://127.0.0.1:1"),
            ("aws_access_key_id", "test"),
            ("aws_secret_access_key", "test"),
            ("aws_region", "us-east-1"),
        ],
    )
    .err()
    .expect("nothing listens on port 1")
    .to_string();
    eprintln!("{err}");
    assert!(err.contains("s3://jungle-test/run"), "{err}");
    assert!(err.contains("cannot be reached"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "gave up after {:?}",
        started.elapsed()
    );
}

#[test]
fn an_unknown_store_setting_is_named() {
    let url = jungle_store::StoreUrl::parse("s3://b/p").unwrap();
    let err = Store::open_with(&url, &[("aws_colour", "blue")])
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("aws_colour") && err.contains("s3://b/p"),
        "{err}"
    );
    let url = jungle_store::StoreUrl::parse("memory://x").unwrap();
    assert!(Store::open_with(&url, &[("aws_region", "x")]).is_err());
}

/// Refused credentials and a missing bucket on the CI's S3 server.
#[test]
fn bad_credentials_and_a_missing_bucket_are_errors_naming_the_url() {
    let (Ok(url), Ok(endpoint)) = (
        std::env::var("JUNGLE_TEST_S3_URL"),
        std::env::var("AWS_ENDPOINT_URL"),
    ) else {
        eprintln!("JUNGLE_TEST_S3_URL not set: this runs in CI (.ci/run)");
        return;
    };
    let parsed = jungle_store::StoreUrl::parse(&url).unwrap();
    let err = Store::open_with(
        &parsed,
        &[
            ("aws_access_key_id", "not-a-key"),
            ("aws_secret_access_key", "not-a-secret"),
        ],
    )
    .err()
    .expect("wrong credentials are refused")
    .to_string();
    eprintln!("{err}");
    assert!(err.contains(&url), "{err}");
    assert!(err.contains("check the credentials"), "{err}");
    let missing = jungle_store::StoreUrl::parse("s3://no-such-bucket-here/run").unwrap();
    let err = Store::open_with(&missing, &[("aws_endpoint", &endpoint)])
        .err()
        .expect("a missing bucket is refused")
        .to_string();
    eprintln!("{err}");
    assert!(err.contains("s3://no-such-bucket-here/run"), "{err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(err.contains("NoSuchBucket"), "{err}");
}
