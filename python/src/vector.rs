//! `boardlab.VectorEnv`'s core: N games of one kind stepped in Rust per call,
//! written into buffers the Python side reads as numpy arrays.
//!
//! Env `i` draws everything (setup shuffles, chance outcomes, the next game's
//! setup) from one stream seeded `seed + i`, so env `i` of a batch plays as
//! the only env of a batch seeded `seed + i` given the same actions.

use std::sync::Arc;

use boardlab::game::Turn;
use boardlab::game::encoding::Encode;
use boardlab::rng::{GameRng, rng_from_seed};

use super::{DynState, StateBox};

/// The arrays one call fills: rows of env `i` at `i * width`, numbers in the
/// machine's byte order (numpy's `float32`, `int32`, `bool`).
pub(crate) struct Buffers<'a> {
    /// `n × obs_len` float32: the observation of the seat to act.
    pub obs: &'a mut [u8],
    /// `n × num_actions` bool: its legal actions.
    pub mask: &'a mut [u8],
    /// `n × players` float32: what the step paid (the returns at a game's end).
    pub rewards: &'a mut [u8],
    /// `n` bool: the step ended a game (the env is already in the next one).
    pub done: &'a mut [u8],
    /// `n` bool: the game was cut at the game's maximum length.
    pub truncated: &'a mut [u8],
    /// `n` int32: the seat to act.
    pub to_play: &'a mut [u8],
}

/// N games of one type, type erased.
pub(crate) trait DynVector: Send {
    /// Starts a new game in every env: from streams seeded `seed + i`, or,
    /// without a seed, continuing each env's stream.
    fn reset(&mut self, seed: Option<u64>, out: &mut Buffers);
    /// Applies `actions[i]` in env `i`; checks every action before applying
    /// any, so an error leaves every env as it was.
    fn step(&mut self, actions: &[i64], out: &mut Buffers) -> Result<(), String>;
    /// The true state of env `i` (for analysis and tests, not for agents).
    fn state(&self, i: usize) -> Option<Box<dyn DynState>>;
}

struct Env<G: Encode> {
    state: G::State,
    rng: GameRng,
    /// Actions and chance outcomes applied in this game.
    steps: u32,
    /// The mask entries set for this env, cleared at its next write.
    set: Vec<u32>,
}

pub(crate) struct Vector<G: Encode> {
    game: Arc<G>,
    n: usize,
    seed: u64,
    envs: Vec<Env<G>>,
    obs_len: usize,
    actions: usize,
    players: usize,
    tensor: Vec<f32>,
}

impl<G: Encode> Vector<G> {
    pub(crate) fn new(game: Arc<G>, n: usize, seed: u64) -> Vector<G> {
        let obs_len = game.observation_shape().iter().product();
        let actions = game.num_distinct_actions() as usize;
        let players = game.num_players();
        Vector {
            game,
            n,
            seed,
            envs: Vec::new(),
            obs_len,
            actions,
            players,
            tensor: Vec::new(),
        }
    }

    /// Plays chance nodes from the env's stream until a seat is to act, the
    /// game ends or reaches its maximum length.
    fn settle(game: &G, env: &mut Env<G>) {
        while game.turn(&env.state) == Turn::Chance && env.steps < game.max_game_length() {
            let a = game.sample_chance(&env.state, &mut env.rng);
            game.apply(&mut env.state, a);
            env.steps += 1;
        }
    }

    /// A new game in `env`, from its stream, played to its first decision.
    fn new_game(game: &G, env: &mut Env<G>) {
        env.state = game.initial_state(&mut env.rng);
        env.steps = 0;
        Self::settle(game, env);
    }

    /// Whether `env`'s game is over: ended, or cut at the maximum length.
    fn over(game: &G, env: &Env<G>) -> Option<bool> {
        match game.turn(&env.state) {
            Turn::Terminal => Some(false),
            _ if env.steps >= game.max_game_length() => Some(true),
            _ => None,
        }
    }

