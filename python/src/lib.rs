//! The `boardlab._boardlab` extension: boardlab's games, agents and runner
//! behind a pyspiel-like API. Rules live only in the Rust core; this crate
//! erases the game type (`DynGame`, `DynState`) and converts at the border.

use std::any::Any;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use boardlab::agents::registry::AgentSpec;
use boardlab::agents::{Agent, Decision};
use boardlab::arena::{self, AgentFactory, RunOptions};
use boardlab::game::encoding::{Encode, FACTORS, Factored};
use boardlab::game::{PlayerId, Rules, Turn};
use boardlab::games::{AnyGame, GAMES};
use boardlab::rng::{GameRng, rng_from_seed};
use boardlab::runtime::{AgentKind, AnyAgentKind, Typed};
use boardlab::spec::Spec;
use boardlab::with_game;
use pyo3::exceptions::{PyEOFError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList};

mod vector;

/// pyspiel's player ids for chance and terminal states.
const CHANCE: i32 = -1;
const TERMINAL: i32 = -4;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// One game with its type erased.
trait DynGame: Send + Sync {
    fn spec(&self) -> String;
    fn num_players(&self) -> usize;
    fn num_distinct_actions(&self) -> u32;
    fn max_game_length(&self) -> u32;
    fn observation_shape(&self) -> Vec<usize>;
    fn information_state_shape(&self) -> Option<Vec<usize>>;
    fn factored(&self) -> Option<Factored>;
    fn has_hidden_information(&self) -> bool;
    fn max_utility(&self) -> Option<f64>;
    fn new_initial_state(&self, seed: u64) -> Box<dyn DynState>;
    /// `n` games stepped together (`boardlab.VectorEnv`).
    fn vector(&self, n: usize, seed: u64) -> Box<dyn vector::DynVector>;
    fn state_from_json(&self, json: &str) -> Result<Box<dyn DynState>, String>;
    fn run(&self, seats: &[Seat], opts: &RunOptions) -> PyResult<arena::RunOutput>;
    /// The runtime's view of this game, with each Python callable a kind of
    /// agent named `(name, callable)`: what `metagame` plays.
    fn with_python_kinds(
        &self,
        kinds: Vec<(String, Py<PyAny>)>,
    ) -> Box<dyn boardlab::runtime::DynGame>;
}

/// One state with its game, type erased.
trait DynState: Send + Sync {
    fn game(&self) -> Arc<dyn DynGame>;
    fn box_clone(&self) -> Box<dyn DynState>;
    fn current_player(&self) -> i32;
    fn chance_outcomes(&self) -> Vec<(u32, f64)>;
    fn legal_actions(&self) -> Vec<u32>;
    fn apply_index(&mut self, index: u32) -> Result<(), String>;
    fn action_to_string(&self, index: u32) -> Result<String, String>;
    fn returns(&self) -> Vec<f64>;
    fn info_string(&self, player: PlayerId) -> String;
    fn observation(&self, player: PlayerId) -> Vec<f32>;
    fn information_state(&self, player: PlayerId) -> Vec<f32>;
    fn determinize(&self, player: PlayerId, seed: u64) -> Box<dyn DynState>;
    fn render(&self) -> String;
    fn to_json(&self) -> String;
    fn build_agent(&self, spec: &AgentSpec) -> Result<Box<dyn DynAgent>, String>;
    fn as_any(&self) -> &dyn Any;
}

/// A built-in agent bound to one game type.
trait DynAgent: Send {
    /// The game spec it was built for.
    fn game_spec(&self) -> String;
    fn step(&mut self, state: &dyn DynState, rng: &mut GameRng) -> PyResult<u32>;
}

struct GameBox<G: Encode> {
    game: Arc<G>,
}

struct StateBox<G: Encode> {
    game: Arc<G>,
    state: G::State,
}

impl<G: Encode> GameBox<G> {
    fn wrap(&self, state: G::State) -> Box<dyn DynState> {
        Box::new(StateBox {
            game: self.game.clone(),
            state,
        })
    }
}

