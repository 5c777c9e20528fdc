//! Component data (cards, tiles, boards): embedded defaults, user overrides.
//!
//! Each game keeps its component tables as TOML files under version control next
//! to its code, embeds them with `include_str!`, and lets the user replace them
//! with a parameter naming a file (TOML or JSON by extension).

use serde::de::DeserializeOwned;

use crate::error::SpecError;

/// Parses `path` if given, else the embedded default text (TOML).
/// `validate` checks the parsed value (counts, ranges) and explains what is wrong.
pub fn load<T: DeserializeOwned>(
    path: Option<&str>,
    embedded: &str,
    validate: impl Fn(&T) -> Result<(), String>,
) -> Result<T, SpecError> {
    let (name, text) = match path {
        None => ("<embedded default>".to_string(), embedded.to_string()),
        Some(p) => (p.to_string(), read_text(p)?),
    };
    let fail = |why: String| SpecError::DataFile {
        path: name.clone(),
        why,
    };
    let value: T = if name.ends_with(".json") {
        parse_json(&text).map_err(fail)?
    } else {
        parse_toml(&text).map_err(fail)?
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
