//! A catalogue of malformed inputs, each through the real binary: game and
//! agent specs, preset files, component data files, results directories given
//! to `merge` and `--resume`, and outputs that cannot be written. Every case
//! must exit with code 2, print exactly one line on stderr naming the problem,
//! never panic, and leave every file already written byte for byte as it was.

mod common;
use common::{boardlab, temp_dir};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use boardlab::games::GAMES;

/// A fresh, existing temporary directory.
fn made_dir(name: &str) -> PathBuf {
    let dir = temp_dir(&format!("bad-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                files.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    files
}

/// One malformed input: the arguments, a word the message must contain, and
/// directories whose files must not change.
struct Case {
    args: Vec<String>,
    needle: String,
    guarded: Vec<PathBuf>,
}

fn case(args: &[&str], needle: &str) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        needle: needle.to_string(),
        guarded: Vec::new(),
    }
}

fn guarded(args: &[&str], needle: &str, dirs: &[&Path]) -> Case {
    Case {
        guarded: dirs.iter().map(|d| d.to_path_buf()).collect(),
        ..case(args, needle)
    }
}

fn run_game(game: &str) -> Vec<String> {
    [
        "run",
        "--game",
        game,
        "--agents",
        "random,random",
        "--games",
        "2",
        "-q",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn check(cases: Vec<Case>) {
    let mut failures = Vec::new();
    for c in &cases {
        let before: Vec<_> = c.guarded.iter().map(|d| snapshot(d)).collect();
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let out = boardlab(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut why = Vec::new();
        if out.status.code() != Some(2) {
            why.push(format!("exit code {:?}", out.status.code()));
        }
        if stderr.trim_end().lines().count() != 1 {
            why.push("not exactly one line on stderr".to_string());
        }
        if !stderr.contains(&c.needle) {
            why.push(format!("'{}' not named", c.needle));
        }
        if stderr.contains("panicked") {
            why.push("panicked".to_string());
        }
        for (d, b) in c.guarded.iter().zip(&before) {
            if &snapshot(d) != b {
                why.push(format!("{} changed", d.display()));
            }
        }
        if !why.is_empty() {
            failures.push(format!("{args:?}: {}; stderr: {stderr}", why.join(", ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn with_game(mut args: Vec<String>, game: &str) -> Vec<String> {
    args[2] = game.to_string();
    args
}

fn owned(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn malformed_game_and_agent_specs() {
    let base = run_game("connect4");
    let game = |g: &str, needle: &str| {
        let args = with_game(base.clone(), g);
        case(&owned(&args), needle)
    };
    let agents = |a: &str, needle: &str| {
        let mut args = base.clone();
        args[4] = a.to_string();
        case(&owned(&args), needle)
    };
    let mut cases = vec![
        game("chess", "unknown game 'chess'"),
        game("", "empty name"),
        game("connect4(", "missing closing ')'"),
        game("connect4(rows)", "'rows' is not key=value"),
        game("connect4(a=1,a=2)", "'a' is given twice"),
        game("connect4((a=1))", "nested parentheses"),
        game("connect 4", "may only hold"),
        game("fox(players=3,alone=cats)", "bad value 'cats' for 'alone'"),
        game("fox(alone=foxes)", "'alone' only applies to players=3"),
        game("fox(stay_ability=maybe)", "bad value 'maybe'"),
        game("fox(guard=diagonal)", "bad value 'diagonal'"),
        agents("random,deep_blue", "unknown agent 'deep_blue'"),
        agents("random", "needs exactly 2 agents"),
        agents("random,random,random", "needs exactly 2 agents"),
        agents("random,,random", "empty item"),
        agents("random,mcts(iterations=10", "unbalanced parentheses"),
        agents("random,random(depth=3)", "no parameter 'depth'"),
        agents(
            "random,mcts(iterations=0)",
            "bad value '0' for 'iterations'",
        ),
        agents("random,mcts(iterations=-5)", "bad value '-5'"),
        agents("random,mcts(c=fast)", "bad value 'fast' for 'c'"),
        agents("random,mcts(c=NaN)", "bad value 'NaN' for 'c'"),
        agents("random,mcts(epsilon=2)", "bad value '2' for 'epsilon'"),
        agents("random,ismcts-1k(colour=red)", "no parameter 'colour'"),
        agents("random,faulty(fault=explode)", "bad value 'explode'"),
        agents("random,@", "cannot use data file"),
    ];
    // Generic over the registry: every game rejects an unknown parameter, and
    // every game with a `players` parameter rejects counts out of its range.
    for info in GAMES {
        cases.push(game(
            &format!("{}(no_such_parameter=1)", info.name),
            "no parameter 'no_such_parameter'",
        ));
        if info.params.iter().any(|p| p.name == "players") {
            for bad in ["0", "1", "99", "two", "-2", "2.5"] {
                cases.push(game(
                    &format!("{}(players={bad})", info.name),
                    &format!("bad value '{bad}' for 'players'"),
                ));
            }
        }
    }
    cases.push(case(&["bench", "--game", "chess"], "unknown game 'chess'"));
    cases.push(case(&["soak", "--game", "fox(players=9)"], "for 'players'"));
    check(cases);
}

#[test]
fn malformed_preset_files() {
    let dir = made_dir("presets");
    let preset = |name: &str, body: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        format!("random,@{}", p.display())
    };
    let base = run_game("tictactoe");
    let agents = |a: String, needle: &str| {
        let mut args = base.clone();
        args[4] = a;
        case(&owned(&args), needle)
    };
    let cases = vec![
        agents(preset("syntax.toml", b"kind = = 'random'"), "syntax.toml"),
        agents(preset("empty.toml", b""), "missing field"),
        agents(
            preset("kind.toml", b"description = 'x'\nkind = 'alphazero'"),
            "unknown agent 'alphazero'",
        ),
        agents(
            preset(
                "field.toml",
                b"description = 'x'\nkind = 'random'\ncolour = 'red'",
            ),
            "unknown field",
        ),
        agents(
            preset("type.toml", b"description = 'x'\nkind = 3"),
            "invalid type",
        ),
        agents(
            preset(
                "params.toml",
                b"description = 'x'\nkind = 'random'\nparams = 7",
            ),
            "invalid type",
        ),
        agents(
            preset(
                "value.toml",
                b"description = 'x'\nkind = 'mcts'\n[params]\niterations = 'lots'",
            ),
            "bad value 'lots' for 'iterations'",
        ),
        agents(
            preset(
                "unknown-param.toml",
                b"description = 'x'\nkind = 'greedy'\n[params]\ndepth = 2",
            ),
            "no parameter 'depth'",
        ),
        agents(
            preset(
                "table.toml",
                b"description = 'x'\nkind = 'mcts'\n[params.c]\nx = 1",
            ),
            "bad value",
        ),
        agents(
            preset("binary.toml", &[0xff, 0xfe, 0x00, 0x80]),
            "binary.toml",
        ),
        agents(format!("random,@{}", dir.display()), "cannot use data file"),
        agents(
            format!("random,@{}/missing.toml", dir.display()),
            "missing.toml",
        ),
        agents("random,@/dev/zero".to_string(), "larger than"),
    ];
    check(cases);
}

#[test]
fn malformed_component_data_files() {
    let dir = made_dir("data");
    let file = |name: &str, body: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        p.display().to_string()
    };
    let base = run_game("tictactoe");
    let mut cases = Vec::new();
    // A Karmox board row with a character of several bytes (as many
    // characters as the width, more bytes) would shift its squares.
    let board: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/games/karmox/board.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let mut wide = board.clone();
    let row = wide["rows"][2].as_str().unwrap().replacen('.', "é", 1);
    wide["rows"][2] = serde_json::json!(row);
    let wide = file("wide-row.json", wide.to_string().as_bytes());
    cases.push(case(
        &owned(&with_game(base.clone(), &format!("karmox(board={wide})"))),
        "outside ASCII",
    ));
    // Generic over the registry: every parameter that replaces embedded
    // component data by a file rejects missing, malformed and mis-shaped files.
    let mut file_params = 0;
    for info in GAMES {
        for p in info
            .params
            .iter()
            .filter(|p| p.default.starts_with("embedded"))
        {
            file_params += 1;
            let spec = |path: &str| format!("{}({}={path})", info.name, p.name);
            let bad_files = [
                (format!("{}/missing.toml", dir.display()), "missing.toml"),
                (file("syntax.toml", b"[[[ not toml"), "syntax.toml"),
                (file("syntax.json", b"{\"version\": "), "syntax.json"),
                (file("shape.toml", b"x = 1"), "shape.toml"),
                (file("shape.json", b"[1, 2, 3]"), "shape.json"),
                (file("empty.toml", b""), "empty.toml"),
                (file("binary.toml", &[0xff, 0x00, 0xfe]), "binary.toml"),
                (dir.display().to_string(), "cannot use data file"),
                ("/dev/zero".to_string(), "larger than"),
            ];
            for (path, needle) in bad_files {
                cases.push(case(&owned(&with_game(base.clone(), &spec(&path))), needle));
            }
        }
    }
    assert!(file_params >= 1, "no game has a data-file parameter");
    // Wrong counts in an otherwise valid file (Fox on the Run's tile set).
    let tiles = include_str!("../src/games/fox/tiles.toml");
    for (name, body, needle) in [
        (
            "count.toml",
            tiles.replacen("copies = 3", "copies = 4", 1),
            "add up to 23",
        ),
        (
            "zero.toml",
            tiles.replacen("copies = 3", "copies = 0", 1),
            "0 copies",
        ),
        (
            "overflow.toml",
            tiles
                .replacen("copies = 3", "copies = 4294967295", 1)
                .replacen("copies = 3", "copies = 4", 1),
            "add up to",
        ),
        (
            "cap.toml",
            tiles.replace("turn_cap = 200", "turn_cap = 99999999"),
            "turn_cap",
        ),
        (
            "negative.toml",
            tiles.replace("turn_cap = 200", "turn_cap = -1"),
            "turn_cap",
        ),
    ] {
        let path = file(name, body.as_bytes());
        cases.push(case(
            &owned(&with_game(base.clone(), &format!("fox(tiles={path})"))),
            needle,
        ));
    }
    check(cases);
}

/// A finished run in a fresh directory (its files are what must not change).
fn finished_run(name: &str, extra: &[&str]) -> PathBuf {
    let dir = made_dir(name);
    let out = dir.join("run");
    let mut args = vec![
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
        out.to_str().unwrap(),
    ];
    // Flags in `extra` replace the defaults above.
    for pair in extra.chunks(2) {
        match args.iter().position(|a| *a == pair[0]) {
            Some(at) => args[at + 1] = pair[1],
            None => args.extend_from_slice(pair),
        }
    }
    let o = boardlab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

fn resume_args(dir: &Path) -> Vec<String> {
    [
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
        "--resume",
        "--out",
        dir.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn edit(dir: &Path, file: &str, f: impl FnOnce(String) -> String) {
    let p = dir.join(file);
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, f(text)).unwrap();
}

#[test]
fn malformed_results_given_to_resume_and_merge() {
    let mut cases = Vec::new();
    // --resume
    let garbage = finished_run("r-garbage", &[]);
    edit(&garbage, "games.csv", |t| {
        let mut lines: Vec<&str> = t.lines().collect();
        lines[3] = "0,1,tictactoe,zero,0,random,,maybe,x,y,z,,,,,,,";
        lines.join("\n") + "\n"
    });
    cases.push(guarded(
        &owned(&resume_args(&garbage)),
        "malformed games.csv",
        &[&garbage],
    ));
    let no_manifest = finished_run("r-nomanifest", &[]);
    std::fs::remove_file(no_manifest.join("run.json")).unwrap();
    cases.push(guarded(
        &owned(&resume_args(&no_manifest)),
        "run.json",
        &[&no_manifest],
    ));
    let bad_manifest = finished_run("r-badmanifest", &[]);
    std::fs::write(bad_manifest.join("run.json"), "{\"game\": 3").unwrap();
    cases.push(guarded(
        &owned(&resume_args(&bad_manifest)),
        "malformed",
        &[&bad_manifest],
    ));
    let other = finished_run("r-other", &[]);
    let foreign = finished_run("r-foreign", &["--seed", "99"]);
    std::fs::copy(foreign.join("run.json"), other.join("run.json")).unwrap();
    cases.push(guarded(
        &owned(&resume_args(&other)),
        "seed differs",
        &[&other],
    ));
    let torn_header = finished_run("r-tornheader", &[]);
    edit(&torn_header, "games.csv", |t| {
        t.replacen("game_index,seed,", "game_in\n", 1)
    });
    cases.push(guarded(
        &owned(&resume_args(&torn_header)),
        "games.csv",
        &[&torn_header],
    ));
    let misplaced = finished_run("r-misplaced", &[]);
    edit(&misplaced, "games.csv", |t| {
        let mut lines: Vec<&str> = t.lines().collect();
        lines.swap(1, 3);
        lines.join("\n") + "\n"
    });
    cases.push(guarded(
        &owned(&resume_args(&misplaced)),
        "does not belong",
        &[&misplaced],
    ));
    let absent = std::env::temp_dir().join(format!("boardlab-bad-{}-absent", std::process::id()));
    cases.push(case(&owned(&resume_args(&absent)), "run.json"));

    // merge
    let shard = |name: &str, k: &str| finished_run(name, &["--shard", k]);
    let (s1, s2) = (shard("m-1", "1/2"), shard("m-2", "2/2"));
    let merge = |dirs: &[&Path], out: &Path| -> Vec<String> {
        let mut a = vec![
            "merge".to_string(),
            "--out".to_string(),
            out.display().to_string(),
        ];
        a.extend(dirs.iter().map(|d| d.display().to_string()));
        a
    };
    let out = made_dir("m-out").join("merged");
    let garbage2 = shard("m-garbage", "2/2");
    std::fs::write(garbage2.join("games.csv"), "\u{1}\u{2}garbage\"\n\"x,y\n").unwrap();
    cases.push(guarded(
        &owned(&merge(&[&s1, &garbage2], &out)),
        "malformed",
        &[&s1, &garbage2],
    ));
    let torn2 = shard("m-torn", "2/2");
    edit(&torn2, "games.csv", |t| {
        t.replacen("game_index,seed,", "game_in\n", 1)
    });
    cases.push(guarded(
        &owned(&merge(&[&s1, &torn2], &out)),
        "games.csv",
        &[&s1, &torn2],
    ));
    let nomani2 = shard("m-nomanifest", "2/2");
    std::fs::remove_file(nomani2.join("run.json")).unwrap();
    cases.push(guarded(
        &owned(&merge(&[&s1, &nomani2], &out)),
        "run.json",
        &[&s1, &nomani2],
    ));
    let other2 = finished_run("m-other", &["--shard", "2/2", "--seed", "8"]);
    cases.push(guarded(
        &owned(&merge(&[&s1, &other2], &out)),
        "seed differs",
        &[&s1, &other2],
    ));
    cases.push(guarded(&owned(&merge(&[&s1], &out)), "missing", &[&s1]));
    let no_agents = shard("m-noagents", "1/1");
    edit(&no_agents, "run.json", |t| {
        let mut v: serde_json::Value = serde_json::from_str(&t).unwrap();
        v["agents"] = serde_json::json!([]);
        v["resolved_agents"] = serde_json::json!([]);
        v.to_string()
    });
    std::fs::write(no_agents.join("games.csv"), "").unwrap();
    cases.push(guarded(
        &owned(&merge(&[&no_agents], &out)),
        "agents",
        &[&no_agents],
    ));
    let huge = shard("m-huge", "1/1");
    edit(&huge, "run.json", |t| {
        t.replace("\"games\": 10", "\"games\": 18446744073709551615")
    });
    cases.push(guarded(&owned(&merge(&[&huge], &out)), "games", &[&huge]));
    let absent2 = std::env::temp_dir().join(format!("boardlab-bad-{}-absent2", std::process::id()));
    cases.push(guarded(
        &owned(&merge(&[&s1, &absent2], &out)),
        "run.json",
        &[&s1],
    ));
    // An existing merged result is not overwritten without --force.
    let merged = made_dir("m-done").join("merged");
    let ok = boardlab(&owned(&merge(&[&s1, &s2], &merged)));
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    cases.push(guarded(
        &owned(&merge(&[&s1, &s2], &merged)),
        "--force",
        &[&merged, &s1, &s2],
    ));
    check(cases);
}

#[test]
fn outputs_that_cannot_be_written() {
    let dir = made_dir("unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let under_file = format!("{}/sub", file.display());
    let base = run_game("tictactoe");
    let with = |extra: &[&str]| {
        let mut a = base.clone();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let summary_dir = dir.join("summary-is-dir");
    std::fs::create_dir_all(summary_dir.join("summary.csv")).unwrap();
    let games_dir = dir.join("games-is-dir");
    std::fs::create_dir_all(games_dir.join("games.csv")).unwrap();
    let existing = finished_run("u-existing", &[]);
    let shards = finished_run("u-shard", &["--shard", "1/1"]);
    let cases = vec![
        case(&owned(&with(&["--out", &under_file])), "cannot write"),
        case(
            &owned(&with(&["--out", "/proc/version/out"])),
            "cannot write",
        ),
        case(&owned(&with(&["--trace", &under_file])), "cannot write"),
        case(
            &owned(&with(&["--out", summary_dir.to_str().unwrap()])),
            "summary.csv",
        ),
        case(
            &owned(&with(&["--out", games_dir.to_str().unwrap(), "--force"])),
            "games.csv",
        ),
        guarded(
            &[
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
                existing.to_str().unwrap(),
            ],
            "already holds results",
            &[&existing],
        ),
        guarded(
            &["merge", "--out", &under_file, shards.to_str().unwrap()],
            "sub",
            &[&shards],
        ),
    ];
    check(cases);
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}

#[test]
fn counts_and_thread_limits_out_of_range() {
    let base = run_game("tictactoe");
    let with = |flag: &str, value: &str| {
        let mut a = base.clone();
        let at = a.iter().position(|x| x == flag);
        match at {
            Some(i) => a[i + 1] = value.to_string(),
            None => a.extend([flag.to_string(), value.to_string()]),
        }
        a
    };
    let mut cases = Vec::new();
    for games in [
        "0",
        "18446744073709551614",
        "18446744073709551615",
        "100000000000000",
    ] {
        cases.push(case(&owned(&with("--games", games)), "number of games"));
    }
    cases.push(case(&owned(&with("--threads", "100000")), "thread count"));
    cases.push(case(
        &["soak", "--games", "18446744073709551615"],
        "number of games",
    ));
    let sprt = |extra: &[&str]| {
        let mut a = vec!["sprt", "--game", "tictactoe", "--agents", "random,random"];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    cases.push(case(
        &owned(&sprt(&["--max-games", "10", "--elo0", "0", "--elo1", "5"])),
        "--max-games",
    ));
    cases.push(case(
        &owned(&sprt(&["--max-games", "0", "--elo0", "0", "--elo1", "5"])),
        "--max-games",
    ));
    cases.push(case(
        &owned(&sprt(&["--elo0=-inf", "--elo1", "5"])),
        "finite",
    ));
    cases.push(case(
        &owned(&sprt(&["--elo0=NaN", "--elo1", "5"])),
        "finite",
    ));
    check(cases);
}

#[test]
fn standard_output_that_fails() {
    // A full device: one line, exit 2, no panic.
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"))
            .arg("agents")
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains("standard output"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // A pipe closed by the reader: a quiet exit 0.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["soak", "--games", "200"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.trim().is_empty(), "{stderr}");
}

/// `replay` recomputes a trace's result and refuses one that disagrees; a
/// trace whose header names no agents, and `bench` of an agent that panics,
/// are one-line errors, not panics. Genuine traces, those of games ended by a
/// game's own cap included, replay cleanly.
#[test]
fn forged_traces_and_panicking_agents() {
    let dir = made_dir("forged");
    let traces = dir.join("traces");
    let t = traces.to_str().unwrap();
    for (game, seats) in [
        ("tictactoe", "random,random"),
        ("hamunaptra(max_rounds=1)", "random,random"),
    ] {
        let out = boardlab(&[
            "run", "--game", game, "--agents", seats, "--games", "2", "-q", "--trace", t, "--force",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let first = traces.join("game-00000000.jsonl");
        let out = boardlab(&["replay", first.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if game != "tictactoe" {
            continue;
        }
        let text = std::fs::read_to_string(&first).unwrap();
        let mut lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let forge = |name: &str, lines: &[serde_json::Value]| {
            let p = dir.join(name);
            let body: Vec<String> = lines.iter().map(|v| v.to_string()).collect();
            std::fs::write(&p, body.join("\n") + "\n").unwrap();
            p.to_str().unwrap().to_string()
        };
        let last = lines.len() - 1;
        let mut outcomes = lines.clone();
        outcomes[last]["outcomes"] = serde_json::json!(["loss", "loss"]);
        let mut truncated = lines.clone();
        truncated[last]["truncated"] = serde_json::json!(true);
        let mut ending = lines.clone();
        ending[last]["ending"] = serde_json::json!("full-board-or-not");
        lines[0]["agents"] = serde_json::json!([]);
        let cases = vec![
            case(&["replay", &forge("outcomes.jsonl", &outcomes)], "outcomes"),
            case(
                &["replay", &forge("truncated.jsonl", &truncated)],
                "truncated",
            ),
            case(&["replay", &forge("ending.jsonl", &ending)], "ended by"),
            case(
                &["replay", &forge("no-agents.jsonl", &lines)],
                "names 0 agents",
            ),
            case(
                &[
                    "bench",
                    "--game",
                    "connect4",
                    "--agent",
                    "faulty",
                    "--seconds",
                    "0.1",
                ],
                "crashed",
            ),
        ];
        check(cases);
    }
}

/// Karmaka card tables that cannot be played are refused at load, in one line
/// naming the file and the problem: counts that do not make the 64-card deck,
/// a type with no copies, and codes or names that would clash in the metric
/// columns or the action labels.
#[test]
fn unplayable_karmaka_data() {
    let dir = made_dir("karmaka-cards");
    let cards = include_str!("../src/games/karmaka/cards.toml");
    let base = run_game("karmaka");
    let mut cases = Vec::new();
    for (name, body, why) in [
        (
            "short.toml",
            cards.replacen("copies = 3", "copies = 2", 1),
            "add up to 63",
        ),
        (
            "zero.toml",
            cards
                .replacen("copies = 3", "copies = 0", 1)
                .replacen("copies = 2", "copies = 5", 1),
            "'PAN' has 0 copies",
        ),
        (
            "same-code.toml",
            cards.replacen("code = \"DWI\"", "code = \"pan\"", 1),
            "'pan' is used twice",
        ),
        (
            "taken-metric.toml",
            cards.replacen("code = \"DWI\"", "code = \"ALLY\"", 1),
            "played_ally_future",
        ),
        (
            "comma-code.toml",
            cards.replacen("code = \"DWI\"", "code = \"D,W\"", 1),
            "ASCII letters or digits",
        ),
        (
            "same-name.toml",
            cards.replacen("name = \"Dwindle\"", "name = \"Panic\"", 1),
            "'Panic' is used twice",
        ),
        (
            "who.toml",
            cards.replacen("who = \"any\"", "who = \"self\"", 1),
            "does not fit",
        ),
        (
            "points.toml",
            cards.replacen("points = 1", "points = 12", 1),
            "max 9",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        let spec = format!("karmaka(cards={})", path.display());
        cases.push(case(
            &owned(&with_game(base.clone(), &spec)),
            &format!("{name}': "),
        ));
        cases.push(case(&owned(&with_game(base.clone(), &spec)), why));
    }
    check(cases);
}

#[test]
fn balance_inputs() {
    let out = made_dir("balance-out");
    let o = out.to_str().unwrap();
    let taken = made_dir("balance-taken");
    std::fs::write(taken.join("balance.csv"), "budget\n").unwrap();
    std::fs::write(taken.join("fair.csv"), "value\n").unwrap();
    std::fs::write(taken.join("ablate.csv"), "component\n").unwrap();
    let t = taken.to_str().unwrap();
    let balance = |extra: &[&str]| -> Vec<String> {
        let mut a = vec![
            "balance", "--game", "planted", "--agent", "mcts", "--out", o,
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect()
    };
    let fair = |extra: &[&str]| -> Vec<String> {
        let mut a = vec!["fair", "--game", "planted", "--param", "komi", "--out", o];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect()
    };
    let ablate = |extra: &[&str]| -> Vec<String> {
        let mut a = vec!["ablate", "--game", "planted", "--games", "10", "--out", o];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect()
    };
    let cases = vec![
        case(&owned(&balance(&["--budgets", "10,abc"])), "--budgets"),
        case(&owned(&balance(&["--budgets", "20,10"])), "increasing"),
        case(&owned(&balance(&["--budgets", "0"])), "--budgets"),
        case(
            &owned(&balance(&["--budgets", "10", "--until", "ci=2"])),
            "ci=X",
        ),
        case(
            &owned(&balance(&["--budgets", "10", "--tolerance", "0"])),
            "--tolerance",
        ),
        case(
            &owned(&balance(&["--budgets", "10", "--max-seconds", "0"])),
            "--max-seconds",
        ),
        case(
            &[
                "balance",
                "--game",
                "planted",
                "--agent",
                "greedy",
                "--budgets",
                "10",
                "--out",
                o,
            ],
            "search agent",
        ),
        case(
            &["balance", "--game", "chess", "--budgets", "10", "--out", o],
            "unknown game 'chess'",
        ),
        guarded(
            &[
                "balance",
                "--game",
                "planted",
                "--agent",
                "mcts",
                "--budgets",
                "4",
                "--out",
                t,
            ],
            "--force",
            &[&taken],
        ),
        case(&owned(&fair(&["--range", "0.5..0"])), "--range"),
        case(&owned(&fair(&["--range", "zero..1"])), "--range"),
        case(
            &owned(&fair(&["--range", "0..0.5", "--target", "1.5"])),
            "--target",
        ),
        case(
            &owned(&fair(&["--range", "0..0.5", "--precision", "0"])),
            "--precision",
        ),
        case(
            &[
                "fair", "--game", "planted", "--param", "colour", "--range", "0..1", "--out", o,
            ],
            "no parameter 'colour'",
        ),
        case(&owned(&fair(&["--range", "0..5"])), "for 'komi'"),
        case(&owned(&fair(&["--range", "0.5..0.55"])), "does not cross"),
        case(
            &owned(&fair(&["--range", "0..0.5", "--seat", "4"])),
            "--seat 4",
        ),
        case(
            &owned(&fair(&["--range", "0..0.5", "--agent", "nobody"])),
            "unknown agent 'nobody'",
        ),
        guarded(
            &[
                "fair", "--game", "planted", "--param", "komi", "--range", "0..0.5", "--out", t,
            ],
            "--force",
            &[&taken],
        ),
        case(
            &["ablate", "--game", "connect4", "--out", o],
            "lists no components",
        ),
        case(
            &owned(&ablate(&["--components", "dice"])),
            "no component 'dice'",
        ),
        case(
            &owned(&ablate(&["--agent", "nobody"])),
            "unknown agent 'nobody'",
        ),
        case(
            &[
                "run",
                "--game",
                "karmaka(no_ability=XYZ)",
                "--agents",
                "random,random",
                "--games",
                "2",
                "-q",
            ],
            "bad value 'XYZ' for 'no_ability'",
        ),
        guarded(
            &["ablate", "--game", "planted", "--games", "10", "--out", t],
            "--force",
            &[&taken],
        ),
    ];
    check(cases);
    assert!(!out.join("balance.csv").exists() && !out.join("fair.csv").exists());
}
