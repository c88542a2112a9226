//! The network's architecture, the one description every backend reads
//! ([`crate::backend`]): sizes, the optional parts and the input planes.
//! It is `[net]` in a training config and part of every checkpoint.

use crate::encoding::Encoding;
use crate::outputs::Output;
use burn::config::Config;
use jungle_rules::InvalidKey;

/// The architecture. Every field is part of a checkpoint's identity.
#[derive(Config, Debug, PartialEq)]
pub struct NetConfig {
    /// Residual blocks.
    #[config(default = 6)]
    pub blocks: usize,
    /// Channels of the trunk.
    #[config(default = 64)]
    pub filters: usize,
    /// Every n-th block adds a global-pooling bias (KataGo); 0 = none.
    #[config(default = 0)]
    pub global_pool_every: usize,
    /// Channels of the policy head's 1x1 convolution.
    #[config(default = 32)]
    pub policy_filters: usize,
    /// Channels of the value head's 1x1 convolution.
    #[config(default = 32)]
    pub value_filters: usize,
    /// Width of the value head's hidden layer.
    #[config(default = 64)]
    pub value_hidden: usize,
    /// `Some(true)` adds the piece-survival head ([`SURVIVAL_OUTPUTS`]
    /// logits on the value head's hidden layer), trained as an auxiliary
    /// target (exported as a fourth output). An `Option` so that
    /// checkpoints written before the head existed (no such key) still load
    /// as `None`, meaning no head.
    #[config(default = "None")]
    pub survival_head: Option<bool>,
    /// `Some(true)` makes the network read the tactical input planes
    /// ([`Encoding::Tactical`]). An `Option` for the same reason as
    /// `survival_head`: older checkpoints load as `None`, the base planes.
    #[config(default = "None")]
    pub tactical_planes: Option<bool>,
    /// `Some(true)` adds the exchange planes ([`Encoding::Exchange`]) after
    /// the tactical ones; needs `tactical_planes`. `None` in older
    /// checkpoints.
    #[config(default = "None")]
    pub exchange_planes: Option<bool>,
    /// `Some(true)` adds the short-term value head (three win/draw/loss
    /// logits on the value head's hidden layer,
    /// [`crate::Output::ShortTermWdl`]), trained as an auxiliary target
    /// and exported as the last output. `None` in older checkpoints: no
    /// head.
    #[config(default = "None")]
    pub short_term_head: Option<bool>,
}

pub use jungle_encoding::{SURVIVAL_NEAR_PLIES, SURVIVAL_OUTPUTS};

impl NetConfig {
    /// Checks the sizes; the message names the key.
    pub fn validate(&self) -> Result<(), InvalidKey> {
        for (key, v) in [
            ("filters", self.filters),
            ("policy_filters", self.policy_filters),
            ("value_filters", self.value_filters),
            ("value_hidden", self.value_hidden),
        ] {
            InvalidKey::check_range(key, v, 1, 4096)?;
        }
        InvalidKey::check_range("blocks", self.blocks, 0, 256)?;
        InvalidKey::check_range("global_pool_every", self.global_pool_every, 0, 256)?;
        let parameters = self.parameters();
        if parameters > MAX_PARAMETERS {
            return Err(InvalidKey::new(
                "blocks",
                format!(
                    "{} with filters = {}: about {:.1} G parameters ({:.0} GiB of weights alone)",
                    self.blocks,
                    self.filters,
                    parameters / 1e9,
                    parameters * 4.0 / GIB
                ),
                format!(
                    "a network of at most {:.0} M parameters (the default has {:.2} M): fewer blocks or filters",
                    MAX_PARAMETERS / 1e6,
                    NetConfig::new().parameters() / 1e6
                ),
            ));
        }
        if self.exchange_planes == Some(true) && self.tactical_planes != Some(true) {
            return Err(InvalidKey::new(
                "exchange_planes",
                "true without `tactical_planes`",
                "`tactical_planes = true` too (the exchange planes follow the tactical ones)",
            ));
        }
        Ok(())
    }

