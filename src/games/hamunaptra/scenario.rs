//! A public builder of Hamunaptra positions, for tests and studies that need
//! a set-up board without reaching into the state's fields.
//!
//! Cards are named by their ids in the component tables (`C-STR`, `M1`,
//! `E01`, characters `C01`…). Every card laid, held or put on a table is
//! taken from the pile, so each card stays in exactly one place; `build`
//! then runs the active seat's turn start as the rules do (start-of-turn
//! resets, then the draw up to the hand size), or under optional rule 2
//! the end-of-round monster phase, and checks the game's invariants,
//! returning an error naming the first broken one. Tests then reach the
//! step they examine by legal actions and forced chance outcomes.
//!
//! ```
//! use boardlab::game::{Evaluation, Game, Reporting, Rules, Turn};
//! use boardlab::games::hamunaptra::{Hamunaptra, Scenario};
//!
//! let g = Hamunaptra::from_spec_text("hamunaptra").unwrap();
//! let s = Scenario::new(&g)
//!     .characters(0, &["C01", "C02", "C13", "C15"])
//!     .characters(1, &["C16", "C14", "C12", "C07"])
//!     .tile("C-STR", -3, 1, 0, 0)
//!     .encounter("M1", -3, 2)
//!     .at("C01", -3, 1)
//!     .hand(0, &["C-STR", "C-CRS", "C-CRN", "C-DEAD"])
//!     .turn(0)
//!     .build()
//!     .unwrap();
//! // A full hand: no draw, straight to Ann's movement.
//! assert_eq!(g.turn(&s), Turn::Player(0));
//! assert_eq!(s.pile_len, 115 - 1 - 1 - 4);
//! // A tile that matches nothing is refused with a one-line error.
//! let err = Scenario::new(&g).tile("C-STR", -2, 0, 0, 0).build().unwrap_err();
//! assert!(err.contains("(-2,0)"), "{err}");
//! ```

use super::Hamunaptra;
use super::data::KindClass;
use super::state::{NO_CELL, NONE, State, cell_of};
use crate::game::{PlayerId, Rules};

/// Builds a position step by step; the first error is kept and returned by
/// [`Scenario::build`], so calls can be chained without checking each one.
#[derive(Clone, Debug)]
pub struct Scenario<'g> {
    game: &'g Hamunaptra,
    s: State,
    err: Option<String>,
    turn: u8,
    deck: Option<Vec<u8>>,
    /// Mid-turn facts set after the turn start (which would reset them):
    /// (character, movement points left) and (character, equipment carried).
    mp: Vec<(usize, u8)>,
    carried: Vec<(usize, u8)>,
    /// Build at the end of the round (rule 2's monster phase), not a turn start.
    monsters: bool,
}

impl<'g> Scenario<'g> {
    /// The layout's start tiles laid, seat p on the layout's entrance p,
    /// seat 0 the First Player and to move in round 1, every card in the pile.
    pub fn new(game: &'g Hamunaptra) -> Self {
        let mut s = game.new_state();
        for (p, &e) in game
            .entrances
            .iter()
            .enumerate()
            .take(game.players as usize)
        {
            s.players[p].entrance = e;
        }
        s.roll_tied = 0;
        s.round = 1;
        Scenario {
            game,
            s,
            err: None,
            turn: 0,
            deck: None,
            mp: Vec::new(),
            carried: Vec::new(),
            monsters: false,
        }
    }

    fn fail(&mut self, why: String) {
        if self.err.is_none() {
            self.err = Some(why);
        }
    }

    fn seat_ok(&mut self, seat: PlayerId) -> bool {
        if seat < self.game.players {
            return true;
        }
        self.fail(format!(
            "seat {seat} out of range: the game has {} seats",
            self.game.players
        ));
        false
    }

    fn cell(&mut self, x: i32, y: i32) -> Option<u16> {
        if self.game.in_bounds(x, y) {
            return Some(cell_of(x, y));
        }
        self.fail(format!(
            "cell ({x},{y}) is off the board (|x|, |y| <= {})",
            self.game.h
        ));
        None
    }

