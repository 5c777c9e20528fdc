//! The tournament runner: a list of games fixed up front (index → seed and
//! seating), played in parallel with rayon, written in index order.
//!
//! Results do not depend on the thread count: each game's seed is derived from
//! the master seed and its index, agents are built fresh per game, and rows are
//! written in index order chunk by chunk (a crash loses only the games in flight).

pub mod check;
pub mod identical;
pub mod manifest;
pub mod merge;
pub mod play;
pub mod progress;
pub mod record;
pub mod resume;
pub mod trace;
pub mod watchdog;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use arrayvec::ArrayVec;

use crate::agents::Agent;
use crate::agents::registry::AgentSpec;
use crate::error::SpecError;
use crate::game::Game;
use crate::rng::game_seed;
use record::{AgentSummary, GameRow, SeatSummary};

/// How to run a tournament.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Games requested (rounded up to a multiple of the number of seatings).
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Output directory for games.csv, summary.csv, seats.csv and run.json.
    pub out: Option<PathBuf>,
    /// Directory for one JSON-lines trace per game.
    pub trace: Option<PathBuf>,
    /// Record each search decision's root candidates in the traces.
    pub trace_search: bool,
    /// Overwrite an existing games.csv in `out`.
    pub force: bool,
    /// Continue an interrupted run in `out`.
    pub resume: bool,
    /// Play only shard `k` of `n` (1-based) of the game indices.
    pub shard: Option<(u64, u64)>,
    /// Stop after this many faulty games.
    pub max_errors: Option<u64>,
    /// A decision slower than this forfeits the game.
    pub move_timeout: Option<std::time::Duration>,
    /// Keep every row in memory and return it.
    pub keep_rows: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Count games on this bar instead of drawing one's own (games found
    /// done by a resume included): one bar for a command made of many runs.
    pub progress_into: Option<progress::Progress>,
    /// The command line, recorded in run.json.
    pub command: String,
    /// Duplicate deals: the games of each block of one game per seating share
    /// one seed, so every seating meets the same setup and chance stream.
    pub duplicate: bool,
    /// Sequential stopping: play in batches of [`until_batch`] games until the
    /// 95 % interval half-width of seat 0's and every agent's win rate is at
    /// most this, or `games` (the cap) is reached.
    pub until: Option<f64>,
    /// Fixed seats: agent `s` sits in seat `s` in every game (no rotation, no
    /// rounding of the game count). A cross-play cell fixes who plays which
    /// side; every other run rotates the agents over the seats.
    pub fixed_seats: bool,
    /// Set from another thread to interrupt the run between games (the
    /// Python API's Ctrl-C): the games already played are kept, as after a
    /// kill, and the run ends with [`RunError::Interrupted`].
    pub interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// Games in the whole run (all shards).
    pub games: u64,
    /// Games played by this invocation (not counting resumed ones).
    pub played: u64,
    /// Games found already done when resuming.
    pub resumed: u64,
    /// True when the number of games was rounded up to fill every seating.
    pub rounded: bool,
    /// Games that recorded a fault.
    pub errors: u64,
    /// True when `max_errors` stopped the run early.
    pub stopped: bool,
    /// Games (resumed ones included) that ended at a length or round cap.
    pub capped: u64,
    /// With `until`: why the run stopped (interval reached or cap), as in run.json.
    pub stop_reason: Option<String>,
    /// All rows in game-index order, when `keep_rows` was set.
    pub rows: Vec<GameRow>,
    /// Per agent.
    pub agents: Vec<AgentSummary>,
    /// Per seat.
    pub seats: Vec<SeatSummary>,
}

/// A run that could not start or could not write its results.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad specs or counts.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// An output file or directory.
    #[error("cannot write {path}: {why}")]
    Output {
        /// The path.
        path: String,
        /// The reason.
        why: String,
    },
    /// Existing results that do not fit this run.
    #[error("cannot resume in {path}: {why}")]
    Resume {
        /// The directory.
        path: String,
        /// The reason.
        why: String,
    },
    /// A bug in the game's own code (setup, apply, chance, legal actions, views):
    /// no agent is at fault, and every later game could hit it too.
    #[error(
        "game error in {game}, game {index}: {why} (a bug in the game or its data, not an agent's fault)"
    )]
    Game {
        /// The game spec.
        game: String,
        /// The game index.
        index: u64,
        /// What went wrong.
        why: String,
    },
    /// An agent that could not go on stopped the run (a human at the end of
    /// input, a Python agent that raised): the games before it are kept.
    #[error("stopped at game {index}: {why} (that game is not recorded)")]
    Agent {
        /// The game index.
        index: u64,
        /// What the agent said.
        why: String,
    },
    /// [`RunOptions::interrupt`] was set.
    #[error("interrupted: the games played so far are kept (--resume finishes the run)")]
    Interrupted,
    /// Shard directories that do not add up to one run.
    #[error("cannot merge {path}: {why}")]
    Merge {
        /// The shard or output directory.
        path: String,
        /// The reason.
        why: String,
    },
}

fn output_error(path: &std::path::Path, e: impl std::fmt::Display) -> RunError {
    RunError::Output {
        path: path.display().to_string(),
        why: e.to_string(),
    }
}

/// Running per-agent and per-seat tallies.
struct Tallies {
    agents: Vec<record::Tally>,
    seats: Vec<record::Tally>,
}

impl Tallies {
    fn new(agents: usize, seats: usize) -> Self {
        Tallies {
            agents: vec![Default::default(); agents],
            seats: vec![Default::default(); seats],
        }
    }
    fn add(&mut self, r: &GameRow) {
        self.agents[r.agent_index].add(r);
        self.seats[r.seat as usize].add(r);
    }
    fn finish(mut self, labels: &[String]) -> (Vec<AgentSummary>, Vec<SeatSummary>) {
        self.agents
            .iter_mut()
            .chain(self.seats.iter_mut())
            .for_each(record::Tally::finish);
        let agents = self
            .agents
            .into_iter()
            .enumerate()
            .map(|(i, tally)| AgentSummary {
                agent_index: i,
                agent: labels[i].clone(),
                tally,
            })
            .collect();
        let seats = self
            .seats
            .into_iter()
            .enumerate()
            .map(|(s, tally)| SeatSummary {
                seat: s as u8,
                tally,
            })
            .collect();
        (agents, seats)
    }
}

