//! SVG charts for reports, drawn with plotters' SVG backend: text is written
//! as SVG `<text>` elements, so no font files or font libraries are needed
//! and the output is plain, diffable, deterministic text.

use std::collections::BTreeMap;
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
    crate::fsutil::write_atomic(path, sweep_chart_svg(title, x_desc, series)?)
}

/// [`sweep_chart`] as SVG text.
pub fn sweep_chart_svg(title: &str, x_desc: &str, series: &[Series]) -> io::Result<String> {
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
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
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
    root.present().map_err(plot_error)?;
    drop(chart);
    drop(root);
    Ok(svg)
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
    crate::fsutil::write_atomic(path, length_histogram_svg(title, x_desc, values)?)
}

/// [`bins`] of values given as how often each occurs.
pub fn bins_counted(values: &BTreeMap<u32, u64>) -> (u32, u32, Vec<u64>) {
    let (Some((&min, _)), Some((&max, _))) = (values.first_key_value(), values.last_key_value())
    else {
        return (0, 1, Vec::new());
    };
    let width = (max - min + 1).div_ceil(40).max(1);
    let mut counts = vec![0u64; ((max - min) / width + 1) as usize];
    for (&v, &n) in values {
        counts[((v - min) / width) as usize] += n;
    }
    (min, width, counts)
}

/// [`length_histogram`] of values given as how often each occurs.
pub fn length_histogram_counted(
    path: &Path,
    title: &str,
    x_desc: &str,
    values: &BTreeMap<u32, u64>,
) -> io::Result<()> {
    crate::fsutil::write_atomic(path, histogram_svg(title, x_desc, bins_counted(values))?)
}

/// [`length_histogram_counted`] as SVG text.
pub fn length_histogram_counted_svg(
    title: &str,
    x_desc: &str,
    values: &BTreeMap<u32, u64>,
) -> io::Result<String> {
    histogram_svg(title, x_desc, bins_counted(values))
}

/// [`length_histogram`] as SVG text.
pub fn length_histogram_svg(title: &str, x_desc: &str, values: &[u32]) -> io::Result<String> {
    histogram_svg(title, x_desc, bins(values))
}

/// The SVG of binned lengths: first bin, bin width and counts.
fn histogram_svg(
    title: &str,
    x_desc: &str,
    (start, width, counts): (u32, u32, Vec<u64>),
) -> io::Result<String> {
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.1;
    // Bin k covers the integers start + k·width ..= start + (k+1)·width - 1;
    // drawn half a unit wider on each side so an integer's bar is centred on it.
    let x0 = f64::from(start) - 0.5;
    let x1 = x0 + (counts.len().max(1) as f64) * f64::from(width);
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
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
    root.present().map_err(plot_error)?;
    drop(chart);
    drop(root);
    Ok(svg)
}

/// Escapes text for SVG and HTML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// Round tick values covering `lo..=hi`: steps of 1, 2 or 5 times a power of ten.
pub fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        return vec![lo];
    }
    let raw = (hi - lo) / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last)
        .map(|k| (k as f64 * step * 1e9).round() / 1e9)
        .collect()
}

fn cut(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        label.to_string()
    } else {
        label.chars().take(max - 1).collect::<String>() + "…"
    }
}

/// Rows an interval chart shows at most; more would not read at a glance.
pub const MAX_ROWS: usize = 60;

