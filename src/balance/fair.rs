//! The compensation solver (`boardlab fair`): bisection on a numeric game
//! parameter for the value at which the first seat (or a named role) wins at
//! the target rate, each probe a sequential test.
//!
//! A probe plays identical agents in batches (the same seeds at every value:
//! common random numbers) until the 95 % interval of the rate lies above or
//! below the target, or its game cap. The interval's level is Bonferroni
//! corrected over every look of every probe the search can make, so with a
//! rate monotone in the parameter the reported bracket holds the fair value
//! with at least 95 % confidence. A probe that cannot decide at its cap is
//! within noise of the target: the search then narrows the gaps between it
//! and the decided ends.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use serde::Serialize;

use super::{Group, group_rate};
use crate::arena::{rounded_games, until_batch};
use crate::runtime::{Builtin, GameSource};
use crate::spec::Spec;
use crate::stats::normal_quantile;
use crate::stats::rate::Rate;

/// What to solve.
#[derive(Clone, Debug)]
pub struct FairOptions {
    /// The base game spec.
    pub game: String,
    /// The numeric parameter to vary.
    pub param: String,
    /// Its search range (low, high).
    pub range: (f64, f64),
    /// Identical agent in every seat.
    pub agent: String,
    /// The target rate.
    pub target: f64,
    /// Whose rate: a seat (default 0) or a role.
    pub group: Group,
    /// Cap on games per probe.
    pub max_games: u64,
    /// Stop when the bracket is this narrow.
    pub precision: f64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

/// Where a probe's rate lies against the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The interval lies above the target.
    Above,
    /// The interval lies below the target.
    Below,
    /// The cap came first: the rate is within noise of the target.
    Undecided,
}

/// One probe.
#[derive(Clone, Debug, Serialize)]
pub struct Probe {
    /// The parameter value.
    pub value: f64,
    /// The game spec played.
    pub spec: String,
    /// The rate with its (Bonferroni-corrected) interval.
    pub rate: Rate,
    /// Its verdict.
    pub verdict: Verdict,
}

/// The solver's answer.
#[derive(Clone, Debug, Serialize)]
pub struct FairResult {
    /// Base game spec.
    pub game: String,
    /// The parameter.
    pub param: String,
    /// Whose rate, e.g. `seat 0`.
    pub group: String,
    /// The target.
    pub target: f64,
    /// The fair value lies in `[low, high]`.
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// A point estimate: the undecided probe, or linear interpolation of the
    /// rates at the bracket's ends (the mean of the undecided probes if any).
    pub estimate: f64,
    /// The level of each probe's interval after correction.
    pub probe_level: f64,
    /// Why the search stopped.
    pub stop: String,
    /// Every probe in the order played.
    pub probes: Vec<Probe>,
}

/// The game spec with `param` set to `value`.
fn spec_at(base: &Spec, param: &str, value: f64) -> String {
    let mut s = base.clone();
    s.params.set(param, &format!("{value}"));
    s.to_string()
}

/// Solves; see the module doc.
pub fn solve(o: &FairOptions) -> Result<FairResult> {
    solve_in(&Builtin::default(), o)
}

/// Rejects a range, target or precision the search cannot work with.
fn check_options(o: &FairOptions) -> Result<()> {
    let (a, b) = o.range;
    if !(a.is_finite() && b.is_finite() && a < b) {
        bail!("--range must be A..B with A < B, e.g. 0..0.5");
    }
    if !(o.target > 0.0 && o.target < 1.0) {
        bail!("--target must be a rate between 0 and 1, got {}", o.target);
    }
    if o.precision.is_nan() || o.precision <= 0.0 {
        bail!("--precision must be positive");
    }
    Ok(())
}

/// A probe's verdict: its interval above the target, below it, or around it
/// (or no games of the group yet).
fn verdict_of(r: &Rate, target: f64) -> Verdict {
    if r.n == 0 {
        Verdict::Undecided
    } else if r.low > target {
        Verdict::Above
    } else if r.high < target {
        Verdict::Below
    } else {
        Verdict::Undecided
    }
}

