//! The dashboard sections of a `boardlab compare` output (`paired.csv`): the
//! designer's final answer, a variant minus its base game, drawn as one
//! chart of the paired differences per budget with a line at zero, the
//! differences that stay beyond chance once corrected for how many were
//! looked at (Holm), and the whole table.

use std::path::Path;

use crate::report::dashboard::{Block, Section, Table, read_table};
use crate::report::plots::{self, RatePoint};
use crate::stats::holm;

/// The file `compare` writes its differences to.
pub const PAIRED_FILE: &str = "paired.csv";

/// One row of paired.csv.
struct Row {
    budget: String,
    kind: String,
    group: String,
    pairs: String,
    base: f64,
    variant: f64,
    difference: f64,
    low: f64,
    high: f64,
    p: f64,
}

impl Row {
    fn quantity(&self) -> String {
        format!("{} {}", self.kind, self.group)
    }

    fn interval(&self) -> String {
        format!(
            "{:+.3} [{:+.3}, {:+.3}]",
            self.difference, self.low, self.high
        )
    }
}

/// The sections for the paired.csv in `dir`: none when there is none, an
/// error naming the file when it is not one `compare` wrote.
pub fn paired_sections(dir: &Path) -> Result<Vec<Section>, String> {
    let path = dir.join(PAIRED_FILE);
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let rows =
        parse(&read_table(&path)?).map_err(|e| format!("malformed {}: {e}", path.display()))?;
    let title = heading(dir).unwrap_or_else(|| "Variant against base, game by game".into());
    let holm_p = holm(&rows.iter().map(|r| r.p).collect::<Vec<_>>());
    let mut blocks = vec![Block::Text(format!(
        "From `{PAIRED_FILE}` (`boardlab compare`): each row is the variant's mean minus the \
         base game's over games played from the same seeds, with its paired 95 % interval. \
         Shares (seats, roles, endings) are charted; lengths are in the table."
    ))];
    blocks.push(Block::Text(verdict(&rows, &holm_p)));
    let mut budgets: Vec<&str> = rows.iter().map(|r| r.budget.as_str()).collect();
    budgets.dedup();
    for budget in budgets {
        let points: Vec<RatePoint> = rows
            .iter()
            .filter(|r| r.budget == budget && r.kind != "length")
            .map(|r| RatePoint {
                label: r.quantity(),
                rate: r.difference,
                low: r.low,
                high: r.high,
            })
            .collect();
        if points.is_empty() {
            continue;
        }
        blocks.push(Block::Chart {
            caption: format!(
                "Variant minus base at budget {budget}, each share with its paired 95 % interval; the line is no difference."
            ),
            svg: plots::interval_chart_svg(
                &format!("Paired differences, budget {budget}"),
                "difference (variant − base)",
                &points,
                Some(0.0),
                None,
            ),
        });
    }
    blocks.push(Block::Table(table(&rows, &holm_p)));
    Ok(vec![Section {
        id: "paired".into(),
        title,
        blocks,
    }])
}

/// The heading `compare` gave paired.md, naming the variant and the base.
fn heading(dir: &Path) -> Option<String> {
    let md = crate::fsutil::read_text(&dir.join("paired.md"), 1 << 20).ok()?;
    let line = md.lines().next()?.strip_prefix("## ")?.trim();
    (!line.is_empty()).then(|| line.to_string())
}

/// One sentence: which differences survive Holm's correction over every row.
fn verdict(rows: &[Row], holm_p: &[f64]) -> String {
    let beyond: Vec<String> = rows
        .iter()
        .zip(holm_p)
        .filter(|(_, p)| **p <= 0.05)
        .map(|(r, _)| format!("{} at budget {} {}", r.quantity(), r.budget, r.interval()))
        .collect();
    if beyond.is_empty() {
        format!(
            "No difference is beyond chance once corrected for the {} looked at (Holm, 5 %): \
             at these game counts the variant is not shown to change anything measured.",
            rows.len()
        )
    } else {
        format!(
            "Beyond chance once corrected for the {} differences looked at (Holm, 5 %): {}.",
            rows.len(),
            beyond.join("; ")
        )
    }
}

fn table(rows: &[Row], holm_p: &[f64]) -> Table {
    let head = [
        "budget",
        "quantity",
        "pairs",
        "base",
        "variant",
        "difference [95 %]",
        "p",
        "Holm p",
        "beyond chance",
    ];
    Table {
        head: head.map(String::from).to_vec(),
        rows: rows
            .iter()
            .zip(holm_p)
            .map(|(r, &h)| {
                vec![
                    r.budget.clone(),
                    r.quantity(),
                    r.pairs.clone(),
                    format!("{:.3}", r.base),
                    format!("{:.3}", r.variant),
                    r.interval(),
                    format!("{:.4}", r.p),
                    format!("{h:.4}"),
                    if h <= 0.05 { "yes" } else { "" }.into(),
                ]
            })
            .collect(),
    }
}

/// paired.csv's rows, checked column by column.
fn parse(t: &Table) -> Result<Vec<Row>, String> {
    let col = |name: &str| {
        t.head
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("no column `{name}`"))
    };
    let [
        budget,
        kind,
        group,
        pairs,
        base,
        variant,
        difference,
        low,
        high,
        p,
    ] = [
        "budget",
        "kind",
        "group",
        "pairs",
        "base",
        "variant",
        "difference",
        "ci_low",
        "ci_high",
        "p_value",
    ]
    .map(col);
    let (budget, kind, group, pairs) = (budget?, kind?, group?, pairs?);
    let numbers = [base?, variant?, difference?, low?, high?, p?];
    let mut out = Vec::with_capacity(t.rows.len());
    for (i, row) in t.rows.iter().enumerate() {
        let cell = |c: usize| row.get(c).map(String::as_str).unwrap_or("");
        let mut x = [0.0; 6];
        for (slot, &c) in x.iter_mut().zip(&numbers) {
            *slot = cell(c)
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    format!(
                        "row {}: `{}` is not a number ({})",
                        i + 2,
                        cell(c),
                        t.head[c]
                    )
                })?;
        }
        out.push(Row {
            budget: cell(budget).to_string(),
            kind: cell(kind).to_string(),
            group: cell(group).to_string(),
            pairs: cell(pairs).to_string(),
            base: x[0],
            variant: x[1],
            difference: x[2],
            low: x[3],
            high: x[4],
            p: x[5],
        });
    }
    if out.is_empty() {
        return Err("no rows".into());
    }
    Ok(out)
}
