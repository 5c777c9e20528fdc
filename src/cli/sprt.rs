//! `boardlab sprt`: is agent A stronger than agent B by at least `elo1`, or
//! not stronger than `elo0`? Plays game pairs (one seed, seats swapped, so the
//! deal and the seat advantage cancel within a pair) in batches until the
//! sequential probability ratio test decides.

use std::process::ExitCode;

use anyhow::{Result, bail};
use rayon::prelude::*;

use super::{GameArg, Registry, Seed, Threads, help};
use crate::agents::Agent;
use crate::agents::registry::AgentSpec;
use crate::arena::{AgentFactory, play};
use crate::game::{Game, Outcome};
use crate::rng::game_seed;
use crate::spec::split_list;
use crate::stats::sprt::{self, Decision};

/// Arguments of `sprt`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help("game", "Game spec of a two-player game")),
    mut_args(help("seed", "Master seed; pair k plays both its games on seed f(seed, k)"))
)]
pub struct SprtArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// The two agents, A,B: the test is on A's Elo over B.
    #[arg(long)]
    pub agents: String,
    /// Elo difference of H0.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo difference of H1 (greater than elo0).
    #[arg(long, allow_negative_numbers = true)]
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// Stop without a decision after this many games.
    #[arg(long, default_value_t = 100_000)]
    pub max_games: u64,
    /// Game pairs per batch; the test is checked (and a line printed) after each batch, from 10 pairs on.
    #[arg(long, default_value_t = 20)]
    pub batch: u64,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// Print the result as one JSON object (the progress lines go to standard error; an
    /// infinite Elo bound, as after a clean sweep, is null).
    #[arg(long)]
    pub json: bool,
}

pub(super) fn sprt(a: SprtArgs, registry: &Registry) -> Result<ExitCode> {
    play::quiet_contained_panics();
    if !(a.alpha > 0.0 && a.alpha < 0.5 && a.beta > 0.0 && a.beta < 0.5) {
        bail!("--alpha and --beta must lie strictly between 0 and 0.5");
    }
    if !a.elo0.is_finite() || !a.elo1.is_finite() {
        bail!(
            "--elo0 ({}) and --elo1 ({}) must be finite Elo differences",
            a.elo0,
            a.elo1
        );
    }
    if a.max_games < 2 * MIN_PAIRS || a.max_games > crate::cli::MAX_GAMES {
        bail!(
            "--max-games must be from {} (the test decides only after {MIN_PAIRS} game pairs) to {}; {} given",
            2 * MIN_PAIRS,
            crate::cli::MAX_GAMES,
            a.max_games
        );
    }
    if a.elo1 <= a.elo0 {
        bail!(
            "--elo1 ({}) must be greater than --elo0 ({})",
            a.elo1,
            a.elo0
        );
    }
    if a.batch == 0 {
        bail!("--batch must be at least 1");
    }
    let game = registry.command_game(&a.game.game)?;
    let agents = split_list(&a.agents)?;
    game.check_agents(&agents)?;
    if agents.len() != 2 {
        bail!(
            "sprt compares exactly two agents (A,B); {} given",
            agents.len()
        );
    }
    game.sprt(&agents, &a)
}

/// Plays one game with `seating[s]` (an index into `specs`) in seat `s` and
/// returns the outcome of agent A (index 0). A game that panics is a draw.
fn play_one<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    seating: [usize; 2],
    seed: u64,
) -> Outcome {
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::with_capacity(2);
    for &i in &seating {
        if let Some(make) = &factories[i] {
            agents.push(make());
            continue;
        }
        match specs[i].build::<G>() {
            Ok(agent) => agents.push(agent),
            Err(e) => unreachable!("agent specs are validated before playing: {e}"),
        }
    }
    let played = play::contained(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            play::play_game(game, &mut agents, seed, None, &mut |_, _, _| {})
        }))
    });
    let seat_of_a = if seating[0] == 0 { 0 } else { 1 };
    match played {
        Ok(r) => r.seats[seat_of_a].outcome,
        Err(_) => Outcome::Draw,
    }
}

/// Pairs played before the test may stop: with fewer, an empty category of
/// results is common and its regularized variance makes the normal
/// approximation of the LLR far too confident.
const MIN_PAIRS: u64 = 10;

