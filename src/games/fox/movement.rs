//! Movement (spec §4.2, §4.3): the entry rule and every distinct final
//! square of a character's chained moves, computed over the chain graph in
//! time bounded for any tile set.
//!
//! Nothing random happens and nothing else changes between the first step and
//! the end of movement, so the movement is one macro decision (spec §4.7): the
//! final square fixes the result, whichever path led there.

use super::board::{
    ALL_DIRS, ORTHOGONAL, SQUARES, adjacent, orthogonally_adjacent, rotate_mask, step,
};
use super::data::TILES;
use super::state::{Cell, Character, INDIGO, PUFFER, SCARLETT, State, ZEV};

/// The rule switches and tile masks movement depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRules {
    /// Canonical arrow mask per physical tile.
    pub masks: [u8; TILES],
    /// A7 alternative: the turn's starting square counts as already used.
    pub start_used: bool,
    /// A15 alternative: only an orthogonally adjacent Zev closes Scarlett's square.
    pub orthogonal_guard: bool,
}

impl MoveRules {
    /// Is Zev close enough to Scarlett to close her square to Indigo (A15)?
    pub fn zev_guards_scarlett(&self, s: &State) -> bool {
        let (z, sc) = (s.pos[ZEV as usize], s.pos[SCARLETT as usize]);
        if self.orthogonal_guard {
            orthogonally_adjacent(z, sc)
        } else {
            adjacent(z, sc)
        }
    }

    /// `can_enter(C, q)` of spec §4.2 for an on-board square `q`.
    pub fn can_enter(&self, s: &State, c: Character, q: u8) -> bool {
        let others = s.pawns_on(q) & !(1 << c);
        let bit = |x: Character| 1u8 << x;
        match (c, others) {
            (_, 0) => true,
            (INDIGO, o) if o == bit(SCARLETT) => !self.zev_guards_scarlett(s),
            (ZEV, o) if o & bit(INDIGO) != 0 => true,
            (ZEV, o) if o == bit(PUFFER) => true,
            (PUFFER, o) if o == bit(ZEV) => true,
            _ => false,
        }
    }

    /// Effective arrows of a face-up directional cell, 0 for any other cell.
    pub fn arrows(&self, cell: Cell) -> u8 {
        match cell {
            Cell::Up(id, r) => rotate_mask(self.masks[id as usize], r),
            _ => 0,
        }
    }

    /// First-step targets of `c`: 8 directions for Indigo, orthogonal for the others.
    pub fn first_steps<'a>(&'a self, s: &'a State, c: Character) -> impl Iterator<Item = u8> + 'a {
        let dirs: &'static [u8] = if c == INDIGO { &ALL_DIRS } else { &ORTHOGONAL };
        let from = s.pos[c as usize];
        dirs.iter()
            .filter_map(move |&d| step(from, d))
            .filter(move |&q| self.can_enter(s, c, q))
    }

    /// Has `c` a legal first step? Then its movement ends somewhere
    /// ([`MoveRules::reach`] is not empty): every tile has an arrow (a data
    /// check), so every chain ends on a stop, a blocked arrow or a used tile.
    pub fn can_move(&self, s: &State, c: Character) -> bool {
        self.first_steps(s, c).next().is_some()
    }

    /// Bitmask of every square where `c`'s movement can end, from its current
    /// square with an empty used set. Zero when no first step is legal (stay put).
    ///
    /// The chains of spec §4.3 are walks whose every square but the last is a
    /// face-up tile entered once; a walk ends on its first stop square, on a
    /// deliberately blocked arrow, or on its first return to a used tile.
    /// Enumerating them is exponential in the number of arrows, so the set of
    /// end squares is computed directly (see `Graph`): the first two kinds
    /// by reachability, the third by a two-path flow per candidate square.
    /// The cost is bounded for every tile set: at most 25 flow checks of two
    /// augmenting paths over 52 nodes, all on the stack.
    pub fn reach(&self, s: &State, c: Character) -> u32 {
        let first = self.first_steps(s, c).fold(0u32, |m, q| m | 1 << q);
        if first == 0 {
            return 0;
        }
        let g = Graph::new(self, s, c);
        let reached = g.closure(first);
        let mut out = reached & !g.chain;
        let mut candidates = reached & g.chain;
        while candidates != 0 {
            let t = candidates.trailing_zeros() as u8;
            candidates &= candidates - 1;
            if g.blocked & (1 << t) != 0 || g.returns_to(first, t) {
                out |= 1 << t;
            }
        }
        out
    }

