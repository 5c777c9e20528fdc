//! Component data: the board, character sheets, item tiles, Event Table and
//! missions, parsed from the JSON blocks of the spec (embedded defaults, each
//! replaceable by a user file) and compiled into lookup tables for the rules.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::SpecError;

/// Largest board area (width × height) the fixed-size search buffers hold.
pub const MAX_SQ: usize = 1024;
/// Largest number of walkable squares (bounds the destination lists).
pub const MAX_WALKABLE: usize = 250;
/// Largest number of item tiles (Skeletors included).
pub const MAX_TILES: usize = 48;
/// Largest number of Skeletor tiles (the canonical path tries every subset).
pub const MAX_SKELETORS: usize = 4;
/// Largest number of mission cards (the deck's unknown part is a `u32` mask).
pub const MAX_MISSIONS: usize = 32;
/// Largest number of teleport squares.
pub const MAX_TELEPORTS: usize = 16;
/// Largest Event Table.
pub const MAX_EVENTS: usize = 64;
/// No square.
pub const NO_SQ: u16 = u16::MAX;
/// Off-grid marker in [`Board::nb`]: past the board, so never in a [`SqSet`].
pub const OFF: u16 = MAX_SQ as u16;
/// Words of a [`SqSet`] (128 bytes: copies stay inline).
pub const SQ_WORDS: usize = MAX_SQ / 64;

/// A set of squares, one bit each (searches test membership without
/// scanning the characters or tiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SqSet(pub [u64; SQ_WORDS]);

impl SqSet {
    /// No square.
    pub const EMPTY: SqSet = SqSet([0; SQ_WORDS]);

    /// True when `sq` is in the set (false for any index past the board).
    #[inline]
    pub fn has(&self, sq: u16) -> bool {
        let i = sq as usize;
        self.0.get(i >> 6).is_some_and(|w| (w >> (i & 63)) & 1 != 0)
    }
    /// Adds `sq` (ignored past the board).
    #[inline]
    pub fn insert(&mut self, sq: u16) {
        let i = sq as usize;
        if let Some(w) = self.0.get_mut(i >> 6) {
            *w |= 1 << (i & 63);
        }
    }
    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: u16) {
        let i = sq as usize;
        if let Some(w) = self.0.get_mut(i >> 6) {
            *w &= !(1 << (i & 63));
        }
    }
    /// The squares in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    (i * 64) as u16 + b as u16
                })
            })
        })
    }
}

/// Character ids in the canonical (release-placement) order.
pub const CHAR_IDS: [&str; 6] = ["MGa", "MGb", "GRa", "GRb", "GKa", "GKb"];
/// Character kinds, index = character id / 2.
pub const KINDS: [&str; 3] = ["MG", "GR", "GK"];
/// Stat row names, index 0 = ATT, 1 = DEF, 2 = MOV.
pub const STATS: [&str; 3] = ["ATT", "DEF", "MOV"];

/// Colour of a character: 0 blue (α), 1 red (β).
pub fn colour_of(ch: usize) -> u8 {
    (ch % 2) as u8
}

/// Index of a character id such as `GRb`.
pub fn char_index(id: &str) -> Option<usize> {
    CHAR_IDS.iter().position(|c| *c == id)
}

/// Embedded default board.
pub const BOARD_JSON: &str = include_str!("board.json");
/// Embedded default character sheets.
pub const CHARACTERS_JSON: &str = include_str!("characters.json");
/// Embedded default item tiles.
pub const ITEMS_JSON: &str = include_str!("items.json");
/// Embedded default Event Table.
pub const EVENTS_JSON: &str = include_str!("events.json");
/// Embedded default mission deck.
pub const MISSIONS_JSON: &str = include_str!("missions.json");

/// One cell as written in the board file.
#[derive(Clone, Debug, Deserialize)]
pub struct CellFile {
    /// Character id owning the cell.
    pub cell_of: String,
    /// The front square `[x, y]`.
    pub front: [u16; 2],
}

