//! Hamunaptra: the dungeon of tiles as it grows (passages, entrances,
//! stairs and exits, monsters and traps, the characters) and each seat's
//! hand and face-down equipment. A seat's view is drawn from
//! `Hamunaptra::mask`: cards it has not seen are backs.

use super::svg::{self, layer};
use super::{Canvas, Picture};
use crate::game::{PlayerId, Rules, Turn};
use crate::games::hamunaptra::Hamunaptra;
use crate::games::hamunaptra::data::KindClass;
use crate::games::hamunaptra::state::{Action, NO_CELL, NONE, Phase, State, cell_of, xy};

const SQ: f64 = 56.0;
/// The margin of the map's coordinates.
const EDGE: f64 = 22.0;
const SEAT_H: f64 = 132.0;
const CARD_W: f64 = 64.0;
const CARD_H: f64 = 40.0;
/// Characters of a card's name a line (two lines at most).
const NAME_CHARS: usize = 12;
const SEAT: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
/// The map area is at least this many cells tall, so that the first turns'
/// one-row board has room to be drawn large.
const MIN_MAP_CELLS: f64 = 6.0;
/// The most a small board is enlarged to fill the map area: a cell is drawn
/// between `SQ` and `ZOOM_MAX · SQ` units.
const ZOOM_MAX: f64 = 2.5;

