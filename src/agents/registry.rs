//! Agent specs and presets: `random`, `kind(key=value,...)`, a preset name such
//! as `ismcts-1k`, or `@path/to/preset.toml`.
//!
//! A preset is a small TOML file in `agents/` naming a kind, its parameters and
//! a one-line description. The presets in `agents/` are embedded in the binary
//! so they work from any directory; `@file` reads any other preset from disk.

use std::collections::BTreeMap;

use serde::Deserialize;

use std::sync::Arc;

use super::alphabeta::AlphaBetaAgent;
use super::cfr::CfrAgent;
use super::faulty::{Fault, FaultyAgent};
use super::greedy::GreedyAgent;
use super::human::HumanAgent;
use super::mcts::SearchConfig;
use super::mcts::ismcts::IsmctsAgent;
use super::mcts::moismcts::MoIsmctsAgent;
use super::mcts::pimc::PimcAgent;
use super::mcts::uct::{MctsAgent, TreeOptions};
use super::random::RandomAgent;
use super::{Agent, AgentFactory};
use crate::error::SpecError;
use crate::eval::Eval;
use crate::game::Game;
use crate::spec::{ParamInfo, Params, Spec};

/// An agent kind for listings.
#[derive(Clone, Copy, Debug)]
pub struct AgentKindInfo {
    /// Name used in specs.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
}

/// Every agent kind, in listing order.
pub const AGENT_KINDS: &[AgentKindInfo] = &[
    AgentKindInfo {
        name: "random",
        summary: "uniformly random legal action",
        params: &[],
    },
    AgentKindInfo {
        name: "faulty",
        summary: "test aid: plays randomly, then commits a fault (to check fault containment)",
        params: &[
            ParamInfo {
                name: "fault",
                default: "panic",
                help: "panic, illegal (repeats its previous move) or slow",
            },
            ParamInfo {
                name: "after",
                default: "1",
                help: "decisions played normally before the fault",
            },
            ParamInfo {
                name: "ms",
                default: "100",
                help: "pause of the slow fault, in milliseconds",
            },
        ],
    },
    AgentKindInfo {
        name: "human",
        summary: "a person at the terminal: shows the seat's view, reads a numbered choice",
        params: &[],
    },
    AgentKindInfo {
        name: "greedy",
        summary: "one-step look-ahead: the legal action whose result the game's heuristic rates best",
        params: &[
            ParamInfo {
                name: "samples",
                default: "4",
                help: "chance samples per action when the action leads to a chance node (1-1000)",
            },
            EVAL,
        ],
    },
    AgentKindInfo {
        name: "alphabeta",
        summary: "alpha-beta minimax on the view: exact to the end (depth=0) or heuristic at a depth limit",
        params: &[ParamInfo {
            name: "depth",
            default: "0",
            help: "plies searched before the game's heuristic scores the position (0: to the end; 0-1000)",
        }],
    },
    AgentKindInfo {
        name: "cfr",
        summary: "an equilibrium of a small two-player zero-sum game (Kuhn, Leduc): CFR+ over the whole tree, solved once per process, its average strategy played at the seat's information set",
        params: &[ParamInfo {
            name: "iterations",
            default: "1000",
            help: "CFR+ iterations over the whole game tree, once per process (1-1000000)",
        }],
    },
    AgentKindInfo {
        name: "mcts",
        summary: "UCT on the seat's view (one determinization), max^n backup, open-loop chance",
        params: TREE_PARAMS,
    },
    AgentKindInfo {
        name: "pimc",
        summary: "determinized UCT: independent searches in sampled worlds, root visits summed",
        params: PIMC_PARAMS,
    },
    AgentKindInfo {
        name: "ismcts",
        summary: "single-observer information-set MCTS: one tree, a new determinization per iteration",
        params: TREE_PARAMS,
    },
    AgentKindInfo {
        name: "moismcts",
        summary: "multiple-observer information-set MCTS: one tree per seat, each following moves as that seat sees them",
        params: MO_PARAMS,
    },
];

/// Kinds that exist to test the runner, not to play: listed last, and only on request.
pub const TEST_AIDS: &[&str] = &["faulty"];

