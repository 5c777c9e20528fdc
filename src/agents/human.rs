//! A person at the terminal: shows the seat's view and numbered legal actions.
//!
//! A forced move (a single legal action) is played without asking, with a
//! line saying so. At the prompt, `help` lists the commands, `board` shows
//! the view again and `quit` ends the game (`boardlab play` then exits
//! cleanly, writing nothing).

use std::io::{BufRead, Write};

use super::{Agent, Decision};
use crate::game::Game;

/// Reads choices from standard input; re-asks on bad input.
#[derive(Debug, Default)]
pub struct HumanAgent;

/// The fault of a human seat whose standard input ended: the game stops
/// there (an agent cannot decline to move), and no move is made for it.
pub const END_OF_INPUT: &str = "standard input ended before a choice";

/// The fault of a human seat that typed `quit`: the game stops there.
pub const QUIT: &str = "the human quit the game";

const HELP: &str = "type the number of a move; `board` shows the position again, `help` this line, `quit` ends the game";

impl<G: Game> Agent<G> for HumanAgent {
    fn act(&mut self, d: Decision<'_, G>) -> G::Action {
        let stdin = std::io::stdin();
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
        let show = |out: &mut std::io::Stdout| {
            let _ = writeln!(out, "\n{}", d.game.render(d.view, Some(d.me)));
            let role = d.game.role(d.view, d.me);
            let held = if role.is_empty() {
                String::new()
            } else {
                format!(", {role}")
            };
            let _ = writeln!(out, "Player {} to move: you hold seat {}{held}", d.me, d.me);
            for (i, a) in d.legal.iter().enumerate() {
                let _ = writeln!(out, "  {:>3}) {}", i + 1, d.game.action_label(d.view, *a));
            }
        };
        show(&mut out);
        loop {
            let _ = write!(out, "choice [1-{}, or help]: ", d.legal.len());
            let _ = out.flush();
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                // End of input: nothing more will come. Never guess a move.
                Ok(0) => panic!("seat {}: {END_OF_INPUT}", d.me),
                Err(e) => panic!("seat {}: {END_OF_INPUT} ({e})", d.me),
                Ok(_) => {}
            }
            match line.trim() {
                "help" | "?" => {
                    let _ = writeln!(out, "{HELP}");
                    continue;
                }
                "board" => {
                    show(&mut out);
                    continue;
                }
                "quit" | "exit" => panic!("seat {}: {QUIT}", d.me),
                _ => {}
            }
            match line.trim().parse::<usize>() {
                Ok(n) if (1..=d.legal.len()).contains(&n) => return d.legal[n - 1],
                _ => {
                    let _ = writeln!(
                        out,
                        "please type a number from 1 to {} (or help)",
                        d.legal.len()
                    );
                }
            }
        }
    }
}
