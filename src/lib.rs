//! boardlab: self-play and strategy research on modern tabletop games.
//!
//! See ARCHITECTURE.md for the map of the code. The core contract is
//! [`game::Game`]; agents implement [`agents::Agent`]; the tournament runner is
//! [`arena`].
#![deny(missing_docs)]

pub mod agents;
pub mod analysis;
pub mod arena;
pub mod balance;
#[cfg(feature = "cli")]
pub mod cli;
pub mod data;
pub mod design;
pub mod error;
pub mod eval;
pub mod experiment;
pub mod files;
pub mod fsutil;
pub mod game;
pub mod games;
pub mod ladder;
pub mod metagame;
pub mod prelude;
pub mod provenance;
pub mod report;
pub mod rng;
pub mod runtime;
pub mod spec;
pub mod stats;
pub mod tree;
pub mod tune;
pub mod verify;
pub mod view;

/// Re-exported for implementors: `ArrayVec` is the legal-action list of
/// every game, and `serde`'s derives make states and actions serializable
/// (`#[serde(crate = "boardlab::serde")]` spares a dependency of your own).
pub use arrayvec;
pub use serde;
