//! `moismcts`: multiple-observer information-set MCTS (Cowling, Powley &
//! Whitehouse 2012, as in TAG). One tree per seat; every iteration
//! redeterminizes the view for the searching seat and descends all trees
//! together. The seat to act chooses in its own tree (UCB with availability
//! counts, as in [`super::ismcts`]); every other seat's tree follows the move
//! as that seat observes it: exactly when the seat would see which action it
//! was, otherwise one node for all the moves it cannot tell apart. So no
//! seat's tree plans on another seat's hidden moves, which single-observer
//! ISMCTS does for the opponents it models inside the searcher's own tree.
//!
//! What a seat observes of a move is the game's
//! [`Reporting::observed_move`](crate::game::Reporting::observed_move), which
//! agrees with its narration: [`Reporting::action_label_for`](crate::game::Reporting::action_label_for)
//! names nothing the observer will not know, so a label equal to the full one
//! means the move is seen exactly, and otherwise the label itself is the class
//! of moves the observer cannot tell apart.
//! Chance outcomes stay out of the trees (open loop).

use super::mast::Mast;
use super::parallel::{merge_visits, search_all};
use super::tree::Tree;
use super::uct::TreeOptions;
use super::{
    Choice, Chooser, SearchConfig, heuristic_values, legal_in, most_visited, rollout_in, run_budget,
};
use crate::agents::greedy::normalized_returns;
use crate::agents::{Agent, Budget, Decision, RootStat};
use crate::game::{Game, PlayerId, Returns, Turn};
use crate::rng::GameRng;

/// A node's key in one seat's tree: the move as that seat saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seen<A> {
    /// The seat knows which action it was (its own moves, public moves).
    Exact(A),
    /// One of the moves the seat cannot tell apart
    /// ([`Reporting::observed_move`](crate::game::Reporting::observed_move)'s key).
    Hidden(u64),
}

/// How `observer` sees `mover`'s `action` in `state`.
pub fn observed<G: Game>(
    game: &G,
    state: &G::State,
    action: G::Action,
    mover: PlayerId,
    observer: PlayerId,
) -> Seen<G::Action> {
    if observer == mover {
        return Seen::Exact(action);
    }
    match game.observed_move(state, action, observer) {
        None => Seen::Exact(action),
        Some(key) => Seen::Hidden(key),
    }
}

/// The trees of one decision and their scratch space.
#[derive(Clone, Debug)]
pub struct MoEngine<G: Game> {
    trees: Vec<Tree<Seen<G::Action>>>,
    /// The current node of each tree, and each tree's path this iteration.
    at: Vec<u32>,
    paths: Vec<Vec<u32>>,
    /// (mover, action) of this iteration's tree moves, for MAST.
    moves: Vec<(u8, G::Action)>,
    chooser: Chooser,
    mast: Mast<G::Action>,
    /// The legal-action list every step of an iteration writes into.
    legal: Option<G::Actions>,
}

impl<G: Game> Default for MoEngine<G> {
    fn default() -> Self {
        MoEngine {
            trees: Vec::new(),
            at: Vec::new(),
            paths: Vec::new(),
            moves: Vec::new(),
            chooser: Chooser::default(),
            mast: Mast::default(),
            legal: None,
        }
    }
}

impl<G: Game> MoEngine<G> {
    /// Fresh trees, one per seat.
    pub fn reset(&mut self, players: usize, placeholder: G::Action) {
        self.trees.resize_with(players, Tree::new);
        for t in &mut self.trees {
            t.reset(Seen::Exact(placeholder));
        }
        self.at.resize(players, 0);
        self.paths.resize_with(players, Vec::new);
        self.mast.clear();
    }

    /// Seat `p`'s tree.
    pub fn tree(&self, p: PlayerId) -> &Tree<Seen<G::Action>> {
        &self.trees[p as usize]
    }

    /// Runs iterations from `root` (where `me` acts) until `budget` is spent.
    pub fn search(
        &mut self,
        game: &G,
        root: &G::State,
        me: PlayerId,
        cfg: &SearchConfig,
        budget: Budget,
        rng: &mut GameRng,
    ) -> u64 {
        debug_assert!(!self.trees.is_empty(), "reset before search");
        game.with_determinizer(root, me, |sample| {
            run_budget(budget, cfg.clock, cfg.deadline, || {
                let state = sample(rng);
                self.iterate(game, state, cfg, rng)
            })
        })
    }

