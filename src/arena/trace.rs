//! Game traces: one JSON-lines file per game — a header (game spec, agents,
//! seed), one line per action (chance outcomes included), a result line.
//! `boardlab replay` re-simulates a trace exactly from these, `boardlab view`
//! draws them. With `run --trace-search`, each search agent's decision line
//! also holds the root's candidates ([`Recorder`]).

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::play::{GameResult, Step};
use crate::agents::{Agent, Decision, RootStat};
use crate::game::Game;

/// The first line of a trace.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Header {
    /// Canonical game spec.
    pub game: String,
    /// Agent per seat.
    pub agents: Vec<String>,
    /// The game's seed.
    pub seed: u64,
    /// Index in its run.
    pub game_index: u64,
}

/// One action line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ActionLine<A> {
    /// Step number from 0.
    pub step: u32,
    /// Acting seat, or null for chance.
    pub player: Option<u8>,
    /// The action.
    pub action: A,
    /// Human label.
    pub label: String,
    /// The deciding search's root candidates (`run --trace-search`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<Vec<RootStat<A>>>,
}

/// The last line.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ResultLine {
    /// Outcome per seat.
    pub outcomes: Vec<String>,
    /// Returns per seat.
    pub returns: Vec<f64>,
    /// Truncated at the cap.
    pub truncated: bool,
    /// The rule that ended the game (empty in traces written before it was recorded).
    #[serde(default)]
    pub ending: String,
    /// Rounds played, for games that count rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
}

/// Writes a trace file (afresh: a link planted at `path` is replaced, not followed).
pub fn write<G: Game>(
    game: &G,
    path: &Path,
    header: &Header,
    log: &[Step<G::Action>],
    result: &GameResult,
) -> std::io::Result<()> {
    write_with_search(game, path, header, log, &[], result)
}

/// [`write()`] with the search candidates of each step (`search[i]` for step
/// `i`; missing entries are steps without).
pub fn write_with_search<G: Game>(
    game: &G,
    path: &Path,
    header: &Header,
    log: &[Step<G::Action>],
    search: &[Option<Vec<RootStat<G::Action>>>],
    result: &GameResult,
) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::new(crate::fsutil::create(path)?);
    writeln!(w, "{}", serde_json::to_string(header)?)?;
    let mut rng = crate::rng::stream_rng(header.seed, crate::rng::Stream::Game);
    let mut state = game.initial_state(&mut rng);
    for (i, s) in log.iter().enumerate() {
        let line = ActionLine {
            step: i as u32,
            player: s.player,
            action: s.action,
            label: game.action_label(&state, s.action),
            search: search.get(i).cloned().flatten(),
        };
        writeln!(w, "{}", serde_json::to_string(&line)?)?;
        game.apply(&mut state, s.action);
    }
    let result = ResultLine {
        outcomes: result
            .seats
            .iter()
            .map(|s| s.outcome.as_str().to_string())
            .collect(),
        returns: result.seats.iter().map(|s| s.ret).collect(),
        truncated: result.truncated,
        ending: result.ending.to_string(),
        rounds: result.rounds,
    };
    writeln!(w, "{}", serde_json::to_string(&result)?)?;
    w.flush()
}

/// The root candidates of the last decision, shared between a [`Recorder`]
/// and the runner's step hook.
pub type SearchSlot<A> = Arc<Mutex<Option<Vec<RootStat<A>>>>>;

/// An agent wrapped so that each decision leaves its search's root
/// candidates in a slot the trace writer reads; decisions are unchanged.
pub struct Recorder<G: Game> {
    inner: Box<dyn Agent<G>>,
    slot: SearchSlot<G::Action>,
}

impl<G: Game> Recorder<G> {
    /// Wraps `inner`, recording into `slot`.
    pub fn new(inner: Box<dyn Agent<G>>, slot: SearchSlot<G::Action>) -> Self {
        Recorder { inner, slot }
    }
}

impl<G: Game> Agent<G> for Recorder<G> {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        let action = self.inner.act(d);
        if let Ok(mut slot) = self.slot.lock() {
            *slot = self.inner.last_root_stats();
        }
        action
    }

    fn last_iterations(&self) -> u64 {
        self.inner.last_iterations()
    }

    fn needs_view(&self) -> bool {
        self.inner.needs_view()
    }

    fn timed(&self) -> bool {
        self.inner.timed()
    }

    fn last_root_stats(&self) -> Option<Vec<RootStat<G::Action>>> {
        self.inner.last_root_stats()
    }

    fn exact_policy(&mut self, d: Decision<'_, G>) -> Option<Vec<f64>> {
        self.inner.exact_policy(d)
    }
}

/// Whether a trace step is what the re-simulated game allows at `state`: the
/// mover's legal action, or a possible chance outcome (replay and view check
/// every step with it).
pub fn is_legal_step<G: Game>(
    game: &G,
    state: &G::State,
    player: Option<crate::game::PlayerId>,
    action: G::Action,
) -> bool {
    match game.turn(state) {
        crate::game::Turn::Player(p) => {
            player == Some(p) && game.legal_actions(state).contains(&action)
        }
        crate::game::Turn::Chance => {
            player.is_none() && game.chance_outcomes(state).iter().any(|o| o.0 == action)
        }
        crate::game::Turn::Terminal => false,
    }
}

/// Checks a trace's result line against the re-simulated final `state`:
/// one outcome and one return per seat, a game that ends where the trace
/// does unless marked truncated, and for a finished game its returns,
/// outcomes, truncation and ending as the rules give them. What `replay`
/// and `view` both refuse, so neither shows a forged result.
pub fn check_result<G: Game>(
    game: &G,
    state: &G::State,
    expected: &ResultLine,
) -> Result<(), String> {
    let seats = game.num_players();
    if expected.returns.len() != seats || expected.outcomes.len() != seats {
        return Err(format!(
            "the trace's result line has {} returns and {} outcomes: they differ from the game's {seats} seats",
            expected.returns.len(),
            expected.outcomes.len()
        ));
    }
    let terminal = game.turn(state) == crate::game::Turn::Terminal;
    if !terminal && !expected.truncated {
        return Err("the trace ends before the game does, yet it is not marked truncated".into());
    }
    if !terminal {
        return Ok(());
    }
    let returns = game.returns(state);
    if returns
        .iter()
        .zip(&expected.returns)
        .any(|(a, b)| (a - b).abs() > 1e-9 || b.is_nan())
    {
        return Err(format!(
            "re-simulated returns {:?} differ from the trace's {:?}",
            &*returns, expected.returns
        ));
    }
    // A finished game: only the runner's length cap (never reached here) draws all.
    let computed = crate::game::outcomes(game, &returns, false);
    let computed: Vec<&str> = computed.iter().map(|o| o.as_str()).collect();
    if computed != expected.outcomes {
        return Err(format!(
            "re-simulated outcomes {} differ from the trace's {}",
            computed.join(", "),
            expected.outcomes.join(", ")
        ));
    }
    if game.truncated(state) != expected.truncated {
        return Err(format!(
            "the re-simulated game is{} truncated, the trace says the opposite",
            if game.truncated(state) { "" } else { " not" }
        ));
    }
    let ending = game.ending(state);
    if !expected.ending.is_empty() && expected.ending != ending {
        return Err(format!(
            "the re-simulated game ended by {ending}, the trace says {}",
            expected.ending
        ));
    }
    Ok(())
}
