//! A person at the terminal: shows the seat's view and the legal actions,
//! each under a key the person types.
//!
//! [`ask`] is the prompt itself, shared by the [`HumanAgent`] (keys are the
//! positions in the list, for a human seat inside `run`) and `boardlab play`,
//! which keys moves stably (a tic-tac-toe cell's number, a Fox square) and
//! can take moves back. A forced move (a single legal action) is played
//! without asking, with a line saying so.

use std::io::{BufRead, Write};

use super::{Abort, Agent, Decision};
use crate::game::Game;

/// Reads choices from standard input; re-asks on bad input.
#[derive(Debug, Default)]
pub struct HumanAgent;

/// The fault of a human seat whose standard input ended: the game stops
/// there (an agent cannot decline to move), and no move is made for it.
pub const END_OF_INPUT: &str = "standard input ended before a choice";

/// The fault of a human seat that typed `quit`: the game stops there.
pub const QUIT: &str = "the human quit the game";

/// One decision put to a person.
pub struct Question<'a> {
    /// The position as the seat sees it.
    pub board: &'a str,
    /// Who is to move and what the person holds (seat, faction, character).
    pub seat: &'a str,
    /// The legal moves as (key, label), in the order the game lists them.
    pub moves: &'a [(String, String)],
    /// What the board's symbols mean, shown by `help`.
    pub legend: &'a [(String, String)],
    /// Whether `undo` may be asked for here.
    pub undo: bool,
}

/// What the person answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The move at this position of [`Question::moves`].
    Move(usize),
    /// Take back moves to this seat's previous decision.
    Undo,
    /// End the game.
    Quit,
    /// Standard input ended: no move can be chosen.
    EndOfInput,
}

/// A key as typed or listed, compared without case or spaces.
pub fn normal(key: &str) -> String {
    key.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Shows the question (board, seat line, move list) on `out`.
pub fn show(q: &Question<'_>, out: &mut impl Write) {
    let _ = writeln!(out, "\n{}", q.board.trim_end());
    let _ = writeln!(out, "{}", q.seat);
    let width = q.moves.iter().map(|(k, _)| k.len()).max().unwrap_or(1);
    for (key, label) in q.moves {
        let _ = writeln!(out, "  {key:>width$}) {label}");
    }
}

/// The commands and the legend, as `help` prints them.
pub fn help_text(q: &Question<'_>) -> String {
    let mut t = String::from(
        "type a move's key (the text before its parenthesis); `board` shows the position again, ",
    );
    if q.undo {
        t.push_str("`undo` takes your moves back to your previous decision, ");
    }
    t.push_str("`help` this text, `quit` ends the game");
    if !q.legend.is_empty() {
        t.push_str("\nlegend:");
        for (symbol, meaning) in q.legend {
            t.push_str(&format!("\n  {symbol:<12} {meaning}"));
        }
    }
    t
}

/// Asks until the person types a move's key or a command. The question has
/// been shown already (see [`show`]); `board` shows it again.
pub fn ask(q: &Question<'_>, input: &mut impl BufRead, out: &mut impl Write) -> Reply {
    let keys: Vec<String> = q.moves.iter().map(|(k, _)| normal(k)).collect();
    loop {
        let _ = write!(out, "your move (a key, or help): ");
        let _ = out.flush();
        let mut line = String::new();
        match input.read_line(&mut line) {
            // End of input: nothing more will come. Never guess a move.
            Ok(0) | Err(_) => return Reply::EndOfInput,
            Ok(_) => {}
        }
        let typed = normal(&line);
        if let Some(i) = keys.iter().position(|k| *k == typed) {
            return Reply::Move(i);
        }
        match typed.as_str() {
            "help" | "?" => {
                let _ = writeln!(out, "{}", help_text(q));
            }
            "board" => show(q, out),
            "undo" if q.undo => return Reply::Undo,
            "undo" => {
                let _ = writeln!(out, "undo is not available here (only in `boardlab play`)");
            }
            "quit" | "exit" => return Reply::Quit,
            "" => {}
            _ => {
                let sample: Vec<&str> = q.moves.iter().take(6).map(|(k, _)| k.as_str()).collect();
                let more = if q.moves.len() > 6 { ", …" } else { "" };
                let _ = writeln!(
                    out,
                    "'{}' is not a move here: type one of the keys listed ({}{more}), or help",
                    line.trim(),
                    sample.join(", ")
                );
            }
        }
    }
}

impl<G: Game> Agent<G> for HumanAgent {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        let mut out = std::io::stdout();
        if let [only] = d.legal {
            let _ = writeln!(
                out,
                "Player {}: forced move, played for you: {}",
                d.me,
                d.game.action_label(d.view, *only)
            );
            return *only;
        }
        let board = d.game.render(d.view, Some(d.me));
        let seat = seat_line(&d.game.role(d.view, d.me), d.me);
        let moves: Vec<(String, String)> = d
            .legal
            .iter()
            .enumerate()
            .map(|(i, a)| ((i + 1).to_string(), d.game.action_label(d.view, *a)))
            .collect();
        let q = Question {
            board: &board,
            seat: &seat,
            moves: &moves,
            legend: &[],
            undo: false,
        };
        show(&q, &mut out);
        match ask(&q, &mut std::io::stdin().lock(), &mut out) {
            Reply::Move(i) => d.legal[i],
            Reply::Quit => Abort::raise(format!("seat {}: {QUIT}", d.me)),
            Reply::Undo | Reply::EndOfInput => {
                Abort::raise(format!("seat {}: {END_OF_INPUT}", d.me))
            }
        }
    }
}

/// "Player 0 to move: you hold seat 0, Indigo" (the role when there is one).
pub fn seat_line(role: &str, me: u8) -> String {
    let held = if role.is_empty() {
        String::new()
    } else {
        format!(", {role}")
    };
    format!("Player {me} to move: you hold seat {me}{held}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(moves: &[(String, String)], undo: bool) -> Question<'_> {
        Question {
            board: "board",
            seat: "seat",
            moves,
            legend: &[],
            undo,
        }
    }

    /// Keys match without case or spaces; commands and bad input re-ask.
    #[test]
    fn keys_and_commands() {
        let moves = vec![
            ("c3".to_string(), "move to c3".to_string()),
            ("pass".to_string(), "pass".to_string()),
        ];
        let q = question(&moves, true);
        let mut out = Vec::new();
        let mut input: &[u8] = b"zz\nhelp\n C3 \n";
        assert_eq!(ask(&q, &mut input, &mut out), Reply::Move(0));
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("'zz' is not a move here"), "{text}");
        assert!(text.contains("`undo` takes"), "{text}");
        let mut input: &[u8] = b"undo\n";
        assert_eq!(ask(&q, &mut input, &mut Vec::new()), Reply::Undo);
        let q = question(&moves, false);
        let mut input: &[u8] = b"undo\nquit\n";
        assert_eq!(ask(&q, &mut input, &mut Vec::new()), Reply::Quit);
        let mut input: &[u8] = b"";
        assert_eq!(ask(&q, &mut input, &mut Vec::new()), Reply::EndOfInput);
    }
}