/// Parameters shared by the tree searches (read by [`SearchConfig::from_params`]).
pub const SEARCH_PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "iterations",
        default: "1000",
        help: "search iterations per decision (machine-independent budget)",
    },
    ParamInfo {
        name: "time_ms",
        default: "0",
        help: "wall-clock milliseconds per decision, at most 3600000 (an hour); when > 0 it replaces `iterations`",
    },
    ParamInfo {
        name: "cpu_ms",
        default: "0",
        help: "CPU milliseconds of the searching thread per decision (fair on a busy machine), at most 3600000; when > 0 it replaces `iterations`",
    },
    ParamInfo {
        name: "c",
        default: "1.4",
        help: "UCB exploration constant for returns in [-1, 1]",
    },
    ParamInfo {
        name: "rollout",
        default: "random",
        help: "rollout policy: random, greedy (heuristic one-step look-ahead), mast (ε-greedy on per-action mean returns) or mast-gibbs (Gibbs sampling on them)",
    },
    ParamInfo {
        name: "epsilon",
        default: "0.1",
        help: "with rollout=greedy or mast, probability of a random action instead (0-1)",
    },
    ParamInfo {
        name: "tau",
        default: "1.0",
        help: "with rollout=mast-gibbs, the Gibbs temperature (0.01-100)",
    },
    ParamInfo {
        name: "max_rollout",
        default: "0",
        help: "stop a rollout after this many actions and score it with the heuristic (0: play to the end)",
    },
    ParamInfo {
        name: "cut",
        default: "depth",
        help: "with max_rollout: depth (stop right there) or turn (play on to the next change of the seat to move, so the heuristic scores a turn's end)",
    },
    ParamInfo {
        name: "widen",
        default: "0",
        help: "progressive widening exponent α (0: off): a node visited n times has at most ⌈(n+1)^α⌉ children, best heuristic first (0-1)",
    },
    ParamInfo {
        name: "widen_k",
        default: "1",
        help: "progressive widening factor k: at most ⌈k·(n+1)^α⌉ children with widen=α (0.01-100)",
    },
    ParamInfo {
        name: "candidates",
        default: "0",
        help: "with rollout=greedy, rate only this many legal actions drawn at random per rollout step (0: all)",
    },
    ParamInfo {
        name: "bias",
        default: "0",
        help: "progressive bias weight: adds bias·h/(visits+1) to UCB, h the heuristic's value of the move (0: off)",
    },
    ParamInfo {
        name: "normalize",
        default: "false",
        help: "rescale mean returns in UCB so the returns seen in this search span [-1, 1] (for heuristics that vary in a narrow band)",
    },
    EVAL,
];

/// The evaluation of states (read by [`Eval::from_params`]).
const EVAL: ParamInfo = ParamInfo {
    name: "eval",
    default: "heuristic",
    help: "state evaluation at a rollout cut (greedy: of each result): heuristic (the game's), fitted (the game's weights fitted from self-play by `boardlab fit`), race (Hamunaptra: the heuristic plus who can end the game in the lead) or @FILE (a weights file)",
};

/// Root-parallel trees (read by [`TreeOptions::from_params`]).
const THREADS: ParamInfo = ParamInfo {
    name: "threads",
    default: "1",
    help: "independent trees searched in parallel threads, root visits summed (1-64); same decisions for a given value whatever the runner's threads",
};

/// Single-tree searches: the search parameters plus tree reuse and threads.
const TREE_PARAMS: &[ParamInfo] = &[
    SEARCH_PARAMS[0],
    SEARCH_PARAMS[1],
    SEARCH_PARAMS[2],
    SEARCH_PARAMS[3],
    SEARCH_PARAMS[4],
    SEARCH_PARAMS[5],
    SEARCH_PARAMS[6],
    SEARCH_PARAMS[7],
    SEARCH_PARAMS[8],
    SEARCH_PARAMS[9],
    SEARCH_PARAMS[10],
    SEARCH_PARAMS[11],
    SEARCH_PARAMS[12],
    SEARCH_PARAMS[13],
    SEARCH_PARAMS[14],
    ParamInfo {
        name: "reuse",
        default: "false",
        help: "keep the subtree of the new information set between decisions when the seat's own views identify it",
    },
    THREADS,
];

/// MO-ISMCTS: the search parameters plus threads.
const MO_PARAMS: &[ParamInfo] = &[
    SEARCH_PARAMS[0],
    SEARCH_PARAMS[1],
    SEARCH_PARAMS[2],
    SEARCH_PARAMS[3],
    SEARCH_PARAMS[4],
    SEARCH_PARAMS[5],
    SEARCH_PARAMS[6],
    SEARCH_PARAMS[7],
    SEARCH_PARAMS[8],
    SEARCH_PARAMS[9],
    SEARCH_PARAMS[10],
    SEARCH_PARAMS[11],
    SEARCH_PARAMS[12],
    SEARCH_PARAMS[13],
    SEARCH_PARAMS[14],
    THREADS,
];

