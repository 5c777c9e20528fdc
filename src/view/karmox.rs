//! Karmox: the board (walls, floor, prison cells, icon squares, teleports,
//! the portal), the characters, Skeletors, every character sheet with its
//! items, the event square and each side's secret missions. A seat's view is
//! drawn from `Karmox::info`: another side's unrevealed missions are backs.

use super::svg::{self, layer};
use super::{Canvas, Picture};
use crate::game::PlayerId;
use crate::games::karmox::Karmox;
use crate::games::karmox::data::{Board, CHAR_IDS, Kind, STATS, colour_of};
use crate::games::karmox::determinize::HIDDEN;
use crate::games::karmox::state::{Action, Phase, State};

const SQ: f64 = 28.0;
const PANEL_W: f64 = 470.0;
/// The side panel's text: size, line height, characters a line, first line.
const SIDE_FONT: f64 = 12.5;
const LINE_H: f64 = 16.0;
const SIDE_CHARS: usize = 60;
const PANEL_TOP: f64 = 74.0;
/// The margin of the board's coordinates.
const EDGE: f64 = 22.0;
const SIDE: [&str; 2] = ["#2a6fdb", "#d0352b"];

fn board_colour(c: u8) -> (&'static str, &'static str) {
    match c {
        b'#' => ("#5b5248", ""),
        b'1'..=b'6' => ("#b9b0c9", ""),
        b'a'..=b'f' => ("#e6e0f0", ""),
        b'T' => ("#9fe3e0", "T"),
        b'P' => ("#7b3fa0", ""),
        b'>' => ("#d8c3ea", ""),
        b'R' | b'L' | b'I' | b'G' => ("#f2dfa0", ""),
        _ => ("#efe9dc", ""),
    }
}

impl Karmox {
    fn pic_board_w(&self) -> f64 {
        self.c.board.w as f64 * SQ
    }

    fn pic_at(&self, sq: u16) -> (f64, f64) {
        let (x, y) = self.c.board.xy(sq);
        (x as f64 * SQ, y as f64 * SQ)
    }

    fn pic_pawn(&self, out: &mut String, x: f64, y: f64, c: usize) {
        out.push_str(&format!(
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{}" stroke="#111" stroke-width="2"/>"##,
            x,
            y,
            SQ * 0.45,
            SIDE[colour_of(c) as usize]
        ));
        svg::bold(out, x, y + 4.0, 10.0, "middle", "#fff", CHAR_IDS[c]);
    }

    /// The board: column letters, row numbers, the squares and their marks.
    fn pic_board(&self) -> String {
        let b = &self.c.board;
        let mut board = svg::defs();
        for x in 0..b.w {
            let name = Board::column_name(x);
            let cx = (x as f64 + 0.5) * SQ;
            svg::text(&mut board, cx, -6.0, 11.0, "middle", "#555", &name);
        }
        for y in 0..b.h {
            let cy = (y as f64 + 0.65) * SQ;
            svg::text(
                &mut board,
                -4.0,
                cy,
                11.0,
                "end",
                "#555",
                &(y + 1).to_string(),
            );
        }
        for (y, row) in b.rows.iter().enumerate() {
            for (x, &ch) in row.iter().enumerate() {
                let (fill, mark) = board_colour(ch);
                svg::rect(
                    &mut board,
                    [x as f64 * SQ, y as f64 * SQ, SQ, SQ],
                    0.0,
                    fill,
                    "#00000022",
                );
                let label = match ch {
                    b'R' | b'L' | b'I' | b'G' | b'P' => (ch as char).to_string(),
                    _ => mark.to_string(),
                };
                if !label.is_empty() {
                    svg::text(
                        &mut board,
                        (x as f64 + 0.5) * SQ,
                        (y as f64 + 0.7) * SQ,
                        12.0,
                        "middle",
                        "#333",
                        &label,
                    );
                }
            }
        }
        board
    }

