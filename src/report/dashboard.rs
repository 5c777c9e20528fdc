//! One dashboard per study: `report.html`, a single self-contained page
//! (inline SVG and CSS, no scripts, nothing fetched), and `dashboard.md`
//! beside it with the same tables, for a run directory (`games.csv`) or an
//! experiment directory (`cells.csv`, `cells/*/games.csv`).
//!
//! The page opens with the headline table (endings and the share of capped
//! games, seat balance, first-player advantage, length, each with its 95 %
//! interval), then seats, roles (one row per member of a drafted set),
//! endings, length, the paired comparisons with the baseline cell
//! (`comparisons.csv`), sweeps on their own axes, and the optional study
//! files found by name beside it: `balance.csv` (balance against skill),
//! `fair*.csv` (compensation), `ablate*.csv` (component ablation),
//! `quality.csv` and `ladder.csv`. `balance.csv` is drawn as the
//! balance-against-skill curve (each group's win rate against the agents'
//! Elo). A folder holding study files but no games (a `boardlab balance`
//! output) gets a page of those sections alone.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::balance::{self, Balance, Group, first_movers, rate_points};
use super::plots::{self, RatePoint, Series, SweepPoint, escape};
use crate::arena::record::read_games;
use crate::files::{COMPARISONS_FILE, HTML_FILE, MARKDOWN_FILE};
use crate::stats::ratings::RatingOptions;
use crate::stats::{Z95, wilson};

/// A table: header and rows of text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Column names.
    pub head: Vec<String>,
    /// Rows, each as long as `head`.
    pub rows: Vec<Vec<String>>,
}

/// One piece of a section.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A paragraph (plain text; `code` in backticks is kept as is).
    Text(String),
    /// A table.
    Table(Table),
    /// An SVG chart with its caption.
    Chart {
        /// Caption.
        caption: String,
        /// The SVG element.
        svg: String,
    },
}

/// A titled section.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// Anchor id.
    pub id: String,
    /// Heading.
    pub title: String,
    /// Content.
    pub blocks: Vec<Block>,
}

/// The whole dashboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Dashboard {
    /// Page title.
    pub title: String,
    /// Lines under the title.
    pub intro: Vec<String>,
    /// Sections, the headline first.
    pub sections: Vec<Section>,
}

/// One run, or one cell of an experiment.
struct Cell {
    id: String,
    game: String,
    agents: String,
    params: Vec<(String, String)>,
    /// How many games had each length in turns.
    turns: BTreeMap<u32, u64>,
    balance: Balance,
}

fn ci(lo: f64, hi: f64) -> String {
    format!("[{lo:.3}, {hi:.3}]")
}

fn share(k: u64, n: u64) -> String {
    let (lo, hi) = wilson(k as f64, n as f64, Z95);
    let p = if n > 0 { k as f64 / n as f64 } else { 0.0 };
    format!("{p:.3} {}", ci(lo, hi))
}

