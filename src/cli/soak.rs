//! `boardlab soak`: many uniformly random games of every registered game and
//! variant, every state checked ([`check_state`]: the game's own invariants,
//! the legal-list and chance properties) and every game required to end within
//! its `max_game_length`. A violation is reported with the game's index, seed
//! and step, and the command that replays exactly that game.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use anyhow::{Result, bail};
use rayon::prelude::*;

use super::{GameList, Registry, Seed, Threads, help, parse_games};
use crate::arena::play::{contained, panic_text, quiet_contained_panics};
use crate::game::conformance::check_state;
use crate::game::{Game, Turn};
use crate::rng::{below, game_seed, rng_from_seed};

/// Arguments of `soak`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help(
        "seed",
        "Master seed; each game's seed derives from it and the game's index"
    )),
    mut_args(help("threads", "Worker threads (0: one per core)")),
    mut_args(help(
        "game",
        "Game spec to soak (repeatable); default: every registered game in every variant of its test specs"
    ))
)]
pub struct SoakArgs {
    /// `--game`, repeatable.
    #[command(flatten)]
    pub game: GameList,
    /// Random games per spec.
    #[arg(long, default_value_t = 1000, value_parser = parse_games)]
    pub games: u64,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// Index of the first game (with --games 1, replays one reported game).
    #[arg(long, default_value_t = 0)]
    pub start: u64,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The first problem found in one random game.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Violation {
    /// Index of the game in the soak (its seed derives from it).
    pub index: u64,
    /// The game's seed.
    pub seed: u64,
    /// Actions applied before the faulty state (0: the initial state).
    pub step: u32,
    /// What is wrong.
    pub message: String,
}

/// What soaking one spec found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    /// Games played.
    pub games: u64,
    /// Actions applied in all (decisions and chance outcomes).
    pub steps: u64,
    /// Games with a violation.
    pub violations: u64,
    /// The violation of the lowest game index, so the report does not
    /// depend on the thread count.
    pub first: Option<Violation>,
}

impl Tally {
    fn add(mut self, game: Result<u32, Violation>) -> Tally {
        self.games += 1;
        match game {
            Ok(steps) => self.steps += u64::from(steps),
            Err(v) => {
                self.steps += u64::from(v.step);
                self.merge_first(Some(v));
                self.violations += 1;
            }
        }
        self
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.games += other.games;
        self.steps += other.steps;
        self.violations += other.violations;
        self.merge_first(other.first);
        self
    }

    fn merge_first(&mut self, v: Option<Violation>) {
        if let Some(v) = v
            && self.first.as_ref().is_none_or(|f| v.index < f.index)
        {
            self.first = Some(v);
        }
    }
}

/// Plays one random game from `seed`, checking every state. `step` tracks
/// progress so that a panic can be located too.
fn walk<G: Game>(game: &G, seed: u64, step: &mut u32) -> Result<(), String> {
    let mut rng = rng_from_seed(seed);
    let mut state = game.initial_state(&mut rng);
    let mut legal = game.legal_actions(&state);
    loop {
        check_state(game, &state, &mut legal)?;
        let action = match game.turn(&state) {
            Turn::Terminal => return Ok(()),
            Turn::Chance => {
                let a = game.sample_chance(&state, &mut rng);
                if !game.chance_outcomes(&state).iter().any(|o| o.0 == a) {
                    return Err(format!("sampled chance outcome {a:?} is not an outcome"));
                }
                a
            }
            Turn::Player(_) => legal[below(&mut rng, legal.len())],
        };
        if *step >= game.max_game_length() {
            return Err(format!(
                "the game is not over after max_game_length = {} actions",
                game.max_game_length()
            ));
        }
        game.apply(&mut state, action);
        *step += 1;
    }
}

/// Plays game `index` of a soak with master seed `master`; `Ok` holds its length.
pub(crate) fn soak_game<G: Game>(game: &G, master: u64, index: u64) -> Result<u32, Violation> {
    let seed = game_seed(master, index);
    let mut step = 0u32;
    let played = contained(|| catch_unwind(AssertUnwindSafe(|| walk(game, seed, &mut step))));
    let message = match played {
        Ok(Ok(())) => return Ok(step),
        Ok(Err(message)) => message,
        Err(panic) => format!("panicked: {}", panic_text(&*panic)),
    };
    Err(Violation {
        index,
        seed,
        step,
        message,
    })
}