pub(super) fn run<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    a: &SprtArgs,
) -> Result<ExitCode> {
    if game.num_players() != 2 {
        bail!(
            "sprt needs a two-player game; {} has {} players",
            game.spec(),
            game.num_players()
        );
    }
    for (s, f) in specs.iter().zip(factories) {
        if f.is_none() {
            s.build::<G>()?;
            s.check_game(game)?;
        }
    }
    let pool = crate::arena::pool(a.threads.threads).map_err(anyhow::Error::msg)?;
    let (lower, upper) = sprt::bounds(a.alpha, a.beta);
    let max_pairs = a.max_games.div_ceil(2).max(1);
    // With --json, standard output holds only the result object.
    let say = |line: String| {
        if a.json {
            eprintln!("{line}")
        } else {
            println!("{line}")
        }
    };
    say(format!(
        "{}: {} (A) against {} (B); H0 elo <= {}, H1 elo >= {}; alpha {}, beta {}; seed {}",
        game.spec(),
        specs[0].label,
        specs[1].label,
        a.elo0,
        a.elo1,
        a.alpha,
        a.beta,
        a.seed.seed
    ));
    // pairs[k]: pairs in which A scored k half-points over the two games.
    let mut pairs = [0u64; 5];
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    let mut done = 0u64;
    let mut decision = Decision::Continue;
    let mut last_llr = 0.0;
    while done < max_pairs && decision == Decision::Continue {
        let end = (done + a.batch).min(max_pairs);
        let batch: Vec<[Outcome; 2]> = pool.install(|| {
            (done..end)
                .into_par_iter()
                .map(|p| {
                    let seed = game_seed(a.seed.seed, p);
                    [
                        play_one(game, specs, factories, [0, 1], seed),
                        play_one(game, specs, factories, [1, 0], seed),
                    ]
                })
                .collect()
        });
        for outcomes in &batch {
            pairs[outcomes.iter().map(|&o| o.half_points()).sum::<u64>() as usize] += 1;
            for &o in outcomes {
                match o {
                    Outcome::Win => wins += 1,
                    Outcome::Draw => draws += 1,
                    Outcome::Loss => losses += 1,
                }
            }
        }
        done = end;
        let llr = sprt::llr_pentanomial(pairs, a.elo0, a.elo1);
        if done >= MIN_PAIRS {
            decision = sprt::decide(llr, a.alpha, a.beta);
        }
        last_llr = llr;
        say(format!(
            "games {:>7}  W {wins} D {draws} L {losses}  LLR {llr:+.3}  bounds [{lower:.3}, {upper:.3}]",
            2 * done
        ));
    }
    let verdict = match decision {
        Decision::AcceptH1 => format!(
            "H1 accepted: A is stronger than B by {} Elo or more",
            a.elo1
        ),
        Decision::AcceptH0 => format!(
            "H0 accepted: A is not stronger than B by more than {} Elo",
            a.elo0
        ),
        Decision::Continue => format!("no decision after {} games (--max-games)", 2 * done),
    };
    let code = if decision == Decision::Continue {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    let elo = sprt::pentanomial_elo(pairs);
    if a.json {
        let decision = match decision {
            Decision::AcceptH1 => Some("H1"),
            Decision::AcceptH0 => Some("H0"),
            Decision::Continue => None,
        };
        let summary = serde_json::json!({
            "game": game.spec(), "a": specs[0].label, "b": specs[1].label,
            "elo0": a.elo0, "elo1": a.elo1, "alpha": a.alpha, "beta": a.beta, "seed": a.seed.seed,
            "games": 2 * done, "wins": wins, "draws": draws, "losses": losses,
            "pairs": pairs, "llr": last_llr, "lower": lower, "upper": upper,
            "decision": decision, "verdict": verdict,
            "elo": elo.map(|(elo, low, high)| serde_json::json!({"estimate": elo, "low": low, "high": high})),
        });
        println!("{summary}");
        return Ok(code);
    }
    println!("{verdict}");
    println!(
        "A: {wins} wins, {draws} draws, {losses} losses; pairs (0, 1/2, 1, 3/2, 2 points): {}",
        pairs.map(|c| c.to_string()).join(" ")
    );
    if let Some((elo, lo, hi)) = elo {
        println!("Elo of A over B: {elo:+.1} [{lo:+.1}, {hi:+.1}] (95 %)");
    }
    Ok(code)
}
