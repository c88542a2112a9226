//! Where the search's time goes: process-wide counters of nanoseconds per
//! [`Phase`], added to by a [`Timer`] that reads the clock when it starts
//! and when it is dropped. The timed spans are per search round, per batch
//! or per leaf, never per tree node, so the counters stay on (two clock
//! reads, some 50 ns, against the microseconds a leaf costs). `jungle bench
//! selfplay` reads them.

use std::sync::atomic::{AtomicU64, Ordering};
use web_time::Instant;

/// A part of self-play's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Descending the trees to their leaves (selection, virtual loss).
    Select,
    /// A new leaf's legal moves, end-of-game test and the exact win/loss
    /// checks (win in one, forced loss, win in two).
    LeafChecks,
    /// Expanding the evaluated leaves and backing their values up
    /// (with the solver's proven values).
    Backup,
    /// Writing positions as network inputs (the tactical planes run the
    /// move generator for both sides).
    Encode,
    /// The network's forward pass.
    Forward,
    /// Turning the network's outputs into evaluations (softmaxes).
    Outputs,
    /// The quiescence term of the value.
    Quiescence,
    /// Encoding and writing finished games as shards.
    ShardWrite,
}

impl Phase {
    /// Every phase, in the order reports list them.
    pub const ALL: [Phase; 8] = [
        Phase::Select,
        Phase::LeafChecks,
        Phase::Backup,
        Phase::Encode,
        Phase::Forward,
        Phase::Outputs,
        Phase::Quiescence,
        Phase::ShardWrite,
    ];

    /// The phase's name in reports (`snake_case`).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Select => "select",
            Phase::LeafChecks => "leaf_checks",
            Phase::Backup => "backup",
            Phase::Encode => "encode",
            Phase::Forward => "forward",
            Phase::Outputs => "outputs",
            Phase::Quiescence => "quiescence",
            Phase::ShardWrite => "shard_write",
        }
    }
}

static NANOS: [AtomicU64; 8] = [const { AtomicU64::new(0) }; 8];

/// Times a span of `phase` until it is dropped.
#[must_use = "the span ends when the timer is dropped"]
pub struct Timer {
    phase: Phase,
    started: Instant,
}

/// Starts timing a span of `phase`.
pub fn time(phase: Phase) -> Timer {
    Timer {
        phase,
        started: Instant::now(),
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        let nanos = self.started.elapsed().as_nanos() as u64;
        NANOS[self.phase as usize].fetch_add(nanos, Ordering::Relaxed);
    }
}

/// Seconds spent in each phase so far, summed over threads, in
/// [`Phase::ALL`] order.
pub fn seconds() -> [(Phase, f64); 8] {
    Phase::ALL.map(|p| (p, NANOS[p as usize].load(Ordering::Relaxed) as f64 * 1e-9))
}

/// Sets every counter back to zero.
pub fn reset() {
    for n in &NANOS {
        n.store(0, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timer_adds_its_span_to_its_phase() {
        let before = seconds()[Phase::ShardWrite as usize].1;
        {
            let _t = time(Phase::ShardWrite);
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let after = seconds()[Phase::ShardWrite as usize].1;
        assert!(after - before >= 0.005, "{before} -> {after}");
    }
}
