//! Any text as a preset file: parsing, conversion to a spec and building the
//! agent must return an error, never panic.
#![no_main]

use boardlab::agents::registry::{AgentSpec, Preset};
use boardlab::games::tictactoe::TicTacToe;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(preset) = Preset::parse(text, "fuzz.toml") else {
        return;
    };
    let spec = AgentSpec {
        label: "fuzz".to_string(),
        spec: preset.to_spec(),
    };
    let _ = spec.build::<TicTacToe>();
    let _ = AgentSpec::parse(&spec.spec.to_string());
});