/// The seating of game `index`: seat `s` gets agent `(s + index) mod n`, so
/// over every block of `n` games each agent sits in each seat once.
pub fn seating(index: u64, seats: usize) -> ArrayVec<usize, { crate::game::MAX_PLAYERS }> {
    (0..seats).map(|s| (s + index as usize) % seats).collect()
}

/// The seating of game `index` in a run with `fixed` seats ([`RunOptions::fixed_seats`])
/// or rotated ones ([`seating`]).
pub fn seating_of(
    index: u64,
    seats: usize,
    fixed: bool,
) -> ArrayVec<usize, { crate::game::MAX_PLAYERS }> {
    if fixed {
        (0..seats).collect()
    } else {
        seating(index, seats)
    }
}

/// Games actually played for `requested`: rounded up to a multiple of `seats`.
pub fn rounded_games(requested: u64, seats: usize) -> u64 {
    requested.div_ceil(seats as u64) * seats as u64
}

/// The seed of game `index`, written in games.csv and traces: its setup and
/// chance stream. With duplicate deals, the `seats` games of one seat rotation
/// are one deal and share the deal's seed (the same setup, and the same chance
/// stream: deck order, dice, tiles by position in the stream), with the agents
/// rotated over the seats; the view and seat streams still come from
/// `game_seed(master, index)`.
pub fn seed_of(master: u64, index: u64, seats: usize, duplicate: bool) -> u64 {
    if duplicate {
        game_seed(master, index / seats as u64)
    } else {
        game_seed(master, index)
    }
}

/// Games per batch of a run with `until`: fixed by the seat count alone, so
/// the stopping point does not depend on the thread count.
pub fn until_batch(seats: usize) -> u64 {
    rounded_games(200, seats)
}

/// The widest 95 % Wilson half-width of seat 0's and every agent's win rate.
fn widest_half_width(t: &Tallies) -> f64 {
    t.seats
        .iter()
        .take(1)
        .chain(&t.agents)
        .map(|t| {
            let points = t.wins as f64 + 0.5 * t.draws as f64;
            let (lo, hi) = crate::stats::wilson(points, t.games as f64, crate::stats::Z95);
            (hi - lo) / 2.0
        })
        .fold(0.0, f64::max)
}

pub use crate::agents::AgentFactory;

/// Plays one game of the run and returns its rows.
pub fn play_indexed<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    labels: &[String],
    index: u64,
    opts: &RunOptions,
) -> PlayedGame {
    play_indexed_with(game, specs, &[], labels, index, opts)
}

/// [`play_indexed`] where `factories[a]`, when given, builds agent `a` instead of its spec.
pub fn play_indexed_with<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    labels: &[String],
    index: u64,
    opts: &RunOptions,
) -> PlayedGame {
    let raw = play_raw(game, specs, factories, labels, index, opts);
    PlayedGame {
        rows: GameRow::from_result(
            index,
            raw.seed,
            &game.spec(),
            &raw.seating,
            labels,
            &raw.result,
        ),
        metrics: match raw.stop {
            None => record::MetricRow::from_result(index, &raw.result),
            Some(_) => Vec::new(),
        },
        stop: raw.stop,
    }
}

/// One game of the run before it becomes rows.
struct RawGame {
    seating: ArrayVec<usize, { crate::game::MAX_PLAYERS }>,
    seed: u64,
    result: play::GameResult,
    stop: Option<Stop>,
}

/// The fresh agents of one game in seat order, from their factories (or
/// specs); with `slot`, each wrapped to leave its root candidates there.
fn seat_agents<G: Game>(
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    seating: &[usize],
    slot: Option<&trace::SearchSlot<G::Action>>,
) -> ArrayVec<Box<dyn Agent<G>>, { crate::game::MAX_PLAYERS }> {
    let mut agents: ArrayVec<Box<dyn Agent<G>>, { crate::game::MAX_PLAYERS }> = ArrayVec::new();
    for &a in seating {
        if let Some(Some(make)) = factories.get(a) {
            agents.push(make());
            continue;
        }
        match specs[a].build::<G>() {
            Ok(agent) => agents.push(agent),
            Err(e) => unreachable!("agent specs are validated before the run: {e}"),
        }
    }
    if let Some(slot) = slot {
        agents = agents
            .into_iter()
            .map(|a| Box::new(trace::Recorder::new(a, slot.clone())) as Box<dyn Agent<G>>)
            .collect();
    }
    agents
}

/// Plays game `index` of the run, with its trace if asked for.
fn play_raw<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    labels: &[String],
    index: u64,
    opts: &RunOptions,
) -> RawGame {
    let (master, trace, move_timeout) = (opts.seed, opts.trace.as_ref(), opts.move_timeout);
    let n = game.num_players();
    let seating = seating_of(index, n, opts.fixed_seats);
    let seed = seed_of(master, index, n, opts.duplicate);
    // With --trace-search each agent leaves its root candidates in one slot,
    // read by the step hook right after the decision.
    let slot: Option<trace::SearchSlot<G::Action>> =
        (opts.trace_search && trace.is_some()).then(Default::default);
    let mut agents = seat_agents(specs, factories, &seating, slot.as_ref());
    let mut log = Vec::new();
    let mut search = Vec::new();
    let mut record = |_: &G::State, player: Option<u8>, action: G::Action| {
        if trace.is_some() {
            log.push(play::Step { player, action });
            let taken = slot
                .as_ref()
                .and_then(|slot| slot.lock().ok().and_then(|mut s| s.take()));
            search.push(if player.is_some() { taken } else { None });
        }
    };
    // A panic outside the agents' decisions is a bug in the game's own code.
    let played = play::contained(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            play::play_game_split(
                game,
                &mut agents,
                seed,
                game_seed(master, index),
                move_timeout,
                &mut record,
            )
        }))
    });
    let result = match played {
        Ok(r) => r,
        Err(panic) => {
            if let Some(crate::agents::Abort(why)) = panic.downcast_ref::<crate::agents::Abort>() {
                return RawGame {
                    result: play::GameResult::faulted(n, why.clone()),
                    seating,
                    seed,
                    stop: Some(Stop::Agent(why.clone())),
                };
            }
            let why = format!(
                "the game's own code panicked: {}",
                play::panic_text(&*panic)
            );
            return RawGame {
                result: play::GameResult::faulted(n, why.clone()),
                seating,
                seed,
                stop: Some(Stop::Game(why)),
            };
        }
    };
    let mut stop = None;
    if let Some(dir) = trace {
        let header = trace::Header {
            game: game.spec(),
            agents: seating.iter().map(|&a| labels[a].clone()).collect(),
            seed,
            game_index: index,
        };
        // A trace that cannot be written stops the run: no agent is at fault.
        let path = dir.join(format!("game-{index:08}.jsonl"));
        if let Err(e) = trace::write_with_search(game, &path, &header, &log, &search, &result) {
            stop = Some(Stop::Trace(path, e.to_string()));
        }
    }
    RawGame {
        seating,
        seed,
        result,
        stop,
    }
}