fn p_text(p: f64) -> String {
    if p.is_nan() {
        "-".into()
    } else if p < 1e-4 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

fn load_cell(dir: &Path, id: String, params: Vec<(String, String)>) -> Result<Cell, String> {
    let opts = RatingOptions {
        resamples: 50,
        ..RatingOptions::default()
    };
    // One game at a time, as `summarize` reads them; a file out of game
    // order is read whole.
    let (balance, agents, turns) = match super::stream::digest(dir, &opts)? {
        Some(d) => (d.balance, d.agents, d.turns),
        None => {
            let rows = read_games(&dir.join(crate::files::GAMES_FILE))?;
            if rows.is_empty() {
                return Err(format!(
                    "{} has no games",
                    dir.join(crate::files::GAMES_FILE).display()
                ));
            }
            let first =
                first_movers(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
            let balance = balance::analyze(&rows, &opts).with_first_movers(&rows, &first);
            let mut agents: Vec<(usize, String)> = rows
                .iter()
                .map(|r| (r.agent_index, r.agent.clone()))
                .collect();
            agents.sort();
            agents.dedup();
            let mut per_game: BTreeMap<u64, u32> = BTreeMap::new();
            for r in &rows {
                per_game.insert(r.game_index, r.turns);
            }
            let mut turns: BTreeMap<u32, u64> = BTreeMap::new();
            for t in per_game.into_values() {
                *turns.entry(t).or_default() += 1;
            }
            (balance, agents, turns)
        }
    };
    Ok(Cell {
        id,
        game: balance.game.clone(),
        agents: agents
            .into_iter()
            .map(|a| a.1)
            .collect::<Vec<_>>()
            .join(", "),
        params,
        turns,
        balance,
    })
}

/// Reads a study directory: a run or the cells of an experiment.
fn load(dir: &Path) -> Result<(Vec<Cell>, usize, Vec<String>), String> {
    let cells_csv = dir.join("cells.csv");
    if cells_csv.exists() {
        let mut r = crate::fsutil::csv_reader(&cells_csv, crate::fsutil::MAX_CSV_BYTES)
            .map_err(|e| format!("cannot read {}: {e}", cells_csv.display()))?;
        let head: Vec<String> = r
            .headers()
            .map_err(|e| format!("malformed {}: {e}", cells_csv.display()))?
            .iter()
            .map(String::from)
            .collect();
        if head.first().map(String::as_str) != Some("cell") || head.len() < 3 {
            return Err(format!(
                "{} is not an experiment's cells.csv (columns cell,game,agents,...)",
                cells_csv.display()
            ));
        }
        let keys: Vec<String> = head[3..].to_vec();
        let mut cells = Vec::new();
        for rec in r.records() {
            let rec = rec.map_err(|e| format!("malformed {}: {e}", cells_csv.display()))?;
            let id = rec.get(0).unwrap_or("").to_string();
            let params = keys
                .iter()
                .enumerate()
                .map(|(i, k)| (k.clone(), rec.get(i + 3).unwrap_or("").to_string()))
                .collect();
            cells.push(load_cell(&dir.join("cells").join(&id), id, params)?);
        }
        if cells.is_empty() {
            return Err(format!("{} lists no cells", cells_csv.display()));
        }
        let base = read_table(&dir.join(COMPARISONS_FILE))
            .ok()
            .and_then(|t| {
                let col = t.head.iter().position(|h| h == "baseline")?;
                let id = t.rows.first()?.get(col)?.clone();
                cells.iter().position(|c| c.id == id)
            })
            .unwrap_or(0);
        Ok((cells, base, keys))
    } else if dir.join(crate::files::GAMES_FILE).exists() {
        Ok((
            vec![load_cell(dir, "run".into(), Vec::new())?],
            0,
            Vec::new(),
        ))
    } else {
        Err(format!(
            "{} holds neither games.csv (a run) nor cells.csv (an experiment)",
            dir.display()
        ))
    }
}

/// A CSV file as a table of text.
pub fn read_table(path: &Path) -> Result<Table, String> {
    let mut r = crate::fsutil::csv_reader(path, crate::fsutil::MAX_CSV_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let head = r
        .headers()
        .map_err(|e| format!("malformed {}: {e}", path.display()))?
        .iter()
        .map(String::from)
        .collect();
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| format!("malformed {}: {e}", path.display()))?;
        rows.push(rec.iter().map(String::from).collect());
    }
    Ok(Table { head, rows })
}

/// A cell's name in tables: its id and what varies (swept values, and the
/// agents when lineups differ between cells).
fn cell_name(c: &Cell, cells: &[Cell]) -> String {
    let mut parts: Vec<String> = c
        .params
        .iter()
        .map(|(k, v)| format!("{k}={}", v.rsplit('/').next().unwrap_or(v)))
        .collect();
    if cells.iter().any(|x| x.agents != c.agents) {
        parts.push(c.agents.clone());
    }
    if parts.is_empty() {
        c.id.clone()
    } else {
        format!("{} ({})", c.id, parts.join(", "))
    }
}

fn headline(cells: &[Cell]) -> Section {
    let mut t = Table {
        head: [
            "cell",
            "games",
            "capped",
            "decisive",
            "first player (vs fair)",
            "seats equal: Holm p",
            "furthest seat",
            "turns: mean, p90",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        rows: Vec::new(),
    };
    for c in cells {
        let b = &c.balance;
        let first = b.first_mover.as_ref().or(b.first_player());
        let worst = b.by_seat.iter().max_by(|x, y| {
            (x.tally.win_rate - b.fair)
                .abs()
                .total_cmp(&(y.tally.win_rate - b.fair).abs())
        });
        t.rows.push(vec![
            cell_name(c, cells),
            b.games.to_string(),
            share(b.truncated, b.games),
            share(b.decisive, b.games),
            first.map_or("-".into(), |g| {
                format!(
                    "{:.3} ({:+.3}) {}",
                    g.tally.win_rate,
                    g.tally.win_rate - b.fair,
                    ci(g.tally.ci_low, g.tally.ci_high)
                )
            }),
            b.seat_tests
                .first()
                .map_or("-".into(), |s| p_text(s.p_holm)),
            worst.map_or("-".into(), |g| {
                format!(
                    "{}: {:.3} {}",
                    g.label,
                    g.tally.win_rate,
                    ci(g.tally.ci_low, g.tally.ci_high)
                )
            }),
            format!("{:.1}, {:.0}", b.turns.mean, b.turns.p90),
        ]);
    }
    let mut blocks = vec![
        Block::Text(
            "Capped: games stopped by a simulation cap (the game's own or the runner's length \
             cap), which say little about balance. Decisive: a winner without a cap. The first \
             player is the seat that moved first (from metrics.csv), else seat 0; \"vs fair\" is \
             its win rate minus the pooled rate of all seats. The seat test is the omnibus \
             chi-square across seats after Holm's correction; the furthest seat is the one \
             furthest from the pooled rate. Draws count half; each share comes with its 95 % \
             Wilson interval in brackets."
                .into(),
        ),
        Block::Table(t),
    ];
    let mut endings: Vec<String> = Vec::new();
    for c in cells {
        for (e, _) in &c.balance.endings {
            if !endings.contains(e) {
                endings.push(e.clone());
            }
        }
    }
    if !endings.is_empty() {
        let mut head = vec!["cell".to_string()];
        head.extend(endings.iter().cloned());
        let rows = cells
            .iter()
            .map(|c| {
                let n: u64 = c.balance.endings.iter().map(|e| e.1).sum();
                let mut row = vec![c.id.clone()];
                for e in &endings {
                    let k = c
                        .balance
                        .endings
                        .iter()
                        .find(|x| &x.0 == e)
                        .map_or(0, |x| x.1);
                    row.push(share(k, n));
                }
                row
            })
            .collect();
        blocks.push(Block::Text(
            "How the games ended, each share with its 95 % interval (`cap`: the game's own \
             cap, `length-cap`: the runner's, `fault`: a forfeit):"
                .into(),
        ));
        blocks.push(Block::Table(Table { head, rows }));
    }
    if cells.len() > 1 {
        blocks.push(Block::Table(Table {
            head: vec!["cell".into(), "game".into(), "agents".into()],
            rows: cells
                .iter()
                .map(|c| vec![c.id.clone(), format!("`{}`", c.game), c.agents.clone()])
                .collect(),
        }));
    }
    Section {
        id: "headline".into(),
        title: "Headline".into(),
        blocks,
    }
}

fn group_table(key: &str, rows: impl Iterator<Item = (String, Group)>) -> Table {
    Table {
        head: [
            "cell", key, "games", "win rate", "95 % CI", "p", "Holm p", "flag",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        rows: rows
            .map(|(cell, g)| {
                vec![
                    cell,
                    g.label.clone(),
                    g.tally.games.to_string(),
                    format!("{:.3}", g.tally.win_rate),
                    ci(g.tally.ci_low, g.tally.ci_high),
                    p_text(g.p_value),
                    // The first player is reported beside the seats, outside
                    // Holm's family.
                    if g.label == "first player" {
                        "-".into()
                    } else {
                        p_text(g.p_holm)
                    },
                    if g.flagged { "**unbalanced**" } else { "" }.into(),
                ]
            })
            .collect(),
    }
}

/// Charts show one row per cell and seat while that stays readable.
const CHART_CELLS: usize = 12;

fn seats(cells: &[Cell], base: usize) -> Section {
    let b = &cells[base].balance;
    let shown: Vec<&Cell> = if cells.len() <= CHART_CELLS {
        cells.iter().collect()
    } else {
        vec![&cells[base]]
    };
    let multi = shown.len() > 1;
    let points: Vec<RatePoint> = shown
        .iter()
        .flat_map(|c| {
            rate_points(&c.balance.by_seat).into_iter().map(|mut p| {
                if multi {
                    p.label = format!("{} {}", c.id, p.label);
                }
                p
            })
        })
        .collect();
    let same_fair = shown.iter().all(|c| (c.balance.fair - b.fair).abs() < 1e-9);
    let mut blocks = vec![Block::Chart {
        caption: format!(
            "Win rate by seat with 95 % intervals{}; the dashed line is the fair rate, \
             intervals that exclude it in vermillion.",
            if multi { ", per cell" } else { "" }
        ),
        svg: plots::interval_chart_svg(
            "win rate by seat",
            "win rate (draw = 1/2)",
            &points,
            same_fair.then_some(b.fair),
            Some((0.0, 1.0)),
        ),
    }];
    let mut tests = Table {
        head: ["cell", "test", "statistic", "p", "Holm p", "flag"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows: Vec::new(),
    };
    for c in cells {
        for t in &c.balance.seat_tests {
            tests.rows.push(vec![
                c.id.clone(),
                t.name.clone(),
                format!("{:.3}", t.test.statistic),
                p_text(t.test.p_value),
                p_text(t.p_holm),
                if t.flagged { "**unbalanced**" } else { "" }.into(),
            ]);
        }
    }
    if !tests.rows.is_empty() {
        blocks.push(Block::Text(
            "Tests across all seats first (omnibus chi-square, Cochran-Armitage trend over seat \
             order), then each seat against the pooled rate; Holm's correction counts each \
             distinct hypothesis once per cell."
                .into(),
        ));
        blocks.push(Block::Table(tests));
    }
    blocks.push(Block::Table(group_table(
        "seat",
        cells.iter().flat_map(|c| {
            c.balance
                .by_seat
                .iter()
                .chain(c.balance.first_mover.iter())
                .map(|g| (c.id.clone(), g.clone()))
        }),
    )));
    Section {
        id: "seats".into(),
        title: "Seat balance and first-player advantage".into(),
        blocks,
    }
}

fn roles(cells: &[Cell], base: usize) -> Option<Section> {
    if cells.iter().all(|c| c.balance.by_role.is_empty()) {
        return None;
    }
    let mut blocks = vec![Block::Text(
        "Factions, roles and characters, one row per member: a seat holding a drafted set \
         (`A+B+C`) counts for each of A, B and C, never as a combination."
            .into(),
    )];
    // The chart: the baseline cell's roles, or the cell with the most roles.
    let chart_cell = if cells[base].balance.by_role.is_empty() {
        cells
            .iter()
            .max_by_key(|c| c.balance.by_role.len())
            .unwrap_or(&cells[base])
    } else {
        &cells[base]
    };
    let b = &chart_cell.balance;
    let mut points = rate_points(&b.by_role);
    points.sort_by(|x, y| y.rate.total_cmp(&x.rate));
    blocks.push(Block::Chart {
        caption: format!(
            "Win rate by role in {} ({} roles, best first) with 95 % intervals; dashed: the \
             fair rate {:.3}.",
            chart_cell.id,
            points.len(),
            b.fair
        ),
        svg: plots::interval_chart_svg(
            &format!("win rate by role ({})", chart_cell.id),
            "win rate (draw = 1/2)",
            &points,
            Some(b.fair),
            Some((0.0, 1.0)),
        ),
    });
    blocks.push(Block::Table(group_table(
        "role",
        cells
            .iter()
            .flat_map(|c| c.balance.by_role.iter().map(|g| (c.id.clone(), g.clone()))),
    )));
    Some(Section {
        id: "roles".into(),
        title: "Faction and role balance".into(),
        blocks,
    })
}

fn length(cells: &[Cell], base: usize) -> Section {
    let c = &cells[base];
    let mut blocks = Vec::new();
    if let Ok(svg) =
        plots::length_histogram_counted_svg(&format!("game length ({})", c.id), "turns", &c.turns)
    {
        blocks.push(Block::Chart {
            caption: format!("Turns per game in {} (histogram of counts).", c.id),
            svg,
        });
    }
    let mut t = Table {
        head: [
            "cell",
            "turns mean",
            "95 % CI",
            "median",
            "p90",
            "actions mean",
            "rounds mean",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        rows: Vec::new(),
    };
    for c in cells {
        let per_game = c
            .turns
            .iter()
            .flat_map(|(&t, &n)| std::iter::repeat_n(f64::from(t), n as usize));
        let (_, lo, hi, _) = crate::stats::seat_tests::mean_interval_of(per_game);
        let b = &c.balance;
        t.rows.push(vec![
            c.id.clone(),
            format!("{:.1}", b.turns.mean),
            format!("[{lo:.1}, {hi:.1}]"),
            format!("{:.1}", b.turns.median),
            format!("{:.0}", b.turns.p90),
            format!("{:.1}", b.actions.mean),
            b.rounds.map_or("-".into(), |r| format!("{:.1}", r.mean)),
        ]);
    }
    blocks.push(Block::Table(t));
    Section {
        id: "length".into(),
        title: "Game length".into(),
        blocks,
    }
}

fn column(t: &Table, name: &str) -> Option<usize> {
    t.head.iter().position(|h| h == name)
}

fn num(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

fn comparisons(dir: &Path) -> Option<Section> {
    let t = read_table(&dir.join(COMPARISONS_FILE)).ok()?;
    let (cell, q, d, lo, hi, p) = (
        column(&t, "cell")?,
        column(&t, "quantity")?,
        column(&t, "difference")?,
        column(&t, "ci_low")?,
        column(&t, "ci_high")?,
        column(&t, "p_holm").or_else(|| column(&t, "p_value"))?,
    );
    let corrected = column(&t, "p_holm").is_some();
    let base = column(&t, "baseline")
        .and_then(|b| t.rows.first()?.get(b).cloned())
        .unwrap_or_default();
    let points: Vec<RatePoint> = t
        .rows
        .iter()
        .filter(|r| r[q].starts_with("seat"))
        .filter_map(|r| {
            Some(RatePoint {
                label: format!("{} {}", r[cell], r[q]),
                rate: num(&r[d])?,
                low: num(&r[lo])?,
                high: num(&r[hi])?,
            })
        })
        .collect();
    let p_kind = if corrected {
        "after Holm's correction over every row"
    } else {
        "uncorrected"
    };
    let mut blocks = vec![Block::Text(format!(
        "Each cell against the baseline cell {base}, game by game on shared seeds: the \
         difference in win rate with its paired 95 % interval and McNemar's p ({p_kind})."
    ))];
    if !points.is_empty() {
        blocks.push(Block::Chart {
            caption: format!(
                "Seat win rate minus the baseline's ({base}); intervals that exclude 0 in \
                 vermillion."
            ),
            svg: plots::interval_chart_svg(
                &format!("difference from {base} by seat"),
                "difference in win rate",
                &points,
                Some(0.0),
                None,
            ),
        });
    }
    let rows = t
        .rows
        .iter()
        .map(|r| {
            let f = |i: usize| num(&r[i]).map_or(r[i].clone(), |x| format!("{x:+.3}"));
            vec![
                r[cell].clone(),
                r[q].clone(),
                f(d),
                format!("[{}, {}]", f(lo), f(hi)),
                num(&r[p]).map_or(r[p].clone(), p_text),
            ]
        })
        .collect();
    blocks.push(Block::Table(Table {
        head: ["cell", "quantity", "difference", "95 % CI", "p"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows,
    }));
    Some(Section {
        id: "comparisons".into(),
        title: format!("Variants against the baseline cell {base}"),
        blocks,
    })
}

fn sweeps(cells: &[Cell], keys: &[String]) -> Option<Section> {
    let mut blocks = Vec::new();
    for key in keys {
        let mut values: Vec<String> = Vec::new();
        for c in cells {
            if let Some((_, v)) = c.params.iter().find(|p| &p.0 == key)
                && !values.contains(v)
            {
                values.push(v.clone());
            }
        }
        if values.len() < 2 {
            continue;
        }
        let numeric = values.iter().all(|v| num(v).is_some());
        let mut lineups: Vec<&str> = cells.iter().map(|c| c.agents.as_str()).collect();
        lineups.dedup();
        let mut seen = Vec::new();
        for lineup in lineups {
            if seen.contains(&lineup) {
                continue;
            }
            seen.push(lineup);
            let mut series: BTreeMap<String, Vec<SweepPoint>> = BTreeMap::new();
            for c in cells.iter().filter(|c| c.agents == lineup) {
                let Some((_, v)) = c.params.iter().find(|p| &p.0 == key) else {
                    continue;
                };
                let x = if numeric {
                    num(v).unwrap_or(0.0)
                } else {
                    values.iter().position(|x| x == v).unwrap_or(0) as f64
                };
                for g in &c.balance.by_seat {
                    series.entry(g.label.clone()).or_default().push(SweepPoint {
                        x,
                        rate: g.tally.win_rate,
                        low: g.tally.ci_low,
                        high: g.tally.ci_high,
                    });
                }
            }
            let series = merge_identical_series(
                series
                    .into_iter()
                    .map(|(label, points)| Series { label, points })
                    .collect(),
            );
            let title = format!("win rate by seat against {key} ({lineup})");
            let svg = if numeric {
                plots::sweep_chart_svg(&title, key, &series).ok()
            } else {
                let categories: Vec<String> = values
                    .iter()
                    .map(|v| v.rsplit('/').next().unwrap_or(v).to_string())
                    .collect();
                Some(plots::category_chart_svg(
                    &title,
                    key,
                    &categories,
                    &series,
                    None,
                ))
            };
            if let Some(svg) = svg {
                blocks.push(Block::Chart {
                    caption: format!(
                        "Seat win rates against `{key}` with {lineup}, 95 % intervals{}{}.",
                        if numeric {
                            ""
                        } else {
                            "; the values are categories, each in its own slot"
                        },
                        identical_note(series.iter().map(|s| s.label.as_str()))
                    ),
                    svg,
                });
            }
        }
    }
    (!blocks.is_empty()).then(|| Section {
        id: "sweeps".into(),
        title: "Sweeps".into(),
        blocks,
    })
}

/// The optional study files the dashboard shows when present, by name:
/// (predicate on the file name, anchor, section title).
const STUDY_FILES: [(&str, &str, &str); 5] = [
    ("balance", "balance", "Balance as skill grows (balance.csv)"),
    ("fair", "fair", "Compensation (fair)"),
    ("ablat", "ablation", "Component ablation"),
    ("quality", "quality", "Game quality"),
    ("ladder", "ladder", "Skill ladder (ladder.csv)"),
];

/// CSV files in `dir` and its immediate subdirectories (but not `cells/`).
fn csv_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut subs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n != "cells"))
            .collect();
        subs.sort();
        dirs.extend(subs);
    }
    for d in dirs {
        if let Ok(entries) = std::fs::read_dir(&d) {
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "csv"))
                .collect();
            files.sort();
            out.extend(files);
        }
    }
    out
}

/// Chart points of a generic study table: an estimate column with an
/// interval (`ci_low`/`ci_high`, or `X_low`/`X_high` beside `X`), labelled by
/// the table's text columns.
fn generic_points(t: &Table, unit_range: bool) -> Option<(String, Vec<RatePoint>)> {
    let (value, lo, hi) = if let (Some(lo), Some(hi)) = (column(t, "ci_low"), column(t, "ci_high"))
    {
        let value = [
            "value",
            "estimate",
            "win_rate",
            "rate",
            "effect",
            "difference",
            "advantage",
        ]
        .iter()
        .find_map(|c| column(t, c))?;
        (value, lo, hi)
    } else {
        let (i, name) = t.head.iter().enumerate().find(|(_, h)| {
            column(t, &format!("{h}_low")).is_some() && column(t, &format!("{h}_high")).is_some()
        })?;
        (
            i,
            column(t, &format!("{name}_low"))?,
            column(t, &format!("{name}_high"))?,
        )
    };
    let first = t.rows.first()?;
    let labels: Vec<usize> = (0..t.head.len())
        .filter(|&i| i != value && i != lo && i != hi)
        .filter(|&i| first.get(i).is_some_and(|x| num(x).is_none()) && t.head[i] != "about")
        .take(2)
        .collect();
    let points: Vec<RatePoint> = t
        .rows
        .iter()
        .filter_map(|r| {
            let p = RatePoint {
                label: labels
                    .iter()
                    .map(|&i| r[i].as_str())
                    .collect::<Vec<_>>()
                    .join(" · "),
                rate: num(r.get(value)?)?,
                low: num(r.get(lo)?)?,
                high: num(r.get(hi)?)?,
            };
            (!unit_range || (p.low >= 0.0 && p.high <= 1.0)).then_some(p)
        })
        .collect();
    (!points.is_empty()).then(|| (t.head[value].clone(), points))
}

/// One row of a balance.csv: a group's win rate (with its interval) at one
/// budget, and the agents' Elo there when the file has it.
struct SkillRow<'a> {
    budget: f64,
    kind: &'a str,
    group: &'a str,
    games: &'a str,
    rate: [f64; 3],
    elo: Option<[f64; 3]>,
}

