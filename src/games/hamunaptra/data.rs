//! Component tables (spec §2) read from TOML and compiled into flat arrays.
//!
//! The raw file types mirror the TOML; [`Components`] is the checked, indexed
//! form the rules use. Card kinds are numbered: pile tiles first, then
//! encounters (monsters and traps), then equipment.

use serde::Deserialize;

use crate::error::SpecError;

/// The embedded default tables.
pub const DEFAULT_COMPONENTS: &str = include_str!("components.toml");

/// Most card kinds the fixed-size state can count.
pub const MAX_KINDS: usize = 64;
/// Most characters in the fixed-size state.
pub const MAX_CHARS: usize = 16;
/// Most encounters (monsters plus traps).
pub const MAX_FOES: usize = 16;
/// Most equipment cards.
pub const MAX_EQUIP: usize = 16;

/// A character sheet.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDef {
    /// Short id, e.g. `C01`.
    pub id: String,
    /// English name.
    pub name: String,
    /// Italian name.
    #[serde(default)]
    pub name_it: String,
    /// Strength.
    pub f: u8,
    /// Intelligence.
    pub i: u8,
    /// Resistance.
    pub r: u8,
    /// Movement.
    pub m: u8,
}

/// A monster or trap (F or I may be missing).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterDef {
    /// Short id, e.g. `M1`.
    pub id: String,
    /// English name.
    pub name: String,
    /// Italian name.
    #[serde(default)]
    pub name_it: String,
    /// `monster` or `trap`.
    pub kind: String,
    /// Strength, if it has one.
    #[serde(default)]
    pub f: Option<u8>,
    /// Intelligence, if it has one.
    #[serde(default)]
    pub i: Option<u8>,
    /// Resistance.
    pub r: u8,
}

/// An equipment card.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EquipmentDef {
    /// Short id, e.g. `E01`.
    pub id: String,
    /// English name.
    pub name: String,
    /// Italian name.
    #[serde(default)]
    pub name_it: String,
    /// Strength bonus (extra dice).
    #[serde(default)]
    pub f: u8,
    /// Intelligence bonus (extra dice).
    #[serde(default)]
    pub i: u8,
    /// Resistance bonus.
    #[serde(default)]
    pub r: u8,
    /// Movement bonus.
    #[serde(default)]
    pub m: u8,
    /// A scroll: may destroy a tile instead.
    #[serde(default)]
    pub destroy_tile: bool,
}

/// A tunnel, room or stair tile type of the pile.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileDef {
    /// Type id, e.g. `C-STR`.
    pub id: String,
    /// Description.
    #[serde(default)]
    pub shape: String,
    /// Open sides at rotation 0, letters from `NESW`.
    pub open: String,
    /// Cosmetic room flag.
    #[serde(default)]
    pub room: bool,
    /// A stair.
    #[serde(default)]
    pub stairs: bool,
    /// Passage symbol, if any.
    #[serde(default)]
    pub symbol: Option<String>,
    /// Copies in the pile.
    pub count: u8,
}

/// A start tile type.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartTileDef {
    /// Type id, e.g. `ENTR`.
    pub id: String,
    /// Description.
    #[serde(default)]
    pub shape: String,
    /// Open sides at rotation 0.
    pub open: String,
    /// Copies in the box.
    pub count: u8,
    /// An entrance tile (players start here).
    #[serde(default)]
    pub entrance: bool,
}

/// One start tile of a layout.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutTile {
    /// Start tile type id.
    pub tile: String,
    /// Column (east positive).
    pub x: i32,
    /// Row (north positive).
    pub y: i32,
    /// Clockwise rotation in degrees (0, 90, 180, 270).
    pub rot: u16,
}

/// The initial board for one player count.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutDef {
    /// Player count.
    pub players: u8,
    /// Connected entrances (optional rule 5).
    pub connected: bool,
    /// The tiles.
    pub tiles: Vec<LayoutTile>,
}

