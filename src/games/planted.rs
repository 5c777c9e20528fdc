//! Planted: a two-player calibration game whose balance answers are known in
//! closed form, so that the balance, compensation and ablation methods can be
//! checked against the truth.
//!
//! 1. Chance deals the one card to seat 0 or seat 1 (½ each).
//! 2. Seat 0, then seat 1, plays *bold* or *timid* (the only decisions).
//! 3. Chance decides the winner: seat 0 wins with probability
//!    `q = p·(1 − komi) + card·(h₀ − h₁) + skill·(b₀ − b₁)`,
//!    where `hᵢ` is 1 for the card's holder and `bᵢ` is 1 for a bold seat.
//!
//! Known answers: between identical agents seat 0 wins `p·(1 − komi)` (the card
//! goes to either seat and both seats play alike); the card raises its holder's
//! win chance by exactly `card` (the ablation `card=0` neutralises it); the
//! fair compensation is `komi = 1 − 1/(2p)` (defined for p ≥ ½); and bold play
//! wins `skill` more, so a better agent wins more. The last draw is one uniform
//! number compared with `q`, so duplicate deals give both seatings the same luck.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::error::SpecError;
use crate::game::{Ablation, Evaluation, PlayerId, Reporting, Returns, Rules, Turn};
use crate::rng::{GameRng, below, unit};
use crate::spec::Params;

/// Not dealt, not chosen, not decided.
const NONE: u8 = u8::MAX;
/// A seat's decision: play safe.
pub const TIMID: u8 = 0;
/// A seat's decision: play well (adds `skill` to the seat's win chance).
pub const BOLD: u8 = 1;

/// The rules: the planted quantities.
#[derive(Clone, Debug, PartialEq)]
pub struct Planted {
    /// Seat 0's win chance between equal agents without compensation.
    pub p: f64,
    /// What holding the card adds to its holder's win chance.
    pub card: f64,
    /// What bold play adds to the seat's win chance.
    pub skill: f64,
    /// Compensation: seat 0's base chance is `p·(1 − komi)`.
    pub komi: f64,
}

impl Default for Planted {
    fn default() -> Self {
        Planted {
            p: 0.6,
            card: 0.15,
            skill: 0.1,
            komi: 0.0,
        }
    }
}

/// The deal, the two decisions and the winner.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// The seat holding the card, `NONE` before the deal.
    pub holder: u8,
    /// Each seat's decision (`TIMID`/`BOLD`), `NONE` before it.
    pub choices: [u8; 2],
    /// The winning seat, `NONE` before the last draw.
    pub winner: u8,
}

/// A decision (`TIMID`/`BOLD`) or a chance outcome: the holder dealt, then the winner.
pub type Action = u8;

/// The parameter keys.
const KEYS: [&str; 4] = ["p", "card", "skill", "komi"];

impl Planted {
    /// Builds the game; every combination must keep the win chance in [0, 1].
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        let d = Planted::default();
        let g = Planted {
            p: params.float("p", d.p, 0.0, 1.0)?,
            card: params.float("card", d.card, 0.0, 0.5)?,
            skill: params.float("skill", d.skill, 0.0, 0.5)?,
            komi: params.float("komi", d.komi, 0.0, 1.0)?,
        };
        params.finish("planted", &KEYS)?;
        let base = g.p * (1.0 - g.komi);
        if base - g.card - g.skill < 0.0 || base + g.card + g.skill > 1.0 {
            return Err(SpecError::Invalid(format!(
                "planted: p*(1-komi) = {base} plus or minus card + skill = {} leaves 0..1; \
                 choose smaller card or skill",
                g.card + g.skill
            )));
        }
        Ok(g)
    }

    /// Seat 0's win chance once both seats have decided (an undecided seat
    /// counts as bold half the time, an undealt card as nobody's).
    pub fn seat0_chance(&self, s: &State) -> f64 {
        let held = match s.holder {
            0 => 1.0,
            1 => -1.0,
            _ => 0.0,
        };
        let bold = |c: u8| match c {
            BOLD => 1.0,
            TIMID => 0.0,
            _ => 0.5,
        };
        self.p * (1.0 - self.komi)
            + self.card * held
            + self.skill * (bold(s.choices[0]) - bold(s.choices[1]))
    }

    /// The closed-form fair `komi` (seat 0 wins half its games), for p ≥ ½.
    pub fn fair_komi(&self) -> f64 {
        1.0 - 1.0 / (2.0 * self.p)
    }
}

impl Rules for Planted {
    type State = State;
    type Action = Action;
    /// Timid and bold; at chance nodes two outcomes.
    type Actions = ArrayVec<Action, 2>;
    type InfoKey = State;

