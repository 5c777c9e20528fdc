//! The generic checks every game must pass (OpenSpiel's basic tests, TAG's
//! forward-model tester). Call [`check`] from a game's tests; it panics with a
//! message naming the seed and step of the first violation.

use std::collections::HashSet;

use super::{ENDING_CAP, Game, Turn, random_playout};
use crate::rng::{GameRng, below, rng_from_seed};

/// How much to test.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Random games to play.
    pub playouts: u32,
    /// Determinizations per observer at every checked state.
    pub determinizations: u32,
    /// Check determinization at every k-th state (it can be costly).
    pub determinize_every: u32,
    /// First seed.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            playouts: 200,
            determinizations: 2,
            determinize_every: 3,
            seed: 1,
        }
    }
}

/// Runs the whole suite on `game`.
pub fn check<G: Game>(game: &G, cfg: Config) {
    let mut hidden_states = 0u64;
    let mut changed = 0u64;
    for g in 0..cfg.playouts {
        let (h, c) = check_playout(game, cfg, cfg.seed.wrapping_add(u64::from(g)));
        hidden_states += h;
        changed += c;
    }
    check_cap(game, cfg.seed);
    if game.has_hidden_information() {
        assert!(
            hidden_states > 0,
            "{}: no states checked for determinization",
            game.spec()
        );
        assert!(
            changed * 20 >= hidden_states,
            "{}: determinize changed the hidden state in only {changed} of {hidden_states} checks",
            game.spec()
        );
    }
}

/// One random game from `seed`, every state and step checked, then the
/// replay of its log. Returns the determinization counts (states with hidden
/// information checked, and how many of them a determinization changed).
fn check_playout<G: Game>(game: &G, cfg: Config, seed: u64) -> (u64, u64) {
    let mut hidden_states = 0u64;
    let mut changed = 0u64;
    let mut rng = rng_from_seed(seed);
    let initial = game.initial_state(&mut rng);
    let initial_json = serde_json::to_string(&initial).expect("state serializes");
    let mut state = initial.clone();
    let mut log = Vec::new();
    let mut step = 0u32;
    // Holds the previous step's list when refilled: `legal_actions_into`
    // must replace it, not append to it.
    let mut reused = game.legal_actions(&state);
    loop {
        let ctx = format!("{} seed {seed} step {step}", game.spec());
        if let Err(e) = game.check_invariants(&state) {
            panic!("{ctx}: invariant violated: {e}");
        }
        let turn = game.turn(&state);
        let legal = game.legal_actions(&state);
        game.legal_actions_into(&state, &mut reused);
        assert_eq!(
            &*reused, &*legal,
            "{ctx}: legal_actions_into differs from legal_actions"
        );
        assert!(
            legal.len() <= game.max_actions(),
            "{ctx}: {} actions > capacity",
            legal.len()
        );
        if check_node(game, &state, turn, &legal, &rng, &ctx) {
            break;
        }
        if step.is_multiple_of(cfg.determinize_every) {
            let (h, c) = check_determinize(game, &state, &mut rng, cfg.determinizations, &ctx);
            hidden_states += h;
            changed += c;
            let all = game.heuristics(&state);
            assert_eq!(all.len(), game.num_players(), "{ctx}: heuristics length");
            for p in 0..game.num_players() {
                let v = game.heuristic(&state, p as u8);
                assert!(
                    (-1.0..=1.0).contains(&v),
                    "{ctx}: heuristic {v} outside [-1, 1]"
                );
                assert_eq!(
                    all[p].to_bits(),
                    v.to_bits(),
                    "{ctx}: heuristics()[{p}] is not heuristic(_, {p})"
                );
            }
            let _ = game.render(&state, None);
        }
        let action = match turn {
            Turn::Chance => game.sample_chance(&state, &mut rng),
            _ => legal[below(&mut rng, legal.len())],
        };
        check_step(game, &mut state, action, &ctx);
        log.push(action);
        step += 1;
        assert!(
            step <= game.max_game_length(),
            "{ctx}: game longer than max_game_length {}",
            game.max_game_length()
        );
    }
    check_replay(game, &initial, &initial_json, &log, &state, seed);
    (hidden_states, changed)
}

