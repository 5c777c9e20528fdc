//! `boardlab metagame` against known answers: a planted game whose three
//! agent families beat each other in a cycle with a known equilibrium mix and
//! value, and the command line's files and errors.

mod common;

use std::sync::Arc;

use boardlab::metagame::{self, MetagameOptions, Payoff};
use boardlab::prelude::*;
use boardlab::runtime::{AgentKind, AnyAgentKind, DynGame, Typed};

/// Side 0 names a number 0..3, side 1 names one without being told side 0's
/// (the agents below never look), then chance makes side 0 win with
/// probability `P[a][b]`.
#[derive(Clone, Debug)]
struct Cycle;

/// `P = ½ + A` with `A` skew-symmetric: `A = [[0, x, -y], [-x, 0, z], [y, -z, 0]]`.
/// The equilibrium of such a game mixes `(z, y, x) / (x + y + z)` on both
/// sides (the kernel of `A`), and its value is ½.
const X: f64 = 0.4;
const Y: f64 = 0.3;
const Z: f64 = 0.2;
const P: [[f64; 3]; 3] = [
    [0.5, 0.5 + X, 0.5 - Y],
    [0.5 - X, 0.5, 0.5 + Z],
    [0.5 + Y, 0.5 - Z, 0.5],
];
const WIN: u8 = 10;
const LOSS: u8 = 11;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(crate = "boardlab::serde")]
struct State {
    picks: Vec<u8>,
    result: Option<u8>,
}

impl Rules for Cycle {
    type State = State;
    type Action = u8;
    type Actions = ArrayVec<u8, 3>;
    type InfoKey = State;

    fn spec(&self) -> String {
        "cycle".into()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        3
    }
    fn max_game_length(&self) -> u32 {
        3
    }
    fn has_hidden_information(&self) -> bool {
        false
    }
    fn initial_state(&self, _rng: &mut GameRng) -> State {
        State {
            picks: Vec::new(),
            result: None,
        }
    }
    fn turn(&self, s: &State) -> Turn {
        match (s.picks.len(), s.result) {
            (n, _) if n < 2 => Turn::Player(n as u8),
            (_, None) => Turn::Chance,
            _ => Turn::Terminal,
        }
    }
    fn legal_actions(&self, _s: &State) -> Self::Actions {
        (0..3).collect()
    }
    fn chance_outcomes(&self, s: &State) -> Vec<(u8, f64)> {
        let p = P[s.picks[0] as usize][s.picks[1] as usize];
        vec![(WIN, p), (LOSS, 1.0 - p)]
    }
    fn apply(&self, s: &mut State, a: u8) {
        if s.picks.len() < 2 {
            s.picks.push(a);
        } else {
            s.result = Some(a);
        }
    }
    fn info_key(&self, s: &State, _observer: PlayerId) -> State {
        s.clone()
    }
    fn returns(&self, s: &State) -> Returns {
        let w = if s.result == Some(WIN) { 1.0 } else { -1.0 };
        [w, -w].into_iter().collect()
    }
}

impl Reporting for Cycle {}

impl Evaluation for Cycle {}

/// Always names `k`: one family of the cycle.
struct Always(u8);

impl Agent<Cycle> for Always {
    fn act(&mut self, _d: Decision<'_, Cycle>) -> u8 {
        self.0
    }
}

fn cycle_game() -> Typed<Cycle> {
    let always = AgentKind::<Cycle> {
        name: "always".into(),
        build: Arc::new(|params: &mut Params| {
            let k = params.int("k", 0, 0, 2)? as u8;
            params.finish("always", &["k"])?;
            Ok(Box::new(Always(k)) as Box<dyn Agent<Cycle>>)
        }),
    };
    Typed::new(Cycle, &[Arc::new(always) as AnyAgentKind])
}

fn options(out: &std::path::Path, games: u64) -> MetagameOptions {
    MetagameOptions {
        agents: (0..3).map(|k| format!("always(k={k})")).collect(),
        games,
        seed: 5,
        threads: 2,
        out: out.to_path_buf(),
        bootstrap: 400,
        calibration_games: 0,
        ..MetagameOptions::default()
    }
}

