//! The game state and action types: plain data, fixed-size arrays.

use serde::{Deserialize, Serialize};

use super::board::SQUARES;

/// Character index in turn order (spec §4.1): Indigo, Puffer, Scarlett, Zev.
pub type Character = u8;
/// Indigo, the fox who must reach Scarlett.
pub const INDIGO: Character = 0;
/// Puffer, the badger who rotates tiles.
pub const PUFFER: Character = 1;
/// Scarlett, the fox who swaps tiles.
pub const SCARLETT: Character = 2;
/// Zev, the wolf who reveals tiles and captures Indigo.
pub const ZEV: Character = 3;
/// Character names in turn order.
pub const CHARACTER_NAMES: [&str; 4] = ["Indigo", "Puffer", "Scarlett", "Zev"];
/// Short pawn codes of the spec's notation.
pub const PAWN_CODES: [&str; 4] = ["In", "Pu", "Sc", "Ze"];

/// Faction index: Foxes (Indigo, Scarlett).
pub const FOXES: u8 = 0;
/// Faction index: Guardians (Zev, Puffer).
pub const GUARDIANS: u8 = 1;

/// Faction of a character.
pub fn faction(c: Character) -> u8 {
    if c == INDIGO || c == SCARLETT {
        FOXES
    } else {
        GUARDIANS
    }
}

/// Owner of a start tile (display only: all start tiles behave alike, A20).
pub const START_CODES: [&str; 3] = ["*I", "*S", "*G"];

/// One board square's tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cell {
    /// A start tile; the number is its owner (0 Indigo, 1 Scarlett, 2 Guardians).
    Start(u8),
    /// A face-down directional tile holding physical tile `id` (hidden).
    Down(u8),
    /// A face-up directional tile: physical tile `id` at `rotation` quarter-turns clockwise.
    Up(u8, u8),
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// Indigo entered Scarlett's square: Foxes win.
    Rescue,
    /// Zev entered Indigo's square: Guardians win.
    Capture,
    /// The last directional tile was revealed: Guardians win.
    AllRevealed,
    /// The turn cap was reached: draw.
    Cap,
}

/// What happens next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// The character to move picks the final square of its movement.
    Move,
    /// Chance flips the face-down tile on `square`; `by_ability` is true for Zev's reveal.
    Reveal {
        /// The square being flipped.
        square: u8,
        /// True when Zev's ability flips it (the turn then ends).
        by_ability: bool,
    },
    /// The character to move may use its ability or pass.
    Ability,
    /// The game is over.
    Over(Ending),
}

/// The full state. Face-down cells hold one sample of the hidden assignment;
/// chance decides what a flip shows, and the sample is kept consistent with it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// Tiles by square index `y*5 + x`.
    pub cells: [Cell; SQUARES],
    /// Square of each character (turn-order index).
    pub pos: [u8; 4],
    /// The character whose turn it is.
    pub to_move: Character,
    /// Character-turns completed.
    pub turn_count: u32,
    /// Current phase.
    pub phase: Phase,
    /// Public history counted for reports (see `Reporting::metrics`).
    pub tally: Tally,
}

/// Per-character counters of the game so far, indexed by [`Character`]. They
/// are public history: part of the info key, kept by determinization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tally {
    /// Character-turns begun, skipped turns (no decision) included.
    pub turns: [u16; 4],
    /// Face-down tiles flipped during the character's turns (by entering them
    /// or by Zev's reveal).
    pub revealed: [u8; 4],
    /// Abilities used: Puffer's rotations, Scarlett's swaps, Zev's reveals.
    pub abilities: [u16; 4],
}

impl State {
    /// Number of face-down tiles.
    pub fn face_down(&self) -> u32 {
        self.cells
            .iter()
            .filter(|c| matches!(c, Cell::Down(_)))
            .count() as u32
    }

    /// Bitmask of physical tiles still face-down.
    pub fn hidden_ids(&self) -> u32 {
        self.cells.iter().fold(0, |m, c| match c {
            Cell::Down(id) => m | 1 << id,
            _ => m,
        })
    }

    /// Characters standing on `sq`, as a bitmask over characters.
    pub fn pawns_on(&self, sq: u8) -> u8 {
        (0..4)
            .filter(|&c| self.pos[c] == sq)
            .fold(0, |m, c| m | 1 << c)
    }

    /// Bitmask of squares holding a pawn.
    pub fn occupied(&self) -> u32 {
        self.pos.iter().fold(0, |m, &p| m | 1 << p)
    }
}

/// One decision or chance outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// End the movement on this square (spec §4.7 macro move; every path to it is equivalent).
    Move(u8),
    /// Skip the ability.
    Pass,
    /// Zev flips the adjacent face-down tile on this square.
    Reveal(u8),
    /// Puffer turns the tile on this square by this many quarter-turns clockwise (1..=3).
    Rotate(u8, u8),
    /// Scarlett exchanges the tiles on these two squares (first < second).
    Swap(u8, u8),
    /// Chance: the flipped tile is this physical tile.
    Tile(u8),
}