/// The rows of a balance.csv; `None` when a column is missing or a number
/// does not parse.
fn skill_rows(t: &Table) -> Option<Vec<SkillRow<'_>>> {
    let col = |name: &str| column(t, name);
    let (budget, kind, group, games, rate, low, high) = (
        col("budget")?,
        col("kind")?,
        col("group")?,
        col("games")?,
        col("rate")?,
        col("low")?,
        col("high")?,
    );
    let elo = [col("elo")?, col("elo_low")?, col("elo_high")?];
    let rows: Vec<SkillRow> = t
        .rows
        .iter()
        .map(|r| {
            let elo = elo
                .iter()
                .map(|&i| num(&r[i]))
                .collect::<Option<Vec<f64>>>();
            Some(SkillRow {
                budget: num(&r[budget])?,
                kind: &r[kind],
                group: &r[group],
                games: &r[games],
                rate: [num(&r[rate])?, num(&r[low])?, num(&r[high])?],
                elo: elo.map(|e| [e[0], e[1], e[2]]),
            })
        })
        .collect::<Option<Vec<SkillRow>>>()?;
    Some(rows)
}

/// What balance.json says about the run: game, agent and why it stopped.
fn skill_run_note(path: &Path) -> Option<Block> {
    let t = std::fs::read_to_string(path.with_extension("json")).ok()?;
    let j = serde_json::from_str::<serde_json::Value>(&t).ok()?;
    let field = |k: &str| j.get(k).and_then(|v| v.as_str()).unwrap_or("?").to_string();
    Some(Block::Text(format!(
        "`{}` with `{}` in every seat at each budget (iterations per decision). Stopped: {}.",
        field("game"),
        field("agent"),
        field("stop")
    )))
}

