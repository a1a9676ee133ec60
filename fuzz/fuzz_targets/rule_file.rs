//! The `.rule` reader and compiler (`@TABLE`, `@TREE`, `@COLORS`, `@NAMES`): `RuleTable::parse`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| golab_fuzz::check_rule_file(data));
