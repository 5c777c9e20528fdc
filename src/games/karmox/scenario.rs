//! A public builder for Karmox positions, so that tests and studies can set up
//! a position from what is on the table (pawns, sheets, tiles, missions, whose
//! turn) without the crate's private helpers.
//!
//! The builder starts from the dealt table of [`Karmox::setup_state`] with
//! setup over: every pawn in play on its cell's front square with 5 life and no
//! markers, every tile in the supply, empty mission piles and a face-down deck.
//! Seats and sides come from the game's configuration and cannot be changed.
//! [`Scenario::build`] runs the turn start of the rules (EP0) for the chosen
//! seat and then the game's own [`Rules::check_invariants`],
//! so a position it returns is one the rules can continue from.
//!
//! ```
//! use boardlab::game::{Evaluation, Game, Reporting, Rules, Turn};
//! use boardlab::games::karmox::{Karmox, Scenario};
//!
//! let g = Karmox::parse("players=2").unwrap();
//! let s = Scenario::new(&g)
//!     .turn(1)
//!     .at("MGb", 8, 4)
//!     .life("MGb", 3)
//!     .equip("MGb", "T07")
//!     .equip("MGb", "T11")
//!     .missions(1, &["M07"])
//!     .build_in_action_phase()
//!     .unwrap();
//! assert_eq!(g.turn(&s), Turn::Player(1));
//! // A pawn on a wall is refused with the broken rule named.
//! let err = Scenario::new(&g).at("MGa", 0, 0).build().unwrap_err();
//! assert!(err.contains("unwalkable"), "{err}");
//! ```

use super::Karmox;
use super::data::{Kind, char_index};
use super::state::{Card, Loc, Phase, State};
use crate::game::Rules;

/// A Karmox position under construction; see the module documentation.
/// Setters never panic: the first bad argument is kept and returned by `build`.
#[derive(Clone, Debug)]
pub struct Scenario<'g> {
    g: &'g Karmox,
    s: State,
    seat: u8,
    error: Option<String>,
}

impl<'g> Scenario<'g> {
    /// The dealt table of `game`, seat 0 to play in round 1.
    pub fn new(game: &'g Karmox) -> Self {
        let mut s = game.setup_state();
        s.setup = false;
        s.first = 0;
        Scenario {
            g: game,
            s,
            seat: 0,
            error: None,
        }
    }

    fn fail(&mut self, why: String) {
        if self.error.is_none() {
            self.error = Some(why);
        }
    }

    /// The index of a character in play, or an error.
    fn ch(&mut self, id: &str) -> Option<usize> {
        match char_index(id) {
            Some(c) if self.s.ch[c].in_play => Some(c),
            Some(_) => {
                self.fail(format!(
                    "character {id} is not in play in {}",
                    self.g.spec()
                ));
                None
            }
            None => {
                self.fail(format!(
                    "unknown character {id} (MGa, MGb, GRa, GRb, GKa, GKb)"
                ));
                None
            }
        }
    }

    fn tile(&mut self, id: &str) -> Option<usize> {
        let t = self.g.c.tiles.iter().position(|t| t.id == id);
        if t.is_none() {
            self.fail(format!("unknown item tile {id}"));
        }
        t
    }

    fn square(&mut self, x: usize, y: usize) -> Option<u16> {
        let b = &self.g.c.board;
        if x < b.w && y < b.h {
            Some(b.sq(x, y))
        } else {
            self.fail(format!("square ({x},{y}) is off the {}x{} board", b.w, b.h));
            None
        }
    }

    fn mission(&mut self, id: &str) -> Option<u8> {
        let m = self.g.c.missions.iter().position(|m| m.id == id);
        let Some(m) = m else {
            self.fail(format!("unknown mission card {id}"));
            return None;
        };
        if self.s.deck_unknown & (1 << m) == 0 {
            self.fail(format!("mission card {id} is placed twice"));
            return None;
        }
        self.s.deck_unknown &= !(1 << m);
        Some(m as u8)
    }

    fn side(&mut self, side: u8) -> Option<usize> {
        if usize::from(side) < self.g.n_sides {
            Some(side.into())
        } else {
            self.fail(format!(
                "side {side} does not exist ({} sides)",
                self.g.n_sides
            ));
            None
        }
    }

    /// The seat whose turn begins (the first seat stays 0 unless set).
    pub fn turn(mut self, seat: u8) -> Self {
        if usize::from(seat) < self.g.n {
            self.seat = seat;
        } else {
            self.fail(format!("seat {seat} does not exist ({} seats)", self.g.n));
        }
        self
    }

    /// The seat that played first (rounds end before its turn).
    pub fn first(mut self, seat: u8) -> Self {
        if usize::from(seat) < self.g.n {
            self.s.first = seat;
        } else {
            self.fail(format!("seat {seat} does not exist ({} seats)", self.g.n));
        }
        self
    }

    /// The round number, 1 to the game's `max_rounds`.
    pub fn round(mut self, round: u16) -> Self {
        if (1..=self.g.max_rounds).contains(&round) {
            self.s.round = round;
        } else {
            self.fail(format!("round {round} outside 1..={}", self.g.max_rounds));
        }
        self
    }

