//! `boardlab fit`: fits a game's linear evaluation from self-play (see
//! [`crate::analysis::fit`]) and writes the weights file that `eval=@FILE`
//! reads, with the fit's quality on held-out games beside the heuristic's.

use anyhow::{Result, bail};

use super::{GameArg, Output, Seed, Threads, help, required};
use crate::agents::registry::AgentSpec;
use crate::analysis::fit::{Collect, accuracy, collect, fit, log_loss};
use crate::eval::LinearEval;
use crate::game::Game;
use crate::games::AnyGame;

/// Arguments of `fit`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help("game", "Game spec (a game with evaluation features, e.g. karmaka)")),
    mut_args(help("seed", "Master seed; game i plays on seed f(seed, i)")),
    mut_args(help(
        "threads",
        "Worker threads (0: one per core); the weights do not depend on it"
    )),
    mut_args(required("out")),
    mut_args(help("out", "The weights file to write (TOML)")),
    mut_args(help("force", "Replace the weights file if it exists"))
)]
pub struct FitArgs {
    /// `--game`.
    #[command(flatten)]
    pub game: GameArg,
    /// The agent playing every seat of the self-play games.
    #[arg(long)]
    pub agent: String,
    /// Self-play games (the last --holdout share of them is held out).
    #[arg(long, default_value_t = 400)]
    pub games: u64,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// Every stride-th decision of a game is recorded, from every seat's view.
    #[arg(long, default_value_t = 4)]
    pub stride: u32,
    /// Share of the games held out to measure the fit.
    #[arg(long, default_value_t = 0.25)]
    pub holdout: f64,
    /// Ridge penalty on the weights.
    #[arg(long, default_value_t = 0.001)]
    pub l2: f64,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
    /// Other weights to measure on the same held-out games, beside the new
    /// fit and the heuristic, named as an agent's `eval=` names them:
    /// `fitted` (the game's shipped weights), a weights set the game names
    /// (`boardlab agents` lists them, e.g. `race` in Hamunaptra) or a
    /// weights file written by `boardlab fit` (`@FILE` or a bare path).
    /// Printed only; the weights written do not depend on it.
    #[arg(long)]
    pub compare: Option<String>,
}

pub(super) fn run(a: FitArgs) -> Result<()> {
    if a.games < 2 || a.games > crate::cli::MAX_GAMES {
        bail!(
            "bad value '{}' for --games: expected 2 to {} (some are held out)",
            a.games,
            crate::cli::MAX_GAMES
        );
    }
    if !(a.holdout > 0.0 && a.holdout < 1.0) {
        bail!(
            "bad value '{}' for --holdout: expected a share of the games strictly between 0 and 1",
            a.holdout
        );
    }
    if a.stride == 0 {
        bail!("bad value '0' for --stride: expected 1 or more decisions between samples");
    }
    if !(a.l2.is_finite() && a.l2 >= 0.0) {
        bail!(
            "bad value '{}' for --l2: expected a penalty of 0 or more",
            a.l2
        );
    }
    let out = a.output.dir()?;
    crate::fsutil::check_new(out, a.output.force)
        .map_err(|e| anyhow::anyhow!("cannot write '{}': {e}", out.display()))?;
    let game = AnyGame::parse(&a.game.game)?;
    let agent = AgentSpec::parse(&a.agent)?;
    crate::with_game!(game, g => fit_game(&g, &agent, &a))
}

