//! The replay viewer (`boardlab view`): a trace re-simulated into its states,
//! every state drawn as SVG by the game's [`Picture`] for each point of view
//! (everything, or one seat's view with what it may not see drawn face down),
//! and one self-contained HTML page that steps through them.
//!
//! A drawing is a list of SVG layers (board, each seat's panel, status…).
//! The page keeps each distinct layer once and every frame names its layers
//! by index, so a long game whose board changes a little per step stays small.
//! Seat views are drawn from the same masked views the games give their info
//! keys (`Karmaka::view`, `Karmox::info`, `Hamunaptra::mask`), never from a
//! determinization, which would invent the hidden cards.

pub mod fox;
pub mod grids;
pub mod hamunaptra;
pub mod karmaka;
pub mod karmox;
mod page;
pub mod svg;

use std::collections::HashMap;

use serde::Serialize;

use crate::agents::RootStat;
use crate::arena::progress::Progress;
use crate::arena::trace::{ActionLine, Header, ResultLine};
use crate::game::{Game, PlayerId};

/// The area a game's drawing covers, in SVG user units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Canvas {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Canvas {
    /// A canvas from the origin.
    pub fn sized(w: f64, h: f64) -> Canvas {
        Canvas {
            x: 0.0,
            y: 0.0,
            w,
            h,
        }
    }
}

/// How a game draws its states for the viewer. Games without a drawing keep
/// the defaults: the page shows their text rendering.
pub trait Picture: Game {
    /// The canvas that holds every state of a game (a growing map needs all
    /// of them), or `None` for no drawing (the text rendering is shown).
    fn canvas(&self, states: &[Self::State]) -> Option<Canvas> {
        let _ = states;
        None
    }

    /// `state` as `pov` may see it (`None`: everything) as SVG layers, each a
    /// self-contained fragment; equal layers are stored once.
    fn draw(&self, state: &Self::State, pov: Option<PlayerId>, canvas: &Canvas) -> Vec<String> {
        let _ = (state, pov, canvas);
        Vec::new()
    }

    /// What the drawing's symbols mean, as (symbol, meaning) pairs.
    fn legend(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Each seat's colour in the drawing, which the action log takes up so
    /// a seat reads the same in both; empty: the page's own palette.
    fn seat_colours(&self) -> &'static [&'static str] {
        &[]
    }

    /// What the text board's symbols mean (`boardlab play` shows it).
    fn text_legend(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The key a person types for `action` at `boardlab play`, matching a
    /// label the board shows (a Fox square). `None`: [`Picture::move_number`]
    /// plus one, which is a tic-tac-toe cell's number and a Connect Four
    /// column's.
    fn move_key(&self, state: &Self::State, action: Self::Action) -> Option<String> {
        let _ = (state, action);
        None
    }

    /// The action's index in a fixed numbering of every action (a game's
    /// encoding), for move keys that do not change from state to state.
    /// `None`, the default, numbers moves by their place in the list.
    fn move_number(&self, state: &Self::State, action: Self::Action) -> Option<usize> {
        let _ = (state, action);
        None
    }

    /// The parts of the drawing a person clicks, in order, to choose
    /// `action` at `boardlab play --html`: each names an element the drawing
    /// tags with the same `data-pick` attribute ([`svg::pick`]), such as
    /// `cell:5` or `column:3`. Empty, the default: the move is chosen by its
    /// button only.
    fn picks(&self, state: &Self::State, action: Self::Action) -> Vec<String> {
        let _ = (state, action);
        Vec::new()
    }

    /// What `player` holds, for the line above a human's move list: the
    /// role (faction, character) by default, or the seat's pieces.
    fn seat_name(&self, state: &Self::State, player: PlayerId) -> String {
        self.role(state, player)
    }
}

/// The keys `boardlab play` gives the legal moves: the game's own
/// ([`Picture::move_key`]), else its encoding index plus one
/// ([`Picture::move_number`]), else the place in the list (not stable).
pub fn move_keys<G: Picture>(game: &G, state: &G::State, legal: &[G::Action]) -> Vec<String> {
    legal
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            game.move_key(state, a)
                .unwrap_or_else(|| (game.move_number(state, a).unwrap_or(i) + 1).to_string())
        })
        .collect()
}

