//! SVG charts for reports, drawn with plotters' SVG backend: text is written
//! as SVG `<text>` elements, so no font files or font libraries are needed
//! and the output is plain, diffable, deterministic text.

use std::io;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

/// Chart size in pixels.
const SIZE: (u32, u32) = (720, 420);

/// Series colours, distinguishable and print-safe (Okabe–Ito).
pub(crate) const COLOURS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
];

fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

fn plot_error(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!("cannot draw chart: {e}"))
}

/// A parameter value without float noise or trailing zeros: 100, 0.25, 1.5.
fn tidy(x: f64) -> String {
    let text = format!("{x:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

/// A win rate with its interval, e.g. one seat's.
#[derive(Clone, Debug, PartialEq)]
pub struct RatePoint {
    /// What the rate is of (a seat, a role, an agent).
    pub label: String,
    /// The win rate.
    pub rate: f64,
    /// Lower bound of its 95 % interval.
    pub low: f64,
    /// Upper bound of its 95 % interval.
    pub high: f64,
}

/// One measured point of a parameter sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepPoint {
    /// The parameter's value.
    pub x: f64,
    /// The win rate there.
    pub rate: f64,
    /// Lower bound of its 95 % interval.
    pub low: f64,
    /// Upper bound of its 95 % interval.
    pub high: f64,
}

/// One line of a sweep chart (an agent or a seat).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Points, in any order (drawn sorted by `x`).
    pub points: Vec<SweepPoint>,
}

/// Draws a chart in memory and writes it to `path` atomically (never
/// through a link planted there).
pub fn svg_file(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(DrawingArea<SVGBackend<'_>, Shift>) -> io::Result<()>,
) -> io::Result<()> {
    let mut svg = String::new();
    draw(SVGBackend::with_string(&mut svg, size).into_drawing_area())?;
    crate::fsutil::write_atomic(path, svg)
}

/// A bar chart of win rates with 95 % error bars, one bar per label (seats or
/// roles), and a dashed line at `fair`, the rate every bar would have in a
/// balanced game, if given.
pub fn win_rate_chart(
    path: &Path,
    title: &str,
    x_desc: &str,
    points: &[RatePoint],
    fair: Option<f64>,
) -> io::Result<()> {
    svg_file(path, SIZE, |root| {
        root.fill(&WHITE).map_err(plot_error)?;
        // An integer range is inclusive here: `0..n - 1` gives n bars (one bar
        // still needs a range of positive width).
        let last = (points.len() as i32 - 1).max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d((0..last).into_segmented(), 0f64..1f64)
            .map_err(plot_error)?;
        let label = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => points
                .get(*i as usize)
                .map(|p| p.label.clone())
                .unwrap_or_default(),
            SegmentValue::Last => String::new(),
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .max_light_lines(1)
            .x_labels(points.len().max(1))
            .x_label_formatter(&label)
            .x_desc(x_desc)
            .y_desc("win rate (draw = 1/2)")
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(points.iter().enumerate().map(|(i, p)| {
                let i = i as i32;
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), 0.0),
                        (SegmentValue::Exact(i + 1), p.rate),
                    ],
                    colour(0).mix(0.6).filled(),
                );
                bar.set_margin(0, 0, 18, 18);
                bar
            }))
            .map_err(plot_error)?;
        chart
            .draw_series(points.iter().enumerate().map(|(i, p)| {
                ErrorBar::new_vertical(
                    SegmentValue::CenterOf(i as i32),
                    p.low,
                    p.rate,
                    p.high,
                    BLACK.stroke_width(2),
                    14,
                )
            }))
            .map_err(plot_error)?;
        if let Some(fair) = fair {
            chart
                .draw_series(DashedLineSeries::new(
                    [(SegmentValue::Exact(0), fair), (SegmentValue::Last, fair)],
                    6,
                    4,
                    colour(1).stroke_width(2),
                ))
                .map_err(plot_error)?;
        }
        root.present().map_err(plot_error)
    })
}

/// Win rate against a swept parameter: one line per series with 95 % error
/// bars and a legend.
pub fn sweep_chart(path: &Path, title: &str, x_desc: &str, series: &[Series]) -> io::Result<()> {
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.x));
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let (lo, hi) = if lo.is_finite() && hi > lo {
        let pad = (hi - lo) * 0.05;
        (lo - pad, hi + pad)
    } else if lo.is_finite() {
        (lo - 1.0, lo + 1.0)
    } else {
        (0.0, 1.0)
    };
    svg_file(path, SIZE, |root| {
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(lo..hi, 0f64..1f64)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .max_light_lines(1)
            .x_label_formatter(&|x| tidy(*x))
            .x_desc(x_desc)
            .y_desc("win rate (draw = 1/2)")
            .draw()
            .map_err(plot_error)?;
        for (i, s) in series.iter().enumerate() {
            let c = colour(i);
            let mut pts = s.points.clone();
            pts.sort_by(|a, b| a.x.total_cmp(&b.x));
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|p| (p.x, p.rate)),
                    c.stroke_width(2),
                ))
                .map_err(plot_error)?
                .label(s.label.clone())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
            chart
                .draw_series(
                    pts.iter()
                        .map(|p| ErrorBar::new_vertical(p.x, p.low, p.rate, p.high, c, 10)),
                )
                .map_err(plot_error)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)
    })
}

