//! Scenario tests F1–F24 of spec §8, parameter errors and a soak test.

use super::*;
use crate::game::conformance;

#[test]
fn conformance_default() {
    conformance::check(&Fox::with("").unwrap(), conformance::Config::default());
}