/// The board file (spec 2.2.3).
#[derive(Clone, Debug, Deserialize)]
pub struct BoardFile {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// One string per row; see the legend.
    pub rows: Vec<String>,
    /// The six cells.
    pub cells: Vec<CellFile>,
    /// Icon letter → its printed squares.
    pub icons: BTreeMap<String, Vec<[u16; 2]>>,
    /// Icon letter → name.
    #[serde(default)]
    pub icon_names: BTreeMap<String, String>,
    /// Teleport squares.
    pub teleports: Vec<[u16; 2]>,
    /// Portal squares (impassable).
    pub portal: Vec<[u16; 2]>,
    /// Portal access squares.
    pub portal_access: Vec<[u16; 2]>,
    /// Blue wing rows (inclusive), for the Explorer mission.
    pub blue_wing_rows: [u16; 2],
    /// Red wing rows (inclusive).
    pub red_wing_rows: [u16; 2],
}

/// One character kind's base statistics.
#[derive(Clone, Debug, Deserialize)]
pub struct CharFile {
    /// Display name.
    pub name: String,
    /// Base attack.
    #[serde(rename = "ATT")]
    pub att: i8,
    /// Base defence.
    #[serde(rename = "DEF")]
    pub def: i8,
    /// Base movement.
    #[serde(rename = "MOV")]
    pub mov: i8,
}

/// One item tile as written in the items file.
#[derive(Clone, Debug, Deserialize)]
pub struct TileFile {
    /// Printed id, e.g. `T01`.
    pub id: String,
    /// ring, potion, tome, scroll, forziere or skeletor.
    pub kind: String,
    /// Steal cost in adrenaline (none for Skeletors).
    pub steal_cost: Option<u8>,
    /// Pickup icon letter (none for Skeletors).
    pub icon: Option<String>,
    /// For rings: ATT, DEF or MOV.
    #[serde(default)]
    pub ring_stat: Option<String>,
    /// For Skeletors: blue or red.
    #[serde(default)]
    pub skeletor_colour: Option<String>,
    /// For Skeletors: the die faces that pass the crossing test (default 1 and 6).
    #[serde(default)]
    pub test_faces: Option<Vec<u8>>,
}

/// One Event Table square as written in the events file.
#[derive(Clone, Debug, Deserialize)]
pub struct EventFile {
    /// Position on the loop.
    pub index: usize,
    /// Effect code (UNLOCK, MOV_PLUS_2, ...).
    pub effect: String,
    /// Printed text.
    #[serde(default)]
    pub text: String,
    /// Item picture (potion, tome, ring, forziere, scroll, skeletor_blue, skeletor_red).
    pub item_picture: String,
}

/// One mission card as written in the missions file.
#[derive(Clone, Debug, Deserialize)]
pub struct MissionFile {
    /// Printed id, e.g. `M01`.
    pub id: String,
    /// Card name.
    pub name: String,
    /// event or state.
    #[serde(rename = "type")]
    pub kind: String,
    /// Printed task.
    #[serde(default)]
    pub condition: String,
    /// XP reward.
    pub xp: u8,
    /// Machine check code (see [`Check`]).
    pub check: String,
}

/// Kind of an item tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Anello Forza: +2 to one stat while equipped.
    Ring,
    /// Pozione di recupero: half a life.
    Potion,
    /// Tomo abilità: half an ability point.
    Tome,
    /// Pergamena magica: teleport permission, 1 non-permanent XP.
    Scroll,
    /// Forziere: 1 non-permanent XP, −1 movement.
    Forziere,
    /// Skeletor: placed on the board only.
    Skeletor,
}

impl Kind {
    fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "ring" => Kind::Ring,
            "potion" => Kind::Potion,
            "tome" => Kind::Tome,
            "scroll" => Kind::Scroll,
            "forziere" => Kind::Forziere,
            "skeletor" => Kind::Skeletor,
            _ => return None,
        })
    }
    /// English label.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Ring => "ring",
            Kind::Potion => "potion",
            Kind::Tome => "tome",
            Kind::Scroll => "scroll",
            Kind::Forziere => "forziere",
            Kind::Skeletor => "skeletor",
        }
    }
}

/// A compiled item tile.
#[derive(Clone, Debug)]
pub struct Tile {
    /// Printed id.
    pub id: String,
    /// Kind.
    pub kind: Kind,
    /// Steal cost (0 for Skeletors, which cannot be stolen).
    pub cost: u8,
    /// Icon index into [`Board::icon_names`] (unused for Skeletors).
    pub icon: u8,
    /// Ring stat (0 ATT, 1 DEF, 2 MOV).
    pub ring_stat: u8,
    /// Skeletor colour (0 blue, 1 red).
    pub colour: u8,
    /// Skeletor: bit `f` set when die face `f` passes the crossing test.
    pub test_faces: u8,
}

