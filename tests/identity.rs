//! A run's identity (run.json) covers everything that decides its games, so
//! that `--resume` and `merge` never mix rows of different runs; run.json and
//! provenance.json name the build that made them.

mod common;

use std::path::Path;
use std::process::Command;

use common::{boardlab, temp_dir};

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn refused(args: &[&str], names: &str) {
    let out = boardlab(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains(names), "expected '{names}' in: {err}");
}

/// Cuts games.csv after its first game, as a kill would.
fn kill_after_first_game(dir: &Path) {
    let p = dir.join("games.csv");
    let text = std::fs::read_to_string(&p).unwrap();
    let keep: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&p, keep.join("\n") + "\n").unwrap();
}

#[test]
fn a_data_file_edited_between_kill_and_resume_is_refused() {
    let dir = temp_dir("data-edit");
    std::fs::create_dir_all(&dir).unwrap();
    let tiles = dir.join("tiles.toml");
    let original = include_str!("../src/games/fox/tiles.toml");
    std::fs::write(&tiles, original).unwrap();
    let out = dir.join("run");
    let game = format!("fox(tiles={})", tiles.display());
    let args = [
        "run",
        "--game",
        &game,
        "--agents",
        "random,random",
        "--games",
        "6",
        "--threads",
        "1",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ];
    assert!(boardlab(&args).status.success());
    let manifest = json(&out.join("run.json"));
    let key = format!("tiles={}", tiles.display());
    assert!(
        manifest["data_files"][&key]
            .as_str()
            .is_some_and(|h| h.starts_with("sha256:")),
        "{manifest}"
    );
    kill_after_first_game(&out);
    // Same path, same length of text, a rule figure changed.
    std::fs::write(
        &tiles,
        original.replacen("turn_cap = 200", "turn_cap = 150", 1),
    )
    .unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    refused(&resume, "data files differ");
    // Restored, the run resumes.
    std::fs::write(&tiles, original).unwrap();
    assert!(boardlab(&resume).status.success());
}

#[test]
fn a_different_or_missing_move_timeout_is_refused() {
    let dir = temp_dir("timeout");
    let d = dir.to_str().unwrap();
    let base = [
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "6",
        "--threads",
        "1",
        "-q",
        "--out",
        d,
    ];
    let mut first = base.to_vec();
    first.extend(["--move-timeout-ms", "1000"]);
    assert!(boardlab(&first).status.success());
    assert_eq!(json(&dir.join("run.json"))["move_timeout_ms"], 1000);
    kill_after_first_game(&dir);
    let mut other = base.to_vec();
    other.extend(["--move-timeout-ms", "2000", "--resume"]);
    refused(&other, "move timeout (ms) differs");
    let mut missing = base.to_vec();
    missing.push("--resume");
    refused(&missing, "move timeout (ms) differs");
    first.push("--resume");
    assert!(boardlab(&first).status.success());
}

#[test]
fn a_run_of_another_build_is_refused() {
    let dir = temp_dir("build");
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "6",
        "--threads",
        "1",
        "-q",
        "--out",
        d,
    ];
    assert!(boardlab(&args).status.success());
    let m = json(&dir.join("run.json"));
    assert!(m["code"].as_str().is_some_and(|c| c.len() == 16), "{m}");
    kill_after_first_game(&dir);
    let text = std::fs::read_to_string(dir.join("run.json")).unwrap();
    let code = m["code"].as_str().unwrap();
    std::fs::write(dir.join("run.json"), text.replace(code, "0123456789abcdef")).unwrap();
    args.push("--resume");
    refused(&args, "code fingerprint differs");
}

