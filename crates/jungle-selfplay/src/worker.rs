//! The self-play loop: each worker drives many games at once and sends all
//! of their searches' leaves to its evaluator in one call per round, so no
//! game waits on another game's search.

use crate::config::{RootValue, SelfPlayConfig};
use crate::mixture::pick_rule_set;
use crate::record::{pack_move, GameRecord, MoveRecord};
use jungle_mcts::{run_round, CacheCounters, Evaluator, Search};
use jungle_play::opening::{derive_seed, random_opening};
use jungle_rules::RuleMixture;
use jungle_rules::{Game, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Finished games by result, counted as they end.
#[derive(Debug, Default)]
pub struct ResultCounts {
    /// Won by South.
    pub south_wins: AtomicU64,
    /// Drawn (or stopped at the ply cap).
    pub draws: AtomicU64,
    /// Won by North.
    pub north_wins: AtomicU64,
}

impl ResultCounts {
    /// The counter of games won by `winner` (`None`: drawn).
    pub fn of(&self, winner: Option<Side>) -> &AtomicU64 {
        match winner {
            Some(Side::South) => &self.south_wins,
            None => &self.draws,
            Some(Side::North) => &self.north_wins,
        }
    }
}

/// Counters shared by the workers, read for progress.
#[derive(Debug, Default)]
pub struct SelfPlayStats {
    /// Games finished.
    pub games: AtomicU64,
    /// Plies played.
    pub plies: AtomicU64,
    /// Training positions (full searches).
    pub positions: AtomicU64,
    /// Positions sent to evaluators.
    pub evaluations: AtomicU64,
    /// Evaluator calls.
    pub calls: AtomicU64,
    /// Nanoseconds the worker threads ran, summed.
    pub worker_nanos: AtomicU64,
    /// Games by result.
    pub results: ResultCounts,
    /// Lookups and hits of the workers' evaluation caches (see
    /// [`crate::SelfPlayConfig::evaluators`]).
    pub cache: Arc<CacheCounters>,
}

impl SelfPlayStats {
    fn record(&self, game: &GameRecord) {
        self.games.fetch_add(1, Ordering::Relaxed);
        self.plies.fetch_add(game.plies() as u64, Ordering::Relaxed);
        self.positions
            .fetch_add(game.positions() as u64, Ordering::Relaxed);
        self.results.of(game.winner).fetch_add(1, Ordering::Relaxed);
    }
}

/// The games of a self-play job: `count` games numbered from 0, game `i`
/// seeded by [`game_seed`]`(seed, i)`, less those already played (a job
/// resumed after a kill plays only the games its shards lack, so none is
/// played twice and each is the game it would have been).
#[derive(Clone, Debug, Default)]
pub struct GameList {
    /// Games in all.
    pub count: u64,
    /// Seed from which every game's seed derives.
    pub seed: u64,
    /// Numbers of the games already played.
    pub played: HashSet<u64>,
    /// No game starts after this moment (games under way finish): for
    /// runs measured by time, such as `jungle bench selfplay`.
    pub start_before: Option<Instant>,
}

impl GameList {
    /// `count` games, none played yet.
    pub fn new(count: u64, seed: u64) -> GameList {
        GameList {
            count,
            seed,
            played: HashSet::new(),
            start_before: None,
        }
    }

    /// Marks as played the games whose seeds are in `seeds` (the seeds
    /// of the games found in the job's shards); returns how many of
    /// `seeds` are games of this list.
    pub fn mark_played(&mut self, seeds: impl IntoIterator<Item = u64>) -> u64 {
        let numbers: HashMap<u64, u64> = (0..self.count)
            .map(|i| (game_seed(self.seed, i), i))
            .collect();
        let mut found = 0;
        for seed in seeds {
            if let Some(&i) = numbers.get(&seed) {
                found += u64::from(self.played.insert(i));
            }
        }
        found
    }

    /// Games still to play.
    pub fn remaining(&self) -> u64 {
        self.count - self.played.len() as u64
    }
}

/// The seed of game number `index` of a job seeded `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    derive_seed(seed, index, 7)
}

/// What every worker shares: settings, rule sets, the game counter.
pub struct Job<'a> {
    /// Settings.
    pub config: &'a SelfPlayConfig,
    /// The rule sets the games are drawn from (one, or a mixture).
    pub mixture: &'a RuleMixture,
    /// The games to play.
    pub games: &'a GameList,
    /// Number of the next game to start (shared by the workers).
    pub next_game: &'a AtomicU64,
    /// Name of the network, stored in each record.
    pub checkpoint: &'a str,
    /// Counters for progress.
    pub stats: &'a SelfPlayStats,
}

/// One game in flight.
struct Slot {
    /// Its rule set's position in the mixture.
    variant: usize,
    game: Game,
    search: Search,
    rng: ChaCha8Rng,
    moves: Vec<MoveRecord>,
    full: bool,
    seed: u64,
    start_fen: String,
}

