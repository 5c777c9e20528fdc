//! `boardlab ablate`: component ablation (see [`crate::balance::ablate`]).

use anyhow::Result;

use super::{AblateArgs, Registry};
use crate::balance::ablate::{AblateOptions, ablate_in};
use crate::balance::{prepare_out, save};
use crate::spec::split_list;

pub(super) fn run(a: AblateArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    let out = a.output.dir()?;
    let game = registry.command_game(&a.game.game)?;
    let only = match &a.components {
        Some(list) => Some(split_list(list)?),
        None => None,
    };
    let opts = AblateOptions {
        agent: a.agent.clone(),
        games: a.games,
        only,
        seed: a.seed.seed,
        threads: a.threads.threads,
    };
    let _out = prepare_out(out, "ablate.csv", a.output.force)?;
    let r = ablate_in(registry, &*game, &opts)?;
    save(out, "ablate.csv", &r.to_csv())?;
    save(out, "ablate.json", &serde_json::to_string_pretty(&r)?)?;
    let md = r.to_markdown();
    save(out, "ablate.md", &md)?;
    print!("{md}");
    Ok(())
}
