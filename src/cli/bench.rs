//! `boardlab bench`: single-thread throughput of random playouts, or of one
//! agent's search from the initial state.

use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use super::BenchArgs;
use crate::agents::Decision;
use crate::agents::registry::AgentSpec;
use crate::game::{Game, Turn, random_playout};
use crate::games::AnyGame;
use crate::rng::rng_from_seed;
use crate::with_game;

pub(super) fn bench(a: BenchArgs) -> Result<()> {
    if !(a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 3600.0) {
        bail!(
            "bad value '{}' for --seconds: expected a number of seconds from 0 to 3600",
            a.seconds
        );
    }
    let game = AnyGame::parse(&a.game)?;
    let limit = Duration::from_secs_f64(a.seconds);
    let json = match &a.agent {
        None => with_game!(&game, g => playouts(g, limit)),
        Some(agent) => {
            let spec = AgentSpec::parse(agent)?;
            with_game!(&game, g => search(g, &spec, limit))?
        }
    };
    if a.json {
        println!("{json}");
    } else {
        for (k, v) in json.as_object().into_iter().flatten() {
            println!("{k:<16} {v}");
        }
    }
    Ok(())
}

/// CPU time of this thread in seconds (Linux), to report rates that ignore the
/// time the process was descheduled on a busy machine.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Adds `cpu_seconds` and per-CPU-second rates to a bench result.
fn with_cpu_rates(
    mut v: serde_json::Value,
    cpu_start: Option<f64>,
    counts: &[(&str, u64)],
) -> serde_json::Value {
    if let (Some(start), Some(end)) = (cpu_start, thread_cpu_seconds()) {
        let cpu = (end - start).max(1e-9);
        v["cpu_seconds"] = serde_json::json!(cpu);
        for (name, count) in counts {
            v[format!("{name}_per_cpu_s")] = serde_json::json!(*count as f64 / cpu);
        }
    }
    v
}

fn playouts<G: Game>(game: &G, limit: Duration) -> serde_json::Value {
    let mut rng = rng_from_seed(1);
    let (mut games, mut actions) = (0u64, 0u64);
    let cpu_start = thread_cpu_seconds();
    let start = Instant::now();
    while start.elapsed() < limit {
        for _ in 0..16 {
            let mut s = game.initial_state(&mut rng);
            actions += u64::from(random_playout(
                game,
                &mut s,
                &mut rng,
                game.max_game_length(),
            ));
            games += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let v = serde_json::json!({
        "game": game.spec(),
        "seconds": secs,
        "games": games,
        "actions": actions,
        "games_per_s": games as f64 / secs,
        "actions_per_s": actions as f64 / secs,
    });
    with_cpu_rates(v, cpu_start, &[("games", games), ("actions", actions)])
}

fn search<G: Game>(game: &G, spec: &AgentSpec, limit: Duration) -> Result<serde_json::Value> {
    let mut rng = rng_from_seed(1);
    let mut state = game.initial_state(&mut rng);
    while game.turn(&state) == Turn::Chance {
        let a = game.sample_chance(&state, &mut rng);
        game.apply(&mut state, a);
    }
    let Turn::Player(me) = game.turn(&state) else {
        bail!("{} has no decision at its start", game.spec());
    };
    let legal = game.legal_actions(&state);
    let mut agent = spec.build::<G>()?;
    let (mut searches, mut iterations) = (0u64, 0u64);
    let cpu_start = thread_cpu_seconds();
    let start = Instant::now();
    crate::arena::play::quiet_contained_panics();
    while start.elapsed() < limit {
        let view = game.determinize(&state, me, &mut rng);
        // An agent that panics is reported as the fault it is, in one line.
        let searched = crate::arena::play::contained(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                agent.act(Decision {
                    game,
                    me,
                    view: &view,
                    legal: &legal,
                    rng: &mut rng,
                })
            }))
        });
        if let Err(panic) = searched {
            bail!(
                "agent '{}' crashed: {}",
                spec.label,
                crate::arena::play::panic_text(&*panic)
            );
        }
        iterations += agent.last_iterations();
        searches += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    if iterations == 0 {
        bail!(
            "agent '{}' does not search (no iterations to measure)",
            spec.label
        );
    }
    let v = serde_json::json!({
        "game": game.spec(),
        "agent": spec.label,
        "seconds": secs,
        "searches": searches,
        "iterations": iterations,
        "iterations_per_s": iterations as f64 / secs,
    });
    Ok(with_cpu_rates(v, cpu_start, &[("iterations", iterations)]))
}
