//! A game and an agent of your own through boardlab's tournament runner:
//! the perfect Nim player against random play, 200 games with seats rotated,
//! results as CSV in a folder (default `nim-results/`, or the first argument).
//!
//! Run with `cargo run --release --example nim -- /tmp/nim`.

mod game;

use std::sync::Arc;

use boardlab::prelude::*;
use game::{Nim, PerfectNim};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "nim-results".into());
    let nim = Nim::from_params(&mut Spec::parse("nim(piles=3-5-7)")?.params)?;
    // Built-in agents are named by spec; an agent of your own is a factory
    // that builds it afresh for every game, and a label for the results.
    let specs = [
        AgentSpec::custom("perfect-nim"),
        AgentSpec::parse("random")?,
    ];
    let perfect: AgentFactory<Nim> = Arc::new(|| Box::new(PerfectNim));
    let opts = RunOptions {
        games: 200,
        seed: 1,
        out: Some(out.clone().into()),
        force: true,
        command: "cargo run --example nim".into(),
        ..RunOptions::default()
    };
    let result = run_with(&nim, &specs, &[Some(perfect), None], &opts)?;
    for a in &result.agents {
        println!(
            "{:<12} win rate {:.3} [{:.3}, {:.3}] over {} games",
            a.agent, a.tally.win_rate, a.tally.ci_low, a.tally.ci_high, a.tally.games
        );
    }
    println!("games.csv, summary.csv and seats.csv are in {out}/");
    Ok(())
}