impl Tile {
    /// Probabilities that a crossing test of this Skeletor passes (at least
    /// one of two dice shows a test face) and fails, as exact 36ths.
    pub fn test_odds(&self) -> (f64, f64) {
        let miss = 6 - self.test_faces.count_ones();
        (
            f64::from(36 - miss * miss) / 36.0,
            f64::from(miss * miss) / 36.0,
        )
    }
}

/// Event Table effect codes (spec 2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Unlock the cell door.
    Unlock,
    /// +2 movement this turn.
    MovPlus2,
    /// −1 movement this turn.
    MovMinus1,
    /// One own character with 2+ life loses 1.
    Wound,
    /// One own character recovers 1 life.
    Heal,
    /// +2 ATT this turn.
    AttPlus2,
    /// −2 ATT this turn.
    AttMinus2,
    /// +2 DEF until the next own turn.
    DefPlus2,
    /// −2 DEF until the next own turn.
    DefMinus2,
    /// 3 actions.
    ActionsPlus1,
    /// 1 action.
    ActionsMinus1,
    /// Summon a Skeletor of this colour.
    Summon(u8),
    /// Free move of up to 2 steps.
    FreeStep,
    /// +2 adrenaline on attack wins.
    AdrenalinePlus2,
    /// Nothing.
    None,
}

impl Effect {
    fn parse(s: &str) -> Option<Effect> {
        Some(match s {
            "UNLOCK" => Effect::Unlock,
            "MOV_PLUS_2" => Effect::MovPlus2,
            "MOV_MINUS_1" => Effect::MovMinus1,
            "WOUND" => Effect::Wound,
            "HEAL" => Effect::Heal,
            "ATT_PLUS_2" => Effect::AttPlus2,
            "ATT_MINUS_2" => Effect::AttMinus2,
            "DEF_PLUS_2" => Effect::DefPlus2,
            "DEF_MINUS_2" => Effect::DefMinus2,
            "ACTIONS_PLUS_1" => Effect::ActionsPlus1,
            "ACTIONS_MINUS_1" => Effect::ActionsMinus1,
            "SUMMON_BLUE" => Effect::Summon(0),
            "SUMMON_RED" => Effect::Summon(1),
            "FREE_STEP" => Effect::FreeStep,
            "ADRENALINE_PLUS_2" => Effect::AdrenalinePlus2,
            "NONE" => Effect::None,
            _ => return None,
        })
    }
}

/// A compiled Event Table square.
#[derive(Clone, Debug)]
pub struct EventSquare {
    /// Effect.
    pub effect: Effect,
    /// Pictured item kind that may be activated (None on Skeletor squares).
    pub picture: Option<Kind>,
    /// Printed text.
    pub text: String,
}

/// Machine checks for mission cards (spec 2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Event bit (see `state::ev`) that completes the card.
    Event(u16),
    /// 2+ forzieri on one character.
    Forzieri2,
    /// Standing on an enemy in-play character's cell front square.
    Intruder,
    /// Blue in the red wing or red in the blue wing.
    Explorer,
    /// 3+ tiles on one character.
    Tiles3,
    /// Standing on a portal access square.
    PortalSentinel,
}

/// A compiled mission card.
#[derive(Clone, Debug)]
pub struct Mission {
    /// Printed id.
    pub id: String,
    /// Name.
    pub name: String,
    /// XP reward.
    pub xp: u8,
    /// How completion is checked.
    pub check: Check,
}

/// A compiled character kind.
#[derive(Clone, Debug)]
pub struct CharKind {
    /// Display name.
    pub name: String,
    /// Base ATT, DEF, MOV.
    pub base: [i8; 3],
}

