//! Monte Carlo tree search: the configuration shared by every search agent and
//! the one search engine they drive.
//!
//! The engine runs open-loop UCT with max^n backup: a node stands for an action
//! taken by a seat (not for a state), chance outcomes are sampled afresh on every
//! iteration, and each node accumulates the returns of the seat that chose its
//! action, so with 2–6 players every seat maximises its own return. How the
//! state of an iteration is obtained decides the algorithm:
//!
//! * [`uct`]: always the agent's view (one determinization, made by the runner);
//! * [`pimc`]: several determinizations of the view, a fresh tree for each;
//! * [`ismcts`]: a new determinization every iteration in one tree, with
//!   availability counts in the UCB formula (single-observer ISMCTS);
//! * [`moismcts`]: the same sampling with one tree per seat, each seat's
//!   tree seeing other seats' moves only as that seat observes them.
//!
//! Shared by all: [`mast`] rollout statistics, progressive widening and bias
//! ([`Chooser`]), tree reuse between decisions ([`reuse`]) and root-parallel
//! search ([`parallel`]).

pub mod clock;
pub mod ismcts;
pub mod mast;
pub mod moismcts;
pub mod parallel;
pub mod pimc;
pub mod reuse;
pub mod tree;
pub mod uct;

use std::time::{Duration, Instant};

use super::Budget;
use super::greedy::{action_value, epsilon_greedy, normalized_returns};
use crate::error::SpecError;
use crate::game::{Game, PlayerId, Returns, Turn};
use crate::rng::{GameRng, below, unit};
use crate::spec::Params;
use clock::Clock;
use mast::Mast;
use tree::{NIL, NO_HINT, Tree};

/// How a rollout picks actions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rollout {
    /// Uniformly random legal actions: cheap, unbiased, weak.
    Random,
    /// One-step heuristic look-ahead, with a random action with probability `epsilon`.
    Greedy {
        /// Probability of a random action instead of the greedy one.
        epsilon: f64,
    },
    /// MAST (move-average sampling, Finnsson & Björnsson 2008): the mean
    /// return of each (seat, action) over this search's iterations, tree and
    /// rollout alike, picks the rollout's actions: the best mean with
    /// probability `1 - epsilon` (untried actions count as the best), a
    /// uniformly random action otherwise. Cheap knowledge learnt on the fly.
    Mast {
        /// Probability of a random action instead of the best-mean one.
        epsilon: f64,
    },
    /// MAST with Gibbs sampling: action `a` with probability proportional to
    /// `exp(Q(a) / tau)` (untried actions at the best value, 1).
    MastGibbs {
        /// Temperature: large is near uniform, small near greedy.
        tau: f64,
    },
}

impl Rollout {
    fn uses_mast(self) -> bool {
        matches!(self, Rollout::Mast { .. } | Rollout::MastGibbs { .. })
    }
}

/// Where a rollout cut by `max_rollout` stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// After exactly `max_rollout` actions (chance outcomes included).
    Depth,
    /// After `max_rollout` actions, at the first seat to move that is not the
    /// seat of the last decision: in games where a seat takes its turn's
    /// steps in a row, the heuristic then scores a turn's end, not a state
    /// halfway through a turn.
    Turn,
}

/// A rollout's progress toward its cut: the actions applied and the seat
/// of the last decision among them.
#[derive(Clone, Copy, Debug, Default)]
pub struct CutCounter {
    actions: u32,
    last_mover: Option<PlayerId>,
}

impl CutCounter {
    /// Whether the rollout stops here, before the move of `turn` (not terminal).
    pub fn reached(&self, cfg: &SearchConfig, turn: Turn) -> bool {
        if cfg.max_rollout == 0 || self.actions < cfg.max_rollout {
            return false;
        }
        match (cfg.cut, turn) {
            (Cut::Depth, _) => true,
            (Cut::Turn, Turn::Player(p)) => self.last_mover != Some(p),
            (Cut::Turn, _) => false,
        }
    }

    /// Counts the action taken at `turn`.
    pub fn step(&mut self, turn: Turn) {
        self.actions += 1;
        if let Turn::Player(p) = turn {
            self.last_mover = Some(p);
        }
    }
}

/// Exploration constant for returns in [-1, 1].
///
/// UCB1's `sqrt(2)` assumes rewards in [0, 1]; on our range of width 2 the
/// equivalent constant would be `2 * sqrt(2) ≈ 2.8`. That value comes from a
/// worst-case regret bound and explores far more than game trees need; in
/// practice UCT does best with roughly half of it (Kocsis & Szepesvári's bound is
/// loose, and minimax-like trees reward exploitation). 1.4 is that half: the
/// usual `c ≈ 0.7` on [0, 1] rewards, rescaled to our range.
pub const DEFAULT_C: f64 = 1.4;

