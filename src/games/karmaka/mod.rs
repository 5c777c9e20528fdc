//! Karmaka (Boxerman & Burke, 2015): a race up the Karmic Ladder through
//! successive lives. Rules: `shared/rules/karmaka.md` (see RULES.md here
//! for the interpretations made on top of it).

pub mod abilities;
pub mod cards;
pub mod determinize;
pub mod encoding;
pub mod features;
pub mod heuristic;
pub mod render;
pub mod rules;
pub mod scenario;
pub mod state;

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;
use std::sync::Mutex;

use arrayvec::ArrayVec;

use crate::error::SpecError;
use crate::game::{Evaluation, PlayerId, Reporting, Returns, Rules, Turn};
use crate::rng::{GameRng, below, shuffle, weighted_index};
use crate::spec::Params;

use cards::{CardSet, NCARDS};
pub use rules::{Actions, MAX_ACTIONS};
pub use scenario::Scenario;
pub use state::{Action, Phase, State};
use state::{MAXP, NONE, Pile, TRANSCENDED, bit};

/// Switches for the debatable readings of spec §7 (defaults = the spec's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches {
    /// Ambiguity 6: the bonus play is granted even when the ability did nothing.
    pub bonus_when_void: bool,
    /// Ambiguity 7: an Embody chain's victim is offered the card (else round-robin).
    pub embody_victim: bool,
    /// Ambiguity 10: in 4P, any-player wording may target the opposite player.
    pub opposite_targetable: bool,
    /// Ambiguity 11: in 2v2, Mimic may copy the ally's exposed Deed.
    pub mimic_ally: bool,
    /// Ambiguity 12: in Big Bad Wolf, any-player wording may target the partner.
    pub bbw_partner_target: bool,
    /// §3.2: in Big Bad Wolf, Beetles may play to the partner's Future Life.
    pub bbw_partner_future: bool,
    /// Ambiguity 5: Pass needs a non-empty Deck after the draw (else before it).
    pub pass_after_draw: bool,
    /// §4.11: deals (Longevity, rebirth) refill an empty Well from the Ruins.
    pub refill_on_deal: bool,
}

impl Default for Switches {
    fn default() -> Self {
        Switches {
            bonus_when_void: true,
            embody_victim: true,
            opposite_targetable: false,
            mimic_ally: false,
            bbw_partner_target: true,
            bbw_partner_future: false,
            pass_after_draw: true,
            refill_on_deal: true,
        }
    }
}

/// Boolean switches as (spec key, default, help).
pub const SWITCH_KEYS: [&str; 8] = [
    "bonus_when_void",
    "embody_victim",
    "opposite_targetable",
    "mimic_ally",
    "bbw_partner_target",
    "bbw_partner_future",
    "pass_after_draw",
    "refill_on_deal",
];

/// Every parameter key.
pub const PARAM_KEYS: [&str; 15] = [
    "players",
    "teams",
    "variant",
    "cards",
    "first",
    "max_plies",
    "bonus_when_void",
    "embody_victim",
    "opposite_targetable",
    "mimic_ally",
    "bbw_partner_target",
    "bbw_partner_future",
    "pass_after_draw",
    "refill_on_deal",
    "no_ability",
];

/// The rules with a configuration fixed.
#[derive(Clone, Debug)]
pub struct Karmaka {
    /// Number of seats (2–4).
    pub players: u8,
    /// 2v2 teams {P0,P2} vs {P1,P3}.
    pub teams: bool,
    /// Big Bad Wolf: seat 0 is the Wolf, seats 1 and 2 the Beetles.
    pub wolf: bool,
    /// Fixed first player, or random.
    pub first: Option<u8>,
    /// Main plays plus Limbo turns before the game is called a draw.
    pub max_plies: u32,
    /// Readings of the ambiguous rules.
    pub switches: Switches,
    /// The cards.
    pub cards: CardSet,
    cards_path: Option<String>,
    /// A card type that may not be played for its ability (`no_ability=CODE`),
    /// so that `boardlab ablate` can measure what the ability is worth.
    pub no_ability: Option<u8>,
    /// Metric names `played_<code>_<mode>` per card type and mode.
    played_names: Vec<[&'static str; 4]>,
}

/// A metric name with a static lifetime; each distinct name is allocated once
/// per process, however many games are built.
fn intern(name: String) -> &'static str {
    static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.get(name.as_str()) {
        return n;
    }
    let n: &'static str = Box::leak(name.into_boxed_str());
    names.insert(n);
    n
}

