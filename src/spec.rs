//! Spec strings shared by games and agents: `name` or `name(key=value,...)`.
//!
//! A [`Spec`] is parsed once at the boundary; games and agents then read typed
//! values out of its [`Params`] and the caller rejects any key nobody consumed,
//! so a misspelt parameter is an error, never silently ignored.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::SpecError;

/// A parameter of a game or an agent kind, for listings (`boardlab games`,
/// `boardlab agents`).
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// Key in the spec.
    pub name: &'static str,
    /// Default value as text.
    pub default: &'static str,
    /// What it does and what values it takes.
    pub help: &'static str,
}

/// A parsed `name(key=value,...)` string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The game or agent name.
    pub name: String,
    /// Parameters in key order.
    pub params: Params,
}

/// Parameter values by key. Reading a key marks it as used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    values: BTreeMap<String, String>,
    used: std::collections::BTreeSet<String>,
}

impl Spec {
    /// Parses `name` or `name(key=value,...)`. Values may not contain `,`, `(` or `)`.
    ///
    /// ```
    /// use boardlab::spec::Spec;
    ///
    /// let mut spec = Spec::parse("fox(players=3, alone=guardians)")?;
    /// assert_eq!(spec.name, "fox");
    /// assert_eq!(spec.params.int("players", 2, 2, 4)?, 3);
    /// // A key no reader asked for is an error that names the allowed keys.
    /// let err = spec.params.finish("fox", &["players"]).unwrap_err();
    /// assert!(err.to_string().contains("alone"));
    /// assert!(Spec::parse("fox(players)").is_err());
    /// # Ok::<(), boardlab::error::SpecError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let text = text.trim();
        let bad = |why: &str| SpecError::Malformed {
            spec: text.to_string(),
            why: why.to_string(),
        };
        let (name, body) = match text.find('(') {
            None => (text, None),
            Some(open) => {
                if !text.ends_with(')') {
                    return Err(bad("missing closing ')'"));
                }
                (&text[..open], Some(&text[open + 1..text.len() - 1]))
            }
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(bad("empty name"));
        }
        if !name.chars().all(|c| {
            c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '@' || c == '/' || c == '.'
        }) {
            return Err(bad(
                "the name may only hold letters, digits, '_', '-', '.', '/' and '@'",
            ));
        }
        let mut params = Params::default();
        if let Some(body) = body {
            if body.contains('(') || body.contains(')') {
                return Err(bad("nested parentheses"));
            }
            for item in body.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let Some((k, v)) = item.split_once('=') else {
                    return Err(bad(&format!("'{item}' is not key=value")));
                };
                let (k, v) = (k.trim(), v.trim());
                if k.is_empty() || v.is_empty() {
                    return Err(bad(&format!("'{item}' has an empty key or value")));
                }
                if params.values.insert(k.to_string(), v.to_string()).is_some() {
                    return Err(bad(&format!("'{k}' is given twice")));
                }
            }
        }
        Ok(Spec {
            name: name.to_string(),
            params,
        })
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        if !self.params.values.is_empty() {
            let body: Vec<String> = self
                .params
                .values
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "({})", body.join(","))?;
        }
        Ok(())
    }
}

impl Params {
    /// Builds parameters from key/value pairs (used for presets and experiment files).
    pub fn from_pairs<K: Into<String>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Params {
        Params {
            values: pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
            used: Default::default(),
        }
    }

    /// Sets a value unless the key is already present (later sources do not override earlier ones).
    pub fn set_default(&mut self, key: &str, value: &str) {
        self.values
            .entry(key.to_string())
            .or_insert_with(|| value.to_string());
    }

    /// Sets a value, replacing any earlier one.
    pub fn set(&mut self, key: &str, value: &str) {
        self.values.insert(key.to_string(), value.to_string());
    }

    /// All key/value pairs.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// True when no parameter is set.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The raw text of a key, marking it used.
    pub fn raw(&mut self, key: &str) -> Option<String> {
        let v = self.values.get(key).cloned();
        if v.is_some() {
            self.used.insert(key.to_string());
        }
        v
    }

