//! Plots with plotters, each as PNG and SVG: Elo of each checkpoint against
//! training step and against hours (95% error bars, anchors as horizontal
//! lines), the loss curves, and the draws and length of the self-play games.

use jungle_plot::{
    anchor_color, finish, legend, range, whole, write_figure, DrawResult, Figure, PlotError, SIZE,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

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
    /// Value cross-entropy of the best constant guess on the same batches
    /// (the entropy of their mean result target), when the run recorded it.
    pub value_baseline: Option<f64>,
    /// Moves-left squared error.
    pub moves_left: f64,
    /// Survival binary cross-entropy (0 for a network without the head).
    pub survival: f64,
}

/// One generation's self-play games.
#[derive(Clone, Debug)]
pub struct SelfPlayPoint {
    /// Training step of the network that played them.
    pub step: f64,
    /// Share of them drawn, in percent.
    pub draw_percent: f64,
    /// Mean length in plies.
    pub mean_plies: f64,
}

/// Elo against step or hours.
struct EloFigure<'a> {
    points: &'a [EloPoint],
    anchors: &'a [(String, f64)],
    by_hours: bool,
}

impl Figure for EloFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        draw_elo(root, self.points, self.anchors, self.by_hours)
    }
}

/// The loss curves.
struct LossFigure<'a>(&'a [LossPoint]);

impl Figure for LossFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        draw_losses(root, self.0)
    }
}

/// Draws and game length of self-play, one panel each.
struct SelfPlayFigure<'a>(&'a [SelfPlayPoint]);

impl Figure for SelfPlayFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        draw_selfplay(root, self.0)
    }
}

fn draw_elo<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
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
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(if by_hours { "hours" } else { "training step" })
        .y_desc("Elo")
        .y_label_formatter(&whole);
    if !by_hours {
        mesh.x_label_formatter(&whole);
    }
    mesh.draw()?;
    for (name, elo) in anchors {
        let color = anchor_color(name).to_rgba();
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
    finish(&root, &mut chart, SeriesLabelPosition::UpperLeft)
}

fn draw_losses<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, points: &[LossPoint]) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (x0, x1) = range(points.iter().map(|p| p.step), 0.05);
    let (_, y1) = range(
        points
            .iter()
            .flat_map(|p| [p.policy, p.value, p.moves_left, p.survival])
            .chain(points.iter().filter_map(|p| p.value_baseline)),
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
        .x_label_formatter(&whole)
        .y_desc("loss")
        .draw()?;
    type Part = fn(&LossPoint) -> f64;
    let series: [(&str, RGBColor, Part); 4] = [
        ("policy", BLUE, |p| p.policy),
        ("value", RED, |p| p.value),
        ("moves left", GREEN, |p| p.moves_left),
        ("survival", MAGENTA, |p| p.survival),
    ];
    let has_survival = points.iter().any(|p| p.survival > 0.0);
    for (name, color, f) in series {
        if name == "survival" && !has_survival {
            continue;
        }
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|p| (p.step, f(p))),
                color.stroke_width(2),
            ))?
            .label(name)
            .legend(move |(a, b)| PathElement::new([(a, b), (a + 16, b)], color));
    }
    let baseline: Vec<(f64, f64)> = points
        .iter()
        .filter_map(|p| p.value_baseline.map(|v| (p.step, v)))
        .collect();
    if !baseline.is_empty() {
        let color = RED.mix(0.6);
        chart
            .draw_series(DashedLineSeries::new(baseline, 8, 6, color.stroke_width(2)))?
            .label("value, constant guess")
            .legend(move |(a, b)| {
                // Two dashes, as the line is drawn.
                EmptyElement::at((a, b))
                    + PathElement::new([(0, 0), (6, 0)], color)
                    + PathElement::new([(10, 0), (16, 0)], color)
            });
    }
    finish(&root, &mut chart, SeriesLabelPosition::MiddleRight)
}

