//! Drawing the suite's positions from real games: matches between pairs of
//! players of different strengths (random openings first), a few
//! positions of each phase from each game, then as many of each phase as asked, taken
//! in turn from every pairing, no position twice.

use crate::suite::Phase;
use jungle_play::arena::{run_match, ArenaConfig, MatchGame};
use jungle_play::PlayerFactory;
use jungle_rules::{Game, Position, Rules};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashSet};

/// Two players whose games positions are drawn from.
pub type Pairing = (Box<dyn PlayerFactory>, Box<dyn PlayerFactory>);

/// How positions are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawSettings {
    /// Games each pairing plays.
    pub games_per_pairing: u32,
    /// Positions of each phase taken from one game at most.
    pub per_game: usize,
    /// Random plies that open each game (pairs of games share them).
    pub opening_plies: u32,
    /// A game is stopped here.
    pub max_plies: u32,
    /// Positions wanted of each phase (opening, middle, ending).
    pub per_phase: usize,
    /// Seed of the games and the draw.
    pub seed: u64,
}

/// A position drawn from a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    /// The position.
    pub position: Position,
    /// Plies into its game.
    pub ply: u32,
    /// Its phase.
    pub phase: Phase,
    /// Its pairing (`A vs B`).
    pub source: String,
}

/// The positions of a game that a label can be asked of: after the
/// opening plies, game not over.
fn positions_of(record: &MatchGame, rules: &Rules, from_ply: u32) -> Vec<(u32, Position)> {
    let mut game = Game::new(rules.clone());
    let mut out = Vec::new();
    for (ply, &mv) in record.moves.iter().enumerate() {
        if ply as u32 >= from_ply && !game.is_over() {
            out.push((ply as u32, *game.position()));
        }
        if game.play(mv).is_err() {
            break;
        }
    }
    out
}

/// Plays every pairing's games and draws the positions; `on_game` is
/// called as each game ends.
pub fn draw_positions(
    pairings: &[Pairing],
    rules: &Rules,
    settings: &DrawSettings,
    on_game: &(dyn Fn() + Sync),
) -> Vec<Drawn> {
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    // Phase -> pairing -> positions.
    let mut pools: BTreeMap<Phase, BTreeMap<usize, Vec<Drawn>>> = BTreeMap::new();
    for (k, (a, b)) in pairings.iter().enumerate() {
        let source = format!("{} vs {}", a.name(), b.name());
        let mut arena = ArenaConfig::new(
            rules.clone(),
            settings.games_per_pairing,
            settings.seed.wrapping_add(k as u64),
        );
        arena.opening_plies = settings.opening_plies;
        arena.max_plies = settings.max_plies;
        let records = run_match(a.as_ref(), b.as_ref(), &arena, &|_| on_game());
        for record in &records {
            let mut candidates = positions_of(record, rules, settings.opening_plies);
            candidates.shuffle(&mut rng);
            let mut taken: BTreeMap<Phase, usize> = BTreeMap::new();
            for (ply, position) in candidates {
                let phase = Phase::of(&position, ply);
                let count = taken.entry(phase).or_default();
                if *count == settings.per_game {
                    continue;
                }
                *count += 1;
                pools
                    .entry(phase)
                    .or_default()
                    .entry(k)
                    .or_default()
                    .push(Drawn {
                        position,
                        ply,
                        phase,
                        source: source.clone(),
                    });
            }
        }
    }
    let mut seen = HashSet::new();
    let mut drawn = Vec::new();
    for by_pairing in pools.values_mut() {
        for pool in by_pairing.values_mut() {
            pool.shuffle(&mut rng);
            pool.reverse();
        }
        let mut taken = 0;
        while taken < settings.per_phase && by_pairing.values().any(|p| !p.is_empty()) {
            for pool in by_pairing.values_mut() {
                if taken == settings.per_phase {
                    break;
                }
                while let Some(d) = pool.pop() {
                    if seen.insert(d.position.hash()) {
                        drawn.push(d);
                        taken += 1;
                        break;
                    }
                }
            }
        }
    }
    drawn
}
