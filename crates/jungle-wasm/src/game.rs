//! A game under a rule set, as the page plays it: the board to draw, the
//! legal moves, play and undo, the outcome and its reason.

use crate::error::{web_error, WebError};
use jungle_rules::{Bitboard, Game, Move, Rules, Side, Square, DEN, TRAPS, WATER};
use wasm_bindgen::prelude::*;

/// The names of the rule-set presets (`standard` first).
#[wasm_bindgen(js_name = presetNames)]
pub fn preset_names() -> Vec<String> {
    Rules::preset_names().map(str::to_string).collect()
}

/// A rule set from a preset name or a JSON rule set (the `rules` object of
/// an exported `model.json`), checked.
pub(crate) fn parse_rules(text: &str) -> Result<Rules, WebError> {
    if let Some(rules) = Rules::preset(text) {
        return Ok(rules);
    }
    let rules: Rules = serde_json::from_str(text).map_err(|e| {
        let presets: Vec<&str> = Rules::preset_names().collect();
        web_error(format!(
            "rules: expected a preset name ({}) or a JSON rule set as in model.json: {e}",
            presets.join(", ")
        ))
    })?;
    rules
        .validate()
        .map_err(|e| web_error(format!("rules: {e}")))?;
    Ok(rules)
}

/// A side's name as the page shows it.
pub(crate) fn side_name(side: Side) -> String {
    side.to_string()
}

/// One game.
#[wasm_bindgen(js_name = Game)]
#[derive(Clone)]
pub struct WebGame {
    game: Game,
}

#[wasm_bindgen(js_class = Game)]
impl WebGame {
    /// A game under `rules` (a preset name or a JSON rule set) from the
    /// rule set's start position, or from `fen` when given.
    #[wasm_bindgen(constructor)]
    pub fn new(rules: &str, fen: Option<String>) -> Result<WebGame, WebError> {
        let rules = parse_rules(rules)?;
        let game = match fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
            Some(fen) => {
                Game::from_fen(rules, fen).map_err(|e| web_error(format!("position: {e}")))?
            }
            None => Game::new(rules),
        };
        Ok(WebGame { game })
    }

    /// The position string (FEN) of the current position.
    pub fn fen(&self) -> String {
        self.game.position().to_fen()
    }

    /// The rule set as JSON (the form `new Game` and `model.json` take).
    #[wasm_bindgen(js_name = rulesJson)]
    pub fn rules_json(&self) -> String {
        serde_json::to_string(self.game.rules()).expect("rules serialise")
    }

    /// `south` or `north`: whose move it is.
    #[wasm_bindgen(js_name = sideToMove)]
    pub fn side_to_move(&self) -> String {
        side_name(self.game.position().side_to_move())
    }

    /// The legal moves (`a1a2` text); none once the game is over.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        if self.game.is_over() {
            return Vec::new();
        }
        self.game
            .legal_moves()
            .as_slice()
            .iter()
            .map(Move::to_string)
            .collect()
    }

    /// Plays `mv` (`a1a2` text); an illegal move or a finished game is an
    /// error that says which.
    pub fn play(&mut self, mv: &str) -> Result<(), WebError> {
        self.game
            .play_text(mv)
            .map(|_| ())
            .map_err(|e| web_error(format!("move `{mv}`: {e}")))
    }

    /// Takes the last move back; the move taken back, if there was one.
    pub fn undo(&mut self) -> Option<String> {
        self.game.undo().map(|m| m.to_string())
    }

    /// The moves played, in order.
    pub fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(Move::to_string).collect()
    }

    /// Whether the game is over.
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The winner (`south`, `north`), `draw`, or nothing while the game goes on.
    pub fn result(&self) -> Option<String> {
        self.game.outcome().map(|o| match o.winner {
            Some(side) => side_name(side),
            None => "draw".to_string(),
        })
    }

    /// Why the game ended (`den`, `annihilation`, `no_move`, `repetition`,
    /// `quiet_limit`), or nothing while it goes on.
    pub fn reason(&self) -> Option<String> {
        self.game.outcome().map(|o| o.reason.name().to_string())
    }

    /// How many times the current position has occurred (1 = first time).
    #[wasm_bindgen(js_name = repetitions)]
    pub fn repetition_count(&self) -> u32 {
        self.game.repetition_count()
    }

    /// The 63 squares from a1 (index `rank * 7 + file`): `""` for an empty
    /// square, else `side animal` (`south rat`, `north elephant`).
    pub fn board(&self) -> Vec<String> {
        let mut squares = vec![String::new(); 63];
        for (sq, piece) in self.game.position().pieces() {
            squares[sq.index()] = format!("{} {}", side_name(piece.side()), piece.animal());
        }
        squares
    }

    /// The square names from a1 to g9 (`a1`, `b1`, ...), in board order.
    #[wasm_bindgen(js_name = squareNames)]
    pub fn square_names() -> Vec<String> {
        (0..63u8)
            .map(|i| Square::new(i).expect("on board").to_string())
            .collect()
    }

    /// The terrain of the 63 squares: `water`, `trap south`, `trap north`,
    /// `den south`, `den north` or `land`.
    pub fn terrain() -> Vec<String> {
        (0..63u8)
            .map(|i| {
                let sq = Square::new(i).expect("on board");
                let owner = |boards: [Bitboard; 2]| {
                    Side::BOTH.into_iter().find(|s| boards[s.index()].has(sq))
                };
                if WATER.has(sq) {
                    "water".to_string()
                } else if let Some(side) = owner(TRAPS) {
                    format!("trap {}", side_name(side))
                } else if let Some(side) = owner(DEN) {
                    format!("den {}", side_name(side))
                } else {
                    "land".to_string()
                }
            })
            .collect()
    }
}

impl WebGame {
    /// The game itself.
    pub fn game(&self) -> &Game {
        &self.game
    }
}