/// The compiled board: walkability and special squares as lookup tables.
#[derive(Clone, Debug)]
pub struct Board {
    /// Columns.
    pub w: usize,
    /// Rows.
    pub h: usize,
    /// Original rows, for rendering.
    pub rows: Vec<Vec<u8>>,
    /// Walkable squares.
    pub walk: Vec<bool>,
    /// Squares where no Skeletor may stand (fronts, icons, access).
    pub special: Vec<bool>,
    /// Front square of each character's cell, by character index.
    pub front: [u16; 6],
    /// Icon index on each square, 255 if none.
    pub icon_at: Vec<u8>,
    /// Icon letters.
    pub icon_names: Vec<String>,
    /// Teleport squares.
    pub teleports: Vec<u16>,
    /// Portal access squares.
    pub access: Vec<u16>,
    /// Blue wing rows (inclusive).
    pub blue_wing: [u16; 2],
    /// Red wing rows (inclusive).
    pub red_wing: [u16; 2],
    /// Anchors legal on an empty board (every cover square walkable, not special).
    pub anchors: Vec<u16>,
    /// Neighbours of each square (N, E, S, W), [`OFF`] past the edge.
    pub nb: Vec<[u16; 4]>,
    /// The walkable squares as a set.
    pub walk_set: SqSet,
}

impl Board {
    /// Square index of `(x, y)`.
    pub fn sq(&self, x: usize, y: usize) -> u16 {
        (y * self.w + x) as u16
    }
    /// `(x, y)` of a square.
    pub fn xy(&self, sq: u16) -> (usize, usize) {
        (sq as usize % self.w, sq as usize / self.w)
    }
    /// The neighbour of `sq` in direction `dir` (0 N, 1 E, 2 S, 3 W), if on the grid.
    #[inline]
    pub fn step(&self, sq: u16, dir: u8) -> Option<u16> {
        let n = *self.nb.get(sq as usize)?.get(dir as usize)?;
        (n != OFF).then_some(n)
    }
    /// The four squares covered by a Skeletor at `anchor`.
    #[inline]
    pub fn cover(&self, anchor: u16) -> [u16; 4] {
        let w = self.w as u16;
        [anchor, anchor + 1, anchor + w, anchor + w + 1]
    }
    /// True when a Skeletor at `anchor` covers `sq`.
    #[inline]
    pub fn covers(&self, anchor: u16, sq: u16) -> bool {
        let d = sq.wrapping_sub(anchor) as usize;
        d <= 1 || d.wrapping_sub(self.w) <= 1
    }
    /// True when two squares are orthogonally adjacent.
    pub fn adjacent(&self, a: u16, b: u16) -> bool {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        ax.abs_diff(bx) + ay.abs_diff(by) == 1
    }
    /// Direction from `a` to the adjacent square `b`.
    pub fn dir_to(&self, a: u16, b: u16) -> u8 {
        (0..4).find(|&d| self.step(a, d) == Some(b)).unwrap_or(0)
    }
    /// The letters of column `x` on the board's edge: `a`…`z`, then `aa`….
    pub fn column_name(x: usize) -> String {
        let mut name = String::new();
        let mut n = x + 1;
        while n > 0 {
            n -= 1;
            name.insert(0, char::from(b'a' + (n % 26) as u8));
            n /= 26;
        }
        name
    }
    /// A square as the text board's edges name it, column letters then row
    /// number from the top (`l9`): the key of a move to it.
    pub fn key(&self, sq: u16) -> String {
        let (x, y) = self.xy(sq);
        format!("{}{}", Board::column_name(x), y + 1)
    }
    /// Human name of a square: its key (`l9`), as the board's edges name it.
    pub fn name(&self, sq: u16) -> String {
        self.key(sq)
    }
}

/// All component data of one game.
#[derive(Clone, Debug)]
pub struct Components {
    /// The board.
    pub board: Board,
    /// Character kinds MG, GR, GK.
    pub kinds: [CharKind; 3],
    /// Item tiles.
    pub tiles: Vec<Tile>,
    /// Event Table.
    pub events: Vec<EventSquare>,
    /// Mission deck.
    pub missions: Vec<Mission>,
    /// Indices of the Skeletor tiles, in tile order (the only tiles on the board).
    pub skeletors: Vec<usize>,
    /// Kind of each tile, packed for scans over all tiles.
    pub tile_kind: Vec<Kind>,
}

fn xy_ok(f: &BoardFile, p: [u16; 2], what: &str) -> Result<u16, String> {
    if (p[0] as usize) < f.width && (p[1] as usize) < f.height {
        Ok(p[1] * f.width as u16 + p[0])
    } else {
        Err(format!("{what} ({},{}) is off the board", p[0], p[1]))
    }
}

fn validate_board(f: &BoardFile) -> Result<(), String> {
    compile_board(f).map(|_| ())
}

