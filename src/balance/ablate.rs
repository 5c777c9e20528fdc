//! Component ablation (`boardlab ablate`): each component of
//! [`Reporting::ablations`](crate::game::Reporting::ablations) is taken away through its spec parameter and the game
//! replayed on the same seeds (common random numbers). In every game where
//! some seat held or played the component, the effect is that seat's result
//! with the component minus its result without it, on the same seed: a causal
//! value of the component to whoever holds it, not the correlation of "seats
//! that played it won more". Games are the independent units (several holders
//! of one game are averaged), so the interval is a paired mean over games.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use serde::Serialize;

use crate::arena::{PlayedGame, rounded_games};
use crate::game::{Ablation, Game};
use crate::runtime::{Builtin, DynGame, GameSource, Typed};
use crate::spec::Spec;
use crate::stats::seat_tests::mean_interval;

/// What to ablate.
#[derive(Clone, Debug)]
pub struct AblateOptions {
    /// Identical agent in every seat.
    pub agent: String,
    /// Games with and without each component.
    pub games: u64,
    /// Only these components (by name), or all.
    pub only: Option<Vec<String>>,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

/// One component's effect.
#[derive(Clone, Debug, Serialize)]
pub struct Effect {
    /// The component.
    pub component: String,
    /// The parameter that removes it, `key=value`.
    pub param: String,
    /// Games in which some seat held or played it.
    pub games_held: u64,
    /// Holders' win rate with the component.
    pub with: f64,
    /// The same seats' win rate on the same seeds without it.
    pub without: f64,
    /// Mean paired effect `with − without`.
    pub effect: f64,
    /// 95 % interval of the effect.
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// Two-sided p-value of "no effect".
    pub p_value: f64,
}

/// The effects of every component.
#[derive(Clone, Debug, Serialize)]
pub struct AblateResult {
    /// Base game spec.
    pub game: String,
    /// The agent.
    pub agent: String,
    /// Games per side.
    pub games: u64,
    /// Per component, in the game's order.
    pub effects: Vec<Effect>,
}

/// The paired effect of one ablation from the base games and the ablated games.
pub fn effect(ab: &Ablation, base: &[PlayedGame], ablated: &[PlayedGame]) -> Effect {
    let (mut diffs, mut with, mut without, mut holders) = (Vec::new(), 0.0, 0.0, 0.0f64);
    for (g, h) in base.iter().zip(ablated) {
        let seats: Vec<u8> = g
            .metrics
            .iter()
            .filter(|m| m.metric == ab.holder_metric && m.value > 0.0)
            .map(|m| m.seat)
            .collect();
        if seats.is_empty() {
            continue;
        }
        let pts = |rows: &[crate::arena::record::GameRow], s: u8| {
            rows.iter()
                .find(|r| r.seat == s)
                .map_or(0.5, |r| r.outcome.points())
        };
        let mut d = 0.0;
        for &s in &seats {
            let (a, b) = (pts(&g.rows, s), pts(&h.rows, s));
            with += a;
            without += b;
            holders += 1.0;
            d += a - b;
        }
        diffs.push(d / seats.len() as f64);
    }
    let (mean, low, high, p) = mean_interval(&diffs);
    let h = holders.max(1.0);
    Effect {
        component: ab.component.clone(),
        param: format!("{}={}", ab.param.0, ab.param.1),
        games_held: diffs.len() as u64,
        with: with / h,
        without: without / h,
        effect: mean,
        low,
        high,
        p_value: p,
    }
}

/// Measures every (selected) component of `game`'s [`Reporting::ablations`](crate::game::Reporting::ablations).
pub fn ablate<G: Game + Clone>(game: &G, o: &AblateOptions) -> Result<AblateResult> {
    ablate_in(&Builtin::default(), &Typed::new(game.clone(), &[]), o)
}

/// [`ablate`] for a game of `source`, whose specs build the ablated variants.
pub fn ablate_in(
    source: &dyn GameSource,
    game: &dyn DynGame,
    o: &AblateOptions,
) -> Result<AblateResult> {
    let mut list = game.ablations();
    if list.is_empty() {
        bail!(
            "{} lists no components to ablate (games with ablations: planted, karmaka)",
            game.spec()
        );
    }
    if let Some(only) = &o.only {
        for name in only {
            if !list.iter().any(|a| &a.component == name) {
                bail!(
                    "{} has no component '{name}'; it has: {}",
                    game.spec(),
                    list.iter()
                        .map(|a| a.component.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
        list.retain(|a| only.contains(&a.component));
    }
    game.check_agents(std::slice::from_ref(&o.agent))?;
    let base_spec = Spec::parse(&game.spec())?;
    let pool = crate::arena::pool(o.threads).map_err(anyhow::Error::msg)?;
    let total = rounded_games(o.games, game.num_players());
    let base = game.play_identical(&o.agent, 0..total, o.seed, false, &pool)?;
    let mut effects = Vec::new();
    for ab in &list {
        let mut spec = base_spec.clone();
        spec.params.set(&ab.param.0, &ab.param.1);
        let ablated_game = source.game(&spec)?;
        if ablated_game.num_players() != game.num_players() {
            bail!("{spec} changes the number of seats");
        }
        let ablated = ablated_game.play_identical(&o.agent, 0..total, o.seed, false, &pool)?;
        effects.push(effect(ab, &base, &ablated));
    }
    Ok(AblateResult {
        game: game.spec(),
        agent: o.agent.clone(),
        games: total,
        effects,
    })
}

impl AblateResult {
    /// `ablate.csv`: one row per component.
    pub fn to_csv(&self) -> String {
        let mut s =
            String::from("component,param,games_held,with,without,effect,low,high,p_value\n");
        for e in &self.effects {
            let _ = writeln!(
                s,
                "\"{}\",\"{}\",{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}",
                e.component,
                e.param,
                e.games_held,
                e.with,
                e.without,
                e.effect,
                e.low,
                e.high,
                e.p_value
            );
        }
        s
    }

    /// `ablate.md`: the effects, largest first.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "## Component ablation: {}\n", self.game);
        let _ = writeln!(
            s,
            "{} in every seat, {} games with and {} without each component on the same seeds. Effect: \
             the holder's win rate with the component minus the same seat's without it (paired over games \
             in which some seat held or played it).\n",
            self.agent, self.games, self.games
        );
        let _ = writeln!(
            s,
            "| component | games held | with | without | effect [95 %] | p |\n|---|---:|---:|---:|---|---:|"
        );
        let mut order: Vec<&Effect> = self.effects.iter().collect();
        order.sort_by(|a, b| b.effect.total_cmp(&a.effect));
        for e in order {
            let _ = writeln!(
                s,
                "| {} | {} | {:.3} | {:.3} | {:+.3} [{:+.3}, {:+.3}] | {:.3} |",
                e.component, e.games_held, e.with, e.without, e.effect, e.low, e.high, e.p_value
            );
        }
        s
    }
}
