//! Games chosen at run time, behind one object.
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
use crate::agents::registry::AgentSpec;
use crate::arena::merge::{Merged, merge_for};
use crate::arena::{self, AgentFactory, RunError, RunOptions, RunOutput};
use crate::error::SpecError;
use crate::game::Game;
use crate::spec::{Params, Spec};

/// What a program that chose its game at run time does with it.
pub trait DynGame: Send + Sync {
    /// The canonical spec.
    fn spec(&self) -> String;
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Checks agent texts as [`DynGame::run`] reads them, one per seat or fewer.
    fn check_agents(&self, agents: &[String]) -> Result<(), SpecError>;
    /// [`arena::run_with`] with agents named by text, one per seat: built-in
    /// kinds, presets and `@file`, or an agent kind registered for this game.
    fn run(&self, agents: &[String], opts: &RunOptions) -> Result<RunOutput, RunError>;
    /// [`merge_for`]: the shard directories of one run of this game.
    fn merge(&self, dirs: &[PathBuf], out: &Path, force: bool) -> Result<Merged, RunError>;
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

/// Agent kinds of any game type, as a registry holds them: [`Typed::new`]
/// keeps those of its own game type.
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
            .filter_map(|k| k.downcast_ref::<AgentKind<G>>().cloned())
            .collect();
        Typed { game, kinds }
    }

    /// The agents' specs and, for registered kinds, their factories; every
    /// registered agent is built once here so bad parameters fail before a game.
    #[allow(clippy::type_complexity)]
    fn agents(
        &self,
        texts: &[String],
    ) -> Result<(Vec<AgentSpec>, Vec<Option<AgentFactory<G>>>), SpecError> {
        let mut specs = Vec::new();
        let mut factories = Vec::new();
        for text in texts {
            let spec = Spec::parse(text.trim())?;
            match self.kinds.iter().find(|k| k.name == spec.name) {
                Some(kind) => {
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
}

/// The built-in games ([`super::AnyGame`]), with agent kinds for their types.
#[derive(Clone, Default)]
pub struct Builtin {
    /// Agent kinds of one's own ([`AgentKind`] of a built-in game type).
    pub kinds: Vec<AnyAgentKind>,
}

impl GameSource for Builtin {
    fn game(&self, spec: &Spec) -> Result<Box<dyn DynGame>, SpecError> {
        let game = super::AnyGame::from_spec(spec)?;
        Ok(crate::with_game!(game, g => Box::new(Typed::new(g, &self.kinds)) as Box<dyn DynGame>))
    }
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
