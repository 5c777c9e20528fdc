//! Grid geometry: open sides, links, passages, edge openings, networks and
//! the tile-placement test (spec §2.6, §4.5.3, §4.6).

use super::Hamunaptra;
use super::state::{Cell, NCELLS, NO_CELL, State, cell_of, xy};

/// A fixed-size set of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellSet(pub [u64; NCELLS.div_ceil(64)]);

impl CellSet {
    /// The empty set.
    pub fn new() -> Self {
        CellSet([0; NCELLS.div_ceil(64)])
    }
    /// Membership.
    pub fn has(&self, c: u16) -> bool {
        self.0[c as usize / 64] >> (c % 64) & 1 == 1
    }
    /// Insertion.
    pub fn add(&mut self, c: u16) {
        self.0[c as usize / 64] |= 1 << (c % 64);
    }
}

impl Default for CellSet {
    fn default() -> Self {
        Self::new()
    }
}

/// Direction offsets N, E, S, W.
pub const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// Rotates a side mask clockwise by `r` quarter turns.
pub fn rotate(mask: u8, r: u8) -> u8 {
    let r = r % 4;
    ((mask << r) | (mask >> (4 - r))) & 0xF
}

/// The opposite direction.
pub fn opp(d: usize) -> usize {
    (d + 2) % 4
}

impl Hamunaptra {
    /// True when (x, y) is on the board.
    pub fn in_bounds(&self, x: i32, y: i32) -> bool {
        x.abs() <= self.h && y.abs() <= self.h
    }

    /// The neighbour of `c` in direction `d`, if on the board.
    pub fn nb(&self, c: u16, d: usize) -> Option<u16> {
        let (x, y) = xy(c);
        let (nx, ny) = (x + DIRS[d].0, y + DIRS[d].1);
        self.in_bounds(nx, ny).then(|| cell_of(nx, ny))
    }

    /// Open sides of the tile on `c` (0 when empty).
    pub fn open_of(&self, cell: &Cell) -> u8 {
        if cell.tile == 0 {
            0
        } else {
            rotate(self.comps.tiles[cell.tile as usize - 1].open, cell.rot)
        }
    }

    /// Open sides of the tile at cell index `c`.
    pub fn open(&self, s: &State, c: u16) -> u8 {
        self.open_of(&s.cells[c as usize])
    }

    /// The cell linked to `c` in direction `d`, if any.
    pub fn link(&self, s: &State, c: u16, d: usize) -> Option<u16> {
        if self.open(s, c) >> d & 1 == 0 {
            return None;
        }
        let n = self.nb(c, d)?;
        (self.open(s, n) >> opp(d) & 1 == 1).then_some(n)
    }

    /// Symbol (1-based) of a stair on `c`, or 0.
    pub fn symbol(&self, s: &State, c: u16) -> u8 {
        let t = s.cells[c as usize].tile;
        if t == 0 {
            0
        } else {
            self.comps.tiles[t as usize - 1].symbol
        }
    }

    /// True when `c` holds a stair.
    pub fn is_stair(&self, s: &State, c: u16) -> bool {
        let t = s.cells[c as usize].tile;
        t != 0 && self.comps.tiles[t as usize - 1].stairs
    }

    /// The passage twin of a symbol stair, if on the board.
    pub fn twin(&self, s: &State, c: u16) -> Option<u16> {
        let sym = self.symbol(s, c);
        if sym == 0 {
            return None;
        }
        s.stairs
            .iter()
            .copied()
            .find(|&o| o != c && self.symbol(s, o) == sym)
    }

    /// Calls `f` for every cell adjacent to `c` by a link or a passage.
    pub fn for_adjacent(&self, s: &State, c: u16, mut f: impl FnMut(u16)) {
        for d in 0..4 {
            if let Some(n) = self.link(s, c, d) {
                f(n);
            }
        }
        if let Some(t) = self.twin(s, c) {
            f(t);
        }
    }

    /// Boundary sides (bit per direction) on which `c` is an edge opening.
    pub fn edge_sides(&self, s: &State, c: u16) -> u8 {
        if !self.edge_walk {
            return 0;
        }
        let (x, y) = xy(c);
        let open = self.open(s, c);
        let mut m = 0;
        if y == self.h {
            m |= open & 1;
        }
        if x == self.h {
            m |= open & 2;
        }
        if y == -self.h {
            m |= open & 4;
        }
        if x == -self.h {
            m |= open & 8;
        }
        m
    }

