//! `boardlab verify`: stored results replayed with today's binary are fresh,
//! an edited row is stale (named by game, seat and column), a superseded
//! study is skipped, and a study that cannot be replayed says why.

mod common;

use std::path::Path;

use common::{boardlab, temp_dir};

/// Runs verify; returns (exit code, stdout + stderr).
fn verify(args: &[&str]) -> (Option<i32>, String) {
    let mut a = vec!["verify", "--threads", "1"];
    a.extend(args);
    let out = boardlab(&a);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

fn small_run(dir: &Path, agents: &str) {
    let o = boardlab(&[
        "run",
        "--game",
        "fox(players=2)",
        "--agents",
        agents,
        "--games",
        "6",
        "--seed",
        "3",
        "--threads",
        "2",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Replaces the outcome of game 1, seat 0 in a games file.
fn edit_outcome(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let col = header.iter().position(|h| *h == "outcome").unwrap();
    let row = lines
        .iter()
        .position(|l| l.starts_with("1,"))
        .expect("game 1 recorded");
    let mut f: Vec<String> = lines[row].split(',').map(str::to_string).collect();
    f[col] = if f[col] == "win" { "loss" } else { "win" }.to_string();
    lines[row] = f.join(",");
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn a_fresh_run_verifies_fresh() {
    let dir = temp_dir("fresh");
    small_run(&dir, "greedy,mcts(iterations=50)");
    let (code, text) = verify(&[dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("fresh  ") && text.contains("6 games replayed"),
        "{text}"
    );
}

#[test]
fn an_edited_row_is_stale_and_named() {
    let dir = temp_dir("edited");
    small_run(&dir, "greedy,random");
    edit_outcome(&dir.join("games.csv"));
    let (code, text) = verify(&[dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("stale: games.csv game 1 seat 0 column outcome"),
        "{text}"
    );
    // An edited metric is caught too.
    let m = temp_dir("edited-metric");
    small_run(&m, "greedy,random");
    let p = m.join("metrics.csv");
    let text = std::fs::read_to_string(&p).unwrap();
    let last = text.trim_end().rsplit_once(',').unwrap().0.to_string();
    std::fs::write(&p, format!("{last},12345\n")).unwrap();
    let (code, text) = verify(&[m.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("stale: metrics.csv game 5"), "{text}");
}

#[test]
fn a_superseded_study_is_skipped() {
    let dir = temp_dir("superseded");
    small_run(&dir, "greedy,random");
    edit_outcome(&dir.join("games.csv"));
    std::fs::write(
        dir.join("README.md"),
        "# Old study\n\n**SUPERSEDED** by results/new-study (made before the rules fix).\n",
    )
    .unwrap();
    let (code, text) = verify(&[dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("skipped, superseded: SUPERSEDED by results/new-study"),
        "{text}"
    );
}

#[test]
fn an_experiment_verifies_from_its_samples_alone() {
    let dir = temp_dir("experiment");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("study.toml");
    std::fs::write(
        &file,
        "description = \"d\"\ngame = \"fox\"\ngames = 30\nsweep = { players = [2, 3] }\nlineups = [[\"greedy\"]]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = boardlab(&[
        "experiment",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // As committed: the raw files of a large study are left out.
    for c in ["c000", "c001"] {
        let cell = out.join("cells").join(c);
        let sample = std::fs::read_to_string(cell.join("sample.csv")).unwrap();
        assert!(
            sample.contains("\n19,") && !sample.contains("\n20,"),
            "20 games kept"
        );
        std::fs::remove_file(cell.join("games.csv")).unwrap();
        std::fs::remove_file(cell.join("metrics.csv")).unwrap();
    }
    let (code, text) = verify(&["--sample", "4", out.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(text.matches("(4 games replayed)").count(), 2, "{text}");
    edit_outcome(&out.join("cells/c001/sample.csv"));
    let (code, text) = verify(&["--sample", "4", out.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("c001"), "{text}");
    assert!(
        text.contains("stale: sample.csv game 1 seat 0 column outcome"),
        "{text}"
    );
}

#[test]
fn what_cannot_be_replayed_is_not_reproducible() {
    for (dir, agent, budget) in [
        ("timed", "mcts(time_ms=1)", "wall-time"),
        ("cpu-timed", "mcts(cpu_ms=1)", "CPU-time"),
    ] {
        let dir = temp_dir(dir);
        small_run(&dir, &format!("greedy,{agent}"));
        let (code, text) = verify(&[dir.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{text}");
        assert!(
            text.contains(&format!(
                "not reproducible: agent '{agent}' searches for a {budget} budget"
            )),
            "{text}"
        );
    }
    let bare = temp_dir("bare");
    std::fs::create_dir_all(&bare).unwrap();
    let (code, text) = verify(&[bare.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("not reproducible: no run.json"), "{text}");
    let (code, text) = verify(&["/nonexistent/study"]);
    assert_eq!(code, Some(2), "{text}");
}

/// A `balance` study of planted at budgets 4 and 8, 12 games each, in `dir`.
fn small_balance(dir: &Path) {
    let o = boardlab(&[
        "balance",
        "--game",
        "planted",
        "--agent",
        "mcts",
        "--budgets",
        "4,8",
        "--max-games",
        "12",
        "--ladder-games",
        "0",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_balance_study_is_replayed_budget_by_budget() {
    let dir = temp_dir("balance-fresh");
    small_balance(&dir);
    let (code, text) = verify(&["--sample", "4", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{text}");
    for b in [4, 8] {
        assert!(
            text.contains(&format!("games-{b}.csv (4 games replayed)")),
            "{text}"
        );
    }
    // An altered game of the second budget is stale and named.
    edit_outcome(&dir.join("games-8.csv"));
    let (code, text) = verify(&[dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("stale: games-8.csv game 1 seat 0 column outcome"),
        "{text}"
    );
    assert!(text.contains(": stale"), "{text}");
}

#[test]
fn a_balance_study_verifies_from_its_samples_alone() {
    let dir = temp_dir("balance-sample");
    small_balance(&dir);
    // The samples hold the first games, as the games files do.
    for b in [4, 8] {
        let games = std::fs::read_to_string(dir.join(format!("games-{b}.csv"))).unwrap();
        let sample = std::fs::read_to_string(dir.join(format!("sample-{b}.csv"))).unwrap();
        assert_eq!(games, sample, "12 games: the sample is all of them");
        std::fs::remove_file(dir.join(format!("games-{b}.csv"))).unwrap();
    }
    let (code, text) = verify(&["--sample", "3", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("sample-8.csv (3 games replayed)"), "{text}");
    edit_outcome(&dir.join("sample-4.csv"));
    let (code, text) = verify(&[dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("stale: sample-4.csv game 1 seat 0 column outcome"),
        "{text}"
    );
    // Another seed recorded: every game differs from its record.
    let reseeded = temp_dir("balance-reseeded");
    small_balance(&reseeded);
    let run = reseeded.join("balance-run.json");
    let spec = std::fs::read_to_string(&run).unwrap();
    std::fs::write(&run, spec.replace("\"seed\": 5", "\"seed\": 6")).unwrap();
    let (code, text) = verify(&[reseeded.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("stale: games-4.csv game"), "{text}");
    // A lost budget below one that was kept cannot be replayed.
    std::fs::remove_file(reseeded.join("games-4.csv")).unwrap();
    std::fs::remove_file(reseeded.join("sample-4.csv")).unwrap();
    let (code, text) = verify(&[reseeded.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("not reproducible: neither games-4.csv"),
        "{text}"
    );
}

/// The run of the incompleteness cases: 10 games of tic-tac-toe.
fn tictactoe_run(dir: &Path) {
    let o = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "10",
        "--seed",
        "3",
        "-q",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Rewrites the lines of `path` with `edit`.
fn edit_lines(path: &Path, edit: impl FnOnce(&mut Vec<String>)) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    edit(&mut lines);
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn stored_rows_are_checked_against_run_json() {
    let fresh = temp_dir("complete");
    tictactoe_run(&fresh);
    let (code, text) = verify(&["--sample", "2", fresh.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{text}");
    // The line names the file replayed.
    assert!(text.contains("games.csv (2 games replayed)"), "{text}");
    type Edit = fn(&Path);
    let cases: [(&str, Edit, &str); 6] = [
        (
            "truncated",
            |d| edit_lines(&d.join("games.csv"), |l| l.truncate(5)),
            "incomplete: games.csv holds 2 of the 10 games",
        ),
        (
            "game-deleted",
            |d| edit_lines(&d.join("games.csv"), |l| l.retain(|r| !r.starts_with("4,"))),
            "incomplete: games.csv holds game 5 where game 4 belongs",
        ),
        (
            "game-added",
            |d| {
                edit_lines(&d.join("games.csv"), |l| {
                    let extra: Vec<String> =
                        l[1..3].iter().map(|r| format!("999{}", &r[1..])).collect();
                    l.extend(extra);
                })
            },
            "incomplete: games.csv holds game 999, beyond the run's games",
        ),
        (
            "games-edited",
            |d| {
                edit_lines(&d.join("run.json"), |l| {
                    for r in l.iter_mut() {
                        if r.trim_start().starts_with("\"games\": 10") {
                            *r = r.replace("10", "12");
                        }
                    }
                })
            },
            "incomplete: run.json records 10 games played of a run of 12",
        ),
        (
            "unfinished",
            |d| {
                edit_lines(&d.join("run.json"), |l| {
                    l.retain(|r| !r.trim_start().starts_with("\"played\""));
                    // The line before the one removed may now end in a comma.
                    let last = l.len() - 2;
                    l[last] = l[last].trim_end_matches(',').to_string();
                });
                edit_lines(&d.join("games.csv"), |l| l.truncate(9))
            },
            "incomplete: games.csv holds 4 of the 10 games",
        ),
        (
            // An unreadable games.csv is reported, never replaced by the sample.
            "unreadable",
            |d| {
                std::fs::remove_file(d.join("games.csv")).unwrap();
                std::fs::create_dir(d.join("games.csv")).unwrap();
            },
            "not reproducible: cannot read games.csv",
        ),
    ];
    for (name, edit, says) in cases {
        let dir = temp_dir(&format!("incomplete-{name}"));
        tictactoe_run(&dir);
        edit(&dir);
        let (code, text) = verify(&["--sample", "2", dir.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{name}: {text}");
        assert!(text.contains(says), "{name}: {text}");
        assert!(!text.contains("fresh  "), "{name}: {text}");
    }
}

#[test]
fn a_folder_without_a_record_is_named_as_skipped() {
    let dir = temp_dir("skipped");
    tictactoe_run(&dir.join("run"));
    std::fs::create_dir_all(dir.join("logs")).unwrap();
    std::fs::write(dir.join("logs").join("sprt.log"), "a measurement\n").unwrap();
    let (code, text) = verify(&["--sample", "2", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(&format!(
            "skipped {}: no run.json",
            dir.join("logs").display()
        )),
        "{text}"
    );
}
