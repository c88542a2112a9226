//! `jungle play` driven through stdin: the board, bad input, hints, undo,
//! and a won game.

mod common;

use common::jungle_with_input;

fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = jungle_with_input(&all, input.as_bytes());
    assert_eq!(code, Some(0), "{stderr}");
    stdout
}

#[test]
fn a_game_in_the_terminal_with_hints_undo_and_a_win() {
    // South (you) can enter the den at once: d8d9.
    let out = play(
        &["--player", "greedy", "--fen", "6e/3C3/w6/7/7/7/7/5D1/L6 w"],
        "hint\nz9z9\nmoves\nd8d9\n",
    );
    assert!(out.contains("a b c d e f g") && out.contains('~'), "{out}");
    assert!(out.contains("hint: d8d9"), "{out}");
    assert!(out.contains("not a legal move"), "{out}");
    assert!(
        out.contains("legal moves:") && out.contains("d8d9"),
        "{out}"
    );
    assert!(
        out.contains("Game over: ") && out.contains("you win"),
        "{out}"
    );

    // From the start: a move, the reply, then undo takes both back.
    let out = play(&["--player", "random"], "undo\na3a4\nundo\nquit\n");
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("random plays "), "{out}");
    assert!(out.contains("took back 2 plies"), "{out}");
}

/// Runs `jungle play ARGS` with no input; expects failure, returns stderr.
fn play_fails(args: &[&str]) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let (code, _, stderr) = jungle_with_input(&all, b"");
    assert_ne!(code, Some(0), "{args:?}");
    stderr
}

#[test]
fn bad_play_options_are_clear_errors() {
    let stderr = play_fails(&["--side", "east"]);
    assert!(
        stderr.contains("east") && stderr.contains("south or north"),
        "{stderr}"
    );
    assert!(play_fails(&["--fen", "7/7/7 w"]).contains("--fen"));
}

#[test]
fn playing_north_lets_the_opponent_move_first() {
    let out = play(&["--player", "greedy", "--side", "north"], "quit\n");
    assert!(out.contains("You play north"), "{out}");
    assert!(out.contains("greedy plays "), "{out}");
}
