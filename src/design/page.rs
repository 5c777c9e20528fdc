//! The dashboard of a `boardlab design` folder: the verdict, how close to
//! fair each variant came with its interval, and the ranked table with the
//! quality figures and why each dropped variant was dropped.

use std::path::Path;

use super::{Design, Measure, VariantResult};
use crate::report::dashboard::{Block, Dashboard, Section, Table};
use crate::report::plots::{self, RatePoint};

/// The page of the design search in `dir`, or `None` when `dir` holds none.
pub fn dashboard(dir: &Path) -> Option<Dashboard> {
    let text =
        crate::fsutil::read_text(&dir.join("design.json"), crate::fsutil::MAX_TEXT_BYTES).ok()?;
    let design: Design = serde_json::from_str(&text).ok()?;
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
        .unwrap_or_else(|| dir.display().to_string());
    let ranked = design.ranked();
    Some(Dashboard {
        title: format!("{name}: design search"),
        intro: vec![format!(
            "A search of {} variants of `{}` for one fair by {} within ± {} that plays well; `{}`.",
            design.variants.len(),
            design.game,
            match design.by {
                super::space::By::Sides => "sides",
                super::space::By::Seats => "seats",
            },
            design.tolerance,
            design.command
        )],
        sections: vec![
            Section {
                id: "verdict".into(),
                title: "Verdict".into(),
                blocks: vec![Block::Text(design.verdict.clone())],
            },
            Section {
                id: "closest".into(),
                title: "How close to fair".into(),
                blocks: vec![closest_chart(&ranked)],
            },
            Section {
                id: "ranking".into(),
                title: "Every variant, ranked".into(),
                blocks: vec![
                    Block::Text(
                        "Furthest stage reached first, then closest to fair; each with its last stage's measure. Pareto: on the front of the last stage's survivors (distance from fair, cap share, decisiveness).".into(),
                    ),
                    Block::Table(ranking_table(&ranked)),
                ],
            },
        ],
    })
}

/// The first group's rate at each variant's last stage, against the fair share.
fn closest_chart(ranked: &[&VariantResult]) -> Block {
    let mut fair = None;
    let mut group = String::new();
    let rows: Vec<RatePoint> = ranked
        .iter()
        .filter_map(|v| {
            let m = v.measures.last()?;
            let g = m.groups.first()?;
            fair.get_or_insert(m.fair);
            if group.is_empty() {
                group = g.name.clone();
            }
            Some(RatePoint {
                label: format!("#{} {}", v.variant.index, short(&v.variant.params)),
                rate: g.rate.value,
                low: g.rate.low,
                high: g.rate.high,
            })
        })
        .collect();
    Block::Chart {
        caption: format!(
            "The {group}' rate (or meta-game payoff) at each variant's last stage with its 95 % interval; the line is the fair share."
        ),
        svg: plots::interval_chart_svg(
            &format!("{group}: rate by variant"),
            "rate",
            &rows,
            fair,
            Some((0.0, 1.0)),
        ),
    }
}

/// A variant's parameters as `key=value` pairs, data files by their file name.
fn short(params: &[(String, String)]) -> String {
    params
        .iter()
        .map(|(k, v)| {
            let v = Path::new(v)
                .file_name()
                .filter(|_| v.contains('/'))
                .map_or(v.clone(), |f| f.to_string_lossy().to_string());
            format!("{k}={v}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn ranking_table(ranked: &[&VariantResult]) -> Table {
    let head = [
        "rank",
        "variant",
        "status",
        "stage",
        "games",
        "rates",
        "distance",
        "cap share",
        "decisive",
        "turns",
        "Pareto",
        "why dropped",
    ];
    let interval = |m: Option<&Measure>, f: fn(&Measure) -> &super::Interval| {
        m.map_or(String::new(), |m| {
            let i = f(m);
            format!("{:.3} [{:.3}, {:.3}]", i.value, i.low, i.high)
        })
    };
    Table {
        head: head.map(String::from).to_vec(),
        rows: ranked
            .iter()
            .enumerate()
            .map(|(rank, v)| {
                let m = v.measures.last();
                vec![
                    (rank + 1).to_string(),
                    format!("`{}`", v.variant.spec),
                    v.status.clone(),
                    m.map_or(String::new(), |m| m.stage.to_string()),
                    m.map_or(String::new(), |m| m.games.to_string()),
                    m.map_or(String::new(), super::rates_text),
                    interval(m, |m| &m.deviation),
                    interval(m, |m| &m.cap_share),
                    interval(m, |m| &m.decisive),
                    m.map_or(String::new(), |m| format!("{:.1}", m.turns.value)),
                    if v.pareto { "yes" } else { "" }.into(),
                    v.reason.clone(),
                ]
            })
            .collect(),
    }
}
