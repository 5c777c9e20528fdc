//! `summarize` of a run directory one game at a time: summary.csv, seats.csv,
//! ratings.csv, report.md and its charts from games.csv (and metrics.csv)
//! read row by row into tallies, so memory does not grow with the rows.
//!
//! What is kept grows with the distinct agents, seats, roles, metrics,
//! lengths and kinds of games, plus a byte or two per game (the rating
//! bootstrap resamples games by position, so it keeps each game's kind) and,
//! for duplicate deals, each deal's seed (the paired estimates are summed in
//! seed order). The files are byte for byte those of the rows held in memory.
//! That needs the rows in order of `game_index`, as every run, resume and
//! merge writes them, and a deal's games next to each other; a file in any
//! other order is summarized from its rows in memory, as before.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use super::balance::{
    self, Balance, Deals, Fingerprint, Lengths, PairedEstimate, Parts, ReportMeta, SideFinder,
    add_to_fingerprint, group_of, role_parts,
};
use super::metrics::{self, Sums};
use crate::arena::play::FIRST_PLAYER;
use crate::arena::record::{self, AgentSummary, GameRow, GameRows, MetricRow, SeatSummary, Tally};
use crate::game::{MAX_PLAYERS, Outcome};
use crate::stats::bootstrap::Kinds;
use crate::stats::ratings::{RatingOptions, RatingStream};
use crate::stats::seat_tests::mean_interval_of;

/// What `summarize` wrote, for its printout.
#[derive(Clone, Debug)]
pub struct Summary {
    /// summary.csv's rows.
    pub agents: Vec<AgentSummary>,
    /// seats.csv's rows.
    pub seats: Vec<SeatSummary>,
    /// The report's numbers.
    pub balance: Balance,
}

/// Checks that `dir`'s games.csv holds every game its run.json says the
/// finished run holds (one row per seat each), so that a cut or unfinished
/// file is never summarized as if it were the run. Without run.json, or for
/// an older run stopped by `--until` that did not record its count, there is
/// nothing to check against (an unreadable run.json is summarize's to
/// report: it reads the rows alone). Reads the rows once, keeping none.
pub fn check_games_count(dir: &Path) -> Result<(), String> {
    let Ok(m) = crate::arena::manifest::read(dir) else {
        return Ok(());
    };
    let Some(games) = m.expected_games() else {
        return Ok(());
    };
    let path = dir.join("games.csv");
    let mut rows = 0u64;
    for r in GameRows::open(&path)? {
        r?;
        rows += 1;
    }
    let seats = m.identity.agents.len().max(1) as u64;
    if rows != games.saturating_mul(seats) {
        return Err(format!(
            "{} holds {} of the {games} games run.json records ({rows} rows of {seats} seats): \
             the run is unfinished or the file was cut (finish it with --resume)",
            path.display(),
            rows / seats,
        ));
    }
    Ok(())
}

/// Writes summary.csv, seats.csv, ratings.csv, report.md and its charts in
/// `dir` from its games.csv (and metrics.csv, when present). `labels` are
/// the run's agents (from run.json), or `None` to take them from the rows.
/// Errors are one line, naming the file.
pub fn summarize(
    dir: &Path,
    labels: Option<&[String]>,
    meta: &ReportMeta,
    opts: &RatingOptions,
) -> Result<Summary, String> {
    summarize_with(dir, labels, |_| meta.clone(), opts)
}

/// [`summarize`] with the report's title and notes made from the number of
/// rows read (an experiment's cell notes its games).
pub fn summarize_with(
    dir: &Path,
    labels: Option<&[String]>,
    meta: impl FnOnce(u64) -> ReportMeta,
    opts: &RatingOptions,
) -> Result<Summary, String> {
    match stream(dir, labels, opts)? {
        Some(pass) => {
            let meta = meta(pass.rows);
            pass.write(dir, labels, &meta)
        }
        None => in_memory(dir, labels, meta, opts),
    }
}