/// The two ends of the range must each be decided, and on opposite sides of
/// the target: else the fair value is not known to lie between them.
fn check_ends(o: &FairOptions, pa: &Probe, pb: &Probe) -> Result<()> {
    let (a, b) = o.range;
    let show = |p: &Probe| {
        format!(
            "{:.3} [{:.3}, {:.3}] at {}",
            p.rate.rate, p.rate.low, p.rate.high, p.value
        )
    };
    for p in [pa, pb] {
        if p.verdict == Verdict::Undecided {
            bail!(
                "{} wins {} after {} games, within noise of {}: the fair value may be at that end; \
                 widen --range or raise --max-games",
                o.group.label(),
                show(p),
                p.rate.n,
                o.target
            );
        }
    }
    if pa.verdict == pb.verdict {
        bail!(
            "{} does not cross {} between {a} and {b}: it wins {} and {}; widen --range",
            o.group.label(),
            o.target,
            show(pa),
            show(pb)
        );
    }
    Ok(())
}

/// The next value to probe: the bracket's middle, or once a probe is
/// undecided, the middle of the wider gap between the undecided probes and
/// a decided end. `None` when that is narrower than `precision`.
fn next_value(lo: &Probe, hi: &Probe, undecided: &[f64], precision: f64) -> Option<f64> {
    let (inner_lo, inner_hi) = match (
        undecided.iter().copied().reduce(f64::min),
        undecided.iter().copied().reduce(f64::max),
    ) {
        (Some(a), Some(b)) => (a, b),
        _ => (hi.value, lo.value),
    };
    let (gap_lo, gap_hi) = (inner_lo - lo.value, hi.value - inner_hi);
    let next = if undecided.is_empty() {
        (lo.value + hi.value) / 2.0
    } else if gap_lo >= gap_hi {
        (lo.value + inner_lo) / 2.0
    } else {
        (inner_hi + hi.value) / 2.0
    };
    if (undecided.is_empty() && hi.value - lo.value <= precision)
        || (!undecided.is_empty() && gap_lo.max(gap_hi) <= precision)
    {
        return None;
    }
    Some(next)
}

