//! The comparison's outputs: a text table, `variants.csv`, `variants.md`,
//! the JSON object, and the plots `variants.png/svg` (win/draw/loss bars)
//! and `variants-length.png/svg` (game-length distributions).

use crate::summary::VariantSummary;
use jungle_plot::{finish, write_figure, DrawResult, Figure, PlotError};
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;
use std::path::Path;

/// The end reasons in column order, with their short column names.
const REASONS: [(&str, &str); 7] = [
    ("den", "den"),
    ("annihilation", "annih."),
    ("no_move", "no move"),
    ("repetition", "repet."),
    ("quiet_limit", "quiet"),
    ("forfeit", "forfeit"),
    ("ply_cap", "cap"),
];

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn share_cell(share: Option<f64>) -> String {
    share.map_or_else(|| "-".to_string(), percent)
}

/// What the live-switch shares say that the numbers alone do not: a rule
/// set whose switches were never live played by the baseline's rules, so
/// whatever differs from the baseline's row came from the players (a
/// network reads the switches as inputs and may play otherwise), not from
/// the rules.
pub fn switch_notes(summaries: &[VariantSummary]) -> Vec<String> {
    summaries
        .iter()
        .filter_map(|s| {
            let base = &s.vs_baseline.as_ref()?.baseline;
            (s.switch_live? == 0.0).then(|| {
                format!(
                    "{}: its switches were never live in {} games (no position had other legal moves or another end than under {base}): it played by {base}'s rules, and any difference from {base}'s row is the players' (a network reads the switches), not the rules'",
                    s.variant, s.games
                )
            })
        })
        .collect()
}

fn baseline_cell(s: &VariantSummary) -> String {
    match &s.vs_baseline {
        None => "baseline".to_string(),
        Some(b) => format!("{:+.3} (p={:.3})", b.difference, b.p_value),
    }
}

/// The rows of the table as cells (header first).
fn rows(summaries: &[VariantSummary]) -> Vec<Vec<String>> {
    let with_player = summaries.iter().any(|s| s.player_score.is_some());
    let mut header: Vec<String> = [
        "variant",
        "games",
        "1st wins",
        "draws",
        "2nd wins",
        "1st score [95%]",
        "vs baseline",
        "mean plies",
        "median",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    header.extend(REASONS.iter().map(|r| r.1.to_string()));
    header.extend(["switch live".to_string(), "played".to_string()]);
    if with_player {
        header.push("player score".into());
    }
    let mut out = vec![header];
    for s in summaries {
        let mut row = vec![
            s.variant.clone(),
            s.games.to_string(),
            percent(s.first_wins as f64 / s.games.max(1) as f64),
            percent(s.draws as f64 / s.games.max(1) as f64),
            percent(s.second_wins as f64 / s.games.max(1) as f64),
            format!("{:.3} [{:.3}, {:.3}]", s.first_score, s.ci95[0], s.ci95[1]),
            baseline_cell(s),
            format!("{:.1}", s.mean_plies),
            format!("{:.1}", s.median_plies),
        ];
        row.extend(REASONS.iter().map(|r| percent(s.reasons[r.0])));
        row.extend([share_cell(s.switch_live), share_cell(s.switch_played)]);
        if let Some(p) = s.player_score {
            row.push(format!("{p:.3}"));
        }
        out.push(row);
    }
    out
}

/// The table as aligned text.
pub fn text_table(summaries: &[VariantSummary]) -> String {
    let rows = rows(summaries);
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|r| {
            r.iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (cell, &w))| {
                    if c == 0 {
                        format!("{cell:<w$}")
                    } else {
                        format!("{cell:>w$}")
                    }
                })
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string()
                + "\n"
        })
        .collect()
}

/// The table as Markdown.
pub fn markdown_table(summaries: &[VariantSummary]) -> String {
    let rows = rows(summaries);
    let line = |r: &Vec<String>| format!("| {} |\n", r.join(" | "));
    let mut out = line(&rows[0]);
    out.push_str(&format!(
        "|{}|\n",
        rows[0]
            .iter()
            .enumerate()
            .map(|(c, _)| if c == 0 { "---" } else { "---:" })
            .collect::<Vec<_>>()
            .join("|")
    ));
    for r in &rows[1..] {
        out.push_str(&line(r));
    }
    out
}

