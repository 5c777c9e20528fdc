//! The game state (plain fixed-size data), the pending-decision phases and the
//! atomic actions. Board data stays in the game value; the state holds only
//! what changes.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;

use super::data::{MAX_MISSIONS, MAX_TILES, NO_SQ};

/// Event bits recorded for the active side since the last checkpoint (spec 4.5.5).
pub mod ev {
    /// A character of the side won a combat as the attacker.
    pub const WIN: u16 = 1;
    /// It defeated an enemy.
    pub const DEFEAT: u16 = 2;
    /// It stole a tile.
    pub const STEAL: u16 = 4;
    /// It pushed a defender 3+ squares after winning.
    pub const PUSH3: u16 = 8;
    /// It gained an ability point from its level boxes.
    pub const LEVEL_UP: u16 = 16;
    /// It equipped a ring with the Equip action.
    pub const EQUIP_RING: u16 = 32;
    /// It played a potion pair.
    pub const POTIONS: u16 = 64;
    /// It played a tome pair.
    pub const TOMES: u16 = 128;
    /// It teleported.
    pub const TELEPORT: u16 = 256;
    /// It eliminated a Skeletor.
    pub const SKELETOR: u16 = 512;
    /// It won as the attacker with 5+ adrenaline.
    pub const WIN_A5: u16 = 1024;
}

/// Action-type bits for the no-repeat rule.
pub mod act {
    /// MOVE.
    pub const MOVE: u8 = 1;
    /// EQUIP.
    pub const EQUIP: u8 = 2;
    /// GIVE_TRADE.
    pub const GIVE: u8 = 4;
    /// ATTACK.
    pub const ATTACK: u8 = 8;
    /// TELEPORT.
    pub const TELEPORT: u8 = 16;
    /// PORTAL.
    pub const PORTAL: u8 = 32;
}

/// Where an item tile is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Loc {
    /// Face up in the supply.
    #[default]
    Supply,
    /// Active in the slot of this character's cell.
    Slot(u8),
    /// Equipped on this character's sheet.
    Sheet(u8),
    /// A Skeletor on the board at this anchor.
    Board(u16),
}

/// One character sheet and pawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ch {
    /// Assigned to a side at setup.
    pub in_play: bool,
    /// Controlling seat.
    pub seat: u8,
    /// Side.
    pub side: u8,
    /// Square when on board, else `NO_SQ`.
    pub pos: u16,
    /// Prison timer box 1..5, 0 when not imprisoned.
    pub prison: u8,
    /// The cell (character index) it is held in.
    pub prison_cell: u8,
    /// Life 0..5.
    pub life: u8,
    /// Level points 0..2.
    pub level: u8,
    /// Ability markers per stat (ATT, DEF, MOV).
    pub abil: [u8; 3],
    /// Action types used this turn (bits of [`act`]).
    pub used: u8,
}

impl Ch {
    /// In play and not imprisoned.
    pub fn on_board(&self) -> bool {
        self.in_play && self.prison == 0
    }
}

/// A mission card in a pile: its id and whether everyone knows it is there
/// (drawn from the revealed bottom of the deck).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    /// Mission index.
    pub id: u8,
    /// Publicly known.
    pub public: bool,
}

/// What to do when a walk ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum After {
    /// FREE_STEP during the event phase: continue with EP4.
    EventPhase,
    /// An action (move or combat aftermath): checkpoint, then the action phase.
    ActionDone,
}

/// A character walking its canonical path, possibly waiting for a Skeletor test.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Walk {
    /// The walker.
    pub ch: u8,
    /// Directions (0 N, 1 E, 2 S, 3 W).
    pub path: ArrayVec<u8, 32>,
    /// Next step index.
    pub idx: u8,
    /// Continuation.
    pub after: Option<After>,
}

/// The combat in progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Combat {
    /// Attacker.
    pub att: u8,
    /// Defender.
    pub def: u8,
    /// Remaining adrenaline of the winner.
    pub adr: u8,
    /// Tied rolls so far (each tie is a reroll).
    pub rerolls: u8,
}

