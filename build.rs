//! Embeds what a result must record about the binary that made it: the git
//! commit and dirty flag of the source tree it was built from, and a
//! fingerprint of the sources that decide games' outcomes (games, their data,
//! agents and presets, the game loop, the random streams).
//!
//! A build from a tarball (no `.git`, or a `.git` of some enclosing project)
//! records no commit unless `BOARDLAB_GIT_COMMIT` names one; the fingerprint
//! needs no git.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Sources whose edits can change a game's result. Tests and prose are left
/// out (`tests.rs`, `*.md`): they cannot change what a game does.
const OUTCOME_SOURCES: &[&str] = &[
    "src/game",
    "src/games",
    "src/agents",
    "agents",
    "src/arena/play.rs",
    "src/arena/mod.rs",
    "src/arena/record.rs",
    "src/rng.rs",
    "src/spec.rs",
    "src/data.rs",
];

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        for e in entries.flatten() {
            files(&e.path(), out);
        }
    } else {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name != "tests.rs" && !name.ends_with(".md") {
            out.push(path.to_path_buf());
        }
    }
}

/// FNV-1a, 64 bits: enough to tell two source trees apart (not a defence
/// against forgery; the commit is the authority).
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let mut paths = Vec::new();
    for s in OUTCOME_SOURCES {
        println!("cargo:rerun-if-changed={s}");
        files(&root.join(s), &mut paths);
    }
    paths.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for p in &paths {
        let rel = p.strip_prefix(&root).unwrap_or(p);
        fnv(
            &mut hash,
            rel.to_string_lossy().replace('\\', "/").as_bytes(),
        );
        fnv(&mut hash, &[0]);
        // Line endings do not change what the code does.
        let text = std::fs::read(p).unwrap_or_default();
        let text: Vec<u8> = text.into_iter().filter(|&b| b != b'\r').collect();
        fnv(&mut hash, &text);
        fnv(&mut hash, &[0]);
    }
    println!("cargo:rustc-env=BOARDLAB_CODE_FINGERPRINT={hash:016x}");

    println!("cargo:rerun-if-env-changed=BOARDLAB_GIT_COMMIT");
    const BUILT: [&str; 5] = ["src", "agents", "Cargo.toml", "Cargo.lock", "build.rs"];
    for p in BUILT {
        println!("cargo:rerun-if-changed={p}");
    }
    if let Ok(commit) = std::env::var("BOARDLAB_GIT_COMMIT") {
        println!("cargo:rustc-env=BOARDLAB_BUILD_COMMIT={commit}");
        return;
    }
    // Only this package's own repository counts, not one it is unpacked inside.
    let top = git(&["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    let own = match (top.and_then(|t| t.canonicalize().ok()), root.canonicalize()) {
        (Some(t), Ok(r)) => t == r,
        _ => false,
    };
    if !own {
        return;
    }
    if let Some(commit) = git(&["rev-parse", "HEAD"]) {
        println!("cargo:rustc-env=BOARDLAB_BUILD_COMMIT={commit}");
    }
    // Dirty: uncommitted edits to what is compiled (not to results or docs).
    let mut args = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    args.extend(BUILT);
    if let Some(status) = git(&args) {
        println!(
            "cargo:rustc-env=BOARDLAB_BUILD_DIRTY={}",
            !status.is_empty()
        );
    }
    // Rebuild when the commit moves: HEAD and the branch it names. The index
    // is not watched: `git status` rewrites it (refreshing its stat cache), so
    // a plain look at the tree would force a rebuild. Edits that make the tree
    // dirty or clean again touch the watched sources themselves.
    for (flag, file) in [("--git-dir", "HEAD"), ("--git-common-dir", "packed-refs")] {
        if let Some(dir) = git(&["rev-parse", flag]) {
            watch(&root.join(dir).join(file));
        }
    }
    if let (Some(dir), Some(head)) = (
        git(&["rev-parse", "--git-common-dir"]),
        git(&["symbolic-ref", "-q", "HEAD"]),
    ) {
        watch(&root.join(dir).join(head));
    }
}

/// Watches a file that exists (a missing one would rerun this script on every build).
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
