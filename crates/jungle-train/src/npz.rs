//! Training positions as NumPy arrays (`jungle shards export`): the same
//! positions, inputs and targets the trainer draws from shards, written as
//! one `.npz` file for Python (numpy, PyTorch). The layout is described in
//! `docs/guide/python.md`.

use crate::samples::{
    game_positions_where, is_searched_move, is_training_move, replay_game, result_wdl, ValueTargets,
};
use jungle_net::encoding::{move_slot, Encoding, POLICY_SLOTS};
use jungle_net::{SHORT_TERM_LAMBDA, SURVIVAL_OUTPUTS};
use jungle_rules::Rules;
use jungle_selfplay::{read_shard, BadGame, MoveRecord, ShardError};
use ndarray::{Array1, Array2, Array4, ArrayD, IxDyn};
use ndarray_npy::{NpzWriter, WritableElement, WriteNpzError};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// The board's ranks and files, the last two axes of `planes`.
const BOARD: [usize; 2] = [9, 7];
/// Bytes of each row of `fen` (a FEN of this board is under 80; the rest
/// is zeros).
pub const FEN_BYTES: usize = 96;

/// The value of `format` in the metadata, and its version.
pub const NPZ_FORMAT: &str = "jungle-zero training positions";
/// Bumped when an array changes meaning or is added (2: `value_target`
/// and `full_search`; rows of cheap searches with `all_positions`. 3:
/// `short_term_target`).
pub const NPZ_FORMAT_VERSION: u32 = 3;

/// How to export.
#[derive(Clone, Debug)]
pub struct NpzOptions {
    /// The input encoding of `planes`.
    pub encoding: Encoding,
    /// Also write each position's left-right mirror image, right after it.
    pub mirror: bool,
    /// Deflate the arrays (smaller, slower to write and to load).
    pub compress: bool,
    /// Every searched position, the cheap searches of playout-cap
    /// randomisation too (no policy target: zeros), not only the full
    /// searches the trainer takes.
    pub all_positions: bool,
    /// How `value_target` is made (the trainer's `value_td_lambda` and
    /// `value_search_weight`).
    pub value_targets: ValueTargets,
}

/// What an export wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct NpzSummary {
    /// Shard files read.
    pub files: usize,
    /// Games read.
    pub games: usize,
    /// Rows written (positions, twice that with mirroring).
    pub rows: usize,
    /// Bytes of the `.npz` file.
    pub bytes: u64,
}

