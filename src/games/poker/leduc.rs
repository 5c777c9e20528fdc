//! Leduc poker (Southey et al. 2005): six cards, J J Q Q K K (card `c` has rank
//! `c / 2`, as in OpenSpiel), two players, ante 1, one private card each, two
//! betting rounds with a public card dealt between them. Bets and raises are 2
//! in the first round and 4 in the second, at most two per round (the bet
//! counts); player 0 opens both rounds. At the showdown a private card pairing
//! the public card wins, otherwise the higher private card; equal ranks split.
//! Actions as in OpenSpiel: 0 fold, 1 call (or check), 2 raise (or bet).

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::{NO_CARD, free_count, nth_free, sign};
use crate::error::SpecError;
use crate::game::{Evaluation, PlayerId, Reporting, Returns, Rules, Turn};
use crate::rng::{GameRng, below};
use crate::spec::Params;

/// Fold (only when facing a bet).
pub const FOLD: u8 = 0;
/// Call a bet, or check.
pub const CALL: u8 = 1;
/// Raise, or bet (while fewer than two this round).
pub const RAISE: u8 = 2;

const DECK: u8 = 6;
const RANKS: [&str; 3] = ["J", "Q", "K"];
const RAISE_SIZE: [u8; 2] = [2, 4];
const MAX_RAISES: usize = 2;
/// The most a player can lose: ante, two raises of 2, two of 4.
const MAX_WIN: f64 = 13.0;

/// The rules (no parameters).
#[derive(Clone, Debug, Default)]
pub struct Leduc;

/// The deal and the betting so far.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// Each player's private card (0..6, rank `c / 2`), `NO_CARD` until dealt.
    pub cards: [u8; 2],
    /// The public card, `NO_CARD` until the first round ends.
    pub public: u8,
    /// Betting actions of each round (at most call, raise, raise, call).
    pub rounds: [ArrayVec<u8, 4>; 2],
    /// Chips each player has put in the pot, the ante included.
    pub contrib: [u8; 2],
    /// The player who folded, if any.
    pub folded: Option<u8>,
}

/// What one player knows: its own card, the public card, how many private
/// cards are dealt, and the betting.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InfoKey {
    /// The observer's card (`NO_CARD` before its deal).
    pub card: u8,
    /// The public card (`NO_CARD` before it is dealt).
    pub public: u8,
    /// Private cards dealt so far.
    pub dealt: u8,
    /// The public betting history of both rounds.
    pub rounds: [ArrayVec<u8, 4>; 2],
}

/// A player action (0 fold, 1 call, 2 raise) or, at a chance node, the card dealt.
pub type Action = u8;

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Deal,
    Bet(usize),
    Over,
}

impl Leduc {
    /// Builds the game; it has no parameters.
    pub fn from_params(params: &mut Params) -> Result<Self, SpecError> {
        params.finish("leduc", &[])?;
        Ok(Leduc)
    }

    fn dealt(s: &State) -> usize {
        s.cards.iter().filter(|&&c| c != NO_CARD).count()
    }

    /// A round is closed by a call that is not its first action.
    fn closed(round: &[u8]) -> bool {
        round.len() >= 2 && round.last() == Some(&CALL)
    }

    fn phase(s: &State) -> Phase {
        if s.folded.is_some() || Self::closed(&s.rounds[1]) {
            Phase::Over
        } else if Self::dealt(s) < 2 || (Self::closed(&s.rounds[0]) && s.public == NO_CARD) {
            Phase::Deal
        } else if Self::closed(&s.rounds[0]) {
            Phase::Bet(1)
        } else {
            Phase::Bet(0)
        }
    }

    /// Showdown strength: a pair beats any high card, then the private rank.
    fn strength(card: u8, public: u8) -> u32 {
        let rank = u32::from(card / 2);
        if public != NO_CARD && card / 2 == public / 2 {
            10 + rank
        } else {
            rank
        }
    }

    fn used(s: &State) -> [u8; 3] {
        [s.cards[0], s.cards[1], s.public]
    }
}

impl Rules for Leduc {
    type State = State;
    type Action = Action;
    /// Fold, call and raise.
    type Actions = ArrayVec<Action, 3>;
    type InfoKey = InfoKey;

