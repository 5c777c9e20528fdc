//! `boardlab report DIR`: the study's dashboard (see [`crate::report::dashboard`]).

use std::path::PathBuf;

use anyhow::Result;

use crate::report::dashboard;

/// Arguments of `report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// A run directory (games.csv), an experiment directory (cells.csv), a
    /// meta-game (metagame.json), a design search (design.json) or a
    /// variant against its base (paired.csv, from `compare`).
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
            // A `compare` output opens with the variant against its base; the
            // two studies' own sections (in its subfolders) follow when present.
            let paired =
                crate::balance::page::paired_sections(&a.dir).map_err(anyhow::Error::msg)?;
            let d = match dashboard::build(&a.dir) {
                Ok(mut d) => {
                    d.sections.splice(0..0, paired);
                    d
                }
                // Nothing but the differences (compare --out to a new folder).
                Err(_) if !paired.is_empty() && !holds_games(&a.dir) => dashboard::Dashboard {
                    title: "Variant against base".into(),
                    intro: Vec::new(),
                    sections: paired,
                },
                Err(e) => anyhow::bail!(e),
            };
            dashboard::save(&a.dir, &d).map_err(anyhow::Error::msg)?;
            d
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

/// Whether `dir` holds a run's or an experiment's games.
fn holds_games(dir: &std::path::Path) -> bool {
    dir.join(crate::files::GAMES_FILE).exists() || dir.join("cells.csv").exists()
}
