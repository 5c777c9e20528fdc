//! Tree reuse between decisions: the subtree for the new information set is
//! kept when the agent can tell, from its own views alone, which node of its
//! last tree that information set is.
//!
//! The agent remembers its view and its action at its previous decision. From
//! that view it replays its action and then every continuation the tree holds
//! (other seats' moves that are children in the tree, chance outcomes
//! enumerated) up to its own next turn, and compares its information there
//! with its information now (`info_key`). The subtree is kept only when every
//! match is one and the same node; otherwise the search starts afresh. Only
//! the seat's own views and tree are read, so reuse leaks nothing.

use super::tree::Tree;
use crate::game::{Game, PlayerId, Turn};

/// States examined at most per match; beyond that the search starts afresh.
/// Matching costs a clone, the legal actions and an information key per
/// state, so the bound keeps it small next to a search of a few milliseconds.
const MAX_STATES: usize = 256;

/// What an agent keeps from its last decision to reuse its tree.
#[derive(Clone, Debug)]
pub struct Memory<G: Game> {
    /// Its view when it decided.
    pub view: G::State,
    /// What it played.
    pub action: G::Action,
}

/// The node of `tree` (rooted at the decision of `memory`) that stands for
/// `me`'s information set in `now`, or `None` when none or several do.
pub fn find_subtree<G: Game>(
    game: &G,
    tree: &Tree<G::Action>,
    memory: &Memory<G>,
    me: PlayerId,
    now: &G::State,
) -> Option<u32> {
    if tree.is_empty() {
        return None;
    }
    let first = tree.find_child(0, me, memory.action)?;
    let target = game.info_key(now, me);
    let mut start = memory.view.clone();
    game.apply(&mut start, memory.action);
    let mut stack = vec![(start, first)];
    let mut found: Option<u32> = None;
    let mut examined = 0usize;
    while let Some((state, node)) = stack.pop() {
        examined += 1;
        if examined > MAX_STATES {
            return None;
        }
        match game.turn(&state) {
            Turn::Terminal => {}
            Turn::Player(p) if p == me => {
                if game.info_key(&state, me) == target {
                    match found {
                        Some(f) if f != node => return None,
                        _ => found = Some(node),
                    }
                }
            }
            Turn::Player(p) => {
                let legal = game.legal_actions(&state);
                for c in tree.children(node) {
                    let n = tree.get(c);
                    if n.mover == p && legal.contains(&n.action) {
                        let mut next = state.clone();
                        game.apply(&mut next, n.action);
                        stack.push((next, c));
                    }
                }
            }
            Turn::Chance => {
                // Open loop: chance outcomes are not in the tree.
                for (outcome, _) in game.chance_outcomes(&state) {
                    let mut next = state.clone();
                    game.apply(&mut next, outcome);
                    stack.push((next, node));
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Budget;
    use crate::agents::mcts::{Engine, Sampling, SearchConfig};
    use crate::game::Rules;
    use crate::games::poker::kuhn::Kuhn;
    use crate::rng::rng_from_seed;

    /// Kuhn: the first player checks; the second's answer is public, so after
    /// it the first player's information set is one node of its tree. With a
    /// different private card the same moves lead to another information set.
    #[test]
    fn a_public_answer_finds_its_node_and_another_card_does_not() {
        let g = Kuhn;
        let mut rng = rng_from_seed(4);
        let mut s = g.initial_state(&mut rng);
        while g.turn(&s) == Turn::Chance {
            let o = g.sample_chance(&s, &mut rng);
            g.apply(&mut s, o);
        }
        let cfg = SearchConfig {
            budget: Budget::Iterations(300),
            ..SearchConfig::default()
        };
        let mut e = Engine::<Kuhn>::default();
        let legal = g.legal_actions(&s);
        e.reset(legal[0]);
        e.search(
            &g,
            &s,
            0,
            &cfg,
            cfg.budget,
            Sampling::Redeterminize,
            &mut rng,
        );
        let check = crate::games::poker::kuhn::PASS;
        let bet = crate::games::poker::kuhn::BET;
        let memory = Memory {
            view: s.clone(),
            action: check,
        };
        let mut now = s.clone();
        g.apply(&mut now, check);
        g.apply(&mut now, bet);
        let node = find_subtree(&g, e.tree(), &memory, 0, &now).expect("a node");
        let n = e.tree().get(node);
        assert_eq!((n.mover, n.action), (1, bet));
        // The same moves seen with another card of mine: not this tree's set.
        let other = (0..20u64)
            .map(|k| g.determinize(&now, 1, &mut rng_from_seed(k)))
            .find(|o| g.info_key(o, 0) != g.info_key(&now, 0))
            .expect("another card for seat 0");
        assert_eq!(find_subtree(&g, e.tree(), &memory, 0, &other), None);
    }
}
