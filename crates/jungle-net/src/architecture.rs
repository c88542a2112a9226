//! The network's architecture, the one description every backend reads
//! ([`crate::backend`]): sizes, the optional parts and the input planes.
//! It is `[net]` in a training config and part of every checkpoint.

use crate::encoding::Encoding;
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
}

/// Outputs of the survival head: for two horizons ([`SURVIVAL_NEAR_PLIES`]
/// plies later or the game's end if sooner; then the game's end), 16 logits
/// "this animal is still on the board": the side to move's eight (rat to
/// elephant), then the opponent's eight.
pub const SURVIVAL_OUTPUTS: usize = 32;

/// The survival head's near horizon, in plies.
pub const SURVIVAL_NEAR_PLIES: usize = 6;

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