#[test]
fn shards_of_cells_then_a_resume_solve_as_one_machine_does() {
    let game = cycle_game();
    let whole = tempfile::tempdir().unwrap();
    let one = metagame::run(&game, &options(whole.path(), 300)).unwrap();
    let shared = tempfile::tempdir().unwrap();
    for k in 1..=2 {
        let o = MetagameOptions {
            shard: Some((k, 2)),
            ..options(shared.path(), 300)
        };
        assert!(
            metagame::run(&game, &o).unwrap().is_empty(),
            "a shard solves nothing"
        );
    }
    // Shard 1 of 2 played cells 0, 2, 4, …; shard 2 the others.
    assert!(shared.path().join("cells/cell-0-0/games.csv").exists());
    assert!(shared.path().join("cells/cell-0-1/games.csv").exists());
    assert!(!shared.path().join("metagame.json").exists());
    let o = MetagameOptions {
        resume: true,
        ..options(shared.path(), 300)
    };
    let solved = metagame::run(&game, &o).unwrap();
    assert_eq!(solved, one);
}

#[test]
fn a_planted_cycle_gives_its_equilibrium_mix_and_value() {
    let dir = tempfile::tempdir().unwrap();
    let games = 6000;
    let game = cycle_game();
    let sols = metagame::run(&game, &options(dir.path(), games)).unwrap();
    let sol = &sols[0].1;
    // The value is ½; its bootstrap interval must hold it, and be about as
    // narrow as nine cells of `games` games allow (a side's cell mean has a
    // standard error of at most ½ / √games; the value mixes cells).
    assert!(sol.ci_low <= 0.5 && 0.5 <= sol.ci_high, "{sol:?}");
    let se = 0.5 / (games as f64).sqrt();
    assert!(sol.ci_high - sol.ci_low < 8.0 * se, "{sol:?}");
    assert!((sol.value - 0.5).abs() < 4.0 * se, "{sol:?}");
    // The mix: (z, y, x) / (x + y + z). A cell error e moves the kernel of the
    // matrix by about e / min(x, y, z); four standard errors of that.
    let total = X + Y + Z;
    let truth = [Z / total, Y / total, X / total];
    let tolerance = 4.0 * se / Z.min(Y).min(X) * 3.0;
    for side in 0..2 {
        let mut mix = [0.0; 3];
        for w in &sol.support[side] {
            let k: usize = w.agent[9..10].parse().unwrap();
            mix[k] = w.weight;
        }
        for k in 0..3 {
            assert!(
                (mix[k] - truth[k]).abs() < tolerance,
                "side {side}: mix {mix:?}, expected {truth:?} within {tolerance}"
            );
        }
    }
    // No single member guarantees side 0 its value: each loses a cell badly.
    assert!(sol.best_single[0].guaranteed < 0.5 - 0.1, "{sol:?}");
    // Self-play of each family is a draw of the same number: ½ exactly in
    // expectation, and the diagonal is what a self-play study would report.
    assert_eq!(sol.self_play.len(), 3);
    // The files: every cell is a run of its own, with fixed seats.
    let matrix = std::fs::read_to_string(dir.path().join("matrix.csv")).unwrap();
    assert_eq!(matrix.lines().count(), 1 + 9 * 2, "{matrix}");
    let cell = dir.path().join("cells/cell-0-1/run.json");
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cell).unwrap()).unwrap();
    assert_eq!(run["fixed_seats"], true);
    assert_eq!(run["agents"][0], "always(k=0)");
    assert_eq!(run["agents"][1], "always(k=1)");
}

