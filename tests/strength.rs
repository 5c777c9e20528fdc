//! Search agents beat random play in each faction of Fox on the Run by more
//! than the faction's own random-vs-random baseline, with 95 % Wilson
//! intervals that do not overlap. (The full strength studies at 1,000
//! iterations, against greedy play too, are in results/strength-fox.) Greedy
//! play, guided only by each game's heuristic, beats random play in every game
//! with a 95 % interval above the fair share (results/strength), and at every
//! other player count of each game wins more often than random play does in
//! the same seats (results/strength-sprt).

use boardlab::agents::Agent;
use boardlab::agents::registry::AgentSpec;
use boardlab::arena::play::play_game;
use boardlab::game::{Game, Outcome};
use boardlab::games::fox::Fox;
use boardlab::games::hamunaptra::Hamunaptra;
use boardlab::games::karmaka::Karmaka;
use boardlab::games::karmox::Karmox;
use boardlab::rng::game_seed;
use boardlab::spec::Params;
use boardlab::stats::{Z95, wilson};

/// Points (win 1, draw ½) of the agent in `seat` over `games` games.
fn points(game: &Fox, agent: &str, seat: usize, games: u64, master: u64) -> f64 {
    let spec = AgentSpec::parse(agent).unwrap();
    let random = AgentSpec::parse("random").unwrap();
    let mut total = 0.0;
    for g in 0..games {
        let mut agents: Vec<Box<dyn Agent<Fox>>> =
            vec![random.build().unwrap(), random.build().unwrap()];
        agents[seat] = spec.build().unwrap();
        let r = play_game(
            game,
            &mut agents,
            game_seed(master, g),
            None,
            &mut |_, _, _| {},
        );
        total += match r.seats[seat].outcome {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        };
    }
    total
}

#[test]
fn search_agents_beat_random_in_each_faction() {
    let game = Fox::from_params(&mut Params::default()).unwrap();
    let (base_games, games) = (400u64, 16u64);
    for (seat, faction) in [(0, "Foxes"), (1, "Guardians")] {
        let base = points(&game, "random", seat, base_games, 1);
        let (_, base_high) = wilson(base, base_games as f64, Z95);
        for agent in ["mcts(iterations=200)", "ismcts(iterations=200)"] {
            let won = points(&game, agent, seat, games, 2);
            let (low, _) = wilson(won, games as f64, Z95);
            assert!(
                low > base_high,
                "{agent} as the {faction}: {won}/{games}, lower bound {low:.3}, not above the random baseline's upper bound {base_high:.3}"
            );
        }
    }
}

/// Points of `agent` against random play in `games` two-player games, the
/// agent taking each seat in turn.
fn points_vs_random<G: Game>(game: &G, agent: &str, games: u64, master: u64) -> f64 {
    let spec = AgentSpec::parse(agent).unwrap();
    let random = AgentSpec::parse("random").unwrap();
    let mut total = 0.0;
    for g in 0..games {
        let seat = (g % 2) as usize;
        let mut agents: Vec<Box<dyn Agent<G>>> =
            vec![random.build().unwrap(), random.build().unwrap()];
        agents[seat] = spec.build().unwrap();
        let r = play_game(
            game,
            &mut agents,
            game_seed(master, g),
            None,
            &mut |_, _, _| {},
        );
        total += match r.seats[seat].outcome {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        };
    }
    total
}

/// Greedy's 95 % Wilson lower bound over `games` games is above the fair
/// share of ½: the tolerance shrinks with the sample, so the few games a
/// dev-profile test affords must show a large margin.
fn greedy_beats_random<G: Game>(name: &str, game: &G, games: u64) {
    let won = points_vs_random(game, "greedy", games, 7);
    let (low, high) = wilson(won, games as f64, Z95);
    assert!(
        low > 0.5,
        "greedy vs random in {name}: {won}/{games}, 95 % interval [{low:.3}, {high:.3}] not above 0.5"
    );
}

