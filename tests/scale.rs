//! Crash safety and scale-out through the real binary: resume after `kill -9`
//! or a torn line, shards merged into the single-machine result, and faults
//! contained to the game they happen in.

mod common;
use common::{boardlab, temp_dir, without_timing};

use std::path::PathBuf;
use std::process::Command;

fn run_args<'a>(dir: &'a str, games: &'a str) -> Vec<&'a str> {
    vec![
        "run",
        "--game",
        "connect4",
        "--agents",
        "random,random",
        "--games",
        games,
        "--seed",
        "4",
        "--out",
        dir,
        "-q",
        "--threads",
        "2",
    ]
}

#[test]
fn resume_after_a_torn_line_equals_an_uninterrupted_run() {
    let full = temp_dir("full");
    assert!(
        boardlab(&run_args(full.to_str().unwrap(), "500"))
            .status
            .success()
    );
    let cut = temp_dir("cut");
    assert!(
        boardlab(&run_args(cut.to_str().unwrap(), "500"))
            .status
            .success()
    );
    // Simulate a crash: keep 137 rows and half of the next line, drop the summaries.
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let torn = format!("{}\n{}", lines[..138].join("\n"), &lines[138][..20]);
    std::fs::write(cut.join("games.csv"), torn).unwrap();
    std::fs::remove_file(cut.join("summary.csv")).unwrap();
    let mut args = run_args(cut.to_str().unwrap(), "500");
    args.push("--resume");
    let out = boardlab(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("68 games were already done"));
    assert_eq!(
        without_timing(&cut.join("games.csv")),
        without_timing(&full.join("games.csv"))
    );
    assert_eq!(
        std::fs::read_to_string(cut.join("summary.csv")).unwrap(),
        std::fs::read_to_string(full.join("summary.csv")).unwrap()
    );
}

#[test]
fn resume_after_kill_9_equals_an_uninterrupted_run() {
    let games = "60000";
    let full = temp_dir("k-full");
    assert!(
        boardlab(&run_args(full.to_str().unwrap(), games))
            .status
            .success()
    );
    let killed = temp_dir("k-killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(run_args(killed.to_str().unwrap(), games))
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(150));
    child.kill().unwrap(); // SIGKILL on Unix.
    child.wait().unwrap();
    let partial = std::fs::read_to_string(killed.join("games.csv"))
        .unwrap_or_default()
        .lines()
        .count();
    assert!(
        partial < 120_001,
        "the run finished before it was killed; raise the game count"
    );
    let mut args = run_args(killed.to_str().unwrap(), games);
    args.push("--resume");
    let out = boardlab(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        without_timing(&killed.join("games.csv")),
        without_timing(&full.join("games.csv"))
    );
}

#[test]
fn resume_refuses_a_different_run() {
    let dir = temp_dir("refuse");
    let d = dir.to_str().unwrap();
    assert!(boardlab(&run_args(d, "20")).status.success());
    let before = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    for (flag, value, names) in [
        ("--seed", "5", "seed differs"),
        ("--games", "40", "games differs"),
        ("--agents", "random,faulty", "agents differs"),
    ] {
        let mut args = run_args(d, "20");
        let at = args.iter().position(|a| *a == flag).unwrap();
        args[at + 1] = value;
        args.push("--resume");
        let out = boardlab(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(names), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("games.csv")).unwrap(),
        before
    );
}