/// The fair share of a kind: the mean rate of its groups at each budget (1/n
/// for seats of a game without draws), averaged over budgets.
fn fair_share(of_kind: &[&SkillRow]) -> f64 {
    let mut budgets: Vec<f64> = of_kind.iter().map(|r| r.budget).collect();
    budgets.sort_by(f64::total_cmp);
    budgets.dedup();
    budgets
        .iter()
        .map(|b| {
            let v: Vec<f64> = of_kind
                .iter()
                .filter(|r| r.budget == *b)
                .map(|r| r.rate[0])
                .collect();
            v.iter().sum::<f64>() / v.len() as f64
        })
        .sum::<f64>()
        / budgets.len() as f64
}

/// A group's name as the chart and table print it.
fn group_label(kind: &str, g: &str) -> String {
    match kind {
        "seat" => format!("seat {g}"),
        "ending" => format!("ending {g}"),
        _ => g.to_string(),
    }
}

/// The chart of one kind: a curve per group through its budgets, against
/// Elo (or the budget), the fair share dashed unless the kind is endings.
fn skill_chart(
    kind: &str,
    of_kind: &[&SkillRow],
    names: &[&str],
    fair: f64,
    by_elo: bool,
) -> Block {
    let ending = kind == "ending";
    let x_desc = if by_elo {
        "the agents' Elo (random = 0), 95 % interval"
    } else {
        "search iterations per decision (log scale)"
    };
    let curves: Vec<plots::Curve> = names
        .iter()
        .map(|g| plots::Curve {
            label: group_label(kind, g),
            points: of_kind
                .iter()
                .filter(|r| r.group == *g)
                .map(|r| {
                    let [x, x_low, x_high] = if by_elo {
                        r.elo.unwrap_or_default()
                    } else {
                        [r.budget; 3]
                    };
                    plots::CurvePoint {
                        x,
                        x_low,
                        x_high,
                        rate: r.rate[0],
                        low: r.rate[1],
                        high: r.rate[2],
                        tag: format!("{} it", r.budget),
                    }
                })
                .collect(),
        })
        .collect();
    let curves = merge_identical(curves, |c| c.points.clone(), |c| &mut c.label);
    let what = match kind {
        "seat" => "Seat",
        "ending" => "Ending",
        _ => "Faction and role",
    };
    let measured = if ending {
        "How games end against skill: the share of games ending each way (a simulation \
             cap included)"
            .to_string()
    } else {
        format!("{what} win rates against skill")
    };
    let fair_line = if ending {
        String::new()
    } else {
        format!(", the dashed line the fair share {fair:.3}")
    };
    Block::Chart {
        caption: format!(
            "{measured}: one line per group through its budgets, \
                 vertical whiskers the rate's 95 % interval{}{fair_line}{}{}.",
            if by_elo {
                ", horizontal whiskers the Elo's"
            } else {
                ""
            },
            if curves.len() > plots::MAX_CURVES {
                format!(
                    "; the first {} of {} groups drawn",
                    plots::MAX_CURVES,
                    curves.len()
                )
            } else {
                String::new()
            },
            identical_note(curves.iter().map(|c| c.label.as_str()))
        ),
        svg: plots::skill_curve_svg(
            &if ending {
                "Endings against skill".to_string()
            } else {
                format!("{what} balance against skill")
            },
            x_desc,
            if ending {
                "share of games"
            } else {
                "win rate (draw = 1/2)"
            },
            &curves,
            (!ending).then_some(fair),
            !by_elo,
        ),
    }
}

