//! Every malformed position string in `tests/data/invalid.fens` is rejected
//! with an error that says what was wrong and where; bad rule-set files are
//! rejected naming the file, the key and the allowed values.

use jungle_rules::{Position, Rules};

#[test]
fn invalid_fens_are_rejected_with_a_precise_message() {
    let data = include_str!("data/invalid.fens");
    let mut checked = 0;
    for (n, line) in data.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (expected, fen) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("line {}: no tab", n + 1));
        let err = Position::from_fen(fen)
            .map(|p| p.to_fen())
            .expect_err(&format!("line {}: `{fen}` was accepted", n + 1));
        let text = err.to_string();
        assert!(
            text.contains(expected),
            "line {}: error `{text}` does not contain `{expected}`",
            n + 1
        );
        assert!(
            text.contains(fen.trim()),
            "the error quotes the string: {text}"
        );
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} cases");
}

#[test]
fn rule_set_files_report_file_key_and_allowed_values() {
    let dir = std::env::temp_dir().join(format!("jungle-rules-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.toml");
    std::fs::write(&path, "# a comment\nno_move = \"resign\"\n").unwrap();
    let err = Rules::load(path.to_str().unwrap()).unwrap_err().to_string();
    assert!(err.contains("broken.toml"), "{err}");
    assert!(err.contains("no_move"), "{err}");
    assert!(err.contains("line 2"), "{err}");
    assert!(err.contains("loss") && err.contains("draw"), "{err}");
    std::fs::write(&path, "first_player = \"east\"\n").unwrap();
    let err = Rules::load(path.to_str().unwrap()).unwrap_err().to_string();
    assert!(
        err.contains("first_player") && err.contains("south") && err.contains("north"),
        "{err}"
    );
    std::fs::write(&path, "[rules\n").unwrap();
    let err = Rules::load(path.to_str().unwrap()).unwrap_err().to_string();
    assert!(err.contains("broken.toml"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn preset_files_on_disk_load_like_the_embedded_presets() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/variants");
    for name in Rules::preset_names() {
        let path = format!("{dir}/{name}.toml");
        assert_eq!(
            Rules::load(&path).unwrap(),
            Rules::preset(name).unwrap(),
            "{path}"
        );
    }
}