    /// Skeletor tiles on the board, then each character in play: on its
    /// square, or as a prisoner in its captor's cell.
    fn pic_pieces(&self, v: &State) -> String {
        let b = &self.c.board;
        let mut pieces = String::new();
        for (t, tile) in self.c.tiles.iter().enumerate() {
            if let crate::games::karmox::state::Loc::Board(a) = v.tiles[t] {
                let (x, y) = self.pic_at(a);
                svg::rect(
                    &mut pieces,
                    [x + 2.0, y + 2.0, 2.0 * SQ - 4.0, 2.0 * SQ - 4.0],
                    6.0,
                    "#eee8d5",
                    SIDE[tile.colour as usize % 2],
                );
                svg::bold(
                    &mut pieces,
                    x + SQ,
                    y + SQ + 5.0,
                    14.0,
                    "middle",
                    SIDE[tile.colour as usize % 2],
                    "☠",
                );
            }
        }
        // Prisoners wait in the cell of their captor, beside its front square.
        let mut held = [0u8; 6];
        for (c, ch) in v.ch.iter().enumerate() {
            if !ch.in_play {
                continue;
            }
            if ch.prison > 0 {
                let cell = ch.prison_cell as usize % 6;
                let front = b.front[cell];
                let inside = (0..4u8)
                    .filter_map(|d| b.step(front, d))
                    .find(|&q| matches!(b.rows[b.xy(q).1][b.xy(q).0], b'1'..=b'6'))
                    .unwrap_or(front);
                let (x, y) = self.pic_at(inside);
                let k = f64::from(held[cell]);
                held[cell] += 1;
                self.pic_pawn(&mut pieces, x + SQ / 2.0 + k * SQ * 0.9, y + SQ / 2.0, c);
                svg::text(
                    &mut pieces,
                    x + SQ / 2.0 + k * SQ * 0.9,
                    y - 2.0,
                    9.0,
                    "middle",
                    "#111",
                    &format!("⛓{}", ch.prison),
                );
            } else {
                let (x, y) = self.pic_at(ch.pos);
                self.pic_pawn(&mut pieces, x + SQ / 2.0, y + SQ / 2.0, c);
            }
        }
        pieces
    }

    /// Every square (`square:l9`), and on top every character standing on
    /// the board (`char:M`), as clickable areas.
    fn pic_picks(&self, v: &State) -> String {
        let b = &self.c.board;
        let mut out = String::new();
        for q in 0..(b.w * b.h) as u16 {
            let (x, y) = self.pic_at(q);
            svg::pick(&mut out, [x, y, SQ, SQ], &format!("square:{}", b.key(q)));
        }
        for (c, ch) in v.ch.iter().enumerate() {
            if ch.in_play && ch.prison == 0 {
                let (x, y) = self.pic_at(ch.pos);
                let pick = format!("char:{}", CHAR_IDS[c]);
                svg::pick(&mut out, [x + 1.0, y + 1.0, SQ - 2.0, SQ - 2.0], &pick);
            }
        }
        out
    }

    /// The status beside the board: round, seat, event and phase.
    fn pic_status(&self, v: &State, px: f64) -> String {
        let mut panel = String::new();
        let head = format!(
            "Round {} of {} · seat {} · {} action{} left",
            v.round,
            self.max_rounds,
            v.seat,
            v.actions_left,
            if v.actions_left == 1 { "" } else { "s" }
        );
        svg::bold(&mut panel, px, 18.0, 13.0, "start", "#222", &head);
        let event = &self.c.events[v.square as usize % self.c.events.len()];
        svg::text(
            &mut panel,
            px,
            36.0,
            12.0,
            "start",
            "#444",
            &svg::clip(
                &format!("event E{:02}: {}", v.square, event.text),
                SIDE_CHARS + 4,
            ),
        );
        let phase = match v.phase {
            Phase::Over => match v.result {
                crate::games::karmox::state::DRAW => "game over: draw".to_string(),
                w => format!("game over: side {w} wins"),
            },
            p => format!("{p:?}"),
        };
        svg::text(
            &mut panel,
            px,
            52.0,
            12.0,
            "start",
            "#444",
            &format!("now: {}", svg::clip(&phase, 60)),
        );
        panel
    }

