//! The balance methods recover the closed-form answers of the calibration game
//! `planted` (seat 0 wins p·(1 − komi), the card adds `card` to its holder's
//! win chance, the fair komi is 1 − 1/(2p)), with tolerances from the sample
//! size; and duplicate deals are measured for what they do and do not narrow.

mod common;
use common::{boardlab, temp_dir};

use boardlab::agents::registry::AgentSpec;
use boardlab::arena::{RunOptions, run};
use boardlab::balance::Group;
use boardlab::balance::ablate::{AblateOptions, ablate};
use boardlab::balance::fair::{FairOptions, solve};
use boardlab::balance::skill::{SkillOptions, measure};
use boardlab::game::{Reporting, Rules, Turn};
use boardlab::games::karmaka::{Action, Karmaka};
use boardlab::games::planted::Planted;
use boardlab::rng::{below, rng_from_seed};
use boardlab::spec::Params;
use boardlab::stats::normal_quantile;
use boardlab::stats::rate::{Rate, clustered_rate};

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
        progress: false,
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
    // Per budget: 2 seats and 2 roles, then the one ending (planted games all end so).
    assert_eq!(csv.lines().count(), 1 + 2 * (4 + 1), "{csv}");
    assert_eq!(
        csv.lines().filter(|l| l.contains(",ending,end,")).count(),
        2,
        "{csv}"
    );
    assert!(
        r.budgets
            .iter()
            .all(|b| b.endings.len() == 1 && b.endings[0].1.rate == 1.0)
    );
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
            .map(|r| (cluster(r.game_index), r.outcome.points()))
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

/// One point of the dashboard's balance-against-skill table: the group, the
/// Elo interval and the win rate's interval.
struct CurveRow {
    group: String,
    elo: (f64, f64, f64),
    rate: (f64, f64, f64),
}

/// `0.612 [0.590, 0.634]` or `+108 [+70, +140]` as (estimate, low, high).
fn estimate(cell: &str) -> (f64, f64, f64) {
    let (v, ci) = cell.trim().split_once(" [").expect(cell);
    let (lo, hi) = ci.trim_end_matches(']').split_once(", ").expect(cell);
    let f = |t: &str| t.trim().parse::<f64>().expect(cell);
    (f(v), f(lo), f(hi))
}

