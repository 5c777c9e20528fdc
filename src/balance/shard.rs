//! `boardlab balance --shard K/N` on many machines, and `boardlab merge` of
//! its shards. A shard plays, at every budget, the game indices `i` with
//! `i mod N = K − 1` (as `run --shard` does) and its share of the ladder's
//! pairs, and keeps them as raw files. The merge rates them exactly as one
//! machine would: the same games in the same order, the same stop, the same
//! ladder, so balance.csv, balance.json and balance.md come out byte for byte
//! those of the unsharded command, beside the same records (its spec and
//! games files, timing columns aside).
//!
//! A shard cannot know whether the budgets will agree early, so it plays
//! every budget and the ladder of all of them; when the merged budgets stop
//! early, the merge plays the shorter ladder a single run would have played.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::records::{RunSpec, games_file};
use super::skill::{SkillOptions, SkillResult, assess, at_budget, check, ladder_plan};
use crate::arena::PlayedGame;
use crate::arena::manifest::shard_indices;
use crate::arena::record::{GameRow, GameRows};
use crate::arena::rounded_games;
use crate::files::{BALANCE_RUN_FILE, PAIRS_FILE, SHARD_FILE};
use crate::game::Game;
use crate::ladder::{self, Journal};

/// What a shard was asked: everything that decides the merged result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardSpec {
    /// Canonical game spec.
    pub game: String,
    /// The agent as given.
    pub agent: String,
    /// Budgets in iterations per decision.
    pub budgets: Vec<u64>,
    /// Games per budget.
    pub max_games: u64,
    /// Duplicate deals.
    pub duplicate: bool,
    /// The agreement tolerance.
    pub tolerance: f64,
    /// Games per ladder meeting.
    pub ladder_games: u64,
    /// Master seed.
    pub seed: u64,
    /// This shard, K of N (1-based).
    pub shard: (u64, u64),
}

impl ShardSpec {
    fn options(&self, threads: usize) -> SkillOptions {
        SkillOptions {
            agent: self.agent.clone(),
            budgets: self.budgets.clone(),
            until: None,
            max_games: self.max_games,
            duplicate: self.duplicate,
            tolerance: self.tolerance,
            max_seconds: None,
            ladder_games: self.ladder_games,
            seed: self.seed,
            threads,
            progress: false,
        }
    }
}

/// Whether `game` has a ladder in `balance` (two players and ladder games).
fn rated<G: Game>(game: &G, o: &SkillOptions) -> bool {
    game.num_players() == 2 && o.ladder_games > 0
}

/// Plays shard `k` of `n` of `o` into `dir` (which must exist): per budget its
/// games as `games-<budget>.csv`, its ladder pairs, and [`SHARD_FILE`] last,
/// so a shard missing that file did not finish.
pub fn play<G: Game>(game: &G, o: &SkillOptions, (k, n): (u64, u64), dir: &Path) -> Result<()> {
    if o.until.is_some() || o.max_seconds.is_some() {
        bail!(
            "--shard plays a fixed share of --max-games at every budget; drop --until and --max-seconds"
        );
    }
    let base = check(game, o)?;
    let pool = crate::arena::pool(o.threads).map_err(anyhow::Error::msg)?;
    let cap = rounded_games(o.max_games, game.num_players());
    for &b in &o.budgets {
        let games = crate::arena::identical::play_identical(
            game,
            &at_budget(&base, b),
            shard_indices(cap, Some((k, n))),
            o.seed,
            o.duplicate,
            &pool,
        );
        write_games(&dir.join(games_file(b)), &games)?;
    }
    if rated(game, o) {
        let plan = ladder_plan(o, &o.budgets)?;
        let journal = Journal::create(&dir.join(PAIRS_FILE))?;
        ladder::play_share(
            game,
            &plan,
            o.ladder_games,
            o.seed,
            o.threads,
            &journal,
            (k, n),
        )?;
    }
    let spec = ShardSpec {
        game: game.spec(),
        agent: o.agent.clone(),
        budgets: o.budgets.clone(),
        max_games: cap,
        duplicate: o.duplicate,
        tolerance: o.tolerance,
        ladder_games: o.ladder_games,
        seed: o.seed,
        shard: (k, n),
    };
    super::save(dir, SHARD_FILE, &serde_json::to_string_pretty(&spec)?)
}

