//! Balance methods for designers, all with identical agents in every seat so
//! that any difference between seats is the game's: balance as skill grows
//! (`skill`, `boardlab balance`), the compensation solver (`fair`,
//! `boardlab fair`) and component ablation (`ablate`, `boardlab ablate`).
//!
//! Games are played through the runner's [`play_indexed`](crate::arena::play_indexed), so their seeds,
//! seatings and duplicate deals are those of `boardlab run`, and every result
//! is the same for any thread count.

pub mod ablate;
pub mod fair;
pub mod page;
pub mod paired;
pub mod records;
pub mod shard;
pub mod skill;

use anyhow::{Result, bail};
use serde::Serialize;

use crate::agents::registry::AgentSpec;
use crate::arena::PlayedGame;
use crate::arena::record::role_parts;
use crate::game::Game;
use crate::stats::rate::{Rate, clustered_rate};

/// Whom a rate is about: a seat or a role (faction, character…).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Group {
    /// A seat number.
    Seat(u8),
    /// A role label as the game names it.
    Role(String),
}

impl Group {
    /// `seat 0` or `role Foxes`.
    pub fn label(&self) -> String {
        match self {
            Group::Seat(s) => format!("seat {s}"),
            Group::Role(r) => format!("role {r}"),
        }
    }
}

/// The unit of luck game `game_index` belongs to: itself, or its deal with
/// duplicate deals (one game per seating).
pub fn cluster(game_index: u64, seats: usize, duplicate: bool) -> u64 {
    if duplicate {
        game_index / seats as u64
    } else {
        game_index
    }
}

/// The rate of `group` over `games`; clusters are games, or deals with duplicate deals.
pub fn group_rate(games: &[PlayedGame], group: &Group, seats: usize, duplicate: bool) -> Rate {
    let units: Vec<(u64, f64)> = games
        .iter()
        .flat_map(|g| &g.rows)
        .filter(|r| match group {
            Group::Seat(s) => r.seat == *s,
            Group::Role(role) => !r.role.is_empty() && role_parts(&r.role).contains(role),
        })
        .map(|r| (cluster(r.game_index, seats, duplicate), r.outcome.points()))
        .collect();
    clustered_rate(&units)
}

/// Every seat, then every role seen in `games` in name order; a seat holding
/// a drafted set (`a+b`) counts for each member, never as the combination.
pub fn groups(games: &[PlayedGame], seats: usize) -> Vec<Group> {
    let mut roles: Vec<String> = games
        .iter()
        .flat_map(|g| &g.rows)
        .filter(|r| !r.role.is_empty())
        .flat_map(|r| role_parts(&r.role))
        .collect();
    roles.sort();
    roles.dedup();
    (0..seats as u8)
        .map(Group::Seat)
        .chain(roles.into_iter().map(Group::Role))
        .collect()
}

/// Checks that `agent` builds for `game`, so the runner never meets a bad spec.
pub fn check_agent_any<G: Game>(game: &G, agent: &AgentSpec) -> Result<()> {
    agent.build::<G>()?;
    agent.check_game(game)?;
    Ok(())
}

/// Writes `text` to `dir/name` through a temporary file.
pub fn save(dir: &std::path::Path, name: &str, text: &str) -> Result<()> {
    let path = dir.join(name);
    let tmp = dir.join(format!("{name}.tmp"));
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Creates `dir` and holds it for writing (see [`crate::fsutil::OutputLock`]),
/// refusing to overwrite `file` there without `force`.
pub fn prepare_out(
    dir: &std::path::Path,
    file: &str,
    force: bool,
) -> Result<crate::fsutil::OutputLock> {
    let lock = crate::fsutil::OutputLock::claim(dir)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", dir.display()))?;
    if dir.join(file).exists() && !force {
        bail!(
            "{} already holds {file} (use --force to overwrite, or another --out)",
            dir.display()
        );
    }
    Ok(lock)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::identical::play_identical;
    use crate::arena::pool;

    #[test]
    fn drafted_sets_are_rated_member_by_member() {
        // Hamunaptra seats hold a drafted set of characters (`a+b+c+d`).
        let game = crate::games::hamunaptra::Hamunaptra::from_spec_text("hamunaptra").unwrap();
        let agent = AgentSpec::parse("random").unwrap();
        let games = play_identical(&game, &agent, 0..6, 1, false, &pool(1).unwrap());
        let groups = groups(&games, 2);
        let roles: Vec<&String> = groups
            .iter()
            .filter_map(|g| match g {
                Group::Role(r) => Some(r),
                Group::Seat(_) => None,
            })
            .collect();
        assert!(roles.len() > 2, "{roles:?}");
        assert!(roles.iter().all(|r| !r.contains('+')), "{roles:?}");
        // Each member counts every seat that held it, once per game.
        for role in roles {
            let held = games
                .iter()
                .flat_map(|g| &g.rows)
                .filter(|r| r.role.split('+').any(|m| m == role.as_str()))
                .count();
            let rate = group_rate(&games, &Group::Role(role.clone()), 2, false);
            assert_eq!(rate.n, held as u64, "{role}");
        }
    }
}