impl Karmaka {
    /// Builds the game from spec parameters.
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        let variant = params.choice("variant", 0, &["standard", "big-bad-wolf"])?;
        let wolf = variant == 1;
        let players = params.int("players", if wolf { 3 } else { 2 }, 2, 4)? as u8;
        let teams = params.bool("teams", false)?;
        if teams && players != 4 {
            return Err(SpecError::Invalid(format!(
                "karmaka: teams=true needs players=4 (got players={players})"
            )));
        }
        if wolf && players != 3 {
            return Err(SpecError::Invalid(format!(
                "karmaka: variant=big-bad-wolf is a 3-player game (got players={players})"
            )));
        }
        if wolf && teams {
            return Err(SpecError::Invalid(
                "karmaka: variant=big-bad-wolf cannot be combined with teams=true".into(),
            ));
        }
        let first = match params.text("first") {
            None => None,
            Some(v) if v == "random" => None,
            Some(v) => match v.parse::<u8>() {
                Ok(f) if f < players => Some(f),
                _ => {
                    return Err(SpecError::BadValue {
                        key: "first".into(),
                        value: v,
                        expected: format!("random or a seat from 0 to {}", players - 1),
                    });
                }
            },
        };
        let max_plies = params.int("max_plies", 2000, 10, 1_000_000)? as u32;
        let d = Switches::default();
        let switches = Switches {
            bonus_when_void: params.bool("bonus_when_void", d.bonus_when_void)?,
            embody_victim: params.bool("embody_victim", d.embody_victim)?,
            opposite_targetable: params.bool("opposite_targetable", d.opposite_targetable)?,
            mimic_ally: params.bool("mimic_ally", d.mimic_ally)?,
            bbw_partner_target: params.bool("bbw_partner_target", d.bbw_partner_target)?,
            bbw_partner_future: params.bool("bbw_partner_future", d.bbw_partner_future)?,
            pass_after_draw: params.bool("pass_after_draw", d.pass_after_draw)?,
            refill_on_deal: params.bool("refill_on_deal", d.refill_on_deal)?,
        };
        let cards_path = params.text("cards");
        let cards = CardSet::load(cards_path.as_deref())?;
        let no_ability = match params.text("no_ability") {
            None => None,
            Some(code) => Some(
                cards
                    .types
                    .iter()
                    .position(|t| t.code.eq_ignore_ascii_case(&code))
                    .ok_or_else(|| SpecError::BadValue {
                        key: "no_ability".into(),
                        value: code.clone(),
                        expected: format!(
                            "a card code: {}",
                            cards
                                .types
                                .iter()
                                .map(|t| t.code.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    })? as u8,
            ),
        };
        params.finish("karmaka", &PARAM_KEYS)?;
        let played_names = cards
            .types
            .iter()
            .map(|t| state::MODES.map(|m| intern(format!("played_{}_{m}", t.code.to_lowercase()))))
            .collect();
        Ok(Karmaka {
            played_names,
            players,
            teams,
            wolf,
            first,
            max_plies,
            switches,
            cards,
            cards_path,
            no_ability,
        })
    }

    /// Builds from spec text such as `karmaka(players=3)` (tests and tools).
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        let spec = crate::spec::Spec::parse(text)?;
        let mut params = spec.params;
        Self::from_params(&mut params)
    }

    /// An empty table: no cards anywhere, everybody on their starting rung,
    /// `active` to play. [`Scenario`] fills the piles.
    pub fn empty_state(&self, active: u8) -> State {
        let mut level = [0; MAXP];
        if self.wolf {
            level[0] = 2;
        }
        State {
            hands: Default::default(),
            decks: Default::default(),
            futures: Default::default(),
            deeds: Default::default(),
            ruins: Pile::new(),
            well: Pile::new(),
            well_top: ArrayVec::new(),
            aside: ArrayVec::new(),
            center: NONE,
            known: [0; NCARDS],
            level,
            rings: [0; MAXP],
            active,
            phase: Phase::Main,
            chain: 0,
            resolving: 0,
            victim: NONE,
            effect: false,
            bonus: false,
            drew: false,
            winner: NONE,
            plies: 0,
            steps: 0,
            tally: Default::default(),
        }
    }
}