/// The table rows of one kind, group by group.
fn skill_table_rows(
    kind: &str,
    of_kind: &[&SkillRow],
    names: &[&str],
    fair: f64,
    table: &mut Table,
) {
    let ending = kind == "ending";
    for g in names {
        for r in of_kind.iter().filter(|r| r.group == *g) {
            table.rows.push(vec![
                kind.to_string(),
                group_label(kind, g),
                format!("{}", r.budget),
                r.elo.map_or("–".into(), |e| {
                    format!("{:+.0} [{:+.0}, {:+.0}]", e[0], e[1], e[2])
                }),
                r.games.to_string(),
                format!("{:.3} {}", r.rate[0], ci(r.rate[1], r.rate[2])),
                if ending {
                    "–".to_string()
                } else {
                    format!("{:+.3}", r.rate[0] - fair)
                },
            ]);
        }
    }
}

/// The balance-against-skill curve of a `balance.csv` (`boardlab balance`):
/// per kind (seats, then roles) a chart of each group's win rate against the
/// agents' Elo at each budget (or the budget itself, on a log axis, when the
/// game has no Elo column), the fair share marked, and the same points as a
/// table. `None` when the file is not a balance.csv.
fn skill_curve(t: &Table, path: &Path) -> Option<Vec<Block>> {
    let rows = skill_rows(t)?;
    if rows.is_empty() {
        return None;
    }
    let by_elo = rows.iter().all(|r| r.elo.is_some());
    let mut blocks = Vec::new();
    blocks.extend(skill_run_note(path));
    let mut table = Table {
        head: [
            "kind",
            "group",
            "budget",
            "Elo [95 %]",
            "games",
            "win rate [95 %]",
            "vs fair share",
        ]
        .map(String::from)
        .to_vec(),
        rows: Vec::new(),
    };
    // Each kind once, in order of appearance, seats first.
    let mut kinds: Vec<&str> = Vec::new();
    for r in &rows {
        if !kinds.contains(&r.kind) {
            kinds.push(r.kind);
        }
    }
    kinds.sort_by_key(|k| *k != "seat");
    for kind in kinds {
        let of_kind: Vec<&SkillRow> = rows.iter().filter(|r| r.kind == kind).collect();
        let fair = fair_share(&of_kind);
        let mut names: Vec<&str> = Vec::new();
        for r in &of_kind {
            if !names.contains(&r.group) {
                names.push(r.group);
            }
        }
        // Endings are shares of the games, which sum to one: no fair share.
        let ending = kind == "ending";
        // A single ending is a share of one at every budget: the table says it.
        if !(ending && names.len() < 2) {
            blocks.push(skill_chart(kind, &of_kind, &names, fair, by_elo));
        }
        skill_table_rows(kind, &of_kind, &names, fair, &mut table);
    }
    blocks.push(Block::Table(table));
    Some(blocks)
}

