//! `boardlab verify`: one line per run directory, a verdict per study.

use std::path::PathBuf;

use std::process::ExitCode;

use anyhow::{Result, bail};

use super::Threads;
use crate::verify::{Status, verify_study};

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Study folders: each holds run.json, or run folders below it (cells/c000, ...).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Games replayed per run (the first ones of the run).
    #[arg(long, default_value_t = crate::files::SAMPLE_GAMES)]
    pub sample: usize,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
}

pub(super) fn run(a: VerifyArgs) -> Result<ExitCode> {
    crate::arena::play::quiet_contained_panics();
    if a.sample == 0 {
        bail!("--sample must be at least 1 game per run");
    }
    for d in &a.dirs {
        if !d.is_dir() {
            bail!(
                "{} is not a directory: verify takes study folders",
                d.display()
            );
        }
    }
    let mut ok = true;
    for d in &a.dirs {
        let checks = verify_study(d, a.sample, a.threads.threads);
        let passes = checks.iter().all(|c| c.status.passes());
        for c in &checks {
            match &c.status {
                Status::Fresh => {
                    println!("fresh  {} ({} games replayed)", c.dir.display(), c.games)
                }
                Status::Skipped(why) => println!("skipped {}: {why}", c.dir.display()),
                other => println!("{other}  [{}]", c.dir.display()),
            }
        }
        let verdict = if !passes {
            checks
                .iter()
                .find(|c| !c.status.passes())
                .map_or("stale", |c| match c.status {
                    Status::Stale(_) => "stale",
                    Status::Incomplete(_) => "incomplete",
                    _ => "not reproducible",
                })
        } else if matches!(checks[0].status, Status::Superseded(_)) {
            "superseded"
        } else {
            "fresh"
        };
        println!("{}: {verdict}", d.display());
        ok &= passes;
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
