//! Balance as skill grows (`boardlab balance`): seat and role win rates of one
//! search agent against itself at doubling budgets, until two consecutive
//! budgets agree within a tolerance by an equivalence test, a time cap or the
//! last budget; with the agent's Elo at each budget from a short ladder.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{Result, bail};
use serde::Serialize;

use super::records::{Records, play_budget};
use super::{Group, group_rate, groups};
use crate::agents::registry::AgentSpec;
use crate::arena::PlayedGame;
use crate::game::Game;
use crate::ladder::{self, BudgetUnit};
use crate::stats::bootstrap::Interval;
use crate::stats::rate::{Rate, clustered_rate, tost};

/// How to measure.
#[derive(Clone, Debug)]
pub struct SkillOptions {
    /// The search agent; its `iterations` is set to each budget.
    pub agent: String,
    /// Budgets in search iterations per decision, increasing.
    pub budgets: Vec<u64>,
    /// Play each budget until every seat's 95 % half-width is at most this.
    pub until: Option<f64>,
    /// Games per budget (the cap with `until`).
    pub max_games: u64,
    /// Duplicate deals.
    pub duplicate: bool,
    /// Two budgets agree when every seat and role differs by less than this (TOST).
    pub tolerance: f64,
    /// Stop starting new budgets after this many seconds.
    pub max_seconds: Option<f64>,
    /// Games per ladder meeting for the Elo column (0: no ladder).
    pub ladder_games: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

/// One budget's measurement.
#[derive(Clone, Debug, Serialize)]
pub struct BudgetResult {
    /// Iterations per decision.
    pub budget: u64,
    /// Games played.
    pub games: u64,
    /// Seat then role rates.
    pub rates: Vec<(Group, Rate)>,
    /// Share of the games that ended each way (the game's `ending` names, a
    /// simulation cap included), in name order.
    pub endings: Vec<(String, Rate)>,
    /// TOST p-value of agreement with the previous budget (largest over groups).
    pub tost_p: Option<f64>,
    /// Elo (random = 0) of the agent at this budget, two-player games only.
    pub elo: Option<Interval>,
}

/// Everything `boardlab balance` measured.
#[derive(Clone, Debug, Serialize)]
pub struct SkillResult {
    /// The game spec.
    pub game: String,
    /// The agent as given.
    pub agent: String,
    /// Per budget played, in order.
    pub budgets: Vec<BudgetResult>,
    /// Why it stopped.
    pub stop: String,
    /// The agreement tolerance.
    pub tolerance: f64,
}

/// The agent at `budget` iterations per decision (no time limit).
pub fn at_budget(base: &AgentSpec, budget: u64) -> AgentSpec {
    let mut spec = base.clone();
    spec.spec.params.set("iterations", &budget.to_string());
    spec.spec.params.set("time_ms", "0");
    spec.label = format!("{}@{budget}it", base.label);
    spec
}

/// The share of `games` that ended each way, clustered like the win rates
/// (by deal with duplicate deals).
fn ending_shares(games: &[PlayedGame], seats: usize, duplicate: bool) -> Vec<(String, Rate)> {
    fn ending(g: &PlayedGame) -> &str {
        g.rows.first().map_or("", |r| r.ending.as_str())
    }
    let mut names: Vec<&str> = games.iter().map(ending).filter(|e| !e.is_empty()).collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let units: Vec<(u64, f64)> = games
                .iter()
                .filter_map(|g| {
                    let i = g.rows.first()?.game_index;
                    let hit = f64::from(u8::from(ending(g) == name));
                    Some((super::cluster(i, seats, duplicate), hit))
                })
                .collect();
            (name.to_string(), clustered_rate(&units))
        })
        .collect()
}

