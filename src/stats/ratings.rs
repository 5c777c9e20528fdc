//! Ratings of the agents of a run from its `games.csv` rows: Bradley–Terry
//! when every game has two seats, Plackett–Luce otherwise, in Elo points with
//! bootstrap intervals over games.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::bootstrap::{Interval, Kinds, bootstrap_kinds};
use super::bradley_terry::{self, PairGame};
use super::mm::{self, Stage};
use super::plackett_luce::{self, Ranking};
use crate::files::rows::GameRow;

/// Which model produced the ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatingModel {
    /// Games of two.
    BradleyTerry,
    /// Games of three or more (or mixed sizes).
    PlackettLuce,
}

impl RatingModel {
    /// The model's name for tables and reports.
    pub fn name(self) -> &'static str {
        match self {
            RatingModel::BradleyTerry => "Bradley-Terry",
            RatingModel::PlackettLuce => "Plackett-Luce",
        }
    }
}

/// How to compute ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingOptions {
    /// Bootstrap resamples for the intervals (0: no intervals).
    pub resamples: usize,
    /// Seed of the bootstrap.
    pub seed: u64,
    /// Virtual draws per pair of agents, keeping ratings finite (see
    /// [`super::mm::prior_stages`]).
    pub prior: f64,
}

impl Default for RatingOptions {
    fn default() -> Self {
        RatingOptions {
            resamples: 200,
            seed: 1,
            prior: 1.0,
        }
    }
}

/// One agent's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentRating {
    /// Index in the agent list.
    pub agent_index: usize,
    /// The agent as written.
    pub agent: String,
    /// Games it played.
    pub games: u64,
    /// Elo rating (mean 0 over the agents that played) with its 95 % bootstrap
    /// interval.
    pub elo: Interval,
}

/// Ratings of every agent of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// The model used.
    pub model: RatingModel,
    /// Per agent, by agent index.
    pub agents: Vec<AgentRating>,
}

/// The places of one game's rows: ordered by outcome (win, draw, loss), then
/// by return, higher first; equal keys share a place. A truncated game is a
/// tie of everyone, whatever the returns at the cap. Teammates share their
/// outcome and return, so they tie.
pub fn ranking(rows: &[&GameRow]) -> Ranking {
    let key = |r: &GameRow| {
        if r.truncated {
            (0.0, 0.0)
        } else {
            (r.outcome.points(), r.ret)
        }
    };
    rows.iter()
        .map(|r| {
            // Dense places: the number of distinct better keys.
            let mut better: Vec<(f64, f64)> = rows
                .iter()
                .map(|o| key(o))
                .filter(|k| *k > key(r))
                .collect();
            better.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
            better.dedup();
            (r.agent_index, better.len() as u32)
        })
        .collect()
}

/// Ratings of the agents in `rows` (any order; rows of one game share its
/// `game_index`). Faulted games count as recorded: a seat that forfeited lost,
/// and a game that itself failed is a draw of everyone.
pub fn rate_rows(rows: &[GameRow], opts: &RatingOptions) -> Ratings {
    let mut games: BTreeMap<u64, Vec<&GameRow>> = BTreeMap::new();
    let mut labels: BTreeMap<usize, String> = BTreeMap::new();
    let mut played: BTreeMap<usize, u64> = BTreeMap::new();
    for r in rows {
        games.entry(r.game_index).or_default().push(r);
        labels
            .entry(r.agent_index)
            .or_insert_with(|| r.agent.clone());
        *played.entry(r.agent_index).or_default() += 1;
    }
    let n = labels.keys().next_back().map_or(0, |&i| i + 1);
    let two = games.values().all(|g| g.len() == 2);
    let (model, elo) = if two {
        let pairs: Vec<PairGame> = games
            .values()
            .map(|g| {
                let (a, b) = if g[0].seat <= g[1].seat {
                    (g[0], g[1])
                } else {
                    (g[1], g[0])
                };
                PairGame {
                    a: a.agent_index,
                    b: b.agent_index,
                    score_a: if a.truncated { 0.5 } else { a.outcome.points() },
                }
            })
            .collect();
        let elo = bradley_terry::ratings(n, &pairs, opts.prior, opts.resamples, opts.seed);
        (RatingModel::BradleyTerry, elo)
    } else {
        let ranks: Vec<Ranking> = games.values().map(|g| ranking(g)).collect();
        let elo = plackett_luce::ratings(n, &ranks, opts.prior, opts.resamples, opts.seed);
        (RatingModel::PlackettLuce, elo)
    };
    Ratings {
        model,
        agents: labels
            .into_iter()
            .map(|(i, agent)| AgentRating {
                agent_index: i,
                agent,
                games: played[&i],
                elo: elo[i],
            })
            .collect(),
    }
}