/// PIMC's parameters: the search ones plus the number of worlds.
const PIMC_PARAMS: &[ParamInfo] = &[
    SEARCH_PARAMS[0],
    SEARCH_PARAMS[1],
    SEARCH_PARAMS[2],
    SEARCH_PARAMS[3],
    SEARCH_PARAMS[4],
    SEARCH_PARAMS[5],
    SEARCH_PARAMS[6],
    SEARCH_PARAMS[7],
    SEARCH_PARAMS[8],
    SEARCH_PARAMS[9],
    SEARCH_PARAMS[10],
    SEARCH_PARAMS[11],
    SEARCH_PARAMS[12],
    SEARCH_PARAMS[13],
    SEARCH_PARAMS[14],
    ParamInfo {
        name: "determinizations",
        default: "10",
        help: "worlds sampled from the view per decision; the budget is split evenly among them",
    },
];

/// The presets shipped in `agents/`, embedded: (name, TOML text).
pub const PRESETS: &[(&str, &str)] = &[
    ("random", include_str!("../../agents/random.toml")),
    ("greedy", include_str!("../../agents/greedy.toml")),
    ("alphabeta-8", include_str!("../../agents/alphabeta-8.toml")),
    ("mcts-1k", include_str!("../../agents/mcts-1k.toml")),
    ("mcts-10k", include_str!("../../agents/mcts-10k.toml")),
    ("pimc-1k", include_str!("../../agents/pimc-1k.toml")),
    ("ismcts-1k", include_str!("../../agents/ismcts-1k.toml")),
    ("ismcts-10k", include_str!("../../agents/ismcts-10k.toml")),
    ("pimc-10k", include_str!("../../agents/pimc-10k.toml")),
    ("mcts-1k-h20", include_str!("../../agents/mcts-1k-h20.toml")),
    ("pimc-1k-h20", include_str!("../../agents/pimc-1k-h20.toml")),
    (
        "ismcts-1k-h20",
        include_str!("../../agents/ismcts-1k-h20.toml"),
    ),
    (
        "mcts-10k-h20",
        include_str!("../../agents/mcts-10k-h20.toml"),
    ),
    (
        "pimc-10k-h20",
        include_str!("../../agents/pimc-10k-h20.toml"),
    ),
    (
        "ismcts-10k-h20",
        include_str!("../../agents/ismcts-10k-h20.toml"),
    ),
    (
        "fox-best-20ms",
        include_str!("../../agents/fox-best-20ms.toml"),
    ),
    (
        "karmaka-best-20ms",
        include_str!("../../agents/karmaka-best-20ms.toml"),
    ),
    (
        "karmox-best-20ms",
        include_str!("../../agents/karmox-best-20ms.toml"),
    ),
    (
        "hamunaptra-best-20ms",
        include_str!("../../agents/hamunaptra-best-20ms.toml"),
    ),
    (
        "fox-best-160ms",
        include_str!("../../agents/fox-best-160ms.toml"),
    ),
    (
        "karmaka-best-100ms",
        include_str!("../../agents/karmaka-best-100ms.toml"),
    ),
    (
        "karmaka-best-40ms",
        include_str!("../../agents/karmaka-best-40ms.toml"),
    ),
    (
        "karmaka-best-160ms",
        include_str!("../../agents/karmaka-best-160ms.toml"),
    ),
    (
        "karmox-best-50ms",
        include_str!("../../agents/karmox-best-50ms.toml"),
    ),
    (
        "karmox-best-cpu-50ms",
        include_str!("../../agents/karmox-best-cpu-50ms.toml"),
    ),
    (
        "karmox-best-cpu-200ms",
        include_str!("../../agents/karmox-best-cpu-200ms.toml"),
    ),
    (
        "hamunaptra-best-cpu-20ms",
        include_str!("../../agents/hamunaptra-best-cpu-20ms.toml"),
    ),
    (
        "hamunaptra-race-cpu-20ms",
        include_str!("../../agents/hamunaptra-race-cpu-20ms.toml"),
    ),
    (
        "hamunaptra-race-cpu-40ms",
        include_str!("../../agents/hamunaptra-race-cpu-40ms.toml"),
    ),
    (
        "fox-tuned-100it",
        include_str!("../../agents/fox-tuned-100it.toml"),
    ),
    ("cfr-2k", include_str!("../../agents/cfr-2k.toml")),
];

/// A preset file: a kind, its parameters and what it is for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// One line shown by `boardlab agents`.
    pub description: String,
    /// The agent kind.
    pub kind: String,
    /// Parameters of the kind.
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
}