/// A horizontal interval chart: one row per category (seats, roles, cells,
/// differences), a dot at the estimate and a 95 % whisker, a dashed line at
/// `reference` (rows whose interval excludes it are drawn in vermillion).
/// The axis spans `domain`, or the data. Categories sit on their own axis,
/// so any number of them reads; only the first [`MAX_ROWS`] are drawn.
pub fn interval_chart_svg(
    title: &str,
    x_desc: &str,
    rows: &[RatePoint],
    reference: Option<f64>,
    domain: Option<(f64, f64)>,
) -> String {
    use std::fmt::Write as _;
    let rows = &rows[..rows.len().min(MAX_ROWS)];
    let (w, row_h, top, bottom) = (720.0, 22.0, 48.0, 52.0);
    let longest = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(4);
    let label_w = (longest.min(36) as f64 * 7.0 + 20.0).clamp(70.0, 270.0);
    let (x0, x1) = (label_w + 10.0, w - 24.0);
    let h = top + bottom + row_h * rows.len().max(1) as f64;
    let (lo, hi) = domain.unwrap_or_else(|| {
        let finite = |x: f64| x.is_finite().then_some(x);
        let values = rows
            .iter()
            .flat_map(|r| [r.low, r.rate, r.high])
            .chain(reference)
            .filter_map(finite);
        let (a, b) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
        if a.is_finite() && b > a {
            let pad = (b - a) * 0.06;
            (a - pad, b + pad)
        } else if a.is_finite() {
            (a - 1.0, a + 1.0)
        } else {
            (0.0, 1.0)
        }
    });
    let x = |v: f64| x0 + (v.clamp(lo, hi) - lo) / (hi - lo) * (x1 - x0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\" role=\"img\"><title>{}</title>\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\
         <text x=\"{}\" y=\"26\" font-size=\"18\" text-anchor=\"middle\">{}</text>",
        escape(title),
        w / 2.0,
        escape(title)
    );
    let y_end = top + row_h * rows.len().max(1) as f64;
    for t in ticks(lo, hi) {
        let _ = write!(
            out,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{y_end}\" stroke=\"#e5e5e5\"/>\
             <text x=\"{0:.1}\" y=\"{1}\" font-size=\"12\" text-anchor=\"middle\">{2}</text>",
            x(t),
            y_end + 16.0,
            tidy(t)
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{x0}\" y1=\"{y_end}\" x2=\"{x1}\" y2=\"{y_end}\" stroke=\"black\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\">{}</text>",
        (x0 + x1) / 2.0,
        y_end + 38.0,
        escape(x_desc)
    );
    for (i, r) in rows.iter().enumerate() {
        let yc = top + row_h * (i as f64 + 0.5);
        if i % 2 == 1 {
            let _ = write!(
                out,
                "<rect x=\"0\" y=\"{}\" width=\"{w}\" height=\"{row_h}\" fill=\"#f4f6f8\" fill-opacity=\"0.8\"/>",
                yc - row_h / 2.0
            );
        }
        let off = reference.is_some_and(|f| r.low > f || r.high < f);
        let c = hex(if off { colour(1) } else { colour(0) });
        let _ = write!(
            out,
            "<g><title>{}: {:.3} [{:.3}, {:.3}]</title>\
             <text x=\"{}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{}</text>",
            escape(&r.label),
            r.rate,
            r.low,
            r.high,
            label_w,
            yc + 4.0,
            escape(&cut(&r.label, 36))
        );
        if r.low.is_finite() && r.high.is_finite() {
            let _ = write!(
                out,
                "<line x1=\"{0:.1}\" y1=\"{1:.1}\" x2=\"{2:.1}\" y2=\"{1:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
                 <line x1=\"{0:.1}\" y1=\"{3:.1}\" x2=\"{0:.1}\" y2=\"{4:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
                 <line x1=\"{2:.1}\" y1=\"{3:.1}\" x2=\"{2:.1}\" y2=\"{4:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>",
                x(r.low),
                yc,
                x(r.high),
                yc - 5.0,
                yc + 5.0
            );
        }
        let _ = write!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{yc:.1}\" r=\"4.5\" fill=\"{c}\"/></g>",
            x(r.rate)
        );
    }
    if let Some(f) = reference {
        let _ = write!(
            out,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{y_end}\" stroke=\"{1}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>",
            x(f),
            hex(colour(6))
        );
    }
    out.push_str("</svg>\n");
    out
}

/// [`interval_chart_svg`] written to `path`.
pub fn interval_chart(
    path: &Path,
    title: &str,
    x_desc: &str,
    rows: &[RatePoint],
    reference: Option<f64>,
    domain: Option<(f64, f64)>,
) -> io::Result<()> {
    crate::fsutil::write_atomic(
        path,
        interval_chart_svg(title, x_desc, rows, reference, domain),
    )
}

