//! Text rendering: the map with characters (m g k blue, M G K red),
//! Skeletors (s blue, S red) and printed icons; every sheet; the event
//! square; the viewer's own missions only. Plus action labels.

use std::fmt::Write;

use crate::game::PlayerId;

use super::Karmox;
use super::data::{CHAR_IDS, Kind, STATS};
use super::state::{Action, Loc, Phase, State};

const PAWN: [char; 6] = ['m', 'M', 'g', 'G', 'k', 'K'];

impl Karmox {
    fn tile_name(&self, t: usize) -> String {
        let tile = &self.c.tiles[t];
        match tile.kind {
            Kind::Ring => format!("{}(ring +2 {})", tile.id, STATS[tile.ring_stat as usize]),
            k => format!("{}({})", tile.id, k.label()),
        }
    }

    /// The board, sheets and the viewer's missions as text.
    pub fn render_text(&self, s: &State, viewer: Option<PlayerId>) -> String {
        let b = &self.c.board;
        let mut grid: Vec<Vec<char>> = b
            .rows
            .iter()
            .map(|r| r.iter().map(|&c| c as char).collect())
            .collect();
        for (t, tile) in self.c.tiles.iter().enumerate() {
            if let Loc::Board(a) = s.tiles[t] {
                for sq in b.cover(a) {
                    let (x, y) = b.xy(sq);
                    grid[y][x] = if tile.colour == 0 { 's' } else { 'S' };
                }
            }
        }
        for (c, ch) in s.ch.iter().enumerate() {
            if ch.on_board() {
                let (x, y) = b.xy(ch.pos);
                grid[y][x] = PAWN[c];
            }
        }
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Round {} / {}, seat {} to play, phase {:?}, event square E{:02} ({})",
            s.round,
            self.max_rounds,
            s.seat,
            s.phase,
            s.square,
            self.c.events[s.square as usize].text
        );
        if self.n % 2 == 1 {
            let _ = writeln!(
                out,
                "Shared skittle: E{:02}; actions left {}",
                s.skittle[0], s.actions_left
            );
        } else {
            let _ = writeln!(
                out,
                "Skittles: blue E{:02}, red E{:02}; actions left {}",
                s.skittle[0], s.skittle[1], s.actions_left
            );
        }
        // Column letters above and row numbers beside: the squares' keys.
        // A board wider than 26 columns has two-letter names, on two lines.
        let names: Vec<Vec<char>> = (0..b.w)
            .map(|x| super::data::Board::column_name(x).chars().collect())
            .collect();
        let tall = names.iter().map(Vec::len).max().unwrap_or(1);
        for line in 0..tall {
            let _ = writeln!(
                out,
                "   {}",
                names
                    .iter()
                    .map(|n| (line + n.len()).checked_sub(tall).map_or(' ', |i| n[i]))
                    .collect::<String>()
            );
        }
        for (y, row) in grid.into_iter().enumerate() {
            let _ = write!(out, "{:>2} ", y + 1);
            out.extend(row);
            let _ = writeln!(out, " {}", y + 1);
        }
        for side in 0..self.n_sides as u8 {
            let _ = writeln!(
                out,
                "Side {side}: {} permanent XP, {} secret missions",
                s.xp[side as usize],
                s.piles[side as usize].len()
            );
            for c in self.side_chars(side) {
                let ch = &s.ch[c];
                let place = if ch.prison > 0 {
                    format!(
                        "imprisoned in {}'s cell (box {})",
                        CHAR_IDS[ch.prison_cell as usize], ch.prison
                    )
                } else {
                    b.name(ch.pos)
                };
                let tiles: Vec<String> = self.sheet(s, c).map(|t| self.tile_name(t)).collect();
                let slot = self
                    .slot(s, c)
                    .map_or("-".to_string(), |t| self.tile_name(t));
                let _ = writeln!(
                    out,
                    "  {} (seat {}) at {place}: life {}, level {}, ATT {} DEF {} MOV {} (markers {:?}); items [{}]; cell slot {slot}",
                    CHAR_IDS[c],
                    ch.seat,
                    ch.life,
                    ch.level,
                    self.att_eff(s, c),
                    self.def_eff(s, c),
                    self.allowance(s, c),
                    ch.abil,
                    tiles.join(", ")
                );
            }
        }
        let deck: Vec<&str> = s
            .deck_known
            .iter()
            .map(|&c| self.c.missions[c as usize].id.as_str())
            .collect();
        let _ = writeln!(
            out,
            "Deck: {} unknown on top, then revealed [{}]",
            s.deck_unknown.count_ones(),
            deck.join(", ")
        );
        let shown =
            |side: usize| viewer.is_none_or(|v| self.seat_side[v as usize] as usize == side);
        for side in 0..self.n_sides {
            let cards: Vec<String> = s.piles[side]
                .iter()
                .map(|c| {
                    if shown(side) || c.public {
                        let m = &self.c.missions[c.id as usize];
                        format!("{} {} ({} XP)", m.id, m.name, m.xp)
                    } else {
                        "?".to_string()
                    }
                })
                .collect();
            let _ = writeln!(out, "Missions of side {side}: {}", cards.join("; "));
        }
        out
    }

    /// The label as `observer` sees it: a mission drawn by another side is
    /// secret (spec 5); every other action and outcome is public.
    pub fn label_for(&self, s: &State, a: Action, observer: PlayerId) -> String {
        match (s.phase, a) {
            (Phase::Drawing, Action::Draw(_))
                if s.draw_side != self.seat_side[observer as usize] =>
            {
                format!("side {} draws a mission", s.draw_side)
            }
            _ => self.label(s, a),
        }
    }

    /// A short label for an action.
    pub fn label(&self, s: &State, a: Action) -> String {
        let b = &self.c.board;
        let id = |c: u8| CHAR_IDS[c as usize];
        match a {
            Action::Die(d) => format!("event die {d}"),
            Action::Roll { att, def } => format!("combat dice: attacker {att}, defender {def}"),
            Action::Test(p) => format!("Skeletor test {}", if p { "passed" } else { "failed" }),
            Action::Draw(c) => format!("draw mission {}", self.c.missions[c as usize].id),
            Action::First(p) => format!("seat {p} starts"),
            Action::Stat(k) => format!("ability point to {}", STATS[k as usize]),
            Action::Cell(c) => format!("unlock the cell of {}", id(c)),
            Action::Char(c) => match s.phase {
                Phase::Wound => format!("wound {}", id(c)),
                Phase::Heal => format!("heal {}", id(c)),
                _ => format!("free step with {}", id(c)),
            },
            Action::Pass => "pass".to_string(),
            Action::Dest(d) => format!("to {}", b.name(d)),
            Action::Anchor(a) => format!("summon a Skeletor at {}", b.name(a)),
            Action::Activate { tile, cell } => format!(
                "activate {} into {}'s cell",
                self.tile_name(tile as usize),
                id(cell)
            ),
            Action::Move(c) => format!("move {}", id(c)),
            Action::Equip(c) => format!("{} equips its active tile", id(c)),
            Action::Give { c, p } => format!("{} gives/trades with {}", id(c), id(p)),
            Action::Attack { c, d } => format!("{} attacks {}", id(c), id(d)),
            Action::Teleport { c, to } => format!("{} teleports to {}", id(c), b.name(to)),
            Action::Portal(c) => format!("{} activates the portal", id(c)),
            Action::Potions(c) => format!("{} plays two potions", id(c)),
            Action::Tomes { c, stat } => {
                format!("{} plays two tomes for {}", id(c), STATS[stat as usize])
            }
            Action::Liberate(c) => format!("liberate teammates from {}'s cell", id(c)),
            Action::EndTurn => "end turn".to_string(),
            Action::Tile(t) => match s.phase {
                Phase::PlayPair { .. } => format!(
                    "play {} (steal cost {})",
                    self.tile_name(t as usize),
                    self.c.tiles[t as usize].cost
                ),
                _ => self.tile_name(t as usize),
            },
            Action::Push(p) => format!("push {p}"),
        }
    }
}
