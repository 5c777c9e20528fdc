//! What a boardlab-style binary is built from: its games and agent kinds.
//!
//! The `boardlab` binary is `Registry::builtin().run_main()`. A crate with a
//! game of its own ships the same command line for it in a few lines:
//!
//! ```no_run
//! # use boardlab::prelude::*;
//! # use boardlab::games::tictactoe::TicTacToe;
//! fn main() -> std::process::ExitCode {
//!     boardlab::cli::Registry::builtin()
//!         .with_game(
//!             GameInfo { name: "ttt", summary: "my game", players: "2", params: &[], test_specs: &["ttt"] },
//!             TicTacToe::from_params,
//!         )
//!         .run_main()
//! }
//! ```
//!
//! Every command reaches every registered game. A game is drawn by `view`
//! through its [`Picture`] (an empty `impl Picture for MyGame {}` shows its
//! text rendering).

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;

use super::game::GameCommands;
use crate::agents::Agent;
use crate::agents::erased::AnyAgent;
use crate::error::SpecError;
use crate::game::Game;
use crate::games::{AnyGame, GAMES, GameInfo};
use crate::runtime::{AgentKind, AnyAgentKind, DynGame, EveryGameKind, GameSource, Typed};
use crate::spec::{Params, Spec};
use crate::view::Picture;

type Constructor =
    Box<dyn Fn(&Spec, &[AnyAgentKind]) -> Result<Box<dyn GameCommands>, SpecError> + Send + Sync>;

/// A registered game: its listing and how to build it from a spec.
struct Entry {
    info: GameInfo,
    builtin: bool,
    build: Constructor,
}

/// A registered agent kind, for `agents`.
pub(super) struct KindInfo {
    /// Its name in specs.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// The game type it plays, or `None` for every game.
    pub game: Option<&'static str>,
}

/// The games and agent kinds a command line knows.
pub struct Registry {
    games: Vec<Entry>,
    kinds: Vec<AnyAgentKind>,
    kind_infos: Vec<KindInfo>,
}

impl Registry {
    /// The built-in games and agents: the `boardlab` binary.
    pub fn builtin() -> Registry {
        let games = GAMES
            .iter()
            .map(|info| Entry {
                info: *info,
                builtin: true,
                build: Box::new(|spec, kinds| {
                    let game = AnyGame::from_spec(spec)?;
                    Ok(crate::with_game!(game, g => Box::new(Typed::new(g, kinds)) as Box<dyn GameCommands>))
                }),
            })
            .collect();
        Registry {
            games,
            kinds: Vec::new(),
            kind_infos: Vec::new(),
        }
    }

    /// Adds a game: `info` lists it (its `name` is its name in specs) and
    /// `from_params` builds it from a spec's parameters, calling
    /// `Params::finish` so unknown keys are errors. A name already taken
    /// replaces that game. `view` draws it through its [`Picture`].
    pub fn with_game<G: Picture>(
        mut self,
        info: GameInfo,
        from_params: impl Fn(&mut Params) -> Result<G, SpecError> + Send + Sync + 'static,
    ) -> Registry {
        self.games.retain(|e| e.info.name != info.name);
        self.games.push(Entry {
            info,
            builtin: false,
            build: Box::new(move |spec, kinds| {
                let game = from_params(&mut spec.params.clone())?;
                Ok(Box::new(Typed::new(game, kinds)))
            }),
        });
        self
    }

    /// Adds an agent kind for games of type `G`, named in agent specs as
    /// `name` or `name(key=value,...)`; `build` makes a fresh agent from the
    /// parameters for every game (calling `Params::finish`).
    pub fn with_agent<G: Game>(
        mut self,
        name: &'static str,
        summary: &'static str,
        build: impl Fn(&mut Params) -> Result<Box<dyn Agent<G>>, SpecError> + Send + Sync + 'static,
    ) -> Registry {
        let kind = AgentKind::<G> {
            name: name.to_string(),
            build: Arc::new(build),
        };
        self.kinds.push(Arc::new(kind));
        self.kind_infos.push(KindInfo {
            name,
            summary,
            game: std::any::type_name::<G>().rsplit("::").next(),
        });
        self
    }

    /// Adds an agent kind for every game, built-in or registered: `build`
    /// makes an [`AnyAgent`], which sees its seat's view as a
    /// [`Position`](crate::agents::erased::Position) of any game.
    pub fn with_any_agent(
        mut self,
        name: &'static str,
        summary: &'static str,
        build: impl Fn(&mut Params) -> Result<Box<dyn AnyAgent>, SpecError> + Send + Sync + 'static,
    ) -> Registry {
        self.kinds.push(Arc::new(EveryGameKind {
            name: name.to_string(),
            build: Arc::new(build),
        }));
        self.kind_infos.push(KindInfo {
            name,
            summary,
            game: None,
        });
        self
    }

