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
