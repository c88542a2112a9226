//! # jungle-plot
//!
//! What every plot of jungle-zero shares: the bundled DejaVu Sans (so PNG
//! text needs no system font), padded axis ranges, whole-number tick labels
//! ([`whole`]), one colour per anchor player in every figure
//! ([`anchor_color`]), and [`write_figure`], which draws one [`Figure`] as
//! `STEM.png` and `STEM.svg`, each written to a temporary file and renamed
//! into place.

#![warn(missing_docs)]

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// Width and height of every figure, in pixels.
pub const SIZE: (u32, u32) = (960, 600);

/// What drawing returns.
pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// A figure that can be drawn on any plotters backend.
pub trait Figure {
    /// Draws the figure on `area` (already the full canvas).
    fn draw<DB: DrawingBackend>(&self, area: DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static;
}

static FONT: Once = Once::new();

/// Registers the bundled DejaVu Sans as `sans-serif`.
pub fn register_font() {
    FONT.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../assets/DejaVuSans.ttf");
        plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
            .unwrap_or_else(|_| panic!("the bundled font is valid"));
    });
}

/// A tick label without decimals (training steps, Elo): `2000`, not `2000.0`.
pub fn whole(value: &f64) -> String {
    format!("{value:.0}")
}

/// The colour of an anchor player (`random`, `greedy`, `alphabeta:D`, ...),
/// the same in every figure whatever the other anchors: the fixed players
/// have fixed colours, any other name a palette colour chosen by its text.
pub fn anchor_color(name: &str) -> RGBColor {
    match name {
        "random" => RGBColor(127, 127, 127),
        "greedy" => RGBColor(23, 190, 207),
        "alphabeta:1" => RGBColor(188, 189, 34),
        "alphabeta:2" => RGBColor(44, 160, 44),
        "alphabeta:3" => RGBColor(148, 103, 189),
        "alphabeta:4" => RGBColor(214, 39, 40),
        "alphabeta:5" => RGBColor(140, 86, 75),
        "alphabeta:6" => RGBColor(227, 119, 194),
        other => {
            // FNV-1a: stable across runs and platforms (std's hasher is not).
            let hash = other.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
            let (r, g, b) = Palette99::pick(hash as usize % 99).rgb();
            RGBColor(r, g, b)
        }
    }
}

/// The range of `values` widened by `pad` of its span on both sides
/// (`0..1` when there are no finite values; one unit wide when all are equal).
pub fn range(values: impl Iterator<Item = f64> + Clone, pad: f64) -> (f64, f64) {
    let lo = values.clone().fold(f64::INFINITY, f64::min);
    let hi = values.fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    let span = (hi - lo).max(1e-9);
    (
        lo - pad * span,
        hi + pad * span + if hi == lo { 1.0 } else { 0.0 },
    )
}

/// Draws the chart's legend (white box, black border) at `position` and
/// presents `root`: how every figure ends.
pub fn finish<'a, DB, CT>(
    root: &DrawingArea<DB, Shift>,
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: plotters::coord::CoordTranslate,
{
    legend(chart, position)?;
    root.present()?;
    Ok(())
}

/// Draws the chart's legend (white box, black border) at `position`: for
/// figures of several panels, each with its own legend.
pub fn legend<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: plotters::coord::CoordTranslate,
{
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(position)
        .draw()?;
    Ok(())
}

/// Why a figure could not be written.
#[derive(Debug, thiserror::Error)]
#[error("plot `{}`: {message}", path.display())]
pub struct PlotError {
    /// The file.
    pub path: PathBuf,
    /// What plotters or the file system reported.
    pub message: String,
}

/// Draws `figure` as `DIR/STEM.png` and `DIR/STEM.svg`, each published
/// atomically ([`jungle_files::publish_via`]); errors name the file.
pub fn write_figure(dir: &Path, stem: &str, figure: &impl Figure) -> Result<(), PlotError> {
    register_font();
    for ext in ["png", "svg"] {
        let path = dir.join(format!("{stem}.{ext}"));
        // The temporary name keeps the extension: the bitmap backend picks
        // its encoder from it. Unique, so two commands drawing one run's
        // plots at once never share it.
        let tmp = jungle_files::temporary_path_with(&path, Some(ext));
        jungle_files::publish_via(&path, &tmp, |tmp| {
            let drawn = if ext == "png" {
                figure.draw(BitMapBackend::new(tmp, SIZE).into_drawing_area())
            } else {
                figure.draw(SVGBackend::new(tmp, SIZE).into_drawing_area())
            };
            drawn.map_err(|e| e.to_string())
        })
        .map_err(|e| PlotError {
            path: path.clone(),
            message: e.into_inner(|io| io.to_string()),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Line;

    impl Figure for Line {
        fn draw<DB: DrawingBackend>(&self, area: DrawingArea<DB, Shift>) -> DrawResult
        where
            DB::ErrorType: 'static,
        {
            area.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&area)
                .caption("a line", ("sans-serif", 20))
                .build_cartesian_2d(0.0..1.0, 0.0..1.0)?;
            chart.draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], BLUE))?;
            area.present()?;
            Ok(())
        }
    }

    #[test]
    fn a_figure_is_written_as_png_and_svg_without_leftovers() {
        let dir = std::env::temp_dir().join(format!("jungle-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_figure(&dir, "line", &Line).unwrap();
        let png = std::fs::read(dir.join("line.png")).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let svg = std::fs::read_to_string(dir.join("line.svg")).unwrap();
        assert!(svg.contains("<svg") && svg.contains("a line"));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn two_writers_of_one_figure_never_break_each_other() {
        // As `jungle elo` beside a live `jungle train` redraws the run's
        // plots: every write succeeds, and no temporary file is left.
        let dir = std::env::temp_dir().join(format!("jungle-plot-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..5 {
                        write_figure(&dir, "line", &Line).unwrap();
                    }
                });
            }
        });
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn anchors_keep_their_colours_and_ticks_are_whole() {
        assert_eq!(anchor_color("alphabeta:4"), RGBColor(214, 39, 40));
        assert_ne!(anchor_color("alphabeta:4"), anchor_color("alphabeta:2"));
        assert_eq!(anchor_color("mcts:100"), anchor_color("mcts:100"));
        assert_ne!(anchor_color("mcts:100"), anchor_color("random"));
        assert_eq!(whole(&2000.0), "2000");
        assert_eq!(whole(&-12.6), "-13");
    }

    #[test]
    fn ranges_are_padded_and_never_empty() {
        assert_eq!(range([1.0, 3.0].into_iter(), 0.5), (0.0, 4.0));
        assert_eq!(range([2.0].into_iter(), 0.0), (2.0, 3.0));
        assert_eq!(range(std::iter::empty(), 0.1), (0.0, 1.0));
    }
}
