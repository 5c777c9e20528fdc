//! Movement (spec 4.4): destinations by breadth-first search over fixed
//! buffers, the canonical path (fewest guarding Skeletors, then shortest, then
//! N<E<S<W), walking it with Skeletor tests, pushes and release placement.

use arrayvec::ArrayVec;

use super::Karmox;
use super::data::{MAX_SKELETORS, MAX_SQ, NO_SQ, SqSet, colour_of};
use super::state::{After, Loc, Phase, State, bump, ev};

/// Destination lists: at most every walkable square (validated ≤ 250).
pub type Dests = ArrayVec<u16, 256>;

/// Longest walk (adrenaline ≤ 12 + 11 + 2 in any reachable state, clamped).
pub const MAX_STEPS: u8 = 31;

const UNSEEN: u8 = u8::MAX;

/// Breadth-first search from `from` over `allowed` squares up to `bound`
/// steps, stopping once `to` is labelled; returns its distance. Every square
/// labelled in `dist` is left in `queue`; all squares nearer than the returned
/// distance are labelled.
fn bfs_to(
    nb: &[[u16; 4]],
    allowed: &SqSet,
    from: u16,
    to: u16,
    bound: u8,
    queue: &mut ArrayVec<u16, MAX_SQ>,
    dist: &mut [u8; MAX_SQ + 1],
) -> Option<u8> {
    queue.clear();
    if !allowed.has(from) {
        return None;
    }
    let mut avail = *allowed;
    avail.remove(from);
    dist[from as usize] = 0;
    queue.push(from);
    if from == to {
        return Some(0);
    }
    let mut head = 0;
    while head < queue.len() {
        let q = queue[head];
        head += 1;
        let d = dist[q as usize];
        if d >= bound {
            break;
        }
        for &n in &nb[q as usize] {
            if avail.has(n) {
                avail.remove(n);
                dist[n as usize] = d + 1;
                queue.push(n);
                if n == to {
                    return Some(d + 1);
                }
            }
        }
    }
    None
}

impl Karmox {
    /// The character standing on `sq`, if any.
    pub fn occupant(&self, s: &State, sq: u16) -> Option<usize> {
        (0..6).find(|&c| s.ch[c].on_board() && s.ch[c].pos == sq)
    }

    /// Squares holding a character on the board.
    pub fn occupied(&self, s: &State) -> SqSet {
        let mut occ = SqSet::EMPTY;
        for c in &s.ch {
            if c.on_board() {
                occ.insert(c.pos);
            }
        }
        occ
    }

    /// The Skeletor tile covering `sq` that guards it against colour `colour`.
    pub fn guard_at(&self, s: &State, sq: u16, colour: u8) -> Option<usize> {
        self.skeletor_at(s, sq)
            .filter(|&t| self.c.tiles[t].colour != colour)
    }

    /// The Skeletor tile covering `sq`, if any.
    pub fn skeletor_at(&self, s: &State, sq: u16) -> Option<usize> {
        let b = &self.c.board;
        self.c
            .skeletors
            .iter()
            .copied()
            .find(|&t| matches!(s.tiles[t], Loc::Board(a) if b.covers(a, sq)))
    }

    /// Squares where [`Self::guard_at`] finds a guard against `colour`.
    fn guarded(&self, s: &State, colour: u8) -> SqSet {
        let mut g = SqSet::EMPTY;
        // Reverse tile order, so the first covering tile decides, as in `skeletor_at`.
        for &t in self.c.skeletors.iter().rev() {
            if let Loc::Board(a) = s.tiles[t] {
                for sq in self.c.board.cover(a) {
                    if self.c.tiles[t].colour != colour {
                        g.insert(sq);
                    } else {
                        g.remove(sq);
                    }
                }
            }
        }
        g
    }

    /// True when a square of `open` neighbours `sq`.
    pub fn can_step(&self, open: &SqSet, sq: u16) -> bool {
        self.c
            .board
            .nb
            .get(sq as usize)
            .is_some_and(|nb| nb.iter().any(|&n| open.has(n)))
    }

    /// Walkable squares free of characters.
    pub fn open(&self, s: &State) -> SqSet {
        let mut open = self.c.board.walk_set;
        for c in &s.ch {
            if c.on_board() {
                open.remove(c.pos);
            }
        }
        open
    }

    /// True when `ch` has a destination within `limit` steps: one is then a
    /// free walkable neighbour. Same as `!destinations(..).is_empty()`.
    pub fn can_move(&self, s: &State, ch: usize, limit: u8) -> bool {
        let start = s.ch[ch].pos;
        if start == NO_SQ || limit == 0 {
            return false;
        }
        self.can_step(&self.open(s), start)
    }

    /// Squares reachable by `ch` in 1..=limit steps, guarded squares counted as
    /// enterable (spec 4.4 "legal destinations"), in square order.
    pub fn destinations(&self, s: &State, ch: usize, limit: u8) -> Dests {
        let mut out = Dests::new();
        self.each_destination(s, ch, limit, |sq| out.push(sq));
        out
    }