impl Rules for Karmaka {
    type State = State;
    type Action = Action;
    /// See [`MAX_ACTIONS`] for the bound.
    type Actions = Actions;
    type InfoKey = determinize::InfoKey;

    fn spec(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let wolf_default = if self.wolf { 3 } else { 2 };
        if self.wolf {
            parts.push("variant=big-bad-wolf".into());
        }
        if self.players != wolf_default {
            parts.push(format!("players={}", self.players));
        }
        if self.teams {
            parts.push("teams=true".into());
        }
        if let Some(p) = &self.cards_path {
            parts.push(format!("cards={p}"));
        }
        if let Some(f) = self.first {
            parts.push(format!("first={f}"));
        }
        if self.max_plies != 2000 {
            parts.push(format!("max_plies={}", self.max_plies));
        }
        if let Some(t) = self.no_ability {
            parts.push(format!("no_ability={}", self.cards.types[t as usize].code));
        }
        let d = Switches::default();
        let s = self.switches;
        let pairs = [
            (s.bonus_when_void, d.bonus_when_void),
            (s.embody_victim, d.embody_victim),
            (s.opposite_targetable, d.opposite_targetable),
            (s.mimic_ally, d.mimic_ally),
            (s.bbw_partner_target, d.bbw_partner_target),
            (s.bbw_partner_future, d.bbw_partner_future),
            (s.pass_after_draw, d.pass_after_draw),
            (s.refill_on_deal, d.refill_on_deal),
        ];
        for (key, (v, dv)) in SWITCH_KEYS.iter().zip(pairs) {
            if v != dv {
                parts.push(format!("{key}={v}"));
            }
        }
        if parts.is_empty() {
            "karmaka".into()
        } else {
            format!("karmaka({})", parts.join(","))
        }
    }

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn side(&self, player: PlayerId) -> u8 {
        self.side_of(player)
    }

    fn max_actions(&self) -> usize {
        MAX_ACTIONS
    }

    fn max_game_length(&self) -> u32 {
        self.max_steps()
    }

    fn has_hidden_information(&self) -> bool {
        true
    }

    /// Shuffles the 64 cards, deals 4 to each Hand and then 2 to each Deck,
    /// and picks the first player; the rest of the Well stays an unordered
    /// pool whose draws are chance events.
    fn initial_state(&self, rng: &mut GameRng) -> State {
        let first = match self.first {
            Some(f) => f,
            None => below(rng, self.players as usize) as u8,
        };
        let mut s = self.empty_state(first);
        let mut order: ArrayVec<u8, NCARDS> = (0..NCARDS as u8).collect();
        shuffle(rng, &mut order);
        for p in 0..self.players {
            for _ in 0..4 {
                let c = order.pop().expect("64 cards");
                s.known[c as usize] = bit(p);
                state::insert_sorted(&mut s.hands[p as usize], c);
            }
        }
        for p in 0..self.players {
            for _ in 0..2 {
                let c = order.pop().expect("64 cards");
                s.decks[p as usize].push(c);
            }
        }
        s.well = order;
        s.well.sort_unstable();
        self.start_turn(&mut s);
        s.steps = 0;
        s
    }

    fn turn(&self, state: &State) -> Turn {
        self.turn_of(state)
    }

    fn legal_actions(&self, state: &State) -> Actions {
        self.legal(state)
    }

    fn legal_actions_into(&self, state: &State, out: &mut Actions) {
        self.legal_into(state, out);
    }

    /// Every card in exactly one place, rungs on the ladder, unused seats empty.
    fn check_invariants(&self, state: &State) -> Result<(), String> {
        if !Karmaka::conserved(state) {
            return Err("a card is missing or in two places".into());
        }
        if let Some(p) = state.level.iter().position(|&l| l > TRANSCENDED) {
            return Err(format!("player {p} above the top rung: {}", state.level[p]));
        }
        let players = self.players as usize;
        if (players..MAXP).any(|p| {
            !(state.hands[p].is_empty()
                && state.decks[p].is_empty()
                && state.futures[p].is_empty()
                && state.deeds[p].is_empty())
        }) {
            return Err("cards held by a seat that is not in the game".into());
        }
        Ok(())
    }
    fn apply(&self, state: &mut State, action: Action) {
        debug_assert!(
            self.turn_of(state) == Turn::Chance || self.legal(state).contains(&action),
            "illegal {action:?} in {:?}",
            state.phase
        );
        self.step(state, action);
    }