    /// Every square a chain of `c`'s movement may enter (more than its walks
    /// enter: the used-square rule is left out), 0 when no first step is
    /// legal. [`MoveRules::reach`] reads a tile's arrows only on these
    /// squares, so turning a tile elsewhere leaves it unchanged.
    pub fn entered(&self, s: &State, c: Character) -> u32 {
        let first = self.first_steps(s, c).fold(0u32, |m, q| m | 1 << q);
        if first == 0 {
            return 0;
        }
        Graph::new(self, s, c).closure(first)
    }

    /// The old search over paths, kept as the oracle of the graph version.
    #[cfg(test)]
    pub fn reach_by_paths(&self, s: &State, c: Character) -> u32 {
        let from = s.pos[c as usize];
        let used = if self.start_used { 1u32 << from } else { 0 };
        let mut out = 0u32;
        for q in self.first_steps(s, c) {
            self.enter(s, c, q, used, &mut out);
        }
        out
    }

    /// Step 2 of spec §4.3 at square `q`: records where movement can end.
    /// The used set is part of the search state because it depends on the path.
    #[cfg(test)]
    fn enter(&self, s: &State, c: Character, q: u8, used: u32, out: &mut u32) {
        let here = 1u32 << q;
        if *out & here != 0 && !matches!(s.cells[q as usize], Cell::Up(..)) {
            return; // a stop square already recorded and never chained from
        }
        let pawns = s.pawns_on(q);
        let win = (c == INDIGO && pawns & (1 << SCARLETT) != 0)
            || (c == ZEV && pawns & (1 << INDIGO) != 0);
        let cell = s.cells[q as usize];
        if win || !matches!(cell, Cell::Up(..)) || used & here != 0 {
            *out |= here;
            return;
        }
        let used = used | here;
        let arrows = self.arrows(cell);
        for d in 0..8u8 {
            if arrows & (1 << d) == 0 {
                continue;
            }
            match step(q, d) {
                Some(r) if self.can_enter(s, c, r) => self.enter(s, c, r, used, out),
                _ => *out |= here, // effect ignored: movement ends on q (A9, A10)
            }
        }
    }
}

/// The chain graph of one movement. Its nodes are the squares `c` may enter;
/// a *chain* square (a face-up tile that is neither a winning square nor, with
/// `start_used`, the starting square) passes `c` on along each open arrow;
/// every other enterable square ends the movement.
struct Graph {
    /// Chain squares.
    chain: u32,
    /// Chain squares with an arrow off the board or into a closed square:
    /// a deliberate stop there is possible.
    blocked: u32,
    /// Squares each chain square's open arrows lead to.
    succ: [u32; SQUARES],
}

/// No square: a step off the board.
const OFF: u8 = u8::MAX;

/// The square one step from each square in each direction, or `OFF`.
const STEPS: [[u8; 8]; SQUARES] = {
    let mut t = [[OFF; 8]; SQUARES];
    let deltas: [(i8, i8); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];
    let mut q = 0;
    while q < SQUARES {
        let mut d = 0;
        while d < 8 {
            let x = (q % 5) as i8 + deltas[d].0;
            let y = (q / 5) as i8 + deltas[d].1;
            if x >= 0 && x < 5 && y >= 0 && y < 5 {
                t[q][d] = (y * 5 + x) as u8;
            }
            d += 1;
        }
        q += 1;
    }
    t
};

/// Flow network of [`Graph::returns_to`]: square `q` is split into `2q`
/// (entering it) and `2q + 1` (leaving it); `SOURCE` feeds `FIRST`, which
/// leads to the first steps.
const SOURCE: usize = 2 * SQUARES;
const FIRST: usize = SOURCE + 1;
const NODES: usize = FIRST + 1;
/// Edges, each stored with its reverse: a split per square, 8 arrows per
/// square, a first step per square, source to each square's exit, source to
/// `FIRST`.
const EDGES: usize = 2 * (SQUARES + 8 * SQUARES + SQUARES + SQUARES + 1);
const NO_EDGE: u16 = u16::MAX;