/// A layer drawn under a transform (the map's zoom).
fn zoomed(class: &str, transform: &str, body: &str) -> String {
    format!(r#"<g class="{class}" transform="{transform}">{body}</g>"#)
}

/// Map bounds in cells: (x0, x1, y0, y1).
type Bounds = (i32, i32, i32, i32);

/// Screen position of a cell's north-west corner (north up).
fn cell_at(cell: u16) -> (f64, f64) {
    let (x, y) = xy(cell);
    (f64::from(x) * SQ, -f64::from(y) * SQ)
}

impl Hamunaptra {
    fn pic_bounds(&self, states: &[State]) -> Bounds {
        let (mut x0, mut x1, mut y0, mut y1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        let mut add = |c: u16| {
            let (x, y) = xy(c);
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        };
        for &e in &self.entrances {
            add(e);
        }
        for s in states {
            for (i, c) in s.cells.iter().enumerate() {
                if c.tile != 0 || c.enc != 0 {
                    add(i as u16);
                }
            }
        }
        if x0 > x1 {
            return (0, 0, 0, 0);
        }
        (x0, x1, y0, y1)
    }

    fn map_size(b: Bounds) -> (f64, f64) {
        (f64::from(b.1 - b.0 + 1) * SQ, f64::from(b.3 - b.2 + 1) * SQ)
    }

    fn pic_card_kind(&self, out: &mut String, x: f64, y: f64, k: u8) {
        if k == NONE {
            svg::use_at(out, "hback", x, y);
        } else {
            svg::use_at(out, &format!("h{k}"), x, y);
        }
    }

    /// One symbol per card kind and one for the back: a card drawn is a `use`.
    fn pic_symbols(&self) -> String {
        let mut out = String::from("<defs>");
        out.push_str(&format!(
            r#"<symbol id="hback" width="{CARD_W}" height="{CARD_H}">"#
        ));
        svg::card_back(&mut out, 0.0, 0.0, CARD_W, CARD_H);
        out.push_str("</symbol>");
        for k in 0..self.comps.kind_count.len() {
            let k = k as u8;
            let fill = match self.comps.class(k) {
                KindClass::Tile(_) => "#e8d7a8",
                KindClass::Foe(_) => "#f0b5a8",
                KindClass::Equip(_) => "#b8d8b0",
            };
            let name = self.comps.kind_name(k);
            out.push_str(&format!(
                r#"<symbol id="h{k}" width="{CARD_W}" height="{CARD_H}">"#
            ));
            out.push_str(&format!("<title>{}</title>", svg::esc(&name)));
            svg::rect(
                &mut out,
                [0.5, 0.5, CARD_W - 1.0, CARD_H - 1.0],
                4.0,
                fill,
                "#555",
            );
            // The id on top is the key of a move that picks the card; the
            // name under it in two lines at most, cut with an ellipsis.
            let id = self.comps.kind_id(k);
            svg::bold(&mut out, CARD_W / 2.0, 13.0, 10.0, "middle", "#222", id);
            if name != id {
                let mut lines = svg::wrap(&name, NAME_CHARS, "");
                if lines.len() > 2 {
                    // What does not fit runs on from the second line, cut.
                    lines[1] = svg::clip(&lines[1..].join(" "), NAME_CHARS);
                }
                for (i, line) in lines.iter().take(2).enumerate() {
                    let y = 25.0 + 10.5 * i as f64;
                    svg::text(&mut out, CARD_W / 2.0, y, 8.5, "middle", "#222", line);
                }
            }
            out.push_str("</symbol>");
        }
        out.push_str("</defs>");
        out
    }

    /// The headline: round, seat to move, phase and pile.
    fn pic_head(v: &State, left: f64, top: f64) -> String {
        let mut head = String::new();
        let phase = match v.phase {
            Phase::Over => "game over".to_string(),
            p => format!("{p:?}"),
        };
        svg::bold(
            &mut head,
            left,
            top - 16.0,
            14.0,
            "start",
            "#222",
            &format!(
                "Round {}{} · seat {} · {} · pile {}",
                v.round,
                if v.final_round { " (final)" } else { "" },
                v.seat,
                phase,
                v.pile_len
            ),
        );
        head
    }

    /// The laid tiles: passages, rooms, stair and entrance marks, who laid each.
    fn pic_tiles(&self, v: &State) -> String {
        let mut map = String::new();
        for (i, cell) in v.cells.iter().enumerate() {
            if cell.tile == 0 {
                continue;
            }
            let (x, y) = cell_at(i as u16);
            let t = &self.comps.tiles[cell.tile as usize - 1];
            svg::rect(
                &mut map,
                [x + 1.0, y + 1.0, SQ - 2.0, SQ - 2.0],
                3.0,
                "#8c7350",
                "#5e4a30",
            );
            let open = self.open_of(cell);
            let (cx, cy) = (x + SQ / 2.0, y + SQ / 2.0);
            let band = if t.room { 30.0 } else { 16.0 };
            svg::rect(
                &mut map,
                [cx - band / 2.0, cy - band / 2.0, band, band],
                2.0,
                "#f0e0b8",
                "none",
            );
            for d in 0..4u8 {
                if open & 1 << d == 0 {
                    continue;
                }
                let r = match d {
                    0 => [cx - 8.0, y, 16.0, SQ / 2.0],
                    1 => [cx, cy - 8.0, SQ / 2.0, 16.0],
                    2 => [cx - 8.0, cy, 16.0, SQ / 2.0],
                    _ => [x, cy - 8.0, SQ / 2.0, 16.0],
                };
                svg::rect(&mut map, r, 0.0, "#f0e0b8", "none");
            }
            let mark = if self.is_stair(v, i as u16) {
                let sym = self.symbol(v, i as u16);
                match (cell.exit, sym) {
                    (true, 0) => "X".to_string(),
                    (true, k) => format!("X{}", (b'a' + k - 1) as char),
                    (false, 0) => "S".to_string(),
                    (false, k) => ((b'a' + k - 1) as char).to_string(),
                }
            } else if t.entrance {
                "E".to_string()
            } else {
                String::new()
            };
            if !mark.is_empty() {
                let colour = if t.entrance { "#1b7a2c" } else { "#6b3a00" };
                svg::bold(&mut map, x + 9.0, y + 15.0, 13.0, "middle", colour, &mark);
            }
            if cell.placer > 0 {
                svg::circle(
                    &mut map,
                    x + SQ - 8.0,
                    y + 8.0,
                    4.0,
                    SEAT[(cell.placer as usize - 1) % 4],
                    "none",
                );
            }
        }
        map
    }

    /// Monsters and traps on their cells, with the damage each has taken.
    fn pic_foes(&self, v: &State) -> String {
        let mut pieces = String::new();
        for (i, cell) in v.cells.iter().enumerate() {
            if cell.enc == 0 {
                continue;
            }
            let f = cell.enc as usize - 1;
            let (x, y) = cell_at(i as u16);
            let d = &self.comps.foes[f];
            if self.comps.foe_is_monster[f] {
                svg::circle(
                    &mut pieces,
                    x + SQ - 14.0,
                    y + SQ - 14.0,
                    11.0,
                    "#b22222",
                    "#400",
                );
                svg::bold(
                    &mut pieces,
                    x + SQ - 14.0,
                    y + SQ - 10.0,
                    11.0,
                    "middle",
                    "#fff",
                    "M",
                );
            } else {
                let (px, py) = (x + SQ - 14.0, y + SQ - 14.0);
                pieces.push_str(&format!(
                    r##"<path d="M {:.1} {:.1} L {:.1} {:.1} L {:.1} {:.1} Z" fill="#e07b00" stroke="#402000"/>"##,
                    px,
                    py - 11.0,
                    px + 11.0,
                    py + 9.0,
                    px - 11.0,
                    py + 9.0
                ));
                svg::bold(&mut pieces, px, py + 6.0, 10.0, "middle", "#fff", "T");
            }
            pieces.push_str(&format!("<title>{}</title>", svg::esc(&d.name)));
            let dmg = v.foes[f].dmg;
            if dmg > 0 {
                svg::text(
                    &mut pieces,
                    x + SQ - 4.0,
                    y + SQ - 26.0,
                    9.0,
                    "end",
                    "#b22222",
                    &format!("-{dmg}"),
                );
            }
        }
        pieces
    }

    /// The living characters on their cells, up to three abreast.
    fn pic_characters(&self, v: &State) -> String {
        let mut pieces = String::new();
        let mut on_cell = std::collections::HashMap::new();
        for (ci, ch) in v.chars.iter().enumerate() {
            if !ch.alive || ch.cell == NO_CELL || ch.owner == NONE {
                continue;
            }
            let k: &mut u32 = on_cell.entry(ch.cell).or_default();
            let (x, y) = cell_at(ch.cell);
            let (ox, oy) = (
                14.0 + 14.0 * f64::from(*k % 3),
                26.0 + 14.0 * f64::from(*k / 3),
            );
            *k += 1;
            svg::circle(
                &mut pieces,
                x + ox,
                y + oy,
                7.0,
                SEAT[ch.owner as usize % 4],
                "#111",
            );
            let name = &self.comps.chars[ci].name;
            svg::bold(
                &mut pieces,
                x + ox,
                y + oy + 3.5,
                9.0,
                "middle",
                "#fff",
                &name.chars().take(1).collect::<String>(),
            );
        }
        pieces
    }

    /// Every cell of the map drawn, as a clickable area named `cell:x,y`.
    fn pic_cells(&self, v: &State) -> String {
        let mut out = String::new();
        let (x0, x1, y0, y1) = self.pic_bounds(std::slice::from_ref(v));
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = cell_of(x, y);
                let (sx, sy) = cell_at(c);
                svg::pick(&mut out, [sx, sy, SQ, SQ], &self.pic_cell_pick(c));
            }
        }
        out
    }

    /// The pick of a card of kind `k` in seat `p`'s hand (cards of one kind
    /// are alike, so each of them picks it).
    fn pic_hand_pick(&self, p: PlayerId, k: u8) -> String {
        format!("hand{p}:{}", self.comps.kind_id(k))
    }

    fn pic_cell_pick(&self, c: u16) -> String {
        format!("cell:{}", self.cell_key(c))
    }

    /// The scale of `v`'s map and the transform that draws it: the tiles
    /// placed so far fill the canvas's map area (centred across it, from its
    /// top), enlarged at most [`ZOOM_MAX`] times, so the first turns' few
    /// tiles are not drawn at the scale of the whole game's map.
    fn pic_zoom(&self, v: &State, c: &Canvas) -> (f64, String) {
        let (area_x, area_y) = (c.x + 10.0 + EDGE, c.y + 40.0 + EDGE);
        let area_w = c.w - 20.0 - EDGE;
        let area_h = c.h - 60.0 - EDGE - SEAT_H * f64::from(self.players);
        let b = self.pic_bounds(std::slice::from_ref(v));
        let (w, h) = Self::map_size(b);
        let zoom = (area_w / w).min(area_h / h).min(ZOOM_MAX);
        let tx = area_x + (area_w - w * zoom) / 2.0 - f64::from(b.0) * SQ * zoom;
        let ty = area_y + f64::from(b.3) * SQ * zoom;
        (zoom, format!("translate({tx:.1} {ty:.1}) scale({zoom:.3})"))
    }

    /// The map's coordinates above its top row and left of its left column,
    /// in map units, at a font size that reads the same at any `zoom`.
    fn pic_coords(&self, v: &State, zoom: f64) -> String {
        let mut coords = String::new();
        let (x0, x1, y0, y1) = self.pic_bounds(std::slice::from_ref(v));
        let (edge_x, edge_y) = (f64::from(x0) * SQ, -f64::from(y1) * SQ);
        let size = 11.0 / zoom;
        for x in x0..=x1 {
            let cx = (f64::from(x) + 0.5) * SQ;
            svg::text(
                &mut coords,
                cx,
                edge_y - 4.0 / zoom,
                size,
                "middle",
                "#555",
                &x.to_string(),
            );
        }
        for y in y0..=y1 {
            let cy = (0.55 - f64::from(y)) * SQ;
            svg::text(
                &mut coords,
                edge_x - 4.0 / zoom,
                cy,
                size,
                "end",
                "#555",
                &y.to_string(),
            );
        }
        coords
    }

    /// Seat `p`'s panel: its characters and score, its hand and its face-down
    /// equipment, three layers.
    fn pic_seat(&self, v: &State, pov: Option<PlayerId>, c: &Canvas, p: PlayerId) -> [String; 3] {
        let left = c.x + 10.0;
        let map_bottom = c.y + c.h - SEAT_H * f64::from(self.players);
        let pu = p as usize;
        let pl = &v.players[pu];
        let mut seat = String::new();
        let y = map_bottom + SEAT_H * f64::from(p);
        svg::rect(
            &mut seat,
            [left, y, c.w - 20.0, SEAT_H - 6.0],
            6.0,
            if v.seat == p { "#fff6d5" } else { "#faf7f0" },
            SEAT[pu],
        );
        let chars: Vec<String> = v
            .chars
            .iter()
            .enumerate()
            .filter(|(_, ch)| ch.owner == p)
            .map(|(i, ch)| {
                let d = &self.comps.chars[i];
                format!(
                    "{}{} F{} I{} R{} M{}",
                    d.name,
                    if ch.alive { "" } else { " (dead)" },
                    d.f,
                    d.i,
                    d.r,
                    d.m
                )
            })
            .collect();
        let vp = self.vp(v, p).total;
        let unseen = pl.hand.iter().filter(|&&k| k == NONE).count();
        let head = format!(
            "Seat {p}{}{}: VP {vp}{} · entrance {}",
            if p == v.first { " (first)" } else { "" },
            if pov == Some(p) { " (this view)" } else { "" },
            if unseen > 0 {
                format!(" + up to {unseen} unseen")
            } else {
                String::new()
            },
            self.pos(pl.entrance),
        );
        svg::bold(
            &mut seat,
            left + 8.0,
            y + 16.0,
            12.0,
            "start",
            SEAT[pu],
            &head,
        );
        svg::text(
            &mut seat,
            left + 8.0,
            y + 31.0,
            11.0,
            "start",
            "#333",
            &chars.join("; "),
        );
        let seat = layer(&format!("seat seat{p}"), &seat);
        let mut hand = String::new();
        svg::text(
            &mut hand,
            left + 8.0,
            y + 62.0,
            11.0,
            "start",
            "#444",
            &format!("hand ({})", pl.hand.len()),
        );
        for (i, &k) in pl.hand.iter().enumerate() {
            let x = left + 100.0 + (CARD_W + 4.0) * i as f64;
            self.pic_card_kind(&mut hand, x, y + 38.0, k);
            if k != NONE {
                svg::pick(
                    &mut hand,
                    [x, y + 38.0, CARD_W, CARD_H],
                    &self.pic_hand_pick(p, k),
                );
            }
        }
        let hand = layer("hand", &hand);
        let mut table = String::new();
        svg::text(
            &mut table,
            left + 8.0,
            y + 106.0,
            11.0,
            "start",
            "#444",
            &format!("face down ({})", pl.table.len()),
        );
        for (i, &e) in pl.table.iter().enumerate() {
            let k = if e == NONE {
                NONE
            } else {
                self.comps.equip_kind(e)
            };
            self.pic_card_kind(
                &mut table,
                left + 100.0 + (CARD_W + 4.0) * i as f64,
                y + 82.0,
                k,
            );
        }
        [seat, hand, layer("table", &table)]
    }
}

