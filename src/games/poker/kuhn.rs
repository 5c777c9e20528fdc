//! Kuhn poker (Kuhn 1950): three cards J < Q < K, one to each of two players,
//! ante 1, one betting round in which a single bet of 1 may be made. Player 0
//! acts first. Actions as in OpenSpiel: 0 pass (check or fold), 1 bet (bet or
//! call). The game value for player 0 is -1/18.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::{NO_CARD, free_count, nth_free, sign};
use crate::error::SpecError;
use crate::game::{Evaluation, PlayerId, Reporting, Returns, Rules, Turn};
use crate::rng::{GameRng, below};
use crate::spec::Params;

/// Pass: check, or fold to a bet.
pub const PASS: u8 = 0;
/// Bet: bet 1, or call a bet.
pub const BET: u8 = 1;

const DECK: u8 = 3;
const NAMES: [&str; 3] = ["J", "Q", "K"];

/// The rules (no parameters).
#[derive(Clone, Debug, Default)]
pub struct Kuhn;

/// The deal and the betting so far.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// Each player's private card (0 J, 1 Q, 2 K), `NO_CARD` until dealt;
    /// player 0 is dealt first.
    pub cards: [u8; 2],
    /// The betting actions in order (at most pass, bet, pass/bet).
    pub history: ArrayVec<u8, 3>,
}

/// What one player knows: its own card, how many cards are dealt, the betting.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InfoKey {
    /// The observer's card (`NO_CARD` before its deal).
    pub card: u8,
    /// Private cards dealt so far (public knowledge).
    pub dealt: u8,
    /// The public betting history.
    pub history: ArrayVec<u8, 3>,
}

/// A player action (0 pass, 1 bet) or, at a chance node, the card dealt.
pub type Action = u8;

impl Kuhn {
    /// Builds the game; it has no parameters.
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        params.finish("kuhn", &[])?;
        Ok(Kuhn)
    }

    fn dealt(s: &State) -> usize {
        s.cards.iter().filter(|&&c| c != NO_CARD).count()
    }

    /// Each player's chips in the pot: the ante and, for a bet or call, 1.
    fn contributions(s: &State) -> [u32; 2] {
        let mut c = [1, 1];
        for (i, &a) in s.history.iter().enumerate() {
            c[i % 2] += u32::from(a == BET);
        }
        c
    }

    fn is_over(s: &State) -> bool {
        matches!(
            s.history.as_slice(),
            [PASS, PASS] | [BET, _] | [PASS, BET, _]
        )
    }
}

impl Rules for Kuhn {
    type State = State;
    type Action = Action;
    /// Pass and bet.
    type Actions = ArrayVec<Action, 2>;
    type InfoKey = InfoKey;