/// Checks `o` for `game`: a search agent, increasing budgets, each of which builds.
pub fn check<G: Game>(game: &G, o: &SkillOptions) -> Result<AgentSpec> {
    let base = AgentSpec::parse(&o.agent)?;
    if !["mcts", "pimc", "ismcts"].contains(&base.spec.name.as_str()) {
        bail!(
            "balance needs a search agent whose budget can grow (mcts, pimc, ismcts or a preset of them); got {}",
            o.agent
        );
    }
    if o.budgets.windows(2).any(|w| w[1] <= w[0]) || o.budgets.is_empty() {
        bail!("--budgets must be increasing positive numbers, e.g. 250,500,1000");
    }
    for &b in &o.budgets {
        super::check_agent_any(game, &at_budget(&base, b))?;
    }
    Ok(base)
}

/// Measures balance at each budget in turn; see the module doc.
pub fn measure<G: Game>(game: &G, o: &SkillOptions) -> Result<SkillResult> {
    measure_with(game, o, None)
}

/// [`measure`], keeping every game in `records` (and continuing the study
/// there when it resumes).
pub fn measure_with<G: Game>(
    game: &G,
    o: &SkillOptions,
    records: Option<Records>,
) -> Result<SkillResult> {
    let base = check(game, o)?;
    if let Some(r) = records {
        r.start(game, o)?;
    }
    let pool = crate::arena::pool(o.threads).map_err(anyhow::Error::msg)?;
    let started = Instant::now();
    assess(
        game,
        o,
        |b| {
            if let Some(cap) = o.max_seconds
                && b != o.budgets[0]
                && started.elapsed().as_secs_f64() > cap
            {
                return Ok(None);
            }
            let agent = at_budget(&base, b);
            let games = play_budget(game, &agent, b, o, &pool, records)?;
            if let Some(r) = records {
                super::records::write_sample(r.dir, b, &games)?;
            }
            Ok(Some(games))
        },
        |plan| records.map(|r| r.journal(plan, o)).transpose(),
    )
}

/// The ladder of the agent at `budgets` (random play as the anchor).
pub fn ladder_plan(o: &SkillOptions, budgets: &[u64]) -> Result<ladder::LadderPlan> {
    ladder::plan(
        std::slice::from_ref(&o.agent),
        budgets,
        BudgetUnit::Iterations,
    )
}

/// Rates the budgets in order from the games `games_at(budget)` gives (`None`:
/// the time cap stopped it), stopping when two consecutive budgets agree, then
/// rates the budgets played on a ladder whose already played pairs
/// `journal(plan)` may give. Playing and merging shards share it, so a merge
/// stops where a single run would.
pub fn assess<G: Game>(
    game: &G,
    o: &SkillOptions,
    mut games_at: impl FnMut(u64) -> Result<Option<Vec<PlayedGame>>>,
    journal: impl FnOnce(&ladder::LadderPlan) -> Result<Option<ladder::Journal>>,
) -> Result<SkillResult> {
    let n = game.num_players();
    let mut out: Vec<BudgetResult> = Vec::new();
    let mut stop = None;
    for &b in &o.budgets {
        let Some(games) = games_at(b)? else {
            stop = Some(format!(
                "time cap: {} s reached after budget {}",
                o.max_seconds.unwrap_or(0.0),
                out.last().map_or(0, |r| r.budget)
            ));
            break;
        };
        let rates: Vec<(Group, Rate)> = groups(&games, n)
            .into_iter()
            .map(|g| {
                let r = group_rate(&games, &g, n, o.duplicate);
                (g, r)
            })
            .collect();
        let tost_p = out.last().map(|prev| {
            rates
                .iter()
                .map(|(g, r)| {
                    prev.rates
                        .iter()
                        .find(|(h, _)| h == g)
                        .map_or(1.0, |(_, q)| tost(r, q, o.tolerance))
                })
                .fold(0.0, f64::max)
        });
        let prev_budget = out.last().map(|r| r.budget);
        out.push(BudgetResult {
            budget: b,
            games: games.len() as u64,
            rates,
            endings: ending_shares(&games, n, o.duplicate),
            tost_p,
            elo: None,
        });
        if let (Some(p), Some(prev)) = (tost_p, prev_budget)
            && p < 0.05
        {
            stop = Some(format!(
                "converged: budgets {prev} and {b} agree within ±{} on every seat and role (TOST p = {p:.4})",
                o.tolerance
            ));
            break;
        }
    }
    let stop = stop.unwrap_or_else(|| {
        "last budget: no two consecutive budgets were shown to agree".to_string()
    });
    if n == 2 && o.ladder_games > 0 {
        let played: Vec<u64> = out.iter().map(|r| r.budget).collect();
        let plan = ladder_plan(o, &played)?;
        let journal = journal(&plan)?;
        let lad = ladder::play_ladder(
            game,
            &plan,
            o.ladder_games,
            o.seed,
            o.threads,
            200,
            journal.as_ref(),
        )?;
        for r in &mut out {
            r.elo = lad
                .rungs
                .iter()
                .find(|rung| rung.entrant.budget == Some(r.budget))
                .map(|rung| rung.elo);
        }
    }
    Ok(SkillResult {
        game: game.spec(),
        agent: o.agent.clone(),
        budgets: out,
        stop,
        tolerance: o.tolerance,
    })
}

