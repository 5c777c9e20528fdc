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
    // Enough games that the run is still going when it is killed, with the
    // runner at full speed.
    let games = "240000";
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
        partial < 2 * 240_000 + 1,
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

/// An agent that ignores the move limit (it sleeps a minute a move) forfeits
/// each game when the limit passes: the run does not wait for it, and every
/// game is recorded.
#[test]
fn an_agent_that_ignores_the_move_limit_is_not_waited_for() {
    let dir = temp_dir("watchdog");
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([
            "run",
            "--game",
            "tictactoe",
            "--agents",
            "random,faulty(fault=slow,ms=60000,after=0)",
            "--games",
            "4",
            "--threads",
            "1",
            "--move-timeout-ms",
            "100",
            "--out",
            dir.to_str().unwrap(),
            "-q",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the run waited for an agent past its move limit");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(status.success());
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let timed_out = csv
        .lines()
        .filter(|l| l.contains("did not answer within the 100 ms move limit"))
        .count();
    // Two rows a game, each naming the fault.
    assert_eq!(timed_out, 8, "{csv}");
}

/// When more computations are abandoned than may run at once, the next
/// timed move waits for one to end: the run says so and for how long, rather
/// than slowing without a word.
#[test]
fn waiting_for_abandoned_computations_is_reported() {
    // The process's cap: twice the cores, at least 4.
    let cap = std::thread::available_parallelism()
        .map_or(4, |n| 2 * n.get())
        .max(4);
    let games = (cap + 2).to_string();
    let out = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "faulty(fault=slow,ms=700,after=0),random",
        "--games",
        &games,
        "--threads",
        "1",
        "--move-timeout-ms",
        "5",
        "-q",
    ]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "for computations abandoned at the move limit to end (at most {cap} run at once"
        )),
        "{stdout}"
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
fn a_search_stops_at_the_move_limit_instead_of_forfeiting() {
    // The search's own budget (3 s a move) is far over the limit (300 ms):
    // it must stop at the runner's deadline and still answer in time.
    let dir = temp_dir("deadline");
    let out = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "ismcts(time_ms=3000),random",
        "--games",
        "1",
        "--move-timeout-ms",
        "300",
        "--out",
        dir.to_str().unwrap(),
        "--force",
        "-q",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let searcher = csv
        .lines()
        .skip(1)
        .find(|l| l.contains("ismcts"))
        .expect("a row for the searching seat");
    let fields: Vec<&str> = searcher.split(',').collect();
    assert_eq!(fields[col("error")], "", "no fault: {searcher}");
    let decisions: u64 = fields[col("decisions")].parse().unwrap();
    let think_us: u64 = fields[col("think_us")].parse().unwrap();
    assert!(decisions >= 1);
    assert!(
        think_us <= decisions * 300_000,
        "every move within the limit: {think_us} us over {decisions} decisions"
    );
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

/// Tic-tac-toe with a bug planted in its own code: `Setup` panics while
/// setting up the games whose seed's first draw is a multiple of 4,
/// `NoMoves` offers no legal action at the first decision.
#[derive(Clone, Copy, Debug)]
enum Bug {
    Setup,
    NoMoves,
}

#[derive(Clone, Copy, Debug)]
struct Buggy(Bug);

mod buggy {
    use super::{Bug, Buggy};
    use boardlab::game::{Evaluation, PlayerId, Reporting, Returns, Rules, Turn};
    use boardlab::games::tictactoe::TicTacToe;
    use boardlab::rng::GameRng;
    use rand::RngCore;

    type T = TicTacToe;
    impl Rules for Buggy {
        type State = <T as Rules>::State;
        type Action = <T as Rules>::Action;
        type Actions = <T as Rules>::Actions;
        type InfoKey = <T as Rules>::InfoKey;
        fn spec(&self) -> String {
            "tictactoe".into()
        }
        fn num_players(&self) -> usize {
            2
        }
        fn max_actions(&self) -> usize {
            TicTacToe.max_actions()
        }
        fn max_game_length(&self) -> u32 {
            TicTacToe.max_game_length()
        }
        fn has_hidden_information(&self) -> bool {
            false
        }
        fn initial_state(&self, rng: &mut GameRng) -> Self::State {
            if matches!(self.0, Bug::Setup) && rng.next_u64().is_multiple_of(4) {
                panic!("cannot sample empty range");
            }
            TicTacToe.initial_state(rng)
        }
        fn turn(&self, s: &Self::State) -> Turn {
            TicTacToe.turn(s)
        }
        fn legal_actions(&self, s: &Self::State) -> Self::Actions {
            match self.0 {
                Bug::NoMoves => Default::default(),
                Bug::Setup => TicTacToe.legal_actions(s),
            }
        }
        fn apply(&self, s: &mut Self::State, a: Self::Action) {
            TicTacToe.apply(s, a)
        }
        fn chance_outcomes(&self, s: &Self::State) -> Vec<(Self::Action, f64)> {
            TicTacToe.chance_outcomes(s)
        }
        fn sample_chance(&self, s: &Self::State, rng: &mut GameRng) -> Self::Action {
            TicTacToe.sample_chance(s, rng)
        }
        fn determinize(&self, s: &Self::State, p: PlayerId, rng: &mut GameRng) -> Self::State {
            TicTacToe.determinize(s, p, rng)
        }
        fn info_key(&self, s: &Self::State, p: PlayerId) -> Self::InfoKey {
            TicTacToe.info_key(s, p)
        }
        fn returns(&self, s: &Self::State) -> Returns {
            TicTacToe.returns(s)
        }
    }

    impl Reporting for Buggy {
        fn render(&self, s: &Self::State, v: Option<PlayerId>) -> String {
            TicTacToe.render(s, v)
        }
        fn action_label(&self, s: &Self::State, a: Self::Action) -> String {
            TicTacToe.action_label(s, a)
        }
    }

    impl Evaluation for Buggy {
        fn heuristic(&self, s: &Self::State, p: PlayerId) -> f64 {
            TicTacToe.heuristic(s, p)
        }
    }
}

/// A panic in the game's own code (here its setup), or a decision with no
/// legal action, is a game error: the run stops with the game and its index
/// named, the games before it saved, and no agent blamed.
#[test]
fn a_bug_in_the_game_stops_the_run_and_blames_no_agent() {
    use boardlab::agents::registry::AgentSpec;
    use boardlab::arena::{self, RunError, RunOptions};
    use rand::RngCore;
    boardlab::arena::play::quiet_contained_panics();
    let specs = vec![
        AgentSpec::parse("random").unwrap(),
        AgentSpec::parse("random").unwrap(),
    ];
    let first_bad = |seed: u64| {
        (0..1000)
            .find(|&i| {
                let s = arena::seed_of(seed, i, 2, false);
                boardlab::rng::stream_rng(s, boardlab::rng::Stream::Game)
                    .next_u64()
                    .is_multiple_of(4)
            })
            .unwrap()
    };
    // A master seed whose first few games are sound.
    let seed = (1..).find(|&s| first_bad(s) >= 3).unwrap();
    let first_bad = first_bad(seed);
    let dir = temp_dir("game-bug");
    let opts = RunOptions {
        games: 200,
        seed,
        threads: 2,
        out: Some(dir.clone()),
        ..RunOptions::default()
    };
    match arena::run(&Buggy(Bug::Setup), &specs, &opts) {
        Err(e @ RunError::Game { index, .. }) => {
            assert_eq!(index, first_bad);
            let text = e.to_string();
            assert!(text.contains("game error in tictactoe, game"), "{text}");
            assert!(text.contains("cannot sample empty range"), "{text}");
            assert!(!text.contains('\n'), "{text}");
        }
        other => panic!("expected a game error, got {other:?}"),
    }
    // The games before it are saved; no row blames an agent.
    let rows = boardlab::arena::record::read_games(&dir.join("games.csv")).unwrap();
    assert_eq!(rows.len() as u64, 2 * first_bad);
    assert!(rows.iter().all(|r| r.error.is_empty()));
    let opts = RunOptions {
        games: 4,
        ..RunOptions::default()
    };
    match arena::run(&Buggy(Bug::NoMoves), &specs, &opts) {
        Err(RunError::Game { index: 0, why, .. }) => {
            assert!(why.contains("no legal action"), "{why}")
        }
        other => panic!("expected a game error, got {other:?}"),
    }
}

/// A trace that cannot be written stops the run (exit 2, one line): it is
/// not an agent's fault.
#[test]
fn an_unwritable_trace_is_a_run_error() {
    // A link of the test's own making (no path of the machine's).
    let dir = temp_dir("trace-link");
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    let link = dir.join("traces");
    std::os::unix::fs::symlink(dir.join("elsewhere"), &link).unwrap();
    let out = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "4",
        "-q",
        "--trace",
        link.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // A linked trace folder is refused before any game, like any output
    // folder that is a link, and nothing is written through it.
    assert!(
        stderr.contains(&format!("cannot write {}", link.display())),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(dir.join("elsewhere")).unwrap().count(), 0);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

/// When most games of a run end at a cap, the run says so.
#[test]
fn a_run_whose_games_mostly_hit_a_cap_warns() {
    let capped = boardlab(&[
        "run",
        "--game",
        "hamunaptra(max_rounds=1)",
        "--agents",
        "random,random",
        "--games",
        "4",
        "-q",
    ]);
    assert!(capped.status.success());
    let text = String::from_utf8_lossy(&capped.stdout);
    assert!(
        text.contains("warning: 4 of 4 games ended at a length or round cap"),
        "{text}"
    );
    let normal = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "4",
        "-q",
    ]);
    assert!(!String::from_utf8_lossy(&normal.stdout).contains("cap"));
}

