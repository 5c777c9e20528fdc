//! The runtime: games chosen at run time, behind one object, over the runner.
//!
//! This module sits above the runner (`arena`) and below the studies and the
//! command line: the rules (`games`) and the runner know nothing of it.
//!
//! Generic code is written once over `G: Game`; a program that picks its game
//! from text (the command line, an experiment file) needs the concrete type
//! only once, at the point where the spec is read. [`DynGame`] is what such a
//! program does with the game afterwards, implemented once for every game by
//! [`Typed`]; a [`GameSource`] turns a spec into one. The built-in games are
//! the source [`Builtin`]; `boardlab::cli::Registry` adds games and agent
//! kinds from other crates.

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::agents::Agent;
use crate::agents::erased::{AnyAgent, Erased};
use crate::agents::registry::AgentSpec;
use crate::arena::manifest;
use crate::arena::merge::{self, Merged, merge_for};
use crate::arena::{self, AgentFactory, PlayedGame, RunError, RunOptions, RunOutput};
use crate::error::SpecError;
use crate::game::{Ablation, Game};
use crate::spec::{Params, Spec};

/// What a program that chose its game at run time does with it.
pub trait DynGame: Send + Sync {
    /// The canonical spec.
    fn spec(&self) -> String;
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// [`Rules::side`](crate::game::Rules::side) of every seat.
    fn sides(&self) -> Vec<u8>;
    /// Checks agent texts as [`DynGame::run`] reads them, one per seat or fewer.
    fn check_agents(&self, agents: &[String]) -> Result<(), SpecError>;
    /// [`arena::run_with`] with agents named by text, one per seat: built-in
    /// kinds, presets and `@file`, or an agent kind registered for this game.
    fn run(&self, agents: &[String], opts: &RunOptions) -> Result<RunOutput, RunError>;
    /// [`merge_for`]: the shard directories of one run of this game.
    fn merge(&self, dirs: &[PathBuf], out: &Path, force: bool) -> Result<Merged, RunError>;
    /// [`Reporting::ablations`](crate::game::Reporting::ablations).
    fn ablations(&self) -> Vec<Ablation>;
    /// [`crate::arena::identical::play_identical`] with the agent named by text, as
    /// [`DynGame::run`] reads it, in every seat.
    fn play_identical(
        &self,
        agent: &str,
        range: std::ops::Range<u64>,
        seed: u64,
        duplicate: bool,
        pool: &rayon::ThreadPool,
    ) -> Result<Vec<PlayedGame>, SpecError>;
}

/// Turns a game spec into a game.
pub trait GameSource: Sync {
    /// Builds the game `spec` names, or says which names exist.
    fn game(&self, spec: &Spec) -> Result<Box<dyn DynGame>, SpecError>;
}

/// An agent kind of one's own for game `G`, named in agent specs like a
/// built-in kind: `name(key=value,...)`.
pub struct AgentKind<G: Game> {
    /// The kind's name in specs.
    pub name: String,
    /// Builds an agent from the spec's parameters (calling `Params::finish`
    /// so unknown keys are errors).
    pub build: Arc<AgentBuilder<G>>,
}

/// How an [`AgentKind`] builds its agent.
pub type AgentBuilder<G> =
    dyn Fn(&mut Params) -> Result<Box<dyn Agent<G>>, SpecError> + Send + Sync;

impl<G: Game> Clone for AgentKind<G> {
    fn clone(&self) -> Self {
        AgentKind {
            name: self.name.clone(),
            build: self.build.clone(),
        }
    }
}

/// An agent kind of one's own for every game: its agents are
/// [`AnyAgent`]s, seated in a game of any type through [`Erased`].
#[derive(Clone)]
pub struct EveryGameKind {
    /// The kind's name in specs.
    pub name: String,
    /// Builds an agent from the spec's parameters (calling `Params::finish`).
    pub build: Arc<AnyAgentBuilder>,
}

/// How an [`EveryGameKind`] builds its agent.
pub type AnyAgentBuilder =
    dyn Fn(&mut Params) -> Result<Box<dyn AnyAgent>, SpecError> + Send + Sync;

