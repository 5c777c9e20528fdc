//! Helpers shared by the tests that drive the real binary.
// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the boardlab binary with `args` and waits for it.
pub fn boardlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// A fresh (removed, not yet created) directory under the system's temporary
/// directory, unique to this test process.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardlab-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A games.csv without its timing columns (`*_us`): the part that must not
/// depend on threads, machines or interruptions.
pub fn without_timing(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !header[i].ends_with("_us"))
        .collect();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            keep.iter().map(|&i| f[i]).collect::<Vec<_>>().join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `boardlab play` with `args`, answering every human prompt with the
/// key of the first move listed. Returns the output, whether it exited with
/// success, and the fewest moves any prompt listed.
pub fn play_first_moves(args: &[&str]) -> (String, bool, usize) {
    use std::io::{Read, Write};
    const PROMPT: &str = "your move (a key, or help): ";
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .arg("play")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let (mut bytes, mut buf) = (Vec::new(), [0u8; 8192]);
    let (mut answered, mut fewest) = (0, usize::MAX);
    loop {
        let n = stdout.read(&mut buf).expect("stdout reads");
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&bytes);
        let prompts = text.matches(PROMPT).count();
        if prompts > answered && text.ends_with(PROMPT) {
            answered = prompts;
            let list = &text[text.rfind("you hold seat").expect("a seat line")..];
            let moves: Vec<&str> = list
                .lines()
                .skip(1)
                .take_while(|l| l.contains(") "))
                .collect();
            fewest = fewest.min(moves.len());
            let key = moves[0].trim_start().split_once(") ").expect("a key").0;
            writeln!(stdin, "{key}").expect("stdin takes the key");
        }
    }
    drop(stdin);
    let ok = child.wait().expect("the binary ends").success();
    (String::from_utf8_lossy(&bytes).into_owned(), ok, fewest)
}