/// Implements [`Picture::move_number`] by the game's
/// [`Encode::action_index`](crate::game::encoding::Encode::action_index).
macro_rules! move_number_from_encoding {
    () => {
        fn move_number(&self, state: &Self::State, action: Self::Action) -> Option<usize> {
            Some(crate::game::encoding::Encode::action_index(self, state, action) as usize)
        }
    };
}
pub(crate) use move_number_from_encoding;

/// A trace re-simulated: every state, every step, the recorded result.
#[derive(Clone, Debug)]
pub struct Replay<G: Game> {
    /// The trace's header.
    pub header: Header,
    /// `states[i]` is the state before step `i`; the last is the final state.
    pub states: Vec<G::State>,
    /// The steps as recorded.
    pub steps: Vec<ActionLine<G::Action>>,
    /// The recorded result.
    pub result: ResultLine,
}

/// Re-simulates the lines after a trace's header (steps, then the result
/// line), checking that every step is legal where it is played.
pub fn replay<G: Game>(game: &G, header: Header, lines: &[String]) -> Result<Replay<G>, String> {
    let Some((last, actions)) = lines.split_last() else {
        return Err("the trace has no result line".into());
    };
    let result: ResultLine = serde_json::from_str(last).map_err(|e| {
        format!(
            "malformed trace result line (line {}): {e}",
            lines.len() + 1
        )
    })?;
    if header.agents.len() != game.num_players() {
        return Err(format!(
            "the trace's header names {} agents, but {} has {} seats",
            header.agents.len(),
            header.game,
            game.num_players()
        ));
    }
    let mut rng = crate::rng::stream_rng(header.seed, crate::rng::Stream::Game);
    let mut state = game.initial_state(&mut rng);
    let mut states = vec![state.clone()];
    let mut steps = Vec::with_capacity(actions.len());
    for (i, line) in actions.iter().enumerate() {
        let step: ActionLine<G::Action> = serde_json::from_str(line)
            .map_err(|e| format!("malformed trace line {}: {e}", i + 2))?;
        if !crate::arena::trace::is_legal_step(game, &state, step.player, step.action) {
            return Err(format!(
                "trace step {} ({}) is not legal in the re-simulated game",
                step.step, step.label
            ));
        }
        game.apply(&mut state, step.action);
        states.push(state.clone());
        steps.push(step);
    }
    crate::arena::trace::check_result(game, &state, &result)?;
    Ok(Replay {
        header,
        states,
        steps,
        result,
    })
}

/// Distinct strings, each kept once and named by its index.
#[derive(Default)]
struct Pool {
    items: Vec<String>,
    index: HashMap<String, u32>,
}

impl Pool {
    fn add(&mut self, s: String) -> u32 {
        if let Some(&i) = self.index.get(&s) {
            return i;
        }
        let i = self.items.len() as u32;
        self.index.insert(s.clone(), i);
        self.items.push(s);
        i
    }
}

/// One search candidate as the page shows it: label, visits, mean value.
#[derive(Serialize)]
struct Candidate(String, u64, f64);

/// One step as the page shows it.
#[derive(Serialize)]
struct StepData {
    /// Acting seat, `None` for chance.
    p: Option<u8>,
    /// Label per point of view (everything, then each seat); one entry when
    /// every view reads the same.
    l: Vec<String>,
    /// The search's root candidates, most visited first.
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<Vec<Candidate>>,
    /// Round or turn marker, when the game counts rounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    r: Option<u32>,
}

/// Everything the page script reads.
#[derive(Serialize)]
struct PageData {
    title: String,
    game: String,
    seed: u64,
    agents: Vec<String>,
    roles: Vec<String>,
    povs: Vec<String>,
    hidden: bool,
    view_box: Option<String>,
    pool: Vec<String>,
    /// `frames[state][pov]`: layer indices into `pool` (or one text index).
    frames: Vec<Vec<Vec<u32>>>,
    steps: Vec<StepData>,
    result: String,
    legend: Vec<(String, String)>,
    seat_colours: &'static [&'static str],
}