/// [`solve`] for the games (and agent kinds) of `source`.
pub fn solve_in(source: &dyn GameSource, o: &FairOptions) -> Result<FairResult> {
    check_options(o)?;
    let (a, b) = o.range;
    let base = Spec::parse(&o.game)?;
    let at =
        |v: f64| -> Result<_> { Ok(source.game(&Spec::parse(&spec_at(&base, &o.param, v))?)?) };
    // Check both ends build (a parameter the game does not have, a value out of range).
    let first = at(a)?;
    at(b)?;
    first.check_agents(std::slice::from_ref(&o.agent))?;
    let steps = ((b - a) / o.precision).log2().ceil().max(0.0) as u64;
    // Two ends, then at most `steps` halvings of each of the two gaps.
    let probes_max = 2 + 2 * steps;
    let pool = crate::arena::pool(o.threads).map_err(anyhow::Error::msg)?;
    let n = first.num_players();
    if let Group::Seat(s) = o.group
        && s as usize >= n
    {
        bail!(
            "--seat {s} does not exist: the game has seats 0 to {}",
            n - 1
        );
    }
    let batch = until_batch(n);
    let cap = rounded_games(o.max_games.max(batch), n);
    let looks = cap.div_ceil(batch);
    let alpha = 0.05 / (looks * probes_max) as f64;
    let z = normal_quantile(1.0 - alpha / 2.0);
    let probe = |value: f64| -> Result<Probe> {
        let spec = spec_at(&base, &o.param, value);
        let game = at(value)?;
        let mut games = Vec::new();
        loop {
            let start = games.len() as u64;
            let end = (start + batch).min(cap);
            games.extend(game.play_identical(&o.agent, start..end, o.seed, false, &pool)?);
            let mut r = group_rate(&games, &o.group, n, false);
            r.low = (r.rate - z * r.se).max(0.0);
            r.high = (r.rate + z * r.se).min(1.0);
            let verdict = verdict_of(&r, o.target);
            if verdict != Verdict::Undecided || end >= cap {
                if r.n == 0 {
                    bail!("{} never appears in {spec}", o.group.label());
                }
                return Ok(Probe {
                    value,
                    spec: game.spec(),
                    rate: r,
                    verdict,
                });
            }
        }
    };
    let mut probes = vec![probe(a)?, probe(b)?];
    let (pa, pb) = (probes[0].clone(), probes[1].clone());
    check_ends(o, &pa, &pb)?;
    // Bisection; once a probe is undecided the fair value is near it, and the
    // search narrows the two gaps between it and the decided ends instead.
    let (mut lo, mut hi) = (pa.clone(), pb.clone());
    let mut undecided: Vec<f64> = Vec::new();
    let mut stop = format!("bracket narrower than --precision {}", o.precision);
    while probes.len() < probes_max as usize {
        let Some(next) = next_value(&lo, &hi, &undecided, o.precision) else {
            break;
        };
        let p = probe(next)?;
        probes.push(p.clone());
        match p.verdict {
            Verdict::Undecided => undecided.push(p.value),
            v if v == lo.verdict => lo = p,
            _ => hi = p,
        }
    }
    if !undecided.is_empty() {
        stop = format!(
            "probes at {undecided:?} are within noise of {}; the gaps to the decided ends are narrower than --precision {}",
            o.target, o.precision
        );
    }
    if probes.len() >= probes_max as usize {
        stop = format!("the limit of {probes_max} probes");
    }
    let estimate = if undecided.is_empty() {
        let (r0, r1) = (lo.rate.rate, hi.rate.rate);
        lo.value + (o.target - r0) / (r1 - r0) * (hi.value - lo.value)
    } else {
        undecided.iter().sum::<f64>() / undecided.len() as f64
    };
    Ok(FairResult {
        game: base.to_string(),
        param: o.param.clone(),
        group: o.group.label(),
        target: o.target,
        low: lo.value,
        high: hi.value,
        estimate,
        probe_level: 1.0 - alpha,
        stop,
        probes,
    })
}

impl FairResult {
    /// `fair.csv`: one row per probe.
    pub fn to_csv(&self) -> String {
        let mut s = String::from("value,spec,games,rate,low,high,verdict\n");
        for p in &self.probes {
            let _ = writeln!(
                s,
                "{},\"{}\",{},{:.4},{:.4},{:.4},{}",
                p.value,
                p.spec,
                p.rate.n,
                p.rate.rate,
                p.rate.low,
                p.rate.high,
                serde_json::to_value(p.verdict)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default()
            );
        }
        s
    }

    /// `fair.md`: the bracket and the probes.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "## Compensation: {} in {}\n", self.param, self.game);
        let _ = writeln!(
            s,
            "{} wins {} at {} in [{}, {}] (estimate {:.4}). Stopped: {}. Each probe's interval is at level {:.5} \
             (Bonferroni over every look of every probe), so the bracket holds with at least 95 % confidence \
             if the rate is monotone in {}.\n",
            self.group,
            self.target,
            self.param,
            self.low,
            self.high,
            self.estimate,
            self.stop,
            self.probe_level,
            self.param
        );
        let _ = writeln!(
            s,
            "| {} | games | rate [interval] | verdict |\n|---:|---:|---|---|",
            self.param
        );
        for p in &self.probes {
            let _ = writeln!(
                s,
                "| {} | {} | {:.3} [{:.3}, {:.3}] | {:?} |",
                p.value, p.rate.n, p.rate.rate, p.rate.low, p.rate.high, p.verdict
            );
        }
        s
    }
}
