//! The rule set: every variant switch of docs/RULES.md, with toml loading and the
//! named presets of `configs/variants/`.

use crate::invalid_key::InvalidKey;
use crate::piece::{Animal, Side};
use crate::position::Position;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Which river jumps an animal may make.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JumpRule {
    /// No jumps.
    #[default]
    None,
    /// Along files only (rank 3 <-> rank 7).
    Vertical,
    /// Along ranks only (file a <-> d <-> g, ranks 4 to 6).
    Horizontal,
    /// Both.
    Both,
}

impl JumpRule {
    /// Bit mask over [`crate::Direction`] slots (bit `d` set: may jump in direction `d`).
    #[inline]
    pub const fn direction_mask(self) -> u8 {
        match self {
            JumpRule::None => 0,
            JumpRule::Vertical => 0b0011,
            JumpRule::Horizontal => 0b1100,
            JumpRule::Both => 0b1111,
        }
    }
}

/// What happens to a side that has no legal move on its turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoMoveOutcome {
    /// It loses.
    #[default]
    Loss,
    /// The game is drawn.
    Draw,
}

/// What happens when a position occurs for the `repetition`-th time.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepetitionOutcome {
    /// The game is drawn.
    #[default]
    Draw,
    /// The side whose move completed the repetition loses.
    MoverLoses,
    /// A move that would complete the repetition is illegal.
    Forbidden,
}

/// Every switch of the variant table in docs/RULES.md. The default is the
/// `standard` rule set; a toml file lists only the switches it changes.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// The elephant may capture the rat.
    pub elephant_captures_rat: bool,
    /// River jumps of the lion.
    pub lion_jump: JumpRule,
    /// River jumps of the tiger.
    pub tiger_jump: JumpRule,
    /// River jumps of the leopard.
    pub leopard_jump: JumpRule,
    /// An animal on an enemy trap captures with its normal rank.
    pub trapped_can_capture: bool,
    /// Captures may cross the bank between water and land.
    pub rat_capture_across_bank: bool,
    /// Who moves first from the start position.
    pub first_player: Side,
    /// Outcome for a side without a legal move.
    pub no_move: NoMoveOutcome,
    /// Occurrence count that triggers the repetition rule; 0 turns it off.
    pub repetition: u32,
    /// What the repetition rule does.
    pub repetition_outcome: RepetitionOutcome,
    /// Plies without a capture that draw the game; 0 turns it off.
    pub quiet_plies_limit: u32,
    /// A start position of the rule set's own (FEN); `None` is the standard start.
    pub start_fen: Option<String>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            elephant_captures_rat: false,
            lion_jump: JumpRule::Both,
            tiger_jump: JumpRule::Both,
            leopard_jump: JumpRule::None,
            trapped_can_capture: false,
            rat_capture_across_bank: false,
            first_player: Side::South,
            no_move: NoMoveOutcome::Loss,
            repetition: 3,
            repetition_outcome: RepetitionOutcome::Draw,
            quiet_plies_limit: 200,
            start_fen: None,
        }
    }
}

/// The named presets, embedded from `configs/variants/`.
pub const PRESETS: [(&str, &str); 7] = [
    (
        "standard",
        include_str!("../../../configs/variants/standard.toml"),
    ),
    (
        "trap-attack",
        include_str!("../../../configs/variants/trap-attack.toml"),
    ),
    (
        "vertical-tiger",
        include_str!("../../../configs/variants/vertical-tiger.toml"),
    ),
    (
        "elephant-rat",
        include_str!("../../../configs/variants/elephant-rat.toml"),
    ),
    (
        "bank-rats",
        include_str!("../../../configs/variants/bank-rats.toml"),
    ),
    (
        "bbdsq",
        include_str!("../../../configs/variants/bbdsq.toml"),
    ),
    (
        "quiet-120",
        include_str!("../../../configs/variants/quiet-120.toml"),
    ),
];

/// Why a rule set could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// The file could not be read.
    #[error("cannot read rule set `{path}`: {error}")]
    Io {
        /// The path given.
        path: String,
        /// The cause.
        error: std::io::Error,
    },
    /// The toml is malformed, has an unknown key or a bad value.
    #[error("{origin}: {message}")]
    Parse {
        /// File name or preset name.
        origin: String,
        /// What was wrong, naming the key and the expected values.
        message: String,
    },
    /// Neither a preset name nor an existing file.
    #[error("unknown variant `{name}`: not a preset name ({known}) and no such file")]
    Unknown {
        /// The name given.
        name: String,
        /// The known preset names, comma separated.
        known: String,
    },
}