fn draw_selfplay<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    points: &[SelfPlayPoint],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (x0, x1) = range(points.iter().map(|p| p.step), 0.05);
    let (top, bottom) = root.split_vertically(SIZE.1 / 2);
    type Part = fn(&SelfPlayPoint) -> f64;
    let panels: [(&str, &str, RGBColor, Part); 2] = [
        (
            "Self-play games drawn, per generation",
            "% drawn",
            RED,
            |p| p.draw_percent,
        ),
        (
            "Self-play game length, per generation",
            "mean plies",
            BLUE,
            |p| p.mean_plies,
        ),
    ];
    for (area, (caption, y_desc, color, f)) in [&top, &bottom].into_iter().zip(panels) {
        let (_, y1) = range(points.iter().map(f), 0.05);
        let mut chart = ChartBuilder::on(area)
            .caption(caption, ("sans-serif", 20))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1, 0.0..y1.max(1.0))?;
        chart
            .configure_mesh()
            .x_desc("training step")
            .x_label_formatter(&whole)
            .y_desc(y_desc)
            .draw()?;
        chart.draw_series(LineSeries::new(
            points.iter().map(|p| (p.step, f(p))),
            color.stroke_width(2),
        ))?;
    }
    root.present()?;
    Ok(())
}

/// A named line of points.
pub type Series = (&'static str, RGBColor, Vec<(f64, f64)>);

/// The in-run yardstick: the bare network's probe metrics (top panel,
/// shares from 0 to 1) and the held-out losses beside the training ones
/// (bottom panel), against training step.
struct ProbeFigure<'a> {
    probe: &'a [Series],
    losses: &'a [Series],
}

impl Figure for ProbeFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let (top, bottom) = root.split_vertically(SIZE.1 / 2);
        let panels = [
            (
                &top,
                "Bare network on the probe's sub-suite",
                "share",
                self.probe,
            ),
            (
                &bottom,
                "Losses: held out (new positions) and trained",
                "loss",
                self.losses,
            ),
        ];
        for (area, caption, y_desc, series) in panels {
            let points = series.iter().flat_map(|s| s.2.iter().copied());
            let (x0, x1) = range(points.clone().map(|p| p.0), 0.05);
            let (_, y1) = range(points.map(|p| p.1), 0.05);
            let mut chart = ChartBuilder::on(area)
                .caption(caption, ("sans-serif", 20))
                .margin(10)
                .x_label_area_size(36)
                .y_label_area_size(60)
                .build_cartesian_2d(x0..x1, 0.0..y1.max(1e-3))?;
            chart
                .configure_mesh()
                .x_desc("training step")
                .x_label_formatter(&whole)
                .y_desc(y_desc)
                .draw()?;
            for (name, color, line) in series {
                let color = *color;
                chart
                    .draw_series(LineSeries::new(line.iter().copied(), color.stroke_width(2)))?
                    .label(*name)
                    .legend(move |(a, b)| PathElement::new([(a, b), (a + 16, b)], color));
            }
            legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        }
        root.present()?;
        Ok(())
    }
}

/// Writes `probe.png` and `probe.svg` in `dir` ([`ProbeFigure`]).
pub fn plot_probe(dir: &Path, probe: &[Series], losses: &[Series]) -> Result<(), PlotError> {
    write_figure(dir, "probe", &ProbeFigure { probe, losses })
}

/// The compute ladder: for each config (a colour), the score against each
/// ladder anchor (top panel: `alphabeta:4` solid, `alphabeta:6` dashed)
/// and the probe's score (bottom panel) against the run's estimated compute
/// on a log-2 axis ([`crate::ladder::estimated_pflop`]); each seed a dot,
/// the mean over seeds at each rung a line.
struct LadderFigure<'a>(&'a [crate::ladder::LadderRun]);

/// The colours of the ladder's configs, in order.
const CONFIG_COLORS: [RGBColor; 14] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(0, 0, 0),
    RGBColor(0, 100, 100),
    RGBColor(128, 0, 0),
    RGBColor(0, 0, 128),
];

/// Width of the ladder figure's key, a column right of its panels.
const LADDER_KEY_WIDTH: u32 = 170;