impl<G: Encode> DynGame for GameBox<G> {
    fn spec(&self) -> String {
        self.game.spec()
    }
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn num_distinct_actions(&self) -> u32 {
        self.game.num_distinct_actions()
    }
    fn max_game_length(&self) -> u32 {
        self.game.max_game_length()
    }
    fn observation_shape(&self) -> Vec<usize> {
        self.game.observation_shape()
    }
    fn information_state_shape(&self) -> Option<Vec<usize>> {
        self.game.information_state_shape()
    }
    fn factored(&self) -> Option<Factored> {
        self.game.factored()
    }
    fn has_hidden_information(&self) -> bool {
        self.game.has_hidden_information()
    }
    fn max_utility(&self) -> Option<f64> {
        self.game.max_utility()
    }
    fn new_initial_state(&self, seed: u64) -> Box<dyn DynState> {
        let mut rng = rng_from_seed(seed);
        self.wrap(self.game.initial_state(&mut rng))
    }
    fn vector(&self, n: usize, seed: u64) -> Box<dyn vector::DynVector> {
        Box::new(vector::Vector::new(self.game.clone(), n, seed))
    }
    fn state_from_json(&self, json: &str) -> Result<Box<dyn DynState>, String> {
        let state: G::State = serde_json::from_str(json).map_err(|e| e.to_string())?;
        // A state read from text may be one no game reaches: it is checked as
        // every state of a soak is, so that nothing later panics on it.
        let game = &*self.game;
        let checked = boardlab::arena::play::contained(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut legal = game.legal_actions(&game.initial_state(&mut rng_from_seed(0)));
                boardlab::game::conformance::check_state(game, &state, &mut legal)
            }))
        });
        match checked {
            Ok(Ok(())) => Ok(self.wrap(state)),
            Ok(Err(e)) => Err(format!("not a state of {}: {e}", game.spec())),
            Err(_) => Err(format!(
                "not a state of {}: the game's rules cannot read it",
                game.spec()
            )),
        }
    }
    fn run(&self, seats: &[Seat], opts: &RunOptions) -> PyResult<arena::RunOutput> {
        let mut specs = Vec::new();
        let mut factories: Vec<Option<AgentFactory<G>>> = Vec::new();
        let raised = Raised::default();
        for seat in seats {
            match seat {
                Seat::Builtin(spec) => {
                    specs.push(spec.clone());
                    factories.push(None);
                }
                Seat::Python { label, callable } => {
                    specs.push(AgentSpec {
                        label: label.clone(),
                        spec: Spec {
                            name: "python".into(),
                            params: Default::default(),
                        },
                    });
                    let callable = Python::attach(|py| callable.clone_ref(py));
                    let callable = Arc::new(callable);
                    let game = self.game.clone();
                    let raised = raised.clone();
                    factories.push(Some(Arc::new(move || {
                        Box::new(PyAgent {
                            game: game.clone(),
                            callable: callable.clone(),
                            raised: raised.clone(),
                        }) as Box<dyn Agent<G>>
                    })));
                }
            }
        }
        let game = self.game.clone();
        let interrupt = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let opts = RunOptions {
            interrupt: Some(interrupt.clone()),
            ..opts.clone()
        };
        // The run plays on a thread of its own while this one, holding the
        // interpreter only between waits, takes Python's signals: Ctrl-C
        // interrupts the run between games, as a kill would.
        let (out, signal) = Python::attach(|py| {
            std::thread::scope(|scope| {
                let worker = scope.spawn(|| arena::run_with(&*game, &specs, &factories, &opts));
                let mut signal = None;
                while !worker.is_finished() {
                    py.detach(|| std::thread::sleep(std::time::Duration::from_millis(20)));
                    if signal.is_none()
                        && let Err(e) = py.check_signals()
                    {
                        interrupt.store(true, std::sync::atomic::Ordering::Relaxed);
                        signal = Some(e);
                    }
                }
                match worker.join() {
                    Ok(out) => (out, signal),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            })
        });
        // A Python agent that raised stopped the run: its exception is the
        // caller's (KeyboardInterrupt included), not a forfeit.
        if let Some(e) = raised.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(e);
        }
        if let Some(e) = signal {
            return Err(e);
        }
        out.map_err(value_error)
    }
    fn with_python_kinds(
        &self,
        kinds: Vec<(String, Py<PyAny>)>,
    ) -> Box<dyn boardlab::runtime::DynGame> {
        let kinds: Vec<AnyAgentKind> = kinds
            .into_iter()
            .map(|(name, callable)| self.python_kind(name, callable))
            .collect();
        Box::new(Typed::new((*self.game).clone(), &kinds))
    }
}

impl<G: Encode> GameBox<G> {
    /// A Python callable as a kind of agent of this game, named `name`.
    fn python_kind(&self, name: String, callable: Py<PyAny>) -> AnyAgentKind {
        let game = self.game.clone();
        let callable = Arc::new(callable);
        let owner = name.clone();
        Arc::new(AgentKind::<G> {
            name,
            build: Arc::new(move |params| {
                params.finish(&owner, &[])?;
                Ok(Box::new(PyAgent {
                    game: game.clone(),
                    callable: callable.clone(),
                    raised: Raised::default(),
                }) as Box<dyn Agent<G>>)
            }),
        })
    }
}

impl<G: Encode> StateBox<G> {
    fn decode(&self, index: u32) -> Result<G::Action, String> {
        let g = &self.game;
        let action = g.action_from_index(&self.state, index);
        let allowed = match (action, g.turn(&self.state)) {
            (_, Turn::Terminal) => return Err("the game is over: no action applies".into()),
            (Some(a), Turn::Chance) => g.chance_outcomes(&self.state).iter().any(|o| o.0 == a),
            (Some(a), Turn::Player(_)) => g.legal_actions(&self.state).contains(&a),
            (None, _) => false,
        };
        match action {
            Some(a) if allowed => Ok(a),
            _ => Err(format!(
                "action {index} is not legal here (legal: {:?})",
                self.legal_or_chance()
            )),
        }
    }

    fn legal_or_chance(&self) -> Vec<u32> {
        match self.game.turn(&self.state) {
            Turn::Chance => self.chance_outcomes().into_iter().map(|o| o.0).collect(),
            _ => self.legal_actions(),
        }
    }
}