    fn spec(&self) -> String {
        "kuhn".into()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        2
    }
    /// Two deals and at most three betting actions.
    fn max_game_length(&self) -> u32 {
        5
    }
    fn has_hidden_information(&self) -> bool {
        true
    }
    fn initial_state(&self, _rng: &mut GameRng) -> State {
        State {
            cards: [NO_CARD; 2],
            history: ArrayVec::new(),
        }
    }
    fn turn(&self, s: &State) -> Turn {
        if Self::dealt(s) < 2 {
            Turn::Chance
        } else if Self::is_over(s) {
            Turn::Terminal
        } else {
            Turn::Player((s.history.len() % 2) as PlayerId)
        }
    }
    fn legal_actions(&self, s: &State) -> Self::Actions {
        let mut out = ArrayVec::new();
        if let Turn::Player(_) = self.turn(s) {
            out.push(PASS);
            out.push(BET);
        }
        out
    }
    fn apply(&self, s: &mut State, action: Action) {
        let dealt = Self::dealt(s);
        if dealt < 2 {
            debug_assert!(action < DECK && !s.cards.contains(&action));
            s.cards[dealt] = action;
        } else {
            debug_assert!(action <= BET && !Self::is_over(s));
            s.history.push(action);
        }
    }
    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        let n = free_count(DECK, &s.cards);
        (0..n)
            .map(|k| (nth_free(DECK, &s.cards, k), 1.0 / n as f64))
            .collect()
    }
    fn sample_chance(&self, s: &State, rng: &mut GameRng) -> Action {
        let n = free_count(DECK, &s.cards);
        nth_free(DECK, &s.cards, below(rng, n))
    }
    /// The opponent's card, if dealt, is redrawn from the cards the observer
    /// does not hold, reading nothing but the observer's card.
    fn determinize(&self, s: &State, observer: PlayerId, rng: &mut GameRng) -> State {
        let mut d = s.clone();
        let opp = 1 - observer as usize;
        if d.cards[opp] != NO_CARD {
            let own = [d.cards[observer as usize]];
            let n = free_count(DECK, &own);
            d.cards[opp] = nth_free(DECK, &own, below(rng, n));
        }
        d
    }
    fn info_key(&self, s: &State, observer: PlayerId) -> InfoKey {
        InfoKey {
            card: s.cards[observer as usize],
            dealt: Self::dealt(s) as u8,
            history: s.history.clone(),
        }
    }
    fn returns(&self, s: &State) -> Returns {
        let c = Self::contributions(s);
        // The last action was a pass facing a bet: a fold.
        let folder = match s.history.as_slice() {
            [BET, PASS] => Some(1),
            [PASS, BET, PASS] => Some(0),
            _ => None,
        };
        let win0 = match folder {
            Some(f) => {
                if f == 0 {
                    -1.0
                } else {
                    1.0
                }
            }
            None => sign(u32::from(s.cards[0]), u32::from(s.cards[1])),
        };
        // The winner takes the loser's contribution (equal at a showdown).
        let amount = f64::from(if win0 > 0.0 { c[1] } else { c[0] });
        [win0 * amount, -win0 * amount].into_iter().collect()
    }
    /// Distinct cards from the deck, dealt in seat order, betting only after
    /// the deal and never past the end of the game.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let [a, b] = s.cards;
        if (a != NO_CARD && a >= DECK) || (b != NO_CARD && b >= DECK) || (a != NO_CARD && a == b) {
            return Err(format!("bad cards {:?}", s.cards));
        }
        if a == NO_CARD && b != NO_CARD {
            return Err("player 1 dealt before player 0".into());
        }
        if !s.history.is_empty() && Self::dealt(s) < 2 {
            return Err("betting before the deal".into());
        }
        if s.history.iter().any(|&x| x > BET) {
            return Err(format!("bad betting actions {:?}", s.history));
        }
        let over_at = (1..s.history.len()).find(|&n| {
            let prefix = State {
                cards: s.cards,
                history: s.history[..n].iter().copied().collect(),
            };
            Self::is_over(&prefix)
        });
        if let Some(n) = over_at {
            return Err(format!(
                "betting goes on after the game ended at action {n}"
            ));
        }
        Ok(())
    }
}

impl Reporting for Kuhn {
    fn render(&self, s: &State, viewer: Option<PlayerId>) -> String {
        let card = |p: usize| match s.cards[p] {
            NO_CARD => "-".to_string(),
            _ if viewer.is_some_and(|v| v as usize != p) => "?".to_string(),
            c => NAMES[c as usize].to_string(),
        };
        let bets: Vec<&str> = s
            .history
            .iter()
            .map(|&a| if a == BET { "bet" } else { "pass" })
            .collect();
        let c = Self::contributions(s);
        format!(
            "P0 {}  P1 {}  pot {}  betting: {}\n",
            card(0),
            card(1),
            c[0] + c[1],
            if bets.is_empty() {
                "-".to_string()
            } else {
                bets.join(" ")
            }
        )
    }
    fn action_label(&self, s: &State, action: Action) -> String {
        if Self::dealt(s) < 2 {
            return format!("deal {} to P{}", NAMES[action as usize], Self::dealt(s));
        }
        let facing_bet = s.history.last() == Some(&BET);
        match (action, facing_bet) {
            (PASS, false) => "check".into(),
            (PASS, true) => "fold".into(),
            (_, false) => "bet 1".into(),
            (_, true) => "call 1".into(),
        }
    }
    /// Bets are public; a dealt card is seen by its holder only.
    fn action_label_for(&self, s: &State, action: Action, observer: PlayerId) -> String {
        let dealt = Self::dealt(s);
        if dealt < 2 && usize::from(observer) != dealt {
            return format!("deal a card to P{dealt}");
        }
        self.action_label(s, action)
    }
    fn observed_move(&self, s: &State, _action: Action, observer: PlayerId) -> Option<u64> {
        let dealt = Self::dealt(s);
        (dealt < 2 && usize::from(observer) != dealt).then_some(dealt as u64)
    }
}