/// The viewer's page for a replayed trace: one self-contained HTML file.
pub fn page<G: Picture>(game: &G, replay: &Replay<G>) -> String {
    page_with(
        game,
        replay,
        &Progress::of(0, false, "state", String::new()),
    )
}

/// [`page`], counting the states drawn on `progress` (a long game's page
/// takes seconds to draw). The page does not depend on the bar.
pub fn page_with<G: Picture>(game: &G, replay: &Replay<G>, progress: &Progress) -> String {
    let n = game.num_players();
    let final_state = replay.states.last().expect("a replay has a state");
    let canvas = game.canvas(&replay.states);
    let povs: Vec<Option<PlayerId>> = std::iter::once(None)
        .chain((0..n).map(|p| Some(p as PlayerId)))
        .collect();
    let mut pool = Pool::default();
    let frames: Vec<Vec<Vec<u32>>> = replay
        .states
        .iter()
        .map(|s| {
            let frame = povs
                .iter()
                .map(|&pov| match &canvas {
                    Some(c) => game
                        .draw(s, pov, c)
                        .into_iter()
                        .map(|layer| pool.add(layer))
                        .collect(),
                    None => vec![pool.add(game.render(s, pov))],
                })
                .collect();
            progress.inc(1);
            frame
        })
        .collect();
    progress.finish_and_clear();
    let steps = replay
        .steps
        .iter()
        .zip(&replay.states)
        .map(|(step, s)| step_data(game, s, step))
        .collect();
    let roles: Vec<String> = (0..n).map(|p| game.role(final_state, p as u8)).collect();
    let ending = if replay.result.ending.is_empty() {
        String::new()
    } else {
        format!(" ({})", replay.result.ending)
    };
    let result = format!(
        "{}{ending}{}",
        replay
            .result
            .outcomes
            .iter()
            .enumerate()
            .map(|(p, o)| format!("seat {p} {o}"))
            .collect::<Vec<_>>()
            .join(", "),
        if replay.result.truncated {
            ", truncated"
        } else {
            ""
        }
    );
    let data = PageData {
        title: format!(
            "{} — game {} (seed {})",
            replay.header.game, replay.header.game_index, replay.header.seed
        ),
        game: replay.header.game.clone(),
        seed: replay.header.seed,
        agents: replay.header.agents.clone(),
        roles,
        povs: std::iter::once("everything".to_string())
            .chain((0..n).map(|p| format!("seat {p} ({})", replay.header.agents[p])))
            .collect(),
        hidden: game.has_hidden_information(),
        view_box: canvas.map(|c| format!("{} {} {} {}", c.x, c.y, c.w, c.h)),
        pool: pool.items,
        frames,
        steps,
        result,
        legend: game.legend(),
        seat_colours: game.seat_colours(),
    };
    page::html(
        &data.title,
        &serde_json::to_string(&data).expect("page data serializes"),
    )
}

fn step_data<G: Game>(game: &G, s: &G::State, step: &ActionLine<G::Action>) -> StepData {
    let n = game.num_players();
    let mut labels = vec![game.action_label(s, step.action)];
    labels.extend((0..n).map(|p| game.action_label_for(s, step.action, p as PlayerId)));
    if labels.iter().all(|l| *l == labels[0]) {
        labels.truncate(1);
    }
    let search = step.search.as_ref().zip(step.player).map(|(cands, p)| {
        let mut c: Vec<&RootStat<G::Action>> = cands.iter().collect();
        c.sort_by_key(|r| std::cmp::Reverse(r.visits));
        c.iter()
            .map(|r| {
                Candidate(
                    game.action_label_for(s, r.action, p),
                    r.visits,
                    (r.value * 1000.0).round() / 1000.0,
                )
            })
            .collect()
    });
    StepData {
        p: step.player,
        l: labels,
        s: search,
        r: game.rounds(s),
    }
}

#[cfg(test)]
mod tests;
