//! `jungle play`: a human against a player in the terminal.

use super::shared::{load_rules, parse_player, DeviceArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use jungle_rules::{moves_text, Game, Side};
use std::io::{BufRead, Write};

/// Arguments of `jungle play`.
#[derive(Args)]
pub struct PlayArgs {
    #[arg(long, default_value = jungle_play::shipped::DEFAULT_PLAYER, help = concat!(
        "The opponent; the default is the shipped network (networks/default). ",
        jungle_play::player_forms!()
    ))]
    player: String,
    /// Rule set: a preset name or a toml file.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Your side: south (bottom, upper-case letters) or north.
    #[arg(long, default_value = "south")]
    side: String,
    /// Start from this position instead of the rule set's start.
    #[arg(long)]
    fen: Option<String>,
    /// Seed of the opponent.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where `net:` players' networks run.
    #[command(flatten)]
    device: DeviceArgs,
}

const HELP: &str =
    "enter a move like a3a4 (a jump: b3b7), or: moves, hint, undo, board, help, quit";

/// The game after replaying `moves` from `start`.
fn replay(start: &Game, moves: &[jungle_rules::Move]) -> Game {
    let mut game = start.clone();
    for &mv in moves {
        game.play(mv).expect("replaying moves that were legal");
    }
    game
}

/// Runs `jungle play`, reading commands from stdin.
pub fn run(args: &PlayArgs) -> Result<()> {
    let compute = args.device.open()?;
    let rules = load_rules(&args.variant)?;
    let human = match args.side.as_str() {
        "south" => Side::South,
        "north" => Side::North,
        other => bail!("--side: `{other}`, expected south or north"),
    };
    let factory = parse_player(&args.player, &compute).context("--player")?;
    let mut opponent = factory.build(&rules, args.seed);
    let mut helper = factory.build(&rules, args.seed ^ 0x5EED);
    let start = match &args.fen {
        Some(fen) => Game::from_fen(rules.clone(), fen).context("reading --fen")?,
        None => Game::new(rules.clone()),
    };
    let mut game = start.clone();
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut out = std::io::stdout();
    println!(
        "You play {human} against {}, variant {}. {HELP}.",
        args.player, args.variant
    );
    println!("Board: upper case = South, lower case = North; ~ water, # trap, @ den.");
    println!("\n{}\n", game.position());
    loop {
        if let Some(outcome) = game.outcome() {
            let verdict = match outcome.winner {
                Some(w) if w == human => "you win",
                Some(_) => "you lose",
                None => "draw",
            };
            println!("Game over: {outcome} - {verdict}.");
            return Ok(());
        }
        if game.position().side_to_move() != human {
            match opponent.try_choose(&game) {
                Ok(d) => {
                    game.play(d.mv).context("the opponent's move")?;
                    let value = d.value.map_or(String::new(), |v| {
                        format!(" (it rates its position {v:+.2})")
                    });
                    println!(
                        "{} plays {}{value}\n\n{}\n",
                        args.player,
                        d.mv,
                        game.position()
                    );
                }
                Err(reason) => {
                    println!("The opponent gives up: {reason}. You win.");
                    return Ok(());
                }
            }
            continue;
        }
        print!("your move> ");
        out.flush()?;
        let Some(line) = input.next() else {
            println!();
            return Ok(());
        };
        let line = line?;
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" => println!("{HELP}"),
            "board" => println!("{}", game.position()),
            "moves" => {
                println!("legal moves: {}", moves_text(&game.legal_moves()));
            }
            "hint" => {
                let d = helper.choose(&game);
                let value = d
                    .value
                    .map_or(String::new(), |v| format!(", value {v:+.2}"));
                println!("hint: {}{value}", d.mv);
            }
            "undo" => {
                // Take back plies until it is your move again: your last
                // move and the reply to it.
                let mut keep = game.moves().to_vec();
                while keep.pop().is_some() {
                    if side_after(&start, keep.len()) == human {
                        break;
                    }
                }
                if keep.len() < game.moves().len() && side_after(&start, keep.len()) == human {
                    let back = game.moves().len() - keep.len();
                    game = replay(&start, &keep);
                    println!("took back {back} plies\n\n{}\n", game.position());
                } else {
                    println!("nothing to undo");
                }
            }
            text => match game.play_text(text) {
                Ok(_) => println!("\n{}\n", game.position()),
                Err(e) => println!("not a legal move: {e} (type `moves` to list them)"),
            },
        }
    }
}

/// The side to move after `plies` plies from `start`.
fn side_after(start: &Game, plies: usize) -> Side {
    let first = start.position().side_to_move();
    if plies.is_multiple_of(2) {
        first
    } else {
        !first
    }
}
