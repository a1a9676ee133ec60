//! Rule parser: `<golab::rule::Rule as FromStr>::from_str`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| golab_fuzz::check_rule(data));
