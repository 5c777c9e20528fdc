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
        Some(p) => (
            p.to_string(),
            std::fs::read_to_string(p).map_err(|e| SpecError::DataFile {
                path: p.to_string(),
                why: e.to_string(),
            })?,
        ),
    };
    let fail = |why: String| SpecError::DataFile {
        path: name.clone(),
        why,
    };
    let value: T = if name.ends_with(".json") {
        serde_json::from_str(&text).map_err(|e| fail(e.to_string()))?
    } else {
        toml::from_str(&text).map_err(|e| fail(e.to_string().replace('\n', " ")))?
    };
    validate(&value).map_err(fail)?;
    Ok(value)
}
