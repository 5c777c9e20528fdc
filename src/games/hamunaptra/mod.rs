//! Hamunaptra: Escape from the Great Pyramid (Edge Entertainment), after the
//! specification `rules/hamunaptra.md`; further readings are in `RULES.md`.
//!
//! Players build a pyramid of tunnel tiles, move expeditions of characters
//! through it, fight monsters and traps with d4 pools, and race to lay and
//! reach exit stairs. Dice are chance nodes whose outcomes are success counts
//! (exact binomial probabilities); draws are chance nodes over card kinds.

pub mod board;
pub mod combat;
pub mod data;
pub mod determinize;
pub mod encoding;
pub mod features;
pub mod heuristic;
pub mod invariants;
pub mod race;
pub mod render;
pub mod rules;
pub mod scenario;
pub mod state;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::error::SpecError;
use crate::game::{Evaluation, PlayerId, Reporting, Returns, Rules, Turn};
use crate::rng::GameRng;
use crate::spec::Params;

use data::Components;
pub use scenario::Scenario;
pub use state::{Action, State};
use state::{HMAX, Phase, Stage, cell_of};

/// Capacity of the legal-action list. The largest lists are in movement:
/// at most 8 characters per seat × (4 links + 1 passage + 2 boundary sides ×
/// 31 edge openings) = 536 steps, plus 8 gathering cells × 4 × 5 overtakes =
/// 160, plus 8 × 8 movement-equipment assignments = 64 and `EndMove`: 761.
/// Placement cells are bounded by the frontier, at most 4 open sides × 97
/// tiles = 388. So 1024 is safe.
pub const MAX_ACTIONS: usize = 1024;

/// The legal-action list.
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// The rules with their parameters.
#[derive(Clone, Debug)]
pub struct Hamunaptra {
    /// Component tables.
    pub comps: Arc<Components>,
    /// Seats (2–4).
    pub players: u8,
    /// Minimum-path distance `D` (rule 4).
    pub d: i32,
    /// Exit metric: 0 Chebyshev, 1 Manhattan, 2 path.
    pub metric: u8,
    /// Board half-size `H`.
    pub h: i32,
    /// The "Persi!" edge walk.
    pub edge_walk: bool,
    /// Hand size.
    pub hand_size: u8,
    /// Trades: 0 off, 1 one for one, 2 general.
    pub trade: u8,
    /// The owner (not the controller) picks the defending character.
    pub defender_owner: bool,
    /// Escaped characters also score as survivors.
    pub escaped_also_survivor: bool,
    /// A player may end placement without laying anything.
    pub voluntary_pass: bool,
    /// Round cap.
    pub max_rounds: u16,
    /// Combat round cap.
    pub max_combat_rounds: u8,
    /// Each d4 is its own chance node (`dice=each`) instead of one node per roll.
    pub each_die: bool,
    /// Rule 1: character vs character combat.
    pub rule1: bool,
    /// Rule 2: monsters move.
    pub rule2: bool,
    /// Rule 3: play out the deck.
    pub rule3: bool,
    /// Rule 5: connected entrances.
    pub rule5: bool,
    /// Characters per player (4, or more with rule 6).
    pub cpp: u8,
    /// Start tiles of the layout: (tile type, cell, rotation).
    pub layout: Vec<(u8, u16, u8)>,
    /// Entrance cells of the layout.
    pub entrances: Vec<u16>,
    /// Precomputed geometry and tile tables.
    pub geo: Arc<board::Geo>,
    spec: String,
}

/// Every parameter key.
pub const PARAM_KEYS: &[&str] = &[
    "players",
    "exit_distance",
    "rule1",
    "rule2",
    "rule3",
    "rule4",
    "rule5",
    "rule6",
    "characters",
    "distance_metric",
    "H",
    "edge_walk",
    "hand_size",
    "trade_mode",
    "defender_chooser",
    "escaped_also_survivor",
    "allow_voluntary_pass",
    "max_rounds",
    "max_combat_rounds",
    "components",
    "dice",
];

