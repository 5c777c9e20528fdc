//! Tuning an agent's parameters by games: `boardlab tune`.
//!
//! A template such as `ismcts(time_ms=10, c=?, max_rollout=[5,10,20])` names a
//! grid of settings: `key=?` takes a default grid derived from the parameter's
//! type and range (as the registry's reader states them) around its default,
//! `key=[a,b,...]` lists the values. [`ntbea`] searches the grid; each of its
//! evaluations is one seat rotation of games (duplicate deals: one setup and
//! chance stream per rotation) of the setting against the `--against` agent
//! through the runner's game loop, scored as the setting's mean points (win 1,
//! draw ½). The picked setting is then confirmed on games with seeds of their
//! own, so its measured rate carries no winner's curse.

pub mod ntbea;

use rayon::prelude::*;

use crate::agents::registry::{AGENT_KINDS, AgentSpec};
use crate::arena::record::GameRow;
use crate::arena::{RunOptions, play_indexed};
use crate::error::SpecError;
use crate::game::Game;
use crate::rng::game_seed;
use crate::stats::{Z95, wilson};
use ntbea::{Model, Ntbea};

/// One tuned parameter and the values it may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dimension {
    /// The parameter's key.
    pub key: String,
    /// Its values, as written in specs.
    pub values: Vec<String>,
}

/// The grid of settings a template names.
#[derive(Clone, Debug)]
pub struct SearchSpace {
    /// The agent with its fixed parameters (a preset expanded).
    pub base: AgentSpec,
    /// The tuned parameters.
    pub dims: Vec<Dimension>,
}

/// How a template marks a parameter.
enum Mark {
    Fixed(String),
    Default,
    List(Vec<String>),
}

fn malformed(text: &str, why: String) -> SpecError {
    SpecError::Malformed {
        spec: text.to_string(),
        why,
    }
}

