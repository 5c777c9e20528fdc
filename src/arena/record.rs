//! Result files: `games.csv` (one row per game × seat), `summary.csv` (per
//! agent) and `seats.csv` (per seat). Every column except the `*_us` timing
//! columns is identical for any thread count.

use std::io::Write;
use std::path::Path;

use super::play::GameResult;
pub use crate::files::rows::{
    GAMES_HEADER, GAMES_HEADER_START, GameRow, GameRows, METRICS_HEADER, MetricRow, MetricRows,
    check_games_header, check_row, read_games, read_metrics, role_parts,
};
use crate::game::Outcome;
use crate::stats::{Z95, wilson};

impl GameRow {
    /// The rows of one game, seat by seat.
    pub fn from_result(
        game_index: u64,
        seed: u64,
        game: &str,
        seating: &[usize],
        labels: &[String],
        r: &GameResult,
    ) -> Vec<GameRow> {
        r.seats
            .iter()
            .enumerate()
            .map(|(seat, s)| GameRow {
                game_index,
                seed,
                game: game.to_string(),
                seat: seat as u8,
                agent_index: seating[seat],
                agent: labels[seating[seat]].clone(),
                role: s.role.clone(),
                outcome: s.outcome,
                score: s.score,
                ret: s.ret,
                turns: r.turns,
                actions: r.actions,
                decisions: s.decisions,
                branching: (s.branching * 1000.0).round() / 1000.0,
                iterations: s.iterations,
                truncated: r.truncated,
                ending: r.ending.to_string(),
                rounds: r.rounds,
                error: r.error.clone().unwrap_or_default(),
                think_us: s.think_us,
                wall_us: r.wall_us,
            })
            .collect()
    }
}