/// Parameters of a tree search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Iterations or time per decision.
    pub budget: Budget,
    /// The clock a time budget reads: wall (`time_ms`) or the thread's CPU (`cpu_ms`).
    pub clock: Clock,
    /// UCB exploration constant.
    pub c: f64,
    /// Rollout policy.
    pub rollout: Rollout,
    /// Actions after which a rollout stops and is scored by the heuristic (0: never).
    pub max_rollout: u32,
    /// Where past `max_rollout` the rollout stops: at once, or where the
    /// seat to move next changes.
    pub cut: Cut,
    /// Progressive widening exponent α (0: off): a node visited `n` times has
    /// at most `⌈(n + 1)^α⌉` children legal in the iteration's state, added
    /// in the order the heuristic rates them (progressive unpruning).
    pub widen: f64,
    /// Progressive widening factor k: with `widen` on, at most
    /// `⌈k · (n + 1)^α⌉` children (1: the plain rule).
    pub widen_k: f64,
    /// With `rollout=greedy`, how many legal actions (drawn at random, with
    /// replacement) the heuristic rates per step (0, or at least as many as
    /// are legal: all of them). Rating
    /// every action costs a copy and an evaluation each, which in the long
    /// games' wide action lists buys few rollouts per decision.
    pub candidates: u32,
    /// Progressive bias weight: `bias · h / (visits + 1)` is added to a
    /// child's UCB value, `h` the heuristic's value of its action for the
    /// mover when the child was made (0: off).
    pub bias: f64,
    /// Rescale mean returns in UCB so the returns this search has seen span
    /// [-1, 1] (TAG's `normaliseRewards`): `c` then keeps its meaning when
    /// the heuristic at a rollout cut varies in a narrow band.
    pub normalize: bool,
    /// The evaluation at a rollout cut (`eval`; set by the agent registry,
    /// which knows the game).
    pub eval: crate::eval::Eval,
    /// The runner's deadline for the current decision
    /// ([`Decision::deadline`](crate::agents::Decision::deadline)), set by
    /// the agent at each decision: the search stops there even with budget left.
    pub deadline: Option<Instant>,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            budget: Budget::Iterations(1000),
            clock: Clock::Wall,
            c: DEFAULT_C,
            rollout: Rollout::Random,
            max_rollout: 0,
            cut: Cut::Depth,
            widen: 0.0,
            widen_k: 1.0,
            candidates: 0,
            bias: 0.0,
            normalize: false,
            eval: crate::eval::Eval::Heuristic,
            deadline: None,
        }
    }
}

impl SearchConfig {
    /// Reads `iterations`, `time_ms`, `cpu_ms`, `c`, `rollout`, `epsilon`,
    /// `tau`, `max_rollout`, `cut`, `widen`, `widen_k`, `candidates`, `bias`, `normalize`. `time_ms` > 0 replaces the
    /// iteration budget with a wall-clock one, `cpu_ms` > 0 with one in the
    /// searching thread's CPU time.
    pub fn from_params(params: &mut Params) -> Result<SearchConfig, SpecError> {
        let iterations = params.int("iterations", 1000, 1, u64::from(u32::MAX))?;
        let time_ms = params.int("time_ms", 0, 0, crate::agents::MAX_MOVE_MS)?;
        let cpu_ms = params.int("cpu_ms", 0, 0, crate::agents::MAX_MOVE_MS)?;
        if time_ms > 0 && cpu_ms > 0 {
            return Err(SpecError::Invalid(
                "time_ms and cpu_ms exclude each other: give one of them".to_string(),
            ));
        }
        let c = params.float("c", DEFAULT_C, 0.0, 100.0)?;
        let rollout = params.choice("rollout", 0, &["random", "greedy", "mast", "mast-gibbs"])?;
        let epsilon = params.float("epsilon", 0.1, 0.0, 1.0)?;
        let tau = params.float("tau", 1.0, 0.01, 100.0)?;
        let max_rollout = params.int("max_rollout", 0, 0, u64::from(u32::MAX))?;
        let cut = params.choice("cut", 0, &["depth", "turn"])?;
        let widen = params.float("widen", 0.0, 0.0, 1.0)?;
        let widen_k = params.float("widen_k", 1.0, 0.01, 100.0)?;
        let candidates = params.int("candidates", 0, 0, 1000)?;
        let bias = params.float("bias", 0.0, 0.0, 100.0)?;
        let normalize = params.bool("normalize", false)?;
        Ok(SearchConfig {
            budget: if time_ms + cpu_ms > 0 {
                Budget::Time(Duration::from_millis(time_ms + cpu_ms))
            } else {
                Budget::Iterations(iterations as u32)
            },
            clock: if cpu_ms > 0 {
                Clock::ThreadCpu
            } else {
                Clock::Wall
            },
            c,
            rollout: match rollout {
                0 => Rollout::Random,
                1 => Rollout::Greedy { epsilon },
                2 => Rollout::Mast { epsilon },
                _ => Rollout::MastGibbs { tau },
            },
            max_rollout: max_rollout as u32,
            cut: if cut == 0 { Cut::Depth } else { Cut::Turn },
            widen,
            widen_k,
            candidates: candidates as u32,
            bias,
            normalize,
            eval: crate::eval::Eval::Heuristic,
            deadline: None,
        })
    }
}

/// Where each iteration's state comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// Search the given state itself (UCT on one determinization); the UCB
    /// formula uses the parent's visit count.
    Fixed,
    /// Redeterminize the given state for the searching seat every iteration;
    /// the UCB formula uses each child's availability count.
    Redeterminize,
}

/// What to do at a tree node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    /// Add a child for the legal action at this index, with this prior, and roll out.
    Expand {
        /// Index into the legal actions.
        index: usize,
        /// The heuristic's value of the action for the mover (0 when unused).
        prior: f32,
    },
    /// Descend into this existing child.
    Descend(u32),
}

/// The choice at one node (expansion, widening, UCB with availability and
/// progressive bias), with its scratch buffers; shared by every tree search.
#[derive(Clone, Debug, Default)]
pub struct Chooser {
    candidates: Vec<u32>,
    has_child: Vec<bool>,
}