    /// One outcome per card type left in the pile drawn from, with probability
    /// proportional to its count: copies of a type are interchangeable, so
    /// this is the same distribution as per-card outcomes with a smaller tree.
    fn chance_outcomes(&self, state: &State) -> Vec<(Action, f64)> {
        let counts = self.chance_counts(state);
        let total: f64 = counts.iter().map(|&c| f64::from(c)).sum();
        counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(t, &c)| (Action::Chance(t as u8), f64::from(c) / total))
            .collect()
    }

    fn sample_chance(&self, state: &State, rng: &mut GameRng) -> Action {
        let counts = self.chance_counts(state);
        let t = weighted_index(rng, counts.iter().map(|&c| f64::from(c)));
        Action::Chance(t as u8)
    }

    fn determinize(&self, state: &State, observer: PlayerId, rng: &mut GameRng) -> State {
        self.determinize_for(state, observer, rng)
    }

    fn with_determinizer<R>(
        &self,
        state: &State,
        observer: PlayerId,
        body: impl FnOnce(&mut dyn FnMut(&mut GameRng) -> State) -> R,
    ) -> R {
        let undealt = self.undealt(state, observer);
        body(&mut |rng| self.deal(&undealt, rng))
    }

    fn info_key(&self, state: &State, observer: PlayerId) -> determinize::InfoKey {
        let (view, hidden) = self.view_masks(state, observer);
        determinize::InfoKey {
            observer,
            view,
            hidden,
        }
    }

    /// The transcending player's side gets 1, every other side −1; a game
    /// stopped by the ply cap is a draw (all 0).
    fn returns(&self, state: &State) -> Returns {
        (0..self.players)
            .map(|p| {
                if state.winner == NONE {
                    0.0
                } else if self.side_of(p) == self.side_of(state.winner) {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect()
    }

    /// Ended by the `max_plies` cap, which the rulebook does not have.
    fn truncated(&self, state: &State) -> bool {
        state.phase == Phase::Over && state.winner == state::NONE
    }
    fn ending(&self, state: &State) -> &'static str {
        if self.truncated(state) {
            crate::game::ENDING_CAP
        } else {
            "transcendence"
        }
    }
    fn endings(&self) -> &'static [&'static str] {
        &["transcendence", crate::game::ENDING_CAP]
    }
    fn with_cap(&self, cap: u32) -> Option<Self> {
        let mut g = self.clone();
        g.max_plies = cap.max(1);
        Some(g)
    }
}

impl Reporting for Karmaka {
    fn role(&self, _state: &State, player: PlayerId) -> String {
        match (self.wolf, player) {
            (false, _) => String::new(),
            (true, 0) => "wolf".into(),
            (true, _) => "pig".into(),
        }
    }

    /// See RULES.md, "Metrics".
    fn metrics(&self, state: &State, player: PlayerId) -> Vec<(&'static str, f64)> {
        let p = player as usize;
        let t = &state.tally;
        let played = &t.played[p];
        let mode = |m: usize| -> f64 { played.iter().map(|c| f64::from(c[m])).sum() };
        let face_down = t.face_down[p].map(f64::from);
        let transcended = state.winner == player;
        let rebirths = f64::from(t.deaths[p]) - f64::from(u8::from(transcended));
        let mut out = vec![
            ("rung", f64::from(state.level[p])),
            ("rings", f64::from(state.rings[p])),
            ("transcended", f64::from(u8::from(transcended))),
            ("lives", 1.0 + rebirths),
            ("reincarnations", rebirths),
            ("deaths", f64::from(t.deaths[p])),
            ("climbs", f64::from(t.climbs[p])),
            ("rings_gained", f64::from(t.rings_gained[p])),
            ("rings_spent", f64::from(t.rings_spent[p])),
            ("played", mode(0) + mode(1) + face_down[0] + face_down[1]),
            ("played_points", mode(0)),
            ("played_ability", mode(1)),
            ("played_future", face_down[0]),
            ("played_ally_future", face_down[1]),
            ("bonus_granted", f64::from(t.bonus_granted[p])),
            ("bonus_plays", f64::from(t.bonus_plays[p])),
            ("copies", f64::from(t.copies[p])),
        ];
        for (names, counts) in self.played_names.iter().zip(played) {
            for (name, &n) in names.iter().zip(counts) {
                if n > 0 {
                    out.push((*name, f64::from(n)));
                }
            }
        }
        out
    }

