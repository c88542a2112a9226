//! # jungle-variants
//!
//! How do the rule switches change the game? For each rule set
//! ([`variant`]), the same players play the same number of games from the
//! same openings ([`opening`]: one random sequence per game pair, shared by
//! every variant, so differences come from the rules and not from luck);
//! [`compare`] plays them, [`summary`] counts first-mover wins, draws and
//! second-mover wins with 95% intervals and tests each variant's
//! first-mover score against a baseline, and [`report`] writes the table
//! (text, CSV, Markdown, JSON) and the plots.

#![warn(missing_docs)]

pub mod compare;
pub mod opening;
pub mod report;
pub mod summary;
pub mod variant;

pub use compare::{compare, CompareConfig, VariantGame};
pub use summary::{summarize, Baseline, VariantSummary};
pub use variant::{resolve_variants, Variant, VariantListError};