    fn spec(&self) -> String {
        "leduc".into()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn max_actions(&self) -> usize {
        3
    }
    /// Three deals and at most four betting actions a round.
    fn max_game_length(&self) -> u32 {
        11
    }
    fn has_hidden_information(&self) -> bool {
        true
    }
    fn initial_state(&self, _rng: &mut GameRng) -> State {
        State {
            cards: [NO_CARD; 2],
            public: NO_CARD,
            rounds: [ArrayVec::new(), ArrayVec::new()],
            contrib: [1, 1],
            folded: None,
        }
    }
    fn turn(&self, s: &State) -> Turn {
        match Self::phase(s) {
            Phase::Deal => Turn::Chance,
            Phase::Over => Turn::Terminal,
            Phase::Bet(r) => Turn::Player((s.rounds[r].len() % 2) as PlayerId),
        }
    }
    fn legal_actions(&self, s: &State) -> Self::Actions {
        let mut out = ArrayVec::new();
        if let Phase::Bet(r) = Self::phase(s) {
            let me = s.rounds[r].len() % 2;
            if s.contrib[me] < s.contrib[1 - me] {
                out.push(FOLD);
            }
            out.push(CALL);
            let raises = s.rounds[r].iter().filter(|&&a| a == RAISE).count();
            if raises < MAX_RAISES {
                out.push(RAISE);
            }
        }
        out
    }
    fn apply(&self, s: &mut State, action: Action) {
        match Self::phase(s) {
            Phase::Deal => {
                debug_assert!(action < DECK && !Self::used(s).contains(&action));
                match Self::dealt(s) {
                    n @ 0..2 => s.cards[n] = action,
                    _ => s.public = action,
                }
            }
            Phase::Bet(r) => {
                debug_assert!(self.legal_actions(s).contains(&action));
                let me = s.rounds[r].len() % 2;
                let top = s.contrib[0].max(s.contrib[1]);
                match action {
                    FOLD => s.folded = Some(me as u8),
                    CALL => s.contrib[me] = top,
                    _ => s.contrib[me] = top + RAISE_SIZE[r],
                }
                s.rounds[r].push(action);
            }
            Phase::Over => debug_assert!(false, "action after the end"),
        }
    }
    fn chance_outcomes(&self, s: &State) -> Vec<(Action, f64)> {
        let used = Self::used(s);
        let n = free_count(DECK, &used);
        (0..n)
            .map(|k| (nth_free(DECK, &used, k), 1.0 / n as f64))
            .collect()
    }
    fn sample_chance(&self, s: &State, rng: &mut GameRng) -> Action {
        let used = Self::used(s);
        nth_free(DECK, &used, below(rng, free_count(DECK, &used)))
    }
    /// The opponent's card, if dealt, is redrawn from the cards the observer
    /// has not seen (its own and the public card).
    fn determinize(&self, s: &State, observer: PlayerId, rng: &mut GameRng) -> State {
        let mut d = s.clone();
        let opp = 1 - observer as usize;
        if d.cards[opp] != NO_CARD {
            let seen = [d.cards[observer as usize], d.public];
            d.cards[opp] = nth_free(DECK, &seen, below(rng, free_count(DECK, &seen)));
        }
        d
    }
    fn info_key(&self, s: &State, observer: PlayerId) -> InfoKey {
        InfoKey {
            card: s.cards[observer as usize],
            public: s.public,
            dealt: Self::dealt(s) as u8,
            rounds: s.rounds.clone(),
        }
    }
    fn returns(&self, s: &State) -> Returns {
        let win0 = match s.folded {
            Some(0) => -1.0,
            Some(_) => 1.0,
            None => sign(
                Self::strength(s.cards[0], s.public),
                Self::strength(s.cards[1], s.public),
            ),
        };
        // The winner takes the loser's contribution; a split moves nothing.
        let amount = f64::from(if win0 > 0.0 {
            s.contrib[1]
        } else {
            s.contrib[0]
        });
        let r0 = if win0 == 0.0 { 0.0 } else { win0 * amount };
        [r0, -r0].into_iter().collect()
    }
    /// Distinct cards dealt in order, contributions equal to what the betting
    /// history puts in, at most two raises a round, no second round before the
    /// first is closed.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let used = Self::used(s);
        for (i, &c) in used.iter().enumerate() {
            if c != NO_CARD && (c >= DECK || used[..i].contains(&c)) {
                return Err(format!("bad cards {:?} public {}", s.cards, s.public));
            }
        }
        let dealt_in_order = matches!(
            (
                s.cards[0] != NO_CARD,
                s.cards[1] != NO_CARD,
                s.public != NO_CARD,
            ),
            (true, true, _) | (true, false, false) | (false, false, false)
        );
        if !dealt_in_order {
            return Err("cards dealt out of order".into());
        }
        if !s.rounds[1].is_empty() && (!Self::closed(&s.rounds[0]) || s.public == NO_CARD) {
            return Err("second round before the first is closed and the public card dealt".into());
        }
        if s.public != NO_CARD && !Self::closed(&s.rounds[0]) {
            return Err("public card dealt during the first round".into());
        }
        // Replay the betting from the antes.
        let mut c = [1u8, 1];
        for (r, round) in s.rounds.iter().enumerate() {
            if round.iter().filter(|&&a| a == RAISE).count() > MAX_RAISES {
                return Err(format!("more than {MAX_RAISES} raises in round {}", r + 1));
            }
            for (i, &a) in round.iter().enumerate() {
                let me = i % 2;
                let top = c[0].max(c[1]);
                match a {
                    FOLD if i + 1 == round.len() && s.folded == Some(me as u8) => {}
                    CALL => c[me] = top,
                    RAISE => c[me] = top + RAISE_SIZE[r],
                    _ => return Err(format!("bad action {a} in round {}", r + 1)),
                }
                if i + 1 < round.len() && Self::closed(&round[..=i]) {
                    return Err(format!("betting goes on after round {} closed", r + 1));
                }
            }
        }
        if c != s.contrib {
            return Err(format!(
                "contributions {:?}, the betting gives {c:?}",
                s.contrib
            ));
        }
        Ok(())
    }
}

