//! Fox on the Run (Salvo Guastella, BeeZarre Games), rulebook v2.5, per the
//! implementation spec `fox-on-the-run.md`; see `RULES.md` next to this file
//! for the readings this module adds.
//!
//! Four characters in the fixed order Indigo, Puffer, Scarlett, Zev, two
//! factions (Foxes, Guardians) spread over 2 to 4 seats. A turn is a macro
//! movement decision (the final square), a chance flip if it ends on a
//! face-down tile, then an optional ability (Zev's reveal is another flip).

mod abilities;
pub mod board;
pub mod data;
pub mod encoding;
mod heuristic;
mod invariants;
pub mod movement;
mod render;
mod scenario;
pub mod state;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;

use crate::error::SpecError;
use crate::game::{Evaluation, PlayerId, Reporting, Returns, Rules, Turn};
use crate::rng::{GameRng, below, shuffle};
use crate::spec::Params;
use board::SQUARES;
use data::{TILES, TileSet};
use movement::MoveRules;
pub use state::{Action, Cell, Ending, Phase, State, Tally};
use state::{CHARACTER_NAMES, Character, FOXES, INDIGO, PUFFER, SCARLETT, ZEV, faction};

/// Capacity of the legal-action list. The largest decision is Scarlett's swap:
/// C(8,2) = 28 pairs of her 8 neighbours plus pass = 29. The others are
/// smaller: a movement ends on one of at most 25 squares, Puffer has at most
/// 8 x 3 + 1 = 25 options and Zev at most 8 + 1.
pub const MAX_ACTIONS: usize = 29;

/// Legal actions of one decision.
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// Parameter keys accepted by [`Fox::from_params`].
pub const PARAMS: &[&str] = &[
    "players",
    "alone",
    "tiles",
    "start_used",
    "stay_ability",
    "start_ability",
    "rotate_ccw",
    "guard",
];

/// Marker identity shown for face-down tiles in an observer's view.
pub const HIDDEN: u8 = u8::MAX;

/// The rules with their parameters fixed.
#[derive(Clone, Debug)]
pub struct Fox {
    players: u8,
    /// Seat of each character (turn-order index).
    controller: [u8; 4],
    /// For 3 players: the faction held by the lone player.
    alone: u8,
    tiles: TileSet,
    tiles_path: Option<String>,
    mv: MoveRules,
    /// A16: abilities after staying put.
    stay_ability: bool,
    /// A13: abilities after the movement ends on a start tile.
    start_ability: bool,
    /// A17: Puffer may also turn 90 degrees counter-clockwise.
    rotate_ccw: bool,
}