/// The rows of one game, read in order.
struct Games {
    rows: GameRows,
    next: Option<GameRow>,
}

impl Games {
    fn row(&mut self) -> Result<Option<GameRow>, String> {
        self.rows.next().transpose()
    }

    /// The next game's rows into `game` (cleared first); false at the end.
    /// A row of an earlier game than the last is `Err(None)`: out of order.
    fn game(&mut self, game: &mut Vec<GameRow>) -> Result<bool, Option<String>> {
        game.clear();
        let first = match self.next.take() {
            Some(r) => r,
            None => match self.row().map_err(Some)? {
                Some(r) => r,
                None => return Ok(false),
            },
        };
        let index = first.game_index;
        game.push(first);
        while let Some(r) = self.row().map_err(Some)? {
            if r.game_index == index {
                game.push(r);
            } else if r.game_index < index {
                return Err(None);
            } else {
                self.next = Some(r);
                break;
            }
        }
        Ok(true)
    }
}

/// The games of a games.csv one at a time, each as its rows; an error names
/// a row of an earlier game than the one before it (the file is not in game
/// order, as every run, resume and merge writes it).
pub fn games_of(
    path: &Path,
) -> Result<impl Iterator<Item = Result<Vec<GameRow>, String>> + use<>, String> {
    let mut games = Games {
        rows: GameRows::open(path)?,
        next: None,
    };
    let path = path.to_path_buf();
    Ok(std::iter::from_fn(move || {
        let mut game = Vec::new();
        match games.game(&mut game) {
            Ok(true) => Some(Ok(game)),
            Ok(false) => None,
            Err(Some(e)) => Some(Err(e)),
            Err(None) => Some(Err(format!(
                "{} is not in game order (a row of an earlier game follows a later one)",
                path.display()
            ))),
        }
    }))
}

/// metrics.csv read alongside the games: each game's first player and the
/// sums of the metrics section, in the file's order.
struct MetricsJoin {
    reader: Option<csv::DeserializeRecordsIntoIter<io::Take<std::fs::File>, MetricRow>>,
    next: Option<MetricRow>,
    last: u64,
    sums: Sums,
    /// The first error reading the file, reported where the report is written.
    error: Option<io::Error>,
}

impl MetricsJoin {
    fn open(dir: &Path) -> MetricsJoin {
        let path = dir.join(crate::files::METRICS_FILE);
        let mut join = MetricsJoin {
            reader: None,
            next: None,
            last: 0,
            sums: Sums::new(),
            error: None,
        };
        if path.exists() {
            match crate::fsutil::csv_reader(&path, crate::fsutil::MAX_CSV_BYTES) {
                Ok(r) => join.reader = Some(r.into_deserialize()),
                Err(e) => join.error = Some(e),
            }
        }
        join
    }

    /// Reads the rows up to game `index` (all with `None`), counting those of
    /// `game` against its rows' outcomes; returns the game's first player.
    /// `Err` when the file is not in game order.
    fn through(&mut self, index: Option<u64>, game: &[GameRow]) -> Result<Option<u8>, ()> {
        let mut first = None;
        loop {
            let m = match self.next.take() {
                Some(m) => m,
                None => match self.reader.as_mut().and_then(Iterator::next) {
                    None => break,
                    Some(Ok(m)) => m,
                    Some(Err(e)) => {
                        self.error = Some(io::Error::other(e));
                        self.reader = None;
                        break;
                    }
                },
            };
            if index.is_some_and(|i| m.game_index > i) {
                self.next = Some(m);
                break;
            }
            if m.game_index < self.last {
                return Err(());
            }
            self.last = m.game_index;
            let outcome = if Some(m.game_index) == index {
                game.iter()
                    .rev()
                    .find(|r| r.seat == m.seat)
                    .map(|r| r.outcome)
            } else {
                None
            };
            if Some(m.game_index) == index && m.metric == FIRST_PLAYER && m.value > 0.0 {
                first = Some(m.seat);
            }
            let s = self.sums.entry(m.metric).or_default();
            s[0] += m.value;
            match outcome {
                Some(Outcome::Win) => s[1] += m.value,
                Some(Outcome::Loss) => s[2] += m.value,
                _ => {}
            }
        }
        Ok(first)
    }
}