    fn spec(&self) -> String {
        let d = Planted::default();
        let parts: Vec<String> = [
            ("p", self.p, d.p),
            ("card", self.card, d.card),
            ("skill", self.skill, d.skill),
            ("komi", self.komi, d.komi),
        ]
        .iter()
        .filter(|(_, v, def)| v != def)
        .map(|(k, v, _)| format!("{k}={v}"))
        .collect();
        if parts.is_empty() {
            "planted".into()
        } else {
            format!("planted({})", parts.join(","))
        }
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        2
    }
    /// The deal, two decisions, the winner.
    fn max_game_length(&self) -> u32 {
        4
    }
    fn has_hidden_information(&self) -> bool {
        false
    }
    fn initial_state(&self, _rng: &mut GameRng) -> State {
        State {
            holder: NONE,
            choices: [NONE; 2],
            winner: NONE,
        }
    }
    fn turn(&self, s: &State) -> Turn {
        if s.holder == NONE {
            Turn::Chance
        } else if s.choices[0] == NONE {
            Turn::Player(0)
        } else if s.choices[1] == NONE {
            Turn::Player(1)
        } else if s.winner == NONE {
            Turn::Chance
        } else {
            Turn::Terminal
        }
    }
    fn legal_actions(&self, s: &State) -> Self::Actions {
        let mut out = ArrayVec::new();
        if let Turn::Player(_) = self.turn(s) {
            out.push(TIMID);
            out.push(BOLD);
        }
        out
    }
    fn apply(&self, s: &mut State, action: Action) {
        debug_assert!(action <= 1);
        match self.turn(s) {
            Turn::Player(p) => s.choices[p as usize] = action,
            Turn::Chance if s.holder == NONE => s.holder = action,
            Turn::Chance => s.winner = action,
            Turn::Terminal => debug_assert!(false, "action after the end"),
        }
    }
    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        if s.holder == NONE {
            vec![(0, 0.5), (1, 0.5)]
        } else {
            let q = self.seat0_chance(s);
            vec![(0, q), (1, 1.0 - q)]
        }
    }
    /// The winner is one uniform draw against seat 0's chance, so the same
    /// chance stream gives the same luck whoever sits where.
    fn sample_chance(&self, s: &State, rng: &mut GameRng) -> Action {
        if s.holder == NONE {
            below(rng, 2) as Action
        } else {
            u8::from(unit(rng) >= self.seat0_chance(s))
        }
    }
    fn determinize(&self, s: &State, _observer: PlayerId, _rng: &mut GameRng) -> State {
        s.clone()
    }
    fn info_key(&self, s: &State, _observer: PlayerId) -> State {
        s.clone()
    }
    fn returns(&self, s: &State) -> Returns {
        match s.winner {
            0 => [1.0, -1.0].into_iter().collect(),
            1 => [-1.0, 1.0].into_iter().collect(),
            _ => [0.0, 0.0].into_iter().collect(),
        }
    }
    /// Deal first, then seat 0, then seat 1, then the winner, each once.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let set = |v: u8| v != NONE;
        let valid = |v: u8| v == NONE || v <= 1;
        if !valid(s.holder) || !s.choices.iter().all(|&c| valid(c)) || !valid(s.winner) {
            return Err(format!("values out of range: {s:?}"));
        }
        let order = [
            set(s.holder),
            set(s.choices[0]),
            set(s.choices[1]),
            set(s.winner),
        ];
        if order.windows(2).any(|w| !w[0] && w[1]) {
            return Err(format!("steps out of order: {s:?}"));
        }
        Ok(())
    }
}

impl Reporting for Planted {
    /// The card's holder against the other seat.
    fn role(&self, s: &State, player: PlayerId) -> String {
        if s.holder == player { "card" } else { "plain" }.into()
    }
    /// Who holds the card and who played bold: the ablation reads `card`.
    fn metrics(&self, s: &State, player: PlayerId) -> Vec<(&'static str, f64)> {
        let p = player as usize;
        vec![
            ("card", f64::from(u8::from(s.holder == player))),
            ("bold", f64::from(u8::from(s.choices[p] == BOLD))),
        ]
    }
    fn render(&self, s: &State, _viewer: Option<PlayerId>) -> String {
        let word = |c: u8| match c {
            BOLD => "bold",
            TIMID => "timid",
            _ => "-",
        };
        let holder = match s.holder {
            NONE => "-".to_string(),
            h => format!("P{h}"),
        };
        let winner = match s.winner {
            NONE => "-".to_string(),
            w => format!("P{w}"),
        };
        format!(
            "card: {holder}  P0 {}  P1 {}  winner: {winner}\n",
            word(s.choices[0]),
            word(s.choices[1])
        )
    }
    fn action_label(&self, s: &State, action: Action) -> String {
        match self.turn(s) {
            Turn::Chance if s.holder == NONE => format!("deal the card to P{action}"),
            Turn::Chance => format!("P{action} wins"),
            _ if action == BOLD => "bold".into(),
            _ => "timid".into(),
        }
    }
    /// The card neutralised (its holder still recorded).
    fn ablations(&self) -> Vec<Ablation> {
        vec![Ablation {
            component: "card".into(),
            param: ("card".into(), "0".into()),
            holder_metric: "card".into(),
        }]
    }
}

