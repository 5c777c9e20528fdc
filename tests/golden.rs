//! The runner's outputs do not change when its internals do: small runs of
//! every game (random and greedy agents, duplicate deals, one and two
//! threads, a resumed run and merged shards) are compared byte for byte,
//! timing columns aside, with the files in `tests/golden/`.
//!
//! `BOARDLAB_BLESS=1 cargo test --test golden` rewrites those files; do that
//! only for a change meant to alter results, and say so in its commit.

mod common;

use std::path::Path;

use common::{boardlab, temp_dir, without_timing};

/// Name, game, agents, games, threads, duplicate deals.
const CASES: &[(&str, &str, &str, &str, &str, bool)] = &[
    ("tictactoe", "tictactoe", "random,greedy", "60", "1", false),
    ("connect4", "connect4", "random,random", "60", "2", false),
    ("connect4-dup", "connect4", "greedy,random", "40", "1", true),
    ("kuhn", "kuhn", "random,random", "60", "1", false),
    ("leduc-dup", "leduc", "greedy,random", "40", "2", true),
    ("fox", "fox", "random,random", "40", "1", false),
    ("fox-dup", "fox", "greedy,random", "40", "2", true),
    (
        "fox3",
        "fox(players=3)",
        "random,random,random",
        "30",
        "2",
        false,
    ),
    ("karmaka", "karmaka", "random,random", "20", "2", false),
    ("karmaka-dup", "karmaka", "greedy,random", "16", "1", true),
    ("karmox", "karmox", "random,random", "30", "1", false),
    ("karmox-dup", "karmox", "random,greedy", "20", "2", true),
    (
        "hamunaptra",
        "hamunaptra",
        "random,random",
        "30",
        "2",
        false,
    ),
    (
        "hamunaptra-dup",
        "hamunaptra",
        "greedy,random",
        "20",
        "1",
        true,
    ),
];

fn golden() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"))
}

fn bless() -> bool {
    std::env::var_os("BOARDLAB_BLESS").is_some()
}

/// A run's deterministic files: games.csv without its `*_us` columns, then
/// metrics.csv, summary.csv and seats.csv, each under a heading.
fn outputs(dir: &Path) -> String {
    let mut text = format!("## games.csv\n{}\n", without_timing(&dir.join("games.csv")));
    for f in ["metrics.csv", "summary.csv", "seats.csv"] {
        text += &format!("## {f}\n{}", std::fs::read_to_string(dir.join(f)).unwrap());
    }
    text
}

/// Compares `dir`'s outputs with the golden file `name`, or writes it when blessing.
fn check(name: &str, dir: &Path) {
    let path = golden().join(format!("{name}.txt"));
    let got = outputs(dir);
    if bless() {
        std::fs::create_dir_all(golden()).unwrap();
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "{name}: outputs differ from {} at line {}:\n got: {:?}\nwant: {:?}",
            path.display(),
            line + 1,
            got.lines().nth(line),
            want.lines().nth(line)
        );
    }
}

fn run(dir: &Path, game: &str, agents: &str, games: &str, threads: &str, dup: bool) -> Vec<String> {
    let mut args: Vec<String> = [
        "run",
        "--game",
        game,
        "--agents",
        agents,
        "--games",
        games,
        "--seed",
        "21",
        "--threads",
        threads,
        "--quiet",
        "--out",
    ]
    .map(String::from)
    .to_vec();
    args.push(dir.to_str().unwrap().into());
    if dup {
        args.push("--duplicate".into());
    }
    args
}

fn ok(args: &[String]) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = boardlab(&args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_game_writes_the_golden_rows() {
    for &(name, game, agents, games, threads, dup) in CASES {
        let dir = temp_dir(&format!("golden-{name}"));
        ok(&run(&dir, game, agents, games, threads, dup));
        check(name, &dir);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A run cut after its first games and a torn line, then resumed.
#[test]
fn a_resumed_run_writes_the_golden_rows() {
    let dir = temp_dir("golden-resume");
    let args = run(&dir, "karmaka", "random,greedy", "24", "2", false);
    ok(&args);
    let path = dir.join("games.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    // The header and 11 games of two seats, then half a line.
    let keep: usize = text.split_inclusive('\n').take(1 + 22).map(str::len).sum();
    std::fs::write(&path, &text[..keep + 10]).unwrap();
    let mut resume = args.clone();
    resume.push("--resume".into());
    ok(&resume);
    check("karmaka-resumed", &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Three shards of a duplicate-deal run, merged.
#[test]
fn merged_shards_write_the_golden_rows() {
    let merged = temp_dir("golden-merged");
    let mut merge: Vec<String> = vec![
        "merge".into(),
        "--out".into(),
        merged.to_str().unwrap().into(),
    ];
    let mut shards = Vec::new();
    for k in 1..=3 {
        let dir = temp_dir(&format!("golden-shard-{k}"));
        let mut args = run(&dir, "fox", "random,greedy", "36", "1", true);
        args.extend(["--shard".into(), format!("{k}/3")]);
        ok(&args);
        merge.push(dir.to_str().unwrap().into());
        shards.push(dir);
    }
    ok(&merge);
    check("fox-merged", &merged);
    for d in shards.iter().chain([&merged]) {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// A run of slow agents appends its finished games within seconds, long
/// before it ends, so a kill loses only the games in flight.
#[test]
fn a_slow_run_writes_games_as_they_finish() {
    let dir = temp_dir("golden-flush");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([
            "run",
            "--game",
            "tictactoe",
            "--agents",
            "faulty(fault=slow,ms=30,after=0),random",
            "--games",
            "400",
            "--threads",
            "1",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let mut rows = 0;
    while start.elapsed() < std::time::Duration::from_secs(5) && rows == 0 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        rows = std::fs::read_to_string(dir.join("games.csv"))
            .map_or(0, |t| t.lines().count().saturating_sub(1));
    }
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(running, "the run ended before the check");
    assert!(rows > 0, "no game in games.csv after {:?}", start.elapsed());
    assert_eq!(rows % 2, 0, "a game's rows were split: {rows}");
}