/// Win rates against a parameter whose values are categories (tile sets,
/// character lists): one slot per category on a categorical axis, in the
/// given order, one dot with a 95 % error bar per series, side by side and
/// not joined (an order between categories would be invented). Points'
/// `x` index `categories`.
pub fn category_chart_svg(
    title: &str,
    x_desc: &str,
    categories: &[String],
    series: &[Series],
    reference: Option<f64>,
) -> String {
    use std::fmt::Write as _;
    let (w, h) = (720.0, 440.0);
    let slanted = categories.len() > 6 || categories.iter().any(|c| c.chars().count() > 14);
    let (left, right, top) = (64.0, w - 20.0, 66.0);
    let bottom = if slanted { h - 120.0 } else { h - 64.0 };
    let slot = (right - left) / categories.len().max(1) as f64;
    let y = |v: f64| bottom - v.clamp(0.0, 1.0) * (bottom - top);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\" role=\"img\"><title>{0}</title>\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\
         <text x=\"{1}\" y=\"24\" font-size=\"18\" text-anchor=\"middle\">{0}</text>",
        escape(title),
        w / 2.0
    );
    for t in ticks(0.0, 1.0) {
        let _ = write!(
            out,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{right}\" y2=\"{0:.1}\" stroke=\"#e5e5e5\"/>\
             <text x=\"{1}\" y=\"{2:.1}\" font-size=\"12\" text-anchor=\"end\">{3}</text>",
            y(t),
            left - 6.0,
            y(t) + 4.0,
            tidy(t)
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{left}\" y1=\"{bottom}\" x2=\"{right}\" y2=\"{bottom}\" stroke=\"black\"/>\
         <line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{bottom}\" stroke=\"black\"/>\
         <text transform=\"translate(16 {0}) rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">win rate (draw = 1/2)</text>\
         <text x=\"{1}\" y=\"{2}\" font-size=\"13\" text-anchor=\"middle\">{3}</text>",
        (top + bottom) / 2.0,
        (left + right) / 2.0,
        h - 12.0,
        escape(x_desc)
    );
    for (i, c) in categories.iter().enumerate() {
        let cx = left + slot * (i as f64 + 0.5);
        if i > 0 {
            let _ = write!(
                out,
                "<line x1=\"{0:.1}\" y1=\"{bottom}\" x2=\"{0:.1}\" y2=\"{1}\" stroke=\"black\"/>",
                left + slot * i as f64,
                bottom + 5.0
            );
        }
        if slanted {
            let _ = write!(
                out,
                "<text transform=\"translate({cx:.1} {0}) rotate(-35)\" font-size=\"12\" text-anchor=\"end\">{1}</text>",
                bottom + 16.0,
                escape(&cut(c, 22))
            );
        } else {
            let _ = write!(
                out,
                "<text x=\"{cx:.1}\" y=\"{0}\" font-size=\"12\" text-anchor=\"middle\">{1}</text>",
                bottom + 18.0,
                escape(c)
            );
        }
    }
    if let Some(f) = reference {
        let _ = write!(
            out,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{right}\" y2=\"{0:.1}\" stroke=\"{1}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>",
            y(f),
            hex(colour(6))
        );
    }
    let k = series.len().max(1) as f64;
    for (j, s) in series.iter().enumerate() {
        let c = hex(colour(j));
        let dx = slot * 0.6 * ((j as f64 + 0.5) / k - 0.5);
        for p in &s.points {
            let cx = left + slot * (p.x + 0.5) + dx;
            let _ = write!(
                out,
                "<g><title>{0} at {1}: {2:.3} [{3:.3}, {4:.3}]</title>\
                 <line x1=\"{5:.1}\" y1=\"{6:.1}\" x2=\"{5:.1}\" y2=\"{7:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
                 <line x1=\"{8:.1}\" y1=\"{6:.1}\" x2=\"{9:.1}\" y2=\"{6:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
                 <line x1=\"{8:.1}\" y1=\"{7:.1}\" x2=\"{9:.1}\" y2=\"{7:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
                 <circle cx=\"{5:.1}\" cy=\"{10:.1}\" r=\"4.5\" fill=\"{c}\"/></g>",
                escape(&s.label),
                escape(categories.get(p.x as usize).map_or("", String::as_str)),
                p.rate,
                p.low,
                p.high,
                cx,
                y(p.low),
                y(p.high),
                cx - 4.0,
                cx + 4.0,
                y(p.rate)
            );
        }
        let lx = left + 10.0 + 130.0 * (j % 5) as f64;
        let ly = 44.0 + 14.0 * (j / 5) as f64;
        let _ = write!(
            out,
            "<circle cx=\"{lx}\" cy=\"{ly}\" r=\"4.5\" fill=\"{c}\"/>\
             <text x=\"{0}\" y=\"{1}\" font-size=\"12\">{2}</text>",
            lx + 9.0,
            ly + 4.0,
            escape(&cut(&s.label, 16))
        );
    }
    out.push_str("</svg>\n");
    out
}