impl Chooser {
    /// Chooses at `node` of `tree`, where seat `p` is to act in `state` with
    /// `legal` actions; `key` maps an action to its key in this tree.
    /// `avail`: UCB counts availability (ISMCTS) instead of parent visits.
    /// On [`Choice::Descend`] the legal children's availability is counted.
    #[allow(clippy::too_many_arguments)]
    pub fn choose<G: Game, K: Copy + PartialEq>(
        &mut self,
        game: &G,
        state: &G::State,
        legal: &[G::Action],
        tree: &mut Tree<K>,
        node: u32,
        p: PlayerId,
        key: impl Fn(G::Action) -> K,
        cfg: &SearchConfig,
        avail: bool,
        rng: &mut GameRng,
    ) -> Choice {
        // Which legal actions already have a child, and those children.
        self.has_child.clear();
        self.has_child.resize(legal.len(), false);
        self.candidates.clear();
        let mut c = tree.get(node).first_child;
        while c != NIL {
            let n = tree.get_mut(c);
            if n.mover == p {
                // Legal lists hold no duplicates, so an action found at its
                // hint is found where a search would find it.
                let hint = usize::from(n.hint);
                let found = if hint < legal.len() && key(legal[hint]) == n.action {
                    Some(hint)
                } else {
                    legal.iter().position(|&a| key(a) == n.action)
                };
                if let Some(i) = found {
                    n.hint = u8::try_from(i).unwrap_or(NO_HINT);
                    self.has_child[i] = true;
                    self.candidates.push(c);
                }
            }
            c = n.next_sibling;
        }
        let untried = legal.len() - self.candidates.len();
        let room = cfg.widen <= 0.0
            || (self.candidates.len() as f64)
                < (cfg.widen_k * (f64::from(tree.get(node).visits) + 1.0).powf(cfg.widen)).ceil();
        if untried > 0 && (room || self.candidates.is_empty()) {
            if cfg.widen > 0.0 {
                // Progressive unpruning: the untried action the heuristic rates best.
                let mut best = (f64::NEG_INFINITY, 0usize);
                let mut ties = 0usize;
                for (i, &has) in self.has_child.iter().enumerate() {
                    if has {
                        continue;
                    }
                    let v = value_after(game, state, legal[i], p);
                    if v > best.0 + 1e-12 {
                        best = (v, i);
                        ties = 1;
                    } else if (v - best.0).abs() <= 1e-12 {
                        ties += 1;
                        if below(rng, ties) == 0 {
                            best = (v, i);
                        }
                    }
                }
                return Choice::Expand {
                    index: best.1,
                    prior: best.0 as f32,
                };
            }
            let mut k = below(rng, untried);
            let mut pick = 0;
            for (i, &has) in self.has_child.iter().enumerate() {
                if !has {
                    if k == 0 {
                        pick = i;
                        break;
                    }
                    k -= 1;
                }
            }
            let prior = if cfg.bias > 0.0 {
                value_after(game, state, legal[pick], p) as f32
            } else {
                0.0
            };
            return Choice::Expand { index: pick, prior };
        }
        // The parent's log is the same for every child unless each child
        // counts its own availability; logs of small counts come from a table.
        let parent_ln = ln_count(tree.get(node).visits.max(1));
        let mut best = f64::NEG_INFINITY;
        let mut best_c = self.candidates[0];
        for &c in &self.candidates {
            let n = *tree.get(c);
            // Every child legal in this iteration's state was available for
            // this selection (counted after its own value is read, as in the
            // reference code; no other child's value reads it). Kept in both
            // modes so trees can be inspected alike; only ISMCTS uses it.
            tree.get_mut(c).avail += 1;
            let visits = f64::from(n.visits.max(1));
            let parent_ln = if avail {
                ln_count(n.avail.max(1))
            } else {
                parent_ln
            };
            let mean = if cfg.normalize {
                tree.normalized(n.total / visits)
            } else {
                n.total / visits
            };
            let mut ucb = mean + cfg.c * (parent_ln / visits).sqrt();
            if cfg.bias > 0.0 {
                ucb += cfg.bias * f64::from(n.prior) / (f64::from(n.visits) + 1.0);
            }
            if ucb > best {
                best = ucb;
                best_c = c;
            }
        }
        Choice::Descend(best_c)
    }
}

/// Counts below this have their natural log in [`LN_TABLE`].
const LN_TABLE_LEN: usize = 4096;

/// `ln(n)` for `n < LN_TABLE_LEN`, computed once per process by `f64::ln`
/// itself, so a looked-up log is the very value UCB would compute.
static LN_TABLE: std::sync::LazyLock<Box<[f64]>> =
    std::sync::LazyLock::new(|| (0..LN_TABLE_LEN).map(|n| (n as f64).ln()).collect());

/// The natural log of a visit or availability count, as `f64::from(n).ln()`.
#[inline]
fn ln_count(n: u32) -> f64 {
    match LN_TABLE.get(n as usize) {
        Some(&ln) => ln,
        None => f64::from(n).ln(),
    }
}

/// The value for `p` of the state after `action`: the game's returns if it
/// ends there, its heuristic otherwise.
pub fn value_after<G: Game>(game: &G, state: &G::State, action: G::Action, p: PlayerId) -> f64 {
    let mut s = state.clone();
    game.apply(&mut s, action);
    if game.turn(&s) == Turn::Terminal {
        normalized_returns(game, &s)[p as usize]
    } else {
        game.heuristic(&s, p)
    }
}