impl Evaluation for Planted {
    /// The expected return: exact once both seats decided.
    fn heuristic(&self, s: &State, player: PlayerId) -> f64 {
        if self.turn(s) == Turn::Terminal {
            return self.returns(s)[player as usize];
        }
        let q = self.seat0_chance(s);
        let v = 2.0 * q - 1.0;
        if player == 0 { v } else { -v }
    }
}

/// Action index = the action (0 or 1) in every context. Observation, from the
/// seat's side: holds the card, the rival holds it, own choice bold, own
/// choice timid, rival bold, rival timid (everything is public).
impl crate::game::encoding::Encode for Planted {
    fn num_distinct_actions(&self) -> u32 {
        2
    }
    fn action_index(&self, _s: &State, action: Action) -> u32 {
        action.into()
    }
    fn action_from_index(&self, _s: &State, index: u32) -> Option<Action> {
        (index < 2).then_some(index as u8)
    }
    fn information_string(&self, s: &State, _player: PlayerId) -> String {
        self.render(s, None)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![6]
    }
    fn observation_tensor(&self, s: &State, player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        let (me, rival) = (player as usize, 1 - player as usize);
        let f = |b: bool| f32::from(u8::from(b));
        out.extend([
            f(s.holder == me as u8),
            f(s.holder == rival as u8),
            f(s.choices[me] == BOLD),
            f(s.choices[me] == TIMID),
            f(s.choices[rival] == BOLD),
            f(s.choices[rival] == TIMID),
        ]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::conformance;

    #[test]
    fn conformance() {
        conformance::check(&Planted::default(), conformance::Config::default());
    }

    /// The exact chance tree gives seat 0 `p·(1 − komi)` when both seats play
    /// alike, the holder `card` more than without it, and a bold seat `skill` more.
    #[test]
    fn closed_form_answers_hold_on_the_exact_tree() {
        let g = Planted {
            komi: 0.1,
            ..Planted::default()
        };
        // Seat 0's exact win chance with both seats playing `c`, holder `h`.
        let win0 = |g: &Planted, h: u8, c: [u8; 2]| {
            let mut s = g.initial_state(&mut crate::rng::rng_from_seed(1));
            g.apply(&mut s, h);
            g.apply(&mut s, c[0]);
            g.apply(&mut s, c[1]);
            g.chance_outcomes(&s)[0].1
        };
        for c in [[TIMID, TIMID], [BOLD, BOLD]] {
            let mean = (win0(&g, 0, c) + win0(&g, 1, c)) / 2.0;
            assert!((mean - 0.6 * 0.9).abs() < 1e-12);
        }
        let off = Planted {
            card: 0.0,
            ..g.clone()
        };
        let c = [BOLD, BOLD];
        assert!((win0(&g, 0, c) - win0(&off, 0, c) - 0.15).abs() < 1e-12);
        assert!(((1.0 - win0(&g, 1, c)) - (1.0 - win0(&off, 1, c)) - 0.15).abs() < 1e-12);
        assert!((win0(&g, 0, [BOLD, TIMID]) - win0(&g, 0, [TIMID, TIMID]) - 0.1).abs() < 1e-12);
        let fair = Planted {
            komi: Planted::default().fair_komi(),
            ..Planted::default()
        };
        assert!((fair.p * (1.0 - fair.komi) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn parameters_that_leave_probabilities_are_refused() {
        let e = crate::games::AnyGame::parse("planted(p=0.9,card=0.2)").unwrap_err();
        assert!(e.to_string().contains("leaves 0..1"), "{e}");
        let g = crate::games::AnyGame::parse("planted(p=0.55,komi=0.1)").unwrap();
        crate::with_game!(&g, g => assert_eq!(g.spec(), "planted(p=0.55,komi=0.1)"));
    }
}
