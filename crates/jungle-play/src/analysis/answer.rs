//! An analysis answer: the position's value and win/draw/loss, the move
//! to play, and a line per reported move (visits, value, win/draw/loss,
//! prior, the search's policy, the principal variation).

use super::query::Checked;
use crate::player::Decision;
use jungle_encoding::Wdl;
use jungle_mcts::{EvalInput, Evaluator, RootLine, SearchResult};
use jungle_rules::{Game, Move};
use serde::Serialize;

/// One reported move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its rank among the root's moves (0 = the move to play; then by
    /// visits, then prior).
    pub order: usize,
    /// Its visits.
    pub visits: u32,
    /// Its value for the side to move, in [-1, 1] (`null`: not visited).
    pub value: Option<f32>,
    /// Win, draw and loss for the side to move after it (`null`: not
    /// visited).
    pub wdl: Option<Wdl>,
    /// The network's (or the hand-written) prior.
    pub prior: f32,
    /// The search's policy (Gumbel's improved policy, or the visits).
    pub policy: f32,
    /// The move, then the most visited line below it.
    pub pv: Vec<String>,
}

/// The answer to one query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// The query's id.
    pub id: serde_json::Value,
    /// The player spec.
    pub player: String,
    /// The rule set.
    pub variant: String,
    /// The analysed position (FEN).
    pub position: String,
    /// Simulations run (0 for players that do not search).
    pub simulations: u32,
    /// The move to play.
    pub best: String,
    /// The position's value for the side to move (`null` for a player
    /// without one).
    pub value: Option<f32>,
    /// Win, draw and loss for the side to move.
    pub wdl: Option<Wdl>,
    /// The best `multipv` moves, then the asked-for ones.
    pub lines: Vec<Line>,
    /// Milliseconds from the query's arrival to its answer.
    pub ms: u64,
}

/// Moves as text.
fn texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// The evaluator's draw probability in `game` after `mv` (or at `game`
/// itself for `None`); an end of the game is exact. The draw share of
/// every win/draw/loss the analysis and the engine print.
pub fn draw_after(game: &Game, mv: Option<Move>, evaluator: &mut dyn Evaluator) -> f32 {
    let mut after = game.clone();
    if let Some(mv) = mv {
        if let Ok(Some(outcome)) = after.play(mv) {
            return if outcome.winner.is_none() { 1.0 } else { 0.0 };
        }
    }
    let moves = after.legal_moves();
    let input = EvalInput {
        position: after.position(),
        legal_moves: moves.as_slice(),
        repetitions: after.repetition_count(),
        rules: after.rules(),
    };
    evaluator.evaluate(&[input])[0].wdl[1]
}

/// The answer of a finished search: `result` and `lines` from it, the
/// draw shares from `evaluator` (its cache holds them).
pub fn from_search(
    query: &Checked,
    result: &SearchResult,
    lines: &[RootLine],
    evaluator: &mut dyn Evaluator,
    ms: u64,
) -> Answer {
    let game = &query.game;
    // The move to play first, then by visits, then prior.
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| {
        (lines[b].mv == result.best)
            .cmp(&(lines[a].mv == result.best))
            .then(lines[b].visits.cmp(&lines[a].visits))
            .then(result.prior[b].total_cmp(&result.prior[a]))
    });
    let mut reported: Vec<usize> = order.iter().copied().take(query.multipv).collect();
    for mv in &query.analyze_moves {
        if let Some(i) = lines.iter().position(|l| l.mv == *mv) {
            if !reported.contains(&i) {
                reported.push(i);
            }
        }
    }
    let out = reported
        .iter()
        .map(|&i| {
            let l = &lines[i];
            Line {
                mv: l.mv.to_string(),
                order: order
                    .iter()
                    .position(|&j| j == i)
                    .expect("every index ranked"),
                visits: l.visits,
                value: l.value,
                wdl: l
                    .value
                    .map(|v| Wdl::new(v, draw_after(game, Some(l.mv), evaluator))),
                prior: result.prior[i],
                policy: result.improved_policy[i],
                pv: texts(&l.pv),
            }
        })
        .collect();
    Answer {
        id: query.id.clone(),
        player: query.player_name.clone(),
        variant: query.variant.clone(),
        position: game.position().to_fen(),
        simulations: result.simulations,
        best: result.best.to_string(),
        value: Some(result.value),
        wdl: Some(Wdl::new(result.value, draw_after(game, None, evaluator))),
        lines: out,
        ms,
    }
}

/// The answer of a player that does not search: its move, and its value
/// and line when it has them.
pub fn from_decision(query: &Checked, decision: &Decision, ms: u64) -> Answer {
    Answer {
        id: query.id.clone(),
        player: query.player_name.clone(),
        variant: query.variant.clone(),
        position: query.game.position().to_fen(),
        simulations: 0,
        best: decision.mv.to_string(),
        value: decision.value,
        wdl: decision.value.map(|v| Wdl::new(v, 0.0)),
        lines: vec![Line {
            mv: decision.mv.to_string(),
            order: 0,
            visits: 0,
            value: decision.value,
            wdl: decision.value.map(|v| Wdl::new(v, 0.0)),
            prior: 0.0,
            policy: 1.0,
            pv: texts(&decision.pv),
        }],
        ms,
    }
}