    /// Moves every tree but the mover's to the child for `action` as its
    /// seat observes it, making the child when it is new.
    fn follow(&mut self, game: &G, state: &G::State, p: PlayerId, action: G::Action) {
        for (q, tree) in self.trees.iter_mut().enumerate() {
            let q = q as PlayerId;
            if q == p {
                continue;
            }
            let key = observed(game, state, action, p, q);
            let at = self.at[q as usize];
            let child = tree
                .find_child(at, p, key)
                .unwrap_or_else(|| tree.add_child(at, p, key));
            self.at[q as usize] = child;
            self.paths[q as usize].push(child);
        }
    }

    /// One iteration from `state`, a determinization of the root.
    fn iterate(&mut self, game: &G, mut state: G::State, cfg: &SearchConfig, rng: &mut GameRng) {
        let cap = game.max_game_length();
        let mut steps = 0u32;
        for (at, path) in self.at.iter_mut().zip(&mut self.paths) {
            *at = 0;
            path.clear();
            path.push(0);
        }
        self.moves.clear();
        let values: Returns = loop {
            let turn = game.turn(&state);
            if turn != Turn::Terminal && steps >= cap {
                break heuristic_values(game, &state, &cfg.eval);
            }
            let p = match turn {
                Turn::Terminal => break normalized_returns(game, &state),
                Turn::Chance => {
                    let outcome = game.sample_chance(&state, rng);
                    game.apply(&mut state, outcome);
                    steps += 1;
                    continue;
                }
                Turn::Player(p) => p,
            };
            let legal = legal_in(game, &state, &mut self.legal);
            let pi = p as usize;
            let at = self.at[pi];
            let choice = self.chooser.choose(
                game,
                &state,
                legal,
                &mut self.trees[pi],
                at,
                p,
                Seen::Exact,
                cfg,
                true,
                rng,
            );
            let (action, expanded) = match choice {
                Choice::Expand { index, prior } => {
                    let a = legal[index];
                    let child = self.trees[pi].add_child(at, p, Seen::Exact(a));
                    self.trees[pi].get_mut(child).prior = prior;
                    (a, child)
                }
                Choice::Descend(child) => match self.trees[pi].get(child).action {
                    Seen::Exact(a) => (a, child),
                    Seen::Hidden(_) => unreachable!("a seat's own moves are exact"),
                },
            };
            let is_expansion = matches!(choice, Choice::Expand { .. });
            self.follow(game, &state, p, action);
            self.at[pi] = expanded;
            self.paths[pi].push(expanded);
            self.moves.push((p, action));
            game.apply(&mut state, action);
            steps += 1;
            if is_expansion {
                break if cfg.rollout.uses_mast() {
                    self.mast
                        .rollout(game, &mut state, cfg, steps, rng, &mut self.legal)
                } else {
                    rollout_in(game, &mut state, cfg, steps, rng, &mut self.legal)
                };
            }
        };
        for (tree, path) in self.trees.iter_mut().zip(&self.paths) {
            for &i in path {
                let n = tree.get_mut(i);
                n.visits += 1;
                n.total += values[n.mover as usize];
            }
            tree.observe(&values);
        }
        if cfg.rollout.uses_mast() {
            self.mast.record(self.moves.iter().copied(), &values);
        }
    }

    /// Seat `me`'s root moves as (action, visits, summed return of `me`).
    pub fn root_totals(&self, me: PlayerId) -> impl Iterator<Item = (G::Action, u64, f64)> + '_ {
        let tree = &self.trees[me as usize];
        tree.children(0)
            .filter_map(move |c| match tree.get(c).action {
                Seen::Exact(a) => Some((a, u64::from(tree.get(c).visits), tree.get(c).total)),
                Seen::Hidden(_) => None,
            })
    }

    /// Visits of the root's moves in seat `me`'s tree, as (action, visits).
    pub fn root_visits(&self, me: PlayerId) -> impl Iterator<Item = (G::Action, u32)> + '_ {
        let tree = &self.trees[me as usize];
        tree.children(0)
            .filter_map(move |c| match tree.get(c).action {
                Seen::Exact(a) => Some((a, tree.get(c).visits)),
                Seen::Hidden(_) => None,
            })
    }
}

/// The MO-ISMCTS agent (root-parallel with `threads`).
#[derive(Clone, Debug)]
pub struct MoIsmctsAgent<G: Game> {
    cfg: SearchConfig,
    engines: Vec<MoEngine<G>>,
    totals: Vec<u64>,
    last: u64,
    /// The seat of the last decision.
    me: PlayerId,
}

impl<G: Game> MoIsmctsAgent<G> {
    /// An agent with these search parameters; of the tree options only
    /// `threads` applies (its trees are not reused between decisions).
    pub fn new(cfg: SearchConfig, opts: TreeOptions) -> Self {
        MoIsmctsAgent {
            cfg,
            engines: (0..opts.threads.max(1))
                .map(|_| MoEngine::default())
                .collect(),
            totals: Vec::new(),
            last: 0,
            me: 0,
        }
    }

