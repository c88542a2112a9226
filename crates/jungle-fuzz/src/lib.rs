//! # jungle-fuzz
//!
//! One function per reader of outside input (a position string, move text,
//! a player spec, a training config, a variant file, a shard, checkpoint
//! metadata, engine lines, a position suite). Each takes arbitrary bytes and must return
//! without panicking, whatever they are: a reader answers bad input with an
//! error. The cargo-fuzz targets in `fuzz/` call these functions, and
//! `tests/corpus.rs` replays every input the fuzzers found (kept under
//! `tests/data/fuzz/<target>/`) on stable Rust, so a fixed crash stays fixed.

#![warn(missing_docs)]

use jungle_engine::engine::Engine;
use jungle_engine::protocol::{parse, Command, GoParams};
use jungle_rules::{perft, Game, Move, Position, Rules};
use jungle_selfplay::shard::{decode_shard, MAGIC, SHARD_VERSION};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A reader under test: takes any bytes, must not panic.
pub type Target = fn(&[u8]);

/// The targets, by name (the file names under `fuzz/fuzz_targets/` and the
/// folders under `tests/data/fuzz/`).
pub const TARGETS: [(&str, Target); 9] = [
    ("fen", fen),
    ("moves", moves),
    ("player_spec", player_spec),
    ("config", config),
    ("variant", variant),
    ("shard", shard),
    ("checkpoint_json", checkpoint_json),
    ("engine", engine),
    ("suite", suite),
];

/// A position suite (`jungle probe --suite`): read as a whole file.
pub fn suite(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(suite) = jungle_probe::Suite::parse(Path::new("fuzz.jsonl"), text) {
        let _ = suite.every(3);
    }
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A position string: read as a position, and as a game under every preset.
pub fn fen(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(position) = Position::from_fen(text) {
        let again = Position::from_fen(&position.to_fen()).expect("a written position reads back");
        assert_eq!(again.to_fen(), position.to_fen());
    }
    for name in Rules::preset_names() {
        let rules = Rules::preset(name).expect("a preset");
        if let Ok(game) = Game::from_fen(rules.clone(), text) {
            let _ = game.legal_moves();
            let _ = perft(game.position(), &rules, 1);
        }
    }
}

/// Move text: each word read as a move and played from the start, under
/// every preset.
pub fn moves(data: &[u8]) {
    let Some(text) = text(data) else { return };
    for word in text.split_whitespace().take(64) {
        let _ = Move::parse(word);
    }
    for name in Rules::preset_names() {
        let mut game = Game::new(Rules::preset(name).expect("a preset"));
        for word in text.split_whitespace().take(64) {
            if game.play_text(word).is_err() || game.is_over() {
                break;
            }
        }
    }
}

/// A player spec (`alphabeta:4`, `net:PATH:sims=...`), read, not loaded.
pub fn player_spec(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(spec) = text.parse::<jungle_play::PlayerSpec>() {
        let _ = spec.to_string();
    }
}

/// A training config, layered over the embedded default.
pub fn config(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(cfg) = jungle_train::config::TrainConfig::layered(text, "fuzz.toml", &[]) {
        let _ = cfg.with_sets("stored", &[]);
    }
}

/// A variant file; a rule set it accepts generates moves from its start.
pub fn variant(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(rules) = Rules::from_toml_str(text, "fuzz.toml") {
        let start = rules.start_position();
        let _ = perft(&start, &rules, 2);
        let _ = rules.to_toml();
    }
}

/// A shard: the bytes as they are, or (so the fuzzer gets past the
/// checksum) framed as a shard with a valid header and checksum; the games
/// of a shard that reads are replayed and turned into training positions.
pub fn shard(data: &[u8]) {
    let framed;
    let bytes = if data.starts_with(MAGIC) {
        data
    } else {
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&SHARD_VERSION.to_le_bytes());
        b.extend_from_slice(data);
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        framed = b;
        &framed
    };
    if let Ok(shard) = decode_shard(Path::new("fuzz.bin"), bytes) {
        for game in shard.games.iter().take(8) {
            let _ = jungle_selfplay::verify_game(game, &shard.rules);
            let _ = jungle_train::game_positions(game, &shard.rules);
        }
    }
}

/// A checkpoint's `.json` metadata.
pub fn checkpoint_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let _ = jungle_net::parse_meta(Path::new("fuzz.json"), text);
}

/// Engine input, one command per line, handled in order; searches are cut
/// to depth 1 and perft to depth 2 so that every input stays quick.
pub fn engine(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let mut engine = Engine::new();
    let stop = Arc::new(AtomicBool::new(false));
    for line in text.lines().take(32) {
        let command = match parse(line) {
            Ok(Some(command)) => command,
            _ => continue,
        };
        let command = match command {
            Command::Go(_) => Command::Go(GoParams::depth(1)),
            Command::Perft(depth) => Command::Perft(depth.min(2)),
            other => other,
        };
        if engine.handle(command, &stop, &mut |_| {}) {
            break;
        }
    }
}
