//! Text rendering of the growing map and the players' tables, and action labels.

use std::fmt::Write;

use super::Hamunaptra;
use super::state::{Action, NO_CELL, NONE, State, cell_of, xy};
use crate::game::PlayerId;

/// Box-drawing glyph for an open-side mask (bit 0 N, 1 E, 2 S, 3 W).
fn glyph(open: u8) -> char {
    [
        '·', '╵', '╶', '└', '╷', '│', '┌', '├', '╴', '┘', '─', '┴', '┐', '┤', '┬', '┼',
    ][open as usize & 15]
}

impl Hamunaptra {
    /// Short text of a cell position.
    pub fn pos(&self, c: u16) -> String {
        if c == NO_CELL {
            return "-".into();
        }
        let (x, y) = xy(c);
        format!("({x},{y})")
    }

    /// A cell as the map's edges name it, `x,y`: the key of a move to it.
    pub fn cell_key(&self, c: u16) -> String {
        let (x, y) = xy(c);
        format!("{x},{y}")
    }

    /// The map (bounding box of tiles and encounters), then per-seat tables.
    ///
    /// A seat's rendering is drawn from its view ([`Hamunaptra::mask`]) alone,
    /// so two states it cannot tell apart render alike: another seat's VP is
    /// the part it can see plus the equipment that may hide among the cards
    /// it has not seen.
    pub fn render_text(&self, s: &State, viewer: Option<PlayerId>) -> String {
        match viewer {
            Some(v) => self.render_view(&self.mask(s, v), Some(v)),
            None => self.render_view(s, None),
        }
    }

