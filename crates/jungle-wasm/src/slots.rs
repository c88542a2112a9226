//! The network's contract for the page: the input planes of a position in
//! any encoding version, and the move <-> policy slot mapping
//! (`jungle-encoding`, the same code `jungle` runs).

use crate::error::{web_error, WebError};
use crate::game::parse_rules;
use jungle_encoding::{move_slot as slot_of, Encoding, POLICY_SLOTS};
use jungle_rules::{Move, Position, Side};
use wasm_bindgen::prelude::*;

/// The encoding of a version number, or an error that lists the known ones.
pub(crate) fn encoding_of(version: u32) -> Result<Encoding, WebError> {
    Encoding::from_version(version).ok_or_else(|| {
        let known: Vec<String> = Encoding::ALL
            .iter()
            .map(|e| e.version().to_string())
            .collect();
        web_error(format!(
            "encoding_version {version} is not one this page knows (it knows {})",
            known.join(", ")
        ))
    })
}

fn position(fen: &str) -> Result<Position, WebError> {
    Position::from_fen(fen).map_err(|e| web_error(format!("position: {e}")))
}

/// The input planes of the position `fen` (occurring for the
/// `repetitions`-th time) under `rules` (a preset name or JSON rule set)
/// in encoding `encoding_version`: `planes x 9 x 7` floats, as `model.json`
/// lays them out.
#[wasm_bindgen(js_name = encodePosition)]
pub fn encode_position(
    fen: &str,
    rules: &str,
    repetitions: u32,
    encoding_version: u32,
) -> Result<Vec<f32>, WebError> {
    let encoding = encoding_of(encoding_version)?;
    let rules = parse_rules(rules)?;
    let pos = position(fen)?;
    let mut out = vec![0.0; encoding.input_len()];
    encoding.encode(&pos, repetitions.max(1), &rules, &mut out);
    Ok(out)
}

/// The policy slot (0-251) of move `mv` (`a1a2`) played by the side to
/// move in `fen`.
#[wasm_bindgen(js_name = moveSlot)]
pub fn move_slot(fen: &str, mv: &str) -> Result<u32, WebError> {
    let pos = position(fen)?;
    let parsed = Move::parse(mv).map_err(|e| web_error(format!("move `{mv}`: {e}")))?;
    if parsed.direction().is_none() {
        return Err(web_error(format!(
            "move `{mv}`: not along a rank or a file, so it has no policy slot"
        )));
    }
    Ok(slot_of(parsed, pos.side_to_move()) as u32)
}

/// The legal move (under `rules`) of policy slot `slot` in `fen`, if one is.
#[wasm_bindgen(js_name = slotMove)]
pub fn slot_move(fen: &str, rules: &str, slot: u32) -> Result<Option<String>, WebError> {
    if slot as usize >= POLICY_SLOTS {
        return Err(web_error(format!(
            "slot {slot}: expected 0 to {}",
            POLICY_SLOTS - 1
        )));
    }
    let rules = parse_rules(rules)?;
    let pos = position(fen)?;
    let mover: Side = pos.side_to_move();
    let found = pos
        .legal_moves(&rules)
        .as_slice()
        .iter()
        .find(|&&m| slot_of(m, mover) == slot as usize)
        .map(Move::to_string);
    Ok(found)
}
