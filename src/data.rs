//! Component data (cards, tiles, boards): embedded defaults, user overrides.
//!
//! Each game keeps its component tables as TOML files under version control next
//! to its code, embeds them with `include_str!`, and lets the user replace them
//! with a parameter naming a file (TOML or JSON by extension).

use std::any::{Any, TypeId};
use std::sync::Mutex;

use serde::de::DeserializeOwned;

use crate::error::SpecError;

/// Parses `path` if given, else the embedded default text (TOML).
/// `validate` checks the parsed value (counts, ranges) and explains what is wrong.
pub fn load<T: DeserializeOwned + Clone + Send + Sync + 'static>(
    path: Option<&str>,
    embedded: &'static str,
    validate: impl Fn(&T) -> Result<(), String>,
) -> Result<T, SpecError> {
    match path {
        None => embedded_default(embedded, || {
            parse_named("<embedded default>", embedded, &validate)
        }),
        Some(p) => parse_named(p, &read_text(p)?, &validate),
    }
}

/// `parse` of the embedded default `text`, run once per process and cloned
/// afterwards: a sweep of thousands of cells builds thousands of games, and
/// parsing the same text for each one dominated an experiment's start.
/// An error is not kept (it is the data's bug, reported at first use).
pub fn embedded_default<T: Clone + Send + Sync + 'static>(
    text: &'static str,
    parse: impl FnOnce() -> Result<T, SpecError>,
) -> Result<T, SpecError> {
    type Parsed = (TypeId, &'static str, Box<dyn Any + Send + Sync>);
    static PARSED: Mutex<Vec<Parsed>> = Mutex::new(Vec::new());
    let find = |parsed: &[Parsed]| {
        parsed
            .iter()
            .find(|(ty, t, _)| *ty == TypeId::of::<T>() && *t == text)
            .and_then(|(_, _, value)| value.downcast_ref::<T>().cloned())
    };
    if let Some(value) = find(&PARSED.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(value);
    }
    let value = parse()?;
    let mut parsed = PARSED.lock().unwrap_or_else(|e| e.into_inner());
    if find(&parsed).is_none() {
        parsed.push((TypeId::of::<T>(), text, Box::new(value.clone())));
    }
    Ok(value)
}

/// `text` read from the file `name` (JSON by extension, else TOML), checked.
fn parse_named<T: DeserializeOwned>(
    name: &str,
    text: &str,
    validate: impl Fn(&T) -> Result<(), String>,
) -> Result<T, SpecError> {
    let fail = |why: String| SpecError::DataFile {
        path: name.to_string(),
        why,
    };
    let value: T = if name.ends_with(".json") {
        parse_json(text).map_err(fail)?
    } else {
        parse_toml(text).map_err(fail)?
    };
    validate(&value).map_err(fail)?;
    Ok(value)
}

/// Parses TOML text. A file that is not TOML at all is reported by position
/// only: its text is never quoted, since a wrong path (`/etc/passwd`,
/// `/proc/self/environ`) would otherwise print what it holds. Errors in a
/// well-formed TOML file name its keys and values as usual.
pub fn parse_toml<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    if let Err(e) = toml::from_str::<toml::Table>(text) {
        return Err(format!(
            "not a valid TOML file ({})",
            position(text, e.span())
        ));
    }
    toml::from_str(text).map_err(|e| {
        format!(
            "{} ({}{})",
            e.message().trim().replace('\n', " "),
            key_at(text, e.span()),
            position(text, e.span())
        )
    })
}

/// Parses JSON text; like [`parse_toml`], a file that is not JSON is reported
/// by position only.
pub fn parse_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => e.to_string(),
        _ => format!(
            "not a valid JSON file (line {}, column {})",
            e.line(),
            e.column()
        ),
    })
}

/// "key 'K', " when the line of a span's start in a well-formed TOML file
/// reads `K = ...`.
fn key_at(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    let Some(at) = span.map(|s| s.start.min(text.len())) else {
        return String::new();
    };
    let start = text[..at].rfind('\n').map_or(0, |p| p + 1);
    let line = text[start..].lines().next().unwrap_or("");
    match line.split_once('=') {
        Some((key, _))
            if !key.trim().is_empty()
                && key
                    .trim()
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)) =>
        {
            format!("key '{}', ", key.trim())
        }
        _ => String::new(),
    }
}

/// "line L, column C" of a byte span's start.
fn position(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    let Some(at) = span.map(|s| s.start.min(text.len())) else {
        return "position unknown".into();
    };
    let before = text.as_bytes()[..at].iter();
    let line = 1 + before.clone().filter(|&&b| b == b'\n').count();
    let column = 1 + text.as_bytes()[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .count();
    format!("line {line}, column {column}")
}

/// Reads a user file as UTF-8 text: a regular file of at most
/// [`crate::fsutil::MAX_TEXT_BYTES`].
pub fn read_text(path: &str) -> Result<String, SpecError> {
    crate::fsutil::read_text(std::path::Path::new(path), crate::fsutil::MAX_TEXT_BYTES).map_err(
        |e| SpecError::DataFile {
            path: path.to_string(),
            why: e.to_string(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An embedded default is parsed once a process, then handed out as
    /// copies; a failed parse is not kept, so it fails again, each time.
    #[test]
    fn an_embedded_default_is_parsed_once() {
        static TEXT: &str = "n = 3";
        #[derive(Clone, Debug, PartialEq, serde::Deserialize)]
        struct N {
            n: u32,
        }
        let calls = std::cell::Cell::new(0);
        let parse = || {
            calls.set(calls.get() + 1);
            parse_named::<N>("<embedded default>", TEXT, |_| Ok(()))
        };
        assert_eq!(embedded_default(TEXT, parse).unwrap(), N { n: 3 });
        assert_eq!(embedded_default(TEXT, parse).unwrap(), N { n: 3 });
        assert_eq!(calls.get(), 1);
        static BAD: &str = "n = ";
        let failing = || {
            calls.set(calls.get() + 1);
            parse_named::<N>("<embedded default>", BAD, |_| Ok(()))
        };
        assert!(embedded_default(BAD, failing).is_err());
        assert!(embedded_default(BAD, failing).is_err());
        assert_eq!(calls.get(), 3);
    }
}
