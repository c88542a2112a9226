//! A played game as one JSON line and as text a person reads and replays.
//!
//! `jungle arena --record` and `jungle variants --record` write
//! [`PlayedGame::to_json`] lines; `tournament` and training evaluations
//! write `matches.jsonl` lines (`a`, `b`, `a_seat`, `score_a`). `jungle
//! games` reads either shape ([`RecordedGame::from_json`]) and prints each
//! game as numbered moves, the result and the final board
//! ([`RecordedGame::to_text`]).

use crate::arena::GameEnd;
use jungle_rules::{moves_text, Game, Move, Rules, Side};
use serde_json::{json, Value};
use std::fmt::Write;

/// A game as it was played, for its JSON line.
pub struct PlayedGame<'a> {
    /// Its number in its match.
    pub index: u32,
    /// The match's first-named player (arena's `--a`, variants' `--player`).
    pub a: &'a str,
    /// The other player.
    pub b: &'a str,
    /// The seat `a` had.
    pub a_seat: Side,
    /// How it ended.
    pub end: &'a GameEnd,
    /// Every move from the rule set's start, the opening included.
    pub moves: &'a [Move],
    /// The rule set it was played under, as the command was given it.
    pub variant: &'a str,
}

impl PlayedGame<'_> {
    /// One JSON object: `game`, `south`, `north`, `a_seat`, `score_a`,
    /// `result` (South's view: `1-0`, `0-1`, `1/2-1/2`), `reason`, `plies`,
    /// `variant`, `moves`.
    pub fn to_json(&self) -> Value {
        let (south, north) = match self.a_seat {
            Side::South => (self.a, self.b),
            Side::North => (self.b, self.a),
        };
        json!({
            "game": self.index,
            "south": south,
            "north": north,
            "a_seat": self.a_seat.name(),
            "score_a": self.end.score_for(self.a_seat),
            "result": result_text(self.end.score_for(Side::South)),
            "reason": self.end.reason_name(),
            "plies": self.moves.len(),
            "variant": self.variant,
            "moves": moves_text(self.moves),
        })
    }
}

/// A result from South's score: `1-0`, `0-1` or `1/2-1/2`.
pub fn result_text(south_score: f64) -> &'static str {
    if south_score > 0.75 {
        "1-0"
    } else if south_score < 0.25 {
        "0-1"
    } else {
        "1/2-1/2"
    }
}

/// A game read back from a JSON line of either shape.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedGame {
    /// Its number in its match, if the line has one.
    pub game: Option<u64>,
    /// The training generation whose evaluation played it (matches.jsonl).
    pub generation: Option<u64>,
    /// South's player.
    pub south: String,
    /// North's player.
    pub north: String,
    /// South's score: 1, 0.5 or 0.
    pub south_score: f64,
    /// Why it ended.
    pub reason: String,
    /// The rule set named on the line, if it names one.
    pub variant: Option<String>,
    /// Every move from the rule set's start, as text.
    pub moves: Vec<String>,
}

/// Why a line is not a game that can be shown.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON, or a field missing or of the wrong type.
    #[error("{0}")]
    Malformed(String),
    /// A move that is not legal where it was played.
    #[error("ply {ply} ({mv}): {problem}")]
    Replay {
        /// The ply (0 = the first move).
        ply: usize,
        /// The move's text.
        mv: String,
        /// What is wrong.
        problem: String,
    },
}

