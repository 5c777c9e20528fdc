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

/// ladder.csv without its timing column (cpu_ms_per_decision, the 8th).
fn ratings(path: &std::path::Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(7);
            f.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn an_interrupted_ladder_resumes_to_the_same_ratings() {
    let whole = temp_dir("ladder-whole");
    let cut = temp_dir("ladder-cut");
    for dir in [&whole, &cut] {
        let out = ladder(dir.to_str().unwrap(), &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The interruption: the outputs were never written and the journal
    // stops after a few pairs, in the middle of a line.
    let journal = std::fs::read_to_string(cut.join("pairs.csv")).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    assert_eq!(
        lines.len(),
        1 + 5 * 8,
        "header and 8 pairs for each of 5 meetings"
    );
    // In meeting and pair order, whichever thread finished a pair first.
    let keys: Vec<(u64, u64)> = lines[1..]
        .iter()
        .map(|l| {
            let f: Vec<u64> = l.split(',').take(2).map(|x| x.parse().unwrap()).collect();
            (f[0], f[1])
        })
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "{journal}");
    let kept = 1 + 13;
    let torn = format!("{}\n{}", lines[..kept].join("\n"), &lines[kept][..5]);
    std::fs::write(cut.join("pairs.csv"), torn).unwrap();
    for f in ["ladder.csv", "meetings.csv", "ladder.svg"] {
        std::fs::remove_file(cut.join(f)).unwrap();
    }
    let out = ladder(cut.to_str().unwrap(), &["--resume"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("13 pairs of games already played"), "{said}");
    let resumed = std::fs::read_to_string(cut.join("pairs.csv")).unwrap();
    assert_eq!(resumed.lines().count(), lines.len(), "{resumed}");
    assert!(resumed.starts_with(&lines[..kept].join("\n")), "{resumed}");
    assert_eq!(
        std::fs::read_to_string(whole.join("meetings.csv")).unwrap(),
        std::fs::read_to_string(cut.join("meetings.csv")).unwrap()
    );
    assert_eq!(
        ratings(&whole.join("ladder.csv")),
        ratings(&cut.join("ladder.csv"))
    );

    // Another seed is another ladder; a folder without one cannot resume.
    let empty = temp_dir("ladder-none");
    for (dir, extra, word) in [
        (&cut, vec!["--resume", "--seed", "9"], "seed"),
        (&empty, vec!["--resume"], "ladder.json"),
    ] {
        let out = ladder(dir.to_str().unwrap(), &extra);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(word) && err.trim().lines().count() == 1,
            "{err}"
        );
    }
}