    /// The engine of the last search (the first with several), for inspection.
    pub fn engine(&self) -> &MoEngine<G> {
        &self.engines[0]
    }
}

impl<G: Game> Agent<G> for MoIsmctsAgent<G> {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        if d.legal.len() == 1 {
            self.last = 0;
            return d.legal[0];
        }
        let players = d.game.num_players();
        for e in &mut self.engines {
            e.reset(players, d.legal[0]);
        }
        let cfg = SearchConfig {
            deadline: d.deadline,
            ..self.cfg
        };
        let (game, view, me) = (d.game, d.view, d.me);
        self.me = me;
        self.last = search_all(&mut self.engines, d.rng, |e, rng| {
            e.search(game, view, me, &cfg, cfg.budget, rng)
        });
        self.totals.clear();
        for e in &self.engines {
            merge_visits(
                d.legal,
                &mut self.totals,
                e.root_visits(me).map(|(a, v)| (a, u64::from(v))),
            );
        }
        let counts = d.legal.iter().copied().zip(self.totals.iter().copied());
        most_visited(counts, d.rng).unwrap_or(d.legal[0])
    }

    fn last_iterations(&self) -> u64 {
        self.last
    }

    fn last_root_stats(&self) -> Option<Vec<RootStat<G::Action>>> {
        let me = self.me;
        (self.last > 0)
            .then(|| super::root_stats(self.engines.iter().flat_map(|e| e.root_totals(me))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::games::poker::kuhn::{BET, Kuhn};
    use crate::games::tictactoe::{State, TicTacToe};
    use crate::rng::rng_from_seed;

    /// In Kuhn poker bets are public and a dealt card is seen by its holder
    /// only; in a perfect-information game every move is seen exactly.
    #[test]
    fn observations_follow_what_each_seat_sees() {
        let g = Kuhn;
        let mut s = g.initial_state(&mut rng_from_seed(1));
        let deal = g.sample_chance(&s, &mut rng_from_seed(1));
        assert_eq!(observed(&g, &s, deal, 0, 0), Seen::Exact(deal));
        let hidden = observed(&g, &s, deal, 0, 1);
        assert!(matches!(hidden, Seen::Hidden(_)), "{hidden:?}");
        // Every card dealt to seat 0 looks alike to seat 1.
        for (other, _) in g.chance_outcomes(&s) {
            assert_eq!(observed(&g, &s, other, 0, 1), hidden);
        }
        while g.turn(&s) == Turn::Chance {
            let o = g.sample_chance(&s, &mut rng_from_seed(2));
            g.apply(&mut s, o);
        }
        assert_eq!(observed(&g, &s, BET, 0, 1), Seen::Exact(BET));
        let t = TicTacToe;
        assert_eq!(observed(&t, &State::default(), 4, 0, 1), Seen::Exact(4));
    }

    /// Every seat has a tree; the searcher's root holds its moves and the
    /// opponent's tree follows them; a win in one is found.
    #[test]
    fn one_tree_per_seat_and_a_win_in_one_is_played() {
        let g = TicTacToe;
        // X on 0 and 1, O on 3 and 4, X to move: 2 wins.
        let s = State {
            marks: [0b11, 0b11000],
            to_move: 0,
        };
        let cfg = SearchConfig {
            budget: Budget::Iterations(300),
            ..SearchConfig::default()
        };
        let mut a = MoIsmctsAgent::<TicTacToe>::new(cfg, TreeOptions::default());
        let legal = g.legal_actions(&s);
        let action = a.act(Decision {
            game: &g,
            me: 0,
            view: &s,
            legal: &legal,
            rng: &mut rng_from_seed(3),
            deadline: None,
        });
        assert_eq!(action, 2);
        assert_eq!(a.last_iterations(), 300);
        let e = a.engine();
        let mine: Vec<u8> = e.root_visits(0).map(|(a, _)| a).collect();
        assert_eq!(mine.len(), legal.len());
        // Seat 1's tree saw the same root moves (all public), with the same visits.
        let theirs: Vec<(Seen<u8>, u32)> = e
            .tree(1)
            .children(0)
            .map(|c| (e.tree(1).get(c).action, e.tree(1).get(c).visits))
            .collect();
        let mut mine_v: Vec<(Seen<u8>, u32)> =
            e.root_visits(0).map(|(a, v)| (Seen::Exact(a), v)).collect();
        let mut theirs = theirs;
        mine_v.sort_by_key(|x| format!("{x:?}"));
        theirs.sort_by_key(|x| format!("{x:?}"));
        assert_eq!(mine_v, theirs);
    }
}
