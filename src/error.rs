//! Typed errors whose messages tell the user what to change.

use thiserror::Error;

/// A problem with a game or agent spec, a preset or a data file.
#[derive(Debug, Error)]
pub enum SpecError {
    /// The spec string does not follow `name(key=value,...)`.
    #[error("malformed spec '{spec}': {why} (expected name or name(key=value,...))")]
    Malformed {
        /// The text given.
        spec: String,
        /// What is wrong with it.
        why: String,
    },
    /// No game of that name.
    #[error("unknown game '{name}'{hint} (known games: {known})")]
    UnknownGame {
        /// The name given.
        name: String,
        /// ", did you mean 'x'?" when a known name is close, else empty.
        hint: String,
        /// Comma-separated list of valid names.
        known: String,
    },
    /// No agent kind or preset of that name.
    #[error("unknown agent '{name}'{hint} (known agents: {known})")]
    UnknownAgent {
        /// The name given.
        name: String,
        /// ", did you mean 'x'?" when a known name is close, else empty.
        hint: String,
        /// Comma-separated list of valid names.
        known: String,
    },
    /// A parameter the game or agent does not have.
    #[error("{owner} has no parameter '{key}'{hint} (allowed: {allowed})")]
    UnknownParam {
        /// The game or agent.
        owner: String,
        /// The unknown key.
        key: String,
        /// ", did you mean 'x'?" when an allowed key is close, else empty.
        hint: String,
        /// Comma-separated list of valid keys.
        allowed: String,
    },
    /// A parameter value out of range or of the wrong type.
    #[error("bad value '{value}' for '{key}': expected {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// A data file (cards, tiles, boards, presets) that cannot be read or parsed.
    #[error("cannot use data file '{path}': {why}")]
    DataFile {
        /// The file path.
        path: String,
        /// The reason.
        why: String,
    },
    /// Any other invalid combination, explained in words.
    #[error("{0}")]
    Invalid(String),
}

/// ", did you mean 'x'?" for the known name closest to a mistyped `name`
/// (Jaro–Winkler similarity of at least 0.8, as clap uses for subcommands),
/// or an empty string when none is close.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let name = name.to_ascii_lowercase();
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(&name, &k.to_ascii_lowercase()), k))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map_or_else(String::new, |(_, k)| format!(", did you mean '{k}'?"))
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn close_names_are_suggested_and_far_ones_are_not() {
        let known = ["karmaka", "karmox", "fox", "hamunaptra"];
        assert_eq!(did_you_mean("karmka", known), ", did you mean 'karmaka'?");
        assert_eq!(
            did_you_mean("Hamunaptra", known),
            ", did you mean 'hamunaptra'?"
        );
        assert_eq!(did_you_mean("chess", known), "");
    }
}
