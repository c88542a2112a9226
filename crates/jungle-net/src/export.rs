//! The self-describing export of a network for other front ends
//! (`jungle export`): `model.onnx` with named inputs and outputs,
//! `model.json` (the contract: planes, point of view, move slots, outputs,
//! rule set, step), `model.safetensors` (the ONNX initialisers under the
//! same names) and `testcases.json` (positions, their planes and the Rust
//! outputs, so a consumer can check itself). Every file is written through
//! a temporary file and renamed into place.

use crate::backend::served::forward_on_device;
use crate::checkpoint::{Checkpoint, CheckpointMeta};
use crate::encoding::{move_slot, BASE_PLANES, POLICY_SLOTS, SQUARES};
pub use crate::export_error::{ExportCause, ExportError};
pub use crate::onnx::{named_onnx, INPUT_NAME};
use crate::outputs::Output;
use crate::{NetConfig, PolicyValueNet};
use burn::module::Module;
use burn::tensor::Device;
use jungle_rules::{Game, Rules, FILES, RANKS};
use onnx_ir::{Message, ModelProto};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// `format` of `model.json`.
pub const MODEL_FORMAT: &str = "jungle-zero-model";
/// `format_version` of `model.json`.
pub const MODEL_FORMAT_VERSION: u32 = 2;
/// The ONNX opset the exporter writes.
pub const OPSET: i64 = 18;

/// The initialisers of `model` as a safetensors file under their ONNX
/// names (the float32 weights, and the few int64 shape constants the graph
/// keeps there), with the format and encoding version in its metadata.
pub fn safetensors_bytes(
    model: &ModelProto,
    encoding_version: u32,
) -> Result<Vec<u8>, ExportCause> {
    // TensorProto.DataType: FLOAT = 1, INT64 = 7.
    const FLOAT: i32 = 1;
    const INT64: i32 = 7;
    let graph = model.graph.get_or_default();
    let mut tensors: Vec<(String, safetensors::Dtype, Vec<usize>, Vec<u8>)> = Vec::new();
    for init in &graph.initializer {
        let (dtype, bytes): (safetensors::Dtype, Vec<u8>) = match init.data_type {
            _ if !init.raw_data.is_empty() && matches!(init.data_type, FLOAT | INT64) => (
                if init.data_type == FLOAT {
                    safetensors::Dtype::F32
                } else {
                    safetensors::Dtype::I64
                },
                init.raw_data.to_vec(),
            ),
            FLOAT => (
                safetensors::Dtype::F32,
                init.float_data
                    .iter()
                    .flat_map(|x| x.to_le_bytes())
                    .collect(),
            ),
            INT64 => (
                safetensors::Dtype::I64,
                init.int64_data
                    .iter()
                    .flat_map(|x| x.to_le_bytes())
                    .collect(),
            ),
            other => {
                return Err(ExportCause::DataType {
                    name: init.name.clone(),
                    data_type: other,
                })
            }
        };
        let shape: Vec<usize> = init.dims.iter().map(|&d| d as usize).collect();
        tensors.push((init.name.clone(), dtype, shape, bytes));
    }
    let views = tensors
        .iter()
        .map(|(name, dtype, shape, bytes)| {
            safetensors::tensor::TensorView::new(*dtype, shape.clone(), bytes)
                .map(|v| (name.clone(), v))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let metadata: HashMap<String, String> = [
        ("format".to_string(), MODEL_FORMAT.to_string()),
        ("encoding_version".to_string(), encoding_version.to_string()),
    ]
    .into();
    Ok(safetensors::serialize(views, Some(metadata))?)
}

/// One input plane in `model.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PlaneInfo {
    /// Its index in the input.
    pub index: usize,
    /// What it holds.
    pub name: String,
    /// `one-hot` (1 on the squares named, else 0) or `constant` (one value
    /// on every square).
    pub kind: String,
}

/// A network output in `model.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TensorInfo {
    /// The tensor's name in `model.onnx`.
    pub name: String,
    /// Its shape; `"batch"` is the dynamic axis.
    pub shape: Vec<serde_json::Value>,
    /// What it means.
    pub meaning: String,
}

/// The move encoding in `model.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MoveEncoding {
    /// Number of policy slots.
    pub slots: usize,
    /// How a move maps to its slot.
    pub slot: String,
    /// The directions by index, in the mover's view.
    pub directions: Vec<String>,
    /// How squares are numbered.
    pub square: String,
    /// How river jumps are encoded.
    pub jumps: String,
}

/// One exported file as `model.json` records it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileRecord {
    /// Its size in bytes.
    pub bytes: u64,
    /// Its SHA-256, 64 lower-case hex digits.
    pub sha256: String,
}

impl FileRecord {
    /// The record of `bytes`.
    pub fn of(bytes: &[u8]) -> FileRecord {
        let digest = Sha256::digest(bytes);
        FileRecord {
            bytes: bytes.len() as u64,
            sha256: digest.iter().map(|b| format!("{b:02x}")).collect(),
        }
    }
}