impl Figure for LadderFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        use crate::ladder::{means_by_rung, LadderRun, LADDER_ANCHORS};
        root.fill(&WHITE)?;
        let runs = self.0;
        let lowest = runs
            .iter()
            .map(|r| r.compute_pflop)
            .fold(f64::INFINITY, f64::min);
        let highest = runs.iter().map(|r| r.compute_pflop).fold(0.0, f64::max);
        // A fifth of a doubling on either side (a run of no compute,
        // possible only in a hand-made record, keeps the axis positive).
        let (x0, x1) = (lowest.max(1e-9) * 0.87, highest.max(1e-9) * 1.15);
        let (panels, key) = root.split_horizontally(SIZE.0 - LADDER_KEY_WIDTH);
        let (top, bottom) = panels.split_vertically(SIZE.1 * 3 / 5);
        let mut configs: Vec<&str> = runs.iter().map(|r| r.config.as_str()).collect();
        configs.dedup();
        let color = |config: &str| {
            let i = configs.iter().position(|c| *c == config).unwrap_or(0);
            CONFIG_COLORS[i % CONFIG_COLORS.len()]
        };
        type Value = fn(&LadderRun) -> Option<f64>;
        /// A panel's lines: what they plot, dashed or not.
        type Lines<'l> = &'l [(Value, bool)];
        let scores: [(Value, bool); 2] = [
            (|r| r.anchors[0].score(), false),
            (|r| r.anchors[1].score(), true),
        ];
        let probe: [(Value, bool); 1] = [(|r| Some(r.probe), false)];
        let score_caption = format!(
            "Score against {} (solid) and {} (dashed)",
            LADDER_ANCHORS[0].0, LADDER_ANCHORS[1].0
        );
        let panels: [(&DrawingArea<DB, Shift>, &str, &str, Lines); 2] = [
            (&top, &score_caption, "score", &scores),
            (
                &bottom,
                "Probe score of the final network",
                "probe score",
                &probe,
            ),
        ];
        for (area, caption, y_desc, values) in panels {
            // Scores on their whole scale; the probe's range with at least
            // 0.1 around it (its standard error is about 0.006).
            let ys = runs
                .iter()
                .flat_map(|r| values.iter().filter_map(move |v| (v.0)(r)));
            let (y0, y1) = if values.len() > 1 {
                (0.0, 1.0)
            } else {
                let lo = ys.clone().fold(f64::INFINITY, f64::min);
                let hi = ys.fold(f64::NEG_INFINITY, f64::max);
                let pad = ((hi - lo) * 0.2).max(0.05);
                (lo - pad, hi + pad)
            };
            let mut chart = ChartBuilder::on(area)
                .caption(caption, ("sans-serif", 20))
                .margin(10)
                .x_label_area_size(36)
                .y_label_area_size(60)
                .build_cartesian_2d((x0..x1).log_scale().base(2.0), y0..y1)?;
            chart
                .configure_mesh()
                .x_desc("compute (PFLOP, estimated: self-play's searches and training; log scale)")
                .y_desc(y_desc)
                .x_labels(8)
                .x_label_formatter(&|x| format!("{x}"))
                .draw()?;
            for &(value, dashed) in values {
                for (config, means) in means_by_rung(runs, value) {
                    let c = color(&config);
                    let line = means.iter().map(|m| (m.compute_pflop, m.value));
                    if dashed {
                        chart.draw_series(DashedLineSeries::new(line, 8, 5, c.stroke_width(2)))?;
                    } else {
                        chart.draw_series(LineSeries::new(line, c.stroke_width(2)))?;
                    }
                    chart.draw_series(
                        runs.iter()
                            .filter(|r| r.config == config)
                            .filter_map(|r| Some((r.compute_pflop, value(r)?)))
                            .map(|p| Circle::new(p, 4, c.filled())),
                    )?;
                }
            }
        }
        // The key: one colour per config, the same in both panels.
        key.draw(&Text::new("config", (12, 40), ("sans-serif", 16)))?;
        for (i, config) in configs.iter().enumerate() {
            let y = 70 + 22 * i as i32;
            let c = color(config);
            key.draw(&PathElement::new([(12, y), (36, y)], c.stroke_width(3)))?;
            key.draw(&Circle::new((24, y), 4, c.filled()))?;
            key.draw(&Text::new(
                config.to_string(),
                (44, y - 8),
                ("sans-serif", 15),
            ))?;
        }
        root.present()?;
        Ok(())
    }
}

/// Writes `STEM.png` and `STEM.svg` in `dir`: the compute ladder
/// ([`LadderFigure`]).
pub fn plot_ladder(
    dir: &Path,
    stem: &str,
    runs: &[crate::ladder::LadderRun],
) -> Result<(), PlotError> {
    write_figure(dir, stem, &LadderFigure(runs))
}

/// Writes `elo.png`/`elo.svg` (by step) and `elo-hours.png`/`elo-hours.svg` in `dir`.
pub fn plot_elo(
    dir: &Path,
    points: &[EloPoint],
    anchors: &[(String, f64)],
) -> Result<(), PlotError> {
    for (stem, by_hours) in [("elo", false), ("elo-hours", true)] {
        let figure = EloFigure {
            points,
            anchors,
            by_hours,
        };
        write_figure(dir, stem, &figure)?;
    }
    Ok(())
}

