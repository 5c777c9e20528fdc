//! `boardlab design`: a search of a variant space for a fair game that plays
//! well (see [`crate::design`]).

use std::path::PathBuf;

use anyhow::{Context, Result};

use super::{Output, Registry, Seed, Threads, help, required};
use crate::design::DesignOptions;
use crate::design::space::Space;

/// Arguments of `design`.
#[derive(Debug, clap::Args)]
#[command(
    mut_args(help("seed", "Master seed: every variant plays the same game seeds")),
    mut_args(required("out")),
    mut_args(help(
        "out",
        "Output directory: design.json, ranking.csv, design.md, space.toml and every game (stage-K/)"
    )),
    mut_args(help("force", "Replace an earlier search in --out"))
)]
pub struct DesignArgs {
    /// The variant space: a TOML file naming the base game, the parameters
    /// to vary, what fair means, quality limits and the stages (see the
    /// README's "Finding a fair variant").
    pub space: PathBuf,
    /// `--seed`.
    #[command(flatten)]
    pub seed: Seed,
    /// `--threads`.
    #[command(flatten)]
    pub threads: Threads,
    /// `--out` and `--force`.
    #[command(flatten)]
    pub output: Output,
    /// Continue an interrupted search in --out with the same space and seed: complete games are kept.
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

pub(super) fn run(a: DesignArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    let what = a.space.display().to_string();
    let text = crate::fsutil::read_text(&a.space, 1 << 20)
        .with_context(|| format!("cannot read the space file {what}"))?;
    let space = Space::parse(&text, &what)?;
    let opts = DesignOptions {
        space,
        space_text: text,
        seed: a.seed.seed,
        threads: a.threads.threads,
        out: a.output.dir()?.to_path_buf(),
        force: a.output.force,
        resume: a.resume,
        progress: !a.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        command: crate::provenance::command_line(),
    };
    let design = crate::design::run(registry, &opts)?;
    let survived = design
        .variants
        .iter()
        .filter(|v| v.status != "dropped")
        .count();
    println!(
        "{}: {} variants, {survived} survived every stage",
        design.game,
        design.variants.len()
    );
    println!("{}", design.verdict);
    println!("results in {}", opts.out.display());
    Ok(())
}