/// Parameters with defaults and help, for `boardlab games`.
pub const PARAMS: &[crate::games::ParamInfo] = &[
    crate::games::ParamInfo {
        name: "players",
        default: "2",
        help: "2, 3 or 4 seats",
    },
    crate::games::ParamInfo {
        name: "rule1",
        default: "false",
        help: "optional rule 1: character vs character combat",
    },
    crate::games::ParamInfo {
        name: "rule2",
        default: "false",
        help: "optional rule 2: monsters move 2 after each round (ambushes)",
    },
    crate::games::ParamInfo {
        name: "rule3",
        default: "false",
        help: "optional rule 3: play out the deck (exits do not end the game)",
    },
    crate::games::ParamInfo {
        name: "rule4",
        default: "false",
        help: "optional rule 4: use exit_distance as the minimum path",
    },
    crate::games::ParamInfo {
        name: "exit_distance",
        default: "8",
        help: "minimum-path distance D for exit stairs, 1..30 (needs rule4=true to differ from 8)",
    },
    crate::games::ParamInfo {
        name: "rule5",
        default: "false",
        help: "optional rule 5: connected entrances layout",
    },
    crate::games::ParamInfo {
        name: "rule6",
        default: "false",
        help: "optional rule 6: more characters per player (2-3 players)",
    },
    crate::games::ParamInfo {
        name: "characters",
        default: "6 (2p) / 5 (3p)",
        help: "characters per player with rule6, 5..16/players",
    },
    crate::games::ParamInfo {
        name: "distance_metric",
        default: "chebyshev",
        help: "exit test metric: chebyshev, manhattan or path",
    },
    crate::games::ParamInfo {
        name: "H",
        default: "11",
        help: "board half-size, 5..15 (cells with |x|,|y| <= H)",
    },
    crate::games::ParamInfo {
        name: "edge_walk",
        default: "true",
        help: "the Persi! walk along the board edge",
    },
    crate::games::ParamInfo {
        name: "hand_size",
        default: "4",
        help: "hand size, 1..6",
    },
    crate::games::ParamInfo {
        name: "trade_mode",
        default: "one_for_one",
        help: "trades between connected players: off, one_for_one or general (any cards for k cards, then the hand limit)",
    },
    crate::games::ParamInfo {
        name: "defender_chooser",
        default: "controller",
        help: "who picks the character a monster hits: controller or owner",
    },
    crate::games::ParamInfo {
        name: "escaped_also_survivor",
        default: "false",
        help: "escaped characters also score the 2 survivor VP",
    },
    crate::games::ParamInfo {
        name: "allow_voluntary_pass",
        default: "false",
        help: "end placement without laying even when able (penalty applies)",
    },
    crate::games::ParamInfo {
        name: "max_rounds",
        default: "60",
        help: "round cap, 1..200",
    },
    crate::games::ParamInfo {
        name: "max_combat_rounds",
        default: "100",
        help: "combat round cap, 1..100",
    },
    crate::games::ParamInfo {
        name: "dice",
        default: "successes",
        help: "chance nodes for dice: successes (one node per roll, binomial) or each (one node per d4)",
    },
    crate::games::ParamInfo {
        name: "components",
        default: "embedded",
        help: "TOML or JSON file replacing components.toml",
    },
];

/// Random games the layout probe of a user's components file plays.
const PROBE_GAMES: u64 = 16;
/// The fewest rounds a probe game may last.
const PROBE_ROUNDS: u16 = 60;

