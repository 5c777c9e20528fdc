//! The move time limit for agents that do not poll their deadline.
//!
//! With `--move-timeout-ms` every decision runs on a helper thread of the
//! game, so the runner waits no longer than the limit: a search stops at
//! `Decision::deadline` by itself, and an agent that ignores it (a sleep, a
//! loop) forfeits when the limit passes while the game goes on without it.
//!
//! Rust cannot stop a thread, so the abandoned computation keeps running on
//! its helper thread with its own copies of the rules, the view and the
//! agent, and ends when `act` returns (its answer is thrown away); nothing
//! it does can reach the game it left. At most [`max_strays`] abandoned
//! computations run at once in a process: a timed move starts only when
//! fewer are still running, so a run of agents that overrun cannot pile up
//! threads. Games that do not time out see exactly what an inline call sees
//! (same view, legal actions and seat stream, returned to the runner), so
//! their results are the same as without the helper.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::agents::{Agent, Decision};
use crate::game::{Game, PlayerId};
use crate::rng::GameRng;

/// Abandoned computations still running in this process.
static STRAYS: Mutex<usize> = Mutex::new(0);
/// Signalled whenever an abandoned computation ends.
static FREED: Condvar = Condvar::new();
/// Microseconds timed moves have waited for room, summed over the process.
static WAITED_MICROS: AtomicU64 = AtomicU64::new(0);

/// How many abandoned computations may run at once: twice the cores, at least 4.
pub fn max_strays() -> usize {
    std::thread::available_parallelism()
        .map_or(4, |n| 2 * n.get())
        .max(4)
}

/// Abandoned computations still running (for tests and diagnostics).
pub fn strays() -> usize {
    *STRAYS.lock().unwrap_or_else(|e| e.into_inner())
}

/// How long timed moves have waited for abandoned computations to end,
/// summed over the process: a run's time lost to agents that overran their
/// move limit and kept computing, for the runner to report.
pub fn waited() -> Duration {
    Duration::from_micros(WAITED_MICROS.load(Ordering::Relaxed))
}

/// What became of one timed decision.
pub enum Answer<A> {
    /// `act` returned (its value, or its panic) within the limit or late.
    Returned(std::thread::Result<A>),
    /// The limit passed first; the computation was abandoned.
    Abandoned,
}

/// One decision sent to the helper thread.
struct Job<G: Game> {
    agent: Box<dyn Agent<G>>,
    me: PlayerId,
    view: G::State,
    legal: Vec<G::Action>,
    rng: GameRng,
    deadline: Option<Instant>,
    /// Set by whichever side settles the job first: the helper when `act`
    /// returns, the runner when the limit passes.
    settled: Arc<AtomicBool>,
    /// Whether the runner's panics are contained (the hook stays quiet).
    contained: bool,
}

/// What the helper sends back: the agent, its stream, and the answer.
struct Done<G: Game> {
    agent: Box<dyn Agent<G>>,
    rng: GameRng,
    choice: std::thread::Result<G::Action>,
}

/// The two ends the runner holds of a helper thread.
type Helper<G> = (Sender<Job<G>>, Receiver<Done<G>>);

/// The helper thread of one game, started at its first timed decision.
pub struct Watchdog<G: Game> {
    game: Arc<G>,
    helper: Option<Helper<G>>,
}

impl<G: Game> Watchdog<G> {
    /// A watchdog with its own copy of the rules (an abandoned computation
    /// may outlive the caller's).
    pub fn new(game: &G) -> Watchdog<G> {
        Watchdog {
            game: Arc::new(game.clone()),
            helper: None,
        }
    }

