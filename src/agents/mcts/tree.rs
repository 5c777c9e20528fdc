//! The search tree as an arena: one `Vec` of nodes addressed by `u32`, children
//! as a singly linked sibling list. No node owns heap memory, so clearing the
//! arena between decisions keeps its capacity and a search allocates only when
//! the tree outgrows every earlier one.

/// "No node": the end of a sibling list, or a leaf's missing first child.
pub const NIL: u32 = u32::MAX;

/// One node: the statistics of an action taken by `mover` at its parent.
///
/// Nodes are keyed by (mover, action) rather than by state, so the same tree
/// serves open-loop search over chance outcomes and over determinizations.
#[derive(Clone, Copy, Debug)]
pub struct Node<A> {
    /// The action leading here from the parent (a placeholder at the root).
    pub action: A,
    /// The seat that chose `action`; the node's returns are that seat's.
    pub mover: u8,
    /// Iterations that passed through this node.
    pub visits: u32,
    /// Iterations in which `action` was legal at the parent (ISMCTS availability).
    pub avail: u32,
    /// Sum of `mover`'s returns over those iterations (max^n backup).
    pub total: f64,
    /// The heuristic's value of `action` for `mover` when the node was made
    /// (progressive bias); 0 when the search does not use it.
    pub prior: f32,
    /// First child, or [`NIL`].
    pub first_child: u32,
    /// Next sibling, or [`NIL`].
    pub next_sibling: u32,
    /// Where `action` was in the legal list when the node was last matched
    /// to it ([`NO_HINT`] if past 254 or never): checked first, so a node
    /// whose legal list keeps its order is matched without a search.
    pub hint: u8,
}

/// "No hint": search the legal list.
pub const NO_HINT: u8 = u8::MAX;

impl<A> Node<A> {
    /// Mean return for the mover; 0 before any visit.
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / f64::from(self.visits)
        }
    }
}

/// The arena. Index 0 is the root after [`Tree::reset`].
#[derive(Clone, Debug, Default)]
pub struct Tree<A> {
    nodes: Vec<Node<A>>,
    /// The smallest and largest return backed up since the last reset.
    lo: f64,
    hi: f64,
}

impl<A: Copy> Tree<A> {
    /// An empty arena.
    pub fn new() -> Self {
        Tree {
            nodes: Vec::new(),
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
        }
    }

    /// Drops every node but keeps the capacity, then adds a root. `placeholder`
    /// is any action value; the root's action is never read.
    pub fn reset(&mut self, placeholder: A) {
        self.nodes.clear();
        (self.lo, self.hi) = (f64::INFINITY, f64::NEG_INFINITY);
        self.nodes.push(Node {
            action: placeholder,
            mover: 0,
            visits: 0,
            avail: 0,
            total: 0.0,
            prior: 0.0,
            first_child: NIL,
            next_sibling: NIL,
            hint: NO_HINT,
        });
    }

    /// Widens the range of returns seen by this search to include `values`.
    pub fn observe(&mut self, values: &[f64]) {
        for &v in values {
            self.lo = self.lo.min(v);
            self.hi = self.hi.max(v);
        }
    }

    /// `mean` mapped linearly so that the returns seen so far span [-1, 1]
    /// (as is, until two different returns have been seen). A heuristic at
    /// a rollout cut often moves in a narrow band; on that band's own scale
    /// the exploration constant keeps its meaning (TAG's reward normalisation).
    pub fn normalized(&self, mean: f64) -> f64 {
        if self.hi - self.lo > 1e-12 {
            2.0 * (mean - self.lo) / (self.hi - self.lo) - 1.0
        } else {
            mean
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True before [`Tree::reset`].
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Allocated node slots (to check that capacity is reused).
    pub fn capacity(&self) -> usize {
        self.nodes.capacity()
    }

    /// A node by index.
    #[inline]
    pub fn get(&self, i: u32) -> &Node<A> {
        &self.nodes[i as usize]
    }

    /// A node by index, mutable.
    #[inline]
    pub fn get_mut(&mut self, i: u32) -> &mut Node<A> {
        &mut self.nodes[i as usize]
    }

    /// Adds a child of `parent` (prepended to its sibling list) with
    /// availability 1 and no visits yet; returns its index.
    pub fn add_child(&mut self, parent: u32, mover: u8, action: A) -> u32 {
        let index = u32::try_from(self.nodes.len()).expect("search tree exceeds u32 nodes");
        assert!(index != NIL, "search tree exceeds u32 nodes");
        let next = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action,
            mover,
            visits: 0,
            avail: 1,
            total: 0.0,
            prior: 0.0,
            first_child: NIL,
            next_sibling: next,
            hint: NO_HINT,
        });
        self.nodes[parent as usize].first_child = index;
        index
    }

