//! The dashboard's sections for a `boardlab metagame` folder: each budget's
//! payoff matrix as a heat map, the value with its interval, the mixes, and
//! the value against budget beside each member's self-play.

use std::fmt::Write as _;
use std::path::Path;

use super::dashboard::{Block, Section, Table};
use super::plots::{self, RatePoint, escape};
use crate::metagame::{BudgetPoint, Solution};

fn read_solution(path: &Path) -> Option<Solution> {
    let text = crate::fsutil::read_text(path, crate::fsutil::MAX_TEXT_BYTES).ok()?;
    serde_json::from_str(&text).ok()
}

/// Side 0's payoff per cell of a two-sided meta-game, from matrix.csv.
fn side0_matrix(dir: &Path, sol: &Solution) -> Option<Vec<Vec<f64>>> {
    let k = sol.population.len();
    let mut reader =
        crate::fsutil::csv_reader(&dir.join("matrix.csv"), crate::fsutil::MAX_CSV_BYTES).ok()?;
    let mut m = vec![vec![f64::NAN; k]; k];
    for rec in reader.records() {
        let rec = rec.ok()?;
        if rec.get(2)? != "0" {
            continue;
        }
        let i = sol
            .population
            .iter()
            .position(|p| p == rec.get(0).unwrap_or(""))?;
        let j = sol
            .population
            .iter()
            .position(|p| p == rec.get(1).unwrap_or(""))?;
        m[i][j] = rec.get(4)?.parse().ok()?;
    }
    Some(m)
}

/// A heat map of side 0's payoff: rows side 0's member, columns side 1's,
/// darker where side 0 does better, the value printed in every cell.
pub fn heat_map_svg(
    title: &str,
    population: &[String],
    m: &[Vec<f64>],
    range: (f64, f64),
) -> String {
    let k = population.len();
    let label_w = 10.0
        * population
            .iter()
            .map(|p| p.chars().count())
            .max()
            .unwrap_or(4) as f64
        + 16.0;
    let cell = 64.0;
    let (top, left) = (60.0 + label_w * 0.0, label_w);
    let w = left + cell * k as f64 + 20.0;
    let h = top + cell * k as f64 + label_w + 10.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="heatmap" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" role="img" aria-label="{t}"><title>{t}</title><text x="4" y="18" font-size="14" font-family="sans-serif">{t}</text><text x="4" y="38" font-size="11" font-family="sans-serif">rows: side 0's member; columns: side 1's</text>"#,
        t = escape(title)
    );
    let (lo, hi) = range;
    for (i, row) in m.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let x = left + cell * j as f64;
            let y = top + cell * i as f64;
            let t = if hi > lo {
                ((v - lo) / (hi - lo)).clamp(0.0, 1.0)
            } else {
                0.5
            };
            // From a light to a dark blue; the text flips to white on dark cells.
            let shade = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
            let fill = format!(
                "rgb({},{},{})",
                shade(239.0, 8.0),
                shade(243.0, 48.0),
                shade(255.0, 107.0)
            );
            let ink = if t > 0.55 { "white" } else { "black" };
            let _ = write!(
                s,
                r#"<rect class="cell" x="{x:.1}" y="{y:.1}" width="{cell}" height="{cell}" fill="{fill}" stroke="white"><title>{} against {}: {v:.3}</title></rect><text x="{:.1}" y="{:.1}" font-size="13" font-family="sans-serif" text-anchor="middle" fill="{ink}">{v:.3}</text>"#,
                escape(&population[i]),
                escape(&population[j]),
                x + cell / 2.0,
                y + cell / 2.0 + 4.0,
            );
        }
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="12" font-family="sans-serif" text-anchor="end">{}</text>"#,
            left - 6.0,
            top + cell * i as f64 + cell / 2.0 + 4.0,
            escape(&population[i])
        );
    }
    for (j, p) in population.iter().enumerate() {
        let x = left + cell * j as f64 + cell / 2.0;
        let y = top + cell * k as f64 + 8.0;
        let _ = write!(
            s,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="12" font-family="sans-serif" transform="rotate(45 {x:.1} {y:.1})">{}</text>"#,
            escape(p)
        );
    }
    s.push_str("</svg>");
    s
}