/// The checks at one node by whose turn it is: a player's legal actions, a
/// chance node's outcomes, a finished game's returns and ending. True when
/// the game is over.
fn check_node<G: Game>(
    game: &G,
    state: &G::State,
    turn: Turn,
    legal: &[G::Action],
    rng: &GameRng,
    ctx: &str,
) -> bool {
    match turn {
        Turn::Player(p) => {
            assert!(
                (p as usize) < game.num_players(),
                "{ctx}: player {p} out of range"
            );
            assert!(!legal.is_empty(), "{ctx}: no legal action at a player turn");
            assert!(
                first_duplicate(legal).is_none(),
                "{ctx}: duplicate legal actions {legal:?}"
            );
        }
        Turn::Chance => {
            assert!(legal.is_empty(), "{ctx}: legal actions at a chance node");
            let outcomes = game.chance_outcomes(state);
            assert!(!outcomes.is_empty(), "{ctx}: chance node without outcomes");
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            assert!(
                (total - 1.0).abs() < 1e-9,
                "{ctx}: chance probabilities sum to {total}"
            );
            assert!(
                outcomes.iter().all(|o| o.1 > 0.0),
                "{ctx}: a chance outcome with probability 0"
            );
            let actions: Vec<G::Action> = outcomes.iter().map(|o| o.0).collect();
            assert!(
                first_duplicate(&actions).is_none(),
                "{ctx}: duplicate chance outcomes"
            );
            let sampled = game.sample_chance(state, &mut rng.clone());
            assert!(
                actions.contains(&sampled),
                "{ctx}: sampled outcome {sampled:?} not among the outcomes"
            );
        }
        Turn::Terminal => {
            assert!(legal.is_empty(), "{ctx}: legal actions at a terminal state");
            let r = game.returns(state);
            assert_eq!(r.len(), game.num_players(), "{ctx}: returns length");
            for a in 0..game.num_players() {
                for b in 0..game.num_players() {
                    if game.side(a as u8) == game.side(b as u8) {
                        assert_eq!(
                            r[a], r[b],
                            "{ctx}: teammates {a} and {b} have different returns"
                        );
                    }
                }
            }
            check_ending(game, state).unwrap_or_else(|e| panic!("{ctx}: {e}"));
            return true;
        }
    }
    false
}

/// One step: the action labels and round-trips through serde, applying it
/// to two equal clones gives equal states, and it changes the state.
fn check_step<G: Game>(game: &G, state: &mut G::State, action: G::Action, ctx: &str) {
    let _ = game.action_label(state, action);
    let json = serde_json::to_string(&action).expect("action serializes");
    let back: G::Action = serde_json::from_str(&json).expect("action deserializes");
    assert_eq!(back, action, "{ctx}: action serde round trip");
    let before = state.clone();
    let mut twin = state.clone();
    game.apply(state, action);
    game.apply(&mut twin, action);
    assert_eq!(
        *state, twin,
        "{ctx}: apply on equal clones gave different states"
    );
    assert_ne!(
        before, *state,
        "{ctx}: action {action:?} did not change the state"
    );
}

/// Earlier clones are untouched by later play, and replay is exact.
fn check_replay<G: Game>(
    game: &G,
    initial: &G::State,
    initial_json: &str,
    log: &[G::Action],
    state: &G::State,
    seed: u64,
) {
    assert_eq!(
        serde_json::to_string(initial).unwrap(),
        initial_json,
        "initial state changed by later play"
    );
    let back: G::State = serde_json::from_str(initial_json).expect("state deserializes");
    assert_eq!(&back, initial, "state serde round trip");
    let mut replay = initial.clone();
    for a in log {
        game.apply(&mut replay, *a);
    }
    assert_eq!(
        &replay, state,
        "replaying the action log gave another state (seed {seed})"
    );
}

/// A finished game names its ending from [`Rules::endings`](crate::game::Rules::endings), and it is the
/// game's own cap ([`ENDING_CAP`]) exactly when [`Rules::truncated`](crate::game::Rules::truncated) says so.
pub fn check_ending<G: Game>(game: &G, state: &G::State) -> Result<(), String> {
    let ending = game.ending(state);
    if !game.endings().contains(&ending) {
        return Err(format!(
            "ending {ending:?} is not among the game's endings {:?}",
            game.endings()
        ));
    }
    let truncated = game.truncated(state);
    if (ending == ENDING_CAP) != truncated {
        return Err(format!(
            "ending {ending:?} but truncated() is {truncated}: a game's own cap, and only it, \
             is a truncation"
        ));
    }
    Ok(())
}

