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
pub mod cli;
pub mod data;
pub mod error;
pub mod experiment;
pub mod fsutil;
pub mod game;
pub mod games;
pub mod ladder;
pub mod provenance;
pub mod report;
pub mod rng;
pub mod spec;
pub mod stats;
pub mod tune;
pub mod verify;