impl Rules {
    /// The jump rule of `animal` (only lion, tiger and leopard may jump).
    #[inline]
    pub fn jump_rule(&self, animal: Animal) -> JumpRule {
        match animal {
            Animal::Lion => self.lion_jump,
            Animal::Tiger => self.tiger_jump,
            Animal::Leopard => self.leopard_jump,
            _ => JumpRule::None,
        }
    }

    /// A 64-bit digest of every switch: equal rule sets have equal digests
    /// (for keys of in-memory caches that serve games of several rule sets;
    /// not stable across builds, so never stored).
    pub fn digest(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut hasher = DefaultHasher::new();
        self.hash(&mut hasher);
        hasher.finish()
    }

    /// The names of the presets, in a fixed order.
    pub fn preset_names() -> impl Iterator<Item = &'static str> {
        PRESETS.iter().map(|(n, _)| *n)
    }

    /// The preset called `name`, if there is one.
    pub fn preset(name: &str) -> Option<Rules> {
        PRESETS.iter().find(|(n, _)| *n == name).map(|(n, text)| {
            Rules::from_toml_str(text, &format!("preset `{n}`"))
                .expect("embedded presets are valid")
        })
    }

    /// Loads a preset by name, or else a toml file by path.
    pub fn load(name_or_path: &str) -> Result<Rules, RulesError> {
        if let Some(rules) = Rules::preset(name_or_path) {
            return Ok(rules);
        }
        let path = Path::new(name_or_path);
        if !path.exists() {
            return Err(RulesError::Unknown {
                name: name_or_path.to_string(),
                known: Rules::preset_names().collect::<Vec<_>>().join(", "),
            });
        }
        Rules::from_file(path)
    }

    /// Loads a toml file.
    pub fn from_file(path: &Path) -> Result<Rules, RulesError> {
        let text = jungle_files::read_text_bounded(path, jungle_files::MAX_SETTINGS_BYTES)
            .map_err(|error| RulesError::Io {
                path: path.display().to_string(),
                error,
            })?;
        Rules::from_toml_str(&text, &path.display().to_string())
    }

    /// Parses toml text; `origin` names the file in error messages.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Rules, RulesError> {
        let rules: Rules = toml::from_str(text).map_err(|e| RulesError::Parse {
            origin: origin.to_string(),
            message: describe_toml_error(text, &e),
        })?;
        rules.validate().map_err(|e| RulesError::Parse {
            origin: origin.to_string(),
            message: e.to_string(),
        })?;
        Ok(rules)
    }

    /// Checks values that the types alone do not constrain.
    pub fn validate(&self) -> Result<(), InvalidKey> {
        if self.repetition == 1 {
            return Err(InvalidKey::new(
                "repetition",
                1,
                "0 (off) or a count of at least 2 (1 would end every game at once)",
            ));
        }
        if let Some(fen) = &self.start_fen {
            let pos = Position::from_fen(fen).map_err(|e| {
                InvalidKey::new(
                    "start_fen",
                    format!("`{fen}`"),
                    format!("a position string ({})", e.problem),
                )
            })?;
            let has_move = !pos.legal_moves(self).is_empty();
            if let Some(over) = crate::history::end_of_game(&pos, self, has_move, 1) {
                return Err(InvalidKey::new(
                    "start_fen",
                    format!("`{fen}`, a game already over ({})", over.reason.name()),
                    "a start whose game can be played",
                ));
            }
        }
        Ok(())
    }

    /// The toml text of this rule set (every switch written out).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("rules always serialise")
    }

    /// The start position: `start_fen` if set, else the standard start with
    /// `first_player` to move.
    ///
    /// # Panics
    ///
    /// If `start_fen` was set in code to an invalid string; rule sets read
    /// from toml are validated when loaded (see [`Rules::validate`]).
    pub fn start_position(&self) -> Position {
        match &self.start_fen {
            Some(fen) => Position::from_fen(fen).expect("start_fen is validated on load"),
            None => {
                let mut pos = Position::start();
                pos.set_side_to_move(self.first_player);
                pos
            }
        }
    }
}

