//! The balance report of a run: win rates by seat and by role with 95 %
//! Wilson intervals and tests against a fair rate (Holm-corrected across all
//! the comparisons), decisiveness, game length, and ratings of the agents.
//! Computed from `games.csv` rows alone; the Markdown is deterministic (no
//! timestamps), so a report can be committed and diffed.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::io;
use std::path::Path;

use super::plots::{self, RatePoint};
use crate::arena::play::FIRST_PLAYER;
use crate::arena::record::{GameRow, MetricRow, Tally};
use crate::files::{RATINGS_FILE, REPORT_FILE, ROLES_PLOT, SEATS_PLOT, TURNS_PLOT};
use crate::game::Outcome;
use crate::stats::ratings::{RatingOptions, Ratings, rate_rows};
use crate::stats::seat_tests::{TestResult, mean_interval, seat_chi_square, seat_trend};
use crate::stats::{Z95, holm, mean, median, p90, proportion_p_value, wilson};

/// Family-wise error rate of the flags.
pub const ALPHA: f64 = 0.05;

/// One compared group: a seat or a role.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// `seat 0`, or the role's name.
    pub label: String,
    /// Its results (win rate and Wilson interval).
    pub tally: Tally,
    /// Two-sided p-value of "its win rate is the fair rate".
    pub p_value: f64,
    /// The p-value after Holm's correction over every seat and role.
    pub p_holm: f64,
    /// Rejected at [`ALPHA`] after correction.
    pub flagged: bool,
}

/// Mean, median and 90th percentile (nearest rank) of a length.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lengths {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// 90th percentile, nearest rank.
    pub p90: f64,
}

impl Lengths {
    /// The lengths of values given as how often each occurs, equal to
    /// [`Lengths::of`] the values (whole numbers sum exactly in `f64`).
    pub(crate) fn of_counts(counts: &BTreeMap<u32, u64>) -> Lengths {
        let n: u64 = counts.values().sum();
        if n == 0 {
            return Lengths::of(&[]);
        }
        // The value of 0-based rank `k` in sorted order.
        let nth = |k: u64| {
            let mut seen = 0;
            for (&v, &c) in counts {
                seen += c;
                if k < seen {
                    return f64::from(v);
                }
            }
            0.0
        };
        let sum: u64 = counts.iter().map(|(&v, &c)| u64::from(v) * c).sum();
        let rank = ((0.9 * n as f64).ceil() as u64).clamp(1, n);
        Lengths {
            mean: sum as f64 / n as f64,
            median: if n % 2 == 1 {
                nth(n / 2)
            } else {
                (nth(n / 2 - 1) + nth(n / 2)) / 2.0
            },
            p90: nth(rank - 1),
        }
    }

    fn of(values: &[f64]) -> Lengths {
        Lengths {
            mean: mean(values).unwrap_or(0.0),
            median: median(values).unwrap_or(0.0),
            p90: p90(values).unwrap_or(0.0),
        }
    }
}

/// Everything the report says, as numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Balance {
    /// The game spec (from the rows).
    pub game: String,
    /// Games.
    pub games: u64,
    /// Seats per game.
    pub seats: usize,
    /// The rate every seat (and role) would have if none had an advantage: the
    /// pooled win rate over all rows (one half in games of two). In games with
    /// teams of unequal size the pooled rate leans towards the larger team, so
    /// read the seat and role tests there as "differs from the average seat".
    pub fair: f64,
    /// By seat.
    pub by_seat: Vec<Group>,
    /// By role, sorted by name; empty when the game has no roles.
    pub by_role: Vec<Group>,
    /// Games with a winner that did not hit the length cap.
    pub decisive: u64,
    /// Games without a winner (draws), truncated ones included.
    pub drawn: u64,
    /// Games stopped at the length cap.
    pub truncated: u64,
    /// Games ended by a fault.
    pub faulted: u64,
    /// Games per ending (the rule that ended them, `games.csv`'s `ending`),
    /// most frequent first; empty for files written before the column.
    pub endings: Vec<(String, u64)>,
    /// Rounds per game, for games that count rounds.
    pub rounds: Option<Lengths>,
    /// Turns per game.
    pub turns: Lengths,
    /// Actions per game.
    pub actions: Lengths,
    /// Ratings of the agents.
    pub ratings: Ratings,
    /// The first players' rows, when metrics.csv names them (see
    /// [`with_first_movers`](Balance::with_first_movers)).
    pub first_mover: Option<Group>,
    /// Tests across all seats at once, reported before the per-seat tests:
    /// the omnibus chi-square and the trend over seat order (none with one seat).
    pub seat_tests: Vec<SeatTest>,
    /// Distinct hypotheses in Holm's family (see [`analyze`]).
    pub hypotheses: usize,
    /// Paired estimates per deal, when the rows come from duplicate deals.
    pub deals: Option<Deals>,
    /// Each seat's side, named by the side's first seat (found from the results: seats that always share their outcome).
    /// Where a side has several seats, `by_seat` holds one group per side.
    pub sides: Vec<u8>,
}

/// A test across every seat.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatTest {
    /// What it tests.
    pub name: String,
    /// Statistic, degrees of freedom and raw p-value.
    pub test: TestResult,
    /// The p-value after Holm's correction.
    pub p_holm: f64,
    /// Rejected at [`ALPHA`] after correction.
    pub flagged: bool,
}

/// A paired estimate: the mean over deals of a per-deal advantage.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedEstimate {
    /// `seat 0` or the agent's label.
    pub label: String,
    /// Mean advantage over the average seat of the deal (in win rate).
    pub estimate: f64,
    /// Lower bound of its 95 % interval.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Two-sided p-value of "no advantage".
    pub p_value: f64,
}

/// Duplicate deals: every deal (one seed) played once per seating. Per deal,
/// a seat's (or agent's) advantage is its mean result over the deal's games
/// minus the deal's mean result per seat; deals are independent, so these
/// per-deal differences give the interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Deals {
    /// Deals.
    pub deals: u64,
    /// Per seat.
    pub seats: Vec<PairedEstimate>,
    /// Per agent (by agent index), with the agent label.
    pub agents: Vec<PairedEstimate>,
}