    /// Each card type's ability, forbidden through `no_ability`; its players
    /// are the seats that played it for its ability.
    fn ablations(&self) -> Vec<crate::game::Ablation> {
        self.cards
            .types
            .iter()
            .map(|t| crate::game::Ablation {
                component: format!("{} ability", t.code),
                param: ("no_ability".into(), t.code.clone()),
                holder_metric: format!("played_{}_ability", t.code.to_lowercase()),
            })
            .collect()
    }

    /// The rung reached (4 = Transcendence).
    fn score(&self, state: &State, player: PlayerId) -> f64 {
        f64::from(state.level[player as usize])
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

/// A move of a card the observer does not see: it sees only the kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HiddenMove {
    Future,
    AllyFuture,
    Position,
    FromWell,
    /// A card of this seat's Hand is shown (to someone else).
    Shown(u8),
    Unseen,
    Pick,
}

impl HiddenMove {
    fn label(self) -> String {
        match self {
            HiddenMove::Future => "put a card face down on their Future Life".into(),
            HiddenMove::AllyFuture => "put a card face down on their ally's Future Life".into(),
            HiddenMove::Position => "take a Future Life card".into(),
            HiddenMove::FromWell => "a card is taken from the Well".into(),
            HiddenMove::Shown(v) => format!("a card of P{v}'s Hand is shown"),
            HiddenMove::Unseen => "a card moves unseen".into(),
            HiddenMove::Pick => "pick a card unseen".into(),
        }
    }

    /// One number per label.
    fn key(self) -> u64 {
        match self {
            HiddenMove::Future => 0,
            HiddenMove::AllyFuture => 1,
            HiddenMove::Position => 2,
            HiddenMove::FromWell => 3,
            HiddenMove::Unseen => 4,
            HiddenMove::Pick => 5,
            HiddenMove::Shown(v) => 6 + u64::from(v),
        }
    }
}

impl Karmaka {
    /// `None` (the full label) unless the action moves a card between two
    /// face-down places that the observer does not know it in afterwards
    /// (Deeds, Ruins and the card in the centre are face up; elsewhere
    /// `known` says who knows a card's place).
    fn hidden_move(&self, state: &State, action: Action, observer: PlayerId) -> Option<HiddenMove> {
        fn places(s: &State) -> [u8; NCARDS] {
            let mut at = [u8::MAX; NCARDS];
            let mut put = |pile: &[u8], place: usize| {
                for &c in pile {
                    if let Some(x) = at.get_mut(c as usize) {
                        *x = place as u8;
                    }
                }
            };
            for p in 0..MAXP {
                put(&s.hands[p], p);
                put(&s.decks[p], 10 + p);
                put(&s.futures[p], 20 + p);
                put(&s.deeds[p], 30 + p);
            }
            put(&s.ruins, 40);
            put(&s.well, 41);
            put(&s.well_top, 42);
            put(&s.aside, 43);
            if s.center != NONE {
                put(&[s.center], 44);
            }
            at
        }
        let mut after = state.clone();
        self.apply(&mut after, action);
        let (from, to) = (places(state), places(&after));
        let face_up = |place: u8| (30..=40).contains(&place) || place == 44;
        // Knowing a card before is not enough: copies of a type are alike, so
        // which one moved shows only in what the observer knows afterwards.
        let unseen = (0..NCARDS).any(|c| {
            from[c] != to[c]
                && !face_up(from[c])
                && !face_up(to[c])
                && after.known[c] & bit(observer) == 0
        });
        if !unseen {
            return None;
        }
        Some(match action {
            Action::Future(_) => HiddenMove::Future,
            Action::AllyFuture(_) => HiddenMove::AllyFuture,
            Action::Position(_) => HiddenMove::Position,
            Action::Chance(_) => match state.phase {
                state::Phase::Drawing(..) => HiddenMove::FromWell,
                state::Phase::SwindleChance(v, _) => HiddenMove::Shown(v),
                _ => HiddenMove::Unseen,
            },
            _ => HiddenMove::Pick,
        })
    }
}

impl Evaluation for Karmaka {
    fn heuristic(&self, state: &State, player: PlayerId) -> f64 {
        self.evaluate(state, player)
    }

    fn heuristics(&self, state: &State) -> Returns {
        self.evaluate_all(state)
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
}
