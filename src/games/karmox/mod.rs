//! Karmox la Fuga (Sergio Fersini): 2–6 cloned prisoners race for missions and
//! XP, then escape through the magic portal. Rules: `shared/rules/karmox.md`,
//! with the further interpretations listed in `RULES.md` next to this file.
//!
//! Components are data (`*.json` here, each replaceable by a parameter); the
//! state is fixed-size plain data; every die and mission draw is a chance node.

pub mod combat;
pub mod data;
pub mod determinize;
pub mod encoding;
pub mod features;
pub mod heuristic;
pub mod invariants;
pub mod missions;
pub mod movement;
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

pub use data::Components;
pub use scenario::Scenario;
pub use state::{Action, State};

/// Legal-action capacity. The largest lists are destination and anchor choices
/// (at most the walkable squares, validated ≤ 250, plus Pass); the action phase
/// holds at most 3 own characters × (move, equip, 4 give, 4 attack, 15
/// teleports, portal, potions, 3 tomes) + 6 liberations + end = 97; steals ≤ 48
/// tiles + none; activations ≤ 48 tiles × 3 cells + decline = 145; a potion or
/// tome pair choice ≤ 48 tiles.
pub const MAX_ACTIONS: usize = 256;

/// The legal actions of one state.
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// The configurations of spec 1.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `P2`: blue player against red player.
    P2,
    /// `P3_CLONES`: each player runs a clone pair.
    P3Clones,
    /// `P4_SOLO` / `P5_SOLO` / `P6_SOLO`: one character each.
    Solo,
    /// `P4_TEAMS` / `P6_TEAMS2`: a blue team against a red team.
    Teams,
    /// `P6_TEAMS3_CLONES`: three teams of clone pairs.
    Teams3Clones,
}

/// The game value: components, configuration, seat assignment.
#[derive(Clone, Debug)]
pub struct Karmox {
    /// Component data (shared, immutable).
    pub c: Arc<Components>,
    /// Number of seats.
    pub n: usize,
    /// Configuration.
    pub mode: Mode,
    /// Seat controlling each character, 255 when unused.
    pub char_seat: [u8; 6],
    /// Side of each seat.
    pub seat_side: [u8; 6],
    /// Number of sides.
    pub n_sides: usize,
    /// Fixed first seat, or None for the roll-off.
    pub first: Option<u8>,
    /// Turn cap in rounds.
    pub max_rounds: u16,
    /// Canonical spec text.
    pub spec_text: String,
}

/// Parameter keys.
pub const PARAMS: &[&str] = &[
    "players",
    "mode",
    "chars",
    "first",
    "max_rounds",
    "board",
    "characters",
    "items",
    "events",
    "missions",
];

