//! The single game loop: chance from the game's stream, agents on their
//! determinized views, legality checked, length capped, faults contained.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use arrayvec::ArrayVec;

use super::watchdog::{Answer, Watchdog};
use crate::agents::{Abort, Agent, Decision};
use crate::game::{ENDING_FAULT, ENDING_LENGTH_CAP, Game, MAX_PLAYERS, Outcome, Turn, outcomes};
use crate::rng::{GameRng, Stream, stream_rng};

/// What happened to one seat in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatResult {
    /// Win, draw or loss (teammates share it).
    pub outcome: Outcome,
    /// The game's score for this seat.
    pub score: f64,
    /// The return (payoff) for this seat.
    pub ret: f64,
    /// Role label (faction, character…), empty if the game has none.
    pub role: String,
    /// Decisions this seat took.
    pub decisions: u32,
    /// Mean number of legal actions at this seat's decisions (branching factor).
    pub branching: f64,
    /// Game-specific statistics for this seat (see `Reporting::metrics`).
    pub metrics: Vec<(&'static str, f64)>,
    /// Search iterations this seat ran in all.
    pub iterations: u64,
    /// Wall time spent deciding, in microseconds (not deterministic).
    pub think_us: u64,
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Per seat. (A vector, not an inline array: a result moves through
    /// several returns per game, and an inline one would be copied whole.)
    pub seats: Vec<SeatResult>,
    /// Turns: runs of consecutive decisions by one player.
    pub turns: u32,
    /// Actions applied, chance outcomes included.
    pub actions: u32,
    /// Stopped at the game-length cap.
    pub truncated: bool,
    /// The rule that ended the game ([`Rules::ending`](crate::game::Rules::ending)), or the runner's
    /// [`ENDING_LENGTH_CAP`] or [`ENDING_FAULT`].
    pub ending: &'static str,
    /// Rounds played, for games that count rounds ([`Reporting::rounds`](crate::game::Reporting::rounds)).
    pub rounds: Option<u32>,
    /// A fault that forfeited the game (agent panic, illegal action), if any.
    pub error: Option<String>,
    /// Wall time of the whole game in microseconds (not deterministic).
    pub wall_us: u64,
}

thread_local! {
    static CONTAINED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` as a contained game: its panics are caught by the caller and
/// recorded in the error column, so the panic hook stays quiet about them.
pub fn contained<T>(f: impl FnOnce() -> T) -> T {
    CONTAINED.with(|c| c.set(true));
    let out = f();
    CONTAINED.with(|c| c.set(false));
    out
}

/// Whether the calling thread runs inside [`contained`].
pub fn is_contained() -> bool {
    CONTAINED.with(|c| c.get())
}

/// Installs a panic hook that is silent for panics inside [`contained`] games
/// and prints every other panic as usual.
pub fn quiet_contained_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !CONTAINED.with(|c| c.get()) {
            default(info);
        }
    }));
}

/// The message of a caught panic.
pub fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .or_else(|| panic.downcast_ref::<Abort>().map(|a| a.0.clone()))
        .unwrap_or_else(|| "unknown panic".into())
}

impl GameResult {
    /// A game that could not be played: every seat draws, the fault is named.
    pub fn faulted(seats: usize, error: String) -> GameResult {
        GameResult {
            seats: (0..seats)
                .map(|_| SeatResult {
                    outcome: Outcome::Draw,
                    score: 0.0,
                    ret: 0.0,
                    role: String::new(),
                    decisions: 0,
                    branching: 0.0,
                    metrics: Vec::new(),
                    iterations: 0,
                    think_us: 0,
                })
                .collect(),
            turns: 0,
            actions: 0,
            truncated: false,
            ending: ENDING_FAULT,
            rounds: None,
            error: Some(error),
            wall_us: 0,
        }
    }
}

/// One recorded step, for traces.
#[derive(Clone, Debug)]
pub struct Step<A> {
    /// The acting player, or `None` for chance.
    pub player: Option<u8>,
    /// The action or chance outcome.
    pub action: A,
}

/// Whether `action` is among `legal`. Every element is compared, with no
/// early exit: where the chosen action sits in the list is random, so the
/// exit of a search that stops at it is a mispredicted branch per decision,
/// which in a fast game cost more than the comparisons.
fn is_legal<A: PartialEq + Copy>(legal: &[A], action: A) -> bool {
    legal.iter().fold(false, |found, &l| found | (l == action))
}

/// The metric (1 for one seat per game) naming the game's first player: what
/// [`Reporting::first_player`](crate::game::Reporting::first_player) says, or else the seat of the first decision.
pub const FIRST_PLAYER: &str = "first_player";

/// Plays one game with `agents[seat]` in each seat. The game's seed fixes the
/// setup and every chance outcome; each seat and the view determinizations have
/// their own streams. `on_step` sees every action (with the acting seat, or
/// `None` for chance) and the state before it; traces and narration use it.
pub fn play_game<G: Game, H: FnMut(&G::State, Option<u8>, G::Action) + ?Sized>(
    game: &G,
    agents: &mut [Box<dyn Agent<G>>],
    seed: u64,
    move_timeout: Option<std::time::Duration>,
    on_step: &mut H,
) -> GameResult {
    play_game_split(game, agents, seed, seed, move_timeout, on_step)
}

/// [`play_game`] with the setup and chance stream drawn from `chance_seed` and
/// the view and seat streams from `agent_seed`: duplicate deals replay one
/// deal's luck under each seating while the agents' own randomness stays
/// fresh, so two copies of a random agent do not replay the same game.
///
/// The hook is a type parameter, not a trait object, so that a run without
/// traces pays nothing per step for it.
pub fn play_game_split<G: Game, H: FnMut(&G::State, Option<u8>, G::Action) + ?Sized>(
    game: &G,
    agents: &mut [Box<dyn Agent<G>>],
    chance_seed: u64,
    agent_seed: u64,
    move_timeout: Option<std::time::Duration>,
    on_step: &mut H,
) -> GameResult {
    let start = Instant::now();
    let mut game_rng = stream_rng(chance_seed, Stream::Game);
    let mut seats = Seats::new(game, agents, agent_seed, move_timeout);
    let mut state = game.initial_state(&mut game_rng);
    let mut actions = 0u32;
    let mut fault: Option<(u8, String)> = None;
    let mut truncated = false;
    let mut first_decision: Option<u8> = None;
    loop {
        let turn = game.turn(&state);
        let action = match turn {
            Turn::Terminal => break,
            _ if actions >= game.max_game_length() => {
                truncated = true;
                break;
            }
            Turn::Chance => game.sample_chance(&state, &mut game_rng),
            Turn::Player(p) => {
                first_decision.get_or_insert(p);
                match seats.decide(game, &state, p) {
                    Ok(a) => a,
                    Err(why) => {
                        fault = Some((p, why));
                        break;
                    }
                }
            }
        };
        let player = match turn {
            Turn::Player(p) => Some(p),
            _ => None,
        };
        on_step(&state, player, action);
        game.apply(&mut state, action);
        actions += 1;
    }
    let end = GameEnd {
        actions,
        fault,
        truncated,
        first_decision,
    };
    game_result(game, &state, end, &seats, start)
}

/// The seats of one game: their agents, streams, views and counts.
struct Seats<'a, G: Game> {
    agents: &'a mut [Box<dyn Agent<G>>],
    /// None in a game without hidden information: the state is what every
    /// seat sees, so it is handed over as it is (no copy, no view stream).
    view_rng: Option<GameRng>,
    seat_rngs: ArrayVec<GameRng, MAX_PLAYERS>,
    /// Views are determinized afresh at every decision only when some agent
    /// reads them: otherwise the view stream is never observed, so each seat
    /// keeps the view of its first decision (a view of its own seat, not the
    /// truth) and a cheap game runs at the simulator's speed.
    fresh_views: bool,
    kept_views: [Option<G::State>; MAX_PLAYERS],
    timed: ArrayVec<bool, MAX_PLAYERS>,
    move_timeout: Option<std::time::Duration>,
    watchdog: Option<Watchdog<G>>,
    decisions: [u32; MAX_PLAYERS],
    iterations: [u64; MAX_PLAYERS],
    legal_total: [u64; MAX_PLAYERS],
    think: [u64; MAX_PLAYERS],
    turns: u32,
    last_player: Option<u8>,
}

impl<'a, G: Game> Seats<'a, G> {
    fn new(
        game: &G,
        agents: &'a mut [Box<dyn Agent<G>>],
        agent_seed: u64,
        move_timeout: Option<std::time::Duration>,
    ) -> Self {
        let n = game.num_players();
        let perfect_information = !game.has_hidden_information();
        Seats {
            view_rng: (!perfect_information).then(|| stream_rng(agent_seed, Stream::View)),
            seat_rngs: (0..n)
                .map(|s| stream_rng(agent_seed, Stream::Seat(s as u8)))
                .collect(),
            fresh_views: agents.iter().any(|a| a.needs_view()),
            kept_views: Default::default(),
            timed: agents
                .iter()
                .map(|a| move_timeout.is_some() || a.timed())
                .collect(),
            agents,
            move_timeout,
            watchdog: None,
            decisions: [0; MAX_PLAYERS],
            iterations: [0; MAX_PLAYERS],
            legal_total: [0; MAX_PLAYERS],
            think: [0; MAX_PLAYERS],
            turns: 0,
            last_player: None,
        }
    }

    /// Seat `p`'s decision at `state`, counted; a fault (the agent's
    /// timeout, illegal action or panic) is the error.
    fn decide(&mut self, game: &G, state: &G::State, p: u8) -> Result<G::Action, String> {
        let legal = game.legal_actions(state);
        // The game's own bug, not the agent's: the runner reports
        // panics outside the agents' decisions as game errors.
        assert!(
            !legal.is_empty(),
            "the game offers seat {p} no legal action at its turn"
        );
        let seat = p as usize;
        let view = match &mut self.view_rng {
            None => state,
            Some(view_rng) => {
                if self.fresh_views || self.kept_views[seat].is_none() {
                    self.kept_views[seat] = Some(game.determinize(state, p, view_rng));
                }
                let Some(view) = &self.kept_views[seat] else {
                    unreachable!("a view was determinized just above")
                };
                view
            }
        };
        let move_timeout = self.move_timeout;
        let t = self.timed[seat].then(Instant::now);
        // A search stops at the deadline; a tenth of the limit is
        // left for it to return its move in time.
        let deadline = move_timeout
            .zip(t)
            .and_then(|(limit, t)| t.checked_add(limit - limit / 10));
        let agent = &mut self.agents[seat];
        let rng = &mut self.seat_rngs[seat];
        let choice = match move_timeout {
            // Under a limit the move runs on the game's helper thread,
            // which is abandoned if the agent overruns.
            Some(limit) => self
                .watchdog
                .get_or_insert_with(|| Watchdog::new(game))
                .decide(
                    agent,
                    p,
                    view,
                    &legal,
                    rng,
                    deadline,
                    limit,
                    t.unwrap_or_else(Instant::now),
                ),
            None => Answer::Returned(catch_unwind(AssertUnwindSafe(|| {
                agent.act(Decision {
                    game,
                    me: p,
                    view,
                    legal: &legal,
                    rng,
                    deadline,
                })
            }))),
        };
        let elapsed = t.map_or(std::time::Duration::ZERO, |t| t.elapsed());
        self.think[seat] += elapsed.as_micros() as u64;
        self.decisions[seat] += 1;
        self.legal_total[seat] += legal.len() as u64;
        self.iterations[seat] += self.agents[seat].last_iterations();
        if self.last_player != Some(p) {
            self.turns += 1;
            self.last_player = Some(p);
        }
        judge(choice, &legal, p, elapsed, move_timeout)
    }
}

/// Seat `p`'s answer taken `elapsed`: its action, or its fault (no answer
/// or a late one under the move limit, an illegal action, a panic).
fn judge<A: Copy + PartialEq + std::fmt::Debug>(
    answer: Answer<A>,
    legal: &[A],
    p: u8,
    elapsed: std::time::Duration,
    move_timeout: Option<std::time::Duration>,
) -> Result<A, String> {
    let Answer::Returned(choice) = answer else {
        let limit = move_timeout.unwrap_or_default();
        return Err(format!(
            "seat {p} did not answer within the {} ms move limit (its computation was abandoned)",
            limit.as_millis()
        ));
    };
    match choice {
        Ok(_) if move_timeout.is_some_and(|limit| elapsed > limit) => {
            let limit = move_timeout.unwrap_or_default();
            Err(format!(
                "seat {p} took {} ms, over the {} ms move limit",
                elapsed.as_millis(),
                limit.as_millis()
            ))
        }
        Ok(a) if is_legal(legal, a) => Ok(a),
        Ok(a) => Err(format!("seat {p} played an illegal action {a:?}")),
        // Not the seat's fault: the run stops (see [`Abort`]).
        Err(panic) if panic.is::<Abort>() => std::panic::resume_unwind(panic),
        Err(panic) => Err(format!("seat {p} agent panicked: {}", panic_text(&*panic))),
    }
}

/// How a game's loop ended.
struct GameEnd {
    actions: u32,
    /// The faulting seat and what it did.
    fault: Option<(u8, String)>,
    /// Stopped at the runner's length cap.
    truncated: bool,
    first_decision: Option<u8>,
}

/// The result of a game that ended at `state`.
fn game_result<G: Game>(
    game: &G,
    state: &G::State,
    end: GameEnd,
    seats: &Seats<'_, G>,
    start: Instant,
) -> GameResult {
    let n = game.num_players();
    let terminal = game.turn(state) == Turn::Terminal;
    let returns: ArrayVec<f64, MAX_PLAYERS> = if terminal {
        game.returns(state)
    } else {
        (0..n).map(|_| 0.0).collect()
    };
    let mut result_outcomes = outcomes(game, &returns, end.truncated);
    // A game stopped by its own cap keeps its scored result but is flagged.
    let truncated = end.truncated || (terminal && game.truncated(state));
    if let Some((culprit, _)) = &end.fault {
        forfeit(game, *culprit, &mut result_outcomes);
    }
    let ending = if end.fault.is_some() {
        ENDING_FAULT
    } else if terminal {
        game.ending(state)
    } else {
        ENDING_LENGTH_CAP
    };
    let first_player = game.first_player(state).or(end.first_decision);
    let seat_results = (0..n)
        .map(|p| SeatResult {
            outcome: result_outcomes[p],
            score: if terminal {
                game.score(state, p as u8)
            } else {
                0.0
            },
            ret: returns[p],
            role: game.role(state, p as u8),
            decisions: seats.decisions[p],
            branching: if seats.decisions[p] > 0 {
                seats.legal_total[p] as f64 / f64::from(seats.decisions[p])
            } else {
                0.0
            },
            metrics: {
                // Reports read the first-player advantage from it, also
                // where the game draws its first player.
                let mut m = game.metrics(state, p as u8);
                if first_player == Some(p as u8) {
                    m.push((FIRST_PLAYER, 1.0));
                }
                m
            },
            iterations: seats.iterations[p],
            think_us: seats.think[p],
        })
        .collect();
    GameResult {
        seats: seat_results,
        turns: seats.turns,
        actions: end.actions,
        truncated,
        ending,
        rounds: game.rounds(state),
        error: end.fault.map(|f| f.1),
        wall_us: start.elapsed().as_micros() as u64,
    }
}

/// The faulting seat's side forfeits: a single other side wins, several draw.
fn forfeit<G: Game>(game: &G, culprit: u8, outcomes: &mut [Outcome]) {
    let n = game.num_players();
    let bad = game.side(culprit);
    let others: std::collections::BTreeSet<u8> = (0..n as u8)
        .map(|p| game.side(p))
        .filter(|&s| s != bad)
        .collect();
    for (p, outcome) in outcomes.iter_mut().enumerate().take(n) {
        *outcome = if game.side(p as u8) == bad {
            Outcome::Loss
        } else if others.len() == 1 {
            Outcome::Win
        } else {
            Outcome::Draw
        };
    }
}

#[cfg(test)]
mod tests {
    use super::play_game;
    use crate::agents::Agent;
    use crate::agents::random::RandomAgent;
    use crate::game::Outcome;
    use crate::games::hamunaptra::Hamunaptra;

    /// A game stopped by its own round cap is flagged truncated but keeps the
    /// result the game scored (Hamunaptra §6.5), unlike the runner's length cap.
    #[test]
    fn a_game_cap_flags_truncated_and_keeps_the_scored_result() {
        let g = Hamunaptra::from_spec_text("hamunaptra(max_rounds=2)").unwrap();
        let mut decided = 0;
        for seed in 0..20 {
            let mut agents: Vec<Box<dyn Agent<Hamunaptra>>> =
                vec![Box::new(RandomAgent), Box::new(RandomAgent)];
            let r = play_game(&g, &mut agents, seed, None, &mut |_, _, _| {});
            assert!(r.truncated, "seed {seed}");
            assert_eq!((r.ending, r.rounds), ("cap", Some(2)), "seed {seed}");
            decided += usize::from(r.seats.iter().any(|s| s.outcome == Outcome::Win));
        }
        assert!(decided > 0, "every capped game was turned into a draw");
    }

    /// An agent that sleeps through its move limit forfeits when the limit
    /// passes: the runner neither waits for it nor stops the other seat's win.
    #[test]
    fn an_agent_that_ignores_the_limit_forfeits_without_being_waited_for() {
        use crate::agents::faulty::{Fault, FaultyAgent};
        use crate::games::connect4::Connect4;
        use std::time::{Duration, Instant};
        let mut agents: Vec<Box<dyn Agent<Connect4>>> = vec![
            Box::new(RandomAgent),
            Box::new(FaultyAgent::new(
                Fault::Slow(Duration::from_millis(1500)),
                0,
            )),
        ];
        let t = Instant::now();
        let limit = Some(Duration::from_millis(50));
        let r = play_game(&Connect4, &mut agents, 1, limit, &mut |_, _, _| {});
        assert!(
            t.elapsed() < Duration::from_millis(1000),
            "{:?}",
            t.elapsed()
        );
        let error = r.error.unwrap_or_default();
        assert!(
            error.contains("did not answer within the 50 ms move limit"),
            "{error}"
        );
        assert_eq!(r.seats[0].outcome, Outcome::Win);
        assert_eq!(r.seats[1].outcome, Outcome::Loss);
        // The abandoned computation ends by itself and is no longer counted.
        let waited = Instant::now();
        while super::super::watchdog::strays() > 0 && waited.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(super::super::watchdog::strays(), 0);
    }

    /// Under a move limit that every seat keeps, games are the games played
    /// without one: the helper thread sees the same views and streams.
    #[test]
    fn a_kept_move_limit_changes_no_game() {
        use crate::agents::greedy::GreedyAgent;
        use crate::games::fox::Fox;
        let crate::games::AnyGame::Fox(g) = crate::games::AnyGame::parse("fox").unwrap() else {
            unreachable!("fox parses as Fox")
        };
        let play = |limit| {
            let mut agents: Vec<Box<dyn Agent<Fox>>> =
                vec![Box::new(RandomAgent), Box::new(GreedyAgent::new(2))];
            let mut steps = Vec::new();
            let r = play_game(&g, &mut agents, 9, limit, &mut |_, p, a| steps.push((p, a)));
            (
                steps,
                r.seats
                    .iter()
                    .map(|s| (s.outcome, s.ret))
                    .collect::<Vec<_>>(),
                r.error,
            )
        };
        let free = play(None);
        let timed = play(Some(std::time::Duration::from_secs(30)));
        assert_eq!(free, timed);
        assert!(free.2.is_none());
    }

    /// The legality check finds an action wherever it sits, and nothing else.
    #[test]
    fn the_legality_check_finds_every_listed_action_and_only_those() {
        let legal = [3u8, 5, 7, 9];
        for a in 0..12u8 {
            assert_eq!(super::is_legal(&legal, a), legal.contains(&a), "{a}");
        }
        assert!(!super::is_legal::<u8>(&[], 0));
    }

    /// The runner's own length limit and a seat's fault are endings too.
    #[test]
    fn the_runner_names_its_own_endings() {
        use crate::agents::faulty::{Fault, FaultyAgent};
        use crate::games::connect4::Connect4;
        let g = Connect4;
        let mut agents: Vec<Box<dyn Agent<Connect4>>> =
            vec![Box::new(RandomAgent), Box::new(RandomAgent)];
        for seed in 0..10 {
            let r = play_game(&g, &mut agents, seed, None, &mut |_, _, _| {});
            assert!(["line", "full-board"].contains(&r.ending), "{}", r.ending);
            assert_eq!(r.rounds, None);
        }
        let mut agents: Vec<Box<dyn Agent<Connect4>>> = vec![
            Box::new(RandomAgent),
            Box::new(FaultyAgent::new(Fault::Panic, 0)),
        ];
        let r = play_game(&g, &mut agents, 1, None, &mut |_, _, _| {});
        assert_eq!(r.ending, super::ENDING_FAULT);
    }
}