/// `model.json`: everything a front end needs to run `model.onnx`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ModelDescription {
    /// Always [`MODEL_FORMAT`].
    pub format: String,
    /// [`MODEL_FORMAT_VERSION`].
    pub format_version: u32,
    /// The plane and move encoding's version.
    pub encoding_version: u32,
    /// The ONNX opset of `model.onnx`.
    pub opset: i64,
    /// The input tensor.
    pub input: TensorInfo,
    /// How the input is laid out and filled.
    pub layout: String,
    /// The point-of-view rule.
    pub point_of_view: String,
    /// The planes, in order.
    pub planes: Vec<PlaneInfo>,
    /// The policy's move encoding.
    pub moves: MoveEncoding,
    /// The outputs, in order.
    pub outputs: Vec<TensorInfo>,
    /// The rule set the network was trained for (every switch of docs/RULES.md).
    pub rules: Rules,
    /// The architecture.
    pub network: NetConfig,
    /// The checkpoint's training step.
    pub step: u64,
    /// Training samples the checkpoint has seen.
    pub samples_seen: u64,
    /// The export's other files by name, each with its size and SHA-256
    /// (format 2 on; empty in a description not yet written by an export).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, FileRecord>,
}

/// The description of a checkpoint's network.
pub fn describe(meta: &CheckpointMeta) -> ModelDescription {
    let shape = |dims: &[usize]| -> Vec<serde_json::Value> {
        std::iter::once(serde_json::Value::from("batch"))
            .chain(dims.iter().map(|&d| serde_json::Value::from(d)))
            .collect()
    };
    let encoding = meta.net.encoding();
    let (planes_n, input_len) = (encoding.planes(), encoding.input_len());
    let planes = encoding
        .plane_names()
        .into_iter()
        .enumerate()
        .map(|(index, name)| PlaneInfo {
            index,
            name,
            kind: match index {
                0..21 => "one-hot",
                21..BASE_PLANES => "constant",
                _ => "squares",
            }
            .to_string(),
        })
        .collect();
    ModelDescription {
        format: MODEL_FORMAT.to_string(),
        format_version: MODEL_FORMAT_VERSION,
        encoding_version: encoding.version(),
        opset: OPSET,
        input: TensorInfo {
            name: INPUT_NAME.to_string(),
            shape: shape(&[planes_n, RANKS as usize, FILES as usize]),
            meaning: "float32 planes of the positions to evaluate".to_string(),
        },
        layout: format!(
            "NCHW: input[b][plane][rank][file], rank 0 = rank 1 (the mover's side), file 0 = file a; \
             {planes_n} planes x {} ranks x {} files = {input_len} floats per position",
            RANKS, FILES
        ),
        point_of_view: "Everything is seen by the side to move. South to move: the board as is. \
             North to move: ranks are flipped (rank r -> rank 10 - r, files unchanged) and colours \
             swapped, so the mover's animals are 'our' and its den is d1. The outputs are for the \
             side to move; move slots are in the same flipped view."
            .to_string(),
        planes,
        moves: MoveEncoding {
            slots: POLICY_SLOTS,
            slot: format!(
                "direction * {SQUARES} + from_square, both in the mover's view"
            ),
            directions: ["up (towards rank 9)", "down (towards rank 1)", "left (towards file a)", "right (towards file g)"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            square: "rank_index * 7 + file_index (a1 = 0, g1 = 6, a9 = 56, g9 = 62)".to_string(),
            jumps: "a river jump (lion, tiger, leopard where the rules allow) uses the slot of its \
                    from-square and direction, like a one-square step"
                .to_string(),
        },
        outputs: Output::of(&meta.net)
            .map(|o| TensorInfo {
                name: o.name().to_string(),
                shape: shape(&[o.width()]),
                meaning: o.meaning(),
            })
            .collect(),
        rules: meta.rules.clone(),
        network: meta.net.clone(),
        step: meta.step,
        samples_seen: meta.samples_seen,
        files: BTreeMap::new(),
    }
}

/// A legal move and its policy slot.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LegalSlot {
    /// The move text (e.g. `a3a4`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Its policy slot.
    pub slot: usize,
}

/// A position with its encoded planes and the Rust outputs.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TestCase {
    /// The position.
    pub fen: String,
    /// How many times it has occurred (1 = first time).
    pub repetitions: u32,
    /// The encoded planes, flattened in `[plane][rank][file]` order.
    pub planes: Vec<f32>,
    /// The legal moves and their slots.
    pub legal_moves: Vec<LegalSlot>,
    /// Policy logits.
    pub policy: Vec<f32>,
    /// Win/draw/loss logits.
    pub wdl: Vec<f32>,
    /// Moves left / 100.
    pub moves_left: f32,
    /// Survival logits, for a network with the survival head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub survival: Option<Vec<f32>>,
    /// Short-term win/draw/loss logits, for a network with the short-term
    /// head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_term_wdl: Option<Vec<f32>>,
}

/// `testcases.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TestCases {
    /// How close a consumer's outputs must be.
    pub tolerance: f32,
    /// The cases.
    pub cases: Vec<TestCase>,
}