/// Every number as CSV (one row per variant, shares as fractions).
pub fn csv_table(summaries: &[VariantSummary]) -> String {
    let mut out = String::from(
        "variant,games,first_wins,draws,second_wins,first_wins_lo,first_wins_hi,draws_lo,draws_hi,second_wins_lo,second_wins_hi,first_score,first_score_lo,first_score_hi,baseline,difference,z,p_value,mean_plies,median_plies",
    );
    for r in REASONS {
        out.push_str(&format!(",{}", r.0));
    }
    out.push_str(",switch_live,switch_played,player_score\n");
    for s in summaries {
        let (base, diff, z, p) = match &s.vs_baseline {
            Some(b) => (
                b.baseline.clone(),
                format!("{:.6}", b.difference),
                format!("{:.4}", b.z),
                format!("{:.6}", b.p_value),
            ),
            None => (String::new(), String::new(), String::new(), String::new()),
        };
        out.push_str(&format!(
            "{},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{base},{diff},{z},{p},{:.3},{:.1}",
            s.variant,
            s.games,
            s.first_wins,
            s.draws,
            s.second_wins,
            s.first_wins_ci95[0],
            s.first_wins_ci95[1],
            s.draws_ci95[0],
            s.draws_ci95[1],
            s.second_wins_ci95[0],
            s.second_wins_ci95[1],
            s.first_score,
            s.ci95[0],
            s.ci95[1],
            s.mean_plies,
            s.median_plies,
        ));
        for r in REASONS {
            out.push_str(&format!(",{:.6}", s.reasons[r.0]));
        }
        for share in [s.switch_live, s.switch_played] {
            out.push_str(&share.map_or(",".into(), |x| format!(",{x:.6}")));
        }
        out.push_str(
            &s.player_score
                .map_or(",\n".into(), |p| format!(",{p:.6}\n")),
        );
    }
    out
}

/// The JSON object `{"variants": [...]}`.
pub fn json(summaries: &[VariantSummary]) -> String {
    #[derive(Serialize)]
    struct All<'a> {
        variants: &'a [VariantSummary],
    }
    serde_json::to_string(&All {
        variants: summaries,
    })
    .expect("summaries serialise")
}

/// Why the reports could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A table or the folder could not be written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A plot could not be written.
    #[error(transparent)]
    Plot(#[from] PlotError),
}

/// Writes `text` to `path` atomically.
fn write_atomically(path: &Path, text: &str) -> Result<(), ReportError> {
    jungle_files::write_atomically(path, text.as_bytes()).map_err(|source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `variants.csv`, `variants.md`, `variants.json` and the plots in
/// `dir` (created if needed); `title` heads the Markdown file.
pub fn write_reports(
    dir: &Path,
    summaries: &[VariantSummary],
    title: &str,
) -> Result<(), ReportError> {
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    write_atomically(&dir.join("variants.csv"), &csv_table(summaries))?;
    let notes: String = switch_notes(summaries)
        .iter()
        .map(|n| format!("\n- {n}"))
        .collect();
    write_atomically(
        &dir.join("variants.md"),
        &format!("{title}\n\n{}{notes}\n", markdown_table(summaries)),
    )?;
    write_atomically(&dir.join("variants.json"), &json(summaries))?;
    write_figure(dir, "variants", &OutcomeBars(summaries))?;
    write_figure(dir, "variants-length", &LengthCurves(summaries))?;
    Ok(())
}

/// Stacked bars: first-mover wins, draws, second-mover wins per variant,
/// with the 95% intervals of the two win shares.
struct OutcomeBars<'a>(&'a [VariantSummary]);

impl Figure for OutcomeBars<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        let s = self.0;
        root.fill(&WHITE)?;
        let n = s.len() as i32;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Outcome by rule set (first mover's view, 95% intervals)",
                ("sans-serif", 22),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((0..n).into_segmented(), 0.0..1.0)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(s.len())
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => s
                    .get(*i as usize)
                    .map_or(String::new(), |v| v.variant.clone()),
                SegmentValue::Last => String::new(),
            })
            .y_desc("share of games")
            .draw()?;
        let parts: [(&str, RGBColor); 3] = [
            ("first mover wins", RGBColor(46, 125, 50)),
            ("draw", RGBColor(158, 158, 158)),
            ("second mover wins", RGBColor(198, 40, 40)),
        ];
        for (k, (label, color)) in parts.iter().enumerate() {
            let bars = s.iter().enumerate().map(move |(i, v)| {
                let g = v.games.max(1) as f64;
                let f = v.first_wins as f64 / g;
                let d = v.draws as f64 / g;
                let (lo, hi) = match k {
                    0 => (0.0, f),
                    1 => (f, f + d),
                    _ => (f + d, 1.0),
                };
                let i = i as i32;
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), lo),
                        (SegmentValue::Exact(i + 1), hi),
                    ],
                    color.filled(),
                );
                bar.set_margin(0, 0, 12, 12);
                bar
            });
            let color = *color;
            chart
                .draw_series(bars)?
                .label(*label)
                .legend(move |(a, b)| {
                    Rectangle::new([(a, b - 5), (a + 14, b + 5)], color.filled())
                });
        }
        chart.draw_series(s.iter().enumerate().flat_map(|(i, v)| {
            let g = v.games.max(1) as f64;
            let f = v.first_wins as f64 / g;
            let second_from = 1.0 - v.second_wins as f64 / g;
            let x = SegmentValue::CenterOf(i as i32);
            [
                ErrorBar::new_vertical(
                    x.clone(),
                    v.first_wins_ci95[0],
                    f,
                    v.first_wins_ci95[1],
                    BLACK.stroke_width(2),
                    10,
                ),
                ErrorBar::new_vertical(
                    x,
                    1.0 - v.second_wins_ci95[1],
                    second_from,
                    1.0 - v.second_wins_ci95[0],
                    BLACK.stroke_width(2),
                    10,
                ),
            ]
        }))?;
        finish(&root, &mut chart, SeriesLabelPosition::UpperRight)
    }
}