/// [`rate_rows`] of games read one at a time, in the order of their
/// `game_index`: what it keeps grows with the distinct kinds of games (who
/// played whom, and how it ended) and by one or two bytes per game (each
/// game's kind, which the bootstrap's resamples draw by position), not with
/// the games themselves. Its ratings are those of [`rate_rows`] on the same
/// rows, bit for bit.
#[derive(Default)]
pub struct RatingStream {
    labels: BTreeMap<usize, String>,
    played: BTreeMap<usize, u64>,
    /// Every game had two seats so far (Bradley–Terry).
    two: bool,
    pairs: Counted<PairGame, (usize, usize, u64)>,
    ranks: Counted<Ranking, Ranking>,
    games: u64,
}

/// Games of one model seen as their distinct kinds, with the aggregated
/// choice stages of all the games so far (summed in game order, as
/// [`mm::aggregate`] sums them).
struct Counted<T, K> {
    seen: BTreeMap<K, u32>,
    distinct: Vec<T>,
    /// Each distinct game's raw stages, as stage ids and weights.
    stages_of: Vec<Vec<(usize, f64)>>,
    kinds: Kinds,
    stage_ids: BTreeMap<(usize, Vec<usize>), usize>,
    weights: Vec<f64>,
}

impl<T, K> Default for Counted<T, K> {
    fn default() -> Self {
        Counted {
            seen: BTreeMap::new(),
            distinct: Vec::new(),
            stages_of: Vec::new(),
            kinds: Kinds::default(),
            stage_ids: BTreeMap::new(),
            weights: Vec::new(),
        }
    }
}

impl<T, K: Ord> Counted<T, K> {
    fn add(&mut self, game: T, key: K, stages: impl FnOnce(&T) -> Vec<Stage>) {
        let kind = match self.seen.get(&key) {
            Some(&k) => k,
            None => {
                let raw = stages(&game)
                    .into_iter()
                    .map(|mut s| {
                        s.set.sort_unstable();
                        let next = self.stage_ids.len();
                        let id = *self.stage_ids.entry((s.winner, s.set)).or_insert(next);
                        if id == self.weights.len() {
                            self.weights.push(0.0);
                        }
                        (id, s.weight)
                    })
                    .collect();
                self.stages_of.push(raw);
                self.distinct.push(game);
                self.seen.insert(key, self.distinct.len() as u32 - 1);
                self.distinct.len() as u32 - 1
            }
        };
        self.kinds.push(kind);
        for &(id, w) in &self.stages_of[kind as usize] {
            self.weights[id] += w;
        }
    }

    /// The aggregated stages, ordered as [`mm::aggregate`] orders them.
    fn stages(&self) -> Vec<Stage> {
        self.stage_ids
            .iter()
            .map(|((winner, set), &id)| Stage {
                winner: *winner,
                set: set.clone(),
                weight: self.weights[id],
            })
            .collect()
    }
}

impl RatingStream {
    /// A stream with no games yet.
    pub fn new() -> Self {
        RatingStream {
            two: true,
            ..RatingStream::default()
        }
    }

    /// Adds one game's rows.
    pub fn add_game(&mut self, rows: &[&GameRow]) {
        self.games += 1;
        for r in rows {
            self.labels
                .entry(r.agent_index)
                .or_insert_with(|| r.agent.clone());
            *self.played.entry(r.agent_index).or_default() += 1;
        }
        if self.two && rows.len() == 2 {
            let (a, b) = if rows[0].seat <= rows[1].seat {
                (rows[0], rows[1])
            } else {
                (rows[1], rows[0])
            };
            let g = PairGame {
                a: a.agent_index,
                b: b.agent_index,
                score_a: if a.truncated { 0.5 } else { a.outcome.points() },
            };
            self.pairs.add(g, bradley_terry::same_game(&g), |g| {
                bradley_terry::stages_of(g)
            });
        } else if self.two {
            // Plackett–Luce from here on: the pairs are no longer needed.
            self.two = false;
            self.pairs = Counted::default();
        }
        let rank = ranking(rows);
        self.ranks
            .add(rank.clone(), rank, |r| plackett_luce::stages(r));
    }

    /// The ratings of the games added.
    pub fn finish(self, opts: &RatingOptions) -> Ratings {
        let n = self.labels.keys().next_back().map_or(0, |&i| i + 1);
        let (model, elo) = if self.two {
            let c = &self.pairs;
            let point = mm::elo_of(n, c.stages(), opts.prior);
            let elo = bootstrap_kinds(
                &point,
                &c.distinct,
                &c.kinds,
                opts.resamples,
                opts.seed,
                |sample| bradley_terry::elo_counted(n, sample, opts.prior),
            );
            (RatingModel::BradleyTerry, elo)
        } else {
            let c = &self.ranks;
            let point = mm::elo_of(n, c.stages(), opts.prior);
            let elo = bootstrap_kinds(
                &point,
                &c.distinct,
                &c.kinds,
                opts.resamples,
                opts.seed,
                |sample| plackett_luce::elo_counted(n, sample, opts.prior),
            );
            (RatingModel::PlackettLuce, elo)
        };
        Ratings {
            model,
            agents: self
                .labels
                .into_iter()
                .map(|(i, agent)| AgentRating {
                    agent_index: i,
                    agent,
                    games: self.played[&i],
                    elo: elo[i],
                })
                .collect(),
        }
    }
}