/// Appends one CSV field as the csv crate writes it: quoted, with quotes
/// doubled, when it holds a comma, a quote or a line break.
pub fn push_field(out: &mut Vec<u8>, field: &str) {
    let b = field.as_bytes();
    if b.iter().any(|c| matches!(c, b',' | b'"' | b'\n' | b'\r')) {
        out.push(b'"');
        for &c in b {
            if c == b'"' {
                out.push(b'"');
            }
            out.push(c);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(b);
    }
}

/// Appends an unsigned integer in decimal.
pub fn push_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// Appends a float as serde writes it into CSV (ryu's shortest form).
pub fn push_f64(out: &mut Vec<u8>, v: f64) {
    // Whole numbers (most scores and returns) are written as ryu writes them,
    // `-3.0`, without its general algorithm; -0.0 keeps its sign through ryu.
    // (`v as i64` truncates, so the test is `fract() == 0` without a libm call.)
    if v.abs() < 1e15 && (v as i64) as f64 == v && !(v == 0.0 && v.is_sign_negative()) {
        out.extend_from_slice(itoa::Buffer::new().format(v as i64).as_bytes());
        out.extend_from_slice(b".0");
    } else {
        out.extend_from_slice(ryu::Buffer::new().format(v).as_bytes());
    }
}

/// Appends `v` rounded to three decimals, as `push_f64` writes
/// `(v * 1000).round() / 1000`, but from the integer thousandths: below
/// 10⁹ the shortest decimal that reads back as that float is the exact
/// thousandths with trailing zeros dropped, so ryu is not needed.
pub fn push_thousandths(out: &mut Vec<u8>, v: f64) {
    let x = v * 1000.0;
    if !(0.0..1e12).contains(&x) {
        push_f64(out, x.round() / 1000.0);
        return;
    }
    // Rounds half away from zero, as `f64::round`, without a libm call:
    // below 2⁵² the fraction `x - trunc(x)` is exact.
    let t = x as u64;
    let k = t + u64::from(x - t as f64 >= 0.5);
    let mut int = itoa::Buffer::new();
    out.extend_from_slice(int.format(k / 1000).as_bytes());
    out.push(b'.');
    match k % 1000 {
        0 => out.push(b'0'),
        f => {
            let digits = [
                b'0' + (f / 100) as u8,
                b'0' + (f / 10 % 10) as u8,
                b'0' + (f % 10) as u8,
            ];
            let len = if f % 100 == 0 {
                1
            } else if f % 10 == 0 {
                2
            } else {
                3
            };
            out.extend_from_slice(&digits[..len]);
        }
    }
}

/// Appends the games.csv lines of one game, byte for byte what serializing
/// [`GameRow::from_result`] writes, without building the rows: `game` and
/// `labels` come already escaped by [`push_field`]. The columns every seat
/// shares are formatted once and copied into each seat's line.
pub fn push_game_rows(
    out: &mut Vec<u8>,
    game_index: u64,
    seed: u64,
    game: &[u8],
    seating: &[usize],
    labels: &[Vec<u8>],
    r: &GameResult,
) {
    // `game_index,seed,`, `turns,actions,`, `truncated,ending,rounds,error,`
    // and `,wall_us` are the same in every seat's line.
    let mut head = arrayvec::ArrayVec::<u8, 48>::new();
    let mut turns = arrayvec::ArrayVec::<u8, 24>::new();
    for v in [game_index, seed] {
        let _ = head.try_extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
        let _ = head.try_push(b',');
    }
    for v in [r.turns, r.actions] {
        let _ = turns.try_extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
        let _ = turns.try_push(b',');
    }
    let mut wall = arrayvec::ArrayVec::<u8, 24>::new();
    let _ = wall.try_push(b',');
    let _ = wall.try_extend_from_slice(itoa::Buffer::new().format(r.wall_us).as_bytes());
    let _ = wall.try_push(b'\n');
    let mut int = itoa::Buffer::new();
    // Written with the first seat's line, copied into the others.
    let mut tail: Option<std::ops::Range<usize>> = None;
    for (seat, s) in r.seats.iter().enumerate() {
        out.extend_from_slice(&head);
        out.extend_from_slice(game);
        out.push(b',');
        out.extend_from_slice(int.format(seat).as_bytes());
        out.push(b',');
        out.extend_from_slice(int.format(seating[seat]).as_bytes());
        out.push(b',');
        out.extend_from_slice(&labels[seating[seat]]);
        out.push(b',');
        push_field(out, &s.role);
        out.push(b',');
        out.extend_from_slice(s.outcome.as_str().as_bytes());
        out.push(b',');
        push_f64(out, s.score);
        out.push(b',');
        push_f64(out, s.ret);
        out.push(b',');
        out.extend_from_slice(&turns);
        out.extend_from_slice(int.format(s.decisions).as_bytes());
        out.push(b',');
        push_thousandths(out, s.branching);
        out.push(b',');
        out.extend_from_slice(int.format(s.iterations).as_bytes());
        out.push(b',');
        match tail {
            Some(ref range) => out.extend_from_within(range.clone()),
            None => {
                let start = out.len();
                out.extend_from_slice(if r.truncated { b"true," } else { b"false," });
                push_field(out, r.ending);
                out.push(b',');
                if let Some(rounds) = r.rounds {
                    out.extend_from_slice(int.format(rounds).as_bytes());
                }
                out.push(b',');
                push_field(out, r.error.as_deref().unwrap_or_default());
                out.push(b',');
                tail = Some(start..out.len());
            }
        }
        out.extend_from_slice(int.format(s.think_us).as_bytes());
        out.extend_from_slice(&wall);
    }
}

/// Appends the metrics.csv lines of one game, as serializing
/// [`MetricRow::from_result`] writes them.
pub fn push_metric_rows(out: &mut Vec<u8>, game_index: u64, r: &GameResult) {
    let mut index = itoa::Buffer::new();
    let index = index.format(game_index).as_bytes();
    for (seat, s) in r.seats.iter().enumerate() {
        for (name, value) in &s.metrics {
            out.extend_from_slice(index);
            out.push(b',');
            out.extend_from_slice(itoa::Buffer::new().format(seat).as_bytes());
            out.push(b',');
            push_field(out, name);
            out.push(b',');
            push_f64(out, *value);
            out.push(b'\n');
        }
    }
}

impl MetricRow {
    /// The metric rows of one game.
    pub fn from_result(game_index: u64, r: &GameResult) -> Vec<MetricRow> {
        r.seats
            .iter()
            .enumerate()
            .flat_map(|(seat, s)| {
                s.metrics.iter().map(move |(name, value)| MetricRow {
                    game_index,
                    seat: seat as u8,
                    metric: (*name).to_string(),
                    value: *value,
                })
            })
            .collect()
    }
}

/// Win/draw/loss tallies with a Wilson interval; draws count as half a win.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// (wins + draws / 2) / games.
    pub win_rate: f64,
    /// Lower bound of the 95 % Wilson interval on `win_rate`.
    pub ci_low: f64,
    /// Upper bound of the 95 % Wilson interval on `win_rate`.
    pub ci_high: f64,
    /// Mean game score.
    pub mean_score: f64,
}