    /// Calls `f` on each of [`Self::destinations`], in the same order.
    pub fn each_destination(&self, s: &State, ch: usize, limit: u8, mut f: impl FnMut(u16)) {
        let start = s.ch[ch].pos;
        if start == NO_SQ || limit == 0 {
            return;
        }
        let limit = limit.min(MAX_STEPS);
        let nb = &self.c.board.nb;
        let open = self.open(s);
        // Squares not yet reached; the reached ones are `open - avail`.
        let mut avail = open;
        avail.remove(start);
        let mut queue: ArrayVec<u16, MAX_SQ> = ArrayVec::new();
        queue.push(start);
        let mut head = 0;
        for _ in 0..limit {
            let end = queue.len();
            if head == end {
                break;
            }
            while head < end {
                let q = queue[head];
                head += 1;
                for &n in &nb[q as usize] {
                    if avail.has(n) {
                        avail.remove(n);
                        queue.push(n);
                    }
                }
            }
        }
        for (w, (&o, &a)) in open.0.iter().zip(&avail.0).enumerate() {
            let mut bits = o & !a;
            while bits != 0 {
                f((w * 64) as u16 + bits.trailing_zeros() as u16);
                bits &= bits - 1;
            }
        }
    }

    /// The canonical path of `ch` to `dest` within `limit` steps.
    ///
    /// Guard subsets are tried by increasing size, so the first size with a
    /// path within `limit` holds the best; each search runs from `dest` and
    /// stops once `start` is reached, which leaves exact distances below the
    /// path length (all the walk-back below needs).
    pub fn canonical_path(&self, s: &State, ch: usize, dest: u16, limit: u8) -> ArrayVec<u8, 32> {
        let b = &self.c.board;
        let start = s.ch[ch].pos;
        let colour = colour_of(ch);
        let limit = limit.min(MAX_STEPS);
        let mut path = ArrayVec::new();
        // Enterable: walkable and free of characters, the mover's square included.
        let mut open = b.walk_set;
        for c in &s.ch {
            if c.on_board() && c.pos != start {
                open.remove(c.pos);
            }
        }
        // Guarding Skeletors, indexed 0..k, with the squares each one decides
        // (a square covered twice belongs to the later guard).
        let mut guards: ArrayVec<ArrayVec<u16, 4>, MAX_SKELETORS> = ArrayVec::new();
        for &t in &self.c.skeletors {
            if self.c.tiles[t].colour != colour
                && let Loc::Board(a) = s.tiles[t]
            {
                for g in &mut guards {
                    g.retain(|sq| !b.covers(a, *sq));
                }
                guards.push(b.cover(a).into_iter().collect());
            }
        }
        let k = guards.len();
        let mut queue: ArrayVec<u16, MAX_SQ> = ArrayVec::new();
        // Distances from `dest`; index `OFF` stays unseen.
        let mut dist = [UNSEEN; MAX_SQ + 1];
        let mut best = limit;
        let mut found = false;
        for count in 0..=k as u32 {
            for set in 0..1u8 << k {
                if u32::from(set).count_ones() != count {
                    continue;
                }
                let mut allowed = open;
                for (i, g) in guards.iter().enumerate() {
                    if set & (1 << i) == 0 {
                        for &sq in g {
                            allowed.remove(sq);
                        }
                    }
                }
                let len = bfs_to(&b.nb, &allowed, dest, start, best, &mut queue, &mut dist);
                if let Some(len) = len {
                    // The lexically first shortest path of this subset; the
                    // best over equal subsets is the first over their union.
                    let mut p: ArrayVec<u8, 32> = ArrayVec::new();
                    let mut at = start;
                    for rem in (1..=len).rev() {
                        let nb = &b.nb[at as usize];
                        if let Some(dir) = (0..4).find(|&d| dist[nb[d] as usize] == rem - 1) {
                            p.push(dir as u8);
                            at = nb[dir];
                        }
                    }
                    if !found || len < best || p < path {
                        path = p;
                    }
                    best = len;
                    found = true;
                }
                for &q in &queue {
                    dist[q as usize] = UNSEEN;
                }
            }
            if found {
                break;
            }
        }
        path
    }

    /// Starts walking `ch` to `dest`; runs until a Skeletor test or the end.
    pub fn start_walk(&self, s: &mut State, ch: usize, dest: u16, limit: u8, after: After) {
        s.walk.ch = ch as u8;
        s.walk.path = self.canonical_path(s, ch, dest, limit);
        s.walk.idx = 0;
        s.walk.after = Some(after);
        self.walk_continue(s);
    }

