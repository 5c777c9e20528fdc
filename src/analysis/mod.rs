//! Exact analyses of small games: whole-tree computations that check agents
//! against known answers.

pub mod cfr;
pub mod exploitability;
pub mod quality;
