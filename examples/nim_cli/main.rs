//! The whole `boardlab` command line for a game of your own: the built-in
//! games and agents plus Nim and its perfect player, in a few lines.
//!
//! ```sh
//! cargo run --release --example nim_cli -- games
//! cargo run --release --example nim_cli -- run --game 'nim(piles=3-5-7)' --agents perfect-nim,random --games 200 --out /tmp/nim-cli
//! cargo run --release --example nim_cli -- experiment my-nim-study.toml --out /tmp/nim-study
//! ```

#[path = "../nim/game.rs"]
pub mod game;

use boardlab::cli::Registry;
use boardlab::prelude::*;
use game::{Nim, PerfectNim};

/// The registry this binary is built from.
pub fn registry() -> Registry {
    Registry::builtin()
        .with_game(
            GameInfo {
                name: "nim",
                summary: "Nim: take 1 to 3 stones from a pile; whoever takes the last stone wins",
                players: "2",
                params: &[ParamInfo {
                    name: "piles",
                    default: "3-5-7",
                    help: "one to four pile sizes joined by '-'",
                }],
                test_specs: &["nim"],
            },
            Nim::from_params,
        )
        .with_agent::<Nim>("perfect-nim", "the winning strategy of Nim", |params| {
            params.finish("perfect-nim", &[])?;
            Ok(Box::new(PerfectNim))
        })
}

fn main() -> std::process::ExitCode {
    registry().run_main()
}
