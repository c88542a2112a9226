//! The pieces of Gumbel root search (Danihelka et al., "Policy improvement
//! by planning with Gumbel", ICLR 2022), following DeepMind's mctx: the
//! sequential-halving visit schedule and the completed-Q transform that
//! yields both the move choice and the improved policy.

/// For each simulation, the visit count the chosen root move must have:
/// sequential halving over `considered` moves within `simulations`.
pub fn considered_visit_sequence(considered: usize, simulations: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let log2max = (considered as f64).log2().ceil() as usize;
    let mut sequence = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered];
    let mut num_considered = considered;
    while sequence.len() < simulations {
        let extra = (simulations / (log2max * num_considered)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..num_considered]);
            for v in &mut visits[..num_considered] {
                *v += 1;
            }
        }
        num_considered = (num_considered / 2).max(2);
    }
    sequence.truncate(simulations);
    sequence
}

/// The statistics of one root move that the transform needs.
#[derive(Clone, Copy, Debug)]
pub struct RootEdge {
    /// Prior probability (without noise).
    pub prior: f32,
    /// Finished visits.
    pub visits: u32,
    /// Mean value for the side to move at the root (meaningless if unvisited).
    pub q: f32,
}

/// sigma(completed Q) for every root move: visited moves keep their Q,
/// unvisited ones get the mixed value of the root's raw value and the
/// prior-weighted Q of the visited ones; the result is rescaled to [0, 1]
/// and multiplied by (c_visit + max visits) * c_scale.
pub fn transformed_completed_q(
    edges: &[RootEdge],
    raw_value: f32,
    c_visit: f32,
    c_scale: f32,
) -> Vec<f32> {
    let total_visits: u32 = edges.iter().map(|e| e.visits).sum();
    let visited_prior: f32 = edges
        .iter()
        .filter(|e| e.visits > 0)
        .map(|e| e.prior.max(f32::MIN_POSITIVE))
        .sum();
    let mixed = if visited_prior > 0.0 {
        let weighted_q: f32 = edges
            .iter()
            .filter(|e| e.visits > 0)
            .map(|e| e.prior.max(f32::MIN_POSITIVE) * e.q / visited_prior)
            .sum();
        (raw_value + total_visits as f32 * weighted_q) / (total_visits as f32 + 1.0)
    } else {
        raw_value
    };
    let completed: Vec<f32> = edges
        .iter()
        .map(|e| if e.visits > 0 { e.q } else { mixed })
        .collect();
    let lo = completed.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = completed.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let span = (hi - lo).max(1e-8);
    let max_visits = edges.iter().map(|e| e.visits).max().unwrap_or(0);
    let scale = (c_visit + max_visits as f32) * c_scale;
    completed.iter().map(|&q| scale * (q - lo) / span).collect()
}

/// Softmax of `logits`.
pub fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = logits.iter().map(|&l| (l - max).exp()).collect();
    let sum: f32 = exps.iter().sum();
    exps.iter().map(|&e| e / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_matches_mctx() {
        // mctx: get_sequence_of_considered_visits(4, 16)
        assert_eq!(
            considered_visit_sequence(4, 16),
            vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
        );
        assert_eq!(considered_visit_sequence(1, 3), vec![0, 1, 2]);
        assert_eq!(considered_visit_sequence(16, 16), vec![0; 16]);
    }

    #[test]
    fn completed_q_orders_by_value_and_scales_with_visits() {
        let edges = [
            RootEdge {
                prior: 0.5,
                visits: 4,
                q: 0.5,
            },
            RootEdge {
                prior: 0.3,
                visits: 2,
                q: -0.5,
            },
            RootEdge {
                prior: 0.2,
                visits: 0,
                q: 0.0,
            },
        ];
        let s = transformed_completed_q(&edges, 0.0, 50.0, 0.1);
        assert!((s[0] - 5.4).abs() < 1e-5, "{s:?}");
        assert!(s[1].abs() < 1e-6);
        assert!(s[2] > 0.0 && s[2] < s[0]);
        let p = softmax(&[0.0, 1.0, 2.0]);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(p[2] > p[1] && p[1] > p[0]);
    }
}
