//! What a result was made with: the build (version, git commit and dirty flag
//! embedded at build time, a fingerprint of the sources that decide games),
//! the machine, the date and the command line. Written into run.json and
//! provenance.json so that a result names the code that made it, whatever
//! directory the binary ran from.

use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::Digest;

/// boardlab's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A hash of the sources that decide games' outcomes (see build.rs): two
/// binaries with the same fingerprint play the same games.
pub const CODE_FINGERPRINT: &str = env!("BOARDLAB_CODE_FINGERPRINT");

/// The git commit the binary was built from, when built from a git checkout
/// (or given as `BOARDLAB_GIT_COMMIT` at build time).
pub fn commit() -> Option<String> {
    option_env!("BOARDLAB_BUILD_COMMIT").map(str::to_string)
}

/// Whether the compiled sources had uncommitted edits; unknown outside git.
pub fn dirty() -> Option<bool> {
    option_env!("BOARDLAB_BUILD_DIRTY").map(|d| d == "true")
}

/// The machine a run was made on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// Operating system (`linux`, `macos`, ...).
    pub os: String,
    /// CPU architecture (`x86_64`, `aarch64`, ...).
    pub arch: String,
    /// Logical CPUs available to the process.
    pub cpus: usize,
}

impl Machine {
    /// This machine.
    pub fn current() -> Machine {
        Machine {
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// The process's command line, shell-quoted so that it can be pasted back.
pub fn command_line() -> String {
    let args: Vec<String> = std::env::args().collect();
    shlex::try_join(args.iter().map(String::as_str))
        .unwrap_or_else(|_| format!("{args:?} (contains a NUL byte)"))
}

/// Now, UTC, RFC 3339 to the second.
pub fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// SHA-256 of bytes, as `sha256:<hex>`.
pub fn sha256(bytes: &[u8]) -> String {
    let digest = sha2::Sha256::digest(bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// SHA-256 of a file's content.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    Ok(sha256(&std::fs::read(path)?))
}

/// Content hashes of the data files a game spec names: every parameter whose
/// value is an existing file (`tiles=my-tiles.toml`), keyed `param=value`.
/// The embedded defaults are covered by [`CODE_FINGERPRINT`].
pub fn data_files(game_spec: &str) -> std::collections::BTreeMap<String, String> {
    let Ok(spec) = crate::spec::Spec::parse(game_spec) else {
        return Default::default();
    };
    spec.params
        .iter()
        .filter(|(_, v)| Path::new(v).is_file())
        .filter_map(|(k, v)| {
            let hash = crate::data::read_text(v).ok()?;
            Some((format!("{k}={v}"), sha256(hash.as_bytes())))
        })
        .collect()
}