/// Plays games `start..start + games` in parallel on `pool`.
pub(crate) fn soak<G: Game>(
    game: &G,
    master: u64,
    start: u64,
    games: u64,
    pool: &rayon::ThreadPool,
) -> Tally {
    pool.install(|| {
        (start..start + games)
            .into_par_iter()
            .map(|i| soak_game(game, master, i))
            .fold(Tally::default, Tally::add)
            .reduce(Tally::default, Tally::merge)
    })
}

pub(super) fn run(a: SoakArgs, registry: &Registry) -> Result<()> {
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if a.start.checked_add(a.games).is_none() {
        bail!("--start plus --games overflows");
    }
    let specs: Vec<String> = if a.game.games.is_empty() {
        registry
            .games()
            .flat_map(|g| g.test_specs.iter().map(|s| s.to_string()))
            .collect()
    } else {
        a.game.games.clone()
    };
    // Parse every spec before playing anything: bad input fails at once.
    let games = specs
        .iter()
        .map(|s| registry.command_game(s))
        .collect::<Result<Vec<_>, _>>()?;
    let pool = crate::arena::pool(a.threads.threads).map_err(anyhow::Error::msg)?;
    quiet_contained_panics();
    if !a.json {
        println!(
            "soak: {} random games per spec, seed {}, {} threads",
            a.games,
            a.seed.seed,
            pool.current_num_threads()
        );
        println!(
            "{:>10} {:>13} {:>10} {:>10}  spec",
            "games", "steps", "games/s", "violations"
        );
    }
    let mut reports = Vec::new();
    let mut failures = Vec::new();
    for (text, game) in specs.iter().zip(&games) {
        let spec = game.spec();
        let clock = Instant::now();
        let tally = game.soak(a.seed.seed, a.start, a.games, &pool);
        let secs = clock.elapsed().as_secs_f64().max(1e-9);
        let rate = tally.games as f64 / secs;
        if !a.json {
            println!(
                "{:>10} {:>13} {:>10.0} {:>10}  {spec}",
                tally.games, tally.steps, rate, tally.violations
            );
        }
        let first = tally.first.as_ref().map(|v| {
            let replay = format!(
                "boardlab soak --game '{text}' --seed {} --start {} --games 1",
                a.seed.seed, v.index
            );
            (v, replay)
        });
        if let Some((v, replay)) = &first {
            let line = format!(
                "{spec}: game {} (seed {}) step {}: {}",
                v.index, v.seed, v.step, v.message
            );
            if !a.json {
                println!("    violation in {line}");
                println!("    replay: {replay}");
            }
            failures.push((line, tally.violations));
        }
        reports.push(serde_json::json!({
            "spec": spec,
            "games": tally.games,
            "steps": tally.steps,
            "seconds": secs,
            "games_per_s": rate,
            "steps_per_s": tally.steps as f64 / secs,
            "violations": tally.violations,
            "first_violation": first.map(|(v, replay)| serde_json::json!({
                "game_index": v.index,
                "seed": v.seed,
                "step": v.step,
                "message": v.message,
                "replay": replay,
            })),
        }));
    }
    if a.json {
        let doc = serde_json::json!({
            "seed": a.seed.seed,
            "start": a.start,
            "games_per_spec": a.games,
            "threads": pool.current_num_threads(),
            "ok": failures.is_empty(),
            "specs": reports,
        });
        println!("{doc}");
    } else if failures.is_empty() {
        println!("no violation found");
    }
    if let Some((line, _)) = failures.first() {
        let total: u64 = failures.iter().map(|f| f.1).sum();
        bail!(
            "soak found {total} games with a violation in {} specs; first: {line}",
            failures.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Evaluation, PlayerId, Reporting, Returns, Rules};
    use crate::rng::GameRng;

    /// A counting game with one planted bug: players alternately add 1 or 2
    /// to a counter, a die roll after every decision, the game ends at 20.
    #[derive(Clone, Copy, Debug)]
    enum Bug {
        None,
        /// The invariant "the counter never equals 7" is broken.
        Invariant,
        /// Both legal actions are the same.
        Duplicate,
        /// The game never ends.
        Endless,
        /// `apply` panics once the counter passes 10.
        Panic,
    }

    #[derive(Clone, Copy, Debug)]
    struct Counter(Bug);

    #[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
    struct S {
        n: u32,
        chance: bool,
        mover: u8,
    }

    impl Rules for Counter {
        type State = S;
        type Action = u8;
        type Actions = arrayvec::ArrayVec<u8, 2>;
        type InfoKey = S;
        fn spec(&self) -> String {
            format!("counter({:?})", self.0)
        }
        fn num_players(&self) -> usize {
            2
        }
        fn max_actions(&self) -> usize {
            2
        }
        fn max_game_length(&self) -> u32 {
            60
        }
        fn has_hidden_information(&self) -> bool {
            false
        }
        fn initial_state(&self, _rng: &mut GameRng) -> S {
            S {
                n: 0,
                chance: false,
                mover: 0,
            }
        }
        fn turn(&self, s: &S) -> Turn {
            if s.n >= 20 && !matches!(self.0, Bug::Endless) {
                Turn::Terminal
            } else if s.chance {
                Turn::Chance
            } else {
                Turn::Player(s.mover)
            }
        }
        fn legal_actions(&self, s: &S) -> Self::Actions {
            match self.turn(s) {
                Turn::Player(_) if matches!(self.0, Bug::Duplicate) => [1, 1].into(),
                Turn::Player(_) => [1, 2].into(),
                _ => Default::default(),
            }
        }
        fn apply(&self, s: &mut S, a: u8) {
            if matches!(self.0, Bug::Panic) && s.n > 10 {
                panic!("counter overflow");
            }
            if s.chance {
                s.chance = false;
                s.mover ^= a % 2;
            } else {
                s.n += u32::from(a);
                s.chance = true;
            }
        }
        fn chance_outcomes(&self, _s: &S) -> Vec<(u8, f64)> {
            vec![(0, 0.5), (1, 0.5)]
        }
        fn sample_chance(&self, _s: &S, rng: &mut GameRng) -> u8 {
            below(rng, 2) as u8
        }
        fn determinize(&self, s: &S, _o: PlayerId, _rng: &mut GameRng) -> S {
            s.clone()
        }
        fn info_key(&self, s: &S, _o: PlayerId) -> S {
            s.clone()
        }
        fn returns(&self, s: &S) -> Returns {
            let r = if s.mover == 0 { 1.0 } else { -1.0 };
            [r, -r].into_iter().collect()
        }
        fn check_invariants(&self, s: &S) -> Result<(), String> {
            if matches!(self.0, Bug::Invariant) && s.n == 7 {
                return Err("the counter reached 7".into());
            }
            Ok(())
        }
    }

    impl Reporting for Counter {
        fn render(&self, s: &S, _v: Option<PlayerId>) -> String {
            format!("{s:?}")
        }
        fn action_label(&self, _s: &S, a: u8) -> String {
            a.to_string()
        }
    }

    impl Evaluation for Counter {
        fn heuristic(&self, _s: &S, _p: PlayerId) -> f64 {
            0.0
        }
    }

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    #[test]
    fn a_correct_game_passes() {
        let t = soak(&Counter(Bug::None), 1, 0, 300, &pool(2));
        assert_eq!((t.games, t.violations), (300, 0));
        assert!(t.first.is_none());
        assert!(t.steps >= 300 * 2 * 10);
    }

    #[test]
    fn each_planted_bug_is_found_with_its_seed_and_step() {
        quiet_contained_panics();
        for (bug, needle) in [
            (Bug::Invariant, "invariant violated: the counter reached 7"),
            (Bug::Duplicate, "duplicate legal action 1"),
            (Bug::Endless, "not over after max_game_length = 60"),
            (Bug::Panic, "panicked: counter overflow"),
        ] {
            let game = Counter(bug);
            let t = soak(&game, 5, 0, 200, &pool(2));
            let v = t.first.clone().expect("a violation");
            assert!(v.message.contains(needle), "{bug:?}: {}", v.message);
            assert!(t.violations > 0);
            // The report replays: the same index gives the same violation,
            // and it is the lowest index whatever the thread count.
            assert_eq!(soak_game(&game, 5, v.index), Err(v.clone()));
            assert_eq!(soak(&game, 5, 0, 200, &pool(1)).first, Some(v.clone()));
            assert_eq!(v.seed, game_seed(5, v.index));
        }
        // Only games that reach 7 break the invariant, right after the decision
        // that does (decisions are the odd steps).
        let v = soak(&Counter(Bug::Invariant), 5, 0, 200, &pool(2))
            .first
            .unwrap();
        assert!(v.step % 2 == 1, "{v:?}");
    }
}
