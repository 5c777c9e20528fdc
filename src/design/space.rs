//! The variant space of `boardlab design`, read from a TOML file: the base
//! game, the parameters to vary (lists of values, numeric ranges, alternative
//! data files, all as parameter values), the combinations to skip, what
//! "fair" means, the quality limits and the stages of the search.
//!
//! ```toml
//! game = "fox(players=3)"
//!
//! [params]
//! guard = ["orthogonal", "reading"]
//! diagonal = { from = 2, to = 8, step = 2 }
//!
//! [[exclude]]            # every variant matching all of these is skipped
//! guard = "reading"
//! diagonal = 8
//!
//! [fairness]
//! by = "sides"           # or "seats"
//! tolerance = 0.03       # fair: every side within ± this of the fair share
//!
//! [quality]              # each limit optional
//! max_cap_share = 0.05   # share of games stopped by a length cap
//! min_decisive = 0.5     # share of games with a winner
//! min_turns = 10         # mean turns per game
//! max_turns = 200
//!
//! [[stage]]              # screening: identical agents, racing
//! agent = "greedy"
//! games = 4000
//! batch = 400
//! tolerance = 0.1        # a weak screen drops only the grossly unfair
//!
//! [[stage]]              # confirmation: the meta-game of a population
//! population = ["ismcts(iterations=400)", "pimc(iterations=400)"]
//! games = 100            # per cell
//! keep = 3               # the best three survivors are confirmed
//! ```

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use crate::spec::Spec;

/// At most this many variants in one space: a search over more is a
/// cluster job, split into several spaces.
pub const MAX_VARIANTS: usize = 10_000;

/// One parameter's values: a list, or a numeric range.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
pub enum Axis {
    /// The values to try, in order (text, numbers, booleans; a data file is a path).
    List(Vec<toml::Value>),
    /// `from`, `from + step`, … up to `to` included.
    Range {
        /// First value.
        from: f64,
        /// Last value (included when the steps land on it).
        to: f64,
        /// The step, positive.
        step: f64,
    },
}

/// Whose rates must be even.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum By {
    /// The game's sides (foxes against guardians, a team, one seat each in a
    /// free-for-all): a side's rate is its first seat's.
    #[default]
    Sides,
    /// Every seat on its own.
    Seats,
}

/// What fair means.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Fairness {
    /// Sides or seats.
    #[serde(default)]
    pub by: By,
    /// Fair when every group's rate is within ± this of the fair share.
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// Each look's error level, corrected over looks and groups (0.05).
    #[serde(default = "default_alpha")]
    pub alpha: f64,
}

fn default_tolerance() -> f64 {
    0.03
}

fn default_alpha() -> f64 {
    0.05
}

impl Default for Fairness {
    fn default() -> Self {
        Fairness {
            by: By::Sides,
            tolerance: default_tolerance(),
            alpha: default_alpha(),
        }
    }
}

/// Limits on the games' endings and length; each is optional.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Quality {
    /// Largest share of games stopped by a length or round cap.
    pub max_cap_share: Option<f64>,
    /// Smallest share of games won by someone (not drawn, not capped).
    pub min_decisive: Option<f64>,
    /// Fewest mean turns per game.
    pub min_turns: Option<f64>,
    /// Most mean turns per game.
    pub max_turns: Option<f64>,
}

/// One stage of the search, as written.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// Identical agents in every seat (self-play), raced in batches.
    pub agent: Option<String>,
    /// A population whose meta-game value decides (cross-play).
    pub population: Option<Vec<String>>,
    /// Games per variant (the cap when racing), or per cell with a population.
    pub games: u64,
    /// Games per look when racing (default: a tenth of `games`).
    pub batch: Option<u64>,
    /// Survivors passed on: the best `keep` by distance from fair.
    pub keep: Option<usize>,
    /// This stage's fairness tolerance (default: `fairness.tolerance`): a
    /// screen with weak agents may drop only the grossly unfair.
    pub tolerance: Option<f64>,
}

impl Stage {
    /// The tolerance this stage judges fairness with.
    pub fn tolerance(&self, fairness: &Fairness) -> f64 {
        self.tolerance.unwrap_or(fairness.tolerance)
    }
}

/// The whole file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Space {
    /// The base game spec.
    pub game: String,
    /// The parameters to vary, by name.
    #[serde(default)]
    pub params: BTreeMap<String, Axis>,
    /// Partial assignments: a variant matching every key of one is skipped.
    #[serde(default)]
    pub exclude: Vec<BTreeMap<String, toml::Value>>,
    /// What fair means.
    #[serde(default)]
    pub fairness: Fairness,
    /// Limits on endings and length.
    #[serde(default)]
    pub quality: Quality,
    /// The stages, cheapest first.
    #[serde(default, rename = "stage")]
    pub stages: Vec<Stage>,
}

/// One point of the space: its parameter values and its game spec.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Variant {
    /// Its index in the space's order (the first parameter varies slowest).
    pub index: usize,
    /// Parameter name and value text, in name order.
    pub params: Vec<(String, String)>,
    /// The base spec with these values set.
    pub spec: String,
}