/// Specs for the generic tests: every player count and every optional rule.
/// Round caps keep random playouts short in debug builds.
pub const TEST_SPECS: &[&str] = &[
    "hamunaptra(max_rounds=12)",
    "hamunaptra(players=3,max_rounds=8)",
    "hamunaptra(players=4,max_rounds=6)",
    "hamunaptra(rule1=true,max_rounds=10,max_combat_rounds=10)",
    "hamunaptra(players=3,rule2=true,max_rounds=8,max_combat_rounds=10)",
    "hamunaptra(rule3=true,max_rounds=10)",
    "hamunaptra(rule4=true,exit_distance=4,max_rounds=10)",
    "hamunaptra(players=4,rule5=true,max_rounds=6)",
    "hamunaptra(rule6=true,max_rounds=8,defender_chooser=owner)",
    "hamunaptra(players=3,trade_mode=general,max_rounds=8)",
    "hamunaptra(players=3,dice=each,rule2=true,max_rounds=6,max_combat_rounds=10)",
];

/// A layout's start tiles as (tile type, cell, quarter turns), and the
/// entrances among them.
type StartLayout = (Vec<(u8, u16, u8)>, Vec<u16>);

impl Hamunaptra {
    /// Builds the game from spec parameters.
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        let players = params.int("players", 2, 2, 4)? as u8;
        let rule4 = params.bool("rule4", false)?;
        let d = params.int("exit_distance", 8, 1, 30)? as i32;
        if !rule4 && d != 8 {
            return Err(SpecError::BadValue {
                key: "exit_distance".into(),
                value: d.to_string(),
                expected: "8 unless rule4=true (optional rule 4 sets the minimum path)".into(),
            });
        }
        let rule1 = params.bool("rule1", false)?;
        let rule2 = params.bool("rule2", false)?;
        let rule3 = params.bool("rule3", false)?;
        let rule5 = params.bool("rule5", false)?;
        let rule6 = params.bool("rule6", false)?;
        let characters_given = params.iter().any(|(k, _)| k == "characters");
        let cpp = Self::characters_per_player(params, players, rule6)?;
        let metric =
            params.choice("distance_metric", 0, &["chebyshev", "manhattan", "path"])? as u8;
        let h = params.int("H", 11, 5, HMAX as u64)? as i32;
        let edge_walk = params.bool("edge_walk", true)?;
        let hand_size = params.int("hand_size", 4, 1, 6)? as u8;
        let trade = params.choice("trade_mode", 1, &["off", "one_for_one", "general"])? as u8;
        let defender_owner = params.choice("defender_chooser", 0, &["controller", "owner"])? == 1;
        let escaped_also_survivor = params.bool("escaped_also_survivor", false)?;
        let voluntary_pass = params.bool("allow_voluntary_pass", false)?;
        let max_rounds = params.int("max_rounds", 60, 1, 200)? as u16;
        let max_combat_rounds = params.int("max_combat_rounds", 100, 1, 100)? as u8;
        let each_die = params.choice("dice", 0, &["successes", "each"])? == 1;
        let path = params.text("components");
        let comps = Components::load(path.as_deref())?;
        Self::check_components(&comps, &path, players, cpp, hand_size, characters_given)?;
        let (layout, entrances) = Self::start_layout(&comps, &path, players, rule5)?;
        params.finish("hamunaptra", PARAM_KEYS)?;
        let opens: Vec<u8> = comps.tiles.iter().map(|t| t.open).collect();
        let geo = Arc::new(board::Geo::new(h, &opens));
        let mut game = Hamunaptra {
            comps: Arc::new(comps),
            players,
            d,
            metric,
            h,
            edge_walk,
            hand_size,
            trade,
            defender_owner,
            escaped_also_survivor,
            voluntary_pass,
            max_rounds,
            max_combat_rounds,
            each_die,
            rule1,
            rule2,
            rule3,
            rule5,
            cpp,
            layout,
            entrances,
            geo,
            spec: String::new(),
        };
        game.spec = game.canonical_spec(rule4, rule6, path.as_deref());
        if let Some(path) = path {
            game.probe_layout(&path)?;
        }
        Ok(game)
    }

    /// Characters per player: four, or with optional rule 6 the
    /// `characters` parameter (not allowed without it, nor with 4 players).
    fn characters_per_player(
        params: &mut Params,
        players: u8,
        rule6: bool,
    ) -> Result<u8, SpecError> {
        Ok(if rule6 {
            if players == 4 {
                return Err(SpecError::BadValue {
                    key: "rule6".into(),
                    value: "true".into(),
                    expected: "false with 4 players (all 16 characters are already in play)".into(),
                });
            }
            let max = 16 / u64::from(players);
            let def = if players == 2 { 6 } else { 5 };
            params.int("characters", def, 5, max)? as u8
        } else {
            if params.raw("characters").is_some() {
                return Err(SpecError::BadValue {
                    key: "characters".into(),
                    value: "given".into(),
                    expected: "rule6=true first (more characters is optional rule 6)".into(),
                });
            }
            4
        })
    }

    /// The components must hold enough characters for every player and
    /// enough cards to deal every hand.
    fn check_components(
        comps: &Components,
        path: &Option<String>,
        players: u8,
        cpp: u8,
        hand_size: u8,
        characters_given: bool,
    ) -> Result<(), SpecError> {
        if comps.chars.len() < usize::from(players) * usize::from(cpp) && !characters_given {
            // Name the data file, not a parameter the user never gave.
            return Err(SpecError::DataFile {
                path: path.clone().unwrap_or_else(|| "<embedded default>".into()),
                why: format!(
                    "the tables hold {} characters, fewer than the {cpp} per player that {players} players need",
                    comps.chars.len()
                ),
            });
        }
        if comps.chars.len() < usize::from(players) * usize::from(cpp) {
            return Err(SpecError::BadValue {
                key: "characters".into(),
                value: cpp.to_string(),
                expected: format!(
                    "at most {} per player with {} characters in the tables",
                    comps.chars.len() / usize::from(players),
                    comps.chars.len()
                ),
            });
        }
        let pile: usize = comps.kind_count.iter().map(|&n| usize::from(n)).sum();
        let hands = usize::from(players) * usize::from(hand_size);
        if pile < hands {
            return Err(SpecError::DataFile {
                path: path.clone().unwrap_or_else(|| "<embedded default>".into()),
                why: format!(
                    "the pile holds {pile} cards, too few to deal {players} hands of {hand_size}"
                ),
            });
        }
        Ok(())
    }

    /// The starting tiles of the layout for this many players (connected or
    /// not, rule 5) as (tile, cell, quarter turns), and the entrances among them.
    fn start_layout(
        comps: &Components,
        path: &Option<String>,
        players: u8,
        rule5: bool,
    ) -> Result<StartLayout, SpecError> {
        let Some(lay) = comps
            .layouts
            .iter()
            .find(|l| l.players == players && l.connected == rule5)
        else {
            return Err(SpecError::DataFile {
                path: path.clone().unwrap_or_else(|| "<embedded default>".into()),
                why: format!("no layout for {players} players with connected = {rule5}"),
            });
        };
        let mut layout = Vec::new();
        let mut entrances = Vec::new();
        for t in &lay.tiles {
            let ty = comps
                .tiles
                .iter()
                .position(|x| x.start && x.id == t.tile)
                .unwrap_or(0) as u8;
            let cell = cell_of(t.x, t.y);
            layout.push((ty, cell, (t.rot / 90) as u8));
            if comps.tiles[ty as usize].entrance {
                entrances.push(cell);
            }
        }
        let stair_cards: usize = (0..comps.pile_tile_types)
            .filter(|&t| comps.tiles[t].stairs)
            .map(|t| usize::from(comps.kind_count[t]))
            .sum();
        if stair_cards > 32 {
            return Err(SpecError::DataFile {
                path: path.clone().unwrap_or_default(),
                why: format!("{stair_cards} stair tiles; at most 32 are supported"),
            });
        }
        Ok((layout, entrances))
    }

    /// The canonical spec text: the parameters that differ from their
    /// defaults, in a fixed order.
    fn canonical_spec(&self, rule4: bool, rule6: bool, path: Option<&str>) -> String {
        let mut text: Vec<String> = Vec::new();
        // Canonical spec text: non-default values only.
        let mut add = |k: &str, v: String, def: &str| {
            if v != def {
                text.push(format!("{k}={v}"));
            }
        };
        add("players", self.players.to_string(), "2");
        add("rule1", self.rule1.to_string(), "false");
        add("rule2", self.rule2.to_string(), "false");
        add("rule3", self.rule3.to_string(), "false");
        add("rule4", rule4.to_string(), "false");
        add("exit_distance", self.d.to_string(), "8");
        add("rule5", self.rule5.to_string(), "false");
        add("rule6", rule6.to_string(), "false");
        if rule6 {
            add("characters", self.cpp.to_string(), "");
        }
        add(
            "distance_metric",
            ["chebyshev", "manhattan", "path"][self.metric as usize].into(),
            "chebyshev",
        );
        add("H", self.h.to_string(), "11");
        add("edge_walk", self.edge_walk.to_string(), "true");
        add("hand_size", self.hand_size.to_string(), "4");
        add(
            "trade_mode",
            ["off", "one_for_one", "general"][self.trade as usize].into(),
            "one_for_one",
        );
        add(
            "defender_chooser",
            if self.defender_owner {
                "owner"
            } else {
                "controller"
            }
            .into(),
            "controller",
        );
        add(
            "escaped_also_survivor",
            self.escaped_also_survivor.to_string(),
            "false",
        );
        add(
            "allow_voluntary_pass",
            self.voluntary_pass.to_string(),
            "false",
        );
        add("max_rounds", self.max_rounds.to_string(), "60");
        add(
            "max_combat_rounds",
            self.max_combat_rounds.to_string(),
            "100",
        );
        add(
            "dice",
            if self.each_die { "each" } else { "successes" }.into(),
            "successes",
        );
        if let Some(p) = path {
            add("components", p.to_string(), "");
        }
        if text.is_empty() {
            "hamunaptra".to_string()
        } else {
            format!("hamunaptra({})", text.join(","))
        }
    }

    /// A user's components file can lay entrances where no game can end: no
    /// network grows, so no character reaches an exit and the pile is never
    /// drawn out, and every game stops at the round cap. A short, seeded
    /// probe finds that at once: [`PROBE_GAMES`] random games of at least
    /// [`PROBE_ROUNDS`] rounds; a layout on which none of them ends and no
    /// tile is ever laid is refused. (Random play alone is no proof that a
    /// layout whose networks grow cannot end: with the connected layout, the
    /// embedded tables' random games mostly reach the cap too.)
    fn probe_layout(&self, path: &str) -> Result<(), SpecError> {
        let mut g = self.clone();
        g.max_rounds = self.max_rounds.max(PROBE_ROUNDS);
        let tiles = |s: &State| s.cells.iter().filter(|c| c.tile != 0).count();
        for k in 0..PROBE_GAMES {
            let mut rng = crate::rng::rng_from_seed(k);
            let mut s = g.initial_state(&mut rng);
            let laid = tiles(&s);
            crate::game::random_playout(&g, &mut s, &mut rng, g.max_game_length());
            let ended = g.turn(&s) == Turn::Terminal && !g.truncated(&s);
            if ended || tiles(&s) > laid {
                return Ok(());
            }
        }
        Err(SpecError::DataFile {
            path: path.to_string(),
            why: format!(
                "no game can end on its layout for {} players: no network can grow (no tile could be laid in {PROBE_GAMES} random games of {} rounds: the entrances' open sides are walled in or missing), so every game stops at the round cap",
                self.players, g.max_rounds
            ),
        })
    }

    /// Builds the game from a spec string such as `hamunaptra(players=3)`.
    pub fn from_spec_text(text: &str) -> Result<Self, SpecError> {
        let mut spec = crate::spec::Spec::parse(text)?;
        Self::from_params(&mut spec.params)
    }

    /// Writes the legal list into uninitialised memory. Kept out of line and
    /// free of prior writes to `out` so that the optimiser can let it write
    /// straight into the caller's `Actions`, not into a temporary copied
    /// afterwards (an 8 KiB copy per call, more than the rules themselves).
    #[inline(never)]
    fn legal_in_place(&self, state: &State, out: &mut std::mem::MaybeUninit<Actions>) {
        self.legal_into(state, out.write(Actions::new()));
    }

    /// Upper bound on the actions of one turn.
    fn turn_bound(&self) -> u32 {
        let per_round = if self.each_die { 12 + 80 } else { 12 };
        let fights = 8 * (per_round * u32::from(self.max_combat_rounds) + 4);
        200 + fights
    }
}

