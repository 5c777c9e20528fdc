//! The plain-data game state and the action type.
//!
//! Everything is fixed-size (a 31 × 31 grid, 16 characters, 16 encounters,
//! four players) so cloning never allocates.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;

/// Largest supported board half-size `H`.
pub const HMAX: i32 = 15;
/// Grid width (cells per row).
pub const W: i32 = 2 * HMAX + 1;
/// Number of grid cells.
pub const NCELLS: usize = (W * W) as usize;
/// "No player / character / card" marker.
pub const NONE: u8 = 255;
/// "No cell" marker.
pub const NO_CELL: u16 = u16::MAX;
/// Most seats.
pub const MAXP: usize = 4;

/// One grid cell: a board tile and/or an encounter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell {
    /// Board tile type + 1, or 0 when empty.
    pub tile: u8,
    /// Clockwise quarter turns.
    pub rot: u8,
    /// Encounter index + 1, or 0.
    pub enc: u8,
    /// Seat + 1 of the player who laid a stair, or 0.
    pub placer: u8,
    /// An exit stair.
    pub exit: bool,
}

/// One character (indexed like the component table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ch {
    /// Drafting seat, or `NONE`.
    pub owner: u8,
    /// Current cell, or `NO_CELL`.
    pub cell: u16,
    /// Still in play.
    pub alive: bool,
    /// Damage this turn.
    pub dmg: u8,
    /// Movement points left.
    pub mp: u8,
    /// Movement over (entered an encounter, overtook).
    pub stopped: bool,
    /// Has stepped this turn (movement equipment must come first).
    pub moved: bool,
    /// Tile it came from onto an encounter, or `NO_CELL`.
    pub came_from: u16,
    /// Active equipment index, or `NONE`.
    pub active: u8,
}

impl Default for Ch {
    fn default() -> Self {
        Ch {
            owner: NONE,
            cell: NO_CELL,
            alive: false,
            dmg: 0,
            mp: 0,
            stopped: false,
            moved: false,
            came_from: NO_CELL,
            active: NONE,
        }
    }
}

/// One monster or trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Foe {
    /// Its cell on the board, or `NO_CELL` (pile, hand or defeated).
    pub cell: u16,
    /// Damage this turn.
    pub dmg: u8,
    /// Already moved in this monster phase (rule 2).
    pub moved: bool,
}

impl Default for Foe {
    fn default() -> Self {
        Foe {
            cell: NO_CELL,
            dmg: 0,
            moved: false,
        }
    }
}

/// Per-seat data.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pl {
    /// Hidden hand of card kinds, sorted (up to 12 during a general trade).
    pub hand: ArrayVec<u8, 12>,
    /// Face-down equipment indices on the table, sorted (hidden identities).
    pub table: ArrayVec<u8, 8>,
    /// Entrance cell, or `NO_CELL` before the entrance choice.
    pub entrance: u16,
    /// Hand-limit discards by card kind (known only to this player).
    #[serde(with = "BigArray")]
    pub discarded: [u8; 64],
    /// Number of hand-limit discards (public).
    pub ndisc: u16,
}

impl Default for Pl {
    fn default() -> Self {
        Pl {
            hand: ArrayVec::new(),
            table: ArrayVec::new(),
            entrance: NO_CELL,
            discarded: [0; 64],
            ndisc: 0,
        }
    }
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Setup step 2: rolling 4D4 for the most 4s (chance).
    FirstRoll,
    /// Setup step 4: the character draft.
    Draft,
    /// Setup step 5: choosing entrances.
    Entrance,
    /// T1: drawing one card (chance), repeated.
    Draw,
    /// T1b: the active player may propose a trade.
    Trade,
    /// T1b (`general`): the active player sets cards aside and names a count.
    TradeBuild,
    /// T1b: the partner answers a proposal.
    TradeReply,
    /// T1b (`general`): a player above the hand limit discards.
    TradeDiscard,
    /// T2: movement.
    Move,
    /// T2: choosing which characters on the start cell join an overtake.
    OvertakeGroup,
    /// T3: choose a card to lay, a scroll, or end.
    Place,
    /// T3: choose the cell for the selected card.
    PlaceCell,
    /// T3: choose the rotation for the selected tile.
    PlaceRot,
    /// T3: the placement penalty's random card (chance).
    Penalty,
    /// T4: choose the next combat site.
    Site,
    /// T4 (or an ambush): a fight is running; see [`Combat`].
    Fight,
    /// T5: play equipment face down.
    Equip,
    /// Rule 2: the monster phase, one player picks a monster or passes.
    Monsters,
    /// Rule 2: the moved monster may take its second step.
    MonsterStep2,
    /// The game is over.
    Over,
}

