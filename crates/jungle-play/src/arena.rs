//! Matches between two players: games in parallel (rayon), seats
//! alternating, openings randomised in pairs so both players get each
//! opening from both seats.

use crate::adjudication::{Adjudicated, Adjudication, Adjudicator};
use crate::opening::{derive_seed, random_opening};
use crate::player::Player;
use crate::player::PlayerFactory;
use crate::stats::{elo_estimate, elo_from_score, wilson_interval, Z95};
use jungle_rules::{EndReason, Game, Move, Outcome, Rules, Side};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// Settings of a match.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Number of games.
    pub games: u32,
    /// Random plies played from the start before the players take over; the
    /// two games of each pair share the opening with seats swapped.
    pub opening_plies: u32,
    /// Seed of openings and players.
    pub seed: u64,
    /// The rule set.
    pub rules: Rules,
    /// Index of the first game to play: games before it were played
    /// earlier (a match resumed after an interruption plays the same games
    /// it would have played, from here on).
    pub first_game: u32,
    /// A game still running after this many plies is stopped and scored as
    /// a draw (only reachable when the draw rules are switched off).
    pub max_plies: u32,
    /// Openings to play instead of random ones ([`crate::opening::read_openings`]):
    /// pair `p` plays opening `p` (in turn, from the first again when they
    /// run out), with seats swapped.
    pub openings: Option<Arc<Vec<Vec<Move>>>>,
    /// Which games are ended early as decided (none by default).
    pub adjudication: Adjudication,
}

impl ArenaConfig {
    /// `games` games under `rules` with 4 random opening plies.
    pub fn new(rules: Rules, games: u32, seed: u64) -> ArenaConfig {
        ArenaConfig {
            games,
            opening_plies: 4,
            seed,
            rules,
            first_game: 0,
            max_plies: 2000,
            openings: None,
            adjudication: Adjudication::default(),
        }
    }
}

/// A player that gave a game up (see [`Player::try_choose`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Forfeit {
    /// The side that gave up (and lost).
    pub side: Side,
    /// Why, e.g. "the engine exited".
    pub reason: String,
}

/// How a played game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEnd {
    /// The rules' verdict; `None` if the game was stopped at the ply cap or
    /// forfeited.
    pub outcome: Option<Outcome>,
    /// Set when a player gave the game up.
    pub forfeit: Option<Forfeit>,
    /// Set when the game was ended early as decided ([`Adjudication`]).
    pub adjudicated: Option<Adjudicated>,
}

impl GameEnd {
    /// The score of `side`: 1, 0.5 or 0 (a stopped game is a draw, a
    /// forfeit a loss for the side that gave up).
    pub fn score_for(&self, side: Side) -> f64 {
        if let Some(a) = self.adjudicated {
            return if a.winner == side { 1.0 } else { 0.0 };
        }
        match (&self.forfeit, self.outcome) {
            (Some(f), _) => {
                if f.side == side {
                    0.0
                } else {
                    1.0
                }
            }
            (None, Some(o)) => o.score_for(side),
            (None, None) => 0.5,
        }
    }

    /// The end reason's name: a rule's (`den`, ...), `forfeit`,
    /// `adjudicated_solver` or `adjudicated_material`, or `ply_cap` for a
    /// stopped game.
    pub fn reason_name(&self) -> &'static str {
        if let Some(a) = self.adjudicated {
            return a.rule.reason_name();
        }
        match (&self.forfeit, self.outcome) {
            (Some(_), _) => "forfeit",
            (None, Some(o)) => o.reason.name(),
            (None, None) => "ply_cap",
        }
    }
}

/// The time one player spent choosing its moves in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ThinkTime {
    /// Choices the player was asked for (the random opening plies are not
    /// counted; a choice that forfeited the game is).
    pub moves: u32,
    /// Wall-clock seconds spent in those choices.
    pub seconds: f64,
}

impl ThinkTime {
    /// Adds one move that took `seconds`.
    fn add(&mut self, seconds: f64) {
        self.moves += 1;
        self.seconds += seconds;
    }
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Index in the match.
    pub index: u32,
    /// The seat player A had.
    pub a_side: Side,
    /// How it ended.
    pub result: GameEnd,
    /// Plies played, opening included.
    pub plies: u32,
    /// Every move, opening included.
    pub moves: Vec<Move>,
    /// The time each seat spent choosing its moves, by [`Side::index`].
    pub times: [ThinkTime; 2],
}