impl Rules for Hamunaptra {
    type State = State;
    type Action = Action;
    type Actions = Actions;
    type InfoKey = State;

    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn num_players(&self) -> usize {
        self.players as usize
    }
    fn max_actions(&self) -> usize {
        MAX_ACTIONS
    }
    fn max_game_length(&self) -> u32 {
        let n = u32::from(self.players);
        let per_round = if self.each_die { 12 + 80 } else { 12 };
        let monsters = if self.rule2 {
            9 * (3 + per_round * u32::from(self.max_combat_rounds)) + 8
        } else {
            0
        };
        400 + if self.each_die { 400 } else { 0 }
            + u32::from(self.max_rounds) * (n * self.turn_bound() + monsters)
    }
    fn has_hidden_information(&self) -> bool {
        true
    }
    fn initial_state(&self, _rng: &mut GameRng) -> State {
        self.new_state()
    }
    fn turn(&self, state: &State) -> Turn {
        match state.phase {
            Phase::Over => Turn::Terminal,
            Phase::FirstRoll | Phase::Draw | Phase::Penalty => Turn::Chance,
            Phase::Fight => {
                let c = state.combat.expect("fight phase has a combat");
                match c.stage {
                    Stage::AttackRoll | Stage::CounterRoll | Stage::PvpRoll => Turn::Chance,
                    Stage::QAssign | Stage::TargetAtt => Turn::Player(c.opp),
                    Stage::Counter => Turn::Player(c.controller),
                    _ => Turn::Player(c.fighter),
                }
            }
            Phase::Draft => Turn::Player((state.first + state.picks) % self.players),
            Phase::Entrance => {
                Turn::Player((state.first + self.players - 1 + state.picks) % self.players)
            }
            Phase::TradeReply => Turn::Player(state.trade_to),
            Phase::TradeDiscard => Turn::Player(self.discarder(state)),
            Phase::Monsters | Phase::MonsterStep2 => Turn::Player(state.mon_actor),
            _ => Turn::Player(state.seat),
        }
    }
    fn legal_actions(&self, state: &State) -> Actions {
        let mut out = std::mem::MaybeUninit::uninit();
        self.legal_in_place(state, &mut out);
        // SAFETY: `legal_in_place` writes an `Actions` into `out` first thing.
        unsafe { out.assume_init() }
    }
    fn legal_actions_into(&self, state: &State, out: &mut Actions) {
        out.clear();
        self.legal_into(state, out);
    }
    fn apply(&self, state: &mut State, action: Action) {
        self.apply_action(state, action);
    }
    /// Ended by `max_rounds` (spec §6.5): not the final round after an exit,
    /// not the rule-3 end of the deck.
    fn truncated(&self, state: &State) -> bool {
        state.phase == Phase::Over
            && !state.final_round
            && !(self.rule3 && state.pile_was_empty && !state.placed_round)
    }
    /// The first-player roll's winner.
    /// `exit` when a character stands on an exit at the end (spec §6.1),
    /// `deck` when the draw pile ran out (§6.2, optional rule 3), `cap`.
    fn ending(&self, state: &State) -> &'static str {
        if self.truncated(state) {
            crate::game::ENDING_CAP
        } else if state.chars.iter().any(|c| {
            c.alive
                && c.owner != state::NONE
                && state.cells.get(c.cell as usize).is_some_and(|x| x.exit)
        }) {
            "exit"
        } else {
            "deck"
        }
    }
    fn endings(&self) -> &'static [&'static str] {
        &["exit", "deck", crate::game::ENDING_CAP]
    }
    fn with_cap(&self, cap: u32) -> Option<Self> {
        let mut g = self.clone();
        g.max_rounds = cap.clamp(1, u32::from(u16::MAX)) as u16;
        Some(g)
    }
    fn check_invariants(&self, state: &State) -> Result<(), String> {
        self.invariants(state)
    }
    fn chance_outcomes(&self, state: &State) -> Vec<(Action, f64)> {
        let mut v = Vec::new();
        self.for_chance(state, |a, p| v.push((a, p)));
        v
    }
    fn sample_chance(&self, state: &State, rng: &mut GameRng) -> Action {
        let u = crate::rng::unit(rng);
        let mut acc = 0.0;
        let mut last = None;
        let mut pick = None;
        self.for_chance(state, |a, p| {
            acc += p;
            last = Some(a);
            if pick.is_none() && u < acc {
                pick = Some(a);
            }
        });
        pick.or(last).expect("chance node has outcomes")
    }
    fn determinize(&self, state: &State, observer: PlayerId, rng: &mut GameRng) -> State {
        self.determinize_state(state, observer, rng)
    }
    fn with_determinizer<R>(
        &self,
        state: &State,
        observer: PlayerId,
        body: impl FnOnce(&mut dyn FnMut(&mut GameRng) -> State) -> R,
    ) -> R {
        let undealt = self.undealt(state, observer);
        let mut scratch = determinize::Scratch::default();
        body(&mut |rng| self.deal(&undealt, rng, &mut scratch))
    }
    fn info_key(&self, state: &State, observer: PlayerId) -> State {
        self.mask(state, observer)
    }
    fn returns(&self, state: &State) -> Returns {
        self.final_returns(state)
    }
}