/// Step of a combat round (spec §4.7, §4.12.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    /// a: the fighter assigns equipment.
    Assign,
    /// PvP: the defending player assigns equipment.
    QAssign,
    /// b: the fighter picks F or I.
    Stat,
    /// PvP: the fighter picks the defender hit.
    TargetDef,
    /// PvP: the defending player picks the attacker hit.
    TargetAtt,
    /// c: the attack roll (chance).
    AttackRoll,
    /// d: the controller picks the counter stat (and defender).
    Counter,
    /// d with `defender_chooser = owner`: the fighter picks the defender.
    CounterDef,
    /// e: the counter roll (chance).
    CounterRoll,
    /// PvP: the defenders' simultaneous roll (chance).
    PvpRoll,
    /// g: continue or retreat.
    Decide,
}

/// A running fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Combat {
    /// Combat cell.
    pub cell: u16,
    /// The encounter, or `NONE` in a character fight.
    pub foe: u8,
    /// Defending seat in a character fight, or `NONE`.
    pub opp: u8,
    /// The seat whose characters fight ("P").
    pub fighter: u8,
    /// The seat running the encounter.
    pub controller: u8,
    /// Current step.
    pub stage: Stage,
    /// Attack stat this round (0 F, 1 I).
    pub stat: u8,
    /// Counter stat this round.
    pub counter: u8,
    /// Defending character hit this round (monster fight or PvP defender side).
    pub target: u8,
    /// PvP: attacking character hit by the defenders.
    pub target_att: u8,
    /// PvP: successes of the attack roll, applied with the defenders' roll.
    pub pending: u8,
    /// Rounds fought.
    pub rounds: u8,
    /// A rule-2 ambush (retreat excludes no tile).
    pub ambush: bool,
}

/// The whole game state.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// The grid, row-major from (−HMAX, −HMAX).
    #[serde(with = "BigArray")]
    pub cells: [Cell; NCELLS],
    /// Characters by component index.
    pub chars: [Ch; 16],
    /// Encounters by component index.
    pub foes: [Foe; 16],
    /// Seats.
    pub players: [Pl; MAXP],
    /// Copies of each card kind in the pile (the order is uniform, so a multiset suffices).
    #[serde(with = "BigArray")]
    pub pile: [u8; 64],
    /// Cards in the pile.
    pub pile_len: u16,
    /// Cards publicly out of the game, by kind (defeated, destroyed, used).
    #[serde(with = "BigArray")]
    pub gone: [u8; 64],
    /// Current phase.
    pub phase: Phase,
    /// Active seat.
    pub seat: u8,
    /// First Player.
    pub first: u8,
    /// Round number (1-based).
    pub round: u16,
    /// The game ends with this round.
    pub final_round: bool,
    /// Monster-controller pointer.
    pub ctrl_ptr: u8,
    /// Tiles and encounters laid this turn.
    pub placed: u8,
    /// Encounters laid this turn.
    pub enc_placed: u8,
    /// Foreign tiles laid this turn.
    pub foreign: u8,
    /// Equipment played this turn.
    pub equip_played: u8,
    /// Partners already asked this turn (bit per seat).
    pub asked: u8,
    /// Card selected for placement (public once selected), or `NONE`.
    pub sel_card: u8,
    /// Cell chosen for the selected tile.
    pub sel_cell: u16,
    /// Trade proposal: (partner, card), seen only by the two players.
    pub offer: Option<(u8, u8)>,
    /// General trade: the partner, or `NONE`.
    pub trade_to: u8,
    /// General trade: cards the active player gives (seen by both partners).
    pub give: ArrayVec<u8, 12>,
    /// General trade: cards the partner has picked to give back.
    pub back: ArrayVec<u8, 12>,
    /// General trade: number of cards asked for, `NONE` while building.
    pub ask: u8,
    /// Something was laid this round (rule 3 stalemate check).
    pub placed_round: bool,
    /// The pile has been empty at least once (rule 3).
    pub pile_was_empty: bool,
    /// First-player roll: seats still in contention (bit mask).
    pub roll_tied: u8,
    /// First-player roll: number of 4s of each seat this roll.
    pub roll_fours: [u8; MAXP],
    /// First-player roll: seats that have rolled this roll (bit mask).
    pub roll_done: u8,
    /// Picks made in the draft / entrance choice.
    pub picks: u8,
    /// The running fight, if any.
    pub combat: Option<Combat>,
    /// Sites already fought this turn (a capped fight is not restarted).
    pub fought: ArrayVec<u16, 16>,
    /// Rule 2: seat to pick next.
    pub mon_actor: u8,
    /// Rule 2: consecutive passes.
    pub mon_passes: u8,
    /// Rule 2: the monster taking its move.
    pub mon_foe: u8,
    /// Cells holding a stair (for passages and scoring).
    pub stairs: ArrayVec<u16, 32>,
    /// Overtake in progress: (start, blocked, landing) cells.
    pub ot: Option<(u16, u16, u16)>,
    /// Overtake: characters chosen so far (bit per character).
    pub ot_group: u16,
    /// Overtake: the next character index to decide on.
    pub ot_next: u8,
    /// `dice=each`: dice of the current roll already rolled.
    pub dice_rolled: u8,
    /// `dice=each`: successes among them.
    pub dice_succ: u8,
    /// Public history counted for reports (see `Reporting::metrics`).
    pub tally: Tally,
    /// Cards each seat saw go into another seat's hand (spec §5.4 item 4).
    pub known: Known,
}