/// The skill curve drawn by `boardlab report` from a `boardlab balance` run of
/// `planted(card=0.1,skill=0.3)` falls on the closed-form values: identical
/// agents give seat 0 p = 0.6 and the card's holder ½·(0.6 + 0.1) +
/// ½·(0.4 + 0.1) = 0.6 at every budget; a search that finds bold play wins
/// ½ + skill/2 = 0.65 against random play, an Elo of 400·log10(0.65/0.35) ≈ 108
/// (random = 0). Each point's 95 % interval must hold its planted value, and
/// the Elo interval must exclude 0 (400 games per ladder meeting: se ≈ 18).
#[test]
fn the_dashboard_skill_curve_of_planted_falls_on_the_closed_form_values() {
    let dir = temp_dir("skill-curve");
    let d = dir.to_str().unwrap();
    let o = boardlab(&[
        "balance",
        "--game",
        "planted(card=0.1,skill=0.3)",
        "--agent",
        "mcts",
        "--budgets",
        "64,128",
        "--max-games",
        "1000",
        "--ladder-games",
        "400",
        "--seed",
        "2",
        "--out",
        d,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = boardlab(&["report", d]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(dir.join("dashboard.md")).unwrap();
    let rows: Vec<CurveRow> = md
        .lines()
        .skip_while(|l| !l.starts_with("| kind | group | budget | Elo [95 %] |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("| ending "))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            CurveRow {
                group: c[2].to_string(),
                elo: estimate(c[4]),
                rate: estimate(c[6]),
            }
        })
        .collect();
    assert_eq!(rows.len(), 2 * 4, "two budgets × (2 seats + 2 roles): {md}");
    let truth_elo = 400.0 * (0.65f64 / 0.35).log10();
    for r in &rows {
        let truth = match r.group.as_str() {
            "seat 0" => 0.6,
            "seat 1" => 0.4,
            "card" => 0.6,
            "plain" => 0.4,
            g => panic!("unexpected group {g}"),
        };
        let (_, lo, hi) = r.rate;
        assert!(
            lo <= truth && truth <= hi,
            "{}: {:?} vs {truth}",
            r.group,
            r.rate
        );
        let (_, elo_lo, elo_hi) = r.elo;
        assert!(
            elo_lo <= truth_elo && truth_elo <= elo_hi && elo_lo > 0.0,
            "{}: Elo {:?} vs {truth_elo:.0}",
            r.group,
            r.elo
        );
    }
    // The page draws it: one line per group on each chart, a point per budget,
    // the fair share dashed.
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let at = html
        .find("<section id=\"balance-0\">")
        .expect("balance section");
    let section = &html[at..at + html[at..].find("</section>").unwrap()];
    assert_eq!(
        section.matches("class=\"skill-curve\"").count(),
        2,
        "seats and roles"
    );
    assert_eq!(section.matches("<polyline class=\"curve\"").count(), 4);
    assert_eq!(section.matches("<g class=\"point\">").count(), 8);
    assert_eq!(section.matches("class=\"fair\"").count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Duplicate deals on a luck-heavy game, through the binary: `planted` is
/// decided by one uniform draw, and the agents' choices (greedy against
/// random play) move its threshold by at most 2·skill = 0.2. 2000 games each
/// way. Without `--duplicate` agent 0's win rate (about 0.54) has the binomial
/// interval of 2000 games, half-width ≈ 1.96·√(0.248/2000) ≈ 0.0218. With it
/// the report's paired estimate over 1000 deals takes, per deal, the agent's
/// mean over the deal's two games minus ½; the shared draw cancels unless it
/// falls between the two games' thresholds, so the per-deal value is ±½ with
/// probability at most 0.2 and 0 otherwise: sd at most √(0.25·0.2) ≈ 0.224,
/// half-width at most 1.96·0.224/√1000 ≈ 0.0139, a ratio of at most 0.64
/// (0.42 measured: results/duplicate-deals). The sd estimated from 1000 such
/// deals has a relative error of about √((1/0.2 − 1)/4000) ≈ 3 %, so the
/// bound 0.7 holds the worst case with three standard errors; without the
/// shared luck cancelling the ratio would be near 1. Both runs estimate the
/// same advantage, so the two estimates must agree within four standard
/// errors of their difference.
#[test]
fn duplicate_deals_shrink_the_paired_agent_interval_on_a_luck_heavy_game() {
    let dir = temp_dir("duplicate-shrinks");
    let run = |dup: bool| {
        let out = dir.join(if dup { "dup" } else { "plain" });
        let mut args = vec![
            "run",
            "--game",
            "planted",
            "--agents",
            "greedy,random",
            "--games",
            "2000",
            "--seed",
            "7",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ];
        if dup {
            args.push("--duplicate");
        }
        let o = boardlab(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out
    };
    // Without duplicate deals: agent 0's row of summary.csv (Wilson interval).
    let plain = run(false);
    let summary = std::fs::read_to_string(plain.join("summary.csv")).unwrap();
    let head: Vec<&str> = summary.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = summary.lines().nth(1).unwrap().split(',').collect();
    let col = |name: &str| -> f64 {
        row[head.iter().position(|h| *h == name).unwrap()]
            .parse()
            .unwrap()
    };
    assert_eq!(
        row[head.iter().position(|h| *h == "agent").unwrap()],
        "greedy"
    );
    let plain_half = (col("ci_high") - col("ci_low")) / 2.0;
    // With them: the paired estimate of the report (summarize).
    let dup = run(true);
    let o = boardlab(&["summarize", dup.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = std::fs::read_to_string(dup.join("report.md")).unwrap();
    assert!(
        report.contains("Paired estimates over 1000 duplicate deals"),
        "{report}"
    );
    let line = report
        .lines()
        .find(|l| l.starts_with("| greedy |"))
        .expect("greedy's paired estimate");
    let c: Vec<&str> = line.split('|').map(str::trim).collect();
    let estimate: f64 = c[2].parse().unwrap();
    let (lo, hi) = c[3]
        .trim_matches(['[', ']'])
        .split_once(", ")
        .map(|(a, b)| (a.parse::<f64>().unwrap(), b.parse::<f64>().unwrap()))
        .unwrap();
    let dup_half = (hi - lo) / 2.0;
    let plain_estimate = col("win_rate") - 0.5;
    let se = (dup_half.powi(2) + plain_half.powi(2)).sqrt() / 1.96;
    assert!(
        (estimate - plain_estimate).abs() < 4.0 * se,
        "greedy's advantage {estimate:.4} paired, {plain_estimate:.4} unpaired"
    );
    assert!(
        dup_half < 0.7 * plain_half,
        "half-width {dup_half:.4} with duplicate deals, {plain_half:.4} without"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `balance` on `planted` with `extra` arguments into `out`.
fn planted_balance(tolerance: &str, out: &std::path::Path, extra: &[&str]) {
    let mut args = vec![
        "balance",
        "--game",
        "planted(card=0.1,skill=0.3)",
        "--agent",
        "mcts",
        "--budgets",
        "4,8,16",
        "--max-games",
        "30",
        "--ladder-games",
        "6",
        "--tolerance",
        tolerance,
        "--seed",
        "9",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = boardlab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn balance_shards_merged_equal_the_unsharded_result_byte_for_byte() {
    // A tight tolerance plays every budget and rates the ladder from the
    // shards' pairs; a loose one stops at the second budget, so the merge must
    // stop there too and rate the shorter ladder a single run plays.
    for (tolerance, budgets) in [("0.05", 3), ("0.45", 2)] {
        let dir = temp_dir(&format!("balance-shards-{tolerance}"));
        planted_balance(tolerance, &dir.join("whole"), &[]);
        let mut shards = Vec::new();
        for k in 1..=3 {
            let shard = dir.join(format!("shard-{k}"));
            planted_balance(tolerance, &shard, &["--shard", &format!("{k}/3")]);
            shards.push(shard.to_str().unwrap().to_string());
        }
        let merged = dir.join("merged");
        let mut args = vec!["merge"];
        args.extend(shards.iter().map(String::as_str));
        args.extend(["--out", merged.to_str().unwrap()]);
        let o = boardlab(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        for file in ["balance.csv", "balance.json", "balance.md"] {
            let whole = std::fs::read(dir.join("whole").join(file)).unwrap();
            let from_shards = std::fs::read(merged.join(file)).unwrap();
            assert!(
                whole == from_shards,
                "tolerance {tolerance}: {file} differs:\n{}\n---\n{}",
                String::from_utf8_lossy(&whole),
                String::from_utf8_lossy(&from_shards)
            );
        }
        // The same records: spec, and the games of the budgets rated only.
        assert_eq!(
            std::fs::read(dir.join("whole").join("balance-run.json")).unwrap(),
            std::fs::read(merged.join("balance-run.json")).unwrap()
        );
        for b in [4, 8, 16] {
            let (w, m) = (games(&dir.join("whole"), b), games(&merged, b));
            assert_eq!(w.exists(), m.exists(), "tolerance {tolerance}: budget {b}");
            if w.exists() {
                assert_eq!(common::without_timing(&w), common::without_timing(&m));
            }
            // And the samples `verify` replays when the games are not kept.
            let sample = |d: &std::path::Path| d.join(format!("sample-{b}.csv"));
            let (w, m) = (sample(&dir.join("whole")), sample(&merged));
            assert_eq!(w.exists(), m.exists(), "tolerance {tolerance}: sample {b}");
            if w.exists() {
                assert_eq!(common::without_timing(&w), common::without_timing(&m));
            }
        }
        let csv = std::fs::read_to_string(merged.join("balance.csv")).unwrap();
        let rated = csv.lines().filter(|l| l.contains(",seat,0,")).count();
        assert_eq!(rated, budgets, "tolerance {tolerance}:\n{csv}");
        // Two shards of three are not the whole: the merge names the missing one.
        let o = boardlab(&[
            "merge",
            &shards[0],
            &shards[2],
            "--out",
            merged.to_str().unwrap(),
            "--force",
        ]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("shard 2/3 is missing"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn balance_shards_refuse_a_game_count_that_depends_on_the_other_shards() {
    let dir = temp_dir("balance-shard-until");
    let o = boardlab(&[
        "balance",
        "--game",
        "planted",
        "--agent",
        "mcts",
        "--budgets",
        "4,8",
        "--until",
        "ci=0.1",
        "--shard",
        "1/2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("drop --until and --max-seconds"), "{err}");
    assert!(!dir.exists(), "nothing is created on bad input");
}

/// `balance` on planted over budgets 4, 8 and 16 that never agree (tolerance
/// 0.001), `--until ci=0.04` with duplicate deals, into `out`.
fn resumable(out: &std::path::Path, threads: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "balance",
        "--game",
        "planted",
        "--agent",
        "mcts",
        "--budgets",
        "4,8,16",
        "--until",
        "ci=0.04",
        "--max-games",
        "1400",
        "--duplicate",
        "--tolerance",
        "0.001",
        "--ladder-games",
        "6",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    boardlab(&args)
}

/// Keeps the first `share` of `path`'s bytes, cutting a line in two.
fn cut(path: &std::path::Path, share: f64) {
    let bytes = std::fs::read(path).unwrap();
    let keep = (bytes.len() as f64 * share) as usize;
    assert!(bytes[keep - 1] != b'\n' || bytes[keep] != b'\n');
    std::fs::write(path, &bytes[..keep]).unwrap();
}

/// A ladder journal without its timings (`think_us_*`), in pair order
/// (threads finish pairs in any order).
fn pairs_without_timing(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let mut lines: Vec<String> = text
        .lines()
        .map(|l| {
            l.split(',')
                .zip(&header)
                .filter(|(_, h)| !h.starts_with("think_us"))
                .map(|(f, _)| f)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    lines.sort();
    lines
}

/// Budget `b`'s games file in `d`.
fn games(d: &std::path::Path, b: u64) -> std::path::PathBuf {
    d.join(format!("games-{b}.csv"))
}

/// What a kill leaves undone in a copy of a finished study.
type Interrupt = dyn Fn(&std::path::Path);

#[test]
fn a_resumed_balance_study_writes_the_files_of_one_never_interrupted() {
    let dir = temp_dir("balance-resume");
    let whole = dir.join("whole");
    let o = resumable(&whole, "1", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Every budget was played, each stopping by --until short of the cap.
    let lines = |b| {
        std::fs::read_to_string(games(&whole, b))
            .unwrap()
            .lines()
            .count()
    };
    for b in [4, 8, 16] {
        assert!(
            lines(b) > 401 && lines(b) < 1 + 2 * 1400,
            "budget {b}: {} lines",
            lines(b)
        );
    }
    // Interrupted within a budget (the stopping checks of the games kept are
    // replayed), or within the ladder that comes last.
    let interruptions: [(&str, &Interrupt); 3] = [
        ("in the first budget", &|d| {
            cut(&games(d, 4), 0.3);
            for b in [8, 16] {
                std::fs::remove_file(games(d, b)).unwrap();
            }
            std::fs::remove_file(d.join("ladder-pairs.csv")).unwrap();
        }),
        ("in the second budget", &|d| {
            cut(&games(d, 8), 0.55);
            std::fs::remove_file(games(d, 16)).unwrap();
            std::fs::remove_file(d.join("ladder-pairs.csv")).unwrap();
        }),
        ("in the ladder", &|d| cut(&d.join("ladder-pairs.csv"), 0.5)),
    ];
    for (i, (when, interrupt)) in interruptions.iter().enumerate() {
        let part = dir.join(format!("part-{i}"));
        std::fs::create_dir_all(&part).unwrap();
        for entry in std::fs::read_dir(&whole).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            if !name.starts_with("balance.") {
                std::fs::copy(&path, part.join(name)).unwrap();
            }
        }
        interrupt(&part);
        // The complete games left (2 rows each), timings included.
        let kept: Vec<(u64, String)> = [4, 8, 16]
            .into_iter()
            .filter(|&b| games(&part, b).exists())
            .map(|b| {
                let text = std::fs::read_to_string(games(&part, b)).unwrap();
                let whole = text.lines().count() - usize::from(!text.ends_with('\n'));
                let rows = 1 + (whole - 1) / 2 * 2;
                (
                    b,
                    text.lines().take(rows).map(|l| format!("{l}\n")).collect(),
                )
            })
            .collect();
        let o = resumable(&part, "3", &["--resume"]);
        assert!(
            o.status.success(),
            "{when}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        for f in [
            "balance.csv",
            "balance.json",
            "balance.md",
            "balance-run.json",
        ] {
            assert_eq!(
                std::fs::read(whole.join(f)).unwrap(),
                std::fs::read(part.join(f)).unwrap(),
                "{when}: {f}"
            );
        }
        // Kept, not played again: their timings are the interrupted run's.
        for (b, prefix) in &kept {
            let text = std::fs::read_to_string(games(&part, *b)).unwrap();
            assert!(text.starts_with(prefix.as_str()), "{when}: budget {b}");
        }
        for b in [4, 8, 16] {
            assert_eq!(
                common::without_timing(&games(&whole, b)),
                common::without_timing(&games(&part, b)),
                "{when}: games of budget {b}"
            );
        }
        assert_eq!(
            pairs_without_timing(&whole.join("ladder-pairs.csv")),
            pairs_without_timing(&part.join("ladder-pairs.csv")),
            "{when}: ladder pairs"
        );
    }
}

/// The arguments of a 40-game `balance` study of planted at `budgets`, into
/// `out`, without a ladder.
fn small_study<'a>(out: &'a std::path::Path, budgets: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "balance",
        "--game",
        "planted",
        "--agent",
        "mcts",
        "--budgets",
        budgets,
        "--max-games",
        "40",
        "--ladder-games",
        "0",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn resume_and_compare_refuse_foreign_or_malformed_directories_in_one_line() {
    let dir = temp_dir("balance-resume-bad");
    let study = dir.join("study");
    let o = boardlab(&small_study(&study, "4", &["--threads", "1"]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let copy = |name: &str, edit: &dyn Fn(&std::path::Path)| {
        let d = dir.join(name);
        std::fs::create_dir_all(&d).unwrap();
        for f in ["balance-run.json", "games-4.csv"] {
            std::fs::copy(study.join(f), d.join(f)).unwrap();
        }
        edit(&d);
        d
    };
    let refused = |args: &[&str], needle: &str| {
        let o = boardlab(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(needle) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    };
    let resume = |d: &std::path::Path, budgets: &str, needle: &str| {
        refused(&small_study(d, budgets, &["--resume"]), needle);
    };
    let empty = copy("empty", &|d| {
        std::fs::remove_file(d.join("balance-run.json")).unwrap();
    });
    resume(&empty, "4", "not a `balance` output directory");
    let other = copy("other", &|_| {});
    resume(
        &other,
        "4,8",
        "not the same budgets ([4, 8] here, [4] in the existing study)",
    );
    let garbage = copy("garbage", &|d| {
        let text = std::fs::read_to_string(d.join("games-4.csv")).unwrap();
        let header = text.lines().next().unwrap();
        std::fs::write(d.join("games-4.csv"), format!("{header}\nnot,a,row\n")).unwrap();
    });
    resume(&garbage, "4", "malformed");
    let foreign = copy("foreign", &|d| {
        let text = std::fs::read_to_string(d.join("games-4.csv")).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines[1] = lines[1].replacen(",", ",1", 1); // another seed
        std::fs::write(d.join("games-4.csv"), lines.join("\n") + "\n").unwrap();
    });
    resume(&foreign, "4", "seed");
    // A fresh study into an unfinished one is refused rather than mixed.
    let unfinished = copy("unfinished", &|_| {});
    refused(
        &[
            "balance",
            "--game",
            "planted",
            "--agent",
            "mcts",
            "--budgets",
            "4",
            "--out",
            unfinished.to_str().unwrap(),
        ],
        "--resume",
    );
    // Studies on different seeds do not pair.
    let reseeded = dir.join("reseeded");
    let o = boardlab(&small_study(&reseeded, "4", &["--seed", "2"]));
    assert!(o.status.success());
    refused(
        &[
            "compare",
            "--base",
            study.to_str().unwrap(),
            "--variant",
            reseeded.to_str().unwrap(),
        ],
        "same seeds",
    );
}

#[test]
fn compare_recovers_the_planted_komi_effect_with_a_paired_interval() {
    // Seat 0 wins p·(1 − komi): komi 0.2 moves it by −0.6 · 0.2 = −0.12. The
    // last draw is one uniform number u on both sides, so the games differ only
    // when 0.48 ≤ u < 0.6: the paired difference's variance is 0.12 − 0.12²,
    // against 0.24 + 0.2496 for two independent samples.
    let dir = temp_dir("balance-compare");
    let study = |name: &str, game: &str| {
        let out = dir.join(name);
        let o = boardlab(&[
            "balance",
            "--game",
            game,
            "--agent",
            "mcts",
            "--budgets",
            "4",
            "--max-games",
            "2000",
            "--ladder-games",
            "0",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out
    };
    let (base, variant) = (
        study("base", "planted"),
        study("variant", "planted(komi=0.2)"),
    );
    let o = boardlab(&[
        "compare",
        "--base",
        base.to_str().unwrap(),
        "--variant",
        variant.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(variant.join("paired.csv")).unwrap();
    assert!(variant.join("paired.md").exists());
    let row = csv
        .lines()
        .find(|l| l.starts_with("4,seat,0,"))
        .unwrap_or_else(|| panic!("{csv}"));
    let f: Vec<f64> = row.split(',').skip(3).map(|x| x.parse().unwrap()).collect();
    let (pairs, diff, low, high) = (f[0], f[3], f[4], f[5]);
    assert_eq!(pairs, 2000.0);
    let se = (high - low) / 2.0 / 1.959964;
    let truth_se = ((0.12f64 - 0.0144) / 2000.0).sqrt();
    assert!((diff + 0.12).abs() <= 4.0 * truth_se, "{row}");
    // The interval is the paired one: about 0.46 of the independent samples'.
    let independent = ((0.24f64 + 0.2496) / 2000.0).sqrt();
    assert!(se < 0.6 * independent && se > 0.35 * independent, "{row}");
    // The card's effect is the same in both games: no difference.
    let card = csv.lines().find(|l| l.starts_with("4,role,card,")).unwrap();
    let f: Vec<f64> = card
        .split(',')
        .skip(3)
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(f[4] <= 0.0 && f[5] >= 0.0, "{card}");
    assert!(
        csv.lines()
            .any(|l| l.starts_with("4,ending,end,2000,1.0000,1.0000,0.0000")),
        "{csv}"
    );
    // A variant whose games file is the base study's is refused, as is a
    // "variant" of the base game itself.
    let copied = dir.join("copied");
    std::fs::create_dir_all(&copied).unwrap();
    for f in ["balance-run.json", "games-4.csv"] {
        let from = if f == "games-4.csv" { &base } else { &variant };
        std::fs::copy(from.join(f), copied.join(f)).unwrap();
    }
    for (v, says) in [(&copied, "another study's"), (&base, "the same game")] {
        let o = boardlab(&[
            "compare",
            "--base",
            base.to_str().unwrap(),
            "--variant",
            v.to_str().unwrap(),
            "--out",
            dir.join("refused").to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
    }
    // `report` on the compared folder opens with the variant against its
    // base: the komi's effect on seat 0 survives Holm's correction, the card's
    // (the same in both games) does not.
    let o = boardlab(&["report", variant.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(variant.join("dashboard.md")).unwrap();
    let html = std::fs::read_to_string(variant.join("report.html")).unwrap();
    assert!(html.contains("id=\"paired\""), "{md}");
    let verdict = md
        .lines()
        .find(|l| l.starts_with("Beyond chance once corrected"))
        .unwrap_or_else(|| panic!("{md}"));
    assert!(verdict.contains("seat 0 at budget 4 -0.1"), "{verdict}");
    assert!(!verdict.contains("role card"), "{verdict}");
    assert!(md.contains("Holm p"), "{md}");
    assert!(html.contains("Paired differences, budget 4"), "{md}");
    // The study's own balance curve follows the differences.
    let (paired_at, curve_at) = (md.find("Holm p").unwrap(), md.rfind("balance.csv").unwrap());
    assert!(paired_at < curve_at, "{md}");
    // A paired.csv not written by compare is refused, naming the file.
    let forged = variant.join("paired.csv");
    let text = std::fs::read_to_string(&forged).unwrap();
    std::fs::write(&forged, text.replacen(",-0.1", ",oops", 1)).unwrap();
    let o = boardlab(&["report", variant.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("paired.csv") && err.contains("oops"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn resume_with_more_games_extends_a_finished_study_to_the_larger_one() {
    let dir = temp_dir("balance-extend");
    let (small, extended, whole) = (dir.join("small"), dir.join("extended"), dir.join("whole"));
    let study = |out: &std::path::Path, games: &str, extra: &[&str]| {
        let mut args = small_study(out, "4,8", &["--threads", "2", "--tolerance", "0.001"]);
        let at = args.iter().position(|a| *a == "40").unwrap();
        args[at] = games;
        args.extend_from_slice(extra);
        let o = boardlab(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    study(&whole, "60", &[]);
    study(&small, "20", &[]);
    std::fs::create_dir_all(&extended).unwrap();
    for entry in std::fs::read_dir(&small).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, extended.join(path.file_name().unwrap())).unwrap();
    }
    study(&extended, "60", &["--resume"]);
    for f in [
        "balance.csv",
        "balance.json",
        "balance.md",
        "balance-run.json",
    ] {
        assert_eq!(
            std::fs::read(whole.join(f)).unwrap(),
            std::fs::read(extended.join(f)).unwrap(),
            "{f}"
        );
    }
    for b in [4, 8] {
        // The first 20 games are kept, not played again.
        let kept = std::fs::read_to_string(games(&small, b)).unwrap();
        let text = std::fs::read_to_string(games(&extended, b)).unwrap();
        assert!(text.starts_with(&kept), "budget {b}");
        assert_eq!(
            common::without_timing(&games(&whole, b)),
            common::without_timing(&games(&extended, b)),
            "budget {b}"
        );
    }
    // A study grows, it does not shrink.
    let o = boardlab(&small_study(
        &extended,
        "4,8",
        &["--tolerance", "0.001", "--resume"],
    ));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("fewer than the 60 games"), "{err}");
}

#[test]
fn compare_leaves_out_a_torn_last_game_as_resume_does() {
    let dir = temp_dir("balance-compare-torn");
    let (base, variant) = (dir.join("base"), dir.join("variant"));
    let o = boardlab(&small_study(&base, "4", &["--threads", "1"]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut args = small_study(&variant, "4", &["--threads", "1"]);
    let at = args.iter().position(|a| *a == "planted").unwrap();
    args[at] = "planted(komi=0.2)";
    let o = boardlab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The base killed while writing its last game: a line cut in two.
    cut(&games(&base, 4), 0.99);
    let o = boardlab(&[
        "compare",
        "--base",
        base.to_str().unwrap(),
        "--variant",
        variant.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(variant.join("paired.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("4,seat,0,39,")), "{csv}");
}
