//! `boardlab view` and `run --trace-search` through the real binary.

mod common;

use common::{boardlab, temp_dir, without_timing};

/// With --trace-search every searched decision of a search agent carries the
/// root's candidates, whose visits add up to the iterations; random seats
/// carry none, and the games are the same as without the flag.
#[test]
fn trace_search_records_root_candidates_without_changing_games() {
    let dir = temp_dir("trace-search");
    let run = |flag: bool, name: &str| {
        let mut args = vec![
            "run",
            "--game",
            "tictactoe",
            "--agents",
            "mcts(iterations=60),random",
            "--games",
            "2",
            "--threads",
            "1",
            "-q",
        ];
        let out = dir.join(name);
        let traces = dir.join(format!("{name}-traces"));
        let (out, traces) = (
            out.to_str().unwrap().to_string(),
            traces.to_str().unwrap().to_string(),
        );
        args.extend(["--out", &out, "--trace", &traces]);
        if flag {
            args.push("--trace-search");
        }
        let o = boardlab(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (dir.join(name), dir.join(format!("{name}-traces")))
    };
    let (plain, plain_traces) = run(false, "plain");
    let (searched, traces) = run(true, "searched");
    assert_eq!(
        without_timing(&plain.join("games.csv")),
        without_timing(&searched.join("games.csv"))
    );
    let plain_text = std::fs::read_to_string(plain_traces.join("game-00000000.jsonl")).unwrap();
    assert!(!plain_text.contains("\"search\""), "off by default");
    let text = std::fs::read_to_string(traces.join("game-00000000.jsonl")).unwrap();
    let (mut searched_steps, mut mcts_steps) = (0, 0);
    for line in text.lines().skip(1) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        // Game 0 seats mcts in seat 0.
        if v.get("player") == Some(&serde_json::json!(0)) {
            mcts_steps += 1;
            // The last move of a full board is forced: no search, no candidates.
            if let Some(cands) = v.get("search") {
                searched_steps += 1;
                let visits: u64 = cands
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["visits"].as_u64().unwrap())
                    .sum();
                assert_eq!(visits, 60, "{line}");
                let chosen = &v["action"];
                assert!(
                    cands
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|c| &c["action"] == chosen),
                    "{line}"
                );
            }
        } else {
            assert!(v.get("search").is_none(), "{line}");
        }
    }
    assert!(
        searched_steps >= mcts_steps - 1 && searched_steps > 0,
        "{text}"
    );

    // The page shows them.
    let page = dir.join("game.html");
    let o = boardlab(&[
        "view",
        traces.join("game-00000000.jsonl").to_str().unwrap(),
        "--out",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"s\":[[\"cell "), "candidates with labels");
    assert!(
        !html.contains("http://") || html.matches("http://").count() == 1,
        "only the SVG namespace"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad input: one line naming the problem, exit code 2.
#[test]
fn view_refuses_bad_input() {
    let dir = temp_dir("view-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let not_trace = dir.join("x.jsonl");
    std::fs::write(&not_trace, "hello\n").unwrap();
    let missing = dir.join("missing.jsonl");
    for (file, hint) in [
        (&not_trace, "is not a trace file"),
        (&missing, "cannot read trace"),
    ] {
        let o = boardlab(&["view", file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(hint), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Text of a trace, such as an agent's name, never reaches the page's
/// markup: `<!--<script>` in a name would keep the data's script element
/// open past its end, and `</script>` would end it early.
#[test]
fn trace_text_cannot_break_the_page() {
    let dir = temp_dir("view-script");
    let traces = dir.join("t");
    let made = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "random,random",
        "--games",
        "1",
        "-q",
        "--trace",
        traces.to_str().unwrap(),
    ]);
    assert!(made.status.success());
    let trace = traces.join("game-00000000.jsonl");
    let text = std::fs::read_to_string(&trace).unwrap();
    let forged = dir.join("forged.jsonl");
    std::fs::write(
        &forged,
        text.replacen("\"random\"", "\"<!--<script></script>\"", 1),
    )
    .unwrap();
    let page = dir.join("page.html");
    let o = boardlab(&[
        "view",
        forged.to_str().unwrap(),
        "--out",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("<!--"), "the name reached the markup");
    let data = html
        .split(r#"<script type="application/json" id="data">"#)
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap();
    assert!(
        data.contains(r"\u003c!--\u003cscript>\u003c/script>"),
        "{data}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A long trace's page takes seconds to draw: on a terminal `view` shows a
/// bar counting the states drawn, with an ETA; piped, it prints only its
/// closing line. The page is the same either way.
#[cfg(unix)]
#[test]
fn view_shows_progress_on_a_terminal_and_is_quiet_when_piped() {
    let dir = temp_dir("view-progress");
    let traces = dir.join("t");
    let made = boardlab(&[
        "run",
        "--game",
        "hamunaptra",
        "--agents",
        "random,random",
        "--games",
        "1",
        "--seed",
        "1",
        "-q",
        "--trace",
        traces.to_str().unwrap(),
    ]);
    assert!(made.status.success());
    let trace = traces.join("game-00000000.jsonl");
    let (piped, shown) = (dir.join("piped.html"), dir.join("shown.html"));
    let o = boardlab(&[
        "view",
        trace.to_str().unwrap(),
        "--out",
        piped.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.contains("steps drawn in"), "{stdout}");

    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"));
    cmd.args(["view", trace.to_str().unwrap(), "--out"])
        .arg(&shown);
    let mut p = rexpect::session::spawn_command(cmd, Some(60_000)).expect("spawn over a pty");
    p.exp_string("drawing").unwrap();
    p.exp_string("states").unwrap();
    p.exp_string("ETA").unwrap();
    p.exp_string("steps drawn in").unwrap();
    p.exp_eof().unwrap();
    assert_eq!(
        std::fs::read(&piped).unwrap(),
        std::fs::read(&shown).unwrap(),
        "the bar changed the page"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
