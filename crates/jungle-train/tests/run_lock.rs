//! A run is open in one process at a time. Apart from `train.rs`: opening
//! a run initialises its network from the backend's global seed, which
//! would race `train.rs`'s fixed-initialisation test in one test binary.

use jungle_train::config::{TrainConfig, TINY_CONFIG};
use jungle_train::Run;

#[test]
fn a_run_is_open_in_one_process_at_a_time() {
    let root = std::env::temp_dir().join(format!("jungle-train-lock-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let config = || TrainConfig::from_toml(TINY_CONFIG, "tiny").unwrap();
    let first = Run::open(&root, "t", config(), true).unwrap();
    let Err(e) = Run::open(&root, "t", config(), true) else {
        panic!("a second open of a run in use succeeded");
    };
    let e = e.to_string();
    assert!(
        e.contains("run `t` is open") && e.contains("run.lock"),
        "{e}"
    );
    // Another run beside it is free, and the lock goes with the run.
    assert!(Run::open(&root, "u", config(), true).is_ok());
    drop(first);
    assert!(Run::open(&root, "t", config(), true).is_ok());
    std::fs::remove_dir_all(root).unwrap();
}
