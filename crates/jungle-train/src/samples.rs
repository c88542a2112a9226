//! Training positions from game records, kept compact (the position, its
//! repetition count and the targets) and turned into network inputs only
//! when a batch is drawn, mirrored left-right at random (the board is
//! symmetric, so a mirrored sample is as true as the original).

use jungle_net::encoding::{encode, move_slot, INPUT_LEN, POLICY_SLOTS};
use jungle_rules::{Game, Move, Position, Rules};
use jungle_selfplay::{unpack_move, GameRecord};

/// One training position, compact.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingPosition {
    /// The position.
    pub position: Position,
    /// How often it had occurred in its game.
    pub repetitions: u32,
    /// The search's target over legal moves.
    pub target: Vec<(Move, f32)>,
    /// Win/draw/loss target for the side to move: one-hot of the game's
    /// result, unless [`TrainingPosition::blend_search_value`] mixed in the
    /// search's value.
    pub wdl: [f32; 3],
    /// The search's root value for the side to move, in [-1, 1].
    pub search_value: f32,
    /// Plies from here to the end of the game, / 100.
    pub moves_left: f32,
}

/// One training sample: network input and targets.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Input planes ([`INPUT_LEN`] floats).
    pub planes: Vec<f32>,
    /// Target distribution over the 252 policy slots.
    pub policy: Vec<f32>,
    /// Win/draw/loss target.
    pub wdl: [f32; 3],
    /// Plies left / 100.
    pub moves_left: f32,
}

impl TrainingPosition {
    /// Mixes the search's root value into the result target: `(1 - weight)
    /// x wdl + weight x (win (1 + v) / 2, draw 0, loss (1 - v) / 2)`.
    pub fn blend_search_value(&mut self, weight: f32) {
        if weight <= 0.0 {
            return;
        }
        let v = self.search_value.clamp(-1.0, 1.0);
        let search = [(1.0 + v) / 2.0, 0.0, (1.0 - v) / 2.0];
        for (t, s) in self.wdl.iter_mut().zip(search) {
            *t = (1.0 - weight) * *t + weight * s;
        }
    }

    /// The sample of this position, mirrored left-right if `mirrored`.
    pub fn sample(&self, rules: &Rules, mirrored: bool) -> Sample {
        let mover = self.position.side_to_move();
        let view = if mirrored {
            self.position.mirrored()
        } else {
            self.position
        };
        let mut planes = vec![0.0; INPUT_LEN];
        encode(&view, self.repetitions, rules, &mut planes);
        let mut policy = vec![0.0; POLICY_SLOTS];
        for &(mv, p) in &self.target {
            let mv = if mirrored { mv.mirrored() } else { mv };
            policy[move_slot(mv, mover)] += p;
        }
        Sample {
            planes,
            policy,
            wdl: self.wdl,
            moves_left: self.moves_left,
        }
    }
}

/// The training positions of a game: its full-search moves, replayed.
pub fn game_positions(record: &GameRecord, rules: &Rules) -> Result<Vec<TrainingPosition>, String> {
    let mut game = Game::from_fen(rules.clone(), &record.start_fen).map_err(|e| e.to_string())?;
    let total = record.moves.len();
    let mut out = Vec::new();
    for (ply, m) in record.moves.iter().enumerate() {
        if m.full_search && !m.target.is_empty() {
            let position = *game.position();
            let mover = position.side_to_move();
            let target = m
                .target
                .iter()
                .map(|&(code, p)| {
                    unpack_move(code)
                        .map(|mv| (mv, p))
                        .ok_or_else(|| format!("ply {ply}: bad move code {code}"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.push(TrainingPosition {
                position,
                repetitions: game.repetition_count(),
                target,
                wdl: match record.winner {
                    Some(w) if w == mover => [1.0, 0.0, 0.0],
                    Some(_) => [0.0, 0.0, 1.0],
                    None => [0.0, 1.0, 0.0],
                },
                search_value: m.root_value,
                moves_left: (total - ply) as f32 / 100.0,
            });
        }
        let mv = unpack_move(m.mv).ok_or_else(|| format!("ply {ply}: bad move code {}", m.mv))?;
        game.play(mv).map_err(|e| format!("ply {ply}: {e}"))?;
    }
    Ok(out)
}

/// Every sample of a game: each full-search position, and with `mirror`
/// its mirror image right after it.
pub fn game_samples(
    record: &GameRecord,
    rules: &Rules,
    mirror: bool,
) -> Result<Vec<Sample>, String> {
    let copies: &[bool] = if mirror { &[false, true] } else { &[false] };
    Ok(game_positions(record, rules)?
        .iter()
        .flat_map(|p| copies.iter().map(move |&m| p.sample(rules, m)))
        .collect())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn position(wdl: [f32; 3], search_value: f32) -> TrainingPosition {
        TrainingPosition {
            position: Position::start(),
            repetitions: 1,
            target: Vec::new(),
            wdl,
            search_value,
            moves_left: 0.5,
        }
    }

    #[test]
    fn the_search_value_is_blended_into_the_result_target() {
        let mut lost_but_liked = position([0.0, 0.0, 1.0], 0.6);
        lost_but_liked.blend_search_value(0.5);
        let expected = [0.4, 0.0, 0.6];
        for (got, want) in lost_but_liked.wdl.iter().zip(expected) {
            assert!((got - want).abs() < 1e-6, "{:?}", lost_but_liked.wdl);
        }
        let mut drawn = position([0.0, 1.0, 0.0], -1.0);
        drawn.blend_search_value(0.25);
        assert_eq!(drawn.wdl, [0.0, 0.75, 0.25]);
        assert!((drawn.wdl.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        let mut untouched = position([1.0, 0.0, 0.0], -0.9);
        untouched.blend_search_value(0.0);
        assert_eq!(untouched.wdl, [1.0, 0.0, 0.0]);
    }
}