/// Runs iterations until `budget` is spent on `clock` or the wall clock
/// reaches `deadline` (at least one); returns how many.
pub fn run_budget(
    budget: Budget,
    clock: Clock,
    deadline: Option<Instant>,
    mut iterate: impl FnMut(),
) -> u64 {
    let mut done = 0u64;
    let past = |deadline: Option<Instant>| deadline.is_some_and(|t| Instant::now() >= t);
    match budget {
        Budget::Iterations(n) => {
            for _ in 0..n.max(1) {
                iterate();
                done += 1;
                if past(deadline) {
                    break;
                }
            }
        }
        Budget::Time(limit) => {
            let start = clock.mark();
            loop {
                iterate();
                done += 1;
                // Reading the clock (tens to hundreds of nanoseconds) is
                // cheap next to an iteration, and checking every time bounds
                // the overrun by one iteration however slow iterations are.
                if start.elapsed() >= limit || past(deadline) {
                    break;
                }
            }
        }
    }
    done
}

/// A reusable search: the tree arena and scratch buffers survive between
/// decisions, so a search allocates only when the tree outgrows earlier ones.
#[derive(Clone, Debug)]
pub struct Engine<G: Game> {
    tree: Tree<G::Action>,
    path: Vec<u32>,
    chooser: Chooser,
    mast: Mast<G::Action>,
    /// The legal-action list every step of an iteration writes into.
    legal: Option<G::Actions>,
}

impl<G: Game> Default for Engine<G> {
    fn default() -> Self {
        Engine {
            tree: Tree::new(),
            path: Vec::new(),
            chooser: Chooser::default(),
            mast: Mast::default(),
            legal: None,
        }
    }
}

impl<G: Game> Engine<G> {
    /// The tree of the last search.
    pub fn tree(&self) -> &Tree<G::Action> {
        &self.tree
    }

    /// Clears the tree for a search from a state where `placeholder` is legal.
    pub fn reset(&mut self, placeholder: G::Action) {
        self.tree.reset(placeholder);
        self.mast.clear();
    }

    /// Keeps only the subtree under `node` (tree reuse); MAST statistics stay.
    pub fn reroot(&mut self, node: u32) {
        self.tree.keep_subtree(node);
    }

    /// Runs iterations from `root` (where `me` is to act) until `budget` is
    /// spent, adding to the current tree; returns the iterations run (at least one).
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        game: &G,
        root: &G::State,
        me: PlayerId,
        cfg: &SearchConfig,
        budget: Budget,
        sampling: Sampling,
        rng: &mut GameRng,
    ) -> u64 {
        debug_assert!(!self.tree.is_empty(), "reset before search");
        match sampling {
            Sampling::Fixed => run_budget(budget, cfg.clock, cfg.deadline, || {
                self.iterate(game, root.clone(), cfg, sampling, rng)
            }),
            Sampling::Redeterminize => game.with_determinizer(root, me, |sample| {
                run_budget(budget, cfg.clock, cfg.deadline, || {
                    let state = sample(rng);
                    self.iterate(game, state, cfg, sampling, rng)
                })
            }),
        }
    }

    /// One iteration from `state` (the root or a determinization of it):
    /// select and expand in the tree, roll out, back up.
    fn iterate(
        &mut self,
        game: &G,
        mut state: G::State,
        cfg: &SearchConfig,
        sampling: Sampling,
        rng: &mut GameRng,
    ) {
        let cap = game.max_game_length();
        let mut steps = 0u32;
        let mut node = 0u32;
        self.path.clear();
        self.path.push(node);
        let values: Returns = loop {
            let turn = game.turn(&state);
            if turn != Turn::Terminal && steps >= cap {
                break heuristic_values(game, &state, &cfg.eval);
            }
            let p = match turn {
                Turn::Terminal => break normalized_returns(game, &state),
                Turn::Chance => {
                    // Open loop: outcomes are not stored in the tree.
                    let outcome = game.sample_chance(&state, rng);
                    game.apply(&mut state, outcome);
                    steps += 1;
                    continue;
                }
                Turn::Player(p) => p,
            };
            let legal = legal_in(game, &state, &mut self.legal);
            let avail = sampling == Sampling::Redeterminize;
            match self.chooser.choose(
                game,
                &state,
                legal,
                &mut self.tree,
                node,
                p,
                |a| a,
                cfg,
                avail,
                rng,
            ) {
                Choice::Expand { index, prior } => {
                    let action = legal[index];
                    let child = self.tree.add_child(node, p, action);
                    self.tree.get_mut(child).prior = prior;
                    game.apply(&mut state, action);
                    self.path.push(child);
                    break if cfg.rollout.uses_mast() {
                        self.mast
                            .rollout(game, &mut state, cfg, steps + 1, rng, &mut self.legal)
                    } else {
                        rollout_in(game, &mut state, cfg, steps + 1, rng, &mut self.legal)
                    };
                }
                Choice::Descend(child) => {
                    game.apply(&mut state, self.tree.get(child).action);
                    node = child;
                    self.path.push(node);
                    steps += 1;
                }
            }
        };
        for &i in &self.path {
            let n = self.tree.get_mut(i);
            n.visits += 1;
            n.total += values[n.mover as usize];
        }
        self.tree.observe(&values);
        if cfg.rollout.uses_mast() {
            let tree = &self.tree;
            let tree_moves = self.path[1..].iter().map(|&i| {
                let n = tree.get(i);
                (n.mover, n.action)
            });
            self.mast.record(tree_moves, &values);
        }
    }

    /// Visit counts of the root's children as (action, visits).
    pub fn root_visits(&self) -> impl Iterator<Item = (G::Action, u32)> + '_ {
        self.tree.children(0).map(|c| {
            let n = self.tree.get(c);
            (n.action, n.visits)
        })
    }

    /// The root's children as (action, visits, summed return of the mover).
    pub fn root_totals(&self) -> impl Iterator<Item = (G::Action, u64, f64)> + '_ {
        self.tree.children(0).map(|c| {
            let n = self.tree.get(c);
            (n.action, u64::from(n.visits), n.total)
        })
    }
}