    /// Makes the subtree under `node` the whole tree, `node` its root, with
    /// every statistic and the order of siblings kept (tree reuse).
    pub fn keep_subtree(&mut self, node: u32) {
        if node == 0 {
            return;
        }
        let mut out: Vec<Node<A>> = Vec::with_capacity(self.nodes.capacity());
        let detached = |n: &Node<A>| Node {
            first_child: NIL,
            next_sibling: NIL,
            ..*n
        };
        out.push(detached(self.get(node)));
        // Breadth first: (old index, new index) of nodes whose children are copied next.
        let mut queue = vec![(node, 0u32)];
        let mut head = 0;
        while head < queue.len() {
            let (old, new) = queue[head];
            head += 1;
            let mut prev = NIL;
            let mut c = self.get(old).first_child;
            while c != NIL {
                let index = out.len() as u32;
                out.push(detached(self.get(c)));
                if prev == NIL {
                    out[new as usize].first_child = index;
                } else {
                    out[prev as usize].next_sibling = index;
                }
                prev = index;
                queue.push((c, index));
                c = self.get(c).next_sibling;
            }
        }
        self.nodes = out;
    }

    /// The child of `parent` with this mover and action, if any.
    pub fn find_child(&self, parent: u32, mover: u8, action: A) -> Option<u32>
    where
        A: PartialEq,
    {
        self.children(parent).find(|&c| {
            let n = self.get(c);
            n.mover == mover && n.action == action
        })
    }

    /// The children of `parent`, newest first.
    pub fn children(&self, parent: u32) -> Children<'_, A> {
        Children {
            tree: self,
            next: self.get(parent).first_child,
        }
    }
}

/// Iterator over a node's children (indices).
pub struct Children<'a, A> {
    tree: &'a Tree<A>,
    next: u32,
}

impl<A: Copy> Iterator for Children<'_, A> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.next == NIL {
            return None;
        }
        let i = self.next;
        self.next = self.tree.get(i).next_sibling;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_are_linked_and_capacity_is_kept() {
        let mut t: Tree<u8> = Tree::new();
        t.reset(0);
        let a = t.add_child(0, 0, 5);
        let b = t.add_child(0, 0, 7);
        let c = t.add_child(a, 1, 3);
        assert_eq!(t.children(0).collect::<Vec<_>>(), vec![b, a]);
        assert_eq!(t.children(a).collect::<Vec<_>>(), vec![c]);
        assert_eq!(t.children(b).count(), 0);
        let cap = t.capacity();
        t.reset(0);
        assert_eq!(t.len(), 1);
        assert_eq!(t.capacity(), cap);
    }

    /// A search's memory is one node per iteration (one per seat's tree
    /// in MO-ISMCTS): 32 bytes with a one- or two-byte action, at most 40
    /// with the seed games' actions.
    #[test]
    fn a_node_is_small() {
        use crate::game::Rules;
        use std::mem::size_of;
        type Of<G> = Node<<G as Rules>::Action>;
        assert_eq!(size_of::<Node<u8>>(), 32);
        assert_eq!(size_of::<Of<crate::games::connect4::Connect4>>(), 32);
        assert!(size_of::<Of<crate::games::karmaka::Karmaka>>() <= 40);
        assert!(size_of::<Of<crate::games::fox::Fox>>() <= 40);
        assert!(size_of::<Of<crate::games::karmox::Karmox>>() <= 40);
        assert!(size_of::<Of<crate::games::hamunaptra::Hamunaptra>>() <= 40);
    }

    #[test]
    fn a_kept_subtree_keeps_its_shape_and_statistics() {
        let mut t: Tree<u8> = Tree::new();
        t.reset(0);
        let a = t.add_child(0, 0, 5);
        let b = t.add_child(0, 0, 7);
        let c = t.add_child(b, 1, 3);
        let d = t.add_child(b, 1, 4);
        let e = t.add_child(d, 0, 9);
        t.get_mut(d).visits = 6;
        t.get_mut(d).total = 2.5;
        let _ = (a, c, e);
        t.keep_subtree(b);
        assert_eq!(t.len(), 4);
        let kids: Vec<u8> = t.children(0).map(|i| t.get(i).action).collect();
        assert_eq!(kids, vec![4, 3]);
        let d2 = t.find_child(0, 1, 4).unwrap();
        assert_eq!((t.get(d2).visits, t.get(d2).total), (6, 2.5));
        assert_eq!(
            t.children(d2).map(|i| t.get(i).action).collect::<Vec<_>>(),
            vec![9]
        );
        assert_eq!(t.find_child(0, 0, 4), None);
    }
}
