//! What a crate that adds its own game or agent needs, in one import:
//! `use boardlab::prelude::*;` (see `examples/nim/` and docs/extending.md).
//!
//! ```
//! use boardlab::prelude::*;
//! use boardlab::games::tictactoe::TicTacToe;
//!
//! // Every game and agent goes through the same runner.
//! let specs = [AgentSpec::parse("greedy")?, AgentSpec::parse("random")?];
//! let out = run(&TicTacToe, &specs, &RunOptions { games: 20, ..RunOptions::default() })?;
//! assert_eq!(out.games, 20);
//! assert_eq!(out.agents[0].tally.games, 20);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::agents::registry::AgentSpec;
pub use crate::agents::{Agent, Budget, Decision};
pub use crate::arena::{AgentFactory, RunOptions, RunOutput, run, run_with};
pub use crate::error::SpecError;
pub use crate::game::{Evaluation, Game, PlayerId, Reporting, Returns, Rules, Turn};
pub use crate::games::GameInfo;
pub use crate::rng::GameRng;
pub use crate::spec::{ParamInfo, Params, Spec};
pub use crate::view::Picture;
pub use arrayvec::ArrayVec;
pub use serde::{Deserialize, Serialize};