/// A deal's results: games, and per seat and per agent the points (doubled,
/// so whole) and rows, and the total.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Deal {
    games: u64,
    seats: Vec<(u64, u64)>,
    agents: Vec<(u64, u64)>,
    total: u64,
}

/// Duplicate deals read game by game: each run of consecutive games sharing
/// a seed is a deal, kept as its seed and the kind of its results.
#[derive(Default)]
struct DealStream {
    /// Some run so far was not a whole deal.
    broken: bool,
    current: Option<(u64, Deal)>,
    seeds: Vec<u64>,
    kinds: Kinds,
    seen: BTreeMap<Deal, u32>,
    distinct: Vec<Deal>,
}

impl DealStream {
    fn add(&mut self, game: &[GameRow], seats: usize) {
        if self.broken {
            return;
        }
        let seed = game[0].seed;
        if self.current.as_ref().is_some_and(|(s, _)| *s != seed) {
            self.close(seats);
        }
        let (_, deal) = self.current.get_or_insert_with(|| (seed, Deal::default()));
        deal.games += 1;
        for r in game {
            let x = r.outcome.half_points();
            let grow = |v: &mut Vec<(u64, u64)>, i: usize| {
                if v.len() <= i {
                    v.resize(i + 1, (0, 0));
                }
                v[i].0 += x;
                v[i].1 += 1;
            };
            grow(&mut deal.seats, r.seat as usize);
            grow(&mut deal.agents, r.agent_index);
            deal.total += x;
        }
    }

    /// Ends the current run; one shorter than the seats seen so far cannot
    /// be a deal, so no deals are.
    fn close(&mut self, seats: usize) {
        let Some((seed, deal)) = self.current.take() else {
            return;
        };
        if deal.games < seats as u64 {
            *self = DealStream {
                broken: true,
                ..DealStream::default()
            };
            return;
        }
        let next = self.distinct.len() as u32;
        let kind = *self.seen.entry(deal.clone()).or_insert_with(|| {
            self.distinct.push(deal);
            next
        });
        self.seeds.push(seed);
        self.kinds.push(kind);
    }

    /// [`balance::deals`] of the rows: `None` unless every seed is a deal of
    /// one game per seat.
    fn finish(mut self, seats: usize, labels: &[String]) -> Option<Deals> {
        self.close(seats);
        if seats < 2 || self.broken || self.distinct.iter().any(|d| d.games != seats as u64) {
            return None;
        }
        let mut order: Vec<u32> = (0..self.seeds.len() as u32).collect();
        order.sort_unstable_by_key(|&i| self.seeds[i as usize]);
        if order
            .windows(2)
            .any(|w| self.seeds[w[0] as usize] == self.seeds[w[1] as usize])
        {
            return None;
        }
        let (distinct, kinds, order) = (&self.distinct, &self.kinds, &order);
        // The per-deal advantages of entry `k` of `pick` (a seat or an agent),
        // in seed order.
        let values = move |pick: fn(&Deal) -> &Vec<(u64, u64)>, k: usize| {
            order.iter().filter_map(move |&i| {
                let d = &distinct[kinds.get(i as usize)];
                let average = (d.total as f64 / 2.0) / (seats as u64 * d.games) as f64;
                match pick(d).get(k) {
                    Some(&(sum, n)) if n > 0 => Some((sum as f64 / 2.0) / n as f64 - average),
                    _ => None,
                }
            })
        };
        let estimate = |label: String, (estimate, low, high, p_value)| PairedEstimate {
            label,
            estimate,
            low,
            high,
            p_value,
        };
        Some(Deals {
            deals: self.seeds.len() as u64,
            seats: (0..seats)
                .map(|s| {
                    estimate(
                        format!("seat {s}"),
                        mean_interval_of(values(|d| &d.seats, s)),
                    )
                })
                .collect(),
            agents: labels
                .iter()
                .enumerate()
                .filter(|&(a, _)| values(|d| &d.agents, a).next().is_some())
                .map(|(a, l)| estimate(l.clone(), mean_interval_of(values(|d| &d.agents, a))))
                .collect(),
        })
    }
}