impl<G: Encode> DynState for StateBox<G> {
    fn game(&self) -> Arc<dyn DynGame> {
        Arc::new(GameBox {
            game: self.game.clone(),
        })
    }
    fn box_clone(&self) -> Box<dyn DynState> {
        Box::new(StateBox {
            game: self.game.clone(),
            state: self.state.clone(),
        })
    }
    fn current_player(&self) -> i32 {
        match self.game.turn(&self.state) {
            Turn::Player(p) => i32::from(p),
            Turn::Chance => CHANCE,
            Turn::Terminal => TERMINAL,
        }
    }
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        if self.game.turn(&self.state) != Turn::Chance {
            return Vec::new();
        }
        self.game
            .chance_outcomes(&self.state)
            .into_iter()
            .map(|(a, p)| (self.game.action_index(&self.state, a), p))
            .collect()
    }
    fn legal_actions(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .game
            .legal_actions(&self.state)
            .iter()
            .map(|&a| self.game.action_index(&self.state, a))
            .collect();
        v.sort_unstable();
        v
    }
    fn apply_index(&mut self, index: u32) -> Result<(), String> {
        let a = self.decode(index)?;
        self.game.apply(&mut self.state, a);
        Ok(())
    }
    fn action_to_string(&self, index: u32) -> Result<String, String> {
        match self.game.action_from_index(&self.state, index) {
            Some(a) => Ok(self.game.action_label(&self.state, a)),
            None => Err(format!(
                "action {index} is out of range: outside 0..{}",
                self.game.num_distinct_actions()
            )),
        }
    }
    fn returns(&self) -> Vec<f64> {
        if self.game.turn(&self.state) == Turn::Terminal {
            self.game.returns(&self.state).to_vec()
        } else {
            vec![0.0; self.game.num_players()]
        }
    }
    fn info_string(&self, player: PlayerId) -> String {
        self.game.information_string(&self.state, player)
    }
    fn observation(&self, player: PlayerId) -> Vec<f32> {
        let mut out = Vec::new();
        self.game.observation_tensor(&self.state, player, &mut out);
        out
    }
    fn information_state(&self, player: PlayerId) -> Vec<f32> {
        let mut out = Vec::new();
        self.game
            .information_state_tensor(&self.state, player, &mut out);
        out
    }
    fn determinize(&self, player: PlayerId, seed: u64) -> Box<dyn DynState> {
        let mut rng = rng_from_seed(seed);
        Box::new(StateBox {
            game: self.game.clone(),
            state: self.game.determinize(&self.state, player, &mut rng),
        })
    }
    fn render(&self) -> String {
        self.game.render(&self.state, None)
    }
    fn to_json(&self) -> String {
        serde_json::to_string(&self.state).expect("states serialize")
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn build_agent(&self, spec: &AgentSpec) -> Result<Box<dyn DynAgent>, String> {
        let agent = spec.build::<G>().map_err(|e| e.to_string())?;
        Ok(Box::new(BuiltinAgent {
            game: self.game.clone(),
            agent,
        }))
    }
}

struct BuiltinAgent<G: Encode> {
    game: Arc<G>,
    agent: Box<dyn Agent<G>>,
}

impl<G: Encode> DynAgent for BuiltinAgent<G> {
    fn game_spec(&self) -> String {
        self.game.spec()
    }
    fn step(&mut self, state: &dyn DynState, rng: &mut GameRng) -> PyResult<u32> {
        let s = state
            .as_any()
            .downcast_ref::<StateBox<G>>()
            .ok_or_else(|| value_error("the state belongs to another game"))?;
        let g = &*self.game;
        let Turn::Player(me) = g.turn(&s.state) else {
            return Err(value_error(
                "no player acts here (chance or terminal state)",
            ));
        };
        // The agent sees a determinization for its seat, never the state itself.
        let view = g.determinize(&s.state, me, rng);
        let legal = g.legal_actions(&s.state);
        // An agent that panics, or cannot go on (a human at the end of
        // input), is an error of this call, never a panic through Python.
        let agent = &mut self.agent;
        let action = boardlab::arena::play::contained(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                agent.act(Decision {
                    game: g,
                    me,
                    view: &view,
                    legal: &legal,
                    rng,
                    deadline: None,
                })
            }))
        })
        .map_err(|p| {
            let why = boardlab::arena::play::panic_text(&*p);
            if why.ends_with(boardlab::agents::human::END_OF_INPUT) {
                PyEOFError::new_err(why)
            } else {
                PyRuntimeError::new_err(format!("the agent could not decide: {why}"))
            }
        })?;
        Ok(g.action_index(&s.state, action))
    }
}

/// A Python callable seated in a tournament: called with the seat's view (a
/// `State` determinized for it) and the legal action indices.
struct PyAgent<G: Encode> {
    game: Arc<G>,
    callable: Arc<Py<PyAny>>,
    /// The first exception a Python agent of the run raised.
    raised: Raised,
}

/// Where a run keeps the first exception its Python agents raised.
type Raised = Arc<Mutex<Option<PyErr>>>;