impl Karmox {
    /// Builds the game from spec parameters.
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        let n = params.int("players", 2, 2, 6)? as usize;
        let mode_word = params.raw("mode");
        let mode = Self::mode_of(n, mode_word.as_deref())?;
        let chars_text = params.text("chars");
        let (char_seat, seat_side) = Self::seating(mode, n, chars_text.as_deref())?;
        let n_sides = (0..n).map(|p| seat_side[p]).max().unwrap() as usize + 1;
        let first = Self::first_seat(params, n)?;
        let max_rounds = params.int("max_rounds", 100, 1, 1000)? as u16;
        let paths = data::DataPaths {
            board: params.text("board"),
            characters: params.text("characters"),
            items: params.text("items"),
            events: params.text("events"),
            missions: params.text("missions"),
        };
        let comps = data::load_components(&paths)?;
        params.finish("karmox", PARAMS)?;
        let spec_text = Self::spec_text(n, mode_word, chars_text, first, max_rounds, &paths);
        Ok(Karmox {
            c: Arc::new(comps),
            n,
            mode,
            char_seat,
            seat_side,
            n_sides,
            first,
            max_rounds,
            spec_text,
        })
    }

    /// The mode for `n` players from the `mode` word (or the spec's mode id,
    /// an alias), the player count's default when none is given.
    fn mode_of(n: usize, mode_word: Option<&str>) -> Result<Mode, SpecError> {
        // The spec's mode ids are accepted as aliases of the short words.
        let word = mode_word.map(|m| match (n, m) {
            (2, "P2") | (4, "P4_SOLO") | (5, "P5_SOLO") | (6, "P6_SOLO") => "solo",
            (3, "P3_CLONES") | (6, "P6_TEAMS3_CLONES") => "clones",
            (4, "P4_TEAMS") | (6, "P6_TEAMS2") => "teams",
            _ => m,
        });
        Ok(match (n, word) {
            (2, None | Some("solo")) => Mode::P2,
            (3, None | Some("clones")) => Mode::P3Clones,
            (4..=6, None | Some("solo")) => Mode::Solo,
            (4 | 6, Some("teams")) => Mode::Teams,
            (6, Some("clones")) => Mode::Teams3Clones,
            (_, Some(m)) => {
                let allowed = match n {
                    2 => "solo",
                    3 => "clones",
                    4 => "solo, teams",
                    5 => "solo",
                    _ => "solo, teams, clones",
                };
                return Err(SpecError::BadValue {
                    key: "mode".into(),
                    value: m.into(),
                    expected: format!("for players={n}: {allowed}"),
                });
            }
            _ => unreachable!("players is 2..=6"),
        })
    }

    /// Which seat plays each character, and each seat's side: fixed in the
    /// two- and three-player modes, else from the `chars` list.
    fn seating(
        mode: Mode,
        n: usize,
        chars_text: Option<&str>,
    ) -> Result<([u8; 6], [u8; 6]), SpecError> {
        let mut char_seat = [255u8; 6];
        let mut seat_side = [0u8; 6];
        match mode {
            Mode::P2 | Mode::P3Clones => {
                if chars_text.is_some() {
                    return Err(SpecError::Invalid(
                        "chars= applies only to modes with one character per player".into(),
                    ));
                }
                for (c, seat) in char_seat.iter_mut().enumerate() {
                    // P2: seat 0 blue (even ids), seat 1 red; P3: one kind pair each.
                    *seat = if mode == Mode::P2 {
                        (c % 2) as u8
                    } else {
                        (c / 2) as u8
                    };
                }
                for (p, side) in seat_side.iter_mut().enumerate().take(n) {
                    *side = p as u8;
                }
            }
            _ => Self::seats_from_chars(mode, n, chars_text, &mut char_seat, &mut seat_side)?,
        }
        Ok((char_seat, seat_side))
    }

    /// Seats and sides from the `chars` list (one character per seat, the
    /// mode's default list when none is given): in teams the colours make
    /// the sides, with clones the character kinds.
    fn seats_from_chars(
        mode: Mode,
        n: usize,
        chars_text: Option<&str>,
        char_seat: &mut [u8; 6],
        seat_side: &mut [u8; 6],
    ) -> Result<(), SpecError> {
        let idx = |s: &str| data::char_index(s).unwrap();
        let default = match (mode, n) {
            (Mode::Solo, 4) => "MGa-GRb-GKa-MGb",
            (Mode::Solo, 5) => "MGa-MGb-GRa-GRb-GKa",
            (Mode::Solo, _) => "MGa-MGb-GRa-GRb-GKa-GKb",
            (Mode::Teams, 4) => "GKa-MGb-GRa-GRb",
            (Mode::Teams, _) => "MGa-MGb-GRa-GRb-GKa-GKb",
            _ => "MGa-GRa-GKa-MGb-GRb-GKb",
        };
        let text = chars_text.map_or_else(|| default.to_string(), str::to_string);
        let list: Vec<&str> = text.split('-').collect();
        let bad = |why: String| SpecError::BadValue {
            key: "chars".into(),
            value: text.clone(),
            expected: why,
        };
        if list.len() != n {
            return Err(bad(format!(
                "{n} distinct character ids joined by '-', e.g. {default}"
            )));
        }
        for (p, id) in list.iter().enumerate() {
            let Some(c) = data::char_index(id) else {
                return Err(bad("ids among MGa, MGb, GRa, GRb, GKa, GKb".into()));
            };
            if char_seat[c] != 255 {
                return Err(bad(format!("{id} is listed twice")));
            }
            char_seat[c] = p as u8;
        }
        match mode {
            Mode::Solo => {
                for (p, side) in seat_side.iter_mut().enumerate().take(n) {
                    *side = p as u8;
                }
            }
            Mode::Teams => {
                let blue = list.iter().filter(|id| idx(id) % 2 == 0).count();
                if blue * 2 != n {
                    return Err(bad(format!(
                        "teams need {} blue (…a) and {} red (…b) characters",
                        n / 2,
                        n / 2
                    )));
                }
                // Side 0 is the team of seat 0.
                let c0 = data::colour_of(idx(list[0]));
                for (p, id) in list.iter().enumerate() {
                    seat_side[p] = u8::from(data::colour_of(idx(id)) != c0);
                }
            }
            _ => {
                let k0 = idx(list[0]) / 2;
                let mut order = vec![k0];
                for (p, id) in list.iter().enumerate() {
                    let k = idx(id) / 2;
                    if !order.contains(&k) {
                        order.push(k);
                    }
                    seat_side[p] = order.iter().position(|&x| x == k).unwrap() as u8;
                }
            }
        }
        Ok(())
    }

    /// The seat that moves first: `random` (none fixed) or a seat number.
    fn first_seat(params: &mut Params, n: usize) -> Result<Option<u8>, SpecError> {
        Ok(match params.raw("first").as_deref() {
            None | Some("random") => None,
            Some(v) => match v.parse::<u8>() {
                Ok(x) if (x as usize) < n => Some(x),
                _ => {
                    return Err(SpecError::BadValue {
                        key: "first".into(),
                        value: v.into(),
                        expected: format!("random or a seat 0..{}", n - 1),
                    });
                }
            },
        })
    }

    /// The canonical spec text: the player count, then every parameter
    /// given (or not at its default).
    fn spec_text(
        n: usize,
        mode_word: Option<String>,
        chars_text: Option<String>,
        first: Option<u8>,
        max_rounds: u16,
        paths: &data::DataPaths,
    ) -> String {
        let mut parts = vec![format!("players={n}")];
        if let Some(m) = mode_word {
            parts.push(format!("mode={m}"));
        }
        if let Some(c) = chars_text {
            parts.push(format!("chars={c}"));
        }
        if let Some(f) = first {
            parts.push(format!("first={f}"));
        }
        if max_rounds != 100 {
            parts.push(format!("max_rounds={max_rounds}"));
        }
        for (k, v) in [
            ("board", &paths.board),
            ("characters", &paths.characters),
            ("items", &paths.items),
            ("events", &paths.events),
            ("missions", &paths.missions),
        ] {
            if let Some(v) = v {
                parts.push(format!("{k}={v}"));
            }
        }
        format!("karmox({})", parts.join(","))
    }

    /// Builds from spec text such as `players=4,mode=teams` (tests, tools).
    pub fn parse(args: &str) -> Result<Self, SpecError> {
        let spec = crate::spec::Spec::parse(&format!("karmox({args})"))?;
        let mut params = spec.params;
        Self::from_params(&mut params)
    }

    /// True in the team modes (liberation applies).
    pub fn teams(&self) -> bool {
        matches!(self.mode, Mode::Teams | Mode::Teams3Clones)
    }

    /// Side of a character in play.
    pub fn side_of_char(&self, ch: usize) -> u8 {
        self.seat_side[self.char_seat[ch] as usize]
    }

    /// Characters controlled by a seat.
    pub fn seat_chars(&self, seat: usize) -> impl Iterator<Item = usize> + '_ {
        (0..6).filter(move |&c| self.char_seat[c] as usize == seat)
    }

    /// Characters of a side.
    pub fn side_chars(&self, side: u8) -> impl Iterator<Item = usize> + '_ {
        (0..6).filter(move |&c| self.char_seat[c] != 255 && self.side_of_char(c) == side)
    }

    /// Which skittle the seat moves (spec 1.4): colour in even games, shared in odd.
    pub fn skittle_of(&self, seat: usize) -> usize {
        if self.n % 2 == 1 {
            0
        } else {
            self.seat_chars(seat)
                .next()
                .map_or(0, |c| data::colour_of(c) as usize)
        }
    }
}

