//! # jungle-variants
//!
//! How do the rule switches change the game? For each rule set
//! ([`variant`]), the same players play the same number of games from the
//! same openings (`jungle_play::opening::shared_opening`: one random
//! sequence per game pair, shared by every variant, so differences come
//! from the rules and not from luck);
//! [`compare`] plays them, [`summary`] counts first-mover wins, draws and
//! second-mover wins with 95% intervals and tests each variant's
//! first-mover score against a baseline, [`live`] tells whether each
//! game ever reached a position where its rules and the baseline's differ,
//! and [`report`] writes the table
//! (text, CSV, Markdown, JSON) and the plots.

#![warn(missing_docs)]

pub mod compare;
pub mod live;
pub mod report;
pub mod summary;
pub mod variant;

pub use compare::{compare, CompareConfig, VariantGame};
pub use live::{switch_activity, SwitchActivity};
pub use summary::{summarize, Baseline, VariantSummary};
pub use variant::{baseline_index, resolve_variants, VariantListError};
