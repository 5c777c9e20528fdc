//! `boardlab view`: a trace drawn as one self-contained HTML page.

use anyhow::{Context, Result, anyhow};

use super::ViewArgs;
use crate::with_game;

pub(super) fn run(a: ViewArgs) -> Result<()> {
    let (header, game, lines) = super::commands::open_trace(&a.file, a.game.as_deref())?;
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| a.file.with_extension("html"));
    let html = with_game!(&game, g => {
        let replay = crate::view::replay(g, header, &lines).map_err(|e| anyhow!("{e}"))?;
        let steps = replay.steps.len();
        (crate::view::page(g, &replay), steps)
    });
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