    /// Side `side`'s character sheets and missions from height `y` down,
    /// two layers; `y` moves past them.
    fn pic_side(&self, v: &State, side: u8, px: f64, y: &mut f64) -> [String; 2] {
        let mut panel = String::new();
        let who: Vec<String> = (0..self.n)
            .filter(|&p| self.seat_side[p] == side)
            .map(|p| format!("seat {p}"))
            .collect();
        svg::bold(
            &mut panel,
            px,
            *y,
            13.5,
            "start",
            "#222",
            &format!(
                "Side {side} ({}): {} XP",
                who.join(", "),
                v.xp[side as usize]
            ),
        );
        *y += LINE_H + 1.0;
        for c in self.side_chars(side) {
            let ch = &v.ch[c];
            svg::circle(
                &mut panel,
                px + 8.0,
                *y - 4.0,
                6.0,
                SIDE[colour_of(c) as usize],
                "#111",
            );
            let items: Vec<String> = self
                .sheet(v, c)
                .map(|t| self.c.tiles[t].id.clone())
                .collect();
            let line = format!(
                "{} life {} lvl {} ATT {} DEF {} MOV {}{}{}",
                CHAR_IDS[c],
                ch.life,
                ch.level,
                self.att_eff(v, c),
                self.def_eff(v, c),
                self.allowance(v, c),
                if items.is_empty() {
                    String::new()
                } else {
                    format!(" · items {}", items.join(" "))
                },
                self.slot(v, c)
                    .map_or(String::new(), |t| format!(" · cell {}", self.c.tiles[t].id)),
            );
            for part in svg::wrap(&line, SIDE_CHARS, "   ") {
                svg::text(&mut panel, px + 18.0, *y, SIDE_FONT, "start", "#222", &part);
                *y += LINE_H;
            }
        }
        let sheets = layer("sheets", &panel);
        let mut panel = String::new();
        let missions: Vec<String> = v.piles[side as usize]
            .iter()
            .map(|c| {
                if c.id == HIDDEN {
                    "▒ secret".to_string()
                } else {
                    let m = &self.c.missions[c.id as usize];
                    format!("{} {} ({} XP)", m.id, m.name, m.xp)
                }
            })
            .collect();
        // One mission a line: names are long and a side may hold six.
        let label = if missions.is_empty() {
            "missions: none"
        } else {
            "missions:"
        };
        svg::text(&mut panel, px + 18.0, *y, SIDE_FONT, "start", "#555", label);
        *y += LINE_H;
        for m in &missions {
            svg::text(
                &mut panel,
                px + 30.0,
                *y,
                SIDE_FONT,
                "start",
                "#555",
                &svg::clip(m, SIDE_CHARS),
            );
            *y += LINE_H;
        }
        *y += 8.0;
        [sheets, layer("missions", &panel)]
    }

    /// The tiles still in the supply.
    fn pic_supply(&self, v: &State, px: f64, y: f64) -> String {
        let mut panel = String::new();
        let supply: Vec<String> = self
            .c
            .tiles
            .iter()
            .enumerate()
            .filter(|(t, tile)| {
                tile.kind != Kind::Skeletor
                    && v.tiles[*t] == crate::games::karmox::state::Loc::Supply
            })
            .map(|(_, tile)| tile.id.clone())
            .collect();
        svg::text(
            &mut panel,
            px,
            y,
            12.0,
            "start",
            "#444",
            &svg::clip(&format!("supply: {}", supply.join(" ")), SIDE_CHARS),
        );
        panel
    }
}

impl Picture for Karmox {
    super::move_number_from_encoding!();

    /// A square by the coordinates on the board's edges (`l9`), a character
    /// by its id with what it does (`MGa-move`, `MGa-to-b3`), an item by its
    /// tile id (`T07`), a stat by its name.
    fn move_key(&self, _s: &State, action: Action) -> Option<String> {
        let b = &self.c.board;
        let id = |c: u8| CHAR_IDS[c as usize % 6];
        let tile = |t: u8| &self.c.tiles[t as usize].id;
        Some(match action {
            Action::Stat(k) => STATS[k as usize % 3].to_string(),
            Action::Cell(c) => format!("cell-{}", id(c)),
            Action::Char(c) => id(c).to_string(),
            Action::Pass => "pass".into(),
            Action::Dest(d) | Action::Anchor(d) => b.key(d),
            Action::Activate { tile: t, cell } => format!("{}-{}", tile(t), id(cell)),
            Action::Move(c) => format!("{}-move", id(c)),
            Action::Equip(c) => format!("{}-equip", id(c)),
            Action::Give { c, p } => format!("{}-give-{}", id(c), id(p)),
            Action::Attack { c, d } => format!("{}-attack-{}", id(c), id(d)),
            Action::Teleport { c, to } => format!("{}-to-{}", id(c), b.key(to)),
            Action::Portal(c) => format!("{}-portal", id(c)),
            Action::Potions(c) => format!("{}-potions", id(c)),
            Action::Tomes { c, stat } => format!("{}-tomes-{}", id(c), STATS[stat as usize % 3]),
            Action::Liberate(c) => format!("free-{}", id(c)),
            Action::EndTurn => "end".into(),
            Action::Tile(t) => tile(t).clone(),
            Action::Push(n) => format!("push{n}"),
            Action::Die(_)
            | Action::Roll { .. }
            | Action::Test(_)
            | Action::Draw(_)
            | Action::First(_) => return None,
        })
    }
    fn text_legend(&self) -> Vec<(String, String)> {
        super::grids::pairs(&[
            (
                "m g k",
                "blue characters: MGa, GRa, GKa (seat shown on each sheet)",
            ),
            ("M G K", "red characters: MGb, GRb, GKb"),
            ("s, S", "a blue, a red Skeletor"),
            ("#", "wall"),
            (".", "floor"),
            (
                "1-6",
                "the six prison cells' interiors (MGa, GRa, GKa, MGb, GRb, GKb)",
            ),
            ("a-f", "the front squares of those cells"),
            (
                "R L I G",
                "icon squares of the default board: Round table, Long table, Iron chest, Gold chest",
            ),
            ("T", "a teleport square"),
            ("P, >", "the magic portal and its access squares"),
            ("E07", "an event square of the track"),
            (
                "a b c…, 1 2 3…",
                "column letters and row numbers on the edges: a square's key is its column then row (`l9`)",
            ),
            (
                "MGa-move",
                "a character's action: -move, -equip, -give-GRa, -attack-GKb, -to-b3 (teleport), -portal, -potions, -tomes-ATT; `free-MGa` liberates from MGa's cell",
            ),
            (
                "T07",
                "an item tile by its id (as on the sheets); `T07-MGa` activates it into MGa's cell",
            ),
        ])
    }

