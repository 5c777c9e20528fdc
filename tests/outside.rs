//! A game and an agent defined outside the crate, as a user's crate defines
//! them (`examples/nim/`), go through the real runner: the conformance suite,
//! a tournament with CSV output, resume after an interruption, and shards
//! merged into one result.

mod common;
#[path = "../examples/nim/game.rs"]
mod nim;

use std::sync::Arc;

use boardlab::arena::merge::merge_for;
use boardlab::game::conformance;
use boardlab::prelude::*;
use common::{temp_dir, without_timing};
use nim::{Nim, PerfectNim};

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
