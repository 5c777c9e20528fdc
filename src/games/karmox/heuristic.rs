//! A greedy evaluation after spec 9: permanent XP dominates, then the portal
//! race, the 9+1 route, progress on the side's own secret missions, growth
//! (abilities, rings, pairs, every equipped tile), life and the risk of
//! standing next to an enemy that would win an attack; relative to the best
//! rival side, squashed into [-1, 1].
//!
//! Distances are walking distances on the empty board (walls only), from a
//! table built once per thread and board: straight-line distances mislead in a
//! board of rooms joined by doors. A character choosing where to move is
//! scored at the best square it can reach, so one-step look-ahead sees the
//! value of a Move before its destination is chosen.

use std::cell::RefCell;
use std::sync::Arc;

use crate::game::{PlayerId, Returns};

use super::Karmox;
use super::data::{Board, Check, Components, Kind, NO_SQ, colour_of};
use super::rules::p2d6;
use super::state::{DRAW, Loc, NO_RESULT, Phase, State, ev};

/// Distance standing for "unreachable" or "off the board".
pub(super) const FAR: u8 = 40;

/// Value of each tile on a character's sheet, above the tempo term's 0.4
/// for standing on the icon of the tile waiting in its cell.
const HELD: f64 = 0.45;

/// Weight of an enemy's chance to win an attack on one of the side's
/// characters, for each enemy standing next to it.
const RISK: f64 = 0.5;

/// Share of a mission card's XP that progress toward it can be worth: most
/// of it, so a side works at its cards, but less than completing them.
const MISSION: f64 = 0.9;

/// Worth of a tile of the kind a card asks for waiting in the character's
/// cell, in held tiles, when the character stands on its icon.
const WAITING: f64 = 0.9;

/// All-pairs walking distances on the empty board, row-major by square, and
/// from each square to the nearest of the board's fixed target sets (icons,
/// portal access, teleports, wings), so the heuristic never scans the board.
pub(super) struct Distances {
    n: usize,
    d: Vec<u8>,
    /// Icon-major: `icon[i * n + a]` is the walk from `a` to the nearest
    /// square printed with icon `i`.
    icon: Vec<u8>,
    n_icons: usize,
    access: Vec<u8>,
    teleport: Vec<u8>,
    /// By colour (`colour_of`): 0 the red wing, 1 the blue wing.
    wing: [Vec<u8>; 2],
}

impl Distances {
    /// Builds the tables of board `b` (a breadth-first walk from every square).
    fn build(b: &Board) -> Distances {
        let n = b.walk.len();
        let mut d = vec![FAR; n * n];
        let mut queue = Vec::with_capacity(n);
        for from in 0..n {
            if !b.walk[from] {
                continue;
            }
            let row = &mut d[from * n..(from + 1) * n];
            row[from] = 0;
            queue.clear();
            queue.push(from as u16);
            let mut head = 0;
            while head < queue.len() {
                let q = queue[head];
                head += 1;
                let dq = row[q as usize];
                for dir in 0..4 {
                    if let Some(nb) = b.step(q, dir)
                        && b.walk[nb as usize]
                        && row[nb as usize] == FAR
                        && dq + 1 < FAR
                    {
                        row[nb as usize] = dq + 1;
                        queue.push(nb);
                    }
                }
            }
        }
        let nearest = |targets: &[u16]| -> Vec<u8> {
            (0..n)
                .map(|a| {
                    targets
                        .iter()
                        .map(|&q| d[a * n + q as usize])
                        .fold(FAR, u8::min)
                })
                .collect()
        };
        let n_icons = b.icon_names.len();
        let icon = (0..n_icons)
            .flat_map(|i| {
                let squares: Vec<u16> = (0..n)
                    .filter(|&q| usize::from(b.icon_at[q]) == i)
                    .map(|q| q as u16)
                    .collect();
                nearest(&squares)
            })
            .collect();
        let wing = |rows: [u16; 2]| -> Vec<u8> {
            let squares: Vec<u16> = (rows[0]..=rows[1])
                .flat_map(|y| (0..b.w).map(move |x| b.sq(x, usize::from(y))))
                .filter(|&q| (q as usize) < n && b.walk[q as usize])
                .collect();
            nearest(&squares)
        };
        Distances {
            icon,
            n_icons,
            access: nearest(&b.access),
            teleport: nearest(&b.teleports),
            wing: [wing(b.red_wing), wing(b.blue_wing)],
            n,
            d,
        }
    }

