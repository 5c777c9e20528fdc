//! An experiment file run end to end through the binary: a sweep of a game
//! parameter × a lineup, with every output a designer reads.

mod common;
use common::{boardlab, temp_dir};

#[test]
fn a_sweep_runs_end_to_end_with_reports_plots_and_provenance() {
    let dir = temp_dir("experiment");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sweep.toml");
    std::fs::write(
        &file,
        "description = \"Fox with 2 and 4 players\"\ngame = \"fox\"\ngames = 24\nseed = 3\nsweep = { players = [2, 4] }\nlineups = [[\"random\"]]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let run = boardlab(&[
        "experiment",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for f in [
        "cells.csv",
        "summary.csv",
        "seats.csv",
        "report.md",
        "provenance.json",
        "sweep-players-0.svg",
    ] {
        let len = std::fs::metadata(out.join(f)).map(|m| m.len()).unwrap_or(0);
        assert!(len > 0, "{f} missing or empty");
    }
    for cell in ["c000", "c001"] {
        for f in [
            "games.csv",
            "metrics.csv",
            "summary.csv",
            "report.md",
            "plot-seats.svg",
            "plot-turns.svg",
        ] {
            assert!(
                out.join("cells").join(cell).join(f).exists(),
                "{cell}/{f} missing"
            );
        }
    }
    // Common random numbers: game i of both cells has the same seed.
    let seeds = |cell: &str| -> Vec<String> {
        let text = std::fs::read_to_string(out.join("cells").join(cell).join("games.csv")).unwrap();
        text.lines()
            .skip(1)
            .filter(|l| l.split(',').nth(3) == Some("0"))
            .map(|l| l.split(',').nth(1).unwrap().to_string())
            .collect()
    };
    assert_eq!(seeds("c000"), seeds("c001"));
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("fox(players=4)") && report.contains("Fox with 2 and 4 players"),
        "{report}"
    );
    let cell_report = std::fs::read_to_string(out.join("cells/c001/report.md")).unwrap();
    assert!(
        cell_report.contains("## Game metrics") && cell_report.contains("tiles_revealed"),
        "{cell_report}"
    );
    let provenance: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("provenance.json")).unwrap()).unwrap();
    assert_eq!(provenance["seed"], 3);
    // An existing output is not overwritten without --force.
    let again = boardlab(&[
        "experiment",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(again.status.code(), Some(2));
}

#[test]
fn cells_are_compared_with_the_baseline_on_duplicate_deals() {
    let dir = temp_dir("experiment-paired");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("paired.toml");
    std::fs::write(
        &file,
        "description = \"Greedy against random, with a weaker greedy as baseline\"\ngame = \"fox\"\ngames = 40\nseed = 3\nduplicate = true\nbaseline = \"c001\"\nlineups = [[\"greedy\", \"random\"], [\"random\", \"random\"]]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let run = boardlab(&[
        "experiment",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let csv = std::fs::read_to_string(out.join("comparisons.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with(
            "cell,baseline,quantity,pairs,rate,baseline_rate,difference,ci_low,ci_high"
        )
    );
    // One cell against the baseline: two seats and two agents, 40 pairs each.
    assert_eq!(lines.len(), 5, "{csv}");
    assert!(lines[1].starts_with("c000,c001,seat 0,40,"), "{csv}");
    assert!(lines[3].starts_with("c000,c001,agent 0,40,"), "{csv}");
    // Greedy beats random by far more than luck: agent 0's difference is positive.
    let f: Vec<&str> = lines[3].split(',').collect();
    assert!(f[7].parse::<f64>().unwrap() > 0.0, "{csv}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("## Differences from the baseline cell c001"),
        "{report}"
    );
    // Every cell played duplicate deals.
    let seeds = std::fs::read_to_string(out.join("cells/c000/games.csv")).unwrap();
    let s: Vec<&str> = seeds
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(s[0], s[2]);
    assert_ne!(s[0], s[4]);
}