    /// The card kind named `id`, if any.
    fn kind(&mut self, id: &str) -> Option<u8> {
        let c = &self.game.comps;
        let k = (0..c.kinds() as u8).find(|&k| match c.class(k) {
            KindClass::Tile(t) => c.tiles[t as usize].id == id,
            KindClass::Foe(f) => c.foes[f as usize].id == id,
            KindClass::Equip(e) => c.equipment[e as usize].id == id,
        });
        if k.is_none() {
            self.fail(format!(
                "no card {id}: expected a pile tile, monster, trap or equipment id"
            ));
        }
        k
    }

    /// Takes one card `id` out of the pile.
    fn take(&mut self, id: &str) -> Option<u8> {
        let k = self.kind(id)?;
        if self.s.pile[k as usize] == 0 {
            self.fail(format!("no copy of {id} left in the pile"));
            return None;
        }
        self.s.pile[k as usize] -= 1;
        self.s.pile_len -= 1;
        Some(k)
    }

    fn character(&mut self, id: &str) -> Option<usize> {
        let i = self.game.comps.chars.iter().position(|d| d.id == id);
        if i.is_none() {
            self.fail(format!("no character {id}"));
        }
        i
    }

    /// Sets the First Player (turn order and the monster-controller pointer
    /// count from it).
    pub fn first(mut self, seat: PlayerId) -> Self {
        if self.seat_ok(seat) {
            self.s.first = seat;
        }
        self
    }

