//! `boardlab report DIR`: the study's dashboard (see [`crate::report::dashboard`]).

use std::path::PathBuf;

use anyhow::Result;

use crate::report::dashboard;

/// Arguments of `report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// A run directory (games.csv), an experiment directory (cells.csv), a
    /// meta-game (metagame.json) or a design search (design.json).
    pub dir: PathBuf,
}

pub(super) fn run(a: ReportArgs) -> Result<()> {
    let _out = crate::fsutil::OutputLock::hold_existing(&a.dir)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", a.dir.display()))?;
    // A meta-game or design folder has a page of its own; any other study the dashboard's.
    let page =
        crate::metagame::page::dashboard(&a.dir).or_else(|| crate::design::page::dashboard(&a.dir));
    let d = match page {
        Some(d) => {
            dashboard::save(&a.dir, &d).map_err(anyhow::Error::msg)?;
            d
        }
        None => {
            crate::report::stream::check_games_count(&a.dir).map_err(anyhow::Error::msg)?;
            dashboard::write(&a.dir).map_err(anyhow::Error::msg)?
        }
    };
    println!(
        "{}: {} sections in {} and {}",
        d.title,
        d.sections.len(),
        a.dir.join(crate::files::HTML_FILE).display(),
        a.dir.join(crate::files::MARKDOWN_FILE).display()
    );
    Ok(())
}