/// Bins for a histogram of small integers: at most about 40 bins of equal
/// integer width, the first starting at the minimum. Returns
/// `(start, width, counts)`.
pub fn bins(values: &[u32]) -> (u32, u32, Vec<u64>) {
    let (Some(&min), Some(&max)) = (values.iter().min(), values.iter().max()) else {
        return (0, 1, Vec::new());
    };
    let width = (max - min + 1).div_ceil(40).max(1);
    let mut counts = vec![0u64; ((max - min) / width + 1) as usize];
    for &v in values {
        counts[((v - min) / width) as usize] += 1;
    }
    (min, width, counts)
}

/// A histogram of game lengths (or any small non-negative integers), binned
/// by [`bins`].
pub fn length_histogram(path: &Path, title: &str, x_desc: &str, values: &[u32]) -> io::Result<()> {
    let (start, width, counts) = bins(values);
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.1;
    // Bin k covers the integers start + k·width ..= start + (k+1)·width - 1;
    // drawn half a unit wider on each side so an integer's bar is centred on it.
    let x0 = f64::from(start) - 0.5;
    let x1 = x0 + (counts.len().max(1) as f64) * f64::from(width);
    svg_file(path, SIZE, |root| {
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, 0f64..top)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .max_light_lines(1)
            .x_label_formatter(&|x| {
                // Only whole numbers: a length of 6.5 turns means nothing.
                if (x - x.round()).abs() < 1e-9 {
                    format!("{x:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| format!("{y:.0}"))
            .x_desc(x_desc)
            .y_desc("games")
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(counts.iter().enumerate().map(|(k, &c)| {
                let lo = x0 + (k as f64) * f64::from(width);
                let mut bar = Rectangle::new(
                    [(lo, 0.0), (lo + f64::from(width), c as f64)],
                    colour(2).mix(0.7).filled(),
                );
                bar.set_margin(0, 0, 1, 1);
                bar
            }))
            .map_err(plot_error)?;
        root.present().map_err(plot_error)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("boardlab-plots-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok();
        dir.join(name)
    }

    /// The file's text (checked to be an SVG); the file is removed.
    fn svg(path: &Path) -> String {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let _ = std::fs::remove_file(path);
        assert!(text.starts_with("<svg"), "{}: not an SVG", path.display());
        text
    }

    #[test]
    fn win_rate_chart_has_bars_and_labels() {
        let path = temp("seats.svg");
        let points: Vec<RatePoint> = [0.62, 0.38]
            .iter()
            .enumerate()
            .map(|(i, &r)| RatePoint {
                label: format!("seat {i}"),
                rate: r,
                low: r - 0.05,
                high: r + 0.05,
            })
            .collect();
        win_rate_chart(&path, "Win rate by seat", "seat", &points, Some(0.5)).unwrap();
        let text = svg(&path);
        for label in [
            "Win rate by seat",
            "seat 0",
            "seat 1",
            "win rate (draw = 1/2)",
        ] {
            assert!(text.contains(label), "missing {label}");
        }
        assert!(
            text.matches("<rect").count() >= 3,
            "background and two bars"
        );
    }

    #[test]
    fn sweep_chart_has_a_legend_entry_per_series() {
        let path = temp("sweep.svg");
        let series: Vec<Series> = ["mcts", "random"]
            .iter()
            .enumerate()
            .map(|(k, name)| Series {
                label: name.to_string(),
                points: (1..=4)
                    .map(|i| {
                        let rate = 0.2 * k as f64 + 0.1 * f64::from(i);
                        SweepPoint {
                            x: f64::from(i) * 100.0,
                            rate,
                            low: rate - 0.03,
                            high: rate + 0.03,
                        }
                    })
                    .collect(),
            })
            .collect();
        sweep_chart(&path, "Win rate by iterations", "iterations", &series).unwrap();
        let text = svg(&path);
        for label in ["Win rate by iterations", "iterations", "mcts", "random"] {
            assert!(text.contains(label), "missing {label}");
        }
        assert!(text.contains("<polyline"), "lines drawn");
    }

    #[test]
    fn axis_values_are_tidy() {
        assert_eq!(tidy(100.0), "100");
        assert_eq!(tidy(0.1 + 0.2), "0.3");
        assert_eq!(tidy(1.5), "1.5");
        assert_eq!(tidy(-0.0000001), "0");
    }

    #[test]
    fn histogram_bins_and_draws() {
        assert_eq!(bins(&[5, 6, 6, 9]), (5, 1, vec![1, 2, 0, 0, 1]));
        let wide: Vec<u32> = (0..400).collect();
        let (start, width, counts) = bins(&wide);
        assert_eq!((start, width, counts.len()), (0, 10, 40));
        assert!(counts.iter().all(|&c| c == 10));
        assert_eq!(bins(&[]), (0, 1, vec![]));
        let path = temp("turns.svg");
        length_histogram(&path, "Game length", "turns", &[5, 6, 6, 9]).unwrap();
        let text = svg(&path);
        assert!(text.contains("Game length") && text.contains("turns"));
        // Background plus the three non-empty bins (empty ones have no height).
        assert!(text.matches("<rect").count() >= 4);
    }
}
