//! A variant against its base game, game by game (`boardlab compare`).
//!
//! Two `balance` studies with the same master seed play game `i` of every
//! budget from the same seed and seating (common random numbers), so each
//! quantity is compared as the mean of per-game differences (variant minus
//! base), with the paired interval and sign-flip test of
//! [`PairedSums`] — the same statistics
//! as an experiment's comparisons with its baseline cell. Whatever the two
//! games share of their deals cancels out, so the interval is never wider
//! than that of two independent samples and narrower the more they share.
//! With duplicate deals a deal is the unit: its games' differences are
//! averaged first. Both games files are read one game at a time.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;

use anyhow::{Result, bail};

use super::records::{RunSpec, games_file, read_spec};

use crate::arena::record::{GameRow, check_games_header, check_row, role_parts};
use crate::stats::seat_tests::{Paired, PairedSums};

/// One quantity's paired difference at one budget.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Iterations per decision.
    pub budget: u64,
    /// `seat`, `role`, `ending` (share of games) or `length` (turns, rounds).
    pub kind: &'static str,
    /// The seat number, role, ending or length measure.
    pub group: String,
    /// The base game's mean over the paired games.
    pub base: f64,
    /// The variant's mean over the same games.
    pub variant: f64,
    /// Variant minus base, pair by pair (pairs: games, or deals).
    pub paired: Paired,
}

/// Every paired difference of two balance studies.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The base study's spec.
    pub base: RunSpec,
    /// The variant study's spec.
    pub variant: RunSpec,
    /// Per budget both played, seats, roles, endings and lengths.
    pub rows: Vec<Difference>,
}

const KINDS: [&str; 4] = ["seat", "role", "ending", "length"];

/// One quantity's running sums: the pairs' differences, by cluster.
#[derive(Default)]
struct Acc {
    sums: PairedSums,
    base: f64,
    variant: f64,
    units: u64,
    /// The open cluster: its id, summed differences and games.
    open: Option<(u64, f64, u64)>,
}

impl Acc {
    fn add(&mut self, cluster: u64, base: f64, variant: f64) {
        if self.open.is_some_and(|(c, _, _)| c != cluster) {
            self.close();
        }
        let open = self.open.get_or_insert((cluster, 0.0, 0));
        open.1 += variant - base;
        open.2 += 1;
        self.base += base;
        self.variant += variant;
        self.units += 1;
    }

    fn close(&mut self) {
        if let Some((_, d, k)) = self.open.take() {
            self.sums.add(d / k as f64);
        }
    }
}

/// The quantities of one game: (kind index, group) → value.
fn quantities(rows: &[GameRow], endings: &BTreeSet<String>) -> BTreeMap<(usize, String), f64> {
    let mut q = BTreeMap::new();
    let points = |r: &GameRow| r.outcome.points();
    for r in rows {
        q.insert((0, r.seat.to_string()), points(r));
    }
    let mut roles: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.role.is_empty()) {
        for part in role_parts(&r.role) {
            let e = roles.entry(part).or_default();
            e.0 += points(r);
            e.1 += 1.0;
        }
    }
    for (role, (p, k)) in roles {
        q.insert((1, role), p / k);
    }
    let first = &rows[0];
    for e in endings {
        q.insert((2, e.clone()), f64::from(u8::from(*e == first.ending)));
    }
    q.insert((3, "turns".into()), f64::from(first.turns));
    if let Some(r) = first.rounds {
        q.insert((3, "rounds".into()), f64::from(r));
    }
    q
}

/// Compares the variant study in `variant` with the base study in `base`.
pub fn compare(base: &Path, variant: &Path) -> Result<Comparison> {
    let (b, v) = (read_spec(base)?, read_spec(variant)?);
    if b.seed != v.seed || b.duplicate != v.duplicate {
        bail!(
            "{} and {} are not played on the same seeds (seed {} and {}, duplicate deals {} and {}): rerun one with the other's --seed and --duplicate",
            base.display(),
            variant.display(),
            b.seed,
            v.seed,
            b.duplicate,
            v.duplicate
        );
    }
    if b.game == v.game {
        bail!(
            "{} and {} are studies of the same game {}: a variant must change the game",
            base.display(),
            variant.display(),
            b.game
        );
    }
    let mut rows = Vec::new();
    for &budget in b.budgets.iter().filter(|x| v.budgets.contains(x)) {
        let (pb, pv) = (
            base.join(games_file(budget)),
            variant.join(games_file(budget)),
        );
        if !pb.exists() || !pv.exists() {
            continue;
        }
        rows.extend(compare_budget(
            budget,
            (&pb, &b.game),
            (&pv, &v.game),
            b.duplicate,
        )?);
    }
    if rows.is_empty() {
        bail!(
            "{} and {} share no budget with games on both sides (budgets {:?} and {:?})",
            base.display(),
            variant.display(),
            b.budgets,
            v.budgets
        );
    }
    Ok(Comparison {
        base: b,
        variant: v,
        rows,
    })
}

