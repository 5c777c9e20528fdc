//! `boardlab play`: one game at the terminal. Human seats are asked with
//! stable move keys (what the board shows: a tic-tac-toe cell's number, a
//! Connect Four column, a Fox square; otherwise the action's encoding index
//! plus one) and may take moves back with `undo`.
//!
//! The loop is the runner's (`arena::play`): the same seed gives the same
//! setup, chance outcomes, views and agents' streams, so a game played
//! without `undo` is the game `run` would play with these choices. It keeps a
//! snapshot (state and every random stream) at each human decision; `undo`
//! restores the human's previous one, unless a chance outcome came since:
//! the restored game stream would deal it again, so the human would choose
//! knowing it.

use std::io::Write;

use anyhow::{Result, bail};
use arrayvec::ArrayVec;

use crate::agents::human::{self, Question, Reply};
use crate::agents::registry::AgentSpec;
use crate::agents::{Agent, Decision};
use crate::arena::AgentFactory;
use crate::arena::play::{contained, panic_text};
use crate::game::{Game, MAX_PLAYERS, Outcome, PlayerId, Turn, outcomes};
use crate::rng::{GameRng, Stream, game_seed, stream_rng};
use crate::view::Picture;

/// The game's random streams, as the runner derives them from the seed.
#[derive(Clone)]
struct Streams {
    game: GameRng,
    view: GameRng,
    seats: ArrayVec<GameRng, MAX_PLAYERS>,
}

/// Where a human decided: enough to play on from there again.
struct Snapshot<S> {
    seat: PlayerId,
    state: S,
    streams: Streams,
    kept_views: Vec<Option<S>>,
    /// Actions applied before this decision.
    actions: u32,
}

/// Where the human seats play: the terminal ([`Terminal`]) or a browser
/// page (`play_html`). The game loop is the same for both.
pub(super) trait Table<G: Picture> {
    /// A line for the humans: narration, forced moves, notices.
    fn say(&mut self, line: &str);
    /// Asks seat `p`, who sees `view`, for one of `moves` (key, label),
    /// each chosen on the drawing by its `picks` ([`Picture::picks`]);
    /// `again` after a refused command, with the question already shown.
    fn ask(
        &mut self,
        game: &G,
        view: &G::State,
        p: PlayerId,
        moves: &[(String, String)],
        picks: &[Vec<String>],
        again: bool,
    ) -> Reply;
    /// A human's own move, as that seat chose it (the terminal shows it as
    /// typed; a page lists it in its log).
    fn played(&mut self, _line: &str) {}
    /// The game is over: `state` as `viewer` may see it, and the result
    /// (lines, and each seat's outcome; `truncated` at the length cap).
    fn finish(
        &mut self,
        game: &G,
        state: &G::State,
        viewer: Option<PlayerId>,
        result: &[String],
        outcomes: &[Outcome],
        truncated: bool,
    );
}

/// The terminal: standard input and output.
pub(super) struct Terminal {
    legend: Vec<(String, String)>,
}

impl<G: Picture> Table<G> for Terminal {
    fn say(&mut self, line: &str) {
        println!("{line}");
    }

    fn ask(
        &mut self,
        game: &G,
        view: &G::State,
        p: PlayerId,
        moves: &[(String, String)],
        _picks: &[Vec<String>],
        again: bool,
    ) -> Reply {
        let board = game.render(view, Some(p));
        let seat_text = human::seat_line(&game.seat_name(view, p), p);
        let q = Question {
            board: &board,
            seat: &seat_text,
            moves,
            legend: &self.legend,
            undo: true,
        };
        let mut out = std::io::stdout();
        if !again {
            human::show(&q, &mut out);
        }
        human::ask(&q, &mut std::io::stdin().lock(), &mut out)
    }

    fn finish(
        &mut self,
        game: &G,
        state: &G::State,
        viewer: Option<PlayerId>,
        result: &[String],
        _outcomes: &[Outcome],
        _truncated: bool,
    ) {
        println!(
            "\nfinal position:\n{}",
            game.render(state, viewer).trim_end()
        );
        println!();
        for line in result {
            println!("{line}");
        }
        let _ = std::io::stdout().flush();
    }
}

/// Plays one game with `specs[seat]` in each seat on `seed`; a seat with a
/// factory (an agent kind registered from outside) is built by it.
pub fn play_one<G: Picture>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    seed: u64,
) -> Result<()> {
    let legend = game.text_legend();
    if specs.iter().any(|s| s.spec.name == "human") && !legend.is_empty() {
        println!("legend (also under `help`):");
        for (symbol, meaning) in &legend {
            println!("  {symbol:<12} {meaning}");
        }
    }
    play_at(game, specs, factories, seed, &mut Terminal { legend })
}

