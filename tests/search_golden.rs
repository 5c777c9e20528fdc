//! The search agents' choices do not change when the search gets faster:
//! for fixed seeds, every search kind (mcts, ismcts, moismcts, pimc; full and
//! cut rollouts, MAST, widening, bias, normalisation, greedy rollouts, tree
//! reuse, root-parallel trees) decides a few positions of each game, and its
//! choices, iterations and root statistics (visits and mean values, to the
//! last bit) are compared with `tests/golden/search-<game>.txt`.
//!
//! `BOARDLAB_BLESS=1 cargo test --test search_golden` rewrites those files;
//! do that only for a change meant to alter what the searches choose, and
//! say so in its commit.

use std::fmt::Write;
use std::path::Path;

use boardlab::agents::Decision;
use boardlab::agents::registry::AgentSpec;
use boardlab::game::{Game, Turn, random_playout};
use boardlab::games::AnyGame;
use boardlab::rng::rng_from_seed;
use boardlab::with_game;

/// Searches every game affords: cut rollouts keep the long games' tests short.
const CUT: &[&str] = &[
    "mcts(iterations=150,max_rollout=20)",
    "ismcts(iterations=150,max_rollout=20)",
    "moismcts(iterations=150,max_rollout=20)",
    "pimc(iterations=150,max_rollout=20,determinizations=4)",
    "ismcts(iterations=150,max_rollout=20,rollout=mast)",
    "ismcts(iterations=150,max_rollout=20,rollout=mast-gibbs,tau=0.5)",
    "ismcts(iterations=150,max_rollout=20,widen=0.5,rollout=mast,cut=turn)",
    "ismcts(iterations=150,max_rollout=20,widen=0.3,widen_k=2,c=0.99,bias=0.5,normalize=true)",
    "moismcts(iterations=150,max_rollout=20,rollout=mast,widen=0.5)",
    "ismcts(iterations=60,max_rollout=8,rollout=greedy,candidates=4)",
    "mcts(iterations=60,max_rollout=8,rollout=greedy,epsilon=0.2)",
    "ismcts(iterations=150,max_rollout=20,reuse=true)",
    "mcts(iterations=150,max_rollout=20,reuse=true)",
    "ismcts(iterations=100,max_rollout=20,threads=2)",
    "moismcts(iterations=100,max_rollout=20,threads=2)",
];

/// Searches with full random rollouts, for the games whose playouts are cheap.
const FULL: &[&str] = &[
    "mcts(iterations=150)",
    "ismcts(iterations=150)",
    "moismcts(iterations=150)",
    "pimc(iterations=150,determinizations=3)",
    "ismcts(iterations=150,rollout=mast)",
];

/// Start positions per game: random play from each seed for a few steps.
const POSITIONS: &[(u64, u32)] = &[(1, 0), (2, 7), (3, 23)];

/// Consecutive decisions played by the searches from each start position.
const DECISIONS: usize = 3;

/// Every decision of `agent` (one instance per seat) from each start
/// position of `spec`: seat, chosen action, iterations and root statistics.
fn decisions(spec: &str, agent: &str) -> String {
    let game = AnyGame::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let agent_spec = AgentSpec::parse(agent).unwrap_or_else(|e| panic!("{agent}: {e}"));
    with_game!(&game, g => record(g, agent, &agent_spec))
}

fn record<G: Game>(g: &G, label: &str, spec: &AgentSpec) -> String {
    let mut out = String::new();
    for &(seed, walk) in POSITIONS {
        let mut chance = rng_from_seed(seed);
        let mut state = g.initial_state(&mut chance);
        random_playout(g, &mut state, &mut chance, walk);
        let mut agents: Vec<_> = (0..g.num_players())
            .map(|_| spec.build::<G>().unwrap())
            .collect();
        let mut view_rng = rng_from_seed(seed ^ 0x5eed);
        let mut seat_rngs: Vec<_> = (0..g.num_players())
            .map(|p| rng_from_seed(seed * 100 + p as u64))
            .collect();
        let mut decided = 0;
        while decided < DECISIONS {
            let p = match g.turn(&state) {
                Turn::Terminal => break,
                Turn::Chance => {
                    let o = g.sample_chance(&state, &mut chance);
                    g.apply(&mut state, o);
                    continue;
                }
                Turn::Player(p) => p,
            };
            let view = g.determinize(&state, p, &mut view_rng);
            let legal = g.legal_actions(&state);
            let agent = &mut agents[p as usize];
            let action = agent.act(Decision {
                game: g,
                me: p,
                view: &view,
                legal: &legal,
                rng: &mut seat_rngs[p as usize],
                deadline: None,
            });
            write!(
                out,
                "{label} | start {seed}+{walk} | seat {p} | {} | {} iterations |",
                g.action_label(&state, action),
                agent.last_iterations()
            )
            .unwrap();
            for s in agent.last_root_stats().unwrap_or_default() {
                write!(out, " {}:{:?}", s.visits, s.value).unwrap();
            }
            out.push('\n');
            g.apply(&mut state, action);
            decided += 1;
        }
    }
    out
}

/// Compares every listed agent's decisions on `spec` with `search-<name>.txt`.
fn check(name: &str, spec: &str, agents: &[&[&str]]) {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"))
        .join(format!("search-{name}.txt"));
    let all: Vec<&str> = agents.iter().flat_map(|a| a.iter().copied()).collect();
    // One thread per agent: the long games' searches share the cores.
    let got: String = std::thread::scope(|scope| {
        let handles: Vec<_> = all
            .iter()
            .map(|&a| scope.spawn(move || decisions(spec, a)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    if std::env::var_os("BOARDLAB_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (bless to create it)", path.display()));
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        assert_eq!(w, g, "{name}: line {} differs", i + 1);
    }
    assert_eq!(
        want.lines().count(),
        got.lines().count(),
        "{name}: line count"
    );
}

#[test]
fn tictactoe() {
    check("tictactoe", "tictactoe", &[FULL, CUT]);
}

#[test]
fn connect4() {
    check("connect4", "connect4", &[FULL, CUT]);
}

#[test]
fn fox() {
    check("fox", "fox", &[FULL, CUT]);
}

#[test]
fn karmaka() {
    check(
        "karmaka",
        "karmaka",
        &[
            FULL,
            CUT,
            &["ismcts(iterations=150,max_rollout=20,eval=fitted)"],
        ],
    );
}

#[test]
fn karmox() {
    check(
        "karmox",
        "karmox",
        &[CUT, &["ismcts(iterations=150,max_rollout=20,eval=fitted)"]],
    );
}

#[test]
fn hamunaptra() {
    check(
        "hamunaptra",
        "hamunaptra",
        &[
            CUT,
            &["ismcts(iterations=150,max_rollout=20,widen=0.5,rollout=mast,eval=race)"],
        ],
    );
}

#[test]
fn leduc() {
    check("leduc", "leduc", &[FULL, CUT]);
}