    /// Gives `seat` these characters, alive on its entrance.
    pub fn characters(mut self, seat: PlayerId, ids: &[&str]) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        for id in ids {
            let Some(i) = self.character(id) else {
                return self;
            };
            if self.s.chars[i].owner != NONE {
                self.fail(format!("character {id} given twice"));
                return self;
            }
            let ch = &mut self.s.chars[i];
            ch.owner = seat;
            ch.alive = true;
            ch.cell = self.s.players[seat as usize].entrance;
        }
        self
    }

    /// Moves a character (already given to a seat) to (x, y).
    pub fn at(mut self, id: &str, x: i32, y: i32) -> Self {
        let (Some(i), Some(c)) = (self.character(id), self.cell(x, y)) else {
            return self;
        };
        if self.s.chars[i].owner == NONE || !self.s.chars[i].alive {
            self.fail(format!("character {id} is not in play"));
            return self;
        }
        self.s.chars[i].cell = c;
        self
    }

    /// Removes a character from play, as if killed.
    pub fn dead(mut self, id: &str) -> Self {
        let Some(i) = self.character(id) else {
            return self;
        };
        let ch = &mut self.s.chars[i];
        ch.alive = false;
        ch.cell = NO_CELL;
        self
    }

    /// Lays pile tile `id` at (x, y) rotated `deg` degrees clockwise, as laid
    /// by `placer`: a stair records its placer and whether it is an exit,
    /// decided as the rules do on the board at this point.
    pub fn tile(mut self, id: &str, x: i32, y: i32, deg: u16, placer: PlayerId) -> Self {
        if !self.seat_ok(placer) {
            return self;
        }
        let Some(c) = self.cell(x, y) else {
            return self;
        };
        if !deg.is_multiple_of(90) {
            self.fail(format!(
                "rotation {deg} of {id}: expected 0, 90, 180 or 270"
            ));
            return self;
        }
        if self.s.cells[c as usize].tile != 0 {
            self.fail(format!("({x},{y}) already holds a tile"));
            return self;
        }
        let Some(k) = self.take(id) else {
            return self;
        };
        let KindClass::Tile(t) = self.game.comps.class(k) else {
            self.fail(format!("{id} is not a tile"));
            return self;
        };
        let g = self.game;
        let s = &mut self.s;
        s.cells[c as usize].tile = t + 1;
        s.cells[c as usize].rot = ((deg / 90) % 4) as u8;
        if g.comps.tiles[t as usize].stairs {
            s.cells[c as usize].placer = placer + 1;
            s.stairs.push(c);
            let e = s.players[placer as usize].entrance;
            s.cells[c as usize].exit = g.is_exit_from(s, e, c);
        }
        self
    }

    /// Lays one pile tile `id` on each of `cells`, all rotated `deg` and laid
    /// by `placer`: a run of tunnel in one call, as [`Scenario::tile`] each.
    pub fn tiles(mut self, id: &str, cells: &[(i32, i32)], deg: u16, placer: PlayerId) -> Self {
        for &(x, y) in cells {
            self = self.tile(id, x, y, deg, placer);
        }
        self
    }

    /// Puts monster or trap `id` face up at (x, y), on a tile or on an empty
    /// cell facing an open side.
    pub fn encounter(mut self, id: &str, x: i32, y: i32) -> Self {
        let Some(c) = self.cell(x, y) else {
            return self;
        };
        if self.s.cells[c as usize].enc != 0 {
            self.fail(format!("({x},{y}) already holds an encounter"));
            return self;
        }
        let Some(k) = self.take(id) else {
            return self;
        };
        let KindClass::Foe(f) = self.game.comps.class(k) else {
            self.fail(format!("{id} is not a monster or trap"));
            return self;
        };
        self.s.cells[c as usize].enc = f + 1;
        self.s.foes[f as usize].cell = c;
        self
    }

    /// Adds these cards to `seat`'s hand.
    pub fn hand(mut self, seat: PlayerId, ids: &[&str]) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        for id in ids {
            let Some(k) = self.take(id) else {
                return self;
            };
            let h = &mut self.s.players[seat as usize].hand;
            if h.is_full() {
                self.fail(format!("seat {seat} holds too many cards"));
                return self;
            }
            let i = h.iter().position(|&y| y > k).unwrap_or(h.len());
            h.insert(i, k);
        }
        self
    }

    /// Puts these equipment cards face down on `seat`'s table.
    pub fn table(mut self, seat: PlayerId, ids: &[&str]) -> Self {
        if !self.seat_ok(seat) {
            return self;
        }
        for id in ids {
            let Some(k) = self.take(id) else {
                return self;
            };
            let KindClass::Equip(e) = self.game.comps.class(k) else {
                self.fail(format!("{id} is not equipment"));
                return self;
            };
            let t = &mut self.s.players[seat as usize].table;
            if t.is_full() {
                self.fail(format!("seat {seat} has too much equipment on the table"));
                return self;
            }
            t.push(e);
            t.sort_unstable();
        }
        self
    }

    /// Leaves character `id` `mp` movement points for this turn (at most its
    /// M), as if it had already moved: set after the turn start.
    pub fn movement_left(mut self, id: &str, mp: u8) -> Self {
        let Some(i) = self.character(id) else {
            return self;
        };
        let m = self.game.comps.chars[i].m;
        if mp > m {
            self.fail(format!("{id} has M {m}: movement left {mp} is more"));
            return self;
        }
        self.mp.push((i, mp));
        self
    }

    /// Character `id` carries equipment `equip` active, as if assigned
    /// earlier this turn (active equipment is discarded at its owner's next
    /// turn start, so it is set after the turn start).
    pub fn carrying(mut self, id: &str, equip: &str) -> Self {
        let Some(i) = self.character(id) else {
            return self;
        };
        let Some(k) = self.take(equip) else {
            return self;
        };
        let KindClass::Equip(e) = self.game.comps.class(k) else {
            self.fail(format!("{equip} is not equipment"));
            return self;
        };
        if self.carried.iter().any(|&(j, _)| j == i) {
            self.fail(format!("{id} already carries equipment"));
            return self;
        }
        self.carried.push((i, e));
        self
    }

    /// Leaves exactly these cards in the pile when the position is built;
    /// the other cards still in the pile then are out of the game.
    pub fn deck(mut self, ids: &[&str]) -> Self {
        let mut kinds = Vec::with_capacity(ids.len());
        for id in ids {
            let Some(k) = self.kind(id) else {
                return self;
            };
            kinds.push(k);
        }
        self.deck = Some(kinds);
        self
    }

    /// The seat whose turn starts when the position is built.
    pub fn turn(mut self, seat: PlayerId) -> Self {
        if self.seat_ok(seat) {
            self.turn = seat;
        }
        self
    }

    /// The round number (1-based).
    pub fn round(mut self, round: u16) -> Self {
        if round == 0 || round > self.game.max_rounds {
            self.fail(format!(
                "round {round} out of range 1..={}",
                self.game.max_rounds
            ));
        } else {
            self.s.round = round;
        }
        self
    }

    /// Marks the round as the last one (an exit was reached or the pile ran out).
    pub fn final_round(mut self) -> Self {
        self.s.final_round = true;
        self
    }

    /// Builds the position at the end of the round instead of at a turn
    /// start: under optional rule 2, the monster phase, the First Player
    /// choosing first. Needs a monster standing on a tile.
    pub fn monster_phase(mut self) -> Self {
        self.monsters = true;
        self
    }

    /// Starts the active seat's turn (start-of-turn resets, then the draw:
    /// the state is at a draw chance node until the hand is full) and checks
    /// the position.
    pub fn build(mut self) -> Result<State, String> {
        if let Some(deck) = self.deck.take() {
            let mut want = [0u8; 64];
            for &k in &deck {
                want[k as usize] += 1;
            }
            for (k, &n) in want.iter().enumerate().take(self.game.comps.kinds()) {
                if n > self.s.pile[k] {
                    let name = self.game.comps.kind_name(k as u8);
                    self.fail(format!(
                        "deck: not enough copies of {name} left in the pile"
                    ));
                    break;
                }
                self.s.gone[k] += self.s.pile[k] - n;
                self.s.pile[k] = n;
            }
            self.s.pile_len = deck.len() as u16;
        }
        if let Some(e) = self.err {
            return Err(e);
        }
        let g = self.game;
        let mut s = self.s;
        g.layout_ok(&s)?;
        s.seat = self.turn;
        s.ctrl_ptr = s.first;
        s.pile_was_empty = s.pile_len == 0;
        if self.monsters {
            s.seat = (s.first + g.players - 1) % g.players;
            if !g.enter_monsters(&mut s) {
                return Err(
                    "monster phase: needs rule2=true and a monster standing on a tile".into(),
                );
            }
        } else {
            g.start_turn(&mut s);
        }
        for &(i, mp) in &self.mp {
            s.chars[i].mp = mp;
        }
        for &(i, e) in &self.carried {
            let ch = &s.chars[i];
            if !ch.alive || ch.owner != s.seat {
                return Err(format!(
                    "{} carries equipment but is not a character of the seat to move",
                    g.comps.chars[i].id
                ));
            }
            s.chars[i].active = e;
        }
        g.check_invariants(&s)?;
        Ok(s)
    }
}