/// The whole components file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComponentsFile {
    /// Characters.
    pub character: Vec<CharacterDef>,
    /// Monsters and traps.
    pub encounter: Vec<EncounterDef>,
    /// Equipment.
    pub equipment: Vec<EquipmentDef>,
    /// Pile tiles.
    pub tile: Vec<TileDef>,
    /// Start tiles.
    pub start_tile: Vec<StartTileDef>,
    /// Initial layouts.
    pub layout: Vec<LayoutDef>,
}

/// What a card kind is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindClass {
    /// A pile tile; index into `Components::tiles`.
    Tile(u8),
    /// A monster or trap; index into `Components::foes`.
    Foe(u8),
    /// Equipment; index into `Components::equipment`.
    Equip(u8),
}

/// A compiled board tile type (pile tiles first, then start tiles).
#[derive(Clone, Debug)]
pub struct TileType {
    /// Id.
    pub id: String,
    /// Open sides at rotation 0 (bit 0 N, 1 E, 2 S, 3 W).
    pub open: u8,
    /// Room flag (cosmetic).
    pub room: bool,
    /// Stair flag.
    pub stairs: bool,
    /// Symbol index + 1, or 0.
    pub symbol: u8,
    /// A start tile.
    pub start: bool,
    /// An entrance tile.
    pub entrance: bool,
}

/// Checked, indexed components.
#[derive(Clone, Debug)]
pub struct Components {
    /// Characters.
    pub chars: Vec<CharacterDef>,
    /// Monsters and traps.
    pub foes: Vec<EncounterDef>,
    /// True for monsters (they move under rule 2).
    pub foe_is_monster: Vec<bool>,
    /// Equipment.
    pub equipment: Vec<EquipmentDef>,
    /// Board tile types: the pile tiles, then the start tiles.
    pub tiles: Vec<TileType>,
    /// Number of pile tile types (the first entries of `tiles`).
    pub pile_tile_types: usize,
    /// Copies of each card kind in the full pile.
    pub kind_count: Vec<u8>,
    /// Symbol names.
    pub symbols: Vec<String>,
    /// Layouts.
    pub layouts: Vec<LayoutDef>,
}

/// Parses a side string such as `NES` into a mask.
pub fn parse_sides(s: &str) -> Result<u8, String> {
    let mut m = 0;
    for c in s.chars() {
        m |= match c {
            'N' => 1,
            'E' => 2,
            'S' => 4,
            'W' => 8,
            ',' | ' ' => 0,
            _ => return Err(format!("bad side letter '{c}' in \"{s}\" (use N, E, S, W)")),
        };
    }
    Ok(m)
}

