//! `boardlab ablate`: component ablation (see [`crate::balance::ablate`]).

use anyhow::Result;

use super::AblateArgs;
use crate::balance::ablate::{AblateOptions, ablate};
use crate::balance::{prepare_out, save};
use crate::games::AnyGame;
use crate::spec::split_list;
use crate::with_game;

pub(super) fn run(a: AblateArgs) -> Result<()> {
    crate::arena::play::quiet_contained_panics();
    let game = AnyGame::parse(&a.game)?;
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
    if a.out.join("ablate.csv").exists() && !a.force {
        prepare_out(&a.out, "ablate.csv", a.force)?;
    }
    let r = with_game!(&game, g => ablate(g, &opts))?;
    prepare_out(&a.out, "ablate.csv", a.force)?;
    save(&a.out, "ablate.csv", &r.to_csv())?;
    save(&a.out, "ablate.json", &serde_json::to_string_pretty(&r)?)?;
    let md = r.to_markdown();
    save(&a.out, "ablate.md", &md)?;
    print!("{md}");
    Ok(())
}