/// A human seat whose standard input ends stops the game with a message and
/// a non-zero exit: no move is made for it.
#[test]
fn a_human_seat_without_input_stops_the_game() {
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["play", "--game", "tictactoe", "--agents", "human,random"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("standard input ended"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(!stderr.contains("panicked at"), "{stderr}");
    // Seat 1 never got to move: the human's turn never ended.
    assert!(!stdout.contains("seat 1 (random):"), "{stdout}");
    assert!(!stdout.contains("(score"), "{stdout}");
}

/// In `run`, a human seat whose standard input ends stops the run, as a kill
/// would: the game is not recorded as that seat's forfeit.
#[test]
fn a_human_seat_without_input_stops_the_run_without_a_forfeit() {
    let dir = temp_dir("human-run");
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([
            "run",
            "--game",
            "tictactoe",
            "--agents",
            "random,human",
            "--games",
            "4",
            "-q",
        ])
        .arg("--out")
        .arg(&dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("stopped at game 0: seat 1: standard input ended"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap_or_default();
    assert!(
        !games.contains("panicked") && games.lines().count() <= 1,
        "{games}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `--resume` after a `--max-errors` stop continues: the limit counts the
/// faults of each invocation.
#[test]
fn resume_after_max_errors_continues() {
    let dir = temp_dir("max-errors-resume");
    let args = |resume: bool| {
        let mut a = vec![
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
            "-q",
        ];
        if resume {
            a.push("--resume");
        }
        boardlab(&a)
    };
    let games = || {
        std::fs::read_to_string(dir.join("games.csv"))
            .unwrap()
            .lines()
            .count()
            / 2
    };
    assert_eq!(args(false).status.code(), Some(1));
    assert_eq!(games(), 3);
    let out = args(true);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("resumed: 3 games"));
    assert_eq!(games(), 6, "the resumed run played three more games");
}

/// An experiment played in shards and merged equals the experiment played at
/// once, in every column but timing.
#[test]
fn a_sharded_experiment_merges_into_the_whole_experiment() {
    let dir = temp_dir("experiment-shards");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("exp.toml");
    std::fs::write(
        &file,
        "description = \"d\"\ngame = \"connect4\"\ngames = 21\nseed = 7\nlineups = [[\"random\"], [\"random\", \"greedy\"]]\n",
    )
    .unwrap();
    let run = |out: &PathBuf, shard: Option<&str>| {
        let mut a = vec![
            "experiment",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
            "--threads",
            "2",
        ];
        if let Some(s) = shard {
            a.extend(["--shard", s]);
        }
        let o = boardlab(&a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let whole = dir.join("whole");
    run(&whole, None);
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("s{k}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        run(s, Some(&format!("{}/3", k + 1)));
    }
    let merged = dir.join("merged");
    let mut a = vec!["merge", "--out", merged.to_str().unwrap()];
    a.extend(shards.iter().rev().map(|s| s.to_str().unwrap()));
    let o = boardlab(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in [
        "cells.csv",
        "summary.csv",
        "seats.csv",
        "comparisons.csv",
        "cells/c000/games.csv",
        "cells/c000/metrics.csv",
        "cells/c000/summary.csv",
        "cells/c001/games.csv",
        "cells/c001/metrics.csv",
        "cells/c001/seats.csv",
    ] {
        assert_eq!(
            without_timing(&merged.join(f)),
            without_timing(&whole.join(f)),
            "{f}"
        );
    }
    // A shard missing, or one of another experiment, is refused.
    let o = boardlab(&[
        "merge",
        "--out",
        merged.to_str().unwrap(),
        "--force",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("shard 3/3 is missing"));
}