    /// Puts a character's pawn on square `(x, y)` (and out of prison).
    pub fn at(mut self, ch: &str, x: usize, y: usize) -> Self {
        if let (Some(c), Some(sq)) = (self.ch(ch), self.square(x, y)) {
            let p = &mut self.s.ch[c];
            p.pos = sq;
            p.prison = 0;
        }
        self
    }

    /// Life points, 1 to 5 on the board (a prisoner has 0).
    pub fn life(mut self, ch: &str, life: u8) -> Self {
        if let Some(c) = self.ch(ch) {
            self.s.ch[c].life = life;
        }
        self
    }

    /// Level points, 0 to 2.
    pub fn level(mut self, ch: &str, level: u8) -> Self {
        if let Some(c) = self.ch(ch) {
            self.s.ch[c].level = level;
        }
        self
    }

    /// Ability markers on ATT, DEF and MOV, 0 to 3 each.
    pub fn abilities(mut self, ch: &str, markers: [u8; 3]) -> Self {
        if let Some(c) = self.ch(ch) {
            self.s.ch[c].abil = markers;
        }
        self
    }

    /// Imprisons a character in the cell of `cell_of`, on timer box 1 to 5,
    /// with no life left, as after its defeat (release sets its life).
    pub fn prison(mut self, ch: &str, cell_of: &str, timer: u8) -> Self {
        if !(1..=5).contains(&timer) {
            self.fail(format!("prison timer box {timer} outside 1..=5"));
        } else if let (Some(c), Some(cell)) = (self.ch(ch), char_index(cell_of)) {
            let p = &mut self.s.ch[c];
            p.prison = timer;
            p.prison_cell = cell as u8;
            p.pos = super::data::NO_SQ;
            p.life = 0;
        } else if char_index(cell_of).is_none() {
            self.fail(format!(
                "unknown cell {cell_of} (MGa, MGb, GRa, GRb, GKa, GKb)"
            ));
        }
        self
    }

    /// Equips a tile on a character's sheet (a second ring is refused by `build`).
    pub fn equip(mut self, ch: &str, tile: &str) -> Self {
        if let (Some(c), Some(t)) = (self.ch(ch), self.tile(tile)) {
            self.s.tiles[t] = Loc::Sheet(c as u8);
        }
        self
    }

    /// Makes a tile the active tile of the cell of `cell_of`.
    pub fn activate(mut self, cell_of: &str, tile: &str) -> Self {
        if let (Some(c), Some(t)) = (self.ch(cell_of), self.tile(tile)) {
            self.s.tiles[t] = Loc::Slot(c as u8);
        }
        self
    }

    /// Places a Skeletor tile with its top-left square at `(x, y)`, an anchor
    /// of the empty board; `build` refuses two Skeletors that overlap or one
    /// on a character of the other colour.
    pub fn skeletor(mut self, tile: &str, x: usize, y: usize) -> Self {
        if let (Some(t), Some(sq)) = (self.tile(tile), self.square(x, y)) {
            if self.g.c.tiles[t].kind != Kind::Skeletor {
                self.fail(format!("tile {tile} is not a Skeletor"));
            } else if !self.g.c.board.anchors.contains(&sq) {
                self.fail(format!("({x},{y}) is not a Skeletor anchor on this board"));
            } else {
                self.s.tiles[t] = Loc::Board(sq);
            }
        }
        self
    }

    /// Permanent XP of a side.
    pub fn xp(mut self, side: u8, xp: u8) -> Self {
        if let Some(x) = self.side(side) {
            self.s.xp[x] = xp;
        }
        self
    }

    /// Secret mission cards in a side's pile (at most 3), taken from the deck.
    pub fn missions(mut self, side: u8, cards: &[&str]) -> Self {
        let Some(x) = self.side(side) else {
            return self;
        };
        for id in cards {
            if let Some(m) = self.mission(id) {
                if self.s.piles[x].is_full() {
                    self.fail(format!("side {side} holds more than 3 missions"));
                    break;
                }
                self.s.piles[x].push(Card {
                    id: m,
                    public: false,
                });
            }
        }
        self
    }

    /// Completed cards put under the deck, top to bottom (public knowledge).
    pub fn deck_bottom(mut self, cards: &[&str]) -> Self {
        for id in cards {
            if let Some(m) = self.mission(id) {
                self.s.deck_known.push(m);
            }
        }
        self
    }

    /// The square of a skittle on the Event Table (0 blue or the shared one, 1 red).
    pub fn skittle(mut self, skittle: usize, square: u8) -> Self {
        if skittle < 2 && usize::from(square) < self.g.c.events.len() {
            self.s.skittle[skittle] = square;
        } else {
            self.fail(format!(
                "skittle {skittle} on square {square}: skittles are 0 and 1, squares 0..{}",
                self.g.c.events.len()
            ));
        }
        self
    }

    /// The position at the start of the chosen seat's turn (EP0 done, the
    /// event die to roll next), or the first broken rule.
    pub fn build(self) -> Result<State, String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut s = self.s;
        self.g.start_turn(&mut s, self.seat);
        self.g.check_invariants(&s)?;
        Ok(s)
    }

    /// As [`Scenario::build`], then straight to the action phase with two
    /// actions, as after an event square with no effect and nothing to activate.
    pub fn build_in_action_phase(self) -> Result<State, String> {
        let mut s = self.build()?;
        s.phase = Phase::Action;
        Ok(s)
    }
}