    /// Walking distance from `a` to `to`; `FAR` when either is off the board.
    pub(super) fn between(&self, a: u16, to: u16) -> f64 {
        if a == NO_SQ || to == NO_SQ {
            f64::from(FAR)
        } else {
            f64::from(self.d[a as usize * self.n + to as usize])
        }
    }

    fn lookup(table: &[u8], a: u16) -> f64 {
        f64::from(table.get(usize::from(a)).copied().unwrap_or(FAR))
    }

    /// Walk from `a` to the nearest square printed with icon `icon`.
    pub(super) fn to_icon(&self, a: u16, icon: u8) -> f64 {
        let i = usize::from(icon);
        if a == NO_SQ || i >= self.n_icons {
            return f64::from(FAR);
        }
        Self::lookup(&self.icon[i * self.n..(i + 1) * self.n], a)
    }

    /// Walk from `a` to the nearest portal access square.
    pub(super) fn to_access(&self, a: u16) -> f64 {
        Self::lookup(&self.access, a)
    }

    /// Walk from `a` to the nearest teleport.
    pub(super) fn to_teleport(&self, a: u16) -> f64 {
        Self::lookup(&self.teleport, a)
    }

    /// Walk from `a` to the nearest walkable square of colour `colour`'s
    /// wing (the Explorer mission's target).
    pub(super) fn to_wing(&self, a: u16, colour: u8) -> f64 {
        Self::lookup(&self.wing[usize::from(colour.min(1))], a)
    }
}

thread_local! {
    /// The tables of the last components seen on this thread, rebuilt when
    /// their board differs (a board file can replace the default).
    static DIST: RefCell<Option<(Arc<Components>, Distances)>> = const { RefCell::new(None) };
}

/// True when two boards give the same distance tables.
fn same_targets(a: &Board, b: &Board) -> bool {
    a.w == b.w
        && a.walk == b.walk
        && a.icon_at == b.icon_at
        && a.icon_names.len() == b.icon_names.len()
        && a.access == b.access
        && a.teleports == b.teleports
        && a.red_wing == b.red_wing
        && a.blue_wing == b.blue_wing
}

/// What one character holds, from one pass over the tiles.
#[derive(Clone, Copy, Default)]
pub(super) struct Holding {
    pub(super) tiles: u8,
    pub(super) kinds: [u8; 6],
}

impl Holding {
    /// Tiles that count toward the portal's XP: scrolls and chests.
    pub(super) fn xp_items(&self) -> usize {
        usize::from(self.kinds[Kind::Scroll as usize] + self.kinds[Kind::Forziere as usize])
    }
}

impl Karmox {
    /// True when `side` (with `xp` permanent XP) may take the portal: 10 XP,
    /// or 9 with an XP item on every one of its characters.
    pub(super) fn portal_ready(&self, side: u8, xp: f64, h: &[Holding; 6]) -> bool {
        xp >= 10.0 || (xp >= 9.0 && self.side_chars(side).all(|c| h[c].xp_items() >= 1))
    }

    pub(super) fn with_distances<R>(&self, f: impl FnOnce(&Distances) -> R) -> R {
        DIST.with(|cell| {
            let mut slot = cell.borrow_mut();
            match slot.as_mut() {
                Some((comps, _)) if Arc::ptr_eq(comps, &self.c) => {}
                Some((comps, _)) if same_targets(&comps.board, &self.c.board) => {
                    *comps = Arc::clone(&self.c);
                }
                _ => *slot = Some((Arc::clone(&self.c), Distances::build(&self.c.board))),
            }
            f(&slot.as_ref().expect("set above").1)
        })
    }

    pub(super) fn sheet_summary(&self, s: &State) -> [Holding; 6] {
        let mut h = [Holding::default(); 6];
        for (loc, tile) in s.tiles.iter().zip(&self.c.tiles) {
            if let Loc::Sheet(c) = *loc {
                let c = &mut h[c as usize];
                c.tiles += 1;
                c.kinds[tile.kind as usize] += 1;
            }
        }
        h
    }

    /// Raw value of one side in XP-like units. `own`: the evaluating side,
    /// whose mission cards may be read; `pos` gives each character's square
    /// (the state's, or a trial destination).
    fn side_value(
        &self,
        s: &State,
        side: u8,
        own: bool,
        pos: &[u16; 6],
        h: &[Holding; 6],
        t: &Distances,
    ) -> f64 {
        let v = self.side_common(s, side, pos, h, t);
        if own {
            self.side_own(s, side, v, pos, h, t)
        } else {
            self.side_other(s, side, v)
        }
    }

