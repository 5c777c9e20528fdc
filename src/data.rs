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
        serde_json::from_str(&text).map_err(|e| fail(e.to_string()))?
    } else {
        toml::from_str(&text).map_err(|e| fail(e.to_string().replace('\n', " ")))?
    };
    validate(&value).map_err(fail)?;
    Ok(value)
}

/// Largest data or preset file read, so that a path such as `/dev/zero` is
/// an error rather than memory exhaustion.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a user file as UTF-8 text of at most [`MAX_FILE_BYTES`].
pub fn read_text(path: &str) -> Result<String, SpecError> {
    use std::io::Read;
    let fail = |why: String| SpecError::DataFile {
        path: path.to_string(),
        why,
    };
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(format!("larger than {} MiB", MAX_FILE_BYTES >> 20)));
    }
    String::from_utf8(bytes).map_err(|e| fail(format!("not UTF-8 text: {e}")))
}