impl<G: Encode> Agent<G> for PyAgent<G> {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        let legal: Vec<u32> = d
            .legal
            .iter()
            .map(|&a| d.game.action_index(d.view, a))
            .collect();
        let view = State::new(Box::new(StateBox {
            game: self.game.clone(),
            state: d.view.clone(),
        }));
        let chosen: Result<u32, String> = Python::attach(|py| {
            let result = match self.callable.call1(py, (view, legal)) {
                Ok(r) => r,
                Err(e) => {
                    let why = format!("the Python agent raised {e}");
                    let mut first = self.raised.lock().unwrap_or_else(|e| e.into_inner());
                    first.get_or_insert(e);
                    drop(first);
                    // The run stops; the exception is raised where it was called.
                    boardlab::agents::Abort::raise(why)
                }
            };
            result.extract::<u32>(py).map_err(|_| {
                "the Python agent returned something other than an action index".into()
            })
        });
        let index = chosen.unwrap_or_else(|e| panic!("{e}"));
        d.game
            .action_from_index(d.view, index)
            .unwrap_or_else(|| panic!("the Python agent returned {index}, which names no action"))
    }
}

/// A seat of a Python-driven tournament.
enum Seat {
    Builtin(AgentSpec),
    Python { label: String, callable: Py<PyAny> },
}

fn parse_game(spec: &str) -> PyResult<Arc<dyn DynGame>> {
    let game = AnyGame::parse(spec).map_err(value_error)?;
    Ok(with_game!(game, g => Arc::new(GameBox { game: Arc::new(g) }) as Arc<dyn DynGame>))
}

/// A game with its parameters fixed (pyspiel's `Game`).
#[pyclass(module = "boardlab", frozen)]
struct GameObj {
    inner: Arc<dyn DynGame>,
}

impl GameObj {
    fn factored_or_error(&self) -> PyResult<Factored> {
        self.inner.factored().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{} has no factored action form (Karmox and Hamunaptra have one)",
                self.inner.spec()
            ))
        })
    }
}

#[pymethods]
impl GameObj {
    /// The canonical spec.
    fn spec(&self) -> String {
        self.inner.spec()
    }
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    /// Size of the action index space.
    fn num_distinct_actions(&self) -> u32 {
        self.inner.num_distinct_actions()
    }
    fn max_game_length(&self) -> u32 {
        self.inner.max_game_length()
    }
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.inner.observation_shape()
    }
    /// Shape of `State.information_state_tensor`, or None for a game that
    /// provides none.
    fn information_state_tensor_shape(&self) -> Option<Vec<usize>> {
        self.inner.information_state_shape()
    }
    /// The number of values of each component of the factored actions
    /// (kind, then three fields), or None for a game without a factored form
    /// (only Karmox and Hamunaptra have one).
    fn factored_shape(&self) -> Option<(u32, u32, u32, u32)> {
        self.inner.factored().map(|f| {
            let s = f.shape();
            (s[0], s[1], s[2], s[3])
        })
    }
    /// The field sizes of each kind of the factored actions, in kind order.
    fn action_fields(&self) -> PyResult<Vec<Vec<u32>>> {
        Ok(self.factored_or_error()?.fields().to_vec())
    }
    /// The factored form `(kind, f0, f1, f2)` of a flat action index.
    fn to_factored(&self, action: i64) -> PyResult<(u32, u32, u32, u32)> {
        let f = self.factored_or_error()?;
        u32::try_from(action)
            .ok()
            .and_then(|i| f.to_factored(i))
            .map(|t| (t[0], t[1], t[2], t[3]))
            .ok_or_else(|| {
                PyValueError::new_err(format!("action {action} is outside 0..{}", f.total()))
            })
    }
    /// The flat action index of a factored tuple `(kind, f0, f1, f2)`
    /// (missing trailing fields are 0).
    #[pyo3(name = "from_factored")]
    fn action_of_factored(&self, factored: Vec<i64>) -> PyResult<u32> {
        let f = self.factored_or_error()?;
        if factored.is_empty() || factored.len() > FACTORS {
            return Err(PyValueError::new_err(format!(
                "a factored action is 1 to {FACTORS} components (kind, f0, f1, f2), not {}",
                factored.len()
            )));
        }
        let mut t = [0u32; FACTORS];
        for (c, &v) in factored.iter().enumerate() {
            t[c] = u32::try_from(v).map_err(|_| {
                PyValueError::new_err(format!("component {c} is {v}: components are not negative"))
            })?;
        }
        f.from_factored(t).map_err(PyValueError::new_err)
    }
    /// True when some seat cannot see the whole state.
    fn has_hidden_information(&self) -> bool {
        self.inner.has_hidden_information()
    }
    /// The largest magnitude a return can have, for games that pay in chips
    /// (Kuhn 2, Leduc 13); None where returns lie in [-1, 1].
    fn max_utility(&self) -> Option<f64> {
        self.inner.max_utility()
    }
    /// The state before the first action; `seed` fixes the setup shuffles.
    #[pyo3(signature = (seed=0))]
    fn new_initial_state(&self, seed: u64) -> State {
        State::new(self.inner.new_initial_state(seed))
    }
    fn __repr__(&self) -> String {
        format!("boardlab.load_game({:?})", self.inner.spec())
    }
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let f = py.import("boardlab")?.getattr("load_game")?.unbind();
        Ok((f, (self.inner.spec(),)))
    }
}

