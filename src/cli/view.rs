//! `boardlab view`: a trace drawn as one self-contained HTML page.

use std::path::PathBuf;

use anyhow::{Context, Result};

use super::{GameArg, Output, Registry, help, optional};

/// Arguments of `view`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help("out", "The HTML file to write (default: the trace's name with .html)")),
    mut_args(help("force", "Replace the HTML file if it exists")),
    mut_args(optional("game")),
    mut_args(help(
        "game",
        "The trace's game spec, required when it names data files (as for `replay`)"
    ))
)]
pub struct ViewArgs {
    /// A trace file (game-NNNNNNNN.jsonl) written by `run --trace`.
    pub file: PathBuf,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
    /// `--game`, optional.
    #[command(flatten)]
    pub game: Option<GameArg>,
}

pub(super) fn run(a: ViewArgs, registry: &Registry) -> Result<()> {
    let (header, game, lines) =
        super::commands::open_trace(registry, &a.file, a.game.as_ref().map(|g| g.game.as_str()))?;
    let out = a
        .output
        .out
        .clone()
        .unwrap_or_else(|| a.file.with_extension("html"));
    crate::fsutil::check_new(&out, a.output.force)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let html = game.view(header, &lines)?;
    crate::fsutil::write_atomic(&out, html.0.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "{} steps drawn in {} ({} KB)",
        html.1,
        out.display(),
        html.0.len().div_ceil(1024)
    );
    Ok(())
}