/// The board's rows as bytes, once its size and rows are checked.
fn board_rows(f: &BoardFile) -> Result<Vec<Vec<u8>>, String> {
    if f.width < 2 || f.height < 2 || f.width * f.height > MAX_SQ || f.width > 255 {
        return Err(format!(
            "board {}x{} must be at least 2x2 and at most {MAX_SQ} squares",
            f.width, f.height
        ));
    }
    // Squares are read byte by byte: a character of several bytes would shift
    // the rest of its row.
    if let Some(y) = f.rows.iter().position(|r| !r.is_ascii()) {
        return Err(format!(
            "row {} of the board holds a character outside ASCII; board symbols are ASCII",
            y + 1
        ));
    }
    if f.rows.len() != f.height || f.rows.iter().any(|r| r.len() != f.width) {
        return Err(format!(
            "rows must be {} strings of {} characters",
            f.height, f.width
        ));
    }
    Ok(f.rows.iter().map(|r| r.bytes().collect()).collect())
}

/// Each character's cell by its front square, one walkable square each.
fn cell_fronts(f: &BoardFile, walk: &[bool], special: &mut [bool]) -> Result<[u16; 6], String> {
    let mut front = [NO_SQ; 6];
    if f.cells.len() != 6 {
        return Err(format!("expected 6 cells, found {}", f.cells.len()));
    }
    for c in &f.cells {
        let i = char_index(&c.cell_of)
            .ok_or_else(|| format!("unknown cell owner '{}' (use MGa..GKb)", c.cell_of))?;
        let s = xy_ok(f, c.front, "front square")?;
        if !walk[s as usize] {
            return Err(format!("front square of {} is not walkable", c.cell_of));
        }
        if front.contains(&s) {
            return Err(format!("two cells share the front square of {}", c.cell_of));
        }
        if front[i] != NO_SQ {
            return Err(format!("{} has two cells", c.cell_of));
        }
        front[i] = s;
        special[s as usize] = true;
    }
    if front.contains(&NO_SQ) {
        return Err("every character MGa..GKb needs a cell".into());
    }
    Ok(front)
}

/// The icon on each square (255 for none), and the icons' names.
fn icon_squares(
    f: &BoardFile,
    walk: &[bool],
    special: &mut [bool],
) -> Result<(Vec<u8>, Vec<String>), String> {
    let n = f.width * f.height;
    let mut icon_at = vec![255u8; n];
    let mut icon_names = Vec::new();
    for (name, squares) in &f.icons {
        let idx = icon_names.len() as u8;
        icon_names.push(name.clone());
        for &p in squares {
            let s = xy_ok(f, p, "icon square")?;
            if !walk[s as usize] {
                return Err(format!("icon square of {name} is not walkable"));
            }
            icon_at[s as usize] = idx;
            special[s as usize] = true;
        }
    }
    Ok((icon_at, icon_names))
}

/// The teleport squares and the portal's access squares; the portal's own
/// squares are taken off the floor.
fn portal_squares(
    f: &BoardFile,
    walk: &mut [bool],
    special: &mut [bool],
) -> Result<(Vec<u16>, Vec<u16>), String> {
    let mut teleports = Vec::new();
    for &p in &f.teleports {
        let s = xy_ok(f, p, "teleport square")?;
        if !walk[s as usize] {
            return Err("a teleport square is not walkable".into());
        }
        teleports.push(s);
    }
    if teleports.len() > MAX_TELEPORTS {
        return Err(format!("at most {MAX_TELEPORTS} teleport squares"));
    }
    for &p in &f.portal {
        let s = xy_ok(f, p, "portal square")?;
        walk[s as usize] = false;
    }
    let mut access = Vec::new();
    for &p in &f.portal_access {
        let s = xy_ok(f, p, "portal access square")?;
        if !walk[s as usize] {
            return Err("a portal access square is not walkable".into());
        }
        special[s as usize] = true;
        access.push(s);
    }
    if access.is_empty() {
        return Err("the portal needs at least one access square".into());
    }
    Ok((teleports, access))
}