/// Everything read off the rows, game by game.
struct Pass {
    rows: u64,
    /// The first row naming an agent or seat beyond a game's seats.
    beyond: Option<String>,
    /// The first row naming an agent beyond the given labels.
    unlisted: Option<usize>,
    /// Per agent index: the last label the rows give it, and its tally.
    agents: Vec<(String, Tally)>,
    seats: Vec<(Tally, Fingerprint)>,
    all: Tally,
    total: Fingerprint,
    roles: BTreeMap<String, (Tally, Fingerprint)>,
    game: Option<String>,
    games: u64,
    decisive: u64,
    truncated: u64,
    faulted: u64,
    endings: BTreeMap<String, u64>,
    rounds: BTreeMap<u32, u64>,
    turns: BTreeMap<u32, u64>,
    actions: BTreeMap<u32, u64>,
    /// Each game's turns as its last row gives them (the chart's).
    last_turns: BTreeMap<u32, u64>,
    ratings: RatingStream,
    deals: DealStream,
    metrics: MetricsJoin,
    first_mover: Tally,
    winners: f64,
    losers: f64,
    /// Which seats share every result.
    sides: SideFinder,
    opts: RatingOptions,
}

/// Reads games.csv (and metrics.csv) of `dir` once; `None` when either is
/// out of game order.
fn stream(
    dir: &Path,
    labels: Option<&[String]>,
    opts: &RatingOptions,
) -> Result<Option<Pass>, String> {
    let path = dir.join(crate::files::GAMES_FILE);
    let mut pass = Pass {
        rows: 0,
        beyond: None,
        unlisted: None,
        agents: Vec::new(),
        seats: Vec::new(),
        all: Tally::default(),
        total: Fingerprint::default(),
        roles: BTreeMap::new(),
        game: None,
        games: 0,
        decisive: 0,
        truncated: 0,
        faulted: 0,
        endings: BTreeMap::new(),
        rounds: BTreeMap::new(),
        turns: BTreeMap::new(),
        actions: BTreeMap::new(),
        last_turns: BTreeMap::new(),
        ratings: RatingStream::new(),
        deals: DealStream::default(),
        metrics: MetricsJoin::open(dir),
        first_mover: Tally::default(),
        winners: 0.0,
        losers: 0.0,
        sides: SideFinder::default(),
        opts: *opts,
    };
    let mut games = Games {
        rows: GameRows::open(&path)?,
        next: None,
    };
    let mut game = Vec::new();
    loop {
        match games.game(&mut game) {
            Ok(true) => {}
            Ok(false) => break,
            Err(Some(e)) => return Err(e),
            Err(None) => return Ok(None),
        }
        if pass.add(&game, labels).is_err() {
            return Ok(None);
        }
    }
    if pass.metrics.through(None, &[]).is_err() {
        return Ok(None);
    }
    Ok(Some(pass))
}

