//! Any text as a game or agent spec: parsing and building must return an
//! error, never panic.
#![no_main]

use boardlab::agents::registry::AgentSpec;
use boardlab::games::AnyGame;
use boardlab::spec::{Spec, split_list};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Device files would block or stream forever; they are not spec syntax.
    if text.contains("/dev/") || text.contains("/proc/") || text.contains("/sys/") {
        return;
    }
    if let Ok(spec) = Spec::parse(text) {
        // The canonical text parses back to the same spec.
        let again = Spec::parse(&spec.to_string()).expect("canonical spec parses");
        assert_eq!(again, spec);
    }
    let _ = AnyGame::parse(text);
    let _ = AgentSpec::parse(text);
    if let Ok(items) = split_list(text) {
        for item in items {
            let _ = AgentSpec::parse(&item);
        }
    }
});
