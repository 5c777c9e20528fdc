//! The per-game records of `boardlab balance` and `balance --resume`.
//!
//! The output directory holds [`BALANCE_RUN_FILE`] (everything that decides the
//! games, written first), per budget `games-<budget>.csv` (the rows of every
//! game, appended in index order chunk by chunk as they are played, never
//! all in memory) and `sample-<budget>.csv` (its first games, written when the
//! budget is done, for `boardlab verify`), and the ladder's pairs. A game depends on its index alone,
//! and `--until` looks at the rates only after whole batches of
//! [`until_batch`] games, so a resumed study keeps each budget's complete
//! games, drops a torn last line, replays the stopping checks over what it
//! kept and plays the rest: its files and rates are those of a study that
//! never stopped, for any thread count.

use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::BudgetGames;
use super::skill::SkillOptions;
use crate::agents::registry::AgentSpec;
use crate::arena::manifest::Identity;
use crate::arena::record::{GameRow, check_games_header};
use crate::arena::{PlayedGame, rounded_games, until_batch};
use crate::files::{BALANCE_RUN_FILE, PAIRS_FILE};
use crate::game::Game;

/// The games file of one budget.
pub fn games_file(budget: u64) -> String {
    format!("games-{budget}.csv")
}

/// The first games of one budget, kept in place of its games file when that
/// is too large to keep, so `boardlab verify` can still replay the study.
pub fn sample_file(budget: u64) -> String {
    format!("sample-{budget}.csv")
}

/// Writes [`sample_file`] of `budget`: the rows of its first
/// [`SAMPLE_GAMES`](crate::files::SAMPLE_GAMES) games.
pub fn write_sample(dir: &Path, budget: u64, games: &[PlayedGame]) -> Result<()> {
    let first = &games[..games.len().min(crate::files::SAMPLE_GAMES)];
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in first.iter().flat_map(|g| &g.rows) {
        w.serialize(row)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    super::save(dir, &sample_file(budget), &String::from_utf8_lossy(&bytes))
}

/// The contents of [`BALANCE_RUN_FILE`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    /// Canonical game spec.
    pub game: String,
    /// The agent as given.
    pub agent: String,
    /// Budgets in iterations per decision.
    pub budgets: Vec<u64>,
    /// `--until ci=X`.
    pub until: Option<f64>,
    /// Games per budget (after rounding to whole seat rotations).
    pub max_games: u64,
    /// Duplicate deals.
    pub duplicate: bool,
    /// The agreement tolerance.
    pub tolerance: f64,
    /// Games per ladder meeting.
    pub ladder_games: u64,
    /// Master seed.
    pub seed: u64,
    /// boardlab version that played the games.
    pub version: String,
    /// Fingerprint of the sources that decide games.
    pub code: String,
}

impl RunSpec {
    /// The spec of `o` on `game`.
    pub fn of<G: Game>(game: &G, o: &SkillOptions) -> RunSpec {
        RunSpec {
            game: game.spec(),
            agent: o.agent.clone(),
            budgets: o.budgets.clone(),
            until: o.until,
            max_games: rounded_games(o.max_games, game.num_players()),
            duplicate: o.duplicate,
            tolerance: o.tolerance,
            ladder_games: o.ladder_games,
            seed: o.seed,
            version: crate::provenance::VERSION.to_string(),
            code: crate::provenance::CODE_FINGERPRINT.to_string(),
        }
    }

    /// The first field in which `self` (this command) and `old` differ.
    fn difference(&self, old: &RunSpec) -> Option<String> {
        let show = |v: &dyn std::fmt::Debug| format!("{v:?}");
        [
            ("game", show(&self.game), show(&old.game)),
            ("agent", show(&self.agent), show(&old.agent)),
            ("budgets", show(&self.budgets), show(&old.budgets)),
            ("until", show(&self.until), show(&old.until)),
            (
                "games per budget",
                show(&self.max_games),
                show(&old.max_games),
            ),
            ("duplicate", show(&self.duplicate), show(&old.duplicate)),
            ("tolerance", show(&self.tolerance), show(&old.tolerance)),
            (
                "ladder games",
                show(&self.ladder_games),
                show(&old.ladder_games),
            ),
            ("seed", show(&self.seed), show(&old.seed)),
            ("boardlab version", show(&self.version), show(&old.version)),
            ("code fingerprint", show(&self.code), show(&old.code)),
        ]
        .into_iter()
        .find(|(_, a, b)| a != b)
        .map(|(what, a, b)| format!("not the same {what} ({a} here, {b} in the existing study)"))
    }
}