/// A game state (pyspiel's `State`).
#[pyclass(module = "boardlab")]
struct State {
    inner: Box<dyn DynState>,
    /// The actions applied to this object (and the states it was cloned from)
    /// since `new_initial_state`; a view or a determinization starts empty.
    history: Vec<u32>,
}

impl State {
    fn new(inner: Box<dyn DynState>) -> State {
        State {
            inner,
            history: Vec::new(),
        }
    }

    fn seat(&self, player: i64) -> PyResult<PlayerId> {
        let n = self.inner.game().num_players();
        if player < 0 || player as usize >= n {
            return Err(PyValueError::new_err(format!(
                "player {player} is not a seat (0..{n})"
            )));
        }
        Ok(player as PlayerId)
    }
}

#[pymethods]
impl State {
    /// The game of this state.
    fn get_game(&self) -> GameObj {
        GameObj {
            inner: self.inner.game(),
        }
    }
    /// The seat to act, -1 at a chance node, -4 at the end.
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }
    fn is_chance_node(&self) -> bool {
        self.inner.current_player() == CHANCE
    }
    fn is_terminal(&self) -> bool {
        self.inner.current_player() == TERMINAL
    }
    /// `[(action, probability)]` at a chance node, else empty.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.inner.chance_outcomes()
    }
    /// Legal action indices, ascending (empty at chance and terminal states,
    /// and for a `player` other than the one to act).
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i64>) -> Vec<u32> {
        match player {
            Some(p) if p != i64::from(self.inner.current_player()) => Vec::new(),
            _ => self.inner.legal_actions(),
        }
    }
    /// The legal actions in factored form, one `(kind, f0, f1, f2)` row each,
    /// in the order of `legal_actions()`; a ValueError for a game without one.
    fn legal_factored(&self) -> PyResult<Vec<(u32, u32, u32, u32)>> {
        let game = self.inner.game();
        let f = game.factored().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{} has no factored action form (Karmox and Hamunaptra have one)",
                game.spec()
            ))
        })?;
        Ok(self
            .inner
            .legal_actions()
            .into_iter()
            .filter_map(|a| f.to_factored(a))
            .map(|t| (t[0], t[1], t[2], t[3]))
            .collect())
    }
    /// A 0/1 list of length `num_distinct_actions()`.
    fn legal_actions_mask(&self) -> Vec<u8> {
        let mut mask = vec![0u8; self.inner.game().num_distinct_actions() as usize];
        for a in self.inner.legal_actions() {
            mask[a as usize] = 1;
        }
        mask
    }
    /// Applies a legal action or chance outcome; anything else is a ValueError.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let index = u32::try_from(action)
            .map_err(|_| PyValueError::new_err(format!("action {action} is not legal here")))?;
        self.inner
            .apply_index(index)
            .map_err(PyValueError::new_err)?;
        self.history.push(index);
        Ok(())
    }
    /// A copy with `action` applied (pyspiel's `child`).
    fn child(&self, action: i64) -> PyResult<State> {
        let mut next = self.clone();
        next.apply_action(action)?;
        Ok(next)
    }
    /// The actions applied since `new_initial_state`, chance outcomes included.
    fn history(&self) -> Vec<u32> {
        self.history.clone()
    }
    /// The label of an action at this state.
    fn action_to_string(&self, player: i64, action: i64) -> PyResult<String> {
        let _ = player;
        let index = u32::try_from(action).map_err(|_| {
            PyValueError::new_err(if action < 0 {
                format!("action {action} is negative")
            } else {
                format!(
                    "action {action} is out of range: outside 0..{}",
                    self.inner.game().num_distinct_actions()
                )
            })
        })?;
        self.inner
            .action_to_string(index)
            .map_err(PyValueError::new_err)
    }
    /// Final payoffs (zeros before the end).
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }
    /// The rewards of the last action: every game pays only at the end, so
    /// these are the returns at a terminal state and zeros before.
    fn rewards(&self) -> Vec<f64> {
        self.inner.returns()
    }
    /// The state as `player` sees it, as text.
    fn information_state_string(&self, player: i64) -> PyResult<String> {
        Ok(self.inner.info_string(self.seat(player)?))
    }
    /// What `player` sees, as text (the information state string: boardlab's
    /// views are the seat's whole knowledge).
    fn observation_string(&self, player: i64) -> PyResult<String> {
        self.information_state_string(player)
    }
    /// What `player` sees, as a float32 numpy array of `observation_tensor_shape()`.
    fn observation_tensor<'py>(&self, py: Python<'py>, player: i64) -> PyResult<Bound<'py, PyAny>> {
        let data = self.inner.observation(self.seat(player)?);
        float_array(py, &data, self.inner.game().observation_shape())
    }
    /// What `player` knows of the play so far (perfect recall), as a float32
    /// numpy array of `information_state_tensor_shape()`; a ValueError for a
    /// game that provides none.
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat(player)?;
        let game = self.inner.game();
        let shape = game.information_state_shape().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{} provides no information state tensor (Kuhn and Leduc do); use observation_tensor",
                game.spec()
            ))
        })?;
        float_array(py, &self.inner.information_state(seat), shape)
    }
    /// A full state consistent with what `player` knows, every hidden part resampled.
    #[pyo3(signature = (player, seed=0))]
    fn determinize(&self, player: i64, seed: u64) -> PyResult<State> {
        Ok(State::new(self.inner.determinize(self.seat(player)?, seed)))
    }
    fn clone(&self) -> State {
        State {
            inner: self.inner.box_clone(),
            history: self.history.clone(),
        }
    }
    fn __copy__(&self) -> State {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: Py<PyAny>) -> State {
        self.clone()
    }
    fn __str__(&self) -> String {
        self.inner.render()
    }
    /// The state as JSON (its serde form).
    fn to_json(&self) -> String {
        self.inner.to_json()
    }
    /// The state as text that `boardlab.deserialize_state` reads back: the
    /// game's spec and the state's JSON, one a line (pyspiel's `serialize`).
    fn serialize(&self) -> String {
        format!("{}\n{}", self.inner.game().spec(), self.inner.to_json())
    }
    #[allow(clippy::type_complexity)]
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String, String, Vec<u32>))> {
        let f = py.import("boardlab")?.getattr("_state_from_json")?.unbind();
        let args = (
            self.inner.game().spec(),
            self.inner.to_json(),
            self.history.clone(),
        );
        Ok((f, args))
    }
}