impl Reporting for Hamunaptra {
    fn role(&self, state: &State, player: PlayerId) -> String {
        let names: Vec<&str> = state
            .chars
            .iter()
            .enumerate()
            .filter(|(_, c)| c.owner == player)
            .map(|(i, _)| self.comps.chars[i].name.as_str())
            .collect();
        names.join("+")
    }
    /// See RULES.md, "Metrics".
    fn metrics(&self, state: &State, player: PlayerId) -> Vec<(&'static str, f64)> {
        let t = &state.tally;
        let n = |c: &[u16; state::MAXP]| f64::from(c[player as usize]);
        let v = self.vp(state, player);
        vec![
            ("vp", f64::from(v.total)),
            ("exits_found", f64::from(v.exits)),
            ("escaped", f64::from(v.escaped)),
            ("survivors", f64::from(v.survivors)),
            ("tiles_placed", n(&t.tiles)),
            ("stairs_placed", n(&t.stairs)),
            ("exit_stairs_placed", n(&t.exits)),
            ("encounters_placed", n(&t.encounters)),
            ("combats", n(&t.combats)),
            ("combats_won", n(&t.won)),
            ("combats_lost", n(&t.lost)),
            ("retreats", n(&t.retreats)),
            ("monsters_defeated", n(&t.monsters)),
            ("traps_resolved", n(&t.traps)),
            ("characters_lost", n(&t.deaths)),
            ("equipment_played", n(&t.equip_played)),
            ("equipment_activated", n(&t.equip_activated)),
            ("scrolls_used", n(&t.scrolls)),
            ("trades_accepted", n(&t.trades)),
        ]
    }
    fn rounds(&self, state: &State) -> Option<u32> {
        Some(u32::from(state.round))
    }
    fn first_player(&self, state: &State) -> Option<PlayerId> {
        (state.phase != Phase::FirstRoll).then_some(state.first)
    }
    fn score(&self, state: &State, player: PlayerId) -> f64 {
        f64::from(self.vp(state, player).total)
    }