    fn render_view(&self, s: &State, viewer: Option<PlayerId>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Round {} seat {} phase {:?} pile {}{}",
            s.round,
            s.seat,
            s.phase,
            s.pile_len,
            if s.final_round { " FINAL ROUND" } else { "" }
        );
        self.render_map(s, &mut out);
        self.render_foes(s, &mut out);
        for p in 0..self.players {
            self.render_seat(s, viewer, p, &mut out);
        }
        out
    }

    /// The map over the bounding box of tiles and encounters, with its
    /// coordinates and the legend of stair symbols.
    fn render_map(&self, s: &State, out: &mut String) {
        let (mut x0, mut x1, mut y0, mut y1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        let h = self.h;
        for y in -h..=h {
            for x in -h..=h {
                let c = &s.cells[cell_of(x, y) as usize];
                if c.tile != 0 || c.enc != 0 {
                    x0 = x0.min(x);
                    x1 = x1.max(x);
                    y0 = y0.min(y);
                    y1 = y1.max(y);
                }
            }
        }
        let _ = writeln!(
            out,
            "Legend: tile glyph; E entrance, S stair, X exit, a-e symbol stair (A-E when an exit); M monster, T trap; seat digit of characters"
        );
        // x above each column, y beside each row: a cell's key is `x,y`.
        if x0 <= x1 {
            let _ = writeln!(
                out,
                "  x {}",
                (x0..=x1)
                    .map(|x| format!("{x:<4}"))
                    .collect::<String>()
                    .trim_end()
            );
        }
        for y in (y0..=y1).rev() {
            let _ = write!(out, "{y:>3} ");
            for x in x0..=x1 {
                let ci = cell_of(x, y);
                let c = &s.cells[ci as usize];
                let g = if c.tile == 0 {
                    ' '
                } else {
                    glyph(self.open_of(c))
                };
                let st = if c.tile != 0 && self.is_stair(s, ci) {
                    let sym = self.symbol(s, ci);
                    match (c.exit, sym) {
                        (true, 0) => 'X',
                        (true, _) => (b'A' + sym - 1) as char,
                        (false, 0) => 'S',
                        (false, _) => (b'a' + sym - 1) as char,
                    }
                } else if c.tile != 0 && self.comps.tiles[c.tile as usize - 1].entrance {
                    'E'
                } else {
                    ' '
                };
                let e = if c.enc == 0 {
                    ' '
                } else if self.comps.foe_is_monster[c.enc as usize - 1] {
                    'M'
                } else {
                    'T'
                };
                let mut who = ' ';
                for ch in &s.chars {
                    if ch.alive && ch.cell == ci {
                        who = (b'0' + ch.owner) as char;
                    }
                }
                let _ = write!(out, "{g}{st}{e}{who}");
            }
            out.push('\n');
        }
        for (i, sym) in self.comps.symbols.iter().enumerate() {
            let _ = write!(out, "{}={sym} ", (b'a' + i as u8) as char);
        }
        out.push('\n');
    }

    /// One line per foe on the map: stats, position, damage.
    fn render_foes(&self, s: &State, out: &mut String) {
        for (i, c) in s.cells.iter().enumerate() {
            if c.enc != 0 {
                let f = c.enc - 1;
                let d = &self.comps.foes[f as usize];
                let _ = writeln!(
                    out,
                    "  {} {} at {} F{} I{} R{} dmg {}",
                    d.id,
                    d.name,
                    self.pos(i as u16),
                    d.f.map_or("-".into(), |v| v.to_string()),
                    d.i.map_or("-".into(), |v| v.to_string()),
                    d.r,
                    s.foes[f as usize].dmg
                );
            }
        }
    }

    /// Seat `p`'s table: entrance, VP, characters, then its cards as far as
    /// `viewer` may see them.
    fn render_seat(&self, s: &State, viewer: Option<PlayerId>, p: PlayerId, out: &mut String) {
        let pl = &s.players[p as usize];
        // Cards of the hand this view does not show (`NONE` in a mask).
        let unseen = pl.hand.iter().filter(|&&k| k == NONE).count();
        let _ = writeln!(
            out,
            "Seat {p}{}: entrance {}, VP {}{}",
            if p == s.first { " (first)" } else { "" },
            self.pos(pl.entrance),
            self.vp(s, p).total,
            if unseen > 0 {
                format!(" + up to {unseen} in unseen cards")
            } else {
                String::new()
            }
        );
        for (i, ch) in s.chars.iter().enumerate() {
            if ch.owner != p {
                continue;
            }
            let d = &self.comps.chars[i];
            let _ = writeln!(
                out,
                "  {} {} F{} I{} R{} M{} {} mp {} dmg {}{}",
                d.id,
                d.name,
                d.f,
                d.i,
                d.r,
                d.m,
                if ch.alive {
                    self.pos(ch.cell)
                } else {
                    "dead".into()
                },
                ch.mp,
                ch.dmg,
                if ch.active == NONE {
                    String::new()
                } else {
                    let d = &self.comps.equipment[ch.active as usize];
                    format!(" with {} {}", d.id, d.name)
                }
            );
        }
        let sees = viewer.is_none_or(|v| v == p);
        if sees {
            let hand: Vec<String> = pl.hand.iter().map(|&k| self.comps.kind_text(k)).collect();
            let table: Vec<String> = pl
                .table
                .iter()
                .map(|&e| {
                    let d = &self.comps.equipment[e as usize];
                    format!("{} {}", d.id, d.name)
                })
                .collect();
            let _ = writeln!(out, "  hand: {}", hand.join(", "));
            let _ = writeln!(out, "  face down: {}", table.join(", "));
        } else {
            let known: Vec<String> = pl
                .hand
                .iter()
                .filter(|&&k| k != NONE)
                .map(|&k| self.comps.kind_text(k))
                .collect();
            let _ = writeln!(
                out,
                "  hand: {} cards{}, face down: {} equipment",
                pl.hand.len(),
                if known.is_empty() {
                    String::new()
                } else {
                    format!(" (seen going in: {})", known.join(", "))
                },
                pl.table.len()
            );
        }
    }

    fn ch_name(&self, c: u8) -> &str {
        self.comps
            .chars
            .get(c as usize)
            .map_or("?", |d| d.name.as_str())
    }

    fn equip_name(&self, e: u8) -> &str {
        self.comps
            .equipment
            .get(e as usize)
            .map_or("?", |d| d.name.as_str())
    }

    /// Human label of an action.
    pub fn label(&self, s: &State, a: Action) -> String {
        let stat = |x: u8| if x == 0 { "F" } else { "I" };
        match a {
            Action::Roll(k) => format!("roll: {k} successes"),
            Action::Die(f) => format!("die shows {f}"),
            Action::Draw(k) => format!("draw {}", self.comps.kind_name(k)),
            Action::Lose(k) => format!("penalty: {} back into the pile", self.comps.kind_name(k)),
            Action::Draft(c) => format!("draft {}", self.ch_name(c)),
            Action::Entrance(i) => {
                format!("take entrance {}", self.pos(self.entrances[i as usize]))
            }
            Action::Propose { to, card } => {
                format!("offer {} to seat {to}", self.comps.kind_name(card))
            }
            Action::Accept(k) => format!("accept, giving {}", self.comps.kind_name(k)),
            Action::Reject => "reject the trade".into(),
            Action::EndTrade => "end trading".into(),
            Action::OpenTrade(q) => format!("propose a trade to seat {q}"),
            Action::Give(k) => format!("offer {}", self.comps.kind_name(k)),
            Action::Ask(n) => format!("ask for {n} cards"),
            Action::Agree => "accept the trade".into(),
            Action::Discard(k) => format!("discard {} (hand limit)", self.comps.kind_name(k)),
            Action::AssignMove { equip, ch } => {
                format!("{} takes {}", self.ch_name(ch), self.equip_name(equip))
            }
            Action::Step { ch, to } => format!(
                "{} {} -> {}",
                self.ch_name(ch),
                self.pos(s.chars[ch as usize].cell),
                self.pos(to)
            ),
            Action::Overtake { from, via, to } => format!(
                "overtake from {} over {} to {}",
                self.pos(from),
                self.pos(via),
                self.pos(to)
            ),
            Action::EndMove => "end movement".into(),
            Action::Join(j) => format!(
                "{} {} the overtake",
                self.ch_name(s.ot_next),
                if j { "joins" } else { "stays out of" }
            ),
            Action::Select(k) => format!("lay {}", self.comps.kind_name(k)),
            Action::At(c) => format!("at {}", self.pos(c)),
            Action::Rotate(r) => format!("rotated {}", u16::from(r) * 90),
            Action::Scroll { equip, at } => {
                format!(
                    "{} destroys the tile at {}",
                    self.equip_name(equip),
                    self.pos(at)
                )
            }
            Action::EndPlace => {
                if s.placed == 0 {
                    "end placement (penalty)".into()
                } else {
                    "end placement".into()
                }
            }
            Action::Site(c) => format!("fight at {}", self.pos(c)),
            Action::AssignCombat { equip, ch } => {
                format!("{} uses {}", self.ch_name(ch), self.equip_name(equip))
            }
            Action::DoneAssign => "no more equipment".into(),
            Action::Attack(x) => format!("attack with {}", stat(x)),
            Action::Counter { stat: x, ch } => {
                if ch == NONE {
                    format!("counter with {}", stat(x))
                } else {
                    format!("counter with {} on {}", stat(x), self.ch_name(ch))
                }
            }
            Action::Target(c) => format!("target {}", self.ch_name(c)),
            Action::Continue => "continue the fight".into(),
            Action::Retreat(c) => format!("retreat to {}", self.pos(c)),
            Action::PlayEquip(e) => format!("play {} face down", self.equip_name(e)),
            Action::SkipEquip => "play no equipment".into(),
            Action::MonsterStep { foe, to } => format!(
                "move {} to {}",
                self.comps
                    .foes
                    .get(foe as usize)
                    .map_or("?", |d| d.name.as_str()),
                self.pos(to)
            ),
            Action::MonsterStop => "stop the monster".into(),
            Action::Pass => "pass".into(),
        }
    }
}