/// Why a game stops the whole run instead of being recorded.
#[derive(Clone, Debug)]
pub enum Stop {
    /// The game's own code failed (see [`RunError::Game`]).
    Game(String),
    /// The game's trace could not be written.
    Trace(PathBuf, String),
    /// An agent could not go on (see [`crate::agents::Abort`]).
    Agent(String),
}

/// The rows one game produced.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// games.csv rows, one per seat.
    pub rows: Vec<GameRow>,
    /// metrics.csv rows.
    pub metrics: Vec<record::MetricRow>,
    /// Set when the game must stop the run (nothing of it is recorded).
    pub stop: Option<Stop>,
}

/// The run's two raw files. Whole games' lines are appended metrics first,
/// then games, each flushed: after a crash metrics.csv covers at least every
/// game in games.csv, and resume trims the rest.
struct RawFiles {
    games: (PathBuf, std::fs::File),
    metrics: (PathBuf, std::fs::File),
    headers_written: bool,
}

impl RawFiles {
    fn append(&mut self, games: &[u8], metrics: &[u8]) -> Result<(), RunError> {
        use std::io::Write as _;
        let (mut games_head, mut metrics_head): (&[u8], &[u8]) = (b"", b"");
        if !self.headers_written {
            // Written with the first lines, as a csv writer would, and the
            // metrics header even before any metric: the file describes itself.
            metrics_head = record::METRICS_HEADER.as_bytes();
            if !games.is_empty() {
                games_head = record::GAMES_HEADER.as_bytes();
            }
            self.headers_written = true;
        }
        for (path, file, head, body) in [
            (&self.metrics.0, &mut self.metrics.1, metrics_head, metrics),
            (&self.games.0, &mut self.games.1, games_head, games),
        ] {
            file.write_all(head)
                .and_then(|()| file.write_all(body))
                .and_then(|()| file.flush())
                .map_err(|e| output_error(path, e))?;
        }
        Ok(())
    }
}

/// The game indices of a run or shard in order: position `pos` plays game
/// `first + pos * step`. Computed, not stored, so a run of any length costs
/// no memory for its schedule.
#[derive(Clone, Copy, Debug)]
pub struct Positions {
    first: u64,
    step: u64,
    len: usize,
}

impl Positions {
    /// The indices of shard `k/n` (or of the whole run) of `total` games.
    pub fn of(total: u64, shard: Option<(u64, u64)>) -> Positions {
        let (k, n) = shard.unwrap_or((1, 1));
        let len = total.saturating_sub(k - 1).div_ceil(n);
        Positions {
            first: k - 1,
            step: n,
            len: len as usize,
        }
    }
    /// The game index at `pos`.
    pub fn index(&self, pos: usize) -> u64 {
        self.first + pos as u64 * self.step
    }
    /// Positions in all.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Whether game `index` stands at one of the first `done` positions.
    pub fn among_first(&self, index: u64, done: usize) -> bool {
        index >= self.first
            && (index - self.first).is_multiple_of(self.step)
            && (index - self.first) / self.step < done as u64
    }
}

/// What a worker reports of one game; its lines sit in its batch's buffers.
struct Played {
    /// Ends of its lines in the batch's games and metrics buffers.
    ends: (usize, usize),
    index: u64,
    seats: ArrayVec<(usize, crate::game::Outcome, f64), { crate::game::MAX_PLAYERS }>,
    error: bool,
    truncated: bool,
    stop: Option<Stop>,
    /// The games.csv rows, only when the caller keeps them.
    rows: Vec<GameRow>,
}

/// Consecutive games of one worker, formatted in the worker.
struct Batch {
    first: usize,
    games: Vec<u8>,
    metrics: Vec<u8>,
    played: Vec<Played>,
}

/// What the writer's role is told: a game in position order, that a batch of this
/// many games was taken, or that time passed.
enum Event<'a> {
    Game(&'a Played, &'a [u8], &'a [u8]),
    Taken(usize),
    Tick,
}

/// Positions a worker claims at once, at most: its block grows from one
/// game (doubling) and shrinks to what takes about [`BLOCK_TIME`], so a slow
/// game is sent soon and claiming, sending and sorting cost nothing next to
/// fast ones.
const MAX_BLOCK: usize = 256;

/// The time a worker's block of games should take.
const BLOCK_TIME: std::time::Duration = std::time::Duration::from_millis(2);

/// How far ahead of the written position each worker may claim, in positions: this
/// many, or four of its blocks if more, so that the workers rarely wait for
/// the writer's role while memory stays bounded by the blocks in flight.
const WINDOW: usize = 128;

/// A worker leaves what it has after this long, however few games.
const SEND_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// The writer appends its games.csv and metrics.csv lines once they hold
/// this many bytes together, so its buffer does not grow with a fast run.
const FLUSH_BYTES: usize = 1 << 18;

