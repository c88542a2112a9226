//! How long one `go` may think: the time manager.
//!
//! A `go` with clocks (`wtime`/`btime`, `winc`/`binc`, `movestogo`) gets
//! two limits for the side to move, as engines for UCI GUIs do:
//!
//! - a **soft** limit, the time the engine means to spend: the time left
//!   (less the move overhead) shared over the moves to go (`movestogo`, or
//!   [`EXPECTED_MOVES_TO_GO`] in a game played to the end on one clock),
//!   plus three quarters of the increment; a search stops at the first
//!   check after it (alpha-beta starts no new depth past half of it);
//! - a **hard** limit that a search is cut at wherever it is: three times
//!   the soft one.
//!
//! Neither ever exceeds half of the time left (nine tenths when this move
//! is the last before the time control), so the engine does not lose on
//! time however long the game; `go movetime MS` sets both to MS.

use crate::protocol::GoParams;
use jungle_rules::Side;
use std::time::Duration;

/// Moves a game is expected to last from any point, when `movestogo` is
/// not given (a Jungle game between engines runs 60 to 100 moves a side;
/// sharing the time over 30 from every point spends it early, when the
/// moves matter most, and never runs out).
pub const EXPECTED_MOVES_TO_GO: u64 = 30;

/// Milliseconds kept back each move by default for the pipes and the GUI
/// (the `MoveOverhead` option).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// The time limits of one search; `None` when the `go` gives no time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The time the search means to spend.
    pub soft: Duration,
    /// The time at which it is cut, finished or not.
    pub hard: Duration,
}

impl TimeBudget {
    /// The budget of `go` for `side` to move, keeping `overhead_ms` back
    /// from a clock; `None` for a `go` without `movetime` or a clock for
    /// `side` (and for `go infinite`).
    pub fn of(go: &GoParams, side: Side, overhead_ms: u64) -> Option<TimeBudget> {
        if go.infinite {
            return None;
        }
        let clock = go.time[side.index()].map(|left| {
            let usable = left.saturating_sub(overhead_ms);
            let moves = go
                .moves_to_go
                .map_or(EXPECTED_MOVES_TO_GO, u64::from)
                .max(1);
            let share = usable / moves + go.increment[side.index()] * 3 / 4;
            let cap = if moves == 1 {
                usable * 9 / 10
            } else {
                usable / 2
            };
            let soft = share.min(cap).max(1);
            (soft, (soft * 3).min(cap).max(1))
        });
        let limits = match (clock, go.movetime) {
            (Some((soft, hard)), Some(t)) => (soft.min(t), hard.min(t)),
            (Some(limits), None) => limits,
            (None, Some(t)) => (t, t),
            (None, None) => return None,
        };
        Some(TimeBudget {
            soft: Duration::from_millis(limits.0),
            hard: Duration::from_millis(limits.1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left: [u64; 2], inc: u64, moves_to_go: Option<u32>) -> GoParams {
        GoParams {
            time: [Some(left[0]), Some(left[1])],
            increment: [inc, inc],
            moves_to_go,
            ..GoParams::default()
        }
    }

    fn ms(b: TimeBudget) -> (u128, u128) {
        (b.soft.as_millis(), b.hard.as_millis())
    }

    #[test]
    fn the_clock_is_shared_over_the_moves_to_go_with_most_of_the_increment() {
        // 10 s + 0.1 s: (10000 - 30) / 30 + 75 ms.
        let b = TimeBudget::of(&clock([10_000, 3_000], 100, None), Side::South, 30).unwrap();
        assert_eq!(ms(b), (407, 1221));
        // North reads its own clock.
        let b = TimeBudget::of(&clock([10_000, 3_000], 100, None), Side::North, 30).unwrap();
        assert_eq!(ms(b), (99 + 75, 522));
        // movestogo 10: a tenth of the time.
        let b = TimeBudget::of(&clock([10_000, 0], 0, Some(10)), Side::South, 0).unwrap();
        assert_eq!(ms(b), (1000, 3000));
    }

    #[test]
    fn never_more_than_half_the_time_left_nine_tenths_before_the_control() {
        // A large increment on a nearly empty clock: the increment comes
        // after the move, so it cannot be spent now.
        let b = TimeBudget::of(&clock([300, 300], 1000, None), Side::South, 30).unwrap();
        assert_eq!(ms(b), (135, 135));
        let b = TimeBudget::of(&clock([1030, 0], 0, Some(1)), Side::South, 30).unwrap();
        assert_eq!(ms(b), (900, 900));
        // Less than the overhead left: a millisecond, never zero.
        let b = TimeBudget::of(&clock([20, 20], 0, None), Side::South, 30).unwrap();
        assert_eq!(ms(b), (1, 1));
        // Over a whole game at 10 s + 0.1 s, always answering at the hard
        // limit, the clock never runs out.
        let mut left = 10_000u64;
        for _ in 0..500 {
            let b = TimeBudget::of(&clock([left, left], 100, None), Side::South, 30).unwrap();
            let spent = b.hard.as_millis() as u64 + 30;
            assert!(spent < left, "{spent} of {left}");
            left = left - spent + 100;
        }
    }

    #[test]
    fn movetime_is_both_limits_and_no_time_is_no_budget() {
        let go = GoParams {
            movetime: Some(250),
            ..GoParams::default()
        };
        assert_eq!(
            ms(TimeBudget::of(&go, Side::South, 30).unwrap()),
            (250, 250)
        );
        // With a clock too, the smaller of each.
        let mut both = clock([10_000, 10_000], 0, None);
        both.movetime = Some(200);
        assert_eq!(
            ms(TimeBudget::of(&both, Side::South, 30).unwrap()),
            (200, 200)
        );
        assert_eq!(TimeBudget::of(&GoParams::default(), Side::South, 30), None);
        let mut infinite = clock([10_000, 10_000], 0, None);
        infinite.infinite = true;
        assert_eq!(TimeBudget::of(&infinite, Side::South, 30), None);
        // A clock for the other side only: no budget for this one.
        let north_only = GoParams {
            time: [None, Some(5_000)],
            ..GoParams::default()
        };
        assert_eq!(TimeBudget::of(&north_only, Side::South, 30), None);
    }
}
