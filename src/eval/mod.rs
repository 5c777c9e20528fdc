//! State evaluations for the greedy agent and for the searches' rollout cuts:
//! the game's own heuristic (the default), or a linear evaluation of the
//! game's [`Evaluation::eval_features`](crate::game::Evaluation::eval_features) with weights fitted from self-play
//! outcomes ([`crate::analysis::fit`], `boardlab fit`), read from a TOML weights file.
//!
//! A fitted evaluation is a logistic model of the chance that `player`'s
//! side wins, `p = σ(w·f)`, returned as the expected return `2p − 1 =
//! tanh(w·f / 2)`: calibrated, so it spreads as widely as the outcome is
//! predictable, unlike a hand-scaled heuristic.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::error::SpecError;
use crate::game::{Game, MAX_FEATURES, PlayerId};
use crate::spec::Params;

/// Largest magnitude of a fitted value, so that a proven win or loss (±1)
/// always outranks an evaluation.
const CLAMP: f64 = 0.99;

/// Which evaluation scores a non-terminal state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Eval {
    /// The game's [`Evaluation::heuristic`](crate::game::Evaluation::heuristic).
    #[default]
    Heuristic,
    /// A fitted linear evaluation of the game's features.
    Linear(&'static LinearEval),
}

impl Eval {
    /// The value of non-terminal `state` for `player`, in [-1, 1]. Reads
    /// only `state` (for a searching agent, the determinization it was given).
    pub fn value<G: Game>(&self, game: &G, state: &G::State, player: PlayerId) -> f64 {
        match self {
            Eval::Heuristic => game.heuristic(state, player),
            Eval::Linear(w) => w.value(game, state, player),
        }
    }

    /// [`Eval::value`] for every seat in seat order (with the game's
    /// heuristic, [`Evaluation::heuristics`](crate::game::Evaluation::heuristics)).
    pub fn values<G: Game>(&self, game: &G, state: &G::State) -> crate::game::Returns {
        match self {
            Eval::Heuristic => game.heuristics(state),
            Eval::Linear(w) => (0..game.num_players())
                .map(|p| w.value(game, state, p as PlayerId))
                .collect(),
        }
    }

    /// Reads the agent parameter `eval`: `heuristic` (default), `fitted`
    /// (the game's embedded weights, [`Evaluation::fitted_eval`](crate::game::Evaluation::fitted_eval)), another name
    /// the game ships weights for ([`Evaluation::named_evals`](crate::game::Evaluation::named_evals)) or `@FILE`.
    /// `check_game`: also require the weights to fit game `G` (false when a
    /// spec is only checked for syntax, before any game is known).
    pub fn from_params<G: Game>(params: &mut Params, check_game: bool) -> Result<Eval, SpecError> {
        let Some(text) = params.text("eval") else {
            return Ok(Eval::Heuristic);
        };
        let bad = || {
            SpecError::BadValue {
            key: "eval".to_string(),
            value: text.clone(),
            expected: "heuristic, fitted (the game's fitted weights), a weights set the game names (`boardlab agents` lists them) or @FILE (a weights file written by `boardlab fit`)".to_string(),
        }
        };
        let eval = match text.as_str() {
            "heuristic" => return Ok(Eval::Heuristic),
            "fitted" => {
                if !check_game {
                    return Ok(Eval::Heuristic);
                }
                let Some(body) = G::fitted_eval() else {
                    return Err(SpecError::Invalid(
                        "eval=fitted: this game ships no fitted weights; use eval=heuristic or eval=@FILE"
                            .to_string(),
                    ));
                };
                cached(&format!("fitted:{}", std::any::type_name::<G>()), || {
                    LinearEval::parse(body, "fitted")
                })?
            }
            name if !name.starts_with('@') => {
                let named = name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
                if !named || name.is_empty() {
                    return Err(bad());
                }
                if !check_game {
                    return Ok(Eval::Heuristic);
                }
                let Some(&(_, body)) = G::named_evals().iter().find(|(n, _)| *n == name) else {
                    let names: Vec<&str> = G::named_evals().iter().map(|(n, _)| *n).collect();
                    return Err(SpecError::Invalid(format!(
                        "eval={name}: this game names no such evaluation; use heuristic, fitted, @FILE{}",
                        if names.is_empty() {
                            String::new()
                        } else {
                            format!(" or one of: {}", names.join(", "))
                        }
                    )));
                };
                cached(&format!("{name}:{}", std::any::type_name::<G>()), || {
                    LinearEval::parse(body, name)
                })?
            }
            _ => {
                let Some(path) = text.strip_prefix('@').filter(|p| !p.is_empty()) else {
                    return Err(bad());
                };
                cached(path, || {
                    LinearEval::parse(&crate::data::read_text(path)?, path)
                })?
            }
        };
        if check_game {
            eval.check::<G>()?;
        }
        Ok(Eval::Linear(eval))
    }
}