impl Preset {
    /// Parses preset text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Preset, SpecError> {
        let fail = |why: String| SpecError::DataFile {
            path: origin.to_string(),
            why,
        };
        let preset: Preset = crate::data::parse_toml(text).map_err(fail)?;
        let is_kind = AGENT_KINDS.iter().any(|k| k.name == preset.kind);
        if !is_kind && PRESETS.iter().any(|(name, _)| *name == preset.kind) {
            let kinds: Vec<&str> = AGENT_KINDS.iter().map(|k| k.name).collect();
            return Err(fail(format!(
                "kind = '{}' names a preset, not an agent kind (kinds: {}); copy that preset's \
                 kind and parameters instead",
                preset.kind,
                kinds.join(", ")
            )));
        }
        Ok(preset)
    }

    /// The equivalent spec.
    pub fn to_spec(&self) -> Spec {
        let pairs = self.params.iter().map(|(k, v)| {
            let text = match v {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), text)
        });
        Spec {
            name: self.kind.clone(),
            params: Params::from_pairs(pairs),
        }
    }
}

/// A resolved agent: its label (as written by the user) and the kind spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// What the user wrote, used as the agent's name in results.
    pub label: String,
    /// The kind and its parameters after preset expansion.
    pub spec: Spec,
}

impl AgentSpec {
    /// Resolves a spec string, a preset name or `@file`, and checks it can be
    /// built (unknown kinds and parameters are reported here, before any game).
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        let text = text.trim();
        let spec = if let Some(path) = text.strip_prefix('@') {
            let body = crate::data::read_text(path)?;
            Preset::parse(&body, path)?.to_spec()
        } else {
            let spec = Spec::parse(text)?;
            match PRESETS.iter().find(|(name, _)| *name == spec.name) {
                Some((name, body)) if AGENT_KINDS.iter().all(|k| k.name != spec.name) => {
                    // Parameters given with a preset name override the preset's.
                    let mut expanded = Preset::parse(body, name)?.to_spec();
                    let mut merged = spec.params.clone();
                    for (k, v) in expanded.params.iter() {
                        merged.set_default(k, v);
                    }
                    expanded.params = merged;
                    expanded
                }
                _ => spec,
            }
        };
        let resolved = AgentSpec {
            label: text.to_string(),
            spec,
        };
        resolved.check()?;
        Ok(resolved)
    }

    /// Checks that the spec names a kind with valid parameters, for any game
    /// (what needs the game, such as `eval=fitted`, is checked by [`AgentSpec::build`]).
    pub fn check(&self) -> Result<(), SpecError> {
        self.factory_for::<crate::games::tictactoe::TicTacToe>(false)
            .map(|_| ())
    }

    /// Names an agent of the user's own, built by a factory given to
    /// [`crate::arena::run_with`]: `label` is its name in results and run.json.
    pub fn custom(label: &str) -> AgentSpec {
        AgentSpec {
            label: label.to_string(),
            spec: Spec {
                name: "custom".into(),
                params: Params::default(),
            },
        }
    }

    /// Checks what only the game itself can tell: that `cfr` can solve it
    /// (solving it now, once per process). Callers that hold the game call
    /// this before the first decision, so an unsuitable game is an error
    /// rather than a fault in every game.
    pub fn check_game<G: Game>(&self, game: &G) -> Result<(), SpecError> {
        if self.spec.name == "cfr" {
            CfrAgent::<G>::from_params(&mut self.spec.params.clone())?
                .prepare(game)
                .map_err(|e| SpecError::Invalid(format!("agent {}: {e}", self.label)))?;
        }
        Ok(())
    }

    /// Builds a fresh agent for game type `G`.
    pub fn build<G: Game>(&self) -> Result<Box<dyn Agent<G>>, SpecError> {
        Ok(self.factory::<G>()?())
    }

    /// Parses and checks the spec once and returns what builds a fresh agent
    /// from it, so that a run of many short games does not parse its agents'
    /// parameters again for every game.
    pub fn factory<G: Game>(&self) -> Result<AgentFactory<G>, SpecError> {
        self.factory_for::<G>(true)
    }

    /// [`AgentSpec::factory`]; `check_game`: false when `G` only stands in
    /// for any game ([`AgentSpec::check`]).
    fn factory_for<G: Game>(&self, check_game: bool) -> Result<AgentFactory<G>, SpecError> {
        let mut params = self.spec.params.clone();
        let name = self.spec.name.as_str();
        let search = |params: &mut Params| -> Result<SearchConfig, SpecError> {
            let mut cfg = SearchConfig::from_params(params)?;
            cfg.eval = Eval::from_params::<G>(params, check_game)?;
            Ok(cfg)
        };
        let factory: AgentFactory<G> = match name {
            "random" => Arc::new(|| Box::new(RandomAgent)),
            "human" => Arc::new(|| Box::new(HumanAgent)),
            "faulty" => {
                let fault = match params.choice("fault", 0, &["panic", "illegal", "slow"])? {
                    0 => Fault::Panic,
                    1 => Fault::Illegal,
                    _ => Fault::Slow(std::time::Duration::from_millis(
                        params.int("ms", 100, 0, 60_000)?,
                    )),
                };
                let after = params.int("after", 1, 0, u64::from(u32::MAX))? as u32;
                Arc::new(move || Box::new(FaultyAgent::new(fault, after)))
            }
            "greedy" => {
                let samples = params.int("samples", 4, 1, 1000)? as u32;
                let eval = Eval::from_params::<G>(&mut params, check_game)?;
                Arc::new(move || Box::new(GreedyAgent { samples, eval }))
            }
            "alphabeta" => {
                let depth = params.int("depth", 0, 0, 1000)? as u32;
                Arc::new(move || Box::new(AlphaBetaAgent::new(depth)))
            }
            "cfr" => {
                let agent = CfrAgent::<G>::from_params(&mut params)?;
                Arc::new(move || Box::new(agent.clone()))
            }
            "mcts" => {
                let (cfg, opts) = (search(&mut params)?, TreeOptions::from_params(&mut params)?);
                Arc::new(move || Box::new(MctsAgent::<G>::with_options(cfg, opts)))
            }
            "ismcts" => {
                let (cfg, opts) = (search(&mut params)?, TreeOptions::from_params(&mut params)?);
                Arc::new(move || Box::new(IsmctsAgent::<G>::with_options(cfg, opts)))
            }
            "moismcts" => {
                let cfg = search(&mut params)?;
                let threads = params.int("threads", 1, 1, 64)? as u32;
                let opts = TreeOptions {
                    reuse: false,
                    threads,
                };
                Arc::new(move || Box::new(MoIsmctsAgent::<G>::new(cfg, opts)))
            }
            "pimc" => {
                let cfg = search(&mut params)?;
                let worlds = params.int("determinizations", 10, 1, 100_000)? as u32;
                Arc::new(move || Box::new(PimcAgent::<G>::new(cfg, worlds)))
            }
            _ => {
                let kinds: Vec<&str> = AGENT_KINDS.iter().map(|k| k.name).collect();
                // A preset named like a kind (random, greedy) is listed once.
                let presets: Vec<&str> = PRESETS
                    .iter()
                    .map(|p| p.0)
                    .filter(|p| !kinds.contains(p))
                    .collect();
                return Err(SpecError::UnknownAgent {
                    name: name.to_string(),
                    hint: crate::error::did_you_mean(name, kinds.iter().chain(&presets).copied()),
                    known: format!("kinds {}; presets {}", kinds.join(", "), presets.join(", ")),
                });
            }
        };
        let allowed: Vec<&str> = AGENT_KINDS
            .iter()
            .find(|k| k.name == name)
            .map(|k| k.params.iter().map(|p| p.name).collect())
            .unwrap_or_default();
        params.finish(name, &allowed)?;
        Ok(factory)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_preset_builds() {
        for (name, body) in PRESETS {
            let preset = Preset::parse(body, name).unwrap();
            assert!(!preset.description.is_empty(), "{name} has no description");
            AgentSpec::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn every_preset_file_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("agents");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let stem = path.file_stem().unwrap().to_string_lossy().to_string();
                let body = std::fs::read_to_string(&path).unwrap();
                let embedded = PRESETS.iter().find(|p| p.0 == stem);
                assert_eq!(
                    embedded.map(|p| p.1),
                    Some(body.as_str()),
                    "agents/{stem}.toml is not in PRESETS"
                );
            }
        }
    }

    #[test]
    fn unknown_agents_and_params_are_errors() {
        let e = AgentSpec::parse("alphazero").unwrap_err().to_string();
        assert!(
            e.contains("unknown agent 'alphazero'") && e.contains("random"),
            "{e}"
        );
        let e = AgentSpec::parse("random(depth=3)").unwrap_err().to_string();
        assert!(e.contains("no parameter 'depth'"), "{e}");
        let e = AgentSpec::parse("@/nonexistent/x.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("/nonexistent/x.toml"), "{e}");
    }
}
