//! Plots with plotters, each as PNG and SVG: Elo of each checkpoint against
//! training step and against hours (95% error bars, anchors as horizontal
//! lines), and the loss curves.

use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::Path;
use std::sync::Once;

/// A checkpoint's point on the Elo plots.
#[derive(Clone, Debug)]
pub struct EloPoint {
    /// Training step.
    pub step: f64,
    /// Wall-clock hours of the run when it was made.
    pub hours: f64,
    /// Its Elo.
    pub elo: f64,
    /// Half-width of its 95% interval.
    pub ci95: f64,
}

/// Loss parts at one step.
#[derive(Clone, Debug)]
pub struct LossPoint {
    /// Training step.
    pub step: f64,
    /// Policy cross-entropy.
    pub policy: f64,
    /// Value cross-entropy.
    pub value: f64,
    /// Moves-left squared error.
    pub moves_left: f64,
}

static FONT: Once = Once::new();

/// Registers the bundled DejaVu Sans, so PNG text needs no system font.
fn register_font() {
    FONT.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../assets/DejaVuSans.ttf");
        plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
            .unwrap_or_else(|_| panic!("the bundled font is valid"));
    });
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn range(values: impl Iterator<Item = f64> + Clone, pad: f64) -> (f64, f64) {
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

fn draw_elo<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    points: &[EloPoint],
    anchors: &[(String, f64)],
    by_hours: bool,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let x = |p: &EloPoint| if by_hours { p.hours } else { p.step };
    let (x0, x1) = range(points.iter().map(x), 0.05);
    let ys = points
        .iter()
        .flat_map(|p| [p.elo - p.ci95, p.elo + p.ci95])
        .chain(anchors.iter().map(|a| a.1));
    let (y0, y1) = range(ys, 0.08);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Elo of each checkpoint (random = 0, 95% intervals)",
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)?;
    chart
        .configure_mesh()
        .x_desc(if by_hours { "hours" } else { "training step" })
        .y_desc("Elo")
        .draw()?;
    for (i, (name, elo)) in anchors.iter().enumerate() {
        let color = Palette99::pick(i + 1).to_rgba();
        chart
            .draw_series(LineSeries::new(
                [(x0, *elo), (x1, *elo)],
                color.stroke_width(1),
            ))?
            .label(name.clone())
            .legend(move |(a, b)| PathElement::new([(a, b), (a + 16, b)], color));
    }
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|p| (x(p), p.elo)),
            BLUE.stroke_width(2),
        ))?
        .label("checkpoints")
        .legend(|(a, b)| PathElement::new([(a, b), (a + 16, b)], BLUE));
    chart.draw_series(points.iter().map(|p| {
        ErrorBar::new_vertical(
            x(p),
            p.elo - p.ci95,
            p.elo,
            p.elo + p.ci95,
            BLUE.filled(),
            6,
        )
    }))?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}

fn draw_losses<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    points: &[LossPoint],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (x0, x1) = range(points.iter().map(|p| p.step), 0.05);
    let (_, y1) = range(
        points
            .iter()
            .flat_map(|p| [p.policy, p.value, p.moves_left]),
        0.05,
    );
    let mut chart = ChartBuilder::on(&root)
        .caption("Training losses", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, 0.0..y1)?;
    chart
        .configure_mesh()
        .x_desc("training step")
        .y_desc("loss")
        .draw()?;
    type Part = fn(&LossPoint) -> f64;
    let series: [(&str, RGBColor, Part); 3] = [
        ("policy", BLUE, |p| p.policy),
        ("value", RED, |p| p.value),
        ("moves left", GREEN, |p| p.moves_left),
    ];
    for (name, color, f) in series {
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|p| (p.step, f(p))),
                color.stroke_width(2),
            ))?
            .label(name)
            .legend(move |(a, b)| PathElement::new([(a, b), (a + 16, b)], color));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// Writes `elo.png`/`elo.svg` (by step) and `elo-hours.png`/`elo-hours.svg` in `dir`.
pub fn plot_elo(dir: &Path, points: &[EloPoint], anchors: &[(String, f64)]) -> Result<(), String> {
    register_font();
    for (stem, by_hours) in [("elo", false), ("elo-hours", true)] {
        let png = dir.join(format!("{stem}.png"));
        draw_elo(
            BitMapBackend::new(&png, (960, 600)).into_drawing_area(),
            points,
            anchors,
            by_hours,
        )
        .map_err(|e| format!("{}: {e}", png.display()))?;
        let svg = dir.join(format!("{stem}.svg"));
        draw_elo(
            SVGBackend::new(&svg, (960, 600)).into_drawing_area(),
            points,
            anchors,
            by_hours,
        )
        .map_err(|e| format!("{}: {e}", svg.display()))?;
    }
    Ok(())
}

/// Writes `loss.png` and `loss.svg` in `dir`.
pub fn plot_losses(dir: &Path, points: &[LossPoint]) -> Result<(), String> {
    register_font();
    let png = dir.join("loss.png");
    draw_losses(
        BitMapBackend::new(&png, (960, 600)).into_drawing_area(),
        points,
    )
    .map_err(|e| format!("{}: {e}", png.display()))?;
    let svg = dir.join("loss.svg");
    draw_losses(
        SVGBackend::new(&svg, (960, 600)).into_drawing_area(),
        points,
    )
    .map_err(|e| format!("{}: {e}", svg.display()))
}
