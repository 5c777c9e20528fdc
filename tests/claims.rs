//! results/claims.toml: every figure of results/README.md's "In one screen",
//! recomputed from the committed data and compared with the text. A claim
//! names a phrase of the README (`says`, whitespace aside), the figure in it
//! (`shows`), and how to recompute that figure: from a meta-game's cells'
//! games (`metagame-value`, `metagame-self-play`), or from a study's summary
//! table for studies whose games are not all committed (`table`; a bound
//! such as "within ±0.03" is `at_most`, with `reduce = "max-distance"` from a
//! `fair` share). When the
//! text and the data part, this fails and says which claim.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    says: String,
    shows: String,
    compute: String,
    study: Option<String>,
    agent: Option<String>,
    #[serde(default)]
    files: Vec<String>,
    #[serde(default, rename = "where")]
    filter: BTreeMap<String, String>,
    column: Option<String>,
    reduce: Option<String>,
    digits: Option<usize>,
    /// The fair share `max-distance` measures from.
    fair: Option<f64>,
    /// The text states a bound: the claim holds when the figure is at most `shows`.
    #[serde(default)]
    at_most: bool,
}

#[derive(Debug, Deserialize)]
struct Claims {
    claim: Vec<Claim>,
}

fn results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results")
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn interval(v: f64, l: f64, h: f64) -> String {
    format!("{v:.3} [{l:.3}, {h:.3}]")
}

/// The values of `column` in the rows of `files` matching `filter`.
fn table(files: &[String], filter: &BTreeMap<String, String>, column: &str) -> Vec<f64> {
    let mut out = Vec::new();
    for f in files {
        let mut r =
            csv::Reader::from_path(results().join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        let header = r.headers().unwrap().clone();
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .unwrap_or_else(|| panic!("{f} has no column {name}"))
        };
        let keys: Vec<(usize, &String)> = filter.iter().map(|(k, v)| (col(k), v)).collect();
        let c = col(column);
        for row in r.records() {
            let row = row.unwrap();
            if keys
                .iter()
                .all(|(i, v)| v.split('|').any(|alt| alt == &row[*i]))
            {
                out.push(row[c].parse::<f64>().unwrap());
            }
        }
    }
    out
}

fn compute(c: &Claim) -> String {
    let study = || results().join(c.study.as_deref().expect("the claim names its study"));
    let digits = c.digits.unwrap_or(2);
    match c.compute.as_str() {
        "metagame-value" => {
            let s = boardlab::metagame::resolve(&study()).unwrap();
            interval(s.value, s.ci_low, s.ci_high)
        }
        "metagame-self-play" => {
            let s = boardlab::metagame::resolve(&study()).unwrap();
            let agent = c.agent.as_deref().expect("the claim names its agent");
            let sp = s
                .self_play
                .iter()
                .find(|p| p.agent == agent)
                .unwrap_or_else(|| panic!("{agent} is not in the population"));
            format!("{:.digits$}", sp.side0.value)
        }
        "table" => {
            let values = table(&c.files, &c.filter, c.column.as_deref().unwrap_or("rate"));
            assert!(
                !values.is_empty(),
                "no row matches {:?} in {:?}",
                c.filter,
                c.files
            );
            let v = match c.reduce.as_deref() {
                None => {
                    assert_eq!(
                        values.len(),
                        1,
                        "{:?} matches several rows: give reduce",
                        c.filter
                    );
                    values[0]
                }
                Some("min") => values.iter().copied().fold(f64::INFINITY, f64::min),
                Some("max") => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                Some("mean") => values.iter().sum::<f64>() / values.len() as f64,
                Some("max-distance") => {
                    let fair = c.fair.expect("max-distance needs fair");
                    values.iter().map(|v| (v - fair).abs()).fold(0.0, f64::max)
                }
                Some(other) => panic!("unknown reduce {other}"),
            };
            if c.at_most && c.shows.parse::<f64>().is_ok_and(|bound| v <= bound) {
                return c.shows.clone();
            }
            format!("{v:.digits$}")
        }
        other => panic!("unknown computation {other}"),
    }
}

#[test]
fn every_claim_of_the_results_summary_recomputes_from_the_data() {
    let claims: Claims =
        toml::from_str(&std::fs::read_to_string(results().join("claims.toml")).unwrap()).unwrap();
    let readme = squash(&std::fs::read_to_string(results().join("README.md")).unwrap());
    let mut wrong = Vec::new();
    for c in &claims.claim {
        let says = squash(&c.says);
        assert!(
            readme.contains(&says),
            "results/README.md no longer says: {says}"
        );
        assert!(says.contains(&c.shows), "{says} does not show {}", c.shows);
        let got = compute(c);
        if got != c.shows {
            wrong.push(format!("{says}: the data give {got}, the text {}", c.shows));
        }
    }
    assert!(
        wrong.is_empty(),
        "claims the data do not support:\n{}",
        wrong.join("\n")
    );
    assert!(claims.claim.len() >= 10);
}