impl RecordedGame {
    /// Reads a line of `arena --record` / `variants --record` (`south`,
    /// `north`) or of `matches.jsonl` (`a`, `b`, `a_seat`); `score_a`,
    /// `reason` and `moves` in both.
    pub fn from_json(line: &str) -> Result<RecordedGame, RecordError> {
        let v: Value = serde_json::from_str(line)
            .map_err(|e| RecordError::Malformed(format!("not JSON: {e}")))?;
        let text = |key: &str| -> Result<String, RecordError> {
            v[key]
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| RecordError::Malformed(format!("field `{key}`: expected a string")))
        };
        let score_a = v["score_a"].as_f64().ok_or_else(|| {
            RecordError::Malformed("field `score_a`: expected 1, 0.5 or 0".to_string())
        })?;
        let a_seat = match v.get("a_seat") {
            Some(_) => match text("a_seat")?.as_str() {
                "south" => Some(Side::South),
                "north" => Some(Side::North),
                other => {
                    return Err(RecordError::Malformed(format!(
                        "field `a_seat`: expected south or north, not {other:?}"
                    )))
                }
            },
            None => None,
        };
        let (south, north, a_seat) = match (v.get("south"), a_seat) {
            (Some(_), seat) => (text("south")?, text("north")?, seat.unwrap_or(Side::South)),
            (None, Some(seat)) => {
                let (a, b) = (text("a")?, text("b")?);
                match seat {
                    Side::South => (a, b, seat),
                    Side::North => (b, a, seat),
                }
            }
            (None, None) => {
                return Err(RecordError::Malformed(
                    "no seats: expected `south` and `north`, or `a`, `b` and `a_seat` \
                     (matches.jsonl lines written before seats were kept cannot be shown)"
                        .to_string(),
                ))
            }
        };
        let moves = match v.get("moves") {
            Some(_) => text("moves")?
                .split_whitespace()
                .map(str::to_string)
                .collect(),
            None => {
                return Err(RecordError::Malformed(
                    "no `moves` (a line written before moves were kept)".to_string(),
                ))
            }
        };
        let south_score = match a_seat {
            Side::South => score_a,
            Side::North => 1.0 - score_a,
        };
        Ok(RecordedGame {
            game: v["game"].as_u64(),
            generation: v["generation"].as_u64(),
            south,
            north,
            south_score,
            reason: text("reason")?,
            variant: v["variant"].as_str().map(str::to_string),
            moves,
        })
    }

    /// The game replayed under `rules` (named `variant`) as text: tags,
    /// numbered moves, the result, the final board and the command that
    /// analyses the position of its last move. A move that is not legal is an error naming its ply.
    pub fn to_text(&self, rules: &Rules, variant: &str) -> Result<String, RecordError> {
        let mut game = Game::new(rules.clone());
        let mut numbered = String::new();
        // Moves are numbered in pairs, South's first; a game North opens
        // starts with `1. ...`.
        let north_first = usize::from(game.position().side_to_move() == Side::North);
        for (ply, mv) in self.moves.iter().enumerate() {
            let mover = game.position().side_to_move();
            if ply == 0 && mover == Side::North {
                numbered.push_str("  1. ...   ");
            }
            if mover == Side::South {
                let _ = write!(numbered, "{:>3}. {mv:<6}", (ply + north_first) / 2 + 1);
            } else {
                let _ = writeln!(numbered, " {mv}");
            }
            let over = game.is_over();
            game.play_text(mv).map_err(|e| RecordError::Replay {
                ply,
                mv: mv.clone(),
                problem: if over {
                    "played after the game had ended".to_string()
                } else {
                    e.to_string()
                },
            })?;
        }
        if !numbered.ends_with('\n') && !numbered.is_empty() {
            numbered.push('\n');
        }
        let result = result_text(self.south_score);
        let mut out = String::new();
        if let Some(g) = self.generation {
            let _ = writeln!(out, "[Generation \"{g}\"]");
        }
        if let Some(g) = self.game {
            let _ = writeln!(out, "[Game \"{g}\"]");
        }
        let _ = writeln!(out, "[South \"{}\"]", self.south);
        let _ = writeln!(out, "[North \"{}\"]", self.north);
        let _ = writeln!(out, "[Variant \"{variant}\"]");
        let _ = writeln!(out, "[Result \"{result}\"]");
        let _ = writeln!(out, "[Reason \"{}\"]", self.reason);
        let _ = writeln!(out, "[Plies \"{}\"]", self.moves.len());
        out.push('\n');
        out.push_str(&numbered);
        let _ = writeln!(out, "{result} ({})", self.reason);
        let _ = writeln!(out, "\n{}", game.position());
        if let Some((_, before)) = self.moves.split_last() {
            let _ = writeln!(
                out,
                "the last move's position: jungle analyze --variant {variant} --moves \"{}\"",
                before.join(" ")
            );
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::GameEnd;
    use jungle_rules::{EndReason, Outcome};

    fn start_moves(rules: &Rules, n: usize) -> Vec<Move> {
        let mut game = Game::new(rules.clone());
        for _ in 0..n {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
        }
        game.moves().to_vec()
    }

    #[test]
    fn an_arena_line_reads_back_with_its_seats_and_result() {
        let rules = Rules::default();
        let moves = start_moves(&rules, 5);
        let end = GameEnd {
            outcome: Some(Outcome {
                winner: Some(Side::North),
                reason: EndReason::Den,
            }),
            forfeit: None,
            adjudicated: None,
        };
        let played = PlayedGame {
            index: 3,
            a: "greedy",
            b: "random",
            a_seat: Side::North,
            end: &end,
            moves: &moves,
            variant: "standard",
        };
        let line = played.to_json().to_string();
        let game = RecordedGame::from_json(&line).unwrap();
        assert_eq!(game.south, "random");
        assert_eq!(game.north, "greedy");
        assert_eq!(game.south_score, 0.0);
        assert_eq!(game.game, Some(3));
        assert_eq!(game.moves.len(), 5);
        let text = game.to_text(&rules, "standard").unwrap();
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
        assert!(text.contains("[North \"greedy\"]"), "{text}");
        assert!(
            text.contains(&format!("  1. {:<6} {}", game.moves[0], game.moves[1])),
            "{text}"
        );
        assert!(text.contains(&format!("  3. {}", game.moves[4])), "{text}");
        let mut replayed = Game::new(rules.clone());
        for mv in &moves {
            replayed.play(*mv).unwrap();
        }
        assert!(text.contains(&replayed.position().to_fen()), "{text}");
    }

    #[test]
    fn a_game_north_opens_is_numbered_from_its_first_pair() {
        let rules = Rules {
            first_player: Side::North,
            ..Rules::default()
        };
        let moves = start_moves(&rules, 3);
        let line = format!(
            r#"{{"south":"a","north":"b","score_a":0.5,"reason":"ply_cap","moves":"{}"}}"#,
            moves_text(&moves)
        );
        let text = RecordedGame::from_json(&line)
            .unwrap()
            .to_text(&rules, "north-first")
            .unwrap();
        let m: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert!(text.contains(&format!("  1. ...    {}\n", m[0])), "{text}");
        assert!(
            text.contains(&format!("  2. {:<6} {}\n", m[1], m[2])),
            "{text}"
        );
    }

    #[test]
    fn a_matches_line_reads_its_seats_from_a_seat() {
        let line = r#"{"generation":4,"a":"step:10","b":"alphabeta:2","score_a":1.0,"plies":2,"reason":"den","a_seat":"north","moves":"a3a4 g7g6"}"#;
        let game = RecordedGame::from_json(line).unwrap();
        assert_eq!(
            (game.south.as_str(), game.north.as_str()),
            ("alphabeta:2", "step:10")
        );
        assert_eq!(game.south_score, 0.0);
        assert_eq!(game.generation, Some(4));
    }

    #[test]
    fn bad_lines_and_illegal_moves_are_named() {
        let old = r#"{"generation":4,"a":"x","b":"y","score_a":1.0,"plies":2,"reason":"den"}"#;
        let e = RecordedGame::from_json(old).unwrap_err().to_string();
        assert!(e.contains("no seats"), "{e}");
        let e = RecordedGame::from_json("{").unwrap_err().to_string();
        assert!(e.contains("not JSON"), "{e}");
        let e = RecordedGame::from_json(r#"{"south":"a","north":"b","score_a":"1"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("score_a"), "{e}");
        let line =
            r#"{"south":"a","north":"b","score_a":0.5,"reason":"ply_cap","moves":"a3a4 a3a4"}"#;
        let game = RecordedGame::from_json(line).unwrap();
        let e = game.to_text(&Rules::default(), "standard").unwrap_err();
        assert!(matches!(e, RecordError::Replay { ply: 1, .. }), "{e}");
        assert!(e.to_string().contains("ply 1 (a3a4)"), "{e}");
    }
}