/// Root candidates from (action, visits, summed return) triples of one or
/// more trees: visits and returns summed per action, in first-seen order.
pub fn root_stats<A: Copy + PartialEq>(
    triples: impl Iterator<Item = (A, u64, f64)>,
) -> Vec<crate::agents::RootStat<A>> {
    let mut sums: Vec<(A, u64, f64)> = Vec::new();
    for (a, v, t) in triples {
        match sums.iter_mut().find(|s| s.0 == a) {
            Some(s) => (s.1, s.2) = (s.1 + v, s.2 + t),
            None => sums.push((a, v, t)),
        }
    }
    sums.into_iter()
        .map(|(action, visits, total)| crate::agents::RootStat {
            action,
            visits,
            value: if visits == 0 {
                0.0
            } else {
                total / visits as f64
            },
        })
        .collect()
}

/// Every seat's value under `eval`: the evaluation of a cut-off rollout.
pub fn heuristic_values<G: Game>(game: &G, state: &G::State, eval: &crate::eval::Eval) -> Returns {
    eval.values(game, state)
}

/// The legal actions of `state`, written into the list kept in `buf` (made
/// on the first call): a search's loops keep one list instead of moving a
/// fixed-capacity list by value at every step.
#[inline(always)]
pub fn legal_in<'a, G: Game>(
    game: &G,
    state: &G::State,
    buf: &'a mut Option<G::Actions>,
) -> &'a [G::Action] {
    match buf {
        Some(list) => game.legal_actions_into(state, list),
        None => *buf = Some(game.legal_actions(state)),
    }
    buf.as_deref().expect("filled above")
}

/// Plays `state` out with the configured policy and returns every seat's value
/// in [-1, 1]. `steps` actions have been applied since the search root; the
/// game's length bound caps the rollout too.
pub fn rollout<G: Game>(
    game: &G,
    state: &mut G::State,
    cfg: &SearchConfig,
    steps: u32,
    rng: &mut GameRng,
) -> Returns {
    rollout_in(game, state, cfg, steps, rng, &mut None)
}

/// [`rollout`] with the legal-action list kept in `legal` between steps
/// (and between calls, by a search that keeps it).
pub fn rollout_in<G: Game>(
    game: &G,
    state: &mut G::State,
    cfg: &SearchConfig,
    mut steps: u32,
    rng: &mut GameRng,
    legal: &mut Option<G::Actions>,
) -> Returns {
    let cap = game.max_game_length();
    let mut cut = CutCounter::default();
    loop {
        let turn = game.turn(state);
        if turn == Turn::Terminal {
            return normalized_returns(game, state);
        }
        if cut.reached(cfg, turn) || steps >= cap {
            return heuristic_values(game, state, &cfg.eval);
        }
        let action = match turn {
            Turn::Chance => game.sample_chance(state, rng),
            Turn::Player(p) => {
                let legal = legal_in(game, state, legal);
                match cfg.rollout {
                    // MAST needs a search's statistics (`mast::Mast::rollout`);
                    // without them every mean is unknown, so play uniformly.
                    Rollout::Random | Rollout::Mast { .. } | Rollout::MastGibbs { .. } => {
                        legal[below(rng, legal.len())]
                    }
                    Rollout::Greedy { epsilon }
                        if cfg.candidates == 0 || cfg.candidates as usize >= legal.len() =>
                    {
                        epsilon_greedy(game, state, legal, p, epsilon, rng)
                    }
                    Rollout::Greedy { epsilon } => {
                        sampled_greedy(game, state, legal, p, epsilon, cfg.candidates, rng)
                    }
                }
            }
            Turn::Terminal => unreachable!(),
        };
        game.apply(state, action);
        cut.step(turn);
        steps += 1;
    }
}

/// ε-greedy on a sample: with probability `epsilon` a uniformly random
/// action, else the best-rated of `k` actions drawn at random with
/// replacement (ties to the first drawn). Costs `k` evaluations per step
/// however many actions are legal, and allocates nothing.
pub fn sampled_greedy<G: Game>(
    game: &G,
    state: &G::State,
    legal: &[G::Action],
    p: PlayerId,
    epsilon: f64,
    k: u32,
    rng: &mut GameRng,
) -> G::Action {
    if epsilon > 0.0 && unit(rng) < epsilon {
        return legal[below(rng, legal.len())];
    }
    let mut best = (f64::NEG_INFINITY, legal[0]);
    for _ in 0..k.max(1) {
        let a = legal[below(rng, legal.len())];
        let v = action_value(game, state, a, p, 1, rng);
        if v > best.0 {
            best = (v, a);
        }
    }
    best.1
}

