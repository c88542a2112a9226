//! # jungle-wasm
//!
//! jungle-zero's rules, input encoding and search compiled to WebAssembly
//! for the browser page (`web/`). The network itself runs in the page
//! (onnxruntime-web on the exported `model.onnx`); everything around it is
//! this workspace's own code, so the page's agent plays as `net:` does at
//! the same simulations and value terms:
//!
//! - [`WebGame`]: a game under a rule set: legal moves, play, undo, the
//!   outcome and its reason, the position string;
//! - [`encode_position`], [`move_slot`], [`slot_move`]: the input planes of
//!   every encoding version and the move <-> policy slot mapping;
//! - [`WebAgent`]: the search driven through its batched interface: the
//!   page asks for the planes of the leaves the search wants judged, runs
//!   the network on them, and hands the outputs back, until the search is
//!   done.
//!
//! Every function is also plain Rust (the crate is an `rlib` too), which is
//! how the tests run it.

mod agent;
mod error;
mod game;
mod slots;

pub use agent::{AgentSettings, WebAgent};
pub use error::WebError;
pub use game::{preset_names, WebGame};
pub use slots::{encode_position, move_slot, slot_move};

/// Runs when the page loads the module: a Rust panic then shows its
/// message in the browser console.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