/// The writer appends finished games at least this often.
const FLUSH_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Plays positions `from..to` on `threads` workers and hands each finished
/// game to `take` in position order, with a `Tick` at least every 100 ms,
/// until every game is taken or `take` returns false. Workers claim blocks
/// of positions from one atomic counter, play and format them, and leave
/// them among the ready blocks; they stay within a window of the written
/// position, so memory does not grow with the run.
///
/// There is no writer thread: the worker that finishes a block takes the
/// writer's role if no other worker holds it, and hands every ready block
/// in order to `take`; a worker that finds the role taken goes back to its
/// games at once, its block handed over by the holder. So `--threads N`
/// keeps N cores busy with nothing idle beside them, and no worker ever
/// waits on a lock held for longer than a map insertion.
#[allow(clippy::too_many_arguments)]
fn play_span<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    labels: &[String],
    opts: &RunOptions,
    positions: Positions,
    (from, to): (usize, usize),
    threads: usize,
    take: Take<'_>,
) -> Result<(), RunError> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let spec_text = game.spec();
    let escape = |s: &str| {
        let mut v = Vec::new();
        record::push_field(&mut v, s);
        v
    };
    let span = Span {
        game,
        specs,
        factories,
        labels,
        opts,
        positions,
        game_field: escape(&spec_text),
        label_fields: labels.iter().map(|l| escape(l)).collect(),
        spec_text,
    };
    let shared = Shared {
        next: AtomicUsize::new(from),
        written: AtomicUsize::new(from),
        halt: AtomicBool::new(false),
        ready: Mutex::new(std::collections::BTreeMap::new()),
        writer: Mutex::new((from, take)),
        spare: Mutex::new(Vec::new()),
        threads,
    };
    let main = std::thread::current();
    let running = AtomicUsize::new(threads);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let spawned = std::thread::Builder::new().spawn_scoped(scope, || {
                shared.work(&span, to);
                running.fetch_sub(1, Ordering::AcqRel);
                main.unpark();
            });
            if let Err(e) = spawned {
                shared.halt.store(true, Ordering::Relaxed);
                return Err(
                    SpecError::Invalid(format!("cannot start {threads} threads: {e}")).into(),
                );
            }
        }
        // This thread only ticks, so that what is ready is written on time
        // while the workers are deep in long games.
        while running.load(Ordering::Acquire) > 0 {
            std::thread::park_timeout(std::time::Duration::from_millis(100));
            shared.hand_over(true);
        }
        Ok(())
    })
}

/// Where [`play_span`] hands each game over (the writer's side).
type Take<'t> = &'t mut (dyn FnMut(Event<'_>) -> bool + Send);

/// What every game of a span is played and formatted with.
struct Span<'a, G: Game> {
    game: &'a G,
    specs: &'a [AgentSpec],
    factories: &'a [Option<AgentFactory<G>>],
    labels: &'a [String],
    opts: &'a RunOptions,
    positions: Positions,
    spec_text: String,
    /// The game spec and the labels as CSV fields, escaped once.
    game_field: Vec<u8>,
    label_fields: Vec<Vec<u8>>,
}

impl<G: Game> Span<'_, G> {
    /// Plays position `pos` into `batch`, its lines formatted; returns the
    /// game's wall time in µs.
    fn play_into(&self, pos: usize, batch: &mut Batch) -> u64 {
        let index = self.positions.index(pos);
        let raw = play_raw(
            self.game,
            self.specs,
            self.factories,
            self.labels,
            index,
            self.opts,
        );
        let r = &raw.result;
        if raw.stop.is_none() {
            record::push_game_rows(
                &mut batch.games,
                index,
                raw.seed,
                &self.game_field,
                &raw.seating,
                &self.label_fields,
                r,
            );
            record::push_metric_rows(&mut batch.metrics, index, r);
        }
        batch.played.push(Played {
            ends: (batch.games.len(), batch.metrics.len()),
            index,
            seats: r
                .seats
                .iter()
                .zip(&raw.seating)
                .map(|(s, &a)| (a, s.outcome, s.score))
                .collect(),
            error: r.error.is_some(),
            truncated: r.truncated,
            rows: if self.opts.keep_rows && raw.stop.is_none() {
                GameRow::from_result(
                    index,
                    raw.seed,
                    &self.spec_text,
                    &raw.seating,
                    self.labels,
                    r,
                )
            } else {
                Vec::new()
            },
            stop: raw.stop,
        });
        raw.result.wall_us
    }
}

/// What the workers of a span share.
struct Shared<'t> {
    /// The next position to claim.
    next: std::sync::atomic::AtomicUsize,
    /// Positions handed over so far.
    written: std::sync::atomic::AtomicUsize,
    /// Set when `take` stops the span.
    halt: std::sync::atomic::AtomicBool,
    /// Blocks played but not yet handed over, by first position.
    ready: Mutex<std::collections::BTreeMap<usize, Batch>>,
    /// The writer's role: the next position to hand over, and where to.
    writer: Mutex<(usize, Take<'t>)>,
    /// Handed-over blocks, emptied, for workers to fill again: a fast run then
    /// allocates and frees nothing per block. (Freed block buffers let the
    /// allocator return memory to the kernel and fault it back in, which at
    /// two threads cost Connect Four 9 % more CPU per game in page faults and
    /// TLB shootdowns.)
    spare: Mutex<Vec<Batch>>,
    threads: usize,
}