#[test]
fn greedy_beats_random_in_fox() {
    greedy_beats_random(
        "fox",
        &Fox::from_params(&mut Params::default()).unwrap(),
        40,
    );
}

#[test]
fn greedy_beats_random_in_karmaka() {
    let game = Karmaka::from_params(&mut Params::default()).unwrap();
    greedy_beats_random("karmaka", &game, 40);
}

#[test]
fn greedy_beats_random_in_karmox() {
    let game = Karmox::from_params(&mut Params::default()).unwrap();
    greedy_beats_random("karmox", &game, 40);
}

#[test]
fn greedy_beats_random_in_hamunaptra() {
    let game = Hamunaptra::from_params(&mut Params::default()).unwrap();
    greedy_beats_random("hamunaptra", &game, 100);
}

/// Games won (draws not counted) by `agent` over `games` games in which it
/// sits in seat `g % n` of game `g` and random play holds every other seat.
fn wins_in_rotation<G: Game>(game: &G, agent: &str, games: u64, master: u64) -> f64 {
    let n = game.num_players();
    let spec = AgentSpec::parse(agent).unwrap();
    let random = AgentSpec::parse("random").unwrap();
    let mut won = 0.0;
    for g in 0..games {
        let seat = (g % n as u64) as usize;
        let mut agents: Vec<Box<dyn Agent<G>>> = (0..n).map(|_| random.build().unwrap()).collect();
        agents[seat] = spec.build().unwrap();
        let r = play_game(
            game,
            &mut agents,
            game_seed(master, g),
            None,
            &mut |_, _, _| {},
        );
        if r.seats[seat].outcome == Outcome::Win {
            won += 1.0;
        }
    }
    won
}

/// With three or more seats the fair share depends on the game (teams,
/// factions of unequal size, a turn cap that ends most random games in a
/// draw), so greedy is compared with random play in the same seats: its
/// 95 % Wilson interval on games won lies wholly above the interval of a
/// random player's, measured over `4 × games` all-random games.
fn greedy_wins_more_than_random<G: Game>(
    players: &str,
    parse: impl Fn(&mut Params) -> G,
    games: u64,
) {
    let mut params = Params::default();
    for (i, kv) in players.split(',').enumerate() {
        match kv.split_once('=') {
            Some((k, v)) => params.set(k, v),
            None if i == 0 => params.set("players", kv),
            None => panic!("bad test spec {players}"),
        }
    }
    let game = parse(&mut params);
    let base_games = 4 * games;
    let base = wins_in_rotation(&game, "random", base_games, 11);
    let (base_low, base_high) = wilson(base, base_games as f64, Z95);
    let won = wins_in_rotation(&game, "greedy", games, 12);
    let (low, high) = wilson(won, games as f64, Z95);
    assert!(
        low > base_high,
        "{players} players: greedy won {won}/{games} [{low:.3}, {high:.3}], random in its seats {base}/{base_games} [{base_low:.3}, {base_high:.3}]"
    );
}

#[test]
fn greedy_beats_random_at_every_player_count_in_fox() {
    for players in ["3", "4"] {
        greedy_wins_more_than_random(players, |p| Fox::from_params(p).unwrap(), 60);
    }
}

#[test]
fn greedy_beats_random_at_every_player_count_in_karmaka() {
    for players in ["3", "4"] {
        greedy_wins_more_than_random(players, |p| Karmaka::from_params(p).unwrap(), 24);
    }
}

#[test]
fn greedy_beats_random_at_every_player_count_in_hamunaptra() {
    for players in ["3", "4"] {
        greedy_wins_more_than_random(players, |p| Hamunaptra::from_params(p).unwrap(), 80);
    }
}

#[test]
fn greedy_beats_random_at_every_player_count_in_karmox() {
    // Every player count in every mode.
    for players in [
        "3",
        "4,mode=solo",
        "4,mode=teams",
        "5",
        "6,mode=solo",
        "6,mode=teams",
        "6,mode=clones",
    ] {
        greedy_wins_more_than_random(players, |p| Karmox::from_params(p).unwrap(), 120);
    }
}