    fn seat_name(&self, _s: &State, player: PlayerId) -> String {
        const LETTERS: [&str; 6] = ["m", "M", "g", "G", "k", "K"];
        let chars: Vec<String> = self
            .seat_chars(player as usize)
            .map(|c| format!("{} ({})", CHAR_IDS[c], LETTERS[c]))
            .collect();
        chars.join(", ")
    }

    fn canvas(&self, states: &[State]) -> Option<Canvas> {
        let board_h = self.c.board.h as f64 * SQ + 40.0;
        // The panel beside the board as tall as its tallest state needs.
        let panel_h = states
            .iter()
            .map(|v| {
                let mut y = PANEL_TOP;
                for side in 0..self.n_sides as u8 {
                    let _ = self.pic_side(v, side, 0.0, &mut y);
                }
                y + 30.0
            })
            .fold(560.0, f64::max);
        // Room left of and above the board for its coordinates.
        Some(Canvas {
            x: -EDGE,
            y: -EDGE,
            w: self.pic_board_w() + PANEL_W + EDGE,
            h: board_h.max(panel_h) + EDGE,
        })
    }

    fn draw(&self, s: &State, pov: Option<PlayerId>, _c: &Canvas) -> Vec<String> {
        let v = match pov {
            Some(p) => self.info(s, p).view,
            None => s.clone(),
        };
        let px = self.pic_board_w() + 12.0;
        let mut out = vec![
            layer("board", &self.pic_board()),
            layer("pieces", &self.pic_pieces(&v)),
            layer("panel", &self.pic_status(&v, px)),
        ];
        let mut y = PANEL_TOP;
        for side in 0..self.n_sides as u8 {
            out.extend(self.pic_side(&v, side, px, &mut y));
        }
        out.push(layer("supply", &self.pic_supply(&v, px, y)));
        out.push(layer("picks", &self.pic_picks(&v)));
        out
    }

    /// A character, then its target (a character or a square); a square
    /// for a destination or an anchor. Free actions, the portal, trades'
    /// tiles and the like stay buttons (or are left highlighted after the
    /// character).
    fn picks(&self, _s: &State, action: Action) -> Vec<String> {
        let b = &self.c.board;
        let ch = |c: u8| format!("char:{}", CHAR_IDS[c as usize % 6]);
        let square = |q: u16| format!("square:{}", b.key(q));
        match action {
            Action::Move(c) | Action::Equip(c) | Action::Char(c) => vec![ch(c)],
            Action::Attack { c, d } => vec![ch(c), ch(d)],
            Action::Give { c, p } => vec![ch(c), ch(p)],
            Action::Teleport { c, to } => vec![ch(c), square(to)],
            Action::Dest(q) | Action::Anchor(q) => vec![square(q)],
            _ => Vec::new(),
        }
    }

    fn legend(&self) -> Vec<(String, String)> {
        let mut l = vec![
            (
                "blue / red discs".to_string(),
                "characters (MG, GR, GK; a blue, b red)".to_string(),
            ),
            ("⛓n".into(), "imprisoned in that cell, timer box n".into()),
            (
                "a b c…, 1 2 3…".into(),
                "columns and rows: a square's move key is its column then row (`l9`)".into(),
            ),
            (
                "☠ square".into(),
                "a Skeletor (2×2), coloured as its summoner".into(),
            ),
            ("dark squares".into(), "walls".into()),
            (
                "lilac squares".into(),
                "prison cells (the pale one in front is the cell's door)".into(),
            ),
            ("T".into(), "teleport square".into()),
            (
                "P (purple)".into(),
                "the magic portal, reached from the pale purple squares".into(),
            ),
            (
                "▒ secret".into(),
                "a mission this view does not know".into(),
            ),
        ];
        l.push((
            self.c.board.icon_names.join(" "),
            "icon squares (default board: Round table, Long table, Iron chest, Gold chest)".into(),
        ));
        l.push((
            "stats".into(),
            format!("{} with items and modifiers", STATS.join("/")),
        ));
        l
    }
}