    fn render(&self, state: &State, viewer: Option<PlayerId>) -> String {
        self.render_text(state, viewer)
    }
    fn action_label(&self, state: &State, action: Action) -> String {
        self.label(state, action)
    }
    fn action_label_for(&self, state: &State, action: Action, observer: PlayerId) -> String {
        match self.hidden_move(state, action, observer) {
            Some(hidden) => hidden.label(),
            None => self.label(state, action),
        }
    }
    fn observed_move(&self, state: &State, action: Action, observer: PlayerId) -> Option<u64> {
        self.hidden_move(state, action, observer)
            .map(HiddenMove::key)
    }
}

/// A move whose card an observer does not see: it sees only the kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HiddenMove {
    Draw,
    Lose,
    PlayEquip,
    /// An offer to this seat.
    Propose(u8),
    Give,
    Accept,
    GiveBack,
    Discard,
}

impl HiddenMove {
    fn label(self) -> String {
        match self {
            HiddenMove::Draw => "draw a card".into(),
            HiddenMove::Lose => "penalty: a card back into the pile".into(),
            HiddenMove::PlayEquip => "play equipment face down".into(),
            HiddenMove::Propose(to) => format!("offer a card to seat {to}"),
            HiddenMove::Give => "offer a card".into(),
            HiddenMove::Accept => "accept the trade".into(),
            HiddenMove::GiveBack => "pick a card to give back".into(),
            HiddenMove::Discard => "discard a card (hand limit)".into(),
        }
    }