impl Picture for Hamunaptra {
    super::move_number_from_encoding!();

    /// A cell by the coordinates on the map's edges (`2,-1`), a character,
    /// card, foe or equipment by the id the board prints (`C03`, `C-STR`,
    /// `M1`, `E05`), joined with `>` to where it goes (`C03>2,-1`).
    /// The map's cells: an entrance; a character's cell, then where it
    /// steps; an overtake's three cells; where a card is laid, a site or a
    /// retreat, when the map drawn reaches it. Cards, trades and the like
    /// stay buttons.
    fn picks(&self, s: &State, action: Action) -> Vec<String> {
        let cells = |list: &[u16]| -> Vec<String> {
            let (x0, x1, y0, y1) = self.pic_bounds(std::slice::from_ref(s));
            let drawn = |&c: &u16| {
                let (x, y) = xy(c);
                (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
            };
            if list.iter().all(drawn) {
                list.iter().map(|&c| self.pic_cell_pick(c)).collect()
            } else {
                Vec::new()
            }
        };
        match action {
            Action::Entrance(i) => cells(&[self.entrances[i as usize]]),
            Action::Step { ch, to } => match s.chars.get(ch as usize) {
                Some(c) if c.cell != NO_CELL => cells(&[c.cell, to]),
                _ => Vec::new(),
            },
            Action::Overtake { from, via, to } => cells(&[from, via, to]),
            Action::At(c) | Action::Site(c) | Action::Retreat(c) => cells(&[c]),
            // A card of the acting seat's hand: to lay, offer, give back or discard.
            Action::Select(k) | Action::Give(k) | Action::Accept(k) | Action::Discard(k) => {
                match self.turn(s) {
                    Turn::Player(p) => vec![self.pic_hand_pick(p, k)],
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    fn move_key(&self, _s: &State, action: Action) -> Option<String> {
        let c = &self.comps;
        let at = |cell: u16| self.cell_key(cell);
        let ch = |i: u8| c.chars.get(i as usize).map_or("?", |d| d.id.as_str());
        let eq = |e: u8| c.equipment.get(e as usize).map_or("?", |d| d.id.as_str());
        let stat = |x: u8| if x == 0 { "F" } else { "I" };
        Some(match action {
            Action::Draft(i) => ch(i).to_string(),
            Action::Entrance(i) => at(self.entrances[i as usize]),
            Action::Propose { to, card } => format!("{}>seat{to}", c.kind_id(card)),
            Action::Accept(k) => format!("give-{}", c.kind_id(k)),
            Action::Reject => "reject".into(),
            Action::EndTrade | Action::EndMove | Action::EndPlace => "end".into(),
            Action::OpenTrade(q) => format!("trade-seat{q}"),
            Action::Give(k) | Action::Discard(k) | Action::Select(k) => c.kind_id(k).to_string(),
            Action::Ask(n) => format!("ask{n}"),
            Action::Agree => "agree".into(),
            Action::AssignMove { equip, ch: i } | Action::AssignCombat { equip, ch: i } => {
                format!("{}>{}", eq(equip), ch(i))
            }
            Action::Step { ch: i, to } => format!("{}>{}", ch(i), at(to)),
            Action::Overtake { from, via, to } => format!("{}>{}>{}", at(from), at(via), at(to)),
            Action::Join(true) => "join".into(),
            Action::Join(false) => "stay".into(),
            Action::At(cell) | Action::Site(cell) | Action::Retreat(cell) => at(cell),
            Action::Rotate(r) => format!("+{}", u16::from(r) * 90),
            Action::Scroll { equip, at: cell } => format!("{}>{}", eq(equip), at(cell)),
            Action::DoneAssign => "done".into(),
            Action::Attack(x) => stat(x).to_string(),
            Action::Counter { stat: x, ch: NONE } => stat(x).to_string(),
            Action::Counter { stat: x, ch: i } => format!("{}>{}", stat(x), ch(i)),
            Action::Target(i) => ch(i).to_string(),
            Action::Continue => "continue".into(),
            Action::PlayEquip(e) => eq(e).to_string(),
            Action::SkipEquip => "none".into(),
            Action::MonsterStep { foe, to } => format!(
                "{}>{}",
                c.foes.get(foe as usize).map_or("?", |d| d.id.as_str()),
                at(to)
            ),
            Action::MonsterStop => "stop".into(),
            Action::Pass => "pass".into(),
            Action::Roll(_) | Action::Die(_) | Action::Draw(_) | Action::Lose(_) => return None,
        })
    }
    fn text_legend(&self) -> Vec<(String, String)> {
        super::grids::pairs(&[
            (
                "─ │ ┼ └ …",
                "a tile: its lines run to the sides it is open to (· open to none)",
            ),
            ("E", "an entrance tile"),
            ("S, X", "a stair down, an exit stair"),
            (
                "a-e, A-E",
                "a stair marked with a symbol (listed under the map), capital when an exit",
            ),
            ("M, T", "a monster, a trap"),
            ("0-3", "a character of that seat"),
            (
                "x row, left column",
                "each column's x and each row's y coordinate: a cell's move key is `x,y` (`2,-1`)",
            ),
            (
                "C03 E05 M1",
                "a character, equipment or foe by id, a tile card by its id (`C-STR`): the key of a move that picks it; `C03>2,-1` moves it to a cell, `E05>C03` gives it to a character",
            ),
            (
                "+90",
                "the rotation of a tile being laid (quarter turns clockwise); `end` ends the step",
            ),
            (
                "F I R",
                "a foe's Force, Intelligence and Reflexes (- when it has none)",
            ),
        ])
    }

    fn canvas(&self, states: &[State]) -> Option<Canvas> {
        // The map's north-west corner sits at (x0·SQ, −y1·SQ), north up.
        let b = self.pic_bounds(states);
        let (w, h) = Self::map_size(b);
        // Room left of and above the map for its coordinates.
        Some(Canvas {
            x: f64::from(b.0) * SQ - 10.0 - EDGE,
            y: -f64::from(b.3) * SQ - 40.0 - EDGE,
            w: w.max(960.0) + 20.0 + EDGE,
            h: h.max(MIN_MAP_CELLS * SQ) + 60.0 + EDGE + SEAT_H * f64::from(self.players),
        })
    }

    fn draw(&self, s: &State, pov: Option<PlayerId>, c: &Canvas) -> Vec<String> {
        let v = match pov {
            Some(p) => self.mask(s, p),
            None => s.clone(),
        };
        let left = c.x + 10.0;
        let top = c.y + 40.0;
        let mut defs = svg::defs();
        defs.push_str(&self.pic_symbols());
        let mut pieces = self.pic_foes(&v);
        pieces.push_str(&self.pic_characters(&v));
        let (zoom, transform) = self.pic_zoom(&v, c);
        let mut out = vec![
            layer("defs", &defs),
            layer("head", &Self::pic_head(&v, left, top)),
            zoomed("coords", &transform, &self.pic_coords(&v, zoom)),
            zoomed("map", &transform, &self.pic_tiles(&v)),
            zoomed("pieces", &transform, &pieces),
            zoomed("picks", &transform, &self.pic_cells(&v)),
        ];
        for p in 0..self.players {
            out.extend(self.pic_seat(&v, pov, c, p));
        }
        out
    }

    fn legend(&self) -> Vec<(String, String)> {
        let mut l = vec![
            (
                "pale passages".to_string(),
                "open sides of a tile; a wide centre is a room".to_string(),
            ),
            ("E (green)".into(), "an entrance".into()),
            (
                "numbers on the edges".into(),
                "x above each column, y beside each row: a cell's move key is `x,y`".into(),
            ),
            ("S".into(), "a stair".into()),
            ("X".into(), "an exit stair".into()),
            (
                "M (red disc)".into(),
                "a monster (hover for its name)".into(),
            ),
            ("T (orange triangle)".into(), "a trap".into()),
            (
                "small discs".into(),
                "characters, coloured by seat, with their initial".into(),
            ),
            (
                "dot in a corner".into(),
                "the seat that laid the stair".into(),
            ),
            (
                "cards".into(),
                "yellow tiles, red encounters, green equipment; hatched: not seen by this view"
                    .into(),
            ),
        ];
        for (i, sym) in self.comps.symbols.iter().enumerate() {
            l.push((
                ((b'a' + i as u8) as char).to_string(),
                format!("a passage stair with the {sym} symbol"),
            ));
        }
        for (i, d) in self.comps.chars.iter().enumerate() {
            l.push((
                format!("character {}", i + 1),
                format!("{} ({})", d.name, d.id),
            ));
        }
        l
    }
}
