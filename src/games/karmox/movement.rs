//! Movement (spec 4.4): destinations by breadth-first search over fixed
//! buffers, the canonical path (fewest guarding Skeletors, then shortest, then
//! N<E<S<W), walking it with Skeletor tests, pushes and release placement.

use arrayvec::ArrayVec;

use super::Karmox;
use super::data::{Kind, MAX_SKELETORS, MAX_SQ, NO_SQ, colour_of};
use super::state::{After, Loc, Phase, State, bump, ev};

/// Destination lists: at most every walkable square (validated ≤ 250).
pub type Dests = ArrayVec<u16, 256>;

/// Longest walk (adrenaline ≤ 12 + 11 + 2 in any reachable state, clamped).
pub const MAX_STEPS: u8 = 31;

const UNSEEN: u8 = u8::MAX;

impl Karmox {
    /// The character standing on `sq`, if any.
    pub fn occupant(&self, s: &State, sq: u16) -> Option<usize> {
        (0..6).find(|&c| s.ch[c].on_board() && s.ch[c].pos == sq)
    }

    /// The Skeletor tile covering `sq` that guards it against colour `colour`.
    pub fn guard_at(&self, s: &State, sq: u16, colour: u8) -> Option<usize> {
        self.skeletor_at(s, sq)
            .filter(|&t| self.c.tiles[t].colour != colour)
    }

    /// The Skeletor tile covering `sq`, if any.
    pub fn skeletor_at(&self, s: &State, sq: u16) -> Option<usize> {
        (0..self.c.tiles.len()).find(|&t| match s.tiles[t] {
            Loc::Board(a) => self.c.board.cover(a).contains(&sq),
            _ => false,
        })
    }

    /// Walkable and free of characters (the start square of a mover counts as free).
    fn enterable(&self, s: &State, sq: u16, start: u16) -> bool {
        self.c.board.walk[sq as usize] && (sq == start || self.occupant(s, sq).is_none())
    }

    /// Squares reachable by `ch` in 1..=limit steps, guarded squares counted as
    /// enterable (spec 4.4 "legal destinations"), in square order.
    pub fn destinations(&self, s: &State, ch: usize, limit: u8) -> Dests {
        let mut out = Dests::new();
        let start = s.ch[ch].pos;
        if start == NO_SQ || limit == 0 {
            return out;
        }
        let limit = limit.min(MAX_STEPS);
        let mut occ = [false; MAX_SQ];
        for c in &s.ch {
            if c.on_board() {
                occ[c.pos as usize] = true;
            }
        }
        let mut dist = [UNSEEN; MAX_SQ];
        let mut queue = [0u16; MAX_SQ];
        let (mut head, mut tail) = (0, 1);
        queue[0] = start;
        dist[start as usize] = 0;
        while head < tail {
            let q = queue[head];
            head += 1;
            let d = dist[q as usize];
            if d >= limit {
                continue;
            }
            for dir in 0..4 {
                if let Some(n) = self.c.board.step(q, dir)
                    && dist[n as usize] == UNSEEN
                    && self.c.board.walk[n as usize]
                    && !occ[n as usize]
                {
                    dist[n as usize] = d + 1;
                    queue[tail] = n;
                    tail += 1;
                }
            }
        }
        let n = self.c.board.w * self.c.board.h;
        for (sq, &d) in dist.iter().enumerate().take(n) {
            if d != UNSEEN && d > 0 {
                out.push(sq as u16);
            }
        }
        out
    }