/// Each square's neighbours (north, east, south, west; `OFF` past an edge)
/// and the set of walkable squares.
fn link_squares(board: &mut Board) {
    let n = board.w * board.h;
    for sq in 0..n {
        let (x, y) = (sq % board.w, sq / board.w);
        let at = |ok: bool, nx: usize, ny: usize| if ok { board.sq(nx, ny) } else { OFF };
        let nb = [
            at(y > 0, x, y.wrapping_sub(1)),
            at(x + 1 < board.w, x + 1, y),
            at(y + 1 < board.h, x, y + 1),
            at(x > 0, x.wrapping_sub(1), y),
        ];
        board.nb.push(nb);
        if board.walk[sq] {
            board.walk_set.insert(sq as u16);
        }
    }
}

/// The squares a Skeletor tile may be anchored at: its whole cover is
/// plain floor.
fn skeletor_anchors(board: &mut Board) {
    for y in 0..board.h - 1 {
        for x in 0..board.w - 1 {
            let a = board.sq(x, y);
            if board
                .cover(a)
                .iter()
                .all(|&s| board.walk[s as usize] && !board.special[s as usize])
            {
                board.anchors.push(a);
            }
        }
    }
}

fn compile_board(f: &BoardFile) -> Result<Board, String> {
    let rows = board_rows(f)?;
    let n = f.width * f.height;
    let mut walk = vec![false; n];
    for (y, r) in rows.iter().enumerate() {
        for (x, &c) in r.iter().enumerate() {
            // Everything but walls, cell interiors and the portal is floor.
            walk[y * f.width + x] = !matches!(c, b'#' | b'0'..=b'9' | b'P');
        }
    }
    let mut special = vec![false; n];
    let front = cell_fronts(f, &walk, &mut special)?;
    let (icon_at, icon_names) = icon_squares(f, &walk, &mut special)?;
    let (teleports, access) = portal_squares(f, &mut walk, &mut special)?;
    let walkable = walk.iter().filter(|&&w| w).count();
    if walkable > MAX_WALKABLE {
        return Err(format!(
            "{walkable} walkable squares, at most {MAX_WALKABLE} supported"
        ));
    }
    let mut board = Board {
        w: f.width,
        h: f.height,
        rows,
        walk,
        special,
        front,
        icon_at,
        icon_names,
        teleports,
        access,
        blue_wing: f.blue_wing_rows,
        red_wing: f.red_wing_rows,
        anchors: Vec::new(),
        nb: Vec::with_capacity(n),
        walk_set: SqSet::EMPTY,
    };
    link_squares(&mut board);
    if !portal_reachable(&board) {
        return Err(
            "no portal access square can be reached from a cell's front square, walking or by teleport"
                .into(),
        );
    }
    skeletor_anchors(&mut board);
    if board.anchors.len() > MAX_WALKABLE {
        return Err("too many Skeletor anchors".into());
    }
    Ok(board)
}

/// Can some character, walking from its cell's front square over floor
/// squares and teleporting between teleport squares, reach the portal?
/// Otherwise every game would end at the round cap.
fn portal_reachable(board: &Board) -> bool {
    let mut seen = vec![false; board.walk.len()];
    let mut todo: Vec<u16> = board.front.to_vec();
    for &f in &board.front {
        seen[f as usize] = true;
    }
    let mut teleported = false;
    while let Some(sq) = todo.pop() {
        if board.access.contains(&sq) {
            return true;
        }
        let mut next: Vec<u16> = board.nb[sq as usize].to_vec();
        if !teleported && board.teleports.contains(&sq) {
            teleported = true;
            next.extend(&board.teleports);
        }
        for n in next {
            if n != OFF && board.walk[n as usize] && !seen[n as usize] {
                seen[n as usize] = true;
                todo.push(n);
            }
        }
    }
    false
}

