//! The strength yardstick that costs minutes: a committed suite of
//! positions from real games ([`suite`]), each labelled once by deep
//! alpha-beta and the forced-win solver ([`label`]), drawn from games of
//! players of several strengths ([`draw`]); and the probe that scores a
//! bare network or any player on it ([`probe`]), with the bootstrap
//! noise of each metric ([`metrics`]). docs/probe.md says how to use it
//! and what it was validated against.

pub mod draw;
pub mod error;
pub mod label;
pub mod metrics;
pub mod probe;
pub mod suite;

pub use error::SuiteError;
pub use label::{Labeller, Outcome};
pub use metrics::{Metric, MetricTable};
pub use probe::{probe_network, probe_player, NetProbe, PlayerProbe};
pub use suite::{LabelledPosition, Phase, Suite, SuiteHeader, STANDARD_SUITE};
