//! Exact exploitability of a policy in a small two-player zero-sum game, by best
//! response over the whole game tree (OpenSpiel's definition): NashConv is the
//! sum over players of (best-response value − policy value), exploitability is
//! NashConv / 2. Zero exactly at a Nash equilibrium.
//!
//! Generic over any [`Game`] whose chance nodes are enumerable
//! ([`Rules::chance_outcomes`](crate::game::Rules::chance_outcomes)) and whose setup randomness, if any, goes through
//! chance nodes (the tree is built from one initial state). Information sets
//! are the classes of [`Rules::info_key`](crate::game::Rules::info_key) of the acting player, which must give
//! perfect recall. An agent's policy is estimated by asking it for decisions at
//! every information set, from determinized views as the runner gives them
//! (`crate::analysis::exploitability::agent_policy`, above the agents).
//!
//! The tree sits below the agents so that an agent may solve a game
//! (`cfr`), and above the game contract alone.

use std::collections::HashMap;

use serde::Serialize;

use crate::game::{Game, PlayerId, Turn};

/// The largest tree built (nodes); bigger games are refused with an error.
pub const MAX_NODES: usize = 2_000_000;

/// A policy: for each information set of a [`GameTree`] (by index), one
/// probability per legal action, in the order of [`InfoSet::legal`].
pub type Policy = Vec<Vec<f64>>;

#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Terminal([f64; 2]),
    Chance,
    Player { player: PlayerId, infoset: u32 },
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    /// Children are `children[first..first + len]`, in the order of the legal
    /// actions (or chance outcomes, with `probs` at the same indices).
    pub(crate) first: u32,
    pub(crate) len: u32,
}

/// One information set: the states a player cannot tell apart when it acts.
#[derive(Clone, Debug)]
pub struct InfoSet<G: Game> {
    /// The player acting.
    pub player: PlayerId,
    /// Its information key.
    pub key: G::InfoKey,
    /// The legal actions (equal at every state of the set).
    pub legal: Vec<G::Action>,
    /// One state of the set, from which agents' views are determinized.
    pub state: G::State,
    nodes: Vec<u32>,
}

/// The whole game tree of a small two-player zero-sum game, with its
/// information sets in order of first visit (depth first, legal-action order).
#[derive(Clone, Debug)]
pub struct GameTree<G: Game> {
    pub(crate) nodes: Vec<Node>,
    pub(crate) children: Vec<u32>,
    pub(crate) probs: Vec<f64>,
    /// Every information set where a player acts.
    pub infosets: Vec<InfoSet<G>>,
    /// The index in `infosets` of each (player, information key).
    index: HashMap<(PlayerId, G::InfoKey), u32>,
}

/// Values of one policy profile and of the best responses to it.
#[derive(Clone, Debug, Serialize)]
pub struct Exploitability {
    /// Each player's expected return when both follow the policy.
    pub policy_values: [f64; 2],
    /// Each player's expected return when it best-responds to the other's policy.
    pub best_response_values: [f64; 2],
    /// Sum over players of (best-response value − policy value).
    pub nash_conv: f64,
    /// NashConv / 2: what a best responder gains on average per seat.
    pub exploitability: f64,
}

struct Builder<'a, G: Game> {
    game: &'a G,
    tree: GameTree<G>,
}