impl Pass {
    /// Counts one game's rows; `Err` when metrics.csv is out of game order.
    fn add(&mut self, game: &[GameRow], labels: Option<&[String]>) -> Result<(), ()> {
        for r in game {
            self.rows += 1;
            if self.beyond.is_none()
                && (r.agent_index >= MAX_PLAYERS || r.seat as usize >= MAX_PLAYERS)
            {
                self.beyond = Some(format!(
                    "games.csv: game {} names agent {} in seat {}, beyond the {} seats a game can have",
                    r.game_index, r.agent_index, r.seat, MAX_PLAYERS
                ));
            }
            if self.unlisted.is_none() && labels.is_some_and(|l| r.agent_index >= l.len()) {
                self.unlisted = Some(r.agent_index);
            }
        }
        if self.beyond.is_some() {
            // The summary fails; the rest of the file is read only for errors.
            return Ok(());
        }
        let first = self.metrics.through(Some(game[0].game_index), game)?;
        self.sides.add(game.iter());
        for r in game {
            if self.agents.len() <= r.agent_index {
                self.agents
                    .resize(r.agent_index + 1, (String::new(), Tally::default()));
            }
            let agent = &mut self.agents[r.agent_index];
            agent.0.clone_from(&r.agent);
            agent.1.add(r);
            if self.seats.len() <= r.seat as usize {
                self.seats.resize(r.seat as usize + 1, Default::default());
            }
            let seat = &mut self.seats[r.seat as usize];
            seat.0.add(r);
            add_to_fingerprint(&mut seat.1, r);
            self.all.add(r);
            add_to_fingerprint(&mut self.total, r);
            if !r.role.is_empty() {
                let parts = role_parts(&r.role);
                for (k, part) in parts.iter().enumerate() {
                    let (tally, print) = self.roles.entry(part.clone()).or_default();
                    tally.add(r);
                    if !parts[..k].contains(part) {
                        add_to_fingerprint(print, r);
                    }
                }
            }
            if first == Some(r.seat) {
                self.first_mover.add(r);
            }
            match r.outcome {
                Outcome::Win => self.winners += 1.0,
                Outcome::Loss => self.losers += 1.0,
                Outcome::Draw => {}
            }
        }
        let g = &game[0];
        self.game.get_or_insert_with(|| g.game.clone());
        self.games += 1;
        self.truncated += u64::from(g.truncated);
        self.faulted += u64::from(!g.error.is_empty());
        self.decisive += u64::from(!g.truncated && game.iter().any(|r| r.outcome == Outcome::Win));
        if !g.ending.is_empty() {
            *self.endings.entry(g.ending.clone()).or_default() += 1;
        }
        if let Some(rounds) = g.rounds {
            *self.rounds.entry(rounds).or_default() += 1;
        }
        *self.turns.entry(g.turns).or_default() += 1;
        *self.actions.entry(g.actions).or_default() += 1;
        *self
            .last_turns
            .entry(game[game.len() - 1].turns)
            .or_default() += 1;
        let refs: Vec<&GameRow> = game.iter().collect();
        self.ratings.add_game(&refs);
        self.deals.add(game, self.seats.len());
        Ok(())
    }

    /// Checks the rows: some were read, every agent and seat is within a
    /// game's seats and `labels`' agents. Returns the agents' labels.
    fn labels(&self, dir: &Path, labels: Option<&[String]>) -> Result<Vec<String>, String> {
        let games_csv = dir.join(crate::files::GAMES_FILE);
        if self.rows == 0 {
            return Err(format!("{} has no games", games_csv.display()));
        }
        if let Some(e) = &self.beyond {
            return Err(e.clone());
        }
        let labels: Vec<String> = match labels {
            Some(l) => l.to_vec(),
            None => self.agents.iter().map(|(l, _)| l.clone()).collect(),
        };
        if let Some(i) = self.unlisted {
            return Err(format!(
                "games.csv names agent {i} but run.json lists only {}",
                labels.len()
            ));
        }
        Ok(labels)
    }

