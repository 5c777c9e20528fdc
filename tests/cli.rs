//! Drives the real binary: results, determinism across thread counts, traces
//! and replay, and clear one-line errors with exit code 2 for bad input.

mod common;
use common::{boardlab, temp_dir, without_timing};

use std::process::Command;

#[test]
fn run_is_identical_for_any_thread_count() {
    let mut outputs = Vec::new();
    for threads in ["1", "2", "3"] {
        let dir = temp_dir(&format!("det{threads}"));
        let out = boardlab(&[
            "run",
            "--game",
            "connect4",
            "--agents",
            "random,random",
            "--games",
            "301",
            "--seed",
            "9",
            "--threads",
            threads,
            "--out",
            dir.to_str().unwrap(),
            "-q",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            stdout.contains("302 played"),
            "rounding not reported: {stdout}"
        );
        outputs.push((
            without_timing(&dir.join("games.csv")),
            std::fs::read_to_string(dir.join("summary.csv")).unwrap(),
            std::fs::read_to_string(dir.join("seats.csv")).unwrap(),
        ));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
    // 302 games × 2 seats + header; every agent sits in every seat 151 times.
    let games = &outputs[0].0;
    assert_eq!(games.lines().count(), 605);
    let seat0_agent0 = games
        .lines()
        .skip(1)
        .filter(|l| l.split(',').nth(3) == Some("0") && l.split(',').nth(4) == Some("0"))
        .count();
    assert_eq!(seat0_agent0, 151);
    // A different seed gives different games.
    let dir = temp_dir("det-other");
    let out = boardlab(&[
        "run",
        "--game",
        "connect4",
        "--agents",
        "random,random",
        "--games",
        "301",
        "--seed",
        "10",
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success());
    assert_ne!(without_timing(&dir.join("games.csv")), outputs[0].0);
}

#[test]
fn summary_counts_match_the_rows() {
    let dir = temp_dir("summary");
    let out = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "200",
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success());
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let wins0 = games
        .lines()
        .filter(|l| l.split(',').nth(4) == Some("0") && l.contains(",win,"))
        .count();
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let row0: Vec<&str> = summary.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row0[0], "0");
    assert_eq!(row0[2], "200");
    assert_eq!(row0[3], wins0.to_string());
    let (lo, rate, hi): (f64, f64, f64) = (
        row0[7].parse().unwrap(),
        row0[6].parse().unwrap(),
        row0[8].parse().unwrap(),
    );
    assert!(lo < rate && rate < hi);
}

#[test]
fn trace_replays_exactly() {
    let dir = temp_dir("trace");
    let trace = dir.join("traces");
    let out = boardlab(&[
        "run",
        "--game",
        "connect4",
        "--agents",
        "random,random",
        "--games",
        "4",
        "--trace",
        trace.to_str().unwrap(),
        "--out",
        dir.join("out").to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success());
    let file = trace.join("game-00000002.jsonl");
    let out = boardlab(&["replay", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("result:") && text.contains("seat 0 (random)"),
        "{text}"
    );
    // Tampering with an action is detected.
    let body = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = body.lines().collect();
    let tampered = [lines[0], lines[lines.len() - 1]].join("\n");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, tampered).unwrap();
    let out = boardlab(&["replay", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ends before the game"));
    let wrong_result = body.replace("\"returns\":[", "\"returns\":[7,");
    std::fs::write(&bad, wrong_result).unwrap();
    let out = boardlab(&["replay", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("differ"));
}

/// Every bad input gives exit code 2 and one line naming the problem.
#[test]
fn bad_input_is_a_clear_error() {
    let dir = temp_dir("errors");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("file");
    std::fs::write(&file, "x").unwrap();
    let bad_preset = dir.join("bad.toml");
    std::fs::write(&bad_preset, "kind = 3").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["run", "--game", "chess", "--agents", "random,random"],
            "unknown game 'chess'",
        ),
        (
            vec![
                "run",
                "--game",
                "connect4(size=9)",
                "--agents",
                "random,random",
            ],
            "no parameter 'size'",
        ),
        (
            vec!["run", "--game", "connect4(", "--agents", "random,random"],
            "malformed spec",
        ),
        (
            vec![
                "run",
                "--game",
                "connect4",
                "--agents",
                "random,random,random",
            ],
            "needs exactly 2 agents",
        ),
        (
            vec!["run", "--game", "connect4", "--agents", "random,deep_blue"],
            "unknown agent 'deep_blue'",
        ),
        (
            vec![
                "run",
                "--game",
                "connect4",
                "--agents",
                "random,random(x=1)",
            ],
            "no parameter 'x'",
        ),
        (
            vec![
                "run",
                "--game",
                "connect4",
                "--agents",
                "random,@/no/such/preset.toml",
            ],
            "/no/such/preset.toml",
        ),
        (
            vec![
                "run",
                "--game",
                "connect4",
                "--agents",
                &format!("random,@{}", bad_preset.display()),
            ],
            "bad.toml",
        ),
        (
            vec![
                "run",
                "--game",
                "connect4",
                "--agents",
                "random,random",
                "--games",
                "0",
            ],
            "number of games from 1",
        ),
        (
            vec![
                "run",
                "--game",
                "connect4",
                "--agents",
                "random,random",
                "--out",
                &format!("{}/sub", file.display()),
            ],
            "cannot write",
        ),
        (vec!["replay", "/no/such/trace.jsonl"], "cannot read trace"),
        (
            vec![
                "run",
                "--game",
                "connect4",
                "--agents",
                "random,random",
                "--games",
                "many",
            ],
            "invalid value 'many'",
        ),
        (vec!["run", "--agents", "random,random"], "--game"),
        (vec!["frobnicate"], "unrecognized subcommand"),
        (
            vec!["replay", file.to_str().unwrap()],
            "is not a trace file",
        ),
        (
            vec!["bench", "--game", "connect4", "--seconds=-1"],
            "--seconds",
        ),
        (
            vec![
                "bench",
                "--game",
                "connect4",
                "--agent",
                "random",
                "--seconds",
                "0.1",
            ],
            "does not search",
        ),
    ]
    .into_iter()
    .map(|(a, m)| (a.into_iter().map(String::from).collect(), m))
    .collect();
    for (args, message) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = boardlab(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(message),
            "{args:?}: expected '{message}' in: {stderr}"
        );
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{args:?}: not one line: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn existing_results_are_never_overwritten_by_mistake() {
    let dir = temp_dir("keep");
    let args = [
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "10",
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ];
    assert!(boardlab(&args).status.success());
    let before = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let out = boardlab(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert_eq!(
        std::fs::read_to_string(dir.join("games.csv")).unwrap(),
        before
    );
}

#[test]
fn listings_and_bench() {
    let out = boardlab(&["games"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("tictactoe") && text.contains("connect4"));
    let out = boardlab(&["agents"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("random") && text.contains("Presets"));
    let out = boardlab(&[
        "bench",
        "--game",
        "tictactoe",
        "--seconds",
        "0.2",
        "--samples",
        "4",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["games_per_s"].as_f64().unwrap() > 0.0 && v["actions_per_s"].as_f64().unwrap() > 0.0);
    assert_eq!(v["samples"], 4);
    let (min, mean, max) = (
        v["games_per_s_min"].as_f64().unwrap(),
        v["games_per_s"].as_f64().unwrap(),
        v["games_per_s_max"].as_f64().unwrap(),
    );
    assert!(min <= mean && mean <= max && v["games_per_s_sd"].as_f64().unwrap() >= 0.0);
    let out = boardlab(&["bench", "--game", "tictactoe", "--seconds", "0.1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("games per wall second") && text.contains("±"),
        "{text}"
    );
}

#[test]
fn listings_as_tables_and_json() {
    let out = boardlab(&["games", "--json"]);
    let games: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fox = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "fox")
        .unwrap();
    assert!(
        fox["params"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "players")
    );
    let out = boardlab(&["agents", "--json"]);
    let agents: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        agents["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["name"] == "ismcts")
    );
    assert!(
        agents["presets"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "ismcts-1k")
    );
    // Every row of a text table has the same width: the columns line up.
    let out = boardlab(&["games"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let widths: std::collections::BTreeSet<usize> = text
        .lines()
        .filter(|l| l.starts_with('│') || l.starts_with('┌') || l.starts_with('└'))
        .map(|l| l.chars().count())
        .collect();
    assert_eq!(widths.len(), 1, "{text}");
}

#[test]
fn completions_and_man_page() {
    let out = boardlab(&["completions", "bash"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("boardlab") && text.contains("ladder"));
    let out = boardlab(&["man"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.starts_with(".ie") || text.contains(".TH"));
    let out = boardlab(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn unknown_names_suggest_the_closest() {
    for (args, hint) in [
        (
            vec!["run", "--game", "karmka", "--agents", "random,random"],
            "did you mean 'karmaka'?",
        ),
        (
            vec!["run", "--game", "fox", "--agents", "ismcst-1k,random"],
            "did you mean 'ismcts-1k'?",
        ),
        (
            vec![
                "run",
                "--game",
                "fox(playres=3)",
                "--agents",
                "random,random",
            ],
            "did you mean 'players'?",
        ),
    ] {
        let out = boardlab(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(hint), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Each agent name is listed once, kinds apart from presets.
    let out = boardlab(&["run", "--game", "fox", "--agents", "zzz,random"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("random").count(), 1, "{err}");
    assert!(!err.contains("did you mean"), "{err}");
}

#[test]
fn play_with_a_human_at_the_terminal() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([
            "play",
            "--game",
            "tictactoe",
            "--agents",
            "human,random",
            "--seed",
            "3",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A bad answer first (re-asked), then always the first legal cell.
    child
        .stdin
        .as_mut()
        .unwrap()
        .write_all(b"zero\n99\n1\n2\n3\n4\n5\n6\n7\n8\n9\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("'zero' is not a move here"), "{text}");
    assert!(
        text.contains("seat 1 (random):") && text.contains("seat 0 (human):"),
        "{text}"
    );
}

/// `play` narrates from the human seat's point of view: every mission draw is
/// announced, but the rival's secret Karmox missions are never named.
#[test]
fn play_narration_hides_a_rivals_missions() {
    use boardlab::agents::registry::AgentSpec;
    use boardlab::agents::{Agent, Decision};
    use boardlab::game::Game;
    use boardlab::games::karmox::Karmox;
    use boardlab::games::karmox::state::{Action, Phase, State};

    /// The human seat once its scripted input ends: the first legal action.
    struct First;
    impl<G: Game> Agent<G> for First {
        fn act(&mut self, d: Decision<'_, G>) -> G::Action {
            d.legal[0]
        }
    }
    let seed = 5;
    let g = Karmox::parse("max_rounds=3").unwrap();
    // The same game in process, to learn which of the rival's cards stay secret.
    let mut agents: Vec<Box<dyn Agent<Karmox>>> = vec![
        Box::new(First),
        AgentSpec::parse("random").unwrap().build().unwrap(),
    ];
    let (mut rival, mut public) = (Vec::new(), Vec::new());
    let mut watch = |s: &State, _: Option<u8>, a: Action| {
        if let (Phase::Drawing, Action::Draw(c), 1) = (s.phase, a, s.draw_side) {
            rival.push(c);
        }
        public.extend(s.deck_known.iter().copied());
    };
    boardlab::arena::play::play_game(
        &g,
        &mut agents,
        boardlab::rng::game_seed(seed, 0),
        None,
        &mut watch,
    );
    let secret: Vec<&str> = rival
        .iter()
        .filter(|c| !public.contains(c))
        .map(|&c| g.c.missions[c as usize].id.as_str())
        .collect();
    assert!(!secret.is_empty(), "the rival keeps some cards secret");

    // The human always takes the first move listed (the first legal action).
    let seed_text = seed.to_string();
    let (text, ok, _) = common::play_first_moves(&[
        "--game",
        "karmox(max_rounds=3)",
        "--agents",
        "human,random",
        "--seed",
        &seed_text,
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("chance: side 1 draws a mission"), "{text}");
    assert!(
        text.contains("chance: draw mission M"),
        "own draws are named"
    );
    for id in secret {
        assert!(!text.contains(id), "rival's secret mission {id} shown");
    }
}

/// Two human seats at one terminal: a draw one of them may not see is told to
/// each in its own words.
#[test]
fn play_narration_speaks_to_each_human_seat() {
    // Both humans always take the first move listed.
    let (text, ok, _) =
        common::play_first_moves(&["--game", "karmox(max_rounds=1)", "--agents", "human,human"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("chance (as seat 1 sees it): side 0 draws a mission")
            && text.contains("chance (as seat 0 sees it): draw mission M"),
        "{text}"
    );
    // Each human's moves are narrated to the other.
    assert!(
        text.contains("seat 0 (human): ability point to")
            && text.contains("seat 1 (human): ability point to"),
        "{text}"
    );
}

/// Reads a field of run.json.
fn run_json(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

#[test]
fn duplicate_deals_are_identical_for_any_thread_count() {
    let mut outputs = Vec::new();
    let mut dirs = Vec::new();
    for threads in ["1", "2", "3"] {
        let dir = temp_dir(&format!("dup{threads}"));
        dirs.push(dir.clone());
        let out = boardlab(&[
            "run",
            "--game",
            "fox",
            "--agents",
            "random,greedy",
            "--games",
            "150",
            "--seed",
            "9",
            "--duplicate",
            "--threads",
            threads,
            "--out",
            dir.to_str().unwrap(),
            "-q",
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("150 games (75 duplicate deals)"),
            "{stdout}"
        );
        assert_eq!(run_json(&dir)["duplicate"], true);
        outputs.push((
            without_timing(&dir.join("games.csv")),
            std::fs::read_to_string(dir.join("summary.csv")).unwrap(),
            std::fs::read_to_string(dir.join("seats.csv")).unwrap(),
        ));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
    // Games 2k and 2k + 1 are one deal: the same seed, the agents swapped.
    let rows: Vec<Vec<String>> = outputs[0]
        .0
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let seed = |game: usize| rows[2 * game][1].clone();
    for deal in 0..75 {
        assert_eq!(seed(2 * deal), seed(2 * deal + 1), "deal {deal}");
        if deal + 1 < 75 {
            assert_ne!(seed(2 * deal), seed(2 * deal + 2), "deal {deal}");
        }
        assert_ne!(rows[4 * deal][4], rows[4 * deal + 2][4]);
    }
    // Without --duplicate every game has its own seed.
    let dir = temp_dir("dup-off");
    let out = boardlab(&[
        "run",
        "--game",
        "fox",
        "--agents",
        "random,greedy",
        "--games",
        "150",
        "--seed",
        "9",
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success());
    let plain = without_timing(&dir.join("games.csv"));
    let seeds: std::collections::BTreeSet<&str> = plain
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(seeds.len(), 150);
    // The report of a duplicate run gives the paired estimates per deal.
    let dir = &dirs[0];
    let out = boardlab(&["summarize", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("## Paired estimates over 75 duplicate deals"),
        "{report}"
    );
    assert!(report.contains("duplicate deals: each deal played once per seating"));
    assert!(report.find("## Tests across seats") < report.find("## Win rate by seat"));
}

#[test]
fn until_stops_at_the_same_game_for_any_thread_count() {
    let mut outputs = Vec::new();
    for threads in ["1", "2", "3"] {
        let dir = temp_dir(&format!("until{threads}"));
        let out = boardlab(&[
            "run",
            "--game",
            "connect4",
            "--agents",
            "random,random",
            "--until",
            "ci=0.03",
            "--max-games",
            "5000",
            "--seed",
            "9",
            "--threads",
            threads,
            "--out",
            dir.to_str().unwrap(),
            "-q",
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stop = run_json(&dir)["stop"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(stop.starts_with("interval reached"), "{stop}");
        assert!(stdout.contains(&format!("stopped: {stop}")), "{stdout}");
        assert_eq!(run_json(&dir)["until"], "ci=0.03");
        outputs.push((without_timing(&dir.join("games.csv")), stop));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
    // A half-width of 0.03 at a rate near one half needs about
    // (1.96 / 0.03)² / 4 = 1067 games: the first whole batch of 200 past it.
    let games = (outputs[0].0.lines().count() - 1) / 2;
    assert_eq!(games % 200, 0);
    assert!((1000..=1400).contains(&games), "{games}");
    // The cap comes first when the interval is out of reach.
    let dir = temp_dir("until-cap");
    let out = boardlab(&[
        "run",
        "--game",
        "connect4",
        "--agents",
        "random,random",
        "--until",
        "ci=0.01",
        "--max-games",
        "300",
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stop = run_json(&dir)["stop"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(stop.starts_with("cap reached: 300 games"), "{stop}");
    // Bad stopping rules are one-line errors.
    for (args, needle) in [
        (vec!["--until", "ci=0"], "expected ci=X"),
        (
            vec!["--until", "width=0.1", "--max-games", "10"],
            "expected ci=X",
        ),
        (vec!["--until", "ci=0.1"], "--max-games"),
        (vec!["--max-games", "10"], "--until"),
        (
            vec!["--until", "ci=0.1", "--max-games", "10", "--shard", "1/2"],
            "cannot be combined with --shard",
        ),
    ] {
        let mut full = vec![
            "run",
            "--game",
            "connect4",
            "--agents",
            "random,random",
            "-q",
        ];
        full.extend(args);
        let out = boardlab(&full);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{full:?}: {err}");
        assert!(err.contains(needle), "{full:?}: {err}");
    }
}

/// At the prompt `help` and `board` answer without moving, and `quit` ends
/// the game cleanly: exit code 0, nothing scored.
#[test]
fn a_human_can_ask_for_help_and_quit() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([
            "play",
            "--game",
            "tictactoe",
            "--agents",
            "human,random",
            "--seed",
            "3",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .as_mut()
        .unwrap()
        .write_all(b"help\nboard\n5\nquit\n1\n1\n1\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("`quit` ends the game"), "{text}");
    // `board` drew the position again before the first move.
    assert_eq!(text.matches("Player 0 to move:").count(), 3, "{text}");
    assert!(text.contains("game ended: you quit"), "{text}");
    assert!(!text.contains("(score"), "{text}");
}

/// A forced move (one legal action) is played without asking, with a line.
#[test]
fn a_forced_move_is_played_without_asking() {
    let (text, ok, fewest) = common::play_first_moves(&[
        "--game",
        "karmox(max_rounds=2)",
        "--agents",
        "human,random",
        "--seed",
        "5",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("forced move, played for you:"), "{text}");
    // No list of a single choice is ever offered.
    assert!(fewest >= 2, "a prompt listed {fewest} moves");
    // The game ran to its end: the final position comes before the result.
    let end = text.find("final position:").expect("no final position");
    assert!(text[end..].contains("(score"), "{text}");
}

#[test]
fn run_and_sprt_print_one_json_object_with_json() {
    let dir = temp_dir("run-json");
    let out = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "greedy,random",
        "--games",
        "101",
        "--out",
        dir.to_str().unwrap(),
        "--json",
        "-q",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "tictactoe");
    assert_eq!(v["games"], 102);
    assert_eq!(v["seats"].as_array().unwrap().len(), 2);
    // The same numbers as summary.csv, agent by agent.
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    for (i, line) in summary.lines().skip(1).enumerate() {
        let row: Vec<&str> = line.split(',').collect();
        let agent = &v["agents"][i];
        assert_eq!(agent["agent"], row[1]);
        let t = &agent["tally"];
        for (key, col) in [("games", 2), ("wins", 3), ("draws", 4), ("losses", 5)] {
            assert_eq!(t[key].as_u64().unwrap().to_string(), row[col], "{key}");
        }
        let rate = t["win_rate"].as_f64().unwrap();
        assert!((rate - row[6].parse::<f64>().unwrap()).abs() < 1e-6);
        assert!(t["ci_low"].as_f64().unwrap() < rate && rate < t["ci_high"].as_f64().unwrap());
    }
    let _ = std::fs::remove_dir_all(&dir);

    let out = boardlab(&[
        "sprt",
        "--game",
        "tictactoe",
        "--agents",
        "mcts(iterations=20),random",
        "--elo1",
        "50",
        "--batch",
        "10",
        "--max-games",
        "2000",
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["decision"], "H1");
    let games = v["games"].as_u64().unwrap();
    let (w, d, l) = (
        v["wins"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
        v["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, games);
    assert!(v["llr"].as_f64().unwrap() >= v["upper"].as_f64().unwrap());
    let (low, elo) = (
        v["elo"]["low"].as_f64().unwrap(),
        v["elo"]["estimate"].as_f64().unwrap(),
    );
    assert!(0.0 < low && low < elo, "{v}");
    // The progress lines went to standard error.
    assert!(String::from_utf8_lossy(&out.stderr).contains("LLR"));
}

/// Every line of `args`' standard output, which must succeed.
fn listing(args: &[&str]) -> String {
    let out = boardlab(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn listings_fit_100_columns_when_piped() {
    for args in [
        &["games"][..],
        &["games", "fox"],
        &["games", "tictactoe"],
        &["agents"],
        &["agents", "--all"],
        &["agents", "ismcts"],
        &["agents", "greedy"],
        &["agents", "hamunaptra-race-cpu-20ms"],
    ] {
        let text = listing(args);
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(
            widest <= 100,
            "{args:?}: a line of {widest} columns\n{text}"
        );
    }
}

#[test]
fn one_game_or_agent_is_shown_in_full() {
    let fox = listing(&["games", "fox"]);
    for param in ["players", "alone", "guard", "orthogonal", "start_used"] {
        assert!(fox.contains(param), "{param}: {fox}");
    }
    assert!(!fox.contains("karmaka"), "{fox}");
    let fox: serde_json::Value =
        serde_json::from_str(&listing(&["games", "fox", "--json"])).unwrap();
    assert_eq!(fox["name"], "fox");
    assert!(fox["params"].as_array().unwrap().len() >= 8);
    let ismcts = listing(&["agents", "ismcts"]);
    assert!(
        ismcts.contains("max_rollout") && ismcts.contains("reuse"),
        "{ismcts}"
    );
    let preset = listing(&["agents", "ismcts-1k-h20"]);
    assert!(preset.contains("max_rollout=20"), "{preset}");
    // An unknown name: one line naming what exists, exit code 2.
    for (args, known) in [
        (
            &["games", "foxes"][..],
            &["fox", "karmaka", "tictactoe"][..],
        ),
        (&["agents", "ismcst"], &["ismcts", "ismcts-1k", "greedy"]),
    ] {
        let out = boardlab(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        for k in known {
            assert!(err.contains(k), "{k}: {err}");
        }
    }
}

#[test]
fn agents_lists_the_search_parameters_once_and_test_aids_on_request() {
    let text = listing(&["agents"]);
    let rows = |text: &str, key: &str| {
        text.lines()
            .filter(|l| l.starts_with(&format!("│ {key} ")))
            .count()
    };
    assert_eq!(rows(&text, "max_rollout"), 1, "{text}");
    assert_eq!(rows(&text, "iterations"), 1, "{text}");
    assert_eq!(rows(&text, "faulty"), 0, "{text}");
    assert!(text.contains("--all"), "{text}");
    let all = listing(&["agents", "--all"]);
    assert_eq!(rows(&all, "faulty"), 1, "{all}");
    // The test aid comes after every playing kind.
    let at = |name: &str| all.find(&format!("│ {name} ")).unwrap();
    assert!(at("faulty") > at("moismcts"), "{all}");
    // JSON stays complete.
    let json: serde_json::Value = serde_json::from_str(&listing(&["agents", "--json"])).unwrap();
    let kinds = json["kinds"].as_array().unwrap();
    assert!(kinds.iter().any(|k| k["name"] == "faulty"));
    let ismcts = kinds.iter().find(|k| k["name"] == "ismcts").unwrap();
    assert!(
        ismcts["params"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "max_rollout")
    );
}

#[test]
fn one_agent_fills_every_seat() {
    let one = temp_dir("fill-one");
    let three = temp_dir("fill-three");
    for (dir, agents) in [(&one, "greedy"), (&three, "greedy,greedy,greedy")] {
        let out = boardlab(&[
            "run",
            "--game",
            "fox(players=3)",
            "--agents",
            agents,
            "--games",
            "6",
            "--out",
            dir.to_str().unwrap(),
            "-q",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let games = without_timing(&one.join("games.csv"));
    assert_eq!(games, without_timing(&three.join("games.csv")));
    assert_eq!(games.lines().count(), 1 + 6 * 3);
    // Two agents for three seats is still an error.
    let two = temp_dir("fill-two");
    let out = boardlab(&[
        "run",
        "--game",
        "fox(players=3)",
        "--agents",
        "greedy,random",
        "--games",
        "3",
        "--out",
        two.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!two.join("games.csv").exists());
    // play fills the seats likewise.
    let out = boardlab(&["play", "--game", "tictactoe", "--agents", "random"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
