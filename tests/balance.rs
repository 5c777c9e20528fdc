//! The balance methods recover the closed-form answers of the calibration game
//! `planted` (seat 0 wins p·(1 − komi), the card adds `card` to its holder's
//! win chance, the fair komi is 1 − 1/(2p)), with tolerances from the sample
//! size; and duplicate deals are measured for what they do and do not narrow.

mod common;
use common::{boardlab, temp_dir};

use boardlab::agents::registry::AgentSpec;
use boardlab::arena::{RunOptions, run};
use boardlab::balance::ablate::{AblateOptions, ablate};
use boardlab::balance::fair::{FairOptions, solve};
use boardlab::balance::skill::{SkillOptions, measure};
use boardlab::balance::{Group, Rate, clustered_rate, normal_quantile};
use boardlab::game::{Game, Turn};
use boardlab::games::karmaka::{Action, Karmaka};
use boardlab::games::planted::Planted;
use boardlab::rng::{below, rng_from_seed};
use boardlab::spec::Params;

/// The two-sided normal quantile of a confidence level.
fn normal_z(level: f64) -> f64 {
    normal_quantile(1.0 - (1.0 - level) / 2.0)
}

fn planted() -> Planted {
    Planted::from_params(&mut Params::default()).unwrap()
}

fn rate_of(rates: &[(Group, Rate)], g: &Group) -> Rate {
    rates.iter().find(|(h, _)| h == g).unwrap().1
}

/// |estimate − truth| within four standard errors: a 1-in-15 000 miss.
fn near(r: &Rate, truth: f64) -> bool {
    (r.rate - truth).abs() <= 4.0 * r.se
}

#[test]
fn balance_recovers_the_planted_seat_advantage_at_every_budget_and_stops_when_budgets_agree() {
    let o = SkillOptions {
        agent: "mcts".into(),
        budgets: vec![4, 8, 16, 32],
        until: None,
        max_games: 3000,
        duplicate: false,
        tolerance: 0.05,
        max_seconds: None,
        ladder_games: 10,
        seed: 5,
        threads: 0,
    };
    let r = measure(&planted(), &o).unwrap();
    // Identical agents: seat 0 wins p = 0.6 whatever the budget, and the card's
    // holder 0.5·(0.6 + 0.15) + 0.5·(1 − 0.6 + 0.15) = 0.65.
    for b in &r.budgets {
        let seat0 = rate_of(&b.rates, &Group::Seat(0));
        let card = rate_of(&b.rates, &Group::Role("card".into()));
        assert!(near(&seat0, 0.6), "budget {}: seat 0 {seat0:?}", b.budget);
        assert!(near(&card, 0.65), "budget {}: card {card:?}", b.budget);
        assert!(seat0.se < 0.01, "3000 games: se {}", seat0.se);
        assert!(b.elo.is_some(), "two-player game: an Elo per budget");
    }
    // Two budgets of the same balance agree at once: the search stops at the second.
    assert_eq!(r.budgets.len(), 2, "{}", r.stop);
    assert!(
        r.stop.starts_with("converged: budgets 4 and 8"),
        "{}",
        r.stop
    );
    let csv = r.to_csv();
    assert!(csv.starts_with("budget,kind,group,games,rate,low,high,tost_p,elo"));
    assert_eq!(csv.lines().count(), 1 + 2 * 4, "{csv}");
    assert!(r.to_markdown().contains("seat 0"));
}

