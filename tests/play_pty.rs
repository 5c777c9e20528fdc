//! `boardlab play` driven over a pseudo-terminal, as a person would use it.

use rexpect::process::WaitStatus;
use rexpect::session::spawn_command;
use std::process::Command;

/// Generous: the machine may be busy; a passing run takes well under a second.
const TIMEOUT_MS: u64 = 30_000;

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
    p.exp_string("Player 0 to move: you hold seat 0").unwrap();
    p.exp_string("1) cell 1 (row 1, column 1)").unwrap();
    p.exp_string("9) cell 9 (row 3, column 3)").unwrap();
    p.exp_string("choice [1-9, or help]: ").unwrap();

    p.send_line("help").unwrap();
    p.exp_string("`quit` ends the game").unwrap();
    p.exp_string("choice [1-9, or help]: ").unwrap();

    // Take the centre; the agent replies and the board shows both marks.
    p.send_line("5").unwrap();
    p.exp_string("seat 1 (random): cell").unwrap();
    p.exp_string("X").unwrap();
    p.exp_string("Player 0 to move:").unwrap();
    p.exp_string("choice [1-7, or help]: ").unwrap();

    p.send_line("quit").unwrap();
    p.exp_string("game ended: you quit").unwrap();
    p.exp_eof().unwrap();
    match p.process().wait().unwrap() {
        WaitStatus::Exited(_, code) => assert_eq!(code, 0),
        other => panic!("boardlab did not exit normally: {other:?}"),
    }
}