#[test]
fn cells_share_deals_and_resume_to_the_same_answer() {
    let game = cycle_game();
    let whole = tempfile::tempdir().unwrap();
    let a = metagame::run(&game, &options(whole.path(), 400)).unwrap();
    // A cell cut short, as an interruption leaves it, then resumed: the
    // same games, the same solution.
    let parts = tempfile::tempdir().unwrap();
    metagame::run(&game, &options(parts.path(), 400)).unwrap();
    let cut = parts.path().join("cells/cell-1-2/games.csv");
    let text = std::fs::read_to_string(&cut).unwrap();
    let kept: Vec<&str> = text.lines().take(1 + 2 * 150).collect();
    std::fs::write(&cut, kept.join("\n") + "\n").unwrap();
    let mut o = options(parts.path(), 400);
    o.resume = true;
    let b = metagame::run(&game, &o).unwrap();
    assert_eq!(a[0].1, b[0].1);
    assert_eq!(
        std::fs::read_to_string(&cut).unwrap().lines().count(),
        1 + 2 * 400
    );
    // Game g of every cell is dealt from one seed.
    let seeds = |cell: &str| -> Vec<String> {
        let text = std::fs::read_to_string(whole.path().join("cells").join(cell).join("games.csv"))
            .unwrap();
        text.lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap().to_string())
            .collect()
    };
    assert_eq!(seeds("cell-0-1"), seeds("cell-2-2"));
    // Without --resume or --force, an earlier meta-game is not replaced.
    let err = metagame::run(&game, &options(whole.path(), 400)).unwrap_err();
    assert!(
        err.to_string().contains("already holds a meta-game"),
        "{err}"
    );
}

#[test]
fn the_population_is_checked_before_anything_is_played() {
    let game = cycle_game();
    let dir = tempfile::tempdir().unwrap();
    let mut o = options(dir.path(), 10);
    o.agents = vec!["always(k=0)".into(), "always(k=0)".into()];
    let err = metagame::run(&game, &o).unwrap_err().to_string();
    assert!(err.contains("listed twice"), "{err}");
    o.agents = vec!["always(k=7)".into()];
    let err = metagame::run(&game, &o).unwrap_err().to_string();
    assert!(err.contains('k'), "{err}");
    o.agents = vec!["always(k={budget})".into()];
    let err = metagame::run(&game, &o).unwrap_err().to_string();
    assert!(err.contains("--budgets"), "{err}");
    assert!(!dir.path().join("cells").exists());
    assert_eq!(game.sides(), vec![0, 1]);
}

#[test]
fn return_payoffs_of_a_constant_sum_game_have_the_matching_value() {
    // Returns are ±1, so side 0's expected return is 2 · ½ − 1 = 0 at the
    // equilibrium; the standard error of a cell mean is at most 1 / √games.
    let game = cycle_game();
    let dir = tempfile::tempdir().unwrap();
    let mut o = options(dir.path(), 3000);
    o.payoff = Payoff::Return;
    let sol = metagame::run(&game, &o).unwrap().remove(0).1;
    assert!(sol.ci_low <= 0.0 && 0.0 <= sol.ci_high, "{sol:?}");
    assert!(sol.fair.is_none());
    let se = 1.0 / 3000f64.sqrt();
    assert!(sol.value.abs() < 4.0 * se, "{sol:?}");
}

#[test]
fn the_command_writes_its_files_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mg");
    let out_text = out.to_str().unwrap();
    let ok = common::boardlab(&[
        "metagame",
        "--game",
        "kuhn",
        "--agents",
        "random,greedy",
        "--games",
        "40",
        "--payoff",
        "return",
        "--bootstrap",
        "50",
        "--out",
        out_text,
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(stdout.contains("value of the meta-game"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("metagame.json")).unwrap()).unwrap();
    for key in [
        "value",
        "ci_low",
        "ci_high",
        "payoff",
        "support",
        "best_single",
        "self_play",
    ] {
        assert!(json.get(key).is_some(), "metagame.json lacks {key}: {json}");
    }
    assert_eq!(json["payoff"], "return");
    // The dashboard draws the matrix as a heat map.
    let report = common::boardlab(&["report", out_text]);
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains("class=\"heatmap\""),
        "no heat map in the page"
    );
    // Every cell verifies as an ordinary run.
    let verify = common::boardlab(&["verify", out_text]);
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
    assert_eq!(
        String::from_utf8_lossy(&verify.stdout)
            .lines()
            .filter(|l| l.starts_with("fresh ") && l.contains("cells/cell-"))
            .count(),
        4,
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
    for (args, says) in [
        (
            vec!["--game", "kuhn", "--agents", "random", "--payoff", "chips"],
            "unknown payoff",
        ),
        (vec!["--game", "nosuch", "--agents", "random"], "nosuch"),
        (
            vec!["--game", "kuhn", "--agents", "random,random"],
            "listed twice",
        ),
        (vec!["--game", "kuhn", "--agents", "nosuch"], "nosuch"),
        (
            vec![
                "--game",
                "kuhn",
                "--agents",
                "ismcts(iterations={budget})",
                "--budgets",
                "5,3",
            ],
            "increasing",
        ),
        (
            vec![
                "--game",
                "kuhn",
                "--agents",
                "ismcts(iterations={budget})",
                "--budgets",
                "x",
            ],
            "--budgets",
        ),
        (
            vec!["--game", "kuhn", "--agents", "random", "--games", "0"],
            "games",
        ),
    ] {
        let fresh = dir.path().join("bad");
        let mut full = vec!["metagame"];
        full.extend(&args);
        full.extend(["--out", fresh.to_str().unwrap()]);
        let o = common::boardlab(&full);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!fresh.join("metagame.json").exists());
    }
}

