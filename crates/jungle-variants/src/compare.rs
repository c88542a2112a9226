//! Playing the games of a comparison.

use crate::live::{switch_activity, SwitchActivity};
use crate::variant::baseline_index;
use jungle_play::arena::{play_out, GameEnd};
use jungle_play::opening::{derive_seed, opening_for, shared_opening};
use jungle_play::PlayerFactory;
use jungle_rules::RuleSet;
use jungle_rules::{Move, Side};
use rayon::prelude::*;

/// Settings of a comparison.
#[derive(Clone, Debug)]
pub struct CompareConfig {
    /// Games per variant.
    pub games: u32,
    /// Random plies before the players take over (shared by all variants).
    pub opening_plies: u32,
    /// Seed of the openings and the players.
    pub seed: u64,
    /// A game still running after this many plies is stopped as a draw
    /// (reachable only with both draw rules off).
    pub max_plies: u32,
}

impl CompareConfig {
    /// `games` games per variant, 4 opening plies, a 2,000-ply cap.
    pub fn new(games: u32, seed: u64) -> CompareConfig {
        CompareConfig {
            games,
            opening_plies: 4,
            seed,
            max_plies: 2000,
        }
    }
}

/// One game of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantGame {
    /// Index of its variant in the list.
    pub variant: usize,
    /// Index of the game within the variant.
    pub index: u32,
    /// The side that moved first (the rule set's first player or the side
    /// to move in its start position).
    pub first_mover: Side,
    /// Whether the player (not the opponent) moved first.
    pub player_first: bool,
    /// How it ended.
    pub result: GameEnd,
    /// Plies played, opening included.
    pub plies: u32,
    /// Every move from the rule set's start, the opening included.
    pub moves: Vec<Move>,
    /// Whether its rules differed from the baseline's in its positions
    /// ([`crate::live`]).
    pub switch: SwitchActivity,
}

impl VariantGame {
    /// The first mover's score: 1, 0.5 or 0.
    pub fn first_score(&self) -> f64 {
        self.result.score_for(self.first_mover)
    }

    /// The player's score (against `--opponent`; in self-play the first
    /// mover's score).
    pub fn player_score(&self) -> f64 {
        if self.player_first {
            self.first_score()
        } else {
            1.0 - self.first_score()
        }
    }

    /// The seat the player (not the opponent) had.
    pub fn player_seat(&self) -> Side {
        if self.player_first {
            self.first_mover
        } else {
            self.first_mover.opponent()
        }
    }

    /// The end reason's name (`forfeit`, `ply_cap` or a rule's).
    pub fn reason_name(&self) -> &'static str {
        self.result.reason_name()
    }
}

/// Plays game `index` of `variant`: the pair `index / 2` shares its opening
/// (and its seeds) across variants; with an opponent, the player moves first
/// in even games and second in odd ones.
fn play_one(
    variants: &[RuleSet],
    variant: usize,
    index: u32,
    player: &dyn PlayerFactory,
    opponent: &dyn PlayerFactory,
    cfg: &CompareConfig,
) -> VariantGame {
    let rules = &variants[variant].rules;
    let pair = (index / 2) as u64;
    let opening_seed = derive_seed(cfg.seed, pair, 0);
    let moves = shared_opening(cfg.opening_plies, opening_seed);
    let start = opening_for(rules, &moves, cfg.opening_plies, opening_seed);
    let first_mover = rules.start_position().side_to_move();
    let player_first = index.is_multiple_of(2);
    let p = player.build(rules, derive_seed(cfg.seed, index as u64, 1));
    let o = opponent.build(rules, derive_seed(cfg.seed, index as u64, 2));
    let opening_plies = start.moves().len();
    let (mut first, mut second) = if player_first { (p, o) } else { (o, p) };
    let (game, result, _) = if first_mover == Side::South {
        play_out(start, first.as_mut(), second.as_mut(), cfg.max_plies)
    } else {
        play_out(start, second.as_mut(), first.as_mut(), cfg.max_plies)
    };
    VariantGame {
        variant,
        index,
        first_mover,
        player_first,
        result,
        plies: game.moves().len() as u32,
        moves: game.moves().to_vec(),
        switch: switch_activity(
            &game,
            &variants[baseline_index(variants)].rules,
            opening_plies,
        ),
    }
}

/// Plays `cfg.games` games of `player` against `opponent` (the same factory
/// for self-play) under every variant on the current rayon pool; `on_game`
/// is called as each finishes. Games come back ordered by variant, then
/// index, whatever the number of threads.
pub fn compare(
    variants: &[RuleSet],
    player: &dyn PlayerFactory,
    opponent: &dyn PlayerFactory,
    cfg: &CompareConfig,
    on_game: &(dyn Fn(&VariantGame) + Sync),
) -> Vec<VariantGame> {
    let jobs: Vec<(usize, u32)> = (0..variants.len())
        .flat_map(|v| (0..cfg.games).map(move |i| (v, i)))
        .collect();
    jobs.into_par_iter()
        .map(|(v, i)| {
            let game = play_one(variants, v, i, player, opponent, cfg);
            on_game(&game);
            game
        })
        .collect()
}