impl Rules for Karmox {
    type State = State;
    type Action = Action;
    type Actions = Actions;
    type InfoKey = determinize::InfoKey;

    fn spec(&self) -> String {
        self.spec_text.clone()
    }
    fn num_players(&self) -> usize {
        self.n
    }
    fn side(&self, player: PlayerId) -> u8 {
        self.seat_side[player as usize]
    }
    fn max_actions(&self) -> usize {
        MAX_ACTIONS
    }
    fn max_game_length(&self) -> u32 {
        // Setup ≤ 13 steps; a turn is a die, ≤ 6 event-phase steps, ≤ 3 actions of
        // ≤ 12 steps each plus free actions and draws; 400 leaves room for ties.
        u32::from(self.max_rounds) * self.n as u32 * 400 + 100
    }
    fn has_hidden_information(&self) -> bool {
        true
    }
    fn initial_state(&self, _rng: &mut GameRng) -> State {
        self.setup_state()
    }
    fn turn(&self, s: &State) -> Turn {
        self.turn_of(s)
    }
    fn legal_actions(&self, s: &State) -> Actions {
        let mut out = Actions::new();
        self.legal_into(s, &mut out);
        out
    }
    fn legal_actions_into(&self, s: &State, out: &mut Actions) {
        out.clear();
        self.legal_into(s, out);
    }
    fn apply(&self, s: &mut State, a: Action) {
        self.apply_action(s, a)
    }
    /// Ended by the `max_rounds` turn cap (A29), the only way to a draw.
    fn truncated(&self, s: &State) -> bool {
        s.phase == state::Phase::Over && s.result == state::DRAW
    }
    fn ending(&self, s: &State) -> &'static str {
        if self.truncated(s) {
            crate::game::ENDING_CAP
        } else {
            "portal"
        }
    }
    fn endings(&self) -> &'static [&'static str] {
        &["portal", crate::game::ENDING_CAP]
    }
    fn with_cap(&self, cap: u32) -> Option<Self> {
        let mut g = self.clone();
        g.max_rounds = cap.clamp(1, u32::from(u16::MAX)) as u16;
        Some(g)
    }
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        self.invariants(s)
    }
    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        self.chances(s)
    }
    fn sample_chance(&self, s: &State, rng: &mut GameRng) -> Action {
        self.sample(s, rng)
    }
    fn determinize(&self, s: &State, observer: PlayerId, rng: &mut GameRng) -> State {
        self.determinize_state(s, observer, rng)
    }
    fn info_key(&self, s: &State, observer: PlayerId) -> determinize::InfoKey {
        self.info(s, observer)
    }
    fn returns(&self, s: &State) -> Returns {
        let mut r = Returns::new();
        for p in 0..self.n {
            let side = self.seat_side[p];
            r.push(match s.result {
                state::DRAW => 1.0 / self.n_sides as f64,
                w if w == side => 1.0,
                state::NO_RESULT => 0.0,
                _ => 0.0,
            });
        }
        r
    }
}

