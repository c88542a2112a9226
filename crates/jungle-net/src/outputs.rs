//! The network's outputs, described once: their names, widths and meanings
//! ([`Output`], which the export and the served backend's transfers read)
//! and a batch's outputs on plain buffers ([`Outputs`], what the inference,
//! training and served backends return and what the losses' gradients
//! fill). A new output is a variant here and its computation in each
//! backend.

use crate::architecture::NetConfig;
use crate::encoding::POLICY_SLOTS;
use jungle_encoding::{SURVIVAL_NEAR_PLIES, SURVIVAL_OUTPUTS};

/// The material weight `model.json` recommends for the survival output
/// (measured: `experiments/ablation-material.md`).
pub const RECOMMENDED_MATERIAL_WEIGHT: f32 = 0.6;

/// The lambda of the TD(lambda) return the short-term value head predicts
/// (KataGo's short-term value): each later search's view weighs
/// `(1 - lambda) x lambda^k`, a horizon of about `1 / (1 - lambda)` = 3
/// plies, where the value head's target looks about ten plies on.
pub const SHORT_TERM_LAMBDA: f32 = 2.0 / 3.0;

/// One of the network's outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// Policy logits, one per slot (`direction * 63 + square`).
    Policy,
    /// Win, draw and loss logits for the side to move.
    Wdl,
    /// Predicted plies left in the game / 100.
    MovesLeft,
    /// Survival logits (networks with the survival head only).
    Survival,
    /// Win, draw and loss logits of the short-term value (networks with
    /// the short-term head only).
    ShortTermWdl,
}

impl Output {
    /// Every output, in the order of the export's outputs and of a row of
    /// the served backend's transfer.
    pub const ALL: [Output; 5] = [
        Output::Policy,
        Output::Wdl,
        Output::MovesLeft,
        Output::Survival,
        Output::ShortTermWdl,
    ];

    /// The outputs of a network of architecture `net`, in order.
    pub fn of(net: &NetConfig) -> impl Iterator<Item = Output> + '_ {
        Output::ALL.into_iter().filter(|o| net.has_output(*o))
    }

    /// Whether only some networks have the output (an optional head).
    pub fn is_optional(self) -> bool {
        matches!(self, Output::Survival | Output::ShortTermWdl)
    }

    /// The name of the exported output (and of the field of [`Outputs`]).
    pub fn name(self) -> &'static str {
        match self {
            Output::Policy => "policy",
            Output::Wdl => "wdl",
            Output::MovesLeft => "moves_left",
            Output::Survival => "survival",
            Output::ShortTermWdl => "short_term_wdl",
        }
    }

    /// Floats per position.
    pub fn width(self) -> usize {
        match self {
            Output::Policy => POLICY_SLOTS,
            Output::Wdl => 3,
            Output::MovesLeft => 1,
            Output::Survival => SURVIVAL_OUTPUTS,
            Output::ShortTermWdl => 3,
        }
    }

    /// What the output means and how to read it (`model.json`).
    pub fn meaning(self) -> String {
        match self {
            Output::Policy => "policy logits per slot; keep the legal moves' slots and take a \
                               softmax over them"
                .to_string(),
            Output::Wdl => "win, draw, loss logits for the side to move (softmax gives the \
                            probabilities; value = p_win - p_loss)"
                .to_string(),
            Output::MovesLeft => "predicted plies left in the game / 100".to_string(),
            Output::Survival => format!(
                "survival logits (sigmoid gives the probability): 0-7 'this animal of the side to \
                 move is still on the board {SURVIVAL_NEAR_PLIES} plies on' for rat, cat, dog, \
                 wolf, leopard, tiger, lion, elephant; 8-15 the same for the opponent's animals; \
                 16-31 the same at the end of the game. The material term of the engine's search: \
                 value += w * (sum of sigmoid(0-7) - sum of sigmoid(8-15)) / 8, clipped to [-1, 1], \
                 with w = {RECOMMENDED_MATERIAL_WEIGHT} (0 plays the value alone)"
            ),
            Output::ShortTermWdl => format!(
                "short-term win, draw, loss logits for the side to move: the TD(lambda = \
                 {SHORT_TERM_LAMBDA:.3}) return of the searches a few plies on (an auxiliary \
                 training target; play reads wdl)"
            ),
        }
    }
}