impl<G: Game> Builder<'_, G> {
    /// Adds the subtree of `state` and returns its node index.
    fn add(&mut self, state: &G::State, depth: u32) -> Result<u32, String> {
        let g = self.game;
        if self.tree.nodes.len() >= MAX_NODES {
            return Err(format!(
                "the game tree of {} has more than {MAX_NODES} nodes: exact exploitability needs a small game",
                g.spec()
            ));
        }
        if depth > g.max_game_length() {
            return Err(format!(
                "{} goes on past its max_game_length {}",
                g.spec(),
                g.max_game_length()
            ));
        }
        let id = self.tree.nodes.len() as u32;
        let (kind, moves): (Kind, Vec<(G::Action, f64)>) = match g.turn(state) {
            Turn::Terminal => {
                let r = g.returns(state);
                if (r[0] + r[1]).abs() > 1e-9 {
                    return Err(format!(
                        "{} is not zero-sum: returns {:?} at a terminal state",
                        g.spec(),
                        &*r
                    ));
                }
                (Kind::Terminal([r[0], r[1]]), Vec::new())
            }
            Turn::Chance => (Kind::Chance, g.chance_outcomes(state)),
            Turn::Player(p) => {
                let legal = g.legal_actions(state);
                let key = g.info_key(state, p);
                let next = self.tree.infosets.len() as u32;
                let infoset = *self.tree.index.entry((p, key.clone())).or_insert(next);
                if infoset == next {
                    self.tree.infosets.push(InfoSet {
                        player: p,
                        key,
                        legal: legal.to_vec(),
                        state: state.clone(),
                        nodes: Vec::new(),
                    });
                } else if self.tree.infosets[infoset as usize].legal[..] != legal[..] {
                    return Err(format!(
                        "{}: two states with one information key have different legal actions",
                        g.spec()
                    ));
                }
                self.tree.infosets[infoset as usize].nodes.push(id);
                let moves = legal.iter().map(|&a| (a, 0.0)).collect();
                (Kind::Player { player: p, infoset }, moves)
            }
        };
        self.tree.nodes.push(Node {
            kind,
            first: 0,
            len: 0,
        });
        let mut kids = Vec::with_capacity(moves.len());
        for (a, _) in &moves {
            let mut next = state.clone();
            g.apply(&mut next, *a);
            kids.push(self.add(&next, depth + 1)?);
        }
        let first = self.tree.children.len() as u32;
        self.tree.children.extend(kids);
        self.tree.probs.extend(moves.iter().map(|m| m.1));
        let node = &mut self.tree.nodes[id as usize];
        node.first = first;
        node.len = moves.len() as u32;
        Ok(id)
    }
}

impl<G: Game> GameTree<G> {
    /// Builds the tree below `root`. Errors: not two players, not zero-sum, a
    /// tree over [`MAX_NODES`], or an information key that mixes states with
    /// different legal actions.
    pub fn build(game: &G, root: &G::State) -> Result<GameTree<G>, String> {
        if game.num_players() != 2 {
            return Err(format!(
                "{} has {} players: exploitability is defined here for two-player zero-sum games",
                game.spec(),
                game.num_players()
            ));
        }
        let mut b = Builder {
            game,
            tree: GameTree {
                nodes: Vec::new(),
                children: Vec::new(),
                probs: Vec::new(),
                infosets: Vec::new(),
                index: HashMap::new(),
            },
        };
        b.add(root, 0)?;
        Ok(b.tree)
    }

    /// Number of nodes (chance, decision and terminal).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True for a tree without nodes (never, once built).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The information set where `player` acts with information `key`, if the
    /// tree has one.
    pub fn infoset_of(&self, player: PlayerId, key: &G::InfoKey) -> Option<usize> {
        self.index.get(&(player, key.clone())).map(|&i| i as usize)
    }

    /// The uniform random policy.
    pub fn uniform_policy(&self) -> Policy {
        self.infosets
            .iter()
            .map(|i| vec![1.0 / i.legal.len() as f64; i.legal.len()])
            .collect()
    }

    pub(crate) fn kids(&self, n: u32) -> std::ops::Range<usize> {
        let node = &self.nodes[n as usize];
        node.first as usize..(node.first + node.len) as usize
    }

    /// Checks that `policy` fits the tree: one distribution per information set.
    fn check(&self, policy: &Policy) -> Result<(), String> {
        if policy.len() != self.infosets.len() {
            return Err(format!(
                "the policy has {} information sets, the game {}",
                policy.len(),
                self.infosets.len()
            ));
        }
        for (i, (p, set)) in policy.iter().zip(&self.infosets).enumerate() {
            let sum: f64 = p.iter().sum();
            if p.len() != set.legal.len()
                || p.iter().any(|&x| !(0.0..=1.0 + 1e-9).contains(&x))
                || (sum - 1.0).abs() > 1e-6
            {
                return Err(format!(
                    "information set {i}: {p:?} is not a distribution over {} actions",
                    set.legal.len()
                ));
            }
        }
        Ok(())
    }