/// Every weights file loaded so far, by source: an agent is built once per
/// game, and a weights file is read once per process.
static LOADED: Mutex<Vec<(String, &'static LinearEval)>> = Mutex::new(Vec::new());

fn cached(
    key: &str,
    load: impl FnOnce() -> Result<LinearEval, SpecError>,
) -> Result<&'static LinearEval, SpecError> {
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, w)) = loaded.iter().find(|(k, _)| k == key) {
        return Ok(w);
    }
    let w: &'static LinearEval = Box::leak(Box::new(load()?));
    loaded.push((key.to_string(), w));
    Ok(w)
}

/// How well a fit predicts outcomes on held-out games.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quality {
    /// Positions the weights were fitted on.
    pub train_positions: usize,
    /// Held-out positions (from other games) the numbers below are measured on.
    pub test_positions: usize,
    /// Mean log-loss of the fitted model (nats; 0.693 is a coin flip).
    pub log_loss: f64,
    /// Share of decisive positions whose winner the model's sign names.
    pub accuracy: f64,
    /// Log-loss of the game's heuristic, its scale fitted on the same
    /// training positions (`σ(a·h)`), so the comparison is fair to it.
    pub heuristic_log_loss: f64,
    /// Share of decisive positions whose winner the heuristic's sign names.
    pub heuristic_accuracy: f64,
}

/// A linear evaluation: named features and their weights, as `boardlab fit`
/// writes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearEval {
    /// What the weights were fitted on (game, agent, games), for people.
    #[serde(default)]
    pub fitted_on: String,
    /// The game's feature names ([`Evaluation::feature_names`](crate::game::Evaluation::feature_names)), in order.
    pub features: Vec<String>,
    /// One weight per feature, on the logit scale.
    pub weights: Vec<f64>,
    /// The fit's quality, if measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality: Option<Quality>,
}

/// The largest weight a weights file may give: fitted weights are a few
/// units, and beyond this `tanh(w·f / 2)` is ±1 anyway, while weights near
/// `f64::MAX` overflow the sum to infinity or NaN.
pub const MAX_WEIGHT: f64 = 1e6;