impl Tally {
    /// Tallies rows.
    pub fn of<'a>(rows: impl Iterator<Item = &'a GameRow>) -> Tally {
        let mut t = Tally::default();
        for r in rows {
            t.add(r);
        }
        t.finish();
        t
    }

    /// Counts one row; call [`Tally::finish`] before reading the rates.
    pub fn add(&mut self, r: &GameRow) {
        self.count(r.outcome, r.score);
    }

    /// Counts one seat's outcome and score.
    pub fn count(&mut self, outcome: Outcome, score: f64) {
        self.games += 1;
        // The running sum of scores is kept in `mean_score` until `finish`.
        self.mean_score += score;
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Turns the counts into rates and the interval.
    pub fn finish(&mut self) {
        let n = self.games as f64;
        let points = self.wins as f64 + 0.5 * self.draws as f64;
        if self.games > 0 {
            self.win_rate = points / n;
            self.mean_score /= n;
        }
        (self.ci_low, self.ci_high) = wilson(points, n, Z95);
    }
}

/// A `summary.csv` row.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSummary {
    /// Index in the agent list.
    pub agent_index: usize,
    /// The agent as written.
    pub agent: String,
    /// Its tallies.
    pub tally: Tally,
}

/// A `seats.csv` row.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatSummary {
    /// Seat number.
    pub seat: u8,
    /// Its tallies.
    pub tally: Tally,
}

/// The tally columns of the summary files, after the key columns.
pub const TALLY_HEADER: [&str; 8] = [
    "games",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "ci_low",
    "ci_high",
    "mean_score",
];

impl Tally {
    /// The values of the [`TALLY_HEADER`] columns, as written in summary files.
    pub fn fields(&self) -> [String; 8] {
        [
            self.games.to_string(),
            self.wins.to_string(),
            self.draws.to_string(),
            self.losses.to_string(),
            format!("{:.6}", self.win_rate),
            format!("{:.6}", self.ci_low),
            format!("{:.6}", self.ci_high),
            format!("{:.6}", self.mean_score),
        ]
    }
}

/// Rows of a summary file: key columns then the tally columns.
pub trait SummaryRow {
    /// Names of the key columns.
    const KEYS: &'static [&'static str];
    /// Values of the key columns.
    fn keys(&self) -> Vec<String>;
    /// The tallies.
    fn tally(&self) -> &Tally;
}

impl SummaryRow for AgentSummary {
    const KEYS: &'static [&'static str] = &["agent_index", "agent"];
    fn keys(&self) -> Vec<String> {
        vec![self.agent_index.to_string(), self.agent.clone()]
    }
    fn tally(&self) -> &Tally {
        &self.tally
    }
}

impl SummaryRow for SeatSummary {
    const KEYS: &'static [&'static str] = &["seat"];
    fn keys(&self) -> Vec<String> {
        vec![self.seat.to_string()]
    }
    fn tally(&self) -> &Tally {
        &self.tally
    }
}

/// Writes a summary file atomically (temporary file, then rename), so a reader
/// never sees a half-written file and a link planted there is not followed.
pub fn write_summary<R: SummaryRow>(path: &Path, rows: &[R]) -> std::io::Result<()> {
    crate::fsutil::write_atomic_with(path, |out| {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(R::KEYS.iter().chain(TALLY_HEADER.iter()))?;
        for r in rows {
            w.write_record(
                r.keys()
                    .iter()
                    .map(String::as_str)
                    .chain(r.tally().fields().iter().map(String::as_str)),
            )?;
        }
        w.flush()
    })
}

/// Per-agent summaries of `rows`.
pub fn summarize_agents(rows: &[GameRow], labels: &[String]) -> Vec<AgentSummary> {
    labels
        .iter()
        .enumerate()
        .map(|(i, label)| AgentSummary {
            agent_index: i,
            agent: label.clone(),
            tally: Tally::of(rows.iter().filter(|r| r.agent_index == i)),
        })
        .collect()
}

/// Per-seat summaries of `rows`.
pub fn summarize_seats(rows: &[GameRow], seats: usize) -> Vec<SeatSummary> {
    (0..seats as u8)
        .map(|seat| SeatSummary {
            seat,
            tally: Tally::of(rows.iter().filter(|r| r.seat == seat)),
        })
        .collect()
}