impl Fox {
    /// Builds the game from spec parameters (see [`PARAMS`] and the registry help).
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        let players = params.int("players", 2, 2, 4)? as u8;
        let alone_given = params.raw("alone").is_some();
        let alone = params.choice("alone", 0, &["foxes", "guardians"])? as u8;
        if alone_given && players != 3 {
            return Err(SpecError::Invalid(format!(
                "fox: 'alone' only applies to players=3 (got players={players})"
            )));
        }
        let tiles_path = params.text("tiles");
        let tiles = TileSet::load(tiles_path.as_deref())?;
        let start_used = params.bool("start_used", false)?;
        let stay_ability = params.bool("stay_ability", true)?;
        let start_ability = params.bool("start_ability", true)?;
        let rotate_ccw = params.bool("rotate_ccw", true)?;
        let orthogonal_guard = params.choice("guard", 0, &["adjacent", "orthogonal"])? == 1;
        params.finish("fox", PARAMS)?;
        let controller = match (players, alone) {
            (2, _) => [0, 1, 0, 1],
            (3, FOXES) => [0, 1, 0, 2],
            (3, _) => [0, 1, 2, 1],
            _ => [0, 1, 2, 3],
        };
        Ok(Fox {
            players,
            controller,
            alone,
            mv: MoveRules {
                masks: tiles.masks,
                start_used,
                orthogonal_guard,
            },
            tiles,
            tiles_path,
            stay_ability,
            start_ability,
            rotate_ccw,
        })
    }

    /// Builds the game from a spec text's parameters, e.g. `players=3`.
    pub fn with(params: &str) -> Result<Self, SpecError> {
        let spec = crate::spec::Spec::parse(&format!("fox({params})"))?;
        Self::from_params(&mut spec.params.clone())
    }

    /// The movement rules (entry rule, reach search).
    pub fn movement(&self) -> &MoveRules {
        &self.mv
    }

    /// The loaded tile set.
    pub fn tile_set(&self) -> &TileSet {
        &self.tiles
    }

    /// The seat controlling character `c`.
    pub fn controller(&self, c: Character) -> PlayerId {
        self.controller[c as usize]
    }

    fn turn_cap(&self) -> u32 {
        self.tiles.turn_cap
    }

    /// The ending word of a finished game ([`Rules::ending`]).
    fn ending_word(e: Ending) -> &'static str {
        match e {
            Ending::Capture => "capture",
            Ending::Rescue => "rescue",
            Ending::AllRevealed => "all-revealed",
            Ending::Cap => crate::game::ENDING_CAP,
        }
    }

    /// After the movement of the character to move: ability phase or end of turn.
    fn after_move(&self, s: &mut State, on_start_tile: bool) {
        if (on_start_tile && !self.start_ability) || !self.has_ability(s) {
            self.end_turn(s);
        } else {
            s.phase = Phase::Ability;
        }
    }

    /// Spec §4.5: count the turn, check the cap, hand over to the next character.
    fn end_turn(&self, s: &mut State) {
        s.turn_count += 1;
        if s.turn_count >= self.turn_cap() {
            s.phase = Phase::Over(Ending::Cap);
            return;
        }
        s.to_move = (s.to_move + 1) % 4;
        self.begin_turn(s);
    }

    /// Starts the turn of `s.to_move`. A character without a legal first step
    /// stays put and goes straight to its ability phase (A16), or its turn ends
    /// when it has no ability option; such turns need no decision.
    fn begin_turn(&self, s: &mut State) {
        loop {
            s.tally.turns[s.to_move as usize] += 1;
            if self.mv.can_move(s, s.to_move) {
                s.phase = Phase::Move;
                return;
            }
            if self.stay_ability && self.has_ability(s) {
                s.phase = Phase::Ability;
                return;
            }
            s.turn_count += 1;
            if s.turn_count >= self.turn_cap() {
                s.phase = Phase::Over(Ending::Cap);
                return;
            }
            s.to_move = (s.to_move + 1) % 4;
        }
    }

    /// The start position (spec §2.6) with the hidden tiles in this order of squares.
    pub fn setup(&self, order: &[u8; TILES]) -> State {
        let [i, sc, g] = self.tiles.starts;
        let mut cells = [Cell::Down(0); SQUARES];
        let mut next = 0;
        for (sq, cell) in cells.iter_mut().enumerate() {
            let sq = sq as u8;
            *cell = if sq == i {
                Cell::Start(0)
            } else if sq == sc {
                Cell::Start(1)
            } else if sq == g {
                Cell::Start(2)
            } else {
                next += 1;
                Cell::Down(order[next - 1])
            };
        }
        let mut s = State {
            cells,
            pos: [i, g, sc, g],
            to_move: INDIGO,
            turn_count: 0,
            phase: Phase::Move,
            tally: Tally::default(),
        };
        self.begin_turn(&mut s);
        s
    }

    /// The winning faction's return per seat.
    fn faction_value(&self, s: &State, f: u8) -> f64 {
        match s.phase {
            Phase::Over(Ending::Rescue) => {
                if f == FOXES {
                    1.0
                } else {
                    -1.0
                }
            }
            Phase::Over(Ending::Capture | Ending::AllRevealed) => {
                if f == FOXES {
                    -1.0
                } else {
                    1.0
                }
            }
            _ => 0.0,
        }
    }

    /// Reveals the tile on `square` as physical tile `id`, keeping the hidden
    /// sample a permutation of the unseen tiles: if `id` sat elsewhere, that
    /// square receives the tile that was sampled here.
    fn flip(s: &mut State, square: u8, id: u8) {
        let Cell::Down(here) = s.cells[square as usize] else {
            debug_assert!(false, "flip of a face-up square");
            return;
        };
        if here != id
            && let Some(other) = s.cells.iter_mut().find(|c| **c == Cell::Down(id))
        {
            *other = Cell::Down(here);
        }
        s.cells[square as usize] = Cell::Up(id, 0);
    }
}

