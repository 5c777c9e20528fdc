//! The game metrics section of a balance report: what winners do more of.

use std::collections::BTreeMap;
use std::path::Path;

use crate::arena::record::{self, GameRow};

/// Appends to the report.md in `dir` the mean of each game metric over all seats,
/// over the seats that won and over those that lost: what winners do more of.
pub fn append_to_report(dir: &Path, rows: &[GameRow]) -> std::io::Result<()> {
    let path = dir.join(crate::files::METRICS_FILE);
    if !path.exists() {
        return Ok(());
    }
    let mut reader = crate::fsutil::csv_reader(&path, crate::fsutil::MAX_CSV_BYTES)?;
    let outcome: std::collections::HashMap<(u64, u8), crate::game::Outcome> = rows
        .iter()
        .map(|r| ((r.game_index, r.seat), r.outcome))
        .collect();
    let (mut winners, mut losers) = (0f64, 0f64);
    for r in rows {
        match r.outcome {
            crate::game::Outcome::Win => winners += 1.0,
            crate::game::Outcome::Loss => losers += 1.0,
            crate::game::Outcome::Draw => {}
        }
    }
    // Metric → (sum over all seats, sum over winners, sum over losers); seats
    // without a row for a metric count as zero (games report non-zero counts only).
    let mut sums: BTreeMap<String, [f64; 3]> = BTreeMap::new();
    for m in reader.deserialize::<record::MetricRow>() {
        let m = m.map_err(std::io::Error::other)?;
        let s = sums.entry(m.metric).or_default();
        s[0] += m.value;
        match outcome.get(&(m.game_index, m.seat)) {
            Some(crate::game::Outcome::Win) => s[1] += m.value,
            Some(crate::game::Outcome::Loss) => s[2] += m.value,
            _ => {}
        }
    }
    append_sums(dir, &sums, rows.len() as f64, winners, losers)
}

/// Metric → (sum over all seats, sum over winners, sum over losers).
pub(crate) type Sums = BTreeMap<String, [f64; 3]>;

/// Appends the metrics section for `sums` over `seats` rows, `winners` and
/// `losers` of them won or lost.
pub(crate) fn append_sums(
    dir: &Path,
    sums: &Sums,
    seats: f64,
    winners: f64,
    losers: f64,
) -> std::io::Result<()> {
    use std::fmt::Write as _;
    if sums.is_empty() {
        return Ok(());
    }
    let mut md = String::from(
        "\n## Game metrics\n\nMean per seat and game (metrics.csv); a seat without a row for a metric counts as 0.\n\n| metric | all seats | winners | losers |\n|---|---:|---:|---:|\n",
    );
    let per = |sum: f64, n: f64| {
        if n > 0.0 {
            format!("{:.3}", sum / n)
        } else {
            "-".into()
        }
    };
    for (name, [all, win, loss]) in sums {
        let _ = writeln!(
            md,
            "| {name} | {} | {} | {} |",
            per(*all, seats),
            per(*win, winners),
            per(*loss, losers)
        );
    }
    let path = dir.join("report.md");
    let mut report = crate::fsutil::read_text(&path, crate::fsutil::MAX_TEXT_BYTES)?;
    report.push_str(&md);
    crate::fsutil::write_atomic(&path, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_over_all_winners_and_losers() {
        let dir = std::env::temp_dir().join(format!("boardlab-metrics-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Four games; seat 0 wins games 0 and 1, seat 1 wins games 2 and 3.
        let rows = crate::report::balance::tests::rows(4, 2, 0);
        // Only winners report "bonus" (3 each); every seat reports "turns" = 10.
        let mut csv = String::from("game_index,seat,metric,value\n");
        for g in 0..4 {
            let winner = if g < 2 { 0 } else { 1 };
            csv.push_str(&format!(
                "{g},{winner},bonus,3\n{g},0,turns,10\n{g},1,turns,10\n"
            ));
        }
        std::fs::write(dir.join("metrics.csv"), csv).unwrap();
        std::fs::write(dir.join("report.md"), "# r\n").unwrap();
        append_to_report(&dir, &rows).unwrap();
        let text = std::fs::read_to_string(dir.join("report.md")).unwrap();
        assert!(text.starts_with("# r\n"), "{text}");
        assert!(text.contains("| bonus | 1.500 | 3.000 | 0.000 |"), "{text}");
        assert!(
            text.contains("| turns | 10.000 | 10.000 | 10.000 |"),
            "{text}"
        );
    }
}