/// [`category_chart_svg`] written to `path`.
pub fn category_chart(
    path: &Path,
    title: &str,
    x_desc: &str,
    categories: &[String],
    series: &[Series],
    reference: Option<f64>,
) -> io::Result<()> {
    crate::fsutil::write_atomic(
        path,
        category_chart_svg(title, x_desc, categories, series, reference),
    )
}

/// One point of a balance-against-skill curve: a group's win rate at one
/// budget, placed at the agents' strength there (Elo, or the budget itself).
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    /// Strength: the estimate and its 95 % interval on the x axis.
    pub x: f64,
    /// Lower end of the strength's interval (equal to `x` when exact).
    pub x_low: f64,
    /// Upper end of the strength's interval.
    pub x_high: f64,
    /// The win rate.
    pub rate: f64,
    /// Lower bound of its 95 % interval.
    pub low: f64,
    /// Upper bound of its 95 % interval.
    pub high: f64,
    /// What the point was measured at (e.g. `500 it`), for its tooltip.
    pub tag: String,
}

/// One line of a skill curve: a seat, faction or role.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// Legend text.
    pub label: String,
    /// Points, joined in the order given (budgets increasing; the Elo
    /// estimates of neighbouring budgets may cross).
    pub points: Vec<CurvePoint>,
}

/// Curves drawn at most on one chart; more would not read.
pub const MAX_CURVES: usize = 12;

/// An x value on the axis' scale: its log2 on a log axis.
fn axis_scale(log_x: bool, v: f64) -> f64 {
    if log_x { v.max(1e-9).log2() } else { v }
}

/// A skill-curve chart's plot area in pixels and the data range it spans:
/// maps data to pixels.
#[derive(Clone, Copy)]
struct CurveFrame {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    xlo: f64,
    xhi: f64,
    ylo: f64,
    yhi: f64,
    log_x: bool,
}

impl CurveFrame {
    /// The plot area for `curves` (the y range spans `fair` too, within 0..1).
    fn new(curves: &[Curve], fair: Option<f64>, log_x: bool, area: [f64; 4]) -> Self {
        let [left, right, top, bottom] = area;
        let tx = |v: f64| axis_scale(log_x, v);
        let span = |values: &mut dyn Iterator<Item = f64>| {
            let (a, b) = values
                .filter(|v| v.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                    (a.min(x), b.max(x))
                });
            if !a.is_finite() {
                (0.0, 1.0)
            } else if b > a {
                let pad = (b - a) * 0.08;
                (a - pad, b + pad)
            } else {
                (a - 0.5, a + 0.5)
            }
        };
        let points = || curves.iter().flat_map(|c| c.points.iter());
        let (xlo, xhi) = span(&mut points().flat_map(|p| [tx(p.x_low), tx(p.x_high), tx(p.x)]));
        let (ylo, yhi) = span(&mut points().flat_map(|p| [p.low, p.high]).chain(fair));
        let (ylo, yhi) = (ylo.max(0.0), yhi.min(1.0));
        CurveFrame {
            left,
            right,
            top,
            bottom,
            xlo,
            xhi,
            ylo,
            yhi,
            log_x,
        }
    }

    fn tx(&self, v: f64) -> f64 {
        axis_scale(self.log_x, v)
    }

    fn sx(&self, v: f64) -> f64 {
        self.left
            + (self.tx(v).clamp(self.xlo, self.xhi) - self.xlo) / (self.xhi - self.xlo)
                * (self.right - self.left)
    }

    fn sy(&self, v: f64) -> f64 {
        self.bottom
            - (v.clamp(self.ylo, self.yhi) - self.ylo) / (self.yhi - self.ylo)
                * (self.bottom - self.top)
    }
}