/// The pending step: whose decision or which chance event comes next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// S1: the controller places character `0`'s starting ability marker.
    SetupStat(u8),
    /// C1 / redraw: chance draws a mission for `draw_side`.
    Drawing,
    /// C2: chance picks the first player.
    FirstPlayer,
    /// EP1: chance rolls the event die.
    #[default]
    EventDie,
    /// D-Unlock: choose a cell holding own prisoners.
    Unlock,
    /// D-Wound: choose the target.
    Wound,
    /// D-Heal: choose the target.
    Heal,
    /// D-FreeStep: pass or choose a character.
    FreeStep,
    /// D-FreeStep: choose the destination of this character.
    FreeStepDest(u8),
    /// D-Summon: decline or an anchor for a Skeletor of this colour.
    Summon(u8),
    /// D-Activate: decline or (tile, cell).
    Activate,
    /// D-Action.
    Action,
    /// MOVE destination of this character.
    MoveDest(u8),
    /// GIVE_TRADE: the tile given (or none).
    GiveSel {
        /// Initiator.
        c: u8,
        /// Partner.
        p: u8,
    },
    /// GIVE_TRADE: the tile taken (or none).
    TakeSel {
        /// Initiator.
        c: u8,
        /// Partner.
        p: u8,
        /// Tile given, 255 for none.
        give: u8,
    },
    /// C-CombatRoll.
    CombatRoll,
    /// PLAY_POTIONS (`stat` None) or PLAY_TOMES (`stat` the row) with three or
    /// more halves on `c`'s sheet: the owner picks the two tiles played, the
    /// lower-numbered first (`first` None until then), so each pair is one path.
    PlayPair {
        /// The player character.
        c: u8,
        /// Stat row of a tome pair, None for potions.
        stat: Option<u8>,
        /// The first tile chosen.
        first: Option<u8>,
    },
    /// D-LevelUp.
    LevelUp,
    /// D-Steal.
    Steal,
    /// D-Push.
    Push,
    /// D-SelfMove.
    SelfMove,
    /// D-DefPush.
    DefPush,
    /// D-DefMove.
    DefMove,
    /// C-SkeletorTest for the current walk.
    SkelTest,
    /// The game is over.
    Over,
}

/// One atomic decision or chance outcome.
// Equality is structural, written by hand so that it inlines (duplicate checks
// compare long destination lists pairwise); the derived hash agrees with it.
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Clone, Copy, Debug, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Chance: the event die shows this face.
    Die(u8),
    /// Chance: attacker's 2d6 sum and defender's 2d6 sum.
    Roll {
        /// Attacker's dice total.
        att: u8,
        /// Defender's dice total.
        def: u8,
    },
    /// Chance: a Skeletor crossing test passes or fails.
    Test(bool),
    /// Chance: this mission card is drawn.
    Draw(u8),
    /// Chance: this seat wins the roll-off.
    First(u8),
    /// A stat row (0 ATT, 1 DEF, 2 MOV).
    Stat(u8),
    /// The cell of this character.
    Cell(u8),
    /// This character (event target, free-step mover).
    Char(u8),
    /// Decline / pass / none.
    Pass,
    /// A destination square.
    Dest(u16),
    /// A Skeletor anchor.
    Anchor(u16),
    /// Activate a supply tile into a cell.
    Activate {
        /// Tile index.
        tile: u8,
        /// Cell (character index).
        cell: u8,
    },
    /// MOVE with this character (destination next).
    Move(u8),
    /// EQUIP the active tile of this character's cell.
    Equip(u8),
    /// GIVE_TRADE between two side characters (tiles next).
    Give {
        /// Initiator.
        c: u8,
        /// Partner.
        p: u8,
    },
    /// ATTACK.
    Attack {
        /// Attacker.
        c: u8,
        /// Defender.
        d: u8,
    },
    /// TELEPORT.
    Teleport {
        /// Character.
        c: u8,
        /// Destination teleport square.
        to: u16,
    },
    /// PORTAL: win.
    Portal(u8),
    /// Free action: play two potions.
    Potions(u8),
    /// Free action: play two tomes into a stat.
    Tomes {
        /// Character.
        c: u8,
        /// Stat row.
        stat: u8,
    },
    /// Free action: team liberation at this cell.
    Liberate(u8),
    /// END_TURN.
    EndTurn,
    /// A tile (give, take, steal).
    Tile(u8),
    /// Push this many squares.
    Push(u8),
}

impl Action {
    /// The variant and its fields packed into one number, one-to-one.
    fn code(self) -> u32 {
        let (v, a, b): (u32, u16, u8) = match self {
            Action::Die(x) => (0, x.into(), 0),
            Action::Roll { att, def } => (1, att.into(), def),
            Action::Test(p) => (2, p.into(), 0),
            Action::Draw(x) => (3, x.into(), 0),
            Action::First(x) => (4, x.into(), 0),
            Action::Stat(x) => (5, x.into(), 0),
            Action::Cell(x) => (6, x.into(), 0),
            Action::Char(x) => (7, x.into(), 0),
            Action::Pass => (8, 0, 0),
            Action::Dest(sq) => (9, sq, 0),
            Action::Anchor(sq) => (10, sq, 0),
            Action::Activate { tile, cell } => (11, tile.into(), cell),
            Action::Move(c) => (12, c.into(), 0),
            Action::Equip(c) => (13, c.into(), 0),
            Action::Give { c, p } => (14, c.into(), p),
            Action::Attack { c, d } => (15, c.into(), d),
            Action::Teleport { c, to } => (16, to, c),
            Action::Portal(c) => (17, c.into(), 0),
            Action::Potions(c) => (18, c.into(), 0),
            Action::Tomes { c, stat } => (19, c.into(), stat),
            Action::Liberate(cell) => (20, cell.into(), 0),
            Action::EndTurn => (21, 0, 0),
            Action::Tile(t) => (22, t.into(), 0),
            Action::Push(p) => (23, p.into(), 0),
        };
        v << 24 | u32::from(b) << 16 | u32::from(a)
    }
}

