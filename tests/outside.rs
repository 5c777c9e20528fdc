//! A game and an agent defined outside the crate, as a user's crate defines
//! them (`examples/nim/`), go through the real runner: the conformance suite,
//! a tournament with CSV output, resume after an interruption, and shards
//! merged into one result; and the command line built from a registry that
//! adds them (`examples/nim_cli/`) runs, resumes, merges and experiments on them.

mod common;
#[allow(dead_code)]
#[path = "../examples/nim_cli/main.rs"]
mod nim_cli;

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use boardlab::agents::erased::{AnyAgent, Position};
use boardlab::arena::merge::merge_for;
use boardlab::game::conformance;
use boardlab::prelude::*;
use common::{temp_dir, without_timing};
use nim_cli::game::{Nim, PerfectNim};

fn game() -> Nim {
    Nim {
        piles: vec![3, 5, 7],
    }
}

fn specs() -> [AgentSpec; 2] {
    [
        AgentSpec::custom("perfect-nim"),
        AgentSpec::parse("random").unwrap(),
    ]
}

fn factories() -> [Option<AgentFactory<Nim>>; 2] {
    [Some(Arc::new(|| Box::new(PerfectNim))), None]
}

fn options(out: &std::path::Path, games: u64) -> RunOptions {
    RunOptions {
        games,
        seed: 3,
        threads: 2,
        out: Some(out.to_path_buf()),
        ..RunOptions::default()
    }
}

#[test]
fn an_outside_game_passes_the_conformance_suite() {
    conformance::check(&game(), conformance::Config::default());
}