/// A batch's outputs, one row-major buffer per [`Output`] (`batch x
/// width` floats; an optional output's buffer empty for a network without
/// its head). The gradients of a loss with respect to the outputs have the
/// same shape.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    /// `[batch, 252]` policy logits.
    pub policy: Vec<f32>,
    /// `[batch, 3]` win/draw/loss logits.
    pub wdl: Vec<f32>,
    /// `[batch]` moves-left predictions.
    pub moves_left: Vec<f32>,
    /// `[batch, SURVIVAL_OUTPUTS]` survival logits (empty without the head).
    pub survival: Vec<f32>,
    /// `[batch, 3]` short-term win/draw/loss logits (empty without the
    /// head).
    pub short_term_wdl: Vec<f32>,
}

impl Outputs {
    /// Zeros for `batch` positions of each of `outputs` (the others
    /// empty).
    pub fn zeros(batch: usize, outputs: impl IntoIterator<Item = Output>) -> Outputs {
        let mut out = Outputs::default();
        for o in outputs {
            *out.get_mut(o) = vec![0.0; batch * o.width()];
        }
        out
    }

    /// The buffer of `output`.
    pub fn get(&self, output: Output) -> &Vec<f32> {
        match output {
            Output::Policy => &self.policy,
            Output::Wdl => &self.wdl,
            Output::MovesLeft => &self.moves_left,
            Output::Survival => &self.survival,
            Output::ShortTermWdl => &self.short_term_wdl,
        }
    }

    /// The buffer of `output`, to fill.
    pub fn get_mut(&mut self, output: Output) -> &mut Vec<f32> {
        match output {
            Output::Policy => &mut self.policy,
            Output::Wdl => &mut self.wdl,
            Output::MovesLeft => &mut self.moves_left,
            Output::Survival => &mut self.survival,
            Output::ShortTermWdl => &mut self.short_term_wdl,
        }
    }

    /// The number of positions.
    pub fn batch(&self) -> usize {
        self.moves_left.len()
    }

    /// Whether the survival logits are there.
    pub fn has_survival(&self) -> bool {
        !self.survival.is_empty()
    }

    /// The outputs these buffers hold, in order: every output that is not
    /// optional, and the optional ones that are not empty.
    pub fn present(&self) -> Vec<Output> {
        Output::ALL
            .into_iter()
            .filter(|o| !o.is_optional() || !self.get(*o).is_empty())
            .collect()
    }

    /// Appends `other`'s positions after these.
    pub fn append(&mut self, other: &Outputs) {
        for o in Output::ALL {
            self.get_mut(o).extend_from_slice(other.get(o));
        }
    }

    /// Positions `start..start + len`.
    pub fn rows(&self, start: usize, len: usize) -> Outputs {
        let mut out = Outputs::default();
        for o in self.present() {
            out.get_mut(o)
                .extend_from_slice(&self.get(o)[start * o.width()..(start + len) * o.width()]);
        }
        out
    }

    /// For each output, the largest absolute difference between these
    /// values and `other`'s (0 for an output both lack): how far two
    /// backends' passes are apart. Panics when an output's lengths differ.
    pub fn largest_differences(&self, other: &Outputs) -> Vec<(Output, f32)> {
        Output::ALL
            .into_iter()
            .map(|o| {
                let (a, b) = (self.get(o), other.get(o));
                assert_eq!(a.len(), b.len(), "{} lengths", o.name());
                let largest = a
                    .iter()
                    .zip(b)
                    .map(|(x, y)| (x - y).abs())
                    .fold(0.0, f32::max);
                (o, largest)
            })
            .collect()
    }