/// Locks `m`, taking a poisoned lock as it is.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared<'_> {
    /// Takes the writer's role if no other thread holds it and hands every
    /// ready block over in position order; `tick`: also tells `take` that
    /// time passed (the ticking thread's call).
    fn hand_over(&self, tick: bool) {
        use std::sync::atomic::Ordering;
        loop {
            let Ok(mut role) = self.writer.try_lock() else {
                // The holder hands this block over too (see below).
                return;
            };
            let (pos, take) = &mut *role;
            loop {
                let Some(mut batch) = lock(&self.ready).remove(pos) else {
                    break;
                };
                let mut starts = (0, 0);
                for p in &batch.played {
                    let lines = (
                        &batch.games[starts.0..p.ends.0],
                        &batch.metrics[starts.1..p.ends.1],
                    );
                    starts = p.ends;
                    if !take(Event::Game(p, lines.0, lines.1)) {
                        self.halt.store(true, Ordering::Relaxed);
                        return;
                    }
                    *pos += 1;
                }
                self.written.store(*pos, Ordering::Release);
                take(Event::Taken(batch.played.len()));
                batch.games.clear();
                batch.metrics.clear();
                batch.played.clear();
                let mut spare = lock(&self.spare);
                if spare.len() < 4 * self.threads {
                    spare.push(batch);
                }
            }
            if tick && !take(Event::Tick) {
                self.halt.store(true, Ordering::Relaxed);
                return;
            }
            let next = *pos;
            drop(role);
            // A block left while this thread held the role, by a worker that
            // found it taken, is handed over now.
            if !lock(&self.ready).contains_key(&next) {
                return;
            }
        }
    }

    /// Leaves a played block among the ready ones and hands over what it can.
    fn leave(&self, batch: Batch) {
        lock(&self.ready).insert(batch.first, batch);
        self.hand_over(false);
    }

    /// An empty block from position `first`: a spare one, or a new one with
    /// room for `sizes`.
    fn new_batch(&self, first: usize, (games, metrics, played): (usize, usize, usize)) -> Batch {
        match lock(&self.spare).pop() {
            Some(batch) => Batch { first, ..batch },
            None => Batch {
                first,
                games: Vec::with_capacity(games),
                metrics: Vec::with_capacity(metrics),
                played: Vec::with_capacity(played),
            },
        }
    }

    /// A worker: claims blocks of positions below `to`, within the window of
    /// the written position, plays them and leaves them, until none is left
    /// or the span halts.
    fn work<G: Game>(&self, span: &Span<'_, G>, to: usize) {
        use std::sync::atomic::Ordering;
        let mut block = 1;
        // The last batch's sizes, to allocate the next one's buffers once.
        let mut sizes = (0, 0, 0);
        loop {
            let start = self.next.fetch_add(block, Ordering::Relaxed);
            if start >= to || self.halt.load(Ordering::Relaxed) {
                return;
            }
            let window = self.threads * WINDOW.max(4 * block);
            while start >= self.written.load(Ordering::Acquire) + window {
                if self.halt.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            let end = (start + block).min(to);
            let mut batch = self.new_batch(start, sizes);
            let began = std::time::Instant::now();
            // Time since the last send, from the games' own clocks.
            let mut since = 0u64;
            for pos in start..end {
                if self.halt.load(Ordering::Relaxed) {
                    return;
                }
                since += span.play_into(pos, &mut batch);
                if pos + 1 < end && since >= SEND_EVERY.as_micros() as u64 {
                    let full = std::mem::replace(&mut batch, self.new_batch(pos + 1, (0, 0, 0)));
                    self.leave(full);
                    since = 0;
                }
            }
            let per_game = began.elapsed() / (end - start) as u32;
            let fits = BLOCK_TIME.as_nanos() / per_game.as_nanos().max(1);
            block = (2 * block).min(fits as usize).clamp(1, MAX_BLOCK);
            sizes = (batch.games.len(), batch.metrics.len(), batch.played.len());
            self.leave(batch);
        }
    }
}

/// The files a run and `summarize` write into an output directory. `--force`
/// removes every one of them first, so that no report, rating or chart of an
/// earlier run survives beside the new games.
pub const RUN_FILES: &[&str] = &[
    crate::files::GAMES_FILE,
    crate::files::METRICS_FILE,
    crate::files::SUMMARY_FILE,
    crate::files::SEATS_FILE,
    crate::files::MANIFEST_FILE,
    crate::files::SAMPLE_FILE,
    crate::files::SAMPLE_METRICS_FILE,
    crate::files::HTML_FILE,
    crate::files::MARKDOWN_FILE,
    crate::files::REPORT_FILE,
    crate::files::RATINGS_FILE,
    crate::files::SEATS_PLOT,
    crate::files::ROLES_PLOT,
    crate::files::TURNS_PLOT,
];

/// Removes what an earlier run left in `dir` (see [`RUN_FILES`]), with any
/// temporary file of an interrupted write.
fn clear_previous_run(dir: &Path) -> Result<(), RunError> {
    let entries = std::fs::read_dir(dir).map_err(|e| output_error(dir, e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = RUN_FILES.contains(&name.as_str())
            || RUN_FILES
                .iter()
                .any(|f| name.starts_with(f) && name.ends_with(".tmp"));
        if ours && entry.file_type().is_ok_and(|t| !t.is_dir()) {
            let p = entry.path();
            std::fs::remove_file(&p).map_err(|e| output_error(&p, e))?;
        }
    }
    Ok(())
}

/// The traces of an earlier run in `dir`.
fn traces_in(dir: &Path) -> Result<Vec<std::path::PathBuf>, RunError> {
    let entries = std::fs::read_dir(dir).map_err(|e| output_error(dir, e))?;
    Ok(entries
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("game-") && name.ends_with(".jsonl")
        })
        .map(|e| e.path())
        .collect())
}

/// A trace directory holding traces of another run is refused without
/// `--force` (the games would mix); checked before anything is written.
fn check_trace_dir(dir: &Path, force: bool) -> Result<(), RunError> {
    match traces_in(dir)?.first() {
        Some(p) if !force => Err(output_error(
            p,
            "the trace directory already holds traces (use --force to replace them, or another --trace)",
        )),
        _ => Ok(()),
    }
}

/// Empties a trace directory of an earlier run's traces (`--force`).
fn clear_trace_dir(dir: &Path) -> Result<(), RunError> {
    for p in traces_in(dir)? {
        std::fs::remove_file(&p).map_err(|e| output_error(&p, e))?;
    }
    Ok(())
}

/// The largest `--games` of one run: far beyond any study, and small enough
/// that rounding up to a multiple of the seats never overflows.
pub const MAX_GAMES: u64 = 1_000_000_000_000;

/// The most worker threads any command starts: beyond a few per core they
/// only cost memory and, past the system's limit, fail to start.
pub fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A count of games as typed (`text`), checked against [`MAX_GAMES`]: the
/// one check of the command line and the Python API.
pub fn check_games(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n @ 1..=MAX_GAMES) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of games from 1 to {MAX_GAMES}"
        )),
    }
}

/// A count of worker threads as typed (`text`), checked against
/// [`max_threads`]: the one check of the command line and the Python API.
pub fn check_threads(text: &str) -> Result<usize, String> {
    let max = max_threads();
    match text.trim().parse::<usize>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!(
            "'{text}' is not a thread count from 0 (one per core) to {max} (4 per core)"
        )),
    }
}

/// A thread pool of `threads` workers (0: one per core): the one place every
/// command that plays or searches in parallel starts its threads.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// Runs a tournament of `game` between `specs` (one per seat).
///
/// ```
/// use boardlab::prelude::*;
/// use boardlab::games::connect4::Connect4;
///
/// let specs = [AgentSpec::parse("greedy")?, AgentSpec::parse("random")?];
/// let opts = RunOptions { games: 10, seed: 7, ..RunOptions::default() };
/// let out = run(&Connect4, &specs, &opts)?;
/// // Seats rotate: each agent plays every seat equally often.
/// assert_eq!(out.seats.len(), 2);
/// assert_eq!(out.agents[1].tally.games, 10);
/// // The same seed gives the same games.
/// assert_eq!(run(&Connect4, &specs, &opts)?.agents[0].tally, out.agents[0].tally);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    opts: &RunOptions,
) -> Result<RunOutput, RunError> {
    run_with(game, specs, &[], opts)
}