impl PartialEq for Action {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        if std::mem::discriminant(self) != std::mem::discriminant(other) {
            return false;
        }
        match (self, other) {
            (Action::Dest(a), Action::Dest(b)) => a == b,
            _ => self.code() == other.code(),
        }
    }
}

/// Result marker: no result yet.
pub const NO_RESULT: u8 = 255;
/// Result marker: the turn cap was reached (draw).
pub const DRAW: u8 = 254;

/// The whole mutable state of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// Characters by index (MGa, MGb, GRa, GRb, GKa, GKb).
    pub ch: [Ch; 6],
    /// Location of every tile by index.
    #[serde(with = "BigArray")]
    pub tiles: [Loc; MAX_TILES],
    /// Skittle positions (blue, red; the shared skittle is index 0).
    pub skittle: [u8; 2],
    /// Permanent XP per side.
    pub xp: [u8; 6],
    /// Secret mission pile per side.
    pub piles: [ArrayVec<Card, 3>; 6],
    /// Cards in the unknown (top) part of the deck, as a bit set.
    pub deck_unknown: u32,
    /// Revealed cards under it, top to bottom.
    pub deck_known: ArrayVec<u8, MAX_MISSIONS>,
    /// DEF modifier per seat (E07/E11), until that seat's next turn.
    pub def_mod: [i8; 6],
    /// Active seat.
    pub seat: u8,
    /// First seat.
    pub first: u8,
    /// Round counter (1-based).
    pub round: u16,
    /// Actions left this turn.
    pub actions_left: u8,
    /// ATT modifier this turn.
    pub att_mod: i8,
    /// Movement modifier this turn.
    pub mov_mod: i8,
    /// Adrenaline bonus on attack wins this turn.
    pub adr_bonus: u8,
    /// Team liberation right this turn.
    pub liberation: bool,
    /// Event square landed on this turn.
    pub square: u8,
    /// Events of the active side since the last checkpoint (bits of [`ev`]).
    pub events: u16,
    /// Pending step.
    pub phase: Phase,
    /// Combat in progress.
    pub combat: Combat,
    /// Walk in progress.
    pub walk: Walk,
    /// Side that receives the pending draws.
    pub draw_side: u8,
    /// Draws still due.
    pub draws_left: u8,
    /// True while dealing at setup.
    pub setup: bool,
    /// Winning side, [`DRAW`], or [`NO_RESULT`].
    pub result: u8,
    /// Public history counted for reports (see `Reporting::metrics`).
    pub tally: Tally,
}

/// Counters of the game so far, per character (index as in [`State::ch`]) or
/// per seat. Everything counted is public, so they are part of the info key
/// and kept by determinization. Counts saturate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tally {
    /// Attacks made (per character).
    pub attacks: [u16; 6],
    /// Combats won, as attacker or defender (per character).
    pub fights_won: [u16; 6],
    /// Combats lost, as attacker or defender (per character).
    pub fights_lost: [u16; 6],
    /// Enemies defeated, i.e. sent to prison (per character).
    pub defeats: [u16; 6],
    /// Times sent to prison (per character).
    pub imprisoned: [u16; 6],
    /// Own turns begun in prison (per character).
    pub prison_turns: [u16; 6],
    /// Tiles equipped with the Equip action (per character).
    pub equipped: [u16; 6],
    /// Tiles stolen after a won attack (per character).
    pub stolen: [u16; 6],
    /// Skeletors eliminated by a passed crossing test (per character).
    pub skeletors_eliminated: [u16; 6],
    /// Missions completed at checkpoints of the seat's turns (per seat).
    pub missions: [u16; 6],
    /// Permanent XP scored by those missions (per seat).
    pub mission_xp: [u16; 6],
    /// Skeletors summoned (per seat).
    pub summoned: [u16; 6],
}

/// Adds one to a saturating counter.
pub fn bump(n: &mut u16) {
    *n = n.saturating_add(1);
}

impl Default for State {
    fn default() -> Self {
        State {
            ch: [Ch {
                pos: NO_SQ,
                ..Ch::default()
            }; 6],
            tiles: [Loc::Supply; MAX_TILES],
            skittle: [0; 2],
            xp: [0; 6],
            piles: Default::default(),
            deck_unknown: 0,
            deck_known: ArrayVec::new(),
            def_mod: [0; 6],
            seat: 0,
            first: 0,
            round: 1,
            actions_left: 0,
            att_mod: 0,
            mov_mod: 0,
            adr_bonus: 0,
            liberation: false,
            square: 0,
            events: 0,
            phase: Phase::EventDie,
            combat: Combat::default(),
            walk: Walk::default(),
            draw_side: 0,
            draws_left: 0,
            setup: true,
            result: NO_RESULT,
            tally: Tally::default(),
        }
    }
}