/// `data` as a float32 numpy array of `shape`.
fn float_array<'py>(
    py: Python<'py>,
    data: &[f32],
    shape: Vec<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
    let np = py.import("numpy")?;
    let arr = np.call_method1("frombuffer", (PyBytes::new(py, &bytes), "<f4"))?;
    arr.call_method1("reshape", (shape,))?.call_method0("copy")
}

/// Rebuilds a state from its game spec and JSON (for pickling).
#[pyfunction]
#[pyo3(signature = (spec, json, history=Vec::new()))]
fn _state_from_json(spec: &str, json: &str, history: Vec<u32>) -> PyResult<State> {
    let game = parse_game(spec)?;
    Ok(State {
        inner: game.state_from_json(json).map_err(value_error)?,
        history,
    })
}

/// Reads back `State.serialize()`.
#[pyfunction]
fn deserialize_state(text: &str) -> PyResult<State> {
    let (spec, json) = text.split_once('\n').ok_or_else(|| {
        PyValueError::new_err("a serialized state is a spec line and a JSON line")
    })?;
    _state_from_json(spec, json, Vec::new())
}

/// A built-in agent from the registry (a preset name or a kind spec).
#[pyclass(module = "boardlab")]
struct BuiltinAgentObj {
    spec: AgentSpec,
    /// The random stream and the agent built for the last game seen.
    inner: Mutex<(GameRng, Option<Box<dyn DynAgent>>)>,
}

#[pymethods]
impl BuiltinAgentObj {
    /// The chosen action index for the player to act at `state`. The agent
    /// sees only a determinization of `state` for that player.
    fn step(&self, state: &State) -> PyResult<u32> {
        let spec = state.inner.game().spec();
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (rng, built) = &mut *guard;
        if built.as_ref().is_none_or(|a| a.game_spec() != spec) {
            *built = Some(state.inner.build_agent(&self.spec).map_err(value_error)?);
        }
        let agent = built.as_mut().expect("built above");
        agent.step(&*state.inner, rng)
    }
    fn __repr__(&self) -> String {
        format!("boardlab.agent({:?})", self.spec.label)
    }
}

/// A built-in agent; `seed` fixes its random stream.
#[pyfunction]
#[pyo3(signature = (spec, seed=0))]
fn agent(spec: &str, seed: u64) -> PyResult<BuiltinAgentObj> {
    Ok(BuiltinAgentObj {
        spec: AgentSpec::parse(spec).map_err(value_error)?,
        inner: Mutex::new((rng_from_seed(seed), None)),
    })
}

/// Builds a game from its spec, e.g. `karmaka(players=3)`.
#[pyfunction]
fn load_game(spec: &str) -> PyResult<GameObj> {
    Ok(GameObj {
        inner: parse_game(spec)?,
    })
}

/// Names of the registered games.
#[pyfunction]
fn games() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