/// A game whose own simulation cap is forced down ([`Rules::with_cap`](crate::game::Rules::with_cap)) ends
/// at that cap, and then reports itself `truncated` with the ending `cap`.
/// Games without a cap of their own never report a truncation.
pub fn check_cap<G: Game>(game: &G, seed: u64) {
    let Some(capped) = game.with_cap(1) else {
        assert!(
            !game.endings().contains(&ENDING_CAP),
            "{}: lists a `cap` ending but has no `with_cap`",
            game.spec()
        );
        return;
    };
    let mut reached = 0;
    for g in 0..20u64 {
        let mut rng = rng_from_seed(seed.wrapping_add(1_000_003 * (g + 1)));
        let mut state = capped.initial_state(&mut rng);
        random_playout(&capped, &mut state, &mut rng, capped.max_game_length());
        let ctx = format!("{} with its cap at 1, game {g}", game.spec());
        assert_eq!(
            capped.turn(&state),
            Turn::Terminal,
            "{ctx}: did not end within max_game_length"
        );
        check_ending(&capped, &state).unwrap_or_else(|e| panic!("{ctx}: {e}"));
        reached += u32::from(capped.truncated(&state));
    }
    assert!(
        reached > 0,
        "{}: no game forced to a cap of 1 reported truncated",
        game.spec()
    );
}

/// The properties every reachable state must have, reported as an error
/// instead of a panic so that `boardlab soak` and the fuzz targets can name the
/// seed and step themselves: the game's own [`Rules::check_invariants`](crate::game::Rules::check_invariants), legal
/// actions non-empty exactly at a player's turn, no duplicates, within
/// [`Rules::max_actions`](crate::game::Rules::max_actions), chance outcomes distinct with positive probabilities
/// summing to 1, and well-formed returns at the end. Leaves the legal list it
/// checked in `legal`, so that a caller stepping on does not compute it twice.
pub fn check_state<G: Game>(
    game: &G,
    state: &G::State,
    legal: &mut G::Actions,
) -> Result<(), String> {
    game.check_invariants(state)
        .map_err(|e| format!("invariant violated: {e}"))?;
    game.legal_actions_into(state, legal);
    if legal.len() > game.max_actions() {
        return Err(format!(
            "{} legal actions, more than max_actions {}",
            legal.len(),
            game.max_actions()
        ));
    }
    match game.turn(state) {
        Turn::Player(p) => {
            if p as usize >= game.num_players() {
                return Err(format!(
                    "player {p} to move, but the game has {} seats",
                    game.num_players()
                ));
            }
            if legal.is_empty() {
                return Err(format!("no legal action at player {p}'s turn"));
            }
            if let Some(dup) = first_duplicate(legal) {
                return Err(format!("duplicate legal action {dup:?}"));
            }
        }
        Turn::Chance => {
            if !legal.is_empty() {
                return Err(format!("legal actions {legal:?} at a chance node"));
            }
            let outcomes = game.chance_outcomes(state);
            if outcomes.is_empty() {
                return Err("chance node without outcomes".into());
            }
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            if total.is_nan() || (total - 1.0).abs() >= 1e-9 {
                return Err(format!("chance probabilities sum to {total}"));
            }
            if let Some(o) = outcomes.iter().find(|o| o.1.is_nan() || o.1 <= 0.0) {
                return Err(format!("chance outcome {:?} has probability {}", o.0, o.1));
            }
            let actions: Vec<G::Action> = outcomes.iter().map(|o| o.0).collect();
            if let Some(dup) = first_duplicate(&actions) {
                return Err(format!("duplicate chance outcome {dup:?}"));
            }
        }
        Turn::Terminal => {
            if !legal.is_empty() {
                return Err(format!("legal actions {legal:?} at a terminal state"));
            }
            let r = game.returns(state);
            if r.len() != game.num_players() {
                return Err(format!(
                    "{} returns for {} seats",
                    r.len(),
                    game.num_players()
                ));
            }
            if let Some(v) = r.iter().find(|v| !v.is_finite()) {
                return Err(format!("return {v} is not finite"));
            }
            check_ending(game, state)?;
        }
    }
    Ok(())
}

