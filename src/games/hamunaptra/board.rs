//! Grid geometry: open sides, links, passages, edge openings, networks and
//! the tile-placement test (spec §2.6, §4.5.3, §4.6).

use super::Hamunaptra;
use super::state::{Cell, NCELLS, NO_CELL, State, W, cell_of, xy};

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

/// Geometry and tile tables computed once per rule set, so that the
/// placement and link tests are table look-ups and bit operations.
#[derive(Clone, Debug)]
pub struct Geo {
    /// Neighbour of each cell index by direction, `NO_CELL` off the board.
    pub nbr: Vec<[u16; 4]>,
    /// Open sides by tile type + 1 (0: no tile) and rotation.
    pub open: Vec<[u8; 4]>,
    /// Per tile type, the slot keys ([`slot_key`]) some rotation fits.
    pub fits: Vec<[u64; 4]>,
}

/// Key of an empty cell's surroundings: sides facing a tile (high nibble)
/// and, among them, sides facing an open side (low nibble).
pub fn slot_key(tiled: u8, opens: u8) -> u8 {
    tiled << 4 | opens
}

fn key_has(set: &[u64; 4], key: u8) -> bool {
    set[key as usize / 64] >> (key % 64) & 1 == 1
}

impl Geo {
    /// Builds the tables for half-size `h` and tile open masks `opens` (rotation 0).
    pub fn new(h: i32, opens: &[u8]) -> Geo {
        let nbr = (0..NCELLS as u16)
            .map(|c| {
                let (x, y) = xy(c);
                let mut n = [NO_CELL; 4];
                for (d, v) in n.iter_mut().enumerate() {
                    let (nx, ny) = (x + DIRS[d].0, y + DIRS[d].1);
                    if nx.abs() <= h && ny.abs() <= h {
                        *v = cell_of(nx, ny);
                    }
                }
                n
            })
            .collect();
        let mut open = vec![[0u8; 4]];
        let mut fits = Vec::new();
        for &o in opens {
            let rots = [rotate(o, 0), rotate(o, 1), rotate(o, 2), rotate(o, 3)];
            open.push(rots);
            let mut set = [0u64; 4];
            for key in 0..=255u8 {
                let (tiled, want) = (key >> 4, key & 0xF);
                if rots.iter().any(|&m| m & tiled == want) {
                    set[key as usize / 64] |= 1 << (key % 64);
                }
            }
            fits.push(set);
        }
        Geo { nbr, open, fits }
    }
}

/// Placement facts shared by all cards within one legal-action list.
#[derive(Clone, Copy, Debug, Default)]
pub struct Slots {
    /// Keys of frontier cells where a fitting tile would be legal.
    pub keys: [u64; 4],
    /// Some frontier cell can take an encounter.
    pub enc_free: bool,
}

impl Hamunaptra {
    /// True when (x, y) is on the board.
    pub fn in_bounds(&self, x: i32, y: i32) -> bool {
        x.abs() <= self.h && y.abs() <= self.h
    }

    /// The neighbour of `c` in direction `d`, if on the board.
    #[inline]
    pub fn nb(&self, c: u16, d: usize) -> Option<u16> {
        match self.geo.nbr.get(c as usize) {
            Some(n) => (n[d] != NO_CELL).then_some(n[d]),
            None => {
                let (x, y) = xy(c);
                let (nx, ny) = (x + DIRS[d].0, y + DIRS[d].1);
                self.in_bounds(nx, ny).then(|| cell_of(nx, ny))
            }
        }
    }

    /// Open sides of the tile on `c` (0 when empty).
    #[inline]
    pub fn open_of(&self, cell: &Cell) -> u8 {
        self.geo.open[cell.tile as usize][cell.rot as usize & 3]
    }

    /// Open sides of the tile at cell index `c`.
    #[inline]
    pub fn open(&self, s: &State, c: u16) -> u8 {
        self.open_of(&s.cells[c as usize])
    }