impl Rules for Fox {
    type State = State;
    type Action = Action;
    type Actions = Actions;
    /// The state with every face-down identity replaced by [`HIDDEN`].
    type InfoKey = State;

    fn spec(&self) -> String {
        let mut p: Vec<String> = Vec::new();
        if self.players != 2 {
            p.push(format!("players={}", self.players));
        }
        if self.players == 3 && self.alone != FOXES {
            p.push("alone=guardians".into());
        }
        if let Some(t) = &self.tiles_path {
            p.push(format!("tiles={t}"));
        }
        if self.mv.start_used {
            p.push("start_used=true".into());
        }
        if !self.stay_ability {
            p.push("stay_ability=false".into());
        }
        if !self.start_ability {
            p.push("start_ability=false".into());
        }
        if !self.rotate_ccw {
            p.push("rotate_ccw=false".into());
        }
        if self.mv.orthogonal_guard {
            p.push("guard=orthogonal".into());
        }
        if p.is_empty() {
            "fox".into()
        } else {
            format!("fox({})", p.join(","))
        }
    }

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn side(&self, player: PlayerId) -> u8 {
        let c = (0..4).find(|&c| self.controller[c] == player).unwrap_or(0);
        faction(c as Character)
    }

    fn max_actions(&self) -> usize {
        MAX_ACTIONS
    }

    /// Per character-turn at most: move, flip, ability, flip.
    fn max_game_length(&self) -> u32 {
        4 * self.turn_cap()
    }

    fn has_hidden_information(&self) -> bool {
        true
    }

    fn initial_state(&self, rng: &mut GameRng) -> State {
        let mut order = [0u8; TILES];
        for (i, o) in order.iter_mut().enumerate() {
            *o = i as u8;
        }
        shuffle(rng, &mut order);
        self.setup(&order)
    }

    fn turn(&self, s: &State) -> Turn {
        match s.phase {
            Phase::Over(_) => Turn::Terminal,
            Phase::Reveal { .. } => Turn::Chance,
            Phase::Move | Phase::Ability => Turn::Player(self.controller[s.to_move as usize]),
        }
    }

    fn legal_actions(&self, s: &State) -> Actions {
        let mut out = Actions::new();
        self.legal_actions_into(s, &mut out);
        out
    }

    fn legal_actions_into(&self, s: &State, out: &mut Actions) {
        out.clear();
        match s.phase {
            Phase::Move => {
                let reach = self.mv.reach(s, s.to_move);
                out.extend(
                    (0..SQUARES as u8)
                        .filter(|q| reach & (1 << q) != 0)
                        .map(Action::Move),
                );
            }
            Phase::Ability => {
                out.push(Action::Pass);
                self.push_abilities(s, out);
            }
            _ => {}
        }
    }