/// The paired estimates of rows played as duplicate deals, or `None` when
/// they are not: rows are duplicate deals when every seed is shared by exactly
/// as many games as there are seats (independent games have distinct seeds).
pub fn deals(rows: &[GameRow]) -> Option<Deals> {
    let seats = rows.iter().map(|r| r.seat as usize + 1).max().unwrap_or(0);
    if seats < 2 {
        return None;
    }
    let mut by_seed: BTreeMap<u64, BTreeMap<u64, Vec<&GameRow>>> = BTreeMap::new();
    for r in rows {
        by_seed
            .entry(r.seed)
            .or_default()
            .entry(r.game_index)
            .or_default()
            .push(r);
    }
    if by_seed.values().any(|games| games.len() != seats) {
        return None;
    }
    let agents = rows.iter().map(|r| r.agent_index + 1).max().unwrap_or(0);
    let mut labels = vec![String::new(); agents];
    for r in rows {
        labels[r.agent_index].clone_from(&r.agent);
    }
    let mut per_seat = vec![Vec::with_capacity(by_seed.len()); seats];
    let mut per_agent = vec![Vec::with_capacity(by_seed.len()); agents];
    for games in by_seed.values() {
        let mut seat_sum = vec![0.0; seats];
        let mut seat_n = vec![0.0; seats];
        let mut agent_sum = vec![0.0; agents];
        let mut agent_n = vec![0.0; agents];
        let mut total = 0.0;
        for r in games.values().flatten() {
            let x = r.outcome.points();
            seat_sum[r.seat as usize] += x;
            seat_n[r.seat as usize] += 1.0;
            agent_sum[r.agent_index] += x;
            agent_n[r.agent_index] += 1.0;
            total += x;
        }
        let average = total / (seats * games.len()) as f64;
        for s in 0..seats {
            if seat_n[s] > 0.0 {
                per_seat[s].push(seat_sum[s] / seat_n[s] - average);
            }
        }
        for a in 0..agents {
            if agent_n[a] > 0.0 {
                per_agent[a].push(agent_sum[a] / agent_n[a] - average);
            }
        }
    }
    let estimate = |label: String, values: &[f64]| {
        let (estimate, low, high, p_value) = mean_interval(values);
        PairedEstimate {
            label,
            estimate,
            low,
            high,
            p_value,
        }
    };
    Some(Deals {
        deals: by_seed.len() as u64,
        seats: per_seat
            .iter()
            .enumerate()
            .map(|(s, v)| estimate(format!("seat {s}"), v))
            .collect(),
        agents: per_agent
            .iter()
            .zip(labels)
            .filter(|(v, _)| !v.is_empty())
            .map(|(v, l)| estimate(l, v))
            .collect(),
    })
}

/// An order-free fingerprint of a set of rows (by game and seat): two groups
/// with equal fingerprints hold the same rows, so they test one hypothesis.
pub(crate) fn fingerprint<'a>(rows: impl Iterator<Item = &'a GameRow>) -> Fingerprint {
    let mut f = (0u64, 0u64, 0u64);
    for r in rows {
        add_to_fingerprint(&mut f, r);
    }
    f
}

/// An order-free fingerprint of rows: see [`fingerprint`].
pub(crate) type Fingerprint = (u64, u64, u64);

/// Adds one row to a [`fingerprint`].
pub(crate) fn add_to_fingerprint(f: &mut Fingerprint, r: &GameRow) {
    let key = r.game_index.wrapping_mul(64) ^ u64::from(r.seat);
    f.0 += 1;
    f.1 = f.1.wrapping_add(crate::rng::game_seed(0x5eed, key));
    f.2 = f.2.wrapping_add(crate::rng::game_seed(0xface, key));
}

impl Balance {
    /// Share of games that were decisive (see [`Balance::decisive`]).
    pub fn decisiveness(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.decisive as f64 / self.games as f64
        }
    }

    /// Seat 0, whose advantage is the first-player advantage in games that
    /// start at seat 0; none where seats form sides of several seats, whose
    /// seats are not alike.
    pub fn first_player(&self) -> Option<&Group> {
        self.seats_are_sides()
            .then(|| self.by_seat.first())
            .flatten()
    }

    /// Whether every side is one seat, so that seats are alike and compete.
    pub fn seats_are_sides(&self) -> bool {
        side_seats(&self.sides).iter().all(|s| s.len() == 1)
    }

    /// Adds the group of first movers: for each game in `first`, the row of
    /// its first player. This is the first-player advantage
    /// also in games that draw their first player.
    pub fn with_first_movers(mut self, rows: &[GameRow], first: &HashMap<u64, u8>) -> Self {
        let sel: Vec<&GameRow> = rows
            .iter()
            .filter(|r| first.get(&r.game_index) == Some(&r.seat))
            .collect();
        if !sel.is_empty() && self.seats_are_sides() {
            self.first_mover = Some(group("first player".into(), &sel, self.fair));
        }
        self
    }
}

/// Finds which seats play on one side from the results alone: two seats are
/// on one side when every game gave them the same outcome and some game a win
/// to both (opponents never both win).
#[derive(Clone, Debug, Default)]
pub(crate) struct SideFinder {
    /// Per pair of seats (lower first): (always the same outcome, both won once).
    pairs: BTreeMap<(u8, u8), (bool, bool)>,
    /// Seats seen.
    seats: usize,
}

impl SideFinder {
    /// Adds one game's rows.
    pub(crate) fn add<'a>(&mut self, game: impl Iterator<Item = &'a GameRow> + Clone) {
        for a in game.clone() {
            self.seats = self.seats.max(a.seat as usize + 1);
            for b in game.clone().filter(|b| b.seat > a.seat) {
                let pair = self.pairs.entry((a.seat, b.seat)).or_insert((true, false));
                pair.0 &= a.outcome == b.outcome;
                pair.1 |= a.outcome == Outcome::Win && b.outcome == Outcome::Win;
            }
        }
    }

    /// Each seat's side, named by the side's first seat.
    pub(crate) fn sides(&self) -> Vec<u8> {
        (0..self.seats as u8)
            .map(|s| {
                (0..s)
                    .find(|&t| self.pairs.get(&(t, s)) == Some(&(true, true)))
                    .unwrap_or(s)
            })
            .collect()
    }
}

/// The seats of each side, sides in order of their first seat.
pub fn side_seats(sides: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for (seat, &side) in sides.iter().enumerate() {
        match out.iter_mut().find(|s| s[0] == side) {
            Some(seats) => seats.push(seat as u8),
            None => out.push(vec![seat as u8]),
        }
    }
    out
}

/// `seat 0`, or `side of seats 1+2` for a side of several seats.
fn side_label(seats: &[u8]) -> String {
    match seats {
        [one] => format!("seat {one}"),
        many => {
            let names: Vec<String> = many.iter().map(u8::to_string).collect();
            format!("side of seats {}", names.join("+"))
        }
    }
}

/// Each game's first player, from the `first_player` rows
/// of `dir`/metrics.csv (empty without the file or the metric).
pub fn first_movers(dir: &Path) -> io::Result<HashMap<u64, u8>> {
    let mut first = HashMap::new();
    let path = dir.join(crate::files::METRICS_FILE);
    if !path.exists() {
        return Ok(first);
    }
    let mut reader = crate::fsutil::csv_reader(&path, crate::fsutil::MAX_CSV_BYTES)?;
    for m in reader.deserialize::<MetricRow>() {
        let m = m.map_err(io::Error::other)?;
        if m.metric == FIRST_PLAYER && m.value > 0.0 {
            first.insert(m.game_index, m.seat);
        }
    }
    Ok(first)
}

