//! Text for humans: the board in the spec's grid notation and action labels.

use super::board::{mask_name, square_name};
use super::state::{
    Action, CHARACTER_NAMES, Cell, INDIGO, PAWN_CODES, Phase, SCARLETT, START_CODES, State, ZEV,
};

/// Arrow glyphs by direction index (N, NE, E, SE, S, SW, W, NW).
const GLYPHS: [char; 8] = ['↑', '↗', '→', '↘', '↓', '↙', '←', '↖'];
use super::{Ending, Fox};

impl Fox {
    /// One cell in the spec's notation: `##` (or `#X` when showing hidden
    /// contents), `*G`, effective arrows such as `E~1`, then `@` and the pawns.
    pub fn cell_text(&self, s: &State, sq: u8, show_hidden: bool) -> String {
        let mut t = match s.cells[sq as usize] {
            Cell::Start(o) => START_CODES[o as usize].to_string(),
            Cell::Down(id) if show_hidden && (id as usize) < self.tiles.codes.len() => {
                format!("#{}", self.tiles.codes[id as usize])
            }
            Cell::Down(_) => "##".to_string(),
            Cell::Up(_, r) => {
                let arrows = mask_name(self.mv.arrows(s.cells[sq as usize]));
                if r == 0 {
                    arrows
                } else {
                    format!("{arrows}~{r}")
                }
            }
        };
        let pawns = s.pawns_on(sq);
        if pawns != 0 {
            t.push('@');
            for (c, code) in PAWN_CODES.iter().enumerate() {
                if pawns & (1 << c) != 0 {
                    t.push_str(code);
                }
            }
        }
        t
    }

    /// One cell for the board picture: arrow glyphs for face-up tiles,
    /// otherwise as [`Fox::cell_text`].
    fn cell_picture(&self, s: &State, sq: u8, show_hidden: bool) -> String {
        let cell = s.cells[sq as usize];
        if !matches!(cell, Cell::Up(..)) {
            return self.cell_text(s, sq, show_hidden);
        }
        let arrows = self.mv.arrows(cell);
        let mut t: String = (0..8)
            .filter(|d| arrows & (1 << d) != 0)
            .map(|d| GLYPHS[d])
            .collect();
        let text = self.cell_text(s, sq, false);
        if let Some((_, pawns)) = text.split_once('@') {
            t.push('@');
            t.push_str(pawns);
        }
        t
    }

    pub(super) fn render_board(&self, s: &State, show_hidden: bool) -> String {
        let mut out = String::from("      a         b         c         d         e\n");
        for y in (0..5u8).rev() {
            out.push_str(&format!("  {}   ", y + 1));
            for x in 0..5u8 {
                out.push_str(&format!(
                    "{:<10}",
                    self.cell_picture(s, y * 5 + x, show_hidden)
                ));
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        let who = CHARACTER_NAMES[s.to_move as usize];
        let status = match s.phase {
            Phase::Move => format!("{who} to move"),
            Phase::Ability => format!("{who}: ability or pass"),
            Phase::Reveal { square, .. } => format!("{who}: flipping {}", square_name(square)),
            Phase::Over(Ending::Rescue) => "Foxes win (rescue)".to_string(),
            Phase::Over(Ending::Capture) => "Guardians win (capture)".to_string(),
            Phase::Over(Ending::AllRevealed) => "Guardians win (all revealed)".to_string(),
            Phase::Over(Ending::Cap) => "Draw (turn cap)".to_string(),
        };
        out.push_str(&format!(
            "turn {}, {} face-down, {status}\n",
            s.turn_count,
            s.face_down()
        ));
        out
    }

    pub(super) fn label(&self, s: &State, action: Action) -> String {
        let who = CHARACTER_NAMES[s.to_move as usize];
        let sq = square_name;
        match action {
            Action::Move(q) => {
                let on = |c: u8| s.pos[c as usize] == q;
                let what = match s.cells[q as usize] {
                    _ if s.to_move == INDIGO && on(SCARLETT) => " (rescue)",
                    _ if s.to_move == ZEV && on(INDIGO) => " (capture)",
                    Cell::Down(_) => " (flip)",
                    Cell::Start(_) => " (start tile)",
                    Cell::Up(..) => "",
                };
                format!("{who} moves to {}{what}", sq(q))
            }
            Action::Pass => format!("{who} passes"),
            Action::Reveal(q) => format!("{who} reveals {}", sq(q)),
            Action::Rotate(q, k) => {
                let before = self.mv.arrows(s.cells[q as usize]);
                let after = match s.cells[q as usize] {
                    Cell::Up(id, r) => self.mv.arrows(Cell::Up(id, (r + k) % 4)),
                    _ => before,
                };
                let turn = ["", "90° clockwise", "180°", "90° counter-clockwise"][k as usize % 4];
                format!(
                    "{who} rotates {} {turn} ({} -> {})",
                    sq(q),
                    mask_name(before),
                    mask_name(after)
                )
            }
            Action::Swap(a, b) => format!(
                "{who} swaps {} ({}) and {} ({})",
                sq(a),
                self.cell_text(s, a, false),
                sq(b),
                self.cell_text(s, b, false)
            ),
            Action::Tile(id) => {
                let code = self
                    .tiles
                    .codes
                    .get(id as usize)
                    .map_or("?", String::as_str);
                match s.phase {
                    Phase::Reveal { square, .. } => {
                        format!("{} is revealed as {code} (tile {id})", sq(square))
                    }
                    _ => format!("tile {id} ({code})"),
                }
            }
        }
    }
}