    /// Whether the network has the survival head.
    pub fn has_survival_head(&self) -> bool {
        self.survival_head == Some(true)
    }

    /// Whether the network has the short-term value head.
    pub fn has_short_term_head(&self) -> bool {
        self.short_term_head == Some(true)
    }

    /// Whether the network computes `output` (the optional ones need
    /// their head).
    pub fn has_output(&self, output: Output) -> bool {
        match output {
            Output::Survival => self.has_survival_head(),
            Output::ShortTermWdl => self.has_short_term_head(),
            Output::Policy | Output::Wdl | Output::MovesLeft => true,
        }
    }

    /// The optional parts by their `[net]` key, each with whether this
    /// network has it: the one list a checkpoint's architecture check
    /// compares and [`NetConfig::with_every_key`] fills.
    pub fn switches(&self) -> [(&'static str, bool); 4] {
        let encoding = self.encoding();
        [
            ("survival_head", self.has_survival_head()),
            ("tactical_planes", encoding != Encoding::Base),
            ("exchange_planes", encoding == Encoding::Exchange),
            ("short_term_head", self.has_short_term_head()),
        ]
    }

    /// This config with every optional key present (`Some(false)` where it
    /// was absent, the same network): its serialised table names every key
    /// a `[net]` table may hold, for the unknown-key check.
    pub fn with_every_key(self) -> Self {
        let some = |switch: Option<bool>| Some(switch == Some(true));
        Self {
            survival_head: some(self.survival_head),
            tactical_planes: some(self.tactical_planes),
            exchange_planes: some(self.exchange_planes),
            short_term_head: some(self.short_term_head),
            ..self
        }
    }

    /// The network's weights in two parts: those of its convolutions
    /// (each used once per square) and those of its dense layers (the
    /// global-pooling biases and the value head, used once per position).
    /// Biases and batch norms, a few per cent, are left out.
    fn weights(&self) -> (f64, f64) {
        let squares = crate::encoding::SQUARES as f64;
        let (f, pf, vf, vh) = (
            self.filters as f64,
            self.policy_filters as f64,
            self.value_filters as f64,
            self.value_hidden as f64,
        );
        let planes = self.encoding().planes() as f64;
        let directions = (crate::encoding::POLICY_SLOTS as f64) / squares;
        let pooled_blocks = self.blocks.checked_div(self.global_pool_every).unwrap_or(0);
        // The dense heads on the value head's hidden layer: every output
        // but the policy.
        let head_outputs: usize = Output::of(self)
            .filter(|o| *o != Output::Policy)
            .map(Output::width)
            .sum();
        let convolutions = 9.0 * planes * f
            + self.blocks as f64 * 2.0 * 9.0 * f * f
            + f * pf
            + pf * directions
            + f * vf;
        let dense = pooled_blocks as f64 * f * f + vf * vh + vh * head_outputs as f64;
        (convolutions, dense)
    }

    /// About how many weights the network has: its convolutions' and
    /// dense layers' (biases and batch norms, a few per cent, left out).
    pub fn parameters(&self) -> f64 {
        let (convolutions, dense) = self.weights();
        convolutions + dense
    }

    /// About how many bytes training this network takes with batches of
    /// `batch` positions: four copies of the weights (the weights, their
    /// gradients and Adam's two moments) and the activations autodiff keeps
    /// for the backward pass (some six tensors of `filters` planes a
    /// block, each of batch x 63 floats).
    pub fn training_bytes(&self, batch: usize) -> f64 {
        let squares = crate::encoding::SQUARES as f64;
        let activations =
            batch as f64 * (self.blocks as f64 + 2.0) * 6.0 * self.filters as f64 * squares;
        4.0 * (4.0 * self.parameters() + activations)
    }

    /// Floating-point operations of one position's forward pass, counted
    /// as the direct convolution's multiply-adds (two each), the usual
    /// measure (Winograd's transforms do fewer multiplications for the same
    /// result, so its rates in these units can pass the machine's peak):
    /// every convolution weight once per square, every dense weight once.
    pub fn flops_per_position(&self) -> f64 {
        let squares = crate::encoding::SQUARES as f64;
        let (convolutions, dense) = self.weights();
        2.0 * (squares * convolutions + dense)
    }

    /// The input planes the network reads.
    pub fn encoding(&self) -> Encoding {
        if self.tactical_planes != Some(true) {
            Encoding::Base
        } else if self.exchange_planes == Some(true) {
            Encoding::Exchange
        } else {
            Encoding::Tactical
        }
    }
}

/// The most weights a network may have: 1 G parameters (4 GiB of weights;
/// the default has about 0.1 M, KataGo's largest about 0.1 G).
pub const MAX_PARAMETERS: f64 = 1e9;

const GIB: f64 = (1u64 << 30) as f64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_far_beyond_memory_is_refused_with_its_size() {
        let default = NetConfig::new();
        assert!(default.validate().is_ok());
        let p = default.parameters();
        assert!(p > 5e4 && p < 5e5, "{p}");
        // Doubling the filters about quadruples the residual tower.
        let wide = default.clone().with_filters(default.filters * 2);
        assert!(wide.parameters() > 3.0 * p);
        let huge = default.clone().with_blocks(256).with_filters(4096);
        let e = huge.validate().unwrap_err().to_string();
        assert!(
            e.contains("blocks") && e.contains("G parameters") && e.contains("at most 1000 M"),
            "{e}"
        );
        assert!(huge.training_bytes(128) > 1e12);
    }