    /// The registered games in listing order.
    pub fn games(&self) -> impl Iterator<Item = &GameInfo> {
        self.games.iter().map(|e| &e.info)
    }

    pub(super) fn kinds(&self) -> &[KindInfo] {
        &self.kind_infos
    }

    /// True when `name` is a game registered from outside the crate.
    pub(super) fn is_added(&self, name: &str) -> bool {
        self.games.iter().any(|e| e.info.name == name && !e.builtin)
    }

    /// Parses and builds a game from spec text.
    pub fn parse(&self, text: &str) -> Result<Box<dyn DynGame>, SpecError> {
        self.game(&Spec::parse(text)?)
    }

    /// A game for a subcommand, from spec text.
    pub(super) fn command_game(&self, text: &str) -> Result<Box<dyn GameCommands>, SpecError> {
        self.build(&Spec::parse(text)?)
    }

    /// Refuses an agent kind of this program's own where `command` seats
    /// only built-in kinds and presets (it sets their budgets or parameters).
    pub(super) fn builtin_agents_only<'a>(
        &self,
        command: &str,
        agents: impl IntoIterator<Item = &'a str>,
    ) -> anyhow::Result<()> {
        for text in agents {
            if let Ok(spec) = Spec::parse(text)
                && self.kind_infos.iter().any(|k| k.name == spec.name)
            {
                anyhow::bail!(
                    "{command} takes the built-in agent kinds and presets; {} is an agent kind of this program's own, which run, play, sprt, fair and ablate take",
                    spec.name
                );
            }
        }
        Ok(())
    }

    fn build(&self, spec: &Spec) -> Result<Box<dyn GameCommands>, SpecError> {
        match self.games.iter().find(|e| e.info.name == spec.name) {
            Some(e) => (e.build)(spec, &self.kinds),
            None => {
                let names = || self.games.iter().map(|e| e.info.name);
                Err(SpecError::UnknownGame {
                    name: spec.name.clone(),
                    hint: crate::error::did_you_mean(&spec.name, names()),
                    known: names().collect::<Vec<_>>().join(", "),
                })
            }
        }
    }

    /// Runs the command line on this process's arguments: the whole of a
    /// binary's `main`. Exit code 0 on success, 1 for a run stopped early,
    /// 2 for bad input with a one-line message.
    pub fn run_main(self) -> ExitCode {
        exit_cleanly_when_stdout_fails();
        self.run_args(std::env::args_os())
    }

    /// [`Registry::run_main`] on given arguments (the first is the program name).
    pub fn run_args<I, T>(&self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        match super::Cli::try_parse_from(args) {
            Ok(cli) => super::main_with(cli, self),
            // --help and --version: printed like any output, so a failed
            // write is an error (a closed pipe stays a quiet success).
            Err(e) if !e.use_stderr() => {
                match e
                    .print()
                    .and_then(|()| std::io::Write::flush(&mut std::io::stdout()))
                {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(why) if why.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                    Err(why) => {
                        eprintln!("boardlab: error: cannot write to standard output: {why}");
                        ExitCode::from(2)
                    }
                }
            }
            Err(e) => {
                // One line naming the problem; --help teaches the rest.
                let text = e.render().to_string();
                let problem: Vec<&str> = text
                    .lines()
                    .take_while(|l| !l.starts_with("Usage:"))
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
                    .collect();
                let problem = problem.join(" ");
                eprintln!(
                    "boardlab: error: {} (see boardlab --help)",
                    problem.trim_start_matches("error: ")
                );
                ExitCode::from(2)
            }
        }
    }
}

impl GameSource for Registry {
    fn game(&self, spec: &Spec) -> Result<Box<dyn DynGame>, SpecError> {
        Ok(self.build(spec)?)
    }
}

/// `println!` panics when standard output is closed or full. A closed pipe
/// (`boardlab games | head -1`) ends the program quietly, as other command-line
/// tools do; any other write failure is one line and exit code 2.
fn exit_cleanly_when_stdout_fails() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = text.strip_prefix("failed printing to stdout: ") {
            if why.contains("Broken pipe") {
                std::process::exit(0);
            }
            eprintln!("boardlab: error: cannot write to standard output: {why}");
            std::process::exit(2);
        }
        default(info);
    }));
}
