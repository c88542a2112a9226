//! An exponential moving average of the trained weights (`[experimental]
//! weight_average_decay`, issue 64's 2c): after every optimiser step each
//! tensor's average moves toward the network's, `a = d a + (1 - d) w`.
//! The network that self-play and evaluation use is the average with its
//! batch norms' statistics recomputed on fresh positions
//! ([`jungle_net::backend::training::recompute_running_stats`]): averaged
//! weights match no running statistics, and averaging those as well (what
//! an earlier test did) decides nothing. Training itself goes on from the
//! raw weights.

use crate::samples::Batch;
use jungle_net::average::{float_tensors, with_float_tensors};
use jungle_net::backend::training::recompute_running_stats;
use jungle_net::PolicyValueNet;

/// The running average of a network's tensors.
#[derive(Clone, Debug)]
pub struct WeightAverage {
    decay: f32,
    values: Vec<Vec<f32>>,
}

impl WeightAverage {
    /// An average with `decay` (0 to 1, the weight of the past at each
    /// step) starting at `net`'s tensors.
    pub fn start(net: &PolicyValueNet, decay: f32) -> WeightAverage {
        WeightAverage {
            decay,
            values: float_tensors(net),
        }
    }

    /// Moves the average toward `net`'s tensors by one step.
    pub fn update(&mut self, net: &PolicyValueNet) {
        let d = self.decay;
        for (average, now) in self.values.iter_mut().zip(float_tensors(net)) {
            average
                .iter_mut()
                .zip(now)
                .for_each(|(a, w)| *a = d * *a + (1.0 - d) * w);
        }
    }

    /// `template` (for its architecture and device) with the averaged
    /// tensors, its batch-norm statistics recomputed on `batches`.
    pub fn network(&self, template: &PolicyValueNet, batches: &[Batch]) -> PolicyValueNet {
        let net = with_float_tensors(template, self.values.clone());
        let inputs: Vec<(&[f32], usize)> = batches
            .iter()
            .map(|b| (b.planes.as_slice(), b.size))
            .collect();
        recompute_running_stats(&net, &inputs);
        net
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_net::{cpu_device, NetConfig};

    fn tiny() -> PolicyValueNet {
        NetConfig::new()
            .with_blocks(1)
            .with_filters(8)
            .init(&cpu_device())
    }

    #[test]
    fn the_average_moves_by_one_minus_decay_toward_the_network() {
        let (a, b) = (tiny(), tiny());
        let mut average = WeightAverage::start(&a, 0.75);
        average.update(&b);
        let (ta, tb) = (float_tensors(&a), float_tensors(&b));
        for ((avg, x), y) in average.values.iter().zip(&ta).zip(&tb) {
            for ((v, x), y) in avg.iter().zip(x).zip(y) {
                assert!((v - (0.75 * x + 0.25 * y)).abs() < 1e-6);
            }
        }
        // Decay 0 follows the network exactly.
        let mut follow = WeightAverage::start(&a, 0.0);
        follow.update(&b);
        assert_eq!(follow.values, tb);
    }

    #[test]
    fn recomputed_statistics_make_inference_match_training_mode_on_the_batch() {
        let net = tiny();
        let planes = NetConfig::new().encoding().planes();
        let size = 16;
        let batch = Batch {
            size,
            planes: (0..size * planes * jungle_net::encoding::SQUARES)
                .map(|i| ((i * 7919) % 5 == 0) as u8 as f32)
                .collect(),
            ..Batch::default()
        };
        let averaged = WeightAverage::start(&net, 0.5).network(&net, std::slice::from_ref(&batch));
        let (train, _) =
            jungle_net::backend::training::forward_train(&averaged, &batch.planes, size);
        let inference =
            jungle_net::backend::inference::FastNet::new(&averaged).forward(&batch.planes, size);
        let before =
            jungle_net::backend::inference::FastNet::new(&net).forward(&batch.planes, size);
        let gap = |a: &[f32], b: &[f32]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0f32, f32::max)
        };
        // With the batch's own statistics, inference normalises as the
        // training-mode pass does; with the fresh network's (left as they
        // were: the average has batch norms of its own) it does not.
        assert!(
            gap(&train.wdl, &inference.wdl) < 1e-3,
            "{}",
            gap(&train.wdl, &inference.wdl)
        );
        assert!(gap(&train.policy, &inference.policy) < 1e-3);
        assert!(gap(&train.wdl, &before.wdl) > 1e-2);
    }
}