/// Writes `loss.png` and `loss.svg` in `dir`: the policy, value, moves-left
/// and survival losses, and, dashed, the value loss of the best constant
/// guess where the run recorded it.
pub fn plot_losses(dir: &Path, points: &[LossPoint]) -> Result<(), PlotError> {
    write_figure(dir, "loss", &LossFigure(points))
}

/// Writes `selfplay.png` and `selfplay.svg` in `dir`: the share of drawn
/// self-play games and their mean length, per generation.
pub fn plot_selfplay(dir: &Path, points: &[SelfPlayPoint]) -> Result<(), PlotError> {
    write_figure(dir, "selfplay", &SelfPlayFigure(points))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(baseline: Option<f64>) -> Vec<LossPoint> {
        (1..=4)
            .map(|g| LossPoint {
                step: 100.0 * g as f64,
                policy: 2.5 - 0.1 * g as f64,
                value: 0.8 + 0.02 * g as f64,
                value_baseline: baseline.map(|b| b + 0.03 * g as f64),
                moves_left: 0.4,
                survival: 0.0,
            })
            .collect()
    }

    fn loss_svg(name: &str, points: &[LossPoint]) -> String {
        let dir = std::env::temp_dir().join(format!("jungle-plots-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        plot_losses(&dir, points).unwrap();
        assert!(dir.join("loss.png").is_file());
        let svg = std::fs::read_to_string(dir.join("loss.svg")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        svg
    }

    /// The texts of an SVG written by plotters, which puts each text
    /// element's content on a line of its own.
    fn texts(svg: &str) -> Vec<&str> {
        svg.lines()
            .map(str::trim)
            .filter(|l| !l.starts_with('<'))
            .collect()
    }

    #[test]
    fn the_loss_plot_draws_the_constant_guess_only_where_recorded() {
        let with = loss_svg("with", &points(Some(0.93)));
        let with = texts(&with);
        assert!(with.contains(&"value, constant guess"), "{with:?}");
        assert!(with.contains(&"value"), "{with:?}");
        let without = loss_svg("without", &points(None));
        let without = texts(&without);
        assert!(without.contains(&"value"), "{without:?}");
        assert!(!without.iter().any(|t| t.contains("constant guess")));
    }

    #[test]
    fn the_ladder_key_names_each_config_once_beside_the_panels() {
        use crate::ladder::{LadderRun, Tally};
        let run = |config: &str, rung: f64, probe: f64, compute_pflop: f64| LadderRun {
            config: config.to_string(),
            rung,
            seed: 0,
            samples: 1000,
            plies: 700,
            probe,
            compute_pflop,
            anchors: [
                Tally {
                    wins: 60,
                    draws: 30,
                    losses: 10,
                },
                Tally::default(),
            ],
            in_run: [None; crate::ladder::IN_RUN_SHARES.len()],
        };
        let runs = [
            run("td0.9", 0.25, 0.70, 0.2),
            run("td0.9", 0.5, 0.75, 0.4),
            run("zz-wide", 0.25, 0.72, 0.45),
        ];
        let dir = std::env::temp_dir().join(format!("jungle-plots-ladder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        plot_ladder(&dir, "ladder", &runs).unwrap();
        assert!(dir.join("ladder.png").is_file());
        let svg = std::fs::read_to_string(dir.join("ladder.svg")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let texts = texts(&svg);
        for config in ["td0.9", "zz-wide"] {
            let n = texts.iter().filter(|t| **t == config).count();
            assert_eq!(n, 1, "{config} in {texts:?}");
        }
        assert!(texts.iter().any(|t| t.contains("alphabeta:4 (solid)")));
        // Fourteen configs before a colour repeats (the ladder has 11).
        for (i, a) in CONFIG_COLORS.iter().enumerate() {
            assert!(!CONFIG_COLORS[i + 1..].contains(a), "{a:?}");
        }
        // Compute on a log-2 axis: ticks at its powers of two.
        assert!(texts.iter().any(|t| t.starts_with("compute (PFLOP")));
        for tick in ["0.25", "0.5"] {
            assert!(texts.contains(&tick), "{tick} in {texts:?}");
        }
    }
}
