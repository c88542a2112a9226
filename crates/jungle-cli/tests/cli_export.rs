//! `jungle export`: the four files, model.json against the committed JSON
//! schema, test cases that match the network, weights under the ONNX names.

mod common;

use common::{jungle, net_init, temp_dir};

const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/model.schema.json");

/// A tiny network (with a global-pooling block, the survival and
/// short-term heads, the tactical and the exchange planes) exported into
/// `dir/export`.
fn export_tiny(dir: &std::path::Path) -> std::path::PathBuf {
    let (prefix, _) = net_init(
        dir,
        "ck",
        "blocks = 2\nfilters = 8\nglobal_pool_every = 2\npolicy_filters = 4\nvalue_filters = 4\nvalue_hidden = 8\nsurvival_head = true\nshort_term_head = true\ntactical_planes = true\nexchange_planes = true\n",
        &["--variant", "elephant-rat", "--seed", "3"],
    );
    let out = dir.join("export");
    let (ok, stdout, stderr) = jungle(&[
        "export",
        "--checkpoint",
        prefix.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("model.onnx") && stdout.contains("testcases.json"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[batch, 44, 9, 7]") && stdout.contains("`survival` [batch, 32]"),
        "{stdout}"
    );
    out
}

fn read_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_export_is_self_describing_and_valid_against_the_schema() {
    let dir = temp_dir("export");
    let out = export_tiny(&dir);
    let model = read_json(&out.join("model.json"));
    let schema = read_json(std::path::Path::new(SCHEMA));
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&model)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The schema is not vacuous: a wrong plane count and a foreign switch fail.
    let mut bad = model.clone();
    bad["planes"].as_array_mut().unwrap().pop();
    assert!(!validator.is_valid(&bad));
    let mut bad = model.clone();
    bad["rules"]["tiger_jump"] = "sideways".into();
    assert!(!validator.is_valid(&bad));
    let mut bad = model.clone();
    bad["encoding_version"] = 1.into();
    assert!(!validator.is_valid(&bad), "version 1 has 38 planes, not 44");
    bad["encoding_version"] = 2.into();
    assert!(!validator.is_valid(&bad), "version 2 has 42 planes, not 44");

    assert_eq!(model["encoding_version"], 3);
    assert_eq!(model["input"]["shape"][1], 44);
    assert_eq!(model["planes"][43]["kind"], "squares");
    assert_eq!(
        model["planes"][41]["name"],
        "the opponent's animals we can take"
    );
    assert_eq!(
        model["planes"][43]["name"],
        "the opponent's animals we can take with no retake"
    );

    assert_eq!(model["rules"]["elephant_captures_rat"], true);
    assert_eq!(model["input"]["name"], "planes");
    assert_eq!(model["outputs"][1]["name"], "wdl");
    // The survival head is the fourth output, with the material term spelt out.
    assert_eq!(model["outputs"][3]["name"], "survival");
    assert_eq!(model["outputs"][3]["shape"][1], 32);
    let meaning = model["outputs"][3]["meaning"].as_str().unwrap();
    assert!(
        meaning.contains("w = 0.6") && meaning.contains("/ 8"),
        "{meaning}"
    );
    let mut bad = model.clone();
    bad["outputs"][3]["name"] = "ownership".into();
    assert!(
        !validator.is_valid(&bad),
        "a fourth output must be `survival` or `short_term_wdl`"
    );
    // The short-term head's output comes last.
    assert_eq!(model["outputs"][4]["name"], "short_term_wdl");
    assert_eq!(model["outputs"][4]["shape"][1], 3);
    let mut bad = model.clone();
    bad["outputs"].as_array_mut().unwrap().swap(3, 4);
    assert!(!validator.is_valid(&bad), "`short_term_wdl` comes last");
    assert_eq!(model["planes"][0]["name"], "our rat");

    // Test cases: planes of the right size, one-hot animal planes, outputs.
    let tests = read_json(&out.join("testcases.json"));
    let cases = tests["cases"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for c in cases {
        assert_eq!(c["planes"].as_array().unwrap().len(), 44 * 63);
        assert_eq!(c["policy"].as_array().unwrap().len(), 252);
        assert_eq!(c["wdl"].as_array().unwrap().len(), 3);
        assert_eq!(c["survival"].as_array().unwrap().len(), 32);
        assert_eq!(c["short_term_wdl"].as_array().unwrap().len(), 3);
        let slots: std::collections::HashSet<u64> = c["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["slot"].as_u64().unwrap())
            .collect();
        assert_eq!(slots.len(), c["legal_moves"].as_array().unwrap().len());
    }
    // The start: "our rat" (plane 0) is South's rat on g3 (index 2*7+6 = 20).
    assert_eq!(cases[0]["planes"][20], 1.0);
    // North to move in case 1: its rat (a7) is seen as "our rat" on a3 (index 14).
    assert!(cases[1]["fen"].as_str().unwrap().contains(" b "));
    assert_eq!(cases[1]["planes"][14], 1.0);

    // The weights: an ONNX initialiser per tensor, the same names, nonempty.
    let bytes = std::fs::read(out.join("model.safetensors")).unwrap();
    let header_len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + header_len]).unwrap();
    let names: Vec<&String> = header
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| *k != "__metadata__")
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    // The survival head's weights are exported with it.
    assert!(names.iter().any(|n| n.contains("survival")), "{names:?}");
    assert_eq!(header["__metadata__"]["format"], "jungle-zero-model");
    assert_eq!(header["__metadata__"]["encoding_version"], "3");
    let onnx = std::fs::read(out.join("model.onnx")).unwrap();
    let contains = |needle: &[u8]| onnx.windows(needle.len()).any(|w| w == needle);
    for name in &names {
        assert!(contains(name.as_bytes()), "{name} is not in model.onnx");
    }
    assert!(names.iter().any(|n| n.contains("short_term")), "{names:?}");
    for name in [
        "planes",
        "policy",
        "wdl",
        "moves_left",
        "survival",
        "short_term_wdl",
    ] {
        assert!(contains(name.as_bytes()), "{name}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn exporting_a_missing_checkpoint_is_a_clear_error() {
    let dir = temp_dir("export-bad");
    let (ok, _, stderr) = jungle(&[
        "export",
        "--checkpoint",
        dir.join("nothing").to_str().unwrap(),
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("nothing"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_folder_mixing_two_exports_is_refused_by_its_readers() {
    let dir = temp_dir("export-mixed");
    let out = export_tiny(&dir);
    let whole = jungle_net::export_files::check_export(&out).expect("a whole export");
    for name in ["model.onnx", "model.safetensors", "testcases.json"] {
        let record = &whole.files[name];
        let len = std::fs::metadata(out.join(name)).unwrap().len();
        assert_eq!(record.bytes, len, "{name}");
    }
    // An export of another network killed after its model.onnx: the new
    // model.onnx beside the old model.json.
    let (other, _) = net_init(&dir, "other", "blocks = 1\nfilters = 8\n", &["--seed", "4"]);
    let out2 = dir.join("export2");
    let (ok, _, stderr) = jungle(&[
        "export",
        "--checkpoint",
        other.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    std::fs::copy(out2.join("model.onnx"), out.join("model.onnx")).unwrap();
    let e = jungle_net::export_files::check_export(&out).unwrap_err();
    let why = e.to_string();
    assert!(
        why.contains("model.onnx") && why.contains("mixes two exports"),
        "{why}"
    );
    // A description from before the record is named as such.
    let mut old = read_json(&out2.join("model.json"));
    old.as_object_mut().unwrap().remove("files");
    old["format_version"] = 1.into();
    std::fs::write(out2.join("model.json"), old.to_string()).unwrap();
    let why = jungle_net::export_files::check_export(&out2)
        .unwrap_err()
        .to_string();
    assert!(why.contains("records no files"), "{why}");
    std::fs::remove_dir_all(dir).unwrap();
}
