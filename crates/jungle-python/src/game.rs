//! `jungle_zero.Game`: a game under a rule set (the browser page's game,
//! the same rules code `jungle` runs): legal moves, play and undo, the
//! outcome and its reason, the position string.

use crate::error::value_error;
use jungle_wasm::WebGame;
use pyo3::prelude::*;

/// The names of the rule-set presets (`standard` first).
#[pyfunction]
pub fn preset_names() -> Vec<String> {
    jungle_wasm::preset_names()
}

/// One game of Jungle.
#[pyclass(name = "Game", module = "jungle_zero._native")]
pub struct PyGame {
    pub(crate) game: WebGame,
}

#[pymethods]
impl PyGame {
    /// A game under `rules` (a preset name, or a rule set as JSON text:
    /// the `rules` object of an exported `model.json`) from its start
    /// position, or from `fen` when given.
    #[new]
    #[pyo3(signature = (rules = "standard", fen = None))]
    fn new(rules: &str, fen: Option<String>) -> PyResult<PyGame> {
        let game = WebGame::new(rules, fen).map_err(value_error)?;
        Ok(PyGame { game })
    }

    /// The position string (FEN) of the current position.
    fn fen(&self) -> String {
        self.game.fen()
    }

    /// The rule set as JSON text.
    fn rules_json(&self) -> String {
        self.game.rules_json()
    }

    /// `south` or `north`: whose move it is.
    fn side_to_move(&self) -> String {
        self.game.side_to_move()
    }

    /// The legal moves (`a1a2` text); none once the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// Plays `move` (`a1a2` text); an illegal move or a finished game
    /// raises `ValueError` saying which.
    #[pyo3(signature = (r#move))]
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        self.game.play(r#move).map_err(value_error)
    }

    /// Takes the last move back; the move taken back, or `None`.
    fn undo(&mut self) -> Option<String> {
        self.game.undo()
    }

    /// The moves played, in order.
    fn moves(&self) -> Vec<String> {
        self.game.moves()
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The winner (`south`, `north`), `draw`, or `None` while the game goes on.
    fn result(&self) -> Option<String> {
        self.game.result()
    }

    /// Why the game ended (`den`, `annihilation`, `no_move`, `repetition`,
    /// `quiet_limit`), or `None` while it goes on.
    fn reason(&self) -> Option<String> {
        self.game.reason()
    }

    /// How many times the current position has occurred (1 = the first).
    fn repetitions(&self) -> u32 {
        self.game.repetition_count()
    }

    /// The 63 squares from a1 (index `rank * 7 + file`): `""` for an empty
    /// square, else `side animal` (`south rat`).
    fn board(&self) -> Vec<String> {
        self.game.board()
    }

    /// A copy of the game (its moves and history too).
    fn copy(&self) -> PyGame {
        PyGame {
            game: self.game.clone(),
        }
    }

    fn __repr__(&self) -> String {
        format!("Game(fen={:?})", self.game.fen())
    }
}
