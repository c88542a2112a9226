//! When a rule switch mattered: whether a game of one rule set ever reached
//! a position where its rules and the baseline's disagree.
//!
//! A rule set differs from the baseline by a few switches, and most of them
//! only matter in rare positions (a trapped animal next to a stronger one,
//! a rat on the bank beside an enemy in the water). Two rule sets whose
//! games never reach such a position play the same games, and a table that
//! shows them identical must say so. For each position of a game played
//! under `rules` this compares, given the game's history so far, the legal
//! moves under `rules` and under `baseline` and how the game stands (over,
//! and how) under each: the switch is *live* in a game when they differ at
//! some position, and a *played* switch is a move of the game (after the
//! shared random opening) that only `rules` allows. A rule set with a start
//! position of its own (`start_fen`) is live from its first position. The
//! first player alone is never live: the start is symmetric, and the legal
//! moves of a position do not depend on who moved first.

use jungle_rules::{end_of_game, legal_moves_in_history, repetitions, Game, Move, Rules};
use serde::Serialize;

/// How a game's rule set differed from the baseline's during the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SwitchActivity {
    /// Some position of the game had other legal moves or another end
    /// under the game's rules than under the baseline's (or the rule set
    /// starts from a position of its own).
    pub live: bool,
    /// Positions of the game where that was so.
    pub live_positions: u32,
    /// Some move played after the opening is legal under the game's rules
    /// and not under the baseline's.
    pub played: bool,
}

/// The sorted legal moves of position `i` of `game` under `rules`, given the
/// game's history up to it, and the game's end there under `rules`.
fn judged(game: &Game, i: usize, rules: &Rules) -> (Vec<Move>, Option<jungle_rules::Outcome>) {
    let pos = &game.positions()[i];
    let history = &game.hashes()[..=i];
    let mut moves: Vec<Move> = legal_moves_in_history(pos, rules, history)
        .iter()
        .copied()
        .collect();
    moves.sort_unstable();
    let count = repetitions(&history[..i], pos.hash(), pos.quiet_plies());
    let end = end_of_game(pos, rules, !moves.is_empty(), count);
    (moves, end)
}

/// How `game` (played under its own rules) would have gone differently
/// under `baseline`; `opening_plies` moves at its start were the shared
/// random opening, not the players' choices.
pub fn switch_activity(game: &Game, baseline: &Rules, opening_plies: usize) -> SwitchActivity {
    let rules = game.rules();
    if rules == baseline {
        return SwitchActivity::default();
    }
    let mut activity = SwitchActivity {
        live: rules.start_fen != baseline.start_fen,
        ..SwitchActivity::default()
    };
    for i in 0..game.positions().len() {
        let (own_moves, own_end) = judged(game, i, rules);
        let (base_moves, base_end) = judged(game, i, baseline);
        let over = own_end.is_some() || base_end.is_some();
        let differs = own_end != base_end || (!over && own_moves != base_moves);
        if differs {
            activity.live = true;
            activity.live_positions += 1;
        }
        if let Some(&mv) = game.moves().get(i) {
            if i >= opening_plies && base_moves.binary_search(&mv).is_err() {
                activity.played = true;
            }
        }
    }
    activity
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Side;

    fn play(rules: &Rules, fen: &str, moves: &[&str]) -> Game {
        let mut game = Game::from_fen(rules.clone(), fen).unwrap();
        for mv in moves {
            game.play_text(mv).unwrap();
        }
        game
    }

    /// A south elephant next to a north rat, each far from anything else.
    const ELEPHANT_BY_RAT: &str = "6l/7/7/7/7/7/7/1rE4/L6 w";

    #[test]
    fn a_switch_is_live_where_the_legal_moves_differ_and_played_when_only_it_allows_the_move() {
        let elephant_rat = Rules::preset("elephant-rat").unwrap();
        let standard = Rules::default();
        // The elephant takes the rat: only elephant-rat allows it.
        let taken = play(&elephant_rat, ELEPHANT_BY_RAT, &["c2b2"]);
        let a = switch_activity(&taken, &standard, 0);
        assert!(a.live && a.played, "{a:?}");
        assert_eq!(a.live_positions, 1, "only the first position differs");
        // The same position, the elephant steps away: live, not played.
        let away = play(&elephant_rat, ELEPHANT_BY_RAT, &["c2c3"]);
        let a = switch_activity(&away, &standard, 0);
        assert!(a.live && !a.played, "{a:?}");
        // The capture as an opening move is not the players' choice.
        let a = switch_activity(&taken, &standard, 1);
        assert!(a.live && !a.played, "{a:?}");
    }

    #[test]
    fn a_switch_whose_positions_never_come_is_not_live() {
        // From the standard start, a few quiet moves: trap-attack,
        // elephant-rat and bank-rats change nothing there.
        let line = ["a3a4", "g7g6", "a4a5", "g6g5"];
        for name in ["trap-attack", "elephant-rat", "bank-rats"] {
            let rules = Rules::preset(name).unwrap();
            let game = play(&rules, jungle_rules::START_FEN, &line);
            assert_eq!(
                switch_activity(&game, &Rules::default(), 0),
                SwitchActivity::default(),
                "{name}"
            );
        }
    }

    #[test]
    fn the_first_player_alone_is_never_live_and_an_own_start_always_is() {
        let north_first = Rules {
            first_player: Side::North,
            ..Rules::default()
        };
        let game = Game::new(north_first.clone());
        assert!(!switch_activity(&game, &Rules::default(), 0).live);
        let own_start = Rules {
            start_fen: Some(ELEPHANT_BY_RAT.to_string()),
            ..Rules::default()
        };
        let game = Game::new(own_start);
        assert!(switch_activity(&game, &Rules::default(), 0).live);
    }

    #[test]
    fn a_different_end_is_live() {
        // quiet-120 ends the game at 120 quiet plies, standard at 200.
        let quiet = Rules::preset("quiet-120").unwrap();
        let game = play(&quiet, "6l/7/7/7/7/7/7/7/L6 w 119", &["a1a2"]);
        assert!(game.is_over());
        let a = switch_activity(&game, &Rules::default(), 0);
        assert!(a.live && !a.played, "{a:?}");
        assert_eq!(a.live_positions, 1);
        // Under the baseline itself nothing is ever live.
        assert_eq!(switch_activity(&game, &quiet, 0), SwitchActivity::default());
    }
}
