//! The README's commands work as written: every line of a fenced block marked
//! `sh ci` is run, in order, in one fresh directory (with the checkout's
//! experiments/ linked in, as the commands run from the top of a checkout), with the binary the tests
//! built standing in for `boardlab` and `cargo run --release --`.

mod common;

use std::path::Path;
use std::process::Command;

use common::temp_dir;

/// The lines of the blocks marked `sh ci`, without blank lines and comments.
fn marked_commands(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("```") {
            inside = !inside && line == "```sh ci";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            commands.push(line.to_string());
        }
    }
    commands
}

#[test]
fn readme_commands_run_as_written() {
    let commands = marked_commands(include_str!("../README.md"));
    // The set-up command is marked; losing the mark would silently skip it.
    assert!(
        commands.iter().any(|c| c.contains("--out results/demo")),
        "{commands:?}"
    );
    let dir = temp_dir("readme");
    std::fs::create_dir_all(&dir).unwrap();
    // Commands run from the top of a checkout, where experiments/ holds the
    // input files some of them read (never written: results go elsewhere).
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments"),
        dir.join("experiments"),
    )
    .unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_boardlab")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for command in &commands {
        let line = match command.strip_prefix("cargo run --release -- ") {
            Some(rest) => format!("boardlab {rest}"),
            None => command.clone(),
        };
        assert!(
            line.starts_with("boardlab "),
            "a README block marked `sh ci` holds a command this test cannot run: {command}"
        );
        let out = Command::new("sh")
            .arg("-c")
            .arg(&line)
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README command failed: {command}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(dir.join("results/demo/games.csv").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn marked_blocks_are_found_and_others_skipped() {
    let text = "```sh ci\nboardlab games   # list\n\n# a comment\n```\n```sh\ncargo test\n```\n```sh ci\nboardlab agents\n```\n";
    assert_eq!(
        marked_commands(text),
        ["boardlab games   # list", "boardlab agents"]
    );
}