fn study_sections(dir: &Path) -> Vec<Section> {
    let files = csv_files(dir);
    let mut out = Vec::new();
    for (prefix, id, title) in STUDY_FILES {
        for (k, path) in files
            .iter()
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(prefix))
            })
            .enumerate()
        {
            let Ok(t) = read_table(path) else { continue };
            let shown = path.strip_prefix(dir).unwrap_or(path).display().to_string();
            let mut blocks = vec![Block::Text(format!("From `{shown}`."))];
            if id == "balance"
                && let Some(curve) = skill_curve(&t, path)
            {
                blocks.extend(curve);
                out.push(Section {
                    id: format!("{id}-{k}"),
                    title: title.to_string(),
                    blocks,
                });
                continue;
            }
            // Quality metrics mix shares and counts: chart the shares only.
            if let Some((value, points)) = generic_points(&t, id == "quality") {
                blocks.push(Block::Chart {
                    caption: format!(
                        "{value} with its 95 % interval, one row per line of {shown}."
                    ),
                    svg: plots::interval_chart_svg(
                        &format!("{value} ({shown})"),
                        &value,
                        &points,
                        None,
                        (id == "quality").then_some((0.0, 1.0)),
                    ),
                });
            }
            let mut t = t;
            let rows = t.rows.len();
            t.rows.truncate(200);
            blocks.push(Block::Table(t));
            if rows > 200 {
                blocks.push(Block::Text(format!("First 200 of {rows} rows.")));
            }
            let md = path.with_extension("md");
            if id == "quality" && md.exists() {
                blocks.push(Block::Text(format!(
                    "How the metrics are computed: `{}`.",
                    md.strip_prefix(dir).unwrap_or(&md).display()
                )));
            }
            out.push(Section {
                id: format!("{id}-{k}"),
                title: title.to_string(),
                blocks,
            });
        }
    }
    out
}