fn group(label: String, rows: &[&GameRow], fair: f64) -> Group {
    group_of(label, Tally::of(rows.iter().copied()), fair)
}

/// The group of a finished tally, tested against the `fair` rate.
pub(crate) fn group_of(label: String, tally: Tally, fair: f64) -> Group {
    let points = tally.wins as f64 + 0.5 * tally.draws as f64;
    Group {
        label,
        p_value: proportion_p_value(points, tally.games as f64, fair),
        tally,
        p_holm: 1.0,
        flagged: false,
    }
}

pub use crate::arena::record::role_parts;

/// Computes the report's numbers from `rows` (any order).
pub fn analyze(rows: &[GameRow], ratings: &RatingOptions) -> Balance {
    let mut games: BTreeMap<u64, Vec<&GameRow>> = BTreeMap::new();
    for r in rows {
        games.entry(r.game_index).or_default().push(r);
    }
    let seats = rows.iter().map(|r| r.seat as usize + 1).max().unwrap_or(0);
    let by_seat = (0..seats)
        .map(|s| {
            let sel = || rows.iter().filter(move |r| r.seat as usize == s);
            (Tally::of(sel()), fingerprint(sel()))
        })
        .collect();
    let mut roles: BTreeMap<String, Vec<&GameRow>> = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.role.is_empty()) {
        for role in role_parts(&r.role) {
            roles.entry(role).or_default().push(r);
        }
    }
    let by_role = roles
        .into_iter()
        .map(|(role, sel)| {
            let print = fingerprint(
                rows.iter()
                    .filter(|r| !r.role.is_empty() && role_parts(&r.role).contains(&role)),
            );
            (role, Tally::of(sel.into_iter()), print)
        })
        .collect();
    let mut endings: BTreeMap<String, u64> = BTreeMap::new();
    for g in games.values().filter(|g| !g[0].ending.is_empty()) {
        *endings.entry(g[0].ending.clone()).or_default() += 1;
    }
    let rounds: Vec<f64> = games
        .values()
        .filter_map(|g| g[0].rounds.map(f64::from))
        .collect();
    let turns: Vec<f64> = games.values().map(|g| f64::from(g[0].turns)).collect();
    let actions: Vec<f64> = games.values().map(|g| f64::from(g[0].actions)).collect();
    let decisive = games
        .values()
        .filter(|g| !g[0].truncated && g.iter().any(|r| r.outcome == Outcome::Win))
        .count() as u64;
    let mut sides = SideFinder::default();
    for g in games.values() {
        sides.add(g.iter().copied());
    }
    assemble(Parts {
        sides: sides.sides(),
        game: rows.first().map(|r| r.game.clone()).unwrap_or_default(),
        games: games.len() as u64,
        all: Tally::of(rows.iter()),
        total: fingerprint(rows.iter()),
        by_seat,
        by_role,
        deals: deals(rows),
        decisive,
        truncated: games.values().filter(|g| g[0].truncated).count() as u64,
        faulted: games.values().filter(|g| !g[0].error.is_empty()).count() as u64,
        endings,
        rounds: (!rounds.is_empty()).then(|| Lengths::of(&rounds)),
        turns: Lengths::of(&turns),
        actions: Lengths::of(&actions),
        ratings: rate_rows(rows, ratings),
    })
}

/// The numbers a report is made of that are read off its rows: tallies and
/// fingerprints of the groups, counts of games, lengths and ratings.
/// [`analyze`] computes them from rows in memory, [`super::stream`] from
/// rows read one game at a time; [`assemble`] turns either into a report.
pub(crate) struct Parts {
    pub game: String,
    pub games: u64,
    pub all: Tally,
    pub total: Fingerprint,
    /// Per seat: its tally and fingerprint.
    pub by_seat: Vec<(Tally, Fingerprint)>,
    /// Per role, sorted by name.
    pub by_role: Vec<(String, Tally, Fingerprint)>,
    pub deals: Option<Deals>,
    pub decisive: u64,
    pub truncated: u64,
    pub faulted: u64,
    pub endings: BTreeMap<String, u64>,
    pub rounds: Option<Lengths>,
    pub turns: Lengths,
    pub actions: Lengths,
    pub ratings: Ratings,
    /// Each seat's side ([`SideFinder::sides`]).
    pub sides: Vec<u8>,
}

/// Each seat's side: the parts' own, unless a seat would name a later
/// seat's side, then every seat its own.
fn seat_sides(p: &Parts, seats: usize) -> Vec<u8> {
    let mut sides = p.sides.clone();
    sides.resize(seats, 0);
    if sides.iter().enumerate().any(|(s, &side)| side as usize > s) {
        sides = (0..seats as u8).collect();
    }
    sides
}

/// The fair rate: with sides, the mean side's rate; else the pooled rate
/// (one half before any game).
fn fair_rate(p: &Parts, grouped: &[Vec<u8>], by_side: bool) -> f64 {
    if by_side {
        let rates: Vec<f64> = grouped
            .iter()
            .map(|g| p.by_seat[g[0] as usize].0.win_rate)
            .collect();
        rates.iter().sum::<f64>() / rates.len() as f64
    } else if p.all.games > 0 {
        p.all.win_rate
    } else {
        0.5
    }
}

/// The omnibus and trend tests across seats, not yet corrected.
fn seat_tests(by_seat: &[Group], seats: usize) -> Vec<SeatTest> {
    let mut seat_tests = Vec::new();
    let pts: Vec<f64> = by_seat
        .iter()
        .map(|g| g.tally.wins as f64 + 0.5 * g.tally.draws as f64)
        .collect();
    let n: Vec<f64> = by_seat.iter().map(|g| g.tally.games as f64).collect();
    for (name, test) in [
        (
            format!(
                "omnibus: seat win rates all equal (chi-square, {} df)",
                seats - 1
            ),
            seat_chi_square(&pts, &n),
        ),
        (
            "trend over seat order (Cochran-Armitage)".to_string(),
            seat_trend(&pts, &n),
        ),
    ] {
        seat_tests.push(SeatTest {
            name,
            test,
            p_holm: 1.0,
            flagged: false,
        });
    }
    seat_tests
}

