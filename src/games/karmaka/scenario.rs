//! A public builder for Karmaka positions, so that tests and research scripts
//! can set up a table from its visible parts without crate-private helpers.

use super::Karmaka;
use super::cards::NCARDS;
use super::state::{ALL, State, TRANSCENDED, bit, insert_sorted};
use crate::game::Rules;

/// Builds a [`State`] card by card (instance ids `0..64`, see
/// [`Karmaka::card`]). Every card not placed goes to the Well pool (or, with
/// [`Scenario::unplaced_to_deck`], to a Deck), so each card is in exactly one
/// place. Each card starts with the knowledge its
/// place gives (spec §5.1): a Hand or Future Life card is known to its owner,
/// Deeds and Ruins to everyone, Deck and Well cards to nobody;
/// [`Scenario::reveal`] adds what a player learned earlier (a Peek, a Destiny
/// look), [`Scenario::public`] what everyone saw (an accepted karmic card).
/// Decisions after the turn start (a pending offer, a bonus play) are
/// reached by applying legal actions to the built state. [`Scenario::build`] then runs the turn start of the player to
/// move (death check, Deck draw), as the rules do, and checks the game's
/// invariants.
///
/// ```
/// use boardlab::game::{Evaluation, Game, Reporting, Rules, Turn};
/// use boardlab::games::karmaka::{Karmaka, Phase, Scenario};
///
/// let g = Karmaka::parse("karmaka").unwrap();
/// let ven = g.card("VEN", 0).unwrap();
/// let pan = g.card("PAN", 0).unwrap();
/// let s = Scenario::new(&g)
///     .active(1)
///     .hand(1, &[ven])
///     .deck(1, &[pan])
///     .level(0, 2)
///     .rings(0, 1)
///     .build()
///     .unwrap();
/// // Seat 1 drew its Deck card at the start of its turn (a Hand is kept sorted).
/// assert_eq!(&s.hands[1][..], &[pan, ven]);
/// assert!(s.decks[1].is_empty());
/// assert_eq!((s.phase, g.turn(&s)), (Phase::Main, Turn::Player(1)));
/// // A card placed twice is an error, not a broken state.
/// assert!(Scenario::new(&g).hand(0, &[ven]).ruins(&[ven]).build().is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Scenario<'g> {
    game: &'g Karmaka,
    state: State,
    placed: [bool; NCARDS],
    /// Knowledge added to a placed card: (card, mask of observers).
    reveals: Vec<(u8, u8)>,
    /// The seat whose Deck receives the unplaced cards, if not the Well.
    rest_to: Option<u8>,
    error: Option<String>,
}

impl Karmaka {
    /// The instance id of copy `copy` (from 0) of the card type with this
    /// code, e.g. `card("VEN", 0)`; `None` if there is no such copy.
    pub fn card(&self, code: &str, copy: usize) -> Option<u8> {
        let t = self.cards.types.iter().position(|t| t.code == code)?;
        (0..NCARDS as u8)
            .filter(|&c| usize::from(self.cards.kind[c as usize]) == t)
            .nth(copy)
    }
}

impl<'g> Scenario<'g> {
    /// An empty table of `game` with seat 0 to play and every seat on its
    /// starting rung (the Wolf on rung 2).
    pub fn new(game: &'g Karmaka) -> Self {
        Scenario {
            game,
            state: game.empty_state(0),
            placed: [false; NCARDS],
            reveals: Vec::new(),
            rest_to: None,
            error: None,
        }
    }

    /// The seat whose turn starts.
    pub fn active(mut self, seat: u8) -> Self {
        if self.seat_ok(seat) {
            self.state.active = seat;
        }
        self
    }

    /// Cards in `seat`'s Hand.
    pub fn hand(mut self, seat: u8, cards: &[u8]) -> Self {
        if self.seat_ok(seat) {
            for &c in cards {
                if self.place(c, bit(seat)) {
                    insert_sorted(&mut self.state.hands[seat as usize], c);
                }
            }
        }
        self
    }

    /// Cards in `seat`'s Deck, bottom first (the last one is drawn first).
    pub fn deck(mut self, seat: u8, cards: &[u8]) -> Self {
        if self.seat_ok(seat) {
            for &c in cards {
                if self.place(c, 0) {
                    self.state.decks[seat as usize].push(c);
                }
            }
        }
        self
    }

    /// Cards in `seat`'s Future Life, bottom first.
    pub fn future(mut self, seat: u8, cards: &[u8]) -> Self {
        if self.seat_ok(seat) {
            for &c in cards {
                if self.place(c, bit(seat)) {
                    self.state.futures[seat as usize].push(c);
                }
            }
        }
        self
    }

    /// Cards in `seat`'s Deeds, oldest first (the last one is exposed).
    pub fn deeds(mut self, seat: u8, cards: &[u8]) -> Self {
        if self.seat_ok(seat) {
            for &c in cards {
                if self.place(c, ALL) {
                    self.state.deeds[seat as usize].push(c);
                }
            }
        }
        self
    }

    /// Cards in the Ruins, bottom first (the last one is the top).
    pub fn ruins(mut self, cards: &[u8]) -> Self {
        for &c in cards {
            if self.place(c, ALL) {
                self.state.ruins.push(c);
            }
        }
        self
    }

