//! Drives the real binary's `ladder`: a small iteration-budget ladder on
//! tic-tac-toe writes its CSV files and chart, rates random play at 0 and the
//! larger budget above the smaller, and refuses bad input with one line.

mod common;
use common::{boardlab, temp_dir};

fn ladder(out: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "ladder",
        "--game",
        "tictactoe",
        "--agents",
        "mcts,greedy",
        "--iterations",
        "2,100",
        "--games",
        "16",
        "--resamples",
        "40",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    boardlab(&args)
}

#[test]
fn ladder_rates_budgets_against_random_play() {
    let dir = temp_dir("ladder");
    let d = dir.to_str().unwrap();
    let out = ladder(d, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.join("ladder.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let labels: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(
        labels,
        ["random", "mcts@2it", "mcts@100it", "greedy"],
        "{csv}"
    );
    let elo = |i: usize| rows[i][8].parse::<f64>().unwrap();
    assert_eq!(elo(0), 0.0, "{csv}");
    assert!(elo(2) > elo(1), "{csv}");
    assert!(rows[2][9].parse::<f64>().unwrap() > 0.0, "{csv}");
    let svg = std::fs::read_to_string(dir.join("ladder.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("mcts"), "{svg}");
    let meetings = std::fs::read_to_string(dir.join("meetings.csv")).unwrap();
    assert!(meetings.contains("mcts@100it,mcts@2it,16,"), "{meetings}");
    // Same seed, same ladder (iteration budgets are machine-independent).
    let again = temp_dir("ladder-again");
    assert!(
        ladder(again.to_str().unwrap(), &["--threads", "2"])
            .status
            .success()
    );
    assert_eq!(
        meetings,
        std::fs::read_to_string(again.join("meetings.csv")).unwrap()
    );
    // An existing ladder is kept without --force.
    let out = ladder(d, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--force") && err.trim().lines().count() == 1,
        "{err}"
    );
}

#[test]
fn ladder_budgets_in_cpu_time_name_the_clock() {
    let dir = temp_dir("ladder-cpu");
    let d = dir.to_str().unwrap();
    let out = boardlab(&[
        "ladder",
        "--game",
        "tictactoe",
        "--agents",
        "mcts",
        "--cpu-ms",
        "1,2",
        "--games",
        "2",
        "--resamples",
        "10",
        "--out",
        d,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.join("ladder.csv")).unwrap();
    assert!(
        csv.contains("\nmcts@1cpu_ms,mcts,1,cpu_ms,")
            && csv.contains("\nmcts@2cpu_ms,mcts,2,cpu_ms,"),
        "{csv}"
    );
}

#[test]
fn ladder_bad_input_is_one_line() {
    let dir = temp_dir("ladder-bad");
    let d = dir.to_str().unwrap();
    for args in [
        vec![
            "ladder",
            "--game",
            "tictactoe",
            "--agents",
            "mcts",
            "--time-ms",
            "5,x",
            "--out",
            d,
        ],
        vec![
            "ladder",
            "--game",
            "tictactoe",
            "--agents",
            "mcts",
            "--out",
            d,
        ],
        vec![
            "ladder",
            "--game",
            "tictactoe",
            "--agents",
            "random",
            "--iterations",
            "5",
            "--out",
            d,
        ],
        vec![
            "ladder",
            "--game",
            "fox(players=3)",
            "--agents",
            "mcts",
            "--iterations",
            "5",
            "--out",
            d,
        ],
        vec![
            "ladder",
            "--game",
            "tictactoe",
            "--agents",
            "mcts",
            "--iterations",
            "5",
            "--cpu-ms",
            "5",
            "--out",
            d,
        ],
        vec![
            "ladder",
            "--game",
            "tictactoe",
            "--agents",
            "mcts",
            "--cpu-ms",
            "0",
            "--out",
            d,
        ],
    ] {
        let out = boardlab(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}