/// [`run`] where `factories[a]`, when given, builds agent `a` for each game
/// instead of its spec; the spec then only names it (label and run.json).
///
/// ```
/// use std::sync::Arc;
/// use boardlab::prelude::*;
/// use boardlab::games::tictactoe::TicTacToe;
///
/// struct First;
/// impl Agent<TicTacToe> for First {
///     fn act(&mut self, d: Decision<'_, TicTacToe>) -> u8 {
///         d.legal[0]
///     }
/// }
///
/// let specs = [AgentSpec::custom("first"), AgentSpec::parse("random")?];
/// let first: AgentFactory<TicTacToe> = Arc::new(|| Box::new(First));
/// let opts = RunOptions { games: 20, ..RunOptions::default() };
/// let out = run_with(&TicTacToe, &specs, &[Some(first), None], &opts)?;
/// assert_eq!(out.agents[0].agent, "first");
/// assert_eq!(out.errors, 0); // the first legal action is always legal
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_with<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    opts: &RunOptions,
) -> Result<RunOutput, RunError> {
    let plan = plan(game, specs, factories, opts)?;
    let mut recorded = Recorded::new(game.num_players());
    // The output folder is held for the whole run; every refusal comes
    // before anything is written or removed, and leaves no folder behind.
    let _held = claim_outputs(opts)?;
    let files = open_outputs(game, opts, &plan, &mut recorded)?;
    let bar = match &opts.progress_into {
        Some(shared) => {
            shared.inc(recorded.done as u64);
            shared.clone()
        }
        None => {
            progress::Progress::new((plan.positions.len() - recorded.done) as u64, opts.progress)
        }
    };
    let resumed = recorded.done as u64;
    let mut writer = Writer {
        files,
        pending: (Vec::new(), Vec::new()),
        last_flush: std::time::Instant::now(),
        write_error: None,
        failure: None,
        // --max-errors counts this invocation's faults, so a resumed run continues.
        resumed_errors: recorded.errors,
        stopped: false,
        interrupted: false,
        recorded: &mut recorded,
        bar: &bar,
        opts,
    };
    let stop_reason = play_rest(game, specs, &plan, opts, &mut writer)?;
    let stopped = writer.stopped;
    if opts.progress_into.is_none() {
        bar.finish_and_clear();
    }
    finish(opts, &plan, recorded, stopped, stop_reason, resumed)
}

/// What a run plays, settled before anything is written.
struct Plan<G: Game> {
    /// One factory per agent, each spec parsed and checked once.
    factories: Vec<Option<AgentFactory<G>>>,
    labels: Vec<String>,
    /// Games in the whole run (all shards).
    total: u64,
    identity: manifest::Identity,
    positions: Positions,
}

/// The plan phase: checks the agents and options, and settles the games
/// to play and the run's identity.
fn plan<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    opts: &RunOptions,
) -> Result<Plan<G>, RunError> {
    let n = game.num_players();
    if specs.len() != n {
        return Err(SpecError::Invalid(format!(
            "{} needs exactly {n} agents, one per seat; {} given",
            game.spec(),
            specs.len()
        ))
        .into());
    }
    // Each spec is parsed and checked once here, not again for every game.
    let factories = specs
        .iter()
        .enumerate()
        .map(|(a, s)| match factories.get(a) {
            Some(Some(make)) => Ok(Some(make.clone())),
            _ => {
                let make = s.factory::<G>()?;
                s.check_game(game)?;
                Ok(Some(make))
            }
        })
        .collect::<Result<Vec<_>, SpecError>>()?;
    check_counts(opts)?;
    let labels: Vec<String> = specs.iter().map(|s| s.label.clone()).collect();
    let total = if opts.fixed_seats {
        opts.games
    } else {
        rounded_games(opts.games, n)
    };
    let identity = manifest::Identity {
        game: game.spec(),
        agents: labels.clone(),
        resolved_agents: specs.iter().map(|s| s.spec.to_string()).collect(),
        seed: opts.seed,
        games: total,
        duplicate: opts.duplicate,
        fixed_seats: opts.fixed_seats,
        until: opts.until.map(|ci| format!("ci={ci}")),
        move_timeout_ms: opts.move_timeout.map(|d| d.as_millis() as u64),
        data_files: crate::provenance::data_files(&game.spec()),
        version: crate::provenance::VERSION.to_string(),
        code: crate::provenance::CODE_FINGERPRINT.to_string(),
    };
    Ok(Plan {
        factories,
        labels,
        total,
        identity,
        positions: Positions::of(total, opts.shard),
    })
}

/// The game count, the shard and `until` of a run.
fn check_counts(opts: &RunOptions) -> Result<(), RunError> {
    if opts.games == 0 {
        return Err(SpecError::Invalid("--games must be at least 1".into()).into());
    }
    if let Some((k, m)) = opts.shard
        && (m == 0 || k == 0 || k > m)
    {
        return Err(SpecError::Invalid(format!(
            "bad shard {k}/{m}: expected K/N with 1 <= K <= N"
        ))
        .into());
    }
    if let Some(ci) = opts.until {
        if !(ci > 0.0 && ci < 0.5) {
            return Err(SpecError::Invalid(format!(
                "bad --until ci={ci}: the half-width must be between 0 and 0.5"
            ))
            .into());
        }
        if opts.shard.is_some() {
            return Err(SpecError::Invalid(
                "--until cannot be combined with --shard: the stopping rule needs every game"
                    .into(),
            )
            .into());
        }
    }
    Ok(())
}

/// What the run has recorded: the resumed games first, then the ones played.
struct Recorded {
    tallies: Tallies,
    /// Every row, with `keep_rows`.
    kept: Vec<GameRow>,
    errors: u64,
    capped: u64,
    /// Positions done.
    done: usize,
}

impl Recorded {
    fn new(seats: usize) -> Self {
        Recorded {
            tallies: Tallies::new(seats, seats),
            kept: Vec::new(),
            errors: 0,
            capped: 0,
            done: 0,
        }
    }
}