/// One agent per seat, each checked against the game first (unless a
/// factory from outside builds it).
fn seat_agents<G: Picture>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
) -> Result<Vec<Box<dyn Agent<G>>>> {
    if specs.len() != game.num_players() {
        bail!(
            "{} needs exactly {} agents, one per seat; {} given",
            game.spec(),
            game.num_players(),
            specs.len()
        );
    }
    for (s, f) in specs.iter().zip(factories) {
        if f.is_none() {
            s.check_game(game)?;
        }
    }
    let agents = specs
        .iter()
        .zip(factories)
        .map(|(s, f)| f.as_ref().map_or_else(|| s.build::<G>(), |f| Ok(f())))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(agents)
}

/// What a human seat chose: a move, to go back to its decision at this
/// index of the history, or to stop playing.
enum Choice<A> {
    Move(A),
    Undo(usize),
    Quit,
}

/// Asks a human seat for one of `legal` until it picks a move, an undo that
/// can be done, or quits.
fn ask_human<G: Picture>(
    game: &G,
    table: &mut dyn Table<G>,
    view: &G::State,
    p: PlayerId,
    legal: &[G::Action],
    history: &[Snapshot<G::State>],
    last_chance: Option<u32>,
) -> Result<Choice<G::Action>> {
    let keys = crate::view::move_keys(game, view, legal);
    let moves: Vec<(String, String)> = keys
        .into_iter()
        .zip(legal.iter().map(|&a| game.action_label(view, a)))
        .collect();
    let picks: Vec<Vec<String>> = legal.iter().map(|&a| game.picks(view, a)).collect();
    let mut again = false;
    loop {
        match table.ask(game, view, p, &moves, &picks, again) {
            Reply::Move(i) => return Ok(Choice::Move(legal[i])),
            Reply::Quit => {
                table.say("game ended: you quit");
                return Ok(Choice::Quit);
            }
            Reply::EndOfInput => {
                bail!("game stopped: seat {p}: {}", human::END_OF_INPUT)
            }
            Reply::Undo => match undo_target(history, p, last_chance) {
                Ok(i) => return Ok(Choice::Undo(i)),
                Err(why) => table.say(&format!("cannot undo: {why}")),
            },
        }
        again = true;
    }
}

/// Every seat's result line (and the cap, when the game hit it), handed to
/// the table with the final position.
fn finish_game<G: Picture>(
    game: &G,
    specs: &[AgentSpec],
    humans: &[PlayerId],
    state: &G::State,
    truncated: bool,
    table: &mut dyn Table<G>,
) {
    let viewer = humans.first().copied();
    let terminal = game.turn(state) == Turn::Terminal;
    let returns: Vec<f64> = if terminal {
        game.returns(state).to_vec()
    } else {
        vec![0.0; specs.len()]
    };
    let results = outcomes(game, &returns, truncated);
    let mut lines: Vec<String> = results
        .iter()
        .enumerate()
        .map(|(seat, o)| {
            let score = if terminal {
                game.score(state, seat as PlayerId)
            } else {
                0.0
            };
            format!(
                "seat {seat} ({}): {} (score {score})",
                specs[seat].label,
                o.as_str()
            )
        })
        .collect();
    if truncated {
        lines.push(format!(
            "the game stopped at its length cap ({} actions)",
            game.max_game_length()
        ));
    }
    table.finish(game, state, viewer, &lines, &results, truncated);
}