/// Reads the [`BALANCE_RUN_FILE`] of `dir`.
pub fn read_spec(dir: &Path) -> Result<RunSpec> {
    let path = dir.join(BALANCE_RUN_FILE);
    let text = crate::fsutil::read_text(&path, 1 << 20).with_context(|| {
        format!(
            "cannot read {}: not a `balance` output directory (or one written before games were kept)",
            path.display()
        )
    })?;
    serde_json::from_str(&text).with_context(|| format!("malformed {}", path.display()))
}

/// Where a balance study keeps its records, and whether it continues one.
#[derive(Clone, Copy, Debug)]
pub struct Records<'a> {
    /// The output directory.
    pub dir: &'a Path,
    /// Continue the study already there.
    pub resume: bool,
}

impl Records<'_> {
    /// Starts the study: checks a resumed directory holds this very study,
    /// or writes [`BALANCE_RUN_FILE`] and clears its budgets' games files and the
    /// ladder's pairs (an earlier study's, under `--force`).
    pub fn start<G: Game>(&self, game: &G, o: &SkillOptions) -> Result<()> {
        let spec = RunSpec::of(game, o);
        let refuse =
            |why: String| anyhow::anyhow!("cannot resume in {}: {why}", self.dir.display());
        if self.resume {
            let old = read_spec(self.dir).map_err(|e| refuse(format!("{e:#}")))?;
            // More games per budget extend the study: a game depends on its
            // index alone, so the games kept are the first of the larger one.
            let same_games = RunSpec {
                max_games: old.max_games,
                ..spec.clone()
            };
            if let Some(diff) = same_games.difference(&old) {
                return Err(refuse(diff));
            }
            if spec.max_games < old.max_games {
                return Err(refuse(format!(
                    "--max-games {} is fewer than the {} games per budget of the existing study (a study can grow, not shrink)",
                    spec.max_games, old.max_games
                )));
            }
            if spec.max_games > old.max_games {
                super::save(
                    self.dir,
                    BALANCE_RUN_FILE,
                    &serde_json::to_string_pretty(&spec)?,
                )?;
            }
            return Ok(());
        }
        let files = o
            .budgets
            .iter()
            .flat_map(|&b| [games_file(b), sample_file(b)]);
        for name in files.chain([PAIRS_FILE.to_string()]) {
            let path = self.dir.join(name);
            if path.exists() {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot remove {}", path.display()))?;
            }
        }
        super::save(
            self.dir,
            BALANCE_RUN_FILE,
            &serde_json::to_string_pretty(&spec)?,
        )
    }

    /// The ladder journal: the pairs already played when resuming.
    pub fn journal(
        &self,
        plan: &crate::ladder::LadderPlan,
        o: &SkillOptions,
    ) -> Result<crate::ladder::Journal> {
        let path = self.dir.join(PAIRS_FILE);
        if self.resume && path.exists() {
            crate::ladder::Journal::resume(&path, plan, o.ladder_games.div_ceil(2).max(1))
                .map_err(|e| anyhow::anyhow!("cannot resume in {}: {e:#}", self.dir.display()))
        } else {
            crate::ladder::Journal::create(&path)
        }
    }
}

/// Plays budget `agent`'s games (all `max_games`, or with `until` whole
/// batches until every seat's and role's half-width is small enough),
/// appending them to the budget's games file; when resuming, the games
/// already there are kept and the stopping checks replayed over them. The
/// games are read into a [`BudgetGames`] one chunk at a time, never all held.
pub fn play_budget<G: Game>(
    game: &G,
    agent: &AgentSpec,
    budget: u64,
    o: &SkillOptions,
    pool: &rayon::ThreadPool,
    records: Option<Records>,
) -> Result<BudgetGames> {
    let n = game.num_players();
    let cap = rounded_games(o.max_games, n);
    let batch = until_batch(n);
    // Stop at a batch boundary once every group is precise enough.
    let precise = |games: &BudgetGames| o.until.is_some_and(|ci| games.half_width() <= ci);
    let mut games = BudgetGames::new(n, o.duplicate);
    let mut sink = match records {
        None => None,
        Some(r) => {
            let path = r.dir.join(games_file(budget));
            let file = if r.resume && path.exists() {
                let (file, stop) = reopen(game, &path, o, &agent.label, cap, &mut games, |g| {
                    g.games % batch == 0 && g.games < cap && precise(g)
                })?;
                if let Some(end) = stop {
                    if end != games.games {
                        bail!(
                            "cannot resume: {} holds {} games, but the study stops at {end}",
                            path.display(),
                            games.games
                        );
                    }
                    return Ok(games);
                }
                file
            } else {
                crate::fsutil::create(&path)
                    .with_context(|| format!("cannot create {}", path.display()))?
            };
            Some((file, path))
        }
    };
    // A chunk between checkpoints of the file: a deal at a time at least, and
    // never across a stopping check.
    let chunk = rounded_games(20.max(2 * pool.current_num_threads() as u64), n);
    let which = o.budgets.iter().position(|&b| b == budget).unwrap_or(0) + 1;
    let label = format!("budget {budget} ({which} of {})", o.budgets.len());
    let bar = crate::arena::progress::Progress::of(cap, o.progress, "game", label);
    bar.inc(games.games);
    while games.games < cap {
        let start = games.games;
        let boundary = if o.until.is_some() {
            (start / batch + 1) * batch
        } else {
            cap
        };
        let end = (start + chunk).min(boundary).min(cap);
        let mut played = crate::arena::identical::play_identical(
            game,
            agent,
            start..end,
            o.seed,
            o.duplicate,
            pool,
        );
        for g in &mut played {
            g.metrics = Vec::new();
        }
        if let Some((file, path)) = &mut sink {
            append(file, path, &played, start == 0)?;
        }
        for g in played {
            games.add(g);
        }
        bar.inc(end - start);
        if end == boundary && end < cap && precise(&games) {
            break;
        }
    }
    bar.finish_and_clear();
    Ok(games)
}