/// The commit of the source tree the test binary was built from, if git knows it.
fn source_commit() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn run_json_carries_the_embedded_build_from_any_directory() {
    let dir = temp_dir("elsewhere");
    std::fs::create_dir_all(&dir).unwrap();
    // Run from a directory that is no git repository: the commit is the build's.
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([
            "run",
            "--game",
            "tictactoe",
            "--agents",
            "random,random",
            "--games",
            "4",
            "--threads",
            "2",
            "-q",
            "--out",
            "r",
        ])
        .current_dir(&dir)
        .env("GIT_DIR", "/nonexistent")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m = json(&dir.join("r/run.json"));
    match source_commit() {
        Some(c) => {
            assert_eq!(m["commit"], c.as_str(), "{m}");
            assert!(m["dirty"].is_boolean(), "{m}");
        }
        None => assert!(m["commit"].is_null(), "{m}"),
    }
    assert_eq!(m["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(m["threads"], 2);
    assert!(m["machine"]["cpus"].as_u64().is_some_and(|n| n >= 1), "{m}");
    assert_eq!(m["machine"]["os"], std::env::consts::OS);
    assert!(
        m["date"].as_str().is_some_and(|d| d.starts_with("20")),
        "{m}"
    );
}

#[test]
fn the_command_line_is_shell_quoted() {
    let dir = temp_dir("quoted");
    let d = dir.to_str().unwrap();
    let args = [
        "run",
        "--game",
        "fox(players=2)",
        "--agents",
        "greedy, random",
        "--games",
        "2",
        "--threads",
        "1",
        "-q",
        "--out",
        d,
    ];
    assert!(boardlab(&args).status.success());
    let command = json(&dir.join("run.json"))["command"]
        .as_str()
        .unwrap()
        .to_string();
    let words = shlex::split(&command).expect("pastes back into a shell");
    assert_eq!(&words[1..], &args[..], "{command}");
}

#[test]
fn provenance_json_names_the_build_and_machine() {
    let dir = temp_dir("provenance");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tiny.toml");
    std::fs::write(
        &file,
        "description = \"tiny\"\ngame = \"tictactoe\"\ngames = 2\nlineups = [[\"random\"]]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = boardlab(&[
        "experiment",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p = json(&out.join("provenance.json"));
    if let Some(c) = source_commit() {
        assert_eq!(p["git_commit"], c.as_str(), "{p}");
    }
    assert!(p["code"].as_str().is_some_and(|c| c.len() == 16), "{p}");
    assert!(p["machine"]["arch"].is_string(), "{p}");
    assert!(
        p["experiment_sha256"]
            .as_str()
            .is_some_and(|h| h.starts_with("sha256:")),
        "{p}"
    );
}

/// Two shards of one run, in `dir/s1` and `dir/s2`.
fn shards(dir: &Path, seed: &str) {
    for k in ["1/2", "2/2"] {
        let out = dir.join(format!("s{}", &k[..1]));
        let o = boardlab(&[
            "run",
            "--game",
            "tictactoe",
            "--agents",
            "random,greedy",
            "--games",
            "8",
            "--seed",
            seed,
            "--threads",
            "1",
            "-q",
            "--shard",
            k,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

fn merge_args(dir: &Path) -> Vec<String> {
    let p = |s: &str| dir.join(s).display().to_string();
    vec![
        "merge".into(),
        p("s1"),
        p("s2"),
        "--out".into(),
        p("merged"),
    ]
}

#[test]
fn merge_checks_each_shard_against_its_manifest() {
    let dir = temp_dir("merge-rows");
    shards(&dir, "1");
    let other = temp_dir("merge-rows-other");
    shards(&other, "2");
    let args = merge_args(&dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Shard 2's games come from another seed under the right run.json.
    let games = dir.join("s2/games.csv");
    let kept = std::fs::read(&games).unwrap();
    std::fs::copy(other.join("s2/games.csv"), &games).unwrap();
    refused(&args, "is not derived from master seed");
    // Shard 2 holds shard 1's games.
    std::fs::copy(dir.join("s1/games.csv"), &games).unwrap();
    refused(&args, "does not belong to shard 2/2");
    std::fs::write(&games, &kept).unwrap();
    // A shard without metrics.csv would silently halve the metrics.
    std::fs::remove_file(dir.join("s2/metrics.csv")).unwrap();
    refused(&args, "metrics.csv is missing");
}
