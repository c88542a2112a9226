//! Win, draw and loss from a value and a draw share: what the engine's
//! `info ... wdl` and the analysis's answers print. The search keeps one
//! value (win minus loss) per node; the draw share comes from the
//! network's evaluation of the position (0 for evaluators without one),
//! cut to what the value leaves room for.

use serde::{Serialize, Serializer};

/// Win, draw and loss probabilities for the side to move; they sum to 1
/// and win minus loss is the value they were made from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wdl {
    /// Probability of a win.
    pub win: f32,
    /// Probability of a draw.
    pub draw: f32,
    /// Probability of a loss.
    pub loss: f32,
}

impl Wdl {
    /// From `value` in [-1, 1] and a `draw` share, cut to `1 - |value|`.
    pub fn new(value: f32, draw: f32) -> Wdl {
        let value = value.clamp(-1.0, 1.0);
        let draw = draw.clamp(0.0, 1.0 - value.abs());
        Wdl {
            win: (1.0 - draw + value) / 2.0,
            draw,
            loss: (1.0 - draw - value) / 2.0,
        }
    }

    /// In thousandths that sum to 1000 (UCI's `wdl W D L`).
    pub fn permille(&self) -> [u32; 3] {
        let win = (self.win * 1000.0).round().clamp(0.0, 1000.0) as u32;
        let draw = ((self.draw * 1000.0).round() as u32).min(1000 - win);
        [win, draw, 1000 - win - draw]
    }
}

impl Serialize for Wdl {
    /// As `[win, draw, loss]`, three decimals.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let [w, d, l] = self.permille();
        [w, d, l].map(|x| f64::from(x) / 1000.0).serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_sums_to_one_and_matches_the_value() {
        assert_eq!(Wdl::new(0.0, 0.0).permille(), [500, 0, 500]);
        assert_eq!(Wdl::new(0.5, 0.2).permille(), [650, 200, 150]);
        // The draw share is cut to what the value leaves.
        assert_eq!(Wdl::new(0.9, 0.5).permille(), [900, 100, 0]);
        assert_eq!(Wdl::new(-1.0, 0.3).permille(), [0, 0, 1000]);
        for v in [-0.77f32, -0.1, 0.333, 0.999] {
            for d in [0.0f32, 0.13, 0.6] {
                let [w, dr, l] = Wdl::new(v, d).permille();
                assert_eq!(w + dr + l, 1000);
                assert!(
                    ((w as f32 - l as f32) / 1000.0 - v).abs() < 0.002,
                    "{v} {d}"
                );
            }
        }
        assert_eq!(
            serde_json::to_string(&Wdl::new(0.5, 0.2)).unwrap(),
            "[0.65,0.2,0.15]"
        );
    }
}