/// How a line standing for several seats ends its legend text.
const IDENTICAL: &str = " (identical)";

/// Lines that would draw exactly on top of one another (seats sharing
/// every result, such as one side's seats) merged into one, whose legend
/// names them all: "seat 0 = seat 2 (identical)". `points` gives what is
/// drawn of an item, `label` its legend text.
fn merge_identical<T, P: PartialEq>(
    items: Vec<T>,
    points: impl Fn(&T) -> P,
    label: impl Fn(&mut T) -> &mut String,
) -> Vec<T> {
    let mut out: Vec<(T, Vec<String>)> = Vec::new();
    for mut item in items {
        let drawn = points(&item);
        match out.iter_mut().find(|(o, _)| points(o) == drawn) {
            Some((_, labels)) => labels.push(std::mem::take(label(&mut item))),
            None => {
                let first = label(&mut item).clone();
                out.push((item, vec![first]));
            }
        }
    }
    out.into_iter()
        .map(|(mut item, labels)| {
            if labels.len() > 1 {
                *label(&mut item) = format!("{}{IDENTICAL}", labels.join(" = "));
            }
            item
        })
        .collect()
}

/// A sweep's series with the lines that coincide merged ([`merge_identical`]).
fn merge_identical_series(series: Vec<Series>) -> Vec<Series> {
    merge_identical(
        series,
        |s| {
            let mut p = s.points.clone();
            p.sort_by(|a, b| a.x.total_cmp(&b.x));
            p
        },
        |s| &mut s.label,
    )
}

/// The caption's note naming the lines that stand for several groups.
fn identical_note<'a>(labels: impl Iterator<Item = &'a str>) -> String {
    let same: Vec<&str> = labels.filter(|l| l.ends_with(IDENTICAL)).collect();
    if same.is_empty() {
        String::new()
    } else {
        format!(
            "; groups with the same results at every point share one line: {}",
            same.join("; ")
        )
    }
}