    fn parsed<T: std::str::FromStr>(
        &mut self,
        key: &str,
        default: T,
        expected: &str,
    ) -> Result<T, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| SpecError::BadValue {
                key: key.to_string(),
                value: v,
                expected: expected.to_string(),
            }),
        }
    }

    /// An unsigned integer in `min..=max`.
    pub fn int(&mut self, key: &str, default: u64, min: u64, max: u64) -> Result<u64, SpecError> {
        let expected = format!("an integer from {min} to {max}");
        let v: u64 = self.parsed(key, default, &expected)?;
        if v < min || v > max {
            return Err(SpecError::BadValue {
                key: key.to_string(),
                value: v.to_string(),
                expected,
            });
        }
        Ok(v)
    }

    /// A finite float in `min..=max`.
    pub fn float(&mut self, key: &str, default: f64, min: f64, max: f64) -> Result<f64, SpecError> {
        let expected = format!("a number from {min} to {max}");
        let v: f64 = self.parsed(key, default, &expected)?;
        if !v.is_finite() || v < min || v > max {
            return Err(SpecError::BadValue {
                key: key.to_string(),
                value: v.to_string(),
                expected,
            });
        }
        Ok(v)
    }

    /// `true`/`false` (also `on`/`off`, `yes`/`no`, `1`/`0`).
    pub fn bool(&mut self, key: &str, default: bool) -> Result<bool, SpecError> {
        match self.raw(key).as_deref() {
            None => Ok(default),
            Some("true" | "on" | "yes" | "1") => Ok(true),
            Some("false" | "off" | "no" | "0") => Ok(false),
            Some(v) => Err(SpecError::BadValue {
                key: key.to_string(),
                value: v.to_string(),
                expected: "true or false".to_string(),
            }),
        }
    }

    /// One of a fixed set of words; returns its index in `choices`.
    pub fn choice(
        &mut self,
        key: &str,
        default: usize,
        choices: &[&str],
    ) -> Result<usize, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => choices
                .iter()
                .position(|c| *c == v)
                .ok_or_else(|| SpecError::BadValue {
                    key: key.to_string(),
                    value: v,
                    expected: format!("one of {}", choices.join(", ")),
                }),
        }
    }

    /// A string (e.g. a file path), if given.
    pub fn text(&mut self, key: &str) -> Option<String> {
        self.raw(key)
    }

    /// Fails on the first key that no reader asked for, listing the allowed ones.
    pub fn finish(&self, owner: &str, allowed: &[&str]) -> Result<(), SpecError> {
        match self.values.keys().find(|k| !self.used.contains(*k)) {
            None => Ok(()),
            Some(k) => Err(SpecError::UnknownParam {
                owner: owner.to_string(),
                key: k.clone(),
                hint: crate::error::did_you_mean(k, allowed.iter().copied()),
                allowed: if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed.join(", ")
                },
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_params() {
        let s = Spec::parse(" fox(players=3, tiles=a.json) ").unwrap();
        assert_eq!(s.name, "fox");
        assert_eq!(s.to_string(), "fox(players=3,tiles=a.json)");
        assert_eq!(Spec::parse("random").unwrap().to_string(), "random");
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            "fox(",
            "fox(players)",
            "fox(a=1,a=2)",
            "fo x",
            "fox(a=(1))",
            "(a=1)",
            "fox(=3)",
        ] {
            assert!(Spec::parse(bad).is_err(), "{bad} should fail");
        }
    }

    #[test]
    fn typed_values_and_unknown_keys() {
        let mut s = Spec::parse("g(n=5,flag=on,mode=b,x=1.5,zzz=1)").unwrap();
        let p = &mut s.params;
        assert_eq!(p.int("n", 1, 1, 9).unwrap(), 5);
        assert!(p.bool("flag", false).unwrap());
        assert_eq!(p.choice("mode", 0, &["a", "b"]).unwrap(), 1);
        assert_eq!(p.float("x", 0.0, 0.0, 2.0).unwrap(), 1.5);
        assert_eq!(p.int("absent", 7, 1, 9).unwrap(), 7);
        let err = p
            .finish("g", &["n", "flag", "mode", "x"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("zzz") && err.contains("n, flag"), "{err}");
        let mut s = Spec::parse("g(n=10)").unwrap();
        assert!(
            s.params
                .int("n", 1, 1, 9)
                .unwrap_err()
                .to_string()
                .contains("from 1 to 9")
        );
    }
}

/// Splits a comma-separated list at top-level commas only, so
/// `mcts(iterations=10,c=2),random` is two items.
pub fn split_list(text: &str) -> Result<Vec<String>, SpecError> {
    let mut items = Vec::new();
    let (mut depth, mut current) = (0i32, String::new());
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        if depth < 0 {
            break;
        }
        current.push(c);
    }
    if depth != 0 {
        return Err(SpecError::Malformed {
            spec: text.to_string(),
            why: "unbalanced parentheses".into(),
        });
    }
    items.push(current);
    let items: Vec<String> = items.into_iter().map(|s| s.trim().to_string()).collect();
    if items.iter().any(String::is_empty) {
        return Err(SpecError::Malformed {
            spec: text.to_string(),
            why: "an empty item in the list".into(),
        });
    }
    Ok(items)
}

#[cfg(test)]
mod list_tests {
    use super::split_list;

    #[test]
    fn splits_at_top_level_commas() {
        assert_eq!(
            split_list("mcts(iterations=10,c=2), random").unwrap(),
            vec!["mcts(iterations=10,c=2)", "random"]
        );
        assert!(split_list("a,,b").is_err());
        assert!(split_list("mcts(a=1").is_err());
        assert!(split_list("a)(").is_err());
    }
}