    /// The terms of [`Karmox::side_value`] that any side may read.
    fn side_common(
        &self,
        s: &State,
        side: u8,
        pos: &[u16; 6],
        h: &[Holding; 6],
        t: &Distances,
    ) -> f64 {
        let xp = f64::from(s.xp[side as usize]);
        let mut v = xp;
        let ready = self.portal_ready(side, xp, h);
        // The portal race: the nearest eligible character's walk to an access square.
        let mut portal = f64::from(FAR);
        for c in self.side_chars(side) {
            let ch = &s.ch[c];
            v += 0.15 * f64::from(ch.life) + 0.1 * f64::from(ch.level);
            v += 0.3 * ch.abil.iter().map(|&a| f64::from(a)).sum::<f64>();
            // Any equipped tile outweighs standing on its icon (the tempo
            // term's 0.4 below): without this, equipping a potion or a tome
            // lowered the value and greedy play never picked items up.
            v += HELD * f64::from(h[c].tiles);
            v += 0.5 * f64::from(h[c].kinds[Kind::Ring as usize]);
            v += 0.1
                * f64::from(h[c].kinds[Kind::Potion as usize] + h[c].kinds[Kind::Tome as usize]);
            if xp >= 8.0 {
                v += 0.4 * h[c].xp_items().min(1) as f64;
            }
            if ch.on_board() {
                v -= RISK * self.threat(s, c, pos, t);
            }
            if ch.prison > 0 {
                v -= 1.0;
            } else if ch.in_play && (xp >= 10.0 || h[c].xp_items() >= 1) {
                portal = portal.min(t.to_access(pos[c]));
            }
        }
        if ready {
            v += 3.0 - 0.15 * portal.min(20.0);
        } else if xp >= 6.0 {
            // Closing in on 10 XP: start gathering near the portal.
            v -= 0.02 * (xp - 5.0) * portal.min(20.0);
        }
        v
    }

    /// [`Karmox::side_value`] of another side from its common terms `v`.
    fn side_other(&self, s: &State, side: u8, v: f64) -> f64 {
        // Another side's cards are secret: count them, not what they ask.
        v + 0.3 * s.piles[side as usize].len() as f64
    }

    /// [`Karmox::side_value`] of the evaluating side from its common terms `v`.
    fn side_own(
        &self,
        s: &State,
        side: u8,
        mut v: f64,
        pos: &[u16; 6],
        h: &[Holding; 6],
        t: &Distances,
    ) -> f64 {
        // Tempo (spec 9, terms 7 and 8): a character heads for the icon of
        // the tile waiting in its cell, else toward the centre of the board.
        for c in self.side_chars(side).filter(|&c| s.ch[c].on_board()) {
            let to_icon = self.slot(s, c).map_or(f64::from(FAR), |tile| {
                t.to_icon(pos[c], self.c.tiles[tile].icon)
            });
            if to_icon < f64::from(FAR) {
                v += 0.4 * (1.0 - to_icon / 24.0).max(0.0);
            }
            v -= 0.01 * t.to_access(pos[c]).min(24.0);
        }
        for card in &s.piles[side as usize] {
            let m = &self.c.missions[card.id as usize];
            v += f64::from(m.xp) * self.mission_progress(s, side, m.check, pos, h, t);
        }
        v
    }

    /// Danger to character `c` (spec 9, term 4): for each enemy next to it,
    /// the chance that enemy wins an attack on `c`, doubled when `c` has one
    /// life left (a defeat costs about five turns in prison).
    pub(super) fn threat(&self, s: &State, c: usize, pos: &[u16; 6], t: &Distances) -> f64 {
        let side = self.side_of_char(c);
        let mut danger = 0.0;
        for e in 0..6 {
            if !s.ch[e].on_board() || self.side_of_char(e) == side || pos[e] == NO_SQ {
                continue;
            }
            let d = t.between(pos[e], pos[c]);
            if d > 1.0 {
                continue;
            }
            let delta = self.stat(s, e, 0) - self.def_eff(s, c);
            danger += attack_win(delta);
        }
        if s.ch[c].life <= 1 {
            2.0 * danger
        } else {
            danger
        }
    }