    #[test]
    fn every_key_names_each_switch_and_keeps_the_network() {
        let older = NetConfig::new(); // a checkpoint from before the switches
        let full = older.clone().with_every_key();
        assert_eq!(full.switches(), older.switches());
        assert_eq!(full.encoding(), older.encoding());
        assert_eq!(full.parameters(), older.parameters());
        let table = serde_json::to_value(&full).unwrap();
        for (key, has) in full.switches() {
            assert_eq!(
                table.get(key),
                Some(&serde_json::Value::Bool(false)),
                "{key}"
            );
            assert!(!has, "{key}");
        }
        let exchange = NetConfig::new()
            .with_tactical_planes(Some(true))
            .with_exchange_planes(Some(true))
            .with_short_term_head(Some(true));
        let on: Vec<_> = exchange
            .switches()
            .iter()
            .filter(|s| s.1)
            .map(|s| s.0)
            .collect();
        assert_eq!(
            on,
            ["tactical_planes", "exchange_planes", "short_term_head"]
        );
        assert_eq!(
            exchange.clone().with_every_key(),
            exchange.with_survival_head(Some(false))
        );
    }

    #[test]
    fn flops_per_position_counts_every_weight_once_per_square() {
        // Independently of the formula: each convolution weight is used
        // once per square, each dense weight once per position.
        let config = NetConfig::new()
            .with_blocks(2)
            .with_filters(8)
            .with_policy_filters(4)
            .with_value_filters(2)
            .with_value_hidden(5)
            .with_tactical_planes(Some(true))
            .with_survival_head(Some(true))
            .with_short_term_head(Some(true));
        let net = config.init(&crate::cpu_device());
        let conv = |c: &burn::nn::conv::Conv2d| c.weight.val().dims().iter().product::<usize>();
        let dense = |l: &burn::nn::Linear| l.weight.val().dims().iter().product::<usize>();
        let mut convs = conv(&net.stem) + conv(&net.policy_conv) + conv(&net.policy_out);
        convs += conv(&net.value_conv);
        for block in &net.blocks {
            convs += conv(&block.conv1) + conv(&block.conv2);
        }
        let survival = net.survival_out.as_ref().map_or(0, dense);
        let short_term = net.short_term_out.as_ref().map_or(0, dense);
        let denses = dense(&net.value_fc)
            + dense(&net.value_out)
            + dense(&net.moves_left_out)
            + survival
            + short_term;
        let expected = 2.0 * (convs as f64 * 63.0 + denses as f64);
        assert_eq!(config.flops_per_position(), expected);
    }
}
