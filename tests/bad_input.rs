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
    /// Text that must not appear on stderr (contents of a file read by mistake).
    hidden: Vec<String>,
}

fn case(args: &[&str], needle: &str) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        needle: needle.to_string(),
        guarded: Vec::new(),
        hidden: Vec::new(),
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
        for h in c.hidden.iter().filter(|h| stderr.contains(h.as_str())) {
            why.push(format!("quoted '{h}'"));
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
    // Shown with --nocapture: the size of the catalogue.
    println!("catalogue: {} cases", cases.len());
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
        // One agent fills every seat; two of three seats is no lineup.
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
        agents(
            "random,ismcts(time_ms=5,cpu_ms=5)",
            "time_ms and cpu_ms exclude each other",
        ),
        agents("random,ismcts(threads=0)", "bad value '0' for 'threads'"),
        agents("random,mcts(widen=2)", "bad value '2' for 'widen'"),
        agents(
            "random,ismcts(reuse=maybe)",
            "bad value 'maybe' for 'reuse'",
        ),
        agents("random,moismcts(reuse=true)", "no parameter 'reuse'"),
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
        agents(
            format!("random,@{}", socket_file(&dir)),
            "not a regular file",
        ),
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
                (socket_file(&dir), "not a regular file"),
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

/// Component data that parses and passes the shape checks but could not
/// give a playable game (every game stuck, ended at once or at the cap) is
/// refused at load, with the file named.
#[test]
fn unplayable_game_data_files() {
    let dir = made_dir("unplayable");
    let file = |name: &str, body: &str| {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        p.display().to_string()
    };
    let base = run_game("tictactoe");
    let mut cases = Vec::new();
    let mut push = |spec: String, path: &str, needle: &str| {
        cases.push(case(&owned(&with_game(base.clone(), &spec)), needle));
        // The message names the file too.
        cases.push(case(&owned(&with_game(base.clone(), &spec)), path));
    };
    // Hamunaptra.
    let comps = include_str!("../src/games/hamunaptra/components.toml");
    let parsed: toml::Table = comps.parse().unwrap();
    let mut no_tiles = parsed.clone();
    no_tiles.insert("tile".into(), toml::Value::Array(Vec::new()));
    let path = file("no-tiles.toml", &toml::to_string(&no_tiles).unwrap());
    push(
        format!("hamunaptra(components={path})"),
        &path,
        "no pile tiles",
    );
    let one_square = comps.replacen(
        "{ tile = \"ENTR\", x = 3, y = 0, rot = 270 }",
        "{ tile = \"ENTR\", x = -3, y = 0, rot = 270 }",
        1,
    );
    assert_ne!(one_square, comps);
    let path = file("one-square.toml", &one_square);
    push(
        format!("hamunaptra(components={path})"),
        &path,
        "two start tiles at (-3, 0)",
    );
    let mut small = parsed.clone();
    let first = small["tile"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t.get("symbol").is_none())
        .unwrap()
        .clone();
    let mut one = first.as_table().unwrap().clone();
    one.insert("count".into(), toml::Value::Integer(3));
    small.insert("tile".into(), toml::Value::Array(vec![one.into()]));
    small.insert("encounter".into(), toml::Value::Array(Vec::new()));
    small.insert("equipment".into(), toml::Value::Array(Vec::new()));
    let path = file("small-pile.toml", &toml::to_string(&small).unwrap());
    push(
        format!("hamunaptra(components={path})"),
        &path,
        "too few to deal 2 hands of 4",
    );
    // Entrances with no open side: no network can grow, so every game
    // would stop at the round cap (found by a short probe of random games).
    let closed = comps.replacen(
        "id = \"ENTR\"\nshape = \"entrance, rockfall with cross on the closed side\"\nopen = \"ESW\"",
        "id = \"ENTR\"\nopen = \"\"",
        1,
    );
    assert_ne!(closed, comps);
    let path = file("closed-entrances.toml", &closed);
    for players in 2..=4 {
        for rule5 in [false, true] {
            push(
                format!("hamunaptra(players={players},rule5={rule5},components={path})"),
                &path,
                "no game can end on its layout",
            );
        }
    }
    push(
        format!("hamunaptra(max_rounds=200,components={path})"),
        &path,
        "no network can grow",
    );
    // Karmox: the portal's access squares walled in.
    let board: serde_json::Value =
        serde_json::from_str(include_str!("../src/games/karmox/board.json")).unwrap();
    let mut walled = board.clone();
    for (x, y) in [(11, 7), (12, 8), (12, 9), (11, 10)] {
        let row: String = walled["rows"][y]
            .as_str()
            .unwrap()
            .char_indices()
            .map(|(i, c)| if i == x { '#' } else { c })
            .collect();
        walled["rows"][y] = serde_json::json!(row);
    }
    let path = file("walled.json", &walled.to_string());
    push(
        format!("karmox(board={path})"),
        &path,
        "no portal access square can be reached",
    );
    let path = file("no-missions.json", "[]");
    push(
        format!("karmox(missions={path})"),
        &path,
        "mission cards expected",
    );
    // Fox on the Run: a tile set that cannot fill the 22 squares.
    let tiles = include_str!("../src/games/fox/tiles.toml");
    let path = file("short.toml", &tiles.replacen("copies = 3", "copies = 1", 1));
    push(format!("fox(tiles={path})"), &path, "add up to 20");
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
    // A special file of the test's own making, not one of the machine's.
    let fifo = dir.join("a-fifo");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let under_fifo = format!("{}/out", fifo.display());
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
        case(&owned(&with(&["--out", &under_fifo])), "cannot write"),
        case(&owned(&with(&["--out", fifo.to_str().unwrap()])), "a-fifo"),
        case(
            &owned(&with(&["--trace", fifo.to_str().unwrap()])),
            "a-fifo",
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
    for limit in ["0", "3600001", "18446744073709551615"] {
        cases.push(case(
            &owned(&with("--move-timeout-ms", limit)),
            "--move-timeout-ms takes milliseconds from 1 to 3600000",
        ));
    }
    for flag in ["--time-ms", "--cpu-ms"] {
        let out = made_dir("ladder-budget");
        cases.push(case(
            &[
                "ladder",
                "--game",
                "tictactoe",
                "--agents",
                "mcts",
                flag,
                "10,3600001",
                "--out",
                out.to_str().unwrap(),
            ],
            &format!("{flag} takes whole numbers from 1 to 3600000"),
        ));
    }
    for budget in ["ismcts(time_ms=3600001)", "mcts(cpu_ms=99999999999)"] {
        cases.push(case(
            &owned(&with("--agents", &format!("random,{budget}"))),
            "an integer from 0 to 3600000",
        ));
    }
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
    // Standard output that cannot take a byte (a file this test made, which
    // the child may not grow; no device of the machine's): one line, exit 2,
    // no panic.
    let dir = made_dir("stdout-full");
    for args in [
        &["agents"][..],
        &["games"],
        &["completions", "bash"],
        &["man"],
    ] {
        let out = capped_stdout(&dir, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("standard output"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
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
        let mut no_returns = lines.clone();
        no_returns[last]["returns"] = serde_json::json!([]);
        lines[0]["agents"] = serde_json::json!([]);
        // `view` refuses what `replay` refuses, and draws nothing.
        let page = dir.join("pages").join("forged.html");
        let page = page.to_str().unwrap();
        let view = |trace: String| vec!["view".to_string(), trace, "--out".into(), page.into()];
        let views = [
            (forge("outcomes.jsonl", &outcomes), "outcomes"),
            (forge("truncated.jsonl", &truncated), "truncated"),
            (forge("ending.jsonl", &ending), "ended by"),
            (forge("no-returns.jsonl", &no_returns), "0 returns"),
        ];
        std::fs::create_dir_all(dir.join("pages")).unwrap();
        check(
            views
                .iter()
                .map(|(t, says)| guarded(&owned(&view(t.clone())), says, &[&dir.join("pages")]))
                .collect(),
        );
        assert!(!dir.join("pages").join("forged.html").exists());
        let cases = vec![
            case(
                &["replay", &forge("no-returns.jsonl", &no_returns)],
                "0 returns",
            ),
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

/// Replaces field `col` of every games.csv row for which `pick(game, seat)`
/// holds (tictactoe rows hold no quoted commas).
fn edit_rows(
    dir: &Path,
    col: usize,
    pick: impl Fn(u64, u8) -> bool,
    value: &dyn Fn(&str) -> String,
) {
    edit(dir, "games.csv", |t| {
        let mut out = Vec::new();
        for (i, line) in t.lines().enumerate() {
            let mut f: Vec<String> = line.split(',').map(String::from).collect();
            if i > 0 && pick(f[0].parse().unwrap(), f[3].parse().unwrap()) {
                f[col] = value(&f[col]);
            }
            out.push(f.join(","));
        }
        out.join("\n") + "\n"
    });
}

/// games.csv columns edited below.
const SEED: usize = 1;
const GAME: usize = 2;
const AGENT_INDEX: usize = 4;
const OUTCOME: usize = 7;
const RETURN: usize = 9;

fn flip(outcome: &str) -> String {
    if outcome == "win" { "loss" } else { "win" }.to_string()
}

/// Every row given to `merge` and `--resume` is checked against the run: its
/// seed (derived from the master seed and the index), game, seating and agent
/// index, outcomes that follow from its returns, each shard's index range and
/// completeness, and its metrics.csv.
#[test]
fn edited_rows_are_refused_by_merge_and_resume() {
    let mut cases = Vec::new();
    type Edit = Box<dyn Fn(&Path)>;
    let edits: Vec<(&str, Edit, &str)> = vec![
        (
            "seed",
            Box::new(|d: &Path| edit_rows(d, SEED, |g, _| g == 2, &|_| "12345".into())),
            "is not derived from master seed 3",
        ),
        (
            "outcome",
            Box::new(|d: &Path| edit_rows(d, OUTCOME, |g, s| g == 2 && s == 0, &flip)),
            "its returns give",
        ),
        (
            "return",
            Box::new(|d: &Path| edit_rows(d, RETURN, |g, _| g == 2, &|_| "NaN".into())),
            "not a finite number",
        ),
        (
            "agent-range",
            Box::new(|d: &Path| {
                edit_rows(d, AGENT_INDEX, |g, s| g == 2 && s == 1, &|_| "7".into())
            }),
            "names agent 7",
        ),
        (
            "seating",
            Box::new(|d: &Path| {
                edit_rows(d, AGENT_INDEX, |g, _| g == 2, &|a| {
                    if a == "0" { "1" } else { "0" }.into()
                })
            }),
            "seats agent",
        ),
        (
            "game",
            Box::new(|d: &Path| edit_rows(d, GAME, |g, _| g == 2, &|_| "connect4".into())),
            "is of game connect4",
        ),
        (
            "metrics",
            Box::new(|d: &Path| std::fs::remove_file(d.join("metrics.csv")).unwrap()),
            "metrics.csv",
        ),
    ];
    // --resume of a finished run: every complete game is checked.
    for (name, edit, needle) in &edits {
        let dir = finished_run(&format!("rows-r-{name}"), &[]);
        edit(&dir);
        cases.push(guarded(&owned(&resume_args(&dir)), needle, &[&dir]));
    }
    // merge: the same edits in shard 2 of 2 (its games are 1, 3, 5, ...).
    let s1 = finished_run("rows-s1", &["--shard", "1/2"]);
    let out = made_dir("rows-out").join("merged");
    let merge = |dirs: &[&Path]| -> Vec<String> {
        let mut a = vec![
            "merge".to_string(),
            "--out".into(),
            out.display().to_string(),
        ];
        a.extend(dirs.iter().map(|d| d.display().to_string()));
        a
    };
    for (name, edit, needle) in &edits {
        let dir = finished_run(&format!("rows-m-{name}"), &["--shard", "2/2"]);
        // Shard 2 holds odd games: game 3 is edited in place of game 2.
        edit_shard(&dir, edit.as_ref());
        cases.push(guarded(&owned(&merge(&[&s1, &dir])), needle, &[&s1, &dir]));
    }
    // A shard holding another shard's games, a shard cut short, a shard
    // given twice.
    let foreign = finished_run("rows-m-foreign", &["--shard", "2/2"]);
    std::fs::copy(s1.join("games.csv"), foreign.join("games.csv")).unwrap();
    cases.push(guarded(
        &owned(&merge(&[&s1, &foreign])),
        "does not belong to shard 2/2",
        &[&s1, &foreign],
    ));
    let short = finished_run("rows-m-short", &["--shard", "2/2"]);
    edit(&short, "games.csv", |t| {
        let lines: Vec<&str> = t.lines().collect();
        lines[..lines.len() - 2].join("\n") + "\n"
    });
    cases.push(guarded(
        &owned(&merge(&[&s1, &short])),
        "incomplete",
        &[&s1, &short],
    ));
    cases.push(guarded(&owned(&merge(&[&s1, &s1])), "given twice", &[&s1]));
    check(cases);
}

/// Applies a whole-run edit meant for game 2 to game 3 of an odd shard.
fn edit_shard(dir: &Path, edit: &dyn Fn(&Path)) {
    // The edits pick game 2; rename game 3 to 2, edit, and rename it back.
    let rename = |from: &str, to: &str| {
        edit_rows(dir, 0, |g, _| g.to_string() == from, &|_| to.to_string());
    };
    rename("3", "2");
    edit(dir);
    if dir.join("games.csv").exists() {
        rename("2", "3");
    }
}

/// Parse errors quote nothing of a file that is not of the expected kind (a
/// wrong path given as data, preset, experiment, trace or results), and a
/// trace never names a file for `replay` to read.
#[test]
fn nothing_is_quoted_from_a_file_of_another_kind() {
    let dir = made_dir("quoted");
    let secret = "SECRET_TOKEN=hunter2-never-printed";
    let body = format!("{secret}\nroot:x:0:0:root:/root:/bin/bash\n");
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let toml = file("secret.toml", &body);
    let json = file("secret.json", &body);
    let trace = file("secret.jsonl", &body);
    let results = made_dir("quoted-results");
    std::fs::write(results.join("games.csv"), &body).unwrap();
    std::fs::write(results.join("run.json"), &body).unwrap();
    let naming = file(
        "naming.jsonl",
        &format!(
            "{{\"game\":\"fox(tiles={toml})\",\"agents\":[\"random\",\"random\"],\"seed\":1,\"game_index\":0}}\n\
             {{\"outcomes\":[\"draw\",\"draw\"],\"returns\":[0.0,0.0],\"truncated\":true}}\n"
        ),
    );
    let base = run_game("tictactoe");
    let agents = |a: &str| {
        let mut args = base.clone();
        args[4] = format!("random,@{a}");
        args
    };
    let r = results.display().to_string();
    let mut cases = vec![
        case(&owned(&agents(&toml)), "not a valid TOML file"),
        case(
            &owned(&with_game(base.clone(), &format!("fox(tiles={toml})"))),
            "not a valid TOML file",
        ),
        case(
            &owned(&with_game(base.clone(), &format!("karmox(board={json})"))),
            "not a valid JSON file",
        ),
        case(&["experiment", &toml, "--out", &r], "not a valid TOML file"),
        case(&["replay", &trace], "not a trace file"),
        case(&["replay", &naming], "replay reads no file a trace names"),
        case(&["summarize", &r], "not a games.csv file"),
        case(&["merge", "--out", &format!("{r}/m"), &r], "run.json"),
        case(&owned(&resume_args(&results)), "run.json"),
    ];
    // Files shaped like the system's (a password table, a process's
    // environment), made here: no file of the machine's is read.
    let path_var = std::env::var("PATH").unwrap_or_default();
    let passwd = file(
        "passwd",
        "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:hunter2:/home/user:/bin/bash\n",
    );
    let environ = file(
        "environ",
        &format!("SECRET_TOKEN=hunter2\0PATH={path_var}\0SHELL=/bin/bash\0"),
    );
    for system in [&passwd, &environ] {
        cases.push(case(&owned(&agents(system)), system));
        cases.push(case(
            &owned(&with_game(base.clone(), &format!("fox(tiles={system})"))),
            system,
        ));
        cases.push(case(&["replay", system], system));
        cases.push(case(&["experiment", system, "--out", &r], system));
    }
    for c in &mut cases {
        c.hidden = vec!["hunter2".into(), "root:x".into(), "/bin/bash".into()];
        if path_var.len() > 8 {
            c.hidden.push(path_var.clone());
        }
    }
    check(cases);
}

/// A special file of the test's own making (a Unix socket's node), where a
/// test would otherwise name one of the machine's devices.
fn socket_file(dir: &Path) -> String {
    let path = dir.join("a-socket");
    let _ = std::fs::remove_file(&path);
    drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
    path.display().to_string()
}

/// Only regular files of a bounded size are read: a directory, a device, a
/// FIFO or a huge (sparse) file is a one-line error, never a hang.
#[test]
fn inputs_that_are_not_small_regular_files() {
    let dir = made_dir("irregular");
    let sparse = |name: &str, bytes: u64| {
        let p = dir.join(name);
        std::fs::File::create(&p).unwrap().set_len(bytes).unwrap();
        p.display().to_string()
    };
    let huge_trace = sparse("huge.jsonl", 300 << 20);
    let socket = socket_file(&dir);
    let huge_results = made_dir("irregular-results");
    std::fs::File::create(huge_results.join("games.csv"))
        .unwrap()
        .set_len(5 << 30)
        .unwrap();
    let d = dir.display().to_string();
    let base = run_game("tictactoe");
    let mut cases = vec![
        case(&["replay", &d], "is a directory"),
        case(&["replay", &huge_trace], "larger than"),
        case(&["replay", &socket], "not a regular file"),
        case(&["experiment", &d], "is a directory"),
        case(&["experiment", &socket], "not a regular file"),
        case(
            &["summarize", huge_results.to_str().unwrap()],
            "larger than",
        ),
        case(
            &owned(&with_game(base.clone(), &format!("fox(tiles={d})"))),
            "is a directory",
        ),
    ];
    // A FIFO nobody writes to: opening it for reading would wait forever.
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let f = fifo.display().to_string();
        let fifo_results = made_dir("irregular-fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(fifo_results.join("games.csv"))
            .status()
            .is_ok_and(|s| s.success());
        assert!(made);
        let mut agents = base.clone();
        agents[4] = format!("random,@{f}");
        cases.extend([
            case(&owned(&agents), "not a regular file"),
            case(
                &owned(&with_game(base.clone(), &format!("fox(tiles={f})"))),
                "not a regular file",
            ),
            case(&["replay", &f], "not a regular file"),
            case(&["experiment", &f], "not a regular file"),
            case(
                &["summarize", fifo_results.to_str().unwrap()],
                "not a regular file",
            ),
        ]);
    }
    check(cases);
}

/// Smaller cases: a preset naming a preset as its kind, a parameter the user
/// never gave, non-finite returns, `--max-errors 0`.
#[test]
fn messages_name_the_real_problem() {
    let dir = made_dir("smaller");
    let preset = dir.join("preset.toml");
    std::fs::write(&preset, "description = 'x'\nkind = 'mcts-1k'\n").unwrap();
    let base = run_game("tictactoe");
    let mut agents = base.clone();
    agents[4] = format!("random,@{}", preset.display());
    let nan = finished_run("smaller-nan", &[]);
    edit_rows(&nan, RETURN, |g, s| g == 4 && s == 1, &|_| "inf".into());
    // Hamunaptra tables with 7 characters: 2 players need 4 each. The message
    // names the file, not a `characters` parameter nobody gave.
    let tables = include_str!("../src/games/hamunaptra/components.toml");
    let eighth = tables.match_indices("[[character]]").nth(7).unwrap().0;
    let after = tables.find("[[encounter]]").unwrap();
    let few = dir.join("few-characters.toml");
    std::fs::write(&few, format!("{}{}", &tables[..eighth], &tables[after..])).unwrap();
    let few_game = with_game(
        base.clone(),
        &format!("hamunaptra(components={})", few.display()),
    );
    let huge_agent = finished_run("smaller-agent", &[]);
    std::fs::remove_file(huge_agent.join("run.json")).unwrap();
    edit_rows(&huge_agent, AGENT_INDEX, |g, s| g == 1 && s == 0, &|_| {
        "18446744073709551615".into()
    });
    let mut max_errors = base.clone();
    max_errors.extend(["--max-errors".to_string(), "0".to_string()]);
    let cases = vec![
        case(&owned(&agents), "names a preset, not an agent kind"),
        guarded(
            &["summarize", nan.to_str().unwrap()],
            "not a finite number",
            &[&nan],
        ),
        case(&owned(&max_errors), "omit --max-errors for no limit"),
        case(&owned(&few_game), "the tables hold 7 characters"),
        guarded(
            &["summarize", huge_agent.to_str().unwrap()],
            "names agent 18446744073709551615",
            &[&huge_agent],
        ),
    ];
    check(cases);
}

/// Links planted in `--out` and `--trace` (a dangling games.csv, metrics.csv,
/// summary and run.json temporaries, a trace) are replaced or refused, never
/// followed: no file outside the directory is created or changed.
#[cfg(unix)]
#[test]
fn planted_links_in_the_output_are_replaced_never_followed() {
    use std::os::unix::fs::symlink;
    let dir = made_dir("links");
    let outside = made_dir("links-outside");
    let victim = outside.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    symlink(outside.join("created.csv"), out.join("games.csv")).unwrap();
    for name in [
        "metrics.csv",
        "summary.csv",
        "seats.csv",
        "games.csv.tmp",
        "summary.csv.tmp",
        "seats.csv.tmp",
        "metrics.csv.tmp",
        "run.json.tmp",
        "report.md",
    ] {
        symlink(&victim, out.join(name)).unwrap();
    }
    let traces = dir.join("traces");
    std::fs::create_dir_all(&traces).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "--game",
            "tictactoe",
            "--agents",
            "random,random",
            "--games",
            "4",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        boardlab(&args)
    };
    let o = run(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = boardlab(&["summarize", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::symlink_metadata(out.join("report.md"))
            .unwrap()
            .is_file()
    );
    // A trace link: refused without --force, removed with it.
    symlink(&victim, traces.join("game-00000000.jsonl")).unwrap();
    let t = traces.to_str().unwrap();
    let o = run(&["--trace", t, "--force"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(
        !outside.join("created.csv").exists(),
        "a file was created through a link"
    );
    for name in [
        "games.csv",
        "metrics.csv",
        "summary.csv",
        "seats.csv",
        "run.json",
    ] {
        let meta = std::fs::symlink_metadata(out.join(name)).unwrap();
        assert!(meta.is_file(), "{name} is not a regular file");
    }
    // --resume never writes through a link to games.csv or metrics.csv.
    for name in ["games.csv", "metrics.csv"] {
        let moved = out.join(format!("{name}.real"));
        std::fs::rename(out.join(name), &moved).unwrap();
        std::fs::copy(&moved, &victim).unwrap();
        let before = std::fs::read(&victim).unwrap();
        symlink(&victim, out.join(name)).unwrap();
        let o = run(&["--resume"]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("symbolic link"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(std::fs::read(&victim).unwrap(), before, "{name}");
        std::fs::remove_file(out.join(name)).unwrap();
        std::fs::rename(&moved, out.join(name)).unwrap();
    }
}

#[test]
fn tune_inputs() {
    let dir = made_dir("tune");
    let preset = dir.join("p.toml");
    std::fs::write(&preset, "kept").unwrap();
    let done = dir.join("done");
    std::fs::create_dir_all(&done).unwrap();
    std::fs::write(done.join("tune.csv"), "kept").unwrap();
    let tune = |agent: &str, extra: &[&str]| {
        let mut a = vec![
            "tune",
            "--game",
            "tictactoe",
            "--agent",
            agent,
            "--against",
            "random",
            "--budget",
            "4",
            "--confirm",
            "2",
        ];
        for pair in extra.chunks(2) {
            match a.iter().position(|x| *x == pair[0]) {
                Some(i) => a[i + 1] = pair[1],
                None => a.extend_from_slice(pair),
            }
        }
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let ok = "mcts(iterations=5,c=[0.5,2])";
    let mut cases = vec![
        case(
            &owned(&tune("alphago(c=?)", &[])),
            "unknown agent 'alphago'",
        ),
        case(&owned(&tune("ismcts(cc=?)", &[])), "no parameter 'cc'"),
        case(&owned(&tune("ismcts(cc=[1,2])", &[])), "no parameter 'cc'"),
        case(&owned(&tune("ismcts(c=1.4)", &[])), "nothing to tune"),
        case(&owned(&tune("random", &[])), "nothing to tune"),
        case(&owned(&tune("ismcts(c=[1,-2])", &[])), "bad value '-2'"),
        case(&owned(&tune("ismcts(c=[1,x])", &[])), "bad value 'x'"),
        case(&owned(&tune("ismcts(c=[1])", &[])), "lists one value"),
        case(&owned(&tune("ismcts(c=[1,1])", &[])), "twice"),
        case(&owned(&tune("ismcts(c=[1,2)", &[])), "without ']'"),
        case(&owned(&tune("ismcts(c=[])", &[])), "empty value"),
        case(
            &owned(&tune("ismcts(rollout=[random,best])", &[])),
            "bad value 'best'",
        ),
        case(&owned(&tune(ok, &["--budget", "3"])), "--budget"),
        case(&owned(&tune(ok, &["--budget", "0"])), "number of games"),
        case(&owned(&tune(ok, &["--confirm", "0"])), "number of games"),
        case(&owned(&tune(ok, &["--k", "-1"])), "--k"),
        case(&owned(&tune(ok, &["--neighbours", "0"])), "--neighbours"),
        case(
            &owned(&tune(ok, &["--preset-out", "x.json"])),
            "--preset-out",
        ),
        guarded(
            &owned(&tune(ok, &["--preset-out", preset.to_str().unwrap()])),
            "exists",
            &[&dir],
        ),
        guarded(
            &owned(&tune(ok, &["--out", done.to_str().unwrap()])),
            "already holds a tuning",
            &[&dir],
        ),
    ];
    let mut unknown_against = tune(ok, &[]);
    unknown_against[6] = "nobody".into();
    cases.push(case(&owned(&unknown_against), "unknown agent 'nobody'"));
    let mut unknown_game = tune(ok, &[]);
    unknown_game[2] = "chess".into();
    cases.push(case(&owned(&unknown_game), "unknown game 'chess'"));
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

/// `fit --compare` names weights to measure beside the new fit: a game without
/// shipped weights, a missing or foreign file and another game's weights are
/// refused before any game is played, and the output is not written.
#[test]
fn fit_compare_weights_it_cannot_use() {
    let dir = made_dir("fit-compare");
    let out = dir.join("weights.toml").display().to_string();
    let fit = |game: &'static str, compare: &str| -> Vec<String> {
        [
            "fit",
            "--game",
            game,
            "--agent",
            "greedy",
            "--games",
            "2",
            "--out",
            &out,
            "--compare",
            compare,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let missing = dir.join("missing.toml").display().to_string();
    let cases = vec![
        case(&owned(&fit("fox", "fitted")), "ships no fitted weights"),
        case(&owned(&fit("karmaka", &missing)), "missing.toml"),
        case(&owned(&fit("karmaka", "Cargo.toml")), "unknown field"),
        case(
            &owned(&fit("karmaka", "src/games/hamunaptra/fitted.toml")),
            "are not this game's",
        ),
    ];
    check(cases);
    assert!(
        !dir.join("weights.toml").exists(),
        "a refused fit wrote its output"
    );
}

/// One output discipline for every command that writes: a folder another
/// command holds is refused (`--force` and `--resume` alike), existing
/// outputs are replaced only with `--force`, nothing is written onto a
/// device node or FIFO or through a linked folder at any depth, and a
/// refusal leaves nothing behind.
#[cfg(unix)]
#[test]
fn one_output_discipline() {
    use std::os::unix::fs::symlink;
    let held = finished_run("held", &[]);
    let run_into = |out: &Path, flag: &str| -> Vec<String> {
        let mut a = resume_args(out);
        let at = a.iter().position(|x| x == "--resume").unwrap();
        a[at] = flag.to_string();
        a
    };
    let dir = made_dir("discipline");
    // Never among the guarded folders: reading a FIFO would block.
    let fifo = made_dir("discipline-fifo").join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a path this test owns.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // A trace to view, and results to guard.
    let traces = dir.join("traces");
    let o = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "2",
        "-q",
        "--trace",
        traces.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let trace = traces.join("game-00000000.jsonl");
    let trace = trace.to_str().unwrap();
    let results = held.join("games.csv");
    let weights = dir.join("weights.toml");
    std::fs::write(&weights, "kept").unwrap();
    // A trace refusal leaves no --out behind.
    let fresh = dir.join("fresh");
    let traced: Vec<String> = [
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "2",
        "-q",
        "--trace",
        traces.to_str().unwrap(),
        "--out",
        fresh.to_str().unwrap(),
    ]
    .iter()
    .map(|x| x.to_string())
    .collect();
    // An experiment whose cell folder, or cells folder, is a link.
    let elsewhere = made_dir("discipline-elsewhere");
    let exp = dir.join("exp.toml");
    std::fs::write(
        &exp,
        "description = \"d\"\ngame = \"tictactoe\"\ngames = 2\nlineups = [[\"random\"]]\n",
    )
    .unwrap();
    let linked_cell = dir.join("linked-cell");
    std::fs::create_dir_all(linked_cell.join("cells")).unwrap();
    symlink(&elsewhere, linked_cell.join("cells").join("c000")).unwrap();
    let linked_cells = dir.join("linked-cells");
    std::fs::create_dir_all(&linked_cells).unwrap();
    symlink(&elsewhere, linked_cells.join("cells")).unwrap();
    let experiment = |out: &Path| {
        vec![
            "experiment".to_string(),
            exp.display().to_string(),
            "-q".into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let lock = boardlab::fsutil::OutputLock::claim(&held).unwrap();
    let cases = vec![
        guarded(
            &owned(&run_into(&held, "--force")),
            "another boardlab command is writing",
            &[&held],
        ),
        guarded(
            &owned(&resume_args(&held)),
            "another boardlab command is writing",
            &[&held],
        ),
        guarded(
            &["report", held.to_str().unwrap()],
            "another boardlab command is writing",
            &[&held],
        ),
        guarded(
            &["view", trace, "--out", results.to_str().unwrap()],
            "--force",
            &[&held],
        ),
        guarded(
            &["view", trace, "--out", fifo.to_str().unwrap(), "--force"],
            "not a regular file",
            &[&dir],
        ),
        guarded(
            &[
                "fit",
                "--game",
                "karmaka",
                "--agent",
                "greedy",
                "--games",
                "2",
                "--out",
                weights.to_str().unwrap(),
            ],
            "--force",
            &[&dir],
        ),
        case(&owned(&traced), "already holds traces"),
        guarded(
            &owned(&experiment(&linked_cell)),
            "symbolic link",
            &[&elsewhere],
        ),
        guarded(
            &owned(&experiment(&linked_cells)),
            "symbolic link",
            &[&elsewhere],
        ),
    ];
    check(cases);
    drop(lock);
    assert!(!fresh.exists(), "a refused run left its --out behind");
    assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none());
    // Released, the folder takes a writer again; --force removes what the
    // earlier run's readers wrote beside it.
    for stale in ["report.html", "dashboard.md"] {
        std::fs::write(held.join(stale), "stale").unwrap();
    }
    let o = boardlab(&owned(&run_into(&held, "--force")));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!held.join("report.html").exists() && !held.join("dashboard.md").exists());
}

/// `summarize` and `report` refuse a games.csv holding fewer games than its
/// run.json records, rather than summarize part of a run as the whole.
#[test]
fn summaries_of_cut_results_are_refused() {
    let cut = finished_run("cut", &[]);
    edit(&cut, "games.csv", |t| {
        t.lines().take(19).map(|l| format!("{l}\n")).collect()
    });
    let c = cut.to_str().unwrap();
    check(vec![
        guarded(&["summarize", c], "holds 9 of the 10 games", &[&cut]),
        guarded(&["report", c], "holds 9 of the 10 games", &[&cut]),
    ]);
}

/// Degenerate inputs are errors, not results: a tuning whose every game is a
/// forfeit, and an evaluation whose weight would overflow its sum.
#[test]
fn degenerate_inputs_are_errors() {
    let dir = made_dir("degenerate");
    let weights = dir.join("huge.toml");
    let shipped = std::fs::read_to_string("src/games/karmox/fitted.toml").unwrap();
    std::fs::write(
        &weights,
        shipped.replace("weights = [0.20927", "weights = [1e308"),
    )
    .unwrap();
    let agent = format!("mcts(iterations=2,eval=@{})", weights.display());
    let out = dir.join("tuned");
    check(vec![
        guarded(
            &[
                "tune",
                "--game",
                "tictactoe",
                "--agent",
                "mcts(iterations=5,c=[0.5,2])",
                "--against",
                "faulty(after=0)",
                "--budget",
                "4",
                "--confirm",
                "2",
                "--out",
                out.to_str().unwrap(),
            ],
            "ended in an agent's fault: a win rate over forfeits",
            &[&dir],
        ),
        case(
            &[
                "run",
                "--game",
                "karmox",
                "--agents",
                &format!("{agent},random"),
                "--games",
                "2",
                "-q",
            ],
            "beyond",
        ),
    ]);
}

/// Runs the binary with `args`, its standard output a file in `dir` that
/// it may not grow (a file-size limit of 0, its signal ignored, so a write
/// fails with EFBIG): a full disk of the test's own making.
fn capped_stdout(dir: &Path, args: &[&str]) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let stdout = std::fs::File::create(dir.join("capped")).unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"));
    command.args(args).stdout(stdout);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let none = libc::rlimit {
                rlim_cur: 0,
                rlim_max: libc::RLIM_INFINITY,
            };
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            if libc::setrlimit(libc::RLIMIT_FSIZE, &none) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.output().unwrap()
}

/// `--help` whose output cannot be written fails like any other output: a
/// file the child may not grow (a file-size limit of 0, its signal ignored,
/// so a write fails with EFBIG) stands in for a full disk.
#[cfg(unix)]
#[test]
fn help_that_cannot_be_written_fails() {
    let dir = made_dir("help");
    let out = capped_stdout(&dir, &["--help"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("standard output"), "{stderr}");
}

/// A finished run's files are bound to it by run.json's digests: another
/// run's metrics.csv, or one with every value zeroed, is refused by `merge`
/// and `--resume` though each of its rows looks right.
#[test]
fn metrics_of_another_run_are_refused() {
    let zero = |d: &Path| {
        edit(d, "metrics.csv", |t| {
            let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
            for l in lines.iter_mut().skip(1) {
                let (head, _) = l.rsplit_once(',').unwrap();
                *l = format!("{head},0");
            }
            lines.join("\n") + "\n"
        })
    };
    let zeroed = finished_run("digest-zeroed", &[]);
    zero(&zeroed);
    let foreign = finished_run("digest-foreign", &[]);
    let other = finished_run("digest-other", &["--games", "12"]);
    std::fs::copy(other.join("metrics.csv"), foreign.join("metrics.csv")).unwrap();
    let s1 = finished_run("digest-s1", &["--shard", "1/2"]);
    let s2 = finished_run("digest-s2", &["--shard", "2/2"]);
    zero(&s2);
    let out = made_dir("digest-out").join("merged");
    check(vec![
        guarded(
            &owned(&resume_args(&zeroed)),
            "metrics.csv is not the file this run wrote",
            &[&zeroed],
        ),
        guarded(
            &owned(&resume_args(&foreign)),
            "metrics.csv is not the file this run wrote",
            &[&foreign],
        ),
        guarded(
            &[
                "merge",
                "--out",
                out.to_str().unwrap(),
                s1.to_str().unwrap(),
                s2.to_str().unwrap(),
            ],
            "metrics.csv is not the file this run wrote",
            &[&s1, &s2],
        ),
    ]);
    assert!(!out.exists(), "a refused merge left its --out behind");
}

/// A flag and the values of the catalogue it takes.
type Flag<'a> = (&'a str, &'a [&'a str]);

/// Every numeric flag of every command that takes one, at 0, negative,
/// beyond any count (18446744073709551615 and one more), fractional, empty
/// and not a number: each value the flag cannot take is refused before
/// anything is played or written, by a one-line message naming the flag or
/// quoting the value. `accepted` lists the values a flag does take (a seed
/// of 0, `--threads 0` for one per core…), which are left out.
#[test]
fn every_numeric_flag_out_of_range() {
    let base = made_dir("flags");
    let run = base.join("R");
    let out = base.join("OUT");
    let (r, o) = (run.to_str().unwrap(), out.to_str().unwrap());
    let made = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "10",
        "--seed",
        "3",
        "--out",
        r,
        "-q",
    ]);
    assert!(made.status.success());
    let exp = base.join("e.toml");
    std::fs::write(
        &exp,
        "description = \"d\"\ngame = \"tictactoe\"\ngames = 2\nlineups = [[\"random\", \"random\"]]\n",
    )
    .unwrap();
    let e = exp.to_str().unwrap();
    const SEED: &[&str] = &["0", "18446744073709551615"];
    const THREADS: &[&str] = &["0"];
    #[rustfmt::skip]
    let commands: Vec<(Vec<&str>, Vec<Flag>)> = vec![
        (vec!["run", "--game", "tictactoe", "--agents", "random,random", "--games", "2", "-q", "--out", o],
         vec![("--games", &[]), ("--seed", SEED), ("--threads", THREADS),
              ("--max-errors", &["18446744073709551615"]), ("--move-timeout-ms", &[])]),
        (vec!["run", "--game", "tictactoe", "--agents", "random,random", "--until", "ci=0.2", "-q", "--out", o],
         vec![("--max-games", &[])]),
        (vec!["soak", "--game", "tictactoe", "--games", "2"],
         vec![("--games", &[]), ("--seed", SEED), ("--start", &["0"]), ("--threads", THREADS)]),
        (vec!["experiment", e, "--out", o], vec![("--threads", THREADS)]),
        (vec!["summarize", r], vec![("--resamples", &[]), ("--seed", SEED)]),
        (vec!["sprt", "--game", "tictactoe", "--agents", "random,random", "--elo0", "0", "--elo1", "5"],
         vec![("--alpha", &[]), ("--beta", &[]), ("--seed", SEED), ("--max-games", &[]),
              ("--batch", &["18446744073709551615"]), ("--threads", THREADS)]),
        (vec!["exploitability", "--game", "kuhn", "--agent", "random"],
         vec![("--samples", &[]), ("--seed", SEED), ("--threads", THREADS)]),
        (vec!["ladder", "--game", "tictactoe", "--agents", "mcts", "--iterations", "2,4", "--out", o],
         vec![("--games", &[]), ("--seed", SEED), ("--threads", THREADS), ("--resamples", &[])]),
        (vec!["quality", "--game", "tictactoe", "--agents", "random", "--out", o],
         vec![("--games", &[]), ("--seed", SEED), ("--threads", THREADS)]),
        (vec!["verify", r], vec![("--sample", &["18446744073709551615"]), ("--threads", THREADS)]),
        (vec!["tune", "--game", "tictactoe", "--agent", "mcts(iterations=5,c=[0.5,2])", "--against",
              "random", "--out", o],
         vec![("--budget", &[]), ("--confirm", &[]), ("--seed", SEED), ("--threads", THREADS),
              ("--k", &["0", "18446744073709551615", "18446744073709551616", "1.5"]),
              ("--neighbours", &["18446744073709551615"])]),
        (vec!["fit", "--game", "karmaka", "--agent", "greedy", "--out", o],
         vec![("--games", &[]), ("--seed", SEED), ("--stride", &[]), ("--holdout", &[]),
              ("--threads", THREADS)]),
        (vec!["balance", "--game", "tictactoe", "--agent", "mcts", "--budgets", "2,4", "--out", o],
         vec![("--max-games", &[]), ("--tolerance", &[]),
              ("--max-seconds", &["18446744073709551615", "18446744073709551616", "1.5"]),
              ("--ladder-games", &["0"]), ("--seed", SEED), ("--threads", THREADS)]),
        (vec!["ablate", "--game", "planted", "--out", o],
         vec![("--games", &[]), ("--seed", SEED), ("--threads", THREADS)]),
        (vec!["metagame", "--game", "tictactoe", "--agents", "random,greedy", "--out", o],
         vec![("--games", &[]), ("--seed", SEED), ("--tolerance", &[]), ("--bootstrap", &[]),
              ("--threads", THREADS)]),
    ];
    let values = [
        "0",
        "-1",
        "18446744073709551615",
        "18446744073709551616",
        "1.5",
        "",
        "abc",
    ];
    let before = snapshot(&run);
    let mut failures = Vec::new();
    let mut count = 0;
    for (command, flags) in &commands {
        for (flag, accepted) in flags {
            for v in values.iter().filter(|v| !accepted.contains(v)) {
                count += 1;
                let mut args = command.clone();
                let arg = format!("{flag}={v}");
                args.push(&arg);
                let got = boardlab(&args);
                let stderr = String::from_utf8_lossy(&got.stderr);
                let mut why = Vec::new();
                if got.status.code() != Some(2) {
                    why.push(format!("exit code {:?}", got.status.code()));
                }
                if stderr.trim_end().lines().count() != 1 || stderr.contains("panicked") {
                    why.push("not one line".to_string());
                }
                if !stderr.contains(flag) && !stderr.contains(&format!("'{v}'")) {
                    why.push("names neither the flag nor the value".to_string());
                }
                if out.exists() {
                    why.push(format!("{} was written", out.display()));
                    let _ = std::fs::remove_dir_all(&out);
                }
                if !why.is_empty() {
                    failures.push(format!("{args:?}: {}; stderr: {stderr}", why.join(", ")));
                }
            }
        }
    }
    if snapshot(&run) != before {
        failures.push(format!("{} changed", run.display()));
    }
    println!("catalogue: {count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every parameter of every registered game, empty, beyond any count,
/// negative, beyond any finite range and not a number: each refused by a
/// one-line message naming the parameter or quoting the value, before an
/// output folder is made.
#[test]
fn every_game_parameter_out_of_range() {
    let base = made_dir("game-params");
    let out = base.join("OUT");
    let mut failures = Vec::new();
    let mut count = 0;
    for info in GAMES {
        for p in info.params {
            for v in ["", "18446744073709551616", "-1", "1e308", "NaN"] {
                count += 1;
                let spec = format!("{}({}={v})", info.name, p.name);
                let args = [
                    "run",
                    "--game",
                    &spec,
                    "--agents",
                    "random,random",
                    "--games",
                    "2",
                    "-q",
                    "--out",
                    out.to_str().unwrap(),
                ];
                let got = boardlab(&args);
                let stderr = String::from_utf8_lossy(&got.stderr);
                let mut why = Vec::new();
                if got.status.code() != Some(2) {
                    why.push(format!("exit code {:?}", got.status.code()));
                }
                if stderr.trim_end().lines().count() != 1 || stderr.contains("panicked") {
                    why.push("not one line".to_string());
                }
                if !stderr.contains(p.name) && !stderr.contains(&format!("'{v}'")) {
                    why.push("names neither the parameter nor the value".to_string());
                }
                if out.exists() {
                    why.push(format!("{} was written", out.display()));
                    let _ = std::fs::remove_dir_all(&out);
                }
                if !why.is_empty() {
                    failures.push(format!("{spec}: {}; stderr: {stderr}", why.join(", ")));
                }
            }
        }
    }
    println!("catalogue: {count} cases");
    assert!(count >= 250, "{count}");
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
