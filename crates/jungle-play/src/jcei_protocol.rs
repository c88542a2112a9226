//! JCEI commands (GUI -> engine), one per line: parsed by the engine
//! (`jungle engine`, [`parse`]) and written by the `jcei:` player
//! ([`crate::jcei`], [`Command`]'s `Display`), so both sides speak one
//! grammar: a written command parses back to itself.

use std::fmt;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The rule set's start position.
    StartPos,
    /// A position string.
    Fen(String),
}

/// What a `go` command asks for. Limits combine as in UCI: the search
/// stops at the first one reached; `infinite` searches until `stop`
/// whatever else is given; a `go` with no limit and no clock uses the
/// engine's default budget (`setoption name Simulations` or `Depth`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `nodes N`: simulations of a search, nodes of alpha-beta.
    pub nodes: Option<u64>,
    /// `movetime MS`: milliseconds of thinking.
    pub movetime: Option<u64>,
    /// `depth D`: alpha-beta's depth, or the length of the search's
    /// principal variation.
    pub depth: Option<u32>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
    /// `wtime MS` / `btime MS`: the time left on South's (`w`) and North's
    /// (`b`) clocks, by [`jungle_rules::Side::index`].
    pub time: [Option<u64>; 2],
    /// `winc MS` / `binc MS`: each side's increment per move.
    pub increment: [u64; 2],
    /// `movestogo N`: moves until the next time control.
    pub moves_to_go: Option<u32>,
}

impl GoParams {
    /// Whether the command gives no limit at all (the engine's default
    /// budget applies).
    pub fn is_default(&self) -> bool {
        self.nodes.is_none()
            && self.movetime.is_none()
            && self.depth.is_none()
            && !self.infinite
            && self.time == [None, None]
    }

    /// `go depth D` alone.
    pub fn depth(depth: u32) -> GoParams {
        GoParams {
            depth: Some(depth),
            ..GoParams::default()
        }
    }

    /// Parses the words after `go`.
    fn parse(words: &[&str]) -> Result<GoParams, ParseError> {
        let mut go = GoParams::default();
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            let value = words.get(i + 1).copied();
            let what = format!("go {key}");
            match key {
                "infinite" => {
                    go.infinite = true;
                    i += 1;
                    continue;
                }
                "nodes" => go.nodes = Some(number(value, &what)?),
                "movetime" => go.movetime = Some(number(value, &what)?),
                "depth" => go.depth = Some(within(value, &what, MAX_DEPTH)?),
                "wtime" => go.time[0] = Some(number(value, &what)?),
                "btime" => go.time[1] = Some(number(value, &what)?),
                "winc" => go.increment[0] = number(value, &what)?,
                "binc" => go.increment[1] = number(value, &what)?,
                "movestogo" => go.moves_to_go = Some(within(value, &what, 10_000)?),
                other => {
                    return Err(ParseError(format!(
                        "go: unknown limit `{other}`; expected nodes N, movetime MS, depth D, \
                         infinite, wtime MS, btime MS, winc MS, binc MS or movestogo N"
                    )))
                }
            }
            i += 2;
        }
        Ok(go)
    }
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
    /// `go [nodes N] [movetime MS] [depth D] [infinite] [wtime MS btime MS
    /// [winc MS binc MS] [movestogo N]]`.
    Go(GoParams),
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

/// The canonical line of a command, without its line end: what [`parse`]
/// reads back as the same command.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Jcei => f.write_str("jcei"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("jceinewgame"),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Perft(depth) => write!(f, "perft {depth}"),
            Command::Go(go) => write!(f, "go{go}"),
            Command::Position { start, moves } => {
                match start {
                    Start::StartPos => f.write_str("position startpos")?,
                    Start::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::SetOption { name, value } if value.is_empty() => {
                write!(f, "setoption name {name}")
            }
            Command::SetOption { name, value } => write!(f, "setoption name {name} value {value}"),
        }
    }
}

/// The limits of a `go`, each with a leading space (nothing for a `go`
/// with none).
impl fmt::Display for GoParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let numbers = [
            ("nodes", self.nodes),
            ("movetime", self.movetime),
            ("depth", self.depth.map(u64::from)),
            ("wtime", self.time[0]),
            ("btime", self.time[1]),
            ("winc", Some(self.increment[0]).filter(|&ms| ms > 0)),
            ("binc", Some(self.increment[1]).filter(|&ms| ms > 0)),
            ("movestogo", self.moves_to_go.map(u64::from)),
        ];
        for (key, value) in numbers {
            if let Some(value) = value {
                write!(f, " {key} {value}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
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
        "go" => Command::Go(GoParams::parse(rest)?),
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
        let go = |line: &str| match parse(line).unwrap() {
            Some(Command::Go(go)) => go,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(go("go movetime 250").movetime, Some(250));
        assert!(go("go").is_default());
        assert!(go("go infinite").infinite && !go("go infinite").is_default());
        assert_eq!(
            go("go wtime 9000 btime 8000 winc 100 binc 200 movestogo 12"),
            GoParams {
                time: [Some(9000), Some(8000)],
                increment: [100, 200],
                moves_to_go: Some(12),
                ..GoParams::default()
            }
        );
        // Limits combine, in any order.
        let both = go("go depth 3 nodes 500");
        assert_eq!((both.depth, both.nodes), (Some(3), Some(500)));
        assert_eq!(
            parse("setoption name Network value /tmp/a b").unwrap(),
            Some(Command::SetOption {
                name: "Network".into(),
                value: "/tmp/a b".into()
            })
        );
    }

    #[test]
    fn every_written_command_parses_back_to_itself() {
        let commands = [
            Command::Jcei,
            Command::IsReady,
            Command::NewGame,
            Command::Stop,
            Command::Quit,
            Command::Display,
            Command::Perft(5),
            Command::Go(GoParams::default()),
            Command::Go(GoParams::depth(7)),
            Command::Go(GoParams {
                nodes: Some(800),
                movetime: Some(50),
                infinite: true,
                ..GoParams::default()
            }),
            Command::Go(GoParams {
                time: [Some(9000), Some(100)],
                increment: [30, 40],
                moves_to_go: Some(12),
                ..GoParams::default()
            }),
            Command::Position {
                start: Start::StartPos,
                moves: vec![],
            },
            Command::Position {
                start: Start::Fen("6e/3C3/w6/7/7/7/7/5D1/L6 w 0 1".into()),
                moves: vec!["a3a4".into(), "g7g6".into()],
            },
            Command::SetOption {
                name: "Network".into(),
                value: "/tmp/a b".into(),
            },
            Command::SetOption {
                name: "Clear Hash".into(),
                value: String::new(),
            },
        ];
        for command in commands {
            let line = command.to_string();
            assert_eq!(parse(&line).unwrap(), Some(command), "{line}");
        }
        assert_eq!(
            Command::Go(GoParams {
                movetime: Some(250),
                ..GoParams::default()
            })
            .to_string(),
            "go movetime 250"
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
            Some(Command::Go(GoParams::depth(64)))
        );
        assert!(parse("go wtime")
            .unwrap_err()
            .0
            .contains("`go wtime` needs"));
        assert!(parse("go wtime -5").unwrap_err().0.contains("whole number"));
        assert!(parse("go movestogo 0")
            .unwrap_err()
            .0
            .contains("1 to 10000"));
        assert!(parse("perft 13").unwrap_err().0.contains("1 to 12"));
        assert!(parse("position").unwrap_err().0.contains("startpos"));
        assert!(parse("setoption Nodes 3").unwrap_err().0.contains("name"));
    }
}
