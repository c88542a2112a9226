//! Training positions from game records, kept compact (the position, its
//! repetition count and the targets) and turned into network inputs only
//! when a batch is drawn, mirrored left-right at random (the board is
//! symmetric, so a mirrored sample is as true as the original).

use jungle_mcts::wdl_of;
use jungle_net::encoding::{move_slot, Encoding, POLICY_SLOTS};
use jungle_net::{SHORT_TERM_LAMBDA, SURVIVAL_NEAR_PLIES, SURVIVAL_OUTPUTS};
use jungle_rules::{Game, Move, Position, Rules, Side};
use jungle_selfplay::{unpack_move, verify_game, BadGame, GameRecord, MoveRecord};

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
    /// The short-term value target for the side to move: the TD return
    /// with `lambda` = [`SHORT_TERM_LAMBDA`] ([`td_returns`]), for the
    /// short-term head.
    pub short_term_wdl: [f32; 3],
    /// The search's root value for the side to move, in [-1, 1].
    pub search_value: f32,
    /// The search's draw probability at the root (0 for games of shards
    /// that did not keep it: their search value is read as win/loss only).
    pub search_draw: f32,
    /// The search's surprise (KL of its target from the network's prior,
    /// `jungle_selfplay::record::surprise`); `None` when the shard did
    /// not keep it.
    pub surprise: Option<f32>,
    /// Plies from here to the end of the game, / 100.
    pub moves_left: f32,
    /// Survival target, one bit per output of the survival head (see
    /// [`survival_bits`]).
    pub survival: u32,
}

/// One training sample: network input and targets.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Input planes ([`Encoding::input_len`] floats).
    pub planes: Vec<f32>,
    /// Target distribution over the 252 policy slots.
    pub policy: Vec<f32>,
    /// Win/draw/loss target.
    pub wdl: [f32; 3],
    /// Short-term win/draw/loss target.
    pub short_term_wdl: [f32; 3],
    /// Plies left / 100.
    pub moves_left: f32,
    /// Survival targets (0 or 1).
    pub survival: [f32; SURVIVAL_OUTPUTS],
}

/// The animals of `position` on the board, from `side`'s point of view:
/// bit `a` for its animal of index `a`, bit `8 + a` for the opponent's.
pub fn alive_mask(position: &Position, side: Side) -> u16 {
    position.pieces().fold(0, |mask, (_, piece)| {
        let own = if piece.side() == side { 0 } else { 8 };
        mask | 1 << (own + piece.animal().index())
    })
}

/// The survival target of the position at ply `ply` of a game whose
/// positions are `positions` (the last one being the final position), for
/// the side to move at `ply`: the low 16 bits are [`alive_mask`]
/// [`SURVIVAL_NEAR_PLIES`] plies later (or at the end if sooner), the high
/// 16 bits at the end.
pub fn survival_bits(positions: &[Position], ply: usize) -> u32 {
    let side = positions[ply].side_to_move();
    let last = positions.len() - 1;
    let near = alive_mask(&positions[(ply + SURVIVAL_NEAR_PLIES).min(last)], side);
    let end = alive_mask(&positions[last], side);
    near as u32 | (end as u32) << 16
}

impl TrainingPosition {
    /// Mixes the search's own win/draw/loss into the result target:
    /// `(1 - weight) x wdl + weight x wdl_of(v, d)`, `v` and `d` the
    /// search's root value and draw probability (`jungle_mcts::wdl_of`),
    /// so a drawish position is taught as drawish, not as a coin flip.
    pub fn blend_search_value(&mut self, weight: f32) {
        if weight <= 0.0 {
            return;
        }
        let search = wdl_of(self.search_value, self.search_draw);
        for (t, s) in self.wdl.iter_mut().zip(search) {
            *t = (1.0 - weight) * *t + weight * s;
        }
    }

    /// The sample of this position in `encoding`, mirrored left-right if
    /// `mirrored`.
    pub fn sample(&self, rules: &Rules, encoding: Encoding, mirrored: bool) -> Sample {
        let mover = self.position.side_to_move();
        let view = if mirrored {
            self.position.mirrored()
        } else {
            self.position
        };
        let mut planes = vec![0.0; encoding.input_len()];
        encoding.encode(&view, self.repetitions, rules, &mut planes);
        let mut policy = vec![0.0; POLICY_SLOTS];
        for &(mv, p) in &self.target {
            let mv = if mirrored { mv.mirrored() } else { mv };
            policy[move_slot(mv, mover)] += p;
        }
        Sample {
            planes,
            policy,
            wdl: self.wdl,
            short_term_wdl: self.short_term_wdl,
            moves_left: self.moves_left,
            survival: std::array::from_fn(|i| (self.survival >> i & 1) as f32),
        }
    }
}