    /// The report's numbers, and how many games had each length in turns.
    fn assemble(self) -> (Balance, BTreeMap<u32, u64>, MetricsJoin, f64, f64, u64) {
        let row_labels: Vec<String> = self.agents.iter().map(|(l, _)| l.clone()).collect();
        let by_seat: Vec<(Tally, Fingerprint)> = self
            .seats
            .into_iter()
            .map(|(t, f)| (finished(t), f))
            .collect();
        let seat_count = by_seat.len();
        let mut b = balance::assemble(Parts {
            sides: self.sides.sides(),
            game: self.game.unwrap_or_default(),
            games: self.games,
            all: finished(self.all),
            total: self.total,
            by_seat,
            by_role: self
                .roles
                .into_iter()
                .map(|(role, (t, f))| (role, finished(t), f))
                .collect(),
            deals: self.deals.finish(seat_count, &row_labels),
            decisive: self.decisive,
            truncated: self.truncated,
            faulted: self.faulted,
            endings: self.endings,
            rounds: (!self.rounds.is_empty()).then(|| Lengths::of_counts(&self.rounds)),
            turns: Lengths::of_counts(&self.turns),
            actions: Lengths::of_counts(&self.actions),
            ratings: self.ratings.finish(&self.opts),
        });
        if self.first_mover.games > 0 && b.seats_are_sides() {
            b.first_mover = Some(group_of(
                "first player".into(),
                finished(self.first_mover),
                b.fair,
            ));
        }
        (
            b,
            self.last_turns,
            self.metrics,
            self.winners,
            self.losers,
            self.rows,
        )
    }

    /// Checks the rows and writes every file, as the rows in memory would.
    fn write(
        mut self,
        dir: &Path,
        labels: Option<&[String]>,
        meta: &ReportMeta,
    ) -> Result<Summary, String> {
        let labels = self.labels(dir, labels)?;
        let agents: Vec<AgentSummary> = labels
            .iter()
            .enumerate()
            .map(|(i, label)| AgentSummary {
                agent_index: i,
                agent: label.clone(),
                tally: finished(self.agents.get(i).map(|a| a.1.clone()).unwrap_or_default()),
            })
            .collect();
        let seats: Vec<SeatSummary> = self
            .seats
            .iter()
            .enumerate()
            .map(|(s, (t, _))| SeatSummary {
                seat: s as u8,
                tally: finished(t.clone()),
            })
            .collect();
        write_summaries(dir, &agents, &seats)?;
        let report_error =
            |e: io::Error| format!("cannot write the report in {}: {e}", dir.display());
        if let Some(e) = self.metrics.error.take() {
            return Err(report_error(e));
        }
        let (b, last_turns, metrics, winners, losers, rows) = self.assemble();
        balance::write_files(dir, &b, &last_turns, meta).map_err(report_error)?;
        metrics::append_sums(dir, &metrics.sums, rows as f64, winners, losers).map_err(|e| {
            format!(
                "cannot add the metrics to the report in {}: {e}",
                dir.display()
            )
        })?;
        Ok(Summary {
            agents,
            seats,
            balance: b,
        })
    }
}

fn finished(mut t: Tally) -> Tally {
    t.finish();
    t
}

/// What the dashboard reads of a run, from one pass over its rows.
#[derive(Clone, Debug)]
pub struct Digest {
    /// The report's numbers, the first player from metrics.csv included.
    pub balance: Balance,
    /// The agents that played, by index, each as the rows last name it.
    pub agents: Vec<(usize, String)>,
    /// How many games had each length in turns (as each game's last row gives it).
    pub turns: BTreeMap<u32, u64>,
}

/// The numbers [`summarize`] reports for `dir`, read one game at a time and
/// writing nothing; `None` when games.csv or metrics.csv is not in game
/// order (the caller reads the rows in memory instead). Errors are one line,
/// naming the file.
pub fn digest(dir: &Path, opts: &RatingOptions) -> Result<Option<Digest>, String> {
    let Some(mut pass) = stream(dir, None, opts)? else {
        return Ok(None);
    };
    pass.labels(dir, None)?;
    if let Some(e) = pass.metrics.error.take() {
        return Err(format!(
            "cannot read {}: {e}",
            dir.join(crate::files::METRICS_FILE).display()
        ));
    }
    let agents = pass
        .agents
        .iter()
        .enumerate()
        .filter(|(_, (_, t))| t.games > 0)
        .map(|(i, (l, _))| (i, l.clone()))
        .collect();
    let (balance, turns, ..) = pass.assemble();
    Ok(Some(Digest {
        balance,
        agents,
        turns,
    }))
}

