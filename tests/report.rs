//! Drives the real binary for the analysis commands: `summarize` rebuilds a
//! run's files from games.csv alone, `sprt` decides between two Elo
//! hypotheses on game pairs.

mod common;
use common::{boardlab, temp_dir};

use std::process::Output;

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn summarize_reproduces_the_run_summaries() {
    let dir = temp_dir("summarize");
    let d = dir.to_str().unwrap();
    let run = stdout(&boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,mcts(iterations=20)",
        "--games",
        "60",
        "--seed",
        "4",
        "--out",
        d,
        "-q",
    ]));
    let summary = std::fs::read(dir.join("summary.csv")).unwrap();
    let seats = std::fs::read(dir.join("seats.csv")).unwrap();
    std::fs::remove_file(dir.join("summary.csv")).unwrap();
    std::fs::remove_file(dir.join("seats.csv")).unwrap();
    let out = stdout(&boardlab(&["summarize", d]));
    assert_eq!(std::fs::read(dir.join("summary.csv")).unwrap(), summary);
    assert_eq!(std::fs::read(dir.join("seats.csv")).unwrap(), seats);
    // The same table (and seat line) as `run` printed.
    let table: Vec<&str> = run
        .lines()
        .skip_while(|l| !l.starts_with("#"))
        .take_while(|l| !l.starts_with("results in"))
        .collect();
    assert!(table.len() >= 4, "{run}");
    assert!(
        out.contains(&table.join("\n")),
        "run:\n{run}\nsummarize:\n{out}"
    );
    let ratings = std::fs::read_to_string(dir.join("ratings.csv")).unwrap();
    assert!(ratings.starts_with("agent_index,agent,model,games,elo,elo_low,elo_high\n"));
    assert!(
        ratings.contains(",mcts(iterations=20),Bradley-Terry,60,"),
        "{ratings}"
    );
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for needle in [
        "# Balance report: tictactoe",
        "## Win rate by seat",
        "## Ratings",
    ] {
        assert!(report.contains(needle), "missing {needle}:\n{report}");
    }
    for plot in ["plot-seats.svg", "plot-turns.svg"] {
        let svg = std::fs::read_to_string(dir.join(plot)).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("tictactoe"),
            "{plot}"
        );
    }
    // Deterministic: a second pass writes the same report.
    stdout(&boardlab(&["summarize", d]));
    assert_eq!(
        std::fs::read_to_string(dir.join("report.md")).unwrap(),
        report
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn summarize_without_games_is_a_one_line_error() {
    let dir = temp_dir("missing");
    let out = boardlab(&["summarize", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("games.csv") && err.trim().lines().count() == 1,
        "{err}"
    );
}

fn sprt(agents: &str, threads: &str) -> Output {
    boardlab(&[
        "sprt",
        "--game",
        "tictactoe",
        "--agents",
        agents,
        "--elo0",
        "0",
        "--elo1",
        "50",
        "--seed",
        "3",
        "--batch",
        "10",
        "--max-games",
        "2000",
        "--threads",
        threads,
    ])
}

#[test]
fn sprt_accepts_h1_for_the_stronger_agent() {
    let out = stdout(&sprt("mcts(iterations=200),random", "2"));
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(out.contains("bounds [-2.944, 2.944]"), "{out}");
    let elo = out
        .lines()
        .find_map(|l| l.strip_prefix("Elo of A over B: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|e| e.parse::<f64>().ok())
        .unwrap_or(f64::NAN);
    assert!(elo > 50.0, "{out}");
}

#[test]
fn sprt_accepts_h0_for_the_weaker_agent_whatever_the_threads() {
    let one = stdout(&sprt("random,mcts(iterations=200)", "1"));
    assert!(one.contains("H0 accepted"), "{one}");
    let last_llr = one
        .lines()
        .filter_map(|l| l.split("LLR ").nth(1))
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|v| v.parse::<f64>().ok())
        .next_back()
        .unwrap_or(0.0);
    assert!(last_llr <= -2.944, "{one}");
    assert_eq!(one, stdout(&sprt("random,mcts(iterations=200)", "2")));
}

#[test]
fn sprt_waits_for_ten_pairs_and_reports_no_decision_at_the_cap() {
    let out = boardlab(&[
        "sprt",
        "--game",
        "connect4",
        "--agents",
        "mcts(iterations=4),mcts(iterations=3)",
        "--elo1",
        "50",
        "--batch",
        "1",
        "--max-games",
        "22",
        "--threads",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1), "no decision: exit 1");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().filter(|l| l.starts_with("games ")).count(), 11);
    assert!(text.contains("no decision after 22 games"), "{text}");
}

/// Karmaka and Karmox draw their first player (Karmox after setup decisions
/// by every seat): metrics.csv names each game's first player, and the report
/// reads the first-player advantage from it rather than from seat 0.
#[test]
fn first_player_advantage_follows_the_drawn_first_player() {
    for (game, games) in [("karmaka", 40), ("karmox(max_rounds=3)", 40)] {
        let dir = temp_dir("first-player");
        let d = dir.to_str().unwrap();
        let n = games.to_string();
        stdout(&boardlab(&[
            "run",
            "--game",
            game,
            "--agents",
            "random,random",
            "--games",
            &n,
            "--seed",
            "2",
            "--out",
            d,
            "-q",
            "--force",
        ]));
        stdout(&boardlab(&["summarize", d]));
        let metrics = std::fs::read_to_string(dir.join("metrics.csv")).unwrap();
        let mut first = std::collections::BTreeMap::new();
        for line in metrics.lines().filter(|l| l.contains(",first_player,")) {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f[3].parse::<f64>().ok(), Some(1.0), "{line}");
            assert!(
                first.insert(f[0].to_string(), f[1].to_string()).is_none(),
                "twice: {line}"
            );
        }
        assert_eq!(first.len(), games, "{game}: one first player per game");
        let seats: std::collections::BTreeSet<&String> = first.values().collect();
        assert_eq!(
            seats.len(),
            2,
            "{game}: the draw picks both seats over {games} games"
        );
        let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
        assert!(
            report.contains("First-player advantage: the first player scores"),
            "{report}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
