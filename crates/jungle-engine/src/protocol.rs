//! JCEI commands (GUI -> engine), one per line.

use std::fmt;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The rule set's start position.
    StartPos,
    /// A position string.
    Fen(String),
}

/// The limits of a `go` command (the first one given counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    /// Nodes: simulations for the network's search, nodes for alpha-beta.
    Nodes(u64),
    /// Milliseconds of thinking.
    MoveTime(u64),
    /// Plies: alpha-beta depth, or the principal variation's length for the
    /// network's search.
    Depth(u32),
    /// No limit given: the engine's default budget (`setoption`).
    Default,
}

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `jcei`: identify.
    Jcei,
    /// `isready`.
    IsReady,
    /// `jceinewgame` (also `ucinewgame`): forget the last game.
    NewGame,
    /// `position startpos|fen FEN [moves m1 m2 ...]`.
    Position {
        /// The start.
        start: Start,
        /// Moves played from it.
        moves: Vec<String>,
    },
    /// `go [nodes N | movetime MS | depth D | infinite]`.
    Go(GoLimit),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `d`: show the board.
    Display,
    /// `perft N`.
    Perft(u32),
    /// `setoption name X value Y`.
    SetOption {
        /// Option name.
        name: String,
        /// Its value (may be empty).
        value: String,
    },
}

/// A line that is not a command this engine understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn number<T: std::str::FromStr>(word: Option<&str>, what: &str) -> Result<T, ParseError> {
    word.and_then(|w| w.parse().ok())
        .ok_or_else(|| ParseError(format!("`{what}` needs a whole number")))
}

/// The deepest `go depth` (alpha-beta's table keeps depths in a byte).
pub const MAX_DEPTH: u32 = 64;
/// The deepest `perft` (depth 10 of the start is some 4 * 10^13 nodes).
pub const MAX_PERFT_DEPTH: u32 = 12;

/// A whole number from 1 to `max`.
fn within(word: Option<&str>, what: &str, max: u32) -> Result<u32, ParseError> {
    let n: u32 = number(word, what)?;
    if (1..=max).contains(&n) {
        Ok(n)
    } else {
        Err(ParseError(format!("`{what}` is {n}, expected 1 to {max}")))
    }
}

/// Parses one line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&head) = words.first() else {
        return Ok(None);
    };
    let rest = &words[1..];
    let command = match head {
        "jcei" | "uci" => Command::Jcei,
        "isready" => Command::IsReady,
        "jceinewgame" | "ucinewgame" => Command::NewGame,
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "perft" => Command::Perft(within(rest.first().copied(), "perft", MAX_PERFT_DEPTH)?),
        "go" => Command::Go(match rest {
            [] | ["infinite", ..] => GoLimit::Default,
            ["nodes", n, ..] => GoLimit::Nodes(number(Some(n), "go nodes")?),
            ["movetime", n, ..] => GoLimit::MoveTime(number(Some(n), "go movetime")?),
            ["depth", n, ..] => GoLimit::Depth(within(Some(n), "go depth", MAX_DEPTH)?),
            [other, ..] => {
                return Err(ParseError(format!(
                    "go: unknown limit `{other}`; expected nodes N, movetime MS or depth D"
                )))
            }
        }),
        "position" => {
            let moves_at = rest.iter().position(|&w| w == "moves");
            let (spec, moves) = match moves_at {
                Some(i) => (&rest[..i], rest[i + 1..].to_vec()),
                None => (rest, Vec::new()),
            };
            let start = match spec {
                ["startpos"] => Start::StartPos,
                ["fen", fen @ ..] if !fen.is_empty() => Start::Fen(fen.join(" ")),
                _ => {
                    return Err(ParseError(
                        "position: expected `position startpos [moves ...]` or `position fen FEN [moves ...]`"
                            .into(),
                    ))
                }
            };
            Command::Position {
                start,
                moves: moves.iter().map(|m| m.to_string()).collect(),
            }
        }
        "setoption" => {
            let name_at = rest.iter().position(|&w| w == "name");
            let value_at = rest.iter().position(|&w| w == "value");
            match (name_at, value_at) {
                (Some(0), Some(v)) if v > 1 => Command::SetOption {
                    name: rest[1..v].join(" "),
                    value: rest[v + 1..].join(" "),
                },
                (Some(0), None) if rest.len() > 1 => Command::SetOption {
                    name: rest[1..].join(" "),
                    value: String::new(),
                },
                _ => {
                    return Err(ParseError(
                        "setoption: expected `setoption name NAME value VALUE`".into(),
                    ))
                }
            }
        }
        other => return Err(ParseError(format!("unknown command `{other}`"))),
    };
    Ok(Some(command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse("jcei").unwrap(), Some(Command::Jcei));
        assert_eq!(parse("   ").unwrap(), None);
        assert_eq!(
            parse("position startpos moves a3a4 g7g6").unwrap(),
            Some(Command::Position {
                start: Start::StartPos,
                moves: vec!["a3a4".into(), "g7g6".into()]
            })
        );
        assert_eq!(
            parse("position fen 6e/3C3/w6/7/7/7/7/5D1/L6 w 0 1").unwrap(),
            Some(Command::Position {
                start: Start::Fen("6e/3C3/w6/7/7/7/7/5D1/L6 w 0 1".into()),
                moves: vec![]
            })
        );
        assert_eq!(
            parse("go movetime 250").unwrap(),
            Some(Command::Go(GoLimit::MoveTime(250)))
        );
        assert_eq!(parse("go").unwrap(), Some(Command::Go(GoLimit::Default)));
        assert_eq!(
            parse("setoption name Network value /tmp/a b").unwrap(),
            Some(Command::SetOption {
                name: "Network".into(),
                value: "/tmp/a b".into()
            })
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        assert!(parse("fly")
            .unwrap_err()
            .0
            .contains("unknown command `fly`"));
        assert!(parse("go nodes many")
            .unwrap_err()
            .0
            .contains("whole number"));
        assert!(parse("go sideways").unwrap_err().0.contains("sideways"));
        assert!(parse("go depth 65").unwrap_err().0.contains("1 to 64"));
        assert!(parse("go depth 0").unwrap_err().0.contains("1 to 64"));
        assert_eq!(
            parse("go depth 64").unwrap(),
            Some(Command::Go(GoLimit::Depth(64)))
        );
        assert!(parse("perft 13").unwrap_err().0.contains("1 to 12"));
        assert!(parse("position").unwrap_err().0.contains("startpos"));
        assert!(parse("setoption Nodes 3").unwrap_err().0.contains("name"));
    }
}