/// Holm's correction over every distinct hypothesis of the seat, role and
/// across-seat tests: sets each one's corrected p and flag, and returns how
/// many distinct hypotheses there were.
fn holm_correct(
    p: &Parts,
    seats: usize,
    firsts: &[usize],
    by_seat: &mut [Group],
    by_role: &mut [Group],
    seat_tests: &mut [SeatTest],
) -> usize {
    // Holm counts each distinct hypothesis once. A seat and a role holding the
    // same rows are one hypothesis, and so are two groups whose rows are each
    // other's complement (against the pooled rate, one is above it exactly when
    // the other is below): the two seats of a two-seat game, or a faction and
    // its opponents. With two seats the omnibus and trend tests are that same
    // hypothesis too. A hypothesis tested several ways keeps its largest p.
    let total = p.total;
    let key_of = |sel: Fingerprint| {
        let comp = (
            total.0 - sel.0,
            total.1.wrapping_sub(sel.1),
            total.2.wrapping_sub(sel.2),
        );
        sel.min(comp)
    };
    let mut keys: Vec<Fingerprint> = Vec::new();
    for &s in firsts {
        keys.push(key_of(p.by_seat[s].1));
    }
    for (_, _, print) in &p.by_role {
        keys.push(key_of(*print));
    }
    for (i, _) in seat_tests.iter().enumerate() {
        keys.push(if seats == 2 {
            keys[0]
        } else {
            (u64::MAX, u64::MAX, i as u64)
        });
    }
    let p_of: Vec<f64> = by_seat
        .iter()
        .chain(by_role.iter())
        .map(|g| g.p_value)
        .chain(seat_tests.iter().map(|t| t.test.p_value))
        .collect();
    let mut distinct: Vec<Fingerprint> = keys.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let family: Vec<f64> = distinct
        .iter()
        .map(|k| {
            keys.iter()
                .zip(&p_of)
                .filter(|(key, _)| *key == k)
                .map(|(_, &p)| if p.is_nan() { 1.0 } else { p })
                .fold(0.0, f64::max)
        })
        .collect();
    let adjusted = holm(&family);
    let adjusted_of = |k: &Fingerprint| distinct.binary_search(k).map_or(1.0, |i| adjusted[i]);
    let mut keys = keys.iter();
    for g in by_seat.iter_mut().chain(by_role.iter_mut()) {
        let p = keys.next().map_or(1.0, adjusted_of);
        g.p_holm = p;
        g.flagged = p <= ALPHA;
    }
    for t in seat_tests.iter_mut() {
        let p = keys.next().map_or(1.0, adjusted_of);
        t.p_holm = p;
        t.flagged = p <= ALPHA;
    }
    distinct.len()
}

/// The tests, Holm's correction and flags of a report from its [`Parts`].
pub(crate) fn assemble(p: Parts) -> Balance {
    let seats = p.by_seat.len();
    let sides = seat_sides(&p, seats);
    // Seats that share every result are read once, as their side; each
    // side's fair share is then the mean side's, not the pooled seat rate.
    let grouped = side_seats(&sides);
    let by_side = grouped.iter().any(|g| g.len() > 1);
    let fair = fair_rate(&p, &grouped, by_side);
    let firsts: Vec<usize> = grouped.iter().map(|g| g[0] as usize).collect();
    let mut by_seat: Vec<Group> = grouped
        .iter()
        .map(|g| group_of(side_label(g), p.by_seat[g[0] as usize].0.clone(), fair))
        .collect();
    let mut by_role: Vec<Group> = p
        .by_role
        .iter()
        .map(|(role, t, _)| group_of(role.clone(), t.clone(), fair))
        .collect();
    if let Some(d) = p.deals.as_ref().filter(|_| !by_side) {
        // Games of one deal share their luck: the per-deal differences are the
        // independent observations, so the seat tests use them.
        for (g, e) in by_seat.iter_mut().zip(&d.seats) {
            g.p_value = e.p_value;
        }
    }
    let mut seat_tests = if seats >= 2 && !by_side {
        seat_tests(&by_seat, seats)
    } else {
        Vec::new()
    };
    let hypotheses = holm_correct(
        &p,
        seats,
        &firsts,
        &mut by_seat,
        &mut by_role,
        &mut seat_tests,
    );
    let deal_estimates = p.deals;
    let mut endings: Vec<(String, u64)> = p.endings.into_iter().collect();
    endings.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Balance {
        game: p.game,
        games: p.games,
        seats,
        fair,
        by_seat,
        by_role,
        decisive: p.decisive,
        drawn: p.games - p.decisive,
        truncated: p.truncated,
        faulted: p.faulted,
        endings,
        rounds: p.rounds,
        turns: p.turns,
        actions: p.actions,
        ratings: p.ratings,
        first_mover: None,
        seat_tests,
        hypotheses,
        deals: deal_estimates,
        sides,
    }
}

/// Titles and free text for the report's head.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReportMeta {
    /// The report's title (the experiment's name).
    pub title: String,
    /// Lines listed under the title: how the data was made (command, seed…).
    pub notes: Vec<String>,
}

/// A chart linked from the report: its caption and file name, relative to the
/// report.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotLink {
    /// Caption.
    pub caption: String,
    /// File name relative to the report.
    pub file: String,
}

fn p_text(p: f64) -> String {
    if p < 1e-4 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

fn group_table(out: &mut String, key: &str, groups: &[Group]) {
    let _ = writeln!(
        out,
        "| {key} | games | wins | draws | losses | win rate | 95 % CI | p | Holm p | flag |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---|---:|---:|---|");
    for g in groups {
        let t = &g.tally;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.3} | [{:.3}, {:.3}] | {} | {} | {} |",
            g.label,
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.win_rate,
            t.ci_low,
            t.ci_high,
            p_text(g.p_value),
            p_text(g.p_holm),
            if g.flagged { "**unbalanced**" } else { "" }
        );
    }
}

fn share(k: u64, n: u64) -> String {
    if n == 0 {
        "0 (0.0 %)".into()
    } else {
        format!("{k} ({:.1} %)", 100.0 * k as f64 / n as f64)
    }
}

/// How the games ended, with 95 % Wilson intervals: first in every report,
/// because games cut short by a cap say little about balance.
fn endings_table(out: &mut String, b: &Balance) {
    if b.endings.is_empty() {
        return;
    }
    let _ = writeln!(out, "## Endings\n");
    let _ = writeln!(out, "| ending | games | share | 95 % interval |");
    let _ = writeln!(out, "|---|---:|---:|---|");
    let n: u64 = b.endings.iter().map(|e| e.1).sum();
    for (name, k) in &b.endings {
        let (lo, hi) = wilson(*k as f64, n as f64, Z95);
        let _ = writeln!(
            out,
            "| {name} | {k} | {:.3} | [{lo:.3}, {hi:.3}] |",
            *k as f64 / n as f64
        );
    }
    let _ = writeln!(
        out,
        "\n`cap` is the game's own simulation cap (a round or turn limit the rulebook does not \
         have), `length-cap` the runner's action limit, `fault` a forfeit: such games are \
         drawn or cut short and say little about balance."
    );
    if let Some(r) = &b.rounds {
        let _ = writeln!(
            out,
            "\nRounds per game: mean {:.1}, median {:.1}, p90 {:.0}.",
            r.mean, r.median, r.p90
        );
    }
    out.push('\n');
}

