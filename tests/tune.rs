//! `boardlab tune` through the real binary: the same seed gives the same
//! tune.csv, summary and preset for one and two threads, and the preset plays.

mod common;
use common::{boardlab, temp_dir};

use boardlab::agents::registry::Preset;

fn tune(dir: &std::path::Path, threads: &str) -> String {
    let out = boardlab(&[
        "tune",
        "--game",
        "tictactoe",
        "--agent",
        "mcts(iterations=20, c=[0.3,1.4,4], max_rollout=[0,1])",
        "--against",
        "random",
        "--budget",
        "16",
        "--confirm",
        "10",
        "--seed",
        "5",
        "--threads",
        threads,
        "--out",
        dir.to_str().unwrap(),
        "--preset-out",
        dir.join("tuned.toml").to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn tuning_is_deterministic_and_writes_a_preset() {
    let one = temp_dir("tune-1");
    let two = temp_dir("tune-2");
    let stdout = tune(&one, "1");
    assert_eq!(stdout, tune(&two, "2"));
    for file in ["tune.csv", "summary.md", "tuned.toml"] {
        assert_eq!(
            std::fs::read_to_string(one.join(file)).unwrap(),
            std::fs::read_to_string(two.join(file)).unwrap(),
            "{file} differs between 1 and 2 threads"
        );
    }
    let csv = std::fs::read_to_string(one.join("tune.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("phase,evaluation,game_index,seed,c,max_rollout,seat"));
    let search = lines.iter().filter(|l| l.starts_with("search,")).count();
    let confirm = lines.iter().filter(|l| l.starts_with("confirm,")).count();
    assert_eq!((search, confirm), (16, 10));
    // Each evaluation is a seat rotation: its two games share one setting
    // and the tuned agent sits in both seats.
    for pair in lines[1..=search].chunks(2) {
        let f: Vec<Vec<&str>> = pair.iter().map(|l| l.split(',').collect()).collect();
        assert_eq!(f[0][1], f[1][1]);
        assert_eq!(f[0][4..6], f[1][4..6]);
        assert_ne!(f[0][6], f[1][6]);
    }
    assert!(stdout.contains("| best |"), "{stdout}");
    let preset = std::fs::read_to_string(one.join("tuned.toml")).unwrap();
    let p = Preset::parse(&preset, "tuned.toml").unwrap();
    assert_eq!(p.kind, "mcts");
    assert!(
        p.description
            .starts_with("Tuned by NTBEA in tictactoe against random")
    );
    assert_eq!(p.params["iterations"].as_integer(), Some(20));
    let at = format!("@{},random", one.join("tuned.toml").display());
    let run = boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        &at,
        "--games",
        "2",
        "-q",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