#[test]
fn kuhn_poker_has_its_known_value_where_self_play_of_a_pure_policy_does_not() {
    // Kuhn poker's first player loses 1/18 of a chip a game at equilibrium.
    // With an equilibrium player (cfr) in the population the meta-game's
    // value must come back to it; greedy play, a pure policy, in self-play
    // is exploitable and reads another number. Returns are ±1 or ±2 chips,
    // so a cell's mean has a standard error of at most 2 / √games.
    let dir = tempfile::tempdir().unwrap();
    let games = "3000";
    let o = common::boardlab(&[
        "metagame",
        "--game",
        "kuhn",
        "--agents",
        "cfr(iterations=2000),greedy,random",
        "--games",
        games,
        "--payoff",
        "return",
        "--bootstrap",
        "400",
        "--quiet",
        "--out",
        dir.path().join("k").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("k/metagame.json")).unwrap())
            .unwrap();
    let truth = -1.0 / 18.0;
    let (lo, hi) = (
        json["ci_low"].as_f64().unwrap(),
        json["ci_high"].as_f64().unwrap(),
    );
    assert!(lo <= truth && truth <= hi, "value interval [{lo}, {hi}]");
    let se = 2.0 / 3000f64.sqrt();
    assert!(hi - lo < 6.0 * se, "value interval [{lo}, {hi}] too wide");
    let greedy = &json["self_play"][1];
    assert_eq!(greedy["agent"], "greedy");
    let (glo, ghi) = (
        greedy["ci_low"].as_f64().unwrap(),
        greedy["ci_high"].as_f64().unwrap(),
    );
    assert!(
        truth < glo || ghi < truth,
        "greedy self-play [{glo}, {ghi}] holds the game's value"
    );
}

/// Matched CPU: a search whose iterations cost more is given fewer of them,
/// a member that does not search is kept as written, and the calibration
/// kept in the folder is what a second run plays (no new measurement).
#[test]
fn matched_cpu_refuses_what_it_cannot_match() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mg");
    let out_text = out.to_str().unwrap();
    for (args, says) in [
        (vec!["--match-cpu", "0"], "above 0"),
        (vec!["--match-cpu", "NaN"], "above 0"),
        (vec!["--match-cpu", "1e9"], "at most"),
        (vec!["--match-cpu=-3"], "above 0"),
        (vec!["--match-cpu", "abc"], "--match-cpu"),
        (vec!["--match-cpu", "5", "--budgets", "10,20"], "--budgets"),
        (vec!["--calibrate-only"], "--match-cpu"),
    ] {
        let mut all = vec![
            "metagame",
            "--game",
            "connect4",
            "--agents",
            "greedy,mcts(iterations=4)",
            "--games",
            "2",
            "--out",
            out_text,
        ];
        all.extend(args.iter().copied());
        let r = common::boardlab(&all);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{all:?}: {err}");
        assert!(err.contains(says), "{all:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let r = common::boardlab(&[
        "metagame",
        "--game",
        "connect4",
        "--agents",
        "greedy,mcts(cpu_ms=4)",
        "--games",
        "2",
        "--match-cpu",
        "3",
        "--out",
        out_text,
    ]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("time budget"), "{err}");
    assert!(!out.join("calibration.json").exists());
}
