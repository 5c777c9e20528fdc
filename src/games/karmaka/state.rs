//! The game state (plain fixed-size data), its decision phases and the actions.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;

use super::cards::{MAX_TYPES, NCARDS};

/// Most seats of any configuration.
pub const MAXP: usize = 4;
/// An ordered pile of card instance ids, bottom first (the last is the top).
pub type Pile = ArrayVec<u8, NCARDS>;
/// Placeholder for a card the observer does not know (only in views).
pub const NONE: u8 = 255;
/// Knowledge mask meaning "every player".
pub const ALL: u8 = 0b1111;
/// Points needed at death to climb from each rung (spec §2.3).
pub const THRESHOLD: [u32; 4] = [4, 5, 6, 7];
/// The Transcendence rung.
pub const TRANSCENDED: u8 = 4;

/// Where a card taken from the Well goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dest {
    /// Into this player's Hand (the player sees it).
    Hand(u8),
    /// Face down onto this player's Deck (nobody sees it).
    Deck(u8),
    /// Aside, seen by the active player only (Destiny).
    Aside,
}

/// What follows a series of Well takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Then {
    /// The ability is done: karmic offer next.
    Finish,
    /// Sowing: place cards on the Future Life.
    SowPlace,
    /// Roulette: this many more draws may be asked for.
    RouletteDraw(u8),
    /// Destiny: place the looked-at cards.
    DestinyPlace,
    /// Rebirth done: the turn ends.
    EndTurn,
}

/// The pending step. Decisions name their owner implicitly (the active
/// player unless a `victim` or offer recipient is stored).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// T2: the active player's main play.
    Main,
    /// A bonus play (or Stop).
    Bonus,
    /// The actor chooses the target of the ability of this card type.
    Target(u8),
    /// Mimic: the actor chooses whose exposed Deed to copy.
    MimicSource,
    /// Denial: the actor picks a Hand card to ruin and copy.
    DenialPick,
    /// Embody: the actor picks one of their Deeds (by type) to copy.
    EmbodyPick,
    /// Dwindle: the victim picks a card of their own Hand to ruin.
    DwindlePick(u8),
    /// Crisis: the victim picks one of their Deeds (position) to ruin.
    CrisisPick(u8),
    /// Roulette: ruin another Hand card (k ruined so far) or Stop.
    RouletteRuin(u8),
    /// Roulette: draw (this many left) or Stop.
    RouletteDraw(u8),
    /// Transmigrate: pick a Future Life position.
    TransPick,
    /// Destiny: place a looked-at card (this many placed) or Stop.
    DestinyPlace(u8),
    /// Destiny: choose the next card to put back on the Well.
    DestinyReturn,
    /// Swindle: take one of the shown cards from this victim.
    SwindleTake(u8),
    /// Recycle (true: to the Future Life) or Salvage (false: to the Hand).
    RuinPick(bool),
    /// Sowing: place a Hand card on the Future Life (this many left).
    SowPlace(u8),
    /// Jubilee: move a Hand card to the Deeds (this many left) or Stop.
    JubileePick(u8),
    /// Karmic offer to this player; `true` when only they are asked.
    Offer(u8, bool),
    /// Chance: take cards from the Well pool.
    Drawing(Dest, u8, Then),
    /// Chance: Spite picks a random card of this victim's Hand (count left).
    SpiteChance(u8, u8),
    /// Chance: Swindle shows a random card of this victim's Hand (count left).
    SwindleChance(u8, u8),
    /// The game is over.
    Over,
}

/// Full game state. Card instance ids are `0..64`; every id is in exactly one
/// place: a Hand, Deck, Future Life, Deeds, the Ruins, the Well (pool or known
/// top), the center or aside.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// Hands, each kept sorted by id (a Hand is unordered).
    pub hands: [Pile; MAXP],
    /// Personal Decks (top last).
    pub decks: [Pile; MAXP],
    /// Future Lives (top last).
    pub futures: [Pile; MAXP],
    /// Deeds (exposed Deed last).
    pub deeds: [Pile; MAXP],
    /// The Ruins (top last).
    pub ruins: Pile,
    /// The unordered part of the Well, kept sorted; draws from it are chance.
    pub well: Pile,
    /// Cards put back on top of the Well in a chosen order (Destiny), top last.
    pub well_top: ArrayVec<u8, 3>,
    /// Cards aside: looked at with Destiny or shown by Swindle.
    pub aside: ArrayVec<u8, 3>,
    /// The card played for its ability, while it resolves; `NONE` if none.
    pub center: u8,
    /// Bit p set: player p knows this card's current place (spec §5.2).
    #[serde(with = "BigArray")]
    pub known: [u8; NCARDS],
    /// Ladder rung per seat (0 Beetle .. 4 Transcendence).
    pub level: [u8; MAXP],
    /// Karmic rings per seat.
    pub rings: [u16; MAXP],
    /// Whose turn it is (the actor of every ability).
    pub active: u8,
    /// The pending step.
    pub phase: Phase,
    /// Chain flags of the ability being resolved: 1 = Embody used, 2 = Mimic used.
    pub chain: u8,
    /// The card type whose ability is resolving (decides the bonus).
    pub resolving: u8,
    /// Victim of the last ability executed, `NONE` if none.
    pub victim: u8,
    /// Whether the ability being resolved had any effect (for the bonus switch).
    pub effect: bool,
    /// A bonus play is pending once the karmic offer is settled.
    pub bonus: bool,
    /// Whether the active player drew from their Deck this turn.
    pub drew: bool,
    /// Seat that transcended, `NONE` if none.
    pub winner: u8,
    /// Main plays plus Limbo turns so far (the draw cap counts these).
    pub plies: u32,
    /// Actions applied so far (a hard stop for the game length).
    pub steps: u32,
    /// History counted for reports (see `Reporting::metrics` and [`Tally`]).
    pub tally: Tally,
}