/// The positions of `testcases.json`: the start, the start after one move
/// (North to move), an endgame for each side, a rat in the river, and a
/// repeated position with a quiet counter.
fn test_positions(rules: &Rules) -> Vec<(Game, u32)> {
    let mut after_one = Game::new(rules.clone());
    let first = after_one.legal_moves()[0];
    after_one.play(first).expect("legal");
    let mut out = vec![(Game::new(rules.clone()), 1), (after_one, 1)];
    for (fen, reps) in [
        ("6e/3C3/w6/7/7/7/7/5D1/L6 w", 1),
        ("7/7/7/3L3/7/R6/7/3r3/7 b", 1),
        ("2l4/7/7/e6/R6/7/7/7/2L4 w", 1),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 37 20", 2),
    ] {
        let game = Game::from_fen(rules.clone(), fen).expect("a valid test position");
        out.push((game, reps));
    }
    out
}

/// The test cases of `net` (run through burn in inference mode).
pub fn test_cases(net: &PolicyValueNet, rules: &Rules, device: &Device) -> TestCases {
    let net = net.valid();
    let positions = test_positions(rules);
    let encoding = net.encoding();
    let len = encoding.input_len();
    let mut planes = vec![0.0f32; positions.len() * len];
    for ((game, reps), chunk) in positions.iter().zip(planes.chunks_exact_mut(len)) {
        encoding.encode(game.position(), *reps, rules, chunk);
    }
    let n = positions.len();
    let out = forward_on_device(&net, device, encoding, planes.clone(), n);
    let cases = positions
        .iter()
        .enumerate()
        .map(|(i, (game, reps))| {
            let mover = game.position().side_to_move();
            let row = out.rows(i, 1);
            TestCase {
                fen: game.position().to_fen(),
                repetitions: *reps,
                planes: planes[i * len..(i + 1) * len].to_vec(),
                legal_moves: game
                    .legal_moves()
                    .iter()
                    .map(|&mv| LegalSlot {
                        mv: mv.to_string(),
                        slot: move_slot(mv, mover),
                    })
                    .collect(),
                policy: row.policy,
                wdl: row.wdl,
                moves_left: row.moves_left[0],
                survival: (!row.survival.is_empty()).then_some(row.survival),
                short_term_wdl: (!row.short_term_wdl.is_empty()).then_some(row.short_term_wdl),
            }
        })
        .collect();
    TestCases {
        tolerance: 1e-4,
        cases,
    }
}

/// The files an export wrote.
#[derive(Clone, Debug)]
pub struct ExportedFiles {
    /// `model.onnx`.
    pub onnx: PathBuf,
    /// `model.json`.
    pub json: PathBuf,
    /// `model.safetensors`.
    pub safetensors: PathBuf,
    /// `testcases.json`.
    pub testcases: PathBuf,
    /// Number of weight tensors.
    pub tensors: usize,
    /// Number of test cases.
    pub cases: usize,
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    jungle_files::write_atomically(path, bytes).map_err(|e| ExportCause::from(e).at(path))
}

/// Writes the four files of `checkpoint` into `dir` (created if needed).
pub fn export_model(
    checkpoint: &Checkpoint,
    dir: &Path,
    device: &Device,
) -> Result<ExportedFiles, ExportError> {
    std::fs::create_dir_all(dir).map_err(|e| ExportCause::from(e).at(dir))?;
    let files = ExportedFiles {
        onnx: dir.join("model.onnx"),
        json: dir.join("model.json"),
        safetensors: dir.join("model.safetensors"),
        testcases: dir.join("testcases.json"),
        tensors: 0,
        cases: 0,
    };
    let model = named_onnx(&checkpoint.net, device).map_err(|e| e.at(&files.onnx))?;
    let onnx = model
        .write_to_bytes()
        .map_err(|e| ExportCause::Protobuf(e.to_string()).at(&files.onnx))?;
    let weights = safetensors_bytes(&model, checkpoint.meta.encoding_version)
        .map_err(|e| e.at(&files.safetensors))?;
    let cases = test_cases(&checkpoint.net, &checkpoint.meta.rules, device);
    let case_count = cases.cases.len();
    let cases = serde_json::to_string(&cases).expect("serialises");
    let mut description = describe(&checkpoint.meta);
    let written = [
        (&files.onnx, onnx.as_slice()),
        (&files.safetensors, weights.as_slice()),
        (&files.testcases, cases.as_bytes()),
    ];
    // Every file before model.json, which records them: an export killed
    // part-way leaves a folder that does not match its model.json.
    for (path, bytes) in written {
        write_atomically(path, bytes)?;
        let name = path.file_name().expect("a file name").to_string_lossy();
        description
            .files
            .insert(name.into_owned(), FileRecord::of(bytes));
    }
    write_atomically(
        &files.json,
        serde_json::to_string_pretty(&description)
            .expect("serialises")
            .as_bytes(),
    )?;
    Ok(ExportedFiles {
        tensors: model.graph.initializer.len(),
        cases: case_count,
        ..files
    })
}
