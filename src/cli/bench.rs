//! `boardlab bench`: single-thread throughput of random playouts, or of one
//! agent's search from the initial state.

use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use super::{GameArg, Registry};
use crate::agents::Decision;
use crate::agents::registry::AgentSpec;
use crate::game::{Game, Turn, random_playout};
use crate::rng::rng_from_seed;

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// Measure this agent's search from the initial state instead of random playouts.
    #[arg(long)]
    pub agent: Option<String>,
    /// Measuring time in seconds, shared by the samples (a warm-up of a tenth
    /// of it, at most 1 s, comes first and is not counted).
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Samples of equal length: rates are reported as mean ± σ, min and max.
    #[arg(long, default_value_t = 5)]
    pub samples: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub(super) fn bench(a: BenchArgs, registry: &Registry) -> Result<()> {
    if !(a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 3600.0) {
        bail!(
            "bad value '{}' for --seconds: expected a number of seconds from 0 to 3600",
            a.seconds
        );
    }
    if !(1..=1000).contains(&a.samples) {
        bail!(
            "bad value '{}' for --samples: expected a number of samples from 1 to 1000",
            a.samples
        );
    }
    let game = registry.command_game(&a.game.game)?;
    let plan = Plan {
        warmup: Duration::from_secs_f64((a.seconds / 10.0).min(1.0)),
        sample: Duration::from_secs_f64(a.seconds / f64::from(a.samples)),
        samples: a.samples,
    };
    let agent = match &a.agent {
        None => None,
        Some(agent) => {
            registry.builtin_agents_only("bench", [agent.as_str()])?;
            Some(AgentSpec::parse(agent)?)
        }
    };
    let json = game.bench(agent.as_ref(), &plan)?;
    if a.json {
        println!("{json}");
    } else {
        print_table(&json);
    }
    Ok(())
}

/// hyperfine's conventions: a warm-up that is not counted, then several
/// samples of equal length, reported as mean ± σ with the extremes.
pub(super) struct Plan {
    warmup: Duration,
    sample: Duration,
    samples: u32,
}

/// Counts and times of one sample.
#[derive(Clone, Copy, Default)]
struct Sample {
    counts: [u64; 2],
    wall: f64,
    cpu: Option<f64>,
}

impl Plan {
    /// Runs `work` (which does a small batch and returns what it counted)
    /// for the warm-up, then for each sample.
    fn measure(&self, mut work: impl FnMut() -> Result<[u64; 2]>) -> Result<Vec<Sample>> {
        let start = Instant::now();
        while start.elapsed() < self.warmup {
            work()?;
        }
        let mut samples = Vec::new();
        for _ in 0..self.samples {
            let cpu_start = thread_cpu_seconds();
            let start = Instant::now();
            let mut counts = [0u64; 2];
            while start.elapsed() < self.sample {
                let c = work()?;
                counts[0] += c[0];
                counts[1] += c[1];
            }
            let wall = start.elapsed().as_secs_f64();
            let cpu = thread_cpu_seconds()
                .zip(cpu_start)
                .map(|(end, start)| (end - start).max(1e-9));
            samples.push(Sample { counts, wall, cpu });
        }
        Ok(samples)
    }
}

/// Mean, standard deviation, minimum and maximum.
fn spread(xs: &[f64]) -> [f64; 4] {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    [mean, var.sqrt(), min, max]
}