    /// Cells reachable from the seeds by links (and passages if `passages`).
    pub fn component(&self, s: &State, seeds: &[u16], passages: bool) -> CellSet {
        let mut seen = CellSet::new();
        let mut queue = [0u16; NCELLS];
        let (mut head, mut tail) = (0, 0);
        for &c in seeds {
            if c != NO_CELL && s.cells[c as usize].tile != 0 && !seen.has(c) {
                seen.add(c);
                queue[tail] = c;
                tail += 1;
            }
        }
        while head < tail {
            let c = queue[head];
            head += 1;
            let mut push = |n: u16| {
                if !seen.has(n) {
                    seen.add(n);
                    queue[tail] = n;
                    tail += 1;
                }
            };
            for d in 0..4 {
                if let Some(n) = self.link(s, c, d) {
                    push(n);
                }
            }
            if let Some(t) = self.twin(s, c).filter(|_| passages) {
                push(t);
            }
        }
        seen
    }

    /// `Net(P)`: the link component of P's entrance.
    pub fn net(&self, s: &State, p: u8) -> CellSet {
        self.component(s, &[s.players[p as usize].entrance], false)
    }

    /// Distance used for the exit test from `from` to `to` (spec §2.8).
    pub fn exit_dist(&self, s: &State, from: u16, to: u16) -> i32 {
        let (ax, ay) = xy(from);
        let (bx, by) = xy(to);
        match self.metric {
            0 => (ax - bx).abs().max((ay - by).abs()),
            1 => (ax - bx).abs() + (ay - by).abs(),
            _ => self.path_dist(s, from, to),
        }
    }

    /// Shortest link path length (steps), or a large number when unlinked.
    pub fn path_dist(&self, s: &State, from: u16, to: u16) -> i32 {
        let mut dist = [u16::MAX; NCELLS];
        let mut queue = [0u16; NCELLS];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from;
        dist[from as usize] = 0;
        while head < tail {
            let c = queue[head];
            head += 1;
            if c == to {
                return i32::from(dist[c as usize]);
            }
            for d in 0..4 {
                if let Some(n) = self.link(s, c, d).filter(|&n| dist[n as usize] == u16::MAX) {
                    {
                        dist[n as usize] = dist[c as usize] + 1;
                        queue[tail] = n;
                        tail += 1;
                    }
                }
            }
        }
        1000
    }

    /// True if a living character of a seat other than `p` stands on `c`.
    pub fn others_on(&self, s: &State, c: u16, p: u8) -> bool {
        s.chars
            .iter()
            .any(|ch| ch.alive && ch.cell == c && ch.owner != p)
    }

    /// True if a living character of `p` stands on `c`.
    pub fn own_on(&self, s: &State, c: u16, p: u8) -> bool {
        s.chars
            .iter()
            .any(|ch| ch.alive && ch.cell == c && ch.owner == p)
    }

    /// True if any living character stands on `c`.
    pub fn anyone_on(&self, s: &State, c: u16) -> bool {
        s.chars.iter().any(|ch| ch.alive && ch.cell == c)
    }

    /// Can an encounter be laid on `c` (spec §4.6 `PlaceEncounter`)?
    pub fn encounter_cell_ok(&self, s: &State, c: u16) -> bool {
        let cell = &s.cells[c as usize];
        if cell.tile != 0 || cell.enc != 0 {
            return false;
        }
        (0..4).any(|d| {
            self.nb(c, d)
                .is_some_and(|n| self.open(s, n) >> super::board::opp(d) & 1 == 1)
        })
    }