/// The output and trace folders, held (and on refusal removed again) for
/// the whole run.
struct Held {
    _out: Option<crate::fsutil::OutputLock>,
    _traces: Option<crate::fsutil::MadeDir>,
}

/// Claims the output folder and the trace folder, refusing earlier results
/// in either unless resumed or forced.
fn claim_outputs(opts: &RunOptions) -> Result<Held, RunError> {
    let out = match &opts.out {
        None => None,
        Some(dir) => Some(crate::fsutil::OutputLock::claim(dir).map_err(|e| output_error(dir, e))?),
    };
    if let Some(dir) = &opts.out
        && !opts.resume
        && !opts.force
        && dir.join("games.csv").exists()
    {
        return Err(output_error(
            &dir.join("games.csv"),
            "it already holds results (use --resume to continue them, --force to overwrite, or another --out)",
        ));
    }
    let traces = match &opts.trace {
        None => None,
        Some(dir) => {
            let made = crate::fsutil::MadeDir::make(dir).map_err(|e| output_error(dir, e))?;
            if !opts.resume {
                check_trace_dir(dir, opts.force)?;
            }
            Some(made)
        }
    };
    Ok(Held {
        _out: out,
        _traces: traces,
    })
}

/// The resume phase: opens the raw files, with `resume` reading the games
/// already done into `recorded`, otherwise afresh (with `force`, clearing
/// the earlier run and its traces), and writes run.json.
fn open_outputs<G: Game>(
    game: &G,
    opts: &RunOptions,
    plan: &Plan<G>,
    recorded: &mut Recorded,
) -> Result<Option<RawFiles>, RunError> {
    let files = match &opts.out {
        None => None,
        Some(dir) => {
            let files = if opts.resume {
                resume_files(game, dir, opts, plan, recorded)?
            } else {
                fresh_files(dir, opts.force)?
            };
            manifest::write(dir, &start_manifest(opts, plan))
                .map_err(|e| output_error(&dir.join(crate::files::MANIFEST_FILE), e))?;
            Some(RawFiles {
                games: files.0,
                metrics: files.1,
                headers_written: recorded.done > 0,
            })
        }
    };
    if let Some(dir) = &opts.trace
        && !opts.resume
        && opts.force
    {
        clear_trace_dir(dir)?;
    }
    Ok(files)
}

/// A raw file, opened for appending.
type OpenFile = (PathBuf, std::fs::File);

/// games.csv and metrics.csv of an earlier run, its complete games read
/// into `recorded` (one game at a time) and the rest trimmed.
fn resume_files<G: Game>(
    game: &G,
    dir: &Path,
    opts: &RunOptions,
    plan: &Plan<G>,
    recorded: &mut Recorded,
) -> Result<(OpenFile, OpenFile), RunError> {
    let mut old_game = |rows: &[GameRow]| {
        for r in rows {
            recorded.tallies.add(r);
        }
        recorded.errors += u64::from(!rows[0].error.is_empty());
        recorded.capped += u64::from(rows[0].truncated);
        if opts.keep_rows {
            recorded.kept.extend_from_slice(rows);
        }
    };
    let (file, old) = resume::reopen(
        game,
        dir,
        &plan.identity,
        opts.shard,
        &plan.positions,
        &mut old_game,
    )?;
    recorded.done = old;
    let metrics_file = resume::trim_metrics(dir, &plan.positions, old)?;
    Ok((
        (dir.join(crate::files::GAMES_FILE), file),
        (dir.join(crate::files::METRICS_FILE), metrics_file),
    ))
}

/// New games.csv and metrics.csv, with `force` after clearing an earlier run.
fn fresh_files(dir: &Path, force: bool) -> Result<(OpenFile, OpenFile), RunError> {
    if force {
        clear_previous_run(dir)?;
    }
    let path = dir.join(crate::files::GAMES_FILE);
    let metrics_path = dir.join(crate::files::METRICS_FILE);
    // Created afresh beside a planted link, never through it.
    let games = crate::fsutil::create(&path).map_err(|e| output_error(&path, e))?;
    let metrics =
        crate::fsutil::create(&metrics_path).map_err(|e| output_error(&metrics_path, e))?;
    Ok(((path, games), (metrics_path, metrics)))
}

/// run.json as a run starts: its identity and provenance, not yet finished.
fn start_manifest<G: Game>(opts: &RunOptions, plan: &Plan<G>) -> manifest::Manifest {
    manifest::Manifest {
        identity: plan.identity.clone(),
        shard: opts.shard,
        commit: crate::provenance::commit(),
        dirty: crate::provenance::dirty(),
        date: crate::provenance::now(),
        threads: match opts.threads {
            0 => crate::provenance::Machine::current().cpus,
            t => t,
        },
        machine: Some(crate::provenance::Machine::current()),
        command: opts.command.clone(),
        stop: None,
        played: None,
        digests: Default::default(),
    }
}

/// The schedule phase: plays the positions left, in batches of
/// [`until_batch`] with `until` (its interval checked after every whole
/// batch, a resumed run rechecking where it left off) or all at once,
/// handing every game to `w`. Returns why `until` stopped the run early.
fn play_rest<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    plan: &Plan<G>,
    opts: &RunOptions,
    w: &mut Writer<'_>,
) -> Result<Option<String>, RunError> {
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    };
    let batch_size = until_batch(game.num_players()) as usize;
    let positions = plan.positions;
    while w.recorded.done < positions.len() && !w.stopped {
        let done = w.recorded.done;
        if let Some(ci) = opts.until
            && done > 0
            && done.is_multiple_of(batch_size)
        {
            let width = widest_half_width(&w.recorded.tallies);
            if width <= ci {
                return Ok(Some(interval_reached(done, width, ci)));
            }
        }
        let end = match opts.until {
            Some(_) => (done / batch_size + 1) * batch_size,
            None => positions.len(),
        }
        .min(positions.len());
        play_span(
            game,
            specs,
            &plan.factories,
            &plan.labels,
            opts,
            positions,
            (done, end),
            threads,
            &mut |event| w.take(event),
        )?;
        w.end_span(game)?;
    }
    Ok(None)
}

/// `until`'s reason to stop when the interval is reached.
fn interval_reached(done: usize, width: f64, ci: f64) -> String {
    format!(
        "interval reached: after {done} games the widest 95 % half-width (seat 0 and \
         every agent) is {width:.4} <= {ci}"
    )
}