/// The bench's JSON: totals, and for each counted unit its rate per second
/// of wall time and of this thread's CPU time, as mean over samples with
/// `_sd`, `_min` and `_max`. `<unit>_per_s` is the mean wall-time rate.
fn summary(mut v: serde_json::Value, units: [&str; 2], samples: &[Sample]) -> serde_json::Value {
    v["samples"] = serde_json::json!(samples.len());
    v["seconds"] = serde_json::json!(samples.iter().map(|s| s.wall).sum::<f64>());
    for (i, unit) in units.iter().enumerate() {
        v[*unit] = serde_json::json!(samples.iter().map(|s| s.counts[i]).sum::<u64>());
        let wall: Vec<f64> = samples
            .iter()
            .map(|s| s.counts[i] as f64 / s.wall)
            .collect();
        let cpu: Option<Vec<f64>> = samples
            .iter()
            .map(|s| s.cpu.map(|c| s.counts[i] as f64 / c))
            .collect();
        for (kind, rates) in [("per_s", Some(wall)), ("per_cpu_s", cpu)] {
            let Some(rates) = rates else { continue };
            let [mean, sd, min, max] = spread(&rates);
            let key = format!("{unit}_{kind}");
            v[key.as_str()] = serde_json::json!(mean);
            v[format!("{key}_sd")] = serde_json::json!(sd);
            v[format!("{key}_min")] = serde_json::json!(min);
            v[format!("{key}_max")] = serde_json::json!(max);
        }
    }
    if let Some(cpu) = samples.iter().map(|s| s.cpu).sum::<Option<f64>>() {
        v["cpu_seconds"] = serde_json::json!(cpu);
    }
    v
}

fn print_table(v: &serde_json::Value) {
    let what = match v.get("agent") {
        Some(agent) => format!("{} searching {}", agent.as_str().unwrap_or("?"), v["game"]),
        None => format!("random playouts of {}", v["game"]),
    };
    println!(
        "{what}: {} samples, {:.2} s, one thread",
        v["samples"],
        v["seconds"].as_f64().unwrap_or(0.0)
    );
    let mut t = super::listing::table(&["rate", "mean ± σ", "min", "max"]);
    for unit in ["games", "actions", "searches", "iterations"] {
        for (kind, label) in [("per_s", "wall"), ("per_cpu_s", "CPU")] {
            let key = format!("{unit}_{kind}");
            let Some(mean) = v.get(&key).and_then(|x| x.as_f64()) else {
                continue;
            };
            let get = |suffix: &str| v[format!("{key}_{suffix}")].as_f64().unwrap_or(0.0);
            t.add_row(vec![
                format!("{unit} per {label} second"),
                format!("{} ± {}", rate(mean), rate(get("sd"))),
                rate(get("min")),
                rate(get("max")),
            ]);
        }
    }
    println!("{t}");
}

/// A rate with three significant digits.
fn rate(x: f64) -> String {
    if x >= 1000.0 {
        format!("{:.0}", x)
    } else {
        format!("{x:.3}")
    }
}

/// CPU time of this thread in seconds, to report rates that ignore the time
/// the process was descheduled on a busy machine (the clock the searches'
/// `cpu_ms` budgets read: a system call, no file of the machine's read).
fn thread_cpu_seconds() -> Option<f64> {
    crate::agents::mcts::clock::thread_cpu().map(|t| t.as_secs_f64())
}

pub(super) fn playouts<G: Game>(game: &G, plan: &Plan) -> serde_json::Value {
    let mut rng = rng_from_seed(1);
    let samples = plan
        .measure(|| {
            let mut actions = 0;
            for _ in 0..16 {
                let mut s = game.initial_state(&mut rng);
                actions += u64::from(random_playout(
                    game,
                    &mut s,
                    &mut rng,
                    game.max_game_length(),
                ));
            }
            Ok([16, actions])
        })
        .expect("random playouts cannot fail");
    summary(
        serde_json::json!({"game": game.spec()}),
        ["games", "actions"],
        &samples,
    )
}

pub(super) fn search<G: Game>(
    game: &G,
    spec: &AgentSpec,
    plan: &Plan,
) -> Result<serde_json::Value> {
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
    spec.check_game(game)?;
    let mut agent = spec.build::<G>()?;
    crate::arena::play::quiet_contained_panics();
    let samples = plan.measure(|| {
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
                    deadline: None,
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
        Ok([1, agent.last_iterations()])
    })?;
    if samples.iter().all(|s| s.counts[1] == 0) {
        bail!(
            "agent '{}' does not search (no iterations to measure)",
            spec.label
        );
    }
    Ok(summary(
        serde_json::json!({"game": game.spec(), "agent": spec.label}),
        ["searches", "iterations"],
        &samples,
    ))
}