impl Reporting for Karmox {
    fn role(&self, _state: &State, player: PlayerId) -> String {
        self.seat_chars(player as usize)
            .map(|c| data::CHAR_IDS[c])
            .collect::<Vec<_>>()
            .join("+")
    }
    /// See RULES.md, "Metrics".
    fn metrics(&self, s: &State, player: PlayerId) -> Vec<(&'static str, f64)> {
        let seat = player as usize;
        let t = &s.tally;
        let chars =
            |per: &[u16; 6]| -> f64 { self.seat_chars(seat).map(|c| f64::from(per[c])).sum() };
        let xp_permanent = f64::from(s.xp[self.seat_side[seat] as usize]);
        let xp_items = self
            .seat_chars(seat)
            .map(|c| self.xp_items(s, c))
            .sum::<usize>() as f64;
        vec![
            ("missions_completed", f64::from(t.missions[seat])),
            ("mission_xp", f64::from(t.mission_xp[seat])),
            ("xp_permanent", xp_permanent),
            ("xp_items", xp_items),
            ("xp_total", xp_permanent + xp_items),
            ("attacks", chars(&t.attacks)),
            ("fights_won", chars(&t.fights_won)),
            ("fights_lost", chars(&t.fights_lost)),
            ("defeats", chars(&t.defeats)),
            ("imprisoned", chars(&t.imprisoned)),
            ("prison_turns", chars(&t.prison_turns)),
            ("items_equipped", chars(&t.equipped)),
            ("items_stolen", chars(&t.stolen)),
            ("skeletors_summoned", f64::from(t.summoned[seat])),
            ("skeletors_eliminated", chars(&t.skeletors_eliminated)),
        ]
    }
    fn rounds(&self, s: &State) -> Option<u32> {
        Some(u32::from(s.round))
    }
    /// The roll-off's winner (setup decisions come before it).
    fn first_player(&self, s: &State) -> Option<PlayerId> {
        (!s.setup).then_some(s.first)
    }
    /// Permanent XP of the seat's side (the first key of the ranked variant).
    fn score(&self, s: &State, player: PlayerId) -> f64 {
        f64::from(s.xp[self.seat_side[player as usize] as usize])
    }
    fn render(&self, s: &State, viewer: Option<PlayerId>) -> String {
        self.render_text(s, viewer)
    }
    fn action_label(&self, s: &State, a: Action) -> String {
        self.label(s, a)
    }
    fn action_label_for(&self, s: &State, a: Action, observer: PlayerId) -> String {
        self.label_for(s, a, observer)
    }
    /// Only a mission drawn by the other side is unseen (see `label_for`).
    fn observed_move(&self, s: &State, a: Action, observer: PlayerId) -> Option<u64> {
        match (s.phase, a) {
            (state::Phase::Drawing, Action::Draw(_))
                if s.draw_side != self.seat_side[observer as usize] =>
            {
                Some(u64::from(s.draw_side))
            }
            _ => None,
        }
    }
}

impl Evaluation for Karmox {
    fn heuristic(&self, s: &State, player: PlayerId) -> f64 {
        self.evaluate(s, player)
    }
    fn heuristics(&self, s: &State) -> Returns {
        self.evaluate_all(s)
    }
    fn feature_names() -> &'static [&'static str] {
        &features::FEATURES
    }
    fn eval_features(&self, s: &State, player: PlayerId, out: &mut [f64]) {
        self.features_into(s, player, out);
    }
    fn fitted_eval() -> Option<&'static str> {
        Some(features::FITTED)
    }
}