impl Reporting for Leduc {
    fn render(&self, s: &State, viewer: Option<PlayerId>) -> String {
        let name = |c: u8| match c {
            NO_CARD => "-".to_string(),
            c => RANKS[(c / 2) as usize].to_string(),
        };
        let private = |p: usize| match s.cards[p] {
            c if c != NO_CARD && viewer.is_some_and(|v| v as usize != p) => "?".to_string(),
            c => name(c),
        };
        let words = |r: &[u8]| -> String {
            let w: Vec<&str> = r
                .iter()
                .map(|&a| ["fold", "call", "raise"][a as usize])
                .collect();
            if w.is_empty() {
                "-".into()
            } else {
                w.join(" ")
            }
        };
        format!(
            "P0 {}  P1 {}  public {}  pot {} ({} + {})\nround 1: {}\nround 2: {}\n",
            private(0),
            private(1),
            name(s.public),
            s.contrib[0] + s.contrib[1],
            s.contrib[0],
            s.contrib[1],
            words(&s.rounds[0]),
            words(&s.rounds[1]),
        )
    }
    /// Bets and the public card are seen by all; a private card by its holder only.
    fn action_label_for(&self, s: &State, action: Action, observer: PlayerId) -> String {
        let dealt = Self::dealt(s);
        if Self::phase(s) == Phase::Deal && dealt < 2 && usize::from(observer) != dealt {
            return format!("deal a card to P{dealt}");
        }
        self.action_label(s, action)
    }
    fn observed_move(&self, s: &State, _action: Action, observer: PlayerId) -> Option<u64> {
        let dealt = Self::dealt(s);
        (Self::phase(s) == Phase::Deal && dealt < 2 && usize::from(observer) != dealt)
            .then_some(dealt as u64)
    }
    fn action_label(&self, s: &State, action: Action) -> String {
        match Self::phase(s) {
            Phase::Deal => {
                let to = match Self::dealt(s) {
                    n @ 0..2 => format!("P{n}"),
                    _ => "the table".into(),
                };
                format!("deal {} to {to}", RANKS[(action / 2) as usize])
            }
            Phase::Bet(r) => {
                let me = s.rounds[r].len() % 2;
                let facing = s.contrib[me] < s.contrib[1 - me];
                match (action, facing) {
                    (FOLD, _) => "fold".into(),
                    (CALL, false) => "check".into(),
                    (CALL, true) => "call".into(),
                    (_, false) => format!("bet {}", RAISE_SIZE[r]),
                    (_, true) => format!("raise {}", RAISE_SIZE[r]),
                }
            }
            Phase::Over => format!("action {action}"),
        }
    }
}

