//! Fox on the Run: the 5×5 grid of tiles (start tiles, face-down backs,
//! face-up tiles with their effective arrows) and the four pawns. Every seat
//! sees the same board: a face-down tile's identity is hidden from all, so
//! it is drawn as a back in every view.

use super::svg::{self, layer};
use super::{Canvas, Picture};
use crate::game::PlayerId;
use crate::game::Rules;
use crate::games::fox::board::square_name;
use crate::games::fox::state::{
    Action, CHARACTER_NAMES, Cell, Ending, FOXES, PAWN_CODES, Phase, State,
};
use crate::games::fox::{CHARACTERS, Fox};

const SQ: f64 = 100.0;
const LEFT: f64 = 30.0;
const TOP: f64 = 10.0;
/// Pawn colours in turn order: Indigo, Puffer, Scarlett, Zev.
const PAWN: [&str; 4] = ["#4b3fa8", "#8a6a3b", "#d3452b", "#4a4a4a"];
/// Start tiles by owner: Indigo, Scarlett, the Guardians.
const START: [(&str, &str); 3] = [
    ("#d8d3f5", "Indigo's start"),
    ("#f7d4cc", "Scarlett's start"),
    ("#dcdcdc", "Guardians' start"),
];

/// Every square as a clickable area named `square:c3`, on top of the board.
fn pic_squares() -> String {
    let mut out = String::new();
    for sq in 0..25u8 {
        let (x, y) = origin(sq);
        svg::pick(
            &mut out,
            [x + 2.0, y + 2.0, SQ - 4.0, SQ - 4.0],
            &format!("square:{}", square_name(sq)),
        );
    }
    out
}

fn origin(sq: u8) -> (f64, f64) {
    let (x, y) = (f64::from(sq % 5), f64::from(sq / 5));
    (LEFT + x * SQ, TOP + (4.0 - y) * SQ)
}

/// Column letters under the grid and row numbers beside it.
fn pic_frame() -> String {
    let mut frame = svg::defs();
    for i in 0..5u8 {
        let x = LEFT + SQ * (f64::from(i) + 0.5);
        let label = char::from(b'a' + i).to_string();
        svg::text(
            &mut frame,
            x,
            TOP + 5.0 * SQ + 22.0,
            18.0,
            "middle",
            "#555",
            &label,
        );
        let y = TOP + SQ * (4.0 - f64::from(i) + 0.5) + 6.0;
        svg::text(
            &mut frame,
            14.0,
            y,
            18.0,
            "middle",
            "#555",
            &(i + 1).to_string(),
        );
    }
    frame
}

/// The four pawns, one corner of their square each; the one to move ringed.
fn pic_pawns(s: &State) -> String {
    let mut pawns = String::new();
    for c in CHARACTERS {
        let (x, y) = origin(s.pos[c as usize]);
        // Up to four pawns share a square: one corner each.
        let (ox, oy) = [(30.0, 30.0), (70.0, 30.0), (30.0, 70.0), (70.0, 70.0)][c as usize];
        let stroke = if s.to_move == c && !matches!(s.phase, Phase::Over(_)) {
            "#ffcc00"
        } else {
            "#111"
        };
        pawns.push_str(&format!(
                r#"<circle cx="{:.1}" cy="{:.1}" r="17" fill="{}" stroke="{stroke}" stroke-width="4"/>"#,
                x + ox,
                y + oy,
                PAWN[c as usize]
            ));
        svg::bold(
            &mut pawns,
            x + ox,
            y + oy + 6.0,
            16.0,
            "middle",
            "#fff",
            &CHARACTER_NAMES[c as usize][..1],
        );
    }
    pawns
}