    /// Progress toward completing a card of the side's own pile, as a share
    /// of its XP below 1 (`MISSION`), so completing a card beats nearing it;
    /// a card asking for tiles counts the right tile waiting in the cell,
    /// by the walk to its icon.
    pub(super) fn mission_progress(
        &self,
        s: &State,
        side: u8,
        check: Check,
        pos: &[u16; 6],
        h: &[Holding; 6],
        t: &Distances,
    ) -> f64 {
        let b = &self.c.board;
        let mine = || self.side_chars(side).filter(|&c| s.ch[c].on_board());
        let enemies =
            || (0..6).filter(move |&e| s.ch[e].on_board() && self.side_of_char(e) != side);
        // Closeness in [0, 1] to a set of squares, for the nearest character.
        let close = |d: f64, scale: f64| (1.0 - d / scale).clamp(0.0, 1.0);
        let best_close = |target: &dyn Fn(usize, u16) -> f64, scale: f64| {
            mine()
                .map(|c| close(target(c, pos[c]), scale))
                .fold(0.0, f64::max)
        };
        // Closeness of character c to the icon of the tile waiting in its
        // cell, when that tile is of `kind` (any kind for None).
        let waiting = |c: usize, kind: Option<Kind>| match self.slot(s, c) {
            Some(tile) if kind.is_none_or(|k| self.c.tiles[tile].kind == k) => {
                WAITING * close(t.to_icon(pos[c], self.c.tiles[tile].icon), 24.0)
            }
            _ => 0.0,
        };
        let count = |kind: Kind, need: u8| {
            mine()
                .map(|c| {
                    let have = h[c].kinds[kind as usize].min(need);
                    let next = if have < need {
                        waiting(c, Some(kind))
                    } else {
                        0.0
                    };
                    (f64::from(have) + next) / f64::from(need)
                })
                .fold(0.0, f64::max)
        };
        let p = match check {
            Check::PortalSentinel => best_close(&|_, a| t.to_access(a), 24.0),
            Check::Intruder => best_close(
                &|_, a| {
                    (0..6)
                        .filter(|&e| s.ch[e].in_play && self.side_of_char(e) != side)
                        .map(|e| t.between(a, b.front[e]))
                        .fold(f64::from(FAR), f64::min)
                },
                24.0,
            ),
            Check::Explorer => best_close(&|c, a| t.to_wing(a, colour_of(c)), 24.0),
            Check::Forzieri2 => count(Kind::Forziere, 2),
            Check::Tiles3 => mine()
                .map(|c| {
                    let have = h[c].tiles.min(3);
                    let next = if have < 3 { waiting(c, None) } else { 0.0 };
                    (f64::from(have) + next) / 3.0
                })
                .fold(0.0, f64::max),
            Check::Event(bit) if bit == ev::POTIONS => count(Kind::Potion, 2),
            Check::Event(bit) if bit == ev::TOMES => count(Kind::Tome, 2),
            Check::Event(bit) if bit == ev::LEVEL_UP => mine()
                .map(|c| f64::from(s.ch[c].level.min(2)) / 3.0)
                .fold(0.0, f64::max),
            Check::Event(bit) if bit == ev::TELEPORT => best_close(
                &|c, a| {
                    if h[c].kinds[Kind::Scroll as usize] == 0 {
                        return f64::from(FAR);
                    }
                    t.to_teleport(a)
                },
                24.0,
            ),
            Check::Event(bit)
                if bit & (ev::WIN | ev::DEFEAT | ev::STEAL | ev::PUSH3 | ev::WIN_A5) != 0 =>
            {
                // Combat cards: being next to an enemy, weaker ones preferred
                // for a defeat.
                best_close(
                    &|_, a| {
                        enemies()
                            .map(|e| {
                                let weak = if bit == ev::DEFEAT {
                                    f64::from(5u8.saturating_sub(s.ch[e].life))
                                } else {
                                    0.0
                                };
                                (t.between(a, pos[e]) - 1.0).max(0.0) - weak
                            })
                            .fold(f64::from(FAR), f64::min)
                    },
                    20.0,
                )
            }
            Check::Event(bit) if bit == ev::EQUIP_RING => best_close(
                &|c, a| match self.slot(s, c) {
                    Some(tile) if self.c.tiles[tile].kind == Kind::Ring => {
                        t.to_icon(a, self.c.tiles[tile].icon)
                    }
                    _ => f64::from(FAR),
                },
                24.0,
            ),
            Check::Event(_) => 0.0,
        };
        MISSION * p
    }

    /// Heuristic in [-1, 1] from `player`'s view.
    pub fn evaluate(&self, s: &State, player: PlayerId) -> f64 {
        let side = self.seat_side[player as usize];
        if s.phase == Phase::Over {
            return match s.result {
                DRAW | NO_RESULT => 0.0,
                w if w == side => 1.0,
                _ => -1.0,
            };
        }
        let h = self.sheet_summary(s);
        let pos = self.positions(s);
        self.with_distances(|t| {
            let (lead, _, _) = self.raw_lead(s, side, &pos, &h, t);
            (lead / 12.0).tanh().clamp(-0.99, 0.99)
        })
    }