/// [`play_one`] with the human seats at `table`.
pub(super) fn play_at<G: Picture>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    seed: u64,
    table: &mut dyn Table<G>,
) -> Result<()> {
    let mut agents = seat_agents(game, specs, factories)?;
    let human: Vec<bool> = specs.iter().map(|s| s.spec.name == "human").collect();
    let humans: Vec<PlayerId> = (0..specs.len() as PlayerId)
        .filter(|&p| human[p as usize])
        .collect();
    let seed = game_seed(seed, 0);
    let mut rng = Streams {
        game: stream_rng(seed, Stream::Game),
        view: stream_rng(seed, Stream::View),
        seats: (0..specs.len())
            .map(|s| stream_rng(seed, Stream::Seat(s as u8)))
            .collect(),
    };
    let mut state = game.initial_state(&mut rng.game);
    // As the runner: fresh views only when some seat reads them (a human does).
    let fresh_views = agents.iter().any(|a| a.needs_view());
    let mut kept_views: Vec<Option<G::State>> = vec![None; specs.len()];
    let mut history: Vec<Snapshot<G::State>> = Vec::new();
    let mut last_chance: Option<u32> = None;
    let mut actions = 0u32;
    let mut truncated = false;
    loop {
        let turn = game.turn(&state);
        if turn == Turn::Terminal {
            break;
        }
        if actions >= game.max_game_length() {
            truncated = true;
            break;
        }
        let (player, action) = match turn {
            Turn::Terminal => unreachable!("handled above"),
            Turn::Chance => {
                last_chance = Some(actions);
                (None, game.sample_chance(&state, &mut rng.game))
            }
            Turn::Player(p) => {
                let seat = p as usize;
                let legal = game.legal_actions(&state);
                let before = human[seat].then(|| (rng.clone(), kept_views.clone()));
                if fresh_views || kept_views[seat].is_none() {
                    kept_views[seat] = Some(game.determinize(&state, p, &mut rng.view));
                }
                let Some(view) = kept_views[seat].clone() else {
                    unreachable!("a view was determinized just above")
                };
                if !human[seat] {
                    let a = agent_move(
                        game,
                        &mut agents[seat],
                        p,
                        &view,
                        &legal,
                        &mut rng.seats[seat],
                    )?;
                    (Some(p), a)
                } else if let [only] = legal[..] {
                    table.say(&format!(
                        "seat {p} (you): forced move, played for you: {}",
                        game.action_label(&view, only)
                    ));
                    (Some(p), only)
                } else {
                    match ask_human(game, table, &view, p, &legal, &history, last_chance)? {
                        Choice::Quit => return Ok(()),
                        Choice::Move(a) => {
                            table.played(&format!(
                                "seat {p} (you): {}",
                                game.action_label(&view, a)
                            ));
                            let (streams, views) = before.expect("kept at a human decision");
                            history.push(Snapshot {
                                seat: p,
                                state: state.clone(),
                                streams,
                                kept_views: views,
                                actions,
                            });
                            (Some(p), a)
                        }
                        Choice::Undo(i) => {
                            let back = history.drain(i..).next().expect("the target exists");
                            table.say(&format!(
                                "undone: {} moves taken back, to your previous decision",
                                actions - back.actions
                            ));
                            state = back.state;
                            rng = back.streams;
                            kept_views = back.kept_views;
                            actions = back.actions;
                            continue;
                        }
                    }
                }
            }
        };
        for line in narrate(game, specs, &humans, &state, player, action) {
            table.say(&line);
        }
        game.apply(&mut state, action);
        actions += 1;
    }
    finish_game(game, specs, &humans, &state, truncated, table);
    Ok(())
}

/// The index in `history` of `seat`'s previous decision, or why there is
/// none to go back to.
fn undo_target<S>(
    history: &[Snapshot<S>],
    seat: PlayerId,
    last_chance: Option<u32>,
) -> Result<usize, String> {
    let Some(i) = history.iter().rposition(|h| h.seat == seat) else {
        return Err("you have made no decision yet".into());
    };
    if last_chance.is_some_and(|c| c >= history[i].actions) {
        return Err(
            "a chance outcome (a draw, a roll or a flip) came after your previous decision; \
            taking it back would let you choose again knowing that outcome"
                .into(),
        );
    }
    Ok(i)
}

/// An agent's decision, as the runner takes it: a panic or an illegal
/// action stops the game with a message.
fn agent_move<G: Game>(
    game: &G,
    agent: &mut Box<dyn Agent<G>>,
    p: PlayerId,
    view: &G::State,
    legal: &[G::Action],
    rng: &mut GameRng,
) -> Result<G::Action> {
    let choice = contained(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            agent.act(Decision {
                game,
                me: p,
                view,
                legal,
                rng,
                deadline: None,
            })
        }))
    });
    match choice {
        Ok(a) if legal.contains(&a) => Ok(a),
        Ok(a) => bail!("game stopped: seat {p} played an illegal action {a:?}"),
        Err(panic) => bail!(
            "game stopped: seat {p} agent panicked: {}",
            panic_text(&*panic)
        ),
    }
}

/// Narration is for the human seats: each sees an action as its own seat
/// does (`action_label_for`), never its own decisions again. Humans at one
/// terminal who see an action differently get one line each, as each
/// human's turn already shows that seat's private view on the same screen.
/// With no human seat, the watcher sees everything.
fn narrate<G: Game>(
    game: &G,
    specs: &[AgentSpec],
    humans: &[PlayerId],
    state: &G::State,
    player: Option<PlayerId>,
    action: G::Action,
) -> Vec<String> {
    let who = match player {
        Some(p) => format!("seat {p} ({})", specs[p as usize].label),
        None => "chance".to_string(),
    };
    if humans.is_empty() {
        return vec![format!("{who}: {}", game.action_label(state, action))];
    }
    let seen: Vec<(PlayerId, String)> = humans
        .iter()
        .filter(|&&h| player != Some(h))
        .map(|&h| (h, game.action_label_for(state, action, h)))
        .collect();
    match seen.first() {
        None => Vec::new(),
        Some((_, first)) if seen.iter().all(|(_, l)| l == first) => vec![format!("{who}: {first}")],
        Some(_) => seen
            .iter()
            .map(|(h, label)| format!("{who} (as seat {h} sees it): {label}"))
            .collect(),
    }
}