impl MatchGame {
    /// A's score: 1, 0.5 or 0.
    pub fn score_for_a(&self) -> f64 {
        self.result.score_for(self.a_side)
    }

    /// The end reason's name (see [`GameEnd::reason_name`]).
    pub fn reason_name(&self) -> &'static str {
        self.result.reason_name()
    }

    /// Player A's time choosing its moves.
    pub fn a_time(&self) -> ThinkTime {
        self.times[self.a_side.index()]
    }

    /// Player B's time choosing its moves.
    pub fn b_time(&self) -> ThinkTime {
        self.times[(!self.a_side).index()]
    }
}

/// Plays `game` to the end (or to `max_plies`); `south` and `north` pick
/// the moves. A player that gives up, or names an illegal move, forfeits.
/// Also returns the wall-clock time each side spent choosing (by
/// [`Side::index`]).
pub fn play_out(
    game: Game,
    south: &mut dyn Player,
    north: &mut dyn Player,
    max_plies: u32,
) -> (Game, GameEnd, [ThinkTime; 2]) {
    play_out_adjudicated(game, south, north, max_plies, Adjudication::default())
}

/// [`play_out`], ending the game early when `adjudication` finds it decided
/// (asked before every move).
pub fn play_out_adjudicated(
    mut game: Game,
    south: &mut dyn Player,
    north: &mut dyn Player,
    max_plies: u32,
    adjudication: Adjudication,
) -> (Game, GameEnd, [ThinkTime; 2]) {
    let mut times = [ThinkTime::default(); 2];
    let mut adjudicator = Adjudicator::new(adjudication);
    while !game.is_over() && (game.moves().len() as u32) < max_plies {
        if let Some(adjudicated) = adjudicator.check(&game) {
            let end = GameEnd {
                outcome: None,
                forfeit: None,
                adjudicated: Some(adjudicated),
            };
            return (game, end, times);
        }
        let side = game.position().side_to_move();
        let player: &mut dyn Player = match side {
            Side::South => &mut *south,
            Side::North => &mut *north,
        };
        let started = Instant::now();
        let chosen = player.try_choose(&game);
        times[side.index()].add(started.elapsed().as_secs_f64());
        let played = match chosen {
            Ok(d) => game.play(d.mv).map_err(|e| format!("illegal move: {e}")),
            Err(e) => Err(e.to_string()),
        };
        if let Err(reason) = played {
            let forfeit = Some(Forfeit {
                side,
                reason: format!("{}: {reason}", player.name()),
            });
            return (
                game,
                GameEnd {
                    outcome: None,
                    forfeit,
                    adjudicated: None,
                },
                times,
            );
        }
    }
    let outcome = game.outcome();
    (
        game,
        GameEnd {
            outcome,
            forfeit: None,
            adjudicated: None,
        },
        times,
    )
}

/// Plays game `index` of a match.
pub fn play_match_game(
    a: &dyn PlayerFactory,
    b: &dyn PlayerFactory,
    cfg: &ArenaConfig,
    index: u32,
) -> MatchGame {
    let pair = index / 2;
    let a_side = if index.is_multiple_of(2) {
        Side::South
    } else {
        Side::North
    };
    let start = match &cfg.openings {
        Some(openings) if !openings.is_empty() => {
            let mut game = Game::new(cfg.rules.clone());
            for &mv in &openings[pair as usize % openings.len()] {
                game.play(mv).expect("openings are checked when read");
            }
            game
        }
        _ => random_opening(
            &cfg.rules,
            cfg.opening_plies,
            derive_seed(cfg.seed, pair as u64, 0),
        ),
    };
    let mut pa = a.build(&cfg.rules, derive_seed(cfg.seed, index as u64, 1));
    let mut pb = b.build(&cfg.rules, derive_seed(cfg.seed, index as u64, 2));
    let (game, result, times) = match a_side {
        Side::South => play_out_adjudicated(
            start,
            pa.as_mut(),
            pb.as_mut(),
            cfg.max_plies,
            cfg.adjudication,
        ),
        Side::North => play_out_adjudicated(
            start,
            pb.as_mut(),
            pa.as_mut(),
            cfg.max_plies,
            cfg.adjudication,
        ),
    };
    MatchGame {
        index,
        a_side,
        result,
        plies: game.moves().len() as u32,
        moves: game.moves().to_vec(),
        times,
    }
}