/// The report's head: title, notes, how seats group into sides, and what
/// is tested against what. Returns what a seat row is called (`seat` or
/// `side`).
fn md_head(out: &mut String, b: &Balance, meta: &ReportMeta) -> &'static str {
    let title = if meta.title.is_empty() {
        b.game.as_str()
    } else {
        meta.title.as_str()
    };
    let _ = writeln!(out, "# Balance report: {title}\n");
    for n in &meta.notes {
        let _ = writeln!(out, "- {n}");
    }
    if !meta.notes.is_empty() {
        out.push('\n');
    }
    let grouped = side_seats(&b.sides);
    let (kind, fair_text) = if b.seats_are_sides() {
        ("seat", "the pooled win rate of all seats")
    } else {
        (
            "side",
            "a fair share per side: the mean side's rate, one half with two sides",
        )
    };
    if !b.seats_are_sides() {
        let names: Vec<String> = grouped.iter().map(|g| side_label(g)).collect();
        let _ = writeln!(
            out,
            "Seats that share every result play on one side, and a side is read once: {} \
             sides here ({}). Seat rates and a first-player advantage are left out, since \
             these seats are not alike.\n",
            grouped.len(),
            names.join("; ")
        );
    }
    let _ = writeln!(
        out,
        "Game `{}`: {} games, {} seats. A draw counts as half a win; intervals are 95 % Wilson \
         intervals. Each {kind} and role is tested against the fair rate {:.3} ({fair_text}), \
         and the p-values are corrected together by Holm's method, \
         counting each distinct hypothesis once ({} here: a seat and a role holding the same \
         games, or two groups that are each other's opponents, test one hypothesis); \
         **unbalanced** marks a family-wise significant difference at {ALPHA}.\n",
        b.game, b.games, b.seats, b.fair, b.hypotheses
    );
    kind
}

/// The omnibus and trend tests across seats, when there are any.
fn md_seat_tests(out: &mut String, b: &Balance) {
    let _ = writeln!(out, "## Tests across seats\n");
    let _ = writeln!(out, "| test | statistic | p | Holm p | flag |");
    let _ = writeln!(out, "|---|---:|---:|---:|---|");
    for t in &b.seat_tests {
        let _ = writeln!(
            out,
            "| {} | {:.3} | {} | {} | {} |",
            t.name,
            t.test.statistic,
            p_text(t.test.p_value),
            p_text(t.p_holm),
            if t.flagged { "**unbalanced**" } else { "" }
        );
    }
    let _ = writeln!(
        out,
        "\nThe omnibus test compares the seats' points (wins plus half the draws) with \
             equal shares; the trend test (Cochran-Armitage z with the variance of points \
             shared within a game, positive when later seats do better) looks for a rate \
             rising or falling with seat order. Both come before the per-seat tests below; \
             both treat games as independent.\n"
    );
}

/// The paired per-deal estimates of duplicate deals.
fn md_deals(out: &mut String, d: &Deals) {
    let _ = writeln!(
        out,
        "## Paired estimates over {} duplicate deals\n\nEach deal is played once per \
             seating with the same chance stream. Per deal, an advantage is the mean result \
             of the seat (or agent) over the deal's games minus the deal's mean per seat; the \
             interval is the normal interval of these independent per-deal differences, and \
             the seat tests below use them.\n",
        d.deals
    );
    let _ = writeln!(out, "| seat or agent | advantage | 95 % CI | p |");
    let _ = writeln!(out, "|---|---:|---|---:|");
    for e in d.seats.iter().chain(&d.agents) {
        let _ = writeln!(
            out,
            "| {} | {:+.4} | [{:+.4}, {:+.4}] | {} |",
            e.label,
            e.estimate,
            e.low,
            e.high,
            p_text(e.p_value)
        );
    }
    out.push('\n');
}

/// The first player's advantage: measured by rotation when the run has it,
/// else read from seat 0.
fn md_first_mover(out: &mut String, b: &Balance) {
    if let Some(g) = &b.first_mover {
        let _ = writeln!(
            out,
            "\nFirst-player advantage: the first player scores \
             {:.3} [{:.3}, {:.3}] over {} games against a fair {:.3} ({:+.3}), p = {}.",
            g.tally.win_rate,
            g.tally.ci_low,
            g.tally.ci_high,
            g.tally.games,
            b.fair,
            g.tally.win_rate - b.fair,
            p_text(g.p_value)
        );
    } else if let Some(g) = b.first_player() {
        let _ = writeln!(
            out,
            "\nFirst-player advantage: seat 0 scores {:.3} [{:.3}, {:.3}] against a fair {:.3} \
             ({:+.3}), p = {} (Holm {}).",
            g.tally.win_rate,
            g.tally.ci_low,
            g.tally.ci_high,
            b.fair,
            g.tally.win_rate - b.fair,
            p_text(g.p_value),
            p_text(g.p_holm)
        );
    }
}

/// How many games were decisive, drawn, cut short or faulted, and how long
/// games ran.
fn md_decisiveness(out: &mut String, b: &Balance) {
    let _ = writeln!(out, "\n## Decisiveness\n");
    let _ = writeln!(out, "| games | decisive | drawn | truncated | faulted |");
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|");
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | {} |",
        b.games,
        share(b.decisive, b.games),
        share(b.drawn, b.games),
        share(b.truncated, b.games),
        share(b.faulted, b.games)
    );
    let _ = writeln!(
        out,
        "\nDecisive: a game with a winner that did not hit the length cap."
    );
    let _ = writeln!(out, "\n## Game length\n");
    let _ = writeln!(out, "| per game | mean | median | p90 |");
    let _ = writeln!(out, "|---|---:|---:|---:|");
    for (name, l) in [("turns", &b.turns), ("actions", &b.actions)] {
        let _ = writeln!(
            out,
            "| {name} | {:.1} | {:.1} | {:.0} |",
            l.mean, l.median, l.p90
        );
    }
    let _ = writeln!(
        out,
        "\np90 is the nearest-rank 90th percentile: 90 % of games are at most this long."
    );
}

/// The report as Markdown.
pub fn markdown(b: &Balance, meta: &ReportMeta, plots: &[PlotLink]) -> String {
    let mut out = String::new();
    let kind = md_head(&mut out, b, meta);
    endings_table(&mut out, b);
    if !b.seat_tests.is_empty() {
        md_seat_tests(&mut out, b);
    }
    if let Some(d) = &b.deals {
        md_deals(&mut out, d);
    }
    let _ = writeln!(out, "## Win rate by {kind}\n");
    group_table(&mut out, kind, &b.by_seat);
    md_first_mover(&mut out, b);
    if !b.by_role.is_empty() {
        let _ = writeln!(
            out,
            "\n## Win rate by role\n\nA seat holding several roles (`a+b`, such as drafted \
             characters) counts for each: one row per role, never per combination.\n"
        );
        group_table(&mut out, "role", &b.by_role);
    }
    md_decisiveness(&mut out, b);
    let _ = writeln!(out, "\n## Ratings ({})\n", b.ratings.model.name());
    out.push_str(&b.ratings.to_markdown());
    let _ = writeln!(
        out,
        "\nElo points (400 · log10 of the strength, mean 0); a difference of 100 means an \
         expected score of 0.64 head to head. Intervals: 95 % bootstrap over games."
    );
    if !plots.is_empty() {
        let _ = writeln!(out, "\n## Plots\n");
        for p in plots {
            let _ = writeln!(out, "![{}]({})\n", p.caption, p.file);
        }
    }
    out
}

