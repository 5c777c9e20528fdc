//! `boardlab play` driven over a pseudo-terminal, as a person would use it.

use rexpect::process::WaitStatus;
use rexpect::session::spawn_command;
use std::process::Command;

/// Generous: the machine may be busy; a passing run takes well under a second.
const TIMEOUT_MS: u64 = 30_000;

/// The prompt of a human decision.
const PROMPT: &str = "your move (a key, or help): ";

/// `boardlab play` with these arguments, over a pseudo-terminal.
fn play(args: &[&str]) -> rexpect::session::PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_boardlab"));
    cmd.arg("play").args(args);
    spawn_command(cmd, Some(TIMEOUT_MS)).expect("spawn over a pty")
}

/// Quits at the prompt and checks the clean exit.
fn quit(mut p: rexpect::session::PtySession) {
    p.send_line("quit").unwrap();
    p.exp_string("game ended: you quit").unwrap();
    p.exp_eof().unwrap();
    match p.process().wait().unwrap() {
        WaitStatus::Exited(_, code) => assert_eq!(code, 0),
        other => panic!("boardlab did not exit normally: {other:?}"),
    }
}

/// A human seat on tic-tac-toe sees the board and a numbered move list,
/// gets help, plays a move, sees the agent's reply, and quits with exit 0.
#[test]
fn a_human_plays_tictactoe_over_a_terminal() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_boardlab"));
    cmd.args([
        "play",
        "--game",
        "tictactoe",
        "--agents",
        "human,random",
        "--seed",
        "3",
    ]);
    let mut p = spawn_command(cmd, Some(TIMEOUT_MS)).expect("spawn over a pty");

    // The empty board shows the cell numbers, and the list numbers them alike.
    p.exp_string("123").unwrap();
    p.exp_string("Player 0 to move: you hold seat 0, playing X")
        .unwrap();
    p.exp_string("1) cell 1 (row 1, column 1)").unwrap();
    p.exp_string("9) cell 9 (row 3, column 3)").unwrap();
    p.exp_string(PROMPT).unwrap();

    // Help names the commands and the board's symbols.
    p.send_line("help").unwrap();
    p.exp_string("`quit` ends the game").unwrap();
    p.exp_string("legend:").unwrap();
    p.exp_string("1-9          empty cells: the number is the key of the move there")
        .unwrap();
    p.exp_string(PROMPT).unwrap();

    // Take the centre; the agent replies (cell 8 on this seed) and the board
    // shows both marks.
    p.send_line("5").unwrap();
    p.exp_string("seat 1 (random): cell 8 (row 3, column 2)")
        .unwrap();
    p.exp_string("4X6").unwrap();
    p.exp_string("7O9").unwrap();
    // The free cells keep their numbers: 9 is still 9, not 7.
    p.exp_string("  4) cell 4 (row 2, column 1)\r\n  6) cell 6 (row 2, column 3)")
        .unwrap();
    p.exp_string("  9) cell 9 (row 3, column 3)").unwrap();
    p.exp_string(PROMPT).unwrap();

    // A taken cell is not a move.
    p.send_line("5").unwrap();
    p.exp_string("'5' is not a move here").unwrap();
    p.exp_string(PROMPT).unwrap();

    p.send_line("quit").unwrap();
    p.exp_string("game ended: you quit").unwrap();
    p.exp_eof().unwrap();
    match p.process().wait().unwrap() {
        WaitStatus::Exited(_, code) => assert_eq!(code, 0),
        other => panic!("boardlab did not exit normally: {other:?}"),
    }
}

/// `undo` takes the game back to the human's previous decision: refused
/// (with the reason) before any, then the position, the move list and the
/// agent's reply to the same move come back exactly.
#[test]
fn undo_goes_back_to_the_previous_decision() {
    let mut p = play(&[
        "--game",
        "tictactoe",
        "--agents",
        "human,random",
        "--seed",
        "3",
    ]);
    p.exp_string(PROMPT).unwrap();
    p.send_line("undo").unwrap();
    p.exp_string("cannot undo: you have made no decision yet")
        .unwrap();
    p.exp_string(PROMPT).unwrap();

    p.send_line("5").unwrap();
    p.exp_string("seat 1 (random): cell 8 (row 3, column 2)")
        .unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line("undo").unwrap();
    p.exp_string("undone: 2 moves taken back, to your previous decision")
        .unwrap();
    p.exp_string("123\r\n456\r\n789").unwrap();
    p.exp_string("  5) cell 5 (row 2, column 2)").unwrap();
    p.exp_string(PROMPT).unwrap();

    // Another move, then back and the first move again: the agent's
    // stream was restored, so it answers as it did.
    p.send_line("1").unwrap();
    p.exp_string("seat 1 (random): cell").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line("undo").unwrap();
    p.exp_string("undone: 2 moves taken back").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line("5").unwrap();
    p.exp_string("seat 1 (random): cell 8 (row 3, column 2)")
        .unwrap();
    p.exp_string(PROMPT).unwrap();
    quit(p);
}

/// Fox: moves are keyed by the squares the board names, the seat line
/// names the faction and its pawns, the legend explains the board, and
/// `undo` is refused once a tile has been flipped since.
#[test]
fn fox_keys_moves_by_square_and_refuses_undo_after_a_flip() {
    let mut p = play(&["--game", "fox", "--agents", "human,random", "--seed", "1"]);
    p.exp_string("##           a face-down tile").unwrap();
    p.exp_string("      a         b         c         d         e")
        .unwrap();
    p.exp_string("you hold seat 0, the Foxes: Indigo (In) and Scarlett (Sc)")
        .unwrap();
    p.exp_string("  b1) Indigo moves to b1 (flip)").unwrap();
    p.exp_string(PROMPT).unwrap();
    // Keys are read without case or spaces.
    p.send_line(" B1").unwrap();
    p.exp_string("chance: b1 is revealed as").unwrap();
    p.exp_string("Scarlett moves to").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line("undo").unwrap();
    p.exp_string("cannot undo: a chance outcome").unwrap();
    p.exp_string("choose again knowing that outcome").unwrap();
    p.exp_string(PROMPT).unwrap();
    quit(p);
}

/// Connect Four: columns are keyed by the numbers under the board.
#[test]
fn connect_four_keys_columns_by_the_numbers_under_the_board() {
    let mut p = play(&[
        "--game",
        "connect4",
        "--agents",
        "human,random",
        "--seed",
        "2",
    ]);
    p.exp_string("1234567").unwrap();
    p.exp_string("Player 0 to move: you hold seat 0, playing X")
        .unwrap();
    p.exp_string("  4) column 4").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line("4").unwrap();
    p.exp_string("seat 1 (random): column").unwrap();
    p.exp_string("...X").unwrap();
    p.exp_string(PROMPT).unwrap();
    quit(p);
}

/// Karmaka: keys are the actions' encoding numbers, the same for the same
/// action at every decision; help shows the legend of the text board.
#[test]
fn karmaka_keys_actions_by_their_encoding_number() {
    let mut p = play(&[
        "--game",
        "karmaka",
        "--agents",
        "human,random",
        "--seed",
        "1",
    ]);
    p.exp_string("  97) pass").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line("help").unwrap();
    p.exp_string("a card you cannot see").unwrap();
    p.exp_string(PROMPT).unwrap();
    quit(p);
}
