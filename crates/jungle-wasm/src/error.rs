//! The crate's one error: a message that names what was wrong and what was
//! expected; JavaScript receives it as a thrown `Error`.

use wasm_bindgen::prelude::*;

/// Bad input from the page (a rule set, a position, a move, model outputs
/// of the wrong size), with a message for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebError(pub String);

impl std::fmt::Display for WebError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WebError {}

impl From<WebError> for JsValue {
    fn from(e: WebError) -> JsValue {
        JsError::new(&e.0).into()
    }
}

/// A [`WebError`] from anything printable.
pub(crate) fn web_error(message: impl std::fmt::Display) -> WebError {
    WebError(message.to_string())
}
