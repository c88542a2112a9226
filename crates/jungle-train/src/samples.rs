//! Training samples from game records: the encoded position, the policy
//! target over the 252 slots, the game result from the mover's view and
//! the plies left; optionally mirrored left-right (the board is symmetric,
//! so a mirrored sample is as true as the original).

use jungle_net::encoding::{encode, move_slot, INPUT_LEN, POLICY_SLOTS};
use jungle_rules::{Game, Rules};
use jungle_selfplay::{unpack_move, GameRecord};

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Input planes ([`INPUT_LEN`] floats).
    pub planes: Vec<f32>,
    /// Target distribution over the 252 policy slots.
    pub policy: Vec<f32>,
    /// Win/draw/loss for the side to move (one-hot of the game's result).
    pub wdl: [f32; 3],
    /// Plies from this position to the end of the game, / 100.
    pub moves_left: f32,
}

/// The samples of a game's full-search moves (each twice with `mirror`:
/// as played and mirrored).
pub fn game_samples(
    record: &GameRecord,
    rules: &Rules,
    mirror: bool,
) -> Result<Vec<Sample>, String> {
    let mut game = Game::from_fen(rules.clone(), &record.start_fen).map_err(|e| e.to_string())?;
    let total = record.moves.len();
    let mut out = Vec::new();
    for (ply, m) in record.moves.iter().enumerate() {
        if m.full_search && !m.target.is_empty() {
            let pos = *game.position();
            let mover = pos.side_to_move();
            let reps = game.repetition_count();
            let wdl = match record.winner {
                Some(w) if w == mover => [1.0, 0.0, 0.0],
                Some(_) => [0.0, 0.0, 1.0],
                None => [0.0, 1.0, 0.0],
            };
            let moves_left = (total - ply) as f32 / 100.0;
            for mirrored in [false, true].into_iter().take(if mirror { 2 } else { 1 }) {
                let mut planes = vec![0.0; INPUT_LEN];
                let view = if mirrored { pos.mirrored() } else { pos };
                encode(&view, reps, rules, &mut planes);
                let mut policy = vec![0.0; POLICY_SLOTS];
                for &(code, p) in &m.target {
                    let mv = unpack_move(code)
                        .ok_or_else(|| format!("ply {ply}: bad move code {code}"))?;
                    let mv = if mirrored { mv.mirrored() } else { mv };
                    policy[move_slot(mv, mover)] += p;
                }
                out.push(Sample {
                    planes,
                    policy,
                    wdl,
                    moves_left,
                });
            }
        }
        let mv = unpack_move(m.mv).ok_or_else(|| format!("ply {ply}: bad move code {}", m.mv))?;
        game.play(mv).map_err(|e| format!("ply {ply}: {e}"))?;
    }
    Ok(out)
}

/// Samples stacked for one training step.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Positions.
    pub size: usize,
    /// `[size, 38, 9, 7]` planes.
    pub planes: Vec<f32>,
    /// `[size, 252]` policy targets.
    pub policy: Vec<f32>,
    /// `[size, 3]` result targets.
    pub wdl: Vec<f32>,
    /// `[size, 1]` plies-left targets.
    pub moves_left: Vec<f32>,
}

impl Batch {
    /// Stacks samples.
    pub fn new<'a>(samples: impl IntoIterator<Item = &'a Sample>) -> Batch {
        let mut b = Batch::default();
        for s in samples {
            b.size += 1;
            b.planes.extend_from_slice(&s.planes);
            b.policy.extend_from_slice(&s.policy);
            b.wdl.extend_from_slice(&s.wdl);
            b.moves_left.push(s.moves_left);
        }
        b
    }
}