impl Fox {
    /// The 25 tiles: start tiles, backs, and face-up tiles with their arrows.
    fn pic_tiles(&self, s: &State) -> String {
        let mut tiles = String::new();
        for sq in 0..25u8 {
            let (x, y) = origin(sq);
            let cell = s.cells[sq as usize];
            match cell {
                Cell::Start(o) => {
                    let (fill, _) = START[(o as usize).min(2)];
                    svg::rect(
                        &mut tiles,
                        [x + 3.0, y + 3.0, SQ - 6.0, SQ - 6.0],
                        8.0,
                        fill,
                        "#888",
                    );
                    svg::text(
                        &mut tiles,
                        x + 50.0,
                        y + 92.0,
                        11.0,
                        "middle",
                        "#666",
                        "start",
                    );
                }
                Cell::Down(_) => svg::card_back(&mut tiles, x + 3.0, y + 3.0, SQ - 6.0, SQ - 6.0),
                Cell::Up(..) => {
                    svg::rect(
                        &mut tiles,
                        [x + 3.0, y + 3.0, SQ - 6.0, SQ - 6.0],
                        8.0,
                        "#f3e6c4",
                        "#a08850",
                    );
                    let arrows = self.movement().arrows(cell);
                    for d in 0..8u8 {
                        if arrows & 1 << d == 0 {
                            continue;
                        }
                        // Directions clockwise from north; y grows downwards here.
                        let (dx, dy) = [
                            (0.0, -1.0),
                            (1.0, -1.0),
                            (1.0, 0.0),
                            (1.0, 1.0),
                            (0.0, 1.0),
                            (-1.0, 1.0),
                            (-1.0, 0.0),
                            (-1.0, -1.0),
                        ][d as usize];
                        let (cx, cy) = (x + 50.0, y + 50.0);
                        tiles.push_str(&format!(
                            r##"<line x1="{cx}" y1="{cy}" x2="{:.1}" y2="{:.1}" stroke="#2b2b2b" stroke-width="3" marker-end="url(#arrowhead)"/>"##,
                            cx + dx * 38.0,
                            cy + dy * 38.0
                        ));
                    }
                }
            }
            svg::text(
                &mut tiles,
                x + 8.0,
                y + 16.0,
                11.0,
                "start",
                "#777",
                &square_name(sq),
            );
        }
        tiles
    }

    /// The panel beside the grid: who controls each character, turn and status.
    fn pic_panel(&self, s: &State) -> String {
        let mut panel = String::new();
        let px = LEFT + 5.0 * SQ + 20.0;
        svg::bold(
            &mut panel,
            px,
            TOP + 20.0,
            16.0,
            "start",
            "#222",
            "Characters",
        );
        for c in CHARACTERS {
            let y = TOP + 50.0 + 34.0 * f64::from(c);
            svg::circle(
                &mut panel,
                px + 12.0,
                y - 6.0,
                11.0,
                PAWN[c as usize],
                "#111",
            );
            let who = format!(
                "{} (seat {}){}",
                CHARACTER_NAMES[c as usize],
                self.controller(c),
                if s.to_move == c { " ◀" } else { "" }
            );
            svg::text(&mut panel, px + 30.0, y, 14.0, "start", "#222", &who);
        }
        let status = match s.phase {
            Phase::Move => format!("{} moves", CHARACTER_NAMES[s.to_move as usize]),
            Phase::Ability => format!("{}: ability or pass", CHARACTER_NAMES[s.to_move as usize]),
            Phase::Reveal { square, .. } => format!("flipping {}", square_name(square)),
            Phase::Over(Ending::Rescue) => "Foxes win (rescue)".into(),
            Phase::Over(Ending::Capture) => "Guardians win (capture)".into(),
            Phase::Over(Ending::AllRevealed) => "Guardians win (all revealed)".into(),
            Phase::Over(Ending::Cap) => "draw (turn cap)".into(),
        };
        let y0 = TOP + 200.0;
        svg::text(
            &mut panel,
            px,
            y0,
            14.0,
            "start",
            "#222",
            &format!("turn {}", s.turn_count),
        );
        svg::text(
            &mut panel,
            px,
            y0 + 22.0,
            14.0,
            "start",
            "#222",
            &format!("{} tiles face down", s.face_down()),
        );
        svg::bold(&mut panel, px, y0 + 48.0, 14.0, "start", "#222", &status);
        panel
    }
}

impl Picture for Fox {
    super::move_number_from_encoding!();
    fn canvas(&self, _states: &[State]) -> Option<Canvas> {
        Some(Canvas::sized(
            LEFT + 5.0 * SQ + 230.0,
            TOP + 5.0 * SQ + 60.0,
        ))
    }