/// A registered game's player counts (`"2-4"`) and parameters with their
/// default values as text, as `boardlab games` lists them.
#[pyfunction]
fn _game_info(name: &str) -> PyResult<(String, Vec<(String, String)>)> {
    let info = GAMES
        .iter()
        .find(|g| g.name == name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown game {name:?}")))?;
    let params = info
        .params
        .iter()
        .map(|p| (p.name.to_string(), p.default.to_string()))
        .collect();
    Ok((info.players.to_string(), params))
}

/// Runs a tournament through the real runner; returns the rows of games.csv
/// as JSON when `keep_rows` (an empty list otherwise: the rows went only to
/// `out`, if given) and the summary as JSON (the Python wrapper turns them
/// into dicts).
#[pyfunction]
#[pyo3(signature = (game, agents, games=1, seed=0, threads=1, out=None, force=false, keep_rows=true))]
#[allow(clippy::too_many_arguments)]
fn _run(
    game: &str,
    agents: &Bound<'_, PyList>,
    games: u64,
    seed: u64,
    threads: usize,
    out: Option<PathBuf>,
    force: bool,
    keep_rows: bool,
) -> PyResult<(String, String)> {
    // The command line's own checks of --games and --threads.
    let games = boardlab::arena::check_games(&games.to_string()).map_err(PyValueError::new_err)?;
    let threads =
        boardlab::arena::check_threads(&threads.to_string()).map_err(PyValueError::new_err)?;
    let g = parse_game(game)?;
    let mut seats = Vec::new();
    for (i, a) in agents.iter().enumerate() {
        if let Ok(text) = a.extract::<String>() {
            seats.push(Seat::Builtin(AgentSpec::parse(&text).map_err(value_error)?));
        } else if a.is_callable() {
            let name = a
                .getattr("__name__")
                .and_then(|n| n.extract::<String>())
                .unwrap_or_else(|_| format!("agent{i}"));
            seats.push(Seat::Python {
                label: format!("python:{name}"),
                callable: a.unbind(),
            });
        } else {
            return Err(PyValueError::new_err(format!(
                "agent {i} is neither an agent spec string nor a callable"
            )));
        }
    }
    let opts = RunOptions {
        games,
        seed,
        threads,
        out,
        force,
        keep_rows,
        command: format!("boardlab.run({game:?}, games={games}, seed={seed})"),
        ..RunOptions::default()
    };
    let output = g.run(&seats, &opts)?;
    let rows =
        serde_json::to_string(&output.rows).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let tally = |t: &boardlab::arena::record::Tally| {
        serde_json::json!({
            "games": t.games,
            "wins": t.wins,
            "draws": t.draws,
            "losses": t.losses,
            "win_rate": t.win_rate,
            "ci_low": t.ci_low,
            "ci_high": t.ci_high,
            "mean_score": t.mean_score,
        })
    };
    let with_key = |key: serde_json::Value, t: &boardlab::arena::record::Tally| {
        let mut v = tally(t);
        if let (serde_json::Value::Object(m), serde_json::Value::Object(k)) = (&mut v, key) {
            for (name, value) in k {
                m.insert(name, value);
            }
        }
        v
    };
    let summary = serde_json::json!({
        "games": output.games,
        "played": output.played,
        "errors": output.errors,
        "capped": output.capped,
        "rounded": output.rounded,
        "agents": output.agents.iter().map(|a| with_key(
            serde_json::json!({"agent_index": a.agent_index, "agent": a.agent}), &a.tally,
        )).collect::<Vec<_>>(),
        "seats": output.seats.iter().map(|st| with_key(
            serde_json::json!({"seat": st.seat}), &st.tally,
        )).collect::<Vec<_>>(),
    });
    Ok((rows, summary.to_string()))
}

/// Plays and solves a meta-game (`boardlab metagame`) whose members are agent
/// specs or Python callables; returns metagame.json's text.
#[pyfunction]
#[pyo3(signature = (game, agents, out, games=60, seed=0, threads=1, payoff="win", bootstrap=1000, resume=false, force=false, match_cpu=None, calibration_games=4))]
#[allow(clippy::too_many_arguments)]
fn _metagame(
    py: Python<'_>,
    game: &str,
    agents: &Bound<'_, PyList>,
    out: PathBuf,
    games: u64,
    seed: u64,
    threads: usize,
    payoff: &str,
    bootstrap: usize,
    resume: bool,
    force: bool,
    match_cpu: Option<f64>,
    calibration_games: u64,
) -> PyResult<String> {
    let games = boardlab::arena::check_games(&games.to_string()).map_err(PyValueError::new_err)?;
    let threads =
        boardlab::arena::check_threads(&threads.to_string()).map_err(PyValueError::new_err)?;
    let bootstrap = boardlab::stats::bootstrap::check_resamples(&bootstrap.to_string())
        .map_err(PyValueError::new_err)?;
    let g = parse_game(game)?;
    let mut members = Vec::new();
    let mut kinds = Vec::new();
    for (i, a) in agents.iter().enumerate() {
        if let Ok(text) = a.extract::<String>() {
            members.push(text);
        } else if a.is_callable() {
            let name = a
                .getattr("__name__")
                .and_then(|n| n.extract::<String>())
                .unwrap_or_else(|_| format!("agent{i}"));
            let kind = python_kind_name(&name);
            if kinds.iter().any(|(k, _): &(String, _)| *k == kind) {
                return Err(PyValueError::new_err(format!(
                    "two Python members are named {kind:?}: give each callable its own __name__"
                )));
            }
            members.push(kind.clone());
            kinds.push((kind, a.unbind()));
        } else {
            return Err(PyValueError::new_err(format!(
                "member {i} is neither an agent spec string nor a callable"
            )));
        }
    }
    let runtime = g.with_python_kinds(kinds);
    let opts = boardlab::metagame::MetagameOptions {
        agents: members,
        games,
        seed,
        threads,
        out,
        force,
        resume,
        payoff: boardlab::metagame::Payoff::parse(payoff).map_err(value_error)?,
        bootstrap,
        command: format!("boardlab.metagame({game:?}, games={games}, seed={seed})"),
        match_cpu,
        calibration_games,
        ..Default::default()
    };
    let solved = py
        .detach(|| boardlab::metagame::run(runtime.as_ref(), &opts))
        .map_err(value_error)?;
    let (_, sol) = solved
        .into_iter()
        .next()
        .ok_or_else(|| PyRuntimeError::new_err("the meta-game solved nothing"))?;
    serde_json::to_string(&sol).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// A Python member's name in specs and results: `python_` and its
/// `__name__`, with what a spec cannot hold turned into `_`.
fn python_kind_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("python_{clean}")
}

/// Plays `n` uniformly random games of `game` in Rust (the batched path for
/// speed comparisons); returns the total number of actions applied.
#[pyfunction]
fn _random_playouts(py: Python<'_>, game: &str, n: u64, seed: u64) -> PyResult<u64> {
    let game = AnyGame::parse(game).map_err(value_error)?;
    Ok(py.detach(|| {
        with_game!(&game, g => {
            let mut total = 0u64;
            for i in 0..n {
                let mut rng = rng_from_seed(seed.wrapping_add(i));
                let mut state = g.initial_state(&mut rng);
                total += u64::from(boardlab::game::random_playout(
                    g,
                    &mut state,
                    &mut rng,
                    g.max_game_length(),
                ));
            }
            total
        })
    }))
}

/// The core of `boardlab.VectorEnv` (python/boardlab/vector.py): `n` games
/// of one spec stepped per call, written into bytearrays that the Python side
/// views as numpy arrays (no per-game Python objects).
#[pyclass(module = "boardlab")]
struct VectorCore {
    inner: Mutex<Box<dyn vector::DynVector>>,
    /// obs, mask, rewards, done, truncated, to_play (see `vector::Buffers`).
    bufs: [Py<PyByteArray>; 6],
    n: usize,
    game: Arc<dyn DynGame>,
}

impl VectorCore {
    fn with_buffers<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn vector::DynVector, &mut vector::Buffers) -> T,
    ) -> T {
        let b: Vec<Bound<'_, PyByteArray>> = self.bufs.iter().map(|b| b.bind(py).clone()).collect();
        // SAFETY: the bytearrays are this object's own, never resized (the
        // numpy views over them forbid it) and written only here, with the
        // interpreter held and no Python code running in between.
        let mut out = unsafe {
            vector::Buffers {
                obs: b[0].as_bytes_mut(),
                mask: b[1].as_bytes_mut(),
                rewards: b[2].as_bytes_mut(),
                done: b[3].as_bytes_mut(),
                truncated: b[4].as_bytes_mut(),
                to_play: b[5].as_bytes_mut(),
            }
        };
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut **inner, &mut out)
    }
}