impl EveryGameKind {
    /// This kind as a kind of game type `G`.
    fn of<G: Game>(&self) -> AgentKind<G> {
        let build = self.build.clone();
        AgentKind {
            name: self.name.clone(),
            build: Arc::new(move |params: &mut Params| {
                Ok(Box::new(Erased(build(params)?)) as Box<dyn Agent<G>>)
            }),
        }
    }
}

/// Agent kinds as a registry holds them: [`AgentKind`]s of any game type and
/// [`EveryGameKind`]s. [`Typed::new`] keeps those that play its game type.
pub type AnyAgentKind = Arc<dyn Any + Send + Sync>;

/// A concrete game and the agent kinds registered for its type.
pub struct Typed<G: Game> {
    game: G,
    kinds: Vec<AgentKind<G>>,
}

impl<G: Game> Typed<G> {
    /// `game`, with the kinds among `kinds` that are [`AgentKind<G>`].
    pub fn new(game: G, kinds: &[AnyAgentKind]) -> Typed<G> {
        let kinds = kinds
            .iter()
            .filter_map(|k| {
                k.downcast_ref::<AgentKind<G>>().cloned().or_else(|| {
                    k.downcast_ref::<EveryGameKind>()
                        .map(EveryGameKind::of::<G>)
                })
            })
            .collect();
        Typed { game, kinds }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The agents' specs and, for registered kinds, their factories; every
    /// registered agent is built once here so bad parameters fail before a game.
    #[allow(clippy::type_complexity)]
    pub fn agents(
        &self,
        texts: &[String],
    ) -> Result<(Vec<AgentSpec>, Vec<Option<AgentFactory<G>>>), SpecError> {
        let mut specs = Vec::new();
        let mut factories = Vec::new();
        for text in texts {
            // Text that names no kind of this game's own is read as AgentSpec reads it.
            let own = Spec::parse(text.trim()).ok().and_then(|spec| {
                let kind = self.kinds.iter().find(|k| k.name == spec.name)?;
                Some((kind, spec))
            });
            match own {
                Some((kind, spec)) => {
                    (kind.build)(&mut spec.params.clone())?;
                    let (build, params) = (kind.build.clone(), spec.params.clone());
                    let factory: AgentFactory<G> = Arc::new(move || {
                        build(&mut params.clone()).expect("built once before the run")
                    });
                    specs.push(AgentSpec {
                        label: text.trim().to_string(),
                        spec,
                    });
                    factories.push(Some(factory));
                }
                None => {
                    specs.push(AgentSpec::parse(text).map_err(|e| self.name_kinds(e))?);
                    factories.push(None);
                }
            }
        }
        Ok((specs, factories))
    }
}

impl<G: Game> Typed<G> {
    /// An unknown agent's message also names (and suggests) this game's own kinds.
    fn name_kinds(&self, e: SpecError) -> SpecError {
        match e {
            SpecError::UnknownAgent { name, hint, known } if !self.kinds.is_empty() => {
                let own: Vec<&str> = self.kinds.iter().map(|k| k.name.as_str()).collect();
                let closer = crate::error::did_you_mean(&name, own.iter().copied());
                SpecError::UnknownAgent {
                    hint: if closer.is_empty() { hint } else { closer },
                    known: format!("{}; this game's own kinds {}", known, own.join(", ")),
                    name,
                }
            }
            other => other,
        }
    }
}

impl<G: Game> DynGame for Typed<G> {
    fn spec(&self) -> String {
        self.game.spec()
    }
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn sides(&self) -> Vec<u8> {
        (0..self.game.num_players())
            .map(|p| self.game.side(p as crate::game::PlayerId))
            .collect()
    }
    fn check_agents(&self, agents: &[String]) -> Result<(), SpecError> {
        self.agents(agents).map(|_| ())
    }
    fn run(&self, agents: &[String], opts: &RunOptions) -> Result<RunOutput, RunError> {
        let (specs, factories) = self.agents(agents)?;
        arena::run_with(&self.game, &specs, &factories, opts)
    }
    fn merge(&self, dirs: &[PathBuf], out: &Path, force: bool) -> Result<Merged, RunError> {
        merge_for(&self.game, dirs, out, force)
    }
    fn ablations(&self) -> Vec<Ablation> {
        self.game.ablations()
    }
    fn play_identical(
        &self,
        agent: &str,
        range: std::ops::Range<u64>,
        seed: u64,
        duplicate: bool,
        pool: &rayon::ThreadPool,
    ) -> Result<Vec<PlayedGame>, SpecError> {
        let (specs, factories) = self.agents(&[agent.to_string()])?;
        Ok(crate::arena::identical::play_identical_with(
            &self.game,
            &specs[0],
            factories[0].clone(),
            range,
            seed,
            duplicate,
            pool,
        ))
    }
}

/// The built-in games ([`crate::games::AnyGame`]), with agent kinds for their types.
#[derive(Clone, Default)]
pub struct Builtin {
    /// Agent kinds of one's own ([`AgentKind`] of a built-in game type).
    pub kinds: Vec<AnyAgentKind>,
}

impl GameSource for Builtin {
    fn game(&self, spec: &Spec) -> Result<Box<dyn DynGame>, SpecError> {
        let game = crate::games::AnyGame::from_spec(spec)?;
        Ok(crate::with_game!(game, g => Box::new(Typed::new(g, &self.kinds)) as Box<dyn DynGame>))
    }
}

/// Merges the shard directories of one run of a built-in game into `out`:
/// the game is the one their run.json names (see [`merge_for`] for a game
/// of one's own).
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool) -> Result<Merged, RunError> {
    let Some(first) = dirs.first() else {
        return Err(merge::bad(out, "no shard directories given"));
    };
    let base = manifest::read(first).map_err(|e| merge::bad(first, e))?;
    if base.identity.agents.is_empty() {
        return Err(merge::bad(first, "run.json lists no agents"));
    }
    let game = crate::games::AnyGame::parse(&base.identity.game).map_err(|e| {
        merge::bad(
            first,
            format!("run.json names a game that cannot be built: {e}"),
        )
    })?;
    crate::with_game!(&game, g => merge::merge_game(g, dirs, base, out, force))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Decision;
    use crate::games::tictactoe::TicTacToe;

    struct First;
    impl Agent<TicTacToe> for First {
        fn act(&mut self, d: Decision<'_, TicTacToe>) -> u8 {
            d.legal[0]
        }
    }

    fn first_kind() -> AnyAgentKind {
        Arc::new(AgentKind::<TicTacToe> {
            name: "first".into(),
            build: Arc::new(|params: &mut Params| {
                params.finish("first", &[])?;
                Ok(Box::new(First) as Box<dyn Agent<TicTacToe>>)
            }),
        })
    }

    #[test]
    fn a_kind_of_ones_own_plays_a_builtin_game_by_name() {
        let source = Builtin {
            kinds: vec![first_kind()],
        };
        let game = source.game(&Spec::parse("tictactoe").unwrap()).unwrap();
        let opts = RunOptions {
            games: 4,
            ..RunOptions::default()
        };
        let out = game.run(&["first".into(), "random".into()], &opts).unwrap();
        assert_eq!(out.agents[0].agent, "first");
        assert_eq!(out.errors, 0);
        // Other game types do not see it.
        let c4 = source.game(&Spec::parse("connect4").unwrap()).unwrap();
        assert!(c4.check_agents(&["first".into(), "random".into()]).is_err());
    }

    #[test]
    fn unknown_agents_and_parameters_name_the_games_own_kinds() {
        let game = Typed::new(TicTacToe, &[first_kind()]);
        let e = game
            .check_agents(&["firts".into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("did you mean 'first'"), "{e}");
        assert!(e.contains("this game's own kinds first"), "{e}");
        let e = game.check_agents(&["first(depth=2)".into()]).unwrap_err();
        assert!(e.to_string().contains("'depth'"), "{e}");
    }
}