/// Grid lines and tick labels of both axes, the axes and their titles.
fn curve_axes(out: &mut String, f: &CurveFrame, h: f64, x_desc: &str, y_desc: &str) {
    use std::fmt::Write as _;
    let CurveFrame {
        left,
        right,
        top,
        bottom,
        xlo,
        xhi,
        ylo,
        yhi,
        log_x,
    } = *f;
    for t in ticks(ylo, yhi) {
        let _ = write!(
            out,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{right}\" y2=\"{0:.1}\" stroke=\"#e5e5e5\"/>\
             <text x=\"{1}\" y=\"{2:.1}\" font-size=\"12\" text-anchor=\"end\">{3}</text>",
            f.sy(t),
            left - 6.0,
            f.sy(t) + 4.0,
            tidy(t)
        );
    }
    let xticks: Vec<f64> = if log_x {
        let (a, b) = (xlo.ceil() as i32, xhi.floor() as i32);
        (a..=b).map(|k| 2f64.powi(k)).collect()
    } else {
        ticks(xlo, xhi)
    };
    for t in xticks {
        let _ = write!(
            out,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"#eeeeee\"/>\
             <text x=\"{0:.1}\" y=\"{1}\" font-size=\"12\" text-anchor=\"middle\">{2}</text>",
            f.sx(t),
            bottom + 16.0,
            tidy(t)
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{left}\" y1=\"{bottom}\" x2=\"{right}\" y2=\"{bottom}\" stroke=\"black\"/>\
         <line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{bottom}\" stroke=\"black\"/>\
         <text transform=\"translate(16 {0}) rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">{4}</text>\
         <text x=\"{1}\" y=\"{2}\" font-size=\"13\" text-anchor=\"middle\">{3}</text>",
        (top + bottom) / 2.0,
        (left + right) / 2.0,
        h - 24.0,
        escape(x_desc),
        escape(y_desc)
    );
}

/// The dashed line at the fair share, labelled.
fn curve_fair_line(out: &mut String, f: &CurveFrame, fair: f64) {
    use std::fmt::Write as _;
    let CurveFrame { left, right, .. } = *f;
    let _ = write!(
        out,
        "<line class=\"fair\" x1=\"{left}\" y1=\"{0:.1}\" x2=\"{right}\" y2=\"{0:.1}\" stroke=\"{1}\" \
             stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\
             <text x=\"{2}\" y=\"{3:.1}\" font-size=\"11\" text-anchor=\"end\" fill=\"{1}\">fair share {4}</text>",
        f.sy(fair),
        hex(colour(6)),
        right - 4.0,
        f.sy(fair) - 5.0,
        tidy((fair * 1000.0).round() / 1000.0)
    );
}

/// Curve `j`: its line nudged `dx` sideways, each point with its whiskers
/// and tooltip (the first curve's points labelled with their tag).
fn curve_line(out: &mut String, f: &CurveFrame, j: usize, c: &Curve, dx: f64, x_desc: &str) {
    use std::fmt::Write as _;
    let col = hex(colour(j));
    let pts: Vec<&CurvePoint> = c.points.iter().collect();
    let line: Vec<String> = pts
        .iter()
        .map(|p| format!("{:.1},{:.1}", f.sx(p.x) + dx, f.sy(p.rate)))
        .collect();
    let _ = write!(
        out,
        "<polyline class=\"curve\" points=\"{}\" fill=\"none\" stroke=\"{col}\" stroke-width=\"2\"/>",
        line.join(" ")
    );
    for p in pts {
        let (cx, cy) = (f.sx(p.x) + dx, f.sy(p.rate));
        let _ = write!(
            out,
            "<g class=\"point\"><title>{0} at {1}: {2:.3} [{3:.3}, {4:.3}]; {5}: {6:.0} [{7:.0}, {8:.0}]</title>\
                 <line x1=\"{9:.1}\" y1=\"{cy:.1}\" x2=\"{10:.1}\" y2=\"{cy:.1}\" stroke=\"{col}\" stroke-width=\"1\" stroke-opacity=\"0.6\"/>\
                 <line x1=\"{cx:.1}\" y1=\"{11:.1}\" x2=\"{cx:.1}\" y2=\"{12:.1}\" stroke=\"{col}\" stroke-width=\"2\"/>\
                 <circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"4.5\" fill=\"{col}\"/></g>",
            escape(&c.label),
            escape(&p.tag),
            p.rate,
            p.low,
            p.high,
            escape(x_desc),
            p.x,
            p.x_low,
            p.x_high,
            f.sx(p.x_low) + dx,
            f.sx(p.x_high) + dx,
            f.sy(p.low),
            f.sy(p.high),
        );
        // The first line names each budget once, above its whisker.
        if j == 0 {
            let _ = write!(
                out,
                "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#56606b\" text-anchor=\"middle\">{}</text>",
                f.sy(p.high) - 5.0,
                escape(&p.tag)
            );
        }
    }
}

/// Win rates against skill: one line per group through its points, each
/// point with a vertical 95 % whisker for the rate and a thin horizontal one
/// for the strength, a dashed line at `fair` (the share every group would
/// have in a balanced game); the first line's points are labelled with their
/// `tag` (the budget). Lines are nudged apart sideways by a few pixels
/// so that whiskers at the same strength do not hide each other. With `log_x`
/// the x axis is logarithmic (budgets that double); the y axis spans the data
/// and `fair`, within 0..1.
pub fn skill_curve_svg(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    curves: &[Curve],
    fair: Option<f64>,
    log_x: bool,
) -> String {
    use std::fmt::Write as _;
    let curves = &curves[..curves.len().min(MAX_CURVES)];
    let (w, h) = (720.0, 440.0);
    let longest = curves
        .iter()
        .map(|c| c.label.chars().count())
        .max()
        .unwrap_or(4)
        .min(30);
    let entry_w = (longest as f64 * 7.0 + 30.0).clamp(130.0, 240.0);
    let per_row = ((w - 100.0) / entry_w).floor().max(1.0) as usize;
    let legend_rows = curves.len().div_ceil(per_row).max(1) as f64;
    let (left, right, top, bottom) = (64.0, w - 24.0, 44.0 + 14.0 * legend_rows, h - 64.0);
    let f = CurveFrame::new(curves, fair, log_x, [left, right, top, bottom]);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\" role=\"img\" class=\"skill-curve\"><title>{0}</title>\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\
         <text x=\"{1}\" y=\"24\" font-size=\"18\" text-anchor=\"middle\">{0}</text>",
        escape(title),
        w / 2.0
    );
    curve_axes(&mut out, &f, h, x_desc, y_desc);
    if let Some(fair) = fair {
        curve_fair_line(&mut out, &f, fair);
    }
    let k = curves.len().max(1) as f64;
    for (j, c) in curves.iter().enumerate() {
        let col = hex(colour(j));
        let dx = 5.0 * (j as f64 - (k - 1.0) / 2.0);
        curve_line(&mut out, &f, j, c, dx, x_desc);
        let lx = left + 10.0 + entry_w * (j % per_row) as f64;
        let ly = 44.0 + 14.0 * (j / per_row) as f64;
        let _ = write!(
            out,
            "<line x1=\"{0}\" y1=\"{ly}\" x2=\"{1}\" y2=\"{ly}\" stroke=\"{col}\" stroke-width=\"2\"/>\
             <circle cx=\"{lx}\" cy=\"{ly}\" r=\"4\" fill=\"{col}\"/>\
             <text x=\"{2}\" y=\"{3}\" font-size=\"12\">{4}</text>",
            lx - 7.0,
            lx + 7.0,
            lx + 11.0,
            ly + 4.0,
            escape(&cut(&c.label, 30))
        );
    }
    out.push_str("</svg>\n");
    out
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

    /// Without Elo the budgets sit on a log axis with ticks at powers of two;
    /// every group gets a line, every budget a point and a label.
    #[test]
    fn skill_curve_without_elo_puts_budgets_on_a_log_axis() {
        let curve = |label: &str, base: f64| Curve {
            label: label.into(),
            points: [250.0, 500.0, 1000.0]
                .iter()
                .map(|&b| CurvePoint {
                    x: b,
                    x_low: b,
                    x_high: b,
                    rate: base,
                    low: base - 0.03,
                    high: base + 0.03,
                    tag: format!("{b} it"),
                })
                .collect(),
        };
        let svg = skill_curve_svg(
            "Seat balance against skill",
            "search iterations per decision (log scale)",
            "win rate (draw = 1/2)",
            &[curve("seat 0", 0.6), curve("seat 1", 0.4)],
            Some(0.5),
            true,
        );
        assert!(svg.contains(">256<") && svg.contains(">512<"), "{svg}");
        assert_eq!(svg.matches("<polyline class=\"curve\"").count(), 2);
        assert_eq!(svg.matches("<g class=\"point\">").count(), 6);
        assert!(svg.contains(">500 it<") && svg.contains("fair share 0.5"));
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

    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(0.0, 1.0), vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(ticks(-0.1, 0.1).len(), 5);
        assert_eq!(ticks(0.0, 600.0), vec![0.0, 200.0, 400.0, 600.0]);
    }

    #[test]
    fn interval_chart_has_one_row_per_category_and_flags_off_reference() {
        let rows: Vec<RatePoint> = (0..30)
            .map(|i| RatePoint {
                label: format!("character <{i}>"),
                rate: 0.5,
                low: if i == 3 { 0.55 } else { 0.45 },
                high: 0.6,
            })
            .collect();
        let svg = interval_chart_svg("roles", "win rate", &rows, Some(0.5), Some((0.0, 1.0)));
        assert_eq!(svg.matches("<circle").count(), 30);
        assert!(svg.contains("character &lt;29&gt;"));
        // One row's interval lies above the reference: drawn in vermillion.
        assert_eq!(svg.matches("fill=\"#d55e00\"").count(), 1);
        let many: Vec<RatePoint> = (0..200).map(|i| rows[i % 30].clone()).collect();
        let svg = interval_chart_svg("many", "x", &many, None, None);
        assert_eq!(svg.matches("<circle").count(), MAX_ROWS);
    }

    #[test]
    fn category_chart_puts_categories_on_their_own_axis() {
        let cats: Vec<String> = ["base", "no-traps", "double"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let series = vec![Series {
            label: "seat 0".into(),
            points: (0..3)
                .map(|i| SweepPoint {
                    x: f64::from(i),
                    rate: 0.5,
                    low: 0.4,
                    high: 0.6,
                })
                .collect(),
        }];
        let svg = category_chart_svg("tiles", "tiles", &cats, &series, Some(0.5));
        for c in &cats {
            assert!(svg.contains(&format!(">{c}</text>")), "{c}");
        }
        // No numeric positions such as 0.5 or 1.5 on the x axis, no joining line.
        assert!(!svg.contains(">1.5<") && !svg.contains("<polyline"));
        assert_eq!(
            svg.matches("<circle").count(),
            4,
            "three points and a legend dot"
        );
    }
}