/// Turns a toml error into one line naming the line, the key and what was expected.
fn describe_toml_error(text: &str, err: &toml::de::Error) -> String {
    let message = err.message().trim().to_string();
    let Some(span) = err.span() else {
        return message;
    };
    let line_no = text[..span.start.min(text.len())].matches('\n').count() + 1;
    let line = text.lines().nth(line_no - 1).unwrap_or("");
    match line.split_once('=') {
        Some((key, _)) => format!("line {line_no}, key `{}`: {message}", key.trim()),
        None => format!("line {line_no}: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_preset_is_the_default() {
        assert_eq!(Rules::preset("standard").unwrap(), Rules::default());
    }

    #[test]
    fn digests_tell_rule_sets_apart() {
        let digests: std::collections::HashSet<u64> = Rules::preset_names()
            .map(|n| Rules::preset(n).unwrap().digest())
            .collect();
        assert_eq!(digests.len(), PRESETS.len());
        assert_eq!(
            Rules::default().digest(),
            Rules::preset("standard").unwrap().digest()
        );
    }

    #[test]
    fn presets_set_the_switches_of_rules_md() {
        let p = |n| Rules::preset(n).unwrap();
        let d = Rules::default();
        assert_eq!(
            p("trap-attack"),
            Rules {
                trapped_can_capture: true,
                ..d.clone()
            }
        );
        assert_eq!(
            p("vertical-tiger"),
            Rules {
                tiger_jump: JumpRule::Vertical,
                quiet_plies_limit: 100,
                first_player: Side::North,
                ..d.clone()
            }
        );
        assert_eq!(
            p("elephant-rat"),
            Rules {
                elephant_captures_rat: true,
                ..d.clone()
            }
        );
        assert_eq!(
            p("bank-rats"),
            Rules {
                rat_capture_across_bank: true,
                repetition_outcome: RepetitionOutcome::MoverLoses,
                ..d
            }
        );
    }

    #[test]
    fn toml_round_trips() {
        for name in Rules::preset_names() {
            let r = Rules::preset(name).unwrap();
            assert_eq!(Rules::from_toml_str(&r.to_toml(), "x").unwrap(), r);
        }
        let with_fen = Rules {
            start_fen: Some("7/7/7/7/7/7/7/3r3/2L4 w".into()),
            ..Rules::default()
        };
        assert_eq!(
            Rules::from_toml_str(&with_fen.to_toml(), "x").unwrap(),
            with_fen
        );
    }

    #[test]
    fn unknown_key_names_file_and_key() {
        let err = Rules::from_toml_str("lion_jmp = \"both\"\n", "my.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("my.toml"), "{err}");
        assert!(err.contains("lion_jmp"), "{err}");
        assert!(err.contains("lion_jump"), "lists the allowed keys: {err}");
    }

    #[test]
    fn bad_value_names_key_and_allowed_values() {
        let err = Rules::from_toml_str(
            "quiet_plies_limit = 100\ntiger_jump = \"sideways\"\n",
            "v.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("v.toml"), "{err}");
        assert!(err.contains("tiger_jump"), "{err}");
        assert!(err.contains("line 2"), "{err}");
        for allowed in ["none", "vertical", "horizontal", "both"] {
            assert!(err.contains(allowed), "{err}");
        }
        let err = Rules::from_toml_str("repetition_outcome = \"lose\"", "v.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("mover-loses") && err.contains("forbidden"),
            "{err}"
        );
        let err = Rules::from_toml_str("repetition = -1", "v.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("repetition"), "{err}");
        let err = Rules::from_toml_str("elephant_captures_rat = 1", "v.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("elephant_captures_rat") && err.contains("bool"),
            "{err}"
        );
    }

    #[test]
    fn semantic_errors_name_the_key() {
        let err = Rules::from_toml_str("repetition = 1", "v.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("v.toml") && err.contains("`repetition`"),
            "{err}"
        );
        let err = Rules::from_toml_str("start_fen = \"7/7 w\"", "v.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("start_fen"), "{err}");
        // Starts whose game is over: a den entered, a side gone, the quiet
        // counter at the limit.
        for (fen, reason) in [
            ("3L3/7/7/7/7/7/7/7/6r b 0", "den"),
            ("7/7/7/7/7/7/7/7/L6 b 0", "annihilation"),
            ("t6/7/7/7/7/7/7/7/6L w 200", "quiet"),
        ] {
            let text = format!("start_fen = \"{fen}\"");
            let err = Rules::from_toml_str(&text, "v.toml")
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("start_fen") && err.contains("already over") && err.contains(reason),
                "{fen}: {err}"
            );
        }
        let playable = "start_fen = \"t6/7/7/7/7/7/7/7/6L w 199\"";
        assert!(Rules::from_toml_str(playable, "v.toml").is_ok());
    }

    #[test]
    fn unknown_variant_lists_presets() {
        let err = Rules::load("no-such-variant").unwrap_err().to_string();
        for name in Rules::preset_names() {
            assert!(err.contains(name), "{err}");
        }
    }

    #[test]
    fn start_position_honours_first_player() {
        let r = Rules::preset("vertical-tiger").unwrap();
        assert_eq!(r.start_position().side_to_move(), Side::North);
        assert_eq!(
            Rules::default().start_position().side_to_move(),
            Side::South
        );
    }
}