    /// The canonical path of `ch` to `dest` within `limit` steps.
    pub fn canonical_path(&self, s: &State, ch: usize, dest: u16, limit: u8) -> ArrayVec<u8, 32> {
        let b = &self.c.board;
        let start = s.ch[ch].pos;
        let colour = colour_of(ch);
        let limit = limit.min(MAX_STEPS);
        // Guarding Skeletors, indexed 0..k.
        let mut guards: ArrayVec<u16, MAX_SKELETORS> = ArrayVec::new();
        for (t, tile) in self.c.tiles.iter().enumerate() {
            if tile.kind == Kind::Skeletor
                && tile.colour != colour
                && let Loc::Board(a) = s.tiles[t]
            {
                guards.push(a);
            }
        }
        let mut gidx = [u8::MAX; MAX_SQ];
        for (i, &a) in guards.iter().enumerate() {
            for sq in b.cover(a) {
                gidx[sq as usize] = i as u8;
            }
        }
        let subsets = 1usize << guards.len();
        let mut dist = [[UNSEEN; MAX_SQ]; 1 << MAX_SKELETORS];
        let allowed = |sq: u16, set: usize| -> bool {
            self.enterable(s, sq, start)
                && (gidx[sq as usize] == u8::MAX || set & (1 << gidx[sq as usize]) != 0)
        };
        let mut queue = [0u16; MAX_SQ];
        for (set, dist) in dist.iter_mut().enumerate().take(subsets) {
            if !allowed(dest, set) {
                continue;
            }
            let (mut head, mut tail) = (0, 1);
            queue[0] = dest;
            dist[dest as usize] = 0;
            while head < tail {
                let q = queue[head];
                head += 1;
                let d = dist[q as usize];
                for dir in 0..4 {
                    if let Some(n) = b.step(q, dir)
                        && dist[n as usize] == UNSEEN
                        && allowed(n, set)
                    {
                        dist[n as usize] = d + 1;
                        queue[tail] = n;
                        tail += 1;
                    }
                }
            }
        }
        // Best (Skeletors entered, length).
        let mut best: Option<(u32, u8)> = None;
        for (set, d) in dist.iter().enumerate().take(subsets) {
            let len = d[start as usize];
            if len != UNSEEN && len <= limit {
                let key = ((set as u32).count_ones(), len);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        let mut path = ArrayVec::new();
        let Some((count, len)) = best else {
            return path;
        };
        let mut cands: u32 = 0;
        for (set, d) in dist.iter().enumerate().take(subsets) {
            if (set as u32).count_ones() == count && d[start as usize] == len {
                cands |= 1 << set;
            }
        }
        let mut at = start;
        for rem in (1..=len).rev() {
            for dir in 0..4u8 {
                let Some(n) = b.step(at, dir) else { continue };
                let mut next = 0u32;
                for (set, d) in dist.iter().enumerate().take(subsets) {
                    if cands & (1 << set) != 0 && allowed(n, set) && d[n as usize] == rem - 1 {
                        next |= 1 << set;
                    }
                }
                if next != 0 {
                    cands = next;
                    at = n;
                    path.push(dir);
                    break;
                }
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
        let free = |sq: u16| {
            self.occupant(s, sq).is_none() && self.guard_at(s, sq, colour_of(ch)).is_none()
        };
        let mut dist = [UNSEEN; MAX_SQ];
        let mut queue = [0u16; MAX_SQ];
        let (mut head, mut tail) = (0, 1);
        queue[0] = front;
        dist[front as usize] = 0;
        let mut best: Option<(u8, u16)> = None;
        while head < tail {
            let q = queue[head];
            head += 1;
            let d = dist[q as usize];
            if best.is_some_and(|(bd, _)| d > bd) {
                break;
            }
            // Square index order is (y, x) order, so the smallest index wins ties.
            if free(q) && best.is_none_or(|(bd, bs)| d < bd || q < bs) {
                best = Some((d, q));
            }
            for dir in 0..4 {
                if let Some(n) = b.step(q, dir)
                    && dist[n as usize] == UNSEEN
                    && b.walk[n as usize]
                {
                    dist[n as usize] = d.saturating_add(1);
                    queue[tail] = n;
                    tail += 1;
                }
            }
        }
        best.map_or(front, |(_, sq)| sq)
    }

    /// Legal Skeletor anchors now (spec 4.9).
    pub fn legal_anchors(&self, s: &State) -> Dests {
        let mut out = Dests::new();
        for &a in &self.c.board.anchors {
            if self
                .c
                .board
                .cover(a)
                .iter()
                .all(|&sq| self.occupant(s, sq).is_none() && self.skeletor_at(s, sq).is_none())
            {
                out.push(a);
            }
        }
        out
    }
}