    /// Can tile type `t` (0-based) be laid on `c` with rotation `r` by seat `p`?
    /// `net` is `Net(p)`, `chars` the cells with p's living characters.
    /// Returns `Some(foreign)` when legal.
    pub fn tile_ok(&self, s: &State, p: u8, t: u8, c: u16, r: u8, net: &CellSet) -> Option<bool> {
        let cell = &s.cells[c as usize];
        if cell.tile != 0 {
            return None;
        }
        let open = rotate(self.comps.tiles[t as usize].open, r);
        let mut linked_any = false;
        let mut own = false;
        let mut own_char = false;
        let here_enc = cell.enc != 0;
        for d in 0..4 {
            let Some(n) = self.nb(c, d) else {
                continue;
            };
            let nc = &s.cells[n as usize];
            if !here_enc && nc.enc != 0 {
                return None; // B1
            }
            if nc.tile == 0 {
                continue;
            }
            let mine = open >> d & 1 == 1;
            let theirs = self.open_of(nc) >> opp(d) & 1 == 1;
            if mine != theirs {
                return None;
            }
            if mine {
                if here_enc && nc.enc != 0 {
                    return None; // B2
                }
                linked_any = true;
                if net.has(n) {
                    own = true;
                    if self.own_on(s, n, p) {
                        own_char = true;
                    }
                }
            }
        }
        if !linked_any {
            return None;
        }
        if own {
            own_char.then_some(false)
        } else {
            (s.foreign == 0).then_some(true)
        }
    }

    /// True when some rotation of tile `t` fits at `c`.
    pub fn tile_fits_somewhere(&self, s: &State, p: u8, t: u8, c: u16, net: &CellSet) -> bool {
        (0..4).any(|r| self.tile_ok(s, p, t, c, r, net).is_some())
    }

    /// Rotations of tile `t` that give distinct open sets (the smallest of each).
    pub fn distinct_rot(&self, t: u8, r: u8) -> bool {
        let base = self.comps.tiles[t as usize].open;
        (0..r).all(|q| rotate(base, q) != rotate(base, r))
    }

    /// Calls `f` on every in-bounds cell that faces an open side of a tile and
    /// holds no tile (the frontier), in index order.
    pub fn for_frontier(&self, s: &State, mut f: impl FnMut(u16)) {
        let h = self.h;
        for y in -h..=h {
            for x in -h..=h {
                let c = cell_of(x, y);
                if s.cells[c as usize].tile != 0 {
                    continue;
                }
                if (0..4).any(|d| {
                    self.nb(c, d)
                        .is_some_and(|n| self.open(s, n) >> opp(d) & 1 == 1)
                }) {
                    f(c);
                }
            }
        }
    }

    /// Number of tiles on the board.
    pub fn tile_count(&self, s: &State) -> usize {
        s.cells.iter().filter(|c| c.tile != 0).count()
    }

    /// True if removing the tile on `c` keeps every other tile linked to an entrance.
    pub fn removal_keeps_connected(&self, s: &State, c: u16) -> bool {
        let t = s.clone_cells_without(c);
        let entrances: arrayvec::ArrayVec<u16, 4> = (0..self.players as usize)
            .map(|p| s.players[p].entrance)
            .collect();
        let reach = self.component_cells(&t, &entrances);
        let total = t.iter().filter(|x| x.tile != 0).count();
        reach == total
    }

    /// Number of tiles reachable by links from the seeds on a bare grid.
    fn component_cells(&self, cells: &[Cell; NCELLS], seeds: &[u16]) -> usize {
        let mut seen = CellSet::new();
        let mut queue = [0u16; NCELLS];
        let (mut head, mut tail) = (0, 0);
        for &c in seeds {
            if c != NO_CELL && cells[c as usize].tile != 0 && !seen.has(c) {
                seen.add(c);
                queue[tail] = c;
                tail += 1;
            }
        }
        while head < tail {
            let c = queue[head];
            head += 1;
            let open = self.open_of(&cells[c as usize]);
            for d in 0..4 {
                if open >> d & 1 == 0 {
                    continue;
                }
                if let Some(n) = self.nb(c, d).filter(|&n| {
                    self.open_of(&cells[n as usize]) >> opp(d) & 1 == 1 && !seen.has(n)
                }) {
                    {
                        seen.add(n);
                        queue[tail] = n;
                        tail += 1;
                    }
                }
            }
        }
        tail
    }
}

impl State {
    /// A copy of the grid with the tile on `c` removed.
    pub fn clone_cells_without(&self, c: u16) -> [Cell; NCELLS] {
        let mut t = self.cells;
        t[c as usize].tile = 0;
        t
    }
}