/// For each observer o and seat q, the cards (by kind) o saw go into q's
/// hand in a trade and has not seen leave since. A card leaving q's hand
/// unseen by o (a face-down play, a discard, the penalty, a trade with
/// someone else) makes o lose track of that hand, so every count stays at
/// most the number of such cards q really holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Known(#[serde(with = "BigArray")] pub [u8; MAXP * MAXP * 64]);

impl Default for Known {
    fn default() -> Self {
        Known([0; MAXP * MAXP * 64])
    }
}

impl Known {
    fn row(o: u8, q: u8) -> usize {
        (usize::from(o) * MAXP + usize::from(q)) * 64
    }
    /// The kind counts o knows to be in q's hand.
    pub fn of(&self, o: u8, q: u8) -> &[u8; 64] {
        let r = Self::row(o, q);
        self.0[r..r + 64].try_into().expect("a row of 64 kinds")
    }
    /// The kind counts o knows to be in q's hand, to change.
    pub fn of_mut(&mut self, o: u8, q: u8) -> &mut [u8; 64] {
        let r = Self::row(o, q);
        (&mut self.0[r..r + 64])
            .try_into()
            .expect("a row of 64 kinds")
    }
    /// o saw card kind `k` go into q's hand.
    pub fn enters(&mut self, o: u8, q: u8, k: u8) {
        let n = &mut self.of_mut(o, q)[k as usize];
        *n = n.saturating_add(1);
    }
    /// o saw card kind `k` leave q's hand.
    pub fn leaves(&mut self, o: u8, q: u8, k: u8) {
        let n = &mut self.of_mut(o, q)[k as usize];
        *n = n.saturating_sub(1);
    }
    /// o no longer knows any card of q's hand.
    pub fn forget(&mut self, o: u8, q: u8) {
        *self.of_mut(o, q) = [0; 64];
    }
}

/// Per-seat counters of the game so far. Everything counted is public (a
/// face-down equipment play is seen, its identity is not counted), so they
/// are part of the info key and kept by determinization. Counts saturate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tally {
    /// Board tiles laid.
    pub tiles: [u16; MAXP],
    /// Stair tiles laid.
    pub stairs: [u16; MAXP],
    /// Stair tiles laid as exits (far enough from the layer's entrance).
    pub exits: [u16; MAXP],
    /// Encounters (monsters and traps) laid.
    pub encounters: [u16; MAXP],
    /// Fights fought by the seat's characters, as fighter, PvP defender or ambushed.
    pub combats: [u16; MAXP],
    /// Fights won: the encounter or every enemy character defeated.
    pub won: [u16; MAXP],
    /// Fights lost: every one of the seat's characters there killed.
    pub lost: [u16; MAXP],
    /// Retreats from a fight.
    pub retreats: [u16; MAXP],
    /// Monsters defeated.
    pub monsters: [u16; MAXP],
    /// Traps defeated (resolved).
    pub traps: [u16; MAXP],
    /// Characters of the seat killed.
    pub deaths: [u16; MAXP],
    /// Equipment played face down at T5.
    pub equip_played: [u16; MAXP],
    /// Equipment activated on a character (for movement or in a fight).
    pub equip_activated: [u16; MAXP],
    /// Scrolls used to destroy a tile.
    pub scrolls: [u16; MAXP],
    /// Trades the seat proposed that were accepted (whether a trade happened
    /// is public, spec §5.1; which cards moved is not).
    pub trades: [u16; MAXP],
}