fn solution_blocks(dir: &Path, sol: &Solution) -> Vec<Block> {
    let mut blocks = Vec::new();
    let what = if sol.solution == "nash" {
        "Value of the meta-game (side 0's score when each side plays its best mix of the population)"
    } else {
        "Side 0's score at the end of replicator dynamics from the uniform mix"
    };
    blocks.push(Block::Text(format!(
        "**{what}: {:.3} [{:.3}, {:.3}]**{}. {} games a cell at least; payoff `{}`.",
        sol.value,
        sol.ci_low,
        sol.ci_high,
        sol.fair
            .map_or(String::new(), |f| format!(" (fair: {f:.3})")),
        sol.games_per_cell,
        match sol.payoff {
            crate::metagame::Payoff::Win => "win",
            crate::metagame::Payoff::Return => "return",
        }
    )));
    let mut mixes = Table {
        head: ["side", "seats", "payoff", "95 % CI", "mix"]
            .map(String::from)
            .to_vec(),
        rows: Vec::new(),
    };
    for (i, side) in sol.sides.iter().enumerate() {
        let e = &sol.side_payoffs[i];
        let seats: Vec<String> = side.seats.iter().map(|s| s.to_string()).collect();
        let mix: Vec<String> = sol.support[i]
            .iter()
            .map(|w| format!("{} {:.2}", w.agent, w.weight))
            .collect();
        mixes.rows.push(vec![
            side.name.clone(),
            seats.join(", "),
            format!("{:.3}", e.value),
            format!("[{:.3}, {:.3}]", e.ci_low, e.ci_high),
            mix.join(", "),
        ]);
    }
    blocks.push(Block::Table(mixes));
    if sol.sides.len() == 2
        && let Some(m) = side0_matrix(dir, sol)
    {
        let range = match sol.payoff {
            crate::metagame::Payoff::Win => (0.0, 1.0),
            crate::metagame::Payoff::Return => {
                let all = m.iter().flatten().copied();
                (
                    all.clone().fold(f64::INFINITY, f64::min),
                    all.fold(f64::NEG_INFINITY, f64::max),
                )
            }
        };
        blocks.push(Block::Chart {
            caption: "Side 0's payoff in every cell (matrix.csv).".into(),
            svg: heat_map_svg(
                &format!("{}: side 0's payoff", sol.game),
                &sol.population,
                &m,
                range,
            ),
        });
    }
    let points: Vec<RatePoint> = std::iter::once(RatePoint {
        label: "meta-game".into(),
        rate: sol.value,
        low: sol.ci_low,
        high: sol.ci_high,
    })
    .chain(sol.self_play.iter().map(|sp| RatePoint {
        label: format!("self-play: {}", sp.agent),
        rate: sp.side0.value,
        low: sp.side0.ci_low,
        high: sp.side0.ci_high,
    }))
    .collect();
    blocks.push(Block::Chart {
        caption: "Side 0's payoff: the meta-game's value beside each member's self-play.".into(),
        svg: plots::interval_chart_svg(
            &format!("{}: meta-game and self-play", sol.game),
            "side 0's payoff",
            &points,
            sol.fair,
            (sol.payoff == crate::metagame::Payoff::Win).then_some((0.0, 1.0)),
        ),
    });
    blocks
}

/// The sections of a metagame folder (`metagame.json`, or `convergence.json`
/// over `budget-*/`), or `None` when `dir` is not one.
pub fn sections(dir: &Path) -> Option<Vec<Section>> {
    if let Some(sol) = read_solution(&dir.join("metagame.json")) {
        return Some(vec![Section {
            id: "metagame".into(),
            title: "Meta-game".into(),
            blocks: solution_blocks(dir, &sol),
        }]);
    }
    let text =
        crate::fsutil::read_text(&dir.join("convergence.json"), crate::fsutil::MAX_TEXT_BYTES)
            .ok()?;
    let conv: serde_json::Value = serde_json::from_str(&text).ok()?;
    let points: Vec<BudgetPoint> = serde_json::from_value(conv.get("budgets")?.clone()).ok()?;
    let stable = conv
        .get("stable")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let tol = conv
        .get("tolerance")
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    let mut first = vec![Block::Text(format!(
        "The same population at {} budgets. {}",
        points.len(),
        if stable {
            format!(
                "The last two budgets' values agree within ±{tol} (TOST, 5 %): the value is stable."
            )
        } else {
            format!(
                "The last two budgets' values are not shown to agree within ±{tol}: play more games or higher budgets."
            )
        }
    ))];
    let rows: Vec<RatePoint> = points
        .iter()
        .map(|p| RatePoint {
            label: format!("budget {}", p.budget),
            rate: p.value.value,
            low: p.value.ci_low,
            high: p.value.ci_high,
        })
        .collect();
    first.push(Block::Chart {
        caption: "The meta-game's value against budget, with 95 % bootstrap intervals.".into(),
        svg: plots::interval_chart_svg(
            "Meta-game value against budget",
            "side 0's payoff",
            &rows,
            None,
            None,
        ),
    });
    let mut table = Table {
        head: ["budget", "value", "95 % CI", "TOST p"]
            .map(String::from)
            .to_vec(),
        rows: Vec::new(),
    };
    for p in &points {
        table.rows.push(vec![
            p.budget.to_string(),
            format!("{:.3}", p.value.value),
            format!("[{:.3}, {:.3}]", p.value.ci_low, p.value.ci_high),
            p.tost_p.map_or(String::new(), |t| format!("{t:.3}")),
        ]);
    }
    first.push(Block::Table(table));
    let mut out = vec![Section {
        id: "convergence".into(),
        title: "Meta-game against budget".into(),
        blocks: first,
    }];
    for p in &points {
        let sub = dir.join(format!("budget-{}", p.budget));
        if let Some(sol) = read_solution(&sub.join("metagame.json")) {
            out.push(Section {
                id: format!("metagame-{}", p.budget),
                title: format!("Meta-game at budget {}", p.budget),
                blocks: solution_blocks(&sub, &sol),
            });
        }
    }
    Some(out)
}