    fn draw(&self, s: &State, _pov: Option<PlayerId>, _c: &Canvas) -> Vec<String> {
        vec![
            layer("frame", &pic_frame()),
            layer("tiles", &self.pic_tiles(s)),
            layer("pawns", &pic_pawns(s)),
            layer("panel", &self.pic_panel(s)),
            layer("picks", &pic_squares()),
        ]
    }

    /// A square by its name: a move or Zev's reveal there; Puffer's tile
    /// (its turn then on the buttons); Scarlett's two tiles, one after the
    /// other.
    fn picks(&self, _s: &State, action: Action) -> Vec<String> {
        let square = |q: u8| format!("square:{}", square_name(q));
        match action {
            Action::Move(q) | Action::Reveal(q) | Action::Rotate(q, _) => vec![square(q)],
            Action::Swap(a, b) => vec![square(a), square(b)],
            Action::Pass | Action::Tile(_) => Vec::new(),
        }
    }

    fn text_legend(&self) -> Vec<(String, String)> {
        let mut l = super::grids::pairs(&[
            (
                "a-e, 1-5",
                "columns and rows: a square's name (c3) is the key of a move there",
            ),
            (
                "*I *S *G",
                "start tiles of Indigo, Scarlett and the Guardians",
            ),
            ("##", "a face-down tile: nobody knows its arrows"),
            (
                "↑ ↗ → ↘ …",
                "a face-up tile's arrows, its rotation applied: where a pawn may go from it",
            ),
        ]);
        l.push(("@".into(), "the pawns on the square follow it".into()));
        for (c, name) in CHARACTER_NAMES.iter().enumerate() {
            l.push((
                PAWN_CODES[c].to_string(),
                format!(
                    "{name}'s pawn ({}, seat {})",
                    if c % 2 == 0 { "Foxes" } else { "Guardians" },
                    self.controller(c as u8)
                ),
            ));
        }
        l.push((
            "c3+90".into(),
            "Puffer's rotation of the tile on c3 by 90° clockwise (also +180, +270)".into(),
        ));
        l.push((
            "b2-c3".into(),
            "Scarlett's swap of the tiles on b2 and c3".into(),
        ));
        l
    }

    fn move_key(&self, _s: &State, action: Action) -> Option<String> {
        Some(match action {
            // Moves and Zev's reveals are never offered together.
            Action::Move(q) | Action::Reveal(q) => square_name(q),
            Action::Pass => "pass".into(),
            Action::Rotate(q, k) => format!("{}+{}", square_name(q), 90 * u32::from(k)),
            Action::Swap(a, b) => format!("{}-{}", square_name(a), square_name(b)),
            Action::Tile(_) => return None,
        })
    }

    fn seat_name(&self, _s: &State, player: PlayerId) -> String {
        let pawns: Vec<String> = (0..4u8)
            .filter(|&c| self.controller(c) == player)
            .map(|c| {
                format!(
                    "{} ({})",
                    CHARACTER_NAMES[c as usize], PAWN_CODES[c as usize]
                )
            })
            .collect();
        let side = if self.side(player) == FOXES {
            "Foxes"
        } else {
            "Guardians"
        };
        format!("the {side}: {}", pawns.join(" and "))
    }

    fn legend(&self) -> Vec<(String, String)> {
        let mut l: Vec<(String, String)> = CHARACTER_NAMES
            .iter()
            .enumerate()
            .map(|(c, name)| {
                (
                    format!("{} ({})", &name[..1], ["indigo", "brown", "red", "grey"][c]),
                    format!(
                        "{name}, played by seat {} ({})",
                        self.controller(c as u8),
                        if c % 2 == 0 { "Foxes" } else { "Guardians" }
                    ),
                )
            })
            .collect();
        l.push(("yellow ring".into(), "the character to move".into()));
        l.push((
            "hatched tile".into(),
            "face down: nobody knows its arrows".into(),
        ));
        l.push((
            "arrows".into(),
            "a face-up tile's effective directions (its rotation applied)".into(),
        ));
        for (fill, name) in START {
            l.push((format!("tile {fill}"), name.to_string()));
        }
        l.push((
            "a1…e5".into(),
            "squares, as `boardlab play` names them".into(),
        ));
        l
    }
}