fn write_summaries(
    dir: &Path,
    agents: &[AgentSummary],
    seats: &[SeatSummary],
) -> Result<(), String> {
    let write = |name: &str, result: io::Result<()>| {
        result.map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))
    };
    use crate::files::{SEATS_FILE, SUMMARY_FILE};
    write(
        SUMMARY_FILE,
        record::write_summary(&dir.join(SUMMARY_FILE), agents),
    )?;
    write(
        SEATS_FILE,
        record::write_summary(&dir.join(SEATS_FILE), seats),
    )
}

/// [`summarize`] from every row held in memory: for files not in game order.
fn in_memory(
    dir: &Path,
    labels: Option<&[String]>,
    meta: impl FnOnce(u64) -> ReportMeta,
    opts: &RatingOptions,
) -> Result<Summary, String> {
    let rows = record::read_games(&dir.join(crate::files::GAMES_FILE))?;
    if rows.is_empty() {
        return Err(format!(
            "{} has no games",
            dir.join(crate::files::GAMES_FILE).display()
        ));
    }
    let meta = &meta(rows.len() as u64);
    // Agents and seats are few: a larger index is not a games.csv row.
    if let Some(r) = rows
        .iter()
        .find(|r| r.agent_index >= MAX_PLAYERS || r.seat as usize >= MAX_PLAYERS)
    {
        return Err(format!(
            "games.csv: game {} names agent {} in seat {}, beyond the {} seats a game can have",
            r.game_index, r.agent_index, r.seat, MAX_PLAYERS
        ));
    }
    let labels: Vec<String> = match labels {
        Some(l) => l.to_vec(),
        None => {
            let n = rows.iter().map(|r| r.agent_index + 1).max().unwrap_or(0);
            let mut labels = vec![String::new(); n];
            for r in &rows {
                labels[r.agent_index].clone_from(&r.agent);
            }
            labels
        }
    };
    if let Some(r) = rows.iter().find(|r| r.agent_index >= labels.len()) {
        return Err(format!(
            "games.csv names agent {} but run.json lists only {}",
            r.agent_index,
            labels.len()
        ));
    }
    let seat_count = rows.iter().map(|r| r.seat as usize + 1).max().unwrap_or(0);
    let agents = record::summarize_agents(&rows, &labels);
    let seats = record::summarize_seats(&rows, seat_count);
    write_summaries(dir, &agents, &seats)?;
    let b = balance::write_report(dir, &rows, meta, opts)
        .map_err(|e| format!("cannot write the report in {}: {e}", dir.display()))?;
    metrics::append_to_report(dir, &rows).map_err(|e| {
        format!(
            "cannot add the metrics to the report in {}: {e}",
            dir.display()
        )
    })?;
    Ok(Summary {
        agents,
        seats,
        balance: b,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file `summarize` writes, by name.
    fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        let mut files = BTreeMap::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if name != "games.csv" && name != "metrics.csv" {
                files.insert(name, std::fs::read(e.path()).unwrap());
            }
        }
        for name in ["summary.csv", "seats.csv", "ratings.csv", "report.md"] {
            assert!(files.contains_key(name), "{name} missing");
        }
        files
    }

    /// Streamed and in-memory summaries of `games` (and `metrics`) agree
    /// byte for byte, and the stream took its own path unless `ordered` is
    /// false.
    fn same_both_ways(name: &str, games: &str, metrics: Option<&str>, ordered: bool) -> String {
        let base =
            std::env::temp_dir().join(format!("boardlab-stream-{name}-{}", std::process::id()));
        let opts = RatingOptions {
            resamples: 30,
            ..RatingOptions::default()
        };
        let meta = ReportMeta {
            title: name.into(),
            notes: vec!["n".into()],
        };
        let mut written = Vec::new();
        for (k, streamed) in [true, false].into_iter().enumerate() {
            let dir = base.join(k.to_string());
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("games.csv"), games).unwrap();
            if let Some(m) = metrics {
                std::fs::write(dir.join("metrics.csv"), m).unwrap();
            }
            if streamed {
                let pass = stream(&dir, None, &opts).unwrap();
                assert_eq!(pass.is_some(), ordered, "{name}");
                summarize(&dir, None, &meta, &opts).unwrap();
            } else {
                in_memory(&dir, None, |_| meta.clone(), &opts).unwrap();
            }
            written.push(outputs(&dir));
        }
        let report = String::from_utf8_lossy(&written[0]["report.md"]).into_owned();
        let _ = std::fs::remove_dir_all(&base);
        assert_eq!(
            written[0].keys().collect::<Vec<_>>(),
            written[1].keys().collect::<Vec<_>>()
        );
        for (file, bytes) in &written[0] {
            assert!(
                bytes == &written[1][file],
                "{name}: {file} differs:\n{}\n---\n{}",
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(&written[1][file])
            );
        }
        report
    }

    /// games.csv text of `games` games of `seats` seats from a small
    /// generator: roles, draws, truncations, faults, endings, rounds and
    /// duplicate deals (`dup`).
    fn games_csv(games: u64, seats: u64, dup: bool, roles: bool) -> (String, String) {
        let mut out = String::from(record::GAMES_HEADER);
        let mut metrics = String::from(record::METRICS_HEADER);
        let mut x: u64 = 12345;
        let mut next = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        for g in 0..games {
            let seed = if dup {
                1000 + (g / seats) * 7919 % 1009
            } else {
                g * 31 + 7
            };
            let winner = next(seats + 1);
            let truncated = next(20) == 0;
            let turns = 5 + next(30);
            let ending = ["", "line", "board full"][next(3) as usize];
            let error = if next(50) == 0 {
                "seat 1 \"\"x\"\", then"
            } else {
                ""
            };
            for s in 0..seats {
                let agent = (s + g) % seats;
                let outcome = if winner == seats {
                    "draw"
                } else if winner == s {
                    "win"
                } else {
                    "loss"
                };
                let ret = match outcome {
                    "win" => 1.0,
                    "draw" => 0.5,
                    _ => -(next(3) as f64) / 3.0,
                };
                let role = if roles {
                    ["fox", "hen+wolf", "a:b+c", "hen+hen"][next(4) as usize]
                } else {
                    ""
                };
                out.push_str(&format!(
                    "{g},{seed},g(x=1),{s},{agent},a{agent},{role},{outcome},{ret},{ret},{turns},{},3,1.5,0,{truncated},{ending},{},\"{error}\",0,0\n",
                    turns * 2,
                    if roles { (turns / 3).to_string() } else { String::new() },
                ));
                if next(3) == 0 {
                    metrics.push_str(&format!("{g},{s},cards,{}\n", next(5)));
                }
                if s == (g % seats) {
                    metrics.push_str(&format!("{g},{s},first_player,1\n"));
                }
            }
        }
        (out, metrics)
    }

    #[test]
    fn streamed_summaries_equal_those_of_rows_in_memory() {
        let (two, m2) = games_csv(300, 2, false, false);
        same_both_ways("two", &two, Some(&m2), true);
        let (three, m3) = games_csv(240, 3, true, true);
        let report = same_both_ways("three-dup", &three, Some(&m3), true);
        for part in ["Plackett-Luce", "first player", "hen", "deals", "cards"] {
            assert!(report.contains(part), "{part}: {report}");
        }
        let (dup2, _) = games_csv(200, 2, true, false);
        let report = same_both_ways("two-dup", &dup2, None, true);
        assert!(report.contains("Bradley-Terry") && report.contains("deals"));
        // Rows out of game order go the old way, and so do metrics.
        let mut lines: Vec<&str> = three.lines().collect();
        lines.swap(5, 300);
        same_both_ways("shuffled", &(lines.join("\n") + "\n"), Some(&m3), false);
        let mut lines: Vec<&str> = m2.lines().collect();
        let last = lines.len() - 1;
        lines.swap(2, last);
        same_both_ways(
            "metrics-shuffled",
            &two,
            Some(&(lines.join("\n") + "\n")),
            false,
        );
    }
}