/// A value as a game spec writes it: `0.1` not `0.1000000000000000055`,
/// `4` not `4.0`.
fn value_text(v: &toml::Value) -> Result<String> {
    Ok(match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => float_text(*f),
        toml::Value::Boolean(b) => b.to_string(),
        other => bail!(
            "a parameter value must be text, a number or true/false, got {}",
            other.type_str()
        ),
    })
}

fn float_text(f: f64) -> String {
    // Steps accumulate rounding error: 12 significant digits are plenty.
    let rounded = format!("{f:.12}").parse::<f64>().unwrap_or(f);
    if rounded == rounded.trunc() && rounded.abs() < 1e15 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

impl Axis {
    /// The values as spec text.
    fn values(&self, name: &str) -> Result<Vec<String>> {
        match self {
            Axis::List(list) => {
                if list.is_empty() {
                    bail!("parameter {name}: the list of values is empty");
                }
                list.iter()
                    .map(|v| value_text(v).map_err(|e| anyhow::anyhow!("parameter {name}: {e}")))
                    .collect()
            }
            &Axis::Range { from, to, step } => {
                if !(from.is_finite() && to.is_finite() && step.is_finite()) {
                    bail!("parameter {name}: from, to and step must be finite numbers");
                }
                if step <= 0.0 || to < from {
                    bail!(
                        "parameter {name}: a range needs from ≤ to and a positive step, got from = {from}, to = {to}, step = {step}"
                    );
                }
                let count = ((to - from) / step + 1e-9).floor() as u64 + 1;
                if count > MAX_VARIANTS as u64 {
                    bail!(
                        "parameter {name}: {count} values, more than the {MAX_VARIANTS} a space may hold"
                    );
                }
                Ok((0..count)
                    .map(|i| float_text(from + i as f64 * step))
                    .collect())
            }
        }
    }
}

impl Space {
    /// Reads and checks a space file's text; `what` names it in errors.
    pub fn parse(text: &str, what: &str) -> Result<Space> {
        let space: Space = toml::from_str(text).map_err(|e| {
            let line = e.span().map_or(String::new(), |s| {
                format!(" line {}", text[..s.start].lines().count().max(1))
            });
            anyhow::anyhow!("{what}{line}: {}", e.message().trim().replace('\n', " "))
        })?;
        space.check().map_err(|e| anyhow::anyhow!("{what}: {e}"))?;
        Ok(space)
    }

    fn check(&self) -> Result<()> {
        Spec::parse(&self.game)?;
        let f = &self.fairness;
        if !(f.tolerance > 0.0 && f.tolerance < 0.5) {
            bail!(
                "fairness.tolerance must lie between 0 and 0.5, got {}",
                f.tolerance
            );
        }
        if !(f.alpha > 0.0 && f.alpha < 0.5) {
            bail!("fairness.alpha must lie between 0 and 0.5, got {}", f.alpha);
        }
        let q = &self.quality;
        for (name, v) in [
            ("max_cap_share", q.max_cap_share),
            ("min_decisive", q.min_decisive),
        ] {
            if let Some(v) = v
                && !(0.0..=1.0).contains(&v)
            {
                bail!("quality.{name} is a share between 0 and 1, got {v}");
            }
        }
        for (name, v) in [("min_turns", q.min_turns), ("max_turns", q.max_turns)] {
            if let Some(v) = v
                && !(v.is_finite() && v >= 0.0)
            {
                bail!("quality.{name} must be a non-negative number, got {v}");
            }
        }
        if self.stages.is_empty() {
            bail!(
                "no [[stage]]: give at least one, e.g. [[stage]] agent = \"greedy\" games = 2000"
            );
        }
        for (i, s) in self.stages.iter().enumerate() {
            let n = i + 1;
            match (&s.agent, &s.population) {
                (Some(_), Some(_)) => {
                    bail!("stage {n} names both agent and population: give one")
                }
                (None, None) => {
                    bail!("stage {n} names neither agent (self-play) nor population (cross-play)")
                }
                (None, Some(p)) if p.len() < 2 => {
                    bail!("stage {n}: a population needs at least two members")
                }
                _ => {}
            }
            if s.games == 0 || s.games > 100_000_000 {
                bail!(
                    "stage {n}: games must lie between 1 and 100000000, got {}",
                    s.games
                );
            }
            if let Some(b) = s.batch
                && (b == 0 || b > s.games)
            {
                bail!(
                    "stage {n}: batch must lie between 1 and games ({}), got {b}",
                    s.games
                );
            }
            if s.population.is_some() && s.batch.is_some() {
                bail!(
                    "stage {n}: batch applies to agent stages (a population stage plays each cell once)"
                );
            }
            if let Some(t) = s.tolerance
                && !(t > 0.0 && t < 0.5)
            {
                bail!("stage {n}: tolerance must lie between 0 and 0.5, got {t}");
            }
            if s.keep == Some(0) {
                bail!("stage {n}: keep must be at least 1");
            }
        }
        for (i, e) in self.exclude.iter().enumerate() {
            for key in e.keys() {
                if !self.params.contains_key(key) {
                    bail!(
                        "exclude {}: {key} is not one of the varied parameters ({})",
                        i + 1,
                        self.params.keys().cloned().collect::<Vec<_>>().join(", ")
                    );
                }
            }
        }
        Ok(())
    }

    /// Every variant, the first parameter (in name order) varying slowest,
    /// excluded ones left out.
    pub fn variants(&self) -> Result<Vec<Variant>> {
        let base = Spec::parse(&self.game)?;
        let axes: Vec<(String, Vec<String>)> = self
            .params
            .iter()
            .map(|(k, a)| Ok((k.clone(), a.values(k)?)))
            .collect::<Result<_>>()?;
        let total = axes
            .iter()
            .try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()))
            .filter(|&n| n <= MAX_VARIANTS);
        let Some(total) = total else {
            bail!(
                "the space holds more than {MAX_VARIANTS} variants: split it or use fewer values"
            );
        };
        let excluded: Vec<Vec<(String, String)>> = self
            .exclude
            .iter()
            .map(|e| {
                e.iter()
                    .map(|(k, v)| Ok((k.clone(), value_text(v)?)))
                    .collect()
            })
            .collect::<Result<_>>()?;
        let mut out = Vec::new();
        for mut c in 0..total {
            let mut params = vec![(String::new(), String::new()); axes.len()];
            for (i, (name, values)) in axes.iter().enumerate().rev() {
                params[i] = (name.clone(), values[c % values.len()].clone());
                c /= values.len();
            }
            if excluded
                .iter()
                .any(|e| e.iter().all(|kv| params.contains(kv)))
            {
                continue;
            }
            let mut spec = base.clone();
            for (k, v) in &params {
                spec.params.set(k, v);
            }
            out.push(Variant {
                index: out.len(),
                params,
                spec: spec.to_string(),
            });
        }
        if out.is_empty() {
            bail!("every variant is excluded: nothing to search");
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space(text: &str) -> Result<Space> {
        Space::parse(text, "space.toml")
    }

    #[test]
    fn ranges_lists_and_exclusions_enumerate_in_order() {
        let s = space(
            r#"
            game = "planted(card=0)"
            [params]
            p = { from = 0.5, to = 0.7, step = 0.1 }
            komi = [0, 0.25]
            [[exclude]]
            p = 0.6
            komi = 0.25
            [[stage]]
            agent = "random"
            games = 100
            "#,
        )
        .unwrap();
        let v = s.variants().unwrap();
        let specs: Vec<&str> = v.iter().map(|v| v.spec.as_str()).collect();
        // komi before p in name order: komi varies slowest.
        assert_eq!(
            specs,
            [
                "planted(card=0,komi=0,p=0.5)",
                "planted(card=0,komi=0,p=0.6)",
                "planted(card=0,komi=0,p=0.7)",
                "planted(card=0,komi=0.25,p=0.5)",
                "planted(card=0,komi=0.25,p=0.7)",
            ]
        );
        assert_eq!(v[4].index, 4);
    }

    #[test]
    fn bad_files_name_the_problem() {
        let cases = [
            ("game = \"planted\"", "no [[stage]]"),
            ("game = \"planted\"\n[[stage]]\ngames = 10", "neither agent"),
            (
                "game = \"planted\"\n[[stage]]\nagent = \"random\"\npopulation = [\"a\", \"b\"]\ngames = 10",
                "both agent and population",
            ),
            (
                "game = \"planted\"\n[params]\np = { from = 0.7, to = 0.5, step = 0.1 }\n[[stage]]\nagent = \"random\"\ngames = 10",
                "from ≤ to",
            ),
            (
                "game = \"planted\"\n[params]\np = []\n[[stage]]\nagent = \"random\"\ngames = 10",
                "empty",
            ),
            (
                "game = \"planted\"\n[[exclude]]\nq = 1\n[[stage]]\nagent = \"random\"\ngames = 10",
                "q is not one of the varied parameters",
            ),
            (
                "game = \"planted\"\n[fairness]\ntolerance = 2\n[[stage]]\nagent = \"random\"\ngames = 10",
                "fairness.tolerance",
            ),
            (
                "game = \"planted\"\nwhat = 1\n[[stage]]\nagent = \"random\"\ngames = 10",
                "unknown field",
            ),
            (
                "game = \"planted\"\n[[stage]]\nagent = \"random\"\ngames = 10\nbatch = 20",
                "batch must lie",
            ),
            (
                "game = \"planted\"\n[params]\np = { from = 0, to = 1, step = 0.00001 }\n[[stage]]\nagent = \"random\"\ngames = 10",
                "more than the 10000",
            ),
        ];
        for (text, want) in cases {
            let e = space(text)
                .and_then(|s| s.variants().map(|_| ()))
                .expect_err(text)
                .to_string();
            assert!(e.contains(want), "{text}\n→ {e}\n(wanted {want})");
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn float_steps_print_as_written() {
        assert_eq!(float_text(0.1 + 0.2), "0.3");
        assert_eq!(float_text(4.0), "4");
        assert_eq!(float_text(0.05 * 3.0), "0.15");
    }
}