impl Ratings {
    /// `ratings.csv`: `agent_index,agent,model,games,elo,elo_low,elo_high`,
    /// Elo to one decimal.
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut rows = vec![vec![
            "agent_index".to_string(),
            "agent".into(),
            "model".into(),
            "games".into(),
            "elo".into(),
            "elo_low".into(),
            "elo_high".into(),
        ]];
        for a in &self.agents {
            rows.push(vec![
                a.agent_index.to_string(),
                a.agent.clone(),
                self.model.name().into(),
                a.games.to_string(),
                format!("{:.1}", a.elo.estimate),
                format!("{:.1}", a.elo.low),
                format!("{:.1}", a.elo.high),
            ]);
        }
        for r in rows {
            // Writing to memory cannot fail.
            let _ = w.write_record(&r);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// A Markdown table of the ratings.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "| # | agent | games | Elo | 95 % interval |");
        let _ = writeln!(out, "|---|---|---:|---:|---|");
        for a in &self.agents {
            let _ = writeln!(
                out,
                "| {} | `{}` | {} | {:+.0} | [{:+.0}, {:+.0}] |",
                a.agent_index, a.agent, a.games, a.elo.estimate, a.elo.low, a.elo.high
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    pub(crate) fn row(game: u64, seat: u8, agent: usize, outcome: Outcome, ret: f64) -> GameRow {
        GameRow {
            game_index: game,
            seed: 0,
            game: "g".into(),
            seat,
            agent_index: agent,
            agent: format!("a{agent}"),
            role: String::new(),
            outcome,
            score: ret,
            ret,
            turns: 10,
            actions: 10,
            decisions: 5,
            branching: 0.0,
            iterations: 0,
            truncated: false,
            ending: String::new(),
            rounds: None,
            error: String::new(),
            think_us: 0,
            wall_us: 0,
        }
    }

    #[test]
    fn two_seat_rows_use_bradley_terry() {
        use Outcome::*;
        let mut rows = Vec::new();
        // Agent 1 wins 3 of 4, whatever the seat.
        for (g, (w0, w1)) in [(Loss, Win), (Win, Loss), (Loss, Win), (Loss, Win)]
            .into_iter()
            .enumerate()
        {
            let g = g as u64;
            let (a0, a1) = if g.is_multiple_of(2) { (0, 1) } else { (1, 0) };
            rows.push(row(g, 0, a0, w0, 0.0));
            rows.push(row(g, 1, a1, w1, 0.0));
        }
        let opts = RatingOptions {
            resamples: 0,
            prior: 0.0,
            ..Default::default()
        };
        let r = rate_rows(&rows, &opts);
        assert_eq!(r.model, RatingModel::BradleyTerry);
        assert_eq!(r.agents[1].games, 4);
        assert_eq!(r.agents[1].agent, "a1");
        let d = r.agents[1].elo.estimate - r.agents[0].elo.estimate;
        assert!((d - 400.0 * 3f64.log10()).abs() < 1e-6, "{r:?}");
        let csv = r.to_csv();
        assert!(csv.starts_with("agent_index,agent,model,games,elo,elo_low,elo_high\n"));
        assert!(csv.contains("1,a1,Bradley-Terry,4,95.4,95.4,95.4"), "{csv}");
    }

    #[test]
    fn ranking_orders_by_outcome_then_return() {
        use Outcome::*;
        let rows = [
            row(0, 0, 0, Loss, 3.0),
            row(0, 1, 1, Win, 9.0),
            row(0, 2, 2, Loss, 5.0),
            row(0, 3, 3, Loss, 3.0),
        ];
        let refs: Vec<&GameRow> = rows.iter().collect();
        assert_eq!(ranking(&refs), vec![(0, 2), (1, 0), (2, 1), (3, 2)]);
        let mut cut = rows.clone();
        for r in &mut cut {
            r.truncated = true;
            r.outcome = Draw;
        }
        let refs: Vec<&GameRow> = cut.iter().collect();
        assert!(ranking(&refs).iter().all(|&(_, p)| p == 0));
    }

    #[test]
    fn three_seat_rows_use_plackett_luce() {
        use Outcome::*;
        let mut rows = Vec::new();
        for g in 0..30u64 {
            // Agent 2 always first, agent 0 always last.
            rows.push(row(g, 0, 0, Loss, 0.0));
            rows.push(row(g, 1, 1, Loss, 1.0));
            rows.push(row(g, 2, 2, Win, 2.0));
        }
        let r = rate_rows(&rows, &RatingOptions::default());
        assert_eq!(r.model, RatingModel::PlackettLuce);
        let e: Vec<f64> = r.agents.iter().map(|a| a.elo.estimate).collect();
        assert!(e[2] > e[1] && e[1] > e[0], "{e:?}");
        assert!(e.iter().sum::<f64>().abs() < 1e-6);
        assert!(r.to_markdown().contains("| 2 | `a2` | 30 |"));
    }
}
