//! `boardlab report DIR`: the study's dashboard (see [`crate::report::dashboard`]).

use anyhow::Result;

use super::ReportArgs;
use crate::report::dashboard;

pub(super) fn run(a: ReportArgs) -> Result<()> {
    crate::report::stream::check_games_count(&a.dir).map_err(anyhow::Error::msg)?;
    let _out = crate::fsutil::OutputLock::hold_existing(&a.dir)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", a.dir.display()))?;
    let d = dashboard::write(&a.dir).map_err(anyhow::Error::msg)?;
    println!(
        "{}: {} sections in {} and {}",
        d.title,
        d.sections.len(),
        a.dir.join(dashboard::HTML_FILE).display(),
        a.dir.join(dashboard::MARKDOWN_FILE).display()
    );
    Ok(())
}
