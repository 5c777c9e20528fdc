//! A deliberately faulty agent, to test that the runner contains faults: one
//! bad agent forfeits its game and the tournament goes on.

use std::time::Duration;

use super::{Agent, Decision};
use crate::game::Game;

/// Which fault to commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Panic.
    Panic,
    /// Repeat the previous move (illegal in games such as tic-tac-toe).
    Illegal,
    /// Sleep before answering.
    Slow(Duration),
}

/// Plays randomly until decision number `after`, then commits its fault
/// there and at every later decision.
#[derive(Debug)]
pub struct FaultyAgent<A> {
    fault: Fault,
    after: u32,
    decisions: u32,
    previous: Option<A>,
}

impl<A> FaultyAgent<A> {
    /// A new agent.
    pub fn new(fault: Fault, after: u32) -> Self {
        FaultyAgent {
            fault,
            after,
            decisions: 0,
            previous: None,
        }
    }
}

impl<G: Game> Agent<G> for FaultyAgent<G::Action> {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        self.decisions += 1;
        let random = d.legal[crate::rng::below(d.rng, d.legal.len())];
        if self.decisions <= self.after {
            self.previous = Some(random);
            return random;
        }
        match self.fault {
            Fault::Panic => panic!("faulty agent panics on purpose"),
            Fault::Illegal => self.previous.unwrap_or(random),
            Fault::Slow(pause) => {
                std::thread::sleep(pause);
                random
            }
        }
    }
}
