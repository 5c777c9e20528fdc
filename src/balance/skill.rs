//! Balance as skill grows (`boardlab balance`): seat and role win rates of one
//! search agent against itself at doubling budgets, until two consecutive
//! budgets agree within a tolerance by an equivalence test, a time cap or the
//! last budget; with the agent's Elo at each budget from a short ladder.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{Result, bail};
use serde::Serialize;

use super::records::{Records, play_budget};
use super::{BudgetGames, Group};
use crate::agents::registry::AgentSpec;
use crate::game::{Game, PlayerId};
use crate::ladder::{self, BudgetUnit};
use crate::stats::bootstrap::Interval;
use crate::stats::rate::{Rate, tost};

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
    /// A progress bar per budget on a terminal.
    pub progress: bool,
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
    /// The side (team) of each seat: seats of one side share their result,
    /// and each side's fair share is the mean side's.
    pub sides: Vec<u8>,
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
#[cfg(test)]
fn ending_shares(
    games: &[crate::arena::PlayedGame],
    seats: usize,
    duplicate: bool,
) -> Vec<(String, Rate)> {
    BudgetGames::of(seats, duplicate, games.to_vec()).endings()
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
                super::records::write_sample(r.dir, b, &games.sample)?;
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
    mut games_at: impl FnMut(u64) -> Result<Option<BudgetGames>>,
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
        let rates = games.rates();
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
            games: games.games,
            rates,
            endings: games.endings(),
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
            o.progress,
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
        sides: (0..n as PlayerId).map(|p| game.side(p)).collect(),
    })
}