#[pymethods]
impl VectorCore {
    #[new]
    fn new(py: Python<'_>, spec: &str, n: i64, seed: u64) -> PyResult<VectorCore> {
        let game = parse_game(spec)?;
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| (1..=1 << 20).contains(&n))
            .ok_or_else(|| {
                PyValueError::new_err(format!("n = {n} envs: give between 1 and 1048576"))
            })?;
        let obs_len: usize = game.observation_shape().iter().product();
        let sizes = [
            n * obs_len * 4,
            n * game.num_distinct_actions() as usize,
            n * game.num_players() * 4,
            n,
            n,
            n * 4,
        ];
        let bufs = sizes.map(|len| PyByteArray::new(py, &vec![0u8; len]).unbind());
        Ok(VectorCore {
            inner: Mutex::new(game.vector(n, seed)),
            bufs,
            n,
            game,
        })
    }
    /// The buffers: obs, mask, rewards, done, truncated, to_play.
    fn buffers(&self, py: Python<'_>) -> Vec<Py<PyByteArray>> {
        self.bufs.iter().map(|b| b.clone_ref(py)).collect()
    }
    #[pyo3(signature = (seed=None))]
    fn reset(&self, py: Python<'_>, seed: Option<u64>) {
        self.with_buffers(py, |v, out| v.reset(seed, out));
    }
    /// `actions`: `n` int64 in the machine's byte order.
    fn step(&self, py: Python<'_>, actions: &[u8]) -> PyResult<()> {
        let actions: Vec<i64> = actions
            .chunks_exact(8)
            .map(|c| i64::from_ne_bytes(c.try_into().expect("8 bytes")))
            .collect();
        self.with_buffers(py, |v, out| v.step(&actions, out))
            .map_err(PyValueError::new_err)
    }
    fn state(&self, i: i64) -> PyResult<State> {
        let guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        usize::try_from(i)
            .ok()
            .and_then(|i| guard.state(i))
            .map(State::new)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "env {i}: no such env before reset() or outside 0..{}",
                    self.n
                ))
            })
    }
    fn game(&self) -> GameObj {
        GameObj {
            inner: self.game.clone(),
        }
    }
}

#[pymodule]
fn _boardlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    boardlab::arena::play::quiet_contained_panics();
    m.add_class::<GameObj>()?;
    m.add_class::<State>()?;
    m.add_class::<BuiltinAgentObj>()?;
    m.add_class::<VectorCore>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(agent, m)?)?;
    m.add_function(wrap_pyfunction!(_state_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(deserialize_state, m)?)?;
    m.add_function(wrap_pyfunction!(_run, m)?)?;
    m.add_function(wrap_pyfunction!(_metagame, m)?)?;
    m.add_function(wrap_pyfunction!(_game_info, m)?)?;
    m.add_function(wrap_pyfunction!(_random_playouts, m)?)?;
    Ok(())
}