    /// Splits `batch` rows that hold each of `outputs` in order (the
    /// served backend's one transfer).
    pub fn from_rows(all: &[f32], batch: usize, outputs: &[Output]) -> Outputs {
        let width: usize = outputs.iter().map(|o| o.width()).sum();
        assert_eq!(all.len(), batch * width, "{batch} rows of {width} floats");
        let mut out = Outputs::default();
        for &o in outputs {
            out.get_mut(o).reserve(batch * o.width());
        }
        for row in all.chunks_exact(width) {
            let mut at = 0;
            for &o in outputs {
                out.get_mut(o).extend_from_slice(&row[at..at + o.width()]);
                at += o.width();
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The architectures with each combination of the optional heads.
    fn architectures() -> Vec<NetConfig> {
        let mut nets = Vec::new();
        for survival in [false, true] {
            for short_term in [false, true] {
                nets.push(
                    NetConfig::new()
                        .with_survival_head(Some(survival))
                        .with_short_term_head(Some(short_term)),
                );
            }
        }
        nets
    }

    fn counting(batch: usize, net: &NetConfig) -> Outputs {
        let mut out = Outputs::zeros(batch, Output::of(net));
        let mut next = 0.0;
        for o in Output::ALL {
            for v in out.get_mut(o) {
                *v = next;
                next += 1.0;
            }
        }
        out
    }

    #[test]
    fn outputs_split_from_rows_slice_and_append_in_the_outputs_order() {
        for net in architectures() {
            let out = counting(3, &net);
            let outputs: Vec<Output> = Output::of(&net).collect();
            assert_eq!(out.batch(), 3);
            assert_eq!(out.present(), outputs);
            assert_eq!(out.has_survival(), net.has_survival_head());
            assert_eq!(out.policy.len(), 3 * POLICY_SLOTS);
            assert_eq!(
                out.survival.len(),
                if net.has_survival_head() {
                    3 * SURVIVAL_OUTPUTS
                } else {
                    0
                }
            );
            assert_eq!(
                out.short_term_wdl.len(),
                if net.has_short_term_head() { 9 } else { 0 }
            );
            // The rows a served transfer holds: each position's outputs in order.
            let mut rows = Vec::new();
            for i in 0..3 {
                for &o in &outputs {
                    rows.extend_from_slice(&out.get(o)[i * o.width()..(i + 1) * o.width()]);
                }
            }
            assert_eq!(Outputs::from_rows(&rows, 3, &outputs), out);
            let (first, rest) = (out.rows(0, 1), out.rows(1, 2));
            assert_eq!(first.batch(), 1);
            assert_eq!(first.present(), outputs);
            assert_eq!(rest.wdl, out.wdl[3..].to_vec());
            let mut joined = first;
            joined.append(&rest);
            assert_eq!(joined, out);
        }
    }

    #[test]
    fn names_are_distinct_and_the_optional_outputs_come_last() {
        let both = NetConfig::new()
            .with_survival_head(Some(true))
            .with_short_term_head(Some(true));
        let names: Vec<_> = Output::of(&both).map(Output::name).collect();
        assert_eq!(
            names,
            ["policy", "wdl", "moves_left", "survival", "short_term_wdl"]
        );
        assert_eq!(Output::of(&NetConfig::new()).count(), 3);
        let short_term = NetConfig::new().with_short_term_head(Some(true));
        let names: Vec<_> = Output::of(&short_term).map(Output::name).collect();
        assert_eq!(names, ["policy", "wdl", "moves_left", "short_term_wdl"]);
        assert!(Output::Survival
            .meaning()
            .contains(&SURVIVAL_NEAR_PLIES.to_string()));
        assert!(Output::ShortTermWdl.meaning().contains("0.667"));
    }
}