/// How a group's deviation from the mean share moved from the first budget
/// to the last: `flips` (both significant, opposite signs), `grows`,
/// `shrinks` (the change is significant) or `no change shown`.
pub fn trend(first: &Rate, last: &Rate, fair: (f64, f64)) -> &'static str {
    let (d1, d2) = (first.rate - fair.0, last.rate - fair.1);
    let sig = |r: &Rate, d: f64| d.abs() > crate::stats::Z95 * r.se;
    if sig(first, d1) && sig(last, d2) && d1.signum() != d2.signum() {
        return "flips";
    }
    let se = (first.se.powi(2) + last.se.powi(2)).sqrt();
    if (d2.abs() - d1.abs()).abs() <= crate::stats::Z95 * se {
        "no change shown"
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

    /// The seats of each side, sides in order of their first seat.
    fn side_seats(&self) -> Vec<Vec<u8>> {
        let mut out: Vec<(u8, Vec<u8>)> = Vec::new();
        for (seat, &side) in self.sides.iter().enumerate() {
            match out.iter_mut().find(|(s, _)| *s == side) {
                Some((_, seats)) => seats.push(seat as u8),
                None => out.push((side, vec![seat as u8])),
            }
        }
        out.into_iter().map(|(_, seats)| seats).collect()
    }

    /// Whether each side is one seat, so that seats are what compete.
    fn seats_are_sides(&self) -> bool {
        self.side_seats().iter().all(|s| s.len() == 1)
    }

    /// The rows a budget is read by: each side (a seat, or the first seat of
    /// a side of several, whose seats share one result) and each role.
    fn readings<'a>(&self, b: &'a BudgetResult) -> Vec<(String, &'a Rate, bool)> {
        let seat = |x: u8| {
            b.rates
                .iter()
                .find(|(g, _)| *g == Group::Seat(x))
                .map(|(_, r)| r)
        };
        let sides = self.side_seats().into_iter().filter_map(|seats| {
            let label = match &seats[..] {
                [one] => format!("seat {one}"),
                many => {
                    let names: Vec<String> = many.iter().map(u8::to_string).collect();
                    format!("side of seats {}", names.join("+"))
                }
            };
            seat(seats[0]).map(|r| (label, r, true))
        });
        let roles = b.rates.iter().filter_map(|(g, r)| match g {
            Group::Role(_) => Some((g.label(), r, false)),
            Group::Seat(_) => None,
        });
        sides.chain(roles).collect()
    }

    /// The fair share of a budget's sides (`side`) or roles: the mean side's
    /// rate (one half with two sides), or the mean role's where every side
    /// is one seat.
    fn fair(&self, b: &BudgetResult, side: bool) -> f64 {
        let v: Vec<f64> = self
            .readings(b)
            .into_iter()
            .filter(|(_, _, is_side)| *is_side == (side || !self.seats_are_sides()))
            .map(|(_, r, _)| r.rate)
            .collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    }

    /// The study's answer in one sentence: settled or not (and then what
    /// would settle it), and the balance at the last budget played.
    pub fn verdict(&self) -> String {
        let Some(last) = self.budgets.last() else {
            return format!("Nothing was played ({}).", self.stop);
        };
        let (label, r, side) = self
            .readings(last)
            .into_iter()
            .max_by(|a, b| {
                let d = |x: &(String, &Rate, bool)| (x.1.rate - self.fair(last, x.2)).abs();
                d(a).total_cmp(&d(b))
            })
            .expect("a budget has a rate per seat");
        let fair = self.fair(last, side);
        let noise = if (r.low..=r.high).contains(&fair) {
            "within noise of fair"
        } else {
            "off fair"
        };
        let balance = format!(
            "at budget {} the furthest from a fair share is {label}, {:.3} [{:.3}, {:.3}] against {fair:.3} ({noise})",
            last.budget, r.rate, r.low, r.high
        );
        let Some(prev) = self.budgets.iter().rev().nth(1) else {
            return format!(
                "Not settled: one budget only, so whether stronger play changes the balance is unknown; {balance}."
            );
        };
        let p = last.tost_p.unwrap_or(1.0);
        if p < 0.05 {
            return format!(
                "Settled: budgets {} and {} agree within ±{} on every seat and role (TOST p = {p:.4}), \
                 so stronger play is not expected to change the balance; {balance}.",
                prev.budget, last.budget, self.tolerance
            );
        }
        let capped = if self.stop.starts_with("time cap") {
            " (the time cap stopped it)"
        } else {
            ""
        };
        // The group furthest from agreeing: its change and what would settle it.
        let worst = last
            .rates
            .iter()
            .filter_map(|(g, r)| {
                let q = prev.rates.iter().find(|(h, _)| h == g)?.1;
                Some((g, r, q, tost(r, &q, self.tolerance)))
            })
            .max_by(|a, b| a.3.total_cmp(&b.3));
        let Some((g, r, q, _)) = worst else {
            return format!("Not settled{capped}; {balance}.");
        };
        let d = r.rate - q.rate;
        let unsettled = format!(
            "Not settled{capped}: budgets {} and {} were not shown to agree within ±{} (TOST p = {p:.4}; {} moved by {d:+.3})",
            prev.budget,
            last.budget,
            self.tolerance,
            g.label()
        );
        match games_to_settle(r, &q, self.tolerance, last.games) {
            Some(n) => format!(
                "{unsettled}; about {n} games per budget would settle it if that change holds \
                 ({} played); {balance}.",
                last.games
            ),
            None => format!(
                "{unsettled}, more than the tolerance: the balance still moves with skill, \
                 so a larger budget would show where it settles; {balance}."
            ),
        }
    }

    /// `balance.md`: the verdict, the table and, per side and role, whether
    /// the deviation from a fair share grows, shrinks or flips from the first
    /// budget to the last.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "## Balance against skill: {}\n", self.game);
        let _ = writeln!(
            s,
            "{} in every seat at each budget (iterations per decision).\n\n**Verdict.** {}\n",
            self.agent,
            self.verdict()
        );
        if !self.seats_are_sides() {
            let sides = self.side_seats().len();
            let _ = writeln!(
                s,
                "Seats of one side share their result, so each side is read once, against a fair \
                 share of {:.3} (one side of {sides}); roles likewise.\n",
                self.budgets
                    .first()
                    .map_or(1.0 / sides as f64, |b| self.fair(b, true))
            );
        }
        let _ = writeln!(
            s,
            "| budget | Elo (random = 0) | games | group | win rate [95 %] |\n|---:|---|---:|---|---|"
        );
        for b in &self.budgets {
            let elo = b.elo.map_or("–".to_string(), |e| {
                format!("{:+.0} [{:+.0}, {:+.0}]", e.estimate, e.low, e.high)
            });
            for (label, r, _) in self.readings(b) {
                let _ = writeln!(
                    s,
                    "| {} | {elo} | {} | {label} | {:.3} [{:.3}, {:.3}] |",
                    b.budget, b.games, r.rate, r.low, r.high
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
                "\nFrom budget {} to {} (deviation from the fair share of its kind):\n",
                first.budget, last.budget
            );
            let later = self.readings(last);
            for (label, r1, side) in self.readings(first) {
                let Some((_, r2, _)) = later.iter().find(|(l, _, _)| *l == label) else {
                    continue;
                };
                let fair = (self.fair(first, side), self.fair(last, side));
                let _ = writeln!(
                    s,
                    "- {label}: {:+.3} → {:+.3}: {}",
                    r1.rate - fair.0,
                    r2.rate - fair.1,
                    trend(r1, r2, fair)
                );
            }
        }
        s
    }
}

