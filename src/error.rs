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
    #[error("unknown game '{name}' (known games: {known})")]
    UnknownGame {
        /// The name given.
        name: String,
        /// Comma-separated list of valid names.
        known: String,
    },
    /// No agent kind or preset of that name.
    #[error("unknown agent '{name}' (known agents: {known})")]
    UnknownAgent {
        /// The name given.
        name: String,
        /// Comma-separated list of valid names.
        known: String,
    },
    /// A parameter the game or agent does not have.
    #[error("{owner} has no parameter '{key}' (allowed: {allowed})")]
    UnknownParam {
        /// The game or agent.
        owner: String,
        /// The unknown key.
        key: String,
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