/// Win rates with their intervals, for charts.
pub fn rate_points(groups: &[Group]) -> Vec<RatePoint> {
    groups
        .iter()
        .map(|g| RatePoint {
            label: g.label.clone(),
            rate: g.tally.win_rate,
            low: g.tally.ci_low,
            high: g.tally.ci_high,
        })
        .collect()
}

/// Roles drawn as vertical bars; more are drawn one row each
/// ([`plots::interval_chart`]), where their labels stay readable.
pub const ROLE_BARS: usize = 8;

/// Writes `report.md`, `ratings.csv` and the charts (win rate by seat, by
/// role when there are roles, game length in turns) into `dir`, and returns
/// the numbers.
pub fn write_report(
    dir: &Path,
    rows: &[GameRow],
    meta: &ReportMeta,
    ratings: &RatingOptions,
) -> io::Result<Balance> {
    let b = analyze(rows, ratings).with_first_movers(rows, &first_movers(dir)?);
    let mut turns: BTreeMap<u64, u32> = BTreeMap::new();
    for r in rows {
        turns.insert(r.game_index, r.turns);
    }
    let mut counts: BTreeMap<u32, u64> = BTreeMap::new();
    for t in turns.into_values() {
        *counts.entry(t).or_default() += 1;
    }
    write_files(dir, &b, &counts, meta)?;
    Ok(b)
}