/// Games per budget that would show two budgets' rates `a` and `b`, measured
/// on `games` games each, equivalent within `tol` (TOST at the 5 % level) if
/// their difference stayed as it is, from the standard errors' shrinking as
/// one over the root of the games; `None` when the difference is already the
/// tolerance or more.
pub fn games_to_settle(a: &Rate, b: &Rate, tol: f64, games: u64) -> Option<u64> {
    let d = (a.rate - b.rate).abs();
    let se = (a.se * a.se + b.se * b.se).sqrt();
    if d >= tol || !se.is_finite() {
        return None;
    }
    let z = crate::stats::hypothesis::normal_quantile(0.95);
    let target = (tol - d) / z;
    let factor = (se / target).powi(2);
    Some((games as f64 * factor).ceil() as u64)
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
            sides: vec![0, 1],
        };
        let csv = result.to_csv();
        assert!(csv.contains("\n1,ending,cap,40,"), "{csv}");
        assert!(result.to_markdown().contains("ending cap (share of games)"));
    }

    #[test]
    fn games_to_settle_grow_as_the_change_nears_the_tolerance() {
        // se 0.01 each: the difference's se is 0.0141; z(0.95) = 1.645.
        let (a, b) = (rate(0.50, 0.01), rate(0.51, 0.01));
        let n = games_to_settle(&a, &b, 0.03, 1000).unwrap();
        // Needs se (0.03 - 0.01) / 1.645 = 0.01216: 1000 · (0.01414 / 0.01216)² ≈ 1353.
        assert!((1340..=1365).contains(&n), "{n}");
        // Already settled precisely enough: fewer games than played.
        assert!(games_to_settle(&a, &rate(0.50, 0.01), 0.05, 1000).unwrap() < 1000);
        assert_eq!(games_to_settle(&a, &rate(0.56, 0.01), 0.05, 1000), None);
    }

    #[test]
    fn a_side_of_two_seats_is_read_once_against_one_half() {
        let budget = |b: u64, lone: f64, tost_p: Option<f64>| BudgetResult {
            budget: b,
            games: 1000,
            rates: vec![
                (Group::Seat(0), rate(lone, 0.015)),
                (Group::Seat(1), rate(1.0 - lone, 0.015)),
                (Group::Seat(2), rate(1.0 - lone, 0.015)),
            ],
            endings: Vec::new(),
            tost_p,
            elo: None,
        };
        let mut result = SkillResult {
            game: "fox(players=3)".into(),
            agent: "ismcts".into(),
            budgets: vec![budget(25, 0.40, None), budget(50, 0.43, Some(0.3))],
            stop: "last budget".into(),
            tolerance: 0.05,
            sides: vec![0, 1, 1],
        };
        let md = result.to_markdown();
        assert!(md.contains("| side of seats 1+2 | 0.570"), "{md}");
        assert!(!md.contains("| seat 1 |"), "{md}");
        assert!(md.contains("- seat 0: -0.100 → -0.070"), "{md}");
        let verdict = result.verdict();
        assert!(
            verdict.starts_with("Not settled: budgets 25 and 50"),
            "{verdict}"
        );
        assert!(
            verdict.contains("games per budget would settle it"),
            "{verdict}"
        );
        assert!(verdict.contains("against 0.500 (off fair)"), "{verdict}");
        assert!(!md.contains("stable"), "{md}");
        result.budgets[1].tost_p = Some(0.01);
        assert!(result.verdict().starts_with("Settled: budgets 25 and 50"));
    }

    #[test]
    fn trend_names_growth_shrinkage_flips_and_noise() {
        let f = (0.5, 0.5);
        assert_eq!(trend(&rate(0.65, 0.01), &rate(0.5, 0.01), f), "shrinks");
        assert_eq!(trend(&rate(0.55, 0.01), &rate(0.65, 0.01), f), "grows");
        assert_eq!(trend(&rate(0.60, 0.01), &rate(0.40, 0.01), f), "flips");
        assert_eq!(
            trend(&rate(0.60, 0.05), &rate(0.62, 0.05), f),
            "no change shown"
        );
    }
}
