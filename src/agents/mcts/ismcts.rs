//! `ismcts`: single-observer information-set MCTS (Cowling, Powley & Whitehouse
//! 2012). One tree whose nodes are keyed by action (open loop); each iteration
//! redeterminizes the view for the searching seat, descends only through
//! actions legal in that determinization, and scores children with UCB using
//! availability counts (a child's "parent visits" are the iterations in which it
//! was legal). Backup is max^n, as in every search here.

use super::Sampling;
use super::uct::{SamplingMode, SingleTreeAgent};

/// Every iteration redeterminizes the view for the searching seat.
#[derive(Clone, Copy, Debug)]
pub struct Redeterminized;

impl SamplingMode for Redeterminized {
    const SAMPLING: Sampling = Sampling::Redeterminize;
}

/// SO-ISMCTS agent: the single-tree search, redeterminizing every iteration.
pub type IsmctsAgent<G> = SingleTreeAgent<G, Redeterminized>;