/// How a group's deviation from the mean share moved from the first budget
/// to the last: `flips` (both significant, opposite signs), `grows`,
/// `shrinks` (the change is significant) or `stable`.
pub fn trend(first: &Rate, last: &Rate, fair: (f64, f64)) -> &'static str {
    let (d1, d2) = (first.rate - fair.0, last.rate - fair.1);
    let sig = |r: &Rate, d: f64| d.abs() > crate::stats::Z95 * r.se;
    if sig(first, d1) && sig(last, d2) && d1.signum() != d2.signum() {
        return "flips";
    }
    let se = (first.se.powi(2) + last.se.powi(2)).sqrt();
    if (d2.abs() - d1.abs()).abs() <= crate::stats::Z95 * se {
        "stable"
    } else if d2.abs() > d1.abs() {
        "grows"
    } else {
        "shrinks"
    }
}

impl SkillResult {
    /// `balance.csv`: one row per budget and seat or role (its win rate), then
    /// per budget and ending (kind `ending`: the share of games ending so).
    pub fn to_csv(&self) -> String {
        let mut s =
            String::from("budget,kind,group,games,rate,low,high,tost_p,elo,elo_low,elo_high\n");
        for b in &self.budgets {
            let groups = b.rates.iter().map(|(g, r)| match g {
                Group::Seat(x) => ("seat", x.to_string(), r),
                Group::Role(x) => ("role", x.clone(), r),
            });
            let endings = b.endings.iter().map(|(e, r)| ("ending", e.clone(), r));
            for (kind, name, r) in groups.chain(endings) {
                let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.4}"));
                let _ = writeln!(
                    s,
                    "{},{kind},{name},{},{:.4},{:.4},{:.4},{},{},{},{}",
                    b.budget,
                    r.n,
                    r.rate,
                    r.low,
                    r.high,
                    opt(b.tost_p),
                    opt(b.elo.map(|e| e.estimate)),
                    opt(b.elo.map(|e| e.low)),
                    opt(b.elo.map(|e| e.high)),
                );
            }
        }
        s
    }

    /// The mean share of a budget's groups of one kind (the fair rate).
    fn fair(b: &BudgetResult, seat: bool) -> f64 {
        let v: Vec<f64> = b
            .rates
            .iter()
            .filter(|(g, _)| matches!(g, Group::Seat(_)) == seat)
            .map(|(_, r)| r.rate)
            .collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    }

    /// `balance.md`: the table and, per seat and role, whether the imbalance
    /// grows, shrinks or flips from the first budget to the last.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "## Balance against skill: {}\n", self.game);
        let _ = writeln!(
            s,
            "{} in every seat at each budget (iterations per decision). Stopped: {}.\n",
            self.agent, self.stop
        );
        let _ = writeln!(
            s,
            "| budget | Elo (random = 0) | games | group | win rate [95 %] |\n|---:|---|---:|---|---|"
        );
        for b in &self.budgets {
            let elo = b.elo.map_or("–".to_string(), |e| {
                format!("{:+.0} [{:+.0}, {:+.0}]", e.estimate, e.low, e.high)
            });
            for (g, r) in &b.rates {
                let _ = writeln!(
                    s,
                    "| {} | {elo} | {} | {} | {:.3} [{:.3}, {:.3}] |",
                    b.budget,
                    b.games,
                    g.label(),
                    r.rate,
                    r.low,
                    r.high
                );
            }
            for (e, r) in &b.endings {
                let _ = writeln!(
                    s,
                    "| {} | {elo} | {} | ending {e} (share of games) | {:.3} [{:.3}, {:.3}] |",
                    b.budget, b.games, r.rate, r.low, r.high
                );
            }
        }
        if let (Some(first), Some(last)) = (self.budgets.first(), self.budgets.last())
            && self.budgets.len() > 1
        {
            let _ = writeln!(
                s,
                "\nFrom budget {} to {} (deviation from the mean share of its kind):\n",
                first.budget, last.budget
            );
            for (g, r1) in &first.rates {
                let Some((_, r2)) = last.rates.iter().find(|(h, _)| h == g) else {
                    continue;
                };
                let seat = matches!(g, Group::Seat(_));
                let fair = (Self::fair(first, seat), Self::fair(last, seat));
                let _ = writeln!(
                    s,
                    "- {}: {:+.3} → {:+.3}: {}",
                    g.label(),
                    r1.rate - fair.0,
                    r2.rate - fair.1,
                    trend(r1, r2, fair)
                );
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::identical::play_identical;

    fn rate(rate: f64, se: f64) -> Rate {
        Rate {
            n: 100,
            clusters: 100,
            rate,
            se,
            low: rate - 2.0 * se,
            high: rate + 2.0 * se,
        }
    }

    #[test]
    fn endings_are_shares_of_the_games_with_the_cap_counted() {
        // A ply cap of 150 stops some random Karmaka games before transcendence.
        let game = crate::games::karmaka::Karmaka::parse("karmaka(max_plies=150)").unwrap();
        let agent = AgentSpec::parse("random").unwrap();
        let pool = crate::arena::pool(1).unwrap();
        let games = play_identical(&game, &agent, 0..40, 1, false, &pool);
        let shares = ending_shares(&games, 2, false);
        let capped = games.iter().filter(|g| g.rows[0].truncated).count();
        assert!(capped > 0 && capped < 40, "{capped}");
        let cap = shares
            .iter()
            .find(|(e, _)| e == "cap")
            .expect("a cap ending");
        assert!((cap.1.rate - capped as f64 / 40.0).abs() < 1e-12);
        assert_eq!(cap.1.n, 40);
        let total: f64 = shares.iter().map(|(_, r)| r.rate).sum();
        assert!((total - 1.0).abs() < 1e-12, "{shares:?}");
        // Written as rows of kind `ending` after the seats.
        let result = SkillResult {
            game: "karmaka".into(),
            agent: "random".into(),
            budgets: vec![BudgetResult {
                budget: 1,
                games: 40,
                rates: vec![(Group::Seat(0), rate(0.5, 0.1))],
                endings: shares,
                tost_p: None,
                elo: None,
            }],
            stop: String::new(),
            tolerance: 0.05,
        };
        let csv = result.to_csv();
        assert!(csv.contains("\n1,ending,cap,40,"), "{csv}");
        assert!(result.to_markdown().contains("ending cap (share of games)"));
    }

    #[test]
    fn trend_names_growth_shrinkage_flips_and_noise() {
        let f = (0.5, 0.5);
        assert_eq!(trend(&rate(0.65, 0.01), &rate(0.5, 0.01), f), "shrinks");
        assert_eq!(trend(&rate(0.55, 0.01), &rate(0.65, 0.01), f), "grows");
        assert_eq!(trend(&rate(0.60, 0.01), &rate(0.40, 0.01), f), "flips");
        assert_eq!(trend(&rate(0.60, 0.05), &rate(0.62, 0.05), f), "stable");
    }
}