#[test]
fn balance_is_the_same_for_any_thread_count() {
    let dir = temp_dir("balance-threads");
    let mut outs = Vec::new();
    for threads in ["1", "3"] {
        let out = dir.join(threads);
        let o = boardlab(&[
            "balance",
            "--game",
            "planted",
            "--agent",
            "mcts",
            "--budgets",
            "4,8",
            "--until",
            "ci=0.03",
            "--max-games",
            "1200",
            "--duplicate",
            "--ladder-games",
            "4",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        outs.push(std::fs::read_to_string(out.join("balance.csv")).unwrap());
        assert!(out.join("balance.json").exists() && out.join("balance.md").exists());
    }
    assert_eq!(outs[0], outs[1]);
}

#[test]
fn fair_recovers_the_planted_komi_within_its_bracket() {
    let truth = planted().fair_komi(); // 1 − 1/1.2 = 1/6
    let o = FairOptions {
        game: "planted".into(),
        param: "komi".into(),
        range: (0.0, 0.5),
        agent: "random".into(),
        target: 0.5,
        group: Group::Seat(0),
        max_games: 4000,
        precision: 0.5 / 64.0,
        seed: 3,
        threads: 0,
    };
    let r = solve(&o).unwrap();
    assert!(
        r.low <= truth && truth <= r.high,
        "fair komi {truth} outside [{}, {}]; probes {:?}",
        r.low,
        r.high,
        r.probes
    );
    // At 4000 games a probe decides once |0.6·(1 − k) − ½| exceeds z·0.0079
    // with z ≈ 3.8 after correction, that is |k − 1/6| > 0.05: the bracket is
    // that band (0.1) plus a probe spacing at each end.
    let band = 2.0 * normal_z(r.probe_level) * (0.25f64 / 4000.0).sqrt() / 0.6;
    assert!(
        r.high - r.low < band + 4.0 * o.precision,
        "bracket [{}, {}] wider than {band} + 4 precisions",
        r.low,
        r.high
    );
    assert!((r.estimate - truth).abs() < 0.1, "estimate {}", r.estimate);
    assert!(r.to_csv().lines().count() == 1 + r.probes.len());
}

#[test]
fn fair_refuses_a_range_the_rate_does_not_cross() {
    let o = FairOptions {
        game: "planted".into(),
        param: "komi".into(),
        range: (0.5, 0.55),
        agent: "random".into(),
        target: 0.5,
        group: Group::Seat(0),
        max_games: 2000,
        precision: 0.01,
        seed: 3,
        threads: 1,
    };
    let e = solve(&o).unwrap_err().to_string();
    assert!(e.contains("does not cross 0.5"), "{e}");
}

#[test]
fn ablate_recovers_the_planted_card_effect_within_its_interval() {
    let o = AblateOptions {
        agent: "random".into(),
        games: 4000,
        only: None,
        seed: 9,
        threads: 0,
    };
    let r = ablate(&planted(), &o).unwrap();
    assert_eq!(r.effects.len(), 1);
    let e = &r.effects[0];
    assert_eq!((e.component.as_str(), e.param.as_str()), ("card", "card=0"));
    assert_eq!(e.games_held, 4000, "the card is dealt in every game");
    assert!(e.low <= 0.15 && 0.15 <= e.high, "{e:?}");
    // Paired on the same seeds, the difference is 1 with probability 0.15 and
    // 0 otherwise: se = sqrt(0.15·0.85/4000) ≈ 0.0056.
    assert!(e.high - e.low < 0.03, "{e:?}");
    assert!(e.p_value < 1e-6);
}

#[test]
fn karmaka_no_ability_forbids_that_ability_and_is_listed_as_an_ablation() {
    let g = Karmaka::parse("karmaka(no_ability=ven)").unwrap();
    assert_eq!(g.spec(), "karmaka(no_ability=VEN)");
    let ven = g.cards.types.iter().position(|t| t.code == "VEN").unwrap() as u8;
    let mut rng = rng_from_seed(4);
    let mut saw_ability = false;
    for _ in 0..20 {
        let mut s = g.initial_state(&mut rng);
        for _ in 0..400 {
            let a = match g.turn(&s) {
                Turn::Terminal => break,
                Turn::Chance => g.sample_chance(&s, &mut rng),
                Turn::Player(_) => {
                    let legal = g.legal_actions(&s);
                    assert!(!legal.contains(&Action::Ability(ven)));
                    saw_ability |= legal.iter().any(|a| matches!(a, Action::Ability(_)));
                    legal[below(&mut rng, legal.len())]
                }
            };
            g.apply(&mut s, a);
        }
    }
    assert!(saw_ability, "other abilities stay playable");
    let base = Karmaka::parse("karmaka").unwrap();
    let list = base.ablations();
    assert_eq!(list.len(), base.cards.types.len());
    let v = list.iter().find(|a| a.component == "VEN ability").unwrap();
    assert_eq!(v.param, ("no_ability".to_string(), "VEN".to_string()));
    assert_eq!(v.holder_metric, "played_ven_ability");
    let e = Karmaka::parse("karmaka(no_ability=XYZ)")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no_ability") && e.contains("VEN"), "{e}");
}

/// Half-widths of the 95 % intervals of seat 0's and agent 0's win rates in
/// greedy against random at `planted`, with deals counted as clusters.
fn widths(duplicate: bool, games: u64) -> (f64, f64) {
    let specs = vec![
        AgentSpec::parse("greedy").unwrap(),
        AgentSpec::parse("random").unwrap(),
    ];
    let opts = RunOptions {
        games,
        seed: 11,
        threads: 0,
        keep_rows: true,
        duplicate,
        ..RunOptions::default()
    };
    let out = run(&planted(), &specs, &opts).unwrap();
    let cluster = |i: u64| if duplicate { i / 2 } else { i };
    let units = |keep: &dyn Fn(&boardlab::arena::record::GameRow) -> bool| {
        let u: Vec<(u64, f64)> = out
            .rows
            .iter()
            .filter(|r| keep(r))
            .map(|r| (cluster(r.game_index), boardlab::balance::points(r.outcome)))
            .collect();
        clustered_rate(&u).half_width()
    };
    (units(&|r| r.seat == 0), units(&|r| r.agent_index == 0))
}

/// Duplicate deals replay the same chance stream with the agents rotated. An
/// agent then meets the same luck in both seats, so its deal result cancels
/// the luck and its interval narrows. A seat keeps its chance stream in both
/// games of a deal (the last draw is the same number against the same seat's
/// chance), so the two games repeat one piece of luck: a seat's interval,
/// counted honestly over deals, is wider for the same number of games.
#[test]
fn duplicate_deals_narrow_agent_intervals_not_seat_intervals() {
    let (seat_plain, agent_plain) = widths(false, 4000);
    let (seat_dup, agent_dup) = widths(true, 4000);
    // Expected ratios: agent ≈ √(2·0.025/0.25) ≈ 0.45, seat ≈ √2·0.96 ≈ 1.36.
    assert!(
        agent_dup < 0.7 * agent_plain,
        "agent half-width {agent_dup:.4} with duplicate deals, {agent_plain:.4} without"
    );
    assert!(
        seat_dup > 1.15 * seat_plain,
        "seat half-width {seat_dup:.4} with duplicate deals, {seat_plain:.4} without"
    );
}
