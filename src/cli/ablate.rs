//! `boardlab ablate`: component ablation (see [`crate::balance::ablate`]).

use anyhow::Result;

use super::{AblateArgs, Registry};
use crate::balance::ablate::{AblateOptions, ablate_in};
use crate::balance::{prepare_out, save};
use crate::spec::split_list;

pub(super) fn run(a: AblateArgs, registry: &Registry) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    let game = registry.command_game(&a.game)?;
    let only = match &a.components {
        Some(list) => Some(split_list(list)?),
        None => None,
    };
    let opts = AblateOptions {
        agent: a.agent.clone(),
        games: a.games,
        only,
        seed: a.seed,
        threads: a.threads,
    };
    let _out = prepare_out(&a.out, "ablate.csv", a.force)?;
    let r = ablate_in(registry, &*game, &opts)?;
    save(&a.out, "ablate.csv", &r.to_csv())?;
    save(&a.out, "ablate.json", &serde_json::to_string_pretty(&r)?)?;
    let md = r.to_markdown();
    save(&a.out, "ablate.md", &md)?;
    print!("{md}");
    Ok(())
}