impl LinearEval {
    /// Parses a weights file; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<LinearEval, SpecError> {
        let fail = |why: String| SpecError::DataFile {
            path: origin.to_string(),
            why,
        };
        let w: LinearEval = crate::data::parse_toml(text).map_err(fail)?;
        if w.features.len() != w.weights.len() {
            return Err(fail(format!(
                "{} features but {} weights; give one weight per feature",
                w.features.len(),
                w.weights.len()
            )));
        }
        if w.features.len() > MAX_FEATURES {
            return Err(fail(format!(
                "{} features; at most {MAX_FEATURES} are allowed",
                w.features.len()
            )));
        }
        if let Some(i) = w.weights.iter().position(|x| !x.is_finite()) {
            return Err(fail(format!(
                "the weight of '{}' is not a finite number",
                w.features[i]
            )));
        }
        if let Some(i) = w.weights.iter().position(|x| x.abs() > MAX_WEIGHT) {
            return Err(fail(format!(
                "the weight of '{}' is beyond ±{MAX_WEIGHT:e}: its sum would overflow to no evaluation at all",
                w.features[i]
            )));
        }
        Ok(w)
    }

    /// The weights file as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a weights file always serializes")
    }

    /// Requires the features to be game `G`'s, in its order.
    pub fn check<G: Game>(&self) -> Result<(), SpecError> {
        let names = G::feature_names();
        if names.is_empty() {
            return Err(SpecError::Invalid(
                "eval: this game exposes no evaluation features; use eval=heuristic".to_string(),
            ));
        }
        if self
            .features
            .iter()
            .map(String::as_str)
            .ne(names.iter().copied())
        {
            return Err(SpecError::Invalid(format!(
                "eval: the weights file's features ({}) are not this game's ({})",
                self.features.join(", "),
                names.join(", ")
            )));
        }
        Ok(())
    }

    /// `tanh(w·f / 2)` for `player`, clamped inside (-1, 1). No allocation.
    pub fn value<G: Game>(&self, game: &G, state: &G::State, player: PlayerId) -> f64 {
        let mut f = [0.0; MAX_FEATURES];
        let n = self.weights.len();
        game.eval_features(state, player, &mut f[..n]);
        let z: f64 = self.weights.iter().zip(&f[..n]).map(|(w, x)| w * x).sum();
        (z / 2.0).tanh().clamp(-CLAMP, CLAMP)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::karmaka::Karmaka;
    use crate::games::tictactoe::TicTacToe;

    #[test]
    fn malformed_weights_files_are_clear_errors() {
        let cases = [
            (
                "features = [\"a\"]\nweights = [1.0, 2.0]",
                "1 features but 2 weights",
            ),
            ("features = [\"a\"]\nweights = [nan]", "not a finite number"),
            ("features = [\"a\"]\nweights = [1.0]\nbogus = 3", "bogus"),
            (
                "features = [\"a\"\nweights = [1.0]",
                "not a valid TOML file",
            ),
            ("weights = [1.0]", "features"),
        ];
        for (text, why) in cases {
            let e = LinearEval::parse(text, "w.toml").unwrap_err().to_string();
            assert!(e.contains("w.toml") && e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn eval_parameter_parses_and_checks_the_game() {
        let parse = |v: &str, check: bool| {
            let mut p = Params::from_pairs([("eval".to_string(), v.to_string())]);
            Eval::from_params::<Karmaka>(&mut p, check)
        };
        assert_eq!(parse("heuristic", true).unwrap(), Eval::Heuristic);
        assert!(matches!(parse("fitted", true).unwrap(), Eval::Linear(_)));
        let e = parse("best", true).unwrap_err().to_string();
        assert!(
            e.contains("heuristic, fitted") && e.contains("eval=best"),
            "{e}"
        );
        let e = parse("Best!", true).unwrap_err().to_string();
        assert!(e.contains("heuristic, fitted"), "{e}");
        // A name is checked only once the game is known.
        assert_eq!(parse("best", false).unwrap(), Eval::Heuristic);
        let e = parse("@/nonexistent/w.toml", true).unwrap_err().to_string();
        assert!(e.contains("/nonexistent/w.toml"), "{e}");
        // A game without features or fitted weights says so.
        let mut p = Params::from_pairs([("eval".to_string(), "fitted".to_string())]);
        let e = Eval::from_params::<TicTacToe>(&mut p, true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no fitted weights"), "{e}");
        // Weights for other features are refused.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.toml");
        std::fs::write(&path, "features = [\"x\"]\nweights = [1.0]\n").unwrap();
        let e = parse(&format!("@{}", path.display()), true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not this game's"), "{e}");
    }

    #[test]
    fn the_embedded_karmaka_weights_load_and_value_is_antisymmetric() {
        use crate::rng::rng_from_seed;
        let mut p = Params::from_pairs([("eval".to_string(), "fitted".to_string())]);
        let eval = Eval::from_params::<Karmaka>(&mut p, true).unwrap();
        let game = Karmaka::from_params(&mut Params::default()).unwrap();
        let mut rng = rng_from_seed(3);
        let mut s = game.initial_state(&mut rng);
        let mut spread = 0.0f64;
        for _ in 0..300 {
            if game.turn(&s) == crate::game::Turn::Terminal {
                break;
            }
            let (a, b) = (eval.value(&game, &s, 0), eval.value(&game, &s, 1));
            assert!((a + b).abs() < 1e-9, "{a} {b}");
            assert!(a.abs() <= CLAMP);
            spread = spread.max(a.abs());
            let action = match game.turn(&s) {
                crate::game::Turn::Chance => game.sample_chance(&s, &mut rng),
                _ => {
                    let legal = game.legal_actions(&s);
                    legal[crate::rng::below(&mut rng, legal.len())]
                }
            };
            game.apply(&mut s, action);
        }
        assert!(spread > 0.05, "the fitted value never moved: {spread}");
    }
}