/// Plays one game steered by `bytes`, checking every state with
/// [`check_state`]: the fuzz targets' game loop. The first 8 bytes seed setup;
/// each later byte picks a legal action or a chance outcome (any outcome, however
/// unlikely); once the bytes run out, the seeded stream plays on to the end, so
/// every input is a whole game that must finish within `max_game_length`.
/// Returns the game's length, or the first violation with its step.
pub fn play_bytes<G: Game>(game: &G, bytes: &[u8]) -> Result<u32, String> {
    let (seed, mut rest) = match bytes.split_first_chunk::<8>() {
        Some((head, rest)) => (u64::from_le_bytes(*head), rest),
        None => (0, bytes),
    };
    let mut rng = rng_from_seed(seed);
    let mut state = game.initial_state(&mut rng);
    let mut step = 0u32;
    let mut legal = game.legal_actions(&state);
    loop {
        check_state(game, &state, &mut legal).map_err(|e| format!("step {step}: {e}"))?;
        let choice = match rest.split_first() {
            Some((&b, tail)) => {
                rest = tail;
                Some(usize::from(b))
            }
            None => None,
        };
        let action = match game.turn(&state) {
            Turn::Terminal => return Ok(step),
            Turn::Chance => match choice {
                Some(b) => {
                    let outcomes = game.chance_outcomes(&state);
                    outcomes[b % outcomes.len()].0
                }
                None => game.sample_chance(&state, &mut rng),
            },
            Turn::Player(_) => {
                legal[choice.unwrap_or_else(|| below(&mut rng, legal.len())) % legal.len()]
            }
        };
        if step >= game.max_game_length() {
            return Err(format!(
                "step {step}: the game is not over after max_game_length = {} actions",
                game.max_game_length()
            ));
        }
        game.apply(&mut state, action);
        step += 1;
    }
}

/// The first item equal to an earlier one. Short lists are compared pairwise;
/// longer ones are screened by sorting cheap fingerprints on the stack, and only
/// a repeated fingerprint (a duplicate or a rare collision) pays for the exact
/// hashed search. No allocation unless something repeats.
fn first_duplicate<T: Copy + Eq + std::hash::Hash>(items: &[T]) -> Option<T> {
    if items.len() <= 16 {
        return items
            .iter()
            .enumerate()
            .find(|(i, a)| items[..*i].contains(a))
            .map(|(_, a)| *a);
    }
    if items.len() <= 1024 {
        let mut prints: arrayvec::ArrayVec<u64, 1024> = items.iter().map(fingerprint).collect();
        prints.sort_unstable();
        if prints.windows(2).all(|w| w[0] != w[1]) {
            return None;
        }
    }
    let mut seen = HashSet::with_capacity(items.len());
    items.iter().find(|a| !seen.insert(**a)).copied()
}

/// A fast, non-cryptographic 64-bit hash (multiply-xorshift per word).
fn fingerprint<T: std::hash::Hash>(item: &T) -> u64 {
    let mut h = Mix::default();
    item.hash(&mut h);
    std::hash::Hasher::finish(&h)
}

/// The hasher of [`fingerprint`]: a multiply-xorshift per word, far cheaper
/// than SipHash on the large states and keys the suite hashes at every step.
struct Mix(u64);