fn validate(f: &ComponentsFile) -> Result<(), String> {
    if f.character.is_empty() || f.character.len() > MAX_CHARS {
        return Err(format!("need 1 to {MAX_CHARS} characters"));
    }
    for c in &f.character {
        if !(1..=4).contains(&c.f) || !(1..=4).contains(&c.i) || c.r < 1 || c.m < 1 {
            return Err(format!(
                "character {}: F and I must be 1..4, R and M at least 1",
                c.id
            ));
        }
    }
    if f.encounter.len() > MAX_FOES {
        return Err(format!("at most {MAX_FOES} monsters and traps"));
    }
    for e in &f.encounter {
        if e.kind != "monster" && e.kind != "trap" {
            return Err(format!("encounter {}: kind must be monster or trap", e.id));
        }
        if e.f.is_none() && e.i.is_none() {
            return Err(format!("encounter {}: needs F or I", e.id));
        }
        if e.r < 1
            || e.f.is_some_and(|v| !(1..=4).contains(&v))
            || e.i.is_some_and(|v| !(1..=4).contains(&v))
        {
            return Err(format!(
                "encounter {}: F and I must be 1..4, R at least 1",
                e.id
            ));
        }
    }
    if f.equipment.len() > MAX_EQUIP {
        return Err(format!("at most {MAX_EQUIP} equipment cards"));
    }
    let kinds = f.tile.len() + f.encounter.len() + f.equipment.len();
    if kinds > MAX_KINDS {
        return Err(format!("at most {MAX_KINDS} card kinds, found {kinds}"));
    }
    if f.tile.is_empty() {
        return Err("no pile tiles: [[tile]] needs at least one tile to lay".into());
    }
    let mut symbols: Vec<(&str, u32)> = Vec::new();
    for t in &f.tile {
        parse_sides(&t.open).map_err(|e| format!("tile {}: {e}", t.id))?;
        if t.open.is_empty() {
            return Err(format!("tile {}: no open side", t.id));
        }
        if t.count == 0 {
            return Err(format!("tile {}: count must be at least 1", t.id));
        }
        if let Some(s) = &t.symbol {
            if !t.stairs {
                return Err(format!("tile {}: only stairs carry a symbol", t.id));
            }
            match symbols.iter_mut().find(|x| x.0 == s) {
                Some(x) => x.1 += u32::from(t.count),
                None => symbols.push((s, u32::from(t.count))),
            }
        }
    }
    if let Some(s) = symbols.iter().find(|s| s.1 != 2) {
        return Err(format!(
            "symbol {} appears on {} stairs; each symbol needs exactly 2",
            s.0, s.1
        ));
    }
    let total: u32 = f.tile.iter().map(|t| u32::from(t.count)).sum::<u32>()
        + f.encounter.len() as u32
        + f.equipment.len() as u32;
    if total > 250 {
        return Err(format!("the pile holds {total} cards; at most 250"));
    }
    for st in &f.start_tile {
        parse_sides(&st.open).map_err(|e| format!("start tile {}: {e}", st.id))?;
    }
    for l in &f.layout {
        if !(2..=4).contains(&l.players) {
            return Err(format!(
                "layout for {} players: only 2 to 4 are supported",
                l.players
            ));
        }
        let mut entrances = 0;
        for (i, t) in l.tiles.iter().enumerate() {
            if l.tiles[..i].iter().any(|u| (u.x, u.y) == (t.x, t.y)) {
                return Err(format!(
                    "layout for {} players lays two start tiles at ({}, {}); each needs its own square",
                    l.players, t.x, t.y
                ));
            }
            let Some(st) = f.start_tile.iter().find(|s| s.id == t.tile) else {
                return Err(format!(
                    "layout for {} players: unknown start tile {}",
                    l.players, t.tile
                ));
            };
            if ![0, 90, 180, 270].contains(&t.rot) {
                return Err(format!(
                    "layout tile {}: rotation must be 0, 90, 180 or 270",
                    t.tile
                ));
            }
            if t.x.abs() > 4 || t.y.abs() > 4 {
                return Err(format!(
                    "layout tile {} at ({}, {}): start tiles must lie within 4 of the centre",
                    t.tile, t.x, t.y
                ));
            }
            entrances += usize::from(st.entrance);
        }
        if entrances != usize::from(l.players) {
            return Err(format!(
                "layout for {} players has {entrances} entrances; it needs one per player",
                l.players
            ));
        }
    }
    Ok(())
}

