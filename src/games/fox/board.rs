//! Board geometry: squares `a1`..`e5`, the eight directions and adjacency
//! (spec §2.2, §2.3). Pure functions, no state.

/// Board side length.
pub const SIDE: i8 = 5;
/// Number of squares.
pub const SQUARES: usize = 25;

/// Direction names, index 0..8 clockwise from north (bit `1 << index` in arrow masks).
pub const DIR_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// (dx, dy) per direction index; y grows to the north.
const DELTAS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Orthogonal direction indices (N, E, S, W).
pub const ORTHOGONAL: [u8; 4] = [0, 2, 4, 6];
/// All eight direction indices.
pub const ALL_DIRS: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The square one step from `sq` in direction `dir`, if on the board.
pub fn step(sq: u8, dir: u8) -> Option<u8> {
    let (dx, dy) = DELTAS[dir as usize];
    let x = (sq as i8) % SIDE + dx;
    let y = (sq as i8) / SIDE + dy;
    if (0..SIDE).contains(&x) && (0..SIDE).contains(&y) {
        Some((y * SIDE + x) as u8)
    } else {
        None
    }
}

/// Chebyshev distance 1: the 8 neighbours (spec §2.3).
pub fn adjacent(a: u8, b: u8) -> bool {
    let (ax, ay) = ((a % 5) as i8, (a / 5) as i8);
    let (bx, by) = ((b % 5) as i8, (b / 5) as i8);
    a != b && (ax - bx).abs() <= 1 && (ay - by).abs() <= 1
}

/// Manhattan distance 1: the 4 orthogonal neighbours (the rejected reading of A15).
pub fn orthogonally_adjacent(a: u8, b: u8) -> bool {
    let (ax, ay) = ((a % 5) as i8, (a / 5) as i8);
    let (bx, by) = ((b % 5) as i8, (b / 5) as i8);
    (ax - bx).abs() + (ay - by).abs() == 1
}

/// The neighbours of `sq` (8-neighbourhood) as a bitmask over squares.
#[inline]
pub fn neighbours(sq: u8) -> u32 {
    NEIGHBOURS[sq as usize]
}

/// [`neighbours`] of every square, worked out when compiling.
const NEIGHBOURS: [u32; SQUARES] = {
    let mut t = [0u32; SQUARES];
    let mut q = 0;
    while q < SQUARES {
        let mut d = 0;
        while d < 8 {
            let x = (q as i8) % SIDE + DELTAS[d].0;
            let y = (q as i8) / SIDE + DELTAS[d].1;
            if x >= 0 && x < SIDE && y >= 0 && y < SIDE {
                t[q] |= 1 << (y * SIDE + x);
            }
            d += 1;
        }
        q += 1;
    }
    t
};

/// The squares of a bitmask, in increasing order.
pub fn squares_of(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let q = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            q
        })
    })
}

/// Effective arrow mask of a tile with canonical `mask` at `rotation` quarter-turns clockwise.
pub fn rotate_mask(mask: u8, rotation: u8) -> u8 {
    mask.rotate_left(2 * u32::from(rotation % 4))
}

/// Square name such as `c3`.
pub fn square_name(sq: u8) -> String {
    format!("{}{}", char::from(b'a' + sq % 5), sq / 5 + 1)
}

/// Parses a square name such as `c3`.
pub fn parse_square(name: &str) -> Option<u8> {
    let b = name.trim().as_bytes();
    if b.len() != 2 || !(b'a'..=b'e').contains(&b[0]) || !(b'1'..=b'5').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 5 + (b[0] - b'a'))
}

/// Parses a direction name such as `NE`.
pub fn parse_dir(name: &str) -> Option<u8> {
    DIR_NAMES
        .iter()
        .position(|d| *d == name.trim())
        .map(|d| d as u8)
}

/// Arrow mask as text, e.g. `N+E` (directions in clockwise order from N).
pub fn mask_name(mask: u8) -> String {
    let parts: Vec<&str> = (0..8)
        .filter(|d| mask & (1 << d) != 0)
        .map(|d| DIR_NAMES[d])
        .collect();
    parts.join("+")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        assert_eq!(parse_square("a1"), Some(0));
        assert_eq!(parse_square("e5"), Some(24));
        assert_eq!(parse_square("c3"), Some(12));
        assert_eq!(parse_square("f1"), None);
        assert_eq!(square_name(18), "d4");
        assert_eq!(step(0, 6), None);
        assert_eq!(step(0, 1), Some(6));
        assert_eq!(step(4, 2), None);
        assert!(adjacent(18, 24) && !adjacent(18, 18) && !adjacent(0, 2));
        assert!(!orthogonally_adjacent(18, 24) && orthogonally_adjacent(18, 19));
        assert_eq!(neighbours(0).count_ones(), 3);
        assert_eq!(neighbours(12).count_ones(), 8);
        for a in 0..SQUARES as u8 {
            let by_step = ALL_DIRS
                .iter()
                .filter_map(|&d| step(a, d))
                .fold(0u32, |m, q| m | 1 << q);
            assert_eq!(neighbours(a), by_step, "square {a}");
            let listed: Vec<u8> = squares_of(neighbours(a)).collect();
            let adjacent_in_order: Vec<u8> =
                (0..SQUARES as u8).filter(|&b| adjacent(a, b)).collect();
            assert_eq!(listed, adjacent_in_order, "square {a}");
        }
        // N at r=1 points E; N+E at r=2 points S and W (spec §2.5).
        assert_eq!(rotate_mask(0x01, 1), 0x04);
        assert_eq!(rotate_mask(0x05, 2), 0x50);
        assert_eq!(mask_name(0x50), "S+W");
    }
}