/// Play modes as counted in [`Tally::played`], in this order.
pub const MODES: [&str; 4] = ["points", "ability", "future", "ally_future"];

/// Per-seat counters of the game so far, for research metrics read from the
/// true state. Every counted event is public except the card type of a play
/// face down (modes C and D): an observer's view keeps the per-type counts of
/// those only for the player and, in mode D, the receiving ally (see
/// `Karmaka::view`), so they never enter another seat's info key or
/// determinization; how many cards each seat played face down is public and
/// in every view ([`Tally::face_down`]). Counts saturate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tally {
    /// Main and bonus plays by seat, card type and mode (index in [`MODES`]).
    pub played: [[[u16; 4]; MAX_TYPES]; MAXP],
    /// Face-down plays by seat: to the own Future Life (mode C), to the
    /// ally's (mode D). Everyone sees a card go face down, not its type.
    pub face_down: [[u16; 2]; MAXP],
    /// Bonus plays granted (the bonus phase was reached).
    pub bonus_granted: [u16; MAXP],
    /// Cards played in a bonus phase.
    pub bonus_plays: [u16; MAXP],
    /// Abilities copied through Denial, Embody or Mimic.
    pub copies: [u16; MAXP],
    /// Limbo turns: lives ended (the transcending one included).
    pub deaths: [u16; MAXP],
    /// Limbo turns that climbed a rung.
    pub climbs: [u16; MAXP],
    /// Karmic rings gained (failed climbs).
    pub rings_gained: [u16; MAXP],
    /// Karmic rings spent to climb.
    pub rings_spent: [u16; MAXP],
}

/// One atomic decision or chance outcome. Cards in a Hand, aside or Deeds
/// are named by type: copies of one type are interchangeable, and this keeps
/// the lists short (which copy moves: `Karmaka::take_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Play a card of this type to your Deeds.
    Points(u8),
    /// Play a card of this type for its ability.
    Ability(u8),
    /// Play a card of this type face down to your Future Life.
    Future(u8),
    /// Play a card of this type face down to your ally's Future Life (mode D).
    AllyFuture(u8),
    /// End the turn without playing (only while your Deck has cards).
    Pass,
    /// Decline an optional step (bonus play, Roulette, Destiny, Jubilee).
    Stop,
    /// Choose this player (target, or Mimic source).
    Target(u8),
    /// Pick a card of this type (Hand, aside or own Deeds, by phase).
    Pick(u8),
    /// Pick the Deed at this position (0 = oldest).
    Deed(u8),
    /// Pick the Future Life card at this position (0 = bottom).
    Position(u8),
    /// Pick the Ruins card at this depth (0 = top).
    Ruin(u8),
    /// Roulette: draw one more card.
    Draw,
    /// Accept the offered card into your Future Life.
    Accept,
    /// Decline the offered card.
    Decline,
    /// Chance: a card of this type is taken.
    Chance(u8),
}

/// Sorts a pile of card ids as `sort_unstable` does, through a bit set
/// when the ids are distinct and below 64 (physical cards always are), the
/// way a determinization's hands and Well are re-sorted many times a search.
#[inline]
pub fn sort_cards(pile: &mut [u8]) {
    let mut set = 0u64;
    for &c in pile.iter() {
        if c >= 64 {
            pile.sort_unstable();
            return;
        }
        set |= 1 << c;
    }
    if set.count_ones() as usize != pile.len() {
        pile.sort_unstable();
        return;
    }
    for slot in pile.iter_mut() {
        *slot = set.trailing_zeros() as u8;
        set &= set - 1;
    }
}

/// Inserts `card` into a sorted pile.
pub fn insert_sorted(pile: &mut Pile, card: u8) {
    let at = pile.iter().position(|&c| c > card).unwrap_or(pile.len());
    pile.insert(at, card);
}

/// Bit of one player.
pub fn bit(p: u8) -> u8 {
    1 << p
}