#[test]
fn an_outside_agent_plays_through_the_runner() {
    let dir = temp_dir("outside-run");
    let out = run_with(&game(), &specs(), &factories(), &options(&dir, 200)).unwrap();
    let perfect = &out.agents[0];
    assert_eq!(perfect.agent, "perfect-nim");
    assert_eq!(perfect.tally.games, 200);
    // Random play rarely stumbles on the one winning line twice in a row, and
    // the perfect player never lets a won position go.
    assert!(perfect.tally.win_rate > 0.9, "{:?}", perfect.tally);
    let rows = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert!(rows.lines().nth(1).unwrap().contains("nim(piles=3-5-7)"));
    assert!(rows.contains(",perfect-nim,"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_outside_run_resumes_and_merges_like_one_run() {
    let whole = temp_dir("outside-whole");
    run_with(&game(), &specs(), &factories(), &options(&whole, 60)).unwrap();
    let expected = without_timing(&whole.join("games.csv"));

    // An interrupted run: only the first 21 games' rows reached the disk.
    let cut = temp_dir("outside-cut");
    run_with(&game(), &specs(), &factories(), &options(&cut, 60)).unwrap();
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let kept: Vec<&str> = text.lines().take(1 + 2 * 21).collect();
    std::fs::write(cut.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let resumed = RunOptions {
        resume: true,
        ..options(&cut, 60)
    };
    let out = run_with(&game(), &specs(), &factories(), &resumed).unwrap();
    assert_eq!(out.resumed, 21);
    assert_eq!(out.played, 39);
    assert_eq!(without_timing(&cut.join("games.csv")), expected);

    let shards: Vec<_> = (1..=2)
        .map(|k| {
            let dir = temp_dir(&format!("outside-shard-{k}"));
            let opts = RunOptions {
                shard: Some((k, 2)),
                ..options(&dir, 60)
            };
            run_with(&game(), &specs(), &factories(), &opts).unwrap();
            dir
        })
        .collect();
    let merged = temp_dir("outside-merged");
    merge_for(&game(), &shards, &merged, false).unwrap();
    assert_eq!(without_timing(&merged.join("games.csv")), expected);
    for dir in shards.iter().chain([&whole, &cut, &merged]) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Runs the example binary's command line in this process.
fn nim_cli(args: &[&str]) -> ExitCode {
    nim_cli::registry().run_args(std::iter::once("nim_cli").chain(args.iter().copied()))
}

fn cli_run(out: &Path, extra: &[&str]) -> ExitCode {
    let mut args = vec![
        "run",
        "--game",
        "nim(piles=3-5-7)",
        "--agents",
        "perfect-nim,random",
        "--games",
        "60",
        "--seed",
        "3",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    nim_cli(&args)
}

#[test]
fn a_registered_game_and_agent_run_resume_and_merge_through_the_command_line() {
    // The command line writes the games the library's runner writes.
    let library = temp_dir("outside-cli-library");
    run_with(&game(), &specs(), &factories(), &options(&library, 60)).unwrap();
    let expected = without_timing(&library.join("games.csv"));
    let whole = temp_dir("outside-cli-whole");
    assert_eq!(cli_run(&whole, &[]), ExitCode::SUCCESS);
    assert_eq!(without_timing(&whole.join("games.csv")), expected);
    let manifest = std::fs::read_to_string(whole.join("run.json")).unwrap();
    assert!(manifest.contains("perfect-nim"), "{manifest}");

    // Cut after 21 games, then --resume.
    let cut = temp_dir("outside-cli-cut");
    assert_eq!(cli_run(&cut, &[]), ExitCode::SUCCESS);
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let kept: Vec<&str> = text.lines().take(1 + 2 * 21).collect();
    std::fs::write(cut.join("games.csv"), kept.join("\n") + "\n").unwrap();
    assert_eq!(cli_run(&cut, &["--resume"]), ExitCode::SUCCESS);
    assert_eq!(without_timing(&cut.join("games.csv")), expected);

    // Two shards, merged by the command line as the registered game.
    let shards: Vec<_> = (1..=2)
        .map(|k| {
            let dir = temp_dir(&format!("outside-cli-shard-{k}"));
            assert_eq!(
                cli_run(&dir, &["--shard", &format!("{k}/2")]),
                ExitCode::SUCCESS
            );
            dir
        })
        .collect();
    let merged = temp_dir("outside-cli-merged");
    let _ = std::fs::remove_dir_all(&merged);
    let code = nim_cli(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(without_timing(&merged.join("games.csv")), expected);
    for dir in shards.iter().chain([&library, &whole, &cut, &merged]) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_registered_game_and_agent_run_an_experiment_through_the_command_line() {
    let dir = temp_dir("outside-cli-experiment");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nim.toml");
    std::fs::write(
        &file,
        r#"description = "Nim: the perfect player against random play on two starts"
game = "nim"
games = 40
seed = 5
sweep = { piles = ["3-5-7", "4-4"] }
lineups = [["perfect-nim", "random"]]
"#,
    )
    .unwrap();
    let out = dir.join("out");
    let code = nim_cli(&[
        "experiment",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, ExitCode::SUCCESS);
    for (cell, piles) in [("c000", "3-5-7"), ("c001", "4-4")] {
        let rows = std::fs::read_to_string(out.join("cells").join(cell).join("games.csv")).unwrap();
        assert_eq!(rows.lines().count(), 1 + 2 * 40, "{cell}");
        assert!(rows.contains(&format!("nim(piles={piles})")), "{cell}");
        assert!(rows.contains(",perfect-nim,"), "{cell}");
    }
    let cells = std::fs::read_to_string(out.join("cells.csv")).unwrap();
    assert_eq!(cells.lines().count(), 3, "{cells}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_registered_game_refuses_bad_input() {
    let dir = temp_dir("outside-cli-bad");
    let bad = ExitCode::from(2);
    // A bad parameter of the game or of the agent kind, an unknown agent.
    for (game, agents) in [
        ("nim(piles=0)", "perfect-nim,random"),
        ("nim(heaps=3)", "perfect-nim,random"),
        ("nim", "perfect-nim(depth=2),random"),
        ("nim", "perfect-nimm,random"),
    ] {
        let args = [
            "run",
            "--game",
            game,
            "--agents",
            agents,
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ];
        assert_eq!(nim_cli(&args), bad, "{game} {agents}");
        assert!(!dir.join("games.csv").exists());
    }
    // The built-in games are all still there.
    assert_eq!(
        nim_cli(&[
            "run",
            "--game",
            "tictactoe",
            "--agents",
            "random,random",
            "--games",
            "2",
            "--quiet"
        ]),
        ExitCode::SUCCESS
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `args` with `{dir}` replaced by `dir`.
fn in_dir(args: &[&str], dir: &Path) -> Vec<String> {
    let dir = dir.to_str().unwrap();
    args.iter().map(|a| a.replace("{dir}", dir)).collect()
}

#[test]
fn a_registered_game_reaches_every_command() {
    let dir = temp_dir("outside-cli-every");
    std::fs::create_dir_all(&dir).unwrap();
    let ok = |args: &[&str]| {
        let args = in_dir(args, &dir);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(nim_cli(&args), ExitCode::SUCCESS, "{args:?}");
    };
    // A trace to replay and draw.
    ok(&[
        "run",
        "--game",
        "nim",
        "--agents",
        "perfect-nim,random",
        "--games",
        "2",
        "--quiet",
        "--trace",
        "{dir}/traces",
    ]);
    let trace = dir.join("traces/game-00000000.jsonl");
    ok(&["replay", trace.to_str().unwrap()]);
    ok(&["view", trace.to_str().unwrap(), "--out", "{dir}/game.html"]);
    let page = std::fs::read_to_string(dir.join("game.html")).unwrap();
    assert!(page.contains("nim(piles=3-5-7)"), "the page names its game");

    ok(&[
        "play",
        "--game",
        "nim(piles=2-3)",
        "--agents",
        "perfect-nim,random",
    ]);
    ok(&[
        "soak",
        "--game",
        "nim",
        "--game",
        "nim(piles=9-9-9-9)",
        "--games",
        "50",
        "--threads",
        "1",
    ]);
    ok(&[
        "bench",
        "--game",
        "nim",
        "--seconds",
        "0.05",
        "--samples",
        "1",
    ]);
    ok(&[
        "bench",
        "--game",
        "nim",
        "--agent",
        "mcts(iterations=20)",
        "--seconds",
        "0.05",
        "--samples",
        "1",
    ]);
    // The perfect player is decisively stronger than random play: the test
    // decides (exit 0) well before its cap.
    ok(&[
        "sprt",
        "--game",
        "nim",
        "--agents",
        "perfect-nim,random",
        "--elo0",
        "0",
        "--elo1",
        "100",
        "--max-games",
        "400",
        "--threads",
        "1",
    ]);
    ok(&[
        "exploitability",
        "--game",
        "nim(piles=2-3)",
        "--agent",
        "uniform",
    ]);
    ok(&[
        "exploitability",
        "--game",
        "nim(piles=2-3)",
        "--agent",
        "greedy",
        "--samples",
        "2",
        "--threads",
        "1",
    ]);
    ok(&[
        "ladder",
        "--game",
        "nim",
        "--agents",
        "mcts,greedy",
        "--iterations",
        "8,16",
        "--games",
        "4",
        "--resamples",
        "20",
        "--out",
        "{dir}/ladder",
    ]);
    assert!(dir.join("ladder/ladder.csv").exists());
    ok(&[
        "quality",
        "--game",
        "nim",
        "--agents",
        "greedy,random",
        "--games",
        "10",
        "--threads",
        "1",
        "--out",
        "{dir}/quality",
    ]);
    assert!(dir.join("quality/quality.csv").exists());
    ok(&[
        "tune",
        "--game",
        "nim",
        "--agent",
        "mcts(iterations=[10,20])",
        "--against",
        "random",
        "--budget",
        "8",
        "--confirm",
        "4",
        "--out",
        "{dir}/tune",
    ]);
    assert!(dir.join("tune/tune.csv").exists());
    ok(&[
        "balance",
        "--game",
        "nim",
        "--agent",
        "mcts",
        "--budgets",
        "8,16",
        "--max-games",
        "20",
        "--ladder-games",
        "0",
        "--threads",
        "1",
        "--out",
        "{dir}/balance",
    ]);
    assert!(dir.join("balance/balance.csv").exists());
    // The first player wins one pile of 1 and loses one of 4 (a multiple
    // of 4) against the perfect player: the fair size lies between.
    ok(&[
        "fair",
        "--game",
        "nim",
        "--param",
        "piles",
        "--range",
        "1..4",
        "--precision",
        "3",
        "--agent",
        "perfect-nim",
        "--max-games",
        "40",
        "--threads",
        "1",
        "--out",
        "{dir}/fair",
    ]);
    let fair = std::fs::read_to_string(dir.join("fair/fair.json")).unwrap();
    assert!(
        fair.contains("\"low\": 1.0") && fair.contains("\"high\": 4.0"),
        "{fair}"
    );

    // Nim lists no components to take away; agent kinds of the program's
    // own are refused where a command sets an agent's budget or parameters.
    let refused = |args: &[&str]| {
        let args = in_dir(args, &dir);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(nim_cli(&args), ExitCode::from(2), "{args:?}");
    };
    refused(&[
        "ablate",
        "--game",
        "nim",
        "--games",
        "4",
        "--out",
        "{dir}/ablate",
    ]);
    refused(&[
        "quality",
        "--game",
        "nim",
        "--agents",
        "perfect-nim,random",
        "--games",
        "2",
        "--out",
        "{dir}/quality-own",
    ]);
    assert!(!dir.join("quality-own").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Takes a move that wins at once, else the first legal move: an agent
/// written once for every game.
struct WinNow;

impl AnyAgent for WinNow {
    fn act(&mut self, view: &dyn Position<'_>, me: PlayerId, _rng: &mut GameRng) -> usize {
        (0..view.legal())
            .find(|&i| {
                let mut next = view.fork();
                next.play(i);
                next.turn() == Turn::Terminal && next.returns()[me as usize] > 0.0
            })
            .unwrap_or(0)
    }
}

#[test]
fn an_agent_kind_for_every_game_plays_built_in_and_registered_games() {
    let registry =
        nim_cli::registry().with_any_agent("win-now", "wins at once when it can", |params| {
            params.finish("win-now", &[])?;
            Ok(Box::new(WinNow))
        });
    let cli =
        |args: &[&str]| registry.run_args(std::iter::once("nim_cli").chain(args.iter().copied()));
    let dir = temp_dir("outside-any-agent");
    for game in ["nim(piles=3)", "tictactoe", "connect4", "kuhn"] {
        let _ = std::fs::remove_dir_all(&dir);
        let code = cli(&[
            "run",
            "--game",
            game,
            "--agents",
            "win-now,random",
            "--games",
            "20",
            "--threads",
            "2",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(code, ExitCode::SUCCESS, "{game}");
        let rows = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        let header: Vec<&str> = rows.lines().next().unwrap().split(',').collect();
        let error = header.iter().position(|&c| c == "error").unwrap();
        let mut seated = 0;
        for row in rows.lines().skip(1) {
            let f: Vec<&str> = row.split(',').collect();
            assert_eq!(f[error], "", "{game}: a fault: {row}");
            if f[5] == "win-now" {
                seated += 1;
                // First to move in a single pile of 3, it takes all three.
                if game == "nim(piles=3)" && f[3] == "0" {
                    assert_eq!(f[7], "win", "{row}");
                }
            }
        }
        assert_eq!(seated, 20, "{game}");
    }
    // Its parameters are checked like any kind's, before a game is played.
    let _ = std::fs::remove_dir_all(&dir);
    let code = cli(&[
        "run",
        "--game",
        "nim",
        "--agents",
        "win-now(depth=2),random",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, ExitCode::from(2));
    assert!(!dir.join("games.csv").exists());
}
