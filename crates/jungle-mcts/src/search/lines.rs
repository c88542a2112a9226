//! Every root move as the search sees it: what an analysis reports beside
//! the move to play (`jungle analyze --multipv`, the analysis server).

use super::*;

/// One root move after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct RootLine {
    /// The move.
    pub mv: Move,
    /// Its visits (including those kept from the previous move's tree).
    pub visits: u32,
    /// Its value for the side to move at the root, in [-1, 1], as the
    /// root's ranking reads it (exact when proven, blended with the
    /// minimax under `minimax_weight`); `None` when it has no visits.
    pub value: Option<f32>,
    /// The move, then the most visited line below it.
    pub pv: Vec<Move>,
}

impl Search {
    /// The root's moves with their visits, values and lines, in the order
    /// of [`SearchResult::moves`]; empty before the root is expanded.
    pub fn root_lines(&self) -> Vec<RootLine> {
        self.tree.nodes[0]
            .children()
            .map(|c| {
                let n = &self.tree.nodes[c];
                RootLine {
                    mv: n.mv,
                    visits: n.visits,
                    value: self.exact(n).or(n.q().map(|q| self.with_minimax(n, q))),
                    pv: self.principal_variation(c),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::HeuristicEvaluator;

    #[test]
    fn the_lines_follow_the_result_and_the_best_line_is_the_pv() {
        let rules = Rules::default();
        let game = Game::new(rules.clone());
        let mut tree = Search::new(rules, SearchConfig::for_play(300), 1);
        let result = search(&mut tree, &game, &mut HeuristicEvaluator);
        let lines = tree.root_lines();
        assert_eq!(lines.iter().map(|l| l.mv).collect::<Vec<_>>(), result.moves);
        assert_eq!(
            lines.iter().map(|l| l.visits).collect::<Vec<_>>(),
            result.visits
        );
        let best = lines.iter().find(|l| l.mv == result.best).unwrap();
        assert_eq!(best.pv, result.pv);
        for line in &lines {
            assert_eq!(line.pv[0], line.mv);
            assert_eq!(line.value.is_some(), line.visits > 0, "{line:?}");
            assert!(line.value.is_none_or(|v| (-1.0..=1.0).contains(&v)));
        }
        assert!(lines.iter().filter(|l| l.visits > 0).count() > 3);
    }
}