/// Adds one to a saturating per-seat counter.
pub fn bump(counts: &mut [u16; MAXP], seat: u8) {
    let n = &mut counts[seat as usize];
    *n = n.saturating_add(1);
}

/// One decision or chance outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Chance: a number of successes (or of 4s in the first-player roll).
    Roll(u8),
    /// Chance (`dice=each`): the face of one d4.
    Die(u8),
    /// Chance: a card kind drawn from the pile.
    Draw(u8),
    /// Chance: the card kind the left neighbour takes from the hand (penalty).
    Lose(u8),
    /// Draft a character.
    Draft(u8),
    /// Take an entrance (index in the layout's entrance list).
    Entrance(u8),
    /// Offer one card to a partner for one of theirs.
    Propose {
        /// Partner seat.
        to: u8,
        /// Card kind offered.
        card: u8,
    },
    /// Accept, giving this card kind.
    Accept(u8),
    /// Decline the proposal.
    Reject,
    /// Close the trade window.
    EndTrade,
    /// `general`: start a proposal to a partner.
    OpenTrade(u8),
    /// `general`: set a card aside for the partner.
    Give(u8),
    /// `general`: ask for this many cards and send the proposal.
    Ask(u8),
    /// `general`: accept with the picked cards.
    Agree,
    /// Hand limit: discard a card face down.
    Discard(u8),
    /// Activate face-down movement equipment on a character.
    AssignMove {
        /// Equipment index.
        equip: u8,
        /// Character index.
        ch: u8,
    },
    /// Move a character one step.
    Step {
        /// Character index.
        ch: u8,
        /// Destination cell.
        to: u16,
    },
    /// Pass other players' characters with every able character on `from`.
    Overtake {
        /// Start cell.
        from: u16,
        /// Blocked cell.
        via: u16,
        /// Landing cell.
        to: u16,
    },
    /// Overtake: the character under decision joins (true) or stays (false).
    Join(bool),
    /// End movement.
    EndMove,
    /// Pick a card from the hand to lay.
    Select(u8),
    /// Lay the selected card at a cell (an encounter is laid at once).
    At(u16),
    /// Lay the selected tile with this rotation (quarter turns).
    Rotate(u8),
    /// Destroy a tile with a scroll.
    Scroll {
        /// Scroll equipment index.
        equip: u8,
        /// Target cell.
        at: u16,
    },
    /// End placement.
    EndPlace,
    /// Fight at this site next.
    Site(u16),
    /// Activate face-down equipment on a fighting character.
    AssignCombat {
        /// Equipment index.
        equip: u8,
        /// Character index.
        ch: u8,
    },
    /// Done assigning equipment.
    DoneAssign,
    /// Attack with F (0) or I (1).
    Attack(u8),
    /// The controller's counterattack: stat and defending character (`NONE`: the owner picks).
    Counter {
        /// Stat.
        stat: u8,
        /// Defending character or `NONE`.
        ch: u8,
    },
    /// Pick a character as the one hit (defender or PvP target).
    Target(u8),
    /// Keep fighting.
    Continue,
    /// Retreat to a cell.
    Retreat(u16),
    /// Play equipment face down.
    PlayEquip(u8),
    /// Play no equipment.
    SkipEquip,
    /// Rule 2: move a monster one step.
    MonsterStep {
        /// Encounter index.
        foe: u8,
        /// Destination.
        to: u16,
    },
    /// Rule 2: stop the moving monster after one step.
    MonsterStop,
    /// Rule 2: move no monster.
    Pass,
}

/// Cell index of (x, y).
pub fn cell_of(x: i32, y: i32) -> u16 {
    ((y + HMAX) * W + (x + HMAX)) as u16
}

/// (x, y) of a cell index.
pub fn xy(c: u16) -> (i32, i32) {
    let c = i32::from(c);
    (c % W - HMAX, c / W - HMAX)
}