fn write_games(path: &Path, games: &[PlayedGame]) -> Result<()> {
    let mut w = csv::Writer::from_path(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    for row in games.iter().flat_map(|g| &g.rows) {
        w.serialize(row)?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Reads the [`SHARD_FILE`] of `dir`.
pub fn read_spec(dir: &Path) -> Result<ShardSpec> {
    let path = dir.join(SHARD_FILE);
    let text = crate::fsutil::read_text(&path, 1 << 20).with_context(|| {
        format!(
            "cannot read {}: not a finished `balance --shard` directory",
            path.display()
        )
    })?;
    serde_json::from_str(&text).with_context(|| format!("malformed {}", path.display()))
}

/// Checks `dirs` are every shard of one `balance --shard` command once and
/// rates their games as that command without `--shard` would have; the
/// ladder pairs are combined in `out` (which must exist).
pub fn merge<G: Game>(
    game: &G,
    dirs: &[PathBuf],
    out: &Path,
    threads: usize,
) -> Result<SkillResult> {
    let Some(first) = dirs.first() else {
        bail!("no shard directories given");
    };
    let spec = read_spec(first)?;
    let n = spec.shard.1;
    let mut seen = vec![false; n as usize];
    for dir in dirs {
        let s = read_spec(dir)?;
        let other = ShardSpec {
            shard: spec.shard,
            ..s.clone()
        };
        if other != spec {
            bail!(
                "{} is not a shard of the same balance command as {} (game, agent, budgets, games, seed, tolerance and ladder must agree)",
                dir.display(),
                first.display()
            );
        }
        let (k, m) = s.shard;
        if m != n || k == 0 || k > n || std::mem::replace(&mut seen[(k - 1) as usize], true) {
            bail!(
                "{} is shard {k}/{m}: the directories must be shards 1/{n} to {n}/{n}, each once",
                dir.display()
            );
        }
    }
    if let Some(k) = seen.iter().position(|s| !s) {
        bail!("shard {}/{n} is missing", k + 1);
    }
    let o = spec.options(threads);
    check(game, &o)?;
    let mut by_budget: BTreeMap<u64, Vec<PlayedGame>> = BTreeMap::new();
    for &b in &o.budgets {
        by_budget.insert(b, read_budget(game, dirs, &spec, b)?);
    }
    let all = o.budgets.clone();
    // The records of the unsharded study: its spec and the games of every
    // budget it rates, so that `compare` and `--resume` take a merge as well.
    super::save(
        out,
        BALANCE_RUN_FILE,
        &serde_json::to_string_pretty(&RunSpec::of(game, &o))?,
    )?;
    assess(
        game,
        &o,
        |b| {
            let Some(games) = by_budget.remove(&b) else {
                return Ok(None);
            };
            write_games(&out.join(games_file(b)), &games)?;
            super::records::write_sample(out, b, &games)?;
            Ok(Some(super::BudgetGames::of(
                game.num_players(),
                o.duplicate,
                games,
            )))
        },
        |plan| {
            let pairs = out.join(PAIRS_FILE);
            if plan.entrants.len() != all.len() + 1 {
                // Stopped early: a single run rates fewer budgets, on another schedule.
                return Ok(Some(Journal::create(&pairs)?));
            }
            let mut text = String::new();
            for (i, dir) in dirs.iter().enumerate() {
                let path = dir.join(PAIRS_FILE);
                let shard = crate::fsutil::read_text(&path, 256 << 20)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let body = shard.split_once('\n').map_or("", |(_, b)| b);
                if i == 0 {
                    text.push_str(shard.lines().next().unwrap_or(""));
                    text.push('\n');
                }
                text.push_str(body);
            }
            super::save(out, PAIRS_FILE, &text)?;
            let pairs_per_meeting = o.ladder_games.div_ceil(2).max(1);
            let journal = Journal::resume(&pairs, plan, pairs_per_meeting)?;
            let want = plan.meetings.len() as u64 * pairs_per_meeting;
            if journal.pairs_done() as u64 != want {
                bail!(
                    "the shards hold {} ladder pairs, {want} expected",
                    journal.pairs_done()
                );
            }
            Ok(Some(journal))
        },
    )
}

/// The games of budget `b` from every shard, in index order, each shard
/// holding exactly its own indices.
fn read_budget<G: Game>(
    game: &G,
    dirs: &[PathBuf],
    spec: &ShardSpec,
    b: u64,
) -> Result<Vec<PlayedGame>> {
    let seats = game.num_players();
    let mut games: BTreeMap<u64, Vec<GameRow>> = BTreeMap::new();
    for dir in dirs {
        let k = read_spec(dir)?.shard;
        let path = dir.join(games_file(b));
        let mut mine = BTreeMap::new();
        for row in GameRows::open(&path).map_err(anyhow::Error::msg)? {
            let row = row.map_err(anyhow::Error::msg)?;
            mine.entry(row.game_index)
                .or_insert_with(Vec::new)
                .push(row);
        }
        let want: Vec<u64> = shard_indices(spec.max_games, Some(k)).collect();
        if !mine.keys().copied().eq(want.iter().copied())
            || mine.values().any(|rows| rows.len() != seats)
        {
            bail!(
                "{} does not hold the {} games of shard {}/{} with {seats} rows each",
                path.display(),
                want.len(),
                k.0,
                k.1
            );
        }
        games.extend(mine);
    }
    Ok(games
        .into_values()
        .map(|rows| PlayedGame {
            rows,
            metrics: Vec::new(),
            stop: None,
        })
        .collect())
}