/// Splits `k=v, k=[a,b], k=?` at the commas outside brackets.
fn split_items(text: &str, body: &str) -> Result<Vec<String>, SpecError> {
    let (mut items, mut current, mut open) = (Vec::new(), String::new(), false);
    for c in body.chars() {
        match c {
            '[' if open => return Err(malformed(text, "nested '['".into())),
            '[' => open = true,
            ']' if !open => return Err(malformed(text, "']' without '['".into())),
            ']' => open = false,
            ',' if !open => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if open {
        return Err(malformed(text, "'[' without ']'".into()));
    }
    items.push(current);
    Ok(items
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect())
}

impl SearchSpace {
    /// Parses a template and checks every value of every tuned parameter.
    pub fn parse(text: &str) -> Result<SearchSpace, SpecError> {
        let text = text.trim();
        let (name, body) = match text.find('(') {
            None => (text, ""),
            Some(open) if text.ends_with(')') => (&text[..open], &text[open + 1..text.len() - 1]),
            Some(_) => return Err(malformed(text, "missing closing ')'".into())),
        };
        let mut marks: Vec<(String, Mark)> = Vec::new();
        for item in split_items(text, body)? {
            let Some((k, v)) = item.split_once('=') else {
                return Err(malformed(text, format!("'{item}' is not key=value")));
            };
            let (k, v) = (k.trim().to_string(), v.trim());
            if k.is_empty() || v.is_empty() {
                return Err(malformed(
                    text,
                    format!("'{item}' has an empty key or value"),
                ));
            }
            if marks.iter().any(|(key, _)| *key == k) {
                return Err(malformed(text, format!("'{k}' is given twice")));
            }
            let mark = if v == "?" {
                Mark::Default
            } else if let Some(list) = v.strip_prefix('[') {
                let list = list
                    .strip_suffix(']')
                    .ok_or_else(|| malformed(text, format!("'{item}': a list ends with ']'")))?;
                let values: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
                if values.iter().any(String::is_empty) {
                    return Err(malformed(text, format!("'{item}' has an empty value")));
                }
                if values.len() < 2 {
                    return Err(malformed(
                        text,
                        format!(
                            "'{item}' lists one value; list two or more, or write {k}={}",
                            values[0]
                        ),
                    ));
                }
                if let Some(v) = values
                    .iter()
                    .enumerate()
                    .find(|(i, v)| values[..*i].contains(v))
                {
                    return Err(malformed(text, format!("'{item}' lists '{}' twice", v.1)));
                }
                Mark::List(values)
            } else {
                Mark::Fixed(v.to_string())
            };
            marks.push((k, mark));
        }
        let fixed: Vec<String> = marks
            .iter()
            .filter_map(|(k, m)| match m {
                Mark::Fixed(v) => Some(format!("{k}={v}")),
                _ => None,
            })
            .collect();
        let fixed = if fixed.is_empty() {
            name.to_string()
        } else {
            format!("{name}({})", fixed.join(","))
        };
        let base = AgentSpec::parse(&fixed)?;
        let mut dims = Vec::new();
        for (key, mark) in marks {
            let values = match mark {
                Mark::Fixed(_) => continue,
                Mark::List(values) => values,
                Mark::Default => default_values(&base, &key)?,
            };
            for v in &values {
                with_value(&base, &key, v).check()?;
            }
            dims.push(Dimension { key, values });
        }
        if dims.is_empty() {
            return Err(SpecError::Invalid(format!(
                "nothing to tune in '{text}': mark parameters with key=? (a default grid) or key=[a,b,...]"
            )));
        }
        Ok(SearchSpace { base, dims })
    }

    /// Values per tuned parameter.
    pub fn sizes(&self) -> Vec<usize> {
        self.dims.iter().map(|d| d.values.len()).collect()
    }

    /// The agent at one point of the grid.
    pub fn setting(&self, point: &[usize]) -> AgentSpec {
        let mut spec = self.base.clone();
        for (d, &i) in self.dims.iter().zip(point) {
            spec = with_value(&spec, &d.key, &d.values[i]);
        }
        spec
    }

    /// The tuned values of a point, e.g. `c=0.7, max_rollout=20`.
    pub fn describe(&self, point: &[usize]) -> String {
        self.dims
            .iter()
            .zip(point)
            .map(|(d, &i)| format!("{}={}", d.key, d.values[i]))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `spec` with one parameter set; its label is the resulting spec.
fn with_value(spec: &AgentSpec, key: &str, value: &str) -> AgentSpec {
    let mut s = spec.spec.clone();
    s.params.set(key, value);
    AgentSpec {
        label: s.to_string(),
        spec: s,
    }
}

/// The default grid of `key=?`: the parameter's reader is asked what it
/// accepts (a `?` value fails with the type and range), and the grid is laid
/// around the current value (the preset's, else the kind's default).
fn default_values(base: &AgentSpec, key: &str) -> Result<Vec<String>, SpecError> {
    let kind = AGENT_KINDS.iter().find(|k| k.name == base.spec.name);
    let info = kind.and_then(|k| k.params.iter().find(|p| p.name == key));
    let Some(info) = info else {
        return Err(SpecError::UnknownParam {
            owner: base.spec.name.clone(),
            key: key.to_string(),
            hint: crate::error::did_you_mean(
                key,
                kind.into_iter()
                    .flat_map(|k| k.params.iter().map(|p| p.name)),
            ),
            allowed: kind
                .map(|k| {
                    k.params
                        .iter()
                        .map(|p| p.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "none".into()),
        });
    };
    let center = base
        .spec
        .params
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(info.default.to_string(), |(_, v)| v.to_string());
    let no_grid = || {
        SpecError::Invalid(format!(
            "no default grid for '{key}' ({}); list its values, e.g. {key}=[a,b]",
            info.help
        ))
    };
    match with_value(base, key, "?").check() {
        Err(SpecError::BadValue { expected, .. }) => {
            default_grid(&expected, &center).ok_or_else(no_grid)
        }
        Err(e) => Err(e),
        Ok(_) => Err(no_grid()),
    }
}

/// A grid from a reader's statement of what it accepts (`an integer from 0
/// to 9`, `a number from 0 to 1`, `one of a, b`, `true or false`) and the
/// current value: scale parameters at factors of √2 around it, probabilities
/// on a fixed ladder, counts at factors of 2 (from 0, "off", a doubling ladder).
pub fn default_grid(expected: &str, center: &str) -> Option<Vec<String>> {
    if expected == "true or false" {
        return Some(vec!["false".into(), "true".into()]);
    }
    if let Some(list) = expected.strip_prefix("one of ") {
        return Some(list.split(", ").map(String::from).collect());
    }
    let range = |rest: &str| -> Option<(f64, f64)> {
        let (lo, hi) = rest.split_once(" to ")?;
        Some((lo.parse().ok()?, hi.parse().ok()?))
    };
    let (values, lo, hi): (Vec<f64>, f64, f64) =
        if let Some(rest) = expected.strip_prefix("an integer from ") {
            let (lo, hi) = range(rest)?;
            let c: f64 = center.parse().ok()?;
            let v = if c == 0.0 {
                vec![0.0, 5.0, 10.0, 20.0, 40.0, 80.0]
            } else {
                [0.25, 0.5, 1.0, 2.0, 4.0]
                    .iter()
                    .map(|f| (c * f).round())
                    .collect()
            };
            (v, lo, hi)
        } else if let Some(rest) = expected.strip_prefix("a number from ") {
            let (lo, hi) = range(rest)?;
            let c: f64 = center.parse().ok()?;
            let mut v = if hi <= 1.0 {
                vec![0.0, 0.05, 0.1, 0.2, 0.3, 0.5]
            } else if c == 0.0 {
                vec![0.0, 0.25, 0.5, 1.0, 2.0, 4.0]
            } else {
                (-3..=3)
                    .map(|k| two_digits(c * 2f64.powf(f64::from(k) / 2.0)))
                    .collect()
            };
            v.push(c);
            (v, lo, hi)
        } else {
            return None;
        };
    let mut values: Vec<f64> = values
        .into_iter()
        .filter(|v| *v >= lo && *v <= hi)
        .collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    (values.len() >= 2).then(|| values.iter().map(|v| v.to_string()).collect())
}

/// `x` rounded to two significant digits.
fn two_digits(x: f64) -> f64 {
    let scale = 10f64.powi(1 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Games for the search (rounded up to whole seat rotations).
    pub budget: u64,
    /// Games of the confirmation (rounded up likewise).
    pub confirm: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0: one per core); results do not depend on it.
    pub threads: usize,
    /// The optimizer's settings.
    pub ntbea: Ntbea,
    /// A progress bar of the games on a terminal.
    pub progress: bool,
}

/// One game of the tuning: the tuned agent's row.
#[derive(Clone, Debug)]
pub struct Record {
    /// `search` or `confirm`.
    pub phase: &'static str,
    /// The seat rotation (search: the evaluation) the game belongs to.
    pub evaluation: u64,
    /// The setting played.
    pub point: Vec<usize>,
    /// The tuned agent's row of the game.
    pub row: GameRow,
}

/// What a tuning found.
#[derive(Clone, Debug)]
pub struct TuneResult {
    /// The n-tuple model after the search.
    pub model: Model,
    /// The recommended setting.
    pub best: Vec<usize>,
    /// Every game, search first, in game order.
    pub records: Vec<Record>,
    /// Confirmation: points (wins + ½ draws), games, and the 95 % Wilson interval.
    pub confirmation: (f64, u64, f64, f64),
}

/// The seed stream of the confirmation games, apart from the search's.
const CONFIRM_STREAM: u64 = u64::MAX;

/// Tunes `space` against `against` in `game`.
pub fn tune<G: Game>(
    game: &G,
    space: &SearchSpace,
    against: &AgentSpec,
    opts: &TuneOptions,
) -> Result<TuneResult, SpecError> {
    let n = game.num_players() as u64;
    space.base.build::<G>()?;
    against.build::<G>()?;
    against.check_game(game)?;
    let pool = crate::arena::pool(opts.threads).map_err(SpecError::Invalid)?;
    let evaluations = opts.budget.div_ceil(n).max(1);
    let confirm_games = opts.confirm.div_ceil(n).max(1) * n;
    let bar = crate::arena::progress::Progress::of(
        evaluations * n + confirm_games,
        opts.progress,
        "game",
        "tune".to_string(),
    );
    // Games `first..first + count` of `setting` against `against` in every other seat.
    let play = |setting: &AgentSpec, master: u64, first: u64, count: u64| -> Vec<GameRow> {
        let mut specs = vec![setting.clone()];
        specs.resize(n as usize, against.clone());
        let labels: Vec<String> = specs.iter().map(|s| s.label.clone()).collect();
        let run = RunOptions {
            seed: master,
            duplicate: true,
            ..Default::default()
        };
        pool.install(|| {
            (first..first + count)
                .into_par_iter()
                .map(|i| {
                    let played = play_indexed(game, &specs, &labels, i, &run);
                    bar.inc(1);
                    played
                        .rows
                        .into_iter()
                        .find(|r| r.agent_index == 0)
                        .expect("the tuned agent has a seat in every game")
                })
                .collect()
        })
    };
    let mut records = Vec::new();
    let model = opts.ntbea.run(
        &space.sizes(),
        evaluations,
        game_seed(opts.seed, 0),
        |i, point| {
            let rows = play(&space.setting(point), opts.seed, i * n, n);
            let score = rows.iter().map(|r| r.outcome.points()).sum::<f64>() / n as f64;
            records.extend(rows.into_iter().map(|row| Record {
                phase: "search",
                evaluation: i,
                point: point.to_vec(),
                row,
            }));
            score
        },
    );
    let best = model.best();
    let rows = play(
        &space.setting(&best),
        game_seed(opts.seed, CONFIRM_STREAM),
        0,
        confirm_games,
    );
    // Forfeits measure the faulty agent, not the setting: a tuning whose
    // every game ended in a fault has no result to report.
    let games = rows.len() + records.len();
    if rows
        .iter()
        .chain(records.iter().map(|r| &r.row))
        .all(|r| !r.error.is_empty())
    {
        return Err(SpecError::Invalid(format!(
            "every game of the tuning ({games}) ended in an agent's fault: a win rate over forfeits measures nothing; check the agents with boardlab run"
        )));
    }
    let won: f64 = rows.iter().map(|r| r.outcome.points()).sum();
    let (lo, hi) = wilson(won, confirm_games as f64, Z95);
    bar.finish_and_clear();
    records.extend(rows.into_iter().map(|row| Record {
        phase: "confirm",
        evaluation: row.game_index / n,
        point: best.clone(),
        row,
    }));
    Ok(TuneResult {
        model,
        best,
        records,
        confirmation: (won, confirm_games, lo, hi),
    })
}

/// `tune.csv`: one row per game, the tuned agent's view of it.
pub fn records_csv(space: &SearchSpace, records: &[Record]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["phase", "evaluation", "game_index", "seed"];
    header.extend(space.dims.iter().map(|d| d.key.as_str()));
    header.extend([
        "seat",
        "role",
        "outcome",
        "points",
        "turns",
        "actions",
        "truncated",
        "error",
    ]);
    w.write_record(&header).expect("writing to memory");
    for r in records {
        let mut line = vec![
            r.phase.to_string(),
            r.evaluation.to_string(),
            r.row.game_index.to_string(),
            r.row.seed.to_string(),
        ];
        line.extend(
            space
                .dims
                .iter()
                .zip(&r.point)
                .map(|(d, &i)| d.values[i].clone()),
        );
        line.extend([
            r.row.seat.to_string(),
            r.row.role.clone(),
            r.row.outcome.as_str().to_string(),
            r.row.outcome.points().to_string(),
            r.row.turns.to_string(),
            r.row.actions.to_string(),
            r.row.truncated.to_string(),
            r.row.error.clone(),
        ]);
        w.write_record(&line).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV is UTF-8")
}

/// A preset file (agents/ format) for the setting at `point`.
pub fn preset_toml(space: &SearchSpace, point: &[usize], description: &str) -> String {
    let spec = space.setting(point).spec;
    let mut params = toml::Table::new();
    for (k, v) in spec.params.iter() {
        let value = if let Ok(i) = v.parse::<i64>() {
            toml::Value::Integer(i)
        } else if let Ok(f) = v.parse::<f64>() {
            toml::Value::Float(f)
        } else {
            toml::Value::String(v.to_string())
        };
        params.insert(k.to_string(), value);
    }
    let mut doc = toml::Table::new();
    doc.insert("description".into(), description.into());
    doc.insert("kind".into(), spec.name.into());
    doc.insert("params".into(), toml::Value::Table(params));
    toml::to_string(&doc).expect("a table serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_grids_follow_the_readers_ranges() {
        let g = |e: &str, c: &str| default_grid(e, c).unwrap();
        assert_eq!(
            g("a number from 0 to 100", "1.4"),
            ["0.49", "0.7", "0.99", "1.4", "2", "2.8", "4"]
        );
        assert_eq!(
            g("an integer from 0 to 4294967295", "0"),
            ["0", "5", "10", "20", "40", "80"]
        );
        assert_eq!(
            g("an integer from 1 to 1000", "4"),
            ["1", "2", "4", "8", "16"]
        );
        assert_eq!(
            g("a number from 0 to 1", "0.1"),
            ["0", "0.05", "0.1", "0.2", "0.3", "0.5"]
        );
        assert_eq!(
            g("one of random, greedy, mast", "random"),
            ["random", "greedy", "mast"]
        );
        assert_eq!(g("true or false", "true"), ["false", "true"]);
        assert_eq!(default_grid("a file path", "x"), None);
    }

    #[test]
    fn templates_name_grids_over_presets() {
        let s =
            SearchSpace::parse("ismcts-1k-h20(c=?, rollout=[random,mast], epsilon=0.2)").unwrap();
        assert_eq!(s.base.spec.name, "ismcts");
        assert_eq!(s.dims.len(), 2);
        assert_eq!(s.dims[0].key, "c");
        assert_eq!(s.dims[1].values, ["random", "mast"]);
        let a = s.setting(&[3, 1]);
        assert_eq!(
            a.spec.to_string(),
            "ismcts(c=1.4,epsilon=0.2,iterations=1000,max_rollout=20,rollout=mast)"
        );
        assert_eq!(s.describe(&[3, 1]), "c=1.4, rollout=mast");
        // The preset's own value centres the default grid.
        let s = SearchSpace::parse("ismcts-1k-h20(max_rollout=?)").unwrap();
        assert_eq!(s.dims[0].values, ["5", "10", "20", "40", "80"]);
        let toml = preset_toml(&s, &[2], "tuned");
        let p = crate::agents::registry::Preset::parse(&toml, "t").unwrap();
        assert_eq!(p.kind, "ismcts");
        assert_eq!(p.params["max_rollout"], toml::Value::Integer(20));
    }

    #[test]
    fn bad_templates_are_errors() {
        for (t, needle) in [
            ("ismcts(c=1.4)", "nothing to tune"),
            ("ismcts", "nothing to tune"),
            ("alphago(c=?)", "unknown agent"),
            ("ismcts(cc=?)", "no parameter 'cc'"),
            ("ismcts(cc=[1,2])", "no parameter 'cc'"),
            ("ismcts(c=[1,-2])", "bad value '-2'"),
            ("ismcts(c=[1])", "lists one value"),
            ("ismcts(c=[1,1])", "twice"),
            ("ismcts(c=[1,2)", "without ']'"),
            ("ismcts(c=[])", "empty value"),
            ("ismcts(c=?,c=[1,2])", "twice"),
            ("ismcts(rollout=[random,best])", "bad value 'best'"),
        ] {
            let e = SearchSpace::parse(t).unwrap_err().to_string();
            assert!(e.contains(needle), "{t}: {e}");
        }
    }
}
