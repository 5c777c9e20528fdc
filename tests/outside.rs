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
fn a_registered_game_refuses_bad_input_and_commands_it_cannot_reach() {
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
    assert_eq!(
        nim_cli(&[
            "sprt",
            "--game",
            "nim",
            "--agents",
            "random,random",
            "--elo1",
            "50"
        ]),
        bad
    );
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
