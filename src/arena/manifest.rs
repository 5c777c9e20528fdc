//! `run.json`: the identity and provenance of a run. Resume and merge compare
//! identities so that rows of different runs are never mixed: the identity
//! holds everything that decides the games (the game and the content of its
//! data files, the agents after preset expansion, seeds, every option that
//! changes play, and the build: version and a fingerprint of the code).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// What makes two runs the same run (every field must match to resume or merge).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// Canonical game spec.
    pub game: String,
    /// Agents as written, in order.
    pub agents: Vec<String>,
    /// Agents after preset expansion (a changed preset file is a different run).
    pub resolved_agents: Vec<String>,
    /// Master seed.
    pub seed: u64,
    /// Games in the whole run (after rounding to whole seat rotations); with
    /// `until`, the cap.
    pub games: u64,
    /// Duplicate deals (`--duplicate`): one seed per seat rotation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub duplicate: bool,
    /// Fixed seats (`RunOptions::fixed_seats`): agent `s` in seat `s` in every game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fixed_seats: bool,
    /// The sequential stopping rule (`--until`), e.g. `ci=0.02`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// `--move-timeout-ms`: a slower decision forfeits the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_timeout_ms: Option<u64>,
    /// SHA-256 of each data file the game spec names, keyed `param=path`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub data_files: BTreeMap<String, String>,
    /// boardlab version that played the games.
    #[serde(default)]
    pub version: String,
    /// Fingerprint of the sources that decide games (`provenance::CODE_FINGERPRINT`).
    #[serde(default)]
    pub code: String,
}

/// The file written next to games.csv.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The run's identity.
    #[serde(flatten)]
    pub identity: Identity,
    /// `(k, n)`: this directory holds shard k of n (1-based), or the whole run.
    pub shard: Option<(u64, u64)>,
    /// The git commit the binary was built from, when known.
    #[serde(default)]
    pub commit: Option<String>,
    /// Whether that build had uncommitted edits to its sources.
    #[serde(default)]
    pub dirty: Option<bool>,
    /// When this directory was last written to (UTC).
    #[serde(default)]
    pub date: String,
    /// Worker threads (results do not depend on it).
    #[serde(default)]
    pub threads: usize,
    /// The machine.
    #[serde(default)]
    pub machine: Option<crate::provenance::Machine>,
    /// The command line, shell-quoted.
    pub command: String,
    /// Why a run with `until` stopped: its interval was reached, or the cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<String>,
    /// Games this directory holds once the run finished (absent while it
    /// runs, after an interruption or a stop at `--max-errors`): what
    /// `verify`, `summarize` and `report` check the stored rows against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played: Option<u64>,
    /// SHA-256 of the finished run's rows files ([`DIGESTED`]), binding them
    /// to this run: `merge` and `--resume` refuse a file that is not the
    /// one the run wrote (another run's, or edited).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub digests: BTreeMap<String, String>,
}

/// The files of a run directory whose digests run.json keeps once the run
/// has finished.
pub const DIGESTED: &[&str] = &["games.csv", "metrics.csv"];

/// SHA-256 of a file, read in blocks (a results file of any size).
fn digest_file(path: &Path) -> std::io::Result<String> {
    use sha2::Digest as _;
    use std::io::Read as _;
    let mut file = crate::fsutil::open_input(path, crate::fsutil::MAX_CSV_BYTES)?;
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(format!("sha256:{hex}"))
}

/// The digests of the [`DIGESTED`] files in `dir`.
pub fn digests(dir: &Path) -> std::io::Result<BTreeMap<String, String>> {
    DIGESTED
        .iter()
        .map(|f| Ok((f.to_string(), digest_file(&dir.join(f))?)))
        .collect()
}

/// True when run.json `m` keeps a digest of games.csv and `dir`'s games.csv
/// has it.
pub fn games_intact(dir: &Path, m: &Manifest) -> bool {
    m.digests
        .get("games.csv")
        .is_some_and(|want| digest_file(&dir.join("games.csv")).is_ok_and(|got| &got == want))
}

/// Checks the files of `dir` against the digests its run.json `m` keeps
/// (nothing to check for a run unfinished or written before they were kept);
/// a mismatch names the file.
pub fn check_digests(dir: &Path, m: &Manifest) -> Result<(), String> {
    for (file, want) in &m.digests {
        let path = dir.join(file);
        let got = digest_file(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if &got != want {
            return Err(format!(
                "{} is not the file this run wrote (its digest differs from run.json's): another run's, or edited",
                path.display()
            ));
        }
    }
    Ok(())
}

impl Identity {
    /// Names the first field that differs from `other`, if any.
    pub fn difference(&self, other: &Identity) -> Option<String> {
        let show = |v: &dyn std::fmt::Debug| format!("{v:?}");
        let pairs = [
            ("game", show(&self.game), show(&other.game)),
            ("agents", show(&self.agents), show(&other.agents)),
            (
                "resolved agents",
                show(&self.resolved_agents),
                show(&other.resolved_agents),
            ),
            ("seed", show(&self.seed), show(&other.seed)),
            ("games", show(&self.games), show(&other.games)),
            ("duplicate", show(&self.duplicate), show(&other.duplicate)),
            (
                "fixed seats",
                show(&self.fixed_seats),
                show(&other.fixed_seats),
            ),
            ("until", show(&self.until), show(&other.until)),
            (
                "move timeout (ms)",
                show(&self.move_timeout_ms),
                show(&other.move_timeout_ms),
            ),
            (
                "data files",
                show(&self.data_files),
                show(&other.data_files),
            ),
            (
                "boardlab version",
                show(&self.version),
                show(&other.version),
            ),
            ("code fingerprint", show(&self.code), show(&other.code)),
        ];
        pairs
            .into_iter()
            .find(|(_, a, b)| a != b)
            .map(|(field, a, b)| format!("{field} differs ({a} here, {b} in the existing run)"))
    }
}

impl Manifest {
    /// The games a finished run's games.csv holds: `played` as recorded, or
    /// for a run.json written before it was, every game of the shard when
    /// no stopping rule could end the run early (`None`: unknown).
    pub fn expected_games(&self) -> Option<u64> {
        self.played.or_else(|| {
            self.identity
                .until
                .is_none()
                .then(|| shard_len(self.identity.games, self.shard))
        })
    }
}

/// Reads `run.json` from a directory.
pub fn read(dir: &Path) -> Result<Manifest, String> {
    let path = dir.join(crate::files::MANIFEST_FILE);
    let text = crate::fsutil::read_text(&path, crate::fsutil::MAX_TEXT_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    crate::data::parse_json(&text).map_err(|e| format!("malformed {}: {e}", path.display()))
}

/// Writes `run.json` atomically, never through a link.
pub fn write(dir: &Path, m: &Manifest) -> std::io::Result<()> {
    crate::fsutil::write_atomic(
        &dir.join(crate::files::MANIFEST_FILE),
        serde_json::to_string_pretty(m)? + "\n",
    )
}

/// How many games shard `k` of `n` (1-based) of a run of `games` games holds.
pub fn shard_len(games: u64, shard: Option<(u64, u64)>) -> u64 {
    let (k, n) = shard.unwrap_or((1, 1));
    games.saturating_sub(k - 1).div_ceil(n.max(1))
}

/// The game indices of shard `k` of `n` (1-based) in a run of `games` games.
pub fn shard_indices(games: u64, shard: Option<(u64, u64)>) -> impl Iterator<Item = u64> {
    let (k, n) = shard.unwrap_or((1, 1));
    (k - 1..games).step_by(n as usize)
}