#[test]
fn shards_merge_into_the_single_machine_result() {
    let full = temp_dir("s-full");
    assert!(
        boardlab(&run_args(full.to_str().unwrap(), "301"))
            .status
            .success()
    );
    let dirs: Vec<PathBuf> = (1..=3).map(|k| temp_dir(&format!("s-{k}"))).collect();
    // The shards run as concurrent processes, as on a cluster.
    let children: Vec<_> = dirs
        .iter()
        .enumerate()
        .map(|(k, d)| {
            let shard = format!("{}/3", k + 1);
            let mut args = run_args(d.to_str().unwrap(), "301");
            args.extend(["--shard", &shard]);
            Command::new(env!("CARGO_BIN_EXE_boardlab"))
                .args(&args)
                .output()
                .unwrap()
        })
        .collect();
    assert!(children.iter().all(|o| o.status.success()));
    let merged = temp_dir("s-merged");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    let out = boardlab(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        without_timing(&merged.join("games.csv")),
        without_timing(&full.join("games.csv"))
    );
    for f in ["summary.csv", "seats.csv"] {
        assert_eq!(
            std::fs::read_to_string(merged.join(f)).unwrap(),
            std::fs::read_to_string(full.join(f)).unwrap()
        );
    }
    // A missing shard, a duplicated shard, and a shard of another run are refused.
    let out = boardlab(&[
        "merge",
        "--out",
        temp_dir("s-bad1").to_str().unwrap(),
        dirs[0].to_str().unwrap(),
        dirs[1].to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing"));
    let out = boardlab(&[
        "merge",
        "--out",
        temp_dir("s-bad2").to_str().unwrap(),
        dirs[0].to_str().unwrap(),
        dirs[0].to_str().unwrap(),
        dirs[1].to_str().unwrap(),
        dirs[2].to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let other = temp_dir("s-other");
    let mut args = run_args(other.to_str().unwrap(), "301");
    args[8] = "99";
    args.extend(["--shard", "1/3"]);
    assert!(boardlab(&args).status.success());
    let out = boardlab(&[
        "merge",
        "--out",
        temp_dir("s-bad3").to_str().unwrap(),
        other.to_str().unwrap(),
        dirs[1].to_str().unwrap(),
        dirs[2].to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("seed differs"), "{err}");
}

#[test]
fn faults_forfeit_one_game_and_the_run_goes_on() {
    let dir = temp_dir("faults");
    for (agent, fault) in [
        ("faulty(fault=panic,after=2)", "panicked"),
        ("faulty(fault=illegal,after=1)", "illegal action"),
    ] {
        let agents = format!("random,{agent}");
        let out = boardlab(&[
            "run",
            "--game",
            "tictactoe",
            "--agents",
            &agents,
            "--games",
            "20",
            "--out",
            dir.to_str().unwrap(),
            "--force",
            "-q",
        ]);
        assert!(out.status.success());
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("panicked"),
            "panic printed"
        );
        let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        assert_eq!(text.lines().count(), 41, "every game has its rows");
        let faulty: Vec<&str> = text.lines().filter(|l| l.contains(fault)).collect();
        assert!(!faulty.is_empty(), "no {fault} recorded");
        // The faulty agent's side loses each faulted game; random wins it.
        assert!(
            faulty
                .iter()
                .all(|l| (l.contains(",random,") && l.contains(",win,"))
                    || (l.contains("faulty") && l.contains(",loss,")))
        );
    }
    let out = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,faulty(fault=slow,ms=40)",
        "--games",
        "2",
        "--move-timeout-ms",
        "5",
        "-q",
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 games ended in a fault"));
    let out = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,faulty(fault=illegal)",
        "--games",
        "50",
        "--max-errors",
        "3",
        "--out",
        dir.to_str().unwrap(),
        "--force",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stopped after 3 faulty games"));
    assert_eq!(
        std::fs::read_to_string(dir.join("games.csv"))
            .unwrap()
            .lines()
            .count(),
        7
    );
}

/// `run_args` on Fox (which has chance) with duplicate deals.
fn duplicate_args<'a>(dir: &'a str, games: &'a str) -> Vec<&'a str> {
    let mut args = run_args(dir, games);
    args[2] = "fox";
    args.push("--duplicate");
    args
}

#[test]
fn duplicate_deals_resume_and_merge_like_one_run() {
    let full = temp_dir("dup-full");
    assert!(
        boardlab(&duplicate_args(full.to_str().unwrap(), "300"))
            .status
            .success()
    );
    // Resume after a cut in the middle of a deal.
    let cut = temp_dir("dup-cut");
    assert!(
        boardlab(&duplicate_args(cut.to_str().unwrap(), "300"))
            .status
            .success()
    );
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(cut.join("games.csv"), lines[..203].join("\n") + "\n").unwrap();
    let mut args = duplicate_args(cut.to_str().unwrap(), "300");
    args.push("--resume");
    let out = boardlab(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("101 games were already done"));
    assert_eq!(
        without_timing(&cut.join("games.csv")),
        without_timing(&full.join("games.csv"))
    );
    // Resuming with or without --duplicate against the other setting is refused.
    let mut args = run_args(cut.to_str().unwrap(), "300");
    args[2] = "fox";
    args.push("--resume");
    let out = boardlab(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("duplicate differs"), "{err}");
    let plain = temp_dir("dup-plain");
    assert!(
        boardlab(&run_args(plain.to_str().unwrap(), "20"))
            .status
            .success()
    );
    let mut args = run_args(plain.to_str().unwrap(), "20");
    args.extend(["--duplicate", "--resume"]);
    let out = boardlab(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("duplicate differs"), "{err}");
    // Shards of a duplicate run (a deal may span shards) merge into the run.
    let dirs: Vec<PathBuf> = (1..=3).map(|k| temp_dir(&format!("dup-s{k}"))).collect();
    for (k, d) in dirs.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let mut args = duplicate_args(d.to_str().unwrap(), "300");
        args.extend(["--shard", &shard]);
        assert!(boardlab(&args).status.success());
    }
    let merged = temp_dir("dup-merged");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    let out = boardlab(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        without_timing(&merged.join("games.csv")),
        without_timing(&full.join("games.csv"))
    );
}

#[test]
fn until_resumes_where_it_stopped() {
    let args = |dir: &str| -> Vec<String> {
        let mut a: Vec<String> = run_args(dir, "1").into_iter().map(str::to_string).collect();
        let at = a.iter().position(|x| x == "--games").unwrap();
        a.drain(at..at + 2);
        a.extend(["--until", "ci=0.04", "--max-games", "3000"].map(String::from));
        a
    };
    let full = temp_dir("until-full");
    let a = args(full.to_str().unwrap());
    let out = boardlab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cut = temp_dir("until-cut");
    let a = args(cut.to_str().unwrap());
    assert!(
        boardlab(&a.iter().map(String::as_str).collect::<Vec<_>>())
            .status
            .success()
    );
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(cut.join("games.csv"), lines[..301].join("\n") + "\n").unwrap();
    let mut a = args(cut.to_str().unwrap());
    a.push("--resume".into());
    let out = boardlab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        without_timing(&cut.join("games.csv")),
        without_timing(&full.join("games.csv"))
    );
    let json = |d: &PathBuf| std::fs::read_to_string(d.join("run.json")).unwrap();
    let stop = |d: &PathBuf| {
        let j = json(d);
        j[j.find("\"stop\"").unwrap()..]
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(stop(&cut), stop(&full));
    // A different stopping rule is a different run.
    let mut a = args(cut.to_str().unwrap());
    let at = a.iter().position(|x| x == "ci=0.04").unwrap();
    a[at] = "ci=0.05".into();
    a.push("--resume".into());
    let out = boardlab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("until differs"), "{err}");
}

/// `run --force` starts from a clean directory: the report, ratings and
/// charts of the earlier run do not survive beside the new games, and files
/// that are not the run's own are left alone.
#[test]
fn force_leaves_nothing_of_the_earlier_run() {
    let dir = temp_dir("force-clean");
    let d = dir.to_str().unwrap();
    let run = |game: &str, extra: &[&str]| {
        let mut args = vec![
            "run",
            "--game",
            game,
            "--agents",
            "random,random",
            "--games",
            "20",
            "-q",
            "--out",
            d,
        ];
        args.extend_from_slice(extra);
        let o = boardlab(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run("tictactoe", &[]);
    let o = boardlab(&["summarize", d]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(dir.join("report.md").exists() && dir.join("ratings.csv").exists());
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    std::fs::write(dir.join("summary.csv.tmp"), "half").unwrap();
    run("connect4", &["--force"]);
    for stale in [
        "report.md",
        "ratings.csv",
        "plot-seats.svg",
        "plot-turns.svg",
        "summary.csv.tmp",
    ] {
        assert!(
            !dir.join(stale).exists(),
            "{stale} of the earlier run survived --force"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "mine"
    );
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert!(games.contains("connect4") && !games.contains("tictactoe"));
}

/// Traces of another run are never mixed with new ones: refused without
/// `--force`, replaced with it.
#[test]
fn a_used_trace_directory_needs_force() {
    let traces = temp_dir("trace-used");
    let t = traces.to_str().unwrap();
    let run = |games: &str, extra: &[&str]| {
        let mut args = vec![
            "run",
            "--game",
            "tictactoe",
            "--agents",
            "random,random",
            "--games",
            games,
            "-q",
            "--trace",
            t,
        ];
        args.extend_from_slice(extra);
        boardlab(&args)
    };
    assert!(run("6", &[]).status.success());
    let count = || std::fs::read_dir(&traces).unwrap().count();
    assert_eq!(count(), 6);
    let before = std::fs::read(traces.join("game-00000000.jsonl")).unwrap();
    let o = run("2", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("already holds traces"), "{err}");
    assert_eq!(count(), 6);
    assert_eq!(
        std::fs::read(traces.join("game-00000000.jsonl")).unwrap(),
        before
    );
    assert!(run("2", &["--force"]).status.success());
    assert_eq!(
        count(),
        2,
        "the six old traces were replaced by the two new ones"
    );
}