fn fit_game<G: Game>(game: &G, agent: &AgentSpec, a: &FitArgs) -> Result<()> {
    let out = a.output.dir()?;
    let c = Collect {
        games: a.games,
        seed: a.seed.seed,
        stride: a.stride,
        threads: a.threads.threads,
        progress: true,
    };
    let other = a.compare.as_deref().map(other_weights::<G>).transpose()?;
    let samples = collect(game, agent, &c)?;
    let held_out = ((a.games as f64 * a.holdout).round() as u64).clamp(1, a.games - 1);
    // Games `0..train_games` fit the weights; the rest are held out.
    let train_games = a.games - held_out;
    let mut eval = fit::<G>(&samples, train_games, a.l2)?;
    eval.fitted_on = format!(
        "boardlab fit --game '{}' --agent '{}' --games {} --seed {} --stride {} --holdout {} --l2 {}",
        game.spec(),
        agent.label,
        a.games,
        a.seed.seed,
        a.stride,
        a.holdout,
        a.l2
    );
    crate::fsutil::write_atomic(out, eval.to_toml())
        .map_err(|e| anyhow::anyhow!("cannot write '{}': {e}", out.display()))?;
    for (name, w) in eval.features.iter().zip(&eval.weights) {
        println!("{name:<16} {w:+.4}");
    }
    if let Some(q) = &eval.quality {
        println!(
            "held out: {} positions (trained on {})\nlog-loss  fitted {:.4}  heuristic {:.4}\naccuracy  fitted {:.4}  heuristic {:.4}",
            q.test_positions,
            q.train_positions,
            q.log_loss,
            q.heuristic_log_loss,
            q.accuracy,
            q.heuristic_accuracy
        );
    }
    if let (Some(name), Some(w)) = (&a.compare, &other) {
        let test: Vec<_> = samples.iter().filter(|s| s.game >= train_games).collect();
        let x: Vec<Vec<f64>> = test.iter().map(|s| s.features.clone()).collect();
        let y: Vec<f64> = test.iter().map(|s| s.outcome).collect();
        println!(
            "compared  {name}: log-loss {:.4}  accuracy {:.4} (same held-out positions)",
            log_loss(&w.weights, &x, &y),
            accuracy(&w.weights, &x, &y)
        );
    }
    println!("wrote {}", out.display());
    Ok(())
}

/// The weights named by `--compare`, as an agent's `eval=` names them:
/// `fitted` (the game's own), a weights set the game names (`boardlab
/// agents` lists them, e.g. Hamunaptra's `race`), or a file (`@FILE`, or a
/// bare path).
fn other_weights<G: Game>(name: &str) -> Result<LinearEval> {
    let named = G::named_evals().iter().find(|(n, _)| *n == name);
    let w = if name == "fitted" {
        let Some(body) = G::fitted_eval() else {
            bail!("--compare fitted: this game ships no fitted weights");
        };
        LinearEval::parse(body, "fitted")?
    } else if let Some(&(_, body)) = named {
        LinearEval::parse(body, name)?
    } else {
        let path = name.strip_prefix('@').unwrap_or(name);
        let text = crate::data::read_text(path).map_err(|e| {
            let names: Vec<&str> = G::named_evals().iter().map(|(n, _)| *n).collect();
            anyhow::anyhow!(
                "--compare {name}: {e}; expected fitted, {}or a weights file written by `boardlab fit`",
                if names.is_empty() {
                    String::new()
                } else {
                    format!("one of this game's weights sets ({}), ", names.join(", "))
                }
            )
        })?;
        LinearEval::parse(&text, path)?
    };
    w.check::<G>()?;
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::other_weights;
    use crate::games::fox::Fox;
    use crate::games::hamunaptra::Hamunaptra;

    fn weight(w: &crate::eval::LinearEval, feature: &str) -> f64 {
        let i = w.features.iter().position(|f| f == feature).unwrap();
        w.weights[i]
    }

    /// `--compare` reads a game's named weights, `fitted` and files alike,
    /// and names what it accepts when it finds none of them.
    #[test]
    fn compare_takes_named_weights_fitted_and_files() {
        let race = other_weights::<Hamunaptra>("race").unwrap();
        let fitted = other_weights::<Hamunaptra>("fitted").unwrap();
        assert!(weight(&race, "race") > 0.0);
        assert_eq!(weight(&fitted, "race"), 0.0);
        let file = "src/games/hamunaptra/race.toml";
        for name in [file.to_string(), format!("@{file}")] {
            let w = other_weights::<Hamunaptra>(&name).unwrap();
            assert_eq!(w.weights, race.weights, "{name}");
        }
        let e = other_weights::<Hamunaptra>("nosuch")
            .unwrap_err()
            .to_string();
        assert!(e.contains("one of this game's weights sets (race)"), "{e}");
        let e = other_weights::<Fox>("race").unwrap_err().to_string();
        assert!(
            e.contains("expected fitted, or a weights file") && !e.contains("weights sets"),
            "{e}"
        );
    }
}