/// The distribution of game lengths per variant (share of games per bin).
struct LengthCurves<'a>(&'a [VariantSummary]);

/// Number of length bins.
const BINS: usize = 30;

impl Figure for LengthCurves<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        let s = self.0;
        root.fill(&WHITE)?;
        let longest = s
            .iter()
            .flat_map(|v| v.lengths.iter().copied())
            .max()
            .unwrap_or(1)
            .max(1) as f64;
        let width = (longest / BINS as f64).ceil().max(1.0);
        let histogram = |v: &VariantSummary| -> Vec<(f64, f64)> {
            let mut counts = vec![0usize; BINS + 1];
            for &p in &v.lengths {
                counts[((p as f64 / width) as usize).min(BINS)] += 1;
            }
            let n = v.lengths.len().max(1) as f64;
            counts
                .iter()
                .enumerate()
                .map(|(b, &c)| ((b as f64 + 0.5) * width, c as f64 / n))
                .collect()
        };
        let curves: Vec<Vec<(f64, f64)>> = s.iter().map(histogram).collect();
        let top = curves
            .iter()
            .flatten()
            .map(|p| p.1)
            .fold(0.0f64, f64::max)
            .max(0.01);
        let mut chart = ChartBuilder::on(&root)
            .caption("Game length by rule set", ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..(BINS as f64 + 1.0) * width, 0.0..top * 1.1)?;
        chart
            .configure_mesh()
            .x_desc(format!("plies (bins of {width:.0})"))
            .y_desc("share of games")
            .draw()?;
        for (i, (v, curve)) in s.iter().zip(curves).enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(curve, color.stroke_width(2)))?
                .label(format!("{} (median {:.0})", v.variant, v.median_plies))
                .legend(move |(a, b)| PathElement::new([(a, b), (a + 16, b)], color));
        }
        finish(&root, &mut chart, SeriesLabelPosition::UpperRight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{resolve_variants, summarize, SwitchActivity, VariantGame};
    use jungle_play::arena::GameEnd;
    use jungle_rules::{EndReason, Outcome, Side};

    fn drawn_game(variant: usize, index: u32, live: bool) -> VariantGame {
        VariantGame {
            variant,
            index,
            first_mover: Side::South,
            player_first: true,
            result: GameEnd {
                outcome: Some(Outcome {
                    winner: None,
                    reason: EndReason::Repetition,
                }),
                forfeit: None,
                adjudicated: None,
            },
            plies: 40,
            moves: Vec::new(),
            switch: SwitchActivity {
                live,
                live_positions: live as u32,
                played: false,
            },
        }
    }

    #[test]
    fn names_each_rule_set_never_live_and_puts_its_differences_on_the_players() {
        let variants = resolve_variants("standard,trap-attack,bank-rats").unwrap();
        // trap-attack never live; bank-rats live in one game of four.
        let games: Vec<VariantGame> = (0..4)
            .flat_map(|i| {
                [
                    drawn_game(0, i, false),
                    drawn_game(1, i, false),
                    drawn_game(2, i, i == 3),
                ]
            })
            .collect();
        let notes = switch_notes(&summarize(&variants, &games, false));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("trap-attack: its switches were never live in 4 games"),
            "{}",
            notes[0]
        );
        assert!(
            notes[0].contains("played by standard's rules") && notes[0].contains("is the players'"),
            "{}",
            notes[0]
        );
    }
}