    /// Runs `agent.act` on the helper thread and waits at most `limit`.
    /// On [`Answer::Abandoned`] the agent stays with its computation and
    /// `agent` holds a stand-in that panics if asked again.
    #[allow(clippy::too_many_arguments)]
    pub fn decide(
        &mut self,
        agent: &mut Box<dyn Agent<G>>,
        me: PlayerId,
        view: &G::State,
        legal: &[G::Action],
        rng: &mut GameRng,
        deadline: Option<Instant>,
        limit: Duration,
        start: Instant,
    ) -> Answer<G::Action> {
        wait_for_room();
        let game = self.game.clone();
        let (jobs, done) = self.helper.get_or_insert_with(|| spawn(game));
        let settled = Arc::new(AtomicBool::new(false));
        let job = Job {
            agent: std::mem::replace(agent, Box::new(Abandoned)),
            me,
            view: view.clone(),
            legal: legal.to_vec(),
            rng: rng.clone(),
            deadline,
            settled: settled.clone(),
            contained: super::play::is_contained(),
        };
        if jobs.send(job).is_err() {
            unreachable!("the helper thread waits for jobs until its sender is dropped");
        }
        let left = limit.saturating_sub(start.elapsed());
        let back = match done.recv_timeout(left) {
            Ok(back) => back,
            Err(RecvTimeoutError::Timeout) => {
                let mut strays = STRAYS.lock().unwrap_or_else(|e| e.into_inner());
                if !settled.swap(true, Ordering::SeqCst) {
                    *strays += 1;
                    // The helper now belongs to its computation; the next
                    // timed decision of this game (there is none after a
                    // forfeit) would start a new one.
                    self.helper = None;
                    return Answer::Abandoned;
                }
                drop(strays);
                // `act` returned just as the limit passed: its answer is on
                // its way.
                match done.recv() {
                    Ok(back) => back,
                    Err(_) => unreachable!("a settled helper sends its answer"),
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                unreachable!("the helper thread answers every job it takes")
            }
        };
        *agent = back.agent;
        *rng = back.rng;
        Answer::Returned(back.choice)
    }
}

/// Waits until fewer than [`max_strays`] abandoned computations run.
fn wait_for_room() {
    let cap = max_strays();
    let mut strays = STRAYS.lock().unwrap_or_else(|e| e.into_inner());
    if *strays < cap {
        return;
    }
    let start = Instant::now();
    while *strays >= cap {
        strays = FREED.wait(strays).unwrap_or_else(|e| e.into_inner());
    }
    WAITED_MICROS.fetch_add(start.elapsed().as_micros() as u64, Ordering::Relaxed);
}

/// Starts a game's helper thread: it takes decisions until the game drops
/// its sender, or ends after the one it was abandoned in.
fn spawn<G: Game>(game: Arc<G>) -> Helper<G> {
    let (job_tx, job_rx) = channel::<Job<G>>();
    let (done_tx, done_rx) = channel::<Done<G>>();
    std::thread::Builder::new()
        .name("boardlab-move".into())
        .spawn(move || {
            for mut job in job_rx {
                let mut act = || {
                    catch_unwind(AssertUnwindSafe(|| {
                        job.agent.act(Decision {
                            game: &*game,
                            me: job.me,
                            view: &job.view,
                            legal: &job.legal,
                            rng: &mut job.rng,
                            deadline: job.deadline,
                        })
                    }))
                };
                let choice = if job.contained {
                    super::play::contained(act)
                } else {
                    act()
                };
                let mut strays = STRAYS.lock().unwrap_or_else(|e| e.into_inner());
                if job.settled.swap(true, Ordering::SeqCst) {
                    // Abandoned: the runner has moved on.
                    *strays -= 1;
                    FREED.notify_all();
                    return;
                }
                drop(strays);
                let back = Done {
                    agent: job.agent,
                    rng: job.rng,
                    choice,
                };
                if done_tx.send(back).is_err() {
                    return;
                }
            }
        })
        .expect("the system starts a thread for the move time limit");
    (job_tx, done_rx)
}

/// The stand-in for an agent abandoned at its move limit.
struct Abandoned;

impl<G: Game> Agent<G> for Abandoned {
    fn act(&mut self, _d: Decision<'_, G>) -> G::Action {
        panic!("this seat's agent was abandoned at its move time limit")
    }
}