/// Writes the files of [`write_report`] for the numbers `b`, with the games'
/// lengths in turns given as how many games had each.
pub(crate) fn write_files(
    dir: &Path,
    b: &Balance,
    turns: &BTreeMap<u32, u64>,
    meta: &ReportMeta,
) -> io::Result<()> {
    let mut links = Vec::new();
    let game = &b.game;
    plots::win_rate_chart(
        &dir.join(SEATS_PLOT),
        &format!("{game}: win rate by seat"),
        "seat",
        &rate_points(&b.by_seat),
        Some(b.fair),
    )?;
    links.push(PlotLink {
        caption: "Win rate by seat".into(),
        file: SEATS_PLOT.into(),
    });
    if b.by_role.len() > ROLE_BARS {
        // Many roles (drafted characters): one row each on a categorical axis.
        plots::interval_chart(
            &dir.join(ROLES_PLOT),
            &format!("{game}: win rate by role"),
            "win rate (draw = 1/2)",
            &rate_points(&b.by_role),
            Some(b.fair),
            Some((0.0, 1.0)),
        )?;
    } else if !b.by_role.is_empty() {
        plots::win_rate_chart(
            &dir.join(ROLES_PLOT),
            &format!("{game}: win rate by role"),
            "role",
            &rate_points(&b.by_role),
            Some(b.fair),
        )?;
        links.push(PlotLink {
            caption: "Win rate by role".into(),
            file: ROLES_PLOT.into(),
        });
    }
    plots::length_histogram_counted(
        &dir.join(TURNS_PLOT),
        &format!("{game}: game length"),
        "turns",
        turns,
    )?;
    links.push(PlotLink {
        caption: "Game length (turns)".into(),
        file: TURNS_PLOT.into(),
    });
    crate::fsutil::write_atomic(&dir.join(RATINGS_FILE), b.ratings.to_csv())?;
    crate::fsutil::write_atomic(&dir.join(REPORT_FILE), markdown(b, meta, &links))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Hand-made rows: `games` games of two between agents 0 and 1, seats
    /// alternating, seat 0 winning `seat0_wins` of them and drawing `draws`.
    pub(crate) fn rows(games: u64, seat0_wins: u64, draws: u64) -> Vec<GameRow> {
        let mut out = Vec::new();
        for g in 0..games {
            let (o0, o1) = if g < seat0_wins {
                (Outcome::Win, Outcome::Loss)
            } else if g < seat0_wins + draws {
                (Outcome::Draw, Outcome::Draw)
            } else {
                (Outcome::Loss, Outcome::Win)
            };
            for (seat, o) in [(0u8, o0), (1, o1)] {
                let agent = (seat as usize + g as usize) % 2;
                out.push(GameRow {
                    game_index: g,
                    seed: g,
                    game: "tictactoe".into(),
                    seat,
                    agent_index: agent,
                    agent: ["x", "y"][agent].into(),
                    role: ["cross", "nought"][seat as usize].into(),
                    outcome: o,
                    score: 0.0,
                    ret: 0.0,
                    turns: 5 + (g % 5) as u32,
                    actions: 5 + (g % 5) as u32,
                    decisions: 3,
                    branching: 0.0,
                    iterations: 0,
                    truncated: draws > 0 && g == seat0_wins,
                    ending: String::new(),
                    rounds: None,
                    error: String::new(),
                    think_us: 7,
                    wall_us: 9,
                });
            }
        }
        out
    }

    fn opts() -> RatingOptions {
        RatingOptions {
            resamples: 20,
            ..Default::default()
        }
    }

    #[test]
    fn seat_advantage_is_flagged() {
        // 140 of 200 games won by seat 0, 20 drawn (the first draw truncated).
        let b = analyze(&rows(200, 140, 20), &opts());
        assert_eq!((b.games, b.seats), (200, 2));
        assert!((b.fair - 0.5).abs() < 1e-12);
        let s0 = &b.by_seat[0];
        assert!((s0.tally.win_rate - 0.75).abs() < 1e-12);
        assert!(s0.p_value < 1e-6 && s0.flagged);
        // Two seats and two roles holding the same rows, and the omnibus and
        // trend tests of two seats, are one hypothesis: Holm leaves it alone.
        assert_eq!(b.by_role.len(), 2);
        assert_eq!(b.hypotheses, 1);
        assert!((s0.p_holm - s0.p_value).abs() < 1e-12, "{s0:?}");
        let md = markdown(&b, &ReportMeta::default(), &[]);
        assert_eq!(md.matches("| **unbalanced** |").count(), 6, "{md}");
        assert_eq!((b.decisive, b.drawn, b.truncated), (180, 20, 1));
        assert!((b.decisiveness() - 0.9).abs() < 1e-12);
        // Turns cycle 5..=9: mean 7, median 7, p90 9.
        assert_eq!((b.turns.mean, b.turns.median, b.turns.p90), (7.0, 7.0, 9.0));
    }

    #[test]
    fn first_movers_replace_seat_0_when_known() {
        let r = rows(200, 140, 20);
        let always = |seat: u8| (0..200).map(|g| (g, seat)).collect::<HashMap<u64, u8>>();
        for seat in [0u8, 1] {
            let b = analyze(&r, &opts()).with_first_movers(&r, &always(seat));
            let g = b.first_mover.as_ref().expect("first movers");
            assert_eq!(g.tally, b.by_seat[seat as usize].tally);
            let md = markdown(&b, &ReportMeta::default(), &[]);
            let line = format!("the first player scores {:.3}", g.tally.win_rate);
            assert!(md.contains(&line), "{md}");
        }
        let b = analyze(&r, &opts()).with_first_movers(&r, &HashMap::new());
        assert!(b.first_mover.is_none());
        assert!(markdown(&b, &ReportMeta::default(), &[]).contains("seat 0 scores 0.750"));
    }

    #[test]
    fn seats_holding_several_roles_count_for_each() {
        assert_eq!(role_parts("Boxer+Mystic"), ["Boxer", "Mystic"]);
        assert_eq!(role_parts("foxes:ruby+jade"), ["foxes:ruby", "foxes:jade"]);
        assert_eq!(role_parts("GKa"), ["GKa"]);
        let mut r = rows(100, 70, 0);
        for row in &mut r {
            row.role = if row.seat == 0 { "A+B" } else { "B+C" }.into();
        }
        let b = analyze(&r, &opts());
        let names: Vec<&str> = b.by_role.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        assert_eq!(b.by_role[0].tally, b.by_seat[0].tally);
        assert_eq!(b.by_role[1].tally.games, 200);
        assert_eq!(b.by_role[2].tally, b.by_seat[1].tally);
    }

    /// Rows of `games` games of `seats` seats; `winner(g)` names the winning
    /// seat, the role of a seat is `role(seat)`.
    fn multi(games: u64, seats: u8, winner: impl Fn(u64) -> u8, role: &[&str]) -> Vec<GameRow> {
        let mut out = Vec::new();
        for g in 0..games {
            for seat in 0..seats {
                let mut r = rows(1, 1, 0)[0].clone();
                r.game_index = g;
                r.seed = g;
                r.seat = seat;
                r.agent_index = (seat as usize + g as usize) % seats as usize;
                r.agent = format!("a{}", r.agent_index);
                r.role = role[seat as usize].into();
                r.outcome = if winner(g) == seat {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                out.push(r);
            }
        }
        out
    }

    #[test]
    fn one_against_two_is_read_per_side_against_one_half() {
        // Seat 0 alone against seats 1 and 2, who share every result: the
        // lone side wins 100 of 300 games.
        let mut rows = multi(
            300,
            3,
            |g| if g < 100 { 0 } else { 1 },
            &["lone", "pair", "pair"],
        );
        for r in rows
            .iter_mut()
            .filter(|r| r.seat == 2 && r.game_index >= 100)
        {
            r.outcome = Outcome::Win;
        }
        let b = analyze(&rows, &opts());
        assert_eq!(b.sides, vec![0, 1, 1]);
        assert!(!b.seats_are_sides());
        assert!((b.fair - 0.5).abs() < 1e-12, "{}", b.fair);
        let labels: Vec<&str> = b.by_seat.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, ["seat 0", "side of seats 1+2"]);
        assert!((b.by_seat[0].tally.win_rate - 1.0 / 3.0).abs() < 1e-12);
        assert!(b.by_seat[0].flagged && b.by_seat[1].flagged);
        assert!(b.seat_tests.is_empty() && b.first_player().is_none());
        let md = markdown(&b, &ReportMeta::default(), &[]);
        assert!(md.contains("## Win rate by side"), "{md}");
        assert!(md.contains("fair rate 0.500"), "{md}");
        assert!(!md.contains("First-player advantage"), "{md}");
        // Streamed from a file, the report is the same.
        let dir = std::env::temp_dir().join(format!("boardlab-sides-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut w = csv::Writer::from_path(dir.join("games.csv")).unwrap();
        for r in &rows {
            w.serialize(r).unwrap();
        }
        w.flush().unwrap();
        drop(w);
        crate::report::stream::summarize(&dir, None, &ReportMeta::default(), &opts()).unwrap();
        let streamed = std::fs::read_to_string(dir.join("report.md")).unwrap();
        assert!(streamed.contains("| side of seats 1+2 |"), "{streamed}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn two_opponents_are_never_one_side() {
        // Every game drawn: the seats share every result but never both win.
        let b = analyze(&rows(50, 0, 50), &opts());
        assert_eq!(b.sides, vec![0, 1]);
        assert!(b.seats_are_sides() && b.first_player().is_some());
    }

    #[test]
    fn omnibus_and_trend_come_first_and_holm_counts_distinct_hypotheses() {
        // Three seats, 300 games, seat 0 winning 130, seat 1 100, seat 2 70:
        // X² = (900 + 0 + 900) / 100 = 18 on 2 df, p = exp(-9).
        let w = |g: u64| {
            if g < 130 {
                0
            } else if g < 230 {
                1
            } else {
                2
            }
        };
        let b = analyze(&multi(300, 3, w, &["r0", "r1", "r2"]), &opts());
        let omni = &b.seat_tests[0];
        assert!((omni.test.statistic - 18.0).abs() < 1e-9, "{omni:?}");
        assert!((omni.test.p_value - (-9.0f64).exp()).abs() < 1e-9);
        // Trend: rates 0.433, 0.333, 0.233 fall with seat order, z = −4.24.
        let trend = &b.seat_tests[1];
        assert!(
            (trend.test.statistic + 4.2426).abs() < 1e-4 && trend.flagged,
            "{trend:?}"
        );
        // Roles r0..r2 hold the seats' rows: 3 seat hypotheses + 2 tests.
        assert_eq!(b.hypotheses, 5);
        let p: Vec<f64> = b
            .by_seat
            .iter()
            .map(|g| g.p_value)
            .chain(b.seat_tests.iter().map(|t| t.test.p_value))
            .collect();
        let adjusted = holm(&p);
        for (g, a) in b.by_seat.iter().zip(&adjusted) {
            assert!((g.p_holm - a).abs() < 1e-12, "{g:?} {a}");
        }
        for (g, r) in b.by_seat.iter().zip(&b.by_role) {
            assert_eq!(g.p_holm, r.p_holm);
        }
        let md = markdown(&b, &ReportMeta::default(), &[]);
        let at = |needle: &str| md.find(needle).unwrap_or_else(|| panic!("{needle}: {md}"));
        assert!(at("## Tests across seats") < at("## Win rate by seat"));
        assert!(md.contains("| omnibus: seat win rates all equal (chi-square, 2 df) | 18.000 |"));
    }

    #[test]
    fn drafted_karmox_characters_get_one_row_each() {
        use crate::game::{Reporting, Rules};
        let game = crate::games::AnyGame::parse("karmox").unwrap();
        let roles: Vec<String> = crate::with_game!(&game, g => {
            let s = g.initial_state(&mut crate::rng::rng_from_seed(1));
            (0..g.num_players()).map(|p| g.role(&s, p as u8)).collect()
        });
        assert!(roles.iter().all(|r| r.contains('+')), "{roles:?}");
        let refs: Vec<&str> = roles.iter().map(String::as_str).collect();
        let b = analyze(
            &multi(100, roles.len() as u8, |g| (g % 2) as u8, &refs),
            &opts(),
        );
        let labels: Vec<&str> = b.by_role.iter().map(|g| g.label.as_str()).collect();
        let mut chars: Vec<&str> = refs.iter().flat_map(|r| r.split('+')).collect();
        chars.sort_unstable();
        assert_eq!(labels, chars);
        assert!(labels.iter().all(|l| !l.contains('+')));
    }

    /// Duplicate deals with a planted seat advantage: seat 0 wins with
    /// probability 0.6 whoever sits there, both games of a deal share the
    /// deal's luck half the time.
    fn planted(deals: u64, shared: bool) -> Vec<GameRow> {
        luck_model(deals, shared, true)
    }

    /// [`planted`] with the deal's luck shared by its games (`luck`) or drawn
    /// afresh per game, and the rows grouped into deals by seed (`shared`).
    fn luck_model(deals: u64, shared: bool, luck_shared: bool) -> Vec<GameRow> {
        let mut rng = crate::rng::rng_from_seed(7);
        let mut out = Vec::new();
        for d in 0..deals {
            let mut luck = crate::rng::unit(&mut rng);
            for k in 0..2 {
                let g = 2 * d + k;
                if !luck_shared {
                    luck = crate::rng::unit(&mut rng);
                }
                let u = if crate::rng::unit(&mut rng) < 0.5 {
                    luck
                } else {
                    crate::rng::unit(&mut rng)
                };
                let seat0 = u < 0.6;
                for mut r in multi(1, 2, |_| u8::from(!seat0), &["", ""]) {
                    r.game_index = g;
                    r.seed = if shared { d } else { g };
                    r.agent_index = (r.seat as usize + g as usize) % 2;
                    r.agent = ["x", "y"][r.agent_index].into();
                    out.push(r);
                }
            }
        }
        out
    }

    #[test]
    fn duplicate_deals_recover_a_planted_seat_advantage() {
        assert!(deals(&planted(50, false)).is_none());
        let d = deals(&planted(2000, true)).expect("duplicate deals");
        assert_eq!(d.deals, 2000);
        // Seat 0 scores 0.6 against an average of 0.5: advantage +0.1.
        let s0 = &d.seats[0];
        assert!(s0.low < 0.1 && 0.1 < s0.high, "{s0:?}");
        assert!(s0.low > 0.0 && s0.p_value < 1e-6, "{s0:?}");
        assert!((d.seats[1].estimate + s0.estimate).abs() < 1e-12);
        // The agents are equal: no agent advantage.
        assert!(
            d.agents.iter().all(|a| a.low < 0.0 && 0.0 < a.high),
            "{d:?}"
        );
        let b = analyze(&planted(2000, true), &opts());
        assert_eq!(b.by_seat[0].p_value, s0.p_value);
        assert!(markdown(&b, &ReportMeta::default(), &[]).contains("over 2000 duplicate deals"));
    }

    /// Luck bound to seats (the same deal gives seat 0 the same luck in both
    /// seatings) cancels from the agents' comparison, not from the seats': a
    /// seat keeps its luck in every seating, so the seat interval widens.
    #[test]
    fn duplicate_deals_narrow_the_agent_interval() {
        let deals_n = 4000u64;
        let width = |rows: &[GameRow]| {
            let d = deals(rows).unwrap();
            (
                d.seats[0].high - d.seats[0].low,
                d.agents[0].high - d.agents[0].low,
            )
        };
        let (seat_dup, agent_dup) = width(&luck_model(deals_n, true, true));
        let (seat_ind, agent_ind) = width(&luck_model(deals_n, true, false));
        // The two games of a deal share their luck a quarter of the time
        // (correlation 0.25): the agent interval shrinks by sqrt(0.75) = 0.87
        // and the seat interval grows by sqrt(1.25) = 1.12. A width estimated
        // from D deals has relative error about 1 / sqrt(2 D) = 0.011; allow 4.
        let margin = 4.0 / (2.0 * deals_n as f64).sqrt();
        assert!(
            agent_dup < agent_ind * (1.0 - margin),
            "{agent_dup} {agent_ind}"
        );
        assert!((agent_dup / agent_ind - 0.75f64.sqrt()).abs() < 2.0 * margin);
        assert!(
            seat_dup > seat_ind * (1.0 + margin),
            "{seat_dup} {seat_ind}"
        );
    }

    #[test]
    fn balanced_games_are_not_flagged() {
        let b = analyze(&rows(200, 95, 10), &opts());
        assert!(b.by_seat.iter().all(|g| !g.flagged), "{:?}", b.by_seat);
        let md = markdown(&b, &ReportMeta::default(), &[]);
        assert!(!md.contains("| **unbalanced** |"), "{md}");
        assert!(md.starts_with("# Balance report: tictactoe\n"));
    }

    #[test]
    fn report_is_written_and_deterministic() {
        let dir = std::env::temp_dir().join(format!("boardlab-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let meta = ReportMeta {
            title: "Tic-tac-toe seats".into(),
            notes: vec!["seed 1".into()],
        };
        let r = rows(100, 70, 0);
        write_report(&dir, &r, &meta, &opts()).unwrap();
        let first = std::fs::read_to_string(dir.join(REPORT_FILE)).unwrap();
        write_report(&dir, &r, &meta, &opts()).unwrap();
        assert_eq!(
            first,
            std::fs::read_to_string(dir.join(REPORT_FILE)).unwrap()
        );
        for needle in [
            "# Balance report: Tic-tac-toe seats",
            "- seed 1",
            "## Win rate by seat",
            "| seat 0 | 100 | 70 | 0 | 30 | 0.700 |",
            "First-player advantage: seat 0 scores 0.700",
            "## Win rate by role",
            "| cross | 100 |",
            "## Decisiveness",
            "## Game length",
            "| turns | 7.0 | 7.0 | 9 |",
            "## Ratings (Bradley-Terry)",
            "| 0 | `x` | 100 |",
            "![Win rate by seat](plot-seats.svg)",
            "![Win rate by role](plot-roles.svg)",
            "![Game length (turns)](plot-turns.svg)",
        ] {
            assert!(first.contains(needle), "missing {needle:?} in\n{first}");
        }
        for f in [SEATS_PLOT, ROLES_PLOT, TURNS_PLOT, RATINGS_FILE] {
            let len = std::fs::metadata(dir.join(f)).map(|m| m.len()).unwrap_or(0);
            assert!(len > 100, "{f} is empty");
        }
        let seats = std::fs::read_to_string(dir.join(SEATS_PLOT)).unwrap();
        assert!(seats.contains("seat 0") && seats.contains("seat 1"));
        let roles = std::fs::read_to_string(dir.join(ROLES_PLOT)).unwrap();
        assert!(roles.contains("cross") && roles.contains("nought"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