    /// Advances the walk until a guarded square needs a test or the path ends.
    pub fn walk_continue(&self, s: &mut State) {
        let ch = s.walk.ch as usize;
        while (s.walk.idx as usize) < s.walk.path.len() {
            let dir = s.walk.path[s.walk.idx as usize];
            let Some(next) = self.c.board.step(s.ch[ch].pos, dir) else {
                break;
            };
            if self.guard_at(s, next, colour_of(ch)).is_some() {
                s.phase = Phase::SkelTest;
                return;
            }
            s.ch[ch].pos = next;
            s.walk.idx += 1;
        }
        self.walk_done(s);
    }

    /// The Skeletor the pending crossing test is against: the guard of the
    /// next square of the walk (the first Skeletor tile if none, which only a
    /// malformed state can reach).
    pub fn tested_skeletor(&self, s: &State) -> usize {
        let ch = s.walk.ch as usize;
        s.walk
            .path
            .get(s.walk.idx as usize)
            .and_then(|&dir| self.c.board.step(s.ch[ch].pos, dir))
            .and_then(|next| self.guard_at(s, next, colour_of(ch)))
            .or_else(|| self.c.skeletors.first().copied())
            .unwrap_or(0)
    }

    /// Resolves a Skeletor test of the current walk.
    pub fn skeletor_test(&self, s: &mut State, pass: bool) {
        let ch = s.walk.ch as usize;
        if pass {
            let dir = s.walk.path[s.walk.idx as usize];
            if let Some(next) = self.c.board.step(s.ch[ch].pos, dir)
                && let Some(t) = self.guard_at(s, next, colour_of(ch))
            {
                s.tiles[t] = Loc::Supply;
                bump(&mut s.tally.skeletors_eliminated[ch]);
            }
            if self.side_of_char(ch) == self.seat_side[s.seat as usize] {
                s.events |= ev::SKELETOR;
            }
            self.walk_continue(s);
        } else {
            self.walk_done(s);
        }
    }

    fn walk_done(&self, s: &mut State) {
        let after = s.walk.after.take();
        s.walk.path.clear();
        s.walk.idx = 0;
        match after {
            Some(After::EventPhase) => self.to_ep4(s),
            _ => self.action_done(s),
        }
    }

    /// Squares a target at `from` can be pushed in direction `dir`: consecutive
    /// walkable, unoccupied squares not guarded against it.
    pub fn max_push(&self, s: &State, target: usize, dir: u8) -> u8 {
        let mut n = 0u8;
        let mut at = s.ch[target].pos;
        while let Some(next) = self.c.board.step(at, dir) {
            if !self.c.board.walk[next as usize]
                || self.occupant(s, next).is_some()
                || self.guard_at(s, next, colour_of(target)).is_some()
            {
                break;
            }
            n += 1;
            at = next;
        }
        n
    }

    /// Moves `target` `p` squares in direction `dir` (assumes `p ≤ max_push`).
    pub fn push(&self, s: &mut State, target: usize, dir: u8, p: u8) {
        for _ in 0..p {
            if let Some(next) = self.c.board.step(s.ch[target].pos, dir) {
                s.ch[target].pos = next;
            }
        }
    }

    /// Release square for `ch` leaving `cell`: the front square, else the
    /// nearest walkable, unoccupied, unguarded square (BFS over walkable
    /// squares; ties by smallest y then x).
    pub fn release_square(&self, s: &State, ch: usize, cell: usize) -> u16 {
        let b = &self.c.board;
        let front = b.front[cell];
        let mut taken = self.occupied(s);
        let guarded = self.guarded(s, colour_of(ch));
        for (t, g) in taken.0.iter_mut().zip(&guarded.0) {
            *t |= g;
        }
        let mut avail = b.walk_set;
        avail.remove(front);
        let mut queue: ArrayVec<u16, MAX_SQ> = ArrayVec::new();
        queue.push(front);
        let mut head = 0;
        // One distance layer at a time; square index order is (y, x) order,
        // so the smallest free index of the first layer holding one wins.
        while head < queue.len() {
            let end = queue.len();
            let best = queue[head..end]
                .iter()
                .copied()
                .filter(|&q| !taken.has(q))
                .min();
            if let Some(sq) = best {
                return sq;
            }
            while head < end {
                let q = queue[head];
                head += 1;
                for &n in &b.nb[q as usize] {
                    if avail.has(n) {
                        avail.remove(n);
                        queue.push(n);
                    }
                }
            }
        }
        front
    }

    /// Legal Skeletor anchors now (spec 4.9).
    pub fn legal_anchors(&self, s: &State) -> Dests {
        let b = &self.c.board;
        let mut taken = self.occupied(s);
        for &t in &self.c.skeletors {
            if let Loc::Board(a) = s.tiles[t] {
                for sq in b.cover(a) {
                    taken.insert(sq);
                }
            }
        }
        let mut out = Dests::new();
        for &a in &b.anchors {
            if b.cover(a).iter().all(|&sq| !taken.has(sq)) {
                out.push(a);
            }
        }
        out
    }
}
