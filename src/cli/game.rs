//! A game chosen at run time, as the command line uses it.
//!
//! Every subcommand that takes a game (`--game`, or a trace's) reads it from
//! the [`Registry`](super::Registry) and calls its generic code through
//! [`GameCommands`], implemented once for every game by [`Typed`]: a game
//! registered from another crate reaches every command the built-in ones do.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, anyhow};

use super::bench::Plan;
use super::exploitability::ExploitabilityArgs;
use super::ladder::LadderArgs;
use super::soak::Tally;
use super::sprt::SprtArgs;
use super::tune::TuneArgs;
use crate::agents::registry::AgentSpec;
use crate::analysis::quality::Trajectory;
use crate::arena::trace::Header;
use crate::balance::records::Records;
use crate::balance::skill::{SkillOptions, SkillResult};
use crate::ladder::{Journal, LadderPlan};
use crate::runtime::{DynGame, Typed};
use crate::tune::SearchSpace;
use crate::view::Picture;

/// What the command line does with a game beyond [`DynGame`]: one method per
/// subcommand, each the subcommand's generic code on the concrete game.
/// Methods that take agents by text also seat the game's own agent kinds.
pub(super) trait GameCommands: DynGame {
    /// `play`: one game, agents by text (`human` at the terminal, or in a
    /// browser served on this port with `html`).
    fn play(&self, agents: &[String], seed: u64, html: Option<u16>) -> Result<()>;
    /// `replay`: the lines of a trace after its header, printed turn by turn.
    fn replay(&self, header: &Header, lines: &[String]) -> Result<()>;
    /// `view`: a trace's page and its number of steps.
    fn view(&self, header: Header, lines: &[String]) -> Result<(String, usize)>;
    /// `soak`: random games `start..start + games`, every state checked.
    fn soak(&self, master: u64, start: u64, games: u64, pool: &rayon::ThreadPool) -> Tally;
    /// `bench`: random playouts, or `agent`'s search from the initial state.
    fn bench(&self, agent: Option<&AgentSpec>, plan: &Plan) -> Result<serde_json::Value>;
    /// `sprt`: agents A and B by text.
    fn sprt(&self, agents: &[String], a: &SprtArgs) -> Result<ExitCode>;
    /// `exploitability`: `agent`'s policy, or the uniform one.
    fn exploitability(
        &self,
        agent: Option<&AgentSpec>,
        a: &ExploitabilityArgs,
    ) -> Result<serde_json::Value>;
    /// `ladder`: plays and writes the ladder.
    fn ladder(&self, plan: &LadderPlan, a: &LadderArgs, journal: &Journal) -> Result<()>;
    /// `quality`: the games' trajectories.
    fn quality(
        &self,
        specs: &[AgentSpec],
        games: u64,
        seed: u64,
        threads: usize,
    ) -> Result<Vec<Trajectory>>;
    /// `tune`: searches, prints and writes the tuning.
    fn tune(&self, space: &SearchSpace, against: &AgentSpec, a: &TuneArgs) -> Result<()>;
    /// `balance`: balance against skill, every game kept in `records`.
    fn balance(&self, opts: &SkillOptions, records: Records) -> Result<SkillResult>;
    /// `balance --shard K/N`: plays shard K of N into `dir`.
    fn balance_shard(&self, opts: &SkillOptions, shard: (u64, u64), dir: &Path) -> Result<()>;
    /// `merge` of `balance` shards.
    fn balance_merge(&self, dirs: &[PathBuf], out: &Path) -> Result<SkillResult>;
}

impl<G: Picture> GameCommands for Typed<G> {
    fn play(&self, agents: &[String], seed: u64, html: Option<u16>) -> Result<()> {
        let (specs, factories) = self.agents(agents)?;
        match html {
            Some(port) => super::play_html::play_one(self.game(), &specs, &factories, seed, port),
            None => super::play::play_one(self.game(), &specs, &factories, seed),
        }
    }
    fn replay(&self, header: &Header, lines: &[String]) -> Result<()> {
        super::commands::replay_lines(self.game(), header, lines)
    }
    fn view(&self, header: Header, lines: &[String]) -> Result<(String, usize)> {
        let replay = crate::view::replay(self.game(), header, lines).map_err(|e| anyhow!("{e}"))?;
        let bar = crate::arena::progress::Progress::of(
            replay.states.len() as u64,
            true,
            "state",
            "drawing".to_string(),
        );
        let page = crate::view::page_with(self.game(), &replay, &bar);
        Ok((page, replay.steps.len()))
    }
    fn soak(&self, master: u64, start: u64, games: u64, pool: &rayon::ThreadPool) -> Tally {
        super::soak::soak(self.game(), master, start, games, pool)
    }
    fn bench(&self, agent: Option<&AgentSpec>, plan: &Plan) -> Result<serde_json::Value> {
        match agent {
            None => Ok(super::bench::playouts(self.game(), plan)),
            Some(spec) => super::bench::search(self.game(), spec, plan),
        }
    }
    fn sprt(&self, agents: &[String], a: &SprtArgs) -> Result<ExitCode> {
        let (specs, factories) = self.agents(agents)?;
        super::sprt::run(self.game(), &specs, &factories, a)
    }
    fn exploitability(
        &self,
        agent: Option<&AgentSpec>,
        a: &ExploitabilityArgs,
    ) -> Result<serde_json::Value> {
        super::exploitability::measure(self.game(), agent, a)
    }
    fn ladder(&self, plan: &LadderPlan, a: &LadderArgs, journal: &Journal) -> Result<()> {
        super::ladder::write(self.game(), plan, a, journal)
    }
    fn quality(
        &self,
        specs: &[AgentSpec],
        games: u64,
        seed: u64,
        threads: usize,
    ) -> Result<Vec<Trajectory>> {
        crate::analysis::quality::play(self.game(), specs, games, seed, threads)
    }
    fn tune(&self, space: &SearchSpace, against: &AgentSpec, a: &TuneArgs) -> Result<()> {
        super::tune::tune_game(self.game(), space, against, a)
    }
    fn balance(&self, opts: &SkillOptions, records: Records) -> Result<SkillResult> {
        crate::balance::skill::measure_with(self.game(), opts, Some(records))
    }
    fn balance_shard(&self, opts: &SkillOptions, shard: (u64, u64), dir: &Path) -> Result<()> {
        crate::balance::shard::play(self.game(), opts, shard, dir)
    }
    fn balance_merge(&self, dirs: &[PathBuf], out: &Path) -> Result<SkillResult> {
        crate::balance::shard::merge(self.game(), dirs, out, 0)
    }
}