/// The action with the most visits among `(action, visits)` pairs, ties broken
/// uniformly at random; `None` when the list is empty.
pub fn most_visited<A: Copy>(
    counts: impl Iterator<Item = (A, u64)>,
    rng: &mut GameRng,
) -> Option<A> {
    let mut best: Option<(A, u64)> = None;
    let mut ties = 0usize;
    for (a, v) in counts {
        match best {
            Some((_, bv)) if v < bv => {}
            Some((_, bv)) if v == bv => {
                ties += 1;
                if below(rng, ties) == 0 {
                    best = Some((a, v));
                }
            }
            _ => {
                best = Some((a, v));
                ties = 1;
            }
        }
    }
    best.map(|(a, _)| a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::tictactoe::{State, TicTacToe};
    use crate::rng::rng_from_seed;

    /// A depth cut stops after exactly `max_rollout` actions; a turn cut
    /// plays on through chance and the same seat's steps and stops where
    /// another seat is to move; no cut without `max_rollout`.
    #[test]
    fn cuts_stop_at_the_depth_or_at_the_next_mover() {
        let depth = SearchConfig {
            max_rollout: 2,
            ..SearchConfig::default()
        };
        let turn = SearchConfig {
            cut: Cut::Turn,
            ..depth
        };
        let mut c = CutCounter::default();
        c.step(Turn::Player(0));
        assert!(!c.reached(&depth, Turn::Player(0)) && !c.reached(&turn, Turn::Player(1)));
        c.step(Turn::Player(0));
        assert!(c.reached(&depth, Turn::Player(0)) && c.reached(&depth, Turn::Chance));
        assert!(!c.reached(&turn, Turn::Player(0)) && !c.reached(&turn, Turn::Chance));
        assert!(c.reached(&turn, Turn::Player(1)));
        c.step(Turn::Chance);
        assert!(!c.reached(&turn, Turn::Player(0)) && c.reached(&turn, Turn::Player(1)));
        let never = SearchConfig {
            max_rollout: 0,
            ..turn
        };
        assert!(!c.reached(&never, Turn::Player(1)));
    }

    /// Where seats alternate every action, the turn cut is the depth cut: the
    /// same rollouts end in the same states. Where a seat takes several steps
    /// in a row (Hamunaptra), a turn-cut rollout ends where the same random
    /// choices, replayed step by step, first reach another seat's decision
    /// past the depth; most such rollouts run past the depth.
    #[test]
    fn a_turn_cut_plays_on_to_the_next_seat() {
        let depth = SearchConfig {
            max_rollout: 3,
            ..SearchConfig::default()
        };
        let turn = SearchConfig {
            cut: Cut::Turn,
            ..depth
        };
        for seed in 0..20 {
            let (mut a, mut b) = (State::default(), State::default());
            let va = rollout(&TicTacToe, &mut a, &depth, 0, &mut rng_from_seed(seed));
            let vb = rollout(&TicTacToe, &mut b, &turn, 0, &mut rng_from_seed(seed));
            assert_eq!((a, va), (b, vb));
        }
        let g = crate::games::hamunaptra::Hamunaptra::from_spec_text("hamunaptra").unwrap();
        let mut longer = 0;
        for seed in 0..40 {
            let mut rng = rng_from_seed(seed);
            let mut root = g.initial_state(&mut rng);
            crate::game::random_playout(&g, &mut root, &mut rng, seed as u32 * 7);
            let mut cut = root.clone();
            rollout(&g, &mut cut, &turn, 0, &mut rng_from_seed(seed));
            // The same random choices, step by step, to the expected stop.
            let mut s = root.clone();
            let mut r = rng_from_seed(seed);
            let (mut n, mut last) = (0u32, None);
            loop {
                let t = g.turn(&s);
                let stop = match t {
                    Turn::Terminal => true,
                    Turn::Player(p) => n >= 3 && last != Some(p),
                    Turn::Chance => false,
                };
                if stop {
                    break;
                }
                let a = match t {
                    Turn::Chance => g.sample_chance(&s, &mut r),
                    _ => {
                        let legal = g.legal_actions(&s);
                        legal[below(&mut r, legal.len())]
                    }
                };
                if let Turn::Player(p) = t {
                    last = Some(p);
                }
                g.apply(&mut s, a);
                n += 1;
            }
            assert_eq!(cut, s, "seed {seed}");
            longer += usize::from(n > 3);
        }
        assert!(
            longer > 10,
            "only {longer} of 40 rollouts went past the depth"
        );
    }

    /// MAST learns every tree and rollout move's mean return for its mover,
    /// and its ε-greedy choice (ε = 0) is the best-mean legal action, with
    /// untried actions counted as the best.
    #[test]
    fn mast_statistics_follow_the_returns() {
        let g = TicTacToe;
        // X on 0,1 and O on 3,4, X to move: 2 wins at once.
        let s = State {
            marks: [0b11, 0b11000],
            to_move: 0,
        };
        let cfg = SearchConfig {
            budget: Budget::Iterations(400),
            rollout: Rollout::Mast { epsilon: 0.0 },
            ..SearchConfig::default()
        };
        let mut e = Engine::<TicTacToe>::default();
        let mut rng = rng_from_seed(3);
        let legal = g.legal_actions(&s);
        e.reset(legal[0]);
        e.search(&g, &s, 0, &cfg, cfg.budget, Sampling::Fixed, &mut rng);
        let (sum, n) = e.mast.table[&(0, 2)];
        assert!(
            n > 0 && (sum / f64::from(n) - 1.0).abs() < 1e-9,
            "{sum}/{n}"
        );
        let mean = |a: u8| {
            e.mast
                .table
                .get(&(0, a))
                .map_or(1.0, |&(sum, n)| sum / f64::from(n))
        };
        assert!(legal.iter().all(|&a| a == 2 || mean(a) < 1.0));
        assert_eq!(e.mast.pick(0, &legal, cfg.rollout, &mut rng), 2);
        // An action never seen is tried before a known loser.
        e.mast.clear();
        e.mast.table.insert((0, 2), (-3.0, 3));
        assert_ne!(e.mast.pick(0, &[2, 5], cfg.rollout, &mut rng), 2);
        // A reset forgets the statistics.
        e.reset(legal[0]);
        assert!(e.mast.table.is_empty());
    }
    /// Widening: after `n` iterations on a position where every action stays
    /// legal, the root has `⌈n^α⌉` children, the ones the heuristic rates
    /// best; with bias, each child keeps the heuristic's value as its prior.
    #[test]
    fn widening_limits_children_best_first_and_bias_keeps_priors() {
        let g = TicTacToe;
        let s = State::default();
        let legal = g.legal_actions(&s);
        for (n, widen, expected) in [(100u32, 0.3, 4usize), (10, 0.5, 4), (1, 0.5, 1)] {
            let cfg = SearchConfig {
                budget: Budget::Iterations(n),
                widen,
                bias: 0.5,
                ..SearchConfig::default()
            };
            let e = searched_from_the_empty_board(&cfg);
            let kids: Vec<(u8, f32)> = e
                .tree()
                .children(0)
                .map(|c| (e.tree().get(c).action, e.tree().get(c).prior))
                .collect();
            assert_eq!(kids.len(), expected, "n {n}, widen {widen}: {kids:?}");
            let worst_kept = kids.iter().map(|k| k.1).fold(f32::INFINITY, f32::min);
            for &a in legal.iter() {
                let v = value_after(&g, &s, a, 0) as f32;
                match kids.iter().find(|k| k.0 == a) {
                    Some(&(_, prior)) => assert_eq!(prior, v),
                    None => assert!(v <= worst_kept, "{a} ({v}) left out before a worse move"),
                }
            }
        }
        // Without widening every move gets a child; without bias no priors.
        let cfg = SearchConfig {
            budget: Budget::Iterations(100),
            ..SearchConfig::default()
        };
        let e = searched_from_the_empty_board(&cfg);
        assert_eq!(e.tree().children(0).count(), 9);
        assert!(e.tree().children(0).all(|c| e.tree().get(c).prior == 0.0));
    }

    /// The engine after searching tic-tac-toe's empty board with `cfg`.
    fn searched_from_the_empty_board(cfg: &SearchConfig) -> Engine<TicTacToe> {
        let g = TicTacToe;
        let s = State::default();
        let mut e = Engine::<TicTacToe>::default();
        e.reset(g.legal_actions(&s)[0]);
        e.search(
            &g,
            &s,
            0,
            cfg,
            cfg.budget,
            Sampling::Fixed,
            &mut rng_from_seed(2),
        );
        e
    }

    /// The widening factor scales the children allowed: after 10 iterations
    /// with α = 0.5, k = 2 allows ⌈2·√(n+1)⌉, which gives 7 children where
    /// k = 1 gives 4. Specs read `widen_k` and `candidates`, with defaults
    /// that leave the search as it was.
    #[test]
    fn widening_factor_scales_the_children() {
        for (widen_k, expected) in [(1.0, 4usize), (2.0, 7)] {
            let cfg = SearchConfig {
                budget: Budget::Iterations(10),
                widen: 0.5,
                widen_k,
                ..SearchConfig::default()
            };
            let e = searched_from_the_empty_board(&cfg);
            assert_eq!(e.tree().children(0).count(), expected, "k {widen_k}");
        }
        let read = |text: &str| {
            let mut spec = crate::spec::Spec::parse(text).unwrap();
            let c = SearchConfig::from_params(&mut spec.params).unwrap();
            (c.widen_k, c.candidates)
        };
        assert_eq!(read("ismcts(widen_k=3,candidates=4)"), (3.0, 4));
        assert_eq!(read("ismcts"), (1.0, 0));
    }

    /// Sampled ε-greedy (ε = 0) picks the one winning move exactly when it
    /// is among its `k` draws: with 5 legal moves, probability
    /// 1 − 0.8^k (0.2 for k = 1, 0.488 for k = 3), checked over 4,000 picks
    /// within 4 standard deviations (±0.032). A greedy rollout rating every
    /// action (`candidates` 0 or ≥ the legal count) always wins at once; one
    /// rating a single draw does not.
    #[test]
    fn sampled_greedy_rates_only_its_draws() {
        let g = TicTacToe;
        // X on 0,1 and O on 3,4, X to move: 2 wins at once.
        let s = State {
            marks: [0b11, 0b11000],
            to_move: 0,
        };
        let legal = g.legal_actions(&s);
        assert_eq!(legal.len(), 5);
        for &a in &legal {
            if a != 2 {
                assert!(value_after(&g, &s, a, 0) < 1.0, "{a}");
            }
        }
        let mut rng = rng_from_seed(5);
        for (k, p) in [(1u32, 0.2), (3, 0.488)] {
            let n = 4000;
            let wins = (0..n)
                .filter(|_| sampled_greedy(&g, &s, &legal, 0, 0.0, k, &mut rng) == 2)
                .count();
            let rate = wins as f64 / f64::from(n);
            let tol = 4.0 * (p * (1.0 - p) / f64::from(n)).sqrt();
            assert!((rate - p).abs() < tol, "k {k}: {rate} against {p}");
        }
        let first_value = |candidates: u32, rng: &mut GameRng| {
            let cfg = SearchConfig {
                rollout: Rollout::Greedy { epsilon: 0.0 },
                candidates,
                max_rollout: 1,
                ..SearchConfig::default()
            };
            rollout(&g, &mut s.clone(), &cfg, 0, rng)[0]
        };
        for candidates in [0, 5, 9] {
            assert!((0..50).all(|_| first_value(candidates, &mut rng) == 1.0));
        }
        assert!((0..50).any(|_| first_value(1, &mut rng) < 1.0));
    }

    /// With `normalize`, UCB reads means on the scale of the returns seen:
    /// two children whose means differ by 0.02 (a heuristic's narrow band)
    /// are told apart, and the better one is chosen where plain UCB, whose
    /// `c` is for returns in [-1, 1], explores the less visited one. The
    /// range is empty after a reset, and means pass unchanged until it is not.
    #[test]
    fn normalized_means_tell_a_narrow_band_apart() {
        let g = TicTacToe;
        let s = State::default();
        let mut tree: Tree<u8> = Tree::new();
        tree.reset(0);
        assert_eq!(tree.normalized(0.3), 0.3);
        for (a, visits, total) in [(0u8, 100u32, 2.0f64), (4, 50, 0.0)] {
            let c = tree.add_child(0, 0, a);
            let n = tree.get_mut(c);
            (n.visits, n.total) = (visits, total);
        }
        tree.get_mut(0).visits = 150;
        tree.observe(&[0.0, 0.02]);
        tree.observe(&[0.01]);
        assert!((tree.normalized(0.02) - 1.0).abs() < 1e-12);
        assert!((tree.normalized(0.0) + 1.0).abs() < 1e-12);
        let mut chooser = Chooser::default();
        let mut pick = |normalize: bool, tree: &mut Tree<u8>| {
            let cfg = SearchConfig {
                normalize,
                ..SearchConfig::default()
            };
            match chooser.choose(
                &g,
                &s,
                &[0, 4],
                tree,
                0,
                0,
                |a| a,
                &cfg,
                false,
                &mut rng_from_seed(1),
            ) {
                Choice::Descend(c) => tree.get(c).action,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(pick(false, &mut tree), 4);
        assert_eq!(pick(true, &mut tree), 0);
        tree.reset(0);
        assert_eq!(tree.normalized(0.02), 0.02);
    }

    /// A search backs every iteration's returns into the range, so a
    /// search with `normalize` reads means on their own scale; the parameter
    /// is read from an agent spec and is off by default.
    #[test]
    fn searches_record_the_range_and_specs_read_normalize() {
        let g = TicTacToe;
        let s = State::default();
        let cfg = SearchConfig {
            budget: Budget::Iterations(200),
            normalize: true,
            ..SearchConfig::default()
        };
        let mut e = Engine::<TicTacToe>::default();
        e.reset(0);
        e.search(
            &g,
            &s,
            0,
            &cfg,
            cfg.budget,
            Sampling::Fixed,
            &mut rng_from_seed(4),
        );
        // Tic-tac-toe returns are -1, 0 and 1: the range is [-1, 1] after
        // 200 random games, so means are left as they are.
        assert_eq!(e.tree().normalized(0.25), 0.25);
        let read = |text: &str| {
            let mut spec = crate::spec::Spec::parse(text).unwrap();
            SearchConfig::from_params(&mut spec.params)
                .unwrap()
                .normalize
        };
        assert!(read("ismcts(normalize=true)"));
        assert!(!read("ismcts"));
    }

    /// Progressive bias steers the choice among children seen equally often:
    /// with a large weight the child of the higher prior is chosen.
    #[test]
    fn bias_prefers_the_better_prior() {
        let g = TicTacToe;
        let s = State::default();
        let legal = g.legal_actions(&s);
        let mut tree: Tree<u8> = Tree::new();
        tree.reset(0);
        for (a, prior) in [(0u8, -0.5f32), (4, 0.5), (8, 0.0)] {
            let c = tree.add_child(0, 0, a);
            let n = tree.get_mut(c);
            (n.visits, n.total, n.prior) = (3, 0.0, prior);
        }
        tree.get_mut(0).visits = 9;
        let legal3: Vec<u8> = legal
            .iter()
            .copied()
            .filter(|a| [0, 4, 8].contains(a))
            .collect();
        let mut chooser = Chooser::default();
        let mut pick = |bias: f64| {
            let cfg = SearchConfig {
                bias,
                ..SearchConfig::default()
            };
            match chooser.choose(
                &g,
                &s,
                &legal3,
                &mut tree,
                0,
                0,
                |a| a,
                &cfg,
                false,
                &mut rng_from_seed(1),
            ) {
                Choice::Descend(c) => tree.get(c).action,
                other => panic!("{other:?}"),
            }
        };
        // Equal statistics and no bias: the first candidate (newest child).
        assert_eq!(pick(0.0), 8);
        assert_eq!(pick(10.0), 4);
    }
}