/// The summary table printed on stdout.
pub fn format_table(agents: &[AgentSummary]) -> String {
    let mut out = Vec::new();
    let width = agents
        .iter()
        .map(|a| a.agent.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let _ = writeln!(
        out,
        "{:<3} {:<width$} {:>7} {:>6} {:>6} {:>6} {:>8} {:>17} {:>10}",
        "#", "agent", "games", "wins", "draws", "losses", "win_rate", "95% CI", "mean_score"
    );
    for a in agents {
        let t = &a.tally;
        let _ = writeln!(
            out,
            "{:<3} {:<width$} {:>7} {:>6} {:>6} {:>6} {:>8.3} {:>17} {:>10.3}",
            a.agent_index,
            a.agent,
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.win_rate,
            format!("[{:.3}, {:.3}]", t.ci_low, t.ci_high),
            t.mean_score
        );
    }
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::play::SeatResult;

    /// The hand-written lines are exactly what the csv crate writes for the
    /// same rows, awkward strings and floats included.
    /// The thousandths writer agrees with rounding and ryu on every
    /// thousandth up to 2,000 and on values around them and far above.
    #[test]
    fn thousandths_are_written_as_ryu_writes_the_rounded_value() {
        let mut rng = crate::rng::rng_from_seed(5);
        let mut values: Vec<f64> = (0..2_000_000u64).map(|k| k as f64 / 1000.0).collect();
        values.extend((0..200_000).map(|_| crate::rng::unit(&mut rng) * 50.0));
        values.extend((0..2_000).map(|k| k as f64 / 1000.0 + 0.0005));
        values.extend((0..2_000).map(|k| k as f64 / 1000.0 - 0.0005));
        values.extend([
            0.0,
            0.0004999,
            0.0005,
            999_999.999_5,
            1e9 - 0.0005,
            1e9,
            2e9 + 0.25,
            1e13,
        ]);
        let (mut got, mut want) = (Vec::new(), Vec::new());
        for v in values {
            got.clear();
            want.clear();
            push_thousandths(&mut got, v);
            push_f64(&mut want, (v * 1000.0).round() / 1000.0);
            assert_eq!(got, want, "{v}");
        }
    }

    #[test]
    fn pushed_rows_equal_serialized_rows() {
        let seat = |role: &str, score: f64, branching: f64, metrics| SeatResult {
            outcome: Outcome::Win,
            score,
            ret: -score,
            role: role.into(),
            decisions: 17,
            branching,
            metrics,
            iterations: 123_456_789_012,
            think_us: 0,
        };
        let mut r = GameResult::faulted(2, "seat 1 played \"x\", then\nmore".into());
        r.seats[0] = seat(
            "fox, wolf",
            1.0,
            2.0 / 3.0,
            vec![("m", 0.1), ("n,\"q\"", f64::NAN), ("w", -3.0), ("z", 0.0)],
        );
        r.seats[1] = seat(
            "",
            -0.0,
            1e-7,
            vec![
                ("big", 1e300),
                ("inf", f64::INFINITY),
                ("edge", 999_999_999_999_999.0),
                ("e15", 1e15),
                ("e16", -1e16),
                ("mid", 12_345_678.0),
            ],
        );
        (r.turns, r.actions, r.truncated, r.rounds) = (4_000_000_000, 7, true, Some(12));
        r.wall_us = u64::MAX;
        let labels = ["random".to_string(), "mcts(c=1,\"x\")".to_string()];
        for (r, game) in [(r.clone(), "fox(players=2,a=\"b\")"), (r, "connect4")] {
            let mut want = csv::Writer::from_writer(Vec::new());
            for row in GameRow::from_result(u64::MAX, 42, game, &[1, 0], &labels, &r) {
                want.serialize(row).unwrap();
            }
            let mut got = GAMES_HEADER.as_bytes().to_vec();
            let esc = |s: &str| {
                let mut v = Vec::new();
                push_field(&mut v, s);
                v
            };
            let escaped: Vec<Vec<u8>> = labels.iter().map(|l| esc(l)).collect();
            push_game_rows(&mut got, u64::MAX, 42, &esc(game), &[1, 0], &escaped, &r);
            let want = want.into_inner().unwrap();
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want)
            );
            let mut want = csv::Writer::from_writer(Vec::new());
            for m in MetricRow::from_result(9, &r) {
                want.serialize(m).unwrap();
            }
            let mut got = METRICS_HEADER.as_bytes().to_vec();
            push_metric_rows(&mut got, 9, &r);
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want.into_inner().unwrap())
            );
        }
    }
}