    /// One number per label.
    fn key(self) -> u64 {
        match self {
            HiddenMove::Draw => 0,
            HiddenMove::Lose => 1,
            HiddenMove::PlayEquip => 2,
            HiddenMove::Give => 3,
            HiddenMove::Accept => 4,
            HiddenMove::GiveBack => 5,
            HiddenMove::Discard => 6,
            HiddenMove::Propose(to) => 7 + u64::from(to),
        }
    }
}

impl Hamunaptra {
    /// Hands, face-down equipment, discards and trade cards are seen only by
    /// their holder and trade partner (as in `info_key`); others see the kind
    /// of move without the card.
    fn hidden_move(&self, s: &State, action: Action, observer: PlayerId) -> Option<HiddenMove> {
        let trader = observer == s.seat || observer == s.trade_to;
        Some(match action {
            Action::Draw(_) if observer != s.seat => HiddenMove::Draw,
            Action::Lose(_) if observer != s.seat => HiddenMove::Lose,
            Action::PlayEquip(_) if observer != s.seat => HiddenMove::PlayEquip,
            Action::Propose { to, .. } if observer != s.seat && observer != to => {
                HiddenMove::Propose(to)
            }
            Action::Give(_) if !trader => HiddenMove::Give,
            // Whether a trade happened is public (spec §5.1), its cards
            // are not.
            Action::Accept(_) if !trader && s.offer.is_some() => HiddenMove::Accept,
            Action::Accept(_) if !trader => HiddenMove::GiveBack,
            Action::Discard(_) if observer != self.discarder(s) => HiddenMove::Discard,
            _ => return None,
        })
    }
}

impl Evaluation for Hamunaptra {
    fn heuristic(&self, state: &State, player: PlayerId) -> f64 {
        self.heuristic_value(state, player)
    }
    fn heuristics(&self, state: &State) -> Returns {
        self.heuristic_values(state)
    }
    fn feature_names() -> &'static [&'static str] {
        &features::FEATURES
    }
    fn eval_features(&self, state: &State, player: PlayerId, out: &mut [f64]) {
        self.features_into(state, player, out);
    }
    fn fitted_eval() -> Option<&'static str> {
        Some(features::FITTED)
    }

    fn named_evals() -> &'static [(&'static str, &'static str)] {
        &[("race", race::RACE)]
    }
}