/// The play phase's receiving end: each game handed over by `play_span`,
/// in position order, is counted into `recorded` and its lines appended to
/// the raw files (at least every [`FLUSH_EVERY`] or [`FLUSH_BYTES`]).
struct Writer<'a> {
    files: Option<RawFiles>,
    /// games.csv and metrics.csv lines not yet appended.
    pending: (Vec<u8>, Vec<u8>),
    last_flush: std::time::Instant,
    write_error: Option<RunError>,
    /// A game that stops the run: the games before it are kept.
    failure: Option<(u64, Stop)>,
    resumed_errors: u64,
    /// Set when `max_errors` ended the run.
    stopped: bool,
    /// Set when [`RunOptions::interrupt`] ended the run.
    interrupted: bool,
    recorded: &'a mut Recorded,
    bar: &'a progress::Progress,
    opts: &'a RunOptions,
}

impl Writer<'_> {
    /// Takes one event of `play_span`; false stops the span.
    fn take(&mut self, event: Event<'_>) -> bool {
        if let Some(flag) = &self.opts.interrupt
            && flag.load(std::sync::atomic::Ordering::Relaxed)
        {
            self.interrupted = true;
            return false;
        }
        let g = match event {
            Event::Tick => {
                // The clock is read at ticks only, not per game.
                let due = self.last_flush.elapsed() >= FLUSH_EVERY;
                return self.pending.0.is_empty() || !due || self.flush();
            }
            // The bar counts whole batches: it reads the clock.
            Event::Taken(games) => {
                self.bar.inc(games as u64);
                return true;
            }
            Event::Game(g, games, metrics) => {
                if let Some(stop) = &g.stop {
                    self.failure = Some((g.index, stop.clone()));
                    return false;
                }
                self.pending.0.extend_from_slice(games);
                self.pending.1.extend_from_slice(metrics);
                g
            }
        };
        let r = &mut *self.recorded;
        r.errors += u64::from(g.error);
        r.capped += u64::from(g.truncated);
        for (seat, &(agent, outcome, score)) in g.seats.iter().enumerate() {
            r.tallies.agents[agent].count(outcome, score);
            r.tallies.seats[seat].count(outcome, score);
        }
        if self.opts.keep_rows {
            r.kept.extend_from_slice(&g.rows);
        }
        r.done += 1;
        // With --max-errors, the run ends at the game that reaches the limit.
        if self
            .opts
            .max_errors
            .is_some_and(|limit| r.errors - self.resumed_errors >= limit)
        {
            self.stopped = true;
            return false;
        }
        self.pending.0.len() + self.pending.1.len() < FLUSH_BYTES || self.flush()
    }

    /// Appends the pending lines; false after a write error.
    fn flush(&mut self) -> bool {
        if let Some(f) = self.files.as_mut()
            && let Err(e) = f.append(&self.pending.0, &self.pending.1)
        {
            self.write_error = Some(e);
        }
        self.pending.0.clear();
        self.pending.1.clear();
        self.last_flush = std::time::Instant::now();
        self.write_error.is_none()
    }

    /// After a span: appends what is pending, and turns a write error or a
    /// game that stopped the run into the run's error.
    fn end_span<G: Game>(&mut self, game: &G) -> Result<(), RunError> {
        if let Some(f) = self.files.as_mut() {
            f.append(&self.pending.0, &self.pending.1)?;
        }
        self.pending.0.clear();
        self.pending.1.clear();
        if let Some(e) = self.write_error.take() {
            self.bar.finish_and_clear();
            return Err(e);
        }
        if let Some((index, failure)) = self.failure.take() {
            self.bar.finish_and_clear();
            return Err(match failure {
                Stop::Game(why) => RunError::Game {
                    game: game.spec(),
                    index,
                    why,
                },
                Stop::Trace(path, why) => output_error(&path, why),
                Stop::Agent(why) => RunError::Agent { index, why },
            });
        }
        if self.interrupted {
            self.bar.finish_and_clear();
            return Err(RunError::Interrupted);
        }
        Ok(())
    }
}

/// The write phase: `until`'s reason to stop, run.json finished, the
/// summaries written, and what the run produced.
fn finish<G: Game>(
    opts: &RunOptions,
    plan: &Plan<G>,
    recorded: Recorded,
    stopped: bool,
    mut stop_reason: Option<String>,
    resumed: u64,
) -> Result<RunOutput, RunError> {
    let done = recorded.done;
    if let Some(ci) = opts.until
        && stop_reason.is_none()
        && !stopped
    {
        let width = widest_half_width(&recorded.tallies);
        stop_reason = Some(if width <= ci {
            interval_reached(done, width, ci)
        } else {
            format!(
                "cap reached: {done} games (--max-games) with the widest 95 % half-width \
                 {width:.4} > {ci}"
            )
        });
    }
    // A finished run records how many games it holds (and with `until`, why
    // it stopped); a run stopped at --max-errors is unfinished.
    if let Some(dir) = opts.out.as_ref().filter(|_| !stopped) {
        let path = dir.join(crate::files::MANIFEST_FILE);
        let mut m = manifest::read(dir).map_err(|e| output_error(&path, e))?;
        m.stop = stop_reason.clone();
        m.played = Some(done as u64);
        m.digests = manifest::digests(dir).map_err(|e| output_error(dir, e))?;
        manifest::write(dir, &m).map_err(|e| output_error(&path, e))?;
    }
    let (agents, seats) = recorded.tallies.finish(&plan.labels);
    if let Some(dir) = &opts.out {
        let p = dir.join(crate::files::SUMMARY_FILE);
        record::write_summary(&p, &agents).map_err(|e| output_error(&p, e))?;
        let p = dir.join(crate::files::SEATS_FILE);
        record::write_summary(&p, &seats).map_err(|e| output_error(&p, e))?;
        crate::files::write_sample(dir).map_err(|e| output_error(dir, e))?;
    }
    Ok(RunOutput {
        games: plan.total,
        played: done as u64 - resumed,
        resumed,
        rounded: plan.total != opts.games,
        errors: recorded.errors,
        capped: recorded.capped,
        stopped,
        stop_reason,
        rows: recorded.kept,
        agents,
        seats,
    })
}