fn compile_tiles(t: &[TileFile], board: Option<&Board>) -> Result<Vec<Tile>, String> {
    if t.is_empty() || t.len() > MAX_TILES {
        return Err(format!("between 1 and {MAX_TILES} tiles expected"));
    }
    let mut out = Vec::new();
    let mut skeletors = 0;
    for f in t {
        let kind = Kind::parse(&f.kind).ok_or_else(|| {
            format!(
                "tile {}: unknown kind '{}' (ring, potion, tome, scroll, forziere, skeletor)",
                f.id, f.kind
            )
        })?;
        let mut tile = Tile {
            id: f.id.clone(),
            kind,
            cost: 0,
            icon: 255,
            ring_stat: 0,
            colour: 0,
            test_faces: 0,
        };
        if kind == Kind::Skeletor {
            skeletors += 1;
            tile.colour = match f.skeletor_colour.as_deref() {
                Some("blue") => 0,
                Some("red") => 1,
                _ => {
                    return Err(format!(
                        "tile {}: skeletor_colour must be blue or red",
                        f.id
                    ));
                }
            };
            let faces = f.test_faces.as_deref().unwrap_or(&[1, 6]);
            for &x in faces {
                if !(1..=6).contains(&x) {
                    return Err(format!("tile {}: test face {x} is not a die face", f.id));
                }
                tile.test_faces |= 1 << x;
            }
            // A test that always passes or always fails is no test.
            if !(1..=5).contains(&tile.test_faces.count_ones()) {
                return Err(format!(
                    "tile {}: test_faces must hold 1 to 5 distinct faces of 1..6",
                    f.id
                ));
            }
        } else {
            tile.cost = f
                .steal_cost
                .ok_or_else(|| format!("tile {}: missing steal_cost", f.id))?;
            let icon = f
                .icon
                .as_deref()
                .ok_or_else(|| format!("tile {}: missing icon", f.id))?;
            if let Some(b) = board {
                tile.icon =
                    b.icon_names.iter().position(|n| n == icon).ok_or_else(|| {
                        format!("tile {}: icon '{icon}' is not on the board", f.id)
                    })? as u8;
            }
            if kind == Kind::Ring {
                tile.ring_stat = match f.ring_stat.as_deref() {
                    Some("ATT") => 0,
                    Some("DEF") => 1,
                    Some("MOV") => 2,
                    _ => return Err(format!("tile {}: ring_stat must be ATT, DEF or MOV", f.id)),
                };
            }
        }
        out.push(tile);
    }
    if skeletors > MAX_SKELETORS {
        return Err(format!("at most {MAX_SKELETORS} Skeletor tiles"));
    }
    Ok(out)
}

fn compile_events(e: &[EventFile]) -> Result<Vec<EventSquare>, String> {
    if e.is_empty() || e.len() > MAX_EVENTS {
        return Err(format!("between 1 and {MAX_EVENTS} event squares expected"));
    }
    let mut out = Vec::new();
    for (i, f) in e.iter().enumerate() {
        if f.index != i {
            return Err(format!(
                "event squares must be listed in order; found index {} at position {i}",
                f.index
            ));
        }
        let effect = Effect::parse(&f.effect)
            .ok_or_else(|| format!("event {i}: unknown effect '{}'", f.effect))?;
        let picture = match f.item_picture.as_str() {
            "skeletor_blue" | "skeletor_red" => None,
            k => Some(
                Kind::parse(k)
                    .filter(|k| *k != Kind::Skeletor)
                    .ok_or_else(|| format!("event {i}: unknown item picture '{k}'"))?,
            ),
        };
        out.push(EventSquare {
            effect,
            picture,
            text: f.text.clone(),
        });
    }
    Ok(out)
}

fn compile_missions(m: &[MissionFile]) -> Result<Vec<Mission>, String> {
    use super::state::ev;
    if m.len() < 16 || m.len() > MAX_MISSIONS {
        return Err(format!(
            "between 16 and {MAX_MISSIONS} mission cards expected (piles hold up to 6 and the deck must never run out)"
        ));
    }
    let mut out = Vec::new();
    for f in m {
        let check = match f.check.as_str() {
            "win_attack" => Check::Event(ev::WIN),
            "defeat" => Check::Event(ev::DEFEAT),
            "steal" => Check::Event(ev::STEAL),
            "push3" => Check::Event(ev::PUSH3),
            "level_up" => Check::Event(ev::LEVEL_UP),
            "equip_ring" => Check::Event(ev::EQUIP_RING),
            "potions" => Check::Event(ev::POTIONS),
            "tomes" => Check::Event(ev::TOMES),
            "teleport" => Check::Event(ev::TELEPORT),
            "skeletor" => Check::Event(ev::SKELETOR),
            "win_a5" => Check::Event(ev::WIN_A5),
            "forzieri2" => Check::Forzieri2,
            "intruder" => Check::Intruder,
            "explorer" => Check::Explorer,
            "tiles3" => Check::Tiles3,
            "portal_sentinel" => Check::PortalSentinel,
            other => return Err(format!("mission {}: unknown check '{other}'", f.id)),
        };
        let is_event = matches!(check, Check::Event(_));
        if (f.kind == "event") != is_event || !(f.kind == "event" || f.kind == "state") {
            return Err(format!(
                "mission {}: type '{}' does not match check '{}'",
                f.id, f.kind, f.check
            ));
        }
        out.push(Mission {
            id: f.id.clone(),
            name: f.name.clone(),
            xp: f.xp,
            check,
        });
    }
    Ok(out)
}