impl Graph {
    fn new(rules: &MoveRules, s: &State, c: Character) -> Graph {
        let from = s.pos[c as usize];
        let mut g = Graph {
            chain: 0,
            blocked: 0,
            succ: [0; SQUARES],
        };
        // Only squares holding another pawn can be closed (§4.2).
        let mut open = (1u32 << SQUARES) - 1;
        for (x, &q) in s.pos.iter().enumerate() {
            if x != c as usize {
                open &= !(1 << q);
            }
        }
        for (x, &q) in s.pos.iter().enumerate() {
            if x != c as usize && rules.can_enter(s, c, q) {
                open |= 1 << q;
            }
        }
        let mut stop = match c {
            INDIGO => 1 << s.pos[SCARLETT as usize],
            ZEV => 1 << s.pos[INDIGO as usize],
            _ => 0,
        };
        if rules.start_used {
            stop |= 1 << from;
        }
        for (q, &cell) in s.cells.iter().enumerate() {
            let Cell::Up(..) = cell else {
                continue;
            };
            if (open & !stop) & (1 << q) == 0 {
                continue;
            }
            g.chain |= 1 << q;
            let arrows = rules.arrows(cell);
            for (d, &r) in STEPS[q].iter().enumerate() {
                if arrows & (1 << d) == 0 {
                    continue;
                }
                if r != OFF && open & (1 << r) != 0 {
                    g.succ[q] |= 1 << r;
                } else {
                    g.blocked |= 1 << q;
                }
            }
        }
        g
    }

    /// Every square some chain from the squares of `start` enters.
    fn closure(&self, start: u32) -> u32 {
        let mut seen = start;
        let mut todo = start & self.chain;
        while todo != 0 {
            let q = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let new = self.succ[q] & !seen;
            seen |= new;
            todo |= new & self.chain;
        }
        seen
    }

    /// Can a chain from a first step return to chain square `t` after using
    /// it? Such a walk is a simple path from a first step to `t`, then a
    /// cycle from `t` back to `t` sharing no other square with that path:
    /// two vertex-disjoint paths into `t`, one from the first steps and one
    /// out of `t`, which is a maximum flow of 2 (Menger).
    fn returns_to(&self, first: u32, t: u8) -> bool {
        if self.closure(self.succ[t as usize]) & (1 << t) == 0 {
            return false; // no cycle through t
        }
        if first & (1 << t) != 0 {
            return true; // the first step enters t: any cycle will do
        }
        let mut net = Net::new();
        let t = t as usize;
        for q in 0..SQUARES {
            if self.chain & (1 << q) == 0 {
                continue;
            }
            if q != t {
                net.edge(2 * q, 2 * q + 1);
            } else {
                net.edge(SOURCE, 2 * q + 1);
            }
            if first & (1 << q) != 0 {
                net.edge(FIRST, 2 * q);
            }
            let mut to = self.succ[q] & self.chain;
            while to != 0 {
                let r = to.trailing_zeros() as usize;
                to &= to - 1;
                net.edge(2 * q + 1, 2 * r);
            }
        }
        net.edge(SOURCE, FIRST);
        net.augment(2 * t) && net.augment(2 * t)
    }
}

/// A unit-capacity flow network on the stack.
struct Net {
    head: [u16; NODES],
    next: [u16; EDGES],
    to: [u8; EDGES],
    cap: [u8; EDGES],
    len: usize,
}

impl Net {
    fn new() -> Net {
        Net {
            head: [NO_EDGE; NODES],
            next: [NO_EDGE; EDGES],
            to: [0; EDGES],
            cap: [0; EDGES],
            len: 0,
        }
    }

    /// An edge of capacity 1 and its reverse of capacity 0.
    fn edge(&mut self, u: usize, v: usize) {
        for (a, b, c) in [(u, v, 1), (v, u, 0)] {
            self.to[self.len] = b as u8;
            self.cap[self.len] = c;
            self.next[self.len] = self.head[a];
            self.head[a] = self.len as u16;
            self.len += 1;
        }
    }

    /// Pushes one unit from the source to `sink` along a shortest residual
    /// path; false when there is none.
    fn augment(&mut self, sink: usize) -> bool {
        let mut via = [NO_EDGE; NODES];
        let mut queue = [0u8; NODES];
        let (mut head, mut tail) = (0, 1);
        queue[0] = SOURCE as u8;
        let mut seen = [false; NODES];
        seen[SOURCE] = true;
        while head < tail && !seen[sink] {
            let u = queue[head] as usize;
            head += 1;
            let mut e = self.head[u];
            while e != NO_EDGE {
                let v = self.to[e as usize] as usize;
                if self.cap[e as usize] > 0 && !seen[v] {
                    seen[v] = true;
                    via[v] = e;
                    queue[tail] = v as u8;
                    tail += 1;
                }
                e = self.next[e as usize];
            }
        }
        if !seen[sink] {
            return false;
        }
        let mut v = sink;
        while v != SOURCE {
            let e = via[v] as usize;
            self.cap[e] -= 1;
            self.cap[e ^ 1] += 1;
            v = self.to[e ^ 1] as usize;
        }
        true
    }
}