impl Evaluation for Leduc {
    fn max_utility(&self) -> Option<f64> {
        Some(MAX_WIN)
    }
    /// Who would win a showdown now (the public card counted once dealt), times
    /// the opponent's chips at stake, over the largest possible win.
    fn heuristic(&self, s: &State, player: PlayerId) -> f64 {
        if self.turn(s) == Turn::Terminal {
            return self.returns(s)[player as usize] / MAX_WIN;
        }
        let (me, opp) = (player as usize, 1 - player as usize);
        if s.cards[me] == NO_CARD || s.cards[opp] == NO_CARD {
            return 0.0;
        }
        let edge = sign(
            Self::strength(s.cards[me], s.public),
            Self::strength(s.cards[opp], s.public),
        );
        edge * f64::from(s.contrib[opp]) / MAX_WIN
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::conformance;

    fn play(actions: &[u8]) -> State {
        let g = Leduc;
        let mut s = g.initial_state(&mut crate::rng::rng_from_seed(0));
        for &a in actions {
            assert!(
                g.turn(&s) == Turn::Chance || g.legal_actions(&s).contains(&a),
                "{a} illegal in {s:?}"
            );
            g.apply(&mut s, a);
            g.check_invariants(&s).unwrap();
        }
        s
    }

    #[test]
    fn conformance() {
        conformance::check(&Leduc, conformance::Config::default());
    }

    #[test]
    fn a_pair_beats_a_higher_card_and_the_pot_follows_the_betting() {
        let g = Leduc;
        // P0 J(0), P1 K(4); bet, raise, call (5 each); public J(1); P0 bets 4, P1 calls: 9.
        let s = play(&[0, 4, RAISE, RAISE, CALL, 1, RAISE, CALL]);
        assert_eq!(g.turn(&s), Turn::Terminal);
        assert_eq!(&*g.returns(&s), &[9.0, -9.0]);
        // Same betting, public Q: the king wins.
        let s = play(&[0, 4, RAISE, RAISE, CALL, 2, RAISE, CALL]);
        assert_eq!(&*g.returns(&s), &[-9.0, 9.0]);
        // Equal ranks split.
        let s = play(&[0, 1, CALL, CALL, 2, CALL, CALL]);
        assert_eq!(&*g.returns(&s), &[0.0, 0.0]);
        // The most at stake: two raises in each round, 13 each; K pairs the public K.
        let s = play(&[5, 0, CALL, RAISE, RAISE, CALL, 4, RAISE, RAISE, CALL]);
        assert_eq!(&*g.returns(&s), &[13.0, -13.0]);
    }

    #[test]
    fn fold_only_facing_a_bet_and_at_most_two_raises() {
        let g = Leduc;
        let s = play(&[0, 4]);
        assert_eq!(&*g.legal_actions(&s), &[CALL, RAISE]);
        let s = play(&[0, 4, RAISE]);
        assert_eq!(&*g.legal_actions(&s), &[FOLD, CALL, RAISE]);
        let s = play(&[0, 4, CALL, RAISE, RAISE]);
        assert_eq!(g.turn(&s), Turn::Player(1));
        assert_eq!(&*g.legal_actions(&s), &[FOLD, CALL]);
        // A check-check closes the round: the public card comes next.
        let s = play(&[0, 4, CALL, CALL]);
        assert_eq!(g.turn(&s), Turn::Chance);
        assert_eq!(g.chance_outcomes(&s).len(), 4);
        // A fold ends the game; the folder loses what it put in.
        let s = play(&[0, 4, CALL, RAISE, FOLD]);
        assert_eq!(g.turn(&s), Turn::Terminal);
        assert_eq!(&*g.returns(&s), &[-1.0, 1.0]);
        let s = play(&[0, 4, CALL, CALL, 2, RAISE, RAISE, FOLD]);
        assert_eq!(&*g.returns(&s), &[-5.0, 5.0]);
    }

    #[test]
    fn determinize_keeps_seen_cards() {
        let g = Leduc;
        let s = play(&[0, 4, CALL, CALL, 2]);
        let mut rng = crate::rng::rng_from_seed(5);
        let mut seen = [0u32; 6];
        for _ in 0..600 {
            let d = g.determinize(&s, 1, &mut rng);
            assert_eq!((d.cards[1], d.public), (4, 2));
            seen[d.cards[0] as usize] += 1;
        }
        assert_eq!((seen[2], seen[4]), (0, 0), "{seen:?}");
        assert!([0, 1, 3, 5].iter().all(|&c| seen[c] > 100), "{seen:?}");
    }
}