fn validate_chars(c: &BTreeMap<String, CharFile>) -> Result<(), String> {
    for k in KINDS {
        let f = c
            .get(k)
            .ok_or_else(|| format!("missing character kind {k}"))?;
        if f.att < 0 || f.def < 0 || f.mov < 1 || f.att > 20 || f.def > 20 || f.mov > 12 {
            return Err(format!(
                "{k}: stats out of range (ATT/DEF 0..20, MOV 1..12)"
            ));
        }
    }
    Ok(())
}

/// Paths of user data files (None: embedded default).
#[derive(Clone, Debug, Default)]
pub struct DataPaths {
    /// `board=`.
    pub board: Option<String>,
    /// `characters=`.
    pub characters: Option<String>,
    /// `items=`.
    pub items: Option<String>,
    /// `events=`.
    pub events: Option<String>,
    /// `missions=`.
    pub missions: Option<String>,
}

fn as_json(p: &Option<String>) -> (Option<&str>, bool) {
    (p.as_deref(), p.is_none())
}

/// Loads and compiles every component, with clear messages on bad files.
pub fn load_components(paths: &DataPaths) -> Result<Components, SpecError> {
    // Embedded defaults are JSON; `crate::data::load` treats embedded text as TOML,
    // so defaults are parsed here directly.
    fn get<T: serde::de::DeserializeOwned + Clone + Send + Sync + 'static>(
        path: &Option<String>,
        embedded: &'static str,
        validate: impl Fn(&T) -> Result<(), String>,
    ) -> Result<T, SpecError> {
        let (p, default) = as_json(path);
        if default {
            crate::data::embedded_default(embedded, || {
                let v: T = serde_json::from_str(embedded).map_err(|e| SpecError::DataFile {
                    path: "<embedded default>".into(),
                    why: e.to_string(),
                })?;
                validate(&v).map_err(|why| SpecError::DataFile {
                    path: "<embedded default>".into(),
                    why,
                })?;
                Ok(v)
            })
        } else {
            crate::data::load(p, embedded, validate)
        }
    }
    let bf: BoardFile = get(&paths.board, BOARD_JSON, validate_board)?;
    let board = compile_board(&bf).map_err(SpecError::Invalid)?;
    let cf: BTreeMap<String, CharFile> = get(&paths.characters, CHARACTERS_JSON, validate_chars)?;
    let tf: Vec<TileFile> = get(&paths.items, ITEMS_JSON, |t: &Vec<TileFile>| {
        compile_tiles(t, None).map(|_| ())
    })?;
    let tiles = compile_tiles(&tf, Some(&board)).map_err(|why| SpecError::DataFile {
        path: paths
            .items
            .clone()
            .unwrap_or_else(|| "<embedded default>".into()),
        why,
    })?;
    let ef: Vec<EventFile> = get(&paths.events, EVENTS_JSON, |e: &Vec<EventFile>| {
        compile_events(e).map(|_| ())
    })?;
    let events = compile_events(&ef).map_err(SpecError::Invalid)?;
    let mf: Vec<MissionFile> = get(&paths.missions, MISSIONS_JSON, |m: &Vec<MissionFile>| {
        compile_missions(m).map(|_| ())
    })?;
    let missions = compile_missions(&mf).map_err(SpecError::Invalid)?;
    let kind = |k: &str| {
        let f = &cf[k];
        CharKind {
            name: f.name.clone(),
            base: [f.att, f.def, f.mov],
        }
    };
    let skeletors = (0..tiles.len())
        .filter(|&t| tiles[t].kind == Kind::Skeletor)
        .collect();
    Ok(Components {
        board,
        kinds: [kind("MG"), kind("GR"), kind("GK")],
        skeletors,
        tile_kind: tiles.iter().map(|t| t.kind).collect(),
        tiles,
        events,
        missions,
    })
}