/// The study's own name, from what it recorded: an experiment's file name
/// (provenance.json), a run's game and agents (run.json), a balance study's
/// game and agent (balance-run.json); the folder's name when none is there.
fn study_name(dir: &Path) -> String {
    let read = |file: &str| -> Option<serde_json::Value> {
        let text = crate::fsutil::read_text(&dir.join(file), crate::fsutil::MAX_TEXT_BYTES).ok()?;
        serde_json::from_str(&text).ok()
    };
    let text = |v: &serde_json::Value, key: &str| -> Option<String> {
        v.get(key)?.as_str().map(str::to_string)
    };
    if let Some(path) = read("provenance.json").and_then(|v| text(&v, "experiment")) {
        let stem = Path::new(&path)
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .filter(|s| !s.is_empty());
        if let Some(stem) = stem {
            return format!("experiment {stem}");
        }
    }
    if let Some(v) = read(crate::files::MANIFEST_FILE) {
        let agents = v.get("agents").and_then(|a| a.as_array()).map(|a| {
            a.iter()
                .filter_map(|x| x.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        });
        if let (Some(game), Some(agents)) = (text(&v, "game"), agents) {
            return format!("{game} with {agents}");
        }
    }
    if let Some(v) = read(crate::files::BALANCE_RUN_FILE)
        && let (Some(game), Some(agent)) = (text(&v, "game"), text(&v, "agent"))
    {
        return format!("balance of {game} with {agent}");
    }
    dir.canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
        .unwrap_or_else(|| dir.display().to_string())
}

/// Builds the dashboard of the study in `dir`.
pub fn build(dir: &Path) -> Result<Dashboard, String> {
    let name = study_name(dir);
    if !dir.join("cells.csv").exists() && !dir.join(crate::files::GAMES_FILE).exists() {
        // A folder of study files alone (a `balance`, `fair` or `ablate` output).
        let sections = study_sections(dir);
        if sections.is_empty() {
            return Err(format!(
                "{} holds neither games.csv (a run), cells.csv (an experiment) nor a study's \
                 balance.csv, fair.csv, ablate.csv, quality.csv or ladder.csv",
                dir.display()
            ));
        }
        return Ok(Dashboard {
            title: format!("{name}: dashboard"),
            intro: vec![format!(
                "Study files of `{}`: {}.",
                dir.display(),
                sections
                    .iter()
                    .map(|s| s.title.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )],
            sections,
        });
    }
    let (cells, base, keys) = load(dir)?;
    let mut intro = Vec::new();
    if cells.len() > 1 {
        intro.push(format!(
            "Experiment of {} cells; baseline cell {} (`{}` with {}). Cells share seeds \
             (common random numbers).",
            cells.len(),
            cells[base].id,
            cells[base].game,
            cells[base].agents
        ));
    } else {
        intro.push(format!(
            "Run of `{}` with {}: {} games.",
            cells[0].game, cells[0].agents, cells[0].balance.games
        ));
    }
    let mut sections = vec![headline(&cells), seats(&cells, base)];
    sections.extend(roles(&cells, base));
    sections.extend(comparisons(dir));
    sections.extend(sweeps(&cells, &keys));
    sections.extend(study_sections(dir));
    sections.push(length(&cells, base));
    Ok(Dashboard {
        title: format!("{name}: dashboard"),
        intro,
        sections,
    })
}

/// Builds the dashboard of `dir` and writes `report.html` and `dashboard.md` there.
pub fn write(dir: &Path) -> Result<Dashboard, String> {
    let d = build(dir)?;
    save(dir, &d)?;
    Ok(d)
}

/// Writes a dashboard's `report.html` and `dashboard.md` into `dir`.
pub fn save(dir: &Path, d: &Dashboard) -> Result<(), String> {
    for (name, text) in [(HTML_FILE, d.html()), (MARKDOWN_FILE, d.markdown())] {
        let path = dir.join(name);
        crate::fsutil::write_atomic(&path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Inline text: `code` spans and **bold**, everything else escaped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in escape(text).split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            for (j, p) in part.split("**").enumerate() {
                if j % 2 == 1 {
                    let _ = write!(out, "<strong>{p}</strong>");
                } else {
                    out.push_str(p);
                }
            }
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;\
margin:0 auto;max-width:1200px;padding:1rem 1.5rem 3rem;color:#1d232a;line-height:1.45}\
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.25rem;margin-top:2.2rem;\
border-bottom:2px solid #0072b2;padding-bottom:.2rem}nav{font-size:.9rem;margin:.6rem 0 1rem}\
nav a{margin-right:.9rem;color:#0072b2;text-decoration:none}nav a:hover{text-decoration:underline}\
.wrap{overflow-x:auto}table{border-collapse:collapse;font-size:.85rem;margin:.6rem 0 1rem}\
td{white-space:nowrap}.ci{display:block;font-size:.75rem;color:#56606b}th,td{padding:.25rem .55rem;border-bottom:1px solid #dde2e7;text-align:left;vertical-align:top}\
th{background:#eef2f6;position:sticky;top:0}tr:nth-child(even) td{background:#f8fafb}\
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
td.flag{color:#b34700;font-weight:600}figure{margin:1rem 0}figure svg{max-width:100%;height:auto;\
border:1px solid #e5e8eb}figcaption{font-size:.85rem;color:#4a5560}code{background:#f1f3f5;\
padding:0 .2rem;border-radius:3px}p.intro{color:#4a5560}";

impl Dashboard {
    /// The page: one HTML document, nothing fetched.
    pub fn html(&self) -> String {
        let mut out = String::from(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        );
        let _ = writeln!(
            out,
            "<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>",
            escape(&self.title)
        );
        let _ = writeln!(out, "<h1>{}</h1>", escape(&self.title));
        for line in &self.intro {
            let _ = writeln!(out, "<p class=\"intro\">{}</p>", inline(line));
        }
        out.push_str("<nav>");
        for s in &self.sections {
            let _ = write!(out, "<a href=\"#{}\">{}</a>", s.id, escape(&s.title));
        }
        out.push_str("</nav>\n");
        for s in &self.sections {
            let _ = writeln!(
                out,
                "<section id=\"{}\">\n<h2>{}</h2>",
                s.id,
                escape(&s.title)
            );
            for b in &s.blocks {
                match b {
                    Block::Text(t) => {
                        let _ = writeln!(out, "<p>{}</p>", inline(t));
                    }
                    Block::Chart { caption, svg } => {
                        let _ = writeln!(
                            out,
                            "<figure>\n{}\n<figcaption>{}</figcaption>\n</figure>",
                            svg.trim(),
                            inline(caption)
                        );
                    }
                    Block::Table(t) => {
                        let id = if s.id == "headline" && !out.contains("id=\"headline-table\"") {
                            " id=\"headline-table\""
                        } else {
                            ""
                        };
                        let _ = write!(out, "<div class=\"wrap\"><table{id}><thead><tr>");
                        for h in &t.head {
                            let _ = write!(out, "<th>{}</th>", escape(h));
                        }
                        out.push_str("</tr></thead><tbody>\n");
                        for r in &t.rows {
                            out.push_str("<tr>");
                            for c in r {
                                let class = if c.contains("**") {
                                    " class=\"flag\""
                                } else if c
                                    .trim_start_matches(['+', '-', '<', '['])
                                    .starts_with(|ch: char| ch.is_ascii_digit())
                                {
                                    " class=\"num\""
                                } else {
                                    ""
                                };
                                // An interval goes on a line of its own, smaller.
                                let text = match c.split_once(" [") {
                                    Some((v, i)) if i.ends_with(']') => format!(
                                        "{}<span class=\"ci\">[{}</span>",
                                        inline(v),
                                        inline(i)
                                    ),
                                    _ => inline(c),
                                };
                                let _ = write!(out, "<td{class}>{text}</td>");
                            }
                            out.push_str("</tr>\n");
                        }
                        out.push_str("</tbody></table></div>\n");
                    }
                }
            }
            out.push_str("</section>\n");
        }
        out.push_str("</body>\n</html>\n");
        out
    }

    /// The same content as Markdown (tables and text; charts are in the page).
    pub fn markdown(&self) -> String {
        let mut out = format!("# {}\n\n", self.title);
        for line in &self.intro {
            let _ = writeln!(out, "{line}\n");
        }
        let _ = writeln!(
            out,
            "Charts: see [{HTML_FILE}]({HTML_FILE}), which holds this content with its charts.\n"
        );
        for s in &self.sections {
            let _ = writeln!(out, "## {}\n", s.title);
            for b in &s.blocks {
                match b {
                    Block::Text(t) => {
                        let _ = writeln!(out, "{t}\n");
                    }
                    Block::Chart { caption, .. } => {
                        let _ = writeln!(out, "*Chart in {HTML_FILE}: {caption}*\n");
                    }
                    Block::Table(t) => {
                        let cell = |c: &str| c.replace('|', "\\|").replace('\n', " ");
                        let _ = writeln!(
                            out,
                            "| {} |",
                            t.head
                                .iter()
                                .map(|h| cell(h))
                                .collect::<Vec<_>>()
                                .join(" | ")
                        );
                        let _ = writeln!(out, "|{}", "---|".repeat(t.head.len()));
                        for r in &t.rows {
                            let _ = writeln!(
                                out,
                                "| {} |",
                                r.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | ")
                            );
                        }
                        out.push('\n');
                    }
                }
            }
        }
        out
    }
}
