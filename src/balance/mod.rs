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
use std::collections::BTreeMap;

use crate::stats::rate::{Rate, clustered_rate, clustered_rate_counted};

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

/// One group's clusters read in game order: the open cluster (its id,
/// points doubled and units) and how many closed ones had each (points
/// doubled, units), for [`clustered_rate_counted`].
#[derive(Clone, Debug, Default)]
struct Clusters {
    open: Option<(u64, u64, u64)>,
    closed: BTreeMap<(u64, u64), u64>,
}

impl Clusters {
    /// Adds a unit of `half_points` (points doubled) to cluster `id`.
    fn add(&mut self, id: u64, half_points: u64) {
        match &mut self.open {
            Some((c, p, n)) if *c == id => {
                *p += half_points;
                *n += 1;
            }
            open => {
                if let Some((_, p, n)) = open.replace((id, half_points, 1)) {
                    *self.closed.entry((p, n)).or_default() += 1;
                }
            }
        }
    }

    fn rate(&self) -> Rate {
        let mut all = self.closed.clone();
        if let Some((_, p, n)) = self.open {
            *all.entry((p, n)).or_default() += 1;
        }
        clustered_rate_counted(&all)
    }
}

/// The games of one budget read one at a time, in index order: what
/// [`groups`], [`group_rate`] and the endings' shares would give over all of
/// them, and the first [`SAMPLE_GAMES`](crate::files::SAMPLE_GAMES) games,
/// kept in counters that grow with the kinds of clusters, not the games.
#[derive(Clone, Debug)]
pub struct BudgetGames {
    seats: usize,
    duplicate: bool,
    /// Games read.
    pub games: u64,
    by_seat: Vec<Clusters>,
    by_role: BTreeMap<String, Clusters>,
    /// Every game as a unit of no points: the clusters an ending not seen
    /// before starts from.
    all: Clusters,
    endings: BTreeMap<String, Clusters>,
    /// The first games, as played.
    pub sample: Vec<PlayedGame>,
}

impl BudgetGames {
    /// No games yet, of `seats` seats, clustered by deal with `duplicate`.
    pub fn new(seats: usize, duplicate: bool) -> BudgetGames {
        BudgetGames {
            seats,
            duplicate,
            games: 0,
            by_seat: vec![Clusters::default(); seats],
            by_role: BTreeMap::new(),
            all: Clusters::default(),
            endings: BTreeMap::new(),
            sample: Vec::new(),
        }
    }

    /// `games` read in order.
    pub fn of(seats: usize, duplicate: bool, games: Vec<PlayedGame>) -> BudgetGames {
        let mut b = BudgetGames::new(seats, duplicate);
        for g in games {
            b.add(g);
        }
        b
    }

    /// Reads the next game.
    pub fn add(&mut self, game: PlayedGame) {
        let Some(first) = game.rows.first() else {
            return;
        };
        let id = cluster(first.game_index, self.seats, self.duplicate);
        for r in &game.rows {
            let points = r.outcome.half_points();
            if let Some(s) = self.by_seat.get_mut(r.seat as usize) {
                s.add(id, points);
            }
            if !r.role.is_empty() {
                let mut parts = role_parts(&r.role);
                parts.sort();
                parts.dedup();
                for part in parts {
                    self.by_role.entry(part).or_default().add(id, points);
                }
            }
        }
        let ending = first.ending.as_str();
        if !ending.is_empty() && !self.endings.contains_key(ending) {
            self.endings.insert(ending.to_string(), self.all.clone());
        }
        for (name, c) in &mut self.endings {
            c.add(id, 2 * u64::from(name == ending));
        }
        self.all.add(id, 0);
        self.games += 1;
        if self.sample.len() < crate::files::SAMPLE_GAMES {
            self.sample.push(game);
        }
    }

    /// Every seat's rate, then every role's in name order ([`groups`] and
    /// [`group_rate`] of the games read).
    pub fn rates(&self) -> Vec<(Group, Rate)> {
        let seats = self
            .by_seat
            .iter()
            .enumerate()
            .map(|(s, c)| (Group::Seat(s as u8), c.rate()));
        let roles = self
            .by_role
            .iter()
            .map(|(r, c)| (Group::Role(r.clone()), c.rate()));
        seats.chain(roles).collect()
    }

    /// The share of the games that ended each way, in name order.
    pub fn endings(&self) -> Vec<(String, Rate)> {
        self.endings
            .iter()
            .map(|(name, c)| (name.clone(), c.rate()))
            .collect()
    }

    /// The widest 95 % half-width of a seat's or role's rate.
    pub fn half_width(&self) -> f64 {
        self.rates()
            .iter()
            .map(|(_, r)| r.half_width())
            .fold(0.0, f64::max)
    }
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

    #[test]
    fn games_read_one_at_a_time_rate_as_the_games_held() {
        let game = crate::games::hamunaptra::Hamunaptra::from_spec_text("hamunaptra").unwrap();
        let agent = AgentSpec::parse("random").unwrap();
        for duplicate in [false, true] {
            let games = play_identical(&game, &agent, 0..24, 3, duplicate, &pool(1).unwrap());
            let read = BudgetGames::of(2, duplicate, games.clone());
            assert_eq!(read.games, 24);
            assert_eq!(read.sample.len(), crate::files::SAMPLE_GAMES);
            let rates = read.rates();
            let held = groups(&games, 2);
            assert_eq!(rates.iter().map(|r| r.0.clone()).collect::<Vec<_>>(), held);
            for ((g, r), h) in rates.iter().zip(&held) {
                let want = group_rate(&games, h, 2, duplicate);
                assert_eq!((r.n, r.clusters), (want.n, want.clusters), "{g:?}");
                assert!((r.rate - want.rate).abs() < 1e-12, "{g:?}");
                assert!((r.se - want.se).abs() < 1e-12 || r.se == want.se, "{g:?}");
            }
        }
    }
}