/// Why an export failed; nothing is left at the output path.
#[derive(Debug, thiserror::Error)]
pub enum NpzError {
    /// A shard could not be read, or is of another rule set than the first.
    #[error("{}: {}", .0.path.display(), .0.problem)]
    Shard(#[from] ShardError),
    /// A game of a shard does not replay.
    #[error("{}: game {game}: {source}", path.display())]
    Game {
        /// The shard.
        path: PathBuf,
        /// The game's index in the shard.
        game: usize,
        /// What is wrong with it.
        source: BadGame,
    },
    /// No shard, or no training position in the shards.
    #[error("{}: no training positions to export (no shard-*.bin files, or only empty games)", .0.display())]
    Empty(PathBuf),
    /// The output could not be written.
    #[error("{}: {problem}", path.display())]
    Write {
        /// The output file.
        path: PathBuf,
        /// What failed.
        problem: String,
    },
}

/// The arrays, filled row by row.
#[derive(Default)]
struct Columns {
    planes: Vec<f32>,
    policy: Vec<f32>,
    legal: Vec<bool>,
    wdl: Vec<f32>,
    value_target: Vec<f32>,
    short_term_target: Vec<f32>,
    full_search: Vec<bool>,
    plies_left: Vec<u32>,
    search_value: Vec<f32>,
    search_draw: Vec<f32>,
    survival: Vec<bool>,
    fen: Vec<u8>,
    game: Vec<u32>,
    ply: Vec<u32>,
    mirrored: Vec<bool>,
    rows: usize,
}

/// Writes the training positions of `files` (shards, all of one rule set)
/// to `out` as a `.npz` file, atomically (a killed export leaves no file);
/// `progress` is called after each file with the rows so far.
pub fn export_npz(
    files: &[PathBuf],
    options: &NpzOptions,
    out: &Path,
    mut progress: impl FnMut(usize),
) -> Result<NpzSummary, NpzError> {
    let mut columns = Columns::default();
    let mut rules: Option<Rules> = None;
    let mut games = 0;
    for path in files {
        let shard = read_shard(path, rules.as_ref())?;
        for (index, record) in shard.games.iter().enumerate() {
            let bad = |source| NpzError::Game {
                path: path.clone(),
                game: index,
                source,
            };
            let keep = |m: &MoveRecord| match options.all_positions {
                true => is_searched_move(m),
                false => is_training_move(m),
            };
            let positions = game_positions_where(record, &shard.rules, options.value_targets, keep)
                .map_err(bad)?;
            // The legal moves and plies of the same positions, in the same
            // order (game_positions_where has verified the game).
            let mut legal = Vec::with_capacity(positions.len());
            replay_game(record, &shard.rules, |ply, game, m| {
                if keep(m) {
                    legal.push((ply, m.full_search, game.legal_moves()));
                }
                Ok(())
            })
            .map_err(bad)?;
            for (p, (ply, full_search, moves)) in positions.iter().zip(legal) {
                let mover = p.position.side_to_move();
                let result = result_wdl(record.winner, mover);
                for mirrored in [false, true] {
                    if mirrored && !options.mirror {
                        continue;
                    }
                    let sample = p.sample(&shard.rules, options.encoding, mirrored);
                    let mut mask = [false; POLICY_SLOTS];
                    for &mv in moves.iter() {
                        let mv = if mirrored { mv.mirrored() } else { mv };
                        mask[move_slot(mv, mover)] = true;
                    }
                    columns.planes.extend_from_slice(&sample.planes);
                    columns.policy.extend_from_slice(&sample.policy);
                    columns.legal.extend_from_slice(&mask);
                    columns.wdl.extend_from_slice(&result);
                    columns.value_target.extend_from_slice(&p.wdl);
                    columns
                        .short_term_target
                        .extend_from_slice(&p.short_term_wdl);
                    columns.full_search.push(full_search);
                    columns.plies_left.push((record.moves.len() - ply) as u32);
                    columns.search_value.push(p.search_value);
                    columns.search_draw.push(p.search_draw);
                    columns
                        .survival
                        .extend((0..SURVIVAL_OUTPUTS).map(|k| p.survival >> k & 1 == 1));
                    let position = match mirrored {
                        true => p.position.mirrored(),
                        false => p.position,
                    };
                    let mut fen = position.to_fen().into_bytes();
                    fen.resize(FEN_BYTES, 0);
                    columns.fen.extend_from_slice(&fen);
                    columns.game.push(games as u32);
                    columns.ply.push(ply as u32);
                    columns.mirrored.push(mirrored);
                    columns.rows += 1;
                }
            }
            games += 1;
        }
        if rules.is_none() {
            rules = Some(shard.rules);
        }
        progress(columns.rows);
    }
    let (Some(rules), true) = (rules, columns.rows > 0) else {
        let dir = files
            .first()
            .and_then(|f| f.parent())
            .map(Path::to_path_buf)
            .unwrap_or_default();
        return Err(NpzError::Empty(dir));
    };
    let rows = columns.rows;
    let metadata = metadata(options, &rules, rows, games);
    let write_error = |problem: String| NpzError::Write {
        path: out.to_path_buf(),
        problem,
    };
    jungle_files::publish(out, |tmp| write_arrays(tmp, options, columns, &metadata))
        .map_err(|e| write_error(e.into_inner(|io| io.to_string())))?;
    let bytes = std::fs::metadata(out)
        .map_err(|e| write_error(e.to_string()))?
        .len();
    Ok(NpzSummary {
        files: files.len(),
        games,
        rows,
        bytes,
    })
}

/// `x` as the f64 of its shortest decimal form (0.9, not 0.8999999761581421).
pub fn shortest(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(f64::from(x))
}

/// The `metadata` array's JSON: what the arrays hold and how they were made.
fn metadata(options: &NpzOptions, rules: &Rules, rows: usize, games: usize) -> String {
    let e = options.encoding;
    serde_json::json!({
        "format": NPZ_FORMAT,
        "format_version": NPZ_FORMAT_VERSION,
        "rows": rows,
        "games": games,
        "encoding": e.version(),
        "planes": e.plane_names(),
        "rules": rules.to_toml(),
        "mirrored_copies": options.mirror,
        "all_positions": options.all_positions,
        "value_td_lambda": shortest(options.value_targets.td_lambda),
        "value_search_weight": shortest(options.value_targets.search_weight),
        "arrays": {
            "planes": "[N, planes, 9, 7] f32: the network's input, from the side to move's view",
            "policy": "[N, 252] f32: the search's target over the policy slots, summing to 1 (all zeros on a row of a cheap search)",
            "legal": "[N, 252] bool: the slots of the legal moves",
            "wdl": "[N, 3] f32: the game's result for the side to move (win, draw, loss)",
            "value_target": "[N, 3] f32: the trainer's value target for the side to move: the TD(lambda) return over the searches' win/draw/loss (value_td_lambda; 1 is the result), with value_search_weight of the position's own search mixed in",
            "short_term_target": format!("[N, 3] f32: the short-term head's target for the side to move: the TD(lambda = {SHORT_TERM_LAMBDA:.3}) return over the following searches' win/draw/loss, about 3 plies on"),
            "full_search": "[N] bool: a full search (a policy target); false: a cheap search (all_positions only)",
            "plies_left": "[N] u32: plies from this position to the end of the game",
            "search_value": "[N] f32: the search's root value for the side to move, in [-1, 1]",
            "search_draw": "[N] f32: the search's draw probability at the root (0 where the shard did not keep it)",
            "survival": format!("[N, {SURVIVAL_OUTPUTS}] bool: the survival head's targets (docs/guide/training.md)"),
            "fen": format!("[N, {FEN_BYTES}] u8: the position (mirrored on a mirrored row) as FEN text, zero-padded"),
            "game": "[N] u32: the game's number in this file (positions of one game are correlated)",
            "ply": "[N] u32: the position's ply in its game",
            "mirrored": "[N] bool: a left-right mirror image of the row before it",
        },
    })
    .to_string()
}

/// Writes the arrays to `path`.
fn write_arrays(
    path: &Path,
    options: &NpzOptions,
    c: Columns,
    metadata: &str,
) -> Result<(), String> {
    let file = File::create(path).map_err(|e| e.to_string())?;
    let mut npz = if options.compress {
        NpzWriter::new_compressed(BufWriter::new(file))
    } else {
        NpzWriter::new(BufWriter::new(file))
    };
    let n = c.rows;
    let planes = options.encoding.planes();
    let shape_error = |e: ndarray::ShapeError| e.to_string();
    let npz_error = |e: WriteNpzError| e.to_string();
    npz.add_array(
        "planes",
        &Array4::from_shape_vec((n, planes, BOARD[0], BOARD[1]), c.planes).map_err(shape_error)?,
    )
    .map_err(npz_error)?;
    add_matrix(&mut npz, "policy", n, c.policy)?;
    add_matrix(&mut npz, "legal", n, c.legal)?;
    add_matrix(&mut npz, "wdl", n, c.wdl)?;
    add_matrix(&mut npz, "value_target", n, c.value_target)?;
    add_matrix(&mut npz, "short_term_target", n, c.short_term_target)?;
    npz.add_array("full_search", &Array1::from(c.full_search))
        .map_err(npz_error)?;
    npz.add_array("plies_left", &Array1::from(c.plies_left))
        .map_err(npz_error)?;
    npz.add_array("search_value", &Array1::from(c.search_value))
        .map_err(npz_error)?;
    npz.add_array("search_draw", &Array1::from(c.search_draw))
        .map_err(npz_error)?;
    add_matrix(&mut npz, "survival", n, c.survival)?;
    add_matrix(&mut npz, "fen", n, c.fen)?;
    npz.add_array("game", &Array1::from(c.game))
        .map_err(npz_error)?;
    npz.add_array("ply", &Array1::from(c.ply))
        .map_err(npz_error)?;
    npz.add_array("mirrored", &Array1::from(c.mirrored))
        .map_err(npz_error)?;
    let text = ArrayD::from_shape_vec(IxDyn(&[metadata.len()]), metadata.as_bytes().to_vec())
        .map_err(shape_error)?;
    npz.add_array("metadata", &text).map_err(npz_error)?;
    let writer = npz.finish().map_err(npz_error)?;
    writer
        .into_inner()
        .map_err(|e| e.to_string())?
        .sync_all()
        .map_err(|e| e.to_string())
}

/// Adds a `[rows, len / rows]` array.
fn add_matrix<T: WritableElement>(
    npz: &mut NpzWriter<BufWriter<File>>,
    name: &str,
    rows: usize,
    values: Vec<T>,
) -> Result<(), String> {
    let columns = values.len() / rows;
    let array = Array2::from_shape_vec((rows, columns), values).map_err(|e| e.to_string())?;
    npz.add_array(name, &array).map_err(|e| e.to_string())
}