    fn apply(&self, s: &mut State, action: Action) {
        debug_assert!(
            match s.phase {
                Phase::Reveal { .. } =>
                    matches!(action, Action::Tile(id) if s.hidden_ids() & (1 << id) != 0),
                _ => self.legal_actions(s).contains(&action),
            },
            "illegal action {action:?} in {s:?}"
        );
        let c = s.to_move;
        match action {
            Action::Move(q) => {
                s.pos[c as usize] = q;
                if c == INDIGO && s.pos[SCARLETT as usize] == q {
                    s.phase = Phase::Over(Ending::Rescue);
                } else if c == ZEV && s.pos[INDIGO as usize] == q {
                    s.phase = Phase::Over(Ending::Capture);
                } else {
                    match s.cells[q as usize] {
                        Cell::Down(_) => {
                            s.phase = Phase::Reveal {
                                square: q,
                                by_ability: false,
                            }
                        }
                        Cell::Start(_) => self.after_move(s, true),
                        Cell::Up(..) => self.after_move(s, false),
                    }
                }
            }
            Action::Pass => self.end_turn(s),
            Action::Reveal(q) => {
                s.tally.abilities[c as usize] += 1;
                s.phase = Phase::Reveal {
                    square: q,
                    by_ability: true,
                }
            }
            Action::Rotate(q, k) => {
                s.tally.abilities[c as usize] += 1;
                if let Cell::Up(id, r) = s.cells[q as usize] {
                    s.cells[q as usize] = Cell::Up(id, (r + k) % 4);
                }
                self.end_turn(s);
            }
            Action::Swap(a, b) => {
                s.tally.abilities[c as usize] += 1;
                s.cells.swap(a as usize, b as usize);
                self.end_turn(s);
            }
            Action::Tile(id) => {
                let Phase::Reveal { square, by_ability } = s.phase else {
                    debug_assert!(false, "tile outcome outside a flip");
                    return;
                };
                Self::flip(s, square, id);
                s.tally.revealed[c as usize] += 1;
                if s.face_down() == 0 {
                    s.phase = Phase::Over(Ending::AllRevealed);
                } else if by_ability {
                    self.end_turn(s);
                } else {
                    self.after_move(s, false);
                }
            }
        }
    }

    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        if !matches!(s.phase, Phase::Reveal { .. }) {
            return Vec::new();
        }
        let ids = s.hidden_ids();
        let p = 1.0 / f64::from(ids.count_ones());
        (0..TILES as u8)
            .filter(|i| ids & (1 << i) != 0)
            .map(|i| (Action::Tile(i), p))
            .collect()
    }

    /// Uniform over the unseen physical tiles, indexed in identity order so the
    /// draw does not depend on the hidden sample.
    fn sample_chance(&self, s: &State, rng: &mut GameRng) -> Action {
        let mut ids = s.hidden_ids();
        for _ in 0..below(rng, ids.count_ones() as usize) {
            ids &= ids - 1;
        }
        Action::Tile(ids.trailing_zeros() as u8)
    }

    /// Shuffles the unseen tiles (listed in identity order) over the face-down
    /// squares (in square order): the exact posterior (spec §5).
    fn determinize(&self, s: &State, _observer: PlayerId, rng: &mut GameRng) -> State {
        let ids = s.hidden_ids();
        let mut pool: ArrayVec<u8, TILES> =
            (0..TILES as u8).filter(|i| ids & (1 << i) != 0).collect();
        shuffle(rng, &mut pool);
        let mut out = s.clone();
        let mut next = pool.into_iter();
        for cell in out.cells.iter_mut() {
            if let Cell::Down(id) = cell {
                *id = next.next().unwrap_or(*id);
            }
        }
        out
    }

    fn info_key(&self, s: &State, _observer: PlayerId) -> State {
        let mut view = s.clone();
        for cell in view.cells.iter_mut() {
            if let Cell::Down(id) = cell {
                *id = HIDDEN;
            }
        }
        view
    }

    fn returns(&self, s: &State) -> Returns {
        (0..self.players)
            .map(|p| self.faction_value(s, self.side(p)))
            .collect()
    }

    /// Ended by the turn cap of the tile set's data (`turn_cap`), not a rule.
    fn truncated(&self, s: &State) -> bool {
        s.phase == Phase::Over(Ending::Cap)
    }
    fn ending(&self, s: &State) -> &'static str {
        match s.phase {
            Phase::Over(e) => Self::ending_word(e),
            _ => crate::game::ENDING_END,
        }
    }
    fn endings(&self) -> &'static [&'static str] {
        &["capture", "rescue", "all-revealed", crate::game::ENDING_CAP]
    }
    fn with_cap(&self, cap: u32) -> Option<Self> {
        let mut g = self.clone();
        g.tiles.turn_cap = cap.max(1);
        Some(g)
    }

    fn check_invariants(&self, s: &State) -> Result<(), String> {
        invariants::check(self, s)
    }
}