impl Components {
    /// Loads and checks the tables from `path`, or the embedded defaults.
    pub fn load(path: Option<&str>) -> Result<Components, SpecError> {
        let f: ComponentsFile = crate::data::load(path, DEFAULT_COMPONENTS, validate)?;
        let mut symbols: Vec<String> = Vec::new();
        let mut tiles = Vec::new();
        let mut kind_count = Vec::new();
        for t in &f.tile {
            let symbol = match &t.symbol {
                None => 0,
                Some(s) => {
                    if !symbols.contains(s) {
                        symbols.push(s.clone());
                    }
                    symbols.iter().position(|x| x == s).unwrap() as u8 + 1
                }
            };
            tiles.push(TileType {
                id: t.id.clone(),
                open: parse_sides(&t.open).unwrap_or(0),
                room: t.room,
                stairs: t.stairs,
                symbol,
                start: false,
                entrance: false,
            });
            kind_count.push(t.count);
        }
        let pile_tile_types = tiles.len();
        for s in &f.start_tile {
            tiles.push(TileType {
                id: s.id.clone(),
                open: parse_sides(&s.open).unwrap_or(0),
                room: false,
                stairs: false,
                symbol: 0,
                start: true,
                entrance: s.entrance,
            });
        }
        kind_count.extend(f.encounter.iter().map(|_| 1));
        kind_count.extend(f.equipment.iter().map(|_| 1));
        Ok(Components {
            foe_is_monster: f.encounter.iter().map(|e| e.kind == "monster").collect(),
            chars: f.character,
            foes: f.encounter,
            equipment: f.equipment,
            tiles,
            pile_tile_types,
            kind_count,
            symbols,
            layouts: f.layout,
        })
    }

    /// Number of card kinds in the pile.
    pub fn kinds(&self) -> usize {
        self.kind_count.len()
    }

    /// What card kind `k` is.
    pub fn class(&self, k: u8) -> KindClass {
        let k = k as usize;
        let t = self.pile_tile_types;
        let f = self.foes.len();
        if k < t {
            KindClass::Tile(k as u8)
        } else if k < t + f {
            KindClass::Foe((k - t) as u8)
        } else {
            KindClass::Equip((k - t - f) as u8)
        }
    }

    /// The card kind of encounter `f`.
    pub fn foe_kind(&self, f: u8) -> u8 {
        (self.pile_tile_types + f as usize) as u8
    }

    /// The card kind of equipment `e`.
    pub fn equip_kind(&self, e: u8) -> u8 {
        (self.pile_tile_types + self.foes.len() + e as usize) as u8
    }

    /// The id of a card kind as the board prints it (`C-STR`, `M1`, `E03`):
    /// the key of a move that picks the card.
    pub fn kind_id(&self, k: u8) -> &str {
        match self.class(k) {
            KindClass::Tile(t) => &self.tiles[t as usize].id,
            KindClass::Foe(f) => &self.foes[f as usize].id,
            KindClass::Equip(e) => &self.equipment[e as usize].id,
        }
    }

    /// A card kind as the board's hands list it: id, then name.
    pub fn kind_text(&self, k: u8) -> String {
        match self.class(k) {
            KindClass::Tile(_) => self.kind_name(k),
            _ => format!("{} {}", self.kind_id(k), self.kind_name(k)),
        }
    }

    /// Display name of a card kind.
    pub fn kind_name(&self, k: u8) -> String {
        match self.class(k) {
            KindClass::Tile(t) => self.tiles[t as usize].id.clone(),
            KindClass::Foe(f) => self.foes[f as usize].name.clone(),
            KindClass::Equip(e) => self.equipment[e as usize].name.clone(),
        }
    }

    /// A stat of a character: 0 F, 1 I.
    pub fn char_stat(&self, c: u8, s: u8) -> u8 {
        let d = &self.chars[c as usize];
        if s == 0 { d.f } else { d.i }
    }

    /// A stat of an encounter (0 F, 1 I), if it has it.
    pub fn foe_stat(&self, f: u8, s: u8) -> Option<u8> {
        let d = &self.foes[f as usize];
        if s == 0 { d.f } else { d.i }
    }

    /// Equipment bonus: 0 F, 1 I, 2 R, 3 M.
    pub fn equip_bonus(&self, e: u8, k: u8) -> u8 {
        let d = &self.equipment[e as usize];
        match k {
            0 => d.f,
            1 => d.i,
            2 => d.r,
            _ => d.m,
        }
    }
}