impl Hamunaptra {
    /// Board facts that play keeps and the general invariants leave out:
    /// every tile is linked to an entrance, every encounter stands on a tile
    /// or faces an open side, characters stand on tiles.
    fn layout_ok(&self, s: &State) -> Result<(), String> {
        let entrances: Vec<u16> = (0..self.players as usize)
            .map(|p| s.players[p].entrance)
            .collect();
        let reach = self.component(s, &entrances, false);
        for (c, cell) in s.cells.iter().enumerate() {
            let c = c as u16;
            if cell.tile != 0 && !reach.has(c) {
                return Err(format!(
                    "the tile at {} is not linked to any entrance",
                    self.pos(c)
                ));
            }
            if cell.enc != 0 && cell.tile == 0 && !self.encounter_cell_faces_open(s, c) {
                return Err(format!(
                    "the encounter at {} faces no open side",
                    self.pos(c)
                ));
            }
        }
        for (i, ch) in s.chars.iter().enumerate() {
            if ch.alive && (ch.cell == NO_CELL || s.cells[ch.cell as usize].tile == 0) {
                return Err(format!(
                    "character {} stands off the tiles at {}",
                    self.comps.chars[i].id,
                    self.pos(ch.cell)
                ));
            }
        }
        Ok(())
    }

    /// True when an open side of a neighbouring tile faces `c`.
    fn encounter_cell_faces_open(&self, s: &State, c: u16) -> bool {
        (0..4).any(|d| {
            self.nb(c, d)
                .is_some_and(|n| self.open(s, n) >> super::board::opp(d) & 1 == 1)
        })
    }
}