impl Evaluation for Kuhn {
    fn max_utility(&self) -> Option<f64> {
        Some(2.0)
    }
    /// Who would win a showdown, times the chips at stake, over the largest
    /// possible win: a rough hand-strength guess for rollouts and greedy play.
    fn heuristic(&self, s: &State, player: PlayerId) -> f64 {
        if self.turn(s) == Turn::Terminal {
            return self.returns(s)[player as usize] / 2.0;
        }
        let (me, opp) = (player as usize, 1 - player as usize);
        if s.cards[me] == NO_CARD || s.cards[opp] == NO_CARD {
            return 0.0;
        }
        let stake = f64::from(Self::contributions(s)[opp]);
        sign(u32::from(s.cards[me]), u32::from(s.cards[opp])) * stake / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::conformance;

    fn play(cards: [u8; 2], bets: &[u8]) -> State {
        let g = Kuhn;
        let mut s = g.initial_state(&mut crate::rng::rng_from_seed(0));
        for a in cards.into_iter().chain(bets.iter().copied()) {
            g.apply(&mut s, a);
        }
        s
    }

    #[test]
    fn conformance() {
        conformance::check(&Kuhn, conformance::Config::default());
    }

    #[test]
    fn payoffs_of_every_betting_sequence() {
        let g = Kuhn;
        // (cards, betting, return of player 0)
        let cases: [([u8; 2], &[u8], f64); 7] = [
            ([2, 0], &[PASS, PASS], 1.0),
            ([0, 2], &[PASS, PASS], -1.0),
            ([0, 2], &[BET, PASS], 1.0),
            ([2, 0], &[PASS, BET, PASS], -1.0),
            ([1, 2], &[PASS, BET, BET], -2.0),
            ([2, 1], &[BET, BET], 2.0),
            ([0, 1], &[BET, BET], -2.0),
        ];
        for (cards, bets, r0) in cases {
            let s = play(cards, bets);
            assert_eq!(g.turn(&s), Turn::Terminal, "{cards:?} {bets:?}");
            assert_eq!(&*g.returns(&s), &[r0, -r0], "{cards:?} {bets:?}");
        }
        let s = play([0, 1], &[PASS, BET]);
        assert_eq!(g.turn(&s), Turn::Player(0));
    }

    /// Searches see a called bet as worth twice a fold: returns are divided by
    /// `max_utility`, not by each terminal's own largest return.
    #[test]
    fn searches_value_chips_won() {
        use crate::agents::greedy::normalized_returns;
        let won_call = normalized_returns(&Kuhn, &play([2, 0], &[BET, BET]));
        let won_fold = normalized_returns(&Kuhn, &play([2, 0], &[BET, PASS]));
        assert_eq!((won_call[0], won_fold[0]), (1.0, 0.5));
    }

    #[test]
    fn determinize_redraws_only_the_opponent_card() {
        let g = Kuhn;
        let s = play([2, 0], &[PASS]);
        let mut rng = crate::rng::rng_from_seed(3);
        let mut seen = [0u32; 3];
        for _ in 0..300 {
            let d = g.determinize(&s, 0, &mut rng);
            assert_eq!(d.cards[0], 2);
            assert_eq!(d.history, s.history);
            seen[d.cards[1] as usize] += 1;
        }
        assert_eq!(seen[2], 0);
        assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
    }
}