    /// The cell linked to `c` in direction `d`, if any.
    #[inline]
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
            let open = self.open(s, c);
            for (d, &n) in self.geo.nbr[c as usize].iter().enumerate() {
                if open >> d & 1 == 1 && n != NO_CELL && self.open(s, n) >> opp(d) & 1 == 1 {
                    push(n);
                }
            }
            if passages && let Some(t) = self.twin(s, c) {
                push(t);
            }
        }
        seen
    }

    /// `Net(P)`: the link component of P's entrance.
    pub fn net(&self, s: &State, p: u8) -> CellSet {
        self.component(s, &[s.players[p as usize].entrance], false)
    }

    /// Distance used for the exit test from `from` to `to` (spec §2.8); `None`
    /// with `distance_metric=path` when no tunnel path joins them.
    pub fn exit_dist(&self, s: &State, from: u16, to: u16) -> Option<i32> {
        let (ax, ay) = xy(from);
        let (bx, by) = xy(to);
        match self.metric {
            0 => Some((ax - bx).abs().max((ay - by).abs())),
            1 => Some((ax - bx).abs() + (ay - by).abs()),
            _ => self.path_dist(s, from, to),
        }
    }

    /// Is a stair laid on `at` by the player whose entrance is `from` an exit
    /// (spec §2.8)? Decided on the board with the stair already laid; along
    /// tunnels, a stair with no path to the entrance is not an exit.
    pub fn is_exit_from(&self, s: &State, from: u16, at: u16) -> bool {
        self.exit_dist(s, from, at).is_some_and(|d| d >= self.d)
    }

    /// Shortest link path length (steps), if the cells are linked at all.
    pub fn path_dist(&self, s: &State, from: u16, to: u16) -> Option<i32> {
        let d = self.path_dists(s, from)[to as usize];
        (d != u16::MAX).then_some(i32::from(d))
    }

    /// Link path lengths (steps) from `from` to every cell, `u16::MAX` where
    /// no path leads.
    pub fn path_dists(&self, s: &State, from: u16) -> [u16; NCELLS] {
        let mut dist = [u16::MAX; NCELLS];
        if from == NO_CELL || s.cells[from as usize].tile == 0 {
            return dist;
        }
        let mut queue = [0u16; NCELLS];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from;
        dist[from as usize] = 0;
        while head < tail {
            let c = queue[head];
            head += 1;
            for d in 0..4 {
                if let Some(n) = self.link(s, c, d).filter(|&n| dist[n as usize] == u16::MAX) {
                    dist[n as usize] = dist[c as usize] + 1;
                    queue[tail] = n;
                    tail += 1;
                }
            }
        }
        dist
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
        if s.cells[c as usize].tile != 0 {
            return None;
        }
        let (key, res) = self.slot(s, p, c, net);
        let open = self.geo.open[t as usize + 1][r as usize & 3];
        ((open & (key >> 4)) == key & 0xF).then_some(res?)
    }

    /// The surroundings of the empty cell `c` as a [`slot_key`], and what
    /// [`Self::tile_ok`] returns there for any tile whose open sides match
    /// the key: every other condition is the same for all tiles and rotations.
    pub fn slot(&self, s: &State, p: u8, c: u16, net: &CellSet) -> (u8, Option<bool>) {
        let here_enc = s.cells[c as usize].enc != 0;
        let (mut tiled, mut opens) = (0u8, 0u8);
        let (mut own, mut own_char) = (false, false);
        for (d, &n) in self.geo.nbr[c as usize].iter().enumerate() {
            if n == NO_CELL {
                continue;
            }
            let nc = &s.cells[n as usize];
            if !here_enc && nc.enc != 0 {
                return (0, None); // B1
            }
            if nc.tile == 0 {
                continue;
            }
            tiled |= 1 << d;
            if self.open_of(nc) >> opp(d) & 1 == 1 {
                if here_enc && nc.enc != 0 {
                    return (0, None); // B2
                }
                opens |= 1 << d;
                own |= net.has(n);
                // Any linked tile counts, in P's network or not (§4.6 item 5):
                // a placement joining networks may lean on P's character
                // standing on the other side.
                if !own_char && self.own_on(s, n, p) {
                    own_char = true;
                }
            }
        }
        let key = slot_key(tiled, opens);
        if opens == 0 {
            return (key, None);
        }
        let res = if own {
            own_char.then_some(false)
        } else {
            (s.foreign == 0).then_some(true)
        };
        (key, res)
    }

    /// True when slot `key` takes tile type `t` in some rotation.
    pub fn fits(&self, t: u8, key: u8) -> bool {
        key_has(&self.geo.fits[t as usize], key)
    }

    /// True when some rotation of tile `t` fits at `c`.
    pub fn tile_fits_somewhere(&self, s: &State, p: u8, t: u8, c: u16, net: &CellSet) -> bool {
        if s.cells[c as usize].tile != 0 {
            return false;
        }
        let (key, res) = self.slot(s, p, c, net);
        res.is_some() && self.fits(t, key)
    }

    /// The placement facts of the frontier for seat `p` with `net = Net(p)`.
    pub fn slots(&self, s: &State, p: u8, net: &CellSet) -> Slots {
        let mut out = Slots::default();
        self.for_frontier(s, |c| {
            let (key, res) = self.slot(s, p, c, net);
            if res.is_some() {
                out.keys[key as usize / 64] |= 1 << (key % 64);
            }
            out.enc_free |= s.cells[c as usize].enc == 0;
        });
        out
    }

    /// True when a tile of type `t` fits somewhere according to `slots`.
    pub fn slots_fit(&self, slots: &Slots, t: u8) -> bool {
        let f = &self.geo.fits[t as usize];
        (0..4).any(|i| f[i] & slots.keys[i] != 0)
    }

    /// Rotations of tile `t` that give distinct open sets (the smallest of each).
    pub fn distinct_rot(&self, t: u8, r: u8) -> bool {
        let base = self.comps.tiles[t as usize].open;
        (0..r).all(|q| rotate(base, q) != rotate(base, r))
    }

    /// Calls `f` on every in-bounds cell that faces an open side of a tile and
    /// holds no tile (the frontier), in index order.
    pub fn for_frontier(&self, s: &State, mut f: impl FnMut(u16)) {
        // Row bit masks (bit x + h): the tiles, found without branches, then
        // the cells their open sides face.
        let h = self.h;
        let w = (2 * h + 1) as usize;
        let mut tiles = [0u32; W as usize];
        for (yi, t) in tiles.iter_mut().take(w).enumerate() {
            let row = cell_of(-h, yi as i32 - h) as usize;
            for (xi, cell) in s.cells[row..row + w].iter().enumerate() {
                *t |= u32::from(cell.tile != 0) << xi;
            }
        }
        let mut faced = [0u32; W as usize];
        for yi in 0..w {
            let row = cell_of(-h, yi as i32 - h);
            let mut m = tiles[yi];
            while m != 0 {
                let xi = m.trailing_zeros();
                m &= m - 1;
                let o = self.open(s, row + xi as u16);
                if o & 1 != 0 && yi + 1 < w {
                    faced[yi + 1] |= 1 << xi;
                }
                if o & 2 != 0 {
                    faced[yi] |= 2 << xi;
                }
                if o & 4 != 0 && yi > 0 {
                    faced[yi - 1] |= 1 << xi;
                }
                if o & 8 != 0 {
                    faced[yi] |= 1 << xi >> 1;
                }
            }
        }
        let full = (1u32 << w) - 1;
        for yi in 0..w {
            let mut m = faced[yi] & full & !tiles[yi];
            let row = cell_of(-h, yi as i32 - h);
            while m != 0 {
                f(row + m.trailing_zeros() as u16);
                m &= m - 1;
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