/// Replays a game record from its start position, calling `at` before each
/// move with the ply, the game so far (its position is the one the move was
/// chosen in) and the move's record; returns the game after the last move.
/// Checks only that each move is legal: [`game_positions`] verifies the
/// targets too.
pub fn replay_game(
    record: &GameRecord,
    rules: &Rules,
    mut at: impl FnMut(usize, &Game, &MoveRecord) -> Result<(), BadGame>,
) -> Result<Game, BadGame> {
    let mut game = Game::from_fen(rules.clone(), &record.start_fen)?;
    for (ply, m) in record.moves.iter().enumerate() {
        at(ply, &game, m)?;
        let mv = unpack_move(m.mv).ok_or(BadGame::MoveCode { ply, code: m.mv })?;
        game.play(mv)
            .map_err(|source| BadGame::IllegalMove { ply, source })?;
    }
    Ok(game)
}

/// How a game's value targets are made from its result and its searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueTargets {
    /// TD(lambda) over the searches' win/draw/loss ([`td_returns`]): 1 is
    /// the game's result alone, lower values bootstrap from the searches
    /// of the positions that followed.
    pub td_lambda: f32,
    /// Share of the position's own search in the target
    /// ([`TrainingPosition::blend_search_value`]), mixed in after the TD
    /// return.
    pub search_weight: f32,
}

impl Default for ValueTargets {
    /// The game's result alone.
    fn default() -> ValueTargets {
        ValueTargets {
            td_lambda: 1.0,
            search_weight: 0.0,
        }
    }
}

/// A game's result for `side` as win/draw/loss: one-hot (`winner` `None`
/// for a draw).
pub fn result_wdl(winner: Option<Side>, side: Side) -> [f32; 3] {
    match winner {
        Some(w) if w == side => [1.0, 0.0, 0.0],
        Some(_) => [0.0, 0.0, 1.0],
        None => [0.0, 1.0, 0.0],
    }
}

/// `wdl` from the other side's point of view.
fn flipped(wdl: [f32; 3]) -> [f32; 3] {
    [wdl[2], wdl[1], wdl[0]]
}

/// The TD(lambda) return of every ply of a game, for the side to move
/// there: at the end the result; before it, `G_t = flip((1 - lambda) x
/// S_{t+1} + lambda x G_{t+1})`, `S_{t+1}` the win/draw/loss of the search
/// at the next ply (its root value and draw probability, `wdl_of`) for the
/// side to move there, the opponent (sides alternate every ply). With
/// `lambda = 1` every return is the result; with 0 each is the next
/// search's view. The last move's return is the result itself.
pub fn td_returns(record: &GameRecord, first_mover: Side, lambda: f32) -> Vec<[f32; 3]> {
    let plies = record.moves.len();
    // The side to move after the last move.
    let last_mover = if plies.is_multiple_of(2) {
        first_mover
    } else {
        first_mover.opponent()
    };
    let mut g = result_wdl(record.winner, last_mover);
    let mut returns = vec![[0.0; 3]; plies];
    for t in (0..plies).rev() {
        let next = if t + 1 < plies {
            let m = &record.moves[t + 1];
            let s = wdl_of(m.root_value, m.root_draw.unwrap_or(0.0));
            std::array::from_fn(|i| (1.0 - lambda) * s[i] + lambda * g[i])
        } else {
            g
        };
        g = flipped(next);
        returns[t] = g;
    }
    returns
}

/// The training positions of a game: its full-search moves, replayed,
/// their value targets the game's result. A game that does not replay
/// ([`verify_game`]: an illegal move or target, a target that is not a
/// distribution, another result) is an error.
pub fn game_positions(
    record: &GameRecord,
    rules: &Rules,
) -> Result<Vec<TrainingPosition>, BadGame> {
    game_positions_with(record, rules, ValueTargets::default())
}

/// [`game_positions`] with the value targets made as `targets` says.
pub fn game_positions_with(
    record: &GameRecord,
    rules: &Rules,
    targets: ValueTargets,
) -> Result<Vec<TrainingPosition>, BadGame> {
    game_positions_where(record, rules, targets, is_training_move)
}