/// Appends `games`' rows to `file` (with the header when `first`).
fn append(file: &mut std::fs::File, path: &Path, games: &[PlayedGame], first: bool) -> Result<()> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(first)
        .from_writer(Vec::new());
    for row in games.iter().flat_map(|g| &g.rows) {
        w.serialize(row)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    file.write_all(&bytes)
        .and_then(|()| file.flush())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Reads the complete games of an interrupted budget from `path` into
/// `games`, each checked to be the game this study plays at its place,
/// truncates the file after the last of them and returns the file open at
/// its end, with the number of games read when `stop` first held after one.
fn reopen<G: Game>(
    game: &G,
    path: &Path,
    o: &SkillOptions,
    label: &str,
    cap: u64,
    games: &mut BudgetGames,
    stop: impl Fn(&BudgetGames) -> bool,
) -> Result<(std::fs::File, Option<u64>)> {
    let n = game.num_players();
    let refuse = |why: String| anyhow::anyhow!("cannot resume: {}: {why}", path.display());
    let mut file = crate::fsutil::open_existing(path).map_err(|e| refuse(e.to_string()))?;
    let whole = crate::arena::resume::whole_lines(&file).map_err(|e| refuse(e.to_string()))?;
    let identity = Identity {
        game: game.spec(),
        agents: vec![label.to_string(); n],
        resolved_agents: Vec::new(),
        seed: o.seed,
        games: cap,
        duplicate: o.duplicate,
        fixed_seats: false,
        until: None,
        move_timeout_ms: None,
        data_files: Default::default(),
        version: String::new(),
        code: String::new(),
    };
    let mut reader = csv::Reader::from_reader(std::io::BufReader::new((&file).take(whole)));
    let header = reader
        .headers()
        .map_err(|e| refuse(format!("malformed: {e}")))?
        .clone();
    let mut stopped = None;
    let mut keep = 0;
    if !header.is_empty() {
        check_games_header(&header).map_err(|e| refuse(format!("malformed: {e}")))?;
        let mut line = csv::StringRecord::new();
        let mut pending: Vec<GameRow> = Vec::new();
        while reader
            .read_record(&mut line)
            .map_err(|e| refuse(format!("malformed: {e}")))?
        {
            let row: GameRow = line
                .deserialize(Some(&header))
                .map_err(|e| refuse(format!("malformed row: {e}")))?;
            pending.push(row);
            if pending.len() == n {
                let index = games.games;
                if index >= cap {
                    return Err(refuse(format!(
                        "holds more than the {cap} games of a budget"
                    )));
                }
                crate::arena::check::game_rows(game, &identity, index, &pending).map_err(refuse)?;
                games.add(PlayedGame {
                    rows: std::mem::take(&mut pending),
                    metrics: Vec::new(),
                    stop: None,
                });
                if stopped.is_none() && stop(games) {
                    stopped = Some(games.games);
                }
                keep = reader.position().byte();
            }
        }
    }
    drop(reader);
    let io = |e: std::io::Error| refuse(format!("cannot truncate: {e}"));
    file.set_len(keep).map_err(io)?;
    file.seek(SeekFrom::End(0)).map_err(io)?;
    Ok((file, stopped))
}