impl Job<'_> {
    /// Claims the next game and sets it up, or `None` when all are claimed.
    fn new_slot(&self) -> Option<Slot> {
        if self.games.start_before.is_some_and(|t| Instant::now() >= t) {
            return None;
        }
        let index = loop {
            let index = self.next_game.fetch_add(1, Ordering::Relaxed);
            if index >= self.games.count {
                return None;
            }
            if !self.games.played.contains(&index) {
                break index;
            }
        };
        let seed = game_seed(self.games.seed, index);
        let variant = pick_rule_set(self.mixture, seed);
        let rules = self.mixture.rules(variant).clone();
        let start_fen = rules.start_position().to_fen();
        let game = random_opening(
            &rules,
            self.config.random_opening_plies,
            derive_seed(seed, 1, 0),
        );
        let moves = game
            .moves()
            .iter()
            .map(|&mv| MoveRecord {
                mv: pack_move(mv),
                full_search: false,
                root_value: 0.0,
                target: Vec::new(),
                surprise: None,
                root_draw: None,
            })
            .collect();
        let mut slot = Slot {
            variant,
            search: Search::new(rules, self.config.search.clone(), derive_seed(seed, 2, 0)),
            game,
            rng: ChaCha8Rng::seed_from_u64(derive_seed(seed, 3, 0)),
            moves,
            full: false,
            seed,
            start_fen,
        };
        self.begin_move(&mut slot);
        Some(slot)
    }

    /// Picks the budget and temperature of the slot's next search and starts it.
    fn begin_move(&self, slot: &mut Slot) {
        let cfg = self.config;
        slot.full = slot.rng.random::<f32>() < cfg.full_search_fraction;
        slot.search
            .set_root_noise(slot.full || cfg.cheap_search_noise);
        slot.search
            .set_considered(if slot.full || cfg.cheap_considered == 0 {
                cfg.search.gumbel_considered
            } else {
                cfg.cheap_considered
            });
        let opening_end = cfg.random_opening_plies + cfg.opening_temperature_plies;
        let in_opening = (slot.game.moves().len() as u32) < opening_end;
        let temperature = if in_opening {
            cfg.opening_temperature
        } else {
            cfg.search.temperature
        };
        slot.search.set_temperature(temperature);
        // Full noise in the opening and where the game has been before
        // (shuffles start there); the configured weight elsewhere.
        slot.search
            .set_played_noise(if in_opening || slot.game.repetition_count() > 1 {
                1.0
            } else {
                cfg.played_move_noise
            });
        let simulations = if slot.full {
            cfg.full_simulations
        } else {
            cfg.cheap_simulations
        };
        slot.search.begin(&slot.game, simulations);
    }

    /// Records and plays the finished search's move; returns the record if
    /// the game ended.
    fn finish_move(&self, slot: &mut Slot) -> Option<GameRecord> {
        let result = slot.search.result();
        let (target, surprise) = if slot.full {
            let target = result
                .moves
                .iter()
                .zip(&result.improved_policy)
                .filter(|(_, &p)| p > 0.0)
                .map(|(&mv, &p)| (pack_move(mv), p))
                .collect();
            let kl = crate::record::surprise(&result.improved_policy, &result.prior);
            (target, Some(kl))
        } else {
            (Vec::new(), None)
        };
        slot.moves.push(MoveRecord {
            mv: pack_move(result.best),
            full_search: slot.full,
            surprise,
            root_value: match self.config.root_value {
                RootValue::Mean => result.value,
                RootValue::Chosen => result.chosen_value,
            },
            root_draw: Some(match self.config.root_value {
                RootValue::Mean => result.draw,
                RootValue::Chosen => result.chosen_draw,
            }),
            target,
        });
        slot.game
            .play(result.best)
            .expect("the search plays legal moves");
        let capped = slot.game.moves().len() as u32 >= self.config.max_plies;
        if slot.game.is_over() || capped {
            let outcome = slot.game.outcome();
            return Some(GameRecord {
                start_fen: slot.start_fen.clone(),
                moves: std::mem::take(&mut slot.moves),
                winner: outcome.and_then(|o| o.winner),
                reason: outcome.map(|o| o.reason),
                checkpoint: self.checkpoint.to_string(),
                seed: slot.seed,
            });
        }
        self.begin_move(slot);
        None
    }

    /// Runs one worker until no game is left to start or finish; every
    /// finished game goes to `sink`, with its rule set's position in the
    /// mixture, in the order it finished. The games in flight may be of
    /// different rule sets: the evaluator judges each position under its
    /// own.
    pub fn run_worker<E: Evaluator + ?Sized>(
        &self,
        evaluator: &mut E,
        sink: &mut dyn FnMut(usize, GameRecord),
    ) {
        let mut slots: Vec<Slot> = (0..self.config.games_in_flight)
            .map_while(|_| self.new_slot())
            .collect();
        while !slots.is_empty() {
            let mut searches: Vec<&mut Search> = slots.iter_mut().map(|s| &mut s.search).collect();
            let evaluated = run_round(&mut searches, evaluator);
            if evaluated > 0 {
                self.stats
                    .evaluations
                    .fetch_add(evaluated as u64, Ordering::Relaxed);
                self.stats.calls.fetch_add(1, Ordering::Relaxed);
            }
            let mut i = 0;
            while i < slots.len() {
                if !slots[i].search.is_finished() {
                    i += 1;
                    continue;
                }
                if let Some(record) = self.finish_move(&mut slots[i]) {
                    self.stats.record(&record);
                    sink(slots[i].variant, record);
                    match self.new_slot() {
                        Some(slot) => slots[i] = slot,
                        None => {
                            slots.swap_remove(i);
                            continue;
                        }
                    }
                }
                i += 1;
            }
        }
    }
}
