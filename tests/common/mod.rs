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