/// [`game_positions_with`] over the positions whose move `keep` takes
/// (a position without a search target has an empty `target`).
pub fn game_positions_where(
    record: &GameRecord,
    rules: &Rules,
    targets: ValueTargets,
    keep: impl Fn(&MoveRecord) -> bool,
) -> Result<Vec<TrainingPosition>, BadGame> {
    // Targets are read from disk: a move that is not legal there, or a
    // probability that is not one, would panic or poison the loss below.
    verify_game(record, rules)?;
    let total = record.moves.len();
    // Every position of the game (the final one too) for the survival
    // targets, and the training positions without them.
    let mut positions = Vec::with_capacity(total + 1);
    let mut out = Vec::new();
    let end = replay_game(record, rules, |ply, game, m| {
        positions.push(*game.position());
        if keep(m) {
            let position = positions[ply];
            let mover = position.side_to_move();
            let target = m
                .target
                .iter()
                .map(|&(code, p)| {
                    unpack_move(code)
                        .map(|mv| (mv, p))
                        .ok_or(BadGame::TargetCode { ply, code })
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.push((
                ply,
                TrainingPosition {
                    position,
                    repetitions: game.repetition_count(),
                    target,
                    wdl: result_wdl(record.winner, mover),
                    short_term_wdl: [0.0; 3],
                    search_value: m.root_value,
                    search_draw: m.root_draw.unwrap_or(0.0),
                    surprise: m.surprise,
                    moves_left: (total - ply) as f32 / 100.0,
                    survival: 0,
                },
            ));
        }
        Ok(())
    })?;
    positions.push(*end.position());
    let first_mover = positions[0].side_to_move();
    let returns =
        (targets.td_lambda < 1.0).then(|| td_returns(record, first_mover, targets.td_lambda));
    let short_term = td_returns(record, first_mover, SHORT_TERM_LAMBDA);
    Ok(out
        .into_iter()
        .map(|(ply, mut p)| {
            p.survival = survival_bits(&positions, ply);
            p.short_term_wdl = short_term[ply];
            if let Some(returns) = &returns {
                p.wdl = returns[ply];
            }
            p.blend_search_value(targets.search_weight);
            p
        })
        .collect())
}

/// Whether a replayed move is a training position (a full search with a
/// target), as [`game_positions`] takes them.
pub fn is_training_move(m: &MoveRecord) -> bool {
    m.full_search && !m.target.is_empty()
}

/// Whether a replayed move was chosen by a search, full or cheap (a random
/// opening ply was not). Shards of format versions 1 and 2 cannot tell a
/// cheap search from an opening ply: their cheap searches read as not
/// searched.
pub fn is_searched_move(m: &MoveRecord) -> bool {
    m.full_search || m.root_draw.is_some()
}

/// Every sample of a game in `encoding`: each full-search position, and
/// with `mirror` its mirror image right after it.
pub fn game_samples(
    record: &GameRecord,
    rules: &Rules,
    encoding: Encoding,
    mirror: bool,
) -> Result<Vec<Sample>, BadGame> {
    let copies: &[bool] = if mirror { &[false, true] } else { &[false] };
    Ok(game_positions(record, rules)?
        .iter()
        .flat_map(|p| copies.iter().map(move |&m| p.sample(rules, encoding, m)))
        .collect())
}

/// Samples stacked for one training step.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Positions.
    pub size: usize,
    /// `[size, planes, 9, 7]` planes.
    pub planes: Vec<f32>,
    /// `[size, 252]` policy targets.
    pub policy: Vec<f32>,
    /// `[size, 3]` result targets.
    pub wdl: Vec<f32>,
    /// `[size, 3]` short-term value targets.
    pub short_term_wdl: Vec<f32>,
    /// `[size, 1]` plies-left targets.
    pub moves_left: Vec<f32>,
    /// `[size, SURVIVAL_OUTPUTS]` survival targets.
    pub survival: Vec<f32>,
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
            b.short_term_wdl.extend_from_slice(&s.short_term_wdl);
            b.moves_left.push(s.moves_left);
            b.survival.extend_from_slice(&s.survival);
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
            short_term_wdl: wdl,
            search_value,
            search_draw: 0.0,
            surprise: None,
            moves_left: 0.5,
            survival: 0,
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

    #[test]
    fn a_drawish_search_is_blended_as_drawish_not_as_a_coin_flip() {
        // A lost game whose search saw a level, mostly drawn position.
        let mut level = position([0.0, 0.0, 1.0], 0.0);
        level.search_draw = 0.8;
        level.blend_search_value(0.5);
        let expected = [0.05, 0.4, 0.55];
        for (got, want) in level.wdl.iter().zip(expected) {
            assert!((got - want).abs() < 1e-6, "{:?}", level.wdl);
        }
        // Without a draw probability (older shards) the value alone.
        let mut old = position([0.0, 0.0, 1.0], 0.0);
        old.blend_search_value(0.5);
        assert_eq!(old.wdl, [0.25, 0.0, 0.75]);
    }

    /// A game of `values.len()` plies (moves not read by [`td_returns`]),
    /// each searched with root value `v` and draw probability `d`.
    fn game(values: &[(f32, f32)], winner: Option<Side>) -> GameRecord {
        GameRecord {
            start_fen: String::new(),
            moves: values
                .iter()
                .map(|&(v, d)| MoveRecord {
                    mv: 0,
                    full_search: true,
                    root_value: v,
                    target: Vec::new(),
                    surprise: None,
                    root_draw: Some(d),
                })
                .collect(),
            winner,
            reason: None,
            checkpoint: String::new(),
            seed: 0,
        }
    }

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn td_returns_bootstrap_from_the_searches_that_follow() {
        // Three plies, South first; South wins. Ply 1 (North to move) was
        // searched at -0.5 with no draw, ply 2 (South) at +0.2 with 0.4.
        let g = game(&[(0.0, 0.0), (-0.5, 0.0), (0.2, 0.4)], Some(Side::South));
        // lambda 1: the result for every mover.
        let r = td_returns(&g, Side::South, 1.0);
        assert!(close(r[0], [1.0, 0.0, 0.0]) && close(r[1], [0.0, 0.0, 1.0]));
        assert!(close(r[2], [1.0, 0.0, 0.0]), "{r:?}");
        // lambda 0: each ply the next search's view, flipped; the last the result.
        let r = td_returns(&g, Side::South, 0.0);
        assert!(close(r[2], [1.0, 0.0, 0.0]), "{r:?}");
        // Ply 2's search for South: (0.4, 0.4, 0.2); for North at ply 1 flipped.
        assert!(close(r[1], [0.2, 0.4, 0.4]), "{r:?}");
        // Ply 1's search for North: (0.25, 0, 0.75); for South at ply 0 flipped.
        assert!(close(r[0], [0.75, 0.0, 0.25]), "{r:?}");
        // lambda 0.5 mixes them: ply 1 = flip(0.5 x (0.4, 0.4, 0.2) + 0.5 x (1, 0, 0)).
        let r = td_returns(&g, Side::South, 0.5);
        assert!(close(r[1], [0.1, 0.2, 0.7]), "{r:?}");
        for w in &r {
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        }
        // A drawn game of two plies, North first.
        let d = td_returns(&game(&[(0.9, 0.0), (0.0, 0.0)], None), Side::North, 0.0);
        assert!(
            close(d[1], [0.0, 1.0, 0.0]) && close(d[0], [0.5, 0.0, 0.5]),
            "{d:?}"
        );
    }

    fn fen(text: &str) -> Position {
        Position::from_fen(text).unwrap()
    }

    #[test]
    fn survival_bits_see_captures_from_the_mover_s_side() {
        use jungle_rules::START_FEN;
        let start = fen(START_FEN);
        // North's rat (lower-case r) gone, then South's elephant (E) too.
        let no_rat = fen("l5t/1d3c1/2p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1");
        let no_rat_no_elephant = fen("l5t/1d3c1/2p1w1e/7/7/7/2W1P1R/1C3D1/T5L w 0 2");
        assert_eq!(alive_mask(&start, Side::South), 0xffff);
        let rat = jungle_rules::Animal::Rat.index();
        let elephant = jungle_rules::Animal::Elephant.index();
        // Every animal but the bits given (as the low 16 bits of a u32).
        let all_but = |gone: &[usize]| gone.iter().fold(0xffff_u32, |m, &b| m & !(1 << b));
        assert_eq!(alive_mask(&no_rat, Side::South) as u32, all_but(&[8 + rat]));
        assert_eq!(alive_mask(&no_rat, Side::North) as u32, all_but(&[rat]));
        // Ten plies: the capture of the rat at ply 3, of the elephant at ply 9.
        let mut positions = vec![start; 3];
        positions.extend([no_rat; 6]);
        positions.extend([no_rat_no_elephant; 2]);
        // Ply 0 (South to move): 6 plies on, the rat is gone; at the end the
        // elephant too.
        let bits = survival_bits(&positions, 0);
        assert_eq!(bits & 0xffff, all_but(&[8 + rat]));
        assert_eq!(bits >> 16, all_but(&[8 + rat, elephant]));
        // Ply 8 (North to move): the horizon is cut at the end.
        assert_eq!(positions[8].side_to_move(), Side::North);
        let bits = survival_bits(&positions, 8);
        let expected = all_but(&[rat, 8 + elephant]);
        assert_eq!(bits, expected | expected << 16);
    }
}