    /// Cards on top of the Well in a known order (at most 3), the last one
    /// taken first; the rest of the Well is an unordered pool.
    pub fn well_top(mut self, cards: &[u8]) -> Self {
        for &c in cards {
            if self.state.well_top.is_full() {
                self.fail(format!(
                    "more than {} Well top cards",
                    self.state.well_top.capacity()
                ));
                break;
            }
            if self.place(c, 0) {
                self.state.well_top.push(c);
            }
        }
        self
    }

    /// `seat`'s rung on the Karmic Ladder, 0 (Beetle) to 3.
    pub fn level(mut self, seat: u8, rung: u8) -> Self {
        if rung >= TRANSCENDED {
            self.fail(format!(
                "rung {rung} for seat {seat}: a game in play has rungs 0 to 3"
            ));
        } else if self.seat_ok(seat) {
            self.state.level[seat as usize] = rung;
        }
        self
    }

    /// `seat`'s karmic rings.
    pub fn rings(mut self, seat: u8, rings: u16) -> Self {
        if self.seat_ok(seat) {
            self.state.rings[seat as usize] = rings;
        }
        self
    }

    /// `observer` also knows where `card` is (it peeked at that Hand, saw
    /// the card with Destiny…). The card must be placed by this builder.
    pub fn reveal(mut self, card: u8, observer: u8) -> Self {
        if self.seat_ok(observer) {
            self.reveals.push((card, bit(observer)));
        }
        self
    }

    /// Every player knows where `card` is: a karmic card accepted into a
    /// Future Life (its identity stays public, spec §4.7), a card taken with
    /// Thievery. The card must be placed by this builder.
    ///
    /// ```
    /// use boardlab::games::karmaka::{Karmaka, Scenario, state::ALL};
    ///
    /// let g = Karmaka::parse("karmaka").unwrap();
    /// let ven = g.card("VEN", 0).unwrap();
    /// let s = Scenario::new(&g)
    ///     .hand(0, &[g.card("PAN", 0).unwrap()])
    ///     .future(1, &[ven])
    ///     .public(ven)
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(s.known[ven as usize], ALL);
    /// ```
    pub fn public(mut self, card: u8) -> Self {
        self.reveals.push((card, ALL));
        self
    }

    /// Every card not placed by this builder goes face down into `seat`'s
    /// Deck, under the cards [`Scenario::deck`] put there (by id, the largest
    /// uppermost), instead of into the Well pool, so the
    /// Well holds only the [`Scenario::well_top`] cards: an empty or short
    /// Well, as for a refill from the Ruins (spec §4.11).
    ///
    /// ```
    /// use boardlab::games::karmaka::{Karmaka, Scenario};
    ///
    /// let g = Karmaka::parse("karmaka").unwrap();
    /// let ano = g.card("ANO", 0).unwrap();
    /// let s = Scenario::new(&g)
    ///     .hand(0, &[ano])
    ///     .well_top(&[g.card("VOY", 0).unwrap()])
    ///     .unplaced_to_deck(1)
    ///     .build()
    ///     .unwrap();
    /// assert!(s.well.is_empty());
    /// assert_eq!(s.well_top.len(), 1);
    /// assert_eq!(s.decks[1].len(), 62);
    /// ```
    pub fn unplaced_to_deck(mut self, seat: u8) -> Self {
        if self.seat_ok(seat) {
            self.rest_to = Some(seat);
        }
        self
    }

    /// The position: unplaced cards go to the Well pool (or the Deck named
    /// by [`Scenario::unplaced_to_deck`]), the active seat's turn starts, and
    /// the invariants are checked. `Err` names the first
    /// problem (a card placed twice, a seat not in the game…).
    pub fn build(mut self) -> Result<State, String> {
        for &(c, mask) in &self.reveals {
            if usize::from(c) >= NCARDS || !self.placed[c as usize] {
                return Err(format!("card {c} is revealed but not placed"));
            }
            self.state.known[c as usize] |= mask;
        }
        if let Some(e) = self.error {
            return Err(e);
        }
        let g = self.game;
        let mut s = self.state;
        let rest = (0..NCARDS as u8).filter(|&c| !self.placed[c as usize]);
        match self.rest_to {
            Some(p) => {
                let deck = &mut s.decks[p as usize];
                let top = core::mem::take(deck);
                deck.extend(rest.chain(top));
            }
            None => s.well = rest.collect(),
        }
        g.start_turn(&mut s);
        g.advance(&mut s);
        s.steps = 0;
        g.check_invariants(&s)?;
        Ok(s)
    }

    fn fail(&mut self, e: String) {
        self.error.get_or_insert(e);
    }

    fn seat_ok(&mut self, seat: u8) -> bool {
        let ok = seat < self.game.players;
        if !ok {
            let n = self.game.players;
            self.fail(format!("seat {seat} is not in this {n}-player game"));
        }
        ok
    }

    /// Marks `c` placed with knowledge `known`; false (and an error) if it
    /// is not a card id or was placed already.
    fn place(&mut self, c: u8, known: u8) -> bool {
        if usize::from(c) >= NCARDS {
            self.fail(format!(
                "card {c} does not exist (ids are 0 to {})",
                NCARDS - 1
            ));
            return false;
        }
        if self.placed[c as usize] {
            self.fail(format!("card {c} is placed twice"));
            return false;
        }
        self.placed[c as usize] = true;
        self.state.known[c as usize] = known;
        true
    }
}
