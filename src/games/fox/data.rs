//! The component data file (tile set, start layout, turn cap): parsed from
//! TOML, validated, and flattened into one entry per physical tile.

use serde::Deserialize;

use super::board::{mask_name, parse_dir, parse_square};
use crate::error::SpecError;

/// The embedded default (spec §2.4, §2.6, §6.2).
pub const DEFAULT_TILES: &str = include_str!("tiles.toml");

/// Number of directional tiles: 25 squares minus 3 start tiles.
pub const TILES: usize = 22;

/// The file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileFile {
    /// Free text naming the tile-set version.
    pub version: String,
    /// Character-turns before a draw.
    pub turn_cap: u32,
    /// Start tile squares.
    pub layout: Layout,
    /// Tile types with copy counts.
    pub tile: Vec<TileType>,
}

/// Start tile squares, each a name such as `a1`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Indigo's start tile (Indigo starts on it).
    pub indigo: String,
    /// Scarlett's start tile (Scarlett starts on it).
    pub scarlett: String,
    /// The Guardians' start tile (Zev and Puffer start on it).
    pub guardians: String,
}

/// One tile type.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileType {
    /// Display code, e.g. `N+E`.
    pub code: String,
    /// Arrow directions at rotation 0.
    pub arrows: Vec<String>,
    /// Number of physical copies.
    pub copies: u32,
}

/// The validated data in the form the rules use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSet {
    /// Tile-set version text.
    pub version: String,
    /// Character-turns before a draw.
    pub turn_cap: u32,
    /// Start squares of Indigo, Scarlett and the Guardians.
    pub starts: [u8; 3],
    /// Canonical arrow mask of each physical tile (its identity is the index).
    pub masks: [u8; TILES],
    /// Type code of each physical tile.
    pub codes: Vec<String>,
}

/// Largest accepted turn cap, so that game lengths stay bounded.
pub const MAX_TURN_CAP: u32 = 10_000;

fn validate(f: &TileFile) -> Result<(), String> {
    if f.turn_cap == 0 || f.turn_cap > MAX_TURN_CAP {
        return Err(format!(
            "turn_cap must be from 1 to {MAX_TURN_CAP}, got {}",
            f.turn_cap
        ));
    }
    let mut starts = Vec::new();
    for (who, name) in [
        ("indigo", &f.layout.indigo),
        ("scarlett", &f.layout.scarlett),
        ("guardians", &f.layout.guardians),
    ] {
        let sq = parse_square(name)
            .ok_or_else(|| format!("layout.{who} = '{name}' is not a square from a1 to e5"))?;
        if starts.contains(&sq) {
            return Err(format!(
                "layout.{who} = '{name}' repeats another start square"
            ));
        }
        starts.push(sq);
    }
    // Summed in u64: huge copy counts must not wrap around to a valid total.
    let mut total = 0u64;
    let mut masks = Vec::new();
    for t in &f.tile {
        if t.arrows.is_empty() {
            return Err(format!("tile '{}' has no arrows", t.code));
        }
        let mut mask = 0u8;
        for a in &t.arrows {
            let d = parse_dir(a).ok_or_else(|| {
                format!(
                    "tile '{}': arrow '{a}' is not one of N NE E SE S SW W NW",
                    t.code
                )
            })?;
            if mask & (1 << d) != 0 {
                return Err(format!("tile '{}' repeats arrow '{a}'", t.code));
            }
            mask |= 1 << d;
        }
        if masks.contains(&mask) {
            return Err(format!(
                "tile '{}' has the same arrows ({}) as an earlier type",
                t.code,
                mask_name(mask)
            ));
        }
        masks.push(mask);
        if t.copies == 0 {
            return Err(format!("tile '{}' has 0 copies", t.code));
        }
        total += u64::from(t.copies);
    }
    if total != TILES as u64 {
        return Err(format!(
            "the tile copies add up to {total}, but the board needs exactly {TILES} directional tiles"
        ));
    }
    Ok(())
}

impl TileSet {
    /// Loads `path`, or the embedded default when `None`.
    pub fn load(path: Option<&str>) -> Result<TileSet, SpecError> {
        let f: TileFile = crate::data::load(path, DEFAULT_TILES, validate)?;
        let start = |s: &str| parse_square(s).expect("validated");
        let mut masks = [0u8; TILES];
        let mut codes = Vec::with_capacity(TILES);
        for t in &f.tile {
            let mask = t
                .arrows
                .iter()
                .fold(0u8, |m, a| m | 1 << parse_dir(a).expect("validated"));
            for _ in 0..t.copies {
                masks[codes.len()] = mask;
                codes.push(t.code.clone());
            }
        }
        Ok(TileSet {
            version: f.version,
            turn_cap: f.turn_cap,
            starts: [
                start(&f.layout.indigo),
                start(&f.layout.scarlett),
                start(&f.layout.guardians),
            ],
            masks,
            codes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("fox-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    }

    #[test]
    fn default_matches_spec() {
        let t = TileSet::load(None).unwrap();
        assert_eq!(t.turn_cap, 200);
        assert_eq!(t.starts, [0, 24, 18]);
        let count = |m: u8| t.masks.iter().filter(|&&x| x == m).count();
        assert_eq!(count(0x01), 3);
        assert_eq!(count(0x40), 3);
        assert_eq!(count(0x80), 1);
        assert_eq!(count(0x11), 1);
        assert_eq!(t.codes.len(), TILES);
    }

    #[test]
    fn bad_files_are_explained() {
        let wrong_count = DEFAULT_TILES.replacen("copies = 3", "copies = 4", 1);
        let e = TileSet::load(Some(&write("count.toml", &wrong_count)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("add up to 23"), "{e}");
        let bad_arrow = DEFAULT_TILES.replacen("arrows = [\"N\"]", "arrows = [\"UP\"]", 1);
        let e = TileSet::load(Some(&write("arrow.toml", &bad_arrow)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("'UP'"), "{e}");
        let bad_square = DEFAULT_TILES.replace("indigo = \"a1\"", "indigo = \"z9\"");
        let e = TileSet::load(Some(&write("sq.toml", &bad_square)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("z9"), "{e}");
        let same = DEFAULT_TILES.replace("indigo = \"a1\"", "indigo = \"d4\"");
        let e = TileSet::load(Some(&write("same.toml", &same)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("repeats"), "{e}");
        let cap = DEFAULT_TILES.replace("turn_cap = 200", "turn_cap = 0");
        let e = TileSet::load(Some(&write("cap.toml", &cap)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("turn_cap"), "{e}");
        let e = TileSet::load(Some("/nonexistent/fox.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/nonexistent/fox.toml"), "{e}");
    }
}