impl Reporting for Fox {
    fn role(&self, _state: &State, player: PlayerId) -> String {
        let chars: Vec<String> = (0..4u8)
            .filter(|&c| self.controller[c as usize] == player)
            .map(|c| CHARACTER_NAMES[c as usize].to_lowercase())
            .collect();
        let f = if self.side(player) == FOXES {
            "foxes"
        } else {
            "guardians"
        };
        format!("{f}:{}", chars.join("+"))
    }

    /// Seat totals over the seat's characters (see RULES.md, "Metrics").
    fn metrics(&self, s: &State, player: PlayerId) -> Vec<(&'static str, f64)> {
        let t = &s.tally;
        let mine = |c: Character| self.controller[c as usize] == player;
        let sum = |per: [u16; 4]| -> f64 {
            (0..4u8)
                .filter(|&c| mine(c))
                .map(|c| f64::from(per[c as usize]))
                .sum()
        };
        let revealed = t.revealed.map(u16::from);
        let kind = |c: Character| {
            if mine(c) {
                f64::from(t.abilities[c as usize])
            } else {
                0.0
            }
        };
        let ending = |e: Ending| f64::from(u8::from(s.phase == Phase::Over(e)));
        vec![
            ("turns", sum(t.turns)),
            ("tiles_revealed", sum(revealed)),
            ("abilities_used", sum(t.abilities)),
            ("rotations", kind(PUFFER)),
            ("swaps", kind(SCARLETT)),
            ("ability_reveals", kind(ZEV)),
            ("end_rescue", ending(Ending::Rescue)),
            ("end_capture", ending(Ending::Capture)),
            ("end_all_revealed", ending(Ending::AllRevealed)),
            ("end_cap", ending(Ending::Cap)),
        ]
    }

    fn render(&self, s: &State, viewer: Option<PlayerId>) -> String {
        self.render_board(s, viewer.is_none())
    }

    fn action_label(&self, s: &State, action: Action) -> String {
        self.label(s, action)
    }

    /// Every seat sees the same: a flipped tile is face up for all.
    fn action_label_for(&self, s: &State, action: Action, _observer: PlayerId) -> String {
        self.label(s, action)
    }
    /// Every seat sees every move: what is hidden (the face-down tiles) is
    /// settled by chance, when a tile is flipped.
    fn observed_move(&self, _s: &State, _action: Action, _observer: PlayerId) -> Option<u64> {
        None
    }
}

impl Evaluation for Fox {
    fn heuristic(&self, s: &State, player: PlayerId) -> f64 {
        let foxes = self.fox_value(s);
        if self.side(player) == FOXES {
            foxes
        } else {
            -foxes
        }
    }

    /// The Foxes' value worked out once for every seat.
    fn heuristics(&self, s: &State) -> Returns {
        let foxes = self.fox_value(s);
        (0..self.players)
            .map(|p| if self.side(p) == FOXES { foxes } else { -foxes })
            .collect()
    }
}

/// Characters in turn order, for callers that iterate them.
pub const CHARACTERS: [Character; 4] = [INDIGO, PUFFER, SCARLETT, ZEV];