/// Plays a whole match on the current rayon pool; `on_game` is called as
/// each game finishes (for progress). Records come back in index order.
pub fn run_match(
    a: &dyn PlayerFactory,
    b: &dyn PlayerFactory,
    cfg: &ArenaConfig,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> Vec<MatchGame> {
    (cfg.first_game.min(cfg.games)..cfg.games)
        .into_par_iter()
        .map(|i| {
            let record = play_match_game(a, b, cfg, i);
            on_game(&record);
            record
        })
        .collect()
}

/// A match's result from A's point of view.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MatchSummary {
    /// Player A's spec.
    pub a: String,
    /// Player B's spec.
    pub b: String,
    /// Games played.
    pub games: u32,
    /// A's wins.
    pub a_wins: u32,
    /// Draws.
    pub draws: u32,
    /// B's wins.
    pub b_wins: u32,
    /// A's score, draws as half points.
    pub score: f64,
    /// 95% interval of the score (Wilson).
    pub score_ci95: [f64; 2],
    /// Elo of A minus Elo of B.
    pub elo: f64,
    /// 95% interval of the Elo difference.
    pub elo_ci95: [f64; 2],
    /// Mean game length in plies.
    pub mean_plies: f64,
    /// A's mean wall-clock milliseconds per move chosen (opening plies
    /// excluded; games run in parallel share the cores).
    pub a_ms_per_move: f64,
    /// B's mean milliseconds per move chosen.
    pub b_ms_per_move: f64,
    /// Games per end reason (`den`, `annihilation`, `no_move`, `repetition`,
    /// `quiet_limit`, `forfeit`, and `ply_cap` for stopped games).
    pub reasons: BTreeMap<String, u32>,
    /// Why each forfeited game was given up (`game N: PLAYER: reason`).
    pub forfeits: Vec<String>,
}

impl MatchSummary {
    /// Sums up a match's records.
    pub fn new(a: &str, b: &str, records: &[MatchGame]) -> MatchSummary {
        let games = records.len() as u32;
        let count = |f: &dyn Fn(&MatchGame) -> bool| records.iter().filter(|r| f(r)).count() as u32;
        let a_wins = count(&|r| r.score_for_a() == 1.0);
        let b_wins = count(&|r| r.score_for_a() == 0.0);
        let draws = games - a_wins - b_wins;
        let score = if games == 0 {
            0.5
        } else {
            (a_wins as f64 + 0.5 * draws as f64) / games as f64
        };
        let (lo, hi) = wilson_interval(score, games, Z95);
        let mut reasons: BTreeMap<String, u32> = EndReason::ALL
            .iter()
            .map(|r| (r.name().to_string(), 0))
            .collect();
        for r in records {
            *reasons.entry(r.reason_name().to_string()).or_default() += 1;
        }
        MatchSummary {
            a: a.to_string(),
            b: b.to_string(),
            games,
            a_wins,
            draws,
            b_wins,
            score,
            score_ci95: [lo, hi],
            elo: elo_estimate(score, games),
            elo_ci95: [elo_from_score(lo), elo_from_score(hi)],
            mean_plies: if games == 0 {
                0.0
            } else {
                records.iter().map(|r| r.plies as f64).sum::<f64>() / games as f64
            },
            a_ms_per_move: ms_per_move(records.iter().map(MatchGame::a_time)),
            b_ms_per_move: ms_per_move(records.iter().map(MatchGame::b_time)),
            reasons,
            forfeits: records
                .iter()
                .filter_map(|r| {
                    let f = r.result.forfeit.as_ref()?;
                    Some(format!("game {}: {}", r.index, f.reason))
                })
                .collect(),
        }
    }
}

/// Mean milliseconds per move over many games' times (0 with no moves).
fn ms_per_move(times: impl Iterator<Item = ThinkTime>) -> f64 {
    let (moves, seconds) = times.fold((0u64, 0.0), |(m, s), t| (m + t.moves as u64, s + t.seconds));
    if moves == 0 {
        0.0
    } else {
        1000.0 * seconds / moves as f64
    }
}
