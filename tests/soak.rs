//! `boardlab soak` through the real binary, small: every registered game in
//! every test variant plays random games with every state checked, and the
//! report covers them all (the large soak is recorded in results/soak/); and
//! the fuzz targets' byte-steered game loop on stable.

mod common;
use common::boardlab;

use boardlab::game::Rules;
use boardlab::games::{AnyGame, GAMES};
use boardlab::with_game;

#[test]
fn every_game_and_variant_survives_a_small_soak() {
    let out = boardlab(&["soak", "--games", "300", "--seed", "7", "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(report["ok"], true);
    let specs = report["specs"].as_array().unwrap();
    let expected: Vec<String> = GAMES
        .iter()
        .flat_map(|g| g.test_specs.iter())
        .map(|s| with_game!(&AnyGame::parse(s).unwrap(), g => g.spec()))
        .collect();
    let got: Vec<&str> = specs.iter().map(|s| s["spec"].as_str().unwrap()).collect();
    assert_eq!(got, expected);
    for s in specs {
        assert_eq!(s["games"], 300, "{s}");
        assert_eq!(s["violations"], 0, "{s}");
        assert!(s["steps"].as_u64().unwrap() >= 300, "{s}");
        assert!(s["games_per_s"].as_f64().unwrap() > 0.0, "{s}");
    }
}

#[test]
fn chosen_specs_and_text_report() {
    let out = boardlab(&[
        "soak",
        "--game",
        "tictactoe",
        "--game",
        "connect4",
        "--games",
        "50",
        "--threads",
        "1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("tictactoe") && text.contains("connect4"),
        "{text}"
    );
    assert!(!text.contains("fox"), "{text}");
    assert!(text.contains("no violation found"), "{text}");
    // The same games whatever the thread count.
    let steps = |threads: &str| {
        let out = boardlab(&[
            "soak",
            "--game",
            "connect4",
            "--games",
            "80",
            "--threads",
            threads,
            "--json",
        ]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["specs"][0]["steps"].as_u64().unwrap()
    };
    assert_eq!(steps("1"), steps("2"));
}

#[test]
fn bad_soak_input_is_a_clear_error() {
    for (args, needle) in [
        (vec!["soak", "--game", "chess"], "unknown game 'chess'"),
        (vec!["soak", "--games", "0"], "number of games from 1"),
        (
            vec![
                "soak",
                "--game",
                "tictactoe",
                "--start",
                "18446744073709551615",
            ],
            "overflows",
        ),
    ] {
        let out = boardlab(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    }
}

/// The fuzz targets' game loop on stable: byte strings from a fixed stream
/// steer every game and variant, including choices of unlikely chance outcomes.
#[test]
fn byte_steered_games_conform() {
    use boardlab::game::conformance::play_bytes;
    let mut rng = boardlab::rng::rng_from_seed(17);
    for info in GAMES {
        for spec in info.test_specs {
            let game = AnyGame::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            for len in [0usize, 3, 8, 20, 200, 2000] {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| boardlab::rng::below(&mut rng, 256) as u8)
                    .collect();
                with_game!(&game, g => play_bytes(g, &bytes))
                    .unwrap_or_else(|e| panic!("{spec} with {len} bytes: {e}"));
            }
        }
    }
}