    /// [`Karmox::evaluate`] for every seat: each side's terms worked out
    /// once, each side's lead once for all its seats.
    pub fn evaluate_all(&self, s: &State) -> Returns {
        if s.phase == Phase::Over {
            return (0..self.n as PlayerId)
                .map(|p| self.evaluate(s, p))
                .collect();
        }
        let h = self.sheet_summary(s);
        let pos = self.positions(s);
        self.with_distances(|t| {
            let sides = 0..self.n_sides as u8;
            let common: [f64; 6] = std::array::from_fn(|x| {
                if x < self.n_sides {
                    self.side_common(s, x as u8, &pos, &h, t)
                } else {
                    0.0
                }
            });
            let others: [f64; 6] = std::array::from_fn(|x| {
                if x < self.n_sides {
                    self.side_other(s, x as u8, common[x])
                } else {
                    0.0
                }
            });
            let mut value = [0.0f64; 6];
            for side in sides {
                if !self.seat_side[..self.n].contains(&side) {
                    continue;
                }
                let mine = self.side_own(s, side, common[side as usize], &pos, &h, t);
                let (lead, _, _) = self.lead_from(s, side, mine, &others, &pos, &h, t);
                value[side as usize] = (lead / 12.0).tanh().clamp(-0.99, 0.99);
            }
            self.seat_side[..self.n]
                .iter()
                .map(|&side| value[side as usize])
                .collect()
        })
    }

    /// Each character's square, `NO_SQ` off the board.
    pub(super) fn positions(&self, s: &State) -> [u16; 6] {
        let mut pos = [NO_SQ; 6];
        for (p, ch) in pos.iter_mut().zip(&s.ch) {
            if ch.on_board() {
                *p = ch.pos;
            }
        }
        pos
    }

    /// `side`'s value minus the best rival side's, in XP-like units (the
    /// heuristic before its squashing), that rival side, and the squares
    /// `side`'s value was taken at (a Move's best destination included).
    pub(super) fn raw_lead(
        &self,
        s: &State,
        side: u8,
        pos: &[u16; 6],
        h: &[Holding; 6],
        t: &Distances,
    ) -> (f64, u8, [u16; 6]) {
        let mut others = [0.0f64; 6];
        for x in (0..self.n_sides as u8).filter(|&x| x != side) {
            others[x as usize] = self.side_value(s, x, false, pos, h, t);
        }
        let mine = self.side_value(s, side, true, pos, h, t);
        self.lead_from(s, side, mine, &others, pos, h, t)
    }

    /// [`Karmox::raw_lead`] from `side`'s own value `mine` and every other
    /// side's value in `others` (indexed by side).
    #[allow(clippy::too_many_arguments)]
    fn lead_from(
        &self,
        s: &State,
        side: u8,
        mut mine: f64,
        others: &[f64; 6],
        pos: &[u16; 6],
        h: &[Holding; 6],
        t: &Distances,
    ) -> (f64, u8, [u16; 6]) {
        let (mut best_other, mut rival) = (f64::NEG_INFINITY, side);
        for x in (0..self.n_sides as u8).filter(|&x| x != side) {
            let v = others[x as usize];
            if rival == side || v > best_other {
                (best_other, rival) = (v, x);
            }
        }
        let mut at = *pos;
        // A Move of one of ours is worth its best destination.
        if let Phase::MoveDest(c) = s.phase
            && self.side_of_char(c as usize) == side
        {
            let c = c as usize;
            let lim = self.allowance(s, c);
            self.each_destination(s, c, lim, |d| {
                let mut trial = *pos;
                trial[c] = d;
                let v = self.side_value(s, side, true, &trial, h, t);
                if v > mine {
                    (mine, at) = (v, trial);
                }
            });
        }
        (mine - best_other, rival, at)
    }
}

/// Chance that an attacker wins when its ATT exceeds the defender's DEF by
/// `delta`: 2d6 + ATT against 2d6 + DEF, ties rerolled (spec 2.7).
fn attack_win(delta: i16) -> f64 {
    static TABLE: std::sync::OnceLock<[f64; 41]> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let delta = i as i16 - 20;
            let (mut win, mut tie) = (0.0, 0.0);
            for a in 2..=12u8 {
                for d in 2..=12u8 {
                    let p = p2d6(a) * p2d6(d);
                    match (i16::from(a) + delta).cmp(&i16::from(d)) {
                        std::cmp::Ordering::Greater => win += p,
                        std::cmp::Ordering::Equal => tie += p,
                        std::cmp::Ordering::Less => {}
                    }
                }
            }
            win / (1.0 - tie)
        })
    });
    t[(delta.clamp(-20, 20) + 20) as usize]
}