/// The complete games of a games file, one at a time: a torn last line and a
/// last game missing seats (a study still playing, or killed mid-write) are
/// left out, as `balance --resume` leaves them.
fn whole_games(
    path: &Path,
) -> Result<impl Iterator<Item = Result<Vec<GameRow>, String>> + use<>, String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot read {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| fail(&e))?;
    let whole = crate::arena::resume::whole_lines(&file).map_err(|e| fail(&e))?;
    let mut reader = csv::Reader::from_reader(std::io::BufReader::new(file.take(whole)));
    let malformed = {
        let path = path.display().to_string();
        move |e: &dyn std::fmt::Display| format!("malformed {path}: {e}")
    };
    let header = reader.headers().map_err(|e| malformed(&e))?.clone();
    if !header.is_empty() {
        check_games_header(&header).map_err(|e| malformed(&e))?;
    }
    let mut rows = reader.into_deserialize::<GameRow>().peekable();
    let mut seats = None;
    Ok(std::iter::from_fn(move || {
        let row = |r: Option<csv::Result<GameRow>>| -> Option<Result<GameRow, String>> {
            let r = r?.map_err(|e| malformed(&e));
            Some(r.and_then(|r| check_row(&r).map(|()| r).map_err(|e| malformed(&e))))
        };
        let mut game = match row(rows.next())? {
            Ok(first) => vec![first],
            Err(e) => return Some(Err(e)),
        };
        while rows
            .peek()
            .is_some_and(|r| r.as_ref().is_ok_and(|r| r.game_index == game[0].game_index))
        {
            match row(rows.next())? {
                Ok(r) => game.push(r),
                Err(e) => return Some(Err(e)),
            }
        }
        let n = *seats.get_or_insert(game.len());
        (rows.peek().is_some() || game.len() == n).then_some(Ok(game))
    }))
}

/// The paired differences of one budget between the games files `base` and
/// `variant`, each with the game its study records: a row of another game
/// (a file copied from another study) is refused.
fn compare_budget(
    budget: u64,
    (base, base_game): (&Path, &str),
    (variant, variant_game): (&Path, &str),
    duplicate: bool,
) -> Result<Vec<Difference>> {
    let games = |p: &Path| whole_games(p).map_err(anyhow::Error::msg);
    // Every ending either side saw, so that each game counts 1 or 0 for each.
    let mut endings = BTreeSet::new();
    for (p, spec) in [(base, base_game), (variant, variant_game)] {
        for g in games(p)? {
            let g = g.map_err(anyhow::Error::msg)?;
            if let Some(r) = g.iter().find(|r| r.game != spec) {
                bail!(
                    "{} holds game {} of {}, but its study plays {spec}: the file is another study's",
                    p.display(),
                    r.game_index,
                    r.game
                );
            }
            endings.insert(g[0].ending.clone());
        }
    }
    endings.remove("");
    let mut acc: BTreeMap<(usize, String), Acc> = BTreeMap::new();
    for (gb, gv) in games(base)?.zip(games(variant)?) {
        let (gb, gv) = (
            gb.map_err(anyhow::Error::msg)?,
            gv.map_err(anyhow::Error::msg)?,
        );
        let (i, j) = (gb[0].game_index, gv[0].game_index);
        if i != j || gb.len() != gv.len() {
            bail!(
                "game {i} of {} and game {j} of {} do not pair (both must hold the same games in index order, with as many seats)",
                base.display(),
                variant.display()
            );
        }
        let cluster = super::cluster(i, gb.len(), duplicate);
        let (qb, qv) = (quantities(&gb, &endings), quantities(&gv, &endings));
        // A role only one side dealt has no pair in this game.
        for (key, &x) in &qb {
            if let Some(&y) = qv.get(key) {
                acc.entry(key.clone()).or_default().add(cluster, x, y);
            }
        }
    }
    Ok(acc
        .into_iter()
        .map(|((kind, group), mut a)| {
            a.close();
            let units = a.units.max(1) as f64;
            Difference {
                budget,
                kind: KINDS[kind],
                group,
                base: a.base / units,
                variant: a.variant / units,
                paired: a.sums.finish(),
            }
        })
        .collect())
}

impl Comparison {
    /// `paired.csv`: one row per budget and quantity.
    pub fn to_csv(&self) -> String {
        let mut s = String::from(
            "budget,kind,group,pairs,base,variant,difference,ci_low,ci_high,p_value\n",
        );
        for d in &self.rows {
            let p = &d.paired;
            let _ = writeln!(
                s,
                "{},{},{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}",
                d.budget,
                d.kind,
                d.group,
                p.n,
                d.base,
                d.variant,
                p.mean,
                p.low,
                p.high,
                p.test.p_value
            );
        }
        s
    }

    /// `paired.md`: the same as a table, differences whose interval excludes
    /// zero in bold.
    pub fn to_markdown(&self) -> String {
        let (b, v) = (&self.base, &self.variant);
        let mut s = String::new();
        let _ = writeln!(s, "## Paired differences: {} against {}\n", v.game, b.game);
        let agents = if b.agent == v.agent {
            format!("`{}` in every seat", b.agent)
        } else {
            format!(
                "`{}` (variant) and `{}` (base) in every seat",
                v.agent, b.agent
            )
        };
        let unit = if b.duplicate { "deals" } else { "games" };
        let _ = writeln!(
            s,
            "{agents}, master seed {}: game i of each study starts from the same seed and \
             seating. Each row is the mean over {unit} of the variant's result minus the base \
             game's (win rates with draws half, shares of games ending each way, lengths), with \
             its paired 95 % interval and the sign-flip test's p (uncorrected).\n",
            b.seed
        );
        let _ = writeln!(
            s,
            "| budget | quantity | pairs | base | variant | difference [95 %] | p |\n|---:|---|---:|---:|---:|---|---:|"
        );
        for d in &self.rows {
            let p = &d.paired;
            let diff = format!("{:+.3} [{:+.3}, {:+.3}]", p.mean, p.low, p.high);
            let diff = if p.low > 0.0 || p.high < 0.0 {
                format!("**{diff}**")
            } else {
                diff
            };
            let _ = writeln!(
                s,
                "| {} | {} {} | {} | {:.3} | {:.3} | {diff} | {:.4} |",
                d.budget, d.kind, d.group, p.n, d.base, d.variant, p.test.p_value
            );
        }
        s
    }
}
