//! What a crate that adds its own game or agent needs, in one import:
//! `use boardlab::prelude::*;` (see `examples/nim/` and docs/extending.md).

pub use crate::agents::registry::AgentSpec;
pub use crate::agents::{Agent, Budget, Decision};
pub use crate::arena::{AgentFactory, RunOptions, RunOutput, run, run_with};
pub use crate::game::{Game, PlayerId, Returns, Turn};
pub use crate::rng::GameRng;
pub use arrayvec::ArrayVec;
pub use serde::{Deserialize, Serialize};
