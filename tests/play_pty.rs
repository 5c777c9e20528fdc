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

/// Karmaka: a card is keyed by the code the board prints before its name,
/// with where it goes; the Deed it becomes is printed under its position
/// key; help shows the legend of the text board.
#[test]
fn karmaka_plays_a_card_by_the_code_on_the_board() {
    let mut p = play(&[
        "--game",
        "karmaka",
        "--agents",
        "human,random",
        "--seed",
        "1",
    ]);
    let before = p.exp_string(PROMPT).unwrap();
    // The first card of the human's Hand, as the board prints it.
    let hand = before
        .lines()
        .find(|l| l.trim_start().starts_with("Hand") && !l.contains("??"))
        .expect("the human's Hand is printed");
    let code: String = hand
        .split(": ")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(char::is_ascii_uppercase)
        .collect();
    assert_eq!(code.len(), 3, "{hand}");
    assert!(before.contains(&format!("{code}-points) play")), "{before}");
    p.send_line("help").unwrap();
    p.exp_string("a card you cannot see").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line(&format!("{}-points", code.to_lowercase()))
        .unwrap();
    p.exp_string(&format!("Deeds (exposed last): D1:{code} "))
        .unwrap();
    p.exp_string(PROMPT).unwrap();
    quit(p);
}

/// The label of the first row of `board` (a text board's lines) holding
/// `mark` after a `label`-byte row label, and the byte offset of the mark.
fn find(board: &str, mark: char, label: usize) -> (String, usize) {
    for line in board.lines() {
        if let Some(col) = line.get(label..).and_then(|rest| rest.find(mark)) {
            return (line[..label].trim().to_string(), col);
        }
    }
    panic!("{mark} not on the board:\n{board}")
}

/// Karmox: a square is keyed by the column letter above it and the row
/// number beside it; the human moves MGa one square east by that key.
#[test]
fn karmox_moves_to_a_square_named_by_the_board_edges() {
    let mut p = play(&[
        "--game",
        "karmox",
        "--agents",
        "human,random",
        "--seed",
        "1",
    ]);
    for key in ["ATT", "ATT", "ATT", "pass", "MGa-move"] {
        p.exp_string(PROMPT).unwrap();
        p.send_line(key).unwrap();
    }
    let before = p.exp_string(PROMPT).unwrap();
    let map: String = before
        .lines()
        .skip_while(|l| !l.starts_with("   abc"))
        .take(19)
        .map(|l| format!("{l}\n"))
        .collect();
    let letters = map.lines().next().unwrap().to_string();
    let (row, col) = find(&map[letters.len() + 1..], 'm', 3);
    // The square east of MGa, by the letter above it and the row beside it.
    let east = format!("{}{row}", &letters[3 + col + 1..3 + col + 2]);
    assert!(before.contains(&format!("  {east}) to {east}")), "{before}");
    p.send_line(&east).unwrap();
    p.exp_string(&format!("MGa (seat 0) at {east}:")).unwrap();
    p.exp_string(PROMPT).unwrap();
    quit(p);
}

/// Hamunaptra: a cell is keyed by the x above its column and the y beside
/// its row; the human takes an entrance read off the map.
#[test]
fn hamunaptra_takes_an_entrance_named_by_the_map_edges() {
    let mut p = play(&[
        "--game",
        "hamunaptra",
        "--agents",
        "human,random",
        "--seed",
        "1",
    ]);
    // Draft the first listed character until the entrances are offered.
    let mut before = p.exp_string(PROMPT).unwrap();
    for _ in 0..8 {
        if before.contains("take entrance") {
            break;
        }
        let first = before
            .lines()
            .find_map(|l| l.trim().split_once(") draft").map(|(k, _)| k.to_string()))
            .expect("a draft move");
        p.send_line(&first).unwrap();
        before = p.exp_string(PROMPT).unwrap();
    }
    let header = before
        .lines()
        .find(|l| l.starts_with("  x "))
        .expect("the map's x coordinates")
        .to_string();
    let map: String = before
        .lines()
        .skip_while(|l| !l.starts_with("  x "))
        .skip(1)
        .take_while(|l| l.len() > 4 && l[..4].trim().parse::<i32>().is_ok())
        .map(|l| format!("{l}\n"))
        .collect();
    // The first entrance on the map: its column's x (each cell is four
    // characters wide), its row's y.
    let (y, _) = find(&map, 'E', 4);
    let chars: Vec<char> = map
        .lines()
        .find(|l| l[..4].trim() == y)
        .unwrap()
        .chars()
        .collect();
    let cell = (chars[4..].iter().position(|&c| c == 'E').unwrap()) / 4;
    let xs: Vec<&str> = header[4..].split_whitespace().collect();
    let key = format!("{},{y}", xs[cell]);
    assert!(
        before.contains(&format!("{key}) take entrance")),
        "{before}"
    );
    p.send_line(&key).unwrap();
    p.exp_string(&format!("Seat 0: entrance ({key})")).unwrap();
    quit(p);
}