impl Default for Mix {
    fn default() -> Self {
        Mix(0x243f_6a88_85a3_08d3)
    }
}

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        let x = self.0 ^ (self.0 >> 29);
        x.wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (x >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.write_u64(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        }
        for &b in words.remainder() {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.write_u64(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }
}

/// Checks determinization at one state; returns (checks made, checks where the
/// determinized state differed from the true one).
fn check_determinize<G: Game>(
    game: &G,
    state: &G::State,
    rng: &mut GameRng,
    times: u32,
    ctx: &str,
) -> (u64, u64) {
    let (mut checks, mut changed) = (0, 0);
    let turn = game.turn(state);
    for p in 0..game.num_players() as u8 {
        let key = game.info_key(state, p);
        for _ in 0..times {
            let d = game.determinize(state, p, rng);
            assert_eq!(
                game.info_key(&d, p),
                key,
                "{ctx}: determinize for {p} changed its info key"
            );
            assert_eq!(
                game.turn(&d),
                turn,
                "{ctx}: determinize for {p} changed whose turn it is"
            );
            if turn == Turn::Player(p) {
                assert_eq!(
                    &*game.legal_actions(&d),
                    &*game.legal_actions(state),
                    "{ctx}: determinize for {p} changed its legal actions"
                );
            }
            if !game.has_hidden_information() {
                assert_eq!(
                    &d, state,
                    "{ctx}: perfect-information determinize must clone"
                );
            }
            // A seat's rendering shows only what it knows: `d` is a true
            // state the seat cannot tell from this one.
            if checks % u64::from(times.max(1)) == 0 {
                assert_eq!(
                    game.render(&d, Some(p)),
                    game.render(state, Some(p)),
                    "{ctx}: render for {p} differs on two states with one info key"
                );
            }
            // No leak: the view depends only on what the observer knows. Two
            // states with the same info key give the same determinization for
            // the same random stream, so nothing hidden can reach an agent.
            let seed = crate::rng::unit(rng).to_bits();
            let from_truth = game.determinize(state, p, &mut rng_from_seed(seed));
            let from_other = game.determinize(&d, p, &mut rng_from_seed(seed));
            assert_eq!(
                from_truth, from_other,
                "{ctx}: determinize for {p} depends on hidden state (two states with one info key gave different views)"
            );
            checks += 1;
            changed += u64::from(&d != state);
        }
        // A search's sampler draws what `determinize` draws, sample after
        // sample from one stream.
        let seed = crate::rng::unit(rng).to_bits();
        let mut one_by_one = rng_from_seed(seed);
        let mut sampled = rng_from_seed(seed);
        game.with_determinizer(state, p, |sample| {
            for i in 0..times.max(2) {
                assert_eq!(
                    sample(&mut sampled),
                    game.determinize(state, p, &mut one_by_one),
                    "{ctx}: the determinizer for {p} differs from determinize at sample {i}"
                );
            }
        });
    }
    (checks, changed)
}

/// Narration leaks nothing: [`Reporting::action_label_for`](crate::game::Reporting::action_label_for) for a seat names only
/// what that seat can tell. Plays `games` random games; at every third step,
/// for every seat `h` and every option (legal action or chance outcome) there:
///
/// * two options that leave `h` with one info key get one label for `h`,
///   unless every seat is left with one key by both (then the difference is
///   public, like the faces of a tied and rerolled combat, and the state just
///   does not keep it);
/// * the same option applied to a determinization for `h` (a true state `h`
///   cannot tell from this one) gets the same label for `h` when it leaves `h`
///   with the same key.
///
/// Panics naming both labels. Returns how many label pairs were compared, so
/// a test can tell the check compared something.
pub fn check_observer_labels<G: Game>(game: &G, games: u32, seed: u64) -> u64 {
    use std::hash::Hash;
    let hash = |x: &dyn Fn(&mut Mix)| {
        let mut h = Mix::default();
        x(&mut h);
        std::hash::Hasher::finish(&h)
    };
    let options = |s: &G::State| -> Vec<G::Action> {
        match game.turn(s) {
            Turn::Chance => game.chance_outcomes(s).into_iter().map(|o| o.0).collect(),
            _ => game.legal_actions(s).to_vec(),
        }
    };
    let n = game.num_players() as u8;
    let mut compared = 0u64;
    for g in 0..games {
        let seed = seed.wrapping_add(u64::from(g));
        let mut rng = rng_from_seed(seed);
        let mut state = game.initial_state(&mut rng);
        for step in 0..game.max_game_length() {
            let turn = game.turn(&state);
            if turn == Turn::Terminal {
                break;
            }
            if step.is_multiple_of(3) {
                let ctx = |a: &G::Action, b: &G::Action| {
                    format!("{} seed {seed} step {step}: {a:?} and {b:?}", game.spec())
                };
                // Per option: each seat's key after it, and all of them together.
                let opts = options(&state);
                let afters: Vec<(G::State, Vec<u64>, u64)> = opts
                    .iter()
                    .map(|&a| {
                        let mut t = state.clone();
                        game.apply(&mut t, a);
                        let keys: Vec<u64> = (0..n)
                            .map(|p| hash(&|h| game.info_key(&t, p).hash(h)))
                            .collect();
                        let all = hash(&|h| keys.hash(h));
                        (t, keys, all)
                    })
                    .collect();
                for h in 0..n {
                    let mut by_key: std::collections::HashMap<u64, (usize, String)> =
                        std::collections::HashMap::new();
                    for (i, &a) in opts.iter().enumerate() {
                        let label = game.action_label_for(&state, a, h);
                        let key = afters[i].1[h as usize];
                        match by_key.get(&key) {
                            Some((j, first)) if afters[*j].2 != afters[i].2 => {
                                assert_eq!(
                                    *first,
                                    label,
                                    "seat {h} cannot tell these apart: {}",
                                    ctx(&opts[*j], &a)
                                );
                                compared += 1;
                            }
                            Some(_) => {}
                            None => {
                                by_key.insert(key, (i, label));
                            }
                        }
                    }
                    let other = game.determinize(&state, h, &mut rng);
                    if other == state {
                        continue;
                    }
                    let there: HashSet<G::Action> = options(&other).into_iter().collect();
                    for (i, &a) in opts.iter().enumerate() {
                        if !there.contains(&a) {
                            continue;
                        }
                        let mut t = other.clone();
                        game.apply(&mut t, a);
                        if hash(&|x| game.info_key(&t, h).hash(x)) == afters[i].1[h as usize] {
                            assert_eq!(
                                game.action_label_for(&state, a, h),
                                game.action_label_for(&other, a, h),
                                "seat {h} cannot tell the true state from a determinization: {}",
                                ctx(&a, &a)
                            );
                            compared += 1;
                        }
                    }
                }
            }
            random_step(game, &mut state, &mut rng);
        }
    }
    compared
}

/// [`Reporting::observed_move`](crate::game::Reporting::observed_move) agrees
/// with the labels. Plays `games` random games; at every state, for every
/// seat and every option (legal action or chance outcome): `None` exactly
/// when the seat's label is the full one, and otherwise one key per seat's
/// label over the whole run (two options share a key exactly when they share
/// a label). Panics naming the option; returns how many were checked.
pub fn check_observed_moves<G: Game>(game: &G, games: u32, seed: u64) -> u64 {
    use std::collections::HashMap;
    let n = game.num_players() as u8;
    let mut key_of: HashMap<String, u64> = HashMap::new();
    let mut label_of: HashMap<u64, String> = HashMap::new();
    let mut checked = 0u64;
    for g in 0..games {
        let seed = seed.wrapping_add(u64::from(g));
        let mut rng = rng_from_seed(seed);
        let mut state = game.initial_state(&mut rng);
        for step in 0..game.max_game_length() {
            let turn = game.turn(&state);
            if turn == Turn::Terminal {
                break;
            }
            let options: Vec<G::Action> = match turn {
                Turn::Chance => game
                    .chance_outcomes(&state)
                    .into_iter()
                    .map(|o| o.0)
                    .collect(),
                _ => game.legal_actions(&state).to_vec(),
            };
            for &a in &options {
                let full = game.action_label(&state, a);
                for h in 0..n {
                    let ctx = || {
                        format!(
                            "{} seed {seed} step {step}: {a:?} seen by seat {h}",
                            game.spec()
                        )
                    };
                    let label = game.action_label_for(&state, a, h);
                    let key = game.observed_move(&state, a, h);
                    checked += 1;
                    if label == full {
                        assert_eq!(key, None, "seen in full, yet hidden: {}", ctx());
                        continue;
                    }
                    let Some(key) = key else {
                        panic!("labelled \"{label}\", yet seen in full: {}", ctx());
                    };
                    let k = *key_of.entry(label.clone()).or_insert(key);
                    assert_eq!(k, key, "one label \"{label}\", two keys: {}", ctx());
                    let l = label_of.entry(key).or_insert_with(|| label.clone());
                    assert_eq!(*l, label, "one key, two labels: {}", ctx());
                }
            }
            random_step(game, &mut state, &mut rng);
        }
    }
    checked
}

/// Plays `games` random games and returns the mean number of actions, a quick
/// smoke check usable from benches.
pub fn mean_length<G: Game>(game: &G, games: u32, seed: u64) -> f64 {
    let mut rng = rng_from_seed(seed);
    let mut total = 0u64;
    for _ in 0..games {
        let mut s = game.initial_state(&mut rng);
        total += u64::from(random_playout(
            game,
            &mut s,
            &mut rng,
            game.max_game_length(),
        ));
    }
    total as f64 / f64::from(games.max(1))
}

/// One random step at a state that is not terminal: a chance outcome by its
/// odds, or a uniform legal action.
fn random_step<G: Game>(game: &G, state: &mut G::State, rng: &mut GameRng) {
    let action = match game.turn(state) {
        Turn::Chance => game.sample_chance(state, rng),
        _ => {
            let legal = game.legal_actions(state);
            legal[below(rng, legal.len())]
        }
    };
    game.apply(state, action);
}

#[cfg(test)]
mod tests {
    use super::first_duplicate;

    #[test]
    fn first_duplicate_finds_repeats_in_short_and_long_lists() {
        for n in [3u32, 16, 17, 200, 1024, 1500] {
            let distinct: Vec<(u32, u8)> = (0..n).map(|i| (i * 7919, (i % 5) as u8)).collect();
            assert_eq!(first_duplicate(&distinct), None, "n = {n}");
            let mut repeated = distinct.clone();
            repeated.push(distinct[(n / 2) as usize]);
            assert_eq!(
                first_duplicate(&repeated),
                Some(distinct[(n / 2) as usize]),
                "n = {n}"
            );
        }
    }
}