    /// Both players' expected returns at `n` under `policy`.
    fn values(&self, n: u32, policy: &Policy) -> [f64; 2] {
        let node = self.nodes[n as usize];
        let weights: &[f64] = match node.kind {
            Kind::Terminal(r) => return r,
            Kind::Chance => &self.probs[self.kids(n)],
            Kind::Player { infoset, .. } => &policy[infoset as usize],
        };
        let mut v = [0.0; 2];
        for (&c, &w) in self.children[self.kids(n)].iter().zip(weights) {
            if w > 0.0 {
                let cv = self.values(c, policy);
                v[0] += w * cv[0];
                v[1] += w * cv[1];
            }
        }
        v
    }

    /// The probability of reaching each node through chance and the
    /// opponent of `b` alone (`b`'s own actions count as taken).
    fn reach(&self, n: u32, w: f64, b: PlayerId, policy: &Policy, out: &mut [f64]) {
        out[n as usize] = w;
        let node = self.nodes[n as usize];
        for (i, k) in self.kids(n).enumerate() {
            let p = match node.kind {
                Kind::Terminal(_) => unreachable!(),
                Kind::Chance => self.probs[k],
                Kind::Player { player, .. } if player == b => 1.0,
                Kind::Player { infoset, .. } => policy[infoset as usize][i],
            };
            self.reach(self.children[k], w * p, b, policy, out);
        }
    }

    /// `b`'s value at `n` when it plays its best response against `policy`.
    fn br_value(&self, n: u32, b: PlayerId, br: &mut BestResponse<'_>) -> f64 {
        let node = self.nodes[n as usize];
        match node.kind {
            Kind::Terminal(r) => r[b as usize],
            Kind::Player { player, infoset } if player == b => {
                let a = self.br_action(infoset, b, br);
                self.br_value(self.children[node.first as usize + a], b, br)
            }
            Kind::Chance | Kind::Player { .. } => {
                let mut v = 0.0;
                for (i, k) in self.kids(n).enumerate() {
                    let w = match node.kind {
                        Kind::Player { infoset, .. } => br.policy[infoset as usize][i],
                        _ => self.probs[k],
                    };
                    if w > 0.0 {
                        v += w * self.br_value(self.children[k], b, br);
                    }
                }
                v
            }
        }
    }

    /// The best action of `b` at one of its information sets: the one whose
    /// value, summed over the set's states weighted by their reach, is largest.
    /// With perfect recall, deeper choices of `b` do not depend on this one.
    fn br_action(&self, infoset: u32, b: PlayerId, br: &mut BestResponse<'_>) -> usize {
        if let Some(a) = br.action[infoset as usize] {
            return a;
        }
        let set = &self.infosets[infoset as usize];
        let mut best = (f64::NEG_INFINITY, 0);
        for a in 0..set.legal.len() {
            let mut q = 0.0;
            for &h in &set.nodes {
                let w = br.reach[h as usize];
                if w > 0.0 {
                    let child = self.children[self.nodes[h as usize].first as usize + a];
                    q += w * self.br_value(child, b, br);
                }
            }
            if q > best.0 + 1e-12 {
                best = (q, a);
            }
        }
        br.action[infoset as usize] = Some(best.1);
        best.1
    }

    /// Exact values of `policy` and of each player's best response to it.
    pub fn exploitability(&self, policy: &Policy) -> Result<Exploitability, String> {
        self.check(policy)?;
        let policy_values = self.values(0, policy);
        let mut best_response_values = [0.0; 2];
        for b in 0..2u8 {
            let mut reach = vec![0.0; self.nodes.len()];
            self.reach(0, 1.0, b, policy, &mut reach);
            let mut br = BestResponse {
                policy,
                reach,
                action: vec![None; self.infosets.len()],
            };
            best_response_values[b as usize] = self.br_value(0, b, &mut br);
        }
        let nash_conv = (0..2)
            .map(|p| best_response_values[p] - policy_values[p])
            .sum::<f64>();
        Ok(Exploitability {
            policy_values,
            best_response_values,
            nash_conv,
            exploitability: nash_conv / 2.0,
        })
    }
}

struct BestResponse<'a> {
    policy: &'a Policy,
    reach: Vec<f64>,
    action: Vec<Option<usize>>,
}

pub mod cfr;