    /// Writes env `i`'s observation, mask and seat to act.
    fn write(&mut self, i: usize, out: &mut Buffers) {
        let game = &*self.game;
        let env = &mut self.envs[i];
        let mask = &mut out.mask[i * self.actions..(i + 1) * self.actions];
        for &a in &env.set {
            mask[a as usize] = 0;
        }
        env.set.clear();
        let obs = &mut out.obs[i * self.obs_len * 4..(i + 1) * self.obs_len * 4];
        let seat = match game.turn(&env.state) {
            Turn::Player(p) => p,
            // Only a game that cannot reach a decision stops here: nothing to show.
            _ => {
                obs.fill(0);
                out.to_play[i * 4..i * 4 + 4].copy_from_slice(&(-1i32).to_ne_bytes());
                return;
            }
        };
        for &a in game.legal_actions(&env.state).iter() {
            let index = game.action_index(&env.state, a);
            mask[index as usize] = 1;
            env.set.push(index);
        }
        game.observation_tensor(&env.state, seat, &mut self.tensor);
        for (chunk, x) in obs.chunks_exact_mut(4).zip(&self.tensor) {
            chunk.copy_from_slice(&x.to_ne_bytes());
        }
        out.to_play[i * 4..i * 4 + 4].copy_from_slice(&i32::from(seat).to_ne_bytes());
    }

    /// The action `actions[i]` names in env `i`, or why it is not legal there.
    fn check(&self, i: usize, action: i64) -> Result<G::Action, String> {
        let game = &*self.game;
        let env = &self.envs[i];
        let Turn::Player(seat) = game.turn(&env.state) else {
            return Err(format!("env {i}: no seat is to act"));
        };
        let legal = game.legal_actions(&env.state);
        let decoded = u32::try_from(action)
            .ok()
            .and_then(|index| game.action_from_index(&env.state, index))
            .filter(|a| legal.contains(a));
        decoded.ok_or_else(|| {
            let mut indices: Vec<u32> = legal
                .iter()
                .map(|&a| game.action_index(&env.state, a))
                .collect();
            indices.sort_unstable();
            let shown: Vec<String> = indices.iter().take(20).map(u32::to_string).collect();
            let more = if indices.len() > 20 {
                format!(", … {} in all", indices.len())
            } else {
                String::new()
            };
            format!(
                "env {i}: action {action} is not legal for seat {seat} (legal: [{}{more}])",
                shown.join(", ")
            )
        })
    }
}

impl<G: Encode> DynVector for Vector<G> {
    fn reset(&mut self, seed: Option<u64>, out: &mut Buffers) {
        let game = &*self.game;
        if let Some(s) = seed {
            self.seed = s;
        }
        if seed.is_some() || self.envs.is_empty() {
            // The new envs know nothing of the mask entries the old ones set.
            out.mask.fill(0);
            self.envs = (0..self.n)
                .map(|i| {
                    let mut rng = rng_from_seed(self.seed.wrapping_add(i as u64));
                    let state = game.initial_state(&mut rng);
                    let mut env = Env {
                        state,
                        rng,
                        steps: 0,
                        set: Vec::new(),
                    };
                    Self::settle(game, &mut env);
                    env
                })
                .collect();
        } else {
            for env in &mut self.envs {
                Self::new_game(game, env);
            }
        }
        out.rewards.fill(0);
        out.done.fill(0);
        out.truncated.fill(0);
        for i in 0..self.n {
            self.write(i, out);
        }
    }

    fn step(&mut self, actions: &[i64], out: &mut Buffers) -> Result<(), String> {
        if self.envs.is_empty() {
            return Err("call reset() before the first step()".into());
        }
        if actions.len() != self.n {
            return Err(format!(
                "{} actions for {} envs: give one action per env",
                actions.len(),
                self.n
            ));
        }
        let chosen = (0..self.n)
            .map(|i| self.check(i, actions[i]))
            .collect::<Result<Vec<_>, _>>()?;
        let game = self.game.clone();
        let game = &*game;
        let players = self.players;
        for (i, a) in chosen.into_iter().enumerate() {
            let env = &mut self.envs[i];
            game.apply(&mut env.state, a);
            env.steps += 1;
            Self::settle(game, env);
            let rewards = &mut out.rewards[i * players * 4..(i + 1) * players * 4];
            match Self::over(game, env) {
                None => {
                    rewards.fill(0);
                    out.done[i] = 0;
                    out.truncated[i] = 0;
                }
                Some(cut) => {
                    let returns = if cut {
                        vec![0.0; players]
                    } else {
                        game.returns(&env.state).to_vec()
                    };
                    for (chunk, r) in rewards.chunks_exact_mut(4).zip(returns) {
                        chunk.copy_from_slice(&(r as f32).to_ne_bytes());
                    }
                    out.done[i] = 1;
                    out.truncated[i] = u8::from(cut);
                    Self::new_game(game, env);
                }
            }
            self.write(i, out);
        }
        Ok(())
    }

    fn state(&self, i: usize) -> Option<Box<dyn DynState>> {
        let env = self.envs.get(i)?;
        Some(Box::new(StateBox {
            game: self.game.clone(),
            state: env.state.clone(),
        }))
    }
}
